"""Batched, ISA-constrained sampling: k candidate programs per source, every one well-formed.

`sample_programs(checkpoint, sources, k)` encodes each source once, repeats its memory k times,
and decodes all n*k sequences together with the model's key/value cache, on the GPU when there
is one. Before every token the grammar (`neural.grammar.TargetBuilder`, built from `vm.isa`)
masks out what may not come next, so every finished sample is a `Program` that `vm.verify`
accepts (operand kinds, stack depth never negative and consistent, jump targets in range, loop
steps followed by their JUMP). Temperature and nucleus (top-p) sampling; temperature 0 is
greedy. A sample that reaches the length limit before `<eos>` is reported as unfinished (the
grammar always leaves a way to finish, so this only happens when `max_len` is too small).

On a GPU, `code_words_tensor` packs the decoded instruction words into one device tensor and
`to_cupy` hands it to CuPy through DLPack, without a copy through host memory.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from neural.grammar import GrammarError, TargetBuilder
from neural.tokens import BOS, PAD, TARGET_VOCAB, tokenize_source
from vm.container import Program

if TYPE_CHECKING:
    import torch

    from neural.train import Checkpoint


@dataclass
class Sample:
    tokens: list[int]
    program: Program | None
    error: str = ""

    @property
    def text(self) -> str:
        return " ".join(TARGET_VOCAB[t] for t in self.tokens)


@dataclass
class Samples:
    """The k samples of one source."""

    source: str
    samples: list[Sample] = field(default_factory=list)
    error: str = ""  # the source could not be tokenized


@dataclass
class DecodeStats:
    sequences: int = 0
    tokens: int = 0
    seconds: float = 0.0
    model_seconds: float = 0.0
    grammar_seconds: float = 0.0


def _filter_top_p(probs: torch.Tensor, top_p: float) -> torch.Tensor:
    import torch

    if top_p >= 1.0:
        return probs
    sorted_p, order = probs.sort(dim=-1, descending=True)  # (B, V)
    keep = sorted_p.cumsum(-1) - sorted_p < top_p  # always keeps the most likely token
    sorted_p = sorted_p * keep
    return torch.zeros_like(probs).scatter(-1, order, sorted_p)


def sample_programs(
    ckpt: Checkpoint,
    sources: Sequence[str],
    k: int,
    *,
    temperature: float = 1.0,
    top_p: float = 0.95,
    seed: int = 0,
    max_len: int | None = None,
    device: str | None = None,
    stats: DecodeStats | None = None,
) -> list[Samples]:
    """k constrained samples for each source (module docstring)."""
    import torch

    started = time.perf_counter()
    model = ckpt.model
    device = device or str(next(model.parameters()).device)
    max_len = max_len or model.cfg.max_tgt
    results = [Samples(s) for s in sources]
    rows: list[int] = []  # which source each encoded row is
    src_tokens: list[list[str]] = []
    names: list[list[str]] = []
    for i, source in enumerate(sources):
        try:
            toks = tokenize_source(source)
        except SyntaxError as e:
            results[i].error = str(e)
            continue
        if len(toks.tokens) > model.cfg.max_src:
            results[
                i
            ].error = (
                f"source has {len(toks.tokens)} tokens, the model reads at most {model.cfg.max_src}"
            )
            continue
        rows.append(i)
        src_tokens.append(toks.tokens)
        names.append(toks.names)
    if not rows:
        return results
    from neural.train import encode_sources

    gen = torch.Generator(device=device).manual_seed(seed)
    with torch.no_grad():
        src, src_pad = encode_sources(ckpt.src_vocab, src_tokens, device)
        memory = model.encode(src, src_pad)  # (R, S, D)
        memory = memory.repeat_interleave(k, dim=0)  # (R*k, S, D)
        src_pad = src_pad.repeat_interleave(k, dim=0)  # (R*k, S)
        B = memory.shape[0]
        builders = [TargetBuilder(names[r // k], max_tokens=max_len) for r in range(B)]
        for b in builders:
            b.push(BOS)
        tokens = torch.full((B,), BOS, dtype=torch.long, device=device)
        history: list[list[int]] = [[BOS] for _ in range(B)]
        cache = model.new_cache()
        active = np.ones(B, dtype=bool)
        grammar_s = model_s = 0.0
        for position in range(max_len - 1):
            t0 = time.perf_counter()
            logits = model.decode_step(tokens, position, memory, src_pad, cache)  # (B, V)
            t1 = time.perf_counter()
            masks = np.zeros((B, len(TARGET_VOCAB)), dtype=bool)
            for r in np.flatnonzero(active):
                masks[r] = builders[r].allowed()
            masks[~active, PAD] = True
            # a model trained before opcodes were appended has fewer outputs: it never emits them
            masks = masks[:, : logits.shape[-1]]
            t_mask = time.perf_counter()
            dead = [int(r) for r in np.flatnonzero(active) if not masks[r].any()]
            if dead:  # a grammar bug, never a reason to sample from nothing (NaN probabilities)
                tail = [TARGET_VOCAB[t] for t in history[dead[0]][-6:]]
                raise RuntimeError(f"constrained decoding reached a dead end after {tail}")
            allowed = torch.from_numpy(masks).to(device)
            logits = logits.float().masked_fill(~allowed, float("-inf"))
            if temperature <= 0:
                choice = logits.argmax(-1)
            else:
                probs = _filter_top_p(torch.softmax(logits / temperature, dim=-1), top_p)
                choice = torch.multinomial(probs, 1, generator=gen)[:, 0]  # (B,)
            chosen = choice.tolist()
            t2 = time.perf_counter()
            for r in np.flatnonzero(active):
                if builders[r].length + builders[r].reserve() >= max_len - 1:
                    chosen[r] = builders[r].finishing_token()  # keep within the length budget
                builders[r].push(chosen[r])
                history[r].append(chosen[r])
                if builders[r].done:
                    active[r] = False
            grammar_s += (t_mask - t1) + (time.perf_counter() - t2)
            model_s += (t1 - t0) + (t2 - t_mask)
            tokens = torch.tensor(chosen, dtype=torch.long, device=device)
            if not active.any():
                break
    for row, builder in enumerate(builders):
        source_index = rows[row // k]
        if builder.done:
            try:
                program = builder.program(f"<neural sample {row % k}>")
                results[source_index].samples.append(Sample(history[row], program))
            except GrammarError as e:  # pragma: no cover - the grammar guarantees this
                results[source_index].samples.append(Sample(history[row], None, str(e)))
        else:
            results[source_index].samples.append(
                Sample(history[row], None, f"unfinished after {max_len} tokens")
            )
    if stats is not None:
        stats.sequences += B
        stats.tokens += sum(len(h) for h in history)
        stats.seconds += time.perf_counter() - started
        stats.model_seconds += model_s
        stats.grammar_seconds += grammar_s
    return results


def code_words_tensor(programs: Sequence[Program], device: str) -> torch.Tensor:
    """All functions' code words of `programs`, back to back, as one int64 tensor on `device`."""
    import torch

    words = [w for p in programs for fn in p.functions for w in fn.code]
    return torch.tensor(words, dtype=torch.int64, device=device)


def to_cupy(tensor: torch.Tensor) -> Any:
    """A CuPy view of a CUDA tensor through DLPack (no copy, no trip through host memory)."""
    import cupy

    return cupy.from_dlpack(tensor)
