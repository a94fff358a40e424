"""Safe file names under the data folder for things named by URLs and repositories.

Names come from the network, so nothing derived from them may escape the data folder:
no ``..``, no absolute paths, no NUL or control characters, bounded length, and no two
names that differ only in case (they would collide on case-insensitive file systems).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from pathlib import Path

_UNSAFE_RE = re.compile(r"[^A-Za-z0-9._-]+")
# Most file systems allow 255 bytes per name; leave room for a hash suffix and extension.
_MAX_STEM = 120


def safe_name(text: str, *, suffix: str = "") -> str:
    """A portable, lower-case file name for ``text``; distinct inputs stay distinct (hash suffix)."""
    norm = unicodedata.normalize("NFKD", text)
    stem = _UNSAFE_RE.sub("-", norm.encode("ascii", "ignore").decode()).strip(".-_").lower()
    stem = re.sub(r"-{2,}", "-", stem)[:_MAX_STEM].strip(".-_") or "item"
    # Case-folding and character stripping can merge names; a short hash of the original
    # keeps "Foo/Bar" and "foo/bar" (or two URLs that differ in a stripped char) apart.
    if stem != text:
        stem = f"{stem}-{hashlib.sha256(text.encode('utf-8', 'surrogatepass')).hexdigest()[:10]}"
    return stem + suffix


def safe_join(root: str | Path, *parts: str) -> Path:
    """``root/part/...`` with every part made safe; raises ValueError if it would leave ``root``."""
    base = Path(root).resolve()
    target = base.joinpath(*(safe_name(p) if p not in {"", "."} else "item" for p in parts))
    resolved = target.resolve()
    if base != resolved and base not in resolved.parents:
        raise ValueError(f"path {target} escapes the data folder {base}")
    return resolved
