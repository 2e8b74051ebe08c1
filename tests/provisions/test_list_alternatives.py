"""Words of a list of alternatives the reader could not read are one more alternative, never a further
condition on the kinds it did read (provisions/alternatives.py). "préstamos otorgados por bancos y compañías de
seguros, o de bonos ... que se negocien ..." read as "a bank AND the unread words" asked a bank about words no
one can answer, and gave an individual holding traded bonds the rate of "all other cases". Conventions of our
own writing, in the three languages: a bank (or a bank loan) satisfies the rate; a recipient that is none of the
read kinds is open on the unread words, never given the general rate, except an individual where the list is
of entities; unread words joined by "and the ..." stay a condition of the read kind."""

from __future__ import annotations

from decimal import Decimal

import pytest

from taxtreaty.pipeline import compile_text
from taxtreaty.rules import scenario_from
from taxtreaty.rules.engine import decide_compiled

HEAD = {
    "es": ("Convenio entre el Reino de España y la República de Chile\n\nArtículo 11\nIntereses\n\n"
           "1. Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante "
           "pueden someterse a imposición en ese otro Estado.\n\n"
           "2. Sin embargo, estos intereses pueden someterse también a imposición en el Estado Contratante del que "
           "procedan, pero si el beneficiario efectivo de los intereses es residente del otro Estado Contratante, el "
           "impuesto así exigido no podrá exceder del:\n"),
    "en": ("Convention between the Kingdom of the Netherlands and the Republic of Ghana\n\nArticle 11\nInterest\n\n"
           "1. Interest arising in a Contracting State and paid to a resident of the other Contracting State may be "
           "taxed in that other State.\n\n"
           "2. However, such interest may also be taxed in the Contracting State in which it arises, but if the "
           "beneficial owner of the interest is a resident of the other Contracting State, the tax so charged shall "
           "not exceed:\n"),
    "pt": ("Convenção entre a República Portuguesa e a República de Angola\n\nArtigo 11.º\nJuros\n\n"
           "1 — Os juros provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante podem "
           "ser tributados nesse outro Estado.\n\n"
           "2 — No entanto, esses juros podem ser igualmente tributados no Estado Contratante de que provêm, mas se o "
           "beneficiário efectivo dos juros for um residente do outro Estado Contratante, o imposto assim estabelecido "
           "não excederá:\n"),
}
PARTIES = {"es": ("ES", "CL"), "en": ("NL", "GH"), "pt": ("PT", "AO")}
#: (language, item a), the unread words, what the rate's read alternative is)
LENDERS = [
    ("es", "a) 5 por ciento del importe bruto de los intereses derivados de préstamos otorgados por bancos y compañías "
           "de seguros, o de bonos o valores que se negocien regular y sustancialmente en un mercado de valores "
           "reconocido;\n", "se negocien regular", "loan"),
    ("en", "a) 5 per cent of the gross amount of the interest if the interest is paid on a loan granted by a bank or by "
           "a savings institution;\n", "savings institution", "loan"),
    ("pt", "a) 5 por cento do montante bruto dos juros se os juros forem pagos em razão de um empréstimo concedido por "
           "um banco ou por uma caixa económica;\n", "caixa económica", "loan"),
    ("es", "a) 5 por ciento del importe bruto de los intereses si los intereses se pagan a un banco o a una caja de "
           "ahorros;\n", "caja de ahorros", "bank"),
    ("en", "a) 5 per cent of the gross amount of the interest if the interest is paid to a bank or to a savings "
           "institution;\n", "savings institution", "bank"),
    ("pt", "a) 5 por cento do montante bruto dos juros se os juros forem pagos a um banco ou a uma caixa económica;\n",
     "caixa económica", "bank"),
]
OTHERWISE = {"es": "b) 15 por ciento del importe bruto de los intereses en todos los demás casos.\n",
             "en": "b) 15 per cent of the gross amount of the interest in all other cases.\n",
             "pt": "b) 15 por cento do montante bruto dos juros em todos os outros casos.\n"}


def _ask(treaty, language: str, **facts):
    source, residence = PARTIES[language]
    return decide_compiled(treaty, scenario_from({"income": "interest", "source": source, "residence": residence,
                                                  "beneficial_owner": True, "date": "2024-06-01", **facts}))


@pytest.mark.parametrize(("language", "item", "unread", "read"), LENDERS)
def test_unread_members_of_a_list_of_lenders_are_another_alternative(language: str, item: str, unread: str,
                                                                      read: str) -> None:
    treaty = compile_text(HEAD[language] + item + OTHERWISE[language], list(PARTIES[language]))
    # the read member satisfies the rate, with nothing asked about the words of the others
    given = {"loan_kind": "bank_loan", "recipient": "company"} if read == "loan" else {"recipient": "bank", "loan_kind": "other"}
    low = _ask(treaty, language, **given)
    assert (low.status, low.max_rate_pct) == ("determined", Decimal(5)), low.to_dict()
    # a lender of none of the read kinds: open on the words not read, never the rate of all other cases
    other = _ask(treaty, language, recipient="company", loan_kind="other" if read == "bank" else "bonds",
                 recipient_bank=False, recipient_insurance_company=False)
    assert other.status == "indeterminate", other.to_dict()
    assert any(unread in u["quote"] for u in other.unread), other.unread
    assert {c.max_rate_pct for c in other.candidates} >= {Decimal(5), Decimal(15)}
    if read == "bank":
        # a list of entities: an individual is none of them, and gets the rate of all other cases
        person = _ask(treaty, language, recipient="individual", loan_kind="other")
        assert (person.status, person.max_rate_pct) == ("determined", Decimal(15)), person.to_dict()


AND_THE = {
    "es": "a) 5 por ciento del importe bruto de los intereses si los intereses se pagan a un banco y el préstamo está "
          "inscrito en el registro de la autoridad monetaria;\n",
    "en": "a) 5 per cent of the gross amount of the interest if the interest is paid to a bank and the loan is "
          "registered with the exchange control authorities;\n",
    "pt": "a) 5 por cento do montante bruto dos juros se os juros forem pagos a um banco e o empréstimo estiver "
          "registado junto das autoridades cambiais;\n",
}


@pytest.mark.parametrize("language", sorted(AND_THE))
def test_unread_words_joined_to_a_kind_by_and_the_stay_its_condition(language: str) -> None:
    treaty = compile_text(HEAD[language] + AND_THE[language] + OTHERWISE[language], list(PARTIES[language]))
    bank = _ask(treaty, language, recipient="bank", loan_kind="bank_loan")
    assert bank.status == "indeterminate" and bank.unread, bank.to_dict()


INSURERS = {
    "es": "a) 5 por ciento del importe bruto de los intereses derivados de préstamos otorgados por bancos y compañías de "
          "seguros, o de bonos o valores que se negocien regular y sustancialmente en un mercado de valores reconocido;\n",
    "en": "a) 5 per cent of the gross amount of the interest derived from loans granted by banks and insurance "
          "companies, or from bonds or securities which are regularly and substantially traded on a recognised "
          "securities market;\n",
    "pt": "a) 5 por cento do montante bruto dos juros provenientes de empréstimos concedidos por bancos e companhias de "
          "seguros, ou de obrigações ou títulos que sejam negociados regularmente numa bolsa de valores reconhecida;\n",
}


@pytest.mark.parametrize("language", sorted(INSURERS))
def test_lenders_banks_and_insurers_or_traded_bonds_are_two_alternatives(language: str) -> None:
    treaty = compile_text(HEAD[language] + INSURERS[language] + OTHERWISE[language], list(PARTIES[language]))
    assert _ask(treaty, language, recipient="bank", loan_kind="bank_loan").max_rate_pct == Decimal(5)
    # an insurer's loan is a loan granted by a financial institution (loan_kind bank_loan), whoever holds it
    insurer = _ask(treaty, language, recipient="insurance_company", loan_kind="bank_loan")
    assert (insurer.status, insurer.max_rate_pct) == ("determined", Decimal(5)), insurer.to_dict()
    # the bonds' qualifier is theirs alone: a bond holder is open on it, a private loan is not
    bonds = _ask(treaty, language, recipient="individual", loan_kind="bonds")
    assert bonds.status == "indeterminate" and bonds.unread, bonds.to_dict()
    private = _ask(treaty, language, recipient="individual", loan_kind="other")
    assert (private.status, private.max_rate_pct) == ("determined", Decimal(15)), private.to_dict()
    # the lenders are the kind of loan: a company's other debt-claim is neither, and nothing is asked
    company = _ask(treaty, language, recipient="company", loan_kind="other")
    assert (company.status, company.max_rate_pct) == ("determined", Decimal(15)), company.to_dict()
