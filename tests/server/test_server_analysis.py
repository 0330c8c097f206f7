"""The analysis board's API: a position's moves ranked exactly as ``tessera moves --cgp``
ranks them (order, scores, equities with the shipped leaves), filters, the CGP export, and a
precise 400 for every bad input."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from support.movescli import cli_moves
from tessera.server.app import create_app
from tessera.server.config import ServerConfig

BASE = "http://127.0.0.1"
EMPTY_ROW = "15"
# the opponent's rack unknown (hidden): the bag is what neither rack nor board holds, less 7
MIDGAME = (
    "7H1BEMATA/5QUOTED1LOW/7SH3BEN/5R1TA6/5E1AE6/5C1G7/5T1e7/3PLOTS7/5R9/5Y9/15/15/15/15/15"
    " ADEGMSV/ 130/162 0 lex enable; tr naspa;"
)
BLANKS = MIDGAME.replace("ADEGMSV/", "?AEIRST/")  # the board holds the other blank
# both racks known, two tiles in the bag: no exchange is listed
LATE = (
    "SNOWY5Q4/2D7U4/2E1G5I4/2ANA5L4/3OR5L4/2FORNICATE3J/3No5D2HI/4THOU5EN/4E8L1/PRAIRIES5I1/"
    "A6E5X1/V1mAKEBATE1B1E1/AW5MIDGUTS1/NO5E3M3/ET5D3FOUR CGIPRSV/ILOOTYZ 385/309 0"
    " lex enable; tr naspa;"
)
OPENING = "/".join([EMPTY_ROW] * 15) + " AEINRST/ 0/0 0"


@pytest.fixture
def client(sqlite_db: str) -> Iterator[TestClient]:
    config = ServerConfig(analyses_per_minute=1000)
    with TestClient(create_app(sqlite_db, config=config), base_url=BASE) as c:
        yield c


def analyze(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/analysis/moves", json=body)
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def as_cli(rows: list[dict[str, Any]]) -> list[tuple[int, str, int, str]]:
    return [(m["rank"], m["move"], m["score"], f"{m['equity']:.2f}") for m in rows]


@pytest.mark.parametrize("position", [MIDGAME, LATE, OPENING], ids=["midgame", "late", "opening"])
def test_the_ranked_moves_are_tessera_moves_line_for_line(
    client: TestClient, position: str
) -> None:
    expected = cli_moves(position)
    got = analyze(client, cgp=position, limit=500)
    assert got["total"] == got["matched"] == len(expected)
    assert as_cli(got["moves"]) == expected[:500]
    kinds = {m["kind"] for m in got["moves"]}
    assert ("exchange" in kinds) is (position != LATE)  # the bag allows exchanges, or not


def test_a_rack_with_a_blank_lists_its_best_500_of_all_and_counts_them(
    client: TestClient,
) -> None:
    expected = cli_moves(BLANKS)
    got = analyze(client, cgp=BLANKS, limit=500)
    assert got["total"] == got["matched"] == len(expected) > 5_000
    assert as_cli(got["moves"]) == expected[:500]


def test_each_move_has_its_leave_and_the_leave_value_is_equity_less_score(
    client: TestClient,
) -> None:
    best = analyze(client, cgp=MIDGAME, limit=3)["moves"]
    first = best[0]
    assert first["notation"] == "5C GAV(E)" and first["move"] == "5C GAV."
    assert first["leave"] == "DEMS"
    assert first["placements"] == [[4, 2, "G"], [4, 3, "A"], [4, 4, "V"]]
    for m in best:
        assert m["leave_value"] == pytest.approx(m["equity"] - m["score"], abs=0.011)
    rack = analyze(client, cgp=BLANKS, limit=1)["moves"][0]
    assert len(rack["leave"]) == 7 - len(rack["placements"])


def test_filters_keep_the_ranks_of_the_whole_list(client: TestClient) -> None:
    every = analyze(client, cgp=MIDGAME, limit=500)["moves"]
    plays = [m for m in every if m["kind"] == "play"]

    def main_word(m: dict[str, Any]) -> str:
        return m["notation"].split()[1].replace("(", "").replace(")", "")

    by_word = analyze(client, cgp=MIDGAME, word="ad", limit=500)
    assert by_word["moves"] == [m for m in plays if "AD" in main_word(m)]
    assert by_word["matched"] == len(by_word["moves"]) > 0
    assert by_word["total"] == len(every)
    pattern = analyze(client, cgp=MIDGAME, word="?A?E", limit=500)["moves"]
    assert pattern and pattern == [
        m for m in plays if len(main_word(m)) == 4 and main_word(m)[1::2] == "AE"
    ]
    on_square = analyze(client, cgp=MIDGAME, square="8d", limit=500)["moves"]  # row 8, col D
    assert on_square == [m for m in plays if [7, 3] in [p[:2] for p in m["placements"]]]
    assert analyze(client, cgp=MIDGAME, square="D8", limit=500)["moves"] == on_square
    five = analyze(client, cgp=MIDGAME, length=5, limit=500)["moves"]
    assert five == [m for m in plays if len(main_word(m)) == 5]
    capped = analyze(client, cgp=MIDGAME, length=5, limit=2)
    assert capped["moves"] == five[:2] and capped["matched"] == len(five)


def test_a_board_and_rack_is_the_same_position_as_its_cgp(client: TestClient) -> None:
    board: list[list[str | None]] = [[None] * 15 for _ in range(15)]
    for i, label in enumerate("QUITe"):
        board[7][3 + i] = label
    body = {"board": board, "rack": "AEG?RST", "rules": "naspa", "lexicon": "enable"}
    r = client.post("/api/analysis/position", json=body)
    assert r.status_code == 200, r.text
    exported = r.json()["cgp"]
    assert (
        exported
        == "15/15/15/15/15/15/15/3QUITe7/15/15/15/15/15/15/15 AEGRST?/ 0/0 0 lex enable; tr naspa;"
    )
    assert r.json()["board"][7][3:8] == ["Q", "U", "I", "T", "e"]
    from_board = analyze(client, **body, limit=50)
    assert from_board["position"]["cgp"] == exported
    assert as_cli(from_board["moves"]) == cli_moves(exported)[:50]
    assert as_cli(analyze(client, cgp=exported, limit=50)["moves"]) == as_cli(from_board["moves"])


def test_a_word_list_sent_with_a_cgp_stands_instead_of_its_own(client: TestClient) -> None:
    elsewhere = MIDGAME.replace("lex enable", "lex NWL23")
    got = analyze(client, cgp=elsewhere, lexicon="enable", limit=5)
    assert got["position"]["cgp"] == MIDGAME
    assert as_cli(got["moves"]) == cli_moves(MIDGAME)[:5]


def test_the_position_route_writes_a_pasted_cgp_back(client: TestClient) -> None:
    r = client.post("/api/analysis/position", json={"cgp": MIDGAME})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["cgp"] == MIDGAME
    assert (
        data["rack"] == list("ADEGMSV") and data["bag_count"] == 100 - 38 - 7 - 7
    )  # less a hidden rack
    assert data["layout"]["rows"] == 15 and data["values"]["Q"] == 10


FULL_ROW = [None] * 15


def board_with(r: int, c: int, label: object) -> list[list[object]]:
    board: list[list[object]] = [list(FULL_ROW) for _ in range(15)]
    board[r][c] = label
    return board


BAD = [
    ({"cgp": 5}, "bad_cgp", "cgp must be text"),
    ({"cgp": "A" * 5000}, "bad_cgp", "cgp is longer than 4096 characters"),
    (
        {"cgp": "15/15 A/ 0/0 0"},
        "bad_cgp",
        "cgp: the board has 2 rows; the standard15 board has 15",
    ),
    (
        {"cgp": MIDGAME.replace("ADEGMSV", "ADEGMSVX")},
        "bad_cgp",
        "rack 1 (ADEGMSVX) has 8 tiles; a rack holds 7",
    ),
    ({"cgp": MIDGAME.replace("ADEGMSV", "ADE1")}, "bad_cgp", "cgp: rack 1:"),
    (
        {"cgp": MIDGAME.replace("ADEGMSV", "ZZ")},
        "bad_cgp",
        "2 × Z on the board and racks; the english set has 1",
    ),
    ({"cgp": MIDGAME, "board": [], "rack": "A"}, "bad_position", "not both"),
    (
        {"cgp": MIDGAME, "lexicon": "../../etc/passwd"},
        "bad_lexicon",
        "no word list '../../etc/passwd' here",
    ),
    (
        {"cgp": MIDGAME.replace("lex enable", "lex NWL23")},
        "bad_lexicon",
        "no word list 'NWL23' here",
    ),
    (
        {"cgp": OPENING.replace("AEINRST", "ABC") + " ld spanish;"},
        "bad_position",
        "the lexicon 'enable' uses the english alphabet, but the rules' tiles (spanish) use",
    ),
    ({"board": "x", "rack": "A"}, "bad_board", "board must be a list of 1–25 rows"),
    ({"board": [[None] * 15] * 30, "rack": "A"}, "bad_board", "board must be a list of 1–25 rows"),
    (
        {"board": [[None] * 40] * 15, "rack": "A"},
        "bad_board",
        "board row 1 must be a list of 1–25 squares",
    ),
    (
        {"board": [[None] * 14] * 15, "rack": "A"},
        "bad_position",
        "board row 1 has 14 squares; the board has 15 columns",
    ),
    ({"board": board_with(7, 7, "3"), "rack": "A"}, "bad_board", "square H8: '3' is not a tile"),
    (
        {"board": board_with(0, 0, "[Q]"), "rack": "A"},
        "bad_board",
        "square A1: '[Q]' is not a tile",
    ),
    ({"board": board_with(0, 0, 7), "rack": "A"}, "bad_board", "square A1: '7' is not a tile"),
    ({"board": board_with(0, 0, "Ñ"), "rack": "A"}, "bad_position", "board row 1:"),
    (
        {"board": board_with(0, 0, "Z"), "rack": "Z"},
        "bad_position",
        "2 × Z on the board and racks; the english set has 1",
    ),
    (
        {"board": board_with(0, 0, None), "rack": "ABCDEFGH"},
        "bad_position",
        "rack 1 (ABCDEFGH) has 8 tiles; a rack holds 7",
    ),
    (
        {"board": board_with(0, 0, None), "rack": "A/B C"},
        "bad_rack",
        "only letters and ? for a blank",
    ),
    (
        {"board": board_with(0, 0, None), "rack": "A" * 65},
        "bad_rack",
        "rack is longer than 64 characters",
    ),
    (
        {"board": board_with(0, 0, None), "rack": "AB", "rules": "chess"},
        "bad_rules",
        "no rules preset 'chess'",
    ),
    (
        {"board": board_with(0, 0, None), "rack": "AB", "lexicon": "/tmp/x.txt"},
        "bad_lexicon",
        "no word list '/tmp/x.txt' here",
    ),
    ({"cgp": MIDGAME, "word": "A-B"}, "bad_word", "letters, with ? or . for any one tile"),
    ({"cgp": MIDGAME, "word": "A" * 33}, "bad_word", "word is longer than 32 characters"),
    ({"cgp": MIDGAME, "square": "Z99"}, "bad_square", "write it as 8D or D8"),
    ({"cgp": MIDGAME, "square": "16A"}, "bad_square", "write it as 8D or D8"),
    ({"cgp": MIDGAME, "length": "5"}, "bad_length", "length must be a whole number"),
    ({"cgp": MIDGAME, "length": 0}, "bad_length", "length must be 1–25"),
    ({"cgp": MIDGAME, "limit": 501}, "bad_limit", "limit must be 1–500"),
    ({"cgp": MIDGAME, "limit": True}, "bad_limit", "limit must be a whole number"),
]


@pytest.mark.parametrize(
    ("body", "reason", "message"), BAD, ids=[f"{b[1]}-{i}" for i, b in enumerate(BAD)]
)
def test_each_bad_input_gets_a_precise_400(
    client: TestClient, body: dict[str, Any], reason: str, message: str
) -> None:
    r = client.post("/api/analysis/moves", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["reason"] == reason
    assert message in r.json()["error"]


def test_the_routes_are_rate_limited_per_client(sqlite_db: str) -> None:
    config = ServerConfig(analyses_per_minute=3)
    with TestClient(create_app(sqlite_db, config=config), base_url=BASE) as c:
        codes = [
            c.post("/api/analysis/position", json={"cgp": OPENING}).status_code for _ in range(4)
        ]
        assert codes == [200, 200, 200, 429]
        assert (
            c.post("/api/analysis/moves", json={"cgp": OPENING}).json()["reason"] == "rate_limited"
        )
