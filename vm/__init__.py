"""The kiln virtual machine: instruction set, container, verifier and backends.

`vm.isa` is the one table of instructions; `vm/README.md` the execution model every backend
implements identically. Backends: `ref` (`vm.ref`, pure Python, the specification), `cpu`
(`vm.cpu`, the C interpreter in `vm/kernels/` built with the system compiler) and `cuda`
(`vm.cuda`, the same C source through NVRTC; needs CuPy and a device).

    from vm import execute, execute_batch
    result = execute(program, "fib", [20], backend="cpu")
    result.value, result.trap, result.steps

A program whose module has top-level statements that do something (`print(...)`, `assert`,
calls) holds them as a function named `<module>` (MODULE_FUNCTION, compiler/frontend.py).
CPython runs a module before anything calls its functions, so a call runs `<module>()` first:
a trap there is the call's outcome (its steps count), else the call runs as usual.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from vm.limits import Limits

if TYPE_CHECKING:
    from vm.container import Program

BACKENDS = ("ref", "cpu", "cuda")
MODULE_FUNCTION = "<module>"  # a program's top-level statements, run before any call


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


def execute(
    program: Program,
    function: str | int,
    args: Sequence[Any],
    *,
    backend: str = "ref",
    limits: Limits | None = None,
) -> ExecResult:
    """Run one call of `function` (name or index) with Python `args`."""
    return execute_batch([(program, function, args)], backend=backend, limits=limits)[0]


def execute_batch(
    items: Sequence[Item],
    *,
    backend: str = "cpu",
    limits: Limits | None = None,
    threads: int | None = None,
) -> list[ExecResult]:
    """Run many calls, each after its program's module code (module docstring); the `cpu`
    backend spreads them over all cores outside the GIL."""
    limits = limits or Limits()
    inits = [module_function(program, function) for program, function, _ in items]
    modules = iter(
        _run(
            [
                (item[0], init, ())
                for item, init in zip(items, inits, strict=True)
                if init is not None
            ],
            backend,
            limits,
            threads,
        )
    )
    before: list[ExecResult | None] = [next(modules) if i is not None else None for i in inits]
    todo = [k for k, b in enumerate(before) if b is None or b.trap is None]
    calls = dict(zip(todo, _run([items[k] for k in todo], backend, limits, threads), strict=True))
    results = []
    for k, module in enumerate(before):
        if k not in calls:  # the module's code raised: the call never happens
            results.append(module)
        elif module is None:
            results.append(calls[k])
        else:
            call = calls[k]
            results.append(ExecResult(call.value, call.trap, call.steps + module.steps))
    return results  # type: ignore[return-value]


def module_function(program: Program, function: str | int) -> int | None:
    """The index of `program`'s module code, when it has some and `function` is not it."""
    for index, fn in enumerate(program.functions):
        if fn.name == MODULE_FUNCTION:
            called = function if isinstance(function, int) else program.function_index(function)
            return None if called == index else index
    return None


def _run(
    items: Sequence[Item], backend: str, limits: Limits, threads: int | None
) -> list[ExecResult]:
    if not items:
        return []
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
