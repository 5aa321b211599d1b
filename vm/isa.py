"""The kiln instruction set: the one table every other part is derived from.

Each instruction is one 32-bit word: the opcode in the low 8 bits and a 24-bit operand above it
(`word = opcode | operand << 8`). The operand's meaning is its *kind* (a constant index, a local
slot, a jump target, ...). Instructions are typed: the compiler knows every type statically, so
there is no dynamic dispatch at run time (`ADD_I` adds ints, `ADD_F` floats).

Values are 64-bit slots. `int` and `bool` are int64 (bool is 0/1), `float` is an IEEE double
(its bits), `None` is 0, and `str`, `list` and `tuple` are references: word addresses in the
execution's memory (see `vm/README.md` for the memory layout, the same on every backend).

Stack effects are data: `pops`/`pushes` are ints, or `"n"` for the operand's count, or
`"call"` for the callee's parameter count. The assembler computes maximum stack depths from
them and the verifier checks balance with them.

The C header `vm/kernels/kiln_isa.h` and `docs/ISA.md` are generated from this table:
`python -m vm.isa --write`. A test fails when either is stale.
"""

from __future__ import annotations

import functools
import hashlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

# ---- operand kinds -----------------------------------------------------------------------------

OPERAND_KINDS: Final = {
    "none": "no operand (must be 0)",
    "imm": "signed 24-bit immediate",
    "const": "index into the program's 64-bit constant pool",
    "str": "word address of a string in the program's constant image",
    "local": "slot of the current frame (parameters first, then locals)",
    "local2": "two slots of the current frame, 12 bits each: a = operand & 0xfff, b = operand >> 12",
    "jump": "absolute instruction index inside the current function",
    "func": "function index",
    "type": "index into the program's type table",
    "count": "number of items",
    "slice": "which of start/stop/step are on the stack: bit 0 start, bit 1 stop, bit 2 step",
    "trap": "trap code (see TRAPS)",
}

OPERAND_MAX: Final = (1 << 24) - 1
LOCAL2_MAX: Final = (1 << 12) - 1  # the largest slot a "local2" operand can name
IMM_MIN: Final = -(1 << 23)
IMM_MAX: Final = (1 << 23) - 1


@dataclass(frozen=True)
class Op:
    name: str
    code: int
    operand: str
    pops: int | str
    pushes: int | str
    doc: str

    @property
    def is_jump(self) -> bool:
        return self.operand == "jump"

    @property
    def ends_block(self) -> bool:
        """Control never falls through to the next instruction."""
        return self.name in ("JUMP", "RET", "RAISE")

    @property
    def guards_jump(self) -> bool:
        """A loop step: always followed by a JUMP, which it either takes (in the same step, the
        JUMP itself not executed) or skips. Control goes on at the JUMP's target or at pc + 2."""
        return self.name in LOOP_STATE_SLOTS


# name, operand kind, pops, pushes, "stack effect: meaning"
_STATIC: Final[list[tuple[str, str, int | str, int | str, str]]] = [
    # -- stack and constants
    ("NOP", "none", 0, 0, "-- : nothing"),
    ("POP", "none", 1, 0, "a -- : discard the top"),
    ("DUP", "none", 1, 2, "a -- a a"),
    ("DUP2", "none", 2, 4, "a b -- a b a b"),
    ("SWAP", "none", 2, 2, "a b -- b a"),
    ("LOADI", "imm", 0, 1, "-- imm : push a small int"),
    ("CONST", "const", 0, 1, "-- consts[k] : push a 64-bit constant (int, or float bits)"),
    ("STR", "str", 0, 1, "-- s : push the string constant at image address s"),
    ("LOAD", "local", 0, 1, "-- locals[n]"),
    ("STORE", "local", 1, 0, "a -- : locals[n] = a"),
    ("LOAD2", "local2", 0, 2, "-- locals[a] locals[b]"),
    # -- control
    ("JUMP", "jump", 0, 0, "-- : pc = t"),
    ("JUMP_IF_FALSE", "jump", 1, 0, "c -- : if not c: pc = t"),
    ("JUMP_IF_TRUE", "jump", 1, 0, "c -- : if c: pc = t"),
    ("JUMP_LT_I", "jump", 2, 0, "a b -- : if a<b: pc = t"),
    ("JUMP_LE_I", "jump", 2, 0, "a b -- : if a<=b: pc = t"),
    ("JUMP_GT_I", "jump", 2, 0, "a b -- : if a>b: pc = t"),
    ("JUMP_GE_I", "jump", 2, 0, "a b -- : if a>=b: pc = t"),
    ("JUMP_EQ_I", "jump", 2, 0, "a b -- : if a==b: pc = t"),
    ("JUMP_NE_I", "jump", 2, 0, "a b -- : if a!=b: pc = t"),
    (
        "FOR_RANGE",
        "local2",
        0,
        0,
        "-- : range state cur, stop, step in locals[b..b+2]: if cur<stop (step > 0) or cur>stop (step <= 0): locals[a] = cur, cur += step (a sum past 64 bits sets cur = stop), take the JUMP that follows; else skip it",
    ),
    (
        "FOR_LIST",
        "local2",
        0,
        0,
        "-- : list l and index i in locals[b], locals[b+1]: if 0 <= i < len(l) (read every step): locals[a] = l[i], i += 1, take the JUMP that follows; else skip it",
    ),
    (
        "FOR_STR",
        "local2",
        0,
        0,
        "-- : str s and index i in locals[b], locals[b+1]: if 0 <= i < len(s): locals[a] = s[i] (a new 1-character string), i += 1, take the JUMP that follows; else skip it",
    ),
    (
        "CALL",
        "func",
        "call",
        1,
        "args -- r : call function f (RecursionError past the depth limit)",
    ),
    ("RET", "none", 1, 0, "r -- : return r to the caller (or end the run)"),
    ("RAISE", "trap", 0, 0, "-- : raise the exception with trap code e"),
    # -- int
    ("ADD_I", "none", 2, 1, "a b -- a+b : Overflow outside 64 bits"),
    ("ADDI", "imm", 1, 1, "a -- a+imm : Overflow outside 64 bits"),
    ("SUB_I", "none", 2, 1, "a b -- a-b : Overflow outside 64 bits"),
    ("MUL_I", "none", 2, 1, "a b -- a*b : Overflow outside 64 bits"),
    ("FLOORDIV_I", "none", 2, 1, "a b -- a//b : rounds toward -inf; ZeroDivisionError"),
    ("MOD_I", "none", 2, 1, "a b -- a%b : sign of b; ZeroDivisionError"),
    (
        "POW_I",
        "none",
        2,
        1,
        "a b -- a**b : Overflow; Unsupported when b < 0 (Python gives a float)",
    ),
    (
        "DIV_I",
        "none",
        2,
        1,
        "a b -- a/b : true division to float; ZeroDivisionError; Unsupported past 2**53",
    ),
    ("NEG_I", "none", 1, 1, "a -- -a : Overflow for -2**63"),
    ("ABS_I", "none", 1, 1, "a -- abs(a) : Overflow for -2**63"),
    ("INVERT_I", "none", 1, 1, "a -- ~a"),
    ("AND_I", "none", 2, 1, "a b -- a&b"),
    ("OR_I", "none", 2, 1, "a b -- a|b"),
    ("XOR_I", "none", 2, 1, "a b -- a^b"),
    ("SHL_I", "none", 2, 1, "a b -- a<<b : ValueError when b < 0; Overflow outside 64 bits"),
    ("SHR_I", "none", 2, 1, "a b -- a>>b : ValueError when b < 0"),
    ("LT_I", "none", 2, 1, "a b -- a<b"),
    ("LE_I", "none", 2, 1, "a b -- a<=b"),
    ("GT_I", "none", 2, 1, "a b -- a>b"),
    ("GE_I", "none", 2, 1, "a b -- a>=b"),
    ("EQ_I", "none", 2, 1, "a b -- a==b"),
    ("NE_I", "none", 2, 1, "a b -- a!=b"),
    ("NOT", "none", 1, 1, "a -- not a : a is an int or bool"),
    ("TRUTH_F", "none", 1, 1, "x -- bool(x) : float truthiness"),
    # -- float
    ("ADD_F", "none", 2, 1, "x y -- x+y"),
    ("SUB_F", "none", 2, 1, "x y -- x-y"),
    ("MUL_F", "none", 2, 1, "x y -- x*y"),
    ("DIV_F", "none", 2, 1, "x y -- x/y : ZeroDivisionError"),
    ("FLOORDIV_F", "none", 2, 1, "x y -- x//y : Python's float floor division; ZeroDivisionError"),
    ("MOD_F", "none", 2, 1, "x y -- x%y : sign of y; ZeroDivisionError"),
    (
        "POW_F",
        "none",
        2,
        1,
        "x y -- x**y : ZeroDivisionError for 0**-y; OverflowError; Unsupported for a complex result",
    ),
    ("NEG_F", "none", 1, 1, "x -- -x"),
    ("ABS_F", "none", 1, 1, "x -- abs(x)"),
    ("LT_F", "none", 2, 1, "x y -- x<y"),
    ("LE_F", "none", 2, 1, "x y -- x<=y"),
    ("GT_F", "none", 2, 1, "x y -- x>y"),
    ("GE_F", "none", 2, 1, "x y -- x>=y"),
    ("EQ_F", "none", 2, 1, "x y -- x==y"),
    ("NE_F", "none", 2, 1, "x y -- x!=y"),
    ("I2F", "none", 1, 1, "a -- float(a) : rounds to nearest"),
    (
        "I2F_EXACT",
        "none",
        1,
        1,
        "a -- float(a) : Unsupported when not exact (an int compared with a float)",
    ),
    (
        "F2I",
        "none",
        1,
        1,
        "x -- int(x) : truncates; ValueError for nan, OverflowError for inf, Overflow past 64 bits",
    ),
    # -- values of any type (operand: the type of both operands, or of the sequence)
    ("EQ", "type", 2, 1, "a b -- a==b : deep equality of two values of type t"),
    ("LT", "type", 2, 1, "a b -- a<b : Python's ordering of str, list and tuple values of type t"),
    ("LE", "type", 2, 1, "a b -- a<=b"),
    ("CONTAINS", "type", 2, 1, "x s -- x in s : s of type t (substring test for str)"),
    # -- str
    ("STR_LEN", "none", 1, 1, "s -- len(s)"),
    ("STR_INDEX", "none", 2, 1, "s i -- s[i] : negative from the end; IndexError"),
    (
        "STR_SLICE",
        "slice",
        "n",
        1,
        "s [start] [stop] [step] -- s[start:stop:step] : ValueError for step 0",
    ),
    ("STR_CONCAT", "none", 2, 1, "a b -- a+b"),
    ("STR_REPEAT", "none", 2, 1, "s n -- s*n"),
    ("STR_OF_INT", "none", 1, 1, "a -- str(a)"),
    ("STR_OF_BOOL", "none", 1, 1, "a -- str(a) : 'True' or 'False'"),
    ("INT_OF_STR", "none", 1, 1, "s -- int(s) : ValueError; Overflow past 64 bits"),
    ("ORD", "none", 1, 1, "s -- ord(s) : TypeError unless len(s) == 1"),
    (
        "CHR",
        "none",
        1,
        1,
        "a -- chr(a) : OverflowError outside 32 bits, else ValueError outside range(0x110000)",
    ),
    # -- list
    ("LIST_NEW", "count", "n", 1, "v1 .. vn -- [v1, .., vn]"),
    ("LIST_LEN", "none", 1, 1, "l -- len(l)"),
    ("LIST_INDEX", "none", 2, 1, "l i -- l[i] : negative from the end; IndexError"),
    ("LIST_STORE", "none", 3, 0, "l i v -- : l[i] = v; IndexError"),
    ("LIST_APPEND", "none", 2, 0, "l v -- : l.append(v)"),
    ("LIST_POP", "none", 1, 1, "l -- l.pop() : IndexError when empty"),
    ("LIST_POP_AT", "none", 2, 1, "l i -- l.pop(i) : IndexError"),
    (
        "LIST_SLICE",
        "slice",
        "n",
        1,
        "l [start] [stop] [step] -- l[start:stop:step] : a new list; ValueError for step 0",
    ),
    ("LIST_CONCAT", "none", 2, 1, "a b -- a+b : a new list"),
    ("LIST_REPEAT", "none", 2, 1, "l n -- l*n : a new list (items shared, as in Python)"),
    ("LIST_EXTEND", "none", 2, 1, "a b -- a : a += b, in place (a.extend(b)); a may be b"),
    ("LIST_IREPEAT", "none", 2, 1, "a n -- a : a *= n, in place; n <= 0 empties a"),
    ("LIST_OF_STR", "none", 1, 1, "s -- list(s) : the characters"),
    (
        "LIST_RANGE",
        "none",
        3,
        1,
        "start stop step -- list(range(start, stop, step)) : ValueError for step 0",
    ),
    ("LIST_REVERSED", "none", 1, 1, "l -- list(reversed(l))"),
    ("SORTED", "type", 1, 1, "l -- sorted(l) : a new list; t is the list type; stable"),
    ("SORTED_DESC", "type", 1, 1, "l -- sorted(l, reverse=True) : stable"),
    (
        "MIN",
        "type",
        1,
        1,
        "l -- min(l) : the first smallest; t is the list or str type; ValueError when empty",
    ),
    ("MAX", "type", 1, 1, "l -- max(l) : the first largest; ValueError when empty"),
    ("SUM_I", "none", 1, 1, "l -- sum(l) : of a list[int] or list[bool]; Overflow"),
    (
        "SUM_F",
        "none",
        1,
        1,
        "l -- sum(l) : of a list[float], added left to right; Unsupported when empty",
    ),
    # -- tuple
    ("TUPLE_NEW", "count", "n", 1, "v1 .. vn -- (v1, .., vn)"),
    ("TUPLE_GET", "count", 1, 1, "t -- t[k]"),
    ("UNPACK_TUPLE", "count", 1, "n", "t -- t[0] .. t[n-1]"),
    ("UNPACK_LIST", "count", 1, "n", "l -- l[0] .. l[n-1] : ValueError unless len(l) == n"),
    # -- str methods (case and character classes are ASCII-only: Unsupported otherwise)
    ("STR_LOWER", "none", 1, 1, "s -- s.lower() : Unsupported for a non-ASCII s"),
    ("STR_UPPER", "none", 1, 1, "s -- s.upper() : Unsupported for a non-ASCII s"),
    ("STR_SWAPCASE", "none", 1, 1, "s -- s.swapcase() : Unsupported for a non-ASCII s"),
    ("STR_ISALPHA", "none", 1, 1, "s -- s.isalpha() : Unsupported for a non-ASCII s"),
    ("STR_ISDIGIT", "none", 1, 1, "s -- s.isdigit() : Unsupported for a non-ASCII s"),
    ("STR_ISALNUM", "none", 1, 1, "s -- s.isalnum() : Unsupported for a non-ASCII s"),
    ("STR_ISSPACE", "none", 1, 1, "s -- s.isspace() : Unsupported for a non-ASCII s"),
    ("STR_ISUPPER", "none", 1, 1, "s -- s.isupper() : Unsupported for a non-ASCII s"),
    ("STR_ISLOWER", "none", 1, 1, "s -- s.islower() : Unsupported for a non-ASCII s"),
    ("STR_STRIP", "none", 1, 1, "s -- s.strip() : whitespace; Unsupported for a non-ASCII s"),
    ("STR_LSTRIP", "none", 1, 1, "s -- s.lstrip() : Unsupported for a non-ASCII s"),
    ("STR_RSTRIP", "none", 1, 1, "s -- s.rstrip() : Unsupported for a non-ASCII s"),
    ("STR_FIND", "none", 2, 1, "s sub -- s.find(sub) : -1 when absent"),
    ("STR_COUNT", "none", 2, 1, "s sub -- s.count(sub) : non-overlapping; len(s)+1 for ''"),
    ("STR_STARTSWITH", "none", 2, 1, "s p -- s.startswith(p)"),
    ("STR_ENDSWITH", "none", 2, 1, "s p -- s.endswith(p)"),
    ("STR_REPLACE", "none", 3, 1, "s old new -- s.replace(old, new)"),
    (
        "STR_SPLIT",
        "none",
        2,
        1,
        "s sep -- s.split(sep) : a new list, then each piece; ValueError for an empty sep",
    ),
    (
        "STR_SPLIT_WS",
        "none",
        1,
        1,
        "s -- s.split() : at runs of whitespace; Unsupported for a non-ASCII s",
    ),
    ("STR_JOIN", "none", 2, 1, "sep l -- sep.join(l) : l a list[str]"),
    ("STR_BIN", "none", 1, 1, "a -- bin(a) : '0b101', '-0b101'"),
    # -- math (results are floats; F2I makes math.floor, math.ceil and round ints)
    ("SQRT_F", "none", 1, 1, "x -- math.sqrt(x) : ValueError for x < 0"),
    ("FLOOR_F", "none", 1, 1, "x -- floor(x) : a float (C's floor)"),
    ("CEIL_F", "none", 1, 1, "x -- ceil(x) : a float (C's ceil)"),
    (
        "ROUND_F",
        "none",
        1,
        1,
        "x -- round(x) : a float, halves to even (CPython's float.__round__)",
    ),
    # -- sets (a set is a sorted list without repeats: its items are ints, bools or strs)
    (
        "SORTED_UNIQUE",
        "type",
        1,
        1,
        "l -- sorted(set(l)) : a new list (cap = len(l)), sorted, repeats dropped; t: list type",
    ),
    # -- dicts (a dict is a tuple of a keys list and a values list, in insertion order)
    (
        "LIST_FIND",
        "type",
        2,
        1,
        "l x -- i : the first index with l[i] == x, or -1; t is the list type (NaN: Unsupported)",
    ),
    # -- optionals (an Optional[T] is -1 for None, else a 1-item tuple holding the value)
    ("IS_NONE", "none", 1, 1, "o -- o is None : o an Optional[T] (-1 or a 1-item tuple)"),
    ("OPT_VALUE", "none", 1, 1, "o -- the value in o : TypeError when o is None"),
    # -- appended (codes above stay as they were)
    (
        "ROUND_F_N",
        "none",
        2,
        1,
        "x n -- round(x, n) : x a float, n an int; CPython's correctly rounded decimal rounding (halves to even); Unsupported for n < 0, or where x * 10**n has 53 bits or more, or n > 22",
    ),
    # -- appended by lang14 (float(str), ...): keep these together
    (
        "FLOAT_OF_STR",
        "none",
        1,
        1,
        "s -- float(s) : CPython's float() of a str (ASCII whitespace stripped, sign, digits with single underscores between digits, inf/infinity/nan in any case); ValueError for other text; Unsupported for a non-ASCII s, or a finite value of more than 15 significant digits or a decimal exponent outside -22..22 (where one double operation is not exact)",
    ),
    (
        "SET_ORDER",
        "none",
        1,
        1,
        "l -- list(set(l)) : l a list of ints or bools; a new list (cap = len(l)) of its distinct items in the order CPython 3.11 iterates set(l) (its hash table simulated: int hashes mod 2**61 - 1, linear probes, perturbation, resizes)",
    ),
    # -- appended by union (tagged values: a union's kind tag is its TYPE_CODES code)
    (
        "BOX",
        "imm",
        1,
        1,
        "v -- u : a new 2-word box (imm, v): the value v of the union alternative whose kind has type code imm",
    ),
    ("TAG", "none", 1, 1, "u -- tag : the type code of the kind of the value in box u"),
    (
        "UNBOX",
        "imm",
        1,
        1,
        "u -- v : the value in box u; MemoryFault unless its tag is imm (the compiler tests the tag first)",
    ),
    # -- appended by exactcmp (an int compared with a float: CPython compares them exactly)
    (
        "CMP_IF",
        "imm",
        2,
        1,
        "i f -- i <op> f : an int (or bool) i and a float f compared exactly, as CPython does past 2**53 too; imm is the comparison (CMP_IF_OPS: 0 <, 1 <=, 2 >, 3 >=, 4 ==, 5 !=); with a NaN only != holds",
    ),
]


def _surface_rows(named: set[str]) -> list[tuple[str, str, int | str, int | str, str]]:
    """The instructions of the str methods (vm/surface.py) that the table above does not name,
    in the surface table's order: appended after it, so that a surface row adds an opcode the
    way an appended entry here does (append-only: codes are positions)."""
    from vm.surface import STR_METHODS

    rows: list[tuple[str, str, int | str, int | str, str]] = []
    for m in STR_METHODS:
        if m.op in named:
            continue
        named.add(m.op)
        args = ("x", "y", "z")[: m.op_arguments]
        stack = " ".join(("s", *args))
        rows.append(
            (m.op, "none", 1 + len(args), 1, f"{stack} -- s.{m.name}({', '.join(args)}) : {m.doc}")
        )
    return rows


# -- appended from vm/surface.py's STR_METHODS: the instructions of its rows not named above, so
# that a new str method's instruction needs no entry here. Both tables are append-only, and the
# derived instructions come after this one: to append an instruction here once some are
# derived, first copy the derived entries to the end of the list above (same order, same
# meaning: their codes stay). `python -m vm.isa --write` refuses to renumber an opcode of the
# header it replaces (renumbered_ops), and tests/test_isa_generated.py checks the same.
_TABLE: Final = _STATIC + _surface_rows({name for name, *_ in _STATIC})

# CMP_IF's immediate: the comparison, by index
CMP_IF_OPS: Final = ("LT", "LE", "GT", "GE", "EQ", "NE")

# Loop steps (Op.guards_jump) and how many consecutive slots of state each keeps at local b.
LOOP_STATE_SLOTS: Final = {"FOR_RANGE": 3, "FOR_LIST": 2, "FOR_STR": 2}

OPS: Final[tuple[Op, ...]] = tuple(
    Op(name, code, operand, pops, pushes, doc)
    for code, (name, operand, pops, pushes, doc) in enumerate(_TABLE)
)
BY_NAME: Final[dict[str, Op]] = {op.name: op for op in OPS}
assert len(OPS) < 256 and len(BY_NAME) == len(OPS)
assert all(op.operand in OPERAND_KINDS for op in OPS)


def stack_effect(op: Op, operand: int, callee_params: Callable[[int], int]) -> tuple[int, int]:
    """(pops, pushes) of one instruction. `"n"` is the operand's count of stack items (for a
    slice, the sequence plus one item per flag bit); `"call"` is the callee's parameter count,
    which `callee_params(function_index)` tells."""

    def amount(effect: int | str) -> int:
        if effect == "call":
            return callee_params(operand)
        if effect == "n":
            return 1 + operand.bit_count() if op.operand == "slice" else operand
        assert isinstance(effect, int)
        return effect

    return amount(op.pops), amount(op.pushes)


def encode(op: Op, operand: int = 0) -> int:
    """One instruction word. Immediates are stored in two's complement over 24 bits."""
    if op.operand == "imm":
        if not IMM_MIN <= operand <= IMM_MAX:
            raise ValueError(f"{op.name}: immediate {operand} outside 24 bits")
        operand &= OPERAND_MAX
    elif not 0 <= operand <= OPERAND_MAX:
        raise ValueError(f"{op.name}: operand {operand} outside 0..{OPERAND_MAX}")
    return op.code | operand << 8


def local2(a: int, b: int) -> int:
    """The operand of a "local2" instruction naming slots a and b (each at most LOCAL2_MAX)."""
    if not (0 <= a <= LOCAL2_MAX and 0 <= b <= LOCAL2_MAX):
        raise ValueError(f"slots {a}, {b}: a local2 operand holds slots up to {LOCAL2_MAX}")
    return a | b << 12


def split_local2(operand: int) -> tuple[int, int]:
    """(a, b) of a "local2" operand."""
    return operand & LOCAL2_MAX, operand >> 12


def decode(word: int) -> tuple[int, int]:
    """(opcode, operand) of one instruction word; immediates come back signed."""
    code, operand = word & 0xFF, word >> 8
    if code < len(OPS) and OPS[code].operand == "imm" and operand > IMM_MAX:
        operand -= 1 << 24
    return code, operand


# ---- traps -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trap:
    name: str
    code: int
    kind: str  # "python": a Python exception; "fuel": timed out; "fallback": needs CPython
    doc: str

    @property
    def needs_fallback(self) -> bool:
        return self.kind == "fallback"


_TRAPS: Final[list[tuple[str, str, str]]] = [
    ("OK", "none", "no trap: the run returned a value"),
    ("ZeroDivisionError", "python", "division or modulo by zero"),
    ("IndexError", "python", "index out of range, pop from an empty list"),
    ("ValueError", "python", "bad value: int('x'), empty min/max, slice step 0, negative shift"),
    ("AssertionError", "python", "a failed assert"),
    ("RecursionError", "python", "calls nested deeper than the call-depth limit"),
    ("TypeError", "python", "ord() of a string whose length is not 1, a None used as a value"),
    ("OverflowError", "python", "a float result too large, int() of an infinity"),
    ("UnboundLocalError", "python", "a local variable read before it was assigned"),
    ("Exception", "python", "raise Exception(...)"),
    ("RuntimeError", "python", "raise RuntimeError(...)"),
    ("KeyError", "python", "raise KeyError(...)"),
    ("NotImplementedError", "python", "raise NotImplementedError(...)"),
    ("FuelExhausted", "fuel", "the step budget ran out (timed out)"),
    ("Overflow", "fallback", "an int result outside 64 bits"),
    ("HeapExhausted", "fallback", "the heap arena is full"),
    ("StackExhausted", "fallback", "the value stack is full"),
    ("Unsupported", "fallback", "a run-time case kiln cannot reproduce exactly"),
    ("MemoryFault", "fallback", "an access outside memory: a compiler or VM bug, never a crash"),
    # appended: new traps go last (isa_extends)
    ("NameError", "python", "a call of a name bound nowhere (the call's arguments not evaluated)"),
    ("AttributeError", "python", "a method its value's class does not have (int.replace)"),
]
TRAPS: Final[tuple[Trap, ...]] = tuple(
    Trap(name, code, kind, doc) for code, (name, kind, doc) in enumerate(_TRAPS)
)
TRAP_BY_NAME: Final[dict[str, Trap]] = {t.name: t for t in TRAPS}
RAISABLE: Final = frozenset(
    t.name
    for t in TRAPS
    if t.kind == "python"
    and t.name not in ("RecursionError", "UnboundLocalError", "OverflowError", "NameError")
)

# ---- types, as encoded in the program's type table and in marshalled values ---------------------

TYPE_CODES: Final = {
    "none": 0,
    "bool": 1,
    "int": 2,
    "float": 3,
    "str": 4,
    "list": 5,
    "tuple": 6,
    "optional": 7,
    # appended (codes above stay as they were; isa_extends)
    "union": 8,
}
_FIRST_TYPE_CODES: Final = 8  # the type codes of the first ISA: later ones are appended

FORMAT_VERSION: Final = 1


@functools.cache
def isa_hash(
    n_ops: int | None = None, n_traps: int | None = None, n_types: int | None = None
) -> int:
    """32-bit fingerprint of everything a program's meaning depends on; with `n_ops` /
    `n_traps` / `n_types`, of the ISA that had only the first so many opcodes / traps / type
    codes. (Cached: the tables are fixed when this module is imported, and every container
    written hashes.)"""
    return fingerprint(_TABLE[:n_ops], _TRAPS[:n_traps], list(TYPE_CODES.items())[:n_types])


def fingerprint(
    table: Sequence[tuple[Any, ...]],
    traps: Sequence[tuple[str, str, str]],
    types: Sequence[tuple[str, int]] | None = None,
) -> int:
    """isa_hash of an ISA with these opcode, trap and type-code tables (types: all of today's)."""
    codes = sorted(TYPE_CODES.items() if types is None else types)
    text = repr((FORMAT_VERSION, list(table), list(traps), codes))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")


def isa_extends(h: int) -> bool:
    """Whether this ISA is the one hashed `h` with opcodes and traps appended since (codes are
    positions in their tables, so appended ones leave every earlier code and meaning as it
    was): what a program or model made for `h` says, it still says here."""
    return any(
        isa_hash(n_ops, n_traps, n_types) == h
        for n_types in range(len(TYPE_CODES), _FIRST_TYPE_CODES - 1, -1)
        for n_ops in range(len(_TABLE), 0, -1)
        for n_traps in range(len(_TRAPS), 0, -1)
    )


# ---- generated files ----------------------------------------------------------------------------

ROOT: Final = Path(__file__).resolve().parent
HEADER_PATH: Final = ROOT / "kernels" / "kiln_isa.h"
DOC_PATH: Final = ROOT.parent / "docs" / "ISA.md"


def render_header() -> str:
    lines = [
        "/* Generated by `python -m vm.isa --write` from vm/isa.py. Do not edit. */",
        "#ifndef KILN_ISA_H",
        "#define KILN_ISA_H",
        "",
        f"#define KILN_ISA_HASH 0x{isa_hash():08x}u",
        f"#define KILN_FORMAT_VERSION {FORMAT_VERSION}",
        "",
        "enum kiln_op {",
    ]
    lines += [f"    OP_{op.name} = {op.code},  /* {op.doc} */" for op in OPS]
    lines += [f"    KILN_N_OPS = {len(OPS)}", "};", "", "enum kiln_trap {"]
    lines += [f"    TRAP_{t.name} = {t.code},  /* {t.kind}: {t.doc} */" for t in TRAPS]
    lines += [f"    KILN_N_TRAPS = {len(TRAPS)}", "};", "", "enum kiln_type {"]
    lines += [f"    TY_{name.upper()} = {code}," for name, code in TYPE_CODES.items()]
    lines += [
        "};",
        "",
        "/* The computed-goto table's entries (vm/kernels/interp.h, -DKILN_COMPUTED_GOTO): the",
        "   handler of every instruction, which CASE(OP_x) defines as the label L_OP_x. */",
        "#define KILN_GOTO_LABELS \\",
    ]
    lines += [f"    [OP_{op.name}] = &&L_OP_{op.name}, \\" for op in OPS]
    lines += [
        "",
        "/* The stack effect and control flow of every instruction, {pops, pushes, flags}, in",
        "   opcode order: what the interpreter's own verifier (kiln_program_verify, interp.h)",
        "   reads as vm/verify.py reads vm/isa.py. A count is KILN_EFFECT_N (the operand),",
        "   KILN_EFFECT_SLICE (1 + the operand's flag bits) or KILN_EFFECT_CALL (the callee's",
        "   parameters); flags:",
        "   KILN_FLOW_JUMP (the operand is a jump target), KILN_FLOW_END (never falls through),",
        "   KILN_FLOW_GUARD (a loop step: followed by a JUMP it takes or skips). */",
        "#define KILN_EFFECT_N (-1)",
        "#define KILN_EFFECT_SLICE (-2)",
        "#define KILN_EFFECT_CALL (-3)",
        "#define KILN_FLOW_JUMP 1",
        "#define KILN_FLOW_END 2",
        "#define KILN_FLOW_GUARD 4",
        "#define KILN_OP_EFFECTS \\",
    ]
    lines += [f"    {_c_effect(op)}, /* {op.name} */ \\" for op in OPS]
    lines += ["", "#endif", ""]
    return "\n".join(lines)


def _c_effect(op: Op) -> str:
    """`{pops, pushes, flags}` of one instruction for KILN_OP_EFFECTS (render_header)."""

    def count(effect: int | str) -> str:
        if effect == "call":
            return "KILN_EFFECT_CALL"
        if effect == "n":
            return "KILN_EFFECT_SLICE" if op.operand == "slice" else "KILN_EFFECT_N"
        return str(effect)

    flags = [
        name
        for name, on in (
            ("KILN_FLOW_JUMP", op.is_jump),
            ("KILN_FLOW_END", op.ends_block),
            ("KILN_FLOW_GUARD", op.guards_jump),
        )
        if on
    ]
    return f"{{{count(op.pops)}, {count(op.pushes)}, {' | '.join(flags) or '0'}}}"


def render_doc() -> str:
    def effect(value: int | str) -> str:
        return {"n": "n", "call": "args"}.get(str(value), str(value))

    lines = [
        "# The kiln instruction set",
        "",
        "<!-- Generated by `python -m vm.isa --write` from vm/isa.py. Do not edit. -->",
        "",
        f"Format version {FORMAT_VERSION}, ISA hash `0x{isa_hash():08x}`. Every instruction is one",
        "32-bit word: opcode in the low 8 bits, operand in the high 24. Stack effects read",
        "`before -- after`, top of the stack on the right. Memory layout and marshalling:",
        "[vm/README.md](../vm/README.md).",
        "",
        "## Operand kinds",
        "",
        "| kind | meaning |",
        "|---|---|",
    ]
    lines += [f"| `{kind}` | {doc} |" for kind, doc in OPERAND_KINDS.items()]
    lines += [
        "",
        "## Instructions",
        "",
        "| code | name | operand | pops | pushes | effect |",
        "|---|---|---|---|---|---|",
    ]
    for op in OPS:
        lines.append(
            f"| {op.code} | `{op.name}` | {op.operand} | {effect(op.pops)} | {effect(op.pushes)} | "
            f"`{op.doc.split(' : ')[0]}`{' ' + op.doc.split(' : ', 1)[1] if ' : ' in op.doc else ''} |"
        )
    lines += ["", "## Traps", "", "| code | name | kind | when |", "|---|---|---|---|"]
    lines += [f"| {t.code} | `{t.name}` | {t.kind} | {t.doc} |" for t in TRAPS]
    lines += [
        "",
        "Kinds: `python`, the exception CPython raises; `fuel`, timed out (the same on every",
        "backend); `fallback`, kiln cannot reproduce CPython exactly here and the candidate is",
        "re-run by CPython.",
        "",
        "## Type codes",
        "",
        "Used by the type table of a program and by marshalled values.",
        "",
        "| code | type |",
        "|---|---|",
    ]
    lines += [f"| {code} | `{name}` |" for name, code in TYPE_CODES.items()]
    lines.append("")
    return "\n".join(lines)


def generated_files() -> dict[Path, str]:
    return {HEADER_PATH: render_header(), DOC_PATH: render_doc()}


def renumbered_ops(header: str) -> list[str]:
    """The opcodes of a generated header (kiln_isa.h's text) whose code this table changes or
    drops: an append-only ISA has none."""
    import re

    return [
        f"OP_{name} = {code}"
        for name, code in re.findall(r"^    OP_(\w+) = (\d+),", header, re.M)
        if name not in BY_NAME or BY_NAME[name].code != int(code)
    ]


def main(argv: list[str]) -> int:
    if HEADER_PATH.exists() and (moved := renumbered_ops(HEADER_PATH.read_text())):
        print(f"opcodes renumbered (the ISA is append-only): {', '.join(moved)}", file=sys.stderr)
        return 1
    stale = [
        path
        for path, text in generated_files().items()
        if not path.exists() or path.read_text() != text
    ]
    if "--write" in argv:
        for path, text in generated_files().items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        return 0
    for path in stale:
        print(f"{path} is stale: run python -m vm.isa --write", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
