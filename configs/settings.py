"""kiln's settings: one typed object, loaded from TOML files and `KILN_*` environment variables.

`load_settings()` builds a `Settings` from three layers, each overriding the one before:

1. `configs/kiln.toml`, packaged with kiln: every key at its default;
2. a user file with any of the same keys: the `path` argument, else the file `KILN_CONFIG` names;
3. environment variables: `KILN_VM_<LIMIT>` for each field of `vm.limits.Limits`
   (`KILN_VM_FUEL`, `KILN_VM_STACK_WORDS`, `KILN_VM_MAX_CALL_DEPTH`, `KILN_VM_HEAP_WORDS`),
   `KILN_CACHE_DIR` and `KILN_CPU_THREADS`. A variable set to the empty string counts as unset.

A file is two tables, `[vm]` (one key per field of `Limits`) and `[runtime]` (`cache_dir`,
`cpu_threads`). An unknown table, key or `KILN_VM_*` variable is an error rather than something
silently ignored, since it is most likely a typo. Every error is a `SettingsError` whose message
starts with where the value came from: `KILN_VM_FUEL='abc': not an integer`, or
`/home/me/kiln.toml: unknown key [vm] fule (known: fuel, stack_words, ...)`.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TypeGuard

from vm.limits import Limits

PACKAGED_FILE = Path(__file__).with_name("kiln.toml")
CONFIG_VARIABLE = "KILN_CONFIG"
VM_VARIABLE_PREFIX = "KILN_VM_"
CACHE_DIR_VARIABLE = "KILN_CACHE_DIR"
CPU_THREADS_VARIABLE = "KILN_CPU_THREADS"
AUTO = "auto"
"""The value of `cpu_threads` that means every core of the machine."""

LIMIT_NAMES = tuple(f.name for f in fields(Limits))
RUNTIME_KEYS = ("cache_dir", "cpu_threads")


class SettingsError(ValueError):
    """A setting with a bad value or an unknown name; the message says where it came from."""


def default_cache_dir() -> Path:
    return Path("~/.cache/kiln").expanduser()


def all_cores() -> int:
    return os.cpu_count() or 1


@dataclass(frozen=True)
class Settings:
    vm: Limits = field(default_factory=Limits)
    """Limits of one execution, the same on every backend."""
    cache_dir: Path = field(default_factory=default_cache_dir)
    """Where the CPU backend caches the C libraries it compiles."""
    cpu_threads: int = field(default_factory=all_cores)
    """Threads the CPU backend may use."""

    def __post_init__(self) -> None:
        if not _is_int(self.cpu_threads) or self.cpu_threads < 1:
            raise ValueError(f"cpu_threads must be a positive integer, got {self.cpu_threads!r}")


def vm_variable(limit: str) -> str:
    """The environment variable that overrides one field of `Limits`: fuel -> KILN_VM_FUEL."""
    return VM_VARIABLE_PREFIX + limit.upper()


def load_settings(path: Path | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """The settings in force: packaged defaults, then the user file, then `KILN_*` variables.

    `path` is the user file (it wins over `KILN_CONFIG`); `env` defaults to `os.environ`.
    """
    env = os.environ if env is None else env
    settings = _apply_file(Settings(), PACKAGED_FILE)
    user_file = path if path is not None else _variable_path(env, CONFIG_VARIABLE)
    if user_file is not None:
        settings = _apply_file(settings, user_file)
    return _apply_env(settings, env)


def _apply_file(settings: Settings, path: Path) -> Settings:
    try:
        with open(path, "rb") as file:
            data = tomllib.load(file)
    except FileNotFoundError:
        raise SettingsError(f"{path}: no such settings file") from None
    except tomllib.TOMLDecodeError as error:
        raise SettingsError(f"{path}: not valid TOML: {error}") from None
    except OSError as error:
        raise SettingsError(f"{path}: cannot read the settings file: {error.strerror}") from None

    known_tables = {"vm": LIMIT_NAMES, "runtime": RUNTIME_KEYS}
    for table, entries in data.items():
        if table not in known_tables:
            known = ", ".join(f"[{name}]" for name in known_tables)
            raise SettingsError(f"{path}: unknown table [{table}] (known: {known})")
        if not isinstance(entries, dict):
            raise SettingsError(f"{path}: {table} must be a table [{table}], got {entries!r}")
        for key in entries:
            if key not in known_tables[table]:
                known = ", ".join(known_tables[table])
                raise SettingsError(f"{path}: unknown key [{table}] {key} (known: {known})")

    limits = settings.vm
    for key, value in data.get("vm", {}).items():
        where = f"{path}: [vm] {key} = {value!r}"
        if not _is_int(value):
            raise SettingsError(f"{where}: not an integer")
        limits = _with_limit(limits, key, value, where)

    runtime = data.get("runtime", {})
    cache_dir = settings.cache_dir
    if "cache_dir" in runtime:
        value = runtime["cache_dir"]
        cache_dir = _cache_dir(value, f"{path}: [runtime] cache_dir = {value!r}", path.parent)
    cpu_threads = settings.cpu_threads
    if "cpu_threads" in runtime:
        value = runtime["cpu_threads"]
        cpu_threads = _cpu_threads(value, f"{path}: [runtime] cpu_threads = {value!r}")
    return Settings(vm=limits, cache_dir=cache_dir, cpu_threads=cpu_threads)


def _apply_env(settings: Settings, env: Mapping[str, str]) -> Settings:
    known_vm_variables = {vm_variable(name): name for name in LIMIT_NAMES}
    for name in sorted(env):
        if name.startswith(VM_VARIABLE_PREFIX) and name not in known_vm_variables:
            known = ", ".join(known_vm_variables)
            raise SettingsError(f"{name}: unknown variable (kiln reads {known})")

    limits = settings.vm
    for name, limit in known_vm_variables.items():
        raw = env.get(name, "")
        if raw:
            where = f"{name}={raw!r}"
            limits = _with_limit(limits, limit, _parse_int(raw, where), where)

    cache_dir = settings.cache_dir
    raw = env.get(CACHE_DIR_VARIABLE, "")
    if raw:
        cache_dir = _cache_dir(raw, f"{CACHE_DIR_VARIABLE}={raw!r}", Path.cwd())
    cpu_threads = settings.cpu_threads
    raw = env.get(CPU_THREADS_VARIABLE, "")
    if raw:
        where = f"{CPU_THREADS_VARIABLE}={raw!r}"
        value = AUTO if raw.strip() == AUTO else _parse_int(raw, where)
        cpu_threads = _cpu_threads(value, where)
    return Settings(vm=limits, cache_dir=cache_dir, cpu_threads=cpu_threads)


def _variable_path(env: Mapping[str, str], name: str) -> Path | None:
    raw = env.get(name, "")
    return Path(raw).expanduser() if raw else None


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_int(raw: str, where: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise SettingsError(f"{where}: not an integer") from None


def _with_limit(limits: Limits, name: str, value: int, where: str) -> Limits:
    try:
        return limits.replace(**{name: value})
    except ValueError as error:  # Limits says what is wrong with the value; we say where it is
        raise SettingsError(f"{where}: {error}") from None


def _cache_dir(value: object, where: str, relative_to: Path) -> Path:
    if not isinstance(value, str) or not value.strip():
        raise SettingsError(f"{where}: not a path (a non-empty string)")
    directory = Path(value).expanduser()
    return directory if directory.is_absolute() else relative_to.absolute() / directory


def _cpu_threads(value: object, where: str) -> int:
    if value == AUTO:
        return all_cores()
    if not _is_int(value):
        raise SettingsError(f'{where}: not an integer or "{AUTO}"')
    if value < 1:
        raise SettingsError(f"{where}: must be at least 1")
    return value
