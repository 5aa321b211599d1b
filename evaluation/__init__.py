"""Batch evaluation of program-synthesis datasets, compatible with human-eval and EvalPlus.

What it will hold (built by the later issue on dataset evaluation; empty until then):

- dataset adapters (HumanEval, as shipped in the `human-eval` package) and the extraction of
  each task's tests into (arguments, expected value) pairs the VM can check;
- reading human-eval's sample format (`{"task_id", "completion"}` per line) and writing its
  result format (`<samples>_results.jsonl` with `passed` and `result`);
- pass@k with the unbiased estimator of human-eval, defined once here;
- the sandboxed CPython fallback: a pool of persistent worker processes with rlimits on CPU
  time and memory, no network and a throwaway working directory, for candidates outside kiln
  Python or traps that need CPython; every result records whether the VM or the fallback
  produced it.
"""
