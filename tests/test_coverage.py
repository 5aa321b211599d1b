"""evaluation.coverage: which HumanEval problems kiln runs natively, and what blocks the rest."""

from __future__ import annotations

from typing import Any

import pytest

from evaluation import coverage
from evaluation.coverage import Call, measure, record_calls
from vm import ExecResult


def problem(body: str, test: str, entry: str = "f", task: str = "Fake/0") -> dict[str, Any]:
    """A problem in HumanEval's format: the prompt is the signature, the solution the body."""
    head, _, rest = body.partition("\n")
    return {
        "task_id": task,
        "prompt": head + "\n",
        "canonical_solution": rest + "\n",
        "test": test,
        "entry_point": entry,
    }


def test_real_problems() -> None:
    report = measure(["HumanEval/0", "HumanEval/16", "HumanEval/124"])
    statuses = {t: p.status for t, p in report.per_problem.items()}
    assert statuses == {
        "HumanEval/0": "native",  # floats, nested loops
        "HumanEval/16": "native",  # len(set(string.lower()))
        "HumanEval/124": "unsupported",  # try/except
    }
    assert report.blockers == {"try statement": 1}
    assert report.native_share == pytest.approx(2 / 3)
    assert report.compile_share == pytest.approx(2 / 3)
    zero = report.per_problem["HumanEval/0"]
    assert zero.calls == zero.agreed > 0
    assert zero.arg_types == ["list[float]", "float"]
    assert "try statement" in report.table()


def test_record_calls_copies_arguments_and_keeps_exceptions() -> None:
    p = problem(
        "def f(xs):\n    xs.append(1)\n    return len(xs) // (len(xs) - 2)",
        "def check(candidate):\n    a = [7]\n    try:\n        candidate(a)\n"
        "    except ZeroDivisionError:\n        pass\n    assert candidate([]) == -1\n",
    )
    calls = record_calls(p)
    assert calls == [Call(([7],), ("raise", "ZeroDivisionError")), Call(([],), ("value", -1))]


def test_statuses_of_made_up_problems() -> None:
    problems = {
        "native": problem(
            "def f(xs: list, k):\n    return sorted(xs, key=lambda v: abs(v - k))",
            "def check(candidate):\n    assert candidate([1, 5, -2], 2) == [1, 5, -2]\n",
            task="native",
        ),
        "annotated": problem(
            "def f(xs: list[int]) -> int:\n    return sum(xs)",  # List would need its import
            "def check(candidate):\n    assert candidate([]) == 0\n",
            task="annotated",
        ),
        "overflow": problem(
            "def f(n):\n    return n ** 40",
            "def check(candidate):\n    assert candidate(10) == 10 ** 40\n",
            task="overflow",
        ),
        "dict arg": problem(
            "def f(d):\n    return len(d)",
            "def check(candidate):\n    assert candidate({1: 2}) == 1\n",
            task="dict arg",
        ),
        "mixed": problem(
            "def f(x):\n    return x * 2",
            "def check(candidate):\n    assert candidate(2) == 4\n"
            "    assert candidate(2.5) == 5.0\n",
            task="mixed",
        ),
        "raises": problem(
            "def f(s):\n    return s.index('z')",
            "def check(candidate):\n    try:\n        candidate('abc')\n"
            "    except ValueError:\n        pass\n",
            task="raises",
        ),
    }
    report = measure(problems)
    got = {t: (p.status, p.blocker) for t, p in report.per_problem.items()}
    assert got == {
        "native": ("native", None),
        "annotated": ("native", None),
        "overflow": ("fallback", "trap Overflow"),
        "dict arg": ("no types", "argument type: dict"),
        "mixed": ("fallback", "call arguments of other types"),
        "raises": ("native", None),
    }
    assert report.native_share == pytest.approx(3 / 6)
    assert report.blockers["argument type: dict"] == 1


def test_a_wrong_answer_is_a_mismatch_never_native(monkeypatch: pytest.MonkeyPatch) -> None:
    import vm

    def wrong(items: Any, **kwargs: Any) -> list[ExecResult]:
        return [ExecResult(41, None, 1) for _ in items]

    monkeypatch.setattr(vm, "execute_batch", wrong)
    p = problem(
        "def f(n):\n    return n + 1", "def check(candidate):\n    assert candidate(41) == 42\n"
    )
    report = coverage.measure({"Fake/0": p})
    result = report.per_problem["Fake/0"]
    assert result.status == "mismatch"
    assert report.mismatches == [result]
    assert report.native_share == 0.0
    assert "MISMATCH" in report.table()
