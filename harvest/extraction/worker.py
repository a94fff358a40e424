"""An extraction worker's main loop: ``python -m harvest.extraction.worker``.

The worker reads pages on stdin and answers on stdout, one :mod:`multiprocessing.connection`
message each way per page (``Connection.recv_bytes`` / ``send_bytes``: a length header, then a
pickle). In: ``(html, url)``. Out: ``("ok", fields of the Article or None)`` or
``("error", message)``. With ``--signatures`` (near-duplicate detection on) the Article carries
its MinHash signature; ``--nice N`` adds N to its niceness. Only plain values cross (pickles of
our own pipe between our own processes, never data from elsewhere). End of input (the crawler
closed the pool, exited or was killed) ends the worker, so none outlives its crawl.
"""

from __future__ import annotations

import os
import pickle
import sys
from multiprocessing.connection import Connection
from typing import Any

from harvest.extraction.result import Extracted
from harvest.parsers.article import extract_article
from harvest.parsers.neardup import signature, to_bytes


def answer(payload: bytes, *, signatures: bool = False, language: bool = False) -> bytes:
    """The pickled answer to one pickled ``(html, url)`` request.

    With ``signatures``, the article's MinHash signature too, with ``language`` its language:
    computed here, they are not the crawl process's work (each was a fifth of it with extraction
    on).
    """
    html, url = pickle.loads(payload)
    try:
        article = extract_article(html, url)
        if signatures and article is not None:
            sig = signature(article.markdown)
            article.minhash = to_bytes(sig) if sig is not None else None
        extracted = Extracted.derive(article, language=language) if article is not None else None
        result: tuple[str, Any] = ("ok", extracted.to_fields() if extracted is not None else None)
    except Exception as exc:  # noqa: BLE001 - the page's problem, reported to the crawler
        result = ("error", f"{type(exc).__name__}: {exc}")
    return pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)


def serve(inbox: Connection, outbox: Connection, *, signatures: bool = False, language: bool = False) -> None:
    """Answer every page received on ``inbox`` on ``outbox``, until ``inbox`` closes."""
    while True:
        try:
            payload = inbox.recv_bytes()
        except EOFError:
            return
        outbox.send_bytes(answer(payload, signatures=signatures, language=language))


def main() -> None:
    """Run one extraction worker on stdin/stdout (the pool's pipes)."""
    # Answers go to the original stdout; anything printed afterwards, by Python code or by a C
    # library writing to file descriptor 1, goes to stderr and cannot corrupt them.
    outbox = Connection(os.dup(sys.stdout.fileno()), readable=False)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    inbox = Connection(os.dup(sys.stdin.fileno()), writable=False)
    args = sys.argv[1:]
    if "--nice" in args:
        # Below the crawl process that feeds it: preempting it left every worker waiting.
        os.nice(int(args[args.index("--nice") + 1]))
    try:
        serve(inbox, outbox, signatures="--signatures" in args, language="--language" in args)
    except (BrokenPipeError, KeyboardInterrupt):
        pass


if __name__ == "__main__":
    # Run through the imported module, so answers are built from harvest's own classes and not
    # from a second copy of this file loaded as __main__.
    from harvest.extraction.worker import main as _main

    _main()
