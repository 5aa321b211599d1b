"""`kiln serve` (the REST service with its embedded farm) and `kiln submit` (its client).

    kiln serve [--host 127.0.0.1] [--port 8000] [--workers 1] [--executor farm|thread]
    kiln submit candidates.jsonl --tests tests.json [-o results.jsonl] [--url ...] [--token ...]
    kiln submit candidates.jsonl --problem HumanEval/0
    kiln submit candidates.jsonl --problem Mbpp/2 --problems mbpp

A candidates file has one JSON object per line: {"source": "...", "entry": "f"} or
{"bytecode": "<base64 .kbc>", "entry": "f"}. A tests file is a JSON list of
{"args": [...], "expected": ...}. Results are written as NDJSON, one verdict per line.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from pathlib import Path
from typing import Any

DEFAULT_URL = "http://127.0.0.1:8000"
TOKEN_VARIABLE = "KILN_API_TOKEN"  # the client's token (the server reads KILN_API_TOKENS)


def register(sub: Any) -> None:
    """Add this package's subcommands to the `kiln` parser's subparsers `sub`."""
    p = sub.add_parser("serve", help="the REST service (OpenAPI at /docs) with an embedded farm")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--workers", type=int, default=1, help="API processes (they share the store)")
    p.add_argument(
        "--executor",
        choices=["farm", "thread"],
        default=None,
        help="farm: the Ray farm (default); thread: a Pipeline in a thread (no Ray)",
    )
    p.add_argument("--farm-workers", type=int, default=None, help="farm workers to start")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("submit", help="submit a file of candidates to a kiln service")
    p.add_argument("candidates", help="NDJSON: one {source|bytecode, entry} per line")
    tests = p.add_mutually_exclusive_group(required=True)
    tests.add_argument("--tests", help="a JSON list of {args, expected}")
    tests.add_argument("--problem", help='a dataset problem id, e.g. "HumanEval/0"')
    p.add_argument(
        "--problems",
        default=None,
        help="the built-in dataset of --problem (default: humaneval; `kiln datasets`)",
    )
    p.add_argument("-o", "--output", help="results NDJSON (default: <candidates>.results.jsonl)")
    p.add_argument("--url", default=os.environ.get("KILN_API_URL", DEFAULT_URL))
    p.add_argument("--token", default=None, help=f"bearer token (default: ${TOKEN_VARIABLE})")
    p.add_argument("--fuel", type=int, default=None, help="instructions one test may run")
    p.add_argument(
        "--compile-path",
        choices=("deterministic", "neural", "hybrid"),
        default="deterministic",
        help="how sources become bytecode on the server (docs/API.md)",
    )
    p.add_argument("--idempotency-key", default=None, help="resubmitting with it returns the job")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_submit)


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    settings = args.settings  # read by the `kiln` command: a bad one failed there, not in a worker
    if not settings.api.tokens:
        token = secrets.token_urlsafe(24)
        os.environ["KILN_API_TOKENS"] = token
        print(f"kiln serve: no [api] tokens or KILN_API_TOKENS; the token of this run: {token}")
    if args.executor:
        os.environ["KILN_API_EXECUTOR"] = args.executor
    if args.farm_workers is not None:
        os.environ["KILN_API_FARM_WORKERS"] = str(args.farm_workers)
    print(f"kiln serve: http://{args.host}:{args.port}/docs, store {settings.api.database}")
    uvicorn.run(
        "api.main:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level="info",
    )
    return 0


def _read_candidates(path: Path) -> list[dict[str, Any]]:
    from evaluation.problems import json_objects  # a DataError (ValueError) names file and line

    candidates = [candidate for _, candidate in json_objects(path)]
    if not candidates:
        raise ValueError(f"{path}: no candidates")
    return candidates


def cmd_submit(args: argparse.Namespace) -> int:
    import httpx
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    token = args.token or os.environ.get(TOKEN_VARIABLE)
    if not token:
        raise ValueError(f"no token: pass --token or set {TOKEN_VARIABLE}")
    path = Path(args.candidates)
    body: dict[str, Any] = {"candidates": _read_candidates(path)}
    if args.tests:
        body["tests"] = json.loads(Path(args.tests).read_text(encoding="utf-8"))
    else:
        body["problem"] = args.problem
        if args.problems is not None:
            body["problems"] = args.problems
    options: dict[str, Any] = {}
    if args.fuel is not None:
        options["fuel"] = args.fuel
    if args.compile_path != "deterministic":
        options["compile_path"] = args.compile_path
    if options:
        body["options"] = options
    headers = {"Authorization": f"Bearer {token}"}
    if args.idempotency_key:
        headers["Idempotency-Key"] = args.idempotency_key
    output = Path(args.output) if args.output else path.with_suffix(".results.jsonl")
    counts: dict[str, int] = {}
    timeout = httpx.Timeout(30, read=None)  # a results stream may wait long between verdicts
    with httpx.Client(base_url=args.url, headers=headers, timeout=timeout) as client:
        response = client.post("/v1/jobs", json=body)
        if response.status_code != 202:
            raise ValueError(f"{args.url} answered {response.status_code}: {_detail(response)}")
        job = response.json()
        total = job["progress"]["total"]
        with (
            output.open("w", encoding="utf-8") as out,
            Progress(
                "[progress.description]{task.description}",
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                disable=args.quiet,
                transient=False,
            ) as progress,
        ):
            task = progress.add_task(f"job {job['id'][:8]}", total=total)
            cursor = ""
            while True:  # a stream that ends early (a restart of the service) resumes at its cursor
                params: dict[str, str | int] = {"cursor": cursor, "limit": 10_000}
                with client.stream("GET", f"/v1/jobs/{job['id']}/results", params=params) as stream:
                    if stream.status_code != 200:
                        stream.read()
                        raise ValueError(f"results: {stream.status_code}: {_detail(stream)}")
                    for line in stream.iter_lines():
                        if not line:
                            continue
                        result = json.loads(line)
                        cursor = result["cursor"]
                        counts[result["verdict"]] = counts.get(result["verdict"], 0) + 1
                        out.write(line + "\n")
                        progress.advance(task)
                state = client.get(f"/v1/jobs/{job['id']}").json()
                if sum(counts.values()) >= total or state["status"] in ("cancelled", "failed"):
                    break
    summary = ", ".join(f"{verdict}: {n}" for verdict, n in sorted(counts.items()))
    print(f"job {job['id']}: {state['status']}; {summary}; results in {output}")
    if state.get("error"):
        print(f"kiln: error: {state['error']}", file=sys.stderr)
    return 0 if state["status"] == "done" else 1


def _detail(response: Any) -> str:
    try:
        return str(response.json().get("detail"))
    except ValueError:
        return response.text[:200]
