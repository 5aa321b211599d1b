"""configs.settings, table [farm]: the Ray address, workers, batch size and batches in flight
(packaged defaults, the user file, KILN_RAY_ADDRESS and KILN_FARM_* variables, their errors; a bad
variable's and a bad key's message are cases of tests/test_settings.py's tests of every table)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from configs.settings import (
    FARM_KEYS,
    PACKAGED_FILE,
    FarmSettings,
    load_settings,
)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "kiln.toml"
    path.write_text(text)
    return path


def test_defaults_embedded_cluster_and_the_cost_model() -> None:
    farm = load_settings(env={}).farm
    assert farm == FarmSettings()
    assert farm.ray_address == "" and farm.workers is None and farm.batch_size is None
    assert farm.in_flight == 2


def test_packaged_file_holds_every_farm_key_at_its_default() -> None:
    with open(PACKAGED_FILE, "rb") as file:
        packaged = tomllib.load(file)["farm"]
    assert tuple(packaged) == FARM_KEYS
    assert packaged == {"ray_address": "", "workers": "auto", "batch_size": "auto", "in_flight": 2}


def test_file_sets_the_farm(tmp_path: Path) -> None:
    path = write(
        tmp_path, '[farm]\nray_address = "auto"\nworkers = 3\nbatch_size = 500\nin_flight = 4\n'
    )
    assert load_settings(path, env={}).farm == FarmSettings("auto", 3, 500, 4)


def test_variables_override_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, '[farm]\nray_address = "head:6379"\nworkers = 3\nbatch_size = 7\n')
    env = {
        "KILN_RAY_ADDRESS": "ray://other:10001",
        "KILN_FARM_WORKERS": "auto",
        "KILN_FARM_BATCH_SIZE": "64",
        "KILN_FARM_IN_FLIGHT": "1",
    }
    assert load_settings(path, env=env).farm == FarmSettings("ray://other:10001", None, 64, 1)


def test_empty_variables_count_as_unset(tmp_path: Path) -> None:
    path = write(tmp_path, '[farm]\nray_address = "auto"\n')
    env = {"KILN_RAY_ADDRESS": "", "KILN_FARM_WORKERS": " "}
    assert load_settings(path, env=env).farm == FarmSettings("auto")


def test_farm_settings_reject_bad_values() -> None:
    with pytest.raises(ValueError, match="in_flight must be a positive integer"):
        FarmSettings(in_flight=0)
    with pytest.raises(ValueError, match="workers must be a positive integer or None"):
        FarmSettings(workers=0)
