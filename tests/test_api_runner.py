"""The job runner alone (api/runner.py) on a real SQLite store, with an executor the test drives
by hand: small jobs share an executor job, each candidate with its own job's tests; a large one
runs alone; a cancel stops storing its job's verdicts, and the executor job once nothing else
shares it; at most MERGED_IN_FLIGHT shared executor jobs run, and what waits goes together."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any, cast

import pytest

from actors.pipeline import CandidateResult
from api.executor import Executor
from api.metrics import Metrics
from api.problems import lookup_problem
from api.runner import CANCEL_POLL_S, MERGE_FUEL, MERGED_IN_FLIGHT, Accepted, JobRunner
from api.store import CANCELLED, DONE, NewCandidate, Store
from configs.settings import ApiSettings

TESTS = [{"args": [1], "expected": 2}, {"args": [2], "expected": 4}]


class ManualJob:
    """An executor job whose verdicts the test hands over (`give`) and ends (`end`)."""

    def __init__(self, candidates: list[Any], tests: list[Any]) -> None:
        self.candidates, self.tests = candidates, tests
        self._events: queue.Queue[tuple[int, CandidateResult] | None] = queue.Queue()
        self.cancelled = threading.Event()

    def __iter__(self) -> Iterator[tuple[int, CandidateResult]]:
        while (event := self._events.get()) is not None:
            yield event

    def give(self, index: int, verdict: str = "passed") -> None:
        self._events.put((index, CandidateResult(verdict)))

    def end(self) -> None:
        self._events.put(None)

    def cancel(self) -> None:
        self.cancelled.set()
        self.end()


class ManualExecutor:
    takes_limits = True

    def __init__(self) -> None:
        self.jobs: list[ManualJob] = []

    def submit(self, candidates: Any, tests: Any, batch_size: Any = None, **kw: Any) -> ManualJob:
        job = ManualJob(list(candidates), list(tests))
        self.jobs.append(job)
        return job

    def workers(self) -> list[Any]:
        return []

    def shutdown(self) -> None:
        pass


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting: {what}"
        time.sleep(0.01)


def submitted(executor: ManualExecutor, n: int) -> bool:
    return len(executor.jobs) == n


@pytest.fixture()
def setup(tmp_path: Path) -> Iterator[tuple[Store, ManualExecutor, JobRunner]]:
    store = Store(str(tmp_path / "jobs.sqlite"))
    executor = ManualExecutor()
    runner = JobRunner(store, cast(Executor, executor), ApiSettings(), Metrics(), lookup_problem)
    yield store, executor, runner
    runner.stop()
    store.close()


def accept(store: Store, runner: JobRunner, job_id: str, n: int, fuel: int | None = None) -> None:
    tests = [{**t, "fuel": fuel} if fuel else t for t in TESTS]
    spec = {"options": {}, "tests": tests}
    candidates = [NewCandidate("f", source=f"def f(x):\n    return 2 * x  # {job_id} {k}\n")
                  for k in range(n)]  # fmt: skip
    row, _ = store.create_job(job_id, "o", spec, candidates, replica=runner.replica, lease_s=30)
    runner.launch(job_id, Accepted(spec, candidates, row.created_at))


def test_small_jobs_share_an_executor_job_and_a_large_one_runs_alone(setup: Any) -> None:
    store, executor, runner = setup
    accept(store, runner, "a", 2)
    accept(store, runner, "b", 3)
    accept(store, runner, "big", 1, fuel=MERGE_FUEL)  # 2 tests x MERGE_FUEL: over the bound
    runner.start()  # the dispatcher finds the three queued together
    wait_for(lambda: len(executor.jobs) == 2, "two executor jobs")
    big, shared = sorted(executor.jobs, key=lambda j: len(j.candidates))
    assert len(big.candidates) == 1 and len(shared.candidates) == 5
    assert "# a 0" in shared.candidates[0].code and "# b 2" in shared.candidates[4].code
    assert shared.tests[0] is shared.tests[1] and shared.tests[2] is shared.tests[4]
    assert [t.args for t in shared.tests[0]] == [(1,), (2,)]
    for k, verdict in enumerate(["passed", "wrong answer", "passed", "passed", "trapped"]):
        shared.give(k, verdict)
    shared.end()
    wait_for(lambda: store.status("a") == DONE and store.status("b") == DONE, "a and b done")
    assert store.counts("a") == {"passed": 1, "wrong answer": 1}
    assert store.counts("b") == {"passed": 2, "trapped": 1}
    assert sorted(r.index for r in store.results_after("b", 0, 10)) == [0, 1, 2]
    assert store.status("big") == "running" and runner.running() == 1
    big.give(0)
    big.end()
    wait_for(lambda: store.status("big") == DONE, "big done")
    wait_for(lambda: runner.running() == 0, "nothing running")


def test_a_cancel_in_a_shared_executor_job(setup: Any) -> None:
    """A cancelled job's verdicts stop being stored while the jobs sharing its executor job go
    on."""
    store, executor, runner = setup
    for job_id in ("a", "b", "c"):
        accept(store, runner, job_id, 2)
    runner.start()
    wait_for(lambda: len(executor.jobs) == 1, "one shared executor job")
    [shared] = executor.jobs
    shared.give(0)  # a's first verdict
    wait_for(lambda: store.counts("a") == {"passed": 1}, "a's first verdict stored")
    assert store.cancel("a")
    runner.cancel("a")
    for k in range(1, 6):
        shared.give(k)
    wait_for(lambda: store.status("b") == DONE and store.status("c") == DONE, "b and c done")
    assert store.status("a") == CANCELLED and store.counts("a") == {"passed": 1}
    wait_for(lambda: runner.running() == 0, "nothing running")


def test_an_executor_job_is_cancelled_once_all_its_jobs_are(setup: Any) -> None:
    """Its batches stop (the farm's cancel) only when no job sharing it wants verdicts."""
    store, executor, runner = setup
    for job_id in ("d", "e"):
        accept(store, runner, job_id, 2)
    runner.start()
    wait_for(lambda: len(executor.jobs) == 1, "one shared executor job")
    [other] = executor.jobs
    assert store.cancel("d")
    runner.cancel("d")
    time.sleep(CANCEL_POLL_S)  # the runner's look at the store's cancels changes nothing
    assert not other.cancelled.is_set()  # e still wants its verdicts
    assert store.cancel("e")
    runner.cancel("e")
    assert other.cancelled.is_set()
    wait_for(lambda: runner.running() == 0, "nothing running")
    assert store.counts("d") == {} and store.status("e") == CANCELLED


def test_jobs_wait_for_a_shared_executor_job_and_go_together(setup: Any) -> None:
    store, executor, runner = setup
    runner.start()
    for n in range(1, MERGED_IN_FLIGHT + 1):
        accept(store, runner, f"j{n}", 1)
        wait_for(partial(submitted, executor, n), f"shared executor job {n}")
    accept(store, runner, "late1", 1)
    accept(store, runner, "late2", 2)
    time.sleep(0.2)
    assert len(executor.jobs) == MERGED_IN_FLIGHT  # both slots are taken: they wait
    assert store.status("late1") == "queued"
    first = executor.jobs[0]
    first.give(0)
    first.end()
    wait_for(lambda: len(executor.jobs) == MERGED_IN_FLIGHT + 1, "the waiting jobs start")
    together = executor.jobs[-1]
    assert len(together.candidates) == 3
    for k in range(3):
        together.give(k)
    together.end()
    wait_for(lambda: store.status("late2") == DONE, "late2 done")
    assert store.status("late1") == DONE and store.status("j1") == DONE


def test_the_executor_ending_early_fails_the_jobs_left_with_the_count(setup: Any) -> None:
    store, executor, runner = setup
    accept(store, runner, "a", 1)
    accept(store, runner, "b", 2)
    runner.start()
    wait_for(lambda: len(executor.jobs) == 1, "one shared executor job")
    [shared] = executor.jobs
    shared.give(0)
    shared.give(1)
    shared.end()
    wait_for(lambda: store.status("b") == "failed", "b failed")
    assert store.status("a") == DONE
    b = store.get_job("b")
    assert b is not None and b.error == "RuntimeError: the farm ended the job with 1 of 2 verdicts"


def test_a_resumed_job_with_every_verdict_stored_ends_beside_a_new_one(setup: Any) -> None:
    """A job resumed after its last verdict was stored (its replica died before ending it) has
    nothing to run: it ends done at once, also when it shares an executor job with others."""
    store, executor, runner = setup
    candidates = [NewCandidate("f", source="def f(x):\n    return 2 * x\n")] * 2
    store.create_job("old", "o", {"options": {}, "tests": TESTS}, candidates,
                     replica=runner.replica, lease_s=30)  # fmt: skip
    store.add_results("old", [(0, CandidateResult("passed")), (1, CandidateResult("passed"))])
    runner.launch("old")  # read back from the store, as after a restart
    accept(store, runner, "new", 1)
    runner.start()
    wait_for(lambda: store.status("old") == DONE, "old done")
    wait_for(lambda: len(executor.jobs) == 1, "one executor job, for new")
    [job] = executor.jobs
    assert len(job.candidates) == 1 and store.status("new") == "running"
    job.give(0)
    job.end()
    wait_for(lambda: store.status("new") == DONE, "new done")
