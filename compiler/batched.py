"""The batched compiler: many kiln Python sources -> `.kbc` containers, in C, on every core.

Contract: `compile_batch(sources, filenames, arg_types, threads)` returns, for each source, either
the container bytes, byte for byte what `compile_source(source, filename, arg_types=...,
passes=False).to_bytes()` gives, or `Unsupported(reason)` for a program that uses a construct
the C compiler does not cover yet (docs/BATCHED_COMPILER.md). It never answers for a program it
is unsure of: an `Unsupported` program is compiled by the reference compiler
(`compile_with_fallback` does that), which also gives the diagnostics of rejected programs.

The C source is compiler/kernels/kc.h (the compiler, host and device) with kc_cpu.c (the pthread
batch driver); it is built with the system C compiler into a shared library cached by a hash of
the compiler, the flags and the sources, as vm/build.py does for the interpreter. Opcode numbers,
stack effects, type and trap codes and the ISA hash are handed to the C code from vm/isa.py at
run time, so the ISA can grow without an edit here.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import subprocess
import tempfile
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from compiler.diagnostics import CompileError
from vm import isa
from vm.build import BuildError, c_compiler, cache_dir
from vm.container import Program, load
from vm.values import BOOL, FLOAT, INT, Type

KERNELS = Path(__file__).resolve().parent / "kernels"
SOURCES = (KERNELS / "kc_cpu.c", KERNELS / "kc.h")
FLAGS = ["-std=c11", "-O2", "-ffp-contract=off", "-shared", "-fPIC", "-pthread"]

# kc's own instruction names, in the order of `enum kc_op` in kc.h
KC_OP_NAMES = (
    "POP DUP SWAP LOADI CONST STR LOAD STORE JUMP JUMP_IF_FALSE JUMP_IF_TRUE CALL RET RAISE "
    "ADD_I SUB_I MUL_I FLOORDIV_I MOD_I POW_I DIV_I NEG_I ABS_I INVERT_I AND_I OR_I XOR_I SHL_I "
    "SHR_I LT_I LE_I GT_I GE_I EQ_I NE_I NOT TRUTH_F ADD_F SUB_F MUL_F DIV_F FLOORDIV_F MOD_F "
    "POW_F NEG_F ABS_F LT_F LE_F GT_F GE_F EQ_F NE_F I2F I2F_EXACT F2I"
).split()
KC_TYPES = ("none", "int", "float", "bool", "none")  # enum kc_type: T_UNKNOWN, T_INT, ...
KC_TRAPS = ("Unsupported", "UnboundLocalError", "ValueError", "AssertionError")
MAX_RAISABLE = 32
DIAG_BYTES = 200
_SPEC_LETTER = {INT: "i", FLOAT: "f", BOOL: "b"}


@dataclass(frozen=True)
class Unsupported:
    """A program the batched compiler does not cover: compile it with the reference compiler."""

    reason: str


class _Config(ctypes.Structure):
    _fields_ = [
        ("format_version", ctypes.c_uint32),
        ("isa_hash", ctypes.c_uint32),
        ("op_code", ctypes.c_int32 * len(KC_OP_NAMES)),
        ("op_pops", ctypes.c_int32 * len(KC_OP_NAMES)),
        ("op_pushes", ctypes.c_int32 * len(KC_OP_NAMES)),
        ("op_flags", ctypes.c_int32 * len(KC_OP_NAMES)),
        ("type_code", ctypes.c_int32 * 5),
        ("trap_code", ctypes.c_int32 * len(KC_TRAPS)),
        ("n_raisable", ctypes.c_int32),
        ("raisable_code", ctypes.c_int32 * MAX_RAISABLE),
        ("raisable_name", (ctypes.c_char * 32) * MAX_RAISABLE),
        ("imm_min", ctypes.c_int32),
        ("imm_max", ctypes.c_int32),
        ("operand_max", ctypes.c_int32),
    ]


def _config() -> _Config:
    """What vm/isa.py says, in the form kc.h reads."""
    cfg = _Config()
    cfg.format_version = isa.FORMAT_VERSION
    cfg.isa_hash = isa.isa_hash()
    for i, name in enumerate(KC_OP_NAMES):
        op = isa.BY_NAME[name]
        cfg.op_code[i] = op.code
        cfg.op_pops[i] = -1 if op.pops == "call" else int(op.pops)
        cfg.op_pushes[i] = int(op.pushes)
        cfg.op_flags[i] = (
            (1 if op.is_jump else 0)
            | (2 if op.ends_block else 0)
            | (4 if op.operand == "imm" else 0)
        )
        assert not op.guards_jump, name  # kc emits no loop steps (-O0)
    for i, kind in enumerate(KC_TYPES):
        cfg.type_code[i] = isa.TYPE_CODES[kind]
    for i, name in enumerate(KC_TRAPS):
        cfg.trap_code[i] = isa.TRAP_BY_NAME[name].code
    raisable = sorted(isa.RAISABLE)[:MAX_RAISABLE]
    cfg.n_raisable = len(raisable)
    for i, name in enumerate(raisable):
        cfg.raisable_code[i] = isa.TRAP_BY_NAME[name].code
        cfg.raisable_name[i].value = name.encode()
    cfg.imm_min, cfg.imm_max, cfg.operand_max = isa.IMM_MIN, isa.IMM_MAX, isa.OPERAND_MAX
    return cfg


# ---- the shared library --------------------------------------------------------------------

_lock = threading.Lock()
_lib: ctypes.CDLL | None = None


def library_path() -> Path:
    """The built library, cached by a hash of the compiler, the flags and the sources."""
    compiler = c_compiler()
    digest = hashlib.sha256((compiler + "\0" + " ".join(FLAGS)).encode())
    for path in SOURCES:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    directory = cache_dir()
    path = directory / f"kiln_kc-{digest.hexdigest()[:20]}.so"
    if path.exists():
        return path
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".kiln_kc-", suffix=".so", dir=directory)
    os.close(fd)
    command = [*compiler.split(), *FLAGS, f"-I{KERNELS}", str(SOURCES[0]), "-o", tmp]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        os.unlink(tmp)
        raise BuildError(
            f"building the batched compiler failed ({' '.join(command)}):\n{done.stderr}"
        )
    os.chmod(tmp, 0o755)
    os.replace(tmp, path)  # atomic: a concurrent build writes the same bytes
    return path


def library() -> ctypes.CDLL:
    global _lib
    with _lock:
        if _lib is None:
            lib = ctypes.CDLL(str(library_path()))
            p, i64 = ctypes.c_void_p, ctypes.c_int64
            lib.kc_compile_batch.argtypes = [p, p, p, p, p, p, p, i64, p, ctypes.c_int, p, p, p, p]
            lib.kc_compile_batch.restype = ctypes.c_int
            lib.kc_gather.argtypes = [p, p, i64, p]
            lib.kc_gather.restype = None
            _lib = lib
        return _lib


# ---- compiling -----------------------------------------------------------------------------


def _spec(arg_types: Mapping[str, Sequence[Type]] | None) -> bytes:
    """`{"f": [INT, FLOAT]}` -> b"f if\\n" (a letter kc does not know: a type it does not cover)."""
    lines = []
    for name, types in (arg_types or {}).items():
        lines.append(f"{name} {''.join(_SPEC_LETTER.get(t, '?') for t in types)}\n")
    return "".join(lines).encode()


def compile_batch(
    sources: Sequence[str],
    filenames: Sequence[str] | None = None,
    arg_types: Sequence[Mapping[str, Sequence[Type]] | None] | None = None,
    threads: int | None = None,
) -> list[bytes | Unsupported]:
    """Containers (or `Unsupported`) for `sources`, as `compile_source(..., passes=False)` would
    give; `filenames[i]` names source i in its container, `arg_types[i]` types its entry
    functions' unannotated parameters. `threads`: default all cores."""
    n = len(sources)
    if n == 0:
        return []
    names = list(filenames) if filenames is not None else ["<input>"] * n
    specs = list(arg_types) if arg_types is not None else [None] * n
    if len(names) != n or len(specs) != n:
        raise ValueError("sources, filenames and arg_types must have the same length")
    parts: list[bytes] = []
    offsets = (ctypes.c_int64 * (6 * n))()
    at = 0
    for i, (source, name, spec) in enumerate(zip(sources, names, specs, strict=True)):
        for j, blob in enumerate((source.encode(), name.encode(), _spec(spec))):
            offsets[6 * i + 2 * j], offsets[6 * i + 2 * j + 1] = at, len(blob)
            parts.append(blob)
            at += len(blob)
    buffer = b"".join(parts)
    src_off, src_len, name_off, name_len, spec_off, spec_len = (
        (ctypes.c_int64 * n)(*offsets[k::6]) for k in range(6)
    )
    out_ptr = (ctypes.c_void_p * n)()
    out_len = (ctypes.c_int64 * n)()
    status = (ctypes.c_int32 * n)()
    diags = ctypes.create_string_buffer(DIAG_BYTES * n)
    cfg = _config()
    lib = library()
    threads = threads or os.cpu_count() or 1
    rc = lib.kc_compile_batch(
        buffer, src_off, src_len, name_off, name_len, spec_off, spec_len, n,
        ctypes.byref(cfg), threads, out_ptr, out_len, status, diags,
    )  # fmt: skip
    if rc != 0:
        raise RuntimeError("the batched compiler could not start a thread")
    gathered = ctypes.create_string_buffer(max(1, sum(out_len)))
    lib.kc_gather(out_ptr, out_len, n, gathered)
    raw = gathered.raw
    results: list[bytes | Unsupported] = []
    at = 0
    for i in range(n):
        if status[i] == 0:
            results.append(raw[at : at + out_len[i]])
            at += out_len[i]
        else:
            reason = diags.raw[i * DIAG_BYTES : (i + 1) * DIAG_BYTES].split(b"\0", 1)[0]
            results.append(Unsupported(reason.decode()))
    return results


def compile_with_fallback(
    sources: Sequence[str],
    filenames: Sequence[str] | None = None,
    arg_types: Sequence[Mapping[str, Sequence[Type]] | None] | None = None,
    threads: int | None = None,
) -> list[Program | CompileError]:
    """Programs at -O0 for `sources`: the batched compiler's where it covers the program, the
    reference compiler's otherwise (which also gives every diagnostic)."""
    from compiler import compile_source

    names = list(filenames) if filenames is not None else ["<input>"] * len(sources)
    specs = list(arg_types) if arg_types is not None else [None] * len(sources)
    out: list[Program | CompileError] = []
    for source, name, spec, result in zip(
        sources, names, specs, compile_batch(sources, names, specs, threads), strict=True
    ):
        if isinstance(result, bytes):
            out.append(load(result))
            continue
        try:
            out.append(compile_source(source, name, arg_types=spec, passes=False))
        except CompileError as error:
            out.append(error)
    return out
