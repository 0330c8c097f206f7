"""Game analysis: for every turn of a recorded game, the static best moves and the equity the
move played gave away.

The position before each turn is rebuilt by replaying the GCG file up to it
(:func:`tessera.formats.gcg.replay` with ``turns=``); the mover's rack is the one the file
gives on that turn's line. Moves are ranked by :class:`~tessera.engine.StaticPlayer`'s
equity. A play that is not among the generated moves (a phony, or a rack the file does not
give) is reported as such rather than guessed at.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

from tessera.formats import gcg
from tessera.game import Game, GameState
from tessera.lexicon import Lexicon
from tessera.move import Exchange, Move, NotationError, Pass, Play, parse_move
from tessera.tiles import TileError, face

from .players import RankedMove, StaticPlayer, get_player


class AnalysisError(ValueError):
    """A game file that cannot be analysed (unreadable, or its moves do not replay)."""


@dataclass(frozen=True)
class Candidate:
    move: str
    score: int
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


def _text(move: Move, game: Game) -> str:
    alphabet = game.alphabet
    if isinstance(move, Play):
        return move.human(alphabet, game.board)
    if isinstance(move, Exchange):
        return f"-{alphabet.format(move.tiles)}" if move.tiles else f"-{move.n}"
    return "pass"


def _same(a: Move, b: Move) -> bool:
    if isinstance(a, Play) and isinstance(b, Play):
        return a == b
    if isinstance(a, Exchange) and isinstance(b, Exchange):
        return sorted(face(t) for t in a.tiles) == sorted(face(t) for t in b.tiles)
    return isinstance(a, Pass) and isinstance(b, Pass)


def analyze_record(
    record: gcg.GcgGame,
    lexicon: Lexicon,
    *,
    rules: str | None = None,
    top: int = 3,
    player: str = "static",
    name: str = "",
) -> Analysis:
    """Analyse a read GCG record, turn by turn."""
    bot = get_player(player, lexicon)
    if not isinstance(bot, StaticPlayer):  # pragma: no cover - get_player's static names
        raise AnalysisError(f"{player!r} cannot rank moves")
    turn_lines = [e for e in record.events if e.kind in gcg.TURN_LINES]
    if not turn_lines:
        raise AnalysisError("the game has no turns to analyse")
    out: list[TurnAnalysis] = []
    for i, line in enumerate(turn_lines):
        try:
            game = gcg.replay(record, rules, lexicon, turns=i)
        except gcg.GcgError as exc:
            raise AnalysisError(f"cannot replay the game up to turn {i + 1}: {exc}") from None
        out.append(_analyze_turn(i + 1, line, game, bot, top))
    return Analysis(name, player, out)


def _analyze_turn(
    number: int, line: gcg.GcgEvent, game: Game, bot: StaticPlayer, top: int
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
    result.best = [Candidate(_text(r.move, game), r.score, round(r.equity, 2))
                   for r in ranked[:top]]
    match = next((r for r in ranked if _same(r.move, played)), None)
    if match is None:
        result.note = (
            "the move played is not a valid move here (a phony, or exchange of unknown tiles)"
        )
        return result
    result.equity = round(match.equity, 2)
    result.equity_lost = round(ranked[0].equity - match.equity, 2) if ranked else 0.0
    return result


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
    player: str = "static",
) -> Analysis:
    """Read and analyse a GCG file."""
    try:
        record = gcg.load(path)
    except (OSError, gcg.GcgError) as exc:
        raise AnalysisError(f"{path}: {exc}") from None
    return analyze_record(record, lexicon, rules=rules, top=top, player=player, name=str(path))


def render_table(analysis: Analysis, out: TextIO) -> None:
    """The analysis as a table (rich, plain when ``out`` is not a terminal)."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"{analysis.file} — static analysis ({analysis.player})")
    for col in ("#", "player", "rack", "played", "score", "equity", "lost", "best moves"):
        numeric = col in ("#", "score", "equity", "lost")
        table.add_column(col, justify="right" if numeric else "left")
    for t in analysis.turns:
        best = "; ".join(f"{c.move} {c.score} ({c.equity:+.1f})" for c in t.best)
        if t.note:  # on a line of its own, so a narrow table folds it rather than crops it
            best = f"{best}\n[{t.note}]" if best else f"[{t.note}]"
        table.add_row(  # escaped: [CH]-style tiles and notes are text, not Rich markup
            str(t.number), escape(t.player), escape(t.rack or "?"), escape(t.played),
            str(t.score),
            "" if t.equity is None else f"{t.equity:.1f}",
            "" if t.equity_lost is None else f"{t.equity_lost:.1f}",
            escape(best),
        )
    console = Console(file=out, width=160 if not out.isatty() else None)
    console.print(table)
    totals = analysis.total_lost
    if totals:
        console.print(
            "equity lost: " + ", ".join(f"{p} {v:.1f}" for p, v in sorted(totals.items()))
        )


__all__ = [
    "Analysis",
    "AnalysisError",
    "Candidate",
    "TurnAnalysis",
    "analyze_file",
    "analyze_record",
    "render_table",
]
