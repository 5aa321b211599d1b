"""Comparing the CUDA backend's results with the C VM's, in full, for the GPU tests
(tests/test_gpu_backend.py), the emulated launcher (tests/test_cuda_emulated.py), and unit-tested
on the CPU (tests/test_gpu_compare.py).

A result is its outcome (the value's repr, or the trap's name) and its steps: `differences` lists
every item where any of them differs (repr is exact for floats, -0.0 included; NaNs print
alike whatever their payload, which no kiln program can observe).

No difference is allowed. The device's float pow (CUDA's libdevice, within 2 ulp) is not exempt:
vm/cuda.py runs the items of every program that uses it on the host's C VM (vm.cuda.HOST_OPS),
so the backend's results equal the C VM's bit for bit; `check` names the items whose program uses
a host op, should one still differ (the routing failed).

This module imports only what a device has (NumPy and kiln).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from vm import ExecResult
from vm.container import Program
from vm.isa import OPS, decode

Item = tuple[Program, "str | int", Sequence[Any]]

POW_SOURCE = "def f(x: float, y: float) -> float:\n    return x ** y\n"
"""x ** y on its own: the raw op, for measuring a device's pow (vm.cuda.run_batch, host_ops=())."""


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


def check(items: Sequence[Item], want: Sequence[ExecResult], got: Sequence[ExecResult]) -> None:
    """Asserts the device's results equal the C VM's, every item: value or trap, and steps."""
    from vm.cuda import HOST_OPS

    found = differences(want, got)
    if not found:
        return
    routed = [d.index for d in found if ops_of(items[d.index][0]) & set(HOST_OPS)]
    assert not found, (
        f"{len(found)} of {len(items)} items differ on the device "
        f"({len(routed)} of them in programs using {', '.join(HOST_OPS)}, which should have run "
        "on the host): " + "; ".join(str(d) for d in found[:5])
    )
