"""The Python examples in the docs run as written (README.md, docs/PIPELINE.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "docs" / "PIPELINE.md"]
BLOCKS = [(doc, i, code) for doc in DOCS for i, code in enumerate(re.findall(r"```python\n(.*?)```", doc.read_text(), re.S))]


@pytest.mark.parametrize(("doc", "index", "code"), BLOCKS, ids=[f"{d.name}-{i}" for d, i, _ in BLOCKS])
def test_example_runs(doc: Path, index: int, code: str) -> None:
    namespace: dict[str, object] = {}
    exec(compile(code, f"{doc.name} example {index}", "exec"), namespace)
    # a trailing expression with a comment shows its value: check it
    last = code.strip().splitlines()[-1]
    if "#" in last and not last.lstrip().startswith("#"):
        expression, shown = (part.strip() for part in last.split("#", 1))
        if shown.startswith(("[", "(", "'", '"')) or shown[:1].isdigit():
            assert repr(eval(expression, namespace)) == shown, f"{doc.name} example {index}"


def test_docs_have_examples() -> None:
    assert len(BLOCKS) >= 2
