"""``tessera tournament`` end to end through click's CliRunner: an event from ``new`` to
``standings``, each impossible request one line with exit status 2 and the file unchanged, and
a TSH export that imports back to the same standings."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from support.tournament_cli import ok, refused, run
from tessera.events.store import EventStore
from tessera.tournament import Division

PLAYERS = [("Ann Able", 1800), ("Bob Baker", 1700), ("Cy Cole", 1600), ("Di Dunn", 1500)]


def paired_games(event: Path, round_number: int) -> list[tuple[int, int]]:
    with EventStore.open_file(event) as store:
        division = store.load().division("A").division
    return [(g.first, g.second) for g in division.round_games(round_number)
            if g.second is not None]


def play_round(event: Path, round_number: int, winner_first: bool = True) -> None:
    """Enter every game of the round: the lower number wins by 100 + 10 x their number."""
    for first, second in paired_games(event, round_number):
        low, high = min(first, second), max(first, second)
        ok("result", event, "--division", "A", "--round", str(round_number),
           str(low), str(400 + 10 * low), str(high), "300")


@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = tmp_path / "club.db"
    ok("new", path, "--division", "A", "--rounds", "3", "--pairing", "swiss")
    for name, rating in PLAYERS:
        ok("add", path, "--division", "A", name, str(rating))
    return path


def test_a_four_player_three_round_swiss_from_new_to_standings(event: Path) -> None:
    for r in (1, 2, 3):
        out = ok("pair", event, "--division", "A")
        assert f"Division A, round {r}" in out
        play_round(event, r)
    met = [frozenset(g) for r in (1, 2, 3) for g in paired_games(event, r)]
    assert len(set(met)) == 6  # a Swiss of 4 players over 3 rounds: everyone met everyone once
    lines = ok("standings", event).splitlines()
    assert lines[0] == "Division A after 3 of 3 rounds"
    rows = [line.split() for line in lines[2:]]
    # the lower number always won: player 1 won 3, player 4 none; spreads 110+120... as entered
    assert [row[1] for row in rows] == ["1", "2", "3", "4"]
    assert [row[-3] for row in rows] == ["3-0-0", "2-1-0", "1-2-0", "0-3-0"]
    assert rows[0][-2] == "+330"  # 3 wins by 110 each
    table = ok("crosstable", event)
    assert "W+110 @" in table and "L-130 @3" in table
    # pairing past the last round is refused
    assert "all are paired" in refused(event, "pair", event, "--division", "A")


def test_results_by_name_and_a_correction_recompute_the_standings(event: Path) -> None:
    ok("pair", event, "--division", "A")
    for first, second in paired_games(event, 1):
        ok("result", event, "--division", "A", "--round", "1", str(first), "350",
           str(second), "300")
    a, b = paired_games(event, 1)[0]
    name_b = PLAYERS[b - 1][0]
    out = ok("correct", event, "--division", "A", "--round", "1", name_b, "500", str(a), "300")
    assert out.startswith("corrected round 1:")
    rows = [line.split() for line in ok("standings", event).splitlines()[2:]]
    top = rows[0]
    assert top[1] == str(b) and top[-2] == "+200"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("pair", "--division", "A", "--round", "3"), "round 3 is not the next round"),
        (("pair", "--division", "Z"), "no division 'Z'"),
        (("result", "--division", "A", "--round", "1", "Nobody", "300", "2", "200"),
         "no player named 'Nobody'"),
        (("result", "--division", "A", "--round", "1", "9", "300", "2", "200"), "no player 9"),
        (("result", "--division", "A", "--round", "1", "{a}", "-5", "{b}", "300"),
         "negative score -5"),
        (("result", "--division", "A", "--round", "1", "{a}", "x", "{b}", "300"),
         "is not a whole number"),
        (("result", "--division", "A", "--round", "1", "{a}", "400", "{c}", "300"),
         "were not paired in round 1"),
        (("result", "--division", "A", "--round", "2", "{a}", "400", "{b}", "300"),
         "round 2 of division A is not paired"),
        (("correct", "--division", "A", "--round", "1", "{a}", "400", "{b}", "300"),
         "has no result to correct"),
        (("pair", "--division", "A"), "round 1 is not complete"),
        (("add", "--division", "A", "Eve; bad", "1500"), "may not contain"),
    ],
)
def test_an_impossible_request_is_one_line_and_changes_nothing(
    event: Path, args: tuple[str, ...], message: str
) -> None:
    ok("pair", event, "--division", "A")
    (a, b), (c, _) = paired_games(event, 1)
    filled = [x.format(a=a, b=b, c=c) for x in args]
    assert message in refused(event, filled[0], event, *filled[1:])


def test_a_result_entered_twice_is_refused(event: Path) -> None:
    ok("pair", event, "--division", "A")
    (a, b), _ = paired_games(event, 1)
    ok("result", event, "--division", "A", "--round", "1", str(a), "400", str(b), "300")
    err = refused(event, "result", event, "--division", "A", "--round", "1", str(b), "1",
                  str(a), "2")
    assert "already has a result" in err


def test_new_refuses_an_existing_file_and_a_bad_division_name(tmp_path: Path,
                                                              event: Path) -> None:
    assert "already exists" in refused(event, "new", event, "--division", "B", "--rounds", "3")
    bad = tmp_path / "bad.db"
    code, _, err = run("new", bad, "--division", "../x", "--rounds", "3")
    assert code == 2 and "division name '../x'" in err and not bad.exists()


def test_a_file_that_is_no_event_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "notes.db"
    other.write_text("not a database at all, just text" * 40)
    assert "could not read it as an event file" in refused(other, "standings", other)


def test_export_tsh_then_import_gives_the_same_standings(event: Path, tmp_path: Path) -> None:
    for r in (1, 2):
        ok("pair", event, "--division", "A")
        play_round(event, r)
    ok("pair", event, "--division", "A")
    out_dir = tmp_path / "tsh"
    ok("export", event, "--tsh", out_dir)
    exported = out_dir / "A.t"
    assert exported.read_text(encoding="utf-8").count("\n") == len(PLAYERS)
    copy = tmp_path / "copy.db"
    ok("import", copy, exported, "--division", "A", "--rounds", "3")
    assert ok("standings", copy) == ok("standings", event)
    assert ok("crosstable", copy) == ok("crosstable", event)
    # the imported division goes on: round 3 is paired as exported, its results go in
    play_round(copy, 3)
    play_round(event, 3)
    assert ok("standings", copy) == ok("standings", event)
    # importing over a division that exists is refused
    err = refused(copy, "import", copy, exported, "--division", "A", "--rounds", "3")
    assert "already has a division A" in err


def test_ratings_after_the_event(event: Path) -> None:
    for r in (1, 2, 3):
        ok("pair", event, "--division", "A")
        play_round(event, r)
    lines = ok("ratings", event, "--career-games", "100").splitlines()
    assert lines[0] == "Division A: NASPA ratings"
    rows = {row.split()[0]: row.split() for row in lines[2:]}
    # player 1 won all three as top seed: gains; player 4 lost all three as bottom: loses
    assert int(rows["1"][-2]) > 0 > int(rows["4"][-2])
    assert [rows[str(n)][-1] for n in (1, 2, 3, 4)] == ["103"] * 4


def test_an_unreadable_tsh_file_is_one_line_and_makes_no_event(tmp_path: Path) -> None:
    bad = tmp_path / "a.t"
    bad.write_bytes(b"Able, Ann 1800 2; 400\n\xff\xfe\n")
    target = tmp_path / "new.db"
    code, _, err = run("import", target, bad, "--division", "A", "--rounds", "3")
    assert code == 2 and "not UTF-8 text" in err and len(err.strip().splitlines()) == 1
    bad.write_text("Able, Ann 1800 2; 400\n", encoding="utf-8")  # opponent 2 does not exist
    code, _, err = run("import", target, bad, "--division", "A", "--rounds", "3")
    assert code == 2 and str(bad) in err and len(err.strip().splitlines()) == 1
    assert not target.exists()


def test_a_locked_file_is_one_line_not_a_traceback(
    event: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    from tessera.events import store

    monkeypatch.setattr(store, "BUSY_TIMEOUT_MS", 50)
    holder = sqlite3.connect(event, isolation_level=None)
    holder.execute("PRAGMA busy_timeout=0")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        code, _, err = run("add", event, "--division", "A", "Eve Ebb", "1400")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert code == 2 and "database is locked" in err and len(err.strip().splitlines()) == 1
    assert "Eve Ebb" not in ok("standings", event)


def test_a_manual_division_is_paired_as_the_director_says(tmp_path: Path) -> None:
    path = tmp_path / "manual.db"
    ok("new", path, "--division", "A", "--rounds", "2", "--pairing", "manual")
    for name, rating in PLAYERS[:3]:
        ok("add", path, "--division", "A", name, str(rating))
    assert "not paired: 1 (Ann Able)" in refused(path, "pair", path, "--division", "A")
    assert "write two player numbers" in refused(
        path, "pair", path, "--division", "A", "--pair", "3-1", "--pair", "2-x")
    ok("pair", path, "--division", "A", "--pair", "3-1", "--pair", "2-0")
    assert paired_games(path, 1) == [(3, 1)]
    with EventStore.open_file(path) as store:
        bye = [g for g in store.load().division("A").division.round_games(1) if g.second is None]
    assert [(g.first, g.kind.value) for g in bye] == [(2, "bye")]


def test_pair_refuses_manual_pairs_for_a_system_that_pairs_itself(event: Path) -> None:
    err = refused(event, "pair", event, "--division", "A", "--pair", "1-2", "--pair", "3-4")
    assert "paired by swiss" in err


def test_a_paired_round_is_shown_again_unchanged(event: Path) -> None:
    first = ok("pair", event, "--division", "A")
    before = event.read_bytes()
    assert ok("pair", event, "--division", "A", "--round", "1") == first
    assert event.read_bytes() == before
    err = refused(event, "pair", event, "--division", "A", "--round", "1", "--pair", "1-2")
    assert "round 1 is already paired" in err


def test_a_late_entry_joins_with_forfeits_or_byes_for_the_rounds_missed(event: Path) -> None:
    ok("pair", event, "--division", "A")
    play_round(event, 1)
    err = refused(event, "add", event, "--division", "A", "Eve Ebb", "1400")
    assert "joins late, at round 2" in err
    out = ok("add", event, "--division", "A", "Eve Ebb", "1400", "--missed", "bye")
    assert out.startswith("5 Eve Ebb (1400) joins division A at round 2")
    rows = {r.split()[1]: r.split() for r in ok("standings", event).splitlines()[2:]}
    assert rows["5"][-2:] == ["1-0-0", "+50"]  # the missed round a bye (and no high game)


def test_a_result_is_on_disk_when_the_command_returns(event: Path) -> None:
    """A separate process enters the result; this one reads the file straight after."""
    import sqlite3
    import subprocess
    import sys

    ok("pair", event, "--division", "A")
    (a, b), _ = paired_games(event, 1)
    done = subprocess.run(
        [sys.executable, "-m", "tessera", "tournament", "result", str(event), "--division", "A",
         "--round", "1", str(a), "432", str(b), "321"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    db = sqlite3.connect(event)
    try:
        scores = db.execute(
            "SELECT first_score, second_score FROM tournament_games WHERE round = 1 "
            "AND first = ?", (a,)
        ).fetchone()
    finally:
        db.close()
    assert scores == (432, 321)


def test_export_csv_and_html_write_the_standings_and_printable_pages(
    event: Path, tmp_path: Path
) -> None:
    for r in (1, 2):
        ok("pair", event, "--division", "A")
        play_round(event, r)
    ok("pair", event, "--division", "A")
    ok("export", event, "--csv", tmp_path / "csv", "--html", tmp_path / "html")
    with EventStore.open_file(event) as store:
        division = store.load().divisions["A"].division
    rows = list(csv.reader((tmp_path / "csv" / "A-standings.csv").open(encoding="utf-8")))
    assert [row[2] for row in rows[1:]] == [s.entrant.name for s in division.standings()]
    pages = sorted(p.name for p in (tmp_path / "html").iterdir())
    assert pages == ["A-round-3-pairings.html", "A-score-cards.html", "A-wall-chart.html"]
    chart = (tmp_path / "html" / "A-wall-chart.html").read_text(encoding="utf-8")
    assert all(name in chart for name, _ in PLAYERS)
    assert "name a format to export" in refused(event, "export", event)
    # formats sharing one folder each write their files there
    ok("export", event, "--tsh", tmp_path / "all", "--csv", tmp_path / "all")
    assert sorted(p.name for p in (tmp_path / "all").iterdir()) == ["A-standings.csv", "A.t"]


def test_simulate_reports_a_seeded_run_the_same_each_time() -> None:
    args = ("simulate", "--players", "8", "--rounds", "4", "--events", "5", "--quiet")
    first = ok(*args, "--seed", "3")
    assert first.startswith("5 events of 8 players x 4 rounds, paired swiss, seed 3")
    assert "repeat pairings:" in first and "the top seed won" in first
    assert ok(*args, "--seed", "3") == first
    code, _out, err = run("simulate", "--pairing", "manual", "--events", "1")
    assert code == 2 and "manual" in err


def division_of(event: Path) -> Division:
    with EventStore.open_file(event) as store:
        return store.load().division("A").division


def test_withdraw_by_number_or_name_leaves_the_player_out_of_the_next_round(
    event: Path,
) -> None:
    ok("pair", event, "--division", "A")
    out = ok("withdraw", event, "--division", "A", "Di Dunn")
    assert out == "4 Di Dunn withdraws from division A: not paired from round 2\n"
    # the game already paired stays: its result goes in, then round 2 pairs without Di
    play_round(event, 1)
    ok("pair", event, "--division", "A")
    assert all(4 not in g.players for g in division_of(event).round_games(2))
    assert len(division_of(event).round_games(2)) == 2  # the three others: a game and a bye
    assert "already withdrew from round 2" in refused(
        event, "withdraw", event, "--division", "A", "4")
    assert "no player named 'Nobody'" in refused(
        event, "withdraw", event, "--division", "A", "Nobody")
    assert "no player 9" in refused(event, "withdraw", event, "--division", "A", "9")


def test_a_forfeit_counts_for_both_players_and_can_replace_a_result(event: Path) -> None:
    ok("pair", event, "--division", "A")
    (a, b), (c, d) = paired_games(event, 1)
    name_a = PLAYERS[a - 1][0]
    out = ok("forfeit", event, "--division", "A", "--round", "1", str(b), name_a)
    assert out == f"round 1: {name_a} forfeits to {PLAYERS[b - 1][0]}\n"
    ok("result", event, "--division", "A", "--round", "1", str(c), "400", str(d), "300")
    rows = {r.split()[1]: r.split() for r in ok("standings", event).splitlines()[2:]}
    # no high game for either: the row ends at the spread
    assert rows[str(b)][-2:] == ["1-0-0", "+50"] and rows[str(a)][-2:] == ["0-1-0", "-50"]
    # a forfeit over an entered result needs --correct; then it replaces the scores
    err = refused(event, "forfeit", event, "--division", "A", "--round", "1", str(c), str(d))
    assert "already has a result (400-300); correct it instead" in err
    out = ok("forfeit", event, "--division", "A", "--round", "1", "--correct", str(c), str(d))
    assert out.startswith("corrected round 1:")
    game = next(g for g in division_of(event).round_games(1) if d in g.players)
    assert (game.kind.value, game.forfeited_by, game.scores) == ("forfeit", d, None)
    # and a forfeit is corrected to scores by `correct`
    ok("correct", event, "--division", "A", "--round", "1", str(d), "390", str(c), "380")
    assert "forfeit" not in ok("crosstable", event, "--division", "A")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("{a}", "{c}"), "players {c} and {a} were not paired in round 1"),
        (("{a}", "{a}"), "players {a} and {a} were not paired in round 1"),
        (("{a}", "Nobody"), "no player named 'Nobody'"),
        (("--round", "2", "{a}", "{b}"), "round 2 of division A is not paired"),
        (("--correct", "{a}", "{b}"), "has no result to correct"),
    ],
)
def test_an_impossible_forfeit_is_one_line_and_changes_nothing(
    event: Path, args: tuple[str, ...], message: str
) -> None:
    ok("pair", event, "--division", "A")
    (a, b), (c, _) = paired_games(event, 1)
    filled = [x.format(a=a, b=b, c=c) for x in args]
    if "--round" not in filled:
        filled = ["--round", "1", *filled]
    err = refused(event, "forfeit", event, "--division", "A", *filled)
    assert message.format(a=a, b=b, c=c) in err


def test_a_bye_cannot_be_forfeited(tmp_path: Path) -> None:
    path = tmp_path / "odd.db"
    ok("new", path, "--division", "A", "--rounds", "2", "--pairing", "manual")
    for name, rating in PLAYERS[:3]:
        ok("add", path, "--division", "A", name, str(rating))
    ok("pair", path, "--division", "A", "--pair", "1-2", "--pair", "3-0")
    err = refused(path, "forfeit", path, "--division", "A", "--round", "1", "1", "3")
    assert "players 3 and 1 were not paired in round 1 (round 1: 3 (bye))" in err


def test_a_late_entry_with_forfeit_losses_for_the_rounds_missed(event: Path) -> None:
    ok("pair", event, "--division", "A")
    play_round(event, 1)
    out = ok("add", event, "--division", "A", "Eve Ebb", "1400", "--missed", "forfeit")
    assert out == "5 Eve Ebb (1400) joins division A at round 2, round 1 counted as a " \
        "forfeit loss\n"
    rows = {r.split()[1]: r.split() for r in ok("standings", event).splitlines()[2:]}
    assert rows["5"][-2:] == ["0-1-0", "-50"]
    assert [r.kind for r in division_of(event).player_rounds(5)] == ["missed"]
    ok("pair", event, "--division", "A")
    out = ok("add", event, "--division", "A", "Fay Fox", "1300", "--missed", "bye")
    assert out.endswith("at round 3, rounds 1 to 2 counted as a bye each\n")
    assert [r.kind for r in division_of(event).player_rounds(6)] == ["bye", "bye"]


def test_ratings_use_each_players_own_games_and_the_default_for_the_rest(
    tmp_path: Path,
) -> None:
    path = tmp_path / "rated.db"
    ok("new", path, "--division", "A", "--rounds", "1", "--pairing", "manual")
    ok("add", path, "--division", "A", "Ann Able", "1800", "--games", "10")
    ok("add", path, "--division", "A", "Bob Baker", "1800")
    ok("add", path, "--division", "A", "Cy Cole", "1700", "--games", "500")
    ok("add", path, "--division", "A", "Di Dunn", "1700")
    assert [p.rated_games for p in division_of(path).players] == [10, None, 500, None]
    ok("pair", path, "--division", "A", "--pair", "1-3", "--pair", "2-4")
    ok("result", path, "--division", "A", "--round", "1", "1", "400", "3", "300")
    ok("result", path, "--division", "A", "--round", "1", "2", "400", "4", "300")
    lines = ok("ratings", path, "--career-games", "500").splitlines()
    rows = {row.split()[0]: row.split() for row in lines[2:]}
    # games after the event: each player's own count, else the default, plus the one game
    assert [rows[n][-1] for n in "1234"] == ["11", "501", "501", "501"]
    # the same win over the same rating gains more with 10 games than with 500 (NASPA's
    # multiplier): Ann's own count was used, Bob's the default
    assert int(rows["1"][-2]) > int(rows["2"][-2]) > 0
    code, _, err = run("add", path, "--division", "A", "Eve", "1500", "--games", "-1")
    assert code == 2 and "--games" in err


def test_ratings_by_the_absp_system(tmp_path: Path) -> None:
    """`--system absp` (tessera.tournament.ratings.absp), worked by hand: four players on the
    ABSP's scale, 40 games each before (all at their rating: weights 224 down to 185, summing
    to 8,180; past 30 games, so the 10-point rule does not apply), one game now at weight 225.
    Ann (160) beats Cy (150): 150 + 50 = 200, so (225 x 200 + 8,180 x 160) / 8,405 = 161.07,
    161; Cy: (225 x (160 - 50) + 8,180 x 150) / 8,405 = 148.93, 149; Di (120) beats Bob (155,
    35 above: within 40): Di (225 x 205 + 8,180 x 120) / 8,405 = 122.28, 122; Bob (225 x 70 +
    8,180 x 155) / 8,405 = 152.72, 153."""
    path = tmp_path / "absp.db"
    ok("new", path, "--division", "A", "--rounds", "1", "--pairing", "manual")
    for name, rating in (("Ann Able", 160), ("Bob Baker", 155), ("Cy Cole", 150),
                         ("Di Dunn", 120)):
        ok("add", path, "--division", "A", name, str(rating))
    ok("pair", path, "--division", "A", "--pair", "1-3", "--pair", "2-4")
    ok("result", path, "--division", "A", "--round", "1", "1", "400", "3", "300")
    ok("result", path, "--division", "A", "--round", "1", "4", "400", "2", "300")
    lines = ok("ratings", path, "--system", "absp", "--career-games", "40").splitlines()
    assert lines[0] == "Division A: ABSP ratings"
    rows = {row.split()[0]: row.split() for row in lines[2:]}
    assert [rows[n][-3:] for n in "1234"] == [
        ["161", "+1", "41"], ["153", "-2", "41"], ["149", "-1", "41"], ["122", "+2", "41"]]
    naspa = ok("ratings", path).splitlines()
    assert naspa[0] == "Division A: NASPA ratings" and naspa[2:] != lines[2:]
    code, _, err = run("ratings", path, "--system", "fide")
    assert code == 2 and "--system" in err


def test_a_file_that_cannot_be_written_is_one_line(event: Path, tmp_path: Path) -> None:
    """The file system refusing a write (here a folder already named A.t) is one line naming
    the path, exit status 2, not a traceback."""
    out = tmp_path / "tsh"
    (out / "A.t").mkdir(parents=True)
    code, _, err = run("export", event, "--tsh", out)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert f"{out / 'A.t'}: could not write it" in err
