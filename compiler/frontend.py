"""Front end: source text -> CPython AST checked against the kiln Python subset.

Contract: `parse(source, filename)` returns the module's `ast.FunctionDef`s in order, or raises
CompileError (kind "syntax error" or "unsupported") at the first construct outside the subset
(docs/LANGUAGE.md). It checks *syntax* only; types are the next phase's (compiler/types.py).
"""

from __future__ import annotations

import ast

from compiler.diagnostics import CompileError, Reporter

# Constructs rejected wherever they appear, with the reason a user can act on.
_REJECTED: dict[type, tuple[str, str]] = {
    ast.Dict: ("dict display", "dict is not in kiln Python yet"),
    ast.DictComp: ("dict comprehension", "dict is not in kiln Python yet"),
    ast.Set: ("set display", "set is not in kiln Python yet"),
    ast.SetComp: ("set comprehension", "set is not in kiln Python yet"),
    ast.GeneratorExp: ("generator expression", "use a list comprehension"),
    ast.Lambda: ("lambda", "functions must be defined with def at module level"),
    ast.ClassDef: ("class", "classes are not in kiln Python"),
    ast.Try: ("try statement", "exceptions cannot be caught in kiln Python"),
    ast.With: ("with statement", "context managers are not in kiln Python"),
    ast.AsyncFunctionDef: ("async def", "coroutines are not in kiln Python"),
    ast.AsyncFor: ("async for", "coroutines are not in kiln Python"),
    ast.AsyncWith: ("async with", "coroutines are not in kiln Python"),
    ast.Await: ("await", "coroutines are not in kiln Python"),
    ast.Yield: ("yield", "generators are not in kiln Python"),
    ast.YieldFrom: ("yield from", "generators are not in kiln Python"),
    ast.Global: ("global statement", "kiln Python has no module-level variables"),
    ast.Nonlocal: ("nonlocal statement", "nested functions are not in kiln Python"),
    ast.Delete: ("del statement", "not in kiln Python yet"),
    ast.JoinedStr: ("f-string", "string formatting is not in kiln Python yet"),
    ast.NamedExpr: ("assignment expression (:=)", "not in kiln Python"),
    ast.Starred: ("starred expression", "argument unpacking is not in kiln Python"),
    ast.Import: ("import", "only 'from typing import ...' is accepted"),
    ast.Match: ("match statement", "not in kiln Python"),
    ast.Attribute: ("attribute access", "only the list methods append and pop are supported"),
}
if hasattr(ast, "TryStar"):
    _REJECTED[ast.TryStar] = ("try statement", "exceptions cannot be caught in kiln Python")


def parse(source: str, filename: str = "<input>") -> list[ast.FunctionDef]:
    report = Reporter(filename)
    try:
        module = ast.parse(source, filename=filename, type_comments=False)
    except SyntaxError as e:
        raise CompileError(
            filename, e.lineno or 1, (e.offset or 1), "syntax error", e.msg
        ) from None
    except ValueError as e:  # e.g. source with NUL bytes
        raise CompileError(filename, 1, 1, "syntax error", str(e)) from None
    functions: list[ast.FunctionDef] = []
    names: set[str] = set()
    for i, stmt in enumerate(module.body):
        if isinstance(stmt, ast.FunctionDef):
            if stmt.name in names:
                raise report.unsupported(
                    stmt, f"redefinition of {stmt.name}", "each function may be defined once"
                )
            names.add(stmt.name)
            _check_function(stmt, report)
            functions.append(stmt)
        elif isinstance(stmt, ast.ImportFrom) and stmt.module == "typing":
            continue
        elif i == 0 and _is_docstring(stmt):
            continue
        elif (
            isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str)
        ):
            continue  # a stray string literal: a comment in all but name
        else:
            what, why = _REJECTED.get(
                type(stmt), (_describe(stmt), "kiln Python modules hold only def statements")
            )
            raise report.unsupported(
                stmt, f"module-level {what}" if type(stmt) not in _REJECTED else what, why
            )
    return functions


def _is_docstring(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def _describe(node: ast.AST) -> str:
    words = {
        ast.Assign: "assignment",
        ast.AnnAssign: "assignment",
        ast.AugAssign: "assignment",
        ast.If: "if statement",
        ast.For: "for loop",
        ast.While: "while loop",
        ast.Expr: "expression statement",
    }
    return words.get(type(node), type(node).__name__)


def _check_function(fn: ast.FunctionDef, report: Reporter) -> None:
    args = fn.args
    if fn.decorator_list:
        raise report.unsupported(
            fn.decorator_list[0], "decorator", "decorators are not in kiln Python"
        )
    if args.vararg or args.kwarg:
        node = args.vararg or args.kwarg
        raise report.unsupported(
            node, "*args/**kwargs parameter", "functions take a fixed list of parameters"
        )
    if args.kwonlyargs or args.posonlyargs:
        raise report.unsupported(
            fn, "keyword-only or positional-only parameters", "use plain parameters"
        )
    if args.defaults or args.kw_defaults:
        raise report.unsupported(
            args.defaults[0] if args.defaults else fn,
            "default parameter value",
            "every argument must be passed",
        )
    for node in ast.walk(fn):
        if node is fn:
            continue
        if isinstance(node, ast.FunctionDef):
            raise report.unsupported(node, "nested function", "define functions at module level")
        if type(node) in _REJECTED:
            construct, why = _REJECTED[type(node)]
            if isinstance(node, ast.Attribute) and _is_supported_method_call(node, fn):
                continue
            if isinstance(node, ast.Attribute):
                construct = f"attribute .{node.attr}"
            raise report.unsupported(node, construct, why)
        if isinstance(node, (ast.While, ast.For)) and node.orelse:
            raise report.unsupported(
                node.orelse[0],
                f"else clause on a {'while' if isinstance(node, ast.While) else 'for'} loop",
                "not in kiln Python",
            )
        if isinstance(node, ast.Call) and node.keywords:
            for kw in node.keywords:
                ok = (
                    isinstance(node.func, ast.Name)
                    and node.func.id == "sorted"
                    and kw.arg == "reverse"
                )
                if not ok:
                    raise report.unsupported(
                        kw,
                        f"keyword argument {kw.arg or '**'}",
                        "only sorted(..., reverse=...) takes a keyword",
                    )


_METHODS = frozenset({"append", "pop"})


def _is_supported_method_call(attr: ast.Attribute, fn: ast.FunctionDef) -> bool:
    """`x.append(...)`, `x.pop(...)` as the callee of a call: checked for types later."""
    if attr.attr not in _METHODS:
        return False
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and node.func is attr:
            return True
    return False
