"""What one run of a kiln program is and gives: `ExecResult`, the backends, the module function.

Imported by every backend (vm.ref, vm.cpu, vm.cuda) and by the front door (vm.run), so it
imports nothing of theirs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vm.container import Program

BACKENDS = ("ref", "cpu", "cuda")
MODULE_FUNCTION = "<module>"  # a program's top-level statements, run before any call


@dataclass(frozen=True)
class ExecResult:
    """What one execution gave: a value, or a trap; and the steps it ran."""

    value: Any
    trap: str | None
    steps: int

    @property
    def needs_fallback(self) -> bool:
        from vm.isa import TRAP_BY_NAME

        return self.trap is not None and TRAP_BY_NAME[self.trap].needs_fallback

    @property
    def outcome(self) -> tuple[str, str]:
        """("value", repr) or ("raise", trap name): what a differential test compares."""
        return ("raise", self.trap) if self.trap is not None else ("value", repr(self.value))


Item = tuple["Program", str | int, Sequence[Any]]
