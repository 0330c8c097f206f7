"""Seeded mutation of valid files, for the fuzz suite: byte-level edits for binary formats
(KWG, KLV2) and token/line-level edits for text formats (GCG, CGP), biased towards the values
that break readers (huge and negative numbers, separators, truncation, repetition)."""

from __future__ import annotations

import random
import re
import struct

INTERESTING_U32 = (
    0, 1, 2, 3, 0x3FFFFF, 0x400000, 0x400001, 0x7FFFFF, 0x800000, 0xC00000, 0xFFFFFF,
    0x1000000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
)
INTERESTING_TOKENS = (
    "", "0", "-0", "+0", "-1", "+1", "-", "--", "+", "(", ")", "()", "(time)", "(challenge)",
    "#", ">", ":", ";", "/", "?", ".", "[", "]", "[CH]", "8D", "D8", "15O", "A1", "0A", "99Z",
    "9" * 19, "9" * 400, "-" + "9" * 30, "+" + "9" * 12, "1e309", "NaN", "\x00", "\x7f",
    "é", "ÿ", "\u202e", "Ω", "ZZZZZZZZZZZZZZZZ", "?" * 9, "." * 16, "A" * 300,
    "#note", "#player1", "#rack1", "#incomplete", "#tile-set tessera-end resigned x",
    "tr naspa {\"rack_size\":99};", "lex NSF23;", "ld klingon;", "bdn SuperCrosswordGame;",
    "[" * 200, "{" * 50,
)


def mutate_bytes(data: bytes, rng: random.Random, rounds: int | None = None) -> bytes:
    """1-4 random edits of ``data``: bit flips, byte and word overwrites, insertions,
    deletions, duplications, truncation."""
    out = bytearray(data)
    for _ in range(rounds or rng.randint(1, 4)):
        op = rng.randrange(9)
        n = len(out)
        if op == 0 and n:
            i = rng.randrange(n)
            out[i] ^= 1 << rng.randrange(8)
        elif op == 1 and n:
            out[rng.randrange(n)] = rng.randrange(256)
        elif op == 2 and n >= 4:
            i = rng.randrange(n // 4) * 4
            out[i : i + 4] = struct.pack("<I", rng.choice(INTERESTING_U32))
        elif op == 3 and n >= 4:  # a plausible node: random tile, flags, arc
            i = rng.randrange(n // 4) * 4
            word = rng.randrange(32) << 24 | rng.randrange(4) << 22 | rng.randrange(max(1, n // 4))
            out[i : i + 4] = struct.pack("<I", word)
        elif op == 4:
            i = rng.randrange(n + 1)
            out[i:i] = bytes(rng.randrange(256) for _ in range(rng.choice((1, 3, 4, 8))))
        elif op == 5 and n:
            i = rng.randrange(n)
            del out[i : i + rng.choice((1, 2, 4, 8, 64))]
        elif op == 6 and n:
            i = rng.randrange(n)
            out[i:i] = out[i : i + rng.choice((4, 8, 64, 256))]
        elif op == 7 and n:
            del out[rng.randrange(n) :]
        elif op == 8 and n >= 8:  # swap two nodes
            a, b = rng.randrange(n // 4) * 4, rng.randrange(n // 4) * 4
            out[a : a + 4], out[b : b + 4] = out[b : b + 4], out[a : a + 4]
    return bytes(out)


def mutate_text(text: str, rng: random.Random, rounds: int | None = None) -> str:
    """1-4 random edits of ``text``: tokens replaced or changed, lines deleted, duplicated,
    swapped, repeated, truncated, characters inserted."""
    lines = text.split("\n")
    for _ in range(rounds or rng.randint(1, 4)):
        op = rng.randrange(9)
        k = rng.randrange(len(lines)) if lines else 0
        if op <= 2 and lines:  # a token: replaced, its digits changed, or doubled
            tokens = lines[k].split(" ")
            t = rng.randrange(len(tokens))
            if op == 0:
                tokens[t] = rng.choice(INTERESTING_TOKENS)
            elif op == 1:
                tokens[t] = "".join(
                    str(rng.randrange(10)) if ch.isdigit() and rng.random() < 0.5 else ch
                    for ch in tokens[t]
                ) + rng.choice(("", "0", "9", "00000"))
            else:
                tokens[t] = tokens[t] * rng.choice((2, 3, 50))
            lines[k] = " ".join(tokens)
        elif op == 3 and lines:
            del lines[k]
        elif op == 4 and lines:
            lines.insert(k, lines[rng.randrange(len(lines))])
        elif op == 5 and len(lines) > 1:
            j = rng.randrange(len(lines))
            lines[k], lines[j] = lines[j], lines[k]
        elif op == 6 and lines:
            i = rng.randrange(len(lines[k]) + 1)
            lines[k] = lines[k][:i] + rng.choice(INTERESTING_TOKENS) + lines[k][i:]
        elif op == 7 and lines:
            lines[k] = lines[k][: rng.randrange(len(lines[k]) + 1)]
        elif op == 8 and lines:
            lines[k:k] = [lines[k]] * rng.choice((2, 10, 300))
    return "\n".join(lines)


def mutate_cgp(text: str, rng: random.Random, rounds: int | None = None) -> str:
    """1-4 random edits of a one-line CGP, at the level of its pieces (board rows, racks,
    scores, opcodes — split at spaces, '/' and ';')."""
    pieces = [p for p in re.split(r"( |/|;)", text) if p != ""]
    for _ in range(rounds or rng.randint(1, 4)):
        op = rng.randrange(7)
        k = rng.randrange(len(pieces)) if pieces else 0
        if not pieces:
            pieces = [rng.choice(INTERESTING_TOKENS)]
        elif op == 0:
            pieces[k] = rng.choice(INTERESTING_TOKENS)
        elif op == 1:
            pieces[k] = "".join(
                str(rng.randrange(10)) if ch.isdigit() and rng.random() < 0.5 else ch
                for ch in pieces[k]
            ) + rng.choice(("", "0", "9", "99999"))
        elif op == 2:
            pieces[k] = pieces[k] * rng.choice((2, 3, 40))
        elif op == 3:
            del pieces[k]
        elif op == 4:
            pieces.insert(k, pieces[rng.randrange(len(pieces))])
        elif op == 5:
            pieces.insert(k, rng.choice((" ", "/", ";", "[", "]")))
        else:
            i = rng.randrange(len(pieces[k]) + 1)
            pieces[k] = pieces[k][:i] + rng.choice("AZaz?.[]0189-+é\x00") + pieces[k][i:]
    return "".join(pieces)
