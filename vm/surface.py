# ruff: noqa: E501  (the table reads best as one row per method)
"""kiln Python's methods, defined once (issue 17): the data of the language surface, in vm
(below the compiler, in the layer stack) because the instruction set and the VMs derive from it
too. compiler/surface.py re-exports it with the compiler's generated files.

For every str method: its name, the argument counts it takes, the type of its arguments and of
its result, the instruction it lowers to, what it raises, a one-line doc and an example (a
Python expression whose value kiln gives as CPython does: tests/test_surface.py runs each one).
Everything else that names a str method is derived from STR_METHODS:

- vm/isa.py appends the instruction of a row that its own table does not name (operand none,
  pops the receiver and `op_arguments` arguments, pushes the result; its doc is the row's);
  vm/typecheck.py takes its signature (`op_signature`); vm/ref.py delegates it to Python's own
  str method unless it has a `case` of its own; compiler/batched.py's KC_OP_NAMES lets the
  batched compiler emit it;
- compiler/types.py's signatures, compiler/lower.py's instructions, compiler/frontend.py's known
  methods and fuzz/generator.py's method families read the table when they are imported;
- the batched C compiler's tables (compiler/kernels/kc_surface.h), vm/kernels/kiln_isa.h and
  docs/ISA.md, docs/LANGUAGE.md's str-method table are generated (`python -m vm.isa --write`,
  `python -m compiler --write`).

The methods of lists, dicts, sets and floats are METHODS (class Method), one row each: receiver,
name, argument counts, argument and result types (in the receiver's item types T, K, V), the
instructions their lowering uses, keywords, what they raise (in the doc), a one-line doc and an
example run by tests/test_surface.py on CPython and every kiln backend. They bring no
instruction (their lowering is compiler/lower.py's, method by method: sort's key=, pop's index,
the dict views and the set operators stay hand-written there), but every list of their names
is derived from the table: compiler/surface.py's OTHER_METHODS and BATCHED_METHODS (so
frontend.py's known methods), compiler/types.py's SET_METHODS, dict calls and result types,
fuzz/generator.py's set families, kc_surface.h's KC_METHODS and KC_LIST_METHODS (with the
KC_LM_ enum kc_types.h and kc_lower.h use), and docs/LANGUAGE.md's second method table.

The functions of math are FUNCTIONS (class Function), likewise: frontend.py's MATH_FUNCTIONS
and MATH_KEYWORDS, types.py's math arities and result types, kc_surface.h's KC_MATH and
docs/LANGUAGE.md's math table derive from it; their lowering (lower.py's b_math_*, or a kiln
function of frontend.py's MATH_HELPERS) stays hand-written.

Rows are APPEND-ONLY where they bring a new instruction: opcodes are positions (vm/isa.py), so a
new method goes at the end, and no row whose instruction vm/isa.py derives is removed or moved.
Adding a str method is its row here, its C semantics (a `CASE(OP_...)` in vm/kernels/interp.h),
its Python semantics in vm/ref.py only where delegating to Python's str method is not exact,
and a golden-corpus program (docs/CONTRIBUTING.md, "Adding a str method").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class StrMethod:
    name: str
    arities: tuple[int, ...]  # the argument counts it takes
    result: str  # its result's type: "str", "bool", "int" or "list[str]"
    op: str  # the instruction a call lowers to (vm/isa.py)
    doc: str  # what it does, and what kiln leaves to CPython (Unsupported) or raises
    example: str  # a Python expression: kiln's value is CPython's
    argument: str = "str"  # the type of each argument
    batched: tuple[int, ...] | None = None  # the counts the batched compiler takes (None: all)
    family: str = ""  # case, strip, class, affix, search, edit, pad: the random generator's groups
    # the arguments its instruction pops (None: the fewest it takes, 0 excepted)
    op_arity: int | None = None

    @property
    def batched_arities(self) -> tuple[int, ...]:
        return self.arities if self.batched is None else self.batched

    @property
    def op_arguments(self) -> int:
        """How many arguments its instruction pops above the receiver (find's start and split's
        maxsplit are lowered to other instructions, split() to STR_SPLIT_WS)."""
        if self.op_arity is not None:
            return self.op_arity
        return min((n for n in self.arities if n), default=0)

    @property
    def op_signature(self) -> tuple[tuple[str, ...], str]:
        """Its instruction's operand types (deepest first: the receiver, then the arguments)
        and result type: vm/typecheck.py's signature of the instruction."""
        return ("str", *(self.argument,) * self.op_arguments), self.result

    @property
    def ascii_only(self) -> bool:
        """Whether its instruction traps Unsupported for a non-ASCII receiver: its doc ends so
        (split's says it of STR_SPLIT_WS, split() without a separator, mid-sentence)."""
        return self.doc.endswith(_ASCII)


_ASCII = " (ASCII; else Unsupported)"

STR_METHODS: Final[tuple[StrMethod, ...]] = (
    StrMethod("lower", (0,), "str", "STR_LOWER", "lowercase" + _ASCII, '"KiLn".lower()', family="case"),
    StrMethod("upper", (0,), "str", "STR_UPPER", "uppercase" + _ASCII, '"KiLn".upper()', family="case"),
    StrMethod("swapcase", (0,), "str", "STR_SWAPCASE", "case swapped" + _ASCII, '"KiLn".swapcase()', family="case"),
    StrMethod("strip", (0,), "str", "STR_STRIP", "whitespace removed from both ends" + _ASCII, '" \\tkiln \\n".strip()', family="strip"),
    StrMethod("lstrip", (0,), "str", "STR_LSTRIP", "whitespace removed from the start" + _ASCII, '"  kiln ".lstrip()', family="strip"),
    StrMethod("rstrip", (0,), "str", "STR_RSTRIP", "whitespace removed from the end" + _ASCII, '"  kiln ".rstrip()', family="strip"),
    StrMethod("isalpha", (0,), "bool", "STR_ISALPHA", "non-empty and letters only" + _ASCII, '"kiln".isalpha()', family="class"),
    StrMethod("isdigit", (0,), "bool", "STR_ISDIGIT", "non-empty and digits only" + _ASCII, '"2026".isdigit()', family="class"),
    StrMethod("isalnum", (0,), "bool", "STR_ISALNUM", "non-empty and letters or digits only" + _ASCII, '"k1ln".isalnum()', family="class"),
    StrMethod("isspace", (0,), "bool", "STR_ISSPACE", "non-empty and whitespace only" + _ASCII, '" \\t".isspace()', family="class"),
    StrMethod("isupper", (0,), "bool", "STR_ISUPPER", "has cased letters, all uppercase" + _ASCII, '"KILN 2".isupper()', family="class"),
    StrMethod("islower", (0,), "bool", "STR_ISLOWER", "has cased letters, all lowercase" + _ASCII, '"kiln 2".islower()', family="class"),
    StrMethod(
        "find", (1, 2), "int", "STR_FIND",
        "the lowest index of `sub` (at or after `start`, read as a slice start), or -1",
        '"banana".find("an", 2)', batched=(1,), family="search",
    ),
    StrMethod("index", (1,), "int", "STR_FIND", "as `find`, but ValueError where `find` gives -1", '"banana".index("na")', family="search"),
    StrMethod("count", (1,), "int", "STR_COUNT", "non-overlapping occurrences of `sub`", '"banana".count("an")', family="search"),
    StrMethod("startswith", (1,), "bool", "STR_STARTSWITH", "whether it starts with the argument", '"kiln".startswith("ki")', family="affix"),
    StrMethod("endswith", (1,), "bool", "STR_ENDSWITH", "whether it ends with the argument", '"kiln".endswith("ln")', family="affix"),
    StrMethod("replace", (2,), "str", "STR_REPLACE", "every occurrence of `old` replaced by `new`", '"banana".replace("an", "AN")', family="edit"),
    StrMethod("join", (1,), "str", "STR_JOIN", "the strs of the list, with this str between them", '"-".join(["k", "i", "l", "n"])', argument="list[str]", family="edit"),
    StrMethod(
        "split", (0, 1, 2), "list[str]", "STR_SPLIT",
        "the parts between separators (ValueError for an empty one); without one, runs of"
        " whitespace (`STR_SPLIT_WS`)" + _ASCII + "; `split(sep, maxsplit)`: at most"
        " `maxsplit` splits from the start (negative: all), the kiln function `$split_max`;"
        " `sep=`, `maxsplit=` as keywords too",
        '" k i  ln ".split()', batched=(0, 1), family="edit",
    ),
    StrMethod(
        "rsplit", (0, 1, 2), "list[str]", "STR_SPLIT",
        "`split`'s parts (the same without `maxsplit`); `rsplit(sep, maxsplit)`: at most"
        " `maxsplit` splits from the end, the kiln function `$rsplit_max`",
        '"a.b.c".rsplit(".", 1)', batched=(1,), family="edit",
    ),
    StrMethod(
        "zfill", (1,), "str", "STR_ZFILL",
        "`0`s added on the left up to the width given, after a leading `+` or `-`; unchanged when as long already",
        '"-42".zfill(6)', argument="int", family="pad",
    ),
)  # fmt: skip

STR_METHOD: Final[dict[str, StrMethod]] = {m.name: m for m in STR_METHODS}


# ---- the methods of the other receivers --------------------------------------------------------


@dataclass(frozen=True)
class Method:
    """A method of a list, dict, set or float: it brings no instruction of its own (its lowering
    is compiler/lower.py's, of the instructions in `ops`), so rows may be added anywhere."""

    receiver: str  # "list", "dict", "set" or "float"
    name: str
    arities: tuple[int, ...]  # the positional argument counts it takes
    arguments: str  # their types, in the receiver's (list[T], dict[K, V], set[T]): "T", "K, V"
    result: str  # its result's type: "None", "T", "V", "int", "bool", "list[T]", "set[T]", ...
    ops: tuple[str, ...]  # the instructions of its lowering that do the work (vm/isa.py)
    doc: str  # what it does, what it raises, and what kiln leaves out
    setup: str  # the receiver's value for the example (a Python literal)
    example: str  # a Python expression calling it on the receiver (RECEIVER_NAME)
    batched: bool = False  # the batched compiler takes it (kc_surface.h's KC_METHODS)
    keywords: tuple[str, ...] = ()  # the keyword arguments it takes
    family: str = ""  # the random generator's groups of set methods: "op", "test"
    operator: str = ""  # a set method meaning an operator (its ast name) or a test of two sets
    iteration_only: bool = False  # a dict view: iterated, or the argument of list(), sorted(), ...

    @property
    def qualname(self) -> str:
        return f"{self.receiver}.{self.name}"


# the name of the receiver in a row's `setup` and `example`
RECEIVER_NAME: Final[dict[str, str]] = {"list": "xs", "dict": "d", "set": "s", "float": "x"}
_FLOATS = "; not of a list holding floats (CPython compares items by identity first: NaN)"
_VIEW = (
    ", in insertion order: in `for` loops and comprehensions, and as the argument of `list`,"
    " `sorted`, `min`, `max`, `sum`, `len`, `set`, `any`, `all` (a step after the dict changed"
    " size is RuntimeError)"
)
_SET_ARG = "set[T], list[T] or str"
_OF_ANY = "; of a list or str: `set()` of it first"

METHODS: Final[tuple[Method, ...]] = (
    Method("list", "append", (1,), "T", "None", ("LIST_APPEND",), "`v` added at the end", "[1, 2]", "xs.append(3)", batched=True),
    Method(
        "list", "pop", (0, 1), "int", "T", ("LIST_POP", "LIST_POP_AT"),
        "the last item, or the one at index `i` (negative from the end), removed and returned;"
        " IndexError for an empty list or an index out of range", "[1, 2, 3]", "xs.pop(0)", batched=True,
    ),
    Method(
        "list", "sort", (0,), "", "None", ("SORTED", "SORTED_DESC"),
        "sorted in place (stable; aliases see it), `reverse=` a constant True or False; `key=f` as a"
        " statement only (`xs[:] = sorted(xs, key=f)`)",
        "[3, 1, 2]", "xs.sort(reverse=True)", batched=True, keywords=("reverse", "key"),
    ),
    Method("list", "reverse", (0,), "", "None", ("LIST_REVERSED",), "reversed in place (aliases see it)", "[1, 2, 3]", "xs.reverse()", batched=True),
    Method("list", "clear", (0,), "", "None", ("LIST_IREPEAT",), "emptied in place (`xs *= 0`)", "[1, 2]", "xs.clear()", batched=True),
    Method("list", "extend", (1,), "list[T]", "None", ("LIST_EXTEND",), "the items of another list of its type added at the end", "[1]", "xs.extend([2, 3])", batched=True),
    Method("list", "index", (1,), "T", "int", ("LIST_INDEX", "EQ"), "the index of the first item `== v`; ValueError when absent" + _FLOATS, "[5, 6, 7]", "xs.index(7)", batched=True),
    Method("list", "count", (1,), "T", "int", ("LIST_INDEX", "EQ"), "the number of items `== v`" + _FLOATS, "[1, 2, 1]", "xs.count(1)", batched=True),
    Method("list", "remove", (1,), "T", "None", ("LIST_INDEX", "EQ", "LIST_POP_AT"), "the first item `== v` removed; ValueError when absent" + _FLOATS, "[1, 2, 1]", "xs.remove(1)", batched=True),
    Method("list", "copy", (0,), "", "list[T]", ("LIST_SLICE",), "a new list of the same items (`xs[:]`)", "[1, 2]", "xs.copy()"),
    Method(
        "dict", "get", (2,), "K, V", "V", ("TUPLE_GET", "LIST_INDEX"),
        "the value of key `k`, or `default` when absent (the default is required)", '{"a": 1}', 'd.get("b", 0)', batched=True,
    ),
    Method(
        "dict", "setdefault", (2,), "K, V", "V", ("TUPLE_GET", "LIST_INDEX", "LIST_APPEND"),
        "the value of key `k`; an absent key gets `default` itself (`d.setdefault(k, []).append(v)`"
        " appends to the list in `d`); the default is required", '{"a": 1}', 'd.setdefault("b", 2)',
    ),
    Method("dict", "keys", (0,), "", "list[K]", ("TUPLE_GET",), "the keys" + _VIEW, '{"a": 1, "b": 2}', "list(d.keys())", batched=True, iteration_only=True),
    Method("dict", "values", (0,), "", "list[V]", ("TUPLE_GET",), "the values" + _VIEW, '{"a": 1, "b": 2}', "list(d.values())", batched=True, iteration_only=True),
    Method("dict", "items", (0,), "", "list[tuple[K, V]]", ("TUPLE_GET",), "the `(key, value)` pairs" + _VIEW, '{"a": 1, "b": 2}', "list(d.items())", batched=True, iteration_only=True),
    Method("set", "add", (1,), "T", "None", ("CONTAINS", "LIST_APPEND", "SORTED"), "`x` added (a set is a sorted list without repeats)", "{3, 1}", "s.add(2)", batched=True),
    Method("set", "intersection", (1,), _SET_ARG, "set[T]", ("CONTAINS",), "a new set of the items in both (`a & b`)" + _OF_ANY, "{1, 2, 3}", "s.intersection([2, 3, 4])", family="op", operator="BitAnd"),
    Method("set", "union", (1,), _SET_ARG, "set[T]", ("LIST_CONCAT", "SORTED_UNIQUE"), "a new set of the items in either (`a | b`)" + _OF_ANY, "{1, 2}", "s.union({2, 3})", family="op", operator="BitOr"),
    Method("set", "difference", (1,), _SET_ARG, "set[T]", ("CONTAINS",), "a new set of its items not in the other (`a - b`)" + _OF_ANY, "{1, 2, 3}", "s.difference({2})", family="op", operator="Sub"),
    Method("set", "symmetric_difference", (1,), _SET_ARG, "set[T]", ("CONTAINS", "LIST_CONCAT", "SORTED_UNIQUE"), "a new set of the items in one only (`a ^ b`)" + _OF_ANY, "{1, 2}", "s.symmetric_difference({2, 3})", family="op", operator="BitXor"),
    Method("set", "issubset", (1,), _SET_ARG, "bool", ("CONTAINS", "LIST_LEN"), "whether every item is in the other (`a <= b`)" + _OF_ANY, "{1, 2}", "s.issubset([1, 2, 3])", family="test", operator="issubset"),
    Method("set", "issuperset", (1,), _SET_ARG, "bool", ("CONTAINS", "LIST_LEN"), "whether every item of the other is in it (`a >= b`)" + _OF_ANY, "{1, 2, 3}", "s.issuperset({1, 3})", family="test", operator="issuperset"),
    Method("set", "isdisjoint", (1,), _SET_ARG, "bool", ("CONTAINS", "LIST_LEN"), "whether no item is in the other" + _OF_ANY, "{1, 2}", "s.isdisjoint([3, 4])", family="test", operator="isdisjoint"),
    Method(
        "float", "is_integer", (0,), "", "bool", (),
        "finite and without a fraction (False for infinities and NaN), the kiln function `$is_integer`", "2.0", "x.is_integer()",
    ),
)  # fmt: skip

METHOD: Final[dict[str, Method]] = {m.qualname: m for m in METHODS}


# ---- module functions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Function:
    """A function of a standard module kiln takes (today math's): like a Method, no instruction
    of its own; its lowering is compiler/lower.py's `b_math_<name>`, or a call of the kiln
    function compiler/frontend.py's MATH_HELPERS defines."""

    module: str  # "math"
    name: str
    arities: tuple[int, ...]  # the positional argument counts it takes
    arguments: str  # their types
    result: str  # its result's type
    ops: tuple[str, ...]  # the instructions of its lowering that do the work (() a kiln function)
    doc: str  # what it does, what it raises
    example: str  # a Python expression calling it (the module imported)
    batched: bool = False  # the batched compiler takes it (kc_surface.h's KC_MATH, in this order)
    keywords: tuple[str, ...] = ()  # the keyword arguments it takes

    @property
    def qualname(self) -> str:
        return f"{self.module}.{self.name}"


# Rows the batched compiler takes come first, in KC_MATH's order (its E_CALL ops are KC_MATH_OP
# plus the position: kc_types.h, kc_lower.h).
FUNCTIONS: Final[tuple[Function, ...]] = (
    Function("math", "sqrt", (1,), "int or float", "float", ("SQRT_F",), "the square root (an int made a float first); ValueError for a negative number", "math.sqrt(16)", batched=True),
    Function("math", "floor", (1,), "int or float", "int", ("FLOOR_F", "F2I"), "the largest int at most `x` (of an int: itself); ValueError for NaN, OverflowError for an infinity", "math.floor(-2.5)", batched=True),
    Function("math", "ceil", (1,), "int or float", "int", ("CEIL_F", "F2I"), "the smallest int at least `x` (of an int: itself); ValueError for NaN, OverflowError for an infinity", "math.ceil(2.1)", batched=True),
    Function("math", "factorial", (1,), "int", "int", (), "`n!`, the kiln function `$factorial`; ValueError for a negative `n`, past 64 bits the fallback trap Overflow", "math.factorial(5)"),
    Function("math", "isqrt", (1,), "int", "int", (), "the integer square root, the kiln function `$isqrt`; ValueError for a negative `n`", "math.isqrt(17)"),
    Function("math", "pow", (2,), "int or float", "float", (), "`x ** y` as floats, the kiln function `$pow`; ValueError for 0 to a negative power and a negative number to a non-integer one, OverflowError past the floats", "math.pow(2, 10)"),
    Function("math", "isclose", (2,), "int or float", "bool", (), "whether `a` and `b` are within `rel_tol` (default 1e-09) of the larger or `abs_tol` (default 0.0), the kiln function `$isclose`", "math.isclose(0.1 + 0.2, 0.3)", keywords=("rel_tol", "abs_tol")),
    Function("math", "fabs", (1,), "int or float", "float", (), "the absolute value as a float, the kiln function `$fabs`", "math.fabs(-3)"),
)  # fmt: skip

FUNCTION: Final[dict[str, Function]] = {f.qualname: f for f in FUNCTIONS}
