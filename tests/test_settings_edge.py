"""Settings read once at the edge and passed down: the C VM's build cache folder and default
thread count come from whoever runs it (the `kiln` command, the API's application, a farm
worker's process), never from the VM reading the settings itself (docs/ARCHITECTURE.md)."""

from __future__ import annotations

import argparse
import ast
import os
import re
import tomllib
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


def test_the_kiln_command_passes_the_runtime_switches_down(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """KILN_TRACE and KILN_PREBUILT reach the VM through `applied`; KILN_SANDBOX and
    KILN_PREPARED_CACHE reach the commands in `args.settings` (evaluation.commands passes them to
    `evaluate`): no module below reads them."""
    from vm import prebuilt, ref

    env = {"KILN_TRACE": "1", "KILN_PREBUILT": "0", "KILN_SANDBOX": "strict"}
    for name, value in {**env, "KILN_PREPARED_CACHE": "off"}.items():
        monkeypatch.setenv(name, value)
    seen: list[tuple[bool, bool, str, bool]] = []

    def command(args: argparse.Namespace) -> int:
        s = args.settings
        seen.append((ref._trace, prebuilt._prebuilt, s.sandbox, s.prepared_cache))
        return 0

    monkeypatch.setattr(cli, "cmd_disasm", command)
    assert cli.main(["disasm", "nothing.kbc"]) == 0
    assert seen == [(True, False, "strict", False)]
    assert (ref._trace, prebuilt._prebuilt) == (False, True)  # restored after the command


def test_kiln_eval_passes_the_sandbox_and_the_prepared_cache_to_evaluate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fallback's pool gets the settings' sandbox from `evaluate`, which reads nothing."""
    from evaluation import run

    made: list[str] = []

    class Pool:
        def __init__(self, *, sandbox: str, **kwargs: object) -> None:
            made.append(sandbox)
            raise RuntimeError("enough")

    monkeypatch.setattr(run, "FallbackPool", Pool)
    monkeypatch.setenv("KILN_SANDBOX", "auto")  # not read below the edge
    for sandbox in ("strict", "auto"):
        with pytest.raises(RuntimeError, match="enough"):
            run.evaluate([], {}, runner=None, fallback_sandbox=sandbox)  # type: ignore[arg-type]
    assert made == ["strict", "auto"]


def test_a_farm_workers_process_is_an_edge(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker reads its node's settings once (its environment, KILN_CONFIG) and passes them
    down for the life of its process, the runtime switches included."""
    from actors import worker
    from vm import prebuilt, ref

    monkeypatch.setenv("KILN_PREBUILT", "0")
    monkeypatch.setenv("KILN_TRACE", "1")
    monkeypatch.setenv("KILN_COMPILER", "reference")
    previous = apply(Settings())
    try:
        settings = worker._apply_node_settings()
        assert (settings.compiler, ref._trace, prebuilt._prebuilt) == ("reference", True, False)
    finally:
        restore(previous)
    assert (ref._trace, prebuilt._prebuilt) == (False, True)


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


# ---- nothing below the edges reads the settings --------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
EDGES = {
    "api/cli.py": "the `kiln` command: `main` reads them once, commands get `args.settings`",
    "api/main.py": "the API's application factory (`create_app`)",
    "actors/worker.py": "a farm worker's own process (`_apply_node_settings`)",
    "configs/settings.py": "the loader itself",
}
EDGE_PACKAGES = ("bench",)  # benchmarks: run by `kiln bench` (settings=) or alone
SETTINGS_VARIABLES = re.compile(
    r"^KILN_(CONFIG|VM_\w+|CPU_THREADS|COMPILER|SANDBOX|PREPARED_CACHE|PREBUILT|TRACE"
    r"|RAY_ADDRESS|FARM_\w+|API_(?!URL$|TOKEN$)\w+)$"
)
"""What `load_settings` reads from the environment (KILN_CACHE_DIR aside: vm.build's own
fallback where no edge passed a folder, test_without_an_edge_...), less the client's variables."""


def _root_packages() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as file:
        return list(tomllib.load(file)["tool"]["importlinter"]["root_packages"])


def _settings_reads(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) for each use of the settings loader, and each read of a settings variable
    from the environment (os.environ.get, os.getenv, os.environ[...]), named by a string or by
    a module's constant (`VARIABLE = "KILN_TRACE"; os.environ.get(VARIABLE)`)."""
    found: list[tuple[int, str]] = []
    constants = {
        target.id: node.value.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
        for target in node.targets
        if isinstance(target, ast.Name) and isinstance(node.value.value, str)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "configs.settings":
            for alias in node.names:
                if alias.name in ("load_settings", "*"):
                    found.append((node.lineno, f"imports {alias.name} from configs.settings"))
        elif isinstance(node, ast.Attribute) and node.attr == "load_settings":
            found.append((node.lineno, "calls configs.settings.load_settings"))
        elif isinstance(node, ast.Call) or (
            isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)
        ):
            target = node.func if isinstance(node, ast.Call) else node.value
            args = node.args[:1] if isinstance(node, ast.Call) else [node.slice]
            reads_env = ast.unparse(target) in ("os.environ.get", "os.getenv", "os.environ")
            for arg in args if reads_env else []:
                name = arg.value if isinstance(arg, ast.Constant) else None
                name = constants.get(arg.id) if isinstance(arg, ast.Name) else name
                if isinstance(name, str) and SETTINGS_VARIABLES.match(name):
                    found.append((node.lineno, f"reads ${name}"))
    return found


def test_no_module_below_the_edges_reads_the_settings() -> None:
    """Settings are read once at the edge (EDGES) and passed down as arguments: a module below
    takes the types (`Settings`, `FarmSettings`, `Limits`) and defaults that read nothing."""
    offenders = []
    scanned = 0
    for package in _root_packages():
        if package in EDGE_PACKAGES:
            continue
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative in EDGES:
                continue
            scanned += 1
            for line, what in _settings_reads(ast.parse(path.read_text(), relative)):
                offenders.append(f"{relative}:{line}: {what}")
    assert scanned > 50  # the packages were found
    assert offenders == [], "settings read below the edge:\n" + "\n".join(offenders)


def test_the_scan_finds_a_settings_read() -> None:
    source = (
        "import os\nfrom configs.settings import Settings, load_settings\n"
        "a = os.environ.get('KILN_COMPILER')\nb = os.environ['KILN_RAY_ADDRESS']\n"
        "c = os.getenv('KILN_API_URL')\nos.environ['KILN_API_TOKENS'] = 't'\n"
        "import configs.settings\nd = configs.settings.load_settings()\n"
        "DISABLE = 'KILN_PREBUILT'\ne = os.environ.get(DISABLE, '') == '0'\n"
        "f = os.environ.get('KILN_SANDBOX', 'auto')\ng = os.environ['KILN_TRACE']\n"
        "h = os.getenv('KILN_PREPARED_CACHE')\n"
    )
    assert sorted(line for line, _ in _settings_reads(ast.parse(source))) == [
        2,
        3,
        4,
        8,
        10,
        11,
        12,
        13,
    ]
