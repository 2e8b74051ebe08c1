"""Resource limits: a size limit with a clear error, worst-case inputs in bounded time, and regexes
free of catastrophic backtracking.

Bounds are generous on purpose (a whole worst-case parse gets 60 s, one regex operation 5 s, where
the real figures are milliseconds to seconds): they catch exponential or quadratic blow-ups, not
slow machines. Fine timings belong in bench/.
"""

from __future__ import annotations

import importlib
import inspect
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import regex

from taxtreaty import InputError, parse, patterns
from taxtreaty.text import MAX_INPUT_BYTES, clean

# the modules, not the function `taxtreaty.text.clean` that the package exports under the same name:
# the cleaner and its steps
TEXT_MODULES = [importlib.import_module(f"taxtreaty.text.{name}")
                for name in ("clean", "lines", "furniture", "footnotes", "inline", "join")]

ROOT = Path(__file__).resolve().parent.parent
WORST_CASE_SECONDS = 60
REGEX_SECONDS = 5.0


# -- the size limit -----------------------------------------------------------------------------


def test_input_over_the_limit_is_refused_in_one_line() -> None:
    with pytest.raises(InputError) as info:
        parse(b"Artigo 1.\n" + b"a" * MAX_INPUT_BYTES)
    message = str(info.value)
    assert "limit" in message and "TAXTREATY_MAX_BYTES" in message
    assert "\n" not in message


def test_the_limit_is_configurable_and_the_command_exits_2(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"Article 1\n1. Text.\n" * 700)  # 13 kB
    result = subprocess.run(
        [sys.executable, "-c", "from taxtreaty.interfaces.cli import main; main()", "parse", str(big)],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
        env={**__import__("os").environ, "TAXTREATY_MAX_BYTES": "10000"},
    )
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("taxtreaty: error: input is ") and "limit" in lines[0]


# -- worst-case inputs --------------------------------------------------------------------------

#: name -> (input at the issue's scale, the same shape small enough for every CI run: a tenth to a
#: fiftieth). Each input is built inside a child process (no 10 MB through a pipe) and parsed
#: there, under a hard time limit.
WORST_CASES = {
    "Artigo lines": ('"Artigo 1.º\\n" * 1_000_000', '"Artigo 1.º\\n" * 20_000'),
    "numbered article headings": ('"".join(f"Artigo {i % 999 + 1}.º\\n" for i in range(1_000_000))',
                                  '"".join(f"Artigo {i % 999 + 1}.º\\n" for i in range(20_000))'),
    "10 MB without a newline": ('"a" * 10_000_000', '"a" * 1_000_000'),
    "10 MB of words without a newline": ('"o imposto não excederá 10 % " * 360_000', '"o imposto não excederá 10 % " * 36_000'),
    "a huge paragraph": ('"Artigo 10.º — Dividendos\\n1 — " + "os dividendos podem ser tributados " * 280_000',
                         '"Artigo 10.º — Dividendos\\n1 — " + "os dividendos podem ser tributados " * 28_000'),
    "short lines": ('"x\\n" * 5_000_000', '"x\\n" * 100_000'),
    "paragraph markers": ('"Artigo 1.º\\n" + "".join(f"{i} — texto.\\n" for i in range(1, 500_000))',
                          '"Artigo 1.º\\n" + "".join(f"{i} — texto.\\n" for i in range(1, 20_000))'),
    "point labels": ('"Artigo 10.º\\n1 — Texto:\\n" + "a) b) c)\\n" * 1_000_000',
                     '"Artigo 10.º\\n1 — Texto:\\n" + "a) b) c)\\n" * 20_000'),
    "nested points": ('"Artigo 10.º — Dividendos\\n1 — Texto:\\n" + "".join(f"{x})\\n" for x in "ai1A" * 2500)',
                      '"Artigo 10.º — Dividendos\\n1 — Texto:\\n" + "".join(f"{x})\\n" for x in "ai1A" * 50)'),
    "hyphenated page breaks": ('"Artigo 1.º\\n1 — " + "mon-\\n\\n1473\\n\\ntante " * 300_000',
                               '"Artigo 1.º\\n1 — " + "mon-\\n\\n1473\\n\\ntante " * 30_000'),
}
#: inputs at the issue's scale that do not finish in 60 s yet, with what was measured (2 CPUs,
#: 2026-11-30). They run (as strict xfails) with TAXTREATY_SLOW_LIMITS=1; remove an entry when it
#: passes. (Before the 200,000-line limit of taxtreaty.text.decode, a million "Artigo" lines took
#: 125 s and 200,000 numbered headings 65 s; they are now refused at once, with a clear error.
#: 10,000 levels of nested points took over 60 s and 1,040 raised RecursionError; fixed.)
TOO_SLOW_AT_ISSUE_SCALE: dict[str, str] = {}
SLOW = os.environ.get("TAXTREATY_SLOW_LIMITS") == "1"
CHILD = textwrap.dedent("""\
    import sys
    from taxtreaty import InputError, parse
    data = ({expr}).encode("utf-8")
    assert len(data) <= {limit}, len(data)
    try:
        doc = parse(data)
    except InputError as exc:
        print("refused:", exc)
    else:
        print("parsed:", sum(len(v.articles) for v in doc.versions), "articles")
    """)


def _worst_case_params() -> list[Any]:
    params = []
    for name in WORST_CASES:
        params.append(pytest.param(name, 1, id=f"{name} (CI scale)"))
        marks = []
        if name in TOO_SLOW_AT_ISSUE_SCALE:
            marks.append(pytest.mark.xfail(run=SLOW, strict=True, reason=TOO_SLOW_AT_ISSUE_SCALE[name]))
        params.append(pytest.param(name, 0, id=f"{name} (issue scale)", marks=marks))
    return params


@pytest.mark.slow
@pytest.mark.parametrize(("name", "scale"), _worst_case_params())
def test_worst_case_input_finishes_in_bounded_time(name: str, scale: int) -> None:
    code = CHILD.format(expr=WORST_CASES[name][scale], limit=MAX_INPUT_BYTES)
    try:
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                                timeout=WORST_CASE_SECONDS)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{name}: parse did not finish within {WORST_CASE_SECONDS} s")
    assert result.returncode == 0, f"{name}: parse crashed: {result.stderr.strip().splitlines()[-1:]}"
    assert result.stdout.startswith(("parsed:", "refused:")), result.stdout


# -- catastrophic backtracking ------------------------------------------------------------------


def _patterns_of(module: Any) -> Iterator[tuple[str, regex.Pattern[str]]]:
    """Every compiled pattern a module holds or builds without arguments (its @cache builders)."""
    for name, value in sorted(vars(module).items()):
        if isinstance(value, regex.Pattern):
            yield f"{module.__name__}.{name}", value
        elif callable(value) and getattr(value, "__module__", None) == module.__name__ and hasattr(value, "cache_info"):
            try:
                if inspect.signature(value).parameters:
                    continue
            except (TypeError, ValueError):
                continue
            built = value()
            items = built if isinstance(built, list) else [built]
            for index, item in enumerate(items):
                found = item if isinstance(item, regex.Pattern) else next(
                    (x for x in item if isinstance(x, regex.Pattern)), None) if isinstance(item, tuple) else None
                if found is not None:
                    yield f"{module.__name__}.{name}()[{index}]", found


PATTERNS = dict(pattern for module in [patterns, *TEXT_MODULES] for pattern in _patterns_of(module))
#: characters that regexes over treaty text repeat: blanks, letters, digits, markers, punctuation
BASE_CHARS = " \t\n.,;:-—–()«»º°\"'*#_1aAIi%£"


def _adversarial(pattern: regex.Pattern[str], size: int = 20_000) -> Iterator[str]:
    """Long runs of each character the pattern mentions (and of the usual suspects), with and
    without a prefix that lets the pattern start, and a tail that makes it fail at the very end."""
    literal = {c for c in pattern.pattern if c.isprintable() and c not in "\\^$()[]{}?+*|.<>=!:"}
    chars = sorted(set(BASE_CHARS) | {c for c in literal if not c.isalnum()} | set(sorted(c for c in literal if c.isalnum())[:12]))
    prefixes = ("", "Artigo ", "### Article 1 ", "1 — ", "a) ", "13 DE SETEMBRO DE ")
    for c in chars:
        for prefix in prefixes:
            yield prefix + c * size + "\x00"
            yield prefix + (c + " ") * (size // 2)


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_pattern_has_no_catastrophic_backtracking(name: str) -> None:
    pattern = PATTERNS[name]
    for text in _adversarial(pattern):
        try:
            pattern.match(text, timeout=REGEX_SECONDS)
            pattern.search(text, timeout=REGEX_SECONDS)
        except TimeoutError:
            pytest.fail(f"{name} takes over {REGEX_SECONDS} s on {text[:30]!r}... ({len(text)} chars)")


def test_the_patterns_under_test_include_every_marker_pattern() -> None:
    names = set(PATTERNS)
    for expected in ("article_heading", "chapter_heading", "protocol_heading", "convention_title", "closing_formula",
                     "PARAGRAPH_MARKER", "POINT_MARKER", "BULLET", "SENTENCE_END", "_furniture_line_patterns"):
        assert any(expected in n for n in names), expected


ADVERSARIAL_PAGES = {
    "dashes": "—" * 200_000,
    "hyphen ends": "mon-\n" * 40_000,
    "ordinal marks": "Artigo 1.º" + "º" * 200_000,
    "open parentheses": "1 — " + "(" * 200_000,
    "labels": "a)" * 100_000,
    "furniture": "13 DE SETEMBRO DE 1996\n1473\n" * 20_000,
    "mojibake": "ConvenÃ§Ã£o " * 20_000,
    "spaces then a letter": " " * 200_000 + "x",
    "html tags": "<sup>" * 40_000,
    "semicolons before labels": "; ii) Ao" * 30_000,
    "sentences before headings": ". Article 12 ROYALTIES" * 20_000,
}


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise TimeoutError in the test if the block runs longer than `seconds` (SIGALRM)."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"over {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("name", sorted(ADVERSARIAL_PAGES))
def test_cleaner_finishes_on_adversarial_text(name: str) -> None:
    text = ADVERSARIAL_PAGES[name]
    with deadline(WORST_CASE_SECONDS):
        cleaned = clean(text)
    # and it still maps back into the text it was given
    start, end = cleaned.original_span(0, len(cleaned.text))
    assert 0 <= start <= end <= len(text)


def test_cleaner_keeps_the_text_of_an_adversarial_line() -> None:
    text = "1 — " + "(" * 1000 + " 10 % " + ")" * 1000
    cleaned = clean(text)
    assert cleaned.text.strip() == text
    assert cleaned.original_span(0, len(cleaned.text.strip())) == (0, len(text))
