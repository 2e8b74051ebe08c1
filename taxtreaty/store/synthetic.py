"""Synthetic conventions for the store's tests and benchmark: a template varied programmatically.

SYNTHETIC: these texts are invented. They name real States only so that the parties resolve to
ISO codes; their rates and dates are random draws, not any treaty's. `convention(seed)` gives
the same text for the same seed, in English, Portuguese or Spanish, with its own parties,
signature date, rates, article numbering (an optional extra article shifts the numbers, as real
treaties do), wording variants and optional gazette noise (page numbers, running heads).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from taxtreaty import vocab

LANGUAGES = ("en", "pt", "es")

_MONTHS = {
    "en": ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"],
    "pt": ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
           "novembro", "dezembro"],
    "es": ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
           "noviembre", "diciembre"],
}

# One template per language: (topic, heading, paragraphs). {a}/{b} are the parties' names,
# {div_q}, {div_g}, {hold}, {int}, {roy} the drawn rates. Lists are "a) ..." lines.
_ARTICLES = {
    "en": [
        ("Persons covered", ["This Convention shall apply to persons who are residents of one or both of the Contracting States."]),
        ("Resident", ["For the purposes of this Convention, the term \"resident of a Contracting State\" means any person who, under the laws of that State, is liable to tax therein by reason of his domicile, residence, place of management or any other criterion of a similar nature."]),
        ("Business profits", ["The profits of an enterprise of a Contracting State shall be taxable only in that State unless the enterprise carries on business in the other Contracting State through a permanent establishment situated therein."]),
        ("Dividends", [
            "Dividends paid by a company which is a resident of a Contracting State to a resident of the other Contracting State may be taxed in that other State.",
            "However, such dividends may also be taxed in the Contracting State of which the company paying the dividends is a resident and according to the laws of that State, but if the beneficial owner of the dividends is a resident of the other Contracting State, the tax so charged shall not exceed:\na) {div_q} per cent of the gross amount of the dividends if the beneficial owner is a company which holds directly at least {hold} per cent of the capital of the company paying the dividends;\nb) {div_g} per cent of the gross amount of the dividends in all other cases.",
            "The term \"dividends\" as used in this Article means income from shares or other rights, not being debt-claims, participating in profits.",
        ]),
        ("Interest", [
            "Interest arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.",
            "However, such interest may also be taxed in the Contracting State in which it arises and according to the laws of that State, but if the beneficial owner of the interest is a resident of the other Contracting State, the tax so charged shall not exceed {int} per cent of the gross amount of the interest.",
        ]),
        ("Royalties", [
            "Royalties arising in a Contracting State and paid to a resident of the other Contracting State may be taxed in that other State.",
            "However, such royalties may also be taxed in the Contracting State in which they arise and according to the laws of that State, but if the beneficial owner of the royalties is a resident of the other Contracting State, the tax so charged shall not exceed {roy} per cent of the gross amount of the royalties.",
        ]),
        ("Other income", ["Items of income of a resident of a Contracting State, wherever arising, not dealt with in the foregoing Articles of this Convention shall be taxable only in that State."]),
        ("Exchange of information", ["The competent authorities of the Contracting States shall exchange such information as is foreseeably relevant for carrying out the provisions of this Convention."]),
        ("Entry into force", ["This Convention shall enter into force thirty days after the date of the later of the notifications."]),
    ],
    "pt": [
        ("Pessoas visadas", ["A presente Convenção aplica-se às pessoas residentes de um ou de ambos os Estados Contratantes."]),
        ("Residente", ["Para efeitos desta Convenção, a expressão «residente de um Estado Contratante» significa qualquer pessoa que, por virtude da legislação desse Estado, está aí sujeita a imposto devido ao seu domicílio, à sua residência, ao local de direcção ou a qualquer outro critério de natureza similar."]),
        ("Lucros das empresas", ["Os lucros de uma empresa de um Estado Contratante só podem ser tributados nesse Estado, a não ser que a empresa exerça a sua actividade no outro Estado Contratante por meio de um estabelecimento estável aí situado."]),
        ("Dividendos", [
            "Os dividendos pagos por uma sociedade residente de um Estado Contratante a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.",
            "No entanto, esses dividendos podem ser igualmente tributados no Estado Contratante de que é residente a sociedade que paga os dividendos e de acordo com a legislação desse Estado, mas se o beneficiário efectivo dos dividendos for um residente do outro Estado Contratante, o imposto assim estabelecido não excederá:\na) {div_q} % do montante bruto dos dividendos, se o seu beneficiário efectivo for uma sociedade que detenha, directamente, pelo menos {hold} % do capital da sociedade que paga os dividendos;\nb) {div_g} % do montante bruto dos dividendos, nos restantes casos.",
            "O termo «dividendos», usado no presente artigo, significa os rendimentos provenientes de acções ou outros direitos, com excepção dos créditos, que permitam participar nos lucros.",
        ]),
        ("Juros", [
            "Os juros provenientes de um Estado Contratante e pagos a um residente do outro Estado Contratante podem ser tributados nesse outro Estado.",
            "No entanto, esses juros podem ser igualmente tributados no Estado Contratante de que provêm e de acordo com a legislação desse Estado, mas se o beneficiário efectivo dos juros for um residente do outro Estado Contratante, o imposto assim estabelecido não excederá {int} % do montante bruto dos juros.",
        ]),
        ("Royalties", [
            "As royalties provenientes de um Estado Contratante e pagas a um residente do outro Estado Contratante podem ser tributadas nesse outro Estado.",
            "No entanto, essas royalties podem ser igualmente tributadas no Estado Contratante de que provêm e de acordo com a legislação desse Estado, mas se o beneficiário efectivo das royalties for um residente do outro Estado Contratante, o imposto assim estabelecido não excederá {roy} % do montante bruto das royalties.",
        ]),
        ("Outros rendimentos", ["Os elementos do rendimento de um residente de um Estado Contratante, donde quer que provenham, não tratados nos artigos anteriores da presente Convenção só podem ser tributados nesse Estado."]),
        ("Troca de informações", ["As autoridades competentes dos Estados Contratantes trocarão entre si as informações previsivelmente relevantes para a aplicação das disposições da presente Convenção."]),
        ("Entrada em vigor", ["A presente Convenção entrará em vigor no trigésimo dia após a data da recepção da última notificação."]),
    ],
    "es": [
        ("Personas comprendidas", ["El presente Convenio se aplica a las personas residentes de uno o de ambos Estados Contratantes."]),
        ("Residente", ["A los efectos de este Convenio, la expresión «residente de un Estado Contratante» significa toda persona que, en virtud de la legislación de ese Estado, esté sujeta a imposición en el mismo por razón de su domicilio, residencia, sede de dirección o cualquier otro criterio de naturaleza análoga."]),
        ("Beneficios empresariales", ["Los beneficios de una empresa de un Estado Contratante solamente pueden someterse a imposición en ese Estado, a no ser que la empresa realice su actividad en el otro Estado Contratante por medio de un establecimiento permanente situado en él."]),
        ("Dividendos", [
            "Los dividendos pagados por una sociedad residente de un Estado Contratante a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.",
            "Sin embargo, dichos dividendos pueden someterse también a imposición en el Estado Contratante en que resida la sociedad que paga los dividendos y según la legislación de ese Estado, pero si el beneficiario efectivo de los dividendos es residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del:\na) {div_q} % del importe bruto de los dividendos si el beneficiario efectivo es una sociedad que posea directamente al menos el {hold} % del capital de la sociedad que paga los dividendos;\nb) {div_g} % del importe bruto de los dividendos en los demás casos.",
            "El término «dividendos» en el sentido de este artículo significa los rendimientos de las acciones u otros derechos, excepto los de crédito, que permitan participar en los beneficios.",
        ]),
        ("Intereses", [
            "Los intereses procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.",
            "Sin embargo, dichos intereses pueden someterse también a imposición en el Estado Contratante del que procedan y según la legislación de ese Estado, pero si el beneficiario efectivo de los intereses es residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del {int} % del importe bruto de los intereses.",
        ]),
        ("Cánones", [
            "Los cánones procedentes de un Estado Contratante y pagados a un residente del otro Estado Contratante pueden someterse a imposición en ese otro Estado.",
            "Sin embargo, dichos cánones pueden someterse también a imposición en el Estado Contratante del que procedan y según la legislación de ese Estado, pero si el beneficiario efectivo de los cánones es residente del otro Estado Contratante, el impuesto así exigido no podrá exceder del {roy} % del importe bruto de los cánones.",
        ]),
        ("Otras rentas", ["Las rentas de un residente de un Estado Contratante, cualquiera que fuese su procedencia, no mencionadas en los anteriores artículos del presente Convenio se someterán a imposición únicamente en ese Estado."]),
        ("Intercambio de información", ["Las autoridades competentes de los Estados Contratantes intercambiarán la información previsiblemente pertinente para aplicar lo dispuesto en el presente Convenio."]),
        ("Entrada en vigor", ["El presente Convenio entrará en vigor a los treinta días de la fecha de la última notificación."]),
    ],
}
#: an extra article some conventions have (shifts the numbers of the following ones)
_EXTRA = {
    "en": ("Shipping and air transport", ["Profits from the operation of ships or aircraft in international traffic shall be taxable only in the Contracting State in which the place of effective management of the enterprise is situated."]),
    "pt": ("Navegação marítima e aérea", ["Os lucros provenientes da exploração de navios ou aeronaves no tráfego internacional só podem ser tributados no Estado Contratante em que estiver situada a direcção efectiva da empresa."]),
    "es": ("Transporte marítimo y aéreo", ["Los beneficios procedentes de la explotación de buques o aeronaves en tráfico internacional sólo pueden someterse a imposición en el Estado Contratante en que esté situada la sede de dirección efectiva de la empresa."]),
}
_TITLE = {
    "en": "CONVENTION BETWEEN {A} AND {B} FOR THE AVOIDANCE OF DOUBLE TAXATION WITH RESPECT TO TAXES ON INCOME",
    "pt": "CONVENÇÃO ENTRE {A} E {B} PARA EVITAR A DUPLA TRIBUTAÇÃO EM MATÉRIA DE IMPOSTOS SOBRE O RENDIMENTO",
    "es": "CONVENIO ENTRE {A} Y {B} PARA EVITAR LA DOBLE IMPOSICIÓN EN MATERIA DE IMPUESTOS SOBRE LA RENTA",
}
_PREAMBLE = {
    "en": "{a} and {b}, desiring to conclude a Convention for the avoidance of double taxation, have agreed as follows:",
    "pt": "{a} e {b}, desejando concluir uma Convenção para evitar a dupla tributação, acordaram o seguinte:",
    "es": "{a} y {b}, deseando concluir un Convenio para evitar la doble imposición, han convenido lo siguiente:",
}
_ARTICLE_WORD = {"en": "Article", "pt": "Artigo", "es": "Artículo"}
_CLOSING = {
    "en": "IN WITNESS WHEREOF the undersigned, duly authorised thereto, have signed this Convention.\n\nDONE at {place}, this {day} day of {month} {year}, in duplicate, in the English language.",
    "pt": "Em testemunho do qual os signatários, devidamente autorizados para o efeito, assinaram a presente Convenção.\n\nFeito em {place}, em {day} de {month} de {year}, em dois exemplares, na língua portuguesa.",
    "es": "EN FE DE LO CUAL, los signatarios, debidamente autorizados al efecto, firman el presente Convenio.\n\nHecho en {place}, el {day} de {month} de {year}, en dos ejemplares en lengua española.",
}
_PLACES = ("Lisboa", "Madrid", "London", "Brasília", "Ottawa", "Tokyo", "Pretoria", "Athens")
_NUMBER_STYLE = {"en": "{n}. ", "pt": "{n} — ", "es": "{n}. "}


@dataclass(frozen=True)
class Synthetic:
    text: str
    language: str
    parties: tuple[str, str]
    signed: str
    rates: dict[str, int]
    #: article number of each topic in this text (the numbers shift with the extra article)
    numbers: dict[str, str]


def _party_codes() -> list[str]:
    # (a YAML key like NO can load as a boolean: keep only real two-letter codes)
    return sorted(code for code, names in vocab.countries().items() if isinstance(code, str) and len(code) == 2 and names)


def convention(seed: int, *, language: str | None = None, parties: tuple[str, str] | None = None,
               signed: str | None = None, noise: bool | None = None) -> Synthetic:
    rng = random.Random(seed)
    language = language or rng.choice(LANGUAGES)
    codes = _party_codes()
    a, b = parties or tuple(rng.sample(codes, 2))
    names = {code: vocab.countries()[code][0] for code in (a, b)}
    year, month, day = rng.randint(1975, 2024), rng.randint(1, 12), rng.randint(1, 28)
    if signed:
        year, month, day = (int(x) for x in signed.split("-"))
    noise = rng.random() < 0.3 if noise is None else noise
    rates = {"div_q": rng.choice([0, 5, 10]), "hold": rng.choice([10, 20, 25]), "div_g": rng.choice([10, 15]),
             "int": rng.choice([0, 5, 10, 12]), "roy": rng.choice([5, 10, 15])}
    articles = list(_ARTICLES[language])
    if rng.random() < 0.5:
        articles.insert(3, _EXTRA[language])
    lines = [_TITLE[language].format(A=names[a].upper(), B=names[b].upper()), "",
             _PREAMBLE[language].format(a=names[a], b=names[b]), ""]
    numbers: dict[str, str] = {}
    for n, (heading, paragraphs) in enumerate(articles, start=1):
        numbers[heading] = str(n)
        lines += [f"{_ARTICLE_WORD[language]} {n}", heading, ""]
        for i, para in enumerate(paragraphs, start=1):
            body = para.format(**rates)
            prefix = _NUMBER_STYLE[language].format(n=i) if len(paragraphs) > 1 else ""
            lines += [prefix + body, ""]
            if noise and rng.random() < 0.2:
                lines += [f"{rng.randint(100, 999)}", ""]
    lines.append(_CLOSING[language].format(place=rng.choice(_PLACES), day=day, month=_MONTHS[language][month - 1],
                                           year=year))
    return Synthetic(text="\n".join(lines) + "\n", language=language, parties=(a, b),
                     signed=f"{year:04d}-{month:02d}-{day:02d}", rates=rates, numbers=numbers)
