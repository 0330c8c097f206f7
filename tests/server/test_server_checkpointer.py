"""An SQLite game store moves its write-ahead log into the database file from a thread of its
own, never inside a commit (server/checkpointer.py)."""

from __future__ import annotations

from pathlib import Path

from tessera.server.storage import Seat, Storage


def _seats() -> list[Seat]:
    return [Seat("Ann", "human"), Seat("Bot", "computer", level="level1")]


def test_commits_leave_the_log_to_the_checkpointer(tmp_path: Path) -> None:
    store = Storage(f"sqlite:///{tmp_path / 's.db'}")
    try:
        assert store.checkpointer is not None
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        store.checkpointer.close()  # the test checkpoints by hand from here
        ids = [store.create_game("naspa", "enable", seed, _seats()) for seed in range(50)]
        wal = tmp_path / "s.db-wal"
        assert wal.stat().st_size > 0
        busy, pages, moved = store.checkpointer.checkpoint()
        assert busy == 0 and pages > 0 and moved == pages  # every page the commits logged
        assert [store.load(i).seed for i in ids] == list(range(50))  # type: ignore[union-attr]
    finally:
        store.close()


def test_the_thread_ends_with_the_store(tmp_path: Path) -> None:
    store = Storage(f"sqlite:///{tmp_path / 's.db'}")
    assert store.checkpointer is not None
    thread = store.checkpointer._thread
    assert thread.is_alive()
    store.close()
    assert not thread.is_alive()


def test_a_store_in_memory_has_no_checkpointer() -> None:
    store = Storage("sqlite://")
    try:
        assert store.checkpointer is None
    finally:
        store.close()
