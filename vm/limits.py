"""Resource limits of one execution: fuel, value stack, call depth and heap arena.

Every backend enforces the same limits the same way, so a verdict never depends on the machine:
running out of any of them is a named trap (see `vm.isa.TRAPS`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Limits:
    fuel: int = 10_000_000
    """Bytecode instructions one execution may run (FuelExhausted past it)."""
    stack_words: int = 1 << 16
    """64-bit slots of the value stack: locals and operands of every frame (StackExhausted)."""
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

    def replace(self, **changes: int) -> Limits:
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise ValueError(f"unknown limit(s): {', '.join(sorted(unknown))}")
        return Limits(**{**{f.name: getattr(self, f.name) for f in fields(self)}, **changes})
