"""The CUDA backend (`vm.cuda`) against the CPU backend, on a device: the batches of
tests/test_verify_batch.py (the corpus, a few thousand generated programs, the adversarial batch,
shuffled), a tight scratch budget (few resident threads striding over many items), plain runs
(`vm.execute_batch(..., backend="cuda")`), and CUDA's pow/fmod/floor against CPython's bit for bit.

Every comparison is in full: the verdicts, failing tests, traps and steps of each candidate, and
also each item's own result (its value or trap, and its steps) run on both backends
(tests/_gpu_compare.py). The launchers poison their output buffers (vm.cuda.POISON), so a result
the device never wrote shows. The only difference allowed is the one CUDA documents: pow is
libdevice's, within 2 ulp (vm.cuda.DEVICE_ROUNDING); a differing item is exempt only when
re-running it on the reference VM with the device's own pow results for the operands it used
reproduces the device's result exactly, and each such item is reported (a warning), never
hidden. The float // and % (fmod, floor: exact by definition) must be bit for bit.
Skipped without CuPy and a device (tests/conftest.py); KILN_REQUIRE_GPU=1 makes a skip fail.
"""

from __future__ import annotations

import math
import operator
import random
import struct
import warnings
from typing import Any

import numpy as np
import pytest
from _gpu_compare import check, describe, device_pow_on
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
from vm import execute_batch
from vm.container import Program
from vm.cuda import DEVICE_ROUNDING
from vm.limits import Limits
from vm.run import verify

pytestmark = pytest.mark.gpu

OPERATORS = {"**": operator.pow, "%": operator.mod, "//": operator.floordiv}
ULPS = {"**": DEVICE_ROUNDING["POW_F"], "%": 0, "//": 0}
"""How far the device's float op may be from CPython's, in ulps: CUDA's documented bound for
pow; exact for fmod-based % and floor-based //."""


def _ulps(a: float, b: float) -> int:
    def ordered(x: float) -> int:
        i = struct.unpack("<q", struct.pack("<d", x))[0]
        return i if i >= 0 else -(1 << 63) - i

    return abs(ordered(a) - ordered(b))


def _items(entries: list[Entry]) -> tuple[list[tuple[Program, int, list[Any]]], list[int]]:
    """Every test of every candidate as a plain run, and the candidate of each."""
    items, owner = [], []
    for c, e in enumerate(entries):
        for t in e.tests:
            items.append((e.program, e.function, list(t.args)))
            owner.append(c)
    return items, owner


def _same_results(entries: list[Entry], limits: Limits, what: str) -> set[int]:
    """Every item of `entries` run on both backends, compared in full; returns the candidates
    with an item whose difference the device's pow explains (reported as a warning)."""
    items, owner = _items(entries)
    want = execute_batch(items, backend="cpu", limits=limits)
    got = execute_batch(items, backend="cuda", limits=limits)
    explained = check(items, want, got, device_pow_on("cuda", limits), limits)
    if explained:
        warnings.warn(
            f"{what}: {len(explained)} of {len(items)} items differ on cuda only as its pow "
            f"explains: {describe(explained)}",
            stacklevel=2,
        )
    return {owner[d.index] for d, _ in explained}


def _same_verdicts(entries: list[Entry], limits: Limits, what: str, shuffle: int | None = None):
    """The batch's verdicts, failing tests, traps and steps on both backends, and each item's
    full result: a candidate may differ only where its items' differences are pow's."""
    exempt = _same_results(entries, limits, what)
    batch = build(entries, shuffle=shuffle)
    got = verify(batch, backend="cuda", limits=limits)
    want = verify(batch, backend="cpu", limits=limits)
    differ = np.nonzero(
        (got.verdict != want.verdict)
        | (got.fail_test != want.fail_test)
        | (got.trap != want.trap)
        | (got.steps != want.steps)
    )[0].tolist()
    other = [c for c in differ if c not in exempt]
    assert not other, f"{what}: candidates {other[:20]} differ on cuda, not as its pow explains"
    if not differ:
        assert_same(got, want, f"{what}: ")
    return got


def test_corpus_cuda_equals_cpu() -> None:
    _same_verdicts(corpus_entries(), Limits(), "corpus")


def test_adversarial_cuda_equals_cpu() -> None:
    for shuffle in (None, 5):
        got = _same_verdicts(adversarial_entries(), LIMITS, f"shuffle {shuffle}", shuffle)
        assert {"upload", "kernel", "download"} <= set(got.timings)


def test_generated_programs_cuda_equals_cpu() -> None:
    _same_verdicts(fuzz_entries(3000, seed=424242), LIMITS, "generated")


def test_few_resident_threads_stride_over_many_items() -> None:
    batch = build(adversarial_entries() * 20 + fuzz_entries(100, seed=9), shuffle=3)
    want = verify(batch, backend="cpu", limits=LIMITS)
    from vm import cuda

    walk_cap = 16  # more than these programs' types need: the real budget fits as many threads
    per_thread = cuda.scratch_bytes_per_thread(LIMITS, walk_cap)
    for threads in (1, 33, 64):
        budget = threads * per_thread
        assert cuda.resident_threads(LIMITS, walk_cap, len(batch.items), budget) == (
            threads // 32 * 32 or 1
        )
        assert_same(
            cuda.verify_batch(batch, LIMITS, scratch_bytes=budget), want, f"{threads} threads: "
        )


def test_plain_runs_cuda_equal_cpu() -> None:
    entries = fuzz_entries(300, seed=77)
    items: list[tuple[Program, str | int, list[Any]]] = [
        (e.program, e.function, list(t.args)) for e in entries for t in e.tests
    ]
    long = compile_source("def f(n: int) -> list[int]:\n    return list(range(n))\n")
    items += [(long, "f", [n]) for n in (0, 5, 64, 65, 1000, 5000)]  # past OUT_WORDS: run again
    cpu = execute_batch(items, backend="cpu", limits=LIMITS)
    gpu = execute_batch(items, backend="cuda", limits=LIMITS)
    explained = check(items, cpu, gpu, device_pow_on("cuda", LIMITS), LIMITS)
    if explained:
        warnings.warn(
            f"plain runs differing only as cuda's pow explains: {describe(explained)}",
            stacklevel=1,
        )
    assert gpu[-1].value == list(range(5000))


def _operands(rng: random.Random, n: int) -> list[tuple[float, float]]:
    special = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        2.0,
        3.0,
        -3.0,
        1e-310,
        1e308,
        math.inf,
        -math.inf,
        math.nan,
        10.0,
        1.5,
    ]
    pairs = [(a, b) for a in special for b in special]
    for _ in range(n):
        pairs.append((rng.uniform(-1e3, 1e3), rng.uniform(-1e3, 1e3)))
        pairs.append((rng.uniform(0, 10), rng.uniform(-40, 40)))
        pairs.append((math.ldexp(rng.random(), rng.randint(-1000, 1000)), rng.uniform(-3, 3)))
    return pairs


@pytest.mark.parametrize("op", ["**", "%", "//"])
def test_library_float_ops_against_cpython_bitwise(op: str) -> None:
    """Runs x op y on the device for many operands and compares with CPython bit for bit: a trap
    where CPython returns (or the reverse), or a difference of more than ULPS[op] (pow: CUDA's
    documented 2; % and //: none) fails; allowed differences are reported as a warning with their
    count and examples."""
    program = compile_source(f"def f(x: float, y: float) -> float:\n    return x {op} y\n")
    pairs = _operands(random.Random(op), 3000)
    results = execute_batch(
        [(program, "f", [x, y]) for x, y in pairs], backend="cuda", limits=LIMITS
    )
    last_ulp: list[tuple[float, float, Any, Any]] = []
    wrong: list[tuple[float, float, Any, Any]] = []
    for (x, y), result in zip(pairs, results, strict=True):
        try:
            want = OPERATORS[op](x, y)
        except (ArithmeticError, ValueError):
            want = None
        if isinstance(want, complex) or (want is None) != (result.trap is not None):
            if not (isinstance(want, complex) and result.trap == "Unsupported"):
                wrong.append((x, y, want, result.outcome))
            continue
        if want is None or (math.isnan(want) and math.isnan(result.value)):
            continue
        if struct.pack("<d", want) != struct.pack("<d", result.value):
            (last_ulp if _ulps(want, result.value) <= ULPS[op] else wrong).append(
                (x, y, want, result.value)
            )
    if last_ulp:
        warnings.warn(
            f"x {op} y: {len(last_ulp)} of {len(pairs)} results differ from CPython within "
            f"{ULPS[op]} ulp on cuda, e.g. {last_ulp[:5]}",
            stacklevel=1,
        )
    assert not wrong, f"x {op} y differs from CPython by more than {ULPS[op]} ulp: {wrong[:10]}"
