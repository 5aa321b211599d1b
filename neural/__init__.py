"""The neural compiler: a small transformer that maps source to bytecode, always verified.

- `neural.tokens`, `neural.grammar`: source tokens, the target vocabulary derived from `vm.isa`,
  and the grammar that parses target tokens and constrains sampling to well-formed bytecode;
- `neural.model`: the encoder-decoder transformer (torch);
- `neural.data`, `neural.train`: training data from `fuzz.generator` compiled by `compiler/`,
  the seeded training loop, checkpoints that record the ISA they were trained for;
- `neural.decode`: batched, ISA-constrained sampling of k candidates per program;
- `neural.verify`: Algorithm 2 and equations 7-8 (measured by `bench.paper`);
- `neural.router`: the hybrid (Algorithm 3), the compile path of `actors.pipeline.Pipeline`;

torch is an optional dependency, imported lazily: kiln imports and runs without it. See
docs/NEURAL.md.
"""

DEFAULT_CHECKPOINT = "neural/checkpoints/small.pt"
"""The shipped checkpoint (package data: `neural.train.locate` finds it from any directory)."""
