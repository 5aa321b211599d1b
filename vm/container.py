"""Programs in memory and the versioned `.kbc` container that stores them.

Layout of a `.kbc` file (all integers little-endian):

    magic            8 bytes  b"\\x89KBC\\r\\n\\x1a\\n"
    format version   u32
    ISA hash         u32      vm.isa.isa_hash() of the ISA the code was assembled for
    counts           u32 x 6  constants, image words, types, functions, code words, name bytes
    source name      utf-8
    constants        i64 each (ints, or float bits)
    image            i64 each (string constants: see vm/README.md)
    types            per type: u32 word count, then i32 descriptor words
    functions        per function: u32 name length, name, then u32 code start, code length,
                     parameter count, local count, max stack, return type, parameter types...
    code             u32 instruction words, all functions back to back
    lines            u32 source line of each instruction
    host types       optional, only where a signature holds a tuple[T, ...] (a list[T] in the
                     VM): b"HOST", u32 count, then per function: u32 function index, u32 word
                     count, i32 words: for each parameter and then the result, its descriptor,
                     with -1 for tuple[T, ...] (followed by T's)
    checksum         u32 CRC-32 of everything before it

`load` checks the framing (magic, version, ISA hash, counts, truncation, checksum) and raises
`ContainerError` with the reason; `vm.verify` then checks the code itself.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field

from vm.isa import FORMAT_VERSION, TYPE_CODES, isa_hash
from vm.limits import MAX_TYPE_DEPTH
from vm.values import Type, runtime_type, type_from_descriptor, vtuple_of

MAGIC = b"\x89KBC\r\n\x1a\n"
HOST_TAG = b"HOST"
VTUPLE_CODE = -1  # tuple[T, ...] in a host descriptor (never in the VM's type table)
MAX_COUNT = 1 << 26  # no section of a container may claim more items than this
# appended to the name of a function that returns a dict (compiler/reference.py): a call of its
# source name from outside the program finds none (function_index says why), since its result
# is two lists at run time, which no caller could tell from a tuple
LOCAL_SUFFIX = "'local"


class ContainerError(ValueError):
    """A `.kbc` file that cannot be loaded: says what is wrong and where."""


class VerifyError(ValueError):
    """A program that breaks a verifier rule: says which rule, in which function, where.
    Raised by the structural verifier (vm.verify) and the type checker (vm.typecheck)."""


def verify_failure(program: Program, index: int, where: str, rule: str, detail: str) -> VerifyError:
    """The VerifyError for `rule` broken in function `index` at `where`."""
    name = program.functions[index].name if 0 <= index < len(program.functions) else "?"
    return VerifyError(f"function {name!r} (#{index}), {where}: {rule}: {detail}")


@dataclass
class Function:
    name: str
    param_types: list[int]  # indices into Program.types
    return_type: int
    n_locals: int  # parameters included
    max_stack: int
    code: list[int] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    # the parameter types and then the result type as the host marshals them, where they differ
    # from the type table's: a tuple[T, ...] is a list[T] in the VM and a tuple at the host
    host_types: list[Type] | None = None

    @property
    def n_params(self) -> int:
        return len(self.param_types)


@dataclass
class Program:
    functions: list[Function]
    consts: list[int]
    image: list[int]
    types: list[Type]
    source_name: str = "<input>"

    def function_index(self, name: str) -> int:
        for i, fn in enumerate(self.functions):
            if fn.name == name:
                return i
        if any(fn.name == name + LOCAL_SUFFIX for fn in self.functions):
            raise KeyError(
                f"{name} in {self.source_name} returns a dict, which kiln returns to the"
                " program's own functions only (it is two lists at run time): call a function"
                " that returns something else"
            )
        known = ", ".join(fn.name for fn in self.functions) or "none"
        raise KeyError(f"no function {name!r} in {self.source_name} (functions: {known})")

    def signature(self, index: int) -> tuple[list[Type], Type]:
        """The parameter and result types as the host marshals them."""
        fn = self.functions[index]
        if fn.host_types is not None:
            return fn.host_types[:-1], fn.host_types[-1]
        return [self.types[t] for t in fn.param_types], self.types[fn.return_type]

    def to_bytes(self) -> bytes:
        name = self.source_name.encode()
        code = [w for fn in self.functions for w in fn.code]
        parts = [
            MAGIC,
            struct.pack("<II", FORMAT_VERSION, isa_hash()),
            struct.pack(
                "<6I",
                len(self.consts),
                len(self.image),
                len(self.types),
                len(self.functions),
                len(code),
                len(name),
            ),
            name,
            struct.pack(f"<{len(self.consts)}q", *self.consts),
            struct.pack(f"<{len(self.image)}q", *self.image),
        ]
        for ty in self.types:
            words = ty.descriptor()
            parts.append(struct.pack(f"<I{len(words)}i", len(words), *words))
        start = 0
        for fn in self.functions:
            fname = fn.name.encode()
            parts.append(struct.pack("<I", len(fname)) + fname)
            header = (
                start,
                len(fn.code),
                fn.n_params,
                fn.n_locals,
                fn.max_stack,
                fn.return_type,
                *fn.param_types,
            )
            parts.append(struct.pack(f"<{len(header)}I", *header))
            start += len(fn.code)
        parts.append(struct.pack(f"<{len(code)}I", *code))
        parts.append(
            struct.pack(f"<{len(code)}I", *(line for fn in self.functions for line in fn.lines))
        )
        hosted = [(i, fn.host_types) for i, fn in enumerate(self.functions) if fn.host_types]
        if hosted:
            parts.append(HOST_TAG + struct.pack("<I", len(hosted)))
            for i, host_types in hosted:
                words = [w for t in host_types for w in _host_descriptor(t)]
                parts.append(struct.pack(f"<II{len(words)}i", i, len(words), *words))
        body = b"".join(parts)
        return body + struct.pack("<I", zlib.crc32(body))


_ITEM_SIZE = {"I": 4, "i": 4, "q": 8}
_U32 = struct.Struct("<I")


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def take(self, n: int, what: str) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise ContainerError(
                f"truncated container: {what} needs {n} bytes at offset {self.pos}, file has {len(self.data)}"
            )
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def ints(self, fmt: str, n: int, what: str) -> tuple[int, ...]:
        size = n * _ITEM_SIZE[fmt]
        pos = self.pos
        if n < 0 or pos + size > len(self.data):
            self.take(size, what)  # raises, saying what was truncated
        self.pos = pos + size
        return struct.unpack_from(f"<{n}{fmt}", self.data, pos)

    def count(self, what: str) -> int:
        pos = self.pos
        if pos + 4 > len(self.data):
            self.take(4, what)  # raises
        self.pos = pos + 4
        (n,) = _U32.unpack_from(self.data, pos)
        if n > MAX_COUNT:
            raise ContainerError(
                f"{what} {n} at offset {self.pos - 4} exceeds the limit {MAX_COUNT}"
            )
        return n


_COUNT_NAMES = (
    "constant count", "image size", "type count", "function count", "code size", "name length",
)  # fmt: skip
_SIX = struct.Struct("<6I")
KNOWN_TYPES_KEPT = 4096
_known_types: dict[tuple[int, ...], Type] = {}
"""Type descriptors `load` decoded, the most recent KNOWN_TYPES_KEPT: programs share a handful."""


def _counts(r: _Reader) -> tuple[int, ...]:
    """The header's six counts (each `r.count`, checked in order), read in one go where they
    are all there."""
    pos = r.pos
    if pos + _SIX.size > len(r.data):
        return tuple(r.count(w) for w in _COUNT_NAMES)  # raises where truncated
    counts = _SIX.unpack_from(r.data, pos)
    for k, (n, what) in enumerate(zip(counts, _COUNT_NAMES, strict=True)):
        if n > MAX_COUNT:
            r.pos = pos + 4 * k
            r.count(what)  # raises, saying which and where
    r.pos = pos + _SIX.size
    return counts


def load(data: bytes) -> Program:
    """Parse a `.kbc` file. ContainerError on anything malformed."""
    if len(data) < len(MAGIC) + 4 or data[: len(MAGIC)] != MAGIC:
        raise ContainerError("not a kiln bytecode file (bad magic)")
    body, (crc,) = data[:-4], struct.unpack("<I", data[-4:])
    r = _Reader(body)
    r.take(len(MAGIC), "magic")
    version, isa = r.ints("I", 2, "header")
    if version != FORMAT_VERSION:
        raise ContainerError(
            f"container format version {version}, this kiln reads version {FORMAT_VERSION}"
        )
    if isa != isa_hash():
        raise ContainerError(
            f"container built for ISA 0x{isa:08x}, this kiln has ISA 0x{isa_hash():08x}: recompile it"
        )
    if zlib.crc32(body) != crc:
        raise ContainerError("checksum mismatch: the container is truncated or corrupted")
    n_consts, n_image, n_types, n_funcs, n_code, n_name = _counts(r)
    try:
        source_name = r.take(n_name, "source name").decode()
    except UnicodeDecodeError as e:
        raise ContainerError(f"source name is not UTF-8: {e}") from None
    consts = list(r.ints("q", n_consts, "constants"))
    image = list(r.ints("q", n_image, "image"))
    types = []
    for i in range(n_types):
        words = r.ints("i", r.count(f"type {i} size"), f"type {i}")
        ty = _known_types.get(words)
        if ty is None:
            try:
                ty, end = type_from_descriptor(list(words))
            except ValueError as e:
                raise ContainerError(f"type {i}: {e}") from None
            if end != len(words):
                raise ContainerError(f"type {i}: descriptor has {len(words) - end} trailing words")
            if len(_known_types) >= KNOWN_TYPES_KEPT:
                _known_types.clear()
            _known_types[words] = ty
        types.append(ty)
    headers = []
    for i in range(n_funcs):
        try:
            fname = r.take(r.count(f"function {i} name length"), f"function {i} name").decode()
        except UnicodeDecodeError as e:
            raise ContainerError(f"function {i} name is not UTF-8: {e}") from None
        start, length, n_params, n_locals, max_stack, ret = r.ints("I", 6, f"function {i} header")
        params = list(r.ints("I", n_params, f"function {i} parameter types"))
        headers.append((fname, start, length, n_params, n_locals, max_stack, ret, params))
    code = r.ints("I", n_code, "code")
    lines = r.ints("I", n_code, "line table")
    host: dict[int, list[Type]] = {}
    if r.pos < len(body) and body[r.pos : r.pos + len(HOST_TAG)] == HOST_TAG:
        r.take(len(HOST_TAG), "host types tag")
        for _ in range(r.count("host types count")):
            index, n_words = r.ints("I", 2, "host types header")
            words = list(r.ints("i", n_words, "host types"))
            if index >= n_funcs or index in host:
                raise ContainerError(
                    f"host types name function {index} (of {n_funcs}) again or out of range"
                )
            try:
                host[index] = _from_host_descriptor(words, headers[index][3] + 1)
            except ValueError as e:
                raise ContainerError(f"host types of function {index}: {e}") from None
            table = [
                types[t] if t < n_types else None for t in [*headers[index][7], headers[index][6]]
            ]
            if [runtime_type(t) for t in host[index]] != table:
                raise ContainerError(f"host types of function {index} differ from its type table's")
    if r.pos != len(body):
        raise ContainerError(f"{len(body) - r.pos} unexpected bytes after the line table")
    functions = []
    for i, (fname, start, length, _, n_locals, max_stack, ret, params) in enumerate(headers):
        if start + length > n_code:
            raise ContainerError(
                f"function {i} ({fname}) code [{start}, {start + length}) is outside the code section ({n_code} words)"
            )
        functions.append(
            Function(
                fname,
                params,
                ret,
                n_locals,
                max_stack,
                list(code[start : start + length]),
                list(lines[start : start + length]),
                host.get(i),
            )
        )
    return Program(functions, consts, image, types, source_name)


def _host_descriptor(t: Type) -> list[int]:
    """A type table descriptor (vm.values.Type.descriptor), with VTUPLE_CODE for tuple[T, ...]."""
    if t.kind == "vtuple":
        return [VTUPLE_CODE, *_host_descriptor(t.args[0])]
    words = [TYPE_CODES[t.kind], *([len(t.args)] if t.kind in ("tuple", "union") else [])]
    for arg in t.args:
        words += _host_descriptor(arg)
    return words


def _from_host_descriptor(words: list[int], count: int) -> list[Type]:
    """`count` types read from host descriptors that use every word; ValueError if malformed."""
    pos = 0

    def one(depth: int) -> Type:
        nonlocal pos
        if pos >= len(words):
            raise ValueError("truncated host descriptor")
        if depth > MAX_TYPE_DEPTH:
            raise ValueError(f"host descriptor nests deeper than {MAX_TYPE_DEPTH}")
        code, pos = words[pos], pos + 1
        if code == VTUPLE_CODE:
            return vtuple_of(one(depth + 1))
        kind = next((k for k, c in TYPE_CODES.items() if c == code), None)
        if kind is None:
            raise ValueError(f"unknown type code {code}")
        if kind in ("tuple", "union"):
            if pos >= len(words) or not 0 <= words[pos] <= 255:
                raise ValueError("bad arity in host descriptor")
            n, pos = words[pos], pos + 1
        else:
            n = 1 if kind in ("list", "optional") else 0
        return Type(kind, tuple(one(depth + 1) for _ in range(n)))

    types = [one(0) for _ in range(count)]
    if pos != len(words):
        raise ValueError("trailing words")
    return types
