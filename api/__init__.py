"""kiln's front ends: the `kiln` command line and the REST service.

- `api.cli`: the `kiln` console command (`kiln run`, `kiln compile`, `kiln disasm`,
  `kiln fuzz`, `kiln bench`); see the README for usage.
- the REST service (docs/API.md): `api.main.create_app` builds the FastAPI application, with one
  router per resource under `api/routes/`; it validates and authenticates job submissions,
  persists jobs in a store (`api.store`, SQLite by default) so that nothing submitted is lost
  when the API process crashes, hands them to the farm of `cluster/` (`api.runner`), and
  returns verdicts and verified bytecode. `kiln serve` and `kiln submit` are in `api.commands`.
"""
