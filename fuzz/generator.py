"""Random programs in kiln Python (docs/LANGUAGE.md), for differential fuzzing and training data.

``generate(seed)`` builds one complete module: a few helper functions and an entry function,
every parameter and result annotated, every variable of one static type, plus a handful of
random inputs for the entry function. The same arguments always give the same program.

What every generated program guarantees:

- it compiles under CPython and stays inside the kiln subset; every parameter and result is
  annotated and every variable keeps one type (a value of a float variable is always a float,
  never an int that Python would happily store there), but for a parameter re-bound to a value
  of another kind by the body's first statement (``param_rebound``: ``n0 = str(n0)``), which
  keeps the new type from there on; a helper may return a dict to the program's own functions
  (``dict_result``), never the entry (its caller could not take one);
- it terminates: ``for`` loops run over ``range()`` with bounds below 10, over a collection
  that the loop body cannot lengthen, or over a copy of a prefix; ``while`` loops advance a
  counter as their first statement and test it against a hard bound below 10; recursion
  descends on a first argument that is at most 12 at every call site and stops at a base case
  (``n <= 0``, ``n < 1``, ``n < 2``);
- it is cheap to run: an estimate of the statements executed (loop bounds times bodies, calls
  times the callee's estimate) is capped; inside loops a collection grows by at most a constant
  per statement (operations that double one are allowed outside loops only, a few times per
  program); a loop over a whole collection either lengthens nothing or runs once per program
  (see ``_Generator.iteration_mode``); so runs take milliseconds in CPython;
- integers stay modest: inputs and literals are small, and wherever a value can feed back into
  itself (loops, recursion, helpers) products need one small operand, so a 64-bit overflow is
  rare, though not impossible.

It may raise, and is meant to sometimes: ``ZeroDivisionError``, ``IndexError``, ``ValueError``,
``AssertionError``, ``UnboundLocalError`` and the exceptions of ``raise`` statements.

Every construct is named by a *feature* (``FEATURES``). ``features=`` limits a program to some
of them (plus what they need, ``NEEDS``: a list type needs list displays); ``complexity=``
limits it to the features of a level (``LEVELS``, from straight-line arithmetic up to helper
functions) and retries until the program reaches that level. A program's ``features`` are the
constructs it actually uses, and its ``complexity`` is the lowest level whose features include
all of them.
"""

from __future__ import annotations

import ast
import copy
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from compiler.surface import (
    BOOLEAN_OPERATORS,
    BUILTINS,
    EQUALITIES,
    MEMBERSHIP,
    METHODS,
    ORDERINGS,
    STR_METHODS,
)

# the str methods by family (compiler/surface.py), in the table's order
_STR_FAMILY: dict[str, list[str]] = {
    family: [m.name for m in STR_METHODS if m.family == family]
    for family in dict.fromkeys(m.family for m in STR_METHODS)
}
# the set methods by family (compiler/surface.py): "op" a new set, "test" a bool
_SET_FAMILY: dict[str, list[str]] = {
    family: [m.name for m in METHODS if m.receiver == "set" and m.family == family]
    for family in ("op", "test")
}

T = TypeVar("T")

# --------------------------------------------------------------------------------------------
# Types: annotation strings, as they appear in the source.

INT = "int"
FLOAT = "float"
BOOL = "bool"
STR = "str"
LIST_INT = "list[int]"
LIST_FLOAT = "list[float]"
LIST_STR = "list[str]"
LIST_BOOL = "list[bool]"  # only as an expression (a comprehension inside sum()), never a variable
GRID = "list[list[int]]"

LIST_TYPES = (LIST_INT, LIST_FLOAT, LIST_STR, GRID)
COLLECTION_TYPES = frozenset({STR, *LIST_TYPES})
ELEMENT = {LIST_INT: INT, LIST_FLOAT: FLOAT, LIST_STR: STR, LIST_BOOL: BOOL, GRID: LIST_INT}
TUPLE_INTS = "tuple[int, int]"  # a tuple whose items share one type: iterated, tuple(...)
TUPLE_ELEMENTS: dict[str, tuple[str, str]] = {
    "tuple[int, str]": (INT, STR),
    TUPLE_INTS: (INT, INT),
    "tuple[float, bool]": (FLOAT, BOOL),
    "tuple[list[int], str]": (LIST_INT, STR),
}
VALUE_TYPES = (INT, FLOAT, BOOL, STR, *LIST_TYPES, *TUPLE_ELEMENTS)
# a helper's dict result (dict_result), returned to kiln's own functions only: never a variable
# of another kind, a parameter or the entry's result
DICT_STR_INT = "dict[str, int]"
DICT_INT_INT = "dict[int, int]"
DICT_KEY = {DICT_STR_INT: STR, DICT_INT_INT: INT}

# How often each type is picked for a new variable, a parameter or a result.
_TYPE_WEIGHTS = {INT: 6.0, FLOAT: 2.0, BOOL: 1.5, STR: 2.5, LIST_INT: 2.5, LIST_FLOAT: 1.0,
                 LIST_STR: 1.2, GRID: 0.8, **{t: 0.4 for t in TUPLE_ELEMENTS}}

_PREFIX = {INT: "n", FLOAT: "x", BOOL: "flag", STR: "s", LIST_INT: "nums", LIST_FLOAT: "vals",
           LIST_STR: "words", GRID: "grid", **{t: "pair" for t in TUPLE_ELEMENTS},
           **{t: "counts" for t in DICT_KEY}}


def type_features(t: str) -> frozenset[str]:
    """The features a value of type ``t`` needs."""
    if t in TUPLE_ELEMENTS:
        return frozenset({"tuple"}).union(*(type_features(e) for e in TUPLE_ELEMENTS[t]))
    if t in DICT_KEY:
        return frozenset({"dict_result", "dict_ops"}) | type_features(DICT_KEY[t])
    return {
        INT: frozenset({"int"}),
        FLOAT: frozenset({"float"}),
        BOOL: frozenset({"bool"}),
        STR: frozenset({"str"}),
        LIST_INT: frozenset({"int", "list[int]", "list_display"}),
        LIST_FLOAT: frozenset({"float", "list[float]", "list_display"}),
        LIST_STR: frozenset({"str", "list[str]", "list_display"}),
        LIST_BOOL: frozenset({"bool", "list[bool]", "list_display"}),
        GRID: frozenset({"int", "list[int]", "nested_list", "list_display"}),
    }[t]


# --------------------------------------------------------------------------------------------
# Features and complexity levels.

LEVELS: tuple[tuple[str, frozenset[str]], ...] = (
    ("straight-line scalar code", frozenset({
        "int", "float", "bool", "assign", "annassign", "augassign", "swap", "arith", "unary",
        "truediv", "floordiv", "mod", "pow", "bitwise", "shift", "int_float_mix", "bool_arith",
        "compare", "chained_compare", "boolop", "not", "ifexp", "abs", "min_max", "int_conv",
        "float_conv", "bool_conv", "docstring",
    })),
    ("branches", frozenset({
        "if", "elif", "else", "truthy", "boolop_value", "early_return", "assert", "raise",
        "maybe_unbound",
    })),
    ("loops", frozenset({
        "for_range", "range_step", "while", "break", "continue", "nested_loop",
    })),
    ("lists", frozenset({
        "list[int]", "list[float]", "list[bool]", "nested_list", "list_display", "empty_list",
        "list_index", "negative_index", "list_slice", "slice_step", "subscript_assign",
        "augassign_subscript", "append", "pop", "pop_index", "list_concat", "list_repeat",
        "list_inplace", "list_compare", "list_in", "for_list", "enumerate", "reversed",
        "listcomp", "listcomp_if", "listcomp_nested", "len", "sum", "min_max_list", "sorted",
        "sorted_reverse", "list_conv", "typing_alias", "all_any", "set_ops", "dict_ops",
    })),
    ("strings", frozenset({
        "str", "list[str]", "str_index", "str_slice", "str_concat", "str_repeat", "str_compare",
        "str_in", "for_str", "ord", "chr", "str_conv", "int_of_str", "str_method", "str_pad",
    })),
    ("functions", frozenset({
        "call", "none_return", "recursion", "mutual_recursion", "forward_call", "tuple",
        "tuple_return", "unpack", "tuple_index", "tuple_compare", "is_bool",
    })),
    # forms the batched compiler leaves to the reference compiler (its tests stay at levels
    # up to 5, where it covers everything)
    ("reference-only forms", frozenset({
        "round_ndigits", "cross_type_equality", "find_start", "tuple_iter", "tuple_call",
        "math_extras", "setdefault", "next_default",
        "float_of_str", "set_algebra", "type_compare", "filter_consumed", "set_order",
        "falls_off", "union_values", "range_in", "dynamic_tuple", "split_max", "int_base",
        "any_annotation",
        "is_integer", "min_max_default", "param_rebound", "dict_result", "list_insert",
    })),
)
MAX_COMPLEXITY = len(LEVELS) - 1
# What each feature needs besides itself; a set of allowed features is closed under this.
NEEDS: dict[str, frozenset[str]] = {name: frozenset(needs.split()) for name, needs in {
    "list[int]": "list_display", "list[float]": "float list_display",
    "list[str]": "str list_display", "list[bool]": "bool list_display listcomp",
    "nested_list": "list[int] list_display", "listcomp_if": "listcomp",
    "listcomp_nested": "listcomp", "elif": "if", "else": "if", "early_return": "if",
    "raise": "if compare", "break": "if", "continue": "if", "assert": "compare",
    "augassign": "arith", "recursion": "call if compare arith",
    "mutual_recursion": "recursion forward_call", "none_return": "call", "forward_call": "call",
    "tuple_return": "tuple", "sorted_reverse": "sorted", "pop_index": "pop",
    "int_of_str": "str", "str_method": "str", "all_any": "list[bool]", "set_ops": "list[int]",
    "dict_ops": "int",
    "ord": "str", "chr": "str", "str_conv": "str", "str_index": "str",
    "str_slice": "str", "str_concat": "str", "str_repeat": "str", "str_compare": "str",
    "str_in": "str", "for_str": "str", "chained_compare": "compare", "swap": "assign",
    "tuple_compare": "tuple", "tuple_index": "tuple", "unpack": "tuple",
    "cross_type_equality": "compare", "round_ndigits": "float", "find_start": "str_method",
    "tuple_iter": "tuple", "tuple_call": "tuple", "math_extras": "float", "setdefault": "dict_ops",
    "next_default": "list[int]",
    "float_of_str": "float str", "set_algebra": "set_ops list[int]", "type_compare": "compare",
    "filter_consumed": "list[int] compare", "set_order": "set_ops list[int]",
    "falls_off": "early_return", "is_bool": "bool compare",
    "union_values": "ifexp int_float_mix float", "range_in": "compare",
    "dynamic_tuple": "tuple list[int] len",
    "split_max": "str_method", "int_base": "int_of_str", "is_integer": "float",
    "str_pad": "str_method",
    "min_max_default": "min_max_list list[int]",
    "dict_result": "call dict_ops for_str",
    "list_insert": "append",
}.items()}
FEATURES: frozenset[str] = frozenset().union(*(features for _, features in LEVELS))
_CORE = frozenset({"int", "assign"})  # every program has an int somewhere and assigns variables


def features_for_level(level: int) -> frozenset[str]:
    """Every feature a program of complexity ``level`` may use."""
    if not 0 <= level <= MAX_COMPLEXITY:
        raise ValueError(f"complexity must be between 0 and {MAX_COMPLEXITY}, not {level}")
    return frozenset().union(*(features for _, features in LEVELS[: level + 1]))


def complexity_of(features: frozenset[str] | set[str]) -> int:
    """The lowest level whose features include all of ``features``."""
    for level in range(MAX_COMPLEXITY + 1):
        if set(features) <= features_for_level(level):
            return level
    unknown = sorted(set(features) - FEATURES)
    raise ValueError(f"unknown features: {', '.join(unknown)}")


# --------------------------------------------------------------------------------------------
# The result.


@dataclass(frozen=True)
class GeneratedProgram:
    """One generated module and the inputs to call its entry function with."""

    source: str
    entry: str
    param_types: list[str]
    inputs: list[tuple[object, ...]]  # argument tuples matching param_types
    complexity: int
    features: frozenset[str]
    seed: int = 0
    # module-level forms (``generate(modules=True)``): a stub replaced by a later def, top-level
    # prints and asserts that call the entry, an ``if __name__ == "__main__":`` block
    module_forms: frozenset[str] = frozenset()


# --------------------------------------------------------------------------------------------
# Random values, for inputs and literals.

_INPUT_CHARS = "abcdeabcxyz ABZ019-_"
_RARE_CHARS = "éßΩ中😀\t"
_NUMERIC_STRINGS = ("0", "7", "42", "-3", "+5", "007", " 12 ", "1_000", "3.5", "", "-", "1e3",
                    "٣")


def random_value(rng: random.Random, t: str) -> object:
    """A random input value of type ``t``: small numbers, short strings and lists."""
    if t == INT:
        r = rng.random()
        if r < 0.6:
            return rng.randint(-10, 10)
        if r < 0.9:
            return rng.randint(-100, 100)
        return rng.randint(-5000, 5000)
    if t == FLOAT:
        r = rng.random()
        if r < 0.15:
            return rng.choice([0.0, 0.5, -1.0, 2.0, 1e-3, -0.0, 100.25])
        return round(rng.uniform(-20.0, 20.0), rng.choice([0, 1, 2, 3]))
    if t == BOOL:
        return rng.random() < 0.5
    if t == STR:
        if rng.random() < 0.15:
            return rng.choice(_NUMERIC_STRINGS)
        chars = _INPUT_CHARS + (_RARE_CHARS if rng.random() < 0.1 else "")
        return "".join(rng.choice(chars) for _ in range(rng.choice([0, 1, 2, 3, 3, 4, 5, 6, 8])))
    if t in TUPLE_ELEMENTS:
        return tuple(random_value(rng, e) for e in TUPLE_ELEMENTS[t])
    if t in ELEMENT:
        length = rng.choice([0, 1, 2, 3, 3, 4, 4, 5, 6]) if t != GRID else rng.randint(0, 4)
        return [random_value(rng, ELEMENT[t]) for _ in range(length)]
    raise ValueError(f"no random values of type {t}")


def _int_literal(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.55:
        return rng.randint(-3, 10)
    if r < 0.9:
        return rng.randint(-20, 40)
    return rng.choice([100, 255, 1000, -100, 64, 99])


def _float_literal(rng: random.Random) -> float:
    if rng.random() < 0.6:
        return rng.choice([0.5, 1.5, 2.0, -0.5, 3.25, 0.1, 10.0, -2.75, 0.0, 1e-3, 0.25, 1.0])
    return round(rng.uniform(-10.0, 10.0), rng.choice([1, 2]))


_STR_LITERALS = ("", "a", "b", "ab", "xyz", "hello", "A", "0", "12", "-3", " ", "é", "abc", "ba",
                 "z", "42")


# --------------------------------------------------------------------------------------------
# AST helpers.


def _name(name: str, store: bool = False) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Store() if store else ast.Load())


def _const(value: int | float | str | bool | None) -> ast.expr:
    """A literal; negative numbers are written as a unary minus, as a person would."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and \
            math.copysign(1.0, value) < 0:
        return ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=-value))
    return ast.Constant(value=value)


def _call(func: str, *args: ast.expr, keywords: list[ast.keyword] | None = None) -> ast.Call:
    return ast.Call(func=_name(func), args=list(args), keywords=keywords or [])


def _literal(value: object) -> ast.expr | None:
    """A value as a literal expression (None for one that has none: inf, nan)."""
    if isinstance(value, (list, tuple)):
        items = [_literal(v) for v in value]
        if any(i is None for i in items):
            return None
        kind = ast.List if isinstance(value, list) else ast.Tuple
        return kind(elts=items, ctx=ast.Load())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return _const(value)  # type: ignore[arg-type]


MODULE_FORMS = (
    "stub", "top_print", "top_assert", "main_guard", "pure_import", "module_variable",
    "earlier_def",
)
# imports of side-effect-free standard modules whose names nothing reads (compiler.surface's
# PURE_MODULES): no-ops, as in CPython
_PURE_IMPORTS = ("import os", "import sys, json", "from collections import deque, Counter",
                 "import random as rnd", "import re, string")


def module_forms(body: list[ast.stmt], entry: ast.FunctionDef, param_types: list[str],
                 rng: random.Random) -> frozenset[str]:
    """Real model output's module-level forms, added to a generated module's ``body`` (a list of
    statements, imports then defs): a docstring-only stub of ``entry`` before it (the last def
    wins), an earlier def of ``entry`` returning a literal with an ``assert entry(...) ==
    literal`` before the final def (which CPython runs on the earlier one), top-level
    ``print(entry(...))`` and ``assert entry(...) is not None`` after every def (they run
    before any call: an exception there is every call's outcome), an ``if
    __name__ == "__main__":`` block, which never runs under exec with fresh globals, an unused
    import of a pure standard module, and module variables (``case_0 = [1, 2]``, bound and
    rebound, then passed to the entry by a top-level call: a model's "# Test" section)."""
    used: set[str] = set()

    def call() -> ast.Call | None:
        args = [_literal(random_value(rng, t)) for t in param_types]
        if any(a is None for a in args):
            return None
        return _call(entry.name, *args)  # type: ignore[arg-type]

    if rng.random() < 0.6:
        stub = ast.FunctionDef(name=entry.name, args=copy.deepcopy(entry.args),
                               body=[ast.Expr(value=ast.Constant(value="Stub: defined below."))],
                               decorator_list=[], returns=copy.deepcopy(entry.returns))
        body.insert(body.index(entry), stub)
        used.add("stub")
    if rng.random() < 0.25 and entry.returns is not None and (between := call()) is not None:
        # an earlier def returning a literal, asserted by a statement that runs before the
        # final def: CPython calls the earlier one there (compiled as bound then: f'at<i>)
        spelled = ast.unparse(entry.returns).replace("List[", "list[").replace("Tuple[", "tuple[")
        value = _literal(random_value(rng, spelled)) if spelled in VALUE_TYPES else None
        if value is not None:
            early = ast.FunctionDef(name=entry.name, args=copy.deepcopy(entry.args),
                                    body=[ast.Return(value=value)], decorator_list=[],
                                    returns=copy.deepcopy(entry.returns))
            test = ast.Compare(left=between, ops=[ast.Eq()], comparators=[copy.deepcopy(value)])
            at = body.index(entry)
            body[at:at] = [early, ast.Assert(test=test, msg=None)]
            used.add("earlier_def")
    if rng.random() < 0.5 and (printed := call()) is not None:
        body.append(ast.Expr(value=_call("print", _const("result:"), printed,
                                         keywords=[ast.keyword(arg="sep", value=_const(" "))])))
        used.add("top_print")
    if rng.random() < 0.3 and (asserted := call()) is not None:
        test = ast.Compare(left=asserted, ops=[ast.IsNot()], comparators=[_const(None)])
        body.append(ast.Assert(test=test, msg=None))
        used.add("top_assert")
    if rng.random() < 0.5 and (guarded := call()) is not None:
        loop = ast.While(test=_const(True), body=[ast.Pass()], orelse=[])
        test = ast.Compare(left=_name("__name__"), ops=[ast.Eq()], comparators=[_const("__main__")])
        body.append(ast.If(test=test, body=[ast.Expr(value=_call("print", guarded)), loop],
                           orelse=[]))
        used.add("main_guard")
    if rng.random() < 0.2:  # (kc leaves these two forms to the reference: kept rare)
        body.insert(0, ast.parse(rng.choice(_PURE_IMPORTS)).body[0])
        used.add("pure_import")
    if rng.random() < 0.2:
        names = [f"case_{i}" for i in range(len(param_types))]
        for _ in range(rng.randint(1, 2)):  # bound, then rebound: each call sees the latest
            values = [_literal(random_value(rng, t)) for t in param_types]
            if any(v is None for v in values):
                break
            for name, value in zip(names, values, strict=True):
                body.append(ast.Assign(targets=[_name(name, store=True)], value=value))
            body.append(ast.Expr(value=_call("print", _call(entry.name, *map(_name, names)))))
            used.add("module_variable")
    return frozenset(used)


def _method(obj: ast.expr, method: str, *args: ast.expr) -> ast.Call:
    return ast.Call(func=ast.Attribute(value=obj, attr=method, ctx=ast.Load()), args=list(args),
                    keywords=[])


def _bin(left: ast.expr, op: ast.operator, right: ast.expr) -> ast.BinOp:
    return ast.BinOp(left=left, op=op, right=right)


def _compare(left: ast.expr, ops: list[ast.cmpop], comparators: list[ast.expr]) -> ast.Compare:
    return ast.Compare(left=left, ops=ops, comparators=comparators)


def _index(value: ast.expr, index: ast.expr, store: bool = False) -> ast.Subscript:
    return ast.Subscript(value=value, slice=index, ctx=ast.Store() if store else ast.Load())


def _assign(target: str, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[_name(target, store=True)], value=value, lineno=0)


def _annotation(t: str, typing_alias: bool) -> ast.expr:
    if typing_alias:
        t = t.replace("list[", "List[").replace("tuple[", "Tuple[")
    return ast.parse(t, mode="eval").body


def _ifs(test: ast.expr, body: list[ast.stmt], orelse: list[ast.stmt] | None = None) -> ast.If:
    return ast.If(test=test, body=body, orelse=orelse or [])


# The builtins and operators drawn from in groups, in vm/surface.py's order (BUILTINS, OPERATORS)
_MIN_MAX = [b.name for b in BUILTINS if b.ops[:1] in (("MIN",), ("MAX",))]  # min, max
_ALL_ANY = [b.name for b in BUILTINS if "short-circuit" in b.forms]  # all, any
_BOOLOPS: list[type[ast.boolop]] = [getattr(ast, n) for n in BOOLEAN_OPERATORS]  # and, or
_MEMBERSHIP: list[type[ast.cmpop]] = [getattr(ast, n) for n in MEMBERSHIP]  # in, not in
_EQUALITIES: list[type[ast.cmpop]] = [getattr(ast, n) for n in EQUALITIES]  # ==, !=
_ORDERINGS: list[type[ast.cmpop]] = [getattr(ast, n) for n in ORDERINGS]  # <, <=, >, >=


def _cmpop(rng: random.Random, ordering: bool = True) -> ast.cmpop:
    ops = list(_EQUALITIES)
    if ordering:
        ops += [*_ORDERINGS, ast.Lt, ast.GtE]  # < and >= drawn twice as often
    return rng.choice(ops)()


# --------------------------------------------------------------------------------------------
# Generation state.

ENTRY = "solve"
MAX_LOOP_MULT = 100  # product of the iteration bounds of nested loops
MAX_CALL_COST = 600  # a call's estimated cost times the iterations around it
MAX_FN_COST = 3000  # past this estimate a function opens no more loops and makes no more calls
RECURSION_BOUND = 12  # the largest first argument of a recursive call
COLLECTION_BOUND = 8  # the iterations assumed for a loop over a collection


@dataclass
class _Function:
    name: str
    params: list[tuple[str, str]]
    returns: str | None  # None: returns nothing
    bound: int | None = None  # recursive: the first argument lies in [0, bound]
    cost: int = 1  # estimated statements executed per call
    grows: set[str] = field(default_factory=set)  # list types it may lengthen in place
    doubles: bool = False  # may return or build a collection twice as long as its inputs
    calls: set[str] = field(default_factory=set)
    node: ast.FunctionDef | None = None


@dataclass
class _Scope:
    """What one function body knows while it is being generated."""

    fn: _Function
    types: dict[str, str]  # every local name -> its one type
    defined: set[str]  # definitely assigned here
    maybe: set[str] = field(default_factory=set)  # assigned on some path only
    readonly: set[str] = field(default_factory=set)  # loop counters, recursion arguments
    chars: set[str] = field(default_factory=set)  # str variables known to hold one character
    hot: list[str] = field(default_factory=list)  # loop variables, preferred as leaves
    index_vars: dict[str, str] = field(default_factory=dict)  # collection -> range(len()) index
    bounded: set[str] = field(default_factory=set)  # int variables known to stay small
    loops: int = 0
    comprehensions: int = 0
    mult: int = 1  # estimated executions of the current statement per call
    # collection types being iterated here, whose values must not get longer: no append or +=
    # on them, and new values of them no longer than a constant or than an existing value
    frozen: frozenset[str] = frozenset()
    counter: int = 0


class _Generator:
    def __init__(self, rng: random.Random, size: int, depth: int,
                 allowed: frozenset[str]) -> None:
        self.rng = rng
        self.size = max(1, size)
        self.depth = max(0, depth)
        self.expr_depth = self.depth + 1
        self.allowed = allowed
        self.used: set[str] = set()
        self.helpers: list[_Function] = []
        self.doubling_left = 3
        # how freely to use operations that may raise: a big program has many of them, and
        # most of its runs should still return a value
        self.risk = min(1.0, max(0.15, 8 / self.size))
        self.guarding = 0.3 + 0.6 * (1.0 - self.risk)  # how often an access is range-checked
        self.scope = _Scope(_Function("", [], None), {}, set())
        self.types = [t for t in VALUE_TYPES if self.ok(*type_features(t))]
        self.list_types = [t for t in LIST_TYPES if t in self.types]
        self.typing_alias = False
        self.typing_names: set[str] = set()
        self.any_used = False  # a scalar parameter annotated Any: `from typing import Any`
        self.imports_math = False  # math.pi, math.pow, math.isclose: `import math` at the top
        self.tuple_vars = 0  # generator-expression variables over tuples: t0, t1, ...
        # parameters re-bound to another kind (param_rebound): each is one more union for the
        # reference compiler's checker (compiler/reference.py's MAX_UNIONS), so a few at most
        self.rebinds_left = 2

    # ---- randomness and features ------------------------------------------------------------

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def ok(self, *features: str) -> bool:
        return all(f in self.allowed for f in features)

    def use(self, *features: str) -> None:
        for f in features:
            assert f in self.allowed, f"generator used {f!r}, which is not allowed"
            self.used.add(f)

    def choose(self, options: list[tuple[float, tuple[str, ...], Callable[[], T]]]) -> T:
        """Run one of the options whose weight is positive and whose features are allowed."""
        live = [o for o in options if o[0] > 0 and self.ok(*o[1])]
        assert live, "no option is allowed here"
        r = self.rng.random() * sum(o[0] for o in live)
        chosen = live[-1]
        for option in live:
            r -= option[0]
            if r < 0:
                chosen = option
                break
        _, features, build = chosen
        self.use(*features)
        return build()

    def pick_type(self, choices: list[str] | tuple[str, ...] | None = None) -> str:
        candidates = [t for t in (choices or self.types) if t in self.types]
        weights = [_TYPE_WEIGHTS[t] for t in candidates]
        t = self.rng.choices(candidates, weights)[0]
        self.use(*type_features(t))
        return t

    # ---- variables ---------------------------------------------------------------------------

    def new_var(self, t: str, prefix: str | None = None) -> str:
        sc = self.scope
        sc.counter += 1
        name = f"{prefix or _PREFIX[t]}{sc.counter}"
        sc.types[name] = t
        self.use(*type_features(t))
        return name

    def assigned(self, *names: str) -> None:
        """Record assignments: the names are now set, and may no longer hold one character."""
        self.scope.defined.update(names)
        self.scope.chars.difference_update(names)

    def readable(self, t: str) -> list[str]:
        sc = self.scope
        return sorted(n for n in sc.defined if sc.types[n] == t)

    def assignable(self, t: str) -> list[str]:
        sc = self.scope
        return sorted(n for n in sc.defined | sc.maybe
                      if sc.types[n] == t and n not in sc.readonly)

    def variable(self, t: str) -> str | None:
        """A variable of type ``t`` to read, loop variables first; rarely a maybe-unset one."""
        sc = self.scope
        hot = [n for n in sc.hot if sc.types[n] == t and n in sc.defined]
        if hot and self.chance(0.5):
            return self.rng.choice(hot)
        # not inside comprehensions, where CPython 3.11 raises NameError instead
        if self.ok("maybe_unbound") and not sc.comprehensions and self.chance(0.004):
            maybe = sorted(n for n in sc.maybe - sc.defined if sc.types[n] == t)
            if maybe:
                self.use("maybe_unbound")
                return self.rng.choice(maybe)
        names = self.readable(t)
        return self.rng.choice(names) if names else None

    # ---- expressions -------------------------------------------------------------------------

    def stop(self, d: int, top: float = 0.2) -> bool:
        """Whether an expression ``d`` deep should be a leaf: rarely at the top, often below."""
        return d <= 0 or self.chance(top if d >= self.expr_depth else 0.5)

    def has(self, t: str, weight: float) -> float:
        """``weight`` if a variable of type ``t`` exists, else a small part of it: indexing,
        slicing or summing a literal is rarely worth generating."""
        return weight if any(self.scope.types[n] == t for n in self.scope.defined) \
            else weight * 0.1

    def expr(self, t: str, d: int, small: bool = False) -> ast.expr:
        """An expression of exactly type ``t`` at most ``d`` deep. ``small``: a collection of
        bounded length (a literal, a short slice, ...), which may be repeated or concatenated."""
        self.use(*type_features(t))
        if t == INT:
            return self.int_expr(d)
        if t == FLOAT:
            return self.float_expr(d)
        if t == BOOL:
            return self.bool_expr(d)
        if t == STR:
            return self.str_expr(d, small)
        if t in TUPLE_ELEMENTS:
            return self.tuple_expr(t, d)
        return self.list_expr(t, d, small)

    def literal(self, t: str) -> ast.expr:
        rng = self.rng
        if t == INT:
            return _const(_int_literal(rng))
        if t == FLOAT:
            return _const(_float_literal(rng))
        if t == BOOL:
            return _const(rng.random() < 0.5)
        if t == STR:
            return _const(rng.choice(_STR_LITERALS))
        if t in TUPLE_ELEMENTS:
            self.use("tuple")
            return ast.Tuple(elts=[self.literal(e) for e in TUPLE_ELEMENTS[t]], ctx=ast.Load())
        self.use("list_display")
        count = rng.choice([1, 1, 2, 2, 3, 4]) if t != GRID else rng.randint(1, 3)
        return ast.List(elts=[self.literal(ELEMENT[t]) for _ in range(count)], ctx=ast.Load())

    def leaf(self, t: str, small: bool = False) -> ast.expr:
        """A variable of type ``t``; failing that, often a value made from a variable of
        another type (so that results depend on the inputs); else a literal."""
        name = None if small else self.variable(t)
        if name is not None and self.chance(0.85):
            return _name(name)
        if small and t in (STR, *LIST_TYPES) and self.chance(0.3):
            short = self.short_slice(t)
            if short is not None:
                return short
        if self.chance(0.6 if name is None else 0.2):
            bridged = self.bridge(t, small)
            if bridged is not None:
                return bridged
        return self.literal(t)

    def bridge(self, t: str, small: bool) -> ast.expr | None:
        """An expression of type ``t`` from a variable of another type: a length, an element,
        a conversion, a comparison. None if no variable serves."""
        rng = self.rng
        sc = self.scope
        have = {sc.types[n] for n in sc.defined}

        def var(vt: str) -> ast.expr:
            return _name(rng.choice(self.readable(vt)))

        options: list[tuple[float, tuple[str, ...], Callable[[], ast.expr]]] = []

        def add(weight: float, source: str, features: tuple[str, ...],
                build: Callable[[], ast.expr]) -> None:
            if source in have:
                options.append((weight, features, build))

        def each(source: str, build: Callable[[str], ast.expr]) -> Callable[[], ast.expr]:
            return lambda: build(source)

        def item(tt: str, position: int) -> Callable[[], ast.expr]:
            return lambda: _index(var(tt), _const(position))

        for tt in TUPLE_ELEMENTS:
            for position, et in enumerate(TUPLE_ELEMENTS[tt]):
                if et == t and not (small and t in COLLECTION_TYPES):
                    add(1, tt, ("tuple_index",), item(tt, position))
        if t == INT:
            add(1, FLOAT, ("int_conv",), lambda: _call("int", var(FLOAT)))
            add(0.3, BOOL, ("int_conv",), lambda: _call("int", var(BOOL)))
            for st in (STR, *LIST_TYPES):
                add(1, st, ("len",), each(st, lambda v: _call("len", var(v))))
            add(1.5, LIST_INT, ("list_index",), lambda: self.element(LIST_INT, 1))
        elif t == FLOAT:
            add(1, INT, ("float_conv",), lambda: _call("float", var(INT)))
            add(1, INT, ("truediv",), lambda: _bin(var(INT), ast.Div(), _const(rng.choice([2, 4]))))
            add(1.5, LIST_FLOAT, ("list_index",), lambda: self.element(LIST_FLOAT, 1))
        elif t == BOOL:
            for st in (INT, FLOAT):
                add(1, st, ("compare",), each(st, lambda v: _compare(
                    var(v), [_cmpop(rng)], [self.literal(v)])))
            for st in (STR, *LIST_TYPES):
                add(0.5, st, ("bool_conv",), each(st, lambda v: _call("bool", var(v))))
        elif t == STR:
            add(1, INT, ("str_conv",), lambda: _call("str", var(INT)))
            add(0.3, BOOL, ("str_conv",), lambda: _call("str", var(BOOL)))
            if not small:
                add(1.5, LIST_STR, ("list_index",), lambda: self.element(LIST_STR, 1))
        elif t in LIST_TYPES:
            add(1, ELEMENT[t], ("list_display",), lambda: ast.List(
                elts=[var(ELEMENT[t])], ctx=ast.Load()))
            if t == LIST_STR and not small:
                add(1, STR, ("list_conv",), lambda: _call("list", var(STR)))
                add(0.5, STR, ("sorted",), lambda: _call("sorted", var(STR)))
            if t == LIST_INT and not small:
                add(1, GRID, ("list_index",), lambda: self.element(GRID, 1))
        options = [o for o in options if self.ok(*o[1])]
        return self.choose(options) if options else None

    def short_slice(self, t: str) -> ast.expr | None:
        """``v[:k]`` or ``v[-k:]`` of a variable: a collection of bounded length."""
        feature = "str_slice" if t == STR else "list_slice"
        name = self.variable(t)
        if name is None or not self.ok(feature):
            return None
        self.use(feature)
        k = self.rng.randint(1, 3)
        if self.chance(0.5) or not self.ok("negative_index"):
            return _index(_name(name), ast.Slice(upper=_const(k)))
        self.use("negative_index")
        return _index(_name(name), ast.Slice(lower=_const(-k)))

    def bounded(self, k: int, d: int) -> ast.expr:
        """An int expression whose value lies in [0, k)."""
        options: list[tuple[float, tuple[str, ...], Callable[[], ast.expr]]] = [
            (1.0, (), lambda: _const(self.rng.randint(0, k - 1))),
            (2.0, ("mod",), lambda: _bin(self.expr(INT, d), ast.Mod(), _const(k))),
            (0.5, ("abs", "min_max"),
             lambda: _call("min", _call("abs", self.expr(INT, d)), _const(k - 1))),
        ]
        sized = self.sized_variable()
        if sized is not None:
            options.append((0.7, ("len", "mod"),
                            lambda: _bin(_call("len", _name(sized)), ast.Mod(), _const(k))))
        return self.choose(options)

    def sized_variable(self) -> str | None:
        names = [n for t in (STR, *self.list_types) if t in self.types
                 for n in self.readable(t)]
        return self.rng.choice(names) if names else None

    def sized_expr(self, d: int) -> ast.expr:
        t = self.pick_type([STR, *self.list_types])
        return self.expr(t, d)

    def divisor(self, t: str, d: int) -> ast.expr:
        """A right operand for ``/ // %``: mostly a non-zero literal; an expression may be 0."""
        if not self.chance(0.3 * self.risk):
            if t == FLOAT:
                return _const(self.rng.choice([2.0, 0.5, -1.5, 2.5, -4.0, 3.0, 1.0, -0.25]))
            return _const(self.rng.choice([2, 3, 4, 5, 7, 10, -2, -3, -5, 1, -1]))
        value = self.expr(t, d)
        if self.chance(self.guarding):
            # the guards people write: (d or 1), abs(d) + 1
            one = _const(1 if t == INT else 1.0)
            if self.ok("boolop_value") and self.chance(0.5):
                self.use("boolop_value")
                return ast.BoolOp(op=ast.Or(), values=[value, one])
            if self.ok("abs", "arith"):
                self.use("abs", "arith")
                return _bin(_call("abs", value), ast.Add(), one)
        return value

    def can_double(self) -> bool:
        """Whether a collection may be built from two unbounded ones here (outside loops)."""
        if self.scope.mult > 1 or self.doubling_left <= 0 or not self.chance(0.3):
            return False
        self.doubling_left -= 1
        self.scope.fn.doubles = True
        return True

    def callees(self, t: str | None) -> list[_Function]:
        sc = self.scope
        return [f for f in self.helpers
                if f.returns == t and sc.mult * f.cost <= MAX_CALL_COST
                and sc.fn.cost < MAX_FN_COST and not (f.grows & sc.frozen)
                and not (f.doubles and (sc.mult > 1 or self.doubling_left <= 0))]

    def call(self, t: str | None, d: int) -> ast.Call:
        sc = self.scope
        candidates = self.callees(t)
        uncalled = [f for f in candidates if not any(f.name in g.calls for g in self.helpers)
                    and f.name not in sc.fn.calls]
        fn = self.rng.choice(uncalled if uncalled and self.chance(0.7) else candidates)
        sc.fn.calls.add(fn.name)
        sc.fn.cost += sc.mult * fn.cost
        sc.fn.grows |= fn.grows
        if fn.doubles:
            self.doubling_left -= 1
            sc.fn.doubles = True
        args = []
        for i, (_, pt) in enumerate(fn.params):
            if i == 0 and fn.bound is not None:
                args.append(self.bounded(fn.bound + 1, d))
            else:
                args.append(self.expr(pt, d))
        return _call(fn.name, *args)

    def int_expr(self, d: int) -> ast.expr:
        if self.stop(d):
            return self.leaf(INT)
        e = d - 1
        rng = self.rng
        sized = [STR, *self.list_types]
        tuples = [t for t in TUPLE_ELEMENTS if t in self.types and INT in TUPLE_ELEMENTS[t]]
        return self.choose([
            (2, (), lambda: self.leaf(INT)),
            # math.floor / math.ceil of an int or a float: one call per alternative
            (0.2, ("union_values",), lambda: self.math_of_number(e)),
            (4, ("arith",), lambda: _bin(self.expr(INT, e), rng.choice([ast.Add, ast.Sub])(),
                                         self.expr(INT, e))),
            (2, ("arith",), lambda: self.product(e)),
            (1.5, ("floordiv",), lambda: _bin(self.expr(INT, e), ast.FloorDiv(),
                                              self.divisor(INT, e))),
            (1.5, ("mod",), lambda: _bin(self.expr(INT, e), ast.Mod(), self.divisor(INT, e))),
            (0.8, ("pow",), lambda: self.power(e)),
            (1.2, ("bitwise",), lambda: _bin(self.expr(INT, e),
                                             rng.choice([ast.BitAnd, ast.BitOr, ast.BitXor])(),
                                             self.expr(INT, e))),
            (0.4, ("bitwise",), lambda: ast.UnaryOp(op=ast.Invert(), operand=self.expr(INT, e))),
            (0.4, ("shift",), lambda: _bin(self.expr(INT, e), ast.RShift(),
                                           self.shift_amount(e))),
            (0.4, ("shift",), lambda: _bin(self.expr(INT, e), ast.LShift(),
                                           _const(rng.randint(0, 3)) if self.linear()
                                           else self.shift_amount(e))),
            (0.8, ("unary",), lambda: ast.UnaryOp(op=rng.choice([ast.USub, ast.USub, ast.UAdd])(),
                                                  operand=self.expr(INT, e))),
            (0.6, ("bool_arith", "bool"), lambda: self.bool_arith(e)),
            (1, ("ifexp",), lambda: ast.IfExp(test=self.cond(e), body=self.expr(INT, e),
                                              orelse=self.expr(INT, e))),
            (0.6, ("abs",), lambda: _call("abs", self.expr(INT, e))),
            (0.8, ("min_max",), lambda: _call(rng.choice(_MIN_MAX),
                                              *[self.expr(INT, e)
                                                for _ in range(rng.choice([2, 2, 3]))])),
            (0.5, ("int_conv", "float"), lambda: _call("int", self.expr(FLOAT, e))),
            (0.2, ("int_conv", "bool"), lambda: _call("int", self.expr(BOOL, e))),
            (0.5, ("int_of_str", "str"), lambda: _call("int", self.numeric_str(e))),
            (0.3, ("int_base",), lambda: self.int_of_base(e)),
            (max(self.has(t, 1.5) for t in sized) if any(t in self.types for t in sized) else 0,
             ("len",), lambda: _call("len", self.sized_expr(e))),
            (self.has(LIST_INT, 1), ("sum", "list[int]"),
             lambda: _call("sum", self.expr(LIST_INT, e))),
            # sum/max/min(filter(lambda v: v OP k, xs)): consumed at once (max of none: ValueError)
            (self.has(LIST_INT, 0.3), ("filter_consumed",), lambda: self.filtered(e)),
            (0.4, ("sum", "list[bool]", "listcomp"), lambda: _call("sum", self.bool_list(e))),
            (self.has(LIST_INT, 0.6), ("min_max_list", "list[int]"),
             lambda: self.extreme(LIST_INT, e)),
            (self.has(LIST_INT, 0.2), ("min_max_default",),
             lambda: _call(rng.choice(_MIN_MAX), self.expr(LIST_INT, e), keywords=[
                 ast.keyword(arg="default", value=self.expr(INT, e, small=True))])),
            (max(self.has(LIST_INT, 2), self.has(GRID, 1)), ("list_index", "list[int]"),
             lambda: self.element(LIST_INT, e)),
            (0.3 if self.pop_target(INT) else 0, ("pop",), lambda: self.pop_expr(INT, e)),
            (self.has(STR, 0.6), ("ord", "str"), lambda: _call("ord", self.char(e))),
            (self.has(STR, 0.5), ("str_method",), lambda: self.str_method(INT, e, False)),
            (0.4, ("set_ops",), lambda: _call("len", self.set_of(e))),
            (0.4, ("dict_ops",), lambda: self.dict_lookup(e)),
            (max(self.has(t, 0.6) for t in tuples) if tuples else 0, ("tuple_index",),
             lambda: self.tuple_item(tuples, INT, e)),
            (self.has(TUPLE_INTS, 0.6), ("tuple_iter",), lambda: self.tuple_items(e)),
            (self.has(LIST_INT, 0.5), ("dynamic_tuple",), lambda: self.dynamic_tuple_int(e)),
            (self.has(LIST_INT, 0.4), ("next_default",), lambda: self.next_item(e)),
            (2 if self.callees(INT) else 0, ("call",), lambda: self.call(INT, e)),
            (0.8 if self.dict_sources(INT) else 0, ("dict_result",),
             lambda: self.dict_reading(INT, e)),
            (0.3, ("boolop_value",), lambda: ast.BoolOp(op=rng.choice(_BOOLOPS)(),
                                                        values=[self.expr(INT, e),
                                                                self.expr(INT, e)])),
        ])

    def int_of_base(self, d: int) -> ast.expr:
        """``int(s, base)``: digits of the base, its prefix, underscores, signs and spaces, some
        invalid (ValueError), and bases 0, 2..36, or out of range."""
        rng = self.rng
        text = _const(rng.choice(["ff", "0x1F", " -0b101 ", "0o17", "z", "1_0", "07", "0", "-7",
                                  "0x", "1__0", "_1", "+0_0", "Az", "12", "\t9\n", "0b_1"]))
        if self.chance(0.3):
            text = self.numeric_str(d)
        base = _const(rng.choice([0, 0, 2, 8, 10, 16, 16, 36, 1, 37]))
        if self.chance(0.2):
            base = self.expr(INT, d, small=True)
        return _call("int", text, base)

    def numeric_str(self, d: int) -> ast.expr:
        """A str for int() to parse: mostly digits, in the forms int() accepts and rejects."""
        rng = self.rng
        return self.choose([
            (3, ("str_conv",), lambda: _call("str", self.expr(INT, d))),
            (2, (), lambda: _const(rng.choice(["12", "-3", " 7 ", "+5", "007", "1_000", "0",
                                               "-0", "\t42\n", "99"]))),
            (1, ("str_conv", "str_concat"),
             lambda: _bin(_call("str", self.expr(INT, d)), ast.Add(),
                          _const(rng.choice(["0", "5", "_1", " "])))),
            (self.has(STR, self.risk), (), lambda: self.expr(STR, d)),
        ])

    def linear(self) -> bool:
        """Whether int expressions here must grow values at most by a bounded factor.

        Code that runs more than once per call (loops, comprehensions, recursion) and helper
        functions (which may be called in loops) can feed a value back into itself: there,
        products need a small operand and powers a small base, so that magnitudes grow
        geometrically at worst instead of squaring on every pass. The entry function's own
        straight-line code runs once and may do anything."""
        return self.scope.mult > 1 or self.scope.fn.name != ENTRY

    def small_factor(self, d: int) -> ast.expr:
        """An int of bounded magnitude: a literal, a loop index, a length."""
        rng = self.rng
        sc = self.scope
        indices = sorted(n for n in sc.bounded if n in sc.defined)
        sized = self.sized_variable()
        return self.choose([
            (3, (), lambda: _const(rng.choice([2, 3, 4, 5, 10, -1, -2, -3]))),
            (3 if indices else 0, (), lambda: _name(rng.choice(indices))),
            (1 if sized else 0, ("len",), lambda: _call("len", _name(sized or ""))),
        ])

    def product(self, d: int) -> ast.expr:
        if not self.linear():
            return _bin(self.expr(INT, d), ast.Mult(), self.expr(INT, d))
        parts = [self.expr(INT, d), self.small_factor(d)]
        self.rng.shuffle(parts)
        return _bin(parts[0], ast.Mult(), parts[1])

    def power(self, d: int) -> ast.expr:
        if self.linear():
            return _bin(self.small_factor(d), ast.Pow(), _const(self.rng.randint(0, 3)))
        exponent = _const(self.rng.randint(0, 3)) if self.chance(0.8) else self.bounded(4, d)
        return _bin(self.expr(INT, d), ast.Pow(), exponent)

    def shift_amount(self, d: int) -> ast.expr:
        if not self.chance(0.1 * self.risk):
            return self.bounded(6, d) if self.chance(0.3) else _const(self.rng.randint(0, 5))
        return self.expr(INT, d)  # may be negative: ValueError

    def bool_arith(self, d: int) -> ast.expr:
        op = self.rng.choice([ast.Add, ast.Sub, ast.Mult])()
        if self.chance(0.5):
            return _bin(self.expr(BOOL, d), op, self.expr(INT, d))
        return _bin(self.expr(INT, d), op, self.expr(BOOL, d))

    def bool_list(self, d: int) -> ast.expr:
        self.use(*type_features(LIST_BOOL))
        return self.comprehension(LIST_BOOL, d)

    def float_expr(self, d: int) -> ast.expr:
        if self.stop(d):
            return self.leaf(FLOAT)
        e = d - 1
        rng = self.rng
        tuples = [t for t in TUPLE_ELEMENTS if t in self.types and FLOAT in TUPLE_ELEMENTS[t]]
        fs = self.readable(LIST_FLOAT)

        # sum() of an empty list[float] is the int 0: only sum lists known to be non-empty
        def guarded_sum() -> ast.expr:
            v = _name(rng.choice(fs))
            return ast.IfExp(test=v, body=_call("sum", v), orelse=_const(0.0))

        def padded_sum() -> ast.expr:
            return _call("sum", _bin(ast.List(elts=[_const(0.0)], ctx=ast.Load()), ast.Add(),
                                     self.expr(LIST_FLOAT, e)))

        return self.choose([
            (2, (), lambda: self.leaf(FLOAT)),
            (6, ("arith",), lambda: self.mixed(rng.choice([ast.Add, ast.Sub, ast.Mult])(), e)),
            (2, ("truediv",), lambda: self.true_division(e)),
            (0.7, ("floordiv",), lambda: self.mixed(ast.FloorDiv(), e, divisor=True)),
            (0.7, ("mod",), lambda: self.mixed(ast.Mod(), e, divisor=True)),
            (0.6, ("pow",), lambda: self.float_power(e)),
            (0.6, ("unary",), lambda: ast.UnaryOp(op=ast.USub(), operand=self.expr(FLOAT, e))),
            (0.7, ("float_conv",), lambda: _call("float", self.expr(INT, e))),
            (0.2, ("float_conv", "bool"), lambda: _call("float", self.expr(BOOL, e))),
            (0.1, ("float_conv",), lambda: _call("float", self.expr(FLOAT, e))),
            # float(s) of a str: CPython's parse (ValueError, or Unsupported past 15 digits)
            (0.3, ("float_of_str", "str_conv"),
             lambda: _call("float", _call("str", self.expr(INT, e)))),
            (0.1, ("float_of_str",), lambda: _call("float", self.expr(STR, e))),
            (0.8, ("ifexp",), lambda: ast.IfExp(test=self.cond(e), body=self.expr(FLOAT, e),
                                                orelse=self.expr(FLOAT, e))),
            (0.5, ("abs",), lambda: _call("abs", self.expr(FLOAT, e))),
            # round(x, n): CPython's decimal rounding (a large x * 10**n is left to CPython)
            (0.4, ("round_ndigits",), lambda: _call("round", self.expr(FLOAT, e),
                                                    _const(rng.choice([0, 1, 2, 3])))),
            (0.6, ("min_max",), lambda: _call(rng.choice(_MIN_MAX), self.expr(FLOAT, e),
                                              self.expr(FLOAT, e))),
            (self.has(LIST_FLOAT, 1.2), ("list_index", "list[float]"),
             lambda: self.element(LIST_FLOAT, e)),
            (0.5 if fs else 0, ("sum", "list[float]", "ifexp", "truthy"), guarded_sum),
            (self.has(LIST_FLOAT, 0.3), ("sum", "list[float]", "list_concat"), padded_sum),
            (self.has(LIST_FLOAT, 0.5), ("min_max_list", "list[float]"),
             lambda: self.extreme(LIST_FLOAT, e)),
            (max(self.has(t, 0.5) for t in tuples) if tuples else 0, ("tuple_index",),
             lambda: self.tuple_item(tuples, FLOAT, e)),
            (0.4, ("math_extras",), lambda: self.math_float(e)),
            # an int or a float (a tagged union) in arithmetic that makes a float of either
            (0.4, ("union_values",), lambda: _bin(self.number(e), rng.choice(
                [ast.Add, ast.Sub, ast.Mult])(), self.expr(FLOAT, e))),
            (0.2, ("union_values", "min_max"), lambda: _bin(_call(rng.choice(_MIN_MAX),
                self.expr(INT, e), self.expr(FLOAT, e)), ast.Mult(), _const(1.0))),
            (2 if self.callees(FLOAT) else 0, ("call",), lambda: self.call(FLOAT, e)),
            (0.2, ("boolop_value",), lambda: ast.BoolOp(op=rng.choice(_BOOLOPS)(),
                                                        values=[self.expr(FLOAT, e),
                                                                self.expr(FLOAT, e)])),
        ])

    def number(self, d: int) -> ast.expr:
        """`int_expr if cond else float_expr`: an int or a float, known only at run time."""
        body, orelse = self.expr(INT, d), self.expr(FLOAT, d)
        if self.chance(0.5):
            body, orelse = orelse, body
        return ast.IfExp(test=self.cond(d), body=body, orelse=orelse)

    def math_of_number(self, d: int) -> ast.expr:
        """``math.floor(n)`` / ``math.ceil(n)`` of an int-or-float ``n`` (self.number)."""
        self.imports_math = True
        func = ast.Attribute(value=_name("math"), attr=self.rng.choice(["floor", "ceil"]),
                             ctx=ast.Load())
        return ast.Call(func=func, args=[self.number(d)], keywords=[])

    def ints_of_numbers(self, d: int) -> ast.expr:
        """``[u for u in [n1, n2, 3] if isinstance(u, int)]`` (or ``type(u) == float``, then
        ``int(u)``): the items of a list of ints and floats that the condition narrows."""
        sc = self.scope
        sc.counter += 1
        var = f"u{sc.counter}"  # local to the comprehension, of no declared type
        items = [self.number(d) for _ in range(self.rng.choice([1, 2, 3]))] + [self.leaf(INT)]
        if self.chance(0.5):
            test = _call("isinstance", _name(var), _name("int"))
            elt: ast.expr = _name(var)
        else:
            test = _compare(_call("type", _name(var)), [ast.Eq()], [_name("float")])
            elt = _call("int", _name(var))
        gen = ast.comprehension(target=_name(var, store=True),
                                iter=ast.List(elts=items, ctx=ast.Load()), ifs=[test], is_async=0)
        return ast.ListComp(elt=elt, generators=[gen])

    def mixed(self, op: ast.operator, d: int, divisor: bool = False) -> ast.expr:
        """A float from ``op``: at least one float operand, sometimes an int one."""
        right: ast.expr
        if self.ok("int_float_mix") and self.chance(0.35):
            self.use("int_float_mix")
            if self.chance(0.5):
                right = self.divisor(INT, d) if divisor else self.expr(INT, d)
                return _bin(self.expr(FLOAT, d), op, right)
            right = self.divisor(FLOAT, d) if divisor else self.expr(FLOAT, d)
            return _bin(self.expr(INT, d), op, right)
        right = self.divisor(FLOAT, d) if divisor else self.expr(FLOAT, d)
        return _bin(self.expr(FLOAT, d), op, right)

    def true_division(self, d: int) -> ast.expr:
        left_t, right_t = self.rng.choice([(INT, INT), (FLOAT, FLOAT), (INT, FLOAT), (FLOAT, INT)])
        if FLOAT not in self.types:
            left_t = right_t = INT
        if left_t != right_t:
            if not self.ok("int_float_mix"):
                left_t = right_t = FLOAT
            else:
                self.use("int_float_mix")
        return _bin(self.expr(left_t, d), ast.Div(), self.divisor(right_t, d))

    def float_power(self, d: int) -> ast.expr:
        # int exponents only, or a non-negative base: a negative base to a fractional power is
        # a complex number in Python
        if self.ok("abs") and self.chance(0.3):
            self.use("abs")
            return _bin(_call("abs", self.expr(FLOAT, d)), ast.Pow(),
                        _const(self.rng.choice([0.5, 1.5, 2.0])))
        return _bin(self.expr(FLOAT, d), ast.Pow(), _const(self.rng.choice([0, 1, 2, 2, 3, -1])))

    def cond(self, d: int) -> ast.expr:
        """A condition: a bool, or sometimes a value tested for truth."""
        if self.ok("truthy") and self.chance(0.12):
            self.use("truthy")
            return self.expr(self.pick_type([INT, STR, *self.list_types]), d)
        return self.bool_expr(d)

    def bool_expr(self, d: int) -> ast.expr:
        if self.stop(d, 0.1):
            return self.leaf(BOOL) if self.ok("bool") else self.literal(BOOL)
        e = d - 1
        rng = self.rng
        tuples = [t for t in TUPLE_ELEMENTS if t in self.types and BOOL in TUPLE_ELEMENTS[t]]
        return self.choose([
            (1, ("bool",), lambda: self.leaf(BOOL)),
            (7, ("compare",), lambda: self.comparison(e)),
            (1, ("chained_compare",), lambda: self.chained(e)),
            (2, ("boolop",), lambda: ast.BoolOp(op=rng.choice(_BOOLOPS)(),
                                                values=[self.bool_expr(e) for _ in
                                                        range(rng.choice([2, 2, 3]))])),
            (1, ("not",), lambda: ast.UnaryOp(op=ast.Not(), operand=self.cond(e))),
            (1 if self.list_types else 0, ("list_in",), lambda: self.membership(e)),
            # an int in a range: a <= x < b, nothing materialised
            (0.3, ("range_in",), lambda: _compare(
                self.expr(INT, e), [rng.choice(_MEMBERSHIP)()],
                [_call("range", *([self.expr(INT, e, small=True)] if self.chance(0.5) else []),
                       self.expr(INT, e, small=True))])),
            (0.6, ("str_method",), lambda: self.str_method(BOOL, e, False)),
            (0.5 if self.list_types else 0, ("all_any",), lambda: self.all_any(e)),
            (0.4, ("set_ops",), lambda: self.set_test(e)),
            (0.3, ("type_compare",), lambda: self.type_compare(e)),
            (0.3, ("union_values",), lambda: _compare(self.number(e), [_cmpop(rng)],
                                                      [self.expr(rng.choice([INT, FLOAT]), e)])),
            (0.15, ("union_values",), lambda: _call("isinstance", self.number(e),
                                                    _name(rng.choice(["int", "float"])))),
            # an int past 2**53 against a float: CPython compares them exactly (CMP_IF)
            (0.1, ("int_float_mix", "float"), lambda: _compare(
                _const(rng.choice([1, -1]) * (2 ** 53 + rng.randint(1, 3))), [_cmpop(rng)],
                [self.expr(FLOAT, e)])),
            (1, ("str_in", "str"), lambda: _compare(self.expr(STR, e, small=True),
                                                    [rng.choice(_MEMBERSHIP)()],
                                                    [self.expr(STR, e)])),
            (0.5, ("bool_conv",), lambda: _call("bool", self.expr(
                self.pick_type([INT, FLOAT, STR, *self.list_types]), e))),
            (0.5, ("ifexp", "bool"), lambda: ast.IfExp(test=self.cond(e), body=self.expr(BOOL, e),
                                                       orelse=self.expr(BOOL, e))),
            (max(self.has(t, 0.4) for t in tuples) if tuples else 0, ("tuple_index",),
             lambda: self.tuple_item(tuples, BOOL, e)),
            (0.3, ("math_extras", "float"), lambda: self.isclose(e)),
            (self.has(LIST_INT, 0.4), ("dynamic_tuple",), lambda: self.dynamic_tuple_test(e)),
            (0.3, ("is_integer",), lambda: _method(self.expr(FLOAT, e), "is_integer")),
            (1.5 if self.callees(BOOL) else 0, ("call",), lambda: self.call(BOOL, e)),
            (0.6 if self.dict_sources(BOOL) else 0, ("dict_result",),
             lambda: self.dict_reading(BOOL, e)),
        ])

    def is_bool(self, node: ast.Compare) -> ast.Compare:
        """`x == True` as `x is True` (`!=` as `is not`: the same for a bool, types.py's isbool
        plan) where the feature is allowed; decided without drawing, so that programs without
        it stay as they were."""
        right = node.comparators[0]
        if isinstance(right, ast.Constant) and isinstance(right.value, bool) and self.ok("is_bool"):
            self.use("is_bool")
            node.ops = [ast.Is() if isinstance(node.ops[0], ast.Eq) else ast.IsNot()]
        return node

    def comparison(self, d: int) -> ast.expr:
        rng = self.rng
        kinds: list[tuple[float, tuple[str, ...], Callable[[], ast.expr]]] = [
            (5, (), lambda: self.numeric_pair(d, _cmpop(rng))),
            (1.5, ("str_compare", "str"), lambda: _compare(self.expr(STR, d), [_cmpop(rng)],
                                                           [self.expr(STR, d)])),
            (0.5, ("bool",), lambda: self.is_bool(_compare(
                self.expr(BOOL, d), [_cmpop(rng, ordering=False)], [self.expr(BOOL, d)]))),
        ]
        if self.list_types:
            kinds.append((1, ("list_compare",), lambda: self.same_type_comparison(
                self.pick_type(self.list_types), d)))
        tuples = [t for t in TUPLE_ELEMENTS if t in self.types]
        if tuples:
            kinds.append((0.5, ("tuple_compare",), lambda: self.same_type_comparison(
                self.pick_type(tuples), d)))
        if len(self.types) > 2:
            kinds.append((0.3, ("cross_type_equality",), lambda: self.cross_type_equality(d)))
        return self.choose(kinds)

    def cross_type_equality(self, d: int) -> ast.expr:
        """== or != of two values of types that never hold equal values (a str and an int, a
        list[int] and a list[str]: equal only when both are empty, a list and a tuple)."""
        numeric = {INT, FLOAT, BOOL}
        a = self.pick_type()
        numeric_lists = {LIST_INT, LIST_FLOAT, LIST_BOOL}
        others = [t for t in self.types if t != a and not (a in numeric and t in numeric)
                  and not (a in numeric_lists and t in numeric_lists)
                  and not (a in TUPLE_ELEMENTS and t in TUPLE_ELEMENTS)]
        if not others:
            return self.numeric_pair(d, ast.Eq())
        b = self.rng.choice(others)
        op = ast.Eq() if self.chance(0.5) else ast.NotEq()
        return _compare(self.expr(a, d), [op], [self.expr(b, d)])

    def same_type_comparison(self, t: str, d: int) -> ast.expr:
        return _compare(self.expr(t, d), [_cmpop(self.rng)], [self.expr(t, d)])

    def numeric_pair(self, d: int, op: ast.cmpop) -> ast.expr:
        left, right = INT, INT
        if FLOAT in self.types and self.chance(0.35):
            left, right = self.rng.choice([(FLOAT, FLOAT), (INT, FLOAT), (FLOAT, INT)])
            if left != right:
                if self.ok("int_float_mix"):
                    self.use("int_float_mix")
                else:
                    left = right = FLOAT
        return _compare(self.expr(left, d), [op], [self.expr(right, d)])

    def chained(self, d: int) -> ast.expr:
        t = STR if STR in self.types and self.chance(0.2) else INT
        if t == INT and FLOAT in self.types and self.chance(0.2):
            t = FLOAT
        count = self.rng.choice([2, 2, 3])
        return _compare(self.expr(t, d), [_cmpop(self.rng) for _ in range(count)],
                        [self.expr(t, d) for _ in range(count)])

    def membership(self, d: int) -> ast.expr:
        lt = self.pick_type(self.list_types)
        return _compare(self.expr(ELEMENT[lt], d), [self.rng.choice(_MEMBERSHIP)()],
                        [self.expr(lt, d)])

    def tuple_item(self, tuples: list[str], t: str, d: int) -> ast.expr:
        tt = self.rng.choice(tuples)
        positions = [i for i, et in enumerate(TUPLE_ELEMENTS[tt]) if et == t]
        return _index(self.expr(tt, d), _const(self.rng.choice(positions)))

    # ---- collections -------------------------------------------------------------------------

    def index_for(self, target: ast.expr, d: int) -> ast.expr:
        """An index into ``target``: usually in range, sometimes not (IndexError)."""
        rng = self.rng
        name = target.id if isinstance(target, ast.Name) else None
        options: list[tuple[float, tuple[str, ...], Callable[[], ast.expr]]] = [
            (3, (), lambda: _const(0)),
            (self.risk if name else 0, (), lambda: _const(rng.randint(1, 2))),
            (2, ("negative_index",), lambda: _const(-1)),
            (0.5 * self.risk if name else 0, ("negative_index",),
             lambda: _const(rng.choice([-2, -3]))),
            (self.risk if name else 0.1 * self.risk, (), lambda: self.expr(INT, d)),
        ]
        if name is not None:
            options.append((2, ("mod", "len"),
                            lambda: _bin(self.expr(INT, d), ast.Mod(), _call("len", _name(name)))))
            options.append((1, ("len", "arith"),
                            lambda: _bin(_call("len", _name(name)), ast.Sub(), _const(1))))
            index_var = self.scope.index_vars.get(name)
            if index_var is not None and index_var in self.scope.defined:
                options.append((6, (), lambda: _name(index_var)))
        return self.choose(options)

    def collection(self, t: str, d: int) -> ast.expr:
        """A collection to index or iterate over: usually a variable."""
        name = self.variable(t)
        if name is not None and self.chance(0.75):
            return _name(name)
        return self.expr(t, d)

    def element(self, t: str, d: int) -> ast.expr:
        """``xs[i]`` of a list of type ``t`` (or ``grid[i][j]``)."""
        if ELEMENT[t] == INT and GRID in self.types and self.ok("nested_list") and \
                self.chance(0.2):
            row = self.element(GRID, d)
            return _index(row, self.index_for(row, d))
        target = self.collection(t, d)
        index = self.index_for(target, d)
        return self.guarded_expr(target, index, _index(target, index), ELEMENT[t])

    def index_guard(self, target: ast.expr, index: ast.expr) -> ast.expr | None:
        """A test under which ``target[index]`` is in range, as a careful programmer writes it;
        None where there is none to write."""
        if not isinstance(target, ast.Name):
            return None
        size = _call("len", _name(target.id))
        if isinstance(index, ast.Constant) and self.ok("len", "compare"):
            self.use("len", "compare")
            return _compare(size, [ast.Gt()], [ast.Constant(value=index.value)])
        if isinstance(index, ast.UnaryOp) and isinstance(index.operand, ast.Constant) and \
                self.ok("len", "compare"):
            self.use("len", "compare")
            return _compare(size, [ast.GtE()], [ast.Constant(value=index.operand.value)])
        if isinstance(index, ast.BinOp) and isinstance(index.op, (ast.Mod, ast.Sub)) and \
                self.ok("truthy"):
            self.use("truthy")
            return _name(target.id)
        return None

    def guarded_expr(self, target: ast.expr, index: ast.expr | None, access: ast.expr,
                     t: str, default: ast.expr | None = None) -> ast.expr:
        """``access``, or sometimes ``access if <in range> else <literal>``."""
        if not self.ok("ifexp") or not self.chance(self.guarding):
            return access
        if index is None:
            if not isinstance(target, ast.Name) or not self.ok("truthy"):
                return access
            self.use("truthy")
            test: ast.expr | None = _name(target.id)
        else:
            test = self.index_guard(target, index)
        if test is None:
            return access
        self.use("ifexp")
        return ast.IfExp(test=test, body=access, orelse=default or self.literal(t))

    def guarded_stmt(self, target: ast.expr, index: ast.expr | None,
                     stmt: ast.stmt) -> ast.stmt:
        """``stmt``, or sometimes ``if <in range>: stmt``."""
        if not self.ok("if") or not self.chance(self.guarding):
            return stmt
        if index is None:
            if not isinstance(target, ast.Name) or not self.ok("truthy"):
                return stmt
            self.use("truthy")
            test: ast.expr | None = _name(target.id)
        else:
            test = self.index_guard(target, index)
        if test is None:
            return stmt
        self.use("if")
        return _ifs(test, [stmt])

    def extreme(self, t: str, d: int) -> ast.expr:
        """``min(xs)`` or ``max(xs)``, which raise ValueError on an empty list."""
        target = self.collection(t, d)
        access = _call(self.rng.choice(_MIN_MAX), target)
        return self.guarded_expr(target, None, access, ELEMENT[t] if t != STR else STR)

    def char(self, d: int) -> ast.expr:
        """A str of length one (or an IndexError)."""
        chars = sorted(n for n in self.scope.chars if n in self.scope.defined)
        if chars and self.chance(0.5):
            return _name(self.rng.choice(chars))
        if self.ok("str_index") and self.chance(0.8):
            self.use("str_index")
            target = self.collection(STR, d)
            index = self.index_for(target, d)
            return self.guarded_expr(target, index, _index(target, index), STR,
                                     default=_const(self.rng.choice("az_")))
        return _const(self.rng.choice("abcxyzAZ09 é"))

    def pop_target(self, t: str) -> bool:
        return any(ELEMENT[lt] == t and self.readable(lt) for lt in self.list_types)

    def pop_expr(self, t: str, d: int) -> ast.expr:
        lt = self.rng.choice([lt for lt in self.list_types if ELEMENT[lt] == t and
                              self.readable(lt)])
        target = _name(self.rng.choice(self.readable(lt)))
        if self.ok("pop_index") and self.chance(0.4):
            self.use("pop_index")
            index = self.index_for(target, d)
            return self.guarded_expr(target, index, _method(target, "pop", index), t)
        return self.guarded_expr(target, None, _method(target, "pop"), t)

    def slice_of(self, target: ast.expr, d: int, feature: str) -> ast.expr:
        rng = self.rng
        self.use(feature)

        def bound() -> ast.expr | None:
            r = rng.random()
            if r < 0.35:
                return None
            if r < 0.9:
                value = rng.randint(-4, 5)
                if value < 0:
                    if not self.ok("negative_index"):
                        return None
                    self.use("negative_index")
                return _const(value)
            return self.expr(INT, d)

        lower, upper, step = bound(), bound(), None
        if self.ok("slice_step") and self.chance(0.35):
            self.use("slice_step")
            step = _const(rng.choice([-1, -1, 2, 3, -2])) if not self.chance(0.1 * self.risk) \
                else self.expr(INT, d)  # may be 0: ValueError
        return _index(target, ast.Slice(lower=lower, upper=upper, step=step))

    def str_expr(self, d: int, small: bool = False) -> ast.expr:
        if self.stop(d):
            return self.leaf(STR, small)
        e = d - 1
        rng = self.rng
        tuples = [t for t in TUPLE_ELEMENTS if t in self.types and STR in TUPLE_ELEMENTS[t]]

        def concat() -> ast.expr:
            if small or STR in self.scope.frozen:
                return _bin(self.expr(STR, e, small=True), ast.Add(),
                            self.expr(STR, e, small=True))
            parts = [self.expr(STR, e), self.expr(STR, e, small=not self.can_double())]
            rng.shuffle(parts)
            return _bin(parts[0], ast.Add(), parts[1])

        return self.choose([
            (2, (), lambda: self.leaf(STR, small)),
            (3, ("str_concat",), concat),
            (1, ("str_repeat",), lambda: _bin(self.expr(STR, e, small=True), ast.Mult(),
                                              self.bounded(4, e))),
            (self.has(STR, 2), ("str_index",), lambda: self.char(e)),
            (self.has(STR, 1.5) if not small else 0, ("str_slice",),
             lambda: self.slice_of(self.collection(STR, e), e, "str_slice")),
            (1, ("str_conv",), lambda: _call("str", self.expr(INT, e))),
            (0.3, ("str_conv", "bool"), lambda: _call("str", self.expr(BOOL, e))),
            (0.1, ("str_conv",), lambda: _call("str", self.expr(STR, e, small))),
            (1, ("chr",), lambda: self.chr_expr(e)),
            (self.has(LIST_STR, 1) if not small else 0, ("list_index", "list[str]"),
             lambda: self.element(LIST_STR, e)),
            (0.8, ("ifexp",), lambda: ast.IfExp(test=self.cond(e), body=self.expr(STR, e, small),
                                                orelse=self.expr(STR, e, small))),
            (0.5, ("min_max",), lambda: _call(rng.choice(_MIN_MAX),
                                              self.expr(STR, e, small), self.expr(STR, e, small))),
            (self.has(STR, 0.4), ("min_max_list",), lambda: self.extreme(STR, e)),
            (0.8, ("str_method",), lambda: self.str_method(STR, e, small)),
            (max(self.has(t, 0.5) for t in tuples) if tuples and not small else 0,
             ("tuple_index",),
             lambda: self.tuple_item(tuples, STR, e)),
            (2 if self.callees(STR) and not small and STR not in self.scope.frozen else 0,
             ("call",), lambda: self.call(STR, e)),
            (0.3 if not small else 0, ("boolop_value",),
             lambda: ast.BoolOp(op=rng.choice(_BOOLOPS)(),
                                values=[self.expr(STR, e), self.expr(STR, e)])),
        ])

    def str_method(self, t: str, d: int, small: bool) -> ast.expr:
        """A str method call giving ``t``. String results are never longer than the operand
        (`replace` puts at most one character for a non-empty one) but for a `zfill` to a
        constant width of at most 8, so loops cannot blow up."""
        rng = self.rng
        s = self.expr(STR, d, small=True)
        if t == INT:
            if self.ok("find_start") and self.chance(0.6):  # s.find(sub, start)
                self.use("find_start")
                return _method(s, "find", self.expr(STR, d, small=True),
                               self.expr(INT, d, small=True))
            return _method(s, rng.choice(["find", "count"]), self.expr(STR, d, small=True))
        if t == BOOL:
            if self.chance(0.3):
                return _method(s, rng.choice(_STR_FAMILY["affix"]), self.expr(STR, d, small=True))
            return _method(s, rng.choice(_STR_FAMILY["class"]))
        kind = rng.choice(["case", "case", "strip", "replace", "split_join"])
        if kind == "strip" and self.ok("str_pad") and self.chance(0.4):
            # s.zfill(w), w a constant: at most 8 characters more
            self.use("str_pad")
            if self.ok("str_concat") and self.chance(0.4):  # a sign: the zeros go after it
                self.use("str_concat")
                s = _bin(_const(rng.choice("+-")), ast.Add(), s)
            return _method(s, rng.choice(_STR_FAMILY["pad"]), _const(rng.randint(-1, 8)))
        if kind == "case":
            return _method(s, rng.choice(_STR_FAMILY["case"]))
        if kind == "strip":
            return _method(s, rng.choice(_STR_FAMILY["strip"]))
        if kind == "replace":
            return _method(s, "replace", _const(rng.choice("ab ")), _const(rng.choice(["", "x"])))
        if self.ok("split_max") and self.chance(0.3):  # rsplit, and split/rsplit(sep, maxsplit)
            self.use("split_max")
            args = [_const(rng.choice(["a", " ", "ab", "-"]))]
            if self.chance(0.7):
                args.append(self.expr(INT, d, small=True))
            pieces = _method(s, rng.choice(["split", "rsplit"]), *args)
            return _method(_const(rng.choice(["", "-"])), "join", pieces)
        pieces = _method(s, "split", *([] if self.chance(0.5) else [_const(rng.choice("a -"))]))
        return _method(_const(rng.choice(["", "-"])), "join", pieces)

    def set_of(self, d: int, elem: str | None = None) -> ast.expr:
        """A set of ints or strs: a display, or set() of a list (or of a string's characters)."""
        rng = self.rng
        elem = elem or self.set_item_type()
        if self.chance(0.3):
            return ast.Set(elts=[self.expr(elem, d, small=True) for _ in range(rng.randint(1, 3))])
        if elem == STR and (self.chance(0.5) or not self.ok("list[str]")):
            return _call("set", self.expr(STR, d, small=True))
        return _call("set", self.expr(LIST_INT if elem == INT else LIST_STR, d, small=True))

    def set_item_type(self) -> str:
        return self.rng.choice([INT, INT, STR] if self.ok("str") else [INT])

    def set_sorted(self, t: str, d: int) -> ast.expr:
        """``sorted(set(...))``: a set's items in an order CPython shows too."""
        source = self.set_of(d, ELEMENT[t])
        if self.ok("set_algebra") and self.chance(0.5):  # & | - ^ and their methods: a new set
            self.use("set_algebra")
            other = self.set_of(d, ELEMENT[t])
            ops = [ast.BitAnd, ast.BitOr, ast.Sub, ast.BitXor]
            if self.chance(0.6):
                source = _bin(source, self.rng.choice(ops)(), other)
            else:
                if isinstance(other, ast.Call) and other.args and self.chance(0.5):
                    other = other.args[0]  # any iterable: the list (or string) itself
                name = self.rng.choice(_SET_FAMILY["op"])
                source = _method(source, name, other)
        if self.chance(0.3):
            reverse = ast.keyword(arg="reverse", value=_const(True))
            return _call("sorted", source, keywords=[reverse])
        return _call("sorted", source)

    def type_compare(self, d: int) -> ast.expr:
        """``type(x) == C`` (``!=``, ``is``, ``is not``): decided by x's static type."""
        rng = self.rng
        value = self.expr(self.pick_type([INT, FLOAT, BOOL, STR, *self.list_types]), d)
        cls = rng.choice(["int", "float", "bool", "str", "list"])
        op = rng.choice([ast.Eq, ast.NotEq, ast.Is, ast.IsNot])()
        return _compare(_call("type", value), [op], [_name(cls)])

    def filtered(self, d: int) -> ast.expr:
        """``sum(filter(lambda fv: fv > k, xs))`` (or max, min): the items kept, consumed."""
        rng = self.rng
        test = _compare(_name("fv"), [rng.choice([ast.Gt, ast.Lt, ast.NotEq])()],
                        [_const(rng.randint(-3, 5))])
        fn = ast.Lambda(args=ast.arguments(posonlyargs=[], args=[ast.arg(arg="fv")], vararg=None,
                                           kwonlyargs=[], kw_defaults=[], kwarg=None,
                                           defaults=[]), body=test)
        return _call(rng.choice(["sum", "sum", "max", "min"]),
                     _call("filter", fn, self.expr(LIST_INT, d)))

    def set_test(self, d: int) -> ast.expr:
        elem = self.set_item_type()
        if self.ok("set_algebra") and self.chance(0.3):
            self.use("set_algebra")
            name = self.rng.choice(_SET_FAMILY["test"])
            return _method(self.set_of(d, elem), name, self.set_of(d, elem))
        if self.chance(0.5):
            return _compare(self.set_of(d, elem), [self.rng.choice([ast.Eq, ast.NotEq])()],
                            [self.set_of(d, elem)])
        return _compare(self.expr(elem, d, small=True), [self.rng.choice(_MEMBERSHIP)()],
                        [self.set_of(d, elem)])

    def dict_lookup(self, d: int) -> ast.expr:
        """``{k: v, ...}[k0]`` or ``.get(k, default)``: repeated keys keep the last value."""
        rng = self.rng
        keys = [self.expr(INT, d, small=True) for _ in range(rng.randint(1, 3))]
        display = ast.Dict(keys=keys, values=[self.expr(INT, d, small=True) for _ in keys])
        key = rng.choice(keys)
        if self.chance(0.5) and not any(  # the key evaluated again after the display: nothing
            # there may have changed what it reads (no method call such as xs.pop() in it)
            isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            for n in ast.walk(display)
        ):
            return _index(display, copy.deepcopy(key))
        if self.ok("setdefault") and self.chance(0.3):  # the value, or the default, added
            self.use("setdefault")
            return _method(display, "setdefault", self.expr(INT, d, small=True),
                           self.expr(INT, d, small=True))
        return _method(display, "get", self.expr(INT, d, small=True), self.expr(INT, d, small=True))

    def tuple_items(self, d: int) -> ast.expr:
        """A tuple whose items share one type, iterated: ``sum(t)``, ``max(t)``, ``min(t)``,
        ``sum(v * 2 for v in t)``, ``t[k]`` of a computed k."""
        t = self.expr(TUPLE_INTS, d)
        rng = self.rng
        if self.chance(0.3):
            var = f"t{self.tuple_vars}"
            self.tuple_vars += 1
            elt = _bin(_name(var), rng.choice([ast.Add, ast.Sub, ast.BitXor])(),
                       _const(rng.randint(-3, 3)))
            gen = ast.GeneratorExp(elt=elt, generators=[ast.comprehension(
                target=_name(var, store=True), iter=t, ifs=[], is_async=0)])
            return _call("sum", gen)
        if self.chance(0.2):  # an index computed at run time (IndexError past the end)
            return _index(t, _bin(_call("len", self.expr(STR, d, small=True)), ast.Mod(),
                                  _const(3)) if STR in self.types else _const(rng.randint(-2, 1)))
        return _call(rng.choice(["sum", "max", "min"]), t)

    def next_item(self, d: int) -> ast.expr:
        """``next((v // k for v in xs if v > k), -1)``: the first item, the generator stopping
        there (a later item's ZeroDivisionError never happens), or the literal default."""
        rng = self.rng
        var = f"t{self.tuple_vars}"
        self.tuple_vars += 1
        k = rng.randint(-2, 3)
        elt = _bin(_name(var), rng.choice([ast.FloorDiv, ast.Add, ast.Mod])(), _const(k)) \
            if self.chance(0.5) else _name(var)
        ifs = [_compare(_name(var), [_cmpop(rng)], [_const(k)])] if self.chance(0.7) else []
        gen = ast.GeneratorExp(elt=elt, generators=[ast.comprehension(
            target=_name(var, store=True), iter=self.expr(LIST_INT, d), ifs=ifs, is_async=0)])
        return _call("next", gen, _const(rng.choice([-1, 0, 7])))

    def dynamic_tuple(self, d: int) -> ast.expr:
        """A tuple[int, ...] (its length known only at run time): ``tuple(v for v in xs if v >
        k)``, ``tuple(sorted(...))`` of such a generator, a slice of one, or one ``+ (k,)``."""
        rng = self.rng
        var = f"t{self.tuple_vars}"
        self.tuple_vars += 1
        gen = ast.GeneratorExp(elt=_name(var), generators=[ast.comprehension(
            target=_name(var, store=True), iter=self.expr(LIST_INT, d),
            ifs=[_compare(_name(var), [_cmpop(rng)], [_const(rng.randint(-2, 3))])],
            is_async=0)])
        made = _call("tuple", _call("sorted", gen) if self.chance(0.3) else gen)
        if self.chance(0.2):
            bounds = [_const(rng.randint(-3, 3)) if self.chance(0.5) else None for _ in range(2)]
            made = ast.Subscript(value=made, slice=ast.Slice(lower=bounds[0], upper=bounds[1]),
                                 ctx=ast.Load())
        if self.chance(0.2):
            extra = ast.Tuple(elts=[_const(rng.randint(-3, 3))], ctx=ast.Load())
            made = (_bin(made, ast.Add(), extra) if self.chance(0.5)
                    else _bin(extra, ast.Add(), made))
        return made

    def dynamic_tuple_int(self, d: int) -> ast.expr:
        """``len(t)``, ``sum(t)``, ``t[k]`` (IndexError past the end) of a tuple[int, ...]."""
        t = self.dynamic_tuple(d)
        kind = self.rng.random()
        if kind < 0.4:
            return _call("len", t)
        if kind < 0.7:
            return _call("sum", t)
        return _index(t, _const(self.rng.randint(-2, 2)))

    def dynamic_tuple_test(self, d: int) -> ast.expr:
        """A tuple[int, ...] compared (==, !=, <, ...) with another, with a tuple display of
        ints (`()` too), or searched (``k in t``)."""
        rng = self.rng
        t = self.dynamic_tuple(d)
        kind = rng.random()
        if kind < 0.3:
            return _compare(self.expr(INT, d, small=True), [rng.choice(_MEMBERSHIP)()], [t])
        if kind < 0.65:
            other = self.dynamic_tuple(d)
        else:
            other = ast.Tuple(elts=[_const(rng.randint(-2, 3)) for _ in range(rng.randint(0, 3))],
                              ctx=ast.Load())
            if self.chance(0.5):
                t, other = other, t
        return _compare(t, [_cmpop(rng)], [other])

    def tuple_of_items(self, d: int) -> ast.expr:
        """``tuple(a op b for a, b in zip(x, y))`` of two tuple[int, int]s, ``tuple(x)``, or a
        constant slice ``x[::-1]``: tuples whose length is static."""
        x = self.expr(TUPLE_INTS, d)
        rng = self.rng
        kind = rng.random()
        if kind < 0.5:
            a, b = f"t{self.tuple_vars}", f"t{self.tuple_vars + 1}"
            self.tuple_vars += 2
            pair = ast.Tuple(elts=[_name(a, store=True), _name(b, store=True)], ctx=ast.Store())
            elt = _bin(_name(a), rng.choice([ast.Add, ast.Sub, ast.BitOr])(), _name(b))
            zipped = _call("zip", x, self.expr(TUPLE_INTS, d))
            gen = ast.GeneratorExp(elt=elt, generators=[ast.comprehension(
                target=pair, iter=zipped, ifs=[], is_async=0)])
            return _call("tuple", gen)
        if kind < 0.75:
            return _call("tuple", x)
        return ast.Subscript(value=x, slice=ast.Slice(step=_const(-1)), ctx=ast.Load())

    def math_float(self, d: int) -> ast.expr:
        """``math.pi * x``, ``math.e``, ``math.pow(x, k)`` (ValueError for 0 ** -1, OverflowError
        for a large power, as CPython's math.pow)."""
        self.imports_math = True
        math_name = _name("math")
        rng = self.rng
        if self.chance(0.5):
            const = ast.Attribute(value=math_name, attr=rng.choice(["pi", "e", "tau"]),
                                  ctx=ast.Load())
            return _bin(const, ast.Mult(), self.expr(FLOAT, d))
        power = ast.Attribute(value=math_name, attr="pow", ctx=ast.Load())
        exponent = self.expr(FLOAT, d) if self.chance(0.2) else _const(rng.choice([-1, 2, 3, 0.5]))
        return ast.Call(func=power, args=[self.expr(FLOAT, d), exponent], keywords=[])

    def isclose(self, d: int) -> ast.expr:
        """``math.isclose(x, y)``, with ``rel_tol=`` / ``abs_tol=`` sometimes."""
        self.imports_math = True
        rng = self.rng
        func = ast.Attribute(value=_name("math"), attr="isclose", ctx=ast.Load())
        keywords = [ast.keyword(arg=k, value=_const(rng.choice([0.5, 0.01, 1e-09, 2])))
                    for k in ("rel_tol", "abs_tol") if self.chance(0.4)]
        return ast.Call(func=func, args=[self.expr(FLOAT, d), self.expr(FLOAT, d)],
                        keywords=keywords)

    def all_any(self, d: int) -> ast.expr:
        """``all(<bool> for v in source)`` or ``any(...)``: a generator, stopping early."""
        comp = self.bool_list(d)
        arg: ast.expr = comp
        if isinstance(comp, ast.ListComp) and self.chance(0.8):
            arg = ast.GeneratorExp(elt=comp.elt, generators=comp.generators)
        return _call(self.rng.choice(_ALL_ANY), arg)

    def chr_expr(self, d: int) -> ast.expr:
        rng = self.rng
        if self.ok("arith") and not self.chance(0.3 * self.risk):
            self.use("arith")
            base = rng.choice([97, 65, 48, 945])
            return _call("chr", _bin(_const(base), ast.Add(), self.bounded(26, d)))
        return _call("chr", self.expr(INT, d))  # may be negative: ValueError

    def list_expr(self, t: str, d: int, small: bool = False) -> ast.expr:
        if self.stop(d):
            return self.leaf(t, small)
        e = d - 1
        rng = self.rng
        elem = ELEMENT[t]

        def display() -> ast.expr:
            count = rng.choice([1, 2, 2, 3])
            return ast.List(elts=[self.expr(elem, e, small=True) for _ in range(count)],
                            ctx=ast.Load())

        def concat() -> ast.expr:
            if small or t in self.scope.frozen:
                return _bin(self.expr(t, e, small=True), ast.Add(), self.expr(t, e, small=True))
            parts = [self.expr(t, e), self.expr(t, e, small=not self.can_double())]
            rng.shuffle(parts)
            return _bin(parts[0], ast.Add(), parts[1])

        def sort() -> ast.expr:
            source = self.expr(STR, e, small) if t == LIST_STR and self.chance(0.3) else \
                self.expr(t, e, small)
            if self.ok("sorted_reverse") and self.chance(0.35):
                self.use("sorted_reverse")
                return _call("sorted", source,
                             keywords=[ast.keyword(arg="reverse", value=_const(True))])
            return _call("sorted", source)

        def conversion() -> ast.expr:
            if t == LIST_INT and self.chance(0.3):
                return _call("list", _call("range", _const(rng.randint(0, 6))))
            if t == LIST_STR and self.chance(0.4):
                return _call("list", self.expr(STR, e, small))
            if self.ok("reversed") and self.chance(0.3):
                self.use("reversed")
                return _call("list", _call("reversed", self.expr(t, e, small)))
            return _call("list", self.expr(t, e, small))

        tuples = [tt for tt in TUPLE_ELEMENTS if tt in self.types and TUPLE_ELEMENTS[tt][0] == t]
        return self.choose([
            (2, (), lambda: self.leaf(t, small)),
            (1.5, ("list_display",), display),
            (self.has(t, 1.2) if not small else 0, ("list_slice",),
             lambda: self.slice_of(self.collection(t, e), e, "list_slice")),
            (2, ("list_concat",), concat),
            (0.8, ("list_repeat",), lambda: _bin(self.expr(t, e, small=True), ast.Mult(),
                                                 self.bounded(4, e))),
            (1, ("sorted",), sort),
            (0.8, ("list_conv",), conversion),
            (0.6 if t in (LIST_INT, LIST_STR) else 0, ("set_ops",), lambda: self.set_sorted(t, e)),
            # list(set(xs)) of ints: CPython's iteration order (SET_ORDER)
            (0.4 if t == LIST_INT else 0, ("set_order",),
             lambda: _call("list", _call("set", self.expr(LIST_INT, e)))),
            (2.5 if not small else 0, ("listcomp",), lambda: self.comprehension(t, e)),
            (0.3 if t == LIST_INT and not small else 0, ("union_values", "listcomp_if"),
             lambda: self.ints_of_numbers(e)),
            (self.has(GRID, 1) if t == LIST_INT and not small else 0, ("nested_list",),
             lambda: self.element(GRID, e)),
            (0.3 if t == LIST_INT and not small and self.pop_target(LIST_INT) else 0,
             ("pop", "nested_list"), lambda: self.pop_expr(LIST_INT, e)),
            (max(self.has(tt, 0.5) for tt in tuples) if tuples and not small else 0,
             ("tuple_index",), lambda: _index(self.expr(rng.choice(tuples), e), _const(0))),
            (0.7, ("ifexp",), lambda: ast.IfExp(test=self.cond(e), body=self.expr(t, e, small),
                                                orelse=self.expr(t, e, small))),
            (2 if self.callees(t) and not small and t not in self.scope.frozen else 0,
             ("call",), lambda: self.call(t, e)),
            (0.6 if not small and self.dict_sources(t) else 0, ("dict_result",),
             lambda: self.dict_reading(t, e)),
        ])

    def comprehension(self, t: str, d: int) -> ast.expr:
        """``[elt for v in source if cond]``; with several ``for`` clauses only over sources of
        bounded length, so the result is never much longer than what exists already."""
        sc = self.scope
        nested = self.ok("listcomp_nested") and self.chance(0.2)
        if nested:
            self.use("listcomp_nested")
        generators = []
        names = []
        saved = (sc.mult, sc.frozen, list(sc.hot))
        sc.comprehensions += 1
        for _ in range(2 if nested else 1):
            iterable, var_t, frozen = self.iteration_source(d, small=nested)
            over_str = var_t == STR and STR in frozen  # the characters of a string
            var = self.new_var(var_t, prefix="c" if over_str else "v")
            if over_str:
                sc.chars.add(var)
            names.append(var)
            generators.append(ast.comprehension(target=_name(var, store=True), iter=iterable,
                                                ifs=[], is_async=0))
            sc.defined.add(var)
            sc.readonly.add(var)
            sc.hot.append(var)
            sc.mult *= COLLECTION_BOUND
            sc.frozen = sc.frozen | frozen
        if self.ok("listcomp_if") and self.chance(0.4):
            self.use("listcomp_if")
            generators[-1].ifs.append(self.cond(d))
        elt = self.bool_expr(d) if t == LIST_BOOL else self.expr(ELEMENT[t], d, small=True)
        for var in names:
            sc.defined.discard(var)
            sc.readonly.discard(var)
        sc.mult, sc.frozen, sc.hot = saved
        sc.comprehensions -= 1
        return ast.ListComp(elt=elt, generators=generators)

    def iteration_source(self, d: int, small: bool) -> tuple[ast.expr, str, frozenset[str]]:
        """Something to iterate over: (expression, element type, the collection types that must
        not grow while it is iterated: see ``_Scope.frozen``)."""
        rng = self.rng
        kinds = ["range"] + self.list_types * 2 + ([STR] if STR in self.types else [])
        kind = rng.choice(kinds)
        if kind == "range":
            return _call("range", self.bounded(rng.randint(2, 8), d) if not small else
                         _const(rng.randint(0, 4))), INT, frozenset()
        if kind == STR:
            return self.expr(STR, d, small), STR, frozenset({STR})
        source = self.collection(kind, d) if not small else self.expr(kind, d, small=True)
        return source, ELEMENT[kind], frozenset({kind})

    def tuple_expr(self, t: str, d: int) -> ast.expr:
        if self.stop(d):
            return self.leaf(t)
        e = d - 1
        return self.choose([
            (2, (), lambda: self.leaf(t)),
            (3, ("tuple",), lambda: ast.Tuple(elts=[self.expr(et, e) for et in TUPLE_ELEMENTS[t]],
                                              ctx=ast.Load())),
            (0.5, ("ifexp",), lambda: ast.IfExp(test=self.cond(e), body=self.expr(t, e),
                                                orelse=self.expr(t, e))),
            (3 if self.callees(t) else 0, ("call",), lambda: self.call(t, e)),
            (0.6 if t == TUPLE_INTS else 0, ("tuple_call",), lambda: self.tuple_of_items(e)),
        ])

    # ---- statements --------------------------------------------------------------------------

    def block(self, budget: int, d: int) -> list[ast.stmt]:
        """Statements worth about ``budget`` units (one per simple statement)."""
        stmts: list[ast.stmt] = []
        while budget > 0:
            new, used = self.statement(budget, d)
            stmts.extend(new)
            budget -= used
        return stmts or [ast.Pass()]

    def statement(self, budget: int, d: int) -> tuple[list[ast.stmt], int]:
        sc = self.scope
        sc.fn.cost += sc.mult
        nest = d > 0 and budget >= 2 and sc.fn.cost < MAX_FN_COST
        loop = nest and (sc.loops == 0 or self.ok("nested_loop"))
        ed = self.expr_depth
        take = min(budget, self.rng.randint(2, max(2, min(budget, 3 + self.size // 4))))
        lists = [t for t in self.list_types if self.readable(t)]
        growable = [t for t in lists if t not in sc.frozen]
        fresh = [t for t in self.list_types if t not in sc.frozen]
        each = loop and sc.mult * COLLECTION_BOUND <= MAX_LOOP_MULT
        each_sources = (self.ok("for_list") and bool(self.list_types)) or \
            (self.ok("for_str") and STR in self.types)
        same_type_pairs = [t for t in self.types if len(self.swappable(t)) >= 2]
        tuples = [t for t in TUPLE_ELEMENTS if t in self.types]
        fn_returns = sc.fn.returns

        def simple(build: Callable[[], ast.stmt]) -> Callable[[], tuple[list[ast.stmt], int]]:
            return lambda: ([build()], 1)

        def guarded(body: Callable[[], ast.stmt]) -> Callable[[], tuple[list[ast.stmt], int]]:
            return lambda: ([_ifs(self.cond(ed), [body()])], 1)

        options: list[tuple[float, tuple[str, ...], Callable[[], tuple[list[ast.stmt], int]]]]
        options = [
            (6, ("assign",), simple(self.assign_stmt)),
            (0.5, ("annassign",), simple(self.annassign_stmt)),
            (3 if self.aug_targets() else 0, ("augassign",), simple(self.augassign_stmt)),
            (2 if lists else 0, (), simple(lambda: self.subscript_stmt(lists))),
            (2 if growable else 0, ("append",), simple(lambda: self.append_stmt(growable))),
            (0.6 if lists else 0, ("pop",), simple(lambda: self.pop_stmt(lists))),
            (0.8 if growable else 0, ("list_insert",), simple(lambda: self.insert_stmt(growable))),
            (0.6 if fresh and (self.ok("append") or self.ok("annassign")) else 0, ("empty_list",),
             lambda: self.empty_list_stmts(fresh)),
            (3 if nest else 0, ("if",), lambda: self.if_stmt(take, d)),
            (2 if loop else 0, ("for_range",), lambda: self.for_range_stmt(take, d)),
            (1.5 if each and self.list_types else 0, ("for_list",),
             lambda: self.for_each_stmt(take, d, "list")),
            (0.8 if each and STR in self.types else 0, ("for_str", "str"),
             lambda: self.for_each_stmt(take, d, "str")),
            (0.6 if each and each_sources else 0, ("enumerate",),
             lambda: self.for_each_stmt(take, d, "enumerate")),
            (0.5 if each and each_sources else 0, ("reversed",),
             lambda: self.for_each_stmt(take, d, "reversed")),
            (1.5 if loop else 0, ("while",), lambda: self.while_stmt(take, d)),
            (1 if sc.loops else 0, ("break", "if"), guarded(ast.Break)),
            (1 if sc.loops else 0, ("continue", "if"), guarded(ast.Continue)),
            (0.8 if fn_returns not in DICT_KEY else 0, ("early_return", "if"),
             guarded(lambda: ast.Return(value=self.expr(fn_returns, ed) if fn_returns else None))),
            (0.5 * self.risk, ("assert",), simple(self.assert_stmt)),
            (0.2 * self.risk, ("raise", "if", "compare"),
             lambda: ([_ifs(self.rare_cond(ed), [self.raise_stmt()])], 1)),
            (1.5 if self.callees(None) else 0.3 if self.callees_any() else 0, ("call",),
             simple(self.call_stmt)),
            (0.8 if tuples else 0, ("unpack",), simple(lambda: self.unpack_stmt(tuples))),
            (0.5 if same_type_pairs else 0, ("swap",),
             simple(lambda: self.swap_stmt(same_type_pairs))),
            (0.8 if self.ok("dict_result") and any(self.callees(t) for t in DICT_KEY) else 0,
             ("dict_result",), simple(self.dict_bind_stmt)),
        ]
        return self.choose(options)

    def callees_any(self) -> bool:
        return any(self.callees(t) for t in {f.returns for f in self.helpers} if t is not None)

    def assign_stmt(self) -> ast.stmt:
        t = self.pick_type()
        existing = self.assignable(t)
        target = self.rng.choice(existing) if existing and self.chance(0.4) else None
        value = self.expr(t, self.expr_depth)
        if target is None:
            target = self.new_var(t)  # after the value, which must not read it
        self.assigned(target)
        return _assign(target, value)

    def annassign_stmt(self) -> ast.stmt:
        t = self.pick_type()
        value = self.expr(t, self.expr_depth)
        target = self.new_var(t)
        self.scope.defined.add(target)
        return ast.AnnAssign(target=_name(target, store=True), annotation=self.annotation(t),
                             value=value, simple=1)

    def aug_targets(self) -> list[str]:
        sc = self.scope
        types = [INT, FLOAT] + ([STR] if STR not in sc.frozen and self.ok("str_concat") else []) + \
            [t for t in self.list_types if t not in sc.frozen and self.ok("list_inplace")]
        return [n for t in types if t in self.types for n in self.readable(t)
                if n not in sc.readonly]

    def augassign_stmt(self) -> ast.stmt:
        sc = self.scope
        rng = self.rng
        target = rng.choice(self.aug_targets())
        self.assigned(target)
        t = sc.types[target]
        ed = self.expr_depth
        op: ast.operator
        value: ast.expr
        if t == INT:
            ops: list[tuple[float, tuple[str, ...], Callable[[], tuple[ast.operator, ast.expr]]]]
            ops = [
                (4, ("arith",), lambda: (rng.choice([ast.Add, ast.Sub])(), self.expr(INT, ed))),
                (1, ("floordiv",), lambda: (ast.FloorDiv(), self.divisor(INT, ed))),
                (1, ("mod",), lambda: (ast.Mod(), self.divisor(INT, ed))),
                (1, ("bitwise",), lambda: (rng.choice([ast.BitAnd, ast.BitOr, ast.BitXor])(),
                                           self.expr(INT, ed))),
                (0.5, ("shift",), lambda: (ast.RShift(), self.shift_amount(ed))),
            ]
            if sc.mult <= 8:  # multiplying updates only outside deep loops: they overflow
                ops += [
                    (1, ("arith",), lambda: (ast.Mult(), _const(rng.choice([2, 3, -1, -2])))),
                    (0.5, ("shift",), lambda: (ast.LShift(), _const(rng.randint(0, 3)))),
                ]
            if not self.linear():
                ops.append((0.4, ("pow",), lambda: (ast.Pow(), _const(rng.randint(0, 2)))))
            op, value = self.choose(ops)
        elif t == FLOAT:
            op = self.choose([
                (3, ("arith",), lambda: rng.choice([ast.Add(), ast.Sub(), ast.Mult()])),
                (1, ("truediv",), ast.Div),
                (0.5, ("floordiv",), ast.FloorDiv),
                (0.5, ("mod",), ast.Mod),
            ])
            if isinstance(op, ast.Mult) and sc.mult > 1:
                value = _const(rng.choice([0.5, -1.5, 2.0]))
            elif self.ok("int_float_mix") and self.chance(0.3):
                self.use("int_float_mix")
                value = self.divisor(INT, ed)
            else:
                value = self.divisor(FLOAT, ed)
        elif t == STR:
            self.use("str_concat")
            op, value = ast.Add(), self.expr(STR, ed, small=not self.can_double())
        else:
            self.use("list_inplace")
            sc.fn.grows.add(t)
            if sc.mult == 1 and self.ok("list_repeat") and self.chance(0.2) and \
                    self.doubling_left > 0:
                self.use("list_repeat")
                self.doubling_left -= 1
                sc.fn.doubles = True
                op, value = ast.Mult(), _const(rng.choice([0, 1, 2, -1]))
            else:
                op, value = ast.Add(), self.expr(t, ed, small=not self.can_double())
        return ast.AugAssign(target=_name(target, store=True), op=op, value=value)

    def subscript_stmt(self, lists: list[str]) -> ast.stmt:
        sc = self.scope
        rng = self.rng
        ed = self.expr_depth
        t = rng.choice(lists)
        names = self.readable(t) or self.assignable(t)
        target: ast.expr = _name(rng.choice(names))
        elem = ELEMENT[t]
        if t == GRID and self.chance(0.6):
            target = _index(target, self.index_for(target, ed))
            elem = INT
        index = self.index_for(target, ed)
        augmentable = elem in (INT, FLOAT) or (elem not in sc.frozen and
                                               (elem == STR or self.ok("list_inplace")))
        if augmentable and self.ok("augassign_subscript") and (
                self.chance(0.5) or not self.ok("subscript_assign")):
            self.use("augassign_subscript")
            op: ast.operator
            if elem == INT:
                op = rng.choice([ast.Add, ast.Sub, ast.BitXor, ast.BitOr, ast.Add])()
                value = self.expr(INT, ed)
            elif elem == FLOAT:
                op = rng.choice([ast.Add, ast.Sub])()
                value = self.expr(FLOAT, ed)
            else:
                if elem != STR:
                    self.use("list_inplace")
                    sc.fn.grows.add(elem)
                op, value = ast.Add(), self.expr(elem, ed, small=True)
            return self.guarded_stmt(target, index, ast.AugAssign(
                target=_index(target, index, store=True), op=op, value=value))
        if not self.ok("subscript_assign"):
            return self.assign_stmt()
        self.use("subscript_assign")
        return self.guarded_stmt(target, index, ast.Assign(
            targets=[_index(target, index, store=True)], value=self.expr(elem, ed), lineno=0))

    def append_stmt(self, growable: list[str]) -> ast.stmt:
        sc = self.scope
        t = self.rng.choice(growable)
        target: ast.expr = _name(self.rng.choice(self.readable(t)))
        if t == GRID and LIST_INT not in sc.frozen and self.chance(0.4):
            target = _index(target, self.index_for(target, self.expr_depth))
            t = LIST_INT  # appending to a row
        sc.fn.grows.add(t)
        return ast.Expr(value=_method(target, "append", self.expr(ELEMENT[t], self.expr_depth)))

    def insert_stmt(self, growable: list[str]) -> ast.stmt:
        """``xs.insert(i, v)`` with any int ``i`` (insert clamps it: never an IndexError); the
        list grows as with append (level 6: the batched compiler leaves insert to the
        reference)."""
        sc = self.scope
        t = self.rng.choice(growable)
        target = _name(self.rng.choice(self.readable(t)))
        sc.fn.grows.add(t)
        index = self.expr(INT, self.expr_depth)
        value = self.expr(ELEMENT[t], self.expr_depth)
        return ast.Expr(value=_method(target, "insert", index, value))

    def pop_stmt(self, lists: list[str]) -> ast.stmt:
        t = self.rng.choice(lists)
        names = self.readable(t)
        target = _name(self.rng.choice(names)) if names else self.expr(t, 1)
        if self.ok("pop_index") and self.chance(0.4):
            self.use("pop_index")
            index = self.index_for(target, 1)
            return self.guarded_stmt(target, index, ast.Expr(value=_method(target, "pop", index)))
        return self.guarded_stmt(target, None, ast.Expr(value=_method(target, "pop")))

    def empty_list_stmts(self, growable: list[str]) -> tuple[list[ast.stmt], int]:
        """``xs: list[int] = []``, or ``xs = []`` typed by the append right after it."""
        t = self.rng.choice(growable)
        name = self.new_var(t)
        empty = ast.List(elts=[], ctx=ast.Load())
        if self.ok("annassign") and (self.chance(0.5) or not self.ok("append")):
            self.use("annassign")
            self.scope.defined.add(name)
            return [ast.AnnAssign(target=_name(name, store=True), annotation=self.annotation(t),
                                  value=empty, simple=1)], 1
        self.use("append")
        self.scope.fn.grows.add(t)
        value = self.expr(ELEMENT[t], self.expr_depth)
        self.scope.defined.add(name)
        return [_assign(name, empty),
                ast.Expr(value=_method(_name(name), "append", value))], 2

    def if_stmt(self, budget: int, d: int) -> tuple[list[ast.stmt], int]:
        sc = self.scope
        before = set(sc.defined)
        assigned: set[str] = set()
        branches = 1
        if self.ok("else") and self.chance(0.5):
            branches = 2
        if self.ok("elif") and self.chance(0.3) and budget >= 3:
            branches = 3 if not self.ok("else") or self.chance(0.5) else 4
        budgets = [max(1, (budget - 1) // branches)] * branches
        tests: list[ast.expr] = []
        bodies: list[list[ast.stmt]] = []
        outcomes: list[set[str]] = []
        for i in range(branches):
            is_else = i == branches - 1 and branches in (2, 4)
            sc.defined = set(before)  # an elif test sees only what precedes the whole if
            if not is_else:
                tests.append(self.cond(self.expr_depth))
            bodies.append(self.block(budgets[i], d - 1))
            outcomes.append(sc.defined)
            assigned |= sc.defined
        has_else = branches in (2, 4)
        if branches >= 3:
            self.use("elif")
        if has_else:
            self.use("else")
        sc.defined = before | set.intersection(*outcomes) if has_else else before
        sc.maybe |= assigned - sc.defined
        orelse: list[ast.stmt] = bodies[-1] if has_else else []
        conditional = bodies[:-1] if has_else else bodies
        node: ast.stmt | None = None
        for test, body in reversed(list(zip(tests, conditional, strict=True))):
            node = _ifs(test, body, orelse)
            orelse = [node]
        assert node is not None
        return [node], sum(budgets) + 1

    def loop_body(self, variables: list[str], bound: int, budget: int, d: int,
                  frozen: frozenset[str] = frozenset(), index_for: str | None = None,
                  indices: tuple[str, ...] = ()) -> list[ast.stmt]:
        """The body of a loop binding ``variables``; ``indices`` count iterations: they stay
        small, and the body does not assign them."""
        sc = self.scope
        if sc.loops:
            self.use("nested_loop")
        before = set(sc.defined)
        saved = (sc.mult, sc.frozen, list(sc.hot), dict(sc.index_vars))
        sc.defined |= set(variables)
        sc.hot.extend(variables)
        sc.loops += 1
        sc.mult *= max(1, bound)
        sc.frozen = sc.frozen | frozen
        if index_for is not None:
            sc.index_vars[index_for] = variables[0]
        sc.readonly.update(indices)
        sc.bounded.update(indices)
        body = self.block(budget, d)
        sc.readonly.difference_update(indices)
        sc.bounded.difference_update(indices)
        sc.loops -= 1
        sc.mult, sc.frozen, sc.hot, sc.index_vars = saved
        sc.maybe |= sc.defined - before
        sc.defined = before
        return body

    def range_call(self, d: int) -> tuple[ast.expr, int, str | None]:
        """A ``range(...)`` to loop over: (call, iteration bound, collection it indexes)."""
        rng = self.rng
        room = MAX_LOOP_MULT // self.scope.mult
        sized = self.sized_variable()
        k = rng.randint(1, max(1, min(8, room)))

        def stepped() -> tuple[ast.expr, int, str | None]:
            step = rng.choice([2, 3, -1, -2])
            if step > 0:
                return _call("range", _const(rng.randint(-2, 1)), _const(k), _const(step)), k, None
            return _call("range", _const(k), _const(rng.randint(-2, 0)), _const(step)), k + 2, None

        options: list[tuple[float, tuple[str, ...], Callable[[], tuple[ast.expr, int, str | None]]]]
        options = [
            (3, (), lambda: (_call("range", _const(k)), k, None)),
            (1.5, (), lambda: (_call("range", _const(-(k // 2)), _const(k - k // 2)), k, None)),
            (2, (), lambda: (_call("range", self.bounded(k + 1, d)), k, None)),
            (1, ("range_step",), stepped),
            (0.2 * self.risk, ("range_step", "arith"),
             lambda: (_call("range", self.bounded(k + 1, d), _const(0),
                            _bin(self.bounded(3, d), ast.Sub(), _const(1))), k, None)),
        ]
        if sized is not None and room >= COLLECTION_BOUND:
            options.append((2.5, ("len",), lambda: (_call("range", _call("len", _name(sized))),
                                                    COLLECTION_BOUND, sized)))
        return self.choose(options)

    def for_range_stmt(self, budget: int, d: int) -> tuple[list[ast.stmt], int]:
        iterable, bound, indexes = self.range_call(self.expr_depth)
        var = self.new_var(INT, prefix="i")
        frozen: frozenset[str] = frozenset()
        if indexes is not None:  # range(len(v)): as many iterations as v is long
            t = self.scope.types[indexes]
            mode = self.iteration_mode(capped_by=("min_max",))
            if mode == "capped":
                k = self.rng.randint(2, COLLECTION_BOUND)
                iterable = _call("range", _call("min", _call("len", _name(indexes)), _const(k)))
            frozen = frozenset({t}) if mode == "free" else frozenset() if mode == "capped" \
                else COLLECTION_TYPES
        body = self.loop_body([var], bound, budget - 1, d - 1, index_for=indexes,
                              indices=(var,), frozen=frozen)
        return [ast.For(target=_name(var, store=True), iter=iterable, body=body, orelse=[],
                        lineno=0)], budget

    def for_each_stmt(self, budget: int, d: int, kind: str) -> tuple[list[ast.stmt], int]:
        """``for x in xs``, ``for c in s``, ``for i, x in enumerate(xs)``, ``reversed(xs)``."""
        ed = self.expr_depth
        over_str = kind == "str"
        if kind in ("enumerate", "reversed"):
            can_str = self.ok("for_str") and STR in self.types
            can_list = self.ok("for_list") and bool(self.list_types)
            over_str = can_str and (not can_list or self.chance(0.25))
        if over_str:
            t, iterable = STR, self.collection(STR, ed)
            self.use("str", "for_str")
        else:
            t = self.pick_type(self.list_types)
            iterable = self.collection(t, ed)
            self.use("for_list")
        mode = self.iteration_mode(capped_by=("str_slice" if t == STR else "list_slice",))
        if mode == "capped":
            iterable = _index(iterable, ast.Slice(upper=_const(self.rng.randint(2, 8))))
        frozen = frozenset({t}) if mode == "free" else frozenset() if mode == "capped" \
            else COLLECTION_TYPES
        elem = STR if t == STR else ELEMENT[t]
        var = self.new_var(elem, prefix="ch" if t == STR else "item")
        if t == STR:
            self.scope.chars.add(var)
        target: ast.expr = _name(var, store=True)
        variables = [var]
        if kind == "enumerate":
            index = self.new_var(INT, prefix="i")
            variables.insert(0, index)
            target = ast.Tuple(elts=[_name(index, store=True), target], ctx=ast.Store())
            iterable = _call("enumerate", iterable)
        elif kind == "reversed":
            iterable = _call("reversed", iterable)
        body = self.loop_body(variables, COLLECTION_BOUND, budget - 1, d - 1, frozen=frozen,
                              indices=tuple(variables[:-1]))
        return [ast.For(target=target, iter=iterable, body=body, orelse=[], lineno=0)], budget

    def iteration_mode(self, capped_by: tuple[str, ...]) -> str:
        """How a loop over a collection avoids lengthening collections geometrically.

        Such a loop runs as many times as the collection is long, so a body that lengthens a
        collection by a constant can multiply lengths, and doing that on every pass of an
        outer loop (or every call of a helper) would grow them exponentially. So:

        - ``free``: the whole collection, and the body may lengthen other types; only in the
          entry function's top level, which runs once, and a few times per program;
        - ``capped``: a short prefix (``xs[:k]``, ``range(min(len(xs), k))``), any body;
        - ``still``: the whole collection, and the body lengthens no collection at all.
        """
        sc = self.scope
        if sc.mult == 1 and sc.fn.name == ENTRY and self.doubling_left > 0 and self.chance(0.7):
            self.doubling_left -= 1
            return "free"
        if self.ok(*capped_by) and self.chance(0.5):
            self.use(*capped_by)
            return "capped"
        return "still"

    def while_stmt(self, budget: int, d: int) -> tuple[list[ast.stmt], int]:
        """A ``while`` loop whose first statement moves a counter towards a hard bound."""
        sc = self.scope
        rng = self.rng
        ed = self.expr_depth
        bound = rng.randint(1, max(1, min(8, MAX_LOOP_MULT // sc.mult)))
        counter = self.new_var(INT, prefix="k")
        sc.readonly.add(counter)
        kind = rng.choice(["up", "up", "down", "forever"])
        if kind == "forever" and not self.ok("break", "if"):
            kind = "up"
        extra = None
        if kind != "forever" and self.ok("boolop") and self.chance(0.3):
            self.use("boolop")
            extra = self.bool_expr(ed)  # and/or take operands of one type: bool here
        limit: ast.expr = _const(bound)
        if self.ok("mod") and self.chance(0.3):
            # re-evaluated on each test, but always below bound
            self.use("mod")
            limit = _bin(self.expr(INT, ed), ast.Mod(), _const(bound))
        if kind == "down":
            start = self.bounded(bound + 1, ed)
            test: ast.expr = _compare(_name(counter), [ast.Gt()], [_const(0)])
            step = ast.AugAssign(target=_name(counter, store=True), op=ast.Sub(), value=_const(1))
        else:
            start = _const(0)
            test = _compare(_name(counter), [ast.Lt()], [limit])
            step = ast.AugAssign(target=_name(counter, store=True), op=ast.Add(),
                                 value=_const(rng.choice([1, 1, 1, 2])))
        if extra is not None:
            test = ast.BoolOp(op=ast.And(), values=[test, extra] if self.chance(0.7) else
                              [extra, test])
        prologue: list[ast.stmt] = [step]
        if kind == "forever":
            self.use("break", "if")
            prologue.append(_ifs(_compare(_name(counter), [ast.GtE()], [_const(bound)]),
                                 [ast.Break()]))
            test = _const(True)
        sc.defined.add(counter)
        body = self.loop_body([], bound, budget - 1, d - 1, indices=(counter,))
        sc.readonly.discard(counter)
        return [_assign(counter, start),
                ast.While(test=test, body=prologue + body, orelse=[])], budget

    def assert_stmt(self) -> ast.stmt:
        message = _const(self.rng.choice(["check", "bad value", "unexpected"])) \
            if self.chance(0.3) else None
        test = self.invariant(self.expr_depth - 1) if self.chance(0.85) else \
            self.cond(self.expr_depth)
        return ast.Assert(test=test, msg=message)

    def rare_cond(self, d: int) -> ast.expr:
        """A condition that seldom holds: an int equal to one value."""
        return _compare(self.expr(INT, d), [ast.Eq()], [_const(self.rng.randint(-3, 12))])

    def invariant(self, d: int) -> ast.expr:
        """A condition that holds whenever evaluating it does not raise."""
        rng = self.rng

        def twice(e: ast.expr) -> tuple[ast.expr, ast.expr]:
            return e, copy.deepcopy(e)

        def division_identity() -> ast.expr:
            # x // k * k + x % k == x
            x, k = self.expr(INT, d), rng.choice([2, 3, 7, -2, -5])
            whole = _bin(_bin(_bin(x, ast.FloorDiv(), _const(k)), ast.Mult(), _const(k)),
                         ast.Add(), _bin(copy.deepcopy(x), ast.Mod(), _const(k)))
            return _compare(whole, [ast.Eq()], [copy.deepcopy(x)])

        def ordered() -> ast.expr:
            t = self.pick_type([INT, FLOAT, STR])
            a, b = twice(self.expr(t, d)), twice(self.expr(t, d))
            return _compare(_call("min", a[0], b[0]), [ast.LtE()], [_call("max", a[1], b[1])])

        def sized() -> ast.expr:
            t = self.pick_type([STR, *self.list_types])
            return _compare(_call("len", self.expr(t, d)), [ast.GtE()], [_const(0)])

        def same() -> ast.expr:
            t = self.pick_type([INT, FLOAT, BOOL, STR, *self.list_types])
            a = self.expr(t, d)
            return _compare(a, [ast.Eq()], [copy.deepcopy(a)])

        return self.choose([
            (1, ("abs", "compare"), lambda: _compare(_call("abs", self.expr(INT, d)), [ast.GtE()],
                                                     [_const(0)])),
            (1, ("floordiv", "mod", "arith", "compare"), division_identity),
            (1, ("min_max", "compare"), ordered),
            (1 if STR in self.types or self.list_types else 0, ("len", "compare"), sized),
            (1, ("compare",), same),
        ])

    def raise_stmt(self) -> ast.stmt:
        exception = self.rng.choice(["ValueError", "ValueError", "RuntimeError", "IndexError",
                                     "KeyError", "ZeroDivisionError", "AssertionError",
                                     "NotImplementedError", "Exception", "TypeError"])
        return ast.Raise(exc=_call(exception, _const("generated")), cause=None)

    def call_stmt(self) -> ast.stmt:
        types = sorted({f.returns for f in self.helpers if f.returns is not None and
                        self.callees(f.returns)})
        if self.callees(None) and (not types or self.chance(0.85)):
            return ast.Expr(value=self.call(None, self.expr_depth - 1))
        return ast.Expr(value=self.call(self.rng.choice(types), self.expr_depth - 1))

    def unpack_stmt(self, tuples: list[str]) -> ast.stmt:
        t = self.rng.choice(tuples)
        value = self.expr(t, self.expr_depth)
        targets = []
        for et in TUPLE_ELEMENTS[t]:
            existing = [n for n in self.assignable(et) if n not in targets]
            name = self.rng.choice(existing) if existing and self.chance(0.4) else self.new_var(et)
            targets.append(name)
        self.assigned(*targets)
        return ast.Assign(targets=[ast.Tuple(elts=[_name(n, store=True) for n in targets],
                                             ctx=ast.Store())], value=value, lineno=0)

    def swappable(self, t: str) -> list[str]:
        return [n for n in self.readable(t) if n not in self.scope.readonly]

    def swap_stmt(self, types: list[str]) -> ast.stmt:
        t = self.rng.choice(types)
        a, b = self.rng.sample(self.swappable(t), 2)
        values: list[ast.expr] = [_name(b), _name(a)]
        if t == INT and self.ok("arith") and self.scope.mult <= 8 and self.chance(0.3):
            self.use("arith")
            values[1] = _bin(_name(a), ast.Add(), _name(b))
        self.assigned(a, b)
        return ast.Assign(targets=[ast.Tuple(elts=[_name(a, store=True), _name(b, store=True)],
                                             ctx=ast.Store())],
                          value=ast.Tuple(elts=values, ctx=ast.Load()), lineno=0)


    # ---- parameters re-bound to another kind (param_rebound) ---------------------------------

    def rebindings(self, x: str, t: str) -> list[tuple[float, tuple[str, ...],
                                                       Callable[[], tuple[str, ast.expr]]]]:
        """The ways to re-bind parameter ``x`` of type ``t`` to a value of another kind: (weight,
        features, a builder of (new type, value)); only new types this program has."""
        rng = self.rng
        v = _name(x)
        options: list[tuple[float, tuple[str, ...], Callable[[], tuple[str, ast.expr]]]] = []

        def add(weight: float, features: tuple[str, ...], new_t: str,
                build: Callable[[], ast.expr]) -> None:
            if new_t in self.types and new_t != t:
                options.append((weight, features, lambda: (new_t, build())))

        if t == INT:
            add(2, ("str_conv",), STR, lambda: _call("str", v))
            add(1, ("str_conv", "str_concat"), STR,
                lambda: _bin(_call("str", v), ast.Add(), _const(rng.choice(["!", "-", " x"]))))
            add(1, ("float_conv",), FLOAT, lambda: _call("float", v))
            add(1, ("truediv",), FLOAT, lambda: _bin(v, ast.Div(), _const(rng.choice([2, 4]))))
            add(1.5, ("list_display",), LIST_INT,
                lambda: ast.List(elts=[v, self.expr(INT, 1, small=True)], ctx=ast.Load()))
            add(0.5, ("list_display", "list_repeat"), LIST_INT,
                lambda: _bin(ast.List(elts=[v], ctx=ast.Load()), ast.Mult(),
                             _const(rng.randint(1, 3))))
            add(1, ("compare",), BOOL, lambda: _compare(v, [_cmpop(rng)], [self.literal(INT)]))
        elif t == FLOAT:
            add(2, ("int_conv",), INT, lambda: _call("int", v))
            add(1, ("compare",), BOOL, lambda: _compare(v, [_cmpop(rng)], [self.literal(FLOAT)]))
            add(1, ("list_display",), LIST_FLOAT,
                lambda: ast.List(elts=[v, self.expr(FLOAT, 1, small=True)], ctx=ast.Load()))
        elif t == BOOL:
            add(2, ("int_conv",), INT, lambda: _call("int", v))
            add(1, ("bool_arith",), INT, lambda: _bin(v, ast.Add(), _const(rng.randint(1, 3))))
            add(1, ("str_conv",), STR, lambda: _call("str", v))
        elif t == STR:
            add(2, ("len",), INT, lambda: _call("len", v))
            add(1, ("str_method",), LIST_STR, lambda: _method(v, "split"))
            add(0.5, ("split_max",), LIST_STR, lambda: _method(
                v, rng.choice(["split", "rsplit"]), _const(rng.choice([" ", "a"])),
                _const(rng.randint(-1, 2))))
            add(1, ("list_conv",), LIST_STR, lambda: _call("list", v))
            add(1, ("str_method",), BOOL, lambda: _method(v, rng.choice(_STR_FAMILY["class"])))
        elif t == LIST_INT:
            add(2, ("sum",), INT, lambda: _call("sum", v))
            add(1, ("len",), INT, lambda: _call("len", v))
        elif t == LIST_FLOAT:  # sum() of an empty list[float] is the int 0: sum(v) if v else 0.0
            add(2, ("sum", "ifexp", "truthy"), FLOAT,
                lambda: ast.IfExp(test=v, body=_call("sum", v), orelse=_const(0.0)))
            add(1, ("len",), INT, lambda: _call("len", v))
        elif t == LIST_STR:
            add(2, ("str_method",), STR, lambda: _method(_const(rng.choice(["", "-", " "])),
                                                         "join", v))
            add(1, ("len",), INT, lambda: _call("len", v))
        elif t == GRID:
            add(1, ("len",), INT, lambda: _call("len", v))
            add(1, ("listcomp", "len"), LIST_INT, lambda: self.row_lengths(v))
        elif t in TUPLE_ELEMENTS:
            for position, et in enumerate(TUPLE_ELEMENTS[t]):
                add(1, ("tuple_index",), et, lambda p=position: _index(v, _const(p)))
        return [o for o in options if self.ok(*o[1])]

    def row_lengths(self, grid: ast.expr) -> ast.expr:
        """``[len(r) for r in grid]``: a list[int] as long as the grid."""
        sc = self.scope
        sc.counter += 1
        row = f"row{sc.counter}"
        return ast.ListComp(elt=_call("len", _name(row)), generators=[ast.comprehension(
            target=_name(row, store=True), iter=grid, ifs=[], is_async=0)])

    def rebind_params(self, fn: _Function, budget: int) -> tuple[list[ast.stmt], int]:
        """A parameter re-bound to a value of another kind (param_rebound): ``n0 = str(n0)``,
        ``s1 = len(s1)``, ``nums0 = sum(nums0)``, ``n0 = [n0, 3]``, by the body's first
        statement or after a few statements that read (and assign) it as the caller passed
        it. From there on the name is a variable of the new type; the callers pass the
        annotated one. CPython: a local like any other; kiln: the parameter becomes a body
        variable holding the union of both kinds, narrowed by each assignment
        (compiler/reference.py's _own_parameter_variables). Returns the statements and the
        budget they used. Drawn only where the feature is allowed, so that programs without it
        stay the same."""
        if not self.ok("param_rebound") or self.rebinds_left <= 0 or not self.chance(0.3):
            return [], 0
        candidates = [(n, t) for n, t in fn.params if self.rebindings(n, t)]
        if not candidates:
            return [], 0
        name, t = self.rng.choice(candidates)
        before: list[ast.stmt] = []
        used = 1
        if budget >= 4 and self.chance(0.4):  # not first: read as the argument's type before
            used += self.rng.randint(1, budget // 3)
            before = [s for s in self.block(used - 1, self.depth) if not isinstance(s, ast.Pass)]
        new_t, value = self.choose(self.rebindings(name, t))
        self.use("param_rebound", *type_features(new_t))
        self.rebinds_left -= 1
        self.scope.types[name] = new_t
        self.assigned(name)
        self.scope.fn.cost += 1
        return [*before, _assign(name, value)], used

    # ---- dicts returned to the program's own functions (dict_result) -------------------------

    def dict_function(self, name: str, budget: int) -> _Function:
        """A helper returning a dict to kiln's own functions (dict_result): the counts, last
        positions or values per item of its first parameter (a str's characters, a list's
        items), sometimes only those past a threshold or of the highest count (HumanEval/111's
        histogram). The entry never returns one (the harness's caller could not take it)."""
        rng = self.rng
        sources = [STR] + [t for t in (LIST_STR, LIST_INT)
                           if t in self.types and self.ok("for_list")]
        source_t = rng.choice(sources)
        self.use("dict_result", "dict_ops", "call",
                 *(("str", "for_str") if source_t == STR else ("for_list",)))
        dt = DICT_INT_INT if source_t == LIST_INT else DICT_STR_INT
        elem_t = STR if source_t == STR else ELEMENT[source_t]
        fn = _Function(name, self.params(rng.randint(0, 2), first=[source_t]), dt)
        self.begin(fn)
        sc = self.scope
        body = self.block(budget - 3, min(self.depth, 1)) if budget > 3 else []
        body = [s for s in body if not isinstance(s, ast.Pass)]
        sc.counter += 1
        d = f"counts{sc.counter}"
        source: ast.expr = _name(fn.params[0][0])
        chars = source_t == STR  # the keys are a str's characters (else words or items)
        if source_t == STR and self.ok("str_method") and self.chance(0.5):  # the words
            self.use("str_method")
            chars = False
            if self.ok("split_max") and self.chance(0.5):  # split/rsplit(sep, maxsplit)
                self.use("split_max")
                source = _method(source, rng.choice(["split", "rsplit"]), _const(" "),
                                 _const(rng.randint(-1, 3)))
            else:
                source = _method(source, "split", *([_const(" ")] if self.chance(0.5) else []))
        fn.cost += 2 * COLLECTION_BOUND

        def in_loop(variables: list[tuple[str, str]], build: Callable[[], T]) -> T:
            """``build()`` with loop variables (name, type) readable, the loop's repetitions
            counted and no collection lengthened."""
            saved = (sc.mult, sc.frozen, list(sc.hot), set(sc.defined), set(sc.chars))
            sc.loops += 1
            sc.mult *= COLLECTION_BOUND
            sc.frozen = COLLECTION_TYPES
            for var, vt in variables:
                sc.types[var] = vt
                sc.defined.add(var)
                sc.readonly.add(var)
                sc.hot.append(var)
                if vt == STR and chars:
                    sc.chars.add(var)
            try:
                return build()
            finally:
                sc.loops -= 1
                sc.mult, sc.frozen, sc.hot, sc.defined, sc.chars = saved
                sc.readonly.difference_update(v for v, _ in variables)

        def amount() -> ast.expr:
            return _const(1) if self.chance(0.5) else self.expr(INT, 1, small=True)

        def key_var() -> str:
            sc.counter += 1
            return f"key{sc.counter}"

        def counted() -> list[ast.stmt]:  # d[k] = d.get(k, 0) + a
            k = key_var()
            value = in_loop([(k, elem_t)], lambda: _bin(
                _method(_name(d), "get", _name(k), _const(0)), ast.Add(), amount()))
            store = ast.Assign(targets=[_index(_name(d), _name(k), store=True)], value=value,
                               lineno=0)
            return [ast.For(target=_name(k, store=True), iter=source, body=[store], orelse=[],
                            lineno=0)]

        def branched() -> list[ast.stmt]:  # if k in d: d[k] += a  else: d[k] = b
            k = key_var()
            first, again = in_loop([(k, elem_t)], lambda: (amount(), amount()))
            test = _compare(_name(k), [ast.In()], [_name(d)])
            add = ast.AugAssign(target=_index(_name(d), _name(k), store=True), op=ast.Add(),
                                value=again)
            put = ast.Assign(targets=[_index(_name(d), _name(k), store=True)], value=first,
                             lineno=0)
            return [ast.For(target=_name(k, store=True), iter=source,
                            body=[_ifs(test, [add], [put])], orelse=[], lineno=0)]

        def positions() -> list[ast.stmt]:  # for i, k in enumerate(xs): d[k] = i (+ a)
            k, i = key_var(), key_var().replace("key", "i")
            value = in_loop([(k, elem_t), (i, INT)], lambda: _name(i) if self.chance(0.5) else
                            _bin(_name(i), ast.Add(), amount()))
            store = ast.Assign(targets=[_index(_name(d), _name(k), store=True)], value=value,
                               lineno=0)
            target = ast.Tuple(elts=[_name(i, store=True), _name(k, store=True)], ctx=ast.Store())
            return [ast.For(target=target, iter=_call("enumerate", source), body=[store],
                            orelse=[], lineno=0)]

        def comprehension() -> list[ast.stmt]:  # d = {k: a for k in s}
            k = key_var()
            sc.comprehensions += 1
            value = in_loop([(k, elem_t)], lambda: self.expr(INT, 1, small=True))
            sc.comprehensions -= 1
            return [_assign(d, ast.DictComp(key=_name(k), value=value, generators=[
                ast.comprehension(target=_name(k, store=True), iter=source, ifs=[],
                                  is_async=0)]))]

        fill: Callable[[], list[ast.stmt]] = self.choose([
            (3, (), lambda: counted),
            (1.5, ("if", "else", "augassign"), lambda: branched),
            (1, ("enumerate",), lambda: positions),
            (1, (), lambda: comprehension),
        ])
        if fill is not comprehension:
            if self.ok("annassign") and self.chance(0.3):
                self.use("annassign")
                body.append(ast.AnnAssign(target=_name(d, store=True),
                                          annotation=self.annotation(dt),
                                          value=ast.Dict(keys=[], values=[]), simple=1))
            else:
                body.append(_assign(d, ast.Dict(keys=[], values=[])))
        body += fill()

        def kept(test: Callable[[ast.expr], ast.expr]) -> ast.expr:
            k, n = key_var(), key_var().replace("key", "tally")
            return ast.DictComp(key=_name(k), value=_name(n), generators=[ast.comprehension(
                target=ast.Tuple(elts=[_name(k, store=True), _name(n, store=True)],
                                 ctx=ast.Store()),
                iter=_method(_name(d), "items"), ifs=[test(_name(n))], is_async=0)])

        def best() -> ast.expr:  # the items of the highest count
            sc.counter += 1
            top = f"best{sc.counter}"
            body.append(_assign(top, ast.IfExp(test=_name(d), body=_call(
                "max", _method(_name(d), "values")), orelse=_const(0))))
            return kept(lambda n: _compare(n, [ast.Eq()], [_name(top)]))

        result = self.choose([
            (3, (), lambda: _name(d)),
            (1, ("compare",), lambda: kept(lambda n: _compare(
                n, [_cmpop(rng)], [_const(rng.randint(0, 3))]))),
            (1, ("ifexp", "truthy", "min_max_list"), best),
        ])
        body.append(ast.Return(value=result))
        fn.node = self.function_node(fn, body)
        return fn

    def dict_sources(self, t: str) -> list[str]:
        """The dict types that give a ``t`` here: a variable holding one, or a helper to call."""
        if not self.ok("dict_result"):
            return []
        keys = {INT: (STR, INT), BOOL: (STR, INT), LIST_STR: (STR,), LIST_INT: (STR, INT)}
        return [dt for dt in DICT_KEY if DICT_KEY[dt] in keys.get(t, ())
                and (self.readable(dt) or self.callees(dt))]

    def dict_source(self, dt: str, d: int) -> tuple[ast.expr, bool]:
        """A dict of type ``dt``: a variable (True) or a call of a helper (False)."""
        names = self.readable(dt)
        if names and (not self.callees(dt) or self.chance(0.7)):
            return _name(self.rng.choice(names)), True
        return self.call(dt, d), False

    def dict_bind_stmt(self) -> ast.stmt:
        """``counts4 = count1(s)``: a helper's dict kept in a variable of the caller."""
        dt = self.rng.choice([t for t in DICT_KEY if self.callees(t)])
        value = self.call(dt, self.expr_depth - 1)
        existing = self.assignable(dt)
        target = self.rng.choice(existing) if existing and self.chance(0.3) else self.new_var(dt)
        self.assigned(target)
        return _assign(target, value)

    def dict_reading(self, t: str, d: int) -> ast.expr:
        """A ``t`` read from a helper's dict: ``len(c)``, ``c.get(k, 0)``, ``sum(c.values())``,
        ``k in c``, ``c == {...}`` (in any order), ``sorted(c)``, ``list(c.values())``, ..."""
        rng = self.rng
        dt = rng.choice(self.dict_sources(t))
        key_t = DICT_KEY[dt]
        c, named = self.dict_source(dt, d)

        def key() -> ast.expr:
            return self.leaf(key_t, small=True)

        def display() -> ast.expr:
            keys = [key() for _ in range(rng.randint(0, 2))]
            return ast.Dict(keys=keys, values=[_const(rng.randint(0, 3)) for _ in keys])

        options: list[tuple[float, tuple[str, ...], Callable[[], ast.expr]]]
        if t == INT:
            def guarded() -> ast.expr:  # c[k] if k in c else 0: the key read twice
                k = key()
                return ast.IfExp(test=_compare(k, [ast.In()], [c]), body=_index(
                    copy.deepcopy(c), copy.deepcopy(k)), orelse=_const(rng.randint(-1, 0)))

            options = [
                (2, ("len",), lambda: _call("len", c)),
                (2, (), lambda: _method(c, "get", key(), _const(rng.randint(-1, 1)))),
                (1.5, ("sum",), lambda: _call("sum", _method(c, "values"))),
                (1, ("min_max_default",), lambda: _call(
                    rng.choice(_MIN_MAX), _method(c, "values"),
                    keywords=[ast.keyword(arg="default", value=_const(rng.randint(-1, 1)))])),
                (1.5 if named else 0, (), guarded),
            ]
        elif t == BOOL:
            options = [
                (2, (), lambda: _compare(key(), [rng.choice(_MEMBERSHIP)()], [c])),
                (1, (), lambda: _compare(c, [rng.choice([ast.Eq, ast.NotEq])()], [display()])),
                (0.5, ("truthy", "not"), lambda: ast.UnaryOp(op=ast.Not(), operand=c)),
            ]
        elif DICT_KEY[dt] == ELEMENT[t]:  # the keys, in insertion order or sorted
            options = [
                (2, ("sorted",), lambda: _call("sorted", c)),
                (1, ("list_conv",), lambda: _call(  # list(c.keys()) or list(c)
                    "list", _method(c, "keys") if rng.random() < 0.5 else c)),
                (1, ("listcomp_if", "compare"), lambda: self.keys_where(c)),
            ]
            if t == LIST_INT:  # dict[int, int]: its values too
                options.append((1, ("list_conv",), lambda: _call("list", _method(c, "values"))))
        else:  # the values of a dict[str, int]
            options = [
                (1, ("list_conv",), lambda: _call("list", _method(c, "values"))),
                (1, ("sorted",), lambda: _call("sorted", _method(c, "values"))),
            ]
        live = [o for o in options if o[0] > 0 and self.ok(*o[1])]
        if not live:
            return _call("len", c) if t == INT else \
                _compare(key(), [ast.In()], [c]) if t == BOOL else _call("list", _method(
                    c, "keys" if DICT_KEY[dt] == ELEMENT.get(t) else "values"))
        return self.choose(live)

    def keys_where(self, c: ast.expr) -> ast.expr:
        """``[k for k, n in c.items() if n > 1]``."""
        sc = self.scope
        sc.counter += 1
        k, n = f"key{sc.counter}", f"tally{sc.counter}"
        test = _compare(_name(n), [_cmpop(self.rng)], [_const(self.rng.randint(0, 3))])
        return ast.ListComp(elt=_name(k), generators=[ast.comprehension(
            target=ast.Tuple(elts=[_name(k, store=True), _name(n, store=True)], ctx=ast.Store()),
            iter=_method(c, "items"), ifs=[test], is_async=0)])

    # ---- functions ---------------------------------------------------------------------------

    def begin(self, fn: _Function, mult: int = 1) -> None:
        self.scope = _Scope(fn, types=dict(fn.params), defined={n for n, _ in fn.params},
                            counter=len(fn.params), mult=mult)

    def params(self, count: int, first: list[str] | None = None) -> list[tuple[str, str]]:
        types = (first or []) + [self.pick_type() for _ in range(count)]
        for t in first or []:
            self.use(*type_features(t))
        return [(f"{_PREFIX[t] if t != INT else 'n'}{i}", t) for i, t in enumerate(types)]

    def return_type(self) -> str:
        t = self.pick_type()
        if t in TUPLE_ELEMENTS:
            self.use("tuple_return")
        return t

    def plain_function(self, name: str, budget: int) -> _Function:
        fn = _Function(name, self.params(self.rng.randint(1, 3)), None)
        fn.returns = self.return_type() if self.ok("tuple_return") else \
            self.pick_type([t for t in self.types if t not in TUPLE_ELEMENTS])
        self.define(fn, budget)
        return fn

    def none_function(self, name: str, budget: int) -> _Function:
        """A helper that returns nothing and changes the list it is given."""
        self.use("none_return")
        lt = self.pick_type(self.list_types)
        fn = _Function(name, self.params(self.rng.randint(0, 2), first=[lt]), None)
        self.begin(fn)
        target = _name(fn.params[0][0])
        elem = ELEMENT[lt]
        first: ast.stmt
        if self.ok("append") and self.chance(0.6):
            self.use("append")
            fn.grows.add(lt)
            first = ast.Expr(value=_method(target, "append", self.expr(elem, self.expr_depth)))
        elif self.ok("subscript_assign"):
            self.use("subscript_assign")
            first = ast.Assign(targets=[_index(target, self.index_for(target, 1), store=True)],
                               value=self.expr(elem, self.expr_depth), lineno=0)
        else:
            first = ast.Expr(value=_method(target, "pop")) if self.ok("pop") else ast.Pass()
            if self.ok("pop"):
                self.use("pop")
        body = [first, *self.block(budget - 1, self.depth)]
        fn.node = self.function_node(fn, body)
        return fn

    def define(self, fn: _Function, budget: int) -> None:
        self.begin(fn)
        body, used = self.rebind_params(fn, budget)
        body += self.block(budget - used, self.depth)
        assert fn.returns is not None
        body.append(ast.Return(value=self.expr(fn.returns, self.expr_depth)))
        fn.node = self.function_node(fn, body)

    def function_node(self, fn: _Function, body: list[ast.stmt]) -> ast.FunctionDef:
        return ast.FunctionDef(
            name=fn.name,
            args=ast.arguments(posonlyargs=[],
                               args=[ast.arg(arg=n, annotation=self.param_annotation(t, fn.name))
                                     for n, t in fn.params],
                               vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                               defaults=[]),
            body=body, decorator_list=[], lineno=0,
            returns=self.annotation(fn.returns) if fn.returns else _const(None))

    def param_annotation(self, t: str, function: str) -> ast.expr:
        """A parameter's annotation: sometimes ``Any`` for a scalar parameter of a helper
        (CPython checks none; kiln types it by the helper's calls, which always pass a ``t``;
        the entry keeps its types: the caller compiles it without argument types)."""
        if (
            t in (INT, FLOAT, BOOL, STR)
            and function != ENTRY
            and self.ok("any_annotation")
            and self.chance(0.1)
        ):
            self.use("any_annotation")
            self.any_used = True
            return _name("Any")
        return self.annotation(t)

    def annotation(self, t: str) -> ast.expr:
        """``list[int]``, or ``List[int]`` in programs that import their aliases from typing."""
        if self.typing_alias:
            for alias, prefix in (("List", "list["), ("Tuple", "tuple[")):
                if prefix in t:
                    self.typing_names.add(alias)
                    t = t.replace(prefix, alias + "[")
        return ast.parse(t, mode="eval").body

    def recursive_functions(self, names: list[str], budget: int) -> list[_Function]:
        """One directly recursive function, or a mutually recursive pair, descending on their
        first argument ``n`` (at most RECURSION_BOUND at every call) to a ``<= 0`` base case."""
        rng = self.rng
        returns = self.pick_type([t for t in (INT, INT, FLOAT, BOOL, STR, LIST_INT, LIST_STR)
                                  if t in self.types])
        others = self.params(rng.randint(0, 2))
        params = [("n", INT)] + [(f"{n}r", t) for n, t in others]
        tree = len(names) == 1 and returns in (INT, STR, LIST_INT) and \
            self.ok("arith" if returns == INT else "str_concat" if returns == STR
                    else "list_concat") and self.chance(0.3)
        bound = 9 if tree else RECURSION_BOUND
        fns = [_Function(name, list(params), returns, bound=bound) for name in names]
        for i, fn in enumerate(fns):
            partner = fns[(i + 1) % len(fns)]
            self.begin(fn, mult=60 if tree else bound + 1)
            self.scope.readonly.add("n")
            floor = 1 if tree else rng.choice([0, 0, 1])
            base_test = _compare(_name("n"), [ast.LtE() if floor == 0 else ast.Lt()],
                                 [_const(0 if floor == 0 else 1)])
            if tree:
                base_test = _compare(_name("n"), [ast.Lt()], [_const(2)])
            saved_helpers = self.helpers
            self.helpers = [h for h in self.helpers if not h.doubles]
            base = _ifs(base_test, [ast.Return(value=self.expr(returns, self.expr_depth - 1))])
            middle = self.block(max(0, min(budget - 2, 3)), min(self.depth, 1)) \
                if budget > 2 else []
            step = rng.choice([1, 1, 1, 2])
            calls = [self.recursive_call(partner, step)]
            if tree:
                calls.append(self.recursive_call(partner, 2))
            result = self.combine(returns, calls)
            self.helpers = saved_helpers
            fn.node = self.function_node(fn, [base] + [s for s in middle
                                                       if not isinstance(s, ast.Pass)] +
                                         [ast.Return(value=result)])
            fn.calls.add(partner.name)
            fn.doubles = False
        grows = set().union(*(f.grows for f in fns))
        for fn in fns:
            fn.grows = set(grows)  # each may call the other
        return fns

    def recursive_call(self, fn: _Function, step: int) -> ast.expr:
        args: list[ast.expr] = [_bin(_name("n"), ast.Sub(), _const(step))]
        args += [self.expr(t, self.expr_depth - 1) for _, t in fn.params[1:]]
        self.use("arith")
        return _call(fn.name, *args)

    def combine(self, t: str, calls: list[ast.expr]) -> ast.expr:
        """The recursive result: the calls joined with a little more work, additively."""
        rng = self.rng
        ed = self.expr_depth - 1
        if len(calls) == 2:
            return _bin(calls[0], ast.Add(), calls[1])
        call = calls[0]
        if self.chance(0.2):
            return call
        if t == INT:
            if self.ok("min_max") and self.chance(0.25):
                self.use("min_max")
                return _call(rng.choice(_MIN_MAX), call, self.expr(INT, ed))
            self.use("arith")
            op = rng.choice([ast.Add, ast.Sub])()
            return _bin(call, op, self.expr(INT, ed)) if self.chance(0.5) else \
                _bin(self.expr(INT, ed), op, call)
        if t == FLOAT:
            self.use("arith")
            return _bin(_bin(call, ast.Mult(), _const(0.5)), ast.Add(), self.expr(FLOAT, ed))
        if t == BOOL:
            if not self.ok("boolop"):
                return call
            self.use("boolop")
            return ast.BoolOp(op=rng.choice(_BOOLOPS)(),
                              values=[self.expr(BOOL, ed), call])
        feature = "str_concat" if t == STR else "list_concat"
        if not self.ok(feature):
            return call
        self.use(feature)
        extra = self.expr(t, ed, small=True)
        return _bin(extra, ast.Add(), call) if self.chance(0.5) else _bin(call, ast.Add(), extra)

    def helper_functions(self, budget: int) -> int:
        """Make helpers worth about ``budget`` statements; returns what they used."""
        rng = self.rng
        count = rng.randint(1, min(5, 1 + self.size // 10))
        each = max(2, budget // count)
        for index in range(1, count + 1):
            self.helpers.extend(self.helper(index, each))
        return each * count

    def helper(self, index: int, budget: int) -> list[_Function]:
        """One helper function of a random kind (two for mutual recursion)."""
        return self.choose([
            (4, (), lambda: [self.plain_function(f"helper{index}", budget)]),
            (1 if self.list_types else 0, ("none_return",),
             lambda: [self.none_function(f"update{index}", budget)]),
            (1.5, ("recursion", "if", "compare", "arith"),
             lambda: self.recursive_functions([f"rec{index}"], budget)),
            (0.7, ("mutual_recursion", "recursion", "if", "compare", "arith", "forward_call"),
             lambda: self.recursive_functions([f"ping{index}", f"pong{index}"], budget)),
            (1.2, ("dict_result",), lambda: [self.dict_function(f"count{index}", budget)]),
        ])

    def program(self, seed: int, n_inputs: int, modules: bool = False) -> GeneratedProgram:
        rng = self.rng
        self.typing_alias = self.ok("typing_alias") and rng.random() < 0.3
        budget = self.size
        if self.ok("call") and self.size >= 4 and rng.random() < 0.85:
            self.use("call")
            budget -= self.helper_functions(max(2, self.size * 2 // 5))
        entry = _Function(ENTRY, self.params(rng.choice([1, 1, 2, 2, 3])), None)
        if rng.random() < 0.4:  # often the type of a parameter: the value flows through
            entry.returns = rng.choice([t for _, t in entry.params])
        else:
            entry.returns = self.return_type() if self.ok("tuple_return") else \
                self.pick_type([t for t in self.types if t not in TUPLE_ELEMENTS])
        self.begin(entry)
        body, used = self.rebind_params(entry, max(1, budget))
        body += self.block(max(1, budget) - used, self.depth)
        # every helper runs: call those that nothing reachable from the entry calls
        for helper in self.helpers:
            if helper.name not in self.reachable(entry):
                call = self.call_for(helper)
                if helper.returns is None:
                    body.append(ast.Expr(value=call))
                elif helper.returns in DICT_KEY:  # the entry reads the dict it gets
                    var = self.new_var(INT)
                    reading = _call("len", call) if self.chance(0.5) else \
                        _call("sum", _method(call, "values"))
                    body.append(_assign(var, reading))
                    self.scope.defined.add(var)
                else:
                    var = self.new_var(helper.returns)
                    body.append(_assign(var, call))
                    self.scope.defined.add(var)
        returns_early = any(
            isinstance(n, ast.Return) and n.value is not None
            for stmt in body
            for n in ast.walk(stmt)
        )
        if returns_early and self.ok("falls_off") and self.chance(0.3):
            self.use("falls_off")  # no final return: CPython returns None there (an Optional)
        else:
            body.append(ast.Return(value=self.result(entry.returns)))
        entry.node = self.function_node(entry, body)
        return self.assemble(entry, seed, n_inputs, modules)

    def result(self, t: str) -> ast.expr:
        """What the entry function returns: mostly a variable, so it depends on the inputs."""
        name = self.variable(t)
        if name is not None and self.chance(0.7):
            return _name(name)
        if name is None and self.chance(0.7):
            bridged = self.bridge(t, small=False)
            if bridged is not None:
                return bridged
        return self.expr(t, self.expr_depth)

    def reachable(self, entry: _Function) -> set[str]:
        by_name = {f.name: f for f in self.helpers}
        seen: set[str] = set()
        todo = sorted(entry.calls)
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(sorted(by_name[name].calls))
        return seen

    def call_for(self, fn: _Function) -> ast.Call:
        self.scope.fn.calls.add(fn.name)
        args = [self.bounded(fn.bound + 1, 1) if i == 0 and fn.bound is not None
                else self.expr(t, 1) for i, (_, t) in enumerate(fn.params)]
        return _call(fn.name, *args)

    def assemble(self, entry: _Function, seed: int, n_inputs: int,
                 modules: bool = False) -> GeneratedProgram:
        rng = self.rng
        functions = list(self.helpers)
        if functions and self.ok("forward_call") and rng.random() < 0.3:
            functions.insert(0, entry)
        else:
            functions.append(entry)
        position = {f.name: i for i, f in enumerate(functions)}
        if any(position[c] > position[f.name] for f in functions for c in f.calls):
            self.use("forward_call")
        body: list[ast.stmt] = []
        if self.imports_math:
            body.append(ast.Import(names=[ast.alias(name="math")]))
        if self.typing_names:
            self.use("typing_alias")
            names = [ast.alias(name=n) for n in sorted(self.typing_names)]
            body.append(ast.ImportFrom(module="typing", names=names, level=0))
        if self.any_used:
            body.append(ast.ImportFrom(module="typing", names=[ast.alias(name="Any")], level=0))
        for fn in functions:
            assert fn.node is not None
            if self.ok("docstring") and rng.random() < 0.15:
                self.use("docstring")
                fn.node.body.insert(0, ast.Expr(value=ast.Constant(value=f"Generated {fn.name}.")))
            body.append(fn.node)
        param_types = [t for _, t in entry.params]
        forms: frozenset[str] = frozenset()
        if modules:  # from a stream of their own: the functions are those of modules=False
            assert entry.node is not None
            forms = module_forms(body, entry.node, param_types, random.Random(seed ^ 0x6D6F64))
        module = ast.Module(body=body, type_ignores=[])
        source = ast.unparse(ast.fix_missing_locations(module)) + "\n"
        inputs = [tuple(random_value(rng, t) for t in param_types) for _ in range(n_inputs)]
        used = frozenset(self.used)
        return GeneratedProgram(source=source, entry=entry.name, param_types=param_types,
                                inputs=inputs, complexity=complexity_of(used), features=used,
                                seed=seed, module_forms=forms)


def _allowed(features: frozenset[str] | None, complexity: int | None) -> frozenset[str]:
    allowed = FEATURES if features is None else frozenset(features)
    unknown = sorted(allowed - FEATURES)
    if unknown:
        raise ValueError(f"unknown features: {', '.join(unknown)} "
                         f"(known: {', '.join(sorted(FEATURES))})")
    if complexity is not None:
        allowed &= features_for_level(complexity)
    allowed |= _CORE
    while True:  # close under NEEDS
        closed = allowed.union(*(NEEDS.get(f, frozenset()) for f in allowed))
        if closed == allowed:
            return allowed
        allowed = closed


def generate(seed: int, *, size: int = 20, depth: int = 3,
             features: frozenset[str] | None = None, complexity: int | None = None,
             n_inputs: int = 5, modules: bool = False) -> GeneratedProgram:
    """A random kiln Python program, the same for the same arguments.

    ``size`` is about the number of statements in the module, ``depth`` the deepest nesting of
    blocks (expressions nest one deeper). ``features`` limits the constructs used (a subset of
    ``FEATURES``; default all); ``complexity`` limits them to a level of ``LEVELS`` and retries
    a few times until the program reaches that level. ``n_inputs`` argument tuples come with it.
    ``modules`` adds module-level forms of real model output (``module_forms``) to the same
    functions.
    """
    if n_inputs < 1:
        raise ValueError("n_inputs must be at least 1")
    allowed = _allowed(features, complexity)
    target = complexity_of(allowed)
    rng = random.Random(seed)
    program = _Generator(rng, size, depth, allowed).program(seed, n_inputs, modules)
    for _ in range(12):
        if complexity is None or program.complexity >= target:
            break
        program = _Generator(rng, size, depth, allowed).program(seed, n_inputs, modules)
    return program
