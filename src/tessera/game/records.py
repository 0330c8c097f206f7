"""The game's records: the kinds of history entry and the entries themselves (:class:`Event`),
the states a game goes through, why it ended and its result (:class:`GameResult`).

These are plain values: a game makes them, views and records (GCG) carry them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from ..move import Move
from ..scoring import ScoreBreakdown
from ..tiles import Alphabet


class EventKind(StrEnum):
    """Every kind of history entry; each maps to one GCG line kind (R9.4)."""

    PLAY = "play"
    PASS = "pass"
    EXCHANGE = "exchange"
    WITHDRAWN = "withdrawn"  # R5.3, GCG "--"
    CHALLENGE_BONUS = "challenge_bonus"  # R5.4c to the challenged player, GCG "(challenge)"
    CHALLENGE_PENALTY = "challenge_penalty"  # R5.4c deducted from the challenger
    LOST_TURN = "lost_turn"  # R5.4a, written as the challenger's pass
    ACCEPT = "accept"  # the pass that accepts an out-play (R5.5); GCG omits it
    END_RACK_POINTS = "end_rack_points"  # R6.4, GCG "(OPPRACK) +N"
    END_RACK_PENALTY = "end_rack_penalty"  # R6.2/R6.3/R6.4 box, GCG "RACK (RACK) -N"
    TIME_PENALTY = "time_penalty"  # R7.2, GCG "(time) -N"


TURN_KINDS = frozenset({EventKind.PLAY, EventKind.PASS, EventKind.EXCHANGE, EventKind.LOST_TURN})


@dataclass(frozen=True, repr=False)
class Event:
    """One history entry. ``rack`` is the player's rack as R9.4 defines it for the kind.

    ``alphabet`` is only for display (a game's events carry its alphabet):

    >>> from tessera import Game
    >>> game = Game(rules="naspa", players=["Ann", "Bob"], seed=7, first=0)
    >>> game.set_rack("Ann", "QUITEAB")
    >>> event = game.play("8D QUITE")
    >>> event
    Event('play', player=0, move='8D QUITE', rack='ABEIQTU', score=48, total=48, words=['QUITE'])
    >>> print(event)
    player 0: 8D QUITE +48 = 48
    """

    kind: EventKind
    player: int
    rack: tuple[int, ...]
    score: int
    total: int
    move: Move | None = None
    words: tuple[tuple[int, ...], ...] = ()  # formed words (plays) or challenged words
    other_racks: tuple[int, ...] = ()  # end-rack points: the opponents' remaining tiles
    elapsed_ms: int | None = None
    breakdown: ScoreBreakdown | None = field(default=None, compare=False, repr=False)
    note: str = ""
    alphabet: Alphabet | None = field(default=None, compare=False, repr=False)
    # a challenge's verdict (withdrawn, bonus, penalty, lost turn), for display: who
    # challenged, and the words judged — a withdrawn play's phonies, or the words that stood.
    # Not part of the record (GCG does not carry them; a replay may judge differently).
    challenger: int | None = field(default=None, compare=False, repr=False)
    verdict_words: tuple[tuple[int, ...], ...] = field(default=(), compare=False, repr=False)

    def _tiles(self, tiles: Sequence[int]) -> str:
        return str(list(tiles)) if self.alphabet is None else self.alphabet.text(tiles)

    def __repr__(self) -> str:
        parts = [repr(self.kind.value), f"player={self.player}"]
        if self.move is not None and self.kind not in (EventKind.LOST_TURN, EventKind.ACCEPT):
            parts.append(f"move={str(self.move)!r}")
        if self.rack:
            parts.append(f"rack={self._tiles(self.rack)!r}")
        parts += [f"score={self.score}", f"total={self.total}"]
        if self.words:
            parts.append(f"words={[self._tiles(w) for w in self.words]!r}")
        if self.other_racks:
            parts.append(f"other_racks={self._tiles(self.other_racks)!r}")
        if self.elapsed_ms is not None:
            parts.append(f"elapsed_ms={self.elapsed_ms}")
        if self.note:
            parts.append(f"note={self.note!r}")
        return f"Event({', '.join(parts)})"

    def __str__(self) -> str:
        """One line as a score sheet has it: who, what, the points and the new total."""
        if self.kind in (EventKind.PLAY, EventKind.PASS, EventKind.EXCHANGE):
            what = str(self.move)
        elif self.kind is EventKind.WITHDRAWN:
            what = f"{self.move} withdrawn"
        elif self.kind in (EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY):
            what = f"{self.kind.value.replace('_', ' ')} ({self._tiles(self.other_racks)})"
        else:
            what = self.kind.value.replace("_", " ")
        return f"player {self.player}: {what} {self.score:+d} = {self.total}"


class GameState(StrEnum):
    PLAYING = "playing"
    AWAITING_FINAL = "awaiting_final"  # an out-play (or finish-line play) may still be challenged
    OVER = "over"


class EndReason(StrEnum):
    PLAYED_OUT = "played_out"
    SCORELESS_TURNS = "scoreless_turns"
    PASSES = "passes"
    FINISH_LINE = "finish_line"
    MAX_OVERTIME = "max_overtime"
    TIMEOUT_FORFEIT = "timeout_forfeit"
    TRIPLE_CHALLENGE = "triple_challenge"
    RESIGNED = "resigned"
    ENDED_BY_REQUEST = "ended_by_request"


@dataclass(frozen=True)
class GameResult:
    reason: EndReason
    scores: tuple[int, ...]
    winners: tuple[int, ...]  # more than one = a tie
    loser: int | None = None  # forced loser (forfeit, resignation, triple challenge)

    @property
    def is_draw(self) -> bool:
        return len(self.winners) > 1

    def __repr__(self) -> str:
        loser = "" if self.loser is None else f", loser={self.loser}"
        return (
            f"GameResult({self.reason.value!r}, scores={self.scores}, "
            f"winners={self.winners}{loser})"
        )

    def __str__(self) -> str:
        """``player 0 wins 412–388 (played out)``; names are the game's to add."""
        scores = "–".join(map(str, self.scores))
        how = self.reason.value.replace("_", " ")
        if self.is_draw:
            who = "tie between players " + " and ".join(map(str, self.winners))
        else:
            who = f"player {self.winners[0]} wins"
        return f"{who} {scores} ({how})"
