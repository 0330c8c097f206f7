"""Self-play matches: seeds, seats, reproducibility across workers, statistics, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tessera.cli import main
from tessera.engine.compiled_games import derive_seed
from tessera.engine.selfplay import (
    GameRecord,
    MatchSpec,
    autoplay,
    plan,
    report,
    wilson,
)
from tessera.formats import gcg


def test_plan_plays_each_deal_from_both_seats() -> None:
    games = plan(MatchSpec(("static", "static-noleaves"), 6, seed=4))
    assert [g[0] for g in games] == list(range(6))
    assert games[0][1] == games[1][1] != games[2][1] == games[3][1]
    assert [g[2] for g in games] == [True, False] * 3
    assert derive_seed(4, 0) == games[0][1] == derive_seed(4, 0)
    assert 0 <= derive_seed(2**70, 5) < 2**63


def test_a_matchs_users_find_the_compiled_game_and_the_runner_in_selfplay_too() -> None:
    # benchmarks/ and the A/B timing worker (which also runs older builds) import these from
    # tessera.engine.selfplay; they live in compiled_games and parallel, below the players
    from tessera.engine import compiled_games, parallel, selfplay

    for name in ("derive_seed", "play_compiled", "replay"):
        assert getattr(selfplay, name) is getattr(compiled_games, name)
        assert name in selfplay.__all__
    for name in ("default_workers", "run_parallel"):
        assert getattr(selfplay, name) is getattr(parallel, name)
        assert name in selfplay.__all__
    assert all(hasattr(selfplay, name) for name in selfplay.__all__)


def test_same_seeds_same_gcg_with_one_or_two_workers(tmp_path: Path) -> None:
    outputs = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        spec = MatchSpec(("static", "static-noleaves"), 4, seed=9, gcg_dir=str(out))
        rep, records = autoplay(spec, workers=workers, chunk=1)
        files = sorted(out.glob("*.gcg"))
        assert [f.name for f in files] == [f"game-{i:06d}.gcg" for i in range(4)]
        outputs.append(([f.read_bytes() for f in files], records, rep))
    (gcg1, rec1, rep1), (gcg2, rec2, rep2) = outputs
    assert gcg1 == gcg2
    assert [(r.scores, r.bingos, r.turns) for r in rec1] == [
        (r.scores, r.bingos, r.turns) for r in rec2
    ]
    assert (rep1.wins, rep1.mean_scores) == (rep2.wins, rep2.mean_scores)
    # the GCG replays and says who sat where
    for data, record in zip(gcg1, rec1, strict=True):
        game = gcg.replay(data.decode("utf-8"), "naspa")
        a_seat = 0 if record.a_first_seat else 1
        assert game.scores[a_seat] == record.scores[0]
        assert game.scores[1 - a_seat] == record.scores[1]


def test_level_players_play_through_the_python_game() -> None:
    rep, records = autoplay(MatchSpec(("level2", "static"), 2, seed=3), workers=1)
    assert rep.games == 2 and all(r.reason == "played_out" or r.turns > 0 for r in records)
    _again, records2 = autoplay(MatchSpec(("level2", "static"), 2, seed=3), workers=1)
    assert [r.scores for r in records] == [r.scores for r in records2]


def test_report_statistics() -> None:
    recs = [
        GameRecord(0, 1, True, (400, 300), (2, 0), 20, "played_out"),
        GameRecord(1, 1, False, (350, 350), (1, 1), 22, "played_out"),
        GameRecord(2, 2, True, (300, 420), (0, 3), 24, "scoreless_turns"),
        GameRecord(3, 2, False, (410, 400), (1, 1), 21, "played_out"),
    ]
    rep = report(("a", "b"), recs, seconds=2.0, workers=2)
    assert rep.wins == 2.5 and rep.ties == 1 and rep.win_rate == pytest.approx(0.625)
    assert rep.mean_scores == (365.0, 367.5)
    assert rep.mean_spread == pytest.approx(-2.5)
    assert rep.bingos_per_game == (1.0, 1.25)
    assert rep.games_per_second == 2.0 and rep.games_per_second_per_worker == 1.0
    lo, hi = rep.ci95
    assert lo < 0.625 < hi
    assert wilson(0.6, 2000) == pytest.approx((0.5784, 0.6212), abs=1e-3)
    assert wilson(0.0, 0) == (0.0, 1.0)


def test_autoplay_cli_json_and_text() -> None:
    runner = CliRunner()
    result = runner.invoke(
        main, ["autoplay", "--games", "2", "--players", "static,static-noleaves",
               "--seed", "1", "--workers", "1", "--json"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 2 and data["players"] == ["static", "static-noleaves"]
    assert set(data) >= {"wins", "ci95", "mean_scores", "bingos_per_game", "games_per_second"}
    text = runner.invoke(main, ["autoplay", "-n", "2", "-w", "1", "-q"])
    assert text.exit_code == 0, text.output
    assert "95% CI" in text.output and "games/s" in text.output


def test_autoplay_cli_refuses_bad_input() -> None:
    runner = CliRunner()
    bad = runner.invoke(main, ["autoplay", "--players", "static,grandmaster"])
    assert bad.exit_code != 0 and "unknown player 'grandmaster'" in bad.output
    one = runner.invoke(main, ["autoplay", "--players", "static"])
    assert one.exit_code != 0 and "exactly two players" in one.output
    rules = runner.invoke(main, ["autoplay", "--rules", "nope", "-n", "2"])
    assert rules.exit_code != 0 and "no rules preset" in rules.output


@pytest.mark.parametrize("preset", ["naspa", "nine_tile"])
def test_bingos_are_the_presets_bingos_as_the_records_show(tmp_path: Path, preset: str) -> None:
    """R8.2.1: 9-tile counts plays of 7, 8 and 9 tiles (it reported 0.25 a game, counting only
    full-rack plays); the compiled count equals the bonuses in each game's record."""
    spec = MatchSpec(("static", "static-noleaves"), 4, seed=5, rules=preset, gcg_dir=str(tmp_path))
    rep, records = autoplay(spec, workers=1)
    for record, path in zip(records, sorted(tmp_path.glob("*.gcg")), strict=True):
        game = gcg.replay(path.read_text(encoding="utf-8"), preset)
        by_seat = [
            sum(1 for e in game.history if e.kind == "play" and e.player == seat
                and e.breakdown is not None and e.breakdown.bingo > 0)
            for seat in (0, 1)
        ]
        a_seat = 0 if record.a_first_seat else 1
        assert record.bingos == (by_seat[a_seat], by_seat[1 - a_seat])
    if preset == "nine_tile":
        assert sum(rep.bingos_per_game) > 2  # 7- and 8-tile plays are frequent with 9 tiles


def test_autoplay_clabbers_runs_and_its_gcg_verifies(tmp_path: Path) -> None:
    """Issue 13: ``tessera autoplay -r clabbers`` plays its games with the compiled Clabbers
    generator (R8.5) to the end, and ``tessera gcg verify`` accepts every game it wrote (the
    Clabbers rules read back from the file, every score and total rechecked)."""
    tessera = str(Path(sys.executable).with_name("tessera"))
    games = tmp_path / "games"
    played = subprocess.run(
        [tessera, "autoplay", "-r", "clabbers", "-n", "2", "-s", "7", "-w", "1", "-q",
         "--json", "--gcg", str(games)],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert played.returncode == 0, played.stderr
    data = json.loads(played.stdout)
    assert data["games"] == 2
    files = sorted(games.glob("*.gcg"))
    assert [f.name for f in files] == ["game-000000.gcg", "game-000001.gcg"]
    assert all("#game-type wordsmog" in f.read_text(encoding="utf-8") for f in files)
    verified = subprocess.run(
        [tessera, "gcg", "verify", *map(str, files)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert [line.split()[:2] for line in verified.stdout.splitlines()] == [
        ["OK", str(f)] for f in files
    ]


def test_each_player_plays_with_its_own_table(tmp_path: Path) -> None:
    """MatchSpec.b_leaves_path: B's table is B's alone. B with a table of zeros plays exactly
    as static-noleaves does, in both seats, while A keeps the shipped table."""
    from tessera.engine.players import default_leaves
    from tessera.lexicon.leaves import Leaves

    shipped = default_leaves()
    zeros = tmp_path / "zeros.klv2"
    Leaves(shipped.kwg, [0.0] * len(shipped)).save(zeros)
    _, expected = autoplay(MatchSpec(("static", "static-noleaves"), 6, seed=3))
    _, own = autoplay(MatchSpec(("static", "static"), 6, seed=3, leaves_path=str(shipped.path),
                                b_leaves_path=str(zeros)))
    assert [(r.scores, r.turns) for r in own] == [(r.scores, r.turns) for r in expected]
    _, shared = autoplay(MatchSpec(("static", "static"), 6, seed=3, leaves_path=str(zeros)))
    assert [r.scores for r in shared] != [r.scores for r in expected]  # one table for both


def test_autoplay_cli_takes_a_table_per_player(tmp_path: Path) -> None:
    from tessera.engine.players import default_leaves
    from tessera.lexicon.leaves import Leaves

    shipped = default_leaves()
    zeros = tmp_path / "zeros.klv2"
    Leaves(shipped.kwg, [0.0] * len(shipped)).save(zeros)
    runner = CliRunner()
    base = ["autoplay", "-n", "4", "-s", "3", "-w", "1", "--json"]
    own = runner.invoke(main, [*base, "-p", "static,static", "--leaves", str(shipped.path),
                               "--leaves", str(zeros)])
    noleaves = runner.invoke(main, [*base, "-p", "static,static-noleaves"])
    assert own.exit_code == 0 and noleaves.exit_code == 0, own.output + noleaves.output
    keys = ("wins", "mean_scores", "bingos_per_game")
    got, expected = json.loads(own.output), json.loads(noleaves.output)
    assert [got[k] for k in keys] == [expected[k] for k in keys]
    three = runner.invoke(main, [*base, "--leaves", str(zeros), "--leaves", str(zeros),
                                 "--leaves", str(zeros)])
    assert three.exit_code == 2 and "at most two tables" in three.output
