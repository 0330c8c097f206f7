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
  are computers, and their submissions (:mod:`tessera.formats.gcg.duplicate`; read back
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

The package, by concern: :mod:`~tessera.formats.gcg.record` (what a read record is),
:mod:`~tessera.formats.gcg.read` and :mod:`~tessera.formats.gcg.event_line` (reading),
:mod:`~tessera.formats.gcg.write` (writing), :mod:`~tessera.formats.gcg.rules_inference`,
:mod:`~tessera.formats.gcg.replay_state` and :mod:`~tessera.formats.gcg.replayer` (replaying),
and :mod:`~tessera.formats.gcg.duplicate` (the duplicate extension, built on the others'
public helpers); the names above are all importable from ``tessera.formats.gcg``.
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path

from ...duplicate import DuplicateGame
from ...game import Game
from .duplicate import dumps_duplicate, replay_duplicate
from .read import (
    END_MARKER_REASONS,
    GAME_TYPES,
    MAX_DUPLICATE_PLAYERS,
    MAX_EVENTS,
    MAX_FILE_BYTES,
    MAX_LINE_CHARS,
    MAX_LINES,
    load,
    loads,
)
from .record import (
    END_LINES,
    FIRST_GIVEN,
    MAX_PLAYERS,
    TESSERA_DATA,
    TURN_LINES,
    UNSUCCESSFUL_CHALLENGE,
    GcgError,
    GcgEvent,
    GcgGame,
    GcgPlayer,
    GcgSubmission,
    LineKind,
    withdrawn_play,
)
from .replayer import replay
from .rules_inference import infer_rules
from .write import TESSERA_PRAGMA, dumps_game


def dumps(game: Game | DuplicateGame) -> str:
    """The game as strict GCG (UTF-8 pragma first). Replaying the text with :func:`replay`
    gives the same board, scores and history (event times are not part of GCG). A duplicate
    game is written with the extension of :mod:`tessera.formats.gcg.duplicate`, which
    :func:`replay_duplicate` reads back."""
    if isinstance(game, DuplicateGame):
        return dumps_duplicate(game)
    return dumps_game(game)


def dump(game: Game | DuplicateGame, path: str | PathLike[str]) -> None:
    Path(path).write_text(dumps(game), encoding="utf-8")


__all__ = [
    "END_LINES",
    "END_MARKER_REASONS",
    "FIRST_GIVEN",
    "GAME_TYPES",
    "MAX_DUPLICATE_PLAYERS",
    "MAX_EVENTS",
    "MAX_FILE_BYTES",
    "MAX_LINES",
    "MAX_LINE_CHARS",
    "MAX_PLAYERS",
    "TESSERA_DATA",
    "TESSERA_PRAGMA",
    "TURN_LINES",
    "UNSUCCESSFUL_CHALLENGE",
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
    "withdrawn_play",
]
