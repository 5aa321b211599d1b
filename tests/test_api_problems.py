"""The API process only routes: a dataset problem's canonical solution is run (to give each test
its fuel) by the service's executor, as every candidate is, never by a runner of its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from api.executor import ThreadExecutor
from configs.settings import ApiSettings, Settings
from core.jobs import Candidate


class RecordingExecutor(ThreadExecutor):
    """The thread executor, recording the candidates of every job it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[Candidate] = []

    def submit(self, candidates: Any, tests: Any, *args: Any, **kwargs: Any) -> Any:
        self.seen += list(candidates)
        return super().submit(candidates, tests, *args, **kwargs)


def test_a_problem_is_prepared_on_the_services_executor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fastapi.testclient import TestClient

    import actors.local
    from api import problems
    from api.main import create_app
    from evaluation.datasets import load_problems

    monkeypatch.setattr(problems, "_PREPARED", {})

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("the API process started a runner of its own")

    monkeypatch.setattr(actors.local, "LocalRunner", refused)
    executor = RecordingExecutor()
    settings = Settings(  # prepared now, not read from an earlier run's cache
        prepared_cache=False,
        api=ApiSettings(database=str(tmp_path / "jobs.sqlite"), tokens=("t",)),
    )
    solution = load_problems("humaneval")["HumanEval/2"].canonical_solution
    headers = {"Authorization": "Bearer t"}
    with TestClient(create_app(settings, executor)) as client:
        reply = client.post(
            "/v1/jobs",
            json={"candidates": [{"source": solution}], "problem": "HumanEval/2"},
            headers=headers,
        )
        assert reply.status_code == 202, reply.text
        job = reply.json()["id"]
        for _ in range(600):
            state = client.get(f"/v1/jobs/{job}", headers=headers).json()
            if state["status"] == "done":
                break
        assert state["status"] == "done", state
    # the canonical solution's runs (one per test), then the job's candidate
    prepared = [c for c in executor.seen if c.problem == "HumanEval/2"]
    assert len(prepared) >= 3 and executor.seen[-1].problem != "HumanEval/2"
