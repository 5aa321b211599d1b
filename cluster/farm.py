"""`Farm`: the Ray runtime and the scheduler behind one object.

    from cluster import Farm

    with Farm.start() as farm:                  # an embedded local Ray cluster of this machine
        print(farm.workers())                   # one WorkerInfo per actor: device, backend, health
        job = farm.submit(candidates, tests)    # the arguments of Pipeline.run; returns at once
        for index, result in job:               # verdicts as batches finish, each index once
            ...
        job.results()                           # all of them, in candidate order

`Farm.start(address=...)` (or `settings=` a `FarmSettings` whose `ray_address` names one: the
`[farm]` settings, which the caller, an edge of kiln, reads and passes) joins an existing cluster
instead. Jobs may be submitted from several threads at once and run side by side,
taking turns on the workers.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

from actors.pipeline import COMPILE_PATHS
from actors.worker import PipelineWorker, WorkerInfo
from cluster.runtime import FarmError, Runtime
from cluster.scheduler import FarmJob, Scheduler
from configs.settings import FarmSettings
from core.jobs import Submission, SubmitsJobs
from vm.limits import Limits

START_TIMEOUT_S = 120.0
"""How long `Farm.start` waits for the first workers to warm up."""


class Farm(SubmitsJobs[FarmJob]):
    """A running farm (module docstring). Make one with `Farm.start`."""

    takes_limits = True  # submit() takes per-job limits (and a compile path)

    def __init__(self, runtime: Runtime, scheduler: Scheduler, batch_size: int | None) -> None:
        self.runtime = runtime
        self.scheduler = scheduler
        self.batch_size = batch_size
        self._closed = False

    @classmethod
    def start(
        cls,
        address: str | None = None,
        workers: int | None = None,
        backend: str = "auto",
        limits: Limits | None = None,
        *,
        threads: int | None = None,
        in_flight: int | None = None,
        batch_size: int | None = None,
        worker_class: type[PipelineWorker] = PipelineWorker,
        ray_options: dict[str, Any] | None = None,
        wait: bool = True,
        settings: FarmSettings | None = None,
    ) -> Farm:
        """Connect (or start Ray), start the workers and the scheduler.

        address: a Ray address; None -> `settings.ray_address`, else an embedded local cluster
            (shut down again on close, as Ray is only if kiln started it).
        workers: CPU actors where the cluster has no GPU (default `settings.workers`, else one
            per core); with GPUs there is one per GPU.
        backend: "auto" (CUDA on GPU workers where it works, else the CPU backend), or "cpu",
            "cuda", "ref" for every worker.
        limits: VM limits for every worker (the driver's, so every node runs with the same fuel;
            default `Limits()`: the caller passes the settings' [vm]).
        threads: CPU threads per CPU actor (default: the cores divided among the actors).
        in_flight, batch_size: defaults for the scheduler (default: `settings`').
        worker_class: a subclass of PipelineWorker to host instead (tests inject faults so).
        ray_options: extra keyword arguments of `ray.init`.
        wait: block until the first workers have warmed up (at most START_TIMEOUT_S).
        settings: the `[farm]` settings (default `FarmSettings()`: an embedded cluster, the
            cost model's batches). The farm reads no settings itself: the edge passes them.
        """
        farm = settings if settings is not None else FarmSettings()
        if address is None:
            address = farm.ray_address or None
        if workers is None:
            workers = farm.workers
        runtime = Runtime(
            address=address,
            workers=workers,
            backend=backend,
            limits=limits if limits is not None else Limits(),
            threads=threads,
            worker_class=worker_class,
            init_options=ray_options,
        )
        runtime.connect()
        try:
            if wait:
                runtime.wait_started(START_TIMEOUT_S)
                if not runtime.ready_workers():
                    raise FarmError(
                        f"no worker became ready in {START_TIMEOUT_S:.0f} s: "
                        f"{runtime.last_error or 'none was placed (check the cluster resources)'}"
                    )
            scheduler = Scheduler(runtime, in_flight or farm.in_flight)
            scheduler.start()
        except BaseException:
            runtime.shutdown()
            raise
        return cls(runtime, scheduler, batch_size or farm.batch_size)

    def workers(self, refresh: bool = True) -> list[WorkerInfo]:
        """Every worker that is up, as it reports itself (`refresh`: ask the idle ones now; one
        found dead is listed unhealthy, a busy one as it last reported)."""
        return self.runtime.infos(refresh=refresh)

    def _submit(self, submission: Submission) -> FarmJob:
        """`submit` (core.jobs.SubmitsJobs): queue a job (the arguments of `Pipeline.run`) and
        return it at once. `limits` overrides fields of the workers' `Limits` for this job
        (stack_words, heap_words, max_call_depth, ...); `compile_path` is the Pipeline's
        (deterministic, neural, hybrid); `detail`: the workers add each test's own verdict to
        each result (`Pipeline.run`)."""
        if self._closed:
            raise FarmError("the farm is shut down")
        limits, compile_path = submission.limits, submission.compile_path
        options: dict[str, Any] = {}
        if limits:
            Limits().replace(**limits)  # an unknown field is the caller's error, raised here
            options["limits"] = dict(limits)
        if compile_path != "deterministic":
            if compile_path not in COMPILE_PATHS:
                raise ValueError(
                    f"unknown compile path {compile_path!r}: choose {', '.join(COMPILE_PATHS)}"
                )
            options["compile_path"] = compile_path
        if submission.detail:
            options["detail"] = True
        batch_size = submission.batch_size or self.batch_size
        return self.scheduler.submit(submission.candidates, submission.tests, batch_size, options)

    def batches_in_flight(self) -> int:
        """Batches sent to workers and not yet back, over every job."""
        return self.scheduler.batches_in_flight()

    def shutdown(self) -> None:
        """Stop the scheduler (unfinished jobs fail), the workers, and Ray if kiln started it."""
        if self._closed:
            return
        self._closed = True
        try:
            self.scheduler.stop()
        finally:
            self.runtime.shutdown()

    def __enter__(self) -> Farm:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.shutdown()
