"""Challenges (R5): which play may be challenged and by whom, the words judged, and the
verdicts: a withdrawn play (R5.3), or the penalty, bonus, lost turn or loss of an unsuccessful
challenge (R5.4), and the out-play that stands (R5.5).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..board import WordSpan
from ..legality import IllegalMove, Reason, invalid_words
from ..rules import ChallengeRule, ChallengeScope, PenaltyAppliesTo, PenaltyPer
from ..tiles import TileError, letter_of
from .endings import _Endings
from .records import EndReason, Event, EventKind, GameState
from .state import PlayerRef, _Pending


class _Challenges(_Endings):
    """Challenging the last play, and judging its words."""

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

    def _invalid(self, words: Iterable[WordSpan]) -> list[WordSpan]:
        if self.lexicon is None:
            return []
        lex = self.lexicon
        return invalid_words(words, self.rules, lex.contains, lex.has_anagram)

