"""The report as one self-contained HTML page: inline CSS, inline SVG, no script, no network.

Each figure is a ``<figure>`` whose ``<figcaption>`` is its title, with the chart (hidden from
assistive technology) and its table in a ``<details>`` element that anyone can open; headline
numbers carry ``data-fact`` and ``data-value`` attributes so tools and tests can read them.
"""

from __future__ import annotations

import logging
from html import escape

from harvest.report.model import Cell, Chart, Figure, Report, Section, Table
from harvest.report.plots import render_svg
from harvest.util.redaction import scrub

logger = logging.getLogger(__name__)

_CSS = """
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #4269d0; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: var(--ink); margin: 0; background: #f6f8fa; }
header, main { max-width: 980px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 24px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 21px; margin: 34px 0 8px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
.meta, .note, .intro { color: var(--muted); font-size: 13px; }
nav a { margin-right: 14px; color: var(--accent); }
.facts { display: flex; flex-wrap: wrap; gap: 10px; margin: 10px 0 4px; padding: 0; }
.facts div { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 6px 12px; }
.facts dt { font-size: 12px; color: var(--muted); }
.facts dd { margin: 0; font-size: 20px; font-weight: 600; }
figure { background: #fff; border: 1px solid var(--line); border-radius: 6px; margin: 14px 0;
         padding: 10px 14px; }
figcaption { font-weight: 600; margin-bottom: 6px; }
.plot svg { width: 100%; height: auto; display: block; }
details summary { cursor: pointer; color: var(--accent); font-size: 13px; margin-top: 4px; }
table { border-collapse: collapse; font-size: 13px; margin: 6px 0; }
th, td { border-bottom: 1px solid var(--line); padding: 3px 10px 3px 0; text-align: left;
         vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.scroll { overflow-x: auto; max-width: 100%; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
           white-space: nowrap; }
.empty { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 6px; padding: 10px 14px; }
"""


def _cell(value: Cell) -> str:
    if value is None:
        return "<td></td>"
    if isinstance(value, bool):
        return f"<td>{value}</td>"
    if isinstance(value, int):
        return f'<td class="num">{value:,}</td>'
    if isinstance(value, float):
        return f'<td class="num">{value:,.1f}</td>'
    return f"<td>{escape(scrub(value))}</td>"  # an error text may echo a URL with credentials


def render_table(table: Table, caption: str) -> str:
    """An HTML table with a caption and a header row."""
    head = "".join(f'<th scope="col">{escape(c)}</th>' for c in table.columns)
    body = "\n".join("<tr>" + "".join(_cell(v) for v in row) + "</tr>" for row in table.rows)
    if not table.rows:
        body = f'<tr><td colspan="{len(table.columns)}">(no rows)</td></tr>'
    return (
        f'<div class="scroll"><table><caption class="sr-only">{escape(caption)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table></div>"
    )


def has_data(chart: Chart) -> bool:
    """Whether the chart would draw anything other than zeros."""
    return (
        any(v for s in chart.series for v in s.y)
        or any(chart.values)
        or any(r is not None for p in chart.panels for r in p.rank)
    )


def render_figure(figure: Figure) -> str:
    """A figure: title, chart (if any), note, and its table."""
    parts = [f'<figure id="{escape(figure.id)}"><figcaption>{escape(figure.title)}</figcaption>']
    if figure.chart is not None and not has_data(figure.chart):
        figure.chart = None  # an all-zero chart: the table (and the note) say it better
    if figure.chart is not None:
        svg = render_svg(figure.chart).replace("<svg ", '<svg aria-hidden="true" focusable="false" ', 1)
        parts.append(f'<div class="plot">{svg}</div>')
    if figure.note:
        parts.append(f'<p class="note">{escape(figure.note)}</p>')
    table = render_table(figure.table, figure.title)
    if figure.chart is None:
        if figure.table.rows or not figure.note:  # an empty table under a note says nothing more
            parts.append(table)
    else:
        parts.append(
            f"<details><summary>Table of the numbers ({len(figure.table.rows):,} rows)</summary>"
            f"{table}</details>"
        )
    parts.append("</figure>")
    return "\n".join(parts)


def render_section(section: Section) -> str:
    """A section: heading, headline numbers, figures, or why it is empty."""
    parts = [f'<section id="{escape(section.id)}" aria-labelledby="{escape(section.id)}-h">']
    parts.append(f'<h2 id="{escape(section.id)}-h">{escape(section.title)}</h2>')
    if section.empty:
        parts.append(
            f'<p class="empty" data-empty="{escape(section.id)}">{escape(section.empty)}</p></section>'
        )
        return "\n".join(parts)
    if section.intro:
        parts.append(f'<p class="intro">{escape(section.intro)}</p>')
    if section.facts:
        facts = "".join(
            f"<div><dt>{escape(f.label)}</dt>"
            f'<dd data-fact="{escape(f.key)}" data-value="{escape(str(f.value))}">'
            f"{f'{f.value:,}' if isinstance(f.value, int) else escape(str(f.value))}</dd></div>"
            for f in section.facts
        )
        parts.append(f'<dl class="facts">{facts}</dl>')
    parts.extend(render_figure(f) for f in section.figures)
    parts.append("</section>")
    return "\n".join(parts)


def render_page(report: Report) -> str:
    """The whole report as one HTML document."""
    nav = " ".join(f'<a href="#{escape(s.id)}">{escape(s.title)}</a>' for s in report.sections)
    body = (
        f'<p class="empty" data-empty="report">{escape(report.empty)}</p>'
        if report.empty
        else "\n".join(render_section(s) for s in report.sections)
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{escape(report.title)}</title>
<style>{_CSS}</style>
</head>
<body>
<header>
<h1>{escape(report.title)}</h1>
<p class="meta">Generated {escape(report.generated_at)}
from <code>{escape(report.data_dir)}</code>{escape(report.filters)}.</p>
<nav aria-label="Sections">{nav}</nav>
</header>
<main>
{body}
</main>
</body>
</html>
"""
