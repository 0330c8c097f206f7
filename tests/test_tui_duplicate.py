"""``tessera play --rules duplicate`` (R8.4) driven with scripted input: a solo game against
the master move to its end, several people at one screen, late and unreadable plays, saving
and loading, and the command-line options."""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence

import pytest
from click.testing import CliRunner
from rich.console import Console

from support.duplicates import tops_of_a_twin
from tessera.cli import main
from tessera.duplicate import DuplicateGame
from tessera.formats import gcg
from tessera.lexicon import Lexicon
from tessera.tui.duplicate import DuplicateApp


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("enable")


class Script:
    """Scripted keyboard: answers prompts from ``lines`` (EOF when they run out)."""

    def __init__(self, out: io.StringIO, lines: Sequence[str]) -> None:
        self.out = out
        self.lines = list(lines)

    def __call__(self, prompt: str) -> str:
        self.out.write(prompt)
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        self.out.write(line + "\n")
        return line


def make_app(game: DuplicateGame, lines: Sequence[str], clock: Iterator[float] | None = None
             ) -> tuple[DuplicateApp, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, highlight=False)
    times = clock or iter(float(i) for i in range(10**6))
    app = DuplicateApp(game, console=console, read_line=Script(out, lines),
                       clock=lambda: next(times))
    return app, out


def rows(text: str) -> list[str]:
    """The lines of ``text`` with runs of spaces as one (table columns vary in width)."""
    return [" ".join(line.split()) for line in text.splitlines()]


def test_a_solo_game_against_the_master_move_to_its_end(lex: Lexicon) -> None:
    tops = tops_of_a_twin(lex, 11)
    game = DuplicateGame("duplicate", lex, players=["me"], seed=11)
    app, out = make_app(game, tops)
    assert app.run() == 0
    text = out.getvalue()
    assert game.is_over and game.scores == [game.top_total]
    assert "Round 1: the top is 8D QUOTE for 40 (2 tops)." in text
    assert f"Game over ({game.end_reason.value.replace('_', ' ')})" in text
    assert f"me {game.top_total} 100.00% +0" in rows(text)


def test_several_people_at_one_screen_see_only_their_own_play(lex: Lexicon) -> None:
    game = DuplicateGame("duplicate", lex, players=["Ann", "Bob"], seed=11)
    app, out = make_app(game, ["", "8D QUOTE", "", "8D TOQUE 26", "quit"])
    app.run()
    text = out.getvalue()
    bobs_turn = text[text.index("Pass the terminal to Bob") : text.index("Round 1: the top")]
    assert "8D QUOTE" not in bobs_turn  # Ann's play stayed hidden until the round closed
    assert "Ann hands in 8D QUOTE." in text and "Bob hands in 8D TOQUE." in text
    closed = text[text.index("Round 1: the top") :]
    assert "Ann 8D QUOTE 40 40" in rows(closed)
    assert "Bob 8D TOQUE 26 26" in rows(closed)
    assert game.rounds[0].submissions[1].declared == 26
    assert "Goodbye." in text


def test_late_unreadable_and_skipped_plays(lex: Lexicon) -> None:
    game = DuplicateGame("duplicate", lex, players=["Ann", "Bob", "Cy"], seed=11)
    # Ann's prompt at t=0, her play at t=200 s: over the 180 s of a round
    clock = iter([0.0, 200.0, 0.0, 1.0, 1.0, 0.0, 1.0] + [1.0] * 50)
    app, out = make_app(game, ["", "8D QUOTE", "", "8D", "pass", "8D QEOTU", "", "skip",
                               "quit"], clock)
    app.run()
    text = out.getvalue()
    assert "a play is a position and a word" in text  # retyped, not scored
    assert "Duplicate has no passes or exchanges" in text
    closed = text[text.index("Round 1: the top") :]
    assert "Ann 8D QUOTE (late) 0 0" in rows(closed)
    assert "Bob 8D QEOTU (invalid words) 0 0" in rows(closed)
    assert "Cy — (missing) 0 0" in rows(closed)


def test_save_then_load_continues_the_game(lex: Lexicon, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    result = runner.invoke(
        main, ["play", "--rules", "duplicate", "--seed", "11"],
        input="8D QUOTE\nsave game.gcg\nI5 OBESE\nquit\n", env={"COLUMNS": "120"},
    )
    assert result.exit_code == 0, result.output
    assert "Saved to game.gcg." in result.output
    assert "Round 1: the top is 8D QUOTE for 40 (2 tops)." in result.output
    saved = gcg.replay_duplicate((tmp_path / "game.gcg").read_text(), lexicon=lex)
    assert saved.round == 2 and saved.scores == [40]
    result = runner.invoke(main, ["play", "--load", "game.gcg"], input="I5 OBESE\nquit\n",
                           env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "Round 2: the top is I5 OBESE for 22." in result.output
    assert "me I5 OBESE 22 62" in rows(result.output)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("Ann,level9", "level9 is not a computer player; computers are level1"),
        ("Ann,Ann", "the names must be different"),
        ("Ann,,Bob", "give comma-separated names"),
    ],
)
def test_cli_refuses_unknown_computers_and_bad_names(players: str, message: str) -> None:
    result = CliRunner().invoke(main, ["play", "--rules", "duplicate", "--players", players],
                                input="")
    assert result.exit_code != 0
    assert message in result.output


def test_cli_takes_many_people() -> None:
    names = ",".join(f"P{i}" for i in range(6))
    keys = "\nskip\n" * 6 + "\nquit\n"
    result = CliRunner().invoke(
        main, ["play", "--rules", "duplicate", "--players", names, "--seed", "3"],
        input=keys, env={"COLUMNS": "120"},
    )
    assert result.exit_code == 0, result.output
    assert "Round 1: the top is" in result.output and "P5" in result.output


def test_computers_alone_play_the_game_to_its_end() -> None:
    # best always hands in a top (100%); level1 picks as the beginner level does
    result = CliRunner().invoke(
        main, ["play", "--rules", "duplicate", "--players", "best,level1", "--seed", "11"],
        input="", env={"COLUMNS": "120"},
    )
    assert result.exit_code == 0, result.output
    lines = rows(result.output)
    assert "best hands in a play." in lines and "level1 hands in a play." in lines
    assert any(line.startswith("Game over") for line in lines)
    best = next(line for line in lines if line.startswith("best ") and "%" in line)
    assert best.split()[2] == "100.00%"
    level1 = next(line for line in lines if line.startswith("level1 ") and "%" in line)
    assert float(level1.split()[2].rstrip("%")) < 100


def test_a_person_plays_beside_a_computer(lex: Lexicon) -> None:
    game = DuplicateGame("duplicate", lex, players=["me", "level3"], seed=11)
    app, out = make_app(game, ["skip", "quit"])
    app.run()
    text = out.getvalue()
    assert "Pass the terminal" not in text  # one person: no screen to hide
    assert "level3 hands in a play." in text
    rd = game.rounds[0]
    assert rd.points(0) == 0  # me: skipped
    assert rd.points(1) > 0 and rd.submissions[1].move is not None
    assert game.computers == {1: "level3"}  # so its saved record says who played that seat
    from tessera.formats import gcg

    assert gcg.replay_duplicate(gcg.dumps(game), lexicon=lex).computers == {1: "level3"}
