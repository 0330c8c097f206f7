"""The director's simulator: random events played through the real division model, to see how
a pairing system behaves before choosing it (issue 38, ``tessera tournament simulate``).

One event (:func:`play_event`) adds ``players`` players with ratings to a
:class:`~tessera.tournament.model.Division`, then for each round pairs it with a system from
:data:`tessera.tournament.pairing.SYSTEMS` (``Division.history`` -> ``pair_round`` ->
``Division.pair_round``) and enters a result for every game (``Division.record_result``) drawn
by the :class:`ResultModel`:

* who wins: NASPA's expectation, ``1 - 1/(1 + exp(0.0031879 * delta))`` for the player rated
  ``delta`` above the opponent (:func:`tessera.tournament.ratings.naspa.expected_wins`);
* by how much: the spread from the first player's side is normal, with standard deviation
  ``spread_sd`` and the mean that makes a positive spread exactly as likely as that
  expectation; it is rounded to whole points, so a spread within half a point of 0 is a tie
  (about 0.4 % of games with the default 100), as over the board;
* the scores: the two scores average a normal ``mean_score`` +/- ``score_sd``, apart by the
  spread, never below 0 or above the division's limit.

Each event is seeded on its own (the run's seed and its index), so a run and any one event of
it reproduce exactly. :func:`simulate` plays a run and sums up, per event and over the run
(:class:`SimulationReport`): repeat pairings, byes (the most any player had, and byes that went
to a player who had more than another active player), Gibson cases (rounds paired while a
leader had clinched first), the firsts balance (the largest ``|firsts - seconds|``) and how often
the top seed (the highest-rated player) won the event.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from statistics import NormalDist

from .history import DivisionHistory, Pairing
from .model import MAX_PLAYERS, MAX_RATING, MAX_ROUNDS, Division, TournamentError
from .pairing import SYSTEMS, PairingSettings, pair_round
from .pairing.gibson import clinched_first
from .ratings.naspa import expected_wins

MAX_EVENTS = 1_000_000
# the systems that pair on their own (``manual`` needs a director's pairs every round)
SIMULATED_SYSTEMS = tuple(name for name in SYSTEMS if name != "manual")
# NASPA's expectation never reaches 0 or 1 in exact arithmetic; in floating point it can
_EXPECTATION_FLOOR = 1e-9


@dataclass(frozen=True)
class ResultModel:
    """How a simulated game's result is drawn (see the module's docstring): the spread's
    standard deviation, and the mean and standard deviation of the two scores' average."""

    spread_sd: float = 100.0
    mean_score: float = 390.0
    score_sd: float = 40.0

    def __post_init__(self) -> None:
        for name in ("spread_sd", "mean_score", "score_sd"):
            value = getattr(self, name)
            if not 0 <= value <= 1_000:
                raise TournamentError(f"result model: {name} {value} out of 0 to 1000")

    def spread(self, first_rating: float, second_rating: float, rng: random.Random) -> int:
        """The first player's spread in one game (negative: the second player won)."""
        expectation = expected_wins(first_rating, second_rating)
        expectation = min(max(expectation, _EXPECTATION_FLOOR), 1 - _EXPECTATION_FLOOR)
        mean = self.spread_sd * NormalDist().inv_cdf(expectation)
        return round(rng.gauss(mean, self.spread_sd))

    def scores(
        self, first_rating: float, second_rating: float, max_score: int, max_spread: int,
        rng: random.Random,
    ) -> tuple[int, int]:
        """(first's score, second's score) of one game, each from 0 to ``max_score``, apart
        by at most ``max_spread``."""
        limit = min(max_score, max_spread)
        spread = max(-limit, min(limit, self.spread(first_rating, second_rating, rng)))
        average = rng.gauss(self.mean_score, self.score_sd)
        low = min(max(0, round(average - abs(spread) / 2)), max_score - abs(spread))
        high = low + abs(spread)
        return (high, low) if spread >= 0 else (low, high)


@dataclass(frozen=True)
class SimulationConfig:
    """One kind of event to simulate: ``players`` players over ``rounds`` rounds paired by
    ``system`` (a name in :data:`SIMULATED_SYSTEMS`) with ``settings``. Ratings are drawn
    normal (``rating_mean`` +/- ``rating_sd``, within 0 to the model's limit) unless
    ``ratings`` gives each player's. ``prizes`` and ``max_spread_per_game`` are the
    division's (they decide prize contention and Gibsonization). ``withdrawals`` lists
    (round, player number): the player withdraws before that round is paired. Initial Fontes
    pairs only its opening rounds (``settings.fontes_rounds``): with ``system="fontes"`` the
    rounds after them are paired by ``then_system``."""

    system: str = "swiss"
    players: int = 40
    rounds: int = 12
    settings: PairingSettings = field(default_factory=PairingSettings)
    ratings: tuple[int, ...] | None = None
    rating_mean: float = 1500.0
    rating_sd: float = 250.0
    prizes: int = 1
    max_spread_per_game: int = 500
    result_model: ResultModel = field(default_factory=ResultModel)
    withdrawals: tuple[tuple[int, int], ...] = ()
    then_system: str = "swiss"

    def __post_init__(self) -> None:
        for name in (self.system, self.then_system):
            if name not in SIMULATED_SYSTEMS:
                raise TournamentError(
                    f"cannot simulate pairing system {name!r}; have: "
                    f"{', '.join(SIMULATED_SYSTEMS)}"
                )
        if not 2 <= self.players <= MAX_PLAYERS:
            raise TournamentError(f"simulate 2 to {MAX_PLAYERS} players, not {self.players}")
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise TournamentError(f"simulate 1 to {MAX_ROUNDS} rounds, not {self.rounds}")
        if self.ratings is not None and len(self.ratings) != self.players:
            raise TournamentError(
                f"{len(self.ratings)} ratings given for {self.players} players"
            )
        if not 0 <= self.rating_mean <= MAX_RATING or not 0 <= self.rating_sd <= MAX_RATING:
            raise TournamentError(
                f"rating mean {self.rating_mean} and spread {self.rating_sd}: each 0 to "
                f"{MAX_RATING}"
            )
        for round_number, number in self.withdrawals:
            if not 1 <= round_number <= self.rounds or not 1 <= number <= self.players:
                raise TournamentError(
                    f"withdrawal of player {number} before round {round_number}: no such "
                    f"player or round"
                )

    def system_for_round(self, round_number: int) -> str:
        """The name of the system that pairs round ``round_number``."""
        if self.system == "fontes" and round_number > self.settings.fontes_rounds:
            return self.then_system
        return self.system


@dataclass(frozen=True)
class SimulatedRound:
    """One round of a simulated event: the history it was paired from and its pairings."""

    history: DivisionHistory
    pairings: tuple[Pairing, ...]


@dataclass(frozen=True)
class EventOutcome:
    """What one simulated event shows. ``repeats``: games between players who had met before.
    ``max_byes``: the most byes one player had. ``uneven_byes``: byes that went to a player
    with more byes than another active player. ``gibson_rounds``: rounds paired while a leader
    had clinched first. ``max_firsts_imbalance``: the largest ``|firsts - seconds|`` of a
    player; ``players_off_even``: players who ended with it 2 or more. ``top_seed_won``: the
    highest-rated player finished first."""

    repeats: int
    max_byes: int
    uneven_byes: int
    gibson_rounds: int
    max_firsts_imbalance: int
    players_off_even: int
    top_seed_won: bool


@dataclass(frozen=True)
class SimulatedEvent:
    """A simulated event: the division as played, every round, and its outcome."""

    division: Division
    rounds: tuple[SimulatedRound, ...]
    outcome: EventOutcome


def event_seed(seed: int, index: int) -> str:
    """The seed of event ``index`` of a run seeded ``seed`` (a string seeds :mod:`random` the
    same way on every platform and run)."""
    return f"tessera-simulate:{seed}:{index}"


def _ratings(config: SimulationConfig, rng: random.Random) -> tuple[int, ...]:
    if config.ratings is not None:
        return config.ratings
    return tuple(
        min(MAX_RATING, max(0, round(rng.gauss(config.rating_mean, config.rating_sd))))
        for _ in range(config.players)
    )


def uneven_byes(history: DivisionHistory, pairings: list[Pairing]) -> int:
    """How many byes of ``pairings`` went to a player who had more byes than another active
    player of ``history`` (the history the round was paired from)."""
    active = [p for p in history.players if p.active]
    fewest = min((p.byes for p in active), default=0)
    return sum(
        1 for p in pairings if p.second is None and history.player(p.first).byes > fewest
    )


def play_event(config: SimulationConfig, seed: int, index: int = 0) -> SimulatedEvent:
    """Event ``index`` of a run seeded ``seed``, played round by round through a
    :class:`Division` (see the module's docstring). Raises :class:`TournamentError` or
    :class:`~tessera.tournament.pairing.PairingError` if the system cannot pair a round (a
    round robin with more rounds than its schedule, say)."""
    rng = random.Random(event_seed(seed, index))
    division = Division(
        "SIM", config.rounds, prizes=config.prizes,
        max_spread_per_game=config.max_spread_per_game,
    )
    for number, rating in enumerate(_ratings(config, rng), 1):
        division.add_player(f"Player {number}", rating)
    leaving: dict[int, list[int]] = {}
    for round_number, number in config.withdrawals:
        leaving.setdefault(round_number, []).append(number)
    max_score = division.settings.max_score
    played: list[SimulatedRound] = []
    uneven_byes_seen = gibson_rounds = 0
    for round_number in range(1, config.rounds + 1):
        for number in leaving.get(round_number, ()):
            if division.player(number).active:
                division.withdraw(number)
        history = division.history()
        pairings = pair_round(
            config.system_for_round(round_number), history, config.settings,
            random.Random(rng.getrandbits(64)),
        )
        division.pair_round(pairings)
        uneven_byes_seen += uneven_byes(history, pairings)
        gibson_rounds += clinched_first(history, config.settings.gibson_on_spread) is not None
        for game in pairings:
            if game.second is None:
                continue
            first, second = division.player(game.first), division.player(game.second)
            scores = config.result_model.scores(
                first.rating, second.rating, max_score, config.max_spread_per_game, rng
            )
            division.record_result(round_number, game.first, scores[0], game.second, scores[1])
        played.append(SimulatedRound(history, tuple(pairings)))
    table = division.standings()
    top_seed = min(division.seeds().items(), key=lambda item: item[1])[0]
    outcome = EventOutcome(
        repeats=sum(s.repeats for s in table) // 2,
        max_byes=max(s.byes for s in table),
        uneven_byes=uneven_byes_seen,
        gibson_rounds=gibson_rounds,
        max_firsts_imbalance=max(abs(s.firsts - s.seconds) for s in table),
        players_off_even=sum(abs(s.firsts - s.seconds) >= 2 for s in table),
        top_seed_won=table[0].number == top_seed,
    )
    return SimulatedEvent(division, tuple(played), outcome)


@dataclass(frozen=True)
class SimulationReport:
    """A run's outcomes, one per event in order, and their sums."""

    config: SimulationConfig
    seed: int
    outcomes: tuple[EventOutcome, ...]

    @property
    def events(self) -> int:
        return len(self.outcomes)

    @property
    def repeats(self) -> int:
        return sum(o.repeats for o in self.outcomes)

    @property
    def events_with_repeats(self) -> int:
        return sum(o.repeats > 0 for o in self.outcomes)

    @property
    def max_byes(self) -> int:
        return max((o.max_byes for o in self.outcomes), default=0)

    @property
    def uneven_byes(self) -> int:
        return sum(o.uneven_byes for o in self.outcomes)

    @property
    def gibson_rounds(self) -> int:
        return sum(o.gibson_rounds for o in self.outcomes)

    @property
    def events_with_gibson(self) -> int:
        return sum(o.gibson_rounds > 0 for o in self.outcomes)

    @property
    def max_firsts_imbalance(self) -> int:
        return max((o.max_firsts_imbalance for o in self.outcomes), default=0)

    @property
    def players_off_even(self) -> int:
        return sum(o.players_off_even for o in self.outcomes)

    @property
    def top_seed_wins(self) -> int:
        return sum(o.top_seed_won for o in self.outcomes)

    def lines(self) -> list[str]:
        """The report as lines of text, for the command line."""
        c, n = self.config, max(1, self.events)
        systems = {c.system_for_round(r): None for r in range(1, c.rounds + 1)}
        return [
            f"{self.events} events of {c.players} players x {c.rounds} rounds, paired "
            f"{' then '.join(systems)}, seed {self.seed}",
            f"repeat pairings: {self.repeats} ({self.repeats / n:.2f} an event; "
            f"{self.events_with_repeats} events had any)",
            f"byes: at most {self.max_byes} for one player; {self.uneven_byes} went to a "
            "player with more byes than another",
            f"Gibson cases: {self.gibson_rounds} rounds paired with first place clinched, "
            f"in {self.events_with_gibson} events",
            f"firsts balance: |firsts - seconds| at most {self.max_firsts_imbalance}; "
            f"{self.players_off_even} of {self.events * c.players} players ended 2 or more "
            "from even",
            f"the top seed won {self.top_seed_wins} events "
            f"({100 * self.top_seed_wins / n:.1f}%)",
        ]


def simulate(
    config: SimulationConfig,
    events: int,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> SimulationReport:
    """Play ``events`` events of ``config`` (event ``i`` is ``play_event(config, seed, i)``)
    and sum them up. ``progress(done, events)`` is called after each event."""
    if not 1 <= events <= MAX_EVENTS:
        raise TournamentError(f"simulate 1 to {MAX_EVENTS:,} events, not {events}")
    outcomes = []
    for index in range(events):
        outcomes.append(play_event(config, seed, index).outcome)
        if progress is not None:
            progress(index + 1, events)
    return SimulationReport(config, seed, tuple(outcomes))


__all__ = [
    "MAX_EVENTS",
    "SIMULATED_SYSTEMS",
    "EventOutcome",
    "ResultModel",
    "SimulatedEvent",
    "SimulatedRound",
    "SimulationConfig",
    "SimulationReport",
    "event_seed",
    "play_event",
    "simulate",
    "uneven_byes",
]
