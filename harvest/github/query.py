"""Search query text: GitHub's length and operator limits, and slicing past the result cap.

GitHub answers at most a fixed number of results per search (1000 today), however large
``total_count`` is. To collect everything, a query is cut into slices by ``created:`` date
ranges (bisected until each slice fits under the cap) and, when a single day still holds too
many, by ``stars:`` ranges. Slices only *add* qualifiers, which GitHub ANDs implicitly and does
not count toward its 256-character limit, so slicing never adds a boolean operator or free text.

A ``created:`` or ``stars:`` qualifier the user wrote is folded into the slice's range (the
slices stay inside it); one that cannot be read (a datetime, a negation) stays in the text as
written and that dimension is not sliced.
"""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Any

logger = logging.getLogger(__name__)

_TOKEN_RE = re.compile(r'-?[A-Za-z_][\w-]*:(?:"[^"]*"|\S+)|"[^"]*"|\S+')
_QUALIFIER_RE = re.compile(r"^(-?)([A-Za-z_][\w-]*):(.+)$")
_OPERATORS = frozenset({"AND", "OR", "NOT"})
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_INT_RE = re.compile(r"^\d+$")
#: A split aims to fill each part to this share of the cap, so that an uneven spread of
#: repositories over time rarely pushes a part over the cap (each overflow costs one request).
_SPLIT_FILL = 0.8
#: Smallest factor by which an open-ended ``stars:>=N`` range grows at a split.
_STARS_GROWTH = 4
#: Fewest sample values inside a range for their quantiles to place the cuts.
_MIN_SAMPLE = 8


def tokenize(query: str) -> list[str]:
    """Split a query on whitespace, keeping quoted phrases and ``key:"quoted value"`` whole."""
    return _TOKEN_RE.findall(query)


def count_operators(query: str) -> int:
    """Number of ``AND`` / ``OR`` / ``NOT`` operators outside quotes (GitHub allows five)."""
    return sum(1 for tok in tokenize(query) if tok in _OPERATORS)


def free_text_length(query: str) -> int:
    """Characters GitHub counts toward its length limit: the text without qualifiers or operators."""
    words = [t for t in tokenize(query) if t not in _OPERATORS and not _QUALIFIER_RE.match(t)]
    return len(" ".join(words))


def query_problems(query: str, *, max_length: int, max_operators: int) -> list[str]:
    """Why GitHub would reject ``query`` for its size (empty list: fine). A limit of 0 is unchecked."""
    problems = []
    if not query.strip():
        problems.append("the query is empty")
    length = free_text_length(query)
    if max_length and length > max_length:
        problems.append(
            f"the query text is {length} characters long, over the limit of {max_length} "
            "(qualifiers and operators excluded)"
        )
    ops = count_operators(query)
    if max_operators and ops > max_operators:
        problems.append(f"the query has {ops} AND/OR/NOT operators, over the limit of {max_operators}")
    return problems


@dataclass(frozen=True)
class Slice:
    """Inclusive ``created:`` and ``stars:`` bounds added to a query; ``None`` = unbounded."""

    created_lo: date | None = None
    created_hi: date | None = None
    stars_lo: int | None = None
    stars_hi: int | None = None

    def qualifiers(self) -> str:
        """The qualifiers this slice adds (empty for the whole range)."""
        parts = []
        created = _render_range(
            self.created_lo.isoformat() if self.created_lo else None,
            self.created_hi.isoformat() if self.created_hi else None,
        )
        if created:
            parts.append(f"created:{created}")
        stars = _render_range(
            str(self.stars_lo) if self.stars_lo is not None else None,
            str(self.stars_hi) if self.stars_hi is not None else None,
        )
        if stars:
            parts.append(f"stars:{stars}")
        return " ".join(parts)

    def to_meta(self) -> dict[str, Any]:
        """Plain data for request meta (requests must stay serializable)."""
        return {
            "created_lo": self.created_lo.isoformat() if self.created_lo else None,
            "created_hi": self.created_hi.isoformat() if self.created_hi else None,
            "stars_lo": self.stars_lo,
            "stars_hi": self.stars_hi,
        }

    @classmethod
    def from_meta(cls, data: dict[str, Any] | None) -> Slice:
        """Inverse of :meth:`to_meta`."""
        if not data:
            return cls()
        return cls(
            created_lo=date.fromisoformat(data["created_lo"]) if data.get("created_lo") else None,
            created_hi=date.fromisoformat(data["created_hi"]) if data.get("created_hi") else None,
            stars_lo=data.get("stars_lo"),
            stars_hi=data.get("stars_hi"),
        )


def _render_range(lo: str | None, hi: str | None) -> str:
    # Only the forms GitHub documents for both dates and numbers: a..b (also for one day or one
    # star count), >=a, <=b.
    if lo is not None and hi is not None:
        return f"{lo}..{hi}"
    if lo is not None:
        return f">={lo}"
    if hi is not None:
        return f"<={hi}"
    return ""


def _parse_bound(text: str, kind: str) -> date | int | None:
    if kind == "date":
        return date.fromisoformat(text) if _DATE_RE.match(text) else None
    return int(text) if _INT_RE.match(text) else None


def _step(value: Any, delta: int) -> Any:
    return value + timedelta(days=delta) if isinstance(value, date) else value + delta


def parse_range(value: str, kind: str) -> tuple[Any, Any] | None:
    """Inclusive (lo, hi) of a qualifier value such as ``>=2020-01-01``, ``10..50``, ``*..9``.

    ``kind`` is ``"date"`` or ``"int"``. None when the value is not a plain date or integer form
    (datetimes, ``@today``, garbage): such a qualifier is left to GitHub as written.
    """
    value = value.strip().strip('"')
    if ".." in value:
        left, _, right = value.partition("..")
        lo = None if left == "*" else _parse_bound(left, kind)
        hi = None if right == "*" else _parse_bound(right, kind)
        if (left != "*" and lo is None) or (right != "*" and hi is None):
            return None
        return lo, hi
    for prefix in (">=", "<=", ">", "<"):
        if value.startswith(prefix):
            bound = _parse_bound(value[len(prefix) :], kind)
            if bound is None:
                return None
            return {
                ">=": (bound, None),
                ">": (_step(bound, 1), None),
                "<=": (None, bound),
                "<": (None, _step(bound, -1)),
            }[prefix]
    bound = _parse_bound(value, kind)
    return None if bound is None else (bound, bound)


def _intersect(a: tuple[Any, Any], b: tuple[Any, Any]) -> tuple[Any, Any]:
    lo = b[0] if a[0] is None else a[0] if b[0] is None else max(a[0], b[0])
    hi = b[1] if a[1] is None else a[1] if b[1] is None else min(a[1], b[1])
    return lo, hi


@dataclass(frozen=True)
class SlicedQuery:
    """A user's query taken apart for slicing: the rest of its text, and its sliceable ranges."""

    original: str
    base: str
    root: Slice
    created_sliceable: bool
    stars_sliceable: bool

    def text(self, part: Slice | None) -> str:
        """The ``q`` for one slice; ``None`` (the whole query) gives the user's text unchanged."""
        if part is None:
            return self.original
        quals = part.qualifiers()
        return f"{self.base} {quals}".strip() if quals else self.base


def parse_query(query: str) -> SlicedQuery:
    """Take ``created:`` / ``stars:`` qualifiers out of ``query`` into the root slice's ranges."""
    keep: list[str] = []
    created: tuple[Any, Any] = (None, None)
    stars: tuple[Any, Any] = (None, None)
    created_ok = stars_ok = True
    for tok in tokenize(query):
        m = _QUALIFIER_RE.match(tok)
        key = m.group(2).lower() if m else ""
        if m and key in {"created", "stars"}:
            parsed = None if m.group(1) else parse_range(m.group(3), "date" if key == "created" else "int")
            if parsed is not None:
                if key == "created":
                    created = _intersect(created, parsed)
                else:
                    stars = _intersect(stars, parsed)
                continue
            # Unreadable or negated: GitHub applies it as written; we cannot slice inside it.
            if key == "created":
                created_ok = False
            else:
                stars_ok = False
        keep.append(tok)
    root = Slice(created_lo=created[0], created_hi=created[1], stars_lo=stars[0], stars_hi=stars[1])
    return SlicedQuery(
        original=query.strip(),
        base=" ".join(keep),
        root=root,
        created_sliceable=created_ok,
        stars_sliceable=stars_ok,
    )


def _cuts(lo: int, hi: int, k: int, sample: list[int]) -> list[int]:
    """Up to ``k - 1`` increasing cut points in ``[lo, hi)``: part i ends at cut i (inclusive).

    With a sample of values (the dates or star counts of the items on the slice's first page),
    cuts sit at its quantiles, so parts hold similar counts however the values are spread;
    without one, the range is cut into equal spans.
    """
    inside = sorted(v for v in sample if lo <= v <= hi)
    if len(inside) >= _MIN_SAMPLE:
        raw = [inside[min(len(inside) - 1, (len(inside) * i) // k)] for i in range(1, k)]
    else:
        raw = [lo + ((hi - lo + 1) * i) // k - 1 for i in range(1, k)]
    cuts: list[int] = []
    for c in raw:
        c = min(max(c, lo), hi - 1)
        if not cuts or c > cuts[-1]:
            cuts.append(c)
    return cuts


def split_slice(
    sq: SlicedQuery,
    part: Slice,
    *,
    total: int,
    cap: int,
    floor: date,
    today: date,
    sample_dates: list[date] | None = None,
    sample_stars: list[int] | None = None,
) -> list[Slice]:
    """Parts of ``part`` that each should hold at most ``cap`` of its ``total`` results.

    Dates first: ``part``'s created range (open ends read as ``floor`` and ``today``) is cut into
    as many parts as the count suggests, at the quantiles of ``sample_dates`` when given. A single
    day is cut by stars instead (open ``>=N`` ranges read up to the sample's largest value, or a
    multiple of N). The outer parts keep ``part``'s open ends, so nothing outside the estimated
    range is lost. An empty list means the slice cannot be cut further (one day, one star count):
    only its first ``cap`` results exist for the API.
    """
    wanted = max(2, math.ceil(total / max(1.0, cap * _SPLIT_FILL)))
    if sq.created_sliceable:
        lo = (part.created_lo or floor).toordinal()
        hi = (part.created_hi or today).toordinal()
        if hi > lo:
            sample = [d.toordinal() for d in sample_dates or []]
            cuts = _cuts(lo, hi, min(wanted, hi - lo + 1), sample)
            bounds: list[date | None] = [part.created_lo, *(date.fromordinal(c + 1) for c in cuts)]
            ends: list[date | None] = [*(date.fromordinal(c) for c in cuts), part.created_hi]
            return [replace(part, created_lo=a, created_hi=b) for a, b in zip(bounds, ends, strict=True)]
    if sq.stars_sliceable:
        lo_s = part.stars_lo or 0
        hi_s = part.stars_hi
        if hi_s is None:
            top = max(sample_stars or [0])
            hi_s = max(top, lo_s * _STARS_GROWTH, lo_s + _STARS_GROWTH)
        if hi_s > lo_s:
            cuts = _cuts(lo_s, hi_s, min(wanted, hi_s - lo_s + 1), sample_stars or [])
            starts: list[int | None] = [part.stars_lo] + [c + 1 for c in cuts]
            stops: list[int | None] = [*cuts, part.stars_hi]
            return [replace(part, stars_lo=a, stars_hi=b) for a, b in zip(starts, stops, strict=True)]
    return []
