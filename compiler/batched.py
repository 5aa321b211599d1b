"""The batched compiler: many kiln Python sources -> `.kbc` containers, in C, on every core.

Contract: `compile_batch(sources, filenames, arg_types, threads, passes)` returns, for each
source, either the container bytes, byte for byte what `compile_source(source, filename,
arg_types=..., passes=...).to_bytes()` gives (passes: True, all, as compile_source's default;
False, none; or a set of optimize.PASSES names), or `Unsupported(reason)` for a program that
uses a construct the C compiler does not cover yet (docs/BATCHED_COMPILER.md). It never
answers for a program it is unsure of: an `Unsupported` program is compiled by the reference
compiler (`compile_with_fallback` does that), which also gives the diagnostics of rejected
programs.

The C source is compiler/kernels/kc.h (the compiler, host and device: it includes one file per
phase, kc_lex.h ... kc_compile.h) with kc_cpu.c (the pthread batch driver); it is built with the
system C compiler into a shared library cached by a hash of the compiler, the flags and the
sources (SOURCES: every file it includes), as vm/build.py does for the interpreter. Opcode numbers,
stack effects, type and trap codes and the ISA hash are handed to the C code from vm/isa.py at
run time, so the ISA can grow without an edit here.
"""

from __future__ import annotations

import builtins
import ctypes
import functools
import hashlib
import os
import subprocess
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, overload

from compiler.diagnostics import CompileError
from vm import isa
from vm.build import BuildError, c_compiler, cache_dir
from vm.container import Program, load
from vm.surface import STR_METHODS
from vm.values import BOOL, FLOAT, INT, STR, Type

KERNELS = Path(__file__).resolve().parent / "kernels"
VM_KERNELS = Path(__file__).resolve().parent.parent / "vm" / "kernels"
"""The VM's C sources: kc_opt.h's constant folder includes their scalar.h (the meaning of the
scalar instructions, written once for the VM and the folder), which includes kiln_isa.h."""
SOURCES = (
    KERNELS / "kc_cpu.c", KERNELS / "kc.h", KERNELS / "kc_ops.h", KERNELS / "kc_surface.h",
    KERNELS / "kc_lex.h", KERNELS / "kc_parse.h", KERNELS / "kc_types.h", KERNELS / "kc_lower.h",
    KERNELS / "kc_opt.h", KERNELS / "kc_emit.h", KERNELS / "kc_diag.h", KERNELS / "kc_compile.h",
    VM_KERNELS / "scalar.h", VM_KERNELS / "kiln_isa.h",
)  # fmt: skip
FLAGS = ["-std=c11", "-O2", "-ffp-contract=off", "-shared", "-fPIC", "-pthread"]
LIBS = ["-lm"]  # after the source: fmod, floor, pow of the constant folding

# kc's own instruction names: `enum kc_op` (kernels/kc_ops.h) is generated from this list, in order
KC_OP_NAMES = (
    "POP DUP SWAP LOADI CONST STR LOAD STORE JUMP JUMP_IF_FALSE JUMP_IF_TRUE CALL RET RAISE "
    "ADD_I SUB_I MUL_I FLOORDIV_I MOD_I POW_I DIV_I NEG_I ABS_I INVERT_I AND_I OR_I XOR_I SHL_I "
    "SHR_I LT_I LE_I GT_I GE_I EQ_I NE_I NOT TRUTH_F ADD_F SUB_F MUL_F DIV_F FLOORDIV_F MOD_F "
    "POW_F NEG_F ABS_F LT_F LE_F GT_F GE_F EQ_F NE_F I2F I2F_EXACT F2I "
    "EQ LT LE CONTAINS STR_LEN STR_INDEX STR_SLICE STR_CONCAT STR_REPEAT "
    "LIST_NEW LIST_LEN LIST_INDEX LIST_STORE LIST_APPEND LIST_SLICE LIST_CONCAT "
    "LIST_REPEAT LIST_EXTEND LIST_IREPEAT "
    "LOAD2 ADDI JUMP_LT_I JUMP_LE_I JUMP_GT_I JUMP_GE_I JUMP_EQ_I JUMP_NE_I FOR_RANGE "
    "DUP2 FOR_LIST FOR_STR "
    "STR_OF_INT STR_OF_BOOL INT_OF_STR ORD CHR SUM_I SUM_F STR_LOWER STR_UPPER STR_SWAPCASE "
    "STR_STRIP STR_LSTRIP STR_RSTRIP STR_ISALPHA STR_ISDIGIT STR_ISALNUM STR_ISSPACE "
    "STR_ISUPPER STR_ISLOWER STR_FIND STR_COUNT STR_STARTSWITH STR_ENDSWITH STR_REPLACE "
    "STR_JOIN STR_SPLIT STR_SPLIT_WS "
    "MIN MAX SORTED SORTED_DESC LIST_OF_STR LIST_POP LIST_POP_AT LIST_REVERSED LIST_RANGE "
    "TUPLE_NEW TUPLE_GET UNPACK_TUPLE UNPACK_LIST SORTED_UNIQUE LIST_FIND "
    "SQRT_F FLOOR_F CEIL_F ROUND_F STR_BIN CMP_IF FLOAT_OF_STR ROUND_F_N SET_ORDER IS_NONE"
).split()
# then the str methods' instructions not named above (vm/surface.py), in the table's order: kc
# emits what kc_surface.h's KC_STR_METHOD_OP names
KC_OP_NAMES += [op for op in dict.fromkeys(m.op for m in STR_METHODS) if op not in KC_OP_NAMES]
# enum kc_type: T_UNKNOWN, T_INT, T_FLOAT, T_BOOL, T_NONE, T_STR, then the list and tuple codes
KC_TYPES = ("none", "int", "float", "bool", "none", "str", "list", "tuple", "optional")
KC_TRAPS = (
    "Unsupported",
    "UnboundLocalError",
    "ValueError",
    "AssertionError",
    "KeyError",
    "RuntimeError",
    "NameError",
)
MAX_RAISABLE = 32
PY_BUILTINS = 4096  # kc.h's KC_PY_BUILTINS
DIAG_BYTES = 512  # kc.h's KC_DIAG_BYTES: a reason text, then a diagnostic's record
DIAG_RECORD = 256  # KC_DIAG_REC: "\1LINE\37COL\37KIND\37MESSAGE" (docs: "Diagnostics")
_SPEC_LETTER = {INT: "i", FLOAT: "f", BOOL: "b", STR: "s"}


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
        ("type_code", ctypes.c_int32 * len(KC_TYPES)),
        ("trap_code", ctypes.c_int32 * len(KC_TRAPS)),
        ("n_raisable", ctypes.c_int32),
        ("raisable_code", ctypes.c_int32 * MAX_RAISABLE),
        ("raisable_name", (ctypes.c_char * 32) * MAX_RAISABLE),
        ("imm_min", ctypes.c_int32),
        ("imm_max", ctypes.c_int32),
        ("operand_max", ctypes.c_int32),
        ("passes", ctypes.c_int32),
        ("py_builtins", ctypes.c_char * PY_BUILTINS),
    ]


def _config(passes: frozenset[str] | set[str] | bool = True) -> _Config:
    """What vm/isa.py says, in the form kc.h reads, and the optimisation passes to run (as
    compile_batch's `passes`: every pass by default). A copy of one made once: building it
    costs a quarter of a millisecond, ten times kc's work on one small program."""
    cfg = _Config.from_buffer_copy(_isa_config())
    cfg.passes = passes_mask(passes)
    return cfg


@functools.cache
def _isa_config() -> _Config:
    cfg = _Config()
    cfg.format_version = isa.FORMAT_VERSION
    cfg.isa_hash = isa.isa_hash()
    for i, name in enumerate(KC_OP_NAMES):
        op = isa.BY_NAME[name]
        cfg.op_code[i] = op.code
        cfg.op_pops[i] = (
            -1
            if op.pops == "call"
            else (-3 if op.operand == "slice" else -2)
            if op.pops == "n"
            else int(op.pops)
        )
        cfg.op_pushes[i] = -2 if op.pushes == "n" else int(op.pushes)
        cfg.op_flags[i] = (
            (1 if op.is_jump else 0)
            | (2 if op.ends_block else 0)
            | (4 if op.operand == "imm" else 0)
            | (8 if op.guards_jump else 0)  # a loop step (the `loops` pass): kc_assemble, kc_opt.h
        )
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
    # types.py calls a name bound nowhere a NameError unless hasattr(builtins, name)
    names = " ".join(dir(builtins)).encode()
    if len(names) >= PY_BUILTINS:
        raise RuntimeError("CPython's builtin names do not fit kc_config.py_builtins")
    cfg.py_builtins = names
    return cfg


# ---- the shared library --------------------------------------------------------------------

_lock = threading.Lock()
_lib: ctypes.CDLL | None = None


def library_path() -> Path:
    """The built library, cached by a hash of the compiler, the flags and the sources."""
    compiler = c_compiler()
    digest = hashlib.sha256((compiler + "\0" + " ".join(FLAGS + LIBS)).encode())
    for path in SOURCES:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    directory = cache_dir()
    path = directory / f"kiln_kc-{digest.hexdigest()[:20]}.so"
    if path.exists():
        return path
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".kiln_kc-", suffix=".so", dir=directory)
    os.close(fd)
    command = [*compiler.split(), *FLAGS, f"-I{KERNELS}", str(SOURCES[0]), "-o", tmp, *LIBS]
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


def _spec_letters(t: Type) -> str:
    """One parameter type for kc: i, f, b, s, L then the element's letters (list[list[int]] is
    "LLi"), the items' letters in parentheses for a tuple (tuple[int, str] is "(is)"); "?" for a
    type kc does not cover."""
    if t in _SPEC_LETTER:
        return _SPEC_LETTER[t]
    if t.kind == "list":
        return "L" + _spec_letters(t.args[0])
    if t.kind == "tuple" and t.args:
        return "(" + "".join(_spec_letters(a) for a in t.args) + ")"
    return "?"


def _spec(arg_types: Mapping[str, Sequence[Type]] | None) -> bytes:
    """`{"f": [INT, list_of(STR)]}` -> b"f iLs\\n" (a "?": a type kc does not cover)."""
    lines = []
    for name, types in (arg_types or {}).items():
        lines.append(f"{name} {''.join(_spec_letters(t) for t in types)}\n")
    return "".join(lines).encode()


def passes_mask(passes: frozenset[str] | set[str] | bool = True) -> int:
    """compile_source's `passes` (True: all, False: none, or names of optimize.PASSES) as the
    KC_PASS_* bits of kc.h: bit i is PASSES[i]."""
    from compiler.optimize import PASSES

    selected = set(PASSES) if passes is True else set() if passes is False else set(passes)
    unknown = selected - set(PASSES)
    if unknown:
        known = ", ".join(PASSES)
        raise ValueError(
            f"unknown optimisation pass(es): {', '.join(sorted(unknown))} (known: {known})"
        )
    return sum(1 << i for i, name in enumerate(PASSES) if name in selected)


def columns(
    sources: Sequence[str],
    filenames: Sequence[str] | None,
    arg_types: Sequence[Mapping[str, Sequence[Type]] | None] | None,
) -> tuple[list[str], list[Mapping[str, Sequence[Type]] | None]]:
    """A batch's filenames and argument types, defaulted ("<input>", None) and checked to be one
    per source."""
    n = len(sources)
    names = list(filenames) if filenames is not None else ["<input>"] * n
    specs = list(arg_types) if arg_types is not None else [None] * n
    if len(names) != n or len(specs) != n:
        raise ValueError("sources, filenames and arg_types must have the same length")
    return names, specs


NOT_UTF8 = Unsupported(
    "unsupported by the batched compiler: text UTF-8 cannot encode (a lone surrogate)"
)
"""kc reads UTF-8: a source or filename with a lone surrogate is the reference compiler's (which
gives its syntax error)."""


def utf8(text: str) -> bool:
    """Whether `text` encodes to UTF-8 (no lone surrogate)."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def packable(
    sources: Sequence[str],
    names: Sequence[str],
    specs: Sequence[Mapping[str, Sequence[Type]] | None],
) -> tuple[list[str], list[str], list[Mapping[str, Sequence[Type]] | None], list[int]]:
    """pack's columns with each program whose source, filename or argument-type names UTF-8
    cannot encode made an empty program, and those programs' indices: their result is NOT_UTF8."""
    bad = [
        i
        for i, (s, n, spec) in enumerate(zip(sources, names, specs, strict=True))
        if not (utf8(s) and utf8(n) and all(utf8(f) for f in spec or ()))
    ]
    texts, files, types = list(sources), list(names), list(specs)
    for i in bad:
        texts[i], files[i], types[i] = "", "", None
    return texts, files, types, bad


def pack(
    sources: Sequence[str],
    names: Sequence[str],
    specs: Sequence[Mapping[str, Sequence[Type]] | None],
) -> tuple[bytes, list[list[int]]]:
    """The batch as the C drivers read it (CPU and device): every source, name and argument-type
    spec back to back in one buffer, and six columns of offsets: src_off, src_len, name_off,
    name_len, spec_off, spec_len, one entry per program."""
    parts: list[bytes] = []
    offsets: list[list[int]] = [[] for _ in range(6)]
    at = 0
    for source, name, spec in zip(sources, names, specs, strict=True):
        for j, blob in enumerate((source.encode(), name.encode(), _spec(spec))):
            offsets[2 * j].append(at)
            offsets[2 * j + 1].append(len(blob))
            parts.append(blob)
            at += len(blob)
    return b"".join(parts), offsets


@overload
def compile_batch(
    sources: Sequence[str],
    filenames: Sequence[str] | None = ...,
    arg_types: Sequence[Mapping[str, Sequence[Type]] | None] | None = ...,
    threads: int | None = ...,
    passes: frozenset[str] | set[str] | bool = ...,
    diagnostics: Literal[False] = ...,
) -> list[bytes | Unsupported]: ...


@overload
def compile_batch(
    sources: Sequence[str],
    filenames: Sequence[str] | None = ...,
    arg_types: Sequence[Mapping[str, Sequence[Type]] | None] | None = ...,
    threads: int | None = ...,
    passes: frozenset[str] | set[str] | bool = ...,
    *,
    diagnostics: bool,
) -> list[bytes | Unsupported | CompileError]: ...


def compile_batch(
    sources: Sequence[str],
    filenames: Sequence[str] | None = None,
    arg_types: Sequence[Mapping[str, Sequence[Type]] | None] | None = None,
    threads: int | None = None,
    passes: frozenset[str] | set[str] | bool = True,
    diagnostics: bool = False,
) -> list[bytes | Unsupported] | list[bytes | Unsupported | CompileError]:
    """Containers (or `Unsupported`) for `sources`, as `compile_source(..., passes=passes)` would
    give; `filenames[i]` names source i in its container, `arg_types[i]` types its entry
    functions' unannotated parameters. `threads`: default all cores. With `diagnostics`, a
    rejected program whose diagnostic kc is sure of comes back as that `CompileError`, the very
    one compile_source raises (docs/BATCHED_COMPILER.md, "Diagnostics"); else `Unsupported`."""
    results = _compile_batch(sources, filenames, arg_types, threads, passes, diagnostics)
    return blanked_again(
        results,
        sources,
        lambda idx, views: _compile_batch(
            views,
            [filenames[i] for i in idx] if filenames is not None else None,
            [arg_types[i] for i in idx] if arg_types is not None else None,
            threads,
            passes,
            False,
        ),
    )


def blanked_again(
    results: list[Any],
    sources: Sequence[str],
    compile_views: Callable[[list[int], list[str]], Sequence[Any]],
) -> list[Any]:
    """kc takes neither a def replaced by a later one nor a `__main__` guard: the programs it
    refused for those go again with such statements blanked out (frontend.without_dropped),
    which compiles to the same bytes. `compile_views(indices, views)` compiles them (the CPU
    build, or the device's); only bytes are taken from that pass, every diagnostic stays the
    program's own. Returns `results`, updated."""
    from compiler.frontend import without_dropped

    views: dict[int, str] = {}
    for i, result in enumerate(results):
        if not isinstance(result, bytes) and any(w in str(result) for w in DROPPED_FORMS):
            view = without_dropped(sources[i])
            if view is not None:
                views[i] = view
    if views:
        again = list(views)
        for i, result in zip(again, compile_views(again, [views[i] for i in again]), strict=True):
            if isinstance(result, bytes):
                results[i] = result
    return results


# kc's reasons for the forms frontend.without_dropped blanks out
DROPPED_FORMS = ("redefinition of a function", "module-level statement")


def _compile_batch(
    sources: Sequence[str],
    filenames: Sequence[str] | None,
    arg_types: Sequence[Mapping[str, Sequence[Type]] | None] | None,
    threads: int | None,
    passes: frozenset[str] | set[str] | bool,
    diagnostics: bool,
) -> list[bytes | Unsupported | CompileError]:
    """One call of kc over `sources` (compile_batch)."""
    passes_mask(passes)  # unknown names: ValueError before any work
    n = len(sources)
    if n == 0:
        return []
    names, specs = columns(sources, filenames, arg_types)
    *columns_, not_utf8 = packable(sources, names, specs)
    buffer, offsets = pack(*columns_)
    src_off, src_len, name_off, name_len, spec_off, spec_len = (
        (ctypes.c_int64 * n)(*column) for column in offsets
    )
    out_ptr = (ctypes.c_void_p * n)()
    out_len = (ctypes.c_int64 * n)()
    status = (ctypes.c_int32 * n)()
    diags = ctypes.create_string_buffer(DIAG_BYTES * n)
    cfg = _config(passes)
    lib = library()
    threads = threads or os.cpu_count() or 1
    rc = lib.kc_compile_batch(
        buffer, src_off, src_len, name_off, name_len, spec_off, spec_len, n,
        ctypes.byref(cfg), threads, out_ptr, out_len, status, diags,
    )  # fmt: skip
    if rc != 0:
        raise RuntimeError("the batched compiler could not start a thread")
    lengths = out_len[:]  # Python lists: indexing a ctypes array costs more per item
    gathered = ctypes.create_string_buffer(max(1, sum(lengths)))
    lib.kc_gather(out_ptr, out_len, n, gathered)
    raw = gathered.raw
    diag_raw = diags.raw  # a copy of the whole buffer, made once (not per refusal)
    results: list[bytes | Unsupported | CompileError] = []
    at = 0
    for i, (state, length) in enumerate(zip(status[:], lengths, strict=True)):
        if state == 0:
            results.append(raw[at : at + length])
            at += length
        else:
            got = decode_diagnostic(diag_raw[i * DIAG_BYTES : (i + 1) * DIAG_BYTES], names[i])
            if isinstance(got, CompileError) and not diagnostics:
                got = Unsupported(f"unsupported by the batched compiler: diagnosed {got}")
            results.append(got)
    for i in not_utf8:
        results[i] = NOT_UTF8
    return results


def decode_diagnostic(raw: bytes, filename: str) -> Unsupported | CompileError:
    """One program's diagnostics buffer (DIAG_BYTES): the CompileError kc gave, the very one
    compile_source raises for the program, or `Unsupported` with kc's reason."""
    record = raw[DIAG_RECORD:].split(b"\0", 1)[0]
    if record.startswith(b"\1"):
        line, col, kind, message = record[1:].decode(errors="replace").split("\x1f", 3)
        return CompileError(filename, int(line), int(col), kind, message)
    return Unsupported(raw.split(b"\0", 1)[0].decode(errors="replace"))


def compile_with_fallback(
    sources: Sequence[str],
    filenames: Sequence[str] | None = None,
    arg_types: Sequence[Mapping[str, Sequence[Type]] | None] | None = None,
    threads: int | None = None,
    passes: frozenset[str] | set[str] | bool = True,
) -> list[Program | CompileError]:
    """Programs for `sources`, compiled with `passes` (as compile_source's): the batched
    compiler's where it covers the program, the reference compiler's otherwise (which also gives
    every diagnostic; a diagnostic kc is sure of is kc's, the same CompileError)."""
    from compiler.reference import compile_source

    names, specs = columns(sources, filenames, arg_types)
    out: list[Program | CompileError] = []
    for source, name, spec, result in zip(
        sources,
        names,
        specs,
        compile_batch(sources, names, specs, threads, passes, diagnostics=True),
        strict=True,
    ):
        if isinstance(result, bytes):
            out.append(load(result))
            continue
        if isinstance(result, CompileError):
            out.append(result)
            continue
        try:
            out.append(compile_source(source, name, arg_types=spec, passes=passes))
        except CompileError as error:
            out.append(error)
    return out
