"""What the ``tessera play`` prompt understands (issue 6): moves in players' notation and
command words; anything else is refused with a message naming it."""

from __future__ import annotations

import pytest

from tessera.tui.commands import (
    DEFAULT_HINTS,
    Command,
    CommandError,
    Kind,
    help_rows,
    looks_like_play,
    parse_command,
)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("8D QUITE", Command(Kind.PLAY, "8D QUITE")),
        ("  H8   qUITE ", Command(Kind.PLAY, "H8 qUITE")),  # R0.2.2 down; lower case = blank
        ("8a MES(QUITE)", Command(Kind.PLAY, "8a MES(QUITE)")),
        ("play 8D QUITE", Command(Kind.PLAY, "8D QUITE")),
        ("15O ZA", Command(Kind.PLAY, "15O ZA")),
        ("-ABC", Command(Kind.EXCHANGE, "ABC")),
        ("- a?b", Command(Kind.EXCHANGE, "A?B")),  # rack tiles: case does not make blanks
        ("exchange qu v", Command(Kind.EXCHANGE, "QUV")),
        ("swap ?", Command(Kind.EXCHANGE, "?")),
        ("-", Command(Kind.PASS)),
        ("PASS", Command(Kind.PASS)),
        ("challenge", Command(Kind.CHALLENGE)),
        ("hint", Command(Kind.HINT, count=DEFAULT_HINTS)),
        ("hint 3", Command(Kind.HINT, count=3)),
        ("undo", Command(Kind.UNDO)),
        ("save", Command(Kind.SAVE, "")),
        ("save my game.gcg", Command(Kind.SAVE, "my game.gcg")),
        ("load g.gcg", Command(Kind.LOAD, "g.gcg")),
        ("resign", Command(Kind.RESIGN)),
        ("board", Command(Kind.BOARD)),
        ("?", Command(Kind.HELP)),
        ("help", Command(Kind.HELP)),
        ("h", Command(Kind.HELP)),
        ("quit", Command(Kind.QUIT)),
        ("exit", Command(Kind.QUIT)),
        ("", Command(Kind.EMPTY)),
        ("   ", Command(Kind.EMPTY)),
    ],
)
def test_parse(line, expected):
    assert parse_command(line) == expected


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("dance", "unknown command 'dance'"),
        ("8D", "'8D' needs a word"),
        ("play", "play what?"),
        ("play QUITE", "play what?"),
        ("exchange", "exchange which tiles?"),
        ("-3", "name the tiles to exchange"),
        ("hint 0", "from 1 to 50"),
        ("hint many", "not 'many'"),
        ("hint 51", "from 1 to 50"),
        ("load", "load which file?"),
        ("resign now", "'resign' takes no argument"),
        ("undo 2", "'undo' takes no argument"),
    ],
)
def test_refused_lines_name_the_problem(line, message):
    with pytest.raises(CommandError, match=message.replace("?", r"\?")):
        parse_command(line)


def test_position_then_word_is_a_play_only_with_a_real_position():
    assert looks_like_play("8D QUITE")
    assert looks_like_play("D8 QUITE")
    assert not looks_like_play("save game.gcg")
    assert not looks_like_play("8D")
    assert not looks_like_play("DD QUITE")


def test_help_covers_every_command_kind():
    listed = " ".join(syntax for syntax, _ in help_rows())
    for word in ("8D", "H8", "exchange", "pass", "challenge", "hint", "undo", "save", "load",
                 "resign", "board", "help", "quit"):
        assert word in listed
