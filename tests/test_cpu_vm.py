"""The C interpreter on the CPU (`vm.cpu`): hand-assembled programs through every opcode, every
trap and every limit; argument and result marshalling; many items over several threads; memory
safety on garbage code; and Python's own semantics at the edges (hypothesis).

Every hand-assembled program also runs on the reference VM (`vm.ref`), which must agree on the
value, the trap and the step count: the oracle chain CPython = reference VM = C VM.
"""

from __future__ import annotations

import functools
import math
import operator
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.lower import Pool
from vm import ExecResult, cpu, ref, semantics
from vm.build import BuildError, c_compiler, flatten, shared_library
from vm.container import Function, Program
from vm.isa import BY_NAME, CMP_IF_OPS, OPS, TRAP_BY_NAME, TRAPS, encode, local2
from vm.limits import Limits
from vm.surface import STR_METHODS
from vm.values import (
    BOOL,
    FLOAT,
    INT,
    INT64_MAX,
    INT64_MIN,
    NONE,
    STR,
    Type,
    bits_float,
    float_bits,
    list_of,
    optional_of,
    tuple_of,
    union_of,
)
from vm.verify import max_depth, stack_depths, verify

# ---- a small assembler ---------------------------------------------------------------------------

USED_OPS: set[str] = set()  # every opcode assembled by this module (at import, in every worker)


class Asm:
    """Builds a Program. A body is a list of "NAME", ("NAME", operand) or ":label". Operands go by
    meaning: a label for jumps, a Type for typed ops, an int or float for CONST, the text for
    STR, a function name for CALL, a trap name for RAISE. max_stack is the verifier's own depth."""

    def __init__(self) -> None:
        self.bodies: list[tuple[str, list[Type], Type, list[Any], int | None]] = []

    def func(
        self, name: str, params: list[Type], ret: Type, body: list[Any], n_locals: int | None = None
    ) -> Asm:
        self.bodies.append((name, params, ret, body, n_locals))
        return self

    def program(self) -> Program:
        from vm.verify import max_depth

        names = [b[0] for b in self.bodies]
        pool = Pool(names)  # the compiler's own tables: each entry once, in order of first use
        functions = []
        for name, params, ret, body, n_locals in self.bodies:
            labels, pc = {}, 0
            for item in body:
                if isinstance(item, str) and item.startswith(":"):
                    labels[item[1:]] = pc
                else:
                    pc += 1
            code = []
            for item in body:
                if isinstance(item, str) and item.startswith(":"):
                    continue
                if isinstance(item, int):
                    code.append(item)
                    continue
                op_name, operand = (item, 0) if isinstance(item, str) else item
                op = BY_NAME[op_name]
                USED_OPS.add(op_name)
                if op.operand == "jump":
                    operand = labels[operand]
                elif op.operand == "type":
                    operand = pool.type(operand)
                elif op.operand == "const":
                    word = float_bits(operand) if isinstance(operand, float) else operand
                    operand = pool.const(word)
                elif op.operand == "str":
                    operand = pool.string(operand)
                elif op.operand == "func":
                    operand = pool.function_index[operand]
                elif op.operand == "trap":
                    operand = TRAP_BY_NAME[operand].code
                code.append(encode(op, operand))
            functions.append(
                Function(
                    name,
                    [pool.type(p) for p in params],
                    pool.type(ret),
                    n_locals if n_locals is not None else len(params),
                    0,
                    code,
                    [1] * len(code),
                )
            )
        program = Program(functions, pool.consts, pool.image, pool.types, "<test>")
        for i, fn in enumerate(functions):
            fn.max_stack = max_depth(program, i)
        return program


def one(params: list[Type], ret: Type, body: list[Any], n_locals: int | None = None) -> Program:
    """A program of one function, f."""
    return Asm().func("f", params, ret, body, n_locals).program()


def key(r: ExecResult) -> tuple:
    """What two backends must agree on; floats by their bits (repr would merge NaN payloads)."""

    def norm(v: Any) -> Any:
        if isinstance(v, float):
            return ("float", float_bits(v))
        if isinstance(v, (list, tuple)):
            return (type(v).__name__, tuple(map(norm, v)))
        return (type(v).__name__, v)

    return (r.trap, r.steps, norm(r.value))


def run(
    program: Program,
    args: list[Any],
    limits: Limits | None = None,
    fn: str | int = "f",
    threads: int = 1,
) -> ExecResult:
    """The C VM's result, after checking that the reference VM gives exactly the same."""
    limits = limits or Limits()
    got = cpu.run_batch([(program, fn, args)], limits, threads=threads)[0]
    want = ref.run(program, fn, args, limits)
    assert key(got) == key(want), f"C VM {got} != reference VM {want}"
    return got


def value(program: Program, *args: Any, limits: Limits | None = None) -> Any:
    r = run(program, list(args), limits)
    assert r.trap is None, f"trapped {r.trap}"
    return r.value


def trap(program: Program, *args: Any, limits: Limits | None = None) -> str | None:
    return run(program, list(args), limits).trap


# ---- programs (built at import so that the coverage test sees every opcode) ----------------------

L = "LOAD"
IDENTITY = {t: one([t], t, [(L, 0), "RET"]) for t in (INT, FLOAT, BOOL, STR, list_of(INT))}


def binary(op: str, a: Type, b: Type, ret: Type) -> Program:
    return one([a, b], ret, [(L, 0), (L, 1), op, "RET"])


def unary(op: str, a: Type, ret: Type) -> Program:
    return one([a], ret, [(L, 0), op, "RET"])


SCALAR_BINARY = {
    **{
        name: binary(name, INT, INT, FLOAT if name in semantics.RESULT_IS_FLOAT else INT)
        for name in semantics.INT_BINARY
    },
    **{
        name: binary(name, FLOAT, FLOAT, FLOAT if name in semantics.RESULT_IS_FLOAT else INT)
        for name in semantics.FLOAT_BINARY
    },
}
SCALAR_UNARY = {
    **{
        name: unary(name, INT, FLOAT if name in semantics.RESULT_IS_FLOAT else INT)
        for name in semantics.INT_UNARY
    },
    **{
        name: unary(name, FLOAT, FLOAT if name in semantics.RESULT_IS_FLOAT else INT)
        for name in semantics.FLOAT_UNARY
    },
}

# 1 2 -> 1 2 1 2 -> 1 2 2 1 -> 1 2 2 -> 1 2 2 2 -> 1 2 4 -> 1 6 -> -5
STACK_OPS = one(
    [], INT,
    [("LOADI", 1), ("LOADI", 2), "DUP2", "SWAP", "POP", "NOP", "DUP",
     "ADD_I", "ADD_I", "SUB_I", "RET"],
)  # fmt: skip
CONSTS = one(
    [], INT, [("LOADI", -5), ("CONST", 1 << 40), "ADD_I", ("LOADI", -(1 << 23)), "ADD_I", "RET"]
)
FLOAT_CONST = one([], FLOAT, [("CONST", 2.5), ("CONST", 0.25), "ADD_F", "RET"])
LOCALS = one([INT], INT, [(L, 0), ("STORE", 1), (L, 1), (L, 1), "MUL_I", "RET"], n_locals=2)
STR_CONST = one([], INT, [("STR", "héllo😀"), "STR_LEN", "RET"])
# s = 0; while n: s += n; n -= 1; return s  (6 + 11 * n steps)
COUNTDOWN = one(
    [INT], INT,
    [("LOADI", 0), ("STORE", 1),
     ":top", (L, 0), ("JUMP_IF_FALSE", "end"),
     (L, 1), (L, 0), "ADD_I", ("STORE", 1),
     (L, 0), ("LOADI", 1), "SUB_I", ("STORE", 0), ("JUMP", "top"),
     ":end", (L, 1), "RET"],
    n_locals=2,
)  # fmt: skip
TRUTHY = one(
    [INT], INT, [(L, 0), ("JUMP_IF_TRUE", "t"), ("LOADI", 0), "RET", ":t", ("LOADI", 1), "RET"]
)
CALLS = (
    Asm()
    .func("f", [INT], INT, [(L, 0), ("LOADI", 3), ("CALL", "g"), ("LOADI", 2), "MUL_I", "RET"])
    .func("g", [INT, INT], INT, [(L, 0), (L, 1), "SUB_I", ("STORE", 2), (L, 2), "RET"], n_locals=3)
    .program()
)
# depth(n) = 0 if n == 0 else 1 + depth(n - 1): n + 1 frames
DEPTH = one(
    [INT], INT,
    [(L, 0), ("JUMP_IF_TRUE", "rec"), ("LOADI", 0), "RET",
     ":rec", (L, 0), ("LOADI", 1), "SUB_I", ("CALL", "f"), ("LOADI", 1), "ADD_I", "RET"],
)  # fmt: skip
# superinstructions: fused compare-and-branch, two loads, add immediate
JUMP_CMP = {
    name: one([INT, INT], INT, [("LOAD2", local2(0, 1)), (name, "yes"), ("LOADI", 0), "RET",
                                ":yes", ("LOADI", 1), "RET"])
    for name in ("JUMP_LT_I", "JUMP_LE_I", "JUMP_GT_I", "JUMP_GE_I", "JUMP_EQ_I", "JUMP_NE_I")
}  # fmt: skip
ADDI = {k: one([INT], INT, [(L, 0), ("ADDI", k), "RET"]) for k in (5, -1, -(1 << 23), (1 << 23) - 1)}
# acc = 0; last = -7; for last in range(a, b, c): acc = (acc * 31 + last % 1000003) % 1000003
# return (acc, last); the range state lives in locals 5..7
FOR_RANGE = one(
    [INT, INT, INT], tuple_of(INT, INT),
    [("LOADI", -7), ("STORE", 3), (L, 0), ("STORE", 5), (L, 1), ("STORE", 6), (L, 2), ("STORE", 7),
     ("JUMP", "test"),
     ":top", (L, 4), ("LOADI", 31), "MUL_I", (L, 3), ("CONST", 1000003), "MOD_I", "ADD_I",
     ("CONST", 1000003), "MOD_I", ("STORE", 4),
     ":test", ("FOR_RANGE", local2(3, 5)), ("JUMP", "top"),
     (L, 4), (L, 3), ("TUPLE_NEW", 2), "RET"],
    n_locals=8,
)  # fmt: skip
# out = []; for x in xs: out.append(x); if x == 3: xs.append(4)   (the length is read every step)
FOR_LIST = one(
    [list_of(INT)], list_of(INT),
    [("LIST_NEW", 0), ("STORE", 1), (L, 0), ("STORE", 3), ("LOADI", 0), ("STORE", 4), ("JUMP", "test"),
     ":top", (L, 1), (L, 2), "LIST_APPEND", (L, 2), ("LOADI", 3), ("JUMP_NE_I", "test"),
     (L, 0), ("LOADI", 4), "LIST_APPEND",
     ":test", ("FOR_LIST", local2(2, 3)), ("JUMP", "top"),
     (L, 1), "RET"],
    n_locals=5,
)  # fmt: skip
# r = ""; c = "?"; for c in s: r = c + r; return r + c
FOR_STR = one(
    [STR], STR,
    [("STR", "?"), ("STORE", 2), ("STR", ""), ("STORE", 1), (L, 0), ("STORE", 3), ("JUMP", "test"),
     ":top", (L, 2), (L, 1), "STR_CONCAT", ("STORE", 1),
     ":test", ("FOR_STR", local2(2, 3)), ("JUMP", "top"),
     (L, 1), (L, 2), "STR_CONCAT", "RET"],
    n_locals=5,
)  # fmt: skip
RAISES = {
    t.name: one([], INT, [("RAISE", t.name), ("LOADI", 0), "RET"]) for t in TRAPS if t.name != "OK"
}

S, LI, LS = STR, list_of(INT), list_of(STR)
STR_INDEX = binary("STR_INDEX", S, INT, S)
STR_CONCAT = binary("STR_CONCAT", S, S, S)
STR_REPEAT = binary("STR_REPEAT", S, INT, S)
STR_OF_INT = unary("STR_OF_INT", INT, S)
STR_OF_BOOL = unary("STR_OF_BOOL", BOOL, S)
INT_OF_STR = unary("INT_OF_STR", S, INT)
ORD = unary("ORD", S, INT)
CHR = unary("CHR", INT, S)
LIST_OF_STR = unary("LIST_OF_STR", S, LS)
LIST_LEN = unary("LIST_LEN", LI, INT)
LIST_INDEX = binary("LIST_INDEX", LI, INT, INT)
LIST_CONCAT = binary("LIST_CONCAT", LI, LI, LI)
LIST_REPEAT = binary("LIST_REPEAT", LI, INT, LI)
LIST_REVERSED = unary("LIST_REVERSED", LI, LI)
LIST_POP = one([LI], tuple_of(INT, LI), [(L, 0), "LIST_POP", (L, 0), ("TUPLE_NEW", 2), "RET"])
LIST_POP_AT = one(
    [LI, INT], tuple_of(INT, LI), [(L, 0), (L, 1), "LIST_POP_AT", (L, 0), ("TUPLE_NEW", 2), "RET"]
)
LIST_STORE = one([LI, INT, INT], LI, [(L, 0), (L, 1), (L, 2), "LIST_STORE", (L, 0), "RET"])
LIST_NEW = one([INT, INT], LI, [(L, 0), (L, 1), ("LIST_NEW", 2), "RET"])
EMPTY_LIST = one([], LI, [("LIST_NEW", 0), "RET"])
LIST_RANGE = one([INT, INT, INT], LI, [(L, 0), (L, 1), (L, 2), "LIST_RANGE", "RET"])
SUM_I = unary("SUM_I", LI, INT)
SUM_F = unary("SUM_F", list_of(FLOAT), FLOAT)
# xs = []; for i in range(n): xs.append(i); return xs
APPEND_N = one(
    [INT], LI,
    [("LIST_NEW", 0), ("STORE", 1), ("LOADI", 0), ("STORE", 2),
     ":top", (L, 2), (L, 0), "LT_I", ("JUMP_IF_FALSE", "end"),
     (L, 1), (L, 2), "LIST_APPEND", (L, 2), ("LOADI", 1), "ADD_I", ("STORE", 2), ("JUMP", "top"),
     ":end", (L, 1), "RET"],
    n_locals=3,
)  # fmt: skip
# l = [[1]] * 3; l[0].append(2); return l   (the items are shared, as in Python)
ALIASING = one(
    [], list_of(LI),
    [("LOADI", 1), ("LIST_NEW", 1), ("LIST_NEW", 1), ("LOADI", 3), "LIST_REPEAT",
     "DUP", ("LOADI", 0), "LIST_INDEX", ("LOADI", 2), "LIST_APPEND", "RET"],
)  # fmt: skip
TUPLES = one(
    [tuple_of(INT, STR)],
    tuple_of(STR, INT, INT),
    [(L, 0), ("UNPACK_TUPLE", 2), "SWAP", (L, 0), ("TUPLE_GET", 0), ("TUPLE_NEW", 3), "RET"],
)
# a += b; a *= k; return a   (in place: the same list comes back)
EXTEND_REPEAT = one([LI, LI, INT], LI, [(L, 0), (L, 1), "LIST_EXTEND", (L, 2), "LIST_IREPEAT", "RET"])
UNPACK_LIST = one([LI], INT, [(L, 0), ("UNPACK_LIST", 3), "SUB_I", "SUB_I", "RET"])
IS_EMPTY_STR = one([S], BOOL, [(L, 0), "STR_LEN", "NOT", "RET"])


def slicer(op: str, t: Type, flags: int) -> Program:
    params = [t] + [INT] * bin(flags).count("1")
    return one(params, t, [(L, i) for i in range(len(params))] + [(op, flags), "RET"])


SLICES = {
    (op, flags): slicer(op, t, flags)
    for op, t in (("STR_SLICE", S), ("LIST_SLICE", LI))
    for flags in range(8)
}

COMPARED_TYPES = [
    INT,
    FLOAT,
    BOOL,
    STR,
    LI,
    LS,
    list_of(FLOAT),
    list_of(LI),
    tuple_of(INT, STR),
    list_of(tuple_of(STR, FLOAT)),
    tuple_of(),
]
COMPARE = {
    (op, t): one([t, t], BOOL, [(L, 0), (L, 1), (op, t), "RET"])
    for op in ("EQ", "LT", "LE")
    for t in COMPARED_TYPES
}
CONTAINS = {
    t: one(
        [t.args[0] if t.kind == "list" else STR, t], BOOL, [(L, 0), (L, 1), ("CONTAINS", t), "RET"]
    )
    for t in (S, LI, LS, list_of(FLOAT), list_of(LI))
}
CONTAINS_TUPLE = one(
    [INT, tuple_of(INT, INT, INT)],
    BOOL,
    [(L, 0), (L, 1), ("CONTAINS", tuple_of(INT, INT, INT)), "RET"],
)
SEQ_TYPES = [LI, LS, list_of(FLOAT), list_of(LI), list_of(tuple_of(INT, STR)), list_of(BOOL)]
SORTS = {
    (op, t): one([t], t, [(L, 0), (op, t), "RET"])
    for op in ("SORTED", "SORTED_DESC")
    for t in SEQ_TYPES
}
EXTREMES = {
    (op, t): one([t], t.args[0] if t.kind == "list" else S, [(L, 0), (op, t), "RET"])
    for op in ("MIN", "MAX")
    for t in [*SEQ_TYPES, S]
}

# str methods: (opcode, Python method) taking s, taking (s, x), and the rest
STR_UNARY = {
    op: one([S], BOOL if op.startswith("STR_IS") else S, [(L, 0), op, "RET"])
    for op in (
        "STR_LOWER", "STR_UPPER", "STR_SWAPCASE", "STR_STRIP", "STR_LSTRIP", "STR_RSTRIP",
        "STR_ISALPHA", "STR_ISDIGIT", "STR_ISALNUM", "STR_ISSPACE", "STR_ISUPPER", "STR_ISLOWER",
    )
}  # fmt: skip
STR_BINARY = {
    op: one([S, S], INT if op in ("STR_FIND", "STR_COUNT") else BOOL, [(L, 0), (L, 1), op, "RET"])
    for op in ("STR_FIND", "STR_COUNT", "STR_STARTSWITH", "STR_ENDSWITH")
}
STR_REPLACE = one([S, S, S], S, [(L, 0), (L, 1), (L, 2), "STR_REPLACE", "RET"])
STR_SPLIT = one([S, S], LS, [(L, 0), (L, 1), "STR_SPLIT", "RET"])
STR_SPLIT_WS = one([S], LS, [(L, 0), "STR_SPLIT_WS", "RET"])
STR_JOIN = one([S, LS], S, [(L, 0), (L, 1), "STR_JOIN", "RET"])
STR_BIN = one([INT], S, [(L, 0), "STR_BIN", "RET"])
# every str method's instruction (vm/surface.py, an instruction's first row), from the table: a
# new row's instruction is exercised here with no edit (test_surface_ops_match_python)
_SURFACE_TYPE = {"str": S, "bool": BOOL, "int": INT, "list[str]": LS}
SURFACE_OPS = {
    op: (
        m,
        one(
            [_SURFACE_TYPE[t] for t in m.op_signature[0]],
            _SURFACE_TYPE[m.result],
            [*((L, i) for i in range(1 + m.op_arguments)), op, "RET"],
        ),
    )
    for op, m in reversed({m.op: m for m in reversed(STR_METHODS)}.items())
}
UNIQUE = {t: one([t], t, [(L, 0), ("SORTED_UNIQUE", t), "RET"]) for t in (LI, LS, list_of(BOOL))}
FIND = {
    t: one([t, t.args[0]], INT, [(L, 0), (L, 1), ("LIST_FIND", t), "RET"])
    for t in (LI, LS, list_of(FLOAT), list_of(tuple_of(INT, STR)))
}


# one run of each hand-assembled program (the switch-dispatch test replays them)
SAMPLE_RUNS = [
    (STACK_OPS, []), (CONSTS, []), (FLOAT_CONST, []), (LOCALS, [5]), (STR_CONST, []),
    (COUNTDOWN, [30]), (TRUTHY, [2]), (DEPTH, [7]), (STR_INDEX, ["abc", -2]),
    (STR_CONCAT, ["a", "b"]), (STR_REPEAT, ["ab", 3]), (STR_OF_INT, [-120]), (STR_OF_BOOL, [True]),
    (INT_OF_STR, [" -1_0 "]), (ORD, ["x"]), (CHR, [66]),
    (LIST_OF_STR, ["xyz"]), (LIST_LEN, [[1]]), (LIST_INDEX, [[1, 2], 5]), (LIST_CONCAT, [[1], [2]]),
    (LIST_REPEAT, [[1], 3]), (LIST_REVERSED, [[1, 2]]), (LIST_POP, [[4, 5]]),
    (LIST_POP_AT, [[4, 5], 0]),
    (LIST_STORE, [[1, 2], 0, 7]), (LIST_NEW, [1, 2]), (EMPTY_LIST, []), (LIST_RANGE, [10, 0, -3]),
    (SUM_I, [[1, 2]]), (SUM_F, [[0.5, 0.25]]), (APPEND_N, [9]), (ALIASING, []),
    (TUPLES, [(1, "a")]),
    (UNPACK_LIST, [[1, 2, 3]]), (IS_EMPTY_STR, ["a"]), (CONTAINS_TUPLE, [3, (1, 2, 3)]),
    *((RAISES[name], []) for name in sorted(RAISES)),
    *((p, [1.5, -0.0]) for name, p in SCALAR_BINARY.items() if name.endswith("_F")),
    *((p, [7, -3]) for name, p in SCALAR_BINARY.items() if not name.endswith("_F")),
    *((program, ["abcdef" if op == "STR_SLICE" else [1, 2, 3, 4], *[-1, 5, 2][: flags.bit_count()]])
      for (op, flags), program in SLICES.items()),
    *((p, [[3, 1, 2]]) for (op, t), p in SORTS.items() if t == LI),
    *((p, [["b", "a"]]) for (op, t), p in EXTREMES.items() if t == LS),
    *((p, [[1, 2], [1, 3]]) for (op, t), p in COMPARE.items() if t == LI),
    (CONTAINS[LS], ["a", ["b", "a"]]), (CONTAINS[S], ["bc", "abcd"]),
    *((p, [" Ab1 "]) for p in STR_UNARY.values()),
    *((p, ["abab", "ab"]) for p in STR_BINARY.values()),
    (STR_REPLACE, ["abab", "b", "xy"]), (STR_SPLIT, ["a,b", ","]), (STR_SPLIT_WS, [" a  b "]),
    (STR_JOIN, ["-", ["a", "b"]]), (STR_BIN, [-5]), (UNIQUE[LI], [[3, 1, 3]]),
    (FIND[LI], [[3, 1, 3], 1]),
]  # fmt: skip


# ---- coverage ------------------------------------------------------------------------------------


def test_in_place_extend_and_repeat():
    assert value(EXTEND_REPEAT, [1], [2, 3], 2) == [1, 2, 3, 1, 2, 3]
    assert value(EXTEND_REPEAT, [1], [], 0) == []
    assert value(EXTEND_REPEAT, [], [], 5) == []
    # growth: max(size, 2 * cap, 4) slots; [1] extended by [2] grows to 4, tripled to max(6, 8)
    args_words = (3 + 1) * 2
    assert run(EXTEND_REPEAT, [[1], [2], 3], limits=Limits(heap_words=args_words + 4 + 8)).trap is None
    assert run(EXTEND_REPEAT, [[1], [2], 3], limits=Limits(heap_words=args_words + 4 + 7)).trap == "HeapExhausted"


_METHOD_OF = {op: op.removeprefix("STR_").lower() for op in [*STR_UNARY, *STR_BINARY]}
_TEXT = st.text(alphabet=st.sampled_from(list("ab AB1_\t\n\x0b\x1c\x1f\xa0\xe9")), max_size=10)


@given(_TEXT, _TEXT, _TEXT)
@settings(max_examples=150, deadline=None)
def test_str_methods_match_python(s: str, x: str, y: str) -> None:
    """Each str-method opcode is Python's method on ASCII text (case, classes, whitespace beyond
    ASCII are Unsupported), on the C VM and the reference VM alike (`run` checks both)."""
    for op, program in STR_UNARY.items():
        want = getattr(s, _METHOD_OF[op])()
        assert (value(program, s) == want) if s.isascii() else trap(program, s) == "Unsupported"
    for op, program in STR_BINARY.items():
        assert value(program, s, x) == getattr(s, _METHOD_OF[op])(x)
    assert value(STR_REPLACE, s, x, y) == s.replace(x, y)
    assert (value(STR_SPLIT, s, x) == s.split(x)) if x else trap(STR_SPLIT, s, x) == "ValueError"
    if s.isascii():
        assert value(STR_SPLIT_WS, s) == s.split()
    else:
        assert trap(STR_SPLIT_WS, s) == "Unsupported"
    assert value(STR_JOIN, x, [s, y, s]) == x.join([s, y, s])
    assert value(STR_JOIN, x, []) == ""


@given(_TEXT, _TEXT, st.integers(-3, 14))
@settings(max_examples=150, deadline=None)
def test_surface_ops_match_python(s: str, x: str, k: int) -> None:
    """Each str method's instruction (vm/surface.py) is Python's method, on the C VM and the
    reference VM alike: Unsupported where the table says ASCII only, ValueError where Python
    raises it (split's empty separator)."""
    for op, (m, program) in SURFACE_OPS.items():
        arg = {"str": x, "int": k, "list[str]": [s, x, s]}[m.argument]
        args = [arg] * m.op_arguments
        receiver = s if m.argument != "list[str]" else x
        if m.ascii_only and not receiver.isascii():
            assert trap(program, receiver, *args) == "Unsupported", op
            continue
        try:
            want = getattr(receiver, m.name)(*args)
        except ValueError:
            assert trap(program, receiver, *args) == "ValueError", op
            continue
        assert value(program, receiver, *args) == want, op


@given(st.integers(INT64_MIN, INT64_MAX))
@settings(max_examples=100, deadline=None)
def test_bin_matches_python(a: int) -> None:
    assert value(STR_BIN, a) == bin(a)


@given(st.lists(st.integers(-3, 3)), st.lists(st.sampled_from(["", "a", "b", "ab"])))
@settings(max_examples=100, deadline=None)
def test_sorted_unique_is_sorted_set(xs: list[int], ss: list[str]) -> None:
    assert value(UNIQUE[LI], xs) == sorted(set(xs))
    assert value(UNIQUE[LS], ss) == sorted(set(ss))
    assert value(UNIQUE[list_of(BOOL)], [x > 0 for x in xs]) == sorted({x > 0 for x in xs})


@given(st.lists(st.integers(-2, 2)), st.integers(-2, 2), st.lists(st.sampled_from(["", "a"])))
@settings(max_examples=100, deadline=None)
def test_list_find(xs: list[int], x: int, ss: list[str]) -> None:
    assert value(FIND[LI], xs, x) == (xs.index(x) if x in xs else -1)
    assert value(FIND[LS], ss, "a") == (ss.index("a") if "a" in ss else -1)
    pairs = [(v, "k") for v in xs]
    want = xs.index(x) if x in xs else -1
    assert value(FIND[list_of(tuple_of(INT, STR))], pairs, (x, "k")) == want


def test_list_find_nan_is_unsupported() -> None:
    nan = float("nan")
    assert trap(FIND[list_of(FLOAT)], [1.0, nan], 2.0) == "Unsupported"
    assert value(FIND[list_of(FLOAT)], [1.0, nan], 1.0) == 0  # stops at the first equal item


def test_sorted_unique_heap() -> None:
    """Needs 3 + 2n words free, as SORTED; keeps 3 + n (the capacity stays n)."""
    args = 3 + 4  # the argument list
    assert trap(UNIQUE[LI], [2, 2, 1, 2], limits=Limits(heap_words=args + 11)) is None
    assert trap(UNIQUE[LI], [2, 2, 1, 2], limits=Limits(heap_words=args + 10)) == "HeapExhausted"


def test_bin_edges() -> None:
    for a in (0, 1, -1, 2, INT64_MAX, INT64_MIN, INT64_MIN + 1):
        assert value(STR_BIN, a) == bin(a)


def test_str_methods_heap_accounting() -> None:
    """Results are charged as new strings (1 + n) and lists (3 + n, then each piece)."""
    args = 1 + 4 + 1 + 1 + 1 + 2  # "abab", "b", "xy" marshalled
    assert trap(STR_REPLACE, "abab", "b", "xy", limits=Limits(heap_words=args + 7)) is None
    tight = Limits(heap_words=args + 6)
    assert trap(STR_REPLACE, "abab", "b", "xy", limits=tight) == "HeapExhausted"
    args = 1 + 3 + 1 + 1  # "a,b", ","
    assert trap(STR_SPLIT, "a,b", ",", limits=Limits(heap_words=args + 5 + 2 + 2)) is None
    tight = Limits(heap_words=args + 5 + 2 + 1)
    assert trap(STR_SPLIT, "a,b", ",", limits=tight) == "HeapExhausted"
    huge = Limits(heap_words=64)
    assert trap(STR_REPLACE, "a" * 8, "", "b" * 40, limits=huge) == "HeapExhausted"


# ---- optionals: -1 for None, else a 1-item tuple ------------------------------------------------

OI, OS = optional_of(INT), optional_of(STR)
IS_NONE = {t: one([t], BOOL, [(L, 0), "IS_NONE", "RET"]) for t in (OI, OS)}
OPT_VALUE = {t: one([t], t.args[0], [(L, 0), "OPT_VALUE", "RET"]) for t in (OI, OS)}
# x if x > 0 else None, boxed with TUPLE_NEW 1
SOME_IF_POSITIVE = one(
    [INT], OI,
    [(L, 0), (L, 0), ("LOADI", 0), ("JUMP_GT_I", "some"), "POP", ("LOADI", -1), "RET",
     ":some", ("TUPLE_NEW", 1), "RET"],
)  # fmt: skip
OPT_IDENTITY = {
    t: one([t], t, [(L, 0), "RET"])
    for t in (OI, OS, list_of(OI), tuple_of(OI, optional_of(list_of(STR))))
}
OPT_EQ = {t: one([t, t], BOOL, [(L, 0), (L, 1), ("EQ", t), "RET"]) for t in (OI, list_of(OS))}
OPT_LT = one([list_of(OI), list_of(OI)], BOOL, [(L, 0), (L, 1), ("LT", list_of(OI)), "RET"])


@given(st.one_of(st.none(), st.integers(-3, 3)), st.one_of(st.none(), st.text(max_size=3)))
@settings(max_examples=60, deadline=None)
def test_optionals(x: int | None, s: str | None) -> None:
    assert value(IS_NONE[OI], x) is (x is None) and value(IS_NONE[OS], s) is (s is None)
    assert (trap(OPT_VALUE[OI], x) == "TypeError") is (x is None)
    if s is not None:
        assert value(OPT_VALUE[OS], s) == s
    assert value(OPT_IDENTITY[OI], x) == x and value(OPT_IDENTITY[OS], s) == s
    assert value(OPT_IDENTITY[list_of(OI)], [x, 1, None]) == [x, 1, None]
    pair = (x, None if s is None else [s, "b"])
    assert value(OPT_IDENTITY[tuple_of(OI, optional_of(list_of(STR)))], pair) == pair
    assert value(OPT_EQ[OI], x, 1) is (x == 1) and value(OPT_EQ[OI], x, None) is (x is None)
    assert value(OPT_EQ[list_of(OS)], [s], [None]) is (s is None)


# ---- unions: a box (tag, value), the tag the kind's type code (BOX, TAG, UNBOX, appended) -----

U_NUM = union_of(INT, FLOAT)
U_ISN = union_of(NONE, INT, STR)
assert U_NUM is not None and U_ISN is not None
# x as an int if x >= 0, else float(x): boxed with its kind's tag
BOX_SIGNED = one(
    [INT], U_NUM,
    [(L, 0), (L, 0), ("LOADI", 0), ("JUMP_GE_I", "int"), "I2F", ("BOX", 3), "RET",
     ":int", ("BOX", 2), "RET"],
)  # fmt: skip
UNION_TAG = {t: one([t], INT, [(L, 0), "TAG", "RET"]) for t in (U_NUM, U_ISN)}
UNBOX_INT = one([U_NUM], INT, [(L, 0), ("UNBOX", 2), "RET"])  # MemoryFault for a float
UNION_IDENTITY = {
    t: one([t], t, [(L, 0), "RET"]) for t in (U_NUM, U_ISN, list_of(U_NUM), tuple_of(U_ISN, INT))
}
UNION_EQ = {t: one([t, t], BOOL, [(L, 0), (L, 1), ("EQ", t), "RET"]) for t in (U_NUM, U_ISN)}
UNION_LT = one([list_of(U_NUM)] * 2, BOOL, [(L, 0), (L, 1), ("LT", list_of(U_NUM)), "RET"])
UNION_SORTED = one([list_of(U_NUM)], list_of(U_NUM), [(L, 0), ("SORTED", list_of(U_NUM)), "RET"])
numbers = st.one_of(
    st.integers(-3, 3),
    st.floats(-3, 3, allow_nan=False),
    st.sampled_from([2**60 + 1, -(2**62), 2.0**60, float("inf"), -2.5, 2**53 + 1, 2.0**53]),
)
isn = st.one_of(st.none(), st.integers(-3, 3), st.text(max_size=2))


@given(numbers, numbers, isn, isn)
@settings(max_examples=80, deadline=None)
def test_unions(a: int | float, b: int | float, x: int | str | None, y: int | str | None) -> None:
    assert value(UNION_IDENTITY[U_NUM], a) == a and type(value(UNION_IDENTITY[U_NUM], a)) is type(a)
    assert value(UNION_IDENTITY[U_ISN], x) == x and value(UNION_TAG[U_ISN], x) in (0, 2, 4)
    assert value(UNION_IDENTITY[list_of(U_NUM)], [a, b, 1]) == [a, b, 1]
    assert value(UNION_IDENTITY[tuple_of(U_ISN, INT)], (x, 1)) == (x, 1)
    assert value(UNION_TAG[U_NUM], a) == (3 if isinstance(a, float) else 2)
    assert (trap(UNBOX_INT, a) == "MemoryFault") is isinstance(a, float)
    # an int and a float compare exactly, as in CPython (2**60 + 1 against a float too)
    assert value(UNION_EQ[U_NUM], a, b) is (a == b)
    assert value(UNION_EQ[U_ISN], x, y) is (x == y)
    assert value(UNION_LT, [a], [b]) is ([a] < [b])
    assert value(UNION_SORTED, [a, b, 0]) == sorted([a, b, 0])
    assert trap(UNION_EQ[U_NUM], a, math.nan) == "Unsupported"  # a NaN met in a container


def test_union_results() -> None:
    assert value(BOX_SIGNED, 5) == 5 and value(BOX_SIGNED, -5) == -5.0
    assert type(value(BOX_SIGNED, -5)) is float
    assert trap(BOX_SIGNED, 5, limits=Limits(heap_words=2)) == "HeapExhausted"  # the box: 3 words
    bad = one([INT], INT, [(L, 0), "TAG", "RET"])  # ill-typed: an int is no box
    assert trap(bad, 3) == "MemoryFault"


def test_optional_results_and_ordering() -> None:
    assert value(SOME_IF_POSITIVE, 5) == 5 and value(SOME_IF_POSITIVE, -5) is None
    assert trap(SOME_IF_POSITIVE, 5, limits=Limits(heap_words=1)) == "HeapExhausted"  # the box
    assert value(OPT_LT, [None, 1], [None, 2]) is True  # None == None, then 1 < 2
    assert trap(OPT_LT, [None], [1]) == "TypeError"  # as CPython: None < 1
    bad = one([INT], BOOL, [(L, 0), "IS_NONE", "RET"])  # ill-typed: an int is not an Optional
    assert trap(bad, 7) == "MemoryFault"


def test_every_opcode_is_exercised():
    missing = {op.name for op in OPS} - USED_OPS
    assert not missing, f"opcodes no test program uses: {sorted(missing)}"


# ---- stack, constants, control, calls ------------------------------------------------------------


def test_stack_and_constants():
    assert value(STACK_OPS) == -5
    assert value(CONSTS) == (1 << 40) - 5 - (1 << 23)
    assert value(FLOAT_CONST) == 2.75
    assert value(LOCALS, 12) == 144
    assert value(STR_CONST) == 6


def test_control_and_steps():
    r = run(COUNTDOWN, [10])
    assert (r.value, r.steps) == (55, 6 + 11 * 10)
    assert value(TRUTHY, 0) == 0 and value(TRUTHY, -3) == 1


def test_fused_compare_and_branch():
    for name, program in JUMP_CMP.items():
        relation = getattr(operator, name.removeprefix("JUMP_").removesuffix("_I").lower())
        for a, b in [(1, 2), (2, 1), (3, 3), (INT64_MIN, INT64_MAX), (-1, -1)]:
            r = run(program, [a, b])
            assert (r.value, r.steps) == (int(relation(a, b)), 4)


def test_add_immediate():
    for k, program in ADDI.items():
        for a in (0, 7, INT64_MAX, INT64_MIN):
            want = a + k
            r = run(program, [a])
            assert r.value == want if INT64_MIN <= want <= INT64_MAX else r.trap == "Overflow"


def _range_loop(a: int, b: int, c: int) -> tuple[int, int]:
    acc, last = 0, -7
    for last in range(a, b, c):
        acc = (acc * 31 + last % 1000003) % 1000003
    return acc, last


@pytest.mark.parametrize(
    "a, b, c",
    [(0, 10, 1), (0, 10, 3), (10, 0, -3), (5, 5, 1), (5, 6, -1), (-4, 4, 2), (0, 0, 7),
     (INT64_MAX - 5, INT64_MAX, 2), (INT64_MAX - 1, INT64_MAX, INT64_MAX),
     (INT64_MIN + 5, INT64_MIN, -2), (INT64_MIN + 1, INT64_MIN, INT64_MIN), (INT64_MIN, INT64_MAX, INT64_MAX)],
)  # fmt: skip
def test_for_range_step(a, b, c):
    r = run(FOR_RANGE, [a, b, c])
    n = len(range(a, b, c))
    assert (r.value, r.steps) == (_range_loop(a, b, c), 9 + 11 * n + 1 + 4)


def test_for_range_with_step_zero_runs_out_of_fuel():
    assert trap(FOR_RANGE, 0, 5, 0) is None  # cur > stop is false: no iterations
    assert trap(FOR_RANGE, 5, 0, 0, limits=Limits(fuel=1000)) == "FuelExhausted"


def test_for_list_and_for_str_steps():
    assert value(FOR_LIST, [1, 2, 3, 5]) == [1, 2, 3, 5, 4]
    assert value(FOR_LIST, [3, 3]) == [3, 3, 4, 4]
    assert value(FOR_LIST, []) == []
    assert value(FOR_STR, "abc😀") == "😀cba😀"
    assert value(FOR_STR, "") == "?"
    # three distinct characters are three 2-word strings: the arguments (1 + 3), the characters
    # and 4 concatenations pass with room, one word less fails at a step
    assert trap(FOR_STR, "abc", limits=Limits(heap_words=4 + 3 * 2 + (2 + 3 + 4) + 5)) is None
    assert trap(FOR_STR, "abc", limits=Limits(heap_words=4 + 3 * 2 + (2 + 3 + 4) + 4)) == "HeapExhausted"


def test_one_character_strings_below_128_are_made_once_per_run():
    # "aaa": 'a' costs 2 words the first time, nothing after (README.md's 1-character strings)
    assert trap(FOR_STR, "aaa", limits=Limits(heap_words=4 + 2 + (2 + 3 + 4) + 5)) is None
    assert trap(FOR_STR, "aaa", limits=Limits(heap_words=4 + 2 + (2 + 3 + 4) + 4)) == "HeapExhausted"
    # at or above code point 128 every character is a new string
    assert trap(FOR_STR, "ééé", limits=Limits(heap_words=4 + 3 * 2 + (2 + 3 + 4) + 5)) is None
    assert trap(FOR_STR, "ééé", limits=Limits(heap_words=4 + 3 * 2 + (2 + 3 + 4) + 4)) == "HeapExhausted"
    assert trap(FOR_STR, "\x7f\x80", limits=Limits(heap_words=3 + 2 * 2 + (2 + 3) + 4)) is None
    assert trap(FOR_STR, "\x7f\x80", limits=Limits(heap_words=3 + 2 * 2 + (2 + 3) + 3)) == "HeapExhausted"
    # list(s): the list (3 + n), then 'a' once and 'b' once
    assert value(LIST_OF_STR, "aab", limits=Limits(heap_words=4 + 6 + 4)) == ["a", "a", "b"]
    assert trap(LIST_OF_STR, "aab", limits=Limits(heap_words=4 + 6 + 3)) == "HeapExhausted"
    assert trap(LIST_OF_STR, "aé", limits=Limits(heap_words=3 + 5 + 3)) == "HeapExhausted"
    # one cache per run: each run of a batch pays for its first 'a' again
    program = FOR_STR
    limits = Limits(heap_words=4 + 2 + (2 + 3 + 4) + 5)
    results = cpu.run_batch([(program, "f", ["aaa"])] * 3, limits, threads=1)
    assert [r.trap for r in results] == [None, None, None]
    assert [r.value for r in results] == ["aaaa"] * 3


def test_calls():
    r = run(CALLS, [10])
    assert (r.value, r.steps) == (14, 12)
    assert value(DEPTH, 50) == 50


@pytest.mark.parametrize("name", sorted(RAISES))
def test_raise_every_trap_code(name):
    r = run(RAISES[name], [])
    assert (r.trap, r.steps, r.value) == (name, 1, None)


# ---- the scalar instructions against vm.semantics (Python's own operators) -----------------------

INT_EDGES = [
    0, 1, -1, 2, -2, 3, -3, 7, -7, 10, 62, 63, 64, 65, 100, 2**31, -(2**31), 2**32 + 1,
    2**53, 2**53 + 1, -(2**53) - 1, 3037000499, 3037000500, -3037000500, 2**62,
    INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1,
]  # fmt: skip
FLOAT_EDGES = [
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.0, -2.0, 3.0, -3.0, 7.0, -7.5, 0.1, 10.0,
    1e16 + 2, 2.0**53, 2.0**63, -(2.0**63), 1e308, -1e308, 5e-324, -5e-324, 1e-300, 1 / 3,
    math.inf, -math.inf, math.nan, -math.nan, 0.9999999999999999, 1.0000000000000002,
    1023.0, 1024.0, -1075.0,
]  # fmt: skip
ints = st.one_of(
    st.sampled_from(INT_EDGES), st.integers(-1000, 1000), st.integers(INT64_MIN, INT64_MAX)
)
floats = st.one_of(
    st.sampled_from(FLOAT_EDGES),
    st.floats(-1e6, 1e6),
    st.floats(allow_nan=True, allow_infinity=True),
)


def expected(fn: Any, *args: Any) -> tuple[str | None, Any]:
    try:
        result = fn(*args)
    except semantics.Trap as t:
        return t.name, None
    return None, float_bits(result) if isinstance(result, float) else int(result)


def got(r: ExecResult) -> tuple[str | None, Any]:
    if r.trap:
        return r.trap, None
    return None, float_bits(r.value) if isinstance(r.value, float) else int(r.value)


def check_scalar(name: str, table: dict, program: Program, cases: list[tuple]) -> None:
    results = cpu.run_batch([(program, "f", list(c)) for c in cases], Limits(), threads=2)
    for case, r in zip(cases, results, strict=True):
        assert got(r) == expected(table[name], *case), f"{name}{case}: C VM gave {r}"
        assert r.steps == (len(case) + 2 if r.trap is None else len(case) + 1)


def _edges(name: str, int_table: dict[str, Any]) -> list[Any]:
    """The edge operands of instruction `name`: ints (and their negations) or floats."""
    if name in int_table:
        return INT_EDGES + [-e for e in INT_EDGES if e != INT64_MIN]
    return FLOAT_EDGES


@pytest.mark.parametrize("name", sorted(SCALAR_BINARY))
def test_scalar_binary_edges(name):
    table = {**semantics.INT_BINARY, **semantics.FLOAT_BINARY}
    edges = _edges(name, semantics.INT_BINARY)
    check_scalar(name, table, SCALAR_BINARY[name], [(a, b) for a in edges for b in edges])


@pytest.mark.parametrize("name", sorted(SCALAR_UNARY))
def test_scalar_unary_edges(name):
    table = {**semantics.INT_UNARY, **semantics.FLOAT_UNARY}
    check_scalar(name, table, SCALAR_UNARY[name], [(a,) for a in _edges(name, semantics.INT_UNARY)])


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.tuples(ints, ints), min_size=1, max_size=40),
    st.lists(st.tuples(floats, floats), min_size=1, max_size=40),
)
def test_scalar_ops_random(int_pairs, float_pairs):
    for name in semantics.INT_BINARY:
        check_scalar(name, semantics.INT_BINARY, SCALAR_BINARY[name], int_pairs)
    for name in semantics.FLOAT_BINARY:
        check_scalar(name, semantics.FLOAT_BINARY, SCALAR_BINARY[name], float_pairs)
    for name in semantics.INT_UNARY:
        check_scalar(name, semantics.INT_UNARY, SCALAR_UNARY[name], [(a,) for a, _ in int_pairs])
    for name in semantics.FLOAT_UNARY:
        check_scalar(
            name, semantics.FLOAT_UNARY, SCALAR_UNARY[name], [(x,) for x, _ in float_pairs]
        )


def test_float_floor_division_and_modulo_match_python_on_random_doubles():
    rng = random.Random(7)
    pairs = [
        (bits_float(rng.getrandbits(64) - (1 << 63)), bits_float(rng.getrandbits(64) - (1 << 63)))
        for _ in range(3000)
    ]
    pairs += [
        (rng.uniform(-1e3, 1e3), rng.choice([-1.0, 1.0]) * rng.uniform(1e-3, 10))
        for _ in range(3000)
    ]
    for name in ("FLOORDIV_F", "MOD_F", "POW_F", "DIV_F"):
        check_scalar(name, semantics.FLOAT_BINARY, SCALAR_BINARY[name], pairs)


# ---- strings -------------------------------------------------------------------------------------


def test_string_instructions():
    assert value(STR_INDEX, "héllo", -1) == "o"
    assert value(STR_INDEX, "😀x", 0) == "😀"
    assert trap(STR_INDEX, "abc", 3) == "IndexError"
    assert trap(STR_INDEX, "", 0) == "IndexError"
    assert value(STR_CONCAT, "ab", "çd") == "abçd"
    assert value(STR_CONCAT, "", "") == ""
    assert [value(STR_REPEAT, "ab", n) for n in (-5, 0, 1, 3)] == ["", "", "ab", "ababab"]
    assert value(STR_OF_BOOL, True) == "True" and value(STR_OF_BOOL, False) == "False"
    assert value(ORD, "😀") == 0x1F600
    assert trap(ORD, "ab") == "TypeError" and trap(ORD, "") == "TypeError"
    assert value(CHR, 0x1F600) == "😀" and value(CHR, 0) == "\0"
    assert trap(CHR, -1) == "ValueError" and trap(CHR, 0x110000) == "ValueError"
    assert value(LIST_OF_STR, "aé😀") == ["a", "é", "😀"]
    assert value(IS_EMPTY_STR, "") is True


@settings(max_examples=40, deadline=None)
@given(st.lists(ints, min_size=1, max_size=30))
def test_str_of_int_matches_python(values):
    results = cpu.run_batch([(STR_OF_INT, "f", [v]) for v in values], Limits(), threads=1)
    assert [r.value for r in results] == [str(v) for v in values]


def python_int(s: str) -> tuple[str | None, int | None]:
    """CPython's int(s), with kiln's Unsupported (non-ASCII) and Overflow (past 64 bits)."""
    if not s.isascii():
        return "Unsupported", None
    try:
        v = int(s)
    except ValueError:
        return "ValueError", None
    return ("Overflow", None) if not INT64_MIN <= v <= INT64_MAX else (None, v)


INT_TEXT = [
    "0", "-0", "+7", "  42\n", "1_000", "1__0", "_1", "1_", "", " ", "-", "+-1", "12a", "٣",
    "\x0b5\x0c", "\x1c5\x1f", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "-9223372036854775809", "000000000000000000000000001",
    "99999999999999999999x", "1 2", "\x85 1", "0x10", "1e3", "\t-3_3 ",
]  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(INT_TEXT),
            st.text(alphabet="0123456789_+- \t\n\r\x0b\x0c\x1cxé", max_size=24),
        ),
        min_size=1,
        max_size=30,
    )
)
def test_int_of_str_matches_python(texts):
    results = cpu.run_batch([(INT_OF_STR, "f", [s]) for s in texts], Limits(), threads=1)
    assert [(r.trap, r.value) for r in results] == [python_int(s) for s in texts]


def test_int_of_str_edges_as_cpython():
    # CPython's int() strips only ASCII isspace, not the separators \x1c-\x1f that str.strip() takes
    for text in ("\x1c5", "5\x1f", "\x0b5\x0c"):
        assert run(INT_OF_STR, [text]).trap == python_int(text)[0]
    # at most 4300 digits (sys.int_max_str_digits), leading zeros counted, underscores not
    assert value(INT_OF_STR, "0" * 4299 + "7") == 7
    assert value(INT_OF_STR, "_".join("0" * 4299 + "7")) == 7
    assert trap(INT_OF_STR, "0" * 4300 + "7") == "ValueError" == python_int("0" * 4300 + "7")[0]
    assert trap(INT_OF_STR, "9" * 4301) == "ValueError"  # not Overflow: the digit limit comes first


slice_arg = st.one_of(
    st.none(), st.integers(-12, 12), st.sampled_from([INT64_MIN, INT64_MAX, INT64_MIN + 1, 0])
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-5, 5), max_size=10),
    st.lists(st.tuples(slice_arg, slice_arg, slice_arg), min_size=1, max_size=20),
)
def test_slicing_matches_python(items, slices):
    text = "".join(chr(0x61 + (v % 26)) for v in items)
    batch, want = [], []
    for start, stop, step in slices:
        flags = (start is not None) | (stop is not None) << 1 | (step is not None) << 2
        extra = [v for v in (start, stop, step) if v is not None]
        for op, seq in (("STR_SLICE", text), ("LIST_SLICE", list(items))):
            batch.append((SLICES[op, flags], "f", [seq, *extra]))
            want.append(("ValueError", None) if step == 0 else (None, seq[start:stop:step]))
    assert [(r.trap, r.value) for r in cpu.run_batch(batch, Limits(), threads=2)] == want


# ---- lists and tuples ----------------------------------------------------------------------------


def test_list_instructions():
    assert value(LIST_NEW, 4, 5) == [4, 5]
    assert value(EMPTY_LIST) == []
    assert value(LIST_LEN, [1, 2, 3]) == 3
    assert value(LIST_INDEX, [1, 2, 3], -3) == 1
    assert (
        trap(LIST_INDEX, [1, 2, 3], 3) == "IndexError"
        and trap(LIST_INDEX, [1, 2, 3], -4) == "IndexError"
    )
    assert value(LIST_STORE, [1, 2, 3], -1, 9) == [1, 2, 9]
    assert trap(LIST_STORE, [], 0, 9) == "IndexError"
    assert value(LIST_POP, [1, 2, 3]) == (3, [1, 2])
    assert trap(LIST_POP, []) == "IndexError"
    assert value(LIST_POP_AT, [1, 2, 3, 4], 1) == (2, [1, 3, 4])
    assert value(LIST_POP_AT, [1, 2, 3, 4], -4) == (1, [2, 3, 4])
    assert trap(LIST_POP_AT, [1], 1) == "IndexError" and trap(LIST_POP_AT, [], 0) == "IndexError"
    assert value(LIST_CONCAT, [1], [2, 3]) == [1, 2, 3]
    assert [value(LIST_REPEAT, [1, 2], n) for n in (-1, 0, 2)] == [[], [], [1, 2, 1, 2]]
    assert value(LIST_REVERSED, [1, 2, 3]) == [3, 2, 1]
    assert value(APPEND_N, 0) == [] and value(APPEND_N, 37) == list(range(37))
    assert value(ALIASING) == [[1, 2], [1, 2], [1, 2]]
    assert value(UNPACK_LIST, [10, 3, 2]) == 10 - (3 - 2)
    assert trap(UNPACK_LIST, [1, 2]) == "ValueError"
    assert value(TUPLES, (7, "x")) == ("x", 7, 7)
    assert value(SUM_I, [1, 2, 3]) == 6 and value(SUM_I, []) == 0
    assert trap(SUM_I, [INT64_MAX, 1, -5]) == "Overflow"
    assert trap(SUM_F, []) == "Unsupported"
    xs = [0.1] * 10 + [1e100, -1e100, 3.5]
    assert value(SUM_F, xs) == functools.reduce(operator.add, xs, 0.0)
    assert math.copysign(1, value(SUM_F, [-0.0])) == 1.0  # 0.0 + -0.0, as CPython 3.11


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(INT_EDGES + [-5, 5, 0]),
            st.sampled_from(INT_EDGES + [-5, 5, 0]),
            st.sampled_from([1, -1, 2, -3, 0, 7, INT64_MIN, INT64_MAX]),
        ),
        min_size=1,
        max_size=20,
    )
)
def test_range_matches_python(triples):
    limits = Limits(heap_words=1 << 12)
    results = cpu.run_batch([(LIST_RANGE, "f", list(t)) for t in triples], limits, threads=1)
    for (a, b, c), r in zip(triples, results, strict=True):
        if c == 0:
            assert r.trap == "ValueError"
        elif 3 + (b - a + c - (1 if c > 0 else -1)) // c > limits.heap_words:
            assert r.trap == "HeapExhausted"
        else:
            assert r.value == list(range(a, b, c))


# ---- comparisons, containment, sorting, min and max ----------------------------------------------

ASCII = st.text(alphabet="abcé😀", max_size=4)
PLAIN_FLOATS = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, -1.5, math.inf]), st.floats(-3, 3, allow_nan=False)
)


def values_of(t: Type, nan: bool = False) -> st.SearchStrategy:
    return {
        "int": st.integers(-3, 3) | st.sampled_from([INT64_MIN, INT64_MAX]),
        "bool": st.booleans(),
        "float": (PLAIN_FLOATS | st.just(math.nan)) if nan else PLAIN_FLOATS,
        "str": ASCII,
        "list": st.lists(values_of(t.args[0], nan), max_size=4)
        if t.kind == "list"
        else st.nothing(),
        "tuple": st.tuples(*(values_of(a, nan) for a in t.args))
        if t.kind == "tuple"
        else st.nothing(),
    }[t.kind]


@st.composite
def typed_pairs(draw: Any) -> tuple[Type, list[tuple[Any, Any]]]:
    t = draw(st.sampled_from(COMPARED_TYPES))
    return t, draw(st.lists(st.tuples(values_of(t), values_of(t)), min_size=1, max_size=20))


@settings(max_examples=60, deadline=None)
@given(typed_pairs())
def test_comparisons_match_python(typed):
    t, pairs = typed
    for op, fn in (("EQ", operator.eq), ("LT", operator.lt), ("LE", operator.le)):
        results = cpu.run_batch(
            [(COMPARE[op, t], "f", [a, b]) for a, b in pairs], Limits(), threads=1
        )
        assert [r.value for r in results] == [fn(a, b) for a, b in pairs], (op, t)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(SEQ_TYPES[:4]).flatmap(
        lambda t: st.tuples(
            st.just(t), st.lists(values_of(t.args[0]), max_size=6), values_of(t.args[0])
        )
    )
)
def test_contains_matches_python(case):
    t, items, x = case
    assert run(CONTAINS[t], [x, items]).value is (x in items)


def test_contains_of_strings_and_tuples():
    for needle, hay in (
        ("", ""),
        ("", "ab"),
        ("b", "abc"),
        ("bc", "abc"),
        ("abcd", "abc"),
        ("ca", "abc"),
        ("😀", "a😀"),
        ("a", ""),  # 1-character needles take their own loop in interp.h
        ("a", "a"),
        ("e", "aeiou"),
        ("u", "aeiou"),
        ("x", "aeiou"),
    ):
        assert value(CONTAINS[S], needle, hay) is (needle in hay)
    assert (
        value(CONTAINS_TUPLE, 2, (1, 2, 3)) is True and value(CONTAINS_TUPLE, 4, (1, 2, 3)) is False
    )


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SEQ_TYPES).flatmap(lambda t: st.tuples(st.just(t), values_of(t))))
def test_sorted_min_max_match_python(case):
    t, items = case
    assert key(run(SORTS["SORTED", t], [items])) == key(ExecResult(sorted(items), None, 3))
    assert key(run(SORTS["SORTED_DESC", t], [items])) == key(
        ExecResult(sorted(items, reverse=True), None, 3)
    )
    for op, fn in (("MIN", min), ("MAX", max)):
        r = run(EXTREMES[op, t], [items])
        assert key(r) == (
            key(ExecResult(fn(items), None, 3)) if items else ("ValueError", 2, ("NoneType", None))
        )


def test_min_max_of_strings():
    assert value(EXTREMES["MIN", S], "hello") == "e" and value(EXTREMES["MAX", S], "hello") == "o"
    assert trap(EXTREMES["MAX", S], "") == "ValueError"


def test_nan_inside_containers():
    lf = list_of(FLOAT)
    nan = math.nan
    assert value(COMPARE["EQ", FLOAT], nan, nan) is False  # not in a container: plain IEEE
    assert trap(COMPARE["EQ", lf], [nan], [nan]) == "Unsupported"
    assert trap(COMPARE["EQ", lf], [nan], [nan, 1.0]) == "Unsupported"  # README: no length shortcut
    assert value(COMPARE["LT", lf], [1.0, nan], [2.0, nan]) is True  # decided before the NaN
    assert trap(CONTAINS[lf], nan, [1.0, nan]) == "Unsupported"
    assert value(CONTAINS[lf], 1.0, [1.0, nan]) is True  # stops at the first equal item
    assert trap(SORTS["SORTED", lf], [1.0, nan]) == "Unsupported"
    assert value(SORTS["SORTED", lf], [nan]) != [0.0]  # nothing compared: no trap
    assert math.isnan(value(EXTREMES["MIN", lf], [nan, 1.0]))  # plain < for a list of floats
    assert value(EXTREMES["MIN", lf], [1.0, nan]) == 1.0
    assert [math.copysign(1, v) for v in value(SORTS["SORTED", lf], [0.0, -0.0, -1.0])] == [
        -1,
        1,
        -1,
    ]  # stable


# ---- traps and limits ----------------------------------------------------------------------------


def test_every_trap_is_reached():
    reached = {trap(RAISES[name]) for name in RAISES}
    reached |= {
        trap(SCALAR_BINARY["FLOORDIV_I"], 1, 0),
        trap(LIST_INDEX, [], 0),
        trap(CHR, -1),
        trap(ORD, ""),
        trap(SCALAR_BINARY["POW_F"], 10.0, 400.0),
        trap(COUNTDOWN, 10, limits=Limits(fuel=5)),
        trap(SCALAR_BINARY["ADD_I"], INT64_MAX, 1),
        trap(APPEND_N, 100, limits=Limits(heap_words=50)),
        trap(DEPTH, 100, limits=Limits(stack_words=40)),
        trap(DEPTH, 100, limits=Limits(max_call_depth=10)),
        trap(SCALAR_BINARY["POW_I"], 2, -1),
    }
    bad = one([INT], INT, [(L, 0), "LIST_LEN", "RET"])  # ill-typed: an int used as a list
    reached.add(trap(bad, 12345))
    assert reached == {t.name for t in TRAPS if t.name != "OK"}


def test_fuel_counts_every_instruction():
    needed = run(COUNTDOWN, [20]).steps
    assert run(COUNTDOWN, [20], Limits(fuel=needed)).value == 210
    r = run(COUNTDOWN, [20], Limits(fuel=needed - 1))
    assert (r.trap, r.steps) == ("FuelExhausted", needed - 1)
    assert run(COUNTDOWN, [20], Limits(fuel=1)).steps == 1


def test_call_depth_limit():
    assert value(DEPTH, 9, limits=Limits(max_call_depth=10)) == 9  # 10 frames
    r = run(DEPTH, [10], Limits(max_call_depth=10))
    assert r.trap == "RecursionError"
    assert trap(DEPTH, 0, limits=Limits(max_call_depth=1)) is None


def test_stack_limit():
    fn = DEPTH.functions[0]
    frame = fn.n_locals + fn.max_stack
    assert trap(DEPTH, 0, limits=Limits(stack_words=frame)) is None
    r = run(DEPTH, [0], Limits(stack_words=frame - 1))
    assert (r.trap, r.steps) == ("StackExhausted", 0)
    # each call's frame starts where its arguments were on the caller's operand stack
    deepest_ok = max(n for n in range(60) if run(DEPTH, [n], Limits(stack_words=40)).trap is None)
    assert run(DEPTH, [deepest_ok + 1], Limits(stack_words=40)).trap == "StackExhausted"


def test_heap_accounting():
    # APPEND_N: LIST_NEW 0 is 3 words, then the blocks appends grow into: 4 (items 1-4), 8 (5-8)
    # and 16 (9-16): 31 words for 16 items, the old blocks abandoned
    assert trap(APPEND_N, 16, limits=Limits(heap_words=31)) is None
    assert trap(APPEND_N, 16, limits=Limits(heap_words=30)) == "HeapExhausted"
    # arguments: list[int] of 5 is 3 + 5 words, before the first instruction
    assert trap(IDENTITY[LI], [1, 2, 3, 4, 5], limits=Limits(heap_words=8)) is None
    r = run(IDENTITY[LI], [[1, 2, 3, 4, 5]], Limits(heap_words=7))
    assert (r.trap, r.steps) == ("HeapExhausted", 0)
    # a result marshalled past heap_words: one shared string 1000 times over
    big = one([S], LS, [(L, 0), ("LIST_NEW", 1), ("LOADI", 1000), "LIST_REPEAT", "RET"])
    assert trap(big, "abcdefgh", limits=Limits(heap_words=2000)) == "HeapExhausted"
    assert len(value(big, "abcdefgh", limits=Limits(heap_words=9001))) == 1000
    # sizes past 64 bits exhaust the heap instead of wrapping
    assert trap(STR_REPEAT, "ab", INT64_MAX) == "HeapExhausted"
    assert trap(LIST_REPEAT, [1, 2, 3], INT64_MAX // 2) == "HeapExhausted"
    assert trap(LIST_RANGE, INT64_MIN, INT64_MAX, 1) == "HeapExhausted"
    assert value(LIST_REPEAT, [], INT64_MAX) == []
    # sorted needs 3 + 2n free but keeps 3 + n; list(s) is 3 + n, then 2 per character
    sort = SORTS["SORTED", LI]
    assert trap(sort, [3, 1, 2], limits=Limits(heap_words=6 + 9)) is None
    assert trap(sort, [3, 1, 2], limits=Limits(heap_words=6 + 8)) == "HeapExhausted"
    assert trap(LIST_OF_STR, "abc", limits=Limits(heap_words=4 + 6 + 6)) is None
    assert trap(LIST_OF_STR, "abc", limits=Limits(heap_words=4 + 6 + 5)) == "HeapExhausted"


# ---- marshalling ---------------------------------------------------------------------------------

NESTED_TYPES = [
    INT, FLOAT, BOOL, STR, NONE, list_of(LI), LS, tuple_of(INT, STR, list_of(FLOAT)),
    list_of(tuple_of(STR, LI)),
    tuple_of(), list_of(tuple_of()), tuple_of(tuple_of(BOOL, list_of(LS))),
]  # fmt: skip
ECHO = {t: one([t], t, [(L, 0), "RET"]) for t in NESTED_TYPES}


def nested_values(t: Type) -> st.SearchStrategy:
    if t.kind == "none":
        return st.none()
    if t.kind == "float":
        return st.floats(allow_nan=True)
    if t.kind == "str":
        return st.text(max_size=5)
    if t.kind == "int":
        return ints
    if t.kind == "list":
        return st.lists(nested_values(t.args[0]), max_size=4)
    if t.kind == "tuple":
        return st.tuples(*map(nested_values, t.args))
    return values_of(t)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(NESTED_TYPES).flatmap(
        lambda t: st.tuples(st.just(t), st.lists(nested_values(t), min_size=1, max_size=8))
    )
)
def test_arguments_and_results_round_trip(case):
    t, values = case
    results = cpu.run_batch([(ECHO[t], "f", [v]) for v in values], Limits(), threads=2)
    for v, r in zip(values, results, strict=True):
        assert key(r) == key(ExecResult(v, None, 2))


def test_wrong_arguments_are_refused_with_the_parameter():
    with pytest.raises(
        ValueError, match=r"f\(\): argument 0 does not match parameter type list\[int\]"
    ):
        cpu.run_batch([(IDENTITY[LI], "f", [["x"]])], Limits())
    with pytest.raises(ValueError, match="takes 1 arguments, got 2"):
        cpu.run_batch([(IDENTITY[INT], "f", [1, 2])], Limits())
    with pytest.raises(KeyError, match="no function 'g'"):
        cpu.run_batch([(IDENTITY[INT], "g", [1])], Limits())
    with pytest.raises(ValueError, match="no function #3"):
        cpu.run_batch([(IDENTITY[INT], 3, [1])], Limits())


def test_function_by_index_and_empty_batch():
    assert cpu.run_batch([(CALLS, 1, [5, 2])], Limits())[0].value == 3
    assert cpu.run_batch([], Limits()) == []


# ---- threads -------------------------------------------------------------------------------------


def test_many_items_over_threads_equal_one_thread():
    rng = random.Random(3)
    items = []
    for _ in range(600):
        pick = rng.randrange(5)
        if pick == 0:
            items.append((COUNTDOWN, "f", [rng.randrange(200)]))
        elif pick == 1:
            items.append((DEPTH, "f", [rng.randrange(40)]))
        elif pick == 2:
            items.append(
                (
                    SORTS["SORTED", LS],
                    "f",
                    [[rng.choice("abcxyz") * rng.randrange(3) for _ in range(rng.randrange(8))]],
                )
            )
        elif pick == 3:
            items.append((APPEND_N, "f", [rng.randrange(100)]))
        else:
            items.append(
                (SCALAR_BINARY["FLOORDIV_I"], "f", [rng.randrange(-9, 9), rng.randrange(-3, 3)])
            )
    limits = Limits(fuel=1500, max_call_depth=30)
    one_thread = [key(r) for r in cpu.run_batch(items, limits, threads=1)]
    assert [key(r) for r in cpu.run_batch(items, limits, threads=4)] == one_thread
    assert [key(r) for r in cpu.run_batch(items, limits, threads=3)] == one_thread
    assert [key(ref.run(p, f, a, limits)) for p, f, a in items[:120]] == one_thread[:120]


# ---- memory safety -------------------------------------------------------------------------------

TRAP_NAMES = {t.name for t in TRAPS}


def garbage_program(rng: random.Random, opcodes_only: bool) -> Program:
    types = [INT, STR, LI, LS, tuple_of(INT, STR), list_of(LI), FLOAT]
    functions = []
    for k in range(rng.randrange(1, 4)):
        code = []
        for _ in range(rng.randrange(1, 40)):
            if opcodes_only:
                op = rng.randrange(len(OPS))
                operand = rng.choice([0, 1, 2, 3, rng.randrange(16), rng.randrange(1 << 24)])
                code.append(op | operand << 8)
            else:
                code.append(rng.getrandbits(32))
        n_params = rng.randrange(3)
        functions.append(
            Function(f"g{k}", [rng.randrange(len(types)) for _ in range(n_params)],
                     rng.randrange(len(types)),
                     n_params + rng.randrange(3), rng.randrange(8), code, [0] * len(code))
        )  # fmt: skip
    image = [3, 97, 98, 99, 0, 1, 0x1F600]
    return Program(functions, [rng.getrandbits(64) - (1 << 63) for _ in range(3)], image, types)


def arguments_for(program: Program, rng: random.Random) -> list[Any]:
    samples = {"int": lambda: rng.randrange(-20, 20), "str": lambda: "ab", "float": lambda: 1.5}
    out = []
    for t in program.signature(0)[0]:
        if t.kind in samples:
            out.append(samples[t.kind]())
        elif t == LI:
            out.append([1, 2, 3])
        elif t == LS:
            out.append(["x", "yz"])
        elif t.kind == "tuple":
            out.append((4, "q"))
        else:
            out.append([[1], [2, 3]])
    return out


@pytest.mark.parametrize("opcodes_only", [True, False], ids=["valid-opcodes", "random-words"])
def test_garbage_code_traps_and_never_crashes(opcodes_only):
    rng = random.Random(11 + opcodes_only)
    sample = garbage_program(random.Random(1), True)
    assert all(
        (word & 0xFF) < len(OPS) for fn in sample.functions for word in fn.code
    )  # sanity of the generator
    items = []
    for _ in range(3000):
        program = garbage_program(rng, opcodes_only)
        items.append((program, 0, arguments_for(program, rng)))
    limits = Limits(fuel=3000, stack_words=48, max_call_depth=8, heap_words=256)
    results = cpu.run_batch(items, limits, threads=4, verify=False)
    assert all(r.trap is None or r.trap in TRAP_NAMES for r in results)
    assert sum(r.trap == "MemoryFault" for r in results) > 100  # the checks were exercised
    again = cpu.run_batch(items, limits, threads=1, verify=False)
    assert [key(r) for r in again] == [key(r) for r in results]  # deterministic, whatever garbage


def test_switch_dispatch_equals_threaded_dispatch():
    """The CUDA build dispatches with the switch: the same cases, run here on the CPU."""
    rng = random.Random(5)
    items = [(p, "f", a) for p, a in SAMPLE_RUNS]
    for _ in range(1500):
        program = garbage_program(rng, True)
        items.append((program, 0, arguments_for(program, rng)))
    limits = Limits(fuel=3000, stack_words=64, max_call_depth=8, heap_words=512)
    threaded = [key(r) for r in cpu.run_batch(items, limits, threads=2, verify=False)]
    assert [
        key(r) for r in cpu.run_batch(items, limits, threads=2, verify=False, computed_goto=False)
    ] == threaded


def test_jumps_past_the_end_and_bad_raise_are_memory_faults():
    far = Program(
        [Function("f", [], 0, 0, 1, [encode(BY_NAME["JUMP"], 50), encode(BY_NAME["RET"])], [0, 0])],
        [],
        [],
        [INT],
    )
    assert cpu.run_batch([(far, "f", [])], Limits(), verify=False)[0] == ExecResult(
        None, "MemoryFault", 2
    )
    raise0 = Program(
        [Function("f", [], 0, 0, 1, [encode(BY_NAME["RAISE"], 0)], [0])], [], [], [INT]
    )
    assert cpu.run_batch([(raise0, "f", [])], Limits(), verify=False)[0] == ExecResult(
        None, "MemoryFault", 1
    )


def test_limits_too_large_for_memory_are_a_clear_error():
    with pytest.raises(MemoryError, match="could not allocate"):
        cpu.run_batch([(IDENTITY[INT], "f", [1])], Limits(heap_words=1 << 61))


def test_malformed_tables_are_memory_faults():
    bad_locals = Program(
        [Function("f", [0], 0, 0, 2, [encode(BY_NAME["LOAD"]), encode(BY_NAME["RET"])], [0, 0])],
        [],
        [],
        [INT],
    )
    assert cpu.run_batch([(bad_locals, "f", [1])], Limits(), verify=False)[0].trap == "MemoryFault"
    bad_type = Program(
        [Function("f", [], 5, 0, 1, [encode(BY_NAME["LOADI"]), encode(BY_NAME["RET"])], [0, 0])],
        [],
        [],
        [INT],
    )
    assert cpu.run_batch([(bad_type, "f", [])], Limits(), verify=False)[0].trap == "MemoryFault"
    off_the_end = Program(
        [Function("f", [], 0, 0, 1, [encode(BY_NAME["LOADI"])], [0])], [], [], [INT]
    )
    assert cpu.run_batch([(off_the_end, "f", [])], Limits(), verify=False)[0] == ExecResult(
        None, "MemoryFault", 2
    )
    with pytest.raises(ValueError, match="does not fit"):
        flatten(Program([Function("f", [], 0, 0, 1, [-1], [0])], [], [], [INT]))


# ---- building ------------------------------------------------------------------------------------


def test_library_build_is_cached_by_content(tmp_path, monkeypatch):
    monkeypatch.setenv("KILN_CACHE_DIR", str(tmp_path / "cache"))
    source = tmp_path / "tiny.c"
    source.write_text("int kiln_tiny(void) { return 42; }\n")
    flags = ["-O0", "-fPIC", "-shared"]
    first = shared_library("tiny", [source], flags)
    assert first.parent == tmp_path / "cache" and first.exists()
    assert shared_library("tiny", [source], flags) == first
    assert shared_library("tiny", [source], [*flags, "-g"]) != first
    source.write_text("int kiln_tiny(void) { return 43; }\n")
    assert shared_library("tiny", [source], flags) != first
    assert not list((tmp_path / "cache").glob(".tiny-*")), "temporary files are renamed or removed"


def test_missing_compiler_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(BuildError, match="no C compiler found"):
        c_compiler()
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    monkeypatch.setenv("KILN_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "x.c").write_text("int x;\n")
    with pytest.raises(BuildError, match="cannot run the C compiler"):
        shared_library("tiny", [tmp_path / "x.c"], [])


# ---- round(x, n) (ROUND_F_N, appended) ------------------------------------------------------------

ROUND_N = one([FLOAT, INT], FLOAT, [(L, 0), (L, 1), "ROUND_F_N", "RET"])


def test_round_ndigits_both_vms() -> None:
    """CPython's round(x, n) where kiln computes it exactly; the fallback trap Unsupported where
    it would need more than 53 bits (the same trap on both VMs, run() compares them)."""
    for x, n in [(2.675, 2), (0.125, 2), (0.375, 2), (-0.001, 2), (1.5, 0), (2.5, 0),
                 (123.456, 1), (1e300, 3), (5e-324, 5), (-7.25, 1), (0.1, 22), (3.0, -1)]:
        r = run(ROUND_N, [x, n])
        if r.trap is None:
            assert float_bits(r.value) == float_bits(round(x, n)), (x, n, r.value)
        else:
            assert r.trap == "Unsupported", (x, n, r.trap)
    assert trap(ROUND_N, 0.1, 30) == "Unsupported" and trap(ROUND_N, 12.5, -1) == "Unsupported"
    assert math.isnan(value(ROUND_N, math.nan, 2)) and value(ROUND_N, -math.inf, 2) == -math.inf


# ---- an int against a float, exactly (CMP_IF, appended) -------------------------------------------

CMP_IF = {
    name: one([INT, FLOAT], BOOL, [(L, 0), (L, 1), ("CMP_IF", k), "RET"])
    for k, name in enumerate(CMP_IF_OPS)
}


def test_int_float_comparison_is_exact_on_both_vms() -> None:
    """`i < f` as CPython: exact past 2**53 (no rounding of the int), at the ends of 64 bits and
    of the doubles, a NaN unordered (only != holds); run() compares the two VMs."""
    ints = [0, 1, -1, 2**53, 2**53 + 1, -(2**53) - 1, 9999999999999999, INT64_MIN, INT64_MAX]
    floats = [0.0, -0.0, 0.5, -1.5, 2.0**53, 2.0**53 + 2, 1e16, 2.0**63, -(2.0**63), 1e300,
              math.inf, -math.inf, math.nan]
    for name, program in CMP_IF.items():
        py = getattr(operator, name.lower())
        for i in ints:
            for f in floats:
                assert value(program, i, f) == py(i, f), (name, i, f)


# ---- float(str) (FLOAT_OF_STR, appended) ----------------------------------------------------------

FLOAT_OF_STR = one([STR], FLOAT, [(L, 0), "FLOAT_OF_STR", "RET"])

FLOAT_TEXTS = [
    " 1.5 ", "1_0.5", "1_0.5e1_0", "1._5", "1_.5", "_1", "1__0", "infinity", "-iNf", "nan",
    "-nan", "+nAn", "inf_", "1e", "e5", ".", ".5", "5.", "1e+5", "1e-05", "+.5e-3", "0x10",
    "1.5\x00", "  ", "in f", "1 e5", "\uff11", "\x1c1\x1c", "3.14159", "0.1", "123456789012345",
    "1234567890123456", "1e22", "1e23", "100e21", "0e999", "-0.0", "1e-22", "1e-23", "12.5e-21",
    "", "1.e5", "000123.4500e-3", "9007199254740993", "1e-0000000000000000000000000001",
]


def test_float_of_str_both_vms() -> None:
    """CPython's float(s) (the same bits; ValueError alike) where one double operation gives it
    exactly; the fallback trap Unsupported elsewhere (the same on both VMs: run() compares)."""
    rng = random.Random(14)
    texts = list(FLOAT_TEXTS)
    for _ in range(400):
        texts.append("".join(rng.choice("0123456789_.eE+- \tinfaINFty") for _ in range(rng.randint(0, 9))))
        digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(0, 17)))
        texts.append(rng.choice(["", "-", " +"]) + digits + rng.choice(["", ".", ".25", ".0"])
                     + rng.choice(["", "e", "e-", "E+"]) + str(rng.randint(0, 30)))
    outcomes = set()
    for s in texts:
        r = run(FLOAT_OF_STR, [s])
        try:
            want: Any = float(s)
        except ValueError:
            want = "ValueError"
        if r.trap is None:
            assert float_bits(r.value) == float_bits(want), (s, r.value)
        else:
            assert r.trap in ("Unsupported", want), (s, r.trap)
        outcomes.add(r.trap)
    assert outcomes == {None, "ValueError", "Unsupported"}


# ---- list(set(xs)) of ints in CPython's order (SET_ORDER, appended) -----------------------------

SET_ORDER = one([list_of(INT)], list_of(INT), [(L, 0), "SET_ORDER", "RET"])


def test_set_order_is_cpythons() -> None:
    """The distinct ints in the order CPython iterates set(xs) (its hash table simulated: small
    and large, negative, colliding values, resizes), on both VMs."""
    rng = random.Random(34)
    cases = [[], [5, 3, 5, 2, 3, 3, 9, 0, 123], [-1, -2, 1, 2], [8, 16, 0, 24], [2**61 - 1, 0, 2**61]]
    for _ in range(300):
        n = rng.randint(0, 80)
        span = rng.choice([10, 100, 10**6, 2**63 - 1])
        cases.append([rng.randint(-span - 1 if span > 10**6 else -span, span) for _ in range(n)])
    for xs in cases:
        assert value(SET_ORDER, xs) == list(set(xs)), xs
    assert semantics.set_order(list(range(5000, 0, -3))) == list(set(range(5000, 0, -3)))


def test_scratch_kept_between_batches_gives_the_same_results():
    # cpu.c keeps a finished batch's scratch for the next batch with the same limits: a reused
    # heap holds the last run's words, which no run may read before writing
    small, big = Limits(heap_words=64), Limits(heap_words=4096)
    for limits in (small, big, small, big):
        for _ in range(2):
            assert [r.trap for r in cpu.run_batch([(FOR_STR, "f", ["abc" * 5])] * 4, limits)] == (
                ["HeapExhausted"] * 4 if limits is small else [None] * 4
            )
            assert value(LIST_OF_STR, "xyz", limits=big) == ["x", "y", "z"]
    cpu.drain_scratch()
    assert value(FOR_STR, "ab", limits=big) == "bab"


# ---- the interpreter's own verifier and its fast handlers ----------------------------------------


def test_every_verified_sample_runs_fast():
    """kiln_program_verify accepts what vm/verify.py accepts (here: every sample and bench
    program), so the compiler's programs get the fast handlers."""
    from bench.vm import CASES, PROGRAMS
    from compiler import compile_source

    programs = [p for p, _ in SAMPLE_RUNS]
    programs += [compile_source((PROGRAMS / f).read_text(), f) for f, _, _ in CASES]
    for program in programs:
        verify(program)
        assert cpu.program_status(program) == 2, program.source_name


def _mutated(program: Program, rng: random.Random) -> Program:
    """`program` with one or two code words changed: a new operand near the old, or a new opcode."""
    functions = []
    for fn in program.functions:
        code = list(fn.code)
        for _ in range(rng.randrange(1, 3)):
            pc = rng.randrange(len(code))
            if rng.random() < 0.7:
                code[pc] = (code[pc] & 0xFF) | ((code[pc] >> 8) + rng.choice([-2, -1, 1, 2, 7])) % (
                    1 << 24
                ) << 8
            else:
                code[pc] = rng.randrange(len(OPS)) | (code[pc] & ~0xFF)
        functions.append(
            Function(fn.name, fn.param_types, fn.return_type, fn.n_locals,
                     fn.max_stack + rng.choice([0, 0, -1, 1]) if fn.max_stack else fn.max_stack,
                     code, fn.lines)
        )  # fmt: skip
    return Program(functions, program.consts, program.image, program.types)


def test_fast_handlers_equal_every_check_on_mutated_programs():
    """Programs one or two words away from valid ones: where the C verifier says verified (2),
    the Python verifier's stack rules hold too, and the fast handlers (threaded build) give the
    same result, trap and steps as every check (the switch build, which has no fast handlers);
    where it does not, both builds run the same checked handlers."""
    rng = random.Random(2701)
    items, statuses = [], []
    for _ in range(40):
        for program, args in SAMPLE_RUNS:
            mutated = _mutated(program, rng)
            status = cpu.program_status(mutated)
            statuses.append(status)
            if status == 2:
                for index, fn in enumerate(mutated.functions):
                    stack_depths(mutated, index)  # raises VerifyError where the C side was wrong
                    assert max_depth(mutated, index) <= fn.max_stack
            items.append((mutated, 0, args))
    assert statuses.count(2) > 200 and statuses.count(1) > 200  # both kinds exercised
    limits = Limits(fuel=5000, stack_words=256, max_call_depth=16, heap_words=4096)
    fast = [key(r) for r in cpu.run_batch(items, limits, threads=2, verify=False)]
    checked = cpu.run_batch(items, limits, threads=2, verify=False, computed_goto=False)
    assert [key(r) for r in checked] == fast


FUSED_SOURCE = """
def g(x: int) -> int:
    if x < 2:
        return x
    return g(x - 1) + g(x - 2)


def f(n: int, s: str, big: int) -> int:
    xs: list[int] = []
    ys: list[int] = []
    i = 0
    while i < n:
        xs.append(i * i % 7)
        i += 1
    total = 0
    j = 0
    while j < len(xs):
        if xs[j] > 3:
            total += xs[j]
            xs[j] = 4
        if j % 3 == 0:
            total = total - j
        k = j + 5
        total = total + k * j
        if k >= 9:
            total = total + xs[j - 1]
        if k <= 8:
            total = total * 1 + j
        if k != 6:
            total = total * 1 - k
        total = total + (j & k) + (j | k) + (j ^ k) + j * k + g(j)
        ys.append(xs[j])
        ys.append(k)
        if xs[j] <= ys[j]:
            total += 1
        if xs[j]:
            total += 16
        j += 1
    for c in s:
        if c in "aeiou":
            total += 1
        if c in "xy":
            total += 2
        if c in "\u00e9a":
            total += 4
        if c + "x" in "axe":
            total += 8
    big += 1
    m = n - 1
    if ys[m]:
        total += 32
    return total + xs[n - 1] + big + ys[n // 2] * big
"""


def _same_at_every_fuel(program: Program, calls: list[list]) -> list[str | None]:
    """Runs `f` on each of `calls` with every fuel from 1 to one past its full run's steps, on
    the C VM's threaded build (fused runs) and its switch build (none), and asserts each result
    (trap, steps, value) equals the reference VM's at that fuel. The full runs' traps."""
    full = [ref.run(program, "f", args, Limits()) for args in calls]
    runs = [
        (args, fuel) for args, r in zip(calls, full, strict=True) for fuel in range(1, r.steps + 2)
    ]
    wants = [key(ref.run(program, "f", args, Limits(fuel=fuel))) for args, fuel in runs]
    for goto in (True, False):
        got = [
            key(cpu.run_batch([(program, "f", args)], Limits(fuel=fuel), computed_goto=goto)[0])
            for args, fuel in runs
        ]
        assert got == wants, f"computed_goto={goto}"
    return [r.trap for r in full]


def test_fused_runs_spend_fuel_and_trap_as_the_code():
    """The threaded build fuses common runs of instructions of a verified program (interp.h's
    kiln_program_fuse): with every fuel from 1 to past the end, and with traps inside a run
    (Overflow in LOAD ADDI STORE and in MUL_I, IndexError), the same trap, steps and
    value as the reference VM and the switch build (no fused runs)."""
    from compiler import compile_source

    program = compile_source(FUSED_SOURCE, "<fused>")
    ops = {OPS[w & 0xFF].name for fn in program.functions for w in fn.code}
    assert {"LOAD2", "LIST_LEN", "CONTAINS", "ADDI", "MOD_I", "MUL_I", "ADD_I", "SUB_I"} <= ops
    calls = [[6, "hex yaw \u00e9a\u00e8", 3], [6, "axe", 2**63 - 1], [0, "", 0], [3, "ab", 2**62]]
    assert _same_at_every_fuel(program, calls) == [None, "Overflow", "IndexError", "Overflow"]


LOOP_SOURCE = """
def f(n: int, s: str, k: int, big: int) -> int:
    xs = [True] * n
    count = 0
    for i in range(2, n + k):
        if xs[i]:
            count += i
            for j in range(i * i, n + k, i):
                xs[j] = False
    for i in range(n - 1, -1, -1 - k):
        if xs[i]:
            count += 1
    ys = xs
    for j in range(0, n, 3):
        ys[j] = True
    for c in s:
        if c in "aeiou":
            count += 1
    for c in s:
        if c in "\u00e9a":
            count += 2
    for c in s:
        if c in "ou":
            big += 1
    for c in s:
        if c in "xyz":
            count += 4
            if c in "y":
                count += 8
    zs: list[int] = []
    for i in range(n):
        zs.append(i * big % 7)
        if i % 4 == 1:
            count += 1
        if i % 3 != 2:
            count += 2
    return count + len(xs) + big + zs[n - 1]
"""


INDEX2_SOURCE = """
def f(xs: list[int], ys: list[int], k: int) -> int:
    count = 0
    j = k
    for i in range(len(xs)):
        if xs[i] < ys[j]:
            count += 1
        if xs[i] >= ys[j]:
            count += 2
        if xs[i] == ys[j]:
            count += 4
        if xs[i] != ys[j]:
            count += 8
        if xs[i] <= ys[j]:
            count += 16
        if xs[i] > ys[j]:
            count += 32
        j += 1
    return count
"""


def test_fused_item_comparisons_spend_fuel_and_trap_as_the_code():
    """LOAD2 LIST_INDEX LOAD2 LIST_INDEX JUMP_cc_I (if xs[i] < ys[j]:), all six comparisons, at
    one dispatch in the threaded build: every fuel, IndexError in either read, against the
    reference VM and the switch build."""
    from compiler import compile_source

    program = compile_source(INDEX2_SOURCE, "<index2>")
    calls = [[[1, 5, 3, 2], [2, 5, 1, 9], 0], [[1, 2, 3], [3, 2], 0], [[4, 4], [1, 4, 3], 1]]
    calls += [[[1], [2], -3], [[7, 8], [8, 7, 6], -1]]
    assert _same_at_every_fuel(program, calls) == [None, "IndexError", None, "IndexError", None]


def test_fused_loops_spend_fuel_and_trap_as_the_code():
    """The threaded build's loops run inside one fused handler (for c in s: if c in "...":
    x += k; for j in range(..): xs[j] = k; for i in range(..): if xs[i]:), and the runs
    LOAD2 LOAD MUL_I, LOADI MOD_I LIST_APPEND, LOAD LOADI MOD_I LOADI JUMP_EQ/NE_I: every fuel
    from 1 to past the end, an IndexError inside each range loop, Overflow in x += k and in the
    product, a non-ASCII set and a non-ASCII character, against the reference VM and the switch
    build."""
    from compiler import compile_source

    program = compile_source(LOOP_SOURCE, "<loops>")
    calls = [[30, "hex yaw \u00e9a\u00e8 zoo", 0, 5], [12, "ay", 1, 0], [7, "", 0, -5]]
    calls += [[40, "yyy", 3, 0], [9, "fox jumps over", 0, 2**63 - 2], [9, "xyz", 0, 2**62]]
    traps = [None, "IndexError", None, "IndexError", "Overflow", "Overflow"]
    assert _same_at_every_fuel(program, calls) == traps


RECURSION_SOURCE = """
def down(n: int, acc: int) -> int:
    if n <= 0:
        return acc + other(acc)
    w = n * 2
    return down(n - 1, acc + w) + 1


def other(k: int) -> int:
    if k > 1000:
        return 1
    return other(k + 400) + k % 3


def f(n: int) -> int:
    return down(n, 0) + down(n // 2, 1)
"""


def test_recursion_shortcut_spends_fuel_and_traps_as_the_code():
    """The threaded build's fast CALL and RET within one function (interp_hot.h FAST_ONLY: no
    reload of the callee's record) against the reference VM and the switch build: every fuel
    from 1 to past the end, and depths and stacks that end it at each call (RecursionError,
    StackExhausted), returns into the same function and into another."""
    from compiler import compile_source

    program = compile_source(RECURSION_SOURCE, "<recursion>")
    limits = [Limits()] + [Limits(max_call_depth=d) for d in range(1, 12)]
    limits += [Limits(stack_words=w) for w in range(1, 48, 2)]
    full = ref.run(program, "f", [6], Limits())
    assert full.trap is None
    limits += [Limits(fuel=fuel) for fuel in range(1, full.steps + 2)]
    wants = [key(ref.run(program, "f", [6], lim)) for lim in limits]
    assert {w[0] for w in wants} >= {None, "RecursionError", "StackExhausted", "FuelExhausted"}
    for goto in (True, False):
        got = [
            key(cpu.run_batch([(program, "f", [6])], lim, computed_goto=goto)[0]) for lim in limits
        ]
        assert got == wants
