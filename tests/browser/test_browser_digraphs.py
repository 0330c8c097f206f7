"""Typing multi-letter tiles on the game page: a Hungarian and a Spanish game, each on its own
server whose lexicon directory holds small Hungarian (``hu``) and Spanish (``es``) lists built
from tiny word files, so no dictionary package is needed. Racks are the bag's: each test starts
games (by the API, as the New game dialog does) until a rack has the tiles it types."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import shot, state
from serverproc import ServerProcess

from support.languages import build_small_lexicon
from tessera.game import Game
from tessera.lexicon import Lexicon
from tessera.rules import preset
from tessera.tiles import BLANK, Alphabet

RULES = "casual"
CHALLENGE = "single"  # racks are random: the typed tiles are scored, not looked up
GAMES = 150  # games started at most while looking for a rack


@pytest.fixture(scope="module")
def lexicons(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("lexicons")
    for name in ("hu", "es"):
        build_small_lexicon(folder, name)
    return folder


@pytest.fixture(scope="module")
def server(lexicons: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """This module's own server, offering the Hungarian and Spanish lists."""
    db = tmp_path_factory.mktemp("digraphs") / "games.db"
    extra = ("--games-per-minute", "100000", "--lexicon", "hu", "--lexicon", "es")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TESSERA_LEXICON_DIR", str(lexicons))
        with ServerProcess(db, extra=extra) as proc:
            yield proc


NEW_GAME = """async (spec) => {
  const made = await fetch('/api/games', {method: 'POST',
    headers: {'Content-Type': 'application/json'}, body: JSON.stringify(spec)});
  const {id} = await made.json();
  const s = await fetch(`/api/games/${id}/state`);
  return {id, state: await s.json()};
}"""


def open_game_with(
    page: Any, lexicon: str, wanted: Callable[[list[str]], bool]
) -> dict[str, Any]:
    """Starts games between two people until the first rack is ``wanted``; opens that game
    with the rack shown and returns its state."""
    page.goto("/")
    spec = {"players": [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}],
            "rules": RULES, "lexicon": lexicon, "challenge_rule": CHALLENGE}
    for _ in range(GAMES):
        game = page.evaluate(NEW_GAME, spec)
        if wanted(game["state"]["rack"]):
            break
    else:
        raise AssertionError(f"{GAMES} new {lexicon} games dealt no rack to type")
    page.goto(f"/g/{game['id']}")
    page.wait_for_selector("#cover:not([hidden])")
    page.click("#cover-btn")
    page.wait_for_function("() => document.querySelectorAll('#rack .tile').length === 7")
    return state(page)


def other_tile(rack: list[str], but: str) -> str | None:
    """A plain ASCII letter on the rack other than ``but`` (typed after the digraph)."""
    rest = list(rack)
    rest.remove(but)
    return next((t for t in rest if len(t) == 1 and t.isascii() and t.isalpha()), None)


def digraphs(alphabet: Alphabet) -> list[str]:
    return [label for label in alphabet.labels if len(label) == 2 and label.isascii()]


def holding_both(alphabet: Alphabet) -> Callable[[list[str]], str | None]:
    """The digraph of a rack that also holds its first letter (SZ and S), and another letter."""
    def pick(rack: list[str]) -> str | None:
        return next((d for d in digraphs(alphabet)
                     if d in rack and d[0] in rack and other_tile(rack, d)), None)
    return pick


def holding_only(alphabet: Alphabet) -> Callable[[list[str]], str | None]:
    """The digraph of a rack with no tile for its first letter (no C and no blank by CH)."""
    def pick(rack: list[str]) -> str | None:
        return next((d for d in digraphs(alphabet)
                     if d in rack and d[0] not in rack and "?" not in rack
                     and other_tile(rack, d)), None)
    return pick


def blank_for(alphabet: Alphabet) -> Callable[[list[str]], str | None]:
    """A digraph a rack's blank must stand for: neither it nor its first letter is there."""
    def pick(rack: list[str]) -> str | None:
        if "?" not in rack or not other_tile(rack, "?"):
            return None
        return next((d for d in digraphs(alphabet) if d not in rack and d[0] not in rack), None)
    return pick


def expected_score(lexicon: Path, rack: list[str], word: str) -> int:
    """The score Tessera's own rules give ``word`` played across from the centre: the tile
    set's values, independent of the page."""
    alphabet = Lexicon.load(lexicon).alphabet
    game = Game(rules=preset(RULES).for_alphabet(alphabet), players=["Ann", "Bob"], seed=1)
    game.set_rack(1 - game.to_move, [])  # its tiles back in the bag, where the page's may be
    game.set_rack(game.to_move, [BLANK if t == "?" else alphabet.letter(t) for t in rack])
    play = game.check(f"8H {word}")
    assert play is not None and play.score is not None
    return play.score


def pending(page: Any) -> list[list[Any]]:
    return page.evaluate(
        "() => [...window.tessera.pending.entries()].map(([k, p]) => [k, p.label])"
    )


def type_keys(page: Any, keys: str) -> None:
    page.focus("#board")
    for key in keys:
        page.keyboard.press(key)


def play_and_score(page: Any) -> int:
    """The preview's score, which the committed play must also get."""
    page.wait_for_selector('#preview[data-ok="1"]')
    shown = int(page.get_attribute("#preview", "data-score"))
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.tessera.state.history.length === 1")
    assert state(page)["history"][0]["score"] == shown
    return shown


def lexicon_alphabet(lexicons: Path, name: str) -> Alphabet:
    return Lexicon.load(lexicons / f"{name}.kwg").alphabet


def test_hungarian_digraphs_typed_on_a_rack_with_their_letters_and_as_a_blank(
    page: Any, lexicons: Path
) -> None:
    alphabet = lexicon_alphabet(lexicons, "hu")
    both = holding_both(alphabet)
    s = open_game_with(page, "hu", lambda rack: both(rack) is not None)
    rack = s["rack"]
    digraph = both(rack)
    assert digraph is not None
    after = other_tile(rack, digraph)
    assert after is not None
    type_keys(page, digraph[0])
    assert pending(page) == [["7,7", digraph[0]]]  # the plain letter, while it is alone
    type_keys(page, digraph[1] + after)
    assert pending(page) == [["7,7", digraph], ["7,8", after]]  # one tile, then the next
    page.wait_for_selector('#preview[data-ok="1"]')
    shot(page, "desktop-hungarian-digraph")
    score = play_and_score(page)
    assert score == expected_score(lexicons / "hu.kwg", rack, digraph + after)
    assert state(page)["board"][7][7] == digraph

    blank = blank_for(alphabet)
    s = open_game_with(page, "hu", lambda rack: blank(rack) is not None)
    digraph = blank(s["rack"])
    assert digraph is not None
    after = other_tile(s["rack"], "?")
    assert after is not None
    type_keys(page, digraph + after)
    assert pending(page) == [["7,7", digraph.lower()], ["7,8", after]]  # the blank as CS
    score = play_and_score(page)
    assert score == expected_score(lexicons / "hu.kwg", s["rack"], digraph.lower() + after)


def test_spanish_digraphs_typed_on_a_rack_with_only_the_digraph(
    page: Any, lexicons: Path
) -> None:
    alphabet = lexicon_alphabet(lexicons, "es")
    only = holding_only(alphabet)
    s = open_game_with(page, "es", lambda rack: only(rack) is not None)
    rack = s["rack"]
    digraph = only(rack)
    assert digraph is not None
    after = other_tile(rack, digraph)
    assert after is not None
    type_keys(page, digraph[0])
    assert pending(page) == []  # no C to place: the C waits for the H
    assert page.inner_text("#message").startswith(f"{digraph[0]}…")
    type_keys(page, digraph[1] + after)
    assert pending(page) == [["7,7", digraph], ["7,8", after]]
    page.wait_for_selector('#preview[data-ok="1"]')
    shot(page, "desktop-spanish-digraph")
    score = play_and_score(page)
    assert score == expected_score(lexicons / "es.kwg", rack, digraph + after)
    assert state(page)["board"][7][7] == digraph


EMPTY_HUNGARIAN = "/".join(["15"] * 15) + " CSAK/ 0/0 0 lex hu; ld hungarian;"


def test_the_analysis_board_types_digraphs_and_keeps_them_apart_after_a_full_stop(
    page: Any,
) -> None:
    page.goto("/analysis")
    page.wait_for_selector("#an-board .sq")
    page.fill("#an-cgp", EMPTY_HUNGARIAN)
    page.click("#an-load")
    page.wait_for_function("() => document.querySelector('#an-tray .tile[data-letter=\"CS\"]')")
    page.click('#an-board .sq[data-square="H8"]')
    for key in "CSC.SZ":  # CS; C kept apart from S; S then Z: SZ
        page.keyboard.press(key)
    squares = page.locator("#an-board .sq .tile").evaluate_all(
        "ts => ts.map(t => [t.closest('.sq').dataset.square, t.dataset.letter || t.textContent])"
    )
    shot(page, "desktop-analysis-hungarian-digraph")
    labels = {square: text for square, text in squares}
    # a tile reads its letters, a space, then its value ("CS 7")
    assert [labels.get(sq, "").split(" ")[0] for sq in ("H8", "I8", "J8", "K8")] == [
        "CS", "C", "SZ", "",
    ]
