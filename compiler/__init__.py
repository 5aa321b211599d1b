"""The kiln compiler: kiln Python source -> a verified `Program` of stack bytecode.

One module per phase, each with its contract in its docstring:

    frontend.py   source -> CPython AST, checked against the subset   (syntax, "unsupported")
    types.py      inference and checking                              ("type error")
    lower.py      typed AST -> instructions with labels
    optimize.py   constant folding, dead code, peephole, jump threading, superinstructions
                  (each can be switched off; `loops` is applied by lower.py)
    assemble.py   labels -> offsets, maximum stack depth, stack balance asserted
    reference.py  the phases above in order: `compile_source`, the specification
    batched.py    the same language in C (kernels/kc.h), many programs per call: `compile_one`

    from compiler import compile_source
    program = compile_source(open("fib.py").read(), "fib.py")
    program = compile_source(src, "f.py", arg_types={"f": [INT, list_of(INT)]})  # inference
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from compiler.diagnostics import CompileError
from compiler.optimize import PASSES
from compiler.reference import check_type_depth, compile_source
from vm.container import Program
from vm.values import Type

__all__ = ["compile_source", "compile_one", "CompileError", "PASSES", "parse_call"]


def compile_one(
    source: str,
    filename: str = "<input>",
    *,
    arg_types: Mapping[str, Sequence[Type]] | None = None,
    passes: frozenset[str] | set[str] | bool = True,
    require: Sequence[str] = (),
) -> Program:
    """compile_source's answer for one program, from the batched C compiler where it takes the
    program (`compiler.batched.compile_with_fallback`: the same bytes and diagnostics, about 15
    times faster on a small program); the reference compiler answers for the rest."""
    from compiler.batched import BuildError, compile_with_fallback

    try:
        [got] = compile_with_fallback([source], [filename], [arg_types], threads=1, passes=passes)
    except BuildError:  # no C compiler here: the reference alone answers, as it would anyway
        return compile_source(source, filename, arg_types=arg_types, passes=passes, require=require)
    if isinstance(got, CompileError):
        raise got
    names = {fn.name for fn in got.functions}
    if not names.issuperset([*require, *(arg_types or {})]):  # the reference says which and why
        return compile_source(source, filename, arg_types=arg_types, passes=passes, require=require)
    check_type_depth(got)
    return got


def parse_call(text: str) -> tuple[str, list[object]]:
    """`"fib(30)"` -> ("fib", [30]). Arguments must be Python literals."""
    import ast

    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError as e:
        raise ValueError(f"cannot parse call {text!r}: {e.msg}") from None
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or node.keywords:
        raise ValueError(f"expected a call like f(1, [2, 3]), got {text!r}")
    try:
        args = [ast.literal_eval(a) for a in node.args]
    except ValueError:
        raise ValueError(f"arguments of {text!r} must be Python literals") from None
    return node.func.id, args
