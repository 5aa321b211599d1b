"""The fallback's wire format: bounded, length-prefixed frames read under a deadline.

Shared, as a plain file, by the kiln process and the sandboxed zygote (evaluation/zygote.py
imports it as a top-level module inside the sandbox, where the rest of kiln is not visible), so
it imports nothing from kiln. Nothing here unpickles or evaluates what it reads.

    frame  = MAGIC (4 bytes) + length (4 bytes, big-endian) + payload (`length` bytes)
    parent <-> zygote payloads are UTF-8 JSON objects; a candidate's result frame carries its
    nonce and result text (`result_frame` / `parse_result`).

A reader that gets anything else (wrong magic, a length over its cap, fewer bytes than the
header promised before the deadline, bytes after the frame where none may follow) raises
`FrameError`; the caller turns that into the verdict of the one candidate concerned.
"""

from __future__ import annotations

import json
import os
import select
import struct
import time
from typing import Any

MAGIC = b"KLN1"  # parent <-> zygote messages
RESULT_MAGIC = b"KLNR"  # a candidate's own result, to its zygote
NONCE_BYTES = 16
MAX_MESSAGE = 1 << 20  # bytes of one parent <-> zygote payload (a program is at most this)
MAX_RESULT_TEXT = 4096  # bytes of a verdict's text, everywhere
TRUNCATED = " [... truncated by kiln]"
_HEADER = struct.Struct(">4sI")


class FrameError(Exception):
    """Malformed, oversized, truncated or late input on a channel."""


def cap_text(text: str, limit: int = MAX_RESULT_TEXT) -> str:
    """`text` cut to at most `limit` UTF-8 bytes, marked when it was cut."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text
    keep = limit - len(TRUNCATED.encode())
    return data[:keep].decode("utf-8", "ignore") + TRUNCATED


def encode(message: dict[str, Any]) -> bytes:
    payload = json.dumps(message).encode()
    if len(payload) > MAX_MESSAGE:
        raise FrameError(f"message of {len(payload)} bytes is over the {MAX_MESSAGE}-byte cap")
    return _HEADER.pack(MAGIC, len(payload)) + payload


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def read_exact(fd: int, n: int, deadline: float) -> bytes:
    """`n` bytes from `fd` before `deadline` (time.monotonic()), or FrameError."""
    chunks: list[bytes] = []
    need = n
    while need:
        left = deadline - time.monotonic()
        if left <= 0:
            raise FrameError(f"no complete frame before the deadline ({n - need} of {n} bytes)")
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(fd, min(need, 1 << 16))
        if not chunk:
            raise FrameError(f"the channel closed after {n - need} of {n} bytes")
        chunks.append(chunk)
        need -= len(chunk)
    return b"".join(chunks)


def read_message(fd: int, deadline: float, cap: int = MAX_MESSAGE) -> dict[str, Any]:
    """One JSON-object frame from `fd` before `deadline`."""
    magic, length = _HEADER.unpack(read_exact(fd, _HEADER.size, deadline))
    if magic != MAGIC:
        raise FrameError(f"bad frame magic {magic!r}")
    if length > cap:
        raise FrameError(f"frame of {length} bytes is over the {cap}-byte cap")
    try:
        message = json.loads(read_exact(fd, length, deadline))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        raise FrameError(f"frame payload is not JSON: {e}") from None
    if not isinstance(message, dict):
        raise FrameError("frame payload is not a JSON object")
    return message


def result_prefix(nonce: bytes) -> bytes:
    """The head of a candidate's result frame: built before the candidate runs, so that no code
    of the candidate's ever receives the nonce as an argument."""
    return b"".join((RESULT_MAGIC, nonce))


def result_body(text: str) -> bytes:
    """The rest of a result frame: length and text (capped). Only built-in methods touch it."""
    data = cap_text(text).encode("utf-8", "surrogatepass")
    return b"".join((len(data).to_bytes(4, "big"), data))


def result_frame(nonce: bytes, text: str) -> bytes:
    """A candidate's whole result frame, as its runner sends it to the zygote."""
    return b"".join((result_prefix(nonce), result_body(text)))


def parse_result(data: bytes, nonce: bytes) -> str:
    """The result text in `data`, which must be exactly one result frame carrying `nonce`."""
    head = len(RESULT_MAGIC) + NONCE_BYTES + 4
    if len(data) < head or data[: len(RESULT_MAGIC)] != RESULT_MAGIC:
        raise FrameError("not a result frame")
    if data[len(RESULT_MAGIC) : len(RESULT_MAGIC) + NONCE_BYTES] != nonce:
        raise FrameError("result frame with a wrong nonce")
    (length,) = struct.unpack(">I", data[head - 4 : head])
    if length > MAX_RESULT_TEXT or len(data) != head + length:
        raise FrameError("result frame of the wrong length, or bytes after it")
    return data[head:].decode("utf-8", "surrogatepass")
