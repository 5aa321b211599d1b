"""What runs a job's candidates: the Ray farm of `cluster/` by default, or a thread for tests.

The service codes against `Executor`, the shape of `cluster.Farm`:

    job = executor.submit(candidates, tests, batch_size=None)   # returns at once; tests: one
                                     # list for all, or one per candidate (the runner's shared jobs)
    for index, result in job: ...    # (candidate index, CandidateResult), each index once
    job.progress, job.done, job.cancel()
    executor.workers()               # what /readyz and /metrics report
    executor.shutdown()

`make_executor()` starts the real farm (an embedded local Ray cluster unless KILN_RAY_ADDRESS
names one). `ThreadExecutor` runs a `Pipeline` in a thread with the same shape: for tests of
the service alone and for machines where Ray cannot start (`kiln serve --executor thread`).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from actors.pipeline import Pipeline
from core.jobs import Candidate, CandidateResult, TestSpec
from vm.batch import Cancel, Cancelled
from vm.limits import Limits


class ExecutorJob(Protocol):
    def __iter__(self) -> Iterator[tuple[int, CandidateResult]]: ...

    @property
    def progress(self) -> tuple[int, int]: ...

    @property
    def done(self) -> bool: ...

    def cancel(self) -> None: ...


class Executor(Protocol):
    def submit(
        self,
        candidates: Sequence[Candidate],
        tests: Sequence[TestSpec] | Sequence[Sequence[TestSpec]],  # one list, or one each
        batch_size: int | None = None,
    ) -> ExecutorJob: ...

    def workers(self) -> list[Any]: ...

    def shutdown(self) -> None: ...


@dataclass(frozen=True)
class ThreadWorker:
    """What `ThreadExecutor.workers()` reports, in the fields of the farm's WorkerInfo."""

    id: str
    node: str
    device: str
    backend: str
    healthy: bool


_END = object()


class ThreadJob:
    """One job on a `ThreadExecutor`: batches run in a thread, results come through a queue.
    `cancel()` reaches the batch running (`vm.batch.Cancel`): it stops between items."""

    def __init__(self, total: int) -> None:
        self._queue: queue.Queue[Any] = queue.Queue()
        self._total = total
        self._done_count = 0
        self._finished = threading.Event()
        self._cancel = Cancel()

    def __iter__(self) -> Iterator[tuple[int, CandidateResult]]:
        while True:
            item = self._queue.get()
            if item is _END:
                return
            if isinstance(item, BaseException):
                raise item
            yield item

    @property
    def progress(self) -> tuple[int, int]:
        return self._done_count, self._total

    @property
    def done(self) -> bool:
        return self._finished.is_set()

    def cancel(self) -> None:
        self._cancel.set()

    def _run(
        self,
        pipeline: Pipeline,
        candidates: Sequence[Candidate],
        tests: Sequence[TestSpec] | Sequence[Sequence[TestSpec]],
        batch_size: int,
        detail: bool,
    ) -> None:
        try:
            per_candidate = bool(tests) and not isinstance(tests[0], TestSpec)
            for start in range(0, len(candidates), batch_size):
                chunk = candidates[start : start + batch_size]
                chunk_tests = tests[start : start + batch_size] if per_candidate else tests
                report = pipeline.run(chunk, chunk_tests, detail, cancel=self._cancel)
                for offset, result in enumerate(report.results):
                    self._done_count += 1
                    self._queue.put((start + offset, result))
        except Cancelled:
            pass  # the consumer cancelled it: what came before stays, nothing more comes
        except Exception as error:  # handed to the consumer, which marks the job failed
            self._queue.put(error)
        finally:
            self._finished.set()
            self._queue.put(_END)


class ThreadExecutor:
    """Runs each job's batches on a `Pipeline` in a thread of this process (module docstring)."""

    takes_limits = True  # submit() takes per-job limits (stack_words, heap_words, max_call_depth)
    # and a compile_path

    def __init__(
        self, backend: str = "cpu", limits: Limits | None = None, batch_size: int = 64
    ) -> None:
        self.pipeline = Pipeline(backend=backend, limits=limits, threads=1)
        self.batch_size = batch_size
        self._semaphore = threading.Semaphore(1)  # one batch at a time, as one worker would

    def submit(
        self,
        candidates: Sequence[Candidate],
        tests: Sequence[TestSpec] | Sequence[Sequence[TestSpec]],
        batch_size: int | None = None,
        limits: dict[str, int] | None = None,
        compile_path: str = "deterministic",
        detail: bool = False,
    ) -> ThreadJob:
        job = ThreadJob(len(candidates))
        pipeline = self.pipeline.variant(limits, compile_path)

        def run() -> None:
            with self._semaphore:
                size = batch_size or self.batch_size
                job._run(pipeline, list(candidates), tests, size, detail)

        threading.Thread(target=run, name="kiln-thread-job", daemon=True).start()
        return job

    def workers(self) -> list[Any]:
        return [ThreadWorker("thread-0", "local", "cpu", self.pipeline.backend, True)]

    def shutdown(self) -> None:
        pass


def make_executor(kind: str = "farm", workers: int | None = None) -> Executor:
    """The farm of `cluster/` (an embedded local Ray cluster unless KILN_RAY_ADDRESS names
    one), or a `ThreadExecutor` for kind "thread"."""
    if kind == "thread":
        return ThreadExecutor()
    if kind != "farm":
        raise ValueError(f"unknown executor {kind!r}: choose farm or thread")
    from cluster import Farm  # Ray is imported there, lazily

    farm: Executor = Farm.start(workers=workers)
    return farm
