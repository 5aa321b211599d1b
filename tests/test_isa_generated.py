"""The files generated from vm/isa.py (the C opcode header and docs/ISA.md) are up to date."""

from __future__ import annotations

import pytest

from vm import isa


@pytest.mark.parametrize("path", sorted(isa.generated_files()), ids=lambda p: p.name)
def test_generated_file_is_current(path):
    expected = isa.generated_files()[path]
    assert path.exists(), f"{path} is missing: run python -m vm.isa --write"
    assert path.read_text() == expected, f"{path} is stale: run python -m vm.isa --write"


def test_header_names_every_opcode_and_trap():
    header = isa.render_header()
    for op in isa.OPS:
        assert f"OP_{op.name} = {op.code}," in header
    for trap in isa.TRAPS:
        assert f"TRAP_{trap.name} = {trap.code}," in header
    assert f"KILN_N_OPS = {len(isa.OPS)}" in header


def test_check_mode_reports_current_files():
    assert isa.main([]) == 0


def test_an_isa_extends_its_prefixes_only():
    assert isa.isa_extends(isa.isa_hash())
    assert isa.isa_extends(isa.isa_hash(len(isa.OPS) - 3, len(isa.TRAPS) - 1))
    assert not isa.isa_extends(isa.isa_hash() ^ 1)
    # an opcode changed in the middle of the table changes what earlier programs mean
    table = list(isa._TABLE)
    table[5] = (table[5][0] + "_CHANGED", *table[5][1:])
    assert isa.fingerprint(isa._TABLE, isa._TRAPS) == isa.isa_hash()
    assert not isa.isa_extends(isa.fingerprint(table, isa._TRAPS))


def test_write_refuses_to_renumber_an_opcode():
    """Opcodes are append-only (vm/surface.py's rows append theirs after the static table):
    `python -m vm.isa --write` refuses a table that changes or drops a code of the header."""
    header = isa.render_header()
    assert isa.renumbered_ops(header) == []
    assert isa.renumbered_ops(header.replace("    OP_NOP = 0,", "    OP_NOP = 7,")) == ["OP_NOP = 7"]
    assert isa.renumbered_ops(header + "    OP_GONE = 250,  /* */\n") == ["OP_GONE = 250"]
