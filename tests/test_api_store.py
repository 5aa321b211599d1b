"""The job store alone (api/store.py): idempotency, leases and their claims, results in arrival
order, pruning after the retention time."""

from __future__ import annotations

import json
import os
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from threading import Thread
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from actors.pipeline import CandidateResult
from api.store import (
    CANCELLED,
    DONE,
    FAILED,
    RUNNING,
    Admission,
    Busy,
    IdempotencyConflict,
    NewCandidate,
    Store,
)

# A PostgreSQL URL (e.g. postgresql+psycopg://kiln:kiln@127.0.0.1:5432/kiln) runs every test
# below against that server too, each in a schema of its own; CI sets none, so SQLite only.
POSTGRES_URL = os.environ.get("KILN_TEST_POSTGRES_URL")


@contextmanager
def postgres_schema(url: str) -> Iterator[str]:
    """A fresh schema on the server at `url`, dropped afterwards; yields a URL that uses it."""
    from sqlalchemy import create_engine, text

    schema = f"kiln_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(url)
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    separator = "&" if "?" in url else "?"
    try:
        yield f"{url}{separator}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        s = Store(str(tmp_path / "jobs.sqlite"))
        yield s
        s.close()
        return
    if not POSTGRES_URL:
        pytest.skip("KILN_TEST_POSTGRES_URL is not set (a postgresql+psycopg:// URL)")
    with postgres_schema(POSTGRES_URL) as url:
        s = Store(url)
        yield s
        s.close()


def new_job(store: Store, job_id: str, replica: str = "r1", lease_s: float = 30, **kw: Any) -> None:
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


def test_step_counts_past_32_bits_are_stored(store: Store) -> None:
    new_job(store, "j")
    store.add_results("j", [(0, CandidateResult("timed out", steps=2**40))])
    assert store.result("j", 0).steps == 2**40  # type: ignore[union-attr]


def test_long_texts_are_stored_clipped(store: Store) -> None:
    """A diagnostic may quote a test's argument, an error a whole exception: each is stored in
    at most MAX_TEXT_BYTES, cut with a marker (security review finding 11)."""
    from api.limits import MAX_TEXT_BYTES

    new_job(store, "j")
    long = "é" * 10_000  # 20,000 bytes of UTF-8
    store.add_results("j", [(0, CandidateResult("compile error", diagnostic=long))])
    stored = store.result("j", 0).diagnostic  # type: ignore[union-attr]
    assert stored is not None and len(stored.encode()) <= MAX_TEXT_BYTES
    assert stored.startswith("é" * 100) and stored.endswith("[truncated: 20000 bytes in all]")
    store.finish("j", "failed", "RuntimeError: " + long)
    error = store.get_job("j").error  # type: ignore[union-attr]
    assert error is not None and len(error.encode()) <= MAX_TEXT_BYTES
    store.add_results("j", [(1, CandidateResult("compile error", diagnostic="short"))])
    assert store.result("j", 1).diagnostic == "short"  # type: ignore[union-attr]


def test_per_test_detail_is_stored_with_the_verdict(store: Store) -> None:
    """What a worker recorded of each test is stored once, with the verdict: the results
    route only reads it (security review finding 10: it re-ran the candidate on every GET)."""
    new_job(store, "j")
    tests = [{"test": 0, "verdict": "passed", "trap": None, "steps": 2, "diagnostic": None}]
    store.add_results("j", [(0, CandidateResult("passed", steps=2, tests=tests))])
    store.add_results("j", [(1, CandidateResult("passed"))])
    assert json.loads(store.result("j", 0).tests or "null") == tests  # type: ignore[union-attr]
    assert store.result("j", 1).tests is None  # type: ignore[union-attr]


def test_a_store_made_before_a_column_existed_gets_it(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    Store(str(path)).close()
    connection = sqlite3.connect(path)
    connection.execute("ALTER TABLE results DROP COLUMN tests")  # as a store of an older kiln
    connection.close()
    store = Store(str(path))
    try:
        new_job(store, "j")
        store.add_results("j", [(0, CandidateResult("passed", tests=[]))])
        assert store.result("j", 0).tests == "[]"  # type: ignore[union-attr]
    finally:
        store.close()
    Store(str(path)).close()  # the column is there now: opening again adds nothing


def on_two_replicas(
    store: Store, work: Callable[[Store, Any], None], first: Any, second: Any
) -> None:
    """Runs `work(store, first)` and, at the same time, `work(other, second)` on another Store on
    the same database, as a second API replica would open it; returns when both are done."""
    other = Store(store.engine.url.render_as_string(hide_password=False))
    try:
        threads = [
            Thread(target=work, args=(store, first)),
            Thread(target=work, args=(other, second)),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        other.close()


def test_two_replicas_claim_each_orphan_once(store: Store) -> None:
    for i in range(24):
        new_job(store, f"orphan{i:02}", lease_s=-1)
    claimed: dict[str, list[str]] = {"r2": [], "r3": []}

    def claim(s: Store, replica: str) -> None:
        while batch := s.claim_orphans(replica, lease_s=30, limit=3):
            claimed[replica] += batch

    on_two_replicas(store, claim, "r2", "r3")
    both = claimed["r2"] + claimed["r3"]
    assert sorted(both) == [f"orphan{i:02}" for i in range(24)]  # each one, by one replica


def test_two_replicas_storing_one_jobs_verdicts_keep_each_once(store: Store) -> None:
    store.create_job("j", "o", {}, [NewCandidate("f", source="x")] * 40, replica="r1", lease_s=30)

    def write(s: Store, order: list[int]) -> None:
        for start in range(0, len(order), 5):
            s.add_results("j", [(i, CandidateResult("passed")) for i in order[start : start + 5]])

    on_two_replicas(store, write, list(range(40)), list(range(39, -1, -1)))
    rows = store.results_after("j", 0, 100)
    assert sorted(r.index for r in rows) == list(range(40))
    assert store.get_job("j").done == 40  # type: ignore[union-attr]
    seqs = [r.seq for r in rows]
    assert seqs == sorted(seqs) and store.results_after("j", seqs[-1], 100) == []


def test_concurrent_submissions_are_stored_in_shared_transactions(store: Store) -> None:
    """Group commit: jobs submitted while the writer writes go in its next transaction, each
    acknowledged only once committed; a repeated Idempotency-Key fails alone, not its batch."""
    store.create_job("first", "o", {}, [], replica="r", lease_s=30, idempotency_key="k")
    futures = [
        store.submit_job(
            f"j{i}",
            "o",
            {"tests": []},
            [NewCandidate("f", source=f"x{i}")] * 3,
            replica="r",
            lease_s=30,
        )  # fmt: skip
        for i in range(200)
    ]
    again = store.submit_job("dup", "o", {}, [], replica="r", lease_s=30, idempotency_key="k")
    rows = [f.result(timeout=30) for f in futures]
    assert [r.id for r in rows] == [f"j{i}" for i in range(200)]
    assert all(store.get_job(f"j{i}").total == 3 for i in (0, 99, 199))  # type: ignore[union-attr]
    assert [c.source for c in store.candidates("j7")] == ["x7"] * 3
    with pytest.raises(IntegrityError):  # the route then answers with the first job
        again.result(timeout=30)
    assert store.get_job("dup") is None
    row, created = store.create_job("dup2", "o", {}, [], replica="r", lease_s=30,
                                    idempotency_key="k")  # fmt: skip
    assert (row.id, created) == ("first", False)


def test_admission_is_checked_in_the_transaction_that_stores(store: Store) -> None:
    """The limits on jobs in flight hold within a batch too: each job admitted counts against
    the next one's room."""
    admit = Admission(max_jobs=3, max_candidates=7)
    three = [NewCandidate("f", source="x")] * 3
    futures = [
        store.submit_job(f"j{i}", "o", {}, three, replica="r", lease_s=30, admission=admit)
        for i in range(4)
    ]
    outcomes = []
    for f in futures:
        try:
            outcomes.append(f.result(timeout=30).id)
        except Busy as error:
            outcomes.append(str(error))
    assert outcomes[:2] == ["j0", "j1"]
    assert outcomes[2] == (
        "6 candidates in flight and 3 more: over max_candidates_in_flight=7;"
        " wait for a job to finish or cancel one"
    )
    assert outcomes[3] == outcomes[2] and store.get_job("j2") is None
    small = [NewCandidate("f", source="x")]
    assert store.create_job("j4", "o", {}, small, replica="r", lease_s=30, admission=admit)[1]
    with pytest.raises(Busy, match="3 jobs in flight: at max_jobs_in_flight=3"):
        store.create_job("j5", "o", {}, small, replica="r", lease_s=30, admission=admit)
    store.finish("j0", DONE)
    assert store.create_job("j5", "o", {}, small, replica="r", lease_s=30, admission=admit)[1]
    assert store.create_job("j6", "other", {}, three, replica="r", lease_s=30, admission=admit)[1]


def test_verdicts_of_several_jobs_and_their_ends_in_one_transaction(store: Store) -> None:
    """`store_verdicts` ends a job `done` only when the store holds all its verdicts, else
    `failed` with the count; a job cancelled meanwhile stays cancelled."""
    for job_id in ("a", "b", "c"):
        new_job(store, job_id)  # 3 candidates each
    assert store.start_jobs(["a", "b", "c", "gone"]) == {"a": RUNNING, "b": RUNNING, "c": RUNNING}
    store.cancel("c")
    done, ended = store.store_verdicts(
        {
            "a": [(i, CandidateResult("passed")) for i in range(3)],
            "b": [(0, CandidateResult("wrong answer", fail_test=0))],
            "c": [(0, CandidateResult("passed"))],
        },
        ending=["a", "b", "c"],
    )
    assert done == {"a": 3, "b": 1, "c": 1}
    assert ended == {"a": DONE, "b": FAILED}
    b = store.get_job("b")
    assert b is not None and b.status == FAILED and b.done == 1
    assert b.error == "RuntimeError: the farm ended the job with 1 of 3 verdicts"
    assert store.get_job("c").status == CANCELLED  # type: ignore[union-attr]
    assert store.cancelled_among(["a", "b", "c"]) == ["c"]


def test_a_submission_cancelled_before_it_is_written_is_not_stored(store: Store) -> None:
    """An awaiting request that goes away cancels its future: the writer skips it (setting a
    result on it would fail, and fail the batch it is in)."""
    gate = store._commit_lock  # held: the writer waits before its next transaction
    with gate:
        first = store.submit_job("a", "o", {}, [], replica="r", lease_s=30)
        gone = store.submit_job("b", "o", {}, [], replica="r", lease_s=30)
        assert gone.cancel()
    kept = store.submit_job("c", "o", {}, [], replica="r", lease_s=30)
    assert first.result(timeout=30).id == "a" and kept.result(timeout=30).id == "c"
    assert store.get_job("b") is None and store.get_job("a") is not None


def test_reads_on_each_thread_see_every_later_commit(store: Store) -> None:
    """SQLite's frequent reads run on a connection per thread, kept open: a read must never
    leave a statement part way (it would hold its snapshot and hide later commits)."""
    store.create_job("j", "o", {}, [NewCandidate("f", source="x")] * 30, replica="r1", lease_s=30)
    seen: list[tuple[int, int, str | None, dict[str, int]]] = []

    def reads() -> None:  # every read kind, on one thread, between the writes
        job = store.get_job("j")
        assert job is not None
        page = store.results_after("j", 0, 5)  # a page cut short by its limit
        seen.append((job.done, len(page), store.status("j"), store.counts("j")))

    for start in range(0, 30, 10):
        store.add_results("j", [(i, CandidateResult("passed")) for i in range(start, start + 10)])
        reader = Thread(target=reads)
        reader.start()
        reader.join()
        reads()  # and on this thread, whose connection read before
    store.store_verdicts({}, ending=["j"])
    reads()
    assert [s[0] for s in seen] == [10, 10, 20, 20, 30, 30, 30]
    assert [s[1] for s in seen] == [5] * 7
    assert [s[2] for s in seen] == ["queued"] * 6 + ["done"]
    assert [s[3] for s in seen][-1] == {"passed": 30}
    assert len(store.results_after("j", 0, 100)) == 30
