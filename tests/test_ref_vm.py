"""The reference VM (`vm.ref`) on hand-assembled programs: every opcode, every trap, every limit,
argument and result marshalling, the allocation accounting, and Python's own semantics at the
64-bit edges (hypothesis)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.lower import Pool
from vm import ExecResult, execute
from vm.container import Function, Program
from vm.isa import BY_NAME, TRAP_BY_NAME, TRAPS, encode, local2
from vm.limits import Limits
from vm.ref import BINARY, run
from vm.values import (
    BOOL,
    FLOAT,
    INT,
    INT64_MAX,
    INT64_MIN,
    NONE,
    STR,
    Type,
    float_bits,
    list_of,
    tuple_of,
)
from vm.verify import max_depth

# ---- a tiny assembler ----------------------------------------------------------------------------


@dataclass
class Fn:
    """One function to assemble. Code items are `(NAME,)` or `(NAME, operand)`, or a raw word.

    Operands may be given by meaning: a value for CONST (int or float), the text for STR, the
    callee's name for CALL, a `Type` for typed instructions, a trap name for RAISE.
    """

    name: str
    params: list[Type]
    ret: Type
    code: list[Any]
    n_locals: int | None = None
    max_stack: int | None = None
    lines: list[int] | None = None


def assemble(*functions: Fn, strings: tuple[str, ...] = ()) -> Program:
    """A Program from Fn specs; max_stack is computed (verify.max_depth) unless given."""
    names = [f.name for f in functions]
    pool = Pool(names)  # the compiler's own tables: each entry once, in order of first use
    for text in strings:
        pool.string(text)
    built = []
    for f in functions:
        code = []
        for item in f.code:
            if isinstance(item, int):
                code.append(item)
                continue
            op = BY_NAME[item[0]]
            operand = item[1] if len(item) > 1 else 0
            if op.name == "CONST":
                operand = pool.const(float_bits(operand) if isinstance(operand, float) else operand)
            elif isinstance(operand, Type):
                operand = pool.type(operand)
            elif op.name == "STR" and isinstance(operand, str):
                operand = pool.string(operand)
            elif op.name == "CALL" and isinstance(operand, str):
                operand = pool.function_index[operand]
            elif op.name == "RAISE" and isinstance(operand, str):
                operand = TRAP_BY_NAME[operand].code
            code.append(encode(op, operand))
        params = [pool.type(t) for t in f.params]
        n_locals = len(params) if f.n_locals is None else f.n_locals
        lines = list(range(1, len(code) + 1)) if f.lines is None else f.lines
        built.append(Function(f.name, params, pool.type(f.ret), n_locals, f.max_stack or 0, code,
                              lines))
    program = Program(built, pool.consts, pool.image, pool.types, "<test>")
    for index, (f, fn) in enumerate(zip(functions, built, strict=True)):
        if f.max_stack is None:
            fn.max_stack = max_depth(program, index)
    return program


def run_code(code: list[Any], params: list[Type] | None = None, ret: Type = INT,
             args: tuple[Any, ...] = (),
             n_locals: int | None = None, **limits: int) -> ExecResult:
    """Run one function `f` made of `code`."""
    program = assemble(Fn("f", params or [], ret, code, n_locals))
    return run(program, "f", args, Limits().replace(**limits))


def value_of(code: list[Any], **kwargs: Any) -> Any:
    result = run_code(code, **kwargs)
    assert result.trap is None, result
    return result.value


def trap_of(code: list[Any], **kwargs: Any) -> str | None:
    return run_code(code, **kwargs).trap


def _outcome(expected: Any) -> tuple[str, str]:
    """The outcome for an expected trap name or value."""
    if isinstance(expected, str) and expected in TRAP_BY_NAME:
        return ("raise", expected)
    return ("value", repr(expected))


# ---- stack, constants, locals --------------------------------------------------------------------


def test_loadi_and_ret() -> None:
    assert run_code([("LOADI", 3), ("RET",)]) == ExecResult(3, None, 2)
    assert value_of([("LOADI", -(1 << 23)), ("RET",)]) == -(1 << 23)


def test_const_int_and_float() -> None:
    assert value_of([("CONST", INT64_MIN), ("RET",)]) == INT64_MIN
    assert value_of([("CONST", 2.5), ("RET",)], ret=FLOAT) == 2.5


def test_str_constant() -> None:
    assert value_of([("STR", "héllo"), ("RET",)], ret=STR) == "héllo"
    assert value_of([("STR", ""), ("RET",)], ret=STR) == ""


def test_stack_shuffles() -> None:
    # NOP; 1 2 SWAP -> 2 1; DUP2 -> 2 1 2 1; SUB -> 2 1 1; POP -> 2 1; DUP -> 2 1 1; ADD ADD -> 4
    code = [("NOP",), ("LOADI", 1), ("LOADI", 2), ("SWAP",), ("DUP2",), ("SUB_I",), ("POP",),
            ("DUP",),
            ("ADD_I",), ("ADD_I",), ("RET",)]
    assert value_of(code) == 4
    assert value_of([("LOADI", 1), ("LOADI", 2), ("SWAP",), ("SUB_I",), ("RET",)]) == 1


def test_locals_start_at_zero_and_store() -> None:
    code = [("LOAD", 1), ("LOADI", 5), ("STORE", 1), ("LOAD", 1), ("ADD_I",), ("LOAD", 0),
            ("ADD_I",), ("RET",)]
    assert value_of(code, params=[INT], args=(10,), n_locals=2) == 15


# ---- control -------------------------------------------------------------------------------------


def _sum_below(n: int) -> Program:
    """sum(range(n)) with a while loop: 2 steps, 11 per iteration, 4 at the end."""
    code = [
        ("LOADI", 0), ("STORE", 1),                     # 0-1: total = 0
        ("LOAD", 0), ("JUMP_IF_FALSE", 13),             # 2-3: while n:
        ("LOAD", 0), ("LOADI", 1), ("SUB_I",), ("STORE", 0),  # 4-7: n -= 1
        ("LOAD", 1), ("LOAD", 0), ("ADD_I",), ("STORE", 1),   # 8-11: total += n
        ("JUMP", 2),                                    # 12
        ("LOAD", 1), ("RET",),                          # 13-14
    ]
    return assemble(Fn("f", [INT], INT, code, n_locals=2))


def test_loop_value_and_steps() -> None:
    result = run(_sum_below(10), "f", [10], Limits())
    assert result == ExecResult(45, None, 2 + 10 * 11 + 4)


def test_jump_if_true() -> None:
    code = [("LOAD", 0), ("JUMP_IF_TRUE", 4), ("LOADI", 7), ("RET",), ("LOADI", 9), ("RET",)]
    assert run_code(code, params=[BOOL], args=(True,)) == ExecResult(9, None, 4)
    assert run_code(code, params=[BOOL], args=(False,)) == ExecResult(7, None, 4)


def test_call_and_return() -> None:
    square = Fn("square", [INT], INT, [("LOAD", 0), ("DUP",), ("MUL_I",), ("RET",)])
    main = Fn("main", [INT, INT], INT,
              [("LOAD", 0), ("CALL", "square"), ("LOAD", 1), ("CALL", "square"),
                                        ("SUB_I",), ("RET",)])
    program = assemble(main, square)
    assert run(program, "main", [5, 3], Limits()) == ExecResult(16, None, 2 + 4 + 2 + 4 + 2)
    assert run(program, 1, [7], Limits()).value == 49


def test_recursion_fib() -> None:
    fib = Fn("fib", [INT], INT, [
        ("LOAD", 0), ("LOADI", 2), ("LT_I",), ("JUMP_IF_FALSE", 6), ("LOAD", 0), ("RET",),
        ("LOAD", 0), ("LOADI", 1), ("SUB_I",), ("CALL", "fib"),
        ("LOAD", 0), ("LOADI", 2), ("SUB_I",), ("CALL", "fib"), ("ADD_I",), ("RET",),
    ])
    assert run(assemble(fib), "fib", [15], Limits()).value == 610


@pytest.mark.parametrize("trap", [t.name for t in TRAPS if t.name != "OK"])
def test_raise_every_trap(trap: str) -> None:
    assert run_code([("RAISE", trap)]) == ExecResult(None, trap, 1)


# ---- int -----------------------------------------------------------------------------------------

BIG = 1 << 62


@pytest.mark.parametrize(("op", "a", "b", "expected"), [
    ("ADD_I", INT64_MAX, 1, "Overflow"), ("ADD_I", INT64_MIN, -1, "Overflow"),
    ("ADD_I", BIG, BIG - 1, INT64_MAX),
    ("SUB_I", INT64_MIN, 1, "Overflow"), ("SUB_I", 0, INT64_MIN, "Overflow"),
    ("SUB_I", -1, INT64_MAX, INT64_MIN),
    ("MUL_I", 1 << 32, 1 << 31, "Overflow"), ("MUL_I", -(1 << 32), 1 << 31, INT64_MIN),
    ("MUL_I", -7, 6, -42),
    ("FLOORDIV_I", 7, -2, -4), ("FLOORDIV_I", -7, 2, -4), ("FLOORDIV_I", 7, 0, "ZeroDivisionError"),
    ("FLOORDIV_I", INT64_MIN, -1, "Overflow"),
    ("MOD_I", 7, -2, -1), ("MOD_I", -7, 2, 1), ("MOD_I", 7, 0, "ZeroDivisionError"),
    ("MOD_I", INT64_MIN, -1, 0),
    ("POW_I", 2, 62, 1 << 62), ("POW_I", 2, 63, "Overflow"), ("POW_I", -2, 63, INT64_MIN),
    ("POW_I", 0, 0, 1),
    ("POW_I", 3, -1, "Unsupported"), ("POW_I", 1, INT64_MAX, 1), ("POW_I", -1, INT64_MAX, -1),
    ("POW_I", 0, INT64_MAX, 0), ("POW_I", 2, INT64_MAX, "Overflow"),
    ("DIV_I", 1, 3, 1 / 3), ("DIV_I", -7, 2, -3.5), ("DIV_I", 1, 0, "ZeroDivisionError"),
    ("DIV_I", 2**53 + 1, 1, "Unsupported"), ("DIV_I", 1, -(2**53) - 1, "Unsupported"),
    ("DIV_I", 2**53, 2**53, 1.0),
    ("DIV_I", 2**60, 0, "ZeroDivisionError"),
    ("AND_I", -4, 7, 4), ("OR_I", 8, 3, 11), ("XOR_I", -1, 5, -6),
    ("SHL_I", 1, 62, 1 << 62), ("SHL_I", 1, 63, "Overflow"), ("SHL_I", -1, 63, INT64_MIN),
    ("SHL_I", 0, 10**6, 0),
    ("SHL_I", 1, -1, "ValueError"), ("SHL_I", 3, 64, "Overflow"),
    ("SHR_I", -1, 200, -1), ("SHR_I", INT64_MAX, 64, 0), ("SHR_I", -9, 1, -5),
    ("SHR_I", 1, -1, "ValueError"),
    ("LT_I", -1, 0, 1), ("LE_I", 0, 0, 1), ("GT_I", 0, 0, 0), ("GE_I", INT64_MIN, INT64_MAX, 0),
    ("EQ_I", 5, 5, 1), ("NE_I", 5, 5, 0),
])
def test_int_binary(op: str, a: int, b: int, expected: Any) -> None:
    ret = FLOAT if op == "DIV_I" else INT
    result = run_code([("LOAD", 0), ("LOAD", 1), (op,), ("RET",)], params=[INT, INT], ret=ret,
                      args=(a, b))
    assert result.steps == (3 if isinstance(expected,
                                            str) else 4)  # a trapping instruction is a step
    if isinstance(expected, str):
        assert result.trap == expected
    else:
        assert result.trap is None and result.value == expected


@pytest.mark.parametrize(("op", "a", "expected"), [
    ("NEG_I", INT64_MIN, "Overflow"), ("NEG_I", INT64_MAX, -INT64_MAX),
    ("ABS_I", INT64_MIN, "Overflow"),
    ("ABS_I", -3, 3), ("INVERT_I", INT64_MIN, INT64_MAX), ("INVERT_I", 0, -1), ("NOT", 0, 1),
    ("NOT", 5, 0),
])
def test_int_unary(op: str, a: int, expected: Any) -> None:
    result = run_code([("LOAD", 0), (op,), ("RET",)], params=[INT], args=(a,))
    assert result.outcome == _outcome(expected)


# ---- float ---------------------------------------------------------------------------------------

NAN, INF = math.nan, math.inf


@pytest.mark.parametrize(("op", "x", "y", "expected"), [
    ("ADD_F", 0.1, 0.2, 0.1 + 0.2), ("SUB_F", INF, INF, NAN), ("MUL_F", 1e308, 10.0, INF),
    ("DIV_F", 1.0, 3.0, 1 / 3), ("DIV_F", 1.0, -0.0, "ZeroDivisionError"),
    ("DIV_F", 0.0, 0.0, "ZeroDivisionError"),
    ("FLOORDIV_F", 7.5, -2.0, -4.0), ("FLOORDIV_F", -0.0, 5.0, -0.0),
    ("FLOORDIV_F", 1.0, 0.0, "ZeroDivisionError"),
    ("FLOORDIV_F", 1.0, INF, 0.0), ("FLOORDIV_F", -1.0, INF, -1.0), ("FLOORDIV_F", INF, 1.0, NAN),
    ("MOD_F", 7.5, -2.0, -0.5), ("MOD_F", -0.0, 3.0, 0.0), ("MOD_F", 3.0, -1.5, -0.0),
    ("MOD_F", -5.0, INF, INF),
    ("MOD_F", 1.0, -0.0, "ZeroDivisionError"),
    ("POW_F", 2.0, 0.5, 2**0.5), ("POW_F", NAN, 0.0, 1.0), ("POW_F", 1.0, NAN, 1.0),
    ("POW_F", 0.0, -1.0, "ZeroDivisionError"),
    ("POW_F", -8.0, 1 / 3, "Unsupported"), ("POW_F", 10.0, 400.0, "OverflowError"),
    ("POW_F", -2.0, 3.0, -8.0),
    ("POW_F", -INF, 3.0, -INF), ("POW_F", -INF, -3.0, -0.0), ("POW_F", -1.0, INF, 1.0),
    ("POW_F", 0.5, -INF, INF),
    ("LT_F", NAN, 1.0, 0), ("LE_F", -0.0, 0.0, 1), ("GT_F", INF, 1e308, 1), ("GE_F", NAN, NAN, 0),
    ("EQ_F", 0.0, -0.0, 1), ("EQ_F", NAN, NAN, 0), ("NE_F", NAN, NAN, 1),
])
def test_float_binary(op: str, x: float, y: float, expected: Any) -> None:
    ret = INT if op[:2] in ("LT", "LE", "GT", "GE", "EQ", "NE") else FLOAT
    result = run_code([("LOAD", 0), ("LOAD", 1), (op,), ("RET",)], params=[FLOAT, FLOAT], ret=ret,
                      args=(x, y))
    if isinstance(expected, str):
        assert result.trap == expected
    elif ret == FLOAT:
        assert result.trap is None and repr(result.value) == repr(expected)  # -0.0 and nan exactly
    else:
        assert result.value == expected


def test_negative_base_fractional_exponent_is_unsupported_even_when_it_overflows() -> None:
    result = run_code([("LOAD", 0), ("LOAD", 1), ("POW_F",), ("RET",)], params=[FLOAT, FLOAT],
                      ret=FLOAT, args=(-5.832119758715749e-141, -2.5))
    assert result.trap == "Unsupported"


@pytest.mark.parametrize(("op", "x", "ret", "expected"), [
    ("NEG_F", 0.0, FLOAT, -0.0), ("ABS_F", -INF, FLOAT, INF), ("TRUTH_F", NAN, INT, 1),
    ("TRUTH_F", -0.0, INT, 0),
    ("F2I", -2.7, INT, -2), ("F2I", NAN, INT, "ValueError"), ("F2I", -INF, INT, "OverflowError"),
    ("F2I", 9.3e18, INT, "Overflow"), ("F2I", -9.223372036854775808e18, INT, INT64_MIN),
])
def test_float_unary(op: str, x: float, ret: Type, expected: Any) -> None:
    result = run_code([("LOAD", 0), (op,), ("RET",)], params=[FLOAT], ret=ret, args=(x,))
    assert result.outcome == _outcome(expected)


@pytest.mark.parametrize(("op", "a", "expected"), [
    ("I2F", 2**53 + 1, float(2**53)), ("I2F", INT64_MAX, 2.0**63), ("I2F_EXACT", 2**53, 2.0**53),
    ("I2F_EXACT", -(2**53) - 1, "Unsupported"), ("I2F_EXACT", -3, -3.0),
])
def test_int_to_float(op: str, a: int, expected: Any) -> None:
    result = run_code([("LOAD", 0), (op,), ("RET",)], params=[INT], ret=FLOAT, args=(a,))
    assert result.outcome == _outcome(expected)


def _readme_float_divmod(x: float, y: float) -> tuple[float, float]:
    """README.md's pseudo-code for `//` and `%`, transcribed: the C VM implements this text."""
    mod = math.fmod(x, y)
    div = (x - mod) / y
    if mod != 0:
        if (y < 0) != (mod < 0):
            mod += y
            div -= 1
    else:
        mod = math.copysign(0, y)
    if div != 0:
        floordiv = float(math.floor(div)) if math.isfinite(div) else div  # C's floor
        if div - floordiv > 0.5:
            floordiv += 1
    else:
        floordiv = math.copysign(0, x / y)
    return floordiv, mod


_finite = st.floats(allow_nan=False, allow_infinity=False, width=64)


@settings(max_examples=300, deadline=None)
@given(_finite, _finite.filter(lambda y: y != 0))
def test_readme_float_divmod_is_pythons(x: float, y: float) -> None:
    floordiv, mod = _readme_float_divmod(x, y)
    assert float_bits(floordiv) == BINARY["FLOORDIV_F"](float_bits(x), float_bits(y))
    assert float_bits(mod) == BINARY["MOD_F"](float_bits(x), float_bits(y))


# ---- int ops at the 64-bit edges against Python (hypothesis) -------------------------------------

_EDGES = [INT64_MIN, INT64_MIN + 1, -(2**53) - 1, -(2**53), -(2**32), -2, -1, 0, 1, 2, 63, 64,
          2**32, 2**53,
          2**53 + 1, BIG, INT64_MAX - 1, INT64_MAX]
_int64 = st.one_of(st.sampled_from(_EDGES), st.integers(INT64_MIN, INT64_MAX),
                   st.integers(-300, 300))


def _python_int_op(op: str, a: int, b: int) -> tuple[str, Any]:
    """What CPython does, as an outcome kiln must give: ("value", v) or ("raise", trap)."""
    if op in ("FLOORDIV_I", "MOD_I", "DIV_I") and b == 0:
        return ("raise", "ZeroDivisionError")
    if op in ("SHL_I", "SHR_I") and b < 0:
        return ("raise", "ValueError")
    if op == "POW_I" and b < 0:
        return ("raise", "Unsupported")  # Python gives a float
    if op == "DIV_I":
        if abs(a) > 2**53 or abs(b) > 2**53:
            return ("raise", "Unsupported")
        return ("value", a / b)
    if op == "POW_I" and abs(a) >= 2 and b >= 64:
        return ("raise", "Overflow")  # |a|**b >= 2**64, too big to compute here
    if op == "SHL_I" and a != 0 and b >= 64:
        return ("raise", "Overflow")  # |a| << b >= 2**64
    true = {
        "ADD_I": lambda: a + b, "SUB_I": lambda: a - b, "MUL_I": lambda: a * b,
        "FLOORDIV_I": lambda: a // b,
        "MOD_I": lambda: a % b, "POW_I": lambda: a**b, "SHL_I": lambda: a << b,
        "SHR_I": lambda: a >> b,
        "AND_I": lambda: a & b, "OR_I": lambda: a | b, "XOR_I": lambda: a ^ b,
    }[op]()
    return ("value", true) if INT64_MIN <= true <= INT64_MAX else ("raise", "Overflow")


_INT_PROGRAMS = {
    op: assemble(Fn("f", [INT, INT], FLOAT if op == "DIV_I" else INT,
                    [("LOAD", 0), ("LOAD", 1), (op,), ("RET",)]))
    for op in ("ADD_I", "SUB_I", "MUL_I", "FLOORDIV_I", "MOD_I", "POW_I", "DIV_I", "SHL_I",
               "SHR_I", "AND_I",
               "OR_I", "XOR_I")
}


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(sorted(_INT_PROGRAMS)), _int64, _int64)
def test_int_ops_match_python(op: str, a: int, b: int) -> None:
    if op == "POW_I" and b > 64:
        b = b % 70  # small exponents too, so that the result can fit
    result = run(_INT_PROGRAMS[op], "f", [a, b], Limits())
    expected = _python_int_op(op, a, b)
    assert result.outcome == (expected[0],
                              repr(expected[1]) if expected[0] == "value" else expected[1])


_UNARY_PROGRAMS = {
    op: assemble(Fn("f", [INT], INT, [("LOAD", 0), (op,), ("RET",)]))
    for op in ("NEG_I", "ABS_I", "INVERT_I")
}


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(_UNARY_PROGRAMS)), _int64)
def test_int_unary_ops_match_python(op: str, a: int) -> None:
    true = {"NEG_I": -a, "ABS_I": abs(a), "INVERT_I": ~a}[op]
    expected = ("value", repr(true)) if INT64_MIN <= true <= INT64_MAX else ("raise", "Overflow")
    assert run(_UNARY_PROGRAMS[op], "f", [a], Limits()).outcome == expected


# ---- values of any type --------------------------------------------------------------------------


def _binary_typed(op: str, ty: Type, a: Any, b: Any) -> ExecResult:
    return run_code([("LOAD", 0), ("LOAD", 1), (op, ty), ("RET",)], params=[ty, ty], ret=BOOL,
                    args=(a, b))


@pytest.mark.parametrize(("ty", "a", "b"), [
    (STR, "abc", "abd"), (STR, "ab", "abc"), (STR, "b", "abc"), (STR, "", ""), (STR, "é", "z"),
    (list_of(INT), [1, 2], [1, 2]), (list_of(INT), [1, 2], [1, 2, 0]), (list_of(INT), [2], [1, 9]),
    (list_of(list_of(INT)), [[1], [2, 3]], [[1], [2, 4]]), (tuple_of(INT, STR), (1, "b"), (1, "a")),
    (list_of(FLOAT), [1.0, -0.0], [1.0, 0.0]), (list_of(FLOAT), [1.0, 2.0], [1.5, NAN]),
    (FLOAT, NAN, NAN), (INT, -1, 0), (BOOL, True, False),
])
def test_eq_lt_le_follow_python(ty: Type, a: Any, b: Any) -> None:
    for op, python in (("EQ", a == b), ("LT", a < b), ("LE", a <= b)):
        assert _binary_typed(op, ty, a, b).outcome == ("value", repr(python))


@pytest.mark.parametrize(("ty", "a", "b"), [
    (list_of(FLOAT), [NAN], [NAN]), (list_of(FLOAT), [1.0, NAN], [1.0, 2.0]),
    (tuple_of(FLOAT, INT), (NAN, 1), (NAN, 1)),
    (list_of(FLOAT), [NAN], [NAN, 1.0]),  # README: items are compared before lengths, even for ==
])
def test_nan_inside_a_container_is_unsupported(ty: Type, a: Any, b: Any) -> None:
    for op in ("EQ", "LT", "LE"):
        assert _binary_typed(op, ty, a, b).trap == "Unsupported"


@pytest.mark.parametrize(("ty", "x", "seq", "expected"), [
    (STR, "", "abc", True), (STR, "bc", "abc", True), (STR, "ca", "abc", False),
    (list_of(INT), 3, [1, 3], True), (list_of(INT), 4, [1, 3], False),
    (list_of(STR), "a", [], False),
    (tuple_of(INT, INT), 2, (1, 2), True), (list_of(FLOAT), 1.0, [1.0, NAN], True),
    (list_of(FLOAT), 2.0, [1.0, NAN], "Unsupported"),
    (list_of(list_of(INT)), [1], [[0], [1]], True),
])
def test_contains(ty: Type, x: Any, seq: Any, expected: Any) -> None:
    elem = STR if ty == STR else (ty.args[0])
    result = run_code([("LOAD", 0), ("LOAD", 1), ("CONTAINS", ty), ("RET",)], params=[elem, ty],
                      ret=BOOL, args=(x, seq))
    assert result.outcome == _outcome(expected)


# ---- str -----------------------------------------------------------------------------------------


def _str_op(code: list[Any], params: list[Type], args: tuple[Any, ...],
            ret: Type = STR) -> ExecResult:
    return run_code([("LOAD", i) for i in range(len(params))] + code + [("RET",)], params=params,
                    ret=ret, args=args)


@pytest.mark.parametrize(("code", "params", "args", "ret", "expected"), [
    ([("STR_LEN",)], [STR], ("héllo",), INT, 5),
    ([("STR_INDEX",)], [STR, INT], ("abc", -1), STR, "c"),
    ([("STR_INDEX",)], [STR, INT], ("abc", 3), STR, "IndexError"),
    ([("STR_INDEX",)], [STR, INT], ("abc", -4), STR, "IndexError"),
    ([("STR_CONCAT",)], [STR, STR], ("ab", "cd"), STR, "abcd"),
    ([("STR_REPEAT",)], [STR, INT], ("ab", 3), STR, "ababab"),
    ([("STR_REPEAT",)], [STR, INT], ("ab", -2), STR, ""),
    ([("STR_OF_INT",)], [INT], (INT64_MIN,), STR, str(INT64_MIN)),
    ([("STR_OF_BOOL",)], [BOOL], (False,), STR, "False"),
    ([("STR_OF_BOOL",)], [BOOL], (True,), STR, "True"),
    ([("ORD",)], [STR], ("€",), INT, 8364), ([("ORD",)], [STR], ("ab",), INT, "TypeError"),
    ([("ORD",)], [STR], ("",), INT, "TypeError"),
    ([("CHR",)], [INT], (0x10FFFF,), STR, "\U0010ffff"),
    ([("CHR",)], [INT], (0x110000,), STR, "ValueError"),
    ([("CHR",)], [INT], (-1,), STR, "ValueError"),
])
def test_str_ops(code: list[Any], params: list[Type], args: tuple[Any, ...], ret: Type,
                 expected: Any) -> None:
    assert _str_op(code, params, args, ret).outcome == _outcome(expected)


@pytest.mark.parametrize(("text", "expected"), [
    ("42", 42), ("  -17\n", -17), ("+1_000", 1000), ("\x0c7\x0b", 7), ("\x1c7", "ValueError"),
    ("0" * 40 + "5", 5), ("-0", 0),
    (str(INT64_MAX), INT64_MAX), (str(INT64_MIN), INT64_MIN), (str(INT64_MAX + 1), "Overflow"),
    ("1" * 30, "Overflow"), ("0" * 4299 + "5", 5), ("0_" * 4299 + "5", 5),
    ("0" * 4300 + "5", "ValueError"), ("1" * 4301, "ValueError"),  # CPython's digit limit
    ("", "ValueError"), (" ", "ValueError"), ("1_", "ValueError"), ("_1", "ValueError"),
    ("1__0", "ValueError"), ("+-1", "ValueError"), ("0x10", "ValueError"), ("1.0", "ValueError"),
    ("١٢", "Unsupported"), ("12\u00a0", "Unsupported"),
])
def test_int_of_str(text: str, expected: Any) -> None:
    result = _str_op([("INT_OF_STR",)], [STR], (text,), INT)
    assert result.outcome == _outcome(expected)
    if expected == "ValueError":
        with pytest.raises(ValueError):
            int(text)
    elif expected == "Overflow":
        assert not INT64_MIN <= int(text) <= INT64_MAX
    elif expected != "Unsupported":
        assert int(text) == expected


_INT_OF_STR = assemble(Fn("f", [STR], INT, [("LOAD", 0), ("INT_OF_STR",), ("RET",)]))


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=" \t\n\r\x0b\x0c\x1c\x1f+-_0123456789a", max_size=24))
def test_int_of_str_matches_python(text: str) -> None:
    result = run(_INT_OF_STR, "f", [text], Limits())
    try:
        value = int(text)
    except ValueError:
        assert result.trap == "ValueError"
        return
    assert result.outcome == (("value",
                               repr(value)) if INT64_MIN <= value <= INT64_MAX else ("raise",
                               "Overflow"))


# ---- slicing against Python (hypothesis) ---------------------------------------------------------

_slice_index = st.one_of(st.none(), st.integers(-12, 12),
                         st.sampled_from([INT64_MIN, INT64_MIN + 1, INT64_MAX, -(2**40)]))


def _slice_program(kind: str, flags: int) -> Program:
    seq = STR if kind == "str" else list_of(INT)
    params = [seq] + [INT] * flags.bit_count()
    code = [("LOAD", i) for i in range(len(params))] + [(f"{kind.upper()}_SLICE", flags), ("RET",)]
    return assemble(Fn("f", params, seq, code))


_SLICE_PROGRAMS = {(kind, flags): _slice_program(kind, flags) for kind in ("str",
    "list") for flags in range(8)}


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=8), st.lists(st.integers(-5, 5), max_size=8)), _slice_index,
       _slice_index, _slice_index)
def test_slicing_matches_python(seq: Any, start: int | None, stop: int | None,
                                step: int | None) -> None:
    parts = (start, stop, step)
    flags = sum(1 << i for i, part in enumerate(parts) if part is not None)
    program = _SLICE_PROGRAMS["str" if isinstance(seq, str) else "list", flags]
    result = run(program, "f", [seq, *(p for p in parts if p is not None)], Limits())
    if step == 0:
        assert result.trap == "ValueError"
    else:
        assert result.outcome == ("value", repr(seq[start:stop:step]))


# ---- list ----------------------------------------------------------------------------------------

LI = list_of(INT)


@pytest.mark.parametrize(("code", "params", "args", "ret", "expected"), [
    ([("LIST_LEN",)], [LI], ([4, 5],), INT, 2),
    ([("LIST_INDEX",)], [LI, INT], ([4, 5], -2), INT, 4),
    ([("LIST_INDEX",)], [LI, INT], ([4, 5], 2), INT, "IndexError"),
    ([("LIST_POP",)], [LI], ([4, 5],), INT, 5), ([("LIST_POP",)], [LI], ([],), INT, "IndexError"),
    ([("LIST_POP_AT",)], [LI, INT], ([4, 5, 6], -3), INT, 4),
    ([("LIST_POP_AT",)], [LI, INT], ([4], 1), INT, "IndexError"),
    ([("LIST_POP_AT",)], [LI, INT], ([], 0), INT, "IndexError"),
    ([("LIST_CONCAT",)], [LI, LI], ([1], [2, 3]), LI, [1, 2, 3]),
    ([("LIST_REPEAT",)], [LI, INT], ([1, 2], 2), LI, [1, 2, 1, 2]),
    ([("LIST_REPEAT",)], [LI, INT], ([1], 0), LI, []),
    ([("LIST_REPEAT",)], [LI, INT], ([], INT64_MAX), LI, []),
    ([("LIST_OF_STR",)], [STR], ("héj",), list_of(STR), ["h", "é", "j"]),
    ([("LIST_RANGE",)], [INT, INT, INT], (10, 0, -3), LI, [10, 7, 4, 1]),
    ([("LIST_RANGE",)], [INT, INT, INT], (0, 5, 0), LI, "ValueError"),
    ([("LIST_RANGE",)], [INT, INT, INT], (5, 0, 1), LI, []),
    ([("LIST_REVERSED",)], [LI], ([1, 2, 3],), LI, [3, 2, 1]),
    ([("SORTED", LI)], [LI], ([3, 1, 2, 1],), LI, [1, 1, 2, 3]),
    ([("SORTED_DESC", LI)], [LI], ([3, 1, 2, 1],), LI, [3, 2, 1, 1]),
    ([("SORTED", list_of(STR))], [list_of(STR)], (["b", "a", "ab"],), list_of(STR),
     ["a", "ab", "b"]),
    ([("SORTED", list_of(FLOAT))], [list_of(FLOAT)], ([NAN],), list_of(FLOAT), [NAN]),
    ([("SORTED", list_of(FLOAT))], [list_of(FLOAT)], ([2.0, NAN],), list_of(FLOAT), "Unsupported"),
    ([("MIN", LI)], [LI], ([3, 1, 2],), INT, 1), ([("MAX", LI)], [LI], ([3, 1, 5],), INT, 5),
    ([("MIN", LI)], [LI], ([],), INT, "ValueError"),
    ([("MAX", STR)], [STR], ("",), STR, "ValueError"),
    ([("MIN", STR)], [STR], ("bca",), STR, "a"), ([("MAX", STR)], [STR], ("bca",), STR, "c"),
    ([("MIN", list_of(FLOAT))], [list_of(FLOAT)], ([NAN, 1.0],), FLOAT, NAN),
    ([("MIN", list_of(FLOAT))], [list_of(FLOAT)], ([1.0, NAN, 0.5],), FLOAT, 0.5),
    ([("MAX", list_of(FLOAT))], [list_of(FLOAT)], ([1.0, NAN, 0.5],), FLOAT, 1.0),
    ([("MAX", list_of(list_of(FLOAT)))], [list_of(list_of(FLOAT))], ([[NAN], [NAN]],),
     list_of(FLOAT), "Unsupported"),
    ([("SUM_I",)], [LI], ([1, 2, 3],), INT, 6), ([("SUM_I",)], [LI], ([],), INT, 0),
    ([("SUM_I",)], [LI], ([BIG, BIG, -BIG],), INT, "Overflow"),
    ([("SUM_F",)], [list_of(FLOAT)], ([1e16, 1.0, 1.0],), FLOAT, 1e16),  # left to right
    ([("SUM_F",)], [list_of(FLOAT)], ([1.0, 1.0, 1e16],), FLOAT, 1e16 + 2),
    ([("SUM_F",)], [list_of(FLOAT)], ([-0.0],), FLOAT, 0.0),
    ([("SUM_F",)], [list_of(FLOAT)], ([],), FLOAT, "Unsupported"),
    ([("UNPACK_LIST", 2), ("SUB_I",)], [LI], ([7, 2],), INT, 5),
    ([("UNPACK_LIST", 2), ("SUB_I",)], [LI], ([7, 2, 1],), INT, "ValueError"),
])
def test_list_ops(code: list[Any], params: list[Type], args: tuple[Any, ...], ret: Type,
                  expected: Any) -> None:
    assert _str_op(code, params, args, ret).outcome == _outcome(expected)


def test_list_new_store_append_and_aliasing() -> None:
    # xs = [1, 2]; ys = xs; ys.append(3); ys[0] = 9; return xs
    code = [("LOADI", 1), ("LOADI", 2), ("LIST_NEW", 2), ("DUP",), ("STORE", 0), ("STORE", 1),
            ("LOAD", 1), ("LOADI", 3), ("LIST_APPEND",), ("LOAD", 1), ("LOADI", 0), ("LOADI", 9),
            ("LIST_STORE",),
            ("LOAD", 0), ("RET",)]
    assert value_of(code, ret=LI, n_locals=2) == [9, 2, 3]
    store_out_of_range = [("LOADI", 1), ("LIST_NEW", 1), ("LOADI", 1), ("LOADI", 0),
                          ("LIST_STORE",), ("LOADI", 0), ("RET",)]
    assert trap_of(store_out_of_range) == "IndexError"


def test_list_repeat_shares_items() -> None:
    # rows = [[0]] * 2; rows[0].append(5); return rows  ->  [[0, 5], [0, 5]], as in Python
    code = [("LOADI", 0), ("LIST_NEW", 1), ("LIST_NEW", 1), ("LOADI", 2), ("LIST_REPEAT",),
            ("DUP",), ("LOADI", 0),
            ("LIST_INDEX",), ("LOADI", 5), ("LIST_APPEND",), ("RET",)]
    assert value_of(code, ret=list_of(LI)) == [[0, 5], [0, 5]]


def _mark_first_of(op: str, ty: Type) -> list[Any]:
    """a = [1]; b = [1]; r = op([b?..]) then a.append(7): shows which of two equal items op kept."""
    return [("LOADI", 1), ("LIST_NEW", 1), ("STORE", 0),                 # a = [1]
            ("LOAD", 0), ("LOADI", 1), ("LIST_NEW", 1), ("LIST_NEW", 2),  # [a, [1]]
            (op, ty), ("STORE", 1),
            ("LOAD", 0), ("LOADI", 7), ("LIST_APPEND",), ("LOAD", 1), ("RET",)]


def test_sorted_is_stable_and_min_max_keep_the_first() -> None:
    lli = list_of(LI)
    assert value_of(_mark_first_of("SORTED", lli), ret=lli, n_locals=2) == [[1, 7], [1]]
    assert value_of(_mark_first_of("SORTED_DESC", lli), ret=lli, n_locals=2) == [[1, 7], [1]]
    assert value_of(_mark_first_of("MIN", lli), ret=LI, n_locals=2) == [1, 7]
    assert value_of(_mark_first_of("MAX", lli), ret=LI, n_locals=2) == [1, 7]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=12))
def test_sorted_matches_python(items: list[tuple[int, int]]) -> None:
    ty = list_of(tuple_of(INT, INT))
    for op, expected in (("SORTED", sorted(items)), ("SORTED_DESC", sorted(items, reverse=True))):
        assert _str_op([(op, ty)], [ty], (items,), ty).value == expected


def test_sort_meets_nan_only_through_compared_pairs() -> None:
    ty = list_of(list_of(FLOAT))
    # [1.0, nan] vs [2.0, nan] differ at index 0: the NaN is never met
    assert _str_op([("SORTED", ty)], [ty], ([[2.0, NAN], [1.0, NAN]],), ty).outcome == ("value",
        "[[1.0, nan], [2.0, nan]]")
    assert _str_op([("SORTED", ty)], [ty], ([[1.0, NAN], [1.0, NAN]],), ty).trap == "Unsupported"


# ---- tuple ---------------------------------------------------------------------------------------


def test_tuples() -> None:
    t = tuple_of(INT, STR)
    code = [("LOADI", 4), ("STR", "x"), ("TUPLE_NEW", 2), ("DUP",), ("TUPLE_GET", 1), ("SWAP",),
            ("UNPACK_TUPLE", 2),
            ("POP",), ("SWAP",), ("TUPLE_NEW", 2), ("RET",)]
    assert value_of(code, ret=tuple_of(INT, STR)) == (4, "x")
    assert value_of([("TUPLE_NEW", 0), ("RET",)], ret=tuple_of()) == ()
    assert value_of([("LOAD", 0), ("TUPLE_GET", 1), ("RET",)], params=[t], args=((1, "b"),),
                    ret=STR) == "b"


# ---- limits --------------------------------------------------------------------------------------


def test_fuel_is_checked_before_each_instruction() -> None:
    program = _sum_below(3)
    needed = run(program, "f", [3], Limits()).steps
    assert run(program, "f", [3], Limits(fuel=needed)) == ExecResult(3, None, needed)
    assert run(program, "f", [3], Limits(fuel=needed - 1)) == ExecResult(None, "FuelExhausted",
        needed - 1)
    assert run(program, "f", [3], Limits(fuel=1)) == ExecResult(None, "FuelExhausted", 1)


def _descend(max_stack: int | None = None) -> Program:
    """f(n) = f(n + 1) forever: 4 steps per level, one local, max stack 2."""
    return assemble(Fn("f", [INT], INT,
                       [("LOAD", 0), ("LOADI", 1), ("ADD_I",), ("CALL", "f"), ("RET",)],
                       max_stack=max_stack))


def test_recursion_limit() -> None:
    # depth d runs 4 steps, the CALL made at depth max_call_depth traps
    assert run(_descend(), "f", [0], Limits(max_call_depth=1)) == ExecResult(None,
        "RecursionError", 4)
    assert run(_descend(), "f", [0], Limits(max_call_depth=10)) == ExecResult(None,
        "RecursionError", 40)


def test_stack_limit() -> None:
    # the frame at depth k has base k - 1 and needs base + 1 local + 2 operands <= stack_words
    assert _descend().functions[0].max_stack == 2
    assert run(_descend(), "f", [0], Limits(stack_words=10)) == ExecResult(None, "StackExhausted",
        8 * 4)
    assert run(_descend(), "f", [0], Limits(stack_words=2)) == ExecResult(None, "StackExhausted", 0)
    assert run(_descend(), "f", [0], Limits(stack_words=3, max_call_depth=1)) == ExecResult(None,
        "RecursionError", 4)
    # both limits at the same call: the depth is checked first
    assert run(_descend(), "f", [0], Limits(stack_words=10, max_call_depth=8)) == ExecResult(None,
        "RecursionError", 32)
    # with max stack 7 the frames at depth 1, 2, 3 need 8, 9, 10 slots: the call into depth 4 traps
    assert run(_descend(max_stack=7), "f", [0], Limits(stack_words=10)) == ExecResult(None,
        "StackExhausted", 3 * 4)


def _append_forever() -> Program:
    """xs = []; while True: xs.append(7). 2 steps, then 4 per append: append k is step 4k + 1."""
    code = [("LIST_NEW", 0), ("STORE", 0), ("LOAD", 0), ("LOADI", 7), ("LIST_APPEND",), ("JUMP", 2)]
    return assemble(Fn("f", [], INT, code, n_locals=1))


@pytest.mark.parametrize(("heap_words", "failing_append"), [
    # words in use after the list (3) and each growth: 7 (1st append), 15 (5th), 31 (9th),
    # 63 (17th), 127 (33rd), 255 (65th)
    (6, 1), (7, 5), (14, 5), (15, 9), (126, 33), (127, 65), (254, 65), (255, 129),
])
def test_heap_exhausted_appending(heap_words: int, failing_append: int) -> None:
    assert run(_append_forever(), "f", [], Limits(heap_words=heap_words)) == ExecResult(
        None, "HeapExhausted", 4 * failing_append + 1)
    assert run(_append_forever(), "f", [], Limits(heap_words=2)) == ExecResult(None,
        "HeapExhausted", 1)


@pytest.mark.parametrize(("code", "params", "args", "words"), [
    ([("LOAD", 0), ("LIST_OF_STR",), ("POP",)], [STR], ("abc",), 4 + 3 + 3 + 3 * 2),
     # arg 4, list 6, chars 6
    ([("LOAD", 0), ("SORTED", LI), ("POP",)], [LI], ([3, 1, 2],), 6 + 3 + 2 * 3),
         # needs 3 + 2n free
    ([("LOAD", 0), ("LOADI", 1), ("LIST_APPEND",)], [LI], ([1, 2, 3],), 6 + 6),
         # grows to max(4, 2 * 3)
    ([("LOAD", 0), ("LOADI", 1), ("LIST_APPEND",)], [LI], ([],), 3 + 4),
    ([("LOAD", 0), ("STR_OF_INT",), ("POP",)], [INT], (-123,), 5),
    ([("LOAD", 0), ("STR_OF_BOOL",), ("POP",)], [BOOL], (False,), 6),
    ([("LOAD", 0), ("LOADI", -1), ("STR_INDEX",), ("POP",)], [STR], ("ab",), 3 + 2),
    ([("LOADI", 65), ("CHR",), ("POP",)], [], (), 2),
    ([("LOAD", 0), ("MIN", STR), ("POP",)], [STR], ("ba",), 3 + 2),
    ([("LOAD", 0), ("LOAD", 0), ("STR_CONCAT",), ("POP",)], [STR], ("ab",), 3 + 5),
    ([("LOAD", 0), ("LOADI", 3), ("STR_REPEAT",), ("POP",)], [STR], ("ab",), 3 + 7),
    ([("LOAD", 0), ("LOADI", -3), ("STR_REPEAT",), ("POP",)], [STR], ("ab",), 3 + 1),
    ([("LOAD", 0), ("LOADI", 1), ("STR_SLICE", 1), ("POP",)], [STR], ("abc",), 4 + 3),
    ([("LOAD", 0), ("LOAD", 0), ("LIST_CONCAT",), ("POP",)], [LI], ([5],), 4 + 5),
    ([("LOAD", 0), ("LOADI", 2), ("LIST_REPEAT",), ("POP",)], [LI], ([5],), 4 + 5),
    ([("LOAD", 0), ("LIST_REVERSED",), ("POP",)], [LI], ([5, 6],), 5 + 5),
    ([("LOAD", 0), ("LOADI", 0), ("LOADI", 9), ("LIST_SLICE", 3), ("POP",)], [LI], ([5, 6],),
     5 + 5),
    ([("LOADI", 0), ("LOADI", 4), ("LOADI", 1), ("LIST_RANGE",), ("POP",)], [], (), 7),
    ([("LOADI", 1), ("LOADI", 2), ("TUPLE_NEW", 2), ("POP",)], [], (), 3),
    ([("LOADI", 1), ("LOADI", 2), ("LIST_NEW", 2), ("POP",)], [], (), 5),
    ([], [tuple_of(STR, list_of(STR))], (("ab", ["c", ""]),), 3 + 3 + 5 + 2 + 1),
     # arguments, depth first
])
def test_allocation_sizes(code: list[Any], params: list[Type], args: tuple[Any, ...],
                          words: int) -> None:
    """Each case uses exactly `words` heap words: it runs in that many, and traps in one less."""
    full = code + [("LOADI", 0), ("RET",)]
    ok = run_code(full, params=params, args=args, heap_words=words)
    assert ok.trap is None, ok
    assert run_code(full, params=params, args=args, heap_words=words - 1).trap == "HeapExhausted"


def test_huge_sizes_exhaust_the_heap_without_building() -> None:
    assert trap_of([("STR", "ab"), ("CONST", INT64_MAX), ("STR_REPEAT",), ("RET",)],
                   ret=STR) == "HeapExhausted"
    repeat = [("LOADI", 1), ("LIST_NEW", 1), ("CONST", INT64_MAX), ("LIST_REPEAT",), ("RET",)]
    assert trap_of(repeat, ret=LI) == "HeapExhausted"
    whole_range = [("CONST", INT64_MIN), ("CONST", INT64_MAX), ("LOADI", 1), ("LIST_RANGE",),
                   ("RET",)]
    assert trap_of(whole_range, ret=LI) == "HeapExhausted"


def test_errors_are_checked_before_allocating() -> None:
    code = [("LOAD", 0), ("LOADI", 5), ("STR_INDEX",), ("RET",)]
    assert run_code(code, params=[STR], args=("ab",), ret=STR, heap_words=3).trap == "IndexError"
    code = [("LOAD", 0), ("LOADI", 0), ("STR_SLICE", 4), ("RET",)]
    assert run_code(code, params=[STR], args=("ab",), ret=STR, heap_words=3).trap == "ValueError"


def test_result_larger_than_the_heap() -> None:
    # "abc" lives in the image: it costs no heap, but its marshalled form is 4 words
    assert run_code([("STR", "abc"), ("RET",)], ret=STR, heap_words=4) == ExecResult("abc", None, 2)
    assert run_code([("STR", "abc"), ("RET",)], ret=STR, heap_words=3) == ExecResult(None,
        "HeapExhausted", 2)


def test_shared_result_size_is_counted_without_blowing_up() -> None:
    # [list(range(1000))] * 1000 takes 2 * 1003 heap words, its marshalled form 1 + 1000 * 1001
    code = [("LOADI", 0), ("LOADI", 1000), ("LOADI", 1), ("LIST_RANGE",), ("LIST_NEW", 1),
            ("LOADI", 1000),
            ("LIST_REPEAT",), ("RET",)]
    assert run_code(code, ret=list_of(LI), heap_words=10_000) == ExecResult(None, "HeapExhausted",
        8)
    assert run_code(code, ret=list_of(LI), heap_words=1_001_001).trap is None


# ---- arguments and results -----------------------------------------------------------------------


def test_arguments_and_results_round_trip() -> None:
    ty = tuple_of(INT, BOOL, FLOAT, STR, list_of(list_of(STR)), tuple_of())
    value = (-5, True, 2.5, "é", [["a"], []], ())
    assert value_of([("LOAD", 0), ("RET",)], params=[ty], ret=ty, args=(value,)) == value
    # An int is not run as a float: inside the function CPython would keep it an int.
    with pytest.raises(ValueError, match="an int stays an int"):
        value_of([("LOAD", 0), ("RET",)], params=[FLOAT], ret=FLOAT, args=(3,))
    assert value_of([("LOADI", 0), ("RET",)], ret=NONE) is None
    assert value_of([("LOADI", 1), ("RET",)], ret=BOOL) is True


def test_bad_arguments_name_the_function_and_parameter() -> None:
    program = assemble(Fn("g", [INT, list_of(STR)], INT, [("LOAD", 0), ("RET",)]))
    with pytest.raises(ValueError, match=r"g\(\): argument 1 .*list\[str\]"):
        run(program, "g", [1, ["a", 2]], Limits())
    with pytest.raises(ValueError, match=r"g\(\): argument 0"):
        run(program, "g", ["1", []], Limits())
    with pytest.raises(ValueError, match=r"g\(\): argument 0"):
        run(program, "g", [2**63, []], Limits())
    with pytest.raises(ValueError, match="takes 2 arguments, got 1"):
        run(program, "g", [1], Limits())
    with pytest.raises(KeyError, match="no function 'h'"):
        run(program, "h", [], Limits())
    with pytest.raises(ValueError, match="no function #3"):
        run(program, 3, [], Limits())


def test_arguments_exhausting_the_heap() -> None:
    code = [("LOADI", 0), ("RET",)]
    assert run_code(code, params=[list_of(INT)], args=([1, 2],), heap_words=5).trap is None
    assert run_code(code, params=[list_of(INT)], args=([1, 2],), heap_words=4) == ExecResult(None,
        "HeapExhausted", 0)


def test_ill_typed_code_is_a_memory_fault_not_a_crash() -> None:
    assert trap_of([("LOADI", 3), ("LIST_LEN",), ("RET",)]) == "MemoryFault"
    assert trap_of([("STR", "a"), ("LOADI", 1), ("ADD_I",), ("RET",)]) == "MemoryFault"


def test_execute_uses_the_reference_backend() -> None:
    assert execute(_sum_below(4), "f", [4], backend="ref") == ExecResult(6, None, 2 + 4 * 11 + 4)


def test_trace(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from vm import ref

    previous = ref.use_trace(True)  # what the settings' trace (KILN_TRACE=1) sets at the edge
    try:
        result = run(_sum_below(2), "f", [2], Limits())
    finally:
        ref.use_trace(previous)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == result.steps
    assert "f:3" in lines[3] and "JUMP_IF_FALSE" in lines[3] and "-> 13" in lines[3]
    assert lines[-1].split()[-1] == "1"  # the result on top of the stack at RET


# ---- superinstructions and loop steps ------------------------------------------------------------


@pytest.mark.parametrize("name", ["JUMP_LT_I", "JUMP_LE_I", "JUMP_GT_I", "JUMP_GE_I", "JUMP_EQ_I", "JUMP_NE_I"])
@pytest.mark.parametrize(("a", "b"), [(1, 2), (2, 1), (2, 2), (INT64_MIN, INT64_MAX)])
def test_fused_compare_and_branch(name: str, a: int, b: int) -> None:
    code = [("LOADI", a), ("CONST", b), (name, 5), ("LOADI", 0), ("RET",), ("LOADI", 1), ("RET",)]
    if not -(1 << 23) <= a < 1 << 23:
        code[0] = ("CONST", a)
    relation = {"LT": a < b, "LE": a <= b, "GT": a > b, "GE": a >= b, "EQ": a == b, "NE": a != b}
    assert value_of(code) == int(relation[name[5:7]])


def test_load2_and_add_immediate() -> None:
    code = [("LOAD2", local2(1, 0)), ("SUB_I",), ("ADDI", -100), ("RET",)]
    assert value_of(code, params=[INT, INT], args=(3, 1000)) == 1000 - 3 - 100
    assert trap_of([("CONST", INT64_MAX), ("ADDI", 1), ("RET",)]) == "Overflow"
    assert trap_of([("CONST", INT64_MIN), ("ADDI", -1), ("RET",)]) == "Overflow"


def _sum_range(start: int, stop: int, step: int) -> list[Any]:
    # total = 0; i = -1; for i in range(start, stop, step): total += 1
    # return total * 1000 + i % 1000
    return [
        ("LOADI", -1), ("STORE", 1), ("CONST", start), ("STORE", 3), ("CONST", stop), ("STORE", 4),
        ("CONST", step), ("STORE", 5), ("JUMP", 12),
        ("LOAD", 0), ("ADDI", 1), ("STORE", 0),
        ("FOR_RANGE", local2(1, 3)), ("JUMP", 9),
        ("LOAD", 0), ("LOADI", 1000), ("MUL_I",), ("LOAD", 1), ("LOADI", 1000), ("MOD_I",),
        ("ADD_I",), ("RET",),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("start", "stop", "step"),
    [(0, 5, 1), (5, 0, -2), (3, 3, 1), (0, 10, 4), (INT64_MAX - 7, INT64_MAX, 3),
     (INT64_MIN + 7, INT64_MIN, -3), (0, -1, 1)],
)  # fmt: skip
def test_for_range_is_pythons_range(start: int, stop: int, step: int) -> None:
    values = range(start, stop, step)
    last = values[-1] if values else -1
    result = run_code(_sum_range(start, stop, step), n_locals=6)
    assert result.value == len(values) * 1000 + last % 1000
    assert result.steps == 9 + 4 * len(values) + 1 + 8


def test_for_list_and_for_str() -> None:
    # n = 0; for x in xs: n = n * 10 + x; return n   (xs in local 2, its index in 3, x in 4)
    code = [("LOAD", 0), ("STORE", 2), ("JUMP", 9),
            ("LOAD", 1), ("LOADI", 10), ("MUL_I",), ("LOAD", 4), ("ADD_I",), ("STORE", 1),
            ("FOR_LIST", local2(4, 2)), ("JUMP", 3), ("LOAD", 1), ("RET",)]  # fmt: skip
    assert value_of(code, params=[list_of(INT)], args=([1, 2, 3],), n_locals=5) == 123
    assert value_of(code, params=[list_of(INT)], args=([],), n_locals=5) == 0
    # the last character of s, or "-" for ""
    chars = [("STR", "-"), ("STORE", 1), ("LOAD", 0), ("STORE", 2),
             ("FOR_STR", local2(1, 2)), ("JUMP", 4), ("LOAD", 1), ("RET",)]  # fmt: skip
    assert value_of(chars, params=[STR], ret=STR, args=("héllo",), n_locals=4) == "o"
    assert value_of(chars, params=[STR], ret=STR, args=("",), n_locals=4) == "-"


def test_a_bool_argument_is_not_taken_for_an_int() -> None:
    """CPython keeps True a bool inside the function (str(True) is "True", type(True) is bool):
    kiln's int parameters never hold one, so type(x) and isinstance(x, bool) of an int are
    decided by the types (compiler/types.py's _RUNTIME_CLASSES)."""
    from compiler import compile_source
    from vm import execute
    from vm.values import BOOL, INT, marshal

    with pytest.raises(ValueError):
        marshal(True, INT)
    assert marshal(True, BOOL) == [1] and marshal(1, INT) == [1]
    program = compile_source("def f(x: int) -> str:\n    return str(x)\n")
    with pytest.raises(ValueError):
        execute(program, "f", [True])
    assert execute(program, "f", [7]).value == "7"
