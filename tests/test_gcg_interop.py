"""Issue 9, item 11: GCG records as other programs write them — lenient reading, strict
checking. Each test builds its own record (a game played here, written, then edited to show
one feature); the comment names the public file that showed the feature."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from support.randomplay import Judge, endgame, play_randomly, random_play
from tessera.formats import gcg
from tessera.formats.gcg import GcgError
from tessera.game import EndReason, EventKind, Game
from tessera.rules import preset


def foreign(text: str) -> str:
    """The record as another program would have it: without Tessera's own data lines (today
    '#tile-set tessera-…', before issue 9 '#tessera-…')."""
    return "".join(
        line for line in text.splitlines(keepends=True)
        if not line.startswith(("#tile-set ", "#tessera-"))
    )


def scores(game: Game) -> dict[str, int]:
    """Scores by player (a foreign file lists the first mover first, whatever the seats)."""
    return dict(zip(game.players, game.scores, strict=True))


def line_index(lines: list[str], pattern: str) -> int:
    return next(i for i, line in enumerate(lines) if re.match(pattern, line))


# -- a pass or exchange line listing part of the rack ------------------------------------------


def game_with_a_late_pass(seed: int) -> tuple[Game, int]:
    """A game in which darrell passes with a few tiles left in the bag; returns the game and
    the number of turn lines up to and including that pass."""
    rng = random.Random(seed)
    game = Game("naspa", players=["cesar", "darrell"], seed=seed, first=0)
    play_randomly(game, rng, lambda g: 1 <= g.bag_count <= 5 and g.to_move == 1)
    assert not game.is_over
    game.pass_turn()
    turns = sum(1 for e in game.history if e.kind in (EventKind.PLAY, EventKind.PASS,
                                                      EventKind.EXCHANGE))
    play_randomly(game, rng, lambda g: False)
    return game, turns


@pytest.mark.parametrize("seed", [3, 8])
def test_a_pass_listing_part_of_the_rack_is_not_the_whole_rack(seed: int) -> None:
    # liwords' pkg/stats/testdata/four_or_more_consecutive_bingos.gcg: ">darrell: AA -  +0 293"
    # (the annotator knew only the two A's darrell had tried to exchange)
    game, turns = game_with_a_late_pass(seed)
    lines = foreign(gcg.dumps(game)).splitlines(keepends=True)
    k = line_index(lines, r">darrell: \S+ - \+0")
    nick, rack, rest = re.match(r"(>darrell: )(\S+)( - .*)", lines[k], re.S).groups()
    lines[k] = f"{nick}{rack[:2]}{rest}"  # two tiles of seven
    text = "".join(lines)
    at_pass = gcg.replay(text, turns=turns)
    held = at_pass.rack("darrell").tiles()
    assert len(held) == 7  # the whole rack, not the two tiles listed
    assert not Counter(at_pass.alphabet.parse(rack[:2])) - Counter(held)
    assert at_pass.bag_count == _bag_at(game, turns)  # the other five stayed off the bag
    again = gcg.replay(text)
    assert again.scores == game.scores and again.result == game.result


def _bag_at(game: Game, turns: int) -> int:
    """The bag's size after ``turns`` turns of the game, by replaying its own record."""
    return gcg.replay(gcg.dumps(game), turns=turns).bag_count


def test_plays_listing_only_the_tiles_played_replay() -> None:
    # the same liwords file lists darrell's racks as the tiles he played (">darrell: EINP H1
    # PEIN"); the rest of each rack is unknown, so racks keep their full size
    game, _ = game_with_a_late_pass(3)
    text = foreign(gcg.dumps(game))
    out = []
    for line in text.splitlines(keepends=True):
        m = re.match(r"(>darrell: )(\S+) (\d+[A-O]|[A-O]\d+) (\S+)( .*)", line, re.S)
        if m:
            placed = "".join("?" if ch.islower() else ch for ch in m.group(4) if ch != ".")
            line = f"{m.group(1)}{placed} {m.group(3)} {m.group(4)}{m.group(5)}"
        out.append(line)
    again = gcg.replay("".join(out))
    assert again.scores == game.scores and again.result == game.result


def test_played_tiles_must_be_on_the_listed_rack() -> None:
    text = "#player1 ann Ann\n#player2 bob Bob\n>ann: QU 8D QUITE +48 48\n"
    with pytest.raises(GcgError, match="line 3: not on ann's rack \\(QU\\): EIT"):
        gcg.replay(text)


# -- a failed challenge of a game-ending play, as a pass ---------------------------------------


def test_a_failed_challenge_of_the_out_play_written_as_a_pass() -> None:
    # macondo's gcgio/testdata/doug_v_emely_double_challenge.gcg: emely goes out, doug
    # challenges under the double rule and fails: ">doug: EGOP - +0 451", then emely's points
    game, out = endgame("naspa", 5, players=("doug", "emely"))
    mover = game.players[game.to_move]
    other = game.players[1 - game.to_move]
    game.play(out)
    game.challenge(other)  # no word list: the play is valid; the game ends
    assert game.is_over and game.result.reason is EndReason.PLAYED_OUT
    lines = foreign(gcg.dumps(game)).splitlines(keepends=True)
    note = lines.index("#note #unsuccessful-challenge\n")  # how Tessera and macondo tag it
    assert lines[note - 1].startswith(f">{mover}: ")
    rack = game.alphabet.format(game.rack(other).tiles())
    lines[note] = f">{other}: {rack} - +0 {game.score(other) - _end_change(game, other)}\n"
    again = gcg.replay("".join(lines))
    assert scores(again) == scores(game) and again.result.reason is EndReason.PLAYED_OUT
    # the play stood and ended the game: no pass of a turn the game no longer had
    assert [e.kind for e in again.history[-2:]] == [EventKind.PLAY, EventKind.END_RACK_POINTS]
    wrong = "".join(lines).replace(f"{rack} - +0 ", f"{rack} - +0 1")
    with pytest.raises(GcgError, match=f"{other}'s total is"):
        gcg.replay(wrong)


def _end_change(game: Game, player: str) -> int:
    i = game.players.index(player)
    kinds = (EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY, EventKind.TIME_PENALTY)
    return sum(e.score for e in game.history if e.player == i and e.kind in kinds)


# -- old Quackle: a withdrawn play as '-- +0' ----------------------------------------------------


def test_old_quackle_withdrawal_with_a_zero_score() -> None:
    # old Quackle files write a phony taken off as ">ann: RACK -- +0 T" with only the total
    # dropping (Quackle's gcgio.cpp reads any line starting '--' as the withdrawal)
    game = Game("naspa", players=["ann", "bob"], seed=4, first=0)
    play = random_play(game, random.Random(1))
    game.play(play)
    game.lexicon = Judge(game.alphabet, valid=False)
    game.challenge("bob")
    game.lexicon = None
    play_randomly(game, random.Random(2), lambda g: len(g.history) > 6)
    text = foreign(gcg.dumps(game))
    withdrawn = re.search(r">ann: \S+ -- -(\d+) (-?\d+)\n", text)
    assert withdrawn is not None
    quackle = text.replace(withdrawn.group(0), withdrawn.group(0).replace(
        f"-- -{withdrawn.group(1)} ", "-- +0 "))
    assert "-- +0 " in quackle
    again = gcg.replay(quackle)
    assert again.scores == game.scores
    total = withdrawn.group(2)
    with pytest.raises(GcgError, match="ann's total is"):
        gcg.replay(quackle.replace(f"-- +0 {total}\n", f"-- +0 {int(total) + 1}\n"))


# -- lexicon families imply their tile sets -------------------------------------------------------


def record_in(tiles: str, lexicon: str, seed: int = 2) -> tuple[Game, str]:
    """A short game with ``tiles``, written as a foreign file that names only ``lexicon``."""
    game = Game(preset("naspa").replace(tiles=tiles), players=["ann", "bob"], seed=seed,
                first=0)
    play_randomly(game, random.Random(seed), lambda g: len(g.history) >= 10)
    text = foreign(gcg.dumps(game))
    text = re.sub(r"#tile-distribution \S+\n", "", text)
    text = re.sub(r"#lexicon \S+\n", f"#lexicon {lexicon}\n", text)
    return game, text


@pytest.mark.parametrize(
    ("lexicon", "tiles"),
    [("OSPS44", "polish"), ("FRA24", "french"), ("ODS9", "french"), ("FILE2017", "spanish"),
     ("FISE2", "spanish"), ("RD28", "german"), ("CSW24", "english")],
)
def test_a_lexicon_family_implies_its_tile_set(lexicon: str, tiles: str) -> None:
    # MAGPIE's ld_get_type_from_lex_name (src/ent/letter_distribution.h) picks the letter
    # distribution from the lexicon's name when a file names no #tile-distribution
    game, text = record_in(tiles, lexicon)
    assert "#tile-distribution" not in text and f"#lexicon {lexicon}\n" in text
    record = gcg.loads(text)
    assert gcg.infer_rules(record).tiles == tiles
    again = gcg.replay(record)
    assert again.scores == game.scores and again.rules.tiles == tiles


def test_the_tile_distribution_pragma_wins_over_the_lexicon() -> None:
    game, text = record_in("french", "OSPS44")
    text = text.replace("#lexicon OSPS44\n", "#lexicon OSPS44\n#tile-distribution french\n")
    assert gcg.replay(text).scores == game.scores


@pytest.mark.parametrize(("lexicon", "language"), [("NSF23", "Norwegian"), ("DISC2", "Catalan")])
def test_a_language_without_a_tile_set_is_named(lexicon: str, language: str) -> None:
    _, text = record_in("english", lexicon)
    line = text.splitlines().index(f"#lexicon {lexicon}") + 1
    with pytest.raises(GcgError) as info:
        gcg.replay(text)
    assert info.value.line == line
    assert f"{lexicon} is a {language} lexicon, and Tessera has no {language} tile set" in str(
        info.value
    )


# -- end-of-game lines, checked in the file's order -----------------------------------------------


def out_play_over_time() -> tuple[Game, str]:
    """A game whose last player goes out 1 minute over time: rack points, then -10."""
    game, out = endgame("naspa", 11, players=("ann", "bob"))
    game.play(out, elapsed_ms=26 * 60_000)
    game.pass_turn()
    assert game.is_over
    return game, foreign(gcg.dumps(game))


def test_a_time_line_before_the_rack_points_with_totals_in_file_order() -> None:
    # MAGPIE's test/testdata/time_penalty_before_rack_points.gcg puts the (time) line first;
    # read leniently, its running totals are checked in the order the lines come
    game, text = out_play_over_time()
    lines = text.splitlines(keepends=True)
    points = line_index(lines, r">\S+: \(\S+\) \+\d+ -?\d+")
    time_line = line_index(lines, r">\S+: \S* ?\(time\) -10 -?\d+")
    assert time_line == points + 1 and lines[points].split(":")[0] == lines[time_line].split(":")[0]
    nick = lines[points].split(":")[0]
    before = int(lines[points - 1].split()[-1]) if lines[points - 1].startswith(nick) else None
    assert before is not None
    gain = int(lines[points].split()[-2])
    file_order = list(lines)
    file_order[points] = re.sub(r"-?\d+\n$", f"{before - 10}\n", lines[time_line])
    file_order[time_line] = re.sub(r"-?\d+\n$", f"{before - 10 + gain}\n", lines[points])
    again = gcg.replay("".join(file_order))
    assert again.scores == game.scores and again.result == game.result
    # the same lines moved but their totals left in the game's order: wrong in file order
    game_order = list(lines)
    game_order[points], game_order[time_line] = lines[time_line], lines[points]
    with pytest.raises(GcgError) as info:
        gcg.replay("".join(game_order))
    assert info.value.line == points + 1
    assert f"{nick[1:]}'s total is {before - 10}, not {before - 10 + gain}" in info.value.message


def test_a_duplicate_time_line_is_reported_as_a_duplicate() -> None:
    _, text = out_play_over_time()
    lines = text.splitlines(keepends=True)
    time_line = line_index(lines, r">\S+: \S* ?\(time\) -10 -?\d+")
    total = int(lines[time_line].split()[-1])
    lines.append(re.sub(r"-?\d+\n$", f"{total - 10}\n", lines[time_line]))
    with pytest.raises(GcgError) as info:
        gcg.replay("".join(lines))
    assert info.value.line == len(lines)
    assert info.value.message.startswith("a second (time) line for ")
    assert f"(the first is on line {time_line + 1})" in info.value.message
