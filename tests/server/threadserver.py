"""The app served by uvicorn on a free loopback port, in a thread of the test process.

For tests that need a real HTTP/WebSocket server with settings that ``tessera serve`` does not
expose (a one-second hello timeout, a small connection cap)."""

from __future__ import annotations

import threading
import time
from typing import Any

import uvicorn
from serverproc import free_port


class ThreadServer:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(
            uvicorn.Config(
                app, host="127.0.0.1", port=self.port, log_level="warning", ws_max_size=65536
            )
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(30)
