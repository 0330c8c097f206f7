"""Run ``tessera serve`` as a real process on a free local port (server and browser tests)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from support.ports import free_port

TESSERA = Path(sys.executable).with_name("tessera")


class ServerProcess:
    """``tessera serve --database sqlite:///DB --port N`` with the computer moving at once."""

    def __init__(
        self,
        db: Path,
        *,
        port: int | None = None,
        url: str | None = None,
        extra: tuple[str, ...] = (),
    ) -> None:
        self.db = db  # the SQLite file, or (with ``url``) where the log goes
        self.database = url or f"sqlite:///{db}"
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.extra = extra

    def start(self) -> ServerProcess:
        env = dict(os.environ)
        cmd = [
            str(TESSERA),
            "serve",
            "--port",
            str(self.port),
            "--database",
            self.database,
            "--bot-delay",
            "0",
            "--think",
            "0.05",
            *self.extra,
        ]
        self.log_path = self.db.with_suffix(f".{self.port}.log")
        self.log = open(self.log_path, "ab")
        # its own process group: a signal reaches the workers of ``--workers`` too
        self.proc = subprocess.Popen(
            cmd, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"tessera serve exited with {self.proc.returncode}")
            try:
                if httpx.get(self.url + "/api/meta", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("tessera serve did not start within 30 s")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, sig)  # the workers as well as their supervisor
            except ProcessLookupError:
                pass
            self.proc.wait(timeout=10)
        self.proc = None
        self.log.close()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.kill(signal.SIGTERM)
