"""What a read GCG record is: a :class:`GcgGame` with its players (:class:`GcgPlayer`), its
events (:class:`GcgEvent`, one for each ``>`` line, of a :class:`LineKind`) and, for a
duplicate record, its submissions (:class:`GcgSubmission`); :class:`GcgError`, which reading,
replaying and the duplicate extension raise; and what the reader, the writer and the replay
share about records: the constants below and :func:`withdrawn_play`."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ...rules import Rules
from .. import bounded

UNSUCCESSFUL_CHALLENGE = "#unsuccessful-challenge"
MAX_PLAYERS = 4
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
    :mod:`tessera.formats.gcg.duplicate`): one player's play in one round."""

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


def withdrawn_play(events: list[GcgEvent], j: int, nick: str) -> int | None:
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
