"""The compile -> execute -> verify pipeline, and the Ray actor that hosts it on one device.

- `actors.pipeline.Pipeline`, a plain Python object that knows nothing of Ray: it compiles
  candidates (with `compiler/`; `neural/` through the hybrid router later), runs every
  (candidate, test) pair on a `vm/` backend (cuda, cpu or ref) under a fuel budget, and compares
  outputs with expected values where they ran, so only verdicts (and the verified bytecode of
  passing candidates) leave it. It can be tested and benchmarked alone (`kiln bench gpu`);
  docs/PIPELINE.md describes its verdicts and timings.
- `actors.layout`: the run order of a batch, lanes of a warp on one program, small candidates
  packed so warps stay full; and a measure of a layout (occupancy, programs per warp).
- `actors.local.LocalRunner`, the one local runner: a Pipeline in this process behind `submit`,
  the farm's shape (`core.jobs.Runner`), for `kiln eval` without a farm and the API's thread
  executor.
- `actors.worker.PipelineWorker`, the Ray actor: a thin wrapper that pins one GPU (or CPU cores
  where there is none), warms up, holds one `Pipeline` and reports its device and health; the
  farm (`cluster/`) starts and feeds it.
- `actors.wire`: a batch and its verdicts as they travel between the farm's scheduler and a
  worker, columnar (`WireBatch`, `WireResults`): a few arrays per batch, each distinct test list
  once, instead of Python objects per candidate.
"""
