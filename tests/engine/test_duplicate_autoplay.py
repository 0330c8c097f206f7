"""``tessera autoplay`` under duplicate rules (R8.4), and ``tessera gcg verify`` on the
records it writes."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tessera.cli import main


def test_autoplay_plays_duplicate_games_whose_records_verify(tmp_path: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(
        main,
        ["autoplay", "-r", "duplicate", "-n", "2", "-p", "best,level2", "--seed", "4",
         "--gcg", str(tmp_path), "--json"],
    )
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    assert report["players"] == ["best", "level2"] and report["games"] == 2
    assert report["mean_percent"][0] == 100.0 > report["mean_percent"][1]
    assert report["mean_points"][0] == report["mean_tops"]
    assert report["wins"] == 2
    files = sorted(tmp_path.glob("game-*.gcg"))
    assert len(files) == 2
    verified = runner.invoke(main, ["gcg", "verify", *map(str, files)])
    assert verified.exit_code == 0, verified.output
    assert verified.output.count("OK ") == 2 and "(duplicate, " in verified.output
    from tessera.formats.gcg import replay_duplicate

    rebuilt = replay_duplicate(files[0].read_text(encoding="utf-8"))
    assert rebuilt.computers == {0: "best", 1: "level2"}  # the record says who played


def test_verify_names_the_line_of_a_tampered_duplicate_record(tmp_path: Path) -> None:
    runner = CliRunner()
    runner.invoke(main, ["autoplay", "-r", "duplicate", "-n", "1", "-p", "best,level1",
                         "--gcg", str(tmp_path), "-q"])
    path = tmp_path / "game-000000.gcg"
    lines = path.read_text(encoding="utf-8").splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith("#tile-set tessera-submit"))
    fields = lines[k].split()
    score = int(fields[5].lstrip("+"))
    fields[5], fields[6] = f"+{score + 1}", str(int(fields[6]) + 1)
    lines[k] = " ".join(fields)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    verified = runner.invoke(main, ["gcg", "verify", str(path)])
    assert verified.exit_code == 1
    assert verified.output.startswith(f"{path}:{k + 1}: ")


def test_the_two_players_may_be_the_same_computer() -> None:
    out = CliRunner().invoke(
        main, ["autoplay", "-r", "duplicate", "-n", "1", "-p", "static,static", "-q"]
    )
    assert out.exit_code == 0, out.output
    assert "static vs static: 1 duplicate game " in out.output
    assert "ties 1" in out.output  # both hand in a top every round


def test_autoplay_refuses_a_leave_table_under_duplicate(tmp_path: Path) -> None:
    """Duplicate computers hand in the top score, so a --leaves table would be ignored: it is
    refused instead, and no game is played."""
    from tessera.engine.players import default_leaves

    table = default_leaves().path
    out = CliRunner().invoke(
        main, ["autoplay", "-r", "duplicate", "-n", "1", "--leaves", str(table),
               "--gcg", str(tmp_path)],
    )
    assert out.exit_code == 2 and "leaves take no part" in out.output
    assert not list(tmp_path.glob("*.gcg"))
