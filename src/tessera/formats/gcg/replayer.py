"""Replaying a GCG record (:func:`replay`): the game rebuilt line by line — turns,
withdrawals, challenges, end-of-game lines and Tessera's end markers — each checked against
the file; and :func:`load_lexicon`, the word list a replay is given, which the duplicate
replay uses too."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ...board import CoordinateError, parse_position
from ...game import Event, EventKind, Game, GameState
from ...move import PLAYED_THROUGH, Exchange, Move, Pass, Play
from ...rules import ChallengeRule, Rules, Validity
from ...tiles import letter_of
from .. import TileTextError, parse_tiles, rack_tiles
from .read import loads
from .record import END_LINES, TURN_LINES, GcgError, GcgEvent, GcgGame, LineKind
from .replay_state import ReplayState
from .rules_inference import infer_rules
from .write import default_challenge_words

_END_EVENT_KINDS = frozenset(
    {EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY, EventKind.TIME_PENALTY}
)


def replay(
    record: GcgGame | str | bytes,
    rules: Rules | str | None = None,
    lexicon: Any = None,
    check_scores: bool = True,
    *,
    check_words: bool = False,
    turns: int | None = None,
) -> Game:
    """Rebuild the game a record describes, checking it line by line.

    Raises :class:`GcgError` with the line number of the first problem: a score or running
    total that differs from the recomputed one, tiles not on the rack, an illegal placement,
    a line out of turn, … Challenges are decided by the file (a ``--`` line means the play
    was invalid), not by a word list. ``lexicon`` (a word source with ``contains`` and
    ``has_anagram``, or a name for ``tessera.lexicon.Lexicon.load``) becomes the returned
    game's word list; with ``check_words=True`` every word of every play that stood is
    checked against it too. ``check_scores=False`` skips the score and total comparisons. ``turns``
    stops after that many turn lines (plays, passes, exchanges) and the lines that settle
    them (withdrawals, challenge bonuses).
    """
    if isinstance(record, str | bytes):
        record = loads(record)
    if record.is_duplicate:
        raise GcgError("a duplicate record: replay it with replay_duplicate (it needs the word "
                       "list that finds its master moves)")
    lex = load_lexicon(lexicon)
    if check_words and lex is None:
        raise GcgError("checking words needs a lexicon")
    if rules is None and lex is not None and not (
        record.tessera_rules or record.tile_distribution or record.lexicon
    ):
        rules = infer_rules(record).for_alphabet(getattr(lex, "alphabet", None))
    game = _Replay(record, rules, lex if check_words else None, check_scores, turns).run()
    state = game._rng.getstate()
    game._rng = random.Random()  # the replay's scripted draws end with the replay
    game._rng.setstate(state)
    game.lexicon = lex
    return game


def load_lexicon(lexicon: Any) -> Any:
    """The word source a replay is given: ``lexicon`` itself when it has ``contains`` (or is
    None), else the word list of that name (:meth:`tessera.lexicon.Lexicon.load`); raises
    :class:`GcgError` when it cannot be loaded."""
    if lexicon is None or hasattr(lexicon, "contains"):
        return lexicon
    try:
        from tessera.lexicon import Lexicon
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise GcgError(f"word lists are not available: {exc}") from None
    try:
        return Lexicon.load(str(lexicon))
    except (OSError, ValueError) as exc:
        raise GcgError(f"cannot load lexicon {lexicon!r}: {exc}") from None


class _Replay(ReplayState):
    """Goes through a record's lines, each with the game's action it stands for, and
    checks what the game records against the line (see the package docstring)."""

    # -- the main loop

    def run(self) -> Game:
        turns_done = 0
        game = self.game
        for i, ev in enumerate(self.events):
            self.at = i
            if ev.kind in TURN_LINES and self.turn_limit is not None:
                if turns_done >= self.turn_limit:
                    return game
                turns_done += 1
            p = self.index[ev.nick]
            matches_lost_turn = ev.kind is LineKind.PASS and any(
                e.kind is EventKind.LOST_TURN and e.player == p for e in self.pending
            )
            if not matches_lost_turn:
                self._run_deferred()
            if ev.kind in TURN_LINES:
                self._turn(i, ev, p)
            elif ev.kind is LineKind.WITHDRAWN:
                self._withdrawn(i, ev, p)
            elif ev.kind in (LineKind.CHALLENGE_BONUS, LineKind.CHALLENGE_PENALTY):
                self._challenge_line(i, ev, p)
            elif ev.kind in END_LINES:
                self._end_line(i, ev, p)
            else:
                self._end_marker(i, ev, p)
        if self.turn_limit is not None:
            return game
        self.at = len(self.events)
        self._run_deferred()
        last_line = self.events[-1].line if self.events else None
        if game.state is GameState.AWAITING_FINAL and not self.record.incomplete:
            self._finish_awaited(len(self.events) - 1)
        if self.pending and self.check_scores:
            raise GcgError(
                f"the file ends, but the game goes on with {self._describe(self.pending[0])}",
                last_line,
            )
        if not game.is_over:
            finals = [(self.index[nick], text) for nick, text in self.record.final_racks.items()]
            if self.record.incomplete_rack is not None:
                finals.append((game.to_move, self.record.incomplete_rack))
            forced: list[int] = []
            for p, text in finals:  # a rack set here keeps its tiles while the next are set
                self._force(game, p, text, last_line, protected=forced)
                forced.append(p)
        return game

    def _take_pending(self, ev: GcgEvent, p: int, kinds: set[EventKind]) -> Event | None:
        for k, e in enumerate(self.pending):
            if e.kind in kinds and e.player == p:
                return self.pending.pop(k)
        return None

    def _turn(self, i: int, ev: GcgEvent, p: int) -> None:
        game = self.game
        if ev.kind is LineKind.PASS:
            lost = self._take_pending(ev, p, {EventKind.LOST_TURN})
            if lost is not None:
                if ev.rack is not None:
                    self._compare_rack(ev, lost.rack, partial=True)
                self._compare(ev, lost, "the lost turn")
                return
        if self.pending:
            raise GcgError(f"expected {self._describe(self.pending[0])} before this line", ev.line)
        if game.is_over:
            raise GcgError("the game is already over; no more moves can follow", ev.line)
        if game.state is GameState.AWAITING_FINAL:
            if ev.kind is LineKind.PASS and self._failed_challenge_pass(i, ev, p):
                return
            raise GcgError(
                "the last play ended the game unless challenged; only a challenge or "
                "end-of-game lines may follow",
                ev.line,
            )
        if p != game.to_move:
            raise GcgError(
                f"it is {self.players[game.to_move].nick}'s turn, not {ev.nick}'s", ev.line
            )
        self._settle_finals(i, p)
        move = self._move(ev)
        if ev.rack is not None:
            used: Sequence[int] = ()
            if isinstance(move, Play):
                used = move.tiles_used
            elif isinstance(move, Exchange):
                used = move.tiles
            listed = Counter(self._tiles(ev.rack, ev.line))
            missing = Counter(used) - listed
            if missing:
                raise GcgError(
                    f"not on {ev.nick}'s rack ({ev.rack}): {self._fmt(list(missing.elements()))}",
                    ev.line,
                )
            if ev.count is not None and ev.count > listed.total():
                raise GcgError(f"cannot exchange {ev.count} tiles from the rack {ev.rack}", ev.line)
            self._hold(game, p, ev.rack, ev.line, self.after[i][p], used)
        rack_before = game.rack(p).tiles()
        if not self.exact:
            self._script_draws(i, ev, p, move, rack_before)
        elapsed = self.elapsed.pop(p, None)
        self._act(ev.line, game.play, move, p, elapsed_ms=elapsed, recorded=True)
        new = self._collect()
        if not new:
            raise GcgError("the move left no record", ev.line)
        first, rest = new[0], new[1:]
        what = "the play" if ev.kind is LineKind.PLAY else "the move"
        if isinstance(first.move, Play):
            what = f"{ev.position} {ev.word}"
        self._compare(ev, first, what)
        if ev.kind is LineKind.PLAY and self.lexicon is not None:
            if i not in self.withdrawn:
                self._check_words(ev, first)
        self.pending.extend(rest)
        challenger = self.challenger_of.get(i)
        if challenger is not None:
            self.deferred = (challenger, ev.line)

    def _failed_challenge_pass(self, i: int, ev: GcgEvent, p: int) -> bool:
        """A pass by another player right after an out-play, under the double challenge rule:
        Macondo's record of a challenge of the out-play that failed (the challenger loses a
        turn the game no longer has), e.g. its doug_v_emely_double_challenge.gcg. The play
        stands and the game ends; the line's total is the challenger's score before the
        end-of-game lines."""
        game = self.game
        if self.rules.challenge_rule is not ChallengeRule.DOUBLE or not game.can_challenge():
            return False
        last = next(e for e in reversed(game.history) if e.kind is EventKind.PLAY)
        if last.player == p:
            return False
        self._settle_finals(i, None)
        before = game.score(p)
        if ev.rack is not None:
            self._compare_rack(ev, game.rack(p).tiles(), partial=True)
        self.judge.valid = True
        self._act(ev.line, game.challenge, p)
        self.pending.extend(self._collect())
        if self.check_scores and ev.total != before:
            raise GcgError(f"{ev.nick}'s total is {before}, not {ev.total} as recorded", ev.line)
        return True

    def _run_deferred(self) -> None:
        """Make the unsuccessful challenge of the last play, after the lost turns that the
        play's own action brought on and before anyone acts again."""
        if self.deferred is None:
            return
        challenger, line = self.deferred
        self.deferred = None
        game = self.game
        if game.can_challenge() and game.state is GameState.PLAYING:
            self.judge.valid = True
            self._act(line, game.challenge, challenger)
            self.pending.extend(self._collect())

    def _move(self, ev: GcgEvent) -> Move:
        if ev.kind is LineKind.PASS:
            return Pass()
        if ev.kind is LineKind.EXCHANGE:
            if ev.count is not None:
                return Exchange(count=ev.count, alphabet=self.alphabet)
            return Exchange(tuple(self._tiles(ev.tiles, ev.line)), alphabet=self.alphabet)
        board = self.game.board
        try:
            row, col, across = parse_position(ev.position, board.rows, board.cols)
        except CoordinateError as exc:
            raise GcgError(str(exc), ev.line) from None
        try:
            cells = parse_tiles(self.alphabet, ev.word, rack=False, aliases=self.aliases, dots=True)
        except TileTextError as exc:
            raise GcgError(str(exc), ev.line) from None
        dr, dc = (0, 1) if across else (1, 0)
        word: list[int] = []
        for k, cell in enumerate(cells):
            r, c = row + dr * k, col + dc * k
            if not board.on_board(r, c):
                raise GcgError(f"{ev.position} {ev.word} runs off the board", ev.line)
            on = board.get(r, c)
            if cell is None:
                if not on:
                    raise GcgError(
                        f"{ev.position} {ev.word}: '.' at {chr(65 + c)}{r + 1} but that square "
                        "is empty",
                        ev.line,
                    )
                word.append(PLAYED_THROUGH)
            elif on:
                if letter_of(on) != letter_of(cell):
                    raise GcgError(
                        f"{ev.position} {ev.word}: {self.alphabet.label(cell)} at "
                        f"{chr(65 + c)}{r + 1}, but the board has {self.alphabet.label(on)} there",
                        ev.line,
                    )
                word.append(PLAYED_THROUGH)  # R9.5: the letter itself for a played-through tile
            else:
                word.append(cell)
        if all(t == PLAYED_THROUGH for t in word):
            raise GcgError(f"{ev.position} {ev.word} places no new tile", ev.line)
        return Play(row, col, across, tuple(word), alphabet=self.alphabet)

    def _script_draws(
        self, i: int, ev: GcgEvent, p: int, move: Move, rack_before: list[int]
    ) -> None:
        nxt = self.after[i][p]
        if nxt is None:
            return
        if i in self.withdrawn:
            return
        left = Counter(rack_before)
        if isinstance(move, Play):
            left -= Counter(move.tiles_used)
        elif isinstance(move, Exchange):
            left -= Counter(move.tiles) if move.tiles else Counter(rack_before[: move.n])
        try:
            want = Counter(rack_tiles(self.alphabet, nxt, self.aliases))
        except TileTextError:
            return
        self.rng.queue = sorted((want - left).elements())

    def _check_words(self, ev: GcgEvent, got: Event) -> None:
        lex = self.lexicon
        anagram = self.rules.validity is Validity.ANAGRAM
        for w in got.words:
            letters = [letter_of(t) for t in w]
            ok = lex.has_anagram(letters) if anagram else lex.contains(letters)
            if not ok:
                raise GcgError(
                    f"{self.alphabet.format(w)} is not in the word list "
                    f"(formed by {ev.position} {ev.word})",
                    ev.line,
                )

    def _withdrawn(self, i: int, ev: GcgEvent, p: int) -> None:
        game = self.game
        if self.pending:
            raise GcgError(f"expected {self._describe(self.pending[0])} before this line", ev.line)
        if not game.can_challenge():
            raise GcgError("the play before this '--' line can no longer be challenged", ev.line)
        self.judge.valid = False
        try:
            self._act(ev.line, game.challenge)
        finally:
            self.judge.valid = True
        new = self._collect()
        got = new[0] if new else None
        if got is None or got.kind is not EventKind.WITHDRAWN:
            raise GcgError("the challenge did not withdraw the play", ev.line)
        self._compare(ev, got, "the withdrawn play")
        self.pending.extend(new[1:])

    def _challenge_line(self, i: int, ev: GcgEvent, p: int) -> None:
        game = self.game
        if self.pending:
            raise GcgError(f"expected {self._describe(self.pending[0])} before this line", ev.line)
        if not game.can_challenge():
            raise GcgError("there is no play that can be challenged here", ev.line)
        last = next(e for e in reversed(game.history) if e.kind is EventKind.PLAY)
        bonus = ev.kind is LineKind.CHALLENGE_BONUS
        if bonus and last.player != p:
            raise GcgError(
                f"a (challenge) +N line names the challenged player "
                f"{self.players[last.player].nick}, not {ev.nick}",
                ev.line,
            )
        if not bonus and last.player == p:
            raise GcgError(
                "a (challenge) -N line names the challenger, not the player challenged", ev.line
            )
        if ev.rack is not None or bonus:
            self._force(game, p, ev.rack or "", ev.line)
        words = self._challenged_words(ev, last)
        challenger = None if bonus else p
        self.judge.valid = True
        self._act(ev.line, game.challenge, challenger, words=words)
        new = self._collect()
        kind = EventKind.CHALLENGE_BONUS if bonus else EventKind.CHALLENGE_PENALTY
        got = next((e for e in new if e.kind is kind), None)
        if got is None:
            rule = self.rules.challenge_rule.value
            raise GcgError(
                f"a (challenge) {'bonus' if bonus else 'penalty'} line needs a point-penalty "
                f"challenge rule (or single, for +0); these rules ({self.rules.name}) use {rule}",
                ev.line,
            )
        new.remove(got)
        self._compare(ev, got, "the challenge")
        self.pending.extend(new)

    def _challenged_words(self, ev: GcgEvent, last: Event) -> list[tuple[int, ...]] | None:
        formed = last.words
        if ev.extra:
            chosen: list[tuple[int, ...]] = []
            pool = list(formed)
            for token in ev.extra:
                try:
                    cells = parse_tiles(
                        self.alphabet, token.strip(","), rack=False, aliases=self.aliases
                    )
                except TileTextError:
                    chosen = []
                    break
                letters = [letter_of(t) for t in cells if t is not None]
                match = next((w for w in pool if [letter_of(t) for t in w] == letters), None)
                if match is None:
                    chosen = []
                    break
                pool.remove(match)
                chosen.append(match)
            if chosen:
                return chosen
        default = default_challenge_words(self.rules, ev.score, formed)
        return list(default) if default else list(formed)

    def _finish_awaited(self, i: int) -> None:
        """After an out-play (or finish-line play): accepted, or challenged without success
        when the play line carries ``#note #unsuccessful-challenge``."""
        game = self.game
        line = self.events[i].line if i >= 0 else None
        last_play_line = next(
            (e for e in reversed(self.events[: i + 1]) if e.kind is LineKind.PLAY), None
        )
        self._settle_finals(i, None)
        if last_play_line is not None and last_play_line.tagged and game.can_challenge():
            self.judge.valid = True
            self._act(line or 0, game.challenge)
        else:
            self._act(line or 0, game.pass_turn, game.to_move)
        self.pending.extend(self._collect())

    def _end_line(self, i: int, ev: GcgEvent, p: int) -> None:
        game = self.game
        kinds = {
            LineKind.END_RACK_POINTS: EventKind.END_RACK_POINTS,
            LineKind.END_RACK_PENALTY: EventKind.END_RACK_PENALTY,
            LineKind.TIME_PENALTY: EventKind.TIME_PENALTY,
        }
        kind = kinds[ev.kind]
        got = self._take_pending(ev, p, {kind})
        if got is None and not self.pending:
            if game.state is GameState.AWAITING_FINAL:
                self._finish_awaited(i - 1)
            elif game.state is GameState.PLAYING:
                raise GcgError(
                    "the game is not over, so end-of-game lines cannot come yet", ev.line
                )
            got = self._take_pending(ev, p, {kind})
        if got is None:
            if self.pending:
                raise GcgError(f"expected {self._describe(self.pending[0])} here", ev.line)
            raise GcgError(
                f"the game's end does not give {ev.nick} "
                f"{'end-rack points' if kind is EventKind.END_RACK_POINTS else 'this line'}",
                ev.line,
            )
        # running totals follow the file's order of the end lines (a (time) line may come
        # before the rack points), not the order the game applied them
        if self.end_totals is None:
            ends = [got, *self.pending]
            self.end_totals = [
                game.score(q)
                - sum(e.score for e in ends if e.player == q and e.kind in _END_EVENT_KINDS)
                for q in range(self.n)
            ]
        total = self.end_totals[p] + got.score
        self._compare(ev, got, "the end-of-game adjustment", total)
        self.end_totals[p] = total

    def _end_marker(self, i: int, ev: GcgEvent, p: int) -> None:
        game = self.game
        if self.pending:
            raise GcgError(f"expected {self._describe(self.pending[0])} before this line", ev.line)
        if game.is_over:
            raise GcgError("the game is already over", ev.line)
        self._settle_finals(i, None)
        reason = ev.reason
        if reason == "resigned":
            self._act(ev.line, game.resign, p)
        elif reason == "ended_by_request":
            self._act(ev.line, game.end_by_request, p)
        elif reason in ("max_overtime", "timeout_forfeit"):
            self._act(ev.line, game.time_expired, p, 0, recorded=True)
        else:
            self.judge.valid = True
            self._act(ev.line, game.challenge, p)
        self.pending.extend(self._collect())
