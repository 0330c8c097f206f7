"""Issue 9, item 12: the records Tessera writes read as they are in MAGPIE, Macondo and
Quackle, and still replay exactly in Tessera.

Each peer reader is modelled here from its public source — the line patterns it knows, in the
order it tries them, and the rules it enforces on a record's shape (what may follow what, who
moves first). The models check every line Tessera writes for a spread of games:

* MAGPIE, ``src/impl/gcg.c`` (``token_string_regex_pairs``, ``parse_gcg_line``,
  ``common_gcg_token_validation``, ``validate_game_event_order_and_index``): POSIX patterns
  searched anywhere in a line, first match wins; an unknown line is an error ("unrecognized
  GCG token") unless it continues a ``#note``; a note before any event is an error; nothing may
  follow ``#rack1``/``#rack2``; two players, each with a real name, no two alike; the game
  starts with player 1 on turn ("encountered an off turn move").
* Macondo, ``gcgio/gcg.go`` (``GCGRegexes``, ``parseLine``, ``addEventOrPragma``): pragmas
  anchored at the line start (``#tile-set``, ``#game-board``, ``#-``, ``#incomplete`` and
  ``#tile`` recognised and ignored); an unknown line is an error ("no match found for line")
  unless it continues a note; header pragmas after the first move are an error; two players.
* Quackle, ``quackleio/gcgio.cpp`` (``GCGIO::read``): ``#`` lines it does not know are
  ignored; ``#player`` needs a nickname and a name; a move line needs a rack and a move; moves
  are attributed by turn order, whatever the nickname, so ``#player1`` must move first.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest

from support.randomplay import Judge, endgame, play_randomly, random_play
from tessera.formats import gcg
from tessera.formats.gcg.write import player_nicks
from tessera.game import Game
from tessera.rules import PRESETS, preset

# -- MAGPIE --------------------------------------------------------------------------------------

# src/impl/gcg.c token_string_regex_pairs, in order; POSIX classes written as Python's
# ([[:space:]] \s, [[:alnum:]] [A-Za-z0-9], [[:digit:]] \d, [[:graph:]] [!-~]); regexec searches
MAGPIE_TOKENS: tuple[tuple[str, str], ...] = (
    ("player", r"#player([1-2])\s+(\S+)\s+(.+)"),
    ("title", r"#title\s*(.*)"),
    ("description", r"#description\s*(.*)"),
    ("id", r"#id\s*(\S+)\s+(\S+)"),
    ("rack1", r"#rack1 (\S+)"),
    ("rack2", r"#rack2 (\S+)"),
    ("encoding", r"#character-encoding ([!-~]+)"),
    ("move", r">(\S+):\s+(\S+)\s+([A-Za-z0-9]+)\s+(\S+)\s+[+](\d+)\s+(-?\d+)"),
    ("note", r"#note (.+)"),
    ("lexicon", r"#lexicon (.+)"),
    ("phony", r">(\S+):\s+(\S+)\s+--\s+-(\d+)\s+(-?\d+)"),
    ("pass", r">(\S+):\s+(\S+)\s+-\s+\+0\s+(-?\d+)"),
    ("challenge", r">(\S+):\s+(\S*)\s+\(challenge\)\s+(\+\d+)\s+(-?\d+)"),
    ("exchange", r">(\S+):\s+(\S+)\s+-(\S+)\s+\+0\s+(-?\d+)"),
    ("end_points", r">(\S+):\s+\((\S+)\)\s+(\+\d+)\s+(-?\d+)"),
    ("time", r">(\S+):\s+(\S*)\s+\(time\)\s+(-\d+)\s+(-?\d+)"),
    ("end_penalty", r">(\S+):\s+(\S+)\s+\((\S+)\)\s+(-\d+)\s+(-?\d+)"),
    ("game_type", r"#game-type (.*)"),
    ("tile_set", r"#tile-set (.*)"),
    ("board_layout", r"#board-layout (.*)"),
    ("tile_distribution", r"#tile-distribution (.*)"),
)
MAGPIE_EVENTS = {"move", "phony", "pass", "challenge", "exchange", "end_points", "time",
                 "end_penalty"}
MAGPIE_TURNS = {"move", "pass", "exchange"}
MAGPIE_UNIQUE_HEADER = {"title", "id", "lexicon", "board_layout", "tile_distribution",
                        "game_type"}
MAGPIE_HEADER = MAGPIE_UNIQUE_HEADER | {"player", "description"}


def magpie_problems(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and re.search(MAGPIE_TOKENS[6][1], lines[0]):
        lines = lines[1:]  # decode_gcg drops an encoding line when it is the first
    problems: list[str] = []
    players: dict[int, tuple[str, str]] = {}
    seen: dict[str, int] = {}
    previous = ""
    events = 0
    on_turn = 0
    for line in lines:
        token = next((name for name, rx in MAGPIE_TOKENS if re.search(rx, line)), "")
        if not token:
            if previous != "note" and line.strip():
                problems.append(f"unrecognized GCG token: {line}")
            continue
        if seen.get("rack1") or seen.get("rack2"):
            problems.append(f"encountered a game event after a last rack pragma: {line}")
        previous = token
        if token == "encoding":
            problems.append(f"encountered unexpected encoding pragma: {line}")
        if token in MAGPIE_HEADER and events:
            problems.append(f"encountered pragma after game event: {line}")
        if token in MAGPIE_UNIQUE_HEADER and seen.get(token):
            problems.append(f"encountered redundant pragma: {line}")
        if token in ("rack1", "rack2") and seen.get(token):
            problems.append(f"encountered redundant pragma: {line}")
        if token == "note" and not events:
            problems.append(f"encountered note before game event: {line}")
        if token == "player":
            m = re.search(MAGPIE_TOKENS[0][1], line)
            assert m is not None
            index = int(m.group(1)) - 1
            if index in players:
                problems.append(f"redundant player number: {line}")
            if any(name == m.group(3) for _, name in players.values()):
                problems.append(f"duplicate player name: {line}")
            if any(nick == m.group(2) for nick, _ in players.values()):
                problems.append(f"duplicate player nickname: {line}")
            players[index] = (m.group(2), m.group(3))
        if token in MAGPIE_EVENTS:
            nick = re.match(r">(\S+):", line)
            who = next((i for i, (n, _) in players.items() if nick and n == nick.group(1)), -1)
            if len(players) < 2:
                problems.append(f"encountered game event before both players were set: {line}")
            if who < 0:
                problems.append(f"unrecognized player: {line}")
            if token in MAGPIE_TURNS:
                if who != on_turn:
                    problems.append(f"encountered an off turn move: {line}")
                on_turn = 1 - on_turn
            events += 1
        seen[token] = seen.get(token, 0) + 1
    return problems


# -- Macondo -------------------------------------------------------------------------------------

# gcgio/gcg.go GCGRegexes, in order (pragmas anchored with ^, events searched anywhere)
MACONDO_TOKENS: tuple[tuple[str, str], ...] = (
    ("player", r"^#player([1-2])\s+(\S+)\s+(.+)"),
    ("title", r"^#title\s+(.*)"),
    ("description", r"^#description\s+(.*)"),
    ("id", r"^#id\s+(\S+)\s+(\S+)"),
    ("rack1", r"^#rack1\s+(\S+)"),
    ("rack2", r"^#rack2\s+(\S+)"),
    ("encoding", r"^#character-encoding\s+([!-~]+)"),
    ("move", r">(\S+):\s+(\S+)\s+(\w+)\s+(\S+)\s+\+(\d+)\s+(\d+)"),
    ("note", r"^#note\s+(.*)"),
    ("lexicon", r"^#lexicon\s+(.+)"),
    ("phony", r">(\S+):\s+(\S+)\s+--\s+-(\d+)\s+(\d+)"),
    ("pass", r">(\S+):\s+(\S+)\s+-\s+\+0\s+(\d+)"),
    ("challenge", r">(\S+):\s+(\S*)\s+\(challenge\)\s+\+(\d+)\s+(\d+)"),
    ("exchange", r">(\S+):\s+(\S+)\s+-(\S+)\s+\+0\s+(\d+)"),
    ("end_points", r">(\S+):\s+\((\S+)\)\s+\+(\d+)\s+(-?\d+)"),
    ("time", r">(\S+):(?:\s+(\S*))?\s+\(time\)\s+\+?\-(\d+)\s+(-?\d+)"),
    ("end_penalty", r">(\S+):\s+(\S+)\s+\((\S+)\)\s+\-(\d+)\s+(-?\d+)"),
    ("game_type", r"^#game-type\s+(.*)"),
    ("tile_set", r"^#tile-set\s+(.*)"),
    ("game_board", r"^#game-board\s+(.*)"),
    ("continuation", r"^#- (.*)"),
    ("board_layout", r"^#board-layout\s+(.*)"),
    ("tile_distribution", r"^#tile-distribution\s+(.*)"),
    ("incomplete", r"^#incomplete.*"),
    ("tile", r"^#tile (\S+)\s+(\S+)"),
)
MACONDO_STARTS_GAME = {"move", "pass", "exchange", "rack1", "rack2"}
MACONDO_HEADER = {"player", "title", "description", "id", "lexicon", "board_layout",
                  "tile_distribution", "game_type"}
MACONDO_EVENTS = MAGPIE_EVENTS


def macondo_problems(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and re.search(MACONDO_TOKENS[6][1], lines[0]):
        lines = lines[1:]  # encodingOrFirstLine consumes an encoding first line
    problems: list[str] = []
    players: list[str] = []
    started = False
    last = ""
    on_turn = 0
    for raw in lines:
        line = raw.strip()
        token = next((name for name, rx in MACONDO_TOKENS if re.search(rx, line)), "")
        if not token:
            if last != "note" and line:
                problems.append(f"no match found for line '{line}'")
            continue
        if token in MACONDO_STARTS_GAME and not started:
            if len(players) != 2:
                problems.append("wrong number of players defined")
            started = True
        if token == "encoding":
            problems.append("encoding line must be first line in file if present")
        if token in MACONDO_HEADER and started:
            problems.append(f"non-note pragmata should appear before event lines: {line}")
        if token == "player":
            m = re.search(MACONDO_TOKENS[0][1], line)
            assert m is not None
            if m.group(1) == "2" and players and players[0] == m.group(2):
                problems.append("two players with same nickname not supported")
            players.append(m.group(2))
        if token in MACONDO_EVENTS:
            nick = re.match(r">(\S+):", line)
            if not nick or nick.group(1) not in players:
                problems.append(f"player does not exist: {line}")
            elif token in MAGPIE_TURNS:
                if players.index(nick.group(1)) != on_turn:
                    problems.append(f"not this player's turn: {line}")
                on_turn = 1 - on_turn
        last = token
    return problems


# -- Quackle -------------------------------------------------------------------------------------


def quackle_problems(text: str) -> list[str]:
    """GCGIO::read: the errors it reports, and moves attributed by turn order (it reads the
    nickname of a move line only for end-rack bonuses)."""
    problems: list[str] = []
    players: list[str] = []
    turn = 0
    for line in text.split("\n"):
        strings = line.split()
        if line.startswith("#player"):
            if len(strings) < 2:
                problems.append(f"no player abbreviation in #player: {line}")
            elif len(strings) < 3:
                problems.append(f"no player name in #player: {line}")
            else:
                players.append(strings[1])
        elif line.startswith(">"):
            if len(strings) < 3:
                problems.append(f"incomplete move: {line}")
                continue
            rack, bite = strings[1], strings[2]
            if rack.startswith("(") or bite.startswith("--") or bite.startswith("("):
                continue  # end bonus, withdrawal, (time), (challenge): no turn of their own
            nick = strings[0][1:-1]
            if players and nick != players[turn % len(players)]:
                problems.append(f"move of {nick} read as {players[turn % len(players)]}'s")
            turn += 1
    return problems


READERS: dict[str, Callable[[str], list[str]]] = {
    "MAGPIE": magpie_problems,
    "Macondo": macondo_problems,
    "Quackle": quackle_problems,
}


# -- the games -----------------------------------------------------------------------------------


def second_seat_first() -> Game:
    game = Game("naspa", players=["Ann", "Bob"], seed=7, first=1)
    return play_randomly(game, random.Random(7))


def out_play_challenged() -> Game:
    game, out = endgame("naspa", 5, players=("Ann", "Bob"))
    challenger = game.players[1 - game.to_move]
    game.play(out)
    game.challenge(challenger)  # fails (no word list): the play stands, the game ends
    return game


def challenge_bonus() -> Game:
    game = Game("wespa", players=["Ann", "Bob"], seed=3, first=0)
    game.play(random_play(game, random.Random(3)))
    game.challenge("Bob")  # valid: +5 to Ann
    return play_randomly(game, random.Random(4), lambda g: len(g.history) > 8)


def phony_withdrawn() -> Game:
    game = Game("naspa", players=["Ann", "Bob"], seed=4, first=1)
    game.play(random_play(game, random.Random(1)))
    game.lexicon = Judge(game.alphabet, valid=False)
    game.challenge("Ann")
    game.lexicon = None
    return play_randomly(game, random.Random(2), lambda g: len(g.history) > 8)


def six_passes() -> Game:
    game = Game("naspa", players=["Ann", "Bob"], seed=9, first=0)
    play_randomly(game, random.Random(9), lambda g: len(g.history) >= 4)
    while not game.is_over:
        game.pass_turn()
    return game


def time_penalty() -> Game:
    game, out = endgame("naspa", 11, players=("Ann", "Bob"))
    game.play(out, elapsed_ms=26 * 60_000)
    game.pass_turn()
    return game


def resigned() -> Game:
    game = Game("naspa", players=["Ann", "Bob"], seed=2, first=1)
    play_randomly(game, random.Random(2), lambda g: len(g.history) >= 5)
    game.resign("Ann")
    return game


def unfinished() -> Game:
    game = Game("naspa", players=["Ann", "Bob"], seed=12, first=1)
    return play_randomly(game, random.Random(12), lambda g: len(g.history) >= 5)


def custom_rules_name() -> Game:
    rules = PRESETS["naspa"].replace(name="club #1 >weekly", exchange_min_bag=10)
    game = Game(rules, players=["Ann", "Bob"], seed=13, first=0)
    return play_randomly(game, random.Random(13), lambda g: len(g.history) >= 4)


def alike_names_and_notes() -> Game:
    game = Game("naspa", players=["Ann  Lee", "Ann Lee"], seed=14, first=1)
    play_randomly(game, random.Random(14), lambda g: len(g.history) >= 4)
    lines = gcg.dumps(game).splitlines()
    first_move = next(i for i, line in enumerate(lines) if line.startswith(">"))
    lines[first_move + 1 : first_move + 1] = ["#note a two-line note", "#note (its second line)"]
    return gcg.replay("\n".join(lines) + "\n")


def super_board() -> Game:
    game = Game("super", players=["Ann", "Bob"], seed=15, first=1)
    return play_randomly(game, random.Random(15), lambda g: len(g.history) >= 6)


GAMES: dict[str, Callable[[], Game]] = {
    "second seat moves first": second_seat_first,
    "out-play challenged": out_play_challenged,
    "challenge bonus": challenge_bonus,
    "phony withdrawn": phony_withdrawn,
    "six scoreless turns": six_passes,
    "time penalty": time_penalty,
    "resignation": resigned,
    "unfinished": unfinished,
    "custom rules name": custom_rules_name,
    "alike names, notes": alike_names_and_notes,
    "super board": super_board,
}


@pytest.fixture(scope="module", params=sorted(GAMES))
def written(request: pytest.FixtureRequest) -> tuple[Game, str]:
    game = GAMES[request.param]()
    return game, gcg.dumps(game)


@pytest.mark.parametrize("reader", sorted(READERS))
def test_peers_read_tessera_records_as_they_are(written: tuple[Game, str], reader: str) -> None:
    _, text = written
    assert READERS[reader](text) == []


def test_player1_is_the_first_mover(written: tuple[Game, str]) -> None:
    game, text = written
    player1 = re.search(r"^#player1 (\S+) ", text, re.M)
    first_event = re.search(r"^>(\S+):", text, re.M)
    assert player1 is not None and first_event is not None
    assert first_event.group(1) == player1.group(1)
    assert first_event.group(1) == player_nicks(game.players)[game.first]


def test_tessera_replays_its_records_exactly(written: tuple[Game, str]) -> None:
    game, text = written
    again = gcg.replay(text)
    assert again.players == game.players and again.first == game.first
    assert again.seed == game.seed and again.rules == game.rules
    assert again.scores == game.scores and again.result == game.result
    assert again.board == game.board and again.bag_tiles() == game.bag_tiles()
    assert [again.rack(i).tiles() for i in range(2)] == [game.rack(i).tiles() for i in range(2)]
    assert again._bag == game._bag  # the seeded draws themselves, not a scripted copy


def test_tessera_data_rides_in_lines_every_peer_ignores() -> None:
    text = gcg.dumps(resigned())
    data = [line for line in text.splitlines() if "tessera" in line]
    assert data and all(line.startswith("#tile-set tessera-") for line in data)
    assert {line.split()[1] for line in data} >= {
        "tessera-rules", "tessera-seed", "tessera-seats", "tessera-end"
    }
    for line in data:  # no peer pattern but #tile-set's claims the line
        assert next(name for name, rx in MAGPIE_TOKENS if re.search(rx, line)) == "tile_set"
        assert next(name for name, rx in MACONDO_TOKENS if re.search(rx, line)) == "tile_set"


def test_the_models_refuse_what_the_peers_refuse() -> None:
    # the records Tessera wrote before: seat order, and its own pragmas as pragmas
    old = (
        "#character-encoding UTF-8\n#player1 Ann Ann\n#player2 Bob Bob\n#lexicon NWL23\n"
        "#tessera-rules naspa\n#tessera-seed 7\n>Bob: AEINRST 8D RETAINS +74 74\n#incomplete\n"
    )
    assert "unrecognized GCG token: #tessera-rules naspa" in magpie_problems(old)
    assert "encountered an off turn move: >Bob: AEINRST 8D RETAINS +74 74" in magpie_problems(old)
    assert "no match found for line '#tessera-seed 7'" in macondo_problems(old)
    assert "move of Bob read as Ann's" in quackle_problems(old)
    assert "duplicate player name: #player2 b Ann" in magpie_problems(
        "#player1 a Ann\n#player2 b Ann\n"
    )
    assert "encountered note before game event: #note hi" in magpie_problems(
        "#player1 a A\n#player2 b B\n#note hi\n"
    )
    assert preset("naspa").challenge_rule.value == "double"


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("#player1 ann A\n#player2 bob B\n#tile-set tessera-seats ann zed\n", 3,
         "the seat order names ann, zed; the players are ann, bob"),
        ("#player1 ann A\n#player2 bob B\n>ann: AB - +0 0\n#tile-set tessera-rules naspa\n", 4,
         "#tile-set tessera-rules must come before the first event"),
        ("#player1 ann A\n#player2 bob B\n#tile-set tessera-rack zed ABC\n", 3,
         "#tile-set tessera-rack: no player 'zed'"),
        ("#tile-set tessera-seed 7 drawn\n", 1, "'drawn' after the seed is not 'first-given'"),
    ],
)
def test_tessera_data_lines_are_checked(text: str, line: int, fragment: str) -> None:
    with pytest.raises(gcg.GcgError) as info:
        gcg.loads(text)
    assert info.value.line == line and fragment in info.value.message


def test_other_programs_tile_set_lines_are_kept_but_not_used() -> None:
    text = "#player1 ann A\n#player2 bob B\n#tile-set standard English\n>ann: AB - +0 0\n" \
        "#tile-set late\n#game-board x\n>bob: CD - +0 0\n"
    record = gcg.loads(text)
    assert record.tessera_rules is None and record.seed is None
    assert [v for n, v, _ in record.pragmas if n == "tile-set"] == ["standard English", "late"]
