"""Probabilistic verification (paper Algorithm 2) and the estimators of equations 6-8.

`neural_compile(ckpt, source, entry, tests, k)` samples k candidates (`neural.decode`), runs
every distinct one on the tests in the VM, then tests the survivors differentially against the
deterministic compiler's bytecode on random inputs of the entry's parameter types, and returns
the verified candidate that runs the tests in the fewest steps, or none. A candidate that passes
the tests but differs from the reference on a random input is a *false accept* of tests alone;
they are counted.

Tests are `(args, outcome)` with outcome `("value", repr(v))` or `("raise", ExceptionName)`;
`cpython_tests` makes them by running the source in CPython. A run that needs the CPython
fallback (an int past 64 bits, ...) is never counted as a pass.

Estimators: `p_correct = c / k` (equation 6's quantity), `p_success(p, k) = 1 - (1 - p)^k`
(equation 7), `k_99(p) = log 0.01 / log(1 - p)` (equation 8), and the measured success at k
from the samples themselves (`bench.paper`, with evaluation's unbiased pass@k estimator).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from compiler import compile_source
from vm import ExecResult, execute_batch
from vm.container import Program
from vm.limits import Limits
from vm.typecheck import check_types
from vm.verify import VerifyError

if TYPE_CHECKING:
    from neural.decode import Sample
    from neural.train import Checkpoint

Outcome = tuple[str, str]
Test = tuple[tuple[Any, ...], Outcome]


# ---- estimators (equations 6-8) ----------------------------------------------------------------


def p_success(p: float, k: int | np.ndarray) -> Any:
    """Equation 7: the chance that at least one of k independent samples is correct."""
    return 1.0 - (1.0 - p) ** np.asarray(k)


def k_99(p: float) -> float:
    """Equation 8: samples needed for 99% success (inf when p = 0)."""
    if p <= 0:
        return math.inf
    if p >= 1:
        return 1.0
    return math.log(0.01) / math.log(1.0 - p)


# ---- tests ---------------------------------------------------------------------------------------


def cpython_outcome(source: str, entry: str, args: Sequence[Any]) -> Outcome:
    """Run `entry(*args)` of `source` in CPython (trusted, terminating code: generated programs
    and the user's own file)."""
    import copy

    namespace: dict[str, Any] = {}
    exec(compile(source, "<source>", "exec"), namespace)  # noqa: S102
    try:
        return ("value", repr(namespace[entry](*copy.deepcopy(list(args)))))
    except Exception as e:  # noqa: BLE001 - any exception is an outcome
        return ("raise", type(e).__name__)


def cpython_tests(source: str, entry: str, inputs: Sequence[Sequence[Any]]) -> list[Test]:
    return [(tuple(args), cpython_outcome(source, entry, args)) for args in inputs]


def random_inputs(program: Program, entry: str, n: int, seed: int) -> list[tuple[Any, ...]]:
    """n random argument tuples for `entry`'s parameter types (the generator's value makers)."""
    from fuzz.generator import VALUE_TYPES, random_value

    params, _ = program.signature(program.function_index(entry))
    names = [str(t) for t in params]
    if any(name not in VALUE_TYPES for name in names):
        return []
    rng = random.Random(seed)
    return [tuple(random_value(rng, name) for name in names) for _ in range(n)]


# ---- Algorithm 2 -------------------------------------------------------------------------------


@dataclass
class CandidateVerdict:
    wellformed: bool
    passed_tests: bool = False
    agrees: bool = False  # with the reference on the random inputs
    steps: int = 0  # on the tests
    error: str = ""

    @property
    def verified(self) -> bool:
        return self.passed_tests and self.agrees


@dataclass
class NeuralResult:
    source: str
    entry: str
    k: int
    verdicts: list[CandidateVerdict] = field(default_factory=list)
    best: Program | None = None
    best_steps: int = 0
    reference_steps: int | None = None
    reference_instructions: int = 0
    distinct: int = 0
    gen_seconds: float = 0.0
    verify_seconds: float = 0.0
    error: str = ""

    @property
    def n_verified(self) -> int:
        return sum(v.verified for v in self.verdicts)

    @property
    def n_false_accepts(self) -> int:
        return sum(v.passed_tests and not v.agrees for v in self.verdicts)

    @property
    def n_ill_typed(self) -> int:
        """Samples that kept vm.verify's rules but failed the typed check (never run)."""
        return sum(v.error.startswith("ill-typed") for v in self.verdicts)

    @property
    def n_passed_tests(self) -> int:
        return sum(v.passed_tests for v in self.verdicts)

    @property
    def p_correct(self) -> float:
        return self.n_verified / self.k if self.k else 0.0

    def summary(self) -> str:
        lines = [
            f"{self.k} samples: {sum(v.wellformed for v in self.verdicts)} well-formed "
            f"({self.n_ill_typed} ill-typed), "
            f"{self.distinct} distinct, {self.n_passed_tests} passed the tests, "
            f"{self.n_verified} verified "
            f"(p_correct {self.p_correct:.3f}, k_99 {k_99(self.p_correct):.1f}), "
            f"{self.n_false_accepts} false accepts of the tests alone",
            f"time: sampling {self.gen_seconds * 1e3:.0f} ms, "
            f"verifying {self.verify_seconds * 1e3:.0f} ms",
        ]
        if self.best is not None:
            code = sum(len(f.code) for f in self.best.functions)
            compare = ""
            if self.reference_steps:
                ratio = self.best_steps / self.reference_steps
                compare = (
                    f"; deterministic compiler: {self.reference_instructions} instructions, "
                    f"{self.reference_steps} steps (the candidate takes {ratio:.2f}x its steps)"
                )
            lines.append(
                f"best: {code} instructions, {self.best_steps} steps on the tests{compare}"
            )
        else:
            lines.append(f"no candidate verified{': ' + self.error if self.error else ''}")
        return "\n".join(lines)


def _same(result: ExecResult, expected: Outcome) -> bool:
    return not result.needs_fallback and result.outcome == expected


def verify_samples(
    samples: Sequence[Sample],
    reference: Program,
    entry: str,
    tests: Sequence[Test],
    random_args: Sequence[tuple[Any, ...]],
    *,
    backend: str = "cpu",
    threads: int | None = 1,
) -> tuple[list[CandidateVerdict], Program | None, int, int]:
    """Verdicts of samples (Algorithm 2, lines 4-7): (verdicts, best program, its steps on the
    tests, distinct candidates). Each distinct bytecode runs once."""
    ref_runs = execute_batch(
        [(reference, entry, list(a)) for a, _ in tests]
        + [(reference, entry, list(a)) for a in random_args],
        backend=backend,
        threads=threads,
    )
    ref_test_steps = sum(r.steps for r in ref_runs[: len(tests)])
    ref_random = [r.outcome for r in ref_runs[len(tests) :]]
    limits = Limits(fuel=max(10_000, 20 * max((r.steps for r in ref_runs), default=0)))
    distinct: dict[bytes, list[int]] = {}
    programs: dict[bytes, Program] = {}
    verdicts = [CandidateVerdict(wellformed=s.program is not None, error=s.error) for s in samples]
    for i, s in enumerate(samples):
        if s.program is None:
            continue
        s.program.source_name = "<neural>"
        key = s.program.to_bytes()
        distinct.setdefault(key, []).append(i)
        programs[key] = s.program
    signature = reference.signature(reference.function_index(entry))
    keys = [key for key in distinct if _entry_signature(programs[key], entry) == signature]
    for key in distinct:
        if key not in keys:
            for i in distinct[key]:
                verdicts[i].error = f"no function {entry!r} with the entry's signature"
    for key in list(keys):  # the decoder keeps vm.verify's rules, not types: check them here
        try:
            check_types(programs[key])
        except VerifyError as e:
            keys.remove(key)
            for i in distinct[key]:
                verdicts[i].error = f"ill-typed: {e}"

    def run_each(keys: list[bytes], arg_lists: list[Any]) -> dict[bytes, list[Any] | None]:
        """Every program's runs on `arg_lists`, None for a program whose result cannot be read
        back (the verifier checks stack depths, not value types: a sample may return an int
        where its signature says str, which the host then fails to unmarshal)."""
        items = [(programs[key], entry, list(a)) for key in keys for a in arg_lists]
        n = len(arg_lists)
        try:
            runs = execute_batch(items, backend=backend, limits=limits, threads=threads)
            return {key: runs[j * n : (j + 1) * n] for j, key in enumerate(keys)}
        except (ValueError, OverflowError):  # chr() of a word that is no code point
            if len(keys) == 1:
                for i in distinct[keys[0]]:
                    verdicts[i].error = "its result is not a valid value of its declared type"
                return {keys[0]: None}
            out: dict[bytes, list[Any] | None] = {}
            for key in keys:
                out.update(run_each([key], arg_lists))
            return out

    test_runs = run_each(keys, [a for a, _ in tests]) if keys and tests else {}
    passed: list[bytes] = []
    steps: dict[bytes, int] = {}
    for key in keys:
        mine = test_runs.get(key)
        if mine is not None and all(
            _same(r, expected) for r, (_, expected) in zip(mine, tests, strict=True)
        ):
            passed.append(key)
            steps[key] = sum(r.steps for r in mine)
    random_runs = run_each(passed, list(random_args)) if passed and random_args else {}
    agree: set[bytes] = set()
    for key in passed:
        mine = random_runs.get(key, [] if not random_args else None)
        if mine is not None and all(
            not r.needs_fallback and r.outcome == o for r, o in zip(mine, ref_random, strict=True)
        ):
            agree.add(key)
    for key in passed:
        for i in distinct[key]:
            verdicts[i].passed_tests = True
            verdicts[i].agrees = key in agree
            verdicts[i].steps = steps[key]
    best_key = min(agree, key=lambda key: (steps[key], len(key)), default=None)
    best = programs[best_key] if best_key is not None else None
    return verdicts, best, steps.get(best_key, 0) if best_key else ref_test_steps, len(distinct)


def _entry_signature(program: Program, entry: str) -> object:
    for i, fn in enumerate(program.functions):
        if fn.name == entry:
            return program.signature(i)
    return None


def neural_compile(
    ckpt: Checkpoint,
    source: str,
    entry: str,
    tests: Sequence[Test] | None = None,
    k: int = 128,
    *,
    n_random: int = 16,
    seed: int = 0,
    temperature: float = 1.0,
    top_p: float = 0.95,
    backend: str = "cpu",
    reference: Program | None = None,
    inputs: Sequence[Sequence[Any]] | None = None,
) -> NeuralResult:
    """Algorithm 2 for one program. Without `tests`, the tests are CPython's outcomes on
    `inputs` (or on random inputs)."""
    from neural.decode import sample_programs

    result = NeuralResult(source, entry, k)
    reference = reference or compile_source(source, "<reference>")
    if tests is None:
        args = list(inputs) if inputs is not None else random_inputs(reference, entry, 5, seed + 1)
        tests = cpython_tests(source, entry, args)
    if not tests:
        raise ValueError(f"no tests for {entry!r}: give some (--tests) or annotate its parameters")
    randoms = random_inputs(reference, entry, n_random, seed + 2)
    t0 = time.perf_counter()
    [samples] = sample_programs(ckpt, [source], k, temperature=temperature, top_p=top_p, seed=seed)
    t1 = time.perf_counter()
    result.gen_seconds = t1 - t0
    if samples.error:
        result.error = samples.error
        result.verdicts = [CandidateVerdict(False, error=samples.error) for _ in range(k)]
        return result
    verdicts, best, best_steps, distinct = verify_samples(
        samples.samples, reference, entry, tests, randoms, backend=backend
    )
    result.verify_seconds = time.perf_counter() - t1
    result.verdicts, result.best, result.distinct = verdicts, best, distinct
    ref_runs = execute_batch(
        [(reference, entry, list(a)) for a, _ in tests], backend=backend, threads=1
    )
    result.reference_steps = sum(r.steps for r in ref_runs)
    result.reference_instructions = sum(len(f.code) for f in reference.functions)
    result.best_steps = best_steps if best is not None else 0
    return result
