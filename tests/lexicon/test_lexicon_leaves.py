"""KLV2 leave values: byte layout, exact round trips, lookups, and malformed files."""

from __future__ import annotations

import random
import struct
from array import array
from pathlib import Path

import pytest

from tessera.lexicon import KlvError, Kwg, Leaves
from tessera.lexicon.kwg import ACCEPTS_BIT, END_BIT
from tessera.tiles import BLANK, as_blank


def f32(x: float) -> float:
    return array("f", [x])[0]


def random_table(seed: int, n: int = 400) -> dict[tuple[int, ...], float]:
    rng = random.Random(seed)
    table: dict[tuple[int, ...], float] = {}
    while len(table) < n:
        leave = tuple(sorted(rng.randint(0, 26) for _ in range(rng.randint(1, 6))))
        table[leave] = f32(rng.uniform(-30, 40))
    return table


def test_hand_built_klv2_file(tmp_path: Path) -> None:
    # Leaves "?" (blank), "?E" and "E": DAWG root [0* -> [5*]], [5*] shared.
    nodes = [
        END_BIT | 3,  # DAWG root pointer
        END_BIT,  # no GADDAG
        (5 << 24) | ACCEPTS_BIT | END_BIT,  # [E*]
        (0 << 24) | ACCEPTS_BIT | 2,  # ? -> [E*]
        (5 << 24) | ACCEPTS_BIT | END_BIT,  # E
    ]
    values = [25.5, 27.25, 1.5]  # word order: ?, ?E, E
    data = struct.pack(f"<I{len(nodes)}II{len(values)}f", len(nodes), *nodes, len(values), *values)
    path = tmp_path / "hand.klv2"
    path.write_bytes(data)
    leaves = Leaves.load(path)
    assert leaves.value([BLANK]) == 25.5
    assert leaves.value([5, BLANK]) == 27.25  # any order; the blank sorts first
    assert leaves.value([5, as_blank(9)]) == 27.25  # a designated blank is a blank on a rack
    assert leaves.value([5]) == 1.5
    assert leaves.value([]) == 0.0 and leaves.table_value([5, 5]) == 0.0
    assert leaves.value([5, 5]) == 3.0  # unlisted: E + E, from its sub-leaves
    assert leaves.items() == [((0,), 25.5), ((0, 5), 27.25), ((5,), 1.5)]
    assert leaves.to_bytes() == data


@pytest.mark.parametrize("seed", range(3))
def test_klv2_round_trips_exactly(tmp_path: Path, seed: int) -> None:
    table = random_table(seed)
    leaves = Leaves.from_mapping(table)
    path = tmp_path / "x.klv2"
    leaves.save(path)
    again = Leaves.load(path)
    assert again.to_bytes() == path.read_bytes() == leaves.to_bytes()
    assert dict(again.items()) == table
    rng = random.Random(seed)
    for leave, value in table.items():
        shuffled = list(leave)
        rng.shuffle(shuffled)
        assert again.value(shuffled) == value
        assert again.index(leave) >= 0
    assert [again.index(k) for k in sorted(table, key=bytes)] == list(range(len(table)))


def test_unlisted_leave_is_valued_from_its_sub_leaves() -> None:
    """As training values a leave it never saw: the mean over its tiles x of value(leave - x)
    + value(x); an unlisted single tile is worth 0."""
    leaves = Leaves.from_mapping({(1,): 2.0, (1, 2): 3.0})
    assert leaves.value([2]) == 0.0 and leaves.index([2]) == -1
    assert leaves.value([2, 3]) == 0.0
    assert leaves.value([1, 3]) == 2.0  # without 1: 0 + 2; without 3: 2 + 0
    # without 1: [2,3] + 1 = 0 + 2; without 2: [1,3] + 2 = 2 + 0; without 3: [1,2] + 3 = 3 + 0
    assert leaves.value([3, 1, 2]) == pytest.approx(7 / 3)
    assert leaves.table_value([1, 2, 3]) == 0.0 and leaves.table_value([1, 2]) == 3.0


def test_conflicting_or_empty_leaves_are_rejected() -> None:
    with pytest.raises(KlvError, match="two different values"):
        Leaves.from_mapping({(1, 2): 1.0, (2, 1): 2.0})
    with pytest.raises(KlvError, match="empty leave"):
        Leaves.from_mapping({(): 1.0})


def test_malformed_klv2_files_are_named(tmp_path: Path) -> None:
    good = Leaves.from_mapping({(1,): 1.0, (2,): 2.0}).to_bytes()
    cases = {
        "short.klv2": (b"\x01\x00", "too short"),
        "nodes.klv2": (struct.pack("<I", 1000) + good[4:], "says it has 1000 nodes"),
        "extra.klv2": (good + b"\x00\x00\x00\x00", "expected"),
        "count.klv2": (good[:-12] + struct.pack("<If", 1, 1.0), "1 values for 2 leaves"),
    }
    for name, (data, message) in cases.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(KlvError, match=message) as info:
            Leaves.load(tmp_path / name)
        assert name in str(info.value)
    n = struct.unpack_from("<I", good)[0]
    bad_graph = bytearray(good)
    struct.pack_into("<I", bad_graph, 4, END_BIT | 99)  # DAWG root past the end
    (tmp_path / "graph.klv2").write_bytes(bytes(bad_graph))
    with pytest.raises(KlvError, match="word graph is not valid"):
        Leaves.load(tmp_path / "graph.klv2")
    assert n == len(Kwg(good[4 : 4 + 4 * n]))
    with pytest.raises(KlvError, match="cannot read"):
        Leaves.load(tmp_path / "missing.klv2")
