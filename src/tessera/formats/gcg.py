"""GCG game records (RULES.md §9): lenient reading, strict checking, careful writing, replay.

Reading (:func:`loads`, :func:`load`) turns a file into a :class:`GcgGame` — pragmas, players
and events, each event with the line it came from. It accepts what other programs write:
ISO-8859-1 unless the first line is ``#character-encoding UTF-8``, any CR/LF convention, blank
lines, extra tokens after the cumulative score (``… +26 66 BE, ET, DO``), the letter itself
instead of ``.`` for a played-through tile, notes continued on plain lines, racks listing only
part of a rack (liwords), old Quackle's ``-- +0`` withdrawal, and ``#tile-set`` /
``#game-board`` lines anywhere. Sizes are bounded before anything is parsed —
:data:`MAX_FILE_BYTES` (2 MiB), :data:`MAX_LINE_CHARS` (32 KiB a line), :data:`MAX_LINES`
(20,000), :data:`MAX_EVENTS` (2,000), and digits of every number — and reading stops at the
first line that breaks a limit or a rule, raising :class:`GcgError` naming the problem and its
line (quoting only an excerpt of it).

Writing (:func:`dumps`) makes records that MAGPIE's, Macondo's and Quackle's readers read as
they are (tests/test_gcg_peers.py models each from its source): ``#character-encoding UTF-8``
first; ``#player1`` … ``#player4`` in turn order from the player who moved first (RULES.md
§9: peers give player 1 the first turn), each with a real name; ``#lexicon`` when known;
``#game-type`` / ``#board-layout`` / ``#tile-distribution`` when not classic English
(Macondo's names, see :mod:`tessera.formats`); then Tessera's own data in ``#tile-set`` lines,
the one pragma all three peers accept and ignore:

* ``#tile-set tessera-rules <preset> [<JSON of changed fields>]`` (``#`` and ``>`` escaped);
* ``#tile-set tessera-seed <n> [first-given]`` (``first-given``: the game named its first
  player instead of drawing for it);
* ``#tile-set tessera-seats <nick>…`` — the seat order, when the first mover was not the
  first seat;
* ``#tile-set tessera-end <reason> <nick>`` — an ending no GCG line shows: ``resigned``,
  ``ended_by_request``, ``max_overtime``, ``timeout_forfeit``, ``triple_challenge``;
* ``#tile-set tessera-incomplete`` and ``#tile-set tessera-rack <nick> <rack>`` for a game not
  over, then ``#rackN`` for the player to move (MAGPIE allows one ``#rackN``, and nothing
  after it);
* ``#tile-set tessera-duplicate <nick> <name>``, ``#tile-set tessera-computer <nick>
  <computer>`` and ``#tile-set tessera-submit …`` — a duplicate game (R8.4): the move lines
  are the master moves of a pseudo-player, and these lines carry the players, which of them
  are computers, and their submissions (:mod:`tessera.formats.gcg_duplicate`; read back
  with :func:`replay_duplicate`).

The same keys are read as ``#tessera-rules``, ``#tessera-seed`` and ``#tessera-end`` pragmas,
as records written before issue 9 have them. Multi-letter tiles are written in brackets
(``[CH]``, ``[ch]`` for a blank); a ``#tile`` pragma is read as a one-character alias but
never written.

Replaying (:func:`replay`) rebuilds the :class:`~tessera.game.Game` event by event and checks
every score and every running total, stopping at the first mismatch with its line number.

Event kinds and their lines:

=====================  =================================================================
Tessera event          GCG line
=====================  =================================================================
PLAY                   ``>nick: RACK 8D WORD +S T`` (``.`` = tile already on the board)
PASS                   ``>nick: RACK - +0 T``
EXCHANGE               ``>nick: RACK -TILES +0 T`` (read also ``-3``, count only)
WITHDRAWN              ``>nick: RACK -- -S T`` right after the play (read also ``-- +0 T``)
CHALLENGE_BONUS        ``>challenged: RACK (challenge) +N T [WORDS…]`` (also ``+0``)
CHALLENGE_PENALTY      ``>challenger: RACK (challenge) -N T [WORDS…]``
LOST_TURN              the challenger's pass, followed by ``#note #unsuccessful-challenge``
ACCEPT                 not written; an end-of-game line after an out-play implies it
END_RACK_POINTS        ``>nick: (OPPRACK) +N T``
END_RACK_PENALTY       ``>nick: RACK (RACK) -N T``
TIME_PENALTY           ``>nick: RACK (time) -N T``
=====================  =================================================================

Tessera extensions, which other readers take for extra tokens or notes:

* trailing words on a ``(challenge)`` line name the challenged words when they are not all of
  the play's words (listed-word challenges, R5.2);
* ``#note #unsuccessful-challenge`` after an out-play line records that the out-play was
  challenged without success under the double rule (no other line shows it); a pass of the
  challenger right after the out-play, as Macondo once wrote it, is read the same way.

Which rules a replay uses: the ``rules=`` argument; else ``tessera-rules``; else they are
inferred — NASPA-like (double challenge, 2× out adjustment, six scoreless turns, a 25-minute
clock) on the declared board and tile set (or the one the lexicon's family implies: OSPS
Polish, FRA/ODS French, FILE/FISE Spanish, RD German; NSF and DISC name languages Tessera has
no tile set for, which is an error; a record naming neither takes the tiles of the word list
it is replayed with, as Macondo reads its Polish records with OSPS), with the challenge rule
read off the lines: a ``(challenge) +N`` line with N > 0 means 5 (or the lines' common
divisor) points per word to the challenged player; ``(challenge) -N`` means the same deducted
from the challenger; only ``+0`` lines mean the single (free) challenge. ``#game-type
wordsmog`` means Clabbers words.

How a replay follows the file:

* The first move line's player moves first; ``tessera-seats`` (else the file's order) gives
  the seats.
* Racks: before each move the mover's rack is set to the line's rack — or, when the line
  lists fewer tiles than the player holds, made to hold them, the rest taken from the
  player's next rack — and the tiles a player draws are the ones the file shows on that
  player's next rack, so a file replays without its seed. A ``--`` line, like the play it
  withdraws, may list only the tiles the annotator knew; a lost turn's pass too. With
  ``tessera-seed`` (and the same first player) the game's own seeded draws are used, which
  reproduces the bag too, until a rack in the file disagrees.
* Challenges are decided by the file: a ``--`` line means the challenged play was invalid;
  a ``(challenge)`` line or a pass noted ``#unsuccessful-challenge`` means it was valid. In
  games of three or four, the lost turn is matched to a play made since the challenger's
  last real turn (each play is challenged at most once).
* ``(time) -N`` lines: GCG keeps no move times, so the player is given as many minutes of
  overtime as N points buy (10 a minute by default; a 25-minute clock is added when the
  rules have none) and the game charges the penalty itself at the end. One per player.
* End-of-game lines may come in any order; their running totals are checked in the order
  the file gives them.
"""

from __future__ import annotations

import codecs
import json
import math
import os
import random
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from os import PathLike
from pathlib import Path
from typing import Any

from ..board import CoordinateError, parse_position
from ..duplicate import DuplicateGame
from ..game import EndReason, Event, EventKind, Game, GameState
from ..legality import IllegalMove
from ..move import PLAYED_THROUGH, Exchange, Move, Pass, Play
from ..rules import (
    ChallengeRule,
    ChallengeScope,
    FirstPlayer,
    OutAdjust,
    PenaltyAppliesTo,
    PenaltyPer,
    Rules,
    RulesError,
    TimeControl,
    Validity,
    preset,
)
from ..tiles import Alphabet, letter_of
from . import (
    LAYOUT_GCG_NAMES,
    TILESET_GCG_NAMES,
    TileTextError,
    bounded,
    decode_rules_text,
    encode_rules_text,
    excerpt,
    format_tiles,
    implied_tiles,
    layout_for,
    parse_tiles,
    rack_tiles,
    tileset_for,
)

UNSUCCESSFUL_CHALLENGE = "#unsuccessful-challenge"
MAX_PLAYERS = 4
MAX_DUPLICATE_PLAYERS = 200  # tessera.duplicate.MAX_PLAYERS
# Limits on a file, checked as it is read (a real game is a few kilobytes, under 100 events;
# an annotated one with long notes stays far below these).
MAX_FILE_BYTES = 2 << 20
MAX_LINE_CHARS = 32_768
MAX_LINES = 20_000
MAX_EVENTS = 2_000
GAME_TYPES = ("classic", "wordsmog", "classic_super", "wordsmog_super")
END_MARKER_REASONS = (
    "resigned",
    "ended_by_request",
    "max_overtime",
    "timeout_forfeit",
    "triple_challenge",
)
# pragmas that may follow the first event (R9.3)
_LATE_PRAGMAS = {"note", "incomplete", "tessera-end", "-", "tile-set", "game-board"}
# Tessera's data rides in #tile-set lines, which MAGPIE, Macondo and Quackle all read and
# ignore (see dumps); these keys must come before the first event.
_TESSERA_HEADER_KEYS = {"rules", "seed", "seats", "duplicate", "computer"}
TESSERA_DATA = "tessera-"
FIRST_GIVEN = "first-given"  # after the seed: the game named its first player, drew no tiles


class GcgError(ValueError):
    """A GCG file that cannot be read, or a replay that does not match it.

    ``line`` is the 1-based line number (None when the problem is not on one line).
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        message = bounded(message)
        self.message = message
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class LineKind(StrEnum):
    PLAY = "play"
    PASS = "pass"
    EXCHANGE = "exchange"
    WITHDRAWN = "withdrawn"
    CHALLENGE_BONUS = "challenge_bonus"
    CHALLENGE_PENALTY = "challenge_penalty"
    END_RACK_POINTS = "end_rack_points"
    END_RACK_PENALTY = "end_rack_penalty"
    TIME_PENALTY = "time_penalty"
    END_MARKER = "end_marker"  # #tessera-end


TURN_LINES = frozenset({LineKind.PLAY, LineKind.PASS, LineKind.EXCHANGE})
_END_EVENT_KINDS = frozenset(
    {EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY, EventKind.TIME_PENALTY}
)
END_LINES = frozenset({LineKind.END_RACK_POINTS, LineKind.END_RACK_PENALTY, LineKind.TIME_PENALTY})


@dataclass
class GcgEvent:
    """One ``>`` line (or a ``#tessera-end`` marker). Tile text is kept as written; it is
    read into tiles during replay, when the alphabet is known."""

    kind: LineKind
    nick: str
    line: int
    rack: str | None = None  # None: not given
    score: int = 0
    total: int = 0
    position: str = ""  # plays
    word: str = ""  # plays
    tiles: str = ""  # exchanged tiles; the (OPPRACK) of end-rack lines
    count: int | None = None  # "-3": an exchange of unknown tiles
    extra: tuple[str, ...] = ()  # tokens after the cumulative score
    score_given: bool = True  # False: old Quackle's '-- +0' (the total alone says it)
    notes: list[str] = field(default_factory=list)
    reason: str = ""  # END_MARKER

    @property
    def tagged(self) -> bool:
        """True when a note marks an unsuccessful challenge (Macondo's convention)."""
        return any(UNSUCCESSFUL_CHALLENGE in n for n in self.notes)


@dataclass
class GcgPlayer:
    number: int
    nick: str
    name: str
    line: int


@dataclass
class GcgSubmission:
    """A ``#tile-set tessera-submit`` line of a duplicate record (see
    :mod:`tessera.formats.gcg_duplicate`): one player's play in one round."""

    round: int
    nick: str
    verdict: str
    score: int
    total: int
    line: int
    text: str = ""
    declared: int | None = None
    elapsed_ms: int | None = None
    bonus: int = 0


@dataclass
class GcgGame:
    """A read GCG file."""

    players: list[GcgPlayer] = field(default_factory=list)
    events: list[GcgEvent] = field(default_factory=list)
    pragmas: list[tuple[str, str, int]] = field(default_factory=list)  # (name, value, line)
    encoding: str = "ISO-8859-1"
    notes: list[str] = field(default_factory=list)  # notes before the first event
    incomplete: bool = False
    incomplete_rack: str | None = None
    final_racks: dict[str, str] = field(default_factory=dict)  # nick -> #rackN
    tile_aliases: dict[str, str] = field(default_factory=dict)
    title: str | None = None
    description: str | None = None
    id: str | None = None
    lexicon: str | None = None
    game_type: str | None = None
    board_layout: str | None = None  # Tessera layout name
    tile_distribution: str | None = None  # Tessera tile set name
    tessera_rules: Rules | None = None
    seed: int | None = None
    seats: list[str] | None = None  # nicks in the game's seat order, when not the file's
    first_given: bool = False  # the first player was named, not drawn (tessera-seed)
    # a duplicate record (tessera-duplicate, tessera-submit): its players and submissions
    duplicate_players: list[GcgPlayer] = field(default_factory=list)
    duplicate_computers: dict[str, str] = field(default_factory=dict)  # nick -> computer
    submissions: list[GcgSubmission] = field(default_factory=list)

    @property
    def is_duplicate(self) -> bool:
        return bool(self.duplicate_players)

    def player_index(self, nick: str) -> int:
        for i, p in enumerate(self.players):
            if p.nick == nick:
                return i
        raise KeyError(nick)

    def seated(self) -> list[GcgPlayer]:
        """The players in the game's seat order: the file lists the first mover as #player1
        (R9.3), and ``tessera-seats`` says where each sat when that was not the first seat."""
        if not self.seats:
            return list(self.players)
        by_nick = {p.nick: p for p in self.players}
        return [by_nick[nick] for nick in self.seats]

    def pragma(self, name: str) -> str | None:
        for n, value, _ in self.pragmas:
            if n == name:
                return value
        return None


# -- reading -------------------------------------------------------------------------------

_ENCODING_LINE = re.compile(r"^#character-encoding\s+(\S+)\s*$", re.IGNORECASE)
_EVENT = re.compile(r"^>\s*([^:\s]*)\s*:(.*)$")
_POSITION = re.compile(r"^(?:\d{1,2}[A-Za-z]|[A-Za-z]\d{1,2})$", re.ASCII)
_SCORE = re.compile(r"^[+-]\d{1,9}$", re.ASCII)
_TOTAL = re.compile(r"^[+-]?\d{1,9}$", re.ASCII)
_TILE_TEXT = re.compile(r"^(?:\w|\?|\[\w+\])+$")
_WORD_TEXT = re.compile(r"^(?:\w|\.|\[\w+\])+$")
_LINE_END = re.compile(r"\r\n|\r|\n")


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text``, one at a time (any CR/LF convention, R9.1)."""
    start = 0
    for end in _LINE_END.finditer(text):
        yield text[start : end.start()]
        start = end.end()
    yield text[start:]


def _decode(data: bytes) -> tuple[str, str]:
    """Bytes to text: UTF-8 when the first line says so (R9.1), else ISO-8859-1."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
        encoding = "UTF-8"
    else:
        encoding = "ISO-8859-1"
    first = re.split(rb"[\r\n]", data, maxsplit=1)[0]
    m = _ENCODING_LINE.match(first.decode("latin-1").strip())
    if m:
        encoding = _encoding_name(m.group(1), 1)
    try:
        return data.decode("utf-8" if encoding == "UTF-8" else "latin-1"), encoding
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise GcgError(
            f"the file declares UTF-8 but byte 0x{data[exc.start]:02X} is not valid UTF-8", line
        ) from None


def _encoding_name(value: str, line: int) -> str:
    v = value.upper().replace("_", "-")
    if v in ("UTF-8", "UTF8"):
        return "UTF-8"
    if v in ("ISO-8859-1", "LATIN-1", "LATIN1", "ISO8859-1"):
        return "ISO-8859-1"
    raise GcgError(f"unknown character encoding {excerpt(value)!r}; use UTF-8 or ISO-8859-1", line)


def _too_large(size: int) -> GcgError:
    return GcgError(
        f"the file has {size:,} bytes; a GCG record may have at most {MAX_FILE_BYTES:,}"
    )


def loads(text: str | bytes) -> GcgGame:
    """Read GCG text (or bytes, decoded per R9.1) into a :class:`GcgGame`.

    Sizes are checked before anything else: at most :data:`MAX_FILE_BYTES` bytes (characters
    for text), :data:`MAX_LINES` lines of at most :data:`MAX_LINE_CHARS` characters, and
    :data:`MAX_EVENTS` events; reading stops at the first line that breaks a limit or a rule.
    """
    if isinstance(text, bytes | bytearray):
        if len(text) > MAX_FILE_BYTES:
            raise _too_large(len(text))
        text, encoding = _decode(bytes(text))
    else:
        if len(text) > MAX_FILE_BYTES:
            raise _too_large(len(text))
        encoding = "ISO-8859-1"
        text = text.removeprefix("\ufeff")
    record = GcgGame(encoding=encoding)
    reader = _Reader(record)
    for number, raw in enumerate(_lines(text), start=1):
        if number > MAX_LINES:
            raise GcgError(f"more than {MAX_LINES:,} lines; no game record is that long", number)
        if len(raw) > MAX_LINE_CHARS:
            raise GcgError(
                f"the line has {len(raw):,} characters; a GCG line may have at most "
                f"{MAX_LINE_CHARS:,}",
                number,
            )
        reader.line(number, raw)
    reader.finish()
    return record


def load(path: str | PathLike[str]) -> GcgGame:
    """Read a GCG file (its size is checked before it is read)."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size > MAX_FILE_BYTES:
            raise _too_large(size)
        data = f.read(size + 1)  # loads() refuses it if it grew past the limit meanwhile
    return loads(data)


class _Reader:
    def __init__(self, record: GcgGame) -> None:
        self.r = record
        self.after_note = False
        self.seen_event = False
        self.seats_line = 0
        self.tessera_racks: list[tuple[str, str, int]] = []  # (nick, rack, line)
        self.rack_pragmas: list[tuple[int, str, int]] = []  # (player number, rack, line)

    def line(self, number: int, raw: str) -> None:
        line = raw.strip()
        if not line:
            return
        declared = _ENCODING_LINE.match(line) if number == 1 else None
        if declared:
            self.r.encoding = _encoding_name(declared.group(1), 1)
            self.r.pragmas.append(("character-encoding", self.r.encoding, 1))
            return
        if line.startswith("#"):
            self.pragma(number, line)
            return
        if line.startswith(">"):
            self.after_note = False
            self.event(number, line)
            return
        if self.after_note:
            self._append_note(line)
            return
        raise GcgError(f"not a pragma (#…) or an event (>…): {line[:40]!r}", number)

    # -- pragmas

    def pragma(self, number: int, line: str) -> None:
        name, value = re.match(r"#(\S*)\s*(.*)$", line).groups()  # type: ignore[union-attr]
        lname = name.lower()
        if not lname:
            raise GcgError("'#' without a pragma name", number)
        if lname == "character-encoding":
            raise GcgError("#character-encoding must be the first line of the file", number)
        late = lname in _LATE_PRAGMAS or re.fullmatch(r"rack\d+", lname)
        if self.seen_event and not late:
            raise GcgError(f"pragma #{name} must come before the first event", number)
        self.after_note = lname == "note" or (lname == "-" and self.after_note)
        self.r.pragmas.append((lname, value, number))
        handler = getattr(self, "_p_" + lname.replace("-", "_"), None)
        m = re.fullmatch(r"(player|rack)(\d+)", lname, re.ASCII)
        if m:
            digits = m.group(2)
            n = int(digits) if len(digits) <= 3 else MAX_PLAYERS + 1
            self._player_or_rack(m.group(1), n, value, number)
        elif handler is not None:
            handler(value, number)

    def _append_note(self, text: str) -> None:
        if self.r.events:
            notes = self.r.events[-1].notes
            if notes:
                notes[-1] = f"{notes[-1]}\n{text}"
            else:
                notes.append(text)
        elif self.r.notes:
            self.r.notes[-1] = f"{self.r.notes[-1]}\n{text}"
        else:
            self.r.notes.append(text)

    def _p_note(self, value: str, number: int) -> None:
        target = self.r.events[-1].notes if self.r.events else self.r.notes
        target.append(value)

    def _p_title(self, value: str, number: int) -> None:
        self.r.title = value

    def _p_description(self, value: str, number: int) -> None:
        self.r.description = value

    def _p_id(self, value: str, number: int) -> None:
        if len(value.split()) < 2:
            raise GcgError("#id needs an authority and an id, e.g. '#id io.woogles abc123'", number)
        self.r.id = value

    def _p_lexicon(self, value: str, number: int) -> None:
        if not value or len(value.split()) != 1:
            raise GcgError("#lexicon needs one lexicon name, e.g. '#lexicon NWL23'", number)
        self.r.lexicon = value

    def _p_game_type(self, value: str, number: int) -> None:
        if value.lower() not in GAME_TYPES:
            raise GcgError(
                f"unknown #game-type {excerpt(value)!r}; known: {', '.join(GAME_TYPES)}", number
            )
        self.r.game_type = value.lower()

    def _p_board_layout(self, value: str, number: int) -> None:
        try:
            self.r.board_layout = layout_for(value)
        except ValueError as exc:
            raise GcgError(str(exc), number) from None

    def _p_tile_distribution(self, value: str, number: int) -> None:
        try:
            self.r.tile_distribution = tileset_for(value)
        except ValueError as exc:
            raise GcgError(str(exc), number) from None

    def _p_tile(self, value: str, number: int) -> None:
        parts = value.split()
        if len(parts) != 2 or len(parts[0]) != 1 or not parts[0].isalpha():
            raise GcgError(
                "#tile needs one character and the label it stands for, e.g. '#tile Ç CH'", number
            )
        self.r.tile_aliases[parts[0].upper()] = parts[1].upper()

    def _p_tessera_rules(self, value: str, number: int) -> None:
        try:
            self.r.tessera_rules = decode_rules_text(value)
        except RulesError as exc:
            raise GcgError(f"#tessera-rules: {exc}", number) from None

    def _p_tessera_seed(self, value: str, number: int) -> None:
        value, _, how = value.partition(" ")
        if how.strip() not in ("", FIRST_GIVEN):
            raise GcgError(f"#tessera-seed: {excerpt(how)!r} after the seed is not "
                           f"{FIRST_GIVEN!r}", number)
        self.r.first_given = how.strip() == FIRST_GIVEN
        if not re.fullmatch(r"\d{1,40}", value, re.ASCII):
            raise GcgError(
                f"#tessera-seed needs a whole number of at most 40 digits, not {excerpt(value)!r}",
                number,
            )
        self.r.seed = int(value)

    def _p_tile_set(self, value: str, number: int) -> None:
        """``#tile-set tessera-KEY …`` is Tessera's data (see :func:`dumps`); any other
        ``#tile-set`` line is another program's and is kept but not used."""
        key, _, rest = value.partition(" ")
        if not key.startswith(TESSERA_DATA):
            return
        key = key.removeprefix(TESSERA_DATA)
        rest = rest.strip()
        if key in _TESSERA_HEADER_KEYS and self.seen_event:
            raise GcgError(
                f"#tile-set {TESSERA_DATA}{key} must come before the first event", number
            )
        if key == "rules":
            self._p_tessera_rules(rest, number)
        elif key == "seed":
            self._p_tessera_seed(rest, number)
        elif key == "seats":
            self._seats(rest, number)
        elif key == "end":
            self._p_tessera_end(rest, number)
        elif key == "incomplete":
            self.r.incomplete = True
        elif key == "duplicate":
            self._duplicate_player(rest, number)
        elif key == "computer":
            self._duplicate_computer(rest, number)
        elif key == "submit":
            self.r.submissions.append(_submission(rest, number))
        elif key == "rack":
            nick, _, rack = rest.partition(" ")
            _check_tile_text(rack.strip(), number, "rack", allow_empty=True)
            self.tessera_racks.append((nick, rack.strip(), number))

    def _duplicate_player(self, value: str, number: int) -> None:
        nick, _, name = value.partition(" ")
        if not nick or ":" in nick or nick.startswith(">"):
            raise GcgError(
                f"#tile-set {TESSERA_DATA}duplicate needs a nickname (no ':', not starting "
                "with '>') and a name",
                number,
            )
        players = self.r.duplicate_players
        if any(p.nick == nick for p in players):
            raise GcgError(f"duplicate player {excerpt(nick)!r} is declared twice", number)
        if len(players) >= MAX_DUPLICATE_PLAYERS:
            raise GcgError(f"more than {MAX_DUPLICATE_PLAYERS} duplicate players", number)
        players.append(GcgPlayer(len(players) + 1, nick, name.strip() or nick, number))

    def _duplicate_computer(self, value: str, number: int) -> None:
        parts = value.split()
        if len(parts) != 2:
            raise GcgError(
                f"#tile-set {TESSERA_DATA}computer needs a player's nickname and the name of "
                "the computer that plays it",
                number,
            )
        nick, computer = parts
        computers = self.r.duplicate_computers
        if nick in computers:
            raise GcgError(f"duplicate player {excerpt(nick)!r} is marked a computer twice",
                           number)
        if not any(p.nick == nick for p in self.r.duplicate_players):
            raise GcgError(
                f"#tile-set {TESSERA_DATA}computer: no duplicate player {excerpt(nick)!r} "
                "declared before it",
                number,
            )
        computers[nick] = computer

    def _seats(self, value: str, number: int) -> None:
        nicks = value.split()
        if self.r.seats is not None:
            raise GcgError("the seat order is given twice", number)
        if not 1 <= len(nicks) <= MAX_PLAYERS or len(set(nicks)) != len(nicks):
            raise GcgError("the seat order lists each player's nickname once", number)
        self.r.seats = nicks
        self.seats_line = number

    def _p_incomplete(self, value: str, number: int) -> None:
        self.r.incomplete = True
        if value:
            _check_tile_text(value, number, "rack")
            self.r.incomplete_rack = value

    def _p_tessera_end(self, value: str, number: int) -> None:
        parts = value.split()
        if not parts or parts[0] not in END_MARKER_REASONS or len(parts) != 2:
            raise GcgError(
                "#tessera-end needs a reason and a nick; reasons: " + ", ".join(END_MARKER_REASONS),
                number,
            )
        self.seen_event = True
        self.r.events.append(GcgEvent(LineKind.END_MARKER, parts[1], number, reason=parts[0]))

    def _player_or_rack(self, what: str, n: int, value: str, number: int) -> None:
        if not 1 <= n <= MAX_PLAYERS:
            raise GcgError(f"#{what}…: players are numbered 1 to {MAX_PLAYERS}", number)
        if what == "rack":
            _check_tile_text(value, number, "rack", allow_empty=True)
            self.rack_pragmas.append((n, value, number))
            return
        parts = value.split(None, 1)
        if not parts:
            raise GcgError(f"#player{n} needs a nickname", number)
        nick = parts[0]
        if ":" in nick or nick.startswith(">"):
            raise GcgError(
                f"nickname {excerpt(nick)!r} may not contain ':' or start with '>'", number
            )
        if any(p.number == n for p in self.r.players):
            raise GcgError(f"#player{n} is declared twice", number)
        if any(p.nick == nick for p in self.r.players):
            raise GcgError(f"nickname {excerpt(nick)!r} is used by two players", number)
        self.r.players.append(
            GcgPlayer(n, nick, parts[1].strip() if len(parts) > 1 else "", number)
        )

    # -- events

    def event(self, number: int, line: str) -> None:
        m = _EVENT.match(line)
        if not m:
            raise GcgError("an event is '>nick: RACK …'; the ':' after the nick is missing", number)
        nick, rest = m.group(1), m.group(2)
        if not nick:
            raise GcgError("an event needs a player nickname before ':'", number)
        tokens = rest.split()
        if not tokens:
            raise GcgError(f"event for {excerpt(nick)!r} has nothing after ':'", number)
        if self.rack_pragmas:
            n, _, rack_line = self.rack_pragmas[0]
            raise GcgError(
                f"an event after the final racks (#rack{n} on line {rack_line}); the #rackN lines "
                "end a record",
                number,
            )
        self.seen_event = True
        if len(self.r.events) >= MAX_EVENTS:
            raise GcgError(f"more than {MAX_EVENTS:,} events; no game has that many", number)
        ev = _parse_event(nick, tokens, number)
        if ev.kind is LineKind.TIME_PENALTY:
            earlier = next(
                (e for e in self.r.events if e.kind is LineKind.TIME_PENALTY and e.nick == nick),
                None,
            )
            if earlier is not None:
                raise GcgError(
                    f"a second (time) line for {nick} (the first is on line {earlier.line}); "
                    "a player's time penalty is one line",
                    number,
                )
        if ev.kind is LineKind.WITHDRAWN:
            at = _withdrawn_play(self.r.events, len(self.r.events), nick)
            prev = self.r.events[at] if at is not None else None
            if prev is None or prev.kind is not LineKind.PLAY or prev.nick != nick:
                raise GcgError(
                    "a '--' (phony withdrawn) line must come right after the same player's play",
                    number,
                )
            if ev.rack is not None and prev.rack is not None and ev.rack != prev.rack:
                raise GcgError(
                    f"the '--' line's rack {ev.rack} differs from the play's rack {prev.rack}",
                    number,
                )
        self.r.events.append(ev)

    def finish(self) -> None:
        r = self.r
        numbers = sorted(p.number for p in r.players)
        if numbers != list(range(1, len(numbers) + 1)):
            missing = next(i for i in range(1, MAX_PLAYERS + 1) if i not in numbers)
            line = max(p.line for p in r.players)
            raise GcgError(f"#player{missing} is missing (players are numbered from 1)", line)
        r.players.sort(key=lambda p: p.number)
        if not r.players:  # lenient: nicks in order of appearance
            for ev in r.events:
                if ev.kind is not LineKind.END_MARKER and ev.nick not in [
                    p.nick for p in r.players
                ]:
                    if len(r.players) == MAX_PLAYERS:
                        raise GcgError(f"more than {MAX_PLAYERS} players", ev.line)
                    r.players.append(GcgPlayer(len(r.players) + 1, ev.nick, ev.nick, ev.line))
        nicks = {p.nick for p in r.players}
        for ev in r.events:
            if ev.nick not in nicks:
                raise GcgError(
                    f"unknown player {excerpt(ev.nick)!r}; declared: {', '.join(sorted(nicks))}",
                    ev.line,
                )
        if r.seats is not None and sorted(r.seats) != sorted(p.nick for p in r.players):
            raise GcgError(
                f"the seat order names {', '.join(r.seats)}; the players are "
                f"{', '.join(p.nick for p in r.players)}",
                self.seats_line,
            )
        for nick, value, line in self.tessera_racks:
            if nick not in nicks:
                raise GcgError(f"#tile-set {TESSERA_DATA}rack: no player {excerpt(nick)!r}", line)
            r.final_racks[nick] = value
        dup = {p.nick for p in r.duplicate_players}
        for sub in r.submissions:
            if sub.nick not in dup:
                raise GcgError(
                    f"#tile-set {TESSERA_DATA}submit: no duplicate player {excerpt(sub.nick)!r}",
                    sub.line,
                )
        for n, value, line in self.rack_pragmas:
            if n > len(r.players):
                raise GcgError(f"#rack{n}: there is no player {n}", line)
            r.final_racks[r.players[n - 1].nick] = value


_SUBMIT = re.compile(
    r"^(\d{1,4})\s+(\S+)\s+([a-z_]+)\s+([+-]\d{1,9})\s+(-?\d{1,9})"
    r"((?:\s+(?:declared|ms|bonus)=-?\d{1,9})*)\s*(\".*\")?\s*$",
    re.ASCII,
)


def _submission(value: str, number: int) -> GcgSubmission:
    """``ROUND NICK VERDICT +SCORE TOTAL [declared=N] [ms=N] [bonus=N] ["TEXT"]``."""
    m = _SUBMIT.match(value.strip())
    if not m:
        raise GcgError(
            f"#tile-set {TESSERA_DATA}submit needs 'ROUND NICK VERDICT +SCORE TOTAL "
            f"[declared=N] [ms=N] [bonus=N] [\"TEXT\"]', not {excerpt(value)!r}",
            number,
        )
    options = dict(part.split("=") for part in m.group(6).split())
    text = ""
    if m.group(7):
        try:
            text = json.loads(m.group(7))
        except json.JSONDecodeError as exc:
            raise GcgError(f"the submitted text is not a JSON string: {exc.msg}", number) from None
        if not isinstance(text, str):
            raise GcgError("the submitted text is not a JSON string", number)
    return GcgSubmission(
        round=int(m.group(1)),
        nick=m.group(2),
        verdict=m.group(3),
        score=int(m.group(4)),
        total=int(m.group(5)),
        line=number,
        text=text,
        declared=int(options["declared"]) if "declared" in options else None,
        elapsed_ms=int(options["ms"]) if "ms" in options else None,
        bonus=int(options.get("bonus", 0)),
    )


def _withdrawn_play(events: list[GcgEvent], j: int, nick: str) -> int | None:
    """The play a '--' line at index ``j`` withdraws: the line before it, passing over lost
    turns (passes noted ``#unsuccessful-challenge``) that the game inserted meanwhile."""
    i = j - 1
    while (
        i >= 0 and events[i].kind is LineKind.PASS and events[i].tagged and events[i].nick != nick
    ):
        i -= 1
    if i >= 0 and events[i].kind is LineKind.PLAY and events[i].nick == nick:
        return i
    return None


def _check_tile_text(text: str, line: int, what: str, allow_empty: bool = False) -> None:
    if not text and allow_empty:
        return
    if not _TILE_TEXT.match(text) or "_" in text or any(ch.isdigit() for ch in text):
        raise GcgError(f"{what} {excerpt(text)!r} is not tiles (letters, '?' and [XX] only)", line)


def _score(token: str | None, line: int, what: str) -> int:
    if token is None:
        raise GcgError(f"{what} is missing", line)
    if not _SCORE.match(token):
        if re.fullmatch(r"[+-]\d+", token, re.ASCII):
            raise GcgError(f"{what} {excerpt(token)} has more than 9 digits", line)
        raise GcgError(
            f"{what} {excerpt(token)!r} must be a signed number such as +12 or -5", line
        )
    return int(token)


def _total(token: str | None, line: int) -> int:
    if token is None:
        raise GcgError("the cumulative score is missing", line)
    if not _TOTAL.match(token):
        if re.fullmatch(r"[+-]?\d+", token, re.ASCII):
            raise GcgError(f"the cumulative score {excerpt(token)} has more than 9 digits", line)
        raise GcgError(f"the cumulative score {excerpt(token)!r} is not a whole number", line)
    return int(token)


def _parse_event(nick: str, tokens: list[str], line: int) -> GcgEvent:
    t0 = tokens[0]
    rack: str | None = None
    i = 0
    if not (t0.startswith("(") or t0.startswith("-") or _POSITION.match(t0)):
        rack = t0
        i = 1
        _check_tile_text(rack, line, "rack")
    if i >= len(tokens):
        raise GcgError(f"the rack {rack} is not followed by a move", line)
    action = tokens[i]
    rest = tokens[i + 1 :]

    def tail(n_before: int) -> tuple[int, int, tuple[str, ...]]:
        score_tok = rest[n_before] if len(rest) > n_before else None
        total_tok = rest[n_before + 1] if len(rest) > n_before + 1 else None
        score = _score(score_tok, line, "the score")
        return score, _total(total_tok, line), tuple(rest[n_before + 2 :])

    low = action.lower()
    if low == "(challenge)":
        score, total, extra = tail(0)
        kind = (
            LineKind.CHALLENGE_PENALTY
            if score < 0 or rest[0].startswith("-")
            else (LineKind.CHALLENGE_BONUS)
        )
        return GcgEvent(kind, nick, line, rack, score, total, extra=extra)
    if low == "(time)":
        score, total, extra = tail(0)
        if score > 0 or not rest[0].startswith("-"):
            raise GcgError(f"a time penalty must be negative, not {rest[0]}", line)
        return GcgEvent(LineKind.TIME_PENALTY, nick, line, rack, score, total, extra=extra)
    if action.startswith("("):
        if not action.endswith(")"):
            raise GcgError(f"{excerpt(action)!r}: '(' without ')'", line)
        tiles = action[1:-1]
        _check_tile_text(tiles, line, "end rack", allow_empty=True)
        score, total, extra = tail(0)
        negative = rest[0].startswith("-")
        if rack is not None:
            if tiles != rack:
                raise GcgError(
                    f"an end-rack penalty repeats the rack: {rack} ({rack}), not {rack} ({tiles})",
                    line,
                )
            if not negative:
                raise GcgError(f"an end-rack penalty must be negative, not {rest[0]}", line)
            return GcgEvent(
                LineKind.END_RACK_PENALTY, nick, line, rack, score, total, tiles=tiles, extra=extra
            )
        if (negative and score != 0) or (tiles == "" and negative):
            return GcgEvent(
                LineKind.END_RACK_PENALTY, nick, line, tiles, score, total, tiles=tiles, extra=extra
            )
        if negative:
            raise GcgError(f"end-rack points must be positive, not {rest[0]}", line)
        return GcgEvent(
            LineKind.END_RACK_POINTS, nick, line, None, score, total, tiles=tiles, extra=extra
        )
    if action == "--":
        score, total, extra = tail(0)
        if score == 0:  # old Quackle writes '-- +0' and lets the total drop
            return GcgEvent(
                LineKind.WITHDRAWN, nick, line, rack, 0, total, extra=extra, score_given=False
            )
        if not rest[0].startswith("-"):
            raise GcgError(f"a withdrawn play's score must be negative, not {rest[0]}", line)
        return GcgEvent(LineKind.WITHDRAWN, nick, line, rack, score, total, extra=extra)
    if action.startswith("-"):
        body = action[1:]
        score, total, extra = tail(0)
        if score != 0:
            raise GcgError(f"a pass or exchange scores +0, not {rest[0]}", line)
        if body == "" or body == "0":
            return GcgEvent(LineKind.PASS, nick, line, rack, 0, total, extra=extra)
        if body.isascii() and body.isdigit():
            if len(body) > 3:
                raise GcgError(f"an exchange of {excerpt(body)} tiles", line)
            return GcgEvent(
                LineKind.EXCHANGE, nick, line, rack, 0, total, count=int(body), extra=extra
            )
        _check_tile_text(body, line, "exchanged tiles")
        return GcgEvent(LineKind.EXCHANGE, nick, line, rack, 0, total, tiles=body, extra=extra)
    if _POSITION.match(action):
        if not rest:
            raise GcgError(f"the play at {action} has no word", line)
        word = rest[0]
        if "(" in word or ")" in word:
            word = _strip_parens(word, line)
        if not _WORD_TEXT.match(word) or "_" in word or any(c.isdigit() for c in word):
            raise GcgError(
                f"word {excerpt(rest[0])!r} is not tiles (letters, '.', [XX] only)", line
            )
        if set(word) <= {"."}:
            raise GcgError(f"word {excerpt(rest[0])!r} places no tile", line)
        rest = rest[1:]
        score, total, extra = tail(0)
        if score < 0:
            raise GcgError(f"a play cannot score {score}", line)
        return GcgEvent(
            LineKind.PLAY, nick, line, rack, score, total, position=action, word=word, extra=extra
        )
    raise GcgError(
        f"{excerpt(action)!r} is not a move: expected a position (8D, D8), '-', '--', '-TILES', "
        "'(challenge)', '(time)' or '(RACK)'",
        line,
    )


def _strip_parens(word: str, line: int) -> str:
    """Lenient: human notation MES(QUITE) becomes MES....., R9.5."""
    out = []
    inside = False
    for ch in word:
        if ch == "(":
            if inside:
                raise GcgError(f"word {excerpt(word)!r}: nested '('", line)
            inside = True
        elif ch == ")":
            if not inside:
                raise GcgError(f"word {excerpt(word)!r}: ')' without '('", line)
            inside = False
        else:
            out.append("." if inside else ch)
    if inside:
        raise GcgError(f"word {excerpt(word)!r}: '(' is never closed", line)
    return "".join(out)


# -- writing -------------------------------------------------------------------------------


def _nicks(names: Sequence[str]) -> list[str]:
    out: list[str] = []
    for i, name in enumerate(names):
        base = re.sub(r"[\s:#>]+", "_", name).strip("_") or f"player{i + 1}"
        nick = base
        k = 2
        while nick in out:
            nick = f"{base}_{k}"
            k += 1
        out.append(nick)
    return out


def _signed(n: int, negative: bool = False) -> str:
    if negative:
        return f"-{abs(n)}"
    return f"+{n}" if n >= 0 else str(n)


TESSERA_PRAGMA = "#tile-set " + TESSERA_DATA


def _pragma_safe(text: str) -> str:
    """JSON for a pragma line: MAGPIE matches its line patterns anywhere in a line, so a '#'
    or '>' in a rules string (a custom name) could make the line look like another pragma or
    an event. Both can occur in JSON only inside strings, where their escapes mean the same."""
    return text.replace("#", "\\u0023").replace(">", "\\u003e")


def dumps(game: Game | DuplicateGame) -> str:
    """The game as strict GCG (UTF-8 pragma first). Replaying the text with :func:`replay`
    gives the same board, scores and history (event times are not part of GCG). A duplicate
    game is written with the extension of :mod:`tessera.formats.gcg_duplicate`, which
    :func:`replay_duplicate` reads back."""
    if isinstance(game, DuplicateGame):
        from .gcg_duplicate import dumps_duplicate

        return dumps_duplicate(game)
    alphabet = game.alphabet
    rules = game.rules
    nicks = _nicks(game.players)  # by seat
    order = [(game.first + k) % game.num_players for k in range(game.num_players)]
    number = {seat: k for k, seat in enumerate(order, start=1)}  # seat -> #playerN
    names = [" ".join(name.split()) for name in game.players]
    if len(set(names)) != len(names) or not all(names):
        names = list(nicks)  # MAGPIE refuses two players of one name; replay reads nicks then
    lines = ["#character-encoding UTF-8"]
    for seat in order:
        lines.append(f"#player{number[seat]} {nicks[seat]} {names[seat]}")
    lex_name = getattr(game.lexicon, "name", None) or rules.lexicon
    if isinstance(lex_name, str) and lex_name and len(lex_name.split()) == 1:
        lines.append(f"#lexicon {lex_name}")
    if rules.gcg_game_type != "classic":
        lines.append(f"#game-type {rules.gcg_game_type}")
    if rules.board != "standard15":
        lines.append(f"#board-layout {LAYOUT_GCG_NAMES.get(rules.board, rules.board)}")
    if rules.tiles != "english":
        lines.append(f"#tile-distribution {TILESET_GCG_NAMES.get(rules.tiles, rules.tiles)}")
    lines.append(f"{TESSERA_PRAGMA}rules {_pragma_safe(encode_rules_text(rules))}")
    drawn = bool(game.order_draws) or rules.first_player is FirstPlayer.FIXED
    lines.append(f"{TESSERA_PRAGMA}seed {game.seed}" + ("" if drawn else f" {FIRST_GIVEN}"))
    if order != sorted(order):
        lines.append(f"{TESSERA_PRAGMA}seats {' '.join(nicks)}")

    history = list(game.history)
    end_start = len(history)
    while end_start > 0 and history[end_start - 1].kind in (
        EventKind.END_RACK_POINTS,
        EventKind.END_RACK_PENALTY,
        EventKind.TIME_PENALTY,
    ):
        end_start -= 1
    marker = _end_marker(game, history, end_start, nicks)
    tag_index = _tagged_out_play(game, history, end_start)
    last_play: Event | None = None
    for idx, e in enumerate(history):
        if idx == end_start and marker:
            lines.append(marker)
        if e.kind is EventKind.ACCEPT:
            continue
        nick = nicks[e.player]
        rack = format_tiles(alphabet, e.rack)
        lead = f">{nick}: {rack} "  # an empty rack leaves two spaces, as MAGPIE's patterns need
        notes: list[str] = []
        if e.kind is EventKind.PLAY:
            assert isinstance(e.move, Play)
            word = "".join(
                "." if t == PLAYED_THROUGH else format_tiles(alphabet, [t]) for t in e.move.word
            )
            lines.append(f"{lead}{e.move.position} {word} {_signed(e.score)} {e.total}")
            last_play = e
            if idx == tag_index:
                notes.append(UNSUCCESSFUL_CHALLENGE)
        elif e.kind in (EventKind.PASS, EventKind.LOST_TURN):
            lines.append(f"{lead}- +0 {e.total}")
            if e.kind is EventKind.LOST_TURN:
                notes.append(UNSUCCESSFUL_CHALLENGE)
        elif e.kind is EventKind.EXCHANGE:
            assert isinstance(e.move, Exchange)
            ex = format_tiles(alphabet, e.move.tiles) if e.move.tiles else str(e.move.n)
            lines.append(f"{lead}-{ex} +0 {e.total}")
        elif e.kind is EventKind.WITHDRAWN:
            lines.append(f"{lead}-- {_signed(e.score, negative=True)} {e.total}")
        elif e.kind in (EventKind.CHALLENGE_BONUS, EventKind.CHALLENGE_PENALTY):
            negative = e.kind is EventKind.CHALLENGE_PENALTY
            text = f"{lead}(challenge) {_signed(e.score, negative)} {e.total}"
            words = _written_words(game, e, last_play)
            if words:
                text += " " + " ".join(format_tiles(alphabet, w) for w in words)
            lines.append(text)
        elif e.kind is EventKind.END_RACK_POINTS:
            lines.append(
                f">{nick}: ({format_tiles(alphabet, e.other_racks)}) {_signed(e.score)} {e.total}"
            )
        elif e.kind is EventKind.END_RACK_PENALTY:
            own = format_tiles(alphabet, e.rack)
            if own:
                lines.append(f">{nick}: {own} ({own}) {_signed(e.score, True)} {e.total}")
            else:
                lines.append(f">{nick}: () {_signed(e.score, True)} {e.total}")
        elif e.kind is EventKind.TIME_PENALTY:
            lines.append(f"{lead}(time) {_signed(e.score, True)} {e.total}")
        else:  # pragma: no cover - every EventKind is handled above
            raise ValueError(f"cannot write event kind {e.kind}")
        if e.note:
            notes.extend(e.note.splitlines() or [""])
        lines.extend(f"#note {n}".rstrip() for n in notes)
    if marker and end_start == len(history):
        lines.append(marker)
    if not game.is_over:
        lines.append(f"{TESSERA_PRAGMA}incomplete")
        # the rack of the player to move goes last, as #rackN (Quackle and MAGPIE write it so;
        # MAGPIE refuses anything after it, an empty one, or a second); the others' before it
        for seat in order:
            rack = format_tiles(alphabet, game.rack(seat).tiles())
            if seat != game.to_move and rack:
                lines.append(f"{TESSERA_PRAGMA}rack {nicks[seat]} {rack}")
        rack = format_tiles(alphabet, game.rack(game.to_move).tiles())
        if rack:
            lines.append(f"#rack{number[game.to_move]} {rack}")
    return "\n".join(lines) + "\n"


def dump(game: Game | DuplicateGame, path: str | PathLike[str]) -> None:
    Path(path).write_text(dumps(game), encoding="utf-8")


def _end_marker(game: Game, history: list[Event], end_start: int, nicks: list[str]) -> str:
    result = game.result
    if result is None:
        return ""
    reason = result.reason
    if reason in (EndReason.RESIGNED, EndReason.TIMEOUT_FORFEIT) and result.loser is not None:
        return f"{TESSERA_PRAGMA}end {reason.value} {nicks[result.loser]}"
    if reason is EndReason.TRIPLE_CHALLENGE and result.loser is not None:
        before = history[end_start - 1] if end_start else None
        if before is not None and before.kind is EventKind.WITHDRAWN:
            return ""
        return f"{TESSERA_PRAGMA}end {reason.value} {nicks[result.loser]}"
    if reason is EndReason.ENDED_BY_REQUEST:
        return f"{TESSERA_PRAGMA}end {reason.value} {nicks[game.to_move]}"
    if reason is EndReason.MAX_OVERTIME:
        clock = game.rules.clock
        limit = (clock.max_overtime_min if clock else 0) * 60_000
        over = [i for i in range(game.num_players) if game.overtime_ms(i) > limit]
        who = game.to_move if game.to_move in over or not over else over[0]
        return f"{TESSERA_PRAGMA}end {reason.value} {nicks[who]}"
    return ""


def _tagged_out_play(game: Game, history: list[Event], end_start: int) -> int | None:
    """The index of an out-play (or finish-line play) whose unsuccessful double challenge
    left no event: the game ended right after it without an accepting pass."""
    result = game.result
    if result is None or result.reason not in (EndReason.PLAYED_OUT, EndReason.FINISH_LINE):
        return None
    if game.rules.challenge_rule not in (ChallengeRule.DOUBLE,):
        return None
    if end_start and history[end_start - 1].kind is EventKind.PLAY:
        return end_start - 1
    return None


def _default_challenge_words(
    rules: Rules, score: int, formed: tuple[tuple[int, ...], ...]
) -> tuple[tuple[int, ...], ...]:
    """The words a replay challenges when a (challenge) line names none."""
    if (
        rules.challenge_rule is ChallengeRule.PENALTY
        and rules.penalty_per is PenaltyPer.WORD
        and rules.challenge_scope is ChallengeScope.LISTED_WORDS
        and rules.penalty_points
    ):
        k = abs(score) // rules.penalty_points
        return formed[:k]
    return formed


def _written_words(game: Game, e: Event, last_play: Event | None) -> tuple[tuple[int, ...], ...]:
    if last_play is None or game.rules.challenge_scope is not ChallengeScope.LISTED_WORDS:
        return ()
    if e.words == _default_challenge_words(game.rules, e.score, last_play.words):
        return ()
    return e.words


# -- replay --------------------------------------------------------------------------------


class _Judge:
    """The replay's word source: the file, not a word list, decides challenges."""

    def __init__(self) -> None:
        self.valid = True

    def contains(self, tiles: Sequence[int]) -> bool:
        return self.valid

    def has_anagram(self, tiles: Sequence[int]) -> bool:
        return self.valid


class _ScriptedRandom(random.Random):
    """Draws the tiles the record shows a player drew next; otherwise the game's own
    random choice. Installed as the replayed game's generator."""

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.queue: list[int] = []

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None and self.queue:
            bag = self.game._bag  # the game draws with bag.pop(randrange(len(bag)))
            while self.queue:
                tile = self.queue.pop(0)
                if tile in bag:
                    return bag.index(tile)
        return super().randrange(start, stop, step)


def infer_rules(record: GcgGame) -> Rules:
    """The rules a record implies when it names none (see the module docstring)."""
    if record.tessera_rules is not None:
        return record.tessera_rules
    base = preset("naspa")
    changes: dict[str, Any] = {}
    if record.board_layout:
        changes["board"] = record.board_layout
    if record.tile_distribution:
        changes["tiles"] = record.tile_distribution
    else:
        super_board = changes.get("board") == "super21" or (record.game_type or "").endswith(
            "_super"
        )
        try:
            implied = implied_tiles(record.lexicon, super_board)
        except ValueError as exc:
            line = next((n for name, _, n in record.pragmas if name == "lexicon"), None)
            raise GcgError(f"#lexicon {exc}; name it with #tile-distribution", line) from None
        if implied:
            changes["tiles"] = implied
        if implied == "english_super":
            changes.setdefault("board", "super21")
    if (record.game_type or "").startswith("wordsmog"):
        changes["validity"] = Validity.ANAGRAM
    if record.lexicon:
        changes["lexicon"] = record.lexicon
    if len(record.players) > 2:
        changes["max_players"] = MAX_PLAYERS
    if len(record.players) < 2:
        changes["min_players"] = 1
    bonus = [e.score for e in record.events if e.kind is LineKind.CHALLENGE_BONUS]
    penalty = [-e.score for e in record.events if e.kind is LineKind.CHALLENGE_PENALTY]
    amounts = [a for a in bonus + penalty if a > 0]
    if amounts:
        points = 5 if all(a % 5 == 0 for a in amounts) else math.gcd(*amounts)
        changes.update(
            challenge_rule=ChallengeRule.PENALTY,
            penalty_points=points,
            penalty_per=PenaltyPer.WORD,
            challenge_scope=ChallengeScope.LISTED_WORDS,
            penalty_applies_to=PenaltyAppliesTo.CHALLENGER_DEDUCTION
            if penalty
            else PenaltyAppliesTo.CHALLENGED_BONUS,
        )
    elif bonus:
        changes["challenge_rule"] = ChallengeRule.SINGLE
    if any(e.kind is LineKind.END_RACK_PENALTY for e in record.events) and any(
        e.kind is LineKind.END_RACK_POINTS for e in record.events
    ):
        changes["out_adjust"] = OutAdjust.BOX
    return base.replace(**changes)


def replay(
    record: GcgGame | str | bytes,
    rules: Rules | str | None = None,
    lexicon: Any = None,
    check_scores: bool = True,
    *,
    check_words: bool = False,
    turns: int | None = None,
) -> Game:
    """Rebuild the game a record describes, checking it line by line.

    Raises :class:`GcgError` with the line number of the first problem: a score or running
    total that differs from the recomputed one, tiles not on the rack, an illegal placement,
    a line out of turn, … Challenges are decided by the file (a ``--`` line means the play
    was invalid), not by a word list. ``lexicon`` (a word source with ``contains`` and
    ``has_anagram``, or a name for ``tessera.lexicon.Lexicon.load``) becomes the returned
    game's word list; with ``check_words=True`` every word of every play that stood is
    checked against it too. ``check_scores=False`` skips the score and total comparisons. ``turns``
    stops after that many turn lines (plays, passes, exchanges) and the lines that settle
    them (withdrawals, challenge bonuses).
    """
    if isinstance(record, str | bytes):
        record = loads(record)
    if record.is_duplicate:
        raise GcgError("a duplicate record: replay it with replay_duplicate (it needs the word "
                       "list that finds its master moves)")
    lex = _load_lexicon(lexicon)
    if check_words and lex is None:
        raise GcgError("checking words needs a lexicon")
    if rules is None and lex is not None and not (
        record.tessera_rules or record.tile_distribution or record.lexicon
    ):
        rules = infer_rules(record).for_alphabet(getattr(lex, "alphabet", None))
    game = _Replay(record, rules, lex if check_words else None, check_scores, turns).run()
    state = game._rng.getstate()
    game._rng = random.Random()  # the replay's scripted draws end with the replay
    game._rng.setstate(state)
    game.lexicon = lex
    return game


def replay_duplicate(
    record: GcgGame | str | bytes, rules: Rules | str | None = None, lexicon: Any = None
) -> DuplicateGame:
    """Rebuild a duplicate game from its record (:mod:`tessera.formats.gcg_duplicate`)."""
    from .gcg_duplicate import replay_duplicate as replay_record

    return replay_record(record, rules, lexicon)


def _load_lexicon(lexicon: Any) -> Any:
    if lexicon is None or hasattr(lexicon, "contains"):
        return lexicon
    try:
        from tessera.lexicon import Lexicon
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise GcgError(f"word lists are not available: {exc}") from None
    try:
        return Lexicon.load(str(lexicon))
    except (OSError, ValueError) as exc:
        raise GcgError(f"cannot load lexicon {lexicon!r}: {exc}") from None


class _Replay:
    def __init__(
        self,
        record: GcgGame,
        rules: Rules | str | None,
        lexicon: Any,
        check_scores: bool,
        turns: int | None,
    ) -> None:
        self.record = record
        self.check_scores = check_scores
        self.turn_limit = turns
        self.lexicon = lexicon
        try:
            self.rules = preset(rules) if rules is not None else infer_rules(record)
        except RulesError as exc:
            raise GcgError(str(exc)) from None
        if not record.players:
            raise GcgError("the file names no players and has no events")
        self.events = record.events
        self.players = record.seated()  # seat order: the game's player indexes
        self.n = len(self.players)
        self.index = {p.nick: i for i, p in enumerate(self.players)}
        self.alphabet: Alphabet = self.rules.tileset.alphabet
        self.aliases = record.tile_aliases
        self.at = 0  # the index of the line being replayed
        self._prepare_time()
        self._prepare_racks()
        self._prepare_lost_turns()
        self.game = self._new_game()
        self.hist = 0
        self.pending: list[Event] = []
        self.deferred: tuple[int, int] | None = None  # (challenger, line of the play)
        self.end_totals: list[int] | None = None  # totals as the end lines so far show them

    # -- setup

    def _prepare_time(self) -> None:
        penalties: dict[int, int] = {}
        turn_counts: Counter[int] = Counter()
        for e in self.events:
            if e.kind is LineKind.TIME_PENALTY:
                penalties[self.index[e.nick]] = penalties.get(self.index[e.nick], 0) - e.score
            elif e.kind in TURN_LINES:
                turn_counts[self.index[e.nick]] += 1
        self.elapsed: dict[int, int] = {}
        if not any(penalties.values()):
            return
        if self.rules.clock is None:
            self.rules = self.rules.replace(clock=TimeControl())
        clock = self.rules.clock
        assert clock is not None
        for p, points in penalties.items():
            minutes = -(-points // max(1, clock.penalty_points_per_minute))
            self.elapsed[p] = (
                clock.initial_ms + clock.increment_ms * turn_counts[p] + minutes * 60_000
            )

    def _rack_of_line(self, e: GcgEvent, p: int) -> str | bool | None:
        """What line ``e`` tells about player ``p``'s current rack: its text, None (it
        becomes unknown), or False (nothing)."""
        who = self.index.get(e.nick)
        if e.kind is LineKind.END_MARKER:
            return False
        if who == p:
            if e.kind in TURN_LINES:
                return e.rack
            if e.kind is LineKind.WITHDRAWN:
                return False
            if e.kind is LineKind.CHALLENGE_BONUS:
                return e.rack if e.rack is not None else ""
            if e.kind is LineKind.END_RACK_POINTS:
                return ""
            if e.kind in (LineKind.CHALLENGE_PENALTY, LineKind.END_RACK_PENALTY):
                return e.rack
            if e.kind is LineKind.TIME_PENALTY:
                return e.rack if e.rack is not None else False
            return False
        if e.kind is LineKind.END_RACK_POINTS and self.n == 2:
            return e.tiles
        return False

    def _prepare_racks(self) -> None:
        """``after[i][p]``: player p's rack right after line i, as later lines show it."""
        nxt: list[str | None] = [None] * self.n
        self.after: list[list[str | None]] = [[] for _ in self.events]
        self.last_turn = [-1] * self.n
        for j in range(len(self.events) - 1, -1, -1):
            self.after[j] = list(nxt)
            e = self.events[j]
            for p in range(self.n):
                info = self._rack_of_line(e, p)
                if info is not False:
                    nxt[p] = info  # type: ignore[assignment]
            if e.kind in TURN_LINES:
                p = self.index[e.nick]
                if self.last_turn[p] < 0:
                    self.last_turn[p] = j
        self.initial = nxt

    def _prepare_lost_turns(self) -> None:
        """Map plays to the players who challenged them without success (double rule), from
        each challenger's later pass noted ``#unsuccessful-challenge`` (Macondo). The play is
        one made between the challenger's previous real turn and that pass; each play can be
        challenged once, so passes take the earliest play still free (interval matching)."""
        self.withdrawn: set[int] = set()
        for j, e in enumerate(self.events):
            if e.kind is LineKind.WITHDRAWN:
                k = _withdrawn_play(self.events, j, e.nick)
                if k is not None:
                    self.withdrawn.add(k)
        self.challenger_of: dict[int, int] = {}
        if self.rules.challenge_rule is not ChallengeRule.DOUBLE:
            return
        events = self.events

        def lost(k: int) -> bool:
            return events[k].kind is LineKind.PASS and events[k].tagged

        for j, e in enumerate(events):
            if not lost(j):
                continue
            c = self.index[e.nick]
            prev = j - 1
            while prev >= 0 and not (
                events[prev].kind in TURN_LINES and self.index[events[prev].nick] == c
            ):
                prev -= 1
            start = prev + 1
            if prev >= 0 and lost(prev):
                # a challenge made after that lost turn may concern the play just before it
                q = prev
                while q >= 0 and lost(q):
                    q -= 1
                if q >= 0 and events[q].kind is LineKind.PLAY:
                    start = q
            for i in range(start, j):
                ei = events[i]
                if (
                    ei.kind is LineKind.PLAY
                    and self.index[ei.nick] != c
                    and i not in self.challenger_of
                    and i not in self.withdrawn
                ):
                    self.challenger_of[i] = c
                    break

    def _new_game(self) -> Game:
        names = [p.name or p.nick for p in self.players]
        if len(set(names)) != len(names) or any(not n.strip() for n in names):
            names = [p.nick for p in self.players]
        first_turn = next((e for e in self.events if e.kind in TURN_LINES), None)
        first = self.index[first_turn.nick] if first_turn else 0
        try:
            game = None
            self.exact = False
            if self.record.seed is not None and self.record.first_given:
                game = Game(self.rules, None, names, seed=self.record.seed, first=first)
                self.exact = True
            elif self.record.seed is not None:
                candidate = Game(self.rules, None, names, seed=self.record.seed)
                if candidate.first == first:
                    game, self.exact = candidate, True
            if game is None:
                game = Game(self.rules, None, names, seed=self.record.seed, first=first)
        except (ValueError, IllegalMove) as exc:
            raise GcgError(str(exc), self.record.players[-1].line) from None
        self.judge = _Judge()
        game.lexicon = self.judge
        self.rng = _ScriptedRandom(game)
        self.rng.setstate(game._rng.getstate())
        game._rng = self.rng
        if not self.exact:
            line = self.events[0].line if self.events else None
            for p in range(self.n):
                text = self.initial[p]
                if text is not None:
                    self._hold(game, p, text, line)
        return game

    # -- helpers

    def _tiles(self, text: str, line: int) -> list[int]:
        try:
            return rack_tiles(self.alphabet, text, self.aliases)
        except TileTextError as exc:
            raise GcgError(str(exc), line) from None

    def _hold(
        self,
        game: Game,
        p: int,
        text: str,
        line: int | None,
        later: str | None = None,
        used: Sequence[int] = (),
    ) -> None:
        """Make player p's rack hold the tiles of ``text``: exactly those, or — when ``text``
        lists fewer tiles than the player holds — those and others. liwords and annotated
        files list only the tiles a player played, passed or exchanged with
        (``>darrell: AA -`` with seven on the rack), so a short rack is what is known, not
        the whole rack. The others are the ones the player's next rack (``later``) shows
        kept, after the tiles the move ``used``; then the tiles already held; then the bag's."""
        listed = self._tiles(text, line or 0)
        current = game.rack(p).tiles()
        if len(listed) >= len(current):
            self._force(game, p, text, line, listed)
            return
        if not Counter(listed) - Counter(current):
            return  # the rack already holds them
        kept = Counter(listed) - Counter(used)
        candidates: list[int] = []
        if later:
            candidates += (Counter(self._tiles(later, line or 0)) - kept).elements()
        candidates += list((Counter(current) - Counter(listed)).elements())
        free = Counter(game.bag_tiles()) + Counter(current) - Counter(listed)
        candidates += sorted(free.elements())
        wanted = list(listed)
        for t in candidates:
            if len(wanted) == len(current):
                break
            if free[t] > 0:
                wanted.append(t)
                free[t] -= 1
        self._force(game, p, text, line, wanted)

    def _force(
        self, game: Game, p: int, text: str, line: int | None, tiles: list[int] | None = None,
        protected: Sequence[int] = (),
    ) -> None:
        """Make player p's rack ``text`` (or ``tiles``, its completion), taking tiles from the
        bag — or, if another player holds them (their rack drawn at random in this replay),
        swapping them out; never from the ``protected`` players, whose racks the file gives
        too (taking an M from one rack the file gives to complete another gave it a blank)."""
        wanted = self._tiles(text, line or 0) if tiles is None else tiles
        current = game.rack(p).tiles()
        if Counter(current) == Counter(wanted):
            return
        if self.exact:
            self._leave_seeded_course(game, p, line)
        if len(wanted) > game.rules.rack_size:
            raise GcgError(
                f"rack {text} has {len(wanted)} tiles; a rack holds {game.rules.rack_size}", line
            )
        try:
            game.set_rack(p, wanted)
            return
        except IllegalMove:
            pass
        game.set_rack(p, [])
        need = Counter(wanted) - Counter(game.bag_tiles())
        for o in range(self.n):
            if o == p or o in protected or not need:
                continue
            orack = Counter(game.rack(o).tiles())
            take = orack & need
            if not take:
                continue
            spare = Counter(game.bag_tiles()) - Counter(wanted)
            replacement: list[int] = []
            for t in sorted(spare.elements()):
                if len(replacement) == sum(take.values()):
                    break
                replacement.append(t)
            if len(replacement) < sum(take.values()):
                break
            game.set_rack(o, list((orack - take).elements()) + replacement)
            need -= take
        try:
            game.set_rack(p, wanted)
        except IllegalMove:
            raise GcgError(
                f"rack {text}: these tiles are not all left in the bag and on the racks", line
            ) from None

    def _leave_seeded_course(self, game: Game, p: int, line: int | None) -> None:
        """The record's racks differ from the seeded ones: from now on draws are scripted, so
        every other player's rack must hold what the file shows now, or a seeded rack could keep
        a tile that the file has someone draw."""
        self.exact = False
        now = self.after[self.at - 1] if self.at > 0 else self.initial
        for o in range(self.n):
            rack = now[o]
            if o != p and rack is not None:
                self._force(game, o, rack, line)

    def _collect(self) -> list[Event]:
        new = self.game.history[self.hist :]
        self.hist = len(self.game.history)
        return [e for e in new if e.kind is not EventKind.ACCEPT]

    def _compare(self, ev: GcgEvent, got: Event, what: str, total: int | None = None) -> None:
        """Check the line against the game's event: its racks, then (unless scores are not
        checked) its score and its running total (``total``, else the event's)."""
        self._attach_notes(ev, got)
        if (
            ev.rack is not None
            and ev.kind not in TURN_LINES
            and ev.kind is not LineKind.END_RACK_POINTS
        ):
            self._compare_rack(ev, got.rack, partial=ev.kind is LineKind.WITHDRAWN)
        if ev.kind is LineKind.END_RACK_POINTS:
            want = Counter(self._tiles(ev.tiles, ev.line))
            if Counter(got.other_racks) != want:
                raise GcgError(
                    f"the tiles left are {self._fmt(got.other_racks) or 'none'}, "
                    f"not ({ev.tiles}) as recorded",
                    ev.line,
                )
        if not self.check_scores:
            return
        if got.score != ev.score and ev.score_given:
            raise GcgError(
                f"{what} scores {_signed(got.score)}, not {_signed(ev.score)} as recorded", ev.line
            )
        total = got.total if total is None else total
        if total != ev.total:
            raise GcgError(f"{ev.nick}'s total is {total}, not {ev.total} as recorded", ev.line)

    def _attach_notes(self, ev: GcgEvent, got: Event) -> None:
        """Keep the line's notes on the game's event (the tag is the writer's to add)."""
        notes = [n for n in ev.notes if n.strip() != UNSUCCESSFUL_CHALLENGE]
        if not notes:
            return
        history = self.game.history
        for k in range(len(history) - 1, -1, -1):
            if history[k] is got:
                history[k] = replace(got, note="\n".join(notes))
                return

    def _fmt(self, tiles: Sequence[int]) -> str:
        return format_tiles(self.alphabet, sorted(tiles, key=lambda t: (t == 0, t)))

    def _describe(self, e: Event) -> str:
        nick = self.players[e.player].nick
        kinds = {
            EventKind.END_RACK_POINTS: "end-rack points",
            EventKind.END_RACK_PENALTY: "an end-rack penalty",
            EventKind.TIME_PENALTY: "a time penalty",
            EventKind.LOST_TURN: "a lost turn (pass)",
            EventKind.CHALLENGE_BONUS: "a challenge bonus",
            EventKind.CHALLENGE_PENALTY: "a challenge penalty",
            EventKind.WITHDRAWN: "a withdrawal",
        }
        return f"{kinds.get(e.kind, e.kind.value)} for {nick} ({_signed(e.score)})"

    def _act(self, line: int, action: Any, *args: Any, **kwargs: Any) -> None:
        try:
            action(*args, **kwargs)
        except IllegalMove as exc:
            raise GcgError(str(exc), line) from None
        finally:
            self.rng.queue.clear()

    def _settle_finals(self, i: int, actor: int | None) -> None:
        """Players with no turns left get the racks the end of the file shows."""
        for o in range(self.n):
            if o == actor or self.last_turn[o] > i:
                continue
            text = self.after[i][o] if i >= 0 else self.initial[o]
            if text is not None:
                self._force(self.game, o, text, self.events[i].line if i >= 0 else None)

    # -- the main loop

    def run(self) -> Game:
        turns_done = 0
        game = self.game
        for i, ev in enumerate(self.events):
            self.at = i
            if ev.kind in TURN_LINES and self.turn_limit is not None:
                if turns_done >= self.turn_limit:
                    return game
                turns_done += 1
            p = self.index[ev.nick]
            matches_lost_turn = ev.kind is LineKind.PASS and any(
                e.kind is EventKind.LOST_TURN and e.player == p for e in self.pending
            )
            if not matches_lost_turn:
                self._run_deferred()
            if ev.kind in TURN_LINES:
                self._turn(i, ev, p)
            elif ev.kind is LineKind.WITHDRAWN:
                self._withdrawn(i, ev, p)
            elif ev.kind in (LineKind.CHALLENGE_BONUS, LineKind.CHALLENGE_PENALTY):
                self._challenge_line(i, ev, p)
            elif ev.kind in END_LINES:
                self._end_line(i, ev, p)
            else:
                self._end_marker(i, ev, p)
        if self.turn_limit is not None:
            return game
        self.at = len(self.events)
        self._run_deferred()
        last_line = self.events[-1].line if self.events else None
        if game.state is GameState.AWAITING_FINAL and not self.record.incomplete:
            self._finish_awaited(len(self.events) - 1)
        if self.pending and self.check_scores:
            raise GcgError(
                f"the file ends, but the game goes on with {self._describe(self.pending[0])}",
                last_line,
            )
        if not game.is_over:
            finals = [(self.index[nick], text) for nick, text in self.record.final_racks.items()]
            if self.record.incomplete_rack is not None:
                finals.append((game.to_move, self.record.incomplete_rack))
            forced: list[int] = []
            for p, text in finals:  # a rack set here keeps its tiles while the next are set
                self._force(game, p, text, last_line, protected=forced)
                forced.append(p)
        return game

    def _take_pending(self, ev: GcgEvent, p: int, kinds: set[EventKind]) -> Event | None:
        for k, e in enumerate(self.pending):
            if e.kind in kinds and e.player == p:
                return self.pending.pop(k)
        return None

    def _turn(self, i: int, ev: GcgEvent, p: int) -> None:
        game = self.game
        if ev.kind is LineKind.PASS:
            lost = self._take_pending(ev, p, {EventKind.LOST_TURN})
            if lost is not None:
                if ev.rack is not None:
                    self._compare_rack(ev, lost.rack, partial=True)
                self._compare(ev, lost, "the lost turn")
                return
        if self.pending:
            raise GcgError(f"expected {self._describe(self.pending[0])} before this line", ev.line)
        if game.is_over:
            raise GcgError("the game is already over; no more moves can follow", ev.line)
        if game.state is GameState.AWAITING_FINAL:
            if ev.kind is LineKind.PASS and self._failed_challenge_pass(i, ev, p):
                return
            raise GcgError(
                "the last play ended the game unless challenged; only a challenge or "
                "end-of-game lines may follow",
                ev.line,
            )
        if p != game.to_move:
            raise GcgError(
                f"it is {self.players[game.to_move].nick}'s turn, not {ev.nick}'s", ev.line
            )
        self._settle_finals(i, p)
        move = self._move(ev)
        if ev.rack is not None:
            used: Sequence[int] = ()
            if isinstance(move, Play):
                used = move.tiles_used
            elif isinstance(move, Exchange):
                used = move.tiles
            listed = Counter(self._tiles(ev.rack, ev.line))
            missing = Counter(used) - listed
            if missing:
                raise GcgError(
                    f"not on {ev.nick}'s rack ({ev.rack}): {self._fmt(list(missing.elements()))}",
                    ev.line,
                )
            if ev.count is not None and ev.count > listed.total():
                raise GcgError(f"cannot exchange {ev.count} tiles from the rack {ev.rack}", ev.line)
            self._hold(game, p, ev.rack, ev.line, self.after[i][p], used)
        rack_before = game.rack(p).tiles()
        if not self.exact:
            self._script_draws(i, ev, p, move, rack_before)
        elapsed = self.elapsed.pop(p, None)
        self._act(ev.line, game.play, move, p, elapsed_ms=elapsed, recorded=True)
        new = self._collect()
        if not new:
            raise GcgError("the move left no record", ev.line)
        first, rest = new[0], new[1:]
        what = "the play" if ev.kind is LineKind.PLAY else "the move"
        if isinstance(first.move, Play):
            what = f"{ev.position} {ev.word}"
        self._compare(ev, first, what)
        if ev.kind is LineKind.PLAY and self.lexicon is not None:
            if i not in self.withdrawn:
                self._check_words(ev, first)
        self.pending.extend(rest)
        challenger = self.challenger_of.get(i)
        if challenger is not None:
            self.deferred = (challenger, ev.line)

    def _failed_challenge_pass(self, i: int, ev: GcgEvent, p: int) -> bool:
        """A pass by another player right after an out-play, under the double challenge rule:
        Macondo's record of a challenge of the out-play that failed (the challenger loses a
        turn the game no longer has), e.g. its doug_v_emely_double_challenge.gcg. The play
        stands and the game ends; the line's total is the challenger's score before the
        end-of-game lines."""
        game = self.game
        if self.rules.challenge_rule is not ChallengeRule.DOUBLE or not game.can_challenge():
            return False
        last = next(e for e in reversed(game.history) if e.kind is EventKind.PLAY)
        if last.player == p:
            return False
        self._settle_finals(i, None)
        before = game.score(p)
        if ev.rack is not None:
            self._compare_rack(ev, game.rack(p).tiles(), partial=True)
        self.judge.valid = True
        self._act(ev.line, game.challenge, p)
        self.pending.extend(self._collect())
        if self.check_scores and ev.total != before:
            raise GcgError(f"{ev.nick}'s total is {before}, not {ev.total} as recorded", ev.line)
        return True

    def _run_deferred(self) -> None:
        """Make the unsuccessful challenge of the last play, after the lost turns that the
        play's own action brought on and before anyone acts again."""
        if self.deferred is None:
            return
        challenger, line = self.deferred
        self.deferred = None
        game = self.game
        if game.can_challenge() and game.state is GameState.PLAYING:
            self.judge.valid = True
            self._act(line, game.challenge, challenger)
            self.pending.extend(self._collect())

    def _compare_rack(self, ev: GcgEvent, rack: Sequence[int], partial: bool = False) -> None:
        """Check the line's rack against the player's. With ``partial`` (a ``--`` line, a
        lost turn's pass) the line may list only the tiles its annotator knew (Ather's
        ``JOT --`` with seven on the rack): those must be on the rack, not all of it."""
        if ev.rack is None:
            return
        listed = Counter(self._tiles(ev.rack, ev.line))
        if partial and listed.total() < len(rack):
            if listed - Counter(rack):
                raise GcgError(
                    f"{ev.nick}'s rack is {self._fmt(rack) or 'empty'}, which does not hold "
                    f"{ev.rack} as recorded",
                    ev.line,
                )
            return
        if listed != Counter(rack):
            raise GcgError(
                f"{ev.nick}'s rack is {self._fmt(rack) or 'empty'}, not {ev.rack} as recorded",
                ev.line,
            )

    def _move(self, ev: GcgEvent) -> Move:
        if ev.kind is LineKind.PASS:
            return Pass()
        if ev.kind is LineKind.EXCHANGE:
            if ev.count is not None:
                return Exchange(count=ev.count, alphabet=self.alphabet)
            return Exchange(tuple(self._tiles(ev.tiles, ev.line)), alphabet=self.alphabet)
        board = self.game.board
        try:
            row, col, across = parse_position(ev.position, board.rows, board.cols)
        except CoordinateError as exc:
            raise GcgError(str(exc), ev.line) from None
        try:
            cells = parse_tiles(self.alphabet, ev.word, rack=False, aliases=self.aliases, dots=True)
        except TileTextError as exc:
            raise GcgError(str(exc), ev.line) from None
        dr, dc = (0, 1) if across else (1, 0)
        word: list[int] = []
        for k, cell in enumerate(cells):
            r, c = row + dr * k, col + dc * k
            if not board.on_board(r, c):
                raise GcgError(f"{ev.position} {ev.word} runs off the board", ev.line)
            on = board.get(r, c)
            if cell is None:
                if not on:
                    raise GcgError(
                        f"{ev.position} {ev.word}: '.' at {chr(65 + c)}{r + 1} but that square "
                        "is empty",
                        ev.line,
                    )
                word.append(PLAYED_THROUGH)
            elif on:
                if letter_of(on) != letter_of(cell):
                    raise GcgError(
                        f"{ev.position} {ev.word}: {self.alphabet.label(cell)} at "
                        f"{chr(65 + c)}{r + 1}, but the board has {self.alphabet.label(on)} there",
                        ev.line,
                    )
                word.append(PLAYED_THROUGH)  # R9.5: the letter itself for a played-through tile
            else:
                word.append(cell)
        if all(t == PLAYED_THROUGH for t in word):
            raise GcgError(f"{ev.position} {ev.word} places no new tile", ev.line)
        return Play(row, col, across, tuple(word), alphabet=self.alphabet)

    def _script_draws(
        self, i: int, ev: GcgEvent, p: int, move: Move, rack_before: list[int]
    ) -> None:
        nxt = self.after[i][p]
        if nxt is None:
            return
        if i in self.withdrawn:
            return
        left = Counter(rack_before)
        if isinstance(move, Play):
            left -= Counter(move.tiles_used)
        elif isinstance(move, Exchange):
            left -= Counter(move.tiles) if move.tiles else Counter(rack_before[: move.n])
        try:
            want = Counter(rack_tiles(self.alphabet, nxt, self.aliases))
        except TileTextError:
            return
        self.rng.queue = sorted((want - left).elements())

    def _check_words(self, ev: GcgEvent, got: Event) -> None:
        lex = self.lexicon
        anagram = self.rules.validity is Validity.ANAGRAM
        for w in got.words:
            letters = [letter_of(t) for t in w]
            ok = lex.has_anagram(letters) if anagram else lex.contains(letters)
            if not ok:
                raise GcgError(
                    f"{self.alphabet.format(w)} is not in the word list "
                    f"(formed by {ev.position} {ev.word})",
                    ev.line,
                )

    def _withdrawn(self, i: int, ev: GcgEvent, p: int) -> None:
        game = self.game
        if self.pending:
            raise GcgError(f"expected {self._describe(self.pending[0])} before this line", ev.line)
        if not game.can_challenge():
            raise GcgError("the play before this '--' line can no longer be challenged", ev.line)
        self.judge.valid = False
        try:
            self._act(ev.line, game.challenge)
        finally:
            self.judge.valid = True
        new = self._collect()
        got = new[0] if new else None
        if got is None or got.kind is not EventKind.WITHDRAWN:
            raise GcgError("the challenge did not withdraw the play", ev.line)
        self._compare(ev, got, "the withdrawn play")
        self.pending.extend(new[1:])

    def _challenge_line(self, i: int, ev: GcgEvent, p: int) -> None:
        game = self.game
        if self.pending:
            raise GcgError(f"expected {self._describe(self.pending[0])} before this line", ev.line)
        if not game.can_challenge():
            raise GcgError("there is no play that can be challenged here", ev.line)
        last = next(e for e in reversed(game.history) if e.kind is EventKind.PLAY)
        bonus = ev.kind is LineKind.CHALLENGE_BONUS
        if bonus and last.player != p:
            raise GcgError(
                f"a (challenge) +N line names the challenged player "
                f"{self.players[last.player].nick}, not {ev.nick}",
                ev.line,
            )
        if not bonus and last.player == p:
            raise GcgError(
                "a (challenge) -N line names the challenger, not the player challenged", ev.line
            )
        if ev.rack is not None or bonus:
            self._force(game, p, ev.rack or "", ev.line)
        words = self._challenged_words(ev, last)
        challenger = None if bonus else p
        self.judge.valid = True
        self._act(ev.line, game.challenge, challenger, words=words)
        new = self._collect()
        kind = EventKind.CHALLENGE_BONUS if bonus else EventKind.CHALLENGE_PENALTY
        got = next((e for e in new if e.kind is kind), None)
        if got is None:
            rule = self.rules.challenge_rule.value
            raise GcgError(
                f"a (challenge) {'bonus' if bonus else 'penalty'} line needs a point-penalty "
                f"challenge rule (or single, for +0); these rules ({self.rules.name}) use {rule}",
                ev.line,
            )
        new.remove(got)
        self._compare(ev, got, "the challenge")
        self.pending.extend(new)

    def _challenged_words(self, ev: GcgEvent, last: Event) -> list[tuple[int, ...]] | None:
        formed = last.words
        if ev.extra:
            chosen: list[tuple[int, ...]] = []
            pool = list(formed)
            for token in ev.extra:
                try:
                    cells = parse_tiles(
                        self.alphabet, token.strip(","), rack=False, aliases=self.aliases
                    )
                except TileTextError:
                    chosen = []
                    break
                letters = [letter_of(t) for t in cells if t is not None]
                match = next((w for w in pool if [letter_of(t) for t in w] == letters), None)
                if match is None:
                    chosen = []
                    break
                pool.remove(match)
                chosen.append(match)
            if chosen:
                return chosen
        default = _default_challenge_words(self.rules, ev.score, formed)
        return list(default) if default else list(formed)

    def _finish_awaited(self, i: int) -> None:
        """After an out-play (or finish-line play): accepted, or challenged without success
        when the play line carries ``#note #unsuccessful-challenge``."""
        game = self.game
        line = self.events[i].line if i >= 0 else None
        last_play_line = next(
            (e for e in reversed(self.events[: i + 1]) if e.kind is LineKind.PLAY), None
        )
        self._settle_finals(i, None)
        if last_play_line is not None and last_play_line.tagged and game.can_challenge():
            self.judge.valid = True
            self._act(line or 0, game.challenge)
        else:
            self._act(line or 0, game.pass_turn, game.to_move)
        self.pending.extend(self._collect())

    def _end_line(self, i: int, ev: GcgEvent, p: int) -> None:
        game = self.game
        kinds = {
            LineKind.END_RACK_POINTS: EventKind.END_RACK_POINTS,
            LineKind.END_RACK_PENALTY: EventKind.END_RACK_PENALTY,
            LineKind.TIME_PENALTY: EventKind.TIME_PENALTY,
        }
        kind = kinds[ev.kind]
        got = self._take_pending(ev, p, {kind})
        if got is None and not self.pending:
            if game.state is GameState.AWAITING_FINAL:
                self._finish_awaited(i - 1)
            elif game.state is GameState.PLAYING:
                raise GcgError(
                    "the game is not over, so end-of-game lines cannot come yet", ev.line
                )
            got = self._take_pending(ev, p, {kind})
        if got is None:
            if self.pending:
                raise GcgError(f"expected {self._describe(self.pending[0])} here", ev.line)
            raise GcgError(
                f"the game's end does not give {ev.nick} "
                f"{'end-rack points' if kind is EventKind.END_RACK_POINTS else 'this line'}",
                ev.line,
            )
        # running totals follow the file's order of the end lines (a (time) line may come
        # before the rack points), not the order the game applied them
        if self.end_totals is None:
            ends = [got, *self.pending]
            self.end_totals = [
                game.score(q)
                - sum(e.score for e in ends if e.player == q and e.kind in _END_EVENT_KINDS)
                for q in range(self.n)
            ]
        total = self.end_totals[p] + got.score
        self._compare(ev, got, "the end-of-game adjustment", total)
        self.end_totals[p] = total

    def _end_marker(self, i: int, ev: GcgEvent, p: int) -> None:
        game = self.game
        if self.pending:
            raise GcgError(f"expected {self._describe(self.pending[0])} before this line", ev.line)
        if game.is_over:
            raise GcgError("the game is already over", ev.line)
        self._settle_finals(i, None)
        reason = ev.reason
        if reason == "resigned":
            self._act(ev.line, game.resign, p)
        elif reason == "ended_by_request":
            self._act(ev.line, game.end_by_request, p)
        elif reason in ("max_overtime", "timeout_forfeit"):
            self._act(ev.line, game.time_expired, p, 0, recorded=True)
        else:
            self.judge.valid = True
            self._act(ev.line, game.challenge, p)
        self.pending.extend(self._collect())


__all__ = [
    "GcgError",
    "GcgEvent",
    "GcgGame",
    "GcgPlayer",
    "GcgSubmission",
    "LineKind",
    "dump",
    "dumps",
    "infer_rules",
    "load",
    "loads",
    "replay",
    "replay_duplicate",
]
