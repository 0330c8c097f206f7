"""Move generation (issue 4): the compiled core against the Python reference on random
positions (standard and Super boards, racks with 0/1/2 blanks, Spanish and Hungarian
digraphs, Clabbers), legality and scoring of every play, completeness by brute force, blank
designations, exchanges, top-N search, the lazy move list, ``Game.legal_moves`` and
``tessera moves``.

CI runs a few hundred random positions; the ``slow`` tests (``make test-slow``) run the full
differential set of more than 2,000."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import permutations, product
from pathlib import Path

import pytest
from click.testing import CliRunner

from tessera.board import Board
from tessera.game import Game
from tessera.legality import IllegalMove, check_play
from tessera.lexicon import Leaves, Lexicon
from tessera.move import PLAYED_THROUGH, Exchange, Move, Pass, Play
from tessera.movegen import MoveList, exchange_sizes, generate_moves, reference_moves, sort_key
from tessera.rules import Rules, Validity, preset
from tessera.scoring import score_play
from tessera.tiles import BLANK, BLANK_BIT, Rack, letter_of

SPANISH_WORDS = """
CHICO LLAMA PERRO NIÑO CALLE CARRO MUCHO OCHO NOCHE LECHE POLLO TORRE AÑO AÑOS MAÑANA CASA
MESA SOL LUNA AMOR ROSA PAN SAL MAR ORO AS ES LA EL LO NO SI YA MI TU SE TE DE EN UN UNA ALA
ASA OSO ESO ESA ELLA ELLO ECHO HACHA FECHA COCHE PECHO SILLA VALLE BELLO GALLO RIO TIO MANO
LEÑA PIÑA SEÑOR CAÑA BAÑO DAÑO SUEÑO NIÑA PERRA TIERRA GUERRA CERRO BARRO CORRER ARROZ CHE
CHA OLLA LLANO LLENO CALLO CAÑO PAÑO RATO GATO PATO SOPA COPA ROPA TORO LORO MOLINO CAMINO
AREA ALMA ARMA ANO ONDA ARENA CENA CERA LOMA TOMA RAMO REMO TEMA ZONA DIA VOZ LUZ PAZ CRUZ
HOY MAS MES LEY REY SER VER IR DAR HABER TENER POR CON SIN SUR NORTE ESTE OESTE COMER BEBER
""".split()

HUNGARIAN_WORDS = """
CSÓK CSAK CSEND GYÓGY GYERMEK GYÜMÖLCS LYUK HOLLÓ NYÁR NYÚL NYELV SZÓ SZÉP SZÍV SZEM SZÁZ
TYÚK ZSÁK ZSIR ZSEB ANYA APA EGY KÉT HÁZ KÉZ FA ÉG AZ EZ OK ÉN TE MI TI ŐK ÉS IS HA DE NE
MEGY LÁNY FIÚ KUTYA MACSKA ALMA KÖRTE SZILVA SZÉL VÍZ TŰZ FÖLD NAP HOLD CSILLAG MEGGY
HAGYMA PÉNZ SZÁM TESZ VESZ LESZ VAN NINCS MOST ITT OTT AKKOR ÍGY ÚGY HOGY MERT MÉG MÁR
SOK KEVÉS NAGY KIS JÓ ROSSZ ÚJ RÉGI MELEG HIDEG GYORS LASSÚ ÖREG FIATAL ÉDES SÓS KESERŰ
SZÉK ASZTAL ABLAK AJTÓ KERT UTCA VÁROS FALU ERDŐ MEZŐ TÓ TENGER HEGY VÖLGY BOLY GOLYÓ
""".split()


@dataclass
class Position:
    board: Board
    rack: list[int]
    bag_count: int
    label: str


def move_key(move: Move) -> tuple[object, ...]:
    """A move's identity and score, comparable across the generators."""
    return (sort_key(move), move.score if isinstance(move, Play) else 0)


def listing(moves: MoveList | list[tuple[Move, float]]) -> list[tuple[object, ...]]:
    """(identity, score, equity) of every move, in order."""
    pairs = moves.ranked() if isinstance(moves, MoveList) else moves
    return [(*move_key(m), e) for m, e in pairs]


def random_leaves(alphabet_size: int, seed: int) -> Leaves:
    """A leave table with values for every leave of one or two tiles and some longer ones."""
    rng = random.Random(seed)
    table: dict[tuple[int, ...], float] = {}
    for a in range(alphabet_size):
        table[(a,)] = round(rng.uniform(-8, 8), 3)
        for b in range(a, alphabet_size):
            table[(a, b)] = round(rng.uniform(-10, 10), 3)
    for _ in range(3000):
        n = rng.randint(3, 6)
        key = tuple(sorted(rng.randrange(alphabet_size) for _ in range(n)))
        table[key] = round(rng.uniform(-15, 15), 3)
    return Leaves.from_mapping(table)


def force_blanks(game: Game, blanks: int, rng: random.Random) -> bool:
    """Give the player to move a rack holding ``blanks`` blanks where the unseen tiles allow
    it (replacing random tiles of the rack); True if the rack now holds that many."""
    rack = game.rack(game.to_move).tiles()
    have = sum(1 for t in rack if t == BLANK)
    if have == blanks:
        return True
    letters = [t for t in rack if t != BLANK]
    rng.shuffle(letters)
    want = letters[: max(0, len(rack) - blanks)] + [BLANK] * min(blanks, len(rack))
    if len(want) != len(rack):
        return False
    try:
        game.set_rack(game.to_move, want)
    except (IllegalMove, ValueError):
        return False
    return True


def random_game_positions(
    lexicon: Lexicon,
    rules: Rules,
    seed: int,
    turns: int,
    label: str,
    blanks: bool = True,
    synthetic: int = 0,
) -> Iterator[tuple[Game, Rack, list[tuple[Move, float]]]]:
    """Positions of a random game played with the reference generator: at each turn the
    mover's rack gets 0, 1 or 2 blanks (in turn), the reference lists the moves, and a random
    play (a random move if there is none) is made. Yields (game, test rack, reference list).

    When the unseen tiles hold no blank to give (they are on the board or the other rack),
    ``synthetic=N`` tests a rack with the blanks anyway — for every one-blank turn and every
    Nth two-blank turn — while the game goes on with the real rack (moved by the compiled
    generator, which the differential tests show to be identical)."""
    rng = random.Random(seed)
    game = Game(rules, lexicon=lexicon, players=["A", "B"], seed=seed, first=0)
    for turn in range(turns):
        if game.is_over:
            return
        want = (turn + seed) % 3 if blanks else 0
        forced = force_blanks(game, want, rng) if blanks else True
        real = game.rack(game.to_move)
        if not forced and synthetic and (want == 1 or turn % synthetic == 0):
            tiles = [t for t in real.tiles() if t != BLANK]
            rng.shuffle(tiles)
            test = Rack(len(real.counts), tiles[: len(real) - want] + [BLANK] * want)
            ref = reference_moves(game.board, test, lexicon, rules, bag_count=game.bag_count)
            yield game, test, ref
            moves = list(
                generate_moves(game.board, real, lexicon, rules, bag_count=game.bag_count)
            )
        else:
            ref = reference_moves(game.board, real, lexicon, rules, bag_count=game.bag_count)
            yield game, real, ref
            moves = [m for m, _ in ref]
        plays = [m for m in moves if isinstance(m, Play)]
        game.play(rng.choice(plays) if plays else moves[-1])


def check_legal(board: Board, play: Play, rack: Rack, lexicon: Lexicon, rules: Rules) -> None:
    """The play passes the legality check unchanged, forms only valid words and is scored as
    tessera.scoring scores it."""
    alphabet = lexicon.alphabet
    normal, words = check_play(board, play, rack, rules, alphabet)
    assert normal == play and (normal.row, normal.col, normal.across) == (
        play.row,
        play.col,
        play.across,
    ), f"{play.gcg(alphabet)} is named {normal.gcg(alphabet)} by the legality check"
    assert normal.word == play.word
    check = lexicon.has_anagram if rules.validity is Validity.ANAGRAM else lexicon.contains
    for w in words:
        assert check([letter_of(t) for t in w.tiles]), (
            f"{play.gcg(alphabet)} forms {alphabet.format(w.tiles)}"
        )
    assert play.score == score_play(board, play, rules)


def brute_force_plays(board: Board, rack: Sequence[int], lexicon: Lexicon, rules: Rules) -> set:
    """Every legal play of a small rack, by trying every placement of every ordered choice of
    rack tiles (blanks as every letter) on every run of empty squares, in both directions."""
    alphabet = lexicon.alphabet
    letters = range(1, len(alphabet) + 1)
    rack_obj = Rack(alphabet.size, rack)
    check = lexicon.has_anagram if rules.validity is Validity.ANAGRAM else lexicon.contains
    # off-start first plays stand only if unchallenged (R2.6.1); generators never list them
    need_start = board.is_empty() and rules.first_play_covers_center
    found = set()
    orders = set()
    for k in range(1, len(rack) + 1):
        orders.update(permutations(rack, k))
    for across in (True, False):
        dr, dc = (0, 1) if across else (1, 0)
        for r0 in range(board.rows):
            for c0 in range(board.cols):
                if board.get(r0, c0):
                    continue
                for order in orders:
                    squares = []
                    r, c = r0, c0
                    while len(squares) < len(order) and board.on_board(r, c):
                        if not board.get(r, c):
                            squares.append((r, c))
                        r, c = r + dr, c + dc
                    if len(squares) < len(order):
                        continue
                    choices = [[t] if t != BLANK else [x | BLANK_BIT for x in letters]
                               for t in order]
                    for tiles in product(*choices):
                        placed = [(sq[0], sq[1], t) for sq, t in zip(squares, tiles, strict=True)]
                        play = _as_play(board, placed, across)
                        try:
                            normal, words = check_play(board, play, rack_obj, rules, alphabet)
                        except IllegalMove:
                            continue
                        if need_start and board.layout.start not in {
                            (r, c) for r, c, _ in normal.placements
                        }:
                            continue
                        if all(check([letter_of(t) for t in w.tiles]) for w in words):
                            found.add(normal)
    return found


def _as_play(board: Board, placed: list[tuple[int, int, int]], across: bool) -> Play:
    """The play whose new tiles are ``placed`` (consecutive empty squares of one line, with
    only board tiles between them), named by its whole run along the line."""
    dr, dc = (0, 1) if across else (1, 0)
    cells = {(r, c): t for r, c, t in placed}
    r, c = placed[0][0], placed[0][1]
    while board.get(r - dr, c - dc):
        r, c = r - dr, c - dc
    word = []
    rr, cc = r, c
    while board.on_board(rr, cc) and ((rr, cc) in cells or board.get(rr, cc)):
        word.append(cells.get((rr, cc), PLAYED_THROUGH))
        rr, cc = rr + dr, cc + dc
    return Play(r, c, across, tuple(word))


# -- fixtures ------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def enable(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lexicon]:
    """ENABLE, compiled into a temporary cache (never the user's)."""
    root = tmp_path_factory.mktemp("movegen-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TESSERA_CACHE_DIR", str(root))
        yield Lexicon.load("enable")


@pytest.fixture(scope="session")
def spanish() -> Lexicon:
    return Lexicon.from_words(SPANISH_WORDS, "spanish", name="es-test")


@pytest.fixture(scope="session")
def hungarian() -> Lexicon:
    return Lexicon.from_words(HUNGARIAN_WORDS, "hungarian", name="hu-test")


@pytest.fixture(scope="session")
def leaves_en() -> Leaves:
    return random_leaves(27, seed=11)


def compare(
    game: Game,
    rack: Rack,
    ref: list[tuple[Move, float]],
    lexicon: Lexicon,
    leaves: Leaves | None = None,
    tops: Sequence[int] = (1, 4),
) -> None:
    """The compiled generator lists exactly the reference's moves, scores, equities and
    order, in full and for top-N."""
    if leaves is not None:
        ref = reference_moves(
            game.board, rack, lexicon, game.rules, bag_count=game.bag_count, leaves=leaves
        )
    want = listing(ref)
    got = generate_moves(game.board, rack, lexicon, game.rules, bag_count=game.bag_count,
                         leaves=leaves)
    assert listing(got) == want, _diff(want, listing(got), lexicon)
    for n in tops:
        top = generate_moves(game.board, rack, lexicon, game.rules, top=n,
                             bag_count=game.bag_count, leaves=leaves)
        assert listing(top) == want[:n]


def _diff(want: list, got: list, lexicon: Lexicon) -> str:
    a, b = set(want), set(got)
    return f"missing {sorted(a - b)[:5]}, extra {sorted(b - a)[:5]} ({len(want)} vs {len(got)})"


# -- differential: compiled == reference ------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_standard_board_random_games(enable: Lexicon, leaves_en: Leaves, seed: int) -> None:
    rules = preset("naspa")
    count = 0
    for i, (game, rack, ref) in enumerate(random_game_positions(enable, rules, seed, 16, "std")):
        compare(game, rack, ref, enable, leaves_en if i % 2 else None)
        count += 1
    assert count >= 10


def test_super_board_random_game(enable: Lexicon, leaves_en: Leaves) -> None:
    rules = preset("super")
    count = 0
    for i, (game, rack, ref) in enumerate(random_game_positions(enable, rules, 5, 14, "super")):
        compare(game, rack, ref, enable, leaves_en if i % 2 else None)
        count += 1
    assert count >= 10


def test_nine_tile_racks(enable: Lexicon) -> None:
    """With leaves too: a 9-tile rack keeps leaves of 7 and 8 tiles, which no table lists."""
    rules = preset("nine_tile")
    table = Leaves.from_mapping(
        {k: v for k, v in random_leaves(27, seed=12).items() if len(k) <= 6}
    )
    count = 0
    for game, rack, ref in random_game_positions(enable, rules, 6, 6, "nine", blanks=False):
        compare(game, rack, ref, enable, table if count % 2 else None)
        count += 1
    assert count == 6


@pytest.mark.parametrize("which", ["spanish", "hungarian"])
def test_digraph_lexicons(which: str, request: pytest.FixtureRequest) -> None:
    lexicon = request.getfixturevalue(which)
    rules = preset("naspa").replace(tiles=which)
    count = digraph_plays = 0
    for seed in (1, 2, 3):
        for game, rack, ref in random_game_positions(lexicon, rules, seed, 20, which):
            compare(game, rack, ref, lexicon)
            count += 1
            labels = lexicon.alphabet.labels
            digraph_plays += sum(
                1
                for m, _ in ref
                if isinstance(m, Play)
                and any(len(labels[letter_of(t) - 1]) > 1 for t in m.word if t)
            )
    assert count >= 20
    assert digraph_plays > 0  # multi-letter tiles were actually played


def test_clabbers_matches_reference_and_brute_force(enable: Lexicon) -> None:
    lexicon = Lexicon.from_words(
        ["CAT", "ACT", "TAB", "BAT", "AT", "TA", "AB", "BA", "CAB", "SCAB", "CATS", "TABS",
         "BEAST", "BASTE", "SEAT", "EAST", "EATS", "TEA", "ATE", "SET", "BET", "BEST"],
        "english", name="clabbers-test")
    rules = preset("clabbers")
    game = Game(rules, lexicon=lexicon, players=["A", "B"], seed=1, first=0)
    game.set_rack("A", "CATSBE?")
    first = reference_moves(game.board, game.rack("A"), lexicon, rules)
    assert listing(generate_moves(game.board, game.rack("A"), lexicon, rules)) == listing(first)
    scrambled = [m for m, _ in first if isinstance(m, Play) and not lexicon.contains(
        [letter_of(t) for t in m.word])]
    assert scrambled, "Clabbers accepts main words that are only anagrams"
    game.play("8G TCA")
    rng = random.Random(3)
    for _ in range(3):
        if game.is_over:
            break
        rack = game.rack(game.to_move)
        ref = reference_moves(game.board, rack, lexicon, rules, bag_count=game.bag_count)
        assert listing(generate_moves(game.board, rack, lexicon, rules,
                                      bag_count=game.bag_count)) == listing(ref)
        top = generate_moves(game.board, rack, lexicon, rules, top=3, bag_count=game.bag_count)
        assert listing(top) == listing(ref)[:3]
        small = rack.tiles()[:3]
        want = brute_force_plays(game.board, small, lexicon, rules)
        got = {m for m, _ in reference_moves(game.board, small, lexicon, rules) if m.is_play()}
        assert got == want
        plays = [m for m, _ in ref if isinstance(m, Play)]
        game.play(rng.choice(plays) if plays else Pass())


# -- every play legal, none missing -----------------------------------------------------------


def test_every_generated_play_is_legal_and_scored_alike(enable: Lexicon) -> None:
    rules = preset("naspa")
    checked = 0
    for i, (game, _rack, _ref) in enumerate(random_game_positions(enable, rules, 9, 12, "legal")):
        if i % 3:
            continue
        rack = game.rack(game.to_move)
        moves = generate_moves(game.board, rack, enable, rules)
        keys = [sort_key(m) for m in moves]
        assert len(set(keys)) == len(keys), "a move is listed twice"
        assert len({m for m in moves if m.is_play()}) == sum(1 for m in moves if m.is_play())
        for move in moves:
            if isinstance(move, Play):
                check_legal(game.board, move, rack, enable, rules)
                checked += 1
            # and the game itself accepts it
        plays = [m for m in moves if isinstance(m, Play)]
        for play in plays[:: max(1, len(plays) // 10)]:
            assert game.check(play) == play
    assert checked > 500


@pytest.mark.parametrize(
    "rack_text",
    ["ER", "AEN", "S?", pytest.param("QI?", marks=pytest.mark.slow),
     pytest.param("??", marks=pytest.mark.slow)],
)
def test_no_legal_play_is_missed_brute_force(enable: Lexicon, rack_text: str) -> None:
    rules = preset("naspa")
    game = Game(rules, lexicon=enable, players=["A", "B"], seed=2, first=0)
    game.set_rack("A", "QUITEAB")
    game.play("8D QUITE")
    game.set_rack("B", "RECOUNS")
    game.play("E4 RECO.NS") if game.check("E4 RECO.NS") else None
    rack = enable.alphabet.parse(rack_text)
    want = brute_force_plays(game.board, rack, enable, rules)
    ref = {m for m, _ in reference_moves(game.board, rack, enable, rules) if m.is_play()}
    got = [m for m in generate_moves(game.board, rack, enable, rules) if m.is_play()]
    assert set(got) == want == ref
    assert len(got) == len(want)


@pytest.mark.parametrize("rack_text", ["ELS", "AS?"])
def test_plays_through_several_runs_of_tiles_are_all_found(
    enable: Lexicon, leaves_en: Leaves, rack_text: str
) -> None:
    """The compiled generator fills the plays starting on one square by a walk from the last
    board tile all of them cover, leftwards first: plays that start squares before a run of
    tiles, bridge a gap to a second run, or end on a tile must all be found, in full and in
    the top N."""
    rules = preset("naspa")
    board = Board(rules.layout)
    word = enable.alphabet.parse
    # row 8: TO on C-D and ON on F-G (a gap of one between them: S TO L ON), A on K;
    # column I: AT on rows 6-7, above I8
    board.place([(7, 2, word("T")[0]), (7, 3, word("O")[0]), (7, 5, word("O")[0]),
                 (7, 6, word("N")[0]), (7, 10, word("A")[0]),
                 (5, 8, word("A")[0]), (6, 8, word("T")[0])])
    rack = word(rack_text)
    want = brute_force_plays(board, rack, enable, rules)
    got = [m for m in generate_moves(board, rack, enable, rules) if m.is_play()]
    assert set(got) == want and len(got) == len(want)
    bridging = [m for m in got if m.across and m.row == 7 and m.col < 2
                and m.col + len(m.word) > 6]
    assert bridging, "STOLON should start before TO and join it to ON"
    ranked = listing(reference_moves(board, rack, enable, rules, leaves=leaves_en))
    full = listing(generate_moves(board, rack, enable, rules, leaves=leaves_en))
    assert full == ranked
    for n in (1, 3, 10):
        top = generate_moves(board, rack, enable, rules, top=n, leaves=leaves_en)
        assert listing(top) == ranked[:n]


def test_brute_force_first_move(enable: Lexicon) -> None:
    rules = preset("naspa")
    board = Board(rules.layout)
    rack = enable.alphabet.parse("ZAX")
    want = brute_force_plays(board, rack, enable, rules)
    got = [m for m in generate_moves(board, rack, enable, rules) if m.is_play()]
    assert set(got) == want and len(got) == len(want)
    assert all((7, 7) in {(r, c) for r, c, _ in p.placements} for p in got)


# -- blanks ------------------------------------------------------------------------------------


def test_two_blanks_every_designation_once(enable: Lexicon) -> None:
    rules = preset("naspa")
    game = Game(rules, lexicon=enable, players=["A", "B"], seed=2, first=0)
    game.set_rack("A", "QUITEAB")
    game.play("8D QUITE")
    rack = [BLANK, BLANK]
    moves = generate_moves(game.board, rack, enable, rules)
    plays = [m for m in moves if isinstance(m, Play)]
    assert len(set(plays)) == len(plays)
    assert all(t & BLANK_BIT for p in plays for _, _, t in p.placements)
    assert listing(moves) == listing(reference_moves(game.board, rack, enable, rules))
    # every (square pair, designation pair) once: no two plays share squares and letters
    seen = {(p.row, p.col, p.across, tuple(letter_of(t) for t in p.word)) for p in plays}
    assert len(seen) == len(plays)
    # QI, XI and ZA-style two-letter words with both tiles blank are all there
    two = {enable.alphabet.format(letter_of(t) for t in p.word) for p in plays
           if len(p.word) == 2 and all(p.word)}
    assert {"AA", "AB", "XI", "OX"} <= two
    assert "QI" not in two  # not in ENABLE


def test_blank_and_letter_are_different_moves(enable: Lexicon) -> None:
    rules = preset("naspa")
    board = Board(rules.layout)
    moves = generate_moves(board, enable.alphabet.parse("AT?"), enable, rules)
    words = {(p.row, p.col, p.across, p.word) for p in moves if isinstance(p, Play)}
    a, t = enable.alphabet.letter("A"), enable.alphabet.letter("T")
    assert (7, 6, True, (a, t)) in words
    assert (7, 6, True, (a | BLANK_BIT, t)) in words
    assert (7, 6, True, (a, t | BLANK_BIT)) in words


# -- exchanges, pass, equity -------------------------------------------------------------------


def test_exchanges_are_distinct_submultisets(enable: Lexicon) -> None:
    rules = preset("naspa")
    board = Board(rules.layout)
    rack = enable.alphabet.parse("AAB??EE")
    moves = generate_moves(board, rack, enable, rules, bag_count=50)
    exchanges = [m for m in moves if isinstance(m, Exchange)]
    # (2+1)(1+1)(2+1)(2+1) - 1 distinct non-empty sub-multisets
    assert len(exchanges) == 3 * 2 * 3 * 3 - 1
    assert len({m.tiles for m in exchanges}) == len(exchanges)
    assert sum(1 for m in moves if isinstance(m, Pass)) == 1
    assert not any(isinstance(m, Exchange)
                   for m in generate_moves(board, rack, enable, rules, bag_count=6))
    assert not any(isinstance(m, Exchange) for m in generate_moves(board, rack, enable, rules))
    hasbro = preset("hasbro")  # no bag minimum: at most as many as the bag holds
    few = [m for m in generate_moves(board, rack, enable, hasbro, bag_count=2)
           if isinstance(m, Exchange)]
    assert few and max(len(m.tiles) for m in few) == 2
    assert exchange_sizes(hasbro, 7, 2) == range(1, 3)


@pytest.mark.parametrize("text", ["??EESSZ", "AEINRST", "QQQ?UUV", "EEEEEEE", "A"])
def test_every_leave_of_the_rack_is_valued_as_the_table_lists_it(
    enable: Lexicon, text: str
) -> None:
    """The compiled generator values all of a rack's leaves in one walk of the table; each
    exchange (and the pass) keeps one, so their equities show every leave's value, listed or
    not: an unlisted leave is valued from its sub-leaves, the mean over its tiles x of
    value(leave - x) + value(x) (an unlisted tile is worth 0), and the pass keeps the whole
    rack at the table's own value."""
    rules = preset("naspa")
    rack = enable.alphabet.parse(text)
    rng = random.Random(text)
    leaves_of_rack = set()
    for mask in range(1, 1 << len(rack)):
        leaves_of_rack.add(tuple(sorted(t for i, t in enumerate(rack) if mask >> i & 1)))
    table = {k: round(rng.uniform(-20, 20), 3) for k in leaves_of_rack if rng.random() < 0.8}
    table[(26,)] = 1.5  # and a leave the rack cannot keep
    leaves = Leaves.from_mapping(table)
    board = Board(rules.layout)
    moves = generate_moves(board, rack, enable, rules, leaves=leaves, bag_count=100)

    def valued(leave: tuple[int, ...]) -> float:
        if leave in table or len(leave) < 2:
            return table.get(leave, 0.0)
        parts = [valued(leave[:i] + leave[i + 1:]) + valued(leave[i:i + 1])
                 for i in range(len(leave)) if i == 0 or leave[i] != leave[i - 1]]
        return sum(parts) / len(parts)

    seen = 0
    for i, move in enumerate(moves):
        if isinstance(move, Play):
            continue
        kept = list(rack)
        for t in move.tiles if isinstance(move, Exchange) else ():
            kept.remove(t)
        key = tuple(sorted(kept))
        want = table.get(key, 0.0) if isinstance(move, Pass) else valued(key)
        assert moves.equity(i) == pytest.approx(want, abs=1e-5)
        seen += 1
    assert seen == len(leaves_of_rack) + 1  # every leave, and the empty one (all exchanged)


def test_equity_is_score_plus_leave(enable: Lexicon, leaves_en: Leaves) -> None:
    rules = preset("naspa")
    game = Game(rules, lexicon=enable, players=["A", "B"], seed=4, first=0)
    rack = game.rack("A")
    moves = generate_moves(game.board, rack, enable, rules, leaves=leaves_en,
                           bag_count=game.bag_count)
    equities = moves.equities()
    assert equities == sorted(equities, reverse=True)
    for i, move in enumerate(moves[:50]):
        kept = list(rack.tiles())
        used = move.tiles_used if isinstance(move, Play) else (
            list(move.tiles) if isinstance(move, Exchange) else [])
        for t in used:
            kept.remove(t)
        score = move.score if isinstance(move, Play) else 0
        assert moves.equity(i) == pytest.approx(score + leaves_en.value(kept), abs=1e-9)
    plain = generate_moves(game.board, rack, enable, rules)
    assert all(plain.equity(i) == (m.score if isinstance(m, Play) else 0)
               for i, m in enumerate(plain))


# -- top-N and upper bounds ---------------------------------------------------------------------


def test_every_play_lies_in_a_listed_span_whose_bound_it_does_not_exceed(
    enable: Lexicon, leaves_en: Leaves
) -> None:
    """Top-N search fills spans (a play's squares from its first to its last tile) best bound
    first: a play whose span is missing from the list, or worth more than its bound, would be
    lost from the top N."""
    from tessera.movegen import compiled_generator

    rules = preset("naspa")
    for game, _rack, _ref in random_game_positions(enable, rules, 12, 6, "bounds"):
        rack = game.rack(game.to_move)
        gen = compiled_generator(enable, rules, leaves_en)
        bounds = {(d, line, first, last): b
                  for d, line, first, last, b in gen.span_bounds(bytes(game.board.cells),
                                                                 list(rack.counts))}
        moves = generate_moves(game.board, rack, enable, rules, leaves=leaves_en)
        plays = 0
        for i, move in enumerate(moves):
            if not isinstance(move, Play):
                continue
            plays += 1
            d = 0 if move.across else 1
            line, first = (move.row, move.col) if move.across else (move.col, move.row)
            span = (d, line, first, first + len(move.word) - 1)
            assert span in bounds, f"{move} lies in no listed span"
            assert moves.equity(i) <= bounds[span]
        assert plays > 0


def test_top_n_equals_the_head_of_the_full_list(enable: Lexicon, leaves_en: Leaves) -> None:
    rules = preset("naspa")
    for game, _rack, _ref in random_game_positions(enable, rules, 21, 6, "top"):
        rack = game.rack(game.to_move)
        full = listing(generate_moves(game.board, rack, enable, rules, leaves=leaves_en,
                                      bag_count=game.bag_count))
        for n in (1, 2, 10, 100):
            top = generate_moves(game.board, rack, enable, rules, top=n, leaves=leaves_en,
                                 bag_count=game.bag_count)
            assert listing(top) == full[:n]


def test_unsorted_mode_lists_the_same_moves_and_equities(
    enable: Lexicon, leaves_en: Leaves
) -> None:
    """generate_moves(sort=False) is the ranked list in the generator's own order: the same
    moves with the same equities, blanks, exchanges and the pass included."""
    rules = preset("naspa")
    unordered = 0
    for game, _rack, _ref in random_game_positions(enable, rules, 23, 6, "unsorted"):
        for rack in (game.rack(game.to_move), Rack(len(rules.tileset.counts), [0, 0, 5, 9])):
            ranked = generate_moves(game.board, rack, enable, rules, leaves=leaves_en,
                                    bag_count=game.bag_count)
            raw = generate_moves(game.board, rack, enable, rules, leaves=leaves_en,
                                 bag_count=game.bag_count, sort=False)
            assert sorted(listing(raw), key=repr) == sorted(listing(ranked), key=repr)
            unordered += listing(raw) != listing(ranked)
    assert unordered > 0  # the unranked order is not the ranking


def test_top_n_with_blanks_equals_the_head_of_the_full_list(
    enable: Lexicon, leaves_en: Leaves
) -> None:
    """Top-N search bounds the plays that put a blank down on their own (their leave keeps a
    blank fewer) and, where the whole rack goes down, lets a blank stand only for letters
    that can still spell a word: full racks of one and two blanks on mid-game boards, with
    random and trained leave values, tiles in the bag and the bag empty, give the head of
    the full list."""
    from tessera.engine import native
    from tessera.engine.players import default_leaves

    rules = preset("naspa")
    eng = native.engine(enable, rules)
    trained = default_leaves()
    tables = [(leaves_en, native.leave_table(leaves_en)), (trained, native.leave_table(trained))]
    letters = [t for t, n in enumerate(rules.tileset.counts) if t for _ in range(n)]
    rng = random.Random(5)
    game = Game(rules, lexicon=enable, players=["A", "B"], seed=5, first=0)
    checked = 0
    for _turn in range(16):
        plays = [m for m in generate_moves(game.board, game.rack(game.to_move), enable, rules,
                                           top=4) if isinstance(m, Play)]
        if not plays:
            break
        game.play(rng.choice(plays))
        for blanks in (1, 2):
            tiles = rng.sample(letters, rules.rack_size - blanks) + [BLANK] * blanks
            rack = Rack(len(rules.tileset.counts), tiles)
            for leaves, table in tables:
                full = listing(generate_moves(game.board, rack, enable, rules, leaves=leaves,
                                              bag_count=50))
                for n in (1, 3, 10):
                    top = generate_moves(game.board, rack, enable, rules, top=n, leaves=leaves,
                                         bag_count=50)
                    assert listing(top) == full[:n]
                cells = list(game.board.cells)
                ranked = eng.moves(cells, tiles, table, 0, 12, False, 0)  # the bag empty
                for n in (1, 3):
                    assert eng.moves(cells, tiles, table, 0, 12, False, n) == ranked[:n]
                checked += 1
    assert checked >= 40


@pytest.mark.parametrize("blanks", [0, 1, 2])
def test_top_n_finds_the_plays_of_the_whole_rack(
    enable: Lexicon, leaves_en: Leaves, blanks: int
) -> None:
    """Top-N leaves out a span that takes the whole rack when no word is an anagram of the
    rack and the span's board letters, and lets a blank of such a play stand only for the
    letters that make one (the lexicon's letter multisets are looked up in a filter built at
    load: once with no blank, once per letter with one, once per pair of letters with two).
    Racks that are anagrams of 7-letter words, and 8-letter words less a letter the board
    holds, one or two of their tiles blanks if asked, on an empty board and mid-game: top N
    is the head of the full list, and the rack often goes down whole."""
    rules = preset("naspa")
    rng = random.Random(31 + blanks)
    sevens = [w for w in enable.words() if len(w) == 7]
    eights = [w for w in enable.words() if len(w) == 8]
    game = Game(rules, lexicon=enable, players=["A", "B"], seed=31, first=0)
    checked = whole = 0
    for _turn in range(10):
        on_board = {t & ~BLANK_BIT for t in game.board.cells if t}
        racks = [list(rng.choice(sevens)) for _ in range(3)]
        for word in rng.sample(eights, 400):
            through = [t for t in word if t in on_board]
            if through:
                rest = list(word)
                rest.remove(rng.choice(through))
                racks.append(rest)
            if len(racks) == 6:
                break
        for tiles in racks:
            for i in rng.sample(range(len(tiles)), blanks):
                tiles[i] = BLANK
            rack = Rack(len(rules.tileset.counts), tiles)
            full = listing(generate_moves(game.board, rack, enable, rules, leaves=leaves_en,
                                          bag_count=50))
            for n in (1, 3):
                top = generate_moves(game.board, rack, enable, rules, top=n, leaves=leaves_en,
                                     bag_count=50)
                assert listing(top) == full[:n]
            best = top[0]
            if isinstance(best, Play):
                whole += len(best.word) - best.word.count(PLAYED_THROUGH) == 7
            checked += 1
        plays = [m for m in generate_moves(game.board, game.rack(game.to_move), enable, rules,
                                           top=4) if isinstance(m, Play)]
        if not plays:
            break
        game.play(rng.choice(plays))
    assert checked >= 50 and whole >= 20


def test_the_generator_reports_the_index_it_builds(enable: Lexicon, leaves_en: Leaves) -> None:
    """The one index the compiled generator builds at load (the word filter) is reported with
    its size and build time, which `python -m benchmarks movegen` prints with the
    generator's own build time and memory; without the alphagram graph there is none."""
    import benchmarks.movegen as bench

    from tessera import _core

    fp = bench.generator_footprint(enable, preset("naspa"), leaves_en)
    assert 64 * 1024 <= fp["filter_bytes"] <= 4 * 2**20  # 16 bits a word, rounded up
    assert 0.0 <= fp["filter_s"] <= fp["build_s"]
    assert fp["rss_bytes"] >= 0
    bare = _core.MoveGenerator(enable.kwg.nodes, None, False, 15, 15, [1] * 225, [1] * 225,
                               7, 7, [0] + [1] * 26, [0] * 8, 2, 2, True, None, None)
    assert bare.word_filter == (0, 0.0)


def test_the_core_refuses_a_leave_value_that_is_not_finite(enable: Lexicon,
                                                          leaves_en: Leaves) -> None:
    """Top N sorts span bounds into buckets by value; a NaN or an infinity in a leave table
    handed to the core directly (the Python loader refuses them first) is refused too."""
    from array import array

    from tessera import _core

    for bad in (float("nan"), float("inf")):
        values = array("f", leaves_en.values)
        values[len(values) // 2] = bad
        with pytest.raises(ValueError, match="not finite"):
            _core.MoveGenerator(enable.kwg.nodes, None, False, 15, 15, [1] * 225, [1] * 225,
                                7, 7, [0] + [1] * 26, [0] * 8, 2, 2, True,
                                leaves_en.kwg.nodes, values)


# -- the move list, the API and the command ------------------------------------------------------


def test_move_list_is_lazy(enable: Lexicon) -> None:
    rules = preset("naspa")
    game = Game(rules, lexicon=enable, players=["A", "B"], seed=8, first=0)
    moves = game.legal_moves()
    assert len(moves) > 100
    assert moves._cache == {}  # nothing built by len()
    first = moves[0]
    assert moves[0] is first and len(moves._cache) == 1
    assert moves[-1] == moves[len(moves) - 1]
    with pytest.raises(IndexError):
        moves[len(moves)]
    top = game.legal_moves(top=10)
    assert len(top) == 10 and top[:10] == moves[:10]
    assert isinstance(moves[0], Play) and moves[0].score == max(
        m.score for m in moves if isinstance(m, Play))


def test_game_legal_moves_can_be_played(enable: Lexicon) -> None:
    game = Game("naspa", lexicon=enable, players=["A", "B"], seed=3, first=0)
    for _ in range(8):
        best = game.legal_moves(top=1)[0]
        score_before = game.score(game.to_move)
        mover = game.to_move
        game.play(best)
        if isinstance(best, Play):
            assert game.score(mover) == score_before + best.score


def test_game_legal_moves_states(enable: Lexicon) -> None:
    game = Game("naspa", lexicon=None, players=["A", "B"], seed=3, first=0)
    with pytest.raises(ValueError, match="Lexicon"):
        game.legal_moves()
    over = Game("naspa", lexicon=enable, players=["A", "B"], seed=3, first=0)
    over.resign("A")
    assert len(over.legal_moves()) == 0


def test_bad_input_raises_clear_errors(enable: Lexicon, spanish: Lexicon) -> None:
    rules = preset("naspa")
    board = Board(rules.layout)
    for bad in ([99], [1, -1], [1, 2.0], [1, "A"], [27]):  # tile ids are 0..26 in ENABLE
        with pytest.raises(ValueError, match=f"tile {bad[-1]!r} is not a rack tile"):
            generate_moves(board, bad, enable, rules)
    with pytest.raises(ValueError, match="alphabet"):
        generate_moves(board, "AB", spanish, rules)
    for _ in range(2):  # checked on every call, not only the first of these inputs
        with pytest.raises(ValueError, match="board"):
            generate_moves(Board(preset("super").layout), "AB", enable, rules)
        assert len(generate_moves(board, "AB", enable, rules)) > 1
    with pytest.raises(ValueError, match="top"):
        generate_moves(board, "AB", enable, rules, top=-1)


def test_every_form_of_a_rack_gives_the_same_moves(enable: Lexicon) -> None:
    """Text, tile ids (list, tuple, bytes, an int array) and a Rack reach the compiled
    generator by two roads (tile ids counted by the core, counts); all give one list,
    exchanges included -- an array is counted, not read as raw memory."""
    from array import array

    from tessera.movegen import compiled_generator

    rules = preset("naspa")
    board, alphabet = Board(rules.layout), enable.alphabet
    ids = alphabet.parse("QUITEA?")
    forms = ["quitea?", ids, tuple(ids), bytes(ids), array("i", ids), Rack(alphabet.size, ids)]
    lists = [generate_moves(board, f, enable, rules, bag_count=80) for f in forms]
    keys = [[(move_key(m), ml.equity(i)) for i, m in enumerate(ml)] for ml in lists]
    assert len(keys[0]) > 100 and any(isinstance(m, Exchange) for m in lists[0])
    assert all(k == keys[0] for k in keys[1:])
    raw = compiled_generator(enable, rules, None)
    with pytest.raises(ValueError, match="tile 27 is not a rack tile"):
        raw.generate(board.cell_bytes(), bytes([1, 27]), 0, 1)
    with pytest.raises(ValueError, match="at most 15 tiles"):
        raw.generate(board.cell_bytes(), bytes([1] * 16), 0, 1)
    with pytest.raises(ValueError, match=r"tile 200 is not a rack tile of the"):
        generate_moves(board, bytes([1, 200]), enable, rules)


def test_the_core_checks_every_square_of_the_board(enable: Lexicon) -> None:
    """A square holds 0, a letter 1..26, or a letter with the blank bit (0x80); the core
    refuses anything else -- an undesignated blank (0x80 alone) or an id past the alphabet --
    wherever it lies on the board, naming the tile."""
    from tessera.movegen import compiled_generator

    rules = preset("naspa")
    raw = compiled_generator(enable, rules, None)
    rack = bytes(enable.alphabet.parse("AEIRST"))
    good = bytearray(225)
    good[112], good[113] = 1, 0x80 | 20  # A and a blank as T in the middle
    assert len(raw.generate(bytes(good), rack, 0, 1)) == 1
    for square in (0, 113, 224):
        for tile in (0x80, 27, 0x80 | 27, 255):
            bad = bytearray(good)
            bad[square] = tile
            with pytest.raises(ValueError, match=f"tile {tile} on the board is not a letter"):
                raw.generate(bytes(bad), rack, 0, 1)


def test_moves_command(enable: Lexicon, tmp_path: Path) -> None:
    from tessera.cli import main
    from tessera.formats.cgp import dumps

    game = Game("naspa", lexicon=enable, players=["A", "B"], seed=2, first=0)
    game.set_rack("A", "QUITEAB")
    cgp = dumps(game)
    runner = CliRunner()
    env = {"TESSERA_CACHE_DIR": os.environ.get("TESSERA_CACHE_DIR", "")}
    result = runner.invoke(main, ["moves", "--cgp", cgp, "--top", "3"], env=env)
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 3
    assert lines[0].split()[1:] == ["8D", "QUATE", "48"] or lines[0].split()[-1] == "48"
    count = runner.invoke(main, ["moves", "--cgp", cgp, "--count"], env=env)
    assert count.exit_code == 0
    assert int(count.output) == len(game.legal_moves())
    table = tmp_path / "leaves.klv2"
    random_leaves(27, seed=5).save(table)
    ranked = runner.invoke(main, ["moves", "--cgp", cgp, "--top", "2", "--leaves", str(table)],
                           env=env)
    assert ranked.exit_code == 0, ranked.output
    rows = [line.split() for line in ranked.output.strip().splitlines()]
    assert len(rows) == 2 and float(rows[0][-1]) >= float(rows[1][-1])
    bad = runner.invoke(main, ["moves", "--cgp", "15/15 nonsense"], env=env)
    assert bad.exit_code != 0 and "cgp" in bad.output.lower()


# -- the full differential set (slow) -------------------------------------------------------------


@pytest.mark.slow
def test_full_differential_set_english(enable: Lexicon, leaves_en: Leaves) -> None:
    """The English part of the full differential set (with the two tests below, more than
    2,000 random positions): standard and Super boards, racks with 0, 1 and 2 blanks."""
    total = 0
    for seed in range(100, 140):
        rules = preset("super" if seed % 4 == 0 else "naspa")
        positions = random_game_positions(enable, rules, seed, 30, "full", synthetic=12)
        for i, (game, rack, ref) in enumerate(positions):
            compare(game, rack, ref, enable, leaves_en if i % 2 else None)
            total += 1
    assert total >= 1000


@pytest.mark.slow
@pytest.mark.parametrize("which", ["spanish", "hungarian"])
def test_full_differential_set_digraphs(which: str, request: pytest.FixtureRequest) -> None:
    """Spanish and Hungarian games with multi-letter tiles (CH, LL, RR, Ñ; CS, GY, LY, NY,
    SZ, TY, ZS)."""
    lexicon = request.getfixturevalue(which)
    rules = preset("naspa").replace(tiles=which)
    total = 0
    for seed in range(40):
        for game, rack, ref in random_game_positions(lexicon, rules, seed, 20, which):
            compare(game, rack, ref, lexicon)
            total += 1
    assert total >= 400


# -- mirror images on the empty board (issue 14) -------------------------------------------------


def transposed(move: Play) -> Play:
    return Play(move.col, move.row, not move.across, move.word, alphabet=move.alphabet)


@pytest.mark.parametrize("name", ["naspa", "super", "wwf", "clabbers", "nine_tile", "lexulous"])
def test_the_empty_board_lists_one_of_each_play_and_its_mirror_image(
    enable: Lexicon, name: str
) -> None:
    rules = preset(name)
    game = Game(rules=rules, lexicon=enable, players=["a", "b"], seed=5)
    rack = game.view(game.to_move).rack
    every = generate_moves(game.board, rack, enable, rules, bag_count=86)
    one = generate_moves(game.board, rack, enable, rules, bag_count=86, mirrors=False)
    plays = [m for m in every if isinstance(m, Play)]
    if not rules.layout.mirror_symmetric:  # Lexulous: a play down is a play of its own
        assert list(one) == list(every)
        return
    # every play down is the mirror image of a play across of the same score
    across = {(m.row, m.col, m.word): m.score for m in plays if m.across}
    down = [m for m in plays if not m.across]
    assert down and len(down) == len(across)
    assert all(across[(m.col, m.row, m.word)] == m.score for m in down)
    assert transposed(down[0]) in plays
    # ... and only the plays across (with the exchanges and the pass) are listed, in order
    assert list(one) == [m for m in every if not isinstance(m, Play) or m.across]
    assert one.equities() == [e for m, e in every.ranked() if not isinstance(m, Play) or m.across]
    if name != "super":  # the reference agrees (the 21x21 board is slow there)
        ref = generate_moves(game.board, rack, enable, rules, bag_count=86, mirrors=False,
                             reference=True)
        assert sorted(map(sort_key, ref)) == sorted(map(sort_key, one))
    # the best few are the head of the list, as always
    assert list(generate_moves(game.board, rack, enable, rules, top=5, mirrors=False)) == list(
        one[:5]
    )


def test_once_a_tile_is_down_both_directions_are_listed(enable: Lexicon) -> None:
    game = Game(rules="naspa", lexicon=enable, players=["a", "b"], seed=5)
    game.play(generate_moves(game.board, game.view(game.to_move).rack, enable, "naspa", top=1)[0])
    rack = game.view(game.to_move).rack
    assert list(generate_moves(game.board, rack, enable, "naspa", mirrors=False)) == list(
        generate_moves(game.board, rack, enable, "naspa")
    )
