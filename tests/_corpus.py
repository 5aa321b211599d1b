"""The golden corpus (tests/programs) as the batched-compiler tests read it."""

from __future__ import annotations

from pathlib import Path

from compiler import parse_call
from vm.values import Type, type_of_value

CORPUS = Path(__file__).parent / "programs"


def call_types(source: str) -> dict[str, list[Type]]:
    """The argument types of a corpus program's `# call:` header line (default `main()`)."""
    call = "main()"
    for line in source.splitlines():
        if not line.startswith("#"):
            break
        key, _, value = line[1:].strip().partition(":")
        if key == "call":
            call = value.strip()
    name, args = parse_call(call)
    return {name: [type_of_value(a) for a in args]}
