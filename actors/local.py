"""`LocalRunner`: a Pipeline in this process behind `submit`, the farm's shape (`core.jobs.Runner`).

The one local runner: `kiln eval` without a farm (`evaluation.run.local_runner`), the problems'
preparation, and the API's local executor (`kiln serve --executor thread`,
`api.executor.ThreadExecutor`) all submit to it as they would to `cluster.Farm`:

    runner = LocalRunner(backend="cpu")
    job = runner.submit(candidates, tests)      # the arguments of Pipeline.run; returns at once
    for index, result in job:                   # (candidate index, CandidateResult) as batches
        ...                                     # finish, each index once
    job.results()                               # all of them, in candidate order

A job runs on a thread of its own, in batches of `batch_size` candidates (the submit's, else the
runner's, else about LOCAL_BATCHES batches of at least LOCAL_MIN_BATCH: what one batch gives up
on reaches the caller, `kiln eval`'s fallback, while the rest still runs). Jobs run one at a
time, in the order they were submitted, as one farm worker runs its batches. `limits`,
`compile_path` and `detail` are the farm's per-job options (`Pipeline.variant`, the variants
kept as a farm worker keeps them: `PipelineVariants`).

`cancel()` reaches the batch running (`vm.batch.Cancel`: it stops between items); the iterator
then ends and `results()` raises `JobCancelled`. An error in a batch ends the job: the iterator
and `results()` raise that error itself (the farm wraps it in `JobFailed`: it came from another
process).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from actors.pipeline import Pipeline
from core.jobs import (
    CandidateLike,
    CandidateResult,
    JobCancelled,
    Submission,
    SubmitsJobs,
    Tests,
    as_candidate,
    tests_per_candidate,
    tests_slice,
)
from vm.batch import Cancel, Cancelled
from vm.limits import Limits

LOCAL_BATCHES = 8
"""Batches a job is cut into when neither the submit nor the runner fixes their size."""
LOCAL_MIN_BATCH = 256
"""The fewest candidates a batch holds when LOCAL_BATCHES decides."""
MAX_VARIANTS = 8
"""Pipelines with a job's own limits or compile path that one runner (or farm worker) keeps."""

_END = object()


class PipelineVariants:
    """One Pipeline and the variants jobs asked for (their own limits or compile path), the most
    recent MAX_VARIANTS kept for the next job that asks (a farm worker and a local runner)."""

    def __init__(self, pipeline: Pipeline) -> None:
        self.pipeline = pipeline
        self._variants: dict[Any, Pipeline] = {}

    def get(self, limits: Mapping[str, int] | None, compile_path: str) -> Pipeline:
        if not limits and compile_path == "deterministic":
            return self.pipeline
        key = (tuple(sorted((limits or {}).items())), compile_path)
        if key not in self._variants:
            if len(self._variants) >= MAX_VARIANTS:  # a long-lived runner keeps a few
                self._variants.pop(next(iter(self._variants)))
            self._variants[key] = self.pipeline.variant(limits, compile_path)
        return self._variants[key]


class LocalJob:
    """One job on a `LocalRunner` (module docstring); the shape of `core.jobs.Job`."""

    def __init__(self, total: int) -> None:
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._results: list[CandidateResult | None] = [None] * total
        self._total = total
        self._done_count = 0
        self._finished = threading.Event()
        self._cancel = Cancel()
        self._error: BaseException | None = None

    def __iter__(self) -> Iterator[tuple[int, CandidateResult]]:
        while True:
            item = self._queue.get()
            if item is _END:
                self._queue.put(_END)  # a later iteration ends at once too
                if self._error is not None:
                    raise self._error
                return
            yield item

    @property
    def progress(self) -> tuple[int, int]:
        return self._done_count, self._total

    @property
    def done(self) -> bool:
        return self._finished.is_set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def cancel(self) -> None:
        self._cancel.set()

    def results(self, timeout: float | None = None) -> list[CandidateResult]:
        """Block until done; every result, in candidate order."""
        if not self._finished.wait(timeout):
            raise TimeoutError(f"local job: {self._done_count}/{self._total} after {timeout} s")
        if self._error is not None:
            raise self._error
        if self._done_count < self._total:
            raise JobCancelled(f"the job was cancelled at {self._done_count}/{self._total}")
        return [r for r in self._results if r is not None]

    def _run(
        self,
        pipeline: Pipeline,
        candidates: Sequence[CandidateLike],
        tests: Tests,
        batch_size: int,
        detail: bool,
    ) -> None:
        try:
            for start in range(0, len(candidates), batch_size):
                end = start + batch_size
                chunk = candidates[start:end]
                report = pipeline.run(
                    chunk, tests_slice(tests, start, end), detail, cancel=self._cancel
                )
                for offset, result in enumerate(report.results):
                    self._results[start + offset] = result
                    self._done_count += 1
                    self._queue.put((start + offset, result))
        except Cancelled:
            pass  # the consumer cancelled it: what came before stays, nothing more comes
        except BaseException as error:  # handed to the consumer (module docstring)
            self._error = error
        finally:
            self._finished.set()
            self._queue.put(_END)


class LocalRunner(SubmitsJobs[LocalJob]):
    """A Pipeline in this process behind `submit` (module docstring). `batch_size`: the
    candidates per batch when a submit names none (None: about LOCAL_BATCHES batches a job);
    `threads`: the Pipeline's CPU threads (None: every core); `limits`, `compiler`,
    `compile_processes`: the Pipeline's (its defaults; the caller passes the settings')."""

    def __init__(
        self,
        backend: str = "auto",
        limits: Limits | None = None,
        *,
        batch_size: int | None = None,
        threads: int | None = None,
        compiler: str = "batched",
        compile_processes: int = 0,
    ) -> None:
        if batch_size is not None and batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        self.pipeline = Pipeline(
            backend=backend,
            limits=limits,
            threads=threads,
            compiler=compiler,
            compile_processes=compile_processes,
        )
        self.batch_size = batch_size
        self._variants = PipelineVariants(self.pipeline)
        self._lock = threading.Lock()  # guards the variants
        self._order = threading.Condition()  # one job at a time, as one worker runs its batches
        self._next_ticket = 0
        self._serving = 0

    def _submit(self, submission: Submission) -> LocalJob:
        """`submit` (core.jobs.SubmitsJobs): queue a job and return it at once."""
        tests, batch_size = submission.tests, submission.batch_size
        cands = [as_candidate(c) for c in submission.candidates]
        tests_per_candidate(cands, tests)  # a job that does not fit its tests fails here, as
        # the farm's does
        job = LocalJob(len(cands))
        with self._lock:
            pipeline = self._variants.get(submission.limits, submission.compile_path)
        size = batch_size or self.batch_size or self.default_batch(len(cands))
        with self._order:
            ticket = self._next_ticket
            self._next_ticket += 1

        def run() -> None:
            with self._order:  # jobs start in the order they were submitted
                self._order.wait_for(lambda: self._serving == ticket)
            try:
                job._run(pipeline, cands, tests, size, submission.detail)
            finally:
                with self._order:
                    self._serving += 1
                    self._order.notify_all()

        threading.Thread(target=run, name="kiln-local-job", daemon=True).start()
        return job

    @staticmethod
    def default_batch(candidates: int) -> int:
        """About LOCAL_BATCHES batches, none under LOCAL_MIN_BATCH candidates."""
        return max(LOCAL_MIN_BATCH, -(-candidates // LOCAL_BATCHES))
