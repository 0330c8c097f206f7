"""A solo duplicate game in the browser, from the start page's own button to the final
result (issue 13): every round is played from the keyboard with a top the move generator
finds for the board and rack the page is shown, and the result on the page is checked
against the library's replay of the game's record."""

from __future__ import annotations

import re
import time
from typing import Any

from browserkit import axe_violations, shot
from helpers import duplicate_top

from tessera.formats import gcg
from tessera.lexicon import Lexicon

PAGE_VIEW = "() => window.tessera && window.tessera.duplicate"


def shown_view(page: Any, game_id: str) -> dict[str, Any]:
    """The player's view as the page got it (the GET the page itself makes)."""
    r = page.request.get(f"/api/duplicate/{game_id}")
    assert r.ok, r.text()
    return r.json()  # type: ignore[no-any-return]


def test_a_solo_duplicate_game_is_played_to_its_end(page: Any) -> None:
    began = time.monotonic()
    page.goto("/")
    page.fill("#guest-name", "Dana")
    page.click("#quick-duplicate")
    page.wait_for_url(re.compile(r".*/duplicate/[\w-]+$"))
    page.wait_for_function(PAGE_VIEW)
    game_id = page.url.rsplit("/", 1)[1]
    assert page.locator("#dup-rack .tile").count() == 7
    assert not axe_violations(page), axe_violations(page)
    shot(page, "duplicate-start")

    view = shown_view(page, game_id)
    while view["result"] is None:
        number = view["round"]
        page.fill("#dup-move", duplicate_top(view))
        page.press("#dup-move", "Enter")
        page.wait_for_function(
            f"() => window.tessera.duplicate.rounds.length === {number}", timeout=30_000
        )
        assert page.locator("#dup-announce").inner_text().startswith(f"Round {number}:")
        assert page.locator("#dup-error").inner_text() == ""
        view = shown_view(page, game_id)
        rd = view["rounds"][-1]
        assert rd["mine"]["verdict"] == "valid" and rd["points"] == rd["top_score"]
        if number == 3:
            assert page.locator("#dup-rounds tbody tr").count() == 3
            assert not axe_violations(page), axe_violations(page)
            shot(page, "duplicate-round-3")

    result = view["result"]
    page.wait_for_selector("#dup-result:not([hidden])")
    assert page.locator("#dup-form").is_hidden()
    text = page.locator("#dup-result-text").inner_text()
    assert f"You scored {result['score']} of the master moves' {result['top_total']}" in text
    assert page.locator("#dup-rounds tbody tr").count() == len(view["rounds"])

    record = page.request.get(f"/api/duplicate/{game_id}/gcg")
    assert record.ok
    game = gcg.replay_duplicate(record.text(), lexicon=Lexicon.load("enable"))
    final = game.results()
    assert game.is_over and final.reason is not None and final.reason.value == result["reason"]
    assert (final.scores[0], final.top_total) == (result["score"], result["top_total"])
    assert final.negatives[0] == result["negative"] == 0
    assert round(final.percentages[0], 2) == result["percent"] == 100.0
    assert len(game.rounds) == len(view["rounds"])
    assert not axe_violations(page), axe_violations(page)
    shot(page, "duplicate-over")
    print(f"{len(game.rounds)} rounds in {time.monotonic() - began:.1f} s")


def test_a_computer_plays_beside_the_person(page: Any) -> None:
    page.goto("/")
    page.fill("#guest-name", "Eli")
    page.click("#duplicate-options")
    page.wait_for_selector("#dup-start:not([hidden])")
    page.select_option("#dup-opponent", "level3")
    page.click("#dup-start-btn")
    page.wait_for_url(re.compile(r".*/duplicate/[\w-]+$"))
    page.wait_for_function(PAGE_VIEW)
    game_id = page.url.rsplit("/", 1)[1]
    view = shown_view(page, game_id)
    assert [p["name"] for p in view["players"]] == ["Eli", "level3"]
    for number in (1, 2):
        page.fill("#dup-move", duplicate_top(view))
        page.press("#dup-move", "Enter")
        page.wait_for_function(
            f"() => window.tessera.duplicate.rounds.length === {number}", timeout=30_000
        )
        view = shown_view(page, game_id)
    rd = view["rounds"][-1]
    (other,) = rd["others"]
    row = page.locator("#dup-rounds tbody tr").nth(1)
    assert row.locator("td").last.inner_text() == f"level3 {other['play']} {other['points']}"
    level3 = view["players"][1]["score"]
    assert f"level3: {level3}," in page.locator("#dup-status").inner_text()
    assert not axe_violations(page), axe_violations(page)
    shot(page, "duplicate-with-a-computer")
