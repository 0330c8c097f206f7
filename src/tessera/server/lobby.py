"""The lobby: open seeks, direct challenges and invitation links.

A seek is a game one player offers: rules, word list, time control, rated or casual, and for
whom (anyone in a rating range, one named user, or whoever has the link). Accepting one claims
it in the database (only one acceptor can), and the hub then starts the game for both.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Integer,
    String,
    Table,
    Text,
    insert,
    select,
    update,
)

from .accounts import Accounts, User
from .config import ServerConfig
from .errors import RequestError, excerpt
from .ratings import Ratings, rating_key
from .storage import Storage, metadata

PUBLIC_SEEK_MS = 30 * 60_000  # an open seek nobody takes lapses after this
PERSONAL_SEEK_MS = 24 * 3_600_000  # a challenge or invitation after this
MAX_OPEN_SEEKS = 5  # per user

seeks_table = Table(
    "tessera_seeks",
    metadata,
    Column("id", String(32), primary_key=True),  # also the invitation link's secret
    Column("user_id", String(32), nullable=False, index=True),
    Column("user_name", String(32), nullable=False),
    Column("rules", String(64), nullable=False),
    Column("lexicon", String(128), nullable=False),
    Column("clock", Text, nullable=False),  # JSON time control
    Column("rated", Boolean, nullable=False),
    Column("rating_min", Integer, nullable=True),
    Column("rating_max", Integer, nullable=True),
    Column("target_id", String(32), nullable=True, index=True),  # a direct challenge
    Column("invite", Boolean, nullable=False),  # only whoever has the link
    Column("rematch_of", String(32), nullable=True),
    Column("status", String(12), nullable=False, index=True),  # open | taken | cancelled
    Column("game_id", String(32), nullable=True),
    Column("created_at", BigInteger, nullable=False),
)


@dataclass(frozen=True)
class Seek:
    id: str
    user_id: str
    user_name: str
    rules: str
    lexicon: str
    clock: dict[str, int]
    rated: bool
    rating_min: int | None
    rating_max: int | None
    target_id: str | None
    invite: bool
    rematch_of: str | None
    status: str
    game_id: str | None
    created_at: int

    @property
    def key(self) -> str:
        return rating_key(self.rules, self.clock)

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "user": self.user_name,
            "rules": self.rules,
            "lexicon": self.lexicon,
            "clock": self.clock,
            "rated": self.rated,
            "rating_min": self.rating_min,
            "rating_max": self.rating_max,
            "direct": self.target_id is not None,
            "invite": self.invite,
            "rematch_of": self.rematch_of,
            "status": self.status,
            "game_id": self.game_id,
        }


def _seek(row: Any) -> Seek:
    return Seek(
        row.id,
        row.user_id,
        row.user_name,
        row.rules,
        row.lexicon,
        json.loads(row.clock),
        bool(row.rated),
        row.rating_min,
        row.rating_max,
        row.target_id,
        bool(row.invite),
        row.rematch_of,
        row.status,
        row.game_id,
        row.created_at,
    )


def _whole(spec: dict[str, Any], key: str, low: int, high: int, default: int | None) -> int | None:
    value = spec.get(key)
    if value is None:  # absent or null: the default
        return default
    if type(value) is not int or not low <= value <= high:
        raise RequestError(400, f"bad_{key}", f"{key} must be a whole number from {low} to {high}")
    return value


def parse_clock(spec: dict[str, Any]) -> dict[str, int]:
    """A time control from minutes and seconds: main time, increment, maximum overtime."""
    initial = _whole(spec, "initial_min", 1, 90, 10)
    increment = _whole(spec, "increment_s", 0, 60, 0)
    overtime = _whole(spec, "max_overtime_min", 0, 10, 1)
    assert initial is not None and increment is not None and overtime is not None
    return {
        "initial_ms": initial * 60_000,
        "increment_ms": increment * 1000,
        "max_overtime_min": overtime,
    }


class Lobby:
    def __init__(
        self, storage: Storage, accounts: Accounts, ratings: Ratings, config: ServerConfig
    ) -> None:
        self.engine = storage.engine
        self.accounts = accounts
        self.ratings = ratings
        self.config = config

    def create(
        self,
        user: User,
        spec: dict[str, Any],
        web_presets: tuple[str, ...],
        rematch_of: str | None = None,
    ) -> Seek:
        rules = spec.get("rules", "woogles")
        if rules not in web_presets:
            raise RequestError(400, "bad_rules", f"no rules preset {excerpt(rules)}")
        lexicon = spec.get("lexicon") or self.config.default_lexicon
        if lexicon not in self.config.lexicons:
            raise RequestError(400, "bad_lexicon", f"no word list {excerpt(lexicon)} here")
        rated = spec.get("rated", False)
        if type(rated) is not bool:
            raise RequestError(400, "bad_rated", "rated must be true or false")
        if rated and user.is_guest:
            raise RequestError(403, "guest", "guests play casual games; register to play rated")
        clock = parse_clock(spec)
        low = _whole(spec, "rating_min", 0, 4000, None)
        high = _whole(spec, "rating_max", 0, 4000, None)
        if low is not None and high is not None and low > high:
            raise RequestError(400, "bad_rating_range", "rating_min is above rating_max")
        invite = spec.get("invite", False)
        if type(invite) is not bool:
            raise RequestError(400, "bad_invite", "invite must be true or false")
        target_id = None
        to = spec.get("to")
        if to is not None:
            target = self.accounts.by_name(to) if isinstance(to, str) else None
            if target is None or target.is_guest:
                raise RequestError(404, "no_user", f"no player named {excerpt(to)}")
            if target.id == user.id:
                raise RequestError(400, "self", "you cannot challenge yourself")
            if rated and target.is_guest:
                raise RequestError(400, "guest", "guests play casual games only")
            target_id = target.id
        now = int(time.time() * 1000)
        seek = Seek(
            secrets.token_urlsafe(12),
            user.id,
            user.name,
            rules,
            lexicon,
            clock,
            rated,
            low,
            high,
            target_id,
            invite,
            rematch_of,
            "open",
            None,
            now,
        )
        with self.engine.begin() as conn:
            mine = conn.execute(
                select(seeks_table.c.id).where(
                    seeks_table.c.user_id == user.id,
                    seeks_table.c.status == "open",
                    seeks_table.c.created_at > now - PERSONAL_SEEK_MS,
                )
            ).all()
            if len(mine) >= MAX_OPEN_SEEKS:
                raise RequestError(
                    429, "too_many_seeks", f"at most {MAX_OPEN_SEEKS} open seeks at once"
                )
            conn.execute(
                insert(seeks_table).values(
                    id=seek.id,
                    user_id=user.id,
                    user_name=user.name,
                    rules=rules,
                    lexicon=lexicon,
                    clock=json.dumps(clock),
                    rated=rated,
                    rating_min=low,
                    rating_max=high,
                    target_id=target_id,
                    invite=invite,
                    rematch_of=rematch_of,
                    status="open",
                    game_id=None,
                    created_at=now,
                )
            )
        return seek

    def get(self, seek_id: str) -> Seek | None:
        if not isinstance(seek_id, str) or len(seek_id) > 32:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(seeks_table).where(seeks_table.c.id == seek_id)).first()
        return None if row is None else _seek(row)

    def cancel(self, user: User, seek_id: str) -> Seek:
        """Withdraw one's own seek, or decline a challenge addressed to oneself."""
        seek = self.get(seek_id)
        if seek is None or user.id not in (seek.user_id, seek.target_id):
            raise RequestError(404, "no_seek", "no such seek")
        with self.engine.begin() as conn:
            conn.execute(
                update(seeks_table)
                .where(seeks_table.c.id == seek_id, seeks_table.c.status == "open")
                .values(status="cancelled")
            )
        return seek

    def claim(self, user: User, seek_id: str) -> Seek:
        """Take an open seek for ``user`` (only one acceptor can); checks who may take it."""
        seek = self.get(seek_id)
        if seek is None:
            raise RequestError(404, "no_seek", "no such seek")
        now = int(time.time() * 1000)
        lifetime = (
            PUBLIC_SEEK_MS if seek.target_id is None and not seek.invite else PERSONAL_SEEK_MS
        )
        if seek.status != "open" or seek.created_at < now - lifetime:
            raise RequestError(409, "seek_gone", "that seek has been taken or withdrawn")
        if seek.user_id == user.id:
            raise RequestError(400, "self", "that is your own seek")
        if seek.target_id is not None and seek.target_id != user.id:
            raise RequestError(403, "not_for_you", "that challenge is for another player")
        if seek.rated and user.is_guest:
            raise RequestError(403, "guest", "guests play casual games; register to play rated")
        if seek.rating_min is not None or seek.rating_max is not None:
            mine = self.ratings.get(user.id, seek.key).rating
            if not (seek.rating_min or 0) <= mine <= (seek.rating_max or 10_000):
                raise RequestError(
                    403, "rating_range", f"your {seek.key} rating {mine:.0f} is outside the range"
                )
        with self.engine.begin() as conn:
            taken = conn.execute(
                update(seeks_table)
                .where(seeks_table.c.id == seek_id, seeks_table.c.status == "open")
                .values(status="taken")
            ).rowcount
        if taken != 1:
            raise RequestError(409, "seek_gone", "that seek has been taken or withdrawn")
        return seek

    def reopen(self, seek_id: str) -> None:
        """Put back a seek whose game could not start."""
        with self.engine.begin() as conn:
            conn.execute(
                update(seeks_table)
                .where(seeks_table.c.id == seek_id, seeks_table.c.status == "taken")
                .values(status="open")
            )

    def attach_game(self, seek_id: str, game_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(seeks_table).where(seeks_table.c.id == seek_id).values(game_id=game_id)
            )

    def listing(self, user: User | None) -> dict[str, Any]:
        """Open public seeks (with each seeker's rating), and the user's own and incoming."""
        now = int(time.time() * 1000)
        with self.engine.connect() as conn:
            public = conn.execute(
                select(seeks_table)
                .where(
                    seeks_table.c.status == "open",
                    seeks_table.c.target_id.is_(None),
                    seeks_table.c.invite.is_(False),
                    seeks_table.c.created_at > now - PUBLIC_SEEK_MS,
                )
                .order_by(seeks_table.c.created_at.desc())
                .limit(100)
            ).all()
            personal: list[Any] = []
            if user is not None:
                personal = conn.execute(
                    select(seeks_table)
                    .where(
                        seeks_table.c.status == "open",
                        (seeks_table.c.target_id == user.id) | (seeks_table.c.user_id == user.id),
                        seeks_table.c.created_at > now - PERSONAL_SEEK_MS,
                    )
                    .order_by(seeks_table.c.created_at.desc())
                    .limit(50)
                ).all()
        seeks = []
        for row in public:
            seek = _seek(row)
            data = seek.public()
            data["user_rating"] = round(self.ratings.get(seek.user_id, seek.key).rating)
            data["mine"] = user is not None and seek.user_id == user.id
            seeks.append(data)
        incoming = [_seek(r).public() for r in personal if user and r.target_id == user.id]
        mine = [_seek(r).public() for r in personal if user and r.user_id == user.id]
        return {"seeks": seeks, "challenges": incoming, "mine": mine}
