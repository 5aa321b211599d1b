"""Builds the FastAPI application: `create_app(settings, executor)`; nothing else lives here.

    uvicorn --factory api.main:create_app        # or: kiln serve

The application owns, for its lifetime (the lifespan): the job store (`[api] database`), the
executor (the Ray farm of `cluster/` unless one is given), the job runner (which also resumes
the jobs an earlier process left unfinished) and the metrics.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial

from fastapi import FastAPI

from api.deps import Service
from api.executor import Executor, make_executor
from api.limits import install_limits
from api.metrics import Metrics
from api.problems import lookup_problem
from api.routes import health, jobs, programs
from api.runner import JobRunner
from api.store import Store
from configs.settings import Settings, applied, load_settings


def create_app(settings: Settings | None = None, executor: Executor | None = None) -> FastAPI:
    settings = settings or load_settings()
    metrics = Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # the edge: the layers below get the settings here, for the app's lifetime, rather than
        # reading them where they are used (configs.settings.applied)
        with applied(settings):
            owned = executor is None
            farm = executor or make_executor(
                settings.api.executor, settings.api.farm_workers or None, settings
            )
            store = Store(settings.api.database)
            # problems are prepared on the executor's workers: this process only routes
            problems = partial(
                lookup_problem,
                runner=farm,
                limits=settings.vm,
                compiler=settings.compiler,
                cache=settings.prepared_cache,
            )
            runner = JobRunner(
                store, farm, settings.api, metrics, problems, default_fuel=settings.vm.fuel
            )
            app.state.settings, app.state.store, app.state.executor = settings, store, farm
            app.state.runner, app.state.metrics = runner, metrics
            app.state.service = Service(settings, store, runner, farm, metrics)
            metrics.gauge(
                "kiln_api_jobs_running",
                "Jobs this replica is running now",
                lambda: {(): runner.running()},
            )
            metrics.gauge(
                "kiln_farm_workers", "Workers of the farm, by health", lambda: _workers(farm)
            )
            runner.start()  # its first pass claims the jobs an earlier process left unfinished
            try:
                yield
            finally:
                runner.stop()
                store.close()
                if owned:
                    farm.shutdown()

    app = FastAPI(
        title="kiln",
        version="0.1.0",
        summary="Compile, run and verify candidate programs by the thousand",
        lifespan=lifespan,
    )
    install_limits(app, settings.api.max_body_bytes, settings.api.max_json_depth, metrics)
    app.include_router(jobs.router)
    app.include_router(programs.router)
    app.include_router(health.router)
    return app


def _workers(farm: Executor) -> dict[tuple[tuple[str, str], ...], float]:
    counts: dict[tuple[tuple[str, str], ...], float] = {
        (("healthy", "true"),): 0,
        (("healthy", "false"),): 0,
    }
    for worker in farm.workers():
        key = (("healthy", "true" if getattr(worker, "healthy", True) else "false"),)
        counts[key] += 1
    return counts
