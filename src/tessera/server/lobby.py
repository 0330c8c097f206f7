"""The lobby: open seeks, direct challenges and invitation links.

A seek is a game one player offers: rules, word list, time control, rated or casual, and for
whom (anyone in a rating range, one named user, or whoever has the link). Accepting one claims
it in the database (only one acceptor can), and the hub then starts the game for both.

A game against a person holds both players while it is in progress (:meth:`Lobby.playing`):
they cannot post or accept a seek, a seek of theirs that someone tries to accept is withdrawn,
and starting such a game withdraws every open seek of both (:meth:`Lobby.withdraw_all`), so
that accepting a seek never pulls anyone out of a game. Games against the computer and games
at one screen hold nobody. A rematch offer is a direct challenge (an invitation link for a
guest); when the other player has already offered one for the same game, asking again takes
that offer instead (:meth:`Lobby.rematch`), decided in the database, so two presses make one
game across processes.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError, OperationalError

from .accounts import Accounts, User
from .config import ServerConfig
from .errors import RequestError, excerpt
from .ratings import Ratings, rating_key
from .schema import info_table, rematches_table, seeks_table, starting_table, users_table
from .storage import Storage, live_game_of

PUBLIC_SEEK_MS = 30 * 60_000  # an open seek nobody takes lapses after this
PERSONAL_SEEK_MS = 24 * 3_600_000  # a challenge or invitation after this
MAX_OPEN_SEEKS = 5  # per user

STARTING_MS = 60_000  # a start that never finished (a crash) holds nobody longer

RATED_NEEDS_ACCOUNT = "rated_needs_account"
REMATCH_ATTEMPTS = 5  # an offer made, taken or declined meanwhile: look again


def _rated_needs_account() -> RequestError:
    return RequestError(
        403, RATED_NEEDS_ACCOUNT, "guests play casual games: register to play rated games"
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
    guest: bool = False  # its poster plays as a guest

    @property
    def lifetime_ms(self) -> int:
        public = self.target_id is None and not self.invite
        return PUBLIC_SEEK_MS if public else PERSONAL_SEEK_MS

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
            "guest": self.guest,
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
        getattr(row, "kind", None) == "guest",
    )


def _seeks() -> Select[Any]:
    """Seeks with their poster's kind of account (a guest's seeks are marked)."""
    return select(seeks_table, users_table.c.kind).outerjoin(
        users_table, users_table.c.id == seeks_table.c.user_id
    )


def playing(conn: Connection, user_id: str) -> str | None:
    """The game against a person that ``user_id`` is playing now, if any."""
    return live_game_of(conn, user_id, int(time.time() * 1000), info_table.c.online.is_(True))


def _starting() -> RequestError:
    return RequestError(409, "in_game", "a game is starting for one of you: try again in a moment")


class _Again(Exception):
    """A rematch offer changed under this request: its transaction is undone, look again."""


def _in_game() -> RequestError:
    return RequestError(409, "in_game", "you are playing a game against a person: finish it first")


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
        seek = self._new_seek(user, spec, web_presets, rematch_of)
        with self.engine.begin() as conn:
            self._insert(conn, seek)
        return seek

    def _new_seek(
        self,
        user: User,
        spec: dict[str, Any],
        web_presets: tuple[str, ...],
        rematch_of: str | None,
    ) -> Seek:
        """The seek ``spec`` asks for, every field checked (not stored yet)."""
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
            raise _rated_needs_account()
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
            target_id = target.id
        now = int(time.time() * 1000)
        return Seek(
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
            user.is_guest,
        )

    @staticmethod
    def _insert(conn: Connection, seek: Seek) -> None:
        """Store a new seek (its poster not in a game against a person, and under the limit
        of open seeks), in the caller's transaction."""
        if playing(conn, seek.user_id) is not None:
            raise _in_game()
        mine = conn.execute(
            select(seeks_table.c.id).where(
                seeks_table.c.user_id == seek.user_id,
                seeks_table.c.status == "open",
                seeks_table.c.created_at > seek.created_at - PERSONAL_SEEK_MS,
            )
        ).all()
        if len(mine) >= MAX_OPEN_SEEKS:
            raise RequestError(
                429, "too_many_seeks", f"at most {MAX_OPEN_SEEKS} open seeks at once"
            )
        conn.execute(
            insert(seeks_table).values(
                id=seek.id,
                user_id=seek.user_id,
                user_name=seek.user_name,
                rules=seek.rules,
                lexicon=seek.lexicon,
                clock=json.dumps(seek.clock),
                rated=seek.rated,
                rating_min=seek.rating_min,
                rating_max=seek.rating_max,
                target_id=seek.target_id,
                invite=seek.invite,
                rematch_of=seek.rematch_of,
                status="open",
                game_id=None,
                created_at=seek.created_at,
            )
        )

    def get(self, seek_id: str) -> Seek | None:
        if not isinstance(seek_id, str) or len(seek_id) > 32:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(_seeks().where(seeks_table.c.id == seek_id)).first()
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
        if seek.status != "open" or seek.created_at < now - seek.lifetime_ms:
            raise RequestError(409, "seek_gone", "that seek has been taken or withdrawn")
        if seek.user_id == user.id:
            raise RequestError(400, "self", "that is your own seek")
        if seek.target_id is not None and seek.target_id != user.id:
            raise RequestError(403, "not_for_you", "that challenge is for another player")
        if seek.rated and user.is_guest:
            raise _rated_needs_account()
        if seek.rating_min is not None or seek.rating_max is not None:
            mine = self.ratings.get(user.id, seek.key).rating
            if not (seek.rating_min or 0) <= mine <= (seek.rating_max or 10_000):
                raise RequestError(
                    403, "rating_range", f"your {seek.key} rating {mine:.0f} is outside the range"
                )
        try:
            with self.engine.begin() as conn:
                self._take(conn, seek, user)
        except IntegrityError:  # another acceptance for one of them, at the same moment
            raise _starting() from None
        return seek

    @staticmethod
    def _take(conn: Connection, seek: Seek, user: User) -> None:
        """Mark ``seek`` taken by ``user``, in the caller's transaction: refused when someone
        else took it or it was withdrawn first, and while either plays a game against a
        person or has one starting (the poster's seek is then withdrawn). The write comes
        first: the checks after it read what the last writer committed (SQLite too)."""
        taken = conn.execute(
            update(seeks_table)
            .where(seeks_table.c.id == seek.id, seeks_table.c.status == "open")
            .values(status="taken")
        ).rowcount
        if taken != 1:
            raise RequestError(409, "seek_gone", "that seek has been taken or withdrawn")
        if playing(conn, seek.user_id) is not None:
            conn.execute(
                update(seeks_table).where(seeks_table.c.id == seek.id).values(status="cancelled")
            )
            conn.commit()  # withdrawn for good, though this request is refused
            raise RequestError(
                409, "seeker_in_game", f"{seek.user_name} is playing another game: seek withdrawn"
            )
        if playing(conn, user.id) is not None:
            raise _in_game()
        pair = (seek.user_id, user.id)
        now = int(time.time() * 1000)
        conn.execute(
            delete(starting_table).where(
                starting_table.c.user_id.in_(pair), starting_table.c.at < now - STARTING_MS
            )
        )
        if conn.execute(
            select(starting_table.c.user_id).where(starting_table.c.user_id.in_(pair))
        ).first():
            raise _starting()
        # a second acceptance for either of them at this moment fails on this key
        conn.execute(
            insert(starting_table),
            [{"user_id": u, "seek_id": seek.id, "at": now} for u in dict.fromkeys(pair)],
        )

    def started(self, seek: Seek) -> None:
        """The game a taken seek starts exists (or could not start): its players are held
        by the game from now on (:func:`playing`), no longer by the seek."""
        with self.engine.begin() as conn:
            conn.execute(delete(starting_table).where(starting_table.c.seek_id == seek.id))

    def withdraw_all(self, user_ids: tuple[str, ...]) -> int:
        """Withdraw every open seek these users posted (they have started a game against a
        person); returns how many."""
        with self.engine.begin() as conn:
            return conn.execute(
                update(seeks_table)
                .where(seeks_table.c.user_id.in_(user_ids), seeks_table.c.status == "open")
                .values(status="cancelled")
            ).rowcount

    def rematch(
        self,
        user: User,
        opponent: User,
        spec: dict[str, Any],
        game_id: str,
        presets: tuple[str, ...],
    ) -> tuple[Seek, bool]:
        """Ask for a rematch of the finished game ``game_id``: (the seek, False) when this
        makes or repeats ``user``'s offer; (the opponent's offer, True) when the opponent has
        already offered one, now taken by ``user`` (the caller starts the game). The offer
        standing for a game is one row, so two presses at once, in any two processes, make
        one offer and then take it, never two offers."""
        to = {"invite": True} if opponent.is_guest else {"to": opponent.name}
        for _ in range(REMATCH_ATTEMPTS):
            fresh = self._new_seek(user, {**spec, **to}, presets, game_id)
            try:
                with self.engine.begin() as conn:
                    named, found = self._standing_offer(conn, game_id)
                    if found is not None and found.user_id == user.id:
                        return found, False
                    if found is not None and found.user_id == opponent.id:
                        self._take(conn, found, user)
                        return found, True
                    self._insert(conn, fresh)
                    if named is None:
                        conn.execute(
                            insert(rematches_table).values(game_id=game_id, seek_id=fresh.id)
                        )
                        return fresh, False
                    # the last offer lapsed or was answered: this one stands instead
                    replaced = conn.execute(
                        update(rematches_table)
                        .where(
                            rematches_table.c.game_id == game_id,
                            rematches_table.c.seek_id == named,
                        )
                        .values(seek_id=fresh.id)
                    ).rowcount
                    if replaced != 1:
                        raise _Again  # another request replaced it first
                    return fresh, False
            except (_Again, IntegrityError):
                continue  # another request made the offer first: look again
            except OperationalError:
                if self.engine.dialect.name != "sqlite":
                    raise
                continue  # SQLite: another writer went first (a stale snapshot): look again
        raise RequestError(409, "busy", "the rematch is being answered: try again")

    @staticmethod
    def _standing_offer(conn: Connection, game_id: str) -> tuple[str | None, Seek | None]:
        """The seek id the rematch row of ``game_id`` names (None: no offer yet), and that
        seek while it is open and unexpired (None once it lapsed or was answered)."""
        row = conn.execute(
            select(rematches_table.c.seek_id).where(rematches_table.c.game_id == game_id)
        ).first()
        if row is None:
            return None, None
        found = conn.execute(_seeks().where(seeks_table.c.id == row.seek_id)).first()
        seek = None if found is None else _seek(found)
        now = int(time.time() * 1000)
        if seek is None or seek.status != "open" or seek.created_at < now - seek.lifetime_ms:
            return row.seek_id, None
        return row.seek_id, seek

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
                _seeks()
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
                personal = [
                    *conn.execute(
                        _seeks()
                        .where(
                            seeks_table.c.status == "open",
                            (seeks_table.c.target_id == user.id)
                            | (seeks_table.c.user_id == user.id),
                            seeks_table.c.created_at > now - PERSONAL_SEEK_MS,
                        )
                        .order_by(seeks_table.c.created_at.desc())
                        .limit(50)
                    ).all()
                ]
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
