"""The CUDA backend: the same C interpreter (`vm/kernels/interp.h`) on a GPU, through CuPy.

`vm/kernels/cuda_kernel.cu` with its local headers inlined is loaded once per process: from the
shipped cubin built ahead for that text, those options and the device's architecture
(vm/prebuilt.py, vm/kernels/prebuilt/), else compiled by NVRTC (`cupy.RawModule`), cached by a
SHA-256 of that text and the options, so an edit to any kernel source recompiles it. CuPy is
imported lazily: this module imports, and `available()` answers, on a machine with no GPU
(Invariant 6).

    from vm import cuda
    if cuda.available():
        verdicts = cuda.verify_batch(batch, Limits())  # a vm.batch.VerifyBatch
        results = cuda.run_batch([(program, "fib", [20])], Limits())

A batch is uploaded once (programs, tests, items), run by one thread per work item over a bounded
set of resident threads (their scratch slabs sized from the limits and a device-memory budget),
reduced per candidate on the device, and only the per-candidate verdicts are downloaded
(Invariant 7).

Results are the C VM's bit for bit, never within a rounding bound: float pow on the device is
CUDA's libdevice (documented within 2 ulp; an H200 gave 3.0 ** 1.0 == 2.9999999999999996, enough
to flip a branch and a verdict), so the items of every program whose flattened code holds an op
of HOST_OPS (POW_F) run on the host's C VM instead (vm.cpu, same limits and fuel) while the device
runs the rest, and are merged back in order: their per-item statuses are uploaded and reduced with
the device's (verify_batch), their results put back in place (run_batch). How many went to the
host is reported: timings["host_items"] (and "host", its seconds) for a verify batch, the `stats`
dict for run_batch. Every other op is exact on both (HOST_OPS's docstring).
"""

from __future__ import annotations

import dataclasses
import re
import threading
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from vm.batch import WRONG_ANSWER, VerifyBatch, VerifyResult, verdict_of_trap
from vm.build import KERNELS, BuildError, FlatProgram, flatten, verify_inputs
from vm.isa import BY_NAME, TRAPS
from vm.limits import Limits
from vm.result import ExecResult

MISSING = "backend cuda needs CuPy and a CUDA device: pip install -e '.[gpu]'"

OPTIONS = ("--fmad=false", "--ftz=false", "--prec-div=true", "--prec-sqrt=true")
"""NVRTC options: no fused multiply-add, denormals kept, IEEE division (float results must equal
CPython's bit for bit; see the note on pow in cuda_kernel.cu). tests/test_ptx.py gives nvcc the
same."""

BLOCK = 64
"""Threads per block. Measured on an H200 (bench/gpu_occupancy.py, docs/GPU.md "Occupancy,
measured"): 64 runs the verify kernel 4-12% faster than 128 and 256 much slower (+50%), with the
same verdicts; the interpreter is register-hungry (191 registers), and smaller blocks pack the
SMs' registers more tightly (5 blocks of 2 warps against 2 of 4)."""

FRAME_BYTES = 16  # sizeof(kiln_frame), asserted in cuda_kernel.cu
WALK_BYTES = 56  # sizeof(kiln_walk)
PROGRAM_WORDS = 16  # sizeof(kiln_program) / 8: pointers and int64 counts

SCRATCH_FRACTION = 0.5
"""Share of the device's free memory the resident threads' scratch slabs may take by default."""


POISON = {
    np.dtype(np.int8): -128,
    np.dtype(np.int32): int(np.iinfo(np.int32).min),
    np.dtype(np.int64): 0x7FF4DEADBEEF0BAD,  # as a float, a signalling NaN no operation makes
    np.dtype(np.uint8): 0xA5,
}
"""What output buffers start as instead of zeros: a value no kernel writes (statuses and trap
codes are small and non-negative, steps and lengths non-negative), so a result the device left
unwritten shows as itself (`unwritten` finds it; decoded result words come out wrong, not as a
plausible 0, False or empty) instead of passing for a real one."""

HOST_OPS = ("POW_F",)
"""The ops whose device result may differ from the C VM's, so that the items of a program using
one run on the host instead (`on_host`): pow is CUDA's libdevice (documented within 2 ulp, CUDA
Math API; an H200 gave 3.0 ** 1.0 == 2.9999999999999996), not the host's libm that CPython and
the C VM call. Every other float op is exact on both (IEEE +-*/ and sqrt with --fmad=false,
--prec-div, --prec-sqrt; fmod, floor, ceil, frexp, ldexp exact by definition, so the float //
and % are too)."""


def on_host(flat: Sequence[FlatProgram], ops: Sequence[str] = HOST_OPS) -> np.ndarray:
    """Per program (bool): whether its flattened code, as the device runs it (the device runs
    the code as it is: no fusing, interp.h), holds an instruction whose opcode is one of `ops`
    (default HOST_OPS). Every code word is one instruction, its opcode the low byte
    (vm.isa.encode); the guard word after each function (vm.build.GUARD) is opcode 255."""
    if not flat or not ops:
        return np.zeros(len(flat), dtype=bool)
    codes = np.array([BY_NAME[name].code for name in ops], dtype=np.uint32)
    lengths = np.array([len(f.code) for f in flat], dtype=np.int64)  # each at least 1
    code = np.concatenate([f.code for f in flat])
    hits = np.isin(code & np.uint32(0xFF), codes).astype(np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    return np.add.reduceat(hits, starts) > 0


def _program_on_host(flags: np.ndarray, program: np.ndarray) -> np.ndarray:
    """flags[program] per entry, False where `program` names none (the device traps it
    MemoryFault, as the C VM does)."""
    valid = (program >= 0) & (program < len(flags))
    if not len(flags):
        return np.zeros(len(program), dtype=bool)
    return valid & flags[np.where(valid, program, 0)]


def poisoned(cupy: Any, n: int, dtype: Any) -> Any:
    """A device array of `n` elements of `dtype`, every one POISON."""
    return cupy.full(n, POISON[np.dtype(dtype)], dtype=dtype)


def unwritten(values: np.ndarray) -> np.ndarray:
    """Indices of the elements of a (host) array still holding its dtype's POISON."""
    return np.nonzero(values == np.array(POISON[values.dtype]).astype(values.dtype))[0]


class DeviceLeftResults(RuntimeError):
    """A kernel returned without writing every result it owes: a launch or kernel bug, never a
    verdict."""


class CudaUnavailable(RuntimeError):
    """CuPy is not installed or sees no CUDA device."""


# ---- the device and the compiled module --------------------------------------------------------


def load_cupy(missing: str = MISSING) -> Any:
    """The cupy module, or CudaUnavailable starting with `missing` (what needs it, and how to
    install it) when CuPy is not installed or sees no device."""
    try:
        import cupy
    except ImportError:
        raise CudaUnavailable(missing) from None
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as error:  # no driver, or a broken CUDA install
        raise CudaUnavailable(f"{missing} (CuPy found no device: {error})") from None
    if count < 1:
        raise CudaUnavailable(f"{missing} (CuPy found no device)")
    return cupy


def _cupy() -> Any:
    return load_cupy()


def available() -> bool:
    """Whether CuPy is importable and sees a CUDA device."""
    try:
        _cupy()
    except CudaUnavailable:
        return False
    return True


_INCLUDE = re.compile(r'^#include "([^"]+)"\s*$', re.MULTILINE)


def source() -> str:
    """cuda_kernel.cu with its local includes inlined (each header once): the exact text NVRTC
    compiles, so its hash covers every kernel source."""
    seen: set[str] = set()

    def expand(name: str) -> str:
        if name in seen:
            return ""
        seen.add(name)
        text = (KERNELS / name).read_text()
        return _INCLUDE.sub(lambda m: expand(m.group(1)), text)

    return expand("cuda_kernel.cu")


_modules: dict[str, Any] = {}
_module_lock = threading.Lock()


ENTRIES = (
    "kiln_check_programs", "kiln_verify_items", "kiln_reduce_first", "kiln_reduce_verdicts",
    "kiln_run_items",
)  # fmt: skip


def module() -> Any:
    """The kernels (`cupy.RawModule`), loaded on first use in this process: from the prebuilt
    cubin matching this text, options and device (vm/prebuilt.py), else compiled by NVRTC."""
    from vm import prebuilt

    cupy = _cupy()
    with _module_lock:
        return prebuilt.module(cupy, "vm", source(), OPTIONS, ENTRIES, _modules)


# ---- uploading ----------------------------------------------------------------------------------


class _Programs:
    """Every program's flat arrays concatenated, uploaded once, and a table of kiln_program
    structs (PROGRAM_WORDS words each) pointing into them."""

    FIELDS = ("code", "consts", "image", "types", "type_skip", "type_off", "funcs", "params")

    def __init__(self, cupy: Any, flat: list[FlatProgram]) -> None:
        self.arrays: dict[str, Any] = {}
        starts: dict[str, list[int]] = {}
        for name in self.FIELDS:
            parts = [getattr(f, name) for f in flat]
            lengths = [len(p) for p in parts]
            starts[name] = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64).tolist()
            dtype = parts[0].dtype if parts else np.int64
            joined = np.concatenate(parts) if parts and sum(lengths) else np.zeros(1, dtype=dtype)
            self.arrays[name] = cupy.asarray(joined)
        table = np.zeros((max(1, len(flat)), PROGRAM_WORDS), dtype=np.uint64)
        for i, f in enumerate(flat):

            def ptr(name: str, i: int = i) -> int:
                array = self.arrays[name]
                return int(array.data.ptr) + starts[name][i] * array.itemsize

            table[i] = [
                ptr("code"), f.n_code, ptr("consts"), f.n_consts, ptr("image"), f.n_image,
                ptr("types"), ptr("type_skip"), f.n_types_words, ptr("type_off"), f.n_types,
                ptr("funcs"), f.n_funcs, ptr("params"), f.n_params, f.max_type_depth,
            ]  # fmt: skip
        self.table = cupy.asarray(table)
        self.count = len(flat)
        self.walk_cap = max((f.max_type_depth for f in flat), default=0) + 1
        self.ok = cupy.zeros(max(1, len(flat)), dtype=cupy.int32)
        if flat:
            blocks = (len(flat) + BLOCK - 1) // BLOCK
            check = module().get_function("kiln_check_programs")
            check((blocks,), (BLOCK,), (self.table, np.int64(len(flat)), self.ok))


def scratch_bytes_per_thread(limits: Limits, walk_cap: int) -> int:
    """Device memory one resident thread's scratch slabs take (stack, frames, heap, walk)."""
    return (
        8 * limits.stack_words + FRAME_BYTES * limits.max_call_depth
        + 8 * limits.heap_words + WALK_BYTES * walk_cap
    )  # fmt: skip


def resident_threads(limits: Limits, walk_cap: int, n_items: int, budget: int | None = None) -> int:
    """How many threads get scratch slabs: as many as `budget` bytes allow (default: half the free
    device memory), at most one per item and what the device holds resident, a multiple of the
    warp size from 32 up. MemoryError when not even one fits."""
    cupy = _cupy()
    per_thread = scratch_bytes_per_thread(limits, walk_cap)
    if budget is None:
        free, _ = cupy.cuda.runtime.memGetInfo()
        budget = int(free * SCRATCH_FRACTION)
    attributes = cupy.cuda.Device().attributes
    resident = attributes["MultiProcessorCount"] * attributes["MaxThreadsPerMultiProcessor"]
    n = min(budget // per_thread, resident, max(1, n_items))
    if n < 1:
        raise MemoryError(
            f"one CUDA thread's scratch with {limits} takes {per_thread} bytes, more than the "
            f"budget of {budget}: lower heap_words or stack_words"
        )
    return n - n % 32 if n >= 32 else n


class _Scratch:
    """Scratch slabs for `resident_threads` threads, which stride over the items."""

    def __init__(
        self, cupy: Any, limits: Limits, walk_cap: int, n_items: int, budget: int | None
    ) -> None:
        n = self.n_threads = resident_threads(limits, walk_cap, n_items, budget)
        self.stacks = cupy.empty(n * limits.stack_words, dtype=cupy.int64)
        self.frames = cupy.empty(n * limits.max_call_depth * FRAME_BYTES // 8, dtype=cupy.int64)
        self.heaps = cupy.empty(n * limits.heap_words, dtype=cupy.int64)
        self.walks = cupy.empty(n * walk_cap * WALK_BYTES // 8, dtype=cupy.int64)
        self.walk_cap = walk_cap

    @property
    def grid(self) -> tuple[int]:
        return ((self.n_threads + BLOCK - 1) // BLOCK,)

    def args(self, limits: Limits) -> tuple[Any, ...]:
        return (
            np.int64(limits.fuel), np.int64(limits.stack_words), np.int64(limits.max_call_depth),
            np.int64(limits.heap_words), np.int64(self.n_threads),
            self.stacks, self.frames, self.heaps, self.walks, np.int64(self.walk_cap),
        )  # fmt: skip


def _reduce_grid(n: int) -> tuple[int]:
    return (max(1, min((n + BLOCK - 1) // BLOCK, 4096)),)


# ---- verification batches -----------------------------------------------------------------------


def verify_batch(
    batch: VerifyBatch,
    limits: Limits,
    *,
    scratch_bytes: int | None = None,
    host_ops: Sequence[str] = HOST_OPS,
) -> VerifyResult:
    """Run every item of `batch`, compare where it ran, reduce per candidate on the device and
    download only the verdicts. The items of a program that uses one of HOST_OPS (float pow) run
    on the host's C VM instead (`vm.cpu.verify_items`, same limits and per-test fuel), while the
    device runs the others; their statuses, traps and steps are uploaded next to the device's and
    reduced with them, so every verdict is the C VM's bit for bit. timings (seconds): "prepare"
    (verifying and flattening programs on the host), "upload", "kernel" (CUDA events around the
    kernels), "host" (the host's C VM on the pow items, overlapping the verify kernel),
    "download"; and "host_items", the number of items that ran on the host.
    `scratch_bytes` bounds the scratch slabs (default: half the free device memory); `host_ops=()`
    runs every item on the device (tests measuring the device's own pow: never for a verdict).
    CudaUnavailable without CuPy or a device; VerifyError and ValueError as vm.run.verify;
    BuildError when pow items need the host's C VM and it cannot be built."""
    cupy = _cupy()
    started = time.perf_counter()
    inputs = verify_inputs(batch, _verified_by_c)
    n_items, n_cand = len(inputs.items), len(inputs.cand_program)
    # the device's items first, then the host's: the reductions do not depend on the order
    host = _program_on_host(on_host(inputs.flat, host_ops), inputs.cand_program[inputs.items[:, 0]])
    device_items = inputs.items[~host]
    host_inputs = dataclasses.replace(inputs, items=np.ascontiguousarray(inputs.items[host]))
    n_device, n_host = len(device_items), len(host_inputs.items)
    items = np.ascontiguousarray(np.concatenate([device_items, host_inputs.items]))
    functions = module()
    prepared = time.perf_counter()

    up = {
        name: cupy.asarray(getattr(inputs, name))
        for name in ("cand_program", "cand_function", "cand_tests", "arg_words", "arg_offsets",
                     "expected_words", "expected_offsets", "mode", "tolerance", "fuel")
    }  # fmt: skip
    up["items"] = cupy.asarray(items)
    trap_verdict = cupy.asarray(
        np.array([0] + [verdict_of_trap(t.code) for t in TRAPS[1:]], dtype=np.int8)
    )
    size = max(1, n_items)
    status = poisoned(cupy, size, np.int8)  # every item's is written, by the device or the host
    trap = poisoned(cupy, size, np.int8)
    steps = poisoned(cupy, size, np.int64)
    first = cupy.full(max(1, n_cand), np.iinfo(np.int32).max, dtype=cupy.int32)
    total = cupy.zeros(max(1, n_cand), dtype=cupy.uint64)
    verdict = cupy.zeros(max(1, n_cand), dtype=cupy.int8)
    fail_test = cupy.full(max(1, n_cand), -1, dtype=cupy.int32)
    trap_out = cupy.zeros(max(1, n_cand), dtype=cupy.int8)
    if n_device:
        programs = _Programs(cupy, inputs.flat)
        scratch = _Scratch(cupy, limits, programs.walk_cap, n_device, scratch_bytes)
    cupy.cuda.get_current_stream().synchronize()
    uploaded = time.perf_counter()

    begin, ran = cupy.cuda.Event(), cupy.cuda.Event()
    begin.record()
    if n_device:
        functions.get_function("kiln_verify_items")(
            scratch.grid, (BLOCK,),
            (
                programs.table, np.int64(programs.count), programs.ok,
                up["cand_program"], up["cand_function"], up["cand_tests"], np.int64(n_cand),
                up["arg_words"], np.int64(inputs.n_arg_words), up["arg_offsets"],
                up["expected_words"], np.int64(inputs.n_expected_words), up["expected_offsets"],
                up["mode"], up["tolerance"], up["fuel"], np.int64(len(inputs.mode)),
                up["items"], np.int64(n_device),
                *scratch.args(limits),
                status, trap, steps,
            ),
        )  # fmt: skip
    ran.record()
    host_started = time.perf_counter()  # the kernel runs on meanwhile
    if n_host:
        from vm import cpu

        for device_array, values in zip(
            (status, trap, steps), cpu.verify_items(host_inputs, limits), strict=True
        ):
            device_array[n_device:n_items] = cupy.asarray(values)
    host_s = time.perf_counter() - host_started
    reduce_begin, end = cupy.cuda.Event(), cupy.cuda.Event()
    reduce_begin.record()
    if n_items:
        grid = _reduce_grid(n_items)
        functions.get_function("kiln_reduce_first")(
            grid, (BLOCK,),
            (up["items"], np.int64(n_items), np.int64(n_cand), status, steps, first, total),
        )  # fmt: skip
        functions.get_function("kiln_reduce_verdicts")(
            grid, (BLOCK,),
            (
                up["items"], np.int64(n_items), np.int64(n_cand), status, trap, first,
                up["cand_tests"], trap_verdict, np.int32(len(TRAPS)), np.int32(WRONG_ANSWER),
                verdict, fail_test, trap_out,
            ),
        )  # fmt: skip
    end.record()
    end.synchronize()
    kernel = (
        cupy.cuda.get_elapsed_time(begin, ran) + cupy.cuda.get_elapsed_time(reduce_begin, end)
    ) / 1000.0
    if n_items:
        p8, p64 = POISON[np.dtype(np.int8)], POISON[np.dtype(np.int64)]
        left = int(
            cupy.count_nonzero(
                (status[:n_items] == p8) | (trap[:n_items] == p8) | (steps[:n_items] == p64)
            )
        )
        if left:
            raise DeviceLeftResults(f"kiln_verify_items left {left} of {n_items} items unwritten")

    downloaded_from = time.perf_counter()
    result = VerifyResult(
        cupy.asnumpy(verdict)[:n_cand],
        cupy.asnumpy(fail_test)[:n_cand],
        cupy.asnumpy(trap_out)[:n_cand],
        cupy.asnumpy(total)[:n_cand].astype(np.int64),
    )
    done = time.perf_counter()
    result.timings.update(
        prepare=prepared - started, upload=uploaded - prepared, kernel=kernel,
        download=done - downloaded_from, host=host_s, host_items=n_host,
    )  # fmt: skip
    return result


# ---- plain runs (vm.execute_batch) ---------------------------------------------------------------

OUT_WORDS = 64
"""Result words per item on the first pass; larger results are run again with room for them."""


def run_batch(
    items: Sequence[tuple[Any, str | int, Sequence[Any]]],
    limits: Limits,
    *,
    scratch_bytes: int | None = None,
    stats: dict[str, float] | None = None,
    host_ops: Sequence[str] = HOST_OPS,
) -> list[ExecResult]:
    """Run each `(program, function name or index, args)` on the device; one ExecResult per item,
    in order: the same interface and checks as `vm.cpu.run_batch` (its marshalling is shared).
    Results longer than OUT_WORDS words are run a second time with room for the longest. The
    items of a program that uses one of HOST_OPS (float pow) run on the host's C VM instead
    (`vm.cpu.run_batch`, same limits), merged back in order: every result is the C VM's bit for
    bit. `stats`, when given, gets "host_items" (how many ran on the host), "device_items" and
    "host" (its seconds). `host_ops=()` runs every item on the device (tests measuring the
    device's own pow: never for a verdict)."""
    from vm import cpu

    cupy = _cupy()
    prepared = cpu.prepare_items(items)
    n = len(items)
    if not n:
        if stats is not None:
            stats.update(host_items=0, device_items=0, host=0.0)
        return []
    flat = [flatten(p) for p in prepared.programs]
    program = np.asarray(prepared.table["prog"], dtype=np.int64)
    host = _program_on_host(on_host(flat, host_ops), program)
    traps = np.zeros(n, dtype=np.int32)
    steps = np.zeros(n, dtype=np.int64)
    words: list[list[int]] = [[] for _ in range(n)]  # each item's result words
    on_the_host = np.nonzero(host)[0].tolist()
    host_results: list[ExecResult] | None = None
    host_s = 0.0

    def run_on_host() -> list[ExecResult]:
        nonlocal host_s
        started = time.perf_counter()
        # verified already (prepare_items): the C VM runs them as its own batch
        ran = cpu.run_batch([items[k] for k in on_the_host], limits, verify=False)
        host_s = time.perf_counter() - started
        return ran

    todo = np.nonzero(~host)[0]
    if len(todo):
        programs = _Programs(cupy, flat)
        table = prepared.table
        prog = cupy.asarray(np.ascontiguousarray(table["prog"]))
        func = cupy.asarray(np.ascontiguousarray(table["func"]))
        arg_off = cupy.asarray(np.ascontiguousarray(table["arg_off"]))
        arg_len = cupy.asarray(np.ascontiguousarray(table["arg_len"]))
        args = cupy.asarray(prepared.args)
        kernel = module().get_function("kiln_run_items")
    out_cap = OUT_WORDS
    while len(todo):
        index = cupy.asarray(todo)
        scratch = _Scratch(cupy, limits, programs.walk_cap, len(todo), scratch_bytes)
        outs = poisoned(cupy, len(todo) * out_cap, np.int64)
        out_len = poisoned(cupy, len(todo), np.int64)
        d_traps = poisoned(cupy, len(todo), np.int32)
        d_steps = poisoned(cupy, len(todo), np.int64)
        kernel(
            scratch.grid, (BLOCK,),
            (
                programs.table, np.int64(programs.count), programs.ok,
                prog[index], func[index], arg_off[index], arg_len[index], args,
                np.int64(prepared.n_args), np.int64(len(todo)),
                *scratch.args(limits), outs, np.int64(out_cap), out_len, d_traps, d_steps,
            ),
        )  # fmt: skip
        if host_results is None and on_the_host:  # while the first pass runs on the device
            host_results = run_on_host()
        got_traps, got_steps = cupy.asnumpy(d_traps), cupy.asnumpy(d_steps)
        got_len, got_outs = cupy.asnumpy(out_len), cupy.asnumpy(outs)
        left = np.union1d(
            np.union1d(unwritten(got_traps), unwritten(got_steps)), unwritten(got_len)
        )
        if len(left):
            raise DeviceLeftResults(
                f"kiln_run_items left {len(left)} of {len(todo)} items unwritten: "
                f"{left[:10].tolist()}"
            )
        again = got_traps == -1
        for j, k in enumerate(todo):
            if not again[j]:
                traps[k], steps[k] = got_traps[j], got_steps[j]
                words[k] = got_outs[j * out_cap : j * out_cap + got_len[j]].tolist()
        todo = todo[again]
        if len(todo):
            out_cap = int(got_len[again].max())
    if host_results is None and on_the_host:  # no item ran on the device
        host_results = run_on_host()
    traps[on_the_host] = 1  # a stand-in (a trap reads no words), replaced just below
    lengths = [len(w) for w in words]
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64).tolist()
    flat_words = [word for w in words for word in w]
    results = prepared.results(traps.tolist(), steps.tolist(), flat_words, offsets, lengths)
    for at, result in zip(on_the_host, host_results or [], strict=True):
        results[at] = result
    if stats is not None:
        stats.update(host_items=len(on_the_host), device_items=n - len(on_the_host), host=host_s)
    return results


def _verified_by_c(flat: FlatProgram) -> bool:
    """vm.cpu's check of a trusted batch's program (the C verifier runs on the host); False
    where the CPU library cannot be built here (then vm.verify checks the program)."""
    try:
        from vm import cpu

        return cpu.verified_by_c(flat)
    except (BuildError, OSError):
        return False
