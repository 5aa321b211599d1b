"""The CUDA backend's launcher (vm/cuda.py) on the CPU: the very text NVRTC compiles
(`vm.cuda.source()`) built for the host, each kernel run thread by thread, and CuPy stood in for
by NumPy. It checks, with no GPU, what the device tests rely on: verify_batch and run_batch give
the C VM's results in full (through tests/_gpu_compare.py, as tests/test_gpu_backend.py does on a
device), the second pass for long results, a small scratch budget striding over many items, and
the poisoned output buffers: a kernel that skips an item raises DeviceLeftResults instead of
passing its zeros off as results.

The emulated device's pow is deliberately wrong, as a real device's may be (CUDA's libdevice pow
is documented within 2 ulp; an H200 gave 3.0 ** 1.0 == 2.9999999999999996): in this build only,
kiln_pow_f's pow() is one ulp toward zero (EMU_POW, `emu_set_pow_ulps`). The results still equal
the C VM's exactly because vm/cuda.py runs the items of programs using POW_F on the host
(vm.cuda.HOST_OPS); with that routing off (`host_ops=()`) they would not. What it cannot check is
the device itself (its compiler, its libdevice pow, its memory): that is
tests/test_gpu_backend.py's, on a device."""

from __future__ import annotations

import ctypes
import math
import shutil
import subprocess
import types
from typing import Any

import numpy as np
import pytest
from _gpu_compare import POW_SOURCE, check, differences, ops_of
from test_verify_batch import (
    LIMITS,
    Entry,
    adversarial_entries,
    assert_same,
    build,
    corpus_entries,
    fuzz_entries,
)

from compiler import compile_source
from core.jobs import TestSpec
from vm import cuda, execute_batch
from vm.batch import PASSED, WRONG_ANSWER
from vm.build import KERNELS
from vm.run import verify

HEAD = r"""
#include <math.h>
/* the emulated device's pow: the host's, this many ulps toward zero (0: the host's own) */
static int emu_pow_ulps = 1;
static double emu_pow(double x, double y) {
    double p = pow(x, y);
    for (int k = 0; k < emu_pow_ulps && p != 0.0 && isfinite(p); k++) p = nextafter(p, 0.0);
    return p;
}
#define __global__
#define __device__
struct emu_dim3 { unsigned x, y, z; };
static emu_dim3 blockIdx, blockDim, threadIdx, gridDim;
static inline unsigned long long atomicAdd(unsigned long long *at, unsigned long long v) {
    unsigned long long old = *at; *at = old + v; return old;
}
static inline int atomicMin(int *at, int v) { int old = *at; if (v < old) *at = v; return old; }
"""

TAIL = r"""
extern "C" void emu_set_pow_ulps(int ulps) { emu_pow_ulps = ulps; }
extern "C" void emu_at(unsigned grid, unsigned block, unsigned b, unsigned t) {
    gridDim.x = grid; blockDim.x = block; blockIdx.x = b; threadIdx.x = t;
}
"""


EMU_POW = ("double p = pow(x, y);", "double p = emu_pow(x, y);")
"""kiln_pow_f's one call of the C library's pow, and what the emulated build calls instead."""


def emulated_source() -> str:
    """vm.cuda.source() with its pow() call replaced by the emulated device's (EMU_POW)."""
    text = cuda.source()
    assert text.count(EMU_POW[0]) == 1, "kiln_pow_f's pow() call changed: update EMU_POW"
    return text.replace(*EMU_POW)


class _DeviceArray(np.ndarray):
    """A NumPy array standing in for a CuPy one: `.data.ptr` is its address."""

    @property
    def data(self) -> Any:  # type: ignore[override]
        return types.SimpleNamespace(ptr=self.ctypes.data)


class _Module:
    """The kernels of the host build, launched as the device would run them, one thread at a
    time; `skip` names a kernel and an item index it leaves unwritten (a faulty kernel)."""

    def __init__(self, lib: ctypes.CDLL) -> None:
        self.lib = lib
        self.skip: dict[str, int] = {}

    def get_function(self, name: str) -> Any:
        kernel = getattr(self.lib, name)

        def launch(grid: tuple[int], block: tuple[int], args: tuple[Any, ...]) -> None:
            converted = [
                ctypes.c_void_p(a.ctypes.data)
                if isinstance(a, np.ndarray)
                else ctypes.c_int64(int(a))
                for a in args
            ]
            saved = self._fault(name, args)
            for b in range(grid[0]):
                for t in range(block[0]):
                    self.lib.emu_at(grid[0], block[0], b, t)
                    kernel(*converted)
            for array, at, value in saved:  # the skipped item's outputs as the launcher made them
                array[at] = value

        return launch

    def _fault(self, name: str, args: tuple[Any, ...]) -> list[tuple[np.ndarray, Any, Any]]:
        """(array, index, its value before the launch) for every output of the skipped item, to
        put back after the launch, as though the kernel had never written that item."""
        if name not in self.skip:
            return []
        k = self.skip[name]
        if name == "kiln_verify_items":  # ..., status, trap, steps
            at: list[tuple[np.ndarray, Any]] = [(a, k) for a in args[-3:]]
        else:  # kiln_run_items: ..., outs, out_cap, out_len, traps, steps
            cap = int(args[-4])
            at = [(a, k) for a in args[-3:]] + [(args[-5], slice(k * cap, (k + 1) * cap))]
        return [(a, i, np.copy(a[i])) for a, i in at]


class _Cupy:
    """The part of CuPy vm/cuda.py uses, on host memory."""

    int8, int32, int64, uint64 = np.int8, np.int32, np.int64, np.uint64

    def __init__(self, free: int = 1 << 30, threads: int = 64) -> None:
        event = types.SimpleNamespace(record=lambda: None, synchronize=lambda: None)
        self.cuda = types.SimpleNamespace(
            runtime=types.SimpleNamespace(memGetInfo=lambda: (free, 2 * free)),
            Device=lambda: types.SimpleNamespace(
                attributes={"MultiProcessorCount": 1, "MaxThreadsPerMultiProcessor": threads}
            ),
            Event=lambda: event,
            get_elapsed_time=lambda a, b: 0.0,
            get_current_stream=lambda: types.SimpleNamespace(synchronize=lambda: None),
        )

    @staticmethod
    def asarray(a: Any) -> _DeviceArray:
        return np.ascontiguousarray(a).view(_DeviceArray)

    def zeros(self, n: int, dtype: Any) -> _DeviceArray:
        return self.asarray(np.zeros(n, dtype))

    def empty(self, n: int, dtype: Any) -> _DeviceArray:
        return self.asarray(np.empty(n, dtype))

    def full(self, n: int, value: Any, dtype: Any) -> _DeviceArray:
        return self.asarray(np.full(n, value, dtype))

    @staticmethod
    def asnumpy(a: np.ndarray) -> np.ndarray:
        return np.array(a)

    @staticmethod
    def count_nonzero(a: np.ndarray) -> int:
        return int(np.count_nonzero(a))


@pytest.fixture(scope="module")
def host_kernels(tmp_path_factory) -> ctypes.CDLL:
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("needs g++")
    folder = tmp_path_factory.mktemp("cuda-emu")
    (folder / "emu.cpp").write_text(HEAD + emulated_source() + TAIL)
    command = [gxx, "-std=c++17", "-O1", "-fPIC", "-shared", f"-I{KERNELS}", "emu.cpp"]
    done = subprocess.run([*command, "-o", "emu.so"], capture_output=True, text=True, cwd=folder)
    assert done.returncode == 0, done.stderr[-3000:]
    return ctypes.CDLL(str(folder / "emu.so"))


@pytest.fixture()
def device(host_kernels, monkeypatch) -> _Module:
    module = _Module(host_kernels)
    fake = _Cupy()
    monkeypatch.setattr(cuda, "_cupy", lambda: fake)
    monkeypatch.setattr(cuda, "module", lambda: module)
    return module


def _items(entries):
    return [(e.program, e.function, list(t.args)) for e in entries for t in e.tests]


def test_verify_batches_give_the_c_vms_verdicts(device):
    for entries, limits, shuffle in (
        (adversarial_entries(), LIMITS, 5),
        (corpus_entries()[::3], LIMITS, None),
        (fuzz_entries(150, seed=31), LIMITS, 2),
    ):
        batch = build(entries, shuffle=shuffle)
        got = verify(batch, backend="cuda", limits=limits)
        assert_same(got, verify(batch, backend="cpu", limits=limits))
        assert {"prepare", "upload", "kernel", "download"} <= set(got.timings)


def test_plain_runs_give_the_c_vms_results_in_full(device):
    items = _items(adversarial_entries() + fuzz_entries(120, seed=8))
    long = compile_source("def f(n: int) -> list[int]:\n    return list(range(n))\n")
    items += [(long, "f", [n]) for n in (0, 64, 65, 3000)]  # past OUT_WORDS: a second pass
    want = execute_batch(items, backend="cpu", limits=LIMITS)
    got = execute_batch(items, backend="cuda", limits=LIMITS)
    check(items, want, got)
    assert got[-1].value == list(range(3000))


def test_few_resident_threads_stride_over_many_items(device):
    batch = build(adversarial_entries() * 6, shuffle=1)
    per_thread = cuda.scratch_bytes_per_thread(LIMITS, 16)
    want = verify(batch, backend="cpu", limits=LIMITS)
    for threads in (1, 33):
        got = cuda.verify_batch(batch, LIMITS, scratch_bytes=threads * per_thread)
        assert_same(got, want, f"{threads} threads: ")


def test_an_item_the_verify_kernel_leaves_unwritten_raises(device):
    batch = build(adversarial_entries())
    device.skip["kiln_verify_items"] = 3
    with pytest.raises(cuda.DeviceLeftResults, match="left 1 of"):
        cuda.verify_batch(batch, LIMITS)


def test_an_item_the_run_kernel_leaves_unwritten_raises(device):
    items = _items(adversarial_entries())
    device.skip["kiln_run_items"] = 2
    with pytest.raises(cuda.DeviceLeftResults, match=r"left 1 of \d+ items unwritten: \[2\]"):
        cuda.run_batch(items, LIMITS)


def test_zeroed_buffers_would_have_hidden_it(device, monkeypatch):
    """Why the buffers are poisoned: with zeros, the unwritten item reads as a real result (trap
    0: a value, the zero-length or zero-valued one) and nothing says otherwise."""
    items = _items(adversarial_entries())
    device.skip["kiln_run_items"] = 0
    monkeypatch.setattr(cuda, "poisoned", lambda cupy, n, dtype: cupy.zeros(n, dtype=dtype))
    got = cuda.run_batch(items, LIMITS)
    want = execute_batch(items, backend="cpu", limits=LIMITS)
    assert [d.index for d in differences(want, got)] == [0]  # only the full comparison sees it


# ---- float pow: the emulated device's is wrong, and its items run on the host ----------------

POWERS = """
def branch(x: float, y: float) -> int:
    if x ** y >= 3.0:
        return 1
    return 0

def walk(x: float, n: int) -> float:
    t = 0.0
    for i in range(n):
        t = t + x ** (0.5 + i)
    return t
"""


def _pow_entries() -> list[Entry]:
    """Candidates whose verdicts a pow one ulp off changes: each test's expected value is
    CPython's."""
    program = compile_source(POWERS, "<powers>")
    namespace: dict = {}
    exec(POWERS, namespace)  # noqa: S102 - the program's own source, for CPython's answers
    entries = []
    for name, cases in (
        ("branch", [(3.0, 1.0), (2.0, 2.0), (9.0, 0.5), (1.5, 2.0)]),
        ("walk", [(1.7, 5), (3.1, 3), (2.0, 4)]),
    ):
        tests = [TestSpec(args, namespace[name](*args)) for args in cases]
        entries.append(Entry(name, program, program.function_index(name), tests))
    return entries


def _pow_items(entries: list[Entry]) -> int:
    """How many items of `entries` belong to a program using a host op."""
    return sum(len(e.tests) for e in entries if set(cuda.HOST_OPS) & ops_of(e.program))


def test_the_emulated_devices_pow_is_wrong(device, host_kernels):
    """The raw op on the emulated device (routing off) is one ulp toward zero, as an H200's was;
    with the host's pow restored it is the C VM's again. The hook, not something else, differs."""
    program = compile_source(POW_SOURCE)
    items = [(program, "f", [3.0, 1.0]), (program, "f", [2.0, 0.5]), (program, "f", [0.0, 2.0])]
    want = execute_batch(items, backend="cpu", limits=LIMITS)
    raw = cuda.run_batch(items, LIMITS, host_ops=())
    assert [r.value for r in want] == [3.0, 2.0**0.5, 0.0]
    assert raw[0].value == 2.9999999999999996 and raw[1].value == math.nextafter(2.0**0.5, 0)
    assert [d.index for d in differences(want, raw)] == [0, 1]
    host_kernels.emu_set_pow_ulps(0)
    try:
        check(items, want, cuda.run_batch(items, LIMITS, host_ops=()))
    finally:
        host_kernels.emu_set_pow_ulps(1)


def test_pow_items_run_on_the_host_and_equal_the_c_vm(device):
    entries = _pow_entries() + fuzz_entries(150, seed=31) + adversarial_entries()
    n_pow = _pow_items(entries)
    assert n_pow >= 7 + 10  # the pow candidates' items and some generated programs'
    for shuffle in (None, 4):
        batch = build(entries, shuffle=shuffle)
        got = cuda.verify_batch(batch, LIMITS)
        assert_same(got, verify(batch, backend="cpu", limits=LIMITS), f"shuffle {shuffle}: ")
        assert got.timings["host_items"] == n_pow and "host" in got.timings
    items = _items(entries)
    stats: dict = {}
    got_items = cuda.run_batch(items, LIMITS, stats=stats)
    check(items, execute_batch(items, backend="cpu", limits=LIMITS), got_items)
    assert stats["host_items"] == n_pow and stats["device_items"] == len(items) - n_pow


def test_an_all_pow_batch_runs_wholly_on_the_host(device):
    entries = _pow_entries()
    batch = build(entries)
    got = cuda.verify_batch(batch, LIMITS)
    assert_same(got, verify(batch, backend="cpu", limits=LIMITS))
    assert got.timings["host_items"] == len(batch.items) == 7
    items = _items(entries)
    stats: dict = {}
    check(
        items,
        execute_batch(items, backend="cpu", limits=LIMITS),
        cuda.run_batch(items, LIMITS, stats=stats),
    )
    assert stats == {"host_items": 7, "device_items": 0, "host": stats["host"]}


def test_without_the_routing_the_device_would_differ(device):
    """The same batches with every item on the (wrong-pow) device: verdicts and results differ
    from the C VM's; a verdict flips (branch(3.0, 1.0): 3.0 ** 1.0 < 3.0 on the device)."""
    entries = _pow_entries() + fuzz_entries(150, seed=31)
    batch = build(entries)
    want = verify(batch, backend="cpu", limits=LIMITS)
    raw = cuda.verify_batch(batch, LIMITS, host_ops=())
    assert raw.timings["host_items"] == 0
    assert want.verdict[0] == PASSED and raw.verdict[0] == WRONG_ANSWER and raw.fail_test[0] == 0
    items = _items(entries)
    raw_items = cuda.run_batch(items, LIMITS, host_ops=())
    found = differences(execute_batch(items, backend="cpu", limits=LIMITS), raw_items)
    assert found and {d.index for d in found} <= {
        k for k, (program, _, _) in enumerate(items) if "POW_F" in ops_of(program)
    }
    with pytest.raises(AssertionError, match="in programs using POW_F"):
        check(items, execute_batch(items, backend="cpu", limits=LIMITS), raw_items)


def test_empty_and_malformed_batches_with_pow_programs(device):
    """No items at all; a pow candidate's item naming a test outside its range (MemoryFault on
    the host's C VM, as on the device for a program without pow)."""
    for entries in (_pow_entries(), adversarial_entries()[:1]):
        batch = build(entries)
        batch.items = batch.items[:0]
        got = cuda.verify_batch(batch, LIMITS)
        assert_same(got, verify(batch, backend="cpu", limits=LIMITS))
        assert got.timings["host_items"] == 0
        batch = build(entries)
        batch.items = np.array([[0, 0], [0, 9], [len(entries) - 1, 1]], dtype=np.int32)
        got = cuda.verify_batch(batch, LIMITS)
        assert_same(got, verify(batch, backend="cpu", limits=LIMITS))
        assert got.verdict[0] == 4 and got.fail_test[0] == 9
    stats: dict = {}
    assert cuda.run_batch([], LIMITS, stats=stats) == [] and stats["host_items"] == 0
