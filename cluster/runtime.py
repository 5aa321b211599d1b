"""The farm's Ray runtime: connecting to a cluster and keeping one worker actor per device.

`Runtime.connect()` joins the cluster at `address` (the argument: `Farm.start` passes `[farm]
ray_address` / KILN_RAY_ADDRESS where the edge read one), or starts an embedded local Ray cluster
when there is none (`ray.init` with the machine's cores declared, no dashboard); it shuts Ray down
on close only where it was the one that called `ray.init`, so a driver that had already connected
keeps its connection.

The worker actors (`actors.worker.PipelineWorker`) follow the cluster's resources:

- where the cluster has GPUs: one actor per GPU, each requesting `num_gpus=1`, so Ray pins it to
  one device (never by setting CUDA_VISIBLE_DEVICES here);
- where it has none: CPU actors, one per core by default (`workers` to choose how many), each
  requesting the cores its CPU backend's threads use.

`reconcile()` (called by the scheduler's thread about once a second and after every death)
compares the actors with what the cluster holds now: it starts a replacement for an actor that
died while its node stays, starts actors on a node that joined, drains the actors of a node Ray
is draining (no new batches; what they hold finishes, or runs again elsewhere if the node goes
first), and stops starting actors for a node that left (its actors die with it; an actor that
cannot be placed is given up). An actor
is used once its warm-up has finished and it reported itself healthy, running the same
instruction set as the driver (a node with another kiln is listed unhealthy, with the reason).

Ray is imported here, lazily by `cluster` (this module is only loaded when a farm starts).
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any

import ray
from ray.exceptions import RayError

from actors.worker import ACTOR_OPTIONS, PipelineWorker, WorkerInfo, remote_class
from vm.isa import isa_hash
from vm.limits import Limits

START_FAILURES_ALLOWED = 5
"""Actors in a row that may fail to start before the farm reports the workers as broken."""
RESTART_BACKOFF_S = 1.0
"""Pause between starting replacements after a start failed, so a broken image does not spin."""


class FarmError(RuntimeError):
    """The farm cannot run work: no worker can start, or the cluster cannot be reached."""


@dataclass
class Worker:
    """The driver's record of one worker actor."""

    handle: Any
    serial: int  # order of creation, for stable listings
    kind: str  # "gpu" or "cpu"
    starting: Any  # the ObjectRef of its first info() while it warms up; None once up
    info: WorkerInfo | None = None
    in_flight: int = 0  # batches sent and not yet back
    alive: bool = True
    seconds_per_cost: float | None = None  # the cost model's measured speed of this worker
    draining: bool = False  # its node is being drained, or it is of a kind no longer planned
    alone: bool = False  # it runs a suspect candidate alone: send it nothing else meanwhile
    created: float = field(default_factory=time.monotonic)

    @property
    def ready(self) -> bool:
        """Up, healthy and not draining: it may be sent batches."""
        return self.alive and not self.draining and self.info is not None and self.info.healthy

    def label(self) -> str:
        return self.info.id[:12] if self.info else f"worker-{self.serial}(starting)"


@dataclass(frozen=True)
class Plan:
    """How many actors of which shape the cluster holds now."""

    count: int
    kind: str  # "gpu" or "cpu"
    options: dict[str, Any]  # Ray actor options: num_gpus / num_cpus
    threads: int  # CPU threads of each actor's CPU backend


class Runtime:
    """Connection to Ray plus the bookkeeping of the worker actors (module docstring)."""

    def __init__(
        self,
        address: str | None = None,
        workers: int | None = None,
        backend: str = "auto",
        limits: Limits | None = None,
        threads: int | None = None,
        worker_class: type[PipelineWorker] = PipelineWorker,
        init_options: dict[str, Any] | None = None,
    ) -> None:
        if backend not in ("auto", "cuda", "cpu", "ref"):
            raise ValueError(f"unknown backend {backend!r}: choose auto, cuda, cpu or ref")
        if workers is not None and workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        if threads is not None and threads < 1:
            raise ValueError(f"threads must be at least 1, got {threads}")
        self.address = address
        self.requested_workers = workers
        self.backend = backend
        self.limits = limits
        self.threads = threads
        self.worker_class = worker_class
        self.init_options = dict(init_options or {})
        self.workers: list[Worker] = []
        self.lock = threading.Lock()  # guards `workers` for readers on other threads
        self.owns_ray = False
        self.embedded = False
        self.start_failures = 0
        self.last_error: str | None = None
        self._serial = 0
        self._last_failure = 0.0
        self._actor_class: Any = None

    # ---- the cluster ---------------------------------------------------------------------------

    def connect(self) -> None:
        if ray.is_initialized():
            return  # this driver is already connected: use that cluster, leave it connected
        try:
            if self.address:
                ray.init(address=self.address, **{"namespace": "kiln", **self.init_options})
            else:
                # "local": start kiln's own cluster even when another one runs on this machine
                cores = os.cpu_count() or 1
                cpus = max(cores, (self.requested_workers or 1) * (self.threads or 1))
                options: dict[str, Any] = {
                    "include_dashboard": False,
                    "log_to_driver": False,
                    "namespace": "kiln",
                    "num_cpus": cpus,
                    **self.init_options,
                }
                ray.init(address="local", **options)
                self.embedded = True
        except (ConnectionError, RuntimeError, ValueError) as error:
            where = self.address or "an embedded local cluster"
            raise FarmError(f"cannot start or reach Ray at {where}: {error}") from None
        self.owns_ray = True
        self._actor_class = None

    def shutdown(self) -> None:
        with self.lock:
            workers, self.workers = self.workers, []
        for worker in workers:
            worker.alive = False
            try:
                ray.kill(worker.handle, no_restart=True)
            except Exception:  # already gone, or Ray is shutting down
                pass
        if self.owns_ray and ray.is_initialized():
            ray.shutdown()
        self.owns_ray = False

    def plan(self) -> Plan:
        resources = ray.cluster_resources()
        gpus = int(resources.get("GPU", 0))
        cpus = float(resources.get("CPU", 0))
        if self.backend == "cuda" and gpus == 0:
            raise FarmError("backend cuda asked for, but the Ray cluster has no GPU")
        if gpus > 0 and self.backend in ("auto", "cuda"):
            # one CPU each where the cluster has as many CPUs as GPUs, else none reserved
            return Plan(gpus, "gpu", {"num_gpus": 1, "num_cpus": 1 if cpus >= gpus else 0}, 1)
        if self.requested_workers is None:
            threads = self.threads or 1
            return Plan(max(1, int(cpus // threads)), "cpu", {"num_cpus": threads}, threads)
        count = self.requested_workers
        threads = self.threads or max(1, int(cpus // count))
        share = threads if count * threads <= cpus else cpus / count
        return Plan(count, "cpu", {"num_cpus": share}, threads)

    # ---- the actors ------------------------------------------------------------------------------

    def reconcile(self) -> None:
        """Start, drain or give up actors so that they match the cluster's devices now."""
        plan = self.plan()
        draining_nodes = self.draining_nodes()
        with self.lock:
            for worker in [w for w in self.workers if w.alive]:
                if worker.kind != plan.kind:
                    # the cluster gained its first GPU, or lost its last one: finish, then go
                    worker.draining = True
                    if worker.in_flight == 0:
                        self._forget(worker)
                elif worker.info is not None:
                    # a node being drained gets no new batches; its actors go with it
                    worker.draining = worker.info.node in draining_nodes
            serving = [
                w for w in self.workers if w.alive and w.kind == plan.kind and not w.draining
            ]
            extra = len(serving) - plan.count
            # a node left: give up actors still waiting for a place (they may never get one)
            for worker in sorted(serving, key=lambda w: -w.serial):
                if extra <= 0:
                    break
                if worker.starting is not None:
                    self._forget(worker)
                    extra -= 1
            missing = plan.count - len(serving)
        if missing <= 0:
            return
        if self.start_failures and time.monotonic() - self._last_failure < RESTART_BACKOFF_S:
            return
        if self.start_failures >= START_FAILURES_ALLOWED:
            return
        for _ in range(missing):
            self._start(plan)

    def draining_nodes(self) -> set[str]:
        """Ids of the nodes Ray is draining (the autoscaler is about to take them away)."""
        try:
            from ray._private.state import state

            return set(state.get_draining_nodes())
        except Exception:  # a Ray without the call, or a cluster that will not say: none known
            return set()

    def _start(self, plan: Plan) -> None:
        if self._actor_class is None:
            self._actor_class = remote_class(self.worker_class)
        backend = "auto" if self.backend == "auto" or plan.kind == "gpu" else self.backend
        handle = self._actor_class.options(**ACTOR_OPTIONS, **plan.options).remote(
            backend=backend, limits=self.limits, threads=plan.threads
        )
        self._serial += 1
        worker = Worker(handle, self._serial, plan.kind, starting=ask_info(handle))
        with self.lock:
            self.workers.append(worker)

    def _forget(self, worker: Worker) -> None:
        worker.alive = False
        try:
            ray.kill(worker.handle, no_restart=True)
        except Exception:  # it may be gone already
            pass
        self.workers = [w for w in self.workers if w is not worker]

    def starting_refs(self) -> dict[Any, Worker]:
        with self.lock:
            return {w.starting: w for w in self.workers if w.alive and w.starting is not None}

    def started(self, worker: Worker) -> None:
        """The worker's first info() is back: it is up (healthy or not), or it failed to start."""
        ref, worker.starting = worker.starting, None
        try:
            worker.info = ray.get(ref)
        except RayError as error:
            self.start_failures += 1
            self._last_failure = time.monotonic()
            self.last_error = f"a worker failed to start: {_first_line(error)}"
            self.died(worker)
            return
        worker.info = _vetted(worker.info)
        if worker.info is not None and worker.info.healthy:
            self.start_failures = 0
        elif worker.info is not None:
            self.last_error = f"worker {worker.label()} is unhealthy: {worker.info.error}"

    def died(self, worker: Worker) -> None:
        """Forget a worker found dead; `reconcile` starts its replacement if its node stays."""
        with self.lock:
            if worker.alive:
                self._forget(worker)

    def ready_workers(self) -> list[Worker]:
        with self.lock:
            return [w for w in self.workers if w.ready]

    def wait_started(self, timeout: float) -> None:
        """Block until every planned actor is up (healthy or not), or `timeout` seconds passed."""
        deadline = time.monotonic() + timeout
        self.reconcile()
        while time.monotonic() < deadline:
            refs = self.starting_refs()
            if not refs and self.start_failures >= START_FAILURES_ALLOWED:
                return  # workers fail to start: say so now rather than at the deadline
            if not refs:
                if len(self.live()) >= self.plan().count:
                    return
                self.reconcile()
                if not self.starting_refs():
                    time.sleep(0.05)
                continue
            done, _ = ray.wait(list(refs), num_returns=1, timeout=deadline - time.monotonic())
            for ref in done:
                self.started(refs[ref])
            self.reconcile()

    def live(self) -> list[Worker]:
        with self.lock:
            return [w for w in self.workers if w.alive]

    def infos(self, refresh: bool = True, timeout: float = 5.0) -> list[WorkerInfo]:
        """What every live worker reports. `refresh` asks the idle ones (a worker answers between
        batches; a busy one shows it is alive by its batches coming back, and is listed as it last
        reported): one found dead is listed unhealthy, one that does not answer in `timeout`
        seconds as it last reported."""
        workers = sorted(self.live(), key=lambda w: w.serial)
        up = [w for w in workers if w.info is not None]
        answers: dict[int, WorkerInfo] = {}
        dead: dict[int, str] = {}
        idle = [w for w in up if w.in_flight == 0]
        if refresh and idle:
            refs = {ask_info(w.handle): w for w in idle}
            done, _ = ray.wait(list(refs), num_returns=len(refs), timeout=timeout)
            for ref in done:
                try:
                    answers[refs[ref].serial] = _vetted(ray.get(ref))
                except RayError as error:
                    dead[refs[ref].serial] = f"dead: {_first_line(error)}"
        out = []
        for worker in up:
            assert worker.info is not None
            if worker.serial in answers:
                out.append(answers[worker.serial])
            elif worker.serial in dead:
                out.append(replace(worker.info, healthy=False, error=dead[worker.serial]))
            else:
                out.append(worker.info)
        return out


def _vetted(info: WorkerInfo) -> WorkerInfo:
    """`info`, unhealthy if the worker runs another kiln than the driver: it would compile other
    bytecode and could give other verdicts."""
    if info.isa == isa_hash():
        return info
    why = (
        f"its kiln has instruction set 0x{info.isa:08x}, the driver's is 0x{isa_hash():08x}:"
        " install the same kiln on every node"
    )
    return replace(info, healthy=False, error=why)


def ask_info(handle: Any) -> Any:
    """The ObjectRef of a worker's `info()` (answered between its batches)."""
    return handle.info.remote()


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[-1] if text else type(error).__name__
