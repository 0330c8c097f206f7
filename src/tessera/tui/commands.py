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
}

# (syntax, what it does) in the order `help` lists them
HELP: tuple[tuple[str, str], ...] = (
    ("8D QUITE", "play across from 8D (row first); a lower-case letter is a blank"),
    ("H8 qUITE", "play down from H8 (column first); here the Q is a blank"),
    ("8A MES(QUITE)", "letters already on the board may go in parentheses, or as '.'"),
    ("8H CSÓK", "a tile of two letters (CS, CH) is typed as its letters: the tile when "
     "your rack has it, else the single letters"),
    ("exchange ABC  |  -ABC", "exchange tiles (write a blank as '?')"),
    ("pass  |  -", "pass the turn"),
    ("challenge", "challenge the last play (rules with challenges)"),
    ("hint [N]", f"show the best N moves (default {DEFAULT_HINTS})"),
    ("undo", "take back the last move (untimed games)"),
    ("save [FILE]", "save the game as GCG"),
    ("load FILE", "load a GCG game and continue it"),
    ("resign", "concede the game"),
    ("board", "show the board again"),
    ("help", "this list"),
    ("quit", "leave (you are offered to save)"),
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
    word, _, rest = text.partition(" ")
    rest = rest.strip()
    if _POSITION.match(word) and not rest:
        raise CommandError(f"{word!r} needs a word after it, e.g. '{word} QUITE'")
    kind = _ALIASES.get(word.lower())
    if kind is None:
        raise CommandError(f"unknown command {word!r}")
    if kind is Kind.PLAY:
        if not looks_like_play(rest):
            raise CommandError("play what? e.g. 'play 8D QUITE' or just '8D QUITE'")
        return Command(Kind.PLAY, " ".join(rest.split()))
    if kind is Kind.EXCHANGE:
        if not rest:
            raise CommandError("exchange which tiles? e.g. 'exchange QUV' (a blank is '?')")
        return _exchange(rest)
    if kind is Kind.HINT:
        return Command(Kind.HINT, count=_hint_count(rest))
    if kind is Kind.LOAD and not rest:
        raise CommandError("load which file? e.g. 'load game.gcg'")
    if kind in (Kind.SAVE, Kind.LOAD):
        return Command(kind, rest)
    if rest:
        raise CommandError(f"{word!r} takes no argument (got {rest!r})")
    return Command(kind)


def _exchange(body: str) -> Command:
    tiles = "".join(body.split())
    if tiles.isdigit():
        raise CommandError("name the tiles to exchange, e.g. '-QUV', not a number")
    # exchanged tiles are rack tiles: case does not designate blanks here
    return Command(Kind.EXCHANGE, tiles.upper())


def _hint_count(text: str) -> int:
    if not text:
        return DEFAULT_HINTS
    if not text.isdigit() or not 1 <= int(text) <= MAX_HINTS:
        raise CommandError(f"hint takes a number of moves from 1 to {MAX_HINTS}, not {text!r}")
    return int(text)
