"""What the tests of the REST service (a real process, tests/test_api_service.py and
tests/test_adversarial_service.py) do as its clients, over httpx."""

from __future__ import annotations

import time
from typing import Any

import httpx


def wait_done(c: httpx.Client, job_id: str, timeout: float = 60) -> dict[str, Any]:
    """The job once it is no longer queued or running; fails the test after `timeout` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job: dict[str, Any] = c.get(f"/v1/jobs/{job_id}").json()
        if job["status"] not in ("queued", "running"):
            return job
        time.sleep(0.02)
    raise AssertionError(f"job {job_id} did not finish in {timeout} s")
