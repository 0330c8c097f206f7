"""A division's games as a zip of GCG files (tessera.formats.gcg_zip): one file a game played
in Tessera, fixed timestamps, the same bytes every time, and keys checked."""

from __future__ import annotations

import io
import zipfile

import pytest

from tessera.formats.gcg_zip import (
    ZIP_TIMESTAMP,
    GcgZipError,
    pack_divisions,
    pack_games,
    path_name,
)
from tessera.tournament import Division, Pairing


def division(name: str = "A") -> Division:
    d = Division(name, 2)
    for name in ("O'Brien, Pat", "../../etc/passwd", "Zoë Ä", "Dee"):
        d.add_player(name, 1500)
    d.pair_round([Pairing(1, 2, 1), Pairing(3, 4, 2)])
    d.record_result(1, 1, 400, 2, 350)
    d.record_result(1, 3, 380, 4, 390)
    d.pair_round([Pairing(4, 1, 1), Pairing(2, 3, 2)])
    d.record_forfeit(2, 3)
    return d


def gcg(n: int) -> str:
    return f"#character-encoding UTF-8\n#player1 a A\n#player2 b B\n#note game {n}\n"


def test_the_zip_holds_one_gcg_a_game_with_fixed_timestamps() -> None:
    games = {(1, 2): gcg(2), (2, 1): gcg(3), (1, 1): gcg(1)}
    data = pack_games(division(), games)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        infos = archive.infolist()
        assert [i.filename for i in infos] == [
            "round-01/board-01-O-Brien-Pat-v-etc-passwd.gcg",
            "round-01/board-02-Zoë-Ä-v-Dee.gcg",
            "round-02/board-01-Dee-v-O-Brien-Pat.gcg",
        ]
        assert {i.date_time for i in infos} == {ZIP_TIMESTAMP}
        assert [archive.read(i).decode() for i in infos] == [gcg(1), gcg(2), gcg(3)]
        assert archive.testzip() is None
    assert pack_games(division(), dict(reversed(games.items()))) == data


def test_names_cannot_make_paths() -> None:
    assert path_name("../../etc/passwd") == "etc-passwd"
    assert path_name("a/b\\c") == "a-b-c"
    assert path_name("///") == "player"
    assert len(path_name("x" * 500)) == 40


@pytest.mark.parametrize(("games", "message"), [
    ({(3, 1): "x"}, "round 3, board 1: round 3 of division A is not paired"),
    ({(1, 5): "x"}, "round 1, board 5: no game on that board"),
    ({(2, 2): "x"}, "round 2, board 2: 2 v 3 was a forfeit"),
    ({(1, 1): "  "}, "round 1, board 1: the GCG record is empty"),
    ({(1, 1): "x" * 1_000_001}, "a GCG record of 1,000,001 characters; at most 1,000,000"),
    ({"1-1": "x"}, "game key '1-1' is not \\(round, board\\)"),
])
def test_a_bad_key_or_record_is_refused_naming_it(games, message) -> None:
    with pytest.raises(GcgZipError, match=message):
        pack_games(division(), games)


def test_several_divisions_share_one_zip_a_folder_each() -> None:
    data = pack_divisions([(division("B"), {(1, 1): gcg(1)}), (division("A"), {}),
                           (division("C_2"), {(1, 2): gcg(2)})])
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert [i.filename for i in archive.infolist()] == [
            "B/round-01/board-01-O-Brien-Pat-v-etc-passwd.gcg",
            "C-2/round-01/board-02-Zoë-Ä-v-Dee.gcg",
        ]
    assert pack_divisions([(division(), {(1, 1): gcg(1)})]) == pack_games(
        division(), {(1, 1): gcg(1)})
    with pytest.raises(GcgZipError, match="two divisions make the same folder name 'C-2/'"):
        pack_divisions([(division("C_2"), {}), (division("C-2"), {})])
    with pytest.raises(GcgZipError, match="division B, round 1, board 1: the GCG record is"):
        pack_divisions([(division("A"), {}), (division("B"), {(1, 1): " "})])
