"""The random program generator (fuzz/generator.py) and the CPython side of the fuzz driver.

Every check here runs on CPython alone: the generated programs must compile, stay inside the
kiln subset (docs/LANGUAGE.md), keep one static type per variable, terminate quickly, and
together use every feature the generator names.
"""

from __future__ import annotations

import ast
import copy
import random
import statistics
import subprocess
import sys
import time
import types
import typing
from dataclasses import FrozenInstanceError, dataclass
from pathlib import Path

import pytest

from fuzz import FEATURES, GeneratedProgram, generate, run_fuzz
from fuzz.generator import LEVELS, NEEDS, complexity_of, features_for_level

ROOT = Path(__file__).resolve().parent.parent

# Exceptions a generated program may raise on its own; the others only from `raise X("generated")`.
RUNTIME_ERRORS = {"ZeroDivisionError", "IndexError", "ValueError", "AssertionError",
                  "OverflowError", "UnboundLocalError"}
RAISABLE = {"Exception", "ValueError", "TypeError", "RuntimeError", "IndexError", "KeyError",
            "ZeroDivisionError", "AssertionError", "NotImplementedError"}
BUILTINS = {"len", "range", "abs", "min", "max", "sum", "int", "float", "bool", "str", "sorted",
            "reversed", "enumerate", "list", "ord", "chr", "all", "any", "set", "round", "tuple",
            "zip", "next"}
# math.<f>(...) calls (math_extras; floor and ceil of an int or a float: union_values); math.pi,
# math.e, math.tau read
MATH = {"pow", "isclose", "floor", "ceil"}


def _varied(seed: int) -> dict[str, typing.Any]:
    rng = random.Random(seed)
    return {"size": rng.choice([3, 6, 12, 20, 30, 45]), "depth": rng.randint(1, 4),
            "complexity": rng.choice([None, None, 0, 1, 2, 3, 4, 5])}


@pytest.fixture(scope="module")
def programs() -> list[GeneratedProgram]:
    """300 programs across sizes, depths and complexity levels."""
    return [generate(seed, **_varied(seed)) for seed in range(300)]


# --- runtime types ----------------------------------------------------------------------------

def _shape(value: object) -> str:
    """The static type a value has; ``?`` for the element type of an empty list."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float, str)):
        return type(value).__name__
    if isinstance(value, tuple):
        return "tuple[" + ", ".join(_shape(v) for v in value) + "]"
    if isinstance(value, list):
        shapes = {_shape(v) for v in value}
        known = {s for s in shapes if "?" not in s} or shapes
        inner = known.pop() if len(known) == 1 else "?" if not known else "MIXED"
        return f"list[{inner}]"
    return type(value).__name__


def _fits(shape: str, annotation: str) -> bool:
    """Whether a value of ``shape`` may have the static type ``annotation`` (``Any``: a helper's
    scalar parameter, any_annotation)."""
    if annotation == "Any":
        return shape in ("int", "float", "bool", "str")
    if "?" not in shape:
        return shape == annotation
    pattern = shape.replace("[", r"\[").replace("]", r"\]").replace("?", ".*")
    import re
    return re.fullmatch(pattern, annotation) is not None


def _annotation(annotation: object) -> str:
    origin = typing.get_origin(annotation)
    if origin is None:
        return typing.cast(type, annotation).__name__
    inner = ", ".join(_annotation(a) for a in typing.get_args(annotation))
    return f"{origin.__name__}[{inner}]"


def _type_tracer(namespace: dict[str, typing.Any], problems: list[object],
                 rebinds: bool = False) -> typing.Callable[..., typing.Any]:
    """A sys.settrace function that records, in ``problems``, every local variable of the
    module's functions that changes its type, and every call that breaks an annotation. With
    ``rebinds`` (param_rebound), a parameter may change its type once per call, by the body's
    first statement, and keeps the new one to the end of the call."""
    functions = {f.__code__: f for f in namespace.values() if isinstance(f, types.FunctionType)}
    seen: dict[tuple[str, str], str] = {}
    may_rebind: set[tuple[str, str]] = set()  # parameters of the call under way, not re-bound

    def tracer(frame: types.FrameType, event: str, arg: object) -> typing.Any:
        function = functions.get(frame.f_code)
        if function is None:
            return None
        if event == "call":
            for name, annotation in function.__annotations__.items():
                want = _annotation(annotation) if annotation is not None else "None"
                if name != "return" and not _fits(_shape(frame.f_locals[name]), want):
                    problems.append(("argument", function.__name__, name, want))
                if rebinds and name != "return":  # the argument, as the caller passed it
                    seen.pop((function.__name__, name), None)
                    may_rebind.add((function.__name__, name))
        for name, value in frame.f_locals.items():
            shape = _shape(value)
            key = (function.__name__, name)
            if "MIXED" in shape:
                problems.append(("mixed list", key, value))
            if key in may_rebind and key in seen and seen[key] != shape:
                may_rebind.discard(key)  # re-bound to another kind: the new one from here on
                seen[key] = shape
            if key in seen and "?" not in seen[key] and "?" not in shape and seen[key] != shape:
                problems.append(("type change", key, seen[key], shape))
            if key not in seen or "?" in seen[key]:
                seen[key] = shape
        return tracer

    return tracer


def _run(program: GeneratedProgram, trace_types: bool = False) -> list[tuple[str, object]]:
    """Run every input on CPython; with ``trace_types``, check that each local variable keeps
    one type and each call matches the annotations."""
    code = compile(program.source, "<generated>", "exec", dont_inherit=True)
    outcomes: list[tuple[str, object]] = []
    problems: list[object] = []  # found by the tracer (an assert there would be an outcome)
    for args in program.inputs:
        namespace: dict[str, typing.Any] = {}
        exec(code, namespace)
        if trace_types:
            sys.settrace(_type_tracer(namespace, problems,
                                      rebinds="param_rebound" in program.features))
        try:
            outcomes.append(("value", namespace[program.entry](*copy.deepcopy(args))))
        except Exception as exc:
            outcomes.append(("raise", exc))
        finally:
            sys.settrace(None)
    assert not problems, (problems[:3], program.seed, program.source)
    return outcomes


def _check_outcomes(program: GeneratedProgram, outcomes: list[tuple[str, object]]) -> None:
    returns = _annotation(typing.get_type_hints(_namespace(program)[program.entry])["return"])
    for kind, result in outcomes:
        if kind == "value":
            if result is None and "falls_off" in program.features:
                continue  # the entry ended without return: CPython's None
            assert _fits(_shape(result), returns), (program.seed, result, returns)
            continue
        assert isinstance(result, Exception)
        name = type(result).__name__
        if str(result) in ("generated", "'generated'"):
            assert name in RAISABLE
        elif name == "UnboundLocalError":
            assert "maybe_unbound" in program.features, program.source
        else:
            assert name in RUNTIME_ERRORS, (program.seed, repr(result), program.source)


def _namespace(program: GeneratedProgram) -> dict[str, typing.Any]:
    namespace: dict[str, typing.Any] = {}
    exec(compile(program.source, "<generated>", "exec", dont_inherit=True), namespace)
    return namespace


# --- the kiln subset, checked statically ---------------------------------------------------------

_NODES = (ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Return, ast.Assign,
          ast.AugAssign, ast.AnnAssign, ast.For, ast.While, ast.If, ast.Expr, ast.Pass,
          ast.Break, ast.Continue, ast.Assert, ast.Raise, ast.ImportFrom, ast.Import, ast.alias,
          ast.BoolOp,
          ast.BinOp, ast.UnaryOp, ast.IfExp, ast.Compare, ast.Call, ast.keyword, ast.Constant,
          ast.Attribute, ast.Subscript, ast.Slice, ast.Name, ast.List, ast.Tuple, ast.ListComp,
          ast.comprehension, ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop,
          ast.GeneratorExp, ast.Set, ast.Dict, ast.Lambda,
          ast.DictComp)  # a helper's dict result (dict_result, level 6)
# the str, list and dict methods the generator calls (str_method, append, pop, dict_ops)
METHODS = {"append", "pop", "get", "setdefault", "lower", "upper", "swapcase", "strip", "lstrip", "rstrip",
           "replace",
           "split", "join", "find", "count", "startswith", "endswith", "isalpha", "isdigit",
           "rsplit", "is_integer",  # split_max, is_integer (level 6)
           "isalnum", "isspace", "isupper", "islower", "zfill",  # str_pad
           "values", "items", "keys",  # a helper's dict result read (dict_result, level 6)
           "insert",  # list_insert (level 6)
           # set algebra (level 6)
           "intersection", "union", "difference", "symmetric_difference", "issubset",
           "issuperset", "isdisjoint"}


def _empty_lists_are_typed(body: list[ast.stmt]) -> int:
    """Count the empty list displays in ``body`` (recursively) that say their element type:
    ``xs: list[T] = []``, or ``xs = []`` right before ``xs.append(...)``."""
    typed = 0
    for i, stmt in enumerate(body):
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.value, ast.List) and \
                not stmt.value.elts:
            typed += 1
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.List) and \
                not stmt.value.elts:
            following = body[i + 1] if i + 1 < len(body) else None
            name = typing.cast(ast.Name, stmt.targets[0]).id
            assert isinstance(following, ast.Expr) and isinstance(following.value, ast.Call)
            assert ast.unparse(following.value.func) == f"{name}.append"
            typed += 1
        for field in ("body", "orelse"):
            typed += _empty_lists_are_typed(getattr(stmt, field, []))
    return typed


def _check_subset(program: GeneratedProgram) -> None:
    tree = ast.parse(program.source)
    empty = sum(isinstance(n, ast.List) and not n.elts for n in ast.walk(tree))
    assert empty == _empty_lists_are_typed(tree.body)
    functions = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert program.entry in functions
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom):
            assert statement.module == "typing"
        elif isinstance(statement, ast.Import):
            assert [a.name for a in statement.names] == ["math"]
        else:
            assert isinstance(statement, ast.FunctionDef)
    for node in ast.walk(tree):
        assert isinstance(node, _NODES), ast.dump(node)
        if isinstance(node, ast.FunctionDef):
            assert node.returns is not None and all(a.annotation for a in node.args.args)
            assert not any(isinstance(n, ast.FunctionDef) for n in ast.walk(node) if n is not node)
        if isinstance(node, ast.Call):
            is_math = isinstance(node.func, ast.Attribute) and \
                isinstance(node.func.value, ast.Name) and node.func.value.id == "math"
            if is_math:
                assert typing.cast(ast.Attribute, node.func).attr in MATH
            elif isinstance(node.func, ast.Attribute):
                assert node.func.attr in METHODS, node.func.attr
            else:
                assert isinstance(node.func, ast.Name)
                # filter, type, isinstance: level 6's filter_consumed, type_compare, union_values
                allowed = {"filter", "type", "isinstance"}
                assert node.func.id in BUILTINS | functions | RAISABLE | allowed, (
                    node.func.id
                )
            for keyword in node.keywords:
                if is_math:
                    assert keyword.arg in ("rel_tol", "abs_tol")
                    continue
                assert isinstance(node.func, ast.Name)
                if node.func.id in ("min", "max"):  # min_max_default
                    assert keyword.arg == "default" and len(node.args) == 1
                    continue
                assert node.func.id == "sorted"
                assert keyword.arg == "reverse"
        if isinstance(node, ast.Raise):
            assert isinstance(node.exc, ast.Call) and isinstance(node.exc.func, ast.Name)
            assert node.exc.func.id in RAISABLE
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            exponent = node.right
            if isinstance(exponent, ast.UnaryOp):  # only float bases get -1
                assert isinstance(exponent.operand, ast.Constant) and exponent.operand.value == 1
        if isinstance(node, ast.Name):
            assert node.id not in ("print", "input", "open", "eval", "exec")


# --- tests ---------------------------------------------------------------------------------------

def test_same_seed_same_program() -> None:
    for seed in (0, 1, 17, 12345):
        a, b = generate(seed, size=25), generate(seed, size=25)
        assert a == b
    assert generate(1).source != generate(2).source
    assert generate(1, size=5).source != generate(1, size=40).source


def test_same_program_in_another_process() -> None:
    """No dependence on hash randomisation or other process state."""
    script = ("from fuzz import generate; import hashlib; "
              "print(hashlib.sha256(''.join(generate(s, size=15).source "
              "for s in range(20)).encode()).hexdigest())")
    here = subprocess.run([sys.executable, "-c", script], cwd=ROOT, check=True,
                          capture_output=True, text=True, env={"PYTHONHASHSEED": "123"})
    import hashlib
    local = hashlib.sha256("".join(generate(s, size=15).source for s in range(20)).encode())
    assert here.stdout.strip() == local.hexdigest()


def test_program_is_frozen() -> None:
    program = generate(3)
    with pytest.raises(FrozenInstanceError):
        program.source = ""  # type: ignore[misc]


def test_programs_compile_and_run_quickly(programs: list[GeneratedProgram]) -> None:
    for program in programs:
        compile(program.source, "<generated>", "exec", dont_inherit=True)
        _check_subset(program)
        started = time.perf_counter()
        outcomes = _run(program)
        assert time.perf_counter() - started < 1.0, program.seed
        _check_outcomes(program, outcomes)


def test_programs_mostly_return_values(programs: list[GeneratedProgram]) -> None:
    """Exceptions are welcome, but most runs should get through the whole program."""
    kinds = [kind for program in programs for kind, _ in _run(program)]
    assert kinds.count("value") / len(kinds) > 0.6
    assert kinds.count("raise") / len(kinds) > 0.05


def test_every_variable_keeps_one_type(programs: list[GeneratedProgram]) -> None:
    for program in programs[:80]:
        _check_outcomes(program, _run(program, trace_types=True))


def test_inputs_match_parameter_types(programs: list[GeneratedProgram]) -> None:
    for program in programs:
        assert len(program.inputs) >= 3
        for args in program.inputs:
            assert len(args) == len(program.param_types)
            for value, annotation in zip(args, program.param_types, strict=True):
                assert _fits(_shape(value), annotation), (value, annotation)


def test_every_feature_appears(programs: list[GeneratedProgram]) -> None:
    seen = set().union(*(p.features for p in programs))
    assert seen == FEATURES, sorted(FEATURES - seen)


def test_features_and_complexity_agree(programs: list[GeneratedProgram]) -> None:
    for program in programs:
        assert program.features <= FEATURES
        assert program.complexity == complexity_of(program.features)


def test_complexity_levels() -> None:
    for level in range(len(LEVELS)):
        allowed = features_for_level(level)
        reached = 0
        for seed in range(12):
            program = generate(seed, size=15, complexity=level)
            assert program.features <= allowed
            reached += program.complexity == level
        assert reached >= 10, level


def test_needs_stay_within_levels() -> None:
    for feature, needs in NEEDS.items():
        assert complexity_of(needs) <= complexity_of({feature}), feature


def test_features_limit_constructs() -> None:
    arithmetic = frozenset({"int", "assign", "arith", "floordiv", "mod"})
    for seed in range(30):
        program = generate(seed, size=10, features=arithmetic)
        assert program.features <= arithmetic
        tree = ast.parse(program.source)
        assert not any(isinstance(n, (ast.If, ast.For, ast.While, ast.List, ast.Compare))
                       for n in ast.walk(tree))
    with pytest.raises(ValueError, match="unknown features"):
        generate(0, features=frozenset({"goto"}))


def test_random_feature_subsets_are_respected() -> None:
    features = sorted(FEATURES)
    for seed in range(60):
        rng = random.Random(seed)
        subset = frozenset(f for f in features if rng.random() < 0.5)
        program = generate(seed, size=12, features=subset)
        closure = set(subset) | {"int", "assign"}
        for feature in list(closure):
            closure |= NEEDS.get(feature, frozenset())
        for feature in list(closure):  # NEEDS is at most two deep
            closure |= NEEDS.get(feature, frozenset())
        assert program.features <= closure, sorted(program.features - closure)
        _check_outcomes(program, _run(program))


def test_size_scales_statements() -> None:
    def statements(size: int) -> float:
        counts = [sum(isinstance(n, ast.stmt) for n in ast.walk(ast.parse(
            generate(seed, size=size).source))) for seed in range(25)]
        return statistics.mean(counts)

    small, medium, large = statements(5), statements(20), statements(60)
    assert small < medium < large
    assert large > 2 * small


def test_run_fuzz_cpython_only() -> None:
    report = run_fuzz(30, seed=7, backends=[])
    assert report.programs == 30
    assert report.runs == sum(len(generate(0).inputs) for _ in range(30))
    assert (report.mismatches, report.fallbacks, report.rejected) == (0, 0, 0)
    assert sum(report.cpython_outcomes.values()) == report.runs
    assert report.cpython_outcomes["value"] > report.runs // 2
    assert report.ok and "30 programs" in report.summary()
    assert run_fuzz(2, seed=7, backends=[], progress=True).programs == 2


# --- run_fuzz against a fake kiln ------------------------------------------------------------

@dataclass
class _FakeResult:
    value: object
    trap: str | None
    steps: int
    needs_fallback: bool


class _FakeCompileError(Exception):
    pass


def _install_fake_kiln(monkeypatch: pytest.MonkeyPatch, *, reject: str | None = None,
                       overflow: str | None = None, wrong_cpu: str | None = None) -> None:
    """``compiler`` and ``vm`` modules that run programs on CPython: rejecting sources that
    contain ``reject``, trapping Overflow on those with ``overflow``, and making the cpu
    backend answer wrongly on those with ``wrong_cpu``."""
    compiler = types.ModuleType("compiler")
    vm = types.ModuleType("vm")

    def compile_source(source: str, filename: str = "<string>") -> str:
        if reject is not None and reject in source:
            raise _FakeCompileError(f"{filename}:1:1: unsupported: {reject}")
        return source

    def execute(program: str, entry: str, args: list[object], backend: str = "ref",
                limits: object = None) -> _FakeResult:
        if overflow is not None and overflow in program:
            return _FakeResult(None, "Overflow", 7, True)
        namespace: dict[str, typing.Any] = {}
        exec(program, namespace)
        try:
            value = namespace[entry](*args)
        except Exception as exc:
            return _FakeResult(None, type(exc).__name__, len(program), False)
        if backend == "cpu" and wrong_cpu is not None and wrong_cpu in program:
            value = ("wrong", value)
        return _FakeResult(value, None, len(program), False)

    def execute_batch(items: list[tuple[str, str, list[object]]],
                      backend: str = "cpu") -> list[_FakeResult]:
        return [execute(p, e, a, backend=backend) for p, e, a in items]

    compiler.compile_source = compile_source  # type: ignore[attr-defined]
    compiler.CompileError = _FakeCompileError  # type: ignore[attr-defined]
    vm.execute = execute  # type: ignore[attr-defined]
    vm.execute_batch = execute_batch  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "compiler", compiler)
    monkeypatch.setitem(sys.modules, "vm", vm)


def test_run_fuzz_agreeing_backends(monkeypatch: pytest.MonkeyPatch) -> None:
    _install_fake_kiln(monkeypatch)
    report = run_fuzz(25, seed=3, backends=["ref", "cpu"])
    assert (report.programs, report.mismatches, report.rejected, report.fallbacks) == \
        (25, 0, 0, 0)
    assert report.ok


def test_run_fuzz_counts_rejections_fallbacks_and_mismatches(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _install_fake_kiln(monkeypatch, reject="while ", overflow=" ** ", wrong_cpu="for ")
    report = run_fuzz(40, seed=5, backends=["ref", "cpu"])
    programs = [p for p, _ in __import__("fuzz.differential").differential._programs(
        40, 5, None, None, None, None)]
    rejected = [p for p in programs if "while " in p.source]
    overflowing = [p for p in programs if p not in rejected and " ** " in p.source]
    wrong = [p for p in programs if p not in rejected and p not in overflowing and
             "for " in p.source]
    assert rejected and overflowing and wrong
    assert report.rejected == len(rejected)
    assert report.rejected_messages[0].endswith("unsupported: while ")
    assert report.rejected_messages[0].startswith("generate(")
    assert report.fallbacks == sum(len(p.inputs) for p in overflowing)
    # the cpu backend's wrong values disagree with ref's; raising runs stay in agreement
    assert 0 < report.mismatches <= sum(len(p.inputs) for p in wrong)
    detail = report.details[0]
    assert detail.reason == "kiln backends disagree"
    assert detail.kiln["cpu"][0][1].startswith("('wrong'")
    assert detail.source in {p.source for p in wrong}
    assert generate(detail.seed, **detail.generate_args).source == detail.source
    assert "kiln backends disagree" in detail.describe()
    assert not report.ok


def test_run_fuzz_reports_kiln_crashes(monkeypatch: pytest.MonkeyPatch) -> None:
    _install_fake_kiln(monkeypatch)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("VM fault")

    monkeypatch.setattr(sys.modules["vm"], "execute", broken)
    report = run_fuzz(3, seed=1, backends=["ref"])
    assert report.mismatches == report.runs
    assert report.details[0].kiln["ref"][0] == ("crash", "RuntimeError: VM fault")
