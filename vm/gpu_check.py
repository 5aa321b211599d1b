"""`kiln gpu check`: every CUDA kernel kiln ships, built on the CPU exactly as the runtime builds it
and budgeted, with no GPU.

The runtime (vm/cuda.py, compiler/cuda.py) hands `cupy.RawModule` the text of `source()` and the
module's `OPTIONS`; CuPy (14.2: `RawModule` -> `_core.core.compile_with_cache` ->
`cuda.compiler._compile_with_cache_cuda` -> `compile_using_nvrtc`) adds options of its own and
compiles with NVRTC straight to a cubin for the device's architecture. This module calls the same
NVRTC (the `nvidia-cuda-nvrtc` wheel, through ctypes) on the same text with the same options
(`runtime_options`), but for `compute_XX`, and hands the PTX to `ptxas -arch=sm_XX -v` (the
`nvidia-cuda-nvcc` wheel, the same CUDA release) to read what each kernel costs: registers, spill
stores and loads (its own and its callees'), stack frame, shared memory, and the occupancy those
allow at the module's block size (`Module.block`).

Stages, per module and architecture:

- `syntax`: NVRTC's front end only (`-fdevice-syntax-only`, a fraction of a second): catches what
  stops a build at the source level (an identifier NVRTC lacks, a type error);
- `ptx`: NVRTC's whole compile to PTX (the VM: ~9 s; the batched compiler: ~4 minutes);
- `sass`: then ptxas (the VM: ~35 s per architecture; the batched compiler: ~1.5 minutes and
  2 GB since KC_NOINLINE, so CI builds the compiler's kernels to `syntax` only and its full build
  is a slow test).

Budgets live in `BUDGETS`; a kernel over its budget fails the check unless it is listed in
`KNOWN_OVER` with a ceiling it must stay under (measured values, see docs/GPU.md): the list is the
honest record of what issue 18's kernel work (item 4) still has to bring within budget.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import dataclasses
import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ARCHS = ("sm_90", "sm_80")
"""H100/H200 and A100: the architectures the device machines and the farm's GPUs have."""

STAGES = ("syntax", "ptx", "sass")


@dataclasses.dataclass(frozen=True)
class Module:
    """One compiled module of kernels: where its text, options, entries and launch block size
    (what the occupancy is computed for) come from."""

    name: str
    python_module: str  # has source(), OPTIONS, ENTRIES and BLOCK

    def load(self) -> Any:
        return importlib.import_module(self.python_module)

    @property
    def entries(self) -> tuple[str, ...]:
        return tuple(self.load().ENTRIES)

    @property
    def block(self) -> int:
        return int(self.load().BLOCK)


MODULES = (Module("vm", "vm.cuda"), Module("compiler", "compiler.cuda"))


@dataclasses.dataclass(frozen=True)
class Budget:
    max_registers: int
    max_spill_bytes: int  # stores + loads, the kernel's own and its callees'


BUDGETS: dict[tuple[str, str], Budget] = {
    # The VM's kernels: 128 registers would let 4 warps of a 128-thread block run 4 blocks per SM
    # (25% occupancy) where 255 registers allow 2; no spills, since local memory is the slow path.
    # Measured on an H200 (bench/gpu_occupancy.py), forcing the cap (--maxrregcount=128, 944 B of
    # spills) made kiln_verify_items 10-15% slower, and lower caps slower still: the budget is a
    # target for a kernel redesigned to need fewer registers, not a compiler flag.
    ("vm", "kiln_check_programs"): Budget(128, 0),
    ("vm", "kiln_verify_items"): Budget(128, 0),
    ("vm", "kiln_reduce_first"): Budget(128, 0),
    ("vm", "kiln_reduce_verdicts"): Budget(128, 0),
    ("vm", "kiln_run_items"): Budget(128, 0),
    # The batched compiler's kernels have no budget yet: one thread per program, recursive.
}

KNOWN_OVER: dict[tuple[str, str], Budget] = {
    # Over budget today (issue 18, item 4), measured with CUDA 13.5's NVRTC and ptxas, sm_90:
    # 170 (kiln_run_items) and 188 (kiln_verify_items) registers, no spills, since the helpers
    # of more than a few lines are calls on the device (KILN_COLD in vm/kernels/interp.h); before
    # that, 255 registers and ~8 KB of spills in kiln_run. The ceiling fails the check if they
    # get worse again.
    ("vm", "kiln_verify_items"): Budget(200, 0),
    ("vm", "kiln_run_items"): Budget(200, 0),
}


# ---- the toolkit: NVRTC and ptxas from the CUDA wheels ----------------------------------------


class ToolkitMissing(RuntimeError):
    """NVRTC or ptxas was not found."""


INSTALL = "pip install -e '.[test]' (the nvidia-cuda-nvrtc and nvidia-cuda-nvcc wheels)"


def _wheel_roots() -> list[Path]:
    """The CUDA wheels' folders (site-packages/nvidia/cu13, .../cu12, ...), newest first."""
    spec = importlib.util.find_spec("nvidia")
    roots: list[Path] = []
    for base in list(spec.submodule_search_locations or []) if spec else []:
        roots += sorted((p for p in Path(base).glob("cu[0-9]*") if p.is_dir()), reverse=True)
        roots.append(Path(base) / "cuda_nvrtc")  # the CUDA 12 wheels' layout
        roots.append(Path(base) / "cuda_nvcc")
    cuda_path = os.environ.get("CUDA_PATH") or os.environ.get("CUDA_HOME")
    if cuda_path:
        roots.append(Path(cuda_path))
    roots.append(Path("/usr/local/cuda"))  # a system toolkit (the device machines have one)
    return roots


def find_nvrtc() -> Path:
    """libnvrtc: $KILN_NVRTC, else the nvidia-cuda-nvrtc wheel, else CUDA_PATH, else the
    linker's."""
    if os.environ.get("KILN_NVRTC"):
        return Path(os.environ["KILN_NVRTC"])
    for root in _wheel_roots():
        for lib in ("lib", "lib64"):
            found = sorted((root / lib).glob("libnvrtc.so.*[0-9]"))
            found = [p for p in found if "builtins" not in p.name]
            if found:
                return found[0]
    name = ctypes.util.find_library("nvrtc")
    if name:
        return Path(name)
    raise ToolkitMissing(f"NVRTC not found: {INSTALL}, or set KILN_NVRTC to libnvrtc.so")


def find_ptxas() -> Path:
    """ptxas: $KILN_PTXAS, else the nvidia-cuda-nvcc wheel, else CUDA_PATH, else PATH."""
    if os.environ.get("KILN_PTXAS"):
        return Path(os.environ["KILN_PTXAS"])
    for root in _wheel_roots():
        if (root / "bin" / "ptxas").is_file():
            return root / "bin" / "ptxas"
    found = shutil.which("ptxas")
    if found:
        return Path(found)
    raise ToolkitMissing(f"ptxas not found: {INSTALL}, or set KILN_PTXAS")


def cuda_include() -> Path | None:
    """The CUDA headers' folder CuPy passes with -I (the nvidia-cuda-runtime wheel's)."""
    for root in _wheel_roots():
        if (root / "include" / "cuda_runtime.h").is_file():
            return root / "include"
    return None


class NVRTC:
    """NVRTC through ctypes: the library CuPy calls, called the same way."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or find_nvrtc()
        self.lib = ctypes.CDLL(str(self.path))
        self.lib.nvrtcGetErrorString.restype = ctypes.c_char_p

    def version(self) -> str:
        major, minor = ctypes.c_int(), ctypes.c_int()
        self.lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
        return f"{major.value}.{minor.value}"

    @contextlib.contextmanager
    def _compiled(
        self, text: str, options: Sequence[str], name: str
    ) -> Iterator[tuple[ctypes.c_void_p, bool, str]]:
        """An NVRTC program of `text` compiled with `options`: (its handle, whether it compiled,
        NVRTC's log); destroyed on leaving."""
        lib = self.lib
        prog = ctypes.c_void_p()
        status = lib.nvrtcCreateProgram(
            ctypes.byref(prog), text.encode(), name.encode(), 0, None, None
        )
        if status != 0:
            raise RuntimeError(f"nvrtcCreateProgram: {lib.nvrtcGetErrorString(status).decode()}")
        try:
            argv = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
            status = lib.nvrtcCompileProgram(prog, len(options), argv)
            size = ctypes.c_size_t()
            lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
            log = ctypes.create_string_buffer(size.value)
            lib.nvrtcGetProgramLog(prog, log)
            yield prog, status == 0, log.value.decode(errors="replace")
        finally:
            lib.nvrtcDestroyProgram(ctypes.byref(prog))

    def _output(self, prog: ctypes.c_void_p, kind: str) -> Any:
        """The compiled program's PTX or CUBIN (`kind`) as a ctypes buffer; None if it has none."""
        size = ctypes.c_size_t()
        if getattr(self.lib, f"nvrtcGet{kind}Size")(prog, ctypes.byref(size)) != 0:
            return None
        out = ctypes.create_string_buffer(size.value)
        getattr(self.lib, f"nvrtcGet{kind}")(prog, out)
        return out

    def compile(
        self, text: str, options: Sequence[str], name: str = "kern.cu"
    ) -> tuple[str | None, str]:
        """(the PTX, or None when the compile failed; NVRTC's log)."""
        with self._compiled(text, options, name) as (prog, ok, log):
            return (self._output(prog, "PTX").value.decode() if ok else None), log

    def compile_cubin(
        self, text: str, options: Sequence[str], name: str = "kern.cu"
    ) -> tuple[bytes | None, str, str]:
        """For options naming a real architecture (-arch=sm_XX, as CuPy builds): (the cubin, or
        None when the compile failed; its PTX; NVRTC's log, with ptxas's report under
        -Xptxas=-v)."""
        with self._compiled(text, options, name) as (prog, ok, log):
            if not ok:
                return None, "", log
            ptx = self._output(prog, "PTX")
            return self._output(prog, "CUBIN").raw, (ptx.value.decode() if ptx else ""), log


def ptxas_version(path: Path) -> str:
    done = subprocess.run([str(path), "--version"], capture_output=True, text=True)
    found = re.search(r"release (\S+), (V\S+)", done.stdout)
    return found.group(2) if found else done.stdout.strip().splitlines()[-1]


def runtime_options(options: Sequence[str], arch: str, stage: str = "ptx") -> list[str]:
    """The options CuPy 14.2's RawModule(code=..., options=options, backend="nvrtc") hands NVRTC,
    in its order, for `arch` (sm_XX): the module's own, --std=c++17, its include folders (CuPy's
    own headers only where CuPy is installed: the kernels include none of them), -ftz=true
    (appended by CuPy: it overrides the modules' --ftz=false, which NVRTC warns about; it acts on
    f32 instructions only, and in the VM's PTX it changes exactly three: libdevice's range checks
    of an argument of exp against constants near 4.2, where flushing a denormal cannot change the
    outcome; the kernels compute in f64), the architecture and
    --device-as-default-execution-space. CuPy asks for -arch=sm_XX (a cubin); this asks for
    compute_XX (PTX, for ptxas -v): the same NVRTC front end and optimiser; stage "cubin" asks
    for sm_XX as CuPy does (vm/prebuilt.py)."""
    cupy_include: list[str] = []
    spec = importlib.util.find_spec("cupy")
    if spec is not None and spec.origin is not None:
        include = Path(spec.origin).parent / "_core" / "include"
        cccl = include / "cupy" / "_cccl"
        cupy_include = [f"-I{cccl / 'cub'}", f"-I{cccl / 'thrust'}", f"-I{cccl / 'libcudacxx'}"]
        cupy_tail = [f"-I{include}"]
    else:
        cupy_tail = []
    cuda = cuda_include()
    opts = [*cupy_include, *options, "--std=c++17", *cupy_tail]
    if cuda is not None:
        opts.append(f"-I{cuda}")
    opts += [
        "-ftz=true",
        f"-arch={arch}" if stage == "cubin" else f"-arch=compute_{arch.removeprefix('sm_')}",
        "--device-as-default-execution-space",
    ]
    if stage == "syntax":
        opts.insert(0, "-fdevice-syntax-only")
    return opts


# ---- ptxas -v ---------------------------------------------------------------------------------


@dataclasses.dataclass
class Kernel:
    """What ptxas reports for one entry function (and the functions it calls, not inlined)."""

    name: str
    registers: int = 0
    stack_frame: int = 0  # bytes per thread, the entry's own
    cumulative_stack: int = 0  # bytes per thread, with its callees'
    spill_stores: int = 0  # the entry's own
    spill_loads: int = 0
    callee_spill_stores: int = 0  # summed over the callees ptxas lists for it
    callee_spill_loads: int = 0
    shared: int = 0  # static shared memory per block, bytes
    constant: int = 0
    barriers: int = 0
    ptxas_ms: float = 0.0

    @property
    def spill_bytes(self) -> int:
        return (
            self.spill_stores
            + self.spill_loads
            + self.callee_spill_stores
            + self.callee_spill_loads
        )


_PROPS = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")


def parse_ptxas(log: str) -> dict[str, Kernel]:
    """Every entry function in a `ptxas -v` log. The properties of a called (non-inlined) function
    listed under an entry count as that entry's callees'."""
    kernels: dict[str, Kernel] = {}
    current: Kernel | None = None
    props_of: str | None = None
    for line in log.splitlines():
        if m := re.search(r"Compiling entry function '([^']+)'", line):
            current = kernels.setdefault(m.group(1), Kernel(m.group(1)))
        elif m := re.search(r"Function properties for (\S+)", line):
            props_of = m.group(1)
        elif (m := _PROPS.search(line)) and current is not None:
            frame, stores, loads = (int(g) for g in m.groups())
            if props_of == current.name:
                current.stack_frame, current.spill_stores, current.spill_loads = (
                    frame,
                    stores,
                    loads,
                )
            else:
                current.callee_spill_stores += stores
                current.callee_spill_loads += loads
        elif (m := re.search(r"Used (\d+) registers", line)) and current is not None:
            current.registers = int(m.group(1))
            if b := re.search(r"used (\d+) barriers", line):
                current.barriers = int(b.group(1))
            if s := re.search(r"(\d+) bytes cumulative stack size", line):
                current.cumulative_stack = int(s.group(1))
            if s := re.search(r"(\d+) bytes smem", line):
                current.shared = int(s.group(1))
            if s := re.search(r"(\d+) bytes cmem\[0\]", line):
                current.constant = int(s.group(1))
        elif (m := re.search(r"Compile time = ([\d.]+) ms", line)) and current is not None:
            current.ptxas_ms = float(m.group(1))
    for k in kernels.values():
        k.cumulative_stack = max(k.cumulative_stack, k.stack_frame)
    return kernels


# ---- occupancy --------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class SM:
    """One streaming multiprocessor's limits (CUDA C Programming Guide, compute capabilities)."""

    registers: int = 65536
    register_unit: int = 256  # registers are allocated per warp in units of this many
    max_warps: int = 64
    max_blocks: int = 32
    shared: int = 233472  # bytes a block's shared memory may take from
    shared_reserved: int = 1024  # per block, taken by the system


SMS = {"sm_90": SM(shared=233472), "sm_80": SM(shared=167936)}


def occupancy(arch: str, registers: int, shared: int, block: int) -> tuple[int, float, str]:
    """(resident blocks per SM, occupancy as a share of the SM's warps, what limits it)."""
    sm = SMS[arch]
    warps = -(-block // 32)
    per_warp = -(-max(registers, 1) * 32 // sm.register_unit) * sm.register_unit
    limits = {
        "warps": sm.max_warps // warps,
        "blocks": sm.max_blocks,
        "registers": (sm.registers // per_warp) // warps,
    }
    if shared:
        limits["shared"] = sm.shared // (shared + sm.shared_reserved)
    limiter = min(limits, key=lambda k: limits[k])
    blocks = limits[limiter]
    return blocks, blocks * warps / sm.max_warps, limiter


# ---- the check --------------------------------------------------------------------------------


@dataclasses.dataclass
class Build:
    """One module built for one architecture to one stage."""

    module: str
    arch: str
    stage: str
    ok: bool = False
    error: str = ""
    warnings: list[str] = dataclasses.field(default_factory=list)
    nvrtc_s: float = 0.0
    ptxas_s: float = 0.0
    ptx_bytes: int = 0
    entries_missing: list[str] = dataclasses.field(default_factory=list)
    kernels: dict[str, Kernel] = dataclasses.field(default_factory=dict)


def build(
    module: Module, arch: str, stage: str, nvrtc: NVRTC | None = None, ptxas: Path | None = None
) -> Build:
    """Builds `module` for `arch` to `stage` as the runtime would, and reads ptxas's report."""
    result = Build(module.name, arch, stage)
    mod = module.load()
    nvrtc = nvrtc or NVRTC()
    started = time.perf_counter()
    ptx, log = nvrtc.compile(mod.source(), runtime_options(mod.OPTIONS, arch, stage))
    result.nvrtc_s = time.perf_counter() - started
    result.warnings = [line.strip() for line in log.splitlines() if "warning" in line]
    if ptx is None:
        result.error = log.strip()
        return result
    if stage == "syntax":
        result.ok = True
        return result
    result.ptx_bytes = len(ptx)
    result.entries_missing = [e for e in module.entries if f".entry {e}(" not in ptx]
    if result.entries_missing:
        result.error = f"entries missing from the PTX: {', '.join(result.entries_missing)}"
        return result
    if stage == "ptx":
        result.ok = True
        return result
    ptxas = ptxas or find_ptxas()
    with tempfile.TemporaryDirectory(prefix="kiln-gpu-check-") as tmp:
        path = Path(tmp) / f"{module.name}.ptx"
        path.write_text(ptx)
        started = time.perf_counter()
        done = subprocess.run(
            [str(ptxas), f"-arch={arch}", "-v", str(path), "-o", str(Path(tmp) / "out.cubin")],
            capture_output=True,
            text=True,
        )
        result.ptxas_s = time.perf_counter() - started
    if done.returncode != 0:
        result.error = (done.stderr or done.stdout).strip()
        return result
    result.kernels = parse_ptxas(done.stdout + done.stderr)
    missing = [e for e in module.entries if e not in result.kernels]
    if missing:
        result.error = f"ptxas reported no properties for {', '.join(missing)}"
        return result
    result.ok = True
    return result


@dataclasses.dataclass
class Row:
    """One kernel of one build, judged against its budget."""

    module: str
    arch: str
    kernel: Kernel
    block: int
    blocks_per_sm: int
    occupancy: float
    limited_by: str
    budget: Budget | None
    verdict: str  # "ok", "no budget", "over", "known over", "known over, past its ceiling"


def judge(build: Build, block: int) -> list[Row]:
    rows = []
    for name, k in build.kernels.items():
        blocks, occ, limiter = occupancy(build.arch, k.registers, k.shared, block)
        budget = BUDGETS.get((build.module, name))
        if budget is None:
            verdict = "no budget"
        elif k.registers <= budget.max_registers and k.spill_bytes <= budget.max_spill_bytes:
            verdict = (
                "ok" if (build.module, name) not in KNOWN_OVER else "ok (drop from KNOWN_OVER)"
            )
        elif (ceiling := KNOWN_OVER.get((build.module, name))) is not None:
            within = (
                k.registers <= ceiling.max_registers and k.spill_bytes <= ceiling.max_spill_bytes
            )
            verdict = "known over" if within else "known over, past its ceiling"
        else:
            verdict = "over"
        rows.append(Row(build.module, build.arch, k, block, blocks, occ, limiter, budget, verdict))
    return rows


FAILING = ("over", "known over, past its ceiling")


@dataclasses.dataclass
class Report:
    toolkit: dict[str, str]
    builds: list[Build]
    rows: list[Row]
    seconds: float

    @property
    def ok(self) -> bool:
        return all(b.ok for b in self.builds) and not any(r.verdict in FAILING for r in self.rows)

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "toolkit": self.toolkit,
            "seconds": round(self.seconds, 2),
            "builds": [
                {
                    "module": b.module,
                    "arch": b.arch,
                    "stage": b.stage,
                    "ok": b.ok,
                    "error": b.error,
                    "warnings": b.warnings,
                    "nvrtc_s": round(b.nvrtc_s, 2),
                    "ptxas_s": round(b.ptxas_s, 2),
                    "ptx_bytes": b.ptx_bytes,
                }
                for b in self.builds
            ],
            "kernels": [
                {
                    "module": r.module,
                    "arch": r.arch,
                    **{k: v for k, v in dataclasses.asdict(r.kernel).items()},
                    "spill_bytes": r.kernel.spill_bytes,
                    "block": r.block,
                    "blocks_per_sm": r.blocks_per_sm,
                    "occupancy": round(r.occupancy, 4),
                    "limited_by": r.limited_by,
                    "budget": dataclasses.asdict(r.budget) if r.budget else None,
                    "verdict": r.verdict,
                }
                for r in self.rows
            ],
        }


def default_stages(deep: bool = False) -> dict[str, str]:
    """What `kiln gpu check` builds each module to: the VM to ptxas; the batched compiler to the
    front end only (its PTX and ptxas take ~1.5 minutes and 2 GB together) unless deep."""
    return {"vm": "sass", "compiler": "sass" if deep else "syntax"}


def check(
    stages: dict[str, str] | None = None, archs: Sequence[str] = ARCHS, jobs: int | None = None
) -> Report:
    """Builds every module in `stages` for every architecture and judges its kernels."""
    stages = stages if stages is not None else default_stages()
    started = time.perf_counter()
    nvrtc = NVRTC()
    needs_ptxas = any(s == "sass" for s in stages.values())
    ptxas = find_ptxas() if needs_ptxas else None
    toolkit = {"nvrtc": f"{nvrtc.version()} ({nvrtc.path})"}
    if ptxas is not None:
        toolkit["ptxas"] = f"{ptxas_version(ptxas)} ({ptxas})"
    todo = [(m, arch, stages[m.name]) for m in MODULES if m.name in stages for arch in archs]
    workers = max(1, min(len(todo), jobs or os.cpu_count() or 1))
    with ThreadPoolExecutor(workers) as pool:  # NVRTC releases the GIL (ctypes); ptxas is a process
        builds = list(pool.map(lambda t: build(t[0], t[1], t[2], nvrtc, ptxas), todo))
    blocks = {m.name: m.block for m in MODULES}
    rows = [row for b in builds for row in judge(b, blocks[b.module])]
    return Report(toolkit, builds, rows, time.perf_counter() - started)


def format_report(report: Report) -> str:
    """The report as a table, per build and per kernel."""
    lines = [f"toolkit: {', '.join(f'{k} {v}' for k, v in report.toolkit.items())}", ""]
    lines.append(f"{'module':9} {'arch':6} {'stage':6} {'result':7} {'nvrtc s':>8} {'ptxas s':>8}")
    for b in report.builds:
        result = "ok" if b.ok else "FAILED"
        lines.append(
            f"{b.module:9} {b.arch:6} {b.stage:6} {result:7} {b.nvrtc_s:8.1f} {b.ptxas_s:8.1f}"
        )
    for b in report.builds:
        if b.error:
            lines += ["", f"{b.module} {b.arch}: {b.error}"]
    if report.rows:
        lines.append("")
        head = (
            f"{'module':9} {'arch':6} {'kernel':22} {'regs':>4} {'spill st/ld (own)':>17} "
            f"{'spill st/ld (callees)':>21} {'stack':>6} {'smem':>5} {'block':>5} "
            f"{'occupancy (limit)':>19} verdict"
        )
        lines.append(head)
        for r in report.rows:
            k = r.kernel
            occ = f"{r.occupancy:5.1%} {r.limited_by}"
            budget = (
                f" (budget {r.budget.max_registers} regs, {r.budget.max_spill_bytes} B spills)"
                if r.budget
                else ""
            )
            verdict = r.verdict.upper() if r.verdict in FAILING else r.verdict
            lines.append(
                f"{r.module:9} {r.arch:6} {k.name:22} {k.registers:4} "
                f"{f'{k.spill_stores}/{k.spill_loads}':>17} "
                f"{f'{k.callee_spill_stores}/{k.callee_spill_loads}':>21} {k.cumulative_stack:6} "
                f"{k.shared:5} {r.block:5} {occ:>19} {verdict}"
                f"{budget if r.verdict != 'no budget' else ''}"
            )
    warned = sorted({w for b in report.builds for w in b.warnings if "ftz" in w})
    if warned:
        lines += [
            "",
            "NVRTC: "
            + "; ".join(warned)
            + " (CuPy appends -ftz=true after the modules' --ftz=false; see runtime_options)",
        ]
    lines += ["", f"{'OK' if report.ok else 'FAILED'} in {report.seconds:.1f} s"]
    return "\n".join(lines)


# ---- the command ------------------------------------------------------------------------------


def cmd_gpu_check(args: Any) -> int:
    import json
    import sys

    stages = default_stages(deep=args.deep)
    if args.compiler_stage:
        stages["compiler"] = args.compiler_stage
    if args.vm_stage:
        stages["vm"] = args.vm_stage
    if args.module:
        wanted = {m.strip() for m in args.module.split(",") if m.strip()}
        strangers = wanted - {m.name for m in MODULES}
        if strangers:
            raise ValueError(f"unknown module {', '.join(sorted(strangers))} (known: vm, compiler)")
        stages = {k: v for k, v in stages.items() if k in wanted}
    archs = [a.strip() for a in args.arch.split(",") if a.strip()]
    unknown = [a for a in archs if a not in SMS]
    if unknown:
        raise ValueError(f"unknown architecture {', '.join(unknown)} (known: {', '.join(SMS)})")
    try:
        report = check(stages, archs, jobs=args.jobs)
    except ToolkitMissing as error:
        print(f"kiln: error: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.as_json(), indent=2))
    else:
        print(format_report(report))
    return 0 if report.ok else 1


def register(gpu_sub: Any) -> None:
    """`kiln gpu check` (vm.gpu_commands makes `kiln gpu`)."""
    p = gpu_sub.add_parser(
        "check",
        help="build every CUDA kernel as the runtime does (NVRTC, ptxas) and report registers, "
        "spills, stack, shared memory and occupancy against the budgets",
    )
    p.add_argument("--json", action="store_true", help="the report as JSON")
    p.add_argument(
        "--arch", default=",".join(ARCHS), help=f"comma-separated (default {','.join(ARCHS)})"
    )
    p.add_argument("--module", help="comma-separated modules to build (default: vm,compiler)")
    p.add_argument(
        "--deep",
        action="store_true",
        help="the batched compiler's kernels through ptxas too "
        "(~1.5 minutes and 2 GB per architecture)",
    )
    p.add_argument(
        "--compiler-stage",
        choices=STAGES,
        help="how far to build the compiler's kernels (default syntax)",
    )
    p.add_argument(
        "--vm-stage", choices=STAGES, help="how far to build the VM's kernels (default sass)"
    )
    p.add_argument("--jobs", type=int, help="builds at once (default: one per core)")
    p.set_defaults(func=cmd_gpu_check)
