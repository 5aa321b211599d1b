"""The farm (cluster/, actors/worker.py) on a Ray cluster of two nodes with declared GPUs.

One `ray.cluster_utils.Cluster` for the whole module (a head and one worker node, each declaring
2 CPUs and 2 GPUs that do not exist), and one `Farm` on it, to keep the module fast. The farm
hosts `FaultyWorker`, a PipelineWorker whose batches misbehave on request: a candidate whose
code holds CRASH kills the worker's process (as a crash of the C interpreter would), one holding
SLOW makes its batch sleep, so a job lasts long enough to disturb without using the CPU.

Every job's verdicts are compared with `Pipeline("cpu").run` on the same input in this process:
complete and identical, whatever happened to the workers on the way. The tests that remove and
add nodes come last, since they change the cluster the others use.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray")
# the whole module on one xdist worker, so it builds its cluster once (pyproject: loadgroup)
pytestmark = pytest.mark.xdist_group("farm")

from ray.cluster_utils import Cluster  # noqa: E402

from actors.pipeline import Candidate, CandidateLike, CandidateResult, Pipeline, Tests  # noqa: E402
from actors.wire import WireBatch  # noqa: E402
from actors.worker import WORKER_CRASHED, BatchOutcome, PipelineWorker  # noqa: E402
from cluster import Farm, FarmJob, JobCancelled  # noqa: E402
from vm.batch import TestSpec  # noqa: E402
from vm.limits import Limits  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LIMITS = Limits(fuel=20_000)
GPUS_PER_NODE = 2
NODE: dict[str, Any] = {
    "num_cpus": 2,
    "num_gpus": GPUS_PER_NODE,
    "object_store_memory": 100 * 2**20,
}
CRASH = "# farm-test: crash the worker"
SLOW = "# farm-test: slow batch"
SLOW_S = 0.05


class FaultyWorker(PipelineWorker):
    """Kills its own process on CRASH, sleeps on SLOW (module docstring)."""

    def run(
        self, candidates: Sequence[CandidateLike] | WireBatch, tests: Tests | None, **options: Any
    ) -> BatchOutcome:
        if isinstance(candidates, WireBatch):  # how the farm sends a batch
            candidates, tests = candidates.unpack()
        codes = [c.code if isinstance(c, Candidate) else c[0] for c in candidates]
        if any(isinstance(code, str) and CRASH in code for code in codes):
            os._exit(17)
        if any(isinstance(code, str) and SLOW in code for code in codes):
            time.sleep(SLOW_S)
        return super().run(candidates, tests, **options)


# ---- candidates with every kind of verdict --------------------------------------------------

PROBLEMS: dict[str, list[TestSpec]] = {
    "double": [TestSpec((x,), 2 * x) for x in range(-3, 5)],
    "total": [TestSpec((xs,), sum(xs)) for xs in ([], [1], [2, 3, 4], [-5, 5, 9])],
}
SOURCES = {
    "double": [
        "def f(x: int) -> int:\n    return 2 * x\n",  # passed
        "def f(x: int) -> int:\n    return x + x\n",  # passed, another program
        "def f(x: int) -> int:\n    return 2 * x + 1\n",  # wrong answer
        "def f(x: int) -> int:\n    return 2 * x // (x - 1) * (x - 1)\n",  # trapped at x = 1
        "def f(x: int) -> int:\n    while x == x:\n        x += 1\n    return x\n",  # timed out
        "def f(x: int) -> int:\n    return 2 * y\n",  # compile error
    ],
    "total": [
        "def f(xs: list[int]) -> int:\n    s = 0\n    for x in xs:\n        s += x\n    return s\n",
        "def f(xs: list[int]) -> int:\n    return len(xs)\n",
        "def f(xs: list[int]) -> int:\n    return xs[0] + sum(xs[1:])\n",  # IndexError on []
    ],
}


def job_input(n: int, salt: str = "", every: int = 0, marker: str = "") -> list[Candidate]:
    """`n` candidates cycling through SOURCES (duplicates included); `salt` makes them distinct
    from other jobs' by a comment, `marker` goes into every `every`-th one."""
    pool = [(problem, src) for problem, srcs in SOURCES.items() for src in srcs]
    out = []
    for i in range(n):
        problem, src = pool[i % len(pool)]
        code = src + f"# {salt} {i // (3 * len(pool))}\n"
        if every and i % every == every - 1:
            code += f"{marker} {i}\n"
        out.append(Candidate(code, "f", problem))
    return out


def reference(candidates: list[Candidate], tests: Tests) -> list[CandidateResult]:
    return Pipeline("cpu", limits=LIMITS).run(candidates, tests).results


def streamed(job: FarmJob) -> dict[int, CandidateResult]:
    seen: dict[int, CandidateResult] = {}
    for index, result in job:
        assert index not in seen, f"index {index} streamed twice"
        seen[index] = result
    return seen


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.05)


# ---- the cluster and the farm, once per module -------------------------------------------------


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    head = {**NODE, "include_dashboard": False}
    c = Cluster(initialize_head=True, head_node_args=head)
    c.add_node(**NODE)
    ray.init(address=c.address, include_dashboard=False, log_to_driver=False)
    # FaultyWorker lives in this test module, which the workers cannot import: ship it by value
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    yield c
    ray.shutdown()
    c.shutdown()


@pytest.fixture(scope="module")
def farm(cluster: Cluster) -> Iterator[Farm]:
    with Farm.start(
        address=cluster.address, backend="auto", limits=LIMITS, worker_class=FaultyWorker
    ) as f:
        yield f


def test_one_actor_per_declared_gpu_each_seeing_its_own(farm: Farm) -> None:
    infos = farm.workers()
    assert len(infos) == 2 * GPUS_PER_NODE
    assert all(info.healthy for info in infos), infos
    by_node: dict[str, list[str]] = {}
    for info in infos:
        assert len(info.gpu_ids) == 1, info
        by_node.setdefault(info.node, []).extend(info.gpu_ids)
        # the GPUs are declared, not real: CUDA is not tried, the CPU backend runs
        assert info.backend == "cpu"
        assert f"Ray GPU {info.gpu_ids[0]}" in info.device
    assert len(by_node) == 2
    for ids in by_node.values():
        assert sorted(ids) == [str(i) for i in range(GPUS_PER_NODE)]
    assert len({info.pid for info in infos}) == len(infos)


def test_clean_run_every_pair_exactly_once_and_identical(farm: Farm) -> None:
    candidates = job_input(400, salt="clean")
    job = farm.submit(candidates, PROBLEMS)
    seen = streamed(job)
    expected = reference(candidates, PROBLEMS)
    assert sorted(seen) == list(range(len(candidates)))
    assert job.done and job.progress == (400, 400)
    assert job.results() == expected == [seen[i] for i in range(len(candidates))]
    stats = job.stats
    distinct = {(c.code, c.problem) for c in candidates}
    assert stats.units == len(distinct) < len(candidates)  # duplicates were run once
    assert sorted(stats.runs) == list(range(stats.units))
    assert set(stats.runs.values()) == {1}
    compiled = [
        c for c, r in zip(candidates, expected, strict=True) if r.verdict != "compile error"
    ]
    distinct_compiled = {(c.code, str(c.problem)) for c in compiled}
    assert stats.items == sum(len(PROBLEMS[p]) for _, p in distinct_compiled)
    assert stats.deaths == 0
    assert len(stats.by_worker) > 1  # the work was spread


def test_one_test_list_and_per_candidate_lists(farm: Farm) -> None:
    candidates = [Candidate(src, "f") for src in SOURCES["double"]] * 3
    tests = PROBLEMS["double"]
    assert farm.submit(candidates, tests).results() == reference(candidates, tests)
    per_candidate = [PROBLEMS["double"][: 1 + i % 8] for i in range(len(candidates))]
    job = farm.submit(candidates, per_candidate, batch_size=2)
    assert job.results() == reference(candidates, per_candidate)
    assert farm.submit([], tests).results() == []


def test_per_job_limits_reach_the_workers(farm: Farm) -> None:
    deep = "def f(n: int) -> int:\n    if n == 0:\n        return 0\n    return 1 + f(n - 1)\n"
    candidates, tests = [Candidate(deep, "f")], [TestSpec((30,), 30)]
    limited = farm.submit(candidates, tests, limits={"max_call_depth": 8}).results()
    local = Pipeline("cpu", LIMITS.replace(max_call_depth=8))
    assert limited == local.run(candidates, tests).results
    assert limited[0].verdict == "trapped"
    assert farm.submit(candidates, tests).results()[0].passed  # the workers' own limits again
    with pytest.raises(ValueError, match="unknown limit"):
        farm.submit(candidates, tests, limits={"stack": 3})
    with pytest.raises(ValueError, match="unknown compile path"):
        farm.submit(candidates, tests, compile_path="magic")


def test_concurrent_jobs_from_threads(farm: Farm) -> None:
    inputs = [job_input(90 + 30 * k, salt=f"thread {k}") for k in range(4)]
    got: dict[int, list[CandidateResult]] = {}

    def consume(k: int) -> None:
        job = farm.submit(inputs[k], PROBLEMS, batch_size=7)
        seen = streamed(job)
        got[k] = [seen[i] for i in range(len(inputs[k]))]

    threads = [threading.Thread(target=consume, args=(k,)) for k in range(len(inputs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    for k, candidates in enumerate(inputs):
        assert got[k] == reference(candidates, PROBLEMS)


def test_killed_actors_mid_job_give_complete_identical_results(farm: Farm) -> None:
    candidates = job_input(600, salt="kill", every=1, marker=SLOW)
    job = farm.submit(candidates, PROBLEMS, batch_size=5)
    wait_for(lambda: job.progress[0] >= 40, 30, "the job to start")
    victims = farm.runtime.ready_workers()[:2]
    for worker in victims:
        ray.kill(worker.handle, no_restart=True)
    assert job.results(timeout=60) == reference(candidates, PROBLEMS)
    assert job.stats.deaths >= 1
    assert job.stats.crashed == 0
    assert all(n == 1 for n in job.stats.runs.values())
    # replacements were started where the killed ones were
    wait_for(lambda: len(farm.runtime.ready_workers()) == 4, 30, "replacement workers")
    killed = {w.info.id for w in victims if w.info}
    assert killed.isdisjoint(info.id for info in farm.workers())


def test_candidate_that_kills_its_worker_twice_is_marked(farm: Farm) -> None:
    candidates = job_input(120, salt="poison")
    poison = Candidate(SOURCES["double"][0] + CRASH + "\n", "f", "double")
    candidates[37] = poison
    job = farm.submit(candidates, PROBLEMS, batch_size=10)
    results = job.results(timeout=60)
    assert results[37].verdict == WORKER_CRASHED
    assert results[37].path == "farm"
    expected = reference(candidates[:37] + candidates[38:], PROBLEMS)
    assert results[:37] + results[38:] == expected
    assert job.stats.crashed == 1
    # it killed a worker in its batch, then one alone; other deaths (a worker Ray found
    # unreachable on a loaded machine) would not be blamed on it
    assert "died 2 times" in (results[37].diagnostic or "")
    assert job.stats.deaths >= 2
    wait_for(lambda: len(farm.runtime.ready_workers()) == 4, 30, "replacement workers")


def test_cancellation_stops_the_work_and_frees_the_workers(farm: Farm) -> None:
    candidates = job_input(3000, salt="cancel", every=1, marker=SLOW)
    job = farm.submit(candidates, PROBLEMS, batch_size=4)
    wait_for(lambda: job.progress[0] >= 20, 30, "the job to start")
    job.cancel()
    assert job.done and job.cancelled
    streamed(job)  # the iterator ends
    with pytest.raises(JobCancelled):
        job.results()
    # at most the batch each worker was running finishes: SLOW_S each, then nothing is left
    wait_for(lambda: farm.batches_in_flight() == 0, 5, "the cancelled batches to go")
    done_at_cancel = job.progress[0]
    assert done_at_cancel < len(candidates)
    quick = job_input(60, salt="after cancel")
    assert farm.submit(quick, PROBLEMS).results(timeout=30) == reference(quick, PROBLEMS)
    assert job.progress[0] == done_at_cancel


LOOP = (
    "def f(n: int) -> int:\n    s = 0\n    for i in range(n):\n        s = (s + i) % 7\n"
    "    return n + s - s\n"
)


def test_cancellation_reaches_the_batches_running(farm: Farm) -> None:
    """Security review finding 9: a cancel dropped the queued batches but each worker ran its
    current batch to the end (a job after a cancelled one waited 16-37 s). The workers watch
    the farm's CancelBoard and stop between items: here each holds a batch of 80 items of
    about 0.3 s alone (a batch: 24 s or more), and all are back within seconds of the cancel
    (10 s allowed: an item may take a few times 0.3 s on a loaded 2-core machine)."""
    heavy = [TestSpec((40_000_000,), 40_000_000, fuel=1_000_000_000)]
    candidates = [Candidate(LOOP + f"# cancel-running {k}\n", "f") for k in range(80 * 4)]
    job = farm.submit(candidates, heavy, batch_size=80)
    wait_for(lambda: farm.batches_in_flight() >= 4, 30, "every worker to hold a batch")
    time.sleep(0.5)  # the batches are running now
    started = time.monotonic()
    job.cancel()
    wait_for(lambda: farm.batches_in_flight() == 0, 10, "the running batches to stop")
    assert time.monotonic() - started < 10
    assert job.progress[0] < len(candidates)
    quick = job_input(20, salt="after a cancel of running batches")
    assert farm.submit(quick, PROBLEMS).results(timeout=30) == reference(quick, PROBLEMS)


def test_a_draining_node_gets_no_new_batches(
    farm: Farm, cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    worker_node = next(n for n in cluster.list_all_nodes() if n is not cluster.head_node)
    drained = {worker_node.node_id}
    on_node = {i.id for i in farm.workers() if i.node == worker_node.node_id}
    assert len(on_node) == GPUS_PER_NODE
    candidates = job_input(800, salt="drain", every=1, marker=SLOW)
    job = farm.submit(candidates, PROBLEMS, batch_size=5)
    wait_for(lambda: job.progress[0] >= 20, 30, "the job to start")
    # Ray says the node is being drained (as the autoscaler does before it takes a node away)
    monkeypatch.setattr(farm.runtime, "draining_nodes", lambda: drained)
    wait_for(
        lambda: all(w.draining for w in farm.runtime.live() if w.info and w.info.id in on_node),
        10,
        "the node's workers to drain",
    )
    wait_for(
        lambda: all(w.in_flight == 0 for w in farm.runtime.live() if w.draining),
        10,
        "what the drained workers held to finish",
    )
    ran_before = sum(job.stats.by_worker[i] for i in on_node)
    assert job.results(timeout=60) == reference(candidates, PROBLEMS)
    assert sum(job.stats.by_worker[i] for i in on_node) == ran_before
    assert job.stats.deaths == 0
    # the drain is called off: the node's workers serve again, the spare actors started for
    # them while they drained are given up
    monkeypatch.setattr(farm.runtime, "draining_nodes", lambda: set())
    wait_for(lambda: len(farm.runtime.live()) == 2 * GPUS_PER_NODE, 10, "spares to go")
    again = job_input(200, salt="undrained", every=1, marker=SLOW)
    job = farm.submit(again, PROBLEMS, batch_size=5)
    assert job.results(timeout=60) == reference(again, PROBLEMS)
    assert on_node & set(job.stats.by_worker)


def test_removed_node_mid_job_then_a_joining_node_is_used(farm: Farm, cluster: Cluster) -> None:
    candidates = job_input(1000, salt="nodes", every=1, marker=SLOW)
    job = farm.submit(candidates, PROBLEMS, batch_size=5)
    wait_for(lambda: job.progress[0] >= 40, 30, "the job to start")
    worker_node = next(n for n in cluster.list_all_nodes() if n is not cluster.head_node)
    cluster.remove_node(worker_node)
    assert job.results(timeout=90) == reference(candidates, PROBLEMS)
    assert all(n == 1 for n in job.stats.runs.values())
    wait_for(lambda: len(farm.runtime.live()) == GPUS_PER_NODE, 30, "the node's workers to go")

    # a node joins while a job runs: workers start on it and take batches of that job
    candidates = job_input(1000, salt="joined", every=1, marker=SLOW)
    job = farm.submit(candidates, PROBLEMS, batch_size=5)
    wait_for(lambda: job.progress[0] >= 20, 30, "the job to start")
    cluster.add_node(**NODE)
    wait_for(lambda: len(farm.runtime.ready_workers()) == 2 * GPUS_PER_NODE, 60, "new workers")
    new_ids = {w.info.id for w in farm.runtime.ready_workers() if w.info}
    assert job.results(timeout=90) == reference(candidates, PROBLEMS)
    assert len(new_ids & set(job.stats.by_worker)) >= GPUS_PER_NODE + 1


# ---- the worker alone, without Ray ------------------------------------------------------------


def test_worker_alone_reports_its_device_and_runs_a_batch() -> None:
    worker = PipelineWorker(backend="cpu", limits=LIMITS, threads=1)
    info = worker.info()
    assert info.healthy and info.backend == "cpu" and info.error is None
    assert info.device == "CPU, 1 thread"
    candidates = job_input(20, salt="alone")
    outcome = worker.run(candidates, PROBLEMS)
    assert outcome.results == reference(candidates, PROBLEMS)
    assert worker.info().batches == 1


def test_unhealthy_worker_says_why() -> None:
    worker = PipelineWorker(backend="cpu", limits=Limits(fuel=2), threads=1)
    info = worker.info()
    assert not info.healthy
    assert info.error is not None and "warm-up" in info.error
    with pytest.raises(RuntimeError, match="unhealthy"):
        worker.run(job_input(1), PROBLEMS)


def test_a_worker_with_another_instruction_set_is_unhealthy() -> None:
    from dataclasses import replace

    from cluster.runtime import _vetted
    from vm.isa import isa_hash

    info = PipelineWorker(backend="cpu", limits=LIMITS, threads=1).info()
    assert info.isa == isa_hash() and _vetted(info) == info
    other = _vetted(replace(info, isa=isa_hash() ^ 1))
    assert not other.healthy
    assert other.error is not None and "install the same kiln on every node" in other.error


# ---- the command line, on an embedded cluster of its own -----------------------------------


def test_kiln_farm_check_on_an_embedded_cluster() -> None:
    """`kiln farm check` starts its own Ray (no address), lists the workers as `kiln farm status`
    does, runs a job and compares it with a Pipeline in its process."""
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_ADDRESS", "KILN_RAY_ADDRESS")}
    command = [sys.executable, "-m", "api.cli", "farm", "check", "--workers", "1", "--n", "120"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "farm on an embedded local Ray cluster" in done.stdout
    assert "1 worker on 1 node(s), 1 healthy" in done.stdout
    assert re.search(r"CPU, \d+ threads?", done.stdout)
    assert "120 candidates (120 distinct)" in done.stdout
    assert "every verdict equals a local Pipeline's" in done.stdout
