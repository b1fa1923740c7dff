#!/usr/bin/env python3
"""Counts Chess960 perft for each FEN twice, with python-chess (chess960=True, a plain
recursive perft) and with Stockfish (UCI_Chess960, `go perft N`), and prints a perft-suite
line (`FEN ;D1 n ;D2 n ...`) only where both agree; any disagreement is reported on stderr
and makes the exit status 1. Builds tests/data/perft960.epd:

    python3 tests/clients/perft960_verify.py --depth 4 < fens.txt > tests/data/perft960.epd

Input: one FEN per line, optionally followed by `;depth` to override --depth for that line.
Lines starting with `#` are copied through as comments.
"""

import argparse
import subprocess
import sys

import chess


def python_chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in list(board.legal_moves):
        board.push(move)
        nodes += python_chess_perft(board, depth - 1)
        board.pop()
    return nodes


class Stockfish:
    def __init__(self, path: str):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name UCI_Chess960 value true")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix: str) -> str:
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("stockfish exited")
            if line.startswith(prefix):
                return line.strip()

    def perft(self, fen: str, depth: int) -> int:
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        line = self.wait_for("Nodes searched")
        return int(line.split(":")[1])

    def close(self) -> None:
        self.send("quit")
        self.proc.wait()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    args = parser.parse_args()
    stockfish = Stockfish(args.stockfish)
    failed = False
    for raw in sys.stdin:
        raw = raw.strip()
        if not raw:
            continue
        if raw.startswith("#"):
            print(raw, flush=True)
            continue
        fen, _, depth_text = raw.partition(";")
        fen = fen.strip()
        depth = int(depth_text) if depth_text.strip() else args.depth
        board = chess.Board(fen, chess960=True)
        if not board.is_valid():
            print(f"invalid position: {fen}: {board.status()!r}", file=sys.stderr)
            failed = True
            continue
        counts = []
        for d in range(1, depth + 1):
            ours = python_chess_perft(board, d)
            theirs = stockfish.perft(fen, d)
            if ours != theirs:
                print(
                    f"DISAGREE {fen} depth {d}: python-chess {ours}, stockfish {theirs}",
                    file=sys.stderr,
                )
                failed = True
                break
            counts.append(f"D{d} {ours}")
        if len(counts) == depth:
            print(f"{fen} ;" + " ;".join(counts), flush=True)
    stockfish.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
