"""Rich renderings of what one player may see: the coloured board, rack, scores, unseen tiles
and the last moves.

Everything here is drawn from a :class:`~tessera.game.PlayerView` (DESIGN principle 4), so a
rendering can never show a rack the viewer may not know. ``show_private=False`` draws a
spectator's screen (no rack, no unseen-tile list, which would give the viewer's rack away);
hot-seat games use it between turns and for bot moves.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..board import Board
from ..game import EndReason, Event, EventKind, GameResult, GameState, PlayerView
from ..layouts import Layout
from ..move import Exchange, NotationError, Play
from ..tiles import BLANK, TileSet, is_blank
from .lang import _, ngettext

CELL = 3  # characters per square
SIDE_GAP = 2  # columns between the board and a side panel
SIDE_MIN = 24  # the narrowest side panel beside the board (80 columns leave 27)
WIDE_SIDE = 40  # a side panel this wide has room for everything on one line each

PREMIUM_STYLE: dict[str, str] = {
    "4W": "bold white on dark_red",
    "3W": "bold white on red3",
    "2W": "black on light_pink3",
    "4L": "bold white on navy_blue",
    "3L": "bold white on blue3",
    "2L": "black on sky_blue2",
    ".": "grey50 on dark_olive_green3",
}
START_STYLE = "bold black on light_pink3"
TILE_STYLE = "bold black on wheat1"
BLANK_TILE_STYLE = "bold red3 on wheat1"
LAST_TILE_STYLE = "bold black on gold1"
LAST_BLANK_STYLE = "bold red3 on gold1"
HEADER_STYLE = "bold cyan"
TO_MOVE_STYLE = "bold green"

_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _end_text(reason: EndReason) -> str:
    """Why a game ended, with ``{out}`` (who went out), ``{loser}`` and ``{n}`` to fill."""
    return {
        EndReason.PLAYED_OUT: _("{out} went out"),
        EndReason.SCORELESS_TURNS: _("{n} scoreless turns in a row"),
        EndReason.PASSES: _("everyone passed"),
        EndReason.FINISH_LINE: _("the finish line was reached"),
        EndReason.MAX_OVERTIME: _("a clock ran past the maximum overtime"),
        EndReason.TIMEOUT_FORFEIT: _("{loser} ran out of time"),
        EndReason.TRIPLE_CHALLENGE: _("{loser} lost a triple challenge"),
        EndReason.RESIGNED: _("{loser} resigned"),
        EndReason.ENDED_BY_REQUEST: _("the game was ended after the scoreless turns"),
    }[reason]


def _cell(label: str) -> str:
    return label.center(CELL)[:CELL] if len(label) < CELL else label[:CELL]


def render_board(board: Board, tileset: TileSet, last: Play | None = None) -> Text:
    """The board with coordinates; premium squares coloured and labelled (``3W``, ``2L``),
    the start square starred, blanks in red lower case, the last play's tiles highlighted."""
    layout: Layout = board.layout
    fresh = {(r, c) for r, c, _tile in last.placements} if last is not None else set()
    text = Text(no_wrap=True, overflow="crop")
    text.append("   ")
    for c in range(board.cols):
        text.append(_cell(chr(ord("A") + c)), style=HEADER_STYLE)
    text.append("\n")
    for r in range(board.rows):
        text.append(f"{r + 1:>2} ", style=HEADER_STYLE)
        for c in range(board.cols):
            tile = board[r, c]
            if tile:
                blank = is_blank(tile)
                if (r, c) in fresh:
                    style = LAST_BLANK_STYLE if blank else LAST_TILE_STYLE
                else:
                    style = BLANK_TILE_STYLE if blank else TILE_STYLE
                text.append(_cell(tileset.label(tile)), style=style)
            elif (r, c) == layout.start:
                text.append(_cell("*"), style=START_STYLE)
            else:
                token = layout.premium(r, c)
                text.append(_cell("" if token == "." else token), style=PREMIUM_STYLE[token])
        text.append(f" {r + 1:<2}", style=HEADER_STYLE)
        text.append("\n")
    text.append("   ")
    for c in range(board.cols):
        text.append(_cell(chr(ord("A") + c)), style=HEADER_STYLE)
    return text


def rack_text(tiles: Sequence[int], tileset: TileSet, *, compact: bool = False) -> Text:
    """Rack tiles with their values as subscripts: ``Q₁₀ U₁ ?₀`` (``compact``: without the
    padding inside each tile, for a narrow side panel)."""
    pad = "" if compact else " "
    text = Text()
    for i, t in enumerate(tiles):
        if i:
            text.append(" ")
        text.append(f"{pad}{tileset.label(t)}", style=TILE_STYLE)
        text.append(f"{str(tileset.value(t)).translate(_SUBSCRIPT)}{pad}", style=TILE_STYLE)
    return text


def unseen_text(unseen: Sequence[int], tileset: TileSet) -> Text:
    """Unseen tiles grouped by letter (``AAAA BB ?``), then the vowel/consonant count."""
    groups = [tileset.label(t) * n for t, n in enumerate(unseen) if n > 0 and t != BLANK]
    if unseen[BLANK] > 0:
        groups.append("?" * unseen[BLANK])
    total = sum(unseen)
    text = Text()
    text.append(_("Unseen ({n}):").format(n=total) + " ", style="bold")
    text.append(" ".join(groups) if groups else _("none"))
    return text


def last_play(history: Sequence[Event]) -> Play | None:
    """The tile play that is still on the board from the most recent turn, if any."""
    for e in reversed(history):
        if e.kind is EventKind.PLAY and isinstance(e.move, Play):
            return e.move
        if e.kind in (EventKind.PASS, EventKind.EXCHANGE, EventKind.WITHDRAWN):
            return None
    return None


def play_text(play: Play, tileset: TileSet, board: Board) -> str:
    """Human notation (``8A MES(QUITE)``), or GCG when the board no longer holds the
    played-through tiles."""
    try:
        return play.human(tileset.alphabet, board)
    except NotationError:
        return play.gcg(tileset.alphabet)


def describe_event(
    event: Event,
    names: Sequence[str],
    tileset: TileSet,
    board: Board,
    *,
    public: bool = False,
) -> str:
    """One history entry as a sentence. ``public`` leaves out exchanged tiles even when the
    view knows them (it is the viewer's own exchange, and someone else may be looking)."""
    who = names[event.player]
    kind = event.kind
    move = event.move
    score = f"{event.score:+d}"
    if kind is EventKind.PLAY and isinstance(move, Play):
        return _("{name} played {move} for {score}").format(
            name=who, move=play_text(move, tileset, board), score=event.score
        )
    if kind is EventKind.PASS:
        return _("{name} passed").format(name=who)
    if kind is EventKind.EXCHANGE and isinstance(move, Exchange):
        if move.tiles and not public:
            return ngettext(
                "{name} exchanged {n} tile ({tiles})", "{name} exchanged {n} tiles ({tiles})",
                move.n,
            ).format(name=who, n=move.n, tiles=tileset.format(move.tiles))
        return ngettext(
            "{name} exchanged {n} tile", "{name} exchanged {n} tiles", move.n
        ).format(name=who, n=move.n)
    if kind is EventKind.WITHDRAWN and isinstance(move, Play):
        return _(
            "{name}'s {move} was challenged off ({score}); tiles back on the rack"
        ).format(name=who, move=move.gcg(tileset.alphabet), score=score)
    if kind is EventKind.CHALLENGE_BONUS:
        if event.score:
            return _("the challenge failed: {name}'s play stands, {score} to {name}").format(
                name=who, score=score
            )
        return _("the challenge failed: {name}'s play stands").format(name=who)
    if kind is EventKind.CHALLENGE_PENALTY:
        return _("the challenge failed: {name} {score}").format(name=who, score=score)
    if kind is EventKind.LOST_TURN:
        return _("{name} loses this turn (failed challenge)").format(name=who)
    if kind is EventKind.ACCEPT:
        return _("{name} accepted the play").format(name=who)
    if kind is EventKind.END_RACK_POINTS:
        return _("{name} {score} for the tiles left on other racks").format(
            name=who, score=score
        )
    if kind is EventKind.END_RACK_PENALTY:
        return _("{name} {score} for tiles left ({tiles})").format(
            name=who, score=score, tiles=tileset.format(event.rack)
        )
    if kind is EventKind.TIME_PENALTY:
        return _("{name} {score} for overtime").format(name=who, score=score)
    return f"{who}: {kind.value}"


def _clock(ms: int) -> str:
    sign = "-" if ms < 0 else ""
    s = abs(ms) // 1000
    return f"{sign}{s // 60}:{s % 60:02d}"


def scores_table(view: PlayerView) -> Table:
    """Players, scores, tiles on rack (and clocks), the player to move marked."""
    table = Table.grid(padding=(0, 1))
    table.add_column(width=1)
    table.add_column()
    table.add_column(justify="right")
    table.add_column(style="dim")
    over = view.state is GameState.OVER
    target = view.rules.finish_target(len(view.names))  # R8.3: a race to this score
    for i, name in enumerate(view.names):
        mark = "▶" if not over and i == view.to_move else ""
        count = view.rack_counts[i]
        extra = ngettext("{n} tile", "{n} tiles", count).format(n=count)
        if target is not None:
            left = target - view.scores[i]
            if left > 0:
                extra = _("{tiles}, {n} to go").format(tiles=extra, n=left)
            else:
                extra = _("{tiles}, over the line").format(tiles=extra)
        if view.clocks_ms is not None:
            extra += f"  {_clock(view.clocks_ms[i])}"
        style = TO_MOVE_STYLE if mark else ""
        table.add_row(mark, Text(name, style=style), Text(str(view.scores[i]), style="bold"), extra)
    return table


def panel(
    view: PlayerView, *, show_private: bool, recent: int = 4, compact: bool = False
) -> Group:
    """Scores, bag, (the viewer's rack and the unseen tiles), and the last ``recent`` moves;
    ``compact`` leaves out the heading and puts the rack under its label, for a narrow side
    panel."""
    ts = view.tileset
    parts: list[RenderableType] = (
        [] if compact else [Text(_("Scores"), style="bold underline")]
    )
    parts.append(scores_table(view))
    bag = view.bag_count
    parts.append(Text(ngettext("Bag: {n} tile", "Bag: {n} tiles", bag).format(n=bag)))
    if show_private:
        line = Text()
        line.append(_("{name}'s rack:").format(name=view.names[view.player]), style="bold")
        if compact:
            parts.append(line)
            parts.append(rack_text(view.rack, ts, compact=True))
        else:
            line.append(" ")
            line.append_text(rack_text(view.rack, ts))
            parts.append(line)
        parts.append(unseen_text(view.unseen, ts))
    events = list(view.history[-recent:]) if recent > 0 else []
    if events:
        parts.append(Text(_("Last moves:"), style="bold"))
        for e in events:
            line = describe_event(e, view.names, ts, view.board, public=not show_private)
            parts.append(Text("  " + line))
    return Group(*parts)


def rendered_height(renderable: RenderableType, width: int) -> int:
    """How many lines ``renderable`` takes at ``width`` columns."""
    console = Console(width=width, file=io.StringIO(), color_system=None)
    return len(console.render_lines(renderable, console.options, pad=False))


def render_view(
    view: PlayerView,
    *,
    show_private: bool,
    width: int = 100,
    final: RenderableType | None = None,
) -> RenderableType:
    """The board with the panel beside it, or above it on a terminal too narrow for both;
    ``final`` (the end-of-game summary) follows the panel.

    Where the panel only just fits beside the board (an 80-column terminal) it is compact
    and keeps to the board's height — the last moves it lists are cut to fit and ``final``
    takes the panel's place — so a turn's screen (the board, the panel, the moves announced
    above it and the prompt) fits 24 lines without scrolling."""
    board = render_board(view.board, view.tileset, last_play(view.history))
    board_width = 3 + CELL * view.board.cols + 3
    extra = [final] if final is not None else []
    if width >= board_width + WIDE_SIDE:
        grid = Table.grid(padding=(0, 3))
        grid.add_column(no_wrap=True)
        grid.add_column()
        grid.add_row(board, panel(view, show_private=show_private))
        return Group(grid, *extra) if extra else grid
    side_width = width - board_width - SIDE_GAP
    if side_width < SIDE_MIN:
        return Group(board, Text(""), panel(view, show_private=show_private), *extra)
    height = view.board.rows + 2  # the column letters above and below
    side: RenderableType
    if final is not None:
        side = final
    else:
        for recent in range(4, -1, -1):  # as many of the last moves as fit
            side = panel(view, show_private=show_private, recent=recent, compact=True)
            if rendered_height(side, side_width) <= height:
                break
    grid = Table.grid(padding=(0, SIDE_GAP))
    grid.add_column(no_wrap=True)
    grid.add_column(width=side_width)
    grid.add_row(board, side)
    return grid


def end_reason(
    result: GameResult, names: Sequence[str], history: Sequence[Event], rules_scoreless: int | None
) -> str:
    """Why the game ended, in words."""
    out = ""
    if result.reason is EndReason.PLAYED_OUT:
        plays = [e for e in history if e.kind is EventKind.PLAY]
        out = names[plays[-1].player] if plays else _("a player")
    loser = names[result.loser] if result.loser is not None else ""
    return _end_text(result.reason).format(out=out, loser=loser, n=rules_scoreless or "")


def summary(view: PlayerView) -> Group:
    """The final summary: why it ended, final scores with the winner, and the final racks."""
    result = view.result
    assert result is not None, "summary() needs a finished game"
    ts = view.tileset
    reason = end_reason(result, view.names, view.history, view.rules.scoreless_turns_to_end)
    parts: list[RenderableType] = [
        Text(_("Game over: {reason}.").format(reason=reason), style="bold")
    ]
    table = Table.grid(padding=(0, 2))
    table.add_column()
    table.add_column(justify="right")
    table.add_column(overflow="fold")  # a narrow panel folds a rack, never hides its tiles
    table.add_column()
    racks = view.final_racks or tuple(() for __ in view.names)
    for i, name in enumerate(view.names):
        won = _("winner") if i in result.winners else ""
        if racks[i]:
            left = _("rack {tiles}").format(tiles=ts.format(racks[i]))
        else:
            left = _("rack empty")
        table.add_row(name, str(result.scores[i]), left, Text(won, style=TO_MOVE_STYLE))
    parts.append(Text(_("Final scores:")))
    parts.append(table)
    winners = _(" and ").join(view.names[i] for i in result.winners)
    if result.is_draw:
        outcome = _("Draw: {names}").format(names=winners)
    else:
        outcome = _("Winner: {names}").format(names=winners)
    parts.append(Text(outcome, style="bold"))
    return Group(*parts)
