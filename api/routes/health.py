"""/healthz (the process answers), /readyz (the farm is up and has workers), /metrics."""

from __future__ import annotations

from fastapi import APIRouter, Response, status
from fastapi.concurrency import run_in_threadpool

from api.deps import ExecutorDep, MetricsDep

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz", responses={503: {"description": "no healthy worker"}})
async def readyz(executor: ExecutorDep, response: Response) -> dict[str, object]:
    try:
        workers = await run_in_threadpool(executor.workers)
    except Exception as error:  # a farm that cannot say is not ready
        response.status_code = status.HTTP_503_SERVICE_UNAVAILABLE
        return {"status": "unavailable", "workers": 0, "reason": f"{type(error).__name__}: {error}"}
    healthy = sum(1 for w in workers if getattr(w, "healthy", True))
    if healthy == 0:
        response.status_code = status.HTTP_503_SERVICE_UNAVAILABLE
        return {"status": "unavailable", "workers": 0, "reason": "the farm has no healthy worker"}
    return {"status": "ready", "workers": healthy, "executor": type(executor).__name__}


@router.get("/metrics", response_class=Response, responses={200: {"content": {"text/plain": {}}}})
async def metrics(metrics: MetricsDep) -> Response:
    """Prometheus text: jobs, candidates, verdicts, request and job latency, workers."""
    text = await run_in_threadpool(metrics.render)
    return Response(text, media_type="text/plain; version=0.0.4; charset=utf-8")
