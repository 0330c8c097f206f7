"""A finish-line game (R8.3) on the game page: the target for the number of players, and how
far each player is from it."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import hot_seat_game, shot, state

pytestmark = pytest.mark.browser


def test_the_game_page_shows_the_finish_line_and_each_players_distance(page: Any) -> None:
    s = hot_seat_game(page, ("Ann", "Bob"), rules="finish_line")
    target = s["rules"]["finish_target"]
    assert target == 120  # two players, the preset's intermediate target
    assert f"first to {target} points" in page.locator("#game-info").inner_text()
    rows = page.locator("#players .player .to-go")
    assert rows.all_inner_texts() == [f"{target - score} to go" for score in s["scores"]]
    # after a move the distance follows the score
    page.evaluate(
        """async (seat) => { const a = window.tessera;
          await fetch(`/api/games/${a.gameId}/move`, {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({seat, action: 'pass'})}); }""",
        s["to_move"],
    )
    page.wait_for_function(f"() => window.tessera.state.seq > {s['seq']}")
    after = state(page)
    assert rows.all_inner_texts() == [f"{target - score} to go" for score in after["scores"]]
    shot(page, "finish-line-game")


def test_a_game_without_a_finish_line_shows_no_target(page: Any) -> None:
    assert hot_seat_game(page, ("Ann", "Bob"))["rules"]["finish_target"] is None
    assert page.locator("#players .to-go").count() == 0
    assert "first to" not in page.locator("#game-info").inner_text()
