"""Interest articles in the wordings Spain's conventions (BOE) and Latin American ones print, from
short sentences of our own in their shape (issue 11): the exemption written as "sólo pueden
someterse a imposición en este otro Estado si el perceptor ... es su beneficiario efectivo y"
followed by alternatives a)-d) (each item one case, never every payment: read as the whole
paragraph it made interest paid to any company exempt, confidently wrong); "es ese otro Estado",
"los paga el Estado mencionado en primer lugar", "pagados a un Estado contratante", "cualquiera de
las entidades mencionadas en el inciso a)", "incluyendo sus subdivisiones políticas"; "bancos" in the
plural (the banks that grant the loans), while a longer list of lenders ("por bancos y compañías de
seguros, o de bonos ...") stays words not read."""

from __future__ import annotations

from typing import Any

import pytest

import taxtreaty

HEAD = "CONVENIO ENTRE EL REINO DE ESPAÑA Y LA REPÚBLICA DE COLOMBIA PARA EVITAR LA DOBLE IMPOSICIÓN\n\n"
GRANT = ("Artículo 11.\nIntereses.\n1. Los intereses procedentes de un Estado contratante y pagados a un residente "
         "del otro Estado contratante pueden someterse a imposición en ese otro Estado.\n")

# the exemption as the BOE prints it: an exclusive rule whose condition goes on in its items
ITEMS_AFTER_Y = HEAD + GRANT + """2. Sin embargo, estos intereses pueden someterse también a imposición en el Estado contratante del que procedan y según su legislación, pero, si el beneficiario efectivo es un residente del otro Estado contratante, el impuesto así exigido no podrá exceder del 10 por 100 del importe bruto de los intereses.
3. No obstante lo dispuesto en el apartado 2, los intereses procedentes de un Estado contratante y pagados a un residente del otro Estado contratante sólo pueden someterse a imposición en este otro Estado si el perceptor de los intereses es su beneficiario efectivo y
a) es ese otro Estado o el Banco Central, una subdivisión política o una entidad local del mismo;
b) los intereses los paga el Estado mencionado en primer lugar o una de sus entidades locales; o
c) es un fondo de pensiones reconocido por ese otro Estado.
"""

# a list of rates and an exemption as Latin American conventions print them
LISTS = HEAD + GRANT + """2. Sin embargo, dichos intereses también pueden someterse a imposición en el Estado contratante del que procedan, pero si el beneficiario efectivo de los intereses es un residente del otro Estado contratante, el impuesto así exigido no podrá exceder del:
a) 5 por ciento del importe bruto de los intereses pagados a bancos;
b) 12 por ciento del importe bruto de los intereses en cualquier otro caso.
3. No obstante las disposiciones del párrafo 2, los intereses a que se refiere el párrafo 1 sólo podrán someterse a imposición en el Estado contratante en el que resida el perceptor si:
a) los intereses son pagados a un Estado contratante, una entidad local del mismo, o el Banco Central de un Estado contratante;
b) los intereses son pagados por cualquiera de las entidades mencionadas en el inciso a).
"""

# one sentence naming the State "incluyendo sus subdivisiones", and a rate for bank loans
ONE_SENTENCE = HEAD + GRANT + """2. Sin embargo, dichos intereses pueden someterse también a imposición en el Estado contratante del que procedan, pero si el beneficiario efectivo de los intereses es un residente del otro Estado contratante, el impuesto así exigido no podrá exceder de:
a) 10 por ciento del importe bruto de los intereses por préstamos otorgados por bancos;
b) 15 por ciento del importe bruto de los intereses en los demás casos.
3. No obstante las disposiciones del párrafo 2, los intereses procedentes de un Estado contratante sólo podrán someterse a imposición en el otro Estado contratante si el beneficiario efectivo de los intereses es el Estado contratante, incluyendo sus subdivisiones políticas o administrativas o entidades locales, o el Banco Central de ese otro Estado contratante.
"""


def _decide(text: str, **facts: Any) -> dict[str, Any]:
    scenario = {"income": "interest", "source": "CO", "residence": "ES", "beneficial_owner": True,
                "date": "2024-05-01", "payer": "company", **facts}
    return taxtreaty.decide(taxtreaty.parse(text), scenario).to_dict()


@pytest.mark.parametrize(("text", "facts", "status", "rate"), [
    # the items are the cases the residence State alone taxes; any other interest keeps the 10 % cap
    (ITEMS_AFTER_Y, {"recipient": "company"}, "determined", "10"),
    (ITEMS_AFTER_Y, {"recipient": "central_bank"}, "determined", "0"),
    (ITEMS_AFTER_Y, {"recipient": "government"}, "determined", "0"),       # "es ese otro Estado"
    (ITEMS_AFTER_Y, {"recipient": "company", "payer": "government"}, "determined", "0"),  # "los paga el Estado ..."
    (ITEMS_AFTER_Y, {"recipient": "company", "payer": "local_authority"}, "determined", "0"),
    (LISTS, {"recipient": "bank"}, "determined", "5"),                       # "pagados a bancos"
    # a company may be a bank: "company" alone leaves the bank's rate open
    (LISTS, {"recipient": "individual"}, "determined", "12"),
    (LISTS, {"recipient": "government"}, "determined", "0"),                 # "pagados a un Estado contratante"
    (LISTS, {"recipient": "central_bank"}, "determined", "0"),               # "... del mismo" is no condition
    (LISTS, {"recipient": "company", "payer": "government"}, "determined", "0"),  # "las entidades mencionadas"
    (ONE_SENTENCE, {"recipient": "central_bank"}, "determined", "0"),        # "incluyendo sus subdivisiones"
    (ONE_SENTENCE, {"recipient": "local_authority"}, "determined", "0"),
    # "por préstamos otorgados por bancos": a bank loan (loan_kind), whoever the recipient is; without the
    # kind of loan the 10 % or the 15 % cannot be chosen
    (ONE_SENTENCE, {"recipient": "bank", "loan_kind": "bank_loan"}, "determined", "10"),
    (ONE_SENTENCE, {"recipient": "bank"}, "indeterminate", None),
    (ONE_SENTENCE, {"recipient": "individual", "loan_kind": "other"}, "determined", "15"),
])
def test_interest_exemptions_as_spanish_conventions_print_them(text, facts, status, rate):
    decision = _decide(text, **facts)
    assert decision["status"] == status
    assert (None if decision["max_rate_pct"] is None else str(decision["max_rate_pct"])) == rate


# a protocol in the BOE's shape: numbered points whose heading names a paragraph ("En relación con el
# apartado 2 del artículo 10.") and is a sentence of its own, the point's words in the next one
PROTOCOL = HEAD + """Artículo 10.
Dividendos.
1. Los dividendos pagados por una sociedad residente de un Estado contratante a un residente del otro Estado contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado contratante en que resida la sociedad que paga los dividendos, pero, si el beneficiario efectivo de los dividendos es un residente del otro Estado contratante, el impuesto así exigido no podrá exceder del:
a) 0 por 100 del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que posea directamente al menos el 20 por 100 del capital de la sociedad que paga los dividendos;
b) 5 por 100 del importe bruto de los dividendos en todos los demás casos.

Artículo 12.
Cánones.
1. Los cánones procedentes de un Estado contratante y pagados a un residente del otro Estado contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, estos cánones pueden someterse también a imposición en el Estado contratante del que procedan, pero si el beneficiario efectivo de los cánones es un residente del otro Estado contratante, el impuesto así exigido no podrá exceder del 10 por 100 del importe bruto de los cánones.

PROTOCOLO
En el momento de proceder a la firma del Convenio, ambas partes han convenido las siguientes disposiciones que forman parte integrante del Convenio.
1. En relación con el artículo 12. Si Colombia acordase después con un tercer Estado un tipo impositivo inferior al previsto en el apartado 2 del artículo 12, ese tipo se aplicará automáticamente a efectos del presente Convenio.
2. En relación con el apartado 2 del artículo 10. El tipo del 0 por 100 no se aplicará cuando los dividendos se paguen a una sociedad que no esté sometida a imposición sobre dichos dividendos en el Estado de su residencia.
"""


def test_a_point_that_withdraws_the_zero_rate_asks_whether_the_recipient_is_taxed():
    # "El tipo del 0 por 100 no se aplicará cuando ... no esté sometida a imposición": the 0 % item only,
    # for a recipient subject to tax; the rate of the other cases is untouched (read before: 0 % for every company)
    dividends = {"income": "dividends", "recipient": "company", "capital_pct": 30}
    assert _decide(PROTOCOL, **dividends)["missing_facts"] == ["recipient_subject_to_tax"]
    assert str(_decide(PROTOCOL, **dividends, recipient_subject_to_tax=True)["max_rate_pct"]) == "0"
    assert str(_decide(PROTOCOL, **dividends, recipient_subject_to_tax=False)["max_rate_pct"]) == "5"
    assert str(_decide(PROTOCOL, income="dividends", recipient="company", capital_pct=5)["max_rate_pct"]) == "5"


def test_a_most_favoured_nation_point_quotes_its_own_words_only():
    (cap,) = [p for p in taxtreaty.provisions(taxtreaty.parse(PROTOCOL)).provisions
              if p.topic == "royalties" and p.kind == "withholding_cap"]
    (caveat,) = cap.conditions["caveats"]
    assert caveat["kind"] == "mfn" and caveat["eid"] == "protocol_1__para_1"
    # the point ends with its own sentence, not with the number of the next point ("... Convenio. 2.")
    assert caveat["quote"].endswith("a efectos del presente Convenio.")


@pytest.mark.parametrize(("language", "words", "facts"), [
    ("es", "El tipo del 0 por 100 no se aplicará cuando la sociedad no esté sometida a imposición sobre los dividendos.",
     {"recipient_subject_to_tax": True}),
    ("es", "El tipo del 0 por 100 se aplicará cuando la sociedad esté sujeta al impuesto sobre sociedades.",
     {"recipient_subject_to_tax": True}),
    ("en", "The rate of 5 per cent shall not apply if the company is not subject to tax on the dividends.",
     {"recipient_subject_to_tax": True}),
    ("pt", "A taxa de 5 % não é aplicável se a sociedade não estiver sujeita ao imposto sobre os lucros.",
     {"recipient_subject_to_tax": True}),
])
def test_the_recipients_taxation_denied_twice_is_a_fact(language, words, facts):
    from taxtreaty.provisions.provisos import sort_words
    from taxtreaty.provisions.vocabulary import phrases
    found = sort_words(words, phrases(language))
    assert (found.kind, found.facts) == ("fact", facts)


@pytest.mark.parametrize(("language", "words"), [
    ("es", "En relación con el apartado 2 del artículo 10."),
    ("es", "En relación con los artículos 10, 11 y 12."),
    ("en", "With reference to paragraph 3 of Article 11."),
    ("pt", "Com referência ao n.º 3 do artigo 11.º"),
])
def test_a_heading_that_is_a_sentence_of_its_own_is_no_condition(language, words):
    from taxtreaty.provisions.provisos import sort_words
    from taxtreaty.provisions.vocabulary import phrases
    assert sort_words(words, phrases(language)).kind == "none"


# Mexican wordings (DOF): "que tenga la propiedad directamente de por lo menos el 10 por ciento", a rate that
# replaces another item's for the first years ("se aplicará en lugar de la prevista en el inciso b)"), and an
# exemption "no serán sometidos a imposición ... si el beneficiario efectivo ... es un fondo de pensiones"
MEXICO = """CONVENIO ENTRE LOS ESTADOS UNIDOS MEXICANOS Y LA REPÚBLICA DE ISLANDIA PARA EVITAR LA DOBLE IMPOSICIÓN

ARTÍCULO 10
DIVIDENDOS
1. Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos también pueden someterse a imposición en el Estado Contratante en el que resida la sociedad que pague los dividendos, pero si el beneficiario efectivo de los dividendos es residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del:
a) 5 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad (excluidas las sociedades de personas), que tenga la propiedad directamente de por lo menos el 10 por ciento del capital de la sociedad que paga los dividendos;
b) 10 por ciento del importe bruto de los dividendos en todos los demás casos.
3. Durante un período de 5 años a partir de la fecha en que surtan sus efectos las disposiciones del presente Artículo, la tasa del 15 por ciento se aplicará en lugar de la prevista en el inciso b) del párrafo 2.
4. No obstante lo dispuesto en el párrafo 2, los dividendos no serán sometidos a imposición en el Estado Contratante en el que resida la sociedad que pague los dividendos si el beneficiario efectivo de los dividendos es un fondo de pensiones que sea residente del otro Estado Contratante.
"""


@pytest.mark.parametrize(("facts", "status", "rate"), [
    ({"recipient": "company", "capital_pct": 30}, "determined", "5"),   # "tenga la propiedad directamente de por lo menos"
    # the 10 % of b) is replaced by 15 % for the first five years: which one applies is not read, so it is asked
    ({"recipient": "individual"}, "indeterminate", None),
    ({"recipient": "pension_fund"}, "determined", "0"),                 # "no serán sometidos a imposición"
])
def test_mexican_dividend_wordings(facts, status, rate):
    decision = taxtreaty.decide(taxtreaty.parse(MEXICO), {"income": "dividends", "source": "MX", "residence": "IS",
                                                        "beneficial_owner": True, "date": "2010-01-01", **facts}).to_dict()
    assert decision["status"] == status
    assert (None if decision["max_rate_pct"] is None else str(decision["max_rate_pct"])) == rate
    if status == "indeterminate":
        assert "en lugar de la prevista en el inciso b)" in str(decision["unread"])


# a holding and an investment, as the BOE prints the sum: in words with its figure in brackets
INVESTED = HEAD + """Artículo 10.
Dividendos.
1. Los dividendos pagados por una sociedad residente de un Estado contratante a un residente del otro Estado contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado contratante en que resida la sociedad que paga los dividendos, pero si el beneficiario efectivo de los dividendos es un residente del otro Estado contratante, el impuesto así exigido no podrá exceder del:
a) 5 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que posea directamente al menos el 25 por ciento del capital de la sociedad que paga los dividendos y que haya invertido más de {sum} euros, o el importe equivalente en cualquier otra moneda, en la sociedad que paga los dividendos;
b) 10 por ciento del importe bruto de los dividendos en todos los demás casos.
"""


@pytest.mark.parametrize("sum_", ["doscientos cincuenta mil (250.000)", "250.000"])
@pytest.mark.parametrize(("invested", "status", "rate"), [
    (None, "indeterminate", None),        # the investment is asked
    (300000, "determined", "5"),
    (100000, "determined", "10"),
])
def test_an_investment_in_words_and_figures_is_a_fact(sum_, invested, status, rate):
    facts = {"income": "dividends", "recipient": "company", "capital_pct": 30}
    if invested is not None:
        facts.update(invested_amount=invested, invested_currency="EUR")
    decision = _decide(INVESTED.format(sum=sum_), **facts)
    assert decision["status"] == status
    assert (None if decision["max_rate_pct"] is None else str(decision["max_rate_pct"])) == rate
    if invested is None:
        assert decision["missing_facts"] == ["invested_amount"]


# the MLI's holding period as the BOE prints it: "durante un período de 365 días que comprenda el día de pago de los
# dividendos", with the note on how it is counted in brackets (before: "comprenda" was a word not read, so the 5 %
# was indeterminate even for a holding of years)
HELD = HEAD + """Artículo 10.
Dividendos.
1. Los dividendos pagados por una sociedad residente de un Estado contratante a un residente del otro Estado contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado contratante en que resida la sociedad que paga los dividendos, pero si el beneficiario efectivo de los dividendos es un residente del otro Estado contratante, el impuesto así exigido no podrá exceder del:
a) 5 por ciento del importe bruto de los dividendos si el beneficiario efectivo es una sociedad (distinta de una sociedad de personas) que posea directamente al menos el 20 por ciento del capital de la sociedad que paga los dividendos durante un período de 365 días que comprenda el día de pago de los dividendos (a efectos del cómputo de dicho período, no se tendrán en cuenta los cambios de propiedad que resulten de una fusión de la sociedad que paga los dividendos);
b) 15 por ciento del importe bruto de los dividendos en todos los demás casos.
"""


@pytest.mark.parametrize(("facts", "status", "rate", "missing"), [
    ({"capital_pct": 40, "held_days": 500}, "determined", "5", []),
    ({"capital_pct": 40, "held_days": 100}, "determined", "15", []),
    ({"capital_pct": 40}, "indeterminate", None, ["held_days"]),
    ({"capital_pct": 10}, "determined", "15", []),
])
def test_a_holding_period_that_comprises_the_day_of_payment(facts, status, rate, missing):
    decision = _decide(HELD, income="dividends", recipient="company", **facts)
    assert (decision["status"], decision["missing_facts"], decision["unread"]) == (status, missing, [])
    assert (None if decision["max_rate_pct"] is None else str(decision["max_rate_pct"])) == rate


# an exemption list whose last item is a loan guaranteed by the bodies its other items name, cited as a run of
# letters ("por una institución a que se refieren las letras a) a c)"): a government's guarantee, a fact the user
# gives (loan_kind); before, the item was words not read and every interest payment was indeterminate
def _guaranteed(items: str) -> str:
    return HEAD + GRANT + """2. Sin embargo, dichos intereses pueden someterse también a imposición en el Estado contratante del que procedan, pero si el beneficiario efectivo de los intereses es un residente del otro Estado contratante, el impuesto así exigido no podrá exceder del 12 por ciento del importe bruto de los intereses.
3. No obstante lo dispuesto en el apartado 2, los intereses procedentes de un Estado contratante estarán exentos de imposición en ese Estado si el beneficiario efectivo es:
""" + items


PUBLIC_ITEMS = _guaranteed("""a) el Gobierno o una entidad local del otro Estado contratante;
b) el Banco Central del otro Estado contratante;
c) una institución financiera cuyo capital sea propiedad total del Gobierno del otro Estado contratante;
d) un residente del otro Estado contratante, respecto de créditos garantizados o asegurados por una institución a que se refieren las letras a) a c).
""")
# a bank among the bodies cited: the guarantee is no government's, the item stays words not read
BANK_AMONG = _guaranteed("""a) el Gobierno del otro Estado contratante;
b) un banco residente del otro Estado contratante;
c) un residente del otro Estado contratante, respecto de créditos garantizados por una institución a que se refieren las letras a) y b).
""")


@pytest.mark.parametrize(("text", "facts", "status", "rate", "missing"), [
    (PUBLIC_ITEMS, {"recipient": "company", "loan_kind": "other"}, "determined", "12", []),
    (PUBLIC_ITEMS, {"recipient": "company", "loan_kind": "government_guaranteed"}, "determined", "0", []),
    (PUBLIC_ITEMS, {"recipient": "company"}, "indeterminate", None, ["loan_kind"]),
    (PUBLIC_ITEMS, {"recipient": "central_bank"}, "determined", "0", []),
    (BANK_AMONG, {"recipient": "individual", "loan_kind": "other"}, "determined", "12", []),  # no guarantee at all
])
def test_a_guarantee_by_the_bodies_of_a_run_of_letters(text, facts, status, rate, missing):
    decision = _decide(text, **facts)
    assert (decision["status"], decision["missing_facts"]) == (status, missing)
    assert (None if decision["max_rate_pct"] is None else str(decision["max_rate_pct"])) == rate


def test_a_guarantee_by_a_bank_among_the_bodies_cited_stays_words_not_read():
    (item,) = [p for p in taxtreaty.provisions(taxtreaty.parse(BANK_AMONG)).provisions
               if p.cite.eid == "art_11__para_3__point_c"]
    assert "letras a) y b)" in item.conditions["unread_condition"]


@pytest.mark.parametrize(("language", "words", "letters"), [
    ("es", "por una institución a que se refieren las letras a) a c)", ["a", "b", "c"]),
    ("es", "por las entidades mencionadas en los incisos b) y d)", ["b", "d"]),
    ("en", "by a body referred to in subparagraphs a) to d)", ["a", "b", "c", "d"]),
    ("pt", "por uma entidade referida nas alíneas a) a c)", ["a", "b", "c"]),
])
def test_a_run_of_lettered_items_names_each(language, words, letters):
    from taxtreaty.provisions.figures import find_point_references
    from taxtreaty.provisions.vocabulary import fold_same_length, phrases
    assert find_point_references(fold_same_length(words), phrases(language)) == letters


# an article for royalties and fees for technical services together ("Cánones y pagos por servicios técnicos"), its
# rates as items that open on "del": the heading names the income and the kind, so the items say which is which
# (before: the heading's kind went on every rule, and a patent royalty found no rate of its own)
TECHNICAL = HEAD + """Artículo 12.
Cánones y pagos por servicios técnicos.
1. Los cánones y los pagos por servicios técnicos procedentes de un Estado contratante y pagados a un residente del otro Estado contratante pueden someterse a imposición en ese otro Estado.
2. Sin embargo, dichos cánones y pagos por servicios técnicos pueden también someterse a imposición en el Estado contratante del que procedan, pero si el beneficiario efectivo es un residente del otro Estado contratante, el impuesto así exigido no podrá exceder:
i) del 8 por ciento del importe bruto de los cánones;
ii) del 4 por ciento del importe bruto de los pagos por servicios técnicos.
"""


@pytest.mark.parametrize(("facts", "status", "rate"), [
    ({"income": "royalties", "royalty_kind": "patents"}, "determined", "8"),
    ({"income": "technical_services"}, "determined", "4"),
    ({"income": "royalties"}, "indeterminate", None),       # which kind of payment it is, asked
])
def test_royalties_and_technical_fees_in_one_article(facts, status, rate):
    decision = _decide(TECHNICAL, recipient="company", **facts)
    assert (decision["status"], decision["unread"]) == (status, [])
    assert (None if decision["max_rate_pct"] is None else str(decision["max_rate_pct"])) == rate
    if status == "indeterminate":
        assert decision["missing_facts"] == ["royalty_kind"]


# the MLI's test of shares rich in immovable property as Spanish texts word it: the value of the shares named before
# the share of it ("el valor de dichas acciones ... procede en más de un 50 por ciento ... de bienes inmuebles"), a
# threshold strictly above (before: the words were not read, every gain on shares indeterminate)
GAINS = HEAD + """Artículo 13.
Ganancias de capital.
1. Las ganancias que un residente de un Estado contratante obtenga de la enajenación de bienes inmuebles situados en el otro Estado contratante pueden someterse a imposición en ese otro Estado.
2. Las ganancias que un residente de un Estado contratante obtenga de la enajenación de acciones o participaciones similares pueden someterse a imposición en el otro Estado contratante si, en cualquier momento durante los 365 días anteriores a la enajenación, el valor de dichas acciones o participaciones similares procede en más de un 50 por ciento, directa o indirectamente, de bienes inmuebles situados en ese otro Estado.
3. Las ganancias derivadas de la enajenación de cualquier otro bien distinto de los mencionados en los apartados anteriores sólo pueden someterse a imposición en el Estado contratante en que resida el transmitente.
"""


@pytest.mark.parametrize(("value", "status", "eid", "missing"), [
    (70, "determined", "art_13__para_2", []),
    (50, "determined", "art_13__para_3", []),      # "más de un 50 por ciento": 50 is not more than 50
    (10, "determined", "art_13__para_3", []),
    (None, "indeterminate", None, ["immovable_value_pct"]),
])
def test_shares_whose_value_comes_from_immovable_property(value, status, eid, missing):
    facts = {"income": "capital_gains", "gain_property": "shares"}
    if value is not None:
        facts["immovable_value_pct"] = value
    decision = _decide(GAINS, **facts)
    assert (decision["status"], decision["eid"], decision["missing_facts"], decision["unread"]) == (status, eid, missing, [])


# a protocol point that says what an item's words comprise ("Se entiende que la expresión «...» comprende, en el caso
# de Colombia, ..."): the institutions it names are of the item for owned institutions, not of the Government's
OWNED = HEAD + GRANT + """2. Sin embargo, dichos intereses pueden someterse también a imposición en el Estado contratante del que procedan, pero si el beneficiario efectivo es un residente del otro Estado contratante, el impuesto así exigido no podrá exceder del 10 por ciento del importe bruto de los intereses.
3. No obstante lo dispuesto en el apartado 2, los intereses procedentes de un Estado contratante estarán exentos de imposición en ese Estado si el beneficiario efectivo es:
a) el Gobierno o una entidad local del otro Estado contratante;
b) cualquier institución financiera cuyo capital sea propiedad total del Gobierno del otro Estado contratante.

PROTOCOLO
1. En relación con el apartado 3 del artículo 11. Se entiende que la expresión «institución financiera cuyo capital sea propiedad total del Gobierno» comprende, en el caso de Colombia, la Financiera de Desarrollo Territorial.
"""


@pytest.mark.parametrize(("name", "status", "rate", "eid"), [
    ("Financiera de Desarrollo Territorial", "determined", "0", "protocol_1__para_1"),
    ("Banco Comercial Privado", "indeterminate", None, None),       # asked whether the State owns it
])
def test_a_point_naming_what_an_items_words_comprise(name, status, rate, eid):
    decision = _decide(OWNED, source="ES", residence="CO", recipient="named_institution", recipient_name=name)
    assert (decision["status"], decision["eid"]) == (status, eid)
    assert (None if decision["max_rate_pct"] is None else str(decision["max_rate_pct"])) == rate
