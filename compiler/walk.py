"""`walk`: `ast.walk` without its per-node generators (`nodes`: the same, as a list);
`copy_tree`: `copy.deepcopy` of a tree.

The front end and the type checker walk every function's tree many times (bound names,
imports, nested defs, optionals ...); `ast.walk` spends most of that in `iter_child_nodes`
and `iter_fields`, two generators per node. This one reads `_fields` directly and yields the
same nodes in the same order (breadth first, children in field order), so a diagnostic that
names the first offending node names the same one. `tests/test_walk.py` checks the order
against `ast.walk` on the golden corpus and real samples.

Both skip the fields whose ASDL type can hold no node (identifier, string, constant, int:
`Name.id`, `Constant.value`, ...; `node_fields`, read once per class from the class's ASDL
signature): a node is never there, so the nodes and their order are the same. `Transformer` is
`ast.NodeTransformer` with the same skip in its `generic_visit` (and `visit_Constant`, which in
CPython 3.11 first looks for the deprecated `visit_Num` ... methods, none of which kiln defines).

`copy_tree` gives what `copy.deepcopy` gives a tree of nodes (the reference compiler copies the
parsed module for each round of its type check, and the checker a def per specialisation),
without deepcopy's `__reduce_ex__` round trip per node; `tests/test_walk.py` compares the two.
"""

from __future__ import annotations

import ast
import copy
import re
from collections import deque
from collections.abc import Iterator

_AST = ast.AST

# ASDL field types that hold no node: a builtin value (or a list of them), or None
_LEAF_TYPES = frozenset({"identifier", "string", "constant", "int"})


class _Fields(dict[type, tuple[str, ...]]):
    """A node class -> its `_fields` that can hold a node or a list of nodes, in order."""

    def __missing__(self, cls: type) -> tuple[str, ...]:
        fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
        signature = re.fullmatch(r"\w+\((.*)\)", (cls.__doc__ or "").split("\n", 1)[0])
        if cls.__module__ == "ast" and signature:  # e.g. "Name(identifier id, expr_context ctx)"
            declared = [p.split(" ") for p in signature.group(1).split(", ")]
            if [name for _, name in declared] == list(fields):
                fields = tuple(n for t, n in declared if t.rstrip("*?") not in _LEAF_TYPES)
        self[cls] = fields
        return fields


node_fields = _Fields()
"""`node_fields[type(node)]`: the fields of `node` where a child node may be."""


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node of the tree under `node` (itself first), in `ast.walk`'s order."""
    todo: deque[ast.AST] = deque([node])
    pop, push, extend = todo.popleft, todo.append, todo.extend
    fields = node_fields
    while todo:
        node = pop()
        for name in fields[type(node)]:
            value = getattr(node, name, None)
            if isinstance(value, list):
                extend([v for v in value if isinstance(v, _AST)])
            elif isinstance(value, _AST):
                push(value)
        yield node


def nodes(node: ast.AST) -> list[ast.AST]:
    """`list(walk(node))`, built without a generator: for a caller that changes no field of a
    node it has not reached yet (`walk` reads each node's fields as it reaches it, this list
    reads them all first; for a caller that only reads, the two are the same)."""
    out: list[ast.AST] = [node]
    push, extend = out.append, out.extend
    fields = node_fields
    for node in out:  # the list grows as it is read: breadth first, as walk
        for name in fields[type(node)]:
            value = getattr(node, name, None)
            if isinstance(value, list):
                extend([v for v in value if isinstance(v, _AST)])
            elif isinstance(value, _AST):
                push(value)
    return out


class Transformer(ast.NodeTransformer):
    """`ast.NodeTransformer`, its `generic_visit` reading only `node_fields` (the same visits,
    in the same order, with the same results)."""

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for field in node_fields[type(node)]:
            try:
                old_value = getattr(node, field)
            except AttributeError:  # as ast.iter_fields: a missing field is skipped
                continue
            if isinstance(old_value, list):
                new_values = []
                for value in old_value:
                    if isinstance(value, _AST):
                        value = self.visit(value)
                        if value is None:
                            continue
                        if not isinstance(value, _AST):
                            new_values.extend(value)
                            continue
                    new_values.append(value)
                old_value[:] = new_values
            elif isinstance(old_value, _AST):
                new_node = self.visit(old_value)
                if new_node is None:
                    delattr(node, field)
                else:
                    setattr(node, field, new_node)
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:  # noqa: N802  # ast's name
        return self.generic_visit(node)


# What copy.deepcopy returns as it is (its atomic types): kept, not looked up in the memo.
_ATOMIC = frozenset({str, int, float, bool, type(None), bytes, complex})


def copy_tree(tree: object, memo: dict[int, object] | None = None) -> object:
    """`copy.deepcopy(tree)` for a tree of AST nodes and lists: the same classes, attributes
    (the compiler's own `k...` marks too) and sharing (a node reached twice is copied once). A
    frozenset of strings or numbers (`kmodule_names`) is shared, as immutable as a string; any
    other value in the tree is `copy.deepcopy`'s, with the same memo."""
    return _copy(tree, {} if memo is None else memo)


def _copy(value: object, memo: dict[int, object]) -> object:
    cls = type(value)
    if cls in _ATOMIC:
        return value
    key = id(value)
    if key in memo:
        return memo[key]
    if isinstance(value, _AST):
        new = cls.__new__(cls)
        memo[key] = new
        fields = new.__dict__
        for name, item in value.__dict__.items():
            fields[name] = item if type(item) in _ATOMIC else _copy(item, memo)
        return new
    if cls is list:
        out: list[object] = []
        memo[key] = out
        items: list[object] = value  # type: ignore[assignment]
        out.extend(item if type(item) in _ATOMIC else _copy(item, memo) for item in items)
        return out
    if cls is frozenset and all(type(i) in _ATOMIC for i in value):  # type: ignore[attr-defined]
        return value  # immutable through and through (deepcopy builds an equal one)
    return copy.deepcopy(value, memo)
