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


def test_blockers_name_constructs_not_programs() -> None:
    from evaluation.coverage_samples import blocker

    cases = {
        "compile error: <f>:3:5: unsupported: call of isinstance (isinstance is neither a"
        " function of this module nor a kiln builtin)": "call of isinstance",
        "compile error: <f>:9:1: unsupported: float(str) (parsing floats is not in kiln"
        " Python yet)": "float(str)",
        "compile error: <f>:2:1: type error: median returns float elsewhere but int here": (
            "type error: returns of different types"
        ),
        "compile error: <f>:2:1: type error: unsupported operand type(s) for &: 'set' and"
        " 'set'": "type error: operand types of &",
        "compile error: <f>:4:2: unsupported: call of the variable sum (a variable named like"
        " a function shadows it in the whole function)": "call of a variable named like a function",
    }
    for reason, construct in cases.items():
        assert blocker(reason) == ("compile error", construct), reason
    assert blocker("problem: line 7: import statement in check()") == (
        "problem",
        "import statement in check",
    )
    assert blocker("needs fallback: Overflow") == ("run time", "needs fallback: Overflow")


def test_samples_coverage_ranks_blockers_and_compares_verdicts(tmp_path: Any) -> None:
    import json

    from evaluation.coverage_samples import measure_samples

    rows = [
        {"task_id": "HumanEval/95", "completion": "    return False\n"},  # a dict parameter: native
        {"task_id": "HumanEval/2", "completion": "    return number % 1.0\n"},
        {"task_id": "HumanEval/2", "completion": "    return number - float(str(number))\n"},
        {"task_id": "HumanEval/2", "completion": "    return number - int(number\n"},
    ]
    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(json.dumps(r) + "\n" for r in rows))
    reference = tmp_path / "reference.jsonl"
    verdicts = [False, True, False, False]
    reference.write_text("".join(json.dumps({"passed": v, "result": "?"}) + "\n" for v in verdicts))
    report = measure_samples(samples, reference=reference)
    assert (report.total, report.native, report.syntax_errors) == (4, 3, 1)
    assert report.compared == 4 and not report.differences
    ranked = {(b.category, b.construct, b.count): b.example for b in report.ranked()}
    # every HumanEval check runs natively since unions, and HumanEval/95's dict parameter too
    assert set(ranked) == {("compile error", "str(float)", 1)}
    assert ranked["compile error", "str(float)", 1]["line"] == 3
    table = report.table()
    assert "3/4 samples (75.0%)" in table and "str(float)" in table
    assert report.as_dict()["blockers"][0]["count"] == 1
