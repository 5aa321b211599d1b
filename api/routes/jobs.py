"""/v1/jobs: submit candidates and tests, follow a job, stream its verdicts, fetch verified
bytecode, cancel."""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import json
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, HTTPException, Query, Response, status
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse
from pydantic import BaseModel
from sqlalchemy.exc import IntegrityError

from api.deps import (
    CallerDep,
    ExecutorDep,
    JobDep,
    MetricsDep,
    RunnerDep,
    ServiceDep,
    SettingsDep,
    StoreDep,
    read,
)
from api.limits import clip
from api.models import JobCreate, JobPublic, JobsPublic, Progress
from api.problems import ProblemTests, ProblemUnavailable, lookup_problem
from api.runner import Accepted
from api.store import (
    UNFINISHED,
    Admission,
    Busy,
    IdempotencyConflict,
    JobRow,
    NewCandidate,
    Store,
    StoredResult,
    new_job_id,
)
from vm.container import ContainerError
from vm.limits import Limits
from vm.verify import VerifyError, verify_bytes

router = APIRouter(prefix="/v1/jobs", tags=["jobs"])

NDJSON = "application/x-ndjson"
POLL_S = 0.05  # how often a results stream looks for new verdicts
MAX_DETAIL = 100  # results per page with per-test detail (a line per candidate holds each test)
PER_JOB_LIMITS = ("stack_words", "heap_words", "max_call_depth")
RETRY_AFTER_S = 1


def job_public(row: JobRow, counts: dict[str, int]) -> JobPublic:
    end = row.finished_at if row.finished_at is not None else time.time()
    return JobPublic(
        id=row.id,
        status=row.status,  # type: ignore[arg-type]
        progress=Progress(done=row.done, total=row.total),
        counts=counts,
        created_at=row.created_at,
        started_at=row.started_at,
        finished_at=row.finished_at,
        elapsed_s=round(end - row.created_at, 6),
        error=clip(row.error),
    )


def _json(
    model: BaseModel, code: int = status.HTTP_200_OK, headers: dict[str, str] | None = None
) -> Response:
    """The route's answer, `model` serialized once: returned as a model, FastAPI would first
    validate it against the route's response model again."""
    return Response(model.model_dump_json(), code, headers, media_type="application/json")


def _too_large(message: str) -> HTTPException:
    return HTTPException(status.HTTP_413_REQUEST_ENTITY_TOO_LARGE, message)


def _invalid(message: str) -> HTTPException:
    return HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, message)


def _busy(message: str) -> HTTPException:
    return HTTPException(
        status.HTTP_429_TOO_MANY_REQUESTS, message, headers={"Retry-After": str(RETRY_AFTER_S)}
    )


def _check_limits(body: JobCreate, settings: SettingsDep, executor: ExecutorDep) -> None:
    limits = settings.api
    if len(body.candidates) > limits.max_candidates_per_job:
        raise _too_large(
            f"{len(body.candidates)} candidates: over"
            f" max_candidates_per_job={limits.max_candidates_per_job}"
        )
    if body.tests is not None:
        if len(body.tests) > limits.max_tests:
            raise _too_large(f"{len(body.tests)} tests: over max_tests={limits.max_tests}")
        for i, test in enumerate(body.tests):
            if test.fuel is not None and test.fuel > limits.max_fuel:
                raise _invalid(f"tests[{i}].fuel={test.fuel}: over max_fuel={limits.max_fuel}")
    options = body.options
    if options.fuel is not None and options.fuel > limits.max_fuel:
        raise _invalid(f"options.fuel={options.fuel}: over max_fuel={limits.max_fuel}")
    if options.compile_path != "deterministic" and not _neural_available():
        raise _invalid(
            f"options.compile_path={options.compile_path!r} needs torch on the server"
            " (pip install -e .[neural]); use 'deterministic'"
        )
    asked = {k: getattr(options, k) for k in PER_JOB_LIMITS if getattr(options, k) is not None}
    if asked:
        try:
            Limits().replace(**asked)
        except ValueError as error:
            raise _invalid(f"options: {error}") from None
        if not getattr(executor, "takes_limits", False):
            names = ", ".join(f"options.{k}" for k in asked)
            raise _invalid(
                f"{names}: this farm runs every job under its [vm] limits;"
                " only options.fuel may be set per job"
            )


def _check_job_fuel(body: JobCreate, settings: SettingsDep, problem: ProblemTests | None) -> None:
    """413 when the job could run more instructions than max_job_fuel: each test's fuel (its
    own, else options.fuel, else [vm] fuel) over candidates x tests, twice with per-test detail
    (each candidate the VM runs is run once more per test)."""
    default = body.options.fuel or settings.vm.fuel
    tests = problem.tests if problem is not None else body.tests or []
    per_candidate = sum(t.fuel or default for t in tests)
    runs = 2 if body.options.detail is not None else 1
    total = len(body.candidates) * per_candidate * runs
    limit = settings.api.max_job_fuel
    if total > limit:
        twice = " x 2 (options.detail)" if runs == 2 else ""
        raise _too_large(
            f"the job may run {len(body.candidates)} candidates x {per_candidate} instructions"
            f" (the fuel of its {len(tests)} tests){twice} = {total}: over"
            f" max_job_fuel={limit}; send fewer candidates or tests, or less fuel"
        )


def _neural_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("torch") is not None


def _candidates(
    body: JobCreate, settings: SettingsDep, problem: ProblemTests | None
) -> list[NewCandidate]:
    max_bytes = settings.api.max_source_bytes
    out = []
    for i, cand in enumerate(body.candidates):
        # a problem's tests call its entry (or its check function), whatever a candidate names
        entry = problem.entry if problem is not None else cand.entry
        if entry is None:
            raise _invalid(f"candidates[{i}]: no entry (name the function the tests call)")
        if cand.source is not None:
            size = len(cand.source.encode("utf-8", "surrogatepass"))
            if size > max_bytes:
                raise _too_large(
                    f"candidates[{i}].source is {size} bytes: over max_source_bytes={max_bytes}"
                )
            if "\x00" in cand.source:
                raise _invalid(f"candidates[{i}].source contains a NUL character")
            try:
                cand.source.encode("utf-8")
            except UnicodeEncodeError:
                raise _invalid(
                    f"candidates[{i}].source is not valid UTF-8 (a lone surrogate)"
                ) from None
            source = problem.program(cand.source) if problem is not None else cand.source
            out.append(NewCandidate(entry, source=source))
            continue
        assert cand.bytecode is not None
        if len(cand.bytecode) > max_bytes * 4 // 3 + 4:
            raise _too_large(f"candidates[{i}].bytecode is over max_source_bytes={max_bytes}")
        data = decode_base64(cand.bytecode, f"candidates[{i}].bytecode")
        if len(data) > max_bytes:
            raise _too_large(
                f"candidates[{i}].bytecode is {len(data)} bytes: over max_source_bytes={max_bytes}"
            )
        try:
            program = verify_bytes(data)
            program.function_index(entry)
        except (ContainerError, VerifyError) as error:
            raise _invalid(f"candidates[{i}].bytecode fails verification: {error}") from None
        except KeyError as error:
            raise _invalid(f"candidates[{i}].bytecode: {error.args[0]}") from None
        out.append(NewCandidate(entry, bytecode=data))
    return out


def decode_base64(text: str, where: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise _invalid(f"{where} is not valid base64") from None


@router.post(
    "",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=JobPublic,
    responses={
        401: {"description": "no or an unknown bearer token"},
        413: {"description": "a limit on size or count: the message names it"},
        422: {"description": "a request that is not valid: the message says what"},
        429: {"description": "too many jobs or candidates in flight for this token (Retry-After)"},
    },
)
async def create_job(
    body: JobCreate,
    response: Response,
    caller: CallerDep,
    service: ServiceDep,
    idempotency_key: Annotated[str | None, Header(max_length=255)] = None,
) -> JobPublic | Response:
    """Accept a job: candidates (sources, or `.kbc` bytecode in base64) and explicit tests or a
    dataset problem id. Returns 202 once the job is stored, with the job and its Location; the
    verdicts come from GET /v1/jobs/{id}/results. A repeated Idempotency-Key returns the first
    job."""
    settings, store, runner = service.settings, service.store, service.runner
    request_hash = None
    if idempotency_key is not None:
        request_hash = hashlib.sha256(body.model_dump_json().encode()).hexdigest()
        earlier = await run_in_threadpool(store.find_idempotent, caller.owner, idempotency_key)
        if earlier is not None:
            if earlier.request_hash != request_hash:
                raise _invalid(
                    f"Idempotency-Key {idempotency_key!r} was used for a different request "
                    f"(job {earlier.id}); use a new key for a new job"
                )
            response.headers["Location"] = f"/v1/jobs/{earlier.id}"
            return job_public(earlier, await run_in_threadpool(store.counts, earlier.id))
    _check_limits(body, settings, service.executor)
    # Sources are only measured and checked here: the event loop does it. Bytecode is verified
    # and a problem's dataset may be loaded the first time: the thread pool does that.
    inline = body.problem is None and all(c.bytecode is None for c in body.candidates)
    if inline:
        spec, candidates = _accept(body, settings)
    else:
        spec, candidates = await run_in_threadpool(_accept, body, settings)
    # the store's writer checks the limits on jobs in flight and stores the job in one
    # transaction shared with the submissions that arrive meanwhile (group commit)
    admission = Admission(caller.limits.max_jobs_in_flight, caller.limits.max_candidates_in_flight)
    stored = store.submit_job(
        new_job_id(), caller.owner, spec, candidates, replica=runner.replica,
        lease_s=settings.api.lease_s, idempotency_key=idempotency_key,
        request_hash=request_hash, admission=admission,
    )  # fmt: skip
    try:
        row = await asyncio.wrap_future(stored)
    except Busy as error:
        raise _busy(str(error)) from None
    except IntegrityError:
        if idempotency_key is None:
            raise
        try:
            row = await run_in_threadpool(
                store.earlier_job, caller.owner, idempotency_key, request_hash
            )
        except IdempotencyConflict as error:
            raise _invalid(str(error)) from None
        response.headers["Location"] = f"/v1/jobs/{row.id}"
        return job_public(row, await run_in_threadpool(store.counts, row.id))
    service.metrics.jobs.inc(event="accepted")
    service.metrics.candidates.inc(len(candidates))
    runner.launch(row.id, Accepted(spec, candidates, row.created_at))
    return _json(job_public(row, {}), status.HTTP_202_ACCEPTED, {"Location": f"/v1/jobs/{row.id}"})


def _accept(body: JobCreate, settings: SettingsDep) -> tuple[dict[str, Any], list[NewCandidate]]:
    """The job's spec to store and its candidates, or the HTTPException that refuses it."""
    problem = None
    spec: dict[str, Any] = {"options": body.options.model_dump(exclude_none=True)}
    if body.problem is not None:
        try:
            problem = lookup_problem(
                body.problem,
                body.problems,
                limits=settings.vm,
                compiler=settings.compiler,
                cache=settings.prepared_cache,
            )
        except ProblemUnavailable as error:
            raise _invalid(str(error)) from None
        if problem is None:
            raise _invalid(f"unknown problem {body.problem!r} in {body.problems}")
        spec["problem"] = body.problem
        spec["problems"] = body.problems
    else:
        spec["tests"] = [t.model_dump(exclude_none=True) for t in body.tests or []]
    _check_job_fuel(body, settings, problem)
    candidates = _candidates(body, settings, problem)
    if body.options.detail is not None:
        n_tests = len(problem.tests) if problem is not None else len(body.tests or [])
        items = len(candidates) * n_tests
        if items > settings.api.max_detail_items:
            raise _too_large(
                f"options.detail: {len(candidates)} candidates x {n_tests} tests = {items}"
                f" per-test results, over max_detail_items={settings.api.max_detail_items}"
            )
    return spec, candidates


@router.get("", response_model=JobsPublic)
def list_jobs(
    caller: CallerDep,
    store: StoreDep,
    offset: Annotated[int, Query(ge=0, le=2**31)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> JobsPublic:
    """The caller's jobs, newest first."""
    rows, count = store.list_jobs(caller.owner, offset, limit)
    return JobsPublic(data=[job_public(r, store.counts(r.id)) for r in rows], count=count)


@router.get("/{job_id}", response_model=JobPublic, responses={403: {}, 404: {}})
async def get_job(job: JobDep, store: StoreDep) -> Response:
    """Status, progress (done/total), timing and counts by verdict."""
    return _json(job_public(job, await read(store, store.counts, job.id)))


@router.delete("/{job_id}", response_model=JobPublic, responses={403: {}, 404: {}, 409: {}})
def cancel_job(job: JobDep, store: StoreDep, runner: RunnerDep, metrics: MetricsDep) -> JobPublic:
    """Cancel a queued or running job; the verdicts stored so far stay."""
    if not store.cancel(job.id):
        raise HTTPException(
            status.HTTP_409_CONFLICT, f"job {job.id!r} has already finished ({job.status})"
        )
    runner.cancel(job.id)
    metrics.jobs.inc(event="cancelled")
    row = store.get_job(job.id)
    assert row is not None
    return job_public(row, store.counts(job.id))


def _result_line(row: StoredResult, detail: bool) -> bytes:
    line: dict[str, Any] = {
        "index": row.index,
        "verdict": row.verdict,
        "fail_test": row.fail_test,
        "trap": row.trap,
        "steps": row.steps,
        "diagnostic": clip(row.diagnostic),
        "path": row.path,
        "cursor": str(row.seq),
    }
    if detail:  # stored by the worker that ran the candidate (options.detail), only read here
        line["tests"] = None if row.tests is None else json.loads(row.tests)
    return json.dumps(line).encode() + b"\n"


def _parse_cursor(cursor: str | None) -> int:
    if cursor is None or cursor == "":
        return 0
    if not cursor.isdigit() or len(cursor) > 18:
        raise _invalid(
            f"cursor {cursor!r} is not a cursor from this API (a number from a result line)"
        )
    return int(cursor)


@router.get(
    "/{job_id}/results",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {NDJSON: {}},
            "description": "one JSON object per line (ResultPublic); streamed until the job ends,"
            " or one page with a Next-Cursor header once it has ended",
        },
        403: {},
        404: {},
    },
)
async def job_results(
    job: JobDep,
    store: StoreDep,
    cursor: Annotated[str | None, Query(max_length=32)] = None,
    limit: Annotated[int, Query(ge=1, le=10_000)] = 1000,
    detail: Annotated[Literal["tests"] | None, Query()] = None,
) -> Response:
    """Verdicts as NDJSON, in arrival order. While the job runs, the response streams each
    verdict as it is stored and ends when the job does; once the job has ended, it is one page of
    at most `limit` lines after `cursor`, with `Next-Cursor` when more follow.
    `detail=tests` adds each test's own verdict (at most 100 lines per page), as the worker
    recorded it: the job must have been submitted with `options.detail = "tests"`."""
    after = _parse_cursor(cursor)
    if detail is not None:
        if json.loads(job.spec).get("options", {}).get("detail") != "tests":
            raise _invalid(
                f"job {job.id!r} was not submitted with options.detail='tests': per-test"
                " detail is recorded by the workers that run a job, when it asks for it"
            )
        limit = min(limit, MAX_DETAIL)

    async def line(row: StoredResult) -> bytes:
        return _result_line(row, detail is not None)

    if job.status not in UNFINISHED:
        rows = await run_in_threadpool(store.results_after, job.id, after, limit + 1)
        headers = {}
        if len(rows) > limit:
            rows = rows[:limit]
            headers["Next-Cursor"] = str(rows[-1].seq)
            headers["Link"] = (
                f'</v1/jobs/{job.id}/results?cursor={rows[-1].seq}&limit={limit}>; rel="next"'
            )
        body = b"".join([await line(r) for r in rows])
        return Response(body, media_type=NDJSON, headers=headers)

    return StreamingResponse(_stream(store, job.id, after, line), media_type=NDJSON)


async def _stream(store: Store, job_id: str, after: int, line: Any) -> AsyncIterator[bytes]:
    while True:
        # read the status before the rows: rows stored before a job ended are all seen
        state = await run_in_threadpool(store.status, job_id)
        rows = await run_in_threadpool(store.results_after, job_id, after, 1000)
        for row in rows:
            after = row.seq
            yield await line(row)
        if len(rows) == 1000:
            continue
        if state is None or state not in UNFINISHED:
            return
        await asyncio.sleep(POLL_S)


@router.get(
    "/{job_id}/candidates/{index}/bytecode",
    response_class=Response,
    responses={
        200: {"content": {"application/octet-stream": {}}},
        403: {},
        404: {"description": "why there is none"},
    },
)
def candidate_bytecode(job: JobDep, index: int, store: StoreDep) -> Response:
    """The verified `.kbc` of a passing candidate; 404 with the reason otherwise."""
    if not 0 <= index < job.total:
        raise HTTPException(
            status.HTTP_404_NOT_FOUND,
            f"job {job.id!r} has no candidate {index} (it has {job.total})",
        )
    row = store.result(job.id, index)
    if row is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"candidate {index} has no verdict yet")
    if row.bytecode is None:
        raise HTTPException(
            status.HTTP_404_NOT_FOUND,
            f"candidate {index} did not pass (verdict: {row.verdict}): no verified bytecode",
        )
    return Response(
        row.bytecode,
        media_type="application/octet-stream",
        headers={"Content-Disposition": f'attachment; filename="{job.id}-{index}.kbc"'},
    )
