"""/v1/compile and /v1/run: one program, answered synchronously (small requests only)."""

from __future__ import annotations

import base64
import math
import time
from typing import Any

from fastapi import APIRouter, HTTPException, Response, status
from starlette.concurrency import run_in_threadpool

from api.deps import CallerDep, SettingsDep
from api.limits import clip
from api.models import (
    CompilePublic,
    CompileRequest,
    Diagnostic,
    FunctionPublic,
    RunPublic,
    RunRequest,
)
from api.routes.jobs import _json, decode_base64
from compiler import CompileError, compile_one
from vm.container import ContainerError, Program
from vm.disasm import disassemble, signature
from vm.values import type_of_value
from vm.verify import VerifyError, verify_bytes

router = APIRouter(prefix="/v1", tags=["programs"])


def _check_source(source: str, settings: SettingsDep) -> None:
    size = len(source.encode("utf-8", "surrogatepass"))
    if size > settings.api.max_source_bytes:
        raise HTTPException(
            status.HTTP_413_CONTENT_TOO_LARGE,
            f"source is {size} bytes: over max_source_bytes={settings.api.max_source_bytes}",
        )
    if "\x00" in source:
        raise HTTPException(
            status.HTTP_422_UNPROCESSABLE_CONTENT, "source contains a NUL character"
        )
    try:
        source.encode("utf-8")
    except UnicodeEncodeError:
        raise HTTPException(
            status.HTTP_422_UNPROCESSABLE_CONTENT, "source is not valid UTF-8 (a lone surrogate)"
        ) from None


def _types(example_args: dict[str, list[Any]]) -> dict[str, list[Any]]:
    types = {}
    for name, values in example_args.items():
        try:
            types[name] = [type_of_value(v) for v in values]
        except ValueError as error:
            raise HTTPException(
                status.HTTP_422_UNPROCESSABLE_CONTENT, f"example_args[{name!r}]: {error}"
            ) from None
    return types


# A source up to this size is compiled on the event loop (a HumanEval-size module takes about
# 0.1 ms in the batched compiler, a few ms in the reference one), a larger one in the thread
# pool: the hand-off to a thread and back costs more than the compile of a small one.
INLINE_SOURCE_CHARS = 4096


@router.post("/compile", response_model=CompilePublic)
async def compile_program(body: CompileRequest, caller: CallerDep) -> Response:
    """Compile a kiln Python module: its diagnostics, or its bytecode (base64 `.kbc`) and
    disassembly. A program kiln rejects is an answer (`ok: false`), not an error."""
    _check_source(body.source, caller.service.settings)
    if len(body.source) <= INLINE_SOURCE_CHARS:
        return _json(_compiled(body))
    return _json(await run_in_threadpool(_compiled, body))


def _compiled(body: CompileRequest) -> CompilePublic:
    try:
        program = compile_one(
            body.source,
            body.filename,
            arg_types=_types(body.example_args) or None,
            passes=body.optimize,
        )
    except CompileError as error:  # deep nesting too (the compiler's limit says where)
        diagnostic = Diagnostic(
            line=error.line,
            col=error.col,
            kind=error.kind,
            message=clip(error.message) or "",
            text=clip(str(error)) or "",
        )
        return CompilePublic(ok=False, diagnostics=[diagnostic])
    return CompilePublic(
        ok=True,
        diagnostics=[],
        bytecode=base64.b64encode(program.to_bytes()).decode(),
        disassembly=disassemble(program),
        functions=[
            FunctionPublic(name=fn.name, signature=signature(program, i), instructions=len(fn.code))
            for i, fn in enumerate(program.functions)
        ],
    )


def _json_value(value: Any) -> Any:
    """The value as JSON, or None where JSON cannot hold it (inf, nan)."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    return value


@router.post("/run", response_model=RunPublic)
def run_program(body: RunRequest, caller: CallerDep, settings: SettingsDep) -> RunPublic:
    """Run one call on the CPU VM: its value, steps and trap. For small calls: fuel is capped by
    [vm] fuel; use a job for anything larger."""
    del caller
    from vm import execute

    unprocessable = status.HTTP_422_UNPROCESSABLE_CONTENT
    fuel_cap = settings.vm.fuel
    if body.fuel is not None and body.fuel > fuel_cap:
        raise HTTPException(
            unprocessable, f"fuel={body.fuel}: over the [vm] fuel of /v1/run, {fuel_cap}"
        )
    try:
        types = [type_of_value(v) for v in body.args]
    except ValueError as error:
        raise HTTPException(unprocessable, f"args: {error}") from None
    program: Program
    if body.source is not None:
        _check_source(body.source, settings)
        try:
            program = compile_one(
                body.source, "<request>", arg_types={body.entry: types}, require=[body.entry]
            )
        except CompileError as error:
            raise HTTPException(unprocessable, f"does not compile: {error}") from None
    else:
        assert body.bytecode is not None
        data = decode_base64(body.bytecode, "bytecode")
        if len(data) > settings.api.max_source_bytes:
            raise HTTPException(
                status.HTTP_413_CONTENT_TOO_LARGE,
                f"bytecode is {len(data)} bytes:"
                f" over max_source_bytes={settings.api.max_source_bytes}",
            )
        try:
            program = verify_bytes(data)
        except (ContainerError, VerifyError) as error:
            raise HTTPException(unprocessable, f"bytecode fails verification: {error}") from None
    try:
        index = program.function_index(body.entry)
    except KeyError as error:
        raise HTTPException(unprocessable, str(error.args[0])) from None
    params, _ = program.signature(index)
    if len(params) != len(body.args):
        raise HTTPException(
            unprocessable, f"{body.entry} takes {len(params)} argument(s), got {len(body.args)}"
        )
    limits = settings.vm.replace(fuel=body.fuel) if body.fuel else settings.vm
    start = time.perf_counter()
    try:
        result = execute(program, index, body.args, backend="cpu", limits=limits)
    except ValueError as error:  # arguments that do not fit the parameter types
        raise HTTPException(unprocessable, f"args: {error}") from None
    elapsed_ms = (time.perf_counter() - start) * 1e3
    value: Any = None
    shown: str | None = None
    if result.trap is None:
        shown = clip(repr(result.value))
        try:
            value = _json_value(result.value)
        except ValueError:
            value = None
    return RunPublic(
        value=value, repr=shown, trap=result.trap, steps=result.steps, elapsed_ms=elapsed_ms
    )
