#!/usr/bin/env python3
"""Plays won Syzygy endings (KQvKR, KBNvK, KRvKP by default) from random positions out as
Ironwood, with SyzygyPath set to tests/data/syzygy, against Stockfish without tables, and
counts the games Ironwood mates before the 50-move rule or a threefold repetition could be
claimed. The positions are drawn from the tables: the side to move holds the extra material
and python-chess's WDL says it wins within the 50-move rule.

    tests/clients/syzygy_convert.py [--games 6] [--movetime 0.1] [--seed 59]

Needs python-chess 1.11, target/release/ironwood and /usr/games/stockfish. Prints one line
per game and a summary; not part of the test suite (it plays real games for minutes).
"""

import argparse
import os
import random

import chess
import chess.engine
import chess.syzygy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLES = os.path.join(ROOT, "tests", "data", "syzygy")
IRONWOOD = os.path.join(ROOT, "target", "release", "ironwood")


def won_position(rng, tb, white, black):
    """A legal position, White to move, that White wins within the 50-move rule."""
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), len(white) + len(black))
        for i, (letter, sq) in enumerate(zip(white + black, squares)):
            color = chess.WHITE if i < len(white) else chess.BLACK
            board.set_piece_at(sq, chess.Piece(chess.PIECE_SYMBOLS.index(letter.lower()), color))
        board.turn = chess.WHITE
        if board.is_valid() and not board.is_check() and tb.probe_wdl(board) == 2:
            return board


def play(board, ironwood, stockfish, movetime):
    """Plays the game out; returns (result text, plies, longest halfmove clock)."""
    longest = 0
    for _ in range(400):
        if board.is_checkmate():
            return "mate", board.ply(), longest
        if board.is_stalemate() or board.is_insufficient_material():
            return "draw", board.ply(), longest
        if board.halfmove_clock >= 100:
            return "50-move", board.ply(), longest
        if board.is_repetition(3):
            return "repetition", board.ply(), longest
        engine = ironwood if board.turn == chess.WHITE else stockfish
        move = engine.play(board, chess.engine.Limit(time=movetime)).move
        board.push(move)
        longest = max(longest, board.halfmove_clock)
    return "too long", board.ply(), longest


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per ending")
    parser.add_argument("--movetime", type=float, default=0.1, help="seconds a move, both engines")
    parser.add_argument("--seed", type=int, default=59)
    parser.add_argument("--endings", nargs="+", default=["KQvKR", "KBNvK", "KRvKP"])
    args = parser.parse_args()
    rng = random.Random(args.seed)
    converted = total = 0
    with chess.syzygy.open_tablebase(TABLES) as tb, \
            chess.engine.SimpleEngine.popen_uci(IRONWOOD) as ironwood, \
            chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish") as stockfish:
        ironwood.configure({"SyzygyPath": TABLES})
        for ending in args.endings:
            white, black = ending.split("v")
            for _ in range(args.games):
                board = won_position(rng, tb, white, black)
                start = board.fen()
                dtz = tb.probe_dtz(board)
                result, plies, longest = play(board, ironwood, stockfish, args.movetime)
                total += 1
                converted += result == "mate"
                print(f"{ending} {start} dtz {dtz}: {result} after {plies} plies, "
                      f"longest halfmove clock {longest}", flush=True)
    print(f"converted {converted} of {total} won endings (movetime {args.movetime} s)")


if __name__ == "__main__":
    main()
