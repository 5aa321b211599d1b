"""The job runner: hands stored jobs to the executor and stores their verdicts as they come.

One runner per API process (a "replica", with a random id). `launch` only queues a job; one
dispatcher thread drains the queue and starts what it found together:

- Small jobs (at most MERGE_FUEL instructions in all: candidates x the fuel of their tests, the
  job's own bound of `max_job_fuel`) with the same options share ONE executor job, each
  candidate with its own job's test list (the farm dedups and batches them as one job's). So
  many small jobs cost the farm one submission and its batches, not one each, and the runner
  one reader thread. At most MERGED_IN_FLIGHT such shared jobs run at once: the jobs accepted
  while they run wait in the queue and go together in the next one.
- A larger job gets an executor job of its own, started at once.

A reader thread per executor job hands its verdicts to one recorder thread, which stores all
that came (of any job) while it stored the last ones in one transaction, and ends in the same
transaction the jobs whose last verdict it has seen: a verdict is stored as soon as the one
before it is, and many at once under load (at most RECORD_BATCH a transaction).

Every `lease_s / 3` seconds the runner renews the leases of the jobs it runs, claims jobs whose
lease expired (their replica died: they resume with the candidates that have no verdict yet)
and prunes jobs past their retention. A cancel is a status in the store, so any replica may
take it: the replica running the job looks for cancels of its jobs every CANCEL_POLL_S. A
cancelled job's verdicts are no longer stored; its executor job is cancelled, which stops the
batches running (between items), once every job sharing it is cancelled or ended. Until then
the candidates of a cancelled small job may still run: at most MERGE_FUEL instructions, the
bound `max_fuel` already sets on one item that is running when its job is cancelled.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from api.executor import Executor
from api.metrics import Metrics
from api.problems import DEFAULT_DATASET, ProblemTests
from api.store import DONE, FAILED, UNFINISHED, CandidateRow, NewCandidate, Store, take_waiting
from configs.settings import ApiSettings
from core.jobs import Candidate, CandidateResult, TestSpec
from vm.limits import Limits

log = logging.getLogger("kiln.api")

RECORD_BATCH = 4096  # verdicts stored in one transaction, at most
CANCEL_POLL_S = 0.5  # how often a replica looks for cancels (by any replica) of the jobs it runs
MERGE_FUEL = 1_000_000_000
"""A job that may run at most this many instructions in all shares an executor job with other
small ones (about a second of one core: what one item at `max_fuel` may run on after a cancel)."""
_ENDED = -1  # in the recorder's queue: the executor job ended
MERGED_IN_FLIGHT = 2
"""Shared executor jobs running at once; the small jobs accepted meanwhile wait for the next."""


ProblemLookup = Callable[[str, str], "ProblemTests | None"]  # (problem id, dataset)


def tests_from_spec(spec: dict[str, Any], problems: ProblemLookup) -> list[TestSpec]:
    """The TestSpecs of a stored job spec (explicit tests, or its problem's), with the job's fuel
    for tests that name none."""
    fuel = spec.get("options", {}).get("fuel")
    if spec.get("problem") is not None:
        # a job stored before datasets were named is HumanEval's
        found = problems(spec["problem"], spec.get("problems", DEFAULT_DATASET))
        if found is None:
            raise LookupError(f"unknown problem {spec['problem']!r}")
        return [t if t.fuel or not fuel else _with_fuel(t, fuel) for t in found.tests]
    return [
        TestSpec(
            tuple(t["args"]),
            t["expected"],
            t.get("rel_tol"),
            t.get("abs_tol"),
            t.get("fuel") or fuel,
        )
        for t in spec["tests"]
    ]


def _with_fuel(test: TestSpec, fuel: int) -> TestSpec:
    return TestSpec(test.args, test.expected, test.rel_tol, test.abs_tol, fuel)


@dataclass(frozen=True)
class Accepted:
    """A job as its request built it: the runner starts it without reading it back."""

    spec: dict[str, Any]
    candidates: Sequence[NewCandidate]
    created_at: float


@dataclass(eq=False)
class _Job:
    """A job this replica runs."""

    id: str
    created_at: float
    left: int  # verdicts still to come from the executor
    cancelled: bool = False
    ended: bool = False
    shared: _Shared | None = None  # its executor job, once started


@dataclass(eq=False)
class _Prepared:
    """A job ready to start: its candidates without a verdict (`indices`: their indices in the
    job), its tests and options, and the most instructions it may run."""

    job: _Job
    candidates: list[Candidate]
    indices: list[int]
    tests: list[TestSpec]
    options: dict[str, Any]
    fuel: int


@dataclass(eq=False)
class _Shared:
    """One executor job and the jobs it runs: its candidate k is `members[k]`'s candidate
    `indices[k]`."""

    jobs: list[_Job]  # those not ended when it started
    members: list[_Job] = field(default_factory=list)
    indices: list[int] = field(default_factory=list)
    merged: bool = False
    handle: Any = None  # the executor's job

    def cancel_if_idle(self) -> None:
        """Cancels the executor's job once no job of it wants verdicts any more."""
        if self.handle is not None and all(j.cancelled or j.ended for j in self.jobs):
            self.handle.cancel()


class JobRunner:
    def __init__(
        self,
        store: Store,
        executor: Executor,
        settings: ApiSettings,
        metrics: Metrics,
        problems: ProblemLookup,
        default_fuel: int | None = None,
    ) -> None:
        self.store, self.executor, self.settings = store, executor, settings
        self.metrics, self.problems = metrics, problems
        self.default_fuel = default_fuel or Limits().fuel  # of tests that name none ([vm] fuel)
        self.replica = uuid.uuid4().hex
        self._lock = threading.Lock()
        self._running: dict[str, _Shared | None] = {}  # job id -> its executor job (or queued)
        self._queue: queue.SimpleQueue[tuple[str, Accepted | None]] = queue.SimpleQueue()
        self._merged_running = 0  # shared executor jobs running
        self._stop = threading.Event()
        self._maintenance: threading.Thread | None = None
        self._dispatcher: threading.Thread | None = None
        self._recorder: threading.Thread | None = None
        self._threads: set[threading.Thread] = set()  # the readers of executor jobs
        # (executor job, candidate k, its verdict) or (executor job, _ENDED, its error or None)
        self._verdicts: queue.SimpleQueue[tuple[_Shared, int, Any]] = queue.SimpleQueue()

    # --- life cycle -------------------------------------------------------------------------

    def start(self) -> None:
        self._maintenance = threading.Thread(
            target=self._maintain, name="kiln-api-maintenance", daemon=True
        )
        self._dispatcher = threading.Thread(
            target=self._dispatch, name="kiln-api-dispatcher", daemon=True
        )
        self._recorder = threading.Thread(
            target=self._record, name="kiln-api-recorder", daemon=True
        )
        self._maintenance.start()
        self._dispatcher.start()
        self._recorder.start()

    def stop(self) -> None:
        """Stops running jobs here and releases their leases: they resume on the next start (or
        on another replica) from their last stored verdict."""
        self._stop.set()
        self._queue.put(("", None))  # wakes the dispatcher, which ends
        with self._lock:
            shared = {id(s): s for s in self._running.values() if s is not None}
        for s in shared.values():
            if s.handle is not None:
                s.handle.cancel()
        for thread in (self._maintenance, self._dispatcher):
            if thread is not None:
                thread.join(timeout=5)
        for thread in list(self._threads):
            thread.join(timeout=5)
        if self._recorder is not None:  # it stores what the readers handed it, then ends
            self._recorder.join(timeout=5)
        self.store.release(self.replica)

    def running(self) -> int:
        with self._lock:
            return len(self._running)

    # --- jobs -------------------------------------------------------------------------------

    def launch(self, job_id: str, accepted: Accepted | None = None) -> None:
        """Queues a job this replica has claimed; `accepted`: as its request built it (else it
        is read from the store)."""
        with self._lock:
            if job_id in self._running or self._stop.is_set():
                return
            self._running[job_id] = None
        self._queue.put((job_id, accepted))

    def cancel(self, job_id: str) -> None:
        """Stops storing the job's verdicts, and its executor job once no other job shares it."""
        with self._lock:
            shared = self._running.get(job_id)
            if shared is None:
                return  # not started: its status is read when it starts
            for job in shared.jobs:
                if job.id == job_id:
                    job.cancelled = True
            shared.cancel_if_idle()

    def _dispatch(self) -> None:
        """Drains the queue: a large job starts at once, the small ones found together share an
        executor job when one of MERGED_IN_FLIGHT is free (module docstring)."""
        waiting: dict[str, list[_Prepared]] = {}  # small jobs by their options, in order
        while not self._stop.is_set():
            batch = take_waiting(self._queue, [self._queue.get()])
            if self._stop.is_set():
                return
            for job_id, accepted in batch:
                if not job_id:  # a wake-up: a shared executor job ended
                    continue
                prepared = self._prepare(job_id, accepted)
                if prepared is None:
                    continue
                if prepared.fuel > MERGE_FUEL:
                    self._run([prepared], prepared.options, merged=False)
                else:
                    key = json.dumps(prepared.options, sort_keys=True)
                    waiting.setdefault(key, []).append(prepared)
            while waiting:
                with self._lock:
                    if self._merged_running >= MERGED_IN_FLIGHT:
                        break
                    self._merged_running += 1
                key = next(iter(waiting))
                self._run(waiting.pop(key), json.loads(key), merged=True)

    def _prepare(self, job_id: str, accepted: Accepted | None) -> _Prepared | None:
        """The job's candidates without a verdict, its tests, options and fuel; None (and the
        job failed with the reason) for one that cannot run."""
        pending: list[tuple[int, NewCandidate | CandidateRow]]
        try:
            if accepted is not None:  # new: the store holds nothing the request did not give
                spec, created_at = accepted.spec, accepted.created_at
                pending = list(enumerate(accepted.candidates))
            else:
                row = self.store.get_job(job_id)
                if row is None or row.status not in UNFINISHED:
                    self._forget([job_id])
                    return None
                spec, created_at = json.loads(row.spec), row.created_at
                finished = self.store.finished_indices(job_id)
                stored = self.store.candidates(job_id)
                pending = [(c.index, c) for c in stored if c.index not in finished]
            tests = tests_from_spec(spec, self.problems)
        except Exception as error:  # a job that cannot run is failed with the reason
            if not self._stop.is_set():
                log.exception("job %s cannot start", job_id)
                self._fail([job_id], error)
            self._forget([job_id])
            return None
        options = spec.get("options", {})
        fuel = len(pending) * sum(t.fuel or self.default_fuel for t in tests)
        if options.get("detail") == "tests":
            fuel *= 2
        return _Prepared(
            _Job(job_id, created_at, len(pending)),
            [
                Candidate(c.bytecode if c.bytecode is not None else c.source or "", c.entry)
                for _, c in pending
            ],
            [index for index, _ in pending],
            tests,
            options,
            fuel,
        )

    def _run(self, jobs: list[_Prepared], options: dict[str, Any], merged: bool) -> None:
        """Marks `jobs` running and starts one executor job for those still unfinished, and a
        thread that stores its verdicts."""
        shared = _Shared([], merged=merged)
        try:
            statuses = self.store.start_jobs([p.job.id for p in jobs])
            candidates: list[Candidate] = []
            tests: list[list[TestSpec]] = []
            for p in jobs:
                if statuses.get(p.job.id) not in UNFINISHED:  # cancelled while it waited
                    self._forget([p.job.id])
                    continue
                shared.jobs.append(p.job)
                p.job.shared = shared
                candidates += p.candidates
                tests += [p.tests] * len(p.candidates)  # one list per job: marshalled once
                shared.members += [p.job] * len(p.candidates)
                shared.indices += p.indices
            with self._lock:
                for job in shared.jobs:
                    self._running[job.id] = shared
            # a job with every verdict stored already (or no candidate) ends now
            self._end({}, [job for job in shared.jobs if job.left == 0])
            if candidates:
                shared.handle = self._submit(candidates, tests, options)
        except Exception as error:
            if not self._stop.is_set():  # else the farm stopped under it: they resume later
                log.exception("starting %d jobs failed", len(shared.jobs))
                self._fail([job.id for job in shared.jobs if not job.ended], error)
            self._release(shared)
            return
        if shared.handle is None:  # nothing to run: every job of it has ended
            self._release(shared)
            return
        if self._stop.is_set():
            shared.handle.cancel()
        thread = threading.Thread(
            target=self._read, args=(shared,), name="kiln-api-reader", daemon=True
        )
        self._threads.add(thread)
        thread.start()

    def _forget(self, job_ids: Sequence[str]) -> None:
        with self._lock:
            for job_id in job_ids:
                if self._running.get(job_id) is None:
                    self._running.pop(job_id, None)

    def _release(self, shared: _Shared) -> None:
        """The jobs of `shared` are no longer this runner's to run; a slot is free again."""
        with self._lock:
            for job in shared.jobs:
                if self._running.get(job.id) is shared:
                    del self._running[job.id]
            if shared.merged:
                self._merged_running -= 1
        if shared.merged:
            self._queue.put(("", None))  # the dispatcher may start the next shared job

    def _submit(self, candidates: Sequence[Candidate], tests: Any, options: dict[str, Any]) -> Any:
        limits = {
            k: options[k] for k in ("stack_words", "heap_words", "max_call_depth") if options.get(k)
        }
        extra: dict[str, Any] = {}
        if limits:
            extra["limits"] = limits
        if options.get("compile_path", "deterministic") != "deterministic":
            extra["compile_path"] = options["compile_path"]
        if options.get("detail") == "tests":
            extra["detail"] = True
        return self.executor.submit(candidates, tests, options.get("batch_size"), **extra)

    def _read(self, shared: _Shared) -> None:
        """Hands the executor job's verdicts to the recorder as they come, then its end."""
        try:
            for k, result in shared.handle:
                self._verdicts.put((shared, k, result))
            self._verdicts.put((shared, _ENDED, None))
        except Exception as error:  # the jobs that cannot finish are failed with the reason
            self._verdicts.put((shared, _ENDED, error))
        finally:
            self._threads.discard(threading.current_thread())

    def _record(self) -> None:
        """The recorder: stores every verdict that came while it stored the last ones, of any
        job, in one transaction; ends each job at its last verdict (module docstring)."""
        while True:
            try:
                batch = [self._verdicts.get(timeout=0.1)]
            except queue.Empty:
                if self._stop.is_set() and not self._threads:
                    return
                continue
            take_waiting(self._verdicts, batch, RECORD_BATCH)
            try:
                self._record_batch(batch)
            except Exception:  # the store may be unreachable: the jobs resume elsewhere
                log.exception("storing %d verdicts failed", len(batch))
                for shared in {id(b[0]): b[0] for b in batch}.values():
                    if shared.handle is not None:
                        shared.handle.cancel()
                    self._release(shared)  # its leases run out; a replica resumes its jobs

    def _record_batch(self, batch: list[tuple[_Shared, int, Any]]) -> None:
        verdicts: dict[str, list[tuple[int, CandidateResult]]] = {}
        ending: list[_Job] = []
        ended: list[tuple[_Shared, BaseException | None]] = []
        for shared, k, result in batch:
            if k == _ENDED:
                ended.append((shared, result))
                continue
            job = shared.members[k]
            job.left -= 1
            if not job.cancelled:
                verdicts.setdefault(job.id, []).append((shared.indices[k], result))
                if job.left == 0:
                    ending.append(job)
        failed: list[tuple[list[_Job], BaseException]] = []
        for shared, error in ended:
            if self._stop.is_set():  # the farm stops under it: the jobs resume on the next start
                continue
            left = [j for j in shared.jobs if not (j.ended or j.cancelled or j.left == 0)]
            if error is None:  # the executor ended: a job missing verdicts fails with the count
                ending += left
            else:
                failed.append((left, error))
        self._end(verdicts, ending)
        for jobs, error in failed:
            log.error("jobs %s failed: %r", ", ".join(j.id for j in jobs), error)
            self._fail([j.id for j in jobs], error)
            for job in jobs:
                job.ended = True
        for shared, _ in ended:
            self._release(shared)

    def _end(
        self, verdicts: dict[str, list[tuple[int, CandidateResult]]], ending: list[_Job]
    ) -> None:
        """Stores `verdicts` and ends the jobs of `ending`, in one transaction."""
        if not verdicts and not ending:
            return
        _, ended = self.store.store_verdicts(verdicts, [j.id for j in ending])
        tally = Counter(r.verdict for results in verdicts.values() for _, r in results)
        for verdict, n in tally.items():
            self.metrics.verdicts.inc(n, verdict=verdict)
        now = time.time()
        for job in ending:
            job.ended = True
            status = ended.get(job.id)
            if status is not None:
                self.metrics.jobs.inc(event=status)
                if status == DONE:
                    self.metrics.job_seconds.observe(now - job.created_at)
        with self._lock:
            for shared in {id(j.shared): j.shared for j in ending if j.shared}.values():
                shared.cancel_if_idle()

    def _fail(self, job_ids: Sequence[str], error: BaseException) -> None:
        for job_id in job_ids:
            self.store.finish(job_id, FAILED, f"{type(error).__name__}: {error}")
            self.metrics.jobs.inc(event=FAILED)

    # --- maintenance ------------------------------------------------------------------------

    def _maintain(self) -> None:
        period = max(0.2, self.settings.lease_s / 3)
        upkeep_at = 0.0
        while not self._stop.is_set():
            try:
                with self._lock:
                    running = {k: job for k, job in self._running.items() if job is not None}
                for job_id in self.store.cancelled_among(list(running)):
                    self.cancel(job_id)
                if time.monotonic() >= upkeep_at:
                    upkeep_at = time.monotonic() + period
                    with self._lock:
                        mine = list(self._running)
                    self.store.renew(self.replica, mine, self.settings.lease_s)
                    for job_id in self.store.claim_orphans(self.replica, self.settings.lease_s):
                        log.info("resuming job %s", job_id)
                        self.metrics.jobs.inc(event="resumed")
                        self.launch(job_id)
                    self.store.prune(self.settings.retention_s)
            except Exception:  # the store may be briefly unreachable: try again next period
                log.exception("job maintenance failed")
            self._stop.wait(min(period, CANCEL_POLL_S))
