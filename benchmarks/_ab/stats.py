"""Medians, speed-up ratios and the printed tables of an A/B run.

Each round gives one CPU time per side and measure. A side's figure is the median of its
rounds; the speed-up is old median / new median (above 1: the new build is faster); the
spread is the lowest and highest of the per-round ratios (round i old / round i new), which
pairs the two runs taken closest together in time.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

UNSORTED_VS_RANKED = "unsorted_vs_ranked"  # new unsorted list against the old ranked one
LABELS = {
    "best": "best move (top 1, leaves)",
    "all": "every move ranked (leaves)",
    "unsorted": "every move unsorted (leaves)",
    UNSORTED_VS_RANKED: "new unsorted vs old ranked",
    "selfplay": "static self-play games",
}


@dataclass(frozen=True)
class Summary:
    """One measure over the rounds: medians of each side and the old/new ratios."""

    measure: str
    unit: str
    items: int
    old: float | None  # median CPU seconds; None: that build has no such mode
    new: float | None
    ratio: float | None
    ratio_min: float | None
    ratio_max: float | None


def summarize(
    measure: str, unit: str, items: int, old: Sequence[float | None], new: Sequence[float | None]
) -> Summary:
    """The summary of paired per-round CPU times (``None`` where a side cannot run it)."""
    if len(old) != len(new):
        raise ValueError("each round needs a time from both sides")
    o = [t for t in old if t is not None]
    n = [t for t in new if t is not None]
    mo = statistics.median(o) if o and len(o) == len(old) else None
    mn = statistics.median(n) if n and len(n) == len(new) else None
    if mo is None or mn is None or not all(n):
        return Summary(measure, unit, items, mo, mn, None, None, None)
    ratios = [a / b for a, b in zip(o, n, strict=True)]
    return Summary(measure, unit, items, mo, mn, mo / mn, min(ratios), max(ratios))


def _rate(seconds: float | None, s: Summary) -> str:
    """A side's median as time per item (movegen) or items per CPU-second (games)."""
    if seconds is None:
        return "n/a"
    if s.unit == "games":
        return f"{seconds:7.3f} s  {s.items / seconds:8.1f} games/cpu-s"
    return f"{seconds:7.3f} s  {seconds / s.items * 1000:7.4f} ms/pos"


def table(summaries: Sequence[Summary], old_name: str, new_name: str, rounds: int) -> str:
    """The results table: one line per measure."""
    head = (
        f"{'measure (median CPU time of ' + str(rounds) + ' rounds)':<44}"
        f"{'old ' + old_name:<32}{'new ' + new_name:<32}{'old/new':>8}  ratio range"
    )
    lines = [head, "-" * len(head)]
    for s in summaries:
        label = LABELS.get(s.measure, s.measure) + (f", {s.items} {s.unit}" if s.items else "")
        ratio = f"{s.ratio:7.2f}x" if s.ratio is not None else f"{'n/a':>8}"
        spread = f"{s.ratio_min:.2f}–{s.ratio_max:.2f}x" if s.ratio_min is not None else "n/a"
        lines.append(f"{label:<44}{_rate(s.old, s):<32}{_rate(s.new, s):<32}{ratio}  {spread}")
    return "\n".join(lines)


def side_table(rows: Sequence[tuple[str, Sequence[float], Sequence[int]]]) -> str:
    """Load time (median) and resident memory peak (max) of each side's worker."""
    lines = [f"{'side':<24}{'load (cpu, median)':>20}{'peak RSS (max)':>18}"]
    for name, loads, rss_kb in rows:
        lines.append(f"{name:<24}{statistics.median(loads):>18.3f} s{max(rss_kb) / 1024:>15.1f} MB")
    return "\n".join(lines)
