"""vm/kernels/scalar.h is the one C definition of the scalar instructions (issue 17).

The VM (vm/kernels/interp.h) and the batched compiler's constant folder
(compiler/kernels/kc_opt.h) both include it; what they compute is checked against
vm/semantics.py elsewhere (tests/test_cpu_vm.py: the VM's scalar instructions;
tests/test_batched_passes.py: kc's fold, byte for byte the reference's). Here: that neither
user grows its own copy again, and that every header kc's build reads is in the hash of its
CPU build cache (compiler/batched.py SOURCES).
"""

from __future__ import annotations

import re
from pathlib import Path

from compiler.batched import KERNELS, SOURCES
from vm.build import KERNELS as VM_KERNELS

SCALAR = VM_KERNELS / "scalar.h"
USERS = (VM_KERNELS / "interp.h", *sorted(KERNELS.glob("kc*.h")))  # kc.h and its phase files
DEFINITION = re.compile(r"^KILN_(?:FN|COLD)\s+[\w\s*]+?\b(kiln_\w+)\(", re.MULTILINE)
LIBM = re.compile(r"\b(fmod|floor|ceil|round|pow|copysign|sqrt|frexp|ldexp)\s*\(")
INCLUDE = re.compile(r'^#include "([^"]+)"', re.MULTILINE)


def code(path: Path) -> str:
    """The file's text without its comments and the text of its string literals (a message
    such as kc's "round(x, ndigits) of ..." names a call; it makes none)."""
    text = re.sub(r"/\*.*?\*/", " ", path.read_text(), flags=re.DOTALL)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def includes(path: Path) -> set[Path]:
    """Every local header `path` reaches, found next to the file that names it (as C does)."""
    found: set[Path] = set()
    todo = [path.resolve()]
    while todo:
        here = todo.pop()
        for name in INCLUDE.findall(here.read_text()):
            target = (here.parent / name).resolve()
            if target not in found:
                found.add(target)
                todo.append(target)
    return found


def test_scalar_functions_are_defined_only_in_scalar_h():
    names = set(DEFINITION.findall(SCALAR.read_text()))
    assert {"kiln_floordiv_f", "kiln_mod_f", "kiln_pow_f", "kiln_round_f", "kiln_mul_ovf"} <= names
    for user in USERS:
        text = code(user)
        assert not names & set(DEFINITION.findall(text)), user
        assert not LIBM.findall(text), f"{user.name} calls libm itself: its place is scalar.h"
        assert not re.search(r"\bkc_(floordiv_f|mod_f|pow_f|\w+_ovf|sar)\b", text), user.name


def test_both_users_include_scalar_h():
    assert SCALAR.resolve() in includes(VM_KERNELS / "cpu.c")
    assert SCALAR.resolve() in includes(VM_KERNELS / "cuda_kernel.cu")
    assert SCALAR.resolve() in includes(KERNELS / "kc_cpu.c")
    assert SCALAR.resolve() in includes(KERNELS / "kc_cuda.cu")


def test_kc_build_hash_covers_every_header_it_reads():
    hashed = {path.resolve() for path in SOURCES}
    assert includes(KERNELS / "kc_cpu.c") <= hashed
