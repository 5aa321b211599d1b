"""The typed verification pass: every instruction gets operands of the types it works on.

`check_types(program)` runs after `vm.verify.verify` (it assumes the program keeps the structural
rules: operands in range, consistent stack depths) and raises `VerifyError` naming the function,
the instruction, the rule (`type`) and what was expected against what was found, e.g.

    function 'f' (#0), instruction 7 (ADD_I): type: expected int, int on the stack,
    found int, list[int]

It is abstract interpretation over each function's control-flow graph with a type per operand
stack slot and per local:

- parameters start with their declared types; every other local starts *unset* (the VM sets it
  to the word 0); a `LOADI`/`CONST` pushes a *constant word*, which serves as an int, a bool, a
  float or None (and the word -1 as a None of any Optional), since the instruction that consumes
  it says which;
- each opcode takes and gives the types of `vm.ref` (the reference VM): `ADD_I` int, int -> int
  (a bool is an int; `AND_I`/`OR_I`/`XOR_I` of bools give a bool), `STR_INDEX` str, int -> str,
  `LIST_INDEX` list[T], int -> T, the typed operand of `EQ`/`LT`/`LE`/`CONTAINS`/`SORTED*`/
  `MIN`/`MAX`/`LIST_FIND` gives the type of the sequence or of both operands, and so on
  (`_SIMPLE` and `_Checker.transfer`);
- the items of the lists a `LIST_NEW` makes have a type variable per instruction, bound to the
  join of every item that goes into them (its operands, `LIST_APPEND`, `LIST_STORE`,
  `LIST_EXTEND`, a join with another list, a use where a list of a known type is expected), so
  `[]` followed by appends of strs is a list[str]; items read before any is known are `?`,
  accepted by every use; the analysis repeats until no variable grows;
- an `Optional[T]` is `-1` or a 1-item tuple: `TUPLE_NEW 1` of a T serves as an Optional[T];
- where paths join, equal types stay, a constant word joins the scalar type it meets, a bool
  joins an int as int, containers join item by item, and anything else becomes a *conflict*
  that any typed use rejects (`POP`, `DUP`, `SWAP` and `STORE` move it freely);
- reading a local that may be unset: of a scalar type it is the VM's 0 (a valid int, bool,
  float or None) and allowed; of a str, list, tuple or Optional type it is allowed only where
  the compiler's unbound-local guard proved it set: the guard is a flag local stored a nonzero
  constant after each assignment and tested (`LOAD flag; JUMP_IF_TRUE ok; RAISE
  UnboundLocalError; ok: LOAD x`) before the read; the analysis keeps, per unset local, the
  flags still 0 on every path where it is unset, so the branch where such a flag is nonzero
  knows the local is set. A conditional jump on a constant takes only the branch it selects;
- `CALL` passes values of the callee's parameter types and pushes its return type; `RET`
  returns the declared return type; `FOR_LIST`/`FOR_STR`/`FOR_RANGE` read their state locals
  as list/str/int and give their target local the item type on the edge that enters the body.

The work is budgeted: a program may make the analysis go through at most MAX_CHECK_SLOTS local
and stack slots, each start state counted before it is built (a hostile `n_locals` is a
VerifyError, not an allocation without bound).

The pass is separate from `verify()` because the neural constrained decoder guarantees that its
samples pass `verify()` without tracking types; `verify_bytes` (every user-supplied `.kbc`) and
the neural sample verification call it.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence

from vm.container import Program, VerifyError
from vm.container import verify_failure as _fail
from vm.isa import OPS, TYPE_CODES, decode, split_local2
from vm.surface import STR_METHODS
from vm.values import BOOL, FLOAT, INT, STR, Type, list_of, optional_of, tuple_of

ANY = Type("any")  # unknown (the items of a list nothing went into yet): accepted by every use
TOP = Type("top")  # conflicting types where paths join: rejected by every typed use
WORD = Type("word")  # a constant word (LOADI, CONST): an int, bool, float or None
WORD_M1 = Type("word-1")  # the constant -1: also a None of any Optional
_WORDS = ("word", "word-1")
_SCALARS = ("int", "bool", "float", "none")
WORK_PER_INSTRUCTION = 1000  # instructions interpreted per instruction, at most, in one pass
MAX_NESTING = 32  # deeper types (only a loop nesting a value in itself makes them) conflict
MAX_CHECK_SLOTS = 10_000_000
"""Local and stack slots the analysis of one program may go through, over all its functions and
passes: each instruction interpreted counts its state (n_locals + stack depth) plus
SLOTS_PER_STEP. A start state is counted before it is built, so a program too large to check (a
hostile `n_locals`) is a VerifyError naming its size, never a check that runs out of memory or
time. The largest program of the golden corpus uses about 2% of it."""
SLOTS_PER_STEP = 64  # what one instruction interpreted costs beyond its state, in slots

# A local: (type, or None while never assigned; None when surely assigned, else the set of
# locals that are still 0 on every path where it is unset: any of them nonzero shows it set).
Local = tuple[Type | None, frozenset[int] | None]
# A stack slot: (type, tag) where tag is ("L", slot) for a copy of a local, ("C", word) for a
# constant, or None.
Tag = tuple[str, int] | None
Slot = tuple[Type, Tag]
State = tuple[tuple[Local, ...], tuple[Slot, ...]]


def _depth(t: Type) -> int:
    return 1 + max((_depth(a) for a in t.args), default=0)


def _optional_item(t: Type) -> Type | None:
    """The item type of an Optional-like value (an Optional or a 1-item tuple), else None."""
    if t.kind == "optional" or (t.kind == "tuple" and len(t.args) == 1):
        return t.args[0]
    return None


_KIND_OF_CODE = {code: kind for kind, code in TYPE_CODES.items()}


def _union(join: Callable[[Type, Type], Type], alts: Sequence[Type]) -> Type:
    """The box type holding any of `alts`: same-kind alternatives joined, in TYPE_CODES order."""
    by_kind: dict[str, Type] = {}
    for a in alts:
        by_kind[a.kind] = join(by_kind[a.kind], a) if a.kind in by_kind else a
        if by_kind[a.kind].kind == "top":
            return TOP
    return Type("union", tuple(by_kind[k] for k in TYPE_CODES if k in by_kind))


def _var(site: int) -> Type:
    """The item type of the lists that the `LIST_NEW` at instruction `site` makes."""
    return Type(f"var:{site}")


def _is_var(t: Type) -> bool:
    return t.kind.startswith("var:")


Expected = Type | str  # a real type (`accepts`), or a kind that any type of it satisfies


class _Types:
    """The type rules of one function. The items of the lists a `LIST_NEW` makes have a type
    variable per instruction, bound to the join of every item that goes into them (its operands,
    `append`, `l[i] = v`, `+=`, a join with another list, a use as a list of a known type);
    reads of an item give its binding (`?` while there is none). The analysis repeats until no
    binding grows."""

    def __init__(self) -> None:
        self.parent: dict[int, int] = {}
        self.binding: dict[int, Type] = {}
        self.changed = False

    # -- type variables

    def find(self, site: int) -> int:
        while self.parent.get(site, site) != site:
            site = self.parent[site]
        return site

    def resolve(self, t: Type) -> Type:
        """`t`, or the binding of the variable it is (ANY while unbound)."""
        if not _is_var(t):
            return t
        return self.binding.get(self.find(int(t.kind[4:])), ANY)

    def bind(self, t: Type, found: Type) -> None:
        """Variable `t` holds values of `found` too."""
        root = self.find(int(t.kind[4:]))
        if _is_var(found):
            other = self.find(int(found.kind[4:]))
            if other == root:
                return
            self.parent[other] = root  # one variable from now on
            self.changed = True
            found = self.binding.pop(other, ANY)
        old = self.binding.get(root, ANY)
        self.binding[root] = TOP  # a binding that contains its own variable stops here
        new = self.canonical(self.join(old, found))
        self.binding[root] = new
        if new != self.canonical(old):
            self.changed = True

    def canonical(self, t: Type) -> Type:
        """`t` with each variable named by its representative."""
        if _is_var(t):
            return _var(self.find(int(t.kind[4:])))
        if not t.args:
            return t
        return Type(t.kind, tuple(map(self.canonical, t.args)))

    # -- messages

    def show(self, t: Type | None, depth: int = 0) -> str:
        """A type as messages print it."""
        if t is None or t.kind == "word":
            return "a constant word" if t is not None else "unset"
        if _is_var(t):
            return "..." if depth > MAX_NESTING else self.show(self.resolve(t), depth + 1)
        kind = t.kind
        if kind == "word-1":
            return "the constant -1"
        if kind == "any":
            return "?"
        if kind == "top":
            return "conflicting types"
        items = ", ".join(self.show(a, depth + 1) for a in t.args)
        if kind == "list":
            return f"list[{items}]"
        if kind == "tuple":
            return f"tuple[{items}]"
        if kind == "optional":
            return f"Optional[{items}]"
        if kind == "union":
            return " | ".join(self.show(a, depth + 1) for a in t.args)
        return kind

    def show_expected(self, expected: Expected) -> str:
        return expected if isinstance(expected, str) else self.show(expected)

    # -- the rules

    def accepts(self, expected: Type, found: Type) -> bool:
        """Whether a value of abstract type `found` may be used where `expected` is (binding
        the item variables of `found` to what `expected` says)."""
        if _is_var(expected):  # an item going into a list made empty
            old = self.resolve(expected)
            if old.kind != "any" and self.join(old, self.resolve(found)).kind == "top":
                return False
            self.bind(expected, found)
            return True
        if _is_var(found):
            old = self.resolve(found)
            if not self.accepts(expected, old):
                return False
            self.bind(found, expected)
            return True
        fk, k = found.kind, expected.kind
        if fk == "any" or k == "any":
            return True
        if fk == "top":
            return False
        if k in _WORDS:  # the items of a list made of constants: any scalar joins them
            return fk in _SCALARS or fk in _WORDS
        if fk == "word":
            return k in _SCALARS
        if fk == "word-1":
            return k in _SCALARS or k == "optional"
        if k == "int":
            return fk in ("int", "bool")
        if k == "list":
            return fk == "list" and self.accepts(expected.args[0], found.args[0])
        if k == "tuple":
            return (
                fk == "tuple"
                and len(found.args) == len(expected.args)
                and all(map(self.accepts, expected.args, found.args))
            )
        if k == "optional":
            inner = _optional_item(found)
            return inner is not None and self.accepts(expected.args[0], inner)
        if k == "union":  # a box (never a bare value) of alternatives the expected has
            if fk != "union":
                return False
            by_kind = {a.kind: a for a in expected.args}
            return all(
                f.kind in by_kind and self.accepts(by_kind[f.kind], f) for f in found.args
            )
        return fk == k

    def ok(self, expected: Expected, found: Type) -> bool:
        if expected == "list":
            return found.kind in ("list", "any")
        if expected == "tuple":
            return found.kind in ("tuple", "any")
        if expected == "union":
            return found.kind in ("union", "any")
        if expected == "Optional":
            return found.kind in ("any", "word-1") or _optional_item(found) is not None
        if expected == "a value":
            return found.kind != "top"
        assert isinstance(expected, Type)
        return self.accepts(expected, found)

    def item(self, t: Type) -> Type:
        """The item type of a list (ANY for a value of unknown type)."""
        return self.resolve(t.args[0]) if t.kind == "list" else ANY

    def join(self, a: Type, b: Type) -> Type:
        """The type of a slot that holds `a` on one path and `b` on another."""
        if a is b or a == b:
            return a
        result = self._join(a, b)
        return TOP if _depth(result) > MAX_NESTING else result

    def _join(self, a: Type, b: Type) -> Type:
        if _is_var(b):
            a, b = b, a
        if _is_var(a):  # list items: the variable holds both
            self.bind(a, b)
            return self.canonical(a)  # one name per variable, or states would never settle
        if a.kind == "any":
            return b
        if b.kind == "any":
            return a
        if a.kind == "top" or b.kind == "top":
            return TOP
        if a.kind in _WORDS and b.kind in _WORDS:
            return WORD
        if b.kind in _WORDS:
            a, b = b, a
        if a.kind in _WORDS:
            if b.kind in _SCALARS:
                return b
            if a.kind == "word-1" and _optional_item(b) is not None:
                return optional_of(_optional_item(b))  # type: ignore[arg-type]
            return TOP
        if {a.kind, b.kind} == {"int", "bool"}:
            return INT
        if a.kind == b.kind == "list":
            return list_of(self.join(a.args[0], b.args[0]))
        if a.kind == b.kind == "tuple" and len(a.args) == len(b.args):
            return tuple_of(*map(self.join, a.args, b.args))
        ia, ib = _optional_item(a), _optional_item(b)
        if ia is not None and ib is not None:  # an Optional and another Optional or a 1-tuple
            return optional_of(self.join(ia, ib))
        if a.kind == b.kind == "union":  # boxes of either's alternatives
            return _union(self.join, a.args + b.args)
        return TOP

    def join_local(self, a: Local, b: Local) -> Local:
        (ta, ga), (tb, gb) = a, b
        ty = tb if ta is None else ta if tb is None else self.join(ta, tb)
        if ga is None:
            guard = gb
        elif gb is None:
            guard = ga
        else:
            guard = ga & gb
        return ty, guard

    def join_state(self, a: State, b: State) -> State:
        la, lb = a[0], b[0]
        locals_ = (
            la
            if la == lb
            else tuple(x if x == y else self.join_local(x, y) for x, y in zip(la, lb, strict=True))
        )
        stack = tuple(
            (self.join(ta, tb), ga if ga == gb else None)
            for (ta, ga), (tb, gb) in zip(a[1], b[1], strict=True)
        )
        return locals_, stack


class _Checker(_Types):
    def __init__(self, program: Program, index: int, budget: list[int]) -> None:
        super().__init__()
        self.budget = budget  # [slots left], shared by the functions of the program
        self.program = program
        self.index = index
        self.fn = program.functions[index]
        self.types = program.types
        self.decoded = [(OPS[c], operand) for c, operand in map(decode, self.fn.code)]
        # Locals that can be unbound-local flags: never parameters, only ever stored a nonzero
        # constant pushed just before. Only they can prove another local set (`_refine`).
        stored: dict[int, bool] = {}
        for pc, (op, operand) in enumerate(self.decoded):
            if op.name == "STORE":
                before = self.decoded[pc - 1] if pc else None
                constant = before is not None and before[0].name == "LOADI" and before[1] != 0
                stored[operand] = stored.get(operand, True) and constant
            elif op.guards_jump:
                a, b = split_local2(operand)
                for slot in (a, *range(b, b + 3)):
                    stored[slot] = False
        # Where control can arrive other than from the instruction before: states are kept there.
        self.leaders = {0}
        for pc, (op, operand) in enumerate(self.decoded):
            if op.is_jump:
                self.leaders.add(operand)
            if op.is_jump or op.ends_block or op.guards_jump:
                self.leaders.update((pc + 1, pc + 2) if op.guards_jump else (pc + 1,))
        self.flags = frozenset(
            slot
            for slot, ok in stored.items()
            if ok and self.fn.n_params <= slot < self.fn.n_locals
        )

    def fail(self, pc: int, detail: str) -> VerifyError:
        return _fail(
            self.program,
            self.index,
            f"instruction {pc} ({self.decoded[pc][0].name})",
            "type",
            detail,
        )

    def spend(self, pc: int | None, slots: int) -> None:
        """Count `slots` against the program's MAX_CHECK_SLOTS (before the state they measure
        is built)."""
        self.budget[0] -= slots
        if self.budget[0] >= 0:
            return
        fn = self.fn
        detail = (
            f"function too large to check: n_locals {fn.n_locals}, {len(fn.code)} instructions;"
            f" the analysis would go through more than {MAX_CHECK_SLOTS} local and stack slots"
            " (vm.typecheck.MAX_CHECK_SLOTS)"
        )
        if pc is None:
            raise _fail(self.program, self.index, "header", "type", detail)
        raise self.fail(pc, detail)

    def run(self) -> None:
        """Analyse until the item variables of empty lists stop growing."""
        for _ in range(100):
            self.changed = False
            self.analyse()
            if not self.changed:
                return
        raise _fail(self.program, self.index, "header", "type", "item types do not settle")

    def analyse(self) -> None:
        """One pass of the abstract interpretation to a fixed point of the states."""
        fn = self.fn
        self.spend(None, fn.n_locals + SLOTS_PER_STEP)
        params = [self.types[t] for t in fn.param_types]
        unset = self.flags
        start_locals: tuple[Local, ...] = tuple(
            (params[slot], None) if slot < fn.n_params else (None, unset - {slot})
            for slot in range(fn.n_locals)
        )
        states: dict[int, State] = {0: (start_locals, ())}  # at block leaders only
        work = [0]
        queued = {0}
        budget = WORK_PER_INSTRUCTION * len(fn.code)
        while work:
            pc = heapq.heappop(work)
            queued.discard(pc)
            state = states[pc]
            while True:  # one basic block, then the leaders it reaches
                budget -= 1
                if budget < 0:
                    raise self.fail(pc, "the analysis does not settle (types keep growing)")
                self.spend(pc, len(state[0]) + len(state[1]) + SLOTS_PER_STEP)
                successors = self.transfer(pc, state)
                if len(successors) == 1 and successors[0][0] not in self.leaders:
                    pc, state = successors[0]
                    continue
                break
            for succ, state in successors:
                old = states.get(succ)
                new = state if old is None else self.join_state(old, state)
                if new != old:
                    states[succ] = new
                    if succ not in queued:
                        queued.add(succ)
                        heapq.heappush(work, succ)

    # -- helpers

    def read_local(self, pc: int, locals_: Sequence[Local], slot: int) -> Type:
        ty, guard = locals_[slot]
        if guard is None:
            return ANY if ty is None else ty
        if ty is None:
            return WORD  # never assigned: the VM's 0
        if ty.kind in _SCALARS or ty.kind in _WORDS or ty.kind in ("any", "top"):
            return ty  # 0 is a value of it (or it is of no use anyway)
        raise self.fail(
            pc,
            f"local {slot} may be read before it is assigned: it holds {self.show(ty)} on some "
            f"paths and is unset (the word 0, no {self.show(ty)}) on others, with no guard "
            "proving it set",
        )

    def write_local(
        self, locals_: tuple[Local, ...], stack: tuple[Slot, ...], slot: int, ty: Type
    ) -> tuple[tuple[Local, ...], tuple[Slot, ...]]:
        """The state after `locals[slot] = value of ty`: a flag stored no longer proves the
        locals that are still unset set, and stack copies of the slot are no longer copies."""
        if slot in self.flags:
            new = [(t, g if g is None or slot not in g else g - {slot}) for t, g in locals_]
        else:
            new = list(locals_)
        new[slot] = (ty, None)
        tag = ("L", slot)
        return tuple(new), tuple((t, None if g == tag else g) for t, g in stack)

    # -- one instruction: its successors and the states it sends them

    def transfer(self, pc: int, state: State) -> list[tuple[int, State]]:  # noqa: C901 - one switch
        op, n = self.decoded[pc]
        name = op.name
        locals_, stack_t = state
        stack = list(stack_t)
        types = self.types

        def take(*expected: Expected) -> list[Type]:
            """Pop len(expected) operands (deepest first), each of its expected type."""
            k = len(expected)
            found = stack[len(stack) - k :] if k else []
            if any(not self.ok(e, t) for e, (t, _) in zip(expected, found, strict=True)):
                raise self.fail(
                    pc,
                    f"expected {', '.join(map(self.show_expected, expected))} on the stack, "
                    f"found {', '.join(self.show(t) for t, _ in found)}",
                )
            if k:
                del stack[-k:]
            return [t for t, _ in found]

        def push(t: Type, tag: Tag = None) -> None:
            stack.append((t, tag))

        def out(state_locals: tuple[Local, ...] = locals_) -> State:
            return state_locals, tuple(stack)

        def follow() -> list[tuple[int, State]]:
            return [(pc + 1, out())]

        if name in _SIMPLE:
            ins, result = _SIMPLE[name]
            take(*ins)
            push(result)
            return follow()
        if name in ("AND_I", "OR_I", "XOR_I"):
            a, b = take(INT, INT)
            kinds = {a.kind, b.kind}
            push(BOOL if kinds <= {"bool", "word", "word-1"} and "bool" in kinds else INT)
            return follow()
        match name:
            case "NOP":
                pass
            case "POP":
                stack.pop()
            case "DUP":
                stack.append(stack[-1])
            case "DUP2":
                stack += stack[-2:]
            case "SWAP":
                stack[-2], stack[-1] = stack[-1], stack[-2]
            case "LOADI":
                push(WORD_M1 if n == -1 else WORD, ("C", n))
            case "CONST":
                word = self.program.consts[n]
                push(WORD_M1 if word == -1 else WORD, ("C", word))
            case "STR":
                push(STR)
            case "LOAD":
                push(self.read_local(pc, locals_, n), ("L", n))
            case "LOAD2":
                first, second = split_local2(n)
                push(self.read_local(pc, locals_, first), ("L", first))
                push(self.read_local(pc, locals_, second), ("L", second))
            case "STORE":
                t = stack.pop()[0]  # any value, a conflicting one too: its uses are checked
                new_locals, new_stack = self.write_local(locals_, tuple(stack), n, t)
                return [(pc + 1, (new_locals, new_stack))]
            case "JUMP":
                return [(n, out())]
            case "JUMP_IF_FALSE" | "JUMP_IF_TRUE":
                tag = stack[-1][1]
                take(INT)
                jump_when = name == "JUMP_IF_TRUE"
                if tag is not None and tag[0] == "C":
                    return [(n, out())] if (tag[1] != 0) == jump_when else follow()
                taken, fall = out(), out()
                if tag is not None:  # a local's copy: on the nonzero branch it is set
                    refined = _refine(locals_, tag[1])
                    if jump_when:
                        taken = out(refined)
                    else:
                        fall = out(refined)
                return [(pc + 1, fall), (n, taken)]
            case "JUMP_LT_I" | "JUMP_LE_I" | "JUMP_GT_I" | "JUMP_GE_I" | "JUMP_EQ_I" | "JUMP_NE_I":
                take(INT, INT)
                return [(pc + 1, out()), (n, out())]
            case "FOR_RANGE" | "FOR_LIST" | "FOR_STR":
                return self.loop_step(pc, name, n, locals_, tuple(stack))
            case "CALL":
                callee = self.program.functions[n]
                take(*(types[t] for t in callee.param_types))
                push(types[callee.return_type])
            case "RET":
                take(types[self.fn.return_type])
                return []
            case "RAISE":
                return []
            case "EQ" | "LT" | "LE":
                take(types[n], types[n])
                push(BOOL)
            case "CONTAINS":
                seq = types[n]
                if seq.kind == "str":
                    take(STR, seq)
                elif seq.kind == "list":
                    take(seq.args[0], seq)
                else:  # a tuple: x is compared with each item
                    bad = [a for a in seq.args if not self.accepts(a, stack[-2][0])]
                    take(bad[0] if bad else "a value", seq)
                push(BOOL)
            case "STR_SLICE" | "LIST_SLICE":
                sliced: Expected = STR if name == "STR_SLICE" else "list"
                (t, *_) = take(sliced, *([INT] * n.bit_count()))
                push(STR if name == "STR_SLICE" else (t if t.kind == "list" else list_of(ANY)))
            case "LIST_NEW":
                items = take(*(["a value"] * n))
                elem = _var(pc)  # the items of every list made here, and what goes into them
                for t in items:
                    self.bind(elem, t)
                if self.resolve(elem).kind == "top":
                    raise self.fail(
                        pc,
                        "list items of conflicting types: "
                        f"found {', '.join(map(self.show, items))}",
                    )
                push(list_of(elem))
            case "LIST_INDEX" | "LIST_POP_AT":
                lst, _ = take("list", INT)
                push(self.item(lst))
            case "LIST_POP":
                (lst,) = take("list")
                push(self.item(lst))
            case "LIST_STORE":
                lst = stack[-3][0]
                take("list", INT, lst.args[0] if lst.kind == "list" else "a value")
            case "LIST_APPEND":
                lst = stack[-2][0]
                take("list", lst.args[0] if lst.kind == "list" else "a value")
            case "LIST_CONCAT" | "LIST_EXTEND":
                a, b = (stack[-2][0], stack[-1][0])
                if a.kind == "list" and b.kind == "list":
                    expected_b: Expected = list_of(a.args[0])
                else:
                    expected_b = "list"
                a, b = take("list", expected_b)
                if a.kind != "list":
                    a = list_of(ANY if b.kind != "list" else b.args[0])
                elif name == "LIST_CONCAT" and b.kind == "list":
                    a = list_of(self.join(a.args[0], b.args[0]))  # a new list
                push(a)
            case "LIST_REPEAT" | "LIST_IREPEAT":
                lst, _ = take("list", INT)
                push(lst if lst.kind == "list" else list_of(ANY))
            case "LIST_REVERSED" | "SET_ORDER":
                (lst,) = take("list")
                push(lst if lst.kind == "list" else list_of(ANY))
            case "SORTED" | "SORTED_DESC" | "SORTED_UNIQUE":
                take(types[n])
                push(types[n])
            case "MIN" | "MAX":
                seq = types[n]
                take(seq)
                push(STR if seq.kind == "str" else seq.args[0])
            case "LIST_FIND":
                take(types[n], types[n].args[0])
                push(INT)
            case "TUPLE_NEW":
                items = take(*(["a value"] * n))
                t = tuple_of(*items)
                if _depth(t) > MAX_NESTING:
                    t = TOP
                push(t)
            case "TUPLE_GET":
                t = stack[-1][0]
                if not (t.kind == "any" or (t.kind == "tuple" and n < len(t.args))):
                    raise self.fail(
                        pc,
                        f"expected a tuple of more than {n} items on the stack, "
                        f"found {self.show(t)}",
                    )
                stack.pop()
                push(ANY if t.kind == "any" else t.args[n])
            case "UNPACK_TUPLE":
                t = stack[-1][0]
                if not (t.kind == "any" or (t.kind == "tuple" and n == len(t.args))):
                    raise self.fail(
                        pc, f"expected a tuple of {n} items on the stack, found {self.show(t)}"
                    )
                stack.pop()
                for item in t.args if t.kind == "tuple" else [ANY] * n:
                    push(item)
            case "UNPACK_LIST":
                (lst,) = take("list")
                for _ in range(n):
                    push(self.item(lst))
            case "IS_NONE":
                take("Optional")
                push(BOOL)
            case "OPT_VALUE":
                (o,) = take("Optional")
                inner = _optional_item(o)
                push(ANY if inner is None else inner)  # -1: the VM raises TypeError
            case "BOX":
                v = stack[-1][0]
                kind = _KIND_OF_CODE.get(n)
                if kind is None or not (
                    v.kind == kind
                    or (v.kind in _WORDS and kind in _SCALARS)
                    or (v.kind == "bool" and kind == "int")  # int(flag): the same word, 0 or 1
                    or v.kind == "any"
                ):
                    raise self.fail(
                        pc, f"expected a {kind or f'kind {n}'} to box, found {self.show(v)}"
                    )
                stack.pop()
                push(Type("union", (Type(kind) if v.kind in (*_WORDS, "any", "bool") else v,)))
            case "TAG":
                take("union")
                push(INT)
            case "UNBOX":
                (u,) = take("union")
                # a box known so far to hold other kinds (its type grows where paths join; the
                # VM checks the tag: MemoryFault) gives a value of any type
                alt = next((a for a in u.args if TYPE_CODES[a.kind] == n), None)
                push(ANY if alt is None else alt)
            case _:  # pragma: no cover - every opcode is handled above
                raise AssertionError(name)
        return follow()

    def loop_step(
        self, pc: int, name: str, operand: int, locals_: tuple[Local, ...], stack: tuple[Slot, ...]
    ) -> list[tuple[int, State]]:
        target, state = split_local2(operand)
        reads: list[tuple[int, Expected]]
        if name == "FOR_RANGE":
            reads = [(state, INT), (state + 1, INT), (state + 2, INT)]
        else:
            reads = [(state, "list" if name == "FOR_LIST" else STR), (state + 1, INT)]
        found = [self.read_local(pc, locals_, slot) for slot, _ in reads]
        if any(not self.ok(e, t) for (_, e), t in zip(reads, found, strict=True)):
            want = ", ".join(f"local {slot} {self.show_expected(e)}" for slot, e in reads)
            got = ", ".join(
                f"local {slot} {self.show(t)}" for (slot, _), t in zip(reads, found, strict=True)
            )
            raise self.fail(pc, f"expected loop state {want}, found {got}")
        item = INT if name == "FOR_RANGE" else STR if name == "FOR_STR" else self.item(found[0])
        written, stack2 = self.write_local(
            locals_, stack, state + (0 if name == "FOR_RANGE" else 1), INT
        )
        written, stack2 = self.write_local(written, stack2, target, item)
        return [(pc + 1, (written, stack2)), (pc + 2, (locals_, stack))]


def _refine(locals_: tuple[Local, ...], flag: int) -> tuple[Local, ...]:
    """The locals on a path where local `flag` is nonzero: every local it guards is set."""
    return tuple((t, None if g is not None and flag in g else g) for t, g in locals_)


_I, _F = INT, FLOAT
# Opcodes whose operands and result are fixed types: (operands, deepest first), result.
_SIMPLE: dict[str, tuple[tuple[Expected, ...], Type]] = {
    **{
        k: ((_I, _I), _I)
        for k in ("ADD_I", "SUB_I", "MUL_I", "FLOORDIV_I", "MOD_I", "POW_I", "SHL_I", "SHR_I")
    },
    "ADDI": ((_I,), _I),
    "DIV_I": ((_I, _I), _F),
    **{k: ((_I,), _I) for k in ("NEG_I", "ABS_I", "INVERT_I")},
    **{k: ((_I, _I), BOOL) for k in ("LT_I", "LE_I", "GT_I", "GE_I", "EQ_I", "NE_I")},
    "NOT": ((_I,), BOOL),
    "TRUTH_F": ((_F,), BOOL),
    **{
        k: ((_F, _F), _F)
        for k in ("ADD_F", "SUB_F", "MUL_F", "DIV_F", "FLOORDIV_F", "MOD_F", "POW_F")
    },
    **{k: ((_F,), _F) for k in ("NEG_F", "ABS_F", "SQRT_F", "FLOOR_F", "CEIL_F", "ROUND_F")},
    **{k: ((_F, _F), BOOL) for k in ("LT_F", "LE_F", "GT_F", "GE_F", "EQ_F", "NE_F")},
    "ROUND_F_N": ((_F, _I), _F),
    "FLOAT_OF_STR": ((STR,), _F),
    "I2F": ((_I,), _F),
    "I2F_EXACT": ((_I,), _F),
    "CMP_IF": ((_I, _F), BOOL),
    "F2I": ((_F,), _I),
    "STR_LEN": ((STR,), _I),
    "STR_INDEX": ((STR, _I), STR),
    "STR_CONCAT": ((STR, STR), STR),
    "STR_REPEAT": ((STR, _I), STR),
    "STR_OF_INT": ((_I,), STR),
    "STR_OF_BOOL": ((_I,), STR),
    "INT_OF_STR": ((STR,), _I),
    "ORD": ((STR,), _I),
    "CHR": ((_I,), STR),
    "LIST_LEN": (("list",), _I),
    "LIST_OF_STR": ((STR,), list_of(STR)),
    "LIST_RANGE": ((_I, _I, _I), list_of(_I)),
    "SUM_I": ((list_of(_I),), _I),
    "SUM_F": ((list_of(_F),), _F),
    "STR_SPLIT_WS": ((STR,), list_of(STR)),
    "STR_BIN": ((_I,), STR),
}
# the str methods' instructions (vm/surface.py): the receiver and arguments, the result
_SURFACE_TYPES: dict[str, Type] = {"str": STR, "bool": BOOL, "int": _I, "list[str]": list_of(STR)}
for _m in reversed(STR_METHODS):  # an instruction's first row gives its signature
    _SIMPLE[_m.op] = (
        tuple(_SURFACE_TYPES[t] for t in _m.op_signature[0]),
        _SURFACE_TYPES[_m.op_signature[1]],
    )
assert all(k in {op.name for op in OPS} for k in _SIMPLE)


def check_types(program: Program) -> None:
    """Raise VerifyError unless every function of `program` (already verified) is well typed."""
    budget = [MAX_CHECK_SLOTS]
    for index in range(len(program.functions)):
        _Checker(program, index, budget).run()
