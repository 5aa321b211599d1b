"""Training data: programs from kiln's random program generator, compiled by the deterministic
compiler, as (source tokens, target tokens) pairs.

`make_examples(spec, split)` is a pure function of its arguments: program `i` of a split is
`fuzz.generator.generate(seed, complexity=level, ...)` with `seed` derived from the spec's seed,
the split and `i`, and its level cycling through `spec.levels`. Splits never share a seed, so
the validation and held-out test programs are never trained on. Programs the grammar cannot
spell or that exceed the length limits are skipped (and counted).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from compiler import CompileError, compile_source
from fuzz.generator import LEVELS, generate
from neural.grammar import GrammarError, parse_tokens
from neural.tokens import NotRepresentable, program_to_tokens, tokenize_source

SPLIT_OFFSETS = {"train": 0, "val": 1, "test": 2}
SEED_STRIDE = 1_000_003

# Complexity buckets of the paper's equation 6, over the generator's levels.
BUCKETS: dict[str, tuple[int, ...]] = {"simple": (0, 1), "medium": (2, 3), "complex": (4, 5)}


def bucket_of(level: int) -> str:
    for name, levels in BUCKETS.items():
        if level in levels:
            return name
    return "complex"


@dataclass(frozen=True)
class DataSpec:
    seed: int = 0
    n_train: int = 2000
    n_val: int = 200
    levels: tuple[int, ...] = tuple(range(len(LEVELS)))
    size: int = 6  # generator `size` (about the statements of the module)
    depth: int = 2
    n_inputs: int = 5
    max_src: int = 512
    max_tgt: int = 768


@dataclass
class Example:
    source: str
    entry: str
    param_types: list[str]
    inputs: list[tuple[object, ...]]
    level: int
    seed: int
    src: list[str]
    names: list[str]
    tgt: list[str]


@dataclass
class Dataset:
    examples: list[Example]
    skipped: dict[str, int] = field(default_factory=dict)


def program_seed(spec: DataSpec, split: str, i: int) -> int:
    return (spec.seed * 3 + SPLIT_OFFSETS[split]) * SEED_STRIDE + i


def make_example(spec: DataSpec, seed: int, level: int) -> Example | str:
    """One example, or the reason it was skipped."""
    g = generate(seed, size=spec.size, depth=spec.depth, complexity=level, n_inputs=spec.n_inputs)
    try:
        program = compile_source(g.source, "<generated>")
    except CompileError:
        return "compile error"
    source_tokens = tokenize_source(g.source)
    try:
        tgt = program_to_tokens(program, source_tokens.names)
    except NotRepresentable:
        return "not representable"
    if len(source_tokens.tokens) > spec.max_src or len(tgt) > spec.max_tgt:
        return "too long"
    try:  # within the limits the sampler keeps, so the model never learns what it cannot emit
        parse_tokens(tgt, source_tokens.names, max_tokens=spec.max_tgt)
    except GrammarError:
        return "outside the sampler's limits"
    return Example(
        g.source,
        g.entry,
        list(g.param_types),
        list(g.inputs),
        g.complexity,
        seed,
        source_tokens.tokens,
        source_tokens.names,
        tgt,
    )


def _make_range(spec: DataSpec, split: str, start: int, stop: int) -> list[Example | str]:
    """Programs start..stop-1 of `split`, each an example or why it was skipped."""
    return [
        make_example(spec, program_seed(spec, split, i), spec.levels[i % len(spec.levels)])
        for i in range(start, stop)
    ]


CHUNK = 256  # programs a worker makes at a time


def make_examples(spec: DataSpec, split: str, n: int | None = None, processes: int = 1) -> Dataset:
    """The first `n` (default: the split's count) programs of `split` that make examples, in
    program order. `processes` > 1 makes them in that many worker processes (0: one per core),
    CHUNK programs at a time, taken in order: the same dataset as one process makes."""
    count = {"train": spec.n_train, "val": spec.n_val}.get(split, spec.n_val) if n is None else n
    data = Dataset([])
    processes = processes or os.cpu_count() or 1
    pool = None
    if processes > 1 and count > CHUNK:
        import multiprocessing

        pool = multiprocessing.get_context("forkserver").Pool(processes)
    try:
        start = 0
        while len(data.examples) < count:
            if pool is None:
                chunks = [_make_range(spec, split, start, start + 1)]
                start += 1
            else:
                bounds = [(start + k * CHUNK, start + (k + 1) * CHUNK) for k in range(processes)]
                chunks = pool.starmap(_make_range, [(spec, split, a, b) for a, b in bounds])
                start = bounds[-1][1]
            for made in (m for chunk in chunks for m in chunk):
                if len(data.examples) >= count:
                    break
                if isinstance(made, str):
                    data.skipped[made] = data.skipped.get(made, 0) + 1
                    if sum(data.skipped.values()) > 10 * count + 100:
                        raise RuntimeError(
                            f"too many programs skipped making {split}: {data.skipped}"
                        )
                else:
                    data.examples.append(made)
    finally:
        if pool is not None:
            pool.terminate()
    return data


def source_key(tokens: Sequence[str]) -> str:
    """A short hash of a program's normalised source tokens: programs that differ only in names
    share it. Checkpoints keep the keys of their training programs."""
    return hashlib.sha1(" ".join(tokens).encode()).hexdigest()[:16]


def held_out(
    spec: DataSpec,
    per_level: int,
    levels: Sequence[int] | None = None,
    exclude: Collection[str] = frozenset(),
) -> tuple[list[Example], int]:
    """The fixed held-out set of the paper measurements: `per_level` programs of each level,
    none of whose normalised source is in `exclude` (the training programs' `source_key`s);
    and how many were passed over for being there."""
    out: list[Example] = []
    seen_in_training = 0
    for level in levels if levels is not None else spec.levels:
        i = 0
        got = 0
        while got < per_level:
            made = make_example(
                spec, program_seed(spec, "test", level * SEED_STRIDE // 7 + i), level
            )
            i += 1
            if isinstance(made, Example):
                if source_key(made.src) in exclude:
                    seen_in_training += 1
                    continue
                out.append(made)
                got += 1
    return out, seen_in_training
