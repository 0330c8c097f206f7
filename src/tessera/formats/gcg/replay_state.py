"""The state of a GCG replay (:class:`ReplayState`): the record read ahead (racks, time,
lost turns), the game rebuilt with the file's draws and the file's verdicts on challenges,
and the helpers that keep the racks in step with the file and compare each line with the
game's event."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ...game import Event, EventKind, Game
from ...legality import IllegalMove
from ...rules import ChallengeRule, Rules, RulesError, TimeControl, preset
from ...tiles import Alphabet
from .. import TileTextError, format_tiles, rack_tiles
from .record import (
    TURN_LINES,
    UNSUCCESSFUL_CHALLENGE,
    GcgError,
    GcgEvent,
    GcgGame,
    LineKind,
    withdrawn_play,
)
from .rules_inference import infer_rules
from .write import signed


class _Judge:
    """The replay's word source: the file, not a word list, decides challenges."""

    def __init__(self) -> None:
        self.valid = True

    def contains(self, tiles: Sequence[int]) -> bool:
        return self.valid

    def has_anagram(self, tiles: Sequence[int]) -> bool:
        return self.valid


class _ScriptedRandom(random.Random):
    """Draws the tiles the record shows a player drew next; otherwise the game's own
    random choice. Installed as the replayed game's generator."""

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.queue: list[int] = []

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None and self.queue:
            bag = self.game._bag  # the game draws with bag.pop(randrange(len(bag)))
            while self.queue:
                tile = self.queue.pop(0)
                if tile in bag:
                    return bag.index(tile)
        return super().randrange(start, stop, step)


class ReplayState:
    """A replay in progress and its bookkeeping: what the record tells ahead of each line
    (the racks after it, the time penalties, who challenged which play without success),
    the game being rebuilt — the file, not a word list, deciding its challenges and draws —
    and the helpers that make a rack what a line says and compare a line with the game's
    event. The replay's loop (:mod:`tessera.formats.gcg.replayer`) goes through the lines."""

    def __init__(
        self,
        record: GcgGame,
        rules: Rules | str | None,
        lexicon: Any,
        check_scores: bool,
        turns: int | None,
    ) -> None:
        self.record = record
        self.check_scores = check_scores
        self.turn_limit = turns
        self.lexicon = lexicon
        try:
            self.rules = preset(rules) if rules is not None else infer_rules(record)
        except RulesError as exc:
            raise GcgError(str(exc)) from None
        if not record.players:
            raise GcgError("the file names no players and has no events")
        self.events = record.events
        self.players = record.seated()  # seat order: the game's player indexes
        self.n = len(self.players)
        self.index = {p.nick: i for i, p in enumerate(self.players)}
        self.alphabet: Alphabet = self.rules.tileset.alphabet
        self.aliases = record.tile_aliases
        self.at = 0  # the index of the line being replayed
        self._prepare_time()
        self._prepare_racks()
        self._prepare_lost_turns()
        self.game = self._new_game()
        self.hist = 0
        self.pending: list[Event] = []
        self.deferred: tuple[int, int] | None = None  # (challenger, line of the play)
        self.end_totals: list[int] | None = None  # totals as the end lines so far show them

    # -- setup

    def _prepare_time(self) -> None:
        penalties: dict[int, int] = {}
        turn_counts: Counter[int] = Counter()
        for e in self.events:
            if e.kind is LineKind.TIME_PENALTY:
                penalties[self.index[e.nick]] = penalties.get(self.index[e.nick], 0) - e.score
            elif e.kind in TURN_LINES:
                turn_counts[self.index[e.nick]] += 1
        self.elapsed: dict[int, int] = {}
        if not any(penalties.values()):
            return
        if self.rules.clock is None:
            self.rules = self.rules.replace(clock=TimeControl())
        clock = self.rules.clock
        assert clock is not None
        for p, points in penalties.items():
            minutes = -(-points // max(1, clock.penalty_points_per_minute))
            self.elapsed[p] = (
                clock.initial_ms + clock.increment_ms * turn_counts[p] + minutes * 60_000
            )

    def _rack_of_line(self, e: GcgEvent, p: int) -> str | bool | None:
        """What line ``e`` tells about player ``p``'s current rack: its text, None (it
        becomes unknown), or False (nothing)."""
        who = self.index.get(e.nick)
        if e.kind is LineKind.END_MARKER:
            return False
        if who == p:
            if e.kind in TURN_LINES:
                return e.rack
            if e.kind is LineKind.WITHDRAWN:
                return False
            if e.kind is LineKind.CHALLENGE_BONUS:
                return e.rack if e.rack is not None else ""
            if e.kind is LineKind.END_RACK_POINTS:
                return ""
            if e.kind in (LineKind.CHALLENGE_PENALTY, LineKind.END_RACK_PENALTY):
                return e.rack
            if e.kind is LineKind.TIME_PENALTY:
                return e.rack if e.rack is not None else False
            return False
        if e.kind is LineKind.END_RACK_POINTS and self.n == 2:
            return e.tiles
        return False

    def _prepare_racks(self) -> None:
        """``after[i][p]``: player p's rack right after line i, as later lines show it."""
        nxt: list[str | None] = [None] * self.n
        self.after: list[list[str | None]] = [[] for _ in self.events]
        self.last_turn = [-1] * self.n
        for j in range(len(self.events) - 1, -1, -1):
            self.after[j] = list(nxt)
            e = self.events[j]
            for p in range(self.n):
                info = self._rack_of_line(e, p)
                if info is not False:
                    nxt[p] = info  # type: ignore[assignment]
            if e.kind in TURN_LINES:
                p = self.index[e.nick]
                if self.last_turn[p] < 0:
                    self.last_turn[p] = j
        self.initial = nxt

    def _prepare_lost_turns(self) -> None:
        """Map plays to the players who challenged them without success (double rule), from
        each challenger's later pass noted ``#unsuccessful-challenge`` (Macondo). The play is
        one made between the challenger's previous real turn and that pass; each play can be
        challenged once, so passes take the earliest play still free (interval matching)."""
        self.withdrawn: set[int] = set()
        for j, e in enumerate(self.events):
            if e.kind is LineKind.WITHDRAWN:
                k = withdrawn_play(self.events, j, e.nick)
                if k is not None:
                    self.withdrawn.add(k)
        self.challenger_of: dict[int, int] = {}
        if self.rules.challenge_rule is not ChallengeRule.DOUBLE:
            return
        events = self.events

        def lost(k: int) -> bool:
            return events[k].kind is LineKind.PASS and events[k].tagged

        for j, e in enumerate(events):
            if not lost(j):
                continue
            c = self.index[e.nick]
            prev = j - 1
            while prev >= 0 and not (
                events[prev].kind in TURN_LINES and self.index[events[prev].nick] == c
            ):
                prev -= 1
            start = prev + 1
            if prev >= 0 and lost(prev):
                # a challenge made after that lost turn may concern the play just before it
                q = prev
                while q >= 0 and lost(q):
                    q -= 1
                if q >= 0 and events[q].kind is LineKind.PLAY:
                    start = q
            for i in range(start, j):
                ei = events[i]
                if (
                    ei.kind is LineKind.PLAY
                    and self.index[ei.nick] != c
                    and i not in self.challenger_of
                    and i not in self.withdrawn
                ):
                    self.challenger_of[i] = c
                    break

    def _new_game(self) -> Game:
        names = [p.name or p.nick for p in self.players]
        if len(set(names)) != len(names) or any(not n.strip() for n in names):
            names = [p.nick for p in self.players]
        first_turn = next((e for e in self.events if e.kind in TURN_LINES), None)
        first = self.index[first_turn.nick] if first_turn else 0
        try:
            game = None
            self.exact = False
            if self.record.seed is not None and self.record.first_given:
                game = Game(self.rules, None, names, seed=self.record.seed, first=first)
                self.exact = True
            elif self.record.seed is not None:
                candidate = Game(self.rules, None, names, seed=self.record.seed)
                if candidate.first == first:
                    game, self.exact = candidate, True
            if game is None:
                game = Game(self.rules, None, names, seed=self.record.seed, first=first)
        except (ValueError, IllegalMove) as exc:
            raise GcgError(str(exc), self.record.players[-1].line) from None
        self.judge = _Judge()
        game.lexicon = self.judge
        self.rng = _ScriptedRandom(game)
        self.rng.setstate(game._rng.getstate())
        game._rng = self.rng
        if not self.exact:
            line = self.events[0].line if self.events else None
            for p in range(self.n):
                text = self.initial[p]
                if text is not None:
                    self._hold(game, p, text, line)
        return game

    # -- helpers

    def _tiles(self, text: str, line: int) -> list[int]:
        try:
            return rack_tiles(self.alphabet, text, self.aliases)
        except TileTextError as exc:
            raise GcgError(str(exc), line) from None

    def _hold(
        self,
        game: Game,
        p: int,
        text: str,
        line: int | None,
        later: str | None = None,
        used: Sequence[int] = (),
    ) -> None:
        """Make player p's rack hold the tiles of ``text``: exactly those, or — when ``text``
        lists fewer tiles than the player holds — those and others. liwords and annotated
        files list only the tiles a player played, passed or exchanged with
        (``>darrell: AA -`` with seven on the rack), so a short rack is what is known, not
        the whole rack. The others are the ones the player's next rack (``later``) shows
        kept, after the tiles the move ``used``; then the tiles already held; then the bag's."""
        listed = self._tiles(text, line or 0)
        current = game.rack(p).tiles()
        if len(listed) >= len(current):
            self._force(game, p, text, line, listed)
            return
        if not Counter(listed) - Counter(current):
            return  # the rack already holds them
        kept = Counter(listed) - Counter(used)
        candidates: list[int] = []
        if later:
            candidates += (Counter(self._tiles(later, line or 0)) - kept).elements()
        candidates += list((Counter(current) - Counter(listed)).elements())
        free = Counter(game.bag_tiles()) + Counter(current) - Counter(listed)
        candidates += sorted(free.elements())
        wanted = list(listed)
        for t in candidates:
            if len(wanted) == len(current):
                break
            if free[t] > 0:
                wanted.append(t)
                free[t] -= 1
        self._force(game, p, text, line, wanted)

    def _force(
        self, game: Game, p: int, text: str, line: int | None, tiles: list[int] | None = None,
        protected: Sequence[int] = (),
    ) -> None:
        """Make player p's rack ``text`` (or ``tiles``, its completion), taking tiles from the
        bag — or, if another player holds them (their rack drawn at random in this replay),
        swapping them out; never from the ``protected`` players, whose racks the file gives
        too (taking an M from one rack the file gives to complete another gave it a blank)."""
        wanted = self._tiles(text, line or 0) if tiles is None else tiles
        current = game.rack(p).tiles()
        if Counter(current) == Counter(wanted):
            return
        if self.exact:
            self._leave_seeded_course(game, p, line)
        if len(wanted) > game.rules.rack_size:
            raise GcgError(
                f"rack {text} has {len(wanted)} tiles; a rack holds {game.rules.rack_size}", line
            )
        try:
            game.set_rack(p, wanted)
            return
        except IllegalMove:
            pass
        game.set_rack(p, [])
        need = Counter(wanted) - Counter(game.bag_tiles())
        for o in range(self.n):
            if o == p or o in protected or not need:
                continue
            orack = Counter(game.rack(o).tiles())
            take = orack & need
            if not take:
                continue
            spare = Counter(game.bag_tiles()) - Counter(wanted)
            replacement: list[int] = []
            for t in sorted(spare.elements()):
                if len(replacement) == sum(take.values()):
                    break
                replacement.append(t)
            if len(replacement) < sum(take.values()):
                break
            game.set_rack(o, list((orack - take).elements()) + replacement)
            need -= take
        try:
            game.set_rack(p, wanted)
        except IllegalMove:
            raise GcgError(
                f"rack {text}: these tiles are not all left in the bag and on the racks", line
            ) from None

    def _leave_seeded_course(self, game: Game, p: int, line: int | None) -> None:
        """The record's racks differ from the seeded ones: from now on draws are scripted, so
        every other player's rack must hold what the file shows now, or a seeded rack could keep
        a tile that the file has someone draw."""
        self.exact = False
        now = self.after[self.at - 1] if self.at > 0 else self.initial
        for o in range(self.n):
            rack = now[o]
            if o != p and rack is not None:
                self._force(game, o, rack, line)

    def _collect(self) -> list[Event]:
        new = self.game.history[self.hist :]
        self.hist = len(self.game.history)
        return [e for e in new if e.kind is not EventKind.ACCEPT]

    def _compare(self, ev: GcgEvent, got: Event, what: str, total: int | None = None) -> None:
        """Check the line against the game's event: its racks, then (unless scores are not
        checked) its score and its running total (``total``, else the event's)."""
        self._attach_notes(ev, got)
        if (
            ev.rack is not None
            and ev.kind not in TURN_LINES
            and ev.kind is not LineKind.END_RACK_POINTS
        ):
            self._compare_rack(ev, got.rack, partial=ev.kind is LineKind.WITHDRAWN)
        if ev.kind is LineKind.END_RACK_POINTS:
            want = Counter(self._tiles(ev.tiles, ev.line))
            if Counter(got.other_racks) != want:
                raise GcgError(
                    f"the tiles left are {self._fmt(got.other_racks) or 'none'}, "
                    f"not ({ev.tiles}) as recorded",
                    ev.line,
                )
        if not self.check_scores:
            return
        if got.score != ev.score and ev.score_given:
            raise GcgError(
                f"{what} scores {signed(got.score)}, not {signed(ev.score)} as recorded", ev.line
            )
        total = got.total if total is None else total
        if total != ev.total:
            raise GcgError(f"{ev.nick}'s total is {total}, not {ev.total} as recorded", ev.line)

    def _attach_notes(self, ev: GcgEvent, got: Event) -> None:
        """Keep the line's notes on the game's event (the tag is the writer's to add)."""
        notes = [n for n in ev.notes if n.strip() != UNSUCCESSFUL_CHALLENGE]
        if not notes:
            return
        history = self.game.history
        for k in range(len(history) - 1, -1, -1):
            if history[k] is got:
                history[k] = replace(got, note="\n".join(notes))
                return

    def _fmt(self, tiles: Sequence[int]) -> str:
        return format_tiles(self.alphabet, sorted(tiles, key=lambda t: (t == 0, t)))

    def _describe(self, e: Event) -> str:
        nick = self.players[e.player].nick
        kinds = {
            EventKind.END_RACK_POINTS: "end-rack points",
            EventKind.END_RACK_PENALTY: "an end-rack penalty",
            EventKind.TIME_PENALTY: "a time penalty",
            EventKind.LOST_TURN: "a lost turn (pass)",
            EventKind.CHALLENGE_BONUS: "a challenge bonus",
            EventKind.CHALLENGE_PENALTY: "a challenge penalty",
            EventKind.WITHDRAWN: "a withdrawal",
        }
        return f"{kinds.get(e.kind, e.kind.value)} for {nick} ({signed(e.score)})"

    def _act(self, line: int, action: Any, *args: Any, **kwargs: Any) -> None:
        try:
            action(*args, **kwargs)
        except IllegalMove as exc:
            raise GcgError(str(exc), line) from None
        finally:
            self.rng.queue.clear()

    def _settle_finals(self, i: int, actor: int | None) -> None:
        """Players with no turns left get the racks the end of the file shows."""
        for o in range(self.n):
            if o == actor or self.last_turn[o] > i:
                continue
            text = self.after[i][o] if i >= 0 else self.initial[o]
            if text is not None:
                self._force(self.game, o, text, self.events[i].line if i >= 0 else None)

    def _compare_rack(self, ev: GcgEvent, rack: Sequence[int], partial: bool = False) -> None:
        """Check the line's rack against the player's. With ``partial`` (a ``--`` line, a
        lost turn's pass) the line may list only the tiles its annotator knew (Ather's
        ``JOT --`` with seven on the rack): those must be on the rack, not all of it."""
        if ev.rack is None:
            return
        listed = Counter(self._tiles(ev.rack, ev.line))
        if partial and listed.total() < len(rack):
            if listed - Counter(rack):
                raise GcgError(
                    f"{ev.nick}'s rack is {self._fmt(rack) or 'empty'}, which does not hold "
                    f"{ev.rack} as recorded",
                    ev.line,
                )
            return
        if listed != Counter(rack):
            raise GcgError(
                f"{ev.nick}'s rack is {self._fmt(rack) or 'empty'}, not {ev.rack} as recorded",
                ev.line,
            )
