"""The report as data: sections of figures, each a chart spec and the table behind it.

The analysis (harvest.report.sections) fills these; the plots (harvest.report.plots) and the
page (harvest.report.page) only render them, so every number shown in a chart is also in its
table, which is what a screen reader gets.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Literal

logger = logging.getLogger(__name__)

Cell = str | int | float | None
ChartKind = Literal["bar", "barh", "lines", "stacked", "hist", "multiples"]


@dataclass
class Table:
    """Rows of a figure's numbers, with a header."""

    columns: list[str]
    rows: list[list[Cell]] = field(default_factory=list)


@dataclass
class Series:
    """One named line or bar set: ``y`` is aligned with the chart's ``categories``."""

    name: str
    y: list[float]


@dataclass
class Panel:
    """One small multiple: a repository's rank (left axis, inverted) and stars (right) by day."""

    title: str
    days: list[str]
    rank: list[float | None]
    stars: list[float | None]


@dataclass
class Chart:
    """What to draw. ``hist`` draws ``values``; ``multiples`` draws ``panels``."""

    kind: ChartKind
    categories: list[str] = field(default_factory=list)
    series: list[Series] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    panels: list[Panel] = field(default_factory=list)
    x_label: str = ""
    y_label: str = ""
    log_x: bool = False
    #: The value axis counts things: whole-number ticks only (never "0.5 documents").
    counts: bool = True
    #: ``categories`` are consecutive days or months (every one present, empty ones as 0): a
    #: single one is drawn as points, not as a bar or a line filling the panel.
    time_axis: bool = False


@dataclass
class Figure:
    """A titled chart (None: a table alone) with its table fallback and an optional note."""

    id: str
    title: str
    table: Table
    chart: Chart | None = None
    note: str = ""


@dataclass
class Fact:
    """One headline number; ``key`` is a stable name (``data-fact`` on the page)."""

    key: str
    label: str
    value: int | float | str


@dataclass
class Section:
    """A part of the report; ``empty`` says why it has nothing to show."""

    id: str
    title: str
    intro: str = ""
    facts: list[Fact] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    empty: str = ""


@dataclass
class Report:
    """The whole report, ready to render."""

    title: str
    generated_at: str
    data_dir: str
    filters: str
    sections: list[Section]
    #: Non-empty when the data folder holds nothing to report.
    empty: str = ""
