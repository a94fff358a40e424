"""Masking secrets in text shown to people: the dashboard, the report, anything served or rendered.

Harvest never puts a token into its status or outputs on purpose, but an error text can echo a
URL or a header. :func:`scrub` masks the value of ``GITHUB_TOKEN`` and anything that looks like a
credential: GitHub token formats, ``user:password@`` in URLs, ``token=``/``key=``/``secret=``
parameters and ``Authorization``/``Bearer`` values. :func:`scrub_data` applies it to every string
of a JSON-like structure.
"""

from __future__ import annotations

import logging
import os
import re
from typing import Any
from urllib.parse import urlsplit, urlunsplit

logger = logging.getLogger(__name__)

MASK = "***"

_PATTERNS = [
    # GitHub's token formats: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained.
    re.compile(r"()\bgh[pousr]_[A-Za-z0-9]{16,}\b"),
    re.compile(r"()\bgithub_pat_[A-Za-z0-9_]{20,}\b"),
    # Credentials in a URL: scheme://user:password@host
    re.compile(r"(://)[^/\s:@]+:[^/\s@]+(?=@)"),
    # Header or parameter values: Authorization: token X, Bearer X, ?access_token=X, password=X...
    re.compile(r"(?i)(authorization:\s*(?:token\s+|basic\s+|bearer\s+)?)[^\s,;\"']+"),
    re.compile(r"(?i)(bearer\s+)[^\s,;\"']+"),
    re.compile(r"(?i)((?:token|secret|password|passwd|api_key|apikey|key)=)[^&\s\"']+"),
    re.compile(r"(?i)((?:token|secret|password|passwd|api_key|apikey)\"\s*:\s*\")[^\"]+"),
]
#: Environment variables whose values are secrets wherever they appear.
SECRET_ENV = ("GITHUB_TOKEN",)


def looks_like_secret(text: str) -> bool:
    """Whether ``text`` contains something :func:`scrub` would mask."""
    return scrub(text) != text


def scrub(text: str) -> str:
    """``text`` with secret values masked as ``***``."""
    for name in SECRET_ENV:
        value = os.environ.get(name, "").strip()
        if len(value) >= 4 and value in text:
            text = text.replace(value, MASK)
    for pattern in _PATTERNS:
        text = pattern.sub(lambda m: m.group(1) + MASK, text)
    return text


def scrub_data(value: Any) -> Any:
    """A copy of a JSON-like value (dicts, lists, strings...) with every string scrubbed."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {k: scrub_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [scrub_data(v) for v in value]
    return value


def mask_url(url: str) -> str:
    """``url`` with any password replaced by ``***`` (for logs and error messages)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{user}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))
