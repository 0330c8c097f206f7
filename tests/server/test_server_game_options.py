"""A new game's own settings from the new-game dialog — a time control and a challenge rule
apart from the preset — checked and bounded; a rematch of a game against the computer; the
dialog's descriptions (levels, challenge rules, the finish line); and the challenge verdicts
the game page's banner reads."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from helpers import HUMANS, new_game, state

from tessera.lexicon import Lexicon
from tessera.rules import preset
from tessera.server.app import create_app
from tessera.server.computer import LEVEL_STRENGTH
from tessera.server.config import ServerConfig
from tessera.server.schema import games_table
from tessera.server.storage import Storage
from tessera.server.web import COOKIE

FAST = ServerConfig(bot_delay_s=0, think_s=0.05)
BASE = "http://localhost"
README = Path(__file__).resolve().parents[2] / "README.md"
ANN = {"name": "Ann", "kind": "human"}
BOT = {"name": "Bot", "kind": "computer", "level": "level1"}


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, config=FAST), base_url=BASE) as c:
        yield c


@pytest.fixture(scope="module")
def lexicon() -> Any:
    return Lexicon.load("enable")


def games_stored(db: str) -> int:
    store = Storage(db)
    try:
        with store.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(games_table)).scalar_one())
    finally:
        store.close()


def test_a_game_keeps_its_own_clock_and_challenge_rule_across_a_restart(db: str) -> None:
    spec = {
        "clock": {"initial_min": 3, "increment_s": 5},
        "challenge_rule": "single",
    }
    with TestClient(create_app(db, config=FAST), base_url=BASE) as c:
        gid = new_game(c, rules="casual", players=HUMANS, **spec)
        s = state(c, gid)
        cookies = dict(c.cookies)
    assert s["rules"]["challenge_rule"] == "single" and s["rules"]["challenges"] is True
    assert s["rules"]["clock"] is True and s["clocks_ms"] == [180_000, 180_000]
    assert s["clock"] == {"initial_ms": 180_000, "increment_ms": 5000, "max_overtime_min": 0}
    with TestClient(create_app(db, config=FAST), base_url=BASE, cookies=cookies) as c:
        again = state(c, gid)
        # overtime instead of an increment; a preset's own rule and clock stay when none given
        other = new_game(c, rules="naspa", players=HUMANS, clock={"initial_min": 1,
                                                                  "max_overtime_min": 2})
        naspa = state(c, new_game(c, rules="naspa", players=HUMANS))
        overtime = state(c, other)
    assert again["rules"] == s["rules"] and again["clock"] == s["clock"]
    assert overtime["clock"] == {"initial_ms": 60_000, "increment_ms": 0, "max_overtime_min": 2}
    assert overtime["rules"]["challenge_rule"] == "double"
    assert naspa["clock"] is None and naspa["clocks_ms"] == [25 * 60_000] * 2


BAD_OPTIONS = [
    ({"challenge_rule": "quadruple"}, "bad_challenge_rule", "no challenge rule 'quadruple'"),
    ({"challenge_rule": 3}, "bad_challenge_rule", "challenge_rule must be text"),
    ({"challenge_rule": "x" * 17}, "bad_challenge_rule", "longer than 16 characters"),
    ({"clock": 5}, "bad_clock", "clock must be an object"),
    ({"clock": {}}, "bad_clock", "clock needs initial_min"),
    ({"clock": {"initial_min": 0}}, "bad_initial_min", "from 1 to 90"),
    ({"clock": {"initial_min": 91}}, "bad_initial_min", "from 1 to 90"),
    ({"clock": {"initial_min": 2.5}}, "bad_initial_min", "whole number"),
    ({"clock": {"initial_min": True}}, "bad_initial_min", "whole number"),
    ({"clock": {"initial_min": 5, "increment_s": 61}}, "bad_increment_s", "from 0 to 60"),
    ({"clock": {"initial_min": 5, "increment_s": -1}}, "bad_increment_s", "from 0 to 60"),
    ({"clock": {"initial_min": 5, "max_overtime_min": 11}}, "bad_max_overtime_min", "0 to 10"),
    ({"clock": {"initial_min": 5, "delay_s": 3}}, "bad_clock", "no field 'delay_s'"),
]


@pytest.mark.parametrize(("options", "reason", "message"), BAD_OPTIONS)
def test_bad_game_options_are_refused_precisely_and_store_nothing(
    client: TestClient, db: str, options: dict[str, Any], reason: str, message: str
) -> None:
    before = games_stored(db)
    r = client.post("/api/games", json={"players": [ANN, BOT], "rules": "casual", **options})
    assert r.status_code == 400, r.text
    assert r.json()["reason"] == reason and message in r.json()["error"], r.json()
    assert games_stored(db) == before
    assert COOKIE not in r.cookies  # not even a guest was made for it


def test_a_finished_game_against_the_computer_is_rematched_with_the_same_settings(
    client: TestClient, db: str
) -> None:
    spec = {"clock": {"initial_min": 7, "max_overtime_min": 1}, "challenge_rule": "double"}
    gid = new_game(client, rules="hasbro", players=[ANN, BOT], **spec)
    refused = client.post(f"/api/games/{gid}/rematch", json={})
    assert refused.status_code == 400 and refused.json()["reason"] == "no_rematch"
    before = state(client, gid)
    resign = {"seat": 0, "action": "resign"}
    assert client.post(f"/api/games/{gid}/move", json=resign).status_code == 200
    r = client.post(f"/api/games/{gid}/rematch", json={})
    assert r.status_code == 201, r.text
    new = state(client, r.json()["id"])
    assert r.json()["id"] != gid and new["state"] == "playing"
    for key in ("names", "kinds", "levels", "rules", "lexicon", "clock", "my_seats"):
        assert new[key] == before[key], key
    with TestClient(create_app(db, config=FAST), base_url=BASE) as stranger:
        new_game(stranger)  # a guest of their own
        other = stranger.post(f"/api/games/{gid}/rematch", json={})
    assert other.status_code == 403


def test_the_dialogs_descriptions_come_from_one_place(client: TestClient) -> None:
    """The strength table the README measures is the one the dialog shows (computer.py holds
    it; this holds the README to it), every level has a description, each challenge rule is
    explained, and the finish line says its targets by number of players."""
    meta = client.get("/api/meta").json()
    rows = re.findall(
        r"^\| (level\d|best) \| ([\d.]+) \| ([\d.]+) \| ([^|]+) \| ([\d.]+) \|$",
        README.read_text(encoding="utf-8"),
        re.M,
    )
    readme = {name: (float(a), float(b), w.strip(), float(c)) for name, a, b, w, c in rows}
    assert readme == LEVEL_STRENGTH
    info = {i["name"]: i for i in meta["level_info"]}
    assert list(info) == meta["levels"]
    for name, (mean, opponent, win, bingos) in LEVEL_STRENGTH.items():
        assert info[name]["mean_score"] == mean and info[name]["win_pct"] == win
        assert info[name]["opponent_score"] == opponent and info[name]["bingos"] == bingos
        assert info[name]["description"]
    assert [c["value"] for c in meta["challenge_rules"]] == [
        "void", "single", "double", "penalty", "triple"
    ]
    finish = next(p for p in meta["presets"] if p["name"] == "finish_line")
    assert finish["finish_targets"] == {"2": 120, "3": 100, "4": 90}
    naspa = next(p for p in meta["presets"] if p["name"] == "naspa")
    assert naspa["challenge_rule"] == "double" and naspa["clock"]["initial_min"] == 25
    assert naspa["finish_targets"] is None


def phony_opening(s: dict[str, Any], lexicon: Any) -> tuple[list[list[Any]], str]:
    alphabet = preset(s["rules"]["name"]).tileset.alphabet
    r, c = s["layout"]["start"]
    for a, b in permutations([t for t in s["rack"] if t != "?"], 2):
        if not lexicon.contains(alphabet.parse(a + b)):
            return [[r, c, a], [r, c + 1, b]], a + b
    raise AssertionError(f"every pair of {s['rack']} is a word")


def test_challenge_verdicts_name_the_challenger_and_the_words_judged(
    client: TestClient, lexicon: Any
) -> None:
    """What the banner reads: a withdrawn play's phonies and who challenged it off; for a
    failed challenge, the challenger and the words that stood."""
    for _ in range(20):  # until the challenger's rack has a word to open with
        gid = new_game(client, rules="hasbro", players=HUMANS, challenge_rule="single")
        s = state(client, gid)
        first = s["to_move"]
        placements, phony = phony_opening(s, lexicon)
        play = {"seat": first, "action": "play", "placements": placements}
        assert client.post(f"/api/games/{gid}/move", json=play).json().get("ok", True) is True
        second = state(client, gid)["to_move"]
        challenge = {"seat": second, "action": "challenge"}
        assert client.post(f"/api/games/{gid}/move", json=challenge).status_code == 200
        withdrawn = state(client, gid)["history"][-1]
        assert withdrawn["kind"] == "withdrawn" and withdrawn["player"] == first
        assert withdrawn["challenger"] == second and withdrawn["verdict_words"] == [phony]
        s = state(client, gid)
        hints = client.post(f"/api/games/{gid}/hints", json={"seat": s["seat"]}).json()["hints"]
        if hints:
            break
    # the opening again, a real word this time; a challenge of it costs nothing (single)
    body = {"seat": s["seat"], "action": "play", "placements": hints[0]["placements"]}
    assert client.post(f"/api/games/{gid}/move", json=body).json().get("ok", True) is True
    s = state(client, gid)
    words = s["history"][-1]["words"]
    challenger = s["to_move"]
    r = client.post(f"/api/games/{gid}/move", json={"seat": challenger, "action": "challenge"})
    assert r.status_code == 200
    stood = state(client, gid)["history"][-1]
    assert stood["kind"] == "challenge_bonus" and stood["score"] == 0
    assert stood["challenger"] == challenger and stood["verdict_words"] == words
