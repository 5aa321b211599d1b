"""The job model: what a job is made of and what comes back, in one module every layer imports.

    from core.jobs import Candidate, CandidateResult, TestSpec

    job = runner.submit([Candidate("def f(x):\\n    return 2 * x\\n", "f")], [TestSpec((3,), 6)])
    for index, result in job:        # (candidate index, CandidateResult) as batches finish
        result.verdict               # one of VERDICTS

- `TestSpec`: one test as a user gives it (arguments, the expected value, how to compare, its
  fuel). `vm.batch` marshals it; the VM's own verdict codes (`PASSED` .. `NEEDS_FALLBACK`, the
  order of `VERDICT_NAMES`) are the ones the C interpreter returns (vm/kernels/).
- `Candidate`: kiln Python source (str) or a `.kbc` container (bytes), the function its tests
  call, and the problem whose tests it runs when tests are given per problem. `as_candidate`
  and `tests_per_candidate` turn what a caller may pass (`CandidateLike`, `Tests`) into one
  candidate and one test list each: the Pipeline, the farm's scheduler and the local runner
  read a job's arguments the same way.
- `CandidateResult`: one candidate's verdict, with its first failing test, trap, steps, the
  verified bytecode of a passing candidate, and the path that produced it (`PATHS`).
- `Job` and `Runner`: the shape of "a Pipeline behind submit", which the farm (`cluster.Farm`)
  and the local runner (`actors.local.LocalRunner`) both have, and `kiln eval` and the API code
  against; `SubmitsJobs`: their one `submit`, which hands each of them the job as a `Submission`.

This module imports nothing of kiln: it is the bottom layer (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, Protocol, TypeVar

# ---- verdicts ----------------------------------------------------------------------------------

PASSED, WRONG_ANSWER, TRAPPED, TIMED_OUT, NEEDS_FALLBACK_CODE = range(5)
"""The VM's verdict codes (vm.batch, the C interpreter's `kiln_verify_*`)."""
VERDICT_NAMES = ("passed", "wrong answer", "trapped", "timed out", "needs fallback")
"""The VM's verdicts, by code."""
NEEDS_FALLBACK = VERDICT_NAMES[NEEDS_FALLBACK_CODE]
COMPILE_ERROR = "compile error"
"""The source did not compile (`CandidateResult.diagnostic` says why)."""
INVALID_BYTECODE = "invalid bytecode"
"""A `.kbc` candidate failed to load or verify, or has no such entry function."""
WORKER_CRASHED = "worker crashed"
"""The farm's: a candidate whose batches killed their worker twice (cluster.scheduler)."""
VERDICTS = (*VERDICT_NAMES, COMPILE_ERROR, INVALID_BYTECODE, WORKER_CRASHED)
"""Every verdict a `CandidateResult` may carry."""
PATHS = ("vm", "farm", "cpython")
"""Which path produced a verdict: the VM, the farm itself (WORKER_CRASHED), the CPython
fallback (evaluation/)."""

# ---- tests and candidates ----------------------------------------------------------------------


@dataclass(frozen=True)
class TestSpec:
    """One test as a user gives it: arguments, the expected value, how to compare."""

    __test__ = False  # not a pytest class

    args: tuple[Any, ...]
    expected: Any
    rel_tol: float | None = None
    abs_tol: float | None = None
    fuel: int | None = None  # instructions this test may execute; None: the run's limits


@dataclass(frozen=True)
class Candidate:
    """One candidate: kiln Python source (str) or a `.kbc` container (bytes), and the function
    its tests call. `problem` names its test list when tests are given per problem."""

    code: str | bytes
    entry: str
    problem: Hashable = None
    # the entry's parameter types (`vm.values.Type`, one per parameter) when it is not fully
    # annotated, instead of typing it from the tests it runs (`entry_arg_types` of a longer test
    # list: one test alone may not type it)
    arg_types: tuple[Any, ...] | None = None


CandidateLike = Candidate | tuple[Any, ...]
"""A Candidate, or a (code, entry[, problem]) tuple."""
Tests = Sequence[TestSpec] | Sequence[Sequence[TestSpec]] | Mapping[Any, Sequence[TestSpec]]
"""One test list for all candidates, one list per candidate (the same list object may be
shared), or a mapping from problem to list, each candidate naming its `problem`."""


def as_candidate(c: CandidateLike) -> Candidate:
    """`c` as a Candidate (ValueError when it is neither a Candidate nor a fitting tuple)."""
    if isinstance(c, Candidate):
        if isinstance(c.code, (str, bytes)) and isinstance(c.entry, str):
            return c
        raise ValueError(
            "a candidate's code is a str (source) or bytes (a .kbc container) and its entry a"
            f" str, got {type(c.code).__name__} and {type(c.entry).__name__}"
        )
    if (
        isinstance(c, tuple)
        and 2 <= len(c) <= 3
        and isinstance(c[0], (str, bytes))
        and isinstance(c[1], str)
    ):
        return Candidate(*c)
    raise ValueError(
        f"a candidate is a Candidate or a (code, entry[, problem]) tuple, got {type(c).__name__}"
    )


def tests_per_candidate(cands: Sequence[Candidate], tests: Tests) -> list[Sequence[TestSpec]]:
    """Each candidate's test list (`Tests`); candidates given one list share that object."""
    if isinstance(tests, Mapping):
        missing = sorted({repr(c.problem) for c in cands if c.problem not in tests})
        if missing:
            raise ValueError(f"no tests for problem(s) {', '.join(missing)}")
        return [tests[c.problem] for c in cands]
    if len(tests) == 0 or isinstance(tests[0], TestSpec):
        return [tests] * len(cands)  # type: ignore[list-item]
    if len(tests) != len(cands):
        raise ValueError(
            f"{len(tests)} test lists for {len(cands)} candidates: give one list per candidate,"
            " one for all, or a mapping by problem"
        )
    return list(tests)  # type: ignore[arg-type]


def tests_slice(tests: Tests, start: int, end: int) -> Tests:
    """The tests of candidates [start, end) of a job: a list per candidate is cut, one list for
    all and a mapping by problem are shared."""
    if isinstance(tests, Mapping) or not tests or isinstance(tests[0], TestSpec):
        return tests
    return tests[start:end]


# ---- results -----------------------------------------------------------------------------------


@dataclass
class CandidateResult:
    verdict: str  # one of VERDICTS
    fail_test: int = -1  # the first failing test (test order), -1 when none failed
    trap: str | None = None  # the trap of that test, when it trapped
    steps: int = 0  # instructions over all its tests
    bytecode: bytes | None = None  # the verified container, for passed candidates
    diagnostic: str | None = None  # why it did not compile, load or fit its tests
    path: str = "vm"  # which path produced the verdict (PATHS)
    # each test's own {"test", "verdict", "trap", "steps", "diagnostic"}, when asked for
    tests: list[dict[str, Any]] | None = None
    # the verdict is the module's top-level code's (`<module>`, run before the tests), not a test's
    in_module: bool = False

    @property
    def passed(self) -> bool:
        return self.verdict == VERDICT_NAMES[PASSED]


def copy_result(result: CandidateResult) -> CandidateResult:
    """A copy for a duplicate candidate: candidates sharing a verdict share no object."""
    return replace(result)


# ---- jobs and what runs them -------------------------------------------------------------------


class JobCancelled(RuntimeError):
    """The job was cancelled before all its verdicts arrived."""


class JobFailed(RuntimeError):
    """The job cannot finish: a batch raised an error where it ran, or no worker can run."""


class Job(Protocol):
    """A submitted job: iterate it for (candidate index, result) pairs as batches finish, each
    index once (meant for one consumer; raises JobFailed if the job cannot finish)."""

    def __iter__(self) -> Iterator[tuple[int, CandidateResult]]: ...

    @property
    def progress(self) -> tuple[int, int]:
        """(candidates with a verdict, candidates submitted)."""
        ...

    @property
    def done(self) -> bool:
        """Finished: every verdict is in, or the job was cancelled or failed."""
        ...

    def cancel(self) -> None:
        """Stop the job's outstanding work; its iterator ends, `results()` raises JobCancelled."""
        ...

    def results(self, timeout: float | None = None) -> list[CandidateResult]:
        """Block until done; every result, in candidate order."""
        ...


class Runner(Protocol):
    """A Pipeline behind `submit`: the farm (`cluster.Farm`) or the local runner
    (`actors.local.LocalRunner`), both `SubmitsJobs`. `submit` returns at once. `batch_size`:
    candidates per batch (None: the runner's choice; under 1 is a ValueError). `limits`
    overrides fields of the runner's `vm.limits.Limits` for this job, `compile_path` is the
    Pipeline's (deterministic, neural, hybrid), `detail` adds each test's own verdict to each
    result (`Submission`)."""

    def submit(
        self,
        candidates: Sequence[CandidateLike],
        tests: Tests,
        batch_size: int | None = None,
        limits: Mapping[str, int] | None = None,
        compile_path: str = "deterministic",
        detail: bool = False,
    ) -> Job: ...


@dataclass(frozen=True)
class Submission:
    """A job as `Runner.submit` takes it, its batch size checked (`SubmitsJobs`); the runner
    checks its options (`limits`, `compile_path`) against its Pipeline."""

    candidates: Sequence[CandidateLike]
    tests: Tests
    batch_size: int | None = None
    limits: Mapping[str, int] | None = None
    compile_path: str = "deterministic"
    detail: bool = False


J = TypeVar("J", bound=Job)


class SubmitsJobs(Generic[J]):
    """`Runner.submit`, defined once for the runners: a subclass gives `_submit`, which gets the
    job as one `Submission`, its batch size checked."""

    def submit(
        self,
        candidates: Sequence[CandidateLike],
        tests: Tests,
        batch_size: int | None = None,
        limits: Mapping[str, int] | None = None,
        compile_path: str = "deterministic",
        detail: bool = False,
    ) -> J:
        """Queue a job and return it at once (`Runner`)."""
        if batch_size is not None and batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        return self._submit(Submission(candidates, tests, batch_size, limits, compile_path, detail))

    def _submit(self, submission: Submission) -> J:
        raise NotImplementedError
