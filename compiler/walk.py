"""`walk`: `ast.walk` without its per-node generators.

The front end and the type checker walk every function's tree many times (bound names,
imports, nested defs, optionals ...); `ast.walk` spends most of that in `iter_child_nodes`
and `iter_fields`, two generators per node. This one reads `_fields` directly and yields the
same nodes in the same order (breadth first, children in field order), so a diagnostic that
names the first offending node names the same one. `tests/test_walk.py` checks the order
against `ast.walk` on the golden corpus and real samples.
"""

from __future__ import annotations

import ast
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
