"""Errors of the lexicon package: each names the file or word and what is wrong with it."""

from __future__ import annotations


class LexiconError(ValueError):
    """A word list, lexicon name or lexicon file that cannot be used, and why."""


class UnknownLexicon(LexiconError):
    """A lexicon name or path that names nothing: no such file, no such lexicon."""


class KwgError(LexiconError):
    """A malformed or unusable ``.kwg`` word graph."""


class KlvError(LexiconError):
    """A malformed ``.klv2`` leave-value file."""
