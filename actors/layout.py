"""The work layout of a verification batch: which (candidate, test) items share a warp.

A backend runs `VerifyBatch.items` in order, lane `i` of warp `w` on item `32 * w + i`. A warp
whose lanes run different programs serialises them (divergence), so the layout puts the lanes
of a warp on one program with different tests, as Langdon's CUDA GP interpreter and EvoGP do:

- candidates are grouped by program (identical sources compiled once share one program), and
  programs are ordered by length in code words, so neighbouring programs run for similar times;
- a candidate's tests are contiguous;
- small pieces are packed so warps stay full without splitting them: a partly filled warp takes
  the largest piece that fits the room left (best fit), looking `window` pieces ahead in length
  order, so a program of 10 items and one of 22 share one warp. Exact packing is a subset-sum
  problem; best fit within a window is the usual heuristic, and a piece is split only when no
  piece within the window fits.

Packing is done twice with the same greedy rule: over programs (pieces of all their items, the
divergence that matters), then over the candidates inside each program (a candidate split over
two warps costs no divergence, only a longer wait for its verdict, so candidates never move to
another program to avoid it).

`items` has no padding (every item is a real (candidate, test) pair), so every warp is full but
the last; what a layout decides is which items share a warp. `measure` reports that: the
occupancy, the distinct programs per warp (the divergence proxy), and the small pieces split
across warps. Everything here is numpy on the host; no device is needed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vm.batch import VerifyBatch

WARP = 32
WINDOW = 64  # how far ahead, in length order, the packer looks for a piece that fits


@dataclass(frozen=True)
class Work:
    """What a layout needs to know of a batch: programs, their lengths, candidates' tests."""

    cand_program: np.ndarray  # int [n_cand]: the program of each candidate
    cand_tests: np.ndarray  # int [n_cand, 2]: its tests are [start, end)
    program_words: np.ndarray  # int [n_programs]: code words of each program

    @classmethod
    def of(cls, batch: VerifyBatch) -> Work:
        words = [sum(len(fn.code) for fn in p.functions) for p in batch.programs]
        return cls(batch.cand_program, batch.cand_tests, np.array(words, dtype=np.int64))


def layout(work: VerifyBatch | Work, warp: int = WARP, window: int = WINDOW) -> np.ndarray:
    """The run order of a batch: int32 [n_items, 2] of (candidate, test), every pair once."""
    if isinstance(work, VerifyBatch):
        work = Work.of(work)
    if warp < 1 or window < 1:
        raise ValueError(f"warp and window must be positive, got {warp} and {window}")
    cand_program = np.asarray(work.cand_program, dtype=np.int64)
    cand_tests = np.asarray(work.cand_tests, dtype=np.int64).reshape(-1, 2)
    sizes = cand_tests[:, 1] - cand_tests[:, 0]
    n_cand = len(cand_program)
    if n_cand == 0:
        return np.zeros((0, 2), dtype=np.int32)
    if (sizes < 0).any():
        raise ValueError("a candidate's test range ends before it starts")

    # Level 1: programs, by length (then index, for determinism).
    program_words = np.asarray(work.program_words, dtype=np.int64)
    programs = np.unique(cand_program)
    program_items = np.bincount(cand_program, weights=sizes, minlength=len(program_words)).astype(
        np.int64
    )
    by_length = programs[np.lexsort((programs, program_words[programs]))]
    packed_programs = by_length[
        _pack(program_items[by_length], np.zeros(len(by_length), dtype=np.int64), warp, window)
    ]

    # Level 2: candidates inside each program, in that program order, packed within the program.
    rank = np.empty(len(program_words), dtype=np.int64)
    rank[packed_programs] = np.arange(len(packed_programs))
    cand_rank = rank[cand_program]
    in_order = np.lexsort((np.arange(n_cand), cand_rank))
    order = in_order[_pack(sizes[in_order], cand_rank[in_order], warp, window)]

    # Expand each candidate, in order, into its tests.
    counts = sizes[order]
    items = np.empty((int(counts.sum()), 2), dtype=np.int32)
    items[:, 0] = np.repeat(order, counts)
    # test = the candidate's first test + the item's position inside the candidate
    items[:, 1] = np.repeat(cand_tests[order, 0] - (np.cumsum(counts) - counts), counts)
    items[:, 1] += np.arange(len(items), dtype=np.int32)
    return items


def _pack(sizes: np.ndarray, groups: np.ndarray, warp: int, window: int) -> np.ndarray:
    """An order of pieces (positions in `sizes`, which come in preferred order) that avoids
    splitting pieces over warps. An empty warp takes the next piece; a partly filled one takes the
    largest piece that fits the room left, among the next piece and the later pieces of its group
    within `window` (best fit); when none fits, the next piece crosses the boundary."""
    same = groups[1:] == groups[:-1]
    if not (sizes[1:][same] != sizes[:-1][same]).any():
        # every group's pieces of one size (a program's candidates share its tests: the common
        # case): the head always fits or no later piece of its group does, so the greedy order
        # is the given one
        return np.arange(len(sizes), dtype=np.int64)
    return _pack_greedy(sizes, groups, warp, window)


def _pack_greedy(sizes: np.ndarray, groups: np.ndarray, warp: int, window: int) -> np.ndarray:
    """`_pack`'s rule, piece by piece."""
    n = len(sizes)
    ahead_min, ahead_max = _ahead(sizes, groups, window)
    size = sizes.tolist()
    group = groups.tolist()
    used = [False] * n
    out: list[int] = []
    fill, head = 0, 0
    while head < n:
        if used[head]:
            head += 1
            continue
        room = warp - fill
        pick = head
        head_fits = size[head] <= room
        # a search can only help when a later piece fits and the head is not already the best
        if fill and ahead_min[head] <= room and not (head_fits and size[head] >= ahead_max[head]):
            best = size[head] if head_fits else 0
            for j in range(head + 1, min(n, head + window)):
                if not used[j] and group[j] == group[head] and best < size[j] <= room:
                    pick, best = j, size[j]
                    if best == room:
                        break
        used[pick] = True
        out.append(pick)
        fill = (fill + size[pick]) % warp
    return np.array(out, dtype=np.int64)


def _ahead(sizes: np.ndarray, groups: np.ndarray, window: int) -> tuple[list[int], list[int]]:
    """For each position, the smallest and largest sizes among the next `window - 1` positions of
    its group: they tell when no search is needed (the common, uniform case)."""
    n = len(sizes)
    low = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    high = np.full(n, -1, dtype=np.int64)
    for d in range(1, min(window, n)):
        same = groups[d:] == groups[:-d]
        low[:-d] = np.where(same, np.minimum(low[:-d], sizes[d:]), low[:-d])
        high[:-d] = np.where(same, np.maximum(high[:-d], sizes[d:]), high[:-d])
    return low.tolist(), high.tolist()


@dataclass(frozen=True)
class LayoutStats:
    """How good a layout is for a SIMT device (see the module docstring)."""

    items: int
    warps: int
    occupancy: float  # items / (warps * warp): lanes with work
    programs_per_warp: float  # mean distinct programs in a warp: 1.0 means no divergence
    max_programs_per_warp: int
    single_program_warps: float  # fraction of warps running one program
    split_small: int  # candidates with at most `warp` tests spread over two warps

    def as_dict(self) -> dict[str, float | int]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def measure(items: np.ndarray, cand_program: np.ndarray, warp: int = WARP) -> LayoutStats:
    """Occupancy, distinct programs per warp and split small candidates of a run order."""
    items = np.asarray(items).reshape(-1, 2)
    n = len(items)
    if n == 0:
        return LayoutStats(0, 0, 0.0, 0.0, 0, 0.0, 0)
    n_warps = (n - 1) // warp + 1
    cand = items[:, 0].astype(np.int64)
    program = np.asarray(cand_program, dtype=np.int64)[cand]
    per_warp = _per_warp(program, n_warps, warp)
    tests_per_cand = np.bincount(cand)
    first, last = _runs(cand)
    if len(first) == np.count_nonzero(tests_per_cand):
        # each candidate's items in one run (as `layout` orders them): the warps it spans are
        # those from its first item's to its last's
        cand_warps = np.zeros(len(tests_per_cand), dtype=np.int64)
        cand_warps[cand[first]] = last // warp - first // warp + 1
    else:
        warp_of = np.arange(n, dtype=np.int64) // warp
        cand_warps = np.bincount(_distinct_pairs(cand, warp_of), minlength=len(tests_per_cand))
    split_small = int(((cand_warps > 1) & (tests_per_cand <= warp)).sum())
    return LayoutStats(
        items=n,
        warps=n_warps,
        occupancy=n / (n_warps * warp),
        programs_per_warp=float(per_warp.mean()),
        max_programs_per_warp=int(per_warp.max()),
        single_program_warps=float((per_warp == 1).mean()),
        split_small=split_small,
    )


def _runs(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The first and last position of each run of equal neighbours in `values`."""
    first = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
    return first, np.r_[first[1:], len(values)] - 1


def _per_warp(program: np.ndarray, n_warps: int, warp: int) -> np.ndarray:
    """The distinct programs in each warp of a run order. Where each program is one run (as
    `layout` orders them), a warp holds as many as the runs that reach into it (counted with a
    difference array); else by sorting the (warp, program) pairs."""
    first, last = _runs(program)
    if len(first) == len(np.unique(program[first])):
        delta = np.bincount(first // warp, minlength=n_warps + 1)
        delta -= np.bincount(last // warp + 1, minlength=n_warps + 1)
        return np.cumsum(delta)[:n_warps]
    warp_of = np.arange(len(program), dtype=np.int64) // warp
    return np.bincount(_distinct_pairs(warp_of, program), minlength=n_warps)


def _distinct_pairs(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The `a` of every distinct (a, b) pair, once per pair. Runs of equal pairs are collapsed
    first, so the sort only sees about one entry per run (a laid-out batch has few)."""
    key = a * (int(b.max()) + 1) + b
    runs = key[np.r_[True, key[1:] != key[:-1]]]
    pairs: np.ndarray = np.unique(runs) // (int(b.max()) + 1)
    return pairs
