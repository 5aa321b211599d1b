"""Verification batches on the C interpreter (`vm.run.verify(..., backend="cpu")`) against the
specification (`backend="ref"`: vm.ref plus Python's own comparison): the golden corpus with its
expected values and with deliberately wrong ones, generated programs with CPython's results, and
adversarial batches (infinite loops beside instant programs, deep recursion, allocation bombs,
results too large to marshal, bad indices, NaN, infinities and -0.0 under EXACT and CLOSE, NEVER,
shuffled item orders, one thread or many).

The batch builders here are shared with tests/test_gpu_backend.py, which runs the same batches on
the CUDA backend against this one.
"""

from __future__ import annotations

import ast
import copy
import math
import random
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from test_corpus import CASES

from compiler import CompileError, compile_source, parse_call
from vm.batch import (
    CLOSE,
    EXACT,
    NEVER,
    PASSED,
    TIMED_OUT,
    TRAPPED,
    WRONG_ANSWER,
    BatchBuilder,
    TestSpec,
    VerifyBatch,
    VerifyResult,
)
from vm.container import Program
from vm.limits import Limits
from vm.run import verify
from vm.values import INT64_MAX, Type, type_of_value, value_alternative

LIMITS = Limits(fuel=200_000, stack_words=1 << 12, max_call_depth=200, heap_words=1 << 14)
"""Small limits: runaway programs stop quickly on the reference VM, and scratch stays small."""


def assert_same(got: VerifyResult, want: VerifyResult, what: str = "") -> None:
    for name in ("verdict", "fail_test", "trap", "steps"):
        a, b = getattr(got, name), getattr(want, name)
        bad = np.nonzero(a != b)[0]
        first = bad[:10]
        assert not len(bad), (
            f"{what}{name} differs for candidates {first.tolist()}: "
            f"{a[first].tolist()} != {b[first].tolist()}"
        )


# ---- values: a default of each type, and a value of the same type that differs -------------------


def default_of(ty: Type) -> Any:
    if ty.kind == "tuple":
        return tuple(default_of(a) for a in ty.args)
    if ty.kind == "optional":
        return None
    return {"none": None, "bool": False, "int": 0, "float": 0.0, "str": "", "list": []}[ty.kind]


def wrong_value(value: Any, ty: Type) -> Any:
    """A value of `ty` that is not equal to `value` (deep: the last item of a list differs), or,
    for None, a value no None can equal (the test becomes NEVER)."""
    kind = ty.kind
    if kind == "none":
        return 0
    if kind == "optional":  # a value for None, None for a value
        return default_of(ty.args[0]) if value is None else None
    if kind == "bool":
        return not value
    if kind == "int":
        return value + 1 if value < INT64_MAX else value - 1
    if kind == "float":
        return 0.5 if value != 0.5 else 1.5
    if kind == "str":
        return value + "?"
    if kind == "list":
        if not value:
            return [default_of(ty.args[0])]
        return [*value[:-1], wrong_value(value[-1], ty.args[0])]
    if kind == "union":  # another value of the same kind
        alt = value_alternative(value, ty)
        assert alt is not None, (value, ty)
        return wrong_value(value, alt)
    return (wrong_value(value[0], ty.args[0]), *value[1:])


# ---- batches -------------------------------------------------------------------------------------


@dataclass
class Entry:
    """One candidate: a program's function and its tests."""

    name: str
    program: Program
    function: int
    tests: list[TestSpec]


def build(entries: list[Entry], shuffle: int | None = None) -> VerifyBatch:
    builder = BatchBuilder()
    for entry in entries:
        tests = builder.add_tests(entry.program, entry.function, entry.tests)
        builder.add_candidate(entry.program, entry.function, tests)
    batch = builder.build()
    if shuffle is not None:
        order = np.random.default_rng(shuffle).permutation(len(batch.items))
        batch.items = batch.items[order]
    return batch


def _call_cpython(source: str, name: str, args: list[Any]) -> tuple[bool, Any]:
    """(True, value) or (False, None) when CPython raises."""
    namespace: dict[str, Any] = {}
    exec(compile(source, "<verify>", "exec"), namespace)
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(1000)
        return True, namespace[name](*copy.deepcopy(args))
    except Exception:  # noqa: BLE001 - kiln traps there too; the expected value does not matter
        return False, None
    finally:
        sys.setrecursionlimit(limit)


def corpus_entries() -> list[Entry]:
    """Every value-returning corpus program with default limits: the expected value, then a wrong
    one (so each candidate is WRONG_ANSWER on test 1 unless kiln traps first)."""
    entries = []
    for case in CASES:
        if case.expect is None or case.limits:
            continue
        name, args = parse_call(case.call)
        program = compile_source(
            case.source, case.name, arg_types={name: [type_of_value(a) for a in args]}
        )
        function = program.function_index(name)
        try:
            expected = ast.literal_eval(case.expect)
        except ValueError:  # nan, inf: not literals
            expected = _call_cpython(case.source, name, list(args))[1]
        ret = program.signature(function)[1]
        tests = [TestSpec(tuple(args), expected), TestSpec(tuple(args), wrong_value(expected, ret))]
        entries.append(Entry(case.name, program, function, tests))
    return entries


def fuzz_entries(n: int, seed: int) -> list[Entry]:
    """Generated programs with their inputs, expected values computed by CPython (a wrong one,
    by `wrong_value`, for the last input of every third program; a default where CPython
    raises)."""
    from fuzz import generate

    rng = random.Random(seed)
    entries = []
    for k in range(n):
        generated = generate(
            rng.getrandbits(32), size=rng.choice([4, 8, 12, 20]), depth=rng.choice([1, 2, 3])
        )
        try:
            program = compile_source(generated.source, "<fuzz>")
        except CompileError:
            continue
        function = program.function_index(generated.entry)
        ret = program.signature(function)[1]
        tests = []
        for i, args in enumerate(generated.inputs):
            ok, value = _call_cpython(generated.source, generated.entry, list(args))
            expected = value if ok else default_of(ret)
            if ok and k % 3 == 2 and i == len(generated.inputs) - 1:
                expected = wrong_value(value, ret)
            tests.append(TestSpec(tuple(args), expected))
        entries.append(Entry(f"fuzz {k}", program, function, tests))
    return entries


ADVERSARIAL = """
def spin(n: int) -> int:
    while n > -1:
        n = n + 0
    return n

def ident(n: int) -> int:
    return n

def deep(n: int) -> int:
    if n == 0:
        return 0
    return 1 + deep(n - 1)

def bomb(n: int) -> list[int]:
    items = [n]
    while True:
        items = items + items
    return items

def shared(n: int) -> list[list[int]]:
    row = [0] * n
    return [row, row, row, row]

def at(items: list[int], i: int) -> int:
    return items[i]

def same(x: float) -> float:
    return x * 1.0

def pair(x: float) -> list[float]:
    return [x, x]

def named(x: float, s: str) -> tuple[float, str]:
    return (x, s)

def divide(a: int, b: int) -> int:
    return a // b
"""


def adversarial_entries(limits: Limits = LIMITS) -> list[Entry]:
    """Each candidate with the verdict it must get (see `ADVERSARIAL_VERDICTS`)."""
    program = compile_source(
        ADVERSARIAL, "<adversarial>",
        arg_types={
            "spin": [Type("int")], "ident": [Type("int")], "deep": [Type("int")],
            "bomb": [Type("int")], "shared": [Type("int")], "divide": [Type("int"), Type("int")],
        },
    )  # fmt: skip
    nan, inf = math.nan, math.inf
    quarter = limits.heap_words // 4

    def entry(name: str, *tests: TestSpec) -> Entry:
        return Entry(name, program, program.function_index(name), list(tests))

    t = TestSpec
    return [
        entry("ident", t((1,), 1), t((2,), 2), t((-3,), -3)),
        entry("spin", t((1,), 1)),
        entry("ident", t((5,), 5), t((6,), 7)),
        entry("deep", t((10,), 10), t((10_000,), 0)),
        entry("spin", t((0,), 0), t((1,), 1)),
        entry("bomb", t((1,), [1])),
        entry("shared", t((2,), [[0, 0]] * 4), t((quarter,), [[0] * quarter] * 4)),
        entry("at", t(([1, 2, 3], -1), 3), t(([1, 2, 3], 3), 0)),
        entry("at", t(([1, 2, 3], 0), 1), t(([], 0), 0)),
        entry("same", t((nan,), nan)),
        entry("same", t((nan,), nan, rel_tol=1.0, abs_tol=inf)),
        entry(
            "same", t((-0.0,), 0.0), t((0.0,), -0.0), t((inf,), inf), t((-inf,), -inf, rel_tol=0.5)
        ),
        entry("same", t((inf,), 1e308, rel_tol=1.0)),
        entry(
            "same",
            t((1.0,), 1.0 + 1e-10, rel_tol=1e-9),
            t((1.0,), 1.001, abs_tol=0.01),
            t((1e-300,), 0.0, abs_tol=1e-299),
        ),
        entry("same", t((1.0,), 1.0 + 1e-10)),
        entry("same", t((1.0,), 1.0 + 1e-8, rel_tol=1e-9)),
        entry("same", t((1.0,), 1)),  # an int expected of a float result: 1 == 1.0
        entry("pair", t((-0.0,), [0.0, -0.0]), t((nan,), [nan, nan])),
        entry("named", t((2.5, "é😀"), (2.5, "é😀")), t((2.5, "ab"), (2.5, "abc"))),
        entry("ident", t((1,), "one")),  # NEVER: no int is a str
        entry("divide", t((1, 0), "zero")),  # NEVER, but the trap comes first
        entry("divide", t((7, 2), 3), t((-7, 2), -4), t((7, 0), 0)),
        # an expected bool of an int result: True == 1 (a bool argument is no int's: CPython
        # keeps it a bool, str(True) is "True", so vm.values.marshal refuses it for an int)
        entry("ident", t((1,), True)),
    ]


ADVERSARIAL_VERDICTS = [
    (PASSED, -1), (TIMED_OUT, 0), (WRONG_ANSWER, 1), (TRAPPED, 1), (TIMED_OUT, 0),
    (None, 0), (None, 1), (TRAPPED, 1), (TRAPPED, 1),  # bomb and shared: HeapExhausted (fallback)
    (WRONG_ANSWER, 0), (WRONG_ANSWER, 0), (PASSED, -1), (WRONG_ANSWER, 0), (PASSED, -1),
    (WRONG_ANSWER, 0), (WRONG_ANSWER, 0), (PASSED, -1), (WRONG_ANSWER, 1), (WRONG_ANSWER, 1),
    (WRONG_ANSWER, 0), (TRAPPED, 0), (TRAPPED, 2), (PASSED, -1),
]  # fmt: skip
"""(verdict, failing test) of each adversarial candidate; None: NEEDS_FALLBACK, checked by trap."""


# ---- tests ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus_batch() -> VerifyBatch:
    return build(corpus_entries())


def test_corpus_cpu_equals_ref(corpus_batch: VerifyBatch) -> None:
    want = verify(corpus_batch, backend="ref")
    got = verify(corpus_batch, backend="cpu", threads=4)
    assert_same(got, want)
    assert corpus_batch.n_candidates >= 100
    # the wrong expected value is caught on every candidate that returns values
    assert (want.verdict == WRONG_ANSWER).sum() >= corpus_batch.n_candidates - 15
    assert ((want.verdict != WRONG_ANSWER) | (want.fail_test == 1)).all()


def test_generated_programs_cpu_equals_ref() -> None:
    batch = build(fuzz_entries(250, seed=20240601))
    assert batch.n_candidates >= 200
    want = verify(batch, backend="ref", limits=LIMITS)
    got = verify(batch, backend="cpu", limits=LIMITS, threads=3)
    assert_same(got, want)
    assert (want.verdict == PASSED).any() and (want.verdict == WRONG_ANSWER).any()


def test_adversarial_batch_verdicts() -> None:
    entries = adversarial_entries()
    batch = build(entries)
    want = verify(batch, backend="ref", limits=LIMITS)
    got = verify(batch, backend="cpu", limits=LIMITS, threads=2)
    assert_same(got, want)
    from vm.batch import NEEDS_FALLBACK
    from vm.isa import TRAP_BY_NAME

    for c, (entry, (verdict, fail)) in enumerate(zip(entries, ADVERSARIAL_VERDICTS, strict=True)):
        where = f"candidate {c} ({entry.name})"
        assert got.fail_test[c] == fail, where
        if verdict is None:
            assert (
                got.verdict[c] == NEEDS_FALLBACK
                and got.trap[c] == TRAP_BY_NAME["HeapExhausted"].code
            ), where
        else:
            assert got.verdict[c] == verdict, where
    assert got.trap[1] == TRAP_BY_NAME["FuelExhausted"].code and got.steps[1] == LIMITS.fuel
    assert got.trap[3] == TRAP_BY_NAME["RecursionError"].code


def test_modes_are_recorded_as_the_comparison_says() -> None:
    batch = build(adversarial_entries())
    modes = batch.mode.tolist()
    assert {EXACT, CLOSE, NEVER} <= set(modes)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_item_order_does_not_change_verdicts(seed: int) -> None:
    entries = adversarial_entries() + fuzz_entries(40, seed=seed)
    in_order = verify(build(entries), backend="cpu", limits=LIMITS, threads=2)
    shuffled = build(entries, shuffle=seed)
    assert_same(
        verify(shuffled, backend="cpu", limits=LIMITS, threads=3), in_order, "cpu shuffled: "
    )
    assert_same(verify(shuffled, backend="ref", limits=LIMITS), in_order, "ref shuffled: ")


def test_many_threads_equal_one_thread() -> None:
    batch = build((adversarial_entries() + fuzz_entries(60, seed=7)) * 3, shuffle=11)
    one = verify(batch, backend="cpu", limits=LIMITS, threads=1)
    for threads in (2, 7, 32):
        assert_same(
            verify(batch, backend="cpu", limits=LIMITS, threads=threads),
            one,
            f"{threads} threads: ",
        )
    assert one.timings["kernel"] >= 0


def test_empty_batch_and_malformed_items() -> None:
    entries = adversarial_entries()[:1]
    batch = build(entries)
    batch.items = batch.items[:0]
    result = verify(batch, backend="cpu", limits=LIMITS)
    assert result.verdict.tolist() == [PASSED] and result.steps.tolist() == [0]
    # the C side checks every item's ranges itself: a test outside its candidate is MemoryFault
    batch = build(entries)
    batch.items = np.array([[0, 0], [0, 5]], dtype=np.int32)
    result = verify(batch, backend="cpu", limits=LIMITS)
    assert result.verdict.tolist() == [4] and result.fail_test.tolist() == [5]


def test_negative_tolerance_is_rejected_as_math_isclose_does() -> None:
    batch = build(adversarial_entries()[:1])
    batch.mode[0] = CLOSE
    batch.tolerance[0] = (-1.0, 0.0)
    with pytest.raises(ValueError, match="non-negative"):
        verify(batch, backend="cpu", limits=LIMITS)
    with pytest.raises(ValueError):
        verify(batch, backend="ref", limits=LIMITS)


def test_trusted_batch_verifies_in_c_and_explains_in_python(monkeypatch: pytest.MonkeyPatch):
    """A trusted batch (VerifyBatch.trusted: the Pipeline's, all compiled by kiln or verified on
    loading) skips vm.verify for a program the C side's own verifier passes, and runs it for one
    it does not: a broken program is still the VerifyError an untrusted batch raises."""
    import vm.verify
    from vm.container import VerifyError
    from vm.isa import BY_NAME

    entries = adversarial_entries()[:1]
    want = verify(build(entries), backend="cpu", limits=LIMITS)
    calls: list[Program] = []
    real = vm.verify.verify
    monkeypatch.setattr(vm.verify, "verify", lambda p: calls.append(p) or real(p))
    batch = build(entries)
    batch.trusted = True
    assert_same(verify(batch, backend="cpu", limits=LIMITS), want, "trusted: ")
    assert calls == []
    verify(build(entries), backend="cpu", limits=LIMITS)
    assert len(calls) == len(build(entries).programs)  # untrusted: vm.verify on every program
    calls.clear()
    broken = build(entries)
    broken.trusted = True
    fn = broken.programs[0].functions[0]
    fn.code[0] = (len(fn.code) + 5) << 8 | BY_NAME["JUMP"].code  # a jump out of the code
    with pytest.raises(VerifyError):
        verify(broken, backend="cpu", limits=LIMITS)
    assert len(calls) == 1
