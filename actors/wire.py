"""`WireBatch`: one batch of candidates and their tests in the form the farm sends to a worker.

    from actors.wire import WireBatch

    wire = WireBatch.pack(candidates, test_lists)   # the scheduler, per batch
    ref = worker.run.remote(wire, None)             # one pickled object: a few arrays
    cands, tests = wire.unpack()                    # the worker: Candidates, a list per candidate

Why a form of its own: Ray sends an actor call's arguments with msgpack, Python lists natively,
so a list of per-candidate test lists arrived as one new list per candidate even where the
driver shared one list object between every candidate of a problem. The Pipeline prepares each
distinct test list once (keyed by the list's identity): in the actor it marshalled the same
tests and typed the same entry once per candidate, which made a batch's Pipeline.run take 1.6x
as long as the same batch's in the driver's process (bench/farm.py, README "Farm").

The batch is columnar: the candidates' code end to end in one uint8 array with int64 offsets
(sources as UTF-8, lone surrogates kept; a flag array says which were `.kbc` bytes), and every
other field as an int32 index into the batch's distinct values (entries, problems, argument
types, test lists: each distinct test list travels once, so the worker finds it shared as the
driver did). It is a plain object, so Ray pickles it whole (protocol 5: the arrays travel as
out-of-band buffers, zero-copy through the object store for a large batch); one object per batch
instead of one per candidate. `unpack` gives back equal Candidates and, per candidate, its test
list: candidates that shared a list object share one again.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from core.jobs import Candidate, CandidateResult, TestSpec


def _index(values: Sequence[Any], key: Any = None) -> tuple[np.ndarray, list[Any]]:
    """(int32 index of each value into the distinct values, the distinct values in order of
    first appearance); values are told apart by `key` (default the value itself)."""
    seen: dict[Any, int] = {}
    distinct: list[Any] = []
    index = np.empty(len(values), dtype=np.int32)
    for i, value in enumerate(values):
        k = value if key is None else key(value)
        j = seen.get(k)
        if j is None:
            j = seen[k] = len(distinct)
            distinct.append(value)
        index[i] = j
    return index, distinct


@dataclass(frozen=True, eq=False)
class WireBatch:
    """A batch of candidates and their test lists, columnar (module docstring)."""

    code: np.ndarray  # uint8: every candidate's code end to end (sources as UTF-8)
    offsets: np.ndarray  # int64, n + 1: candidate i's code is code[offsets[i]:offsets[i + 1]]
    is_bytes: np.ndarray  # bool: the code is a `.kbc` container (bytes), not source
    entry: np.ndarray  # int32 into `entries`
    entries: tuple[str, ...]
    problem: np.ndarray  # int32 into `problems`
    problems: tuple[Hashable, ...]
    arg_types: np.ndarray  # int32 into `arg_type_values`
    arg_type_values: tuple[Any, ...]
    tests: np.ndarray  # int32 into `test_lists`
    test_lists: tuple[Sequence[TestSpec], ...]  # each distinct list object once

    def __len__(self) -> int:
        return len(self.entry)

    @classmethod
    def pack(
        cls, candidates: Sequence[Candidate], tests: Sequence[Sequence[TestSpec]]
    ) -> WireBatch:
        """`candidates` and one test list per candidate (lists told apart by identity, as the
        Pipeline tells them apart)."""
        if len(tests) != len(candidates):
            raise ValueError(f"{len(tests)} test lists for {len(candidates)} candidates")
        blobs = [
            c.code.encode("utf-8", "surrogatepass") if isinstance(c.code, str) else c.code
            for c in candidates
        ]
        offsets = np.zeros(len(blobs) + 1, dtype=np.int64)
        np.cumsum([len(b) for b in blobs], out=offsets[1:])
        entry, entries = _index([c.entry for c in candidates])
        problem, problems = _index([c.problem for c in candidates])
        arg_types, arg_type_values = _index([c.arg_types for c in candidates])
        test_index, test_lists = _index(tests, key=id)
        return cls(
            code=np.frombuffer(b"".join(blobs), dtype=np.uint8),
            offsets=offsets,
            is_bytes=np.array([isinstance(c.code, bytes) for c in candidates], dtype=np.bool_),
            entry=entry,
            entries=tuple(entries),
            problem=problem,
            problems=tuple(problems),
            arg_types=arg_types,
            arg_type_values=tuple(arg_type_values),
            tests=test_index,
            test_lists=tuple(test_lists),
        )

    def unpack(self) -> tuple[list[Candidate], list[Sequence[TestSpec]]]:
        """The candidates and, per candidate, its test list (shared where the driver's were)."""
        data = self.code.tobytes()
        bounds = self.offsets.tolist()
        is_bytes = self.is_bytes.tolist()
        entries, problems, types = self.entries, self.problems, self.arg_type_values
        candidates = []
        for i, (e, p, t) in enumerate(
            zip(self.entry.tolist(), self.problem.tolist(), self.arg_types.tolist(), strict=True)
        ):
            blob = data[bounds[i] : bounds[i + 1]]
            code = blob if is_bytes[i] else blob.decode("utf-8", "surrogatepass")
            candidates.append(Candidate(code, entries[e], problems[p], types[t]))
        lists = self.test_lists
        return candidates, [lists[j] for j in self.tests.tolist()]


@dataclass(frozen=True, eq=False)
class WireResults:
    """A batch's verdicts on their way back, columnar as `WireBatch` is: numbers as arrays,
    strings and bytecode as an index into the batch's distinct values (one passing program's
    container, shared by its candidates, travels once). `unpack` gives back equal
    CandidateResults, each its own object."""

    verdict: np.ndarray  # int32 into `strings`
    fail_test: np.ndarray  # int32
    trap: np.ndarray  # int32 into `strings` (None among them)
    steps: np.ndarray  # int64
    diagnostic: np.ndarray  # int32 into `strings`
    path: np.ndarray  # int32 into `strings`
    in_module: np.ndarray  # bool
    strings: tuple[str | None, ...]
    bytecode: np.ndarray  # int32 into `bytecodes` (told apart by identity)
    bytecodes: tuple[bytes | None, ...]
    tests: tuple[Any, ...] | None  # each result's per-test detail, when any has one

    def __len__(self) -> int:
        return len(self.verdict)

    @classmethod
    def pack(cls, results: Sequence[CandidateResult]) -> WireResults:
        strings: dict[str | None, int] = {}

        def index(values: list[str | None]) -> np.ndarray:
            return np.array([strings.setdefault(v, len(strings)) for v in values], dtype=np.int32)

        bytecode, bytecodes = _index([r.bytecode for r in results], key=id)
        details = [r.tests for r in results]
        return cls(
            verdict=index([r.verdict for r in results]),
            fail_test=np.array([r.fail_test for r in results], dtype=np.int32),
            trap=index([r.trap for r in results]),
            steps=np.array([r.steps for r in results], dtype=np.int64),
            diagnostic=index([r.diagnostic for r in results]),
            path=index([r.path for r in results]),
            in_module=np.array([r.in_module for r in results], dtype=np.bool_),
            strings=tuple(strings),
            bytecode=bytecode,
            bytecodes=tuple(bytecodes),
            tests=tuple(details) if any(d is not None for d in details) else None,
        )

    def unpack(self) -> list[CandidateResult]:
        s, code = self.strings, self.bytecodes
        tests = self.tests if self.tests is not None else [None] * len(self)
        return [
            CandidateResult(
                s[v],
                fail_test=f,
                trap=s[t],
                steps=n,
                bytecode=code[b],
                diagnostic=s[d],
                path=s[p],
                tests=detail,
                in_module=m,
            )  # fmt: skip
            for v, f, t, n, b, d, p, m, detail in zip(
                self.verdict.tolist(),
                self.fail_test.tolist(),
                self.trap.tolist(),
                self.steps.tolist(),
                self.bytecode.tolist(),
                self.diagnostic.tolist(),
                self.path.tolist(),
                self.in_module.tolist(),
                tests,
                strict=True,
            )
        ]
