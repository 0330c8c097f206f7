"""Tiles: shipped tile sets (RULES.md R1.2, R8.1.2, R8.2.2, R8.4.6, R8.6, R8.7, issue 2
appendix), the text→tiles parser with multi-letter labels and blanks, and racks."""

from __future__ import annotations

import unicodedata
from importlib import resources

import pytest

from tessera.tiles import (
    BLANK,
    BLANK_BIT,
    Alphabet,
    Rack,
    TileError,
    TileSet,
    as_blank,
    available_tilesets,
    face,
    is_blank,
    letter_of,
    tileset,
    tileset_from_toml,
)

AZ = tuple(chr(c) for c in range(ord("A"), ord("Z") + 1))

# name -> (total, blanks, alphabet name, labels in tile-id order)
SHIPPED = {
    "english": (100, 2, "english", AZ),
    "english_super": (200, 4, "english", AZ),
    "hkcc": (107, 4, "english", AZ),
    "wwf": (104, 2, "english", AZ),
    "lexulous": (89, 2, "english", AZ),
    "french": (102, 2, "french", AZ),
    "german": (
        102, 2, "german",
        tuple("A Ä B C D E F G H I J K L M N O Ö P Q R S T U Ü V W X Y Z".split()),
    ),
    "spanish": (
        100, 2, "spanish",
        tuple("A B C CH D E F G H I J L LL M N Ñ O P Q R RR S T U V X Y Z".split()),
    ),
    "polish": (
        100, 2, "polish",
        tuple("A Ą B C Ć D E Ę F G H I J K L Ł M N Ń O Ó P R S Ś T U W Y Z Ź Ż".split()),
    ),
    "dutch": (102, 2, "dutch", AZ),
    "italian": (120, 2, "italian", tuple(c for c in AZ if c not in "JKWXY")),
    "hungarian": (
        100, 2, "hungarian",
        tuple(
            "A Á B C CS D E É F G GY H I Í J K L LY M N NY O Ó Ö Ő P R S SZ T TY U Ú Ü Ű V Z ZS"
            .split()
        ),
    ),
}


def dist(name: str) -> dict[str, tuple[int, int]]:
    """label -> (count, value) of a shipped tile set, plus '?' for the blanks."""
    ts = tileset(name)
    labels = ts.alphabet.labels
    out = {labels[i - 1]: (ts.counts[i], ts.values[i]) for i in range(1, ts.alphabet.size)}
    out["?"] = (ts.counts[BLANK], ts.values[BLANK])
    return out


def by_points(table: dict[int, str], blanks: int) -> dict[str, tuple[int, int]]:
    """A RULES.md points table ({points: "E×12 A×9 …"}) as label -> (count, value)."""
    out = {"?": (blanks, 0)}
    for points, letters in table.items():
        for item in letters.split():
            label, count = item.split("×")
            out[label] = (int(count), points)
    return out


def appendix(spec: str, blanks: int) -> dict[str, tuple[int, int]]:
    """An issue-2 appendix line ("A 6×1, Á 4×1, …") as label -> (count, value)."""
    out = {"?": (blanks, 0)}
    for item in spec.split(","):
        label, cv = item.split()
        count, value = cv.split("×")
        out[label] = (int(count), int(value))
    return out


ENGLISH_R1_2 = by_points(
    {
        1: "E×12 A×9 I×9 O×8 N×6 R×6 T×6 L×4 S×4 U×4",
        2: "D×4 G×3",
        3: "B×2 C×2 M×2 P×2",
        4: "F×2 H×2 V×2 W×2 Y×2",
        5: "K×1",
        8: "J×1 X×1",
        10: "Q×1 Z×1",
    },
    blanks=2,
)


# -- every shipped set ------------------------------------------------------------------


def test_every_expected_tile_set_is_shipped():
    assert set(SHIPPED) <= set(available_tilesets())


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_tile_set_total_blanks_and_alphabet(name):
    """Totals: R1.2 100, R8.1.2 200, R8.2.2 107, R8.4.6 102, R8.6 104, R8.7 89, appendix."""
    total, blanks, alpha, labels = SHIPPED[name]
    ts = tileset(name)
    assert ts.name == name
    assert ts.total == total
    assert len(ts.bag()) == total
    assert ts.blanks == blanks
    assert ts.value(BLANK) == 0
    assert ts.alphabet.name == alpha
    assert ts.alphabet.labels == labels
    assert all(c > 0 for c in ts.counts[1:]), "every letter of the alphabet has a tile"
    assert all(v > 0 for v in ts.values[1:])
    assert str(total) in ts.description
    assert ts.source


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_tile_set_labels_are_nfc(name):
    """Parsing compares code points, so labels must be NFC like the text users type."""
    for label in tileset(name).alphabet.labels:
        assert unicodedata.is_normalized("NFC", label), label


def test_english_alphabets_share_tile_ids():
    """English lexicons index by tile id, so every English-alphabet set numbers A..Z alike."""
    english = tileset("english").alphabet
    for name in ("english_super", "hkcc", "wwf", "lexulous"):
        assert tileset(name).alphabet == english


# -- exact distributions ------------------------------------------------------------------


def test_r1_2_english_full_table():
    assert dist("english") == ENGLISH_R1_2
    ts = tileset("english")
    assert ts.value(ts.alphabet.letter("Q")) == 10 and ts.value(ts.alphabet.letter("Z")) == 10


def test_r8_1_2_super_full_table():
    assert dist("english_super") == by_points(
        {
            1: "E×24 A×16 O×15 T×15 I×13 N×13 R×13 S×10 L×7 U×7",
            2: "D×8 G×5",
            3: "C×6 M×6 B×4 P×4",
            4: "H×5 F×4 W×4 Y×4 V×3",
            5: "K×2",
            8: "J×2 X×2",
            10: "Q×2 Z×2",
        },
        blanks=4,
    )


def test_r8_2_2_hkcc_is_english_plus_jkqxz_and_two_blanks():
    expected = dict(ENGLISH_R1_2)
    for label in "JKQXZ?":
        count, value = expected[label]
        expected[label] = (count + (2 if label == "?" else 1), value)
    assert dist("hkcc") == expected


def test_r8_6_wwf_full_table():
    assert dist("wwf") == by_points(
        {
            1: "A×9 E×13 I×8 O×8 R×6 S×5 T×7",
            2: "D×5 L×4 N×5 U×4",
            3: "G×3 H×4 Y×2",
            4: "B×2 C×2 F×2 M×2 P×2 W×2",
            5: "K×1 V×2",
            8: "X×1",
            10: "J×1 Q×1 Z×1",
        },
        blanks=2,
    )


def test_r8_4_6_french_fisf_full_table():
    counts = "A9 B2 C2 D3 E15 F2 G2 H2 I8 J1 K1 L5 M3 N6 O6 P2 Q1 R6 S6 T6 U6 V2 W1 X1 Y1 Z1"
    values = {"D": 2, "G": 2, "M": 2, "B": 3, "C": 3, "P": 3, "F": 4, "H": 4, "V": 4,
              "J": 8, "Q": 8, "K": 10, "W": 10, "X": 10, "Y": 10, "Z": 10}
    expected = {"?": (2, 0)}
    for item in counts.split():
        expected[item[0]] = (int(item[1:]), values.get(item[0], 1))
    assert dist("french") == expected


# The issue 2 appendix, verbatim (counts×points). Each sums to its stated total (checked above).
APPENDIX = {
    "hungarian": (
        "A 6×1, Á 4×1, B 3×2, C 1×5, CS 1×7, D 3×2, E 6×1, É 3×3, F 2×4, G 3×2, GY 2×4, "
        "H 2×3, I 3×1, Í 1×5, J 2×4, K 6×1, L 4×1, LY 1×8, M 3×1, N 4×1, NY 1×5, O 3×1, "
        "Ó 3×2, Ö 2×4, Ő 1×7, P 2×4, R 4×1, S 3×1, SZ 2×3, T 5×1, TY 1×10, U 2×4, Ú 1×7, "
        "Ü 2×4, Ű 1×7, V 2×3, Z 2×4, ZS 1×8"
    ),
    "spanish": (
        "A 12×1, B 2×3, C 4×3, CH 1×5, D 5×2, E 12×1, F 1×4, G 2×2, H 2×4, I 6×1, J 1×8, "
        "L 4×1, LL 1×8, M 2×3, N 5×1, Ñ 1×8, O 9×1, P 2×3, Q 1×5, R 5×1, RR 1×8, S 6×1, "
        "T 4×1, U 5×1, V 1×4, X 1×8, Y 1×4, Z 1×10"
    ),
    "german": (
        "A 5×1, Ä 1×6, B 2×3, C 2×4, D 4×1, E 15×1, F 2×4, G 3×2, H 4×2, I 6×1, J 1×6, "
        "K 2×4, L 3×2, M 4×3, N 9×1, O 3×2, Ö 1×8, P 1×4, Q 1×10, R 6×1, S 7×1, T 6×1, "
        "U 6×1, Ü 1×6, V 1×6, W 1×3, X 1×8, Y 1×10, Z 1×3"
    ),
    "polish": (
        "A 9×1, Ą 1×5, B 2×3, C 3×2, Ć 1×6, D 3×2, E 7×1, Ę 1×5, F 1×5, G 2×3, H 2×3, "
        "I 8×1, J 2×3, K 3×2, L 3×2, Ł 2×3, M 3×2, N 5×1, Ń 1×7, O 6×1, Ó 1×5, P 3×2, "
        "R 4×1, S 4×1, Ś 1×5, T 3×2, U 2×3, W 4×1, Y 4×2, Z 5×1, Ź 1×9, Ż 1×5"
    ),
    "dutch": (
        "A 6×1, B 2×3, C 2×5, D 5×2, E 18×1, F 2×4, G 3×3, H 2×4, I 4×1, J 2×4, K 3×3, "
        "L 3×3, M 3×3, N 10×1, O 6×1, P 2×3, Q 1×10, R 5×2, S 5×2, T 5×2, U 3×4, V 2×4, "
        "W 2×5, X 1×8, Y 1×8, Z 2×4"
    ),
    "italian": (
        "A 14×1, B 3×5, C 6×2, D 3×5, E 11×1, F 3×5, G 2×8, H 2×8, I 12×1, L 5×3, M 5×3, "
        "N 5×3, O 15×1, P 3×5, Q 1×10, R 6×2, S 6×2, T 6×2, U 5×3, V 3×5, Z 2×8"
    ),
    "lexulous": (
        "A 8×1, B 2×4, C 2×4, D 3×2, E 11×1, F 2×5, G 2×2, H 2×5, I 8×1, J 1×8, K 1×6, "
        "L 3×1, M 2×4, N 5×1, O 7×1, P 2×4, Q 1×12, R 5×1, S 3×1, T 5×2, U 3×1, V 2×5, "
        "W 2×5, X 1×8, Y 3×5, Z 1×12"
    ),
}


@pytest.mark.parametrize("name", sorted(APPENDIX))
def test_appendix_full_table(name):
    """Issue 2 appendix (R8.7 for Lexulous): every count and value exactly as listed."""
    assert dist(name) == appendix(APPENDIX[name], blanks=2)


@pytest.mark.parametrize(
    ("name", "label", "count", "value"),
    [
        ("hungarian", "TY", 1, 10),
        ("hungarian", "SZ", 2, 3),
        ("spanish", "Ñ", 1, 8),
        ("spanish", "RR", 1, 8),
        ("german", "E", 15, 1),
        ("polish", "Ź", 1, 9),
        ("italian", "O", 15, 1),
        ("lexulous", "Q", 1, 12),
        ("english_super", "E", 24, 1),
        ("hkcc", "Z", 2, 10),
    ],
)
def test_spot_counts_and_values(name, label, count, value):
    ts = tileset(name)
    tile = ts.alphabet.letter(label)
    assert (ts.counts[tile], ts.value(tile)) == (count, value)
    assert ts.value(as_blank(tile)) == 0, "a designated blank scores 0"


def test_hungarian_has_no_dz_dzs_q_w_x_y_tiles():
    alpha = tileset("hungarian").alphabet
    for label in ("DZ", "DZS", "Q", "W", "X", "Y"):
        with pytest.raises(TileError):
            alpha.letter(label)


def test_bag_is_in_tile_id_order():
    ts = tileset("english")
    bag = ts.bag()
    assert bag == sorted(bag)
    assert bag[:2] == [BLANK, BLANK]
    assert bag.count(ts.alphabet.letter("E")) == 12


def test_unknown_tileset_names_the_shipped_ones():
    with pytest.raises(TileError, match=r"no tile set named 'klingon'.*english"):
        tileset("klingon")


def test_shipped_toml_round_trips_through_the_reader():
    text = (resources.files("tessera") / "data" / "tilesets" / "spanish.toml").read_text("utf-8")
    assert tileset_from_toml(text, origin="spanish.toml") == tileset("spanish")


# -- tile-set reader errors ------------------------------------------------------------------


def test_toml_errors():
    with pytest.raises(TileError, match=r"x\.toml: not valid TOML"):
        tileset_from_toml("name = ", origin="x.toml")
    with pytest.raises(TileError, match="missing or bad field"):
        tileset_from_toml('name = "x"')
    with pytest.raises(TileError, match=r"must be \[label, count, value\]"):
        tileset_from_toml('name = "x"\ntiles = [["A", 1]]')
    with pytest.raises(TileError, match="appears twice"):
        tileset_from_toml('name = "x"\ntiles = [["A", 1, 1], ["A", 1, 1]]')
    with pytest.raises(TileError, match="must be upper case"):
        tileset_from_toml('name = "x"\ntiles = [["a", 1, 1]]')
    with pytest.raises(TileError, match="negative count"):
        tileset_from_toml('name = "x"\ntiles = [["A", -1, 1]]')


def test_tileset_needs_one_count_per_tile_id():
    alpha = Alphabet("ab", ("A", "B"))
    with pytest.raises(TileError, match="need 3 entries"):
        TileSet("ab", alpha, counts=(0, 1), values=(0, 1))


def test_alphabet_needs_letters():
    with pytest.raises(TileError, match="no letters"):
        Alphabet("empty", ())


# -- tile ids --------------------------------------------------------------------------------


def test_blank_bit_helpers():
    assert BLANK == 0 and BLANK_BIT == 0x80
    assert as_blank(3) == 0x83
    assert is_blank(BLANK) and is_blank(0x83) and not is_blank(3)
    assert letter_of(0x83) == 3 and letter_of(3) == 3
    assert face(0x83) == BLANK and face(3) == 3


def test_labels_and_format():
    alpha = tileset("spanish").alphabet
    ch = alpha.letter("CH")
    assert alpha.label(ch) == "CH"
    assert alpha.label(as_blank(ch)) == "ch"
    assert alpha.label(BLANK) == "?"
    assert alpha.format([ch, as_blank(alpha.letter("Ñ")), BLANK]) == "CHñ?"
    with pytest.raises(TileError, match="outside the spanish alphabet"):
        alpha.label(len(alpha) + 1)


# -- parsing: longest label first, every spelling ------------------------------------------


def ids(alpha: Alphabet, labels: str) -> tuple[int, ...]:
    """Tile ids of space-separated labels; a lower-case label is a designated blank."""
    return tuple(
        BLANK if s == "?" else as_blank(alpha.letter(s.upper())) if s.islower() else alpha.letter(s)
        for s in labels.split()
    )


def test_hungarian_csosz_parses_longest_label_first():
    alpha = tileset("hungarian").alphabet
    assert tuple(alpha.parse("CSŐSZ")) == ids(alpha, "CS Ő SZ")


def test_hungarian_csosz_has_exactly_four_spellings():
    alpha = tileset("hungarian").alphabet
    spellings = alpha.spellings("CSŐSZ")
    assert set(spellings) == {
        ids(alpha, "CS Ő SZ"),
        ids(alpha, "CS Ő S Z"),
        ids(alpha, "C S Ő SZ"),
        ids(alpha, "C S Ő S Z"),
    }
    assert len(spellings) == 4
    assert spellings[0] == tuple(alpha.parse("CSŐSZ"))


def test_hungarian_gy_has_one_spelling_because_there_is_no_y_tile():
    alpha = tileset("hungarian").alphabet
    assert alpha.spellings("GYŐ") == [ids(alpha, "GY Ő")]


def test_spanish_churro_parses_and_spells():
    alpha = tileset("spanish").alphabet
    assert tuple(alpha.parse("CHURRO")) == ids(alpha, "CH U RR O")
    assert alpha.spellings("CHURRO") == [
        ids(alpha, "CH U RR O"),
        ids(alpha, "CH U R R O"),
        ids(alpha, "C H U RR O"),
        ids(alpha, "C H U R R O"),
    ]


def test_spanish_llama_and_enye():
    alpha = tileset("spanish").alphabet
    assert tuple(alpha.parse("LLAMA")) == ids(alpha, "LL A M A")
    assert tuple(alpha.parse("AÑO")) == ids(alpha, "A Ñ O")


def test_lower_case_is_a_designated_blank():
    alpha = tileset("spanish").alphabet
    assert tuple(alpha.parse("ch")) == ids(alpha, "ch")
    assert alpha.parse("ch") == [as_blank(alpha.letter("CH"))]
    assert tuple(alpha.parse("chURRo")) == ids(alpha, "ch U RR o")
    # a label is matched in one case only: "cH" is a blank C then a real H
    assert tuple(alpha.parse("cH")) == ids(alpha, "c H")
    hungarian = tileset("hungarian").alphabet
    assert tuple(hungarian.parse("csősz")) == ids(hungarian, "cs ő sz")


def test_question_mark_is_an_undesignated_blank():
    alpha = tileset("english").alphabet
    assert alpha.parse("A?Z") == [alpha.letter("A"), BLANK, alpha.letter("Z")]
    assert alpha.spellings("??") == [(BLANK, BLANK)]
    with pytest.raises(TileError, match=r"undesignated blank '\?' is not allowed"):
        alpha.parse("A?Z", allow_blank=False)


def test_parse_errors_name_the_character_and_its_position():
    english = tileset("english").alphabet
    with pytest.raises(TileError, match=r"'QU1T': '1' at position 3 is not a tile of the english"):
        english.parse("QU1T")
    with pytest.raises(TileError, match="'Ñ' at position 2"):
        english.parse("AÑO")
    hungarian = tileset("hungarian").alphabet
    with pytest.raises(TileError, match="'Y' at position 1 is not a tile of the hungarian"):
        hungarian.parse("YOGA")
    italian = tileset("italian").alphabet
    with pytest.raises(TileError, match="'K' at position 1"):
        italian.spellings("KIWI")


def test_parse_empty_text():
    alpha = tileset("english").alphabet
    assert alpha.parse("") == []
    assert alpha.spellings("") == [()]


def test_tileset_parse_and_format_delegate_to_the_alphabet():
    ts = tileset("hungarian")
    tiles = ts.parse("GYőR")
    assert ts.format(tiles) == "GYőR"
    assert ts.label(tiles[0]) == "GY"


# -- racks -------------------------------------------------------------------------------------


def english_rack(text: str) -> Rack:
    return Rack.from_text(tileset("english").alphabet, text)


def test_rack_from_text_counts_tiles_and_shows_blanks_last():
    alpha = tileset("english").alphabet
    rack = english_rack("?RETAIN")
    assert len(rack) == 7
    assert rack.counts[BLANK] == 1
    assert alpha.format(rack.tiles()) == "AEINRT?"
    assert alpha.format(rack) == "AEINRT?"


def test_rack_designated_blank_goes_back_as_a_blank():
    alpha = tileset("english").alphabet
    rack = english_rack("AB")
    rack.add(as_blank(alpha.letter("Q")))
    assert rack.counts[BLANK] == 1 and rack.counts[alpha.letter("Q")] == 0
    rack.remove(as_blank(alpha.letter("Z")))  # any designated blank comes off the blank
    assert rack == english_rack("AB")


def test_rack_remove_missing_tile_raises_and_keeps_the_rack():
    alpha = tileset("english").alphabet
    rack = english_rack("AB")
    with pytest.raises(TileError, match="not on the rack"):
        rack.remove(alpha.letter("C"))
    with pytest.raises(TileError):
        rack.remove(BLANK)
    assert rack == english_rack("AB")


def test_rack_has_and_missing():
    alpha = tileset("english").alphabet
    rack = english_rack("AAB?")
    assert rack.has(alpha.parse("ABA"))
    assert rack.has(alpha.parse("ABq"))  # the blank supplies the q
    assert not rack.has(alpha.parse("AAA"))
    assert not rack.has(alpha.parse("ABqz"))
    assert rack.missing(alpha.parse("AAACz")) == [alpha.letter("A"), alpha.letter("C")]
    assert rack.missing(alpha.parse("AAB")) == []
    assert rack.missing(alpha.parse("ABzy")) == [BLANK]


def test_rack_copy_is_independent_and_equality_hashes():
    alpha = tileset("english").alphabet
    rack = english_rack("QI")
    other = rack.copy()
    other.remove(alpha.letter("Q"))
    assert rack == english_rack("IQ")
    assert other == english_rack("I")
    assert rack != other
    assert hash(rack) == hash(english_rack("IQ"))
    assert len({rack, english_rack("IQ"), other}) == 2
    assert rack != "IQ"
    assert repr(english_rack("B")) == "Rack('B')"  # a rack read from text knows its letters
    assert repr(Rack(alpha.size, [alpha.letter("B")])) == f"Rack([{alpha.letter('B')}])"


def test_rack_with_multi_letter_tiles():
    alpha = tileset("hungarian").alphabet
    rack = Rack.from_text(alpha, "CSSZ?")
    assert len(rack) == 3
    assert alpha.format(rack) == "CSSZ?"
