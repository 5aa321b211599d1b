"""The kiln compiler: kiln Python source -> a verified `Program` of stack bytecode.

One module per phase, each with its contract in its docstring:

    frontend.py   source -> CPython AST, checked against the subset   (syntax, "unsupported")
    types.py      inference and checking                              ("type error")
    lower.py      typed AST -> instructions with labels
    optimize.py   constant folding, dead code, peephole, jump threading, superinstructions
                  (each can be switched off; `loops` is applied by lower.py)
    assemble.py   labels -> offsets, maximum stack depth, stack balance asserted

    from compiler import compile_source
    program = compile_source(open("fib.py").read(), "fib.py")
    program = compile_source(src, "f.py", arg_types={"f": [INT, list_of(INT)]})  # inference
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from compiler.assemble import assemble
from compiler.diagnostics import CompileError, Reporter
from compiler.frontend import parse
from compiler.lower import Pool, lower_function
from compiler.optimize import PASSES, optimize
from compiler.types import check_module
from vm.container import Program
from vm.isa import OPS, decode
from vm.limits import MAX_TYPE_DEPTH
from vm.values import Type, type_depth

__all__ = ["compile_source", "compile_one", "CompileError", "PASSES", "parse_call"]


def compile_source(
    source: str,
    filename: str = "<input>",
    *,
    arg_types: Mapping[str, Sequence[Type]] | None = None,
    passes: frozenset[str] | set[str] | bool = True,
    require: Sequence[str] = (),
) -> Program:
    """Compile a module. `arg_types` gives the argument types of entry functions whose parameters
    are not annotated; `passes` picks optimisation passes (True: all, False: none); `require`
    names functions that must be compiled (a clear error says why one could not be typed).

    Every failure is a CompileError: source nested deeper than the compiler recurses, or types
    nested deeper than a container holds (vm.limits.MAX_TYPE_DEPTH), too."""
    try:
        program = _compile(source, filename, arg_types, passes, require)
    except RecursionError:  # frontend.MAX_NESTING keeps real programs far from it
        raise CompileError(
            filename, 1, 1, "unsupported", "nesting too deep for the compiler (recursion limit)"
        ) from None
    _check_type_depth(program)
    return program


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
    _check_type_depth(got)
    return got


def _compile(
    source: str,
    filename: str,
    arg_types: Mapping[str, Sequence[Type]] | None,
    passes: frozenset[str] | set[str] | bool,
    require: Sequence[str],
) -> Program:
    report = Reporter(filename)
    functions = parse(source, filename)
    infos = check_module(functions, report, arg_types)
    for name in [*require, *(arg_types or {})]:
        if name not in infos:
            # the program's own functions (not the compiler's $pow_mod, or specialisations)
            known = (
                ", ".join(n for n, i in infos.items() if n == i.source_name and n[0] != "$")
                or "none"
            )
            raise CompileError(
                filename, 1, 1, "type error", f"no function {name!r} (functions: {known})"
            )
        if infos[name].missing:
            raise report.type_error(infos[name].node, infos[name].missing)
    checked = [info for info in infos.values() if info.checked]
    selected = set(PASSES) if passes is True else set() if passes is False else set(passes)
    pool = Pool([info.name for info in checked])
    lowered = [lower_function(info, pool, loop_steps="loops" in selected) for info in checked]
    params = [len(fn.param_types) for fn in lowered]
    compiled = []
    for fn in lowered:
        fn.code = optimize(fn.code, pool, selected)
        compiled.append(assemble(fn, params))
    return Program(compiled, pool.consts, pool.image, pool.types, filename)


def _check_type_depth(program: Program) -> None:
    """CompileError at the first use of a type nested deeper than a container may hold."""
    for index, ty in enumerate(program.types):
        depth = type_depth(ty)
        if depth <= MAX_TYPE_DEPTH:
            continue
        line = 1
        for fn in program.functions:
            uses = [
                pc
                for pc, word in enumerate(fn.code)
                if OPS[decode(word)[0]].operand == "type" and decode(word)[1] == index
            ]
            if uses or index in fn.param_types or index == fn.return_type:
                line = fn.lines[uses[0] if uses else 0] if fn.lines else 1
                break
        raise CompileError(
            program.source_name,
            line,
            1,
            "unsupported",
            f"a value of type nested {depth} lists, tuples or Optionals deep"
            f" (at most {MAX_TYPE_DEPTH}, vm.limits.MAX_TYPE_DEPTH)",
        )


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
