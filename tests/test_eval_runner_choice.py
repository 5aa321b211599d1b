"""Which runner `kiln eval` uses: in process unless a cluster, the farm or several GPUs ask."""

from __future__ import annotations

import pytest

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
    monkeypatch.setenv("KILN_RAY_ADDRESS", "auto")
    assert run.farm_wanted(None, None)
    monkeypatch.delenv("KILN_RAY_ADDRESS")
    monkeypatch.setattr(run, "local_gpus", lambda: 2)
    assert run.farm_wanted(None, None)


def test_gpus_are_counted_without_cuda(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0,1")
    assert run.local_gpus() == 2
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "-1")
    assert run.local_gpus() == 0


def test_default_eval_starts_no_cluster() -> None:
    with run.open_runner(None, "cpu") as (runner, where):
        assert isinstance(runner, run.LocalRunner)
        assert where == "Pipeline in this process"
