"""Request-wide guards: the body-size limit (413 naming it), the JSON nesting limit (422 saying
where), request latency metrics, and error bodies that say what is wrong (a bad body is a 4xx,
never a 500) in at most MAX_TEXT_BYTES."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import numpy as np
from fastapi import FastAPI, Request, status
from fastapi.concurrency import run_in_threadpool
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.metrics import Metrics

MAX_TEXT_BYTES = 4096
"""The most UTF-8 bytes of one text the service stores or returns: a verdict's diagnostic, a
job's error, an error body's detail. Longer text is cut and ends with the `clip` marker."""


def clip(text: str | None, limit: int = MAX_TEXT_BYTES) -> str | None:
    """`text` in at most `limit` UTF-8 bytes: cut, with a marker saying how long it was."""
    if text is None:
        return None
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text
    marker = f" ...[truncated: {len(data)} bytes in all]"
    kept = data[: limit - len(marker.encode())].decode("utf-8", "ignore")
    return kept + marker


async def _send_json(send: Send, code: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": code,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _not_unicode(body: bytes) -> str | None:
    """Why a JSON body is not Unicode text: bytes that are not UTF-8, or an escaped lone
    surrogate ("\\ud800" with no partner), which no string of the service can hold."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as error:
        return (
            f"the body is not valid UTF-8 (byte 0x{body[error.start]:02x} at offset {error.start})"
        )
    if not _SURROGATE_ESCAPE.search(body):
        return None
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return None  # the route says what is wrong with it
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as error:
                code = ord(item[error.start])
                return f"the body has a lone surrogate \\u{code:04x} in a string: not valid Unicode"
    return None


# A JSON string (an unterminated one runs to the end, so no quote is tried twice: linear time).
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\(?:.|\Z)[^"\\]*)*(?:"|\Z)', re.DOTALL)
_STEP = np.zeros(256, dtype=np.int8)  # what each byte does to the nesting depth
_STEP[list(b"[{")] = 1
_STEP[list(b"]}")] = -1


def _too_deep(body: bytes, max_depth: int) -> str | None:
    """Why a JSON body nests too deeply (how deep, and at which byte), or None. Counted on the
    raw bytes, strings skipped, before anything parses it: parsers and validators recurse."""
    if body.count(b"[") + body.count(b"{") <= max_depth:
        return None
    skeleton = _JSON_STRING.sub(b'""', body)
    depth = np.cumsum(_STEP[np.frombuffer(skeleton, dtype=np.uint8)], dtype=np.int64)
    deepest = int(depth.max(initial=0))
    if deepest <= max_depth:
        return None
    at = int(np.argmax(depth > max_depth))  # in the skeleton: add back the strings before it
    removed = 0
    for match in _JSON_STRING.finditer(body):
        if match.start() - removed > at:
            break
        removed += len(match[0]) - 2
    at += removed
    return (
        f"the body nests arrays and objects {deepest} deep: over max_json_depth={max_depth}"
        f" (first past it at byte {at})"
    )


def _read_as_json(scope: Scope) -> bool:
    """Whether FastAPI will parse the body as JSON: it says so, or it says nothing."""
    for name, value in scope["headers"]:
        if name == b"content-type":
            return b"json" in value.lower()
    return True


class BodyLimit:
    """Reads the body first, up to `max_bytes`: a larger one is a 413 before any route runs; a
    JSON body that is not UTF-8 is a 400 that says where, one nested deeper than `max_depth` a
    422 that says where."""

    def __init__(self, app: ASGIApp, max_bytes: int, max_depth: int) -> None:
        self.app, self.max_bytes, self.max_depth = app, max_bytes, max_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = f"request body over max_body_bytes={self.max_bytes}"
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await _send_json(
                        send, status.HTTP_400_BAD_REQUEST, "Content-Length is not a number"
                    )
                    return
                if declared > self.max_bytes:
                    await _send_json(
                        send, status.HTTP_413_CONTENT_TOO_LARGE, f"{too_large} ({declared} bytes)"
                    )
                    return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await _send_json(send, status.HTTP_413_CONTENT_TOO_LARGE, too_large)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        if body and _read_as_json(scope):
            if len(body) > 1 << 16:  # a large body is scanned off the event loop
                deep = await run_in_threadpool(_too_deep, body, self.max_depth)
            else:
                deep = _too_deep(body, self.max_depth)
            if deep is not None:
                await _send_json(send, status.HTTP_422_UNPROCESSABLE_CONTENT, deep)
                return
            problem = _not_unicode(body)
            if problem is not None:
                await _send_json(send, status.HTTP_400_BAD_REQUEST, problem)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class RequestMetrics:
    """Observes each request's latency by route template and status class."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app, self.metrics = app, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        code = 500

        async def send_and_note(message: Message) -> None:
            nonlocal code
            if message["type"] == "http.response.start":
                code = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_and_note)
        finally:
            route = getattr(scope.get("route"), "path", "unmatched")
            self.metrics.requests.observe(
                time.perf_counter() - start,
                route=f"{scope['method']} {route}",
                status=f"{code // 100}xx",
            )


def _where(loc: Any) -> str:
    parts = [str(p) for p in loc if p != "body"] if isinstance(loc, (list, tuple)) else [str(loc)]
    return ".".join(parts) or "body"


async def validation_error(request: Request, exc: Exception) -> JSONResponse:
    """422 with FastAPI's error list, and one line that says what and where."""
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    lines = []
    for error in errors[:5]:
        if error.get("type") == "json_invalid":
            lines.append(
                f"the body is not valid JSON: {error.get('ctx', {}).get('error', error.get('msg'))}"
            )
        else:
            lines.append(f"{_where(error.get('loc', ()))}: {error.get('msg')}")
    shown = errors[:MAX_ERRORS]
    safe = jsonable_encoder(shown, custom_encoder={bytes: lambda b: b.decode("utf-8", "replace")})
    for error in safe:
        error.pop("input", None)  # may be large, or bytes that are not UTF-8
        error.pop("ctx", None)
        error["loc"] = [clip(p, MAX_LOC_BYTES) if isinstance(p, str) else p for p in error["loc"]]
        error["msg"] = clip(error.get("msg"))
    return JSONResponse(
        status_code=status.HTTP_422_UNPROCESSABLE_CONTENT,
        content={"detail": clip("; ".join(lines)), "errors": safe, "count": len(errors)},
    )


MAX_ERRORS = 20  # validation errors listed in a 422 (`count` says how many there were)
MAX_LOC_BYTES = 256  # of one key in an error's location (keys come from the request)


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    """An HTTPException as FastAPI answers it, its detail clipped (messages quote the input)."""
    assert isinstance(exc, StarletteHTTPException)
    detail = clip(exc.detail) if isinstance(exc.detail, str) else exc.detail
    return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=exc.headers)


def install_limits(
    app: FastAPI, max_body_bytes: int, max_json_depth: int, metrics: Metrics
) -> None:
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes, max_depth=max_json_depth)
    app.add_middleware(RequestMetrics, metrics=metrics)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
