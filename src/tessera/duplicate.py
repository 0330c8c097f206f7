"""Duplicate (RULES.md R8.4, FISF-style): every player plays the same rack on the same board.

A :class:`DuplicateGame` runs rounds. Each round the arbiter (the game) draws one rack for
everyone (R8.4.4); each player submits one play, scored at once against the board (R8.4.2);
when the round closes, the master move — the highest-scoring legal play, found by the
compiled move generator (:func:`tessera.movegen.generate_moves`) — goes on the board
(R8.4.3), and the next rack is drawn from its unused tiles and the bag.

How the rules are read (the Cfg items are :class:`tessera.rules.DuplicateSettings`):

* Submissions (R8.4.2). A play scores what it scores on the board, the 50-point bonus
  included. It scores 0 when its words are not all in the word list, when it is not a legal
  placement of the round's rack, when its text cannot be read, when it is a pass or an
  exchange (duplicate has neither), when it comes after the round's time
  (``round_seconds``, measured by the caller as ``elapsed_ms``), and — with a declared score
  — as ``misreport`` says: ``zero`` scores a wrong declared score 0;
  ``as_reported_under_double_over`` (poslfit) scores an under-reported play as reported and
  an over-reported one as its real score less twice the excess, never below 0. A player who
  submits nothing by the close scores 0. Each player submits once a round.
* The master move (R8.4.3). Ties between plays of the top score are broken by
  ``top_tiebreak``: ``random`` picks one with the game's seeded generator;
  ``avoid_blanks_open`` takes the plays with the fewest blanks, then the one that leaves the
  board most open — the most empty squares next to a tile after it is placed — then the
  first in the generator's fixed order.
* Racks (R8.4.4). The top's unused tiles stay; the rack is filled up to the rack size. It
  must hold the minimum vowels and consonants of ``min_vc_by_round`` for its round number
  (``(15, 2, 2), (None, 1, 1)``: 2 and 2 in rounds 1–15, then 1 and 1). A vowel is a letter
  of ``vowels``; every other letter is a consonant; a blank is neither
  (``blank_counts_as="none"``) or counts as whichever the rack lacks (``"either"``). A draw
  that fails goes back into the bag whole — the kept tiles too — and seven fresh tiles are
  drawn, until one passes.
* The end (R8.4.5): when the tiles left (bag and kept tiles) cannot make a rack with the
  minimum mix, when every tile is used, or when the drawn rack has no legal play. There is
  no rack adjustment.
* Results (R8.4.6): each player's total, the total of the tops, the percentage of it and
  the "negative" (total − tops). ``solo_bonus`` points go to a player who alone scores the
  top in a round (with two players or more; FISF's bonus is unverified, 0 by default).

Refused requests raise :class:`~tessera.legality.IllegalMove` and change nothing: an
unknown player, a second submission, a submission for a round already closed, anything
once the game is over (but the arbiter's :meth:`DuplicateGame.set_rack` in place of a drawn
rack that had no play).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from .board import EMPTY, Board
from .legality import IllegalMove, Reason, check_play, invalid_words
from .move import Move, NotationError, Play, format_move, parse_move
from .rules import DuplicateSettings, Rules, preset
from .scoring import score_breakdown
from .tiles import BLANK, Alphabet, Rack, TileError, face, is_blank

if TYPE_CHECKING:
    from .lexicon import Lexicon

PlayerRef = int | str
# "any number of players" (R8.4.1); the bound keeps a whole game's record within the GCG
# reader's limits (a line per player per round, and a game has at most ~50 rounds)
MAX_PLAYERS = 200


class Verdict(StrEnum):
    """How a submission was judged (R8.4.2)."""

    VALID = "valid"
    INVALID_WORDS = "invalid_words"  # a word not in the word list
    ILLEGAL = "illegal"  # not a legal placement of the round's rack
    NOTATION = "notation"  # unreadable (illegible, incomplete)
    NOT_A_PLAY = "not_a_play"  # a pass or an exchange
    LATE = "late"  # after the round's time
    MISREPORTED = "misreported"  # a wrong declared score (misreport="zero")
    MISSING = "missing"  # nothing submitted by the close


class DuplicateState(StrEnum):
    ROUND_OPEN = "round_open"
    OVER = "over"


class DuplicateEnd(StrEnum):
    """Why a duplicate game ended (R8.4.5)."""

    TILES_USED = "tiles_used"
    NO_LEGAL_DRAW = "no_legal_draw"  # not enough vowels or consonants left for a rack
    NO_PLAY = "no_play"  # the drawn rack has no legal play


@dataclass(frozen=True)
class Submission:
    """One player's play in one round, and what it scored.

    ``text`` is the submission as written (a Move's notation when a Move was given);
    ``move`` the play it names, normalised, when it could be read as one; ``computed`` its
    score on the board when it is a legal play of valid words, else None.
    """

    player: int
    round: int
    text: str
    move: Play | None
    verdict: Verdict
    score: int
    computed: int | None = None
    declared: int | None = None
    elapsed_ms: int | None = None
    message: str = ""

    def __str__(self) -> str:
        what = self.text or "(nothing)"
        note = "" if self.verdict is Verdict.VALID else f" ({self.verdict.value})"
        return f"{what} {self.score:+d}{note}"


@dataclass(frozen=True)
class Round:
    """A closed round: its rack, its master move (``top``, scored), how many plays tied for
    the top score, each player's submission (by seat) and solo bonus, and the failed draws
    that went back before the rack was drawn (R8.4.4)."""

    number: int
    rack: tuple[int, ...]
    top: Play
    tied: int
    submissions: tuple[Submission, ...]
    bonuses: tuple[int, ...]
    rejected: tuple[tuple[int, ...], ...] = ()

    def points(self, player: int) -> int:
        """What ``player`` scored this round: their play and any solo bonus."""
        return self.submissions[player].score + self.bonuses[player]


@dataclass(frozen=True)
class DuplicateResult:
    """Totals (R8.4.6): per player, the points, percentage of ``top_total`` and the negative."""

    names: tuple[str, ...]
    scores: tuple[int, ...]
    top_total: int
    reason: DuplicateEnd | None  # None: the game is still on (standings)

    @property
    def percentages(self) -> tuple[float, ...]:
        if self.top_total <= 0:
            return tuple(0.0 for _ in self.scores)
        return tuple(100 * s / self.top_total for s in self.scores)

    @property
    def negatives(self) -> tuple[int, ...]:
        return tuple(s - self.top_total for s in self.scores)

    @property
    def ranking(self) -> tuple[int, ...]:
        """Seats from the best total down (equal totals keep seat order)."""
        return tuple(sorted(range(len(self.scores)), key=lambda i: -self.scores[i]))

    def __str__(self) -> str:
        lines = [f"top {self.top_total}"]
        pct = self.percentages
        for i in self.ranking:
            lines.append(
                f"{self.names[i]}: {self.scores[i]} ({pct[i]:.2f}%, {self.negatives[i]:+d})"
            )
        return "\n".join(lines)


@dataclass(frozen=True)
class DuplicateView:
    """What one player (or, with ``player`` None, a spectator) may know: the common board
    and rack, closed rounds in full, and of the open round only their own submission and who
    has submitted — never another's open submission or the bag's order."""

    player: int | None
    names: tuple[str, ...]
    rules: Rules
    board: Board
    rack: tuple[int, ...]
    round: int
    state: DuplicateState
    scores: tuple[int, ...]
    top_total: int
    bag_count: int
    submitted: tuple[bool, ...]
    mine: Submission | None
    rounds: tuple[Round, ...]
    result: DuplicateResult | None


# -- racks -----------------------------------------------------------------------------------


def vowel_set(alphabet: Alphabet, vowels: str) -> frozenset[int]:
    """Letter ids counted as vowels: those whose label is made of ``vowels`` letters."""
    wanted = set(vowels.upper())
    return frozenset(
        t for t in range(1, alphabet.size) if set(alphabet.label(t).upper()) <= wanted
    )


def minimum_mix(settings: DuplicateSettings, round_number: int) -> tuple[int, int]:
    """The (vowels, consonants) a rack of this round must hold (R8.4.4)."""
    for last, v, c in settings.min_vc_by_round:
        if last is None or round_number <= last:
            return v, c
    return 0, 0  # unreachable: DuplicateSettings requires a last entry for every round


def _shortfall(tiles: Sequence[int], vowels: frozenset[int], need: tuple[int, int],
               blanks_count: bool) -> bool:
    """True when ``tiles`` cannot supply ``need`` (blanks filling either side if they count)."""
    v = sum(1 for t in tiles if not is_blank(t) and t in vowels)
    b = sum(1 for t in tiles if is_blank(t))
    c = len(tiles) - v - b
    missing = max(0, need[0] - v) + max(0, need[1] - c)
    return missing > (b if blanks_count else 0)


def mix_ok(tiles: Sequence[int], vowels: frozenset[int], need: tuple[int, int],
           blank_counts_as: str) -> bool:
    """Whether a rack holds the minimum mix (R8.4.4)."""
    return not _shortfall(tiles, vowels, need, blank_counts_as == "either")


def draw_rack(
    kept: Sequence[int],
    bag: list[int],
    rng: random.Random,
    *,
    rack_size: int,
    vowels: frozenset[int],
    need: tuple[int, int],
    blank_counts_as: str,
) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]] | None:
    """Draw a round's rack (R8.4.4): ``kept`` plus tiles from ``bag`` up to ``rack_size``;
    a draw without the minimum mix goes back whole (kept tiles too) and ``rack_size`` fresh
    tiles are drawn, until one passes. Returns (rack, failed draws), or None when the tiles
    left cannot make a passing rack (R8.4.5); ``bag`` is changed only on success."""
    pool = list(kept) + bag
    size = min(rack_size, len(pool))
    if size == 0 or sum(need) > size or _shortfall(pool, vowels, need, blank_counts_as == "either"):
        return None
    rejected: list[tuple[int, ...]] = []
    work = list(bag)
    rack = list(kept)
    while True:
        while len(rack) < rack_size and work:
            rack.append(work.pop(rng.randrange(len(work))))
        if mix_ok(rack, vowels, need, blank_counts_as):
            bag[:] = work
            return tuple(rack), tuple(rejected)
        rejected.append(tuple(rack))
        work.extend(rack)
        rack = []


# -- the game --------------------------------------------------------------------------------


class DuplicateGame:
    """A duplicate game: ``DuplicateGame("duplicate", lex, players=["Ann", "Bob"], seed=7)``.

    One player alone plays against the master move. ``lexicon`` is required: it judges the
    submitted words and finds the master moves. ``computers`` marks the seats a computer
    plays, each with the name of the computer that plays it (``{1: "level3"}``, see
    :class:`~tessera.engine.duplicate_players.DuplicateComputer`): the game does not run
    them, it keeps the mark so that its record says who plays.
    """

    def __init__(
        self,
        rules: Rules | str = "duplicate",
        lexicon: Lexicon | None = None,
        players: Sequence[str] = ("Player 1",),
        seed: int | None = None,
        computers: Mapping[int, str] | None = None,
    ) -> None:
        self.rules = preset(rules)
        if self.rules.duplicate is None:
            raise ValueError(
                f"the {self.rules.name} rules have no duplicate settings; use the 'duplicate' "
                "preset or give the rules a DuplicateSettings"
            )
        if lexicon is None:
            raise ValueError("a duplicate game needs a word list: it finds every master move")
        if not 1 <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"a duplicate game takes 1–{MAX_PLAYERS} players, not {len(players)}")
        if len(set(players)) != len(players):
            raise ValueError("player names must be different")
        self.computers: dict[int, str] = _computer_seats(computers or {}, len(players))
        self.settings: DuplicateSettings = self.rules.duplicate
        self.lexicon = lexicon
        self.tileset = self.rules.tileset
        self.alphabet = self.tileset.alphabet
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._rng = random.Random(self.seed)
        self.board = Board(self.rules.layout, self.tileset)
        self._bag = self.tileset.bag()
        self._names = list(players)
        self._vowels = vowel_set(self.alphabet, self.settings.vowels)
        self.rounds: list[Round] = []
        self._scores = [0] * len(players)
        self._top_total = 0
        self.state = DuplicateState.ROUND_OPEN
        self.end_reason: DuplicateEnd | None = None
        self.rack: tuple[int, ...] = ()
        self._rejected: tuple[tuple[int, ...], ...] = ()
        self._tops: list[Play] = []
        self._open: dict[int, Submission] = {}
        self._start_round(())

    # -- lookups -----------------------------------------------------------------------------

    @property
    def players(self) -> list[str]:
        return list(self._names)

    @property
    def num_players(self) -> int:
        return len(self._names)

    @property
    def round(self) -> int:
        """The open round's number (1-based); once over, the number of rounds played + 1."""
        return len(self.rounds) + 1

    @property
    def scores(self) -> list[int]:
        return list(self._scores)

    @property
    def top_total(self) -> int:
        return self._top_total

    @property
    def is_over(self) -> bool:
        return self.state is DuplicateState.OVER

    @property
    def bag_count(self) -> int:
        return len(self._bag)

    def bag_tiles(self) -> list[int]:
        """The bag's contents, sorted (never its order)."""
        return sorted(self._bag)

    @property
    def result(self) -> DuplicateResult | None:
        return self.results() if self.is_over else None

    def results(self) -> DuplicateResult:
        """The totals so far (final once the game is over)."""
        return DuplicateResult(
            tuple(self._names), tuple(self._scores), self._top_total, self.end_reason
        )

    def index(self, player: PlayerRef) -> int:
        """A player's seat from a seat number or a name."""
        if isinstance(player, int) and not isinstance(player, bool):
            if 0 <= player < len(self._names):
                return player
        elif isinstance(player, str) and player in self._names:
            return self._names.index(player)
        raise IllegalMove(Reason.UNKNOWN_PLAYER, f"no player {player!r} in this game")

    def submission(self, player: PlayerRef) -> Submission | None:
        """The player's submission in the open round, if any."""
        return self._open.get(self.index(player))

    @property
    def waiting(self) -> list[int]:
        """Seats that have not submitted in the open round."""
        if self.is_over:
            return []
        return [i for i in range(len(self._names)) if i not in self._open]

    # -- views -------------------------------------------------------------------------------

    def view(self, player: PlayerRef) -> DuplicateView:
        """What ``player`` may know (see :class:`DuplicateView`)."""
        i = self.index(player)
        return self._view(i, self._open.get(i))

    def spectator_view(self) -> DuplicateView:
        return self._view(None, None)

    def _view(self, player: int | None, mine: Submission | None) -> DuplicateView:
        return DuplicateView(
            player=player,
            names=tuple(self._names),
            rules=self.rules,
            board=self.board.copy(),
            rack=self.rack,
            round=self.round,
            state=self.state,
            scores=tuple(self._scores),
            top_total=self._top_total,
            bag_count=len(self._bag),
            submitted=tuple(i in self._open for i in range(len(self._names))),
            mine=mine,
            rounds=tuple(self.rounds),
            result=self.result,
        )

    # -- submissions -------------------------------------------------------------------------

    def submit(
        self,
        player: PlayerRef,
        move: Move | str,
        *,
        declared: int | None = None,
        elapsed_ms: int | None = None,
        round: int | None = None,
    ) -> Submission:
        """Hand in ``player``'s play for the open round (``round``, when given, must be it):
        a Move or its text (``8D QUITE``), with the declared score if the player gave one
        and the time taken. Returns the judged submission (R8.4.2)."""
        i = self.index(player)
        if self.is_over:
            raise IllegalMove(Reason.GAME_OVER, "the game is over")
        if round is not None and round != self.round:
            raise IllegalMove(
                Reason.ROUND_CLOSED,
                f"round {round} is not open; round {self.round} is"
                if round > self.round
                else f"round {round} is closed; round {self.round} is open",
            )
        if i in self._open:
            raise IllegalMove(
                Reason.ALREADY_SUBMITTED,
                f"{self._names[i]} has already submitted a play in round {self.round}",
            )
        if elapsed_ms is not None and elapsed_ms < 0:
            raise ValueError("elapsed time cannot be negative")
        judged = self._judge(i, move, declared, elapsed_ms)
        self._open[i] = judged
        return judged

    def _judge(
        self, player: int, move: Move | str, declared: int | None, elapsed_ms: int | None
    ) -> Submission:
        text = move.strip() if isinstance(move, str) else format_move(move, self.alphabet)

        def verdict(v: Verdict, message: str, play: Play | None = None,
                    computed: int | None = None, score: int = 0) -> Submission:
            return Submission(player, self.round, text, play, v, score, computed, declared,
                              elapsed_ms, message)

        limit = self.settings.round_seconds
        if limit is not None and elapsed_ms is not None and elapsed_ms > limit * 1000:
            return verdict(Verdict.LATE, f"submitted after the round's {limit} seconds")
        rack = Rack(self.alphabet.size, self.rack, alphabet=self.alphabet)
        if isinstance(move, str):
            try:
                move = parse_move(move, self.alphabet, self.board, rack=rack.tiles())
            except NotationError as exc:
                return verdict(Verdict.NOTATION, str(exc))
        if not isinstance(move, Play):
            return verdict(Verdict.NOT_A_PLAY, "duplicate has no passes or exchanges")
        try:
            play, words = check_play(self.board, move, rack, self.rules, self.alphabet)
        except IllegalMove as exc:
            return verdict(Verdict.ILLEGAL, str(exc))
        except (TileError, ValueError) as exc:
            return verdict(Verdict.ILLEGAL, str(exc))
        play = play.with_alphabet(self.alphabet)
        lex = self.lexicon
        bad = invalid_words(words, self.rules, lex.contains, lex.has_anagram)
        if bad:
            texts = ", ".join(self.alphabet.format(w.tiles) for w in bad)
            return verdict(Verdict.INVALID_WORDS, f"not in the word list: {texts}", play)
        computed = score_breakdown(self.board, play, self.rules).total
        play = play.with_score(computed)
        if declared is None or declared == computed:
            return verdict(Verdict.VALID, "", play, computed, computed)
        if self.settings.misreport == "zero":
            return verdict(
                Verdict.MISREPORTED, f"declared {declared}, scores {computed}", play, computed
            )
        if declared < computed:  # as_reported_under_double_over: scored as reported
            return verdict(Verdict.VALID, f"declared {declared} of {computed}", play, computed,
                           max(0, declared))
        excess = declared - computed
        return verdict(Verdict.MISREPORTED, f"declared {declared}, scores {computed}: "
                       f"less twice the excess {excess}", play, computed,
                       max(0, computed - 2 * excess))

    # -- the arbiter -------------------------------------------------------------------------

    def set_rack(self, tiles: str | Sequence[int]) -> None:
        """Announce a known rack for the open round before anyone has submitted (records
        made elsewhere, analysis, lessons): the current rack goes back to the bag and these
        tiles come out of it. The arbiter's rack stands as given: the minimum mix is not
        checked, and the round's failed draws are forgotten. A drawn rack that had no play
        (which ended the game, R8.4.5) may be replaced too: the round opens again."""
        if self.is_over and self.end_reason is not DuplicateEnd.NO_PLAY:
            raise IllegalMove(Reason.GAME_OVER, "the game is over")
        if self._open:
            raise IllegalMove(Reason.ROUND_CLOSED, "the rack is fixed once a play is submitted")
        if isinstance(tiles, str):
            try:
                wanted = [face(t) for t in self.alphabet.parse(tiles)]
            except TileError as exc:
                raise IllegalMove(Reason.NOTATION, f"rack {tiles!r}: {exc}") from None
        else:
            wanted = [face(t) for t in tiles]
        if len(wanted) > self.rules.rack_size:
            raise IllegalMove(
                Reason.TOO_MANY_TILES, f"a rack holds at most {self.rules.rack_size} tiles"
            )
        pool = Rack(self.alphabet.size, [*self._bag, *self.rack])
        missing = pool.missing(wanted)
        if missing:
            raise IllegalMove(
                Reason.NOT_ON_RACK,
                f"rack {self.alphabet.format(wanted)}: {self.alphabet.format(missing)} not "
                "among the tiles left",
            )
        self._bag.extend(self.rack)
        for t in wanted:
            self._bag.remove(t)
        self.rack = tuple(Rack(self.alphabet.size, wanted).tiles())
        self._rejected = ()
        self.state, self.end_reason = DuplicateState.ROUND_OPEN, None
        self._tops = self._find_tops()
        if not self._tops:
            self._end(DuplicateEnd.NO_PLAY)

    def tops(self) -> list[Play]:
        """Every play of the top score for the open round, in the generator's order (the
        arbiter's; not for players' eyes while the round is open)."""
        return list(self._tops)

    def close_round(self, *, top: Move | str | None = None) -> Round:
        """End the open round: players who have not submitted score 0, the master move goes
        on the board and the next rack is drawn (or the game ends, R8.4.5). ``top`` names
        the master move among the tied tops (a record's choice); by default the tie-break
        of the rules picks it."""
        if self.is_over:
            raise IllegalMove(Reason.GAME_OVER, "the game is over")
        chosen = self._choose_top(top)
        subs = tuple(
            self._open.get(i) or Submission(i, self.round, "", None, Verdict.MISSING, 0,
                                            message="nothing submitted")
            for i in range(len(self._names))
        )
        best = chosen.score or 0
        finders = [s.player for s in subs if s.score == best and s.verdict is Verdict.VALID]
        bonuses = [0] * len(subs)
        if len(subs) >= 2 and len(finders) == 1:
            bonuses[finders[0]] = self.settings.solo_bonus
        done = Round(self.round, self.rack, chosen, len(self._tops), subs, tuple(bonuses),
                     self._rejected)
        for i in range(len(subs)):
            self._scores[i] += done.points(i)
        self._top_total += best
        self.board.place(chosen.placements)
        kept = Rack(self.alphabet.size, self.rack)
        for t in chosen.tiles_used:
            kept.remove(t)
        self.rounds.append(done)
        self._open = {}
        self._start_round(tuple(kept.tiles()))
        return done

    def _choose_top(self, top: Move | str | None) -> Play:
        tops = self._tops
        # the random tie-break draws even when the top is named (a record's replay), so the
        # replayed game's generator stays in step with the recorded game's
        pick = (
            self._rng.randrange(len(tops))
            if len(tops) > 1 and self.settings.top_tiebreak == "random"
            else 0
        )
        if top is not None:
            if isinstance(top, str):
                try:
                    top = parse_move(top, self.alphabet, self.board, rack=self.rack)
                except NotationError as exc:
                    raise IllegalMove(Reason.NOTATION, str(exc)) from None
            for play in tops:
                if play == top:
                    return play
            raise IllegalMove(
                Reason.NOTATION,
                f"{format_move(top, self.alphabet)} is not a top of this round "
                f"(the top score is {tops[0].score}: {', '.join(map(str, tops[:5]))})",
            )
        if len(tops) == 1:
            return tops[0]
        if self.settings.top_tiebreak == "random":
            return tops[pick]
        fewest = min(_blanks(p) for p in tops)
        plain = [p for p in tops if _blanks(p) == fewest]
        return max(plain, key=lambda p: (self._openness(p), -plain.index(p)))

    def _openness(self, play: Play) -> int:
        """Empty squares next to a tile once ``play`` is on the board."""
        board = self.board.copy()
        board.place(play.placements)
        count = 0
        for r in range(board.rows):
            for c in range(board.cols):
                if board.get(r, c) == EMPTY and any(
                    board.get(r + dr, c + dc) != EMPTY
                    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                ):
                    count += 1
        return count

    def _find_tops(self) -> list[Play]:
        from .movegen import generate_moves

        moves = generate_moves(self.board, list(self.rack), self.lexicon, self.rules)
        plays = [(m, moves.equity(i)) for i, m in enumerate(moves) if isinstance(m, Play)]
        if not plays:
            return []
        best = max(e for _, e in plays)
        return [m.with_alphabet(self.alphabet) for m, e in plays if e == best]

    def _start_round(self, kept: tuple[int, ...]) -> None:
        drawn = draw_rack(
            kept,
            self._bag,
            self._rng,
            rack_size=self.rules.rack_size,
            vowels=self._vowels,
            need=minimum_mix(self.settings, self.round),
            blank_counts_as=self.settings.blank_counts_as,
        )
        if drawn is None:
            self.rack = kept
            self._end(DuplicateEnd.TILES_USED if not kept and not self._bag
                      else DuplicateEnd.NO_LEGAL_DRAW)
            return
        rack, self._rejected = drawn
        self.rack = tuple(Rack(self.alphabet.size, rack).tiles())
        self._tops = self._find_tops()
        if not self._tops:
            self._end(DuplicateEnd.NO_PLAY)

    def _end(self, reason: DuplicateEnd) -> None:
        self.state = DuplicateState.OVER
        self.end_reason = reason
        self._tops = []
        self._open = {}

    def __repr__(self) -> str:
        rack = self.alphabet.text(self.rack)
        return (
            f"<DuplicateGame ({self.rules.name}) round {self.round} rack={rack!r} "
            f"scores={self._scores} top={self._top_total} state={self.state.value}>"
        )


def _computer_seats(computers: Mapping[int, str], players: int) -> dict[int, str]:
    """``computers`` checked: seats of the game, each with a one-word computer name."""
    for seat, name in computers.items():
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise ValueError(f"computer seat {seat!r} is not a seat of the game (0–{players - 1})")
        if not isinstance(name, str) or not name or any(ch.isspace() for ch in name):
            raise ValueError(f"seat {seat}'s computer needs a one-word name, not {name!r}")
    return dict(sorted(computers.items()))


def _blanks(play: Play) -> int:
    return sum(1 for t in play.tiles_used if t == BLANK)


__all__ = [
    "DuplicateEnd",
    "DuplicateGame",
    "DuplicateResult",
    "DuplicateState",
    "DuplicateView",
    "Round",
    "Submission",
    "Verdict",
    "draw_rack",
    "minimum_mix",
    "mix_ok",
    "vowel_set",
]
