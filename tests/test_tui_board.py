"""The Rich board and side panel of ``tessera play`` (issue 6): premium squares, tiles,
blanks, the last play highlighted, the rack, scores, unseen tiles and moves — drawn from one
player's view only."""

from __future__ import annotations

from dataclasses import replace

import pytest
from rich.console import Console

from tessera.game import EndReason, Event, EventKind, Game, GameResult
from tessera.move import Exchange
from tessera.tui.board import (
    LAST_BLANK_STYLE,
    LAST_TILE_STYLE,
    PREMIUM_STYLE,
    TILE_STYLE,
    describe_event,
    last_play,
    panel,
    rack_text,
    render_board,
    render_view,
    summary,
    unseen_text,
)


def text_of(renderable, width: int = 120) -> str:
    console = Console(width=width, record=True, color_system=None, file=open("/dev/null", "w"))
    console.print(renderable)
    return console.export_text()


def new_game(**kw) -> Game:
    game = Game(rules="casual", players=["Ann", "Bob"], seed=5, first=0, **kw)
    game.set_rack("Ann", "QUITEAB")
    game.set_rack("Bob", "JXKVWY?")
    return game


def test_empty_board_shows_premiums_start_and_coordinates():
    game = new_game()
    lines = render_board(game.board, game.tileset).plain.splitlines()
    assert len(lines) == 17  # header, 15 rows, footer
    assert lines[0].split() == list("ABCDEFGHIJKLMNO")
    row1 = lines[1].split()
    assert row1[0] == "1" and row1[-1] == "1"
    assert row1[1:-1] == ["3W", "2L", "3W", "2L", "3W"]
    row8 = lines[8].split()
    assert row8[1:-1] == ["3W", "2L", "*", "2L", "3W"]
    # the start square is column H: 3 characters per square after a 3-character margin
    assert lines[8][3 + 3 * 7 : 3 + 3 * 8].strip() == "*"


def test_premium_squares_are_coloured():
    game = new_game()
    text = render_board(game.board, game.tileset)
    styles = {str(span.style) for span in text.spans}
    for token in ("3W", "2W", "3L", "2L"):
        assert PREMIUM_STYLE[token] in styles


def styled(text, style: str) -> list[str]:
    return [text.plain[s.start : s.end] for s in text.spans if str(s.style) == style]


def test_tiles_blanks_and_the_last_play():
    game = new_game()
    game.set_rack("Ann", "QUIT?AB")
    game.play("8D QUITe")
    board = render_board(game.board, game.tileset, last_play(game.history))
    row8 = board.plain.splitlines()[8].split()
    assert row8[1:-1] == ["3W", "Q", "U", "I", "T", "e", "2L", "3W"]
    assert [c.strip() for c in styled(board, LAST_TILE_STYLE)] == ["Q", "U", "I", "T"]
    assert [c.strip() for c in styled(board, LAST_BLANK_STYLE)] == ["e"]
    game.pass_turn()  # Bob: the play is no longer the last move
    assert last_play(game.history) is None
    board = render_board(game.board, game.tileset, last_play(game.history))
    assert styled(board, LAST_TILE_STYLE) == []
    assert [c.strip() for c in styled(board, TILE_STYLE)] == ["Q", "U", "I", "T"]


def test_rack_shows_values():
    game = new_game()
    text = rack_text(game.rack("Ann").tiles(), game.tileset).plain
    assert "Q₁₀" in text and "A₁" in text and "B₃" in text
    assert "?₀" in rack_text([0], game.tileset).plain


def test_unseen_tiles_exclude_the_viewers_rack_and_the_board():
    game = new_game()
    view = game.view("Ann")
    text = unseen_text(view.unseen, game.tileset).plain
    assert text.startswith("Unseen (93): ")
    groups = text.split(": ", 1)[1].split()
    assert "AAAAAAAA" in groups  # 9 A's, one on Ann's rack
    assert "Q" not in groups  # the only Q is on Ann's rack
    assert groups[-1] == "??"


def test_panel_private_and_public():
    game = new_game()
    view = game.view("Ann")
    private = text_of(panel(view, show_private=True))
    public = text_of(panel(view, show_private=False))
    assert "Ann's rack:" in private and "Q₁₀" in private and "Unseen (93)" in private
    assert "rack:" not in public and "Q₁₀" not in public and "Unseen" not in public
    for text in (private, public):
        assert "Bag: 86 tiles" in text
        assert "▶ Ann" in text
        assert "Bob" in text
    # nothing of Bob's rack, in any form
    assert "J₈" not in private and "X₈" not in private


def test_narrow_terminal_stacks_board_and_panel():
    view = new_game().view("Ann")
    wide = text_of(render_view(view, show_private=True, width=120), width=120)
    narrow = text_of(render_view(view, show_private=True, width=70), width=70)
    assert "Scores" in wide.splitlines()[0]  # beside the column letters
    assert "Scores" not in narrow.splitlines()[0]
    assert "Scores" in narrow.splitlines()[18]  # below the board and a blank line


@pytest.mark.parametrize("players", [2, 4])
def test_at_80_columns_the_panel_is_beside_the_board_and_as_tall(players):
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    game = Game(rules="casual", players=names, seed=5, first=0)
    game.set_rack("Ann", "QUITEAB")
    game.play("8D QUITE")
    for _ in range(5):  # a long history: the panel lists only what fits
        game.pass_turn()
    view = game.view("Ann")
    for private in (True, False):
        lines = text_of(render_view(view, show_private=private, width=80), width=80).splitlines()
        assert len(lines) == 17, "\n".join(lines)  # the board's height: nothing below it
        assert max(len(line.rstrip()) for line in lines) <= 80
        assert "▶" in "\n".join(lines) and "Bag:" in "\n".join(lines)
        assert lines[0].startswith("    A  B  C") and lines[16].startswith("    A  B  C")


@pytest.mark.parametrize("players", [2, 4])
def test_a_finish_line_game_shows_how_far_each_player_is_from_the_target(players):
    """R8.3: the race's target for the number of players, and each player's distance to it,
    in the scores, without a line more at 80 columns."""
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    game = Game(rules="finish_line", players=names, seed=5, first=0)
    target = game.rules.finish_target(players)
    assert target is not None
    game.set_rack("Ann", "QUITEAB")
    game.play("8D QUITE")
    game.pass_turn()
    view = game.view("Ann")
    wide = text_of(render_view(view, show_private=True, width=120), width=120)
    assert f"{target - view.scores[0]} to go" in wide and f"{target} to go" in wide
    lines = text_of(render_view(view, show_private=True, width=80), width=80).splitlines()
    assert len(lines) == 17 and max(len(line.rstrip()) for line in lines) <= 80
    assert f"{target - view.scores[0]} to" in "\n".join(lines)


def test_at_80_columns_the_final_summary_is_beside_the_board():
    game = new_game()
    game.resign("Ann")
    view = game.view("Ann")
    text = text_of(render_view(view, show_private=False, width=80, final=summary(view)), 80)
    lines = text.splitlines()
    assert len(lines) == 17 and "Game over: Ann resigned." in lines[0]
    assert "Winner: Bob" in text


def test_exchanges_are_described_without_the_tiles_to_others():
    game = new_game()
    game.pass_turn()  # Ann
    game.exchange("JXK")  # Bob
    ann, bob = game.view("Ann"), game.view("Bob")
    to_ann = describe_event(ann.history[-1], ann.names, game.tileset, ann.board)
    to_bob = describe_event(bob.history[-1], bob.names, game.tileset, bob.board)
    assert to_ann == "Bob exchanged 3 tiles"
    assert to_bob == "Bob exchanged 3 tiles (JXK)"
    public = describe_event(bob.history[-1], bob.names, game.tileset, bob.board, public=True)
    assert public == "Bob exchanged 3 tiles"
    # a public screen drawn from Bob's view (hot seat, before Bob takes the terminal)
    assert "(JXK)" in text_of(panel(bob, show_private=True))
    assert "(JXK)" not in text_of(panel(bob, show_private=False))
    assert describe_event(ann.history[0], ann.names, game.tileset, ann.board) == "Ann passed"


def test_describe_end_events():
    game = new_game()
    names = ("Ann", "Bob")
    ts = game.tileset
    pen = Event(EventKind.END_RACK_PENALTY, 1, (10, 24), -9, 100)
    gain = Event(EventKind.END_RACK_POINTS, 0, (), 9, 200, other_racks=(10, 24))
    ex = Event(EventKind.EXCHANGE, 1, (), 0, 0, Exchange(count=1))
    assert describe_event(pen, names, ts, game.board) == "Bob -9 for tiles left (JX)"
    assert describe_event(gain, names, ts, game.board) == (
        "Ann +9 for the tiles left on other racks"
    )
    assert describe_event(ex, names, ts, game.board) == "Bob exchanged 1 tile"


def test_summary_names_reason_scores_racks_and_winner():
    game = new_game()
    game.resign("Bob")
    view = game.view("Ann")
    text = text_of(summary(view))
    assert "Game over: Bob resigned." in text
    assert "Winner: Ann" in text
    assert "rack ABEIQTU" in text and "rack JKVWXY?" in text  # revealed at the end


def test_summary_of_a_draw():
    game = new_game()
    view = game.view("Ann")
    result = GameResult(EndReason.PASSES, (10, 10), (0, 1))
    text = text_of(summary(replace(view, result=result, final_racks=((), ()))))
    assert "Game over: everyone passed." in text
    assert "Draw: Ann and Bob" in text
    assert "Winner" not in text
