"""Turn flow and endings (R6): passing the turn on, the turns a lost double challenge costs
(R5.4a), the scoreless-turn and pass limits, the finish line (R8.3), the end-of-game rack
adjustments and time penalties, the result, and ending by request or resignation.
"""

from __future__ import annotations

from ..legality import IllegalMove, Reason
from ..move import Pass
from ..rules import ChallengeRule, OutAdjust, ScorelessEnd, TieBreak
from .clock import _Clock
from .records import TURN_KINDS, EndReason, Event, EventKind, GameResult, GameState
from .state import PlayerRef
from .undo import _Undo


class _Endings(_Undo, _Clock):
    """Whose turn it is next, and how and when the game ends."""

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

