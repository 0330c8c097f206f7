"""Run every benchmark module in this folder (each defines ``main()``), or those named."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def run(names: list[str]) -> None:
    here = Path(__file__).parent
    available = sorted(
        m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_")
    )
    for name in names or available:
        if name not in available:
            sys.exit(f"no benchmark named {name!r}; have: {', '.join(available)}")
        print(f"== benchmarks/{name} ==", flush=True)
        importlib.import_module(f"benchmarks.{name}").main()


if __name__ == "__main__":
    run(sys.argv[1:])
