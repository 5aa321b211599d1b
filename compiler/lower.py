"""Lowering: typed AST -> instructions with symbolic labels.

Contract: `lower_function(info, pool, loop_steps)` turns one checked function (compiler/types.py)
into a `LoweredFunction`: a list of `Instr` and `Label` entries, the number of local slots, and the
function's signature as type-table indices. Operands that name program-wide things (constants,
strings, types, functions) are already indices into `pool`; jump operands are `Label`s, resolved
by the assembler. Evaluation order is CPython's: left to right, the right-hand side of an
assignment before its targets, short-circuit for `and`/`or` and chained comparisons.

With `loop_steps` (the `loops` pass), a `for` over a range, a list, a string or an enumerate is
one loop step per iteration at the bottom of the loop (`FOR_RANGE`, `FOR_LIST`, `FOR_STR`, each
followed by the JUMP back to the body that it takes or skips); without it, or when a slot does not
fit a 12-bit operand, the loop is the plain test-and-increment sequence.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from compiler.surface import COMPARISONS, STR_METHODS, operator_ops
from compiler.types import FunctionInfo, Var, _const_int, resolve
from vm.isa import BY_NAME, CMP_IF_OPS, IMM_MAX, IMM_MIN, LOCAL2_MAX, TRAP_BY_NAME, TYPE_CODES, local2
from vm.values import (
    BOOL,
    FLOAT,
    INT,
    NONE,
    STR,
    Type,
    erase_vtuples,
    float_bits,
    list_of,
    runtime_type,
    tag_kind,
)


class Label:
    _next = 0

    def __init__(self) -> None:
        Label._next += 1
        self.id = Label._next

    def __repr__(self) -> str:
        return f"L{self.id}"


@dataclass
class Instr:
    op: str
    arg: int | Label = 0
    line: int = 0

    def __repr__(self) -> str:
        return f"{self.op} {self.arg}" if BY_NAME[self.op].operand != "none" else self.op


Code = list["Instr | Label"]


class Pool:
    """Program-wide tables, shared by all functions: constants, string image, types, functions."""

    def __init__(self, function_names: list[str]) -> None:
        self.consts: list[int] = []
        self.image: list[int] = []
        self.types: list[Type] = []
        self.function_index = {name: i for i, name in enumerate(function_names)}
        self._consts: dict[int, int] = {}
        self._strings: dict[str, int] = {}
        self._types: dict[Type, int] = {}
        # the types holding a dict as a union's alternative: the VM would see the tuple of its
        # keys and values lists, so no comparison walks them (Lowering.emit: Unsupported)
        self.opaque: set[int] = set()

    def const(self, word: int) -> int:
        if word not in self._consts:
            self._consts[word] = len(self.consts)
            self.consts.append(word)
        return self._consts[word]

    def string(self, s: str) -> int:
        if s not in self._strings:
            self._strings[s] = len(self.image)
            self.image += [len(s), *map(ord, s)]
        return self._strings[s]

    def type(self, t: Type) -> int:
        dict_alternative = _dict_in_union(t)
        t = runtime_type(t)  # a set is a sorted list at run time
        if t not in self._types:
            self._types[t] = len(self.types)
            self.types.append(t)
        if dict_alternative:
            self.opaque.add(self._types[t])
        return self._types[t]


def _dict_in_union(t: Type) -> bool:
    """Whether a union inside `t` (or `t`) has a dict among its alternatives."""
    if t.kind == "union" and any(a.kind == "dict" for a in t.args):
        return True
    return any(_dict_in_union(a) for a in t.args)


# the instructions that walk values of their type operand, comparing items (vm/isa.py)
_WALKERS = frozenset(
    "EQ LT LE CONTAINS SORTED SORTED_DESC MIN MAX SORTED_UNIQUE LIST_FIND".split()
)


@dataclass
class LoweredFunction:
    name: str
    param_types: list[int]
    return_type: int
    n_locals: int
    code: Code = field(default_factory=list)


# the instruction of each binary operator on ints and on floats (an int operand made a float
# first), and the base name of each comparison's (LT of LT_I, LT_F and LT): vm/surface.py's
# OPERATORS, through compiler/surface.py
_INT_OPS = {getattr(ast, node): op for node, op in operator_ops("binary", "int").items()}
_FLOAT_OPS = {getattr(ast, node): op for node, op in operator_ops("binary", "float").items()}
_SWAPPED = {"LT": "GT", "LE": "GE", "GT": "LT", "GE": "LE", "EQ": "EQ", "NE": "NE"}  # b op' a
_CMP = {getattr(ast, node): name for node, name in COMPARISONS.items()}
# int(x) and str(x), by the kind of x: the instruction that converts it (none: x already is one)
_CONVERSIONS = {
    "int": {"float": "F2I", "str": "INT_OF_STR"},
    "str": {"int": "STR_OF_INT", "bool": "STR_OF_BOOL"},
}


def _ty(node: ast.AST) -> Type:
    """The type of `node` as lowered: a tuple[T, ...] is the list[T] that nothing changes."""
    return erase_vtuples(node.kty)  # type: ignore[attr-defined]


def _seq_ty(node: ast.AST) -> Type:
    """The type of a sequence operand as lowered: a tuple iterated as a list (`kas_list`) is
    that list."""
    t = _ty(node)
    if getattr(node, "kas_keys", False):  # a dict consumed as its keys list
        return list_of(t.args[0])
    return list_of(t.args[0]) if getattr(node, "kas_list", None) is not None else t


class FunctionLowerer:
    def __init__(self, info: FunctionInfo, pool: Pool, loop_steps: bool = True) -> None:
        self.info, self.pool, self.loop_steps = info, pool, loop_steps
        self.code: Code = []
        self.line = info.node.lineno
        self.slots: dict[Var, int] = {}
        self.flags: dict[Var, int] = {}
        for p in info.params:
            self.slots[p] = len(self.slots)
        self.n_locals = len(self.slots)
        for var in info.variables.values():
            if var not in self.slots:
                self.slots[var] = self._new_slot()
        for var in info.variables.values():
            if var.needs_check and var not in info.params:
                self.flags[var] = self._new_slot()
        self.loops: list[tuple[Label, Label]] = []  # (continue, break)

    def _new_slot(self) -> int:
        self.n_locals += 1
        return self.n_locals - 1

    def temp(self) -> int:
        return self._new_slot()

    # -- emission ----------------------------------------------------------------------------------
    def emit(self, op: str, arg: int | Label = 0) -> None:
        if op in _WALKERS and arg in self.pool.opaque:  # a dict in a union: CPython's to compare
            for _ in range(BY_NAME[op].pops):
                self.code.append(Instr("POP", 0, self.line))
            op, arg = "RAISE", TRAP_BY_NAME["Unsupported"].code
        self.code.append(Instr(op, arg, self.line))

    def emit_all(self, *ops: str | tuple[str, int | Label]) -> None:
        """Emits each op in turn: a bare name, or a (name, operand) pair."""
        for op in ops:
            if isinstance(op, str):
                self.emit(op)
            else:
                self.emit(*op)

    def increment(self, slot: int, by: int = 1) -> None:
        """slot += by, of the int in local `slot`."""
        self.emit_all(("LOAD", slot), ("LOADI", by), "ADD_I", ("STORE", slot))

    def load_item(self, seq: int, i: int, index_op: str = "LIST_INDEX") -> None:
        """Pushes seq[i] of the sequence in local `seq` and the index in local `i`."""
        self.emit_all(("LOAD", seq), ("LOAD", i), index_op)

    def is_negative(self, slot: int) -> None:
        """Pushes whether the int in local `slot` is below 0."""
        self.emit_all(("LOAD", slot), ("LOADI", 0), "LT_I")

    def raise_unless(self, name: str) -> None:
        """Pops a truth value; raises `name` when it is false."""
        ok = Label()
        self.emit("JUMP_IF_TRUE", ok)
        self.raise_(name)
        self.place(ok)

    def raise_if(self, name: str) -> None:
        """Pops a truth value; raises `name` when it is true."""
        ok = Label()
        self.emit("JUMP_IF_FALSE", ok)
        self.raise_(name)
        self.place(ok)

    def while_index_below_len(
        self, i: int, lst: int, end: Label, length_op: str = "LIST_LEN"
    ) -> None:
        """The test of an index loop over the list (or, with STR_LEN, the string) in local
        `lst`: on to `end` once `i` has reached its length (read afresh each time, as CPython's
        list iterator does)."""
        self.emit_all(("LOAD", i), ("LOAD", lst), length_op, "LT_I", ("JUMP_IF_FALSE", end))

    def index_loop_head(
        self,
        i: int,
        seq: int,
        top: Label,
        end: Label,
        length_op: str = "LIST_LEN",
        start: bool = True,
    ) -> None:
        """`i = 0` (unless not `start`: the caller has set it), then at `top` the test of the
        index loop over local `seq` (on to `end`)."""
        if start:
            self.emit_all(("LOADI", 0), ("STORE", i))
        self.place(top)
        self.while_index_below_len(i, seq, end, length_op)

    @contextmanager
    def index_loop(
        self, i: int, seq: int, step: Label | None = None, start: bool = True
    ) -> Iterator[Label]:
        """`for i in range(len(seq))` over the list in local `seq`, its length read afresh
        each time; the body is the `with` block, which gets the label after the loop. `step`,
        where given, is placed before `i += 1` (the body's `continue`); `start` as in
        `index_loop_head`."""
        top, end = Label(), Label()
        self.index_loop_head(i, seq, top, end, start=start)
        yield end
        if step is not None:
            self.place(step)
        self.increment(i)
        self.emit("JUMP", top)
        self.place(end)

    def loop_back(self, body: Callable[[Label, Label], None], top: Label, end: Label) -> None:
        """The body of a loop whose step is done (`continue` goes to `top`), then back to the
        test at `top`; `end` after it."""
        body(top, end)
        self.emit("JUMP", top)
        self.place(end)

    def dict_part(self, d: int, part: int) -> None:
        """Pushes the keys list (part 0) or the values list (part 1) of the dict in local `d`."""
        self.emit_all(("LOAD", d), ("TUPLE_GET", part))

    def dict_item(self, d: int, part: int, i: int) -> None:
        """Pushes the key (part 0) or the value (part 1) at the index in local `i` of the dict in
        local `d`."""
        self.dict_part(d, part)
        self.emit_all(("LOAD", i), "LIST_INDEX")

    def dict_append(self, d: int, k: int, v: int) -> None:
        """A new key (local `k`) with its value (local `v`) at the end of the dict in local `d`."""
        for part, slot in ((0, k), (1, v)):
            self.dict_part(d, part)
            self.emit_all(("LOAD", slot), "LIST_APPEND")

    def place(self, label: Label) -> None:
        self.code.append(label)

    def at(self, node: ast.AST) -> None:
        self.line = getattr(node, "lineno", self.line)

    def push_int(self, value: int) -> None:
        if IMM_MIN <= value <= IMM_MAX:
            self.emit("LOADI", value)
        else:
            self.emit("CONST", self.pool.const(value))

    def push_float(self, value: float) -> None:
        self.emit("CONST", self.pool.const(float_bits(value)))

    def raise_(self, name: str) -> None:
        self.emit("RAISE", TRAP_BY_NAME[name].code)

    def type_index(self, t: Type) -> int:
        return self.pool.type(t)

    # -- function ------------------------------------------------------------------------------------
    def lower(self) -> LoweredFunction:
        ret: Type = erase_vtuples(self.info.ret)  # type: ignore[arg-type]
        body = self.info.node.body
        self.block(body)
        self.line = getattr(body[-1], "end_lineno", self.line) if body else self.line
        if ret == NONE:
            self.emit("LOADI", 0)
            self.emit("RET")
        elif ret.kind == "optional":  # Python returns None
            self.emit("LOADI", -1)
            self.emit("RET")
        elif ret.kind == "union" and NONE in ret.args:
            self.emit("LOADI", 0)
            self.emit("BOX", TYPE_CODES["none"])
            self.emit("RET")
        else:  # Python would return None here, which the result type cannot hold
            self.raise_("Unsupported")
        return LoweredFunction(
            self.info.name,
            [self.type_index(p.type) for p in self.info.params],  # type: ignore[arg-type]
            self.type_index(ret),
            self.n_locals,
            self.code,
        )

    def block(self, stmts: list[ast.stmt]) -> None:
        for s in stmts:
            self.at(s)
            getattr(self, f"s_{type(s).__name__}")(s)

    # -- statements ------------------------------------------------------------------------------------
    def s_Pass(self, s: ast.Pass) -> None:
        pass

    def s_Import(self, s: ast.stmt) -> None:
        pass

    s_ImportFrom = s_Import

    def s_Expr(self, s: ast.Expr) -> None:
        if getattr(s, "kskip", False):
            return
        v = s.value
        if isinstance(v, ast.Call) and getattr(v, "kmethod", None) == "append":
            self.append_call(v)
            return
        self.expr(v)
        self.emit("POP")

    def s_Return(self, s: ast.Return) -> None:
        if s.value is None:
            self.emit("LOADI", -1 if self.info.ret.kind == "optional" else 0)  # type: ignore[union-attr]
            if self.info.ret.kind == "union":  # type: ignore[union-attr]
                self.emit("BOX", TYPE_CODES["none"])
        else:
            self.expr(s.value)
        self.emit("RET")

    def s_Assign(self, s: ast.Assign) -> None:
        if len(s.targets) == 1 and self.parallel_assign(s.targets[0], s.value):
            return
        target = s.targets[0]
        if (
            len(s.targets) == 1
            and isinstance(target, ast.Subscript)
            and not isinstance(target.slice, ast.Slice)
            and _ty(target.value).kind == "list"
            and self.is_inert(s.value)
        ):
            # the value cannot trap nor change anything: no need to evaluate it first
            self.expr(target.value)
            self.expr(target.slice)
            self.expr(s.value)
            self.emit("LIST_STORE")
            return
        self.expr(s.value)
        for i, target in enumerate(s.targets):
            if i < len(s.targets) - 1:
                self.emit("DUP")
            self.store_target(target)

    def parallel_assign(self, target: ast.expr, value: ast.expr) -> bool:
        """`a, b = b, a` without building the tuple: all values first, then the stores."""
        if not (
            isinstance(target, (ast.Tuple, ast.List))
            and isinstance(value, ast.Tuple)
            and len(target.elts) == len(value.elts)
        ):
            return False
        for elt in value.elts:
            self.expr(elt)
        self.store_names_reversed(target.elts)
        return True

    def store_names_reversed(self, names: list[ast.expr]) -> None:
        """Values for `names` are on the stack, the last on top. Python assigns left to right, so
        when a name repeats, its last value wins; list items are stored left to right."""
        if not all(isinstance(elt, ast.Name) for elt in names):
            temps = [self.temp() for _ in names]
            for tmp in reversed(temps):
                self.emit("STORE", tmp)
            for elt, tmp in zip(names, temps):
                self.emit("LOAD", tmp)
                self.store_target(elt)
            return
        seen: set[str] = set()
        for elt in reversed(names):
            assert isinstance(elt, ast.Name)
            if elt.id in seen:
                self.emit("POP")
            else:
                seen.add(elt.id)
                wrap = getattr(elt, "kwrap", None)  # an item into a union variable: boxed
                if isinstance(wrap, tuple):
                    self.emit("BOX", wrap[1])
                self.store_var(elt.kvar)  # type: ignore[attr-defined]

    def store_tuple(self, target: ast.expr, n: int) -> None:
        """The `n` values on the stack (the last on top) to `target`: one to each item of a
        tuple (or list) target of `n` items, else as one tuple."""
        if isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) == n:
            self.store_names_reversed(target.elts)
        else:
            self.emit("TUPLE_NEW", n)
            self.store_target(target)

    def s_AnnAssign(self, s: ast.AnnAssign) -> None:
        if s.value is not None:
            self.expr(s.value)
            self.store_target(s.target)

    def store_target(self, target: ast.expr) -> None:
        """Stores the value on top of the stack into `target` (a loop's item boxed where the
        target is a union variable: types.py's assign_loop_target)."""
        if isinstance(target, ast.Name):
            wrap = getattr(target, "kwrap", None)
            if isinstance(wrap, tuple):
                self.emit("BOX", wrap[1])
            self.store_var(target.kvar)  # type: ignore[attr-defined]
        elif isinstance(target, (ast.Tuple, ast.List)):
            t = _ty(target)
            self.emit("UNPACK_TUPLE" if t.kind == "tuple" else "UNPACK_LIST", len(target.elts))
            self.store_names_reversed(target.elts)
        elif isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Slice):
            self.slice_store(target, target.slice)
        else:
            assert isinstance(target, ast.Subscript)
            tmp = self.temp()
            self.emit("STORE", tmp)
            if _ty(target.value).kind == "dict":
                d, k = self.temp(), self.temp()
                self.expr(target.value)
                self.emit("STORE", d)
                self.expr(target.slice)
                self.emit("STORE", k)
                self.dict_set(d, k, tmp, _ty(target.value))
                return
            self.expr(target.value)
            self.expr(target.slice)
            self.emit("LOAD", tmp)
            self.emit("LIST_STORE")

    def slice_store(self, target: ast.Subscript, sl: ast.Slice) -> None:
        """`a[i:j:k] = v` with v on the stack, from existing instructions. v is copied first (as
        CPython does when v is a). An extended slice (a constant step k != 1) assigns item by
        item to the indices `list(range(len(a)))[i:j:k]` (ValueError for k == 0, and unless
        len(v) is their count); a simple one rebuilds a in place: a[:i] + v + a[i + n:] where
        n = len(a[i:j]), which is CPython's clamping of i and j."""
        v, a = self.temp(), self.temp()
        self.emit("LIST_SLICE", 0)  # the copy of v
        self.emit("STORE", v)
        self.expr(target.value)
        self.emit("STORE", a)
        parts: list[int | None] = []
        for part in (sl.lower, sl.upper, sl.step):
            if part is None:
                parts.append(None)
                continue
            self.expr(part)
            tmp = self.temp()
            self.emit("STORE", tmp)
            parts.append(tmp)

        def sliced(seq: int, which: tuple[int, ...]) -> None:
            self.emit("LOAD", seq)
            flags = 0
            for bit in which:
                slot = parts[bit]
                if slot is not None:
                    self.emit("LOAD", slot)
                    flags |= 1 << bit
            self.emit("LIST_SLICE", flags)

        step = None if sl.step is None else _const_int(sl.step)
        if step is not None and step != 1:
            idx, j = self.temp(), self.temp()
            self.emit_all(("LOADI", 0), ("LOAD", a), "LIST_LEN", ("LOADI", 1), "LIST_RANGE")
            self.emit("STORE", idx)
            sliced(idx, (0, 1, 2))
            self.emit("STORE", idx)
            top, end = Label(), Label()
            # plain instructions: the passes make superinstructions (-O0 none)
            self.emit_all(("LOAD", idx), "LIST_LEN", ("LOAD", v), "LIST_LEN", "EQ_I")
            self.raise_unless("ValueError")
            self.emit_all(("LOADI", 0), ("STORE", j))
            self.place(top)
            self.emit_all(("LOAD", j), ("LOAD", idx), "LIST_LEN", "GE_I", ("JUMP_IF_TRUE", end))
            self.emit("LOAD", a)
            self.load_item(idx, j)  # a[idx[j]] = v[j]
            self.load_item(v, j)
            self.emit("LIST_STORE")
            self.increment(j)
            self.emit("JUMP", top)
            self.place(end)
            return
        head, tail = self.temp(), self.temp()
        self.emit("LOAD", a)
        if parts[0] is not None:
            self.emit("LOAD", parts[0])
        else:
            self.emit("LOADI", 0)
        self.emit("LIST_SLICE", 2)  # a[:i]
        self.emit("STORE", head)
        self.emit("LOAD", a)
        self.emit("LOAD", head)
        self.emit("LIST_LEN")
        sliced(a, (0, 1))
        self.emit("LIST_LEN")  # n = len(a[i:j])
        self.emit("ADD_I")
        self.emit("LIST_SLICE", 1)  # a[i + n:]
        self.emit("STORE", tail)
        self.emit("LOAD", a)
        self.emit("LOADI", 0)
        self.emit("LIST_IREPEAT")  # emptied in place: aliases see the new items
        for part in (head, v, tail):
            self.emit("LOAD", part)
            self.emit("LIST_EXTEND")
        self.emit("POP")

    def is_inert(self, node: ast.expr) -> bool:
        """A constant or a local that is surely assigned: evaluating it has no effect and never
        traps, so it may move past other evaluations."""
        if isinstance(node, ast.Constant):
            return True
        return isinstance(node, ast.Name) and not getattr(node, "kcheck", False)

    def store_var(self, var: Var) -> None:
        self.emit("STORE", self.slots[var])
        if var in self.flags:
            self.emit("LOADI", 1)
            self.emit("STORE", self.flags[var])

    def load_var(self, var: Var, checked: bool) -> None:
        if checked and var in self.flags:
            self.emit("LOAD", self.flags[var])
            self.raise_unless("UnboundLocalError")
        self.emit("LOAD", self.slots[var])

    def s_AugAssign(self, s: ast.AugAssign) -> None:
        result: Type = erase_vtuples(resolve(s.kty))  # type: ignore[attr-defined, arg-type]
        target = s.target

        def combine(current: Type) -> None:
            if hasattr(s, "kinplace"):  # list += / *=: in place, the list itself is the result
                self.expr(s.value)
                self.emit(s.kinplace)  # type: ignore[attr-defined]
            else:
                self.binop(s.op, current, s.value, result, s)

        if hasattr(s, "kaugment"):  # of a union variable: x = x op v (types.py)
            combined = s.kaugment  # type: ignore[attr-defined]
            combined.left.kcheck = getattr(target, "kcheck", False)
            self.expr(combined)
            self.store_var(target.kvar)  # type: ignore[attr-defined]
            return
        if isinstance(target, ast.Name):
            var: Var = target.kvar  # type: ignore[attr-defined]
            self.load_var(var, getattr(target, "kcheck", False))
            combine(erase_vtuples(var.type))  # type: ignore[arg-type]
            self.store_var(var)
        elif isinstance(target, ast.Subscript) and _ty(target.value).kind == "dict":
            dt = _ty(target.value)  # d[k] op= v: KeyError before v is evaluated
            d, i = self.dict_lookup(target, dt)
            self.dict_part(d, 1)
            self.emit("LOAD", i)
            self.emit("DUP2")
            self.emit("LIST_INDEX")
            combine(dt.args[1])
            self.emit("LIST_STORE")
        else:
            assert isinstance(target, ast.Subscript)
            self.expr(target.value)
            self.expr(target.slice)
            self.emit("DUP2")
            self.emit("LIST_INDEX")
            combine(_ty(target.value).args[0])
            self.emit("LIST_STORE")

    def s_If(self, s: ast.If) -> None:
        orelse, end = Label(), Label()
        self.branch(s.test, False, orelse)
        self.block(s.body)
        if s.orelse:
            self.emit("JUMP", end)
        self.place(orelse)
        self.block(s.orelse)
        self.place(end)

    def s_While(self, s: ast.While) -> None:
        # `while test: body else: orelse`: the else clause runs when the test is false, not
        # after a break
        top, end, brk = Label(), Label(), Label()
        self.place(top)
        self.at(s)
        self.branch(s.test, False, end)
        self.loops.append((top, brk if s.orelse else end))
        self.block(s.body)
        self.loops.pop()
        self.emit("JUMP", top)
        self.place(end)
        if s.orelse:
            self.block(s.orelse)
            self.place(brk)

    def s_For(self, s: ast.For) -> None:
        if not s.orelse:

            def body(cont: Label, brk: Label) -> None:
                self.loops.append((cont, brk))
                self.block(s.body)
                self.loops.pop()

            self.iterate(s, s.iter, s.target, body)
            return
        # `for ... else`: a break sets a flag on its way out of the loop (through the loop's
        # own exit); the else clause runs when the flag is clear (the iterable ran out)
        broke, after = self.temp(), Label()
        self.emit("LOADI", 0)
        self.emit("STORE", broke)

        def body_else(cont: Label, brk: Label) -> None:
            via = Label()
            self.loops.append((cont, via))
            self.block(s.body)
            self.loops.pop()
            self.emit("JUMP", cont)  # the end of the body: continue
            self.place(via)
            self.emit("LOADI", 1)
            self.emit("STORE", broke)
            self.emit("JUMP", brk)

        self.iterate(s, s.iter, s.target, body_else)
        self.emit("LOAD", broke)
        self.emit("JUMP_IF_TRUE", after)
        self.block(s.orelse)
        self.place(after)

    def s_Break(self, s: ast.Break) -> None:
        self.emit("JUMP", self.loops[-1][1])

    def s_Continue(self, s: ast.Continue) -> None:
        self.emit("JUMP", self.loops[-1][0])

    def s_Assert(self, s: ast.Assert) -> None:
        ok = Label()
        self.branch(s.test, True, ok)
        if s.msg is not None:
            self.expr(s.msg)
            self.emit("POP")
        self.raise_("AssertionError")
        self.place(ok)

    def s_Raise(self, s: ast.Raise) -> None:
        if isinstance(s.exc, ast.Call):
            for arg in s.exc.args:
                self.expr(arg)
                self.emit("POP")
        self.raise_(s.ktrap)  # type: ignore[attr-defined]

    # -- loops ------------------------------------------------------------------------------------------
    def iterate(
        self, node: ast.AST, it: ast.expr, target: ast.expr, body: Callable[[Label, Label], None]
    ) -> None:
        """One loop over `it` binding `target`; `body(continue_label, break_label)` emits the body."""
        kind, seq = node.kiter  # type: ignore[attr-defined]
        top, end = Label(), Label()
        if kind == "typeerror":  # `for d in n` of an int: CPython's TypeError (types.py)
            self.expr(it)
            self.emit("POP")
            self.raise_("TypeError")
            return
        if kind == "zip":
            assert isinstance(it, ast.Call)
            self.zip_loop(it.args, seq.args, target, body, top, end)
            return
        if kind.startswith("dict_"):
            source = it.func.value if isinstance(it, ast.Call) else it  # type: ignore[attr-defined]
            self.dict_loop(kind.removeprefix("dict_"), source, target, body, top, end)
            return
        if kind == "range":
            assert isinstance(it, ast.Call)
            self.range_loop(it.args, target, body, top, end)
            return
        source = it.args[0] if kind in ("enumerate", "reversed") else it  # type: ignore[attr-defined]
        if kind != "reversed" and self.n_locals + 3 <= LOCAL2_MAX and self.loop_steps:
            self.sequence_loop(kind, seq, source, it, target, body)
            return
        seq_slot, i = self.temp(), self.temp()
        length_op, index_op = (
            ("STR_LEN", "STR_INDEX") if seq.kind == "str" else ("LIST_LEN", "LIST_INDEX")
        )
        self.expr(source)
        self.emit("STORE", seq_slot)
        count = None
        if kind == "enumerate":
            count = self.temp()
            if len(it.args) == 2:  # type: ignore[attr-defined]
                self.expr(it.args[1])  # type: ignore[attr-defined]
            else:
                self.emit("LOADI", 0)
            self.emit("STORE", count)
        if kind == "reversed":
            # CPython's reversed(): index starts at len - 1 and stops below 0 or past the end
            self.emit_all(("LOAD", seq_slot), length_op, ("LOADI", 1), "SUB_I", ("STORE", i))
            self.place(top)
            self.emit_all(("LOAD", i), ("LOADI", 0), "GE_I", ("JUMP_IF_FALSE", end))
            self.while_index_below_len(i, seq_slot, end, length_op)
        else:
            self.index_loop_head(i, seq_slot, top, end, length_op)
        if kind == "enumerate":
            self.emit("LOAD", count)  # type: ignore[arg-type]
        self.load_item(seq_slot, i, index_op)
        if kind == "enumerate":
            self.store_tuple(target, 2)
        else:
            self.store_target(target)
        self.increment(i, -1 if kind == "reversed" else 1)
        if count is not None:
            self.increment(count)
        self.loop_back(body, top, end)

    def zip_loop(
        self,
        sources: list[ast.expr],
        seqs: tuple[Type, ...],
        target: ast.expr,
        body: Callable[[Label, Label], None],
        top: Label,
        end: Label,
    ) -> None:
        """`for target in zip(a, b, ...)`: the sequences are evaluated once, in order; each step
        reads the lengths afresh (as list iterators do) and stops at the shortest."""
        slots = []
        for source in sources:
            self.expr(source)
            slots.append(self.temp())
            self.emit("STORE", slots[-1])
        i = self.temp()
        self.emit_all(("LOADI", 0), ("STORE", i))
        self.place(top)
        for slot, seq in zip(slots, seqs, strict=True):
            self.while_index_below_len(i, slot, end, "STR_LEN" if seq.kind == "str" else "LIST_LEN")
        for slot, seq in zip(slots, seqs, strict=True):
            self.load_item(slot, i, "STR_INDEX" if seq.kind == "str" else "LIST_INDEX")
        self.store_tuple(target, len(slots))
        self.increment(i)
        self.loop_back(body, top, end)

    def loop_target(self, target: ast.expr) -> tuple[int, Callable[[], None]]:
        """The slot a loop step writes each value to, and what the body does first to assign
        it: nothing for a plain local, else a store from a hidden slot."""
        var = getattr(target, "kvar", None)
        wrap = getattr(target, "kwrap", None)  # a union variable: each item boxed
        if (
            isinstance(target, ast.Name)
            and var not in self.flags
            and wrap is None
            and self.slots[var] <= LOCAL2_MAX  # type: ignore[index]
        ):
            return self.slots[var], lambda: None  # type: ignore[index]
        hidden = self.temp()

        def assign() -> None:
            self.emit("LOAD", hidden)
            self.store_target(target)

        return hidden, assign

    def stepped_loop(
        self,
        step_op: str,
        value: int,
        state: int,
        prologue: Callable[[], None],
        body: Callable[[Label, Label], None],
    ) -> None:
        """`JUMP test; top: prologue, body; test: step_op value,state; JUMP top; end:` where
        the loop step writes each value to slot `value`; `continue` goes to the loop step."""
        line = self.line
        top, test, end = Label(), Label(), Label()
        self.emit("JUMP", test)
        self.place(top)
        prologue()
        body(test, end)
        self.place(test)
        self.line = line
        self.emit(step_op, local2(value, state))
        self.emit("JUMP", top)
        self.place(end)

    def sequence_loop(
        self,
        kind: str,
        seq: Type,
        source: ast.expr,
        it: ast.expr,
        target: ast.expr,
        body: Callable[[Label, Label], None],
    ) -> None:
        """`for target in seq` or `for target in enumerate(seq[, start])` with FOR_LIST/FOR_STR:
        the sequence and the next index in two hidden slots."""
        seq_slot, index = self.temp(), self.temp()
        self.expr(source)
        self.emit("STORE", seq_slot)
        if kind == "enumerate":
            count, item = self.temp(), self.temp()
            if len(it.args) == 2:  # type: ignore[attr-defined]
                self.expr(it.args[1])  # type: ignore[attr-defined]
            else:
                self.emit("LOADI", 0)
            self.emit("STORE", count)

            def prologue() -> None:
                self.emit_all(("LOAD", count), ("LOAD", item))
                self.store_tuple(target, 2)
                self.increment(count)

        else:
            item, prologue = self.loop_target(target)
        self.emit_all(("LOADI", 0), ("STORE", index))
        self.stepped_loop(
            "FOR_STR" if seq.kind == "str" else "FOR_LIST", item, seq_slot, prologue, body
        )

    def range_loop(
        self,
        args: list[ast.expr],
        target: ast.expr,
        body: Callable[[Label, Label], None],
        top: Label,
        end: Label,
    ) -> None:
        cur, stop, step = self.temp(), self.temp(), self.temp()
        stepped = self.loop_steps and step + 1 <= LOCAL2_MAX  # a hidden target slot may follow
        if len(args) == 1:
            self.emit("LOADI", 0)
            self.expr(args[0])
        else:
            self.expr(args[0])
            self.expr(args[1])
        self.emit("STORE", stop)
        self.emit("STORE", cur)
        const_step = 1 if len(args) < 3 else _const_int(args[2])
        if len(args) == 3:
            self.expr(args[2])
            self.emit("STORE", step)
            if const_step is None:
                self.emit("LOAD", step)
                self.raise_unless("ValueError")
            elif const_step == 0:
                self.raise_("ValueError")
                return
        if stepped:
            if len(args) < 3:
                self.emit("LOADI", 1)
                self.emit("STORE", step)
            value, prologue = self.loop_target(target)
            self.stepped_loop("FOR_RANGE", value, cur, prologue, body)
            return
        self.place(top)
        if const_step is None:
            negative, test = Label(), Label()
            self.emit("LOAD", step)
            self.emit("LOADI", 0)
            self.emit("GT_I")
            self.emit("JUMP_IF_FALSE", negative)
            self.emit("LOAD", cur)
            self.emit("LOAD", stop)
            self.emit("LT_I")
            self.emit("JUMP", test)
            self.place(negative)
            self.emit("LOAD", cur)
            self.emit("LOAD", stop)
            self.emit("GT_I")
            self.place(test)
        else:
            self.emit("LOAD", cur)
            self.emit("LOAD", stop)
            self.emit("LT_I" if const_step > 0 else "GT_I")
        self.emit("JUMP_IF_FALSE", end)
        self.emit("LOAD", cur)
        self.store_target(target)
        self.emit("LOAD", cur)
        if const_step is None:
            self.emit("LOAD", step)
        else:
            self.push_int(const_step)
        self.emit("ADD_I")
        self.emit("STORE", cur)
        self.loop_back(body, top, end)

    # -- conditions -----------------------------------------------------------------------------------
    def branch(self, node: ast.expr, when: bool, label: Label) -> None:
        """Jump to `label` when the truth of `node` is `when`; fall through otherwise."""
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self.branch(node.operand, not when, label)
        elif isinstance(node, ast.BoolOp):
            is_and = isinstance(node.op, ast.And)
            if is_and != when:
                # and-jump-if-false / or-jump-if-true: any operand decides
                for v in node.values:
                    self.branch(v, when, label)
            else:
                skip = Label()
                for v in node.values[:-1]:
                    self.branch(v, not when, skip)
                self.branch(node.values[-1], when, label)
                self.place(skip)
        else:
            self.truth(node)
            self.emit("JUMP_IF_TRUE" if when else "JUMP_IF_FALSE", label)

    def truth(self, node: ast.expr) -> None:
        """Pushes a value whose nonzero-ness is the truth of `node` (as its own type: not boxed
        into the union a value of it would be made, types.py's kwrap)."""
        self.expr(node, box=False)
        self.truth_of_top(_ty(node))

    def truth_of_top(self, t: Type) -> None:
        if t.kind == "float":
            self.emit("TRUTH_F")
        elif t.kind == "str":
            self.emit("STR_LEN")
        elif t.kind in ("list", "set"):
            self.emit("LIST_LEN")
        elif t.kind == "dict":
            self.emit("TUPLE_GET", 0)
            self.emit("LIST_LEN")
        elif t.kind == "tuple":
            self.emit("POP")
            self.emit("LOADI", 1 if t.args else 0)
        elif t.kind == "none":  # a result that is always None: false
            self.emit("POP")
            self.emit("LOADI", 0)
        elif t.kind == "union":  # the truth of the value in the box, by its tag
            end = Label()
            for i, alt in enumerate(t.args):
                other = Label()
                if i < len(t.args) - 1:
                    self.emit("DUP")
                    self.emit("TAG")
                    self.emit("LOADI", TYPE_CODES[tag_kind(alt.kind)])
                    self.emit("EQ_I")
                    self.emit("JUMP_IF_FALSE", other)
                self.emit("UNBOX", TYPE_CODES[tag_kind(alt.kind)])
                self.to_bool(alt)
                if i < len(t.args) - 1:
                    self.emit("JUMP", end)
                self.place(other)
            self.place(end)
        elif t.kind == "optional":  # None is false, else the value's truth
            none, end = Label(), Label()
            self.emit("DUP")
            self.emit("IS_NONE")
            self.emit("JUMP_IF_TRUE", none)
            self.emit("OPT_VALUE")
            self.to_bool(t.args[0])
            self.emit("JUMP", end)
            self.place(none)
            self.emit("POP")
            self.emit("LOADI", 0)
            self.place(end)

    def to_bool(self, t: Type) -> None:
        if t.kind != "bool":
            self.truth_of_top(t)
            self.emit("LOADI", 0)
            self.emit("NE_I")

    # -- expressions ----------------------------------------------------------------------------------
    def expr(self, node: ast.expr, box: bool = True) -> None:
        wrap = getattr(node, "kwrap", None)  # made an Optional: None (-1) or a 1-item tuple
        if not box and isinstance(wrap, tuple):
            wrap = None
        if wrap == "none" and isinstance(node, ast.Constant):
            self.emit("LOADI", -1)
            return
        if hasattr(node, "ksplit"):
            self.split(node)
        else:
            getattr(self, f"e_{type(node).__name__}")(node)
        if wrap == "none":  # a call that returns None: evaluated, then None
            self.emit("POP")
            self.emit("LOADI", -1)
        elif wrap == "some":
            self.emit("TUPLE_NEW", 1)
        elif isinstance(wrap, tuple):  # ("box", tag): a union's alternative, boxed
            self.emit("BOX", wrap[1])
            if wrap[0] == "somebox":  # ... and made the value of an Optional of the union
                self.emit("TUPLE_NEW", 1)
        if getattr(node, "kto_float", False):  # an int argument of math.pow, math.isclose
            self.emit("I2F")
        if getattr(node, "kas_keys", False):  # a dict where its keys are consumed: its keys list
            self.emit("TUPLE_GET", 0)
        n = getattr(node, "kas_list", None)  # a tuple's items, iterated: their list
        if n is not None:
            self.emit("UNPACK_TUPLE", n)
            self.emit("LIST_NEW", n)

    def split(self, node: ast.expr) -> None:
        """An operation on union values (types.py's split): the operands into their hidden
        variables, left to right, then the typed copy whose tags match (the last needs no test:
        the others' failed)."""
        operands, copies = node.ksplit  # type: ignore[attr-defined]
        for operand, var in operands:
            self.expr(operand)
            self.emit("STORE", self.slots[var])
        end = Label()
        for i, (tags, copy_) in enumerate(copies):
            other = Label()
            if i < len(copies) - 1:
                for (_, var), tag in zip(operands, tags, strict=True):
                    if tag is not None:
                        self.emit("LOAD", self.slots[var])
                        self.emit("TAG")
                        self.emit("LOADI", tag)
                        self.emit("EQ_I")
                        self.emit("JUMP_IF_FALSE", other)
            if copy_ is None:  # a combination kiln cannot compile: CPython's to run
                self.raise_("Unsupported")
            else:
                self.expr(copy_)
            if i < len(copies) - 1 and copy_ is not None:
                self.emit("JUMP", end)
            self.place(other)
        self.place(end)

    def e_Given(self, node: ast.Name) -> None:
        self.emit("LOAD", self.slots[node.kvar])  # type: ignore[attr-defined]
        if node.ktag is not None:  # type: ignore[attr-defined]
            self.emit("UNBOX", node.ktag)  # type: ignore[attr-defined]

    def tag_in(self, tags: list[int]) -> None:
        """The union value on the stack -> whether its tag is one of `tags` (a bool)."""
        self.emit("TAG")
        if not tags:
            self.emit("POP")
            self.emit("LOADI", 0)
            return
        tmp = self.temp() if len(tags) > 1 else None
        if tmp is not None:
            self.emit("STORE", tmp)
        for i, tag in enumerate(tags):
            if tmp is not None:
                self.emit("LOAD", tmp)
            self.emit("LOADI", tag)
            self.emit("EQ_I")
            if i:
                self.emit("OR_I")

    def e_Constant(self, node: ast.Constant) -> None:
        v = node.value
        if isinstance(v, bool) or v is None:
            self.emit("LOADI", int(bool(v)))
        elif isinstance(v, int):
            self.push_int(v)
        elif isinstance(v, float):
            self.push_float(v)
        else:
            self.emit("STR", self.pool.string(v))

    def e_Name(self, node: ast.Name) -> None:
        if hasattr(node, "kname_error"):  # a name bound nowhere (types.py's name_error)
            self.raise_("NameError")
            return
        if hasattr(node, "kmath_constant"):  # from math import pi
            self.push_float(node.kmath_constant)  # type: ignore[attr-defined]
            return
        self.load_var(node.kvar, getattr(node, "kcheck", False))  # type: ignore[attr-defined]
        if getattr(node, "kunwrap", False):  # an Optional tested not None: its value
            self.emit("OPT_VALUE")
        if hasattr(node, "kunbox"):  # a union tested by isinstance, ...: the value
            self.emit("UNBOX", node.kunbox)  # type: ignore[attr-defined]

    def e_BinOp(self, node: ast.BinOp) -> None:
        self.expr(node.left)
        self.binop(node.op, _seq_ty(node.left), node.right, _ty(node), node)

    def binop(
        self, op: ast.operator, lt: Type, right: ast.expr, result: Type, node: ast.AST
    ) -> None:
        """The left operand (of type lt) is on the stack; evaluates `right` and combines."""
        rt = _seq_ty(right)  # `t + (x,)` of a tuple[T, ...] t: (x,) made a list (kas_list)
        if hasattr(node, "kset_op"):
            self.expr(right)
            self.set_op(node.kset_op, lt)  # type: ignore[attr-defined]
            return
        if (
            result.kind == "float"
            and lt.kind in ("int", "bool", "float")
            and rt.kind in ("int", "bool", "float")
        ):
            if isinstance(op, ast.Div) and lt.kind != "float" and rt.kind != "float":
                self.expr(right)
                self.emit("DIV_I")
                return
            if lt.kind != "float":
                self.emit("I2F")
            self.expr(right)
            if rt.kind != "float":
                self.emit("I2F")
            self.emit(_FLOAT_OPS[type(op)])
            return
        if result.kind in ("int", "bool"):
            self.expr(right)
            self.emit(_INT_OPS[type(op)])
            return
        self.expr(right)
        if lt.kind == "str" and rt.kind == "str":
            self.emit("STR_CONCAT")
        elif lt.kind == "list" and rt.kind == "list":
            self.emit("LIST_CONCAT")
        elif lt.kind == "tuple":
            tmp = self.temp()
            self.emit("STORE", tmp)
            self.emit("UNPACK_TUPLE", len(lt.args))
            self.emit("LOAD", tmp)
            self.emit("UNPACK_TUPLE", len(rt.args))
            self.emit("TUPLE_NEW", len(lt.args) + len(rt.args))
        else:  # sequence * int, or int * sequence
            if lt.kind in ("int", "bool"):
                self.emit("SWAP")
            self.emit("STR_REPEAT" if result.kind == "str" else "LIST_REPEAT")

    def e_UnaryOp(self, node: ast.UnaryOp) -> None:
        t = _ty(node.operand)
        if isinstance(node.op, ast.Not):
            self.truth(node.operand)
            self.emit("NOT")
            return
        self.expr(node.operand)
        if isinstance(node.op, ast.Invert):
            self.emit("INVERT_I")
        elif isinstance(node.op, ast.USub):
            self.emit("NEG_F" if t.kind == "float" else "NEG_I")

    def e_BoolOp(self, node: ast.BoolOp) -> None:
        end = Label()
        t = _ty(node)
        self.expr(node.values[0])
        for v in node.values[1:]:
            self.emit("DUP")
            self.truth_of_top(t)
            self.emit("JUMP_IF_FALSE" if isinstance(node.op, ast.And) else "JUMP_IF_TRUE", end)
            self.emit("POP")
            self.expr(v)
        self.place(end)

    def e_Compare(self, node: ast.Compare) -> None:
        if hasattr(node, "krange_in"):  # x in range(a, b): a <= x < b (types.range_membership)
            operands, chain, negate = node.krange_in  # type: ignore[attr-defined]
            for operand, var in operands:
                self.expr(operand)
                self.emit("STORE", self.slots[var])
            self.expr(chain)
            if negate:
                self.emit("NOT")
            return
        if hasattr(node, "kchain"):  # a chain with unions (types.py's chain)
            operands, links = node.kchain  # type: ignore[attr-defined]
            false, end = Label(), Label()
            operand, var = operands[0]
            self.expr(operand)
            self.emit("STORE", self.slots[var])
            for i, link in enumerate(links):
                operand, var = operands[i + 1]
                self.expr(operand)
                self.emit("STORE", self.slots[var])
                self.expr(link)
                if i < len(links) - 1:
                    self.emit("JUMP_IF_FALSE", false)
            self.emit("JUMP", end)
            self.place(false)
            self.emit("LOADI", 0)
            self.place(end)
            return
        if hasattr(node, "ktype_tags"):  # type(u) == C of a union u: its tag
            tags, equal = node.ktype_tags  # type: ignore[attr-defined]
            call = node.left if isinstance(node.left, ast.Call) else node.comparators[0]
            self.expr(call.args[0])  # type: ignore[attr-defined]
            self.tag_in(tags)
            if not equal:
                self.emit("NOT")
            return
        if hasattr(node, "ktype_equal"):  # type(x) == C, decided by the types (types.py)
            for e in [node.left, *node.comparators]:
                if isinstance(e, ast.Call):  # type(x): x evaluated and dropped
                    self.expr(e.args[0])
                    self.emit("POP")
            self.emit("LOADI", int(node.ktype_equal))  # type: ignore[attr-defined]
            return
        plans = node.kplans  # type: ignore[attr-defined]
        operands = [node.left, *node.comparators]
        self.expr(node.left)
        if len(plans) == 1:
            self.expr(operands[1])
            self.compare(node.ops[0], plans[0], _ty(operands[0]), _ty(operands[1]))
            return
        false, end = Label(), Label()
        tmp = self.temp()
        for i, (op, plan) in enumerate(zip(node.ops, plans)):
            right = operands[i + 1]
            self.expr(right)
            last = i == len(plans) - 1
            if not last:
                self.emit("DUP")
                self.emit("STORE", tmp)
            self.compare(op, plan, _ty(operands[i]), _ty(right))
            if not last:
                self.emit("JUMP_IF_FALSE", false)
                self.emit("LOAD", tmp)
        self.emit("JUMP", end)
        self.place(false)
        self.emit("LOADI", 0)
        self.place(end)

    def compare(self, op: ast.cmpop, plan: tuple[str, Type], lt: Type, rt: Type) -> None:
        how, t = plan
        if how == "isbool":  # `x is True`: a bool is that bool or not; no other value is
            if t.kind == "bool":
                self.emit("EQ_I")
            else:
                self.emit_all("POP", "POP", ("LOADI", 0))  # never equal
            if isinstance(op, ast.IsNot):
                self.emit("NOT")
            return
        if how == "dict":
            self.dict_equal(t)
            if isinstance(op, ast.NotEq):
                self.emit("NOT")
            return
        if how in ("never", "empty"):  # decided by the types (types._equal_by_types)
            if how == "empty":  # two empty lists or sets (a set is a sorted list too)
                self.emit_all("LIST_LEN", "SWAP", "LIST_LEN", "OR_I", "NOT")
            else:
                self.emit_all("POP", "POP", ("LOADI", 0))  # never equal
            if isinstance(op, ast.NotEq):
                self.emit("NOT")
            return
        if how == "none":  # `x is None`, `x == None`, ... : drop the None, test the other
            if lt.kind == "none":
                self.emit("SWAP")
            self.emit("POP")
            if t.kind == "none":  # None is None
                self.emit("POP")
                self.emit("LOADI", 1)
            elif t.kind == "optional":
                self.emit("IS_NONE")
            else:  # a value of another type is never None
                self.emit("POP")
                self.emit("LOADI", 0)
            if isinstance(op, (ast.IsNot, ast.NotEq)):
                self.emit("NOT")
            return
        if how == "in" and t.kind == "dict":  # a key of the dict: in its keys list
            self.emit("TUPLE_GET", 0)
            t = list_of(t.args[0])
        if how == "in":
            self.emit("CONTAINS", self.type_index(t))
            if isinstance(op, ast.NotIn):
                self.emit("NOT")
            return
        name = _CMP[type(op)]
        if how == "num":
            if t.kind == "float" and lt.kind == rt.kind == "float":
                self.emit(f"{name}_F")
            elif t.kind == "float":  # an int and a float: exactly, as CPython (CMP_IF)
                if lt.kind == "float":
                    self.emit("SWAP")
                    name = _SWAPPED[name]
                self.emit("CMP_IF", CMP_IF_OPS.index(name))
            else:
                self.emit(f"{name}_I")
            return
        ti = self.type_index(t)
        if name in ("GT", "GE"):
            self.emit("SWAP")
            name = "LT" if name == "GT" else "LE"
        if name == "NE":
            self.emit("EQ", ti)
            self.emit("NOT")
        else:
            self.emit(name, ti)

    def dict_equal(self, t: Type) -> None:
        """a b -- a == b of two dicts of type t (a tuple of a keys list and a values list): the
        same number of keys, and each key of a found in b with an equal value (order aside)."""
        ta, tb, ka, kb, i, j = (self.temp() for _ in range(6))
        loop, true, false, end = Label(), Label(), Label(), Label()
        self.emit_all(("STORE", tb), ("STORE", ta))
        for d, k in ((ta, ka), (tb, kb)):
            self.dict_part(d, 0)
            self.emit("STORE", k)
        self.emit_all(("LOAD", ka), "LIST_LEN", ("LOAD", kb), "LIST_LEN", "NE_I")
        self.emit("JUMP_IF_TRUE", false)
        self.emit_all(("LOADI", 0), ("STORE", i))
        self.place(loop)
        self.emit_all(("LOAD", i), ("LOAD", ka), "LIST_LEN", "GE_I", ("JUMP_IF_TRUE", true))
        self.emit("LOAD", kb)  # j = the index of a's i-th key in b's keys
        self.load_item(ka, i)
        self.emit_all(("LIST_FIND", self.type_index(list_of(t.args[0]))), ("STORE", j))
        self.is_negative(j)
        self.emit("JUMP_IF_TRUE", false)
        self.dict_item(ta, 1, i)
        self.dict_item(tb, 1, j)
        self.emit_all(("EQ", self.type_index(t.args[1])), ("JUMP_IF_FALSE", false))
        self.increment(i)
        self.emit("JUMP", loop)
        self.place(true)
        self.emit_all(("LOADI", 1), ("JUMP", end))
        self.place(false)
        self.emit("LOADI", 0)
        self.place(end)

    def e_IfExp(self, node: ast.IfExp) -> None:
        orelse, end = Label(), Label()
        self.branch(node.test, False, orelse)
        self.expr(node.body)
        self.emit("JUMP", end)
        self.place(orelse)
        self.expr(node.orelse)
        self.place(end)

    def e_List(self, node: ast.List) -> None:
        for e in node.elts:
            self.expr(e)
        self.emit("LIST_NEW", len(node.elts))

    def e_Tuple(self, node: ast.Tuple) -> None:
        for e in node.elts:
            self.expr(e)
        # a display of items of several kinds, iterated: the list of them (types.tuple_items)
        self.emit("LIST_NEW" if getattr(node, "kdisplay_list", False) else "TUPLE_NEW", len(node.elts))

    def e_Subscript(self, node: ast.Subscript) -> None:
        if hasattr(node, "ktype_error"):  # an int (float, None) indexed: CPython's TypeError
            self.expr(node.value)
            self.expr(node.slice)
            self.emit("POP")
            self.emit("POP")
            self.raise_("TypeError")
            return
        seq = _seq_ty(node.value)
        picked = getattr(node, "ktuple_slice", None)
        if picked is not None:  # t[a:b:c] of constants: the items picked, a new tuple
            self.expr(node.value)
            if picked:
                t = self.temp()
                self.emit("STORE", t)
                for i in picked:
                    self.emit("LOAD", t)
                    self.emit("TUPLE_GET", i)
            else:
                self.emit("POP")
            self.emit("TUPLE_NEW", len(picked))
            return
        if seq.kind == "dict":
            d, i = self.dict_lookup(node, seq)
            self.dict_item(d, 1, i)
            return
        self.expr(node.value)
        if isinstance(node.slice, ast.Slice):
            flags = 0
            for bit, part in enumerate((node.slice.lower, node.slice.upper, node.slice.step)):
                if part is not None:
                    self.expr(part)
                    flags |= 1 << bit
            self.emit("STR_SLICE" if seq.kind == "str" else "LIST_SLICE", flags)
        elif seq.kind == "tuple":
            self.emit("TUPLE_GET", node.ktuple_index)  # type: ignore[attr-defined]
        else:
            self.expr(node.slice)
            self.emit("STR_INDEX" if seq.kind == "str" else "LIST_INDEX")

    def e_ListComp(self, node: ast.ListComp) -> None:
        result = self.slots[node.kresult]  # type: ignore[attr-defined]
        self.emit_all(("LIST_NEW", 0), ("STORE", result))

        def item(cont: Label) -> None:
            self.emit("LOAD", result)
            self.expr(node.elt)
            self.emit("LIST_APPEND")

        self._generator_loops(node, item)
        self.emit("LOAD", result)

    # -- calls ------------------------------------------------------------------------------------------
    def e_Call(self, node: ast.Call) -> None:
        if hasattr(node, "kname_error"):
            # a name bound nowhere: CPython's NameError, before any argument is evaluated
            self.raise_("NameError")
        elif hasattr(node, "kattr_error"):  # x.m() of a class without m: the object, then
            assert isinstance(node.func, ast.Attribute)  # CPython's AttributeError
            self.expr(node.func.value)
            self.emit("POP")
            self.raise_("AttributeError")
        elif hasattr(node, "knone_error"):  # len(None) and the like: TypeError, argument first
            self.expr(node.args[0])
            self.emit("POP")
            self.raise_("TypeError")
        elif hasattr(node, "kargs_type_error"):  # int(5, 16): CPython's TypeError, arguments
            for arg in node.args:  # first
                self.expr(arg)
                self.emit("POP")
            self.raise_("TypeError")
        elif hasattr(node, "kcallee"):
            for arg in node.args:
                self.expr(arg)
            index = self.pool.function_index.get(node.kcallee)  # type: ignore[attr-defined]
            if index is None:  # never typed: its only calls read a name bound nowhere (the
                for _ in node.args:  # NameError above comes first); anything else: CPython's
                    self.emit("POP")
                self.raise_("Unsupported")
            else:
                self.emit("CALL", index)
        elif hasattr(node, "kmethod"):
            method: str = node.kmethod  # type: ignore[attr-defined]
            assert isinstance(node.func, ast.Attribute)
            if method == "append":
                self.append_call(node)
                self.emit("LOADI", 0)
            elif method == "helper":  # a kiln function (types.py): the object, the arguments
                self.expr(node.func.value)
                for arg in node.args:
                    self.expr(arg)
                self.emit("CALL", self.pool.function_index[node.khelper])  # type: ignore[attr-defined]
            elif method.startswith("str."):
                self.str_method(node, method.removeprefix("str."))
            elif method in ("dict_get", "dict_setdefault"):
                self.dict_get(node, node.func.value, insert=method == "dict_setdefault")
            elif method == "set_add":
                self.set_add(node, node.func.value)
            elif method == "set_op":
                self.expr(node.func.value)
                self.expr(node.args[0])
                arg = _ty(node.args[0])
                if arg.kind == "str":
                    self.emit("LIST_OF_STR")
                if arg.kind != "set":  # any iterable: set() of it
                    self.emit("SORTED_UNIQUE", self.type_index(_ty(node.func.value)))
                self.set_op(node.kset_op, _ty(node.func.value))  # type: ignore[attr-defined]
            elif method == "pop":
                self.expr(node.func.value)
                for arg in node.args:
                    self.expr(arg)
                self.emit("LIST_POP_AT" if node.args else "LIST_POP")
            else:
                getattr(self, f"list_{method}")(node, node.func.value)
        else:
            getattr(self, f"b_{node.kbuiltin}")(node, node.args)  # type: ignore[attr-defined]

    _STR_OPS = {m.name: m.op for m in STR_METHODS}  # compiler/surface.py

    def str_method(self, node: ast.Call, name: str) -> None:
        assert isinstance(node.func, ast.Attribute)
        self.expr(node.func.value)
        for arg in node.args:
            self.expr(arg)
        if name in ("split", "rsplit"):  # without maxsplit, rsplit's parts are split's
            self.emit("STR_SPLIT" if node.args else "STR_SPLIT_WS")
            return
        if name == "find" and len(node.args) == 2:
            self.find_from()
            return
        self.emit(self._STR_OPS[name])
        if name == "index":  # find, then ValueError for -1
            self.emit_all("DUP", ("LOADI", -1), "NE_I")
            self.raise_unless("ValueError")

    def find_from(self) -> None:
        """s sub start -- s.find(sub, start): start taken as a slice start (negative from the
        end, then at least 0); past the end -1 (even for an empty sub); else the index in
        s[start:] plus start, or -1."""
        s, sub, start, n = (self.temp() for _ in range(4))
        past, end = Label(), Label()
        self.emit_all(("STORE", start), ("STORE", sub), ("STORE", s))
        self.emit_all(("LOAD", s), "STR_LEN", ("STORE", n))
        nonneg = Label()
        self.is_negative(start)
        self.emit("JUMP_IF_FALSE", nonneg)
        self.emit_all(("LOAD", start), ("LOAD", n), "ADD_I", ("STORE", start))
        self.is_negative(start)
        self.emit("JUMP_IF_FALSE", nonneg)
        self.emit_all(("LOADI", 0), ("STORE", start))
        self.place(nonneg)
        self.emit_all(("LOAD", start), ("LOAD", n), "GT_I", ("JUMP_IF_TRUE", past))
        self.emit_all(("LOAD", s), ("LOAD", start), ("STR_SLICE", 1), ("LOAD", sub), "STR_FIND")
        self.emit_all("DUP", ("LOADI", 0), "LT_I", ("JUMP_IF_TRUE", end))  # not found: -1
        self.emit_all(("LOAD", start), "ADD_I", ("JUMP", end))
        self.place(past)
        self.emit("LOADI", -1)
        self.place(end)

    def copy_back(self, dst: int, src: int) -> None:
        """dst[i] = src[i] for each i < len(src) (in place: aliases of dst see it)."""
        i = self.temp()
        with self.index_loop(i, src):
            self.emit_all(("LOAD", dst), ("LOAD", i))
            self.load_item(src, i)
            self.emit("LIST_STORE")

    def list_sort(self, node: ast.Call, obj: ast.expr) -> None:
        """xs.sort(): sorted(xs) written back into xs (a stable sort either way)."""
        lst, result = self.temp(), self.temp()
        self.expr(obj)
        self.emit("DUP")
        self.emit("STORE", lst)
        t = self.type_index(_ty(obj))
        self.emit("SORTED_DESC" if node.kreverse else "SORTED", t)  # type: ignore[attr-defined]
        self.emit("STORE", result)
        self.copy_back(lst, result)
        self.emit("LOADI", 0)

    def list_reverse(self, node: ast.Call, obj: ast.expr) -> None:
        lst, result = self.temp(), self.temp()
        self.expr(obj)
        self.emit("DUP")
        self.emit("STORE", lst)
        self.emit("LIST_REVERSED")
        self.emit("STORE", result)
        self.copy_back(lst, result)
        self.emit("LOADI", 0)

    def list_copy(self, node: ast.Call, obj: ast.expr) -> None:
        self.expr(obj)
        self.emit("LIST_SLICE", 0)  # xs[:]

    def list_insert(self, node: ast.Call, obj: ast.expr) -> None:
        """xs.insert(i, v): xs[:i] + [v] + xs[i:] (a slice's bounds clamp i exactly as insert
        does), written back into xs grown by one item (in place: aliases see it). The receiver,
        then i, then v are evaluated, once each, as CPython does."""
        lst, index, value, result = self.temp(), self.temp(), self.temp(), self.temp()
        self.expr(obj)
        self.emit("STORE", lst)
        self.expr(node.args[0])
        self.emit("STORE", index)
        self.expr(node.args[1])
        self.emit("STORE", value)
        self.emit_all(
            ("LOAD", lst), ("LOAD", index), ("LIST_SLICE", 2),  # xs[:i]
            ("LOAD", value), ("LIST_NEW", 1), "LIST_CONCAT",  # + [v]
            ("LOAD", lst), ("LOAD", index), ("LIST_SLICE", 1), "LIST_CONCAT",  # + xs[i:]
            ("STORE", result),
            ("LOAD", lst), ("LOAD", value), "LIST_APPEND",  # one item longer, then overwritten
        )  # fmt: skip
        self.copy_back(lst, result)
        self.emit("LOADI", 0)

    def list_clear(self, node: ast.Call, obj: ast.expr) -> None:
        self.expr(obj)
        self.emit("LOADI", 0)
        self.emit("LIST_IREPEAT")
        self.emit("POP")
        self.emit("LOADI", 0)

    def list_extend(self, node: ast.Call, obj: ast.expr) -> None:
        self.expr(obj)
        self.expr(node.args[0])
        self.emit("LIST_EXTEND")
        self.emit("POP")
        self.emit("LOADI", 0)

    def _list_search(self, node: ast.Call, obj: ast.expr, what: str) -> None:
        """xs.index(v) / xs.count(v) / xs.remove(v): a scan comparing items with `==`."""
        elem: Type = node.kelem  # type: ignore[attr-defined]
        lst, value, i, n = self.temp(), self.temp(), self.temp(), self.temp()
        step, done = Label(), Label()
        self.expr(obj)
        self.emit("STORE", lst)
        self.expr(node.args[0])
        self.emit("STORE", value)
        # i = 0, and n = 0: the count, or the index found
        self.emit_all(("LOADI", 0), ("STORE", i), ("LOADI", 0), ("STORE", n))
        with self.index_loop(i, lst, step, start=False):
            self.load_item(lst, i)
            self.emit("LOAD", value)
            if elem.kind in ("int", "bool"):
                self.emit("EQ_I")
            else:
                self.emit("EQ", self.type_index(elem))
            self.emit("JUMP_IF_FALSE", step)
            if what == "count":
                self.increment(n)
            elif what == "index":
                self.emit_all(("LOAD", i), ("STORE", n), ("JUMP", done))
            else:
                self.emit_all(("LOAD", lst), ("LOAD", i), "LIST_POP_AT", "POP", ("JUMP", done))
        if what != "count":
            self.raise_("ValueError")
        self.place(done)
        self.emit("LOAD", n)  # remove: 0, None

    def list_index(self, node: ast.Call, obj: ast.expr) -> None:
        self._list_search(node, obj, "index")

    def list_count(self, node: ast.Call, obj: ast.expr) -> None:
        self._list_search(node, obj, "count")

    def list_remove(self, node: ast.Call, obj: ast.expr) -> None:
        self._list_search(node, obj, "remove")

    def append_call(self, node: ast.Call) -> None:
        assert isinstance(node.func, ast.Attribute)
        self.expr(node.func.value)
        self.expr(node.args[0])
        self.emit("LIST_APPEND")

    def b_range(self, node: ast.Call, args: list[ast.expr]) -> None:
        """range(...) where a sequence is needed (reversed, enumerate, sorted...): a list."""
        if len(args) == 1:
            self.emit("LOADI", 0)
        for a in args:
            self.expr(a)
        if len(args) < 3:
            self.emit("LOADI", 1)
        self.emit("LIST_RANGE")

    def b_len(self, node: ast.Call, args: list[ast.expr]) -> None:
        t = _ty(args[0])
        self.expr(args[0])
        if t.kind == "tuple":
            self.emit("POP")
            self.emit("LOADI", len(t.args))
        elif t.kind == "dict":
            self.emit("TUPLE_GET", 0)
            self.emit("LIST_LEN")
        else:
            self.emit("STR_LEN" if t.kind == "str" else "LIST_LEN")

    def b_abs(self, node: ast.Call, args: list[ast.expr]) -> None:
        self.expr(args[0])
        self.emit("ABS_F" if _ty(args[0]).kind == "float" else "ABS_I")

    def _min_max(self, node: ast.Call, args: list[ast.expr], is_min: bool) -> None:
        default = getattr(node, "kdefault", None)
        if len(args) == 1 and default is not None:
            # min(xs, default=d): xs, then d, evaluated; d if xs is empty, else min(xs)
            seq, value = self.temp(), self.temp()
            empty, end = Label(), Label()
            self.expr(args[0])
            self.emit("STORE", seq)
            self.expr(default)
            self.emit("STORE", value)
            self.emit("LOAD", seq)
            self.emit("STR_LEN" if _seq_ty(args[0]).kind == "str" else "LIST_LEN")
            self.emit("JUMP_IF_FALSE", empty)
            self.emit("LOAD", seq)
            self.emit("MIN" if is_min else "MAX", self.type_index(_seq_ty(args[0])))
            self.emit("JUMP", end)
            self.place(empty)
            self.emit("LOAD", value)
            self.place(end)
            return
        if len(args) == 1:
            self.expr(args[0])
            self.emit("MIN" if is_min else "MAX", self.type_index(_seq_ty(args[0])))
            return
        t = _ty(node)
        slots = []
        for arg in args:
            self.expr(arg)
            slots.append(self.temp())
            self.emit("STORE", slots[-1])
        cur = slots[0]
        for s in slots[1:]:
            skip = Label()
            # min: take the item when item < current; max: when current < item (CPython's order)
            first, second = (s, cur) if is_min else (cur, s)
            self.emit("LOAD", first)
            self.emit("LOAD", second)
            if t.kind in ("int", "bool"):
                self.emit("LT_I")
            elif t.kind == "float":
                self.emit("LT_F")
            else:
                self.emit("LT", self.type_index(t))
            self.emit("JUMP_IF_FALSE", skip)
            self.emit("LOAD", s)
            self.emit("STORE", cur)
            self.place(skip)
        self.emit("LOAD", cur)

    def b_input(self, node: ast.Call, args: list[ast.expr]) -> None:
        """input(prompt): the prompt evaluated, then the fallback trap Unsupported (kiln has no
        stdin: CPython's answer decides)."""
        for arg in args:
            self.expr(arg)
            self.emit("POP")
        self.raise_("Unsupported")

    def b_min(self, node: ast.Call, args: list[ast.expr]) -> None:
        self._min_max(node, args, True)

    def b_max(self, node: ast.Call, args: list[ast.expr]) -> None:
        self._min_max(node, args, False)

    def b_sum(self, node: ast.Call, args: list[ast.expr]) -> None:
        self.expr(args[0])
        if hasattr(node, "ksum"):  # of ints and floats: a loop of the split + (types.py)
            acc, item, add = node.ksum  # type: ignore[attr-defined]
            lst, i = self.temp(), self.temp()
            self.emit("STORE", lst)
            self.emit_all(("LOADI", 0), ("BOX", TYPE_CODES["int"]), ("STORE", self.slots[acc]))
            with self.index_loop(i, lst):
                self.load_item(lst, i)
                self.emit("STORE", self.slots[item])
                self.expr(add)
                self.emit("STORE", self.slots[acc])
            self.emit("LOAD", self.slots[acc])
            return
        self.emit("SUM_F" if _ty(node).kind == "float" else "SUM_I")

    def convert(self, arg: ast.expr, to: str) -> None:
        """Pushes int(arg) or str(arg) (`to`), by _CONVERSIONS."""
        self.expr(arg)
        op = _CONVERSIONS[to].get(_ty(arg).kind)
        if op is not None:
            self.emit(op)

    def b_int(self, node: ast.Call, args: list[ast.expr]) -> None:
        if not args:
            self.emit("LOADI", 0)
            return
        self.convert(args[0], "int")

    def b_float(self, node: ast.Call, args: list[ast.expr]) -> None:
        if not args:
            self.push_float(0.0)
            return
        self.expr(args[0])
        kind = _ty(args[0]).kind
        if kind == "str":
            self.emit("FLOAT_OF_STR")
        elif kind != "float":
            self.emit("I2F")

    def b_bool(self, node: ast.Call, args: list[ast.expr]) -> None:
        if not args:
            self.emit("LOADI", 0)
            return
        self.expr(args[0])
        self.to_bool(_ty(args[0]))

    def b_str(self, node: ast.Call, args: list[ast.expr]) -> None:
        if not args:
            self.emit("STR", self.pool.string(""))
            return
        self.convert(args[0], "str")

    # -- dicts: (keys list, values list) in insertion order ------------------------------------
    def dict_new(self) -> None:
        self.emit("LIST_NEW", 0)
        self.emit("LIST_NEW", 0)
        self.emit("TUPLE_NEW", 2)

    def dict_find(self, d: int, k: int, t: Type, missing: str | None = None) -> int:
        """A slot holding the index of key slot `k` in dict slot `d` (-1 when absent, or the
        exception `missing`)."""
        i = self.temp()
        self.dict_part(d, 0)
        self.emit_all(("LOAD", k), ("LIST_FIND", self.type_index(list_of(t.args[0]))))
        self.emit("STORE", i)
        if missing is not None:
            self.is_negative(i)
            self.raise_if(missing)
        return i

    def dict_lookup(self, node: ast.Subscript, t: Type) -> tuple[int, int]:
        """Evaluates `d[k]`'s dict and key, in order; returns the slots of the dict and of the
        key's index in it (KeyError when the key is absent)."""
        d, k = self.temp(), self.temp()
        self.expr(node.value)
        self.emit("STORE", d)
        self.expr(node.slice)
        self.emit("STORE", k)
        return d, self.dict_find(d, k, t, missing="KeyError")

    def dict_set(self, d: int, k: int, v: int, t: Type) -> None:
        """d[k] = v: a new key goes at the end; an old one keeps its place."""
        i = self.dict_find(d, k, t)
        update, done = Label(), Label()
        self.is_negative(i)
        self.emit("JUMP_IF_FALSE", update)
        self.dict_append(d, k, v)
        self.emit("JUMP", done)
        self.place(update)
        self.dict_part(d, 1)
        self.emit_all(("LOAD", i), ("LOAD", v), "LIST_STORE")
        self.place(done)

    def dict_get(self, node: ast.Call, obj: ast.expr, insert: bool = False) -> None:
        """d.get(k, default); with `insert`, d.setdefault(k, default): an absent key is
        added, with the default itself (aliased, as in CPython) as its value."""
        t = _ty(obj)
        d, k, default = self.temp(), self.temp(), self.temp()
        for slot, e in ((d, obj), (k, node.args[0]), (default, node.args[1])):
            self.expr(e)
            self.emit("STORE", slot)
        i = self.dict_find(d, k, t)
        absent, done = Label(), Label()
        self.is_negative(i)
        self.emit("JUMP_IF_TRUE", absent)
        self.dict_item(d, 1, i)
        self.emit("JUMP", done)
        self.place(absent)
        if insert:
            self.dict_append(d, k, default)
        self.emit("LOAD", default)
        self.place(done)

    def e_Dict(self, node: ast.Dict) -> None:
        t = _ty(node)
        d, k, v = self.temp(), self.temp(), self.temp()
        self.dict_new()
        self.emit("STORE", d)
        for key, value in zip(node.keys, node.values, strict=True):
            assert key is not None
            self.expr(key)
            self.emit("STORE", k)
            self.expr(value)
            self.emit("STORE", v)
            self.dict_set(d, k, v, t)
        self.emit("LOAD", d)

    def e_DictComp(self, node: ast.DictComp) -> None:
        t = _ty(node)
        d, k, v = self.slots[node.kresult], self.temp(), self.temp()  # type: ignore[attr-defined]
        self.dict_new()
        self.emit("STORE", d)

        def item(cont: Label) -> None:
            self.expr(node.key)
            self.emit("STORE", k)
            self.expr(node.value)
            self.emit("STORE", v)
            self.dict_set(d, k, v, t)

        self._generator_loops(node, item)
        self.emit("LOAD", d)

    def b_dict(self, node: ast.Call, args: list[ast.expr]) -> None:
        t = _ty(node)
        self.dict_new()
        if node.kdict == "empty":  # type: ignore[attr-defined]
            return
        d, pairs, i, k, v = (self.temp() for _ in range(5))
        self.emit("STORE", d)
        self.expr(args[0])
        self.emit("STORE", pairs)
        with self.index_loop(i, pairs):
            self.load_item(pairs, i)
            self.emit_all(("UNPACK_TUPLE", 2), ("STORE", v), ("STORE", k))
            self.dict_set(d, k, v, t)
        self.emit("LOAD", d)

    def dict_loop(
        self,
        how: str,
        source: ast.expr,
        target: ast.expr,
        body: Callable[[Label, Label], None],
        top: Label,
        end: Label,
    ) -> None:
        """`for target in d` / `d.keys()` / `d.values()` / `d.items()`: insertion order; a step
        after the dict changed size is RuntimeError, as CPython's dict iterators say."""
        d, n, i = self.temp(), self.temp(), self.temp()
        self.expr(source)
        self.emit("STORE", d)
        self.dict_part(d, 0)
        self.emit_all("LIST_LEN", ("STORE", n), ("LOADI", 0), ("STORE", i))
        self.place(top)
        self.dict_part(d, 0)
        self.emit_all("LIST_LEN", ("LOAD", n), "EQ_I")
        self.raise_unless("RuntimeError")
        self.emit_all(("LOAD", i), ("LOAD", n), "LT_I", ("JUMP_IF_FALSE", end))
        parts = {"keys": [0], "values": [1], "items": [0, 1]}[how]
        for part in parts:
            self.dict_item(d, part, i)
        if len(parts) == 2:
            self.store_tuple(target, 2)
        else:
            self.store_target(target)
        self.increment(i)
        self.loop_back(body, top, end)

    def b_set(self, node: ast.Call, args: list[ast.expr]) -> None:
        how = node.kset  # type: ignore[attr-defined]
        if how == "empty":
            self.emit("LIST_NEW", 0)
            return
        self.expr(args[0])
        if getattr(node, "kset_order", False):  # iterated at once: in CPython's order (types.py)
            self.emit("SET_ORDER")
            return
        if how.kind == "str":
            self.emit("LIST_OF_STR")
        self.emit("SORTED_UNIQUE", self.type_index(_ty(node)))

    def e_Set(self, node: ast.Set) -> None:
        for e in node.elts:
            self.expr(e)
        self.emit("LIST_NEW", len(node.elts))
        self.emit("SORTED_UNIQUE", self.type_index(_ty(node)))

    def e_SetComp(self, node: ast.SetComp) -> None:
        self.e_ListComp(node)  # type: ignore[arg-type]
        self.emit("SORTED_UNIQUE", self.type_index(_ty(node)))

    def set_op(self, how: str, t: Type) -> None:
        """`a OP b` of two sets on the stack (sorted lists without repeats): `|` is the sorted
        union; `&` and `-` keep a's items (so the result is sorted) that are, or are not, in b;
        `^` is (a - b) | (b - a); issubset is `not (a - b)`, issuperset `not (b - a)`,
        isdisjoint `not (a & b)`."""
        ti = self.type_index(t)
        if how == "BitOr":
            self.emit("LIST_CONCAT")
            self.emit("SORTED_UNIQUE", ti)
            return
        a, b = self.temp(), self.temp()
        self.emit("STORE", b)
        self.emit("STORE", a)
        if how in ("BitAnd", "Sub", "isdisjoint", "issubset"):
            self.set_filter(a, b, keep=how in ("BitAnd", "isdisjoint"), t=ti)
        elif how == "issuperset":
            self.set_filter(b, a, keep=False, t=ti)
        else:  # BitXor
            self.set_filter(a, b, keep=False, t=ti)
            self.set_filter(b, a, keep=False, t=ti)
            self.emit("LIST_CONCAT")
            self.emit("SORTED_UNIQUE", ti)
        if how.startswith("is"):
            self.emit("LIST_LEN")
            self.emit("NOT")

    def set_filter(self, a: int, b: int, keep: bool, t: int) -> None:
        """Pushes the list of the items of the list in local a that are (keep) or are not in
        the set in local b, in a's order."""
        r, i, x = self.temp(), self.temp(), self.temp()
        top, end = Label(), Label()
        self.emit_all(("LIST_NEW", 0), ("STORE", r))
        self.index_loop_head(i, a, top, end)
        self.load_item(a, i)
        self.emit("STORE", x)
        self.increment(i)  # already: an item left out is a jump back to the top
        self.emit_all(("LOAD", x), ("LOAD", b), ("CONTAINS", t))
        self.emit("JUMP_IF_FALSE" if keep else "JUMP_IF_TRUE", top)
        self.emit_all(("LOAD", r), ("LOAD", x), "LIST_APPEND", ("JUMP", top))
        self.place(end)
        self.emit("LOAD", r)

    def set_add(self, node: ast.Call, obj: ast.expr) -> None:
        """s.add(x): unless x is in s, append it and sort s again in place (aliases see it)."""
        s, x, tmp, done = self.temp(), self.temp(), self.temp(), Label()
        t = self.type_index(_ty(obj))
        self.expr(obj)
        self.emit("STORE", s)
        self.expr(node.args[0])
        self.emit("STORE", x)
        self.emit_all(("LOAD", x), ("LOAD", s), ("CONTAINS", t), ("JUMP_IF_TRUE", done))
        self.emit_all(("LOAD", s), ("LOAD", x), "LIST_APPEND")
        self.emit_all(("LOAD", s), ("SORTED", t), ("STORE", tmp))
        self.copy_back(s, tmp)
        self.place(done)
        self.emit("LOADI", 0)

    def b_isinstance(self, node: ast.Call, args: list[ast.expr]) -> None:
        """Decided by the argument's static type (types.py): evaluated, dropped, a constant;
        of a union, by its tag."""
        self.expr(args[0])
        if hasattr(node, "kisinstance_tags"):
            self.tag_in(node.kisinstance_tags)  # type: ignore[attr-defined]
            return
        self.emit("POP")
        self.emit("LOADI", int(node.kisinstance))  # type: ignore[attr-defined]

    def b_print(self, node: ast.Call, args: list[ast.expr]) -> None:
        """The arguments are evaluated and dropped (the output would be swallowed); the result
        is None."""
        for arg in args:
            self.expr(arg)
            self.emit("POP")
        self.emit("LOADI", 0)

    def b_bin(self, node: ast.Call, args: list[ast.expr]) -> None:
        self.expr(args[0])
        self.emit("STR_BIN")

    def _float_to_int(self, arg: ast.expr, op: str) -> None:
        """math.floor / math.ceil / round of a number: an int stays itself; a float goes through
        `op` and F2I (ValueError for NaN, OverflowError for an infinity, Overflow past 64 bits)."""
        self.expr(arg)
        if _ty(arg).kind == "float":
            self.emit(op)
            self.emit("F2I")

    def b_round(self, node: ast.Call, args: list[ast.expr]) -> None:
        """round(x) (an int); round(x, n): ROUND_F_N of a float, an int (n a constant >= 0) is
        itself."""
        if len(args) == 1:
            self._float_to_int(args[0], "ROUND_F")
        elif node.kround == "float":  # type: ignore[attr-defined]
            self.expr(args[0])
            self.expr(args[1])
            self.emit("ROUND_F_N")
        else:
            self.expr(args[0])

    def e_Attribute(self, node: ast.Attribute) -> None:
        if hasattr(node, "kname_error"):  # math.pi where nothing imports math
            self.raise_("NameError")
            return
        self.push_float(node.kmath_constant)  # type: ignore[attr-defined]  # math.pi

    def b_math_helper(self, node: ast.Call, args: list[ast.expr]) -> None:
        """math.pow, math.isclose: a call of their kiln function (frontend.MATH_HELPERS), the
        arguments evaluated in the source's order (keywords last), then passed in the
        parameters' order, absent keywords as CPython's defaults."""
        helper = self.pool.function_index[node.khelper]  # type: ignore[attr-defined]
        if not node.keywords and node.khelper != "$isclose":  # type: ignore[attr-defined]
            for arg in args:
                self.expr(arg)
            self.emit("CALL", helper)
            return
        values = {}
        for name, arg in [("a", args[0]), ("b", args[1])] + [
            (kw.arg, kw.value) for kw in node.keywords
        ]:
            self.expr(arg)
            values[name] = self.temp()
            self.emit("STORE", values[name])
        for name, default in (("a", 0.0), ("b", 0.0), ("rel_tol", 1e-09), ("abs_tol", 0.0)):
            if name in values:
                self.emit("LOAD", values[name])
            else:
                self.push_float(default)
        self.emit("CALL", helper)

    def b_math_floor(self, node: ast.Call, args: list[ast.expr]) -> None:
        self._float_to_int(args[0], "FLOOR_F")

    def b_math_ceil(self, node: ast.Call, args: list[ast.expr]) -> None:
        self._float_to_int(args[0], "CEIL_F")

    def b_math_sqrt(self, node: ast.Call, args: list[ast.expr]) -> None:
        self.expr(args[0])
        if _ty(args[0]).kind != "float":
            self.emit("I2F")
        self.emit("SQRT_F")

    def b_ord(self, node: ast.Call, args: list[ast.expr]) -> None:
        self.expr(args[0])
        self.emit("ORD")

    def b_chr(self, node: ast.Call, args: list[ast.expr]) -> None:
        self.expr(args[0])
        self.emit("CHR")

    def b_sorted(self, node: ast.Call, args: list[ast.expr]) -> None:
        self.expr(args[0])
        if _ty(args[0]).kind == "str":
            self.emit("LIST_OF_STR")
        reverse = getattr(node, "kreverse", False)
        t = self.type_index(_ty(node))
        if isinstance(reverse, ast.expr):  # sorted(xs, reverse=<int expression>)
            ascending, done = Label(), Label()
            self.branch(reverse, False, ascending)
            self.emit("SORTED_DESC", t)
            self.emit("JUMP", done)
            self.place(ascending)
            self.emit("SORTED", t)
            self.place(done)
        else:
            self.emit("SORTED_DESC" if reverse else "SORTED", t)

    def _generator_loops(
        self, gen: ast.ListComp | ast.DictComp | ast.GeneratorExp, item: Callable[[Label], None]
    ) -> None:
        """The loops of the `for` clauses of a comprehension or a generator expression, its
        `if`s tested; `item(cont)` emits what each item does (`cont`: on to the next item)."""

        def generate(level: int, cont: Label, brk: Label) -> None:
            if level == len(gen.generators):
                item(cont)
                return
            comp = gen.generators[level]

            def body(inner_cont: Label, inner_brk: Label) -> None:
                for cond in comp.ifs:
                    self.branch(cond, False, inner_cont)
                generate(level + 1, inner_cont, inner_brk)

            self.iterate(comp, comp.iter, comp.target, body)

        generate(0, Label(), Label())

    def _first_item(
        self,
        gen: ast.GeneratorExp,
        default: Callable[[], None],
        value: Callable[[Label], None],
    ) -> None:
        """Pushes `value(cont)` of the first item of `gen` that it does not skip (a jump to
        `cont`), else `default()` (emitted first): loops that stop at that item, as CPython's
        generators do."""
        result, done = self.temp(), Label()
        default()
        self.emit("STORE", result)

        def item(cont: Label) -> None:
            value(cont)
            self.emit_all(("STORE", result), ("JUMP", done))

        self._generator_loops(gen, item)
        self.place(done)
        self.emit("LOAD", result)

    def _all_any(self, gen: ast.GeneratorExp, is_all: bool) -> None:
        """all(g) / any(g): the first item that decides (false for all, true for any)."""

        def decides(cont: Label) -> None:
            self.branch(gen.elt, is_all, cont)  # not decided by this item: next one
            self.emit("LOADI", 0 if is_all else 1)

        self._first_item(gen, lambda: self.emit("LOADI", 1 if is_all else 0), decides)

    def b_next(self, node: ast.Call, args: list[ast.expr]) -> None:
        """next(g, default): the first item g makes, or the default (a constant or a name:
        evaluated first)."""
        gen = args[0]
        assert isinstance(gen, ast.GeneratorExp)
        self._first_item(gen, lambda: self.expr(args[1]), lambda cont: self.expr(gen.elt))

    def b_all(self, node: ast.Call, args: list[ast.expr]) -> None:
        assert isinstance(args[0], ast.GeneratorExp)
        self._all_any(args[0], True)

    def b_any(self, node: ast.Call, args: list[ast.expr]) -> None:
        assert isinstance(args[0], ast.GeneratorExp)
        self._all_any(args[0], False)

    def b_tuple(self, node: ast.Call, args: list[ast.expr]) -> None:
        n = node.ktuple  # type: ignore[attr-defined]
        if not args:
            self.emit("TUPLE_NEW", 0)
            return
        self.expr(args[0])
        if n == "copy":  # a tuple[T, ...]: a new list of the items (types.dynamic_tuple)
            self.emit("LIST_OF_STR" if _ty(args[0]).kind == "str" else "LIST_SLICE", 0)
        elif isinstance(n, int):  # a list of n items (types.tuple_call): its items, as a tuple
            self.emit("UNPACK_LIST", n)
            self.emit("TUPLE_NEW", n)

    def b_list(self, node: ast.Call, args: list[ast.expr]) -> None:
        how = node.klist  # type: ignore[attr-defined]
        if how == "empty":
            self.emit("LIST_NEW", 0)
        elif how == "range":
            self.b_range(args[0], args[0].args)  # type: ignore[arg-type, attr-defined]
        elif how == "reversed":
            inner = args[0].args[0]  # type: ignore[attr-defined]
            self.expr(inner)
            if _ty(inner).kind == "str":
                self.emit("LIST_OF_STR")
            self.emit("LIST_REVERSED")
        else:
            self.expr(args[0])
            self.emit("LIST_OF_STR" if _ty(args[0]).kind == "str" else "LIST_SLICE", 0)


def lower_function(info: FunctionInfo, pool: Pool, loop_steps: bool = True) -> LoweredFunction:
    return FunctionLowerer(info, pool, loop_steps).lower()


__all__ = [
    "Instr",
    "Label",
    "Pool",
    "LoweredFunction",
    "lower_function",
    "BOOL",
    "FLOAT",
    "INT",
    "STR",
    "list_of",
]
