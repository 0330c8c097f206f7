"""The public API (DESIGN.md "The public API, in one breath"): what ``import tessera`` offers,
that it stays cheap, and that word lists and formats load on first use."""

from __future__ import annotations

import importlib.metadata

import pytest

import tessera
from support.fresh_python import run_python
from tessera import board, duplicate, game, layouts, legality, move, rules, scoring, tiles

EXPORTS = {
    "Game": game.Game,
    "Rules": rules.Rules,
    "preset": rules.preset,
    "PRESETS": rules.PRESETS,
    "Alphabet": tiles.Alphabet,
    "TileSet": tiles.TileSet,
    "tileset": tiles.tileset,
    "Rack": tiles.Rack,
    "Board": board.Board,
    "Layout": layouts.Layout,
    "layout": layouts.layout,
    "Play": move.Play,
    "Exchange": move.Exchange,
    "Pass": move.Pass,
    "Challenge": move.Challenge,
    "Move": move.Move,
    "parse_move": move.parse_move,
    "IllegalMove": legality.IllegalMove,
    "Reason": legality.Reason,
    "score_play": scoring.score_play,
    "score_breakdown": scoring.score_breakdown,
    "PlayerView": game.PlayerView,
    "Event": game.Event,
    "EventKind": game.EventKind,
    "GameResult": game.GameResult,
    "DuplicateGame": duplicate.DuplicateGame,
    "DuplicateResult": duplicate.DuplicateResult,
    "DuplicateView": duplicate.DuplicateView,
}


@pytest.mark.parametrize("name", sorted(EXPORTS))
def test_each_name_is_the_defining_modules_object(name: str) -> None:
    assert getattr(tessera, name) is EXPORTS[name]
    assert name in tessera.__all__


def test_all_lists_exactly_the_public_names() -> None:
    assert set(tessera.__all__) == {
        *EXPORTS, "Lexicon", "MoveList", "generate_moves", "__version__"
    }
    assert len(tessera.__all__) == len(set(tessera.__all__))


def test_version_comes_from_the_package_metadata() -> None:
    assert tessera.__version__ == importlib.metadata.version("tessera")
    assert tessera.__version__.count(".") >= 1



def test_import_is_cheap_and_leaves_lexicon_and_formats_unloaded() -> None:
    out = run_python(
        "import sys, tessera\n"
        "heavy = [m for m in ('tessera.lexicon', 'tessera.formats', 'tessera.engine',"
        " 'tessera.server', 'tessera.cli', 'importlib.metadata') if m in sys.modules]\n"
        "print(','.join(heavy) or 'none')"
    )
    assert out == "none"


def test_lexicon_and_formats_load_on_first_access() -> None:
    out = run_python(
        "import sys, tessera\n"
        "assert 'tessera.lexicon' not in sys.modules\n"
        "lex = tessera.Lexicon\n"
        "import tessera.lexicon as mod\n"
        "assert lex is mod.Lexicon and tessera.lexicon is mod\n"
        "assert 'tessera.formats' not in sys.modules\n"
        "fmt = tessera.formats\n"
        "assert fmt is sys.modules['tessera.formats']\n"
        "print(tessera.__version__)"
    )
    assert out == importlib.metadata.version("tessera")


def test_unknown_attributes_raise_attribute_error_naming_them() -> None:
    with pytest.raises(AttributeError, match="'no_such_thing'"):
        _ = tessera.no_such_thing  # type: ignore[attr-defined]
    assert not hasattr(tessera, "Lexiconn")


def test_dir_lists_the_lazy_names() -> None:
    names = dir(tessera)
    for name in ("Lexicon", "formats", "__version__", "Game", "parse_move"):
        assert name in names


def test_the_design_tour_runs() -> None:  # DESIGN.md "The public API, in one breath"
    lex = tessera.Lexicon.load("enable")
    assert lex.contains(tessera.tileset("english").alphabet.parse("QUITE"))
    game_ = tessera.Game(rules="naspa", lexicon=lex, players=["Ann", "Bob"], seed=7, first=0)
    game_.set_rack("Bob", "")
    game_.set_rack("Ann", "QUITEAB")
    event = game_.play("8D QUITE")
    assert event is not None and event.score == 48
    view = game_.view("Bob")
    assert isinstance(view, tessera.PlayerView)
    assert view.scores == (48, 0)
    with pytest.raises(tessera.IllegalMove) as info:
        game_.play("8D QUITE")
    assert info.value.reason is tessera.Reason.NOTATION


def test_the_module_docstring_example_runs() -> None:
    import doctest

    result = doctest.testmod(tessera, verbose=False)
    assert result.attempted >= 3
    assert result.failed == 0


def test_move_generation_and_engine_load_on_first_access() -> None:
    """DESIGN's tour: ``tessera.generate_moves`` and ``tessera.engine`` without extra imports."""
    import tessera.engine
    import tessera.movegen

    assert tessera.generate_moves is tessera.movegen.generate_moves
    assert tessera.MoveList is tessera.movegen.MoveList
    assert tessera.engine.StaticPlayer is not None
