"""The GPU tests' comparison helpers (tests/_gpu_compare.py) and the launchers' poisoned output
buffers (vm.cuda.POISON), on the CPU: the C VM stands in for the device, its results tampered
with as a faulty device's would be, or computed with a pow that rounds differently as CUDA's
libdevice may (the only difference the GPU tests exempt, and only where it explains the result).
"""

from __future__ import annotations

import math
import struct
from dataclasses import replace

import numpy as np
import pytest
from _gpu_compare import (
    POW_SOURCE,
    check,
    describe,
    differences,
    explain,
    ops_of,
    run_with_pow,
)
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
    if x ** y > 2.0:
        return 1
    return 0

def plain(x: float, n: int) -> float:
    return x * n
"""


def _program():
    return compile_source(POWERS, "<powers>")


def _next_up(x: float) -> float:
    return math.nextafter(x, math.inf)


def _device_pow(off_by_one: bool):
    """A stand-in for the device's x ** y: the host's, one ulp up where `off_by_one` (within
    CUDA's documented 2 ulp)."""
    host = compile_source(POW_SOURCE)

    def run(pairs):
        results = execute_batch([(host, "f", [x, y]) for x, y in pairs], backend="cpu")
        if not off_by_one:
            return results
        return [
            r if r.trap or not math.isfinite(r.value) else replace(r, value=_next_up(r.value))
            for r in results
        ]

    return run


def _table(items, device_pow):
    """What a device whose pow is `device_pow` returns: the reference VM with its pow."""
    got = []
    for item in items:
        table = {}
        for _ in range(6):
            result, missing = run_with_pow(item, LIMITS, table)
            if not missing:
                break
            pairs = sorted(missing)
            measured = device_pow(
                [tuple(struct.unpack("<d", struct.pack("<Q", w))[0] for w in p) for p in pairs]
            )
            for p, r in zip(pairs, measured, strict=True):
                bits = struct.unpack("<Q", struct.pack("<d", r.value))[0] if not r.trap else 0
                table[p] = ("raise", r.trap) if r.trap else ("value", bits)
        got.append(result)
    return got


def test_the_c_vm_against_itself_has_no_differences():
    entries = fuzz_entries(60, seed=5)
    items = [(e.program, e.function, list(t.args)) for e in entries for t in e.tests]
    want = execute_batch(items, backend="cpu", limits=LIMITS)
    again = execute_batch(items, backend="cpu", limits=LIMITS)
    assert differences(want, again) == []
    assert check(items, want, again, _device_pow(True), LIMITS) == []


def test_the_reference_vm_with_the_hosts_pow_is_the_c_vm():
    program = _program()
    items = [(program, "walk", [1.7, 5]), (program, "branch", [1.5, 2.0])]
    want = execute_batch(items, backend="cpu", limits=LIMITS)
    for item, w in zip(items, want, strict=True):
        got, missing = run_with_pow(item, LIMITS, {})
        assert (got.outcome, got.steps) == (w.outcome, w.steps) and missing


def test_a_difference_the_devices_pow_explains_is_exempt_and_named():
    program = _program()
    assert "POW_F" in ops_of(program)
    items = [(program, "walk", [1.7, 5]), (program, "walk", [3.1, 3]), (program, "plain", [2.0, 3])]
    want = execute_batch(items, backend="cpu", limits=LIMITS)
    got = _table(items, _device_pow(True))
    found = differences(want, got)
    assert [d.index for d in found] == [0, 1] and all(d.fields == ["value"] for d in found)
    explained, unexplained = explain(items, found, _device_pow(True), LIMITS)
    assert unexplained == [] and [d.index for d, _ in explained] == [0, 1]
    assert all(off for _, off in explained)  # the operands whose pow differs, named
    reported = check(items, want, got, _device_pow(True), LIMITS)
    assert [d.index for d, _ in reported] == [0, 1]
    assert "pow operands whose device result differs: [(1.7, 0.5, " in describe(reported)


def test_a_pow_difference_that_changes_a_branch_is_explained_with_its_steps():
    program = _program()
    # 2 ** 1.0 == 2.0 exactly on the host: one ulp up takes the other branch
    items = [(program, "branch", [2.0, 1.0])]
    want = execute_batch(items, backend="cpu", limits=LIMITS)
    got = _table(items, _device_pow(True))
    assert want[0].value == 0 and got[0].value == 1
    assert check(items, want, got, _device_pow(True), LIMITS)


@pytest.mark.parametrize(
    "tamper",
    [
        lambda r: replace(r, steps=r.steps + 1),  # the steps, not the value, differ
        lambda r: replace(r, value=r.value * 2),  # a value no pow rounding gives
        lambda r: ExecResult(None, "MemoryFault", r.steps),  # a trap instead
        lambda r: ExecResult(0x7FF4DEADBEEF0BAD, None, r.steps),  # an unwritten (poisoned) word
    ],
)
def test_any_other_difference_fails_even_in_a_program_with_pow(tamper):
    program = _program()
    items = [(program, "walk", [1.7, 5]), (program, "plain", [2.0, 3])]
    want = execute_batch(items, backend="cpu", limits=LIMITS)
    for device_pow in (_device_pow(True), _device_pow(False)):
        got = [tamper(r) for r in _table(items, device_pow)]
        found = differences(want, got)
        assert [d.index for d in found] == [0, 1]
        explained, unexplained = explain(items, found, device_pow, LIMITS)
        assert explained == [] and len(unexplained) == 2
        with pytest.raises(AssertionError, match="not explained by its pow"):
            check(items, want, got, device_pow, LIMITS)


def test_a_device_whose_pow_agrees_explains_nothing():
    program = _program()
    items = [(program, "walk", [1.7, 5])]
    want = execute_batch(items, backend="cpu", limits=LIMITS)
    got = [replace(want[0], value=_next_up(want[0].value))]  # as if pow had rounded up
    _, unexplained = explain(items, differences(want, got), _device_pow(False), LIMITS)
    assert len(unexplained) == 1


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
