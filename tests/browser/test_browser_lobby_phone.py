"""Issue 36, what a woogles regular tripped over, on two devices: a laptop (1280×800) and a
phone (390×844, touch). The phone's lobby lists the open seeks above the seek form, says when
a new seek comes (live region and a mark on its row), marks guests and the rated seeks a
guest cannot take, and keeps the reason an Accept was refused in sight (points 11, 13, 6). A
seek's poster who joins another game has the seek withdrawn (10); the tab's title says whose
turn it is, the phone's move sound is switched on from the game page and remembered (13);
both players pressing Rematch make one game, the button in sight at 1280×800 and the summary
within a phone's width (12, 18); a loss on time reads 0:00 and "lost on time" (14)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browserkit import DESKTOP, PHONE, shot, state
from onlinekit import device_maker, register, wait_seq_above, wait_state
from serverproc import ServerProcess

from tessera.server.storage import Seat, Storage

pytestmark = pytest.mark.browser

RATED_REFUSAL = "Rated games are for registered players: log in or register to play one."


@pytest.fixture(scope="module")
def online(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of its own (its own budget of registrations per address)."""
    db = tmp_path_factory.mktemp("lobby-phone") / "games.db"
    with ServerProcess(db) as proc:
        yield proc


@pytest.fixture
def devices(browser: Any, online: ServerProcess) -> Iterator[Any]:
    """make(phone=False): a new device, a laptop or a phone."""
    with device_maker(browser, online.url) as make:
        yield make


def open_lobby(page: Any, guest_name: str | None = None) -> None:
    page.goto("/")
    page.wait_for_selector("#seek-rules option", state="attached")
    if guest_name is not None:
        page.fill("#guest-name", guest_name)


def post_seek(page: Any, *, rated: bool = False, minutes: int = 5) -> None:
    page.fill("#seek-minutes", str(minutes))
    page.set_checked("#seek-rated", rated)
    before = page.locator("#my-seeks li").count()
    page.click("#seek-post")
    page.wait_for_function(f"() => document.querySelectorAll('#my-seeks li').length > {before}")


def top(page: Any, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return float(box["y"])


def test_a_phone_lobby_lists_seeks_first_announces_new_ones_and_keeps_a_refusal_in_sight(
    devices: Any,
) -> None:
    ann, bob = devices(), devices(phone=True)
    register(ann.page, "ann36")
    a, b = ann.page, bob.page
    open_lobby(b, "Bob")
    assert top(b, "#seeks-panel") < top(b, "#seek-form")  # the seeks above the form
    assert top(a, "#seeks-panel") < top(a, "#seek-form") + 200  # the laptop: side by side
    assert b.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]

    # ann's rated seek comes to the phone: said in the live region, marked new on its row,
    # and marked as one a guest cannot take
    post_seek(a, rated=True)
    row = b.locator('#seeks tr[data-user="ann36"]')
    row.wait_for()
    news = b.locator("#seeks-news")
    assert news.get_attribute("aria-live") == "polite" and news.get_attribute("role") == "status"
    assert news.inner_text().startswith("New seek from ann36: ")
    assert row.locator(".new-tag").inner_text() == "new"
    assert row.locator(".account-only").inner_text() == "registered players only"
    assert b.locator("#seeks-news").is_visible()
    shot(b, "lobby-phone-new-seek")

    # the phone's guest taps Accept: why not, by the row, and it stays through a lobby update
    row.locator(".accept").tap()
    refusal = row.locator(".seek-refusal")
    refusal.wait_for()
    assert refusal.inner_text().startswith(RATED_REFUSAL)
    assert refusal.locator('a[href="/account"]').is_visible()
    assert b.locator("#lobby-error").inner_text() == RATED_REFUSAL  # the alert line said it
    assert b.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    post_seek(a, minutes=7)  # an update of every lobby
    b.locator('#seeks tr[data-user="ann36"]').nth(1).wait_for()
    b.wait_for_timeout(500)
    assert b.locator(".seek-refusal").inner_text().startswith(RATED_REFUSAL)
    shot(b, "lobby-phone-refusal")

    # a guest's seek is marked as a guest's on the laptop's lobby, and no rated mark shows to
    # a registered player
    post_seek(b)
    guest_row = a.locator('#seeks tr[data-user="Bob"]')
    guest_row.wait_for()
    assert guest_row.locator(".guest-mark").inner_text() == "guest"
    assert a.locator(".account-only").count() == 0


def test_two_devices_play_with_the_turn_in_the_title_the_sound_remembered_and_one_rematch(
    devices: Any,
) -> None:
    ann, bob, cleo = devices(), devices(phone=True), devices()
    register(ann.page, "ann-rematch")
    a, b, c = ann.page, bob.page, cleo.page
    open_lobby(a)
    post_seek(a)  # ann's open seek, left standing while she takes bob's
    open_lobby(b, "Dot")
    post_seek(b, minutes=10)
    a.goto("/")
    a.locator('#seeks tr[data-user="Dot"] .accept').click()
    a.wait_for_url("**/g/*")
    b.wait_for_url("**/g/*")
    game_id = a.url.rsplit("/", 1)[1]
    assert b.url.endswith(game_id)
    sa = wait_state(a, "s.seq === 0")
    wait_state(b, "s.seq === 0")

    # 10: ann's other seek is withdrawn, and her page stays in this game
    open_lobby(c, "Cleo")
    lobby = c.evaluate("async () => (await fetch('/api/lobby')).json()")
    assert not [s for s in lobby["seeks"] if s["user"] == "ann-rematch"], lobby["seeks"]
    a.wait_for_timeout(500)
    assert a.url.endswith(game_id)

    # 6: the guest's seat is marked, "(you)" is each player's own, a watcher is listed
    dot = sa["names"].index("Dot")
    assert sa["guests"] == [i == dot for i in range(2)]
    assert a.locator(f'.player[data-player="{dot}"] .guest-mark').inner_text() == "guest"
    assert a.locator(f'.player[data-player="{1 - dot}"] .guest-mark').count() == 0
    assert a.locator(".player .you").all_inner_texts() == ["(you)"]
    mine = a.locator(".player.mine").get_attribute("data-player")
    assert mine == str(sa["seat"])
    c.click("#quick-computer")  # cleo becomes a guest by playing the computer, then watches
    c.wait_for_url("**/g/*")
    c.goto(f"/g/{game_id}")
    wait_state(c, "s.seat === -1")
    for page in (a, b):
        page.wait_for_selector("#watchers:not([hidden])")
        assert page.locator("#watchers").inner_text().replace("\n", " ") == "Watching: Cleo guest"

    # 13: the title says whose turn it is; bob's phone switches its sound on from the game
    first, second = (a, b) if sa["to_move"] == sa["seat"] else (b, a)
    assert first.title().startswith("Your turn · ")
    assert not second.title().startswith("Your turn")
    switch = b.locator("#sound-btn")
    assert switch.is_visible() and switch.get_attribute("aria-pressed") == "false"
    switch.tap()
    assert switch.get_attribute("aria-pressed") == "true"
    seq = state(first)["seq"]
    first.click("#pass-btn")
    wait_seq_above(second, seq)
    second.wait_for_function("() => document.title.startsWith('Your turn · ')")
    assert not first.title().startswith("Your turn")
    if second is b:
        b.wait_for_function("() => window.tessera.sounds.played >= 1")
    b.reload()
    b.wait_for_function("() => window.tessera.state")
    assert b.locator("#sound-btn").get_attribute("aria-pressed") == "true"  # remembered

    # passes to the end (scoreless turns): the summary fits the phone
    pages = {sa["seat"]: a, 1 - sa["seat"]: b}
    for _ in range(12):
        s = state(a)
        if s["state"] == "over":
            break
        mover = pages[s["to_move"]]
        wait_state(mover, f"s.seq === {s['seq']}")
        mover.click("#pass-btn")
        wait_seq_above(a, s["seq"])
    wait_state(a, "s.state === 'over'")
    for page in (a, b):
        page.wait_for_selector("#summary-dialog[open]")
    box = b.locator("#summary-dialog").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert b.evaluate(
        "() => { const d = document.getElementById('summary-dialog');"
        " return d.scrollWidth <= d.clientWidth; }"
    )
    shot(b, "lobby-phone-summary")

    # 18: Rematch in sight at 1280×800 with the summary closed; 12: both press it, one game
    a.click("#summary-close")
    a.set_viewport_size(DESKTOP)
    rematch = a.locator("#rematch-btn").bounding_box()
    assert rematch is not None and rematch["y"] + rematch["height"] <= DESKTOP["height"]
    shot(a, "lobby-phone-rematch-desktop")
    a.click("#rematch-btn")
    a.wait_for_selector("#message:has-text('Rematch offered')")
    b.locator("#summary-rematch").tap()
    a.wait_for_url(lambda url: not url.endswith(game_id) and "/g/" in url)
    b.wait_for_url(lambda url: not url.endswith(game_id) and "/g/" in url)
    assert a.url.rsplit("/", 1)[1] == b.url.rsplit("/", 1)[1]
    new_game = wait_state(a, "s.seq === 0")
    assert new_game["state"] == "playing"
    live = c.evaluate("async () => (await fetch('/api/lobby')).json()")["live"]
    assert [g for g in live if "ann-rematch" in g["names"]] == [
        g for g in live if g["id"] == new_game["game_id"]
    ]


def test_a_loss_on_time_reads_0_00_and_lost_on_time(page: Any, server: ServerProcess) -> None:
    # the clock's words: never -0:00; a flagged clock, or one past the overtime allowed, stops
    page.goto("/")
    page.wait_for_selector("#seek-rules option", state="attached")
    words = page.evaluate(
        """async () => { const f = await import('/static/js/format.js');
          return [f.formatClock(-400), f.formatClock(-1500), f.formatClock(61000),
            f.formatClock(-5000, {overtimeMs: 0}), f.formatClock(-75000, {overtimeMs: 60000}),
            f.formatClock(-2000, {flagged: true}),
            f.endText({reason: 'timeout_forfeit', winners: [1], loser: 0, scores: [0, 0]},
              ['Ann', 'Bob']),
            f.describeResult({reason: 'timeout_forfeit', winners: [0], scores: [9, 8]},
              ['Ann', 'Bob'])]; }"""
    )
    assert words == [
        "0:00",
        "-0:01",
        "1:01",
        "0:00",
        "-1:00",
        "0:00",
        "Ann lost on time",
        "Ann won · Bob lost on time",
    ]

    # a game between people on a 4-second clock, watched: the player to move loses on time
    store = Storage(f"sqlite:///{server.db}")
    seats = [Seat("Ann", "human", None, "u-ann-clock"), Seat("Bob", "human", None, "u-bob-clock")]
    clock = {"initial_ms": 4000, "increment_ms": 0, "max_overtime_min": 0}
    game_id = store.create_game("woogles", "enable", 7, seats, clock=clock, online=True)
    page.goto(f"/g/{game_id}")
    s = wait_state(page, "s.state === 'over'")
    assert s["result"]["reason"] == "timeout_forfeit"
    loser = s["result"]["loser"]
    name = s["names"][loser]
    assert page.locator(f'.player[data-player="{loser}"] .clock').inner_text() == "0:00"
    page.wait_for_selector("#summary-dialog[open]")
    assert page.locator("#summary-reason").inner_text() == f"{name} lost on time"
    page.click("#summary-close")
    assert page.locator("#message").inner_text() == f"The game is over: {name} lost on time."
    assert "-" not in "".join(page.locator(".player .clock").all_inner_texts())


def test_the_hungarian_rules_menu_and_resign_fit_on_a_phone(browser: Any, server: Any) -> None:
    context = browser.new_context(
        viewport=PHONE, base_url=server.url, is_mobile=True, has_touch=True
    )
    context.add_init_script("localStorage.setItem('tessera:lang', 'hu')")
    try:
        page = context.new_page()
        open_lobby(page)
        assert page.evaluate("() => document.documentElement.lang") == "hu"
        width = PHONE["width"]
        rules = page.locator("#seek-rules").bounding_box()
        assert rules is not None and rules["x"] + rules["width"] <= width, rules
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        page.click("#quick-computer")
        page.wait_for_url("**/g/*")
        page.wait_for_function("() => window.tessera.state")
        resign = page.locator("#resign-btn")
        box = resign.bounding_box()
        assert resign.is_visible() and box is not None and box["x"] + box["width"] <= width
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        shot(page, "lobby-phone-hu-game")
    finally:
        context.close()
