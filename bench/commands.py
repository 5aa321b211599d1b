"""`kiln` subcommands of this package (registered by `api.cli`); each imports its module only
when it runs, so building the parser stays cheap.

    kiln report paper [--checkpoint neural/checkpoints/small.pt] [--out docs/PAPER.md] [--quick]
"""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    """`kiln report paper` (registered by `api.cli`)."""
    from neural import DEFAULT_CHECKPOINT

    r = sub.add_parser("report", help="measured reports")
    rsub = r.add_subparsers(dest="report_command", required=True)
    pp = rsub.add_parser(
        "paper", help="measure the paper's claims (sections 4-6) and write docs/PAPER.md"
    )
    pp.add_argument("--checkpoint", default=DEFAULT_CHECKPOINT)
    pp.add_argument("--out", default="docs/PAPER.md")
    pp.add_argument(
        "--per-level",
        dest="per_level",
        type=int,
        default=20,
        help="held-out programs per complexity level",
    )
    pp.add_argument("-k", type=int, default=64, help="samples per program")
    pp.add_argument(
        "--quick", action="store_true", help="a small smoke run (few programs, small k)"
    )
    pp.add_argument("--device", default="auto")
    pp.add_argument("--temperature", type=float, default=1.0)
    pp.add_argument("--top-p", dest="top_p", type=float, default=0.95)
    pp.set_defaults(func=cmd_report_paper)


def cmd_report_paper(args: argparse.Namespace) -> int:
    from bench.paper import write_report

    write_report(
        args.checkpoint,
        args.out,
        per_level=args.per_level,
        k=args.k,
        quick=args.quick,
        device=args.device,
        temperature=args.temperature,
        top_p=args.top_p,
    )
    return 0
