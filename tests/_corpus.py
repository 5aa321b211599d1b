"""The golden corpus (tests/programs), and generated programs, as the batched-compiler tests read
them."""

from __future__ import annotations

from pathlib import Path

from compiler import parse_call
from fuzz.generator import generate
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


def generated(level: int, count: int, prefix: str) -> tuple[list[str], list[str], list[None]]:
    """The sources of the generator's programs of seeds 0 to count - 1 at complexity `level`,
    their file names (`{prefix}{seed}.py`) and their argument types (none: each is annotated)."""
    programs = [generate(seed, complexity=level) for seed in range(count)]
    return [p.source for p in programs], [f"{prefix}{p.seed}.py" for p in programs], [None] * count
