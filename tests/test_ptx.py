"""The one interpreter source builds both ways: as strict C11 (gcc -Wall -Wextra -Werror) and as
CUDA device code: nvcc -ptx for sm_90, with the options NVRTC gets (vm.cuda.OPTIONS), of the
kernel file and of the very text vm.cuda hands NVRTC (its local includes inlined), when nvcc is
installed. No GPU is needed."""

from __future__ import annotations

import shutil

import pytest
from _c_build import STRICT_C11, build

from vm import cuda
from vm.build import KERNELS

ENTRIES = [
    "kiln_check_programs",
    "kiln_verify_items",
    "kiln_reduce_first",
    "kiln_reduce_verdicts",
    "kiln_run_items",
]


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_interpreter_and_driver_compile_warning_free_as_c11(tmp_path):
    # cpu.c includes interp.h and uses every entry point, so no function escapes the warnings
    build(
        [
            "gcc",
            *STRICT_C11,
            "-O2",
            "-ffp-contract=off",
            "-fsyntax-only",
            "-pthread",
            str(KERNELS / "cpu.c"),
        ],
        tmp_path,
    )


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_interpreter_header_compiles_alone(tmp_path):
    source = tmp_path / "alone.c"
    signature = (
        "int run_one(const kiln_program *p, const kiln_limits *l, const kiln_scratch *m,"
        " int64_t *out, int64_t *n, int64_t *s)"
    )
    verify = (
        "void verify_one(const kiln_vbatch *b, const kiln_scratch *m, int *st, int *t, int64_t *s)"
    )
    source.write_text(
        f'#include "interp.h"\n{signature};\n{signature} {{\n'
        "    return kiln_program_check(p) ? -1 : kiln_exec(p, 0, 0, 0, l, m, out, 16, n, s, 0);\n"
        f"}}\n{verify};\n{verify} {{\n    kiln_verify_at(b, m, 0, st, t, s);\n}}\n"
    )
    build(
        ["gcc", *STRICT_C11, f"-I{KERNELS}", "-c", str(source), "-o", str(tmp_path / "alone.o")],
        tmp_path,
    )


def test_cuda_source_inlines_every_local_include():
    text = cuda.source()
    assert '#include "' not in text
    assert "KILN_INTERP_H" in text and "enum kiln_op {" in text
    assert "--fmad=false" in cuda.OPTIONS


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc (the CUDA toolkit)")
def test_cuda_kernel_builds_to_ptx(tmp_path):
    # the text of cuda_kernel.cu exactly as NVRTC gets it (includes inlined), with its options
    ptx = tmp_path / "kernel.ptx"
    path = tmp_path / "kiln_nvrtc.cu"
    path.write_text(cuda.source())
    build(["nvcc", "-ptx", *cuda.OPTIONS, "-arch=sm_90", str(path), "-o", str(ptx)], tmp_path)
    # (fma instructions may still appear: CUDA's own pow and fmod use them internally)
    text = ptx.read_text()
    for entry in ENTRIES:
        assert f".entry {entry}(" in text, entry
