"""Lexicon speed for ENABLE: build, cached load, lookups, anagrams, graph size.

Run with ``python -m benchmarks lexicon``. Uses a temporary cache directory so the first
load really builds the graph.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable

from tessera.tiles import tileset


def _rate(fn: Callable[[], int], seconds: float = 1.0) -> float:
    """Operations per second of ``fn`` (which returns how many it did), over ~``seconds``."""
    done, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += fn()
    return done / elapsed


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TESSERA_CACHE_DIR"] = tmp
        from tessera.lexicon import Lexicon
        from tessera.lexicon.kwg import Kwg, build_bytes
        from tessera.lexicon.wordlist import lines_of, parse_words

        english = tileset("english")
        start = time.perf_counter()
        lex = Lexicon.load("enable")
        build = time.perf_counter() - start

        # the parts of the build
        from importlib import resources

        raw = (resources.files("tessera") / "data" / "lexicons" / "enable2k.txt.gz").read_bytes()
        t0 = time.perf_counter()
        words = parse_words(lines_of(raw), english.alphabet)
        t1 = time.perf_counter()
        data = build_bytes(words.words)
        t2 = time.perf_counter()
        assert data == lex.kwg.to_bytes()

        loads = []
        for _ in range(15):
            t = time.perf_counter()
            again = Lexicon.load("enable")
            loads.append(time.perf_counter() - t)
            assert again.kwg._mmap is not None
        assert again.kwg.path is not None
        t = time.perf_counter()
        Kwg.load(again.kwg.path, check=True).close()
        checked_load = time.perf_counter() - t

        rng = random.Random(1)
        sample_words = rng.sample(list(lex.words()), 5000)
        bag = english.bag()
        junk = [tuple(rng.choice(bag[2:]) for _ in range(rng.randint(2, 9))) for _ in range(5000)]
        probes = sample_words + junk
        rng.shuffle(probes)
        texts = [lex.format(w) for w in probes]

        def lookups() -> int:
            for w in probes:
                lex.contains(w)
            return len(probes)

        def text_lookups() -> int:
            for w in texts:
                lex.contains_word(w)
            return len(texts)

        racks = [rng.sample(bag, 7) for _ in range(500)]
        blank_racks = [r for r in racks if 0 in r]

        def anagram_subs() -> int:
            for r in racks:
                lex.anagrams(r)
            return len(racks)

        def anagram_exact() -> int:
            for r in racks:
                lex.anagrams(r, partial=False)
            return len(racks)

        def clabbers() -> int:
            for r in racks:
                lex.has_anagram([t for t in r if t] or [1])
            return len(racks)

        lex.has_anagram([1])  # build the alphagram graph outside the timing

        rows = [
            ("words (2–15 letters)", f"{len(lex):,}", ""),
            ("first load: parse + build + cache", f"{build:.2f} s", "target < 5 s"),
            ("  parse 173,528 lines", f"{t1 - t0:.2f} s", ""),
            ("  build KWG (DAWG + GADDAG, core)", f"{t2 - t1:.2f} s", ""),
            (
                "cached load (median of 15)",
                f"{statistics.median(loads) * 1000:.1f} ms",
                "target < 50 ms",
            ),
            ("  load + full structure check", f"{checked_load * 1000:.1f} ms", ""),
            ("KWG nodes", f"{len(lex.kwg):,}", ""),
            (
                "KWG file size",
                f"{4 * len(lex.kwg) / 1e6:.2f} MB",
                f"the list: {len(raw) / 1e6:.2f} MB gzipped",
            ),
            ("lookups (tiles), half words", f"{_rate(lookups):,.0f} /s", ""),
            ("lookups (text)", f"{_rate(text_lookups):,.0f} /s", ""),
            (
                "anagrams: 7-tile rack, all sub-words",
                f"{_rate(anagram_subs):,.0f} /s",
                f"{len(blank_racks)} of {len(racks)} racks have blanks",
            ),
            ("anagrams: 7-tile rack, exact", f"{_rate(anagram_exact):,.0f} /s", ""),
            ("Clabbers validity (alphagram)", f"{_rate(clabbers):,.0f} /s", ""),
        ]
        width = max(len(r[0]) for r in rows)
        for name, value, note in rows:
            print(f"  {name:<{width}}  {value:>14}  {note}")
        for obj in (again, lex):
            obj.kwg.close()
