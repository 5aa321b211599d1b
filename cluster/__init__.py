"""The farm's cluster layer: the Ray runtime, the scheduler and the launch configurations.

What it will hold (built by the later issue that brings up the Ray farm; empty until then):

- the Ray runtime: an embedded local cluster by default, or `--address` of an existing one;
- the scheduler: deduplicates candidates by source hash, shards (candidate x test) work into
  batches sized by a cost model, dispatches them to the actors of `actors/` with backpressure
  (a cap on work in flight), notices dead actors and retries their batches, and streams
  verdicts back as they arrive;
- the launch configurations for multi-GPU and multi-node clusters (their YAMLs live in
  `configs/`).

Ray is imported lazily, where it is needed: kiln imports and runs without it.
"""
