"""kiln's static types, and values marshalled to and from 64-bit words.

A `Type` is what the compiler infers and what the VM needs to read values: `int`, `float`,
`bool`, `str`, `None`, `list[T]` and `tuple[T1, ..., Tn]`. Types are encoded as descriptors
(prefix order, one int per node: `list[int]` is `[5, 2]`, `tuple[int, str]` is `[6, 2, 2, 4]`)
in the program's type table.

Arguments go into an execution, and results come out of it, *marshalled*: a flat sequence of
int64 words read with the value's type (`vm/README.md`):

    none, bool, int   one word
    float             one word, the IEEE-754 bits
    str               length, then one code point per word
    list[T]           length, then each item marshalled as T
    tuple[T1..Tn]     each item marshalled in turn (the arity is in the type)
    tuple[T, ...]     as list[T] (a host and compiler type: a list in the VM, `vtuple_of`)
    Optional[T]       0 for None; else 1, then the value marshalled as T
    Union[T1..Tn]     the type code of the value's kind (TYPE_CODES), then the value marshalled
                      as the alternative of that kind

A union's alternatives have distinct kinds (`int | float | str`, `list[int] | None`; never
`list[int] | list[str]`): the kind is the run-time tag. In memory a union value is a reference
to a 2-word box (tag, value) made by BOX and read by TAG and UNBOX (vm/README.md).
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from vm.isa import TYPE_CODES
from vm.limits import MAX_TYPE_DEPTH

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1


@dataclass(frozen=True)
class Type:
    kind: str  # one of TYPE_CODES
    args: tuple[Type, ...] = ()

    def __hash__(self) -> int:
        """The dataclass's hash, `hash((kind, args))`, worked out once per object: types are
        dict keys everywhere (the Pipeline's (source, entry, argument types) keys a dozen times
        a candidate), and hashing a tuple of types hashes every type in it again."""
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash((self.kind, self.args))
            object.__setattr__(self, "_hash", h)  # a cache, not a field (frozen dataclass)
        return h

    def __reduce__(self) -> tuple[type[Type], tuple[str, tuple[Type, ...]]]:
        # pickled and copied by its fields alone: a str's hash differs from process to process
        return (Type, (self.kind, self.args))

    def __str__(self) -> str:
        return type_text(self.kind, [str(a) for a in self.args])

    @property
    def is_ref(self) -> bool:
        """Held as a reference into memory."""
        return self.kind in ("str", "list", "tuple", "union")

    @property
    def has_float(self) -> bool:
        return self.kind == "float" or any(arg.has_float for arg in self.args)

    def descriptor(self) -> list[int]:
        words = [TYPE_CODES[self.kind]]
        if self.kind in ("tuple", "union"):
            words.append(len(self.args))
        for arg in self.args:
            words += arg.descriptor()
        return words


# How a type of each kind with arguments is written, from the text of its arguments (`type_text`)
_TEXT_FORMATS = {
    "list": "list[{0}]",
    "set": "set[{0}]",
    "dict": "dict[{0}, {1}]",
    "vtuple": "tuple[{0}, ...]",
    "optional": "Optional[{0}]",
}


def type_text(kind: str, args: list[str]) -> str:
    """A type as Python writes it, from its kind and the text of its arguments: `Type.__str__`
    writes the arguments with `str`; a writer of types whose arguments may be something else
    (the type checker's type variables) passes its own text for them."""
    if kind == "tuple":
        return f"tuple[{', '.join(args)}]"
    if kind == "union":
        return " | ".join(args)
    return _TEXT_FORMATS[kind].format(*args) if kind in _TEXT_FORMATS else kind


INT = Type("int")
FLOAT = Type("float")
BOOL = Type("bool")
STR = Type("str")
NONE = Type("none")


def list_of(elem: Type) -> Type:
    return Type("list", (elem,))


def optional_of(t: Type) -> Type:
    """None or a value of `t`. In memory: the word -1 for None, else a reference to a 1-item
    tuple holding the value (vm/README.md)."""
    return Type("optional", (t,))


def union_of(*types: Type) -> Type | None:
    """The type of a value that is any of `types` (CPython's value of a variable assigned an int
    on one path and a float on another): nested unions and Optionals flattened, repeats dropped,
    alternatives in TYPE_CODES order. One alternative is that type; None and one other is
    Optional[T]. None when two alternatives share a kind but differ (`list[int]` and
    `list[str]`: the tag could not tell them apart), or a set or a tuple[T, ...] is among them.
    A dict is a tuple at run time (runtime_type): it takes the tuple's tag, so no tuple may be
    beside it."""
    alts: dict[str, Type] = {}
    stack = list(reversed(types))
    while stack:
        t = stack.pop()
        if t.kind in ("union", "optional"):
            if t.kind == "optional":
                stack.append(NONE)
            stack.extend(reversed(t.args))
            continue
        kind = tag_kind(t.kind)
        if t.kind in ("set", "vtuple") or alts.get(kind, t) != t:
            return None
        alts[kind] = t
    ordered = tuple(alts[k] for k in TYPE_CODES if k in alts)
    if len(ordered) == 1:
        return ordered[0]
    if len(ordered) == 2 and ordered[0].kind == "none":
        return optional_of(ordered[1])
    return Type("union", ordered)


def tag_kind(kind: str) -> str:
    """The kind whose type code tags a union's alternative of kind `kind` (TYPE_CODES): its own,
    but a dict's is the tuple it is at run time (a tuple of its keys and values lists)."""
    return "tuple" if kind == "dict" else kind


def union_alternatives(t: Type) -> tuple[Type, ...]:
    """The alternatives of a union, or `(t,)`."""
    return t.args if t.kind == "union" else (t,)


def set_of(elem: Type) -> Type:
    """A compiler-only type: at run time a set is a sorted list without repeats (a list type in
    the program's type table); it never crosses the marshalling boundary."""
    return Type("set", (elem,))


def dict_of(key: Type, value: Type) -> Type:
    """A compiler-only type: at run time a dict is a tuple (keys list, values list), in
    insertion order; it never crosses the marshalling boundary."""
    return Type("dict", (key, value))


def vtuple_of(elem: Type) -> Type:
    """`tuple[T, ...]`, a tuple of a length known only at run time, every item a T. A type of
    the compiler and the host: in the VM it is a list[T] that nothing changes after it is
    made (the compiler rejects every mutation), so the VM runs it with list instructions; at the
    marshalling boundary it is a Python tuple (`marshal`, `unmarshal`: its words are a list's)."""
    return Type("vtuple", (elem,))


def erase_vtuples(t: Type) -> Type:
    """`t` with every tuple[T, ...] as list[T] (sets and dicts kept): the types the lowering
    reads, and the VM's, for values whose host type is `t`."""
    if not t.args:
        return t
    args = tuple(erase_vtuples(a) for a in t.args)
    return Type("list" if t.kind == "vtuple" else t.kind, args)


def runtime_type(t: Type) -> Type:
    """`t` with every set[T] and tuple[T, ...] as list[T] and every dict[K, V] as
    tuple[list[K], list[V]]: what the VM's type table holds."""
    args = tuple(runtime_type(a) for a in t.args)
    if t.kind == "dict":
        return tuple_of(list_of(args[0]), list_of(args[1]))
    return Type("list" if t.kind in ("set", "vtuple") else t.kind, args)


def tuple_of(*elems: Type) -> Type:
    return Type("tuple", tuple(elems))


def type_depth(ty: Type) -> int:
    """Nesting depth of lists, tuples and Optionals: 0 for scalars and str, 1 for list[int], ...
    (walked without recursion: it measures types before anything recurses over them)."""
    deepest = 0
    stack = [(ty, 0)]
    while stack:
        t, depth = stack.pop()
        if t.kind in ("list", "tuple", "optional", "union"):
            depth += 1
            deepest = max(deepest, depth)
            stack.extend((arg, depth) for arg in t.args)
    return deepest


_KIND_OF_CODE = {code: kind for kind, code in TYPE_CODES.items()}


def type_from_descriptor(words: list[int], start: int = 0) -> tuple[Type, int]:
    """Decode one descriptor; returns the type and the index after it. ValueError if malformed
    or nested deeper than MAX_TYPE_DEPTH."""
    return _from_descriptor(words, start, 0)


def _from_descriptor(words: list[int], start: int, depth: int) -> tuple[Type, int]:
    if start >= len(words) or words[start] not in _KIND_OF_CODE:
        raise ValueError(f"malformed type descriptor at word {start}")
    kind = _KIND_OF_CODE[words[start]]
    pos = start + 1
    if kind in ("list", "optional", "tuple", "union") and depth >= MAX_TYPE_DEPTH:
        raise ValueError(
            f"type descriptor nests deeper than {MAX_TYPE_DEPTH} lists, tuples or Optionals"
            f" at word {start} (vm.limits.MAX_TYPE_DEPTH)"
        )
    if kind == "list":
        elem, pos = _from_descriptor(words, pos, depth + 1)
        return list_of(elem), pos
    if kind == "optional":
        elem, pos = _from_descriptor(words, pos, depth + 1)
        return optional_of(elem), pos
    if kind in ("tuple", "union"):  # the arity, then the items (a union's: its alternatives)
        low, high = (0, 255) if kind == "tuple" else (2, len(TYPE_CODES))
        if pos >= len(words) or not low <= words[pos] <= high:
            raise ValueError(f"malformed {kind} arity at word {pos}")
        n, pos = words[pos], pos + 1
        elems = []
        for _ in range(n):
            elem, pos = _from_descriptor(words, pos, depth + 1)
            elems.append(elem)
        if kind == "tuple":
            return tuple_of(*elems), pos
        t = Type("union", tuple(elems))
        if union_of(*elems) != t:
            raise ValueError(f"malformed union at word {start}: {t}")
        return t, pos
    return Type(kind), pos


def type_of_value(value: Any) -> Type:
    """The kiln type of a Python value (an example argument). ValueError if it has none (a
    value nested deeper than MAX_TYPE_DEPTH lists or tuples has none)."""
    return _type_of_value(value, 0)


# The Python classes of the scalar values and their types, a bool before the int it also is
_SCALAR_TYPES = ((bool, BOOL), (int, INT), (float, FLOAT), (str, STR), (type(None), NONE))


def scalar_type(value: Any) -> Type | None:
    """The type of a bool, int (of any size: the caller checks the 64 bits), float, str or None;
    None for any other value."""
    for cls, ty in _SCALAR_TYPES:
        if isinstance(value, cls):
            return ty
    return None


def _type_of_value(value: Any, depth: int) -> Type:
    scalar = scalar_type(value)
    if scalar == INT and not INT64_MIN <= value <= INT64_MAX:
        raise ValueError(f"int {value} does not fit in 64 bits")
    if scalar is not None:
        return scalar
    if isinstance(value, (tuple, list)) and depth >= MAX_TYPE_DEPTH:
        raise ValueError(
            f"the value nests deeper than {MAX_TYPE_DEPTH} lists or tuples"
            " (vm.limits.MAX_TYPE_DEPTH)"
        )
    if isinstance(value, tuple):
        return tuple_of(*(_type_of_value(v, depth + 1) for v in value))
    if isinstance(value, list):
        # empty inner lists say nothing about the element type: they fit any list type
        types = {_type_of_value(v, depth + 1) for v in value if not (isinstance(v, list) and not v)}
        if not types:
            raise ValueError(
                "the element type of an empty list argument is unknown: annotate the parameter"
            )
        if len(types) == 1:
            elem = types.pop()
            if (
                len(value) > sum(1 for v in value if not (isinstance(v, list) and not v))
                and elem.kind != "list"
            ):
                raise ValueError(f"list argument mixes types: {elem} and an empty list")
            return list_of(elem)
        raise ValueError(f"list argument mixes types: {', '.join(sorted(map(str, types)))}")
    raise ValueError(f"values of type {type(value).__name__} are not in kiln Python")


def float_bits(x: float) -> int:
    return struct.unpack("<q", struct.pack("<d", x))[0]


def bits_float(w: int) -> float:
    return struct.unpack("<d", struct.pack("<q", w))[0]


def marshal(value: Any, ty: Type) -> list[int]:
    """The words of `value` read as `ty`. ValueError if the value does not have that type."""
    out: list[int] = []
    _marshal(value, ty, out)
    return out


def _marshal(value: Any, ty: Type, out: list[int]) -> None:
    kind = ty.kind
    if kind == "none":
        if value is not None:
            raise ValueError(f"expected None, got {value!r}")
        out.append(0)
    elif kind in ("int", "bool"):
        # A bool is not taken for an int: CPython keeps it a bool (str(True) is "True", type(x)
        # is bool), so kiln types never hold the other class (compiler/types.py).
        if not isinstance(value, int) or isinstance(value, bool) != (kind == "bool"):
            raise ValueError(f"expected {kind}, got {value!r}")
        if not INT64_MIN <= value <= INT64_MAX:
            raise ValueError(f"int {value} does not fit in 64 bits")
        out.append(int(value))
    elif kind == "float":
        # An int is not taken for a float: CPython would keep it an int inside the function
        # (exact past 2**53, `str(3)` is "3"), so running it as a float could change the answer.
        if not isinstance(value, float):
            raise ValueError(f"expected float, got {value!r} (an int stays an int in CPython)")
        out.append(float_bits(float(value)))
    elif kind == "str":
        if not isinstance(value, str):
            raise ValueError(f"expected str, got {value!r}")
        out.append(len(value))
        out.extend(map(ord, value))
    elif kind == "list":
        if not isinstance(value, list):
            raise ValueError(f"expected {ty}, got {value!r}")
        out.append(len(value))
        for item in value:
            _marshal(item, ty.args[0], out)
    elif kind == "vtuple":  # marshalled as a list of its items
        if not isinstance(value, tuple):
            raise ValueError(f"expected {ty}, got {value!r}")
        out.append(len(value))
        for item in value:
            _marshal(item, ty.args[0], out)
    elif kind == "tuple":
        if not isinstance(value, tuple) or len(value) != len(ty.args):
            raise ValueError(f"expected {ty}, got {value!r}")
        for item, item_ty in zip(value, ty.args):
            _marshal(item, item_ty, out)
    elif kind == "optional":
        if value is None:
            out.append(0)
        else:
            out.append(1)
            _marshal(value, ty.args[0], out)
    elif kind == "union":
        alt = value_alternative(value, ty)
        if alt is None:
            raise ValueError(f"expected {ty}, got {value!r}")
        out.append(TYPE_CODES[alt.kind])
        _marshal(value, alt, out)
    else:  # pragma: no cover - TYPE_CODES and Type agree
        raise AssertionError(kind)


def unmarshal(words: list[int], ty: Type) -> Any:
    """The Python value of marshalled words; ValueError if they are malformed or not all used."""
    it = iter(words)
    value = _unmarshal(it, ty)
    if next(it, None) is not None:
        raise ValueError("marshalled value has trailing words")
    return value


def _unmarshal(it: Iterator[int], ty: Type) -> Any:
    def word() -> int:
        w = next(it, None)
        if w is None:
            raise ValueError(f"marshalled value truncated while reading {ty}")
        return w

    kind = ty.kind
    if kind == "none":
        word()
        return None
    if kind == "int":
        return word()
    if kind == "bool":
        return word() != 0
    if kind == "float":
        return bits_float(word())
    if kind == "str":
        n = word()
        return "".join(chr(word()) for _ in range(n))
    if kind == "list":
        n = word()
        return [_unmarshal(it, ty.args[0]) for _ in range(n)]
    if kind == "tuple":
        return tuple(_unmarshal(it, arg) for arg in ty.args)
    if kind == "vtuple":
        n = word()
        return tuple(_unmarshal(it, ty.args[0]) for _ in range(n))
    if kind == "optional":
        tag = word()
        if tag not in (0, 1):
            raise ValueError(f"bad Optional tag {tag}")
        return None if tag == 0 else _unmarshal(it, ty.args[0])
    if kind == "union":
        tag = word()
        for alt in ty.args:
            if TYPE_CODES[alt.kind] == tag:
                return _unmarshal(it, alt)
        raise ValueError(f"bad union tag {tag} for {ty}")
    raise AssertionError(kind)  # pragma: no cover


def value_alternative(value: Any, ty: Type) -> Type | None:
    """The alternative of union `ty` that `value` is (by its Python class: a bool is a bool),
    or None."""
    kind = {bool: "bool", int: "int", float: "float", str: "str", list: "list", tuple: "tuple"}
    k = "none" if value is None else kind.get(type(value))
    return next((alt for alt in ty.args if alt.kind == k), None)
