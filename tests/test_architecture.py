"""The layering of docs/ARCHITECTURE.md, checked on the source by import-linter.

The contracts live in pyproject.toml (``[tool.importlinter]``) and ``make lint`` runs them; these
tests keep the contracts, the package and the document in step: every part of ``harvest/`` sits
in a layer, every package has its paragraph, and an import inside a function says why it is there
(start-up time), so no import hides from the contracts' reader.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from tests import PROJECT_ROOT

PACKAGE = PROJECT_ROOT / "harvest"


def _contracts() -> list[dict]:
    config = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["importlinter"]["contracts"]


def _layered() -> list[str]:
    layers = next(c for c in _contracts() if c["type"] == "layers")["layers"]
    return [name.strip() for layer in layers for name in layer.replace("|", ":").split(":")]


def test_import_contracts_hold() -> None:
    # The real tool on the real source: a wrong-way import, a cycle or a framework import in a
    # pure part fails here with import-linter's own report.
    result = subprocess.run(
        [sys.executable, "-c", "import sys, importlinter.cli as c; sys.exit(c.lint_imports())"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


def test_every_part_of_the_package_sits_in_a_layer() -> None:
    parts = {
        f"harvest.{p.stem if p.is_file() else p.name}"
        for p in PACKAGE.iterdir()
        if (p.is_file() and p.suffix == ".py" and p.name != "__init__.py") or (p / "__init__.py").exists()
    }
    assert sorted(parts - set(_layered())) == []
    assert sorted(set(_layered()) - parts) == []


def test_only_the_shared_vocabulary_is_loose_at_the_top() -> None:
    loose = sorted(p.stem for p in PACKAGE.glob("*.py") if p.name != "__init__.py")
    assert loose == ["exceptions", "fingerprints", "identity", "items", "meta", "settings"]


def test_every_package_is_described_in_the_architecture_doc() -> None:
    doc = (PROJECT_ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    missing = sorted(p for p in packages if f"harvest/{p}/" not in doc)
    assert missing == [], f"packages without a paragraph in docs/ARCHITECTURE.md: {missing}"


def _lazy_imports_without_reason(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    found = []
    for func in ast.walk(ast.parse(source)):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        body_imports = [n for n in ast.walk(func) if isinstance(n, (ast.Import, ast.ImportFrom))]
        for node in body_imports:
            module = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
            if not (module or "").startswith("harvest"):
                continue
            # The reason is a comment right above the import or above its group of imports.
            i = node.lineno - 2
            while i >= 0 and (not lines[i].strip() or lines[i].lstrip().startswith(("from ", "import "))):
                i -= 1
            if i < 0 or not lines[i].lstrip().startswith("#"):
                found.append(f"{path.relative_to(PROJECT_ROOT)}:{node.lineno}")
    return found


def test_imports_inside_functions_say_why() -> None:
    paths = sorted(PACKAGE.rglob("*.py"))
    missing = [where for path in paths for where in _lazy_imports_without_reason(path)]
    assert missing == [], "an import inside a function needs its reason (start-up time) in a comment"
