"""The per-client rate limits (item 3 of the hardening issue; accounts and lobby limits)."""

from __future__ import annotations

import pytest

from tessera.server import ratelimit
from tessera.server.errors import RequestError
from tessera.server.ratelimit import Backoff, Limit, RateLimits, address_key


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


def test_a_refusal_says_when_to_try_again() -> None:
    clock = Clock()
    limits = RateLimits({"move": "6/minute"}, clock=clock)
    for _ in range(6):
        limits.check("move", "ann")
    with pytest.raises(RequestError) as refused:
        limits.check("move", "ann")
    assert refused.value.retry_after == 10  # one comes back every 10 s
    assert refused.value.response().headers["Retry-After"] == "10"


def waits(backoff: Backoff, key: str, failures: int) -> list[float]:
    """The wait after each of ``failures`` failures in a row."""
    found = []
    for _ in range(failures):
        backoff.failed(key)
        found.append(backoff.wait_s(key))
    return found


def test_failures_back_off_doubling_after_the_free_ones_up_to_a_cap() -> None:
    clock = Clock()
    backoff = Backoff(free=3, base_s=2, max_s=30, clock=clock)
    assert waits(backoff, "ann@1", 8) == [0, 0, 0, 2, 4, 8, 16, 30]
    assert backoff.wait_s("bob@1") == 0  # keys are counted apart
    with pytest.raises(RequestError) as refused:
        backoff.check("ann@1", "wait")
    assert (refused.value.status, refused.value.reason) == (429, "backed_off")
    assert refused.value.retry_after == 30
    clock.now += 30
    backoff.check("ann@1", "wait")  # the wait is over: one more try
    backoff.succeeded("ann@1")
    assert waits(backoff, "ann@1", 4) == [0, 0, 0, 2]  # a success starts afresh


def test_failures_are_forgotten_after_a_quiet_hour_and_memory_is_bounded() -> None:
    clock = Clock()
    backoff = Backoff(free=0, base_s=1, max_s=60, forget_s=3600, max_keys=1000, clock=clock)
    waits(backoff, "ann", 5)
    clock.now += 3600
    assert backoff.wait_s("ann") == 0 and waits(backoff, "ann", 1) == [1]
    for i in range(50_000):  # a flood of new keys
        backoff.failed(f"10.{i // 65536}.{i // 256 % 256}.{i % 256}")
    assert len(backoff) <= 1000


def test_an_ipv6_client_is_counted_by_its_64_network() -> None:
    """A client on IPv6 has a whole /64 to choose addresses from: one allowance for all."""
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff::9")
    assert address_key("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7" == address_key("192.0.2.7")
    assert address_key("testclient") == "testclient"
