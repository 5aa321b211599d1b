"""The disassembler: a program as text, one line per instruction (clox style).

    == fib(int) -> int   params 1, locals 1, max stack 3 ==
    0000    2 LOAD           0
    0001    | LOADI          2
    0002    | LT_I
    0003    | JUMP_IF_FALSE  6         -> 6

Each line: offset, source line (`|` while it stays the same), opcode, operand, and what the
operand means: the constant's value, the string, the jump target, the callee, the type, the trap
or the slice parts. A constant is a 64-bit word that may be an int or a float's bits; it is shown
as a float when the instruction after it consumes a float, as an int otherwise, with the float
reading added when the bits look like a float rather than a small int.
"""

from __future__ import annotations

from vm.container import Program
from vm.isa import OPS, TRAPS, decode, split_local2
from vm.values import bits_float

_FLOAT_CONSUMERS = frozenset(op.name for op in OPS if op.name.endswith("_F") or op.name == "F2I")


def signature(program: Program, index: int) -> str:
    """`name(type, ...) -> type` of function `index` (type indices where the table lacks them)."""
    fn = program.functions[index]

    def type_name(t: int) -> str:
        return str(program.types[t]) if 0 <= t < len(program.types) else f"<type {t}?>"

    if fn.host_types is not None:  # a tuple[T, ...] (a list[T] in the VM) is shown as one
        *host_params, host_ret = fn.host_types
        return f"{fn.name}({', '.join(map(str, host_params))}) -> {host_ret}"
    params = ", ".join(type_name(t) for t in fn.param_types)
    return f"{fn.name}({params}) -> {type_name(fn.return_type)}"


def disassemble(program: Program) -> str:
    """The whole program: a header per function, then its instructions."""
    lines = [
        f"; {program.source_name}: {len(program.functions)} functions, "
        f"{len(program.consts)} constants, "
        f"{len(program.image)} image words, {len(program.types)} types"
    ]
    for index, fn in enumerate(program.functions):
        lines.append("")
        lines.append(
            f"== {signature(program, index)}   params {fn.n_params}, "
            f"locals {fn.n_locals}, max stack {fn.max_stack} =="
        )
        for pc in range(len(fn.code)):
            line = fn.lines[pc] if pc < len(fn.lines) else None
            same = pc > 0 and pc - 1 < len(fn.lines) and line == fn.lines[pc - 1]
            shown = "   |" if same else f"{line if line is not None else '?':>4}"
            lines.append(f"{pc:04d} {shown} {format_instruction(program, index, pc)}")
    return "\n".join(lines) + "\n"


def format_instruction(program: Program, index: int, pc: int) -> str:
    """`NAME  operand  meaning` of one instruction (also used by the reference VM's trace)."""
    code = program.functions[index].code
    opcode, operand = decode(code[pc])
    if opcode >= len(OPS):
        return f"<unknown opcode {opcode}> {operand}"
    op = OPS[opcode]
    if op.operand == "none":
        return op.name if operand == 0 else f"{op.name:<14} {operand}  ; nonzero operand"
    meaning = _meaning(program, index, pc, op.operand, operand)
    shown = "{},{}".format(*split_local2(operand)) if op.operand == "local2" else str(operand)
    text = f"{op.name:<14} {shown:<9}"
    return f"{text} {meaning}".rstrip() if meaning else text.rstrip()


def _meaning(program: Program, index: int, pc: int, kind: str, operand: int) -> str:
    if kind == "const":
        if operand >= len(program.consts):
            return "<bad constant index>"
        return _constant(program, index, pc, program.consts[operand])
    if kind == "str":
        text = _string_at(program.image, operand)
        return repr(text) if text is not None else "<not a string>"
    if kind == "jump":
        return f"-> {operand}"
    if kind == "local2" and OPS[decode(program.functions[index].code[pc])[0]].guards_jump:
        return "state {1}.. -> local {0}".format(*split_local2(operand))
    if kind == "func":
        if operand >= len(program.functions):
            return "<bad function index>"
        return signature(program, operand)
    if kind == "type":
        return str(program.types[operand]) if operand < len(program.types) else "<bad type index>"
    if kind == "trap":
        return TRAPS[operand].name if operand < len(TRAPS) else "<bad trap code>"
    if kind == "slice":
        parts = [name for bit, name in enumerate(("start", "stop", "step")) if operand >> bit & 1]
        return ",".join(parts) if parts else "(whole)"
    return ""  # imm, local, count: the operand says it all


def _constant(program: Program, index: int, pc: int, word: int) -> str:
    """A constant word as an int, or as a float where the next instruction consumes one."""
    code = program.functions[index].code
    following = decode(code[pc + 1])[0] if pc + 1 < len(code) else None
    as_float = bits_float(word)
    if following is not None and following < len(OPS) and OPS[following].name in _FLOAT_CONSUMERS:
        return f"= {as_float!r}"
    if abs(word) >= 1 << 52 and as_float == as_float and abs(as_float) != float("inf"):
        return f"= {word} (float {as_float!r})"  # large as an int, a plain number as a float
    return f"= {word}"


def _string_at(image: list[int], address: int) -> str | None:
    if not 0 <= address < len(image):
        return None
    n = image[address]
    if n < 0 or address + 1 + n > len(image):
        return None
    try:
        return "".join(chr(cp) for cp in image[address + 1 : address + 1 + n])
    except (ValueError, OverflowError):
        return None
