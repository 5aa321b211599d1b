"""Mutated solutions: deterministic wrong (and sometimes still right) completions for testing a
harness, as mutation testing makes them.

    from evaluation.mutants import mutants, mutant_samples
    mutants(solution, "operator", seed=3)    # completions with one operator swapped
    mutant_samples(problems, per_kind=1, seed=0)   # [{"task_id", "completion", "mutation"}, ...]

Kinds (`KINDS`): `operator` (a binary, comparison or boolean operator swapped: + -, < <=,
== !=, and or, ...), `constant` (an integer constant off by one), `negate` (an `if`/`while`/
conditional-expression test negated), `infinite` (the body starts with `while True: pass`).
A solution is parsed as the body of a function, mutated at one site chosen by a seeded
`random.Random`, and unparsed (comments and formatting are not kept). Some mutants are
equivalent to the original and still pass: that is part of what a harness must get right.
"""

from __future__ import annotations

import ast
import random
import textwrap
from collections.abc import Mapping
from typing import Any

from evaluation.problems import Problem

KINDS = ("operator", "constant", "negate", "infinite")

_SWAPS: dict[type, type] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Add,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.And: ast.Or,
    ast.Or: ast.And,
}


def _body(solution: str) -> ast.FunctionDef | None:
    """The solution (an indented function body) as the body of a function, or None."""
    try:
        tree = ast.parse("def mutant__():\n" + textwrap.indent(textwrap.dedent(solution), "    "))
    except SyntaxError:
        return None
    fn = tree.body[0]
    return fn if isinstance(fn, ast.FunctionDef) else None


def _sites(fn: ast.FunctionDef, kind: str) -> list[Any]:
    sites: list[Any] = []
    for node in ast.walk(fn):
        if kind == "operator":
            if isinstance(node, (ast.BinOp, ast.BoolOp)) and type(node.op) in _SWAPS:
                sites.append((node, None))
            elif isinstance(node, ast.Compare):
                sites += [(node, i) for i, op in enumerate(node.ops) if type(op) in _SWAPS]
        elif kind == "constant":
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, int)
                and not isinstance(node.value, bool)
            ):
                sites.append(node)
        elif kind == "negate":
            if isinstance(node, (ast.If, ast.While, ast.IfExp)):
                sites.append(node)
    return sites


def _apply(site: Any, kind: str) -> None:
    if kind == "operator":
        node, index = site
        if index is None:
            node.op = _SWAPS[type(node.op)]()
        else:
            node.ops[index] = _SWAPS[type(node.ops[index])]()
    elif kind == "constant":
        site.value += 1
    elif kind == "negate":
        site.test = ast.UnaryOp(ast.Not(), site.test)


def _render(fn: ast.FunctionDef) -> str:
    body = "\n".join(ast.unparse(stmt) for stmt in fn.body)
    return textwrap.indent(body, "    ") + "\n"


def mutants(solution: str, kind: str, seed: int = 0, count: int = 1) -> list[str]:
    """Up to `count` distinct completions: `solution` mutated once by `kind` (fewer when the
    solution has fewer sites; none when it does not parse)."""
    if kind not in KINDS:
        raise ValueError(f"unknown mutation kind {kind!r}: choose {', '.join(KINDS)}")
    fn = _body(solution)
    if fn is None:
        return []
    if kind == "infinite":
        loop = ast.parse("while True:\n    pass").body
        fn.body = [*loop, *fn.body]
        return [_render(fn)]
    n_sites = len(_sites(fn, kind))
    order = list(range(n_sites))
    random.Random(seed).shuffle(order)
    out: list[str] = []
    for index in order[:count]:
        copy = _body(solution)
        assert copy is not None
        _apply(_sites(copy, kind)[index], kind)
        text = _render(copy)
        if text not in out:
            out.append(text)
    return out


def mutant_samples(
    problems: Mapping[str, Problem],
    *,
    per_kind: int = 1,
    kinds: tuple[str, ...] = ("operator", "constant", "negate"),
    infinite_every: int = 0,
    canonical: bool = True,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """Samples for `problems` (in their order): the canonical solution (if `canonical`), up to
    `per_kind` mutants of each kind, and an infinite loop for every `infinite_every`-th problem.
    Each sample carries its `mutation` ("canonical", "operator", ...)."""
    samples: list[dict[str, Any]] = []
    for n, (task_id, problem) in enumerate(problems.items()):
        solution = problem.canonical_solution
        if solution is None:
            continue
        if canonical:
            samples.append({"task_id": task_id, "completion": solution, "mutation": "canonical"})
        for k, kind in enumerate(kinds):
            for text in mutants(solution, kind, seed=seed * 1000 + n * 10 + k, count=per_kind):
                samples.append({"task_id": task_id, "completion": text, "mutation": kind})
        if infinite_every and n % infinite_every == 0:
            for text in mutants(solution, "infinite"):
                samples.append({"task_id": task_id, "completion": text, "mutation": "infinite"})
    return samples
