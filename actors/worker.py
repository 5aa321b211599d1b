"""`PipelineWorker`: the Ray actor that hosts one `Pipeline` on one device.

A thin wrapper: the farm's runtime (`cluster.runtime`) makes it a Ray actor with the resources it
needs, `num_gpus=1` for a GPU worker (Ray then pins the device: `ray.get_gpu_ids()` names it and
`CUDA_VISIBLE_DEVICES` shows only it) or `num_cpus` for a CPU worker where the cluster has no GPU.

At start it warms up: one tiny candidate is compiled, run and verified, which builds (or loads
from the cache) the C interpreter, or compiles the CUDA kernel with NVRTC, once per process. A
worker whose warm-up fails stays up but reports itself unhealthy, with the reason, so the farm
sends it no work instead of restarting it in a loop.

The CUDA backend is chosen only where it really works here (`actors.pipeline.cuda_available()`);
a worker given a GPU that CUDA cannot use (a test cluster declares GPUs that do not exist) runs
the CPU backend and still reports the Ray GPU id it was given.

The class knows Ray only through `ray.get_runtime_context()` and `ray.get_gpu_ids()`; outside
Ray it works as a plain object, which is how its tests use it. It is a plain (not threaded)
actor on purpose: Ray runs its calls one at a time in the order they were sent, which the
scheduler relies on to tell which batch was running when a worker died; so `info` is answered
between batches.

Since a plain actor takes no call while a batch runs, a cancel reaches the batch through a
`CancelBoard` (a small actor of the farm's scheduler): while it runs a batch, the worker asks
the board every CANCEL_POLL_S whether the batch's job was cancelled, and if so stops it
(`vm.batch.Cancel`: between items) and answers with no results.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import ray

from actors.local import PipelineVariants
from actors.pipeline import BatchReport, Pipeline, cuda_available
from actors.wire import WireBatch, WireResults
from configs.settings import Settings
from core.jobs import (
    WORKER_CRASHED,
    Candidate,
    CandidateLike,
    CandidateResult,
    Tests,
    TestSpec,
)
from vm.batch import Cancel, Cancelled
from vm.isa import isa_hash
from vm.limits import Limits

MAX_ITEMS = 1 << 22
"""Items per batch on a CPU worker (the batch arrays take tens of bytes per item)."""
BYTES_PER_ITEM = 64
"""Device memory one (candidate, test) item takes beyond the tests themselves (run order,
status, trap, steps, reduction)."""
ITEM_MEMORY_FRACTION = 0.25
"""Share of a GPU's free memory the items of one batch may take (scratch takes half)."""

CANCEL_POLL_S = 0.25
"""How often a worker running a batch asks the CancelBoard whether its job was cancelled."""

_WARMUP = Candidate("def warm(x: int) -> int:\n    return x * 2 + 1\n", "warm")
_WARMUP_TESTS = [TestSpec((20,), 41), TestSpec((-3,), -5)]


@dataclass(frozen=True)
class WorkerInfo:
    """What a worker reports about itself."""

    id: str  # the Ray actor id ("local" outside Ray)
    node: str  # the Ray node id it runs on
    device: str  # in words: "GPU 1 (NVIDIA H100 80GB HBM3)", "CPU, 1 thread (Ray GPU 0 ...)"
    backend: str  # the Pipeline's backend: "cuda" or "cpu" (or "ref")
    healthy: bool  # the warm-up passed
    gpu_ids: tuple[str, ...] = ()  # the GPU ids Ray gave it (empty for a CPU worker)
    threads: int = 1  # CPU threads of its CPU backend
    pid: int = 0
    warmup_s: float = 0.0  # seconds the warm-up took (kernel or C library build included)
    error: str | None = None  # why it is unhealthy
    batches: int = 0  # batches it has run
    address: str = ""  # the node's IP address
    items_to_fill: int = 1  # (candidate, test) items that occupy every thread of its device
    max_items: int = MAX_ITEMS  # the most items one batch may hold in its device memory
    isa: int = 0  # the hash of its kiln's instruction set (vm.isa.isa_hash)


@dataclass
class BatchOutcome:
    """One batch's verdicts and what it cost, as the worker sends them back."""

    # as a WireResults when the batch came as a WireBatch (the farm's way: `results_of`)
    results: list[CandidateResult] | WireResults
    items: int  # (candidate, test) pairs run
    steps: int  # bytecode instructions over all of them
    seconds: float  # time inside Pipeline.run
    worker: str  # the worker's id
    timings: dict[str, float] = field(default_factory=dict)
    # CPU time the worker's process used meanwhile (time.process_time): unlike `seconds`, not
    # lengthened by other processes that share its core
    cpu_seconds: float = 0.0


def results_of(outcome: BatchOutcome) -> list[CandidateResult]:
    """The outcome's results as CandidateResults, unpacked where they came columnar."""
    results = outcome.results
    return results.unpack() if isinstance(results, WireResults) else results


def _ray_context() -> tuple[str, str, str, tuple[str, ...]]:
    """(actor id, node id, node IP, GPU ids) under Ray; placeholders outside it."""
    if not ray.is_initialized():
        return "local", "local", "127.0.0.1", ()
    context = ray.get_runtime_context()
    actor_id = context.get_actor_id() or "driver"
    return (
        actor_id,
        context.get_node_id(),
        ray.util.get_node_ip_address(),
        tuple(str(g) for g in ray.get_gpu_ids()),
    )


def _apply_node_settings() -> Settings:
    """A worker's process is an edge: the settings of its node (its environment and KILN_CONFIG)
    are read once here and passed down to the C VM for the life of the process (its build cache
    folder, `configs.settings.apply`), as the `kiln` command does for its own, and to the
    worker's Pipeline (its compiler)."""
    from configs.settings import apply, load_settings

    settings = load_settings()
    apply(settings)  # for good: the process ends with the actor
    return settings


def _cuda_device_name() -> str:
    try:
        import cupy

        name = cupy.cuda.runtime.getDeviceProperties(0)["name"]
        return name.decode() if isinstance(name, bytes) else str(name)
    except Exception:  # the name is decoration: a driver that will not say is not an error
        return "CUDA device"


class PipelineWorker:
    """One Pipeline on one device (module docstring)."""

    def __init__(
        self,
        backend: str = "auto",
        limits: Limits | None = None,
        threads: int | None = None,
        compiler: str | None = None,
    ) -> None:
        """`limits`: the driver's (the farm sends its own to every node); `compiler`: the
        Pipeline's, default the node's settings in an actor's process ([runtime] compiler, read
        at that edge), else the Pipeline's default."""
        self._id, self._node, self._address, self._gpu_ids = _ray_context()
        if backend == "auto":
            backend = "cuda" if self._gpu_ids and cuda_available() else "cpu"
        self._threads = threads or 1
        self._batches = 0
        self._lock = threading.Lock()
        self._error: str | None = None
        started = time.perf_counter()
        self._pipeline: Pipeline | None = None
        self._variants: PipelineVariants | None = None  # per-job limits and compile paths
        try:
            if self._id not in ("local", "driver"):  # an actor's own process: an edge of kiln's
                node = _apply_node_settings()
                compiler = compiler or node.compiler
            self._pipeline = Pipeline(
                backend, limits=limits, threads=self._threads, compiler=compiler or "batched"
            )
            self._variants = PipelineVariants(self._pipeline)
            report = self._pipeline.run([_WARMUP], _WARMUP_TESTS)
            if not report.results[0].passed:
                self._error = f"warm-up candidate did not pass: {report.results[0]}"
        except Exception as error:  # reported as unhealthy: the farm sends it no work
            self._error = f"warm-up failed: {type(error).__name__}: {error}"
        self._warmup_s = time.perf_counter() - started
        self._backend = backend
        self._device = self._describe()
        self._items_to_fill, self._max_items = self._capacity()

    def _capacity(self) -> tuple[int, int]:
        """(items that fill the device, items its memory holds per batch)."""
        if self._backend != "cuda" or self._pipeline is None:
            return 32 * self._threads, MAX_ITEMS
        try:
            import cupy

            from vm import cuda

            free, _ = cupy.cuda.runtime.memGetInfo()
            fill = cuda.resident_threads(self._pipeline.limits, 4, 1 << 40)
            return fill, max(fill, int(free * ITEM_MEMORY_FRACTION) // BYTES_PER_ITEM)
        except Exception:  # the device will not say: the CPU's sizes still give correct batches
            return 32 * self._threads, MAX_ITEMS

    def _describe(self) -> str:
        gpus = ", ".join(self._gpu_ids)
        if self._backend == "cuda":
            return f"GPU {gpus} ({_cuda_device_name()})"
        plural = "s" if self._threads != 1 else ""
        cpu = f"CPU, {self._threads} thread{plural}"
        return f"{cpu} (Ray GPU {gpus}: CUDA not usable here)" if self._gpu_ids else cpu

    def info(self) -> WorkerInfo:
        return WorkerInfo(
            id=self._id,
            node=self._node,
            device=self._device,
            backend=self._backend,
            healthy=self._error is None,
            gpu_ids=self._gpu_ids,
            threads=self._threads,
            pid=os.getpid(),
            warmup_s=self._warmup_s,
            error=self._error,
            batches=self._batches,
            address=self._address,
            items_to_fill=self._items_to_fill,
            max_items=self._max_items,
            isa=isa_hash(),
        )

    def run(
        self,
        candidates: Sequence[CandidateLike] | WireBatch,
        tests: Tests | None,
        limits: Mapping[str, int] | None = None,
        compile_path: str = "deterministic",
        detail: bool = False,
        cancel_board: Any = None,
        job: Any = None,
    ) -> BatchOutcome:
        """Verify one batch (the arguments of `Pipeline.run`, or a `WireBatch` and no `tests`:
        how the farm sends them, unpacked here within `seconds`; the results then go back as a
        `WireResults`, packed within `seconds` too). A job's own `limits` (fields of
        `Limits`) and `compile_path` get a Pipeline of their own, kept for the next batch.
        `cancel_board` (a CancelBoard handle) is watched for `job` while the batch runs: once
        the job is cancelled the batch stops and the outcome has no results."""
        if self._pipeline is None or self._error is not None:
            raise RuntimeError(f"worker {self._id} is unhealthy: {self._error}")
        with self._lock:
            started, cpu_started = time.perf_counter(), time.process_time()
            wire = isinstance(candidates, WireBatch)
            if isinstance(candidates, WireBatch):
                candidates, tests = candidates.unpack()
            assert tests is not None
            assert self._variants is not None
            pipeline = self._variants.get(limits, compile_path)
            cancel = Cancel()
            watch = _CancelWatch(cancel_board, job, cancel) if cancel_board is not None else None
            try:
                report: BatchReport = pipeline.run(candidates, tests, detail=detail, cancel=cancel)
            except Cancelled:
                return BatchOutcome([], 0, 0, time.perf_counter() - started, self._id)
            finally:
                if watch is not None:
                    watch.stop()
            results = WireResults.pack(report.results) if wire else report.results
            seconds = time.perf_counter() - started
            cpu_seconds = time.process_time() - cpu_started
            self._batches += 1
        return BatchOutcome(
            results=results,
            items=report.items,
            steps=report.steps,
            seconds=seconds,
            worker=self._id,
            timings=dict(report.timings),
            cpu_seconds=cpu_seconds,
        )


class CancelBoard:
    """The jobs of one farm that were cancelled (a Ray actor of its scheduler; module
    docstring). Remembers the last MAX_REMEMBERED."""

    MAX_REMEMBERED = 10_000

    def __init__(self) -> None:
        self._cancelled: dict[Any, None] = {}

    def cancel(self, job: Any) -> None:
        self._cancelled[job] = None
        while len(self._cancelled) > self.MAX_REMEMBERED:
            self._cancelled.pop(next(iter(self._cancelled)))

    def is_cancelled(self, job: Any) -> bool:
        return job in self._cancelled


class _CancelWatch:
    """Asks `board` every CANCEL_POLL_S whether `job` was cancelled and sets `cancel` if so, on
    a thread of its own until `stop()`. A board that cannot answer is asked again."""

    def __init__(self, board: Any, job: Any, cancel: Cancel) -> None:
        self._board, self._job, self._cancel = board, job, cancel
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="kiln-cancel-watch", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._stopped.wait(CANCEL_POLL_S):
            try:
                cancelled = ray.get(self._board.is_cancelled.remote(self._job), timeout=10)
                if cancelled and not self._stopped.is_set():
                    self._cancel.set()
                    return
            except Exception:  # the board is busy or gone: the batch then runs to its end
                continue

    def stop(self) -> None:
        """Stop watching, without waiting for the thread: it may be inside a call to the board
        (a round trip through Ray, milliseconds on a loaded machine, which a join here made
        part of every batch); it ends when that returns, and a `cancel` it sets then belongs to a
        batch that is over."""
        self._stopped.set()


def crashed_result(deaths: int) -> CandidateResult:
    """The verdict of a candidate that killed `deaths` workers."""
    why = f"the worker running this candidate died {deaths} times (process crash or kill)"
    return CandidateResult(WORKER_CRASHED, diagnostic=why, path="farm")


def remote_class(worker_class: type[PipelineWorker] = PipelineWorker) -> Any:
    """`worker_class` as a Ray actor class (start it with ACTOR_OPTIONS)."""
    return ray.remote(worker_class)


ACTOR_OPTIONS: dict[str, Any] = {"max_restarts": 0, "max_task_retries": 0}
"""Ray actor options every worker starts with: Ray never restarts a worker nor retries its
batches; the farm's scheduler replaces dead workers and re-runs their batches itself."""
