"""`actors.wire`: `WireBatch`, the columnar form a farm batch travels in, gives back equal
candidates and test lists shared as the driver shared them, also through a real Ray call, where a
plain list of per-candidate lists arrives as one copy per candidate (why the form exists);
`WireResults`, the verdicts' way back, gives back equal results, each its own object."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from actors.pipeline import Pipeline
from actors.wire import WireBatch, WireResults
from actors.worker import PipelineWorker, results_of
from core.jobs import Candidate, TestSpec
from vm.limits import Limits
from vm.values import INT

DOUBLE = [TestSpec((x,), 2 * x) for x in range(4)]
TOTAL = [TestSpec(([1, 2],), 3), TestSpec(([],), 0)]
KBC = Pipeline("ref").run(
    [Candidate("def g(x: int) -> int:\n    return x\n", "g")], [TestSpec((1,), 1)]
)


def _batch() -> tuple[list[Candidate], list[list[TestSpec]]]:
    bytecode = KBC.results[0].bytecode
    assert bytecode is not None
    candidates = [
        Candidate("def f(x):\n    return 2 * x\n", "f", "double"),
        Candidate("def f(xs):\n    return sum(xs)  # \u00e9\u4e2d\n", "f", "total"),
        Candidate(bytecode, "g", None),
        Candidate("def f(x):\n    return x + x\n", "f", "double", (INT,)),
        Candidate("# \ud800 a lone surrogate\n", "h", ("a", 1)),
    ]
    return candidates, [DOUBLE, TOTAL, [TestSpec((1,), 1)], DOUBLE, TOTAL]


def _shares(tests: list[Any]) -> list[int]:
    """Which distinct list object each candidate's tests are, by first appearance."""
    seen: dict[int, int] = {}
    return [seen.setdefault(id(t), len(seen)) for t in tests]


def test_round_trip_keeps_candidates_and_shared_lists() -> None:
    candidates, tests = _batch()
    wire = WireBatch.pack(candidates, tests)
    assert len(wire) == 5 and wire.code.dtype == np.uint8 and len(wire.test_lists) == 3
    got, got_tests = wire.unpack()
    assert got == candidates
    assert [type(c.code) for c in got] == [type(c.code) for c in candidates]
    assert got_tests == tests
    assert _shares(got_tests) == _shares(tests) == [0, 1, 2, 0, 1]


def test_equal_lists_that_are_different_objects_stay_apart() -> None:
    candidates, _ = _batch()
    tests = [list(DOUBLE) for _ in candidates]  # equal, not shared: the Pipeline's key is id
    got_tests = WireBatch.pack(candidates, tests).unpack()[1]
    assert _shares(got_tests) == [0, 1, 2, 3, 4]


def test_pack_rejects_a_test_list_count_that_does_not_match() -> None:
    candidates, tests = _batch()
    with pytest.raises(ValueError, match="4 test lists for 5 candidates"):
        WireBatch.pack(candidates, tests[:4])


def test_results_round_trip_with_every_field() -> None:
    candidates, tests = _batch()
    pipeline = Pipeline("cpu", limits=Limits(fuel=10_000))
    results = pipeline.run(candidates[:4] * 2, tests[:4] * 2, detail=True).results
    results[1].path = "cpython"
    results[2].in_module = True
    wire = WireResults.pack(results)
    assert len(wire) == 8 and wire.steps.dtype == np.int64
    assert len(wire.bytecodes) < 8  # a program's container travels once
    got = wire.unpack()
    assert got == results
    assert len({id(r) for r in got}) == 8 and got[0].tests is not None
    plain = pipeline.run(candidates[:4], tests[:4]).results
    assert WireResults.pack(plain).tests is None and WireResults.pack(plain).unpack() == plain
    assert WireResults.pack([]).unpack() == []


def test_worker_answers_a_wire_batch_in_kind() -> None:
    candidates, tests = _batch()
    worker = PipelineWorker(backend="cpu", limits=Limits(fuel=10_000), threads=1)
    plain = worker.run(candidates[:4], tests[:4])
    wired = worker.run(WireBatch.pack(candidates[:4], tests[:4]), None)
    assert isinstance(plain.results, list) and isinstance(wired.results, WireResults)
    assert results_of(wired) == results_of(plain) == plain.results


ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    if ray.is_initialized():  # another module's cluster: use it
        ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
        yield
        return
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the task below
    try:
        yield
    finally:
        ray.shutdown()


def test_through_ray_lists_stay_shared_and_verdicts_equal(local_ray: None) -> None:
    @ray.remote
    def receive(batch: Any, tests: Any) -> tuple[list[int], list[str]]:
        if isinstance(batch, WireBatch):
            batch, tests = batch.unpack()
        pipeline = Pipeline("cpu", limits=Limits(fuel=10_000))
        return _shares(tests), [r.verdict for r in pipeline.run(batch[:4], tests[:4]).results]

    candidates, tests = _batch()
    expected = [
        r.verdict
        for r in Pipeline("cpu", limits=Limits(fuel=10_000)).run(candidates[:4], tests[:4]).results
    ]
    shares, verdicts = ray.get(receive.remote(WireBatch.pack(candidates, tests), None))
    assert shares == [0, 1, 2, 0, 1]
    assert verdicts == expected
    # what the form avoids: Ray sends a plain list of lists as msgpack, one copy per candidate
    plain, _ = ray.get(receive.remote(candidates, tests))
    assert plain == [0, 1, 2, 3, 4]
