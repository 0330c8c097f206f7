"""GCG reading, writing and replay (RULES.md §9): every line kind, lenient reading, strict
writing, encodings, line ends, round trips, and one clear error per kind of bad input."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from support.randomplay import RejectingLexicon, play_random_game, random_play
from tessera.formats import gcg
from tessera.formats.gcg import GcgError, LineKind
from tessera.game import EndReason, EventKind, Game, GameState
from tessera.rules import (
    PRESETS,
    ChallengeRule,
    OutAdjust,
    PenaltyAppliesTo,
    ScorelessEnd,
    TimeControl,
)

DATA = Path(__file__).parent / "data" / "gcg"
FILES = sorted(DATA.glob("*.gcg"))
HEADER = "#character-encoding UTF-8\n#player1 ann Ann\n#player2 bob Bob\n"


def history(game: Game) -> list:
    """Events without their clock times (GCG has no per-move times)."""
    return [dataclasses.replace(e, elapsed_ms=None) for e in game.history]


def same_game(a: Game, b: Game) -> bool:
    return (
        a.board == b.board
        and a.scores == b.scores
        and history(a) == history(b)
        and a.players == b.players
        and a.state == b.state
        and a.result == b.result
        and [a.rack(i) for i in range(a.num_players)] == [b.rack(i) for i in range(b.num_players)]
    )


def square(game: Game, name: str) -> str:
    col, row = ord(name[0]) - 65, int(name[1:]) - 1
    tile = game.board.get(row, col)
    return game.alphabet.label(tile) if tile else ""


# -- the project's games ---------------------------------------------------------------------


def test_reference_game_r3_8_0() -> None:
    record = gcg.load(DATA / "reference_game.gcg")
    game = gcg.replay(record)
    plays = [e for e in game.history if e.kind is EventKind.PLAY]
    assert [e.score for e in plays] == [48, 57, 88, 40]
    assert game.scores == [136, 97]
    assert [square(game, s) for s in ("A8", "D8", "G9", "E4", "E11")] == ["M", "Q", "a", "R", "S"]
    assert record.incomplete and game.state is GameState.PLAYING


def test_rules_example_r9_7() -> None:
    record = gcg.load(DATA / "rules_example.gcg")
    game = gcg.replay(record)
    assert game.scores == [15, 19]
    assert game.result is not None and game.result.reason is EndReason.SCORELESS_TURNS
    assert game.result.winners == (1,)
    assert game.rules.challenge_rule is ChallengeRule.PENALTY  # inferred from "(challenge) +5"
    kinds = [e.kind for e in game.history]
    assert kinds == [
        EventKind.PLAY,
        EventKind.PLAY,
        EventKind.CHALLENGE_BONUS,
        EventKind.PLAY,
        EventKind.PLAY,
        EventKind.EXCHANGE,
        EventKind.PLAY,
        EventKind.WITHDRAWN,
        *[EventKind.PASS] * 4,
        EventKind.END_RACK_PENALTY,
        EventKind.END_RACK_PENALTY,
        EventKind.TIME_PENALTY,
    ]
    bonus = game.history[2]
    assert (bonus.player, bonus.score, bonus.total) == (1, 5, 15)
    assert game.history[7].note.startswith("NASTIRE is a phony")


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_data_file_replays_and_round_trips(path: Path) -> None:
    record = gcg.load(path)
    game = gcg.replay(record)
    lines = [e for e in record.events if e.kind is not LineKind.END_MARKER]
    last = {}
    for e in lines:
        last[e.nick] = e.total
    assert [last.get(p.nick, 0) for p in record.players] == game.scores
    again = gcg.replay(gcg.loads(gcg.dumps(game)))
    assert same_game(game, again)
    assert gcg.dumps(again) == gcg.dumps(game)


def test_double_challenge_lines() -> None:
    game = gcg.replay(gcg.load(DATA / "double_challenge.gcg"))
    kinds = [e.kind for e in game.history]
    assert kinds == [
        EventKind.PLAY,
        EventKind.PLAY,
        EventKind.LOST_TURN,
        EventKind.PLAY,
        EventKind.EXCHANGE,
        EventKind.PLAY,
        EventKind.WITHDRAWN,
    ]
    exchange = game.history[4].move
    assert exchange is not None and len(exchange.tiles) == 3  # "-3": count only, R9.4.3
    withdrawn = game.history[6]
    assert (withdrawn.score, withdrawn.total) == (-91, 31)
    assert game.board.tile_count() == 5 + 2 + 4  # the phony is off the board
    assert "ann challenged JOT" in game.history[2].note


def test_penalty_deduction_and_single_challenge() -> None:
    game = gcg.replay(gcg.load(DATA / "penalty_deduction.gcg"))
    assert game.rules.penalty_applies_to is PenaltyAppliesTo.CHALLENGER_DEDUCTION
    penalty = game.history[2]
    assert (penalty.kind, penalty.player, penalty.score, penalty.total) == (
        EventKind.CHALLENGE_PENALTY,
        0,
        -5,
        21,
    )
    single = gcg.replay(gcg.load(DATA / "single_challenge.gcg"))
    assert single.rules.challenge_rule is ChallengeRule.SINGLE
    assert single.history[2].kind is EventKind.CHALLENGE_BONUS and single.history[2].score == 0


def test_going_out_lines() -> None:
    game = gcg.replay(gcg.load(DATA / "out_play_double.gcg"))
    assert game.result is not None and game.result.reason is EndReason.PLAYED_OUT
    kinds = [e.kind for e in game.history]
    assert EventKind.ACCEPT in kinds  # implied by the end-rack line (R5.5)
    points = next(e for e in game.history if e.kind is EventKind.END_RACK_POINTS)
    assert points.score == 2 * sum(game.tileset.value(t) for t in points.other_racks)
    assert kinds[-2:] == [EventKind.TIME_PENALTY, EventKind.TIME_PENALTY]
    assert EventKind.LOST_TURN in kinds

    penalty = gcg.replay(gcg.load(DATA / "out_play_penalty.gcg"))
    assert [e.kind for e in penalty.history[-3:]] == [
        EventKind.PLAY,
        EventKind.CHALLENGE_BONUS,
        EventKind.END_RACK_POINTS,
    ]
    assert penalty.history[-2].score == 10  # two words challenged, 5 each

    box = gcg.replay(gcg.load(DATA / "out_play_box_three.gcg"))
    assert box.rules.out_adjust is OutAdjust.BOX
    assert [e.kind for e in box.history[-3:]] == [
        EventKind.END_RACK_PENALTY,
        EventKind.END_RACK_PENALTY,
        EventKind.END_RACK_POINTS,
    ]
    assert box.history[-1].score == -(box.history[-2].score + box.history[-3].score)


def test_multi_letter_tiles_in_brackets_and_tile_pragma() -> None:
    game = gcg.replay(gcg.load(DATA / "spanish.gcg"))
    assert game.rules.tiles == "spanish"
    assert square(game, "G8") == "CH" and square(game, "H9") == "RR"
    assert game.scores == [40, 24]
    text = gcg.dumps(game)
    assert ">ana: A[CH]EORST 8G [CH]E +12 12" in text.replace("Ana_García", "ana")
    assert "#tile-distribution spanish" in text
    alias = gcg.replay(gcg.load(DATA / "spanish_tile_alias.gcg"))
    assert alias.board == gcg.replay(gcg.load(DATA / "spanish.gcg"), turns=2).board


def test_super_board_columns_beyond_o() -> None:
    game = gcg.replay(gcg.load(DATA / "super.gcg"))
    assert game.rules.board == "super21" and game.rules.tiles == "english_super"
    assert square(game, "Q11") == "E" and square(game, "T12") == "D"
    text = gcg.dumps(game)
    assert "#board-layout SuperCrosswordGame" in text
    assert "#tile-distribution english_super" in text
    assert " 12Q HAND +21 21" in text


def test_three_and_four_players_pragmas() -> None:
    game = gcg.replay(gcg.load(DATA / "three_players.gcg"))
    assert game.num_players == 3 and game.scores == [26, 10, 9]
    four, _ = play_random_game("hasbro", 3, ("A", "B", "C", "D"), max_actions=30)
    text = gcg.dumps(four)
    # #player1 is the first mover, the others follow in turn order (RULES.md §9)
    turn_order = [four.players[(four.first + k) % 4] for k in range(4)]
    assert [f"#player{k} {n} {n}" in text for k, n in enumerate(turn_order, 1)] == [True] * 4
    assert same_game(four, gcg.replay(gcg.loads(text)))


# -- encodings and line ends -------------------------------------------------------------------


def test_iso_8859_1_file_without_pragma() -> None:
    data = (DATA / "pre2000_latin1_crlf.gcg").read_bytes()
    assert "José".encode("latin-1") in data and b"\r\n" in data
    record = gcg.loads(data)
    assert record.encoding == "ISO-8859-1"
    assert [p.name for p in record.players] == ["José Müller", "Zoë Brontë"]
    game = gcg.replay(record)
    assert game.players == ["José Müller", "Zoë Brontë"]
    assert game.scores == [35, 31]
    assert record.events[1].word == "JOT"  # letters instead of dots (R9.5)
    assert record.events[2].extra == ("DILUENT,", "HOARD")  # pre-2000 trailing tokens
    assert record.events[2].notes == [
        "José played through the D of HOARD\nwritten on two lines (a note continuation)"
    ]
    assert game.alphabet.format(game.rack(0).tiles()) == "AEIMOQS"  # from #rack1


def test_utf8_pragma_decides_the_encoding() -> None:
    text = HEADER.replace("Ann", "Ånn Ærø") + ">ann: ADEHORT 8D HOARD +26 26\n"
    record = gcg.loads(text.encode("utf-8"))
    assert record.encoding == "UTF-8" and record.players[0].name == "Ånn Ærø"
    # the same bytes without the pragma are ISO-8859-1: UTF-8 sequences become two characters
    latin = gcg.loads(text.split("\n", 1)[1].encode("utf-8"))
    assert latin.players[0].name == "Ã\x85nn Ã\x86rÃ¸"


def test_utf8_pragma_not_on_the_first_line_is_an_error() -> None:
    with pytest.raises(GcgError) as err:
        gcg.loads("#player1 ann Ann\n#character-encoding UTF-8\n")
    assert err.value.line == 2 and "first line" in err.value.message


def test_invalid_utf8_names_its_line() -> None:
    data = b"#character-encoding UTF-8\n#player1 ann Ann\n#player2 bob B\xe9b\n"
    with pytest.raises(GcgError) as err:
        gcg.loads(data)
    assert err.value.line == 3 and "UTF-8" in err.value.message


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\n\n", "\r\n\r\n"])
def test_any_cr_lf_convention(newline: str) -> None:
    text = (DATA / "reference_game.gcg").read_text(encoding="utf-8")
    record = gcg.loads(text.replace("\n", newline).encode("utf-8"))
    game = gcg.replay(record)
    assert game.scores == [136, 97]
    assert len(record.events) == 4 and record.title == "Tessera reference game (RULES.md R3.8.0)"


def test_bom_and_tabs_and_extra_spaces() -> None:
    text = "\ufeff" + HEADER + ">ann:\tADEHORT\t 8d  hoard\t+26   26  \n".replace("hoard", "HOARD")
    game = gcg.replay(gcg.loads(text))
    assert game.scores == [26, 0]


# -- lenient reading --------------------------------------------------------------------------


def test_letters_and_parentheses_for_played_through_tiles() -> None:
    base = HEADER + ">ann: ADEHORT 8D HOARD +26 26\n"
    for word in ("J.T", "JOT", "J(O)T"):
        game = gcg.replay(gcg.loads(base + f">bob: ?BEJORT E7 {word} +10 10\n"))
        assert game.history[-1].move.word[1] == 0  # the O is played through
        assert game.scores == [26, 10]


def test_lowercase_coordinates_and_blank_designation() -> None:
    game = gcg.replay(gcg.loads(HEADER + ">ann: ADEOR?? h4 hOARDs +10 10\n"))
    assert square(game, "H4") == "h" and square(game, "H9") == "s"
    assert game.history[0].move.position == "H4"


def test_check_scores_false_accepts_wrong_numbers() -> None:
    game = gcg.replay(gcg.loads(HEADER + ">ann: ADEHORT 8D HOARD +30 31\n"), check_scores=False)
    assert game.scores == [26, 0]


def test_turns_stops_after_n_turn_lines() -> None:
    record = gcg.load(DATA / "rules_example.gcg")
    after_two = gcg.replay(record, turns=2)
    assert after_two.scores == [26, 15]  # the challenge bonus belongs to turn 2
    assert gcg.replay(record, turns=0).board.is_empty()


def test_word_check_with_a_lexicon() -> None:
    class Words:
        def __init__(self, words: set[str]) -> None:
            self.words = words

        def contains(self, tiles) -> bool:
            return "".join(chr(64 + t) for t in tiles) in self.words

        def has_anagram(self, tiles) -> bool:
            return self.contains(sorted(tiles))

    words = {"QUITE", "MESQUITE", "INFANCY", "QI", "UN", "IF", "TA", "EN", "RECOUNTS"}
    record = gcg.load(DATA / "reference_game.gcg")
    game = gcg.replay(record, lexicon=Words(words), check_words=True)
    assert game.lexicon is not None and game.scores == [136, 97]
    with pytest.raises(GcgError) as err:
        gcg.replay(record, lexicon=Words(words - {"TA"}), check_words=True)
    assert (
        err.value.line == 10 and "Ta is not in the word list" in err.value.message
    )  # the blank shows
    # a withdrawn phony is not held against the file
    example = gcg.load(DATA / "rules_example.gcg")
    valid = {"HOARD", "JOT", "DILUENT", "BOYS", "HOARDS"}
    assert gcg.replay(example, lexicon=Words(valid), check_words=True).scores == [15, 19]
    # without check_words the lexicon only becomes the game's word list
    assert gcg.replay(record, lexicon=Words(set())).scores == [136, 97]


def test_wrong_score_and_wrong_total_name_their_line() -> None:
    text = (DATA / "reference_game.gcg").read_text(encoding="utf-8")
    with pytest.raises(GcgError) as err:
        gcg.replay(gcg.loads(text.replace("+57 57", "+58 58")))
    assert err.value.line == 8
    assert "8A MES..... scores +57, not +58" in err.value.message
    with pytest.raises(GcgError) as err:
        gcg.replay(gcg.loads(text.replace("+57 57", "+57 56")))
    assert err.value.line == 8 and "total is 57, not 56" in err.value.message
    with pytest.raises(GcgError) as err:
        gcg.replay(gcg.loads(text.replace("+40 97", "+40 98")))
    assert err.value.line == 12 and str(err.value).startswith("line 12: ")


@pytest.mark.parametrize(
    ("old", "new", "line", "fragment"),
    [
        ("(challenge) +5 15", "(challenge) +10 20", 10, "challenge scores +5, not +10"),
        ("-- -101 36", "-- -101 37", 18, "total is 36, not 37"),
        ("(CDEGKPW) -20 15", "(CDEGKPW) -21 14", 25, "scores -20, not -21"),
        ("(time) -10 19", "(time) -10 18", 27, "total is 19, not 18"),
        ("(AEINRST) -7 29", "(AEINRST) -7 28", 26, "total is 29, not 28"),
        ("BOYs +21 36", "BOYs +21 35", 13, "total is 36, not 35"),
        ("-AAIOQV +0 35", "-AAIOQV +0 36", 15, "total is 35, not 36"),
    ],
)
def test_every_line_kind_checks_score_and_total(
    old: str, new: str, line: int, fragment: str
) -> None:
    text = (DATA / "rules_example.gcg").read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(GcgError) as err:
        gcg.replay(gcg.loads(text.replace(old, new)))
    assert err.value.line == line and fragment in err.value.message


# -- strict writing -----------------------------------------------------------------------------


def test_written_file_layout() -> None:
    game = gcg.replay(gcg.load(DATA / "reference_game.gcg"))
    lines = gcg.dumps(game).splitlines()
    assert lines[0] == "#character-encoding UTF-8"
    assert lines[1:3] == [
        "#player1 Ann_Reference Ann Reference",
        "#player2 Bob_Reference Bob Reference",
    ]
    assert "#lexicon NWL23" in lines and "#tile-set tessera-rules naspa" in lines
    assert any(line.startswith("#tile-set tessera-seed ") for line in lines)
    assert ">Ann_Reference: EINQTUY 8D QUITE +48 48" in lines
    assert ">Bob_Reference: AEMORST 8A MES..... +57 57" in lines
    assert ">Ann_Reference: CFINNY? 9D INFaNCY +88 136" in lines
    assert "#tile-set tessera-incomplete" in lines
    assert lines[-1].startswith("#rack1 ")  # the player to move: ann, who moved first
    assert lines[-2].startswith("#tile-set tessera-rack Bob_Reference ")
    assert not any("(" in line for line in lines if line.startswith(">"))


def test_writer_marks_rules_and_variants() -> None:
    rules = PRESETS["wespa"].replace(clock=TimeControl(initial_ms=60_000), rack_size=9)
    game = Game(rules, players=["Ann Lee", "Ann:Lee"], seed=4)
    game.play("-")
    text = gcg.dumps(game)
    assert "#player1 Ann_Lee Ann Lee" in text and "#player2 Ann_Lee_2 Ann:Lee" in text
    assert '#tile-set tessera-rules wespa {"clock":{' in text and '"rack_size":9' in text
    again = gcg.replay(gcg.loads(text))
    assert again.rules == rules and again.players == ["Ann Lee", "Ann:Lee"]
    clabbers = Game("clabbers", players=["A", "B"], seed=1)
    assert "#game-type wordsmog" in gcg.dumps(clabbers)


def test_seeded_file_replays_the_same_future() -> None:
    game, _ = play_random_game("naspa", 11, max_actions=20)
    again = gcg.replay(gcg.loads(gcg.dumps(game)))
    assert again.seed == game.seed
    assert again.bag_tiles() == game.bag_tiles()
    assert again._bag == game._bag  # the seeded draws were reproduced, not scripted


@pytest.mark.parametrize("seed", range(60))
def test_a_seeded_record_that_leaves_its_seeded_course_replays(seed: int) -> None:
    """With ``tessera-seed`` the replay follows the seeded bag until a rack differs; from
    there every rack is pinned to the file, so a tile another player got from the seed (the
    Q, for seeds 9 and 11) can still be drawn as the file shows (CI found it: 3 % of round
    trips failed)."""
    record = dataclasses.replace(gcg.load(DATA / "double_challenge.gcg"), seed=seed)
    game = gcg.replay(record)
    assert game.scores == [26, 31]
    assert gcg.replay(gcg.loads(gcg.dumps(game))).scores == [26, 31]


def test_unfinished_game_keeps_racks_and_the_turn() -> None:
    unfinished = Game("naspa", players=["Ann", "Bob"], seed=3)
    unfinished.play("-")
    text = gcg.dumps(unfinished)
    assert "#tile-set tessera-incomplete" in text and "\n#rack2 " in text  # Bob to move
    again = gcg.replay(gcg.loads(text))
    assert again.to_move == 1 and same_game(unfinished, again)


def test_endings_no_line_shows() -> None:
    game = Game("naspa", players=["Ann", "Bob"], seed=2)
    game.play("-")
    game.resign("Ann")
    text = gcg.dumps(game)
    assert "#tile-set tessera-end resigned Ann" in text
    again = gcg.replay(gcg.loads(text))
    assert again.result == game.result and same_game(game, again)
    rules = PRESETS["naspa"].replace(challenge_rule=ChallengeRule.TRIPLE)
    triple = Game(rules, players=["Ann", "Bob"], seed=2)
    play = random_play(triple, random.Random(0))
    assert play is not None
    triple.play(play)
    triple.challenge("Bob")  # no lexicon: the play is valid, the challenger loses the game
    text = gcg.dumps(triple)
    assert "#tile-set tessera-end triple_challenge Bob" in text
    assert same_game(triple, gcg.replay(gcg.loads(text)))


@pytest.mark.parametrize("preset_name", ["naspa", "woogles"])
def test_max_overtime_endings(preset_name: str) -> None:
    game = Game(preset_name, players=["Ann", "Bob"], seed=6, first=0)
    game.play("-", elapsed_ms=30 * 60_000)  # 5 minutes over a 25-minute clock
    game.play("-", elapsed_ms=1_000)
    game.time_expired("Ann", 6 * 60_000)  # 11 minutes over: the flag fell at 10:00.001
    assert game.is_over
    text = gcg.dumps(game)
    reason = "max_overtime" if preset_name == "naspa" else "timeout_forfeit"
    assert f"#tile-set tessera-end {reason} Ann" in text
    if preset_name == "naspa":
        assert ">Ann: " in text and "(time) -110 -110" in text
    else:  # a loss on time is the whole penalty: no overtime points on top
        assert "(time)" not in text
    again = gcg.replay(gcg.loads(text))
    assert same_game(game, again) and again.result is not None
    assert again.result.reason.value == reason


def test_ended_by_request() -> None:
    rules = PRESETS["naspa"].replace(scoreless_end=ScorelessEnd.ON_REQUEST)
    game = Game(rules, players=["Ann", "Bob"], seed=6, first=0)
    for _ in range(6):
        game.play("-")
    game.end_by_request("Ann")
    text = gcg.dumps(game)
    assert "#tile-set tessera-end ended_by_request Ann" in text
    lines = text.splitlines()
    assert lines.index("#tile-set tessera-end ended_by_request Ann") < min(
        i for i, line in enumerate(lines) if "(" in line
    )
    assert same_game(game, gcg.replay(gcg.loads(text)))


# -- round trips of random games under every preset ---------------------------------------------

ROUND_TRIP_CASES = [
    (name, rule, players, seed)
    for name in sorted(PRESETS)
    if name != "duplicate"
    for rule in (None, ChallengeRule.DOUBLE, ChallengeRule.PENALTY)
    for players, seed in ((("Ann", "Bob"), 1), (("Ann", "Bob", "Cy", "Di"), 2))
    if PRESETS[name].min_players <= len(players) <= PRESETS[name].max_players
    and (rule is None or rule is not PRESETS[name].challenge_rule)
]


@pytest.mark.parametrize(("name", "rule", "players", "seed"), ROUND_TRIP_CASES)
def test_random_games_round_trip(name: str, rule, players, seed: int) -> None:
    rules = PRESETS[name] if rule is None else PRESETS[name].replace(challenge_rule=rule)
    game, _ = play_random_game(
        rules, seed, players, lexicon=RejectingLexicon(seed), max_actions=120, pass_after=60
    )
    text = gcg.dumps(game)
    again = gcg.replay(gcg.loads(text))
    assert same_game(game, again)
    assert gcg.dumps(again) == text


# -- bad input ------------------------------------------------------------------------------------

P = ">ann: ADEHORT 8D HOARD +26 26\n"

MALFORMED = [
    # (text, line, fragment of the message)
    ("#player1 ann Ann\n#character-encoding UTF-8\n", 2, "first line"),
    ("#character-encoding KOI8-R\n", 1, "unknown character encoding"),
    (HEADER + "just some text\n", 4, "not a pragma"),
    (HEADER + "#\n", 4, "without a pragma name"),
    (HEADER + ">ann ADEHORT 8D HOARD +26 26\n", 4, "':' after the nick is missing"),
    (HEADER + ">: ADEHORT 8D HOARD +26 26\n", 4, "needs a player nickname"),
    (HEADER + ">ann:\n", 4, "nothing after ':'"),
    (HEADER + ">ann: ADEHORT\n", 4, "not followed by a move"),
    (HEADER + ">ann: ADEHORT 8D\n", 4, "has no word"),
    (HEADER + ">ann: ADEHORT 8D HOARD\n", 4, "the score is missing"),
    (HEADER + ">ann: ADEHORT 8D HOARD +26\n", 4, "cumulative score is missing"),
    (HEADER + ">ann: ADEHORT 8D HOARD 26 26\n", 4, "signed number"),
    (HEADER + ">ann: ADEHORT 8D HOARD +26 x26\n", 4, "not a whole number"),
    (HEADER + ">ann: ADEHORT 8D HOARD -26 -26\n", 4, "a play cannot score"),
    (HEADER + ">ann: ADEH0RT 8D HOARD +26 26\n", 4, "rack 'ADEH0RT' is not tiles"),
    (HEADER + ">ann: ADEHORT 8D HO4RD +26 26\n", 4, "word 'HO4RD' is not tiles"),
    (HEADER + ">ann: ADEHORT 8D ..... +26 26\n", 4, "places no tile"),
    (HEADER + ">ann: ADEHORT ZZ9 HOARD +26 26\n", 4, "is not a move"),
    (HEADER + ">ann: ADEHORT 8D HO(ARD +26 26\n", 4, "'(' is never closed"),
    (HEADER + ">ann: ADEHORT - +5 26\n", 4, "a pass or exchange scores +0"),
    (HEADER + ">ann: ADEHORT -A#B +0 0\n", 4, "exchanged tiles"),
    (HEADER + ">ann: ADEHORT (time) +10 10\n", 4, "time penalty must be negative"),
    (HEADER + ">ann: ADEHORT (ADEHORX) -10 -10\n", 4, "repeats the rack"),
    (HEADER + ">ann: ADEHORT (ADEHORT) +10 10\n", 4, "end-rack penalty must be negative"),
    (HEADER + ">ann: (ADE +10 10\n", 4, "'(' without ')'"),
    (HEADER + ">bob: ABC -- -10 0\n", 4, "must come right after the same player's play"),
    (HEADER + P + ">bob: ADEHORT -- -26 0\n", 5, "must come right after the same player's play"),
    (HEADER + P + ">ann: ADEHORX -- -26 0\n", 5, "differs from the play's rack"),
    (HEADER + P + ">ann: ADEHORT -- +26 0\n", 5, "withdrawn play's score must be negative"),
    ("#player1 ann Ann\n#player1 bob Bob\n", 2, "declared twice"),
    ("#player1 ann Ann\n#player2 ann Bob\n", 2, "used by two players"),
    ("#player1 ann Ann\n#player3 bob Bob\n", 2, "#player2 is missing"),
    ("#player5 ann Ann\n", 1, "numbered 1 to 4"),
    ("#player1\n", 1, "needs a nickname"),
    ("#player1 a:b Ann\n", 1, "may not contain ':'"),
    (HEADER + ">cy: ADEHORT 8D HOARD +26 26\n", 4, "unknown player 'cy'"),
    (HEADER + P + "#title Too late\n", 5, "must come before the first event"),
    ("#game-type scrabble\n", 1, "unknown #game-type"),
    ("#board-layout Hexagon\n", 1, "unknown board layout"),
    ("#tile-distribution klingon\n", 1, "unknown tile distribution"),
    ("#lexicon\n", 1, "#lexicon needs one lexicon name"),
    ("#id woogles\n", 1, "#id needs an authority"),
    ("#tile CH\n", 1, "#tile needs one character"),
    ("#tessera-rules nonesuch\n", 1, "no rules preset"),
    ("#tessera-rules naspa {bad json\n", 1, "not valid JSON"),
    ('#tessera-rules naspa {"rack_sizes":7}\n', 1, "unknown rules field"),
    ('#tessera-rules naspa {"rack_size":99}\n', 1, "do not make valid rules"),
    ("#tessera-seed seven\n", 1, "whole number"),
    (HEADER + P + "#tessera-end vanished ann\n", 5, "#tessera-end needs a reason"),
    (HEADER + P + "#rack3 ABC\n", 5, "there is no player 3"),
    (HEADER + P + "#rack1 AB1\n", 5, "is not tiles"),
    ("#incomplete AB-C\n", 1, "is not tiles"),
]

REPLAY_ERRORS = [
    (HEADER + ">ann: ADEHORT 8D HOARD +27 27\n", 4, "scores +26, not +27"),
    (HEADER + ">ann: ADEHORT 8D HOARD +26 25\n", 4, "total is 26, not 25"),
    (HEADER + ">ann: ADEHORT 8D QUITE +48 48\n", 4, "not on ann's rack (ADEHORT): IQU"),
    (HEADER + P + ">bob: ?BEJORT 1A JOT +10 10\n", 5, "must touch a tile"),
    (HEADER + P + ">ann: ADEHORT 9D HOARD +26 52\n", 5, "it is bob's turn, not ann's"),
    (HEADER + ">ann: ADEHORT 8D .OARD +26 26\n", 4, "that square is empty"),
    (HEADER + P + ">bob: ?BEJXRT E7 JXT +10 10\n", 5, "the board has O there"),
    (HEADER + ">ann: ADEHORÑ 8D HOARD +26 26\n", 4, "not a tile of the english alphabet"),
    (HEADER + ">ann: ADEHORT 8L HOARD +26 26\n", 4, "runs off the board"),
    (HEADER + ">ann: ADEHORT 16A HOARD +26 26\n", 4, "row 16 is off the board"),
    (HEADER + ">ann: ADEHORT (challenge) +5 5\n", 4, "no play that can be challenged"),
    (HEADER + P + ">ann: (ABC) +10 36\n", 5, "the game is not over"),
    (HEADER + ">ann: ADEHORTS 8D HOARD +26 26\n", 4, "a rack holds 7"),
    (HEADER + ">ann: QQ 8D QQ +40 40\n", 4, "not all left"),
    (HEADER + ">ann: AB -3 +0 0\n", 4, "cannot exchange 3 tiles"),
    (
        HEADER + ">ann: A - +0 0\n>bob: B - +0 0\n" * 3 + ">ann: A 8D AB +4 4\n",
        10,
        "expected an end-rack penalty for ann",
    ),
    (
        HEADER + P + ">bob: ?BEJORT E7 J.T +10 10\n>ann: EILNQTU (challenge) +5 31\n",
        6,
        "names the challenged player bob",
    ),
    (
        HEADER + P + ">bob: ?BEJORT E7 J.T +10 10\n>bob: BEORSY? (challenge) -5 5\n",
        6,
        "names the challenger",
    ),
    (
        HEADER + P + ">bob: ?BEJORT E7 J.T +10 10\n>bob: BEORSY? (challenge) +5 15\n",
        6,
        "point-penalty",
    ),
]


@pytest.mark.parametrize(("text", "line", "fragment"), MALFORMED + REPLAY_ERRORS)
def test_bad_input_names_the_problem_and_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(GcgError) as err:
        gcg.replay(gcg.loads(text), rules="naspa" if "point-penalty" in fragment else None)
    assert isinstance(err.value, ValueError)
    assert err.value.line == line, str(err.value)
    assert fragment in err.value.message, str(err.value)


def test_bad_input_count() -> None:
    texts = [t for t, _, _ in MALFORMED + REPLAY_ERRORS]
    assert len(set(texts)) >= 50


def test_void_rules_cannot_withdraw() -> None:
    text = HEADER + P + ">ann: ADEHORT -- -26 0\n"
    with pytest.raises(GcgError) as err:
        gcg.replay(gcg.loads(text), rules="casual")
    assert err.value.line == 5 and "can no longer be challenged" in err.value.message


def test_bad_input_leaves_nothing_half_done() -> None:
    record = gcg.loads(HEADER + P)
    before = repr(record)
    with pytest.raises(GcgError):
        gcg.replay(record, rules="wwf")  # another board layout: the play scores differently
    assert repr(record) == before
    assert gcg.replay(record).scores == [26, 0]


def test_the_racks_a_file_gives_at_its_end_are_all_kept() -> None:
    """An unfinished game's racks, as its record ends (``#tile-set tessera-rack``, ``#rackN``),
    are set together: setting Cy's FIMNOQT took the M from Ann's ACEIMPS (the bag had none,
    Bob's drawn rack had the other) and gave her a blank — a round trip of three_players.gcg
    failed so, once in about 300 random seeds."""
    text = (
        "#character-encoding UTF-8\n#player1 Ann_Three Ann Three\n#player2 Bob_Three Bob Three\n"
        "#player3 Cy_Three Cy Three\n#tile-set tessera-rules hasbro\n"
        "#tile-set tessera-seed 5694470442034765361 first-given\n"
        ">Ann_Three: ADEHORT 8D HOARD +26 26\n>Bob_Three: BEJORT? E7 J.T +10 10\n"
        ">Cy_Three: EILNQTU H8 .ILUENT +9 9\n>Ann_Three: ACEIMPS - +0 26\n"
        "#tile-set tessera-incomplete\n#tile-set tessera-rack Ann_Three ACEIMPS\n"
        "#tile-set tessera-rack Cy_Three FIMNOQT\n#rack2 BEEIOR?\n"
    )
    game = gcg.replay(gcg.loads(text))
    assert [str(game.rack(p)) for p in range(3)] == ["ACEIMPS", "BEEIOR?", "FIMNOQT"]
