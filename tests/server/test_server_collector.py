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
from tessera.server.collector import SWITCH_INTERVAL_S, YOUNG_THRESHOLD

tune = sys.argv[2] == "tune"
before = gc.get_threshold()[0]
config = ServerConfig(tune_collector=tune, allowed_hosts=("testserver",))
app = create_app("sqlite:///" + sys.argv[1], config=config)
with TestClient(app) as client:
    assert client.get("/api/meta").status_code == 200
    switch = sys.getswitchinterval() == SWITCH_INTERVAL_S
    print(before, gc.get_threshold()[0], YOUNG_THRESHOLD, gc.get_freeze_count(), int(switch))
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
    before, after, young, frozen, switched = probe(tmp_path, "tune")
    assert before == 700 and after == young and switched
    # modules, classes and the database layer: out of every later full collection
    assert frozen > 20_000


def test_an_app_made_in_another_program_leaves_its_collector_alone(tmp_path: Path) -> None:
    before, after, _, frozen, switched = probe(tmp_path, "keep")
    assert after == before and frozen == 0 and not switched
