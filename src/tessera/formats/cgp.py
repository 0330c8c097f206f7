"""CGP, the Crossword Game Position (as wolges, Macondo and MAGPIE use it).

One line of four fields and optional opcodes::

    <board> <rack>/<rack>[/…] <score>/<score>[/…] <consecutive scoreless turns> [op args;]…

* **board** — rows top to bottom separated by ``/``; in a row, a decimal number is that many
  empty squares, a letter is a tile, lower case is a blank designated as that letter, and a
  multi-letter tile is bracketed (``[CH]``, ``[ch]``);
* **racks** — the player to move first, then the others in turn order; ``?`` is a blank;
  a rack may be empty (``ABC/`` — the second player holds nothing);
* **scores** — in the same order, whole numbers (negative allowed);
* **opcodes** — ``lex NWL23;`` (word list), ``ld english;`` (tile distribution), ``bdn
  CrosswordGame;`` (board), ``var wordsmog;`` (Clabbers words), and Tessera's own ``tr
  <preset> [<JSON of changed fields>];`` (the exact rules). Other opcodes are kept as read.

:func:`loads` checks everything — board size against the layout, every tile against the
alphabet, tile counts against the tile set, rack sizes, numbers — and raises :class:`CgpError`
naming the problem. :func:`dumps` writes a game or a :class:`Position`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..game import Game, WordSource
from ..rules import Rules, RulesError, Validity, preset
from ..tiles import BLANK, BLANK_BIT
from . import (
    LAYOUT_GCG_NAMES,
    TILESET_GCG_NAMES,
    TileTextError,
    bounded,
    decode_rules_text,
    encode_rules_text,
    excerpt,
    format_tile,
    format_tiles,
    implied_tiles,
    layout_for,
    parse_tiles,
    tileset_for,
)

VARIANTS = ("classic", "wordsmog", "classic_super", "wordsmog_super")
_OPCODE = re.compile(r"^[a-z][a-z0-9_.-]*$")
# Limits, checked before anything is counted or allocated: a Super board position with every
# opcode is under 1,000 characters.
MAX_CGP_CHARS = 16_384
MAX_SCORE_DIGITS = 9  # |score| < 10^9
MAX_SCORELESS_TURNS = 999


class CgpError(ValueError):
    """A CGP string that cannot be read, naming the field and the problem."""

    def __init__(self, message: str) -> None:
        super().__init__(bounded(message))


@dataclass(frozen=True)
class Position:
    """A position: the board, each player's rack and score (the player to move first), the
    count of consecutive scoreless turns, the rules and the word list's name."""

    rules: Rules
    board: tuple[tuple[int, ...], ...]  # rows of tile ids; 0 = empty
    racks: tuple[tuple[int, ...], ...]  # sorted as Rack.tiles(): letters, then blanks
    scores: tuple[int, ...]
    scoreless_turns: int = 0
    lexicon: str | None = None
    opcodes: tuple[tuple[str, tuple[str, ...]], ...] = ()  # opcodes Tessera does not use

    @classmethod
    def from_game(cls, game: Game) -> Position:
        """The game's position, with the player to move first."""
        n = game.num_players
        order = [(game.to_move + k) % n for k in range(n)]
        board = tuple(
            tuple(game.board.get(r, c) for c in range(game.board.cols))
            for r in range(game.board.rows)
        )
        return cls(
            rules=game.rules,
            board=board,
            racks=tuple(tuple(game.rack(i).tiles()) for i in order),
            scores=tuple(game.score(i) for i in order),
            scoreless_turns=game.scoreless_turns,
            lexicon=_lexicon_name(game),
        )

    @property
    def num_players(self) -> int:
        return len(self.racks)

    def tiles_on_board(self) -> list[tuple[int, int, int]]:
        return [(r, c, t) for r, row in enumerate(self.board) for c, t in enumerate(row) if t]

    def to_game(
        self,
        rules: Rules | str | None = None,
        lexicon: WordSource | None = None,
        players: Sequence[str] | None = None,
        seed: int | None = None,
    ) -> Game:
        """A game in this position (player 1 to move; the bag holds the unseen tiles)."""
        try:
            return Game.from_position(
                preset(rules) if rules is not None else self.rules,
                board_tiles=self.tiles_on_board(),
                racks=self.racks,
                scores=self.scores,
                to_move=0,
                scoreless_turns=self.scoreless_turns,
                lexicon=lexicon,
                players=players,
                seed=seed,
            )
        except (ValueError, RulesError) as exc:
            raise CgpError(f"the position does not fit the rules: {exc}") from None


def _lexicon_name(game: Game) -> str | None:
    name = getattr(game.lexicon, "name", None) or game.rules.lexicon
    return name if isinstance(name, str) and name and len(name.split()) == 1 else None


# -- writing -------------------------------------------------------------------------------


def dumps(game_or_position: Game | Position) -> str:
    """A game's (or a position's) CGP line."""
    pos = (
        Position.from_game(game_or_position)
        if isinstance(game_or_position, Game)
        else game_or_position
    )
    alphabet = pos.rules.tileset.alphabet
    rows = []
    for row in pos.board:
        text = []
        empty = 0
        for t in row:
            if t:
                if empty:
                    text.append(str(empty))
                    empty = 0
                text.append(format_tile(alphabet, t))
            else:
                empty += 1
        if empty:
            text.append(str(empty))
        rows.append("".join(text))
    racks = "/".join(format_tiles(alphabet, r) for r in pos.racks)
    scores = "/".join(str(s) for s in pos.scores)
    ops = []
    if pos.lexicon:
        ops.append(f"lex {pos.lexicon};")
    rules = pos.rules
    if rules.tiles != "english":
        ops.append(f"ld {TILESET_GCG_NAMES.get(rules.tiles, rules.tiles)};")
    if rules.board != "standard15":
        ops.append(f"bdn {LAYOUT_GCG_NAMES.get(rules.board, rules.board)};")
    if rules.validity is Validity.ANAGRAM:
        ops.append("var wordsmog;")
    ops.append(f"tr {encode_rules_text(rules)};")
    ops.extend(f"{name} {' '.join(args)};".replace(" ;", ";") for name, args in pos.opcodes)
    return " ".join(["/".join(rows), racks, scores, str(pos.scoreless_turns), *ops])


# -- reading -------------------------------------------------------------------------------


def _opcodes(text: str) -> list[tuple[str, tuple[str, ...]]]:
    out: list[tuple[str, tuple[str, ...]]] = []
    if not text.strip():
        return out
    body = text.strip()
    if not body.endswith(";"):
        last = body.rsplit(";", 1)[-1].strip()
        raise CgpError(f"opcode {excerpt(last)!r} must end with ';'")
    for segment in body[:-1].split(";"):
        tokens = segment.split()
        if not tokens:
            raise CgpError("empty opcode between two ';'")
        name = tokens[0]
        if not _OPCODE.match(name):
            raise CgpError(
                f"{excerpt(name)!r} is not an opcode name (lower-case letters and digits)"
            )
        if any(name == n for n, _ in out):
            raise CgpError(f"opcode {excerpt(name)!r} is given twice")
        out.append((name, tuple(tokens[1:])))
    return out


def _one(name: str, args: tuple[str, ...]) -> str:
    if len(args) != 1:
        raise CgpError(f"opcode {excerpt(name)!r} takes exactly one operand, not {len(args)}")
    return args[0]


def _rules(ops: list[tuple[str, tuple[str, ...]]], n_players: int) -> tuple[Rules, str | None]:
    given = dict(ops)
    lexicon = _one("lex", given["lex"]) if "lex" in given else None
    tiles = board = None
    if "ld" in given:
        try:
            tiles = tileset_for(_one("ld", given["ld"]))
        except ValueError as exc:
            raise CgpError(f"ld: {exc}") from None
    if "bdn" in given:
        try:
            board = layout_for(_one("bdn", given["bdn"]))
        except ValueError as exc:
            raise CgpError(f"bdn: {exc}") from None
    variant = _one("var", given["var"]).lower() if "var" in given else None
    if variant is not None and variant not in VARIANTS:
        raise CgpError(f"var: unknown variant {excerpt(variant)!r}; known: {', '.join(VARIANTS)}")
    if "tr" in given:
        if not given["tr"]:
            raise CgpError("opcode 'tr' needs a rules preset name")
        try:
            rules = decode_rules_text(" ".join(given["tr"]))
        except RulesError as exc:
            raise CgpError(f"tr: {exc}") from None
        if tiles is not None and tiles != rules.tiles:
            raise CgpError(f"ld {tiles} contradicts the rules' tile set {rules.tiles}")
        if board is not None and board != rules.board:
            raise CgpError(f"bdn {board} contradicts the rules' board {rules.board}")
        return rules, lexicon
    changes: dict[str, Any] = {}
    super_board = board == "super21" or (variant or "").endswith("_super")
    if board:
        changes["board"] = board
    if tiles:
        changes["tiles"] = tiles
    else:
        try:
            implied = implied_tiles(lexicon, super_board)
        except ValueError as exc:
            raise CgpError(f"lex: {exc}; name the tile distribution with 'ld'") from None
        if implied:
            changes["tiles"] = implied
        if implied == "english_super":
            changes.setdefault("board", "super21")
    if (variant or "").startswith("wordsmog"):
        changes["validity"] = Validity.ANAGRAM
    if lexicon:
        changes["lexicon"] = lexicon
    if n_players > 2:
        changes["max_players"] = 4
    return preset("naspa").replace(**changes), lexicon


def _row(text: str, number: int, cols: int, rules: Rules) -> tuple[int, ...]:
    alphabet = rules.tileset.alphabet
    if not text:
        raise CgpError(f"board row {number} is empty (an empty row is written {cols})")
    cells: list[int] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isascii() and ch.isdigit():
            j = i
            while j < len(text) and text[j].isascii() and text[j].isdigit():
                j += 1
            run = text[i:j]
            if run.startswith("0"):
                raise CgpError(
                    f"board row {number}: {excerpt(run)!r} is not a count of empty squares"
                )
            if len(run) > 6:  # counted before int(): a 20-digit run is no row
                raise CgpError(
                    f"board row {number}: a run of {excerpt(run)} empty squares is longer "
                    f"than the {cols}-column board"
                )
            if len(cells) + int(run) > cols:
                raise CgpError(
                    f"board row {number} has {len(cells) + int(run)} squares; the board has "
                    f"{cols} columns"
                )
            cells.extend([0] * int(run))
            i = j
            continue
        if ch == "[":
            end = text.find("]", i)
            chunk = text[i : end + 1] if end >= 0 else text[i:]
            i = end + 1 if end >= 0 else len(text)
        else:
            chunk = ch
            i += 1
        if chunk in ("?", ".", "*"):
            raise CgpError(
                f"board row {number}: {chunk!r} is not a tile (a blank on the board is its "
                "letter in lower case; empty squares are counted with numbers)"
            )
        try:
            tile = parse_tiles(alphabet, chunk, rack=False)[0]
        except TileTextError as exc:
            raise CgpError(f"board row {number}: {exc}") from None
        assert tile is not None
        cells.append(tile)
    if len(cells) != cols:
        raise CgpError(f"board row {number} has {len(cells)} squares; the board has {cols} columns")
    return tuple(cells)


def loads(text: str) -> Position:
    """Read a CGP line into a :class:`Position`."""
    if not isinstance(text, str):
        raise CgpError(f"CGP must be text, not {type(text).__name__}")
    if len(text) > MAX_CGP_CHARS:
        raise CgpError(
            f"CGP of {len(text):,} characters; a position takes at most {MAX_CGP_CHARS:,}"
        )
    fields = text.strip().split(None, 4)
    if len(fields) < 4:
        names = ["board", "racks", "scores", "scoreless-turn count"]
        raise CgpError(
            f"CGP needs four fields (board, racks, scores, scoreless turns); "
            f"the {names[len(fields)]} is missing"
        )
    board_text, racks_text, scores_text, zeros_text = fields[:4]
    ops = _opcodes(fields[4] if len(fields) > 4 else "")
    rack_fields = racks_text.split("/")
    score_fields = scores_text.split("/")
    rules, lexicon = _rules(ops, len(rack_fields))
    if not rules.min_players <= len(rack_fields) <= rules.max_players:
        raise CgpError(
            f"{len(rack_fields)} racks: the rules ({rules.name}) take "
            f"{rules.min_players}–{rules.max_players} players"
        )
    if len(score_fields) != len(rack_fields):
        raise CgpError(f"{len(rack_fields)} racks but {len(score_fields)} scores")
    layout = rules.layout
    rows = board_text.split("/")
    if len(rows) != layout.rows:
        raise CgpError(f"the board has {len(rows)} rows; the {rules.board} board has {layout.rows}")
    board = tuple(_row(r, k, layout.cols, rules) for k, r in enumerate(rows, start=1))
    alphabet = rules.tileset.alphabet
    racks = []
    for k, rt in enumerate(rack_fields, start=1):
        try:
            tiles = [t for t in parse_tiles(alphabet, rt, rack=True) if t is not None]
        except TileTextError as exc:
            raise CgpError(f"rack {k}: {exc}") from None
        if len(tiles) > rules.rack_size:
            raise CgpError(
                f"rack {k} ({rt}) has {len(tiles)} tiles; a rack holds {rules.rack_size}"
            )
        letters = sorted(t for t in tiles if t != BLANK)
        racks.append(tuple(letters + [BLANK] * (len(tiles) - len(letters))))
    scores = []
    for k, s in enumerate(score_fields, start=1):
        if not re.fullmatch(r"-?\d+", s, re.ASCII):
            raise CgpError(f"score {k} {excerpt(s)!r} is not a whole number")
        if len(s.lstrip("-")) > MAX_SCORE_DIGITS:
            raise CgpError(
                f"score {k} {excerpt(s)} has more than {MAX_SCORE_DIGITS} digits; no game "
                "scores that much"
            )
        scores.append(int(s))
    if not (zeros_text.isascii() and zeros_text.isdigit()):
        raise CgpError(
            f"the scoreless-turn count {excerpt(zeros_text)!r} is not a whole number ≥ 0"
        )
    if len(zeros_text) > 3 or int(zeros_text) > MAX_SCORELESS_TURNS:
        raise CgpError(
            f"the scoreless-turn count {excerpt(zeros_text)} is more than {MAX_SCORELESS_TURNS}"
        )
    used: Counter[int] = Counter()
    for row in board:
        used.update(BLANK if t & BLANK_BIT else t for t in row if t)
    for rack in racks:
        used.update(rack)
    counts = rules.tileset.counts
    for tile, n in sorted(used.items()):
        if n > counts[tile]:
            label = "blank" if tile == BLANK else alphabet.label(tile)
            raise CgpError(
                f"{n} × {label} on the board and racks; the {rules.tiles} set has {counts[tile]}"
            )
    others = tuple(
        (name, args) for name, args in ops if name not in ("lex", "ld", "bdn", "var", "tr")
    )
    return Position(
        rules=rules,
        board=board,
        racks=tuple(racks),
        scores=tuple(scores),
        scoreless_turns=int(zeros_text),
        lexicon=lexicon,
        opcodes=others,
    )


__all__ = ["CgpError", "Position", "dumps", "loads"]
