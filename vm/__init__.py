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

from vm.result import BACKENDS, MODULE_FUNCTION, ExecResult, Item
from vm.run import execute, execute_batch, module_function

__all__ = [
    "BACKENDS",
    "MODULE_FUNCTION",
    "ExecResult",
    "Item",
    "execute",
    "execute_batch",
    "module_function",
]
