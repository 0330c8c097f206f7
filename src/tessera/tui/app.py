"""The ``tessera play`` loop: people and computer players taking turns at one terminal.

Hidden information stays hidden (DESIGN principle 4). Every screen is drawn from a
:class:`~tessera.game.PlayerView`:

* against computer players (one person), the person's own view is shown throughout; a bot's
  rack is never shown until the game ends;
* with two or more people (hot seat), the screen is cleared after each person's move and
  before the next person's turn, behind a "pass the terminal to …, press Enter" screen, and
  between turns only public information (board, scores, moves) is on screen.

The loop talks to the world through two things it is given — a Rich console to write to and
a ``read_line(prompt)`` function — so tests drive it with scripted input.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..game import Game, GameState, PlayerView
from ..i18n import LANGUAGES
from ..legality import IllegalMove, Reason
from ..move import Exchange, Move, Pass, Play
from .board import describe_event, play_text, render_view, summary
from .commands import Command, CommandError, Kind, help_rows, parse_command
from .lang import _, ngettext, refusal, set_language
from .screen import Screen

BOT_SPEC = re.compile(r"^(level[1-5]|best|static)$", re.IGNORECASE)
BOT_LIKE = re.compile(r"^level\d+$", re.IGNORECASE)  # a level, but maybe not one that exists
NO = frozenset({"n", "no"})
YES = frozenset({"y", "yes"})
# a terminal shorter than this gets a one-line pointer to 'help' after a mistyped command
# instead of the whole list, which would scroll the board off the screen
HELP_HEIGHT = 42


class Bot(Protocol):
    """A computer player (``tessera.engine``): it sees only its own view."""

    def choose(self, view: PlayerView) -> Move: ...


BotFactory = Callable[[str, Any, int], Bot]  # (spec, lexicon, seed)
HintSource = Callable[[Game, int], Sequence["Hint"]]
ReadLine = Callable[[str], str]


class SetupError(ValueError):
    """Options that cannot make a game (bad player list, missing engine, …)."""


@dataclass(frozen=True)
class Seat:
    """A place at the table: a person, or a bot when ``spec`` names a level."""

    name: str
    spec: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.spec is not None


def parse_players(text: str) -> list[Seat]:
    """``"me,level3"`` → a person called "me" and a level-3 bot. Names that are bot specs
    (``level1``…``level5``, ``best``, ``static``) make bots; repeated names get ``#2``, ``#3``."""
    names = [n.strip() for n in text.split(",")]
    if any(not n for n in names):
        raise SetupError(
            _("--players {text}: a name is empty (separate names with commas)").format(
                text=repr(text)
            )
        )
    if not 2 <= len(names) <= 4:
        raise SetupError(
            _("--players {text}: a game has 2 to 4 players, not {n}").format(
                text=repr(text), n=len(names)
            )
        )
    for name in names:
        if BOT_LIKE.match(name) and not BOT_SPEC.match(name):
            raise SetupError(
                _(
                    "--players {text}: no computer player {name}; "
                    "the levels are level1 to level5 (and best, static)"
                ).format(text=repr(text), name=repr(name))
            )
    seats: list[Seat] = []
    taken: set[str] = set()
    for name in names:
        spec = name.lower() if BOT_SPEC.match(name) else None
        unique, k = name, 1
        while unique.lower() in taken:
            k += 1
            unique = f"{name}#{k}"
        taken.add(unique.lower())
        seats.append(Seat(unique, spec))
    return seats


def engine_bot(spec: str, lexicon: Any, seed: int) -> Bot:
    """A computer player from :mod:`tessera.engine` (imported only when a bot is wanted);
    ``seed`` fixes its random choices, so a game's seed replays the same game."""
    try:
        from ..engine import get_player  # type: ignore[attr-defined]
    except ImportError as exc:
        raise SetupError(
            _("computer players ({spec}) need tessera.engine, which is not available: "
              "{error}").format(spec=spec, error=exc)
        ) from None
    return get_player(spec, lexicon, seed=seed)  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Hint:
    """A suggested move with its score and equity (score plus the value of the tiles kept)."""

    move: Move
    score: int
    equity: float


# one static-equity player per word list, made on the first hint (it loads leave values)
_ADVISERS: dict[int, tuple[Any, Any]] = {}


def best_moves(game: Game, count: int) -> list[Hint]:
    """The ``count`` best moves for the player to move, as the static-equity computer player
    ranks them from that player's own view (plays, exchanges and the pass); without
    :mod:`tessera.engine`, the move generator's moves by score."""
    if game.lexicon is None:
        raise SetupError(_("hints need a word list"))
    try:
        from ..engine import get_player  # type: ignore[attr-defined]
    except ImportError:
        get_player = None
    if get_player is not None:
        lexicon = game.lexicon
        entry = _ADVISERS.get(id(lexicon))
        if entry is None or entry[0] is not lexicon:
            entry = (lexicon, get_player("static", lexicon))
            _ADVISERS[id(lexicon)] = entry
        ranked = entry[1].ranked(game.view(game.to_move), top=count)
        return [Hint(r.move, r.score, float(r.equity)) for r in ranked]
    moves = game.legal_moves(top=count)
    return [
        Hint(m, m.score or 0 if isinstance(m, Play) else 0, float(moves.equity(k)))  # type: ignore[attr-defined]
        for k, m in enumerate(moves)
    ]


def seats_for(names: Sequence[str], previous: Sequence[Seat] = ()) -> list[Seat]:
    """Seats for a loaded game's players: a name keeps its earlier seat, a bot-spec name
    is a bot, anyone else is a person."""
    known = {s.name: s for s in previous}
    return [known.get(n) or Seat(n, n.lower() if BOT_SPEC.match(n) else None) for n in names]


class PlayApp(Screen):
    """One session of ``tessera play``: runs ``game`` to the end (or until the players quit).

    ``seats`` says who sits where: people, or bots made by ``bot_factory(spec, lexicon,
    seed)`` (default :func:`engine_bot`); ``hint_source(game, n)`` gives the best plays for
    the ``hint`` command (default :func:`best_moves`); ``clock`` is the time source charged
    to the players' clocks under timed rules.
    """

    def __init__(
        self,
        game: Game,
        seats: Sequence[Seat],
        *,
        console: Console | None = None,
        read_line: ReadLine | None = None,
        bot_factory: BotFactory | None = None,
        hint_source: HintSource | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if len(seats) != game.num_players:
            raise SetupError(
                _("{seats} seats for a game of {players} players").format(
                    seats=len(seats), players=game.num_players
                )
            )
        self.game = game
        self.seats = list(seats)
        self.console = console or Console(highlight=False)
        self._read = read_line or self._console_read
        self._bot_factory = bot_factory or engine_bot
        self._hints = hint_source or best_moves
        self._clock = clock
        self._bots: dict[int, Bot] = {}
        self._make_bots()
        self._owner: int | None = None  # the person whose rack may be on screen
        self._announced = len(game.history)
        self._saved_at: int | None = None  # history length when last saved
        self._quit = False
        self._turn_started = clock()

    # -- setup -------------------------------------------------------------------------

    def _make_bots(self) -> None:
        self._bots = {
            i: self._bot_factory(s.spec, self.game.lexicon, (self.game.seed + i) % 2**63)
            for i, s in enumerate(self.seats)
            if s.spec is not None
        }

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.is_bot]

    @property
    def hot_seat(self) -> bool:
        """Two or more people share the screen: racks are shown only behind a hand-over."""
        return len(self.humans) >= 2

    def _console_read(self, prompt: str) -> str:
        return self.console.input(escape(prompt))

    def _public_view(self, mover: int) -> PlayerView:
        """A view for describing a player's move to everyone: anyone's but the mover's
        (exchanged tiles are then hidden), a person's when possible."""
        others = [i for i in range(self.game.num_players) if i != mover]
        people = [i for i in others if not self.seats[i].is_bot]
        return self.game.view((people or others)[0])

    def _announce(self) -> None:
        """Print the events added since the last announcement (what everyone may know)."""
        history = self.game.history
        if len(history) < self._announced:  # undone
            self._announced = len(history)
        for k in range(self._announced, len(history)):
            mover = history[k].player
            view = self._public_view(mover)
            event = view.history[k]
            self._say("• " + describe_event(event, view.names, view.tileset, view.board))
        self._announced = len(history)

    def _show(self, view: PlayerView, *, private: bool) -> None:
        self.console.print(render_view(view, show_private=private, width=self.console.width))

    def help(self) -> None:
        self._print_help(help_rows())

    # -- the loop ----------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or the players quit; returns an exit status (0)."""
        names = ", ".join(
            _("{name} (computer, {level})").format(name=s.name, level=s.spec)
            if s.spec
            else _("{name} (person)").format(name=s.name)
            for s in self.seats
        )
        lex = getattr(self.game.lexicon, "name", None) or _("no word list")
        self._say(
            _("Tessera — {rules} rules, {lexicon} — {players}").format(
                rules=self.game.rules.name, lexicon=lex, players=names
            ),
            "bold",
        )
        self._say(_("Type 'help' for commands. A play is a position and a word: 8D QUITE."))
        try:
            self._loop()
        except Exception as exc:
            # a failure outside the game's rules (a computer player's crash, a broken
            # generator): say so and keep the game, then let the error through
            self._error(
                _("Internal error: {kind}: {error}").format(kind=type(exc).__name__, error=exc)
            )
            self._offer_save(_("The game cannot go on. Save it?"))
            raise
        if self._quit:
            self._offer_save(_("Save the game before leaving?"))
            self._say(_("Goodbye."))
        return 0

    def _loop(self) -> None:
        while not self._quit:
            if self.game.is_over:
                self._finish()
                break
            i = self.game.to_move
            if self.seats[i].is_bot:
                self._bot_turn(i)
            else:
                self._human_turn(i)
            if self.hot_seat and not self._quit and self._owner is not None:
                if self.game.to_move != self._owner or self.game.is_over:
                    self._clear()
                    self._owner = None
            self._announce()

    def _handover(self, i: int) -> bool:
        """Hot seat: wait for player ``i`` to take the terminal, then clear the screen."""
        name = self.seats[i].name
        self._say(_("Pass the terminal to {name}.").format(name=name), "bold")
        try:
            self._read(
                _("{name}, press Enter when only you can see the screen: ").format(name=name)
            )
        except (EOFError, KeyboardInterrupt):
            self._quit = True
            return False
        self._clear()
        self._owner = i
        return True

    def _human_turn(self, i: int) -> None:
        if self.hot_seat and self._owner != i:
            view = self.game.view(i)
            self._show(view, private=False)
            if not self._handover(i):
                return
        self._owner = i
        self._turn_started = self._clock()
        view = self.game.view(i)
        self._show(view, private=True)
        self._turn_notice(view)
        while not self._quit:
            try:
                line = self._read(f"{self.seats[i].name}> ")
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                self._quit = True
                return
            try:
                command = parse_command(line)
            except CommandError as exc:
                if self.console.is_terminal and self.console.height < HELP_HEIGHT:
                    self._error(_("{error}. Type 'help' for the commands.").format(error=exc))
                else:
                    self._error(_("{error}. Commands:").format(error=exc))
                    self.help()
                continue
            if self._dispatch(i, command):
                return

    def _turn_notice(self, view: PlayerView) -> None:
        if view.state is GameState.AWAITING_FINAL:
            if view.history:
                mover = view.names[view.history[-1].player]
                notice = _(
                    "{name}'s play ends the game unless it is challenged: type 'challenge', "
                    "or 'pass' to accept it."
                ).format(name=mover)
            else:
                notice = _(
                    "The last play ends the game unless it is challenged: type 'challenge', "
                    "or 'pass' to accept it."
                )
            self._say(notice, "bold yellow")
        elif view.can_challenge:
            self._say(_("You may challenge the last play (type 'challenge')."), "yellow")

    # -- commands ----------------------------------------------------------------------

    def _elapsed(self) -> int | None:
        if self.game.rules.clock is None:
            return None
        return int((self._clock() - self._turn_started) * 1000)

    def _timed_out(self, i: int, elapsed: int | None) -> bool:
        """R7.3: a clock past the maximum overtime ends the game instead of the move."""
        clock = self.game.rules.clock
        left = self.game.clock_ms(i)
        if clock is None or elapsed is None or left is None:
            return False
        if elapsed - left <= clock.max_overtime_min * 60_000:
            return False
        self.game.time_expired(i, elapsed)
        self._say(
            _("{name}'s clock is past the maximum overtime.").format(name=self.seats[i].name),
            "bold red",
        )
        return True

    def _dispatch(self, i: int, command: Command) -> bool:
        """Carry out one command for player ``i``; True when the game changed (the turn is
        over, or it must be shown afresh after an undo or a load)."""
        game = self.game
        kind = command.kind
        if kind is Kind.HELP:
            self.help()
        elif kind is Kind.BOARD:
            view = game.view(i)
            self._show(view, private=True)
            self._turn_notice(view)
        elif kind is Kind.HINT:
            self._hint(command.count or 1)
        elif kind is Kind.SAVE:
            self._save(command.arg)
        elif kind is Kind.LOAD:
            return self._load(command.arg)
        elif kind is Kind.QUIT:
            self._quit = True
        elif kind is Kind.LANG:
            self._switch_language(i, command.arg)
        elif kind is Kind.UNDO:
            return self._undo()
        elif kind is Kind.RESIGN:
            return self._act(lambda: game.resign(i))
        elif kind is not Kind.EMPTY:
            elapsed = self._elapsed()
            if self._timed_out(i, elapsed):
                return True
            if kind is Kind.PLAY:
                return self._act(lambda: game.play(command.arg, i, elapsed_ms=elapsed))
            if kind is Kind.EXCHANGE:
                return self._act(lambda: game.exchange(command.arg, i, elapsed_ms=elapsed))
            if kind is Kind.PASS:
                return self._act(lambda: game.pass_turn(i, elapsed_ms=elapsed))
            if kind is Kind.CHALLENGE:
                return self._act(lambda: game.challenge(i, elapsed_ms=elapsed))
        return False

    def _act(self, action: Callable[[], object]) -> bool:
        """Run a game action; an illegal one is explained and changes nothing."""
        try:
            action()
        except IllegalMove as exc:
            self._error(_("Not allowed: {reason}").format(reason=refusal(exc)))
            return False
        return True

    def _switch_language(self, i: int, code: str) -> None:
        """The ``lang`` command: speak another language from now on and show player ``i``'s
        turn again in it (the turn and its clock go on), or list the languages."""
        if code not in LANGUAGES:
            choices = ", ".join(f"{c} ({name})" for c, name in LANGUAGES.items())
            self._say(_("Languages: {choices}. Type e.g. 'lang hu'.").format(choices=choices))
            return
        set_language(code)
        view = self.game.view(i)
        self._show(view, private=True)
        self._turn_notice(view)

    def _hint(self, count: int) -> None:
        game = self.game
        if game.state is GameState.AWAITING_FINAL:
            self._say(
                _("The last play ends the game: you can only 'pass' (accept) or 'challenge'.")
            )
            return
        try:
            hints = self._hints(game, count)
        except SetupError as exc:
            self._error(str(exc))
            return
        except Exception as exc:  # a hint is optional: its failure must not end the game
            self._error(
                _("Hints failed: {kind}: {error}").format(kind=type(exc).__name__, error=exc)
            )
            return
        if not hints:
            self._say(_("No move to suggest."))
            return
        if not any(isinstance(h.move, Play) for h in hints):
            self._say(_("No play is possible with this rack."))
        # a grid, not padded text: its columns keep to the cells a translated heading takes
        table = Table.grid(padding=(0, 2))
        table.add_column()
        table.add_column(justify="right")
        table.add_column(justify="right")
        table.add_row(
            Text(_("Best moves:"), style="bold"),
            Text(_("score"), style="bold"),
            Text(_("equity"), style="bold"),
        )
        for n, h in enumerate(hints, start=1):
            table.add_row(f"  {n:>2}. {self._move_text(h.move)}", str(h.score), f"{h.equity:.1f}")
        self.console.print(table)

    def _move_text(self, move: Move) -> str:
        """A move as the player would type it."""
        if isinstance(move, Play):
            return play_text(move, self.game.tileset, self.game.board)
        if isinstance(move, Exchange):
            return move.gcg(self.game.alphabet)
        if isinstance(move, Pass):
            return "pass"
        return "challenge"

    def _undo(self) -> bool:
        """Take back the last action, and keep going back past computer players' moves so
        that a person is to move again."""
        game = self.game
        try:
            game.undo()
        except IllegalMove as exc:
            self._error(_("Cannot undo: {reason}").format(reason=refusal(exc)))
            return False
        while self.humans and self.seats[game.to_move].is_bot and game.can_undo:
            game.undo()
        self._announced = min(self._announced, len(game.history))
        self._saved_at = None  # the same length no longer means the same game
        self._say(_("Taken back."), "bold")
        return True

    @staticmethod
    def _default_name() -> str:
        return datetime.now().strftime("tessera-%Y%m%d-%H%M%S.gcg")

    def _save(self, path_text: str) -> bool:
        path = Path(path_text or self._default_name())
        try:
            from ..formats import gcg  # type: ignore[attr-defined]
        except ImportError as exc:
            self._error(_("Cannot save: GCG support is not available ({error})").format(error=exc))
            return False
        try:
            text = gcg.dumps(self.game)
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            self._error(
                _("Cannot save to {path}: {error}").format(path=path, error=exc.strerror or exc)
            )
            return False
        self._saved_at = len(self.game.history)
        self._say(_("Saved to {path}.").format(path=path))
        return True

    def _load(self, path_text: str) -> bool:
        try:
            from ..formats import gcg  # type: ignore[attr-defined]
        except ImportError as exc:
            self._error(_("Cannot load: GCG support is not available ({error})").format(error=exc))
            return False
        path = Path(path_text)
        try:
            game = gcg.replay(gcg.load(path), lexicon=self.game.lexicon)
        except OSError as exc:
            self._error(
                _("Cannot read {path}: {error}").format(path=path, error=exc.strerror or exc)
            )
            return False
        except ValueError as exc:  # malformed GCG, illegal moves in it, unknown rules
            self._error(_("Cannot load {path}: {error}").format(path=path, error=exc))
            return False
        seats = seats_for(game.players, self.seats)
        old = (self.game, self.seats, self._bots)
        self.game, self.seats = game, seats
        try:
            self._make_bots()
        except SetupError as exc:
            self.game, self.seats, self._bots = old
            self._error(_("Cannot load {path}: {error}").format(path=path, error=exc))
            return False
        self._announced = len(game.history)
        self._saved_at = len(game.history)
        self._owner = None
        who = ", ".join(
            _("{name} (computer)").format(name=s.name) if s.is_bot else s.name for s in seats
        )
        events = ngettext("{n} event", "{n} events", len(game.history)).format(
            n=len(game.history)
        )
        if game.is_over:
            loaded = _("Loaded {path}: {players}; {events}; the game is over.")
        else:
            loaded = _("Loaded {path}: {players}; {events}; {name} to move.")
        self._say(
            loaded.format(
                path=path, players=who, events=events, name=game.players[game.to_move]
            ),
            "bold",
        )
        return True

    # -- computer players --------------------------------------------------------------

    def _bot_turn(self, i: int) -> None:
        game = self.game
        name = self.seats[i].name
        self._say(_("{name} is thinking…").format(name=name), "dim")
        view = game.view(i)
        start = self._clock()
        move = self._bots[i].choose(view)
        elapsed = int((self._clock() - start) * 1000) if game.rules.clock is not None else None
        try:
            if not isinstance(move, Move):
                raise IllegalMove(Reason.NOTATION, f"{move!r} is not a move")
            game.play(move, i, elapsed_ms=elapsed)
        except IllegalMove as exc:
            # a bot's mistake must not stall the game; it passes (accepts) instead
            self._error(
                _("{name} chose an illegal move ({reason}); it passes instead.").format(
                    name=name, reason=refusal(exc)
                )
            )
            game.pass_turn(i, elapsed_ms=elapsed)

    # -- the end -----------------------------------------------------------------------

    def _finish(self) -> None:
        game = self.game
        viewer = self.humans[0] if self.humans else 0
        view = game.view(viewer)
        self.console.print(
            render_view(view, show_private=False, width=self.console.width, final=summary(view))
        )
        self._offer_review()
        self._offer_save(_("Save the game?"))

    def _offer_review(self) -> None:
        """The game's review, as ``tessera analyze`` prints it: each turn's best moves and
        the equity the move played gave away (every rack is known once the game is over)."""
        game = self.game
        if game.lexicon is None or not game.history:
            return
        try:
            answer = self._read(_("Review the game, turn by turn? y or n (n): ")).strip().lower()
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            return
        if answer not in YES:
            return
        from ..engine.analysis import AnalysisError, analyze_record, render_table
        from ..formats import gcg  # type: ignore[attr-defined]

        self._say(_("Analysing the game…"))
        try:
            record = gcg.loads(gcg.dumps(game))
            analysis = analyze_record(record, game.lexicon, top=3, name="this game")
        except (AnalysisError, gcg.GcgError) as exc:
            self._error(_("Cannot review the game: {error}").format(error=exc))
            return
        render_table(analysis, self.console.file)

    def _offer_save(self, question: str) -> None:
        game = self.game
        if self._saved_at == len(game.history) or not (game.history or game.is_over):
            return
        default = self._default_name()
        while True:
            try:
                # one line at 80 columns; Enter alone, like n, saves nothing
                answer = self._read(
                    _("{question} File name, y ({default}) or n: ").format(
                        question=question, default=default
                    )
                ).strip()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return
            if not answer or answer.lower() in NO:
                return
            if self._save(default if answer.lower() in YES else answer):
                return
