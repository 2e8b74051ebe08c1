"""Protocol points that set or move a rate of a list item (issues 11 and 12), in en, pt and es:

- "Notwithstanding subparagraph (b) of paragraph 2 of Article 10, as long as, under the company tax law of
  the Netherlands, a company resident there is not charged to tax on dividends it receives from a company
  resident of the other State, the percentage provided for in this subparagraph shall be reduced to 7 per
  cent": a rate replacing (b)'s, for (b)'s holdings, for the dividends the words name (from the other State
  to the Netherlands), with the "as long as" words a caveat on the state of Dutch law (NL-VN protocol VII);
- "payments for technical services ... shall be deemed to be payments to which the provisions of
  subparagraph (a) of paragraph 2 of Article 12 apply": the kind joins item (a)'s rate (NL-VN protocol IX.1).

Fixtures are short conventions of our own in the wordings of such protocols (paraphrased)."""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from typing import Any

import pytest

import taxtreaty

EN = (
    "Convention between the Kingdom of the Netherlands and the Republic of Indonesia\n\n"
    "Article 10\nDividends\n\n"
    "1. Dividends paid by a company which is a resident of a Contracting State to a resident of the other "
    "Contracting State may be taxed in that other State.\n\n"
    "2. However, such dividends may also be taxed in the Contracting State of which the company paying the "
    "dividends is a resident, but the tax so charged shall not exceed:\n"
    "a) 5 per cent of the gross amount of the dividends if the beneficial owner is a company which holds "
    "directly at least 50 per cent of the capital of the company paying the dividends;\n"
    "b) 10 per cent of the gross amount of the dividends if the beneficial owner is a company which holds "
    "directly at least 25 per cent of the capital of the company paying the dividends;\n"
    "c) 15 per cent of the gross amount of the dividends in all other cases.\n\n"
    "Article 12\nRoyalties\n\n"
    "1. Royalties arising in a Contracting State and paid to a resident of the other Contracting State may be "
    "taxed in that other State.\n\n"
    "2. However, such royalties may also be taxed in the Contracting State in which they arise, but if the "
    "recipient is the beneficial owner of the royalties the tax so charged shall not exceed:\n"
    "a) 5 per cent of the gross amount of the royalties if they are paid for the use of any patent or secret "
    "formula or process;\n"
    "b) 15 per cent of the gross amount of the royalties in all other cases.\n\n"
    "PROTOCOL\n\nAt the moment of signing the Convention the undersigned have agreed as follows:\n\n"
    "I\nAd Article 10, paragraph 2\n"
    "Notwithstanding the provisions of subparagraph (b) of paragraph 2 of Article 10, as long as, under the "
    "Netherlands Company Tax Act, a company which is a resident of the Netherlands is not charged to Netherlands "
    "company tax with respect to dividends the company receives from a company which is a resident of Indonesia "
    "the percentage provided for in this subparagraph shall be reduced to 7 per cent of the gross amount of the "
    "dividends.\n\n"
    "II\nAd Article 12, paragraph 2\n"
    "Where there is no permanent establishment, payments for technical services rendered by a resident of a "
    "Contracting State in the other Contracting State shall be deemed to be payments to which the provisions of "
    "subparagraph (a) of paragraph 2 of Article 12 apply.\n"
)
PT = (
    "Convenção entre o Reino dos Países Baixos e a República de Moçambique\n\n"
    "Artigo 10.º\nDividendos\n\n"
    "1 — Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro "
    "Estado Contratante podem ser tributados nesse outro Estado.\n\n"
    "2 — Esses dividendos podem, no entanto, ser igualmente tributados no Estado Contratante de que é residente "
    "a sociedade que paga os dividendos, mas o imposto assim estabelecido não excederá:\n"
    "a) 5 % do montante bruto dos dividendos, se o beneficiário efectivo for uma sociedade que detenha "
    "directamente pelo menos 50 % do capital da sociedade que paga os dividendos;\n"
    "b) 10 % do montante bruto dos dividendos, se o beneficiário efectivo for uma sociedade que detenha "
    "directamente pelo menos 25 % do capital da sociedade que paga os dividendos;\n"
    "c) 15 % do montante bruto dos dividendos, nos restantes casos.\n\n"
    "Artigo 12.º\nRoyalties\n\n"
    "1 — As royalties provenientes de um Estado Contratante e pagas a um residente do outro Estado Contratante "
    "podem ser tributadas nesse outro Estado.\n\n"
    "2 — Todavia, essas royalties podem ser igualmente tributadas no Estado Contratante de que provêm, mas, se o "
    "beneficiário efectivo das royalties for um residente do outro Estado Contratante, o imposto assim "
    "estabelecido não excederá:\n"
    "a) 5 % do montante bruto das royalties pagas pelo uso de uma patente ou de uma fórmula ou processo "
    "secretos;\n"
    "b) 15 % do montante bruto das royalties, nos restantes casos.\n\n"
    "PROTOCOLO\n\nNo momento da assinatura da Convenção, os signatários acordaram:\n\n"
    "1. Ad artigo 10.º Não obstante o disposto na alínea b) do n.º 2 do artigo 10.º, enquanto, nos termos da lei "
    "do imposto sobre as sociedades dos Países Baixos, uma sociedade residente dos Países Baixos não for "
    "tributada relativamente aos dividendos que receba de uma sociedade residente de Moçambique o percentual "
    "previsto nesta alínea será reduzido para 7 % do montante bruto dos dividendos.\n\n"
    "2. Ad artigo 12.º Não existindo estabelecimento estável, os pagamentos por serviços técnicos prestados por "
    "um residente de um Estado Contratante no outro Estado Contratante serão considerados pagamentos a que se "
    "aplica a alínea a) do n.º 2 do artigo 12.º\n"
)
ES = (
    "Convenio entre el Reino de los Países Bajos y la República del Perú\n\n"
    "Artículo 10\nDividendos\n\n"
    "1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro "
    "Estado Contratante pueden someterse a imposición en ese otro Estado.\n\n"
    "2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que "
    "resida la sociedad que paga los dividendos, pero el impuesto así exigido no podrá exceder del:\n"
    "a) 5 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que posea "
    "directamente al menos el 50 por ciento del capital de la sociedad que paga los dividendos;\n"
    "b) 10 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que posea "
    "directamente al menos el 25 por ciento del capital de la sociedad que paga los dividendos;\n"
    "c) 15 por ciento del importe bruto de los dividendos en los demás casos.\n\n"
    "Artículo 12\nRegalías\n\n"
    "1. Las regalías procedentes de un Estado Contratante y pagadas a un residente del otro Estado Contratante "
    "pueden someterse a imposición en ese otro Estado.\n\n"
    "2. Sin embargo, dichas regalías pueden someterse también a imposición en el Estado Contratante del que "
    "procedan, pero si el beneficiario efectivo es residente del otro Estado Contratante, el impuesto así "
    "exigido no podrá exceder del:\n"
    "a) 5 por ciento del importe bruto de las regalías pagadas por el uso de patentes o de fórmulas o "
    "procedimientos secretos;\n"
    "b) 15 por ciento del importe bruto de las regalías en los demás casos.\n\n"
    "PROTOCOLO\n\nEn el momento de la firma del Convenio, los signatarios han convenido:\n\n"
    "1. Con referencia al artículo 10\n"
    "No obstante lo dispuesto en el subapartado b) del apartado 2 del artículo 10, mientras, según la ley del "
    "impuesto sobre sociedades de los Países Bajos, una sociedad residente de los Países Bajos no esté gravada "
    "con respecto a los dividendos que reciba de una sociedad residente del Perú el porcentaje previsto en este "
    "subapartado se reducirá al 7 por ciento del importe bruto de los dividendos.\n\n"
    "2. Con referencia al artículo 12\n"
    "Cuando no exista un establecimiento permanente, los pagos por servicios técnicos prestados por un residente "
    "de un Estado Contratante en el otro Estado Contratante se considerarán pagos a los que se aplica el "
    "subapartado a) del apartado 2 del artículo 12.\n"
)
TEXTS = {"en": (EN, "ID"), "pt": (PT, "MZ"), "es": (ES, "PE")}
HOLDING = {"income": "dividends", "beneficial_owner": True, "recipient": "company", "capital_pct": 30}


@cache
def parsed(text: str) -> taxtreaty.Document:
    return taxtreaty.parse(text)


def ask(text: str, **facts: Any) -> taxtreaty.Decision:
    return taxtreaty.decide(parsed(text), facts)


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_a_point_reducing_an_items_rate_as_long_as_a_law_stands_replaces_it_with_a_caveat(language: str) -> None:
    text, other = TEXTS[language]
    # the dividends the words name (from the other State to a Dutch company): 7%, the proviso a caveat, not a
    # fact asked of the recipient
    reduced = ask(text, source=other, residence="NL", **HOLDING)
    assert (reduced.status, reduced.max_rate_pct) == ("determined", Decimal("7")), reduced.to_dict()
    assert [c["kind"] for c in reduced.caveats] == ["domestic_law"]
    assert reduced.eid.startswith("protocol")
    # a recipient the user says is taxed changes nothing: the words are about the law, not the recipient
    taxed = ask(text, source=other, residence="NL", recipient_subject_to_tax=True, **HOLDING)
    assert taxed.max_rate_pct == Decimal("7")
    # the reduction keeps (b)'s holdings: a 60% holder still gets (a)'s 5%, a 10% holder (c)'s 15%
    assert ask(text, source=other, residence="NL", **{**HOLDING, "capital_pct": 60}).max_rate_pct == Decimal("5")
    assert ask(text, source=other, residence="NL", **{**HOLDING, "capital_pct": 10}).max_rate_pct == Decimal("15")
    # Dutch dividends to the other State: (b) as it stands, with no word of the point
    plain = ask(text, source="NL", residence=other, **HOLDING)
    assert (plain.status, plain.max_rate_pct, plain.eid) == ("determined", Decimal("10"), "art_10__para_2__point_b")
    assert plain.caveats == []


@pytest.mark.parametrize("language", sorted(TEXTS))
def test_a_kind_deemed_within_an_item_takes_its_rate(language: str) -> None:
    text, other = TEXTS[language]
    royalties = {"income": "royalties", "beneficial_owner": True, "recipient": "company"}
    services = ask(text, source=other, residence="NL", royalty_kind="technical_services", **royalties)
    assert (services.status, services.max_rate_pct) == ("determined", Decimal("5")), services.to_dict()
    assert services.eid.startswith("protocol")
    # the other kinds keep their items: the deeming moves one kind, not the list
    assert ask(text, source="NL", residence=other, royalty_kind="patents", **royalties).max_rate_pct == Decimal("5")
    assert ask(text, source="NL", residence=other, royalty_kind="trademarks", **royalties).max_rate_pct == Decimal("15")


def test_rate_named_ends_a_condition_before_the_consequence() -> None:
    # "... with respect to dividends the company receives from a company which is a resident of X the percentage
    # provided for in this subparagraph shall be reduced to": the words naming the rate are the consequence's
    # subject, not words of the condition (they were left unread)
    from taxtreaty.provisions.unread import unread_pieces
    from taxtreaty.provisions.vocabulary import fold_same_length, require_phrases

    for language, words in (
        ("en", "with respect to dividends the company receives from a company which is a resident of Indonesia the "
               "percentage provided for in this subparagraph shall be reduced to 7 per cent"),
        ("pt", "relativamente aos dividendos que receba de uma sociedade residente de Moçambique o percentual previsto "
               "nesta alínea será reduzido para 7 %"),
        ("es", "con respecto a los dividendos que reciba de una sociedad residente del Perú el porcentaje previsto en "
               "este subapartado se reducirá al 7 por ciento"),
    ):
        assert unread_pieces([(words, fold_same_length(words))], require_phrases(language)) == [], language
