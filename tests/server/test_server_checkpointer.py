"""A serving process's SQLite game store moves its write-ahead log into the database file from
a thread of its own, never inside a commit (server/checkpointer.py)."""

from __future__ import annotations

import gc
from pathlib import Path

from tessera.server.storage import Seat, Storage


def _seats() -> list[Seat]:
    return [Seat("Ann", "human"), Seat("Bot", "computer", level="level1")]


def test_commits_leave_the_log_to_the_checkpointer(tmp_path: Path) -> None:
    store = Storage(f"sqlite:///{tmp_path / 's.db'}", background_checkpoints=True)
    try:
        assert store.checkpointer is not None
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        store.checkpointer.close()  # the test checkpoints by hand from here
        ids = [store.create_game("naspa", "enable", seed, _seats()) for seed in range(50)]
        assert (tmp_path / "s.db-wal").stat().st_size > 0
        done = store.checkpointer.checkpoint()
        assert done is not None
        busy, pages, moved = done
        assert busy == 0 and pages > 0 and moved == pages  # every page the commits logged
        assert [store.load(i).seed for i in ids] == list(range(50))  # type: ignore[union-attr]
    finally:
        store.close()


def test_the_thread_ends_with_the_store(tmp_path: Path) -> None:
    store = Storage(f"sqlite:///{tmp_path / 's.db'}", background_checkpoints=True)
    assert store.checkpointer is not None
    thread = store.checkpointer._thread
    assert thread.is_alive()
    store.close()
    assert not thread.is_alive()


def test_a_dropped_store_or_a_deleted_file_ends_the_thread_without_a_new_file(
    tmp_path: Path,
) -> None:
    store = Storage(f"sqlite:///{tmp_path / 'a.db'}", background_checkpoints=True)
    assert store.checkpointer is not None
    store.checkpointer.every_s = 0.01
    for name in ("a.db", "a.db-wal", "a.db-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    store.checkpointer._thread.join(timeout=5)
    assert not store.checkpointer._thread.is_alive()
    assert not (tmp_path / "a.db").exists()  # no empty database made by connecting

    dropped = Storage(f"sqlite:///{tmp_path / 'b.db'}", background_checkpoints=True)
    checkpointer = dropped.checkpointer
    assert checkpointer is not None
    checkpointer.every_s = 0.01
    del dropped
    gc.collect()
    checkpointer._thread.join(timeout=5)
    assert not checkpointer._thread.is_alive()


def test_only_a_serving_store_checkpoints_in_the_background(tmp_path: Path) -> None:
    store = Storage(f"sqlite:///{tmp_path / 's.db'}")
    memory = Storage("sqlite://", background_checkpoints=True)
    try:
        assert store.checkpointer is None and memory.checkpointer is None
        with store.engine.connect() as conn:  # SQLite's own checkpoints in commits
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 1000
    finally:
        store.close()
        memory.close()
