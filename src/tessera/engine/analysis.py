"""Game analysis: for every turn of a recorded game, the static best moves and the equity the
move played gave away, and with a simulation (``sim=SimSettings(...)``, ``tessera analyze
--sim``) the best move by simulation and the win probability the move played gave away.

The position before each turn is rebuilt by replaying the GCG file up to it
(:func:`tessera.formats.gcg.replay` with ``turns=``); the mover's rack is the one the file
gives on that turn's line. Moves are ranked by :class:`~tessera.engine.StaticPlayer`'s
equity. A play that is not among the generated moves (a phony, or a rack the file does not
give) is reported as such rather than guessed at. The simulation runs on the static best
candidates plus the move played (:func:`tessera.engine.simulation.simulate`).

A turn lost to a challenge is not a choice the player made, so it is charged nothing: a play
challenged off (R5.3, the ``--`` line after it) is reported as a phony withdrawn, with the
moves that were there, and the pass an unsuccessful challenge cost under the double rule
(R5.4a, a pass noted ``#unsuccessful-challenge``) as a turn lost to the challenge, not as a
pass chosen with 36 points of equity given away.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

from tessera.board import Board
from tessera.formats import gcg
from tessera.game import Game, GameState
from tessera.lexicon import Lexicon
from tessera.move import Exchange, Move, NotationError, Pass, Play, parse_move
from tessera.tiles import Alphabet, TileError, face

from .players import RankedMove, StaticPlayer
from .registry import get_player
from .simulation import SimulationError, same_move, simulate

WITHDRAWN = "withdrawn"  # a phony challenged off: the tiles went back, the turn was lost (R5.3)
LOST_TURN = "lost_turn"  # the turn an unsuccessful challenge cost the challenger (R5.4a)
WITHDRAWN_NOTE = "phony withdrawn: the play was challenged off and the turn lost (R5.3)"
LOST_TURN_NOTE = "turn lost to an unsuccessful challenge (R5.4a): no move was chosen"


class AnalysisError(ValueError):
    """A game file that cannot be analysed (unreadable, or its moves do not replay)."""


@dataclass(frozen=True)
class Candidate:
    move: str
    score: int
    equity: float


@dataclass(frozen=True)
class SimMove:
    """A candidate as the simulation ranked it: its win % and mean equity over the deals."""

    move: str
    score: int
    win_pct: float
    equity: float


@dataclass
class TurnAnalysis:
    number: int
    player: str
    rack: str | None
    played: str
    score: int
    equity: float | None  # None: the move played is not among the generated moves
    best: list[Candidate] = field(default_factory=list)
    equity_lost: float | None = None
    note: str = ""
    sim_best: str | None = None  # the best move by simulation
    best_win_pct: float | None = None  # its win %
    win_pct: float | None = None  # the win % of the move played
    win_lost: float | None = None  # percentage points
    sim_moves: list[SimMove] = field(default_factory=list)  # the best by simulation, first
    sim_iterations: int | None = None  # deals the simulation played
    challenge: str = ""  # a turn lost to a challenge: WITHDRAWN or LOST_TURN, else ""


@dataclass(frozen=True)
class SimSettings:
    """How ``analyze --sim`` simulates each turn (see :func:`simulate`)."""

    time_limit: float | None = 1.0
    iterations: int | None = None
    plies: int = 2
    candidates: int = 10
    threads: int = 1
    seed: int | None = None


@dataclass
class Analysis:
    file: str
    player: str
    turns: list[TurnAnalysis]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def total_lost(self) -> dict[str, float]:
        """Equity lost per player over the game (turns that could be analysed)."""
        out: dict[str, float] = {}
        for t in self.turns:
            if t.equity_lost is not None:
                out[t.player] = out.get(t.player, 0.0) + t.equity_lost
        return out

    @property
    def total_win_lost(self) -> dict[str, float]:
        """Win percentage points lost per player over the simulated turns."""
        out: dict[str, float] = {}
        for t in self.turns:
            if t.win_lost is not None:
                out[t.player] = out.get(t.player, 0.0) + t.win_lost
        return out


def move_text(move: Move, alphabet: Alphabet, board: Board) -> str:
    """A move as people write it: ``8D QUI(T)E``, ``-ABC``, ``pass``."""
    if isinstance(move, Play):
        return move.human(alphabet, board)
    if isinstance(move, Exchange):
        return f"-{alphabet.format(move.tiles)}" if move.tiles else f"-{move.n}"
    return "pass"


def analyze_record(
    record: gcg.GcgGame,
    lexicon: Lexicon,
    *,
    rules: str | None = None,
    top: int = 3,
    player: str = "static",
    name: str = "",
    sim: SimSettings | None = None,
) -> Analysis:
    """Analyse a read GCG record, turn by turn (and simulate each turn with ``sim``)."""
    turns = [t.analysis for t in analyze_turns(
        record, lexicon, rules=rules, top=top, player=player, sim=sim
    )]
    return Analysis(name, player, turns)


@dataclass(frozen=True)
class AnalysedTurn:
    """One turn's analysis with what it was made from: the file's line and the position
    before the turn (the game replayed up to it)."""

    line: gcg.GcgEvent
    before: Game
    analysis: TurnAnalysis


def turn_lines(record: gcg.GcgGame) -> list[gcg.GcgEvent]:
    """The record's turns: its plays, passes and exchanges, in order."""
    return [e for e in record.events if e.kind in gcg.TURN_LINES]


def analyze_turns(
    record: gcg.GcgGame,
    lexicon: Lexicon,
    *,
    rules: str | None = None,
    top: int = 3,
    player: str = "static",
    sim: SimSettings | None = None,
) -> Iterator[AnalysedTurn]:
    """The turns of :func:`analyze_record`, one at a time, each with its position (what
    ``tessera analyze`` and the web app's game review both show)."""
    bot = _ranking_player(player, lexicon)
    lines = turn_lines(record)
    if not lines:
        raise AnalysisError("the game has no turns to analyse")
    for i in range(len(lines)):
        yield _turn(record, lines, i, lexicon, rules, bot, top, sim)


def analyze_turn(
    record: gcg.GcgGame,
    lexicon: Lexicon,
    number: int,
    *,
    rules: str | None = None,
    top: int = 3,
    player: str = "static",
    sim: SimSettings | None = None,
) -> AnalysedTurn:
    """Turn ``number`` (from 1) of :func:`analyze_turns` alone: the same analysis, without
    the turns before it (the web app's review simulates one turn a request)."""
    lines = turn_lines(record)
    if not 1 <= number <= len(lines):
        raise AnalysisError(f"the game has turns 1 to {len(lines)}, not {number}")
    return _turn(record, lines, number - 1, lexicon, rules, _ranking_player(player, lexicon),
                 top, sim)


def _ranking_player(player: str, lexicon: Lexicon) -> StaticPlayer:
    bot = get_player(player, lexicon)
    if not isinstance(bot, StaticPlayer):  # pragma: no cover - get_player's static names
        raise AnalysisError(f"{player!r} cannot rank moves")
    return bot


def _turn(
    record: gcg.GcgGame, lines: Sequence[gcg.GcgEvent], i: int, lexicon: Lexicon,
    rules: str | None, bot: StaticPlayer, top: int, sim: SimSettings | None,
) -> AnalysedTurn:
    """The analysis of ``lines[i]``, on the game replayed up to it."""
    try:
        game = gcg.replay(record, rules, lexicon, turns=i)
    except gcg.GcgError as exc:
        raise AnalysisError(f"cannot replay the game up to turn {i + 1}: {exc}") from None
    analysis = _analyze_turn(i + 1, lines[i], game, bot, top, sim, _lost_to(record, lines[i]))
    return AnalysedTurn(lines[i], game, analysis)


def _lost_to(record: gcg.GcgGame, line: gcg.GcgEvent) -> str:
    """How a turn was lost to a challenge: :data:`WITHDRAWN` for a play a later ``--`` line
    withdraws, :data:`LOST_TURN` for a pass noted as an unsuccessful challenge, else ""."""
    if line.kind is gcg.LineKind.PASS and line.tagged:
        return LOST_TURN
    if line.kind is not gcg.LineKind.PLAY:
        return ""
    events = record.events
    at = next(j for j, e in enumerate(events) if e is line)
    for k in range(at + 1, len(events)):
        e = events[k]
        if e.kind is gcg.LineKind.WITHDRAWN and gcg.withdrawn_play(events, k, e.nick) == at:
            return WITHDRAWN
        if e.kind in gcg.TURN_LINES and e.nick == line.nick:
            break  # the player's next turn: the play stood
    return ""


def _analyze_turn(
    number: int, line: gcg.GcgEvent, game: Game, bot: StaticPlayer, top: int,
    sim: SimSettings | None = None, lost_to: str = "",
) -> TurnAnalysis:
    alphabet = game.alphabet
    played: Move
    if line.kind is gcg.LineKind.PLAY:
        try:
            played = parse_move(f"{line.position} {line.word}", alphabet, game.board)
        except NotationError as exc:
            raise AnalysisError(f"line {line.line}: {exc}") from None
        played_text = f"{line.position} {line.word}"
    elif line.kind is gcg.LineKind.EXCHANGE:
        tiles = tuple(alphabet.parse(line.tiles)) if line.tiles else ()
        played = Exchange(tiles, None if tiles else line.count)
        played_text = f"-{line.tiles or line.count}"
    else:
        played = Pass()
        played_text = "pass"
    result = TurnAnalysis(number, line.nick, line.rack, played_text, line.score, None)
    result.challenge = lost_to
    if lost_to == LOST_TURN:  # nothing was chosen, so nothing is ranked or charged
        result.note = LOST_TURN_NOTE
        return result
    if not line.rack:
        result.note = "rack not recorded: no alternatives"
        return result
    if game.state is not GameState.PLAYING:
        result.note = "the game was already over here"
        return result
    try:
        rack = tuple(alphabet.parse(line.rack))
    except TileError as exc:
        raise AnalysisError(f"line {line.line}: rack {line.rack!r}: {exc}") from None
    mover = game.to_move
    view = game.view(mover)
    view = _with_rack(view, rack)
    ranked: list[RankedMove] = bot.ranked(view, top=None)
    result.best = [
        Candidate(move_text(r.move, game.alphabet, game.board), r.score, round(r.equity, 2))
        for r in ranked[:top]
    ]
    if lost_to == WITHDRAWN:  # the moves that were there; the phony is charged nothing
        result.note = WITHDRAWN_NOTE
        return result
    match = next((r for r in ranked if same_move(r.move, played)), None)
    if match is None:
        result.note = (
            "the move played is not a valid move here (a phony, or exchange of unknown tiles)"
        )
        return result
    result.equity = round(match.equity, 2)
    result.equity_lost = round(ranked[0].equity - match.equity, 2) if ranked else 0.0
    if sim is not None:
        _simulate_turn(result, number, view, game, bot, ranked, match.move, sim, top)
    return result


def _simulate_turn(
    result: TurnAnalysis, number: int, view: Any, game: Game, bot: StaticPlayer,
    ranked: Sequence[RankedMove], played: Move, sim: SimSettings, top: int,
) -> None:
    """The best moves by simulation and the win % the move played gave away."""
    cands = [r.move for r in ranked[: sim.candidates]]
    if not any(same_move(m, played) for m in cands):
        cands.append(played)
    try:
        res = simulate(
            view, sim.plies, sim.iterations, sim.time_limit, sim.threads, cands,
            None if sim.seed is None else sim.seed + number, lexicon=bot.lexicon,
            leaves=bot.leaves_for(view.rules), choose_z=None,  # the best by simulation: the leader
        )
    except SimulationError as exc:
        result.note = f"not simulated: {exc}"
        return
    mine = next(c for c in res.candidates if same_move(c.move, played))
    result.sim_best = move_text(res.best.move, game.alphabet, game.board)
    result.sim_moves = [
        SimMove(move_text(c.move, game.alphabet, game.board), c.score, round(c.win_pct, 2),
                round(c.equity, 2))
        for c in res.candidates[:top]
    ]
    result.sim_iterations = res.iterations
    result.best_win_pct = round(res.best.win_pct, 2)
    result.win_pct = round(mine.win_pct, 2)
    result.win_lost = round(res.best.win_pct - mine.win_pct, 2)


def _with_rack(view: Any, rack: Sequence[int]) -> Any:
    """The view with the rack the file gives (and unseen counts to match)."""
    from dataclasses import replace

    unseen = list(view.unseen)
    for t in view.rack:
        unseen[face(t)] += 1
    for t in rack:
        unseen[face(t)] -= 1
    return replace(view, rack=tuple(face(t) for t in rack), unseen=tuple(unseen))


def analyze_file(
    path: Path, lexicon: Lexicon, *, rules: str | None = None, top: int = 3,
    player: str = "static", sim: SimSettings | None = None,
) -> Analysis:
    """Read and analyse a GCG file."""
    try:
        record = gcg.load(path)
    except (OSError, gcg.GcgError) as exc:
        raise AnalysisError(f"{path}: {exc}") from None
    return analyze_record(
        record, lexicon, rules=rules, top=top, player=player, name=str(path), sim=sim
    )


def render_table(analysis: Analysis, out: TextIO) -> None:
    """The analysis as a table (rich, plain when ``out`` is not a terminal)."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    simulated = any(t.sim_best is not None for t in analysis.turns)
    kind = "static and simulation" if simulated else "static"
    table = Table(title=f"{analysis.file} — {kind} analysis ({analysis.player})")
    columns = ["#", "player", "rack", "played", "score", "equity", "lost", "best moves"]
    if simulated:
        columns += ["sim best", "win %", "win lost"]
    for col in columns:
        numeric = col in ("#", "score", "equity", "lost", "win %", "win lost")
        table.add_column(col, justify="right" if numeric else "left")
    for t in analysis.turns:
        best = "; ".join(f"{c.move} {c.score} ({c.equity:+.1f})" for c in t.best)
        if t.note:  # on a line of its own, so a narrow table folds it rather than crops it
            best = f"{best}\n[{t.note}]" if best else f"[{t.note}]"
        row = [  # escaped: [CH]-style tiles and notes are text, not Rich markup
            str(t.number), escape(t.player), escape(t.rack or "?"), escape(t.played),
            str(t.score),
            "" if t.equity is None else f"{t.equity:.1f}",
            "" if t.equity_lost is None else f"{t.equity_lost:.1f}",
            escape(best),
        ]
        if simulated:
            row += [
                escape(t.sim_best or ""),
                "" if t.win_pct is None else f"{t.win_pct:.1f}",
                "" if t.win_lost is None else f"{t.win_lost:.1f}",
            ]
        table.add_row(*row)
    console = Console(file=out, width=(200 if simulated else 160) if not out.isatty() else None)
    console.print(table)
    totals = analysis.total_lost
    if totals:
        console.print(
            "equity lost: " + ", ".join(f"{p} {v:.1f}" for p, v in sorted(totals.items()))
        )
    lost = analysis.total_win_lost
    if lost:
        console.print(
            "win % lost: " + ", ".join(f"{p} {v:.1f}" for p, v in sorted(lost.items()))
        )


__all__ = [
    "AnalysedTurn",
    "Analysis",
    "AnalysisError",
    "Candidate",
    "SimMove",
    "SimSettings",
    "TurnAnalysis",
    "analyze_file",
    "analyze_record",
    "analyze_turn",
    "analyze_turns",
    "move_text",
    "render_table",
    "turn_lines",
]
