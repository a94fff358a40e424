"""MinHash signatures of a text's word shingles, and their LSH band keys (pure functions).

A document is reduced to the set of its word 5-grams (lower case, punctuation dropped; each
CJK character counts as a word, since those scripts put no spaces between words), then to a
MinHash signature of ``NUM_PERM`` 32-bit values (datasketch's affine32 scheme with its default
SHA-1 hash and a fixed seed, computed in numpy: signatures are comparable across processes and
runs). Locality-sensitive hashing splits the signature into
``bands`` bands of ``rows`` values; two documents sharing one band's values are candidates,
and a candidate is a near-duplicate when the estimated Jaccard similarity of the two signatures
reaches the threshold. The band layout favours recall (:meth:`BandLayout.for_threshold`).

numpy is imported where it is used: a crawl that yields no text (blogs with extraction off) does
not load it. datasketch is not imported at run time (it imports scipy: ~0.44 s and ~60 MB); the
tests check the signatures against it.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

#: Signature length: 128 values estimate a Jaccard similarity within ~0.03 (1/sqrt(128)/3).
NUM_PERM = 128
#: Share of pairs at the threshold the band layout must make candidates.
RECALL = 0.999
#: Words per shingle: 5 makes sentences, not vocabulary, count.
SHINGLE_WORDS = 5
_SEED = 1
_WORD_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]|[^\W_]+")
_FENCE_RE = re.compile(r"^(`{3,}|~{3,}).*?^\1\s*$", re.M | re.S)
_LINK_TARGET_RE = re.compile(r"\]\([^)]*\)")


@dataclass(frozen=True)
class BandLayout:
    """How a signature is cut into LSH bands: ``bands`` bands of ``rows`` values."""

    bands: int
    rows: int

    @classmethod
    def for_threshold(cls, threshold: float, num_perm: int = NUM_PERM) -> BandLayout:
        """The layout with the fewest candidates that still finds ``RECALL`` of pairs at ``threshold``.

        A pair of Jaccard similarity ``s`` shares a band with probability ``1 - (1 - s**r)**b``;
        candidates are then checked on the whole signature, so extra candidates cost a little
        time, missed pairs cost a near-duplicate. At 0.9: 16 bands of 8 rows (99.99% of pairs at
        0.9 found; a pair at 0.5 is a candidate 6% of the time, at 0.3 0.1%).
        """
        best = cls(num_perm, 1)
        for rows in range(1, num_perm + 1):
            bands = num_perm // rows
            if 1 - (1 - threshold**rows) ** bands < RECALL:
                break
            best = cls(bands, rows)
        return best


@functools.cache
def _permutations() -> tuple[np.ndarray, np.ndarray]:
    """The affine32 permutations datasketch draws for ``_SEED``: odd multipliers, offsets."""
    import numpy as np

    gen = np.random.RandomState(_SEED)
    a = gen.randint(0, 1 << 31, NUM_PERM, dtype=np.uint32) * np.uint32(2) + np.uint32(1)
    b = gen.randint(0, 1 << 32, NUM_PERM, dtype=np.uint32)
    return a, b


def words(text: str) -> list[str]:
    """The words of a Markdown text (code fences kept: a copied tutorial is its code too)."""
    return _WORD_RE.findall(_LINK_TARGET_RE.sub("]", text).lower())


def shingles(text: str, size: int = SHINGLE_WORDS) -> set[bytes]:
    """The distinct word ``size``-grams of ``text`` (a shorter text is one shingle)."""
    tokens = words(text)
    if len(tokens) <= size:
        return {" ".join(tokens).encode()} if tokens else set()
    # Shifted lists zipped (the shortest ends it): the n-grams of slicing at every position, ~10%
    # faster.
    return {" ".join(gram).encode() for gram in zip(*(tokens[i:] for i in range(size)), strict=False)}


def signature(text: str) -> np.ndarray | None:
    """The MinHash signature of ``text`` (uint32 array of NUM_PERM), None for an empty text."""
    grams = shingles(text)
    if not grams:
        return None
    import numpy as np

    # datasketch's MinHash (scheme affine32, its default SHA-1 hash), computed here in numpy:
    # importing datasketch imports scipy for its LSH parameter search, which harvest does not use
    # (0.44 s and ~60 MB of the crawl process). The signatures are datasketch's bit for bit
    # (tests/parsers/test_neardup.py), so indexes written before stay comparable.
    sha1 = hashlib.sha1
    digests = b"".join([sha1(gram).digest() for gram in grams])
    hv = np.frombuffer(digests, dtype="<u4")[::5].astype(np.uint32).reshape(-1, 1)
    # MurmurHash3's finalizer, then the affine permutations (uint32 arithmetic wraps, as meant).
    hv ^= hv >> np.uint32(16)
    hv *= np.uint32(0x85EBCA6B)
    hv ^= hv >> np.uint32(13)
    hv *= np.uint32(0xC2B2AE35)
    hv ^= hv >> np.uint32(16)
    a, b = _permutations()
    return (hv * a + b).min(axis=0)


def band_keys(sig: np.ndarray, layout: BandLayout) -> list[int]:
    """One signed 64-bit key per band (fits an SQLite INTEGER and a Redis hash field)."""
    raw = sig.astype("<u4", copy=False)
    keys = []
    for band in range(layout.bands):
        chunk = raw[band * layout.rows : (band + 1) * layout.rows].tobytes()
        digest = hashlib.blake2b(chunk, digest_size=8, person=band.to_bytes(2, "big")).digest()
        keys.append(int.from_bytes(digest, "big", signed=True))
    return keys


def similarity(a: np.ndarray, b: np.ndarray) -> float:
    """Estimated Jaccard similarity of two signatures (share of equal values)."""
    import numpy as np

    return float(np.count_nonzero(a == b)) / float(len(a))


class Signatures:
    """Signatures kept in one growing matrix, compared with a new one all at once.

    For the documents a crawl wrote since its last index commit, which each new document is
    compared with: one :func:`similarity` call each cost 4-5x the CPU of one comparison of the
    whole matrix (BENCHMARKS.md, issue 34).
    """

    def __init__(self) -> None:
        self._rows: np.ndarray | None = None
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def append(self, sig: np.ndarray) -> None:
        """Keep ``sig`` after the others (capacity doubled when full)."""
        import numpy as np

        if self._rows is None or self._count == len(self._rows):
            grown = np.empty((max(64, 2 * self._count), len(sig)), dtype=np.uint32)
            if self._rows is not None:
                grown[: self._count] = self._rows[: self._count]
            self._rows = grown
        self._rows[self._count] = sig
        self._count += 1

    def clear(self) -> None:
        """Forget every signature (the matrix is kept for the next ones)."""
        self._count = 0

    def similar(self, sig: np.ndarray, threshold: float) -> list[tuple[int, float]]:
        """(position, :func:`similarity`) of each kept signature at least ``threshold`` similar, in order.

        The scores are :func:`similarity`'s to the bit (the same float division).
        """
        if self._rows is None or not self._count:
            return []
        import numpy as np

        scores = np.count_nonzero(self._rows[: self._count] == sig, axis=1) / float(len(sig))
        return [(int(i), float(scores[i])) for i in np.flatnonzero(scores >= threshold)]


def to_bytes(sig: np.ndarray) -> bytes:
    """A signature as stored (little-endian uint32)."""
    return sig.astype("<u4", copy=False).tobytes()


def from_bytes(data: bytes) -> np.ndarray:
    """A stored signature back as an array."""
    import numpy as np

    return np.frombuffer(data, dtype="<u4")
