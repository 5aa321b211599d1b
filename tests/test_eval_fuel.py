"""Per-test fuel (`TestSpec.fuel`): each test's budget replaces the run's limit, on each backend."""

from __future__ import annotations

import pytest

from actors.pipeline import Candidate, Pipeline, cuda_available
from vm.batch import TestSpec
from vm.limits import Limits

BACKENDS = [
    "ref",
    "cpu",
    pytest.param("cuda", marks=pytest.mark.skipif(not cuda_available(), reason="no CUDA device")),
]

LOOP = """
def count(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    return total
"""


def _steps(backend: str, n: int) -> int:
    report = Pipeline(backend=backend, limits=Limits(fuel=10**7)).run(
        [Candidate(LOOP, "count")], [TestSpec((n,), n * (n - 1) // 2)]
    )
    assert report.results[0].verdict == "passed"
    return report.results[0].steps


@pytest.mark.parametrize("backend", BACKENDS)
def test_fuel_per_test_decides_timeouts(backend: str) -> None:
    need = _steps(backend, 50)
    tests = [
        TestSpec((50,), 1225, fuel=need),  # exactly enough
        TestSpec((50,), 1225, fuel=need - 1),  # one instruction short
        TestSpec((5,), 10),  # the run's limit
    ]
    pipeline = Pipeline(backend=backend, limits=Limits(fuel=10**7))
    report = pipeline.run([Candidate(LOOP, "count")], tests)
    result = report.results[0]
    assert result.verdict == "timed out"
    assert result.fail_test == 1
    # the first test alone, with its exact budget, passes
    assert pipeline.run([Candidate(LOOP, "count")], tests[:1]).results[0].passed


@pytest.mark.parametrize("backend", BACKENDS)
def test_fuel_per_test_can_exceed_the_run_limit(backend: str) -> None:
    need = _steps(backend, 200)
    pipeline = Pipeline(backend=backend, limits=Limits(fuel=need // 2))
    tests = [TestSpec((200,), 19900, fuel=need), TestSpec((200,), 19900)]
    result = pipeline.run([Candidate(LOOP, "count")], tests).results[0]
    assert (result.verdict, result.fail_test) == ("timed out", 1)


def test_ref_and_cpu_agree_on_steps() -> None:
    assert _steps("ref", 30) == _steps("cpu", 30)


def test_fuel_array_is_validated() -> None:
    import numpy as np

    from compiler import compile_source
    from vm.batch import BatchBuilder

    program = compile_source(LOOP, "loop.py")
    builder = BatchBuilder()
    span = builder.add_tests(program, 0, [TestSpec((3,), 3, fuel=7), TestSpec((4,), 6)])
    builder.add_candidate(program, 0, span)
    batch = builder.build()
    assert batch.fuel is not None and batch.fuel.tolist() == [7, 0]  # 0: the run's limit
    batch.fuel = np.array([1], dtype=np.int64)
    with pytest.raises(ValueError, match="one non-negative budget per test"):
        batch.validate()
    plain = BatchBuilder()
    plain.add_candidate(program, 0, plain.add_tests(program, 0, [TestSpec((3,), 3)]))
    assert plain.build().fuel is None  # no per-test fuel: nothing extra to upload


def test_bad_fuel_is_an_error_not_a_crash() -> None:
    result = (
        Pipeline(backend="cpu")
        .run([Candidate(LOOP, "count")], [TestSpec((3,), 3, fuel=0)])
        .results[0]
    )
    assert result.verdict == "needs fallback"
    assert "fuel must be at least 1" in (result.diagnostic or "")
