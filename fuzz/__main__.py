"""``python -m fuzz``: a differential fuzzing session, its summary and its mismatches."""

from __future__ import annotations

import argparse
import sys

from fuzz.differential import run_fuzz
from fuzz.generator import FEATURES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__)
    parser.add_argument("-n", "--programs", type=int, default=200, help="programs to generate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--backends", default="ref,cpu",
                        help="comma-separated kiln backends; empty for CPython only")
    parser.add_argument("--size", type=int, help="statements per program (default: varied)")
    parser.add_argument("--depth", type=int, help="nesting depth (default: varied)")
    parser.add_argument("--complexity", type=int, help="feature level, 0-6 (default: all)")
    parser.add_argument("--exclude", default="",
                        help="comma-separated features to leave out (see fuzz.FEATURES)")
    parser.add_argument("--modules", action="store_true",
                        help="add module-level forms of real model output (a stub redefined, "
                        "top-level prints and asserts, a __main__ block, unused pure imports,"
                        " module variables)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    backends = [b for b in args.backends.split(",") if b]
    excluded = {f for f in args.exclude.split(",") if f}
    unknown = excluded - FEATURES
    if unknown:
        parser.error(f"unknown features: {', '.join(sorted(unknown))}")
    features = FEATURES - excluded if excluded else None
    report = run_fuzz(args.programs, args.seed, backends, progress=not args.quiet,
                      size=args.size, depth=args.depth, complexity=args.complexity,
                      features=features, modules=args.modules)
    for mismatch in report.details:
        print(mismatch.describe(), end="\n\n")
    print(report.summary())
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
