"""The job store alone (api/store.py): idempotency, leases and their claims, results in arrival
order, pruning after the retention time."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from actors.pipeline import CandidateResult
from api.store import CANCELLED, DONE, RUNNING, IdempotencyConflict, NewCandidate, Store


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    return Store(str(tmp_path / "jobs.sqlite"))


def new_job(store: Store, job_id: str, replica: str = "r1", lease_s: float = 30, **kw: str) -> None:
    store.create_job(
        job_id, "owner", {"tests": []}, [NewCandidate("f", source="x")] * 3,
        replica=replica, lease_s=lease_s, **kw,
    )  # fmt: skip


def test_idempotency_key_returns_the_first_job_or_conflicts(store: Store) -> None:
    store.create_job(
        "a", "o", {}, [], replica="r", lease_s=1, idempotency_key="k", request_hash="h"
    )
    row, created = store.create_job(
        "b", "o", {}, [], replica="r", lease_s=1, idempotency_key="k", request_hash="h"
    )
    assert (row.id, created) == ("a", False)
    with pytest.raises(IdempotencyConflict, match="different request"):
        store.create_job(
            "c", "o", {}, [], replica="r", lease_s=1, idempotency_key="k", request_hash="x"
        )
    other, created = store.create_job(
        "d", "other owner", {}, [], replica="r", lease_s=1, idempotency_key="k", request_hash="h"
    )
    assert (other.id, created) == ("d", True)


def test_expired_leases_are_claimed_once(store: Store) -> None:
    new_job(store, "live", lease_s=30)
    new_job(store, "orphan", lease_s=-1)  # its replica died: the lease has run out
    assert store.claim_orphans("r2", lease_s=30) == ["orphan"]
    assert store.claim_orphans("r3", lease_s=30) == []  # r2 holds it now
    store.release("r2")
    assert store.claim_orphans("r3", lease_s=30) == ["orphan"]


def test_results_in_arrival_order_and_counts(store: Store) -> None:
    new_job(store, "j")
    store.mark_running("j")
    assert store.get_job("j").status == RUNNING  # type: ignore[union-attr]
    assert store.add_results("j", [(2, CandidateResult("passed", bytecode=b"k"))]) == 1
    assert store.add_results("j", [(0, CandidateResult("wrong answer", fail_test=1))]) == 2
    assert store.add_results("j", [(2, CandidateResult("passed"))]) == 2  # stored once
    rows = store.results_after("j", 0, 10)
    assert [r.index for r in rows] == [2, 0]
    assert store.results_after("j", rows[0].seq, 10)[0].index == 0
    assert store.counts("j") == {"passed": 1, "wrong answer": 1}
    assert store.finished_indices("j") == {0, 2}


def test_finished_jobs_are_pruned_after_retention(store: Store) -> None:
    new_job(store, "old")
    new_job(store, "new")
    new_job(store, "running")
    store.add_results("old", [(0, CandidateResult("passed"))])
    store.finish("old", DONE)
    assert store.cancel("new") and not store.cancel("new")
    assert store.get_job("new").status == CANCELLED  # type: ignore[union-attr]
    time.sleep(0.05)
    assert store.prune(retention_s=3600) == 0
    assert store.prune(retention_s=0.01) == 2
    assert store.get_job("old") is None and store.results_after("old", 0, 10) == []
    assert store.candidates("old") == [] and store.get_job("running") is not None
