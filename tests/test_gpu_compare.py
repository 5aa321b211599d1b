"""The GPU tests' comparison helpers (tests/_gpu_compare.py) and the launchers' poisoned output
buffers (vm.cuda.POISON), on the CPU: the C VM stands in for the device, its results tampered
with as a faulty device's would be, or computed with a pow that rounds differently as CUDA's
libdevice does. No difference passes, not even one that pow explains: vm/cuda.py runs such
programs' items on the host (tests/test_cuda_emulated.py proves the routing).
"""

from __future__ import annotations

import math
import struct
from dataclasses import replace

import numpy as np
import pytest
from _gpu_compare import check, differences, ops_of
from test_verify_batch import LIMITS, fuzz_entries

from compiler import compile_source
from vm import ExecResult, cuda, execute_batch

POWERS = """
def walk(x: float, n: int) -> float:
    t = 0.0
    for i in range(n):
        t = t + x ** (0.5 + i)
    return t

def branch(x: float, y: float) -> int:
    if x ** y >= 3.0:
        return 1
    return 0

def plain(x: float, n: int) -> float:
    return x * n
"""


def _program():
    return compile_source(POWERS, "<powers>")


def _libdevice_like(items):
    """What a device whose pow rounds one ulp toward zero (as an H200's gave 3.0 ** 1.0 ==
    2.9999999999999996) returns without routing: the reference VM with that pow."""
    from vm import ref

    host = ref.BINARY["POW_F"]

    def off(a: int, b: int) -> int:
        word = host(a, b)
        x = struct.unpack("<d", struct.pack("<q", word))[0]
        if x == 0.0 or not math.isfinite(x):
            return word
        return struct.unpack("<q", struct.pack("<d", math.nextafter(x, 0.0)))[0]

    ref.BINARY["POW_F"] = off
    try:
        return execute_batch(items, backend="ref", limits=LIMITS)
    finally:
        ref.BINARY["POW_F"] = host


def test_the_c_vm_against_itself_has_no_differences():
    entries = fuzz_entries(60, seed=5)
    items = [(e.program, e.function, list(t.args)) for e in entries for t in e.tests]
    want = execute_batch(items, backend="cpu", limits=LIMITS)
    again = execute_batch(items, backend="cpu", limits=LIMITS)
    assert differences(want, again) == []
    check(items, want, again)


def test_a_pow_difference_is_not_exempt_and_is_named():
    """What the exemption used to let through (vm.cuda.DEVICE_ROUNDING): a last-ulp pow, here
    one that flips a branch. Now it fails, naming the programs that should have run on the host."""
    program = _program()
    assert "POW_F" in ops_of(program) and set(cuda.HOST_OPS) <= ops_of(program)
    items = [
        (program, "walk", [1.7, 5]),
        (program, "branch", [3.0, 1.0]),
        (program, "plain", [2.0, 3]),
    ]
    want = execute_batch(items, backend="cpu", limits=LIMITS)
    got = _libdevice_like(items)
    found = differences(want, got)
    assert [d.index for d in found] == [0, 1] and found[0].fields == ["value"]
    assert want[1].value == 1 and got[1].value == 0  # 3.0 ** 1.0 == 2.9999999999999996 < 3.0
    with pytest.raises(
        AssertionError, match=r"2 of 3 items differ .*\(2 of them in programs using POW_F"
    ):
        check(items, want, got)


@pytest.mark.parametrize(
    "tamper",
    [
        lambda r: replace(r, steps=r.steps + 1),  # the steps, not the value, differ
        lambda r: replace(r, value=r.value * 2),  # a wrong value
        lambda r: ExecResult(None, "MemoryFault", r.steps),  # a trap instead
        lambda r: ExecResult(0x7FF4DEADBEEF0BAD, None, r.steps),  # an unwritten (poisoned) word
    ],
)
def test_any_difference_fails(tamper):
    program = _program()
    items = [(program, "walk", [1.7, 5]), (program, "plain", [2.0, 3])]
    want = execute_batch(items, backend="cpu", limits=LIMITS)
    got = [tamper(r) for r in want]
    assert [d.index for d in differences(want, got)] == [0, 1]
    with pytest.raises(AssertionError, match="2 of 2 items differ on the device"):
        check(items, want, got)


# ---- poisoned output buffers ---------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8])
def test_poisoned_buffers_show_what_was_left_unwritten(dtype):
    values = cuda.poisoned(np, 6, dtype)  # NumPy stands in for CuPy: the same full()
    assert len(cuda.unwritten(values)) == 6
    values[[0, 2, 5]] = 0
    assert cuda.unwritten(values).tolist() == [1, 3, 4]
    # the poison is none of the values the kernels write there
    assert cuda.POISON[np.dtype(dtype)] not in (0, 1, 2, -1)


def test_a_poisoned_result_word_decodes_to_no_plausible_value():
    word = cuda.POISON[np.dtype(np.int64)]
    assert math.isnan(struct.unpack("<d", struct.pack("<q", word))[0])
    assert word > 1 << 62  # as an int, nothing a test expects by chance
