"""The batched compiler's optimisation passes (compiler/kernels/kc_opt.h and the `loops` lowering
in kc.h) against the live reference compiler with its passes on.

Every program the batched compiler accepts must compile to the very bytes
`compile_source(..., passes=...)` gives: with every pass (the Pipeline's setting and the default
of both), with each pass alone, and with each pass left out. Constant folding is checked on its
edge cases: int64 overflow, traps left for run time, shifts, powers, float specials (signed
zeros, infinities, NaNs), constants that need the pool.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from _corpus import call_types, generated

from compiler import CompileError, compile_source
from compiler.batched import Unsupported, compile_batch, compile_with_fallback, passes_mask
from compiler.optimize import PASSES
from fuzz.generator import generate
from vm import execute

CORPUS = Path(__file__).parent / "programs"




def _src(*lines: str) -> str:
    return "".join(line + "\n" for line in lines)


def _reference(source, name, arg_types, passes) -> bytes | CompileError:
    try:
        return compile_source(source, name, arg_types=arg_types, passes=passes).to_bytes()
    except CompileError as error:
        return error


def _check_identical(sources, names, arg_types, passes=True, threads=None) -> list[bool]:
    """Asserts byte identity wherever the batched compiler accepts; returns which it accepted."""
    accepted = []
    got_all = compile_batch(sources, names, arg_types, threads=threads, passes=passes)
    for source, name, types, got in zip(sources, names, arg_types, got_all, strict=True):
        if isinstance(got, Unsupported):
            assert got.reason.startswith("unsupported by the batched compiler: "), got
            accepted.append(False)
            continue
        accepted.append(True)
        want = _reference(source, name, types, passes)
        assert not isinstance(want, CompileError), f"{name}: kc accepted, reference says {want}"
        assert got == want, f"{name} (passes={passes}): containers differ\n{source}"
    return accepted


def _corpus():
    paths = sorted(CORPUS.rglob("*.py"))
    sources = [p.read_text() for p in paths]
    return sources, [str(p.relative_to(CORPUS)) for p in paths], [call_types(s) for s in sources]


# ---- every pass on -------------------------------------------------------------------------------


def test_corpus_programs_it_accepts_are_byte_identical_with_every_pass():
    sources, names, types = _corpus()
    with_passes = _check_identical(sources, names, types, passes=True)
    print(f"corpus: {sum(with_passes)}/{len(sources)} accepted with every pass")
    # the passes refuse nothing the batched compiler covers at -O0
    without = [isinstance(r, bytes) for r in compile_batch(sources, names, types, passes=False)]
    assert with_passes == without
    assert sum(with_passes) >= 51  # 179 of 419 when written


@pytest.mark.parametrize("level", [0, 1, 2])
def test_generated_programs_are_byte_identical_with_every_pass(level):
    accepted = _check_identical(*generated(level, 400, f"gen{level}_"))
    assert all(accepted)  # every program of levels 0-2 is covered


def test_generated_programs_of_higher_levels_are_identical_or_unsupported():
    programs = [generate(seed, complexity=level) for seed in range(60) for level in (3, 4, 5)]
    _check_identical(
        [p.source for p in programs], [f"g{i}.py" for i in range(len(programs))], [None] * 180
    )


def test_passes_are_on_by_default_as_in_compile_source():
    source = _src(
        "def f(n: int) -> int:",
        "    t = 0",
        "    for i in range(n):",
        "        t += 2 * 3",
        "    return t",
    )
    [default] = compile_batch([source])
    assert default == compile_source(source).to_bytes()
    assert default != compile_source(source, passes=False).to_bytes()


# ---- each pass alone, and each pass left out --------------------------------------------------


def _sample():
    sources, names, types = _corpus()
    programs = [generate(seed, complexity=seed % 3) for seed in range(90)]
    return (
        sources + [p.source for p in programs],
        names + [f"gen_{p.seed}.py" for p in programs],
        types + [None] * len(programs),
    )


@pytest.mark.parametrize("name", PASSES)
def test_each_pass_alone_and_each_pass_left_out(name):
    sources, names, types = _sample()
    for passes in ({name}, set(PASSES) - {name}):
        accepted = _check_identical(sources, names, types, passes=passes)
        assert sum(accepted) >= 90 + 51


# the instructions kc_opt.h folds (kc_fold_arity): every one of vm/semantics.py's that kc emits
FOLDED = set(
    "ADD_I SUB_I MUL_I FLOORDIV_I MOD_I POW_I DIV_I AND_I OR_I XOR_I SHL_I SHR_I LT_I LE_I GT_I "
    "GE_I EQ_I NE_I ADD_F SUB_F MUL_F DIV_F FLOORDIV_F MOD_F POW_F LT_F LE_F GT_F GE_F EQ_F NE_F "
    "NEG_I ABS_I INVERT_I NOT I2F I2F_EXACT NEG_F ABS_F TRUTH_F F2I SQRT_F FLOOR_F CEIL_F "
    "ROUND_F".split()
)


def test_fold_knows_every_scalar_instruction_kc_emits():
    from compiler.batched import KC_OP_NAMES
    from vm.semantics import FLOAT_BINARY, FLOAT_UNARY, INT_BINARY, INT_UNARY

    foldable = {*INT_BINARY, *FLOAT_BINARY, *INT_UNARY, *FLOAT_UNARY}
    # an instruction added to kc that the reference folds needs a case in kc_fold_value too
    assert foldable & set(KC_OP_NAMES) <= FOLDED, foldable & set(KC_OP_NAMES) - FOLDED


def test_pass_names_are_checked():
    assert passes_mask(True) == 63 and passes_mask(False) == 0
    assert passes_mask({"fold", "loops"}) == 1 | 32
    with pytest.raises(ValueError, match="unknown optimisation pass"):
        compile_batch(["def f() -> int:\n    return 1\n"], passes={"inline"})


# ---- constant folding: the VM's semantics, traps left for run time ------------------------------

INT_CASES = [
    "2**62 + 2**62",
    "9223372036854775807 + 1",
    "-9223372036854775807 - 2",
    "9223372036854775807 - -1",
    "3037000500 * 3037000500",
    "3037000499 * 3037000499",
    "-3037000500 * 3037000500",
    "(-2) ** 63",
    "2 ** 63",
    "2 ** 64",
    "3 ** 40",
    "3 ** 41",
    "0 ** 0",
    "(-1) ** 1000001",
    "2 ** 62 * 2",
    "7 // 0",
    "7 % 0",
    "-7 // 2",
    "-7 % 2",
    "7 % -2",
    "7 // -2",
    "-7 // -2",
    "(-9223372036854775807 - 1) // -1",
    "(-9223372036854775807 - 1) % -1",
    "(-9223372036854775807 - 1) // 1",
    "1 << 63",
    "1 << 62",
    "-1 << 63",
    "0 << 100",
    "5 << -1",
    "5 >> -1",
    "-5 >> 100",
    "5 >> 64",
    "3 << 64",
    "-(-9223372036854775807 - 1)",
    "abs(-9223372036854775807 - 1)",
    "abs(-5)",
    "~5",
    "~-1",
    "8388607 + 1",
    "-8388608 - 1",
    "8388607",
    "-8388608",
    "12345678901234",
    "-12345678901234 * 3",
    "int(not 3)",
    "int(not 0)",
    "5 & 3 | 8 ^ 1",
    "int(3 < 4) + int(4 <= 4) + int(5 > 6) + int(5 >= 6) + int(1 == 1) + int(1 != 1)",
    "int(1.5)",
    "int(-1.5)",
    "int(1e300)",
    "int(1e999)",
    "int(1e999 - 1e999)",
    "int(-9.2e18)",
    "int(9.3e18)",
    "int(-9223372036854775808.0)",
    "int(9223372036854775808.0)",
    "int(True)",
    "int(2.5 < 3)",
]
FLOAT_CASES = [
    "1.5 + 2.25",
    "1e308 * 10",
    "1e308 * 10 - 1e308 * 10",
    "0.1 + 0.2",
    "1.0 / 0.0",
    "1.0 // 0.0",
    "1.0 % 0.0",
    "7.5 // -2",
    "-7.5 % 2",
    "-0.0 % 5.0",
    "0.0 // -3.0",
    "2.0 ** 0.5",
    "(-8.0) ** (1.0 / 3)",
    "0.0 ** -1.0",
    "10.0 ** 400",
    "10.0 ** -400",
    "(-2.0) ** 3",
    "(-2.0) ** 3.5",
    "1e999 ** 0.0",
    "(-1e999) ** 0.5",
    "(-1e999) ** 3.0",
    "(-1e999) ** -3.0",
    "0.5 ** 1e999",
    "2.0 ** -1e999",
    "(-1.0) ** 1e999",
    "(-0.0) ** 3.0",
    "(-0.0) ** 2.0",
    "(-2.0) ** 1e300",
    "1.0 ** (1e999 - 1e999)",
    "2 ** -1",
    "2 ** -2 + 1",
    "float(2**53 + 1)",
    "float(9223372036854775807)",
    "-0.0",
    "abs(-0.0)",
    "-(0.0)",
    "-(1e999 - 1e999)",
    "1 / 3",
    "2**53 / 3",
    "(2**53 + 1) / 3",
    "7 / 0",
    "0 / -5",
    "-6 / 4",
    "1e999 // 1.0",
    "1e999 % 2.0",
    "5.0 % 1e999",
    "-5.0 % 1e999",
    "5.0 // 1e999",
    "-5.0 // 1e999",
    "5.0 // -1e999",
    "(1e999 - 1e999) % 2.0",
    "(1e999 - 1e999) // 2.0",
    "2.0 % (1e999 - 1e999)",
    "(1e999 - 1e999) + 1.0",
    "1.0 - (1e999 - 1e999)",
    "-(1e999 - 1e999) * 2.0",
    "2.0 / -(1e999 - 1e999)",
    "(1e999 - 1e999) - -(1e999 - 1e999)",
    "(1e999 - 1e999) / -(1e999 - 1e999)",
    "1e999 / 1e999",
    "0.0 * 1e999",
    "-1e999 + 1e999",
    "1.0 + 2",
    "3 * 0.5",
    "2 ** 0.5",
    "1e-320 / 1e10",
    "5e-324 * 0.5",
    "1.7976931348623157e308 + 1e292",
    "abs(-2.5)",
    "-(-2.5)",
    "float(3)",
    "float(True)",
    "1e22 % 7.0",
    "-1e22 // 7.0",
    "0.3 % 0.1",
    "0.3 // 0.1",
]
BOOL_CASES = [
    "1 == 1.0",
    "(2**53 + 1) == 2.0**53",
    "2**53 == 2.0**53",
    "1e999 - 1e999 == 1e999 - 1e999",
    "1e999 - 1e999 != 1e999 - 1e999",
    "(1e999 - 1e999) < 1.0",
    "bool(0.0)",
    "bool(-0.0)",
    "bool(1e999 - 1e999)",
    "not 0.0",
    "not 2.5",
    "3 < 2.5",
    "-0.0 == 0.0",
    "2.5 >= 2.5",
    "1.0 <= 0.5",
    "1.5 > 1",
    "True and False",
    "True or 1 < 2",
    "not (1 < 2 < 3)",
    "1 < 2 < 3",
    "bool(3)",
    "bool(0)",
]
# Left out on purpose: + and * of two NaNs of different signs. CPython's result is the second
# NaN while its BINARY_OP is cold and the first once specialised, so the reference itself
# differs with its warmth (kc gives the first).


def test_constant_folding_edge_cases():
    sources = [
        f"def f() -> {ty}:\n    return {case}\n"
        for cases, ty in ((INT_CASES, "int"), (FLOAT_CASES, "float"), (BOOL_CASES, "bool"))
        for case in cases
    ]
    accepted = _check_identical(sources, ["fold.py"] * len(sources), [None] * len(sources))
    assert all(accepted)
    # and folding happened (a trap left for run time keeps its operation)
    folded = load_code(compile_batch(["def f() -> int:\n    return 3 ** 39 - 7 // 0\n"])[0])
    assert "POW_I" not in folded and "FLOORDIV_I" in folded


_INTS = ["0", "1", "2", "3", "7", "63", "64", "65", "2147483648", "9007199254740992", "12345"]
_INTS += ["9007199254740993", "4611686018427387904", "9223372036854775807", "8388607", "8388608"]
_INTS += ["True", "False", "100"]
_FLOATS = ["0.0", "(-0.0)", "0.5", "1.5", "1e308", "1e999", "1e-320", "3.0", "2.0", "0.1", "7.25"]
_FLOATS += ["(1e999 - 1e999)"]
_BINARY = ["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "<", "<=", "==", "!="]
_BINARY += [">", ">="]


def test_constant_folding_of_random_expressions():
    from vm.semantics import FLOAT_BINARY

    # CPython gives the first of two NaNs to + and * only once its BINARY_OP is specialised
    # (the second before): warm the reference's operators so that it is deterministic
    for _ in range(100):
        FLOAT_BINARY["ADD_F"](1.0, 2.0), FLOAT_BINARY["MUL_F"](1.0, 2.0)
    rng = random.Random(11)

    def expr(depth: int) -> str:
        if depth == 0 or rng.random() < 0.25:
            return rng.choice(_INTS if rng.random() < 0.55 else _FLOATS)
        if rng.random() < 0.7:
            return f"({expr(depth - 1)} {rng.choice(_BINARY)} {expr(depth - 1)})"
        unary = rng.choice(["-", "~", "not ", "abs", "int", "float", "bool"])
        if unary[0].isalpha() and unary != "not ":
            return f"{unary}({expr(depth - 1)})"
        return f"({unary}{expr(depth - 1)})"

    sources = []
    while len(sources) < 400:
        source = f"def f():\n    return {expr(rng.randrange(1, 4))}\n"
        if not isinstance(_reference(source, "r.py", None, True), CompileError):
            sources.append(source)  # (type errors are the reference's to report)
    assert all(_check_identical(sources, ["r.py"] * 400, [None] * 400))


def load_code(blob: bytes) -> str:
    from vm.container import load
    from vm.disasm import disassemble

    return disassemble(load(blob))


def test_folded_constants_extend_the_pool_in_the_reference_order():
    # constants of every function's lowering first, then each function's folded ones in turn
    source = (
        "def a() -> float:\n    return 1.5 * 2.0 + 12345678901\n\n"
        "def b() -> int:\n    return 98765432109 * 3 + int(a())\n\n"
        "def c(x: float) -> float:\n    return x + 2.0 * 1.5 + 3.0\n"
    )
    assert all(_check_identical([source], ["pool.py"], [None]))


def test_folded_programs_run_like_the_reference():
    source = "def main() -> int:\n    x = 2 ** 40 + (1 << 20)\n    return x // 3 - 7 % 2\n"
    [program] = compile_with_fallback([source], ["run.py"], [None])
    assert execute(program, "main", []).value == (2**40 + (1 << 20)) // 3 - 1


def test_fallback_compiles_with_the_same_passes():
    covered = "def main() -> int:\n    return 6 * 7\n"
    refused = (
        "def main() -> int:\n    a = [1, 2, 3]\n    a[0:1] = [2 * 4]\n    return a[0] * 3 + 2 * 4\n"
    )
    assert isinstance(compile_batch([refused])[0], Unsupported)
    for passes in (True, False, {"fold"}):
        programs = compile_with_fallback([covered, refused], ["a.py", "d.py"], passes=passes)
        for source, program in zip([covered, refused], programs, strict=True):
            want = compile_source(source, program.source_name, passes=passes).to_bytes()
            assert program.to_bytes() == want


# ---- the `loops` pass and the control-flow passes on hand-written shapes ------------------------

LOOPS = [
    # constant and dynamic steps, negative, zero (raises), the loop variable read after the loop
    # (a flag slot: the step writes a hidden slot), break / continue, nesting, while, dead code,
    # jumps to jumps, NOT before a branch, pushes popped at once
    _src(
        "def f(n: int) -> int:",
        "    t = 0",
        "    for i in range(n):",
        "        t += i",
        "    return t",
    ),
    _src(
        "def f(n: int) -> int:",
        "    t = 0",
        "    for i in range(2, n, 3):",
        "        t += i",
        "    return t",
    ),
    _src(
        "def f(n: int) -> int:",
        "    t = 0",
        "    for i in range(n, 0, -2):",
        "        t -= i",
        "    return t",
    ),
    _src(
        "def f(n: int, s: int) -> int:",
        "    t = 0",
        "    for i in range(0, n, s):",
        "        t += i",
        "    return t",
    ),
    _src(
        "def f(n: int) -> int:",
        "    t = 0",
        "    for i in range(0, n, 0):",
        "        t += i",
        "    return t",
    ),
    _src("def f(n: int) -> int:", "    for i in range(n):", "        pass", "    return i"),
    _src(
        "def f(n: int) -> int:",
        "    t = 0",
        "    for i in range(n):",
        "        if i == 3:",
        "            continue",
        "        if i > 7:",
        "            break",
        "        t += i",
        "    return t",
    ),
    _src(
        "def f(n: int) -> int:",
        "    t = 0",
        "    for i in range(n):",
        "        for j in range(i):",
        "            t += i * j",
        "    return t",
    ),
    _src(
        "def f(n: int) -> int:",
        "    t = 0",
        "    while True:",
        "        t += 1",
        "        if t > n:",
        "            break",
        "    return t",
    ),
    _src(
        "def f(n: int) -> int:",
        "    if n > 0:",
        "        return 1",
        "    else:",
        "        return 2",
        "    return 3",
    ),
    _src(
        "def f(a: bool, b: bool) -> int:",
        "    if not a:",
        "        if not (a or b):",
        "            return 1",
        "    elif a and not b:",
        "        return 2",
        "    return 3",
    ),
    _src(
        "def f(n: int) -> int:",
        "    x = n",
        "    x",
        "    1",
        "    n < 3 < x",
        "    return x if not n else -x",
    ),
    _src(
        "def f(n: int) -> int:",
        "    while n > 0:",
        "        n -= 1",
        "        if n == 5:",
        "            while True:",
        "                break",
        "    return n",
    ),
    _src("def f(n: int) -> bool:", "    return 0 < n <= 10 and not n == 5 or n >= 100"),
    _src(
        "def f(x: float) -> int:",
        "    t = 0",
        "    for i in range(10):",
        "        if x > i:",
        "            t += 1",
        "    return t",
    ),
    # functions one after another: a label at a function's first instruction is its own
    _src(
        "def f(n: int) -> int:",
        "    while n > 0:",
        "        n -= 1",
        "    return n",
        "",
        "def g(n: int) -> int:",
        "    while n < 10:",
        "        n += f(n)",
        "        if n > 3:",
        "            break",
        "    return n",
    ),
    _src(
        "def f(n: int) -> bool:",
        "    return n > 1 and n < 5 or not n",
        "",
        "def g(n: int) -> int:",
        "    while f(n):",
        "        n += 1",
        "    return n",
    ),
]


def test_loop_steps_and_control_flow_shapes():
    for passes in (True, False, {"loops"}, {"loops", "fuse"}, {"threading", "dce"}, {"peephole"}):
        assert all(_check_identical(LOOPS, ["loops.py"] * len(LOOPS), [None] * len(LOOPS), passes))


def test_loop_steps_need_twelve_bit_slots():
    # lower.py steps a range loop only while its state slots fit a local2 operand (step + 1 <=
    # 4095): 4090 variables before the loop still fit, 4091 do not
    def many(count: int) -> str:
        body = "".join(f"    v{i} = n + {i}\n" for i in range(count))
        loop = "    for i in range(n):\n        v0 += i\n"
        return f"def f(n: int) -> int:\n{body}{loop}    return v0\n"

    sources = [many(4090), many(4091)]
    assert all(_check_identical(sources, ["wide.py"] * 2, [None] * 2))
    stepped, plain = (load_code(b) for b in compile_batch(sources))
    assert "FOR_RANGE" in stepped and "FOR_RANGE" not in plain


def test_truncated_programs_with_every_pass():
    # whatever prefix of a program kc accepts, it compiles as the reference does
    source = generate(7, complexity=2).source
    cuts = [source[:i] for i in range(0, len(source), 3)]
    _check_identical(cuts, ["cut.py"] * len(cuts), [None] * len(cuts))


# ---- threads ------------------------------------------------------------------------------------


def test_one_and_two_threads_give_the_same_bytes():
    sources = [generate(seed, complexity=seed % 3).source for seed in range(120)]
    one = compile_batch(sources, threads=1)
    assert one == compile_batch(sources, threads=2)
    assert all(isinstance(r, bytes) for r in one)
