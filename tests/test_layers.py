"""The layer contract (pyproject.toml, [tool.importlinter]; docs/ARCHITECTURE.md) holds, and no
module imports itself round a cycle, both checked on the import graph import-linter builds
(grimp: every import, in functions and under TYPE_CHECKING too)."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
PACKAGES = CONFIG["root_packages"]


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("lint-imports")
    return subprocess.run(
        [str(script), "--no-cache"],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin", "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_every_package_of_the_tree_is_in_a_layer() -> None:
    found = sorted(p.parent.name for p in ROOT.glob("*/__init__.py"))
    assert found == sorted(PACKAGES)
    [contract] = [c for c in CONFIG["contracts"] if c["type"] == "layers"]
    assert sorted(contract["layers"]) == sorted(PACKAGES)


def test_the_layer_contract_is_kept() -> None:
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 kept, 0 broken" in done.stdout


def test_an_upward_import_breaks_the_contract(tmp_path: Path) -> None:
    """The check can fail: the same tree with vm importing the API is reported, by name."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=_not_python)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    limits = tmp_path / "vm" / "limits.py"
    limits.write_text(limits.read_text() + "\n\ndef _upward() -> None:\n    import api.store\n")
    done = lint_imports(tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "BROKEN" in done.stdout and "vm.limits -> api.store" in done.stdout


def _not_python(folder: str, names: list[str]) -> list[str]:
    return [n for n in names if not n.endswith(".py") and not (Path(folder) / n).is_dir()]


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(graph.modules):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child))))
                    )
                elif child in on_stack:
                    low[module] = min(low[module], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    sys.path.insert(0, str(ROOT))
    try:
        return grimp.build_graph(*PACKAGES, cache_dir=None)
    finally:
        sys.path.remove(str(ROOT))


def test_no_import_cycles(graph: grimp.ImportGraph) -> None:
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for importer, imported in [("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d")]:
        graph.add_import(importer=importer, imported=imported)
    graph.add_module("p.e")
    assert cycles(graph) == [["p.a", "p.b", "p.c"]]


def _from_imports(root: Path) -> list[tuple[str, str, str]]:
    """(importing module's package, imported module, name) of every `from kiln.x import name`."""
    found = []
    for path in sorted(root.glob("*/**/*.py")):
        package = path.relative_to(root).parts[0]
        if package not in PACKAGES:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module.split(".")[0] in PACKAGES:
                    found += [(package, node.module, alias.name) for alias in node.names]
    return found


def test_packages_import_only_each_others_public_names() -> None:
    """A layer uses the public face of the layers under it (the scheduler no longer reaches into
    the Pipeline's privates): no `from other_package.m import _private`."""
    private = [
        f"{package}: from {module} import {name}"
        for package, module, name in _from_imports(ROOT)
        if name.startswith("_") and not name.startswith("__") and module.split(".")[0] != package
    ]
    assert private == []


JOB_MODEL = ("TestSpec", "Candidate", "CandidateResult", "JobCancelled", "JobFailed")


def test_the_job_model_is_defined_once_and_imported_from_core() -> None:
    """core.jobs defines the job model's types; no other module defines a class of that name,
    and the layers above take them from core.jobs, not from a module that re-exports them."""
    defined = {
        f"{path.relative_to(ROOT)}: {node.name}"
        for path in sorted(ROOT.glob("*/**/*.py"))
        if path.relative_to(ROOT).parts[0] in PACKAGES
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ClassDef) and node.name in JOB_MODEL
    }
    assert defined == {f"core/jobs.py: {name}" for name in JOB_MODEL}
    elsewhere = [
        f"{package}: from {module} import {name}"
        for package, module, name in _from_imports(ROOT)
        if name in JOB_MODEL and module != "core.jobs"
    ]
    assert elsewhere == []
