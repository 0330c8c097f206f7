"""Online play in the browser: people on their own devices (separate browser contexts) find
each other in the lobby and play a rated, timed game to its end through the pages, with the
challenge flow, a reload on another device, a spectator, ratings and the replay."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import shot, state
from onlinekit import (
    Device,
    best_play,
    device_maker,
    log_in,
    phony_opening,
    register,
    type_play,
    wait_seq_above,
    wait_state,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from serverproc import ServerProcess

from tessera.server.glicko2 import Rating, rate_game
from tessera.server.ratings import rating_key

pytestmark = pytest.mark.browser

TESSERA = Path(sys.executable).with_name("tessera")


@pytest.fixture(scope="module")
def online(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of its own: new players rated from scratch, and its own rate-limit budget
    (registrations are limited per address)."""
    db = tmp_path_factory.mktemp("online") / "games.db"
    with ServerProcess(db) as proc:
        yield proc


@pytest.fixture(scope="module")
def lexicon() -> Any:
    from tessera.lexicon import Lexicon

    return Lexicon.load("enable")


@pytest.fixture
def devices(browser: Any, online: ServerProcess) -> Iterator[Any]:
    with device_maker(browser, online.url) as make:
        yield make


def no_rack_seen(spectator: Device) -> None:
    """Nothing a spectator's page holds or received shows a rack while the game is on."""
    page = spectator.page
    s = state(page)
    assert s["seat"] == -1 and s["rack"] == [] and s["my_seats"] == []
    if s["state"] not in ("over", "aborted"):
        assert s["final_racks"] is None
        assert all(e["rack"] == "" for e in s["history"]), s["history"]
    assert page.locator("#rack .tile").count() == 0
    for hidden in (".rack-row", ".actions"):  # on every page of the app (duplicate has its own)
        assert not any(row.is_visible() for row in page.locator(hidden).all()), hidden
    for frame in spectator.frames:
        if frame.get("type") == "state" and frame["state"]["state"] != "over":
            seen = frame["state"]
            assert seen["rack"] == [] and seen["final_racks"] is None
            assert all(e["rack"] == "" for e in seen["history"])


def test_two_people_play_a_rated_game_with_challenges_another_device_and_a_spectator(
    devices: Any, lexicon: Any, tmp_path: Path
) -> None:
    ann, bob = devices(), devices()
    register(ann.page, "ann")
    register(bob.page, "bob")

    # ann posts a rated seek (5 minutes, 2 s a move, double challenge); bob's lobby shows it live
    a = ann.page
    a.select_option("#seek-rules", "woogles")
    a.fill("#seek-minutes", "5")
    a.select_option("#seek-extra-kind", "increment")
    a.fill("#seek-extra", "2")
    a.check("#seek-rated")
    a.click("#seek-post")
    a.wait_for_selector("#my-seeks li")
    b = bob.page
    accept = b.locator('#seeks tr[data-user="ann"] .accept')
    accept.wait_for()
    assert "rated" in b.locator('#seeks tr[data-user="ann"]').inner_text()
    shot(b, "online-lobby")
    accept.click()
    b.wait_for_url("**/g/*")
    a.wait_for_url("**/g/*")  # ann's lobby socket took her to the game
    game_id = b.url.rsplit("/", 1)[1]
    assert a.url.endswith(game_id)
    sa = wait_state(a, "s.seq === 0")
    sb = wait_state(b, "s.seq === 0")
    assert (sa["seat"], sb["seat"]) == (0, 1) and sa["online"] and sa["rated"]
    assert sa["to_move"] == 0  # woogles: the seeker moves first
    assert a.locator("#hint-btn").is_hidden() and a.locator("#abort-btn").is_visible()

    # the clocks tick on both pages, and agree with the server's time
    def seconds(page: Any, seat: int) -> int:
        m, s = page.locator(f'.player[data-player="{seat}"] .clock').inner_text().split(":")
        return int(m) * 60 + int(s)

    fresh = a.evaluate(f"async () => (await fetch('/api/games/{game_id}/state')).json()")
    left = (fresh["clocks_ms"][0] - fresh["turn_elapsed_ms"]) / 1000
    assert 0 < left <= 300 and abs(seconds(a, 0) - left) <= 3
    ticking = seconds(a, 0)
    a.wait_for_function(
        "() => document.querySelector('.player[data-player=\"0\"] .clock').textContent "
        f"!== '{ticking // 60}:{ticking % 60:02d}'"
    )
    assert seconds(b, 1) == 300  # not bob's turn: his clock stands

    # a spectator (logged out) finds the game among the live games
    spectator = devices()
    s_page = spectator.page
    s_page.goto("/")
    s_page.locator(f'#live-games li[data-game="{game_id}"] .watch').click()
    s_page.wait_for_url(f"**/g/{game_id}")
    wait_state(s_page, "s.seat === -1")
    assert s_page.locator("#watching").is_visible()
    no_rack_seen(spectator)

    shot(s_page, "online-spectator")

    # 1. ann plays a phony; bob challenges it off: ann's tiles go back, bob is to move
    rack_before = sa["rack"]
    phony = phony_opening(sa, lexicon)
    type_play(a, phony)
    shot(a, "online-game-clocks")
    a.click("#play-btn")
    sb = wait_seq_above(b, 0)
    assert sb["can_challenge"] and b.locator("#challenge-btn").is_enabled()
    b.click("#challenge-btn")
    sb = wait_state(b, "s.history.some(e => e.kind === 'withdrawn')")
    assert sb["to_move"] == 1 and all(x is None for row in sb["board"] for x in row)
    sa = wait_seq_above(a, sb["seq"] - 1)
    assert sorted(sa["rack"]) == sorted(rack_before)
    assert "challenged off" in a.locator("#verdict").inner_text()
    wait_state(s_page, "s.history.some(e => e.kind === 'withdrawn')")  # the spectator too
    assert "challenged off by bob" in s_page.locator("#verdict-text").inner_text()
    no_rack_seen(spectator)

    # 2. bob plays a good word; ann challenges it: the play stands, ann loses her turn
    type_play(b, best_play(sb, lexicon))
    b.click("#play-btn")
    sa = wait_seq_above(a, sb["seq"])
    assert sa["can_challenge"]
    a.click("#challenge-btn")
    sa = wait_state(a, "s.history.some(e => e.kind === 'lost_turn')")
    lost = [e for e in sa["history"] if e["kind"] == "lost_turn"]
    assert lost[0]["player"] == 0 and sa["to_move"] == 1
    assert "loses a turn" in a.locator("#verdict").inner_text()
    wait_state(s_page, "s.history.some(e => e.kind === 'lost_turn')")
    assert "ann loses a turn" in s_page.locator("#verdict-text").inner_text()
    assert any(e["kind"] == "play" and e["player"] == 1 for e in sa["history"])
    wait_seq_above(b, sa["seq"] - 1)
    no_rack_seen(spectator)

    # 3. play on; after a few turns ann goes on from another device (a third context)
    pages = {0: a, 1: b}
    ann2: Device | None = None
    dropped = False
    for _turn in range(80):
        s = state(s_page)
        if s["state"] == "over":
            break
        if ann2 is None and len(s["history"]) >= 6:
            ann2 = devices()
            log_in(ann2.page, "ann")
            ann2.page.locator(f'#my-games li[data-game="{game_id}"] .continue').click()
            ann2.page.wait_for_url(f"**/g/{game_id}")
            moved = wait_state(ann2.page, f"s.seq === {s['seq']}")
            assert moved["seat"] == 0 and moved["rack"] == state(a)["rack"]
            pages[0] = ann2.page
        page = pages[s["to_move"]]
        s = wait_state(page, f"s.seq === {s['seq']}")
        # once, bob's connection drops (offline, his socket closed) while ann moves: his page
        # says so, and shows ann's move when it is back online
        drop = not dropped and s["to_move"] == 0 and len(s["history"]) >= 3
        if drop:
            bob.context.set_offline(True)
            b.evaluate("() => window.tessera.live.socket.close()")
            b.wait_for_selector("#conn-banner", state="visible")
        if s["state"] == "awaiting_final":
            page.click("#pass-btn")  # accept the last play: the game ends
        else:
            play = best_play(s, lexicon)
            if play is not None:
                type_play(page, play)
                page.click("#play-btn")
            elif s["bag_count"] >= 7:
                page.click("#exchange-btn")
                page.click("#exchange-all")
                page.click("#exchange-ok")
            else:
                page.click("#pass-btn")
        if drop:
            dropped = True
            wait_seq_above(page, s["seq"])
            assert state(b)["seq"] == s["seq"]  # bob's page has not heard yet
            shot(b, "online-reconnecting")
            bob.context.set_offline(False)
            b.wait_for_selector("#conn-banner", state="hidden")
        for watcher in (pages[0], b, s_page):  # every page has the move before the next
            wait_seq_above(watcher, s["seq"])
        no_rack_seen(spectator)
    assert ann2 is not None and dropped
    final = wait_state(b, "s.state === 'over'")

    # the end: every page shows the result; the spectator sees the racks only now
    for page in (ann2.page, b, s_page):
        page.wait_for_selector("#summary-dialog[open]")
    shot(b, "online-game-over")
    done = wait_state(s_page, "s.state === 'over'")
    assert done["final_racks"] is not None and done["rack"] == []

    # ratings moved by Glicko-2 from a new player's 1500 / 350 / 0.06
    result = final["result"]
    if result["loser"] is not None:
        score_ann = 0.0 if result["loser"] == 0 else 1.0
    elif len(result["winners"]) != 1:
        score_ann = 0.5
    else:
        score_ann = 1.0 if result["winners"] == [0] else 0.0
    new_ann, new_bob = rate_game(Rating(), Rating(), score_ann)
    assert final["ratings"] == [
        {"before": 1500, "after": round(new_ann.rating)},
        {"before": 1500, "after": round(new_bob.rating)},
    ]
    assert f"→ {round(new_bob.rating)}" in b.locator("#summary-scores").inner_text()
    key = rating_key("woogles", final["clock"])
    for device, name, new in ((ann2, "ann", new_ann), (bob, "bob", new_bob)):
        device.page.goto(f"/u/{name}")
        row = device.page.locator(f'#profile-ratings tr[data-key="{key}"]')
        row.wait_for()
        assert row.locator(".rating").inner_text() == str(round(new.rating))
        assert row.locator("td").nth(2).inner_text() == f"± {round(new.deviation)}"
        chart = device.page.locator(f'.rating-chart[data-key="{key}"] svg circle')
        assert chart.count() == 2  # the start and after this game

    # the finished game replays move by move on ann's profile, and its record verifies
    p = ann2.page
    shot(p, "online-profile")
    p.locator(f'#profile-games tr[data-game="{game_id}"] .replay-btn').click()
    p.wait_for_selector("#replay:not([hidden])")
    turns = len(final["history"])
    p.wait_for_function(
        f"() => document.querySelector('#replay-turn').textContent === '0 / {turns}'"
    )
    assert p.locator("#replay-board .tile").count() == 0
    p.keyboard.press("ArrowRight")  # ann's phony
    assert p.locator("#replay-turn").inner_text() == f"1 / {turns}"
    assert p.locator("#replay-board .tile").count() == len(phony)
    p.click("#replay-next")  # withdrawn
    assert p.locator("#replay-board .tile").count() == 0
    assert "withdrawn" in p.locator("#replay-move").inner_text()
    p.keyboard.press("End")
    tiles = sum(1 for row in final["board"] for x in row if x)
    assert p.locator("#replay-board .tile").count() == tiles
    p.keyboard.press("ArrowLeft")
    assert p.locator("#replay-turn").inner_text() == f"{turns - 1} / {turns}"
    shot(p, "online-replay")
    with p.expect_download() as info:
        p.click("#replay-gcg")
    path = tmp_path / "online.gcg"
    info.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    assert "#player1 ann" in text and "#player2 bob" in text
    done = subprocess.run(
        [str(TESSERA), "gcg", "verify", str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_challenges_invitations_abort_and_rematch_between_a_player_and_a_guest(
    devices: Any,
) -> None:
    cat, dan, gil = devices(), devices(), devices()
    register(cat.page, "cat")
    register(dan.page, "dan")
    c, d, g = cat.page, dan.page, gil.page

    # cat challenges dan by name: dan's page offers it at once; dan declines and cat is told
    c.check('input[name="seek-to"][value="user"]')
    c.fill("#seek-user", "dan")
    assert c.locator("#seek-post").inner_text() == "Send challenge"
    c.click("#seek-post")
    challenge = d.locator("#challenges li")  # dan's lobby lists it at once
    challenge.wait_for()
    assert challenge.inner_text().startswith("cat: woogles")
    challenge.locator(".decline").click()
    c.wait_for_selector("#notices .toast:has-text('dan declined your challenge')")
    c.wait_for_selector("#my-seeks li", state="detached")

    # a challenge to nobody is refused in words
    c.fill("#seek-user", "nobody-here")
    c.click("#seek-post")
    c.wait_for_selector("#seek-error:has-text('No player named')")

    # cat makes an invitation link; gil, who has no account, opens it and accepts as a guest
    c.check('input[name="seek-to"][value="invite"]')
    c.click("#seek-post")
    c.wait_for_selector("#invite-box:not([hidden])")
    link = c.locator("#invite-link").input_value()
    assert "/invite/" in link
    g.goto(link)
    g.wait_for_selector("#invite-accept-box:not([hidden])")
    assert "cat invites you to play" in g.locator("#invite-text").inner_text()
    shot(g, "online-invitation")
    g.fill("#invite-guest-name", "Gil")
    g.click("#invite-accept")
    g.wait_for_url("**/g/*")
    c.wait_for_url("**/g/*")
    game_id = g.url.rsplit("/", 1)[1]
    sg = wait_state(g, "s.seq === 0")
    assert sg["names"] == ["cat", "Gil"] and not sg["rated"] and sg["my_seats"] == [1]
    g.wait_for_function("() => document.querySelector('#me-link')?.textContent === 'Gil'")

    # before anyone moves either may call the game off
    assert g.locator("#abort-btn").is_visible()
    c.once("dialog", lambda dialog: dialog.accept())
    c.click("#abort-btn")
    for page in (c, g):
        wait_state(page, "s.state === 'aborted'")
        page.wait_for_selector("#message:has-text('called off')")
        assert page.locator("#rematch-btn").is_visible()
        assert not page.locator("#abort-btn").is_visible()

    # gil offers a rematch; cat's page shows it with Accept; both go to the new game
    g.click("#rematch-btn")
    g.wait_for_selector("#message:has-text('Rematch offered to cat')")
    notice = c.locator(".notice.offer")
    notice.wait_for()
    assert "Gil offers a rematch" in notice.inner_text()
    shot(c, "online-rematch-offer")
    notice.locator(".accept").click()
    c.wait_for_url(lambda url: "/g/" in url and not url.endswith(game_id))
    g.wait_for_url(lambda url: "/g/" in url and not url.endswith(game_id))
    assert c.url == g.url
    again = wait_state(c, "s.seq === 0")
    assert again["names"] == ["Gil", "cat"] and again["clock"] == sg["clock"]

    # the guest registers and keeps the games played as a guest
    register(g, "gil")
    g.goto("/u/gil")
    g.wait_for_selector(f'#profile-games tr[data-game="{game_id}"]')
    assert "aborted" in g.locator(f'#profile-games tr[data-game="{game_id}"]').inner_text()


def test_the_account_page_says_why_it_refuses(devices: Any, online: ServerProcess) -> None:
    online_url = online.url
    eve = devices()
    p = eve.page
    response = p.goto("/no/such/page")  # the server's own page for an address it lacks
    assert response is not None and response.status == 404
    assert p.locator(".error-page h1").inner_text() == "Page not found"
    assert p.locator(".error-page").evaluate("e => getComputedStyle(e).borderRadius") == "12px"
    register(p, "eve")
    p.click("#logout-btn")
    p.wait_for_selector("#login-link")

    def refused(selector: str, words: str) -> None:
        p.wait_for_selector(f"{selector}:has-text({words!r})")

    p.goto("/account")
    for name, first, second, words in (
        ("eve", "long enough 1", "long enough 1", "That user name is taken"),
        ("e!", "long enough 1", "long enough 1", "user name has 3–20"),
        ("newbie", "short", "short", "password has 8–128 characters"),
        ("newbie", "long enough 1", "long enough 2", "The two passwords differ"),
    ):
        p.fill("#reg-user", name)
        p.fill("#reg-pass", first)
        p.fill("#reg-pass2", second)
        p.click("#reg-btn")
        refused("#reg-error", words)
    # a wrong password and an unknown name get the same answer
    for name in ("eve", "nobody"):
        p.fill("#login-user", name)
        p.fill("#login-pass", "not the password")
        p.click("#login-btn")
        refused("#login-error", "Wrong user name or password.")
        shot(p, "online-account-refusal")
        p.evaluate("() => { document.querySelector('#login-error').textContent = ''; }")
    # logging in goes back where the player came from (on this site only)
    p.goto("/account?next=/u/eve")
    p.fill("#login-user", "eve")
    p.fill("#login-pass", "correct horse battery")
    p.click("#login-btn")
    p.wait_for_url("**/u/eve")
    p.wait_for_selector("#me-link:has-text('eve')")

    p.goto("/account")
    p.wait_for_selector("#password-form:not([hidden])")
    assert p.locator("#login-form").is_hidden()
    p.fill("#pw-old", "not the password")
    p.fill("#pw-new", "a new password")
    p.fill("#pw-new2", "a new password")
    p.click("#pw-btn")
    refused("#pw-error", "The current password is not right")
    p.fill("#pw-old", "correct horse battery")
    p.fill("#pw-new", "a new password")
    p.fill("#pw-new2", "a new password")
    p.click("#pw-btn")
    p.wait_for_selector("#pw-ok:has-text('Password changed')")
    p.click("#account-logout")
    p.wait_for_selector("#login-link")
    p.goto("/account?next=/%5Cexample.com")  # "/\\example.com": another site, not followed
    p.fill("#login-user", "eve")
    p.fill("#login-pass", "a new password")
    p.click("#login-btn")
    p.wait_for_url(online_url + "/")
    p.wait_for_selector("#me-link:has-text('eve')")

    # too many attempts at one name: the server's limit, said plainly
    p.click("#logout-btn")
    p.wait_for_selector("#login-link")
    p.goto("/account")
    p.evaluate(
        """async () => { for (let i = 0; i < 10; i++) await fetch('/api/login', {method: 'POST',
          headers: {'Content-Type': 'application/json'},
          body: JSON.stringify({username: 'target', password: 'guess ' + i})}); }"""
    )
    p.fill("#login-user", "target")
    p.fill("#login-pass", "one more guess")
    p.click("#login-btn")
    refused("#login-error", "Too many attempts")


def test_a_spectator_is_not_offered_someone_elses_rematch(devices: Any) -> None:
    """A rematch with a guest is an invitation anyone holding its id may accept: only the
    players' pages may hear of it (the server once sent it to spectators too)."""
    host, guest, spectator = devices(), devices(), devices()
    h, g, s = host.page, guest.page, spectator.page
    h.goto("/")
    h.fill("#guest-name", "Hal")
    h.click("#seek-post")
    h.wait_for_selector("#my-seeks li")
    g.goto("/")
    g.fill("#guest-name", "Gus")
    g.locator('#seeks tr[data-user="Hal"] .accept').click()
    g.wait_for_url("**/g/*")
    h.wait_for_url("**/g/*")
    s.goto(h.url)
    wait_state(s, "s.seat === -1")
    h.once("dialog", lambda dialog: dialog.accept())
    h.click("#abort-btn")
    wait_state(s, "s.state === 'aborted'")
    h.click("#rematch-btn")
    g.locator(".notice.offer").wait_for()  # Gus is offered the rematch
    game_socket = next(
        ws for ws in spectator.sockets if ws.url.endswith("/ws") and "/games/" in ws.url
    )
    with contextlib.suppress(PlaywrightTimeout):  # the broadcast that reached Gus, if it comes
        game_socket.wait_for_event(
            "framereceived", predicate=lambda text: '"rematch"' in text, timeout=3000
        )
    offers = [f for f in spectator.frames if f.get("type") == "rematch"]
    assert offers == [], f"a spectator received a rematch offer: {offers}"
