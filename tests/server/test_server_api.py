"""The web app's API in process: games, moves, refusals, the log and rebuilding from it."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from helpers import H, new_game, state, take_turn, wait_turn

from tessera.game import Game
from tessera.server.app import create_app
from tessera.server.config import ServerConfig
from tessera.server.hub import apply_action
from tessera.server.storage import Action, Seat, Storage, StorageError

T = TypeVar("T")
FAST = ServerConfig(bot_delay_s=0)  # the computer moves at once
BASE = "http://localhost"  # a Host the server answers to


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, config=FAST), base_url=BASE) as c:
        yield c


def run_in_thread(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """asyncio.run on a fresh thread (the browser tests' Playwright owns this thread's loop)."""
    import asyncio

    results: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            results.append(asyncio.run(make()))
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(60)
    if errors:
        raise errors[0]
    assert results, "the coroutine did not finish within 60 s"
    return results[0]


def test_storage_round_trip_and_refuses_a_second_entry_at_one_place(tmp_path: Path) -> None:
    store = Storage(f"sqlite:///{tmp_path / 's.db'}")
    seats = [Seat("Ann", "human"), Seat("Bot", "computer", "best")]
    gid, (tok,) = store.create_game("casual", "enable", 42, seats, [[0]])
    store.append(gid, 0, Action(0, "move", "8D QUITE", None))
    with pytest.raises(StorageError, match="entry 0 already exists"):
        store.append(gid, 0, Action(0, "move", "-", None))
    rec = store.load(gid)
    assert rec is not None
    assert (rec.rules, rec.lexicon, rec.seed, rec.seats) == ("casual", "enable", 42, seats)
    assert rec.actions == [Action(0, "move", "8D QUITE", None)]
    assert store.token_seats(gid, tok) == {0}
    assert store.token_seats(gid, "nope") == frozenset()
    assert store.token_seats("other", tok) == frozenset()
    assert store.load("missing") is None
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


def test_a_game_starts_with_only_my_rack_and_the_computer_answers(client: TestClient) -> None:
    gid, tok = new_game(client)
    s = state(client, gid, tok)
    assert s["seat"] == 0 and s["names"] == ["Ann", "Bot"]
    assert len(s["rack"]) == 7 and s["rack_counts"] == [7, 7]
    assert s["rules"]["name"] == "casual" and s["rules"]["challenges"] is False
    assert s["layout"]["premium"][0][0] == "3W" and s["layout"]["start"] == [7, 7]
    s = wait_turn(client, gid, tok)
    take_turn(client, gid, tok, s)
    s = wait_turn(client, gid, tok)
    kinds = [e["kind"] for e in s["history"]]
    assert len(kinds) >= 2 and s["bag_count"] < 100 - 14
    assert all(e["rack"] == "" for e in s["history"] if e["player"] == 1)
    last = s["history"][-1]
    assert s["last_squares"] == (last["squares"] if last["kind"] == "play" else [])


def test_an_illegal_play_is_refused_with_its_reason_and_changes_nothing(
    client: TestClient,
) -> None:
    gid, tok = new_game(client)
    s = wait_turn(client, gid, tok)
    before = state(client, gid, tok)
    rack = s["rack"]
    letter = next(t for t in rack if t != "?")
    cases = [
        ({"action": "play", "placements": [[0, 0, letter], [1, 1, letter]]}, "not_in_line"),
        ({"action": "play", "placements": [[20, 0, letter]]}, "off_board"),
        ({"action": "play", "placements": [[0, 0, "Q"], [0, 1, "Q"], [0, 2, "Q"]]}, None),
        ({"action": "play", "text": "8D"}, "notation"),
        ({"action": "exchange", "tiles": ""}, "notation"),
        ({"action": "dance"}, "bad_action"),
    ]
    for body, reason in cases:
        r = client.post(f"/api/games/{gid}/move", headers={H: tok}, json={"seat": 0, **body})
        assert r.status_code == 400, (body, r.text)
        assert r.json()["error"]
        if reason:
            assert r.json()["reason"] == reason
    r = client.post(
        f"/api/games/{gid}/move",
        headers={H: tok, "Content-Type": "application/json"},
        content=b"{not json",
    )
    assert r.status_code == 400 and r.json()["reason"] == "bad_json"
    after = state(client, gid, tok)
    for key in ("board", "rack", "scores", "history", "bag_count", "seq"):
        assert after[key] == before[key]


def test_an_invalid_word_names_the_word(client: TestClient) -> None:
    from tessera.lexicon import Lexicon

    people = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]
    gid, tok = new_game(client, players=people)
    s = state(client, gid, tok)
    seat = s["to_move"]
    assert s["seat"] == seat and s["my_seats"] == [0, 1]  # hot seat: one page, both seats
    lex = Lexicon.load("enable")
    letters = [t for t in s["rack"] if t != "?"]
    pairs = [
        (a, b)
        for i, a in enumerate(letters)
        for j, b in enumerate(letters)
        if i != j and not lex.contains_word(a + b)
    ]
    assert pairs, "some two tiles of seven never spell a word both ways"
    a, b = pairs[0]
    word = a + b
    body = {"action": "play", "placements": [[7, 7, a], [7, 8, b]]}
    r = client.post(f"/api/games/{gid}/move", headers={H: tok}, json={"seat": seat, **body})
    assert r.status_code == 400
    assert r.json()["reason"] == "invalid_words" and word in r.json()["error"]
    check = client.post(f"/api/games/{gid}/check", headers={H: tok}, json={"seat": seat, **body})
    assert check.json()["ok"] is False and word in check.json()["message"]
    assert state(client, gid, tok)["seq"] == 0


def test_new_game_requests_are_checked(client: TestClient) -> None:
    def create(body: dict) -> tuple[int, str]:
        r = client.post("/api/games", json=body)
        return r.status_code, r.json().get("reason", "")

    ann = {"name": "Ann", "kind": "human"}
    bot = {"name": "Bot", "kind": "computer", "level": "best"}
    assert create({"players": [ann, bot], "rules": "nosuch"}) == (400, "bad_rules")
    assert create({"players": [ann]}) == (400, "bad_players")
    assert create({"players": [ann, dict(ann)]}) == (400, "bad_players")
    assert create({"players": [bot, dict(bot, name="Bot2")]}) == (400, "bad_players")
    assert create({"players": [ann, dict(bot, level="god")]}) == (400, "bad_players")
    assert create({"players": [ann, bot], "lexicon": "/no/such/list.txt"}) == (400, "bad_lexicon")
    assert create({"players": "Ann"}) == (400, "bad_players")
    status, _ = create({"players": [ann, bot, dict(ann, name="Cy")], "rules": "naspa"})
    assert status == 400  # naspa is two players


def test_challenge_rules_offer_a_challenge_and_clocks(client: TestClient) -> None:
    people = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]
    for _ in range(50):  # a rack with no word at all (DFFGKQY, say) would exchange instead
        gid, tok = new_game(client, rules="naspa", players=people)
        s = state(client, gid, tok)
        hints = client.post(f"/api/games/{gid}/hints", headers={H: tok}, json={"seat": s["seat"]})
        if hints.json()["hints"]:
            break
    assert s["rules"]["challenges"] is True and s["rules"]["clock"] is True
    assert s["clocks_ms"] == [25 * 60_000, 25 * 60_000]
    first = s["to_move"]
    assert s["can_challenge"] is False
    take_turn(client, gid, tok, s)  # a valid word from the hints
    s = state(client, gid, tok)
    second = s["to_move"]
    assert second != first and s["seat"] == second and s["can_challenge"] is True
    assert s["clocks_ms"][first] < 25 * 60_000 == s["clocks_ms"][second]
    body = {"seat": second, "action": "challenge"}
    r = client.post(f"/api/games/{gid}/move", headers={H: tok}, json=body)
    assert r.status_code == 200, r.text
    kinds = [e["kind"] for e in state(client, gid, tok)["history"]]
    assert kinds == ["play", "lost_turn"]  # NASPA double challenge: the challenger loses a turn
    r = client.post(f"/api/games/{gid}/move", headers={H: tok}, json=body)
    assert r.status_code == 400 and r.json()["reason"] == "nothing_to_challenge"


def test_a_restarted_app_rebuilds_every_game_from_its_log(db: str) -> None:
    with TestClient(create_app(db, config=FAST), base_url=BASE) as c:
        gid, tok = new_game(c)
        for _ in range(3):
            take_turn(c, gid, tok, wait_turn(c, gid, tok))
        before = wait_turn(c, gid, tok)
    with TestClient(create_app(db, config=FAST), base_url=BASE) as c:
        after = state(c, gid, tok)
    for key in ("board", "rack", "scores", "history", "bag_count", "unseen", "to_move", "seq"):
        assert after[key] == before[key], key
    # the log alone rebuilds the game: replaying it gives the same position
    store = Storage(db)
    rec = store.load(gid)
    assert rec is not None and len(rec.actions) == before["seq"]
    from tessera.lexicon import Lexicon

    game = Game(rec.rules, Lexicon.load("enable"), [s.name for s in rec.seats], seed=rec.seed)
    for action in rec.actions:
        apply_action(game, action)
    assert list(game.scores) == before["scores"]
    assert game.bag_count == before["bag_count"]


def test_a_clock_past_its_maximum_overtime_ends_the_game_and_the_log_keeps_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    from tessera.rules import PRESETS, OnMaxOvertime, TimeControl
    from tessera.server.hub import Hub

    blitz = PRESETS["naspa"].replace(
        name="blitz_test",
        clock=TimeControl(
            initial_ms=300, max_overtime_min=0, on_max_overtime=OnMaxOvertime.FORFEIT
        ),
    )
    monkeypatch.setitem(PRESETS, "blitz_test", blitz)
    store = Storage(f"sqlite:///{tmp_path / 'clock.db'}")
    seats = [Seat("Ann", "human"), Seat("Bob", "human")]
    gid, _ = store.create_game("blitz_test", "enable", 9, seats, [[0, 1]])

    async def run() -> tuple[str, int]:
        hub = Hub(store, FAST)
        session = await hub.session(gid)
        loser = session.game.to_move
        for _ in range(100):
            if session.game.is_over:
                break
            await asyncio.sleep(0.05)
        await hub.close()
        assert session.game.result is not None
        assert session.game.result.loser == loser
        return session.game.result.reason.value, loser

    reason, loser = run_in_thread(run)
    assert reason == "timeout_forfeit"
    rec = store.load(gid)
    assert rec is not None and [a.kind for a in rec.actions] == ["time_expired"]
    assert rec.actions[0].player == loser and (rec.actions[0].elapsed_ms or 0) > 300

    async def reload() -> str:
        hub = Hub(store, FAST)
        session = await hub.session(gid)
        assert session.game.is_over and session.game.result is not None
        return session.game.result.reason.value

    assert run_in_thread(reload) == "timeout_forfeit"


def test_the_fallback_search_finds_only_legal_plays_scored_right() -> None:
    from tessera.legality import check_play
    from tessera.lexicon import Lexicon
    from tessera.scoring import score_play
    from tessera.server.computer import GreedyPlayer, best_plays, find_plays
    from tessera.tiles import Rack

    lex = Lexicon.load("enable")
    game = Game("casual", lex, ["A", "B"], seed=11)
    bot = GreedyPlayer(lex)
    for _ in range(6):
        game.play(bot.choose(game.view(game.to_move)))
    view = game.view(game.to_move)
    found = find_plays(view.board, view.rack, view.rules, lex)
    generated = best_plays(view.board, view.rack, view.rules, lex)
    assert found and generated
    assert set(found) <= set(generated)  # the search is a subset of the generator's plays
    assert max(p.score or 0 for p in generated) >= found[0].score
    rack = Rack(game.alphabet.size, view.rack)
    for play in found[:20]:
        normal, _ = check_play(view.board, play, rack, view.rules, game.alphabet)
        assert play.score == score_play(view.board, normal, view.rules)
        assert game.check(play) is not None
