"""Charts as inline SVG, drawn by matplotlib's Agg backend (no display, no network, no files).

Text stays text in the SVG (``svg.fonttype = none``): smaller, selectable, and the page's own
font shows it. The SVG is marked ``aria-hidden``: the figure's table is what assistive
technology reads (see harvest.report.page).
"""

from __future__ import annotations

import io
import logging
import math
from typing import Any

import matplotlib
from cycler import cycler

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.ticker import MaxNLocator  # noqa: E402

from harvest.report.model import Chart  # noqa: E402

logger = logging.getLogger(__name__)

#: Inches; the page scales the SVG to its column's width.
WIDTH = 9.0
_COLORS = ["#4269d0", "#efb118", "#ff725c", "#6cc5b0", "#3ca951", "#ff8ab7", "#a463f2", "#97bbf5", "#9c6b4e"]
_STYLE: Any = {
    "svg.fonttype": "none",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": cycler(color=_COLORS),
    "axes.grid": True,
    "grid.alpha": 0.3,
    "figure.dpi": 72,
}
#: Fewer categories than this are drawn as narrow bars in the middle, not as wide blocks.
_MIN_SLOTS = 8
#: Category labels longer than this are shortened on the axis (the table has them in full).
_LABEL_CHARS = 38


def _short(label: str) -> str:
    return label if len(label) <= _LABEL_CHARS else label[: _LABEL_CHARS - 1] + "…"


def _tick_step(count: int, room: int) -> int:
    return max(1, math.ceil(count / room))


def _points(ax: Any, chart: Chart) -> None:
    """One day or month: each series as a point (a bar or a line would fill the panel)."""
    for i, s in enumerate(chart.series):
        ax.plot([0.0], s.y[:1], marker="o", markersize=6, linestyle="none", label=_short(s.name),
                color=_COLORS[i % len(_COLORS)])  # fmt: skip
    ax.set_xticks([0.0])
    ax.set_xticklabels(chart.categories[:1])
    ax.set_xlim(-1.0, 1.0)
    ax.set_ylim(bottom=0)


def _bar(ax: Any, chart: Chart) -> None:
    n = len(chart.categories)
    width = 0.8 / max(1, len(chart.series))
    for i, s in enumerate(chart.series):
        ax.bar([x + i * width for x in range(n)], s.y, width=width, label=s.name)
    step = _tick_step(n, 24)
    ax.set_xticks([x + width * (len(chart.series) - 1) / 2 for x in range(0, n, step)])
    ax.set_xticklabels(
        [_short(c) for c in chart.categories[::step]],
        rotation=45 if n > 6 else 0,
        ha="right" if n > 6 else "center",
    )
    pad = max(0.0, (_MIN_SLOTS - n) / 2)  # a day or two of data: bars of a sane width
    ax.set_xlim(-0.5 - pad, n - 0.5 + pad)


def _barh(ax: Any, chart: Chart) -> None:
    n = len(chart.categories)
    height = 0.8 / max(1, len(chart.series))
    for i, s in enumerate(chart.series):
        ax.barh([y + i * height for y in range(n)], s.y, height=height, label=s.name)
    ax.set_yticks([y + height * (len(chart.series) - 1) / 2 for y in range(n)])
    ax.set_yticklabels([_short(c) for c in chart.categories])
    ax.invert_yaxis()


def _lines(ax: Any, chart: Chart) -> None:
    x = list(range(len(chart.categories)))
    for s in chart.series:
        ax.plot(x, s.y, marker="o" if len(x) < 40 else None, markersize=3, label=_short(s.name))
    step = _tick_step(len(x), 12)
    ax.set_xticks(x[::step])
    ax.set_xticklabels(chart.categories[::step], rotation=30, ha="right")


def _stacked(ax: Any, chart: Chart) -> None:
    x = list(range(len(chart.categories)))
    bottom = [0.0] * len(x)
    for s in chart.series:
        ax.bar(x, s.y, bottom=bottom, label=s.name, width=0.9)
        bottom = [b + v for b, v in zip(bottom, s.y, strict=True)]
    step = _tick_step(len(x), 12)
    ax.set_xticks(x[::step])
    ax.set_xticklabels(chart.categories[::step], rotation=30, ha="right")
    pad = max(0.0, (_MIN_SLOTS - len(x)) / 2)
    ax.set_xlim(-0.5 - pad, len(x) - 0.5 + pad)


def _hist(ax: Any, chart: Chart) -> None:
    values = chart.values
    if chart.log_x:
        top = max(values, default=1.0)
        edges = [10 ** (i / 4) for i in range(int(math.log10(max(top, 1.0)) * 4) + 2)]
        ax.hist(values, bins=edges)
        ax.set_xscale("log")
    else:
        ax.hist(values, bins=30)


def _multiples(chart: Chart) -> Any:
    count = len(chart.panels)
    cols = min(3, count)
    rows = math.ceil(count / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(WIDTH, 2.3 * rows), squeeze=False)
    fig.subplots_adjust(left=0.07, right=0.93, top=0.9, bottom=0.1, wspace=0.55, hspace=0.5)
    for ax in axes.flat[count:]:
        ax.set_visible(False)
    for ax, panel in zip(axes.flat, chart.panels, strict=False):
        x = list(range(len(panel.days)))
        stars_ax = ax.twinx()
        stars = [s if s is not None else 0 for s in panel.stars]
        if len(x) == 1:  # one day: a point, not a bar as wide as the panel
            stars_ax.plot(x, stars, marker="s", linestyle="none", color=_COLORS[7])
        else:
            stars_ax.bar(x, stars, color=_COLORS[7], alpha=0.6)
        stars_ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        stars_ax.set_ylabel("stars", fontsize=7)
        stars_ax.tick_params(labelsize=7)
        ax.set_zorder(stars_ax.get_zorder() + 1)
        ax.patch.set_visible(False)
        ax.plot(
            x,
            [r if r is not None else math.nan for r in panel.rank],
            marker="o",
            markersize=3,
            color=_COLORS[2],
        )
        ranks = [r for r in panel.rank if r is not None]
        # Whole ranks, 1 at the top, with room around a rank that never moved (not 0.96-1.04).
        ax.yaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))
        if ranks:
            ax.set_ylim(max(ranks) + 1, max(0.5, min(ranks) - 1))
        else:
            ax.invert_yaxis()
        ax.set_ylabel("rank", fontsize=7)
        ax.set_title(_short(panel.title), fontsize=8)
        step = _tick_step(len(x), 3)
        ax.set_xticks(x[::step])
        ax.set_xticklabels(panel.days[::step], fontsize=6, rotation=20, ha="right")
        if len(x) == 1:
            ax.set_xlim(-1.0, 1.0)
        ax.tick_params(labelsize=7)
    return fig


def render_svg(chart: Chart) -> str:
    """The chart as an ``<svg>`` element (no XML prologue; the page gives it its title)."""
    with plt.rc_context(_STYLE):
        if chart.kind == "multiples":
            fig = _multiples(chart)
        else:
            rows = len(chart.categories) if chart.kind == "barh" else 0
            height = max(2.6, min(9.0, 0.9 + 0.24 * rows * max(1, len(chart.series)))) if rows else 3.2
            fig, ax = plt.subplots(figsize=(WIDTH, height))
            draw = {"bar": _bar, "barh": _barh, "lines": _lines, "stacked": _stacked, "hist": _hist}[
                chart.kind
            ]
            if chart.time_axis and len(chart.categories) == 1 and chart.kind != "barh":
                draw = _points
            draw(ax, chart)
            if chart.counts or chart.kind == "hist":  # a histogram's bars count repositories
                (ax.xaxis if chart.kind == "barh" else ax.yaxis).set_major_locator(MaxNLocator(integer=True))
            if chart.x_label:
                ax.set_xlabel(chart.x_label)
            if chart.y_label:
                ax.set_ylabel(chart.y_label)
            rotated = chart.kind in ("lines", "stacked") or (
                chart.kind == "bar" and len(chart.categories) > 6
            )
            outside = len(chart.series) > 1 and chart.kind in ("lines", "stacked")
            if outside:  # many lines or layers: the legend beside the plot, not over it
                ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
            elif len(chart.series) > 1:
                ax.legend(fontsize=8, loc="upper right", frameon=False)
            # Fixed margins instead of tight_layout(), which lays every label out twice (BENCHMARKS.md,
            # "report").
            fig.subplots_adjust(
                left=0.32 if chart.kind == "barh" else 0.08,
                right=0.74 if outside else 0.98,
                top=0.96,
                bottom=0.3 if rotated else 0.16,
            )
        buf = io.StringIO()
        try:
            fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
        finally:
            plt.close(fig)
    svg = buf.getvalue()
    return svg[svg.index("<svg") :]
