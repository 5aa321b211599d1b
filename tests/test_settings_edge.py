"""Settings read once at the edge and passed down: the C VM's build cache folder and default
thread count come from whoever runs it (the `kiln` command, the API's application, a farm
worker's process), never from the VM reading the settings itself (docs/ARCHITECTURE.md)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import pytest

from api import cli
from configs.settings import Settings, applied, apply, restore
from vm import build, cpu


def test_without_an_edge_the_vm_uses_its_environment_and_defaults(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("KILN_CACHE_DIR", raising=False)
    assert build.cache_dir() == Path.home() / ".cache" / "kiln"
    monkeypatch.setenv("KILN_CACHE_DIR", str(tmp_path))
    assert build.cache_dir() == tmp_path
    assert cpu.default_threads() == (os.cpu_count() or 1)


def test_applied_passes_the_settings_down_and_restores(tmp_path: Path) -> None:
    settings = Settings(cache_dir=tmp_path / "cache", cpu_threads=3)
    with applied(settings) as inside:
        assert inside is settings
        assert build.cache_dir() == tmp_path / "cache"
        assert cpu.default_threads() == 3
        with applied(Settings(cache_dir=tmp_path / "inner", cpu_threads=1)):
            assert (build.cache_dir(), cpu.default_threads()) == (tmp_path / "inner", 1)
        assert (build.cache_dir(), cpu.default_threads()) == (tmp_path / "cache", 3)
    assert build.use_cache_dir(None) is None and cpu.use_default_threads(None) is None
    previous = apply(settings)
    try:
        assert cpu.default_threads() == 3
    finally:
        restore(previous)
    assert cpu.default_threads() == (os.cpu_count() or 1)


def test_the_vm_checks_what_it_is_given() -> None:
    for bad in (0, -1, True, 2.0):
        with pytest.raises(ValueError, match="threads must be a positive integer"):
            cpu.use_default_threads(bad)  # type: ignore[arg-type]


def test_the_kiln_command_is_an_edge(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config = tmp_path / "kiln.toml"
    config.write_text(f'[runtime]\ncache_dir = "{tmp_path / "cache"}"\ncpu_threads = 2\n')
    monkeypatch.setenv("KILN_CONFIG", str(config))
    for name in ("KILN_CACHE_DIR", "KILN_CPU_THREADS"):
        monkeypatch.delenv(name, raising=False)
    seen: list[tuple[Path, int]] = []

    def command(args: argparse.Namespace) -> int:
        seen.append((build.cache_dir(), cpu.default_threads()))
        return 0

    monkeypatch.setattr(cli, "cmd_disasm", command)
    assert cli.main(["disasm", "nothing.kbc"]) == 0
    assert seen == [(tmp_path / "cache", 2)]
    assert build.use_cache_dir(None) is None  # nothing left set after the command


def test_a_bad_setting_is_the_commands_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KILN_CPU_THREADS", "many")
    monkeypatch.setattr(cli, "cmd_disasm", lambda args: 0)
    assert cli.main(["disasm", "nothing.kbc"]) == 2
    assert "kiln: error: KILN_CPU_THREADS='many'" in capsys.readouterr().err


def test_the_apis_application_is_an_edge(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from api.executor import ThreadExecutor
    from api.main import create_app
    from configs.settings import ApiSettings

    settings = Settings(
        cache_dir=tmp_path / "cache",
        cpu_threads=2,
        api=ApiSettings(database=str(tmp_path / "jobs.sqlite"), tokens=("t",)),
    )
    with TestClient(create_app(settings, ThreadExecutor())):
        assert (build.cache_dir(), cpu.default_threads()) == (tmp_path / "cache", 2)
    assert build.use_cache_dir(None) is None
