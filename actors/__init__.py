"""The compile -> execute -> verify pipeline, and the Ray actor that hosts it on one device.

What it will hold (built by the later issues that bring up the pipeline and the Ray farm; empty
until then):

- `Pipeline`, a plain Python object that knows nothing of Ray: it compiles candidates (with
  `compiler/`, or `neural/` through the hybrid router), runs every (candidate, test) pair on a
  `vm/` backend under a fuel budget, and compares outputs with expected values on the device,
  so only verdicts (and optionally outputs) leave it. It can be tested and benchmarked alone.
- the Ray actor: a thin wrapper that pins one GPU (or CPU cores where there is none) and holds
  one `Pipeline`, with code and tests uploaded once per batch.
"""
