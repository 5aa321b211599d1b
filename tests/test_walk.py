"""compiler.walk.walk yields what ast.walk yields, in the same order."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from compiler.walk import Transformer, nodes, statements, walk

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
        expected = [id(n) for n in ast.walk(tree)]
        assert [id(n) for n in walk(tree)] == expected
        assert [id(n) for n in nodes(tree)] == expected
    assert trees > 400
    # a node built by hand, with None and missing optional fields
    call = ast.Call(func=ast.Name("f", ast.Load()), args=[], keywords=[])
    assert list(walk(call)) == list(ast.walk(call)) == nodes(call)


def test_transformer_visits_as_ast_node_transformer() -> None:
    """The same nodes visited in the same order, and the same tree after a rewrite that drops
    some nodes and replaces others."""

    def run(base: type) -> tuple[list[str], str]:
        seen: list[str] = []

        class Rewrite(base):  # type: ignore[misc, valid-type]
            def visit(self, node: ast.AST) -> ast.AST | None:
                seen.append(type(node).__name__)
                return super().visit(node)

            def visit_Pass(self, node: ast.Pass) -> None:  # noqa: N802
                return None

            def visit_Name(self, node: ast.Name) -> ast.AST:  # noqa: N802
                return ast.copy_location(ast.Name(id=node.id + "_", ctx=node.ctx), node)

        out = []
        for source in _sources()[:300]:
            try:
                tree = ast.parse(source)
            except SyntaxError:
                continue
            out.append(ast.dump(Rewrite().visit(tree), include_attributes=True))
        return seen, "\n".join(out)

    assert run(Transformer) == run(ast.NodeTransformer)


def test_transformer_skips_only_what_it_gives_back() -> None:
    """A subclass that overrides neither visit nor generic_visit skips the nodes that can hold
    nothing its visit_ methods take: the tree it leaves is NodeTransformer's, for rewrites of
    a statement (below which expressions are skipped), of names, and of calls."""

    def rewrites(base: type) -> list[type]:
        class Statement(base):  # type: ignore[misc, valid-type]
            def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:  # noqa: N802
                value = ast.BinOp(
                    left=ast.Name(id="t", ctx=ast.Load()), op=node.op, right=node.value
                )
                return ast.copy_location(ast.Assign([node.target], value), node)

            def visit_Pass(self, node: ast.Pass) -> None:  # noqa: N802
                return None

        class Names(base):  # type: ignore[misc, valid-type]
            def visit_Name(self, node: ast.Name) -> ast.AST:  # noqa: N802
                return ast.copy_location(ast.Name(id=node.id + "_", ctx=node.ctx), node)

        class Calls(base):  # type: ignore[misc, valid-type]
            def visit_Call(self, node: ast.Call) -> ast.AST:  # noqa: N802
                self.generic_visit(node)
                if isinstance(node.func, ast.Name) and node.func.id == "len":
                    return ast.copy_location(ast.Constant(value=len(node.args)), node)
                return node

        return [Statement, Names, Calls]

    def run(base: type) -> str:
        out = []
        for source in _sources()[:300]:
            for rewrite in rewrites(base):
                try:
                    tree = ast.parse(source)
                except SyntaxError:
                    break
                out.append(ast.dump(rewrite().visit(tree), include_attributes=True))
        return "\n".join(out)

    assert run(Transformer) == run(ast.NodeTransformer)


def test_statements_are_those_of_nodes() -> None:
    kinds = (ast.stmt, ast.excepthandler, ast.match_case)
    for source in _sources():
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        assert [n for n in statements(tree) if isinstance(n, kinds)] == [
            n for n in nodes(tree) if isinstance(n, kinds)
        ]


def _shape(tree: object) -> list[object]:
    """Every node's and list's class, attributes and place in the sharing (ids numbered as met)."""
    seen: dict[int, int] = {}
    out: list[object] = []
    todo = [tree]
    while todo:
        value = todo.pop()
        first = id(value) not in seen
        out.append((type(value).__name__, seen.setdefault(id(value), len(seen))))
        if not first:
            continue
        if isinstance(value, ast.AST):
            items = list(value.__dict__.items())
        else:
            items = list(enumerate(value))  # type: ignore[arg-type]
        for name, item in items:
            if isinstance(item, (ast.AST, list)):
                todo.append(item)
            elif isinstance(item, frozenset):  # its order is its hashes' (deepcopy builds anew)
                out.append((name, sorted(map(repr, item))))
            else:
                out.append((name, repr(item)))
    return out


def test_copy_tree_is_deepcopy() -> None:
    import copy

    from compiler.diagnostics import CompileError
    from compiler.frontend import parse
    from compiler.walk import copy_tree

    trees = 0
    for source in _sources():
        try:
            functions = parse(source)  # with the front end's own marks (kallowed, ...)
        except (CompileError, RecursionError):
            continue
        trees += 1
        mine, theirs = copy_tree(functions), copy.deepcopy(functions)
        assert _shape(mine) == _shape(theirs)
        assert _shape(mine) == _shape(functions)
        assert all(a is not b for a, b in zip(mine, functions))  # type: ignore[call-overload]
    assert trees > 200
