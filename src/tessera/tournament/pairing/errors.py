"""The one error a pairing system raises: a request it cannot honour, said precisely."""

from __future__ import annotations


class PairingError(ValueError):
    """A round that cannot be paired as asked (an unknown or withdrawn player, a duplicate, a
    round past the schedule...). The message names what is wrong and where; nothing is
    changed, since pairing systems are pure functions."""
