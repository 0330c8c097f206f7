"""A zip of a division's games as GCG files, for the games that were played in Tessera.

:func:`pack_games` takes the division and each game's GCG text by (round, board) and returns
the zip's bytes: one ``.gcg`` a game, named ``round-RR/board-BB-FIRST-v-SECOND.gcg`` (the
players' names reduced to letters, digits and ``-`` so a name cannot make a path), in round and
board order, each stamped 1980-01-01 00:00 (the earliest time a zip can hold), so the same games
always make the same bytes. Every key must be a game of the division played over the board, and
every size is bounded; an error names the key and changes nothing (:class:`GcgZipError`).
:func:`pack_divisions` packs several divisions' games in one zip, each division's files in a
folder of its name (``A/round-01/...``).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Mapping, Sequence

from ..tournament.model import Division, Game, GameKind, TournamentError
from . import bounded

MAX_GCG_CHARS = 1_000_000  # a long game's record is a few kilobytes
MAX_TOTAL_CHARS = 200_000_000
MAX_NAME_IN_PATH = 40
ZIP_TIMESTAMP = (1980, 1, 1, 0, 0, 0)
_NOT_IN_PATH = re.compile(r"[^\w]+")


class GcgZipError(ValueError):
    """A game that cannot be packed: the (round, board) key and what is wrong."""

    def __init__(self, message: str) -> None:
        super().__init__(bounded(message))


def path_name(name: str) -> str:
    """A player's name as a piece of a file name: runs of anything but letters and digits
    become ``-`` (``"O'Brien, Pat"`` -> ``O-Brien-Pat``), at most :data:`MAX_NAME_IN_PATH`
    characters, never empty."""
    piece = _NOT_IN_PATH.sub("-", name.replace("_", "-")).strip("-")
    return piece[:MAX_NAME_IN_PATH].strip("-") or "player"


def _game_at(division: Division, round_number: int, board: int) -> Game:
    where = f"round {round_number}, board {board}"
    try:
        games = division.round_games(round_number)
    except TournamentError as exc:
        raise GcgZipError(f"{where}: {exc}") from None
    for game in games:
        if game.second is not None and game.board == board:
            if game.kind is not GameKind.GAME:
                raise GcgZipError(f"{where}: {game.describe()} was a {game.kind.value}")
            return game
    raise GcgZipError(f"{where}: no game on that board in division {division.name}")


def game_path(division: Division, round_number: int, game: Game) -> str:
    """The file name of ``game`` of round ``round_number`` in the zip."""
    assert game.second is not None
    first = path_name(division.player(game.first).name)
    second = path_name(division.player(game.second).name)
    return f"round-{round_number:02d}/board-{game.board:02d}-{first}-v-{second}.gcg"


def pack_games(division: Division, gcg_by_game: Mapping[tuple[int, int], str]) -> bytes:
    """A zip (bytes) of the GCG text of each game of ``division`` keyed by (round, board)."""
    return pack_divisions([(division, gcg_by_game)])


def pack_divisions(
    divisions: Sequence[tuple[Division, Mapping[tuple[int, int], str]]],
) -> bytes:
    """One zip (bytes) of several divisions' games, as :func:`pack_games` packs one: with more
    than one division, each division's files are in a folder of its name (:func:`path_name`),
    in the order given."""
    folders = [path_name(d.name) + "/" if len(divisions) > 1 else "" for d, _ in divisions]
    for folder in folders:
        if folders.count(folder) > 1:
            raise GcgZipError(f"two divisions make the same folder name {folder!r}")
    entries: list[tuple[str, str]] = []
    total = 0
    for folder, (division, gcg_by_game) in zip(folders, divisions, strict=True):
        total = _entries(division, gcg_by_game, folder, entries, total)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for path, text in entries:
            info = zipfile.ZipInfo(path, date_time=ZIP_TIMESTAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, text.encode("utf-8"))
    return out.getvalue()


def _entries(
    division: Division, gcg_by_game: Mapping[tuple[int, int], str], folder: str,
    entries: list[tuple[str, str]], total: int,
) -> int:
    """Append the division's (path, text) to ``entries``; the characters packed so far."""
    for key in gcg_by_game:
        if not (
            isinstance(key, tuple) and len(key) == 2
            and all(isinstance(k, int) and not isinstance(k, bool) for k in key)
        ):
            raise GcgZipError(f"game key {str(key)[:40]!r} is not (round, board)")
    for key in sorted(gcg_by_game):
        round_number, board = key
        text = gcg_by_game[key]
        in_division = f"division {division.name}, " if folder else ""
        where = f"{in_division}round {round_number}, board {board}"
        if not isinstance(text, str) or not text.strip():
            raise GcgZipError(f"{where}: the GCG record is empty or not text")
        if len(text) > MAX_GCG_CHARS:
            raise GcgZipError(
                f"{where}: a GCG record of {len(text):,} characters; at most {MAX_GCG_CHARS:,}"
            )
        total += len(text)
        if total > MAX_TOTAL_CHARS:
            raise GcgZipError(f"the records pass {MAX_TOTAL_CHARS:,} characters at {where}")
        game = _game_at(division, round_number, board)
        entries.append((folder + game_path(division, round_number, game), text))
    return total


__all__ = [
    "MAX_GCG_CHARS",
    "ZIP_TIMESTAMP",
    "GcgZipError",
    "game_path",
    "pack_divisions",
    "pack_games",
    "path_name",
]
