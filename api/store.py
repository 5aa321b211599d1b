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
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from concurrent.futures import Future
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import (
    BigInteger,
    BindParameter,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
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

from api.limits import clip
from core.jobs import CandidateResult

T = TypeVar("T")

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


@dataclass(slots=True)
class StoredResult:
    """A row of `results` as `Store.results_after` reads it (Core, no session)."""

    seq: int
    job_id: str
    index: int
    verdict: str
    fail_test: int
    trap: str | None
    steps: int
    diagnostic: str | None
    path: str
    bytecode: bytes | None
    tests: str | None


@dataclass(slots=True)
class JobRecord:
    """A row of `jobs` as the frequent reads and a submission return it: plain attributes, the
    columns of `JobRow` in its order (building an ORM `JobRow` cost more than reading one)."""

    id: str
    owner: str
    status: str
    total: int
    done: int
    spec: str
    idempotency_key: str | None
    request_hash: str | None
    created_at: float
    started_at: float | None
    finished_at: float | None
    error: str | None
    lease_owner: str | None
    lease_until: float


assert [c.name for c in JobRow.__table__.columns] == list(JobRecord.__dataclass_fields__)


class NewCandidate(NamedTuple):
    """A candidate of a new job (a tuple: a request makes one per candidate, and a frozen
    dataclass cost several times as much to build)."""

    entry: str
    source: str | None = None
    bytecode: bytes | None = None


@dataclass(frozen=True)
class Admission:
    """The limits on an owner's unfinished jobs that a new job must fit (HTTP 429 past them)."""

    max_jobs: int
    max_candidates: int

    def refuse(self, jobs: int, candidates: int, more: int) -> str | None:
        """Why a job of `more` candidates does not fit beside `jobs` jobs of `candidates`."""
        if jobs >= self.max_jobs:
            return (
                f"{jobs} jobs in flight: at max_jobs_in_flight={self.max_jobs};"
                " wait for one to finish or cancel one"
            )
        if candidates + more > self.max_candidates:
            return (
                f"{candidates} candidates in flight and {more} more: over"
                f" max_candidates_in_flight={self.max_candidates};"
                " wait for a job to finish or cancel one"
            )
        return None


class Busy(Exception):
    """A job refused by its `Admission`: the message says which limit."""


@dataclass(eq=False)
class _Insert:
    """A job waiting for the writer's next transaction (`Store._insert`)."""

    row: JobRecord
    candidates: list[tuple[Any, ...]]  # rows of `candidates`, in CANDIDATE_COLUMNS order
    admission: Admission | None
    busy: str | None = None
    future: Future[JobRecord] = field(default_factory=Future)


class IdempotencyConflict(Exception):
    """An Idempotency-Key used before by the same token for a different request."""


class _JobIds:
    """Random 128-bit job ids in hex (as uuid4().hex, without its fixed bits), from os.urandom
    read 256 ids at a time: each read is a system call that hands the GIL away, and the event
    loop that makes the ids waited up to a switch interval (5 ms) to get it back."""

    BATCH = 256

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._buffer = b""
        os.register_at_fork(after_in_child=self._forget)  # a child never repeats its parent's

    def _forget(self) -> None:
        self._lock = threading.Lock()
        self._buffer = b""

    def __call__(self) -> str:
        with self._lock:
            if not self._buffer:
                self._buffer = os.urandom(16 * self.BATCH)
            head, self._buffer = self._buffer[:16], self._buffer[16:]
        return head.hex()


new_job_id = _JobIds()


def _columns(row: JobRecord) -> tuple[Any, ...]:
    """The row's values in the order of `jobs`' columns."""
    return tuple(getattr(row, name) for name in JobRecord.__dataclass_fields__)


def take_waiting(source: queue.SimpleQueue[T], batch: list[T], limit: int | None = None) -> list[T]:
    """`batch` with the items `source` holds already appended, without waiting for more, up to
    `limit` items in all: what a worker takes in one go after its first item."""
    while limit is None or len(batch) < limit:
        try:
            batch.append(source.get_nowait())
        except queue.Empty:
            break
    return batch


def database_url(database: str) -> str:
    """A SQLAlchemy URL from the `[api] database` setting: a URL as it is, a path as SQLite."""
    if "://" in database:
        return database
    path = Path(database).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


# The statements of the frequent reads and writes, built once (building one cost more than
# running it): Core, not the ORM's session, which cost 2-4 times as much (a job by id: 0.09-0.11
# ms through Core, 0.22-0.34 ms through a session).
_JOB = select(JobRow.__table__).where(JobRow.id == bindparam("job"))
_STATUS = select(JobRow.status).where(JobRow.id == bindparam("job"))
_COUNTS = (
    select(ResultRow.verdict, func.count())
    .where(ResultRow.job_id == bindparam("job"))
    .group_by(ResultRow.verdict)
)
_RESULTS = (
    select(ResultRow.__table__)
    .where(ResultRow.job_id == bindparam("job"), ResultRow.seq > bindparam("cursor"))
    .order_by(ResultRow.seq)
    .limit(bindparam("limit"))
)
_JOBS: BindParameter[list[str]] = bindparam("jobs", expanding=True)
_STATUSES = select(JobRow.id, JobRow.status).where(JobRow.id.in_(_JOBS))
_START = (
    update(JobRow)
    .where(JobRow.id.in_(_JOBS), JobRow.status == QUEUED)
    .values(status=RUNNING, started_at=bindparam("at"))
)
_LOCK_JOBS = (
    select(JobRow.id, JobRow.total, JobRow.status)
    .where(JobRow.id.in_(_JOBS))
    .order_by(JobRow.id)
    .with_for_update()
)
_DONE_COUNTS = (
    select(ResultRow.job_id, func.count())
    .where(ResultRow.job_id.in_(_JOBS))
    .group_by(ResultRow.job_id)
)
_SET_DONE = update(JobRow).where(JobRow.id == bindparam("job")).values(done=bindparam("n"))
_END_DONE = (
    update(JobRow)
    .where(JobRow.id.in_(_JOBS), JobRow.status.in_(UNFINISHED))
    .values(status=DONE, finished_at=bindparam("at"), error=None, lease_owner=None)
)
_END = (
    update(JobRow)
    .where(JobRow.id == bindparam("job"), JobRow.status.in_(UNFINISHED))
    .values(
        status=bindparam("to"),
        finished_at=bindparam("at"),
        error=bindparam("why"),
        lease_owner=None,
    )
)
_CANCELLED = select(JobRow.id).where(JobRow.id.in_(_JOBS), JobRow.status == CANCELLED)
# an owner's unfinished jobs and their candidates (the admission check); `or_`, not `in_`,
# whose expanding parameter SQLAlchemy processed anew on each execution
_IN_FLIGHT = select(func.count(), func.coalesce(func.sum(JobRow.total), 0)).where(
    JobRow.owner == bindparam("owner"), or_(JobRow.status == QUEUED, JobRow.status == RUNNING)
)
CANDIDATE_COLUMNS = [c.name for c in CandidateRow.__table__.columns]
RESULT_COLUMNS = [c.name for c in ResultRow.__table__.columns if c.name != "seq"]


class _Compiled:
    """A statement compiled once for SQLite, run on the DB-API connection itself: the SQL text
    and its parameters' order. SQLAlchemy's own execute cost several times the statement (a job
    by id: 0.12 ms, 0.02 ms without it)."""

    def __init__(self, statement: Any, dialect: Any, column_keys: list[str] | None = None) -> None:
        compiled = statement.compile(dialect=dialect, column_keys=column_keys)
        self.sql = str(compiled)
        self.order = list(compiled.positiontup or ())
        self.defaults = {name: b.value for name, b in compiled.binds.items()}

    def args(self, **values: Any) -> list[Any]:
        params = {**self.defaults, **values}
        return [params[name] for name in self.order]


class Store:
    def __init__(self, database: str) -> None:
        url = database_url(database)
        sqlite = url.startswith("sqlite")
        self.engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30} if sqlite else {},
            pool_pre_ping=not sqlite,
        )
        # SQLite's reads are short and in WAL mode never wait for the writer: the service makes
        # them on its event loop, where a hand-off to a thread cost more than the read
        self.reads_inline = sqlite
        # A SQLite file: the frequent statements go to sqlite3 itself (`_Compiled`), reads on a
        # connection of each thread's own in autocommit (each read sees the last commit), writes
        # on the engine's connection inside its transaction. Everything else, and PostgreSQL,
        # goes through SQLAlchemy.
        self._path = url.removeprefix("sqlite:///") if sqlite else None
        if self._path in ("", ":memory:") or any(c in (self._path or "") for c in "?:"):
            self._path = None  # in memory, or a URL with options: SQLAlchemy's path only
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        if self._path is not None:
            dialect = self.engine.dialect
            self._sql_job = _Compiled(_JOB, dialect)
            self._sql_in_flight = _Compiled(_IN_FLIGHT, dialect)
            self._sql_counts = _Compiled(_COUNTS, dialect)
            self._sql_status = _Compiled(_STATUS, dialect)
            self._sql_results = _Compiled(_RESULTS, dialect)
            self._sql_job_insert = _Compiled(
                insert(JobRow), dialect, list(JobRecord.__dataclass_fields__)
            )
            self._sql_candidates = _Compiled(insert(CandidateRow), dialect, CANDIDATE_COLUMNS)
        upsert = postgresql_insert if url.startswith("postgresql") else sqlite_insert
        # a verdict already stored for an index (by another replica) is kept
        self._add_results = upsert(ResultRow).on_conflict_do_nothing(
            index_elements=["job_id", "index"]
        )
        if self._path is not None:
            self._sql_add_results = _Compiled(
                self._add_results, self.engine.dialect, RESULT_COLUMNS
            )
        if sqlite:

            @event.listens_for(self.engine, "connect")
            def _pragmas(connection: Any, _record: Any) -> None:
                cursor = connection.cursor()
                cursor.execute("PRAGMA journal_mode=WAL")  # readers do not wait for the writer
                cursor.execute("PRAGMA synchronous=NORMAL")
                cursor.close()

        # One writer at a time in this process: submissions that arrive while a job is written
        # wait and go together in the next transaction (group commit, `create_job`). On SQLite
        # every write takes this lock, so this process's writers queue here rather than in
        # SQLite's busy handler, which sleeps 1, 2, 5, ... 100 ms between tries.
        self._commit_lock = threading.Lock()
        self._writes: queue.SimpleQueue[_Insert | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None  # started by the first submission
        self._writer_lock = threading.Lock()
        self._closed = False
        self._writing: AbstractContextManager[Any] = self._commit_lock if sqlite else nullcontext()
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
        with self._writer_lock:
            self._closed = True
            writer = self._writer
        if writer is not None:
            self._writes.put(None)  # the writer stores what was queued before, then ends
            writer.join()
        for reader in self._readers:
            reader.close()
        self._readers.clear()
        self.engine.dispose()

    def _read(self, statement: _Compiled, **values: Any) -> list[Any]:
        """The rows of a read on this thread's connection, every one fetched and the cursor
        closed: a statement stepped part way holds its snapshot (later reads on that connection
        would not see later commits) until it is reset."""
        cursor = self._reader().execute(statement.sql, statement.args(**values))
        try:
            return cursor.fetchall()
        finally:
            cursor.close()

    def _reader(self) -> sqlite3.Connection:
        """This thread's read connection to the SQLite file (autocommit: no transaction is left
        open, so each read sees the last commit and none holds the WAL back)."""
        reader: sqlite3.Connection | None = getattr(self._local, "reader", None)
        if reader is None:
            assert self._path is not None
            reader = sqlite3.connect(
                self._path, timeout=30, isolation_level=None, check_same_thread=False
            )
            self._local.reader = reader
            self._readers.append(reader)
        return reader

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
        admission: Admission | None = None,
    ) -> tuple[JobRecord, bool]:
        """The new job, claimed by `replica`, and True; or, for an Idempotency-Key seen before
        with the same request, the earlier job and False. With `admission`, `Busy` when the
        owner's jobs in flight are at its limits (checked in the transaction that stores it)."""
        future = self.submit_job(
            job_id, owner, spec, candidates, replica=replica, lease_s=lease_s,
            idempotency_key=idempotency_key, request_hash=request_hash, admission=admission,
        )  # fmt: skip
        try:
            return future.result(), True
        except IntegrityError:
            if idempotency_key is None:
                raise
        return self.earlier_job(owner, idempotency_key, request_hash), False

    def submit_job(
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
        admission: Admission | None = None,
    ) -> Future[JobRecord]:
        """Queues the job for the writer (`create_job`) and returns at once: the future is the
        stored row once its transaction has committed, or the error (IntegrityError for an
        Idempotency-Key used before, `Busy`)."""
        now = time.time()
        row = JobRecord(
            id=job_id,
            owner=owner,
            status=QUEUED,
            total=len(candidates),
            done=0,
            spec=json.dumps(spec),
            idempotency_key=idempotency_key,
            request_hash=request_hash,
            created_at=now,
            started_at=None,
            finished_at=None,
            error=None,
            lease_owner=replica,
            lease_until=now + lease_s,
        )
        item = _Insert(
            row,
            [(job_id, i, c.entry, c.source, c.bytecode) for i, c in enumerate(candidates)],
            admission,
        )
        with self._writer_lock:
            if self._closed:
                raise RuntimeError("the store is closed")
            if self._writer is None:
                self._writer = threading.Thread(
                    target=self._write_jobs, name="kiln-store-writer", daemon=True
                )
                self._writer.start()
            self._writes.put(item)
        return item.future

    def earlier_job(self, owner: str, key: str, request_hash: str | None) -> JobRecord:
        """The job an Idempotency-Key was first used for, when this request is that one's."""
        earlier = self.find_idempotent(owner, key)
        if earlier is None:  # pruned between the insert and the look-up
            raise IdempotencyConflict("the earlier job with this Idempotency-Key was just pruned")
        if earlier.request_hash != request_hash:
            raise IdempotencyConflict(
                f"Idempotency-Key {key!r} was used for a different request "
                f"(job {earlier.id}); use a new key for a new job"
            )
        return earlier

    def _write_jobs(self) -> None:
        """The writer: every job submitted while it wrote the last batch goes in the next one."""
        while True:
            batch = take_waiting(self._writes, [self._writes.get()])
            jobs: list[_Insert] = []
            try:
                with self._commit_lock:
                    # a submission whose caller went away (its future cancelled) is not stored
                    jobs = [
                        b
                        for b in batch
                        if b is not None and b.future.set_running_or_notify_cancel()
                    ]
                    if jobs:
                        self._insert(jobs)
            except BaseException as error:  # never leave a submission waiting
                for b in jobs:
                    if not b.future.done():
                        b.future.set_exception(error)
                if not isinstance(error, Exception):
                    raise
            if None in batch:
                return

    def _insert(self, batch: list[_Insert]) -> None:
        """Group commit: the jobs of `batch` and their candidates in one transaction, each table
        in one executemany (the job rows first: PostgreSQL checks the candidates' foreign key,
        SQLite does not), after the admission checks (one look at the store per owner). If the
        transaction fails, each job is tried in one of its own, so an error (a repeated
        Idempotency-Key) is its own job's."""
        try:
            self._insert_part(batch)
        except Exception as error:
            if len(batch) == 1:
                batch[0].future.set_exception(error)
                return
            for b in batch:
                try:
                    self._insert_part([b])
                except Exception as own:
                    b.future.set_exception(own)
                    continue
        for b in batch:
            if not b.future.done():
                if b.busy is not None:
                    b.future.set_exception(Busy(b.busy))
                else:
                    b.future.set_result(b.row)

    def _insert_part(self, part: list[_Insert]) -> None:
        with self.engine.begin() as connection:
            flight: dict[str, list[int]] = {}  # owner -> [jobs, candidates] unfinished
            admitted = []
            for b in part:
                b.busy = None
                if b.admission is not None:
                    owner, n = b.row.owner, len(b.candidates)
                    if owner not in flight:
                        if self._path is not None:
                            sql = self._sql_in_flight
                            found = connection.exec_driver_sql(
                                sql.sql, tuple(sql.args(owner=owner))
                            )
                        else:
                            found = connection.execute(_IN_FLIGHT, {"owner": owner})
                        jobs, candidates = found.one()
                        flight[owner] = [int(jobs), int(candidates)]
                    b.busy = b.admission.refuse(flight[owner][0], flight[owner][1], n)
                    if b.busy is not None:
                        continue
                    flight[owner][0] += 1
                    flight[owner][1] += n
                admitted.append(b)
            if admitted:
                jobs = [_columns(b.row) for b in admitted]
                rows = [row for b in admitted for row in b.candidates]
                if self._path is not None:  # sqlite3's executemany, on the transaction's connection
                    connection.exec_driver_sql(self._sql_job_insert.sql, jobs)
                    if rows:
                        connection.exec_driver_sql(self._sql_candidates.sql, rows)
                    return
                names = list(JobRecord.__dataclass_fields__)
                connection.execute(
                    insert(JobRow), [dict(zip(names, job, strict=True)) for job in jobs]
                )
                if rows:
                    connection.execute(
                        insert(CandidateRow),
                        [dict(zip(CANDIDATE_COLUMNS, r, strict=True)) for r in rows],
                    )

    def find_idempotent(self, owner: str, key: str) -> JobRecord | None:
        with self.engine.connect() as connection:
            row = connection.execute(
                select(JobRow.__table__).where(JobRow.owner == owner, JobRow.idempotency_key == key)
            ).first()
        return None if row is None else JobRecord(*row)

    def get_job(self, job_id: str) -> JobRecord | None:
        if self._path is not None:
            row = next(iter(self._read(self._sql_job, job=job_id)), None)
        else:
            with self.engine.connect() as connection:
                row = connection.execute(_JOB, {"job": job_id}).first()
        return None if row is None else JobRecord(*row)

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
        if self._path is not None:
            rows = self._read(self._sql_counts, job=job_id)
        else:
            with self.engine.connect() as connection:
                rows = list(connection.execute(_COUNTS, {"job": job_id}).all())
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
        self.start_jobs([job_id])

    def start_jobs(self, job_ids: Sequence[str]) -> dict[str, str]:
        """Marks those of `job_ids` that are queued running, in one transaction; returns the
        status of each one that exists."""
        if not job_ids:
            return {}
        with self._writing, self.engine.begin() as connection:
            connection.execute(_START, {"jobs": list(job_ids), "at": time.time()})
            rows = connection.execute(_STATUSES, {"jobs": list(job_ids)}).all()
            return {job_id: status for job_id, status in rows}

    def add_results(self, job_id: str, results: Iterable[tuple[int, CandidateResult]]) -> int:
        """Stores verdicts (a verdict already stored for an index is kept); returns the job's
        count of verdicts."""
        return self.store_verdicts({job_id: list(results)})[0].get(job_id, 0)

    def store_verdicts(
        self,
        by_job: Mapping[str, Sequence[tuple[int, CandidateResult]]],
        ending: Collection[str] = (),
    ) -> tuple[dict[str, int], dict[str, str]]:
        """Stores the verdicts of several jobs in one transaction (a verdict already stored for
        an index is kept) and ends the jobs of `ending` (those whose last verdict the runner has
        seen): `done` when the store holds a verdict for each of their candidates, else `failed`
        with the count. Returns each job's count of verdicts, and the jobs ended with how (a job
        cancelled or ended meanwhile stays as it is)."""
        ids = sorted({*by_job, *ending})
        rows = [  # in RESULT_COLUMNS order
            (
                job_id,
                index,
                r.verdict,
                r.fail_test,
                r.trap,
                min(r.steps, 2**62),
                clip(r.diagnostic),
                r.path,
                r.bytecode if r.passed else None,
                None if r.tests is None else json.dumps(r.tests),
            )
            for job_id, results in by_job.items()
            for index, r in results
        ]
        ended: dict[str, str] = {}
        if not ids:
            return {}, ended
        with self._writing, self.engine.begin() as connection:
            # The jobs' row locks first, in one order (PostgreSQL; SQLite has one writer
            # anyway): writers of one job take their `seq` values in commit order, so the
            # results cursor skips none.
            locked = connection.execute(_LOCK_JOBS, {"jobs": ids}).all()
            totals = {job_id: total for job_id, total, _ in locked}
            unfinished = {job_id for job_id, _, status in locked if status in UNFINISHED}
            if rows and self._path is not None:  # a verdict stored first is kept
                connection.exec_driver_sql(self._sql_add_results.sql, rows)
            elif rows:
                connection.execute(
                    self._add_results, [dict(zip(RESULT_COLUMNS, r, strict=True)) for r in rows]
                )
            done = {job_id: 0 for job_id in totals}
            done.update(connection.execute(_DONE_COUNTS, {"jobs": list(totals)}).all())
            connection.execute(_SET_DONE, [{"job": j, "n": n} for j, n in done.items()])
            now = time.time()
            complete = sorted(j for j in unfinished.intersection(ending) if done[j] >= totals[j])
            if complete:  # in one statement; a job cancelled since `locked` read it stays so
                connection.execute(_END_DONE, {"jobs": complete, "at": now})
                ended.update(dict.fromkeys(complete, DONE))
            for job_id in sorted(unfinished.intersection(ending).difference(complete)):
                # the executor ended it early: never "done"
                error = (
                    f"RuntimeError: the farm ended the job with {done[job_id]} of"
                    f" {totals[job_id]} verdicts"
                )
                changed = connection.execute(
                    _END, {"job": job_id, "to": FAILED, "at": now, "why": error}
                ).rowcount
                if changed:
                    ended[job_id] = FAILED
        return {job_id: int(n) for job_id, n in done.items()}, ended

    def finish(self, job_id: str, status: str, error: str | None = None) -> None:
        with self._writing, self.session() as session:
            session.execute(
                update(JobRow)
                .where(JobRow.id == job_id, JobRow.status.in_(UNFINISHED))
                .values(status=status, finished_at=time.time(), error=clip(error), lease_owner=None)
            )
            session.commit()

    def cancel(self, job_id: str) -> bool:
        """Marks an unfinished job cancelled; False when it had already finished."""
        with self._writing, self.session() as session:
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
        with self.engine.connect() as connection:
            return list(connection.execute(_CANCELLED, {"jobs": list(job_ids)}).scalars())

    def status(self, job_id: str) -> str | None:
        if self._path is not None:
            found = self._read(self._sql_status, job=job_id)
            return str(found[0][0]) if found else None
        with self.engine.connect() as connection:
            status: str | None = connection.execute(_STATUS, {"job": job_id}).scalar()
            return status

    def renew(self, replica: str, job_ids: Sequence[str], lease_s: float) -> None:
        if not job_ids:
            return
        with self._writing, self.session() as session:
            session.execute(
                update(JobRow)
                .where(JobRow.id.in_(job_ids), JobRow.lease_owner == replica)
                .values(lease_until=time.time() + lease_s)
            )
            session.commit()

    def release(self, replica: str) -> None:
        """Gives up this replica's leases (a clean shutdown): others may resume them at once."""
        with self._writing, self.session() as session:
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
        with self._writing, self.session() as session:
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
        with self._writing, self.session() as session:
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

    def results_after(self, job_id: str, cursor: int, limit: int) -> list[StoredResult]:
        if self._path is not None:
            found = self._read(self._sql_results, job=job_id, cursor=cursor, limit=limit)
            return [StoredResult(*row) for row in found]
        with self.engine.connect() as connection:
            rows = connection.execute(
                _RESULTS, {"job": job_id, "cursor": cursor, "limit": limit}
            ).mappings()
            return [StoredResult(**row) for row in rows]

    def result(self, job_id: str, index: int) -> ResultRow | None:
        with self.session() as session:
            return session.scalars(
                select(ResultRow).where(ResultRow.job_id == job_id, ResultRow.index == index)
            ).first()
