"""The batched compiler (compiler/kernels/kc.h) against the live reference compiler at -O0.

Every program the batched compiler accepts must compile to the very bytes the reference
compiler gives with its passes off; every other program must come back `Unsupported` (never a
wrong container, a crash or a hang). Sources: the golden corpus, generated programs of the
low complexity levels, and fuzzed text (random bytes, truncations, deep nesting, huge literals).
The acceptance floors are shares measured when the test was written: a drop is a regression.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from compiler import CompileError, compile_source, parse_call
from compiler.batched import KERNELS, Unsupported, compile_batch, compile_with_fallback
from fuzz.generator import generate
from vm import execute
from vm.container import load
from vm.values import type_of_value

CORPUS = Path(__file__).parent / "programs"


def _call_types(source: str) -> dict:
    call = "main()"
    for line in source.splitlines():
        if not line.startswith("#"):
            break
        key, _, value = line[1:].strip().partition(":")
        if key == "call":
            call = value.strip()
    name, args = parse_call(call)
    return {name: [type_of_value(a) for a in args]}


def _reference(source: str, name: str, arg_types: dict | None) -> bytes | CompileError:
    try:
        return compile_source(source, name, arg_types=arg_types, passes=False).to_bytes()
    except CompileError as error:
        return error


def _check_identical(sources, names, arg_types) -> int:
    """Asserts byte identity wherever the batched compiler accepts; returns how many it did."""
    accepted = 0
    for source, name, types, got in zip(
        sources, names, arg_types, compile_batch(sources, names, arg_types), strict=True
    ):
        if isinstance(got, Unsupported):
            assert got.reason.startswith("unsupported by the batched compiler: "), got
            continue
        accepted += 1
        want = _reference(source, name, types)
        assert not isinstance(want, CompileError), f"{name}: kc accepted, reference says {want}"
        assert got == want, f"{name}: containers differ\n{source}"
    return accepted


def test_corpus_programs_it_accepts_are_byte_identical():
    paths = sorted(CORPUS.rglob("*.py"))
    sources = [p.read_text() for p in paths]
    names = [str(p.relative_to(CORPUS)) for p in paths]
    accepted = _check_identical(sources, names, [_call_types(s) for s in sources])
    share = accepted / len(paths)
    print(f"corpus: {accepted}/{len(paths)} accepted ({share:.1%})")
    assert share >= 0.12  # measured 12.7% (51/402) when written


@pytest.mark.parametrize("level", [0, 1, 2])
def test_generated_programs_are_byte_identical(level):
    programs = [generate(seed, complexity=level) for seed in range(400)]
    sources = [p.source for p in programs]
    names = [f"gen{level}_{p.seed}.py" for p in programs]
    accepted = _check_identical(sources, names, [None] * len(programs))
    print(f"generated level {level}: {accepted}/{len(programs)} accepted")
    assert accepted == len(programs)  # every program of levels 0-2 is covered


def test_generated_programs_of_higher_levels_are_identical_or_unsupported():
    programs = [generate(seed, complexity=level) for seed in range(100) for level in (3, 4, 5)]
    _check_identical(
        [p.source for p in programs], [f"g{i}.py" for i in range(len(programs))], [None] * 300
    )


def test_arg_types_type_unannotated_parameters():
    source = "def f(a, b) -> float:\n    return a * b + 0.5\n"
    for types in ({"f": [type_of_value(2), type_of_value(1.5)]}, {"f": [type_of_value(True)] * 2}):
        assert _check_identical([source], ["f.py"], [types]) == 1
    # a list argument is outside what kc covers: it says so
    [got] = compile_batch([source], ["f.py"], [{"f": [type_of_value([1]), type_of_value(1)]}])
    assert isinstance(got, Unsupported)


RESULT_INFERENCE = [
    "def fib(n: int):\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\n",
    "def main():\n    return helper(3) + 1\n\ndef helper(x: int):\n    return x * 2.5\n",
    "def a(n: int):\n    if n <= 0:\n        return 0\n    return b(n - 1) + 1\n\n"
    "def b(n: int):\n    if n <= 0:\n        return 1\n    return a(n - 1) * 2\n",
    "def f(n: int):\n    x = n\n",
    "def f(n: int):\n    g(n)\n    return\n\ndef g(k: int):\n    pass\n",
    "def f(n: int):\n    return None\n",
]


def test_result_types_are_inferred_in_the_reference_order():
    # a call of a function not checked yet checks that one first (types.py's check_now)
    assert _check_identical(RESULT_INFERENCE, ["r.py"] * 6, [None] * 6) == 6
    # a recursive call before any return: the reference's result type is not known there
    [got] = compile_batch(["def f(n: int):\n    return n * f(n - 1) if n > 1 else 1\n"])
    assert isinstance(got, Unsupported) and "result type is not known" in got.reason


def test_unsupported_programs_say_what_and_where():
    [got] = compile_batch(["def f() -> int:\n    x = [1]\n    return 0\n"])
    assert isinstance(got, Unsupported)
    assert got.reason == "unsupported by the batched compiler: list, dict or set display (line 2)"


def test_fallback_gives_programs_and_reference_diagnostics():
    sources = [
        "def main() -> int:\n    return 6 * 7\n",
        "def main() -> int:\n    xs = [1, 2]\n    return xs[1]\n",
        "def main() -> int:\n    return 1 + 'a'\n",
    ]
    first, second, third = compile_with_fallback(sources, ["a.py", "b.py", "c.py"])
    assert execute(first, "main", []).value == 42
    assert execute(second, "main", []).value == 2
    assert isinstance(third, CompileError) and third.kind == "type error"
    assert str(third).startswith("c.py:2:12: type error")


def test_a_batch_on_one_and_on_several_threads_gives_the_same_bytes():
    sources = [generate(seed, complexity=2).source for seed in range(60)]
    assert compile_batch(sources, threads=1) == compile_batch(sources, threads=4)


def test_number_literals_round_like_cpython():
    rng = random.Random(5)

    def digits(k: int) -> str:
        return "".join(rng.choice("0123456789") for _ in range(k)).lstrip("0") or "0"

    literals = ["0.1", "1e22", "1e23", "5e-324", "1.7976931348623157e308", "1e309", "0e0", ".5"]
    literals += ["1_000.000_1", "0x_ff", "0o17", "0b1_0", "9223372036854775807", "8388608"]
    for _ in range(300):
        mantissa = f"{digits(rng.randrange(1, 25))}.{digits(rng.randrange(0, 25))}"
        literals.append(mantissa + (f"e{rng.randrange(-340, 310)}" if rng.random() < 0.7 else ""))
    sources = [
        f"def f() -> {'int' if lit[:2] in ('0x', '0o', '0b') or lit.isdigit() else 'float'}:\n"
        f"    return {lit}\n"
        for lit in literals
    ]
    assert _check_identical(sources, ["n.py"] * len(sources), [None] * len(sources)) == len(sources)


# ---- fuzzed sources: a container or Unsupported, never a crash or a hang -----------------------


def _valid_or_unsupported(results) -> None:
    for got in results:
        if isinstance(got, bytes):
            load(got)  # framing and checksum
        else:
            assert isinstance(got, Unsupported)


def test_random_bytes():
    rng = random.Random(8)
    alphabet = "def x(): return 1+2*3\n\t ()[]:=#'\"\\0123456789.eE_abc-<>!&|^~%/ \n    "
    sources = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(200))) for _ in range(500)]
    sources += [bytes(rng.randrange(256) for _ in range(100)).decode("latin-1") for _ in range(200)]
    _valid_or_unsupported(compile_batch(sources))


def test_truncated_programs():
    source = generate(3, complexity=2).source
    cuts = [source[:i] for i in range(len(source))]
    results = compile_batch(cuts)
    _valid_or_unsupported(results)
    for cut, got in zip(cuts, results, strict=True):  # whatever it accepts, it gets right
        if isinstance(got, bytes):
            assert got == _reference(cut, "<input>", None)


def test_pathological_nesting_and_huge_literals():
    deep_parens = "def f() -> int:\n    return " + "(" * 10000 + "1" + ")" * 10000 + "\n"
    deep_unary = "def f() -> int:\n    return " + "-" * 10000 + "1\n"
    deep_not = "def f() -> bool:\n    return " + "not " * 10000 + "True\n"
    long_sum = "def f() -> int:\n    return " + "+".join(["1"] * 10000) + "\n"
    deep_blocks = "def f() -> int:\n" + "".join(" " * (i + 1) + "if True:\n" for i in range(10000))
    huge_int = "def f() -> int:\n    return " + "9" * 100000 + "\n"
    huge_float = "def f() -> float:\n    return " + "1" * 5000 + ".5e-4000\n"
    many_lines = "def f() -> int:\n    x = 0\n" + "    x += 1\n" * 20000 + "    return x\n"
    sources = [deep_parens, deep_unary, deep_not, long_sum, deep_blocks, huge_int, huge_float]
    results = compile_batch([*sources, many_lines])
    _valid_or_unsupported(results)
    assert all(isinstance(r, Unsupported) for r in results[:6])
    assert results[6] == _reference(huge_float, "<input>", None)  # strtod: correctly rounded
    assert results[7] == _reference(many_lines, "<input>", None)


# ---- the C source builds warning-free, for the host and as CUDA device code --------------------

WARNINGS = [
    "-std=c11",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-pedantic",
    "-Wshadow",
    "-Wconversion",
    "-Wno-sign-conversion",
]


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_batched_compiler_builds_warning_free_as_c11(tmp_path):
    command = ["gcc", *WARNINGS, "-O2", "-fsyntax-only", "-pthread", str(KERNELS / "kc_cpu.c")]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc (the CUDA toolkit)")
def test_batched_compiler_header_builds_to_ptx(tmp_path):
    kernel = tmp_path / "kc_kernel.cu"
    kernel.write_text(  # one thread per program, each on its own slice of one arena buffer
        '#include "kc.h"\n'
        'extern "C" __global__ void kc_compile_programs(const char *buf, const int64_t *off,\n'
        "        const int64_t *len, int64_t n, const kc_config *cfg, uint8_t *arenas,\n"
        "        int64_t arena_cap, int64_t *out_len, int64_t *at, char *diags) {\n"
        "    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    const uint8_t *container;\n"
        "    int64_t need;\n"
        '    out_len[i] = kc_compile(buf + off[i], len[i], "k", 1, "", 0, cfg,\n'
        "        arenas + i * arena_cap, arena_cap, &container, &need,\n"
        "        diags + i * KC_DIAG_BYTES);\n"
        "    at[i] = container ? container - arenas : -1;\n"
        "}\n"
    )
    ptx = tmp_path / "kc.ptx"
    command = ["nvcc", "-ptx", "-arch=sm_90", f"-I{KERNELS}", str(kernel), "-o", str(ptx)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert ".entry kc_compile_programs(" in ptx.read_text()
