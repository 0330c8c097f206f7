"""Reading what the player types at the ``tessera play`` prompt.

A line is either a move in the notation players already use (``8D QUITE`` across,
``H8 qUITE`` down with a blank as lower case, ``-ABC`` to exchange, ``-`` to pass) or a
command word (``hint``, ``undo``, ``save game.gcg`` …). Parsing here only sorts the line
into a :class:`Command`; whether a move is legal is for the game to say.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from .lang import _


class CommandError(ValueError):
    """A line that is neither a move nor a known command."""


class Kind(StrEnum):
    PLAY = "play"
    EXCHANGE = "exchange"
    PASS = "pass"
    CHALLENGE = "challenge"
    HINT = "hint"
    UNDO = "undo"
    SAVE = "save"
    LOAD = "load"
    RESIGN = "resign"
    BOARD = "board"
    HELP = "help"
    QUIT = "quit"
    LANG = "lang"
    EMPTY = "empty"


@dataclass(frozen=True)
class Command:
    """One parsed line. ``arg`` is the move text, the exchanged tiles or a file name."""

    kind: Kind
    arg: str = ""
    count: int | None = None  # how many hints


DEFAULT_HINTS = 5
MAX_HINTS = 50

# a GCG position: row then column (across) or column then row (down)
_POSITION = re.compile(r"^(?:\d{1,2}[A-Za-z]|[A-Za-z]\d{1,2})$")

_ALIASES: dict[str, Kind] = {
    "play": Kind.PLAY,
    "p": Kind.PLAY,
    "exchange": Kind.EXCHANGE,
    "ex": Kind.EXCHANGE,
    "swap": Kind.EXCHANGE,
    "pass": Kind.PASS,
    "-": Kind.PASS,
    "challenge": Kind.CHALLENGE,
    "hint": Kind.HINT,
    "hints": Kind.HINT,
    "undo": Kind.UNDO,
    "takeback": Kind.UNDO,
    "save": Kind.SAVE,
    "load": Kind.LOAD,
    "resign": Kind.RESIGN,
    "board": Kind.BOARD,
    "show": Kind.BOARD,
    "help": Kind.HELP,
    "?": Kind.HELP,
    "h": Kind.HELP,
    "quit": Kind.QUIT,
    "exit": Kind.QUIT,
    "q": Kind.QUIT,
    "lang": Kind.LANG,
}


def help_rows() -> tuple[tuple[str, str], ...]:
    """(syntax, what it does) in the order ``help`` lists them, in the language spoken (the
    syntax is what is typed, so it stays as it is)."""
    return (
        ("8D QUITE", _("play across from 8D (row first); a lower-case letter is a blank")),
        ("H8 qUITE", _("play down from H8 (column first); here the Q is a blank")),
        ("8A MES(QUITE)", _("letters already on the board may go in parentheses, or as '.'")),
        ("8H CSÓK", _("a tile of two letters (CS, CH) is typed as its letters: the tile when "
                      "your rack has it, else the single letters")),
        ("exchange ABC  |  -ABC", _("exchange tiles (write a blank as '?')")),
        ("pass  |  -", _("pass the turn")),
        ("challenge", _("challenge the last play (rules with challenges)")),
        ("hint [N]", _("show the best N moves (default {n})").format(n=DEFAULT_HINTS)),
        ("undo", _("take back the last move (untimed games)")),
        ("save [FILE]", _("save the game as GCG")),
        ("load FILE", _("load a GCG game and continue it")),
        ("resign", _("concede the game")),
        ("board", _("show the board again")),
        ("lang en|ja|hu", _("speak English, Japanese or Hungarian")),
        ("help", _("this list")),
        ("quit", _("leave (you are offered to save)")),
    )


def looks_like_play(text: str) -> bool:
    """A position followed by a word: ``8D QUITE``, ``h8 qUITE``."""
    parts = text.split()
    return len(parts) >= 2 and bool(_POSITION.match(parts[0]))


def parse_command(line: str) -> Command:
    """Sort one input line into a :class:`Command`; raises :class:`CommandError` if unknown."""
    text = line.strip()
    if not text:
        return Command(Kind.EMPTY)
    if looks_like_play(text):
        return Command(Kind.PLAY, " ".join(text.split()))
    if text.startswith("-") and text != "-":
        body = text[1:].strip()
        if not body:
            return Command(Kind.PASS)
        return _exchange(body)
    word, _space, rest = text.partition(" ")
    rest = rest.strip()
    if _POSITION.match(word) and not rest:
        raise CommandError(
            _("'{word}' needs a word after it, e.g. '{word} QUITE'").format(word=word)
        )
    kind = _ALIASES.get(word.lower())
    if kind is None:
        raise CommandError(_("unknown command {word}").format(word=repr(word)))
    if kind is Kind.PLAY:
        if not looks_like_play(rest):
            raise CommandError(_("play what? e.g. 'play 8D QUITE' or just '8D QUITE'"))
        return Command(Kind.PLAY, " ".join(rest.split()))
    if kind is Kind.EXCHANGE:
        if not rest:
            raise CommandError(_("exchange which tiles? e.g. 'exchange QUV' (a blank is '?')"))
        return _exchange(rest)
    if kind is Kind.HINT:
        return Command(Kind.HINT, count=_hint_count(rest))
    if kind is Kind.LOAD and not rest:
        raise CommandError(_("load which file? e.g. 'load game.gcg'"))
    if kind in (Kind.SAVE, Kind.LOAD, Kind.LANG):
        return Command(kind, rest.lower() if kind is Kind.LANG else rest)
    if rest:
        raise CommandError(
            _("{word} takes no argument (got {arg})").format(word=repr(word), arg=repr(rest))
        )
    return Command(kind)


def _exchange(body: str) -> Command:
    tiles = "".join(body.split())
    if tiles.isdigit():
        raise CommandError(_("name the tiles to exchange, e.g. '-QUV', not a number"))
    # exchanged tiles are rack tiles: case does not designate blanks here
    return Command(Kind.EXCHANGE, tiles.upper())


def _hint_count(text: str) -> int:
    if not text:
        return DEFAULT_HINTS
    if not text.isdigit() or not 1 <= int(text) <= MAX_HINTS:
        raise CommandError(
            _("hint takes a number of moves from 1 to {max}, not {text}").format(
                max=MAX_HINTS, text=repr(text)
            )
        )
    return int(text)
