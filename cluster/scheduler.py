"""The farm's scheduler: jobs in, batches out to the worker actors, verdicts streamed back.

One thread (`Scheduler`) owns every Ray future; jobs are submitted, iterated and cancelled from
any thread. For each job (`FarmJob`):

1. dedup: identical candidates (same code, entry and test list; a dict keyed by their hash) are
   one unit of work, run once; each duplicate gets its own copy of the verdict.
2. shard: units are grouped by test list (so a batch marshals each list once) and cut into
   batches when a worker has room, sized by a cost model: a unit costs
   `COMPILE_COST + tests * (TEST_COST + expected steps per test)`, in instruction-equivalents,
   where the expected steps per test start at a guess and follow what finished batches
   measured. A batch takes as much cost as the worker does in `BATCH_SECONDS` (its own measured
   speed), at least enough (`items_to_fill`) to occupy every thread of its device, at most what
   its device memory holds (`max_items`), and no more than a fair share of what is left, so a
   small job still spreads over every worker. `batch_size` fixes the candidates per batch
   instead.
3. dispatch with backpressure: at most `in_flight` batches per worker (one running, the next
   already queued in the actor, so it never waits for the driver); jobs take turns. A batch
   travels columnar (`actors.wire.WireBatch`, its verdicts back as a `WireResults`): a list of
   test lists given to Ray as such arrived as one copy per candidate, and the worker then
   prepared the same tests once per candidate.
4. stream: as batches finish, every candidate index's verdict goes to the job's queue, which the
   job's iterator reads; `progress` counts them.

Fault tolerance: the scheduler keeps its own record (future -> worker, batch); when a worker dies
(killed, its process crashes, its node goes) every batch it held is queued again ahead of other
work and the runtime starts a replacement where the cluster still has the device. An actor runs
its batches in the order they were sent, so the oldest batch lost with it is taken to be the one
that was running: it is blamed and split (into single candidates when it held at most
`ISOLATE_INTO`, else into that many parts), the others go back as they were. A blamed single
candidate is a suspect: it runs alone on an idle worker that gets nothing else meanwhile, so
a death there is its own beyond doubt (a worker can die before the reply of the batch it had
just finished leaves, so the oldest-batch guess can be wrong). A suspect that kills that worker
too, after its first blame, gets the verdict "worker crashed" instead of looping: a candidate
that crashes its worker kills two workers (one more per split level of a batch larger than
ISOLATE_INTO). Results are identical to an undisturbed run because a batch's verdicts depend
only on its candidates and tests (fuel, not time, bounds execution), and each candidate's
verdict is taken once.

Cancellation drops the job's queued work, cancels its batches queued in actors (`ray.cancel`)
and posts the job on the `CancelBoard` (actors/worker.py), which the workers running its
batches watch: they stop between items and answer with no results, so the worker is free for
other jobs within about CANCEL_POLL_S and an item's time.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import Counter, deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import ray
from ray.exceptions import RayError, RayTaskError, TaskCancelledError

from actors.wire import WireBatch
from actors.worker import ACTOR_OPTIONS, BatchOutcome, CancelBoard, crashed_result, results_of
from cluster.runtime import START_FAILURES_ALLOWED, FarmError, Runtime, Worker
from core.jobs import (
    Candidate,
    CandidateLike,
    CandidateResult,
    JobCancelled,
    JobFailed,
    Tests,
    TestSpec,
    as_candidate,
    copy_result,
    tests_per_candidate,
)

COMPILE_COST = 50_000.0
"""Cost of compiling one candidate, in instruction-equivalents (about 0.5 ms of one CPU core)."""
TEST_COST = 200.0
"""Cost of one test beyond its instructions (marshalling, launch, comparison)."""
EXPECTED_STEPS = 1_000.0
"""Instructions per test expected before any batch has finished (a HumanEval-size function)."""
BATCH_SECONDS = 0.25
"""Work one batch should hold on its worker: long beside the scheduler's overhead per batch."""
INITIAL_SPEED = {"cpu": 5e7, "gpu": 5e9}
"""Cost units per second a worker is assumed to do before it has finished a batch (per thread
for a CPU backend)."""
ISOLATE_INTO = 64
"""A batch that killed its worker is split into at most this many parts."""
CRASHES_ALLOWED = 2
"""Worker deaths blamed on a candidate, the last while it ran alone, before its verdict is
"worker crashed"."""
RECONCILE_EVERY_S = 1.0
POLL_S = (0.005, 0.1)
"""How long the loop waits for a batch to finish before it looks for new jobs and cancellations:
short while a worker has room for another batch (a new job starts at once), long while every
worker is full (nothing could be sent anyway)."""
DEATH_SETTLE_S = 5.0
"""How long to wait for the other batches of a dead worker to resolve before running them again."""


@dataclass
class JobStats:
    """What a job cost and what went wrong on the way (for tests, benchmarks and status)."""

    candidates: int = 0  # candidates submitted
    units: int = 0  # distinct candidates after dedup
    batches: int = 0  # batches that came back with verdicts
    items: int = 0  # (candidate, test) pairs run, over those batches
    steps: int = 0
    worker_seconds: float = 0.0  # time inside the workers' Pipeline.run
    worker_cpu_seconds: float = 0.0  # CPU time of the workers' processes meanwhile
    deaths: int = 0  # workers that died holding batches of this job
    lost_batches: int = 0  # batches lost with their worker (a worker may hold `in_flight`)
    retried_units: int = 0  # units queued again after a death
    crashed: int = 0  # units with the verdict "worker crashed"
    runs: Counter[int] = field(default_factory=Counter)  # unit -> times its verdict came back
    by_worker: Counter[str] = field(default_factory=Counter)  # worker id -> batches run


@dataclass
class _Batch:
    job: FarmJob
    units: list[int]
    cost: float
    serial: int = 0  # order of sending, over the whole farm
    alone: bool = False  # the only batch of its worker: a death there is its own


class FarmJob:
    """One submitted job: iterate it for (candidate index, result) pairs as batches finish."""

    def __init__(
        self,
        scheduler: Scheduler,
        job_id: int,
        candidates: Sequence[CandidateLike],
        tests: Tests,
        batch_size: int | None,
        run_options: dict[str, Any] | None = None,
    ) -> None:
        if batch_size is not None and batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        # a job's own `limits` and `compile_path`, sent with each batch (PipelineWorker.run)
        self.run_options = dict(run_options or {})
        cands = [as_candidate(c) for c in candidates]
        test_lists = tests_per_candidate(cands, tests)
        self.id = job_id
        self.batch_size = batch_size
        self.total = len(cands)
        self._scheduler = scheduler

        # dedup: one unit per distinct (code, entry, test list)
        units: dict[tuple[Any, str, int], int] = {}
        self.unit_candidate: list[Candidate] = []
        self.unit_tests: list[Sequence[TestSpec]] = []
        self.unit_members: list[list[int]] = []
        for i, (cand, tl) in enumerate(zip(cands, test_lists, strict=True)):
            key = (cand.code, cand.entry, id(tl))
            unit = units.get(key)
            if unit is None:
                unit = units[key] = len(self.unit_candidate)
                self.unit_candidate.append(cand)
                self.unit_tests.append(tl)
                self.unit_members.append([])
            self.unit_members[unit].append(i)
        # group by test list, in order of first appearance, so a batch shares its lists
        first_seen: dict[int, int] = {}
        for unit, tl in enumerate(self.unit_tests):
            first_seen.setdefault(id(tl), unit)
        order = sorted(
            range(len(self.unit_tests)), key=lambda u: first_seen[id(self.unit_tests[u])]
        )
        self.pending: deque[int] = deque(order)
        self.pending_tests = sum(len(tl) for tl in self.unit_tests)  # over `pending`
        self.retry: deque[list[int]] = deque()
        self.suspects: deque[int] = deque()  # units to run alone, each on an idle worker
        self.deaths: Counter[int] = Counter()  # unit -> workers lost while running it
        self.lost_workers: set[int] = set()
        self.in_flight = 0
        self.expected_steps = EXPECTED_STEPS
        self.stats = JobStats(candidates=self.total, units=len(self.unit_candidate))

        self._results: list[CandidateResult | None] = [None] * self.total
        self._done_count = 0
        self._units_left = len(self.unit_candidate)
        self._events: queue.SimpleQueue[tuple[int, CandidateResult] | None] = queue.SimpleQueue()
        self._finished = threading.Event()
        self._cancelled = False
        self._error: BaseException | None = None
        self._lock = threading.Lock()
        if self._units_left == 0:
            self._finish()

    # ---- the public face -----------------------------------------------------------------------

    @property
    def progress(self) -> tuple[int, int]:
        """(candidates with a verdict, candidates submitted)."""
        return self._done_count, self.total

    @property
    def done(self) -> bool:
        """Finished: every verdict is in, or the job was cancelled or failed."""
        return self._finished.is_set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    @property
    def error(self) -> BaseException | None:
        return self._error

    def cancel(self) -> None:
        """Stop the job's outstanding work; its iterator ends, `results()` raises JobCancelled."""
        with self._lock:
            if self._finished.is_set():
                return
            self._cancelled = True
        self._finish()
        self._scheduler.announce_cancel(self)
        self._scheduler.wake()

    def __iter__(self) -> Iterator[tuple[int, CandidateResult]]:
        """(candidate index, result) as batches finish, each index once. Meant for one consumer;
        raises JobFailed if the job cannot finish."""
        while True:
            event = self._events.get()
            if event is None:
                self._events.put(None)  # a later iteration ends at once too
                if self._error is not None:
                    raise JobFailed(str(self._error)) from self._error
                return
            yield event

    def results(self, timeout: float | None = None) -> list[CandidateResult]:
        """Block until done; every result, in candidate order."""
        if not self._finished.wait(timeout):
            raise TimeoutError(f"job {self.id}: {self._done_count}/{self.total} after {timeout} s")
        if self._error is not None:
            raise JobFailed(str(self._error)) from self._error
        if self._cancelled:
            raise JobCancelled(f"job {self.id} was cancelled at {self._done_count}/{self.total}")
        return [r for r in self._results if r is not None]

    def wait(self, timeout: float | None = None) -> bool:
        return self._finished.wait(timeout)

    # ---- the scheduler's side ------------------------------------------------------------------

    @property
    def active(self) -> bool:
        return not self._finished.is_set()

    def has_work(self) -> bool:
        """Batches to send that may share a worker with others."""
        return self.active and bool(self.retry or self.pending)

    def has_suspects(self) -> bool:
        """Single candidates to run alone on a worker (module docstring)."""
        return self.active and bool(self.suspects)

    def unit_cost(self, unit: int) -> float:
        return COMPILE_COST + len(self.unit_tests[unit]) * (TEST_COST + self.expected_steps)

    def pending_cost(self) -> float:
        return len(self.pending) * COMPILE_COST + self.pending_tests * (
            TEST_COST + self.expected_steps
        )

    def take(self) -> int:
        """The next pending unit."""
        unit = self.pending.popleft()
        self.pending_tests -= len(self.unit_tests[unit])
        return unit

    def deliver(self, unit: int, result: CandidateResult) -> None:
        if not self.active:
            return
        self.stats.runs[unit] += 1
        if self.stats.runs[unit] > 1:
            return  # already answered (cannot happen unless a batch came back twice)
        for n, index in enumerate(self.unit_members[unit]):
            copy = result if n == 0 else copy_result(result)
            self._results[index] = copy
            self._events.put((index, copy))
        self._done_count += len(self.unit_members[unit])
        self._units_left -= 1
        if self._units_left == 0:
            self._finish()

    def fail(self, error: BaseException) -> None:
        with self._lock:
            if self._finished.is_set():
                return
            self._error = error
        self._finish()

    def _finish(self) -> None:
        self._finished.set()
        self._events.put(None)


class Scheduler:
    """The dispatch loop, on its own thread (module docstring)."""

    def __init__(self, runtime: Runtime, in_flight: int = 2) -> None:
        if in_flight < 1:
            raise ValueError(f"in_flight must be at least 1, got {in_flight}")
        self.runtime = runtime
        self.in_flight = in_flight
        self._jobs: list[FarmJob] = []
        self._futures: dict[Any, tuple[Worker, _Batch]] = {}
        self._cancelled: set[Any] = set()  # futures ray.cancel was called on
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._next_id = 0
        self._turn = 0
        self._sent = 0
        self._last_reconcile = 0.0
        self._thread = threading.Thread(target=self._run, name="kiln-farm-scheduler", daemon=True)
        self.crash: BaseException | None = None
        self.board: Any = None  # the CancelBoard the workers watch (start)

    def start(self) -> None:
        board = ray.remote(CancelBoard)
        self.board = board.options(**ACTOR_OPTIONS, num_cpus=0).remote()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=30)
        with self._lock:
            jobs, self._jobs = self._jobs, []
        for job in jobs:
            job.fail(FarmError("the farm was shut down"))
        if self.board is not None:
            try:
                ray.kill(self.board, no_restart=True)
            except Exception:  # already gone, or Ray is shutting down
                pass

    def wake(self) -> None:
        self._wake.set()

    def announce_cancel(self, job: FarmJob) -> None:
        """Tell the workers running `job`'s batches to stop them (the CancelBoard)."""
        if self.board is not None:
            try:
                self.board.cancel.remote(job.id)
            except Exception:  # Ray is going: nothing runs any more anyway
                pass

    def submit(
        self,
        candidates: Sequence[CandidateLike],
        tests: Tests,
        batch_size: int | None = None,
        run_options: dict[str, Any] | None = None,
    ) -> FarmJob:
        if self._stop.is_set():
            raise FarmError("the farm is shut down")
        with self._lock:
            self._next_id += 1
            job = FarmJob(self, self._next_id, candidates, tests, batch_size, run_options)
            if job.active:
                self._jobs.append(job)
        self._wake.set()
        return job

    def batches_in_flight(self) -> int:
        with self._lock:
            return len(self._futures)

    # ---- the loop ----------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                self._step()
        except BaseException as error:  # the farm cannot go on: say so to every job
            self.crash = error
            with self._lock:
                jobs = list(self._jobs)
            for job in jobs:
                job.fail(FarmError(f"the farm's scheduler stopped: {error!r}"))
            raise

    def _step(self) -> None:
        now = time.monotonic()
        if now - self._last_reconcile > RECONCILE_EVERY_S:
            self._last_reconcile = now
            self.runtime.reconcile()
        self._drop_finished_jobs()
        self._check_workers_can_run()
        self._dispatch()
        starting = self.runtime.starting_refs()
        with self._lock:
            refs = list(self._futures) + list(starting)
        if not refs:
            self._wake.wait(0.1)
            self._wake.clear()
            return
        room = any(w.in_flight < self.in_flight for w in self.runtime.ready_workers())
        poll = POLL_S[0] if room or starting else POLL_S[1]
        done, rest = ray.wait(refs, num_returns=1, timeout=poll)
        if done and rest:
            more, _ = ray.wait(rest, num_returns=len(rest), timeout=0)
            done += more
        for ref in done:
            if ref in starting:
                self.runtime.started(starting[ref])
                if not starting[ref].alive:
                    self._last_reconcile = 0.0  # start its replacement now
            else:
                self._collect(ref)
        self._wake.clear()

    def _drop_finished_jobs(self) -> None:
        with self._lock:
            finished = [j for j in self._jobs if not j.active]
            self._jobs = [j for j in self._jobs if j.active]
            stale = [
                ref
                for ref, (_, b) in self._futures.items()
                if not b.job.active and ref not in self._cancelled
            ]
            self._cancelled.intersection_update(self._futures)
            self._cancelled.update(stale)
        for job in finished:
            job.pending.clear()
            job.pending_tests = 0
            job.retry.clear()
            job.suspects.clear()
        for ref in stale:  # batches of cancelled or failed jobs: those still queued never run
            ray.cancel(ref)

    def _check_workers_can_run(self) -> None:
        runtime = self.runtime
        with self._lock:
            jobs = list(self._jobs)
        if not jobs or runtime.ready_workers():
            return
        live = runtime.live()
        broken = runtime.start_failures >= START_FAILURES_ALLOWED and not live
        unhealthy = bool(live) and all(w.info is not None and not w.info.healthy for w in live)
        if broken or unhealthy:
            error = FarmError(f"no worker can run batches: {runtime.last_error}")
            for job in jobs:
                job.fail(error)

    def _dispatch(self) -> None:
        workers = self.runtime.ready_workers()
        with self._lock:
            suspects = [j for j in self._jobs if j.has_suspects()]
        # a suspect runs alone on a worker: the least loaded one takes no new batches until it
        # is idle, then takes the suspect and nothing else until it is back
        reserved = min(workers, key=lambda w: w.in_flight) if suspects else None
        for worker in sorted(workers, key=lambda w: w.in_flight):
            if worker.alone:
                continue
            if worker is reserved:
                if worker.in_flight == 0:
                    self._send_alone(worker, suspects[0])
                continue
            while worker.in_flight < self.in_flight:
                job = self._next_job()
                if job is None:
                    break
                batch = self._cut(job, worker, len(workers))
                self._send(worker, batch)

    def _send_alone(self, worker: Worker, job: FarmJob) -> None:
        unit = job.suspects.popleft()
        batch = _Batch(job, [unit], job.unit_cost(unit), alone=True)
        worker.alone = True
        self._send(worker, batch)

    def _next_job(self) -> FarmJob | None:
        with self._lock:
            jobs = [j for j in self._jobs if j.has_work()]
        if not jobs:
            return None
        self._turn += 1
        return jobs[self._turn % len(jobs)]

    def _cut(self, job: FarmJob, worker: Worker, n_workers: int) -> _Batch:
        """The next batch of `job` for `worker` (the cost model of the module docstring)."""
        if job.retry:
            units = job.retry.popleft()
            return _Batch(job, units, sum(job.unit_cost(u) for u in units))
        units = []
        cost = 0.0
        items = 0
        if job.batch_size is not None:
            while job.pending and len(units) < job.batch_size:
                unit = job.take()
                units.append(unit)
                cost += job.unit_cost(unit)
            return _Batch(job, units, cost)
        info = worker.info
        assert info is not None
        speed = (
            1.0 / worker.seconds_per_cost
            if worker.seconds_per_cost
            else INITIAL_SPEED[worker.kind] * (info.threads if worker.kind == "cpu" else 1)
        )
        budget = max(BATCH_SECONDS * speed, info.items_to_fill * (TEST_COST + job.expected_steps))
        # a fair share of what is left, so that a small job still uses every worker
        budget = min(budget, job.pending_cost() / (n_workers * self.in_flight))
        while job.pending:
            unit = job.pending[0]
            tests = len(job.unit_tests[unit])
            if units and (cost >= budget or items + tests > info.max_items):
                break
            job.take()
            units.append(unit)
            cost += job.unit_cost(unit)
            items += tests
        return _Batch(job, units, cost)

    def _send(self, worker: Worker, batch: _Batch) -> None:
        job = batch.job
        candidates = [job.unit_candidate[u] for u in batch.units]
        tests = [job.unit_tests[u] for u in batch.units]
        # columnar, each distinct test list once: Ray's msgpack would copy a shared list per
        # candidate (actors/wire.py)
        wire = WireBatch.pack(candidates, tests)
        self._sent += 1
        batch.serial = self._sent
        ref = worker.handle.run.remote(
            wire, None, **job.run_options, cancel_board=self.board, job=job.id
        )
        worker.in_flight += 1
        job.in_flight += 1
        with self._lock:
            self._futures[ref] = (worker, batch)

    def _collect(self, ref: Any) -> None:
        with self._lock:
            entry = self._futures.pop(ref, None)
        if entry is None:  # settled already, with the other batches of its dead worker
            return
        worker, batch = entry
        worker.in_flight -= 1
        worker.alone = False
        batch.job.in_flight -= 1
        try:
            outcome: BatchOutcome = ray.get(ref)
        except TaskCancelledError:
            return
        except RayTaskError as error:  # the batch raised in a live worker: a bug, not a death
            if batch.job.active:
                batch.job.fail(error)
            return
        except RayError:  # the worker is gone (ActorDiedError, ActorUnavailableError, ...)
            self._worker_died(worker, batch)
            return
        self._record(worker, batch, outcome)

    def _record(self, worker: Worker, batch: _Batch, outcome: BatchOutcome) -> None:
        job = batch.job
        if not job.active:
            return
        stats = job.stats
        stats.batches += 1
        stats.items += outcome.items
        stats.steps += outcome.steps
        stats.worker_seconds += outcome.seconds
        stats.worker_cpu_seconds += outcome.cpu_seconds
        stats.by_worker[outcome.worker] += 1
        if outcome.items:
            per_test = outcome.steps / outcome.items
            job.expected_steps = 0.7 * job.expected_steps + 0.3 * per_test
        if batch.cost > 0 and outcome.seconds > 0:
            measured = outcome.seconds / batch.cost
            previous = worker.seconds_per_cost
            worker.seconds_per_cost = (
                measured if previous is None else 0.7 * previous + 0.3 * measured
            )
        for unit, result in zip(batch.units, results_of(outcome), strict=True):
            job.deliver(unit, result)

    def _worker_died(self, worker: Worker, batch: _Batch) -> None:
        """`worker` died: settle every batch it held, then queue the lost ones again.

        An actor runs its batches in the order they were sent, so of the batches lost with it
        only the oldest was running; the others were waiting behind it and are queued again as
        they were, without blame."""
        with self._lock:
            others = {ref: b for ref, (w, b) in self._futures.items() if w is worker}
            for ref in others:
                del self._futures[ref]
        if others:
            ray.wait(list(others), num_returns=len(others), timeout=DEATH_SETTLE_S)
        lost = [batch]
        for ref, other in others.items():
            worker.in_flight -= 1
            other.job.in_flight -= 1
            try:
                outcome: BatchOutcome = ray.get(ref, timeout=0)
            except TaskCancelledError:
                continue
            except RayTaskError as error:
                if other.job.active:
                    other.job.fail(error)
                continue
            except RayError:  # lost with the worker, or not back in time: run it again
                lost.append(other)
                continue
            self._record(worker, other, outcome)
        self.runtime.died(worker)
        self._last_reconcile = 0.0  # start the replacement on the next step
        lost.sort(key=lambda b: b.serial)
        for n, each in enumerate(lost):
            self._requeue(worker, each, blamed=n == 0)

    def _requeue(self, worker: Worker, batch: _Batch, blamed: bool) -> None:
        """Queue `batch` again ahead of other work; a `blamed` batch (it was running when its
        worker died) is split, and a single candidate blamed twice gets its verdict instead."""
        job = batch.job
        if not job.active:
            return
        job.stats.lost_batches += 1
        job.stats.retried_units += len(batch.units)
        if worker.serial not in job.lost_workers:
            job.lost_workers.add(worker.serial)
            job.stats.deaths += 1
        if not blamed:
            job.retry.appendleft(batch.units)
            return
        for unit in batch.units:
            job.deaths[unit] += 1
        if len(batch.units) == 1:
            unit = batch.units[0]
            if batch.alone and job.deaths[unit] >= CRASHES_ALLOWED:
                job.stats.crashed += 1
                job.stats.retried_units -= 1
                job.deliver(unit, crashed_result(job.deaths[unit]))
            else:
                job.suspects.append(unit)
            return
        parts = min(ISOLATE_INTO, len(batch.units))
        size = -(-len(batch.units) // parts)
        for start in reversed(range(0, len(batch.units), size)):
            part = batch.units[start : start + size]
            if len(part) == 1:
                job.suspects.appendleft(part[0])
            else:
                job.retry.appendleft(part)
