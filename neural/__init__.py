"""The neural compiler: a small transformer that maps source to bytecode, always verified.

What it will hold (built by the later issue on neural compilation; empty until then):

- a small encoder-decoder transformer from kiln Python source to bytecode, trained by the
  project's own script on programs from the project's random program generator (the one that
  drives differential fuzzing in `fuzz/`);
- sampling k candidates per program on the device, every sample checked by the bytecode
  verifier and against the reference compiler's behaviour;
- probabilistic verification as the paper measures it: p_correct, P_success(k) and k_99
  (equations 6-8), reported by complexity bucket;
- the hybrid router (paper section 5, Algorithm 3) that chooses between this compiler and the
  deterministic one in `compiler/`.

torch is an optional dependency, imported lazily: kiln imports and runs without it.
"""
