"""The division model: an event's divisions, their players, rounds, pairings and results.

An :class:`Event` holds :class:`Division` objects; a division holds its players (numbered from
1 in entry order, as TSH numbers them) and its rounds, each round a tuple of :class:`Game`
values (who goes first, the board, the result). Every operation checks everything before it
changes anything, and refuses with a one-line :class:`TournamentError` naming what is wrong:
an event's record is never half-changed.

Nothing derived is stored: standings, a player's record and the pairing systems' history
(:meth:`Division.history`) are computed from the games each time, so correcting any result
recomputes everything after it, while the pairings already made stay as they were played.

Scoring conventions are :class:`ScoringSettings` with the common defaults: a win 1, a tie 1/2,
a bye a win worth +50 spread, a forfeit a loss worth -50 (and the forfeit winner +50).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Literal

from .history import DivisionHistory, Pairing, PlayerRecord
from .standings import (
    DEFAULT_TIE_BREAKS,
    Crosstable,
    Entrant,
    PlayerRound,
    Standing,
    check_tie_breaks,
    crosstable,
    standings,
)

# Bounds on what a director (or an imported file) can make: far above any real event.
MAX_PLAYERS = 2_000
MAX_ROUNDS = 200
MAX_NAME = 100
MAX_RATING = 4_000
MAX_SCORE = 1_500  # TSH refuses larger scores at entry too
MAX_RATED_GAMES = 1_000_000  # a player's career rated games


class TournamentError(ValueError):
    """An impossible request: one line naming what is wrong; nothing was changed."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))


@dataclass(frozen=True)
class ScoringSettings:
    """Every scoring convention of an event. ``forfeit_win_*`` is what the player whose
    opponent forfeited is credited with; ``missed`` rounds (a late entry's, by the director's
    choice) count as forfeit losses. ``tie_breaks`` names the tie-breaks after wins and spread,
    in order (see :data:`tessera.tournament.standings.TIE_BREAKS`)."""

    win: float = 1.0
    tie: float = 0.5
    loss: float = 0.0
    bye_points: float = 1.0
    bye_spread: int = 50
    forfeit_loss_points: float = 0.0
    forfeit_loss_spread: int = -50
    forfeit_win_points: float = 1.0
    forfeit_win_spread: int = 50
    max_score: int = MAX_SCORE
    tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS

    def __post_init__(self) -> None:
        if not self.loss < self.tie < self.win:
            raise TournamentError(
                f"scoring settings: need loss < tie < win, got {self.loss}, {self.tie}, "
                f"{self.win}"
            )
        if not 0 < self.max_score <= 100_000:
            raise TournamentError(f"scoring settings: max_score {self.max_score} out of range")
        try:
            check_tie_breaks(self.tie_breaks)
        except ValueError as exc:
            raise TournamentError(f"scoring settings: {exc}") from None

    def result_of(self, points: float) -> str:
        """``W``, ``T`` or ``L`` for a round credited with ``points``."""
        if points > self.tie:
            return "W"
        return "T" if points == self.tie else "L"


class GameKind(StrEnum):
    GAME = "game"  # two players over the board
    BYE = "bye"  # one player, credited as the settings' bye
    MISSED = "missed"  # one player, a forfeit loss (a late entry's missed round)
    FORFEIT = "forfeit"  # two players paired, ``forfeited_by`` did not play


@dataclass(frozen=True)
class Game:
    """One entry of a round. ``second`` is None for a bye or a missed round. ``scores`` is
    ``(first's, second's)`` once a game is played. ``first_known`` is False where who went
    first is not recorded (an imported file without firsts). ``spread`` overrides the
    settings' spread for a bye, missed round or forfeit (a file that recorded another)."""

    first: int
    second: int | None
    board: int
    kind: GameKind = GameKind.GAME
    scores: tuple[int, int] | None = None
    forfeited_by: int | None = None
    first_known: bool = True
    spread: int | None = None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    @property
    def complete(self) -> bool:
        return self.kind is not GameKind.GAME or self.scores is not None

    @property
    def has_result(self) -> bool:
        """A result the director entered (a score or a forfeit), as opposed to a bye."""
        return self.scores is not None or self.kind is GameKind.FORFEIT

    def describe(self) -> str:
        if self.second is None:
            return f"{self.first} ({self.kind.value})"
        return f"{self.first} v {self.second}"


@dataclass(frozen=True)
class Player:
    """A division's player. ``seed`` is the director's seed (None: by rating);
    ``joined_round`` is the first round the player could be paired in (a late entry's is
    above 1); ``withdrawn_from`` the first round they are no longer paired in. ``extra``
    keeps the fields of an imported file that Tessera does not use, to write them back.
    ``rated_games`` is how many rated games the player had before the event (None: not
    known; the rating system's multiplier depends on it)."""

    number: int
    name: str
    rating: int
    account: str | None = None
    player_class: str | None = None
    seed: int | None = None
    joined_round: int = 1
    withdrawn_from: int | None = None
    extra: tuple[tuple[str, str], ...] = field(default=())
    rated_games: int | None = None

    @property
    def active(self) -> bool:
        return self.withdrawn_from is None


def _check_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise TournamentError("a player needs a name")
    if len(name) > MAX_NAME:
        raise TournamentError(f"player name of {len(name)} characters; at most {MAX_NAME}")
    if ";" in name or "#" in name:
        raise TournamentError(f"player name {name!r} may not contain ';' or '#'")
    return name


def _check_rated_games(games: int | None, who: str) -> None:
    if games is None:
        return
    if isinstance(games, bool) or not isinstance(games, int) or not (
        0 <= games <= MAX_RATED_GAMES
    ):
        raise TournamentError(f"rated games {games!r} for {who}: must be 0 to {MAX_RATED_GAMES}")


class Division:
    """A division of an event: players, rounds and results (see the module's docstring)."""

    def __init__(
        self,
        name: str,
        total_rounds: int,
        settings: ScoringSettings | None = None,
        *,
        prizes: int = 1,
        max_spread_per_game: int = 500,
    ) -> None:
        if not name or len(name) > MAX_NAME or any(c.isspace() for c in name):
            raise TournamentError(f"division name {name[:MAX_NAME]!r} must be one short word")
        if not 1 <= total_rounds <= MAX_ROUNDS:
            raise TournamentError(f"a division plays 1 to {MAX_ROUNDS} rounds, not {total_rounds}")
        if prizes < 1:
            raise TournamentError(f"prizes must be at least 1, not {prizes}")
        self.name = name
        self.total_rounds = total_rounds
        self.settings = settings or ScoringSettings()
        self.prizes = prizes
        self.max_spread_per_game = max_spread_per_game
        self._players: list[Player] = []
        self._rounds: list[tuple[Game, ...]] = []

    @classmethod
    def restore(
        cls,
        name: str,
        total_rounds: int,
        players: Sequence[Player],
        rounds: Sequence[Sequence[Game]],
        settings: ScoringSettings | None = None,
        *,
        prizes: int = 1,
        max_spread_per_game: int = 500,
    ) -> Division:
        """A division rebuilt from stored players and games (a file, a database), checked
        as a whole: players numbered 1, 2, … in order, nobody twice in a round, every game's
        players known, scores in range, boards distinct."""
        division = cls(
            name, total_rounds, settings, prizes=prizes, max_spread_per_game=max_spread_per_game
        )
        if len(players) > MAX_PLAYERS:
            raise TournamentError(f"{len(players)} players; at most {MAX_PLAYERS}")
        if len(rounds) > total_rounds:
            raise TournamentError(f"{len(rounds)} rounds paired of {total_rounds}")
        for i, p in enumerate(players, 1):
            if p.number != i:
                raise TournamentError(f"player {p.name!r} is numbered {p.number}, expected {i}")
            if _check_name(p.name) != p.name:
                raise TournamentError(f"player {i}: name {p.name!r} has stray spaces")
            if not 0 <= p.rating <= MAX_RATING:
                raise TournamentError(f"player {i}: rating {p.rating} out of 0 to {MAX_RATING}")
            _check_rated_games(p.rated_games, f"player {i}")
        division._players = list(players)
        for r, games in enumerate(rounds, 1):
            division._check_restored_round(r, games)
            division._rounds.append(tuple(games))
        return division

    def _check_restored_round(self, r: int, games: Sequence[Game]) -> None:
        seen: set[int] = set()
        boards: set[int] = set()
        for game in games:
            where = f"round {r}, {game.describe()}"
            for number in game.players:
                player = self.player(number)
                if number in seen:
                    raise TournamentError(f"{where}: player {number} is in round {r} twice")
                if player.withdrawn_from is not None and r >= player.withdrawn_from:
                    raise TournamentError(f"{where}: player {number} withdrew before round {r}")
                seen.add(number)
            unopposed = game.kind in (GameKind.BYE, GameKind.MISSED)
            if unopposed != (game.second is None) or game.first == game.second:
                raise TournamentError(f"{where}: a {game.kind.value} with these players")
            if game.second is not None:
                if game.board < 1 or game.board in boards:
                    raise TournamentError(f"{where}: board {game.board} is not a free board")
                boards.add(game.board)
            for number, score in zip(game.players, game.scores or (), strict=False):
                self._check_score(number, score)
            if (game.kind is GameKind.FORFEIT) != (game.forfeited_by in game.players):
                raise TournamentError(f"{where}: forfeited by {game.forfeited_by}")

    # -- reading ----------------------------------------------------------------------

    @property
    def players(self) -> tuple[Player, ...]:
        return tuple(self._players)

    @property
    def rounds(self) -> tuple[tuple[Game, ...], ...]:
        """Every paired round, round 1 first."""
        return tuple(self._rounds)

    def player(self, number: int) -> Player:
        if not isinstance(number, int) or not 1 <= number <= len(self._players):
            raise TournamentError(
                f"division {self.name} has no player {number!r} (players 1 to "
                f"{len(self._players)})"
            )
        return self._players[number - 1]

    def seeds(self) -> dict[int, int]:
        """Each player's seed, 1 the top: the director's seeds first, then by rating."""
        order = sorted(
            self._players,
            key=lambda p: (p.seed if p.seed is not None else MAX_PLAYERS + 1, -p.rating, p.number),
        )
        return {p.number: i for i, p in enumerate(order, 1)}

    def round_games(self, round_number: int) -> tuple[Game, ...]:
        if not isinstance(round_number, int) or not 1 <= round_number <= len(self._rounds):
            raise TournamentError(
                f"round {round_number!r} of division {self.name} is not paired (rounds paired: "
                f"{len(self._rounds)})"
            )
        return self._rounds[round_number - 1]

    def missing_results(self, round_number: int) -> tuple[Game, ...]:
        return tuple(g for g in self.round_games(round_number) if not g.complete)

    @property
    def rounds_complete(self) -> int:
        """How many rounds, from round 1, have every result."""
        n = 0
        for games in self._rounds:
            if not all(g.complete for g in games):
                break
            n += 1
        return n

    # -- players ----------------------------------------------------------------------

    def add_player(
        self,
        name: str,
        rating: int,
        *,
        account: str | None = None,
        player_class: str | None = None,
        seed: int | None = None,
        missed: Literal["forfeit", "bye"] | None = None,
        rated_games: int | None = None,
    ) -> Player:
        """Add a player; once rounds are paired this is a late entry, joining at the next
        round, and ``missed`` says how the rounds already paired count: ``"forfeit"`` (a
        forfeit loss each) or ``"bye"`` (a bye each). ``rated_games``: the player's rated
        games before the event, if known."""
        name = _check_name(name)
        if not isinstance(rating, int) or not 0 <= rating <= MAX_RATING:
            raise TournamentError(f"rating {rating!r} for {name}: must be 0 to {MAX_RATING}")
        if len(self._players) >= MAX_PLAYERS:
            raise TournamentError(f"division {self.name} already has {MAX_PLAYERS} players")
        if seed is not None and not 1 <= seed <= MAX_PLAYERS:
            raise TournamentError(f"seed {seed!r} for {name}: must be 1 to {MAX_PLAYERS}")
        if account is not None and not 0 < len(account) <= MAX_NAME:
            raise TournamentError(f"account for {name}: 1 to {MAX_NAME} characters")
        if player_class is not None and (not player_class or len(player_class) > 20):
            raise TournamentError(f"class {player_class!r} for {name}: 1 to 20 characters")
        _check_rated_games(rated_games, name)
        paired = len(self._rounds)
        if paired and missed not in ("forfeit", "bye"):
            raise TournamentError(
                f"{name} joins late, at round {paired + 1}: say whether the {paired} missed "
                "round(s) count as forfeit losses or byes"
            )
        if paired >= self.total_rounds:
            raise TournamentError(f"every round of division {self.name} is already paired")
        number = len(self._players) + 1
        player = Player(
            number, name, rating, account, player_class, seed, joined_round=paired + 1,
            rated_games=rated_games,
        )
        kind = GameKind.BYE if missed == "bye" else GameKind.MISSED
        self._rounds = [(*games, Game(number, None, 0, kind)) for games in self._rounds]
        self._players.append(player)
        return player

    def withdraw(self, number: int) -> Player:
        """Withdraw a player from the next round to be paired on: never paired again. A game
        already paired stays (enter its result or a forfeit)."""
        player = self.player(number)
        if not player.active:
            raise TournamentError(
                f"player {number} ({player.name}) already withdrew from round "
                f"{player.withdrawn_from}"
            )
        updated = replace(player, withdrawn_from=len(self._rounds) + 1)
        self._players[number - 1] = updated
        return updated

    # -- pairing ----------------------------------------------------------------------

    def pair_round(self, pairings: Sequence[Pairing]) -> int:
        """Post the next round's pairings; returns its number. Every active player appears
        exactly once; the round before must be complete."""
        round_number = len(self._rounds) + 1
        if round_number > self.total_rounds:
            raise TournamentError(
                f"division {self.name} plays {self.total_rounds} rounds; all are paired"
            )
        if self._rounds and self.rounds_complete < len(self._rounds):
            last = len(self._rounds)
            waiting = ", ".join(g.describe() for g in self.missing_results(last)[:5])
            raise TournamentError(
                f"cannot pair round {round_number}: round {last} is not complete "
                f"(no result for {waiting})"
            )
        if not pairings:
            raise TournamentError(f"round {round_number} of division {self.name} has no games")
        seen: dict[int, int] = {}
        boards: set[int] = set()
        games = []
        for p in pairings:
            for number in (p.first, p.second):
                if number is None:
                    continue
                player = self.player(number)
                if not player.active:
                    raise TournamentError(
                        f"player {number} ({player.name}) withdrew and cannot be paired in "
                        f"round {round_number}"
                    )
                if number in seen:
                    raise TournamentError(
                        f"player {number} is paired twice in round {round_number}"
                    )
                seen[number] = p.board
            if p.second is not None:
                if p.board < 1:
                    raise TournamentError(
                        f"board {p.board} in round {round_number}: boards start at 1"
                    )
                if p.board in boards:
                    raise TournamentError(f"board {p.board} is used twice in round {round_number}")
                boards.add(p.board)
            elif p.board < 0:
                raise TournamentError(f"board {p.board} in round {round_number} is negative")
            kind = GameKind.GAME if p.second is not None else GameKind.BYE
            games.append(Game(p.first, p.second, p.board, kind))
        missing = [p.number for p in self._players if p.active and p.number not in seen]
        if missing:
            shown = ", ".join(map(str, missing[:10]))
            raise TournamentError(f"round {round_number} leaves out player(s) {shown}")
        self._rounds.append(tuple(games))
        return round_number

    def unpair_last_round(self) -> int:
        """Undo the last round's pairings while no result is entered; returns its number."""
        if not self._rounds:
            raise TournamentError(f"division {self.name} has no round to unpair")
        last = len(self._rounds)
        entered = [g.describe() for g in self._rounds[-1] if g.has_result]
        if entered:
            raise TournamentError(
                f"round {last} has results ({', '.join(entered[:5])}); clear them first"
            )
        late = [p.number for p in self._players if p.joined_round > last]
        if late:
            raise TournamentError(
                f"player(s) {', '.join(map(str, late))} joined after round {last} was paired"
            )
        self._rounds.pop()
        return last

    # -- results ----------------------------------------------------------------------

    def _find(self, round_number: int, number: int) -> tuple[int, Game]:
        self.player(number)
        for i, game in enumerate(self.round_games(round_number)):
            if number in game.players:
                return i, game
        raise TournamentError(f"player {number} was not paired in round {round_number}")

    def _paired_game(
        self, round_number: int, player: int, opponent: int
    ) -> tuple[int, Game]:
        self.player(opponent)
        i, game = self._find(round_number, player)
        if opponent not in game.players or player == opponent:
            raise TournamentError(
                f"players {player} and {opponent} were not paired in round {round_number} "
                f"(round {round_number}: {game.describe()})"
            )
        return i, game

    def _check_score(self, number: int, score: int) -> None:
        if not isinstance(score, int) or isinstance(score, bool):
            raise TournamentError(f"score {score!r} for player {number} is not a whole number")
        if score < 0:
            raise TournamentError(f"negative score {score} for player {number}")
        if score > self.settings.max_score:
            raise TournamentError(
                f"score {score} for player {number} is above the limit of "
                f"{self.settings.max_score}"
            )

    def _set(self, round_number: int, index: int, game: Game) -> None:
        games = list(self._rounds[round_number - 1])
        games[index] = game
        self._rounds[round_number - 1] = tuple(games)

    def record_result(
        self, round_number: int, player: int, score: int, opponent: int, opponent_score: int
    ) -> Game:
        """Enter a game's scores (in either player order)."""
        return self._score(round_number, player, score, opponent, opponent_score, False)

    def correct_result(
        self, round_number: int, player: int, score: int, opponent: int, opponent_score: int
    ) -> Game:
        """Replace a game's entered result (scores or a forfeit) with these scores."""
        return self._score(round_number, player, score, opponent, opponent_score, True)

    def _score(
        self, round_number: int, player: int, score: int, opponent: int, opponent_score: int,
        correcting: bool,
    ) -> Game:
        i, game = self._paired_game(round_number, player, opponent)
        self._check_score(player, score)
        self._check_score(opponent, opponent_score)
        self._check_entry(round_number, game, correcting)
        scores = (score, opponent_score) if game.first == player else (opponent_score, score)
        updated = replace(game, kind=GameKind.GAME, scores=scores, forfeited_by=None)
        self._set(round_number, i, updated)
        return updated

    def _check_entry(self, round_number: int, game: Game, correcting: bool) -> None:
        """A correction needs a result to correct; a first entry needs none yet."""
        if correcting and not game.has_result:
            raise TournamentError(
                f"round {round_number}: {game.describe()} has no result to correct"
            )
        if not correcting and game.has_result:
            raise TournamentError(
                f"round {round_number}: {game.describe()} already has a result "
                f"({self._shown(game)}); correct it instead"
            )

    @staticmethod
    def _shown(game: Game) -> str:
        if game.scores is not None:
            return f"{game.scores[0]}-{game.scores[1]}"
        return f"forfeit by {game.forfeited_by}"

    def record_forfeit(
        self, round_number: int, loser: int, opponent: int | None = None, *,
        correcting: bool = False,
    ) -> Game:
        """The player ``loser`` forfeited their paired game: a forfeit loss for them, the
        settings' forfeit win for the opponent. ``opponent``, if given, must be the player
        ``loser`` was paired against; ``correcting`` replaces the game's entered result."""
        if opponent is None:
            i, game = self._find(round_number, loser)
        else:
            i, game = self._paired_game(round_number, loser, opponent)
        if game.second is None:
            raise TournamentError(
                f"player {loser} has no opponent in round {round_number} to forfeit to"
            )
        self._check_entry(round_number, game, correcting)
        updated = replace(game, kind=GameKind.FORFEIT, scores=None, forfeited_by=loser)
        self._set(round_number, i, updated)
        return updated

    def clear_result(self, round_number: int, player: int) -> Game:
        """Undo an entered result: the game is paired and unplayed again."""
        i, game = self._find(round_number, player)
        if not game.has_result:
            raise TournamentError(
                f"round {round_number}: {game.describe()} has no result to clear"
            )
        updated = replace(game, kind=GameKind.GAME, scores=None, forfeited_by=None)
        self._set(round_number, i, updated)
        return updated

    # -- records and standings ----------------------------------------------------------

    def _round_of(self, round_number: int, number: int, game: Game) -> PlayerRound | None:
        s = self.settings
        if game.kind is GameKind.GAME:
            if game.scores is None:
                return None
            mine, theirs = game.scores if game.first == number else game.scores[::-1]
            points = s.win if mine > theirs else s.tie if mine == theirs else s.loss
            went_first = (game.first == number) if game.first_known else None
            opponent = game.second if game.first == number else game.first
            return PlayerRound(
                round_number, opponent, went_first, mine, theirs, points, mine - theirs,
                s.result_of(points), game.kind.value, game.board,
            )
        if game.kind is GameKind.FORFEIT:
            opponent = game.second if game.first == number else game.first
            lost = game.forfeited_by == number
            points = s.forfeit_loss_points if lost else s.forfeit_win_points
            if game.spread is not None:
                spread = -abs(game.spread) if lost else abs(game.spread)
            else:
                spread = s.forfeit_loss_spread if lost else s.forfeit_win_spread
        else:
            opponent = None
            bye = game.kind is GameKind.BYE
            points = s.bye_points if bye else s.forfeit_loss_points
            default = s.bye_spread if bye else s.forfeit_loss_spread
            spread = default if game.spread is None else game.spread
        return PlayerRound(
            round_number, opponent, None, None, None, points, spread, s.result_of(points),
            game.kind.value, game.board,
        )

    def player_rounds(self, number: int, through: int | None = None) -> tuple[PlayerRound, ...]:
        """Player ``number``'s record round by round (rounds with a result), to round
        ``through`` (default: every round)."""
        self.player(number)
        last = len(self._rounds) if through is None else min(through, len(self._rounds))
        out = []
        for r in range(1, last + 1):
            for game in self._rounds[r - 1]:
                if number in game.players:
                    entry = self._round_of(r, number, game)
                    if entry is not None:
                        out.append(entry)
                    break
        return tuple(out)

    def _entrants(self) -> list[Entrant]:
        seeds = self.seeds()
        return [
            Entrant(p.number, p.name, p.rating, seeds[p.number], p.player_class, p.active)
            for p in self._players
        ]

    def standings(self, through: int | None = None) -> tuple[Standing, ...]:
        """The standings after round ``through`` (default: every result entered)."""
        records = {e: self.player_rounds(e.number, through) for e in self._entrants()}
        return standings(records, self.settings.tie_breaks)

    def crosstable(self, through: int | None = None) -> Crosstable:
        last = len(self._rounds) if through is None else min(through, len(self._rounds))
        return crosstable(self.standings(through), last)

    def history(self) -> DivisionHistory:
        """What the pairing systems see: the complete rounds, players in standings order."""
        played = self.rounds_complete
        table = self.standings(played)
        players = []
        for s in table:
            p = self._players[s.number - 1]
            players.append(
                PlayerRecord(
                    number=p.number,
                    name=p.name,
                    rating=p.rating,
                    seed=s.entrant.seed,
                    wins=s.points,
                    spread=s.spread,
                    opponents=tuple(r.opponent for r in s.rounds),
                    firsts=s.firsts,
                    seconds=s.seconds,
                    byes=s.byes,
                    active=p.active,
                    sides=tuple(
                        None if r.went_first is None else 1 if r.went_first else 2
                        for r in s.rounds
                    ),
                )
            )
        return DivisionHistory(
            tuple(players), played, self.total_rounds, self.prizes, self.max_spread_per_game
        )


class Event:
    """A tournament: a name and its divisions, by name."""

    def __init__(self, name: str) -> None:
        if not name.strip() or len(name) > MAX_NAME:
            raise TournamentError(f"event name must be 1 to {MAX_NAME} characters")
        self.name = name
        self._divisions: dict[str, Division] = {}

    @property
    def divisions(self) -> tuple[Division, ...]:
        return tuple(self._divisions.values())

    def add_division(self, division: Division) -> Division:
        if division.name in self._divisions:
            raise TournamentError(f"event {self.name} already has a division {division.name}")
        self._divisions[division.name] = division
        return division

    def division(self, name: str) -> Division:
        try:
            return self._divisions[name]
        except KeyError:
            known = ", ".join(self._divisions) or "none"
            raise TournamentError(f"no division {name!r} (divisions: {known})") from None


__all__ = [
    "MAX_NAME",
    "MAX_PLAYERS",
    "MAX_RATED_GAMES",
    "MAX_RATING",
    "MAX_ROUNDS",
    "MAX_SCORE",
    "Division",
    "Event",
    "Game",
    "GameKind",
    "Player",
    "ScoringSettings",
    "TournamentError",
]
