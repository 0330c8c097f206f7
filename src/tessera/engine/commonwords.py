"""Common English words, for the levels that prefer words people know.

The shipped list (``tessera/data/wordfreq/common_en.txt.gz``) holds the most frequent
English words by the ``wordfreq`` package that are also ENABLE words, one upper-case word a
line, most frequent first. It is derived data under CC-BY-SA 4.0 (see ``SOURCE.md`` beside
it). ``python -m tessera.engine.commonwords OUT`` rebuilds it; that needs ``wordfreq``
installed, which nothing else does.
"""

from __future__ import annotations

import gzip
import sys
from functools import cache
from importlib import resources
from pathlib import Path

COMMON_WORDS = 25_000  # how many of wordfreq's top English words are tried


@cache
def common_words() -> frozenset[str]:
    """The shipped common-word list, upper case."""
    ref = resources.files("tessera.data").joinpath("wordfreq", "common_en.txt.gz")
    with resources.as_file(ref) as path:
        text = gzip.decompress(Path(path).read_bytes()).decode("ascii")
    return frozenset(w for w in text.split() if w)


def build(out: Path, count: int = COMMON_WORDS, lexicon: str = "enable") -> int:
    """Write the common-word list (needs ``wordfreq``); returns how many words it holds."""
    try:
        import wordfreq  # type: ignore[import-not-found]
    except ImportError:
        raise RuntimeError("building the common-word list needs: pip install wordfreq") from None
    from tessera.lexicon import Lexicon

    lex = Lexicon.load(lexicon)
    words = []
    seen = set()
    for w in wordfreq.top_n_list("en", count, wordlist="large"):
        word = w.upper()
        if word.isascii() and word.isalpha() and len(word) >= 2 and word not in seen:
            if lex.contains_word(word):
                seen.add(word)
                words.append(word)
    data = ("\n".join(words) + "\n").encode("ascii")
    out.write_bytes(gzip.compress(data, mtime=0))
    return len(words)


if __name__ == "__main__":  # pragma: no cover - a data-building script
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "common_en.txt.gz")
    print(f"{build(target)} words -> {target}")
