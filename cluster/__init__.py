"""The farm's cluster layer: the Ray runtime, the scheduler and the launch configurations.

- `cluster.runtime`: the Ray runtime: an embedded local cluster by default, or `--address` /
  `KILN_RAY_ADDRESS` of an existing one; one worker actor (`actors.worker`) per GPU, CPU actors
  where there is none, replaced when they die, added when nodes join;
- `cluster.scheduler`: deduplicates candidates, shards them into batches sized by a cost model,
  dispatches them with backpressure (a cap on batches in flight per actor), notices dead actors
  and runs their batches again, and streams verdicts back as they arrive;
- `cluster.farm`: `Farm`, both behind one object; `cluster.commands`: `kiln farm`;
- the launch configurations for multi-GPU and multi-node clusters live in `configs/cluster/`
  (docs/DEPLOY.md).

    from cluster import Farm
    with Farm.start() as farm:
        results = farm.submit(candidates, tests).results()

Ray is imported lazily, when one of these names is first used: `import cluster` stays cheap and
kiln runs without Ray installed until a farm is started.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from actors.worker import WorkerInfo
    from cluster.farm import Farm
    from cluster.runtime import FarmError
    from cluster.scheduler import FarmJob, JobStats
    from core.jobs import JobCancelled, JobFailed

__all__ = ["Farm", "FarmError", "FarmJob", "JobCancelled", "JobFailed", "JobStats", "WorkerInfo"]

_HOMES = {
    "Farm": "cluster.farm",
    "FarmError": "cluster.runtime",
    "FarmJob": "cluster.scheduler",
    "JobCancelled": "core.jobs",
    "JobFailed": "core.jobs",
    "JobStats": "cluster.scheduler",
    "WorkerInfo": "actors.worker",
}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'cluster' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_HOMES[name]), name)
