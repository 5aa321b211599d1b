"""The reference VM: kiln's execution model in plain Python, the living specification.

Every backend must give the same value, trap and step count as `run` here. It follows
`vm/README.md` to the letter and takes each operation's meaning from Python's own operators, so
that it equals CPython by construction wherever kiln does.

Values on the stack:

- `int`, `bool`, `None` and `float` are their 64-bit *word*, a Python int in [-2**63, 2**63):
  an int as itself, a bool as 0 or 1, None as 0 and a float as its IEEE bits. An instruction
  does not say whether a constant or a fresh local is an int or a float, the typed instruction
  that consumes it does, so float instructions decode their operands (`bits_float`) and encode
  their result (`float_bits`).
- `str` is a Python str, `tuple` a Python tuple of values, `list` a `KList` (a Python list of
  values plus the capacity the allocation accounting needs). Aliasing is Python's.
- `Optional[T]` is the word -1 for None, else a 1-item tuple holding the value (`TUPLE_NEW 1`).

Memory is not laid out in words here, but every allocation is charged the words README.md says,
in the same order, so `HeapExhausted` comes at the same step as on a word-level VM. Frames share
one value stack (a Python list) exactly as README.md describes.

Scalar operations come from `vm.semantics` (the definitions constant folding uses too), read and
written as words by `BINARY` and `UNARY`. A trap is `vm.semantics.Trap` carrying the trap name.

`use_trace(True)` (the settings' trace, `KILN_TRACE=1 kiln run ...`, set by kiln's edges) prints
every instruction with the frame's locals and operands to stderr.
"""

from __future__ import annotations

import math
import operator
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from vm import semantics
from vm.container import Function, Program
from vm.surface import STR_METHODS, StrMethod
from vm.disasm import format_instruction
from vm.isa import CMP_IF_OPS, OPS, TRAPS, TYPE_CODES, decode, split_local2
from vm.limits import Limits
from vm.result import ExecResult
from vm.semantics import Trap, checked
from vm.values import (
    INT64_MAX,
    INT64_MIN,
    Type,
    bits_float,
    erase_vtuples,
    float_bits,
    marshal,
    unmarshal,
)
from vm.verify import image_strings, verify


_CMP_IF: tuple[Callable[[int, float], bool], ...] = tuple(
    getattr(operator, name.lower()) for name in CMP_IF_OPS
)  # CMP_IF's comparisons: Python's own int-float comparison is exact

CHARS = 128
"""1-character strings of code points below this are made once per run, then shared
(README.md, KILN_CHARS in interp.h)."""


class KList:
    """A kiln list: its items and the capacity of its data block (README.md's accounting)."""

    __slots__ = ("items", "cap")

    def __init__(self, items: list[Any]) -> None:
        self.items = items
        self.cap = len(items)  # every list is created with cap == len

    def __repr__(self) -> str:
        return f"KList({self.items!r}, cap={self.cap})"


# ---- scalar operations on words: vm.semantics, the one definition, read and written as words -----


def _on_words(name: str, fn: Callable[..., Any], float_operands: bool) -> Callable[..., int]:
    result_is_float = name in semantics.RESULT_IS_FLOAT

    def op(*words: int) -> int:
        result = fn(*(bits_float(w) for w in words)) if float_operands else fn(*words)
        return float_bits(result) if result_is_float else int(result)

    return op


BINARY: dict[str, Callable[[int, int], int]] = {
    **{name: _on_words(name, fn, False) for name, fn in semantics.INT_BINARY.items()},
    **{name: _on_words(name, fn, True) for name, fn in semantics.FLOAT_BINARY.items()},
}
UNARY: dict[str, Callable[[int], int]] = {
    **{name: _on_words(name, fn, False) for name, fn in semantics.INT_UNARY.items()},
    **{name: _on_words(name, fn, True) for name, fn in semantics.FLOAT_UNARY.items()},
}


# ---- values of any type --------------------------------------------------------------------------

_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "<": operator.lt,
    "<=": operator.le,
}


def compare(op: str, a: Any, b: Any, ty: Type, nested: bool) -> bool:
    """Python's `a op b` (op is "==", "<" or "<=") for two values of type `ty`.

    Lists and tuples go as CPython's: the first index where the items differ (`==`), then `op`
    on those items, or on the lengths when there is none. A NaN met by a comparison inside a
    container (`nested`) is Unsupported: CPython compares container items by identity first.
    """
    if ty.kind == "optional":  # None equals only None; ordering with a None is a TypeError
        a_none, b_none = is_none(a), is_none(b)
        if a_none or b_none:
            if op != "==" and a_none != b_none:
                raise Trap("TypeError")
            return a_none and b_none if op == "==" else op == "<="
        return compare(op, a[0], b[0], ty.args[0], nested=True)  # as the C walker: NaN Unsupported
    if ty.kind == "union":  # the same kind: its values; ints and floats: by value; else unequal
        a, b = _box(a), _box(b)
        alt_a, alt_b = union_alternative(ty, a.tag), union_alternative(ty, b.tag)
        if a.tag == b.tag:
            return compare(op, a.value, b.value, alt_a, nested=True)
        numbers = ("bool", "int", "float")
        if alt_a.kind in numbers and alt_b.kind in numbers:
            x, y = _number(a.value, alt_a.kind), _number(b.value, alt_b.kind)
            return _compare_numbers(op, x, y)
        if op != "==":
            raise Trap("TypeError")
        return False
    if ty.kind in ("list", "tuple"):
        xs, ys = _items(a), _items(b)
        for i in range(min(len(xs), len(ys))):
            item_ty = ty.args[0] if ty.kind == "list" else ty.args[i]
            if not compare("==", xs[i], ys[i], item_ty, True):
                return op != "==" and compare(op, xs[i], ys[i], item_ty, True)
        return _COMPARE[op](len(xs), len(ys))
    if ty.kind == "float":
        x, y = bits_float(a), bits_float(b)
        if nested and (math.isnan(x) or math.isnan(y)):
            raise Trap("Unsupported")
        return _COMPARE[op](x, y)
    return _COMPARE[op](a, b)  # int, bool and None words; strings by code points


class Box:
    """A union value: the type code of its kind (vm.isa.TYPE_CODES) and the value (BOX)."""

    __slots__ = ("tag", "value")

    def __init__(self, tag: int, value: Any) -> None:
        self.tag, self.value = tag, value

    def __repr__(self) -> str:
        return f"Box({self.tag}, {self.value!r})"


def _box(u: Any) -> Box:
    if not isinstance(u, Box):
        raise Trap("MemoryFault")
    return u


def union_alternative(ty: Type, tag: int) -> Type:
    """The alternative of union `ty` whose kind has type code `tag`; MemoryFault if none."""
    for alt in ty.args:
        if TYPE_CODES[alt.kind] == tag:
            return alt
    raise Trap("MemoryFault")


def _number(word: int, kind: str) -> float | int:
    return bits_float(word) if kind == "float" else word


def _compare_numbers(op: str, x: int | float, y: int | float) -> bool:
    """`x op y` of an int (or bool) and a float met in a union: exactly, as CPython compares
    them (past 2**53 too); a NaN is Unsupported (a union's items are met inside containers)."""
    if any(isinstance(v, float) and math.isnan(v) for v in (x, y)):
        raise Trap("Unsupported")
    return _COMPARE[op](x, y)


def is_none(o: Any) -> bool:
    """Whether the Optional value `o` is None (-1); MemoryFault if it is not an Optional."""
    if isinstance(o, tuple) and len(o) == 1:
        return False
    if type(o) is int and o == -1:
        return True
    raise Trap("MemoryFault")


def _items(value: Any) -> Sequence[Any]:
    return value.items if isinstance(value, KList) else value


def contains(seq: Any, x: Any, ty: Type) -> bool:
    """`x in seq` for `seq` of type `ty`: a substring test for str, else an in-order scan that
    stops at the first equal item."""
    if ty.kind == "str":
        return x in seq
    items = _items(seq)
    return any(
        compare("==", item, x, ty.args[0] if ty.kind == "list" else ty.args[i], nested=True)
        for i, item in enumerate(items)
    )


def extreme(items: Sequence[Any], ty: Type, want_max: bool) -> Any:
    """min or max of a non-empty list or str of type `ty` (ValueError when empty): the current
    item is kept unless `item < current` (min) or `current < item` (max), so the first wins."""
    if not items:
        raise Trap("ValueError")
    elem = ty.args[0] if ty.kind == "list" else ty
    best = items[0]
    for item in items[1:]:
        smaller, larger = (best, item) if want_max else (item, best)
        if compare("<", smaller, larger, elem, nested=False):
            best = item
    return best


def sort(items: list[Any], elem: Type, descending: bool) -> list[Any]:
    """A stable bottom-up merge sort with `<` only (a NaN met is Unsupported).

    Runs of width 1, 2, 4, ... are merged pairwise from the left; while merging run `L` with the
    run `R` after it, the head of `R` goes first only when `R[j] < L[i]` (descending: when
    `L[i] < R[j]`). Which pairs get compared is part of the specification: with a NaN nested in
    the items it decides between a result and Unsupported.
    """

    def right_first(right: Any, left: Any) -> bool:
        if descending:
            return compare("<", left, right, elem, nested=True)
        return compare("<", right, left, elem, nested=True)

    items = list(items)  # a new list even when nothing is merged (n <= 1): sorted() copies
    width = 1
    while width < len(items):
        merged: list[Any] = []
        for lo in range(0, len(items), 2 * width):
            mid, hi = min(lo + width, len(items)), min(lo + 2 * width, len(items))
            i, j = lo, mid
            while i < mid and j < hi:
                if right_first(items[j], items[i]):
                    merged.append(items[j])
                    j += 1
                else:
                    merged.append(items[i])
                    i += 1
            merged += items[i:mid] + items[j:hi]
        items, width = merged, 2 * width
    return items


INT_MAX_STR_DIGITS = 4300  # CPython 3.11's default sys.int_max_str_digits


# the str methods' instructions that Python's own str method gives exactly (vm/surface.py: an
# instruction's first row; ASCII-only ones trap Unsupported otherwise), unless `run` has a case
# of its own for the instruction (STR_REPLACE, STR_SPLIT, STR_JOIN, STR_ZFILL: what they
# allocate is charged before they build it)
_STR_METHOD: dict[str, StrMethod] = {}
for _m in STR_METHODS:
    _STR_METHOD.setdefault(_m.op, _m)


def _ascii(s: str) -> str:
    """`s` itself when it is ASCII; else Unsupported (case and character classes beyond ASCII
    are Unicode's tables, which the C VM does not carry). On ASCII, Python's own str methods
    are the specification."""
    if not s.isascii():
        raise Trap("Unsupported")
    return s


def int_of_str(s: str) -> int:
    r"""`int(s)` as CPython 3.11 parses a str in base 10 (README.md's rules, two corrections).

    Only the ASCII whitespace " \t\n\r\v\f" is stripped: CPython's `int()` rejects "\x1c" to
    "\x1f" although `str.isspace()` accepts them. More than 4300 digits (underscores aside,
    leading zeros counted) is ValueError: CPython's default `sys.int_max_str_digits`.
    """
    if not s.isascii():
        raise Trap("Unsupported")  # Unicode digits and spaces: CPython's tables
    text = s.strip(" \t\n\r\x0b\x0c")
    if not re.fullmatch(r"[+-]?[0-9]+(_[0-9]+)*", text):
        raise Trap("ValueError")
    digits = text.lstrip("+-").replace("_", "")
    if len(digits) > INT_MAX_STR_DIGITS:
        raise Trap("ValueError")
    significant = digits.lstrip("0") or "0"
    if len(significant) > 19:
        raise Trap("Overflow")  # past 2**63 already
    return checked(-int(significant) if text.startswith("-") else int(significant))


def _index(i: int, n: int) -> int:
    """A Python index into a sequence of length n: negative from the end; IndexError."""
    j = i + n if i < 0 else i
    if not 0 <= j < n:
        raise Trap("IndexError")
    return j


def _range_len(start: int, stop: int, step: int) -> int:
    if step > 0:
        return max(0, (stop - start + step - 1) // step)
    return max(0, (start - stop - step - 1) // -step)


# ---- the machine ---------------------------------------------------------------------------------


@dataclass
class _Frame:
    index: int  # of the function
    function: Function
    code: list[tuple[str, int]]  # decoded: (opcode name, operand)
    pc: int
    base: int  # stack index of the first local


@dataclass
class _Checked:
    """What `run` keeps per verified program."""

    strings: dict[int, str]
    decoded: list[list[tuple[str, int]]]


def _checked(program: Program) -> _Checked:
    """Verify once per Program object (remembered on it) and decode its code."""
    checked = getattr(program, "_kiln_ref_checked", None)
    if not isinstance(checked, _Checked):
        verify(program)
        decoded = [
            [(OPS[c].name, operand) for c, operand in map(decode, fn.code)]
            for fn in program.functions
        ]
        checked = _Checked(image_strings(program.image), decoded)
        setattr(program, "_kiln_ref_checked", checked)  # noqa: B010 - not a dataclass field
    return checked


_trace = False  # set by kiln's edges (use_trace)


def use_trace(on: bool | None) -> bool:
    """Print every instruction to stderr from now on (None: off again); returns what was set
    before. kiln's edges call it with the settings' `trace` (`KILN_TRACE=1`,
    `configs.settings.applied`): this layer does not read the settings itself."""
    global _trace
    previous, _trace = _trace, bool(on)
    return previous


class _Machine:
    def __init__(self, program: Program, limits: Limits) -> None:
        self.program = program
        self.checked = _checked(program)
        self.limits = limits
        self.stack: list[Any] = []
        self.frames: list[_Frame] = []
        self.heap_used = 0
        self.chars: set[str] = set()  # the 1-character strings made so far (new_char)
        self.steps = 0
        self.trace = _trace

    # -- accounting

    def alloc(self, words: int) -> None:
        """Charge `words` heap words: HeapExhausted past `heap_words`."""
        self.require(words)
        self.heap_used += words

    def require(self, words: int) -> None:
        """HeapExhausted unless `words` more words are free."""
        if self.heap_used + words > self.limits.heap_words:
            raise Trap("HeapExhausted")

    def new_str(self, s: str) -> str:
        self.alloc(1 + len(s))
        return s

    def new_char(self, ch: str) -> str:
        """A 1-character string made by indexing, iteration, `chr`, `list(s)` or `min`/`max`:
        below code point CHARS, 2 words the first time the run makes it, then shared (free)."""
        if ord(ch) < CHARS:
            if ch not in self.chars:
                self.alloc(2)
                self.chars.add(ch)
            return ch
        return self.new_str(ch)

    def grow(self, lst: KList, size: int) -> None:
        """Room for `size` items: past the capacity, a new block of max(size, 2 * cap, 4) slots
        (the old one abandoned)."""
        if size > lst.cap:
            cap = max(size, 2 * lst.cap, 4)
            self.alloc(cap)
            lst.cap = cap

    def new_list(self, items: list[Any]) -> KList:
        self.alloc(3 + len(items))
        return KList(items)

    # -- frames

    def enter(self, index: int, args: list[Any]) -> None:
        """Enter function `index` with its parameters: README.md's checks, in its order."""
        fn = self.program.functions[index]
        if len(self.frames) >= self.limits.max_call_depth:
            raise Trap("RecursionError")
        base = len(self.stack)
        if base + fn.n_locals + fn.max_stack > self.limits.stack_words:
            raise Trap("StackExhausted")
        self.stack += args + [0] * (fn.n_locals - len(args))
        self.frames.append(_Frame(index, fn, self.checked.decoded[index], 0, base))

    def pop_n(self, n: int) -> list[Any]:
        """The top n operands, deepest first."""
        items = self.stack[len(self.stack) - n :]
        del self.stack[len(self.stack) - n :]
        return items

    # -- the loop

    def execute(self) -> Any:
        """Run until the entry function returns; its result."""
        fuel = self.limits.fuel
        while True:
            frame = self.frames[-1]
            name, operand = frame.code[frame.pc]
            if self.steps == fuel:
                raise Trap("FuelExhausted")
            self.steps += 1
            if self.trace:
                self.print_trace(frame)
            frame.pc += 1
            try:
                if name == "RET" and len(self.frames) == 1:
                    return self.stack.pop()
                self.step(frame, name, operand)
            except (TypeError, AttributeError, IndexError) as error:
                # A value of the wrong kind reached an instruction: ill-typed code, a compiler bug.
                raise Trap("MemoryFault") from error

    def step(self, frame: _Frame, name: str, n: int) -> None:
        """One instruction (`n` is its operand), the program counter already past it."""
        stack, push, pop = self.stack, self.stack.append, self.stack.pop
        if name in BINARY:
            b = pop()
            push(BINARY[name](pop(), b))
            return
        if name in UNARY:
            push(UNARY[name](pop()))
            return
        types = self.program.types
        match name:
            # -- stack, constants and locals
            case "LOAD":
                push(stack[frame.base + n])
            case "STORE":
                stack[frame.base + n] = pop()
            case "LOAD2":
                first, second = split_local2(n)
                push(stack[frame.base + first])
                push(stack[frame.base + second])
            case "LOADI":
                push(n)
            case "CONST":
                push(self.program.consts[n])
            case "STR":
                push(self.checked.strings[n])  # in the image: no allocation
            case "NOP":
                pass
            case "POP":
                pop()
            case "DUP":
                push(stack[-1])
            case "DUP2":
                stack += stack[-2:]
            case "SWAP":
                stack[-2], stack[-1] = stack[-1], stack[-2]
            # -- control
            case "JUMP":
                frame.pc = n
            case "JUMP_IF_FALSE":
                if pop() == 0:
                    frame.pc = n
            case "JUMP_IF_TRUE":
                if pop() != 0:
                    frame.pc = n
            case "JUMP_LT_I" | "JUMP_LE_I" | "JUMP_GT_I" | "JUMP_GE_I" | "JUMP_EQ_I" | "JUMP_NE_I":
                b = pop()
                if BINARY[name.removeprefix("JUMP_")](pop(), b):
                    frame.pc = n
            case "FOR_RANGE" | "FOR_LIST" | "FOR_STR":
                self.loop_step(frame, name, n)
            case "ADDI":
                push(checked(pop() + n))
            case "CALL":
                self.enter(n, self.pop_n(self.program.functions[n].n_params))
            case "RET":
                result = pop()
                del stack[frame.base :]
                self.frames.pop()
                push(result)
            case "RAISE":
                raise Trap(TRAPS[n].name)
            # -- values of any type
            case "EQ" | "LT" | "LE":
                b = pop()
                push(int(compare(_COMPARISON_OF[name], pop(), b, types[n], nested=False)))
            case "CONTAINS":
                seq, x = pop(), pop()
                push(int(contains(seq, x, types[n])))
            # -- str
            case "STR_LEN" | "LIST_LEN":
                push(len(_items(pop())))
            case "STR_INDEX":
                i, s = pop(), pop()
                push(self.new_char(s[_index(i, len(s))]))
            case "STR_SLICE":
                where = self.pop_slice(n)
                push(self.new_str(pop()[where]))
            case "STR_CONCAT":
                b = pop()
                push(self.new_str(pop() + b))
            case "STR_REPEAT":
                count, s = max(pop(), 0), pop()
                self.alloc(1 + len(s) * count)  # before building it: the count may be huge
                push(s * count)
            case "STR_OF_INT":
                push(self.new_str(str(pop())))
            case "STR_OF_BOOL":
                push(self.new_str(str(pop() != 0)))
            case "INT_OF_STR":
                push(int_of_str(pop()))
            case "ORD":
                s = pop()
                if len(s) != 1:
                    raise Trap("TypeError")
                push(ord(s))
            case "CHR":
                a = pop()
                if not -(2**31) <= a < 2**31:  # CPython's chr() takes a C int first
                    raise Trap("OverflowError")
                if not 0 <= a < 0x110000:
                    raise Trap("ValueError")
                push(self.new_char(chr(a)))
            # -- list
            case "LIST_NEW":
                push(self.new_list(self.pop_n(n)))
            case "LIST_INDEX":
                i, lst = pop(), pop()
                push(lst.items[_index(i, len(lst.items))])
            case "LIST_STORE":
                v, i, lst = pop(), pop(), pop()
                lst.items[_index(i, len(lst.items))] = v
            case "LIST_APPEND":
                v, lst = pop(), pop()
                self.grow(lst, len(lst.items) + 1)
                lst.items.append(v)
            case "LIST_EXTEND":
                other, lst = pop(), pop()
                added = list(other.items)  # a += a doubles a
                self.grow(lst, len(lst.items) + len(added))
                lst.items.extend(added)
                push(lst)
            case "LIST_IREPEAT":
                count, lst = pop(), pop()
                if count <= 0:
                    lst.items.clear()
                else:
                    self.grow(lst, len(lst.items) * count)  # before building it: it may be huge
                    lst.items *= count
                push(lst)
            case "LIST_POP":
                lst = pop()
                if not lst.items:
                    raise Trap("IndexError")
                push(lst.items.pop())
            case "LIST_POP_AT":
                i, lst = pop(), pop()
                push(lst.items.pop(_index(i, len(lst.items))))
            case "LIST_SLICE":
                where = self.pop_slice(n)
                push(self.new_list(pop().items[where]))
            case "LIST_CONCAT":
                b = pop()
                push(self.new_list(pop().items + b.items))
            case "LIST_REPEAT":
                count, lst = max(pop(), 0), pop()
                self.alloc(3 + len(lst.items) * count)  # before building it: the count may be huge
                push(KList(lst.items * count))
            case "LIST_OF_STR":
                s = pop()
                result = self.new_list(list(s))
                for ch in s:
                    self.new_char(ch)
                push(result)
            case "LIST_RANGE":
                start, stop, step = self.pop_n(3)
                if step == 0:
                    raise Trap("ValueError")
                self.alloc(3 + _range_len(start, stop, step))  # before building it: it may be huge
                push(KList(list(range(start, stop, step))))
            case "LIST_REVERSED":
                push(self.new_list(pop().items[::-1]))
            case "SORTED" | "SORTED_DESC":
                items = pop().items
                self.require(3 + 2 * len(items))  # the result and a merge buffer of n
                self.alloc(3 + len(items))  # the buffer is given back
                push(KList(sort(items, types[n].args[0], descending=name == "SORTED_DESC")))
            case "LIST_FIND":
                x, items = pop(), pop().items
                elem = types[n].args[0]
                push(next((i for i, v in enumerate(items) if compare("==", v, x, elem, True)), -1))
            case "SORTED_UNIQUE":
                items = pop().items
                self.require(3 + 2 * len(items))  # as SORTED
                self.alloc(3 + len(items))
                unique: list[Any] = []
                for item in sort(items, types[n].args[0], descending=False):
                    if not unique or not compare("==", unique[-1], item, types[n].args[0], True):
                        unique.append(item)
                result = KList(unique)
                result.cap = len(items)
                push(result)
            case "MIN" | "MAX":
                seq = pop()
                best = extreme(_items(seq), types[n], want_max=name == "MAX")
                push(self.new_char(best) if isinstance(seq, str) else best)
            case "SUM_I":
                total = 0
                for item in pop().items:
                    total = checked(total + item)
                push(total)
            case "SUM_F":
                items = pop().items
                if not items:
                    raise Trap("Unsupported")  # Python's sum is the int 0
                total_f = 0.0
                for item in items:
                    total_f += bits_float(item)
                push(float_bits(total_f))
            # -- str methods (the others: delegated, at the end)
            case "STR_REPLACE":
                new, old, s = pop(), pop(), pop()
                occurrences = len(s) + 1 if not old else s.count(old)
                self.alloc(1 + len(s) + occurrences * (len(new) - len(old)))  # before building it
                push(s.replace(old, new))
            case "STR_SPLIT" | "STR_SPLIT_WS":
                sep = pop() if name == "STR_SPLIT" else None
                s = pop()
                if sep == "":
                    raise Trap("ValueError")
                parts = s.split(sep) if sep is not None else _ascii(s).split()
                result = self.new_list(parts)
                for part in parts:
                    self.new_str(part)
                push(result)
            case "SET_ORDER":
                items = pop().items
                self.require(3 + len(items) + 2 * semantics.set_table_size(len(items)))
                self.alloc(3 + len(items))
                result = KList(semantics.set_order(items))
                result.cap = len(items)
                push(result)
            case "FLOAT_OF_STR":
                push(float_bits(semantics.float_of_str(pop())))
            case "ROUND_F_N":
                n = pop()
                push(float_bits(semantics.round_f_n(bits_float(pop()), n)))
            case "STR_BIN":
                push(self.new_str(bin(pop())))
            case "STR_JOIN":
                items = pop().items
                push(self.new_str(pop().join(items)))
            # -- tuple
            case "TUPLE_NEW":
                self.alloc(1 + n)
                push(tuple(self.pop_n(n)))
            case "TUPLE_GET":
                push(pop()[n])
            # -- optionals
            case "IS_NONE":
                push(int(is_none(pop())))
            case "OPT_VALUE":
                o = pop()
                if is_none(o):
                    raise Trap("TypeError")
                push(o[0])
            # -- unions
            case "BOX":
                self.alloc(3)  # a 2-item tuple: (tag, value)
                push(Box(n, pop()))
            case "TAG":
                push(_box(pop()).tag)
            case "UNBOX":
                b = _box(pop())
                if b.tag != n:
                    raise Trap("MemoryFault")
                push(b.value)
            case "CMP_IF":  # Python compares an int and a float exactly
                f = bits_float(pop())
                i = pop()
                push(int(_CMP_IF[n](i, f)))
            case "UNPACK_TUPLE":
                t = pop()
                if len(t) != n:
                    raise IndexError(f"UNPACK_TUPLE {n} of a tuple of {len(t)}")  # ill-typed code
                stack += t
            case "UNPACK_LIST":
                items = pop().items
                if len(items) != n:
                    raise Trap("ValueError")
                stack += items
            case "STR_ZFILL":
                width, s = pop(), pop()
                self.alloc(1 + max(len(s), width))  # before building it: the width may be huge
                push(s.zfill(width))
            case _ if name in _STR_METHOD:
                self.str_method(_STR_METHOD[name])
            case _:  # pragma: no cover - the verifier admits only known opcodes
                raise AssertionError(name)

    def str_method(self, m: StrMethod) -> None:
        """A str method's instruction that Python's own method gives (vm/surface.py): the
        receiver and `m.op_arguments` arguments popped, the result pushed (a str is a new one)."""
        args = self.pop_n(m.op_arguments)
        s = self.stack.pop()
        result = getattr(_ascii(s) if m.ascii_only else s, m.name)(*args)
        if m.result == "str":
            push_value: Any = self.new_str(result)
        elif m.result in ("int", "bool"):
            push_value = int(result)
        else:  # pragma: no cover - a list result needs a case of its own
            raise AssertionError(m.op)
        self.stack.append(push_value)

    def loop_step(self, frame: _Frame, name: str, operand: int) -> None:
        """FOR_RANGE, FOR_LIST or FOR_STR: the state at local b is updated first, then the next
        value goes to local a and the JUMP after the loop step is taken; when there is no next
        value, nothing is written and that JUMP is skipped."""
        target, state = split_local2(operand)
        stack, at = self.stack, frame.base + state
        if name == "FOR_RANGE":
            cur, stop, step = stack[at : at + 3]
            more = cur < stop if step > 0 else cur > stop
            if more:
                after = cur + step  # past 64 bits the range is over: stop is inside them
                stack[at] = after if INT64_MIN <= after <= INT64_MAX else stop
                value = cur
        else:
            seq, i = stack[at], stack[at + 1]
            items = seq.items if name == "FOR_LIST" else _as_str(seq)
            more = 0 <= i < len(items)
            if more:
                value = items[i] if name == "FOR_LIST" else self.new_char(items[i])
                stack[at + 1] = i + 1
        if more:
            stack[frame.base + target] = value
            frame.pc = frame.code[frame.pc][1]  # the target of the JUMP after the loop step
        else:
            frame.pc += 1

    def pop_slice(self, flags: int) -> slice:
        """Pop `[start] [stop] [step]` as a Python slice; ValueError for step 0. Python's own
        slicing then does PySlice_AdjustIndices, step clamping included."""
        step = self.stack.pop() if flags & 4 else None
        stop = self.stack.pop() if flags & 2 else None
        start = self.stack.pop() if flags & 1 else None
        if step == 0:
            raise Trap("ValueError")
        return slice(start, stop, step)

    def print_trace(self, frame: _Frame) -> None:
        text = format_instruction(self.program, frame.index, frame.pc)
        top = frame.base + frame.function.n_locals
        shown = (
            " ".join(map(_show, self.stack[frame.base : top]))
            + " | "
            + " ".join(map(_show, self.stack[top:]))
        )
        print(
            f"{self.steps:>8} {frame.function.name}:{frame.pc:<4} {text:<44} {shown}",
            file=sys.stderr,
        )


_COMPARISON_OF = {"EQ": "==", "LT": "<", "LE": "<="}


def _as_str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not a str")  # ill-typed code
    return value


def _show(value: Any) -> str:
    text = repr(value.items) if isinstance(value, KList) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# ---- arguments and results -----------------------------------------------------------------------


def _unmarshal_arg(m: _Machine, words: Iterator[int], ty: Type) -> Any:
    """One marshalled argument as a VM value, charging its objects depth first."""
    kind = ty.kind
    if kind == "str":
        n = next(words)
        return m.new_str("".join(chr(next(words)) for _ in range(n)))
    if kind == "list":
        n = next(words)
        m.alloc(3 + n)  # cap == len
        return KList([_unmarshal_arg(m, words, ty.args[0]) for _ in range(n)])
    if kind == "tuple":
        m.alloc(1 + len(ty.args))
        return tuple(_unmarshal_arg(m, words, arg) for arg in ty.args)
    if kind == "optional":
        tag = next(words)
        if tag == 0:
            return -1
        m.alloc(2)  # the 1-item tuple holding the value
        return (_unmarshal_arg(m, words, ty.args[0]),)
    if kind == "union":
        tag = next(words)
        alt = union_alternative(ty, tag)
        m.alloc(3)  # the box
        return Box(tag, _unmarshal_arg(m, words, alt))
    return next(words)  # none, bool, int, float: the word itself


def _marshalled_size(value: Any, ty: Type, budget: int) -> int:
    """Words of the marshalled value, or any number past `budget` once it is clear it exceeds it
    (a result can share one list many times over)."""
    kind = ty.kind
    if kind == "str":
        return 1 + len(value)
    if kind == "optional":
        return 1 if is_none(value) else 1 + _marshalled_size(value[0], ty.args[0], budget - 1)
    if kind == "union":
        box = _box(value)
        return 1 + _marshalled_size(box.value, union_alternative(ty, box.tag), budget - 1)
    if kind in ("list", "tuple"):
        size = 1 if kind == "list" else 0  # a list's length word; a tuple's arity is in its type
        for i, item in enumerate(_items(value)):
            size += _marshalled_size(item, ty.args[0 if kind == "list" else i], budget - size)
            if size > budget:
                break
        return size
    return 1


def _to_python(value: Any, ty: Type) -> Any:
    """The Python value of a VM value of type `ty`; TypeError if it is not one (ill-typed code)."""
    kind = ty.kind
    if not _holds(value, kind):
        raise TypeError(f"{value!r} is not a {ty}")
    if kind == "none":
        return None
    if kind == "optional":
        return None if is_none(value) else _to_python(value[0], ty.args[0])
    if kind == "union":
        return _to_python(value.value, union_alternative(ty, value.tag))
    if kind == "bool":
        return value != 0
    if kind == "float":
        return bits_float(value)
    if kind == "list":
        return [_to_python(item, ty.args[0]) for item in value.items]
    if kind == "tuple":
        return tuple(_to_python(item, arg) for item, arg in zip(value, ty.args, strict=True))
    return value  # int, str


def _holds(value: Any, kind: str) -> bool:
    """Whether `value` is held the way the VM holds values of this kind (a word for scalars)."""
    if kind == "optional":
        return value == -1 or isinstance(value, tuple)
    return isinstance(
        value, {"str": str, "list": KList, "tuple": tuple, "union": Box}.get(kind, int)
    )


def _result(value: Any, ty: Type, heap_words: int) -> Any:
    """The entry function's result as a Python value: HeapExhausted when its marshalled form
    takes more than `heap_words` words, MemoryFault when it is not a value of `ty`."""
    try:
        if _marshalled_size(value, ty, heap_words) > heap_words:
            raise Trap("HeapExhausted")
        return _to_python(value, ty)
    except (TypeError, AttributeError, IndexError, ValueError) as error:
        raise Trap("MemoryFault") from error


# ---- entry point ---------------------------------------------------------------------------------


def run(
    program: Program, function: str | int, args: Sequence[Any], limits: Limits | None = None
) -> ExecResult:
    """Run one call of `function` (name or index) with Python `args` (README.md's model).

    VerifyError if the program breaks a verifier rule; ValueError if the arguments do not match
    the parameter types. Traps are results: ExecResult(None, trap name, steps).
    """
    limits = limits or Limits()
    if isinstance(function, str):
        index = program.function_index(function)
    elif 0 <= function < len(program.functions):
        index = function
    else:
        functions = len(program.functions)
        raise ValueError(f"no function #{function} in {program.source_name} ({functions} of them)")
    machine = _Machine(program, limits)
    fn = program.functions[index]
    param_types, return_type = program.signature(index)
    if len(args) != len(param_types):
        raise ValueError(f"{fn.name}() takes {len(param_types)} arguments, got {len(args)}")
    marshalled = []
    for i, (arg, ty) in enumerate(zip(args, param_types, strict=True)):
        try:
            marshalled.append(marshal(arg, ty))
        except ValueError as e:
            message = f"{fn.name}(): argument {i} does not match parameter type {ty}: {e}"
            raise ValueError(message) from None
    try:
        values = [
            _unmarshal_arg(machine, iter(words), erase_vtuples(ty))
            for words, ty in zip(marshalled, param_types, strict=True)
        ]
        machine.enter(index, values)
        result = machine.execute()
        value = _result(result, erase_vtuples(return_type), limits.heap_words)
        if fn.host_types is not None:  # a tuple[T, ...] is a list[T] in the VM
            value = unmarshal(marshal(value, erase_vtuples(return_type)), return_type)
        return ExecResult(value, None, machine.steps)
    except Trap as trap:
        return ExecResult(None, trap.name, machine.steps)
