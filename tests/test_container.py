"""The `.kbc` container (`vm.container`): round trips, and every way a file can be damaged is
rejected with a ContainerError that says what is wrong."""

from __future__ import annotations

import struct
import zlib

import pytest
from test_ref_vm import Fn, assemble

from vm.container import MAGIC, MAX_COUNT, ContainerError, Program, load
from vm.isa import FORMAT_VERSION, isa_hash
from vm.limits import MAX_TYPE_DEPTH
from vm.values import FLOAT, INT, STR, list_of, tuple_of, vtuple_of

# where the fixed header fields sit in a file
_VERSION_AT = len(MAGIC)
_ISA_AT = _VERSION_AT + 4
_COUNTS_AT = _ISA_AT + 4


def _sample() -> Program:
    main = Fn(
        "main",
        [list_of(INT), STR],
        tuple_of(INT, FLOAT),
        [
            ("LOAD", 0),
            ("LIST_LEN",),
            ("CONST", 2.5),
            ("TUPLE_NEW", 2),
            ("STR", "héllo"),
            ("POP",),
            ("RET",),
        ],
        n_locals=3,
        lines=[1, 1, 2, 2, 3, 3, 4],
    )
    helper = Fn("helper", [], INT, [("CONST", -(1 << 63)), ("RET",)])
    program = assemble(main, helper, strings=("", "x"))
    program.source_name = "sample.py"
    return program


def _reseal(body: bytes) -> bytes:
    """This body with a correct checksum, so that the check under test is the one that fires."""
    return body + struct.pack("<I", zlib.crc32(body))


def _patch(data: bytes, at: int, value: int) -> bytes:
    """Replace the u32 at `at` and fix the checksum."""
    body = data[:-4]
    return _reseal(body[:at] + struct.pack("<I", value) + body[at + 4 :])


def _round_trip(program: Program) -> Program:
    """`program` loaded from its container: equal to it, and written again to the same bytes."""
    data = program.to_bytes()
    loaded = load(data)
    assert loaded == program
    assert loaded.to_bytes() == data
    return loaded


def _rejects_every_truncation(data: bytes) -> None:
    for n in range(len(data)):
        with pytest.raises(ContainerError):
            load(data[:n])


def test_round_trip() -> None:
    program = _sample()
    loaded = _round_trip(program)
    assert loaded.signature(0) == ([list_of(INT), STR], tuple_of(INT, FLOAT))


def _dynamic_tuple_program() -> Program:
    from compiler import compile_source

    source = (
        "def f(t: tuple[int, ...], n: int) -> tuple[int, ...]:\n    return t[n:]\n"
        "def g(t: tuple[int, ...]):\n    return [t, ()], (t, 1)\n"
    )
    return compile_source(source, "v.py")


def test_host_types_round_trip() -> None:
    """A tuple[T, ...] is a list[T] in the type table; the host types section keeps it a tuple."""
    program = _dynamic_tuple_program()
    loaded = _round_trip(program)
    assert loaded.signature(0) == ([vtuple_of(INT), INT], vtuple_of(INT))
    assert [loaded.types[t] for t in loaded.functions[0].param_types] == [list_of(INT), INT]
    from vm.ref import run

    assert run(loaded, "f", [(1, 2, 3), 1]).value == (2, 3)
    assert run(loaded, "g", [(4, 5)]).value == ([(4, 5), ()], ((4, 5), 1))


def test_damaged_host_types_are_rejected() -> None:
    program = _dynamic_tuple_program()
    f = program.functions[program.function_index("f")]
    f.host_types = [vtuple_of(STR), INT, vtuple_of(INT)]
    with pytest.raises(ContainerError, match="differ from its type table"):
        load(program.to_bytes())
    _rejects_every_truncation(_dynamic_tuple_program().to_bytes())


def test_empty_program_round_trips() -> None:
    _round_trip(Program([], [], [], [], ""))


def test_every_truncation_is_rejected() -> None:
    _rejects_every_truncation(_sample().to_bytes())


def test_every_flipped_byte_is_rejected() -> None:
    data = _sample().to_bytes()
    for i in range(len(data)):
        damaged = data[:i] + bytes([data[i] ^ 0x40]) + data[i + 1 :]
        with pytest.raises(ContainerError):
            load(damaged)


def test_flipped_body_byte_is_a_checksum_mismatch() -> None:
    data = bytearray(_sample().to_bytes())
    data[-10] ^= 1
    with pytest.raises(ContainerError, match="checksum mismatch"):
        load(bytes(data))


def test_wrong_magic() -> None:
    data = _sample().to_bytes()
    with pytest.raises(ContainerError, match="bad magic"):
        load(b"\x89KBD" + data[4:])
    with pytest.raises(ContainerError, match="bad magic"):
        load(b"")


def test_wrong_version() -> None:
    data = _patch(_sample().to_bytes(), _VERSION_AT, FORMAT_VERSION + 1)
    with pytest.raises(ContainerError, match=f"version {FORMAT_VERSION + 1}"):
        load(data)


def test_wrong_isa_hash() -> None:
    data = _patch(_sample().to_bytes(), _ISA_AT, isa_hash() ^ 1)
    with pytest.raises(ContainerError, match="recompile"):
        load(data)


def test_counts_past_the_limit() -> None:
    data = _patch(_sample().to_bytes(), _COUNTS_AT, MAX_COUNT + 1)
    with pytest.raises(ContainerError, match="constant count .* exceeds the limit"):
        load(data)


def test_count_larger_than_the_file() -> None:
    data = _patch(_sample().to_bytes(), _COUNTS_AT + 4, 1000)  # image words
    with pytest.raises(ContainerError, match="truncated container"):
        load(data)


def test_trailing_bytes() -> None:
    data = _sample().to_bytes()
    with pytest.raises(ContainerError, match="unexpected bytes"):
        load(_reseal(data[:-4] + b"\0\0\0\0"))


def test_function_code_outside_the_code_section() -> None:
    program = Program([], [], [], [INT])
    body = program.to_bytes()[:-4]
    # one function "f": code [0, 5) of a code section of 0 words
    counts_end = _COUNTS_AT + 24
    body = (
        body[: _COUNTS_AT + 12]
        + struct.pack("<I", 1)
        + body[_COUNTS_AT + 16 : counts_end]
        + body[counts_end:]
    )
    body += struct.pack("<I", 1) + b"f" + struct.pack("<6I", 0, 5, 0, 0, 0, 0)
    with pytest.raises(
        ContainerError, match=r"function 0 \(f\) code \[0, 5\) is outside the code section"
    ):
        load(_reseal(body))


def test_malformed_type_descriptor() -> None:
    program = Program([], [], [], [list_of(INT)])
    data = program.to_bytes()
    at = data.index(struct.pack("<I2i", 2, 5, 2))  # word count 2, then list, int
    with pytest.raises(ContainerError, match="type 0"):
        load(_patch(data, at + 8, 9))  # an unknown type code
    with pytest.raises(ContainerError, match="type 0: descriptor has 1 trailing words"):
        load(_patch(data, at + 4, 2))  # "int int": one word too many


def test_type_nested_past_the_limit() -> None:
    """A descriptor nesting thousands of lists made the loader recurse into a RecursionError
    (a 500 from the API, a traceback from `kiln run`); types nest at most MAX_TYPE_DEPTH."""

    def nested(depth: int) -> Program:
        ty = INT
        for _ in range(depth):
            ty = list_of(ty)
        return Program([], [], [], [INT, ty])

    assert load(nested(MAX_TYPE_DEPTH).to_bytes()).types[1] == nested(MAX_TYPE_DEPTH).types[1]
    with pytest.raises(ContainerError, match=f"type 1: .*deeper than {MAX_TYPE_DEPTH}"):
        load(nested(MAX_TYPE_DEPTH + 1).to_bytes())
    words = [5] * 5000 + [2]  # list[list[...[int]]], 5000 deep, written by hand
    body = Program([], [], [], []).to_bytes()[:-4]
    body = body[:_COUNTS_AT + 8] + struct.pack("<I", 1) + body[_COUNTS_AT + 12:]
    body += struct.pack(f"<I{len(words)}i", len(words), *words)
    with pytest.raises(ContainerError, match=f"type 0: .*deeper than {MAX_TYPE_DEPTH}"):
        load(_reseal(body))


def test_bad_utf8_name() -> None:
    program = Program([], [], [], [], "ab")
    body = program.to_bytes()[:-4].replace(b"ab", b"\xff\xfe")
    with pytest.raises(ContainerError, match="not UTF-8"):
        load(_reseal(body))
