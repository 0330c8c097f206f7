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

from ..duplicate import DuplicateGame, Round, Verdict
from ..legality import IllegalMove
from ..move import NotationError, Play, parse_move
from .board import rack_text, render_board
from .screen import Screen

DUPLICATE_HELP: tuple[tuple[str, str], ...] = (
    ("8D QUITE", "hand in a play: position and word (D8 QUITE for down)"),
    ("8D QUITE 48", "the same, declaring its score"),
    ("skip", "hand in nothing this round (it scores 0)"),
    ("save [FILE]", "save the game as GCG"),
    ("help", "this list"),
    ("quit", "stop playing"),
)
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
        self.computers = {
            i: DuplicateComputer(name, seed=game.seed + i)
            for i, name in enumerate(game.players)
            if BOT_SPEC.match(name)
        }

    @property
    def hot_seat(self) -> bool:
        """Two or more people share the terminal (each plays behind a cleared screen)."""
        return self.game.num_players - len(self.computers) >= 2

    def help(self) -> None:
        self._print_help(DUPLICATE_HELP)

    def _show_round(self) -> None:
        game = self.game
        last = game.rounds[-1].top if game.rounds else None
        self.console.print(render_board(game.board, game.tileset, last))
        limit = game.settings.round_seconds
        line = Text(f"Round {game.round}  ", style="bold")
        line.append_text(rack_text(game.rack, game.tileset))
        line.append(f"  bag {game.bag_count}")
        if limit is not None:
            line.append(f"  {limit} s a play")
        self.console.print(line)

    def _show_closed(self, rd: Round) -> None:
        game = self.game
        ties = f" ({rd.tied} tops)" if rd.tied > 1 else ""
        self._say(f"Round {rd.number}: the top is {rd.top} for {rd.top.score}{ties}.", "bold")
        table = Table(box=None, padding=(0, 2))
        for column in ("player", "play", "score", "total"):
            table.add_column(column, justify="right" if column in ("score", "total") else "left")
        for i, sub in enumerate(rd.submissions):
            verdict = sub.verdict.value.replace("_", " ")
            why = "" if sub.verdict is Verdict.VALID else f" ({verdict})"
            bonus = f" +{rd.bonuses[i]} solo" if rd.bonuses[i] else ""
            table.add_row(game.players[i], (sub.text or "—") + why,
                          f"{rd.points(i)}{bonus}", str(game.scores[i]))
        table.add_row("tops", str(rd.top), str(rd.top.score), str(game.top_total))
        self.console.print(table)

    def _show_results(self) -> None:
        result = self.game.results()
        reason = result.reason.value.replace("_", " ") if result.reason else "stopped"
        self._say(f"Game over ({reason}). The tops total {result.top_total}.", "bold")
        table = Table(box=None, padding=(0, 2))
        for column in ("player", "points", "% of top", "negative"):
            table.add_column(column, justify="left" if column == "player" else "right")
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
        self._say(f"Tessera — duplicate ({game.rules.name} rules, {lex}) — {who}", "bold")
        self._say("Everyone plays the same rack; the best play goes on the board. Type a "
                  "play (8D QUITE, or 8D QUITE 48 to declare its score) or 'help'.")
        while not game.is_over and not self._quit:
            self._round()
        if game.is_over:
            self._show_results()
        else:
            self._say("Goodbye.")
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
            self._say(f"{game.players[i]} hands in nothing.")
            return
        game.submit(i, play)
        self._say(f"{game.players[i]} hands in a play.")

    def _take_terminal(self, i: int) -> bool:
        name = self.game.players[i]
        self._say(f"Pass the terminal to {name}.", "bold")
        try:
            self._read(f"{name}, press Enter when only you can see the screen: ")
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
            word, _, rest = line.partition(" ")
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
                self._say(f"{name} hands in nothing.")
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
                self._error(f"{exc}. Type a play such as 8D QUITE, or 'help'.")
                continue
            if not isinstance(move, Play):
                self._error("Duplicate has no passes or exchanges: type a play, or 'skip'.")
                continue
            try:
                game.submit(i, line, declared=declared, elapsed_ms=elapsed)
            except IllegalMove as exc:
                self._error(str(exc))
                continue
            self._say(f"{name} hands in {line}.")
            return True

    def _save(self, path_text: str) -> None:
        from ..formats import gcg  # type: ignore[attr-defined]

        path = Path(path_text or "duplicate.gcg")
        try:
            path.write_text(gcg.dumps(self.game), encoding="utf-8")
        except OSError as exc:
            self._error(f"Cannot save to {path}: {exc.strerror or exc}")
            return
        self._say(f"Saved to {path}.")


def duplicate_players(text: str) -> list[str]:
    """Names from ``--players`` for a duplicate game, any number: people, and computers by
    their level's name (``best``, ``static``, ``level1`` … ``level5``)."""
    from .app import BOT_LIKE, BOT_SPEC, SetupError

    names = [n.strip() for n in text.split(",")]
    if not names or any(not n for n in names):
        raise SetupError("--players: give comma-separated names, e.g. 'Ann,Bob'")
    unknown = [n for n in names if BOT_LIKE.match(n) and not BOT_SPEC.match(n)]
    if unknown:
        raise SetupError(
            f"--players: {', '.join(unknown)} is not a computer player; computers are "
            "level1 … level5, best and static"
        )
    if len(set(names)) != len(names):
        raise SetupError("--players: the names must be different")
    return names


def replay_for(path: str, lexicon: object) -> DuplicateGame | None:
    """The duplicate game saved at ``path``, or None when the file is an ordinary record."""
    from ..formats import gcg  # type: ignore[attr-defined]

    record = gcg.load(path)
    if not record.is_duplicate:
        return None
    game: DuplicateGame = gcg.replay_duplicate(record, lexicon=lexicon)
    return game


__all__ = ["DUPLICATE_HELP", "DuplicateApp", "duplicate_players", "replay_for"]
