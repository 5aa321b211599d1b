"""kiln's front ends: the `kiln` command line now, the REST service later.

- `api.cli`: the `kiln` console command (`kiln run`, `kiln compile`, `kiln disasm`,
  `kiln fuzz`, `kiln bench`); see the README for usage.
- Later (the issue that adds REST job submission): a FastAPI application that validates and
  authenticates job submissions, persists jobs in a store (SQLite by default) so that nothing
  submitted is lost when a worker or the API process crashes, hands them to the scheduler in
  `cluster/`, and returns verdicts, pass@k and verified bytecode. `main.py` will only build the
  app, with one router per resource under `api/routes/`.
"""
