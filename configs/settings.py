"""kiln's settings: one typed object, loaded from TOML files and `KILN_*` environment variables.

`load_settings()` builds a `Settings` from three layers, each overriding the one before:

1. `configs/kiln.toml`, packaged with kiln: every key at its default;
2. a user file with any of the same keys: the `path` argument, else the file `KILN_CONFIG` names;
3. environment variables: `KILN_VM_<KEY>` for [vm] (`KILN_VM_FUEL`, ...), `KILN_<KEY>` for
   [runtime] (`KILN_CACHE_DIR`, `KILN_CPU_THREADS`, `KILN_COMPILER`, `KILN_SANDBOX`,
   `KILN_PREPARED_CACHE`, `KILN_PREBUILT`, `KILN_TRACE`), `KILN_API_<KEY>` for [api],
   `KILN_FARM_<KEY>` and `KILN_RAY_ADDRESS` for [farm]. A variable set to the empty string counts
   as unset.

The types below are pydantic dataclasses: their fields, defaults and validators are the schema of
the files and of the variables (pydantic-settings' environment source reads the variables into
the tables). An unknown table, key or `KILN_VM_*`/`KILN_API_*`/`KILN_FARM_*` variable is an error
rather than something silently ignored, since it is most likely a typo. Every error is a
`SettingsError` whose message starts with where the value came from: `KILN_VM_FUEL='abc': not an
integer`, or `/home/me/kiln.toml: unknown key [vm] fule (known: fuel, stack_words, ...)`.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, field, fields, make_dataclass
from pathlib import Path
from typing import Annotated, Any, TypeGuard, get_type_hints

from pydantic import BeforeValidator, ConfigDict, ValidationError
from pydantic.dataclasses import dataclass
from pydantic_settings import BaseSettings, EnvSettingsSource, NoDecode, SettingsConfigDict

from vm.build import DEFAULT_CACHE_DIR
from vm.limits import Limits

PACKAGED_FILE = Path(__file__).with_name("kiln.toml")
CONFIG_VARIABLE = "KILN_CONFIG"
COMPILERS = ("batched", "reference")
SANDBOXES = ("auto", "strict")
AUTO = "auto"
"""The value of `cpu_threads` that means every core of the machine."""
API_CLIENT_VARIABLES = ("KILN_API_URL", "KILN_API_TOKEN")
"""The client's (`kiln submit`, api.commands), not the service's: not settings, not unknown."""
RAY_ADDRESS_VARIABLE = "KILN_RAY_ADDRESS"
API_EXECUTORS = ("farm", "thread")
_TABLE = ConfigDict(extra="forbid")


class SettingsError(ValueError):
    """A setting with a bad value or an unknown name; the message says where it came from."""


class _Variable(str):
    """A value read from an environment variable: text that a number or switch is parsed from
    (a file's values come typed, and a file's "4" is not a number)."""


def default_cache_dir() -> Path:
    return Path(DEFAULT_CACHE_DIR).expanduser()


def all_cores() -> int:
    return os.cpu_count() or 1


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: object) -> object:
    """A variable's text as the integer it spells (a file's value as it is)."""
    if isinstance(value, _Variable):
        try:
            return int(value)
        except ValueError:
            raise ValueError("not an integer") from None
    return value


def _checked(
    check: Callable[[Any], object], why: str, convert: Callable[[Any], Any] = _number
) -> BeforeValidator:
    def validate(value: object) -> object:
        value = convert(value)
        if not check(value):
            raise ValueError(why)
        return value

    return BeforeValidator(validate)


def _text(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _strip(value: object) -> object:
    return value.strip() if isinstance(value, str) else value


def _one_of(choices: tuple[str, ...], why: str) -> BeforeValidator:
    return _checked(lambda v: v in choices, why, _strip)


def _threads(value: object) -> object:
    if _strip(value) == AUTO:
        return all_cores()
    value = _number(value)
    if not _is_int(value):
        raise ValueError(f'not an integer or "{AUTO}"')
    if value < 1:
        raise ValueError("must be at least 1")
    return value


def _folder(value: object) -> Path:
    if not isinstance(value, Path) and not _text(value):
        raise ValueError("not a path (a non-empty string)")
    return Path(value).expanduser()


def _tokens(value: object) -> object:
    if isinstance(value, _Variable):
        value = [t.strip() for t in value.split(",") if t.strip()]
    if not isinstance(value, list | tuple) or not all(isinstance(t, str) and t for t in value):
        raise ValueError("not a list of non-empty strings")
    return tuple(value)


_SWITCHES = dict.fromkeys(("1", "true", "yes", "on"), True) | dict.fromkeys(
    ("0", "false", "no", "off"), False
)


def _switch(value: object) -> object:
    if isinstance(value, _Variable):
        value = _SWITCHES.get(value.strip().lower(), value)
    if not isinstance(value, bool):
        raise ValueError("not a switch (true or false; in a variable 1 or 0)")
    return value


Positive = Annotated[int, _checked(lambda v: _is_int(v) and v > 0, "not a positive integer")]
AutoPositive = Annotated[
    int | None,
    _checked(
        lambda v: v is None or (_is_int(v) and v > 0),
        f'not a positive integer or "{AUTO}"',
        lambda v: None if isinstance(v, str) and v.strip() == AUTO else _number(v),
    ),
]
Switch = Annotated[bool, BeforeValidator(_switch)]


@dataclass(frozen=True, config=_TABLE)
class ApiSettings:
    """The REST service (api/): its job store, tokens and limits. Table [api]; KILN_API_<KEY>."""

    database: Annotated[str, _checked(_text, "not a path or URL (a non-empty string)", str)] = (
        "~/.cache/kiln/jobs.sqlite"
    )
    """A SQLite file, or a SQLAlchemy URL (postgresql+psycopg://...) shared by several replicas."""
    tokens: Annotated[tuple[str, ...], NoDecode, BeforeValidator(_tokens)] = ()
    """Bearer tokens accepted (KILN_API_TOKENS: comma-separated); `kiln serve` makes one if none."""
    max_jobs_in_flight: Positive = 8
    """Unfinished jobs one token may have (429 past it)."""
    max_candidates_per_job: Positive = 10_000
    max_candidates_in_flight: Positive = 100_000
    """Candidates of one token's unfinished jobs, this one included (429 past it)."""
    max_tests: Positive = 1_000
    max_source_bytes: Positive = 65_536
    max_body_bytes: Positive = 16 * 1024 * 1024
    max_json_depth: Positive = 100
    """Arrays and objects nested in a JSON body (422 past it): values nest at most
    vm.limits.MAX_TYPE_DEPTH (64) inside a request's few levels of its own."""
    max_fuel: Positive = 1_000_000_000
    """The largest fuel a request may ask for (per job, per test, or for /v1/run)."""
    max_job_fuel: Positive = 10_000_000_000_000
    """The most instructions one job may run: the fuel of each test (its own, else options.fuel,
    else [vm] fuel) summed over candidates x tests, twice with options.detail (413 past it).
    1e13 is about three hours of one CPU core, under two minutes of one H100."""
    max_detail_items: Positive = 100_000
    """Candidates x tests of a job that asks for per-test detail (options.detail; 413 past it):
    what it stores is about 100 bytes per item."""
    retention_s: Positive = 7 * 24 * 3600
    """How long a finished job and its results are kept before they are pruned."""
    lease_s: Positive = 30
    """How long a replica's claim on a running job lasts unrenewed; then another resumes it."""
    executor: Annotated[str, _one_of(API_EXECUTORS, "not one of farm, thread")] = "farm"
    """What runs jobs: "farm" (the Ray farm of cluster/) or "thread" (a Pipeline, no Ray)."""
    farm_workers: Annotated[
        int, _checked(lambda v: _is_int(v) and v >= 0, "not an integer of 0 or more")
    ] = 0
    """Workers of the embedded farm; 0: the farm's own default ([farm] workers)."""


@dataclass(frozen=True, config=_TABLE)
class FarmSettings:
    """The Ray farm (cluster/). Table [farm]; KILN_RAY_ADDRESS and KILN_FARM_<KEY>."""

    ray_address: Annotated[
        str, _checked(lambda v: isinstance(v, str), "not a string", lambda v: _strip(v))
    ] = ""
    """The Ray cluster to join ("auto", "host:6379", "ray://host:10001"); empty: kiln starts an
    embedded local cluster."""
    workers: AutoPositive = None
    """CPU worker actors where the cluster has no GPU; None ("auto"): one per core. With GPUs
    there is always one actor per GPU."""
    batch_size: AutoPositive = None
    """Candidates per batch; None ("auto"): sized by the scheduler's cost model."""
    in_flight: Positive = 2
    """Batches sent to one worker and not yet back (backpressure)."""


@dataclass(frozen=True, config=_TABLE)
class Settings:
    vm: Limits = field(default_factory=Limits)
    """Limits of one execution, the same on every backend."""
    cache_dir: Annotated[Path, BeforeValidator(_folder)] = field(default_factory=default_cache_dir)
    """Where the CPU backend caches the C libraries it compiles."""
    cpu_threads: Annotated[int, BeforeValidator(_threads)] = field(default_factory=all_cores)
    """Threads the CPU backend may use."""
    compiler: Annotated[str, _one_of(COMPILERS, "choose batched or reference")] = "batched"
    """The Pipeline's compiler: "batched" (the C compiler where it covers a program, the
    reference compiler for the rest) or "reference" (compiler.compile_source for all)."""
    sandbox: Annotated[str, _one_of(SANDBOXES, "choose auto or strict")] = "auto"
    """The CPython fallback's sandbox: "auto" runs with the layers this machine has (and says
    which are missing), "strict" makes a missing layer an error (evaluation.fallback)."""
    prepared_cache: Switch = True
    """Whether `kiln eval` keeps prepared problems on disk (evaluation.prepcache)."""
    prebuilt: Switch = True
    """Whether the CUDA backends load the shipped cubins; false: NVRTC compiles (vm.prebuilt)."""
    trace: Switch = False
    """The reference VM prints every instruction to stderr (vm.ref; `KILN_TRACE=1 kiln run`)."""
    api: ApiSettings = field(default_factory=ApiSettings)
    """The REST service."""
    farm: FarmSettings = field(default_factory=FarmSettings)
    """The Ray farm."""


LIMIT_NAMES = tuple(f.name for f in fields(Limits))
RUNTIME_KEYS = tuple(f.name for f in fields(Settings) if f.name not in ("vm", "api", "farm"))
API_KEYS = tuple(f.name for f in fields(ApiSettings))
FARM_KEYS = tuple(f.name for f in fields(FarmSettings))


def _limit(name: str) -> BeforeValidator:
    def validate(value: object) -> object:
        value = _number(value)
        if not _is_int(value):
            raise ValueError("not an integer")
        Limits().replace(**{name: value})  # Limits says what is wrong with the value
        return value

    return BeforeValidator(validate)


def _table(name: str, hints: Mapping[str, Any]) -> type:
    return dataclass(make_dataclass(name, list(hints.items())), config=_TABLE)


_Vm = _table("Vm", {n: Annotated[int, _limit(n)] for n in LIMIT_NAMES})
_Runtime = _table(
    "Runtime", {k: get_type_hints(Settings, include_extras=True)[k] for k in RUNTIME_KEYS}
)


class _Tables(BaseSettings):
    """The tables of a settings file (the packaged one has every key), and what pydantic-settings
    reads from the environment."""

    model_config = SettingsConfigDict(
        extra="forbid", env_prefix="KILN_", env_nested_delimiter="_", env_nested_max_split=1
    )
    vm: _Vm  # type: ignore[valid-type]
    runtime: _Runtime  # type: ignore[valid-type]
    api: ApiSettings
    farm: FarmSettings


KNOWN_KEYS = {"vm": LIMIT_NAMES, "runtime": RUNTIME_KEYS, "api": API_KEYS, "farm": FARM_KEYS}


def variable(table: str, key: str) -> str:
    """The environment variable of a key: ("vm", "fuel") -> KILN_VM_FUEL, ("runtime", "trace")
    -> KILN_TRACE, ("farm", "ray_address") -> KILN_RAY_ADDRESS."""
    if (table, key) == ("farm", "ray_address"):
        return RAY_ADDRESS_VARIABLE
    return ("KILN_" if table == "runtime" else f"KILN_{table.upper()}_") + key.upper()


def vm_variable(limit: str) -> str:
    return variable("vm", limit)


def farm_variable(key: str) -> str:
    return variable("farm", key)


class _Environment(EnvSettingsSource):
    """pydantic-settings reads `env` into the tables (KILN_VM_FUEL -> [vm] fuel), given the
    table's name where kiln's variable does not say it (KILN_CACHE_DIR, KILN_RAY_ADDRESS)."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.given = env
        super().__init__(_Tables, env_ignore_empty=True)

    def _load_env_vars(self) -> Mapping[str, str]:
        if "KILN_FARM_RAY_ADDRESS" in self.given:
            raise SettingsError(
                f"KILN_FARM_RAY_ADDRESS: unknown variable (kiln reads {RAY_ADDRESS_VARIABLE})"
            )
        blank = {farm_variable(key) for key in FARM_KEYS}  # a blank [farm] variable is unset
        renamed = {
            variable(t, k): f"kiln_{t}_{k}" for t in ("runtime", "farm") for k in KNOWN_KEYS[t]
        }
        return {
            renamed.get(name, name.lower()): value
            for name, value in self.given.items()
            if name.startswith("KILN_")  # kiln's names, as written: KILN_VM_FUEL, not kiln_vm_fuel
            and (value.strip() if name in blank else value)
            and name not in API_CLIENT_VARIABLES
            and not name.startswith("KILN_RUNTIME_")
            and name.removeprefix("KILN_").lower() not in KNOWN_KEYS  # not a table as JSON
        }


Origins = dict[tuple[str, str | None], tuple[str, str]]
"""(table, key) -> (where it was set: a file or a variable, the words for its value there)."""


def _layer(
    merged: dict[str, Any], origins: Origins, data: Mapping[str, Any], file: Path | None
) -> None:
    for table, entries in data.items():
        source = str(file) if file is not None else f"KILN_{table.upper()}_*"
        origins[table, None] = (source, f"{source}: [{table}]")
        for key, value in entries.items() if isinstance(entries, dict) else []:
            if file is None:
                origins[table, key] = (name := variable(table, str(key)), f"{name}={str(value)!r}")
            else:
                origins[table, key] = (str(file), f"{file}: [{table}] {key} = {value!r}")
        if isinstance(entries, dict) and isinstance(merged.get(table), dict):
            merged[table] = {**merged[table], **entries}
        else:
            merged[table] = entries


def _read(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as file:
            data = tomllib.load(file)
    except FileNotFoundError:
        raise SettingsError(f"{path}: no such settings file") from None
    except tomllib.TOMLDecodeError as error:
        raise SettingsError(f"{path}: not valid TOML: {error}") from None
    except OSError as error:
        raise SettingsError(f"{path}: cannot read the settings file: {error.strerror}") from None
    return data


def load_settings(path: Path | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """The settings in force: packaged defaults, then the user file, then `KILN_*` variables.

    `path` is the user file (it wins over `KILN_CONFIG`); `env` defaults to `os.environ`.
    """
    env = os.environ if env is None else env
    raw = env.get(CONFIG_VARIABLE, "")
    user = path if path is not None else Path(raw).expanduser() if raw else None
    merged: dict[str, Any] = {}
    origins: Origins = {}
    folders: dict[str, Path] = {}  # a relative cache_dir is taken from there
    for file in (PACKAGED_FILE, user):
        if file is not None:
            _layer(merged, origins, _read(file), file)
            folders[str(file)] = file.parent
    found = _Environment(env)()
    variables = {t: {k: _Variable(v) for k, v in e.items()} for t, e in found.items()}
    _layer(merged, origins, variables, None)
    try:
        tables = _Tables.model_validate(merged)
    except ValidationError as error:
        raise SettingsError(_message(error.errors()[0], origins)) from None
    runtime = asdict(tables.runtime)
    folder = folders.get(origins["runtime", "cache_dir"][0], Path.cwd())
    runtime["cache_dir"] = folder.absolute() / runtime["cache_dir"]
    return Settings(Limits(**asdict(tables.vm)), **runtime, api=tables.api, farm=tables.farm)


def _message(error: Any, origins: Origins) -> str:
    """What is wrong, worded from where the value came from."""
    table, key = error["loc"][0], (error["loc"][1] if len(error["loc"]) > 1 else None)
    source, where = origins[table, key]
    unknown = error["type"] in ("extra_forbidden", "unexpected_keyword_argument")
    if key is None and unknown:
        known = ", ".join(f"[{t}]" for t in KNOWN_KEYS)
        return f"{source}: unknown table [{table}] (known: {known})"
    if key is None:
        return f"{source}: {table} must be a table [{table}], got {error['input']!r}"
    if unknown and source.startswith("KILN_"):
        reads = ", ".join(variable(table, k) for k in KNOWN_KEYS[table])
        return f"{source}: unknown variable (kiln reads {reads})"
    if unknown:
        return f"{source}: unknown key [{table}] {key} (known: {', '.join(KNOWN_KEYS[table])})"
    return f"{where}: {error.get('ctx', {}).get('error') or error['msg']}"


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
