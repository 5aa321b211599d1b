"""The reference compiler: kiln Python source through every phase, in Python, in order.

`compile_source` is the specification the batched C compiler (compiler/batched.py) must match
byte for byte; `compiler.compile_one` asks the batched compiler first and this one for the rest.
Both are re-exported by the `compiler` package.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence

from compiler.assemble import assemble
from compiler.diagnostics import CompileError, Reporter
from compiler.frontend import parse
from compiler.lower import Pool, lower_function
from compiler.optimize import PASSES, optimize
from compiler.types import KType, Widen, check_module, show
from compiler.walk import copy_tree
from vm.container import LOCAL_SUFFIX, Program
from vm.isa import OPS, decode
from vm.limits import MAX_TYPE_DEPTH
from vm.values import Type, erase_vtuples, type_depth


MAX_UNIONS = 16  # union types one module may need (each costs one more check of the module)


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
    check_type_depth(program)
    return program


def _compile(
    source: str,
    filename: str,
    arg_types: Mapping[str, Sequence[Type]] | None,
    passes: frozenset[str] | set[str] | bool,
    require: Sequence[str],
) -> Program:
    report = Reporter(filename)
    hints: dict[tuple[object, ...], Type] = {}
    # the checker changes the trees it checks: the first check takes the parsed trees as they
    # are (most modules are checked once); a module checked again is parsed again, once, and
    # each later check takes a fresh copy of that
    functions: list[ast.FunctionDef] = parse(source, filename)
    parsed: list[ast.FunctionDef] | None = None
    while True:  # each Widen names one more union: the module is checked again, on a fresh copy
        if hints:
            if parsed is None:
                parsed = parse(source, filename)  # what the first parse gave (it is deterministic)
            functions = copy_tree(parsed)  # type: ignore[assignment]
        _own_parameter_variables(functions, hints)
        try:
            infos = check_module(functions, report, arg_types, hints)
            break
        except Widen as widen:
            if widen.key in hints or len(hints) >= MAX_UNIONS:
                raise CompileError(
                    widen.filename, widen.line, widen.col, widen.kind, widen.message
                ) from None
            hints[widen.key] = widen.union
            if widen.key[0] == "param":  # the variable that stands for it: the union
                hints[("var", widen.key[1], widen.key[2])] = widen.union
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
        if returns_a_dict(infos[name].ret):  # a dict is two lists at run time: not a host value
            raise report.unsupported(
                infos[name].node,
                f"dict as the result of {name}, which the caller of the program calls",
                "a dict is returned to kiln functions only (a check function compares it)",
            )
    checked = [info for info in infos.values() if info.checked]
    selected = set(PASSES) if passes is True else set() if passes is False else set(passes)
    pool = Pool([info.name for info in checked])
    lowered = [lower_function(info, pool, loop_steps="loops" in selected) for info in checked]
    params = [len(fn.param_types) for fn in lowered]
    for info, fn in zip(checked, lowered, strict=True):
        if returns_a_dict(info.ret):  # kiln's callers only: named so that no caller of the
            fn.name += LOCAL_SUFFIX  # program finds it (Program.function_index says why)
    compiled = []
    for info, fn in zip(checked, lowered, strict=True):
        fn.code = optimize(fn.code, pool, selected)
        compiled.append(assemble(fn, params))
        host = [p.type for p in info.params] + [info.ret]  # resolved by the checker
        if any(isinstance(t, Type) and erase_vtuples(t) != t for t in host):
            compiled[-1].host_types = host  # type: ignore[assignment]  # a tuple[T, ...] there
    return Program(compiled, pool.consts, pool.image, pool.types, filename)


def _own_parameter_variables(
    functions: list[ast.FunctionDef], hints: Mapping[tuple[object, ...], Type]
) -> None:
    """For each parameter a hint names ("param", function, name: re-bound to another kind in
    the body), the parameter renamed `name'arg` and `name = name'arg` made the body's first
    statement: the body's variable, no longer the caller's argument, can hold a union (a
    parameter is a local in CPython: the same program)."""
    for key in hints:
        if key[0] != "param":
            continue
        for fn in functions:
            if fn.name != key[1]:
                continue
            for arg in fn.args.args:
                if arg.arg == key[2]:
                    arg.arg = f"{key[2]}'arg"
                    first = ast.Assign(
                        targets=[ast.Name(id=key[2], ctx=ast.Store())],
                        value=ast.Name(id=arg.arg, ctx=ast.Load()),
                    )
                    fn.body.insert(0, ast.fix_missing_locations(ast.copy_location(first, fn)))


def returns_a_dict(t: KType) -> bool:
    """Whether a result of type `t` holds a dict (the two lists of its keys and values at run
    time, which no caller of the program could tell from a tuple of two lists)."""
    return "dict[" in show(t)


def check_type_depth(program: Program) -> None:
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
