"""tessera analyze: every turn with the static best moves and the equity lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tessera.cli import main
from tessera.engine.analysis import AnalysisError, analyze_file, analyze_record
from tessera.engine.compiled_games import play_compiled, replay
from tessera.formats import gcg
from tessera.lexicon import Lexicon
from tessera.rules import preset

DATA = Path(__file__).parent.parent / "data" / "gcg"


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("enable")


def test_reference_game(lex: Lexicon) -> None:
    result = analyze_file(DATA / "reference_game.gcg", lex, top=3)
    assert [t.number for t in result.turns] == [1, 2, 3, 4]
    first = result.turns[0]
    assert first.played == "8D QUITE" and first.score == 48
    assert len(first.best) == 3 and first.best[0].equity >= first.equity
    assert first.equity_lost == pytest.approx(first.best[0].equity - first.equity, abs=0.01)
    # INFaNCY forms QI, which ENABLE lacks: reported, not guessed at
    third = result.turns[2]
    assert third.equity is None and "not a valid move" in third.note
    assert result.turns[3].equity_lost is not None and result.turns[3].equity_lost > 0


def test_a_static_players_own_game_loses_nothing(lex: Lexicon) -> None:
    rules = preset("naspa")
    record = play_compiled(rules, lex, 5, [None, None])
    game = replay(rules, lex, 5, ("A", "B"), record)
    result = analyze_record(gcg.loads(gcg.dumps(game)), lex, player="static-noleaves", top=1)
    assert len(result.turns) == len(record["turns"])
    for turn in result.turns:
        assert turn.equity_lost == 0.0, turn


def test_cli_table_and_json() -> None:
    runner = CliRunner()
    table = runner.invoke(main, ["analyze", str(DATA / "reference_game.gcg")])
    assert table.exit_code == 0, table.output
    assert "8D QUITE" in table.output and "best moves" in table.output
    assert "equity lost" in table.output
    assert "not a valid move here" in table.output  # 9D INFaNCY makes QI, not in ENABLE
    data = runner.invoke(main, ["analyze", str(DATA / "reference_game.gcg"), "--json", "-t", "2"])
    assert data.exit_code == 0, data.output
    parsed = json.loads(data.output)
    assert len(parsed["turns"]) == 4 and len(parsed["turns"][0]["best"]) == 2


def test_bad_files_are_named(tmp_path: Path, lex: Lexicon) -> None:
    empty = tmp_path / "empty.gcg"
    empty.write_text("#player1 a A\n#player2 b B\n", encoding="utf-8")
    with pytest.raises(AnalysisError, match="no turns"):
        analyze_file(empty, lex)
    broken = tmp_path / "broken.gcg"
    broken.write_text(
        "#player1 a A\n#player2 b B\n>a: ABC 8D ZZZZ +10 10\n>b: DEF 9D DEF +10 10\n",
        encoding="utf-8",
    )
    with pytest.raises(AnalysisError, match="cannot replay the game up to turn 2"):
        analyze_file(broken, lex)
    result = CliRunner().invoke(main, ["analyze", str(broken)])
    assert result.exit_code != 0 and "cannot replay" in result.output
