"""An income that cites its definition, then a kind of payment named with it, is one subject: "(a) in
the case of royalties referred to in sub-paragraph (a) of paragraph 3 and fees for technical services: (i)
... (ii) ..." (the shape of India's conventions with an article on royalties and fees for technical
services) limits its items to neither kind alone (subtypes._cited_and_or, `income_reference` phrases).
Before, the items were for technical fees only: a patent royalty met no cap and the source State was said
to tax it under its own law (confidently wrong). Sentences are our own, in the shape of those texts."""

from __future__ import annotations

import pytest
from helpers import extract_text

import taxtreaty

EN = (
    "Article 12\nRoyalties and fees for technical services\n"
    "1. Royalties and fees for technical services arising in a Contracting State and paid to a resident of the "
    "other Contracting State may be taxed in that other State.\n"
    "2. However, such royalties and fees may also be taxed in the Contracting State in which they arise, but if the "
    "beneficial owner is a resident of the other Contracting State, the tax so charged shall not exceed:\n"
    "(a) in the case of royalties {ref} sub-paragraph (a) of paragraph 3 and fees for technical services:\n"
    "(i) 12 per cent of the gross amount of such payments where the payer is the Government of that State; and\n"
    "(ii) 18 per cent of the gross amount of such payments in all other cases; and\n"
    "(b) in the case of royalties {ref} sub-paragraph (b) of paragraph 3, 8 per cent of the gross amount of the "
    "royalties.\n"
)
ES = (
    "Artículo 12\nRegalías y honorarios por servicios técnicos\n"
    "1. Las regalías y los honorarios por servicios técnicos procedentes de un Estado Contratante y pagados a un "
    "residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.\n"
    "2. Sin embargo, dichas regalías y honorarios pueden someterse también a imposición en el Estado Contratante del "
    "que procedan, pero si el beneficiario efectivo es residente del otro Estado Contratante, el impuesto así "
    "exigido no podrá exceder:\n"
    "a) en el caso de las regalías {ref} el subapartado a) del apartado 3 y de los honorarios por servicios "
    "técnicos:\n"
    "i) del 12 por ciento del importe bruto de dichos pagos si el pagador es el Gobierno de ese Estado; y\n"
    "ii) del 18 por ciento del importe bruto de dichos pagos en los demás casos; y\n"
    "b) en el caso de las regalías {ref} el subapartado b) del apartado 3, del 8 por ciento del importe bruto de "
    "las regalías.\n"
)
PT = (
    "Artigo 12\nRoyalties e remunerações por serviços técnicos\n"
    "1. As royalties e as remunerações por serviços técnicos provenientes de um Estado Contratante e pagas a um "
    "residente do outro Estado Contratante podem ser tributadas nesse outro Estado.\n"
    "2. No entanto, essas royalties e remunerações podem ser igualmente tributadas no Estado Contratante de que "
    "provêm, mas se o beneficiário efectivo for um residente do outro Estado Contratante, o imposto assim "
    "estabelecido não poderá exceder:\n"
    "a) no caso das royalties {ref} alínea a) do número 3 e das remunerações por serviços técnicos:\n"
    "i) 12 por cento do montante bruto desses pagamentos se o devedor for o Governo desse Estado; e\n"
    "ii) 18 por cento do montante bruto desses pagamentos nos outros casos; e\n"
    "b) no caso das royalties {ref} alínea b) do número 3, 8 por cento do montante bruto das royalties.\n"
)


@pytest.mark.parametrize(("text", "ref"), [
    (EN, "referred to in"), (EN, "within"), (EN, "as defined in"),
    (ES, "a que se refiere"), (ES, "mencionadas en"),
    (PT, "referidas na"), (PT, "mencionadas na"),
])
def test_a_cited_income_and_a_kind_are_one_subject(text: str, ref: str) -> None:
    doc = text.format(ref=ref)
    caps = {p.cite.eid: p for p in extract_text(doc).provisions if p.kind == "withholding_cap"}
    for eid in ("art_12__para_2__point_a__point_i", "art_12__para_2__point_a__point_ii"):
        assert "income_subtype" not in caps[eid].conditions, (eid, caps[eid].conditions)
    # a patent royalty is never left without a cap: the items of (a) are for it too
    decision = taxtreaty.decide(taxtreaty.parse(doc), {
        "income": "royalties", "source": "IN", "residence": "SG", "beneficial_owner": True,
        "recipient": "company", "royalty_kind": "patents", "payer": "company"}, parties=["IN", "SG"])
    assert decision.max_rate_pct is not None or decision.status != "determined", decision.to_dict()["reasons"]


@pytest.mark.parametrize(("text", "lead"), [
    # a kind named alone, with no income before it, is still what its items are for
    (EN, "(a) in the case of fees for technical services:"),
    (ES, "a) en el caso de los honorarios por servicios técnicos:"),
    (PT, "a) no caso das remunerações por serviços técnicos:"),
])
def test_a_kind_named_alone_still_limits_its_items(text: str, lead: str) -> None:
    first = text.format(ref="ZZ").split("\n")
    k = next(i for i, line in enumerate(first) if "ZZ" in line and ("(i)" not in line))
    first[k] = lead
    caps = {p.cite.eid: p for p in extract_text("\n".join(first)).provisions if p.kind == "withholding_cap"}
    assert caps["art_12__para_2__point_a__point_ii"].conditions.get("income_subtype") == "technical_services"
