"""Which runner `kiln eval` uses: in process unless a cluster, the farm or several GPUs ask."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from configs.settings import load_settings
from evaluation import run


@pytest.fixture(autouse=True)
def no_cluster_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KILN_RAY_ADDRESS", raising=False)
    monkeypatch.delenv("KILN_CONFIG", raising=False)


def test_one_machine_runs_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "local_gpus", lambda: 1)
    assert not run.farm_wanted(None, None)
    assert not run.farm_wanted(0, "auto")  # --workers 0 wins over everything


def test_a_cluster_workers_or_gpus_ask_for_the_farm(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "local_gpus", lambda: 0)
    assert run.farm_wanted(2, None)
    assert run.farm_wanted(None, "ray://head:10001")
    monkeypatch.setattr(run, "local_gpus", lambda: 2)
    assert run.farm_wanted(None, None)


def test_the_settings_address_reaches_the_farm(monkeypatch: pytest.MonkeyPatch) -> None:
    """KILN_RAY_ADDRESS / [farm] ray_address is read at the edge (`kiln eval`: the settings it
    passes to open_runner), never by the runner choice itself."""
    monkeypatch.setattr(run, "local_gpus", lambda: 0)
    monkeypatch.setenv("KILN_RAY_ADDRESS", "auto")
    assert not run.farm_wanted(None, None)  # the environment is not read below the edge
    settings = load_settings(env={"KILN_RAY_ADDRESS": "auto", "KILN_COMPILER": "reference"})
    started: list[dict[str, object]] = []

    @contextmanager
    def farm(**kwargs: object) -> Iterator[object]:
        started.append(kwargs)
        yield "a farm"

    monkeypatch.setattr(run, "farm_available", lambda: True)
    monkeypatch.setattr(run, "farm_runner", farm)
    with run.open_runner(None, "cpu", settings=settings) as (runner, where):
        assert runner == "a farm" and where == "farm at auto"
    assert started[0]["address"] == "auto" and started[0]["settings"] == settings.farm
    assert started[0]["limits"] == settings.vm
    with run.open_runner(0, "cpu", settings=settings) as (runner, _):
        assert isinstance(runner, run.LocalRunner)
        assert runner.pipeline.compiler == "reference"


def test_gpus_are_counted_without_cuda(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0,1")
    assert run.local_gpus() == 2
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "-1")
    assert run.local_gpus() == 0


def test_default_eval_starts_no_cluster() -> None:
    with run.open_runner(None, "cpu") as (runner, where):
        assert isinstance(runner, run.LocalRunner)
        assert where == "Pipeline in this process"
