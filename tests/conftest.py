"""Shared pytest set-up. The markers themselves (`gpu`, `slow`) are registered in pyproject.toml."""

from __future__ import annotations

import functools

import pytest


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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    gpu_items = [item for item in items if item.get_closest_marker("gpu") is not None]
    if not gpu_items:
        return
    reason = _no_cuda_device_reason()
    if reason is not None:
        for item in gpu_items:
            item.add_marker(pytest.mark.skip(reason=reason))
