"""Names that look alike: the keys by which a name is compared with registered names, so that
nobody plays as "аlice" (a Cyrillic а), "ALICE" or "a1ice" while Alice has the account.

A key is a Unicode TR39 confusable *skeleton* (https://www.unicode.org/reports/tr39/#Confusable_Detection),
computed by ICU's spoof checker (PyICU): two strings look alike when their skeletons are
equal. TR39 skeletons keep case (``I`` and ``l`` share one, ``i`` another) while names are
told apart without it, so a name has two keys: the skeleton of the name folded to lower case,
and the skeleton of the name's own skeleton folded to lower case ("AIice", capital I, looks
like "Alice"). Two names look alike when they share a key. The name is NFKC-normalised first
(full-width and compatibility letters are their plain forms).
"""

from __future__ import annotations

import unicodedata

import icu

MAX_KEY = 64  # longer keys (a long display name) cannot be a registered name's
_CHECKER = icu.SpoofChecker()  # read-only after construction: safe from several threads


def skeleton(text: str) -> str:
    """TR39's skeleton of ``text`` (ICU)."""
    return str(_CHECKER.getSkeleton(0, text))


def lookalike_keys(name: str) -> frozenset[str]:
    """The keys of ``name``: another name with one of them looks like it (see the module doc)."""
    text = unicodedata.normalize("NFKC", name.strip())
    return frozenset({skeleton(text.casefold()), skeleton(skeleton(text).casefold())})
