"""The language surface (compiler/surface.py): the generated files are current, every part of kiln
reads its str methods from the one table, and each method's example gives CPython's value on the
reference compiler and VM, the batched compiler and the C VM."""

from __future__ import annotations

import ast
import re

import pytest

from compiler import compile_source, generated, surface
from compiler.batched import compile_with_fallback
from vm import execute
from vm.isa import BY_NAME
from vm.limits import Limits
from vm.values import INT, STR


@pytest.mark.parametrize("path", sorted(generated.generated_files()), ids=lambda p: p.name)
def test_generated_file_is_current(path) -> None:
    assert path.read_text() == generated.generated_files()[path], (
        f"{path} is stale: run python -m compiler --write"
    )


def test_check_mode_reports_current_files() -> None:
    assert generated.main([]) == 0


def test_the_table_is_what_the_compilers_and_generator_read() -> None:
    from compiler import frontend, lower, types
    from fuzz import generator

    names = [m.name for m in surface.STR_METHODS]
    assert len(set(names)) == len(names)
    assert set(names) <= frontend._METHODS
    assert set(types._STR_METHODS) == set(names)
    assert lower.FunctionLowerer._STR_OPS == {m.name: m.op for m in surface.STR_METHODS}
    assert all(m.op in BY_NAME for m in surface.STR_METHODS)  # an instruction of vm/isa.py
    assert generator._STR_FAMILY["case"] == ["lower", "upper", "swapcase"]
    header = surface.HEADER_PATH.read_text()
    assert all(f'"{n}"' in header for n in names)
    assert all(set(m.batched_arities) <= set(m.arities) for m in surface.STR_METHODS)
    assert set(surface.BATCHED_METHODS) <= surface.METHOD_NAMES == frontend._METHODS


def _example_program(method: surface.StrMethod) -> tuple[str, object]:
    """A kiln function returning the example's value, and CPython's value of it."""
    expected = eval(method.example)  # noqa: S307 - the table's literal examples
    result = {"str": "str", "bool": "bool", "int": "int", "list[str]": "list[str]"}[method.result]
    source = f"def example() -> {result}:\n    return {method.example}\n"
    return source, expected


@pytest.mark.parametrize("method", surface.STR_METHODS, ids=lambda m: m.name)
def test_each_example_gives_cpythons_value_everywhere(method: surface.StrMethod) -> None:
    source, expected = _example_program(method)
    program = compile_source(source, f"<str.{method.name}>")
    for backend in ("ref", "cpu"):
        assert execute(program, "example", [], backend=backend).value == expected, backend
    [batched] = compile_with_fallback([source], [f"<str.{method.name}>"])
    assert not isinstance(batched, Exception) and batched.to_bytes() == program.to_bytes()
    _calls_itself(method.example, method.name, method.arities)


def _calls_itself(example: str, name: str, arities: tuple[int, ...]) -> None:
    """A row's example calls what the row documents, with a count of arguments it allows."""
    call = ast.parse(example, mode="eval").body
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
    assert call.func.attr == name and len(call.args) in arities


@pytest.mark.parametrize(
    "pattern, names",
    [
        (r"^\| `str\.(\w+)` \|", [m.name for m in surface.STR_METHODS]),
        (r"^\| `(math\.\w+)` \|", [f.qualname for f in surface.FUNCTIONS]),
    ],
    ids=["str methods", "functions"],
)
def test_the_language_reference_lists_every_row(pattern: str, names: list[str]) -> None:
    assert re.findall(pattern, surface.LANGUAGE_DOC.read_text(), re.M) == names


def test_every_part_that_names_an_instruction_derives_it_from_the_table() -> None:
    """docs/CONTRIBUTING.md's worked example (str.zfill): a str method is its row in
    vm/surface.py, its semantics and a corpus program; every other place that names its
    instruction derives it, and fails here when it does not."""
    from compiler.batched import KC_OP_NAMES
    from vm import isa, ref, typecheck

    ops = list(dict.fromkeys(m.op for m in surface.STR_METHODS))
    header = isa.HEADER_PATH.read_text()
    for op in ops:
        assert op in isa.BY_NAME and f"OP_{op} = {isa.BY_NAME[op].code}," in header, op
        assert op in typecheck._SIMPLE, op  # its signature in the bytecode type checker
        assert op in KC_OP_NAMES, op  # the batched compiler emits it
        assert op in ref._STR_METHOD, op  # the reference VM runs it
    # a derived instruction: appended after the static table, its signature the row's
    zfill = surface.STR_METHOD["zfill"]
    op = isa.BY_NAME[zfill.op]
    assert (op.operand, op.pops, op.pushes) == ("none", 2, 1) and zfill.doc in op.doc
    assert typecheck._SIMPLE[zfill.op] == ((STR, INT), STR)
    assert isa.renumbered_ops(header) == []
    # the ISA stays append-only: a checkpoint of the ISA before str.zfill still loads
    assert isa.isa_extends(isa.isa_hash(op.code))


def test_zfill_charges_its_string_before_building_it() -> None:
    """`s.zfill(width)` is a new string of max(len(s), width) characters: a huge width stops
    with HeapExhausted (the CPython fallback) on both VMs, without building it."""
    source = "def f(s: str, w: int) -> str:\n    return s.zfill(w)\n"
    program = compile_source(source, "<zfill>")
    small = Limits(heap_words=64)
    for backend in ("ref", "cpu"):
        assert execute(program, "f", ["-7", 4], backend=backend).value == "-007"
        assert execute(program, "f", ["ü", -1], backend=backend).value == "ü"
        assert execute(program, "f", ["7", 2**63 - 1], backend=backend).trap == "HeapExhausted"
        done = execute(program, "f", ["7", 200], backend=backend, limits=small)
        assert done.trap == "HeapExhausted"


# ---- the methods of lists, dicts, sets and floats (vm/surface.py's METHODS) ----------------------


def test_the_method_table_is_what_every_part_reads() -> None:
    """Each list, dict, set and float method is one row: the front end's known methods, the type
    checker's set methods and dict calls, the batched compiler's tables and the generator's set
    vocabulary are the table's, and no hand-written list of their names is left."""
    from pathlib import Path

    from compiler import frontend, types
    from compiler.batched import KC_OP_NAMES
    from fuzz import generator

    rows = [m.qualname for m in surface.METHODS]
    assert len(set(rows)) == len(rows)
    assert {m.name for m in surface.METHODS} <= frontend._METHODS == surface.METHOD_NAMES
    for m in surface.METHODS:
        assert m.receiver in surface.RECEIVER_NAME and m.arities, m.qualname
        assert all(op in BY_NAME for op in m.ops), m.qualname  # instructions of vm/isa.py
        if m.batched:
            assert all(op in KC_OP_NAMES for op in m.ops), m.qualname  # kc emits them
    sets = [m for m in surface.METHODS if m.receiver == "set" and m.operator]
    assert types.SET_METHODS == {m.name: m.operator for m in sets}
    assert types._DICT_CALLS == ("get", "setdefault")
    assert generator._SET_FAMILY == {
        "op": ["intersection", "union", "difference", "symmetric_difference"],
        "test": ["issubset", "issuperset", "isdisjoint"],
    }
    header = surface.HEADER_PATH.read_text()
    batched_lists = [m.name for m in surface.METHODS if m.receiver == "list" and m.batched]
    listed = ", ".join(f'"{n}"' for n in batched_lists)
    assert f"KC_LIST_METHODS[] = {{{listed}, 0}};" in header
    # the places that kept their own copies before the table: none names these any more
    root = Path(surface.ROOT).parent
    for path in ("compiler/types.py", "compiler/surface.py", "fuzz/generator.py"):
        text = (root / path).read_text()
        for name in ("issubset", "isdisjoint", "symmetric_difference"):
            assert f'"{name}"' not in text, (path, name)
    assert "KC_LIST_METHODS[] =" not in (root / "compiler/kernels/kc_types.h").read_text()


def _agrees_everywhere(source: str, name: str, batched: bool) -> None:
    """The example program `source` gives CPython's value (and type) on both VMs, the batched
    path gives the reference compiler's bytes, and, where the row says `batched`, the batched
    compiler itself (not its fallback) does."""
    from compiler.batched import compile_batch

    namespace: dict[str, object] = {}
    exec(source, namespace)  # noqa: S102 - the table's literal examples
    expected = namespace["example"]()  # type: ignore[operator]
    program = compile_source(source, name)
    for backend in ("ref", "cpu"):
        got = execute(program, "example", [], backend=backend).value
        assert got == expected and type(got) is type(expected), backend
    [fallback] = compile_with_fallback([source], [name])
    assert not isinstance(fallback, Exception) and fallback.to_bytes() == program.to_bytes()
    if batched:
        assert compile_batch([source], [name]) == [program.to_bytes()]


@pytest.mark.parametrize("method", surface.METHODS, ids=lambda m: m.qualname)
def test_each_method_example_gives_cpythons_value_everywhere(method: surface.Method) -> None:
    _agrees_everywhere(surface.example_program(method), f"<{method.qualname}>", method.batched)
    # the example calls the method it documents, with a count the row allows
    calls = [
        c
        for c in ast.walk(ast.parse(method.example, mode="eval"))
        if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
    ]
    assert any(
        c.func.attr == method.name  # type: ignore[union-attr]
        and isinstance(c.func.value, ast.Name)  # type: ignore[union-attr]
        and c.func.value.id == surface.RECEIVER_NAME[method.receiver]  # type: ignore[union-attr]
        and len(c.args) in method.arities
        and {k.arg for k in c.keywords} <= set(method.keywords)
        for c in calls
    )


def test_the_language_reference_lists_every_other_method() -> None:
    text = surface.LANGUAGE_DOC.read_text()
    listed = re.findall(r"^\| `(\w+\.\w+)` \|", text, re.M)
    methods = [n for n in listed if n.split(".")[0] in surface.RECEIVER_NAME]
    assert methods == [m.qualname for m in surface.METHODS]


# ---- module functions (vm/surface.py's FUNCTIONS) ----------------------------------------------


def test_the_function_table_is_what_every_part_reads() -> None:
    from compiler import frontend

    names = [f.name for f in surface.FUNCTIONS if f.module == "math"]
    assert frontend.MATH_FUNCTIONS == set(names) and len(set(names)) == len(names)
    assert frontend.MATH_KEYWORDS == {"isclose": ("rel_tol", "abs_tol")}
    assert set(frontend.MATH_HELPERS) <= set(names)
    for f in surface.FUNCTIONS:
        assert all(op in BY_NAME for op in f.ops), f.qualname
        assert bool(f.ops) != (f.name in frontend.MATH_HELPERS), f.qualname  # a kiln function
    # the batched compiler's math functions: the first rows, in KC_MATH_OP's order
    batched = [f.name for f in surface.FUNCTIONS if f.batched]
    assert batched == names[: len(batched)] == ["sqrt", "floor", "ceil"]
    listed = ", ".join(f'"{n}"' for n in batched)
    assert f"KC_MATH[] = {{{listed}, 0}};" in surface.HEADER_PATH.read_text()


@pytest.mark.parametrize("function", surface.FUNCTIONS, ids=lambda f: f.qualname)
def test_each_function_example_gives_cpythons_value_everywhere(function: surface.Function) -> None:
    _agrees_everywhere(
        surface.function_program(function), f"<{function.qualname}>", function.batched
    )
    _calls_itself(function.example, function.name, function.arities)


# ---- builtin functions and operators (vm/surface.py's BUILTINS, OPERATORS) -----------------------


def test_the_builtin_table_is_what_every_part_reads() -> None:
    """Every list of builtin names and every map of operator to instruction is the tables': the
    front end's rewrites, the type checker's builtins, lower.py's instructions, the batched
    compiler's tables and the generator's groups; kc's hand-kept copies are gone."""
    from pathlib import Path

    from compiler import frontend, lower, types
    from fuzz import generator

    names = [b.name for b in surface.BUILTINS]
    assert len(set(names)) == len(names)
    for b in surface.BUILTINS:
        assert all(op in BY_NAME for op in b.ops), b.name  # instructions of vm/isa.py
        assert b.kind in ("call", "rewrite", "input") and set(b.forms) <= {
            "consumes",
            "short-circuit",
            "map",
            "view",
            "rewritten",
        }, b.name
        if b.kind == "call" and not b.iteration_only:
            assert hasattr(lower.FunctionLowerer, f"b_{b.name}"), b.name
    assert types.BUILTINS == {b.name for b in surface.BUILTINS if b.kind == "call"}
    assert frontend._SHORT_CIRCUIT == {"all", "any"}
    assert frontend._CONSUMES_ALL == {"sum", "min", "max", "sorted", "list", "tuple", "set"}
    assert frontend._MAP_CONSUMERS == frontend._CONSUMES_ALL - {"list", "tuple"}
    assert frontend._POSITIONAL_KEYWORDS == {"enumerate": "start", "int": "base"}
    assert types._ITER_ONLY.keys() == {"range", "enumerate", "reversed", "zip"}
    assert frontend._REWRITTEN == surface.builtins_with("rewritten")
    header = surface.HEADER_PATH.read_text()
    listed = ", ".join(f'"{n}"' for n in surface.BATCHED_BUILTINS)
    assert f"KC_BUILTINS[] = {{{listed}, 0}};" in header
    assert generator._MIN_MAX == ["min", "max"] and generator._ALL_ANY == ["all", "any"]
    # operators: every instruction is vm/isa.py's; lower.py's maps and kc's tables are these
    for o in surface.OPERATORS:
        assert all(op in BY_NAME for op in o.ops), o
        assert o.kind in ("binary", "unary", "compare", "boolean") and hasattr(ast, o.node), o
    assert lower._INT_OPS[ast.FloorDiv] == "FLOORDIV_I" and lower._FLOAT_OPS[ast.Pow] == "POW_F"
    assert lower._CMP == {ast.Lt: "LT", ast.LtE: "LE", ast.Gt: "GT", ast.GtE: "GE",
                          ast.Eq: "EQ", ast.NotEq: "NE"}  # fmt: skip
    assert (
        generator._EQUALITIES + generator._ORDERINGS == list(lower._CMP)[4:] + list(lower._CMP)[:4]
    )
    # kc.h's enums are in the table's order: its KC_INT_OPS, KC_CMP_I, ... are indexed by them
    root = Path(surface.ROOT).parent
    kc = (root / "compiler/kernels/kc.h").read_text()
    [bins] = re.findall(r"enum kc_bin \{([^}]*)\}", kc)
    [cmps] = re.findall(r"enum kc_cmp \{([^}]*)\}", kc)
    binary = list(surface.operator_ops("binary", "int"))
    spelled = {"Mult": "MUL", "LShift": "LSHIFT", "RShift": "RSHIFT"}
    expected = [f"B_{spelled.get(n, n.upper())}" for n in binary] + ["B_MATMUL"]
    assert [b.strip() for b in bins.split(",")] == expected
    cmp_names = [f"C_{name}" for name in surface.COMPARISONS.values()]
    assert [c.strip() for c in cmps.split(",")][:6] == cmp_names
    # the places that kept their own copies before the table: none does any more
    for path, copy in (
        ("compiler/kernels/kc_types.h", "KC_BUILTINS[] ="),
        ("compiler/kernels/kc_parse.h", "KC_REWRITTEN[] ="),
        ("compiler/kernels/kc_lower.h", "KC_INT_OPS[] ="),
        ("compiler/kernels/kc_lower.h", "KC_CMP_I[] ="),
        ("compiler/kernels/kc_parse.h", 'kc_tok_is(c, t, "len") || kc_tok_is(c, t, "set")'),
        ("compiler/frontend.py", '"pow", "divmod", "next"'),
        ("compiler/types.py", '"isinstance",\n'),
        ("compiler/lower.py", 'ast.Add: "ADD_I"'),
    ):
        assert copy not in (root / path).read_text(), (path, copy)


# rows whose example the batched compiler leaves to the reference compiler (the fallback's bytes
# are the reference compiler's, checked for every row; that it leaves them is checked too)
_KC_LEAVES = frozenset({"tuple", "input", "pow", "is compare: a value and None, True or False"})


def _kc_leaves(source: str, name: str) -> bool:
    from compiler.batched import compile_batch

    [got] = compile_batch([source], [name])
    return not isinstance(got, bytes)


def _instructions(source: str) -> list[str]:
    """The instructions of a program's functions, compiled without passes."""
    from vm.disasm import disassemble

    listing = disassemble(compile_source(source, "<example>", passes=False))
    return [w for line in listing.splitlines() for w in line.split() if w.isupper()]


def _calls_builtin(example: str, b: surface.Builtin) -> bool:
    """A row's example calls the builtin it documents, with a count of arguments it allows."""
    return any(
        isinstance(c, ast.Call)
        and isinstance(c.func, ast.Name)
        and c.func.id == b.name
        and (len(c.args) in b.arities or (b.variadic and len(c.args) >= b.arities[-1]))
        and {k.arg for k in c.keywords} <= set(b.keywords)
        for c in ast.walk(ast.parse(example, mode="eval"))
    )


@pytest.mark.parametrize("builtin", surface.BUILTINS, ids=lambda b: b.name)
def test_each_builtin_example_gives_cpythons_value_everywhere(builtin: surface.Builtin) -> None:
    source = surface.builtin_program(builtin)
    assert _calls_builtin(builtin.example, builtin)
    if builtin.trap:  # left to CPython: the trap on both VMs, the same bytes from both paths
        program = compile_source(source, f"<{builtin.name}>")
        for backend in ("ref", "cpu"):
            assert execute(program, "example", [], backend=backend).trap == builtin.trap
        [fallback] = compile_with_fallback([source], [f"<{builtin.name}>"])
        assert not isinstance(fallback, Exception) and fallback.to_bytes() == program.to_bytes()
        assert _kc_leaves(source, builtin.name)
        return
    _agrees_everywhere(source, f"<{builtin.name}>", builtin.name not in _KC_LEAVES)
    if builtin.ops:  # the example runs one of the row's instructions (before any pass)
        assert set(builtin.ops) & set(_instructions(source)), builtin.ops
    assert _kc_leaves(source, builtin.name) == (builtin.name in _KC_LEAVES)


def _uses_operator(example: str, o: surface.Operator) -> bool:
    node = getattr(ast, o.node)
    for n in ast.walk(ast.parse(example, mode="eval")):
        if isinstance(n, (ast.BinOp, ast.UnaryOp, ast.BoolOp)) and isinstance(n.op, node):
            return True
        if isinstance(n, ast.Compare) and any(isinstance(op, node) for op in n.ops):
            return True
    return False


@pytest.mark.parametrize(
    "operator", surface.OPERATORS, ids=lambda o: f"{o.symbol} {o.kind}: {o.operands}"
)
def test_each_operator_example_gives_cpythons_value_everywhere(operator: surface.Operator) -> None:
    assert _uses_operator(operator.example, operator)
    row = f"{operator.symbol} {operator.kind}: {operator.operands}"
    source = surface.operator_program(operator)
    if operator.ops:  # the example runs the row's instruction (before any pass folds it)
        assert operator.ops[0] in _instructions(source), operator.ops
    _agrees_everywhere(source, f"<{row}>", row not in _KC_LEAVES)
    assert _kc_leaves(source, row) == (row in _KC_LEAVES)


@pytest.mark.parametrize(
    "pattern, names",
    [
        (r"^\| `(\w+)` \| [^|]* \| [^|]* \| [^|]*: ", [b.name for b in surface.BUILTINS]),
        (
            r"^\| `([^`]+)` \| (?:binary|unary|compare|boolean): ",
            [o.symbol for o in surface.OPERATORS],
        ),
    ],
    ids=["builtins", "operators"],
)
def test_the_language_reference_lists_every_builtin_and_operator(
    pattern: str, names: list[str]
) -> None:
    listed = re.findall(pattern, surface.LANGUAGE_DOC.read_text(), re.M)
    assert [n.replace("\\|", "|") for n in listed] == names
