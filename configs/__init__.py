"""kiln's configuration: one typed settings object and the files it is loaded from.

`configs.settings.Settings` is the only place a tunable of kiln lives. `load_settings()` reads
the packaged defaults in `configs/kiln.toml`, then an optional user file (`KILN_CONFIG` or an
explicit path), then `KILN_*` environment variables, and checks every value on the way.

The Ray cluster launch files (multi-GPU and multi-node YAMLs) will live here too, added with the
cluster runtime in `cluster/`.
"""
