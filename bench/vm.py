"""`kiln bench vm`: the C VM against CPython on the same programs, in the same run.

For each program of bench/programs/ it times the call under CPython (in process) and on the C
VM (one thread), best of 9 runs each, the two taking turns (a burst of load on a shared machine
then falls on both), checks that both give the same value, and reports the ratio and the VM's bytecode instructions per second. It also times the
reference compiler against CPython's own `compile()` on the same sources (the bench programs,
cluster/programs/humaneval_like.py and the golden corpus). Prints a table, writes JSON (with
machine details) under bench/results/ and, when matplotlib is installed, a bar chart beside it.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from vm.limits import Limits

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "programs"
RESULTS = HERE / "results"

# (file, call, quick call)
CASES = [
    ("fib.py", "fib(27)", "fib(18)"),
    ("sieve.py", "count_primes(300000)", "count_primes(5000)"),
    ("nested_loops.py", "grid(500)", "grid(60)"),
    ("list_build.py", "squares(200000)", "squares(3000)"),
    ("string_scan.py", "count_vowels(5000)", "count_vowels(100)"),
    ("sorting.py", "sort_random(20000)", "sort_random(500)"),
]
LIMITS = Limits(fuel=1 << 40, heap_words=1 << 24, stack_words=1 << 16)


def best_of(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def best_of_alternating(
    fns: Sequence[Callable[[], Any]], repeat: int
) -> list[tuple[float, Any]]:
    """best_of for several functions, run in turn: on a shared machine a burst of load then
    falls on both sides of a comparison instead of on one."""
    best: list[tuple[float, Any]] = [(float("inf"), None)] * len(fns)
    for _ in range(repeat):
        for k, fn in enumerate(fns):
            start = time.perf_counter()
            result = fn()
            elapsed = time.perf_counter() - start
            best[k] = (min(best[k][0], elapsed), result)
    return best


def pyplot() -> Any | None:
    """matplotlib.pyplot on the Agg backend (files only, no display), or None, said on stdout,
    when matplotlib is not installed: every bench's plot is optional."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no plot")
        return None
    return plt


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "host": platform.node(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "device": "cpu",
    }


def main(quick: bool = False) -> int:
    from compiler import compile_source, parse_call
    from vm import execute_batch

    repeat = 1 if quick else 9
    rows = []
    for file, call, quick_call in CASES:
        source = (PROGRAMS / file).read_text()
        name, args = parse_call(quick_call if quick else call)
        namespace: dict[str, Any] = {}
        exec(compile(source, file, "exec"), namespace)
        program = compile_source(source, file)
        (cpython_s, expected), (vm_s, results) = best_of_alternating(
            [
                lambda: namespace[name](*args),
                lambda: execute_batch(
                    [(program, name, args)], backend="cpu", limits=LIMITS, threads=1
                ),
            ],
            repeat,
        )
        result = results[0]
        if result.trap is not None or result.value != expected:
            raise SystemExit(
                f"{file}: the C VM gave {result.trap or result.value!r}, CPython {expected!r}"
            )
        rows.append(
            {
                "program": file,
                "call": quick_call if quick else call,
                "cpython_s": cpython_s,
                "vm_s": vm_s,
                "steps": result.steps,
                "speedup": cpython_s / vm_s,
                "vm_ops_per_s": result.steps / vm_s,
            }
        )

    from cluster.workload import PROGRAMS as HUMANEVAL_LIKE  # the farm's workload, moved there

    paths = sorted([*PROGRAMS.glob("*.py"), HUMANEVAL_LIKE], key=lambda p: p.name)
    sources = [(p.name, p.read_text()) for p in paths]
    corpus = HERE.parent / "tests" / "programs"
    for path in sorted(corpus.rglob("*.py")):
        text = path.read_text()
        if "expect error" not in text.split("\n", 1)[0] and "call:" not in text.split("\n", 1)[0]:
            sources.append((path.name, text))
    kiln_compiled = []
    for fname, text in sources:
        try:
            compile_source(text, fname)
            kiln_compiled.append((fname, text))
        except Exception:  # noqa: BLE001 - programs needing --call types are skipped
            continue
    reps = 3 if quick else 10
    kiln_s, _ = best_of(
        lambda: [compile_source(text, fname) for fname, text in kiln_compiled], reps
    )
    cpy_s, _ = best_of(
        lambda: [compile(text, fname, "exec") for fname, text in kiln_compiled], reps
    )
    compiler = {
        "programs": len(kiln_compiled),
        "kiln_us_per_program": kiln_s / len(kiln_compiled) * 1e6,
        "cpython_compile_us_per_program": cpy_s / len(kiln_compiled) * 1e6,
    }
    compiler["ratio"] = compiler["kiln_us_per_program"] / compiler["cpython_compile_us_per_program"]

    print(f"{'program':<18}{'CPython ms':>12}{'C VM ms':>10}{'speedup':>9}{'VM Mops/s':>11}")
    for r in rows:
        print(
            f"{r['program']:<18}{r['cpython_s'] * 1e3:>12.2f}{r['vm_s'] * 1e3:>10.2f}{r['speedup']:>8.1f}x{r['vm_ops_per_s'] / 1e6:>11.1f}"
        )
    geo = statistics.geometric_mean(r["speedup"] for r in rows)
    print(f"{'geometric mean':<40}{geo:>8.1f}x")
    print(
        f"compiler: kiln {compiler['kiln_us_per_program']:.0f} us/program vs CPython compile() {compiler['cpython_compile_us_per_program']:.0f} us/program ({compiler['ratio']:.1f}x) over {compiler['programs']} programs"
    )

    RESULTS.mkdir(parents=True, exist_ok=True)
    stem = "vm-quick" if quick else "vm"
    out = RESULTS / f"{stem}.json"
    out.write_text(
        json.dumps(
            {
                "benchmark": "vm",
                "quick": quick,
                "machine": machine(),
                "rows": rows,
                "geomean_speedup": geo,
                "compiler": compiler,
                "date": time.strftime("%Y-%m-%d"),
            },
            indent=2,
        )
        + "\n"
    )
    print(f"wrote {out.relative_to(HERE.parent)}")
    plt = pyplot()
    if plt is None:
        return 0
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.bar(
        [r["program"].removesuffix(".py") for r in rows],
        [r["speedup"] for r in rows],
        color="#c0542b",
    )
    ax.axhline(10, color="gray", linestyle="--", linewidth=1, label="target 10x")
    ax.set_ylabel("C VM speedup over CPython")
    ax.set_title(f"kiln C VM vs CPython, one core ({machine()['cpu']})", fontsize=9)
    ax.legend()
    fig.tight_layout()
    fig.savefig(RESULTS / f"{stem}.png", dpi=120)
    print(f"wrote {(RESULTS / f'{stem}.png').relative_to(HERE.parent)}")
    return 0
