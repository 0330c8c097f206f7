"""A game's GCG record in an event (tessera.events.records): ``result --gcg`` checks it against
the result and keeps it with the game, ``correct`` without ``--gcg`` drops it, and ``export
--gcg-zip`` packs every kept record, byte for byte and the same bytes every time. The records
are games played by the library (random legal plays, no word list) and written by the
project's GCG writer."""

from __future__ import annotations

import io
import random
import sqlite3
import zipfile
from pathlib import Path

import pytest

from support.randomplay import play_randomly
from support.tournament_cli import ok, refused
from tessera.events.records import (
    MAX_RECORD_BYTES,
    GameRecord,
    GameRecordError,
    attach,
    finished_record,
)
from tessera.events.store import EventStore
from tessera.formats import gcg
from tessera.game import Game
from tessera.tournament import Division, Pairing

PLAYERS = ["Ann Able", "Bob Baker", "Cy Cole", "Di Dunn"]


def played(names: tuple[str, str], seed: int, until: int | None = None) -> tuple[str, dict]:
    """A game between ``names`` (the first moves first) as Tessera writes it, and each name's
    final score; ``until`` stops it after that many turns, unfinished."""
    game = Game("naspa", None, list(names), seed=seed, first=0)
    rng = random.Random(seed)
    play_randomly(game, rng, lambda g: until is not None and len(g.history) >= until)
    return gcg.dumps(game), dict(zip(game.players, game.scores, strict=True))


@pytest.fixture
def event(tmp_path: Path) -> Path:
    """Division A (1 v 2 on board 1, 3 v 4 on board 2 in round 1) and division B."""
    path = tmp_path / "club.db"
    ok("new", path, "--division", "A", "--division", "B", "--rounds", "2", "--pairing",
       "manual")
    for name in PLAYERS:
        ok("add", path, "--division", "A", name, "1500")
    ok("pair", path, "--division", "A", "--pair", "1-2", "--pair", "3-4")
    return path


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def result(event: Path, record: Path | None, first: int, s1: int, second: int, s2: int,
           command: str = "result") -> list[str]:
    args = [command, event, "--division", "A", "--round", "1", str(first), str(s1),
            str(second), str(s2)]
    return [*args, *(["--gcg", record] if record else [])]


def stored_records(event: Path) -> dict[tuple[int, int], GameRecord]:
    with EventStore.open_file(event) as store:
        return store.load().division("A").kept_records()


def zipped(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def test_records_are_kept_and_exported_byte_for_byte_the_same_zip_each_time(
    event: Path, tmp_path: Path
) -> None:
    text, final = played(("Ann Able", "Bob Baker"), 3)
    first = write(tmp_path, "first.gcg", text)
    out = ok(*result(event, first, 1, final["Ann Able"], 2, final["Bob Baker"]))
    assert out.strip().endswith(f"record {first} attached")
    # names other than the division's: the record's first player is the game's first player
    other, other_final = played(("cy", "dee"), 8)
    second = write(tmp_path, "second.gcg", other)
    ok(*result(event, second, 4, other_final["dee"], 3, other_final["cy"]))
    assert set(stored_records(event)) == {(1, 1), (1, 2)}

    ok("export", event, "--gcg-zip", tmp_path / "all.zip")
    assert zipped(tmp_path / "all.zip") == {
        "A/round-01/board-01-Ann-Able-v-Bob-Baker.gcg": first.read_bytes(),
        "A/round-01/board-02-Cy-Cole-v-Di-Dunn.gcg": second.read_bytes(),
    }
    assert "is the event file" in refused(event, "export", event, "--gcg-zip", event)
    ok("export", event, "--gcg-zip", tmp_path / "again.zip")
    assert (tmp_path / "again.zip").read_bytes() == (tmp_path / "all.zip").read_bytes()
    ok("export", event, "--division", "A", "--gcg-zip", tmp_path / "a.zip")
    assert sorted(zipped(tmp_path / "a.zip")) == [
        "round-01/board-01-Ann-Able-v-Bob-Baker.gcg", "round-01/board-02-Cy-Cole-v-Di-Dunn.gcg",
    ]


def test_a_record_naming_the_players_the_other_way_round_is_matched_by_name(
    event: Path, tmp_path: Path
) -> None:
    text, final = played(("Bob Baker", "Ann Able"), 5)  # Bob moved first, though paired second
    assert final["Bob Baker"] != final["Ann Able"]
    record = write(tmp_path, "swapped.gcg", text)
    ok(*result(event, record, 1, final["Ann Able"], 2, final["Bob Baker"]))
    assert stored_records(event)[1, 1].gcg == text


def test_a_record_whose_scores_disagree_is_refused_and_the_file_unchanged(
    event: Path, tmp_path: Path
) -> None:
    text, final = played(("cy", "dee"), 8)
    record = write(tmp_path, "game.gcg", text)
    cy, dee = final["cy"], final["dee"]
    assert cy != dee
    # by order the record's first player (cy) is the game's first (player 3): swapped scores
    # are not the result's
    line = refused(event, *result(event, record, 3, dee, 4, cy))
    assert line.endswith(f"{record}: the record's final scores {cy}-{dee} are not the result's "
                         f"{dee}-{cy} (round 1, Cy Cole first)")
    line = refused(event, *result(event, record, 3, cy + 1, 4, dee))
    assert f"final scores {cy}-{dee} are not the result's {cy + 1}-{dee}" in line
    assert stored_records(event) == {}
    with EventStore.open_file(event) as store:
        assert store.load().division("A").division.round_games(1)[1].scores is None


def test_a_record_that_is_not_a_finished_game_is_refused(event: Path, tmp_path: Path) -> None:
    unfinished, _ = played(("Cy Cole", "Di Dunn"), 4, until=6)
    text, final = played(("Cy Cole", "Di Dunn"), 4)
    bad_line = text.replace(f" {final['Cy Cole']}\n", f" {final['Cy Cole'] + 1}\n", 1)
    files = {
        "unfinished.gcg": (unfinished.encode(), "the game it records is not finished"),
        "latin1.gcg": ("#player1 a Zoë\n".encode("latin-1"), "not UTF-8 text"),
        "garbage.gcg": (b"#player1 a A\n>b: nonsense\n", "not a GCG record Tessera can replay"),
        "bad-total.gcg": (bad_line.encode(), "not a GCG record Tessera can replay (line"),
        "huge.gcg": (b"#" * (MAX_RECORD_BYTES + 1), "a GCG record may have at most"),
    }
    for name, (data, message) in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        line = refused(event, *result(event, path, 3, final["Cy Cole"], 4, final["Di Dunn"]))
        assert f"{path}: " in line and message in line, line
    assert stored_records(event) == {}


def test_a_result_corrected_without_gcg_drops_its_record(event: Path, tmp_path: Path) -> None:
    text, final = played(("Ann Able", "Bob Baker"), 3)
    record = write(tmp_path, "game.gcg", text)
    scores = (1, final["Ann Able"], 2, final["Bob Baker"])
    ok(*result(event, record, *scores))
    out = ok(*result(event, None, *scores, command="correct"))
    assert "record" not in out
    assert stored_records(event) == {}
    db = sqlite3.connect(event)
    assert db.execute("SELECT count(*) FROM tournament_games WHERE gcg IS NOT NULL").fetchone() \
        == (0,)
    db.close()
    assert refused(event, "export", event, "--division", "A", "--gcg-zip", tmp_path / "z.zip") \
        .endswith("no game of division A has a record: attach one with result --gcg")
    # refused before any format is written
    assert "no game of divisions A, B has a record" in refused(
        event, "export", event, "--csv", tmp_path / "csv", "--gcg-zip", tmp_path / "z.zip")
    assert not (tmp_path / "z.zip").exists() and not (tmp_path / "csv").exists()
    ok(*result(event, record, *scores, command="correct"))
    assert stored_records(event)[1, 1].gcg == text
    ok("forfeit", event, "--division", "A", "--round", "1", "--correct", "1", "2")
    assert stored_records(event) == {}


def test_a_record_stays_only_with_the_result_it_was_checked_against() -> None:
    d = Division("A", 1)
    for name in PLAYERS[:2]:
        d.add_player(name, 1500)
    d.pair_round([Pairing(1, 2, 1)])
    text, final = played(("Ann Able", "Bob Baker"), 3)
    d.record_result(1, 1, final["Ann Able"], 2, final["Bob Baker"])
    record = attach(finished_record(text, "g.gcg"), d, 1, d.round_games(1)[0])
    assert record.fits(d.round_games(1)[0])
    d.correct_result(1, 1, final["Ann Able"] + 1, 2, final["Bob Baker"])
    assert not record.fits(d.round_games(1)[0])
    d.clear_result(1, 1)
    assert not record.fits(d.round_games(1)[0])
    with pytest.raises(GameRecordError, match="a game of 3 players"):
        finished_record("#player1 a A\n#player2 b B\n#player3 c C\n", "three.gcg")


def test_an_event_file_at_version_1_takes_a_record_on_its_first_change(
    event: Path, tmp_path: Path
) -> None:
    db = sqlite3.connect(event)
    db.execute("ALTER TABLE tournament_games DROP COLUMN gcg")
    db.execute("ALTER TABLE tournament_players DROP COLUMN games")
    db.execute("UPDATE tournament_events SET schema_version = 1")
    db.commit()
    db.close()
    text, final = played(("Ann Able", "Bob Baker"), 3)
    record = write(tmp_path, "game.gcg", text)
    ok(*result(event, record, 1, final["Ann Able"], 2, final["Bob Baker"]))
    with EventStore.open_file(event) as store:
        assert store.version == 2
    assert stored_records(event)[1, 1].gcg == text
