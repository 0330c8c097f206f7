"""The A/B benchmark's cheap parts: arguments, arithmetic, the worker on this build.

Nothing here builds an older commit; the timings themselves are never run in CI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from benchmarks._ab import build, callgrind, cli, rounds, stats

ROOT = Path(__file__).resolve().parents[1]


def _main_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


def test_unknown_revision_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    err = _main_error(capsys, ["no-such-revision-anywhere"])
    assert "unknown revision 'no-such-revision-anywhere'" in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        ([], "rev"),
        (["HEAD", "--rounds", "3"], "--rounds must be at least 5"),
        (["HEAD", "--what", "lexicon"], "--what takes movegen, engine or both"),
        (["HEAD", "--games", "0"], "at least 1"),
        (["HEAD", "--bogus"], "unrecognized arguments"),
        (["--rounds"], "expected one argument"),
    ],
)
def test_argument_errors(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    assert words in _main_error(capsys, argv)


def test_dispatch_from_python_m_benchmarks() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "ab", "no-such-revision-anywhere"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "python -m benchmarks ab: error: unknown revision 'no-such-revision-anywhere' in "
        f"{build.REPO}"
    ]


def test_what_selects_measures() -> None:
    assert cli.parse(["HEAD", "--what", "engine"]).measures == ["selfplay"]
    assert cli.parse(["HEAD"]).measures == ["best", "all", "unsorted", "selfplay"]
    assert cli.parse(["HEAD", "--what", "both"]).measures == cli.parse(["HEAD"]).measures


def test_resolve_gives_the_full_sha() -> None:
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    assert build.resolve("HEAD", ROOT) == head
    with pytest.raises(build.BuildError, match="not a revision"):
        build.resolve("--all", ROOT)


def test_a_finished_build_is_reused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sha = "a" * 40
    python = tmp_path / sha / "venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.touch()
    (tmp_path / sha / build.MARKER).write_text(sha)
    made = build.build(sha, ROOT, tmp_path)
    assert made == build.Build(sha, python, reused=True)
    assert "reusing the build" in capsys.readouterr().err


def test_summary_medians_and_ratio_range() -> None:
    s = stats.summarize(
        "best", "positions", 600, [2.0, 4.0, 3.0, 9.0, 3.0], [1.0, 1.0, 2.0, 3.0, 1.5]
    )
    assert s.old == 3.0 and s.new == 1.5
    assert s.ratio == 2.0
    assert (s.ratio_min, s.ratio_max) == (1.5, 4.0)


def test_summary_of_a_mode_one_build_lacks() -> None:
    s = stats.summarize("unsorted", "positions", 600, [None] * 5, [1.0] * 5)
    assert (s.old, s.new, s.ratio, s.ratio_min) == (None, 1.0, None, None)
    line = stats.table([s], "old", "new", 5).splitlines()[-1]
    assert line.count("n/a") == 3
    with pytest.raises(ValueError):
        stats.summarize("best", "positions", 1, [1.0], [1.0, 2.0])


def test_unsorted_mode_is_set_against_the_old_ranked_list() -> None:
    """Without an unsorted mode in the old build, the table adds the new unsorted list timed
    against the old ranked one."""

    def side(all_s: float, unsorted: float | None) -> dict:
        timed = {"cpu_s": all_s, "unit": "positions", "items": 600}
        return {"measures": {"all": timed,
                             "unsorted": {**timed, "cpu_s": unsorted} if unsorted else None}}

    results = [{"old": side(2.0, None), "new": side(1.5, 0.5)}] * 5
    extra = cli.summaries(results)[-1]
    assert extra.measure == stats.UNSORTED_VS_RANKED and extra.ratio == 4.0
    same = [{"old": side(2.0, 1.0), "new": side(1.5, 0.5)}] * 5
    assert [s.measure for s in cli.summaries(same)] == ["all", "unsorted"]


def test_table_rates() -> None:
    games = stats.summarize("selfplay", "games", 100, [2.0] * 5, [1.0] * 5)
    moves = stats.summarize("all", "positions", 600, [0.6] * 5, [0.3] * 5)
    text = stats.table([moves, games], "f775061", "HEAD", 5)
    assert "1.0000 ms/pos" in text and "0.5000 ms/pos" in text
    assert "50.0 games/cpu-s" in text and "100.0 games/cpu-s" in text
    assert text.count("2.00x  2.00–2.00x") == 2
    side = stats.side_table([("old", [0.5, 0.1, 0.2], [1024, 4096, 2048])])
    assert "0.200 s" in side and "4.0 MB" in side


def _result(digest: str) -> dict:
    return {"measures": {"best": {"digest": digest}, "unsorted": None}}


def test_mismatches_are_reported() -> None:
    same = [{"old": _result("x"), "new": _result("x")}] * 5
    assert rounds.mismatches(same) == []
    differ = [*same, {"old": _result("x"), "new": _result("y")}]
    (line,) = rounds.mismatches(differ)
    assert line.startswith("MISMATCH in best") and "x (new/old)" in line and "y (new)" in line


def _games(games: list[list[int]]) -> dict:
    selfplay = {"digest": repr(games), "games": games, "turns": sum(g[2] for g in games)}
    return {"measures": {"selfplay": selfplay}}


def test_differing_games_are_named() -> None:
    old = _games([[400, 380, 20], [350, 420, 22], [300, 301, 25]])
    new = _games([[400, 380, 20], [360, 420, 23], [300, 301, 25]])
    assert rounds.identical([{"old": old, "new": old}]) == ["selfplay"]
    assert rounds.identical([{"old": old, "new": new}]) == []
    head, detail = rounds.mismatches([{"old": old, "new": new}])
    assert head.startswith("MISMATCH in selfplay")
    assert detail.strip().startswith("1 of 3 games differ")
    assert "seed+1: [350, 420, 22] vs [360, 420, 23]" in detail
    assert "turns old 67, new 68" in detail


def test_callgrind_count_is_read_from_its_summary() -> None:
    err = "==12== Events    : Ir\n==12== Collected : 123456789\n==12==\n==12== I   refs: 1\n"
    assert callgrind.parse_ir(err) == 123456789
    with pytest.raises(ValueError):
        callgrind.parse_ir("no valgrind here")


def test_callgrind_counts_each_measure_net_of_loading(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """One run loading only, then one per measure; a measure the build lacks is None.
    Self-play is counted against its warm-up game alone (which builds the engine)."""
    totals = {"none": 1_000, "best": 1_250, "all": 1_900, "unsorted": 1_000, "selfplay": 9_000}
    seen = []

    def fake_worker(side: rounds.Side, options: list[str], wrapper: list[str]) -> tuple:
        what = options[options.index("--what") + 1]
        games = int(options[options.index("--games") + 1])
        if what == "selfplay" and games == 0:  # the warm-up game alone: engine built
            seen.append("selfplay warm-up")
            return {"measures": {what: {"cpu_s": 0}}}, "==1== Collected : 3000\n"
        seen.append(what)
        assert wrapper[0] == "valgrind" and "--no-digest" in options
        measures = {} if what == "none" else {what: None if what == "unsorted" else {"cpu_s": 1}}
        return {"measures": measures}, f"==1== Collected : {totals[what]}\n"

    monkeypatch.setattr(callgrind, "run_worker", fake_worker)
    side = rounds.Side("old", Path(sys.executable), tmp_path)
    counts = callgrind.instructions(side, ["best", "all", "unsorted", "selfplay"])
    assert seen == ["none", "best", "all", "unsorted", "selfplay", "selfplay warm-up"]
    assert counts == {"best": 250, "all": 900, "unsorted": None, "selfplay": 6_000}


def test_callgrind_lines_set_new_unsorted_against_old_ranked() -> None:
    irs = {
        "old": {"best": 400, "all": 900, "unsorted": None},
        "new": {"best": 200, "all": 600, "unsorted": 300},
    }
    best, ranked, unsorted = cli.callgrind_lines(irs)
    assert best.startswith("callgrind, best move") and best.endswith("old/new 2.00x")
    assert "old 400 Ir, new 200 Ir" in best
    assert ranked.endswith("old/new 1.50x")
    assert "old 900 Ir (old: its ranked list), new 300 Ir, old/new 3.00x" in unsorted
    assert cli.callgrind_lines({"old": {"best": None}, "new": {"best": 5}}) == [
        f"callgrind, best move of the first {callgrind.POSITIONS} positions: n/a in one build"
    ]


def test_worker_on_this_build(tmp_path: Path) -> None:
    side = rounds.Side("new", Path(sys.executable), tmp_path)
    options = ["--positions", "4", "--passes", "2", "--games", "2", "--seed", "3"]
    result, _ = rounds.run_worker(side, options)
    assert result["positions"] == 4
    assert result["load_s"] > 0 and result["maxrss_kb"] > 0
    measures = result["measures"]
    assert set(measures) == {"best", "all", "unsorted", "selfplay"}
    for name in ("best", "all"):
        m = measures[name]
        assert m["items"] == 8 and m["unit"] == "positions" and m["cpu_s"] >= 0
        assert len(m["digest"]) == 16
    assert measures["best"]["moves"] == 4 and measures["all"]["moves"] > 4
    selfplay = measures["selfplay"]
    assert selfplay["items"] == 2 and len(selfplay["games"]) == 2
    assert selfplay["turns"] == sum(g[2] for g in selfplay["games"]) > 0
    if measures["unsorted"] is None:
        assert result["api"]["unsorted"].startswith("n/a")
    json.dumps(result)
    # under callgrind the digests are skipped: the same moves, no digest
    bare, _ = rounds.run_worker(side, ["--positions", "4", "--what", "all", "--no-digest"])
    assert bare["measures"]["all"]["digest"] is None
    assert bare["measures"]["all"]["moves"] == measures["all"]["moves"]


def test_worker_rejects_an_unknown_measure() -> None:
    done = subprocess.run(
        [*rounds.worker_command(Path(sys.executable), ["--what", "speed"])],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "unknown measure 'speed'" in done.stderr
