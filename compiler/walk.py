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
from collections.abc import Callable, Iterator, Mapping
from typing import Any

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
    return _breadth_first(node, node_fields, ())


def _breadth_first(
    node: ast.AST, fields: Mapping[type, tuple[str, ...]], stop: tuple[type, ...]
) -> list[ast.AST]:
    """`node` and the nodes below it reached through `fields` (a class -> the fields to read),
    breadth first, as `walk`; nothing read below a node of a class in `stop` (`node` aside)."""
    out: list[ast.AST] = [node]
    push, extend = out.append, out.extend
    for current in out:  # the list grows as it is read
        if stop and current is not node and isinstance(current, stop):
            continue
        for name in fields[type(current)]:
            value = getattr(current, name, None)
            if isinstance(value, list):
                extend([v for v in value if isinstance(v, _AST)])
            elif isinstance(value, _AST):
                push(value)
    return out


# ASDL types whose nodes may hold statements: `stmt` itself, an except handler's or a match
# case's body (an expression never holds one)
_STATEMENT_HOLDERS = frozenset({"stmt", "excepthandler", "match_case"})


class _StatementFields(dict[type, tuple[str, ...]]):
    """A node class -> its fields that may hold a statement (all of `node_fields` for a class
    whose signature cannot be read)."""

    def __missing__(self, cls: type) -> tuple[str, ...]:
        declared = _declared(cls)
        fields = (
            node_fields[cls]
            if declared is None
            else tuple(f for f, t in declared.items() if t in _STATEMENT_HOLDERS)
        )
        self[cls] = fields
        return fields


_statement_fields = _StatementFields()


def statements(node: ast.AST, stop: tuple[type, ...] = ()) -> list[ast.AST]:
    """`node` and the nodes below it that may hold or be a statement (statements, except
    handlers, match cases), in `nodes`'s order (breadth first, which skipping expressions does
    not change: a statement's parent is such a node too): what `nodes(node)` holds of those, for
    a caller that wants statements only. Below a node of a class in `stop` (but `node` itself)
    nothing is read: `stop=(ast.FunctionDef,)` leaves out the statements of functions defined
    in `node`."""
    return _breadth_first(node, _statement_fields, stop)


def _declared(cls: type) -> dict[str, str] | None:
    """The ASDL type of each node field of the ast class `cls` ("expr", "stmt", "arguments",
    ...; `node_fields`'s order), or None where its signature cannot be read (not an ast class)."""
    signature = re.fullmatch(r"\w+\((.*)\)", (cls.__doc__ or "").split("\n", 1)[0])
    if cls.__module__ != "ast" or not signature:
        return None if node_fields[cls] else {}
    pairs = (p.split(" ") for p in signature.group(1).split(", "))
    declared = {n: t.rstrip("*?") for t, n in pairs}
    if not all(f in declared for f in node_fields[cls]):
        return None
    return {f: declared[f] for f in node_fields[cls]}


# the ast module's concrete node classes of each ASDL type ("expr": BinOp, Name, ...; a product
# type such as "comprehension" or "arguments": its own class), but the deprecated aliases whose
# signature is not documented (`ast.Num(1)` makes a Constant)
_CONSTRUCTORS: dict[str, tuple[type, ...]] = {}
for _cls in vars(ast).values():
    if (
        isinstance(_cls, type)
        and issubclass(_cls, _AST)
        and _cls is not _AST
        and _declared(_cls) is not None
    ):
        for _base in _cls.__mro__:
            if _base is _AST or _base is object:
                break
            _CONSTRUCTORS.setdefault(_base.__name__, ())
            if _cls not in _CONSTRUCTORS[_base.__name__]:
                _CONSTRUCTORS[_base.__name__] += (_cls,)


class _Reach(dict[type, frozenset[str] | None]):
    """A node class -> the names of every ast class a node of it may hold anywhere below it (by
    the ASDL: an `expr` field holds any expression), itself included; None when unknown (a class
    from outside the ast module)."""

    def __missing__(self, cls: type) -> frozenset[str] | None:
        names: set[str] = set()
        todo, seen = [cls], {cls}
        while todo:
            current = todo.pop()
            declared = _declared(current)
            if declared is None:
                self[cls] = None
                return None
            names.add(current.__name__)
            for asdl in declared.values():
                for sub in _CONSTRUCTORS.get(asdl, ()):
                    if sub not in seen:
                        seen.add(sub)
                        todo.append(sub)
        self[cls] = frozenset(names)
        return self[cls]


_reach = _Reach()


class _Table(dict[type, "Callable[[Any, ast.AST], Any] | None"]):
    """A Transformer subclass's visit of each node class: its `visit_<Class>` method, else its
    `generic_visit`; None where that visit gives the node back as it is, having changed nothing
    below it: no class the node may hold (`_reach`), itself included, has a `visit_` method
    (the generic_visit being Transformer's own, and `visit` not overridden)."""

    def __init__(self, transformer: type) -> None:
        super().__init__()
        self.transformer = transformer
        self.visited = frozenset(
            name[len("visit_") :]
            for name in dir(transformer)
            if name.startswith("visit_")
            and getattr(transformer, name) is not Transformer.visit_Constant
        )
        self.through_visit = transformer.visit is not Transformer.visit
        self.pruning = (
            transformer.generic_visit is Transformer.generic_visit
            and not self.through_visit
            and all(getattr(ast, n, None) is not None for n in self.visited)
        )

    def __missing__(self, cls: type) -> Callable[[Any, ast.AST], Any] | None:
        method = getattr(self.transformer, f"visit_{cls.__name__}", None)
        if method is None or method is Transformer.visit_Constant:
            method = self.transformer.generic_visit
            reach = _reach[cls]
            if self.pruning and reach is not None and reach.isdisjoint(self.visited):
                method = None
        self[cls] = method
        return method


def _table(transformer: type) -> _Table:
    """The `_Table` of a Transformer subclass, kept in the class (which may be made anew for
    each use, as frontend's `Drop`: the table goes with it)."""
    table: _Table | None = transformer.__dict__.get("_kiln_table")
    if table is None:
        table = _Table(transformer)
        transformer._kiln_table = table  # type: ignore[attr-defined]
    return table


class Transformer(ast.NodeTransformer):
    """`ast.NodeTransformer`, its `generic_visit` reading only `node_fields` (the same visits,
    in the same order, with the same results).

    A subclass that overrides neither `visit` nor `generic_visit` goes further: it does not
    visit a node whose class can hold no node its `visit_` methods take (by the ASDL: an
    expression holds no statement; a `Load`, `Add` or `Constant` holds nothing), which
    NodeTransformer would visit only to give it back unchanged (`_Table`; the front end's
    rewrites visit mostly such nodes). A node's class is looked up once per subclass, not as
    `"visit_" + name` each time. (A node of a class from outside the ast module is visited; one
    below a node that cannot hold it, by the ASDL, would not be: no tree here holds one.)"""

    def visit(self, node: ast.AST) -> Any:
        cls = type(self)
        method = (cls.__dict__.get("_kiln_table") or _table(cls))[type(node)]
        return node if method is None else method(self, node)

    def generic_visit(self, node: ast.AST) -> ast.AST:
        cls = type(self)
        table: _Table | None = cls.__dict__.get("_kiln_table") or _table(cls)
        if table.through_visit:  # type: ignore[union-attr]
            table = None  # each child through the subclass's own visit
        for field in node_fields[type(node)]:
            try:
                old_value = getattr(node, field)
            except AttributeError:  # as ast.iter_fields: a missing field is skipped
                continue
            if isinstance(old_value, list):
                new_values = []
                for value in old_value:
                    if isinstance(value, _AST):
                        if table is None:
                            value = self.visit(value)
                        else:
                            method = table[type(value)]
                            if method is not None:
                                value = method(self, value)
                        if value is None:
                            continue
                        if not isinstance(value, _AST):
                            new_values.extend(value)
                            continue
                    new_values.append(value)
                old_value[:] = new_values
            elif isinstance(old_value, _AST):
                if table is None:
                    new_node = self.visit(old_value)
                else:
                    method = table[type(old_value)]
                    if method is None:
                        continue  # given back as it is: setattr would change nothing
                    new_node = method(self, old_value)
                if new_node is None:
                    delattr(node, field)
                else:
                    setattr(node, field, new_node)
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:  # noqa: N802  # ast's name
        return self.generic_visit(node)


# What copy.deepcopy returns as it is (its atomic types): kept, not looked up in the memo.
_ATOMIC = frozenset({str, int, float, bool, type(None), bytes, complex})

# ASDL types of fields that hold only atomic values (a str, an int or None)
_ATOMIC_FIELDS = frozenset({"identifier", "string", "int"})


class _CopyPlan(dict[type, tuple[frozenset[str], tuple[str, ...]]]):
    """A node class -> (its fields and attributes: the keys of a node as ast makes it; those of
    them that may hold what is not atomic: a node, a list, a constant's value). A node whose
    dict has no other key (no compiler mark) is copied by copying its dict and then those."""

    def __missing__(self, cls: type) -> tuple[frozenset[str], tuple[str, ...]]:
        fields: tuple[str, ...] = getattr(cls, "_fields", ())
        attributes: tuple[str, ...] = getattr(cls, "_attributes", ())
        signature = re.fullmatch(r"\w+\((.*)\)", (cls.__doc__ or "").split("\n", 1)[0])
        declared: dict[str, str] = {}
        if cls.__module__ == "ast" and signature:
            declared = {
                n: t.rstrip("*?") for t, n in (p.split(" ") for p in signature.group(1).split(", "))
            }
        if set(declared) != set(fields) or any(
            a not in ("lineno", "col_offset", "end_lineno", "end_col_offset") for a in attributes
        ):
            plan = (frozenset(), ())  # unknown: every key looked at
        else:
            plan = (
                frozenset(fields) | frozenset(attributes),
                tuple(f for f in fields if declared[f] not in _ATOMIC_FIELDS),
            )
        self[cls] = plan
        return plan


_copy_plan = _CopyPlan()


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
        old = value.__dict__
        fields = new.__dict__
        fields.update(old)  # in order; then each value that is not atomic replaced by its copy
        standard, deep = _copy_plan[cls]
        if old.keys() <= standard:  # positions, names, ...: atomic (ints, strs, None)
            for name in deep:
                item = fields.get(name)
                if type(item) not in _ATOMIC:
                    fields[name] = _copy(item, memo)
        else:  # marks (kty, kmodule_imports, ...): each key looked at
            for name, item in old.items():
                if type(item) not in _ATOMIC:
                    fields[name] = _copy(item, memo)
        return new
    if cls is list:
        out: list[object] = []
        memo[key] = out
        items: list[object] = value  # type: ignore[assignment]
        out.extend([item if type(item) in _ATOMIC else _copy(item, memo) for item in items])
        return out
    if cls is frozenset and all(type(i) in _ATOMIC for i in value):  # type: ignore[attr-defined]
        return value  # immutable through and through (deepcopy builds an equal one)
    return copy.deepcopy(value, memo)
