# ruff: noqa: E501  (the table reads best as one row per method)
"""kiln Python's language surface, defined once: one table per family (the str methods, the
methods of lists, dicts, sets and floats, math's functions, the builtin functions and the
operators; issue 17).

The tables are vm/surface.py's STR_METHODS, METHODS, FUNCTIONS, BUILTINS and OPERATORS
(re-exported here: the
instruction set, the type checker of bytecode and the reference VM derive from STR_METHODS too,
and vm sits below the compiler). This module derives the lists of method names the front end and the batched
compiler read, and writes the compiler's generated files: the batched C compiler's tables
(compiler/kernels/kc_surface.h) and the method, function, builtin and operator tables of
docs/LANGUAGE.md
(compiler/generated.py: `python -m compiler --write`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Final

from vm.surface import BUILTIN as BUILTIN  # the builtin functions: vm/surface.py
from vm.surface import BUILTINS as BUILTINS
from vm.surface import FUNCTION as FUNCTION  # the module functions: vm/surface.py
from vm.surface import FUNCTIONS as FUNCTIONS
from vm.surface import METHOD as METHOD  # the other receivers' methods: vm/surface.py
from vm.surface import METHODS as METHODS
from vm.surface import OPERATORS as OPERATORS  # the operators: vm/surface.py
from vm.surface import RECEIVER_NAME as RECEIVER_NAME
from vm.surface import STR_METHOD as STR_METHOD  # the str methods: vm/surface.py
from vm.surface import STR_METHODS as STR_METHODS
from vm.surface import Builtin as Builtin
from vm.surface import Function as Function
from vm.surface import Method as Method
from vm.surface import Operator as Operator
from vm.surface import StrMethod as StrMethod

# The methods of the other receivers (list, dict, set, float): vm/surface.py's METHODS, one row
# each (receiver, arities, types, the instructions of their lowering, doc, example). Their
# lowering stays compiler/lower.py's, method by method; every list of their names is this table's.
OTHER_METHODS: Final[dict[str, tuple[str, ...]]] = {
    receiver: tuple(m.name for m in METHODS if m.receiver == receiver)
    for receiver in dict.fromkeys(m.receiver for m in METHODS)
}
# the methods the batched compiler takes (kc_surface.h's KC_METHODS; its list methods, in the
# table's order, are KC_LIST_METHODS)
BATCHED_METHODS: Final[tuple[str, ...]] = tuple(dict.fromkeys(m.name for m in METHODS if m.batched))
# math's functions (frontend.py's MATH_FUNCTIONS, MATH_KEYWORDS; kc_surface.h's KC_MATH)
MATH_FUNCTION_NAMES: Final[frozenset[str]] = frozenset(
    f.name for f in FUNCTIONS if f.module == "math"
)
MATH_FUNCTION_KEYWORDS: Final[dict[str, tuple[str, ...]]] = {
    f.name: f.keywords for f in FUNCTIONS if f.module == "math" and f.keywords
}
METHOD_NAMES: Final[frozenset[str]] = frozenset(
    {*STR_METHOD, *(name for names in OTHER_METHODS.values() for name in names)}
)


# The builtins (vm/surface.py's BUILTINS): every list of their names is one of these.
def builtins_with(form: str) -> frozenset[str]:
    """The builtins a rewrite of frontend.py treats so (a row's `forms`)."""
    return frozenset(b.name for b in BUILTINS if form in b.forms)


# types.py's builtin_call types these (lower.py's b_<name> lowers them)
TYPED_BUILTINS: Final[frozenset[str]] = frozenset(b.name for b in BUILTINS if b.kind == "call")
# the builtins the batched compiler knows (kc_surface.h's KC_BUILTINS)
BATCHED_BUILTINS: Final[tuple[str, ...]] = tuple(b.name for b in BUILTINS if b.batched)
# a call of these of None is CPython's TypeError (types.py)
NONE_IS_A_TYPE_ERROR: Final[frozenset[str]] = frozenset(
    b.name for b in BUILTINS if b.none_is_type_error
)
# the builtins kiln takes only in some places, and where (types.py's message)
ITERATION_ONLY: Final[dict[str, str]] = {
    b.name: b.iteration_only for b in BUILTINS if b.iteration_only
}
# keywords meaning the second positional argument: enumerate(xs, start=1) is enumerate(xs, 1)
POSITIONAL_KEYWORDS: Final[dict[str, str]] = {
    b.name: b.positional_keyword for b in BUILTINS if b.positional_keyword
}


# The operators (vm/surface.py's OPERATORS): the instruction of an operator on operands of a kind.
def operator_ops(kind: str, operands: str) -> dict[str, str]:
    """{ast class name: its instruction} of the `kind` operators on `operands` ("int", "float")."""
    return {o.node: o.ops[0] for o in OPERATORS if o.kind == kind and o.operands == operands}


# the symbol of each binary operator (types.py's messages)
BINARY_SYMBOLS: Final[dict[str, str]] = {o.node: o.symbol for o in OPERATORS if o.kind == "binary"}
# the comparison operators of ints and floats, in kc.h's enum kc_cmp order: the base name of
# their instructions (LT of LT_I, LT_F and LT)
COMPARISONS: Final[dict[str, str]] = {
    node: op.removesuffix("_I") for node, op in operator_ops("compare", "int").items()
}
# of these, the tests of equality and the orderings (the random generator's comparisons)
EQUALITIES: Final[tuple[str, ...]] = tuple(n for n, op in COMPARISONS.items() if op in ("EQ", "NE"))
ORDERINGS: Final[tuple[str, ...]] = tuple(n for n in COMPARISONS if n not in EQUALITIES)
# the membership tests (`in`, `not in`) and the boolean operators (`and`, `or`)
MEMBERSHIP: Final[tuple[str, ...]] = tuple(
    o.node for o in OPERATORS if o.kind == "compare" and o.ops[0] == "CONTAINS"
)
BOOLEAN_OPERATORS: Final[tuple[str, ...]] = tuple(o.node for o in OPERATORS if o.kind == "boolean")


# ---- generated files ----------------------------------------------------------------------------

# Standard-library modules that every CPython build has and whose import runs no code that
# could fail, print, or change anything a program can observe (no `this`, `antigravity`,
# `turtle`, `tkinter`, `idlelib`, `readline`, nor modules a build may lack: `sqlite3`, `ssl`,
# `lzma`, `curses`). Importing one is a no-op but for the name it binds: kiln takes such an
# import (compiler/frontend.py) where nothing reads that name, and evaluation/unbound.py reads
# past it. Anything else (numpy, requests, a star import) depends on the environment: fallback.
PURE_MODULES: Final[frozenset[str]] = frozenset(
    "math cmath re collections heapq itertools functools string bisect operator typing copy"
    " random statistics fractions decimal array numbers abc enum dataclasses sys os json"
    " argparse unittest doctest datetime time calendar textwrap hashlib pathlib io types"
    " warnings pprint contextlib keyword unicodedata struct base64 binascii queue inspect"
    " logging".split()
)


def pure_import_binds(node: object) -> list[str] | None:
    """The names an `import m` / `from m import a, b` of PURE_MODULES binds (each existing there,
    else CPython's ImportError; never `*`, whose names are not written; `import a.b` only where
    a.b is pure too), or None when it is not such an import."""
    import ast
    import importlib

    if isinstance(node, ast.Import):
        if not all(a.name in PURE_MODULES and "." not in a.name for a in node.names):
            return None
        return [a.asname or a.name for a in node.names]
    if not isinstance(node, ast.ImportFrom) or node.level or node.module not in PURE_MODULES:
        return None
    module = importlib.import_module(node.module)
    if any(a.name == "*" or not hasattr(module, a.name) for a in node.names):
        return None
    return [a.asname or a.name for a in node.names]


ROOT: Final = Path(__file__).resolve().parent
HEADER_PATH: Final = ROOT / "kernels" / "kc_surface.h"
LANGUAGE_DOC: Final = ROOT.parent / "docs" / "LANGUAGE.md"
_BEGIN = "<!-- str methods: generated by `python -m compiler --write`. Do not edit. -->"
_END = "<!-- end of the generated str methods -->"
_BEGIN_OTHER = "<!-- list, dict, set, float methods: generated by `python -m compiler --write`. Do not edit. -->"
_END_OTHER = "<!-- end of the generated methods -->"
_BEGIN_FUNCTIONS = (
    "<!-- module functions: generated by `python -m compiler --write`. Do not edit. -->"
)
_END_FUNCTIONS = "<!-- end of the generated module functions -->"
_BEGIN_BUILTINS = (
    "<!-- builtin functions: generated by `python -m compiler --write`. Do not edit. -->"
)
_END_BUILTINS = "<!-- end of the generated builtin functions -->"
_BEGIN_OPERATORS = "<!-- operators: generated by `python -m compiler --write`. Do not edit. -->"
_END_OPERATORS = "<!-- end of the generated operators -->"
_KC_TYPES: Final = {
    "str": "T_STR",
    "bool": "T_BOOL",
    "int": "T_INT",
    "list[str]": "T_STR + KC_LIST",
}


def _kc_arity(m: StrMethod) -> int:
    """kc.h's code for the counts the batched compiler takes: the count, or 3 for none or one."""
    counts = m.batched_arities
    if counts == (0, 1):
        return 3
    if len(counts) != 1:
        raise ValueError(f"str.{m.name}: the batched compiler takes one count, or none or one")
    return counts[0]


_ROW: Final = {b.name: i for i, b in enumerate(BUILTINS)}


def _in_rows(names: frozenset[str]) -> list[str]:
    """Builtin names in the table's order."""
    return sorted(names, key=_ROW.__getitem__)


_INT: Final = operator_ops("binary", "int")  # in enum kc_bin's order (tests/test_surface.py)
_FLOAT: Final = operator_ops("binary", "float")
_BATCHED_LIST: Final = tuple(m for m in METHODS if m.receiver == "list" and m.batched)
_BATCHED_MATH: Final = tuple(f for f in FUNCTIONS if f.module == "math" and f.batched)


def _names(table: str, names: Iterable[str]) -> str:
    """A C table of names, ended by a null pointer."""
    return f"KC_TABLE char *const {table}[] = {{" + ", ".join(f'"{n}"' for n in names) + ", 0};"


def render_header() -> str:
    names = ", ".join(f'"{m.name}"' for m in STR_METHODS)
    lines = [
        "/* Generated by `python -m compiler --write` from compiler/surface.py (vm/surface.py's",
        "   tables). Do not edit. The methods of kiln Python the batched compiler takes; the str",
        "   methods (types.py's signatures, lower.py's instructions): name, instruction, the",
        "   argument counts the batched compiler takes (3: none or one), result, argument type. */",
        "#ifndef KC_SURFACE_H",
        "#define KC_SURFACE_H",
        "",
        "/* the other receivers' methods the batched compiler takes (frontend.py's list is",
        "   METHOD_NAMES) */",
        _names("KC_METHODS", BATCHED_METHODS),
        "/* the list methods it takes (types.py's method_call; kc_types.h, kc_lower.h) */",
        _names("KC_LIST_METHODS", (m.name for m in _BATCHED_LIST)),
        "enum { " + ", ".join(f"KC_LM_{m.name.upper()}" for m in _BATCHED_LIST) + " };",
        "/* the math functions it takes (frontend.py's MATH_FUNCTIONS): an E_CALL's op is",
        "   KC_MATH_OP + the position (kc_math_fn) */",
        _names("KC_MATH", (f.name for f in _BATCHED_MATH)),
        "/* the builtins it knows (types.py's BUILTINS but tuple and next) */",
        _names("KC_BUILTINS", BATCHED_BUILTINS),
        "/* frontend.py's _REWRITTEN: a module name among these makes the front end leave every",
        "   rewrite */",
        _names("KC_REWRITTEN", _in_rows(builtins_with("rewritten"))),
        "/* frontend.py's _MAP_CONSUMERS and _SHORT_CIRCUIT: map(f, xs) as their argument is a",
        "   list comprehension (a generator for all and any) */",
        _names("KC_MAP_CONSUMERS", _in_rows(builtins_with("map") | builtins_with("short-circuit"))),
        "/* frontend.py's _VIEW_CONSUMERS but all and any (the batched compiler's take generator",
        "   expressions): a dict view as their argument is a list */",
        _names(
            "KC_VIEW_CONSUMERS", _in_rows(builtins_with("view") - builtins_with("short-circuit"))
        ),
        "/* the instruction of each binary operator (enum kc_bin: B_MATMUL last, none) on ints, on",
        "   floats (-1: none), and of each comparison (enum kc_cmp's first six) of ints, of floats */",
        "KC_TABLE int KC_INT_OPS[] = {"
        + ", ".join([*(f"K_{op}" for op in _INT.values()), "-1"])
        + "};",
        "KC_TABLE int KC_FLOAT_OPS[] = {"
        + ", ".join([*(f"K_{_FLOAT[n]}" if n in _FLOAT else "-1" for n in _INT), "-1"])
        + "};",
        "KC_TABLE int KC_CMP_I[] = {"
        + ", ".join(f"K_{op}" for op in operator_ops("compare", "int").values())
        + "};",
        "KC_TABLE int KC_CMP_F[] = {"
        + ", ".join(f"K_{op}" for op in operator_ops("compare", "float").values())
        + "};",
        f"KC_TABLE char *const KC_STR_METHODS[] = {{{names}, 0}};",
        "KC_TABLE int KC_STR_METHOD_OP[] = {" + ", ".join(f"K_{m.op}" for m in STR_METHODS) + "};",
        "KC_TABLE int KC_STR_METHOD_ARITY[] = {"
        + ", ".join(str(_kc_arity(m)) for m in STR_METHODS)
        + "};",
        "KC_TABLE int KC_STR_METHOD_RESULT[] = {"
        + ", ".join(_KC_TYPES[m.result] for m in STR_METHODS)
        + "};",
        "KC_TABLE int KC_STR_METHOD_ARG[] = {"
        + ", ".join(_KC_TYPES[m.argument] for m in STR_METHODS)
        + "};",
        "enum {",
    ]
    lines += [f"    KC_STR_M_{m.name.upper()} = {i}," for i, m in enumerate(STR_METHODS)]
    lines += ["};", "", "#endif", ""]
    return "\n".join(lines)


def _doc_table(begin: str, end: str, what: str, instructions: str, rows: list[str]) -> str:
    """A generated table of docs/LANGUAGE.md: its markers, its header, a row per entry."""
    header = f"| {what} | arguments | result | {instructions} | what it does | example |"
    return "\n".join([begin, "", header, "|---|---|---|---|---|---|", *rows, "", end])


def _arguments(arities: tuple[int, ...], types: str, keywords: tuple[str, ...] = ()) -> str:
    """A row's arguments cell: the counts it takes and their types, then its keywords."""
    counts = " or ".join(str(n) for n in arities)
    args = f"{counts} ({types})" if max(arities) else "none"
    return args + ("; " + ", ".join(f"`{k}=`" for k in keywords) if keywords else "")


def _instructions(ops: tuple[str, ...]) -> str:
    return ", ".join(f"`{op}`" for op in ops) or "a kiln function"


def render_doc_table() -> str:
    rows = []
    for m in STR_METHODS:
        value = repr(eval(m.example))  # noqa: S307 - the table's own literal examples
        rows.append(
            f"| `str.{m.name}` | {_arguments(m.arities, m.argument)} | `{m.result}` | `{m.op}` "
            f"| {m.doc} | `{m.example}` is `{value}` |"
        )
    return _doc_table(_BEGIN, _END, "method", "instruction", rows)


def example_program(m: Method) -> str:
    """A kiln function `example()` that runs a row's example on its receiver: it returns the
    call's value (a set as `sorted`) and the receiver afterwards (a dict as its items, a set
    sorted), or the receiver alone after a call whose value is None."""
    v = RECEIVER_NAME[m.receiver]
    view = {"list": v, "dict": f"list({v}.items())", "set": f"sorted({v})", "float": ""}[m.receiver]
    lines = ["def example():", f"    {v} = {m.setup}"]
    if m.result == "None":
        lines += [f"    {m.example}", f"    return {view}"]
    else:
        value = "sorted(r)" if m.result.startswith("set") else "r"
        lines += [
            f"    r = {m.example}",
            f"    return {value}, {view}" if view else f"    return {value}",
        ]
    return "\n".join(lines) + "\n"


def _example_value(m: Method) -> str:
    """The example's value and the receiver's afterwards where the call changed it, as CPython
    gives them (tests/test_surface.py checks that kiln gives the same)."""
    namespace: dict[str, object] = {}
    exec(example_program(m), namespace)  # noqa: S102 - the table's own literal examples
    value = namespace["example"]()  # type: ignore[operator]
    v = RECEIVER_NAME[m.receiver]

    def show(x: object, as_set: bool) -> str:
        return f"`{{{', '.join(map(repr, x))}}}`" if as_set else f"`{x!r}`"  # type: ignore[call-overload]

    def receiver(after: object) -> str:
        if m.receiver == "dict":
            return f"`{dict(after)!r}`"  # type: ignore[call-overload]
        return show(after, m.receiver == "set")

    if m.result == "None":
        return f"after `{m.example}`, `{v}` is {receiver(value)}"
    if m.receiver == "float":
        return f"`{m.example}` is {show(value, False)}"
    value, after = value  # type: ignore[misc]
    before = eval(m.setup)  # noqa: S307 - the table's own literal examples
    if m.receiver == "dict":
        before = list(before.items())
    elif m.receiver == "set":
        before = sorted(before)
    changed = "" if after == before else f", and `{v}` is then {receiver(after)}"
    return f"`{m.example}` is {show(value, m.result.startswith('set'))}{changed}"


def render_methods_table() -> str:
    rows = []
    for m in METHODS:
        v = RECEIVER_NAME[m.receiver]
        doc = _cell(m.doc)
        rows.append(
            f"| `{m.qualname}` | {_arguments(m.arities, m.arguments, m.keywords)} | `{m.result}` "
            f"| {_instructions(m.ops)} | {doc} | `{v} = {m.setup}`: {_example_value(m)} |"
        )
    return _doc_table(_BEGIN_OTHER, _END_OTHER, "method", "instructions", rows)


def render_functions_table() -> str:
    rows = []
    for f in FUNCTIONS:
        module = __import__(f.module)
        value = eval(f.example, {f.module: module})  # noqa: S307 - the table's own examples
        rows.append(
            f"| `{f.qualname}` | {_arguments(f.arities, f.arguments, f.keywords)} | `{f.result}` "
            f"| {_instructions(f.ops)} | {f.doc} | `{f.example}` is `{value!r}` |"
        )
    return _doc_table(_BEGIN_FUNCTIONS, _END_FUNCTIONS, "function", "instructions", rows)


def _arity_cell(b: Builtin) -> str:
    counts = [str(n) for n in b.arities]
    if b.variadic:
        counts[-1] += " or more"
    cell = ", ".join(counts[:-1]) + " or " + counts[-1] if len(counts) > 1 else counts[0]
    if b.variadic and b.arities == (0,):
        cell = "any number"
    cell += f" ({b.arguments})"
    return cell + ("; " + ", ".join(f"`{k}=`" for k in b.keywords) if b.keywords else "")


def builtin_value(b: Builtin) -> object:
    """CPython's value of a builtin's example (what print writes kept from the output)."""
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        return eval(b.example)  # noqa: S307 - the table's own literal examples


def _cell(text: str) -> str:
    """Text as one cell of a Markdown table: its `|` escaped."""
    return text.replace("|", "\\|")


def render_builtins_table() -> str:
    def row(b: Builtin) -> str:
        doc = b.doc + (f"; {b.raises}" if b.raises else "")
        doc += f" (kiln: {b.iteration_only})" if b.iteration_only else ""
        value = f"the fallback trap `{b.trap}`" if b.trap else f"`{builtin_value(b)!r}`"
        lowering = _instructions(b.ops) if b.ops else "none of its own"
        return (
            f"| `{b.name}` | {_arity_cell(b)} | {b.result} | {lowering}: {b.lowering} "
            f"| {_cell(doc)} | `{b.example}` is {value} |"
        )

    return _doc_table(
        _BEGIN_BUILTINS, _END_BUILTINS, "builtin", "lowering", [row(b) for b in BUILTINS]
    )


def render_operators_table() -> str:
    def row(o: Operator) -> str:
        doc = o.doc + (f"; {o.raises}" if o.raises else "")
        value = eval(o.example)  # noqa: S307 - the table's own literal examples
        return (
            f"| `{_cell(o.symbol)}` | {o.kind}: {o.operands} | {o.result} "
            f"| {_instructions(o.ops) if o.ops else 'none'} | {_cell(doc)} "
            f"| `{_cell(o.example)}` is `{value!r}` |"
        )

    table = [row(o) for o in OPERATORS]
    return _doc_table(_BEGIN_OPERATORS, _END_OPERATORS, "operator", "instructions", table).replace(
        "| operator | arguments |", "| operator | operands |"
    )


def builtin_program(b: Builtin) -> str:
    """A kiln program whose `example()` returns a builtin's example."""
    return f"def example():\n    return {b.example}\n"


def operator_program(o: Operator) -> str:
    """A kiln program whose `example()` returns an operator's example."""
    return f"def example():\n    return {o.example}\n"


def function_program(f: Function) -> str:
    """A kiln program whose `example()` returns a module function's example."""
    return f"import {f.module}\n\n\ndef example():\n    return {f.example}\n"


def _replace(current: str, begin: str, end: str, table: str) -> str:
    if begin not in current or end not in current:
        raise ValueError(f"{LANGUAGE_DOC} has no generated section {begin}")
    before, rest = current.split(begin, 1)
    _, after = rest.split(end, 1)
    return before + table + after


def render_doc(current: str) -> str:
    """docs/LANGUAGE.md with its generated method tables replaced by the tables'."""
    current = _replace(current, _BEGIN, _END, render_doc_table())
    current = _replace(current, _BEGIN_OTHER, _END_OTHER, render_methods_table())
    current = _replace(current, _BEGIN_FUNCTIONS, _END_FUNCTIONS, render_functions_table())
    current = _replace(current, _BEGIN_BUILTINS, _END_BUILTINS, render_builtins_table())
    return _replace(current, _BEGIN_OPERATORS, _END_OPERATORS, render_operators_table())
