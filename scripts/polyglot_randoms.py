#!/usr/bin/env python3
"""Writes src/engine/book/randoms.rs, the 781 Random64 numbers of the Polyglot book format.

Source: python-chess 1.11.2, chess/polyglot.py, POLYGLOT_RANDOM_ARRAY (the table of Fabien
Letouzey's Polyglot, as the format's description by H. G. Muller lists it). Run from the
repository root:  python3 scripts/polyglot_randoms.py
"""

import chess
import chess.polyglot

ARRAY = chess.polyglot.POLYGLOT_RANDOM_ARRAY
assert len(ARRAY) == 781, len(ARRAY)

lines = [
    "//! The 781 Random64 numbers of the Polyglot book format: 768 for a piece on a square,",
    "//! 4 for the castling rights, 8 for the en-passant file, 1 for White to move. Written by",
    "//! `scripts/polyglot_randoms.py` from python-chess " + chess.__version__ + ",",
    "//! chess/polyglot.py, POLYGLOT_RANDOM_ARRAY.",
    "",
    "pub(super) const RANDOM64: [u64; 781] = [",
]
for i in range(0, len(ARRAY), 4):
    lines.append("    " + " ".join(f"0x{v:016X}," for v in ARRAY[i : i + 4]))
lines.append("];")
with open("src/engine/book/randoms.rs", "w") as out:
    out.write("\n".join(lines) + "\n")
