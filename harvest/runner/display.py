"""What the user sees: a live table on a terminal, log lines otherwise, and the final summary.

Every view renders the same snapshot dict that goes into ``data/fleet/status.json``, so the
table, the log lines and the file can never disagree.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.table import Table
from rich.text import Text

from harvest.util.units import format_duration, format_size

logger = logging.getLogger(__name__)

_STATE_STYLES = {
    "running": "green",
    "stopping": "yellow",
    "restarting": "yellow",
    "queued": "dim",
    "waiting": "cyan",
    "done": "blue",
    "stopped": "blue",
    "failed": "bold red",
    "unreachable": "bold red",
    "error": "bold red",
    "terminated": "bold red",
}
#: Seconds between two renderings of the live table (rich refreshes the screen on its own).
_FRAME = 0.25
#: Terminals narrower than this get short headers, and the last errors under the table.
_NARROW = 110
#: Widest "last error" cell; the full text is in status.json and the spider's log.
_ERROR_WIDTH = 60
#: Widest "waiting for" cell (longer texts fold); every wait is in status.json.
_WAIT_WIDTH = 50


def _state_text(row: dict[str, Any]) -> Text:
    state = row["state"]
    label = state
    if row.get("next_round_in_s") is not None and state in ("waiting", "restarting", "unreachable", "error"):
        label = f"{state} ({format_duration(row['next_round_in_s'])})"
    return Text(label, style=_STATE_STYLES.get(state, ""))


def _short(text: str | None, width: int = _ERROR_WIDTH) -> str:
    if not text:
        return ""
    return text if len(text) <= width else text[: width - 1] + "…"


def fleet_table(
    snapshot: dict[str, Any], *, title: str = "harvest fleet", final: bool = False, width: int = 200
) -> RenderableType:
    """One row per spider process slot, and the fleet's totals in the caption.

    On a narrow terminal the headers shrink, and what each spider waits for and its last error
    go under the table.
    """
    narrow = width < _NARROW
    # No vertical rules: on an 80-column terminal every character goes to the numbers.
    table = Table(title=title, title_justify="left", expand=False, box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("spider", no_wrap=True)
    table.add_column("state", no_wrap=True)
    headers = [
        "pid",
        "items",
        "pages",
        "/min" if narrow else "items/min",
        "errs" if narrow else "errors",
        "rst" if narrow else "restarts",
    ]
    for header in (*headers, *([("rnd" if narrow else "rounds")] if final else [])):
        table.add_column(header, justify="right", no_wrap=True)
    if not narrow:
        table.add_column("waiting for", overflow="fold", max_width=_WAIT_WIDTH)
        table.add_column("last error", overflow="fold", max_width=_ERROR_WIDTH)
    notes = []
    for row in snapshot["spiders"]:
        cells: list[Any] = [
            row["name"],
            _state_text(row),
            str(row["pid"] or ""),
            f"{row['items']:,}",
            f"{row['pages']:,}",
            f"{row['items_per_min']:.0f}",
            Text(str(row["errors"]), style="red" if row["errors"] else ""),
            str(row["restarts"]),
        ]
        if final:
            cells.append(str(row["rounds"]))
        waiting_for = row.get("waiting_for")
        if narrow:
            if waiting_for:
                notes.append(Text(f"{row['name']}: {_short(waiting_for, width - len(row['name']) - 3)}"))
            if row["last_error"]:
                notes.append(
                    Text(
                        f"{row['name']}: {_short(row['last_error'], width - len(row['name']) - 3)}",
                        style="red",
                    )
                )
        else:
            cells.append(Text(waiting_for or "", style="cyan"))  # folds: its end time matters
            cells.append(Text(_short(row["last_error"]), style="red"))
        table.add_row(*cells)
    table.caption = caption(snapshot)
    table.caption_justify = "left"
    return Group(table, *notes) if notes else table


def caption(snapshot: dict[str, Any]) -> str:
    """The totals line: shared item count, data size, elapsed time, and why it stops."""
    parts = [f"total items (all processes): {snapshot['items_total']:,}"]
    size = snapshot.get("data_size_bytes")
    if size is not None:
        limit = snapshot.get("max_data_size_bytes")
        parts.append(f"data: {format_size(size)}" + (f" of {format_size(limit)}" if limit else ""))
    parts.append(f"elapsed: {format_duration(snapshot['uptime_s'])}")
    if snapshot.get("stop_reason"):
        parts.append(f"stopping: {snapshot['stop_reason']}")
    return " · ".join(parts)


def log_line(row: dict[str, Any]) -> str:
    """One concise progress line for a spider (no terminal)."""
    line = (
        f"{row['name']}: {row['state']} pid={row['pid'] or '-'} items={row['items']} "
        f"pages={row['pages']} items/min={row['items_per_min']:.0f} errors={row['errors']} "
        f"restarts={row['restarts']}"
    )
    if row.get("next_round_in_s") is not None:
        line += f" next-round-in={format_duration(row['next_round_in_s'])}"
    if row.get("in_flight"):
        line += f" in-flight={row['in_flight']}"
    if row.get("waiting_for") and row["state"] != "waiting":
        line += f" waiting-for={row['waiting_for']!r}"
    if row["last_error"]:
        line += f" last-error={_short(row['last_error'])!r}"
    return line


class Display:
    """Shows the fleet while it runs: a rich live table on a terminal, else periodic log lines."""

    def __init__(self, console: Console, *, live: bool, log_interval: float) -> None:
        self.console = console
        self.live_enabled = live
        self.log_interval = log_interval
        self._live: Live | None = None
        self._next_log = 0.0
        self._next_frame = 0.0

    def start(self) -> None:
        """Begin showing progress."""
        if self.live_enabled:
            self._live = Live(
                console=self.console,
                refresh_per_second=2,
                transient=False,
                redirect_stdout=False,
                redirect_stderr=False,
            )
            self._live.start()
        self._next_log = time.monotonic() + self.log_interval

    def update(self, snapshot: dict[str, Any]) -> None:
        """Show the latest snapshot (the live table now, log lines when the interval is due)."""
        now = time.monotonic()
        if self._live is not None:
            if now >= self._next_frame:
                self._next_frame = now + _FRAME
                self._live.update(fleet_table(snapshot, width=self.console.width))
            return
        if now < self._next_log:
            return
        self._next_log = now + self.log_interval
        for row in snapshot["spiders"]:
            logger.info("%s", log_line(row))
        logger.info("%s", caption(snapshot))

    def stop(self) -> None:
        """Stop the live view (the summary is printed after)."""
        if self._live is not None:
            self._live.stop()
            self._live = None


def print_summary(console: Console, snapshot: dict[str, Any], outputs: list[str]) -> None:
    """The final table, what was terminated, why the fleet stopped, and where the output is."""
    console.print(fleet_table(snapshot, title="harvest fleet: summary", final=True, width=console.width))
    terminated = [r for r in snapshot["spiders"] if r["state"] == "terminated"]
    if terminated:
        names = ", ".join(f"{r['name']} (pid {r['last_pid']})" for r in terminated)
        console.print(f"[bold red]Terminated after the grace period:[/] {names}", soft_wrap=True)
    if snapshot.get("stop_reason"):
        # One line whatever the width: the reason names a path, and users grep for it.
        console.print(f"Stopped: {snapshot['stop_reason']}", soft_wrap=True)
    failed = [
        r for r in snapshot["spiders"] if r["state"] in ("failed", "unreachable", "error", "terminated")
    ]
    for row in failed:
        console.print(
            f"[red]{row['name']}: {row['state']}[/]: {row['last_error'] or row['last_reason'] or ''}"
            f"  (log: {row['log_file']})",
            soft_wrap=True,
        )
    console.print("Output:", soft_wrap=True)
    for line in outputs:
        console.print(f"  {line}", soft_wrap=True, highlight=False)
