"""Shared by the move generation tests (tests/movegen/): random positions from real games,
the brute-force reference for completeness, and the compiled-against-reference comparison."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import permutations, product

from tessera.board import Board
from tessera.game import Game
from tessera.legality import IllegalMove, check_play
from tessera.lexicon import Leaves, Lexicon
from tessera.move import PLAYED_THROUGH, Move, Play
from tessera.movegen import MoveList, generate_moves, reference_moves, sort_key
from tessera.rules import Rules, Validity
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
                        play = as_play(board, placed, across)
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


def as_play(board: Board, placed: list[tuple[int, int, int]], across: bool) -> Play:
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
    assert listing(got) == want, diff_text(want, listing(got), lexicon)
    for n in tops:
        top = generate_moves(game.board, rack, lexicon, game.rules, top=n,
                             bag_count=game.bag_count, leaves=leaves)
        assert listing(top) == want[:n]


def diff_text(want: list, got: list, lexicon: Lexicon) -> str:
    a, b = set(want), set(got)
    return f"missing {sorted(a - b)[:5]}, extra {sorted(b - a)[:5]} ({len(want)} vs {len(got)})"

