"""The Ray backend of self-play, without Ray: a stand-in ``ray`` module that finishes the
chunks in reverse order must give exactly what the local backend gives, in chunk order, with
progress for every chunk; an unreachable cluster or a missing Ray is a plain error."""

from __future__ import annotations

import json
import pickle
import re
import socket
import sys
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tessera.cli import main
from tessera.engine import parallel
from tessera.engine.parallel import run_parallel
from tessera.engine.selfplay import MatchSpec, autoplay
from tessera.engine.training import train


class FakeRay(types.ModuleType):
    """``init``, ``remote``, ``wait`` and ``get``, as ``run_parallel`` uses them.

    Arguments and results go through pickle (as to a Ray worker and back), and ``wait``
    always finishes the most recently submitted pending task first (reverse order).
    """

    def __init__(self) -> None:
        super().__init__("ray")
        self.addresses: list[str] = []
        self.submitted: list[int] = []
        self.finished: list[int] = []
        self._calls: dict[int, tuple[Callable[..., Any], bytes]] = {}

    def init(self, address: str | None = None, **_kwargs: Any) -> None:
        self.addresses.append(str(address))

    def is_initialized(self) -> bool:
        return bool(self.addresses)

    def cluster_resources(self) -> dict[str, float]:
        assert self.addresses, "ray.cluster_resources before ray.init"
        return {"CPU": 8.0, "memory": 1e9}

    def remote(self, func: Callable[..., Any]) -> Any:
        fake = self

        class Remote:
            @staticmethod
            def remote(*args: Any) -> int:
                ref = len(fake._calls)
                fake._calls[ref] = (func, pickle.dumps(args))
                fake.submitted.append(ref)
                return ref

        return Remote()

    def wait(self, refs: list[int], num_returns: int = 1) -> tuple[list[int], list[int]]:
        assert self.addresses, "ray.wait before ray.init"
        pending = sorted(refs, key=self.submitted.index)
        done, rest = pending[-num_returns:], pending[:-num_returns]
        self.finished.extend(done)
        return done, rest

    def get(self, ref: int) -> Any:
        assert ref in self.finished, "ray.get of a task that ray.wait has not returned"
        func, args = self._calls[ref]
        return pickle.loads(pickle.dumps(func(*pickle.loads(args))))


@pytest.fixture
def fake_ray(monkeypatch: pytest.MonkeyPatch) -> FakeRay:
    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    return fake


@pytest.fixture
def live_address() -> Iterator[str]:
    """A loopback address where something listens (the stand-in cluster's head)."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        yield f"127.0.0.1:{server.getsockname()[1]}"


@pytest.fixture
def dead_address() -> str:
    """A loopback address where nothing listens."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
    return f"127.0.0.1:{port}"


def _scale(spec: int, part: list[int]) -> list[int]:
    return [spec * x for x in part]


def test_run_parallel_on_ray_gives_the_local_results_in_chunk_order(
    fake_ray: FakeRay, live_address: str
) -> None:
    work = list(range(10))
    local_sizes: list[int] = []
    local = run_parallel(_scale, 3, work, workers=1, chunk=3, on_chunk=local_sizes.append)
    sizes: list[int] = []
    on_ray = run_parallel(
        _scale, 3, work, chunk=3, ray_address=live_address, on_chunk=sizes.append
    )
    assert local == [[0, 3, 6], [9, 12, 15], [18, 21, 24], [27]]
    assert on_ray == local
    assert fake_ray.addresses == [live_address]
    assert fake_ray.finished == [3, 2, 1, 0]  # really out of submission order
    assert sizes == [1, 3, 3, 3]  # every chunk reported, as it finishes
    assert local_sizes == [3, 3, 3, 1]


def test_autoplay_on_ray_is_the_local_match(
    fake_ray: FakeRay, live_address: str, tmp_path: Path
) -> None:
    outputs = []
    for backend in ("local", "ray"):
        spec = MatchSpec(("static", "static-noleaves"), 4, seed=9, gcg_dir=str(tmp_path / backend))
        progress: list[int] = []
        rep, records = autoplay(
            spec, chunk=1, on_chunk=progress.append,
            ray_address=live_address if backend == "ray" else None,
        )
        assert progress == [1, 1, 1, 1]
        files = sorted((tmp_path / backend).glob("*.gcg"))
        outputs.append(([(f.name, f.read_bytes()) for f in files], records, rep))
    (gcg_local, rec_local, rep_local), (gcg_ray, rec_ray, rep_ray) = outputs
    assert fake_ray.finished == [3, 2, 1, 0]
    assert [r.index for r in rec_ray] == [0, 1, 2, 3]
    assert rec_ray == rec_local
    assert len(gcg_ray) == 4 and gcg_ray == gcg_local
    assert (rep_ray.wins, rep_ray.ci95, rep_ray.mean_scores, rep_ray.bingos_per_game) == (
        rep_local.wins, rep_local.ci95, rep_local.mean_scores, rep_local.bingos_per_game
    )


def test_the_cli_sizes_chunks_and_reports_workers_by_the_clusters_cpus(
    fake_ray: FakeRay, live_address: str
) -> None:
    """Eight CPUs on the cluster, whatever --workers says: 16 games go out in 16 chunks of
    one (games // (4 x 8) rounds to 1), and the report names 8 workers."""
    result = CliRunner().invoke(
        main, ["autoplay", "--games", "16", "--seed", "3", "--workers", "1", "--ray",
               live_address, "--json", "-q"],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["workers"] == 8
    assert len(fake_ray.submitted) == 16
    assert fake_ray.addresses == [live_address]  # one connection serves both steps


def test_leave_training_on_ray_learns_the_local_table(
    fake_ray: FakeRay, live_address: str, tmp_path: Path
) -> None:
    tables = []
    for backend in ("local", "ray"):
        table, reports = train(
            games=4, generations=1, seed=3, chunk=1, max_size=2, work_dir=tmp_path / backend,
            ray_address=live_address if backend == "ray" else None,
        )
        assert reports[0].games == 4
        tables.append(table.values)
    assert fake_ray.finished == [3, 2, 1, 0]
    assert tables[1] == tables[0]


def test_an_unreachable_cluster_is_a_plain_error_at_once(
    fake_ray: FakeRay, dead_address: str
) -> None:
    began = time.monotonic()
    message = f"cannot reach the Ray cluster at {dead_address}"
    with pytest.raises(RuntimeError, match=re.escape(message)):
        run_parallel(_scale, 1, [1, 2], ray_address=dead_address)
    assert time.monotonic() - began < parallel.RAY_CONNECT_TIMEOUT
    assert fake_ray.addresses == []  # never handed to ray.init, which would retry for minutes
    result = CliRunner().invoke(
        main, ["autoplay", "-n", "2", "-w", "1", "-q", "--ray", dead_address]
    )
    assert result.exit_code == 2, result.output
    assert result.output.startswith(
        f"tessera autoplay: error: cannot reach the Ray cluster at {dead_address}"
    )
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("error", [ConnectionError, ValueError, RuntimeError, TimeoutError])
def test_a_cluster_that_refuses_the_connection_is_a_plain_error(
    fake_ray: FakeRay, live_address: str, monkeypatch: pytest.MonkeyPatch, error: type
) -> None:
    def refuse(**_kwargs: Any) -> None:
        raise error("Could not find any running Ray instance.")

    monkeypatch.setattr(fake_ray, "init", refuse)
    with pytest.raises(RuntimeError, match=r"cannot connect to the Ray cluster at .*running Ray"):
        run_parallel(_scale, 1, [1, 2], ray_address=live_address)
    assert fake_ray.submitted == []


def test_missing_ray_is_a_plain_error(
    monkeypatch: pytest.MonkeyPatch, live_address: str, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    with pytest.raises(RuntimeError, match="--ray needs Ray"):
        run_parallel(_scale, 1, [1, 2], ray_address=live_address)
    result = CliRunner().invoke(
        main, ["leaves", "train", "-n", "2", "-g", "1", "-q", "--ray", live_address,
               "--work-dir", str(tmp_path), "-o", str(tmp_path / "x.klv2")],
    )
    assert result.exit_code == 2, result.output
    assert result.output.startswith("tessera leaves train: error: --ray needs Ray"), result.output
    assert isinstance(result.exception, SystemExit)
