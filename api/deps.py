"""The routes' dependencies, as `Annotated` aliases (tests swap them with
`app.dependency_overrides`): the settings, the store, the runner, the metrics, the caller.

Those that only read the application's state or compare a token are `async def`: FastAPI runs a
plain `def` dependency in its thread pool, a hand-off that cost more than the dependency itself
(`kiln bench api`). `owned_job` reads the store with `read`: on the loop for SQLite, whose reads
never wait for its writer, in the thread pool for a server.

FastAPI solves each dependency of a request anew, at about 20 us each: the frequent routes
(`/v1/compile`, `POST /v1/jobs`, `GET /v1/jobs/{id}`) take the caller (whose `service` is
everything the application holds) and the job, nothing else: three dependencies where there
were seven."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Annotated, Any, TypeVar

from fastapi import Depends, HTTPException, Request, status
from fastapi.requests import HTTPConnection
from fastapi.security import HTTPBearer
from starlette.concurrency import run_in_threadpool

from api.executor import Executor
from api.metrics import Metrics
from api.runner import JobRunner
from api.store import JobRecord, Store
from configs.settings import ApiSettings, Settings

T = TypeVar("T")


def _state(name: str) -> Callable[[Request], Awaitable[Any]]:
    """The dependency that reads `request.app.state.<name>` (set up when the app starts)."""

    async def dependency(request: Request) -> Any:
        return getattr(request.app.state, name)

    dependency.__name__ = dependency.__qualname__ = f"get_{name}"
    return dependency


get_settings = _state("settings")
get_store = _state("store")
get_runner = _state("runner")
get_executor = _state("executor")
get_metrics = _state("metrics")


@dataclass(frozen=True)
class Service:
    """What the application holds for its lifetime, as one dependency: a route that needs most
    of it takes this rather than five (FastAPI solves each dependency on every request)."""

    settings: Settings
    store: Store
    runner: JobRunner
    executor: Executor
    metrics: Metrics

    @cached_property
    def tokens(self) -> list[bytes]:
        return [known.encode() for known in self.settings.api.tokens]


get_service = _state("service")


SettingsDep = Annotated[Settings, Depends(get_settings)]
ServiceDep = Annotated[Service, Depends(get_service)]
StoreDep = Annotated[Store, Depends(get_store)]
RunnerDep = Annotated[JobRunner, Depends(get_runner)]
ExecutorDep = Annotated[Executor, Depends(get_executor)]
MetricsDep = Annotated[Metrics, Depends(get_metrics)]


@dataclass(frozen=True)
class Caller:
    """Who is asking: `owner` is a digest of the token (the token itself is never stored); and
    the service that answers them (the application's `Service`)."""

    owner: str
    limits: ApiSettings
    service: Service


def owner_of(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:32]


class BearerCaller(HTTPBearer):
    """The caller of a request from its bearer token: 401 without one, or with one that is not
    in `[api] tokens` (compared in constant time). One dependency (OpenAPI still shows the
    HTTPBearer scheme), where the token, the settings and the check were three."""

    async def __call__(self, request: HTTPConnection) -> Caller:  # type: ignore[override]
        credentials = await super().__call__(request)
        if credentials is None:
            raise HTTPException(
                status.HTTP_401_UNAUTHORIZED,
                "missing bearer token: send Authorization: Bearer <token>",
                headers={"WWW-Authenticate": "Bearer"},
            )
        service: Service = request.app.state.service
        token = credentials.credentials.encode()
        if not any(hmac.compare_digest(token, known) for known in service.tokens):
            raise HTTPException(
                status.HTTP_401_UNAUTHORIZED,
                "unknown bearer token",
                headers={"WWW-Authenticate": "Bearer"},
            )
        return Caller(owner_of(credentials.credentials), service.settings.api, service)


get_caller = BearerCaller(
    scheme_name="HTTPBearer",
    auto_error=False,
    description="a token from [api] tokens or KILN_API_TOKENS",
)
CallerDep = Annotated[Caller, Depends(get_caller)]


async def read(store: Store, fn: Callable[..., T], *args: Any) -> T:
    """A read of the store: on the event loop where the store says its reads are short
    (`Store.reads_inline`: SQLite), else in the thread pool."""
    if store.reads_inline:
        return fn(*args)
    return await run_in_threadpool(fn, *args)


async def owned_job(job_id: str, caller: CallerDep) -> JobRecord:
    """The job `job_id` of the caller: 404 when there is none, 403 when it is another token's."""
    store = caller.service.store
    row = await read(store, store.get_job, job_id)
    if row is None:
        raise HTTPException(
            status.HTTP_404_NOT_FOUND, f"no job {job_id!r} (it may have been pruned)"
        )
    if row.owner != caller.owner:
        raise HTTPException(status.HTTP_403_FORBIDDEN, f"job {job_id!r} belongs to another token")
    return row


JobDep = Annotated[JobRecord, Depends(owned_job)]
