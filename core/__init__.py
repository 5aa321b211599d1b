"""kiln's core types, below every other layer: `core.jobs`, the job model (tests, candidates,
verdicts, results, and the shape of a job and of what runs one) that every layer imports."""
