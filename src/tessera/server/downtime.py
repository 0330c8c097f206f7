"""The server's downtime, which is not charged to the player on move (R7, issue 36).

A turn's time is the wall time since it began. When no server process is running, nobody can
move, so that time is not the player's: each serving process beats a heartbeat row every
``heartbeat_s`` (:meth:`Storage.beat`), and a process that starts after no process has beaten
for two heartbeats records the outage, from the last beat to its start, and moves every live
game's clock deadline on by its length (:meth:`Storage.record_outage`, once however many
processes start together). The time on a turn is then the wall time since it began less the
outages inside it. With several processes (PostgreSQL), downtime is when *none* was alive.

The outage is measured from the last heartbeat, so a player may be spared up to one
heartbeat of time the server was in fact up; a restart quicker than two heartbeats is not
an outage at all. ``ServerConfig.charge_downtime`` turns this off: turns are plain wall time.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from .storage import Storage

log = logging.getLogger("tessera.server")

KEEP_MS = 7 * 24 * 3_600_000  # outages older than this are past every turn still running


def overlap_ms(outages: Sequence[tuple[int, int]], start_ms: int, end_ms: int) -> int:
    """How much of [start_ms, end_ms] the outages cover (they never overlap each other)."""
    return sum(max(0, min(e, end_ms) - max(s, start_ms)) for s, e in outages)


@dataclass
class Downtime:
    """One process's view of the service's outages, and its heartbeat. Its methods touch
    the database: call them off the event loop."""

    storage: Storage
    heartbeat_s: float = 5.0
    charged: bool = False  # ServerConfig.charge_downtime: outages are neither kept nor used
    outages: list[tuple[int, int]] = field(default_factory=list)
    started: bool = False

    @property
    def quiet_ms(self) -> int:
        """A silence longer than this means no process was alive."""
        return int(2 * self.heartbeat_s * 1000)

    def beat(self) -> None:
        """This process is alive. Its first beat records the outage it started after."""
        now = int(time.time() * 1000)
        if self.started or self.charged:
            self.storage.beat(now)
        else:
            outage = self.storage.record_outage(now, self.quiet_ms)
            if outage is not None:
                log.warning(
                    "no server was running for %.1f s; that time is not charged to any clock",
                    (outage[1] - outage[0]) / 1000,
                )
            self.refresh()
        self.started = True  # only once written: a database down at the start is tried again

    def refresh(self) -> None:
        """Read the outages again (one another process recorded while this one's own
        heartbeat had stalled)."""
        if not self.charged:
            self.outages = self.storage.outages(int(time.time() * 1000) - KEEP_MS)

    def between(self, start_ms: int, end_ms: int) -> int:
        """The downtime within [start_ms, end_ms], not charged to a clock."""
        return overlap_ms(self.outages, start_ms, end_ms)
