"""Helpers for the browser tests: waiting for turns, hints, dragging and typing tiles."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

MY_TURN = """() => { const s = window.tessera.state;
  return !!s && (s.state === 'over' || (s.to_move === s.seat && s.kinds[s.seat] === 'human')); }"""


def shot(page: Any, name: str, size: dict[str, int] | None = None) -> Path:
    """Save a screenshot into test-artifacts/ (at a given viewport size, if asked)."""
    ARTIFACTS.mkdir(exist_ok=True)
    if size is not None:
        page.set_viewport_size(size)
        page.wait_for_timeout(150)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def open_new_game_dialog(page: Any) -> None:
    """The new-game dialog, opened from the start page (the lobby)."""
    page.goto("/")
    page.click("#computer-options")
    page.wait_for_selector("#new-game-dialog[open]")


def start_vs_computer(page: Any) -> dict[str, Any]:
    """A new game against the computer, at my turn, with at least one word to play (about one
    opening rack in a hundred, DFFGKQY say, has none: such a game is started again)."""
    for _ in range(20):
        open_new_game_dialog(page)
        page.check('input[name="mode"][value="computer"]')  # the dialog remembers the last
        page.click("#ng-start")
        page.wait_for_url("**/g/*")
        s = wait_my_turn(page)
        if hints(page):
            return s
    raise AssertionError("20 new games in a row offered no play")


def state(page: Any) -> dict[str, Any]:
    return page.evaluate("() => window.tessera.state")


def wait_my_turn(page: Any) -> dict[str, Any]:
    page.wait_for_function(MY_TURN, timeout=30_000)
    return state(page)


def hints(page: Any) -> list[dict[str, Any]]:
    """The server's best plays for the page's own rack (as the Hint button asks)."""
    return page.evaluate(
        """async () => {
          const a = window.tessera;
          const r = await fetch(`/api/games/${a.gameId}/hints`, {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({seat: a.state.seat})});
          return (await r.json()).hints; }"""
    )


def center(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag_tile(page: Any, label: str, row: int, col: int) -> None:
    """Drag a rack tile onto a square with the mouse (a blank asks for its letter)."""
    blank = label != label.upper()
    rack_sel = f'#rack .tile[data-letter="{"?" if blank else label}"]'
    x0, y0 = center(page, rack_sel)
    x1, y1 = center(page, f'.sq[data-row="{row}"][data-col="{col}"]')
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
    page.mouse.move(x1, y1, steps=4)
    page.mouse.up()
    if blank:
        page.wait_for_selector("#blank-dialog[open]")
        page.click(f'#blank-letters button:text-is("{label.upper()}")')


def board_text(page: Any) -> list[list[str | None]]:
    return page.evaluate("() => window.tessera.state.board")


# installed by scripts/ensure-system-packages (a test-only tool, MPL-2.0), at the version the
# script pins: the tests check against that one (an older axe misses newer rules)
AXE = ARTIFACTS.parent / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
ENSURE_PACKAGES = ARTIFACTS.parent / "scripts" / "ensure-system-packages"


def axe_pinned_version() -> str:
    """The axe-core version scripts/ensure-system-packages installs (its AXE_VERSION=…)."""
    found = re.search(r"^AXE_VERSION=(\S+)$", ENSURE_PACKAGES.read_text(), re.MULTILINE)
    assert found, f"no AXE_VERSION in {ENSURE_PACKAGES}"
    return found.group(1)


def axe_violations(page: Any) -> list[str]:
    """The serious and critical accessibility violations axe-core finds on the page as it is
    now, one readable line each (rule, impact, what to fix, the elements)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    results = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    lines = []
    for v in results["violations"]:
        if v["impact"] not in ("serious", "critical"):
            continue
        nodes = v["nodes"]
        targets = ", ".join(" ".join(n["target"]) for n in nodes[:6])
        more = f" (+{len(nodes) - 6} more)" if len(nodes) > 6 else ""
        checks = nodes[0]["any"] + nodes[0]["all"] + nodes[0]["none"]
        why = "; ".join(c["message"] for c in checks if c.get("message"))
        lines.append(f"{v['id']} [{v['impact']}] {v['help']}: {targets}{more} ({why})")
    return lines


def hot_seat_game(page: Any, names: tuple[str, str], rules: str | None = None) -> dict[str, Any]:
    """A new game between people at one screen (the page's New game dialog), under the
    preset ``rules`` when given; returns its first state."""
    open_new_game_dialog(page)
    page.check('input[name="mode"][value="people"]')
    if rules is not None:
        page.select_option("#ng-rules", rules)
    inputs = page.locator("#ng-names input")
    for i, name in enumerate(names):
        inputs.nth(i).fill(name)
    page.click("#ng-start")
    page.wait_for_url("**/g/*")
    page.wait_for_function("() => window.tessera.state")
    return state(page)


def computer_game(page: Any, rules: str, levels: tuple[str, str] = ("level1", "level2")) -> None:
    """A new game between two computers at ``levels`` under the preset ``rules``, started with
    the New game dialog's own controls; the page is left on the game."""
    open_new_game_dialog(page)
    dialog = page.locator("#new-game-dialog")  # its controls found in any language
    dialog.locator('input[name="mode"][value="computers"]').check()
    dialog.locator("#ng-rules").select_option(rules)
    for i, level in enumerate(levels, start=1):
        dialog.locator(f"#ng-level-{i}").select_option(level)
    dialog.locator("#ng-start").click()
    page.wait_for_url("**/g/*")
    page.wait_for_function("() => window.tessera.state")
