"""The CPU backend: the C interpreter (`vm/kernels/interp.h`) run over all cores.

`interp.h` and its batch driver `vm/kernels/cpu.c` are compiled once by the system C compiler
into a shared library (cached by a hash of the sources and flags, see `vm.build`) and called
through ctypes. ctypes releases the GIL for the call and the C side runs its own pthreads, so a
batch uses every core it is given.

    from vm import cpu
    results = cpu.run_batch([(program, "fib", [20]), (program, "fib", [25])], Limits())
    verdicts = cpu.verify_batch(batch, Limits())  # a vm.batch.VerifyBatch: only verdicts back
"""

from __future__ import annotations

import ctypes
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from vm.batch import Cancel, VerifyBatch, VerifyResult, reduce_items
from vm.build import FlatProgram, VerifyInputs, c_words, flatten, shared_library, verify_inputs
from vm.container import Program
from vm.isa import TRAPS
from vm.limits import Limits
from vm.result import ExecResult
from vm.values import INT, INT64_MAX, INT64_MIN, Type, bits_float, list_of, marshal, unmarshal

SOURCES = ["cpu.c"]
FLAGS = ["-std=c11", "-O2", "-fPIC", "-shared", "-pthread", "-ffp-contract=off"]
COMPUTED_GOTO = "-DKILN_COMPUTED_GOTO"  # threaded dispatch (GCC, clang); else interp.h's switch

ITEM = np.dtype([("prog", "<i4"), ("func", "<i4"), ("arg_off", "<i8"), ("arg_len", "<i8")])
RESULT = np.dtype(
    [("trap", "<i4"), ("thread", "<i4"), ("steps", "<i8"), ("out_off", "<i8"), ("out_len", "<i8")]
)


class _CProgram(ctypes.Structure):
    """Mirror of `kiln_program` in interp.h."""

    _fields_ = [
        ("code", ctypes.c_void_p),
        ("code_len", ctypes.c_int64),
        ("consts", ctypes.c_void_p),
        ("n_consts", ctypes.c_int64),
        ("image", ctypes.c_void_p),
        ("image_len", ctypes.c_int64),
        ("types", ctypes.c_void_p),
        ("type_skip", ctypes.c_void_p),
        ("types_len", ctypes.c_int64),
        ("type_off", ctypes.c_void_p),
        ("n_types", ctypes.c_int64),
        ("funcs", ctypes.c_void_p),
        ("n_funcs", ctypes.c_int64),
        ("params", ctypes.c_void_p),
        ("params_len", ctypes.c_int64),
        ("max_type_depth", ctypes.c_int64),
    ]


class _CLimits(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_int64) for name in ("fuel", "stack_words", "max_call_depth", "heap_words")
    ]


_libs: dict[bool, ctypes.CDLL] = {}
_lib_lock = threading.Lock()


def library(computed_goto: bool = True) -> ctypes.CDLL:
    """The compiled interpreter, built on first use (BuildError when no C compiler works).

    `computed_goto=False` is the plain switch dispatch, the form the CUDA build uses."""
    with _lib_lock:
        if computed_goto not in _libs:
            from vm.build import KERNELS

            flags = [*FLAGS, COMPUTED_GOTO] if computed_goto else FLAGS
            name = "kiln_cpu" if computed_goto else "kiln_cpu_switch"
            path = shared_library(name, [KERNELS / source for source in SOURCES], flags)
            lib = ctypes.CDLL(str(path))
            p = ctypes.c_void_p
            i64, i64_ptr = ctypes.c_int64, ctypes.POINTER(ctypes.c_int64)
            lib.kiln_run_batch.argtypes = [
                ctypes.POINTER(_CProgram), i64,  # programs
                p, i64,  # items
                p, i64,  # argument words
                ctypes.POINTER(_CLimits), ctypes.c_int32,  # limits, threads
                p, ctypes.POINTER(p), i64_ptr,  # results, result words (malloc'd), their count
            ]  # fmt: skip
            lib.kiln_run_batch.restype = ctypes.c_int
            lib.kiln_free.argtypes = [p]
            lib.kiln_free.restype = None
            lib.kiln_pool_drain.argtypes = []
            lib.kiln_pool_drain.restype = None
            lib.kiln_verify_batch.argtypes = [
                ctypes.POINTER(_CProgram), i64,  # programs
                p, p, p, i64,  # candidates: program, function, test range
                p, i64, p,  # argument words, their count, offsets
                p, i64, p,  # expected words, their count, offsets
                p, p, p, i64,  # mode, tolerance, fuel, tests
                p, i64,  # items
                ctypes.POINTER(_CLimits), ctypes.c_int32,  # limits, threads
                p, p, p,  # per item: status, trap, steps
                p,  # the cancel flag (vm.batch.Cancel), or NULL
            ]  # fmt: skip
            lib.kiln_verify_batch.restype = ctypes.c_int
            lib.kiln_program_status.argtypes = [ctypes.POINTER(_CProgram)]
            lib.kiln_program_status.restype = ctypes.c_int32
            _libs[computed_goto] = lib
        return _libs[computed_goto]


def drain_scratch() -> None:
    """Frees the scratch memory (value stacks, heaps) the C side keeps between batches for
    batches with the same limits (at most 512 MiB; cpu.c's kiln_scratch_get), in every build
    loaded so far."""
    with _lib_lock:
        libs = list(_libs.values())
    for lib in libs:
        lib.kiln_pool_drain()


def program_status(program: Program) -> int:
    """What the C side makes of `program` before running it (tests): 0 its tables are unsound
    (its items trap MemoryFault without running), 1 sound, 2 also verified by the interpreter's
    own verifier (`kiln_program_verify`: it runs the hot instructions without the per-step checks
    that verification made once). Not verified by `vm.verify` first."""
    flat = flatten(program)
    return int(library().kiln_program_status(ctypes.byref(_c_program(flat))))


def verified_by_c(flat: FlatProgram) -> bool:
    """Whether the C side's own verifier passes `flat` (`program_status` 2): the check a trusted
    batch makes instead of vm.verify (vm.build.verify_inputs)."""
    return int(library().kiln_program_status(ctypes.byref(_c_program(flat)))) == 2


def _ptr(array: np.ndarray) -> int:
    return array.ctypes.data


def _c_program(flat: FlatProgram) -> _CProgram:
    """The kiln_program of `flat`, pointing into its arrays (keep `flat` alive while it is used);
    made once per FlatProgram (a trusted batch's check and its run share it)."""
    made = flat.__dict__.get("_c_program")
    if made is None:
        made = _make_c_program(flat)
        object.__setattr__(flat, "_c_program", made)  # a cache, not a field (frozen dataclass)
    return made


def _make_c_program(flat: FlatProgram) -> _CProgram:
    words = c_words(flat)  # worked out where it was flattened
    if words is not None:
        return _CProgram(*words)
    return _CProgram(
        _ptr(flat.code), flat.n_code, _ptr(flat.consts), flat.n_consts,
        _ptr(flat.image), flat.n_image,
        _ptr(flat.types), _ptr(flat.type_skip), flat.n_types_words,
        _ptr(flat.type_off), flat.n_types,
        _ptr(flat.funcs), flat.n_funcs, _ptr(flat.params), flat.n_params,
        flat.max_type_depth,
    )  # fmt: skip


_default_threads: int | None = None  # set by kiln's edges (use_default_threads)


def use_default_threads(threads: int | None) -> int | None:
    """Run on `threads` threads when a call names none, from now on (None: every core again);
    returns the count set before. kiln's edges call it with the settings' `cpu_threads`
    (`configs.settings.applied`): this layer does not read the settings itself."""
    global _default_threads
    if threads is not None and (
        not isinstance(threads, int) or isinstance(threads, bool) or threads < 1
    ):
        raise ValueError(f"threads must be a positive integer, got {threads!r}")
    previous = _default_threads
    _default_threads = threads
    return previous


def default_threads() -> int:
    """The threads of a call that names none: the count an edge set (the settings'
    `cpu_threads`), else every core."""
    return _default_threads or os.cpu_count() or 1


def _threads(threads: int | None) -> int:
    if threads is None:
        threads = default_threads()
    if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
        raise ValueError(f"threads must be a positive integer, got {threads!r}")
    return threads


def check_program(program: Program) -> None:
    from vm.verify import verify

    verify(program)


def _resolve(program: Program, function: str | int) -> int:
    if isinstance(function, str):
        return program.function_index(function)
    if not 0 <= function < len(program.functions):
        raise ValueError(
            f"no function #{function} in {program.source_name} ({len(program.functions)} functions)"
        )
    return function


# ---- marshalling, with fast paths for the common types ------------------------------------

Writer = Callable[[Any, list[int]], None]
Reader = Callable[[list[int], int, int], Any]


def _writer(ty: Type) -> Writer:
    """Appends the marshalled words of a value of type `ty`; ValueError if it is not one."""
    if ty.kind == "int":

        def write_int(value: Any, out: list[int]) -> None:
            if type(value) is int and INT64_MIN <= value <= INT64_MAX:
                out.append(value)
            else:
                out += marshal(value, ty)  # raises with the reason

        return write_int
    if ty.kind == "str":

        def write_str(value: Any, out: list[int]) -> None:
            if type(value) is str:
                out.append(len(value))
                out += map(ord, value)
            else:
                out += marshal(value, ty)

        return write_str

    def write(value: Any, out: list[int]) -> None:
        out += marshal(value, ty)

    return write


def _reader(ty: Type) -> Reader:
    """The value of the marshalled words[off : off + n] of type `ty`."""
    kind = ty.kind
    if kind == "int":
        return lambda words, off, n: words[off]
    if kind == "bool":
        return lambda words, off, n: words[off] != 0
    if kind == "none":
        return lambda words, off, n: None
    if kind == "float":
        return lambda words, off, n: bits_float(words[off])
    if kind == "str":
        return lambda words, off, n: "".join(map(chr, words[off + 1 : off + n]))
    if ty == list_of(INT):
        return lambda words, off, n: words[off + 1 : off + n]
    return lambda words, off, n: unmarshal(words[off : off + n], ty)


@dataclass
class _Entry:
    """What a batch needs about one function of one program."""

    program: int  # index into the batch's programs
    function: int
    name: str
    params: list[tuple[Type, Writer]]
    read: Reader


def _entry(program: Program, index: int, function: str | int) -> _Entry | None:
    """None when the function's types are not in the program's type table (malformed)."""
    f = _resolve(program, function)
    fn = program.functions[f]
    try:
        params, ret = program.signature(f)  # the host's types (a tuple[T, ...] is a tuple)
    except (IndexError, TypeError):
        return None
    return _Entry(index, f, fn.name, [(ty, _writer(ty)) for ty in params], _reader(ret))


@dataclass
class PreparedItems:
    """Work items laid out for a batch driver (`kiln_run_batch`, or cuda.py's kiln_run_items):
    the distinct programs, one ITEM row per item and the marshalled argument words."""

    programs: list[Program]
    entries: list[_Entry | None]  # per item; None: a malformed function (MemoryFault unrun)
    table: np.ndarray  # ITEM [n_items]
    args: np.ndarray  # int64, at least one word
    n_args: int

    def results(
        self,
        traps: list[int],
        steps: list[int],
        words: list[int],
        offsets: list[int],
        lengths: list[int],
    ) -> list[ExecResult]:
        """ExecResults from per-item traps, steps and result words[offset : offset + length]."""
        names = [t.name for t in TRAPS]
        rows = zip(self.entries, traps, steps, offsets, lengths, strict=True)
        return [
            ExecResult(entry.read(words, off, n), None, step)
            if trap == 0 and entry
            else ExecResult(None, names[trap], step)
            for entry, trap, step, off, n in rows
        ]


def prepare_items(
    items: Sequence[tuple[Program, str | int, Sequence[Any]]], *, verify: bool = True
) -> PreparedItems:
    """Checks and marshals `(program, function, args)` items (see run_batch for the errors)."""
    indices: dict[int, int] = {}  # id(program) -> index into programs
    programs: list[Program] = []
    entries: dict[tuple[int, str | int], _Entry | None] = {}
    per_item: list[_Entry | None] = []
    columns: tuple[list[int], list[int], list[int], list[int]] = ([], [], [], [])
    words_in: list[int] = []
    for program, function, args in items:
        key = (id(program), function)
        if key in entries:
            entry = entries[key]
        else:
            index = indices.get(id(program))
            if index is None:
                if verify:
                    check_program(program)
                index = indices[id(program)] = len(programs)
                programs.append(program)
            entry = entries[key] = _entry(program, index, function)
        start = len(words_in)
        if entry is not None:
            if len(args) != len(entry.params):
                raise ValueError(
                    f"{entry.name}() takes {len(entry.params)} arguments, got {len(args)}"
                )
            for k, (value, (ty, write)) in enumerate(zip(args, entry.params, strict=True)):
                try:
                    write(value, words_in)
                except ValueError as error:
                    where = f"{entry.name}(): argument {k} does not match parameter type {ty}"
                    raise ValueError(f"{where}: {error}") from None
        per_item.append(entry)
        columns[0].append(entry.program if entry else -1)  # -1: MemoryFault without running
        columns[1].append(entry.function if entry else 0)
        columns[2].append(start)
        columns[3].append(len(words_in) - start)

    table = np.empty(len(items), dtype=ITEM)
    for name, column in zip(("prog", "func", "arg_off", "arg_len"), columns, strict=True):
        table[name] = column
    args_array = np.array(words_in, dtype=np.int64) if words_in else np.zeros(1, dtype=np.int64)
    return PreparedItems(programs, per_item, table, args_array, len(words_in))


def run_batch(
    items: Sequence[tuple[Program, str | int, Sequence[Any]]],
    limits: Limits,
    threads: int | None = None,
    *,
    verify: bool = True,
    computed_goto: bool = True,
) -> list[ExecResult]:
    """Run each `(program, function name or index, args)`; one ExecResult per item, in order.

    Every distinct program is verified first (`vm.verify.verify`, VerifyError), as the reference
    VM does; `verify=False` skips that and leaves a malformed program to the C side's own checks,
    which trap MemoryFault (the fuzz tests of the interpreter's memory safety use it). ValueError
    when an item's arguments do not match its function's parameter types. `threads` defaults to
    `default_threads()` (the settings' `cpu_threads` where an edge passed them down).
    `computed_goto=False` runs the switch-dispatch build (tests).
    """
    threads = _threads(threads)
    prepared = prepare_items(items, verify=verify)
    flat = [flatten(p) for p in prepared.programs]
    c_programs = (_CProgram * max(1, len(flat)))(*(_c_program(f) for f in flat))
    results = np.zeros(len(items), dtype=RESULT)
    c_limits = _CLimits(limits.fuel, limits.stack_words, limits.max_call_depth, limits.heap_words)
    out = ctypes.c_void_p()
    out_total = ctypes.c_int64()
    lib = library(computed_goto)
    rc = lib.kiln_run_batch(
        c_programs, len(flat), _ptr(prepared.table), len(items),
        _ptr(prepared.args), prepared.n_args,
        ctypes.byref(c_limits), threads,
        _ptr(results), ctypes.byref(out), ctypes.byref(out_total),
    )  # fmt: skip
    if rc != 0:
        raise MemoryError(
            f"the CPU backend could not allocate memory for {threads} thread(s) with {limits}"
        )
    try:
        total = out_total.value
        pointer = ctypes.cast(out, ctypes.POINTER(ctypes.c_int64))
        words = np.ctypeslib.as_array(pointer, shape=(total,)).tolist() if total else []
    finally:
        lib.kiln_free(out)
    traps, steps, offs, lens = (
        results[k].tolist() for k in ("trap", "steps", "out_off", "out_len")
    )
    return prepared.results(traps, steps, words, offs, lens)


def verify_items(
    inputs: VerifyInputs,
    limits: Limits,
    threads: int | None = None,
    cancel: Cancel | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run every item of `inputs` (`vm.build.verify_inputs` of a batch, `items` possibly a subset
    of the batch's: vm/cuda.py runs its float-pow items here) on the C interpreter over `threads`
    cores, comparing each result with its expected value where it ran (`kiln_verify_item`): per
    item, in `inputs.items` order, its status (0 equal, 1 unequal, 2 trapped), trap code and
    steps. MemoryError when the threads' scratch cannot be allocated; the caller checks
    `cancel`."""
    threads = _threads(threads)
    c_programs = (_CProgram * max(1, len(inputs.flat)))(*(_c_program(f) for f in inputs.flat))
    n_items = len(inputs.items)
    status = np.zeros(max(1, n_items), dtype=np.int8)
    trap = np.zeros(max(1, n_items), dtype=np.int8)
    steps = np.zeros(max(1, n_items), dtype=np.int64)
    c_limits = _CLimits(limits.fuel, limits.stack_words, limits.max_call_depth, limits.heap_words)
    rc = library().kiln_verify_batch(
        c_programs, len(inputs.flat),
        _ptr(inputs.cand_program), _ptr(inputs.cand_function), _ptr(inputs.cand_tests),
        len(inputs.cand_program),
        _ptr(inputs.arg_words), inputs.n_arg_words, _ptr(inputs.arg_offsets),
        _ptr(inputs.expected_words), inputs.n_expected_words, _ptr(inputs.expected_offsets),
        _ptr(inputs.mode), _ptr(inputs.tolerance), _ptr(inputs.fuel), len(inputs.mode),
        _ptr(inputs.items), n_items,
        ctypes.byref(c_limits), threads,
        _ptr(status), _ptr(trap), _ptr(steps),
        cancel.address if cancel is not None else None,
    )  # fmt: skip
    if rc != 0:
        raise MemoryError(
            f"the CPU backend could not allocate memory for {threads} thread(s) with {limits}"
        )
    return status[:n_items], trap[:n_items], steps[:n_items]


def verify_batch(
    batch: VerifyBatch, limits: Limits, threads: int | None = None, cancel: Cancel | None = None
) -> VerifyResult:
    """Run every item of `batch` on the C interpreter over `threads` cores, comparing each result
    with its expected value where it ran (`verify_items`), then reduce per candidate
    (`vm.batch.reduce_items`). timings: "prepare" (verifying and flattening the programs),
    "kernel" (the C call), "reduce". VerifyError for a program that fails the bytecode verifier;
    ValueError for negative CLOSE tolerances; Cancelled once `cancel` is set (no thread starts
    another item; those running finish: at most their fuel each)."""
    started = time.perf_counter()
    inputs = verify_inputs(batch, verified_by_c)
    library()
    prepared = time.perf_counter()
    status, trap, steps = verify_items(inputs, limits, threads, cancel)
    ran = time.perf_counter()
    if cancel is not None:
        cancel.check()
    result = reduce_items(batch, status, trap, steps)
    result.timings.update(
        prepare=prepared - started, kernel=ran - prepared, reduce=time.perf_counter() - ran
    )
    return result
