"""Each player's card box of quiz alphagrams, in the game store's database.

A row is one alphagram a user has answered in one lexicon: its box, when it is due (epoch
ms), the answer count at which a missed card returns, how often it was asked and missed. The
schedule is :mod:`.cardbox`'s; the player's answer count is the sum of their cards' ``asked``.
The next question of a length is a due card (missed ones first), else the likeliest alphagram
not yet in the box, else the card due soonest. ``clock`` (epoch ms) is injectable for tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .cardbox import INTERVALS_MS, RETRY_AFTER, TOP_BOX, Card, review
from .schema import cards_table
from .storage import Storage


def _now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class Pick:
    """The next question: an alphagram, its card (None: new to the player), and why it was
    picked: ``due``, ``new`` or ``ahead`` (nothing due, nothing new: the soonest card)."""

    alphagram: str
    card: Card | None
    why: str


def card_json(card: Card | None) -> dict[str, Any] | None:
    if card is None:
        return None
    return {
        "alphagram": card.alphagram,
        "box": card.box,
        "due_ms": card.due_ms,
        "retry_at": card.retry_at,
        "asked": card.asked,
        "missed": card.missed,
    }


def _card(row: Any) -> Card:
    return Card(row.alphagram, row.box, row.due_at, row.retry_at, row.asked, row.missed)


class StudyCards:
    """The card boxes of every user (one per lexicon), over the game store's engine."""

    def __init__(self, storage: Storage, clock: Callable[[], int] = _now_ms) -> None:
        self.engine = storage.engine
        self.clock = clock

    @staticmethod
    def _answers(conn: Connection, user_id: str, lexicon: str) -> int:
        total = conn.execute(
            select(func.coalesce(func.sum(cards_table.c.asked), 0)).where(
                cards_table.c.user_id == user_id, cards_table.c.lexicon == lexicon
            )
        ).scalar()
        return int(total or 0)

    @staticmethod
    def _of_length(user_id: str, lexicon: str, length: int) -> Any:
        c = cards_table.c
        return (c.user_id == user_id, c.lexicon == lexicon, c.length == length)

    def _due(self, now: int, answers: int) -> Any:
        c = cards_table.c
        return or_(c.due_at <= now, c.retry_at <= answers)

    def pick(self, user_id: str, lexicon: str, length: int, order: Sequence[str]) -> Pick | None:
        """The next question of ``length`` tiles, ``order`` being every alphagram of that
        length likeliest first (None: there is none)."""
        now = self.clock()
        c = cards_table.c
        where = self._of_length(user_id, lexicon, length)
        with self.engine.connect() as conn:
            answers = self._answers(conn, user_id, lexicon)
            row = conn.execute(
                select(cards_table)
                .where(*where, self._due(now, answers))
                .order_by(c.box, c.due_at, c.alphagram)
                .limit(1)
            ).first()
            if row is not None:
                return Pick(row.alphagram, _card(row), "due")
            seen = set(conn.execute(select(c.alphagram).where(*where)).scalars())
            fresh = next((a for a in order if a not in seen), None)
            if fresh is not None:
                return Pick(fresh, None, "new")
            row = conn.execute(
                select(cards_table).where(*where).order_by(c.due_at, c.alphagram).limit(1)
            ).first()
        return None if row is None else Pick(row.alphagram, _card(row), "ahead")

    def answer(
        self, user_id: str, lexicon: str, alphagram: str, length: int, correct: bool
    ) -> Card:
        """Record an answer to ``alphagram`` (of ``length`` tiles) and reschedule its card;
        returns the card."""
        try:
            return self._answer(user_id, lexicon, alphagram, length, correct)
        except IntegrityError:  # the same card's first answer from two pages at once
            return self._answer(user_id, lexicon, alphagram, length, correct)

    def _answer(
        self, user_id: str, lexicon: str, alphagram: str, length: int, correct: bool
    ) -> Card:
        now = self.clock()
        c = cards_table.c
        key = (c.user_id == user_id, c.lexicon == lexicon, c.alphagram == alphagram)
        with self.engine.begin() as conn:
            answers = self._answers(conn, user_id, lexicon) + 1
            row = conn.execute(select(cards_table).where(*key)).first()
            old = _card(row) if row is not None else Card(alphagram)
            card = review(old, correct, now, answers)
            values = {
                "box": card.box,
                "due_at": card.due_ms,
                "retry_at": card.retry_at,
                "asked": card.asked,
                "missed": card.missed,
                "answered_at": now,
            }
            if row is None:
                conn.execute(
                    insert(cards_table).values(
                        user_id=user_id,
                        lexicon=lexicon,
                        alphagram=alphagram,
                        length=length,
                        **values,
                    )
                )
            else:
                conn.execute(update(cards_table).where(*key).values(**values))
        return card

    def summary(self, user_id: str, lexicon: str, length: int) -> dict[str, Any]:
        """The box of one length: cards per box, how many are due, the player's answers, and
        the schedule (each box's interval; the answers after which a missed card returns)."""
        now = self.clock()
        c = cards_table.c
        where = self._of_length(user_id, lexicon, length)
        with self.engine.connect() as conn:
            answers = self._answers(conn, user_id, lexicon)
            counts = dict(
                conn.execute(select(c.box, func.count()).where(*where).group_by(c.box)).all()
            )
            due = conn.execute(
                select(func.count()).where(*where, self._due(now, answers))
            ).scalar()
            soonest = conn.execute(select(func.min(c.due_at)).where(*where)).scalar()
        boxes = [int(counts.get(b, 0)) for b in range(TOP_BOX + 1)]
        return {
            "length": length,
            "boxes": boxes,
            "cards": sum(boxes),
            "due": int(due or 0),
            "answers": answers,
            "next_due_ms": soonest,
            "now_ms": now,
            "intervals_ms": list(INTERVALS_MS),
            "retry_after": RETRY_AFTER,
        }
