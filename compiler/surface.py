# ruff: noqa: E501  (the table reads best as one row per method)
"""kiln Python's language surface, defined once: one table per family (today the str methods;
the builtins, the other methods and the module functions move here next, issue 17).

For every str method: its name, the argument counts it takes, the type of its arguments and of
its result, the instruction it lowers to, what it raises, a one-line doc and an example (a
Python expression whose value kiln gives as CPython does: tests/test_surface.py runs each one).
Everything else that names a str method is derived from STR_METHODS, so that adding one is an
entry here plus its semantics (vm/ref.py, vm/kernels/interp.h) and a test:

- compiler/types.py's signatures, compiler/lower.py's instructions, compiler/frontend.py's
  known methods, fuzz/generator.py's case-mapping methods and vm/ref.py's delegation to
  Python's own str methods read the table when they are imported;
- the batched C compiler's tables (compiler/kernels/kc_surface.h) and the str-method table of
  docs/LANGUAGE.md are generated (compiler/generated.py: `python -m compiler --write`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final


@dataclass(frozen=True)
class StrMethod:
    name: str
    arities: tuple[int, ...]  # the argument counts it takes
    result: str  # its result's type: "str", "bool", "int" or "list[str]"
    op: str  # the instruction a call lowers to (vm/isa.py)
    doc: str  # what it does, and what kiln leaves to CPython (Unsupported) or raises
    example: str  # a Python expression: kiln's value is CPython's
    argument: str = "str"  # the type of each argument
    batched: tuple[int, ...] | None = None  # the counts the batched compiler takes (None: all)
    family: str = ""  # case, strip, class, affix, search, edit: the random generator's groups

    @property
    def batched_arities(self) -> tuple[int, ...]:
        return self.arities if self.batched is None else self.batched


_ASCII = " (ASCII; else Unsupported)"

STR_METHODS: Final[tuple[StrMethod, ...]] = (
    StrMethod("lower", (0,), "str", "STR_LOWER", "lowercase" + _ASCII, '"KiLn".lower()', family="case"),
    StrMethod("upper", (0,), "str", "STR_UPPER", "uppercase" + _ASCII, '"KiLn".upper()', family="case"),
    StrMethod("swapcase", (0,), "str", "STR_SWAPCASE", "case swapped" + _ASCII, '"KiLn".swapcase()', family="case"),
    StrMethod("strip", (0,), "str", "STR_STRIP", "whitespace removed from both ends" + _ASCII, '" \\tkiln \\n".strip()', family="strip"),
    StrMethod("lstrip", (0,), "str", "STR_LSTRIP", "whitespace removed from the start" + _ASCII, '"  kiln ".lstrip()', family="strip"),
    StrMethod("rstrip", (0,), "str", "STR_RSTRIP", "whitespace removed from the end" + _ASCII, '"  kiln ".rstrip()', family="strip"),
    StrMethod("isalpha", (0,), "bool", "STR_ISALPHA", "non-empty and letters only" + _ASCII, '"kiln".isalpha()', family="class"),
    StrMethod("isdigit", (0,), "bool", "STR_ISDIGIT", "non-empty and digits only" + _ASCII, '"2026".isdigit()', family="class"),
    StrMethod("isalnum", (0,), "bool", "STR_ISALNUM", "non-empty and letters or digits only" + _ASCII, '"k1ln".isalnum()', family="class"),
    StrMethod("isspace", (0,), "bool", "STR_ISSPACE", "non-empty and whitespace only" + _ASCII, '" \\t".isspace()', family="class"),
    StrMethod("isupper", (0,), "bool", "STR_ISUPPER", "has cased letters, all uppercase" + _ASCII, '"KILN 2".isupper()', family="class"),
    StrMethod("islower", (0,), "bool", "STR_ISLOWER", "has cased letters, all lowercase" + _ASCII, '"kiln 2".islower()', family="class"),
    StrMethod(
        "find", (1, 2), "int", "STR_FIND",
        "the lowest index of `sub` (at or after `start`, read as a slice start), or -1",
        '"banana".find("an", 2)', batched=(1,), family="search",
    ),
    StrMethod("index", (1,), "int", "STR_FIND", "as `find`, but ValueError where `find` gives -1", '"banana".index("na")', family="search"),
    StrMethod("count", (1,), "int", "STR_COUNT", "non-overlapping occurrences of `sub`", '"banana".count("an")', family="search"),
    StrMethod("startswith", (1,), "bool", "STR_STARTSWITH", "whether it starts with the argument", '"kiln".startswith("ki")', family="affix"),
    StrMethod("endswith", (1,), "bool", "STR_ENDSWITH", "whether it ends with the argument", '"kiln".endswith("ln")', family="affix"),
    StrMethod("replace", (2,), "str", "STR_REPLACE", "every occurrence of `old` replaced by `new`", '"banana".replace("an", "AN")', family="edit"),
    StrMethod("join", (1,), "str", "STR_JOIN", "the strs of the list, with this str between them", '"-".join(["k", "i", "l", "n"])', argument="list[str]", family="edit"),
    StrMethod(
        "split", (0, 1, 2), "list[str]", "STR_SPLIT",
        "the parts between separators (ValueError for an empty one); without one, runs of"
        " whitespace (`STR_SPLIT_WS`)" + _ASCII + "; `split(sep, maxsplit)`: at most"
        " `maxsplit` splits from the start (negative: all), the kiln function `$split_max`;"
        " `sep=`, `maxsplit=` as keywords too",
        '" k i  ln ".split()', batched=(0, 1), family="edit",
    ),
    StrMethod(
        "rsplit", (0, 1, 2), "list[str]", "STR_SPLIT",
        "`split`'s parts (the same without `maxsplit`); `rsplit(sep, maxsplit)`: at most"
        " `maxsplit` splits from the end, the kiln function `$rsplit_max`",
        '"a.b.c".rsplit(".", 1)', batched=(1,), family="edit",
    ),
)  # fmt: skip

STR_METHOD: Final[dict[str, StrMethod]] = {m.name: m for m in STR_METHODS}

# The methods of the other receivers that the front end accepts, by receiver. Their signatures
# and lowering are still the type checker's and the lowering's own, method by method (the next
# families to move into entries like STR_METHODS'); BATCHED_METHODS are those the batched
# compiler takes (kc_surface.h's KC_METHODS).
OTHER_METHODS: Final[dict[str, tuple[str, ...]]] = {
    "set": ("add", "intersection", "union", "difference", "symmetric_difference", "issubset", "issuperset", "isdisjoint"),
    "dict": ("get", "setdefault", "keys", "values", "items"),
    "list": ("append", "pop", "sort", "reverse", "clear", "extend", "index", "count", "remove", "copy"),
    "float": ("is_integer",),
}
BATCHED_METHODS: Final[tuple[str, ...]] = (
    "add", "get", "keys", "values", "items", "append", "pop", "sort", "reverse", "clear", "extend",
    "index", "count", "remove",
)  # fmt: skip
METHOD_NAMES: Final[frozenset[str]] = frozenset(
    {*STR_METHOD, *(name for names in OTHER_METHODS.values() for name in names)}
)


# ---- generated files ----------------------------------------------------------------------------

# Standard-library modules that every CPython build has and whose import runs no code that
# could fail, print, or change anything a program can observe (no `this`, `antigravity`,
# `turtle`, `tkinter`, `idlelib`, `readline`, nor modules a build may lack: `sqlite3`, `ssl`,
# `lzma`, `curses`). Importing one is a no-op but for the name it binds: kiln takes such an
# import (compiler/frontend.py) where nothing reads that name, and evaluation/unbound.py reads
# past it. Anything else (numpy, requests, a star import) depends on the environment: fallback.
PURE_MODULES: Final[frozenset[str]] = frozenset(
    "math cmath re collections heapq itertools functools string bisect operator typing copy"
    " random statistics fractions decimal array numbers abc enum dataclasses sys os json"
    " argparse unittest doctest datetime time calendar textwrap hashlib pathlib io types"
    " warnings pprint contextlib keyword unicodedata struct base64 binascii queue inspect"
    " logging".split()
)


def pure_import_binds(node: object) -> list[str] | None:
    """The names an `import m` / `from m import a, b` of PURE_MODULES binds (each existing there,
    else CPython's ImportError; never `*`, whose names are not written; `import a.b` only where
    a.b is pure too), or None when it is not such an import."""
    import ast
    import importlib

    if isinstance(node, ast.Import):
        if not all(a.name in PURE_MODULES and "." not in a.name for a in node.names):
            return None
        return [a.asname or a.name for a in node.names]
    if not isinstance(node, ast.ImportFrom) or node.level or node.module not in PURE_MODULES:
        return None
    module = importlib.import_module(node.module)
    if any(a.name == "*" or not hasattr(module, a.name) for a in node.names):
        return None
    return [a.asname or a.name for a in node.names]


ROOT: Final = Path(__file__).resolve().parent
HEADER_PATH: Final = ROOT / "kernels" / "kc_surface.h"
LANGUAGE_DOC: Final = ROOT.parent / "docs" / "LANGUAGE.md"
_BEGIN = "<!-- str methods: generated by `python -m compiler --write`. Do not edit. -->"
_END = "<!-- end of the generated str methods -->"
_KC_TYPES: Final = {
    "str": "T_STR",
    "bool": "T_BOOL",
    "int": "T_INT",
    "list[str]": "T_STR + KC_LIST",
}


def _kc_arity(m: StrMethod) -> int:
    """kc.h's code for the counts the batched compiler takes: the count, or 3 for none or one."""
    counts = m.batched_arities
    if counts == (0, 1):
        return 3
    if len(counts) != 1:
        raise ValueError(f"str.{m.name}: the batched compiler takes one count, or none or one")
    return counts[0]


def render_header() -> str:
    names = ", ".join(f'"{m.name}"' for m in STR_METHODS)
    lines = [
        "/* Generated by `python -m compiler --write` from compiler/surface.py. Do not edit.",
        "   The str methods of kiln Python (types.py's signatures, lower.py's instructions): name,",
        "   instruction, the argument counts the batched compiler takes (3: none or one), result,",
        "   argument type. */",
        "#ifndef KC_SURFACE_H",
        "#define KC_SURFACE_H",
        "",
        "/* the other receivers' methods the batched compiler takes (frontend.py's list is",
        "   METHOD_NAMES) */",
        "KC_TABLE char *const KC_METHODS[] = {"
        + ", ".join(f'"{n}"' for n in BATCHED_METHODS)
        + ", 0};",
        f"KC_TABLE char *const KC_STR_METHODS[] = {{{names}, 0}};",
        "KC_TABLE int KC_STR_METHOD_OP[] = {" + ", ".join(f"K_{m.op}" for m in STR_METHODS) + "};",
        "KC_TABLE int KC_STR_METHOD_ARITY[] = {"
        + ", ".join(str(_kc_arity(m)) for m in STR_METHODS)
        + "};",
        "KC_TABLE int KC_STR_METHOD_RESULT[] = {"
        + ", ".join(_KC_TYPES[m.result] for m in STR_METHODS)
        + "};",
        "KC_TABLE int KC_STR_METHOD_ARG[] = {"
        + ", ".join(_KC_TYPES[m.argument] for m in STR_METHODS)
        + "};",
        "enum {",
    ]
    lines += [f"    KC_STR_M_{m.name.upper()} = {i}," for i, m in enumerate(STR_METHODS)]
    lines += ["};", "", "#endif", ""]
    return "\n".join(lines)


def render_doc_table() -> str:
    lines = [
        _BEGIN,
        "",
        "| method | arguments | result | instruction | what it does | example |",
        "|---|---|---|---|---|---|",
    ]
    for m in STR_METHODS:
        counts = " or ".join(str(n) for n in m.arities)
        args = f"{counts} ({m.argument})" if max(m.arities) else "none"
        value = repr(eval(m.example))  # noqa: S307 - the table's own literal examples
        lines.append(
            f"| `str.{m.name}` | {args} | `{m.result}` | `{m.op}` | {m.doc} "
            f"| `{m.example}` is `{value}` |"
        )
    lines += ["", _END]
    return "\n".join(lines)


def render_doc(current: str) -> str:
    """docs/LANGUAGE.md with its generated str-method table replaced by the table's."""
    if _BEGIN not in current or _END not in current:
        raise ValueError(f"{LANGUAGE_DOC} has no generated str-method section ({_BEGIN})")
    before, rest = current.split(_BEGIN, 1)
    _, after = rest.split(_END, 1)
    return before + render_doc_table() + after
