"""The device session (bench/device_session.py) on the CPU: its dry run, in a device's conditions
(the farm's, the service's and the evaluation's dependencies made unimportable by a
sitecustomize, as tests/test_require_gpu.py does, and no CuPy), runs every step up to the first
CUDA call and collects the GPU tests; and its machinery (device naming, time budget, skips counted
as failures, copies to $OUT) on stand-in steps."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

from test_require_gpu import NOT_ON_A_DEVICE

from bench import device_session as ds

ROOT = Path(__file__).resolve().parents[1]

BLOCKER = f"""
import importlib.abc, sys
class Absent(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in {(*NOT_ON_A_DEVICE, "cupy")!r}:
            raise ImportError(f"not on a device: {{name}}")
sys.meta_path.insert(0, Absent())
"""


def test_the_dry_run_reaches_the_first_cuda_call_without_the_farms_dependencies(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER)
    results = tmp_path / "results"
    environ = {k: v for k, v in os.environ.items() if k not in ("KILN_RUN_SLOW", "OUT")}
    environ["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT)])
    environ["KILN_CACHE_DIR"] = str(tmp_path / "cache")
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "device_session.py"), "--dry-run"]
        + ["--results", str(results)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environ,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads((results / "device-session-dry-run.json").read_text())
    assert summary["ok"] and summary["dry_run"] and summary["device"] is None
    steps = {(phase, s["name"]): s for phase, p in summary["phases"].items() for s in p["steps"]}
    assert [s["name"] for s in summary["phases"]["prepare"]["steps"]] == [
        s.name for s in ds.PREPARE
    ]
    assert [s["name"] for s in summary["phases"]["run"]["steps"]] == [s.name for s in ds.RUN]
    # everything before the first CUDA call ran, as on a device
    for name in ("environment", "imports", "toolkit"):
        assert steps[("prepare", name)]["status"] == "ok", steps[("prepare", name)]
    assert steps[("prepare", "install")]["status"] in ("ok", "skipped")
    env = steps[("prepare", "environment")]["detail"]
    assert "absent: cupy" in env and "ray" in env.split("absent:")[1]
    # the first CUDA call and what needs the device are not run, and say so
    for key in (("prepare", "cuda"), ("prepare", "stack"), ("run", "cuda")):
        assert steps[key]["status"] == "not run" and "dry run" in steps[key]["detail"]
    # what needs no device ran in its dry form: the shipped cubins' check, the GPU tests'
    # collection under KILN_REQUIRE_GPU=1, the benchmarks' imports
    assert steps[("prepare", "prebuild")]["status"] == "ok"
    assert "matches the sources" in steps[("prepare", "prebuild")]["tail"]
    for key in (("prepare", "tests-vm"), ("run", "tests-compiler")):
        assert steps[key]["status"] == "ok"
        assert int(steps[key]["detail"].split()[0]) > 0, steps[key]
    assert "test_gpu_backend.py::" in steps[("prepare", "tests-vm")]["tail"]
    assert "test_batched_cuda.py::" in steps[("run", "tests-compiler")]["tail"]
    assert steps[("run", "bench-gpu")]["status"] == "ok"
    assert steps[("run", "bench-compile")]["status"] == "ok"
    assert steps[("run", "farm")] | {"seconds": 0} == {
        "name": "farm", "status": "skipped", "seconds": 0, "rc": None,
        "detail": "Ray is not installed here: no farm run", "tail": "",
    }  # fmt: skip
    log = (results / "device-session-dry-run-prepare.log").read_text()
    assert "prebuild, on a device: " in log and "--module compiler --arch sm_90 --split 0" in log


# ---- the machinery, on stand-in steps ------------------------------------------------------------


def _python(code: str):
    return lambda session: [sys.executable, "-c", code]


DEVICE = (
    '{"name": "NVIDIA H100 80GB HBM3", "compute_capability": "90", "driver": 13000, "cupy": "14.2"}'
)


def test_a_phase_names_its_files_after_the_device_and_copies_them_out(tmp_path, monkeypatch):
    out = tmp_path / "out"
    monkeypatch.setenv("OUT", str(out))
    results = tmp_path / "results"
    session = ds.Session(results, dry_run=False, budget=120)
    steps = [
        ds.Step("cuda", _python(f"print({DEVICE!r})"), after=ds._read_device, fatal=True),
        ds.Step("bench", _python(f"open({str(results / 'gpu-x.json')!r}, 'w').write('{{}}')")),
        ds.Step("broken", _python("raise SystemExit(3)")),
        ds.Step("slow", _python("import time; time.sleep(30)"), timeout=1),
        ds.Step("late", _python("pass"), minimum=10_000),
    ]
    assert not session.phase_run("prepare", steps)
    summary = json.loads((results / "device-session-nvidia-h100-80gb-hbm3.json").read_text())
    got = {s["name"]: (s["status"], s["rc"]) for s in summary["phases"]["prepare"]["steps"]}
    assert got == {
        "cuda": ("ok", 0),
        "bench": ("ok", 0),
        "broken": ("failed", 3),
        "slow": ("timed out", None),
        "late": ("not run", None),
    }
    assert summary["device"]["name"] == "NVIDIA H100 80GB HBM3" and not summary["ok"]
    assert (results / "device-session-nvidia-h100-80gb-hbm3-prepare.log").is_file()
    copied = sorted(p.name for p in out.iterdir())
    assert copied == [
        "device-session-nvidia-h100-80gb-hbm3-prepare.log",
        "device-session-nvidia-h100-80gb-hbm3.json",
        "device-session-prepare.tar.gz",
    ]
    with tarfile.open(out / "device-session-prepare.tar.gz") as tar:
        names = set(tar.getnames())
    assert "bench/results/gpu-x.json" in names  # what the phase wrote, to unpack at the root
    assert "bench/results/device-session-nvidia-h100-80gb-hbm3.json" in names


def test_a_failed_cuda_call_stops_the_phase_and_says_why(tmp_path):
    session = ds.Session(tmp_path, dry_run=False, budget=60)
    steps = [
        ds.Step(
            "cuda", _python("raise SystemExit('no device')"), after=ds._read_device, fatal=True
        ),
        ds.Step("tests", _python("pass")),
    ]
    assert not session.phase_run("run", steps)
    summary = json.loads((tmp_path / "device-session-no-device.json").read_text())
    steps_ = summary["phases"]["run"]["steps"]
    assert steps_[0]["status"] == "failed" and "no device" in steps_[0]["tail"]
    assert steps_[1] | {"seconds": 0} == {
        "name": "tests", "status": "not run", "seconds": 0, "rc": None,
        "detail": "after cuda failed", "tail": "",
    }  # fmt: skip


def test_a_skipped_gpu_test_fails_the_step(tmp_path):
    session = ds.Session(tmp_path, dry_run=False, budget=60)
    junit = ds._junit(session, "tests-vm")
    junit.write_text(
        '<testsuites><testsuite tests="5" failures="0" errors="0" skipped="1"/></testsuites>'
    )
    outcome = ds._tests_after(session, ds.Outcome("tests-vm", "ok", 1.0, 0), "")
    assert outcome.status == "failed" and "1 skipped of 5" in outcome.detail
    junit.write_text(
        '<testsuites><testsuite tests="5" failures="0" errors="0" skipped="0"/></testsuites>'
    )
    outcome = ds._tests_after(session, ds.Outcome("tests-vm", "ok", 1.0, 0), "")
    assert outcome.status == "ok" and outcome.detail.startswith("5 passed")


def test_the_compiler_tests_wait_for_the_compilers_cubin(tmp_path, monkeypatch):
    monkeypatch.setenv("KILN_CACHE_DIR", str(tmp_path))
    session = ds.Session(tmp_path, dry_run=False, budget=60)
    session.device = {"name": "x", "compute_capability": "90"}
    planned = ds._tests_compiler(session)
    assert isinstance(planned, ds.Outcome) and planned.status == "not run"
    assert "cubin is not built" in planned.detail and not planned.passed


def test_a_background_step_runs_beside_the_next_and_is_joined(tmp_path):
    session = ds.Session(tmp_path, dry_run=False, budget=60)
    steps = [
        ds.Step("build", _python("import time; time.sleep(2); print('built')"), background=True),
        ds.Step("tests", _python("print('testing')")),
        ds.Step("check", _python("print('checked')"), waits_for="build"),
        ds.Step("hung", _python("import time; time.sleep(60)"), timeout=2, background=True),
    ]
    assert not session.phase_run("prepare", steps)
    got = [(o.name, o.status) for o in session.outcomes]
    assert got == [("build", "ok"), ("tests", "ok"), ("check", "ok"), ("hung", "timed out")]
    build, tests = session.outcomes[0], session.outcomes[1]
    assert "built" in build.tail and build.seconds >= 2 > tests.seconds
    log = (tmp_path / "device-session-no-device-prepare.log").read_text()
    assert log.index("==== tests:") < log.index("==== build (background): ok")
    assert not list(tmp_path.glob(".device-session-*.out"))
