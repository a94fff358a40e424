r"""The one redaction of secrets, for everything harvest shows or keeps: logs, errors, WARC, report.

Harvest never puts a token into its status or outputs on purpose, but an error text can echo a
URL or a header, and a server (a proxy, an error page) can echo the request's ``Authorization``
header in any encoding. :func:`scrub` masks, as ``***``:

- the value of ``GITHUB_TOKEN`` (and any other secret passed in) in every form a server may echo
  it: raw (so also ``Bearer <token>`` / ``token <token>``), URL-encoded (``%XX`` for some or all
  characters), and base64 of any text holding it (of itself, of ``Bearer <token>``, of Basic
  auth's ``user:<token>`` and GitHub's ``x-access-token:<token>``), standard or URL-safe, with
  or without padding, percent-encoded or with JSON's ``\/``: the whole base64 run goes;
- anything that looks like a credential: GitHub token formats, ``user:password@`` in URLs,
  ``token=``/``key=``/``secret=`` parameters and ``Authorization``/``Bearer`` values.

It is installed for every log record of the process (:func:`install_log_redaction`, message and
traceback alike) when harvest is imported, and the error messages, WARC records
(:func:`redact_headers`, :func:`scrub_bytes`), report and dashboard call it directly.
"""

from __future__ import annotations

import base64
import functools
import logging
import os
import re
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

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
#: Request headers that carry credentials: their values never enter a WARC record.
SECRET_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie"})
#: Other header names that say they carry one (X-Api-Key, X-Auth-Token, Private-Token...).
_SECRET_HEADER_NAME = re.compile(r"(?i)auth|token|secret|api-?key|password|session")
#: Shorter values are not masked (a 3-letter "secret" would mask half of every text).
_MIN_SECRET = 4
#: Base64 forms are looked for from this length (their stable core is then 14+ characters,
#: which no unrelated text holds by chance).
_MIN_BASE64_SECRET = 12
#: A base64 run, as it may appear in a text: standard or URL-safe alphabet, padding, and the
#: escaped forms of ``+``, ``/`` and ``=`` (percent-encoding, JSON's backslash-slash).
_BASE64_RUN = re.compile(r"[A-Za-z0-9+/_%\\-]{14,}(?:=|%3[Dd]){0,2}")


@functools.lru_cache(maxsize=64)
def _url_encoded(secret: str) -> re.Pattern[str]:
    """The secret with any of its characters percent-encoded (either hex case; ``+`` for space)."""
    parts = []
    for ch in secret:
        escaped = "".join(f"%{b:02X}" for b in ch.encode("utf-8"))
        options = [re.escape(ch), re.escape(escaped)] + (["\\+"] if ch == " " else [])
        parts.append("(?:" + "|".join(options) + ")")
    # Case-insensitive for the hex digits; a case variant of a whole secret is masked too.
    return re.compile("".join(parts), re.IGNORECASE)


@functools.lru_cache(maxsize=64)
def _base64_cores(secret: str) -> tuple[str, ...]:
    """The characters every base64 encoding of a text holding ``secret`` contains, per alignment.

    Base64 turns 3 bytes into 4 characters: where the secret starts in its 3-byte group (0, 1 or
    2 bytes before it) decides its encoding, except for the characters that share bits with the
    bytes around it. Those middle characters are the same whatever surrounds the secret.
    """
    data = secret.encode("utf-8")
    if len(data) < _MIN_BASE64_SECRET:
        return ()
    cores: list[str] = []
    for before in range(3):
        encoded = base64.b64encode(b"\0" * before + data).decode("ascii")
        start = -(-8 * before // 6)  # the first character whose bits are all the secret's
        end = (8 * (before + len(data))) // 6
        core = encoded[start:end]
        cores += [core, core.replace("+", "-").replace("/", "_")]
    return tuple(dict.fromkeys(cores))


def secret_values(extra: Iterable[str | None] = ()) -> tuple[str, ...]:
    """The secrets to mask: ``SECRET_ENV``'s values now, plus ``extra`` (short ones left out)."""
    found = [os.environ.get(name, "").strip() for name in SECRET_ENV]
    found += [value.strip() for value in extra if value]
    return tuple(dict.fromkeys(v for v in found if len(v) >= _MIN_SECRET))


def _mask_base64(text: str, cores: Sequence[str]) -> str:
    def replace(match: re.Match[str]) -> str:
        run = match.group(0)
        plain = unquote(run.replace("\\/", "/"))
        return MASK if any(core in plain for core in cores) else run

    return _BASE64_RUN.sub(replace, text)


def scrub(text: str, secrets: Iterable[str | None] = (), *, patterns: bool = True) -> str:
    """``text`` with secrets masked as ``***`` (see the module docstring).

    ``secrets``: values to mask besides ``GITHUB_TOKEN`` (e.g. the credentials a request sent).
    ``patterns=False`` masks those values only, not what merely looks like a credential (for a
    payload archived as received: only a secret harvest sent is taken out of it).
    """
    cores: list[str] = []
    for secret in secret_values(secrets):
        if secret in text:
            text = text.replace(secret, MASK)
        if "%" in text and secret.lower() in unquote(text).lower():
            text = _url_encoded(secret).sub(MASK, text)
        cores += _base64_cores(secret)
    if cores:
        text = _mask_base64(text, cores)
    if patterns:
        for pattern in _PATTERNS:
            text = pattern.sub(lambda m: m.group(1) + MASK, text)
    return text


def scrub_bytes(data: bytes, secrets: Iterable[str | None] = ()) -> bytes:
    """``data`` with the secrets' forms masked, other bytes untouched (latin-1 round trip)."""
    return scrub(data.decode("latin-1"), secrets, patterns=False).encode("latin-1")


def looks_like_secret(text: str) -> bool:
    """Whether ``text`` contains something :func:`scrub` would mask."""
    return scrub(text) != text


def scrub_data(value: Any) -> Any:
    """A copy of a JSON-like value (dicts, lists, strings...) with every string scrubbed."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {k: scrub_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [scrub_data(v) for v in value]
    return value


def is_secret_header(name: str) -> bool:
    """Whether a request header's value is a credential (by its name)."""
    return name.lower() in SECRET_HEADERS or _SECRET_HEADER_NAME.search(name) is not None


def credentials_of(headers: Iterable[tuple[str, str]]) -> list[str]:
    """The secrets a request sent: each credential header's value and its part after the scheme.

    Cookies are left out: a site's own cookies are no secret of ours to look for in its pages
    (their values, often short, would mask ordinary text such as ``lang=en``).
    """
    found: list[str] = []
    for name, value in headers:
        if is_secret_header(name) and name.lower() != "cookie" and value.strip():
            found.append(value.strip())
            scheme, _, rest = value.strip().partition(" ")
            if rest.strip() and scheme.lower() in {"bearer", "token", "basic"}:
                found.append(rest.strip())
    return found


def redact_headers(headers: Iterable[tuple[str, str]]) -> tuple[list[tuple[str, str]], list[str]]:
    """Headers with credential values replaced by ``***`` and the rest scrubbed; what changed.

    Returns the new (name, value) list and the lower-case names of the headers whose value
    changed (for the record's ``WARC-Harvest-Redacted`` field).
    """
    pairs = list(headers)
    secrets = credentials_of(pairs)
    out: list[tuple[str, str]] = []
    changed: list[str] = []
    for name, value in pairs:
        new = MASK if is_secret_header(name) else scrub(value, secrets)
        if new != value and name.lower() not in changed:
            changed.append(name.lower())
        out.append((name, new))
    return out, changed


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


class RedactedLogRecord(logging.LogRecord):
    """A log record whose message, traceback and stack text are scrubbed when formatted."""

    def getMessage(self) -> str:  # noqa: N802 - logging's name
        """The message with ``%`` arguments merged, then scrubbed."""
        return scrub(super().getMessage())

    @property
    def exc_text(self) -> str | None:
        """The formatted traceback (a formatter caches it here), scrubbed."""
        return self.__dict__.get("_harvest_exc_text")

    @exc_text.setter
    def exc_text(self, value: str | None) -> None:
        self.__dict__["_harvest_exc_text"] = scrub(value) if value else value

    @property
    def stack_info(self) -> str | None:
        """The stack (``stack_info=True``), scrubbed."""
        return self.__dict__.get("_harvest_stack_info")

    @stack_info.setter
    def stack_info(self, value: str | None) -> None:
        self.__dict__["_harvest_stack_info"] = scrub(value) if value else value


def install_log_redaction() -> None:
    """Make every log record of this process a :class:`RedactedLogRecord` (idempotent).

    A record factory rather than a handler filter: it holds for every handler (Scrapy's, which it
    replaces when a crawler starts, a log file's, the fleet's, a test's), and costs nothing for
    the records no handler formats.
    """
    if logging.getLogRecordFactory() is not RedactedLogRecord:
        logging.setLogRecordFactory(RedactedLogRecord)
