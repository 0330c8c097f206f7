"""The server's settings: what it offers and the limits it holds every client to."""

from __future__ import annotations

import os
from dataclasses import dataclass

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


@dataclass(frozen=True)
class ServerConfig:
    """Everything ``create_app`` needs besides the database.

    ``lexicons`` are the only word lists a client may name (by name, never a path); the first
    is the default. ``allowed_hosts`` are the ``Host`` names the server answers to (DNS
    rebinding), ``allowed_origins`` extra origins allowed to send state-changing requests
    besides the server's own.
    """

    lexicons: tuple[str, ...] = ("enable",)
    allowed_hosts: tuple[str, ...] = LOCAL_HOSTS
    allowed_origins: tuple[str, ...] = ()
    bot_delay_s: float = 0.4
    think_s: float = 0.5  # seconds the computer searches a move (its own, or a hint), at most
    max_body_bytes: int = 16 * 1024
    max_ws_message_bytes: int = 4 * 1024
    ws_hello_timeout_s: float = 10.0
    ws_per_client: int = 64
    games_per_minute: int = 30  # per client address
    moves_per_minute: int = 120  # per user
    thinks_per_minute: int = 20  # hints that search (a core for think_s each), per user
    lookups_per_minute: int = 60  # word-study lookups and searches, per client
    analyses_per_minute: int = 60  # analysis-board requests (all moves of a position), per client
    reviews_per_minute: int = 10  # game reviews (every turn of a game analysed), per client
    simulations_per_minute: int = 60  # one review turn simulated (a second of a core), per client
    reviews_at_once: int = 2  # reviews running at one time (each holds a core up to 60 s)
    # processes for reviews, simulations and the analysis board: half the cores, so that
    # moves always have the rest (server/pools.py)
    analysis_workers: int = max(1, (os.cpu_count() or 2) // 2)
    idle_game_s: float = 300.0  # a game nobody watches leaves memory after this
    idle_over_game_s: float = 30.0  # and a finished one after this
    max_live_games: int = 5000
    # the time no server process was alive is not charged to the player on move (off: it
    # is, as wall time); each process beats a heartbeat this often (server/downtime.py)
    charge_downtime: bool = False
    heartbeat_s: float = 5.0
    tune_collector: bool = False  # a serving process's own schedule (server/collector.py)

    @property
    def default_lexicon(self) -> str:
        return self.lexicons[0]
