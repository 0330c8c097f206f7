"""The per-client rate limits (item 3 of the hardening issue; accounts and lobby limits)."""

from __future__ import annotations

import pytest

from tessera.server import ratelimit
from tessera.server.errors import RequestError
from tessera.server.ratelimit import Limit, RateLimits


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def allowed(limits: RateLimits, name: str, client: str) -> bool:
    try:
        limits.check(name, client)
    except RequestError as exc:
        assert exc.status == 429 and exc.reason == "rate_limited"
        return False
    return True


def test_n_at_once_then_one_every_period_over_n_per_client() -> None:
    clock = Clock()
    limits = RateLimits({"move": "6/minute"}, clock=clock)
    assert [allowed(limits, "move", "ann") for _ in range(7)] == [True] * 6 + [False]
    assert allowed(limits, "move", "bob")  # another client has its own allowance
    assert allowed(limits, "other", "ann")  # a name without a limit is not counted
    clock.now += 9.9
    assert not allowed(limits, "move", "ann")  # one comes back every 10 s
    clock.now += 0.2
    assert allowed(limits, "move", "ann") and not allowed(limits, "move", "ann")
    clock.now += 60
    assert [allowed(limits, "move", "ann") for _ in range(7)] == [True] * 6 + [False]


def test_a_refused_request_does_not_use_up_the_allowance() -> None:
    clock = Clock()
    limits = RateLimits({"login": "2/second"}, clock=clock)
    assert [allowed(limits, "login", "x") for _ in range(50)] == [True, True] + [False] * 48
    clock.now += 0.5
    assert allowed(limits, "login", "x")  # the 48 refusals did not push the next one back


def test_memory_holds_only_the_clients_of_the_last_period(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ratelimit, "PRUNE_EVERY", 100)
    clock = Clock()
    limits = RateLimits({"guest": "30/hour"}, clock=clock)
    for i in range(10_000):
        limits.check("guest", f"10.0.{i // 256}.{i % 256}")
        clock.now += 1.0  # one new client a second
    assert len(limits) <= 120 + 100  # the clients of the last 120 s, and one batch not swept


@pytest.mark.parametrize("rule", ["", "10", "0/minute", "5/fortnight", "-1/second", "x/hour"])
def test_a_malformed_rule_is_refused(rule: str) -> None:
    with pytest.raises(ValueError, match="rate limit"):
        Limit(rule)
