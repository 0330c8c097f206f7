"""TSH division files (``.t``) and ``config.tsh``: reading, writing, both ways through the
division model, and precise errors with line numbers."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tessera.formats.tsh import (
    MAX_LINE,
    TshError,
    divisions_of,
    dumps,
    from_division,
    loads,
    read_config,
    to_division,
)
from tessera.tournament import Division, GameKind, Pairing, ScoringSettings

DATA = Path(__file__).parent / "data" / "tsh"


def test_hand_written_file_imports_with_standings_worked_by_hand() -> None:
    """``tests/data/tsh/a.t`` is written by hand to TSH's documented format; see
    ``tests/data/tsh/README.md`` for where each part of the format is described
    (http://tsh.poslfit.com/doc/config.html, http://tsh.poslfit.com/doc/entry.html).

    By hand: Buddhdev 2 wins +44 (11 + 110 - 77); Holden 1.5 +156 (-11 + 167 + 0); Chew 1.5
    -70 (40 - 110 + 0); Castellano 1 +10 (-40, bye +50); Late 1 -140 (forfeit -50, -167,
    +77)."""
    d = to_division(loads((DATA / "a.t").read_text()), "A", 3)
    got = [(s.entrant.name, s.points, s.spread) for s in d.standings()]
    assert got == [
        ("Buddhdev, Anand", 2.0, 44),
        ("Holden, Stewart", 1.5, 156),
        ("Chew, John", 1.5, -70),
        ("Castellano, Vince", 1.0, 10),
        ("Late, Comer", 1.0, -140),
    ]
    firsts = {s.entrant.name.split(",")[0]: (s.firsts, s.seconds, s.byes, s.high_game)
              for s in d.standings()}
    assert firsts == {
        "Chew": (2, 1, 0, 420), "Holden": (1, 2, 0, 500), "Buddhdev": (2, 1, 0, 460),
        "Castellano": (0, 1, 1, 380), "Late": (1, 1, 0, 377),
    }
    assert [p.player_class for p in d.players] == ["A", "A", "B", "B", "B"]
    assert [p.active for p in d.players] == [True, True, True, False, True]
    assert d.players[0].extra == (("newr", "1910 1895 1902"),)
    assert [r.kind for r in d.player_rounds(5)][:1] == ["missed"]


def test_a_file_reads_and_writes_exactly() -> None:
    text = (DATA / "a.t").read_text()
    assert dumps(loads(text)) == text
    # through the model too: every field, the unknown newr included, comes back
    d = to_division(loads(text), "A", 3)
    assert dumps(from_division(d)) == text


def played_division() -> Division:
    """Byes, both kinds of late entry, a withdrawal, classes, an unplayed last round."""
    d = Division("B", 4)
    for name, rating, klass in (("Ann", 1800, "A"), ("Bob", 1700, None), ("Cy", 1600, "B")):
        d.add_player(name, rating, player_class=klass)
    d.pair_round([Pairing(2, 1, 1), Pairing(3, None, 0)])
    d.record_result(1, 1, 455, 2, 402)
    d.add_player("Di", 1500, missed="forfeit")
    d.add_player("Eve", 1400, missed="bye")
    d.pair_round([Pairing(1, 3, 1), Pairing(4, 5, 2), Pairing(2, None, 0)])
    d.record_result(2, 1, 380, 3, 380)
    d.record_result(2, 4, 500, 5, 320)
    d.withdraw(2)
    d.pair_round([Pairing(5, 1, 1), Pairing(3, 4, 2)])
    return d


def test_tessera_file_reads_back_identically() -> None:
    d = played_division()
    text = dumps(from_division(d))
    again = to_division(loads(text), "B", 4)
    assert dumps(from_division(again)) == text
    assert again.rounds == d.rounds
    assert again.standings() == d.standings()
    assert [(p.name, p.rating, p.player_class, p.active) for p in again.players] == [
        (p.name, p.rating, p.player_class, p.active) for p in d.players
    ]
    assert text.splitlines()[3] == "Di 1500 0 5 3; -50 500; p12 0 1 2; board 0 2 2"


def test_forfeit_is_written_as_tsh_records_one_and_reads_back_as_a_forfeit() -> None:
    """TSH records a forfeit as two rounds without opponent, +50 and -50 ("enter one player
    number and one score (usually 50, or -50 for a forfeit)",
    http://tsh.poslfit.com/doc/entry.html, "Entering Scores"); Tessera gives both the board
    the game was paired at, and reads such a pair back as the forfeit."""
    d = Division("F", 1)
    d.add_player("Ann", 1500)
    d.add_player("Bob", 1500)
    d.pair_round([Pairing(2, 1, 1)])
    d.record_forfeit(1, 2)
    text = dumps(from_division(d))
    assert text == "Ann 1500 0; 50; p12 0; board 1\nBob 1500 0; -50; p12 0; board 1\n"
    again = to_division(loads(text), "F", 1)
    assert again.standings() == d.standings()
    assert [s.byes for s in again.standings()] == [0, 0]
    (game,) = again.rounds[0]
    # what TSH does not record: who was to go first (the lower number is put first)
    assert (game.kind, game.forfeited_by, game.board) == (GameKind.FORFEIT, 2, 1)
    assert (game.first, game.second, game.first_known) == (1, 2, False)
    assert dumps(from_division(again)) == text


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        # at board 0: a bye and a forfeit loss, as TSH itself counts them
        ("Ann 1500 0; 50; board 0\nBob 1500 0; -50; board 0\n", ["bye", "missed"]),
        # not the same spread: no one forfeit
        ("Ann 1500 0; 50; board 3\nBob 1500 0; -25; board 3\n", ["bye", "missed"]),
        # two byes at one board
        ("Ann 1500 0; 50; board 3\nBob 1500 0; 50; board 3\n", ["bye", "bye"]),
        # the board is a game's: the unopposed rounds are not a forfeit
        ("Ann 1500 0; 50; board 1\nBob 1500 0; -50; board 1\nCy 1 4; 300; board 1\n"
         "Di 1 3; 200; board 1\n", ["bye", "missed", "game", "game"]),
    ],
)
def test_only_a_matching_pair_at_a_free_board_reads_as_a_forfeit(
    text: str, kinds: list[str]
) -> None:
    d = to_division(loads(text), "F", 1)
    assert [d.player_rounds(p.number)[0].kind for p in d.players] == kinds


def test_forfeit_with_its_own_spread_reads_back() -> None:
    d = to_division(loads("Ann 1500 0; -30; board 2\nBob 1500 0; 30; board 2\n"), "F", 1)
    (game,) = d.rounds[0]
    assert (game.kind, game.forfeited_by, game.spread) == (GameKind.FORFEIT, 1, 30)
    assert [(s.entrant.name, s.points, s.spread) for s in d.standings()] == [
        ("Bob", 1.0, 30), ("Ann", 0.0, -30)]


def test_career_games_are_tsh_lifeg() -> None:
    d = to_division(loads("Ann 1500 2; 400; lifeg 120\nBob 0 1; 300\n"), "L", 1)
    assert [p.rated_games for p in d.players] == [120, None]
    assert d.players[0].extra == ()
    assert dumps(from_division(d)) == (
        "Ann 1500 2; 400; p12 4; board 1; lifeg 120\nBob 0 1; 300; p12 4; board 1\n"
    )
    for bad, message in (("lifeg 1 2", "lifeg has 2 values"), ("lifeg x", "lifeg 'x' is not"),
                         ("lifeg -5", "lifeg -5 out of")):
        with pytest.raises(TshError, match=f"player 1 .Ann.: {message}"):
            to_division(loads(f"Ann 1500 2; 400; {bad}\nBob 0 1; 300\n"), "L", 1)


def forfeit_late_entry_and_withdrawal() -> Division:
    d = Division("R", 4)
    for name, rating in (("Ann", 1800), ("Bob", 1700), ("Cy", 1600), ("Di", 1500)):
        d.add_player(name, rating)
    d.pair_round([Pairing(1, 2, 1), Pairing(3, 4, 2)])
    d.record_result(1, 1, 420, 2, 380)
    d.record_forfeit(1, 4)  # Di does not come: Cy wins by forfeit
    d.add_player("Eve", 1400, missed="forfeit")  # late: round 1 a forfeit loss
    d.add_player("Fay", 1300, missed="bye")  # late: round 1 a bye
    d.pair_round([Pairing(3, 1, 1), Pairing(5, 2, 2), Pairing(4, 6, 3)])
    d.record_result(2, 3, 400, 1, 350)
    d.record_forfeit(2, 2)  # Bob does not come back: Eve wins by forfeit
    d.record_result(2, 4, 390, 6, 390)
    d.withdraw(2)  # ... and Bob withdraws
    d.pair_round([Pairing(1, 5, 1), Pairing(6, 3, 2), Pairing(4, None, 0)])
    d.record_result(3, 1, 500, 5, 300)
    d.record_result(3, 6, 333, 3, 444)
    return d


def test_forfeit_late_entry_and_withdrawal_round_trip_to_the_same_standings() -> None:
    d = forfeit_late_entry_and_withdrawal()
    text = dumps(from_division(d))
    again = to_division(loads(text), "R", 4)
    assert again.standings() == d.standings()  # wins, spread, byes, firsts, every round
    # by hand: Cy W+50 (forfeit) W+50 W+111; Ann W+40 L-50 W+200; Di L-50 (forfeit) T W+50
    # (bye); Fay W+50 (bye) T L-111; Eve L-50 (missed) W+50 (forfeit) L-200; Bob L-40 L-50
    assert [(s.entrant.name, s.points, s.spread, s.byes) for s in again.standings()] == [
        ("Cy", 3.0, 211, 0), ("Ann", 2.0, 190, 0), ("Di", 1.5, 0, 1), ("Fay", 1.5, -61, 1),
        ("Eve", 1.0, -200, 0), ("Bob", 0.0, -90, 0),
    ]
    assert dumps(from_division(again)) == text
    # what differs in kind: TSH records no round a player joined in (the late entries read
    # back as playing from round 1, their missed rounds a forfeit loss and a bye) ...
    assert [p.joined_round for p in d.players] == [1, 1, 1, 1, 2, 2]
    assert [p.joined_round for p in again.players] == [1] * 6
    assert [again.player_rounds(n)[0].kind for n in (5, 6)] == ["missed", "bye"]
    # ... and not who was to go first in a forfeited game (the lower number is put first)
    forfeits = [(r, g) for r, games in enumerate(again.rounds, 1) for g in games
                if g.kind is GameKind.FORFEIT]
    assert [(r, g.first, g.second, g.forfeited_by, g.first_known) for r, g in forfeits] == [
        (1, 3, 4, 4, False), (2, 2, 5, 2, False)]
    # everything else is the same: players (withdrawal included), and every other game
    assert [replace(p, joined_round=1, extra=()) for p in again.players] == [
        replace(p, joined_round=1) for p in d.players]
    assert again.players[1].extra == (("off", "1"),) and not again.players[1].active
    assert [[g for g in games if g.kind is not GameKind.FORFEIT] for games in again.rounds] == [
        [g for g in games if g.kind is not GameKind.FORFEIT] for games in d.rounds]


def test_a_bye_worth_other_than_the_settings_keeps_its_spread() -> None:
    d = to_division(loads("Ann 1500 0; 100\nBob 1400 0; -25\n"), "G", 1)
    assert [(s.entrant.name, s.spread, s.byes) for s in d.standings()] == [
        ("Ann", 100, 1), ("Bob", -25, 0)]
    assert dumps(from_division(d)) == (
        "Ann 1500 0; 100; p12 0; board 0\nBob 1400 0; -25; p12 0; board 0\n"
    )


def test_unknown_firsts_and_missing_boards() -> None:
    d = to_division(loads("Ann 1500 2; 400\nBob 1400 1; 300\n"), "H", 2, ScoringSettings())
    (game,) = d.rounds[0]
    assert (game.first, game.second, game.board, game.first_known, game.kind) == (
        1, 2, 1, False, GameKind.GAME)
    assert d.standings()[0].firsts == 0


BAD_FILES = [
    ("Ann 1500 2; 400\n1600 1; 300\n", r"line 2: expected a name and then a rating"),
    ("Ann 1500 2; 4x0\nBob 1600 1; 300\n", r"line 1: score '4x0' is not a whole number"),
    ("Ann 1500 3; 400\nBob 1600 1; 300\n", r"line 1: round 1 opponent 3 is no player"),
    ("Ann 1500 2; 400 350\nBob 1600 1; 300\n", r"line 1: 2 scores for 1 paired rounds"),
    ("# comment\nAnn 1500 2; 400; p-12 1\nBob 1600 1; 300\n", r"line 2: extra field name 'p-12'"),
    ("Ann 1500 2; 400\nBob 1600 1; 300\n" + "x" * (MAX_LINE + 1) + "\n",
     r"line 3: 8,193 characters; at most 8,192"),
    ("Ann 9999 2; 400\nBob 1600 1; 300\n", r"line 1: rating 9999 above"),
    ("Ann 1500 2; 400; ; p12 1\nBob 1600 1; 300\n", r"line 1: an empty extra field"),
]


@pytest.mark.parametrize(("text", "message"), BAD_FILES)
def test_bad_files_name_the_line(text: str, message: str) -> None:
    with pytest.raises(TshError, match=message) as caught:
        loads(text)
    assert "\n" not in str(caught.value)


BAD_DIVISIONS = [
    ("Ann 1500 2; 400\nBob 1600 0; 300\n", "player 1 .Ann., round 1: plays 2, but player 2"),
    ("Ann 1500 2; 400\nBob 1600 1\n", "only one of players 1 and 2 has a score"),
    ("Ann 1500 0; 0\n", "scored 0 is neither a bye nor a forfeit"),
    ("Ann 1500 2; 400; board x\nBob 1600 1; 300\n", "board value 'x' is not a whole number"),
    ("Ann 1500 2; 400; board 1\nBob 1600 1; 300; board 1\nCy 1 4; 1; board 1\n"
     "Di 1 3; 2; board 1\n", "board 1 is not a free board"),
]


@pytest.mark.parametrize(("text", "message"), BAD_DIVISIONS)
def test_inconsistent_divisions_are_refused(text: str, message: str) -> None:
    with pytest.raises(TshError, match=message):
        to_division(loads(text), "X", 3)


def test_a_gap_in_results_cannot_be_written() -> None:
    d = played_division()
    d.clear_result(1, 1)
    with pytest.raises(TshError, match="round 2 has a result but an earlier round has none"):
        from_division(d)


def test_config_basics() -> None:
    config = read_config((DATA / "config.tsh").read_text())
    assert config.divisions == (("a", "a.t"),)
    assert (config.max_rounds, config.track_firsts) == (3, True)
    (division,) = divisions_of(config, [("a.t", (DATA / "a.t").read_text())])
    assert (division.name, division.total_rounds, len(division.players)) == ("a", 3, 5)
    assert read_config("division a a.t\n").track_firsts is False


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("division a\n", "line 1: expected 'division NAME FILE'"),
        ("division a a.t\n# x\ndivision A b.t\n", "line 3: division 'A' is declared twice"),
        ("config max_rounds = seven\n", "line 1: max_rounds = 'seven' is not a number"),
        ("config max_rounds = 0\n", "line 1: max_rounds 0 out of 1 to"),
        ("config = 3\n", "line 1: expected 'config KEY = VALUE'"),
    ],
)
def test_bad_config_lines_are_named(text: str, message: str) -> None:
    with pytest.raises(TshError, match=message):
        read_config(text)


def test_a_config_division_without_its_file() -> None:
    with pytest.raises(TshError, match=r"division a: no text given for its file 'a\.t'"):
        divisions_of(read_config("division a a.t\n"), [])
