"""A game's GCG record attached to its result in an event: read from a file, checked, and kept
with the stored game (``tessera tournament result ... --gcg FILE.gcg``).

A record is accepted when the project's GCG reader reads it (UTF-8, at most
:data:`~tessera.formats.gcg_zip.MAX_GCG_CHARS` characters), its replay
(:func:`tessera.formats.gcg.replay`, which checks every score and running total) ends the game,
and its final scores are the result's. The record's first player (the one who moved first) is
taken for the game's first player, unless the record names the division's two players the other
way round: names that differ from the division's (nicknames, accounts) are not an error, only
the scores must agree.

The store keeps a :class:`GameRecord` only while its game still has the result it was checked
against: a result corrected, cleared or replaced by a forfeit loses its record.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..formats import bounded, gcg
from ..formats.gcg_zip import MAX_GCG_CHARS
from ..tournament.model import Division, Game, GameKind

MAX_RECORD_BYTES = MAX_GCG_CHARS * 4  # the most MAX_GCG_CHARS characters take in UTF-8


class GameRecordError(ValueError):
    """A GCG record that cannot be attached: one line naming the file and what is wrong."""

    def __init__(self, message: str) -> None:
        super().__init__(bounded(message))


@dataclass(frozen=True)
class GameRecord:
    """A game's GCG text with the result it was checked against: the division's game's players
    (``first``, ``second``) and their ``scores`` in that order."""

    gcg: str
    first: int
    second: int
    scores: tuple[int, int]

    def fits(self, game: Game) -> bool:
        """True while ``game`` still has the result this record was checked against."""
        return game.kind is GameKind.GAME and (game.first, game.second, game.scores) == (
            self.first, self.second, self.scores
        )


@dataclass(frozen=True)
class FinishedRecord:
    """A GCG record replayed to its end: its text as given, and each player's name and final
    score, the player who moved first first; ``source`` names it in errors."""

    source: str
    text: str
    names: tuple[str, str]
    scores: tuple[int, int]


def read_record(path: Path) -> FinishedRecord:
    """The finished game recorded in the file at ``path`` (see the module's docstring)."""
    size = path.stat().st_size
    if size > MAX_RECORD_BYTES:
        raise GameRecordError(f"{path}: {size:,} bytes; a GCG record may have at most "
                              f"{MAX_RECORD_BYTES:,}")
    try:
        text = path.read_bytes().decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise GameRecordError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})"
                              ) from None
    return finished_record(text, str(path))


def finished_record(text: str, source: str) -> FinishedRecord:
    """The finished game a GCG ``text`` records; ``source`` names it in errors."""
    if len(text) > MAX_GCG_CHARS:
        raise GameRecordError(f"{source}: {len(text):,} characters; a GCG record may have at "
                              f"most {MAX_GCG_CHARS:,}")
    try:
        record = gcg.loads(text)
        if record.is_duplicate or len(record.players) != 2:
            count = len(record.duplicate_players or record.players)
            raise GameRecordError(f"{source}: a game of {count} players; a tournament game has "
                                  "two")
        if record.incomplete:
            raise GameRecordError(f"{source}: the game it records is not finished")
        game = gcg.replay(record)
    except gcg.GcgError as exc:
        raise GameRecordError(f"{source}: not a GCG record Tessera can replay ({exc})") from None
    if not game.is_over:
        raise GameRecordError(f"{source}: the game it records is not finished")
    seated = record.seated()  # the replayed game's players, in its order
    score = {p.nick: game.scores[i] for i, p in enumerate(seated)}
    name = {p.nick: p.name or p.nick for p in seated}
    mover = next((e.nick for e in record.events if e.kind in gcg.TURN_LINES),
                 record.players[0].nick)
    other = next(p.nick for p in seated if p.nick != mover)
    return FinishedRecord(source, text, (name[mover], name[other]), (score[mover], score[other]))


def _same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def attach(record: FinishedRecord, division: Division, round_number: int,
           game: Game) -> GameRecord:
    """``record`` as the record of ``game`` (round ``round_number`` of ``division``, a game
    with its result entered), or :class:`GameRecordError` if its final scores are not the
    result's."""
    assert game.kind is GameKind.GAME and game.second is not None and game.scores is not None
    first, second = division.player(game.first).name, division.player(game.second).name
    swapped = _same_name(record.names[0], second) and _same_name(record.names[1], first)
    scores = record.scores[::-1] if swapped else record.scores
    if scores != game.scores:
        raise GameRecordError(
            f"{record.source}: the record's final scores {scores[0]}-{scores[1]} are not the "
            f"result's {game.scores[0]}-{game.scores[1]} (round {round_number}, {first} first)"
        )
    return GameRecord(record.text, game.first, game.second, game.scores)


__all__ = [
    "MAX_RECORD_BYTES",
    "FinishedRecord",
    "GameRecord",
    "GameRecordError",
    "attach",
    "finished_record",
    "read_record",
]
