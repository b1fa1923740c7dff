#!/usr/bin/env python3
"""Lists a whole Polyglot book's positions with python-chess's moves, for Ironwood's reader
to compare (the ignored unit test `moves_and_weights_equal_python_chess_in_any_book`).

Walks the book from the start position through every move it gives (breadth first, to
MAX_PLY plies), and for each position writes `FEN;move:weight ...` as python-chess's
open_reader(book).find_all(board, minimum_weight=0) lists them; then runs the test:

    python3 tests/clients/polyglot_book_check.py /usr/share/games/gnuchess/book.bin
"""

import collections
import os
import subprocess
import sys

import chess
import chess.polyglot

MAX_PLY = 40


def main():
    book = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else "/tmp/polyglot_book_check.txt"
    lines, seen, keys_reached = [], set(), set()
    queue = collections.deque([(chess.Board(), 0)])
    with chess.polyglot.open_reader(book) as reader:
        entries = len(reader)
        all_keys = set(e.key for e in reader)
        while queue:
            board, ply = queue.popleft()
            fen = board.fen(en_passant="fen")
            if fen in seen:
                continue
            seen.add(fen)
            found = list(reader.find_all(board, minimum_weight=0))
            raw = sum(1 for e in reader.find_all(chess.polyglot.zobrist_hash(board), minimum_weight=0))
            if raw != len(found):
                print(f"{fen}: {raw - len(found)} entries python-chess skips as illegal")
            keys_reached.add(chess.polyglot.zobrist_hash(board))
            lines.append(f"{fen};" + " ".join(f"{e.move.uci()}:{e.weight}" for e in found))
            if ply < MAX_PLY:
                for e in found:
                    child = board.copy()
                    child.push(e.move)
                    queue.append((child, ply + 1))
    with open(out_path, "w") as out:
        out.write("\n".join(lines) + "\n")
    in_book = sum(1 for l in lines if not l.endswith(";"))
    print(f"{book}: {entries} entries, {len(all_keys)} keys; walked {len(lines)} positions "
          f"({in_book} in the book, {len(keys_reached & all_keys)} of its keys reached)")
    env = dict(os.environ, IRONWOOD_BOOK_CHECK=f"{book},{out_path}")
    subprocess.run(["nice", "-n", "10", "cargo", "test", "--release", "--lib",
                    "any_book", "--", "--ignored", "--nocapture"], env=env, check=True)


if __name__ == "__main__":
    main()
