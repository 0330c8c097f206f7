"""Accounts and sessions: registered players (name + argon2id password hash), guests (a name,
no password), and server-side sessions whose random token lives in an HttpOnly cookie.

The database keeps only a SHA-256 of each session token, so a leaked table opens no session.
Login answers the same way, and takes about as long, whether the name exists or not.

A registered name is nobody else's: no guest and no other account may take it or a name that
looks like it (:mod:`.lookalike`: "ALICE", "аlice" with a Cyrillic а, "a1ice"). Each account's
look-alike keys are kept beside it, so that the check is one indexed query.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
import unicodedata
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .errors import RequestError
from .lookalike import MAX_KEY, lookalike_keys
from .schema import name_keys_table, sessions_table, users_table
from .storage import Storage

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{2,19}$")
MIN_PASSWORD = 8
MAX_PASSWORD = 128  # bounded before hashing: argon2's cost grows with the input
MAX_GUEST_NAME = 24
# the name of a guest who did not give one (a game only computers play): nobody may register
# it, or that guest could not be made
DEFAULT_GUEST_NAME = "You"
SESSION_DAYS = 30
# A session seen this recently is not looked up again (unless it expires first). Ending a
# session clears it here at once and, through the notifier, in every other process; the
# bound covers a process that missed that event. A lookup per player per minute keeps the
# database out of nearly every move.
SESSION_CACHE_S = 60.0

# OWASP's argon2id setting (19 MiB, 2 passes, 1 lane): ~50 ms a hash, run off the event loop
HASHER = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)
_DUMMY_HASH = HASHER.hash("a password nobody has")


@dataclass(frozen=True)
class User:
    id: str
    name: str
    kind: str  # "user" | "guest"

    @property
    def is_guest(self) -> bool:
        return self.kind == "guest"


def _now_ms() -> int:
    return int(time.time() * 1000)


def token_hash(token: str) -> str:
    """What the database (and an event ending a session) knows of a session token."""
    return hashlib.sha256(token.encode()).hexdigest()


def check_username(name: object) -> str:
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise RequestError(
            400,
            "bad_username",
            "a user name has 3–20 letters, digits, '_' or '-', starting with a letter or digit",
        )
    return name


def check_password(password: object) -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise RequestError(
            400, "bad_password", f"a password has {MIN_PASSWORD}–{MAX_PASSWORD} characters"
        )
    return password


def check_display_name(value: object, limit: int = MAX_GUEST_NAME) -> str:
    """A name people choose (a guest's, a player's at one screen): printable, 1–limit chars."""
    name = value.strip() if isinstance(value, str) else ""
    if not name or len(name) > limit:
        raise RequestError(400, "bad_name", f"a name has 1–{limit} characters")
    if any(unicodedata.category(ch)[0] == "C" or ch in "\u2028\u2029" for ch in name):
        raise RequestError(400, "bad_name", "a name cannot hold control characters")
    return name


NAME_TAKEN = "that name is taken, or looks too much like a registered player's"


def _registered_lookalike(conn: Connection, name: str, other_than: str | None = None) -> bool:
    """Whether a registered player (other than ``other_than``) has a name like ``name``."""
    keys = [k for k in lookalike_keys(name) if len(k) <= MAX_KEY]
    if not keys:
        return False
    query = select(name_keys_table.c.user_id).where(name_keys_table.c.name_key.in_(keys))
    if other_than is not None:
        query = query.where(name_keys_table.c.user_id != other_than)
    return conn.execute(query.limit(1)).first() is not None


def _store_lookalike_keys(conn: Connection, user_id: str, name: str) -> None:
    conn.execute(delete(name_keys_table).where(name_keys_table.c.user_id == user_id))
    conn.execute(
        insert(name_keys_table),
        [{"user_id": user_id, "name_key": k} for k in lookalike_keys(name) if len(k) <= MAX_KEY],
    )


class Accounts:
    """Users and sessions in the game store's database."""

    def __init__(self, storage: Storage) -> None:
        self.engine = storage.engine
        # token hash -> (user, when checked (monotonic), when the session expires (epoch ms))
        self._seen: dict[str, tuple[User, float, int]] = {}
        self._key_missing_names()

    def _key_missing_names(self) -> None:
        """Give the accounts of a database made before look-alike keys theirs."""
        missing = (
            select(users_table.c.id, users_table.c.name)
            .where(users_table.c.kind == "user")
            .where(users_table.c.id.not_in(select(name_keys_table.c.user_id)))
        )
        try:
            with self.engine.begin() as conn:
                for row in conn.execute(missing).all():
                    _store_lookalike_keys(conn, row.id, row.name)
        except IntegrityError:  # another process starting at the same time did it
            pass

    # -- users ---------------------------------------------------------------------------

    def register(self, name: str, password: str, upgrade: User | None = None) -> User:
        """A new account; a guest who registers keeps their id (and so their games)."""
        check_username(name)
        check_password(password)
        if lookalike_keys(name) & lookalike_keys(DEFAULT_GUEST_NAME):
            raise RequestError(409, "name_taken", NAME_TAKEN)
        digest = HASHER.hash(password)
        upgrading = upgrade is not None and upgrade.is_guest
        with self.engine.begin() as conn:
            if _registered_lookalike(conn, name, upgrade.id if upgrading else None):
                raise RequestError(409, "name_taken", NAME_TAKEN)
            try:
                if upgrade is not None and upgrade.is_guest:
                    conn.execute(
                        update(users_table)
                        .where(users_table.c.id == upgrade.id)
                        .values(name=name, name_key=name.lower(), password_hash=digest, kind="user")
                    )
                    user = User(upgrade.id, name, "user")
                else:
                    user = User(secrets.token_urlsafe(12), name, "user")
                    conn.execute(
                        insert(users_table).values(
                            id=user.id,
                            name=name,
                            name_key=name.lower(),
                            password_hash=digest,
                            kind="user",
                            created_at=_now_ms(),
                        )
                    )
                _store_lookalike_keys(conn, user.id, name)
            except IntegrityError:
                raise RequestError(409, "name_taken", NAME_TAKEN) from None
        self._seen = {k: v for k, v in self._seen.items() if v[0].id != user.id}
        return user

    def guest(self, name: str) -> User:
        """A new guest, under a name no registered player has (nor one like it)."""
        user = User(secrets.token_urlsafe(12), check_display_name(name), "guest")
        with self.engine.begin() as conn:
            if _registered_lookalike(conn, user.name):
                raise RequestError(409, "name_taken", NAME_TAKEN)
            conn.execute(
                insert(users_table).values(
                    id=user.id,
                    name=user.name,
                    name_key=None,
                    password_hash=None,
                    kind="guest",
                    created_at=_now_ms(),
                )
            )
        return user

    def authenticate(self, name: object, password: object) -> User | None:
        """The user with that name and password, else None (same work either way)."""
        name_key = name.lower() if isinstance(name, str) and len(name) <= 32 else ""
        password = password if isinstance(password, str) and len(password) <= MAX_PASSWORD else ""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(users_table).where(users_table.c.name_key == name_key)
            ).first()
        digest = row.password_hash if row is not None and row.password_hash else _DUMMY_HASH
        try:
            HASHER.verify(digest, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return None
        if row is None or not row.password_hash:
            return None
        return User(row.id, row.name, row.kind)

    def change_password(self, user: User, old: object, new: object, keep_token: str) -> None:
        """Set a new password (the old one must match); every other session of the user ends."""
        check_password(new)
        if user.is_guest or self.authenticate(user.name, old) is None:
            raise RequestError(403, "bad_credentials", "the current password is not right")
        assert isinstance(new, str)
        digest = HASHER.hash(new)
        with self.engine.begin() as conn:
            conn.execute(
                update(users_table).where(users_table.c.id == user.id).values(password_hash=digest)
            )
            conn.execute(
                delete(sessions_table).where(
                    sessions_table.c.user_id == user.id,
                    sessions_table.c.token_hash != token_hash(keep_token),
                )
            )
        self._seen = {k: v for k, v in self._seen.items() if v[0].id != user.id}

    def by_name(self, name: str) -> User | None:
        if not isinstance(name, str) or len(name) > 32:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(users_table).where(users_table.c.name_key == name.lower())
            ).first()
        return None if row is None else User(row.id, row.name, row.kind)

    def by_id(self, user_id: str) -> User | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(users_table).where(users_table.c.id == user_id)).first()
        return None if row is None else User(row.id, row.name, row.kind)

    # -- sessions ------------------------------------------------------------------------

    def start_session(self, user: User) -> str:
        token = secrets.token_urlsafe(32)
        now = _now_ms()
        with self.engine.begin() as conn:
            conn.execute(
                insert(sessions_table).values(
                    token_hash=token_hash(token),
                    user_id=user.id,
                    created_at=now,
                    expires_at=now + SESSION_DAYS * 86_400_000,
                )
            )
        return token

    def cached_session_user(self, token: str) -> User | None:
        """The user of a session checked in the last few seconds, without the database."""
        seen = self._seen.get(token_hash(token))
        if seen is not None and time.monotonic() - seen[1] < SESSION_CACHE_S and (
            _now_ms() < seen[2]
        ):
            return seen[0]
        return None

    def session_user(self, token: str) -> User | None:
        """The user of a live session, or None (unknown, forged or expired)."""
        if not token or len(token) > 64:
            return None
        cached = self.cached_session_user(token)
        if cached is not None:
            return cached
        key = token_hash(token)
        now = time.monotonic()
        with self.engine.connect() as conn:
            row = conn.execute(
                select(
                    users_table.c.id,
                    users_table.c.name,
                    users_table.c.kind,
                    sessions_table.c.expires_at,
                )
                .join(users_table, users_table.c.id == sessions_table.c.user_id)
                .where(sessions_table.c.token_hash == key)
            ).first()
        if row is None or row.expires_at < _now_ms():
            self._seen.pop(key, None)
            return None
        user = User(row.id, row.name, row.kind)
        if len(self._seen) > 100_000:
            self._seen.clear()
        self._seen[key] = (user, now, row.expires_at)
        return user

    def end_session(self, token: str) -> None:
        key = token_hash(token)
        self._seen.pop(key, None)
        with self.engine.begin() as conn:
            conn.execute(delete(sessions_table).where(sessions_table.c.token_hash == key))

    def forget_cached(self, user_id: str | None = None) -> None:
        """Drop cached sessions (of one user, or all): another process ended some."""
        if user_id is None:
            self._seen.clear()
        else:
            self._seen = {k: v for k, v in self._seen.items() if v[0].id != user_id}
