"""The :class:`Game` itself: one mixin per concern (actions, challenges, endings, clocks,
undo, views, over the state they share), with the setup of a new game, the flag's fall
(R7.3), replay support, positions (CGP), the display forms and move generation.

Each mixin derives from the mixins whose methods it calls (the state's
:class:`~tessera.game.state._GameBase` under undo and the clock, endings over both,
challenges over endings, actions over challenges; views over the clock), so every call
between concerns is checked by the type checker, with no method declared twice.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from ..board import Board
from ..display import POSITION_TEXT, draw
from ..legality import IllegalMove, Reason
from ..move import Move, Pass, Play
from ..rules import OnMaxOvertime, Rules, preset
from ..tiles import BLANK, Rack, TileError, face, letter_of
from .actions import _Actions
from .records import TURN_KINDS, EndReason, Event, EventKind, GameResult, GameState
from .state import PlayerRef, WordSource, _Pending, _Player
from .views import _Views


class Game(_Actions, _Views):
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
        racks = [str(p.rack) for p in self._players]
        to_move = None if self.state is GameState.OVER else self.to_move
        return draw(POSITION_TEXT, self.board, self.players, self.scores, racks, to_move)

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
        from ..movegen import MoveList, generate_moves

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
