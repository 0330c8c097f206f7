"""Move generation speed on the committed mid-game positions (ENABLE, NASPA rules).

Run with ``python -m benchmarks movegen``. Reads ``benchmarks/data/movegen_positions.cgp``
(600 positions written by ``benchmarks/_make_movegen_positions.py``) and measures, in one run:

* the compiled generator, every move ranked (``generate_moves``), over all positions;
* the compiled generator, best move only (``top=1``), without and with leave values, and the
  compiled call alone (board bytes, rack counts and generator ready beforehand): the
  difference is what ``generate_moves``'s Python layer adds to each call;
* the pure-Python reference, every move ranked, over every 10th position — and the compiled
  generator again over exactly those positions, so the speed ratio compares like with like;
* the best move again with the positions taken a few at a time, each few asked in turn 20
  times over (one position, five, all 600): a call on a position the processor has just seen
  is cheaper, its branches predicted and its data cached, and the ratios show by how much;
* what building the compiled generator for ENABLE costs: CPU time, resident memory, and the
  size and build time of the index it makes at load (a filter of the words' letter
  multisets, from the alphagram graph).

Exchanges are included (the bag count comes from the position). Times are CPU time of this
process (``time.process_time``), which other work on a shared machine disturbs less than the
wall clock; wall-clock figures are printed beside them. Ratios are the claim; absolute
times depend on the machine.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data" / "movegen_positions.cgp"
REFERENCE_EVERY = 10
REPEATS = 5
IN_TURN = 20  # each window of positions is asked this many times over (in_turn)


def _load() -> tuple[list, object, object]:
    from tessera.board import Board
    from tessera.formats.cgp import loads
    from tessera.lexicon import Lexicon
    from tessera.ranking import bag_count_of

    lex = Lexicon.load("enable")
    positions = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        pos = loads(line)
        board = Board(pos.rules.layout)
        board.place(pos.tiles_on_board())
        positions.append((board, list(pos.racks[0]), pos.rules, bag_count_of(pos)))
    return positions, lex, _leaves()


def _leaves() -> object:
    """The shipped leave table if there is one, else None (then equity is the score)."""
    from importlib import resources

    from tessera.lexicon import Leaves

    path = resources.files("tessera") / "data" / "leaves" / "enable.klv2"
    if path.is_file():
        return Leaves.from_bytes(path.read_bytes())
    return None


def _timed(fn: Callable[[], int], repeats: int) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, moves) for the best of ``repeats`` runs of ``fn``."""
    return _interleaved([fn], repeats)[0]


def _interleaved(fns: list[Callable[[], int]], repeats: int) -> list[tuple[float, float, int]]:
    """``_timed`` for several functions, run in turn ``repeats`` times: each one's best run is
    taken from the same stretch of time, so a shared machine's slow spells hit them alike."""
    best = [[float("inf"), float("inf"), 0] for _ in fns]
    for _ in range(repeats):
        for b, fn in zip(best, fns, strict=True):
            c0, w0 = time.process_time(), time.perf_counter()
            b[2] = fn()
            b[0] = min(b[0], time.process_time() - c0)
            b[1] = min(b[1], time.perf_counter() - w0)
    return [(cpu, wall, moves) for cpu, wall, moves in best]


def _line(label: str, n: int, cpu: float, wall: float, moves: int) -> None:
    print(
        f"  {label:<34} {n:>4} positions  {n / cpu:>9,.0f} pos/s  {moves / cpu:>11,.0f} moves/s"
        f"  {cpu / n * 1000:7.3f} ms/pos cpu  ({wall / n * 1000:7.3f} ms/pos wall)"
    )


def resident_bytes() -> int:
    """This process's resident memory now (0 where /proc is missing)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


def generator_footprint(lex: Any, rules: Any, leaves: Any) -> dict[str, float]:
    """Build the compiled generator afresh: its CPU seconds, the resident memory it added and
    its word filter's bytes and build seconds. The lexicon's alphagram graph, which the
    generator reads, is the lexicon's own (cached beside it; `benchmarks lexicon`): made
    first, outside the count."""
    from tessera import movegen

    lex.alphagrams()
    movegen._GENERATORS.clear()
    rss, cpu = resident_bytes(), time.process_time()
    gen = movegen.compiled_generator(lex, rules, leaves)
    cpu, rss = time.process_time() - cpu, resident_bytes() - rss
    filter_bytes, filter_s = gen.word_filter
    return {"build_s": cpu, "rss_bytes": rss, "filter_bytes": filter_bytes, "filter_s": filter_s}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("TESSERA_CACHE_DIR", tmp)
        from tessera.movegen import (
            compiled_generator,
            exchange_sizes,
            generate_moves,
            reference_moves,
        )

        positions, lex, leaves = _load()
        fp = generator_footprint(lex, positions[0][2], leaves)  # the first build: fresh memory
        sample = positions[::REFERENCE_EVERY]
        n, ns = len(positions), len(sample)
        # warm up: build the compiled generators once
        generate_moves(*positions[0][:2], lex, positions[0][2], top=1, leaves=leaves)
        generate_moves(*positions[0][:2], lex, positions[0][2])

        def compiled(pos: list, top: int | None = None, lv: object = None) -> Callable[[], int]:
            def run() -> int:
                return sum(
                    len(generate_moves(b, r, lex, rules, top=top, leaves=lv, bag_count=bag))
                    for b, r, rules, bag in pos
                )

            return run

        def binding(pos: list, lv: object) -> Callable[[], int]:
            calls = [
                (
                    compiled_generator(lex, rules, lv),
                    b.cell_bytes(),
                    bytes(r),
                    len(exchange_sizes(rules, len(r), bag)),
                )
                for b, r, rules, bag in pos
            ]

            def run() -> int:
                return sum(len(g.generate(c, k, x, 1, True, True)) for g, c, k, x in calls)

            return run

        def in_turn(pos: list, window: int, lv: object) -> Callable[[], int]:
            """The best move of every position, ``window`` positions at a time, each window
            asked IN_TURN times over: the same calls whatever the window."""

            def run() -> int:
                found = 0
                for start in range(0, len(pos), window):
                    for _ in range(IN_TURN):
                        for b, r, rules, bag in pos[start : start + window]:
                            found += len(
                                generate_moves(b, r, lex, rules, top=1, leaves=lv, bag_count=bag)
                            )
                return found

            return run

        def reference(pos: list) -> Callable[[], int]:
            def run() -> int:
                return sum(
                    len(reference_moves(b, r, lex, rules, bag_count=bag))
                    for b, r, rules, bag in pos
                )

            return run

        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(
            f"{n} mid-game positions (ENABLE, NASPA), exchanges included; best of "
            f"{REPEATS} runs taken in turn, CPU time; load average {load:.1f} on "
            f"{os.cpu_count()} CPUs"
        )
        modes = [
            ("compiled, all moves", compiled(positions)),
            ("compiled, top 1 (equity = score)", compiled(positions, 1)),
        ]
        if leaves is not None:
            modes += [
                ("compiled, top 1 (score + leave)", compiled(positions, 1, leaves)),
                ("compiled, all moves (score + leave)", compiled(positions, None, leaves)),
                ("compiled call alone, top 1 (score + leave)", binding(positions, leaves)),
            ]
        timed = _interleaved([fn for _, fn in modes], REPEATS)
        for (label, _), (cpu, wall, moves) in zip(modes, timed, strict=True):
            _line(label, n, cpu, wall, moves)
        if leaves is not None:
            full, bare = timed[2][0] / n, timed[4][0] / n
            print(
                f"  generate_moves over the compiled call alone, top 1 (score + leave): "
                f"{(full - bare) * 1e6:.1f} us of {full * 1e6:.1f} us per position "
                f"({(full - bare) / full:.1%})"
            )
        windows = (1, 5, n)
        cycled = _interleaved([in_turn(positions, w, leaves) for w in windows], REPEATS)
        one = cycled[0][0]
        print(
            f"  best move, each position asked {IN_TURN} times over, one at a time: "
            f"{one / (n * IN_TURN) * 1e6:.1f} us a call; "
            + ", ".join(
                f"{w} in turn {c / one:.2f}x"
                for w, (c, _, _) in zip(windows[1:], cycled[1:], strict=True)
            )
            + " that (positions new to the processor: mispredicted branches, cache misses)"
        )
        (all_cpu, _, all_moves), (t1_cpu, _, _) = timed[0], timed[1]
        print(f"  average {all_moves / n:,.0f} moves per position")
        print(
            f"  building the compiled generator (ENABLE, NASPA, leaves): "
            f"{fp['build_s'] * 1000:.0f} ms CPU, resident memory "
            f"+{fp['rss_bytes'] / 2**20:.1f} MB; "
            f"of it the word filter {fp['filter_bytes'] / 1024:,.0f} KB, built in "
            f"{fp['filter_s'] * 1000:.1f} ms"
        )

        s_cpu, s_wall, s_moves = _timed(compiled(sample), REPEATS)
        s1_cpu, s1_wall, s1_moves = _timed(compiled(sample, 1), REPEATS)
        r_cpu, r_wall, r_moves = _timed(reference(sample), 1)
        assert r_moves == s_moves, "the generators disagree on the number of moves"
        print(f"side by side on every {REFERENCE_EVERY}th position ({ns}):")
        _line("reference (Python), all moves", ns, r_cpu, r_wall, r_moves)
        _line("compiled, all moves", ns, s_cpu, s_wall, s_moves)
        _line("compiled, top 1", ns, s1_cpu, s1_wall, s1_moves)
        print(
            f"  compiled/reference speed, all moves: {r_cpu / s_cpu:,.0f}x (cpu)  "
            f"{r_wall / s_wall:,.0f}x (wall)"
        )
        print(
            f"  compiled top-1 / reference all moves: {r_cpu / s1_cpu:,.0f}x (cpu)  "
            f"{r_wall / s1_wall:,.0f}x (wall)"
        )
        print(
            f"  targets: all moves < 0.5 ms/pos: {all_cpu / n * 1000:.3f} ms "
            f"({'met' if all_cpu / n < 0.0005 else 'NOT met'}); top 1 < 0.2 ms/pos: "
            f"{t1_cpu / n * 1000:.3f} ms ({'met' if t1_cpu / n < 0.0002 else 'NOT met'}); "
            f"compiled >= 100x reference: {r_cpu / s_cpu:,.0f}x "
            f"({'met' if r_cpu / s_cpu >= 100 else 'NOT met'})"
        )


if __name__ == "__main__":
    main()
