"""The game: bag, racks, turns, challenges, endings, clocks, history and per-player views.

Rules R1 and R4–R7 live here; placement and scoring come from :mod:`tessera.legality` and
:mod:`tessera.scoring`. Every action is validated completely before anything changes, so a
refused action leaves the game exactly as it was.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Protocol, cast

from .board import Board, WordSpan
from .legality import (
    IllegalMove,
    Reason,
    check_play,
    covers_start,
    invalid_words,
    play_from_squares,
)
from .move import Challenge, Exchange, Move, NotationError, Pass, Play, parse_move
from .rules import (
    CenterMiss,
    ChallengeRule,
    ChallengeScope,
    FirstPlayer,
    OnMaxOvertime,
    OutAdjust,
    PenaltyAppliesTo,
    PenaltyPer,
    Rules,
    ScorelessEnd,
    TieBreak,
    preset,
)
from .scoring import ScoreBreakdown, score_breakdown
from .tiles import BLANK, BLANK_BIT, Alphabet, Rack, TileError, TileSet, face, letter_of

PlayerRef = int | str


class WordSource(Protocol):
    """What the game needs of a lexicon (``tessera.lexicon.Lexicon`` provides it)."""

    def contains(self, tiles: Sequence[int]) -> bool: ...

    def has_anagram(self, tiles: Sequence[int]) -> bool: ...


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


@dataclass
class _Player:
    name: str
    rack: Rack
    score: int = 0
    exchanges: int = 0
    time_used_ms: int = 0
    turns: int = 0
    loses_next_turn: bool = False
    # the words that stood, for the lost turn's verdict_words (R5.4a)
    lost_turn_words: tuple[tuple[int, ...], ...] = field(default=(), compare=False)

    def copy(self) -> _Player:
        return replace(self, rack=self.rack.copy())


@dataclass(frozen=True)
class _Pending:
    """The last tile play while it may still be challenged (R5.1)."""

    event_index: int
    player: int
    play: Play
    rack_before: tuple[int, ...]
    drawn: tuple[int, ...]
    words: tuple[WordSpan, ...]
    scoreless_before: int
    passes_before: int
    missed_center: bool


SPECTATOR = -1  # the ``player`` of a spectator's view (Game.spectator_view)


@dataclass(frozen=True)
class PlayerView:
    """Everything one player may know (DESIGN principle 4): never another rack or the bag."""

    player: int
    names: tuple[str, ...]
    rules: Rules
    board: Board
    rack: tuple[int, ...]
    scores: tuple[int, ...]
    to_move: int
    state: GameState
    bag_count: int
    rack_counts: tuple[int, ...]
    unseen: tuple[int, ...]  # tile counts by id: bag + other racks, from this player's side
    history: tuple[Event, ...]
    can_challenge: bool
    clocks_ms: tuple[int, ...] | None
    result: GameResult | None
    final_racks: tuple[tuple[int, ...], ...] | None  # revealed once the game is over
    scoreless_turns: int = 0  # consecutive scoreless turns so far (R6.2)
    consecutive_passes: int = 0  # consecutive passes so far (R6.3)

    @property
    def tileset(self) -> TileSet:
        return self.rules.tileset

    @property
    def is_my_turn(self) -> bool:
        return self.state is not GameState.OVER and self.to_move == self.player

    def __repr__(self) -> str:
        who = "spectator" if self.player == SPECTATOR else self.names[self.player]
        mine = self.tileset.alphabet.text(self.rack)
        rack = "" if self.player == SPECTATOR else f" rack={mine!r}"
        return (
            f"<PlayerView {who} ({self.rules.name}){rack} scores={self.scores} "
            f"to_move={self.names[self.to_move]!r} bag={self.bag_count} state={self.state.value}>"
        )

    def __str__(self) -> str:
        """The board and the score lines, with the viewer's own rack."""
        from .render.text import render_position

        racks = [
            self.tileset.alphabet.text(self.rack) if i == self.player else ""
            for i in range(len(self.names))
        ]
        to_move = None if self.state is GameState.OVER else self.to_move
        return render_position(self.board, self.names, self.scores, racks, to_move)

    def _repr_svg_(self) -> str | None:
        return self.board._repr_svg_()


class Game:
    """A game under ``rules``: ``Game(rules="naspa", lexicon=lex, players=["Ann", "Bob"], seed=7)``.

    ``lexicon`` may be None: then no word is ever invalid (VOID refuses nothing, every
    challenge fails), which suits replaying records whose words are not in question.
    ``undo=False`` keeps no snapshots for :meth:`undo` (a server, which never takes a move
    back, would otherwise hold one per action).
    """

    def __init__(
        self,
        rules: Rules | str = "naspa",
        lexicon: WordSource | None = None,
        players: Sequence[str] = ("Player 1", "Player 2"),
        seed: int | None = None,
        first: int | None = None,
        deal: bool = True,
        undo: bool = True,
    ) -> None:
        self.rules = preset(rules)
        n = len(players)
        if not self.rules.min_players <= n <= self.rules.max_players:
            raise ValueError(
                f"{self.rules.name} rules take {self.rules.min_players}–{self.rules.max_players} "
                f"players, not {n}"
            )
        if len(set(players)) != n:
            raise ValueError("player names must be different")
        self.lexicon = lexicon
        self.tileset = self.rules.tileset
        self.alphabet = self.tileset.alphabet
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._rng = random.Random(self.seed)
        self.board = Board(self.rules.layout, self.tileset)
        self._bag = self.tileset.bag()
        self._players = [
            _Player(name, Rack(self.alphabet.size, alphabet=self.alphabet)) for name in players
        ]
        self.history: list[Event] = []
        # viewer -> (event, as that viewer sees it) for the history so far: a server builds
        # views after every move, and events never change once made (see _history_for)
        self._redactions: dict[int, list[tuple[Event, Event]]] = {}
        self.state = GameState.PLAYING
        self.result: GameResult | None = None
        self._pending: _Pending | None = None
        self._challenged = False
        self._scoreless = 0
        self._passes = 0
        self._final_round_end: int | None = None
        self._pre_adjust: list[int] | None = None
        self._undo: list[tuple[object, ...]] = []
        self._keeps_undo = undo  # a server that never takes moves back keeps no snapshots
        self.order_draws: list[tuple[int, ...]] = []
        self.first = self._choose_first(first)
        self.to_move = self.first
        if deal:
            for p in range(n):
                self._fill_rack(p)

    # -- setup ---------------------------------------------------------------------------

    def _draw(self) -> int:
        return self._bag.pop(self._rng.randrange(len(self._bag)))

    def _choose_first(self, first: int | None) -> int:
        """R1.4: a fixed index, or the draw (closest to A wins, a blank beats all; ties redraw).

        The drawn tiles go back into the bag, or with ``return_order_tiles=False`` each player
        keeps the last tile they drew as the first tile of their rack.
        """
        n = len(self._players)
        if first is not None:
            if not 0 <= first < n:
                raise ValueError(f"first player index {first} is out of range")
            return first
        if self.rules.first_player is FirstPlayer.FIXED:
            return self.rules.first_player_index % n
        contenders = list(range(n))
        kept: dict[int, int] = {}  # return_order_tiles=False: each player's last drawn tile
        while True:
            drawn = {p: self._draw() for p in contenders}
            self.order_draws.append(tuple(drawn.get(p, -1) for p in range(n)))
            best = min(drawn.values())  # blank is 0: lowest id wins
            winners = [p for p, t in drawn.items() if t == best]
            for p, tile in drawn.items():
                if self.rules.return_order_tiles:
                    self._bag.append(tile)
                else:  # R1.4.1 variant: keep the tile (a tied player keeps the redrawn one)
                    if p in kept:
                        self._bag.append(kept[p])
                    kept[p] = tile
            if len(winners) == 1:
                for p, tile in kept.items():
                    self._players[p].rack.add(tile)
                return winners[0]
            contenders = winners

    def _fill_rack(self, p: int) -> tuple[int, ...]:
        drawn = []
        rack = self._players[p].rack
        while len(rack) < self.rules.rack_size and self._bag:
            t = self._draw()
            rack.add(t)
            drawn.append(t)
        return tuple(drawn)

    # -- lookups -------------------------------------------------------------------------

    @property
    def players(self) -> list[str]:
        return [p.name for p in self._players]

    @property
    def num_players(self) -> int:
        return len(self._players)

    def index(self, player: PlayerRef) -> int:
        """A player's index from an index or a name."""
        if isinstance(player, int) and not isinstance(player, bool):
            if 0 <= player < len(self._players):
                return player
        elif isinstance(player, str):
            for i, p in enumerate(self._players):
                if p.name == player:
                    return i
        raise IllegalMove(Reason.UNKNOWN_PLAYER, f"no player {player!r} in this game")

    def rack(self, player: PlayerRef) -> Rack:
        """A copy of a player's rack (the game itself may see every rack)."""
        return self._players[self.index(player)].rack.copy()

    def score(self, player: PlayerRef) -> int:
        return self._players[self.index(player)].score

    @property
    def scores(self) -> list[int]:
        return [p.score for p in self._players]

    @property
    def bag_count(self) -> int:
        return len(self._bag)

    def bag_tiles(self) -> list[int]:
        """The bag's contents, sorted (never its order)."""
        return sorted(self._bag)

    @property
    def is_over(self) -> bool:
        return self.state is GameState.OVER

    @property
    def scoreless_turns(self) -> int:
        return self._scoreless

    @property
    def consecutive_passes(self) -> int:
        return self._passes

    def can_challenge(self) -> bool:
        return (
            self._pending is not None
            and not self._challenged
            and self.rules.challenge_rule is not ChallengeRule.VOID
            and self.state is not GameState.OVER
        )

    def clock_ms(self, player: PlayerRef) -> int | None:
        """Time left on a player's clock (negative in overtime); None without a clock."""
        clock = self.rules.clock
        if clock is None:
            return None
        p = self._players[self.index(player)]
        return clock.initial_ms + clock.increment_ms * p.turns - p.time_used_ms

    def overtime_ms(self, player: PlayerRef) -> int:
        left = self.clock_ms(player)
        return 0 if left is None else max(0, -left)

    # -- views ---------------------------------------------------------------------------

    def _off_board(self) -> list[int]:
        """Counts by tile id of the tiles not on the board: the bag and every rack."""
        counts = list(self.tileset.counts)
        for t in self.board.placed_tiles():
            counts[BLANK if t & BLANK_BIT else t] -= 1
        return counts

    def _clocks(self) -> tuple[int, ...] | None:
        """Each player's time left, as views carry it: never below minus the maximum
        overtime (a flagged clock, R7.3, reads exactly that, however late the game was
        decided or whatever an old log charged)."""
        clock = self.rules.clock
        if clock is None:
            return None
        floor = -clock.max_overtime_min * 60_000
        return tuple(max(floor, self.clock_ms(j) or 0) for j in range(self.num_players))

    def unseen_for(self, player: int) -> list[int]:
        """Counts by tile id of the tiles this player cannot see: the bag and other racks."""
        counts = self._off_board()
        for t in self._players[player].rack.tiles():
            counts[t] -= 1
        return counts

    def view(self, player: PlayerRef) -> PlayerView:
        """What ``player`` may know (R1.5 racks are hidden; the bag order never leaves)."""
        i = self.index(player)
        over = self.state is GameState.OVER
        return PlayerView(
            player=i,
            names=tuple(self.players),
            rules=self.rules,
            board=self.board.copy(),
            rack=tuple(self._players[i].rack.tiles()),
            scores=tuple(self.scores),
            to_move=self.to_move,
            state=self.state,
            bag_count=len(self._bag),
            rack_counts=tuple(len(p.rack) for p in self._players),
            unseen=tuple(self.unseen_for(i)),
            history=self._history_for(i, over),
            can_challenge=self.can_challenge()
            and self._pending is not None
            and self._pending.player != i,
            clocks_ms=self._clocks(),
            result=self.result,
            final_racks=tuple(tuple(p.rack.tiles()) for p in self._players) if over else None,
            scoreless_turns=self._scoreless,
            consecutive_passes=self._passes,
        )

    def spectator_view(self) -> PlayerView:
        """What someone watching may know: the board, scores, clocks and the moves, never a
        rack or an exchange's tiles until the game is over. Its ``player`` is
        :data:`SPECTATOR` and its rack is empty; ``unseen`` counts every tile not on the board."""
        over = self.state is GameState.OVER
        return PlayerView(
            player=SPECTATOR,
            names=tuple(self.players),
            rules=self.rules,
            board=self.board.copy(),
            rack=(),
            scores=tuple(self.scores),
            to_move=self.to_move,
            state=self.state,
            bag_count=len(self._bag),
            rack_counts=tuple(len(p.rack) for p in self._players),
            unseen=tuple(self._off_board()),
            history=self._history_for(SPECTATOR, over),
            can_challenge=False,
            clocks_ms=self._clocks(),
            result=self.result,
            final_racks=tuple(tuple(p.rack.tiles()) for p in self._players) if over else None,
            scoreless_turns=self._scoreless,
            consecutive_passes=self._passes,
        )

    def _event(
        self,
        kind: EventKind,
        player: int,
        rack: tuple[int, ...],
        score: int,
        total: int,
        move: Move | None = None,
        **details: Any,
    ) -> Event:
        """A history entry of this game, written in its alphabet (``details``: the other
        fields of :class:`Event`)."""
        return Event(kind, player, rack, score, total, move, **details, alphabet=self.alphabet)

    def _history_for(self, viewer: int, over: bool) -> tuple[Event, ...]:
        """The history as ``viewer`` sees it, each event redacted once: an entry is reused
        while the event at its place is still the same object (undo and challenges replace
        events, and are redacted afresh)."""
        if over:
            return tuple(self.history)
        seen = self._redactions.setdefault(viewer, [])
        for i, event in enumerate(self.history):
            if i < len(seen) and seen[i][0] is event:
                continue
            del seen[i:]
            seen.append((event, self._redact(event, viewer, over)))
        del seen[len(self.history) :]
        return tuple(shown for _, shown in seen)

    @staticmethod
    def _redact(event: Event, viewer: int, over: bool) -> Event:
        """Hide another player's rack and exchanged tiles while the game is on."""
        if over or event.player == viewer:
            return event
        if event.kind in (EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY):
            return event  # racks revealed by the end of the game
        move = event.move
        if isinstance(move, Exchange):
            move = Exchange(count=move.n)
        return replace(event, rack=(), move=move)

    # -- actions -------------------------------------------------------------------------

    def play(
        self,
        move: Move | str | Iterable[tuple[int, int, int]],
        player: PlayerRef | None = None,
        *,
        elapsed_ms: int | None = None,
        recorded: bool = False,
    ) -> Event | None:
        """Make a move for the player to move: a Move, its text (``8D QUITE``, ``-ABC``,
        ``-``, ``challenge``) or placed tiles ``[(row, col, tile), ...]``.

        ``elapsed_ms`` is the mover's time on this turn; a move that takes them past their
        time and maximum overtime is refused (OUT_OF_TIME, R7.3): the app then records the
        loss on time (:meth:`time_expired`). ``recorded`` marks an action replayed from a
        record or a stored log: it was accepted when it was made, so the clock is not judged
        again (a log stored before that refusal existed still replays).

        Returns the history event the move added (None when a challenge ends nothing new).
        Raises :class:`IllegalMove` with a reason; the game is then unchanged.
        """
        if isinstance(move, str):
            move = self._read_move(move, player)
        elif not isinstance(move, Move):
            move = play_from_squares(self.board, self._placed_tiles(move))
        if isinstance(move, Challenge):
            return self.challenge(
                player, words=move.words, elapsed_ms=elapsed_ms, recorded=recorded
            )
        if not recorded:
            self._check_time(self._mover(player), elapsed_ms)
        snapshot = self._snapshot()
        try:
            if isinstance(move, Play):
                event = self._play(move, player, elapsed_ms)
            elif isinstance(move, Exchange):
                event = self._exchange(move, player, elapsed_ms)
            elif isinstance(move, Pass):
                event = self._pass(player, elapsed_ms)
            else:
                raise TypeError(f"not a move: {move!r}")
        except BaseException:
            self._restore(snapshot)
            raise
        self._remember(snapshot)
        return event

    def _read_move(self, text: str, player: PlayerRef | None) -> Move:
        """A move's text, its multi-letter tiles read as the mover's rack holds them (the CS
        tile from a Hungarian rack that has it, else C·S); a NOTATION error if unreadable."""
        mover = self.to_move if player is None else self.index(player)
        try:
            return parse_move(text, self.alphabet, self.board, rack=self._players[mover].rack)
        except NotationError as exc:
            raise IllegalMove(Reason.NOTATION, str(exc)) from None

    @staticmethod
    def _placed_tiles(move: object) -> list[tuple[int, int, int]]:
        """Placed tiles ``[(row, col, tile), ...]`` from caller input, or a NOTATION error."""
        try:
            placed = [tuple(item) for item in move]  # type: ignore[attr-defined]
        except TypeError:
            raise IllegalMove(
                Reason.NOTATION, f"not a move: {move!r} (give a Move, its text or placed tiles)"
            ) from None
        for item in placed:
            if len(item) != 3 or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in item
            ):
                raise IllegalMove(
                    Reason.NOTATION, f"placed tile {item!r} is not (row, col, tile) integers"
                )
        return placed

    def pass_turn(
        self, player: PlayerRef | None = None, *, elapsed_ms: int | None = None
    ) -> Event | None:
        return self.play(Pass(), player, elapsed_ms=elapsed_ms)

    def exchange(
        self,
        tiles: str | Sequence[int],
        player: PlayerRef | None = None,
        *,
        elapsed_ms: int | None = None,
    ) -> Event | None:
        if isinstance(tiles, str):
            try:
                parsed = parse_move("-" + tiles, self.alphabet)
            except NotationError as exc:
                raise IllegalMove(Reason.NOTATION, str(exc)) from None
            return self.play(parsed, player, elapsed_ms=elapsed_ms)
        return self.play(Exchange(tuple(tiles)), player, elapsed_ms=elapsed_ms)

    def _mover(self, player: PlayerRef | None) -> int:
        if self.state is GameState.OVER:
            raise IllegalMove(Reason.GAME_OVER, "the game is over")
        if player is None:
            return self.to_move
        i = self.index(player)
        if i != self.to_move:
            raise IllegalMove(
                Reason.NOT_YOUR_TURN,
                f"it is {self._players[self.to_move].name}'s turn, not {self._players[i].name}'s",
            )
        return i

    def _validate_play(self, move: Play, mover: int) -> tuple[Play, list[WordSpan], bool]:
        rules = self.rules
        rack = self._players[mover].rack
        play, words = check_play(self.board, move, rack, rules, self.alphabet)
        missed_center = (
            self.board.is_empty()
            and rules.first_play_covers_center
            and rules.center_miss is CenterMiss.CHALLENGEABLE
            and not covers_start(self.board, play)
        )
        if rules.challenge_rule is ChallengeRule.VOID:
            bad = self._invalid(words)
            if bad:
                texts = [self.alphabet.format(w.tiles) for w in bad]
                raise IllegalMove(
                    Reason.INVALID_WORDS,
                    f"not in the word list: {', '.join(texts)}",
                    texts,
                )
        return play, words, missed_center

    def check(self, move: Move | str, player: PlayerRef | None = None) -> Play | None:
        """Validate a move without making it; returns the normalised play (None for others).

        Exchanges and challenges are checked as :meth:`play` and :meth:`challenge` would.
        """
        if isinstance(move, str):
            move = self._read_move(move, player)
        if isinstance(move, Challenge):
            self._challenge_target(player, move.words)
            return None
        mover = self._mover(player)
        if isinstance(move, Play):
            self._only_pass_or_challenge_check()
            play, _words, _ = self._validate_play(move, mover)
            return play.with_score(score_breakdown(self.board, play, self.rules).total)
        if isinstance(move, Exchange) and move.n != 0:
            self._only_pass_or_challenge_check()
            self._exchange_tiles(move, mover)
        return None

    def _invalid(self, words: Iterable[WordSpan]) -> list[WordSpan]:
        if self.lexicon is None:
            return []
        lex = self.lexicon
        return invalid_words(words, self.rules, lex.contains, lex.has_anagram)

    def _only_pass_or_challenge_check(self) -> None:
        if self.state is GameState.AWAITING_FINAL:
            raise IllegalMove(
                Reason.ONLY_PASS_OR_CHALLENGE,
                "the last play ends the game unless challenged: "
                "you can only pass (accept) or challenge",
            )

    def _past_flag_ms(self, player: int, elapsed_ms: int) -> int:
        """How far ``elapsed_ms`` more on the clock takes ``player`` past the point where
        their time and maximum overtime are used up (R7.3); > 0: the flag has fallen."""
        clock = self.rules.clock
        assert clock is not None
        left = self.clock_ms(player) or 0
        return elapsed_ms - left - clock.max_overtime_min * 60_000

    def _check_time(self, mover: int, elapsed_ms: int | None) -> None:
        """R7.3: no move after the flag. Refuses (the game unchanged) an action whose
        elapsed time takes the mover past their time and maximum overtime; exactly at the
        maximum is still in time."""
        if elapsed_ms is None or self.rules.clock is None:
            return
        if elapsed_ms < 0:
            raise IllegalMove(Reason.NO_CLOCK, "elapsed time cannot be negative")
        past = self._past_flag_ms(mover, elapsed_ms)
        if past > 0:
            raise IllegalMove(
                Reason.OUT_OF_TIME,
                f"{self._players[mover].name}'s time ran out {max(1, past // 1000)} s before "
                f"this move (maximum overtime {self.rules.clock.max_overtime_min} min)",
            )

    def _begin_turn(self, mover: int, elapsed_ms: int | None) -> None:
        """The previous play's challenge window closes when the next player acts (R5.1)."""
        self._pending = None
        self._challenged = False
        if elapsed_ms is not None:
            if elapsed_ms < 0:
                raise IllegalMove(Reason.NO_CLOCK, "elapsed time cannot be negative")
            self._players[mover].time_used_ms += elapsed_ms

    def _play(self, move: Play, player: PlayerRef | None, elapsed_ms: int | None) -> Event:
        mover = self._mover(player)
        self._only_pass_or_challenge_check()
        play, words, missed_center = self._validate_play(move, mover)
        breakdown = score_breakdown(self.board, play, self.rules)
        p = self._players[mover]
        rack_before = tuple(p.rack.tiles())
        scoreless_before, passes_before = self._scoreless, self._passes
        self._begin_turn(mover, elapsed_ms)
        for t in play.tiles_used:
            p.rack.remove(t)
        self.board.place(play.placements)
        p.score += breakdown.total
        p.turns += 1
        drawn = self._fill_rack(mover)
        scored = play.with_score(breakdown.total).with_alphabet(self.alphabet)
        event = self._event(
            EventKind.PLAY,
            mover,
            rack_before,
            breakdown.total,
            p.score,
            scored,
            words=tuple(w.tiles for w in words),
            elapsed_ms=elapsed_ms,
            breakdown=breakdown,
        )
        self.history.append(event)
        if breakdown.total == 0 and self.rules.zero_point_play_is_scoreless:
            self._scoreless += 1
        else:
            self._scoreless = 0
        self._passes = 0
        if self.rules.challenge_rule is not ChallengeRule.VOID:
            self._pending = _Pending(
                len(self.history) - 1,
                mover,
                scored,
                rack_before,
                drawn,
                tuple(words),
                scoreless_before,
                passes_before,
                missed_center,
            )
        self._after_turn(mover, went_out=not p.rack and not self._bag)
        return event

    def _exchange(self, move: Exchange, player: PlayerRef | None, elapsed_ms: int | None) -> Event:
        mover = self._mover(player)
        self._only_pass_or_challenge_check()
        if move.n == 0:
            return self._pass(player, elapsed_ms)
        tiles = self._exchange_tiles(move, mover)
        n = len(tiles)
        p = self._players[mover]
        rack_before = tuple(p.rack.tiles())
        self._begin_turn(mover, elapsed_ms)
        for t in tiles:
            p.rack.remove(t)
        for _ in range(n):  # R4.2: draw first, then return the set-aside tiles
            p.rack.add(self._draw())
        self._bag.extend(tiles)
        p.exchanges += 1
        p.turns += 1
        event = self._event(
            EventKind.EXCHANGE,
            mover,
            rack_before,
            0,
            p.score,
            Exchange(tuple(tiles), alphabet=self.alphabet),
            elapsed_ms=elapsed_ms,
        )
        self.history.append(event)
        if self.rules.exchange_counts_as_scoreless:
            self._scoreless += 1
        self._passes = self._passes + 1 if self.rules.exchange_counts_as_pass else 0
        self._after_turn(mover)
        return event

    def _exchange_tiles(self, move: Exchange, mover: int) -> list[int]:
        """R4.2, R4.3: the tiles an exchange gives back, or why it is refused (no change)."""
        rules = self.rules
        p = self._players[mover]
        n = move.n
        if n < 0:
            raise IllegalMove(Reason.NOTATION, f"cannot exchange {n} tiles")
        bad = [t for t in move.tiles if not 0 <= t < self.alphabet.size]
        if bad:
            raise IllegalMove(
                Reason.NOT_ON_RACK,
                f"tile id {bad[0]} is not a rack tile of the {self.alphabet.name} alphabet "
                "(exchange undesignated blanks as '?')",
            )
        tiles = list(move.tiles) if move.tiles else p.rack.tiles()[:n]  # GCG "-3": MAC convention
        if len(tiles) < n:
            raise IllegalMove(
                Reason.NOT_ON_RACK, f"cannot exchange {n} tiles from a rack of {len(p.rack)}"
            )
        missing = p.rack.missing(tiles)
        if missing:
            raise IllegalMove(
                Reason.NOT_ON_RACK,
                f"not on your rack: {self.alphabet.format(missing)} "
                f"(rack {self.alphabet.format(p.rack.tiles())})",
            )
        need = n if rules.exchange_min_bag is None else max(rules.exchange_min_bag, n)
        if len(self._bag) < need:
            raise IllegalMove(
                Reason.BAG_TOO_SMALL,
                f"exchanging needs at least {need} tiles in the bag; it holds {len(self._bag)}",
            )
        if (
            rules.max_exchanges_per_player is not None
            and p.exchanges >= rules.max_exchanges_per_player
        ):
            raise IllegalMove(
                Reason.EXCHANGE_LIMIT,
                f"each player may exchange at most {rules.max_exchanges_per_player} times",
            )
        return tiles

    def _pass(self, player: PlayerRef | None, elapsed_ms: int | None) -> Event:
        mover = self._mover(player)
        p = self._players[mover]
        if self.state is GameState.AWAITING_FINAL:
            self._begin_turn(mover, elapsed_ms)
            event = self._event(
                EventKind.ACCEPT,
                mover,
                tuple(p.rack.tiles()),
                0,
                p.score,
                Pass(),
                elapsed_ms=elapsed_ms,
            )
            self.history.append(event)
            self._finish_awaited()
            return event
        self._begin_turn(mover, elapsed_ms)
        p.turns += 1
        event = self._event(
            EventKind.PASS, mover, tuple(p.rack.tiles()), 0, p.score, Pass(),
            elapsed_ms=elapsed_ms,
        )
        self.history.append(event)
        self._scoreless += 1
        self._passes += 1
        self._after_turn(mover)
        return event

    # -- challenges (R5) -----------------------------------------------------------------

    def challenge(
        self,
        player: PlayerRef | None = None,
        words: Sequence[Sequence[int] | str] | None = None,
        *,
        elapsed_ms: int | None = None,
        recorded: bool = False,
    ) -> Event | None:
        """Challenge the last play (R5). ``player`` is the challenger (default: the player to
        move); ``words`` lists the challenged words under listed-word scope (default: all).
        The challenger's ``elapsed_ms`` is judged as a move's is (R7.3, see :meth:`play`).

        Returns the event the verdict added: WITHDRAWN on success; CHALLENGE_BONUS,
        CHALLENGE_PENALTY or LOST_TURN on failure (None when an unsuccessful challenge costs
        nothing and records nothing).
        """
        snapshot = self._snapshot()
        try:
            event = self._challenge(player, words, elapsed_ms, recorded)
        except BaseException:
            self._restore(snapshot)
            raise
        self._remember(snapshot)
        return event

    def _challenge(
        self,
        player: PlayerRef | None,
        words: Sequence[Sequence[int] | str] | None,
        elapsed_ms: int | None,
        recorded: bool = False,
    ) -> Event | None:
        pending, challenger, judged = self._challenge_target(player, words)
        if elapsed_ms is not None and elapsed_ms < 0:
            raise IllegalMove(Reason.NO_CLOCK, "elapsed time cannot be negative")
        if not recorded:
            self._check_time(challenger, elapsed_ms)
        if elapsed_ms:
            self._players[challenger].time_used_ms += elapsed_ms
        bad = self._invalid(judged)
        if bad or pending.missed_center:
            return self._withdraw(pending, challenger, bad)
        return self._failed_challenge(pending, challenger, judged)

    def _challenge_target(
        self, player: PlayerRef | None, words: Sequence[Sequence[int] | str] | None
    ) -> tuple[_Pending, int, list[WordSpan]]:
        """R5.1, R5.2: the play, the challenger and the judged words, or why not (no change)."""
        rules = self.rules
        if self.state is GameState.OVER:
            raise IllegalMove(Reason.GAME_OVER, "the game is over")
        if rules.challenge_rule is ChallengeRule.VOID:
            raise IllegalMove(
                Reason.CHALLENGES_NOT_ALLOWED,
                "these rules check words as they are played; there are no challenges",
            )
        pending = self._pending
        if pending is None or self._challenged:
            raise IllegalMove(
                Reason.NOTHING_TO_CHALLENGE,
                "there is no play to challenge: "
                "only the last tile play, once, before the next move",
            )
        challenger = self.to_move if player is None else self.index(player)
        if challenger == pending.player:
            raise IllegalMove(Reason.NOTHING_TO_CHALLENGE, "you cannot challenge your own play")
        return pending, challenger, self._challenged_words(pending, words)

    def _challenged_words(
        self, pending: _Pending, words: Sequence[Sequence[int] | str] | None
    ) -> list[WordSpan]:
        formed = list(pending.words)
        if words is None or self.rules.challenge_scope is ChallengeScope.WHOLE_PLAY:
            return formed
        chosen: list[WordSpan] = []
        for w in words:
            try:
                tiles = tuple(self.alphabet.parse(w)) if isinstance(w, str) else tuple(w)
                text = self.alphabet.format(tiles)
            except (TileError, TypeError):
                raise IllegalMove(Reason.NOTATION, f"{w!r} is not a word to challenge") from None
            letters = [letter_of(t) for t in tiles]
            match = next(
                (
                    f
                    for f in formed
                    if [letter_of(t) for t in f.tiles] == letters and f not in chosen
                ),
                None,
            )
            if match is None:
                raise IllegalMove(Reason.NOTHING_TO_CHALLENGE, f"the last play did not form {text}")
            chosen.append(match)
        if not chosen:
            raise IllegalMove(Reason.NOTHING_TO_CHALLENGE, "name at least one word to challenge")
        return chosen

    def _withdraw(self, pending: _Pending, challenger: int, bad: list[WordSpan]) -> Event:
        """R5.3: tiles back to the rack as before (blanks undesignated), drawn tiles to the bag.
        The event names the phonies (none when the play only missed the start square)."""
        p = self._players[pending.player]
        self.board.lift(pending.play.placements)
        for t in pending.drawn:
            p.rack.remove(t)
            self._bag.append(t)
        self._rng.shuffle(self._bag)
        for t in pending.play.tiles_used:
            p.rack.add(t)
        score = pending.play.score or 0
        p.score -= score
        self._challenged = True
        self._pending = None
        event = self._event(
            EventKind.WITHDRAWN,
            pending.player,
            pending.rack_before,
            -score,
            p.score,
            pending.play,
            challenger=challenger,
            verdict_words=tuple(w.tiles for w in bad),
        )
        self.history.append(event)
        self._scoreless = pending.scoreless_before + 1
        self._passes = pending.passes_before + 1 if self.rules.challenge_counts_as_pass else 0
        if self.rules.challenge_rule is ChallengeRule.TRIPLE:
            self._end(EndReason.TRIPLE_CHALLENGE, adjust=False, loser=pending.player)
            return event
        round_over = self._final_round_end == pending.player
        if self._final_round_end is not None and not self._target_reached():
            self._final_round_end = None  # R8.3: the withdrawn play had reached the target
        if self.state is GameState.AWAITING_FINAL:
            self.state = GameState.PLAYING
            if round_over and self._final_round_end is not None:
                # R8.3 complete round: the round's last turn is spent; someone has the target
                self._end(EndReason.FINISH_LINE, adjust=False)
                return event
        if not self._check_scoreless_end():
            # R5.4a: a play that would have ended the game held back the lost turns owed
            # (the game awaited its challenge); now that it is withdrawn, they are taken
            self._take_lost_turns()
        return event

    def _target_reached(self) -> bool:
        target = self.rules.finish_target(self.num_players)
        return target is not None and any(p.score >= target for p in self._players)

    def _failed_challenge(
        self, pending: _Pending, challenger: int, judged: list[WordSpan]
    ) -> Event | None:
        rules = self.rules
        self._challenged = True
        rule = rules.challenge_rule
        event: Event | None = None
        if rule is ChallengeRule.TRIPLE:
            self._end(EndReason.TRIPLE_CHALLENGE, adjust=False, loser=challenger)
            return None
        if rule is ChallengeRule.PENALTY:
            units = len(judged) if rules.penalty_per is PenaltyPer.WORD else 1
            points = rules.penalty_points * units
            words = tuple(w.tiles for w in judged)
            if rules.penalty_applies_to is PenaltyAppliesTo.CHALLENGED_BONUS:
                p = self._players[pending.player]
                p.score += points
                event = self._event(
                    EventKind.CHALLENGE_BONUS,
                    pending.player,
                    tuple(p.rack.tiles()),
                    points,
                    p.score,
                    words=words,
                    challenger=challenger,
                    verdict_words=words,
                )
            else:
                c = self._players[challenger]
                c.score -= points
                event = self._event(
                    EventKind.CHALLENGE_PENALTY,
                    challenger,
                    tuple(c.rack.tiles()),
                    -points,
                    c.score,
                    words=words,
                    challenger=challenger,
                    verdict_words=words,
                )
            self.history.append(event)
        elif rule is ChallengeRule.SINGLE:
            p = self._players[pending.player]
            event = self._event(
                EventKind.CHALLENGE_BONUS,
                pending.player,
                tuple(p.rack.tiles()),
                0,
                p.score,
                words=tuple(w.tiles for w in judged),
                challenger=challenger,
                verdict_words=tuple(w.tiles for w in judged),
            )
            self.history.append(event)
        if self.state is GameState.AWAITING_FINAL:
            self._finish_awaited()  # R5.5: a valid out-play stands and the game ends
            return event
        if rule is ChallengeRule.DOUBLE:
            self._players[challenger].loses_next_turn = True
            self._players[challenger].lost_turn_words = tuple(w.tiles for w in judged)
            event = self._take_lost_turns() or event
        return event

    def _take_lost_turns(self) -> Event | None:
        """R5.4a: a challenger who lost a double challenge forfeits their next turn."""
        event = None
        while self.state is GameState.PLAYING and self._players[self.to_move].loses_next_turn:
            i = self.to_move
            p = self._players[i]
            p.loses_next_turn = False
            words, p.lost_turn_words = p.lost_turn_words, ()
            p.turns += 1
            rack = tuple(p.rack.tiles())
            event = self._event(
                EventKind.LOST_TURN, i, rack, 0, p.score, Pass(), challenger=i, verdict_words=words
            )
            self.history.append(event)
            self._scoreless += 1
            self._passes += 1
            self._advance()
            if self._final_round_end == i:  # R8.3: the lost turn was the round's last
                self._end(EndReason.FINISH_LINE, adjust=False)
                break
            self._check_scoreless_end()
        return event

    # -- turn flow and endings (R6) ------------------------------------------------------

    def _advance(self) -> None:
        self.to_move = (self.to_move + 1) % self.num_players

    def _after_turn(self, mover: int, went_out: bool = False) -> None:
        rules = self.rules
        target = rules.finish_target(self.num_players)
        reached = target is not None and self._players[mover].score >= target
        # R5.1, R8.3.2: a tile play that would end the game may still be challenged
        challengeable = (
            rules.challenge_rule is not ChallengeRule.VOID
            and self._pending is not None
            and self._pending.player == mover
        )
        self._advance()
        if went_out or (reached and not rules.finish_line_complete_round):
            if challengeable:
                self.state = GameState.AWAITING_FINAL
            elif went_out:
                self._finish_awaited()
            else:
                self._end(EndReason.FINISH_LINE, adjust=False)
            return
        if reached and self._final_round_end is None:
            self._final_round_end = (self.first - 1) % self.num_players
        if self._final_round_end is not None and mover == self._final_round_end:
            if challengeable:
                self.state = GameState.AWAITING_FINAL
            else:
                self._end(EndReason.FINISH_LINE, adjust=False)
            return
        if self._check_scoreless_end():
            return
        self._take_lost_turns()

    def _check_scoreless_end(self) -> bool:
        rules = self.rules
        if self.state is GameState.OVER:
            return True
        limit = rules.scoreless_turns_to_end
        empty_block = not rules.zeros_can_end_empty_board and self.board.is_empty()
        if (
            limit is not None
            and self._scoreless >= limit
            and rules.scoreless_end is ScorelessEnd.AUTOMATIC
            and not empty_block
        ):
            self._end(EndReason.SCORELESS_TURNS, adjust=True)
            return True
        passes = rules.passes_to_end_for(self.num_players)
        if passes is not None and self._passes >= passes and not empty_block:
            self._end(EndReason.PASSES, adjust=True)
            return True
        return False

    def end_by_request(self, player: PlayerRef | None = None) -> None:
        """R6.2 ``on_request``: either player ends the game once the scoreless count is reached."""
        limit = self.rules.scoreless_turns_to_end
        if self.state is not GameState.PLAYING:
            raise IllegalMove(Reason.GAME_OVER, "the game is not in progress")
        if player is not None:
            self.index(player)
        if limit is None or self._scoreless < limit:
            raise IllegalMove(
                Reason.GAME_OVER,
                f"the game can be ended after {limit} scoreless turns; "
                f"there have been {self._scoreless}",
            )
        if not self.rules.zeros_can_end_empty_board and self.board.is_empty():
            raise IllegalMove(
                Reason.GAME_OVER, "these rules do not let a game end with an empty board (R6.2)"
            )
        self._remember()
        self._end(EndReason.ENDED_BY_REQUEST, adjust=True)

    def _finish_awaited(self) -> None:
        """The out-play (or the finish-line play) stands: the game ends."""
        last = next(e for e in reversed(self.history) if e.kind is EventKind.PLAY)
        mover = last.player
        if not self._players[mover].rack and not self._bag:
            self._end(EndReason.PLAYED_OUT, adjust=True, out_player=mover)
        else:
            self._end(EndReason.FINISH_LINE, adjust=False)

    def _end(
        self,
        reason: EndReason,
        *,
        adjust: bool,
        out_player: int | None = None,
        loser: int | None = None,
    ) -> None:
        self._pre_adjust = self.scores
        if adjust and out_player is not None:
            self._out_adjust(out_player)
        elif adjust:
            for i in range(self.num_players):  # R6.2, R6.3: everyone loses own rack
                self._rack_penalty(i)
        # R7.2: charged at the end, whatever ended the game; a loss on time (R7.3 forfeit)
        # is the forfeiting player's whole penalty: no overtime points on top
        self._time_penalties(loser if reason is EndReason.TIMEOUT_FORFEIT else None)
        self.state = GameState.OVER
        self._pending = None
        self.result = self._decide(reason, loser)

    def _rack_penalty(self, i: int) -> None:
        p = self._players[i]
        value = sum(self.tileset.value(t) for t in p.rack.tiles())
        p.score -= value
        rack = tuple(p.rack.tiles())
        self.history.append(
            self._event(
                EventKind.END_RACK_PENALTY, i, rack, -value, p.score, other_racks=rack,
            )
        )

    def _out_adjust(self, out: int) -> None:
        """R6.4: box transfer, or the tournament 2× (two players; box rule beyond)."""
        others = [i for i in range(self.num_players) if i != out]
        tiles = tuple(t for i in others for t in self._players[i].rack.tiles())
        value = sum(self.tileset.value(t) for t in tiles)
        two_player_double = self.rules.out_adjust is OutAdjust.DOUBLE and self.num_players == 2
        if not two_player_double:
            for i in others:
                self._rack_penalty(i)
        gain = 2 * value if two_player_double else value
        p = self._players[out]
        p.score += gain
        self.history.append(
            self._event(
                EventKind.END_RACK_POINTS, out, (), gain, p.score, other_racks=tiles,
            )
        )

    def _time_penalties(self, forfeited: int | None) -> None:
        clock = self.rules.clock
        if clock is None:
            return
        for i, p in enumerate(self._players):
            if i == forfeited:
                continue
            penalty = clock.overtime_penalty(self.overtime_ms(i))
            if penalty:
                p.score -= penalty
                self.history.append(
                    self._event(
                        EventKind.TIME_PENALTY, i, tuple(p.rack.tiles()), -penalty, p.score,
                    )
                )

    def _decide(self, reason: EndReason, loser: int | None) -> GameResult:
        scores = tuple(self.scores)
        if loser is not None:
            winners = tuple(i for i in range(self.num_players) if i != loser)
            if len(winners) > 1:
                best = max(scores[i] for i in winners)
                winners = tuple(i for i in winners if scores[i] == best)
            return GameResult(reason, scores, winners, loser)
        if reason is EndReason.FINISH_LINE and not self.rules.finish_line_complete_round:
            # R8.3.2: the player whose turn reached the target wins
            last = next(e for e in reversed(self.history) if e.kind in TURN_KINDS)
            return GameResult(reason, scores, (last.player,))
        best = max(scores)
        winners = tuple(i for i, s in enumerate(scores) if s == best)
        if len(winners) > 1 and self.rules.tie_break is TieBreak.PRE_ADJUSTMENT:
            pre = self._pre_adjust or list(scores)
            top = max(pre[i] for i in winners)
            winners = tuple(i for i in winners if pre[i] == top)
        return GameResult(reason, scores, winners)

    def resign(self, player: PlayerRef) -> None:
        """The player concedes; the game ends with scores as they stand."""
        i = self.index(player)
        if self.state is GameState.OVER:
            raise IllegalMove(Reason.GAME_OVER, "the game is over")
        self._remember()
        self._end(EndReason.RESIGNED, adjust=False, loser=i)

    # -- clocks (R7) ---------------------------------------------------------------------

    def time_expired(self, player: PlayerRef, elapsed_ms: int, *, recorded: bool = False) -> None:
        """The app's clock says ``player`` has used ``elapsed_ms`` more on the current turn and
        gone past the maximum overtime (R7.3). Ends the game (scores stand, or forfeit);
        if an out-play is awaiting acceptance, the player is auto-passed instead (Woogles).

        The player is charged up to the moment the flag fell (1 ms past the maximum
        overtime), not the whole ``elapsed_ms``: a game decided late (by the sweep, or when
        next loaded) neither shows hours of overtime nor costs more than the flag does.
        ``recorded``: the flag's fall is taken from a record (a GCG end marker) without
        judging ``elapsed_ms`` again (see :meth:`play`).
        """
        clock = self.rules.clock
        if clock is None:
            raise IllegalMove(Reason.NO_CLOCK, "this game has no clock")
        i = self.index(player)
        if self.state is GameState.OVER:
            raise IllegalMove(Reason.GAME_OVER, "the game is over")
        p = self._players[i]
        if elapsed_ms < 0:
            raise IllegalMove(Reason.NO_CLOCK, "elapsed time cannot be negative")
        past = self._past_flag_ms(i, elapsed_ms)
        if past <= 0 and not recorded:
            over = max(0, clock.max_overtime_min * 60_000 + past)  # R7.3: time past zero
            raise IllegalMove(
                Reason.NO_CLOCK,
                f"{p.name} is {over // 1000} s into overtime; "
                f"the maximum is {clock.max_overtime_min} min",
            )
        self._remember()
        p.time_used_ms += max(0, elapsed_ms - past + 1)  # to the flag (already past: nothing)
        if self.state is GameState.AWAITING_FINAL and i == self.to_move:
            self._pass(i, None)
            return
        if clock.on_max_overtime is OnMaxOvertime.FORFEIT:
            self._end(EndReason.TIMEOUT_FORFEIT, adjust=False, loser=i)
        else:
            self._end(EndReason.MAX_OVERTIME, adjust=False)

    # -- replay support ------------------------------------------------------------------

    def set_rack(self, player: PlayerRef, tiles: str | Sequence[int]) -> None:
        """Give a player a known rack (for replaying records and analysing positions): the
        current rack goes back to the bag and these tiles come out of it."""
        i = self.index(player)
        parsed: list[int]
        if isinstance(tiles, str):
            try:
                parsed = self.alphabet.parse(tiles)
            except TileError as exc:
                raise IllegalMove(Reason.NOTATION, f"rack {tiles!r}: {exc}") from None
        else:
            parsed = list(tiles)
        size = self.alphabet.size
        if any(not (0 <= t <= 0xFF and (t == BLANK or 1 <= letter_of(t) < size)) for t in parsed):
            raise IllegalMove(Reason.NOTATION, f"rack {tiles!r}: tile ids outside the alphabet")
        wanted = [face(t) for t in parsed]  # a lower-case letter on a rack is just a blank
        p = self._players[i]
        pool = Rack(self.alphabet.size, self._bag)
        for t in p.rack.tiles():
            pool.add(t)
        missing = pool.missing(wanted)
        if missing:
            raise IllegalMove(
                Reason.NOT_ON_RACK,
                f"rack {self.alphabet.format(wanted)}: {self.alphabet.format(missing)} "
                "not among the unseen tiles",
            )
        if len(wanted) > self.rules.rack_size:
            raise IllegalMove(
                Reason.TOO_MANY_TILES, f"a rack holds at most {self.rules.rack_size} tiles"
            )
        self._bag.extend(p.rack.tiles())
        p.rack = Rack(self.alphabet.size, alphabet=self.alphabet)
        for t in wanted:
            self._bag.remove(t)
            p.rack.add(t)

    # -- undo ----------------------------------------------------------------------------

    # Everything an action may change; copied on snapshot, copied back on restore.
    _STATE_FIELDS = (
        "board", "_bag", "_players", "state", "result", "_pending", "_challenged",
        "_scoreless", "_passes", "_final_round_end", "_pre_adjust", "to_move",
    )

    @staticmethod
    def _copied(value: object) -> object:
        """A private copy of a mutable state field (the others are immutable values): the
        board, the players (each with its own rack), or a list of numbers (the bag, scores).
        A move snapshots the state first, so this runs on every move (a deep copy took
        ~0.35 ms of it)."""
        if isinstance(value, Board):
            return value.copy()
        if isinstance(value, list):
            if value and isinstance(value[0], _Player):
                return [p.copy() for p in value]
            return list(value)
        return value

    def _snapshot(self) -> tuple[object, ...]:
        state = tuple(self._copied(getattr(self, name)) for name in self._STATE_FIELDS)
        return (*state, len(self.history), self._rng.getstate())

    def _restore(self, snap: tuple[object, ...]) -> None:
        *state, hist_len, rng_state = snap
        for name, value in zip(self._STATE_FIELDS, state, strict=True):
            setattr(self, name, self._copied(value))
        del self.history[cast(int, hist_len) :]
        self._rng.setstate(rng_state)  # type: ignore[arg-type]

    def _remember(self, snapshot: tuple[object, ...] | None = None) -> None:
        """Keep the state before an action for :meth:`undo` (unless undo is off)."""
        if self._keeps_undo:
            self._undo.append(snapshot if snapshot is not None else self._snapshot())

    @property
    def can_undo(self) -> bool:
        return self.rules.clock is None and bool(self._undo)

    def undo(self) -> None:
        """Take back the last action (casual games without a clock only)."""
        if self.rules.clock is not None:
            raise IllegalMove(Reason.UNDO_NOT_ALLOWED, "moves cannot be taken back in a timed game")
        if not self._keeps_undo:
            raise IllegalMove(Reason.UNDO_NOT_ALLOWED, "this game keeps no undo history")
        if not self._undo:
            raise IllegalMove(Reason.UNDO_NOT_ALLOWED, "there is nothing to undo")
        self._restore(self._undo.pop())

    # -- conveniences --------------------------------------------------------------------

    def last_play(self) -> Play | None:
        for e in reversed(self.history):
            if e.kind is EventKind.PLAY and isinstance(e.move, Play):
                return e.move
            if e.kind is EventKind.WITHDRAWN:
                return None
        return None

    def turn_events(self) -> list[Event]:
        return [e for e in self.history if e.kind in TURN_KINDS]

    def __repr__(self) -> str:
        return (
            f"<Game {self.rules.name} {self.players} scores={self.scores} "
            f"to_move={self.to_move} state={self.state.value}>"
        )

    def __str__(self) -> str:
        """The board and every player's score and rack (a game sees every rack)."""
        from .render.text import render_position

        racks = [str(p.rack) for p in self._players]
        to_move = None if self.state is GameState.OVER else self.to_move
        return render_position(self.board, self.players, self.scores, racks, to_move)

    def _repr_svg_(self) -> str | None:
        return self.board._repr_svg_()

    # -- positions (CGP) -----------------------------------------------------------------

    @classmethod
    def from_position(
        cls,
        rules: Rules | str,
        *,
        board_tiles: Iterable[tuple[int, int, int]],
        racks: Sequence[Sequence[int]],
        scores: Sequence[int],
        to_move: int = 0,
        scoreless_turns: int = 0,
        lexicon: WordSource | None = None,
        players: Sequence[str] | None = None,
        seed: int | None = None,
    ) -> Game:
        """A game in a given position (a CGP): tiles ``(row, col, tile)`` on the board, each
        player's rack and score, the player to move and the scoreless-turn count. The bag is
        the tile set minus the board and the racks. Raises ValueError when the tiles do not
        fit the tile set or the board."""
        rules = preset(rules)
        n = len(racks)
        names = list(players) if players is not None else [f"Player {i + 1}" for i in range(n)]
        if len(names) != n or len(scores) != n:
            raise ValueError(f"{n} racks need {n} player names and {n} scores")
        game = cls(rules, lexicon=lexicon, players=names, seed=seed, first=to_move, deal=False)
        counts = list(game.tileset.counts)
        for row, col, tile in board_tiles:
            if not game.board.on_board(row, col):
                raise ValueError(f"square ({row}, {col}) is off the board")
            if game.board.get(row, col):
                raise ValueError(f"square ({row}, {col}) is given twice")
            if tile == BLANK or not 1 <= letter_of(tile) < game.alphabet.size:
                raise ValueError(f"tile id {tile} cannot lie on the board")
            game.board.set(row, col, tile)
            counts[BLANK if tile & 0x80 else tile] -= 1
        for i, rack in enumerate(racks):
            if len(rack) > rules.rack_size:
                raise ValueError(f"rack {i + 1} holds {len(rack)} tiles; at most {rules.rack_size}")
            for t in rack:
                if not 0 <= t < game.alphabet.size:
                    raise ValueError(f"tile id {t} cannot be on a rack")
                counts[t] -= 1
                game._players[i].rack.add(t)
            game._players[i].score = int(scores[i])
        short = [game.alphabet.label(t) for t, c in enumerate(counts) if c < 0]
        if short:
            raise ValueError(f"more tiles than the tile set holds: {', '.join(short)}")
        game._bag = [t for t, c in enumerate(counts) for _ in range(c)]
        game._rng.shuffle(game._bag)
        game._scoreless = scoreless_turns
        return game

    # -- move generation -----------------------------------------------------------------

    def legal_moves(self, top: int | None = None, leaves: object | None = None) -> Sequence[Move]:
        """Every legal move of the player to move, best first, as a lazy
        :class:`tessera.movegen.MoveList` (plays with their scores, exchanges when the bag and
        the exchange limit allow them, and the pass). ``top=N`` keeps the N best; ``leaves``
        (a :class:`tessera.lexicon.Leaves`) ranks by score plus leave value. Needs the game's
        lexicon to be a :class:`tessera.lexicon.Lexicon`. After a pending out-play only the
        pass (accepting it) is listed; a finished game has no moves."""
        from .movegen import MoveList, generate_moves

        if self.state is GameState.OVER:
            return MoveList([])
        if self.lexicon is None or not hasattr(self.lexicon, "kwg"):
            raise ValueError("legal moves need a word graph: create the game with a Lexicon")
        rack = self._players[self.to_move].rack
        if self.state is GameState.AWAITING_FINAL:
            keep = rack.tiles()
            value = leaves.table_value(keep) if leaves is not None else 0.0  # type: ignore[attr-defined]
            return MoveList([(Pass(), value)])
        limit = self.rules.max_exchanges_per_player
        may_exchange = limit is None or self._players[self.to_move].exchanges < limit
        return generate_moves(
            self.board,
            rack,
            self.lexicon,  # type: ignore[arg-type]
            self.rules,
            top=top,
            leaves=leaves,  # type: ignore[arg-type]
            bag_count=len(self._bag) if may_exchange else None,
        )
