"""The one local runner (actors.local): a Pipeline behind `submit`, the shape of the farm, used by
`kiln eval` without a farm and by the API's thread executor."""

from __future__ import annotations

import threading
import time

import pytest

from actors.local import LOCAL_BATCHES, LOCAL_MIN_BATCH, LocalRunner, PipelineVariants
from actors.pipeline import Pipeline
from api.executor import ThreadExecutor
from core.jobs import Candidate, JobCancelled, TestSpec
from evaluation import run
from vm.limits import Limits

DOUBLE = "def f(x: int) -> int:\n    return 2 * x\n"
WRONG = "def f(x: int) -> int:\n    return x + 2\n"
LOOP = "def f(x: int) -> int:\n    while True:\n        x = x + 1\n    return x\n"
TESTS = [TestSpec((3,), 6), TestSpec((10,), 20)]


@pytest.fixture(scope="module")
def runner() -> LocalRunner:
    return LocalRunner("cpu", threads=1)


def test_a_job_streams_every_index_once_and_gives_results_in_order(runner: LocalRunner) -> None:
    cands = [Candidate(DOUBLE if i % 3 else WRONG, "f") for i in range(10)]
    job = runner.submit(cands, TESTS, batch_size=3)
    seen = [index for index, _ in job]
    assert sorted(seen) == list(range(10))
    assert job.done and job.progress == (10, 10)
    verdicts = [r.verdict for r in job.results()]
    assert verdicts == ["wrong answer" if i % 3 == 0 else "passed" for i in range(10)]


def test_tests_per_candidate_and_per_problem(runner: LocalRunner) -> None:
    other = [TestSpec((1,), 3)]
    per_candidate = runner.submit([(DOUBLE, "f"), (WRONG, "f")], [TESTS, other], batch_size=1)
    assert [r.verdict for r in per_candidate.results()] == ["passed", "passed"]
    by_problem = runner.submit(
        [Candidate(DOUBLE, "f", "d"), Candidate(WRONG, "f", "w")], {"d": TESTS, "w": other}
    )
    assert [r.verdict for r in by_problem.results()] == ["passed", "passed"]
    with pytest.raises(ValueError, match="no tests for problem"):
        runner.submit([Candidate(DOUBLE, "f", "x")], {"d": TESTS})  # at submit, as the farm's


def test_the_default_batches() -> None:
    assert LocalRunner.default_batch(10) == LOCAL_MIN_BATCH
    assert LocalRunner.default_batch(LOCAL_MIN_BATCH * LOCAL_BATCHES * 2) == LOCAL_MIN_BATCH * 2


def test_a_cancelled_job_stops(runner: LocalRunner) -> None:
    # 20 batches of one loop each, every one about a tenth of a second of fuel
    job = runner.submit(
        [Candidate(LOOP, "f")] * 20, [TestSpec((1,), 2, fuel=50_000_000)], batch_size=1
    )
    time.sleep(0.2)
    job.cancel()
    came = list(job)  # what came before the cancel stays; then the iterator ends
    assert job.done and len(came) == job.progress[0] < 20
    assert all(r.verdict == "timed out" for _, r in came)
    with pytest.raises(JobCancelled):
        job.results()
    # the runner goes on with the next job
    assert runner.submit([(DOUBLE, "f")], TESTS).results()[0].passed


def test_an_error_in_a_batch_reaches_the_consumer(monkeypatch: pytest.MonkeyPatch) -> None:
    local = LocalRunner("cpu", threads=1)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the device fell over")

    monkeypatch.setattr(local.pipeline, "run", broken)
    job = local.submit([(DOUBLE, "f")], TESTS)
    with pytest.raises(RuntimeError, match="fell over"):
        list(job)
    with pytest.raises(RuntimeError, match="fell over"):
        job.results()


def test_jobs_run_one_at_a_time_in_submit_order(monkeypatch: pytest.MonkeyPatch) -> None:
    local = LocalRunner("cpu", threads=1)
    real = local.pipeline.run
    running = threading.Semaphore(1)
    order: list[str] = []

    def one_at_a_time(cands, tests, *args, **kwargs):  # type: ignore[no-untyped-def]
        assert running.acquire(blocking=False), "two batches ran at once"
        try:
            order.append(cands[0].code)
            time.sleep(0.05)
            return real(cands, tests, *args, **kwargs)
        finally:
            running.release()

    monkeypatch.setattr(local.pipeline, "run", one_at_a_time)
    jobs = [local.submit([(code, "f")] * 2, TESTS, batch_size=1) for code in (DOUBLE, WRONG)]
    assert [[r.verdict for r in j.results()] for j in jobs] == [
        ["passed"] * 2,
        ["wrong answer"] * 2,
    ]
    assert order == [DOUBLE, DOUBLE, WRONG, WRONG]


def test_a_jobs_own_limits_get_a_pipeline_of_their_own(runner: LocalRunner) -> None:
    job = runner.submit([(LOOP, "f")], [TestSpec((1,), 2)], limits={"fuel": 1000})
    assert job.results()[0].verdict == "timed out"
    variants = PipelineVariants(Pipeline("cpu", limits=Limits()))
    assert variants.get(None, "deterministic") is variants.pipeline
    small = variants.get({"fuel": 5}, "deterministic")
    assert small.limits.fuel == 5 and variants.get({"fuel": 5}, "deterministic") is small
    with pytest.raises(ValueError, match="unknown limit"):
        runner.submit([(DOUBLE, "f")], TESTS, limits={"fuel_tank": 1})
    with pytest.raises(ValueError, match="unknown compile path"):
        runner.submit([(DOUBLE, "f")], TESTS, compile_path="psychic")


def test_detail_gives_each_tests_verdict(runner: LocalRunner) -> None:
    [result] = runner.submit(
        [(WRONG, "f")], [TestSpec((2,), 4), TestSpec((3,), 6)], detail=True
    ).results()
    assert [t["verdict"] for t in result.tests or []] == ["passed", "wrong answer"]


def test_kiln_eval_and_the_api_use_this_runner() -> None:
    assert run.LocalRunner is LocalRunner
    with run.local_runner("cpu") as local:
        assert isinstance(local, LocalRunner)
    executor = ThreadExecutor()
    assert isinstance(executor, LocalRunner)
    assert executor.batch_size == 64 and executor.pipeline.threads == 1


def test_the_farm_and_the_local_runner_share_one_submit(runner: LocalRunner) -> None:
    """`Runner.submit` is defined once (core.jobs.SubmitsJobs): the same checks on both."""
    from cluster.farm import Farm
    from core.jobs import SubmitsJobs

    assert LocalRunner.submit is Farm.submit is SubmitsJobs.submit
    for bad in (0, -1):
        with pytest.raises(ValueError, match="batch_size must be at least 1"):
            runner.submit([], [], batch_size=bad)
    with pytest.raises(ValueError, match="unknown compile path"):
        runner.submit([], [], compile_path="magic")
