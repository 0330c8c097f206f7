"""Helpers for the online browser tests: devices (browser contexts), accounts through the
account page, the lobby, and moves found by the move generator on what a page shows."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from browserkit import DESKTOP, PHONE, state

from tessera.board import Board
from tessera.move import Play
from tessera.movegen import generate_moves
from tessera.rules import preset

PASSWORD = "correct horse battery"


@dataclass
class Device:
    """One browser context (its own cookies: another device) and its page, with every
    JavaScript error and every game message the page received over its WebSockets."""

    context: Any
    page: Any
    errors: list[str] = field(default_factory=list)
    frames: list[dict[str, Any]] = field(default_factory=list)
    sockets: list[Any] = field(default_factory=list)

    def close(self) -> None:
        self.context.close()


def new_device(browser: Any, base_url: str, phone: bool = False) -> Device:
    """A laptop (1280×800), or a phone (390×844, touch, the mobile layout)."""
    if phone:
        context = browser.new_context(
            viewport=PHONE, base_url=base_url, is_mobile=True, has_touch=True
        )
    else:
        context = browser.new_context(viewport=DESKTOP, base_url=base_url, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    device = Device(context, page)
    page.on("pageerror", lambda exc: device.errors.append(str(exc)))

    def watch(ws: Any) -> None:
        device.sockets.append(ws)

        def got(payload: str | bytes) -> None:
            if isinstance(payload, str):
                device.frames.append(json.loads(payload))

        ws.on("framereceived", got)

    page.on("websocket", watch)
    return device


@contextmanager
def device_maker(browser: Any, base_url: str) -> Iterator[Callable[..., Device]]:
    """``make(phone=False)``: a new device on the server; all closed at the end, and any
    JavaScript error on their pages fails the test."""
    made: list[Device] = []

    def make(phone: bool = False) -> Device:
        device = new_device(browser, base_url, phone)
        made.append(device)
        return device

    yield make
    for device in made:
        device.close()
    errors = [e for d in made for e in d.errors]
    assert not errors, f"JavaScript errors on the pages: {errors}"


def register(page: Any, name: str, password: str = PASSWORD) -> None:
    """A new account through the account page; the page then goes to the lobby."""
    page.goto("/account")
    page.fill("#reg-user", name)
    page.fill("#reg-pass", password)
    page.fill("#reg-pass2", password)
    page.click("#reg-btn")
    page.wait_for_url("**/")
    page.wait_for_function(
        f"() => document.querySelector('#me-link')?.textContent === {json.dumps(name)}"
    )


def log_in(page: Any, name: str, password: str = PASSWORD) -> None:
    page.goto("/account")
    page.fill("#login-user", name)
    page.fill("#login-pass", password)
    page.click("#login-btn")
    page.wait_for_url("**/")
    page.wait_for_function(
        f"() => document.querySelector('#me-link')?.textContent === {json.dumps(name)}"
    )


def wait_seq_above(page: Any, seq: int) -> dict[str, Any]:
    page.wait_for_function(f"() => (window.tessera.state?.seq ?? -1) > {seq}")
    return state(page)


def wait_state(page: Any, condition: str) -> dict[str, Any]:
    """Wait until ``condition`` (JavaScript, over ``s`` = the page's state) holds."""
    page.wait_for_function(
        f"() => {{ const s = window.tessera.state; return !!s && ({condition}); }}"
    )
    return state(page)


def _board(s: dict[str, Any]) -> Board:
    rules = preset(s["rules"]["name"])
    alphabet = rules.tileset.alphabet
    board = Board(rules.layout)
    for r, row in enumerate(s["board"]):
        for c, label in enumerate(row):
            if label:
                board.set(r, c, alphabet.parse(label)[0])
    return board


def best_play(s: dict[str, Any], lexicon: Any) -> list[list[Any]] | None:
    """The best-scoring play for the rack a page shows, as [row, col, label] (a blank's
    letter in lower case), or None when the rack has no play."""
    rules = preset(s["rules"]["name"])
    alphabet = rules.tileset.alphabet
    for move in generate_moves(_board(s), "".join(s["rack"]), lexicon, rules, top=8):
        if isinstance(move, Play):
            return [[r, c, alphabet.label(t)] for r, c, t in move.placements]
    return None


def phony_opening(s: dict[str, Any], lexicon: Any) -> list[list[Any]]:
    """Two tiles of the rack on the start square and the next one across that spell no word."""
    rules = preset(s["rules"]["name"])
    alphabet = rules.tileset.alphabet
    r, c = s["layout"]["start"]
    letters = [t for t in s["rack"] if t != "?"]
    for a, b in permutations(letters, 2):
        if not lexicon.contains(alphabet.parse(a + b)):
            return [[r, c, a], [r, c + 1, b]]
    raise AssertionError(f"every pair of {letters} is a word")


def type_play(page: Any, placements: list[list[Any]]) -> None:
    """Place tiles the way a player types them: click the first square (twice for a
    downward play), then type the letters; the cursor skips squares already filled. A blank
    is typed as its letter once the rack has no such tile left — so the blank's tile goes
    first in the order typed only when no real tile of that letter is on the rack."""
    placements = sorted(placements)  # along the line, as the cursor moves
    (r, c, _), *rest = placements
    down = bool(rest) and rest[0][1] == c
    square = f'.sq[data-row="{r}"][data-col="{c}"]'
    page.click(square)
    if down:
        page.click(square)
    page.keyboard.type("".join(label for _, _, label in placements).lower())
    page.wait_for_function(
        f"() => document.querySelectorAll('.tile.pending').length === {len(placements)}"
    )
