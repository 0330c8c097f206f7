"""``tessera play --rules duplicate``: a duplicate game (R8.4) at one terminal.

Everyone sees the same board and rack, so only the plays are secret. One person plays
against the master move; with two or more, each in turn takes the terminal behind a "pass
the terminal to …, press Enter" screen, types a play, and the screen is cleared before the
next person's turn. Players named ``best``, ``static`` or ``level1`` … ``level5`` are
computers (:class:`~tessera.engine.duplicate_players.DuplicateComputer`) that hand in their
play on their own; with no person at all the game plays itself to its end. When everyone has
handed in, the round's top, each play and its score and the totals are shown to all.

Like :class:`~tessera.tui.app.PlayApp`, the loop writes to a Rich console and reads with a
``read_line(prompt)`` function, and takes its time from ``clock``, so tests drive it with
scripted input.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..duplicate import DuplicateEnd, DuplicateGame, Round, Verdict
from ..legality import IllegalMove
from ..move import NotationError, Play, parse_move
from .board import rack_text, render_board
from .lang import _, in_source_language, ngettext, refusal
from .screen import Screen


def duplicate_help() -> tuple[tuple[str, str], ...]:
    """(syntax, what it does) as ``help`` lists them, in the language spoken."""
    return (
        ("8D QUITE", _("hand in a play: position and word (D8 QUITE for down)")),
        ("8D QUITE 48", _("the same, declaring its score")),
        ("skip", _("hand in nothing this round (it scores 0)")),
        ("save [FILE]", _("save the game as GCG")),
        ("help", _("this list")),
        ("quit", _("stop playing")),
    )


def verdict_text(verdict: Verdict) -> str:
    """Why a play handed in scored nothing (R8.4.2), in words."""
    return {
        Verdict.VALID: _("valid"),
        Verdict.INVALID_WORDS: _("invalid words"),
        Verdict.ILLEGAL: _("illegal"),
        Verdict.NOTATION: _("notation"),
        Verdict.NOT_A_PLAY: _("not a play"),
        Verdict.LATE: _("late"),
        Verdict.MISREPORTED: _("misreported"),
        Verdict.MISSING: _("missing"),
    }[verdict]


def end_text(reason: DuplicateEnd | None) -> str:
    """Why a duplicate game ended (R8.4.5), in words."""
    if reason is None:
        return _("stopped")
    return {
        DuplicateEnd.TILES_USED: _("tiles used"),
        DuplicateEnd.NO_LEGAL_DRAW: _("no legal draw"),
        DuplicateEnd.NO_PLAY: _("no play"),
    }[reason]

_DECLARED = re.compile(r"^(.*\S)\s+(\d{1,4})$")


class DuplicateApp(Screen):
    """One duplicate session: runs ``game`` to its end or until the players quit."""

    def __init__(
        self,
        game: DuplicateGame,
        *,
        console: Console | None = None,
        read_line: Callable[[str], str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from ..engine.duplicate_players import DuplicateComputer
        from .app import BOT_SPEC

        self.game = game
        self.console = console or Console(highlight=False)
        self._read = read_line or (lambda prompt: self.console.input(escape(prompt)))
        self._clock = clock
        self._quit = False
        if not game.computers:  # seats named as computers are theirs, and the record says so
            game.computers = {
                i: name.lower() for i, name in enumerate(game.players) if BOT_SPEC.match(name)
            }
        self.computers = {
            i: DuplicateComputer(kind, seed=game.seed + i) for i, kind in game.computers.items()
        }

    @property
    def hot_seat(self) -> bool:
        """Two or more people share the terminal (each plays behind a cleared screen)."""
        return self.game.num_players - len(self.computers) >= 2

    def help(self) -> None:
        self._print_help(duplicate_help())

    def _show_round(self) -> None:
        game = self.game
        last = game.rounds[-1].top if game.rounds else None
        self.console.print(render_board(game.board, game.tileset, last))
        limit = game.settings.round_seconds
        line = Text(_("Round {n}").format(n=game.round) + "  ", style="bold")
        line.append_text(rack_text(game.rack, game.tileset))
        line.append("  " + _("bag {n}").format(n=game.bag_count))
        if limit is not None:
            line.append("  " + _("{seconds} s a play").format(seconds=limit))
        self.console.print(line)

    def _show_closed(self, rd: Round) -> None:
        game = self.game
        if rd.tied > 1:
            closed = ngettext(
                "Round {round}: the top is {play} for {score} ({n} top).",
                "Round {round}: the top is {play} for {score} ({n} tops).",
                rd.tied,
            )
        else:
            closed = _("Round {round}: the top is {play} for {score}.")
        self._say(
            closed.format(round=rd.number, play=rd.top, score=rd.top.score, n=rd.tied), "bold"
        )
        table = Table(box=None, padding=(0, 2))
        table.add_column(_("player"))
        table.add_column(_("play"))
        table.add_column(_("score"), justify="right")
        table.add_column(_("total"), justify="right")
        for i, sub in enumerate(rd.submissions):
            play = sub.text or "—"
            if sub.verdict is not Verdict.VALID:
                play = _("{play} ({verdict})").format(play=play, verdict=verdict_text(sub.verdict))
            points = str(rd.points(i))
            if rd.bonuses[i]:
                points = _("{points} +{bonus} solo").format(points=points, bonus=rd.bonuses[i])
            table.add_row(game.players[i], play, points, str(game.scores[i]))
        table.add_row(_("tops"), str(rd.top), str(rd.top.score), str(game.top_total))
        self.console.print(table)

    def _show_results(self) -> None:
        result = self.game.results()
        self._say(
            _("Game over ({reason}). The tops total {total}.").format(
                reason=end_text(result.reason), total=result.top_total
            ),
            "bold",
        )
        table = Table(box=None, padding=(0, 2))
        table.add_column(_("player"))
        for column in (_("points"), _("% of top"), _("negative")):
            table.add_column(column, justify="right")
        pct, neg = result.percentages, result.negatives
        for i in result.ranking:
            table.add_row(result.names[i], str(result.scores[i]), f"{pct[i]:.2f}%",
                          f"{neg[i]:+d}")
        self.console.print(table)

    # -- the loop ------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or the players quit; returns an exit status (0)."""
        game = self.game
        lex = getattr(game.lexicon, "name", "")
        who = ", ".join(game.players)
        self._say(
            _("Tessera — duplicate ({rules} rules, {lexicon}) — {players}").format(
                rules=game.rules.name, lexicon=lex, players=who
            ),
            "bold",
        )
        self._say(_("Everyone plays the same rack; the best play goes on the board. Type a "
                    "play (8D QUITE, or 8D QUITE 48 to declare its score) or 'help'."))
        while not game.is_over and not self._quit:
            self._round()
        if game.is_over:
            self._show_results()
        else:
            self._say(_("Goodbye."))
        return 0

    def _round(self) -> None:
        game = self.game
        if not self.hot_seat:
            self._show_round()
        for i in game.waiting:
            if i in self.computers:
                self._computer_hands_in(i)
                continue
            if self.hot_seat and not self._take_terminal(i):
                return
            if not self._ask(i) or self._quit:
                return
            if self.hot_seat:
                self._clear()
        self._show_closed(game.close_round())

    def _computer_hands_in(self, i: int) -> None:
        game = self.game
        play = self.computers[i].choose(game)
        if play is None:
            self._say(_("{name} hands in nothing.").format(name=game.players[i]))
            return
        game.submit(i, play)
        self._say(_("{name} hands in a play.").format(name=game.players[i]))

    def _take_terminal(self, i: int) -> bool:
        name = self.game.players[i]
        self._say(_("Pass the terminal to {name}.").format(name=name), "bold")
        try:
            self._read(
                _("{name}, press Enter when only you can see the screen: ").format(name=name)
            )
        except (EOFError, KeyboardInterrupt):
            self._quit = True
            return False
        self._clear()
        self._show_round()
        return True

    def _ask(self, i: int) -> bool:
        """Read commands until player ``i`` hands in a play (or nothing); False on quit."""
        name = self.game.players[i]
        started = self._clock()
        while True:
            try:
                line = self._read(f"{name}> ").strip()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                self._quit = True
                return False
            word, _space, rest = line.partition(" ")
            low = word.lower()
            if not line:
                continue
            if low in ("quit", "exit"):
                self._quit = True
                return False
            if low in ("help", "?"):
                self.help()
                continue
            if low == "save":
                self._save(rest.strip())
                continue
            if low == "skip":
                self._say(_("{name} hands in nothing.").format(name=name))
                return True
            elapsed = int((self._clock() - started) * 1000)
            declared = None
            m = _DECLARED.match(line)
            if m and " " in m.group(1):  # "8D QUITE 48": the last number is the score
                line, declared = m.group(1), int(m.group(2))
            # unreadable text is a typo to retype, not a slip scoring 0 (R8.4.2 still holds
            # for anything that reads as a play: a wrong word or placement scores 0)
            game = self.game
            try:
                move = parse_move(line, game.alphabet, game.board, rack=game.rack)
            except NotationError as exc:
                # the notation's own explanation is English only
                why = str(exc) if in_source_language() else _("that is not a play")
                self._error(
                    _("{error}. Type a play such as 8D QUITE, or 'help'.").format(error=why)
                )
                continue
            if not isinstance(move, Play):
                self._error(_("Duplicate has no passes or exchanges: type a play, or 'skip'."))
                continue
            try:
                game.submit(i, line, declared=declared, elapsed_ms=elapsed)
            except IllegalMove as exc:
                self._error(refusal(exc))
                continue
            self._say(_("{name} hands in {play}.").format(name=name, play=line))
            return True

    def _save(self, path_text: str) -> None:
        from ..formats import gcg  # type: ignore[attr-defined]

        path = Path(path_text or "duplicate.gcg")
        try:
            path.write_text(gcg.dumps(self.game), encoding="utf-8")
        except OSError as exc:
            self._error(
                _("Cannot save to {path}: {error}").format(path=path, error=exc.strerror or exc)
            )
            return
        self._say(_("Saved to {path}.").format(path=path))


def duplicate_players(text: str) -> list[str]:
    """Names from ``--players`` for a duplicate game, any number: people, and computers by
    their level's name (``best``, ``static``, ``level1`` … ``level5``)."""
    from .app import BOT_LIKE, BOT_SPEC, SetupError

    names = [n.strip() for n in text.split(",")]
    if not names or any(not n for n in names):
        raise SetupError(_("--players: give comma-separated names, e.g. 'Ann,Bob'"))
    unknown = [n for n in names if BOT_LIKE.match(n) and not BOT_SPEC.match(n)]
    if unknown:
        raise SetupError(
            _(
                "--players: {names} is not a computer player; computers are "
                "level1 … level5, best and static"
            ).format(names=", ".join(unknown))
        )
    if len(set(names)) != len(names):
        raise SetupError(_("--players: the names must be different"))
    return names


def replay_for(path: str, lexicon: object) -> DuplicateGame | None:
    """The duplicate game saved at ``path``, or None when the file is an ordinary record."""
    from ..formats import gcg  # type: ignore[attr-defined]

    record = gcg.load(path)
    if not record.is_duplicate:
        return None
    game: DuplicateGame = gcg.replay_duplicate(record, lexicon=lexicon)
    return game


__all__ = ["DuplicateApp", "duplicate_help", "duplicate_players", "replay_for"]
