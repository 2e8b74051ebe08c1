"""Spanish gazettes as a copy without line breaks prints them (a docplayer or studylib copy of a BOE page, IMPO's
compilations saved from the browser): the page furniture between a heading and its title goes, a title closed by
a stop before an unnumbered paragraph is cut off, an IMPO block over every article goes and names the parties, and
a heading the copy broke across its own line break is one heading. Fixtures of our own writing in those shapes."""

from __future__ import annotations

from taxtreaty.structure import parse_text
from taxtreaty.text import clean

# our own words, in the shape of a BOE page saved without its line breaks: the page's foot and running line fall
# between the heading of article 13 and its title, and article 15 has a title closed by a stop and no numbered
# paragraph
BOE_RUN_ON = (
    "El Reino de España y la República de Panamá, deseando concluir un Convenio para evitar la doble imposición, "
    "han acordado lo siguiente: Artículo 12. Cánones. 1. Los cánones procedentes de un Estado contratante y pagados "
    "a un residente del otro Estado contratante pueden someterse a imposición en ese otro Estado. 2. Sin embargo, "
    "dichos cánones pueden someterse también a imposición en el Estado contratante del que procedan, pero el impuesto "
    "así exigido no podrá exceder del 5 por ciento del importe bruto de los cánones. cve: BOE-A-2011-6981 Verificable "
    "en https://www.boe.es BOLETÍN OFICIAL DEL ESTADO Núm. 93 Martes 19 de abril de 2011 Artículo 13. Sec. I. Pág. "
    "40112 Ganancias de capital. 1. Las ganancias que un residente de un Estado contratante obtenga de la enajenación "
    "de bienes inmuebles situados en el otro Estado contratante pueden someterse a imposición en ese otro Estado. "
    "Artículo 14. Rentas del trabajo dependiente. 1. Los sueldos y salarios obtenidos por un residente de un Estado "
    "contratante por razón de un empleo sólo pueden someterse a imposición en ese Estado. Artículo 15. Remuneraciones "
    "en calidad de consejero. Las participaciones y otras retribuciones similares que un residente de un Estado "
    "contratante obtenga como miembro de un consejo de administración de una sociedad residente del otro Estado "
    "contratante pueden someterse a imposición en ese otro Estado. Artículo 16. Entrada en vigor. El presente Convenio "
    "entrará en vigor a los tres meses de la fecha de recepción de la última notificación."
)


def test_a_boe_page_run_on_keeps_every_article() -> None:
    lines = clean(BOE_RUN_ON).text.split("\n")
    at = lines.index("Artículo 13.")  # the page's foot and running line went from between it and its title
    assert lines[at + 1] == "Ganancias de capital."
    assert "Artículo 15. Remuneraciones en calidad de consejero." in lines  # a title closed by a stop
    assert any(line.startswith("Las participaciones y otras retribuciones") for line in lines)
    assert not any("BOE-A-2011" in line or "Pág." in line or "BOLETÍN" in line for line in lines)
    version = parse_text(BOE_RUN_ON).versions[0]
    assert [a.number for a in version.articles] == ["12", "13", "14", "15", "16"]
    assert [p.number for p in version.article("12").paragraphs] == ["1", "2"]


def test_a_sentence_after_a_reference_is_no_title_closed_by_a_stop() -> None:
    # the heading's own stop is wanting ("Artículo 7 Ese ..."), or the words after it run on past a stop: text
    text = ("1. Las rentas de una empresa sólo pueden someterse a imposición en ese Estado. " * 6
            + "Artículo 7 Ese artículo rige los beneficios. Las rentas de la empresa se gravan allí. "
            + "Artículo 7. Ese artículo rige los beneficios de las empresas de uno y otro país. Las rentas se "
              "gravan allí.")
    lines = clean(text).text.split("\n")
    assert not any(line.startswith("Artículo 7") for line in lines)


# our own words, in the shape of IMPO's Texto Ordenado 1996 saved without its line breaks: the block IMPO prints
# over every article (the decree, its dates, the compilation's title and the convention's chapter), each article
# numbered in the compilation, the protocol numbered as its last article
IMPO_HEADER = (
    "APROBADO POR DECRETO Nº 338/996 Promulgación: 28/08/1996 Publicación: 16/09/1996 Aprobado/a por: Decreto Nº "
    "338/996 de 28/08/1996. Documento actualizado durante su vigencia Ver vigencia: T.O. 2023 (DGI) de 04/04/2024 "
    "(aprueba T.O. 2023), Ley Nº 18.083 de 27/12/2006 artículo 113 (Ley de Reforma Tributaria). TITULO 2 - DERECHO "
    "TRIBUTARIO INTERNACIONAL CAPITULO 51 - CONVENIO ENTRE EL GOBIERNO DE LA REPUBLICA ORIENTAL DEL URUGUAY Y EL "
    "GOBIERNO DE LA REPUBLICA DE HUNGRIA PARA EVITAR LA DOBLE IMPOSICION EN MATERIA DE IMPUESTOS SOBRE LA RENTA "
)
IMPO_RUN_ON = (
    IMPO_HEADER + "Artículo 301-T2 Ambito subjetivo.- El presente Convenio se aplica a las personas domiciliadas en "
    "uno o en ambos Estados Contratantes. " + IMPO_HEADER + "Artículo 302-T2 Intereses.- 1. Los intereses "
    "procedentes de un Estado Contratante y pagados a una persona domiciliada en el otro Estado Contratante podrán "
    "ser gravados en este último Estado. 2. Sin embargo, estos intereses podrán ser gravados en el Estado Contratante "
    "del que procedan, pero el impuesto así exigido no podrá exceder del 12 por ciento del importe bruto de los "
    "intereses. " + IMPO_HEADER + "Artículo 303-T2 Pensiones.- Las pensiones pagadas a una persona domiciliada en un "
    "Estado Contratante sólo pueden someterse a imposición en este Estado. " + IMPO_HEADER + "Artículo 304-T2 "
    "Protocolo.- 1) Respecto al artículo 302º.- Queda entendido que los intereses pagados al Banco Central no se "
    "gravan en el Estado del que procedan. 2) Respecto al artículo 303º.- Queda entendido que las pensiones de la "
    "seguridad social no están comprendidas."
)


def test_an_impo_compilation_run_on_keeps_its_articles_and_its_protocol() -> None:
    document = parse_text(IMPO_RUN_ON)
    version = document.versions[0]
    assert [a.number for a in version.articles] == ["301", "302", "303"]
    assert [p.number for p in version.article("302").paragraphs] == ["1", "2"]
    assert [len(p.paragraphs) for p in version.protocols] == [2]
    assert not any("APROBADO" in line or "CAPITULO" in line for line in clean(IMPO_RUN_ON).text.split("\n"))
    assert document.parties == ["UY", "HU"]  # from the chapter's title IMPO prints over every article


def test_a_heading_broken_across_the_copys_line_break_is_one_heading() -> None:
    # a copy that runs the compilation onto a few long lines breaks them anywhere, here inside a heading
    broken = IMPO_RUN_ON.replace("Artículo 303-T2", "Artículo\n303-T2").replace(
        "Artículo 302-T2 Intereses.-", "Artículo 302-T2\nIntereses.-")
    assert "Artículo 303-T2 Pensiones.-" in clean(broken).text.split("\n")
    version = parse_text(broken).versions[0]
    assert [a.number for a in version.articles] == ["301", "302", "303"]
    assert [p.number for p in version.article("302").paragraphs] == ["1", "2"]
