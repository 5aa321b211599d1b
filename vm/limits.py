"""Resource limits of one execution (fuel, value stack, call depth and heap arena), and the
largest sizes a program may declare.

Every backend enforces the same limits the same way, so a verdict never depends on the machine:
running out of any of them is a named trap (see `vm.isa.TRAPS`).

A program's declared sizes are checked against the constants below before anything is built
from them (`vm.container.load`, `vm.verify`, `vm.typecheck`, the compiler), so a hostile
`.kbc` or source cannot make kiln allocate without bound: it is rejected with an error naming
the field, its value and the limit.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

MAX_STACK_WORDS = 1 << 24
"""The largest value stack (`Limits.stack_words`) an execution may be given (128 MiB). A
function whose frame (`n_locals + max_stack`) is larger could never run: `vm.verify` rejects
it."""
MAX_TYPE_DEPTH = 64
"""Lists, tuples and Optionals nested in one type (`list[list[int]]` is 2): deeper types are
rejected where they are read (container, example values, the compiler), so no walk over a type
or a value recurses past it."""


@dataclass(frozen=True)
class Limits:
    fuel: int = 10_000_000
    """Bytecode instructions one execution may run (FuelExhausted past it)."""
    stack_words: int = 1 << 16
    """64-bit slots of the value stack: locals and operands of every frame (StackExhausted);
    at most MAX_STACK_WORDS."""
    max_call_depth: int = 1000
    """Nested calls (RecursionError past it, as CPython's default recursion limit)."""
    heap_words: int = 1 << 20
    """64-bit words of the heap arena of one execution (HeapExhausted)."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"limit {f.name} must be a positive integer, got {value!r}")
            if value >= 1 << 62:
                raise ValueError(f"limit {f.name} is too large: {value}")
        if self.stack_words > MAX_STACK_WORDS:
            raise ValueError(
                f"limit stack_words is too large: {self.stack_words} (at most {MAX_STACK_WORDS})"
            )

    def replace(self, **changes: int) -> Limits:
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise ValueError(f"unknown limit(s): {', '.join(sorted(unknown))}")
        return Limits(**{**{f.name: getattr(self, f.name) for f in fields(self)}, **changes})
