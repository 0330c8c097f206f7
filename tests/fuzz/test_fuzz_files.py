"""Issue 9: seeded, bounded fuzzing of every file reader — GCG, CGP, KWG and KLV2.

Valid samples (games played here and written, positions from them, small word graphs and
leave tables built here, the test data's records) are mutated with a fixed seed
(:mod:`support.mutate`): 2,200 inputs in the fast suite, ten times as many in the slow one.
Each input goes through the reader and what a command does with the result (a replay, move
generation, word queries, leave lookups), and must end in a documented error with a short,
one-line message, or in a correct result (a round trip of the result gives it back). Every
input runs within a time bound and under an address-space cap (a larger allocation fails the
test); the peak traced allocation is bounded for every input (every fourth GCG replay, which
tracing slows fourfold), and so is the resident growth of each batch. After each batch nothing
has changed:
not a live game, not the shared word list, not the sample files, and the lexicon cache has no
entry for a refused file. A sample of the inputs also goes through the commands themselves,
which must answer with one line, never a traceback.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import random
import resource
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from support.mutate import mutate_bytes, mutate_cgp, mutate_text
from support.randomplay import Judge, play_random_game, random_play, state
from tessera.board import Board
from tessera.cli import main
from tessera.formats import cgp, gcg
from tessera.formats.cgp import CgpError
from tessera.formats.gcg import GcgError
from tessera.game import Game
from tessera.lexicon import KlvError, Kwg, Leaves, Lexicon, LexiconError, cache_dir
from tessera.lexicon.kwg import build_bytes
from tessera.lexicon.lexicon import resolve_alphabet
from tessera.movegen import generate_moves
from tessera.ranking import bag_count_of

ROOT = Path(__file__).parents[2]
GCG_DATA = ROOT / "tests" / "data" / "gcg"
COMMON = ROOT / "src" / "tessera" / "data" / "wordfreq" / "common_en.txt.gz"

COUNTS = {"gcg": 600, "cgp": 600, "kwg": 500, "klv2": 500}  # 2,200 in all
SLOW_FACTOR = 10
SECONDS_PER_INPUT = 3.0  # generous on a shared machine: inputs take milliseconds
PEAK_BYTES_PER_INPUT = 64 << 20  # traced allocation while one input is handled
RSS_GROWTH_PER_BATCH = 256 << 20
ADDRESS_SPACE_PER_BATCH = 1 << 30  # the hard cap: any larger allocation is a MemoryError
CLI_SAMPLE = 40  # inputs of each kind also run through the command


@dataclass
class Outcomes:
    """What a batch did: outcomes by kind, the slowest and the most memory-hungry input."""

    counts: Counter[str] = field(default_factory=Counter)
    slowest: tuple[float, int] = (0.0, -1)
    hungriest: tuple[int, int] = (0, -1)


@contextmanager
def address_space_cap(extra: int) -> Iterator[None]:
    """Cap the process's address space at its current size plus ``extra`` bytes (Linux): any
    larger allocation fails with MemoryError, which the batch reports as a finding."""
    status = Path("/proc/self/status")
    size = next(
        (int(line.split()[1]) * 1024 for line in status.read_text().splitlines()
         if line.startswith("VmSize:")), None
    ) if status.exists() else None
    if size is None:
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = size + extra
    resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else
                                            min(cap, hard), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def run_batch(
    inputs: Iterable[bytes | str],
    handle: Callable[[bytes | str], None],
    allowed: tuple[type[Exception], ...],
    traced_every: int = 1,
) -> Outcomes:
    """Handle each input under the bounds; fail at the first undocumented exception.

    Every input runs under an address-space cap (:data:`ADDRESS_SPACE_PER_BATCH` above the
    process's size) and a time bound; the peak traced allocation is measured for every
    ``traced_every``-th input (tracing slows a replay about fourfold)."""
    out = Outcomes()
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    with address_space_cap(ADDRESS_SPACE_PER_BATCH):
        for i, data in enumerate(inputs):
            traced = i % traced_every == 0
            if traced:
                tracemalloc.start()
            start = time.perf_counter()
            try:
                handle(data)
                out.counts["ok"] += 1
            except allowed as exc:
                message = str(exc)
                assert message and "\n" not in message and len(message) < 600, (i, message)
                out.counts[type(exc).__name__] += 1
            except Exception as exc:  # any other type is the finding
                shown = data[:300] if isinstance(data, str) else data[:120].hex()
                pytest.fail(f"input {i}: {type(exc).__name__}: {exc}\n{shown!r}")
            finally:
                seconds = time.perf_counter() - start
                if traced:
                    peak = tracemalloc.get_traced_memory()[1]
                    tracemalloc.stop()
                    out.hungriest = max(out.hungriest, (peak, i))
            out.slowest = max(out.slowest, (seconds, i))
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    assert out.slowest[0] < SECONDS_PER_INPUT, f"input {out.slowest[1]}: {out.slowest[0]:.2f} s"
    assert out.hungriest[0] < PEAK_BYTES_PER_INPUT, f"input {out.hungriest[1]}: {out.hungriest}"
    assert rss_after - rss_before < RSS_GROWTH_PER_BATCH
    return out


def mutated(samples: list, mutate: Callable, n: int, seed: int) -> list:
    rng = random.Random(seed)
    return [mutate(samples[i % len(samples)], rng) for i in range(n)]


def one_clear_line_or_success(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args[:2], repr(result.exception)
    )
    assert "Traceback" not in result.output
    if result.exit_code != 0:
        lines = result.output.strip().splitlines()
        assert lines and ("Error" in lines[-1] or ": " in lines[-1]), result.output[-300:]


# -- shared fixtures --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterable[Path]:
    root = tmp_path_factory.mktemp("fuzz-env")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TESSERA_CACHE_DIR", str(root / "cache"))
        mp.setenv("TESSERA_LEXICON_DIR", str(root / "lexicons"))
        yield root


@pytest.fixture(scope="module")
def common_words() -> list[str]:
    return gzip.decompress(COMMON.read_bytes()).decode().split()[:4000]


@pytest.fixture(scope="module")
def lexicon(env: Path, common_words: list[str]) -> Lexicon:
    lex = Lexicon.from_words(common_words, name="common")
    lex.alphagrams()  # built (and cached) now: Clabbers positions use it
    return lex


def fingerprint(lex: Lexicon) -> tuple[str, str]:
    return hashlib.sha256(lex.kwg.to_bytes()).hexdigest(), repr(sorted(lex.info.items()))


def cache_listing() -> set[str]:
    folder = cache_dir() / "lexicons"
    return set(os.listdir(folder)) if folder.is_dir() else set()


# -- GCG ------------------------------------------------------------------------------------------


def gcg_samples() -> list[str]:
    games = [play_random_game(rules, seed, max_actions=16)[0]
             for rules, seed in (("naspa", 1), ("wespa", 2), ("hasbro", 3), ("super", 4))]
    phony = Game("naspa", players=["Ann", "Bob"], seed=5, first=1)
    phony.play(random_play(phony, random.Random(5)))
    phony.lexicon = Judge(phony.alphabet, valid=False)
    phony.challenge("Ann")
    games.append(phony)
    texts = [gcg.dumps(g) for g in games]
    for path in sorted(GCG_DATA.glob("*.gcg")):  # the short ones: replays cost time
        raw = path.read_bytes()
        if raw.count(b"\n") > 40:
            continue
        utf8 = raw.lower().startswith(b"#character-encoding utf-8")
        texts.append(raw.decode("utf-8" if utf8 else "latin-1"))
    return texts


def handle_gcg(data: bytes | str) -> None:
    game = gcg.replay(data)
    again = gcg.replay(gcg.dumps(game))  # a correct result: its record gives it back
    assert again.scores == game.scores and again.board == game.board


def fuzz_gcg(n: int, env: Path, lexicon: Lexicon) -> Outcomes:
    samples = gcg_samples()
    live = play_random_game("naspa", 9, max_actions=12)[0]
    before = (state(live), fingerprint(lexicon), cache_listing())
    inputs = mutated(samples, mutate_text, n, seed=91)
    # half as bytes (the decoder sees them), half as text
    inputs = [t.encode("utf-8", "surrogatepass") if i % 2 else t for i, t in enumerate(inputs)]
    out = run_batch(inputs, handle_gcg, (GcgError,), traced_every=4)
    path = env / "fuzz.gcg"
    for data in inputs[:CLI_SAMPLE]:
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
        one_clear_line_or_success(["gcg", "verify", str(path)])
        one_clear_line_or_success(["gcg", "show", str(path)])
    assert (state(live), fingerprint(lexicon), cache_listing()) == before
    return out


# -- CGP ------------------------------------------------------------------------------------------


def cgp_samples() -> list[str]:
    out = []
    for text in gcg_samples():
        record = gcg.loads(text)
        turns = sum(1 for e in record.events if e.kind in gcg.TURN_LINES)
        for k in sorted({0, turns // 2, turns}):
            out.append(cgp.dumps(gcg.replay(record, turns=k)))
    return out


def handle_cgp(lexicon: Lexicon) -> Callable[[bytes | str], None]:
    def handle(text: bytes | str) -> None:
        assert isinstance(text, str)
        pos = cgp.loads(text)
        assert cgp.loads(cgp.dumps(pos)) == pos  # a correct result round-trips
        rules = pos.rules
        if rules.tileset.alphabet.labels != lexicon.alphabet.labels:
            pos.to_game()
            return
        pos.to_game(lexicon=lexicon)
        board = Board(rules.layout)
        board.place(pos.tiles_on_board())
        rack = pos.racks[0] if pos.racks else ()
        generate_moves(board, list(rack), lexicon, rules, top=5, bag_count=bag_count_of(pos))

    return handle


def fuzz_cgp(n: int, env: Path, lexicon: Lexicon) -> Outcomes:
    before = (fingerprint(lexicon), cache_listing())
    inputs = mutated(cgp_samples(), mutate_cgp, n, seed=92)
    out = run_batch(inputs, handle_cgp(lexicon), (CgpError,))
    words = env / "common.kwg"
    lexicon.kwg.save(words)
    for text in inputs[:CLI_SAMPLE]:
        one_clear_line_or_success(
            ["moves", "--cgp", text, "--lexicon", str(words), "--top", "3"]
        )
    assert (fingerprint(lexicon), cache_listing()) == before
    return out


# -- KWG ------------------------------------------------------------------------------------------


def kwg_samples(common_words: list[str]) -> list[bytes]:
    def tiles(words: list[str]) -> list[bytes]:
        return [bytes(ord(c) - 64 for c in w) for w in words]

    full = build_bytes(tiles(common_words[:300]))
    dawg = build_bytes(tiles(common_words[300:500]), gaddag=False)
    big = build_bytes(tiles(common_words[:1500]))  # enough words for the letter statistics
    return [full, dawg, big]


def handle_kwg(path: Path) -> Callable[[bytes | str], None]:
    def handle(data: bytes | str) -> None:
        assert isinstance(data, bytes)
        path.unlink(missing_ok=True)  # a new file: the last one may still be mapped
        path.write_bytes(data)
        before = cache_listing()
        try:  # the samples are English; small graphs need saying so (issue 36, point 22)
            lex = Lexicon.load(path, alphabet="english")
        except LexiconError:
            assert cache_listing() == before  # nothing cached for a refused file
            raise
        count = len(lex)
        assert sum(1 for _ in lex.words()) == count
        lex.contains_word("THE")
        lex.anagrams("AEINRST")
        lex.pattern("T?E*")
        if lex.alphabet.name == "english" and lex.kwg.max_tile() <= 26:
            board = Board(Game("naspa").rules.layout)
            generate_moves(board, [1, 5, 9, 14, 18, 19, 20], lex, Game("naspa").rules, top=3)

    return handle


def fuzz_kwg(n: int, env: Path, common_words: list[str]) -> Outcomes:
    samples = kwg_samples(common_words)
    inputs = mutated(samples, mutate_bytes, n, seed=93)
    path = env / "fuzz.kwg"
    out = run_batch(inputs, handle_kwg(path), (LexiconError,))
    for data in inputs[:CLI_SAMPLE]:
        path.write_bytes(data)
        one_clear_line_or_success(["lexicon", "info", str(path)])
    return out


# -- KLV2 -----------------------------------------------------------------------------------------


def klv2_samples() -> list[bytes]:
    out = []
    for seed in (1, 2):
        rng = random.Random(seed)
        table = {tuple(sorted(rng.randrange(27) for _ in range(rng.randint(1, 5)))):
                 rng.uniform(-20, 40) for _ in range(300)}
        out.append(Leaves.from_mapping(table).to_bytes())
    return out


def handle_klv2(data: bytes | str) -> None:
    assert isinstance(data, bytes)
    leaves = Leaves.from_bytes(data)
    items = leaves.items()
    assert len(items) == len(leaves)
    for i, (tiles, value) in enumerate(items[:50]):
        assert leaves.index(tiles) == i and leaves.value(tiles) == value
    leaves.value([1, 5, 9, 0])


def fuzz_klv2(n: int, env: Path) -> Outcomes:
    samples = klv2_samples()
    words = env / "klv-words.kwg"
    Lexicon(Kwg(build_bytes([b"\x01\x02"])), resolve_alphabet("english"), "klv-words").save(words)
    Lexicon.load(words).alphagrams()  # cached now: the move generator asks for it
    before = cache_listing()
    inputs = mutated(samples, mutate_bytes, n, seed=94)
    out = run_batch(inputs, handle_klv2, (KlvError,))
    path = env / "fuzz.klv2"
    cgp_text = "/".join(["15"] * 15) + " AEINRST/ 0/0 0"
    for data in inputs[:CLI_SAMPLE]:
        path.write_bytes(data)
        one_clear_line_or_success(["moves", "--cgp", cgp_text, "--lexicon", str(words),
                                   "--leaves", str(path), "--top", "3"])
    assert cache_listing() == before
    return out


# -- the tests ------------------------------------------------------------------------------------


def check_spread(out: Outcomes, n: int, refused: str) -> None:
    assert sum(out.counts.values()) == n
    assert out.counts[refused] > 0 and out.counts["ok"] > 0, out.counts


@pytest.mark.parametrize("kind", sorted(COUNTS))
def test_fuzzed_files_get_a_clear_answer_within_bounds(
    kind: str, env: Path, lexicon: Lexicon, common_words: list[str]
) -> None:
    run(kind, COUNTS[kind], env, lexicon, common_words)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(COUNTS))
def test_fuzzed_files_at_length(
    kind: str, env: Path, lexicon: Lexicon, common_words: list[str]
) -> None:
    run(kind, COUNTS[kind] * SLOW_FACTOR, env, lexicon, common_words)


def run(kind: str, n: int, env: Path, lexicon: Lexicon, common_words: list[str]) -> None:
    samples_on_disk = {p: p.read_bytes() for p in GCG_DATA.glob("*.gcg")}
    if kind == "gcg":
        check_spread(fuzz_gcg(n, env, lexicon), n, "GcgError")
    elif kind == "cgp":
        check_spread(fuzz_cgp(n, env, lexicon), n, "CgpError")
    elif kind == "kwg":
        out = fuzz_kwg(n, env, common_words)
        assert sum(out.counts.values()) == n and out.counts["ok"] > 0
        assert out.counts["KwgError"] + out.counts["LexiconError"] > 0, out.counts
    else:
        check_spread(fuzz_klv2(n, env), n, "KlvError")
    assert {p: p.read_bytes() for p in GCG_DATA.glob("*.gcg")} == samples_on_disk
