"""The batched compiler on a GPU (compiler/cuda.py, compiler/kernels/kc_cuda.cu).

Without a GPU (when nvcc is installed): the kernel file, and the very text NVRTC gets, build to
PTX for sm_90 and sm_80 with every entry point; `ptxas -v` gives the frame of every function and
the launcher's stack limit is at least the bound derived from them (compiler.cuda.stack_need);
the launch planning and the packing are checked on the host.

With a GPU (`gpu` marker; skipped elsewhere): the device's results are exactly the CPU build's
(`compile_batch`) for the golden corpus, 1000 generated programs of levels 0-5 and fuzzed sources
(random bytes, nesting at and past KC_MAX_DEPTH, long chains), over several launches, and with
programs whose arena is short retried on the CPU build.
"""

from __future__ import annotations

import ctypes
import hashlib
import random
import re
import shutil
import subprocess
import types
from pathlib import Path

import numpy as np
import pytest
from _corpus import call_types

from compiler import cuda
from compiler.batched import KERNELS, Unsupported, compile_batch, pack
from fuzz.generator import generate
from vm.build import cache_dir
from vm.values import type_of_value

CORPUS = Path(__file__).parent / "programs"
NVCC = shutil.which("nvcc")
PTXAS = shutil.which("ptxas")
NVCC_OPTIONS = [*cuda.OPTIONS]  # nvcc reads NVRTC's --fmad/--ftz/--prec-* options as they are

needs_nvcc = pytest.mark.skipif(NVCC is None, reason="needs nvcc (the CUDA toolkit)")


def _ptx(arch: str, kernel: Path, out: Path) -> str:
    assert NVCC is not None
    command = [NVCC, "-ptx", f"-arch={arch}", *NVCC_OPTIONS, f"-I{KERNELS}", str(kernel)]
    done = subprocess.run([*command, "-o", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stderr}"
    return out.read_text()


@pytest.fixture(scope="module")
def ptx_sm90(tmp_path_factory) -> str:
    """The text NVRTC gets (kc_cuda.cu with kc.h inlined, the device's KC_MAX_DEPTH) as PTX for
    sm_90: what the stack is measured on."""
    directory = tmp_path_factory.mktemp("ptx")
    text = cuda.source()
    assert '#include "' not in text  # inlined: the hash of this text covers every source
    assert f"#define KC_MAX_DEPTH {cuda.DEVICE_MAX_DEPTH}" in text
    (directory / "kc_nvrtc.cu").write_text(text)
    return _ptx("sm_90", directory / "kc_nvrtc.cu", directory / "kc_nvrtc.ptx")


@needs_nvcc
def test_the_text_nvrtc_gets_builds_to_ptx_for_sm_90(ptx_sm90):
    for entry in cuda.ENTRIES:
        assert f".entry {entry}(" in ptx_sm90


@pytest.mark.slow  # 1.5 minutes of nvcc; the sm_90 build above checks the same source each run
@needs_nvcc
def test_kernel_file_builds_to_ptx_for_sm_80(tmp_path):
    ptx = _ptx("sm_80", cuda.KERNEL, tmp_path / "kc_cuda.ptx")
    for entry in cuda.ENTRIES:
        assert f".entry {entry}(" in ptx


def _ptxas_report(ptx: str) -> str:
    """`ptxas -v` of the PTX (sm_90, default optimisation, as the driver builds it), cached by a
    hash of the PTX and of ptxas's version: ptxas takes minutes on kc.h's inlined functions."""
    assert PTXAS is not None
    version = subprocess.run([PTXAS, "--version"], capture_output=True, text=True).stdout
    digest = hashlib.sha256((version + "\0" + ptx).encode()).hexdigest()[:20]
    cached = cache_dir() / f"kc_cuda-ptxas-{digest}.txt"
    if cached.exists():
        return cached.read_text()
    source = cache_dir() / f".kc_cuda-{digest}.ptx"
    cache_dir().mkdir(parents=True, exist_ok=True)
    source.write_text(ptx)
    command = [PTXAS, "-arch=sm_90", "-v", str(source), "-o", "/dev/null"]
    done = subprocess.run(command, capture_output=True, text=True)
    source.unlink()
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stderr}"
    report = done.stdout + done.stderr
    cached.write_text(report)
    return report


# the functions of kc.h whose recursion the stack model (compiler.cuda.stack_need) was checked
# against: each turn of their cycles counts a KC_MAX_DEPTH level (the parser's depth counter or
# the tree depth), except compiler.cuda.UNCOUNTED's, which the launcher's STACK_GUARD bounds
REVIEWED_RECURSION = {
    # parser: kc_expr, unary and `not`, subscripts and blocks count a level; UNCOUNTED's do not
    "kc_atom", "kc_binary_level", "kc_boolop", "kc_call_args", "kc_comp_generators",
    "kc_comparison", "kc_expr", "kc_factor", "kc_inversion", "kc_postfix", "kc_power",
    "kc_slice_part", "kc_block", "kc_if_tail", "kc_statement",
    # a loop's body and else block (kc_loop_blocks: kc_block, a turn of the statement cycle
    # written once); a display made a comprehension (kc_comprehension: its generators, a turn of
    # UNCOUNTED's `for` chain); the copy of a plain operand's unary chain (kc_copy_plain: as deep
    # as the unary levels the parser counted)
    "kc_loop_blocks", "kc_comprehension", "kc_copy_plain",
    # later phases: along the syntax tree, whose depth the parser caps (kc_child_depth; one
    # level per comprehension generator)
    "kc_add_target", "kc_reads", "kc_flow_block", "kc_flow_stmt", "kc_check_block",
    "kc_check_stmt", "kc_builtin_type", "kc_index_type", "kc_iteration", "kc_range_args",
    "kc_seq_type", "kc_sequence", "kc_truth_type", "kc_type_expr", "kc_binop", "kc_branch",
    "kc_comp_level", "kc_list_method", "kc_loop_body", "kc_lower_block", "kc_lower_call",
    "kc_lower_expr", "kc_lower_stmt", "kc_range_loop", "kc_seq_loop", "kc_truth", "kc_zip_loop",
    "kc_dict_get", "kc_dict_loop", "kc_lower_set_add", "kc_sequence_set",
    # whether a block may end or a break leaves its loop (the if, else and loop blocks nested
    # in it); next(g, d) and round(x, n) type their arguments, `xs[:] = v` lowers xs: children
    "kc_breaks_out", "kc_may_fall_off", "kc_next_type", "kc_round_ndigits", "kc_slice_store",
    # one turn of a cycle above, written once (helpers that ptxas may or may not inline): the
    # loop body (kc_loop_in), a loop's else block (kc_flow_loop_else), a comprehension's
    # generators (kc_type_generators) follow the tree; kc_child_expr's kc_expr counts a level
    "kc_loop_in", "kc_flow_loop_else", "kc_type_generators", "kc_child_expr",
    # a comparison's typing (kc_type_expr's E_COMPARE): `type(x) == C`, `x in range(a, b)` and
    # `f(x) == v` of an Optional result type the comparison's own operands and range's
    # arguments, children in the tree whose depth the parser caps (KC_MAX_DEPTH); their
    # made-up chain is typed in place, not walked
    "kc_type_compare", "kc_range_membership", "kc_opt_compare",
    # over a type's structure (compiler.cuda.TYPE_RECURSION), capped by KC_MAX_TYPE_NESTING
    *cuda.TYPE_RECURSION,
}  # fmt: skip


@pytest.mark.slow  # ptxas takes 1-2.5 minutes and 1.6-3.5 GB
@pytest.mark.skipif(NVCC is None or PTXAS is None, reason="needs nvcc and ptxas")
def test_the_stack_limit_covers_the_measured_frames(ptx_sm90):
    report = _ptxas_report(ptx_sm90)
    assert re.search(r"Compiling entry function 'kc_compile_programs' for 'sm_90'", report)
    bound = cuda.stack_need(ptx_sm90, report)
    print(
        f"kc_compile_programs stack: path {bound['path']} + {cuda.DEVICE_MAX_DEPTH} x"
        f" {bound['level']} + {cuda.TYPE_LEVELS} x {bound['type_level']}"
        f" + {cuda.STACK_GUARD} x {bound['uncounted']} = {bound['need']} bytes"
        f" (heaviest cycles {bound['cycles']});"
        f" the launcher sets {cuda.STACK_BYTES}"
    )
    new = sorted({f for c in bound["recursive"] for f in c} - REVIEWED_RECURSION)
    assert not new, (
        f"kc.h has new recursive functions {new}: check that each turn of their recursion counts "
        "a KC_MAX_DEPTH level (else add them to compiler.cuda.UNCOUNTED), then to this list"
    )
    for chain in cuda.UNCOUNTED.values():  # the uncounted cycles are still cycles
        assert any(set(chain) <= set(c) for c in bound["recursive"]), chain
    assert bound["frames"]["kc_compile_programs"] > 0
    assert cuda.STACK_BYTES >= bound["need"]


# ---- host-side pieces (no device) -----------------------------------------------------------


def test_launches_fit_the_budget_and_cover_every_program():
    rng = np.random.default_rng(3)
    needs = np.sort(rng.integers(1, 5_000_000, size=500))
    for cap, budget in ((1 << 20, 64 << 20), (64 << 20, 256 << 20), (8 << 20, 4 << 20)):
        launches = cuda._plan(needs, cap, budget)
        assert launches[0][0] == 0 and launches[-1][1] == len(needs)
        for (_, stop, _), (start, _, _) in zip(launches, launches[1:], strict=False):
            assert stop == start
        for start, stop, arena in launches:
            assert arena % cuda.ALIGN == 0 and arena >= min(int(needs[stop - 1]), cap)
            assert arena <= max(cap, cuda.ALIGN) + cuda.ALIGN
            assert (stop - start) * arena <= budget or stop - start == 1


def test_packing_lays_out_sources_names_and_specs():
    sources = ["def f() -> int:\n    return 1\n", "", "def g(x):\n    return x\n"]
    names = ["a.py", "b.py", "c.py"]
    specs = [None, None, {"g": [type_of_value(1)]}]
    buffer, offsets = pack(sources, names, specs)  # what both drivers read
    for i, (source, name) in enumerate(zip(sources, names, strict=True)):
        assert buffer[offsets[0][i] : offsets[0][i] + offsets[1][i]] == source.encode()
        assert buffer[offsets[2][i] : offsets[2][i] + offsets[3][i]] == name.encode()
    assert buffer[offsets[4][2] : offsets[4][2] + offsets[5][2]] == b"g i\n"


def test_unbounded_chains_go_to_the_cpu_build():
    assert not cuda._unbounded("def f() -> int:\n    return 2 ** 3\n")
    guard = cuda.STACK_GUARD
    assert cuda._unbounded("def f() -> int:\n    return 1" + " ** 1" * (guard["**"] + 1))
    assert not cuda._unbounded("def f() -> int:\n    return 1" + " ** 1" * guard["**"])
    assert cuda._unbounded("elif x:\n    pass\n" * (guard["elif"] + 1))
    assert cuda._unbounded("[x for x in " * (guard["for"] + 1))
    loops = "".join(f"{'    ' * i}for x{i} in range(3):\n" for i in range(guard["for"] + 3))
    assert not cuda._unbounded(loops)  # for statements count their levels
    assert cuda._unbounded(loops.replace(":", ":  # [", guard["for"] + 1))  # not sure: CPU


def test_without_a_device_it_says_so():
    if cuda.available():
        pytest.skip("a CUDA device is present")
    with pytest.raises(cuda.CudaUnavailable, match="CuPy and a CUDA device"):
        cuda.compile_batch_cuda(["def f() -> int:\n    return 1\n"])
    assert cuda.compile_batch_cuda([]) == []


def test_options_it_does_not_know_are_refused():
    with pytest.raises(TypeError, match="unexpected keyword"):
        cuda.compile_batch_cuda([], no_such_option=1)


# ---- the launcher on a host emulation of the kernels (no device) ------------------------------

EMULATION_HEAD = r"""
#define __global__
struct kc_dim3 { unsigned x, y, z; };
static kc_dim3 blockIdx, blockDim, threadIdx, gridDim;
"""  # then cuda.source(): the text NVRTC gets, with the device's KC_MAX_DEPTH

EMULATION = r"""

/* each kernel run thread by thread: grid x block "threads", in order */
#define KC_EACH_THREAD(grid, block, call)                                    \
    gridDim.x = grid; blockDim.x = block;                                    \
    for (unsigned b = 0; b < grid; b++)                                      \
        for (unsigned t = 0; t < block; t++) { blockIdx.x = b; threadIdx.x = t; call; }

extern "C" void emu_kc_arena_needs(unsigned grid, unsigned block, const int64_t *src_len,
                                   const int64_t *name_len, int64_t n, int64_t *need) {
    KC_EACH_THREAD(grid, block, kc_arena_needs(src_len, name_len, n, need))
}
extern "C" void emu_kc_compile_programs(unsigned grid, unsigned block, const char *buf,
        const int64_t *src_off, const int64_t *src_len, const int64_t *name_off,
        const int64_t *name_len, const int64_t *spec_off, const int64_t *spec_len,
        const int64_t *ids, int64_t count, const kc_config *cfg, uint8_t *arenas,
        int64_t arena_cap, int32_t *status, int64_t *out_off, int64_t *out_len, int64_t *need,
        char *diags) {
    KC_EACH_THREAD(grid, block, kc_compile_programs(buf, src_off, src_len, name_off, name_len,
        spec_off, spec_len, ids, count, cfg, arenas, arena_cap, status, out_off, out_len, need,
        diags))
}
extern "C" void emu_kc_gather_containers(unsigned grid, unsigned block, const uint8_t *arenas,
        int64_t arena_cap, const int64_t *ids, int64_t count, const int64_t *out_off,
        const int64_t *out_len, const int64_t *dest_off, uint8_t *dest) {
    KC_EACH_THREAD(grid, block, kc_gather_containers(arenas, arena_cap, ids, count, out_off,
        out_len, dest_off, dest))
}
"""


class _HostArray(np.ndarray):
    """A numpy array standing in for a CuPy one (`.get()` copies it "to the host")."""

    def get(self) -> np.ndarray:
        return np.array(self)


class _HostCupy:
    """The part of CuPy compile_batch_cuda uses, on host memory, its kernels run by `lib`."""

    def __init__(self, lib, free: int) -> None:
        self.lib = lib
        self.limit = 1024
        runtime = types.SimpleNamespace(
            cudaLimitStackSize=0,
            getDeviceCount=lambda: 1,
            memGetInfo=lambda: (free, 2 * free),
            deviceGetLimit=lambda which: self.limit,
            deviceSetLimit=lambda which, value: setattr(self, "limit", value),
            getDeviceProperties=lambda device: {
                "maxThreadsPerMultiProcessor": 64,
                "multiProcessorCount": 1,
            },
        )
        self.cuda = types.SimpleNamespace(
            runtime=runtime, Device=lambda: types.SimpleNamespace(id=0)
        )

    @staticmethod
    def asarray(a):
        return np.ascontiguousarray(a).view(_HostArray)

    def zeros(self, n, dtype):
        return self.asarray(np.zeros(n, dtype))

    def empty(self, n, dtype):
        return self.asarray(np.empty(n, dtype))

    def full(self, n, value, dtype):
        return self.asarray(np.full(n, value, dtype))

    def cumsum(self, a):
        return self.asarray(np.cumsum(a))

    def get_function(self, name: str):
        function = getattr(self.lib, f"emu_{name}")

        def launch(grid, block, args) -> None:
            converted = [
                ctypes.c_void_p(a.ctypes.data)
                if isinstance(a, np.ndarray)
                else ctypes.c_int64(int(a))
                for a in args
            ]
            function(ctypes.c_uint(grid[0]), ctypes.c_uint(block[0]), *converted)

        return launch


@pytest.fixture(scope="module")
def host_cupy(tmp_path_factory):
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("needs g++")
    directory = tmp_path_factory.mktemp("emu")
    (directory / "emu.cpp").write_text(EMULATION_HEAD + cuda.source() + EMULATION)
    library = directory / "emu.so"
    command = [gxx, "-std=c++17", "-O1", "-fPIC", "-shared", f"-I{KERNELS}", "emu.cpp"]
    done = subprocess.run(
        [*command, "-o", str(library)], capture_output=True, text=True, cwd=directory
    )
    assert done.returncode == 0, done.stderr
    return _HostCupy(ctypes.CDLL(str(library)), free=256 << 20)


@pytest.fixture()
def emulated(host_cupy, monkeypatch):
    monkeypatch.setattr(cuda, "_cupy", lambda: host_cupy)
    monkeypatch.setattr(cuda, "module", lambda: host_cupy)
    return host_cupy


def test_emulated_launcher_gives_the_cpu_build_results(emulated):
    # kc_cuda.cu's kernels compiled for the host (strtod included: only the device's depth limit
    # makes a device-only refusal)
    paths = sorted(CORPUS.rglob("*.py"))[::4]
    sources = [p.read_text() for p in paths]
    sources += [generate(seed, complexity=seed % 6).source for seed in range(120)]
    sources += ["", "def f() -> int:\n    return " + "(" * 47 + "1" + ")" * 47 + "\n"]
    sources += ["def f() -> int:\n    return 2" + " ** 1" * 17 + "\n"]  # unbounded: CPU
    names = [f"p{i}.py" for i in range(len(sources))]
    specs = [call_types(s) if s.startswith("#") else None for s in sources]
    _same_as_cpu(sources, names, specs, budget=16 << 20)
    assert emulated.limit >= cuda.STACK_BYTES
    stats = dict(cuda.last_stats)
    _same_as_cpu(sources, names, specs, passes=False, budget=16 << 20)  # -O0 on both builds
    assert cuda.last_stats == stats
    assert stats["launches"] > 1 and stats["unbounded"] >= 1 and stats["arena_short"] == 0
    assert stats["device_only"] >= 1  # 47 parentheses: past the device's depth, not the CPU's
    assert stats["device"] + stats["device_only"] + stats["unbounded"] == len(sources)


def test_emulated_arena_short_programs_are_retried_on_the_cpu_build(emulated):
    small = [f"def f() -> int:\n    return {k}\n" for k in range(20)]
    large = "def f() -> int:\n    x = 0\n" + "    x += 1\n" * 3000 + "    return x\n"
    got = _same_as_cpu([*small, large, *small], arena_cap=1 << 20)
    assert isinstance(got[20], bytes)
    assert cuda.last_stats["arena_short"] == 1 and cuda.last_stats["device"] == 40


# ---- on a GPU: the device's results are the CPU build's -----------------------------------------


def _same_as_cpu(sources, names=None, arg_types=None, passes=True, **launch) -> list:
    """compile_batch_cuda's results, asserted equal to the CPU build's, program by program."""
    got = cuda.compile_batch_cuda(sources, names, arg_types, passes=passes, **launch)
    want = compile_batch(sources, names, arg_types, passes=passes)
    assert len(got) == len(want) == len(sources)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert type(g) is type(w), f"program {i}: device {g!r:.200}, CPU {w!r:.200}\n{sources[i]}"
        assert g == w, f"program {i} differs\n{sources[i]}"
    return got


@pytest.mark.gpu
def test_gpu_corpus_programs_match_the_cpu_build():
    paths = sorted(CORPUS.rglob("*.py"))
    sources = [p.read_text() for p in paths]
    names = [str(p.relative_to(CORPUS)) for p in paths]
    _same_as_cpu(sources, names, [call_types(s) for s in sources])
    print(f"corpus on the device: {cuda.last_stats}")
    assert cuda.last_stats["launches"] >= 1


@pytest.mark.gpu
def test_gpu_generated_programs_match_the_cpu_build():
    programs = [generate(seed, complexity=seed % 6) for seed in range(1000)]
    sources = [p.source for p in programs]
    names = [f"gen{seed % 6}_{seed}.py" for seed in range(1000)]
    got = _same_as_cpu(sources, names)
    print(f"generated on the device: {cuda.last_stats}")
    assert sum(isinstance(g, bytes) for g in got) >= 400  # levels 0-2 are all covered
    assert cuda.last_stats["device"] >= 500  # most were compiled on the device itself


def _nested(depth: int) -> list[str]:
    """Programs nested `depth` deep in each way kc's recursion goes."""
    blocks = "def f(x: int) -> int:\n" + "".join(
        "    " * (i + 1) + "if x > 0:\n" for i in range(depth)
    )
    blocks += "    " * (depth + 1) + "return 1\n    return 0\n"
    calls = "g(" * depth + "1" + ")" * depth + "\n"
    return [
        "def f() -> int:\n    return " + "(" * depth + "1" + ")" * depth + "\n",
        "def f() -> int:\n    return " + "-" * depth + "1\n",
        "def f() -> bool:\n    return " + "not " * depth + "True\n",
        "def g(x: int) -> int:\n    return x\n\ndef f() -> int:\n    return " + calls,
        "def f(x: int) -> int:\n    return " + "1 if x else " * depth + "0\n",
        "def f(x: int) -> int:\n    return " + "(x + " * depth + "1" + ")" * depth + "\n",
        blocks,
    ]


@pytest.mark.gpu
def test_gpu_generated_programs_without_passes_match_the_cpu_build():
    sources = [generate(seed, complexity=seed % 6).source for seed in range(300)]
    _same_as_cpu(sources, passes=False)
    _same_as_cpu(sources, passes={"fold", "dce"})


@pytest.mark.gpu
def test_gpu_nesting_at_and_past_the_limit_matches_the_cpu_build():
    # the deepest programs the device accepts are its stack's worst case; deeper ones (up to
    # kc.h's 48) are the CPU build's
    limit = cuda.DEVICE_MAX_DEPTH
    sources = [
        s for depth in (*range(limit - 3, limit + 3), 46, 47, 48, 49) for s in _nested(depth)
    ]
    sources += ["def f() -> int:\n    return 2" + " ** 1" * k + "\n" for k in (15, 16, 17, 200)]
    sources += [
        "def f(x: int) -> int:\n    if x == 0:\n        return 0\n"
        + "    elif x == 1:\n        return 1\n" * k
        + "    return 2\n"
        for k in (15, 16, 17, 200)
    ]
    sources += [
        "def f() -> list[int]:\n    return " + "[x for x in " * k + "[1]" + "]" * k + "\n"
        for k in (2, 4, 5, 200)  # more than STACK_GUARD["for"]: on the CPU build
    ]
    got = _same_as_cpu(sources)
    assert any(isinstance(g, bytes) for g in got)
    assert cuda.last_stats["unbounded"] >= 6


@pytest.mark.gpu
def test_gpu_fuzzed_sources_match_the_cpu_build_and_never_crash():
    rng = random.Random(8)
    alphabet = "def x(): return 1+2*3\n\t ()[]:=#'\"\\0123456789.eE_abc-<>!&|^~%/ \n    "
    sources = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(200))) for _ in range(500)]
    sources += [bytes(rng.randrange(256) for _ in range(100)).decode("latin-1") for _ in range(200)]
    base = generate(3, complexity=2).source
    sources += [base[:i] for i in range(len(base))]  # every truncation
    sources += [
        "def f() -> int:\n    return " + "(" * 10000 + "1" + ")" * 10000 + "\n",
        "def f() -> int:\n    return " + "-" * 10000 + "1\n",
        "def f() -> bool:\n    return " + "not " * 10000 + "True\n",
        "def f() -> int:\n    return " + "+".join(["1"] * 10000) + "\n",
        "def f() -> int:\n" + "".join(" " * (i + 1) + "if True:\n" for i in range(2000)),
        "def f() -> int:\n    return " + "9" * 100000 + "\n",
        "def f() -> float:\n    return " + "1" * 5000 + ".5e-4000\n",  # off the fast path
        "def f() -> float:\n    return 0.1 + 2.5e-3 + 1e22\n",  # on it
        "def f() -> int:\n    x = 0\n" + "    x += 1\n" * 20000 + "    return x\n",
    ]
    got = _same_as_cpu(sources)
    assert all(isinstance(g, bytes | Unsupported) for g in got)
    # the device is still healthy after the batch
    assert isinstance(cuda.compile_batch_cuda(["def f() -> int:\n    return 1\n"])[0], bytes)


@pytest.mark.gpu
def test_gpu_a_batch_larger_than_one_launch():
    sources = [generate(seed, complexity=seed % 3).source for seed in range(300)]
    _same_as_cpu(sources, budget=8 << 20)  # a few 2 MB arenas a launch
    assert cuda.last_stats["launches"] > 10
    assert cuda.last_stats["arena_short"] == 0


@pytest.mark.gpu
def test_gpu_programs_short_of_arena_are_retried_on_the_cpu_build():
    small = [f"def f() -> int:\n    return {k}\n" for k in range(50)]
    large = "def f() -> int:\n    x = 0\n" + "    x += 1\n" * 20000 + "    return x\n"
    sources = [*small, large, *small]
    got = _same_as_cpu(sources, arena_cap=1 << 20)
    assert isinstance(got[50], bytes)  # compiled by the CPU build
    assert cuda.last_stats["arena_short"] == 1
    assert cuda.last_stats["device"] == 100


@pytest.mark.gpu
def test_gpu_the_stack_limit_is_raised():
    import cupy

    cuda.compile_batch_cuda(["def f() -> int:\n    return 1\n"])
    assert cupy.cuda.runtime.deviceGetLimit(0) >= cuda.STACK_BYTES  # 0: cudaLimitStackSize


def test_emulated_program_left_unwritten_raises(emulated, monkeypatch):
    # a launch whose last thread never runs: its program's status stays poisoned, and the
    # launcher says so instead of passing it off as a refusal with an empty reason
    launch = emulated.get_function

    def short_launch(name: str):
        function = launch(name)
        if name != "kc_compile_programs":
            return function

        def one_short(grid, block, args):
            args = list(args)
            args[8] = int(args[8]) - 1  # count: the launch's last program is skipped
            function(grid, block, tuple(args))

        return one_short

    monkeypatch.setattr(emulated, "get_function", short_launch)
    with pytest.raises(cuda.DeviceLeftResults, match="left 1 of 3 programs unwritten"):
        cuda.compile_batch_cuda([f"def f() -> int:\n    return {k}\n" for k in range(3)])
