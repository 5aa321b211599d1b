"""The front door of the VM: run calls (`execute`, `execute_batch`) and verification batches
(`verify`) on a backend, chosen by name; each backend is imported only when it is asked for.

    from vm.run import execute, verify
    execute(program, "fib", [20], backend="cpu").value
    verify(batch, backend="cpu", limits=limits).verdict

The backends (vm.ref, vm.cpu, vm.cuda) import the types they share from vm.result and vm.batch,
never this module, so the imports point one way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from vm.limits import Limits
from vm.result import BACKENDS, MODULE_FUNCTION, ExecResult, Item

if TYPE_CHECKING:
    from vm.batch import Cancel, VerifyBatch, VerifyResult
    from vm.container import Program


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


def verify(
    batch: VerifyBatch,
    *,
    backend: str = "cpu",
    limits: Limits | None = None,
    threads: int | None = None,
    cancel: Cancel | None = None,
) -> VerifyResult:
    """Run and compare every item of `batch`, reduced per candidate (vm.batch's docstring)."""
    limits = limits or Limits()
    if cancel is not None:
        cancel.check()
        result = _verify_on(batch, backend, limits, threads, cancel)
        cancel.check()  # whatever a cancelled backend left is thrown away
        return result
    return _verify_on(batch, backend, limits, threads, None)


def _verify_on(
    batch: VerifyBatch, backend: str, limits: Limits, threads: int | None, cancel: Cancel | None
) -> VerifyResult:
    if backend == "ref":
        from vm import ref
        from vm.batch import verify_by_calls

        return verify_by_calls(batch, ref.run, limits, cancel)
    if backend == "cpu":
        from vm import cpu

        return cpu.verify_batch(batch, limits, threads=threads, cancel=cancel)
    if backend == "cuda":
        from vm import cuda

        return cuda.verify_batch(batch, limits)
    raise ValueError(f"unknown backend {backend!r}: choose ref, cpu or cuda")
