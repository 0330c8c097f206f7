"""Duplicate games in the browser for several people at one screen and for computers alone
(issue 13), each started from the duplicate options' own controls: two people and a
computer play a few rounds in turn (the page says whose entry it is and hides the previous
person's play), and computers alone are watched round by round to the final table. What the
page shows is checked against the library's replay of the game's record."""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from browserkit import axe_violations, shot
from helpers import duplicate_plays
from serverproc import ServerProcess

from tessera.duplicate import DuplicateGame
from tessera.formats import gcg
from tessera.lexicon import Lexicon

PAGE_VIEW = "() => window.tessera && window.tessera.duplicate"


def shown_view(page: Any, game_id: str) -> dict[str, Any]:
    r = page.request.get(f"/api/duplicate/{game_id}")
    assert r.ok, r.text()
    return r.json()  # type: ignore[no-any-return]


def stored_game(server: ServerProcess, game_id: str) -> DuplicateGame:
    """The game rebuilt by the library from the record the server stores (the record is
    only handed out once the game is over)."""
    with sqlite3.connect(server.db) as conn:
        (record,) = conn.execute(
            "SELECT record FROM tessera_duplicate_games WHERE id = ?", (game_id,)
        ).fetchone()
    return gcg.replay_duplicate(record, lexicon=Lexicon.load("enable"))


def table_rows(page: Any, selector: str) -> list[list[str]]:
    return [row.locator("td").all_inner_texts() for row in page.locator(selector).all()]


def open_options(page: Any, guest: str) -> Any:
    """The duplicate options, reached from the start page as the guest ``guest``."""
    page.goto("/")
    page.fill("#guest-name", guest)
    page.click("#duplicate-options")
    page.wait_for_selector("#dup-start:not([hidden])")
    return page.locator("#dup-start")


def test_two_people_and_a_computer_play_in_turn_at_one_screen(
    page: Any, server: ServerProcess
) -> None:
    options = open_options(page, "Ann")
    assert page.locator("#dup-person-1").input_value() == "Ann"
    options.get_by_label("Person 2").fill("Bob")
    options.get_by_label("Computer 1").select_option("level2")
    assert not axe_violations(page), axe_violations(page)
    shot(page, "duplicate-options")
    page.click("#dup-start-btn")
    page.wait_for_url(re.compile(r".*/duplicate/[\w-]+$"))
    page.wait_for_function(PAGE_VIEW)
    game_id = page.url.rsplit("/", 1)[1]

    for number in (1, 2, 3):
        view = shown_view(page, game_id)
        plays = duplicate_plays(view)
        ann_play, bob_play = plays[0][0], plays[min(4, len(plays) - 1)][0]
        assert page.locator("#dup-entry").inner_text() == (
            f"Ann, it is your entry for round {number}."
        )
        assert page.locator("#dup-move-label").inner_text() == "Play for Ann"
        page.fill("#dup-move", ann_play)
        page.press("#dup-move", "Enter")
        page.wait_for_function("() => window.tessera.duplicate.entry === 1")
        # Bob's turn: Ann's play is gone from the page, only that she handed in
        assert page.locator("#dup-move").input_value() == ""
        assert page.locator("#dup-announce").inner_text() == (
            f"Ann has handed in. Bob, it is your entry for round {number}."
        )
        assert page.locator("#dup-entry").inner_text() == (
            f"Bob, it is your entry for round {number}."
        )
        assert ann_play not in page.locator("#duplicate").inner_text()
        states = [row[3] for row in table_rows(page, "#dup-standings tbody tr")]
        assert states == ["Handed in", "Not yet", ""]
        assert page.locator("#dup-rounds tbody tr").count() == number - 1
        if number == 1:
            assert not axe_violations(page), axe_violations(page)
            shot(page, "duplicate-hot-seat-entry")
        page.fill("#dup-move", bob_play)
        page.press("#dup-move", "Enter")
        page.wait_for_function(
            f"() => window.tessera.duplicate.rounds.length === {number}", timeout=30_000
        )
        assert page.locator("#dup-error").inner_text() == ""
        assert page.locator("#dup-announce").inner_text().startswith(
            f"Round {number} is over: the master move "
        )

    # the page against the library's replay of the stored record
    game = stored_game(server, game_id)
    assert game.players == ["Ann", "Bob", "level2"] and game.computers == {2: "level2"}
    assert len(game.rounds) == 3 and game.round == 4
    standings = table_rows(page, "#dup-standings tbody tr")
    top_total = game.top_total
    assert standings == [
        [name, str(score), f"{100 * score / top_total:.2f}", state]
        for name, score, state in zip(
            game.players, game.scores, ("Not yet", "Not yet", ""), strict=True
        )
    ]
    assert game.scores[0] == top_total  # Ann handed in a top every round
    assert page.locator("#dup-status").inner_text() == (
        f"Round 4. Master moves: {top_total}. Tiles in the bag: {game.bag_count}."
    )
    headers = page.locator("#dup-rounds thead th").all_inner_texts()
    assert headers == ["Round", "Rack", "Master move", "Top", "Ann", "Bob", "level2", "Tops"]
    for rd, cells in zip(game.rounds, table_rows(page, "#dup-rounds tbody tr"), strict=True):
        assert cells[0] == str(rd.number) and cells[3] == str(rd.top.score)
        points = [cell.split(" (")[0].rsplit(" ", 1)[1] for cell in cells[4:7]]
        assert points == [str(rd.points(seat)) for seat in range(3)]
    shot(page, "duplicate-hot-seat-round-3")


def test_computers_alone_are_watched_to_the_final_table(page: Any) -> None:
    options = open_options(page, "Cy")
    options.get_by_label("Person 1").fill("")
    options.get_by_label("Computer 1").select_option("level1")
    options.get_by_label("Computer 2").select_option("best")
    options.get_by_label("Computer 3").select_option("level3")
    page.click("#dup-start-btn")
    page.wait_for_url(re.compile(r".*/duplicate/[\w-]+$"))
    page.wait_for_function(PAGE_VIEW)
    game_id = page.url.rsplit("/", 1)[1]
    assert page.locator("#dup-form").is_hidden() and page.locator("#dup-entry").is_hidden()
    assert page.locator("#dup-rack .tile").count() == 7
    for number in (1, 2):
        page.click("#dup-next")
        page.wait_for_function(
            f"() => window.tessera.duplicate.rounds.length === {number}", timeout=30_000
        )
        assert page.locator("#dup-announce").inner_text().startswith(
            f"Round {number} is over: the master move "
        )
    row = table_rows(page, "#dup-rounds tbody tr")[1]
    assert len(row) == 8 and all(re.search(r" \d+", cell) for cell in row[4:7])
    assert not axe_violations(page), axe_violations(page)
    shot(page, "duplicate-computers-alone")

    page.get_by_label("Play the next rounds on their own").check()
    page.wait_for_selector("#dup-result:not([hidden])", timeout=180_000)
    assert page.locator("#dup-watch").is_hidden()
    view = shown_view(page, game_id)
    record = page.request.get(f"/api/duplicate/{game_id}/gcg")
    assert record.ok
    game = gcg.replay_duplicate(record.text(), lexicon=Lexicon.load("enable"))
    final = game.results()
    assert game.is_over and final.reason is not None
    assert final.reason.value == view["result"]["reason"]
    assert game.computers == {0: "level1", 1: "best", 2: "level3"}
    assert page.locator("#dup-rounds tbody tr").count() == len(game.rounds)
    assert page.locator("#dup-result-text").inner_text() == (
        f"The game is over after {len(game.rounds)} rounds: the master moves scored "
        f"{final.top_total}."
    )
    assert table_rows(page, "#dup-final tbody tr") == [
        [final.names[i], str(final.scores[i]), f"{final.percentages[i]:.2f}",
         str(final.negatives[i])]
        for i in final.ranking
    ]
    assert final.scores[1] == final.top_total  # best hands in a top every round
    assert not axe_violations(page), axe_violations(page)
    shot(page, "duplicate-computers-alone-over")
