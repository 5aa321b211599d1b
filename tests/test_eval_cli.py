"""`kiln eval` and `kiln coverage` on the command line: output, result files, errors with file:line;
the mutant generator and the bundled sample file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.cli import main
from evaluation.datasets import load_problems
from evaluation.mutants import KINDS, mutants
from evaluation.problems import DataError, read_samples

PROBLEMS = [
    {
        "task_id": "p/0",
        "prompt": "def double(x: int) -> int:\n",
        "entry_point": "double",
        "test": (
            "def check(candidate):\n    assert candidate(2) == 4\n    assert candidate(-1) == -2\n"
        ),
        "canonical_solution": "    return 2 * x\n",
    },
    {
        "task_id": "p/1",
        "prompt": "def first(xs: list[int]) -> int:\n",
        "entry_point": "first",
        "test": (
            "def check(candidate):\n    assert candidate([3, 4]) == 3\n"
            "    assert candidate([]) == 0, 'empty'\n"
        ),
        "canonical_solution": "    return xs[0] if xs else 0\n",
    },
]


def _write(path: Path, rows: list[object]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


@pytest.fixture()
def problems_file(tmp_path: Path) -> Path:
    return _write(tmp_path / "problems.jsonl", PROBLEMS)  # type: ignore[arg-type]


def test_eval_writes_human_eval_results(
    tmp_path: Path, problems_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    samples = _write(
        tmp_path / "samples.jsonl",
        [
            {"task_id": "p/0", "completion": "    return 2 * x\n"},
            {"task_id": "p/0", "completion": "    return x + 2\n"},
            {"task_id": "p/1", "completion": "    return xs[0]\n"},  # IndexError on []
            {"task_id": "p/1", "completion": "    return xs[0] if xs else 0\n"},
        ],
    )
    argv = [
        "eval",
        str(samples),
        "--problems",
        str(problems_file),
        "--k",
        "1,2",
        "--workers",
        "0",
        "--quiet",
    ]
    assert main([*argv, "--exact-messages"]) == 0
    out = capsys.readouterr().out
    assert "pass@1: 0.5000" in out and "pass@2: 1.0000" in out
    assert "candidates/s" in out and "native" in out
    rows = [
        json.loads(line)
        for line in (tmp_path / "samples.jsonl_results.jsonl").read_text().splitlines()
    ]
    assert [r["result"] for r in rows] == [
        "passed",
        "failed: ",
        "failed: list index out of range",
        "passed",
    ]
    assert [r["path"] for r in rows] == ["native", "native", "fallback", "native"]
    assert rows[2]["fallback_reason"].startswith("message: IndexError")
    # without --exact-messages the VM's trap names the exception class
    assert main(argv) == 0
    rows = [
        json.loads(line)
        for line in (tmp_path / "samples.jsonl_results.jsonl").read_text().splitlines()
    ]
    assert (rows[2]["result"], rows[2]["path"], rows[2]["trap"]) == (
        "failed: IndexError",
        "native",
        "IndexError",
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "samples.jsonl:2: not JSON"),
        ('{"task_id": "p/9", "completion": ""}', "samples.jsonl:2: unknown task_id 'p/9'"),
        ('{"task_id": "p/0"}', "samples.jsonl:2: a sample needs a string completion"),
        ("[1, 2]", "samples.jsonl:2: expected a JSON object"),
    ],
)
def test_bad_samples_say_file_and_line(
    tmp_path: Path, problems_file: Path, capsys: pytest.CaptureFixture[str], line: str, message: str
) -> None:
    samples = _write(
        tmp_path / "samples.jsonl", [{"task_id": "p/0", "completion": "    return 0\n"}, line]
    )
    assert (
        main(["eval", str(samples), "--problems", str(problems_file), "--workers", "0", "--quiet"])
        == 2
    )
    assert message in capsys.readouterr().err


def test_bad_problems_and_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = _write(tmp_path / "bad.jsonl", [{"task_id": "x", "prompt": "def f():\n"}])
    with pytest.raises(
        DataError,
        match=r"bad.jsonl:1 \(x\): missing or non-string field\(s\): entry_point, test \(a ch",
    ):
        load_problems(bad)
    with pytest.raises(DataError, match="no such problem file"):
        load_problems(tmp_path / "missing.jsonl")
    assert main(["eval", str(tmp_path / "none.jsonl"), "--workers", "0"]) == 2
    assert "no such sample file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["eval", "x.jsonl", "--k", "0"])


def test_bundled_samples_read_and_cover_humaneval() -> None:
    path = Path(__file__).resolve().parent.parent / "examples" / "humaneval_samples.jsonl"
    problems = load_problems("humaneval")
    samples = read_samples(path, problems)
    assert len({s.task_id for s in samples}) == len(problems)
    assert 300 <= len(samples) <= 400
    assert {s.extra["mutation"] for s in samples} == {"canonical", "empty", *KINDS}


def test_mutants_are_deterministic_and_differ() -> None:
    solution = (
        "    total = 0\n    for x in xs:\n        if x > 1:\n            total += x\n"
        "    return total\n"
    )
    for kind in KINDS:
        first = mutants(solution, kind, seed=3, count=2)
        assert first and first == mutants(solution, kind, seed=3, count=2)
        assert all(m != solution for m in first)
    assert "while True" in mutants(solution, "infinite")[0]
    assert "x >= 1" in "".join(mutants(solution, "operator", seed=0, count=10))
    assert mutants("    return (\n", "operator") == []
    with pytest.raises(ValueError, match="unknown mutation kind"):
        mutants(solution, "swap")


def test_coverage_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage", "humaneval", "--top", "3"]) == 0
    out = capsys.readouterr().out
    assert "canonical solutions" in out and "top blockers" in out
    share = float(out.split("(")[1].split("%")[0])
    assert 0 < share <= 100
