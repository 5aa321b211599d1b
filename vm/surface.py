# ruff: noqa: E501  (the table reads best as one row per method)
"""kiln Python's str methods, defined once (issue 17): the data of the language surface, in vm
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
