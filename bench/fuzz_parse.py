"""Fuzz `taxtreaty.parse`: coverage-guided with atheris, or a plain random fuzzer without it.

    .venv/bin/python bench/fuzz_parse.py -max_total_time=60        # atheris (pip install atheris)
    .venv/bin/python bench/fuzz_parse.py --plain --seconds 60       # no atheris needed
    .venv/bin/python -m bench.fuzz_parse --plain --seconds 10

The corpus is the synthetic conventions of tests/cases/treaties, the small seeds and the corpus
fragments. Inputs are mutated two ways: atheris' byte-level mutations, and the damage gazettes
and scanners do (taxtreaty.checks.damage: page furniture, OCR swaps, lost lines, truncation,
encodings), so both deep and realistic inputs are tried. The contract under test: `parse` returns
a Document or raises InputError with a one-line message; any other exception is a crash.

A crash is saved as bench/out/fuzz-crashes/crash-<sha1>.bin (atheris: libFuzzer's crash-<sha1> in
the same folder) and printed; turn each into an entry of PARSE_INPUTS in
tests/test_fuzz_regressions.py, inline, then fix it. `run(quick)` (used by `python -m bench`)
runs the plain fuzzer for a bounded time and reports inputs per second and crashes.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import BenchResult, best_of, per_second  # noqa: E402
from taxtreaty.checks import damage  # noqa: E402

SHARED = Path(os.environ.get("TAXTREATY_SHARED", ROOT.parent / "shared"))
CRASHES = ROOT / "bench" / "out" / "fuzz-crashes"
#: inputs above this size slow the fuzzer down without reaching new code
MAX_LEN = 16_384


def corpus() -> dict[str, bytes]:
    """Small real and synthetic conventions to start from."""
    paths = sorted((ROOT / "tests" / "cases" / "treaties").glob("*.txt"))
    paths += [p for p in sorted((SHARED / "seeds").glob("*.txt")) if p.stat().st_size <= MAX_LEN]
    paths += sorted((SHARED / "corpus" / "fragments").glob("*.txt"))
    return {p.name: p.read_bytes() for p in paths}


def check_one(data: bytes) -> None:
    """The property: a Document, or InputError with a one-line message. Anything else raises."""
    from taxtreaty import InputError, parse

    try:
        doc = parse(data)
    except InputError as exc:
        if "\n" in str(exc).strip():
            raise AssertionError(f"InputError message is not one line: {exc!r}") from None
        return
    size = len(doc.original)
    from taxtreaty.structure.model import iter_nodes

    for version in doc.versions:
        eids = [node.eid for node in iter_nodes(version)]
        if len(eids) != len(set(eids)):
            raise AssertionError(f"duplicate eIds in [{version.language}]")
        for node in iter_nodes(version):
            if not 0 <= node.span[0] <= node.span[1] <= size:
                raise AssertionError(f"{node.eid}: span {node.span} outside the source ({size})")


def realistic_mutation(data: bytes, rng: random.Random) -> bytes:
    """Decode, damage like a gazette or a scanner, re-encode (maybe in another encoding)."""
    text = data.decode("utf-8", errors="replace")
    text = damage.damage(text, rng, rounds=rng.randint(1, 4))
    return damage.encode(text, rng.choice(damage.ENCODINGS))[:MAX_LEN]


def byte_mutation(data: bytes, rng: random.Random) -> bytes:
    """Flip, insert or delete a few bytes (for the plain fuzzer, which has no libFuzzer)."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(3)
        at = rng.randrange(len(buf) + 1)
        if op == 0 and buf:
            buf[min(at, len(buf) - 1)] = rng.randrange(256)
        elif op == 1:
            buf[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
        elif buf:
            del buf[at: at + rng.randint(1, 16)]
    return bytes(buf[:MAX_LEN])


def save_crash(data: bytes, error: BaseException) -> Path:
    CRASHES.mkdir(parents=True, exist_ok=True)
    path = CRASHES / f"crash-{hashlib.sha1(data).hexdigest()}.bin"
    path.write_bytes(data)
    path.with_suffix(".txt").write_text("".join(traceback.format_exception(error)), encoding="utf-8")
    return path


def plain_fuzz(seconds: float, seed: int | None = None, verbose: bool = True) -> tuple[int, list[Path]]:
    """Random fuzzing for `seconds`; returns (inputs tried, crash files)."""
    rng = random.Random(seed)
    start_corpus = list(corpus().values())
    if not start_corpus:
        raise SystemExit("fuzz_parse: no corpus found (tests/cases/treaties, ../shared/seeds)")
    crashes: list[Path] = []
    tried = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        data = rng.choice(start_corpus)
        data = realistic_mutation(data, rng) if rng.random() < 0.7 else byte_mutation(data, rng)
        tried += 1
        try:
            check_one(data)
        except Exception as exc:
            path = save_crash(data, exc)
            crashes.append(path)
            if verbose:
                print(f"crash: {type(exc).__name__}: {str(exc)[:200]} -> {path}", flush=True)
    return tried, crashes


def atheris_fuzz(argv: list[str]) -> None:
    import atheris

    import taxtreaty.structure  # noqa: F401  (loaded before instrumenting: taxtreaty is imported above already)

    atheris.instrument_all()  # coverage for every loaded Python function, taxtreaty's included

    def test_one_input(data: bytes) -> None:
        check_one(data)

    def custom_mutator(data: bytes, max_size: int, seed: int) -> bytes:
        rng = random.Random(seed)
        if rng.random() < 0.5:
            return realistic_mutation(data, rng)[:max_size]
        return atheris.Mutate(data, max_size)

    seeds_dir = Path(tempfile.mkdtemp(prefix="taxtreaty-fuzz-"))
    for name, data in corpus().items():
        (seeds_dir / name).write_bytes(data)
    CRASHES.mkdir(parents=True, exist_ok=True)
    args = [argv[0], f"-artifact_prefix={CRASHES}/", f"-max_len={MAX_LEN}", "-timeout=30", *argv[1:], str(seeds_dir)]
    atheris.Setup(args, test_one_input, custom_mutator=custom_mutator)
    atheris.Fuzz()


def run(quick: bool) -> list[BenchResult]:
    """Bounded plain fuzzing for the benchmark table: inputs/s against clean parses, and crashes."""
    from taxtreaty import InputError, parse

    clean_inputs = list(corpus().values())

    def parse_all() -> None:
        for data in clean_inputs:
            with contextlib.suppress(InputError):
                parse(data)

    clean_rate = per_second(len(clean_inputs), best_of(parse_all, repeat=3 if quick else 5))
    seconds = 10.0 if quick else 45.0
    begin = time.perf_counter()
    tried, crashes = plain_fuzz(seconds, seed=0, verbose=False)
    rate = per_second(tried, time.perf_counter() - begin)
    return [
        BenchResult("fuzz parse: damaged inputs per second", rate, "inputs/s", clean_rate, "clean inputs/s",
                    rate / clean_rate if clean_rate else None, "informative", True, f"{tried} inputs, {seconds:.0f} s"),
        BenchResult("fuzz parse: crashes (not InputError)", float(len(crashes)), "crashes", None, "", None, "0",
                    not crashes, f"see {CRASHES.relative_to(ROOT)}" if crashes else ""),
    ]


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], add_help=True)
    parser.add_argument("--plain", action="store_true", help="random fuzzing without atheris")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the plain fuzzer runs")
    parser.add_argument("--seed", type=int, default=None)
    known, rest = parser.parse_known_args(argv[1:])
    if not known.plain:
        try:
            import atheris  # noqa: F401
        except ImportError:
            print("fuzz_parse: atheris is not installed (pip install atheris); running the plain fuzzer", flush=True)
            known.plain = True
    if known.plain:
        seconds = known.seconds
        for arg in rest:  # accept libFuzzer's spelling too
            if arg.startswith("-max_total_time="):
                seconds = float(arg.split("=", 1)[1])
        tried, crashes = plain_fuzz(seconds, known.seed)
        print(f"fuzz_parse: {tried} inputs in {seconds:.0f} s, {len(crashes)} crashes")
        return 1 if crashes else 0
    atheris_fuzz([argv[0], *rest])
    return 0


if __name__ == "__main__":
    sys.exit(main())
