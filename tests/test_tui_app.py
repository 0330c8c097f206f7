"""The ``tessera play`` loop (issue 6), driven in-process with scripted input: moves, refused
moves, commands, hints, undo, challenges, resigning, the end of the game, quitting, and
hidden information against bots and in hot-seat games."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

import pytest
from click.testing import CliRunner
from rich.console import Console

from tessera.cli import main
from tessera.game import EventKind, Game, GameState
from tessera.lexicon import Lexicon
from tessera.move import Exchange, Move, Pass, Play, parse_move
from tessera.tui.app import (
    Hint,
    PlayApp,
    Seat,
    SetupError,
    best_moves,
    parse_players,
    seats_for,
)
from tessera.tui.commands import help_rows


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("enable")


class Script:
    """Scripted keyboard: answers prompts from ``lines`` (EOF when they run out) and
    remembers, per prompt, how much had been written before it."""

    def __init__(self, out: io.StringIO, lines: Sequence[str]) -> None:
        self.out = out
        self.lines = list(lines)
        self.prompts: list[tuple[str, int]] = []

    def __call__(self, prompt: str) -> str:
        self.out.write(prompt)
        self.prompts.append((prompt, len(self.out.getvalue())))
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        self.out.write(line + "\n")
        return line


class ScriptedBot:
    """A stand-in computer player: makes the given moves (text or Move), then passes."""

    def __init__(self, moves: Sequence[str | Move | object] = ()) -> None:
        self.moves = list(moves)
        self.seen: list[tuple[int, tuple[int, ...]]] = []

    def choose(self, view):
        self.seen.append((view.player, view.rack))
        if not self.moves:
            return Pass()
        move = self.moves.pop(0)
        if isinstance(move, str):
            return parse_move(move, view.tileset.alphabet, view.board)
        return move


def make_app(
    game: Game,
    seats: Sequence[Seat],
    lines: Sequence[str],
    *,
    bot: ScriptedBot | None = None,
    hints: Callable | None = None,
    terminal: bool = False,
) -> tuple[PlayApp, Script, io.StringIO]:
    out = io.StringIO()
    console = Console(
        file=out, width=120, color_system=None, force_terminal=terminal, highlight=False
    )
    script = Script(out, lines)
    kwargs = {}
    if hints is not None:
        kwargs["hint_source"] = hints
    app = PlayApp(
        game,
        seats,
        console=console,
        read_line=script,
        bot_factory=lambda spec, lexicon, seed: bot or ScriptedBot(),
        **kwargs,
    )
    return app, script, out


def vs_bot(lex, rules="casual", rack="QUITEAB", bot_rack="JXKVWYF", first=0) -> Game:
    game = Game(rules=rules, lexicon=lex, players=["me", "level1"], seed=3, first=first)
    game.set_rack("me", rack)
    game.set_rack("level1", bot_rack)
    return game


SEATS = [Seat("me"), Seat("level1", "level1")]


# -- moves and commands --------------------------------------------------------------------


def test_a_play_then_the_bot_replies_and_its_rack_stays_hidden(lex):
    game = vs_bot(lex)
    bot = ScriptedBot(["-JX"])
    app, _, out = make_app(game, SEATS, ["8D QUITE"], bot=bot)
    assert app.run() == 0
    text = out.getvalue()
    assert "me played 8D QUITE for 48" in text
    assert "level1 exchanged 2 tiles" in text
    assert "(JX)" not in text  # the bot's exchanged tiles are its secret
    assert "me's rack:" in text and "Q₁₀" in text
    assert "level1's rack" not in text and "J₈" not in text and "X₈" not in text
    # the bot saw only its own view
    assert bot.seen == [(1, tuple(game.alphabet.parse("FJKVWXY")))]
    assert [e.kind for e in game.history] == [EventKind.PLAY, EventKind.EXCHANGE]


def test_an_illegal_move_is_explained_and_changes_nothing(lex):
    game = vs_bot(lex)
    app, script, out = make_app(game, SEATS, ["8D TIQUE", "8E QUIZ", "H8 QUITE"])
    app.run()
    text = out.getvalue()
    assert "Not allowed: not in the word list: TIQUE" in text
    assert "Not allowed: not on your rack: Z" in text
    # the third line is played down from H8 after two refusals, on the same turn
    assert game.history[0].player == 0 and game.history[0].move.across is False
    assert [p for p, _ in script.prompts[:3]] == ["me> "] * 3


def test_unknown_command_prints_help_and_help_lists_commands(lex):
    game = vs_bot(lex)
    app, _, out = make_app(game, SEATS, ["dance", "help"])
    app.run()
    text = out.getvalue()
    assert "unknown command 'dance'. Commands:" in text
    for syntax, what in help_rows():
        assert text.count(syntax) >= 2, syntax  # listed after the error and for `help`
        assert what[:30] in text
    assert game.history == []


@pytest.mark.parametrize("answer", ["n", "no", "N", "No", " n "])
def test_no_at_the_save_prompt_saves_nothing(lex, tmp_path, monkeypatch, answer):
    pytest.importorskip("tessera.formats.gcg")
    monkeypatch.chdir(tmp_path)
    app, script, out = make_app(vs_bot(lex), SEATS, ["8D QUITE", "quit", answer])
    assert app.run() == 0
    assert script.prompts[-1][0].startswith("Save the game before leaving?")
    assert list(tmp_path.iterdir()) == []  # no file called "n" (or anything else)
    assert "Saved to" not in out.getvalue()


@pytest.mark.parametrize("answer", ["", "   "])
def test_enter_at_the_save_prompt_saves_nothing(lex, tmp_path, monkeypatch, answer):
    monkeypatch.chdir(tmp_path)
    app, _, _ = make_app(vs_bot(lex), SEATS, ["8D QUITE", "quit", answer])
    assert app.run() == 0
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("answer", ["y", "yes", "Y"])
def test_yes_at_the_save_prompt_saves_under_the_offered_name(lex, tmp_path, monkeypatch, answer):
    pytest.importorskip("tessera.formats.gcg")
    monkeypatch.chdir(tmp_path)
    app, script, out = make_app(vs_bot(lex), SEATS, ["8D QUITE", "quit", answer])
    assert app.run() == 0
    [saved] = list(tmp_path.iterdir())
    assert saved.name.startswith("tessera-") and saved.suffix == ".gcg"
    assert saved.name in script.prompts[-1][0]  # the prompt said which name "y" means
    assert "8D QUITE +48 48" in saved.read_text(encoding="utf-8")
    assert f"Saved to {saved.name}." in out.getvalue()


def test_a_file_name_at_the_save_prompt_saves_there_and_a_failure_asks_again(
    lex, tmp_path, monkeypatch
):
    pytest.importorskip("tessera.formats.gcg")
    monkeypatch.chdir(tmp_path)
    lines = ["8D QUITE", "quit", "no/such/dir/x.gcg", "kept.gcg"]
    app, script, out = make_app(vs_bot(lex), SEATS, lines)
    assert app.run() == 0
    assert "Cannot save to no/such/dir/x.gcg" in out.getvalue()
    assert [p for p, _ in script.prompts][-2:] == [script.prompts[-1][0]] * 2  # asked again
    assert [p.name for p in tmp_path.iterdir()] == ["kept.gcg"]


def test_a_mistyped_command_on_a_short_terminal_points_to_help(lex):
    game = vs_bot(lex)
    out = io.StringIO()
    console = Console(file=out, width=80, height=24, color_system=None, force_terminal=True)
    script = Script(out, ["dance"])
    app = PlayApp(game, SEATS, console=console, read_line=script,
                  bot_factory=lambda spec, lexicon, seed: ScriptedBot())
    app.run()
    text = out.getvalue()
    assert "unknown command 'dance'. Type 'help' for the commands." in text
    # the list would scroll the board off a 24-line screen
    assert help_rows()[0][1][:30] not in text


def test_eof_ends_cleanly_and_offers_to_save(lex):
    game = vs_bot(lex)
    app, script, out = make_app(game, SEATS, ["8D QUITE"])
    assert app.run() == 0
    prompts = [p for p, _ in script.prompts]
    assert prompts[-1].startswith("Save the game before leaving?")
    assert out.getvalue().rstrip().endswith("Goodbye.")


def test_quit_with_nothing_played_does_not_offer_to_save(lex):
    game = vs_bot(lex)
    app, script, out = make_app(game, SEATS, ["quit"])
    assert app.run() == 0
    assert not any(p.startswith("Save") for p, _ in script.prompts)
    assert "Goodbye." in out.getvalue()


def test_hints_list_the_best_moves_as_they_are_typed(lex):
    game = vs_bot(lex)

    def hints(g: Game, count: int):
        assert g is game and count == 4
        return [
            Hint(g.check("8D QUITE"), 48, 46.1),
            Hint(g.check("8H QUITE"), 30, 28.25),
            Hint(Exchange(tuple(g.alphabet.parse("QU"))), 0, -1.5),
            Hint(Pass(), 0, -3.0),
        ]

    app, _, out = make_app(game, SEATS, ["hint 4"], hints=hints)
    app.run()
    lines = [line.strip() for line in out.getvalue().splitlines()]
    i = next(k for k, line in enumerate(lines) if line.startswith("Best moves:"))
    assert lines[i].split() == ["Best", "moves:", "score", "equity"]
    assert lines[i + 1].split() == ["1.", "8D", "QUITE", "48", "46.1"]
    assert lines[i + 2].split() == ["2.", "8H", "QUITE", "30", "28.2"]
    assert lines[i + 3].split() == ["3.", "-QU", "0", "-1.5"]
    assert lines[i + 4].split() == ["4.", "pass", "0", "-3.0"]


def test_hint_without_plays_and_without_a_generator(lex):
    game = vs_bot(lex)

    def none(g: Game, count: int):
        return []

    app, _, out = make_app(game, SEATS, ["hint"], hints=none)
    app.run()
    assert "No move to suggest." in out.getvalue()

    def no_play(g: Game, count: int):
        return [Hint(Pass(), 0, 0.0)]

    app, _, out = make_app(game, SEATS, ["hint"], hints=no_play)
    app.run()
    assert "No play is possible with this rack." in out.getvalue()
    assert "1. pass" in out.getvalue()

    def missing(g: Game, count: int):
        raise SetupError("hints need tessera.movegen")

    app, _, out = make_app(vs_bot(lex), SEATS, ["hint", "pass"], hints=missing)
    app.run()
    assert "hints need tessera.movegen" in out.getvalue()
    assert "me passed" in out.getvalue()  # the session went on

    def broken(g: Game, count: int):
        raise KeyError("oops")

    app, _, out = make_app(vs_bot(lex), SEATS, ["hint", "pass"], hints=broken)
    app.run()
    assert "Hints failed: KeyError: 'oops'" in out.getvalue()
    assert "me passed" in out.getvalue()


def check_hints(game: Game, hints: Sequence[Hint]) -> None:
    assert [h.equity for h in hints] == sorted((h.equity for h in hints), reverse=True)
    for h in hints:
        if isinstance(h.move, Play):
            assert game.check(h.move).score == h.score  # legal, and scored right


def test_default_hints_rank_by_equity_from_the_players_view(lex):
    pytest.importorskip("tessera.engine")
    game = vs_bot(lex, bot_rack="AEINRST")
    hints = best_moves(game, 5)
    assert len(hints) == 5
    check_hints(game, hints)
    assert hints[0].score == 48 and hints[0].move.position in ("8D", "H4")  # QUITE
    game.set_rack("me", "IUUUVVW")  # nothing to play: exchanges and the pass
    hints = best_moves(game, 3)
    assert not any(isinstance(h.move, Play) for h in hints)
    assert any(isinstance(h.move, Exchange) for h in hints)


def test_default_hints_without_the_engine_come_from_the_generator(lex, monkeypatch):
    pytest.importorskip("tessera.movegen")
    import sys

    monkeypatch.setitem(sys.modules, "tessera.engine", None)
    game = vs_bot(lex)
    hints = best_moves(game, 3)
    assert len(hints) == 3
    check_hints(game, hints)
    assert hints[0].score == 48 and hints[0].equity == 48.0


def test_exchange_and_pass(lex):
    game = vs_bot(lex)
    app, _, out = make_app(game, SEATS, ["-qu", "pass"])
    app.run()
    assert game.history[0].kind is EventKind.EXCHANGE
    assert game.alphabet.format(game.history[0].move.tiles) == "QU"
    assert game.history[2].kind is EventKind.PASS and game.history[2].player == 0
    assert "me exchanged 2 tiles" in out.getvalue()


def test_undo_against_a_bot_goes_back_to_the_persons_turn(lex):
    game = vs_bot(lex)
    bot = ScriptedBot(["-JX"])
    app, _, out = make_app(game, SEATS, ["8D QUITE", "undo"], bot=bot)
    app.run()
    assert "Taken back." in out.getvalue()
    assert game.history == []
    assert game.board.is_empty()
    assert game.to_move == 0
    assert game.alphabet.format(game.rack("me").tiles()) == "ABEIQTU"


def test_undo_is_refused_in_timed_games(lex):
    game = vs_bot(lex, rules="naspa")
    app, _, out = make_app(game, SEATS, ["undo"])
    app.run()
    assert "Cannot undo: moves cannot be taken back in a timed game" in out.getvalue()


def test_challenges_void_rules_and_a_phony_challenged_off(lex):
    game = vs_bot(lex)
    app, _, out = make_app(game, SEATS, ["challenge"])
    app.run()
    assert "Not allowed: these rules check words as they are played" in out.getvalue()

    game = vs_bot(lex, rules="hasbro", rack="AEINRST", bot_rack="QUIXEAB", first=1)
    bot = ScriptedBot(["8D QUIXE"])  # a phony
    app, _, out = make_app(game, SEATS, ["challenge"], bot=bot)
    app.run()
    text = out.getvalue()
    assert "You may challenge the last play" in text
    assert "level1's 8D QUIXE was challenged off (-62)" in text
    assert game.board.is_empty() and game.score("level1") == 0
    assert game.history[-1].kind is EventKind.WITHDRAWN


def test_a_bots_illegal_move_becomes_a_pass(lex):
    game = vs_bot(lex, first=1)
    bot = ScriptedBot(["8F JXK", 42])
    app, _, out = make_app(game, SEATS, ["pass"], bot=bot)
    app.run()
    text = out.getvalue()
    assert "level1 chose an illegal move (not in the word list: JXK); it passes instead." in text
    assert "level1 chose an illegal move (42 is not a move)" in text
    assert [e.kind for e in game.history] == [EventKind.PASS] * 3


def test_resign_ends_the_game_with_a_summary(lex):
    game = vs_bot(lex)
    app, script, out = make_app(game, SEATS, ["resign"])
    assert app.run() == 0
    text = out.getvalue()
    assert "Game over: me resigned." in text
    assert "Winner: level1" in text
    assert "rack FJKVWXY" in text  # the bot's rack is revealed at the end
    assert script.prompts[-1][0].startswith("Save the game?")
    assert game.state is GameState.OVER


def test_a_whole_scoreless_game_to_the_summary(lex):
    game = vs_bot(lex)
    app, script, out = make_app(game, SEATS, ["pass", "pass", "-", "", ""])
    assert app.run() == 0
    text = out.getvalue()
    assert "Game over: 6 scoreless turns in a row." in text
    # casual rules: each player loses their own rack's value (R6.2); me 18, level1 37
    assert game.result is not None and game.result.scores == (-18, -37)
    assert "Winner: me" in text
    final = text[text.index("Final scores:") :]
    assert final.splitlines()[1].split() == ["me", "-18", "rack", "ABEIQTU", "winner"]
    assert final.splitlines()[2].split() == ["level1", "-37", "rack", "FJKVWXY"]
    assert script.lines == []  # the empty answers declined the review and saving
    assert [p for p, _ in script.prompts[-2:]] == [
        "Review the game, turn by turn? y or n (n): ", script.prompts[-1][0]
    ]
    assert "best moves" not in text


def test_at_the_end_the_game_is_reviewed_as_tessera_analyze_prints_it(lex, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the game is saved under its default name
    game = vs_bot(lex)
    bot = ScriptedBot(["9H FY"])
    app, _, out = make_app(game, SEATS, ["8D QUITE", "resign", "y", "y"], bot=bot)
    assert app.run() == 0
    text = out.getvalue()
    review = text[text.index("Analysing the game…"):text.index("Save the game?")]
    from tessera.engine.analysis import analyze_file, render_table

    expected = io.StringIO()
    render_table(analyze_file(next(tmp_path.glob("*.gcg")), lex, top=3), expected)
    def body(text: str) -> list[str]:  # the table from its top edge (the titles differ)
        lines = text.splitlines()
        return lines[next(i for i, line in enumerate(lines) if line.startswith("┏")) :]

    # the same turns, moves and losses as `tessera analyze` on the record saved after it
    assert body(review) == body(expected.getvalue())
    assert "this game — static analysis" in review
    assert "8D QUITE" in review and "equity lost: " in review


# -- hidden information in hot-seat games ---------------------------------------------------


def test_hot_seat_shows_only_the_current_persons_rack(lex):
    game = Game(rules="casual", lexicon=lex, players=["Ann", "Bob"], seed=3, first=0)
    game.set_rack("Ann", "QUITEAB")
    game.set_rack("Bob", "JXKVWYF")
    seats = [Seat("Ann"), Seat("Bob")]
    app, script, out = make_app(game, seats, ["", "8D QUITE", "", "pass"], terminal=True)
    app.run()
    text = out.getvalue()
    prompts = [p for p, _ in script.prompts]
    marks = [m for _, m in script.prompts]
    assert prompts[:4] == [
        "Ann, press Enter when only you can see the screen: ",
        "Ann> ",
        "Bob, press Enter when only you can see the screen: ",
        "Bob> ",
    ]
    before_ann = text[: marks[0]]
    ann_turn = text[marks[0] : marks[1]]
    handover = text[marks[1] : marks[2]]
    bob_turn = text[marks[2] : marks[3]]
    assert "rack:" not in before_ann and "Pass the terminal to Ann" in before_ann
    assert "Ann's rack:" in ann_turn and "Q₁₀" in ann_turn and "J₈" not in ann_turn
    # after Ann's move: the screen and scroll-back are wiped; only public news remains
    assert "\x1b[3J" in handover
    after_wipe = handover[handover.rindex("\x1b[3J") :]
    assert "rack:" not in after_wipe and "Unseen" not in after_wipe
    assert "Ann played 8D QUITE for 48" in after_wipe
    assert "Pass the terminal to Bob" in after_wipe
    assert "Bob's rack:" in bob_turn and "J₈" in bob_turn
    assert "Ann's rack" not in bob_turn
    assert bob_turn.count("\x1b[3J") >= 1  # wiped again once Bob pressed Enter


def test_hot_seat_with_a_bot_never_shows_the_bots_rack(lex):
    game = Game(rules="casual", lexicon=lex, players=["Ann", "Bob", "level2"], seed=3, first=0)
    game.set_rack("level2", "JXKVWYF")
    seats = [Seat("Ann"), Seat("Bob"), Seat("level2", "level2")]
    app, script, out = make_app(game, seats, ["", "pass", "", "pass", "", ""], terminal=True)
    app.run()
    text = out.getvalue()
    assert "level2 passed" in text
    assert "level2's rack" not in text and "J₈" not in text
    assert [p for p, _ in script.prompts].count("Ann, press Enter when only you can see "
                                                 "the screen: ") == 2


# -- options -------------------------------------------------------------------------------


def test_parse_players():
    assert parse_players("me,level3") == [Seat("me"), Seat("level3", "level3")]
    assert parse_players(" Ann , BEST,static ") == [
        Seat("Ann"),
        Seat("BEST", "best"),
        Seat("static", "static"),
    ]
    assert parse_players("level1,level1") == [Seat("level1", "level1"), Seat("level1#2", "level1")]
    with pytest.raises(SetupError, match="no computer player 'level9'"):
        parse_players("level9,x")  # looks like a level, but there is none: not a person
    with pytest.raises(SetupError, match="2 to 4 players, not 1"):
        parse_players("me")
    with pytest.raises(SetupError, match="2 to 4 players, not 5"):
        parse_players("a,b,c,d,e")
    with pytest.raises(SetupError, match="a name is empty"):
        parse_players("me,,level1")


def test_seats_for_a_loaded_game_keep_known_seats():
    previous = [Seat("me"), Seat("Hal", "level5")]
    assert seats_for(["me", "Hal", "best"], previous) == [
        Seat("me"),
        Seat("Hal", "level5"),
        Seat("best", "best"),
    ]


def test_cli_hot_seat_game_to_the_end():
    runner = CliRunner()
    # each turn: Enter to take the terminal, then pass; six passes end the game
    keys = "\npass\n" * 6 + "\n"
    # 120 columns: at 80 the summary is beside the board, its sentences wrapped
    result = runner.invoke(
        main, ["play", "--players", "Ann,Bob", "--seed", "2"], input=keys, env={"COLUMNS": "120"}
    )
    assert result.exit_code == 0, result.output
    assert "Game over: 6 scoreless turns in a row." in result.output
    assert "Final scores:" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "me"], "2 to 4 players, not 1"),
        (["--players", "a,b,c", "--rules", "naspa"], "naspa rules take 2–2 players, not 3"),
        (["--lexicon", "no-such-list"], "no lexicon named 'no-such-list'"),
        (["--rules", "nope"], "Invalid value for '--rules'"),
    ],
)
def test_cli_refuses_bad_options(args, message):
    result = CliRunner().invoke(main, ["play", *args], input="")
    assert result.exit_code != 0
    assert message in result.output


def test_cli_help_lists_the_options():
    result = CliRunner().invoke(main, ["play", "--help"])
    assert result.exit_code == 0
    for option in ("--rules", "--lexicon", "--players", "--seed", "--load"):
        assert option in result.output


# -- saving and loading GCG ----------------------------------------------------------------


def test_save_and_load_gcg(lex, tmp_path, monkeypatch):
    gcg = pytest.importorskip("tessera.formats.gcg")
    monkeypatch.chdir(tmp_path)
    game = vs_bot(lex)
    bot = ScriptedBot(["-JX"])
    lines = ["8D QUITE", "save saved.gcg", "save", "load saved.gcg", "load missing.gcg"]
    app, script, out = make_app(game, SEATS, lines, bot=bot)
    app.run()
    text = out.getvalue()
    assert "Saved to saved.gcg." in text
    assert "Cannot read missing.gcg: No such file or directory" in text
    assert "Loaded saved.gcg: me, level1 (computer); 2 events; me to move." in text
    saved = (tmp_path / "saved.gcg").read_text(encoding="utf-8")
    assert saved == gcg.dumps(game)
    assert ">me: ABEIQTU 8D QUITE +48 48" in saved
    assert len(list(tmp_path.glob("tessera-*.gcg"))) == 1  # `save` with no name
    loaded = app.game
    assert loaded is not game
    assert loaded.board == game.board and loaded.scores == game.scores == [48, 0]
    assert loaded.rack("me") == game.rack("me") and loaded.to_move == 0
    assert app.seats == SEATS
    # everything is saved: leaving does not ask again
    assert not any(p.startswith("Save the game") for p, _ in script.prompts)


def test_save_to_an_unwritable_place_and_load_a_bad_file(lex, tmp_path):
    pytest.importorskip("tessera.formats.gcg")
    bad = tmp_path / "bad.gcg"
    bad.write_text("#player1 a a\n#player2 b b\n>a: QUITEAB 8D QUITE +99 99\n", "utf-8")
    game = vs_bot(lex)
    lines = [f"save {tmp_path}/no/such/dir/g.gcg", f"load {bad}", "pass"]
    app, _, out = make_app(game, SEATS, lines)
    app.run()
    text = " ".join(out.getvalue().split())
    assert f"Cannot save to {tmp_path}/no/such/dir/g.gcg: No such file or directory" in text
    assert f"Cannot load {bad}: line 3:" in text
    assert app.game is game and [e.kind for e in game.history][:1] == [EventKind.PASS]


# -- clocks ------------------------------------------------------------------------------


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_timed_rules_charge_the_person_and_end_past_max_overtime(lex):
    game = vs_bot(lex, rules="naspa")
    clock = FakeClock()
    lines = iter(["pass", "pass"])
    spent = iter([65.0, 36 * 60.0])  # 65 s, then 36 min: past 25 min + 10 min overtime

    def read(prompt: str) -> str:
        if prompt == "me> ":
            clock.now += next(spent)
        line = next(lines, None)
        if line is None:
            raise EOFError
        return line

    out = io.StringIO()
    app = PlayApp(
        game,
        SEATS,
        console=Console(file=out, width=120, color_system=None),
        read_line=read,
        bot_factory=lambda spec, lexicon, seed: ScriptedBot(),
        clock=clock,
    )
    app.run()
    text = out.getvalue()
    first = game.history[0]
    assert first.kind is EventKind.PASS and first.elapsed_ms == 65_000
    assert "me's clock is past the maximum overtime." in text
    assert game.is_over and game.result is not None
    assert game.result.reason.value in ("max_overtime", "timeout_forfeit")
    assert "Game over:" in text


def test_a_crash_outside_the_rules_offers_to_save_then_propagates(lex, tmp_path):
    pytest.importorskip("tessera.formats.gcg")

    class Broken:
        def choose(self, view):
            raise RuntimeError("engine exploded")

    game = vs_bot(lex)
    out = io.StringIO()
    script = Script(out, ["8D QUITE", str(tmp_path / "rescued.gcg")])
    app = PlayApp(
        game,
        SEATS,
        console=Console(file=out, width=120, color_system=None),
        read_line=script,
        bot_factory=lambda spec, lexicon, seed: Broken(),
    )
    with pytest.raises(RuntimeError, match="engine exploded"):
        app.run()
    assert "Internal error: RuntimeError: engine exploded" in out.getvalue()
    assert script.prompts[-1][0].startswith("The game cannot go on. Save it?")
    assert "8D QUITE +48 48" in (tmp_path / "rescued.gcg").read_text(encoding="utf-8")


def test_cli_load_continues_a_saved_game(lex, tmp_path):
    gcg = pytest.importorskip("tessera.formats.gcg")
    game = Game(rules="casual", lexicon=lex, players=["Ann", "Bob"], seed=4, first=0)
    game.set_rack("Ann", "QUITEAB")
    game.play("8D QUITE")
    path = tmp_path / "ann-bob.gcg"
    path.write_text(gcg.dumps(game), encoding="utf-8")
    # 120 columns: at 80 the panel beside the board wraps the moves it lists
    result = CliRunner().invoke(
        main, ["play", "--load", str(path)], input="\npass\n", env={"COLUMNS": "120"}
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Ann played 8D QUITE for 48" in out
    assert "Pass the terminal to Bob." in out
    assert "Bob passed" in out
    assert "Save the game before leaving?" in out


# -- computer players ----------------------------------------------------------------------


def test_bots_get_their_spec_the_lexicon_and_a_seed_from_the_game(lex):
    calls = []
    game = Game(rules="casual", lexicon=lex, players=["me", "level2", "best"], seed=7)
    seats = [Seat("me"), Seat("level2", "level2"), Seat("best", "best")]
    PlayApp(
        game,
        seats,
        console=Console(file=io.StringIO()),
        read_line=Script(io.StringIO(), []),
        bot_factory=lambda *args: calls.append(args) or ScriptedBot(),
    )
    assert calls == [("level2", lex, 8), ("best", lex, 9)]


def test_engine_bot_without_the_engine_is_a_clear_error(lex, monkeypatch):
    import sys

    from tessera.tui.app import engine_bot

    monkeypatch.setitem(sys.modules, "tessera.engine", None)
    with pytest.raises(SetupError, match=r"computer players \(level3\) need tessera.engine"):
        engine_bot("level3", lex, 1)


def test_engine_bot_plays_from_its_view(lex):
    pytest.importorskip("tessera.engine")
    from tessera.tui.app import engine_bot

    game = vs_bot(lex, first=1, rack="AEINRST", bot_rack="QUITEAB")
    bot = engine_bot("level5", lex, 1)
    move = bot.choose(game.view(1))
    assert isinstance(move, Move)
    game.play(move, 1)  # legal
    assert game.history[0].player == 1


def test_accepting_a_bots_out_play_ends_the_game(lex):
    """R5.5: under challenge rules, the play that goes out waits for pass or challenge."""
    rules = "hasbro"
    probe = Game(rules=rules, players=["a", "b"], seed=1)
    alphabet = probe.alphabet
    rest = list(probe.tileset.bag())
    for t in alphabet.parse("ZAT"):
        rest.remove(t)
    rest = [t if t else alphabet.letter("E") | 0x80 for t in rest]  # blanks on board as e
    board = [(k // 15, k % 15, t) for k, t in enumerate(rest)]  # rows 1-6 and part of 7
    assert len(rest) == 97
    game = Game.from_position(
        rules,
        board_tiles=board,
        racks=[alphabet.parse("Z"), alphabet.parse("AT")],
        scores=[100, 90],
        to_move=1,
        lexicon=lex,
        players=["me", "level1"],
        seed=1,
    )
    bot = ScriptedBot(["8A AT"])
    app, _, out = make_app(game, SEATS, ["hint", "8J ZA", "pass", ""], bot=bot)
    app.run()
    text = out.getvalue()
    assert "level1's play ends the game unless it is challenged" in text
    assert "The last play ends the game: you can only 'pass' (accept) or 'challenge'." in text
    assert "Not allowed: the last play ends the game unless challenged" in text
    assert "me accepted the play" in text
    assert "Game over: level1 went out." in text
    assert game.result is not None and game.result.reason.value == "played_out"


# -- the language ---------------------------------------------------------------------------


def test_lang_lists_the_languages_and_switches_the_game_to_one(lex):
    game = vs_bot(lex)
    app, _, out = make_app(game, SEATS, ["lang", "lang HU", "pass"])
    app.run()
    text = out.getvalue()
    assert "Languages: en (English), ja (日本語), hu (Magyar). Type e.g. 'lang hu'." in text
    before, after = text.split("lang HU\n")
    assert "me's rack:" in before and "betűtartó" not in before
    assert "me betűtartója:" in after  # the turn is shown again, in Hungarian
    assert "me passzolt" in after
    assert "Mentsem kilépés előtt?" in after
    assert any(syntax.startswith("lang ") for syntax, _ in help_rows())


@pytest.mark.parametrize(
    ("args", "env", "goodbye"),
    [
        (["--lang", "ja"], {}, "さようなら。"),
        (["--lang", "hu"], {"LANG": "ja_JP.UTF-8"}, "Viszlát!"),
        ([], {"LANG": "hu_HU.UTF-8"}, "Viszlát!"),
        ([], {"LANGUAGE": "ja", "LANG": "hu_HU.UTF-8"}, "さようなら。"),
        ([], {}, "Goodbye."),
    ],
)
def test_cli_speaks_the_language_of_the_option_else_of_the_environment(args, env, goodbye):
    result = CliRunner().invoke(main, ["play", "--players", "Ann,Bob", *args], input="\nquit\n",
                                env=env)
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith(goodbye)


def test_cli_refuses_a_language_it_does_not_have():
    result = CliRunner().invoke(main, ["play", "--lang", "de"], input="")
    assert result.exit_code != 0
    assert "'de' is not one of 'en', 'ja', 'hu'" in result.output


@pytest.mark.parametrize(
    ("args", "env", "said"),
    [
        (["--lang", "ja", "--help"], {}, "ゲームの言語: en（英語）"),
        (["--help"], {"LANG": "hu_HU.UTF-8"}, "A játék nyelve: en (angol)"),
        (["--help"], {}, "The game's language: en (English)"),
    ],
)
def test_cli_help_speaks_the_language_of_the_option_else_of_the_environment(args, env, said):
    result = CliRunner().invoke(main, ["play", *args], env={"COLUMNS": "200", **env})
    assert result.exit_code == 0, result.output
    assert said in result.output
