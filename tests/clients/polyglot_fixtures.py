#!/usr/bin/env python3
"""Makes the Polyglot test data from real games, with python-chess as the reference.

The games are the engine's own self-play games in corpus/ (its format: the header of
src/tools/corpus/format.rs), replayed with python-chess. Run from the repository root with
python-chess 1.11 and Debian's `polyglot` (/usr/games/polyglot) installed:

    python3 tests/clients/polyglot_fixtures.py

It writes
  tests/data/polyglot_keys.txt        FEN;standard|chess960;key (hex), key by
                                      chess.polyglot.zobrist_hash, for positions of the games
  tests/data/polyglot_games.pgn       the normal-chess games the small book is made from
  tests/data/polyglot_book.bin        `polyglot make-book` from that PGN (first 16 plies)
  tests/data/polyglot_book_moves.txt  FEN;move:weight ... by python-chess's
                                      open_reader(book).find_all(board, minimum_weight=0)
and prints what the key positions cover (castling-right changes, en passant, promotions).
"""

import collections
import os
import struct
import subprocess
import sys

import chess
import chess.pgn
import chess.polyglot

CORPUS = "corpus"
DATA = "tests/data"
# Key positions from shards of every generation, Chess960 starts included (0051, 0052).
KEY_SHARDS = ["shard-0001.iwc", "shard-0010.iwc", "shard-0020.iwc", "shard-0030.iwc",
              "shard-0040.iwc", "shard-0050.iwc", "shard-0051.iwc", "shard-0052.iwc"]
KEYS_PER_SHARD = 1_600
BOOK_GAMES = 400
BOOK_PLIES = 16


def varint(data, at):
    value, shift = 0, 0
    while True:
        b = data[at]
        at += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, at


def canonical_moves(board):
    """The legal moves sorted as the corpus numbers them (its `move index`)."""

    def key(m):
        if board.is_castling(m):
            rank = chess.square_rank(m.from_square)
            file = 6 if board.is_kingside_castling(m) else 2
            return m.from_square + 64 * chess.square(file, rank) + 4096 * 5
        promotion = m.promotion - 1 if m.promotion else 0
        return m.from_square + 64 * m.to_square + 4096 * promotion

    return sorted(board.legal_moves, key=key)


def games(path):
    """Each game of a shard: (start board, moves)."""
    data = open(path, "rb").read()
    assert data[:8] == b"IWCORPUS", path
    (meta_len,) = struct.unpack_from("<I", data, 12)
    at = 16 + meta_len + 4
    while at < len(data):
        length, count, _crc = struct.unpack_from("<III", data, at)
        at += 12
        payload, at = data[at : at + length], at + length
        if count == 0:
            continue
        p = 0
        for _ in range(count):
            flags = payload[p]
            p += 1
            chess960 = bool(flags & 2)
            if flags & 1:
                n, p = varint(payload, p)
                fen = payload[p : p + n].decode()
                p += n
                _before, p = varint(payload, p)
                board = chess.Board(fen, chess960=chess960)
            else:
                board = chess.Board(chess960=chess960)
            start = board.copy()
            moves = []
            opening, p = varint(payload, p)
            for _ in range(opening):
                m = canonical_moves(board)[payload[p]]
                p += 1
                moves.append(m)
                board.push(m)
            scored, p = varint(payload, p)
            for _ in range(scored):
                m = canonical_moves(board)[payload[p]]
                p += 1
                _score, p = varint(payload, p)
                moves.append(m)
                board.push(m)
            if flags & 4:
                _final, p = varint(payload, p)
            p += 1  # result
            yield start, moves


def fen_of(board):
    # The en-passant square after every double step ("fen"), so that the reader sees what
    # python-chess hashed: the key counts it only if a pawn can take, legal or not.
    return board.fen(en_passant="fen")


def main():
    keys = []
    seen = set()
    cover = collections.Counter()
    book_games = []
    for shard in KEY_SHARDS:
        taken = 0
        for start, moves in games(os.path.join(CORPUS, shard)):
            board = start.copy()
            standard_start = not board.chess960 and board.fen() == chess.STARTING_FEN
            if standard_start and len(book_games) < BOOK_GAMES:
                book_games.append(moves)
            if taken >= KEYS_PER_SHARD:
                continue
            for ply, m in enumerate(moves):
                rights = board.castling_rights
                promotion = m.promotion is not None
                board.push(m)
                special = []
                if board.castling_rights != rights:
                    special.append("castling rights changed")
                if board.ep_square is not None:
                    capturable = any(board.generate_pseudo_legal_ep())
                    special.append("en passant " + ("capturable" if capturable else "not capturable"))
                    if capturable and not any(board.generate_legal_ep()):
                        special.append("en passant capturable but not legally")
                if promotion:
                    special.append("promotion")
                # Every position with something special, else every eleventh ply.
                if not special and ply % 11 != 3:
                    continue
                if board.chess960:
                    special.append("chess960")
                fen = fen_of(board)
                if fen in seen:
                    continue
                seen.add(fen)
                variant = "chess960" if board.chess960 else "standard"
                keys.append(f"{fen};{variant};{chess.polyglot.zobrist_hash(board):016x}")
                cover.update(special or ["other"])
                taken += 1
    with open(os.path.join(DATA, "polyglot_keys.txt"), "w") as out:
        out.write("\n".join(keys) + "\n")
    print(f"{len(keys)} key positions:", dict(cover))

    pgn_path = os.path.join(DATA, "polyglot_games.pgn")
    with open(pgn_path, "w") as out:
        for i, moves in enumerate(book_games):
            game = chess.pgn.Game()
            game.headers["Event"] = f"Ironwood self-play, corpus game {i + 1}"
            node = game
            for m in moves[:BOOK_PLIES + 4]:
                node = node.add_variation(m)
            game.headers["Result"] = "*"
            print(game, file=out, end="\n\n")
    book_path = os.path.join(DATA, "polyglot_book.bin")
    subprocess.run(
        ["/usr/games/polyglot", "make-book", "-pgn", pgn_path, "-bin", book_path,
         "-max-ply", str(BOOK_PLIES), "-min-game", "1"],
        check=True, stdout=subprocess.DEVNULL,
    )

    lines, in_book = [], 0
    done = set()
    with chess.polyglot.open_reader(book_path) as reader:
        for moves in book_games:
            board = chess.Board()
            for m in moves[: BOOK_PLIES + 2]:
                fen = fen_of(board)
                if fen not in done:
                    done.add(fen)
                    found = [f"{e.move.uci()}:{e.weight}"
                             for e in reader.find_all(board, minimum_weight=0)]
                    in_book += bool(found)
                    lines.append(f"{fen};{' '.join(found)}")
                board.push(m)
        print(f"book: {len(reader)} entries, {len(lines)} positions probed, {in_book} in book")
    with open(os.path.join(DATA, "polyglot_book_moves.txt"), "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
