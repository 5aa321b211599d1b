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
    # the example calls the method it documents
    call = ast.parse(method.example, mode="eval").body
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
    assert call.func.attr == method.name and len(call.args) in method.arities


def test_the_language_reference_lists_every_method() -> None:
    text = surface.LANGUAGE_DOC.read_text()
    listed = re.findall(r"^\| `str\.(\w+)` \|", text, re.M)
    assert listed == [m.name for m in surface.STR_METHODS]


def test_every_part_that_names_an_instruction_derives_it_from_the_table() -> None:
    """A str method is its row in vm/surface.py, its semantics and a corpus program: every
    other place that names its instruction derives it, and fails here when it does not."""
    from compiler.batched import KC_OP_NAMES
    from vm import isa, ref, typecheck

    ops = list(dict.fromkeys(m.op for m in surface.STR_METHODS))
    header = isa.HEADER_PATH.read_text()
    for op in ops:
        assert op in isa.BY_NAME and f"OP_{op} = {isa.BY_NAME[op].code}," in header, op
        assert op in typecheck._SIMPLE, op  # its signature in the bytecode type checker
        assert op in KC_OP_NAMES, op  # the batched compiler emits it
        assert op in ref._STR_METHOD, op  # the reference VM runs it
    assert isa.renumbered_ops(header) == []

