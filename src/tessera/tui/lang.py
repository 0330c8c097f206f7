"""The terminal game's language: the gettext catalogue (domain ``tui``) its words come from.

One ``tessera play`` process speaks one language at a time, so the choice lives here:
:func:`set_language` picks it (``tessera play --lang``, the environment, or the in-game
``lang`` command), and every module of the package marks and translates its messages with
:func:`_`, :func:`ngettext` and :func:`pgettext`, or marks it with :func:`N_` to translate
later (the call names ``make i18n`` extracts).
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager

from .. import i18n
from ..legality import IllegalMove, Reason

_translations: gettext.NullTranslations = gettext.NullTranslations()
_code: str | None = i18n.SOURCE_LANGUAGE  # None: a translations object given by a test


def set_language(lang: str | gettext.NullTranslations) -> None:
    """Speak ``lang`` (a key of :data:`tessera.i18n.LANGUAGES`) from now on, or the given
    translations object (a test's pseudo-translation)."""
    global _translations, _code
    if isinstance(lang, str):
        if lang not in i18n.LANGUAGES:
            known = ", ".join(i18n.LANGUAGES)
            raise KeyError(f"no interface language {lang!r}; languages: {known}")
        _translations, _code = i18n.translations("tui", lang), lang
    else:
        _translations, _code = lang, None


def language() -> str | None:
    """The code of the language spoken (None for a translations object given directly)."""
    return _code


@contextmanager
def speaking(lang: str | gettext.NullTranslations) -> Iterator[None]:
    """Speak ``lang`` inside the ``with`` block, then the language spoken before."""
    before = (_translations, _code)
    set_language(lang)
    try:
        yield
    finally:
        _restore(*before)


def _restore(translations: gettext.NullTranslations, code: str | None) -> None:
    global _translations, _code
    _translations, _code = translations, code


def N_(message: str) -> str:
    """Marks ``message`` for the catalogue without translating it yet (a text that is
    translated later, when shown: a command-line option's help)."""
    return message


def _(message: str) -> str:
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translations.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return _translations.pgettext(context, message)


def in_source_language() -> bool:
    """English is spoken: messages that exist only in English (the game's own explanations of
    a refused move) may be shown as they are."""
    return _code == i18n.SOURCE_LANGUAGE


def refusal(exc: IllegalMove) -> str:
    """Why a move was refused, in the language spoken. The game explains a refusal in
    English, precisely (which square, which tiles); other languages say it by its reason,
    naming the words the word list lacks."""
    if in_source_language():
        return str(exc)
    words = ", ".join(exc.words)
    if exc.reason is Reason.INVALID_WORDS and words:
        return _("not in the word list: {words}").format(words=words)
    return _reasons().get(exc.reason, _("the move is not allowed"))


def _reasons() -> dict[Reason, str]:
    return {
        Reason.NO_TILES: _("the play places no tile"),
        Reason.OFF_BOARD: _("the word runs off the board"),
        Reason.NOT_IN_LINE: _("the tiles must be in one row or one column"),
        Reason.GAP: _("the squares between the tiles must all be filled"),
        Reason.OCCUPIED: _("a square of the play is already occupied"),
        Reason.NOT_ON_RACK: _("those tiles are not on your rack"),
        Reason.TOO_MANY_TILES: _("too many tiles"),
        Reason.FIRST_PLAY_TOO_FEW_TILES: _("the first play places too few tiles"),
        Reason.FIRST_PLAY_MISSES_START: _("the first play must cover the start square"),
        Reason.NOT_CONNECTED: _("the play must touch a tile already on the board"),
        Reason.NO_WORD: _("the play forms no word of two or more letters"),
        Reason.WORD_TOO_SHORT: _("a word of the play is too short"),
        Reason.INVALID_WORDS: _("a word of the play is not in the word list"),
        Reason.NOTATION: _("that is not a move this game can read"),
        Reason.GAME_OVER: _("the game is over"),
        Reason.NOT_YOUR_TURN: _("it is not your turn"),
        Reason.UNKNOWN_PLAYER: _("no such player in this game"),
        Reason.EXCHANGE_NOT_ALLOWED: _("exchanges are not allowed"),
        Reason.BAG_TOO_SMALL: _("the bag holds too few tiles to exchange"),
        Reason.EXCHANGE_LIMIT: _("you have used all your exchanges"),
        Reason.NOTHING_TO_CHALLENGE: _("there is no play to challenge"),
        Reason.CHALLENGES_NOT_ALLOWED: _(
            "these rules check words as they are played; there are no challenges"
        ),
        Reason.ONLY_PASS_OR_CHALLENGE: _(
            "the last play ends the game unless challenged: pass to accept it, or challenge"
        ),
        Reason.UNDO_NOT_ALLOWED: _("the move cannot be taken back"),
        Reason.NO_CLOCK: _("the clock does not allow it"),
        Reason.ALREADY_SUBMITTED: _("you have already handed in a play this round"),
        Reason.ROUND_CLOSED: _("the round is closed"),
    }
