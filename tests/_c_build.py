"""Building the C sources of kiln (vm/kernels, compiler/kernels) in the tests: the strict warning
set they must compile under, and a build step that fails the test with the compiler's output."""

from __future__ import annotations

import subprocess
from pathlib import Path

# strict C11: every warning an error (sign conversions aside)
STRICT_C11 = [
    "-std=c11",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-pedantic",
    "-Wshadow",
    "-Wconversion",
    "-Wno-sign-conversion",
]


def build(command: list[str], cwd: Path) -> None:
    """Runs the compiler `command` in `cwd`; it must succeed (its output says why it did not)."""
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}"
