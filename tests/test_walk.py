"""compiler.walk.walk yields what ast.walk yields, in the same order."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from compiler.walk import walk

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT.parent / "shared" / "datasets" / "humaneval-real" / "samples.jsonl"


def _sources() -> list[str]:
    sources = [p.read_text() for p in sorted((ROOT / "tests" / "programs").rglob("*.py"))]
    sources += [p.read_text() for p in sorted((ROOT / "compiler").glob("*.py"))]
    if SAMPLES.exists():  # real model output, where shared/ is laid beside the checkout
        with SAMPLES.open() as f:
            sources += [json.loads(line)["completion"] for line in f][:500]
    return sources


def test_walk_is_ast_walk_in_the_same_order() -> None:
    trees = 0
    for source in _sources():
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        trees += 1
        assert [id(n) for n in walk(tree)] == [id(n) for n in ast.walk(tree)]
    assert trees > 400
    # a node built by hand, with None and missing optional fields
    call = ast.Call(func=ast.Name("f", ast.Load()), args=[], keywords=[])
    assert list(walk(call)) == list(ast.walk(call))
