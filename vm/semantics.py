"""Pure-Python meaning of the scalar instructions, shared by constant folding and checked by tests.

Each function takes and returns Python values (int for int/bool, float for float) and raises
`Trap(name)` exactly where the VM traps. The meanings come straight from Python's own operators;
the only additions are kiln's: the 64-bit range (`Overflow`) and the cases kiln leaves to the
CPython fallback (`Unsupported`).
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable
from typing import Any

from vm.values import INT64_MAX, INT64_MIN

EXACT_FLOAT_INT = 1 << 53


class Trap(Exception):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def checked(value: int) -> int:
    if not INT64_MIN <= value <= INT64_MAX:
        raise Trap("Overflow")
    return value


def _python(op: Callable[[float, float], float]) -> Callable[[float, float], float]:
    """Python's float operator, its exceptions turned into traps."""

    def run(a: float, b: float) -> float:
        try:
            result = op(a, b)
        except ZeroDivisionError:
            raise Trap("ZeroDivisionError") from None
        except OverflowError:
            raise Trap("OverflowError") from None
        if isinstance(result, complex):
            raise Trap("Unsupported")
        return float(result)

    return run


def pow_f(x: float, y: float) -> float:
    # a negative base to a finite non-integer power is complex in Python (whatever its size)
    if x < 0 and math.isfinite(x) and math.isfinite(y) and y != math.floor(y):
        raise Trap("Unsupported")
    return _python(lambda a, b: a**b)(x, y)


def floordiv_i(a: int, b: int) -> int:
    if b == 0:
        raise Trap("ZeroDivisionError")
    return checked(a // b)


def mod_i(a: int, b: int) -> int:
    if b == 0:
        raise Trap("ZeroDivisionError")
    return a % b


def pow_i(a: int, b: int) -> int:
    if b < 0:
        raise Trap("Unsupported")
    # by squaring, so a huge exponent of a small base stops at the first product past 64 bits
    result, base = 1, a
    while b:
        if b & 1:
            result = checked(result * base)
        b >>= 1
        if b:
            base = checked(base * base)
    return result


def div_i(a: int, b: int) -> float:
    if b == 0:
        raise Trap("ZeroDivisionError")
    if abs(a) > EXACT_FLOAT_INT or abs(b) > EXACT_FLOAT_INT:
        raise Trap("Unsupported")
    return a / b


def shl_i(a: int, b: int) -> int:
    if b < 0:
        raise Trap("ValueError")
    if a == 0:
        return 0
    if b >= 64:
        raise Trap("Overflow")
    return checked(a << b)


def shr_i(a: int, b: int) -> int:
    if b < 0:
        raise Trap("ValueError")
    return a >> min(b, 64)


def i2f_exact(a: int) -> float:
    if abs(a) > EXACT_FLOAT_INT:
        raise Trap("Unsupported")
    return float(a)


def f2i(x: float) -> int:
    if math.isnan(x):
        raise Trap("ValueError")
    if math.isinf(x):
        raise Trap("OverflowError")
    return checked(int(x))


def sqrt_f(x: float) -> float:
    if x < 0:
        raise Trap("ValueError")
    return math.sqrt(x)


def floor_f(x: float) -> float:
    """C's floor: infinities, NaN and zeros are themselves."""
    if not math.isfinite(x) or x == 0:
        return x
    return float(math.floor(x))


def ceil_f(x: float) -> float:
    """C's ceil: a result of zero from a negative x is -0.0."""
    if not math.isfinite(x) or x == 0:
        return x
    r = float(math.ceil(x))
    return -0.0 if r == 0 and x < 0 else r


def round_f(x: float) -> float:
    """CPython's float.__round__(None) before the int conversion: round half to even, the sign
    of a zero result taken from x (as C's round gives it)."""
    if not math.isfinite(x):
        return x
    r = float(round(x))
    return math.copysign(0.0, x) if r == 0 else r


def round_f_n(x: float, n: int) -> float:
    """CPython's round(x, n) of a float x and an int n, as the VMs compute it exactly: x is
    m * 2**e (m < 2**53); m * 5**n / 2**(-e - n) rounded to an int q, halves to even, and q
    divided by 10**n in one correctly rounded division is the float nearest the decimal CPython
    rounds to. Unsupported where that is not exact: n < 0, n > 22, q of 53 bits or more."""
    if not math.isfinite(x) or x == 0.0:
        return x
    if n < 0:
        raise Trap("Unsupported")
    f, exp = math.frexp(abs(x))
    m, e = int(math.ldexp(f, 53)), exp - 53
    if e >= 0 or n >= -e:  # x has no binary digits past the n-th decimal place
        return x
    if n > 22:
        raise Trap("Unsupported")
    k = -e - n
    p = m * 5**n
    q, rem = p >> k, p & ((1 << k) - 1)
    if q >= 1 << 53:
        raise Trap("Unsupported")
    half = 1 << (k - 1)
    if rem > half or (rem == half and q & 1):
        q += 1
    return math.copysign(q / 10.0**n, x)


# The comparisons, the same on two ints as on two floats: 1 where it holds, else 0
_COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "LT": operator.lt,
    "LE": operator.le,
    "GT": operator.gt,
    "GE": operator.ge,
    "EQ": operator.eq,
    "NE": operator.ne,
}


def _comparisons(suffix: str) -> dict[str, Callable[[Any, Any], int]]:
    """The comparison instructions of one operand type (`suffix`: "_I", "_F")."""

    def as_int(compare: Callable[[Any, Any], bool]) -> Callable[[Any, Any], int]:
        return lambda a, b: int(compare(a, b))

    return {name + suffix: as_int(compare) for name, compare in _COMPARISONS.items()}


INT_BINARY: dict[str, Callable[[int, int], int | float]] = {
    "ADD_I": lambda a, b: checked(a + b),
    "SUB_I": lambda a, b: checked(a - b),
    "MUL_I": lambda a, b: checked(a * b),
    "FLOORDIV_I": floordiv_i,
    "MOD_I": mod_i,
    "POW_I": pow_i,
    "DIV_I": div_i,
    "AND_I": lambda a, b: a & b,
    "OR_I": lambda a, b: a | b,
    "XOR_I": lambda a, b: a ^ b,
    "SHL_I": shl_i,
    "SHR_I": shr_i,
    **_comparisons("_I"),
}
FLOAT_BINARY: dict[str, Callable[[float, float], float | int]] = {
    "ADD_F": _python(lambda a, b: a + b),
    "SUB_F": _python(lambda a, b: a - b),
    "MUL_F": _python(lambda a, b: a * b),
    "DIV_F": _python(lambda a, b: a / b),
    "FLOORDIV_F": _python(lambda a, b: a // b),
    "MOD_F": _python(lambda a, b: a % b),
    "POW_F": lambda a, b: pow_f(a, b),
    **_comparisons("_F"),
}
INT_UNARY: dict[str, Callable[[int], int | float]] = {
    "NEG_I": lambda a: checked(-a),
    "ABS_I": lambda a: checked(abs(a)),
    "INVERT_I": lambda a: ~a,
    "NOT": lambda a: int(not a),
    "I2F": float,
    "I2F_EXACT": i2f_exact,
}
FLOAT_UNARY: dict[str, Callable[[float], float | int]] = {
    "NEG_F": lambda x: -x,
    "ABS_F": abs,
    "TRUTH_F": lambda x: int(x != 0.0),
    "F2I": f2i,
    "SQRT_F": sqrt_f,
    "FLOOR_F": floor_f,
    "CEIL_F": ceil_f,
    "ROUND_F": round_f,
}
RESULT_IS_FLOAT = (
    {"DIV_I", "I2F", "I2F_EXACT", "NEG_F", "ABS_F"}
    | {
        "SQRT_F",
        "FLOOR_F",
        "CEIL_F",
        "ROUND_F",
    }
    | {k for k in FLOAT_BINARY if k.removesuffix("_F") not in _COMPARISONS}
)


_FLOAT_TEXT = re.compile(
    r"([+-]?)(?:([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?|(inf|infinity|nan))", re.IGNORECASE
)
_POW10_EXACT = 22  # 10**22 is the largest power of ten a double holds exactly
FLOAT_STR_DIGITS = 15  # significant digits that a double holds exactly (10**15 < 2**53)


def float_of_str(s: str) -> float:
    """`float(s)` of a str, as CPython parses it (FLOAT_OF_STR): ASCII whitespace " \t\n\r\v\f"
    stripped, an optional sign, then digits with an optional fraction and exponent, or `inf`,
    `infinity`, `nan` in any case; an underscore only between two digits; anything else is
    ValueError. The value is CPython's own where a VM computes it exactly in one double
    operation (at most 15 significant digits, times or divided by 10**e, e <= 22); otherwise,
    and for any non-ASCII s (Unicode digits and spaces: CPython's tables), Unsupported."""
    if not s.isascii():
        raise Trap("Unsupported")
    text = s.strip(" \t\n\r\x0b\x0c")
    for k, c in enumerate(text):
        if c == "_" and not (
            0 < k < len(text) - 1 and text[k - 1].isdigit() and text[k + 1].isdigit()
        ):
            raise Trap("ValueError")
    m = _FLOAT_TEXT.fullmatch(text.replace("_", ""))
    if m is None or not (m.group(5) or m.group(2) or m.group(3)):
        raise Trap("ValueError")
    value = float(text)
    if m.group(5):
        return value
    digits = (m.group(2) or "") + (m.group(3) or "")
    significant = digits.strip("0")
    if not significant:
        return value  # a zero, whatever its exponent
    exponent = int(m.group(4) or 0) - len(m.group(3) or "") + (len(digits) - len(digits.rstrip("0")))
    if len(significant) > FLOAT_STR_DIGITS or not -_POW10_EXACT <= exponent <= _POW10_EXACT:
        raise Trap("Unsupported")
    return value


_HASH_MODULUS = (1 << 61) - 1  # CPython's sys.hash_info.modulus on 64-bit builds
_SET_MIN_SIZE, _LINEAR_PROBES, _PERTURB_SHIFT = 8, 9, 5  # Objects/setobject.c
_WORD = (1 << 64) - 1


def int_hash(x: int) -> int:
    """CPython's hash() of an int (or bool)."""
    r = x % _HASH_MODULUS if x >= 0 else -(-x % _HASH_MODULUS)
    return -2 if r == -1 else r


def set_table_size(n: int) -> int:
    """The largest hash table set() of n items may reach (a resize asks for a table over four
    times the items): SET_ORDER's scratch is two of these."""
    size = _SET_MIN_SIZE
    while size <= 4 * n:
        size <<= 1
    return size


def set_order(items: list[int]) -> list[int]:
    """The distinct items of `items` (ints) in the order CPython 3.11 iterates set(items): the
    items added one by one to its hash table (set_add_entry: linear probes, then perturbation;
    a resize to the next power of two above 4 * used once the table is 3/5 full, reinserting
    in table order, set_insert_clean), then read in table order. Checked against CPython on
    random lists (tests/test_cpu_vm.py)."""
    mask, fill, used = _SET_MIN_SIZE - 1, 0, 0
    table: list[int | None] = [None] * _SET_MIN_SIZE

    def insert_clean(table: list[int | None], mask: int, key: int) -> None:
        h = int_hash(key)
        perturb, i = h & _WORD, h & mask
        while True:
            if table[i] is None:
                table[i] = key
                return
            if i + _LINEAR_PROBES <= mask:
                for j in range(i + 1, i + _LINEAR_PROBES + 1):
                    if table[j] is None:
                        table[j] = key
                        return
            perturb >>= _PERTURB_SHIFT
            i = (i * 5 + 1 + perturb) & mask

    for x in items:
        h = int_hash(x)
        perturb, i = h & _WORD, h & mask
        placed = found = False
        while not (placed or found):
            probes = _LINEAR_PROBES if i + _LINEAR_PROBES <= mask else 0
            for j in range(i, i + probes + 1):
                if table[j] is None:
                    table[j] = x
                    placed = True
                    break
                if table[j] == x:
                    found = True
                    break
            perturb >>= _PERTURB_SHIFT
            i = (i * 5 + 1 + perturb) & mask
        if found:
            continue
        fill, used = fill + 1, used + 1
        if fill * 5 < mask * 3:
            continue
        minused = used * 2 if used > 50000 else used * 4
        size = _SET_MIN_SIZE
        while size <= minused:
            size <<= 1
        old, mask, table = table, size - 1, [None] * size
        for key in old:
            if key is not None:
                insert_clean(table, mask, key)
        fill = used
    return [key for key in table if key is not None]
