"""Dataset problem ids ("HumanEval/0", "Mbpp/2") -> the program, entry function and tests of a job.

A job may name a problem of a built-in dataset (`problems`: humaneval, mbpp, mbpp-sanitized, as
`kiln eval --problems` takes them) instead of giving tests. Its candidates are then completions
of that dataset's kind (`evaluation.problems.Problem.code`: appended to HumanEval's prompt, a
whole program for MBPP), and the tests are the problem's own, extracted and given fuel budgets
by `evaluation` (from the canonical solution's steps):

    found = lookup_problem("HumanEval/0")             # None: no dataset knows the id
    found = lookup_problem("Mbpp/2", "mbpp")          # or "2", as kiln eval reads task_ids
    found.program(completion), found.entry, found.tests

A problem whose tests cannot run natively (they need the CPython fallback, which the service
does not run) raises `ProblemUnavailable` with the reason. Each problem is prepared once per
process: a few runs of its canonical solution, on the `runner` given (the service passes its
executor, so the API process only routes: the farm's workers run them), else on a local runner
in this process (`evaluation.prepcache` keeps what was prepared across processes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from threading import Lock
from typing import Any

from core.jobs import Runner, TestSpec
from vm.limits import Limits

DEFAULT_DATASET = "humaneval"


class ProblemUnavailable(LookupError):
    """A known problem the service cannot run; the message says why."""


@dataclass(frozen=True)
class ProblemTests:
    entry: str
    tests: list[TestSpec]
    _prepared: Any  # evaluation.run.PreparedProblem

    def program(self, completion: str) -> str:
        """The kiln program of a candidate: the prompt, the completion (and the check function
        the problem's tests call, when they are not plain equalities)."""
        return str(self._prepared.program(completion))


def dataset_names() -> tuple[str, ...]:
    """The built-in datasets a job may name (none when the dataset adapters are not installed)."""
    try:
        from evaluation.datasets import DATASETS
    except ImportError:
        return ()
    return tuple(DATASETS)


@cache
def _problems(dataset: str) -> tuple[Mapping[str, Any], Mapping[str, str]]:
    """The dataset's problems and its task_id aliases (`2` for `Mbpp/2`)."""
    try:
        from evaluation.datasets import load_problems
        from evaluation.problems import task_aliases
    except ImportError:  # the dataset adapters are not installed: no id is known
        return {}, {}
    try:
        problems = load_problems(dataset)
    except (OSError, ValueError):
        return {}, {}
    return problems, task_aliases(problems)


_PREPARED: dict[tuple[str, str, Limits | None, str], ProblemTests | None] = {}
_PREPARED_KEPT = 256
_LOCK = Lock()


def _prepare(
    problem_id: str,
    dataset: str,
    limits: Limits | None,
    compiler: str,
    runner: Runner | None,
    cache: bool,
) -> ProblemTests | None:
    key = (problem_id, dataset, limits, compiler)
    with _LOCK:
        if key in _PREPARED:
            return _PREPARED[key]
    problems, aliases = _problems(dataset)
    problem = problems.get(aliases.get(problem_id, problem_id))
    found = None
    if problem is not None:
        from evaluation.run import prepare_problems

        if runner is None:
            from actors.local import LocalRunner

            runner = LocalRunner(backend="cpu", limits=limits, compiler=compiler)
        tid = aliases.get(problem_id, problem_id)
        prepared = prepare_problems({tid: problem}, runner, cache=cache)[tid]
        if prepared.specs is None:
            raise ProblemUnavailable(
                f"problem {tid!r} needs the CPython fallback, which the service does not run:"
                f" {prepared.reason}"
            )
        found = ProblemTests(prepared.entry, list(prepared.specs), prepared)
    with _LOCK:
        if len(_PREPARED) >= _PREPARED_KEPT:
            _PREPARED.pop(next(iter(_PREPARED)))
        _PREPARED[key] = found
    return found


def lookup_problem(
    problem_id: str,
    dataset: str = DEFAULT_DATASET,
    *,
    runner: Runner | None = None,
    limits: Limits | None = None,
    compiler: str = "batched",
    cache: bool = False,
) -> ProblemTests | None:
    """The problem's tests, or None when the dataset does not know the id; raises
    ProblemUnavailable for a problem that cannot run natively. `runner`: what runs the canonical
    solution (the service's executor; default a local runner here). `limits`, `compiler`: the
    VM limits and compiler it runs with (the service's settings, which the application passes:
    `api.main`; default `Limits()`, the batched compiler); `cache`: whether the prepared problem
    is kept on disk (the settings' [runtime] prepared_cache)."""
    if len(problem_id) > 200 or dataset not in dataset_names():
        return None
    return _prepare(problem_id, dataset, limits, compiler, runner, cache)
