"""The layering of docs/ARCHITECTURE.md, checked on the source: who may import whom.

Every ``import harvest.x`` and ``from harvest.x import ...`` in the package (at any depth, lazy
imports inside functions included) is read with :mod:`ast`; each package may import only what
its paragraph in docs/ARCHITECTURE.md allows.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests import PROJECT_ROOT

PACKAGE = PROJECT_ROOT / "harvest"

#: Package -> harvest packages it must never import, and why.
FORBIDDEN: dict[str, tuple[set[str], str]] = {
    "parsers": (
        {"spiders", "state", "runner", "pipelines", "middlewares", "extensions", "scale", "commands",
         "report", "crawl", "frontier", "github", "extraction"},
        "parsers are pure functions: HTML/JSON in, typed data out",
    ),
    "extraction": (
        {"spiders", "state", "runner", "pipelines", "middlewares", "extensions", "scale", "commands",
         "report", "crawl", "frontier", "github", "export"},
        "the extraction pool runs parsers in worker processes; it knows nothing of the crawl",
    ),
    "identity": ({"state", "pipelines", "spiders", "runner"}, "identity sits below state and pipelines"),
    "state": (
        {"spiders", "pipelines", "runner", "middlewares", "extensions", "commands", "report", "frontier"},
        "the state stores know items by identity only",
    ),
    "spiders": ({"runner", "commands", "report", "export"}, "spiders decide what to fetch, nothing else"),
    "runner": ({"spiders"}, "the supervisor never imports spider code"),
    "report": ({"spiders", "middlewares", "extensions", "scale"}, "the report reads committed outputs only"),
    "export": ({"spiders", "middlewares", "extensions", "runner"}, "the export reads committed outputs only"),
    "config": ({"spiders", "runner", "pipelines", "report"}, "config is validated before any component runs"),
}  # fmt: skip


def _package_of(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _harvest_imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] if node.module != "harvest" else [f"harvest.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        found |= {n.split(".")[1] for n in names if n.startswith("harvest.")}
    return found


def _imports_by_package() -> dict[str, dict[str, set[str]]]:
    result: dict[str, dict[str, set[str]]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        result.setdefault(_package_of(path), {})[str(path.relative_to(PROJECT_ROOT))] = _harvest_imports(path)
    return result


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_follow_the_layering(package: str) -> None:
    forbidden, why = FORBIDDEN[package]
    modules = _imports_by_package().get(package)
    assert modules, f"harvest/{package} not found: update FORBIDDEN with the layout"
    wrong = {
        module: sorted(imports & forbidden) for module, imports in modules.items() if imports & forbidden
    }
    assert wrong == {}, f"{package}: {why}"


def test_every_package_is_described_in_the_architecture_doc() -> None:
    doc = (PROJECT_ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    missing = sorted(p for p in packages if f"harvest/{p}/" not in doc)
    assert missing == [], f"packages without a paragraph in docs/ARCHITECTURE.md: {missing}"
