"""Optimisation passes over labelled instructions, each one switchable.

Contract: `optimize(code, pool, passes)` returns code with the same meaning (value, trap and
side effects; step counts may drop). Passes:

- `fold`: constant folding of scalar operations on constants (`LOADI 2; LOADI 3; MUL_I` ->
  `LOADI 6`), using the shared definitions in `vm.semantics`; an operation that would trap is
  left for run time so the trap happens where Python raises it.
- `dce`: dead code elimination: instructions after an unconditional jump, return or raise that
  no label makes reachable.
- `peephole`: `NOT; JUMP_IF_FALSE` -> `JUMP_IF_TRUE` (and back), pushes immediately popped,
  jumps to the next instruction.
- `threading`: a jump to an unconditional jump goes straight to its target.
- `fuse`: superinstructions, after the others: an int comparison and the conditional jump on it
  become one `JUMP_<cmp>_I`; `LOAD a; LOAD b` -> `LOAD2 a,b`; `LOADI k; ADD_I` -> `ADDI k` (and
  `LOADI k; SUB_I` -> `ADDI -k`).
- `loops`: applied by lowering (compiler/lower.py): `for` loops step with FOR_RANGE, FOR_LIST or
  FOR_STR. It is listed here so that it is switched like the others.

The first four run to a fixed point; `fuse` runs once after them (a fused pair hides the
constants and pushes the other passes look for).
"""

from __future__ import annotations

from compiler.lower import Code, Instr, Label, Pool
from vm.isa import BY_NAME, IMM_MAX, IMM_MIN, LOCAL2_MAX, local2
from vm.semantics import FLOAT_BINARY, FLOAT_UNARY, INT_BINARY, INT_UNARY, RESULT_IS_FLOAT, Trap
from vm.values import bits_float, float_bits

PASSES = ("fold", "dce", "peephole", "threading", "fuse", "loops")


def optimize(code: Code, pool: Pool, passes: frozenset[str] | set[str] = frozenset(PASSES)) -> Code:
    unknown = set(passes) - set(PASSES)
    if unknown:
        raise ValueError(
            f"unknown optimisation pass(es): {', '.join(sorted(unknown))} (known: {', '.join(PASSES)})"
        )
    for _ in range(50):
        before = [(e.op, e.arg) if isinstance(e, Instr) else e for e in code]
        if "fold" in passes:
            code = fold(code, pool)
        if "peephole" in passes:
            code = peephole(code)
        if "threading" in passes:
            code = thread_jumps(code)
        if "dce" in passes:
            code = eliminate_dead_code(code)
        if [(e.op, e.arg) if isinstance(e, Instr) else e for e in code] == before:
            break
    if "fuse" in passes:
        code = fuse(code)
    return code


def _const_word(instr: Instr, pool: Pool) -> int | None:
    if instr.op == "LOADI":
        return int(instr.arg)  # type: ignore[arg-type]
    if instr.op == "CONST":
        return pool.consts[instr.arg]  # type: ignore[index]
    return None


def _push(value: int | float, is_float: bool, line: int, pool: Pool) -> Instr:
    if is_float:
        return Instr("CONST", pool.const(float_bits(float(value))), line)
    if IMM_MIN <= int(value) <= IMM_MAX:
        return Instr("LOADI", int(value), line)
    return Instr("CONST", pool.const(int(value)), line)


def fold(code: Code, pool: Pool) -> Code:
    out: Code = []
    for entry in code:
        out.append(entry)
        if not isinstance(entry, Instr):
            continue
        op = entry.op
        try:
            if op in INT_BINARY or op in FLOAT_BINARY:
                if len(out) < 3 or not all(isinstance(e, Instr) for e in out[-3:-1]):
                    continue
                a, b = (_const_word(e, pool) for e in out[-3:-1])  # type: ignore[arg-type]
                if a is None or b is None:
                    continue
                if op in INT_BINARY:
                    value = INT_BINARY[op](a, b)
                else:
                    value = FLOAT_BINARY[op](bits_float(a), bits_float(b))
                del out[-3:]
            elif op in INT_UNARY or op in FLOAT_UNARY:
                if len(out) < 2 or not isinstance(out[-2], Instr):
                    continue
                a = _const_word(out[-2], pool)  # type: ignore[arg-type]
                if a is None:
                    continue
                value = INT_UNARY[op](a) if op in INT_UNARY else FLOAT_UNARY[op](bits_float(a))
                del out[-2:]
            else:
                continue
        except Trap:
            continue  # leave it: the trap belongs to run time
        out.append(_push(value, op in RESULT_IS_FLOAT, entry.line, pool))
    return out


def _guarded(out: Code) -> bool:
    """Whether the last entry of `out` is the JUMP a loop step needs after it (kept, however
    pointless it looks, and followed by live code)."""
    return len(out) >= 2 and isinstance(out[-2], Instr) and BY_NAME[out[-2].op].guards_jump


def _label_after(code: Code, i: int) -> bool:
    return i + 1 < len(code) and isinstance(code[i + 1], Label)


def peephole(code: Code) -> Code:
    out: Code = []
    inverse = {"JUMP_IF_FALSE": "JUMP_IF_TRUE", "JUMP_IF_TRUE": "JUMP_IF_FALSE"}
    for entry in code:
        prev = out[-1] if out else None
        if isinstance(entry, Instr) and isinstance(prev, Instr):
            if entry.op in inverse and prev.op == "NOT":
                out[-1] = Instr(inverse[entry.op], entry.arg, entry.line)
                continue
            if entry.op == "POP" and prev.op in ("LOADI", "CONST", "STR", "LOAD", "DUP"):
                out.pop()
                continue
        if (
            isinstance(entry, Label)
            and isinstance(prev, Instr)
            and prev.op == "JUMP"
            and prev.arg is entry
            and not _guarded(out)
        ):
            out.pop()
        out.append(entry)
    return out


def thread_jumps(code: Code) -> Code:
    first_after: dict[Label, Instr] = {}
    for i, entry in enumerate(code):
        if isinstance(entry, Label):
            for later in code[i + 1 :]:
                if isinstance(later, Instr):
                    first_after[entry] = later
                    break
    out: Code = []
    for entry in code:
        if isinstance(entry, Instr) and BY_NAME[entry.op].is_jump:
            target = entry.arg
            seen: set[Label] = set()
            while isinstance(target, Label) and target not in seen:
                seen.add(target)
                nxt = first_after.get(target)
                if nxt is None or nxt.op != "JUMP":
                    break
                target = nxt.arg
            entry = Instr(entry.op, target, entry.line)
        out.append(entry)
    return out


def eliminate_dead_code(code: Code) -> Code:
    used = {e.arg for e in code if isinstance(e, Instr) and isinstance(e.arg, Label)}
    out: Code = []
    dead = False
    for entry in code:
        if isinstance(entry, Label):
            if entry in used:
                dead = False
                out.append(entry)
            continue
        if not dead:
            out.append(entry)
            dead = BY_NAME[entry.op].ends_block and not _guarded(out)
    return out


# int comparison -> the fused jump taken when it holds (JUMP_IF_TRUE) or fails (JUMP_IF_FALSE)
_JUMP_WHEN_TRUE = {f"{c}_I": f"JUMP_{c}_I" for c in ("LT", "LE", "GT", "GE", "EQ", "NE")}
_JUMP_WHEN_FALSE = {
    "LT_I": "JUMP_GE_I",
    "LE_I": "JUMP_GT_I",
    "GT_I": "JUMP_LE_I",
    "GE_I": "JUMP_LT_I",
    "EQ_I": "JUMP_NE_I",
    "NE_I": "JUMP_EQ_I",
}


def fuse(code: Code) -> Code:
    """Adjacent pairs (no label between) -> one superinstruction, left to right."""
    out: Code = []
    for entry in code:
        prev = out[-1] if out else None
        if isinstance(entry, Instr) and isinstance(prev, Instr):
            fused = _fuse_pair(prev, entry)
            if fused is not None:
                out[-1] = fused
                continue
        out.append(entry)
    return out


def _fuse_pair(first: Instr, second: Instr) -> Instr | None:
    line = first.line
    if second.op == "JUMP_IF_TRUE" and first.op in _JUMP_WHEN_TRUE:
        return Instr(_JUMP_WHEN_TRUE[first.op], second.arg, line)
    if second.op == "JUMP_IF_FALSE" and first.op in _JUMP_WHEN_FALSE:
        return Instr(_JUMP_WHEN_FALSE[first.op], second.arg, line)
    if first.op == "LOAD" and second.op == "LOAD":
        a, b = first.arg, second.arg
        assert isinstance(a, int) and isinstance(b, int)
        if a <= LOCAL2_MAX and b <= LOCAL2_MAX:
            return Instr("LOAD2", local2(a, b), line)
    if first.op == "LOADI" and second.op in ("ADD_I", "SUB_I"):
        k = first.arg if second.op == "ADD_I" else -first.arg  # type: ignore[operator]
        assert isinstance(k, int)
        if IMM_MIN <= k <= IMM_MAX:
            return Instr("ADDI", k, line)
    return None
