"""Compile-time diagnostics: every rejection says what, where and why.

    examples/bad.py:3:5: unsupported: dict display (dict is not in kiln Python yet)
    examples/bad.py:7:12: type error: cannot add int and str

Columns are 1-based, as editors count them.
"""

from __future__ import annotations

import ast


class CompileError(Exception):
    """A program kiln will not compile. `kind` is "unsupported", "type error" or "syntax error"."""

    def __init__(self, filename: str, line: int, col: int, kind: str, message: str) -> None:
        self.filename, self.line, self.col, self.kind, self.message = (
            filename,
            line,
            col,
            kind,
            message,
        )
        super().__init__(str(self))

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}:{self.col}: {self.kind}: {self.message}"


class Reporter:
    """Builds CompileErrors that point into one source file."""

    def __init__(self, filename: str) -> None:
        self.filename = filename

    def _at(self, node: ast.AST | None) -> tuple[int, int]:
        if node is None or not hasattr(node, "lineno"):
            return 1, 1
        return node.lineno, getattr(node, "col_offset", 0) + 1

    def unsupported(self, node: ast.AST | None, construct: str, why: str) -> CompileError:
        return CompileError(self.filename, *self._at(node), "unsupported", f"{construct} ({why})")

    def type_error(self, node: ast.AST | None, message: str) -> CompileError:
        return CompileError(self.filename, *self._at(node), "type error", message)
