"""Run every benchmark module in this folder (each defines ``main()``), or those named.

``python -m benchmarks NAME --option ...`` runs one benchmark with its own options (its
``main()`` reads them from ``sys.argv[2:]``). ``python -m benchmarks ab REV ...`` times this
build against commit REV built beside it (:mod:`benchmarks._ab.cli`)."""

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
    args = sys.argv[1:]
    if args[:1] == ["ab"]:
        from benchmarks._ab.cli import main

        main(args[1:])
    options = next((i for i, a in enumerate(args) if a.startswith("-")), len(args))
    if options < len(args) and options != 1:
        sys.exit("options follow the one benchmark they are for: python -m benchmarks NAME --...")
    run(args[:options])
