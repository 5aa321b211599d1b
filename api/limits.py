"""Request-wide guards: the body-size limit (413 naming it), request latency metrics, and
error bodies that say what is wrong (a bad body is a 4xx, never a 500)."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from fastapi import FastAPI, Request, status
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.metrics import Metrics


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


def _declares_json(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name == b"content-type":
            return b"json" in value.lower()
    return False


class BodyLimit:
    """Reads the body first, up to `max_bytes`: a larger one is a 413 before any route runs; a
    JSON body that is not UTF-8 is a 400 that says where."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

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
        if body and _declares_json(scope):
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
    safe = jsonable_encoder(errors, custom_encoder={bytes: lambda b: b.decode("utf-8", "replace")})
    for error in safe:
        error.pop("input", None)  # may be large, or bytes that are not UTF-8
        error.pop("ctx", None)
    return JSONResponse(
        status_code=status.HTTP_422_UNPROCESSABLE_CONTENT,
        content={"detail": "; ".join(lines), "errors": safe},
    )


def install_limits(app: FastAPI, max_body_bytes: int, metrics: Metrics) -> None:
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    app.add_middleware(RequestMetrics, metrics=metrics)
    app.add_exception_handler(RequestValidationError, validation_error)
