"""A disk cache of prepared problems: the native tests and fuel budgets of `prepare_problems`.

Preparing a problem extracts its tests and runs its canonical solution natively to count each
test's steps. Step counts are deterministic (the same bytecode gives the same steps on every
backend), so the result depends only on:

- the problem's text (prompt, canonical solution, test code, entry point);
- the fuel rule (`fuel_factor`, `fuel_floor`) and the VM limits of the run;
- kiln's own code that decides the steps: the compilers, the VM and the test extraction. A
  digest of every source file under compiler/, vm/ and evaluation/ plus actors/pipeline.py stands
  for it, so any edit there makes every entry stale.

An entry is one pickle per problem under `<cache_dir>/prepared/`, named by a SHA-256 of all of
the above, written atomically. A missing, unreadable or stale entry is a miss and is prepared
again; the cache never changes a verdict, only when the steps are counted. It is used where the
caller asks (`prepare_problems(cache=True)`): `kiln eval` does unless the settings' [runtime]
prepared_cache is false (`KILN_PREPARED_CACHE=0`) or `--no-cache` is given.

    hits, key = load(problem, fuel_factor, fuel_floor, limits)
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any

from vm.isa import isa_hash
from vm.limits import Limits

VERSION = 1
ROOT = Path(__file__).resolve().parent.parent
CODE_DIRS = ("compiler", "vm", "evaluation")
CODE_FILES = ("actors/pipeline.py",)
SUFFIXES = (".py", ".c", ".h", ".cu")


@functools.lru_cache(maxsize=1)
def code_digest() -> str:
    """A SHA-256 of kiln's code that step counts depend on (module docstring)."""
    digest = hashlib.sha256()
    paths = [ROOT / f for f in CODE_FILES]
    for folder in CODE_DIRS:
        paths += [p for p in (ROOT / folder).rglob("*") if p.suffix in SUFFIXES]
    for path in sorted(paths):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def directory() -> Path:
    from vm.build import cache_dir

    return cache_dir() / "prepared"


def key(problem: Any, fuel_factor: int, fuel_floor: int, limits: Limits | None) -> str:
    """The entry's name: what the prepared problem depends on, hashed."""
    parts = [
        f"v{VERSION}",
        code_digest(),
        f"{isa_hash():08x}",
        repr(limits),
        str(fuel_factor),
        str(fuel_floor),
        problem.task_id,
        problem.prompt,
        problem.canonical_solution or "",
        problem.test,
        problem.entry_point,
        problem.kind,
    ]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def load(name: str) -> Any | None:
    """The prepared problem stored under `name`, or None (missing or unreadable)."""
    try:
        with open(directory() / f"{name}.pkl", "rb") as file:
            return pickle.load(file)
    except Exception:  # missing, truncated, written by another version: prepare it again
        return None


def store(name: str, prepared: Any) -> None:
    """Write an entry atomically; a cache that cannot be written is skipped, never an error."""
    folder = directory()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".prepared-", dir=folder)
        with os.fdopen(fd, "wb") as file:
            pickle.dump(prepared, file, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, folder / f"{name}.pkl")
    except OSError:
        pass
