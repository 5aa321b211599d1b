"""The target grammar: which token may come next, and the `Program` the tokens spell.

One definition serves two uses: `parse_tokens` (target tokens -> Program, for round trips and
for turning samples into programs) and the constrained sampler in `neural.decode`, which asks
`TargetBuilder.allowed()` before every token and so can only emit well-formed bytecode.

The rules come from `vm.isa` (operand kinds, stack effects, loop steps followed by their JUMP)
and `vm.verify` (what the verifier checks), and are written as one generator (`_grammar`) that
yields the mask of allowed tokens and receives the chosen one. Inside a function it tracks the
operand-stack depth before every instruction with the ISA's stack effects, so a sample never
underflows the stack, never reaches an instruction at two depths, returns at depth 1, never
jumps out of range and never runs off the end of its code; `max_stack` is then computed by the
verifier's own `max_depth`. Limits the sampler keeps (so every prefix can be completed): at most
`MAX_FUNCTIONS` functions, `max_fn_len` instructions each, stack depth `MAX_DEPTH`, strings of
`MAX_STR` characters.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from neural.tokens import (
    BOS,
    EOS,
    HEX,
    MAX_IDS,
    NMAX,
    TARGET_INDEX,
    TARGET_VOCAB,
    UNICODE_DIGITS,
)
from vm.container import Function, Program
from vm.isa import (
    BY_NAME,
    IMM_MAX,
    IMM_MIN,
    LOOP_STATE_SLOTS,
    OPS,
    TRAPS,
    TYPE_CODES,
    Op,
    encode,
    local2,
)
from vm.values import INT64_MAX, INT64_MIN, Type, float_bits, type_from_descriptor
from vm.verify import TYPE_OPERAND_KINDS, max_depth

MAX_FUNCTIONS = 8
MAX_PARAMS = 8
MAX_LOCALS = NMAX - 1
MAX_DEPTH = 32
MAX_STR = 40
MAX_TUPLE = 8
MAX_INT_CHARS = 20
MAX_FLOAT_CHARS = 24

V = len(TARGET_VOCAB)
_N = np.array([TARGET_INDEX[f"N{i}"] for i in range(NMAX)])
_DIGIT = {TARGET_INDEX["c:" + d]: int(d) for d in "0123456789"}
_HEXTOK = {TARGET_INDEX["c:" + d]: int(d, 16) for d in HEX}
_CHAR_TOKENS = [i for t, i in TARGET_INDEX.items() if t.startswith("c:")]
_OP_TOKEN = {op.code: TARGET_INDEX["op:" + op.name] for op in OPS}
_TOKEN_OP = {t: OPS[c] for c, t in _OP_TOKEN.items()}
_KIND_CODE = {code: kind for kind, code in TYPE_CODES.items()}


def tok(name: str) -> int:
    return TARGET_INDEX[name]


def mask_of(ids: Iterable[int] | np.ndarray) -> np.ndarray:
    m = np.zeros(V, dtype=bool)
    m[np.asarray(ids if isinstance(ids, np.ndarray) else list(ids), dtype=np.int64)] = True
    return m


class GrammarError(ValueError):
    """Tokens that do not spell a well-formed program."""


@dataclass
class _Tables:
    consts: list[int] = field(default_factory=list)
    image: list[int] = field(default_factory=list)
    types: list[Type] = field(default_factory=list)
    # How far the program is from its end, for the sampler's length budget (`reserve`).
    functions_left: int = 1  # signatures to finish plus bodies to write
    pending: int = 0  # instructions between the current one and the furthest jump target
    budget: int = 1 << 30  # tokens left before the sampler's length limit

    def reserve(self, pending: int | None = None) -> int:
        """Tokens that finishing needs at most (a generous bound): a few per function left and
        two per instruction up to the furthest jump target."""
        return (
            8 * self.functions_left + 2 * max(0, self.pending if pending is None else pending) + 48
        )

    def const(self, word: int) -> int:
        if word not in self.consts:
            self.consts.append(word)
        return self.consts.index(word)

    def string(self, s: str) -> int:
        address = 0
        while address < len(self.image):
            n = self.image[address]
            if self.image[address + 1 : address + 1 + n] == [ord(c) for c in s] and n == len(s):
                return address
            address += 1 + n
        self.image += [len(s), *map(ord, s)]
        return address

    def type(self, t: Type) -> int:
        if t not in self.types:
            self.types.append(t)
        return self.types.index(t)


Grammar = Generator[np.ndarray, int, Any]


def _number(allowed: Callable[[int], bool], hi: int, big: bool = False) -> Grammar:
    """A number in [0, hi] for which `allowed(n)` holds: an N token, or (when `big`) `<big>`
    digits `<end>` for values from NMAX up to hi."""
    ok = [i for i in range(min(hi, NMAX - 1) + 1) if allowed(i)]
    ids = list(_N[ok]) + ([tok("<big>")] if big and hi >= NMAX else [])
    t = yield mask_of(ids)
    if t != tok("<big>"):
        return _n_value(t)
    return (yield from _big_digits(allowed, hi))


def _n_value(t: int) -> int:
    return int(TARGET_VOCAB[t][1:])


def _big_digits(allowed: Callable[[int], bool], hi: int) -> Grammar:
    """The digits after `<big>`, up to `<end>`: a value in [NMAX, hi] with no leading zero (so
    every prefix can be completed)."""
    value, digits = 0, 0
    while True:
        ids = [d for d, v in _DIGIT.items() if value * 10 + v <= hi and (digits or v)]
        if value >= NMAX and allowed(value):
            ids.append(tok("<end>"))
        t = yield mask_of(ids)
        if t == tok("<end>"):
            return value
        value, digits = value * 10 + _DIGIT[t], digits + 1


# the kinds a generated type may have: a union's alternatives must be distinct kinds in order,
# which this grammar does not track, so the model spells no union (it boxes no value either)
_GRAMMAR_KINDS = tuple(k for k in TYPE_CODES if k != "union")


def _kind_in(kinds: tuple[str, ...], word: int) -> bool:
    return word in _KIND_CODE and _KIND_CODE[word] in kinds


def _type(first_kinds: tuple[str, ...] | None = None) -> Grammar:
    """A type spelled as its descriptor words (N tokens)."""
    words: list[int] = []
    pending = 1
    while pending:
        kinds = first_kinds if not words and first_kinds else _GRAMMAR_KINDS
        w = yield from _number(functools.partial(_kind_in, kinds), NMAX - 1)
        words.append(w)
        pending -= 1
        if _KIND_CODE[w] in ("list", "optional"):  # one element type follows
            pending += 1
        elif _KIND_CODE[w] == "tuple":
            arity = yield from _number(lambda n: 0 <= n <= MAX_TUPLE, MAX_TUPLE)
            words.append(arity)
            pending += arity
    return type_from_descriptor(words)[0]


def _chars(limit: int) -> Grammar:
    """Characters up to `<end>`: a string constant's value."""
    out: list[str] = []
    while True:
        ids = [tok("<end>")] + (_CHAR_TOKENS + [tok("<u>")] if len(out) < limit else [])
        t = yield mask_of(ids)
        if t == tok("<end>"):
            return "".join(out)
        if t != tok("<u>"):
            out.append(TARGET_VOCAB[t][2:])
            continue
        cp = 0
        for i in range(UNICODE_DIGITS):
            ok = [
                h
                for h, v in _HEXTOK.items()
                if (cp * 16 + v) * 16 ** (UNICODE_DIGITS - 1 - i) < 0x110000
            ]
            t = yield mask_of(ok)
            cp = cp * 16 + _HEXTOK[t]
        out.append(chr(cp))


def _const() -> Grammar:
    """`<int> [-]digits <end>` or `<float> text <end>`: the constant word."""
    t = yield mask_of([tok("<int>"), tok("<float>")])
    text = ""
    if t == tok("<int>"):
        while True:
            digits = text.lstrip("-")
            ids = []
            if not text:
                ids.append(tok("c:-"))
            if digits != "0" and len(text) < MAX_INT_CHARS:
                ids += [
                    d for d, v in _DIGIT.items() if INT64_MIN <= int(text + str(v)) <= INT64_MAX
                ]
            if digits:
                ids.append(tok("<end>"))
            t = yield mask_of(ids)
            if t == tok("<end>"):
                return int(text)
            text += TARGET_VOCAB[t][2:]
    while True:  # a float: [-] mantissa [e [-|+] at most 2 digits]; always finite
        mantissa, _, exponent = text.partition("e")
        has_e = "e" in text
        last_digit = text[-1:].isdigit()
        ids = []
        exp_digits = len(exponent.lstrip("+-"))
        if not has_e or exp_digits < 2:
            ids += list(_DIGIT) if len(text) < MAX_FLOAT_CHARS + 2 else []
        if len(text) < MAX_FLOAT_CHARS:
            if text in ("",) or (has_e and exponent == ""):
                ids.append(tok("c:-"))
            if has_e and exponent == "":
                ids.append(tok("c:+"))
            if not has_e and "." not in text:
                ids.append(tok("c:."))
            if not has_e and any(c.isdigit() for c in mantissa) and last_digit:
                ids.append(tok("c:e"))
        if last_digit or text.endswith("."):
            if any(c.isdigit() for c in mantissa) and (not has_e or exp_digits):
                ids.append(tok("<end>"))
        t = yield mask_of(ids)
        if t == tok("<end>"):
            return float_bits(float(text))
        text += TARGET_VOCAB[t][2:]


@dataclass
class _Sig:
    name: int
    params: list[Type]
    ret: Type


def _grammar(
    n_names: int, max_fn_len: int, tables: _Tables, out: list[Function], names: list[str]
) -> Grammar:
    t = yield mask_of([BOS])
    sigs: list[_Sig] = []
    while True:  # signatures
        ids = [tok("<sig>")] if len(sigs) < min(MAX_FUNCTIONS, n_names, MAX_IDS) else []
        if sigs:
            ids.append(tok("<code>"))
        t = yield mask_of(ids)
        if t == tok("<code>"):
            break
        used = {s.name for s in sigs}
        t = yield mask_of([tok(f"ID{k}") for k in range(min(n_names, MAX_IDS)) if k not in used])
        name = int(TARGET_VOCAB[t][2:])
        n_params = yield from _number(lambda n: True, MAX_PARAMS)
        params = []
        for _ in range(n_params):
            params.append((yield from _type()))
        ret = yield from _type()
        sigs.append(_Sig(name, params, ret))
        tables.functions_left = len(sigs) + 1
    callee_params = [len(s.params) for s in sigs]
    for done, sig in enumerate(sigs):
        tables.functions_left = len(sigs) - done
        yield mask_of([tok("<fn>")])
        n_params = len(sig.params)
        n_locals = yield from _number(functools.partial(operator.le, n_params), MAX_LOCALS)
        code = yield from _function(n_locals, callee_params, max_fn_len, tables)
        out.append(
            Function(
                names[sig.name] if sig.name < len(names) else f"f{sig.name}",
                [tables.type(p) for p in sig.params],
                tables.type(sig.ret),
                n_locals,
                0,
                code,
                [0] * len(code),
            )
        )
    yield mask_of([EOS])
    return None


def _function(n_locals: int, callee_params: list[int], max_fn_len: int, tables: _Tables) -> Grammar:
    """One function body: instructions up to `<endfn>`, stack depths tracked (module docstring).

    Every instruction gets a depth: the one its predecessor falls through with, the one a
    forward jump requires of it, or, after a JUMP/RET/RAISE with no jump into it yet, the depth
    that instruction left (code laid out before the backward jump that enters it, as loops are).
    """
    code: list[int] = []
    known: list[int] = []  # depth before each instruction
    req: dict[int, int] = {}  # depth required at a later instruction (forward jumps)
    depth = 0  # before the next instruction
    ended = False  # the last instruction does not fall through
    max_target = -1
    last = max_fn_len - 1  # the last instruction index
    while True:
        pc = len(code)
        tables.pending = max([max_target, *req]) - pc if req or max_target >= 0 else 0
        if ended:
            depth = req.get(pc, depth)
        need_next = req.get(pc + 1)
        if code and OPS[code[-1] & 0xFF].guards_jump:
            mask = mask_of([_OP_TOKEN[BY_NAME["JUMP"].code]])
        else:
            mask = _simple_ops_mask(depth, need_next, req.get(pc + 2), pc, last, n_locals).copy()
            for op in _SPECIAL_OPS:
                if _op_possible(
                    tables, op, depth, pc, last, need_next, req, known, n_locals, callee_params
                ):
                    mask[_OP_TOKEN[op.code]] = True
        if ended and max_target < pc and all(p < pc for p in req):
            mask[tok("<endfn>")] = True
        t = yield mask
        if t == tok("<endfn>"):
            return code
        op = _TOKEN_OP[t]
        after_ok = _after_check(op, pc, need_next, req)
        operand = yield from _operand(
            op, depth, pc, last, n_locals, callee_params, req, known, after_ok, tables
        )
        pops, pushes = _effect(op, operand, callee_params)
        after = depth - pops + pushes
        known.append(depth)
        code.append(encode(op, operand))
        if op.is_jump:
            max_target = max(max_target, operand)
            if operand > pc:
                req[operand] = after
        if op.guards_jump:
            req[pc + 2] = after
        depth, ended = after, op.ends_block


# Opcodes whose possibility depends only on a few numbers (fixed stack effects, no jump): their
# masks are cached by those numbers; the rest are checked one by one.
_SIMPLE_OPS = [
    op for op in OPS if isinstance(op.pops, int) and isinstance(op.pushes, int) and not op.is_jump
]
_SPECIAL_OPS = [op for op in OPS if op not in _SIMPLE_OPS]
_MAX_SLOTS = max(LOOP_STATE_SLOTS.values())
_SIMPLE_CACHE: dict[tuple[int, int | None, int | None, bool, bool, int], np.ndarray] = {}


def _simple_ops_mask(
    depth: int, need_next: int | None, need_after: int | None, pc: int, last: int, n_locals: int
) -> np.ndarray:
    key = (depth, need_next, need_after, pc + 1 > last, pc + 2 > last, min(n_locals, _MAX_SLOTS))
    mask = _SIMPLE_CACHE.get(key)
    if mask is None:
        req = {} if need_after is None else {pc + 2: need_after}
        if need_next is not None:
            req[pc + 1] = need_next
        unused = _Tables()
        mask = mask_of(
            _OP_TOKEN[op.code]
            for op in _SIMPLE_OPS
            if _op_possible(unused, op, depth, pc, last, need_next, req, [], key[5], [])
        )
        _SIMPLE_CACHE[key] = mask
    return mask


def _effect(op: Op, operand: int, callee_params: list[int]) -> tuple[int, int]:
    from vm.isa import stack_effect

    return stack_effect(op, operand, lambda f: callee_params[f])


def _after_check(
    op: Op, pc: int, need_next: int | None, req: dict[int, int]
) -> Callable[[int], bool]:
    """A predicate on the depth after `op`: it must meet what later instructions require."""

    def ok(after: int) -> bool:
        if after > MAX_DEPTH:
            return False
        if not op.ends_block and need_next is not None and after != need_next:
            return False
        if op.guards_jump and req.get(pc + 2, after) != after:
            return False
        return True

    return ok


def _op_possible(
    tables: _Tables,
    op: Op,
    depth: int,
    pc: int,
    last: int,
    need_next: int | None,
    req: dict[int, int],
    known: list[int],
    n_locals: int,
    callee_params: list[int],
) -> bool:
    if not op.ends_block and pc + 1 > last:
        return False
    if op.guards_jump and (pc + 2 > last or n_locals < LOOP_STATE_SLOTS[op.name]):
        return False
    if op.operand in ("local", "local2") and n_locals == 0:
        return False
    if op.name == "RET" and depth != 1:
        return False
    ok = _after_check(op, pc, need_next, req)
    if op.pops == "call":
        return any(p <= depth and ok(depth - p + 1) for p in callee_params)
    if op.pops == "n" or op.pushes == "n":
        return any(ok(a) for a in _variable_afters(op, depth))
    assert isinstance(op.pops, int) and isinstance(op.pushes, int)
    if op.pops > depth:
        return False
    after = depth - op.pops + op.pushes
    if not ok(after):
        return False
    if op.is_jump:
        return _has_target(tables, depth, after, pc, last, req, known)
    return True


def _variable_afters(op: Op, depth: int) -> list[int]:
    if op.operand == "slice":
        return [
            depth - (1 + flags.bit_count()) + 1
            for flags in range(8)
            if 1 + flags.bit_count() <= depth
        ]
    if op.pops == "n":  # LIST_NEW, TUPLE_NEW
        return [
            depth - n + 1
            for n in range(min(depth, MAX_TUPLE if op.name == "TUPLE_NEW" else depth) + 1)
        ]
    if depth < 1:
        return []
    return [depth - 1 + n for n in range(MAX_TUPLE + 1)]  # UNPACK_*


def _target_ok(
    tables: _Tables,
    t: int,
    depth: int,
    after: int,
    pc: int,
    last: int,
    req: dict[int, int],
    known: list[int],
    slack: int = 0,
) -> bool:
    """May a jump at `pc` (stack `depth` before, `after` after it) go to `t`? `slack`: tokens
    that will be spent before the target is chosen (the opcode's own, when asked ahead)."""
    if not 0 <= t <= last:
        return False
    if t < pc:
        return known[t] == after
    if t == pc:
        return depth == after  # a jump to itself
    return req.get(t, after) == after and tables.reserve(t - pc) < tables.budget - slack


def _has_target(
    tables: _Tables,
    depth: int,
    after: int,
    pc: int,
    last: int,
    req: dict[int, int],
    known: list[int],
) -> bool:
    # Exactly the targets `_target_ok` accepts (a looser test here offers a jump that then has
    # no allowed target: a dead end for the sampler).
    if depth == after and pc <= last:
        return True
    if any(known[t] == after for t in range(min(pc, last + 1, len(known)))):
        return True
    return any(
        _target_ok(tables, t, depth, after, pc, last, req, known, slack=1)
        for t in range(pc + 1, last + 1)
    )


def _operand(
    op: Op,
    depth: int,
    pc: int,
    last: int,
    n_locals: int,
    callee_params: list[int],
    req: dict[int, int],
    known: list[int],
    after_ok: Callable[[int], bool],
    tables: _Tables,
) -> Grammar:
    kind = op.operand
    if kind == "none":
        return 0
    if kind == "imm":
        t = yield mask_of(list(_N) + [tok("<big>"), tok("-")])
        sign = 1
        if t == tok("-"):
            sign = -1
            t = yield mask_of(list(_N[1:]) + [tok("<big>")])
        if t != tok("<big>"):
            return sign * _n_value(t)
        return sign * (yield from _big_digits(lambda n: True, IMM_MAX if sign > 0 else -IMM_MIN))
    if kind == "const":
        return tables.const((yield from _const()))
    if kind == "str":
        yield mask_of([tok("<s>")])
        return tables.string((yield from _chars(MAX_STR)))
    if kind == "type":
        return tables.type((yield from _type(TYPE_OPERAND_KINDS.get(op.name))))
    if kind == "local":
        return (yield from _number(lambda n: n < n_locals, n_locals - 1))
    if kind == "local2":
        slots = LOOP_STATE_SLOTS.get(op.name, 1)
        a = yield from _number(lambda n: n < n_locals, n_locals - 1)
        b = yield from _number(lambda n: n + slots <= n_locals, n_locals - slots)
        return local2(a, b)
    if kind == "jump":
        after = depth - int(op.pops)  # jumps push nothing
        return (
            yield from _number(
                lambda n: _target_ok(tables, n, depth, after, pc, last, req, known),
                last,
                big=True,
            )
        )
    if kind == "func":
        ok = {f for f, p in enumerate(callee_params) if p <= depth and after_ok(depth - p + 1)}
        return (yield from _number(lambda n: n in ok, len(callee_params) - 1))
    if kind == "trap":
        return (yield from _number(lambda n: 0 < n < len(TRAPS), len(TRAPS) - 1))
    if kind == "slice":
        return (
            yield from _number(
                lambda n: n < 8 and 1 + n.bit_count() <= depth and after_ok(depth - n.bit_count()),
                7,
            )
        )
    if kind == "count":
        limit = 254 if op.name == "TUPLE_GET" else (MAX_TUPLE if "TUPLE" in op.name else NMAX - 1)
        if op.pops == "n":
            return (
                yield from _number(
                    lambda n: n <= limit and (n <= depth and after_ok(depth - n + 1)),
                    limit,
                )
            )
        if op.pushes == "n":
            return (
                yield from _number(
                    lambda n: n <= MAX_TUPLE and after_ok(depth - 1 + n),
                    MAX_TUPLE,
                )
            )
        return (yield from _number(lambda n: n <= limit, limit))
    raise AssertionError(
        f"operand kind {kind!r} of {op.name} has no grammar: add it to neural/grammar.py"
    )


_FINISH_ORDER = [
    tok(t)
    for t in ["<end>", "<eos>", "<endfn>", "<code>"]
    + [
        "op:" + op.name
        for op in sorted(OPS, key=lambda op: (op.is_jump, str(op.pops)))
        if op.ends_block
    ]
    + ["<fn>"]
    + [f"N{i}" for i in range(NMAX)]
]


class TargetBuilder:
    """Feeds target tokens through the grammar. `allowed()` is the mask for the next token;
    `push(t)` takes one (GrammarError if not allowed); `program()` once `done`."""

    def __init__(
        self, names: list[str], max_fn_len: int = NMAX - 1, max_tokens: int = 1 << 30
    ) -> None:
        self.names = names
        self.max_tokens = max_tokens
        self.tables = _Tables()
        self.functions: list[Function] = []
        self._gen = _grammar(len(names), max_fn_len, self.tables, self.functions, names)
        self._mask: np.ndarray | None = next(self._gen)
        self.done = False
        self.length = 0

    def reserve(self) -> int:
        """Tokens `finishing_token` needs at most to end the program."""
        return self.tables.reserve()

    def finishing_token(self) -> int:
        """The allowed token that brings the end closest: the sampler's choice once the length
        budget runs low (ends literals and functions, RAISE ends a block in one instruction)."""
        mask = self.allowed()
        for t in _FINISH_ORDER:
            if mask[t]:
                return int(t)
        return int(np.flatnonzero(mask)[0])

    def allowed(self) -> np.ndarray:
        if self._mask is None:
            return mask_of([])
        return self._mask

    def push(self, t: int) -> None:
        if self._mask is None or not 0 <= t < V or not self._mask[t]:
            shown = TARGET_VOCAB[t] if 0 <= t < V else t
            raise GrammarError(f"token {self.length} ({shown}) is not allowed here")
        self.length += 1
        self.tables.budget = self.max_tokens - self.length
        try:
            self._mask = self._gen.send(t)
        except StopIteration:
            self._mask = None
            self.done = True

    def program(self, source_name: str = "<neural>") -> Program:
        if not self.done:
            raise GrammarError("the tokens end before the program does")
        program = Program(
            list(self.functions),
            list(self.tables.consts),
            list(self.tables.image),
            list(self.tables.types),
            source_name,
        )
        for i, fn in enumerate(program.functions):
            fn.max_stack = max_depth(program, i)
        return program


def parse_tokens(
    tokens: Sequence[int] | Sequence[str], names: list[str], max_tokens: int | None = None
) -> Program:
    """Target tokens (ids or strings, from <bos> to <eos>) -> Program. GrammarError if malformed.
    With `max_tokens`, also within the sampler's limits (functions of at most NMAX - 1
    instructions, forward jumps that fit the token budget)."""
    if max_tokens is None:
        builder = TargetBuilder(names, max_fn_len=1 << 16)
    else:
        builder = TargetBuilder(names, max_tokens=max_tokens)
    for t in tokens:
        builder.push(TARGET_INDEX[t] if isinstance(t, str) else t)
    return builder.program()
