"""actors.layout: every item once, candidates contiguous, lanes of a warp on one program."""

from __future__ import annotations

import numpy as np
import pytest

from actors.layout import WARP, Work, layout, measure


def work(sizes: list[int], programs: list[int], words: list[int]) -> Work:
    size = np.array(sizes, dtype=np.int64)
    start = np.cumsum(size) - size
    return Work(
        np.array(programs, dtype=np.int64),
        np.stack([start, start + size], axis=1),
        np.array(words, dtype=np.int64),
    )


def check_complete(w: Work, items: np.ndarray) -> None:
    expected = {(c, t) for c, (s, e) in enumerate(w.cand_tests) for t in range(s, e)}
    got = [tuple(map(int, pair)) for pair in items]
    assert len(got) == len(expected) and set(got) == expected


def check_contiguous(items: np.ndarray) -> None:
    """A candidate's tests form one run of the order."""
    cands = items[:, 0]
    starts = cands[np.r_[True, cands[1:] != cands[:-1]]]
    assert len(starts) == len(np.unique(cands))


def warps_of(items: np.ndarray, w: Work) -> list[list[int]]:
    programs = w.cand_program[items[:, 0]]
    return [sorted(set(programs[i : i + WARP].tolist())) for i in range(0, len(items), WARP)]


@pytest.mark.parametrize("seed", range(5))
def test_every_item_exactly_once_and_candidates_contiguous(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 400))
    w = work(
        rng.integers(0, 70, n).tolist(),
        rng.integers(0, 30, n).tolist(),
        rng.integers(1, 200, 30).tolist(),
    )
    items = layout(w)
    assert items.dtype == np.int32 and items.shape[1] == 2
    check_complete(w, items)
    check_contiguous(items)


def test_candidates_of_a_program_are_grouped_and_programs_ordered_by_length() -> None:
    w = work([3, 3, 3, 3], [0, 1, 0, 1], [50, 10])
    items = layout(w)
    programs = w.cand_program[items[:, 0]].tolist()
    assert programs == [1] * 6 + [0] * 6  # program 1 is shorter


def test_a_10_and_a_22_share_one_warp() -> None:
    # in length order 10, 30, 22, 2: the 22 fills the warp after the 10, the 2 after the 30
    w = work([10, 30, 22, 2], [0, 1, 2, 3], [5, 6, 7, 8])
    items = layout(w)
    assert warps_of(items, w) == [[0, 2], [1, 3]]
    stats = measure(items, w.cand_program)
    assert stats.split_small == 0 and stats.occupancy == 1.0 and stats.warps == 2


def test_small_pieces_that_can_pack_are_never_split() -> None:
    # sizes that tile warps exactly in some order, given in an order that does not
    sizes = [20, 20, 12, 12, 8, 24, 16, 16] * 8
    rng = np.random.default_rng(1)
    w = work(sizes, list(range(len(sizes))), rng.integers(1, 5, len(sizes)).tolist())
    stats = measure(layout(w), w.cand_program)
    assert stats.split_small == 0
    assert stats.occupancy == 1.0


def test_uniform_batch_runs_one_program_per_warp() -> None:
    w = work([10] * 320, [0] * 320, [40])
    items = layout(w)
    stats = measure(items, w.cand_program)
    assert stats.programs_per_warp == 1.0 and stats.max_programs_per_warp == 1
    assert stats.single_program_warps == 1.0 and stats.warps == 100


def test_many_programs_share_few_warps_each() -> None:
    # 40 programs x 15 candidates x 10 tests: a program spans 5 warps, so only the warps at
    # program boundaries run two programs
    n_programs, per = 40, 15
    programs = [p for p in range(n_programs) for _ in range(per)]
    w = work([10] * len(programs), programs, list(range(100, 100 + n_programs)))
    stats = measure(layout(w), w.cand_program)
    assert stats.max_programs_per_warp == 2
    assert stats.warps == 40 * 150 // 32 + 1
    assert stats.programs_per_warp < 1.25


def test_layout_of_a_batch_and_empty_input() -> None:
    from compiler import compile_source
    from vm.batch import BatchBuilder, TestSpec

    builder = BatchBuilder()
    short = compile_source("def f(x: int) -> int:\n    return x\n")
    long = compile_source("def g(x: int) -> int:\n    y = x * 2\n    y = y + 1\n    return y - x\n")
    for program, name, n in ((long, "g", 5), (short, "f", 7), (long, "g", 3)):
        fn = program.function_index(name)
        span = builder.add_tests(program, fn, [TestSpec((i,), i) for i in range(n)])
        builder.add_candidate(program, fn, span)
    batch = builder.build()
    items = layout(batch)
    assert items[:7, 0].tolist() == [1] * 7  # the short program first
    batch.items = items
    batch.validate()
    assert layout(work([], [], [])).shape == (0, 2)
    assert measure(np.zeros((0, 2), dtype=np.int32), np.zeros(0)).items == 0


def test_zero_test_candidates_and_bad_input() -> None:
    w = work([0, 5, 0], [0, 0, 1], [3, 4])
    check_complete(w, layout(w))
    with pytest.raises(ValueError):
        layout(w, warp=0)


@pytest.mark.parametrize("seed", range(4))
def test_pieces_of_one_size_keep_their_order_as_the_greedy_rule_would(seed: int) -> None:
    """_pack's shortcut for groups whose pieces have one size (no search, the given order) is
    what its greedy rule gives, for sizes below, at and above a warp, and any groups and
    window."""
    from actors.layout import _pack, _pack_greedy

    rng = np.random.default_rng(seed)
    for size in (1, 3, 10, 32, 33, 70):
        n = int(rng.integers(1, 400))
        groups = np.sort(rng.integers(0, 6, n))
        window = int(rng.integers(1, 80))
        for sizes in (
            np.full(n, size, dtype=np.int64),  # one size for all
            rng.integers(0, 2 * size + 1, 6)[groups],  # one size per group
        ):
            assert _pack(sizes, groups, WARP, window).tolist() == list(range(n))
            assert _pack_greedy(sizes, groups, WARP, window).tolist() == list(range(n))
        mixed = rng.integers(1, 40, n)  # sizes that differ inside a group: the greedy rule
        assert _pack(mixed, groups, WARP, window).tolist() == (
            _pack_greedy(mixed, groups, WARP, window).tolist()
        )


@pytest.mark.parametrize("seed", range(4))
def test_split_candidates_counted_alike_in_any_order(seed: int) -> None:
    """measure's count of small candidates split over warps, by brute force, for a layout (each
    candidate one run: the shortcut) and for the same items shuffled (the general path)."""
    rng = np.random.default_rng(seed)
    n = 300
    sizes = rng.integers(0, 40, n).tolist()
    w = work(sizes, rng.integers(0, 12, n).tolist(), rng.integers(1, 50, 12).tolist())
    for items in (layout(w), rng.permutation(layout(w))):
        warps: dict[int, set[int]] = {}
        for k, (c, _) in enumerate(items.tolist()):
            warps.setdefault(c, set()).add(k // WARP)
        want = sum(1 for c, ws in warps.items() if len(ws) > 1 and sizes[c] <= WARP)
        assert measure(items, w.cand_program).split_small == want


@pytest.mark.parametrize("seed", range(4))
def test_programs_per_warp_counted_alike_in_any_order(seed: int) -> None:
    """measure's distinct programs per warp, by brute force, for a layout (each program one run:
    the difference-array shortcut) and shuffled (the general path)."""
    rng = np.random.default_rng(seed)
    n = 200
    w = work(rng.integers(0, 50, n).tolist(), rng.integers(0, 9, n).tolist(), [5] * 9)
    for items in (layout(w), rng.permutation(layout(w))):
        per_warp = [len(ps) for ps in warps_of(items, w)]
        stats = measure(items, w.cand_program)
        assert stats.warps == len(per_warp)
        assert stats.programs_per_warp == pytest.approx(sum(per_warp) / len(per_warp))
        assert stats.max_programs_per_warp == max(per_warp)
        assert stats.single_program_warps == pytest.approx(per_warp.count(1) / len(per_warp))
