"""``tessera serve`` schedules the cycle collector for a server (server/collector.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROBE = """
import gc, sys
from starlette.testclient import TestClient
from tessera.server.app import create_app
from tessera.server.config import ServerConfig
from tessera.server.collector import MIDDLE_THRESHOLD, NEVER, SWITCH_INTERVAL_S, YOUNG_THRESHOLD

tune = sys.argv[2] == "tune"
before = gc.get_threshold()[0]
config = ServerConfig(tune_collector=tune, allowed_hosts=("testserver",))
app = create_app("sqlite:///" + sys.argv[1], config=config)
with TestClient(app) as client:
    assert client.get("/api/meta").status_code == 200
    switch = sys.getswitchinterval() == SWITCH_INTERVAL_S
    tuned = gc.get_threshold() == (YOUNG_THRESHOLD, MIDDLE_THRESHOLD, NEVER)
    print(before, gc.get_threshold()[0], int(tuned), gc.get_freeze_count(), int(switch))
"""


def probe(tmp_path: Path, mode: str) -> list[int]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path / "s.db"), mode],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return [int(x) for x in out.stdout.split()]


def test_a_serving_process_freezes_its_start_up_and_collects_and_switches_sooner(
    tmp_path: Path,
) -> None:
    before, after, tuned, frozen, switched = probe(tmp_path, "tune")
    assert before == 700 and after != before and tuned and switched
    # modules, classes and the database layer: out of every later full collection
    assert frozen > 20_000


def test_an_app_made_in_another_program_leaves_its_collector_alone(tmp_path: Path) -> None:
    before, after, tuned, frozen, switched = probe(tmp_path, "keep")
    assert after == before and not tuned and frozen == 0 and not switched


OLD_CYCLE = """
import asyncio, gc, weakref
from tessera.server import collector

class Node:
    pass

collector.tune()
node = Node()
node.me = node  # a cycle, alive while the name holds it
alive = weakref.ref(node)
for _ in range(3):
    gc.collect(1)  # it survives the middle generation's passes: now in the old one
del node
for _ in range(3):
    gc.collect(1)
left_by_passes = alive() is not None  # the old generation is not theirs to walk

async def main():
    task = asyncio.create_task(collector.collect_old_generation(every_s=0.05))
    for _ in range(100):
        await asyncio.sleep(0.02)
        if alive() is None:
            break
    task.cancel()

asyncio.run(main())
print(int(left_by_passes), int(alive() is None))
"""


def test_cycles_in_the_old_generation_are_freed_by_the_timed_full_collection() -> None:
    out = subprocess.run(
        [sys.executable, "-c", OLD_CYCLE], capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout.split() == ["1", "1"]
