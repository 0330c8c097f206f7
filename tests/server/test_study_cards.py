"""The quiz's card box: the Leitner schedule on its own, and each player's boxes in the
store (SQLite and PostgreSQL), on a clock the test moves."""

from __future__ import annotations

from tessera.server.cardbox import DAY_MS, INTERVALS_MS, RETRY_AFTER, TOP_BOX, Card, review
from tessera.server.storage import Storage
from tessera.server.study import StudyCards

T0 = 1_800_000_000_000  # epoch ms


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> int:
        return self.now


def test_right_moves_a_card_up_and_away_wrong_sends_it_back_soon() -> None:
    card = Card("AET")
    right = review(card, True, T0, answers=1)
    assert (right.box, right.due_ms, right.retry_at, right.asked) == (1, T0 + DAY_MS, None, 1)
    higher = review(right, True, T0, answers=2)
    assert higher.box == 2 and higher.due_ms == T0 + 3 * DAY_MS
    wrong = review(higher, False, T0, answers=3)
    assert (wrong.box, wrong.retry_at, wrong.missed, wrong.asked) == (0, 3 + RETRY_AFTER, 1, 3)
    assert wrong.due_ms == T0 + INTERVALS_MS[0] < right.due_ms  # back sooner than a right one
    assert not wrong.is_due(T0, answers=3 + RETRY_AFTER - 1)
    assert wrong.is_due(T0, answers=3 + RETRY_AFTER)  # after three other answers
    assert wrong.is_due(T0 + INTERVALS_MS[0], answers=0)  # or ten minutes on
    top = Card("AET", box=TOP_BOX)
    assert review(top, True, T0, 1).box == TOP_BOX


ORDER = ["AENO", "AEOR", "AEIR", "AEIN", "AELO", "AERT"]


def test_a_missed_card_comes_back_after_three_answers_a_right_one_the_next_day(db: str) -> None:
    clock = Clock()
    store = Storage(db)
    cards = StudyCards(store, clock=clock)
    asked: list[str] = []
    results = {"AEOR": False}  # the second question is missed, the rest are right
    for _ in range(6):
        pick = cards.pick("u1", "enable", 4, ORDER)
        assert pick is not None
        asked.append(pick.alphagram)
        cards.answer("u1", "enable", pick.alphagram, 4, results.get(pick.alphagram, True))
        results.pop(pick.alphagram, None)  # right the second time
        clock.now += 5_000
    assert asked == ["AENO", "AEOR", "AEIR", "AEIN", "AELO", "AEOR"]
    box = cards.summary("u1", "enable", 4)
    assert box["boxes"][:2] == [0, 5] and box["cards"] == 5 and box["answers"] == 6
    assert box["due"] == 0
    # another player's box is their own
    assert cards.pick("u2", "enable", 4, ORDER).alphagram == "AENO"  # type: ignore[union-attr]
    # the next day every card answered right is due again, likeliest first by due time
    clock.now += DAY_MS
    again = cards.pick("u1", "enable", 4, ORDER)
    assert again is not None and again.why == "due" and again.alphagram == "AENO"
    assert cards.summary("u1", "enable", 4)["due"] == 5
    store.close()


def test_the_box_outlives_the_process_and_runs_ahead_when_nothing_is_due(db: str) -> None:
    clock = Clock()
    first = Storage(db)
    cards = StudyCards(first, clock=clock)
    for alphagram in ["AENO", "AEOR"]:
        cards.answer("u1", "enable", alphagram, 4, True)
    first.close()
    second = StudyCards(Storage(db), clock=clock)  # a restarted server
    assert second.summary("u1", "enable", 4)["boxes"][1] == 2
    pick = second.pick("u1", "enable", 4, ["AENO", "AEOR"])
    assert pick is not None and pick.why == "ahead" and pick.card is not None
    assert pick.card.box == 1
    assert second.pick("u1", "enable", 5, []) is None
