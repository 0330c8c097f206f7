"""The moves a player makes (R2–R4): a tile play, an exchange or a pass, each validated
completely before anything changes; :meth:`Game.check <tessera.game.Game.check>` validates
one without making it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..board import WordSpan
from ..legality import IllegalMove, Reason, check_play, covers_start, play_from_squares
from ..move import Challenge, Exchange, Move, NotationError, Pass, Play, parse_move
from ..rules import CenterMiss, ChallengeRule
from ..scoring import score_breakdown
from .challenges import _Challenges
from .records import Event, EventKind, GameState
from .state import PlayerRef, _Pending


class _Actions(_Challenges):
    """Playing, exchanging and passing."""

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

    def _only_pass_or_challenge_check(self) -> None:
        if self.state is GameState.AWAITING_FINAL:
            raise IllegalMove(
                Reason.ONLY_PASS_OR_CHALLENGE,
                "the last play ends the game unless challenged: "
                "you can only pass (accept) or challenge",
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

