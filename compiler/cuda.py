"""The batched compiler on a GPU: kc.h as device code, one thread per program, through CuPy.

`compile_batch_cuda(sources, filenames, arg_types)` keeps `compiler.batched.compile_batch`'s
contract: for each source the container bytes (byte for byte the CPU build's, hence the reference
compiler's at -O0) or `Unsupported(reason)`. The device answers for most programs; a program it
cannot finish is compiled by the CPU build instead, so the results never depend on where a
program was compiled:

- its arena was short (`kc_compile` returned -2): the launch's arena is sized from the longest
  source in it (`kc_arena_bytes`) but capped (`arena_cap`), and a launch holds as many programs
  as `budget` bytes of arenas allow;
- the device refused it for a reason the host build may not have (`DEVICE_ONLY_REASONS`: a float
  literal off Clinger's fast path needs `strtod`, a float `**` to fold needs glibc's `pow`, and
  the device accepts only DEVICE_MAX_DEPTH levels of nesting, not 48, to bound its stack);
- its recursion is not bounded by KC_MAX_DEPTH (`STACK_GUARD`: more than 16 `**` or `elif`, or
  more than 4 `for`, in the source; kc.h's `**`, `elif` and nested-comprehension chains recurse
  without counting a level).

kernels/kc_cuda.cu with kc.h inlined is loaded once per process: from a cubin built ahead for
this text, options and device (vm/prebuilt.py; the device session builds it into the cache with
`kiln gpu prebuild --module compiler`), else compiled by NVRTC (`cupy.RawModule`, cached by a
SHA-256 of the text and the options; CuPy also caches the binary on disk: the first build takes
about 1.5 minutes of one core and 2 GB, most of it ptxas; kc.h's KC_NOINLINE keeps NVVM
from inlining its large and recursive functions into every caller, without which the PTX was
33 MB and ptxas ran out of 23 GB). CuPy is imported lazily:
this module imports, and `available()` answers, on a machine with no GPU.

    from compiler import cuda
    if cuda.available():
        results = cuda.compile_batch_cuda(sources, names, arg_types)

The device stack: kc.h recurses, so ptxas cannot size the stack and the launcher raises
cudaLimitStackSize to STACK_BYTES, derived from the per-function frames `ptxas -v` reports
(`stack_need`, checked against a fresh measurement by tests/test_batched_cuda.py; the numbers are
in docs/BATCHED_COMPILER.md, "On the GPU").
"""

from __future__ import annotations

import inspect
import lzma
import re
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from compiler import batched
from compiler.batched import DIAG_BYTES, KERNELS, Unsupported, _config, compile_batch
from vm import prebuilt
from vm.cuda import POISON, DeviceLeftResults, load_cupy, poisoned
from vm.cuda import CudaUnavailable as CudaUnavailable  # raised by load_cupy: re-exported
from vm.cuda import available as available  # whether CuPy sees a device: the same question
from vm.values import Type

KERNEL = KERNELS / "kc_cuda.cu"
ENTRIES = ("kc_arena_needs", "kc_compile_programs", "kc_gather_containers")

OPTIONS = ("--fmad=false", "--ftz=false", "--prec-div=true", "--prec-sqrt=true")
"""NVRTC options, as vm/cuda.py's: float literals on the fast path are one IEEE multiply or
divide, which must round as the host's does."""

MISSING = "the batched compiler on a GPU needs CuPy and a CUDA device: pip install -e '.[gpu]'"

BLOCK = 64
"""Threads per block: kc is register-hungry and its threads diverge (one program each)."""

KC_OK, KC_UNSUPPORTED, KC_ARENA_SHORT = 0, 1, 2  # statuses (kc.h's kc_status, kc_cuda.cu)

DEFAULT_ARENA_CAP = 64 << 20
"""The most arena one thread gets (kc_arena_bytes of a ~34 kB source); a longer program runs in
an arena this size and, when it needs more, on the CPU build."""

ARENA_FRACTION = 0.5
"""Share of the free device memory (after the stack reservation) one launch's arenas may take,
at most MAX_BUDGET bytes."""

MAX_BUDGET = 32 << 30

ALIGN = 256

DEVICE_ONLY_REASONS = (
    "float literal beyond the fast path",
    "a float ** folded on the device",
    "nesting deeper than the batched compiler's limit",
)
"""Refusals that may be the device build's only (kc.h's and kc_opt.h's __CUDACC__ paths: no
strtod, a pow() that is not glibc's; and DEVICE_MAX_DEPTH): the CPU build compiles those."""

# ---- the device stack ---------------------------------------------------------------------------

DEVICE_MAX_DEPTH = 16
"""KC_MAX_DEPTH in the text NVRTC compiles (kc.h's is 48): the levels of expressions and blocks
the device build accepts (the parser's counter, and the syntax tree's depth the later phases
recurse along). Every level costs up to a few kB of stack for every thread the device can hold;
a deeper program is refused on the device ("nesting deeper than the batched compiler's limit")
and compiled by the CPU build."""

STACK_GUARD = {"**": 16, "elif": 16, "for": 4}
"""A source with more than this many `**`, `elif` or `for` goes to the CPU build (UNCOUNTED: a
turn of the comprehension cycle costs nearly a whole expression level, the others a frame or
two)."""

PER_LEVEL = {"kc_binary_level": 7, "kc_boolop": 2}
"""Functions entered more than once per level of recursion: kc_binary_level once per precedence
level (0 to 6), kc_boolop for `or` then `and`. Every other function of a recursive cycle is
entered at most once per level."""

TYPE_RECURSION = {
    "kc_annotation_at", "kc_spec_type", "kc_descriptor", "kc_resolve_at", "kc_occurs",
    "kc_unify_at", "kc_concrete", "kc_sets_ok", "kc_final_at",
}  # fmt: skip
"""kc.h's recursions over the structure of a type (list[...] and tuple nesting), not the syntax
tree: at most TYPE_LEVELS deep (KC_MAX_TYPE_NESTING 16, KC_MAX_LIST_DEPTH 8), on top of the
tree's levels."""

TYPE_LEVELS = 17

UNCOUNTED = {
    "**": ("kc_power", "kc_factor"),
    "elif": ("kc_if_tail",),
    "for": (  # a comprehension in a comprehension's iterable or condition: [x for x in [...]]
        "kc_comp_generators", "kc_boolop", "kc_inversion", "kc_comparison", "kc_binary_level",
        "kc_factor", "kc_power", "kc_atom", "kc_postfix", "kc_call_args", "kc_comprehension",
    ),
}  # fmt: skip
"""The recursive cycles of kc.h's parser that do not count a KC_MAX_DEPTH level (found by
compiling 100000-deep chains with the CPU build, which overflows its C stack on these three
only), by the text that drives each turn: the launcher sends a source with more than STACK_GUARD
of that text to the CPU build; each turn costs the frames of its functions (PER_LEVEL times)."""

STACK_BYTES = 144 << 10
"""cudaLimitStackSize for kc_compile_programs: at least `stack_need` of the measured frames
(123,584 and 76,592 bytes for two versions of kc.h on 2026-11-21 with nvcc 13.0 for sm_90;
tests/test_batched_cuda.py re-measures). The driver reserves it for every thread the
device can hold: 132 SMs x 2048 threads x 144 KiB = 39.9 GB on an H100 or H200."""


def _short(name: str) -> str:
    """`_ZN..._kc_cuda_cu_23996051 15kc_binary_levelEP6kc_ctxi` -> `kc_binary_level`."""
    if not name.startswith("_Z"):
        return name
    match = re.search(r"(kc_[a-z0-9_]+?)E[A-Z]", name.rsplit("_cu_", 1)[-1])
    return match.group(1) if match else name


def ptx_call_graph(ptx: str) -> dict[str, set[str]]:
    """Each function of the PTX text (short names) -> the functions it calls."""
    bodies = re.split(r"\n(?=(?:\.visible |\.weak |\.extern )?\.(?:func|entry)\b)", ptx)
    graph: dict[str, set[str]] = {}
    raw: dict[str, str] = {}
    for body in bodies:
        match = re.match(
            r"(?:\.visible |\.weak |\.extern )?\.(?:func|entry)\s+(?:\([^)]*\)\s*)?([\w$]+)", body
        )
        if match and "{" in body:
            raw[match.group(1)] = body
    names = set(raw)
    for name, body in raw.items():
        called = set()
        for call in re.finditer(r"\bcall(?:\.uni)?\b([^;]*);", body):
            called |= {word for word in re.findall(r"[\w$]+", call.group(1)) if word in names}
        graph[_short(name)] = {_short(c) for c in called}
    return graph


def ptxas_frames(report: str) -> dict[str, int]:
    """`ptxas -v` output -> each function's stack frame in bytes (short names)."""
    frames = {}
    for match in re.finditer(r"Function properties for (\S+)\s+(\d+) bytes stack frame", report):
        frames[_short(match.group(1))] = int(match.group(2))
    return frames


def _sccs(graph: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components (Tarjan), callees' components before their callers'."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            out.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _heaviest_cycle(graph: dict[str, set[str]], component: set[str], weight: dict[str, int]) -> int:
    """The largest total weight of a simple cycle inside `component` (a self-call: its own)."""
    order = sorted(component)
    best = 0
    for start_index, start in enumerate(order):
        allowed = set(order[start_index:])  # each cycle counted from its first node in order
        stack = [(start, weight[start], {start})]
        while stack:
            node, total, seen = stack.pop()
            for callee in graph[node]:
                if callee == start:
                    best = max(best, total)
                elif callee in allowed and callee not in seen:
                    stack.append((callee, total + weight[callee], seen | {callee}))
    return best


def stack_need(ptx: str, report: str, entry: str = "kc_compile_programs") -> dict[str, Any]:
    """The stack one thread of `entry` can use, from the PTX call graph and the ptxas frames.

    One level of recursion (a KC_MAX_DEPTH level: the parser's depth counter, or a level of the
    syntax tree the later phases recurse along, both capped) goes once around a simple cycle of
    the call graph, entering the functions of PER_LEVEL that many times: it costs at most the
    heaviest such cycle. At most DEVICE_MAX_DEPTH levels are on the stack at once, plus STACK_GUARD
    turns of each UNCOUNTED cycle, plus the deepest path through the rest of the call graph
    (every function of each recursive component on it once), and the recursions over a type's
    structure (TYPE_RECURSION) TYPE_LEVELS turns of theirs. Returns the bound and its parts."""
    graph = ptx_call_graph(ptx)
    frames = ptxas_frames(report)
    missing = sorted(f for f in graph if f not in frames)
    if missing:
        raise ValueError(f"ptxas reported no stack frame for {missing}")
    weight = {f: frames[f] * PER_LEVEL.get(f, 1) for f in graph}
    components = _sccs(graph)
    recursive = [c for c in components if len(c) > 1 or any(f in graph[f] for f in c)]
    owner = {f: frozenset(c) for c in components for f in c}
    deepest: dict[frozenset[str], int] = {}
    for component in components:  # callees first
        key = frozenset(component)
        below = [deepest[owner[g]] for f in component for g in graph[f] if owner[g] != key]
        deepest[key] = sum(weight[f] for f in component) + max(below, default=0)
    cycles = {min(c): _heaviest_cycle(graph, c, weight) for c in recursive}
    typed = {min(c) for c in recursive if c <= TYPE_RECURSION}
    level = max((v for k, v in cycles.items() if k not in typed), default=0)
    type_level = max((v for k, v in cycles.items() if k in typed), default=0)
    uncounted = {
        text: sum(weight[f] for f in chain if f in weight)
        for text, chain in UNCOUNTED.items()
        if chain[0] in graph
    }
    need = (
        deepest[owner[entry]]
        + DEVICE_MAX_DEPTH * level
        + TYPE_LEVELS * type_level
        + sum(STACK_GUARD[text] * cost for text, cost in uncounted.items())
    )
    return {
        "need": need,
        "path": deepest[owner[entry]],
        "level": level,
        "type_level": type_level,
        "cycles": cycles,
        "uncounted": uncounted,
        "recursive": [sorted(c) for c in recursive],
        "frames": frames,
    }


# ---- the device and the compiled module ----------------------------------------------------------


def _cupy() -> Any:
    return load_cupy(MISSING)


_INCLUDE = re.compile(r'^#include "([^"]+)"\s*$', re.MULTILINE)
_DEPTH = re.compile(r"^#define KC_MAX_DEPTH \d+", re.MULTILINE)


def source() -> str:
    """kc_cuda.cu with its local includes inlined (kc.h, and what kc.h includes, with the VM's
    vm/kernels/scalar.h and kiln_isa.h), each once, and
    KC_MAX_DEPTH set to DEVICE_MAX_DEPTH: the exact text NVRTC compiles (its hash covers every
    source)."""
    seen: set[Path] = set()

    def expand(path: Path) -> str:
        path = path.resolve()
        if path in seen:
            return ""
        seen.add(path)
        text = path.read_text()  # an include is found next to the file that names it, as in C
        return _INCLUDE.sub(lambda m: expand(path.parent / m.group(1)), text)

    text, count = _DEPTH.subn(f"#define KC_MAX_DEPTH {DEVICE_MAX_DEPTH}", expand(KERNEL))
    if count != 1:
        raise RuntimeError(f"kc.h should define KC_MAX_DEPTH once, found {count} definitions")
    return text


last_stats: dict[str, int] = {}
"""What the last compile_batch_cuda did: launches, programs finished on the device, and programs
sent to the CPU build because their arena was short, for a device-only reason, or unbounded."""

_modules: dict[str, Any] = {}
_lock = threading.Lock()


def module() -> Any:
    """The kernels (`cupy.RawModule`), loaded on first use in this process: from the cubin
    matching this text, options and device (vm/prebuilt.py: built by the device session into the
    cache), else compiled by NVRTC (about 1.5 minutes of one core)."""
    cupy = _cupy()
    with _lock:
        return prebuilt.module(cupy, "compiler", source(), OPTIONS, ENTRIES, _modules)


def ensure_stack(cupy: Any) -> int:
    """Raises the current device's cudaLimitStackSize to STACK_BYTES (never lowers it: the VM's
    kernels share the context). The driver reserves that much local memory for every thread the
    device can hold at once (`stack_reservation`); a device without that much free memory is
    refused with a RuntimeError that says so. Returns the limit now in force."""
    runtime = cupy.cuda.runtime
    limit = getattr(runtime, "cudaLimitStackSize", 0)  # enum cudaLimit: cudaLimitStackSize = 0
    with _lock:
        current = int(runtime.deviceGetLimit(limit))
        if current < STACK_BYTES:
            reserve = stack_reservation(cupy)
            free, _ = runtime.memGetInfo()
            problem = None
            if reserve > 0.9 * free:
                problem = f"only {free / 1e9:.1f} GB are free"
            else:
                try:
                    runtime.deviceSetLimit(limit, STACK_BYTES)
                except Exception as error:
                    problem = str(error)
            if problem is not None:
                raise RuntimeError(
                    f"the batched compiler needs {STACK_BYTES} bytes of stack a device thread, "
                    f"{reserve / 1e9:.1f} GB for every thread it can hold, and {problem}: use "
                    "compiler.batched.compile_batch (docs/BATCHED_COMPILER.md, On the GPU)"
                )
            current = int(runtime.deviceGetLimit(limit))
        if current < STACK_BYTES:
            raise RuntimeError(f"the device stack is {current} bytes, kc needs {STACK_BYTES}")
        return current


def stack_reservation(cupy: Any) -> int:
    """Bytes of device memory STACK_BYTES a thread takes: every thread the device can hold."""
    runtime = cupy.cuda.runtime
    props = runtime.getDeviceProperties(cupy.cuda.Device().id)
    return (
        STACK_BYTES * int(props["maxThreadsPerMultiProcessor"]) * int(props["multiProcessorCount"])
    )


# ---- compiling ----------------------------------------------------------------------------------


def _refusal(raw: bytes, filename: str, cpu_options: dict[str, Any]) -> Any:
    """A refused program's result, as compile_batch makes it from the same diagnostic bytes."""
    decode = getattr(batched, "decode_diagnostic", None)
    if decode is None:  # a compile_batch that only reports reasons
        return Unsupported(raw.split(b"\0", 1)[0].decode(errors="replace"))
    got = decode(raw, filename)
    parameter = inspect.signature(compile_batch).parameters.get("diagnostics")
    wanted = cpu_options.get("diagnostics", parameter.default if parameter else False)
    if not isinstance(got, Unsupported) and not wanted:
        got = Unsupported(f"unsupported by the batched compiler: diagnosed {got}")
    return got


def _on_device_only(reason: str) -> bool:
    return any(text in reason for text in DEVICE_ONLY_REASONS)


_FOR_STATEMENT = re.compile(r"[ \t]*for\b.*:[ \t]*$")


def _turns(source_: str, text: str) -> int:
    """At least the turns of the UNCOUNTED cycle `text` drives: its occurrences, but for `for`
    not those that begin a one-line `for ...:` header (a for statement, whose recursion counts)."""
    count = source_.count(text)
    if text == "for" and count:
        for line in source_.splitlines():
            if _FOR_STATEMENT.match(line) and all(
                line.count(a) == line.count(b) for a, b in ("()", "[]", "{}")
            ):
                count -= 1
    return count


def _unbounded(source_: str) -> bool:
    return any(_turns(source_, text) > limit for text, limit in STACK_GUARD.items())


def _plan(needs: np.ndarray, arena_cap: int, budget: int) -> list[tuple[int, int, int]]:
    """Launches over programs sorted by need: (start, stop, arena bytes a thread)."""
    arenas = (np.minimum(needs, arena_cap) + ALIGN - 1) // ALIGN * ALIGN
    launches = []
    start = 0
    while start < len(needs):
        rest = arenas[start:]  # non-decreasing: the last program of a launch sizes its arenas
        fits = rest * np.arange(1, len(rest) + 1, dtype=np.int64) <= budget
        count = int(np.argmin(fits)) if not fits.all() else len(rest)
        if count == 0:
            count = 1  # one program whose arena exceeds the budget: run it alone
        launches.append((start, start + count, int(rest[count - 1])))
        start += count
    return launches


def compile_batch_cuda(
    sources: Sequence[str],
    filenames: Sequence[str] | None = None,
    arg_types: Sequence[Mapping[str, Sequence[Type]] | None] | None = None,
    *,
    arena_cap: int = DEFAULT_ARENA_CAP,
    budget: int | None = None,
    **cpu_options: Any,
) -> list[bytes | Unsupported]:
    """`compile_batch(sources, filenames, arg_types, passes=...)` on the current CUDA device: the
    same results, programs the device cannot finish compiled by the CPU build (`cpu_options` are
    compile_batch's: `passes` for both builds, `threads` for the CPU's). `arena_cap`: the most
    arena bytes a thread gets; `budget`: the most bytes of arenas one launch allocates (default:
    ARENA_FRACTION of the free memory, at most MAX_BUDGET). Raises CudaUnavailable without CuPy
    or a device."""
    accepted = inspect.signature(compile_batch).parameters
    unknown = sorted(set(cpu_options) - set(accepted))
    if unknown:
        raise TypeError(f"compile_batch_cuda() got unexpected keyword arguments {unknown}")
    passes = cpu_options.get("passes", True)  # compile_batch's default: every pass
    n = len(sources)
    if n == 0:
        return []
    names, specs = batched.columns(sources, filenames, arg_types)
    cupy = _cupy()
    functions = module()
    ensure_stack(cupy)

    results: list[bytes | Unsupported | None] = [None] * n
    *packed, not_utf8 = batched.packable(sources, names, specs)  # the CPU build: NOT_UTF8
    unbounded = {i for i in range(n) if _unbounded(sources[i])}
    on_cpu = sorted(unbounded | set(not_utf8))
    stats = {
        "launches": 0,
        "device": 0,
        "arena_short": 0,
        "device_only": 0,
        "unbounded": len(unbounded),
    }
    cpu_set = set(on_cpu)
    device_ids = np.array([i for i in range(n) if i not in cpu_set], dtype=np.int64)
    if len(device_ids):
        buffer, columns = batched.pack(*packed)
        offsets = np.array(columns, dtype=np.int64)
        d_buf = cupy.asarray(np.frombuffer(buffer + b"\0", dtype=np.uint8))
        d_off = [cupy.asarray(offsets[k]) for k in range(6)]
        cfg = _config(passes) if "passes" in inspect.signature(_config).parameters else _config()
        d_cfg = cupy.asarray(np.frombuffer(bytes(cfg), dtype=np.uint8))
        # poisoned, not a plausible KC_UNSUPPORTED with an empty reason: a program a launch left
        # unwritten raises (DeviceLeftResults) instead of passing for a refusal
        status = poisoned(cupy, n, np.int32)
        out_off = cupy.zeros(n, dtype=np.int64)
        out_len = cupy.zeros(n, dtype=np.int64)
        need = cupy.zeros(n, dtype=np.int64)
        diags = poisoned(cupy, n * DIAG_BYTES, np.uint8)

        needs = cupy.zeros(n, dtype=np.int64)
        grid = (min((n + BLOCK - 1) // BLOCK, 4096),)
        functions.get_function("kc_arena_needs")(
            grid, (BLOCK,), (d_off[1], d_off[3], np.int64(n), needs)
        )
        host_needs = needs.get()[device_ids]
        order = device_ids[np.argsort(host_needs, kind="stable")]
        if budget is None:
            free, _ = cupy.cuda.runtime.memGetInfo()
            budget = min(int(free * ARENA_FRACTION), MAX_BUDGET)
        arena_cap = max(ALIGN, min(arena_cap, budget))
        blobs = []
        for start, stop, arena in _plan(np.sort(host_needs, kind="stable"), arena_cap, budget):
            ids = order[start:stop]
            count = len(ids)
            d_ids = cupy.asarray(ids)
            arenas = cupy.empty(count * arena, dtype=np.uint8)
            functions.get_function("kc_compile_programs")(
                ((count + BLOCK - 1) // BLOCK,), (BLOCK,),
                (d_buf, *d_off, d_ids, np.int64(count), d_cfg, arenas, np.int64(arena), status,
                 out_off, out_len, need, diags),
            )  # fmt: skip
            lengths = out_len[d_ids]
            ends = cupy.cumsum(lengths)
            starts = ends - lengths
            total = int(ends[-1])
            dest = poisoned(cupy, max(total, 1), np.uint8)  # bytes not gathered show
            functions.get_function("kc_gather_containers")(
                (min(count, 65535),), (128,),
                (arenas, np.int64(arena), d_ids, np.int64(count), out_off, out_len, starts, dest),
            )  # fmt: skip
            blobs.append((ids, dest[:total].get().tobytes()))
            stats["launches"] += 1
            del arenas, dest
        host_status = status.get()
        left = [i for i in device_ids.tolist() if host_status[i] == POISON[np.dtype(np.int32)]]
        if left:
            raise DeviceLeftResults(
                f"kc_compile_programs left {len(left)} of {len(device_ids)} programs unwritten: "
                f"{left[:10]}"
            )
        host_len = out_len.get()
        host_diags = diags.get().tobytes()
        for ids, blob in blobs:
            at = 0
            for i in ids.tolist():
                if host_status[i] == KC_OK:
                    results[i] = blob[at : at + int(host_len[i])]
                    at += int(host_len[i])
                    stats["device"] += 1
                elif host_status[i] == KC_UNSUPPORTED:
                    got = _refusal(
                        host_diags[i * DIAG_BYTES : (i + 1) * DIAG_BYTES], names[i], cpu_options
                    )
                    if isinstance(got, Unsupported) and _on_device_only(got.reason):
                        on_cpu.append(i)
                        stats["device_only"] += 1
                    else:
                        results[i] = got
                        stats["device"] += 1
                else:  # KC_ARENA_SHORT
                    on_cpu.append(i)
                    stats["arena_short"] += 1
    if on_cpu:
        on_cpu.sort()
        redone = compile_batch(
            [sources[i] for i in on_cpu],
            [names[i] for i in on_cpu],
            [specs[i] for i in on_cpu],
            **cpu_options,
        )
        for i, result in zip(on_cpu, redone, strict=True):
            results[i] = result
    # a redefined def or a `__main__` guard, refused on the device: its blanked view, as
    # compile_batch compiles it (on the CPU build: few programs, the same bytes)
    views = 0

    def compile_views(idx: list[int], texts: list[str]) -> list[bytes | Unsupported]:
        nonlocal views
        views = len(idx)
        options = {k: v for k, v in cpu_options.items() if k != "diagnostics"}
        return compile_batch(texts, [names[i] for i in idx], [specs[i] for i in idx], **options)

    batched.blanked_again(results, sources, compile_views)
    stats["blanked_on_cpu"] = views
    last_stats.clear()
    last_stats.update(stats)
    assert all(r is not None for r in results)
    return results  # type: ignore[return-value]


def stack_check(target: str = "sm_90") -> dict[str, Any]:
    """stack_need on the batched compiler's cached build for `target` (its PTX and
    ptxas report, kept by `kiln gpu prebuild`): the bound, the launcher's STACK_BYTES, and
    whether the bound is within it. LookupError without such a build."""
    path = prebuilt.find("compiler", target)
    ptx_path = path.with_name(f"{path.name}.ptx.xz") if path else None
    if path is None or ptx_path is None or not ptx_path.is_file():
        raise LookupError(f"no cached build of the compiler for {target} with its PTX")
    ptx = lzma.decompress(ptx_path.read_bytes()).decode()
    report = prebuilt.ptxas_report(path.with_name(f"{path.name}.ptxas.txt").read_text())
    bound = stack_need(ptx, report)
    return {
        "need": bound["need"],
        "stack_bytes": STACK_BYTES,
        "ok": bound["need"] <= STACK_BYTES,
        "path": bound["path"],
        "level": bound["level"],
        "type_level": bound["type_level"],
    }
