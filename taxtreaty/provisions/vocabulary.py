"""Per-language phrase vocabularies of the extractor, compiled into regexes.

The words live in ``taxtreaty/data/provisions/<language>.yaml`` (see the README there); this
module only turns each phrase list into one pattern. Matching runs on `fold_same_length(text)`,
which lower-cases and strips accents without changing any offset, so a match position is a
position in the cleaned text.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from importlib import resources
from typing import Any

import regex

from taxtreaty import vocab
from taxtreaty.vocab import DataFileError

DATA_FOLDER = "provisions"

#: keys holding a list of phrases
PHRASE_KEYS = (
    "cap", "percent", "beneficial_owner", "recipient_company", "partnership_excluded", "at_least",
    "holding_direct", "holding_indirect", "holding_period", "period_words", "date_after", "date_until",
    "date_from", "otherwise", "recipient_role", "payer_role", "guarantee_role", "to_resident", "exempt",
    "exclusive", "shared", "shared_also", "effective_management", "permanent_establishment",
    "effectively_connected", "shall_apply", "notwithstanding_any", "notwithstanding", "article_words",
    "paragraph_words", "relief_exemption", "relief_credit", "relief_progression", "relief_limit",
    "map_time_limit", "entry_into_force", "notification", "effect", "following_year", "january_first",
    "state_lead", "exception_lead", "number_joiners",
    "condition_openers", "condition_openers_at_clause_start", "condition_words", "holding_below", "relief_reduction",
    "termination_notice", "termination_effect", "unread_qualifiers", "point_words", "list_scope", "after_year_end", "before_year_end", "charged_tax",
    "payment_words",
)
#: phrase keys a language may leave out (its extractor then reads nothing they would find):
#: "shall_not_apply" ("O disposto na alínea a) do n.º 2 não é aplicável quando ..."); "source_place": the State
#: an exclusive rule names by where the income arises ("sólo serán gravables en el País Miembro en cuyo territorio ...")
#: "relief_deemed_paid": tax sparing ("o imposto ... será sempre considerado como tendo sido pago à alíquota de 25 por cento")
#: "zero_rate": a rate of 0 in one word, without "per cent" ("(a) nil if ...")
#: "rate_without_percent": the base right after a rate printed without "per cent" ("10 of the gross amount")
#: "kind_definition": a definition of a recipient kind in an income article ("the term “Government” shall include")
#: "payer_state_lead": the State the paying company is a resident of, named in one alternative of a list ("(i) ... quando
#: esta sociedade for residente de Portugal; ou (ii) ... do Peru"): the source State of that alternative (conditions.direction)
#: "unless_words": an exception's opener ("unless", "a menos que"); "holding_above" / "holding_at_most": a share
#: "more than" / "not more than" N per cent (a range, not a minimum); "recipient_taxed": the recipient's own
#: taxation as a fact ("suffers Netherlands company tax on the dividends"), "recipient_not_taxed" the same fact denied
#: ("una sociedad que no esté sometida a imposición sobre dichos dividendos"); "arising_in_other": "unless it arises
#: in the other State" (provisions/provisos.py, readers/allocations.py)
#: "property_vehicle": dividends paid out of immovable-property income by an investment vehicle, a fact
#: (paid_by_property_vehicle) a rate of the list turns on (provisions/provisos.py)
#: "payer_deducts_dividends": a paying company entitled to deduct the dividends it pays (NL-JP 10(5): "dividends paid by
#: a company which is entitled to a deduction for dividends paid to its beneficiaries"), a fact the user states
#: "loan_words", "loan_term", "term_or_more": the term of a loan as a fact ("a loan made for a period of more than
#: 7 years", "the loan repayment period is 3 years or more": provisions/conditions.loan_term); "lender_or": a second
#: lender a bank loan's clause names ("or by an enterprise which holds ...": conditions.loan_alternatives)
#: "paying_place": the State an exclusive rule names by where the payments are made from ("sólo pueden
#: someterse a imposición en el Estado Contratante desde cuyo territorio se efectúan los pagos")
#: "inclusion_words" / "exclusion_words": a kind of income named as included ("incluido el alquiler de
#: contenedores") or left out ("pero no están incluidas las regalías con respecto a las películas")
#: the pension article's conditions (readers/allocations.py): "not_periodic" (a payment not periodic, a lump sum),
#: "social_security" (unless "social_security_among": one of several kinds named), "past_employment_in_other" (the
#: State of the past employment); "employment_in_other": the employment article's "unless the employment is
#: exercised in the other Contracting State" (the State of the work may tax); "arising_in_source": other income arising in the source State; "that_other_state":
#: the State a "may be taxed in ..." names after "paid to a resident of" when it is not the residence State;
#: "subject_to": "subject to", "com ressalva", "sin perjuicio" (a reference, not an exception: readers/allocations.py)
#: "protocol_heading": what opens a protocol point that names articles ("Ad Article 11", "Con referencia al
#: artículo 12"); "reclassified": a point sending a kind of payment to the articles of profits ("are payments to
#: which the provisions of Article 7 or Article 14 apply") (provisions/point_reclassified.py)
#: "kind_reference": a cross-reference after a recipient kind to its definition ("a pension fund referred to in
#: paragraph 2 of Article 4"), no condition (provisions/unread.py)
#: "income_reference": an income's cross-reference to its definition before a kind named with it ("royalties
#: referred to in sub-paragraph (a) of paragraph 3 and fees for included services"): one subject (provisions/subtypes.py)
#: "instead_words": a rate put in place of another item's ("se aplicará en lugar de la prevista en el inciso b)")
#: (provisions/passes.py)
#: "taxed_in_residence": other income "taxed by that State" (the residence State), a fact of the recipient
#: (recipient_subject_to_tax) the residence-only rule needs (readers/allocations.py)
#: "base_definition": what defines a rate's base as a share of the gross ("“the adjusted amount” means 60 per cent
#: of the gross amount": readers/caps.base_of)
#: "inclusion_aside": a bracket that says what the words before it include ("(comprendidas las instituciones
#: financieras)"): its kinds are no condition (parties.inclusion_asides)
#: "public_debt": the debt of a State ("la deuda pública", "public debt"): interest a government or a political
#: subdivision pays, whatever the debt-claim (parties.public_debt_alternatives)
#: "protocol_includes": a point naming institutions among the recipients of an exemption ("se consideran
#: incluidas en la expresión determinadas instituciones") (provisions/point_institutions.py)
#: "excess_amount": the part of a payment over the arm's-length amount ("el exceso podrá someterse a imposición de
#: acuerdo con la legislación de cada Estado"), no source right over the payment (readers/allocations.py)
#: "period_computation": the note on how a holding period is counted ("(for the purpose of computing that period,
#: no account shall be taken of changes of ownership ... reorganisation ...)"), no condition (provisions/unread.py)
OPTIONAL_PHRASE_KEYS = ("shall_not_apply", "protocol_heading", "reclassified", "kind_reference", "protocol_includes", "source_place", "relief_deemed_paid", "first_mentioned", "zero_rate",
                        "kind_definition", "unless_words", "holding_above", "holding_at_most", "recipient_taxed",
                        "recipient_not_taxed", "arising_in_other", "rate_without_percent", "paying_place", "inclusion_words",
                        "exclusion_words", "property_vehicle", "payer_deducts_dividends", "guaranteed_alternative", "not_periodic", "social_security",
                        "social_security_among", "past_employment_in_other", "employment_in_other", "arising_in_source", "that_other_state",
                        "subject_to", "loan_words", "loan_term", "term_or_more", "lender_or", "reference_words",
                        "invested_words", "currency_equivalent", "institution_forms", "period_computation",
                        "any_person_holder", "franked", "instead_words", "generic_state", "keeps_domestic_tax", "recipient_to",
                        "item_range", "item_reference_words", "lender_clause", "lender_lead", "by_words", "public_debt", "inclusion_aside",
                        "specified_in_notes", "lender_words", "excess_amount", "pe_or_otherwise",
                        "profit_participation", "income_reference")
#: "item_range", "item_reference_words": an item of a list of rates that cites other items ("los subapartados
#: 3 (b) a (d)", "in the case of payments or credits referred to in subparagraph 3(e)"): provisions/item_refs.py
#: "lender_clause", "lender_lead", "by_words", "specified_in_notes", "lender_words": a rule for loans "made,
#: guaranteed or insured by" one institution the text names, or institutions specified in exchanged notes
#: (provisions/lenders.py)
#: "any_person_holder": a holding test of any person, not of a company only ("si son pagados a una persona que
#: posea directamente no menos del 25 por ciento"): the share does not make the recipient a company
#: "franked": Australian franked dividends ("to the extent that the dividends have been fully franked"), a fact
#: (dividends_franked) a rate turns on; never an exemption ("en la medida que éstos se encuentren exentos (franked)")
#: "rate_named": the rate a clause sets named as its subject ("the percentage provided for in this subparagraph
#: shall be reduced to 7 per cent"): a condition before it ends there, as before "the tax so charged" (provisions/unread.py)
#: "lesser_of": a limit that is the lowest of its items ("shall not exceed the lesser of"); "periodic_payments": a cap
#: of the pension article for periodic payments only; "annuity_subject": a cap of the pension article whose
#: subject is annuities alone ("Las anualidades ... no podrá exceder del 15 por ciento") (readers/caps.py);
#: "limitation_not_apply": a later sentence taking payments out of a cap ("this limitation shall not apply to ..."),
#: its words an unread condition of the caps before it (readers/caps.py); "that_state": "may be taxed in that State"
#: after "an enterprise of a Contracting State" ("enterprise_of_state") in the shipping article, the enterprise's
#: own State (not "... de manera exclusiva en localidades de un Estado Contratante, pueden someterse a imposición
#: en ese Estado": the State of the domestic carriage)
OPTIONAL_PHRASE_KEYS += ("taxed_in_residence", "base_definition", "rate_named", "resident_lead", "credit_against",
                         "lesser_of", "periodic_payments", "annuity_subject",
                         "pension_subject", "limitation_not_apply", "that_state",
                         "enterprise_of_state")
#: "following_date": a date of effect counted from the day of entry into force, not its year ("for any year of
#: assessment beginning on or after 6th April next following the date on which this Convention enters into force")
OPTIONAL_PHRASE_KEYS += ("following_date", "payer_state_lead")
#: "excepted_case": a case an item opens by excepting ("except in the case of dividends paid by a non-resident-owned
#: investment corporation that is a resident of Canada, 5 per cent"): to the comma, the exception's words, blanked
#: before the item's own conditions are read (provisions/excepted.py); "nro_investment_corporation": that paying
#: corporation, a fact (paid_by_nro_investment_corporation, provisions/provisos.py)
OPTIONAL_PHRASE_KEYS += ("excepted_case", "nro_investment_corporation")
#: "alternative_joiners": a list joiner before the next member of a list of kinds ("or an", "o a una", "como así
#: también"): unread words right after one are another alternative (provisions/alternatives.py)
#: "person_words": words that name individuals (an unread member of a list of kinds that holds them may be one)
#: "relative_words": a relative word right after a kind of income ("bonos o valores que se negocien ..."): the unread
#: words after it qualify that kind only (provisions/alternatives.py)
OPTIONAL_PHRASE_KEYS += ("alternative_joiners", "person_words", "relative_words")
#: "national_law_applies": a protocol point letting one State apply its own law to an article's income ("the
#: Netherlands may apply its national legislation with respect to the payments referred to therein")
OPTIONAL_PHRASE_KEYS += ("national_law_applies",)
#: "exempt_in_excess": an old convention's cap said as an exemption ("shall be exempt from any Canadian tax in excess of
#: 15 per cent of the gross amount"): a cap, never an exemption (readers/exemptions.py)
OPTIONAL_PHRASE_KEYS += ("exempt_in_excess",)
#: "relative_taxed" / "relative_not_taxed": a relative clause after the recipient that states its own taxation ("to a
#: resident of the other Contracting State who is subject to tax there in respect thereof"), the fact
#: recipient_subject_to_tax; "relative_tail": the words that may follow it and still be only that fact (provisions/unread.py)
OPTIONAL_PHRASE_KEYS += ("relative_taxed", "relative_not_taxed", "relative_tail")
#: "one_state_scope": a protocol point limited to one State's tax ("en el caso de Argentina"): provisions/one_state.py
#: "definition_extends": a point widening an article's definition ("las regalías incluyen asimismo ..."): one_state.py
OPTIONAL_PHRASE_KEYS += ("one_state_scope", "definition_extends")
#: the State a most-favoured-nation clause binds (provisions/one_state.mfn_bound_state): "mfn_source_lead" (the State
#: named right after is the one whose tax it lowers: "arising in"), "mfn_residents_lead" (the State named right after
#: is the beneficiaries' one: "will apply to residents of"), "mfn_tax_words" (a State's name or adjective next to one
#: is the bound State: "Estonian tax", "impuesto argentino"), "mfn_both" (words naming both States: "ambos Estados"),
#: "mfn_treaty_words" (right after a tax word, a kind of convention: "Indian tax treaty" names no tax)
OPTIONAL_PHRASE_KEYS += ("mfn_source_lead", "mfn_residents_lead", "mfn_tax_words", "mfn_both", "mfn_treaty_words")
#: "definition_hint_words": words in a definition of royalties that may name technical services: outside_definition.py
OPTIONAL_PHRASE_KEYS += ("definition_hint_words",)
#: "definition_narrowing"/"definition_widening": a protocol point's sentence saying a kind is not within the definition
#: (its technical word keeps no article), unless words widening it again stand in the same sentence: outside_definition.py
OPTIONAL_PHRASE_KEYS += ("definition_narrowing", "definition_widening")
#: "tax_reduced": a source right whose tax is reduced by a share of itself ("shall be reduced by an amount equal to 50
#: per cent thereof"): a `tax_reduced` caveat on the allocation (readers/allocations.py)
OPTIONAL_PHRASE_KEYS += ("tax_reduced",)
#: "contingent_fee": the exception of a point taking fees for technical services out of the royalties unless computed on
#: results ("except to the extent that the amounts of such payments are based on production, sales, performance,
#: profits"): the fact fee_contingent_on_results (provisions/point_contingent.py)
OPTIONAL_PHRASE_KEYS += ("contingent_fee",)
#: "attraction_similar": the business-profits article's limited force of attraction ("sales in that other State of goods
#: or merchandise of the same or similar kind as those sold through that permanent establishment"): the fact
#: similar_to_pe_activity (provisions/attraction.py)
OPTIONAL_PHRASE_KEYS += ("attraction_similar",)
#: "profit_sharing_debt", "as_dividends", "applicable_words", "dividend_treatment_law": a point treating the income of
#: profit-sharing bonds as dividends ("article 10 is applicable to such income"), in case a State's law taxes it so (a
#: domestic_law caveat): the fact interest_profit_sharing (provisions/point_participating.py)
OPTIONAL_PHRASE_KEYS += ("profit_sharing_debt", "as_dividends", "applicable_words", "dividend_treatment_law")
#: capital gains (provisions/gains.py): the property a paragraph's subject names ("gain_immovable", "gain_pe",
#: "gain_transport", "gain_shares"), the residual paragraph's words ("gain_residual": "any property other than that
#: referred to"), the opener of a clause of conditions before or after the verb ("gain_condition_lead": "if", "si"),
#: words that take some shares or alienators out ("gain_excepted": "other than shares quoted", "by an individual"),
#: words that ask more of a clause than the share it names ("gain_clause_more": ", and the buyer"), the words after a share of value
#: derived from immovable property ("value_from_immovable": "of their value"), and a paragraph that keeps a State's
#: own law on gains another paragraph gives elsewhere ("keeps_right": "shall not affect the right")
OPTIONAL_PHRASE_KEYS += ("gain_immovable", "gain_pe", "gain_transport", "gain_shares", "gain_residual",
                         "gain_condition_lead", "gain_excepted", "gain_clause_more", "value_from_immovable", "keeps_right")
#: the value of shares named before the share of it that immovable property gives ("value_before_share": "el valor de
#: dichas acciones ... procede en más de un 50 por ciento ... de bienes inmuebles", the MLI's Spanish wording)
OPTIONAL_PHRASE_KEYS += ("value_before_share",)
#: a test met at any time in a period counted back from the alienation ("gain_any_time": "at any time during" the 12
#: months preceding the alienation, "en cualquier momento durante", "em qualquer momento durante"): lookback_months
OPTIONAL_PHRASE_KEYS += ("gain_any_time",)
#: a right kept on a former resident's gains (provisions/emigrants.py): "gain_former_resident" ("has been a resident
#: of"), "gain_individual" ("an individual"), "gain_company_resident" ("is a resident of that State"), the words of
#: a period counted back from the alienation ("gain_period_within": "preceding"), an opener that is none ("gain_not_lead":
#: "se tenha tornado", a reflexive), and the words
#: giving the State a protocol point names its right ("point_state_may": "the Netherlands may ...")
OPTIONAL_PHRASE_KEYS += ("gain_former_resident", "gain_individual", "gain_company_resident", "gain_period_within",
                         "gain_not_lead", "point_state_may")
#: "keeps_domestic_tax": a switch that keeps one State's own tax out of the rates ("no limitarán la aplicación del
#: Impuesto Adicional a pagar en Chile"): with one State named, the rates are off for income arising there only
#: "recipient_to": the words right before a kind that make it the recipient after a payer's clause ("pagados por una
#: sociedad ... a un fondo de pensiones", "paid by a company ... to a pension fund")
#: "resident_lead": the words before the State whose resident a relief paragraph speaks of ("En el caso de un
#: residente de la República Argentina", "Where a resident of the Netherlands derives"): the State giving the relief;
#: "credit_against": the words before the tax a credit is allowed against ("como crédito contra el impuesto ...
#: alemán", "as a credit against the Netherlands tax"): that tax's State gives the relief
#: keys holding a map of {category: [phrases]}
#: "provisos": the words of a proviso (caveat) by kind, and of no condition at all (provisions/provisos.py)
GROUP_KEYS = ("capital_basis", "kinds", "subtypes", "anti_abuse", "incomes", "rate_bases", "provisos")
#: keys holding a map of {phrase: value}
VALUE_KEYS = ("number_words", "units", "currencies")
#: a map a language may leave out: "fraction_words", a fraction in words with its numerator ("a half", "one-half",
#: "three quarters"), read after a whole number and a joiner ("twelve and a half per cent": 12.5) or alone (0.5)
OPTIONAL_VALUE_KEYS = ("fraction_words",)
#: "government_state" holds templates with a "{state}" slot; "state_adjectives" maps an adjective to an ISO code
OTHER_KEYS = ("code", "number_multipliers", "government_state", "state_adjectives")
#: keys holding the small words code joins its own patterns with ("and", "or", "the", "of", ...): matched
#: literally (blanks: any run of blanks), never as phrases; a language that has none lists none (`[]`)
WORD_KEYS = (
    "and_words", "or_words", "determiners", "of_words", "name_leads", "place_leads", "resident_words",
    "reference_continuations", "clause_joiners", "abbreviations", "day_nouns", "day_month_joiners",
    "month_year_joiners", "ordinal_suffixes",
)

#: keys whose phrases are word stems ("tributad" for "tributados", "tributadas")
STEM_KEYS = frozenset({
    "exclusive", "shared", "shared_also", "effectively_connected", "guarantee_role", "relief_exemption",
    "relief_progression", "relief_credit", "subtypes", "exempt", "notification", "termination_notice", "unread_qualifiers",
    "payment_words", "rate_bases", "provisos", "recipient_taxed", "recipient_not_taxed", "property_vehicle",
    "relative_taxed", "relative_not_taxed",
})

#: "..." in a phrase: a short gap inside one sentence
GAP = r"[^.;]{0,60}?"


class _FoldTable(dict[int, str]):
    """A `str.translate` table filled on first use of each character."""

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        folded = vocab.fold(ch)
        lower = ch.lower()
        value = folded if len(folded) == 1 else lower if len(lower) == 1 else ch
        self[code] = value
        return value


_FOLD_TABLE = _FoldTable()


def fold_same_length(text: str) -> str:
    """`vocab.fold` character by character, keeping every offset (a character whose folded form
    is longer, such as "ß", is only lower-cased)."""
    return text.translate(_FOLD_TABLE)


def phrase_regex(phrase: str) -> str:
    """One phrase as a regex piece: blanks match any whitespace, "..." a short gap; whole words at
    the start, and at the end unless the phrase ends in a letter meant as a prefix."""
    folded = vocab.fold(phrase.strip())
    parts = [p.strip() for p in folded.split("...")]
    pieces = []
    for k, part in enumerate(parts):
        words = [regex.escape(w) for w in part.split()]
        # each part after a gap starts a word: "beneficial owner ... is" must not match "th-is"
        lead = r"(?<![\p{L}\d])" if k and part[:1].isalnum() else ""
        pieces.append(lead + r"\s+".join(words))
    body = GAP.join(pieces)
    start = r"(?<![\p{L}\d])" if folded[:1].isalnum() else ""
    return start + body


def alternation(phrases: list[str], *, whole_word: bool = True) -> str:
    """Phrases as one regex group, longest first. An empty list (a language file that gives no
    phrase for a key) never matches: `(?:)` would match everywhere and, for a rate phrase, read
    every word as a 0% cap."""
    ordered = sorted({vocab.fold(p) for p in phrases if p.strip()}, key=len, reverse=True)
    if not ordered:
        return "(?!)"
    end = r"(?![\p{L}\d])" if whole_word else ""
    return "(?:" + "|".join(phrase_regex(p) + (end if whole_word and p[-1:].isalnum() else "") for p in ordered) + ")"


def word_alternation(words: list[str] | tuple[str, ...]) -> str:
    """Words of a `WORD_KEYS` list as one regex group, longest first, blanks as any run of blanks;
    a group that never matches when the list is empty."""
    if not words:
        return "(?!)"
    ordered = sorted(set(words), key=lambda w: (-len(w), w))
    return "(?:" + "|".join(r"\s+".join(regex.escape(part) for part in w.split()) for w in ordered) + ")"


@dataclass(frozen=True)
class Phrases:
    """The compiled vocabulary of one language."""

    code: str
    raw: dict[str, Any]
    patterns: dict[str, regex.Pattern[str]]
    groups: dict[str, dict[str, regex.Pattern[str]]]
    group_any: dict[str, regex.Pattern[str]]
    number_words: dict[str, Decimal]
    units: dict[str, str]
    currencies: dict[str, str]
    multipliers: frozenset[str]

    def find(self, key: str, text: str, pos: int = 0, endpos: int | None = None) -> regex.Match[str] | None:
        return self.patterns[key].search(text, pos, len(text) if endpos is None else endpos)

    def finditer(self, key: str, text: str, pos: int = 0, endpos: int | None = None) -> list[regex.Match[str]]:
        return list(self.patterns[key].finditer(text, pos, len(text) if endpos is None else endpos))

    def has(self, key: str, text: str) -> bool:
        return self.patterns[key].search(text) is not None

    def words(self, key: str) -> tuple[str, ...]:
        """The words of one of `WORD_KEYS`, as the file writes them."""
        return tuple(self.raw[key])

    def word_group(self, *keys: str) -> str:
        """The folded words of some of `WORD_KEYS` as one regex group (`word_alternation`)."""
        return _word_group(self.code, keys)

    def group_hits(self, key: str, text: str) -> list[tuple[int, int, str]]:
        """(start, end, category) of every phrase of a grouped key, longest phrases first at a spot."""
        hits: list[tuple[int, int, str]] = []
        if self.group_any[key].search(text) is None:  # most clauses name none: one search decides
            return hits
        for category, pattern in self.groups[key].items():
            hits += [(m.start(), m.end(), category) for m in pattern.finditer(text)]
        hits.sort(key=lambda h: (h[0], -(h[1] - h[0])))
        kept: list[tuple[int, int, str]] = []
        for hit in hits:
            if kept and hit[0] < kept[-1][1]:
                continue
            kept.append(hit)
        return kept


def _load(code: str) -> dict[str, Any]:
    name = f"{DATA_FOLDER}/{code}.yaml"
    try:
        raw = vocab.read_data_file(DATA_FOLDER, f"{code}.yaml")
    except OSError as exc:
        raise DataFileError(f"{name}: {exc}") from exc
    if not isinstance(raw, dict):
        raise DataFileError(f"{name}: expected a mapping")
    known = set(PHRASE_KEYS) | set(GROUP_KEYS) | set(VALUE_KEYS) | set(OTHER_KEYS) | set(WORD_KEYS)
    unknown = set(raw) - known - set(OPTIONAL_PHRASE_KEYS) - set(OPTIONAL_VALUE_KEYS)
    if unknown:
        raise DataFileError(f"{name}: unknown keys {sorted(unknown)}")
    missing = known - set(raw)
    if missing:
        raise DataFileError(f"{name}: missing keys {sorted(missing)}")
    for key in (*PHRASE_KEYS, *(k for k in OPTIONAL_PHRASE_KEYS if k in raw)):
        if not isinstance(raw[key], list) or not all(isinstance(p, str) and p.strip() for p in raw[key]):
            raise DataFileError(f"{name}: {key} must be a list of non-empty strings (quote them)")
    for key in WORD_KEYS:
        if not isinstance(raw[key], list) or not all(isinstance(w, str) and w.strip() for w in raw[key]):
            raise DataFileError(f"{name}: {key} must be a list of non-empty strings, or [] (quote them)")
    for key in (k for k in OPTIONAL_VALUE_KEYS if k in raw):
        if not isinstance(raw[key], dict) or not all(isinstance(v, (int, float)) for v in raw[key].values()):
            raise DataFileError(f"{name}: {key} must map a phrase to a number")
    for key in GROUP_KEYS:
        if not isinstance(raw[key], dict) or not all(isinstance(v, list) for v in raw[key].values()):
            raise DataFileError(f"{name}: {key} must map a category to a list of phrases")
    return raw


def available_languages() -> list[str]:
    folder = resources.files("taxtreaty.data").joinpath(DATA_FOLDER)
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))


@cache
def phrases(code: str) -> Phrases | None:
    """The compiled vocabulary for a language, or None when there is no file for it."""
    if code not in available_languages():
        return None
    raw = _load(code)
    patterns = {key: regex.compile(alternation(raw[key], whole_word=key not in STEM_KEYS))
                for key in (*PHRASE_KEYS, *(k for k in OPTIONAL_PHRASE_KEYS if k in raw))}
    groups = {
        key: {cat: regex.compile(alternation(words, whole_word=key not in STEM_KEYS)) for cat, words in raw[key].items()}
        for key in GROUP_KEYS
    }
    return Phrases(
        code=code,
        raw=raw,
        patterns=patterns,
        groups=groups,
        group_any={
            key: regex.compile(alternation([w for words in raw[key].values() for w in words], whole_word=key not in STEM_KEYS))
            for key in GROUP_KEYS
        },
        number_words={vocab.fold(str(k)): Decimal(str(v)) for k, v in raw["number_words"].items()},
        units={vocab.fold(str(k)): str(v) for k, v in raw["units"].items()},
        currencies={vocab.fold(str(k)): str(v) for k, v in raw["currencies"].items()},
        multipliers=frozenset(vocab.fold(w) for w in raw["number_multipliers"]),
    )


@cache
def _word_group(code: str, keys: tuple[str, ...]) -> str:
    ph = require_phrases(code)
    return word_alternation([vocab.fold(w) for key in keys for w in ph.words(key)])


def all_words(key: str) -> tuple[str, ...]:
    """One of `WORD_KEYS` over every language with a phrase file, longest first: for the readers
    that do not know the language of their text (dates, sentence ends)."""
    words = {w for code in available_languages() for w in require_phrases(code).words(key)}
    return tuple(sorted(words, key=lambda w: (-len(w), w)))


def require_phrases(code: str) -> Phrases:
    """The compiled vocabulary of a language the caller already knows is supported."""
    ph = phrases(code)
    if ph is None:
        raise DataFileError(f"no provisions vocabulary for language {code!r}")
    return ph


@cache
def ending_with(language: str, key: str) -> regex.Pattern[str]:
    """One of the phrases of `key` right at the end of a text ("at least of", "al menos el", "paid after
    the": an "of" or a determiner may follow it)."""
    ph = phrases(language)
    assert ph is not None
    follower = ph.word_group("of_words", "determiners") if key == "at_least" else ph.word_group("determiners")
    return regex.compile(alternation(ph.raw[key]) + rf"\s*(?:{follower}\s+)?$")
