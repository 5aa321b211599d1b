"""Verification batches: many candidates x their tests, run and compared where they execute.

A `VerifyBatch` is the device-independent description of one batch, built once and uploaded
once: the distinct programs, one row per candidate (which program and function, which range of
tests), and the tests as flat word arrays (arguments marshalled by the function's parameter
types, expected results marshalled by its return type, a comparison mode per test). `items`
lists the (candidate, test) pairs in the order they should run: the layout chosen by
`actors.layout` (lanes of a warp on one program), any order giving the same results.

`vm.run.verify(batch, backend=..., limits=...)` runs every item, compares its result with the
expected value where it ran (only verdicts come back), and reduces per candidate:

    verdict    PASSED, WRONG_ANSWER, TRAPPED (a Python exception), TIMED_OUT (FuelExhausted),
               NEEDS_FALLBACK (Overflow, HeapExhausted, StackExhausted, Unsupported, MemoryFault)
    fail_test  the first failing test (in test order, not run order), or -1
    trap       the trap code of that test (0 when it returned a wrong value or passed)
    steps      instructions over all its tests

Comparison modes (per test): EXACT is Python's `==` (deep, typed; ints and bools as ints; floats
by IEEE `==`); CLOSE applies to a float result: `|a - b| <= max(rel_tol * max(|a|, |b|),
abs_tol)` (`math.isclose`); NEVER means no returned value can equal the expected one (its type
cannot hold it), so any value is a wrong answer while traps still count as traps.

Backends: `ref` (`verify_by_calls` here: vm.ref plus Python's comparison, the specification),
`cpu` and `cuda` (the C interpreter's `kiln_verify_*`, one definition of the comparison for both).

`verify(..., cancel=flag)` stops a batch another thread cancels (`Cancel.set()`): the CPU and
ref backends look at the flag between items (an item running finishes: at most its fuel, about
a second at 1e9 on the CPU), `cuda` only before and after its kernels. A cancelled batch raises
`Cancelled` and returns nothing.
"""

from __future__ import annotations

import ctypes
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# The verdict codes and TestSpec are the job model's (core.jobs); imported from here too.
from core.jobs import NEEDS_FALLBACK_CODE as NEEDS_FALLBACK
from core.jobs import PASSED as PASSED
from core.jobs import TIMED_OUT, TRAPPED, WRONG_ANSWER, TestSpec
from core.jobs import VERDICT_NAMES as VERDICT_NAMES
from vm.container import Program
from vm.isa import TRAP_BY_NAME, TRAPS
from vm.limits import Limits
from vm.values import FLOAT, Type, marshal, unmarshal, value_alternative

EXACT, CLOSE, NEVER = range(3)


class Cancelled(RuntimeError):
    """The batch was cancelled while it ran (`Cancel`): its results were thrown away."""


class Cancel:
    """A flag one thread sets to stop a batch another runs (module docstring). The CPU backend's
    threads read it where it lies (`address`: kiln_verify_batch in vm/kernels/cpu.c)."""

    def __init__(self) -> None:
        self._flag = ctypes.c_int32(0)

    def set(self) -> None:
        self._flag.value = 1

    def is_set(self) -> bool:
        return bool(self._flag.value)

    @property
    def address(self) -> int:
        return ctypes.addressof(self._flag)

    def check(self) -> None:
        """Cancelled if the flag is set."""
        if self._flag.value:
            raise Cancelled("the batch was cancelled")


def verdict_of_trap(trap_code: int) -> int:
    kind = TRAPS[trap_code].kind
    return {"python": TRAPPED, "fuel": TIMED_OUT, "fallback": NEEDS_FALLBACK}[kind]


@dataclass
class VerifyBatch:
    programs: list[Program]
    cand_program: np.ndarray  # int32 [n_cand]
    cand_function: np.ndarray  # int32 [n_cand]
    cand_tests: np.ndarray  # int32 [n_cand, 2]: the candidate's tests are [start, end)
    arg_words: np.ndarray  # int64: every test's marshalled arguments, back to back
    arg_offsets: np.ndarray  # int64 [n_tests + 1]
    expected_words: np.ndarray  # int64: every test's marshalled expected result
    expected_offsets: np.ndarray  # int64 [n_tests + 1]
    mode: np.ndarray  # int8 [n_tests]: EXACT, CLOSE or NEVER
    tolerance: np.ndarray  # float64 [n_tests, 2]: (rel_tol, abs_tol) for CLOSE
    items: np.ndarray  # int32 [n_items, 2]: (candidate, test) in run order
    # int64 [n_tests]: each test's fuel (instructions one run may execute); 0 (or no array) means
    # the limits' fuel
    fuel: np.ndarray | None = None
    # every program was verified already (vm.verify) or comes from kiln's own compilers (whose
    # output the test suite verifies): `vm.build.verify_inputs` then runs vm.verify only on
    # a program the C side's own verifier does not pass (its VerifyError says why)
    trusted: bool = False

    @property
    def n_candidates(self) -> int:
        return len(self.cand_program)

    @property
    def n_tests(self) -> int:
        return len(self.mode)

    def validate(self) -> None:
        """Shape and range checks: a malformed batch is a ValueError here, never a device fault."""
        n_cand, n_tests = self.n_candidates, self.n_tests
        if not (len(self.cand_function) == len(self.cand_tests) == n_cand):
            raise ValueError("candidate arrays differ in length")
        if (
            len(self.arg_offsets) != n_tests + 1
            or len(self.expected_offsets) != n_tests + 1
            or len(self.tolerance) != n_tests
        ):
            raise ValueError("test arrays differ in length")
        if self.fuel is not None and (len(self.fuel) != n_tests or (self.fuel < 0).any()):
            raise ValueError("the fuel array needs one non-negative budget per test")
        if n_cand and (
            self.cand_program.min() < 0 or self.cand_program.max() >= len(self.programs)
        ):
            raise ValueError("candidate names a program outside the batch")
        n_functions = np.array([len(p.functions) for p in self.programs], dtype=np.int64)
        if n_cand:
            bad = np.nonzero((self.cand_function < 0) | (self.cand_function >= n_functions[self.cand_program]))[0]
            if len(bad):
                c = int(bad[0])
                raise ValueError(f"candidate {c} names function {self.cand_function[c]}, its program has {n_functions[self.cand_program[c]]}")
            start, end = self.cand_tests[:, 0], self.cand_tests[:, 1]
            bad = np.nonzero((start < 0) | (start > end) | (end > n_tests))[0]
            if len(bad):
                c = int(bad[0])
                raise ValueError(f"candidate {c} has tests [{start[c]}, {end[c]}) outside [0, {n_tests})")
        if len(self.items) and ((self.items[:, 0] < 0).any() or (self.items[:, 0] >= n_cand).any()):
            raise ValueError("an item names a candidate outside the batch")
        if len(self.items):
            starts, ends = (
                self.cand_tests[self.items[:, 0], 0],
                self.cand_tests[self.items[:, 0], 1],
            )
            if ((self.items[:, 1] < starts) | (self.items[:, 1] >= ends)).any():
                raise ValueError("an item names a test outside its candidate's range")


def marshal_expected(expected: Any, ty: Type) -> list[int] | None:
    """The expected value as words of the function's return type, converted where Python's `==`
    holds across types (True == 1, 1 == 1.0); None when no value of `ty` can equal it."""

    def convert(value: Any, t: Type) -> Any:
        if t.kind == "float" and isinstance(value, int) and not isinstance(value, bool):
            if abs(value) > 2**53:
                raise ValueError("not exact")
            return float(value)
        if t.kind == "int" and isinstance(value, bool):
            return int(value)
        if t.kind in ("int", "bool") and isinstance(value, float) and value.is_integer():
            if abs(value) <= 2**63 - 1 and (t.kind == "int" or value in (0.0, 1.0)):
                return int(value) if t.kind == "int" else bool(value)  # 8 == 8.0
        if (
            t.kind == "bool"
            and isinstance(value, int)
            and not isinstance(value, bool)
            and value in (0, 1)
        ):
            return bool(value)
        if t.kind == "float" and isinstance(value, bool):
            return float(value)
        if t.kind == "optional":
            return None if value is None else convert(value, t.args[0])
        if t.kind == "union":  # its own kind's alternative, else a number of another kind
            alt = value_alternative(value, t)
            numbers = [a for a in t.args if a.kind in ("int", "bool", "float")]
            if alt is None and isinstance(value, (int, float)) and numbers:
                alt = numbers[-1]  # float if there is one: 1 == 1.0
            return value if alt is None else convert(value, alt)
        if t.kind == "list" and isinstance(value, list):
            return [convert(v, t.args[0]) for v in value]
        if t.kind == "vtuple" and isinstance(value, tuple):
            return tuple(convert(v, t.args[0]) for v in value)
        if t.kind == "tuple" and isinstance(value, tuple) and len(value) == len(t.args):
            return tuple(convert(v, a) for v, a in zip(value, t.args))
        return value

    try:
        return marshal(convert(expected, ty), ty)
    except ValueError:
        return None


@dataclass
class BatchBuilder:
    """Builds a VerifyBatch from programs, candidates and tests, in Python values."""

    programs: list[Program] = field(default_factory=list)
    _program_index: dict[int, int] = field(default_factory=dict)
    _cands: list[tuple[int, int, int, int]] = field(default_factory=list)
    _args: list[list[int]] = field(default_factory=list)
    _expected: list[list[int]] = field(default_factory=list)
    _mode: list[int] = field(default_factory=list)
    _tol: list[tuple[float, float]] = field(default_factory=list)
    _fuel: list[int] = field(default_factory=list)
    _test_ranges: dict[tuple[int, int, int], tuple[int, int]] = field(default_factory=dict)
    _blocks: list[np.ndarray] = field(default_factory=list)  # add_rows's, and what came before

    def add_tests(
        self, program: Program, function: int, tests: Sequence[TestSpec]
    ) -> tuple[int, int]:
        """Marshals `tests` for `function` of `program`; returns their [start, end) range.
        Raises ValueError (naming the test) when arguments do not fit the parameter types."""
        params, ret = program.signature(function)
        start = len(self._mode)
        for i, test in enumerate(tests):
            if len(test.args) != len(params):
                raise ValueError(
                    f"test {i}: {len(test.args)} argument(s), {program.functions[function].name} takes {len(params)}"
                )
            words: list[int] = []
            for j, (arg, ty) in enumerate(zip(test.args, params)):
                try:
                    words += marshal(arg, ty)
                except ValueError as e:
                    raise ValueError(f"test {i}, argument {j}: {e}") from None
            expected = marshal_expected(test.expected, ret)
            close = test.rel_tol is not None or test.abs_tol is not None
            self._args.append(words)
            self._expected.append(expected or [])
            self._mode.append(
                NEVER
                if expected is None
                else CLOSE
                if close and FLOAT in (ret, *(ret.args if ret.kind == "union" else ()))
                else EXACT
            )
            self._tol.append((test.rel_tol or 0.0, test.abs_tol or 0.0))
            if test.fuel is not None and test.fuel < 1:
                raise ValueError(f"test {i}: fuel must be at least 1, got {test.fuel}")
            self._fuel.append(test.fuel or 0)
        return start, len(self._mode)

    def program_index(self, program: Program) -> int:
        """`program`'s index in `programs`, added at the end the first time."""
        key = id(program)
        if key not in self._program_index:
            self._program_index[key] = len(self.programs)
            self.programs.append(program)
        return self._program_index[key]

    def add_candidate(self, program: Program, function: int, tests: tuple[int, int]) -> int:
        self._cands.append((self.program_index(program), function, *tests))
        return len(self._cands) - 1

    def add_rows(self, rows: np.ndarray) -> None:
        """Many candidates at once, after those added so far: rows of (program index from
        `program_index`, function, first test, end of tests)."""
        rows = np.asarray(rows, dtype=np.int64).reshape(-1, 4)
        if len(rows) and (rows[:, 0].min() < 0 or rows[:, 0].max() >= len(self.programs)):
            raise ValueError("a row names a program index that program_index never gave")
        self._blocks.append(np.array(self._cands, dtype=np.int64).reshape(-1, 4))
        self._blocks.append(rows)
        self._cands = []

    def build(self, items: np.ndarray | None = None, trusted: bool = False) -> VerifyBatch:
        """The batch of what was added; `items` (default: every test of every candidate, in
        order) and `trusted` (VerifyBatch's field) as given."""

        def offsets(chunks: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
            off = np.zeros(len(chunks) + 1, dtype=np.int64)
            off[1:] = np.cumsum([len(c) for c in chunks])
            flat = np.fromiter((w for c in chunks for w in c), dtype=np.int64, count=int(off[-1]))
            return flat, off

        cands = np.concatenate(
            [*self._blocks, np.array(self._cands, dtype=np.int64).reshape(-1, 4)]
        )
        args, arg_off = offsets(self._args)
        expected, exp_off = offsets(self._expected)
        if items is None:
            items = all_items(cands[:, 2:4])
        batch = VerifyBatch(
            self.programs,
            cands[:, 0].astype(np.int32),
            cands[:, 1].astype(np.int32),
            cands[:, 2:4].astype(np.int32),
            args,
            arg_off,
            expected,
            exp_off,
            np.array(self._mode, dtype=np.int8),
            np.array(self._tol, dtype=np.float64).reshape(-1, 2),
            items.astype(np.int32).reshape(-1, 2),
            np.array(self._fuel, dtype=np.int64) if any(self._fuel) else None,
            trusted,
        )
        batch.validate()
        return batch


def all_items(cand_tests: np.ndarray) -> np.ndarray:
    """Every (candidate, test) pair, candidates in order, each one's tests in order."""
    counts = (cand_tests[:, 1] - cand_tests[:, 0]).astype(np.int64)
    cand = np.repeat(np.arange(len(cand_tests), dtype=np.int64), counts)
    first = np.repeat(np.cumsum(counts) - counts, counts)
    test = np.repeat(cand_tests[:, 0].astype(np.int64), counts) + (np.arange(len(cand), dtype=np.int64) - first)
    return np.stack([cand, test], axis=1).astype(np.int32)


@dataclass
class VerifyResult:
    verdict: np.ndarray  # int8 [n_cand]
    fail_test: np.ndarray  # int32 [n_cand], -1 when passed
    trap: np.ndarray  # int8 [n_cand]
    steps: np.ndarray  # int64 [n_cand]
    timings: dict[str, float] = field(default_factory=dict)  # seconds per stage


def reduce_items(
    batch: VerifyBatch, status: np.ndarray, trap: np.ndarray, steps: np.ndarray
) -> VerifyResult:
    """Per-item outcomes (in `batch.items` order) -> per-candidate verdicts: the first failing
    test in test order decides. status: 0 equal, 1 unequal, 2 trapped (see trap)."""
    n = batch.n_candidates
    verdict = np.zeros(n, dtype=np.int8)
    fail_test = np.full(n, -1, dtype=np.int32)
    trap_out = np.zeros(n, dtype=np.int8)
    total = np.zeros(n, dtype=np.int64)
    np.add.at(total, batch.items[:, 0], steps)
    failed = np.nonzero(status != 0)[0]
    if len(failed):
        order = failed[np.lexsort((batch.items[failed, 1], batch.items[failed, 0]))]
        cands = batch.items[order, 0]
        first = order[np.r_[True, cands[1:] != cands[:-1]]]
        for k in first:
            c = batch.items[k, 0]
            fail_test[c] = batch.items[k, 1] - batch.cand_tests[c, 0]
            if status[k] == 1:
                verdict[c] = WRONG_ANSWER
            else:
                trap_out[c] = trap[k]
                verdict[c] = verdict_of_trap(int(trap[k]))
    return VerifyResult(verdict, fail_test, trap_out, total)


def _python_equal(
    value: Any, expected_words: np.ndarray, ty: Type, mode: int, tol: np.ndarray
) -> bool:
    if mode == NEVER:
        return False
    expected = unmarshal([int(w) for w in expected_words], ty)
    numbers = (int, float)  # a union result holds a number or not: isclose only of numbers
    if mode == CLOSE and isinstance(value, numbers) and isinstance(expected, numbers):
        return math.isclose(value, expected, rel_tol=float(tol[0]), abs_tol=float(tol[1]))
    return bool(value == expected)


def verify_by_calls(
    batch: VerifyBatch,
    run_one: Callable[[Program, int, list[Any], Limits], Any],
    limits: Limits,
    cancel: Cancel | None,
) -> VerifyResult:
    """The `ref` backend of `vm.run.verify`: each item as one call of `run_one` (vm.ref.run, the
    specification), compared by Python's own `==` / `math.isclose`."""
    start = time.perf_counter()
    n = len(batch.items)
    status = np.zeros(n, dtype=np.int8)
    traps = np.zeros(n, dtype=np.int8)
    steps = np.zeros(n, dtype=np.int64)
    for k, (c, t) in enumerate(batch.items):
        if cancel is not None:
            cancel.check()
        program = batch.programs[batch.cand_program[c]]
        fn = int(batch.cand_function[c])
        params, ret = program.signature(fn)
        words = [
            int(w) for w in batch.arg_words[batch.arg_offsets[t] : batch.arg_offsets[t + 1]]
        ]
        args, pos = [], 0
        for ty in params:
            size = _marshalled_size(words, pos, ty)
            args.append(unmarshal(words[pos : pos + size], ty))
            pos += size
        fuel = int(batch.fuel[t]) if batch.fuel is not None else 0
        result = run_one(program, fn, args, limits.replace(fuel=fuel) if fuel else limits)
        steps[k] = result.steps
        if result.trap is not None:
            status[k], traps[k] = 2, TRAP_BY_NAME[result.trap].code
        elif not _python_equal(
            result.value,
            batch.expected_words[batch.expected_offsets[t] : batch.expected_offsets[t + 1]],
            ret,
            int(batch.mode[t]),
            batch.tolerance[t],
        ):
            status[k] = 1
    out = reduce_items(batch, status, traps, steps)
    out.timings["kernel"] = time.perf_counter() - start
    return out


def _marshalled_size(words: list[int], pos: int, ty: Type) -> int:
    kind = ty.kind
    if kind in ("none", "bool", "int", "float"):
        return 1
    if kind == "str":
        return 1 + words[pos]
    if kind in ("list", "vtuple"):
        n, size = words[pos], 1
        for _ in range(n):
            size += _marshalled_size(words, pos + size, ty.args[0])
        return size
    size = 0
    for arg in ty.args:
        size += _marshalled_size(words, pos + size, arg)
    return size
