"""The web app's API in process: games, moves, refusals, the log and rebuilding from it."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from helpers import new_game, state, take_turn, wait_turn

from support.asyncthread import run_in_thread
from tessera.game import Game
from tessera.server.app import create_app
from tessera.server.config import ServerConfig
from tessera.server.game_sessions import apply_action
from tessera.server.storage import Action, Seat, Storage, StorageError

FAST = ServerConfig(bot_delay_s=0, think_s=0.05)  # the computer moves at once
BASE = "http://localhost"  # a Host the server answers to


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, config=FAST), base_url=BASE) as c:
        yield c


def test_storage_round_trip_and_refuses_a_second_entry_at_one_place(tmp_path: Path) -> None:
    store = Storage(f"sqlite:///{tmp_path / 's.db'}")
    seats = [Seat("Ann", "human", None, "user-1"), Seat("Bot", "computer", "best")]
    gid = store.create_game("casual", "enable", 42, seats)
    store.append(gid, 0, Action(0, "move", "8D QUITE", None))
    with pytest.raises(StorageError, match="entry 0 already exists"):
        store.append(gid, 0, Action(0, "move", "-", None))
    rec = store.load(gid)
    assert rec is not None
    assert (rec.rules, rec.lexicon, rec.seed, rec.seats) == ("casual", "enable", 42, seats)
    assert rec.actions == [Action(0, "move", "8D QUITE", None)]
    assert rec.seats_of("user-1") == {0} and rec.seats_of("nobody") == frozenset()
    assert (rec.status, rec.rated, rec.online, rec.clock) == ("live", False, False, None)
    assert store.load("missing") is None
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


def test_a_game_starts_with_only_my_rack_and_the_computer_answers(client: TestClient) -> None:
    gid = new_game(client)
    s = state(client, gid)
    assert s["seat"] == 0 and s["names"] == ["Ann", "Bot"]
    assert len(s["rack"]) == 7 and s["rack_counts"] == [7, 7]
    assert s["rules"]["name"] == "casual" and s["rules"]["challenges"] is False
    assert s["layout"]["premium"][0][0] == "3W" and s["layout"]["start"] == [7, 7]
    s = wait_turn(client, gid)
    take_turn(client, gid, s)
    s = wait_turn(client, gid)
    kinds = [e["kind"] for e in s["history"]]
    assert len(kinds) >= 2 and s["bag_count"] < 100 - 14
    assert all(e["rack"] == "" for e in s["history"] if e["player"] == 1)
    last = s["history"][-1]
    assert s["last_squares"] == (last["squares"] if last["kind"] == "play" else [])


def test_an_illegal_play_is_refused_with_its_reason_and_changes_nothing(
    client: TestClient,
) -> None:
    gid = new_game(client)
    s = wait_turn(client, gid)
    before = state(client, gid)
    rack = s["rack"]
    letter = next(t for t in rack if t != "?")
    # a play the rules refuse is an answer (200, ok false), not a failed request
    refused = [
        ({"action": "play", "placements": [[0, 0, letter], [1, 1, letter]]}, "not_in_line"),
        ({"action": "play", "placements": [[0, 0, "Q"], [0, 1, "Q"], [0, 2, "Q"]]}, None),
    ]
    for body, reason in refused:
        r = client.post(f"/api/games/{gid}/move", json={"seat": 0, **body})
        assert r.status_code == 200, (body, r.text)
        assert r.json()["ok"] is False and r.json()["message"]
        if reason:
            assert r.json()["reason"] == reason
    # a request no page would send is still a 400
    malformed = [
        ({"action": "play", "placements": [[20, 0, letter]]}, "off_board"),
        ({"action": "play", "text": "8D"}, "notation"),
        ({"action": "exchange", "tiles": ""}, "notation"),
        ({"action": "dance"}, "bad_action"),
    ]
    for body, reason in malformed:
        r = client.post(f"/api/games/{gid}/move", json={"seat": 0, **body})
        assert r.status_code == 400, (body, r.text)
        assert r.json()["error"] and r.json()["reason"] == reason
    r = client.post(
        f"/api/games/{gid}/move",
        headers={"Content-Type": "application/json"},
        content=b"{not json",
    )
    assert r.status_code == 400 and r.json()["reason"] == "bad_json"
    after = state(client, gid)
    for key in ("board", "rack", "scores", "history", "bag_count", "seq"):
        assert after[key] == before[key]


def test_an_invalid_word_names_the_word(client: TestClient) -> None:
    from tessera.lexicon import Lexicon

    people = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]
    gid = new_game(client, players=people)
    s = state(client, gid)
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
    r = client.post(f"/api/games/{gid}/move", json={"seat": seat, **body})
    assert r.status_code == 200 and r.json()["ok"] is False
    assert r.json()["reason"] == "invalid_words" and word in r.json()["message"]
    check = client.post(f"/api/games/{gid}/check", json={"seat": seat, **body})
    assert check.json()["ok"] is False and word in check.json()["message"]
    assert state(client, gid)["seq"] == 0


def test_new_game_requests_are_checked(client: TestClient) -> None:
    def create(body: dict) -> tuple[int, str]:
        r = client.post("/api/games", json=body)
        return r.status_code, r.json().get("reason", "")

    ann = {"name": "Ann", "kind": "human"}
    bot = {"name": "Bot", "kind": "computer", "level": "best"}
    assert create({"players": [ann, bot], "rules": "nosuch"}) == (400, "bad_rules")
    assert create({"players": [ann]}) == (400, "bad_players")
    assert create({"players": [ann, dict(ann)]}) == (400, "bad_players")
    assert create({"players": [bot, dict(bot)]}) == (400, "bad_players")
    assert create({"players": [ann, dict(bot, level="god")]}) == (400, "bad_players")
    assert create({"players": [ann, bot], "lexicon": "/no/such/list.txt"}) == (400, "bad_lexicon")
    assert create({"players": "Ann"}) == (400, "bad_players")
    status, _ = create({"players": [ann, bot, dict(ann, name="Cy")], "rules": "naspa"})
    assert status == 400  # naspa is two players


def test_a_game_between_computers_is_played_out_for_the_person_who_started_it(
    client: TestClient,
) -> None:
    bots = [
        {"name": "Computer 1", "kind": "computer", "level": "level1"},
        {"name": "Computer 2", "kind": "computer", "level": "level2"},
    ]
    gid = new_game(client, players=bots)  # a guest starts it: no person sits at the table
    s = wait_turn(client, gid, seat=-1)  # nobody's turn comes: it plays out by itself
    assert s["state"] == "over" and s["result"]["scores"] == s["scores"]
    assert s["kinds"] == ["computer", "computer"] and s["my_seats"] == [0, 1]
    assert len(s["history"]) > 4
    # the computers' moves are their own, and the game is private to the person who started it
    refused = client.post(f"/api/games/{gid}/move", json={"seat": 0, "action": "pass"})
    assert refused.status_code == 403 and "computer" in refused.json()["error"], refused.text
    stranger = TestClient(client.app, base_url=BASE)  # no cookie: not the one who started it
    assert stranger.get(f"/api/games/{gid}/state").status_code == 403
    again = client.post(f"/api/games/{gid}/rematch", json={})
    assert again.status_code in (200, 201), again.text
    assert state(client, again.json()["id"])["kinds"] == ["computer", "computer"]


def test_challenge_rules_offer_a_challenge_and_clocks(client: TestClient) -> None:
    people = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]
    for _ in range(50):  # a rack with no word at all (DFFGKQY, say) would exchange instead
        gid = new_game(client, rules="naspa", players=people)
        s = state(client, gid)
        hints = client.post(f"/api/games/{gid}/hints", json={"seat": s["seat"]})
        if hints.json()["hints"]:
            break
    assert s["rules"]["challenges"] is True and s["rules"]["clock"] is True
    assert s["clocks_ms"] == [25 * 60_000, 25 * 60_000]
    first = s["to_move"]
    assert s["can_challenge"] is False
    take_turn(client, gid, s)  # a valid word from the hints
    s = state(client, gid)
    second = s["to_move"]
    assert second != first and s["seat"] == second and s["can_challenge"] is True
    assert s["clocks_ms"][first] < 25 * 60_000 == s["clocks_ms"][second]
    body = {"seat": second, "action": "challenge"}
    r = client.post(f"/api/games/{gid}/move", json=body)
    assert r.status_code == 200, r.text
    kinds = [e["kind"] for e in state(client, gid)["history"]]
    assert kinds == ["play", "lost_turn"]  # NASPA double challenge: the challenger loses a turn
    r = client.post(f"/api/games/{gid}/move", json=body)
    assert r.status_code == 200 and r.json() == {
        "ok": False,
        "reason": "nothing_to_challenge",
        "message": r.json()["message"],
    }


def test_a_restarted_app_rebuilds_every_game_from_its_log(db: str) -> None:
    with TestClient(create_app(db, config=FAST), base_url=BASE) as c:
        gid = new_game(c)
        for _ in range(3):
            take_turn(c, gid, wait_turn(c, gid))
        before = wait_turn(c, gid)
        cookies = dict(c.cookies)
    with TestClient(create_app(db, config=FAST), base_url=BASE, cookies=cookies) as c:
        after = state(c, gid)  # the same player, after the server's restart
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
    tmp_path: Path,
) -> None:
    """R7.3 online: a game's own clock (300 ms, no overtime) loses on time."""
    import asyncio

    from tessera.server.hub import Hub

    store = Storage(f"sqlite:///{tmp_path / 'clock.db'}")
    seats = [Seat("Ann", "human", None, "u1"), Seat("Bob", "human", None, "u2")]
    clock = {"initial_ms": 300, "increment_ms": 0, "max_overtime_min": 0}
    gid = store.create_game("naspa", "enable", 9, seats, clock=clock, online=True)

    async def run() -> tuple[str, int]:
        hub = Hub(store, FAST)
        session = await hub.session(gid)
        loser = session.game.to_move
        for _ in range(400):  # 300 ms of clock; a busy machine may fire the timer late
            if session.game.is_over:
                break
            await asyncio.sleep(0.05)
        for _ in range(400):  # the finish is stored after the action
            stored = await asyncio.to_thread(store.load, gid)
            if stored is not None and stored.status == "over":
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
    assert rec.status == "over"

    async def reload() -> str:
        hub = Hub(store, FAST)
        session = await hub.session(gid)
        assert session.game.is_over and session.game.result is not None
        return session.game.result.reason.value

    assert run_in_thread(reload) == "timeout_forfeit"


def test_hints_are_the_static_players_best_plays() -> None:
    from tessera.engine import StaticPlayer
    from tessera.lexicon import Lexicon
    from tessera.move import Play
    from tessera.server.computer import computer_player, quick_hints

    lex = Lexicon.load("enable")
    game = Game("casual", lex, ["A", "B"], seed=11)
    bot = computer_player("level3", lex, 1)
    for _ in range(6):
        game.play(bot.choose(game.view(game.to_move)))
    view = game.view(game.to_move)
    hints = quick_hints(view, lex)
    plays = [r for r in StaticPlayer(lex).ranked(view, top=None) if isinstance(r.move, Play)]
    assert [h["equity"] for h in hints] == [round(r.equity, 1) for r in plays[: len(hints)]]
    assert all(game.check(h["move"]) is not None for h in hints)


def test_the_cached_state_is_the_view_at_every_turn_for_every_seat(tmp_path: Path) -> None:
    """state_text builds each state from cached parts (the game's fixed fields, each viewer's
    encoded events); at every turn of a whole game it must equal the view, encoded afresh,
    for both seats and a spectator — the end of the game included, when every rack shows."""
    from tessera.game import SPECTATOR
    from tessera.server.hub import Hub
    from tessera.server.views import view_json

    store = Storage(f"sqlite:///{tmp_path / 'v.db'}")
    seats = [Seat("Ann", "human", None, "u1"), Seat("Bot", "computer", "level2")]
    gid = store.create_game("naspa", "enable", 17, seats, online=True)
    hub = Hub(store, FAST)
    record = store.load(gid)
    assert record is not None
    session = hub.cache.build(record)
    bots = {0: hub.bot_factory("level3", session.lexicon, 1), 1: session.bots[1]}
    extras = {
        "turn_elapsed_ms",
        "game_id",
        "kinds",
        "levels",
        "my_seats",
        "lexicon",
        "seq",
        "online",
        "rated",
        "guests",
        "clock",
        "can_abort",
    }
    for _ in range(200):
        for seat, seats_held in (
            (0, frozenset({0})),
            (1, frozenset({1})),
            (SPECTATOR, frozenset()),
        ):
            cached = json.loads(hub.state_text(session, seats_held))
            view = session.game.spectator_view() if seat == SPECTATOR else session.game.view(seat)
            assert {k: v for k, v in cached.items() if k not in extras} == json.loads(
                json.dumps(view_json(view))
            ), (seat, session.seq)
        if session.game.is_over:
            break
        mover = session.game.to_move
        action = hub.actions.make_action(
            session, mover, "move", bots[mover].choose(session.game.view(mover))
        )
        session.record.actions.append(action)
    assert session.game.is_over


def test_thinking_hints_are_the_strongest_players_search_with_win_percentages(
    client: TestClient,
) -> None:
    gid = new_game(client)
    s = wait_turn(client, gid)
    r = client.post(f"/api/games/{gid}/hints", json={"seat": s["seat"], "think": True})
    assert r.status_code == 200, r.text
    found = r.json()["hints"]
    assert found and all(0 <= h["win_pct"] <= 100 for h in found)  # simulated: tiles in the bag
    plays = [h for h in found if "placements" in h]
    for h in plays:  # each play the page may lay down is legal, at the score it shows
        checked = client.post(
            f"/api/games/{gid}/check", json={"seat": s["seat"], "placements": h["placements"]}
        )
        assert checked.json()["ok"] and checked.json()["score"] == h["score"], checked.text
    assert state(client, gid)["seq"] == s["seq"]  # asking changed nothing
    for bad in ("yes", 1, [True]):
        r = client.post(f"/api/games/{gid}/hints", json={"seat": s["seat"], "think": bad})
        assert r.status_code == 400 and r.json()["reason"] == "bad_think"


def test_thought_hints_follow_the_endgame_and_pre_endgame_searches() -> None:
    from tessera.engine import get_player
    from tessera.lexicon import Lexicon
    from tessera.server.computer import thought_hints

    lex = Lexicon.load("enable")
    static = get_player("static", lex)
    seen: dict[str, list[dict[str, Any]]] = {}
    for seed in range(1, 30):  # some games jump from a full bag to an empty one
        game = Game("naspa", lex, ["A", "B"], seed=seed)
        while not game.is_over and len(seen) < 2:
            view = game.view(game.to_move)
            if view.bag_count in (1, 2) and "pre" not in seen:
                seen["pre"] = thought_hints(view, lex, 0.5)
            elif view.bag_count == 0 and "end" not in seen:
                seen["end"] = thought_hints(view, lex, 1.0)
            game.play(static.choose(view))
        if len(seen) == 2:
            break
    pre, end = seen["pre"], seen["end"]
    assert pre and all(0 <= h["win_pct"] <= 100 for h in pre)
    assert [h["win_pct"] for h in pre] == sorted((h["win_pct"] for h in pre), reverse=True)
    assert len(end) == 1 and isinstance(end[0]["equity"], float) and "proven" in end[0]


def test_quick_hints_list_ten_plays_by_equity_in_the_previews_notation() -> None:
    from tessera.lexicon import Lexicon
    from tessera.server.computer import quick_hints

    lex = Lexicon.load("enable")
    game = Game("casual", lex, ["A", "B"], seed=3)
    opening = quick_hints(game.view(0), lex)
    assert len(opening) == 10  # not 5
    assert [h["equity"] for h in opening] == sorted((h["equity"] for h in opening), reverse=True)
    assert all(h["move"][0].isdigit() for h in opening)  # no mirror image down the H column
    assert len({h["move"] for h in opening}) == 10
    game.play(game.legal_moves()[0])
    later = quick_hints(game.view(1), lex)
    through = [h["move"] for h in later if "(" in h["move"]]
    assert through and not any("." in h["move"] for h in later)
    for h in later:  # the notation names the play, at its score
        assert game.check(h["move"]).score == h["score"]
