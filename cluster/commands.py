"""`kiln` subcommands of this package (registered by `api.cli`).

    kiln farm status [--address ADDR] [--workers N] [--backend auto|cpu|cuda]
    kiln farm check  [--address ADDR] [--workers N] [--backend ...] [--n 2000] [--batch-size N]

`status` starts the farm (an embedded local Ray cluster, or joins `--address` /
KILN_RAY_ADDRESS), lists its workers (node, device, backend, health, warm-up time) and stops it.
`check` also runs a job of `--n` generated candidates on it and compares every verdict with a
Pipeline in this process: the smoke test of a freshly launched cluster (docs/DEPLOY.md).
Dataset evaluations run on a cluster with `kiln eval ... --address ADDR`.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any


def _farm_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--address",
        default=None,
        help='a Ray cluster to join ("auto", host:6379, ray://host:10001); default:'
        " KILN_RAY_ADDRESS, else an embedded local cluster of this machine",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="CPU workers where there is no GPU (default: one per core)",
    )
    p.add_argument("--backend", choices=["auto", "cpu", "cuda"], default="auto")


def register(sub: Any) -> None:
    """Add this package's subcommands to the `kiln` parser's subparsers `sub`."""
    farm = sub.add_parser("farm", help="the Ray farm: its workers, a check job")
    verbs = farm.add_subparsers(dest="farm_command", required=True)
    p = verbs.add_parser("status", help="start or join the farm and list its workers")
    _farm_args(p)
    p.set_defaults(func=cmd_status)
    p = verbs.add_parser(
        "check", help="run a generated job on the farm and compare it with a local Pipeline"
    )
    _farm_args(p)
    p.add_argument("--n", type=int, default=2000, help="candidates (default 2000)")
    p.add_argument("--batch-size", type=int, default=None, help="default: the cost model")
    p.set_defaults(func=cmd_check)


def _start(args: argparse.Namespace) -> Any:
    from cluster import Farm

    started = time.perf_counter()
    settings = args.settings  # read once by the `kiln` command (api.cli), passed down
    farm = Farm.start(
        address=args.address,
        workers=args.workers,
        backend=args.backend,
        limits=settings.vm,
        settings=settings.farm,
    )
    where = "an embedded local Ray cluster" if farm.runtime.embedded else "the Ray cluster"
    print(f"farm on {where}: started in {time.perf_counter() - started:.1f} s")
    return farm


def _print_workers(farm: Any) -> int:
    infos = farm.workers()
    nodes = len({info.node for info in infos})
    healthy = sum(info.healthy for info in infos)
    s = "" if len(infos) == 1 else "s"
    print(f"{len(infos)} worker{s} on {nodes} node(s), {healthy} healthy")
    print(f"{'worker':<14}{'node':<18}{'backend':<9}{'warm-up':>9}  {'state':<10}device")
    for info in infos:
        state = "healthy" if info.healthy else "unhealthy"
        print(
            f"{info.id[:12]:<14}{info.address or info.node[:12]:<18}{info.backend:<9}"
            f"{info.warmup_s:>8.2f}s  {state:<10}{info.device}"
        )
        if info.error:
            print(f"{'':<14}{info.error}")
    return healthy


def _reported(command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """`command`, with a farm that cannot start or run said in one line (exit status 2)."""

    def run(args: argparse.Namespace) -> int:
        from cluster.runtime import FarmError
        from core.jobs import JobFailed

        try:
            return command(args)
        except (FarmError, JobFailed) as error:
            print(f"kiln: error: {error}", file=sys.stderr)
            return 2

    return run


@_reported
def cmd_status(args: argparse.Namespace) -> int:
    with _start(args) as farm:
        healthy = _print_workers(farm)
    return 0 if healthy else 1


@_reported
def cmd_check(args: argparse.Namespace) -> int:
    from actors.pipeline import Pipeline
    from cluster.workload import workload

    candidates, tests = workload(args.n, seed=1)
    with _start(args) as farm:
        _print_workers(farm)
        started = time.perf_counter()
        job = farm.submit(candidates, tests, batch_size=args.batch_size)
        results = job.results()
        elapsed = time.perf_counter() - started
        stats = job.stats
    local = Pipeline("cpu", limits=farm.runtime.limits, compiler=args.settings.compiler)
    expected = local.run(candidates, tests).results
    wrong = [i for i, (a, b) in enumerate(zip(results, expected, strict=True)) if a != b]
    print(
        f"{len(candidates)} candidates ({stats.units} distinct) in {stats.batches} batches:"
        f" {elapsed:.2f} s, {len(candidates) / elapsed:,.0f} candidates/s;"
        f" {sum(r.passed for r in results)} passed"
    )
    if wrong:
        print(f"MISMATCH with a local Pipeline on {len(wrong)} candidates, first {wrong[0]}")
        return 1
    print("every verdict equals a local Pipeline's")
    return 0
