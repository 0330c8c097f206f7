"""The web app in other languages.

A pseudo language proves that no visible word escapes the catalogue: every message of the
template is served as ``⟦msgid⟧`` (each plural form likewise) in place of Hungarian, and on
every page and in every state visited each visible text, title, aria-label and placeholder
with letters in it must lie inside ``⟦…⟧``, but for data the test names (players, tiles,
words and notation, word lists, rules and levels, the language switch's names, dates).

Then the real Japanese and Hungarian: the language chosen with the page's own switch (and
from the browser's language), the start page, a game and its end in that language, with
screenshots in test-artifacts/ and an accessibility check of a translated page.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from browserkit import axe_violations, hot_seat_game, shot, state, wait_my_turn

from tessera import i18n

OPEN, CLOSE = "⟦", "⟧"
PLAYER = "Ann"  # the test's player (a guest, then registered under another name)

# In one pass over the page's text nodes in document order: the visible text left outside
# ⟦…⟧ (brackets balance across nodes: a message with markup spans several), and the
# attributes shown to people whose value is not inside ⟦…⟧.
UNTRANSLATED = r"""(allowed) => {
  const ok = new Set(allowed);
  const letters = /\p{L}/u;
  const data = (text) => (text.match(/[\p{L}\p{N}]+/gu) || []).every((w) =>
    !letters.test(w) || ok.has(w) || ok.has(w.toLowerCase()) || /^[\p{Lu}\p{N}]+$/u.test(w)
    || /^\p{L}$/u.test(w));
  const shown = (el) => {
    if (!el) return false;
    const target = el.tagName === "OPTION" || el.tagName === "OPTGROUP" ? el.closest("select") : el;
    return !!target && target.checkVisibility({ checkVisibilityCSS: true });
  };
  const found = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let depth = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    // notation: the moves as the engine writes them ("8D ZONKs", "exchange N")
    const skip = parent.closest("script, style, title, .move, .leave");
    let outside = "";
    for (const ch of node.data) {  // a message between two names parts them ("Ann vs Bob")
      if (ch === "⟦") { depth += 1; outside += " "; }
      else if (ch === "⟧") { depth = Math.max(0, depth - 1); outside += " "; }
      else if (depth === 0) outside += ch;
    }
    outside = outside.trim();
    if (skip || !letters.test(outside) || !shown(parent) || data(outside)) continue;
    const where = `${parent.tagName.toLowerCase()}#${parent.id || parent.className}`;
    found.add(`text: ${outside} (in ${where})`);
  }
  const bare = (value) => value.replace(/⟦[^⟦⟧]*⟧/g, " ");
  for (const el of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
    if (!shown(el) && !el.closest("[role=grid]")) continue;
    for (const name of ["title", "aria-label", "placeholder"]) {
      const value = el.getAttribute(name);
      if (value && letters.test(bare(value)) && !data(bare(value))) {
        found.add(`${name}: ${value} (on ${el.tagName.toLowerCase()}#${el.id})`);
      }
    }
  }
  if (letters.test(bare(document.title)) && !data(bare(document.title))) {
    found.add(`document title: ${document.title}`);
  }
  return [...found];
}"""


def pseudo_catalogue() -> dict[str, Any]:
    messages: dict[str, Any] = {}
    for m in i18n.catalog("web", "en"):
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            messages[m.id[0]] = [f"{OPEN}{form}{CLOSE}" for form in m.id]
        else:
            messages[m.id] = f"{OPEN}{m.id}{CLOSE}"
    return {"lang": "hu", "nplurals": 2, "messages": messages}


def allowed_data(page: Any, *names: str) -> list[str]:
    """The words on the page that are data, not interface: the app's name, the languages'
    own names, rules presets, word lists and computer levels, month names (dates are
    written by Intl), the players and every word of the moves on the page (a game's or a
    duplicate game's), and the names in the lobby's lists (the server is shared by a
    worker's tests, so other tests' players post seeks and play live games there)."""
    meta = page.evaluate("async () => (await fetch('/api/meta')).json()")
    lobby = page.evaluate("async () => (await fetch('/api/lobby')).json()")
    words = ["Tessera", "GCG", "CGP", "lex", PLAYER, *names, *i18n.LANGUAGES.values()]
    for seek in [*lobby.get("seeks", []), *lobby.get("mine", []), *lobby.get("challenges", [])]:
        words.append(str(seek.get("user", "")))
    words += [name for game in lobby.get("live", []) for name in game.get("names", [])]
    words += [p["name"] for p in meta["presets"]] + meta["lexicons"] + meta["levels"]
    words += [p["board"] for p in meta["presets"]]
    words += page.evaluate(
        """() => { const out = [];
          for (let m = 0; m < 12; m++) {
            out.push(new Date(2026, m, 2).toLocaleString(document.documentElement.lang,
              { month: 'short' }));
          }
          const s = window.tessera && window.tessera.state;
          if (s) {
            out.push(...s.names, s.lexicon, s.rules.name);
            for (const e of s.history) out.push(e.move || '', ...(e.words || []), e.position || '');
          }
          const d = window.tessera && window.tessera.duplicate;
          if (d) {
            out.push(...d.players.map((p) => p.name));
            for (const rd of d.rounds) {
              out.push(rd.top, rd.rack, rd.mine ? rd.mine.play : '');
              for (const p of [...(rd.players || []), ...(rd.others || [])]) out.push(p.play || '');
            }
          }
          return out; }"""
    )
    return sorted({w for text in words if text for w in re.findall(r"[^\W_]+", str(text))})


def untranslated(page: Any, *names: str) -> list[str]:
    result: list[str] = page.evaluate(UNTRANSLATED, allowed_data(page, *names))
    return result


def check(page: Any, where: str, problems: dict[str, list[str]], *names: str) -> None:
    page.wait_for_timeout(250)  # the last answers drawn
    found = untranslated(page, *names)
    if found:
        problems[where] = found


@pytest.fixture
def pseudo_page(browser: Any, server: Any) -> Any:
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, base_url=server.url, locale="hu-HU"
    )
    body = json.dumps(pseudo_catalogue(), ensure_ascii=False)
    context.route(
        re.compile(r"/api/i18n/hu(\?|$)"),
        lambda route: route.fulfill(status=200, content_type="application/json", body=body),
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_no_visible_word_is_outside_the_catalogue(
    pseudo_page: Any, browser: Any, server: Any
) -> None:
    page = pseudo_page
    problems: dict[str, list[str]] = {}
    page.goto("/")
    page.wait_for_selector("#seek-rules option", state="attached")
    page.fill("#guest-name", PLAYER)
    assert page.evaluate("document.documentElement.lang") == "hu"
    check(page, "start page", problems)
    page.click("#seek-post")  # a seek of one's own: the notice, and the lobby's lists
    page.wait_for_selector("#my-seeks li")
    check(page, "start page with a seek posted", problems)

    # another device's guest posts a seek (new, a guest's) and takes this one: a game between
    # people, with a guest's mark, "(you)", and a spectator listed
    other = browser.new_context(base_url=server.url)
    try:
        opponent, spectator = other.new_page(), browser.new_page(base_url=server.url)
        opponent.goto("/")
        opponent.fill("#guest-name", "Bob")
        opponent.fill("#seek-minutes", "9")
        opponent.click("#seek-post")
        page.wait_for_selector('#seeks tr[data-user="Bob"] .new-tag')
        check(page, "start page with a new seek", problems, "Bob")
        opponent.locator(f'#seeks tr[data-user="{PLAYER}"] .accept').click()
        page.wait_for_url("**/g/*")
        spectator.goto(page.url)
        spectator.wait_for_function("() => window.tessera.state")
        page.wait_for_selector("#watchers:not([hidden])")
        check(page, "a game between people, watched", problems, "Bob")
        spectator.close()
        opponent.once("dialog", lambda dialog: dialog.accept())
        opponent.click("#abort-btn")  # called off: no longer among the lobby's live games
        page.wait_for_function("() => window.tessera.state.state === 'aborted'")
    finally:
        other.close()
    page.goto("/")
    page.wait_for_selector("#seek-rules option", state="attached")

    page.click("#computer-options")
    page.wait_for_selector("#new-game-dialog[open]")
    for mode in ("people", "computers", "computer"):
        page.check(f'input[name="mode"][value="{mode}"]')
        check(page, f"new-game dialog ({mode})", problems)
    finish = page.evaluate(
        "async () => (await (await fetch('/api/meta')).json()).presets"
        ".find((p) => p.finish_targets).name"
    )
    page.select_option("#ng-rules", finish)
    page.wait_for_selector("#ng-finish-note:not([hidden])")
    check(page, "new-game dialog (a finish-line preset)", problems)
    page.select_option("#ng-rules", "casual")
    page.check('input[name="ng-clock"][value="own"]')
    page.select_option("#ng-extra-kind", "overtime")
    check(page, "new-game dialog (own clock)", problems)
    page.fill("#ng-name", PLAYER)
    page.click("#ng-start")
    page.wait_for_url("**/g/*")
    wait_my_turn(page)
    check(page, "a game in progress", problems)
    # The look-ahead's answer is held until a quick hint is on the board: it redraws the list,
    # and when the computer's choice is an exchange or a pass it holds no play to click.
    held: list[Any] = []

    def hold_look_ahead(route: Any) -> None:
        if (route.request.post_data_json or {}).get("think"):
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/games/*/hints", hold_look_ahead)
    page.click("#hint-btn")
    page.wait_for_function("() => !document.getElementById('hint-status').hidden")
    page.locator("#hints button").first.click()
    page.wait_for_function("() => document.getElementById('preview').dataset.ok === '1'")
    check(page, "a game with a hint on the board", problems)
    for route in held:
        route.continue_()
    page.unroute("**/api/games/*/hints", hold_look_ahead)
    seq = page.evaluate("window.tessera.state.seq")
    page.click("#play-btn")
    page.wait_for_function(f"() => window.tessera.state.seq > {seq}")
    wait_my_turn(page)
    check(page, "a game after a move each", problems)
    page.click("#exchange-btn")
    page.wait_for_selector("#exchange-dialog[open]")
    check(page, "the exchange dialog", problems)
    page.click("#exchange-cancel")

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign-btn")
    page.wait_for_selector("#summary-dialog[open]")
    check(page, "the game-over dialog", problems)
    page.click("#summary-close")
    check(page, "a finished game", problems)
    game_id = page.evaluate("window.tessera.gameId")
    played = allowed_data(page)  # the game's words and moves, shown again by its review

    page.goto(f"/review/{game_id}")
    page.wait_for_selector("#rv-body:not([hidden])", timeout=60_000)
    check(page, "the review", problems, *played)

    page.goto("/analysis")
    page.wait_for_selector("#an-board .sq")
    page.fill("#an-rack", "AEINRST")
    page.click("#an-analyze")
    page.wait_for_selector("#an-moves tbody tr")
    page.locator("#an-moves tbody tr").first.click()
    check(page, "the analysis board", problems)

    page.goto("/study")
    page.wait_for_selector("#study-lexicon option", state="attached")
    page.fill("#lookup-word", "RETAINS")
    page.click("#lookup-btn")
    page.wait_for_selector("#lookup-result p")
    page.fill("#search-text", "AEINRST")
    page.click("#search-btn")
    page.wait_for_selector("#search-result p")
    page.wait_for_selector("#quiz-card:not([hidden])")  # a returning guest's quiz asks at once
    check(page, "word study", problems)
    page.click("#quiz-check")
    page.wait_for_selector("#quiz-verdict p")
    check(page, "word study (a quiz answer)", problems)

    page.goto("/duplicate")
    page.wait_for_selector("#dup-start:not([hidden])")
    check(page, "duplicate (start)", problems)
    page.click("#dup-start-btn")
    page.wait_for_selector("#dup-game:not([hidden])")
    check(page, "duplicate (a round)", problems)
    page.goto("/duplicate")  # two people and a computer at one screen
    page.wait_for_selector("#dup-start:not([hidden])")
    page.fill("#dup-person-2", "Bob")
    page.select_option("#dup-opponent", "level1")
    page.click("#dup-start-btn")
    page.wait_for_selector("#dup-entry:not([hidden])")
    check(page, "duplicate at one screen", problems, "Bob")
    page.fill("#dup-move", "8D ZZZZZ")  # not a play of the rack: scores nothing
    page.click("#dup-play")
    page.wait_for_function("() => /Bob/.test(document.getElementById('dup-entry').textContent)")
    check(page, "duplicate at one screen (the second entry)", problems, "Bob")
    page.goto("/duplicate")  # computers alone, watched
    page.wait_for_selector("#dup-start:not([hidden])")
    page.fill("#dup-person-1", "")
    page.select_option("#dup-opponent", "level1")
    page.select_option("#dup-opponent-2", "level2")
    page.click("#dup-start-btn")
    page.wait_for_selector("#dup-watch:not([hidden])")
    page.click("#dup-next")
    page.wait_for_selector("#dup-rounds tbody tr")
    check(page, "duplicate between computers", problems)

    page.goto("/invite/no-such-invitation")
    page.wait_for_function("() => document.getElementById('invite-text').textContent")
    check(page, "an invitation that is not there", problems)

    page.goto("/account")
    check(page, "account (a guest)", problems)
    name = "i18n" + uuid.uuid4().hex[:8]
    status = page.evaluate(
        """async (name) => (await fetch('/api/register', {method: 'POST',
          headers: {'Content-Type': 'application/json'},
          body: JSON.stringify({username: name, password: 'correct horse'})})).status""",
        name,
    )
    assert status == 201
    page.goto("/account")
    page.wait_for_selector("#password-form:not([hidden])")
    check(page, "account (registered)", problems, name, *played)
    page.goto(f"/u/{name}")
    page.wait_for_selector("#profile-games tbody tr")
    page.locator(".replay-btn").first.click()
    page.wait_for_selector("#replay:not([hidden]) #replay-sheet tr")
    page.click("#replay-next")
    check(page, "a profile and a replay", problems, name, "Bob", *played)

    # people at one screen under a challenge rule: the cover between turns, a play
    # challenged and the verdict's banner
    s = hot_seat_game(page, (PLAYER, "Bob"), rules="woogles")
    page.wait_for_selector("#cover:not([hidden])")
    check(page, "a game at one screen (the cover)", problems, name, "Bob")
    page.click("#cover-btn")
    r, c = s["layout"]["start"]
    page.click(f'.sq[data-row="{r}"][data-col="{c}"]')
    page.keyboard.type("".join([t for t in state(page)["rack"] if t != "?"][:2]).lower())
    page.click("#play-btn")
    page.wait_for_function(f"() => window.tessera.state.seq > {s['seq']}")
    page.click("#cover-btn")
    check(page, "a game at one screen", problems, name, "Bob")
    page.click("#challenge-btn")
    page.wait_for_selector("#verdict:not([hidden])")
    check(page, "a challenge's verdict", problems, name, "Bob")

    listing = "\n".join(f"{where}:\n  " + "\n  ".join(found) for where, found in problems.items())
    assert not problems, f"words outside the catalogue:\n{listing}"


NAMES = {"ja": "花子", "hu": "Zsófi"}


def translated(lang: str, message: str, **values: object) -> str:
    """What the shipped catalogue says for ``message`` in ``lang``, placeholders filled."""
    text = i18n.translations("web", lang).gettext(message)
    return text.format(**values) if values else text


@pytest.mark.parametrize("lang", ["ja", "hu"])
def test_the_page_speaks_the_language_chosen_with_its_switch(
    browser: Any, server: Any, lang: str
) -> None:
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, base_url=server.url, locale="en-US"
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/")
    page.wait_for_selector("#lang-select option", state="attached")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.inner_text("#quick-computer") == "Play the computer"
    switch = page.get_by_role("combobox", name="Language")
    assert switch.locator("option").all_inner_texts() == list(i18n.LANGUAGES.values())

    switch.select_option(lang)  # the page reloads in the language chosen
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
    page.wait_for_selector("#seek-rules option", state="attached")
    assert page.inner_text("#quick-computer") == translated(lang, "Play the computer")
    assert page.inner_text("#nav-study") == translated(lang, "Study")
    assert page.inner_text("#seek-post") == translated(lang, "Post seek")
    assert page.title() == f"{translated(lang, 'Lobby')} — Tessera"
    assert page.input_value("#guest-name") == translated(lang, "Guest")
    assert page.eval_on_selector("#lang-select", "s => s.value") == lang
    shot(page, f"i18n-{lang}-start")

    page.fill("#guest-name", NAMES[lang])
    page.click("#quick-computer")
    page.wait_for_url("**/g/*")
    s = wait_my_turn(page)
    assert page.inner_text("#play-btn") == translated(lang, "Play")
    assert page.inner_text("#exchange-btn") == translated(lang, "Exchange")
    assert page.inner_text("#resign-btn") == translated(lang, "Resign")
    assert page.inner_text("h2.sheet-title") == translated(lang, "Moves")
    bag = i18n.translations("web", lang).ngettext(
        "{n} tile in the bag", "{n} tiles in the bag", s["bag_count"]
    )
    assert page.inner_text("#bag-count") == bag.format(n=s["bag_count"])
    tile = page.locator("#rack .tile").first.get_attribute("aria-label") or ""
    assert tile == translated(lang, "blank") or re.search(r"\d", tile), tile
    # a play the rules refuse: off the start square, or touching no tile, or no word
    page.click('.sq[data-row="0"][data-col="0"]')
    page.keyboard.type("".join([t for t in s["rack"] if t != "?"][:2]).lower())
    page.click("#play-btn")
    page.wait_for_function("() => document.querySelector('#message').textContent.length > 0")
    refusals = {
        translated(lang, m)
        for m in (
            "The first play must cover the start square.",
            "The play must touch a tile already on the board.",
            "A word of the play is not in the word list.",
        )
    }
    message = page.inner_text("#message")
    assert message in refusals or message.startswith(
        translated(lang, "Not in the word list: {words}.").split("{words}")[0]
    ), message
    shot(page, f"i18n-{lang}-game")
    page.click("#recall-btn")

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign-btn")
    page.wait_for_selector("#summary-dialog[open]")
    computer = translated(lang, "Computer")
    assert page.inner_text("#summary-title") == translated(lang, "{name} wins", name=computer)
    assert page.inner_text("#summary-reason") == translated(lang, "resigned")
    assert page.inner_text("#summary-new") == translated(lang, "New game")
    assert page.inner_text("#summary-review") == translated(lang, "Review the game")
    shot(page, f"i18n-{lang}-end")
    if lang == "ja":
        assert not axe_violations(page)

    other = context.new_page()  # the choice is remembered in this browser
    other.goto("/study")
    other.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
    assert other.inner_text("#quiz-title") == translated(lang, "Anagram quiz")
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.mark.parametrize(("locale", "lang"), [("hu-HU", "hu"), ("ja-JP", "ja"), ("de-DE", "en")])
def test_without_a_choice_the_browser_language_decides(
    browser: Any, server: Any, locale: str, lang: str
) -> None:
    context = browser.new_context(base_url=server.url, locale=locale)
    page = context.new_page()
    page.goto("/analysis")
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
    assert page.eval_on_selector("#lang-select", "s => s.value") == lang
    assert page.inner_text("#analysis h2") == translated(lang, "Analysis board")
    context.close()
