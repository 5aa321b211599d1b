"""`kiln gpu check` (vm/gpu_check.py): every CUDA kernel built on the CPU as the runtime builds it
(NVRTC from the nvidia-cuda-nvrtc wheel, ptxas from nvidia-cuda-nvcc), its ptxas report read and
judged against the budgets. No GPU is needed; the test extra installs both wheels, so in CI a
missing toolkit is a failure, not a skip.

CI cost (2 cores): the VM's kernels through NVRTC and ptxas for sm_90 and sm_80 (~80 s of CPU,
once, in one test), the batched compiler's through NVRTC's front end (under a second). The
compiler's whole NVRTC compile (~15-40 s) and its ptxas (~70 s, 1.6 GB) are slow tests.
"""

from __future__ import annotations

import json
import os

import pytest

from vm import cuda, gpu_check
from vm.gpu_check import MODULES, Budget, Build, Kernel

VM, COMPILER = MODULES


def _toolkit_or_skip(need_ptxas: bool = True) -> None:
    try:
        gpu_check.find_nvrtc()
        if need_ptxas:
            gpu_check.find_ptxas()
    except gpu_check.ToolkitMissing as error:
        if os.environ.get("CI"):
            raise  # the test extra installs the toolkit: in CI its absence is a failure
        pytest.skip(str(error))


# ---- the pure parts: ptxas's log, occupancy, budgets ---------------------------------------------

PTXAS_LOG = """\
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'kiln_run_items' for 'sm_90'
ptxas info    : Function properties for kiln_run_items
    2432 bytes stack frame, 760 bytes spill stores, 564 bytes spill loads
ptxas info    : Used 255 registers, used 0 barriers, 2432 bytes cumulative stack size
ptxas info    : Compile time = 17433.141 ms
ptxas info    : Function properties for _ZN34_INTERNAL_k_cu_kiln_runEPK12kiln_program
    0 bytes stack frame, 8268 bytes spill stores, 7820 bytes spill loads
ptxas info    : Function properties for __internal_accurate_pow
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function 'kiln_reduce_first' for 'sm_90'
ptxas info    : Function properties for kiln_reduce_first
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 18 registers, used 1 barriers, 1024 bytes smem, 400 bytes cmem[0]
ptxas info    : Compile time = 4.743 ms
"""


def test_ptxas_log_is_read_per_entry_with_callees_spills_counted():
    kernels = gpu_check.parse_ptxas(PTXAS_LOG)
    assert set(kernels) == {"kiln_run_items", "kiln_reduce_first"}
    run = kernels["kiln_run_items"]
    assert (run.registers, run.stack_frame, run.cumulative_stack) == (255, 2432, 2432)
    assert (run.spill_stores, run.spill_loads) == (760, 564)
    assert (run.callee_spill_stores, run.callee_spill_loads) == (8268, 7820)
    assert run.spill_bytes == 760 + 564 + 8268 + 7820
    reduce = kernels["kiln_reduce_first"]
    assert (reduce.registers, reduce.barriers, reduce.shared, reduce.constant) == (18, 1, 1024, 400)
    assert reduce.spill_bytes == 0 and reduce.callee_spill_stores == 0


@pytest.mark.parametrize(
    ("registers", "shared", "block", "blocks", "share", "limit"),
    [
        (255, 0, 128, 2, 0.125, "registers"),  # 8 KiB of registers a warp: 8 warps an SM
        (128, 0, 128, 4, 0.25, "registers"),
        (64, 0, 128, 8, 0.5, "registers"),
        (32, 0, 128, 16, 1.0, "warps"),
        (16, 0, 32, 32, 0.5, "blocks"),
        (32, 100_000, 128, 2, 0.125, "shared"),  # 233,472 B an SM, 1 KiB reserved a block
    ],
)
def test_occupancy_from_registers_shared_memory_and_block(
    registers, shared, block, blocks, share, limit
):
    assert gpu_check.occupancy("sm_90", registers, shared, block) == (blocks, share, limit)


def test_sm_80_has_less_shared_memory_than_sm_90():
    assert gpu_check.occupancy("sm_80", 32, 100_000, 128)[0] == 1
    assert gpu_check.occupancy("sm_90", 32, 100_000, 128)[0] == 2


def _judged(
    name: str, registers: int, spills: int, monkeypatch: pytest.MonkeyPatch, known: Budget | None
):
    if known is None:
        monkeypatch.delitem(gpu_check.KNOWN_OVER, ("vm", name), raising=False)
    else:
        monkeypatch.setitem(gpu_check.KNOWN_OVER, ("vm", name), known)
    build = Build(
        "vm",
        "sm_90",
        "sass",
        ok=True,
        kernels={name: Kernel(name, registers=registers, spill_stores=spills)},
    )
    rows = gpu_check.judge(build, 128)
    return rows[0].verdict, gpu_check.Report({}, [build], rows, 0.0).ok


def test_a_kernel_over_its_budget_fails_the_check(monkeypatch):
    assert _judged("kiln_run_items", 129, 0, monkeypatch, None) == ("over", False)
    assert _judged("kiln_run_items", 64, 8, monkeypatch, None) == ("over", False)
    assert _judged("kiln_run_items", 128, 0, monkeypatch, None) == ("ok", True)


def test_a_known_over_kernel_passes_only_under_its_ceiling(monkeypatch):
    ceiling = Budget(255, 1000)
    assert _judged("kiln_run_items", 255, 1000, monkeypatch, ceiling) == ("known over", True)
    assert _judged("kiln_run_items", 255, 1001, monkeypatch, ceiling) == (
        "known over, past its ceiling",
        False,
    )
    # one brought within budget says so, so that the list gets shorter
    assert _judged("kiln_run_items", 100, 0, monkeypatch, ceiling) == (
        "ok (drop from KNOWN_OVER)",
        True,
    )


def test_options_are_the_runtimes_in_cupys_order():
    from compiler import cuda as compiler_cuda
    from vm import cuda as vm_cuda

    for module in (vm_cuda, compiler_cuda):
        options = gpu_check.runtime_options(module.OPTIONS, "sm_90")
        at = options.index(module.OPTIONS[0])
        assert tuple(options[at : at + len(module.OPTIONS)]) == module.OPTIONS
        assert options.index("--std=c++17") > at
        # CuPy's own -ftz=true comes after the module's --ftz=false (and so wins: see the docstring)
        assert options.index("-ftz=true") > options.index("--ftz=false")
        assert options[-2:] == ["-arch=compute_90", "--device-as-default-execution-space"]
    assert gpu_check.runtime_options((), "sm_80", "syntax")[0] == "-fdevice-syntax-only"


# ---- the real builds --------------------------------------------------------------------------


def test_compiler_kernels_pass_nvrtcs_front_end_for_every_arch():
    _toolkit_or_skip(need_ptxas=False)
    for arch in gpu_check.ARCHS:
        build = gpu_check.build(COMPILER, arch, "syntax")
        assert build.ok, build.error
        assert build.nvrtc_s < 30


def test_the_front_end_check_catches_what_nvrtc_lacks(monkeypatch):
    # kc.h's own definitions of UINT64_MAX and INT64_MAX under NVRTC (no libc headers there):
    # without them the compiler's kernels do not build, and the check says so
    _toolkit_or_skip(need_ptxas=False)
    from compiler import cuda as compiler_cuda

    text = compiler_cuda.source()
    assert "#define UINT64_MAX" in text
    broken = text.replace("#define UINT64_MAX", "#define KILN_NOT_UINT64_MAX")
    monkeypatch.setattr(compiler_cuda, "source", lambda: broken)
    build = gpu_check.build(COMPILER, "sm_90", "syntax")
    assert not build.ok
    assert 'identifier "UINT64_MAX" is undefined' in build.error


def test_gpu_check_builds_every_kernel_and_reports_each():
    """The check `kiln gpu check` runs by default, as CI runs it: the VM's kernels through ptxas
    for sm_90 and sm_80, the compiler's through NVRTC's front end. One test, so that the builds
    (~80 s of CPU) run once, whichever worker takes the test."""
    _toolkit_or_skip()
    report = gpu_check.check()
    data = report.as_json()
    assert report.ok and data["ok"], json.dumps(data["builds"], indent=1)
    builds = {(b["module"], b["arch"]): b for b in data["builds"]}
    assert set(builds) == {(m.name, a) for m in MODULES for a in gpu_check.ARCHS}
    assert all(b["ok"] for b in builds.values())
    assert {b["stage"] for (m, _), b in builds.items() if m == "vm"} == {"sass"}
    kernels = {(k["module"], k["arch"], k["name"]): k for k in data["kernels"]}
    for arch in gpu_check.ARCHS:
        for entry in VM.entries:
            k = kernels[("vm", arch, entry)]
            assert 0 < k["registers"] <= 255
            assert 0 < k["occupancy"] <= 1
            assert k["block"] == cuda.BLOCK == 64  # vm.cuda's launch block, measured best
            assert k["verdict"] in ("ok", "known over")

    # Today's honest state (issue 18, item 4): the two execution kernels use 255 registers and
    # spill. The check lists them as known over budget, with the numbers; when the kernel work
    # brings one within budget its verdict says to drop it from KNOWN_OVER.
    rows = {(r.arch, r.kernel.name): r for r in report.rows if r.module == "vm"}
    text = gpu_check.format_report(report)
    print(text)
    for arch in gpu_check.ARCHS:
        for name in ("kiln_run_items", "kiln_verify_items"):
            row = rows[(arch, name)]
            over = row.kernel.registers > 128 or row.kernel.spill_bytes > 0
            assert row.verdict == ("known over" if over else "ok (drop from KNOWN_OVER)"), row
        for name in ("kiln_check_programs", "kiln_reduce_first", "kiln_reduce_verdicts"):
            assert rows[(arch, name)].verdict == "ok"
            assert rows[(arch, name)].kernel.spill_bytes == 0
    for entry in VM.entries:
        assert text.count(f" {entry} ") == len(gpu_check.ARCHS)
    assert "known over (budget 128 regs, 0 B spills)" in text
    assert text.rstrip().splitlines()[-1].startswith("OK in ")


def test_the_command_exits_1_on_a_build_that_fails(monkeypatch, capsys):
    _toolkit_or_skip(need_ptxas=False)
    from api.cli import main
    from compiler import cuda as compiler_cuda

    assert main(["gpu", "check", "--module", "compiler", "--arch", "sm_90", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and [b["stage"] for b in data["builds"]] == ["syntax"]
    monkeypatch.setattr(compiler_cuda, "source", lambda: "__global__ void kc_arena_needs( {")
    assert main(["gpu", "check", "--module", "compiler", "--arch", "sm_90"]) == 1
    out = capsys.readouterr().out
    assert "FAILED" in out and "error" in out


# ---- slow: the batched compiler's whole build -----------------------------------------------


@pytest.mark.slow
def test_compiler_kernels_build_to_ptx():
    _toolkit_or_skip(need_ptxas=False)
    build = gpu_check.build(COMPILER, "sm_90", "ptx")
    assert build.ok, build.error


@pytest.mark.slow
def test_compiler_kernels_through_ptxas():
    # ~1.5 minutes and 1.6 GB on a 2-core machine (before kc.h's KC_NOINLINE: out of memory)
    _toolkit_or_skip()
    build = gpu_check.build(COMPILER, "sm_90", "sass")
    assert build.ok, build.error
    for entry in COMPILER.entries:
        assert build.kernels[entry].registers > 0
