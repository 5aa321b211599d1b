"""Nothing accepted is lost: the API process is killed (SIGKILL) mid-job and started again on the
same store; the unfinished jobs resume and finish with complete results, each candidate's
verdict exactly once. A real uvicorn process and the real farm (KILN_TEST_API_EXECUTOR=thread:
without Ray)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_api_service import ALICE, service_env, slow, wait_done
from test_api_store import POSTGRES_URL, postgres_schema

from api.process import ServiceProcess

N = 30
LOOP = 4_000_000  # 32M instructions per candidate: the job takes a few seconds on one worker


@pytest.fixture(scope="module")
def tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("restart")


@pytest.fixture()
def service(tmp: Path) -> Iterator[ServiceProcess]:
    process = ServiceProcess(
        service_env(tmp, KILN_API_LEASE_S="2", KILN_API_MAX_JOBS_IN_FLIGHT="8"),
        log_path=tmp / "service.log",
    )
    process.start()
    yield process
    process.stop()


def job_body(offset: int, loop: int = LOOP) -> dict[str, Any]:
    return {
        "candidates": [{"source": slow(offset + k), "entry": "f"} for k in range(N)],
        "tests": [{"args": [loop], "expected": loop}],
        "options": {"batch_size": 1, "fuel": 100_000_000},
    }


def test_killed_mid_job_resumes_and_finishes_complete(service: ServiceProcess) -> None:
    headers = {"Authorization": f"Bearer {ALICE}"}
    with httpx.Client(base_url=service.url, headers=headers, timeout=30) as c:
        running = c.post("/v1/jobs", json=job_body(0)).json()
        queued = c.post("/v1/jobs", json=job_body(1000)).json()  # accepted, maybe not started
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            done = c.get(f"/v1/jobs/{running['id']}").json()["progress"]["done"]
            if done > 0:
                break
            time.sleep(0.02)
        assert 0 < done < N, f"the job should be mid-way when the process dies ({done}/{N})"

    service.kill()  # no shutdown code runs: leases are not released, nothing is flushed
    service.start()

    with httpx.Client(base_url=service.url, headers=headers, timeout=30) as c:
        for job in (running, queued):
            final = wait_done(c, job["id"], timeout=120)
            assert final["status"] == "done", final
            assert final["progress"] == {"done": N, "total": N}
            assert final["counts"] == {"passed": N}
            lines = c.get(f"/v1/jobs/{job['id']}/results", params={"limit": 1000}).text.splitlines()
            indices = sorted(int(line.split('"index": ')[1].split(",")[0]) for line in lines)
            assert indices == list(range(N))  # each candidate exactly once
        metrics = c.get("/metrics").text
        assert 'kiln_api_jobs_total{event="resumed"}' in metrics


@pytest.fixture(params=["sqlite", "postgres"])
def shared_database(request: pytest.FixtureRequest, tmp: Path) -> Iterator[str]:
    """The store two replicas share: a SQLite file, or a fresh schema on KILN_TEST_POSTGRES_URL."""
    if request.param == "sqlite":
        yield str(tmp / "replicas.sqlite")
        return
    if not POSTGRES_URL:
        pytest.skip("KILN_TEST_POSTGRES_URL is not set (a postgresql+psycopg:// URL)")
    with postgres_schema(POSTGRES_URL) as url:
        yield url


def test_another_replica_takes_over_a_dead_ones_jobs(tmp: Path, shared_database: str) -> None:
    """Two API processes on one store (thread executors: the store is what is under test): the
    live replica leaves the other's running job alone while its lease is renewed, and resumes it
    once that replica is killed."""
    env = service_env(tmp / "..", KILN_API_LEASE_S="2", KILN_API_EXECUTOR="thread")
    env["KILN_API_DATABASE"] = shared_database
    first = ServiceProcess(env, log_path=tmp / "first.log")
    second = ServiceProcess(env, log_path=tmp / "second.log")
    first.start()
    second.start()
    try:
        headers = {"Authorization": f"Bearer {ALICE}"}
        with httpx.Client(base_url=first.url, headers=headers, timeout=30) as c:
            job = c.post("/v1/jobs", json=job_body(2000, loop=3 * LOOP)).json()
            while c.get(f"/v1/jobs/{job['id']}").json()["progress"]["done"] == 0:
                time.sleep(0.02)
        with httpx.Client(base_url=second.url, headers=headers, timeout=30) as c:
            time.sleep(2.5)  # longer than a lease: the first replica renews it, nobody steals it
            assert 'kiln_api_jobs_total{event="resumed"}' not in c.get("/metrics").text
            assert c.get(f"/v1/jobs/{job['id']}").json()["status"] == "running"
            first.kill()
            final = wait_done(c, job["id"], timeout=120)
            assert final["status"] == "done" and final["progress"] == {"done": N, "total": N}
            assert final["counts"] == {"passed": N}
            assert 'kiln_api_jobs_total{event="resumed"} 1' in c.get("/metrics").text
    finally:
        first.stop()
        second.stop()
