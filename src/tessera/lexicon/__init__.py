"""Word lists as KWG word graphs (wolges-compatible), leave values (KLV2), and their tools.

>>> from tessera.lexicon import Lexicon
>>> lex = Lexicon.load("enable")        # the shipped ENABLE2K list
>>> "QUIXOTRY" in lex, "QI" in lex
(True, False)
"""

from tessera.lexicon.errors import KlvError, KwgError, LexiconError, UnknownLexicon
from tessera.lexicon.kwg import Kwg, accepts, arc_index, is_end, tile
from tessera.lexicon.leaves import Leaves
from tessera.lexicon.lexicon import Lexicon, available, cache_dir, lexicon_dir
from tessera.lexicon.wordlist import Rejected, WordList, parse_words

__all__ = [
    "KlvError",
    "Kwg",
    "KwgError",
    "Leaves",
    "Lexicon",
    "LexiconError",
    "Rejected",
    "UnknownLexicon",
    "WordList",
    "accepts",
    "arc_index",
    "available",
    "cache_dir",
    "is_end",
    "lexicon_dir",
    "parse_words",
    "tile",
]
