"""The job store: jobs, their candidates and their verdicts, through SQLAlchemy.

A SQLite file by default (`[api] database`), a PostgreSQL URL where several API replicas share
one store. Everything is written as it arrives: the job and its candidates in one transaction
before the 202 goes out, each batch of verdicts as the farm returns it. So nothing accepted is
lost: a job whose replica died is found by its expired lease (`lease_owner`, `lease_until`,
renewed while it runs) and resumed by another replica, or by the same one after a restart, with
only the candidates that have no verdict yet.

Tables: `jobs` (one row per job: owner, status, spec, counts, times, lease), `candidates`
(job, index, entry, source or bytecode) and `results` (job, index, verdict, ...; `seq` orders
them by arrival and is the results cursor).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    delete,
    event,
    func,
    inspect,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

from actors.pipeline import CandidateResult
from api.limits import clip

QUEUED, RUNNING, DONE, CANCELLED, FAILED = "queued", "running", "done", "cancelled", "failed"
UNFINISHED = (QUEUED, RUNNING)


class Base(DeclarativeBase):
    pass


class JobRow(Base):
    __tablename__ = "jobs"
    __table_args__ = (UniqueConstraint("owner", "idempotency_key"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64), index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    total: Mapped[int] = mapped_column(Integer)
    done: Mapped[int] = mapped_column(Integer, default=0)
    spec: Mapped[str] = mapped_column(Text)  # JSON: tests or problem, options
    idempotency_key: Mapped[str | None] = mapped_column(String(255), nullable=True)
    request_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    started_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    lease_owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    lease_until: Mapped[float] = mapped_column(Float, default=0.0)


class CandidateRow(Base):
    __tablename__ = "candidates"

    job_id: Mapped[str] = mapped_column(ForeignKey("jobs.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    entry: Mapped[str] = mapped_column(String(255))
    source: Mapped[str | None] = mapped_column(Text, nullable=True)
    bytecode: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)


class ResultRow(Base):
    __tablename__ = "results"
    __table_args__ = (UniqueConstraint("job_id", "index"),)

    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    job_id: Mapped[str] = mapped_column(ForeignKey("jobs.id"), index=True)
    index: Mapped[int] = mapped_column(Integer)
    verdict: Mapped[str] = mapped_column(String(32))
    fail_test: Mapped[int] = mapped_column(Integer)
    trap: Mapped[str | None] = mapped_column(String(64), nullable=True)
    steps: Mapped[int] = mapped_column(BigInteger)  # up to 2**62: PostgreSQL's INTEGER is 32-bit
    diagnostic: Mapped[str | None] = mapped_column(Text, nullable=True)
    path: Mapped[str] = mapped_column(String(16))
    bytecode: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    # JSON: each test's own verdict, for jobs submitted with options.detail = "tests"
    tests: Mapped[str | None] = mapped_column(Text, nullable=True)


@dataclass(frozen=True)
class NewCandidate:
    entry: str
    source: str | None = None
    bytecode: bytes | None = None


class IdempotencyConflict(Exception):
    """An Idempotency-Key used before by the same token for a different request."""


def database_url(database: str) -> str:
    """A SQLAlchemy URL from the `[api] database` setting: a URL as it is, a path as SQLite."""
    if "://" in database:
        return database
    path = Path(database).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


class Store:
    def __init__(self, database: str) -> None:
        url = database_url(database)
        sqlite = url.startswith("sqlite")
        self.engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30} if sqlite else {},
            pool_pre_ping=not sqlite,
        )
        if sqlite:

            @event.listens_for(self.engine, "connect")
            def _pragmas(connection: Any, _record: Any) -> None:
                cursor = connection.cursor()
                cursor.execute("PRAGMA journal_mode=WAL")  # readers do not wait for the writer
                cursor.execute("PRAGMA synchronous=NORMAL")
                cursor.close()

        Base.metadata.create_all(self.engine)
        self._add_missing_columns()
        self.session = sessionmaker(self.engine, expire_on_commit=False)

    def _add_missing_columns(self) -> None:
        """Columns added since a store was created (create_all makes missing tables only):
        nullable, so the rows already there stay as they were."""
        table = ResultRow.__tablename__
        existing = {c["name"] for c in inspect(self.engine).get_columns(table)}
        for column in ResultRow.__table__.columns:
            if column.name in existing:
                continue
            kind = column.type.compile(dialect=self.engine.dialect)
            try:
                with self.engine.begin() as connection:
                    connection.execute(text(f"ALTER TABLE {table} ADD COLUMN {column.name} {kind}"))
            except DBAPIError:  # another replica added it first
                if column.name not in {c["name"] for c in inspect(self.engine).get_columns(table)}:
                    raise

    def close(self) -> None:
        self.engine.dispose()

    # --- jobs -------------------------------------------------------------------------------

    def create_job(
        self,
        job_id: str,
        owner: str,
        spec: dict[str, Any],
        candidates: Sequence[NewCandidate],
        *,
        replica: str,
        lease_s: float,
        idempotency_key: str | None = None,
        request_hash: str | None = None,
    ) -> tuple[JobRow, bool]:
        """The new job, claimed by `replica`, and True; or, for an Idempotency-Key seen before
        with the same request, the earlier job and False."""
        now = time.time()
        row = JobRow(
            id=job_id,
            owner=owner,
            status=QUEUED,
            total=len(candidates),
            done=0,
            spec=json.dumps(spec),
            idempotency_key=idempotency_key,
            request_hash=request_hash,
            created_at=now,
            lease_owner=replica,
            lease_until=now + lease_s,
        )
        with self.session() as session:
            try:
                # The job row first: no relationship() orders the two inserts, and PostgreSQL
                # checks the candidates' foreign key (SQLite does not).
                session.add(row)
                session.flush()
                session.add_all(
                    CandidateRow(
                        job_id=job_id, index=i, entry=c.entry, source=c.source, bytecode=c.bytecode
                    )
                    for i, c in enumerate(candidates)
                )
                session.commit()
                return row, True
            except IntegrityError:
                session.rollback()
                if idempotency_key is None:
                    raise
        earlier = self.find_idempotent(owner, idempotency_key)
        if earlier is None:  # pruned between the insert and the look-up
            raise IdempotencyConflict("the earlier job with this Idempotency-Key was just pruned")
        if earlier.request_hash != request_hash:
            raise IdempotencyConflict(
                f"Idempotency-Key {idempotency_key!r} was used for a different request "
                f"(job {earlier.id}); use a new key for a new job"
            )
        return earlier, False

    def find_idempotent(self, owner: str, key: str) -> JobRow | None:
        with self.session() as session:
            return session.scalars(
                select(JobRow).where(JobRow.owner == owner, JobRow.idempotency_key == key)
            ).first()

    def get_job(self, job_id: str) -> JobRow | None:
        with self.session() as session:
            return session.get(JobRow, job_id)

    def list_jobs(self, owner: str, offset: int, limit: int) -> tuple[list[JobRow], int]:
        with self.session() as session:
            count = session.scalar(
                select(func.count()).select_from(JobRow).where(JobRow.owner == owner)
            )
            rows = session.scalars(
                select(JobRow)
                .where(JobRow.owner == owner)
                .order_by(JobRow.created_at.desc())
                .offset(offset)
                .limit(limit)
            ).all()
            return list(rows), int(count or 0)

    def in_flight(self, owner: str) -> tuple[int, int]:
        """(unfinished jobs, their candidates) of `owner`."""
        with self.session() as session:
            jobs, candidates = session.execute(
                select(func.count(), func.coalesce(func.sum(JobRow.total), 0)).where(
                    JobRow.owner == owner, JobRow.status.in_(UNFINISHED)
                )
            ).one()
            return int(jobs), int(candidates)

    def counts(self, job_id: str) -> dict[str, int]:
        with self.session() as session:
            rows = session.execute(
                select(ResultRow.verdict, func.count())
                .where(ResultRow.job_id == job_id)
                .group_by(ResultRow.verdict)
            ).all()
            return {verdict: int(n) for verdict, n in rows}

    def candidates(self, job_id: str) -> list[CandidateRow]:
        with self.session() as session:
            return list(
                session.scalars(
                    select(CandidateRow)
                    .where(CandidateRow.job_id == job_id)
                    .order_by(CandidateRow.index)
                ).all()
            )

    def candidate(self, job_id: str, index: int) -> CandidateRow | None:
        with self.session() as session:
            return session.get(CandidateRow, (job_id, index))

    def finished_indices(self, job_id: str) -> set[int]:
        with self.session() as session:
            return set(
                session.scalars(select(ResultRow.index).where(ResultRow.job_id == job_id)).all()
            )

    # --- running ----------------------------------------------------------------------------

    def mark_running(self, job_id: str) -> None:
        with self.session() as session:
            session.execute(
                update(JobRow)
                .where(JobRow.id == job_id, JobRow.status == QUEUED)
                .values(status=RUNNING, started_at=time.time())
            )
            session.commit()

    def add_results(self, job_id: str, results: Iterable[tuple[int, CandidateResult]]) -> int:
        """Stores verdicts (a verdict already stored for an index is kept); returns the job's
        count of verdicts."""
        rows = [
            dict(
                job_id=job_id,
                index=index,
                verdict=r.verdict,
                fail_test=r.fail_test,
                trap=r.trap,
                steps=min(r.steps, 2**62),
                diagnostic=clip(r.diagnostic),
                path=r.path,
                bytecode=r.bytecode if r.passed else None,
                tests=None if r.tests is None else json.dumps(r.tests),
            )
            for index, r in results
        ]
        insert = postgresql_insert if self.engine.dialect.name == "postgresql" else sqlite_insert
        with self.session() as session:
            # The job's row lock first (PostgreSQL; SQLite has one writer anyway): writers of one
            # job take their `seq` values in commit order, so the results cursor skips none.
            session.execute(select(JobRow.id).where(JobRow.id == job_id).with_for_update())
            if rows:  # a verdict another replica stored first is kept
                session.execute(
                    insert(ResultRow).on_conflict_do_nothing(index_elements=["job_id", "index"]),
                    rows,
                )
            done = session.scalar(select(func.count()).where(ResultRow.job_id == job_id)) or 0
            session.execute(update(JobRow).where(JobRow.id == job_id).values(done=done))
            session.commit()
            return int(done)

    def finish(self, job_id: str, status: str, error: str | None = None) -> None:
        with self.session() as session:
            session.execute(
                update(JobRow)
                .where(JobRow.id == job_id, JobRow.status.in_(UNFINISHED))
                .values(
                    status=status, finished_at=time.time(), error=clip(error), lease_owner=None
                )
            )
            session.commit()

    def cancel(self, job_id: str) -> bool:
        """Marks an unfinished job cancelled; False when it had already finished."""
        with self.session() as session:
            changed = session.execute(
                update(JobRow)
                .where(JobRow.id == job_id, JobRow.status.in_(UNFINISHED))
                .values(status=CANCELLED, finished_at=time.time(), lease_owner=None)
            ).rowcount  # type: ignore[attr-defined]
            session.commit()
            return bool(changed)

    def cancelled_among(self, job_ids: Sequence[str]) -> list[str]:
        """Those of `job_ids` that are cancelled (by any replica)."""
        if not job_ids:
            return []
        with self.session() as session:
            return list(
                session.scalars(
                    select(JobRow.id).where(JobRow.id.in_(job_ids), JobRow.status == CANCELLED)
                ).all()
            )

    def status(self, job_id: str) -> str | None:
        with self.session() as session:
            return session.scalar(select(JobRow.status).where(JobRow.id == job_id))

    def renew(self, replica: str, job_ids: Sequence[str], lease_s: float) -> None:
        if not job_ids:
            return
        with self.session() as session:
            session.execute(
                update(JobRow)
                .where(JobRow.id.in_(job_ids), JobRow.lease_owner == replica)
                .values(lease_until=time.time() + lease_s)
            )
            session.commit()

    def release(self, replica: str) -> None:
        """Gives up this replica's leases (a clean shutdown): others may resume them at once."""
        with self.session() as session:
            session.execute(
                update(JobRow)
                .where(JobRow.lease_owner == replica, JobRow.status.in_(UNFINISHED))
                .values(lease_owner=None, lease_until=0.0)
            )
            session.commit()

    def claim_orphans(self, replica: str, lease_s: float, limit: int = 16) -> list[str]:
        """Claims unfinished jobs whose lease expired (their replica died); returns their ids."""
        now = time.time()
        claimed = []
        with self.session() as session:
            candidates = session.scalars(
                select(JobRow.id)
                .where(JobRow.status.in_(UNFINISHED), JobRow.lease_until < now)
                .order_by(JobRow.created_at)
                .limit(limit)
                # PostgreSQL: leave the rows another replica is claiming to it (SQLite ignores it)
                .with_for_update(skip_locked=True)
            ).all()
            for job_id in candidates:
                # compare-and-set, so two replicas never both claim one job
                won = session.execute(
                    update(JobRow)
                    .where(
                        JobRow.id == job_id,
                        JobRow.lease_until < now,
                        or_(JobRow.status == QUEUED, JobRow.status == RUNNING),
                    )
                    .values(lease_owner=replica, lease_until=now + lease_s)
                ).rowcount  # type: ignore[attr-defined]
                if won:
                    claimed.append(job_id)
            session.commit()
        return claimed

    def prune(self, retention_s: float) -> int:
        """Deletes jobs finished more than `retention_s` ago, with their candidates and results."""
        cutoff = time.time() - retention_s
        with self.session() as session:
            old = session.scalars(
                select(JobRow.id).where(
                    JobRow.finished_at.is_not(None), JobRow.finished_at < cutoff
                )
            ).all()
            if old:
                session.execute(delete(ResultRow).where(ResultRow.job_id.in_(old)))
                session.execute(delete(CandidateRow).where(CandidateRow.job_id.in_(old)))
                session.execute(delete(JobRow).where(JobRow.id.in_(old)))
            session.commit()
            return len(old)

    # --- results ----------------------------------------------------------------------------

    def results_after(self, job_id: str, cursor: int, limit: int) -> list[ResultRow]:
        with self.session() as session:
            return list(
                session.scalars(
                    select(ResultRow)
                    .where(ResultRow.job_id == job_id, ResultRow.seq > cursor)
                    .order_by(ResultRow.seq)
                    .limit(limit)
                ).all()
            )

    def result(self, job_id: str, index: int) -> ResultRow | None:
        with self.session() as session:
            return session.scalars(
                select(ResultRow).where(ResultRow.job_id == job_id, ResultRow.index == index)
            ).first()
