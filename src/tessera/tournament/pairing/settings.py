"""The knobs of the pairing systems, in one frozen dataclass with the common defaults."""

from __future__ import annotations

from dataclasses import dataclass

from tessera.tournament.pairing.errors import PairingError

FIRSTS_RULES = ("naspa", "random")
GIBSON_MODES = ("highest_non_contender", "bye", "off")
MAX_WINDOW = 10_000
MAX_MANUAL_PAIRS = 10_000


@dataclass(frozen=True)
class PairingSettings:
    """How a division is paired.

    ``repeat_limit``: how many times two players may meet before a further meeting costs the
    matching a prohibitive weight (still chosen when nothing else pairs everyone).
    ``firsts_rule``: how a tie in firsts is broken (:mod:`.firsts`). ``gibson``: what a player
    who has clinched first does (:mod:`.gibson`); ``gibson_on_spread`` lets a lead that cannot
    be caught on wins *and spread* count as clinched. ``fontes_rounds``: how many opening rounds
    Initial Fontes pairs (odd, so groups of ``fontes_rounds + 1`` play a round robin).
    ``candidate_window``: the matching's graph joins each player to the next this many in the
    standings (:mod:`.matching`). ``policies``: the names of the matching's weight policies that
    are switched on (None: all). ``manual_pairings``: the director's pairs for ``manual``, each
    (first, second) by player number, second None for a bye. ``last_round_koth``: in a Swiss
    division's last round, the prize contenders play King of the Hill among themselves (1v2,
    3v4, ... repeats or not) and only the others are matched.
    """

    repeat_limit: int = 1
    firsts_rule: str = "naspa"
    gibson: str = "highest_non_contender"
    gibson_on_spread: bool = True
    fontes_rounds: int = 3
    candidate_window: int = 12
    policies: tuple[str, ...] | None = None
    manual_pairings: tuple[tuple[int, int | None], ...] = ()
    last_round_koth: bool = False

    def __post_init__(self) -> None:
        if self.repeat_limit < 1:
            raise PairingError(f"repeat_limit must be at least 1, not {self.repeat_limit}")
        if self.firsts_rule not in FIRSTS_RULES:
            raise PairingError(
                f"unknown firsts_rule {self.firsts_rule!r}; have: {', '.join(FIRSTS_RULES)}")
        if self.gibson not in GIBSON_MODES:
            raise PairingError(
                f"unknown gibson mode {self.gibson!r}; have: {', '.join(GIBSON_MODES)}")
        if self.fontes_rounds < 1 or self.fontes_rounds % 2 == 0 or self.fontes_rounds > 15:
            raise PairingError(
                f"fontes_rounds must be odd, from 1 to 15, not {self.fontes_rounds}")
        if not 1 <= self.candidate_window <= MAX_WINDOW:
            raise PairingError(
                f"candidate_window must be from 1 to {MAX_WINDOW}, not {self.candidate_window}")
        if len(self.manual_pairings) > MAX_MANUAL_PAIRS:
            raise PairingError(
                f"{len(self.manual_pairings)} manual pairs; at most {MAX_MANUAL_PAIRS}")
