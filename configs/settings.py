"""kiln's settings: one typed object, loaded from TOML files and `KILN_*` environment variables.

`load_settings()` builds a `Settings` from three layers, each overriding the one before:

1. `configs/kiln.toml`, packaged with kiln: every key at its default;
2. a user file with any of the same keys: the `path` argument, else the file `KILN_CONFIG` names;
3. environment variables: `KILN_VM_<LIMIT>` for each field of `vm.limits.Limits`
   (`KILN_VM_FUEL`, `KILN_VM_STACK_WORDS`, `KILN_VM_MAX_CALL_DEPTH`, `KILN_VM_HEAP_WORDS`),
   `KILN_CACHE_DIR`, `KILN_CPU_THREADS`, `KILN_COMPILER` and the switches `KILN_SANDBOX`,
   `KILN_PREPARED_CACHE`, `KILN_PREBUILT`, `KILN_TRACE`. A variable set to the empty string
   counts as unset.

A file has the tables `[vm]` (one key per field of `Limits`), `[runtime]` (`cache_dir`,
`cpu_threads`, `compiler`, `sandbox`, `prepared_cache`, `prebuilt`, `trace`), `[api]` and
`[farm]`. An unknown table, key or `KILN_VM_*` variable is an error rather than something
silently ignored, since it is most likely a typo. Every error is a `SettingsError` whose message
starts with where the value came from: `KILN_VM_FUEL='abc': not an integer`, or
`/home/me/kiln.toml: unknown key [vm] fule (known: fuel, stack_words, ...)`.

The loader is written out here rather than built on pydantic-settings: that costs every `kiln`
command about 0.3 s of start-up (importing pydantic and pydantic-settings, building the schemas:
measured on this project's 2-core machine) and is not on the GPU machines' images.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, TypeGuard

from vm.build import CACHE_DIR_VARIABLE, DEFAULT_CACHE_DIR
from vm.limits import Limits

PACKAGED_FILE = Path(__file__).with_name("kiln.toml")
CONFIG_VARIABLE = "KILN_CONFIG"
VM_VARIABLE_PREFIX = "KILN_VM_"
CPU_THREADS_VARIABLE = "KILN_CPU_THREADS"
COMPILER_VARIABLE = "KILN_COMPILER"
COMPILERS = ("batched", "reference")
SANDBOXES = ("auto", "strict")
SWITCH_VARIABLES = {
    "sandbox": "KILN_SANDBOX",
    "prepared_cache": "KILN_PREPARED_CACHE",
    "prebuilt": "KILN_PREBUILT",
    "trace": "KILN_TRACE",
}
"""[runtime]'s switches and the variables that set them."""
SWITCH_WORDS = {"1": True, "true": True, "yes": True, "on": True}
SWITCH_WORDS |= {"0": False, "false": False, "no": False, "off": False}
AUTO = "auto"
"""The value of `cpu_threads` that means every core of the machine."""

LIMIT_NAMES = tuple(f.name for f in fields(Limits))
RUNTIME_KEYS = ("cache_dir", "cpu_threads", "compiler", *SWITCH_VARIABLES)
API_VARIABLE_PREFIX = "KILN_API_"
API_CLIENT_VARIABLES = ("KILN_API_URL", "KILN_API_TOKEN")
"""The client's (`kiln submit`, api.commands), not the service's: not settings, not unknown."""
RAY_ADDRESS_VARIABLE = "KILN_RAY_ADDRESS"
FARM_VARIABLE_PREFIX = "KILN_FARM_"
FARM_KEYS = ("ray_address", "workers", "batch_size", "in_flight")


class SettingsError(ValueError):
    """A setting with a bad value or an unknown name; the message says where it came from."""


def default_cache_dir() -> Path:
    return Path(DEFAULT_CACHE_DIR).expanduser()


def all_cores() -> int:
    return os.cpu_count() or 1


@dataclass(frozen=True)
class ApiSettings:
    """The REST service (api/): its job store, tokens and limits. Table [api]; KILN_API_<KEY>."""

    database: str = "~/.cache/kiln/jobs.sqlite"
    """A SQLite file, or a SQLAlchemy URL (postgresql+psycopg://...) shared by several replicas."""
    tokens: tuple[str, ...] = ()
    """Bearer tokens accepted (KILN_API_TOKENS: comma-separated); `kiln serve` makes one if none."""
    max_jobs_in_flight: int = 8
    """Unfinished jobs one token may have (429 past it)."""
    max_candidates_per_job: int = 10_000
    max_candidates_in_flight: int = 100_000
    """Candidates of one token's unfinished jobs, this one included (429 past it)."""
    max_tests: int = 1_000
    max_source_bytes: int = 65_536
    max_body_bytes: int = 16 * 1024 * 1024
    max_json_depth: int = 100
    """Arrays and objects nested in a JSON body (422 past it): values nest at most
    vm.limits.MAX_TYPE_DEPTH (64) inside a request's few levels of its own."""
    max_fuel: int = 1_000_000_000
    max_job_fuel: int = 10_000_000_000_000
    """The most instructions one job may run: the fuel of each test (its own, else options.fuel,
    else [vm] fuel) summed over candidates x tests, twice with options.detail (413 past it).
    1e13 is about three hours of one CPU core, under two minutes of one H100."""
    max_detail_items: int = 100_000
    """Candidates x tests of a job that asks for per-test detail (options.detail; 413 past it):
    what it stores is about 100 bytes per item."""
    """The largest fuel a request may ask for (per job, per test, or for /v1/run)."""
    retention_s: int = 7 * 24 * 3600
    """How long a finished job and its results are kept before they are pruned."""
    lease_s: int = 30
    """How long a replica's claim on a running job lasts unrenewed; then another resumes it."""
    executor: str = "farm"
    """What runs jobs: "farm" (the Ray farm of cluster/) or "thread" (a Pipeline, no Ray)."""
    farm_workers: int = 0
    """Workers of the embedded farm; 0: the farm's own default ([farm] workers)."""

    def __post_init__(self) -> None:
        for name in API_INT_KEYS:
            value = getattr(self, name)
            if not _is_int(value) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if self.executor not in API_EXECUTORS:
            known = ", ".join(API_EXECUTORS)
            raise ValueError(f"executor must be one of {known}, got {self.executor!r}")
        if not _is_int(self.farm_workers) or self.farm_workers < 0:
            raise ValueError(f"farm_workers must be 0 or more, got {self.farm_workers!r}")


API_INT_KEYS = (
    "max_jobs_in_flight",
    "max_candidates_per_job",
    "max_candidates_in_flight",
    "max_tests",
    "max_source_bytes",
    "max_body_bytes",
    "max_json_depth",
    "max_fuel",
    "max_job_fuel",
    "max_detail_items",
    "retention_s",
    "lease_s",
)
API_EXECUTORS = ("farm", "thread")
API_KEYS = ("database", "tokens", *API_INT_KEYS, "executor", "farm_workers")


@dataclass(frozen=True)
class FarmSettings:
    """The Ray farm (cluster/). Table [farm]; KILN_RAY_ADDRESS and KILN_FARM_<KEY>."""

    ray_address: str = ""
    """The Ray cluster to join ("auto", "host:6379", "ray://host:10001"); empty: kiln starts an
    embedded local cluster."""
    workers: int | None = None
    """CPU worker actors where the cluster has no GPU; None ("auto"): one per core. With GPUs
    there is always one actor per GPU."""
    batch_size: int | None = None
    """Candidates per batch; None ("auto"): sized by the scheduler's cost model."""
    in_flight: int = 2
    """Batches sent to one worker and not yet back (backpressure)."""

    def __post_init__(self) -> None:
        for name in ("workers", "batch_size"):
            value = getattr(self, name)
            if value is not None and (not _is_int(value) or value < 1):
                raise ValueError(f"{name} must be a positive integer or None, got {value!r}")
        if not _is_int(self.in_flight) or self.in_flight < 1:
            raise ValueError(f"in_flight must be a positive integer, got {self.in_flight!r}")


@dataclass(frozen=True)
class Settings:
    vm: Limits = field(default_factory=Limits)
    """Limits of one execution, the same on every backend."""
    cache_dir: Path = field(default_factory=default_cache_dir)
    """Where the CPU backend caches the C libraries it compiles."""
    cpu_threads: int = field(default_factory=all_cores)
    """Threads the CPU backend may use."""
    compiler: str = "batched"
    """The Pipeline's compiler: "batched" (the C compiler where it covers a program, the
    reference compiler for the rest) or "reference" (compiler.compile_source for all)."""
    sandbox: str = "auto"
    """The CPython fallback's sandbox: "auto" runs with the layers this machine has (and says
    which are missing), "strict" makes a missing layer an error (evaluation.fallback)."""
    prepared_cache: bool = True
    """Whether `kiln eval` keeps prepared problems on disk (evaluation.prepcache)."""
    prebuilt: bool = True
    """Whether the CUDA backends load the shipped cubins; false: NVRTC compiles (vm.prebuilt)."""
    trace: bool = False
    """The reference VM prints every instruction to stderr (vm.ref; `KILN_TRACE=1 kiln run`)."""
    api: ApiSettings = field(default_factory=ApiSettings)
    """The REST service."""
    farm: FarmSettings = field(default_factory=FarmSettings)
    """The Ray farm."""

    def __post_init__(self) -> None:
        if not _is_int(self.cpu_threads) or self.cpu_threads < 1:
            raise ValueError(f"cpu_threads must be a positive integer, got {self.cpu_threads!r}")
        if self.compiler not in COMPILERS:
            known = ", ".join(COMPILERS)
            raise ValueError(f"compiler must be one of {known}, got {self.compiler!r}")
        if self.sandbox not in SANDBOXES:
            raise ValueError(f"sandbox must be auto or strict, got {self.sandbox!r}")


def apply(settings: Settings) -> tuple[Any, ...]:
    """Pass the settings the layers below use where they run down to them: the C VM's build
    cache folder (`vm.build.use_cache_dir`), its default thread count
    (`vm.cpu.use_default_threads`), whether the CUDA backends load shipped cubins
    (`vm.prebuilt.use_prebuilt`) and the reference VM's trace (`vm.ref.use_trace`). Returns
    what was set before (`restore`). kiln's edges load the settings once and pass them down so:
    the `kiln` command (api.cli) and the API's application (api.main, for its lifetime) with
    `applied`, a farm worker's process (actors.worker) for its life."""
    values = (settings.cache_dir, settings.cpu_threads, settings.prebuilt, settings.trace)
    return tuple(use(value) for use, value in zip(_uses(), values, strict=True))


def restore(previous: tuple[Any, ...]) -> None:
    """Undo `apply`: what it returned is set again."""
    for use, value in zip(_uses(), previous, strict=True):
        use(value)


def _uses() -> tuple[Callable[[Any], Any], ...]:
    from vm import build, cpu, prebuilt, ref

    return build.use_cache_dir, cpu.use_default_threads, prebuilt.use_prebuilt, ref.use_trace


@contextmanager
def applied(settings: Settings) -> Iterator[Settings]:
    """`apply(settings)` for the duration of the block."""
    previous = apply(settings)
    try:
        yield settings
    finally:
        restore(previous)


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

    known_tables = {"vm": LIMIT_NAMES, "runtime": RUNTIME_KEYS, "api": API_KEYS, "farm": FARM_KEYS}
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
    compiler = settings.compiler
    if "compiler" in runtime:
        value = runtime["compiler"]
        compiler = _compiler(value, f"{path}: [runtime] compiler = {value!r}")
    switches = {
        key: _switch(key, runtime[key], f"{path}: [runtime] {key} = {runtime[key]!r}")
        for key in SWITCH_VARIABLES
        if key in runtime
    }
    api = _api_settings(
        settings.api, data.get("api", {}), lambda key, value: f"{path}: [api] {key} = {value!r}"
    )
    farm = _farm_settings(
        settings.farm, data.get("farm", {}), lambda k, v: f"{path}: [farm] {k} = {v!r}"
    )
    return replace(
        settings, vm=limits, cache_dir=cache_dir, cpu_threads=cpu_threads, compiler=compiler,
        api=api, farm=farm, **switches,
    )  # fmt: skip


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
    compiler = settings.compiler
    raw = env.get(COMPILER_VARIABLE, "")
    if raw:
        compiler = _compiler(raw.strip(), f"{COMPILER_VARIABLE}={raw!r}")
    api_variables = {API_VARIABLE_PREFIX + key.upper(): key for key in API_KEYS}
    for name in sorted(env):
        if (
            name.startswith(API_VARIABLE_PREFIX)
            and name not in api_variables
            and name not in API_CLIENT_VARIABLES
        ):
            raise SettingsError(f"{name}: unknown variable (kiln reads {', '.join(api_variables)})")
    api_values: dict[str, object] = {}
    for name, key in api_variables.items():
        raw = env.get(name, "")
        if raw:
            if key == "tokens":
                api_values[key] = [t.strip() for t in raw.split(",") if t.strip()]
            elif key in (*API_INT_KEYS, "farm_workers"):
                api_values[key] = _parse_int(raw, f"{name}={raw!r}")
            else:
                api_values[key] = raw
    api = _api_settings(
        settings.api, api_values, lambda key, value: f"{API_VARIABLE_PREFIX}{key.upper()}={value!r}"
    )
    farm = _farm_settings(settings.farm, *_farm_variables(env))
    switches = {
        key: _switch(key, env[name].strip().lower(), f"{name}={env[name]!r}", words=True)
        for key, name in SWITCH_VARIABLES.items()
        if env.get(name, "")
    }
    return replace(
        settings, vm=limits, cache_dir=cache_dir, cpu_threads=cpu_threads, compiler=compiler,
        api=api, farm=farm, **switches,
    )  # fmt: skip


def _switch(key: str, value: object, where: str, words: bool = False) -> Any:
    """A [runtime] switch's value: sandbox is auto or strict; the others are booleans in a
    file and 1/0, true/false, yes/no or on/off in a variable (`words`: `value` lower-cased)."""
    if key == "sandbox":
        if value not in SANDBOXES:
            raise SettingsError(f"{where}: choose auto or strict")
        return value
    if isinstance(value, bool):
        return value
    if words and isinstance(value, str) and value in SWITCH_WORDS:
        return SWITCH_WORDS[value]
    raise SettingsError(f"{where}: not a switch (true or false; in a variable also 1 or 0)")


def _compiler(value: object, where: str) -> str:
    if value not in COMPILERS:
        raise SettingsError(f"{where}: choose {' or '.join(COMPILERS)}")
    return str(value)


def farm_variable(key: str) -> str:
    """The environment variable of one [farm] key: ray_address -> KILN_RAY_ADDRESS,
    workers -> KILN_FARM_WORKERS."""
    return RAY_ADDRESS_VARIABLE if key == "ray_address" else FARM_VARIABLE_PREFIX + key.upper()


def _farm_variables(
    env: Mapping[str, str],
) -> tuple[dict[str, object], Callable[[str, object], str]]:
    variables = {farm_variable(key): key for key in FARM_KEYS}
    for name in sorted(env):
        if name.startswith(FARM_VARIABLE_PREFIX) and name not in variables:
            raise SettingsError(f"{name}: unknown variable (kiln reads {', '.join(variables)})")
    values: dict[str, object] = {}
    for name, key in variables.items():
        raw = env.get(name, "")
        if not raw.strip():
            continue
        if key == "ray_address":
            values[key] = raw.strip()
        elif raw.strip() == AUTO and key != "in_flight":
            values[key] = AUTO
        else:
            values[key] = _parse_int(raw, f"{name}={raw!r}")
    return values, lambda key, value: f"{farm_variable(key)}={value!r}"


def _farm_settings(
    farm: FarmSettings, values: Mapping[str, object], where: Callable[[str, object], str]
) -> FarmSettings:
    changes: dict[str, object] = {}
    for key, value in values.items():
        if key == "ray_address":
            if not isinstance(value, str):
                raise SettingsError(f"{where(key, value)}: not a string")
            changes[key] = value.strip()
        elif key in ("workers", "batch_size") and value == AUTO:
            changes[key] = None
        elif not _is_int(value) or value < 1:
            auto = "" if key == "in_flight" else f' or "{AUTO}"'
            raise SettingsError(f"{where(key, value)}: not a positive integer{auto}")
        else:
            changes[key] = value
    return replace(farm, **changes) if changes else farm  # type: ignore[arg-type]


def _api_settings(
    api: ApiSettings, values: Mapping[str, object], where: Callable[[str, object], str]
) -> ApiSettings:
    changes: dict[str, object] = {}
    for key, value in values.items():
        if key == "tokens":
            if not isinstance(value, list) or not all(isinstance(t, str) and t for t in value):
                raise SettingsError(f"{where(key, value)}: not a list of non-empty strings")
            changes[key] = tuple(value)
        elif key == "database":
            if not isinstance(value, str) or not value.strip():
                raise SettingsError(f"{where(key, value)}: not a path or URL (a non-empty string)")
            changes[key] = value
        elif key == "executor":
            if value not in API_EXECUTORS:
                raise SettingsError(f"{where(key, value)}: not one of {', '.join(API_EXECUTORS)}")
            changes[key] = value
        elif key == "farm_workers":
            if not _is_int(value) or value < 0:
                raise SettingsError(f"{where(key, value)}: not an integer of 0 or more")
            changes[key] = value
        else:
            if not _is_int(value) or value < 1:
                raise SettingsError(f"{where(key, value)}: not a positive integer")
            changes[key] = value
    return replace(api, **changes) if changes else api  # type: ignore[arg-type]


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
