"""Prebuilt device code: every CUDA module kiln ships, built ahead of time on a CPU and loaded by
the runtime when it matches, so a device spends its minutes running kernels, not compiling them.

An artifact is one module (vm/gpu_check.py's MODULES: `vm`, `compiler`) built for one target
(`sm_90`, `sm_80`: a cubin) exactly as `kiln gpu check` builds it: the module's `source()` and
`OPTIONS` plus what CuPy adds (`gpu_check.runtime_options`), for the real architecture, as CuPy
does: NVRTC to a cubin (its built-in ptxas; no separate ptxas whose version could differ). Its key
is a SHA-256 of

    KEY_VERSION, the module's name, the text NVRTC compiles, the module's OPTIONS, FLAGS (the
    path-free part of what CuPy adds), the target, and the CUDA major version (CUDA_MAJOR)

so an edit to any kernel source, an option or the toolkit's major version is a miss. Artifacts
live in two places, looked up in this order:

- shipped: `vm/kernels/prebuilt/` (`MANIFEST`), committed, xz-compressed cubins. CI
  (tests/test_prebuilt.py) fails when a shipped artifact's key no longer matches the sources,
  naming the command that rebuilds it (`REBUILD`);
- cached: `<cache_dir>/device-code/`, what `kiln gpu prebuild --cache` wrote on this machine (the
  device session builds the batched compiler's cubin there: see docs/GPU.md).

`load(cupy, name)` is what vm/cuda.py and compiler/cuda.py call (through `module`, once per
process) before they fall back to NVRTC:
the module for the current device's architecture from a matching artifact (`cupy.RawModule` from
the cubin), or None on a miss (no artifact for this architecture or these sources, a driver older
than CUDA_MAJOR, `KILN_PREBUILT=0` (`use_prebuilt(False)`), or a load the driver refused: then a
warning says why).

Why cubins and not PTX: PTX from this toolkit (CUDA 13.5: `.version 9.5`) cannot be JIT-compiled
by an older driver of the same major version (the devices' driver 580 is CUDA 13.0, PTX ISA 9.0),
while a cubin loads under CUDA's minor-version compatibility; and a PTX JIT costs what ptxas does
(the batched compiler: ~1.5 minutes of one core since KC_NOINLINE, 10-16 before), which is
what this is for avoiding.

What is shipped: the VM's kernels for sm_90 and sm_80 (1.4 MB each, ~120 kB compressed). The
batched compiler's cubin is not: every edit of kc's sources would make it stale (its build
takes ~1.5 minutes and 2 GB since KC_NOINLINE; 10-16 minutes and ~20 GB before, when an H200's
16 cores did not finish it in 408 s); the device session builds it on the device
(`kiln gpu prebuild --module compiler --split 0`: ptxas's --split-compile over the device's
cores) before its tests, and everything after loads it from the cache.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import lzma
import re
import sys
import tempfile
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from vm import gpu_check

KEY_VERSION = "kiln-device-code-1"
CUDA_MAJOR = 13
"""The CUDA major version artifacts are built with (the toolkit wheels of the test extra) and the
driver must have at least: the devices run CUDA 13 drivers."""

FLAGS = ("--std=c++17", "-ftz=true", "--device-as-default-execution-space")
"""What CuPy adds to a module's OPTIONS besides include folders and the architecture
(gpu_check.runtime_options): part of the key, without the machine's paths."""

SHIPPED = Path(__file__).resolve().parent / "kernels" / "prebuilt"
MANIFEST = SHIPPED / "manifest.json"

SHIP = {"vm": ("sm_90", "sm_80")}
"""What is committed: module -> targets. The compiler's cubin is built on the device."""

REBUILD = "kiln gpu prebuild --ship"
"""The command that rebuilds the shipped artifacts (about a minute of CPU per target)."""

DISABLE = "KILN_PREBUILT"
"""The variable of the settings' [runtime] prebuilt: 0 ignores every artifact (the runtime then
compiles with NVRTC, as before)."""
_prebuilt = True  # set by kiln's edges (use_prebuilt)


def use_prebuilt(on: bool | None) -> bool:
    """Load matching artifacts from now on, or not (None: the default, load them); returns what
    was set before. kiln's edges call it with the settings' `prebuilt` (`KILN_PREBUILT=0`,
    `configs.settings.applied`): this layer does not read the settings itself."""
    global _prebuilt
    previous, _prebuilt = _prebuilt, on is None or bool(on)
    return previous


def _module(name: str) -> gpu_check.Module:
    for m in gpu_check.MODULES:
        if m.name == name:
            return m
    raise ValueError(
        f"unknown module {name} (known: {', '.join(m.name for m in gpu_check.MODULES)})"
    )


def key(name: str, target: str, text: str | None = None) -> str:
    """The artifact key of module `name` for `target` (sm_XX) with the current sources."""
    mod = _module(name).load()
    text = mod.source() if text is None else text
    parts = [KEY_VERSION, name, text, *mod.OPTIONS, *FLAGS, target, f"cuda{CUDA_MAJOR}"]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def file_name(name: str, target: str, digest: str) -> str:
    return f"{name}-{target}-{digest[:16]}.cubin.xz"


def cache_root() -> Path:
    from vm.build import cache_dir

    return cache_dir() / "device-code"


@dataclasses.dataclass
class Artifact:
    module: str
    target: str
    key: str
    file: str
    bytes: int  # the cubin's size
    compressed_bytes: int
    sha256: str  # of the compressed file
    nvrtc: str  # its version: NVRTC's built-in ptxas made the cubin
    ptxas_options: list[str]
    seconds: float  # NVRTC with its ptxas, wall clock
    built: str

    @property
    def entry(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def read_manifest(folder: Path = SHIPPED) -> list[Artifact]:
    path = folder / "manifest.json"
    if not path.is_file():
        return []
    known = {f.name for f in dataclasses.fields(Artifact)}
    return [
        Artifact(**{k: v for k, v in a.items() if k in known})
        for a in json.loads(path.read_text())["artifacts"]
    ]


def write_manifest(folder: Path, artifacts: Sequence[Artifact]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    ordered = sorted(artifacts, key=lambda a: (a.module, a.target))
    document = {
        "about": "kiln's prebuilt device code (vm/prebuilt.py); rebuild with: " + REBUILD,
        "artifacts": [a.entry for a in ordered],
    }
    (folder / "manifest.json").write_text(json.dumps(document, indent=2) + "\n")


# ---- building ----------------------------------------------------------------------------------


def build(
    name: str,
    target: str,
    folder: Path,
    *,
    nvrtc: gpu_check.NVRTC | None = None,
    split: int = 1,
    keep_ptx: bool = False,
) -> Artifact:
    """Builds module `name` for `target` into `folder` and returns its manifest entry (the caller
    writes the manifest). The build is CuPy's own: NVRTC on the module's text with its options and
    CuPy's, for the real architecture (-arch=sm_XX), so NVRTC runs its built-in ptxas and no
    separate ptxas (whose version could differ from NVRTC's) is needed. `split` other than 1 asks
    that ptxas run its optimisations on that many threads (-Xptxas=--split-compile=N; 0: every
    core): the cubin may then differ in bytes, not in what it computes. ptxas's -v report is
    kept beside the cubin (`<file>.ptxas.txt`) for the stack and register checks, and with
    `keep_ptx` the PTX of the same compile (`<file>.ptx.xz`: compiler.cuda.stack_need reads
    both)."""
    module = _module(name)
    mod = module.load()
    nvrtc = nvrtc or gpu_check.NVRTC()
    if not nvrtc.version().startswith(f"{CUDA_MAJOR}."):
        raise gpu_check.ToolkitMissing(
            f"NVRTC {nvrtc.version()} is not CUDA {CUDA_MAJOR}: {gpu_check.INSTALL}"
        )
    text = mod.source()
    digest = key(name, target, text)
    extra = ["-Xptxas=-v"] + ([f"-Xptxas=--split-compile={split}"] if split != 1 else [])
    options = gpu_check.runtime_options(mod.OPTIONS, target, "cubin") + extra
    started = time.perf_counter()
    raw, ptx, log = nvrtc.compile_cubin(text, options)
    if raw is None and split != 1 and "split-compile" in log:  # a ptxas without the option
        extra = extra[:1]
        options = options[:-1]
        raw, ptx, log = nvrtc.compile_cubin(text, options)
    seconds = time.perf_counter() - started
    if raw is None:
        raise RuntimeError(f"NVRTC failed on {name} for {target}:\n{log[-4000:]}")
    missing = [e for e in module.entries if f".entry {e}(" not in ptx]
    if ptx and missing:
        raise RuntimeError(f"entries missing from {name}'s PTX: {', '.join(missing)}")
    folder.mkdir(parents=True, exist_ok=True)
    packed = lzma.compress(raw, preset=9)
    out = folder / file_name(name, target, digest)
    out.write_bytes(packed)
    (folder / f"{out.name}.ptxas.txt").write_text(log)
    if keep_ptx:
        (folder / f"{out.name}.ptx.xz").write_bytes(lzma.compress(ptx.encode()))
    return Artifact(
        module=name,
        target=target,
        key=digest,
        file=out.name,
        bytes=len(raw),
        compressed_bytes=len(packed),
        sha256=hashlib.sha256(packed).hexdigest(),
        nvrtc=nvrtc.version(),
        ptxas_options=[f"-arch={target}", *(o for o in extra if o != "-Xptxas=-v")],
        seconds=round(seconds, 1),
        built=time.strftime("%Y-%m-%d"),
    )


def add(folder: Path, artifacts: Sequence[Artifact]) -> None:
    """Adds `artifacts` to `folder`'s manifest, replacing those of the same module and target
    (and removing their files)."""
    kept = []
    replaced = {(a.module, a.target) for a in artifacts}
    for old in read_manifest(folder):
        if (old.module, old.target) in replaced and old.file not in {a.file for a in artifacts}:
            for stale in (
                folder / old.file,
                folder / f"{old.file}.ptxas.txt",
                folder / f"{old.file}.ptx.xz",
            ):
                stale.unlink(missing_ok=True)
        if (old.module, old.target) not in replaced:
            kept.append(old)
    write_manifest(folder, [*kept, *artifacts])


# ---- checking ----------------------------------------------------------------------------------


def drift(folder: Path = SHIPPED) -> list[str]:
    """What is wrong with `folder`'s artifacts against the current sources: one line each (empty
    when every artifact matches and, for the shipped folder, every target of SHIP is there)."""
    problems = []
    artifacts = read_manifest(folder)
    have = {(a.module, a.target) for a in artifacts}
    if folder == SHIPPED:
        for name, targets in SHIP.items():
            for target in targets:
                if (name, target) not in have:
                    problems.append(f"{name} {target}: not shipped")
    for a in artifacts:
        path = folder / a.file
        if a.key != key(a.module, a.target):
            problems.append(
                f"{a.module} {a.target}: built from other sources or options ({a.file})"
            )
        elif not path.is_file():
            problems.append(f"{a.module} {a.target}: {a.file} is missing")
        elif hashlib.sha256(path.read_bytes()).hexdigest() != a.sha256:
            problems.append(f"{a.module} {a.target}: {a.file} is not the file the manifest names")
    return problems


# ---- loading -----------------------------------------------------------------------------------

last_load: dict[str, str] = {}
"""Per module, where the runtime's module came from in this process: "prebuilt <file>" or
"nvrtc (<why>)": the device session reports it."""


def find(name: str, target: str, text: str | None = None) -> Path | None:
    """The artifact of module `name` for `target` matching the current sources (shipped first,
    then this machine's cache), or None."""
    digest = key(name, target, text)
    for folder in (SHIPPED, cache_root()):
        for a in read_manifest(folder):
            if a.module == name and a.target == target and a.key == digest:
                path = folder / a.file
                if path.is_file():
                    return path
    return None


def targets_for(compute_capability: str) -> list[str]:
    """The cubin targets a device of `compute_capability` ("90", "86") runs: its own, then its
    major version's .0 (binary compatible within a major version)."""
    own = f"sm_{compute_capability}"
    base = f"sm_{compute_capability[:-1]}0"
    return [own] if own == base else [own, base]


def load(cupy: Any, name: str, text: str, entries: Sequence[str]) -> Any | None:
    """The module `name` from a matching artifact for the current device (every entry of
    `entries` loaded), or None on a miss; `last_load[name]` says which."""
    if not _prebuilt:
        last_load[name] = f"nvrtc (prebuilt off: {DISABLE}=0 or [runtime] prebuilt = false)"
        return None
    driver = int(cupy.cuda.runtime.driverGetVersion()) // 1000
    if driver < CUDA_MAJOR:
        last_load[name] = f"nvrtc (driver CUDA {driver} is older than the artifacts' {CUDA_MAJOR})"
        return None
    capability = str(cupy.cuda.Device().compute_capability)
    refused = []
    for target in targets_for(capability):
        path = find(name, target, text)
        if path is None:
            continue
        try:
            with tempfile.TemporaryDirectory(prefix="kiln-cubin-") as tmp:
                cubin = Path(tmp) / path.name.removesuffix(".xz")
                cubin.write_bytes(lzma.decompress(path.read_bytes()))
                mod = cupy.RawModule(path=str(cubin))
                for entry in entries:
                    mod.get_function(entry)  # loads the module now, while the file is there
        except Exception as error:  # the driver refused it: compile as before, and say so
            warnings.warn(
                f"prebuilt {path.name} did not load ({error}); compiling {name} with NVRTC",
                stacklevel=2,
            )
            refused.append(f"{path.name} refused: {error}")
            continue
        last_load[name] = f"prebuilt {path.name}"
        return mod
    why = "; ".join(refused) or f"no prebuilt {name} for sm_{capability} and these sources"
    last_load[name] = f"nvrtc ({why})"
    return None


def module(
    cupy: Any,
    name: str,
    text: str,
    options: Sequence[str],
    entries: Sequence[str],
    cache: dict[str, Any],
) -> Any:
    """The module `name` (`cupy.RawModule`) of `text` built with `options`, made once per process
    (`cache`, keyed by the text and the options): from a matching artifact (`load`), else compiled
    by NVRTC now, every entry of `entries` loaded. The caller holds its module's lock."""
    digest = hashlib.sha256("\0".join([text, *options]).encode()).hexdigest()
    if digest not in cache:
        mod = load(cupy, name, text, entries)
        if mod is None:
            mod = cupy.RawModule(code=text, options=options, backend="nvrtc")
            for entry in entries:
                mod.get_function(entry)  # compiles (NVRTC) and loads the module now
        cache[digest] = mod
    return cache[digest]


def ptxas_report(log: str) -> str:
    """ptxas's -v report as standalone ptxas prints it, from NVRTC's log, which prefixes its
    continuation lines with `ptxas .` (`N bytes stack frame` under `Function properties for`)."""
    return re.sub(r"^ptxas\s+\.\s+", "    ", log, flags=re.MULTILINE)


# ---- the commands ------------------------------------------------------------------------------


def cmd_prebuild(args: Any) -> int:
    """`kiln gpu prebuild`: builds artifacts into the shipped folder (--ship) or the cache."""
    folder = SHIPPED if args.ship else cache_root()
    if args.module:
        wanted = [m.strip() for m in args.module.split(",") if m.strip()]
    else:
        wanted = list(SHIP) if args.ship else [m.name for m in gpu_check.MODULES]
    targets = [t.strip() for t in args.arch.split(",") if t.strip()]
    try:
        nvrtc = gpu_check.NVRTC()
    except gpu_check.ToolkitMissing as error:
        print(f"kiln: error: {error}", file=sys.stderr)
        return 2
    built = []
    for name in wanted:
        for target in targets:
            if not args.force and find(name, target) is not None and folder != SHIPPED:
                print(f"{name} {target}: up to date in {find(name, target)}")
                continue
            print(f"{name} {target}: building (NVRTC {nvrtc.version()}) ...", flush=True)
            artifact = build(
                name,
                target,
                folder,
                nvrtc=nvrtc,
                split=args.split,
                keep_ptx=folder != SHIPPED,
            )
            add(folder, [artifact])
            built.append(artifact)
            print(
                f"{name} {target}: {artifact.file}, {artifact.bytes:,} bytes "
                f"({artifact.compressed_bytes:,} compressed) in {artifact.seconds:.0f} s",
                flush=True,
            )
    return 0


def cmd_prebuilt(args: Any) -> int:
    """`kiln gpu prebuilt`: lists the artifacts and checks them against the sources."""
    status = 0
    for label, folder in (("shipped", SHIPPED), ("cached", cache_root())):
        for a in read_manifest(folder):
            fresh = a.key == key(a.module, a.target)
            print(
                f"{label:8} {a.module:9} {a.target:6} {a.compressed_bytes:>9,} B  "
                f"{'matches the sources' if fresh else 'STALE'}  {folder / a.file}"
            )
    problems = drift()
    for line in problems:
        print(f"shipped: {line}: rebuild with `{REBUILD}`")
        status = 1
    return status


def register(gpu_sub: Any) -> None:
    p = gpu_sub.add_parser(
        "prebuild",
        help="build device code ahead (NVRTC to a cubin, as CuPy would) into the shipped "
        "folder (--ship) or this machine's cache, keyed by the sources' hash",
    )
    p.add_argument("--ship", action="store_true", help=f"into {SHIPPED} (what is committed)")
    p.add_argument("--module", help="comma-separated (default: --ship's set, else vm,compiler)")
    p.add_argument("--arch", default=",".join(gpu_check.ARCHS), help="comma-separated targets")
    p.add_argument(
        "--split", type=int, default=1,
        help="ptxas's --split-compile threads (0: every core; default 1: byte-stable cubins)",
    )  # fmt: skip
    p.add_argument("--force", action="store_true", help="rebuild a cached artifact that matches")
    p.set_defaults(func=cmd_prebuild)
    p = gpu_sub.add_parser("prebuilt", help="list the prebuilt device code and check its hashes")
    p.set_defaults(func=cmd_prebuilt)
