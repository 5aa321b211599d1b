"""What runs a job's candidates: the Ray farm of `cluster/` by default, or the local runner.

The service codes against `Executor`: a `core.jobs.Runner` (the shape of `cluster.Farm` and of
`actors.local.LocalRunner`) that also reports its workers and shuts down:

    job = executor.submit(candidates, tests, batch_size=None)   # returns at once; tests: one
                                     # list for all, or one per candidate (the runner's shared jobs)
    for index, result in job: ...    # (candidate index, CandidateResult), each index once
    job.progress, job.done, job.cancel()
    executor.workers()               # what /readyz and /metrics report
    executor.shutdown()

`make_executor(kind, workers, settings)` starts the real farm (an embedded local Ray cluster unless
the settings' `[farm] ray_address` / KILN_RAY_ADDRESS names one), with the settings the application
read (`api.main.create_app`, the edge). `ThreadExecutor` is the local runner in this process, one
CPU thread, batches of THREAD_BATCH: for tests of the service alone and for machines where Ray
cannot start (`kiln serve --executor thread`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from actors.local import LocalRunner
from configs.settings import Settings
from core.jobs import Runner
from vm.limits import Limits

THREAD_BATCH = 64
"""Candidates per batch of a `ThreadExecutor` job (its verdicts are stored as batches finish)."""


class Executor(Runner, Protocol):
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


class ThreadExecutor(LocalRunner):
    """The local runner (`actors.local`) as the service's executor (module docstring)."""

    takes_limits = True  # submit() takes per-job limits (stack_words, heap_words, max_call_depth)
    # and a compile_path

    def __init__(
        self,
        backend: str = "cpu",
        limits: Limits | None = None,
        batch_size: int = THREAD_BATCH,
        compiler: str = "batched",
    ) -> None:
        super().__init__(backend, limits, batch_size=batch_size, threads=1, compiler=compiler)

    def workers(self) -> list[Any]:
        return [ThreadWorker("thread-0", "local", "cpu", self.pipeline.backend, True)]

    def shutdown(self) -> None:
        pass


def make_executor(
    kind: str = "farm", workers: int | None = None, settings: Settings | None = None
) -> Executor:
    """The farm of `cluster/` (an embedded local Ray cluster unless `settings.farm` names one),
    or a `ThreadExecutor` for kind "thread"; either runs with the settings' `[vm]` limits and
    compiler (default `Settings()`: nothing is read here)."""
    settings = settings if settings is not None else Settings()
    if kind == "thread":
        return ThreadExecutor(limits=settings.vm, compiler=settings.compiler)
    if kind != "farm":
        raise ValueError(f"unknown executor {kind!r}: choose farm or thread")
    from cluster import Farm  # Ray is imported there, lazily

    farm: Executor = Farm.start(workers=workers, limits=settings.vm, settings=settings.farm)
    return farm
