"""The language a text is written in, detected from the text itself (py3langid).

py3langid ships its model inside its wheel (nothing is downloaded at run time). Its model loads
once per process (~0.7 s) on first use. Scores are normalized probabilities in [0, 1].
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from py3langid.langid import LanguageIdentifier

#: Detection reads this many characters at most: a few paragraphs are plenty, and the cost
#: grows with the text (it was the largest cost of the crawl process, then of the extraction
#: workers, with extraction on). On 2,091 real texts (the 945 evaluation pages' and the blog
#: fixtures' extracted Markdown) the first 1,000 gave the language of the whole text on all but
#: two of the 1,414 longer ones, as 2,000 did on all but one (BENCHMARKS.md, issue 34).
MAX_CHARS = 1_000
#: Less text than this (letters, after code and markup are removed) gives no reliable guess.
MIN_LETTERS = 20
_FENCE_RE = re.compile(r"^(`{3,}|~{3,}).*?^\1\s*$", re.M | re.S)
_INLINE_CODE_RE = re.compile(r"`[^`\n]*`")
_LINK_RE = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_URL_RE = re.compile(r"https?://\S+")
_MARKUP_RE = re.compile(r"[#>*_|\-=]{1,}")
#: Runs of letters (str.isalpha's, less the few numeric letters such as Roman numerals).
_LETTERS_RE = re.compile(r"[^\W\d_]+")


#: The detector's ISO 639-3 codes (it answers 639-1 for the rest) that have an ISO 639-1 code: their
#: own (Kikuyu), or their macrolanguage's in ISO 639-3's macrolanguage table (Egyptian Arabic is
#: Arabic, Wu and Cantonese are Chinese). ``language`` promises ISO 639-1 where one exists.
TO_639_1 = {
    "ary": "ar",  # Moroccan Arabic, of the macrolanguage ara
    "arz": "ar",  # Egyptian Arabic, of ara
    "fuv": "ff",  # Nigerian Fulfulde, of ful
    "gug": "gn",  # Paraguayan Guaraní, of grn
    "kik": "ki",  # Kikuyu itself
    "ltg": "lv",  # Latgalian, of lav
    "sdh": "ku",  # Southern Kurdish, of kur
    "uzs": "uz",  # Southern Uzbek, of uzb
    "wuu": "zh",  # Wu Chinese, of zho
    "yue": "zh",  # Cantonese, of zho
}
#: The detector's codes for no language at all (ISO 639-2's "no linguistic content"): undetected.
NOT_A_LANGUAGE = frozenset({"zxx"})


def iso_639_1(code: str) -> str | None:
    """The detector's code as ISO 639-1 where the language has one; else its ISO 639-3 code.

    None for a code meaning no language (``zxx``). The languages without an ISO 639-1 code the
    detector knows (Acehnese ``ace``, Ancient Greek ``grc``, Kabyle ``kab``, Nigerian Pidgin
    ``pcm``...) keep their ISO 639-3 code, as the README says.
    """
    if code in NOT_A_LANGUAGE:
        return None
    return TO_639_1.get(code, code)


@dataclass(frozen=True)
class LanguageGuess:
    """An ISO 639-1 code (ISO 639-3 for a language without one) and the detector's probability."""

    language: str
    score: float


@functools.cache
def _identifier() -> LanguageIdentifier:
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_modelpath(MODEL_DIR / MODEL_FILE, norm_probs=True)


def warm_up() -> None:
    """Load the model once (a pipeline calls this when the crawl opens)."""
    _identifier()


def prose(markdown: str) -> str:
    """The prose of a Markdown text: code blocks, inline code, link targets and URLs removed."""
    text = _FENCE_RE.sub(" ", markdown)
    text = _INLINE_CODE_RE.sub(" ", text)
    text = _LINK_RE.sub(r"\1", text)
    text = _URL_RE.sub(" ", text)
    return _MARKUP_RE.sub(" ", text)


#: Chinese characters, kana and Hangul syllables: each says about as much as a short word (a
#: syllable or a morpheme, where a Latin letter is a sound), and the detector tells Japanese,
#: Chinese and Korean apart on a dozen of them ("ビルドが三倍速くなった。": ja, 1.0).
_SYLLABIC_RE = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
#: Letters each such character counts for.
SYLLABIC_WEIGHT = 3


def weighed_length(text: str) -> int:
    """The length of ``text``, each Chinese character, kana or Hangul syllable as ``SYLLABIC_WEIGHT``."""
    return len(text) + (SYLLABIC_WEIGHT - 1) * len(_SYLLABIC_RE.findall(text))


def _has_letters(text: str, count: int) -> bool:
    """Whether ``text`` has ``count`` letters (counted by runs, stopping there).

    A character by character count was a third of the detection's CPU. A Chinese character,
    kana or Hangul syllable counts as ``SYLLABIC_WEIGHT`` letters (only looked for in a text
    short of letters: a twelve-character Japanese post had no language).
    """
    seen = 0
    for run in _LETTERS_RE.finditer(text):
        seen += run.end() - run.start()
        if seen >= count:
            return True
    return seen + (SYLLABIC_WEIGHT - 1) * len(_SYLLABIC_RE.findall(text)) >= count


def detect_language(markdown: str) -> LanguageGuess | None:
    """The language of ``markdown``'s prose, or None when there is too little text to tell."""
    text = prose(markdown)[:MAX_CHARS]
    if not _has_letters(text, MIN_LETTERS):
        return None
    language, score = _identifier().classify(text)
    code = iso_639_1(str(language))
    if code is None:
        return None
    return LanguageGuess(code, round(float(score), 4))
