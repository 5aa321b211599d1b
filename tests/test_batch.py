"""vm.batch on the reference backend: building batches, comparison modes, per-candidate reduction."""

from __future__ import annotations

import numpy as np
import pytest

from compiler import compile_source
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
    marshal_expected,
)
from vm.limits import Limits
from vm.run import verify
from vm.values import BOOL, FLOAT, INT, list_of, tuple_of, vtuple_of


def prog(body: str, ret: str = "int"):  # type: ignore[no-untyped-def]
    return compile_source(
        f"def f(a: int, b: int) -> {ret}:\n"
        + "".join(f"    {line}\n" for line in body.splitlines())
    )


TESTS = [TestSpec((1, 2), 3), TestSpec((0, 0), 0), TestSpec((5, -5), 0)]


def run(programs, tests=TESTS, items=None, **kw):  # type: ignore[no-untyped-def]
    b = BatchBuilder()
    for p in programs:
        b.add_candidate(p, 0, b.add_tests(p, 0, tests))
    batch = b.build()
    if items is not None:
        batch.items = items(batch.items)
    return verify(batch, backend="ref", limits=Limits(fuel=2000), **kw)


def test_verdicts_and_first_failing_test() -> None:
    res = run(
        [
            prog("return a + b"),
            prog("return a * b"),
            prog("while True:\n    a += 1\nreturn a"),
            prog("return (a + b) // b * 0 + a + b"),
            prog("return a / b", "float"),
        ]
    )
    assert list(res.verdict) == [PASSED, WRONG_ANSWER, TIMED_OUT, TRAPPED, WRONG_ANSWER]
    assert list(res.fail_test) == [-1, 0, 0, 1, 0]  # a*b: 1*2 != 3 at test 0; // b: 0//0 at test 1
    assert res.trap[3] == 1  # ZeroDivisionError
    assert res.steps[2] == 3 * 2000


def test_run_order_does_not_change_verdicts() -> None:
    programs = [prog("return a + b"), prog("return a - b"), prog("return b // a")]
    straight = run(programs)
    shuffled = run(
        programs, items=lambda items: items[np.random.default_rng(0).permutation(len(items))]
    )
    for field in ("verdict", "fail_test", "trap", "steps"):
        assert (getattr(straight, field) == getattr(shuffled, field)).all()


def test_marshal_expected_follows_python_equality() -> None:
    assert marshal_expected(3, FLOAT) is not None  # 3 == 3.0
    assert marshal_expected(True, INT) == [1]  # True == 1
    assert marshal_expected(1, BOOL) == [1]
    assert marshal_expected("x", INT) is None  # no int equals "x"
    assert marshal_expected(2**60 + 1, FLOAT) is None  # not exact as a double: leave it unequal
    assert marshal_expected([1, 2], list_of(FLOAT)) is not None
    assert marshal_expected((1, "a"), tuple_of(INT, INT)) is None
    # a tuple[T, ...] result equals tuples of any length, never a list
    assert marshal_expected((1, 2.0), vtuple_of(INT)) == [2, 1, 2]
    assert marshal_expected((), vtuple_of(INT)) == [0]
    assert marshal_expected([1, 2], vtuple_of(INT)) is None


@pytest.mark.parametrize("backend", ["ref", "cpu"])
def test_dynamic_tuple_results_are_tuples(backend: str) -> None:
    evens = compile_source(
        "def f(xs: list[int]):\n"
        "    if not xs:\n"
        "        return ()\n"
        "    return tuple(x for x in xs if x % 2 == 0)\n"
    )
    tests = [
        TestSpec(([1, 2, 3, 4],), (2, 4)),
        TestSpec(([],), ()),
        TestSpec(([1],), ()),
        TestSpec(([2],), (2,)),
        TestSpec(([6],), [6]),  # CPython: (6,) != [6]
        TestSpec(([6],), (6, 6)),
    ]
    outcomes = []
    for test in tests:
        b = BatchBuilder()
        b.add_candidate(evens, 0, b.add_tests(evens, 0, [test]))
        result = verify(b.build(), backend=backend, limits=Limits(fuel=2000))
        outcomes.append(int(result.verdict[0]))
    assert outcomes == [PASSED] * 4 + [WRONG_ANSWER] * 2


def test_comparison_modes() -> None:
    half = prog("return a / b", "float")
    exact = run([half], [TestSpec((1, 3), 0.3333333333333333)])
    close = run([half], [TestSpec((1, 3), 0.3333, abs_tol=1e-3)])
    off = run([half], [TestSpec((1, 3), 0.3333)])
    never = run([half], [TestSpec((1, 3), "one third")])
    assert (exact.verdict[0], close.verdict[0], off.verdict[0], never.verdict[0]) == (
        PASSED,
        PASSED,
        WRONG_ANSWER,
        WRONG_ANSWER,
    )


def test_modes_recorded_per_test() -> None:
    p = prog("return a / b", "float")
    b = BatchBuilder()
    b.add_tests(
        p, 0, [TestSpec((1, 2), 0.5), TestSpec((1, 2), 0.5, rel_tol=1e-9), TestSpec((1, 2), "x")]
    )
    assert list(b.build().mode) == [EXACT, CLOSE, NEVER]


def test_bad_arguments_name_the_test() -> None:
    p = prog("return a")
    with pytest.raises(ValueError, match="test 1, argument 0"):
        BatchBuilder().add_tests(p, 0, [TestSpec((1, 2), 1), TestSpec(("x", 2), 1)])


def test_rows_added_at_once_follow_the_candidates_added_before() -> None:
    """add_rows (the Pipeline's bulk path) appends after add_candidate's rows, in order, and
    refuses a program index that program_index never gave."""
    good, wrong = prog("return a + b"), prog("return a * b")
    one = BatchBuilder()
    span = one.add_tests(good, 0, TESTS)
    one.add_candidate(wrong, 0, span)
    rows = np.array([[one.program_index(good), 0, *span], [0, 0, *span]])
    one.add_rows(rows)
    one.add_candidate(good, 0, span)
    batch = one.build()
    assert batch.cand_program.tolist() == [0, 1, 0, 1]
    res = verify(batch, backend="ref", limits=Limits(fuel=2000))
    assert list(res.verdict) == [WRONG_ANSWER, PASSED, WRONG_ANSWER, PASSED]
    with pytest.raises(ValueError, match="program index"):
        one.add_rows(np.array([[2, 0, *span]]))
