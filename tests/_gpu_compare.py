"""Comparing the CUDA backend's results with the C VM's, in full, for the GPU tests
(tests/test_gpu_backend.py), and unit-tested on the CPU (tests/test_gpu_compare.py).

A result is its outcome (the value's repr, or the trap's name) and its steps: `differences` lists
every item where any of them differs (repr is exact for floats, -0.0 included; NaNs print
alike whatever their payload, which no kiln program can observe).

The only difference allowed is one the device's documented rounding explains
(vm.cuda.DEVICE_ROUNDING: pow, from CUDA's libdevice). `explain` decides it per item, from the
operations the item actually ran: it runs the item again on the reference VM with every POW_F
answered by the device's own result for those operands (`device_pow`, measured on the device
for exactly the pairs the item used, round after round while new pairs appear), and the
difference is explained only when that reproduces the device's result exactly (value or trap,
and steps). A program that uses pow but differs for another reason, or whose pow operands give
the same bits on both, is not exempt.

This module imports only what a device has (NumPy and kiln).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from vm import ExecResult, execute
from vm.container import Program
from vm.isa import OPS, decode
from vm.limits import Limits

Item = tuple[Program, "str | int", Sequence[Any]]

POW_SOURCE = "def f(x: float, y: float) -> float:\n    return x ** y\n"
"""The program `device_pow` runs on the device for each operand pair."""

PowResult = tuple[str, Any]
"""("value", the result's bits as a word) or ("raise", the trap's name)."""

DevicePow = Callable[[list[tuple[float, float]]], list[ExecResult]]


@dataclass
class Difference:
    index: int
    want: ExecResult  # the C VM's
    got: ExecResult  # the device's

    @property
    def fields(self) -> list[str]:
        out = []
        if self.want.trap != self.got.trap:
            out.append("trap")
        elif self.want.outcome != self.got.outcome:
            out.append("value")
        if self.want.steps != self.got.steps:
            out.append("steps")
        return out

    def __str__(self) -> str:
        return f"item {self.index}: {', '.join(self.fields)}: C VM {self.want}, device {self.got}"


def differences(want: Sequence[ExecResult], got: Sequence[ExecResult]) -> list[Difference]:
    """Every item whose value, trap or steps differ."""
    assert len(want) == len(got), (len(want), len(got))
    return [
        Difference(k, w, g)
        for k, (w, g) in enumerate(zip(want, got, strict=True))
        if (w.outcome, w.steps) != (g.outcome, g.steps)
    ]


def ops_of(program: Program) -> set[str]:
    return {OPS[decode(word)[0]].name for fn in program.functions for word in fn.code}


def _bits(x: float) -> int:
    return struct.unpack("<q", struct.pack("<d", x))[0] & ((1 << 64) - 1)


def _pow_result(result: ExecResult) -> PowResult:
    if result.trap is not None:
        return ("raise", result.trap)
    return ("value", _bits(float(result.value)))


def run_with_pow(
    item: Item, limits: Limits, table: dict[tuple[int, int], PowResult]
) -> tuple[ExecResult, set[tuple[int, int]]]:
    """The item on the reference VM, each POW_F on operands (as words) in `table` answered by
    the table, any other computed as the host does; and the operand pairs not in the table."""
    from vm import ref
    from vm.semantics import Trap

    host = ref.BINARY["POW_F"]
    missing: set[tuple[int, int]] = set()

    def pow_word(a: int, b: int) -> int:
        key = (a & ((1 << 64) - 1), b & ((1 << 64) - 1))
        if key not in table:
            missing.add(key)
            return host(a, b)
        kind, value = table[key]
        if kind == "raise":
            raise Trap(value)
        return value if value < (1 << 63) else value - (1 << 64)

    ref.BINARY["POW_F"] = pow_word
    try:
        program, function, args = item
        result = execute(program, function, list(args), backend="ref", limits=limits)
    finally:
        ref.BINARY["POW_F"] = host
    return result, missing


def _float(word: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", word))[0]


def explain(
    items: Sequence[Item],
    found: Sequence[Difference],
    device_pow: DevicePow,
    limits: Limits,
    rounds: int = 4,
) -> tuple[list[tuple[Difference, list[tuple[float, float, Any, Any]]]], list[Difference]]:
    """(explained: each difference with the pow operands whose device result differs from the
    host's, as (x, y, host, device); unexplained differences). See the module's doc."""
    explained = []
    unexplained = []
    for d in found:
        item = items[d.index]
        if "POW_F" not in ops_of(item[0]):
            unexplained.append(d)
            continue
        table: dict[tuple[int, int], PowResult] = {}
        result: ExecResult | None = None
        for _ in range(rounds):
            result, missing = run_with_pow(item, limits, table)
            if not missing:
                break
            pairs = sorted(missing)
            measured = device_pow([(_float(a), _float(b)) for a, b in pairs])
            table.update(zip(pairs, map(_pow_result, measured), strict=True))
            result = None
        if result is None or (result.outcome, result.steps) != (d.got.outcome, d.got.steps):
            unexplained.append(d)
            continue
        host_pow = {key: _host_pow(key) for key in table}
        off = [
            (_float(a), _float(b), _show(host_pow[(a, b)]), _show(table[(a, b)]))
            for (a, b) in table
            if host_pow[(a, b)] != table[(a, b)]
        ]
        (explained.append((d, off)) if off else unexplained.append(d))
    return explained, unexplained


def _host_pow(key: tuple[int, int]) -> PowResult:
    from vm import ref
    from vm.semantics import Trap

    a, b = (k if k < (1 << 63) else k - (1 << 64) for k in key)
    try:
        return ("value", ref.BINARY["POW_F"](a, b) & ((1 << 64) - 1))
    except Trap as trap:
        return ("raise", trap.name)


def _show(result: PowResult) -> Any:
    kind, value = result
    return _float(value) if kind == "value" else value


def device_pow_on(backend: str, limits: Limits) -> DevicePow:
    """x ** y for each pair, run by `backend` (the device: "cuda")."""
    from compiler import compile_source
    from vm import execute_batch

    program = compile_source(POW_SOURCE)

    def run(pairs: list[tuple[float, float]]) -> list[ExecResult]:
        return execute_batch(
            [(program, "f", [x, y]) for x, y in pairs], backend=backend, limits=limits
        )

    return run


Explained = list[tuple[Difference, list[tuple[float, float, Any, Any]]]]


def check(
    items: Sequence[Item],
    want: Sequence[ExecResult],
    got: Sequence[ExecResult],
    device_pow: DevicePow,
    limits: Limits,
) -> Explained:
    """Asserts the device's results equal the C VM's but for differences its pow explains, and
    returns those (each with the pow operands whose device result differs from the host's), for
    the caller to report: measured and named, not hidden."""
    found = differences(want, got)
    explained, unexplained = explain(items, found, device_pow, limits)
    assert not unexplained, (
        f"{len(unexplained)} of {len(items)} items differ on the device, not explained by its pow "
        "(vm.cuda.DEVICE_ROUNDING): " + "; ".join(str(d) for d in unexplained[:5])
    )
    return explained


def describe(explained: Explained, limit: int = 5) -> str:
    return "; ".join(
        f"{d} (pow operands whose device result differs: {off[:3]})" for d, off in explained[:limit]
    )
