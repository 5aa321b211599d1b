"""`walk`: `ast.walk` without its per-node generators; `copy_tree`: `copy.deepcopy` of a tree.

The front end and the type checker walk every function's tree many times (bound names,
imports, nested defs, optionals ...); `ast.walk` spends most of that in `iter_child_nodes`
and `iter_fields`, two generators per node. This one reads `_fields` directly and yields the
same nodes in the same order (breadth first, children in field order), so a diagnostic that
names the first offending node names the same one. `tests/test_walk.py` checks the order
against `ast.walk` on the golden corpus and real samples.

`copy_tree` gives what `copy.deepcopy` gives a tree of nodes (the reference compiler copies the
parsed module for each round of its type check, and the checker a def per specialisation),
without deepcopy's `__reduce_ex__` round trip per node; `tests/test_walk.py` compares the two.
"""

from __future__ import annotations

import ast
import copy
from collections import deque
from collections.abc import Iterator

_AST = ast.AST


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node of the tree under `node` (itself first), in `ast.walk`'s order."""
    todo: deque[ast.AST] = deque([node])
    pop, push, extend = todo.popleft, todo.append, todo.extend
    while todo:
        node = pop()
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                extend([v for v in value if isinstance(v, _AST)])
            elif isinstance(value, _AST):
                push(value)
        yield node


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
