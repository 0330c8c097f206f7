"""Word study over HTTP: lookups and searches for anyone, the quiz for the signed-in player,
its card box kept across a restart of the app, and a precise 400 for every bad question."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tessera.lexicon import Lexicon
from tessera.server.app import create_app
from tessera.server.config import ServerConfig

FAST = ServerConfig(bot_delay_s=0, think_s=0.05)
BASE = "http://localhost"


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, config=FAST), base_url=BASE) as c:
        yield c


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return Lexicon.load("enable")


def words_of(lexicon: Lexicon, alphagram: str) -> list[str]:
    return [lexicon.format(w) for w in lexicon.anagrams(alphagram, partial=False)]


def test_lookup_and_searches_need_no_account(client: TestClient) -> None:
    care = client.get("/api/study/lookup", params={"word": "care"}).json()
    assert care["valid"] and care["anagrams"] == ["ACRE", "CARE", "RACE"]
    assert (care["front_hooks"], care["back_hooks"]) == ("S", "DRSTX")
    # the terminal's lookup is the same one
    from click.testing import CliRunner

    from tessera.cli import main

    for word in ("care", "qi", "xyzzy"):
        page = client.get("/api/study/lookup", params={"word": word}).json()
        done = CliRunner().invoke(main, ["words", "lookup", word, "--json"])
        assert {**json.loads(done.output), "lexicon": "enable"} == page
        assert done.exit_code == (0 if page["valid"] else 1)
    done = CliRunner().invoke(main, ["words", "lookup", "care"])
    assert done.output.splitlines() == [
        f"CARE: valid in enable, probability rank {care['probability_rank']:,}",
        "anagrams: ACRE, RACE",
        "hooks: S in front, DRSTX behind",
    ]
    found = client.get("/api/study/anagram", params={"rack": "aeinrst"}).json()
    assert found["total"] == 9 and len(found["words"]) == 9
    built = client.get("/api/study/anagram", params={"rack": "cat", "build": "1"}).json()
    assert set(built["words"]) == {"ACT", "CAT", "AT", "TA"}
    blank = client.get("/api/study/anagram", params={"rack": "ca?"}).json()
    assert "CAt" in blank["words"]
    cut = client.get("/api/study/pattern", params={"pattern": "c?t"}).json()
    assert set(cut["words"]) == {"CAT", "COT", "CUT"} and cut["total"] == 3
    many = client.get("/api/study/pattern", params={"pattern": "*s"}).json()
    assert len(many["words"]) == 500 and many["total"] > 500


@pytest.mark.parametrize(
    ("path", "params", "reason"),
    [
        ("/api/study/lookup", {}, "bad_word"),
        ("/api/study/lookup", {"word": "c4t"}, "bad_word"),
        ("/api/study/lookup", {"word": "a" * 65}, "bad_word"),
        ("/api/study/lookup", {"word": "cat", "lexicon": "/etc/passwd"}, "bad_lexicon"),
        ("/api/study/anagram", {"rack": "ab???"}, "bad_rack"),
        ("/api/study/anagram", {"rack": "abcdefghijklmnop"}, "bad_rack"),
        ("/api/study/pattern", {"pattern": "a*b*c*d*"}, "bad_pattern"),
        ("/api/study/pattern", {"pattern": "**"}, "bad_pattern"),
    ],
)
def test_bad_questions_get_a_400_naming_the_field(
    client: TestClient, path: str, params: dict[str, str], reason: str
) -> None:
    r = client.get(path, params=params)
    assert r.status_code == 400 and r.json()["reason"] == reason, r.text


def test_lookups_are_rate_limited_per_address(db: str) -> None:
    # 3 a minute: one more each 20 s, so a slow machine's requests do not earn a new one
    config = ServerConfig(bot_delay_s=0, think_s=0.05, lookups_per_minute=3)
    with TestClient(create_app(db, config=config), base_url=BASE) as client:
        codes = [client.get("/api/study/lookup", params={"word": "qat"}).status_code
                 for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        r = client.get("/api/study/pattern", params={"pattern": "q?t"})
        assert r.status_code == 429 and r.json()["reason"] == "rate_limited"
    assert ServerConfig().lookups_per_minute == 60


def test_the_quiz_is_the_players_and_refuses_bad_answers(client: TestClient) -> None:
    assert client.get("/api/study/quiz").json()["reason"] == "no_session"
    assert client.post("/api/study/quiz", json={}).status_code == 401
    client.post("/api/guest", json={"name": "Ann"})
    for length in ("1", "16", "x", "-3", "007"):
        r = client.get("/api/study/quiz", params={"length": length})
        assert r.status_code == 400 and r.json()["reason"] == "bad_length", length
    bad: list[tuple[dict[str, Any], str]] = [
        ({"alphagram": "QXZ", "words": []}, "bad_alphagram"),
        ({"alphagram": "AET", "words": "EAT"}, "bad_words"),
        ({"alphagram": "AET", "words": [1]}, "bad_words"),
        ({"alphagram": "AET", "words": ["EAT"] * 65}, "bad_words"),
        ({"alphagram": "AET", "words": ["E" * 65]}, "bad_words"),
        ({"alphagram": "A" * 65, "words": []}, "bad_alphagram"),
        ({"alphagram": "AET", "words": [], "lexicon": "nope"}, "bad_lexicon"),
    ]
    for body, reason in bad:
        r = client.post("/api/study/quiz", json=body)
        assert r.status_code == 400 and r.json()["reason"] == reason, (body, r.text)


def test_ten_answers_a_missed_one_back_sooner_and_the_box_kept_over_a_restart(
    db: str, lexicon: Lexicon
) -> None:
    with TestClient(create_app(db, config=FAST), base_url=BASE) as c:
        c.post("/api/guest", json={"name": "Ann"})
        asked: list[str] = []
        missed: set[str] = set()
        for i in range(10):
            q = c.get("/api/study/quiz", params={"length": "4"}).json()
            alphagram = q["question"]["alphagram"]
            asked.append(alphagram)
            words = words_of(lexicon, alphagram)
            wrong = i in (1, 4) and alphagram not in missed  # two misses on purpose
            guess = [*words[:-1], "ZZZZ"] if wrong else words
            r = c.post("/api/study/quiz", json={"alphagram": alphagram, "words": guess}).json()
            assert r["correct"] is (not wrong)
            if wrong:
                missed.add(alphagram)
                assert r["card"]["box"] == 0 and r["wrong"] == ["ZZZZ"]
                assert r["missed"] == [words[-1]]
            else:
                assert r["card"]["box"] >= 1 and r["missed"] == []
        # each missed one came back four questions later, within the ten
        first_miss, second_miss = asked[1], asked[4]
        assert asked[5] == first_miss and asked[8] == second_miss
        assert len(set(asked)) == 8
        box = c.get("/api/study/quiz", params={"length": "4"}).json()["box"]
        cookies = dict(c.cookies)
    assert box["answers"] == 10 and box["cards"] == 8 and box["boxes"][1] == 8
    with TestClient(create_app(db, config=FAST), base_url=BASE, cookies=cookies) as c:
        after = c.get("/api/study/quiz", params={"length": "4"}).json()
    assert after["box"]["answers"] == 10 and after["box"]["boxes"] == box["boxes"]
    assert after["question"]["alphagram"] not in asked  # the next new one, not a repeat
