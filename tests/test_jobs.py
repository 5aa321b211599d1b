"""The job model (core.jobs): one definition of tests, candidates, results and verdicts, which
the VM, the Pipeline, the farm, the evaluation and the API share."""

from __future__ import annotations

import pytest

import actors.pipeline
import vm.batch
from core import jobs
from core.jobs import (
    VERDICT_NAMES,
    VERDICTS,
    Candidate,
    CandidateResult,
    TestSpec,
    as_candidate,
    copy_result,
)

# (imported as jobs.tests_*: pytest would collect a `tests_*` name as a test)


def test_the_layers_share_one_definition() -> None:
    assert vm.batch.TestSpec is TestSpec
    assert vm.batch.VERDICT_NAMES is VERDICT_NAMES
    assert vm.batch.NEEDS_FALLBACK == jobs.NEEDS_FALLBACK_CODE == 4
    for name in ("Candidate", "CandidateResult", "CandidateLike", "Tests", "TestSpec"):
        assert getattr(actors.pipeline, name) is getattr(jobs, name)
    assert VERDICT_NAMES[jobs.PASSED] == "passed"


def test_verdicts() -> None:
    assert VERDICTS[: len(VERDICT_NAMES)] == VERDICT_NAMES
    assert {jobs.COMPILE_ERROR, jobs.INVALID_BYTECODE, jobs.WORKER_CRASHED} <= set(VERDICTS)
    assert len(set(VERDICTS)) == len(VERDICTS)
    assert CandidateResult("passed").passed and not CandidateResult("wrong answer").passed


def test_as_candidate() -> None:
    assert as_candidate(("def f(): pass", "f")) == Candidate("def f(): pass", "f")
    assert as_candidate((b"KBC", "f", "p1")) == Candidate(b"KBC", "f", "p1")
    c = Candidate("x", "f")
    assert as_candidate(c) is c
    with pytest.raises(ValueError, match="a candidate is a Candidate or a"):
        as_candidate(("x",))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="code is a str .* got int and str"):
        as_candidate(Candidate(123, "f"))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="its entry a str, got str and int"):
        as_candidate(Candidate("x", 5))  # type: ignore[arg-type]


def test_tests_per_candidate() -> None:
    one = [TestSpec((1,), 2)]
    cands = [Candidate("a", "f", "p"), Candidate("b", "f", "q")]
    shared = jobs.tests_per_candidate(cands, one)
    assert shared == [one, one] and shared[0] is shared[1] is one
    other = [TestSpec((2,), 3)]
    assert jobs.tests_per_candidate(cands, [one, other]) == [one, other]
    assert jobs.tests_per_candidate(cands, {"p": one, "q": other}) == [one, other]
    with pytest.raises(ValueError, match="no tests for problem"):
        jobs.tests_per_candidate(cands, {"p": one})
    with pytest.raises(ValueError, match="1 test lists for 2 candidates"):
        jobs.tests_per_candidate(cands, [one])
    assert jobs.tests_per_candidate(cands, []) == [[], []]


def test_tests_slice() -> None:
    one = [TestSpec((1,), 2)]
    lists = [one, [], one]
    assert jobs.tests_slice(one, 1, 3) is one
    assert jobs.tests_slice({"p": one}, 0, 1) == {"p": one}
    assert jobs.tests_slice(lists, 1, 3) == [[], one]


def test_copy_result_shares_nothing_mutable_at_the_top() -> None:
    r = CandidateResult("passed", steps=3)
    c = copy_result(r)
    assert c == r and c is not r
