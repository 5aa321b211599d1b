"""Preparing the C interpreter's inputs: shared libraries built and cached, programs flattened.

`shared_library(name, sources, flags)` compiles C sources from `vm/kernels/` with the system C
compiler (`$CC`, else `cc`, `gcc` or `clang`) into a shared library cached under `cache_dir()`
(the settings' `cache_dir`, passed down by kiln's edges, else `KILN_CACHE_DIR`), named by a
SHA-256 of the compiler, the flags and every kernel source, so an edit to any of them rebuilds
it. The library is written to a temporary file and renamed into place, so parallel processes
(pytest workers) never load a half-written one.

`flatten(program)` lays a `Program` out as the flat arrays `kiln_program` points at
(`vm/kernels/interp.h`): code (each function followed by a guard word), constants, image, type
descriptors with their skip table, function records and parameter types; `verify_inputs(batch)`
checks a `vm.batch.VerifyBatch` and lays it out for `kiln_verify_*`. Both the CPU and the CUDA
backends use them.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from vm.container import Program
from vm.isa import TYPE_CODES
from vm.values import Type, type_depth

if TYPE_CHECKING:
    from vm.batch import VerifyBatch

KERNELS = Path(__file__).resolve().parent / "kernels"

FUNC_WORDS = 7
"""int64 words of one function record: start, length, params, locals, max stack, return type,
offset of the parameter types (KILN_FUNC_WORDS in interp.h)."""


GUARD = 0xFFFF_FFFF
"""The word after each function's code (KILN_GUARD in interp.h): opcode 255, never an instruction,
so running off the end of a function traps MemoryFault."""


class BuildError(RuntimeError):
    """The C compiler is missing or failed; the message says which and why."""


# ---- shared libraries --------------------------------------------------------------------------


CACHE_DIR_VARIABLE = "KILN_CACHE_DIR"
DEFAULT_CACHE_DIR = "~/.cache/kiln"
_cache_dir: Path | None = None  # set by kiln's edges (use_cache_dir)


def use_cache_dir(path: Path | str | None) -> Path | None:
    """Cache compiled libraries under `path` from now on (None: the default again); returns the
    folder set before. kiln's edges call it with the settings' `cache_dir`
    (`configs.settings.applied`): this layer does not read the settings itself."""
    global _cache_dir
    previous = _cache_dir
    _cache_dir = Path(path).expanduser() if path is not None else None
    return previous


def cache_dir() -> Path:
    """Where compiled libraries are cached: the folder an edge set (`use_cache_dir`: the settings'
    cache_dir), else $KILN_CACHE_DIR, else ~/.cache/kiln."""
    if _cache_dir is not None:
        return _cache_dir
    raw = os.environ.get(CACHE_DIR_VARIABLE, "")
    return Path(raw or DEFAULT_CACHE_DIR).expanduser()


def c_compiler() -> str:
    """The C compiler command: $CC, else the first of cc, gcc, clang on PATH."""
    cc = os.environ.get("CC", "").strip()
    if cc:
        return cc
    for name in ("cc", "gcc", "clang"):
        path = shutil.which(name)
        if path:
            return path
    raise BuildError(
        "no C compiler found for kiln's CPU backend: install one (Debian/Ubuntu: "
        "apt-get install gcc) or point the CC environment variable at it"
    )


def _fingerprint(compiler: str, sources: list[Path], flags: list[str]) -> str:
    digest = hashlib.sha256()
    digest.update(compiler.encode() + b"\0" + " ".join(flags).encode() + b"\0")
    for path in sorted(set(sources) | set(KERNELS.glob("*.h"))):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def shared_library(name: str, sources: list[Path], flags: list[str]) -> Path:
    """Path of the shared library built from `sources` (and every header in vm/kernels)."""
    compiler = c_compiler()
    directory = cache_dir()
    path = directory / f"{name}-{_fingerprint(compiler, sources, flags)[:20]}.so"
    if path.exists():
        return path
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}-", suffix=".so", dir=directory)
    os.close(fd)
    command = [*compiler.split(), *flags, f"-I{KERNELS}", *map(str, sources), "-o", tmp, "-lm"]
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        os.unlink(tmp)
        raise BuildError(f"cannot run the C compiler {compiler!r}: {error}") from None
    if done.returncode != 0:
        os.unlink(tmp)
        raise BuildError(f"building {name} failed ({' '.join(command)}):\n{done.stderr.strip()}")
    os.chmod(tmp, 0o755)  # mkstemp made it private to this user
    os.replace(tmp, path)  # atomic: a concurrent build of the same library writes the same bytes
    return path


# ---- programs as flat arrays -------------------------------------------------------------------


def _skips(words: list[int], base: int) -> list[int]:
    """For each node of one descriptor, the index (plus base) just after its subtree."""
    skip = [0] * len(words)

    def node(pos: int) -> int:
        code = words[pos]
        if code in (TYPE_CODES["list"], TYPE_CODES["optional"]):
            end = node(pos + 1)
        elif code in (TYPE_CODES["tuple"], TYPE_CODES["union"]):  # the arity, then the items
            end = pos + 2
            for _ in range(words[pos + 1]):
                end = node(end)
        else:
            end = pos + 1
        skip[pos] = base + end
        return end

    node(0)
    return skip


def _array(values: list[int], dtype: type, what: str) -> np.ndarray:
    try:
        return np.array(values, dtype=dtype) if values else np.zeros(1, dtype=dtype)
    except OverflowError:
        info = np.iinfo(dtype)
        bad = next(v for v in values if not info.min <= v <= info.max)
        raise ValueError(f"{what}: {bad} does not fit in {np.dtype(dtype).name}") from None


@dataclass(frozen=True)
class FlatProgram:
    """The arrays of one `kiln_program` (empty arrays hold one unused element, never NULL)."""

    code: np.ndarray  # uint32
    consts: np.ndarray  # int64
    image: np.ndarray  # int64
    types: np.ndarray  # int32 descriptor words
    type_skip: np.ndarray  # int32
    type_off: np.ndarray  # int32
    funcs: np.ndarray  # int64, FUNC_WORDS per function
    params: np.ndarray  # int32
    n_code: int
    n_consts: int
    n_image: int
    n_types_words: int
    n_types: int
    n_funcs: int
    n_params: int
    max_type_depth: int

    def __getstate__(self) -> dict[str, object]:
        # pickled and copied without the caches of addresses (`c_words`, vm.cpu's struct)
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}


TYPE_ROWS_KEPT = 4096
_type_rows: dict[Type, tuple[list[int], list[int], int]] = {}


def _type_row(ty: Type) -> tuple[list[int], list[int], int]:
    """A type's descriptor words, their skips (`_skips` from 0) and its depth (type_depth),
    worked out once per distinct type (programs share a handful); don't change the lists."""
    row = _type_rows.get(ty)
    if row is None:
        words = ty.descriptor()
        row = (words, _skips(words, 0), type_depth(ty))
        if len(_type_rows) >= TYPE_ROWS_KEPT:
            _type_rows.clear()
        _type_rows[ty] = row
    return row


def flatten(program: Program) -> FlatProgram:
    """`program` as flat arrays. ValueError when a word does not fit its C type."""
    code: list[int] = []
    funcs: list[int] = []
    params: list[int] = []
    for fn in program.functions:
        funcs += [
            len(code),
            len(fn.code),
            fn.n_params,
            fn.n_locals,
            fn.max_stack,
            fn.return_type,
            len(params),
        ]
        code += fn.code
        code.append(GUARD)
        params += fn.param_types
    types: list[int] = []
    skip: list[int] = []
    offsets: list[int] = []
    depth = 0
    for ty in program.types:
        words, skips, ty_depth = _type_row(ty)
        base = len(types)
        offsets.append(base)
        skip += [base + k if k else 0 for k in skips] if base else skips  # 0: not a node
        types += words
        depth = max(depth, ty_depth)
    # two buffers, one per element size, each array a view of its own part (an empty array
    # holds one unused zero): two conversions and two addresses where eight cost four times that
    wide_parts = (program.consts, program.image, funcs)
    narrow_parts = (types, skip, offsets, params)
    try:
        wide = np.array([w for part in wide_parts for w in (part or _ONE_ZERO)], dtype=np.int64)
        narrow = np.array([w for part in narrow_parts for w in (part or _ONE_ZERO)], dtype=np.int32)
        code_a = np.array(code, dtype=np.uint32) if code else np.zeros(1, dtype=np.uint32)
    except OverflowError:
        return _flatten_apart(program, code, funcs, params, types, skip, offsets, depth)
    wide_at = wide.ctypes.data
    narrow_at = narrow.ctypes.data
    views: list[np.ndarray] = []
    addresses: list[int] = []
    for array, at, parts in ((wide, wide_at, wide_parts), (narrow, narrow_at, narrow_parts)):
        k = 0
        for part in parts:
            n = len(part) or 1
            views.append(array[k : k + n])
            addresses.append(at + array.itemsize * k)
            k += n
    consts, image, funcs_a, types_a, skip_a, off_a, params_a = views
    consts_p, image_p, funcs_p, types_p, skip_p, off_p, params_p = addresses
    words = (
        code_a.ctypes.data, len(code), consts_p, len(program.consts), image_p,
        len(program.image), types_p, skip_p, len(types), off_p, len(program.types),
        funcs_p, len(program.functions), params_p, len(params), depth,
    )  # fmt: skip
    flat = FlatProgram(
        code=code_a, consts=consts, image=image, types=types_a, type_skip=skip_a,
        type_off=off_a, funcs=funcs_a, params=params_a, n_code=len(code),
        n_consts=len(program.consts), n_image=len(program.image), n_types_words=len(types),
        n_types=len(program.types), n_funcs=len(program.functions), n_params=len(params),
        max_type_depth=depth,
    )  # fmt: skip
    # the 16 words of its kiln_program (the arrays' addresses, the counts), worked out here
    # where they cost little (`c_words`): a cache, not a field, so that a copy made with other
    # arrays (dataclasses.replace) has none and reads its own
    object.__setattr__(flat, "_c_words", words)
    return flat


def c_words(flat: FlatProgram) -> tuple[int, ...] | None:
    """The 16 words of `flat`'s kiln_program where `flatten` worked them out, else None."""
    return flat.__dict__.get("_c_words")


_ONE_ZERO = (0,)


def _flatten_apart(
    program: Program,
    code: list[int],
    funcs: list[int],
    params: list[int],
    types: list[int],
    skip: list[int],
    offsets: list[int],
    depth: int,
) -> FlatProgram:
    """flatten's arrays made one by one: the ValueError names the array whose word does not fit
    its C type (`_array`)."""
    name = program.source_name
    return FlatProgram(
        code=_array(code, np.uint32, f"{name}: code word"),
        consts=_array(program.consts, np.int64, f"{name}: constant"),
        image=_array(program.image, np.int64, f"{name}: image word"),
        types=_array(types, np.int32, f"{name}: type descriptor"),
        type_skip=_array(skip, np.int32, f"{name}: type descriptor"),
        type_off=_array(offsets, np.int32, f"{name}: type table"),
        funcs=_array(funcs, np.int64, f"{name}: function table"),
        params=_array(params, np.int32, f"{name}: parameter type"),
        n_code=len(code),
        n_consts=len(program.consts),
        n_image=len(program.image),
        n_types_words=len(types),
        n_types=len(program.types),
        n_funcs=len(program.functions),
        n_params=len(params),
        max_type_depth=depth,
    )


# ---- verification batches ------------------------------------------------------------------------


@dataclass
class VerifyInputs:
    """A `vm.batch.VerifyBatch` checked and laid out as the C side reads it (`kiln_verify_batch`
    in cpu.c, `kiln_verify_items` in cuda_kernel.cu): its programs flattened, and every batch
    array contiguous with the C element type."""

    flat: list[FlatProgram]
    cand_program: np.ndarray  # int32 [n_cand]
    cand_function: np.ndarray  # int32 [n_cand]
    cand_tests: np.ndarray  # int32 [n_cand, 2]
    arg_words: np.ndarray  # int64 (at least one word, so that it has an address)
    arg_offsets: np.ndarray  # int64 [n_tests + 1]
    expected_words: np.ndarray  # int64 (at least one word)
    expected_offsets: np.ndarray  # int64 [n_tests + 1]
    mode: np.ndarray  # int8 [n_tests]
    tolerance: np.ndarray  # float64 [n_tests, 2]
    items: np.ndarray  # int32 [n_items, 2]
    fuel: np.ndarray  # int64 [n_tests]: each test's fuel, 0 for the limits' fuel
    n_arg_words: int
    n_expected_words: int

    @property
    def walk_cap(self) -> int:
        """Walk levels any value of these programs needs (as cpu.c's kiln_check_programs)."""
        return max((f.max_type_depth for f in self.flat), default=0) + 1


def _flatten_trusted(program: Program, c_verified: Callable[[FlatProgram], bool]) -> FlatProgram:
    """`flatten` of a program of a trusted batch (VerifyBatch.trusted), and vm.verify of it when
    the C side's own verifier (`c_verified`: vm.cpu's `kiln_program_verify`) does not pass it:
    its VerifyError, where it breaks a rule, is what an untrusted batch raises. The C check
    costs a few microseconds where vm.verify costs a fraction of a millisecond."""
    from vm.verify import verify

    try:
        flat = flatten(program)
    except ValueError:
        verify(program)  # a word that fits no C type breaks a verifier rule first, if any
        raise
    if not c_verified(flat):
        verify(program)
    return flat


def verify_inputs(
    batch: VerifyBatch, c_verified: Callable[[FlatProgram], bool] | None = None
) -> VerifyInputs:
    """Checks what the C side cannot: every program passes the bytecode verifier (VerifyError, as
    the reference backend raises; in a trusted batch only where `c_verified`, the C side's own
    verifier, does not pass it: `_flatten_trusted`), every CLOSE test has non-negative
    tolerances (ValueError, as math.isclose raises), and the offsets tables have one entry per
    test plus one. Ranges inside the arrays are checked again per item on the C side
    (MemoryFault, never a crash)."""
    from vm.batch import CLOSE
    from vm.verify import verify

    if batch.trusted and c_verified is not None:
        flat = [_flatten_trusted(p, c_verified) for p in batch.programs]
    else:
        for program in batch.programs:
            verify(program)
        flat = [flatten(p) for p in batch.programs]
    n_tests = batch.n_tests
    if len(batch.arg_offsets) != n_tests + 1 or len(batch.expected_offsets) != n_tests + 1:
        raise ValueError("a VerifyBatch needs n_tests + 1 argument and expected offsets")
    tolerance = np.ascontiguousarray(batch.tolerance, dtype=np.float64).reshape(n_tests, 2)
    close = np.asarray(batch.mode) == CLOSE
    bad = np.nonzero(close & (tolerance < 0).any(axis=1))[0]
    if len(bad):
        raise ValueError(f"test {bad[0]}: tolerances must be non-negative (math.isclose raises)")
    items = np.ascontiguousarray(batch.items, dtype=np.int32).reshape(-1, 2)
    if len(items) and (items[:, 0].min() < 0 or items[:, 0].max() >= batch.n_candidates):
        raise ValueError("an item names a candidate outside the batch")

    def words(array: np.ndarray) -> np.ndarray:
        flat = np.ascontiguousarray(array, dtype=np.int64).reshape(-1)
        return flat if len(flat) else np.zeros(1, dtype=np.int64)

    return VerifyInputs(
        flat=flat,
        cand_program=np.ascontiguousarray(batch.cand_program, dtype=np.int32),
        cand_function=np.ascontiguousarray(batch.cand_function, dtype=np.int32),
        cand_tests=np.ascontiguousarray(batch.cand_tests, dtype=np.int32).reshape(-1, 2),
        arg_words=words(batch.arg_words),
        arg_offsets=np.ascontiguousarray(batch.arg_offsets, dtype=np.int64),
        expected_words=words(batch.expected_words),
        expected_offsets=np.ascontiguousarray(batch.expected_offsets, dtype=np.int64),
        mode=np.ascontiguousarray(batch.mode, dtype=np.int8),
        tolerance=tolerance,
        items=items,
        fuel=(
            np.ascontiguousarray(batch.fuel, dtype=np.int64)
            if batch.fuel is not None
            else np.zeros(max(1, n_tests), dtype=np.int64)
        ),
        n_arg_words=len(batch.arg_words),
        n_expected_words=len(batch.expected_words),
    )
