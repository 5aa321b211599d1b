"""The kiln virtual machine: instruction set, container, verifier and backends.

`vm.isa` is the one table of instructions; `vm/README.md` the execution model every backend
implements identically. Backends: `ref` (`vm.ref`, pure Python, the specification), `cpu`
(`vm.cpu`, the C interpreter in `vm/kernels/` built with the system compiler) and `cuda`
(`vm.cuda`, the same C source through NVRTC; needs CuPy and a device).

    from vm import execute, execute_batch
    result = execute(program, "fib", [20], backend="cpu")
    result.value, result.trap, result.steps
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from vm.limits import Limits

if TYPE_CHECKING:
    from vm.container import Program

BACKENDS = ("ref", "cpu", "cuda")


@dataclass(frozen=True)
class ExecResult:
    """What one execution gave: a value, or a trap; and the steps it ran."""

    value: Any
    trap: str | None
    steps: int

    @property
    def needs_fallback(self) -> bool:
        from vm.isa import TRAP_BY_NAME

        return self.trap is not None and TRAP_BY_NAME[self.trap].needs_fallback

    @property
    def outcome(self) -> tuple[str, str]:
        """("value", repr) or ("raise", trap name): what a differential test compares."""
        return ("raise", self.trap) if self.trap is not None else ("value", repr(self.value))


Item = tuple["Program", str | int, Sequence[Any]]


def execute(program: Program, function: str | int, args: Sequence[Any], *, backend: str = "ref", limits: Limits | None = None) -> ExecResult:
    """Run one call of `function` (name or index) with Python `args`."""
    return execute_batch([(program, function, args)], backend=backend, limits=limits)[0]


def execute_batch(items: Sequence[Item], *, backend: str = "cpu", limits: Limits | None = None, threads: int | None = None) -> list[ExecResult]:
    """Run many calls; the `cpu` backend spreads them over all cores outside the GIL."""
    limits = limits or Limits()
    if backend == "ref":
        from vm import ref

        return [ref.run(program, function, args, limits) for program, function, args in items]
    if backend == "cpu":
        from vm import cpu

        return cpu.run_batch(items, limits, threads=threads)
    if backend == "cuda":
        from vm import cuda

        return cuda.run_batch(items, limits)
    raise ValueError(f"unknown backend {backend!r}: choose one of {', '.join(BACKENDS)}")
