#!/usr/bin/env python3
"""Writes tests/data/syzygy_probes.txt: random legal positions drawn from each table in
tests/data/syzygy/ (both colours holding the material), each with python-chess's WDL
(`probe_wdl`, as after a capture or pawn move) and DTZ (`probe_dtz`) on the same files.
The Rust test `tablebase::tests::probes_agree_with_python_chess` compares Ironwood's.

    tests/clients/syzygy_fixture.py [--per-side 100] [--seed 59]

Needs python-chess 1.11. The output is deterministic for a seed.
"""

import argparse
import os
import random

import chess
import chess.syzygy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLES = os.path.join(ROOT, "tests", "data", "syzygy")
OUT = os.path.join(ROOT, "tests", "data", "syzygy_probes.txt")


def random_position(rng, white, black, turn):
    """A legal position with these pieces (letters, kings included) or None."""
    board = chess.Board(None)
    squares = rng.sample(range(64), len(white) + len(black))
    for i, (letter, sq) in enumerate(zip(white + black, squares)):
        color = chess.WHITE if i < len(white) else chess.BLACK
        board.set_piece_at(sq, chess.Piece(chess.PIECE_SYMBOLS.index(letter.lower()), color))
    board.turn = turn
    board.halfmove_clock = 0
    return board if board.is_valid() else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-side", type=int, default=100, help="positions per table and colour")
    parser.add_argument("--seed", type=int, default=59)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    names = sorted({f.rsplit(".", 1)[0] for f in os.listdir(TABLES) if f.endswith(".rtbw")})
    lines = []
    with chess.syzygy.open_tablebase(TABLES) as tb:
        for name in names:
            strong, weak = name.split("v")
            for holder in (chess.WHITE, chess.BLACK):
                white, black = (strong, weak) if holder == chess.WHITE else (weak, strong)
                made = 0
                while made < args.per_side:
                    board = random_position(rng, white, black, rng.choice([chess.WHITE, chess.BLACK]))
                    if board is None:
                        continue
                    wdl = tb.probe_wdl(board)
                    dtz = tb.probe_dtz(board)
                    lines.append(f"{board.fen()};{wdl};{dtz}")
                    made += 1
    with open(OUT, "w") as out:
        out.write(f"# FEN;wdl;dtz by python-chess {chess.__version__} on tests/data/syzygy, "
                  f"tests/clients/syzygy_fixture.py --per-side {args.per_side} --seed {args.seed}\n")
        out.write("\n".join(lines) + "\n")
    print(f"{len(lines)} positions from {len(names)} tables -> {OUT}")


if __name__ == "__main__":
    main()
