"""Assembly: labelled instructions -> a function's code words, line table and maximum stack.

Contract: `assemble(lowered, callee_params)` resolves every `Label` to an instruction index,
computes the maximum operand-stack depth by walking the control-flow graph with the stack effects
of `vm.isa` (the table is the only source of them), and asserts that the stack balances: one
depth per instruction whatever the path, never negative, exactly 1 at `RET`. A failed assertion
is a compiler bug, reported as such.
"""

from __future__ import annotations

from compiler.lower import Instr, Label, LoweredFunction
from vm.container import Function
from vm.isa import BY_NAME, encode, stack_effect


class AssemblyError(AssertionError):
    """The compiler produced code whose stack does not balance: a kiln bug."""


def assemble(fn: LoweredFunction, callee_params: list[int]) -> Function:
    instrs: list[Instr] = []
    where: dict[Label, int] = {}
    for entry in fn.code:
        if isinstance(entry, Label):
            where[entry] = len(instrs)
        else:
            instrs.append(entry)
    targets = [where[i.arg] if isinstance(i.arg, Label) else i.arg for i in instrs]
    depth: list[int | None] = [None] * len(instrs)
    work = [(0, 0)] if instrs else []
    max_depth = 0
    while work:
        pc, d = work.pop()
        if pc >= len(instrs):
            raise AssemblyError(f"{fn.name}: control runs off the end of the function")
        if depth[pc] is not None:
            if depth[pc] != d:
                raise AssemblyError(
                    f"{fn.name}: stack depth {depth[pc]} and {d} meet at instruction {pc} ({instrs[pc]})"
                )
            continue
        depth[pc] = d
        instr = instrs[pc]
        op = BY_NAME[instr.op]
        pops, pushes = stack_effect(op, targets[pc], callee_params.__getitem__)
        if d < pops:
            raise AssemblyError(f"{fn.name}: {instr.op} at {pc} pops {pops} from a stack of {d}")
        if instr.op == "RET" and d != 1:
            raise AssemblyError(f"{fn.name}: RET at {pc} with stack depth {d}")
        after = d - pops + pushes
        max_depth = max(max_depth, after, d)
        if op.is_jump:
            work.append((targets[pc], after))
        if op.guards_jump:
            work.append((pc + 2, after))  # past the JUMP it skips
        if not op.ends_block:
            work.append((pc + 1, after))
    code = [encode(BY_NAME[i.op], t) for i, t in zip(instrs, targets)]
    return Function(
        fn.name,
        fn.param_types,
        fn.return_type,
        fn.n_locals,
        max_depth,
        code,
        [i.line for i in instrs],
    )
