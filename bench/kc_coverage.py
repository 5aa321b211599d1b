"""`kiln bench kc_coverage`: how many of the programs the native path compiles the batched C
compiler (kc) takes, and, ranked, the construct that makes it hand the rest to the reference
compiler.

The programs are the ones `kiln eval` compiles, built as the Pipeline builds them: each sample
of a problem with native tests becomes `PreparedProblem.program(completion)` with its entry
(the entry point, or the generated check function), typed as `Pipeline._arg_types` types it
(none when the entry's parameters are annotated, else `entry_types` of the plain tests, else
`entry_arg_types` of the native tests); each distinct (source, entry, types) counts once. Two
sets:

    dev     the real-sample development set (../shared/datasets/humaneval-real/samples.jsonl;
            KILN_BENCH_SAMPLES=path chooses another), its 2,214 model completions
    mbpp    MBPP's canonical solutions (the built-in `mbpp` dataset, 974 problems)

Each program goes through `compiler.batched.compile_batch` (all passes, as the Pipeline) and
through the live reference compiler (`compile_source`). Counted: programs the reference
compiles (`reference`), those kc gives bytes for (`kc`; they must be the reference's bytes: a
difference is listed and fails the run), and, of the reference-compiled programs kc refuses,
kc's reason with line numbers and names taken out (`refused`, most frequent first; for a program kc
refused for a restated stub or a `__main__` guard, the refusal of its blanked view, as
`compile_batch` sends it again). `pipeline_compile_seconds` times what the Pipeline's compile
step does with them: kc on every program, the reference on each it gives no bytes for (the
reference's own time on every program is `reference_seconds`). `quick` takes the first sample
of each problem. Prints a table and writes JSON to
bench/results/kc-coverage[-quick].json (KILN_BENCH_OUT=path: elsewhere).
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.vm import RESULTS, machine
from configs.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parent.parent
DEV_SET = ROOT.parent / "shared" / "datasets" / "humaneval-real" / "samples.jsonl"


def reason_key(reason: str) -> str:
    """kc's refusal without what varies between programs: the line, quoted names and numbers."""
    text = re.sub(r"^unsupported by the batched compiler:\s*", "", reason)
    text = re.sub(r"\s*\(line \d+\)\s*$", "", text)
    text = re.sub(r"'[^']*'", "'…'", text)
    return text.strip()[:100]


def programs(samples: Any, problems: Any, settings: Settings) -> list[tuple[str, str, Any]]:
    """The distinct (source, entry, argument types or None) the native path compiles for
    `samples`, as the Pipeline types them (module docstring), under kiln's `settings`."""
    from actors.pipeline import entry_annotated, entry_arg_types
    from evaluation.run import entry_types, cpython_compile_error, local_runner, prepare_problems

    used = {s.task_id: problems[s.task_id] for s in samples}
    with local_runner(limits=settings.vm, compiler=settings.compiler) as runner:
        prepared = prepare_problems(used, runner, cache=settings.prepared_cache)
    keys: dict[tuple[str, str, Any], None] = {}
    for s in samples:
        pp = prepared[s.task_id]
        if not pp.native:
            continue
        try:
            if cpython_compile_error(pp.problem.program(s.completion)) is not None:
                continue
        except (RecursionError, MemoryError):
            continue
        code, entry = pp.program(s.completion), pp.entry
        if entry_annotated(code, entry):
            types = None
        elif pp.plain:
            types = entry_types(pp.problem, pp.tests)
        else:
            specs = pp.specs or []
            inferred = entry_arg_types(entry, specs) if specs else None
            if isinstance(inferred, str):
                continue  # the Pipeline's verdict: needs the fallback, nothing compiled
            types = inferred
        keys.setdefault((code, entry, types))
    return list(keys)


def measure(keys: list[tuple[str, str, Any]]) -> dict[str, Any]:
    """kc against the reference compiler on `keys` (module docstring)."""
    from compiler.batched import Unsupported, compile_batch
    from compiler.diagnostics import CompileError
    from compiler.reference import compile_source

    t0 = time.perf_counter()
    kc = compile_batch(
        [code for code, _, _ in keys],
        [f"<{entry}>" for _, entry, _ in keys],
        [{entry: list(t)} if t is not None else None for _, entry, t in keys],
    )
    kc_s = time.perf_counter() - t0
    # a restated stub or a __main__ guard kc refuses went again blanked (compile_batch): the
    # view's refusal is what stops the program
    from compiler.batched import DROPPED_FORMS
    from compiler.frontend import without_dropped

    views = {
        i: view
        for i, got in enumerate(kc)
        if isinstance(got, Unsupported)
        and any(w in got.reason for w in DROPPED_FORMS)
        and (view := without_dropped(keys[i][0])) is not None
    }
    if views:
        again = compile_batch(
            list(views.values()),
            [f"<{keys[i][1]}>" for i in views],
            [{keys[i][1]: list(keys[i][2])} if keys[i][2] is not None else None for i in views],
        )
        for i, got in zip(views, again, strict=True):
            if isinstance(got, Unsupported):
                kc[i] = got
    reference = 0
    taken = 0
    rest_s = 0.0  # the reference compiler on what kc gives no bytes for, as the Pipeline does
    refused: Counter[str] = Counter()
    examples: dict[str, str] = {}
    differ: list[str] = []
    t0 = time.perf_counter()
    for (code, entry, types), got in zip(keys, kc, strict=True):
        t1 = time.perf_counter()
        try:
            want = compile_source(
                code, f"<{entry}>", arg_types={entry: list(types)} if types is not None else None
            ).to_bytes()
        except CompileError:
            want = None
        except (RecursionError, MemoryError):
            want = None
        if not isinstance(got, bytes):
            rest_s += time.perf_counter() - t1
        if want is None:
            if isinstance(got, bytes):
                differ.append(f"{entry}: kc compiled a program the reference rejects")
            continue
        reference += 1
        if isinstance(got, bytes):
            taken += 1
            if got != want:
                differ.append(f"{entry}: bytes differ")
        elif isinstance(got, Unsupported):
            key = reason_key(got.reason)
            refused[key] += 1
            examples.setdefault(key, got.reason)
    ref_s = time.perf_counter() - t0
    return {
        "programs": len(keys),
        "reference": reference,
        "kc": taken,
        "kc_share": round(taken / reference, 4) if reference else 0.0,
        "refused": dict(refused.most_common()),
        "examples": {k: examples[k] for k, _ in refused.most_common(40)},
        "differ": differ,
        "kc_seconds": round(kc_s, 3),
        "reference_seconds": round(ref_s, 3),
        # the native path's compile step: kc on every program, the reference on the rest
        "pipeline_compile_seconds": round(kc_s + rest_s, 3),
    }


def dev_keys(quick: bool, settings: Settings) -> list[tuple[str, str, Any]]:
    from evaluation.datasets import load_problems
    from evaluation.problems import read_samples

    path = Path(os.environ.get("KILN_BENCH_SAMPLES", DEV_SET))
    problems = load_problems("humaneval")
    samples = read_samples(path, problems)
    if quick:
        seen: set[str] = set()
        samples = [s for s in samples if not (s.task_id in seen or seen.add(s.task_id))]
    return programs(samples, problems, settings)


def mbpp_keys(quick: bool, settings: Settings) -> list[tuple[str, str, Any]]:
    from evaluation.datasets import load_problems
    from evaluation.problems import Sample

    problems = load_problems("mbpp")
    samples = [
        Sample(tid, p.canonical_solution, 0)
        for tid, p in problems.items()
        if p.canonical_solution is not None
    ]
    if quick:
        samples = samples[:100]
    return programs(samples, problems, settings)


def table(name: str, r: dict[str, Any], top: int = 25) -> str:
    lines = [
        f"{name}: {r['programs']} distinct programs, the reference compiles {r['reference']},"
        f" kc {r['kc']} ({100 * r['kc_share']:.1f}%); kc {r['kc_seconds']} s,"
        f" reference {r['reference_seconds']} s; kc then the reference on the rest,"
        f" as the Pipeline: {r['pipeline_compile_seconds']} s",
    ]
    for reason, n in list(r["refused"].items())[:top]:
        lines.append(f"  {n:5d}  {reason}")
    for d in r["differ"]:
        lines.append(f"  DIFFERENT: {d}")
    return "\n".join(lines)


def main(quick: bool = False, settings: Settings | None = None) -> int:
    """`settings`: what the `kiln` command read (an edge); read here when run alone."""
    settings = settings if settings is not None else load_settings()
    results: dict[str, Any] = {"machine": machine(), "quick": quick}
    for name, keys in (("dev", dev_keys), ("mbpp", mbpp_keys)):
        results[name] = measure(keys(quick, settings))
        print(table(name, results[name]), flush=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / ("kc-coverage-quick.json" if quick else "kc-coverage.json")
    out = Path(os.environ.get("KILN_BENCH_OUT", out))
    out.write_text(json.dumps(results, indent=1) + "\n")
    print(f"wrote {out}")
    differ = sum(len(results[n]["differ"]) for n in ("dev", "mbpp"))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(quick="--quick" in sys.argv))
