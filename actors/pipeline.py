"""`Pipeline`: compile -> execute -> verify for one batch of candidates, on one device or the CPU.

A plain Python object that knows nothing of Ray (the Ray actor wraps it), so it can be tested and
benchmarked alone. It owns one backend: the CUDA device (`vm.cuda`), the CPU cores (`vm.cpu`,
the same C interpreter), or the pure-Python reference VM (`vm.ref`, the specification).

    from actors.pipeline import Pipeline
    from core.jobs import Candidate, TestSpec

    pipeline = Pipeline(backend="auto")           # cuda when a device is there, else cpu
    tests = [TestSpec((3,), 6), TestSpec((10,), 20)]
    report = pipeline.run([Candidate("def f(x):\\n    return 2 * x\\n", "f")], tests)
    report.results[0].verdict                     # "passed"
    report.results[0].bytecode                    # the verified .kbc, for passed candidates

`run(candidates, tests)` does, for every batch:

1. compile: each distinct (source, entry, argument types) once; a `CompileError` is that
   candidate's verdict "compile error" with the diagnostic, never an exception for the batch.
   With the default compiler ("batched", `[runtime] compiler`), every distinct source of the
   batch goes to the batched C compiler (`compiler.batched`) in one call, on every core; it
   compiles the programs it covers to the very bytes `compile_source` gives, and the reference
   compiler compiles the rest and gives every diagnostic (`BatchReport.batched` counts the first).
   Bytecode candidates (`bytes` of a `.kbc`) are loaded and verified (`vm.verify.verify_bytes`),
   each distinct container once; a malformed one is "invalid bytecode" with the reason. The
   argument types of an entry function without (complete) annotations come from its tests'
   arguments (`vm.values.type_of_value`).
2. build: tests are marshalled once per distinct test list and signature, the run order is
   chosen by `actors.layout` (lanes of a warp on one program), and a `VerifyBatch` is built.
3. verify: `vm.run.verify` runs every (candidate, test) item under the fuel budget and compares
   results where they ran; only per-candidate verdicts come back.

A program whose module has top-level statements that do something (`print(...)`, `assert`,
calls: the function `<module>`, `vm.MODULE_FUNCTION`) runs them once before its tests, as CPython
runs a module before `check()`: one more row of the batch, `<module>()` expected to return None.
When it does not (an exception, fuel, a fallback trap), that is the candidate's verdict
(`CandidateResult.in_module`); else the tests' verdict, the module's steps added.

Candidates, tests, results and verdicts are the job model's (`core.jobs`, imported from here too).
Verdicts (`CandidateResult.verdict`): "passed", "wrong answer", "trapped" (a Python exception:
see `trap`), "timed out" (the fuel ran out), "needs fallback" (the VM cannot answer exactly:
an int past 64 bits, a full heap or stack, an unsupported run-time case, or a test whose
arguments do not fit the compiled signature), "compile error", "invalid bytecode". For a failed
candidate `fail_test` is the first failing test in test order.

"needs fallback" is only reported here: re-running such candidates in the sandboxed CPython
worker pool (and routing "unsupported" compile errors there) is the dataset-evaluation issue's
work (`evaluation/`). Every result says which path produced it (`path`: "vm" here).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import gc
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from actors.layout import LayoutStats, Work, layout, measure
from compiler import CompileError, compile_source

# The job model (core.jobs): imported from here too, where it was first defined.
from core.jobs import (
    COMPILE_ERROR,
    INVALID_BYTECODE,
    NEEDS_FALLBACK,
    VERDICT_NAMES,
    Candidate,
    CandidateLike,
    CandidateResult,
    Tests,
    TestSpec,
    as_candidate,
    tests_per_candidate,
)
from vm import module_function
from vm.batch import BatchBuilder, Cancel
from vm.container import ContainerError, Program, load
from vm.isa import TRAPS
from vm.limits import Limits
from vm.run import verify
from vm.values import Type, type_of_value
from vm.verify import VerifyError, verify_bytes

COMPILE_PATHS = ("deterministic", "neural", "hybrid")
STAGES = ("compile", "build", "upload", "kernel", "download", "total")
# The CPU backend has no bus to cross: its "prepare" (flattening the programs for the C
# interpreter) stands where an upload would be, its "reduce" (per-candidate verdicts) where the
# download would be.
STAGE_ALIASES = {"upload": "prepare", "download": "reduce"}
# what a module's top-level code must do before the tests run: return (None)
MODULE_TESTS = (TestSpec((), None),)


@dataclass
class BatchReport:
    results: list[CandidateResult]
    backend: str
    timings: dict[str, float]  # seconds per stage: STAGES, plus any the backend adds
    compiles: int  # distinct sources compiled (and containers verified) in this batch
    items: int  # (candidate, test) pairs run
    layout: LayoutStats | None = None
    counts: dict[str, int] = field(default_factory=dict)
    batched: int = 0  # of `compiles`, sources the batched C compiler compiled (compiler.batched)

    def __post_init__(self) -> None:
        self.counts = dict(Counter(r.verdict for r in self.results))

    @property
    def steps(self) -> int:
        return sum(r.steps for r in self.results)

    @property
    def candidates_per_s(self) -> float:
        total = self.timings.get("total", 0.0)
        return len(self.results) / total if total > 0 else 0.0

    @property
    def ops_per_s(self) -> float:
        """Bytecode instructions per second of kernel time."""
        kernel = self.timings.get("kernel", 0.0)
        return self.steps / kernel if kernel > 0 else 0.0

    def summary(self) -> str:
        stages = ", ".join(f"{s} {self.timings.get(s, 0.0) * 1e3:.1f} ms" for s in STAGES)
        counts = ", ".join(f"{v}: {n}" for v, n in sorted(self.counts.items()))
        rate = f"{self.candidates_per_s:,.0f} candidates/s"
        return f"{len(self.results)} candidates on {self.backend} ({counts}); {stages}; {rate}"


def cuda_available() -> bool:
    """Whether the CUDA backend can run here (False when vm.cuda or cupy cannot be imported)."""
    try:
        from vm import cuda
    except ImportError:
        return False
    try:
        return bool(cuda.available())
    except Exception:  # a broken driver is an unavailable device, not a crash of the pipeline
        return False


COMPILED_KEPT = 4096
"""Compiled programs (or compile errors) a Pipeline keeps for its later batches."""
APART_MIN = 16
"""Reference compiles a batch needs before they go to worker processes (`compile_processes`):
fewer cost less than handing them over."""
APART_CHUNK = 4
"""Sources per hand-over to a worker process."""


def _reference(key: tuple[str, str, tuple[Type, ...] | None]) -> Program:
    """The reference compiler's program for a (source, entry, argument types) key: the entry
    compiled for those types (its annotations' where None); CompileError otherwise."""
    code, entry, arg_types = key
    types = {entry: list(arg_types)} if arg_types is not None else None
    return compile_source(code, f"<{entry}>", arg_types=types, require=[entry])


def _reference_in_process(
    key: tuple[str, str, tuple[Type, ...] | None],
) -> tuple[bool | None, bytes]:
    """In a worker process: (True, the container's bytes) of `compile_source` on the key's
    source, as `Pipeline._program` calls it; (False, the CompileError's text); (None, the
    exception) for anything else (`_program` then compiles it itself)."""
    try:
        return True, _reference(key).to_bytes()
    except CompileError as e:
        return False, str(e).encode()
    except Exception as e:  # noqa: BLE001  # this process's accident: compiled again in place
        return None, repr(e).encode()


class Pipeline:
    """Compile -> execute -> verify on one backend (module docstring)."""

    def __init__(
        self,
        backend: str = "auto",
        limits: Limits | None = None,
        threads: int | None = None,
        compile_path: str = "deterministic",
        checkpoint: str | None = None,
        compiler: str = "batched",
        compile_processes: int = 0,
    ) -> None:
        """`compile_path`: "deterministic" (compiler/), "neural" (sampled and verified against
        the deterministic compiler's bytecode; none verified is a compile error) or "hybrid"
        (neural.router, Algorithm 3: falls back to the deterministic program). `checkpoint`:
        the neural model (default neural/checkpoints/small.pt). `compiler`: "batched" (the C
        compiler of compiler/batched.py for every source it covers, in one call per batch, the
        reference compiler for the rest) or "reference" (compile_source for all); both give
        the same bytes. `compile_processes`: worker processes that run the reference compiler
        for a batch's sources the batched compiler leaves to it (`_compile_apart`), when a batch
        has at least APART_MIN of them (`close()` stops them); 0 (the default): in this
        thread. `limits` default to `Limits()`. A Pipeline reads no settings: kiln's edges
        pass the settings' ([vm], [runtime] compiler) down (docs/ARCHITECTURE.md)."""
        limits = limits if limits is not None else Limits()
        if compiler not in ("batched", "reference"):
            raise ValueError(f"unknown compiler {compiler!r}: choose batched or reference")
        self.compiler = compiler
        if compile_path not in COMPILE_PATHS:
            raise ValueError(
                f"unknown compile path {compile_path!r}: choose deterministic, neural or hybrid"
            )
        self.compile_path = compile_path
        self.checkpoint = checkpoint
        self._router: Any = None
        if backend == "auto":
            backend = "cuda" if cuda_available() else "cpu"
        if backend not in ("cuda", "cpu", "ref"):
            raise ValueError(f"unknown backend {backend!r}: choose auto, cuda, cpu or ref")
        self.backend = backend
        self.limits = limits
        self.threads = threads
        # (source, entry, argument types) -> its program or compile error, and whether the
        # batched compiler gave it: what one batch compiled, the next batches find (a job's
        # identical samples fall in different batches). Deterministic compiling only.
        self._compiled: dict[Any, tuple[Program | CandidateResult, bool]] = {}
        # a compiled container's bytes -> its one loaded Program (`_load`), and that Program's
        # id -> the bytes: sources that differ only where the bytecode does not (comments,
        # blank lines, a restated prompt) share one program, loaded, verified and flattened once
        self._loaded: dict[bytes, Program] = {}
        self._container: dict[int, bytes] = {}
        self.compile_processes = compile_processes
        self._apart: Any = None  # the process pool of `_compile_apart`, started on first use

    def variant(
        self, limits: Mapping[str, int] | None = None, compile_path: str = "deterministic"
    ) -> Pipeline:
        """This Pipeline with a job's own `limits` (fields of `Limits` to override) and compile
        path: itself when they change nothing, else a new one on the same backend, threads,
        compiler and checkpoint."""
        if not limits and compile_path == self.compile_path:
            return self
        return Pipeline(
            self.backend,
            self.limits.replace(**limits) if limits else self.limits,
            threads=self.threads,
            compile_path=compile_path,
            checkpoint=self.checkpoint,
            compiler=self.compiler,
            compile_processes=self.compile_processes,
        )

    def run(
        self,
        candidates: Sequence[CandidateLike],
        tests: Tests,
        detail: bool = False,
        cancel: Cancel | None = None,
    ) -> BatchReport:
        """Verify `candidates` against their tests. `tests` is one list for all candidates, a
        list per candidate (the same list object may be shared), or a mapping from problem to
        list, each candidate naming its `problem`. `detail`: each result also gets `tests`,
        each test's own verdict (`_add_detail`). `cancel`: another thread may stop the batch
        (`vm.batch.Cancel`); it then raises `Cancelled` (between candidates while compiling,
        between items while running)."""
        with _gc_paused():
            return self._run(candidates, tests, detail, cancel)

    def _run(
        self,
        candidates: Sequence[CandidateLike],
        tests: Tests,
        detail: bool,
        cancel: Cancel | None,
    ) -> BatchReport:
        start = time.perf_counter()
        cands = [as_candidate(c) for c in candidates]
        test_lists = tests_per_candidate(cands, tests)
        results: list[CandidateResult | None] = [None] * len(cands)

        # Candidates with the same code, entry, argument types and test list are the same run:
        # everything up to the VM is worked out once per distinct key (a str caches its hash),
        # and per candidate only with arrays. `first[k]` is key k's first candidate.
        kid: dict[tuple[Any, str, Any, int], int] = {}
        first: list[int] = []
        kids: list[int] = []
        for i, (c, t) in enumerate(zip(cands, test_lists, strict=True)):
            types = c.arg_types
            key = (c.code, c.entry, None if types is None else tuple(types), id(t))
            k = kid.get(key)
            if k is None:
                k = kid[key] = len(first)
                first.append(i)
            kids.append(k)
        kid_of = np.array(kids, dtype=np.int64)
        ucands = [cands[i] for i in first]
        utests = [test_lists[i] for i in first]

        # 1. compile (or load and verify), each distinct one once
        memo = _Memo()
        if self.compiler == "batched":
            self._compile_batched(ucands, utests, memo)
        if self.compile_processes > 0 and self.compile_path == "deterministic":
            self._compile_apart(ucands, utests, memo)
        resolved: list[tuple[Program, int] | CandidateResult] = []
        for cand, test_list in zip(ucands, utests, strict=True):
            if cancel is not None:
                cancel.check()
            resolved.append(self._resolve(cand, test_list, memo))
        t_compile = time.perf_counter()

        # 2. build: marshal each distinct (test list, signature) once; each key's rows (its
        # module's code first, where it has some, then the entry) once; lay out, build
        builder = BatchBuilder()
        ranges: dict[tuple[int, tuple[Type, ...], Type], tuple[int, int] | CandidateResult] = {}
        template: list[list[tuple[int, int, int, int]]] = []  # per key: (program, fn, start, end)
        for k, outcome in enumerate(resolved):
            if isinstance(outcome, CandidateResult):
                template.append([])
                continue
            program, function = outcome
            params, ret = program.signature(function)
            signature = (id(utests[k]), tuple(params), ret)
            if signature not in ranges:
                try:
                    ranges[signature] = builder.add_tests(program, function, utests[k])
                except ValueError as e:
                    call = f"{ucands[k].entry}({', '.join(map(str, params))}) -> {ret}"
                    why = f"the tests do not fit {call}: {e}"
                    ranges[signature] = CandidateResult(NEEDS_FALLBACK, diagnostic=why)
            span = ranges[signature]
            if isinstance(span, CandidateResult):
                resolved[k] = span
                template.append([])
                continue
            index = builder.program_index(program)
            rows_k = []
            init = module_function(program, function)
            if init is not None:  # the module's code first: a row of its own
                key_init = (id(MODULE_TESTS), (), program.signature(init)[1])
                if key_init not in ranges:
                    ranges[key_init] = builder.add_tests(program, init, MODULE_TESTS)
                init_span = ranges[key_init]
                assert not isinstance(init_span, CandidateResult)
                rows_k.append((index, init, *init_span))
            rows_k.append((index, function, *span))
            template.append(rows_k)
        per_key = np.array([len(t) for t in template], dtype=np.int64)
        count = per_key[kid_of]  # rows per candidate: 0 (a verdict already), 1, or 2 (module)
        ran = np.nonzero(count)[0]  # the candidates the VM runs, in order
        for i in np.nonzero(count == 0)[0].tolist():
            # a copy: candidates sharing a verdict share no object
            results[i] = replace(resolved[int(kid_of[i])])  # type: ignore[type-var]
        stats = None
        result = None
        timings: dict[str, float] = {}
        if len(ran):
            table = np.array([r for t in template for r in t], dtype=np.int64).reshape(-1, 4)
            key_start = np.cumsum(per_key) - per_key
            total_rows = int(count.sum())
            ends = np.cumsum(count)
            # row r of candidate i is the template row key_start[kid_of[i]] + (r - its first)
            within = np.arange(total_rows, dtype=np.int64) - np.repeat(ends - count, count)
            rows_table = table[np.repeat(key_start[kid_of], count) + within]
            builder.add_rows(rows_table)
            main_row = ends[ran] - 1  # each run candidate's own row; its module's just before
            words = np.array(
                [sum(len(fn.code) for fn in p.functions) for p in builder.programs], dtype=np.int64
            )
            work = Work(rows_table[:, 0].copy(), rows_table[:, 2:4].copy(), words)
            items = layout(work)
            # every program here was compiled by kiln's compilers or verified on loading
            batch = builder.build(items, trusted=True)
            stats = measure(items, work.cand_program)
            t_build = time.perf_counter()
            # 3. execute and verify
            result = verify(
                batch, backend=self.backend, limits=self.limits, threads=self.threads, cancel=cancel
            )
            timings.update(result.timings)
            for stage, alias in STAGE_ALIASES.items():
                if stage not in timings and alias in timings:
                    timings[stage] = timings[alias]
        else:
            t_build = time.perf_counter()

        if result is not None:
            verdict = result.verdict[main_row].astype(np.int64)
            trap = result.trap[main_row].astype(np.int64)
            steps = result.steps[main_row].astype(np.int64)
            fail_test = result.fail_test[main_row].astype(np.int64)
            with_module = count[ran] == 2
            init_row = main_row[with_module] - 1
            steps[with_module] += result.steps[init_row]
            # the module's code failed: the tests never ran in CPython (the result is the
            # module's, `in_module`)
            in_module = np.zeros(len(ran), dtype=bool)
            in_module[with_module] = result.verdict[init_row] != 0
            init_of_failed = main_row[in_module] - 1
            verdict[in_module] = result.verdict[init_of_failed]
            trap[in_module] = result.trap[init_of_failed]
            steps[in_module] = result.steps[init_of_failed]
            fail_test[in_module] = -1
            program_of = rows_table[main_row, 0]
            containers: dict[int, bytes] = {}  # one .kbc per passing program
            trap_names = [None, *(t.name for t in TRAPS[1:])]
            for i, p, code, t, n, f, m in zip(
                ran.tolist(), program_of.tolist(), verdict.tolist(), trap.tolist(),
                steps.tolist(), fail_test.tolist(), in_module.tolist(), strict=True,
            ):  # fmt: skip
                if code == 0 and p not in containers:
                    program = builder.programs[p]
                    containers[p] = self._container.get(id(program)) or program.to_bytes()
                # positional (a quarter cheaper than keywords, once per candidate): verdict,
                # fail_test, trap, steps, bytecode, diagnostic, path, tests, in_module
                results[i] = CandidateResult(
                    VERDICT_NAMES[code], f, trap_names[t], n,
                    containers[p] if code == 0 else None, None, "vm", None, m,
                )  # fmt: skip
        end = time.perf_counter()
        timings.update(compile=t_compile - start, build=t_build - t_compile, total=end - start)
        for stage in STAGES:
            timings.setdefault(stage, 0.0)
        done = [r for r in results if r is not None]
        assert len(done) == len(cands)
        if detail:
            runs = {i: resolved[int(kid_of[i])] for i in ran.tolist()}
            self._add_detail(cands, test_lists, done, runs, cancel)
        return BatchReport(
            done,
            self.backend,
            timings,
            memo.compiles,
            len(items) if len(ran) else 0,
            stats,
            batched=memo.batched_used,
        )

    def _add_detail(
        self,
        cands: Sequence[Candidate],
        test_lists: Sequence[Sequence[TestSpec]],
        results: Sequence[CandidateResult],
        ran: Mapping[int, Any],
        cancel: Cancel | None,
    ) -> None:
        """Each test's own verdict, trap, steps and diagnostic in `results[i].tests`. The
        candidates the VM ran (`ran`: index -> (program, entry)) are run once more per test on
        its own, typed by the whole list's signature, in one batch; the others (compile error,
        invalid bytecode, tests that do not fit) give every test their verdict."""
        singles: list[Candidate] = []
        single_tests: list[list[TestSpec]] = []
        for i, (program, function) in ran.items():
            params, _ = program.signature(function)
            one = replace(cands[i], arg_types=tuple(params))
            for test in test_lists[i]:
                singles.append(one)
                single_tests.append([test])
        per_test = iter(self.run(singles, single_tests, cancel=cancel).results if singles else [])
        for i, result in enumerate(results):
            if i in ran:
                outcomes = [next(per_test) for _ in test_lists[i]]
            else:
                outcomes = [result] * len(test_lists[i])
            result.tests = [
                {
                    "test": k,
                    "verdict": r.verdict,
                    "trap": r.trap,
                    "steps": r.steps if i in ran else 0,
                    "diagnostic": r.diagnostic if i in ran else None,  # else the result's own
                }
                for k, r in enumerate(outcomes)
            ]

    def _resolve(
        self, cand: Candidate, tests: Sequence[TestSpec], memo: _Memo
    ) -> tuple[Program, int] | CandidateResult:
        """The candidate's program and entry function index, or its verdict."""
        outcome = self._program(cand, tests, memo)
        if isinstance(outcome, CandidateResult):
            return outcome
        try:
            return outcome, outcome.function_index(cand.entry)
        except KeyError as e:
            return CandidateResult(INVALID_BYTECODE, diagnostic=str(e.args[0]))

    def _program(
        self, cand: Candidate, tests: Sequence[TestSpec], memo: _Memo
    ) -> Program | CandidateResult:
        """The candidate's program, compiled or loaded once per distinct input; or its verdict."""
        if isinstance(cand.code, bytes):
            if cand.code not in memo.programs:
                memo.compiles += 1
                try:
                    memo.programs[cand.code] = verify_bytes(cand.code)
                except (ContainerError, VerifyError) as e:
                    memo.programs[cand.code] = CandidateResult(INVALID_BYTECODE, diagnostic=str(e))
            return memo.programs[cand.code]
        arg_types = self._arg_types(cand, tests, memo)
        if isinstance(arg_types, CandidateResult):
            return arg_types
        key = (cand.code, cand.entry, arg_types)
        if key not in memo.programs:
            kept = memo.kept.pop(key, None) or self._compiled.get(key)
            if kept is not None:
                memo.compiles += 1  # a distinct source of this batch, compiled by an earlier one
                memo.programs[key], by_batched = kept
                memo.batched_used += by_batched
        if key not in memo.programs:
            memo.compiles += 1
            batched = memo.batched.pop(key, None)
            apart = memo.apart.pop(key, None)
            try:
                memo.batched_used += batched is not None
                if isinstance(apart, str):  # the reference's CompileError, from a process
                    memo.programs[key] = CandidateResult(COMPILE_ERROR, diagnostic=apart)
                else:
                    memo.programs[key] = batched or apart or _reference(key)
            except CompileError as e:
                memo.programs[key] = CandidateResult(COMPILE_ERROR, diagnostic=str(e))
            else:
                if self.compile_path != "deterministic":
                    reference = memo.programs[key]
                    assert isinstance(reference, Program)
                    memo.programs[key] = self._neural(cand, reference, tests)
            if self.compile_path == "deterministic":
                self._remember(key, memo.programs[key], batched is not None)
        return memo.programs[key]

    def _load(self, data: bytes) -> Program:
        """The Program of a compiler's container `data`: one object for equal bytes, the most
        recent COMPILED_KEPT of them (the batch verifies and flattens each object once)."""
        program = self._loaded.get(data)
        if program is None:
            program = load(data)
            if len(self._loaded) >= COMPILED_KEPT:
                old = self._loaded.pop(next(iter(self._loaded)))
                self._container.pop(id(old), None)
            self._loaded[data] = program
            self._container[id(program)] = data
        return program

    def _remember(self, key: Any, outcome: Program | CandidateResult, by_batched: bool) -> None:
        """Keep a compiled program (or its compile error) for later batches, the most recent
        COMPILED_KEPT of them."""
        if len(self._compiled) >= COMPILED_KEPT:
            self._compiled.pop(next(iter(self._compiled)))
        self._compiled[key] = (outcome, by_batched)

    def _arg_types(
        self, cand: Candidate, tests: Sequence[TestSpec], memo: _Memo
    ) -> tuple[Type, ...] | None | CandidateResult:
        """The argument types the entry function is compiled for: None where its parameters
        are annotated, else the candidate's own or its tests' (or the verdict why not)."""
        assert isinstance(cand.code, str)
        if (cand.code, cand.entry) not in memo.annotated:
            memo.annotated[cand.code, cand.entry] = entry_annotated(cand.code, cand.entry, True)
        if memo.annotated[cand.code, cand.entry]:
            return None
        if cand.arg_types is not None:
            return tuple(cand.arg_types)  # a list given for the tuple would not hash
        if not tests:
            return None
        if id(tests) not in memo.arg_types:
            memo.arg_types[id(tests)] = entry_arg_types(cand.entry, tests)
        inferred = memo.arg_types[id(tests)]
        if isinstance(inferred, str):
            if entry_annotated(cand.code, cand.entry):  # the quick answer's one difference:
                return None  # a source that does not parse is its compiler's error to give
            return CandidateResult(NEEDS_FALLBACK, diagnostic=inferred)
        return inferred

    def _source_keys(
        self, cands: Sequence[Candidate], test_lists: Sequence[Sequence[TestSpec]], memo: _Memo
    ) -> Iterator[tuple[str, str, tuple[Type, ...] | None]]:
        """(source, entry, argument types) of each source candidate that has its types."""
        for cand, tests in zip(cands, test_lists, strict=True):
            if isinstance(cand.code, str):
                arg_types = self._arg_types(cand, tests, memo)
                if not isinstance(arg_types, CandidateResult):
                    yield (cand.code, cand.entry, arg_types)

    def _compile_batched(
        self, cands: Sequence[Candidate], test_lists: Sequence[Sequence[TestSpec]], memo: _Memo
    ) -> None:
        """Step 1a: every distinct source the batched C compiler covers, compiled in one call
        (`compiler.batched`, byte-identical to `compile_source`); `_program` takes these and
        compiles the rest, and gives every diagnostic, with the reference compiler."""
        keys: dict[tuple[str, str, tuple[Type, ...] | None], None] = {}
        for key in self._source_keys(cands, test_lists, memo):
            kept = self._compiled.get(key)
            if kept is not None:  # an earlier batch's, held for `_program` (this batch's own
                memo.kept[key] = kept  # compiles may push it out of _compiled)
            else:
                keys.setdefault(key)
        if not keys:
            return
        from compiler.batched import compile_batch

        todo = list(keys)
        compiled = compile_batch(
            [code for code, _, _ in todo],
            [f"<{entry}>" for _, entry, _ in todo],
            [{entry: list(types)} if types is not None else None for _, entry, types in todo],
            threads=self.threads,
        )
        for key, result in zip(todo, compiled, strict=True):
            if isinstance(result, bytes):
                program = self._load(result)
                if any(fn.name == key[1] for fn in program.functions):
                    memo.batched[key] = program  # else the reference says why it is missing

    def _compile_apart(
        self, cands: Sequence[Candidate], test_lists: Sequence[Sequence[TestSpec]], memo: _Memo
    ) -> None:
        """Step 1b: the distinct sources the batched compiler left to the reference compiler,
        compiled by it in `compile_processes` worker processes (`_reference_in_process`: the
        program comes back as its container's bytes, loaded here as the batched compiler's
        are; a CompileError as its text), when there are at least APART_MIN; `_program` takes
        these as it takes the batched compiler's. The reference compiler is Python: in this
        thread it holds the GIL, in processes it runs on every core. A source a process could
        not answer for (it died, or raised something else) is compiled here as before."""
        keys = {
            key: None
            for key in self._source_keys(cands, test_lists, memo)
            # not an earlier batch's, nor the batched compiler's
            if key not in self._compiled and key not in memo.kept and key not in memo.batched
        }
        if len(keys) < APART_MIN:
            return
        todo = list(keys)
        try:
            pool = self._apart_pool()
            answers = list(pool.map(_reference_in_process, todo, chunksize=APART_CHUNK))
        except Exception:  # a pool that cannot start or broke: this thread compiles them all
            self._close_apart()
            return
        for key, (ok, payload) in zip(todo, answers, strict=True):
            if ok is True:
                memo.apart[key] = self._load(payload)
            elif ok is False:
                memo.apart[key] = payload.decode()

    def _apart_pool(self) -> Any:
        if self._apart is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            # forkserver: the workers fork from a fresh interpreter that imported the compiler,
            # not from this process and its threads
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["compiler.reference"])
            self._apart = ProcessPoolExecutor(self.compile_processes, mp_context=context)
        return self._apart

    def _close_apart(self) -> None:
        if self._apart is not None:
            self._apart.shutdown(wait=False, cancel_futures=True)
            self._apart = None

    def close(self) -> None:
        """Stop the reference compiler's worker processes, if any were started."""
        self._close_apart()

    def _neural(
        self, cand: Candidate, reference: Program, tests: Sequence[TestSpec]
    ) -> Program | CandidateResult:
        """The neural or hybrid compile path (neural.router): candidates verified in the VM
        against `reference` on the tests' arguments and random inputs."""
        if self._router is None:
            from neural.router import router_for

            self._router = router_for(self.compile_path, self.checkpoint)
        inputs = [t.args for t in tests]
        result = self._router.compile(cand.code, cand.entry, inputs=inputs, reference=reference)
        if result.path == "neural" or self.compile_path == "hybrid":
            return result.program
        return CandidateResult(COMPILE_ERROR, diagnostic=f"neural compile path: {result.reason}")


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while a batch makes its objects (a key, a row and a
    result per candidate, none in a cycle): each of its passes walks every object alive, so at
    1e6 candidates it made the per-candidate loops about 2.5x slower. Back on afterwards, if it
    was on (it is process-wide: a batch in another thread may turn it back on early, which costs
    only time)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


@dataclass
class _Memo:
    """What one batch has already worked out, so each distinct input is handled once."""

    programs: dict[Any, Program | CandidateResult] = field(default_factory=dict)
    annotated: dict[tuple[str, str], bool] = field(default_factory=dict)
    arg_types: dict[int, tuple[Type, ...] | str] = field(default_factory=dict)
    batched: dict[Any, Program] = field(default_factory=dict)  # from compiler.batched
    kept: dict[Any, tuple[Program | CandidateResult, bool]] = field(default_factory=dict)
    # from the reference compiler in worker processes (`Pipeline._compile_apart`): the program,
    # or its CompileError's text
    apart: dict[Any, Program | str] = field(default_factory=dict)
    compiles: int = 0
    batched_used: int = 0


# Annotations that name a container without its element type (`l: list`): the types of the
# tests' arguments complete them.
_BARE_CONTAINERS = frozenset({"list", "List", "tuple", "Tuple", "dict", "Dict", "set", "Set"})


_BRACKETS = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}  # depth each one adds


@functools.lru_cache(maxsize=1024)
def _def_of(entry: str) -> re.Pattern[str]:
    return re.compile(rf"def\s+{re.escape(entry)}\b")


HEADERS_KEPT = 4096
"""Header lines whose answer `_header_answer` keeps (the candidates of one problem share theirs)."""
_header_answers: dict[tuple[str, str], bool | None] = {}
_header_lock = threading.Lock()
_UNKNOWN = object()


def _header_line(source: str, entry: str) -> str | None:
    """The whole line that holds `entry`'s header, where parsing that header alone is as good
    as parsing the source: the source names `def entry` once, at the start of a line. None
    otherwise. (`_header_text` then looks at the line itself.)"""
    found = list(_def_of(entry).finditer(source))
    if len(found) != 1:
        return None
    start = found[0].start()
    if start and source[start - 1] != "\n":
        return None
    end = source.find("\n", start)
    return source[start : end if end >= 0 else len(source)]


def _header_text(line: str) -> str | None:
    """The header in `line` (`_header_line`'s), from `def` to the bracket that closes its
    parameter list, where that closes on the line without a quote in it; None otherwise. A
    source whose one such line lies inside a string has no def of `entry`: its compile fails
    either way (with another message, under other argument types)."""
    opened = line.find("(")
    if opened < 0 or "'" in line or '"' in line:
        return None
    depth = 0
    for k in range(opened, len(line)):
        depth += _BRACKETS.get(line[k], 0)
        if depth == 0:
            return line[: k + 1]
    return None


def _header_only(source: str, entry: str) -> ast.FunctionDef | None:
    """`entry`'s def, parsed from its header alone (`_header_line`, `_header_text`), where that
    is as good as parsing the source; None otherwise (and where the header alone does not
    parse)."""
    line = _header_line(source, entry)
    header = _header_text(line) if line is not None else None
    return None if header is None else _parse_header(header, entry)


def _parse_header(header: str, entry: str) -> ast.FunctionDef | None:
    try:
        tree = ast.parse(header + ": pass")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    fn = tree.body[0] if len(tree.body) == 1 else None
    return fn if isinstance(fn, ast.FunctionDef) and fn.name == entry else None


def _header_answer(source: str, entry: str) -> bool | None:
    """Whether `entry`'s parameters are all annotated, read from its header lines alone, where
    that is as good as parsing the source: every place the source names `def entry` starts a
    line whose header closes on it (`_header_text`) and parses, and they all give one answer
    (a restated prompt's def and its completion's: the last def, which stays bound, is one of
    them). None otherwise. Each line looked at once (the most recent HEADERS_KEPT of them):
    the samples of one problem mostly restate its prompt's header."""
    found = list(_def_of(entry).finditer(source))
    if not found:
        return None
    answers: set[bool | None] = set()
    for match in found:
        start = match.start()
        if start and source[start - 1] != "\n":
            return None
        end = source.find("\n", start)
        answers.add(_line_answer(source[start : end if end >= 0 else len(source)], entry))
    return answers.pop() if len(answers) == 1 else None


def _line_answer(line: str, entry: str) -> bool | None:
    """`_annotated` of the def whose header `line` holds (`_header_text`), None where it has
    none that parses alone; kept per line."""
    key = (line, entry)
    answer = _header_answers.get(key, _UNKNOWN)
    if answer is _UNKNOWN:
        header = _header_text(line)
        fn = _parse_header(header, entry) if header is not None else None
        answer = None if fn is None else _annotated(fn)
        with _header_lock:  # Pipelines in several threads share the table
            if len(_header_answers) >= HEADERS_KEPT:
                _header_answers.pop(next(iter(_header_answers)))
            _header_answers[key] = answer
    return answer  # type: ignore[return-value]


def entry_annotated(source: str, entry: str, quick: bool = False) -> bool:
    """Whether every parameter of `entry` is fully annotated (True when the source does not
    parse or has no such function: the compiler then says why). `quick`: the header lines alone
    are parsed where they can tell (`_header_answer`: one def of `entry`, or a restated one whose
    headers agree; each distinct line once): ~3 us a dev-set program against 242 us; the answer
    then differs only for a source that does not parse, which no argument types compile."""
    answer = _header_answer(source, entry) if quick else None
    if answer is not None:
        return answer
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # nesting CPython gives up on
        return True
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == entry]
    if not defs:
        return True
    return _annotated(defs[-1])  # the last definition is the one that stays bound


def _annotated(fn: ast.FunctionDef) -> bool:
    return all(
        a.annotation is not None
        and not (isinstance(a.annotation, ast.Name) and a.annotation.id in _BARE_CONTAINERS)
        for a in fn.args.args
    )


def entry_arg_types(entry: str, tests: Sequence[TestSpec]) -> tuple[Type, ...] | str:
    """The types of the tests' arguments, each parameter typed by the first test whose argument
    has a complete type (`[]` has none: a later `[3]` gives list[int]), or why they have none.
    The compiled signature is then checked against every test when the batch is marshalled."""
    arity = len(tests[0].args)
    types: list[Type] = []
    for i in range(arity):
        reason = ""
        for test in tests:
            if len(test.args) != arity:
                break
            try:
                types.append(type_of_value(test.args[i]))
                break
            except ValueError as e:
                reason = reason or str(e)
        else:
            return f"cannot type {entry} from its tests' arguments: {reason}"
        if len(types) != i + 1:
            return f"cannot type {entry}: its tests pass different numbers of arguments"
    return tuple(types)
