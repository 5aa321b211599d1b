"""The bytecode verifier: every rule a program must keep before anything runs.

`verify(program)` raises `VerifyError` naming the function, the instruction index and the rule
broken. A verified program cannot make a backend read outside its code, constants, image, type
table or frame, and its operand stack stays within each function's declared `max_stack`; what
remains to check at run time is the data (indices, sizes, limits), which traps.

The rules:

- program: constants are int64; the image is a sequence of strings back to back (`n`, then n
  code points below 0x110000); every type in the type table round-trips through its descriptor;
  function names are distinct;
- each function: parameter and return types index the type table; `n_locals >= n_params`;
  `max_stack >= 0`; its frame, `n_locals + max_stack`, fits the largest value stack an
  execution may have (`vm.limits.MAX_STACK_WORDS`), checked before anything is sized from it;
  one line per instruction; every code word is a u32;
- each instruction: a known opcode and an operand in range for its kind (see `_check_operand`);
  a loop step (`FOR_RANGE`, `FOR_LIST`, `FOR_STR`) is followed by a `JUMP` and its state slots
  lie inside the frame;
- stack depth, by abstract interpretation over the control-flow graph with the stack effects of
  `vm.isa` (`stack_effect`): the operand stack starts empty, never goes negative, never exceeds
  `max_stack`, has the same depth on every path into an instruction and exactly 1 at `RET`;
  control never runs off the end of the code.

Types are a separate pass, `vm.typecheck.check_types(program)`, run after `verify` by
`verify_bytes` (so on every user-supplied `.kbc`: `kiln run`, the API, the Pipeline's bytecode
candidates) and on the neural compiler's samples before they run: every instruction gets
operands of the types it works on (from `vm.ref`), `CALL` passes the callee's parameter types,
`RET` returns the declared type, a local unset on some path is read only as a scalar (the VM's 0)
or behind the compiler's unbound-local flag; a violation is a `VerifyError` with the rule `type`
and what was expected against what was found. `verify` itself stays structural: the neural
constrained decoder guarantees that its samples pass it, and it does not track types.
"""

from __future__ import annotations

from vm.container import Program, VerifyError, load, verify_failure
from vm.isa import (
    BY_NAME,
    IMM_MAX,
    LOCAL2_MAX,
    LOOP_STATE_SLOTS,
    OPS,
    TRAPS,
    Op,
    decode,
    split_local2,
)
from vm.isa import stack_effect as isa_stack_effect
from vm.limits import MAX_STACK_WORDS
from vm.typecheck import check_types
from vm.values import INT64_MAX, INT64_MIN, Type, type_from_descriptor

MAX_TUPLE_ARITY = 255  # the largest arity a type descriptor can hold (vm.values)

# The kinds of type operand each typed instruction works on (EQ, LT and LE take any type).
TYPE_OPERAND_KINDS: dict[str, tuple[str, ...]] = {
    "CONTAINS": ("str", "list", "tuple"),
    "SORTED": ("list",),
    "SORTED_DESC": ("list",),
    "SORTED_UNIQUE": ("list",),
    "LIST_FIND": ("list",),
    "MIN": ("list", "str"),
    "MAX": ("list", "str"),
}


_fail = verify_failure


def image_strings(image: list[int]) -> dict[int, str]:
    """The string constants of an image by address. ValueError if it is not strings back to back."""
    strings: dict[int, str] = {}
    address = 0
    while address < len(image):
        n = image[address]
        end = address + 1 + n
        if not 0 <= n or end > len(image):
            raise ValueError(
                f"string at word {address} has length {n}, past the image end ({len(image)} words)"
            )
        points = image[address + 1 : end]
        bad = next((cp for cp in points if not 0 <= cp < 0x110000), None)
        if bad is not None:
            raise ValueError(f"string at word {address} holds {bad}, not a code point")
        strings[address] = "".join(map(chr, points))
        address = end
    return strings


def stack_effect(program: Program, op: Op, operand: int) -> tuple[int, int]:
    """(pops, pushes) of one instruction of `program` (vm.isa.stack_effect)."""
    return isa_stack_effect(op, operand, lambda f: program.functions[f].n_params)


def verify(program: Program) -> None:
    """Raise VerifyError unless `program` keeps every rule (module docstring)."""
    _check_tables(program)
    strings = image_strings(program.image)  # _check_tables made sure this parses
    for index in range(len(program.functions)):
        _check_header(program, index)
        fn = program.functions[index]
        _check_operands(program, index, strings)
        afters = _walk(program, index)[1]
        if max(afters) <= fn.max_stack:
            continue
        for pc, after in enumerate(afters):
            if after > fn.max_stack:
                raise _fail(
                    program,
                    index,
                    f"instruction {pc}",
                    "stack overflow",
                    f"depth {after} exceeds the declared max_stack {fn.max_stack}",
                )


def verify_bytes(data: bytes) -> Program:
    """Load a `.kbc` container and verify it, types included (ContainerError or VerifyError):
    what every user-supplied bytecode goes through (`kiln run`, the API, Pipeline candidates)."""
    program = load(data)
    verify(program)
    check_types(program)
    return program


def max_depth(program: Program, index: int) -> int:
    """The deepest the operand stack of function `index` gets: its least valid max_stack."""
    return max(0, *_walk(program, index)[1])


def stack_depths(program: Program, index: int) -> list[int | None]:
    """The operand-stack depth before each instruction (None where unreachable).

    Assumes the operands are valid (`_check_operand`). Raises VerifyError on underflow, on two
    paths that disagree, on RET at a depth other than 1 and on control running off the end.
    """
    return _walk(program, index)[0]


# Per opcode, what the walk reads (from vm.isa's table, once): the stack effect when it does not
# depend on the operand (else None: `stack_effect` works it out), and the successors' shape.
_FIXED_EFFECT: tuple[tuple[int, int] | None, ...] = tuple(
    (op.pops, op.pushes) if isinstance(op.pops, int) and isinstance(op.pushes, int) else None
    for op in OPS
)
_FALLS_THROUGH = tuple(not op.ends_block for op in OPS)
_JUMPS = tuple(op.is_jump for op in OPS)
_GUARDS = tuple(op.guards_jump for op in OPS)
_RET = BY_NAME["RET"].code
_IMM = tuple(op.operand == "imm" for op in OPS)


def _walk(program: Program, index: int) -> tuple[list[int | None], list[int]]:
    """The depth before each instruction (None where unreachable) and after it (-1 where
    unreachable): stack_depths' walk
    over the control-flow graph (its docstring), with the stack effects of `stack_effect`."""
    fn = program.functions[index]
    code = fn.code
    n = len(code)
    depths: list[int | None] = [None] * n
    afters = [-1] * n
    if not n:
        raise _fail(program, index, "instruction 0", "runs off the end", "the function has no code")
    depths[0] = 0
    work = [0]
    fixed, falls, jumps, guards, imm = _FIXED_EFFECT, _FALLS_THROUGH, _JUMPS, _GUARDS, _IMM
    while work:
        pc = work.pop()
        depth = depths[pc]
        assert depth is not None
        word = code[pc]
        opcode, operand = word & 0xFF, word >> 8
        effect = fixed[opcode]
        if effect is None:
            if imm[opcode] and operand > IMM_MAX:
                operand -= 1 << 24
            effect = stack_effect(program, OPS[opcode], operand)
        pops, pushes = effect
        if depth < pops or (opcode == _RET and depth != 1):
            where = f"instruction {pc} ({OPS[opcode].name})"
            if depth < pops:
                raise _fail(
                    program,
                    index,
                    where,
                    "stack underflow",
                    f"pops {pops} from a stack of depth {depth}",
                )
            raise _fail(
                program, index, where, "RET stack depth", f"RET at depth {depth}, must be exactly 1"
            )
        after = depth - pops + pushes
        afters[pc] = after
        successors = [pc + 1] if falls[opcode] else []
        if jumps[opcode]:
            successors.append(operand)
        if guards[opcode]:
            successors.append(pc + 2)  # past the JUMP it skips (the JUMP itself is pc + 1)
        for target in successors:
            if target >= n:
                raise _fail(
                    program,
                    index,
                    f"instruction {pc} ({OPS[opcode].name})",
                    "runs off the end",
                    "control falls past the last instruction",
                )
            seen = depths[target]
            if seen is None:
                depths[target] = after
                work.append(target)
            elif seen != after:
                raise _fail(
                    program,
                    index,
                    f"instruction {pc} ({OPS[opcode].name})",
                    "inconsistent stack depth",
                    f"reaches instruction {target} at depth {after}, another path at depth {seen}",
                )
    return depths, afters


def _op_and_operand(word: int) -> tuple[Op, int]:
    code, operand = decode(word)
    return OPS[code], operand


def _check_tables(program: Program) -> None:
    def fail(rule: str, detail: str) -> VerifyError:
        return VerifyError(f"program {program.source_name}: {rule}: {detail}")

    for k, value in enumerate(program.consts):
        if not isinstance(value, int) or not INT64_MIN <= value <= INT64_MAX:
            raise fail("bad constant", f"constant {k} ({value!r}) is not an int64 word")
    for address, value in enumerate(program.image):
        if not isinstance(value, int) or not INT64_MIN <= value <= INT64_MAX:
            raise fail("bad image", f"image word {address} ({value!r}) is not an int64 word")
    try:
        image_strings(program.image)
    except ValueError as e:
        raise fail("bad image", str(e)) from None
    for t, ty in enumerate(program.types):
        try:
            if not isinstance(ty, Type):
                raise ValueError(f"{ty!r} is not a Type")
            words = ty.descriptor()
            if type_from_descriptor(words) != (ty, len(words)):
                raise ValueError(f"{ty} does not round-trip through its descriptor {words}")
        except (ValueError, KeyError, IndexError) as e:
            raise fail("bad type table", f"type {t}: {e}") from None
    seen: dict[str, int] = {}
    for index, fn in enumerate(program.functions):
        if fn.name in seen:
            raise fail(
                "duplicate function name",
                f"functions {seen[fn.name]} and {index} are both {fn.name!r}",
            )
        seen[fn.name] = index


def _check_header(program: Program, index: int) -> None:
    fn = program.functions[index]
    n_types = len(program.types)

    def fail(rule: str, detail: str) -> VerifyError:
        return _fail(program, index, "header", rule, detail)

    for i, t in enumerate(fn.param_types):
        if not 0 <= t < n_types:
            raise fail(
                "parameter type index out of range",
                f"parameter {i} has type {t}, the table has {n_types}",
            )
    if not 0 <= fn.return_type < n_types:
        raise fail(
            "return type index out of range",
            f"return type {fn.return_type}, the table has {n_types}",
        )
    if not fn.n_params <= fn.n_locals < 1 << 32:
        raise fail(
            "local count",
            f"n_locals {fn.n_locals} must be at least n_params {fn.n_params} (and a u32)",
        )
    if not 0 <= fn.max_stack < 1 << 32:
        raise fail("max_stack out of range", f"max_stack {fn.max_stack} is not a u32")
    if fn.n_locals + fn.max_stack > MAX_STACK_WORDS:
        raise fail(
            "frame too large",
            f"n_locals {fn.n_locals} + max_stack {fn.max_stack} exceeds the limit"
            f" {MAX_STACK_WORDS}, the largest value stack an execution may have"
            " (vm.limits.MAX_STACK_WORDS): the function could never run",
        )
    if len(fn.lines) != len(fn.code):
        raise fail("line table length", f"{len(fn.lines)} lines for {len(fn.code)} instructions")
    for pc, line in enumerate(fn.lines):
        if not isinstance(line, int) or not 0 <= line < 1 << 32:
            raise fail("line table entry", f"line of instruction {pc} is {line!r}, not a u32")


# Per opcode, the operand check `_check_operands` makes inline: its kind, or "slow" where
# `_check_operand` decides (loop steps, tuple counts: rare).
_INLINE_KIND: tuple[str, ...] = tuple(
    "slow"
    if op.guards_jump or (op.operand == "count" and op.name.startswith(("TUPLE", "UNPACK_TUPLE")))
    else op.operand
    for op in OPS
)
_TYPE_KINDS: tuple[tuple[str, ...] | None, ...] = tuple(
    TYPE_OPERAND_KINDS.get(op.name) for op in OPS
)


def _check_operands(program: Program, index: int, strings: dict[int, str]) -> None:
    """`_check_operand` of every instruction of function `index`: the common cases inline, and
    `_check_operand` itself for any word they do not pass (it raises, or passes what they
    could not tell)."""
    fn = program.functions[index]
    code = fn.code
    n = len(code)
    n_ops, n_traps = len(OPS), len(TRAPS)
    n_consts, n_locals = len(program.consts), fn.n_locals
    n_funcs, types = len(program.functions), program.types
    kinds, type_kinds = _INLINE_KIND, _TYPE_KINDS
    for pc, word in enumerate(code):
        if type(word) is int and 0 <= word < 1 << 32 and (word & 0xFF) < n_ops:
            opcode, operand = word & 0xFF, word >> 8
            kind = kinds[opcode]
            if kind == "imm" or kind == "count":
                continue
            if kind == "none":
                if operand == 0:
                    continue
            elif kind == "local":
                if operand < n_locals:
                    continue
            elif kind == "jump":
                if operand < n:
                    continue
            elif kind == "const":
                if operand < n_consts:
                    continue
            elif kind == "type":
                if operand < len(types):
                    allowed = type_kinds[opcode]
                    if allowed is None or types[operand].kind in allowed:
                        continue
            elif kind == "local2":
                if operand & LOCAL2_MAX < n_locals and operand >> 12 < n_locals:
                    continue
            elif kind == "str":
                if operand in strings:
                    continue
            elif kind == "func":
                if operand < n_funcs:
                    continue
            elif kind == "trap":
                if 0 < operand < n_traps:
                    continue
            elif kind == "slice":
                if operand <= 0b111:
                    continue
        _check_operand(program, index, pc, word, strings)


def _check_operand(
    program: Program, index: int, pc: int, word: int, strings: dict[int, str]
) -> None:
    """One instruction word: a known opcode with an operand in range for its kind."""
    if not isinstance(word, int) or not 0 <= word < 1 << 32:
        raise _fail(
            program, index, f"instruction {pc}", "bad instruction word", f"{word!r} is not a u32"
        )
    code, operand = decode(word)
    if code >= len(OPS):
        raise _fail(
            program,
            index,
            f"instruction {pc}",
            "unknown opcode",
            f"opcode {code} (the ISA has {len(OPS)})",
        )
    op = OPS[code]
    fn = program.functions[index]

    def fail(rule: str, detail: str) -> VerifyError:
        return _fail(program, index, f"instruction {pc} ({op.name} {operand})", rule, detail)

    kind = op.operand
    if kind == "none" and operand != 0:
        raise fail("nonzero operand", f"{op.name} takes no operand")
    if kind == "const" and operand >= len(program.consts):
        raise fail("constant index out of range", f"the pool has {len(program.consts)} constants")
    if kind == "str" and operand not in strings:
        raise fail(
            "string address invalid", f"image word {operand} is not the start of a string constant"
        )
    if kind == "local" and operand >= fn.n_locals:
        raise fail("local slot out of range", f"the function has {fn.n_locals} locals")
    if kind == "local2" and max(split_local2(operand)) >= fn.n_locals:
        raise fail("local slot out of range", f"the function has {fn.n_locals} locals")
    if op.guards_jump:
        state = split_local2(operand)[1] + LOOP_STATE_SLOTS[op.name]
        if state > fn.n_locals:
            raise fail(
                "loop state out of range",
                f"needs slots up to {state - 1}, the function has {fn.n_locals} locals",
            )
        following = fn.code[pc + 1] if pc + 1 < len(fn.code) else None
        if not isinstance(following, int) or decode(following)[0] != BY_NAME["JUMP"].code:
            raise fail("loop step without its jump", f"{op.name} must be followed by a JUMP")
    if kind == "jump" and operand >= len(fn.code):
        raise fail("jump target out of range", f"the function has {len(fn.code)} instructions")
    if kind == "func" and operand >= len(program.functions):
        raise fail(
            "function index out of range", f"the program has {len(program.functions)} functions"
        )
    if kind == "trap" and not 0 < operand < len(TRAPS):
        raise fail("trap code out of range", f"codes run from 1 to {len(TRAPS) - 1}")
    if kind == "slice" and operand > 0b111:
        raise fail("slice flags out of range", "only bits 0 (start), 1 (stop) and 2 (step) exist")
    if kind == "count" and op.name.startswith(("TUPLE", "UNPACK_TUPLE")):
        limit = MAX_TUPLE_ARITY - 1 if op.name == "TUPLE_GET" else MAX_TUPLE_ARITY
        if operand > limit:
            raise fail("count out of range", f"tuples have at most {MAX_TUPLE_ARITY} items")
    if kind == "type":
        if operand >= len(program.types):
            raise fail("type index out of range", f"the type table has {len(program.types)} types")
        allowed = TYPE_OPERAND_KINDS.get(op.name)
        ty = program.types[operand]
        if allowed is not None and ty.kind not in allowed:
            raise fail("wrong type operand", f"{op.name} works on {' or '.join(allowed)}, not {ty}")
