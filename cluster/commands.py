"""`kiln` subcommands of this package (registered by `api.cli`)."""

from __future__ import annotations

from typing import Any


def register(sub: Any) -> None:
    """Add this package's subcommands to the `kiln` parser's subparsers `sub`."""
    del sub
