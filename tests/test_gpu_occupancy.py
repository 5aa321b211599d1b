"""bench/gpu_occupancy.py without a device: the part that needs none, capturing the batches that
`kiln bench gpu` hands the VM, checked here on the CPU backend (the device run uses the same
capture on the CUDA one)."""

from __future__ import annotations

from bench import gpu_occupancy


def test_batches_are_captured_from_the_pipeline() -> None:
    batches = gpu_occupancy._batches([("mixed", 120), ("uniform", 50)], backend="cpu")
    assert [(w, n) for w, n, _, _ in batches] == [("mixed", 120), ("uniform", 50)]
    for _, n, batch, limits in batches:
        assert batch.n_candidates == n
        assert limits.fuel == 1_000_000
    mixed, uniform = batches[0][2], batches[1][2]
    assert len(mixed.programs) > 1
    assert len(uniform.programs) >= 1
