"""configs.settings: packaged defaults, the user file, KILN_* variables, and the errors of each."""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from configs.settings import (
    FARM_KEYS,
    LIMIT_NAMES,
    PACKAGED_FILE,
    RUNTIME_KEYS,
    Settings,
    SettingsError,
    farm_variable,
    load_settings,
    vm_variable,
)
from vm.limits import Limits


def write(tmp_path: Path, text: str, name: str = "kiln.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# --- defaults -----------------------------------------------------------------------------


def test_defaults_with_no_file_and_no_variables() -> None:
    settings = load_settings(env={})
    assert settings == Settings()
    assert settings.vm == Limits()
    assert settings.cache_dir == Path.home() / ".cache" / "kiln"
    assert settings.cpu_threads == (os.cpu_count() or 1)


def test_packaged_file_mirrors_limits_defaults() -> None:
    with open(PACKAGED_FILE, "rb") as file:
        packaged = tomllib.load(file)
    assert packaged["vm"] == dataclasses.asdict(Limits())
    assert tuple(packaged["runtime"]) == RUNTIME_KEYS
    assert packaged["runtime"]["compiler"] == Settings().compiler


def test_settings_are_frozen() -> None:
    settings = Settings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.cpu_threads = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    ("variable", "keys", "names"),
    [
        (
            vm_variable,
            LIMIT_NAMES,
            ["KILN_VM_FUEL", "KILN_VM_STACK_WORDS", "KILN_VM_MAX_CALL_DEPTH", "KILN_VM_HEAP_WORDS"],
        ),
        (
            farm_variable,
            FARM_KEYS,
            [
                "KILN_RAY_ADDRESS",
                "KILN_FARM_WORKERS",
                "KILN_FARM_BATCH_SIZE",
                "KILN_FARM_IN_FLIGHT",
            ],
        ),
    ],
    ids=["vm", "farm"],
)
def test_every_key_has_a_variable(
    variable: Callable[[str], str], keys: tuple[str, ...], names: list[str]
) -> None:
    assert [variable(key) for key in keys] == names


# --- the user file --------------------------------------------------------------------------


def test_file_overrides_only_the_keys_it_sets(tmp_path: Path) -> None:
    path = write(tmp_path, "[vm]\nfuel = 5000\n\n[runtime]\ncpu_threads = 3\n")
    settings = load_settings(path, env={})
    assert settings.vm == Limits(fuel=5000)
    assert settings.cpu_threads == 3
    assert settings.cache_dir == Settings().cache_dir


def test_file_named_by_kiln_config(tmp_path: Path) -> None:
    path = write(tmp_path, "[vm]\nmax_call_depth = 50\n")
    assert load_settings(env={"KILN_CONFIG": str(path)}).vm.max_call_depth == 50


def test_path_argument_wins_over_kiln_config(tmp_path: Path) -> None:
    named = write(tmp_path, "[vm]\nfuel = 1\n", "named.toml")
    given_path = write(tmp_path, "[vm]\nfuel = 2\n", "given.toml")
    assert load_settings(given_path, env={"KILN_CONFIG": str(named)}).vm.fuel == 2


def test_relative_cache_dir_is_taken_from_the_file_folder(tmp_path: Path) -> None:
    path = write(tmp_path, '[runtime]\ncache_dir = "cache"\n')
    assert load_settings(path, env={}).cache_dir == tmp_path / "cache"


def test_home_in_cache_dir_is_expanded(tmp_path: Path) -> None:
    path = write(tmp_path, '[runtime]\ncache_dir = "~/elsewhere"\n')
    assert load_settings(path, env={}).cache_dir == Path.home() / "elsewhere"


def test_cpu_threads_auto_means_every_core(tmp_path: Path) -> None:
    path = write(tmp_path, '[runtime]\ncpu_threads = "auto"\n')
    assert load_settings(path, env={"KILN_CPU_THREADS": ""}).cpu_threads == (os.cpu_count() or 1)


# --- environment variables -------------------------------------------------------------------


def test_variables_override_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "[vm]\nfuel = 5000\nheap_words = 64\n")
    env = {
        "KILN_VM_FUEL": "7000",
        "KILN_VM_STACK_WORDS": "128",
        "KILN_VM_MAX_CALL_DEPTH": "20",
        "KILN_CACHE_DIR": str(tmp_path / "c"),
        "KILN_CPU_THREADS": "2",
    }
    settings = load_settings(path, env=env)
    assert settings.vm == Limits(fuel=7000, stack_words=128, max_call_depth=20, heap_words=64)
    assert settings.cache_dir == tmp_path / "c"
    assert settings.cpu_threads == 2


def test_empty_variable_counts_as_unset() -> None:
    assert load_settings(env={"KILN_VM_FUEL": "", "KILN_CONFIG": ""}) == Settings()


def test_os_environ_is_read_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KILN_VM_HEAP_WORDS", "4096")
    assert load_settings().vm.heap_words == 4096


@given(st.sampled_from(LIMIT_NAMES), st.data())
def test_any_valid_limit_passes_through_its_variable(name: str, data: st.DataObject) -> None:
    from vm.limits import MAX_STACK_WORDS

    largest = MAX_STACK_WORDS if name == "stack_words" else (1 << 62) - 1
    value = data.draw(st.integers(min_value=1, max_value=largest))
    assert getattr(load_settings(env={vm_variable(name): str(value)}).vm, name) == value


# --- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"KILN_VM_FUEL": "abc"}, "KILN_VM_FUEL='abc': not an integer"),
        ({"KILN_VM_HEAP_WORDS": "1.5"}, "KILN_VM_HEAP_WORDS='1.5': not an integer"),
        (
            {"KILN_VM_STACK_WORDS": "0"},
            "KILN_VM_STACK_WORDS='0': limit stack_words must be a positive integer, got 0",
        ),
        ({"KILN_VM_MAX_CALL_DEPTH": str(1 << 62)}, "KILN_VM_MAX_CALL_DEPTH="),
        (
            {"KILN_VM_STACK_WORDS": str((1 << 24) + 1)},
            "KILN_VM_STACK_WORDS='16777217': limit stack_words is too large: 16777217"
            " (at most 16777216)",
        ),
        ({"KILN_CPU_THREADS": "many"}, "KILN_CPU_THREADS='many': not an integer"),
        ({"KILN_CPU_THREADS": "0"}, "KILN_CPU_THREADS='0': must be at least 1"),
        ({"KILN_CACHE_DIR": "   "}, "KILN_CACHE_DIR='   ': not a path"),
        ({"KILN_VM_FULE": "1"}, "KILN_VM_FULE: unknown variable (kiln reads KILN_VM_FUEL,"),
        ({"KILN_CONFIG": "/nonexistent/kiln.toml"}, "/nonexistent/kiln.toml: no such settings"),
        # [farm]
        ({"KILN_FARM_WORKERS": "0"}, 'KILN_FARM_WORKERS=0: not a positive integer or "auto"'),
        ({"KILN_FARM_WORKERS": "two"}, "KILN_FARM_WORKERS='two': not an integer"),
        ({"KILN_FARM_BATCH_SIZE": "-5"}, "KILN_FARM_BATCH_SIZE=-5: not a positive integer"),
        ({"KILN_FARM_IN_FLIGHT": "auto"}, "KILN_FARM_IN_FLIGHT='auto': not an integer"),
        ({"KILN_FARM_INFLIGHT": "2"}, "KILN_FARM_INFLIGHT: unknown variable (kiln reads"),
        # [runtime] switches
        ({"KILN_SANDBOX": "loose"}, "KILN_SANDBOX='loose': choose auto or strict"),
        ({"KILN_TRACE": "2"}, "KILN_TRACE='2': not a switch"),
        ({"KILN_PREBUILT": "maybe"}, "KILN_PREBUILT='maybe': not a switch"),
        ({"KILN_PREPARED_CACHE": "-"}, "KILN_PREPARED_CACHE='-': not a switch"),
    ],
)
def test_bad_variable_is_named(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings(env=env)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[vm]\nfule = 1\n", "unknown key [vm] fule (known: fuel, stack_words,"),
        ("[runtime]\nthreads = 1\n", "unknown key [runtime] threads (known: cache_dir,"),
        ("[gpu]\nblocks = 1\n", "unknown table [gpu] (known: [vm], [runtime]"),
        ("vm = 3\n", "vm must be a table [vm], got 3"),
        ('[vm]\nfuel = "abc"\n', "[vm] fuel = 'abc': not an integer"),
        ("[vm]\nfuel = true\n", "[vm] fuel = True: not an integer"),
        ("[vm]\nfuel = 2.5\n", "[vm] fuel = 2.5: not an integer"),
        ("[vm]\nheap_words = -1\n", "[vm] heap_words = -1: limit heap_words must be a positive"),
        ("[runtime]\ncpu_threads = 0\n", "[runtime] cpu_threads = 0: must be at least 1"),
        ('[runtime]\ncpu_threads = "4"\n', "[runtime] cpu_threads = '4': not an integer or"),
        ("[runtime]\ncache_dir = 1\n", "[runtime] cache_dir = 1: not a path"),
        ("[vm\nfuel = 1\n", "not valid TOML"),
        # [farm]
        ("[farm]\nworkers = 0\n", '[farm] workers = 0: not a positive integer or "auto"'),
        ('[farm]\nin_flight = "auto"\n', "[farm] in_flight = 'auto': not a positive integer"),
        ("[farm]\nbatch_size = 2.5\n", "[farm] batch_size = 2.5: not a positive integer"),
        # [runtime] switches
        ('[runtime]\nsandbox = "off"\n', "[runtime] sandbox = 'off': choose auto or strict"),
        ("[runtime]\ntrace = 1\n", "[runtime] trace = 1: not a switch"),
        ('[runtime]\nprebuilt = "false"\n', "[runtime] prebuilt = 'false': not a switch"),
        ("[farm]\nray_address = 6379\n", "[farm] ray_address = 6379: not a string"),
        ('[farm]\naddress = "auto"\n', "unknown key [farm] address (known: ray_address,"),
    ],
)
def test_bad_file_names_the_file_and_the_key(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(SettingsError) as caught:
        load_settings(path, env={})
    assert str(caught.value).startswith(f"{path}: ")
    assert message in str(caught.value)


def test_the_clients_variables_are_not_unknown_settings() -> None:
    """`kiln submit` reads KILN_API_URL and KILN_API_TOKEN (api.commands); with them set, every
    `kiln` command still loads its settings (KILN_API_TOKENS is the server's)."""
    env = {"KILN_API_URL": "http://host:8000", "KILN_API_TOKEN": "secret"}
    assert load_settings(env=env) == load_settings(env={})
    with pytest.raises(SettingsError, match="KILN_API_TOKN: unknown variable"):
        load_settings(env={"KILN_API_TOKN": "secret"})


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="no such settings file"):
        load_settings(tmp_path / "absent.toml", env={})


def test_settings_reject_a_bad_thread_count() -> None:
    with pytest.raises(ValueError, match="cpu_threads must be a positive integer"):
        Settings(cpu_threads=0)


def test_the_pipelines_compiler_from_the_file_and_kiln_compiler(tmp_path: Path) -> None:
    assert load_settings(env={}).compiler == "batched"
    user = tmp_path / "kiln.toml"
    user.write_text('[runtime]\ncompiler = "reference"\n')
    assert load_settings(user, env={}).compiler == "reference"
    assert load_settings(user, env={"KILN_COMPILER": "batched"}).compiler == "batched"
    with pytest.raises(SettingsError, match="KILN_COMPILER='fast': choose batched or reference"):
        load_settings(env={"KILN_COMPILER": "fast"})
    user.write_text("[runtime]\ncompiler = 3\n")
    with pytest.raises(SettingsError, match=r"\[runtime\] compiler = 3: choose"):
        load_settings(user, env={})
    with pytest.raises(ValueError, match="compiler must be one of batched, reference"):
        Settings(compiler="fast")


# --- [runtime] switches: the fallback's sandbox, the prepared cache, cubins, the trace -------


def test_the_runtime_switches_from_the_file_and_their_variables(tmp_path: Path) -> None:
    assert load_settings(env={}) == Settings()
    defaults = Settings()
    assert (defaults.sandbox, defaults.prepared_cache, defaults.prebuilt, defaults.trace) == (
        "auto",
        True,
        True,
        False,
    )
    user = write(tmp_path, '[runtime]\nsandbox = "strict"\nprepared_cache = false\ntrace = true\n')
    settings = load_settings(user, env={})
    assert (settings.sandbox, settings.prepared_cache, settings.prebuilt, settings.trace) == (
        "strict",
        False,
        True,
        True,
    )
    env = {"KILN_SANDBOX": "auto", "KILN_PREPARED_CACHE": "1", "KILN_PREBUILT": "0"}
    settings = load_settings(user, env={**env, "KILN_TRACE": "off"})
    assert (settings.sandbox, settings.prepared_cache, settings.prebuilt, settings.trace) == (
        "auto",
        True,
        False,
        False,
    )
    for word, value in [("yes", True), ("TRUE", True), ("no", False), ("false", False)]:
        assert load_settings(env={"KILN_TRACE": word}).trace is value
