"""`kiln` subcommands of this package (registered by `api.cli`).

    kiln neural train --config configs/neural-small.toml
    kiln neural compile f.py -k 128 [--tests calls.txt] [--call "f(3)"] [--entry f] [-o f.kbc]

A tests file has one call per line, `f(3)` (the expected outcome is CPython's) or
`f(3) == 6` (the expected value given); `#` starts a comment.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path
from typing import Any

from neural import DEFAULT_CHECKPOINT


def register(sub: Any) -> None:
    """Add this package's subcommands to the `kiln` parser's subparsers `sub`."""
    p = sub.add_parser("neural", help="the neural compiler: train it, compile with it")
    nsub = p.add_subparsers(dest="neural_command", required=True)

    t = nsub.add_parser("train", help="train a model from a config (seeded, reproducible)")
    t.add_argument("--config", required=True, help="a TOML config, e.g. configs/neural-small.toml")
    t.add_argument("--quiet", action="store_true", help="no progress bar")
    t.add_argument(
        "--max-seconds", type=float, help="stop training after this long (the config's max_seconds)"
    )
    t.add_argument("--data-processes", type=int, help="processes making the data (0: one per core)")
    t.add_argument("--checkpoint", help="where the checkpoint goes (the config's checkpoint)")
    t.add_argument("--summary", help="also write the final metrics here (JSON)")
    t.set_defaults(func=cmd_train)

    c = nsub.add_parser(
        "compile", help="sample k candidates, verify them, keep the fastest verified"
    )
    c.add_argument("file", help="a kiln Python source")
    c.add_argument("-k", type=int, default=128, help="candidates to sample (default 128)")
    c.add_argument("--tests", help="a file of calls, one per line: f(3) or f(3) == 6")
    c.add_argument(
        "--call", action="append", default=[], help='a test call, e.g. "f(3)" (repeatable)'
    )
    c.add_argument(
        "--entry", help="the function to compile for (default: the tests' function, else the last)"
    )
    c.add_argument("--checkpoint", default=DEFAULT_CHECKPOINT)
    c.add_argument("--temperature", type=float, default=1.0)
    c.add_argument("--top-p", dest="top_p", type=float, default=0.95)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument(
        "--random",
        dest="n_random",
        type=int,
        default=16,
        help="random inputs of the differential test",
    )
    c.add_argument("--device", default="auto", help="cpu, cuda or auto")
    c.add_argument("-o", "--output", help="write the verified bytecode here (.kbc)")
    c.set_defaults(func=cmd_compile)


def cmd_train(args: argparse.Namespace) -> int:
    import dataclasses
    import json
    from pathlib import Path

    from neural.train import load_checkpoint, load_config, train

    config = load_config(args.config)
    overrides = {
        name: value
        for name, value in (
            ("max_seconds", args.max_seconds),
            ("data_processes", args.data_processes),
            ("checkpoint", args.checkpoint),
        )
        if value is not None
    }
    if overrides:
        config = dataclasses.replace(config, train=dataclasses.replace(config.train, **overrides))
    out = train(config, progress=not args.quiet)
    if args.summary:
        summary = {"config": args.config, "checkpoint": str(out), **load_checkpoint(out).metrics}
        Path(args.summary).parent.mkdir(parents=True, exist_ok=True)
        Path(args.summary).write_text(json.dumps(summary, indent=1) + "\n")
    return 0


def parse_tests(
    lines: list[str], source: str
) -> tuple[str | None, list[tuple[tuple[Any, ...], tuple[str, str] | None]]]:
    """(entry, [(args, expected outcome or None for CPython's)]) from test lines."""
    from compiler import parse_call

    entry: str | None = None
    out: list[tuple[tuple[Any, ...], tuple[str, str] | None]] = []
    for n, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        call, _, expected_text = text.partition("==")
        name, values = parse_call(call)
        if entry is not None and name != entry:
            raise ValueError(f"test line {n}: calls {name}, earlier lines call {entry}")
        entry = name
        expected = None
        if expected_text.strip():
            try:
                expected = ("value", repr(ast.literal_eval(expected_text.strip())))
            except ValueError:
                raise ValueError(
                    f"test line {n}: the expected value must be a Python literal"
                ) from None
        out.append((tuple(values), expected))
    return entry, out


def cmd_compile(args: argparse.Namespace) -> int:
    import torch

    from neural.train import load_checkpoint, pick_device
    from neural.verify import cpython_outcome, neural_compile

    torch.set_num_threads(1)
    path = Path(args.file)
    source = path.read_text(encoding="utf-8")
    lines = list(args.call)
    if args.tests:
        lines += Path(args.tests).read_text().splitlines()
    entry, raw = parse_tests(lines, source)
    entry = (
        args.entry
        or entry
        or [n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)][-1]
    )
    tests = [(a, e if e is not None else cpython_outcome(source, entry, a)) for a, e in raw] or None
    ckpt = load_checkpoint(args.checkpoint, pick_device(args.device))
    result = neural_compile(
        ckpt,
        source,
        entry,
        tests,
        args.k,
        n_random=args.n_random,
        seed=args.seed,
        temperature=args.temperature,
        top_p=args.top_p,
    )
    print(result.summary())
    if result.best is not None and args.output:
        Path(args.output).write_bytes(result.best.to_bytes())
        print(f"wrote {args.output}")
    return 0 if result.best is not None else 1
