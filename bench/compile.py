"""`kiln bench compile`: the batched C compiler against the reference compiler and CPython.

On the same sources in the same run (generated programs of the complexity levels the batched
compiler covers, plus the golden-corpus programs it accepts), it times: the reference compiler at
-O0 (`compile_source(..., passes=False)`, one core), the batched compiler end to end through
`compiler.batched.compile_batch` on 1 and on 2 threads, and CPython's own `compile()` (one core),
each the best of several runs. It reports programs/s and MB/s of source, checks that every
container the batched compiler gives equals the reference compiler's byte for byte, prints a
table, writes JSON (with machine details) under bench/results/ and, with matplotlib, a bar chart.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from bench.vm import HERE, RESULTS, best_of, machine

CORPUS = HERE.parent / "tests" / "programs"


def _sources(quick: bool) -> tuple[list[str], list[str]]:
    from compiler.batched import compile_batch
    from fuzz.generator import generate

    per_level = 150 if quick else 1000
    programs = [
        generate(seed, complexity=level) for level in (0, 1, 2) for seed in range(per_level)
    ]
    sources = [p.source for p in programs]
    names = [f"gen{i}.py" for i in range(len(sources))]
    corpus = sorted(CORPUS.rglob("*.py"))
    texts = [p.read_text() for p in corpus]
    for path, text, got in zip(corpus, texts, compile_batch(texts), strict=True):
        if isinstance(got, bytes):  # the corpus programs it covers (no --call types needed)
            sources.append(text)
            names.append(path.name)
    return sources, names


def main(quick: bool = False) -> int:
    from compiler import compile_source
    from compiler.batched import compile_batch

    sources, names = _sources(quick)
    megabytes = sum(len(s.encode()) for s in sources) / 1e6
    repeat = 3 if quick else 5

    reference_s, reference = best_of(
        lambda: [
            compile_source(s, n, passes=False).to_bytes()
            for s, n in zip(sources, names, strict=True)
        ],
        repeat,
    )
    cpython_s, _ = best_of(
        lambda: [compile(s, n, "exec") for s, n in zip(sources, names, strict=True)], repeat
    )
    compile_batch(sources[:1], names[:1])  # build and load the library outside the timings
    batched: dict[int, float] = {}
    for threads in (1, 2):

        def run(threads: int = threads) -> list:
            return compile_batch(sources, names, threads=threads)

        batched[threads], got = best_of(run, repeat)
        mismatched = [n for n, a, b in zip(names, got, reference, strict=True) if a != b]
        if mismatched:
            raise SystemExit(f"batched compiler differs from the reference on {mismatched[:5]}")

    rows: list[dict[str, Any]] = [
        {"compiler": "reference (Python, -O0)", "threads": 1, "seconds": reference_s},
        {"compiler": "batched C", "threads": 1, "seconds": batched[1]},
        {"compiler": "batched C", "threads": 2, "seconds": batched[2]},
        {"compiler": "CPython compile()", "threads": 1, "seconds": cpython_s},
    ]
    for row in rows:
        row["programs_per_s"] = len(sources) / row["seconds"]
        row["mb_per_s"] = megabytes / row["seconds"]
    print(f"{len(sources)} programs, {megabytes * 1e3:.0f} kB of source, all byte-identical at -O0")
    print(f"{'compiler':<26}{'threads':>8}{'programs/s':>13}{'MB/s':>9}{'vs CPython':>12}")
    for row in rows:
        ratio = cpython_s / row["seconds"]
        print(
            f"{row['compiler']:<26}{row['threads']:>8}{row['programs_per_s']:>13,.0f}"
            f"{row['mb_per_s']:>9.2f}{ratio:>11.2f}x"
        )
    RESULTS.mkdir(parents=True, exist_ok=True)
    stem = "compile-quick" if quick else "compile"
    out = RESULTS / f"{stem}.json"
    out.write_text(
        json.dumps(
            {
                "benchmark": "compile",
                "quick": quick,
                "machine": machine(),
                "programs": len(sources),
                "megabytes": megabytes,
                "rows": rows,
                "date": time.strftime("%Y-%m-%d"),
            },
            indent=2,
        )
        + "\n"
    )
    print(f"wrote {out.relative_to(HERE.parent)}")
    _plot(rows, RESULTS / f"{stem}.png")
    return 0


def _plot(rows: list[dict], path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no plot")
        return
    fig, ax = plt.subplots(figsize=(7, 3.5))
    labels = [
        f"{r['compiler']}\n{r['threads']} thread{'s' if r['threads'] > 1 else ''}" for r in rows
    ]
    ax.bar(labels, [r["programs_per_s"] for r in rows], color="#c0542b")
    ax.set_yscale("log")
    ax.set_ylabel("programs compiled per second")
    ax.set_title(f"kiln compilers vs CPython compile() ({machine()['cpu']})", fontsize=9)
    ax.tick_params(axis="x", labelsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"wrote {path.relative_to(HERE.parent)}")
