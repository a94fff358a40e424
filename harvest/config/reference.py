"""The settings reference (``docs/SETTINGS.md``), generated from ``harvest/settings.py`` itself.

Every setting's documentation is the comment above it in ``harvest/settings.py`` (a setting right
below another of the same family, ``HARVEST_FLEET_*`` or ``DOWNLOAD_*``, with no blank line or
comment between, shares its comment), grouped under the file's ``# --- Area ---`` headings. So
the reference cannot drift from the defaults: regenerate it with
``python -m harvest.config.reference``; ``tests/config/test_reference.py`` fails while it is
stale. Retired names (:data:`harvest.config.settings_model.RETIRED`) get their own table.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import harvest.settings
from harvest.config.settings_model import RETIRED

#: Where the reference is written, relative to the project root.
TARGET = Path("docs") / "SETTINGS.md"
#: What a Scrapy setting harvest sets without a comment says (its meaning is Scrapy's).
_SCRAPY = "Scrapy's own setting (see Scrapy's documentation), at harvest's value."
_HEADING = re.compile(r"^# -{3} (.+?) -*$")


@dataclass
class Setting:
    """One setting as ``harvest/settings.py`` defines it."""

    name: str
    default: str
    doc: str


@dataclass
class Area:
    """A ``# --- Area ---`` block of ``harvest/settings.py``."""

    title: str
    settings: list[Setting] = field(default_factory=list)


def _default_text(source: str, node: ast.Assign | ast.AnnAssign) -> str:
    text = ast.get_source_segment(source, node.value) if node.value is not None else ""
    text = text or ""
    return text if "\n" not in text else "(several lines: see harvest/settings.py)"


def _family(name: str) -> str:
    parts = name.split("_")
    return "_".join(parts[:2] if parts[0] == "HARVEST" else parts[:1])


def read_areas(source: str) -> list[Area]:
    """The areas and settings of ``source`` (the text of ``harvest/settings.py``), in file order."""
    lines = source.splitlines()
    areas = [Area("General")]
    comment: list[str] = []
    previous_doc, previous_family = "", ""
    nodes = {n.lineno: n for n in ast.parse(source).body if isinstance(n, (ast.Assign, ast.AnnAssign))}
    skip_until = 0
    for number, line in enumerate(lines, start=1):
        if number <= skip_until:
            continue
        heading = _HEADING.match(line)
        if heading:
            areas.append(Area(heading.group(1).strip()))
            comment, previous_doc = [], ""
        elif line.startswith("#"):
            comment.append(line.lstrip("#").strip())
        elif not line.strip():
            comment, previous_doc = [], ""
        elif number in nodes:
            node = nodes[number]
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            skip_until = node.end_lineno or number
            if not isinstance(target, ast.Name) or not target.id.isupper():
                continue
            family = _family(target.id)
            doc = " ".join(comment) or (previous_doc if family == previous_family else "")
            areas[-1].settings.append(Setting(target.id, _default_text(source, node), doc or _SCRAPY))
            comment, previous_doc, previous_family = [], doc, family
    return [area for area in areas if area.settings]


def render(source: str) -> str:
    """The Markdown reference of ``source``."""
    out = [
        "# Settings reference",
        "",
        "Generated from the comments of `harvest/settings.py` by `python -m harvest.config.reference`;",
        "do not edit by hand (`tests/config/test_reference.py` fails when it is stale). Set any of them",
        "with `-s NAME=VALUE` (`scrapy crawl`, `run_all.py`) or in a Scrapy settings module. Names are",
        "`HARVEST_<AREA>_<KNOB>`; a `HARVEST_*` name harvest does not define is refused, naming it.",
        "",
    ]
    for area in read_areas(source):
        out += [f"## {area.title}", "", "| Setting | Default | What it is for |", "|---|---|---|"]
        for s in area.settings:
            doc = s.doc.replace("|", "\\|")
            out.append(f"| `{s.name}` | `{s.default}` | {doc} |")
        out.append("")
    out += [
        "## Retired names",
        "",
        "Still accepted for one release: a value set under an old name is used where a component",
        "still reads it, and the crawl's log says once what replaced it.",
        "",
        "| Old setting | Now |",
        "|---|---|",
    ]
    out += [f"| `{old}` | {now} |" for old, now in sorted(RETIRED.items())]
    return "\n".join(out).rstrip() + "\n"


def current() -> str:
    """The reference as the settings module on disk says it should be."""
    return render(Path(harvest.settings.__file__).read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    """Write ``docs/SETTINGS.md`` under the current folder (``--check``: exit 1 if it differs)."""
    args = sys.argv[1:] if argv is None else argv
    target = Path.cwd() / TARGET
    text = current()
    if "--check" in args:
        stale = not target.exists() or target.read_text(encoding="utf-8") != text
        if stale:
            print(f"{target} is stale: run python -m harvest.config.reference", file=sys.stderr)
        return 1 if stale else 0
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
