"""The job runner: hands stored jobs to the executor and stores their verdicts as they come.

One runner per API process (a "replica", with a random id). It runs the jobs it accepted, and
every `lease_s / 3` seconds it renews the leases of the jobs it runs, claims jobs whose lease
expired (their replica died: they resume with the candidates that have no verdict yet) and
prunes jobs past their retention. A cancel is a status in the store, so any replica may take it:
the replica running the job looks for cancels of its jobs every CANCEL_POLL_S (and at each
flush) and cancels the executor's job, which stops the batches running (between items).
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from actors.pipeline import Candidate, CandidateResult
from api.executor import Executor
from api.metrics import Metrics
from api.problems import DEFAULT_DATASET, ProblemTests
from api.store import CANCELLED, DONE, FAILED, Store
from configs.settings import ApiSettings
from vm.batch import TestSpec

log = logging.getLogger("kiln.api")

FLUSH_S = 0.05  # verdicts are written at least this often while they arrive
FLUSH_SIZE = 512
CANCEL_POLL_S = 0.5  # how often a replica looks for cancels (by any replica) of the jobs it runs


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


class JobRunner:
    def __init__(
        self,
        store: Store,
        executor: Executor,
        settings: ApiSettings,
        metrics: Metrics,
        problems: ProblemLookup,
    ) -> None:
        self.store, self.executor, self.settings = store, executor, settings
        self.metrics, self.problems = metrics, problems
        self.replica = uuid.uuid4().hex
        self._lock = threading.Lock()
        self._running: dict[str, Any] = {}  # job id -> the executor's job (None while starting)
        self._stop = threading.Event()
        self._maintenance: threading.Thread | None = None
        self._threads: set[threading.Thread] = set()

    # --- life cycle -------------------------------------------------------------------------

    def start(self) -> None:
        self._maintenance = threading.Thread(
            target=self._maintain, name="kiln-api-maintenance", daemon=True
        )
        self._maintenance.start()

    def stop(self) -> None:
        """Stops running jobs here and releases their leases: they resume on the next start (or
        on another replica) from their last stored verdict."""
        self._stop.set()
        with self._lock:
            jobs = list(self._running.values())
        for job in jobs:
            if job is not None:
                job.cancel()
        if self._maintenance is not None:
            self._maintenance.join(timeout=5)
        for thread in list(self._threads):
            thread.join(timeout=5)
        self.store.release(self.replica)

    def running(self) -> int:
        with self._lock:
            return len(self._running)

    # --- jobs -------------------------------------------------------------------------------

    def launch(self, job_id: str) -> None:
        """Runs a job this replica has claimed, in a thread."""
        with self._lock:
            if job_id in self._running or self._stop.is_set():
                return
            self._running[job_id] = None
        thread = threading.Thread(
            target=self._run, args=(job_id,), name=f"kiln-job-{job_id[:8]}", daemon=True
        )
        self._threads.add(thread)
        thread.start()

    def cancel(self, job_id: str) -> None:
        with self._lock:
            job = self._running.get(job_id)
        if job is not None:
            job.cancel()

    def _run(self, job_id: str) -> None:
        try:
            self._execute(job_id)
        except Exception as error:  # a job that cannot run is failed with the reason, never lost
            if self._stop.is_set():  # the farm stops under it: the job resumes on the next start
                return
            log.exception("job %s failed", job_id)
            self.store.finish(job_id, FAILED, f"{type(error).__name__}: {error}")
            self.metrics.jobs.inc(event=FAILED)
        finally:
            with self._lock:
                self._running.pop(job_id, None)
            self._threads.discard(threading.current_thread())

    def _execute(self, job_id: str) -> None:
        row = self.store.get_job(job_id)
        if row is None or row.status not in ("queued", "running"):
            return
        spec = json.loads(row.spec)
        tests = tests_from_spec(spec, self.problems)
        finished = self.store.finished_indices(job_id)
        pending = [c for c in self.store.candidates(job_id) if c.index not in finished]
        self.store.mark_running(job_id)
        if pending:
            candidates = [
                Candidate(c.bytecode if c.bytecode is not None else c.source or "", c.entry)
                for c in pending
            ]
            original = [c.index for c in pending]
            job = self._submit(candidates, tests, spec.get("options", {}))
            with self._lock:
                self._running[job_id] = job
            if self._consume(job_id, job, original) is False:
                return
        if self._stop.is_set():
            return
        row = self.store.get_job(job_id)
        if row is None or row.status not in ("queued", "running"):
            return
        if row.done < row.total:  # the executor ended the job early: say so, never "done"
            raise RuntimeError(f"the farm ended the job with {row.done} of {row.total} verdicts")
        self.store.finish(job_id, DONE)
        self.metrics.jobs.inc(event=DONE)
        self.metrics.job_seconds.observe(time.time() - row.created_at)

    def _submit(
        self, candidates: Sequence[Candidate], tests: list[TestSpec], options: dict[str, Any]
    ) -> Any:
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

    def _consume(self, job_id: str, job: Any, original: list[int]) -> bool:
        """Stores verdicts as they come; False when the job was cancelled or the runner stops."""
        buffer: list[tuple[int, CandidateResult]] = []
        last_flush = time.monotonic()

        def flush() -> bool:
            nonlocal last_flush
            if buffer:
                self.store.add_results(job_id, buffer)
                for _, result in buffer:
                    self.metrics.verdicts.inc(verdict=result.verdict)
                buffer.clear()
            last_flush = time.monotonic()
            if self.store.status(job_id) == CANCELLED:
                job.cancel()
                return False
            return not self._stop.is_set()

        for index, result in job:
            buffer.append((original[index], result))
            if len(buffer) >= FLUSH_SIZE or time.monotonic() - last_flush >= FLUSH_S:
                if not flush():
                    return False
        return flush()

    # --- maintenance ------------------------------------------------------------------------

    def _maintain(self) -> None:
        period = max(0.2, self.settings.lease_s / 3)
        upkeep_at = 0.0
        while not self._stop.is_set():
            try:
                with self._lock:
                    running = {k: job for k, job in self._running.items() if job is not None}
                for job_id in self.store.cancelled_among(list(running)):
                    running[job_id].cancel()
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
