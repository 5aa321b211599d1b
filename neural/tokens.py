"""Tokens: kiln Python source -> source tokens, and a `Program` <-> target tokens.

Source side (`tokenize_source`): CPython's `tokenize`; identifiers that are not keywords,
builtins or attribute names are normalised to `ID0, ID1, ...` in order of first appearance (the
`names` list maps them back); number literals are spelled character by character between
`<num>` and `<end>`, string literals by their value between `<s>` and `<end>` (characters
outside ASCII as `<u>` and six hex digits), so the decoder can copy them. The source vocabulary
(`SourceVocab`) is built from the training corpus and saved in the checkpoint.

Target side: the vocabulary is DERIVED from `vm.isa` at import (one token per opcode, so a
changed ISA changes it; checkpoints record `vm.isa.isa_hash()`). A program is written as

    <bos>
    <sig> ID_k n_params type* type       one per function: name, parameters, return type
    <code>
    <fn> n_locals instr* <endfn>         one per function, in signature order
    <eos>

where an instruction is `op:NAME` and its operand, spelled by kind: numbers (local, jump, func,
count, slice, trap, n_locals) as `N0..N255` or `<big> digits <end>`, `imm` the same with an
optional `-`; `const` the constant's value (`<int> -12 <end>` or `<float> 2.5 <end>`); `str`
the string (`<s> chars <end>`); `type` the type's descriptor words (`vm.values.Type.descriptor`)
as N tokens. Constant pool, string image and type table are rebuilt from the values by
`neural.grammar` (which parses target tokens and constrains the sampler with the same rules).
"""

from __future__ import annotations

import ast
import builtins
import io
import keyword
import math
import tokenize
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from vm.container import Program
from vm.isa import OPS, decode, split_local2
from vm.values import bits_float, float_bits

NMAX = 256  # numbers below this are one token
MAX_IDS = 64  # distinct normalised identifiers
SPECIAL = ["<pad>", "<bos>", "<eos>", "<unk>"]
PAD, BOS, EOS, UNK = range(4)
STRUCTURE = [
    "<sig>",
    "<code>",
    "<fn>",
    "<endfn>",
    "<int>",
    "<float>",
    "<s>",
    "<end>",
    "<big>",
    "<u>",
    "-",
]
CHARS = [chr(c) for c in range(32, 127)] + ["\t", "\n"]
HEX = "0123456789abcdef"
UNICODE_DIGITS = 6  # <u> is followed by this many hex digits


def char_tokens(text: str) -> list[str]:
    """A string as character tokens (`c:x`), characters outside CHARS as `<u>` + 6 hex digits."""
    out: list[str] = []
    for ch in text:
        if ch in _CHARSET:
            out.append("c:" + ch)
        else:
            out += ["<u>", *("c:" + d for d in f"{ord(ch):06x}")]
    return out


_CHARSET = frozenset(CHARS)


def number_tokens(n: int) -> list[str]:
    """A non-negative number: one N token, or `<big>` digits `<end>`."""
    assert n >= 0
    return [f"N{n}"] if n < NMAX else ["<big>", *char_tokens(str(n)), "<end>"]


# ---- target vocabulary (derived from vm.isa) ---------------------------------------------------


def target_vocab() -> list[str]:
    return (
        SPECIAL
        + STRUCTURE
        + [f"N{i}" for i in range(NMAX)]
        + [f"ID{i}" for i in range(MAX_IDS)]
        + ["c:" + c for c in CHARS]
        + ["op:" + op.name for op in OPS]
    )


TARGET_VOCAB: list[str] = target_vocab()
TARGET_INDEX: dict[str, int] = {t: i for i, t in enumerate(TARGET_VOCAB)}


# ---- source side ---------------------------------------------------------------------------------

_KEEP = frozenset(keyword.kwlist) | frozenset(n for n in dir(builtins) if not n.startswith("_"))


@dataclass
class SourceTokens:
    tokens: list[str]
    names: list[str]  # names[k] is the identifier normalised to ID{k}


def tokenize_source(source: str) -> SourceTokens:
    """Source tokens with identifiers normalised (module docstring). SyntaxError if it does not
    tokenize."""
    out: list[str] = []
    names: dict[str, int] = {}
    previous = ""
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError) as e:
        raise SyntaxError(f"cannot tokenize: {e}") from None
    for tok in toks:
        kind, text = tok.type, tok.string
        if kind in (tokenize.ENCODING, tokenize.NL, tokenize.COMMENT, tokenize.ENDMARKER):
            continue
        if kind == tokenize.NEWLINE:
            out.append("<nl>")
        elif kind == tokenize.INDENT:
            out.append("<indent>")
        elif kind == tokenize.DEDENT:
            out.append("<dedent>")
        elif kind == tokenize.NAME:
            if text in _KEEP or previous == ".":
                out.append(text)
            else:
                k = names.setdefault(text, len(names))
                out.append(f"ID{k}" if k < MAX_IDS else "<unk>")
        elif kind == tokenize.NUMBER:
            out += ["<num>", *char_tokens(text), "<end>"]
        elif kind == tokenize.STRING:
            value = ast.literal_eval(text)
            out += ["<s>", *char_tokens(value if isinstance(value, str) else repr(value)), "<end>"]
        else:
            out.append(text)
        previous = text
    return SourceTokens(out, list(names))


@dataclass
class SourceVocab:
    tokens: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.index = {t: i for i, t in enumerate(self.tokens)}

    @classmethod
    def build(cls, corpus: Iterable[Sequence[str]]) -> SourceVocab:
        fixed = SPECIAL + ["<num>", "<s>", "<end>", "<u>", "<nl>", "<indent>", "<dedent>"]
        fixed += [f"ID{i}" for i in range(MAX_IDS)] + ["c:" + c for c in CHARS]
        seen = set(fixed)
        extra = sorted({t for toks in corpus for t in toks if t not in seen})
        return cls(fixed + extra)

    def ids(self, tokens: Sequence[str]) -> list[int]:
        return [self.index.get(t, UNK) for t in tokens]


# ---- Program -> target tokens ------------------------------------------------------------------


class NotRepresentable(ValueError):
    """A program the target grammar cannot spell (too many identifiers, an odd constant)."""


def const_tokens(word: int) -> list[str]:
    """A constant-pool word by its value: a float if it reads as a short float, else an int."""
    if abs(word) >= 1 << 48:
        x = bits_float(word)
        text = repr(x)
        if math.isfinite(x) and len(text) <= 24 and float_bits(float(text)) == word:
            return ["<float>", *char_tokens(text), "<end>"]
    return ["<int>", *char_tokens(str(word)), "<end>"]


def program_to_tokens(program: Program, names: Sequence[str]) -> list[str]:
    """The target tokens of a compiled program; `names` from `tokenize_source` of its source."""
    index = {n: i for i, n in enumerate(names)}
    strings = _image_strings(program.image)
    out = ["<bos>"]
    for fn in program.functions:
        if index.get(fn.name, MAX_IDS) >= MAX_IDS:
            raise NotRepresentable(f"function name {fn.name!r} is not a normalised identifier")
        out += ["<sig>", f"ID{index[fn.name]}", *number_tokens(fn.n_params)]
        for t in [*fn.param_types, fn.return_type]:
            out += [f"N{w}" for w in program.types[t].descriptor()]
    out.append("<code>")
    for fn in program.functions:
        out += ["<fn>", *number_tokens(fn.n_locals)]
        for word in fn.code:
            code, operand = decode(word)
            op = OPS[code]
            out.append("op:" + op.name)
            kind = op.operand
            if kind == "none":
                continue
            if kind == "imm":
                out += (["-"] if operand < 0 else []) + number_tokens(abs(operand))
            elif kind == "local2":
                a, b = split_local2(operand)
                out += number_tokens(a) + number_tokens(b)
            elif kind == "const":
                out += const_tokens(program.consts[operand])
            elif kind == "str":
                out += ["<s>", *char_tokens(strings[operand]), "<end>"]
            elif kind == "type":
                out += [f"N{w}" for w in program.types[operand].descriptor()]
            else:
                out += number_tokens(operand)
        out.append("<endfn>")
    out.append("<eos>")
    bad = [t for t in out if t not in TARGET_INDEX]
    if bad:
        raise NotRepresentable(f"tokens outside the target vocabulary: {bad[:3]}")
    return out


def _image_strings(image: list[int]) -> dict[int, str]:
    from vm.verify import image_strings

    return image_strings(image)
