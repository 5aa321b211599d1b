"""Differential fuzzing in the suite: random programs on CPython, the reference VM and the C VM.

`kiln fuzz --n 20000` is the long run; this is a few hundred programs so every change meets it.
"""

from __future__ import annotations

from fuzz import run_fuzz


def test_random_programs_agree_on_every_backend() -> None:
    report = run_fuzz(400, seed=2026, backends=["ref", "cpu"])
    assert report.rejected == 0, report.summary()
    assert report.mismatches == 0, report.summary() + "\n" + "\n".join(map(str, report.details[:3]))
    assert report.runs >= 1000
