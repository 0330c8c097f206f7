"""The card box (Leitner) schedule of the anagram quiz, apart from where cards are kept.

A card sits in box 0..:data:`TOP_BOX`. A right answer moves it up one box and away for that
box's interval (a day in box 1, up to four months in the top box); a wrong answer sends it
back to box 0, due again ten minutes later — or sooner, after :data:`RETRY_AFTER` more
answers, so a word missed in a quiz comes back in the same sitting. Times are epoch
milliseconds given by the caller (the clock is the caller's, so tests choose it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

MINUTE_MS = 60_000
DAY_MS = 24 * 60 * MINUTE_MS
# how long a card rests in each box before it is due again
INTERVALS_MS = (
    10 * MINUTE_MS,  # box 0: missed (or new)
    1 * DAY_MS,
    3 * DAY_MS,
    7 * DAY_MS,
    14 * DAY_MS,
    30 * DAY_MS,
    60 * DAY_MS,
    120 * DAY_MS,
)
TOP_BOX = len(INTERVALS_MS) - 1
RETRY_AFTER = 3  # a missed card is asked again after this many other answers


@dataclass(frozen=True)
class Card:
    """One alphagram in a player's card box.

    ``retry_at`` is the player's answer count at which a missed card is due whatever the
    time (None once it has been answered right)."""

    alphagram: str
    box: int = 0
    due_ms: int = 0
    retry_at: int | None = None
    asked: int = 0
    missed: int = 0

    def is_due(self, now_ms: int, answers: int) -> bool:
        """Due by the clock, or a missed card whose turn has come round again."""
        return self.due_ms <= now_ms or (self.retry_at is not None and self.retry_at <= answers)


def review(card: Card, correct: bool, now_ms: int, answers: int) -> Card:
    """The card after an answer, given ``answers``: the player's answers so far, this one
    included."""
    if correct:
        box = min(card.box + 1, TOP_BOX)
        return replace(
            card, box=box, due_ms=now_ms + INTERVALS_MS[box], retry_at=None, asked=card.asked + 1
        )
    return replace(
        card,
        box=0,
        due_ms=now_ms + INTERVALS_MS[0],
        retry_at=answers + RETRY_AFTER,
        asked=card.asked + 1,
        missed=card.missed + 1,
    )
