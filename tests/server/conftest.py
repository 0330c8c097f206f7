"""The server suite runs against both stores: an embedded SQLite file, and a PostgreSQL
cluster started for the session (Debian's postgresql, installed by
scripts/ensure-system-packages and started by the tests themselves), one fresh database per
test. The ``db`` fixture is the URL; tests that need one store only ask for ``sqlite_db``."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.throwaway_postgres import bindir, throwaway_postgres


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[str]:
    if bindir() is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is missing: run scripts/ensure-system-packages")
        pytest.skip("PostgreSQL is not installed (scripts/ensure-system-packages)")
    pytest.importorskip("psycopg")
    with throwaway_postgres() as url:
        yield url


def fresh_database(cluster: str) -> str:
    import psycopg

    name = "t_" + uuid.uuid4().hex[:16]
    with psycopg.connect(cluster, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return cluster.rsplit("/", 1)[0] + "/" + name


@pytest.fixture
def sqlite_db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    return fresh_database(request.getfixturevalue("postgres_cluster"))
