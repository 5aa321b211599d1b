"""The verifier (`vm.verify`): each rule rejects what it should, with a message naming the
function, the instruction and the rule; valid programs pass."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from test_ref_vm import Fn, assemble

from vm.container import ContainerError, Program
from vm.disasm import disassemble
from vm.isa import BY_NAME, OPS, TRAPS, encode, local2
from vm.limits import MAX_STACK_WORDS, Limits
from vm.values import INT, STR, Type, float_bits, list_of, tuple_of
from vm.verify import VerifyError, max_depth, stack_depths, stack_effect, verify, verify_bytes


def _raw(name: str, operand: int) -> int:
    """An instruction word with any operand, bypassing `encode`'s range checks."""
    return BY_NAME[name].code | operand << 8


def rejection(check: Callable[[Program], object], program: Program, *fragments: str) -> str:
    """The message of the VerifyError `check(program)` must raise; it must name every fragment."""
    with pytest.raises(VerifyError) as info:
        check(program)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
    return message


def _rejects(program: Program, *fragments: str) -> str:
    return rejection(verify, program, *fragments)


def _one(
    code: list[Any],
    params: list[Type] | None = None,
    n_locals: int | None = None,
    max_stack: int | None = 8,
    **kwargs: Any,
) -> Program:
    return assemble(
        Fn("f", params or [], INT, code, n_locals=n_locals, max_stack=max_stack), **kwargs
    )


def test_valid_program_passes() -> None:
    code = [
        ("LOAD", 0),
        ("JUMP_IF_FALSE", 4),
        ("STR", "yes"),
        ("JUMP", 5),
        ("STR", "no"),
        ("STR_LEN",),
        ("RET",),
    ]
    program = assemble(
        Fn("f", [INT], INT, code), Fn("g", [], INT, [("LOADI", 1), ("CALL", "f"), ("RET",)])
    )
    verify(program)
    assert max_depth(program, 0) == 1
    assert stack_depths(program, 0) == [0, 1, 0, 1, 0, 1, 1]


@pytest.mark.parametrize(
    ("word", "rule"),
    [
        (255, "unknown opcode"),
        (len(OPS), "unknown opcode"),
        (_raw("ADD_I", 1), "nonzero operand"),
        (_raw("CONST", 0), "constant index out of range"),
        (_raw("STR", 1), "string address invalid"),
        (_raw("STR", 3), "string address invalid"),
        (_raw("LOAD", 1), "local slot out of range"),
        (_raw("STORE", 5), "local slot out of range"),
        (_raw("JUMP", 3), "jump target out of range"),
        (_raw("LOAD2", 1 << 12), "local slot out of range"),
        (_raw("FOR_LIST", 1), "local slot out of range"),
        (_raw("FOR_RANGE", 0), "loop state out of range"),
        (_raw("JUMP_IF_TRUE", 1 << 20), "jump target out of range"),
        (_raw("CALL", 1), "function index out of range"),
        (_raw("EQ", 1), "type index out of range"),
        (_raw("RAISE", 0), "trap code out of range"),
        (_raw("RAISE", len(TRAPS)), "trap code out of range"),
        (_raw("STR_SLICE", 8), "slice flags out of range"),
        (_raw("TUPLE_NEW", 256), "count out of range"),
        (_raw("UNPACK_TUPLE", 256), "count out of range"),
        (_raw("TUPLE_GET", 255), "count out of range"),
        (_raw("SORTED", 0), "wrong type operand"),
        (_raw("MIN", 0), "wrong type operand"),
        (_raw("CONTAINS", 0), "wrong type operand"),
        (-1, "bad instruction word"),
        (1 << 32, "bad instruction word"),
    ],
)
def test_operand_rules(word: int, rule: str) -> None:
    # one local, one constant-free pool, the image holds "ab" (words 0-2), the type table [int]
    program = _one([word, ("LOADI", 0), ("RET",)], params=[INT], strings=("ab",))
    message = _rejects(program, rule, "function 'f'", "instruction 0")
    assert message.startswith("function 'f' (#0), instruction 0")


def test_loop_steps_need_their_jump_and_a_way_on() -> None:
    step = ("FOR_STR", local2(0, 1))
    _rejects(
        _one([step, ("LOADI", 0), ("RET",)], n_locals=3),
        "instruction 0",
        "loop step without its jump",
    )
    _rejects(
        _one([("LOADI", 0), ("RET",), step], n_locals=3),
        "instruction 2",
        "loop step without its jump",
    )
    _rejects(_one([step, ("JUMP", 0)], n_locals=3), "instruction 0", "runs off the end")
    program = _one([step, ("JUMP", 0), ("LOADI", 0), ("RET",)], n_locals=3, max_stack=None)
    verify(program)
    assert stack_depths(program, 0) == [0, 0, 0, 1]
    assert "FOR_STR        0,1       state 1.. -> local 0" in disassemble(program)


def test_operand_rules_apply_to_unreachable_code() -> None:
    _rejects(
        _one([("LOADI", 0), ("RET",), _raw("LOAD", 9)]), "instruction 2", "local slot out of range"
    )


def test_operands_in_range_pass() -> None:
    verify(
        _one(
            [
                ("CONST", 7),
                ("STR", "ab"),
                ("STR", "c"),
                ("POP",),
                ("POP",),
                ("TUPLE_NEW", 1),
                ("TUPLE_GET", 254),
                ("RAISE", "MemoryFault"),
            ]
        )
    )
    widest = (
        [("LOADI", 0)] * 255
        + [("TUPLE_NEW", 255), ("UNPACK_TUPLE", 255)]
        + [("POP",)] * 254
        + [("RET",)]
    )
    verify(_one(widest, max_stack=None))


@pytest.mark.parametrize(
    ("code", "rule", "where"),
    [
        ([("ADD_I",), ("RET",)], "stack underflow", "instruction 0"),
        (
            [("LOADI", 1), ("POP",), ("POP",), ("LOADI", 1), ("RET",)],
            "stack underflow",
            "instruction 2",
        ),
        ([("LOADI", 1), ("LOADI", 2), ("RET",)], "RET stack depth", "instruction 2"),
        ([("RET",)], "stack underflow", "instruction 0"),
        ([("LOADI", 1), ("LOADI", 1), ("POP",)], "runs off the end", "instruction 2"),
        ([("LOADI", 1), ("JUMP_IF_FALSE", 0)], "runs off the end", "instruction 1"),
        ([], "runs off the end", "instruction 0"),
        # two paths into instruction 4: depth 1 from the fall-through, depth 0 from the jump
        (
            [("LOADI", 1), ("JUMP_IF_FALSE", 4), ("LOADI", 2), ("NOP",), ("LOADI", 3), ("RET",)],
            "inconsistent stack depth",
            "instruction",
        ),
        # a loop that grows the stack each time round
        ([("LOADI", 1), ("LOADI", 1), ("JUMP", 1)], "inconsistent stack depth", "instruction 2"),
        # the callee takes two parameters
        ([("LOADI", 1), ("CALL", "g"), ("RET",)], "stack underflow", "instruction 1"),
        (
            [("LOADI", 1), ("LOADI", 1), ("LIST_NEW", 3), ("RET",)],
            "stack underflow",
            "instruction 2",
        ),
        ([("LOADI", 1), ("STR_SLICE", 0b111), ("RET",)], "stack underflow", "instruction 1"),
    ],
)
def test_stack_rules(code: list[Any], rule: str, where: str) -> None:
    g = Fn("g", [INT, INT], INT, [("LOAD", 0), ("RET",)], max_stack=1)
    _rejects(assemble(Fn("f", [], INT, code, max_stack=8), g), rule, where, "function 'f'")


def test_max_stack_is_enforced() -> None:
    code = [("LOADI", 1), ("LOADI", 2), ("LOADI", 3), ("ADD_I",), ("ADD_I",), ("RET",)]
    verify(_one(code, max_stack=3))
    _rejects(_one(code, max_stack=2), "stack overflow", "instruction 2", "max_stack 2")
    _rejects(
        _one([("LOADI", 1), ("UNPACK_TUPLE", 3), ("POP",), ("POP",), ("RET",)], max_stack=2),
        "stack overflow",
    )


def test_stack_effects_from_the_table() -> None:
    program = assemble(
        Fn("f", [], INT, [("LOADI", 0), ("RET",)]),
        Fn("g", [INT, INT, INT], INT, [("LOADI", 0), ("RET",)]),
    )
    assert stack_effect(program, BY_NAME["CALL"], 1) == (3, 1)
    assert stack_effect(program, BY_NAME["STR_SLICE"], 0b101) == (3, 1)
    assert stack_effect(program, BY_NAME["LIST_SLICE"], 0) == (1, 1)
    assert stack_effect(program, BY_NAME["LIST_NEW"], 4) == (4, 1)
    assert stack_effect(program, BY_NAME["UNPACK_LIST"], 4) == (1, 4)
    assert stack_effect(program, BY_NAME["DUP2"], 0) == (2, 4)


def test_header_rules() -> None:
    def broken(**changes: Any) -> Program:
        program = _one([("LOADI", 0), ("RET",)], params=[INT])
        for key, value in changes.items():
            setattr(program.functions[0], key, value)
        return program

    _rejects(broken(param_types=[3]), "function 'f'", "header", "parameter type index out of range")
    _rejects(broken(return_type=-1), "header", "return type index out of range")
    _rejects(broken(n_locals=0), "header", "local count")
    _rejects(broken(max_stack=-1), "header", "max_stack out of range")
    _rejects(broken(lines=[1]), "header", "line table length")
    _rejects(broken(lines=[1, -2]), "header", "line table entry")


def test_a_frame_no_stack_can_hold_is_rejected_before_anything_is_sized_from_it() -> None:
    """Security review finding 8: a container declaring n_locals = 2**32 - 1 passed these
    checks, and the type pass then allocated per local without bound (a MemoryError after
    15 s, or the OOM killer). Now the header rule names the field, its value and the limit."""

    def with_frame(n_locals: int, max_stack: int) -> Program:
        program = _one([("LOADI", 0), ("RET",)], params=[INT], max_stack=1)
        program.functions[0].n_locals = n_locals
        program.functions[0].max_stack = max_stack
        return program

    _rejects(
        with_frame(2**32 - 1, 1),
        "function 'f' (#0), header: frame too large",
        "n_locals 4294967295 + max_stack 1",
        f"the limit {MAX_STACK_WORDS}",
    )
    _rejects(with_frame(1, 2**32 - 1), "frame too large", "max_stack 4294967295")
    _rejects(with_frame(MAX_STACK_WORDS, 1), "frame too large")
    verify(with_frame(MAX_STACK_WORDS - 1, 1))  # the largest frame a stack can hold
    with pytest.raises(ValueError, match=f"stack_words is too large.*at most {MAX_STACK_WORDS}"):
        Limits(stack_words=MAX_STACK_WORDS + 1)


def test_program_tables() -> None:
    def broken(**changes: Any) -> Program:
        program = _one([("LOADI", 0), ("RET",)], strings=("ab",))
        for key, value in changes.items():
            setattr(program, key, value)
        return program

    _rejects(broken(consts=[1 << 63]), "bad constant", "constant 0")
    _rejects(broken(image=[5, 1]), "bad image", "word 0")
    _rejects(broken(image=[1, 0x110000]), "bad image", "not a code point")
    _rejects(broken(image=[-1]), "bad image")
    _rejects(broken(types=[Type("list")]), "bad type table", "type 0")
    _rejects(broken(types=[Type("dict")]), "bad type table", "type 0")
    _rejects(broken(types=[INT, tuple_of(*[INT] * 256)]), "bad type table", "type 1")
    program = assemble(
        Fn("f", [], INT, [("LOADI", 0), ("RET",)]), Fn("f", [], INT, [("LOADI", 1), ("RET",)])
    )
    _rejects(program, "duplicate function name", "'f'")


def test_typed_operands_of_the_right_kind_pass() -> None:
    code = [
        ("LOAD", 0),
        ("DUP",),
        ("SORTED", list_of(STR)),
        ("POP",),
        ("DUP",),
        ("MIN", list_of(STR)),
        ("POP",),
        ("LOAD", 1),
        ("MAX", STR),
        ("SWAP",),
        ("CONTAINS", list_of(STR)),
        ("RET",),
    ]
    verify(_one(code, params=[list_of(STR), STR]))


def test_verify_bytes() -> None:
    program = _one([("LOADI", 0), ("RET",)])
    assert verify_bytes(program.to_bytes()) == program
    bad = _one([("ADD_I",), ("RET",)])
    with pytest.raises(VerifyError, match="stack underflow"):
        verify_bytes(bad.to_bytes())
    with pytest.raises(ContainerError):
        verify_bytes(program.to_bytes()[:-1])


def test_encode_rejects_what_the_verifier_would() -> None:
    with pytest.raises(ValueError):
        encode(BY_NAME["LOADI"], 1 << 23)
    with pytest.raises(ValueError):
        encode(BY_NAME["JUMP"], -1)


# ---- the disassembler ----------------------------------------------------------------------------


def test_disassembly_shows_offsets_lines_names_and_meanings() -> None:
    main = Fn(
        "main",
        [list_of(STR), INT],
        INT,
        [
            ("LOAD", 0),
            ("LOADI", 1),
            ("LOADI", -1),
            ("LIST_SLICE", 0b011),  # line 1
            ("STR", "it's"),
            ("SWAP",),
            ("CONTAINS", list_of(STR)),  # line 2
            ("JUMP_IF_FALSE", 11),
            ("CONST", 1.5),
            ("F2I",),
            ("POP",),  # line 3
            ("CONST", 123456),
            ("LOAD", 1),
            ("CALL", "helper"),
            ("ADD_I",),  # line 4
            ("RET",),
            ("RAISE", "KeyError"),  # line 5
        ],
        n_locals=2,
        lines=[1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5],
    )
    helper = Fn("helper", [INT], INT, [("LOAD", 0), ("RET",)])
    text = disassemble(assemble(main, helper))
    assert "== main(list[str], int) -> int   params 2, locals 2, max stack 3 ==" in text
    assert "== helper(int) -> int   params 1, locals 1, max stack 1 ==" in text
    lines = text.splitlines()
    body = lines[lines.index(next(line for line in lines if line.startswith("== main"))) + 1 :]
    assert body[0].split() == ["0000", "1", "LOAD", "0"]
    assert body[1].split() == ["0001", "|", "LOADI", "1"]
    assert body[2].split() == ["0002", "|", "LOADI", "-1"]
    assert body[3].split() == ["0003", "|", "LIST_SLICE", "3", "start,stop"]
    assert body[4].split()[:3] == ["0004", "2", "STR"] and body[4].endswith('"it\'s"')
    assert body[6].endswith("list[str]")
    assert body[7].split() == ["0007", "3", "JUMP_IF_FALSE", "11", "->", "11"]
    assert body[8].endswith("= 1.5")  # a float: F2I consumes it
    assert body[11].endswith("= 123456")
    assert body[13].endswith("helper(int) -> int")
    assert body[16].split() == ["0016", "|", "RAISE", "11", "KeyError"]


def test_disassembly_of_large_constants_shows_the_float_reading() -> None:
    text = disassemble(_one([("CONST", 2.5), ("POP",), ("CONST", 7), ("RET",)]))
    assert f"= {float_bits(2.5)} (float 2.5)" in text
    assert "= 7\n" in text


def test_inline_operand_checks_decide_as_the_rule_by_rule_check() -> None:
    """`verify` checks the common operands inline (`_check_operands`) and hands every word they
    do not pass to `_check_operand`, the rules as written: on mutated words of real programs
    the two must accept the same words and raise the same message."""
    import copy
    import random
    from pathlib import Path

    from compiler.diagnostics import CompileError
    from compiler.reference import compile_source
    from vm import verify as verifier

    programs = []
    for path in sorted((Path(__file__).parent / "programs").glob("*/*.py"))[::9]:
        try:
            program = compile_source(path.read_text(), path.name)
        except CompileError:  # the corpus's programs with an expected compile error
            continue
        programs += [program] if program.functions else []
    rng = random.Random(7)

    def outcome(check: Callable[[], object]) -> str:
        try:
            check()
        except VerifyError as e:
            return str(e)
        return "ok"

    rejected = 0
    for _ in range(3000):
        program = copy.deepcopy(rng.choice(programs))
        index = rng.randrange(len(program.functions))
        code = program.functions[index].code
        if not code:
            continue
        for _ in range(rng.choice((1, 2))):
            pc = rng.randrange(len(code))
            if rng.random() < 0.5:
                code[pc] = (code[pc] & ~0xFF) | rng.randrange(len(OPS) + 2)
            else:
                code[pc] = (code[pc] & 0xFF) | rng.choice((0, 1, 2, 7, 9, 40, 5000)) << 8
        strings = verifier.image_strings(program.image)

        def each(program: Program = program, index: int = index, strings: Any = strings) -> None:
            for pc, word in enumerate(program.functions[index].code):
                verifier._check_operand(program, index, pc, word, strings)

        def inline(program: Program = program, index: int = index, strings: Any = strings) -> None:
            verifier._check_operands(program, index, strings)

        expected = outcome(each)
        assert outcome(inline) == expected
        rejected += expected != "ok"
    assert 500 < rejected < 2900  # both outcomes well exercised
