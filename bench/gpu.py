"""`kiln bench gpu`: verified candidates/s and bytecode ops/s of the Pipeline, by batch size.

Two workloads, about ten tests per candidate, expected values computed once by CPython:

- mixed: candidates drawn in turn from a pool of programs: random programs from the project's
  generator (`fuzz.generate`) and HumanEval-sized functions (`cluster.workload`);
- uniform: every candidate is the same program, so the lanes of a warp share it.

For batch sizes from 1e3 up to 1e6 candidates it runs `actors.pipeline.Pipeline` on the CUDA
backend when a device is there, and the CPU backend on the same batch in the same run (the CPU
sizes are capped by a time budget, so a CPU-only run stays under about two minutes; `--quick`
is much smaller). It reports the stage breakdown (compile, build, upload, kernel, download,
total), candidates/s end to end and on the device alone (upload + kernel + download), bytecode
ops/s of the kernel, and on a GPU the energy per verified candidate from NVML (`pynvml`) when it
can be read. It prints a table with the targets beside the numbers, writes JSON with the device
name under bench/results/ (`gpu-<device>.json`; `gpu-cpu-only.json`, labelled so, where there is
no GPU: no GPU numbers are claimed from a CPU run) and a plot of throughput against batch size.

Every candidate in these workloads should pass; the verdict counts are printed so a wrong
verdict shows.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from actors.pipeline import BatchReport, Pipeline, cuda_available
from bench.vm import machine, pyplot
from cluster.workload import TESTS_PER_CANDIDATE, Problem, expected_tests, humaneval_problems
from configs.settings import Settings, load_settings
from core.jobs import Candidate, TestSpec
from vm.limits import Limits

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
SIZES = [1_000, 10_000, 100_000, 1_000_000]
QUICK_SIZES = [100, 1_000]
CPU_BUDGET_S = {False: 80.0, True: 10.0}  # CPU time the sizes may use, full and --quick
LIMITS = Limits(fuel=1_000_000)
TARGETS = {"candidates_per_s": 1e6, "ops_per_s_mixed": 1e11, "ops_per_s_uniform": 5e11}


# ---- the programs ------------------------------------------------------------------------------


def generated_problems(n: int, seed: int) -> list[Problem]:
    """`n` generated programs that kiln compiles and CPython runs without raising on any input."""
    from compiler import CompileError, compile_source
    from fuzz import generate
    from vm.values import type_of_value

    problems: list[Problem] = []
    for s in range(seed, seed + 20 * n):
        if len(problems) == n:
            break
        program = generate(s, n_inputs=TESTS_PER_CANDIDATE)
        tests = expected_tests(program.source, program.entry, program.inputs)
        if tests is None:
            continue
        try:
            compile_source(
                program.source,
                arg_types={program.entry: [type_of_value(a) for a in program.inputs[0]]},
            )
        except (CompileError, ValueError):
            continue
        problems.append(Problem(f"generated-{s}", program.source, program.entry, tests))
    return problems


# ---- running -----------------------------------------------------------------------------------


def batch(problems: list[Problem], n: int) -> tuple[list[Candidate], dict[str, list[TestSpec]]]:
    """`n` candidates taking the problems in turn, tests shared per problem."""
    candidates = [Candidate(p.source, p.entry, p.name) for p in problems]
    return [candidates[i % len(candidates)] for i in range(n)], {p.name: p.tests for p in problems}


@dataclass(frozen=True)
class Pools:
    """The workloads' programs: mixed (generated and HumanEval-sized programs in turn) and
    uniform (one HumanEval-sized program), with how many of each kind the mix draws from."""

    mixed: list[Problem]
    uniform: list[Problem]
    generated: int
    humaneval_like: int


def pools(n_generated: int, seed: int = 1) -> Pools:
    """`n_generated` generated programs alternating with the HumanEval-sized ones; below_zero
    alone for the uniform workload (bench/gpu_occupancy.py measures on the same)."""
    he = humaneval_problems(seed)
    gen = generated_problems(n_generated, seed)
    he_cycle = he * (len(gen) // len(he) + 1)
    mixed = [p for pair in zip(gen, he_cycle[: len(gen)], strict=True) for p in pair]
    return Pools(mixed, [next(p for p in he if p.name == "below_zero")], len(gen), len(he))


class _Energy:
    """Joules used by GPU 0 over a run, from NVML's energy counter; None where it cannot be read."""

    def __init__(self) -> None:
        self.handle: Any = None
        try:
            import pynvml  # type: ignore[import-not-found]

            pynvml.nvmlInit()
            self.handle = pynvml.nvmlDeviceGetHandleByIndex(0)
            pynvml.nvmlDeviceGetTotalEnergyConsumption(self.handle)
            self.nvml = pynvml
        except Exception:  # not installed, no driver, or a device without the counter
            self.handle = None

    def read(self) -> float | None:
        return (
            None
            if self.handle is None
            else self.nvml.nvmlDeviceGetTotalEnergyConsumption(self.handle) / 1e3
        )


def run_one(
    pipeline: Pipeline,
    workload: str,
    candidates: list[Candidate],
    tests: dict[str, list[TestSpec]],
    energy: _Energy | None,
) -> dict[str, Any]:
    joules_before = energy.read() if energy else None
    report: BatchReport = pipeline.run(candidates, tests)
    joules_after = energy.read() if energy else None
    t = report.timings
    device_s = t["upload"] + t["kernel"] + t["download"]
    row: dict[str, Any] = {
        "workload": workload,
        "backend": pipeline.backend,
        "candidates": len(candidates),
        "items": report.items,
        "distinct_programs": report.compiles,
        "steps": report.steps,
        "timings": {k: round(v, 6) for k, v in t.items()},
        "candidates_per_s": report.candidates_per_s,
        "device_candidates_per_s": len(candidates) / device_s if device_s > 0 else 0.0,
        "ops_per_s": report.ops_per_s,
        "counts": report.counts,
        "layout": report.layout.as_dict() if report.layout else None,
        "energy_j_per_candidate": None,
    }
    if joules_before is not None and joules_after is not None:
        row["energy_j_per_candidate"] = (joules_after - joules_before) / len(candidates)
    return row


def device_name() -> str:
    try:
        from vm import cuda

        if hasattr(cuda, "device_name"):
            return str(cuda.device_name())
    except ImportError:
        pass
    import cupy

    name = cupy.cuda.runtime.getDeviceProperties(0)["name"]
    return name.decode() if isinstance(name, bytes) else str(name)


def main(quick: bool = False, settings: Settings | None = None) -> int:
    """`settings`: what the `kiln` command read (an edge); read here, once, when run alone."""
    compiler = (settings if settings is not None else load_settings()).compiler
    workloads = pools(24 if quick else 200)
    mixed_pool, uniform_pool = workloads.mixed, workloads.uniform
    sizes = QUICK_SIZES if quick else SIZES
    on_gpu = cuda_available()
    gpu = Pipeline("cuda", limits=LIMITS, compiler=compiler) if on_gpu else None
    cpu = Pipeline("cpu", limits=LIMITS, compiler=compiler)
    energy = _Energy() if on_gpu else None
    cpu_left = CPU_BUDGET_S[quick]
    rows: list[dict[str, Any]] = []
    cpu_capped_at: int | None = None
    print(
        f"{workloads.generated} generated and {workloads.humaneval_like} HumanEval-sized programs,"
        f" {TESTS_PER_CANDIDATE} tests each; GPU: {device_name() if on_gpu else 'none (CPU only)'}"
    )
    _print_header()
    for n in sizes:
        for workload, pool in (("mixed", mixed_pool), ("uniform", uniform_pool)):
            candidates, tests = batch(pool, n)
            if gpu is not None:
                rows.append(run_one(gpu, workload, candidates, tests, energy))
                _print_row(rows[-1])
            if cpu_capped_at is None:
                started = time.perf_counter()
                rows.append(run_one(cpu, workload, candidates, tests, None))
                _print_row(rows[-1])
                cpu_left -= time.perf_counter() - started
        # the next size costs about ten times this one: run it on the CPU only if the budget holds
        last_cpu = sum(
            r["timings"]["total"] for r in rows if r["backend"] == "cpu" and r["candidates"] == n
        )
        if cpu_capped_at is None and last_cpu * 10 > cpu_left:
            cpu_capped_at = n
            if n != sizes[-1]:
                print(f"(CPU backend capped at {n:,} candidates to stay within its time budget)")
    if gpu is None and cpu_capped_at is None:
        cpu_capped_at = sizes[-1]

    _print_summary(rows, on_gpu)
    RESULTS.mkdir(parents=True, exist_ok=True)
    info = machine()
    if on_gpu:
        info["device"] = device_name()
        stem = "gpu-" + re.sub(r"[^A-Za-z0-9]+", "-", info["device"]).strip("-").lower()
    else:
        info["device"] = "none: CPU backend only, no GPU numbers"
        stem = "gpu-cpu-only"
    stem += "-quick" if quick else ""
    out = RESULTS / f"{stem}.json"
    document = {
        "benchmark": "gpu",
        "quick": quick,
        "gpu_present": on_gpu,
        "machine": info,
        "energy": "NVML" if energy and energy.handle is not None else "not available",
        "tests_per_candidate": TESTS_PER_CANDIDATE,
        "limits": {
            "fuel": LIMITS.fuel,
            "heap_words": LIMITS.heap_words,
            "stack_words": LIMITS.stack_words,
            "max_call_depth": LIMITS.max_call_depth,
        },
        "pool": {
            "mixed_programs": len(mixed_pool),
            "generated": workloads.generated,
            "humaneval_like": workloads.humaneval_like,
            "uniform_program": uniform_pool[0].name,
        },
        "cpu_capped_at": cpu_capped_at,
        "targets_gpu": TARGETS,
        "rows": rows,
        "date": time.strftime("%Y-%m-%d"),
    }
    out.write_text(json.dumps(document, indent=2) + "\n")
    print(f"wrote {out.relative_to(HERE.parent)}")
    _plot(
        rows,
        RESULTS / f"{stem}.png",
        info["device"] if on_gpu else f"CPU only: {info['cpu']}, {info['cores']} cores",
    )
    return 0


# ---- output ------------------------------------------------------------------------------------


def _print_row(r: dict[str, Any]) -> None:
    t = r["timings"]
    stages = "".join(
        f"{t[s] * 1e3:>12.1f}"
        for s in ("compile", "build", "upload", "kernel", "download", "total")
    )
    counts = ", ".join(f"{k} {v}" for k, v in sorted(r["counts"].items()))
    print(
        f"{r['workload']:<9}{r['backend']:<8}{r['candidates']:>10,}{stages}"
        f"{r['candidates_per_s']:>12,.0f}{r['device_candidates_per_s']:>12,.0f}{r['ops_per_s']:>10.2e}"
        f"{r['layout']['programs_per_warp'] if r['layout'] else 0:>7.2f}  {counts}"
    )


def _print_header() -> None:
    stages = "".join(
        f"{s + ' ms':>12}" for s in ("compile", "build", "upload", "kernel", "download", "total")
    )
    print(
        f"{'workload':<9}{'backend':<8}{'cands':>10}{stages}"
        f"{'cand/s':>12}{'dev cand/s':>12}{'ops/s':>10}{'p/warp':>7}  verdicts"
    )


def _print_summary(rows: list[dict[str, Any]], on_gpu: bool) -> None:
    print()
    best = {}
    for backend in ("cuda", "cpu"):
        for workload in ("mixed", "uniform"):
            sel = [r for r in rows if r["backend"] == backend and r["workload"] == workload]
            if sel:
                best[backend, workload] = (
                    max(r["device_candidates_per_s"] for r in sel),
                    max(r["candidates_per_s"] for r in sel),
                    max(r["ops_per_s"] for r in sel),
                )
    for (backend, workload), (dev, total, ops) in best.items():
        ops_target = TARGETS["ops_per_s_mixed" if workload == "mixed" else "ops_per_s_uniform"]
        print(
            f"best {backend:<4} {workload:<7}: {dev:,.0f} candidates/s on the device,"
            f" {total:,.0f} end to end (target {TARGETS['candidates_per_s']:.0e}, GPU);"
            f" {ops:.2e} ops/s (target {ops_target:.0e}, GPU)"
        )
    if not on_gpu:
        print(
            "no CUDA device here: these are CPU backend numbers;"
            " the targets are for one H100 and are not claimed"
        )
    energies = [
        r["energy_j_per_candidate"] for r in rows if r["energy_j_per_candidate"] is not None
    ]
    if on_gpu:
        print(
            f"energy per verified candidate: {min(energies):.3e} J (best)"
            if energies
            else "energy per verified candidate: not available (no pynvml or no energy counter)"
        )


def _plot(rows: list[dict[str, Any]], path: Path, title: str) -> None:
    plt = pyplot()
    if plt is None:
        return
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    colours = {
        ("cuda", "mixed"): "#c0542b",
        ("cuda", "uniform"): "#e8a33d",
        ("cpu", "mixed"): "#2b6cc0",
        ("cpu", "uniform"): "#3da5e8",
    }
    for (backend, workload), colour in colours.items():
        sel = [r for r in rows if r["backend"] == backend and r["workload"] == workload]
        if sel:
            style = "-o" if workload == "mixed" else "--s"
            xs = [r["candidates"] for r in sel]
            name = f"{backend} {workload}"
            for key, alpha, what in (
                ("candidates_per_s", None, "end to end"),
                ("device_candidates_per_s", 0.4, "device"),
            ):
                left.plot(
                    xs,
                    [r[key] for r in sel],
                    style,
                    color=colour,
                    alpha=alpha,
                    label=f"{name}, {what}",
                )
            right.plot(xs, [r["ops_per_s"] for r in sel], style, color=colour, label=name)
    for ax, target, colour, label in (  # the targets (TARGETS), dotted
        (left, "candidates_per_s", "gray", "GPU target 1e6/s"),
        (right, "ops_per_s_mixed", "gray", "GPU target, mixes"),
        (right, "ops_per_s_uniform", "black", "GPU target, uniform"),
    ):
        ax.axhline(TARGETS[target], color=colour, linestyle=":", linewidth=1, label=label)
    for ax, label in (
        (left, "verified candidates/s (10 tests each)"),
        (right, "bytecode ops/s (kernel)"),
    ):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("candidates in the batch")
        ax.set_ylabel(label)
        ax.legend(fontsize=7)
    fig.suptitle(f"kiln Pipeline throughput ({title})", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"wrote {path.relative_to(HERE.parent)}")
