"""The VM's verify kernel against its occupancy, measured: register caps, block sizes and how many
threads are launched, on `kiln bench gpu`'s batches. An experiment for the occupancy-first kernels
that docs/GPU.md lists as still to do: it says what a register cap alone buys before the kernel
is redesigned.

    python bench/gpu_occupancy.py build   # no GPU needed: NVRTC builds the VM's module once
                                          # per register cap (--maxrregcount), into
                                          # .kiln-cache/occupancy/
    python bench/gpu_occupancy.py run     # on a device: every build x block size x thread count

`build` compiles the VM's kernel text (vm.cuda.source(), its OPTIONS and CuPy's, as the shipped
cubin) for `--arch` (sm_90) with ptxas's report: registers and spills per entry, the caps in
parallel (`--jobs`; about 20 s each). The device session runs both as its last step, with
what time is left (bench/device_session.py). `run` runs `kiln bench gpu`'s
mixed and uniform batches through the Pipeline once to capture their VerifyBatch, then calls
vm.cuda.verify_batch on that batch with each variant loaded in place of the shipped module, twice,
and keeps the faster kernel time (CUDA events). Every variant's verdicts, failing tests, traps and
step totals must equal the shipped build's: a difference is reported as a failure, not a timing.
Threads: `all` is vm.cuda's default (the device's resident maximum, SMs x 2,048, whether or not
registers let that many run at once: the rest wait for a slot), `resident` launches only as many
as the occupancy calculator says can run at once, so each strides over more items.
Writes bench/results/gpu-occupancy-<device>.json and .png.
"""

from __future__ import annotations

import argparse
import json
import lzma
import re
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if __name__ == "__main__":  # bench/ first on the path would shadow vm (bench/vm.py)
    sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

CACHE = ROOT / ".kiln-cache" / "occupancy"
RESULTS = ROOT / "bench" / "results"
CAPS = (0, 128, 96, 80, 64, 48)  # 0: no cap (the shipped build)
BLOCKS = (32, 64, 128, 256)
ENTRY = "kiln_verify_items"


def _build_one(cap: int, arch: str) -> dict[str, Any]:
    """The VM's module for `arch` under register cap `cap` (0: none), into CACHE."""
    from vm import cuda, gpu_check

    options = gpu_check.runtime_options(cuda.OPTIONS, arch, "cubin") + ["-Xptxas=-v"]
    if cap:
        options.append(f"--maxrregcount={cap}")
    started = time.perf_counter()
    raw, _, log = gpu_check.NVRTC().compile_cubin(cuda.source(), options)
    if raw is None:
        raise RuntimeError(f"NVRTC failed for cap {cap}:\n{log[-3000:]}")
    name = f"vm-{arch}-cap{cap}.cubin.xz"
    (CACHE / name).write_bytes(lzma.compress(raw, preset=9))
    kernel = gpu_check.parse_ptxas(log)[ENTRY]
    return {
        "file": name,
        "arch": arch,
        "registers": kernel.registers,
        "spill_bytes": kernel.spill_bytes,
        "stack_frame": kernel.cumulative_stack,
        "seconds": round(time.perf_counter() - started, 1),
    }


def cmd_build(args: argparse.Namespace) -> int:
    """Every cap's build, `--jobs` at once (0: one per core; NVRTC is one thread a build)."""
    import os
    from concurrent.futures import ProcessPoolExecutor

    CACHE.mkdir(parents=True, exist_ok=True)
    jobs = args.jobs or os.cpu_count() or 1
    with ProcessPoolExecutor(min(jobs, len(CAPS))) as pool:
        built = list(pool.map(_build_one, CAPS, [args.arch] * len(CAPS)))
    manifest = {str(cap): entry for cap, entry in zip(CAPS, built, strict=True)}
    for cap, entry in manifest.items():
        print(f"cap {cap if cap != '0' else 'none':>4}: {entry}", flush=True)
    (CACHE / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return 0


def _batches(
    sizes: list[tuple[str, int]], backend: str = "cuda"
) -> list[tuple[str, int, Any, Any]]:
    """(workload, candidates, VerifyBatch, limits) captured from the Pipeline's own calls."""
    import importlib

    from actors.pipeline import Pipeline
    from bench import gpu as bench_gpu

    cuda = importlib.import_module(f"vm.{backend}")

    workloads = bench_gpu.pools(200)
    pools = {"mixed": workloads.mixed, "uniform": workloads.uniform}
    captured: list[tuple[Any, Any]] = []
    original = cuda.verify_batch

    def capture(batch: Any, limits: Any, **kw: Any) -> Any:
        captured.append((batch, limits))
        return original(batch, limits, **kw)

    cuda.verify_batch = capture
    pipeline = Pipeline(backend, limits=bench_gpu.LIMITS)
    out = []
    try:
        for workload, n in sizes:
            candidates, tests = bench_gpu.batch(pools[workload], n)
            captured.clear()
            pipeline.run(candidates, tests)
            ((batch, limits),) = captured
            out.append((workload, n, batch, limits))
            print(f"captured {workload} {n:,}", flush=True)
    finally:
        cuda.verify_batch = original
    return out


def cmd_run(args: argparse.Namespace) -> int:
    import cupy
    import numpy as np

    from bench.gpu import device_name
    from bench.vm import machine
    from vm import cuda, gpu_check

    deadline = time.monotonic() + args.budget
    manifest = json.loads((CACHE / "manifest.json").read_text())
    sizes = [("mixed", 100_000), ("uniform", 1_000_000), ("mixed", 1_000_000)]
    batches = _batches(sizes[: args.sizes])
    inputs_of: dict[int, Any] = {}
    real_inputs = cuda.verify_inputs

    def memo_inputs(batch: Any, verified: Any) -> Any:  # the host's part, once per batch
        if id(batch) not in inputs_of:
            inputs_of[id(batch)] = real_inputs(batch, verified)
        return inputs_of[id(batch)]

    cuda.verify_inputs = memo_inputs
    real_module, real_block, real_resident = cuda.module, cuda.BLOCK, cuda.resident_threads
    sms = cupy.cuda.Device().attributes["MultiProcessorCount"]
    modules: dict[int, Any] = {}
    tmp = CACHE / "loaded"
    tmp.mkdir(exist_ok=True)
    for cap, entry in manifest.items():
        path = tmp / entry["file"].removesuffix(".xz")
        path.write_bytes(lzma.decompress((CACHE / entry["file"]).read_bytes()))
        mod = cupy.RawModule(path=str(path))
        for name in cuda.ENTRIES:
            mod.get_function(name)
        modules[int(cap)] = mod
    rows: list[dict[str, Any]] = []
    baseline: dict[tuple[str, int], tuple[np.ndarray, ...]] = {}
    variants = [(cap, 128, "all") for cap in CAPS] + [
        (cap, block, threads)
        for cap in CAPS
        for block in BLOCKS
        for threads in ("all", "resident")
        if (block, threads) != (128, "all")
    ]
    try:
        for workload, n, batch, limits in batches:
            for cap, block, threads in variants:
                if time.monotonic() > deadline:
                    print("budget spent: the rest not run", flush=True)
                    break
                mod = modules[cap]
                regs = int(mod.get_function(ENTRY).num_regs)
                arch = manifest[str(cap)].get("arch", "sm_90")
                blocks_per_sm, occ, limiter = gpu_check.occupancy(arch, regs, 0, block)
                cuda.module = lambda mod=mod: mod
                cuda.BLOCK = block
                if threads == "resident":
                    cap_threads = sms * blocks_per_sm * block

                    def resident(*a: Any, cap_threads: int = cap_threads, **kw: Any) -> int:
                        return min(real_resident(*a, **kw), cap_threads)

                    cuda.resident_threads = resident
                else:
                    cuda.resident_threads = real_resident
                kernel_s = []
                for _ in range(2):
                    result = cuda.verify_batch(batch, limits)
                    kernel_s.append(result.timings["kernel"])
                got = (result.verdict, result.fail_test, result.trap, result.steps)
                key = (workload, n)
                if key not in baseline:
                    baseline[key] = got
                same = all(np.array_equal(a, b) for a, b in zip(got, baseline[key], strict=True))
                row = {
                    "workload": workload, "candidates": n, "cap": cap, "block": block,
                    "threads": threads, "registers": regs,
                    "spill_bytes": manifest[str(cap)]["spill_bytes"],
                    "blocks_per_sm": blocks_per_sm, "occupancy": occ, "limiter": limiter,
                    "kernel_ms": round(min(kernel_s) * 1e3, 2),
                    "kernel_ms_runs": [round(s * 1e3, 2) for s in kernel_s],
                    "same_verdicts": same,
                }  # fmt: skip
                rows.append(row)
                print(
                    f"{workload:8} {n:>9,} cap {cap or '-':>4} regs {regs:>3} block {block:>3}"
                    f" {threads:8} occ {occ:5.1%} kernel {row['kernel_ms']:>9.2f} ms"
                    f" {'same' if same else 'DIFFERENT VERDICTS'}",
                    flush=True,
                )
    finally:
        cuda.module, cuda.BLOCK, cuda.resident_threads = real_module, real_block, real_resident
        cuda.verify_inputs = real_inputs
        info = machine()
        info["device"] = device_name()
        stem = "gpu-occupancy-" + re.sub(r"[^A-Za-z0-9]+", "-", info["device"]).strip("-").lower()
        RESULTS.mkdir(parents=True, exist_ok=True)
        document = {"benchmark": "gpu-occupancy", "machine": info, "builds": manifest,
                    "rows": rows, "date": time.strftime("%Y-%m-%d")}  # fmt: skip
        (RESULTS / f"{stem}.json").write_text(json.dumps(document, indent=1) + "\n")
        print(f"wrote bench/results/{stem}.json", flush=True)
        _plot(rows, RESULTS / f"{stem}.png", info["device"])
    return 0 if all(r["same_verdicts"] for r in rows) else 1


def _plot(rows: list[dict[str, Any]], path: Path, device: str) -> None:
    from bench.vm import pyplot

    plt = pyplot()
    if plt is None or not rows:
        return
    keys = sorted({(r["workload"], r["candidates"]) for r in rows})
    fig, axes = plt.subplots(1, len(keys), figsize=(5 * len(keys), 4), squeeze=False)
    for ax, (workload, n) in zip(axes[0], keys, strict=True):
        for block in BLOCKS:
            for threads, style in (("all", "-o"), ("resident", "--s")):
                pts = sorted(
                    (r["registers"], r["kernel_ms"])
                    for r in rows
                    if (r["workload"], r["candidates"], r["block"], r["threads"])
                    == (workload, n, block, threads)
                )
                if pts:
                    ax.plot(*zip(*pts, strict=True), style, label=f"block {block}, {threads}")
        ax.set_title(f"{workload}, {n:,} candidates")
        ax.set_xlabel("registers per thread (kiln_verify_items)")
        ax.set_ylabel("kernel ms")
        ax.legend(fontsize=7)
    fig.suptitle(f"VM verify kernel against register cap: {device}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"wrote {path.relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build")
    build.add_argument("--arch", default="sm_90", help="the device's architecture")
    build.add_argument("--jobs", type=int, default=0, help="builds at once (0: one per core)")
    build.set_defaults(func=cmd_build)
    run = sub.add_parser("run")
    run.add_argument("--budget", type=float, default=300.0, help="seconds for the variants")
    run.add_argument("--sizes", type=int, default=3, help="how many of the batches to run")
    run.set_defaults(func=cmd_run)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
