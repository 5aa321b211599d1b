"""The farm's check workload: HumanEval-sized candidates with tests whose expected values come
from CPython. `kiln farm check` runs it on a live farm; `kiln bench farm` and `kiln bench gpu`
(bench/, above this layer) time it.

    from cluster.workload import workload
    candidates, tests = workload(120)   # 120 distinct candidates, ten tests per problem

The functions are cluster/programs/humaneval_like.py (typical solutions, unannotated as models
write them: their tests' arguments give the types); each is one problem, with
TESTS_PER_CANDIDATE inputs drawn from a seeded generator, so a workload is the same on every run.
"""

from __future__ import annotations

import ast
import copy
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.jobs import Candidate, TestSpec

PROGRAMS = Path(__file__).resolve().parent / "programs" / "humaneval_like.py"
TESTS_PER_CANDIDATE = 10


@dataclass(frozen=True)
class Problem:
    name: str
    source: str
    entry: str
    tests: list[TestSpec]


_INPUTS: dict[str, Callable[[random.Random], tuple[Any, ...]]] = {
    "has_close_elements": lambda r: (
        [round(r.uniform(0, 10), 1) for _ in range(8)],
        round(r.uniform(0.05, 1.0), 2),
    ),
    "below_zero": lambda r: ([r.randint(-10, 12) for _ in range(10)],),
    "sum_product": lambda r: ([r.randint(-5, 5) for _ in range(6)],),
    "is_palindrome": lambda r: (_maybe_palindrome(r),),
    "fizz_buzz": lambda r: (r.randint(50, 400),),
    "largest_divisor": lambda r: (r.randint(2, 200),),
    "incr_list": lambda r: ([r.randint(-100, 100) for _ in range(10)],),
    "count_upper": lambda r: ("".join(r.choice("AEIOUaeiouBCDxyz") for _ in range(12)),),
}


def _maybe_palindrome(r: random.Random) -> str:
    half = "".join(r.choice("abc") for _ in range(r.randint(0, 5)))
    return half + half[::-1] if r.random() < 0.5 else half + r.choice("xy") + half


def expected_tests(source: str, entry: str, inputs: list[tuple[Any, ...]]) -> list[TestSpec] | None:
    """Tests with CPython's results as expected values; None if any input raises."""
    namespace: dict[str, Any] = {}
    exec(compile(source, f"<{entry}>", "exec"), namespace)
    tests = []
    for args in inputs:
        try:
            tests.append(TestSpec(args, namespace[entry](*copy.deepcopy(args))))
        except Exception:  # the workloads hold programs that return on every input
            return None
    return tests


def humaneval_problems(seed: int) -> list[Problem]:
    """One Problem per function of PROGRAMS, its tests drawn with `seed`."""
    text = PROGRAMS.read_text()
    rng = random.Random(seed)
    problems = []
    for fn in ast.parse(text).body:
        if isinstance(fn, ast.FunctionDef):
            source = ast.get_source_segment(text, fn) or ""
            tests = expected_tests(
                source, fn.name, [_INPUTS[fn.name](rng) for _ in range(TESTS_PER_CANDIDATE)]
            )
            assert tests is not None, fn.name
            problems.append(Problem(fn.name, source + "\n", fn.name, tests))
    return problems


def workload(n: int, seed: int = 1) -> tuple[list[Candidate], dict[str, list[TestSpec]]]:
    """`n` distinct candidates over the HumanEval-sized problems, and their tests per problem.
    Each is distinct in its bytecode, as most samples of a model are (1,160 of the 1,308
    development-set programs kc compiles): a helper no test calls, `sample_<i>`, makes it so (a
    comment alone would not: the Pipeline loads equal containers as one program)."""
    problems = humaneval_problems(seed)
    candidates = [
        Candidate(p.source + f"\n\ndef sample_{i}() -> int:\n    return {i}\n", p.entry, p.name)
        for i, p in ((i, problems[i % len(problems)]) for i in range(n))
    ]
    return candidates, {p.name: p.tests for p in problems}
