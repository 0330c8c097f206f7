"""Issue 13: everything the terminal game says comes from its message catalogue (domain
``tui``). Games are played in-process under a pseudo-translation that brackets every message
(⟦…⟧); any line of output with a word outside the brackets that is not data the test can name
(a player's name, the word list's and the rules' names, tiles, words, notation, numbers,
file names) is a string that escaped the catalogue, and the failure lists those lines."""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Iterable, Sequence

import click
import pytest
from rich.cells import cell_len
from rich.console import Console

from support.duplicates import tops_of_a_twin
from tessera.duplicate import DuplicateGame
from tessera.game import EndReason, Game
from tessera.legality import IllegalMove, Reason
from tessera.lexicon import Lexicon
from tessera.move import Pass, parse_move
from tessera.tui.app import Hint, PlayApp, Seat, SetupError, parse_players
from tessera.tui.board import render_view, summary
from tessera.tui.commands import help_rows
from tessera.tui.duplicate import DuplicateApp, duplicate_players
from tessera.tui.lang import refusal, speaking

OPEN, CLOSE = "⟦", "⟧"
BRACKETED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", re.DOTALL)
WORD = re.compile(r"\w+")


class Pseudo(gettext.NullTranslations):
    """Every message, bracketed: what the catalogue did not give stays bare."""

    def gettext(self, message: str) -> str:
        return f"{OPEN}{message}{CLOSE}"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"{OPEN}{msgid1 if n == 1 else msgid2}{CLOSE}"

    def pgettext(self, context: str, message: str) -> str:
        return f"{OPEN}{message}{CLOSE}"


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("enable")


@pytest.fixture(autouse=True)
def pseudo() -> Iterable[None]:
    with speaking(Pseudo()):
        yield


class Keyboard:
    """Scripted input; the prompt goes to the output (it is the app's), the typed line does
    not (it is the person's)."""

    def __init__(self, out: io.StringIO, lines: Sequence[str]) -> None:
        self.out, self.lines = out, list(lines)

    def __call__(self, prompt: str) -> str:
        self.out.write(prompt + "\n")
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


class Bot:
    def __init__(self, moves: Sequence[str | object] = ()) -> None:
        self.moves = list(moves)

    def choose(self, view):
        if not self.moves:
            return Pass()
        move = self.moves.pop(0)
        if isinstance(move, str):
            return parse_move(move, view.tileset.alphabet, view.board)
        return move


def console(out: io.StringIO, width: int = 120) -> Console:
    return Console(file=out, width=width, color_system=None, highlight=False)


def untranslated(text: str, data: Iterable[str]) -> list[str]:
    """The lines of ``text`` with a word outside every ⟦…⟧ (a message may wrap onto the next
    lines) that is not data: a single letter or a word mostly in capitals (tiles, blanks in
    lower case, words, notation, squares, premium labels), a number, or one of ``data``
    (names, file names, the command words a person types)."""
    allowed = {d.lower() for d in data}
    rest = text
    while True:  # innermost brackets first: a message may hold translated parts
        stripped = BRACKETED.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), rest)
        if stripped == rest:
            break
        rest = stripped

    def is_data(word: str) -> bool:
        upper = sum(ch.isupper() for ch in word)
        lower = sum(ch.islower() for ch in word)
        return lower == 0 or len(word) == 1 or upper > lower or word.lower() in allowed

    return [
        line
        for line, left in zip(text.splitlines(), rest.splitlines(), strict=True)
        if not all(is_data(w) for w in WORD.findall(left))
    ]


def assert_all_translated(text: str, data: Iterable[str]) -> None:
    assert OPEN in text
    bad = untranslated(text, data)
    assert not bad, "said outside the catalogue:\n" + "\n".join(bad)


def test_the_check_finds_an_english_line() -> None:
    """The check itself: a bare sentence is found, data and bracketed messages are not."""
    text = f"{OPEN}Winner: {{names}}{CLOSE}\nme played 8D QUITE\nme  12  8D QUITE  level1"
    assert untranslated(text, ["me", "level1"]) == ["me played 8D QUITE"]
    assert untranslated(f"{OPEN}{OPEN}3 tiles{CLOSE}, 5 to go{CLOSE}", []) == []


# names of people, computers, the word list, rules and files
NAMES = ("me", "level1", "Ann", "Bob", "enable", "casual", "hasbro", "finish_line", "duplicate",
         "gcg", "tessera", "game", "kept")
# what a person types: the command words (English in every language) and a help line's
# examples
TYPED = ("pass", "challenge", "exchange", "hint", "undo", "save", "load", "resign", "board",
         "lang", "en", "ja", "hu", "help", "quit", "skip")
PEOPLE = NAMES + TYPED


def test_a_game_with_commands_errors_hints_and_its_end(lex: Lexicon, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game = Game(rules="casual", lexicon=lex, players=["me", "level1"], seed=3, first=0)
    game.set_rack("me", "QUITEAB")
    game.set_rack("level1", "JXKVWYF")

    def hints(g: Game, count: int) -> list[Hint]:
        return [Hint(g.check("8D QUITE"), 48, 46.1), Hint(Pass(), 0, -3.0)]

    out = io.StringIO()
    lines = [
        "help", "frobnicate", "8D", "play", "exchange", "hint 99", "-5", "board x", "load",
        "hint", "8D TIQUE", "8D ZAX", "challenge", "lang xx", "save kept.gcg",
        "load missing.gcg", "8D QUITE", "undo", "8D QUITE", "-JX", "resign", "n", "n",
    ]
    app = PlayApp(game, [Seat("me"), Seat("level1", "level1")], console=console(out),
                  read_line=Keyboard(out, lines), bot_factory=lambda *a: Bot(["-JX"] * 2),
                  hint_source=hints)
    assert app.run() == 0
    text = out.getvalue()
    assert game.is_over and "resigned" in text and "exchanged" in text
    assert_all_translated(text, PEOPLE)


def test_a_hot_seat_game_played_to_its_scoreless_end(lex: Lexicon):
    game = Game(rules="casual", lexicon=lex, players=["Ann", "Bob"], seed=3, first=0)
    out = io.StringIO()
    lines = ["", "pass", "", "pass", "", "-", "", "pass", "", "pass", "", "pass", "", ""]
    app = PlayApp(game, [Seat("Ann"), Seat("Bob")], console=console(out, width=80),
                  read_line=Keyboard(out, lines))
    app.run()
    text = out.getvalue()
    assert game.result is not None and game.result.reason is EndReason.SCORELESS_TURNS
    assert "Pass the terminal" in text and "Final scores" in text
    assert_all_translated(text, PEOPLE)


def test_challenges_and_a_play_that_ends_the_game(lex: Lexicon):
    game = Game(rules="hasbro", lexicon=lex, players=["me", "level1"], seed=3, first=1)
    game.set_rack("me", "AEINRST")
    game.set_rack("level1", "QUIXEAB")
    out = io.StringIO()
    app = PlayApp(game, [Seat("me"), Seat("level1", "level1")], console=console(out),
                  read_line=Keyboard(out, ["challenge", "quit", "n"]),
                  bot_factory=lambda *a: Bot(["8D QUIXE", "8F JXK", 42]))
    app.run()
    text = out.getvalue()
    assert "challenged off" in text and "may challenge" in text
    assert_all_translated(text, PEOPLE)


def test_the_finish_line_and_a_loaded_game(lex: Lexicon, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game = Game(rules="finish_line", lexicon=lex, players=["me", "level1"], seed=3, first=0)
    game.set_rack("me", "QUITEAB")
    out = io.StringIO()
    app = PlayApp(game, [Seat("me"), Seat("level1", "level1")], console=console(out),
                  read_line=Keyboard(out, ["8D QUITE", "save kept.gcg", "load kept.gcg",
                                           "quit"]),
                  bot_factory=lambda *a: Bot())
    app.run()
    text = out.getvalue()
    assert "to go" in text and "Loaded" in text
    assert_all_translated(text, PEOPLE)


@pytest.mark.parametrize(
    "players", ["me,,you", "me", "a,b,c,d,e", "me,level9"]
)
def test_refused_player_lists(players: str) -> None:
    with pytest.raises(SetupError) as refused:
        parse_players(players)
    assert_all_translated(str(refused.value), [])


@pytest.mark.parametrize("players", ["Ann,,Bob", "Ann,level9", "Ann,Ann"])
def test_refused_duplicate_player_lists(players: str) -> None:
    with pytest.raises(SetupError) as refused:
        duplicate_players(players)
    assert_all_translated(str(refused.value), [])


def test_a_duplicate_game_to_its_end(lex: Lexicon, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    tops = tops_of_a_twin(lex, 11)
    game = DuplicateGame("duplicate", lex, players=["me"], seed=11)
    out = io.StringIO()
    lines = ["help", "8D", "pass", "8D QEOTU 12", "save", *tops]
    times = iter(float(i) for i in range(10**6))
    app = DuplicateApp(game, console=console(out), read_line=Keyboard(out, lines),
                       clock=lambda: next(times))
    assert app.run() == 0
    text = out.getvalue()
    assert game.is_over and "Game over" in text and "% of top" in text
    assert_all_translated(text, PEOPLE)


def test_duplicate_at_one_screen_with_a_computer(lex: Lexicon):
    game = DuplicateGame("duplicate", lex, players=["Ann", "Bob", "level1"], seed=11)
    clock = iter([0.0, 200.0] + [1.0] * 50)  # Ann is late
    out = io.StringIO()
    app = DuplicateApp(game, console=console(out),
                       read_line=Keyboard(out, ["", "8D QUOTE", "", "skip", "", "quit"]),
                       clock=lambda: next(clock))
    app.run()
    text = out.getvalue()
    assert "late" in text and "Pass the terminal" in text and "hands in" in text
    assert_all_translated(text, (*PEOPLE, "level1"))


def test_a_refused_move_is_explained_by_its_reason_in_the_language_spoken() -> None:
    """The game's own explanations are English; another language says each reason its own
    way (and names the words the word list lacks)."""
    said = {refusal(IllegalMove(reason, "in English")) for reason in Reason}
    assert len(said) == len(Reason) and all(s.startswith(OPEN) for s in said)
    words = IllegalMove(Reason.INVALID_WORDS, "not in the word list: QX, ZZ", ["QX", "ZZ"])
    assert refusal(words) == f"{OPEN}not in the word list: {{words}}{CLOSE}".format(
        words="QX, ZZ"
    )
    with speaking("en"):
        assert refusal(words) == "not in the word list: QX, ZZ"


@pytest.mark.parametrize("lang", ["en", "ja", "hu"])
def test_at_80_columns_the_board_keeps_its_cells_beside_the_translated_panel(
    lex: Lexicon, lang: str
) -> None:
    """Double-width Japanese and longer Hungarian in the 27 columns beside the board: every
    line fits 80 cells, each board row ends with its number at the same cell, the turn's
    panel keeps to the board's height, and the final summary shows every rack's tiles
    whole."""
    game = Game(rules="finish_line", lexicon=lex, players=["Ann", "level1"], seed=3, first=0)
    game.set_rack("Ann", "QUITEAB")
    game.set_rack("level1", "JXKVWYF")
    game.play("8D QUITE")
    game.exchange("JX")
    with speaking(lang):
        turn = render_view(game.view(0), show_private=True, width=80)
        game.resign(0)
        view = game.view(0)
        final = render_view(view, show_private=False, width=80, final=summary(view))
        for screen in (turn, final):
            out = io.StringIO()
            Console(file=out, width=80, color_system=None).print(screen)
            lines = out.getvalue().splitlines()
            assert len(lines) == 17, out.getvalue()  # the board's height: nothing below it
            for row, line in enumerate(lines[1:16], start=1):
                # the board is ASCII: its 51 cells are the line's first 51 characters
                assert line[:2].strip() == line[49:51].strip() == str(row), line
                assert line[51:53] == "  " and cell_len(line[53:].rstrip()) <= 27, line
            if screen is final:
                for rack in view.final_racks or ():
                    assert view.tileset.format(rack) in out.getvalue(), out.getvalue()


@pytest.mark.parametrize("lang", ["ja", "hu"])
def test_help_at_80_columns_folds_a_long_description_instead_of_cutting_it(
    lex: Lexicon, lang: str
) -> None:
    """Japanese has no spaces to wrap at: a description longer than its column folds onto
    the next line, whole."""
    game = Game(rules="casual", lexicon=lex, players=["Ann", "Bob"], seed=3)
    out = io.StringIO()
    with speaking(lang):
        PlayApp(game, [Seat("Ann"), Seat("Bob")], console=console(out, width=80)).help()
        rows = help_rows()
    text = out.getvalue()
    assert "…" not in text, text
    joined = "".join(text.split())
    for _syntax, what in rows:
        assert "".join(what.split()) in joined, what


def test_every_help_text_of_tessera_play_is_a_catalogue_message() -> None:
    """``tessera play --help`` translates its texts as it draws them: each must be in the
    catalogue (marked with ``N_``), or it would stay English."""
    from tessera import i18n
    from tessera.tui.cli import play

    messages = {m.id for m in i18n.catalog("tui", "en") if m.id}
    texts = [play.help] + [
        text
        for p in play.params
        if isinstance(p, click.Option)
        for text in (p.help, p.show_default)
        if isinstance(text, str) and p.name != "help"
    ]
    assert len(texts) >= 8
    assert [t for t in texts if t not in messages] == []
