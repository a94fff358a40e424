"""The dashboard's HTML page: the live fleet table, refreshed by the browser itself (no script)."""

from __future__ import annotations

import logging
from html import escape
from typing import Any

from harvest.util.units import format_duration, format_size

logger = logging.getLogger(__name__)

_CSS = """
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 20px;
       color: #1b1f24; background: #f6f8fa; }
h1 { font-size: 20px; margin: 0 0 6px; }
p { margin: 4px 0 10px; color: #57606a; }
table { border-collapse: collapse; background: #fff; border: 1px solid #d0d7de; }
th, td { padding: 4px 10px; border-bottom: 1px solid #d0d7de; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.running { color: #1a7f37; } .waiting, .queued, .done, .stopped { color: #57606a; }
.failed, .error, .unreachable, .terminated { color: #cf222e; font-weight: 600; }
.restarting, .stopping { color: #9a6700; }
td.err { color: #cf222e; max-width: 420px; }
"""
_COLUMNS = (
    "spider",
    "state",
    "pid",
    "items",
    "pages",
    "items/min",
    "errors",
    "restarts",
    "rate-limit waits",
    "waiting for",
    "last error",
)


def _num(value: Any, key: str) -> str:
    number = value if isinstance(value, (int, float)) else 0
    text = f"{number:,.0f}" if isinstance(number, float) else f"{number:,}"
    return f'<td class="num" data-col="{key}">{text}</td>'


def _row(row: dict[str, Any]) -> str:
    state = escape(str(row.get("state") or ""))
    label = state
    if row.get("next_round_in_s") is not None:
        label += f" ({format_duration(row['next_round_in_s'])})"
    cells = [
        f'<th scope="row" data-col="name">{escape(str(row.get("name")))}</th>',
        f'<td class="{state}" data-col="state">{label}</td>',
        f'<td class="num" data-col="pid">{escape(str(row.get("pid") or ""))}</td>',
        _num(row.get("items"), "items"),
        _num(row.get("pages"), "pages"),
        _num(row.get("items_per_min"), "items_per_min"),
        _num(row.get("errors"), "errors"),
        _num(row.get("restarts"), "restarts"),
        _num(row.get("rate_limit_waits"), "rate_limit_waits"),
        f'<td data-col="waiting_for">{escape(str(row.get("waiting_for") or ""))}</td>',
        f'<td class="err" data-col="last_error">{escape(str(row.get("last_error") or ""))}</td>',
    ]
    return f'<tr data-spider="{escape(str(row.get("name")))}">' + "".join(cells) + "</tr>"


def render_dashboard(snapshot: dict[str, Any] | None, refresh_s: float) -> str:
    """The page for ``snapshot`` (already scrubbed of secrets); None: the fleet is starting."""
    refresh = max(1, round(refresh_s))
    if snapshot is None:
        body = "<p>The fleet is starting…</p>"
    else:
        size = snapshot.get("data_size_bytes")
        cap = snapshot.get("max_data_size_bytes")
        size_text = "measuring" if size is None else format_size(size)
        cap_text = f" of {format_size(cap)} (--max-data-size)" if cap else " (no cap)"
        facts = (
            f'Fleet <b data-fact="state">{escape(str(snapshot.get("state")))}</b> since '
            f"{escape(str(snapshot.get('started_at')))}, updated {escape(str(snapshot.get('updated_at')))} · "
            "items (all processes): "
            f'<b data-fact="items_total">{int(snapshot.get("items_total") or 0):,}</b> · '
            f'data folder: <b data-fact="data_size">{size_text}</b>{cap_text} · '
            f"uptime {format_duration(snapshot.get('uptime_s'))}"
        )
        if snapshot.get("stop_reason"):
            facts += f" · stopping: {escape(str(snapshot['stop_reason']))}"
        head = "".join(f'<th scope="col">{escape(c)}</th>' for c in _COLUMNS)
        rows = "\n".join(_row(r) for r in snapshot.get("spiders", []) if isinstance(r, dict))
        body = (
            f"<p>{facts}</p>\n<table><caption hidden>Spider processes of the fleet</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>\n{rows}\n</tbody></table>"
            f"<p>Data folder <code>{escape(str(snapshot.get('data_dir')))}</code> · "
            '<a href="status.json">status.json</a> · <a href="metrics">metrics</a></p>'
        )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="{refresh}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>harvest fleet</title>
<style>{_CSS}</style>
</head>
<body>
<h1>harvest fleet</h1>
{body}
<p>This page refreshes every {refresh} s.</p>
</body>
</html>
"""
