"""TSH division files (``.t``) and the basics of a TSH ``config.tsh``.

TSH (John Chew's tournament software, http://tsh.poslfit.com/doc/) keeps one ``.t`` file a
division, one line a player, numbered from 1 in line order::

    Chew, John 1786 2 0 3; 420 50 388; p12 1 0 2; board 1 0 2; class B

* the player's name (``Last, First``), their rating, and their opponent in each round by
  number, ``0`` for a round without an opponent (a bye or a forfeit);
* after a ``;``, the player's score in each round played; for a round without an opponent the
  score is the spread credited: ``50`` for a bye, ``-50`` for a forfeit loss (TSH's data entry
  documentation, http://tsh.poslfit.com/doc/entry.html: "enter one player number and one score
  (usually 50, or -50 for a forfeit)"); a round paired but not yet played has an opponent and
  no score;
* then ``;``-separated extra fields, each a name and its values: ``p12`` (per round, 1 the
  player went first, 2 second, 0 no game; Tessera reads any other value as "not known" and
  writes 4 for a game whose order it does not know), ``board`` (per round), ``class`` (the
  prize class), ``lifeg`` (the player's career rated games before the event, TSH's
  ``LifeGames``: Tessera's :attr:`~tessera.tournament.Player.rated_games`), ``off``
  (withdrawn), and others (``newr``, ``rcrank``, ``team``, …) that Tessera keeps as they were
  (TSH lists these supplementary fields in the documentation of its Perl module
  ``TSH::Player``).

What the format records of the three irregular results, and how Tessera reads it back:

* **a forfeit** — TSH has no forfeit between two paired players: both get opponent ``0``, the
  winner the forfeit win's spread as score, the loser the forfeit loss's. Tessera writes a
  forfeit so, with the board the game was paired at for both (TSH keeps a board per player
  and round, also without an opponent), and reads two rounds without opponent at one board
  of the round (a board no game uses), a win and a loss by the same spread, as that forfeit.
  Who would have gone first is not recorded (``p12`` ``0``, no game): the forfeit reads back
  with the lower-numbered player first and ``first_known`` false. A win and a loss without
  opponent at board 0 stay a bye and a forfeit loss, as TSH counts them.
* **a late entry** — TSH records the rounds a player missed as any other rounds without
  opponent (``-50`` a forfeit loss, ``50`` a bye) and nothing of when the player joined:
  they read back as the player's byes or forfeit losses from round 1 (the same standings),
  with ``joined_round`` 1.
* **a withdrawal** — ``off`` marks a player out of the pairings; the player's line ends at
  the last round they were paired in, so ``withdrawn_from`` reads back as the round after
  it. TSH's own ``off`` value is the spread of the byes TSH gives an inactive player;
  Tessera, which pairs a withdrawn player no more, writes ``off 1`` for a withdrawal of its
  own and keeps an imported ``off`` as read.

:func:`loads` and :func:`dumps` read and write the lines exactly (:class:`TshFile`): unknown
fields, their order and their values come back as read. :func:`to_division` and
:func:`from_division` convert to and from the model (:class:`tessera.tournament.Division`).
Lines that are blank or start with ``#`` are not players. Every size is bounded and every
error names its line (:class:`TshError`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..tournament.model import (
    MAX_PLAYERS,
    MAX_RATED_GAMES,
    MAX_RATING,
    MAX_ROUNDS,
    Division,
    Game,
    GameKind,
    Player,
    ScoringSettings,
    TournamentError,
)
from . import bounded, excerpt

MAX_LINE = 8_192
MAX_FILE_CHARS = MAX_LINE * 1_000
MAX_FIELD_VALUES = 2 * MAX_ROUNDS + 16
MAX_ABS_SCORE = 9_999
MAX_CONFIG_LINES = 10_000
_FIELD_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_INTEGER = re.compile(r"-?\d{1,6}")
# the fields the model reads; every other field is kept as read
_MODEL_FIELDS = ("p12", "board", "class", "lifeg")


class TshError(ValueError):
    """A ``.t`` or ``config.tsh`` text that cannot be read, naming the line and the problem."""

    def __init__(self, message: str) -> None:
        super().__init__(bounded(message))


@dataclass(frozen=True)
class TshPlayer:
    """One line of a ``.t`` file, as written."""

    name: str
    rating: int
    opponents: tuple[int, ...]
    scores: tuple[int, ...]
    fields: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def field(self, name: str) -> tuple[str, ...] | None:
        for key, values in self.fields:
            if key == name:
                return values
        return None


@dataclass(frozen=True)
class TshFile:
    players: tuple[TshPlayer, ...]

    @property
    def rounds(self) -> int:
        return max((len(p.opponents) for p in self.players), default=0)


def _int(text: str, what: str, where: str) -> int:
    if not _INTEGER.fullmatch(text):
        raise TshError(f"{where}: {what} {excerpt(text)!r} is not a whole number")
    return int(text)


def _parse_line(line: str, where: str) -> TshPlayer:
    head, *rest = line.split(";")
    tokens = head.split()
    at = next((i for i, t in enumerate(tokens) if t.isdigit()), None)
    if at is None or at == 0:
        raise TshError(f"{where}: expected a name and then a rating, got {excerpt(head, 40)!r}")
    name = " ".join(tokens[:at])
    rating = _int(tokens[at], "rating", where)
    if rating > MAX_RATING:
        raise TshError(f"{where}: rating {rating} above {MAX_RATING}")
    opponents = tuple(_int(t, "opponent", where) for t in tokens[at + 1 :])
    scores = tuple(_int(t, "score", where) for t in (rest[0].split() if rest else ()))
    if len(opponents) > MAX_ROUNDS:
        raise TshError(f"{where}: {len(opponents)} rounds; at most {MAX_ROUNDS}")
    if len(scores) > len(opponents):
        raise TshError(
            f"{where}: {len(scores)} scores for {len(opponents)} paired rounds"
        )
    for s in scores:
        if abs(s) > MAX_ABS_SCORE:
            raise TshError(f"{where}: score {s} out of range")
    fields = []
    for part in rest[1:]:
        words = part.split()
        if not words:
            if part.strip() == "" and part is rest[-1]:
                continue  # a trailing ';'
            raise TshError(f"{where}: an empty extra field")
        if not _FIELD_NAME.fullmatch(words[0]):
            raise TshError(f"{where}: extra field name {excerpt(words[0])!r} is not a name")
        if len(words) - 1 > MAX_FIELD_VALUES:
            raise TshError(f"{where}: field {words[0]} has {len(words) - 1} values")
        fields.append((words[0], tuple(words[1:])))
    return TshPlayer(name, rating, opponents, scores, tuple(fields))


def loads(text: str) -> TshFile:
    """Read a ``.t`` file's text. Raises :class:`TshError` naming the line."""
    if len(text) > MAX_FILE_CHARS:
        raise TshError(f"a division file of {len(text):,} characters; at most {MAX_FILE_CHARS:,}")
    players: list[tuple[int, TshPlayer]] = []
    for n, line in enumerate(text.splitlines(), 1):
        where = f"line {n}"
        if len(line) > MAX_LINE:
            raise TshError(f"{where}: {len(line):,} characters; at most {MAX_LINE:,}")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if len(players) >= MAX_PLAYERS:
            raise TshError(f"{where}: more than {MAX_PLAYERS} players")
        players.append((n, _parse_line(line, where)))
    count = len(players)
    for n, p in players:
        for r, o in enumerate(p.opponents, 1):
            if not 0 <= o <= count:
                raise TshError(
                    f"line {n}: round {r} opponent {o} is no player (players 1 to {count})"
                )
    return TshFile(tuple(p for _, p in players))


def _format_line(p: TshPlayer) -> str:
    head = " ".join([p.name, str(p.rating), *map(str, p.opponents)])
    parts = [head, " ".join(map(str, p.scores))]
    parts += [" ".join([key, *values]) for key, values in p.fields]
    return "; ".join(parts).rstrip()


def dumps(tsh: TshFile) -> str:
    """The ``.t`` text of ``tsh``, one line a player."""
    return "".join(_format_line(p) + "\n" for p in tsh.players)


# -- to and from the model -------------------------------------------------------------


def _per_round(p: TshPlayer, name: str, where: str) -> tuple[int, ...] | None:
    values = p.field(name)
    if values is None:
        return None
    return tuple(_int(v, f"{name} value", where) for v in values)


def to_division(
    tsh: TshFile,
    name: str,
    total_rounds: int | None = None,
    settings: ScoringSettings | None = None,
) -> Division:
    """The division a ``.t`` file records. ``total_rounds`` defaults to the rounds paired."""
    settings = settings or ScoringSettings()
    players = []
    for i, p in enumerate(tsh.players, 1):
        klass = p.field("class")
        rated_games = _rated_games(p, f"player {i} ({p.name})")
        withdrawn = len(p.opponents) + 1 if p.field("off") is not None else None
        extra = tuple(
            (key, " ".join(values)) for key, values in p.fields if key not in _MODEL_FIELDS
        )
        players.append(
            Player(
                i, " ".join(p.name.split()), p.rating,
                player_class=" ".join(klass) if klass else None,
                withdrawn_from=withdrawn, extra=extra, rated_games=rated_games,
            )
        )
    rounds = [_round_games(tsh, r, settings) for r in range(1, tsh.rounds + 1)]
    try:
        return Division.restore(
            name, total_rounds or max(tsh.rounds, 1), players, rounds, settings
        )
    except TournamentError as exc:
        raise TshError(f"division {name}: {exc}") from None


def _rated_games(p: TshPlayer, where: str) -> int | None:
    """The player's career games before the event, TSH's ``lifeg`` (one number)."""
    values = p.field("lifeg")
    if values is None:
        return None
    if len(values) != 1:
        raise TshError(f"{where}: lifeg has {len(values)} values; expected one number")
    games = _int(values[0], "lifeg", where)
    if not 0 <= games <= MAX_RATED_GAMES:
        raise TshError(f"{where}: lifeg {games} out of 0 to {MAX_RATED_GAMES}")
    return games


def _forfeits(games: list[Game], settings: ScoringSettings) -> list[Game]:
    """Each pair of rounds without an opponent that share a board, one a win and the other
    a loss by the same spread, as the forfeit it records (see the module's docstring); every
    other round as read."""
    taken = {g.board for g in games if g.second is not None}
    at: dict[int, list[Game]] = {}
    for g in games:
        if g.second is None and g.board > 0 and g.board not in taken:
            at.setdefault(g.board, []).append(g)
    pairs: dict[int, Game] = {}
    for board, pair in at.items():
        if len(pair) != 2:
            continue
        spreads = [_unopposed_spread(g, settings) for g in pair]
        if sorted(g.kind for g in pair) != [GameKind.BYE, GameKind.MISSED]:
            continue
        won, lost = pair if pair[0].kind is GameKind.BYE else pair[::-1]
        win, loss = spreads if won is pair[0] else spreads[::-1]
        if (win, loss) == (settings.forfeit_win_spread, settings.forfeit_loss_spread):
            spread = None
        elif win == -loss:
            spread = win
        else:
            continue
        low, high = sorted((won.first, lost.first))
        pairs[board] = Game(low, high, board, GameKind.FORFEIT, None, lost.first, False, spread)
    out = [g for g in games if g.second is not None or g.board not in pairs]
    return out + list(pairs.values())


def _unopposed_spread(game: Game, settings: ScoringSettings) -> int:
    if game.spread is not None:
        return game.spread
    return settings.bye_spread if game.kind is GameKind.BYE else settings.forfeit_loss_spread


def _round_games(tsh: TshFile, r: int, settings: ScoringSettings) -> list[Game]:
    games: list[Game] = []
    board_of: dict[int, int] = {}
    for i, p in enumerate(tsh.players, 1):
        boards = _per_round(p, "board", f"player {i} ({p.name})") or ()
        board_of[i] = boards[r - 1] if r <= len(boards) else 0
    free_board = 1 + max(board_of.values(), default=0)
    for i, p in enumerate(tsh.players, 1):
        where = f"player {i} ({p.name}), round {r}"
        if r > len(p.opponents):
            continue
        o = p.opponents[r - 1]
        score = p.scores[r - 1] if r <= len(p.scores) else None
        board = board_of[i]
        if o == 0:
            if score == 0:
                raise TshError(f"{where}: a round without opponent scored 0 is neither a bye "
                               "nor a forfeit")
            kind = GameKind.MISSED if score is not None and score < 0 else GameKind.BYE
            default = settings.bye_spread if kind is GameKind.BYE else settings.forfeit_loss_spread
            spread = None if score is None or score == default else score
            games.append(Game(i, None, board, kind, spread=spread))
            continue
        if o < i and tsh.players[o - 1].opponents[r - 1:r] == (i,):
            continue  # the game is built from the lower number's line
        q = tsh.players[o - 1]
        if q.opponents[r - 1 : r] != (i,):
            raise TshError(f"{where}: plays {o}, but player {o} does not play {i}")
        other = q.scores[r - 1] if r <= len(q.scores) else None
        if (score is None) != (other is None):
            raise TshError(f"{where}: only one of players {i} and {o} has a score")
        p12 = _per_round(p, "p12", where) or ()
        order = p12[r - 1] if r <= len(p12) else 0
        first, second = (o, i) if order == 2 else (i, o)
        scores = None
        if score is not None and other is not None:
            scores = (score, other) if first == i else (other, score)
        if board == 0:
            board, free_board = free_board, free_board + 1
        games.append(Game(first, second, board, GameKind.GAME, scores, None, order in (1, 2)))
    games = _forfeits(games, settings)
    # by board, the rounds without an opponent (board 0) last, as the model pairs them
    return sorted(games, key=lambda g: (g.board == 0, g.board, g.first))


def _player_round(division: Division, game: Game, number: int) -> tuple[int, int | None, int, int]:
    """(opponent, score or None, p12, board) of player ``number`` in ``game``."""
    s = division.settings
    if game.kind in (GameKind.BYE, GameKind.MISSED):
        bye = game.kind is GameKind.BYE
        default = s.bye_spread if bye else s.forfeit_loss_spread
        return 0, default if game.spread is None else game.spread, 0, game.board
    if game.kind is GameKind.FORFEIT:
        lost = game.forfeited_by == number
        spread = s.forfeit_loss_spread if lost else s.forfeit_win_spread
        if game.spread is not None:
            spread = -abs(game.spread) if lost else abs(game.spread)
        return 0, spread, 0, game.board
    opponent = game.second if game.first == number else game.first
    assert opponent is not None
    p12 = (1 if game.first == number else 2) if game.first_known else 4
    score = None
    if game.scores is not None:
        score = game.scores[0] if game.first == number else game.scores[1]
    return opponent, score, p12, game.board


def from_division(division: Division) -> TshFile:
    """The ``.t`` lines of ``division``. A forfeit is written as TSH records one: no
    opponent, and the forfeit spreads as scores. Raises :class:`TshError` if a round before
    the last lacks a result (TSH lists each player's scores round by round, without gaps)."""
    players = []
    for player in division.players:
        opponents: list[int] = []
        scores: list[int] = []
        p12: list[str] = []
        boards: list[str] = []
        for r, games in enumerate(division.rounds, 1):
            game = next((g for g in games if player.number in g.players), None)
            if game is None:
                continue
            opponent, score, order, board = _player_round(division, game, player.number)
            if score is not None and len(scores) < len(opponents):
                raise TshError(
                    f"player {player.number} ({player.name}): round {r} has a result but an "
                    "earlier round has none"
                )
            opponents.append(opponent)
            if score is not None:
                scores.append(score)
            p12.append(str(order))
            boards.append(str(board))
        fields: list[tuple[str, tuple[str, ...]]] = []
        if opponents:
            fields += [("p12", tuple(p12)), ("board", tuple(boards))]
        if player.player_class:
            fields.append(("class", tuple(player.player_class.split())))
        if player.rated_games is not None:
            fields.append(("lifeg", (str(player.rated_games),)))
        kept = [(key, tuple(value.split())) for key, value in player.extra]
        if not player.active and not any(key == "off" for key, _ in kept):
            kept.append(("off", ("1",)))
        if player.active:
            kept = [(key, values) for key, values in kept if key != "off"]
        players.append(
            TshPlayer(player.name, player.rating, tuple(opponents), tuple(scores),
                      tuple(fields + kept))
        )
    return TshFile(tuple(players))


# -- config.tsh --------------------------------------------------------------------------


@dataclass(frozen=True)
class TshConfig:
    """The basics of a ``config.tsh``: its divisions (name, data file) in order, and its
    ``config`` settings as written (``max_rounds``, ``track_firsts`` read as numbers)."""

    divisions: tuple[tuple[str, str], ...]
    settings: tuple[tuple[str, str], ...]

    def setting(self, key: str) -> str | None:
        for k, v in self.settings:
            if k == key:
                return v
        return None

    @property
    def max_rounds(self) -> int | None:
        value = self.setting("max_rounds")
        return int(value) if value is not None else None

    @property
    def track_firsts(self) -> bool:
        value = self.setting("track_firsts")
        return value is not None and value not in ("0", "''", '""')


_CONFIG_LINE = re.compile(r"config\s+([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*;?\s*$")


def read_config(text: str) -> TshConfig:
    """Read a ``config.tsh``'s ``division NAME FILE`` and ``config KEY = VALUE`` lines
    (http://tsh.poslfit.com/doc/config.html); other lines (prizes, classes, autopair, perl)
    are for TSH itself and are skipped."""
    if len(text) > MAX_FILE_CHARS:
        raise TshError(f"a config of {len(text):,} characters; at most {MAX_FILE_CHARS:,}")
    lines = text.splitlines()
    if len(lines) > MAX_CONFIG_LINES:
        raise TshError(f"a config of {len(lines):,} lines; at most {MAX_CONFIG_LINES:,}")
    divisions: list[tuple[str, str]] = []
    settings: list[tuple[str, str]] = []
    for n, line in enumerate(lines, 1):
        if len(line) > MAX_LINE:
            raise TshError(f"line {n}: {len(line):,} characters; at most {MAX_LINE:,}")
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        keyword = words[0].lower()
        if keyword == "division":
            if len(words) != 3:
                raise TshError(
                    f"line {n}: expected 'division NAME FILE', got {excerpt(line, 40)!r}"
                )
            if any(d[0].lower() == words[1].lower() for d in divisions):
                raise TshError(f"line {n}: division {excerpt(words[1])!r} is declared twice")
            divisions.append((words[1], words[2]))
        elif keyword == "config":
            match = _CONFIG_LINE.match(line.strip())
            if not match:
                raise TshError(
                    f"line {n}: expected 'config KEY = VALUE', got {excerpt(line, 40)!r}"
                )
            key, value = match.groups()
            if key in ("max_rounds", "track_firsts") and not _INTEGER.fullmatch(value):
                raise TshError(f"line {n}: {key} = {excerpt(value)!r} is not a number")
            if key == "max_rounds" and not 1 <= int(value) <= MAX_ROUNDS:
                raise TshError(f"line {n}: max_rounds {value} out of 1 to {MAX_ROUNDS}")
            settings.append((key, value))
    return TshConfig(tuple(divisions), tuple(settings))


def divisions_of(config: TshConfig, files: Sequence[tuple[str, str]]) -> list[Division]:
    """The divisions of ``config``, given each data file's text as ``(file name, text)``."""
    texts = dict(files)
    out = []
    for name, filename in config.divisions:
        if filename not in texts:
            raise TshError(f"division {name}: no text given for its file {excerpt(filename)!r}")
        try:
            tsh = loads(texts[filename])
        except TshError as exc:
            raise TshError(f"{filename}: {exc}") from None
        out.append(to_division(tsh, name, config.max_rounds))
    return out


__all__ = [
    "MAX_LINE",
    "TshConfig",
    "TshError",
    "TshFile",
    "TshPlayer",
    "divisions_of",
    "dumps",
    "from_division",
    "loads",
    "read_config",
    "to_division",
]
