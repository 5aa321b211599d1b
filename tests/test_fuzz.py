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


def test_programs_with_module_level_forms_agree_on_every_backend() -> None:
    # a stub redefined, top-level prints and asserts calling the entry, a __main__ block
    report = run_fuzz(60, 21, ["ref", "cpu"], modules=True)
    assert report.ok, "\n\n".join(m.describe() for m in report.details)
    assert report.rejected == 0


def test_module_forms_leave_the_functions_as_they_were() -> None:
    from fuzz.generator import MODULE_FORMS, generate

    seen: set[str] = set()
    for seed in range(20):
        plain, modular = generate(seed, size=8), generate(seed, size=8, modules=True)
        assert modular.inputs == plain.inputs and modular.features == plain.features
        assert set(plain.source.splitlines()) <= set(modular.source.splitlines())
        seen |= modular.module_forms
    assert seen == set(MODULE_FORMS)
