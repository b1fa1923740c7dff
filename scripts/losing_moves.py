#!/usr/bin/env python3
"""The move that lost each game: for every game an engine lost in a fastchess or cutechess PGN,
a stronger engine (the oracle) scores each of the loser's moves in the plies before the winner's
own score passed the bound, and the move that gave away the most is written as an EPD line
(`am` the move played, `bm` the oracle's choice, the oracle's loss in centipawns), so the
positions can be searched again with more time or with a search switch off.

    scripts/losing_moves.py games.pgn --engine ironwood --oracle /usr/games/stockfish \
        [--nodes 300000] [--window 16] [--bound 1.5] > lost.epd
"""

import argparse
import sys

import chess
import chess.engine

from who_saw_first import decided_games, first_seen, opponent

MATE = 10000


def score_of(info, pov):
    """The oracle's score in centipawns from `pov`'s side, mates folded to +-MATE."""
    return info["score"].pov(pov).score(mate_score=MATE)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn")
    parser.add_argument("--engine", required=True, help="the loser's name in White/Black")
    parser.add_argument("--oracle", required=True, help="a UCI engine's command")
    parser.add_argument("--nodes", type=int, default=300000, help="per oracle search")
    parser.add_argument("--window", type=int, default=16, help="plies before the winner saw it")
    parser.add_argument("--bound", type=float, default=1.5, help="pawns (default 1.5)")
    args = parser.parse_args()

    oracle = chess.engine.SimpleEngine.popen_uci(args.oracle)
    oracle.configure({"Threads": 1, "Hash": 16})
    limit = chess.engine.Limit(nodes=args.nodes)
    try:
        for game, ours, winner, plies in decided_games(args.pgn, args.engine):
            if winner == ours:
                continue
            seen = first_seen(plies, winner, args.bound, winner)
            if seen is None:
                continue
            worst = None
            board = game.board()
            for ply, node in enumerate(game.mainline()):
                if ply > seen:
                    break
                if board.turn == ours and ply >= seen - args.window:
                    best = oracle.analyse(board, limit)
                    best_move = best.get("pv", [None])[0]
                    best_cp = score_of(best, ours)
                    if best_move == node.move:
                        played_cp = best_cp
                    else:
                        played = oracle.analyse(board, limit, root_moves=[node.move])
                        played_cp = score_of(played, ours)
                    drop = best_cp - played_cp
                    if best_move is not None and (worst is None or drop > worst[0]):
                        worst = (drop, board.copy(), node.move, best_move, best_cp, played_cp, ply)
                board.push(node.move)
            if worst is None:
                continue
            drop, position, played, best_move, best_cp, played_cp, ply = worst
            print(
                f"{position.epd()} am {position.san(played)}; bm {position.san(best_move)}; "
                f'c0 "{opponent(game, ours)} round {game.headers.get("Round", "?")} ply {ply}"; '
                f"c1 \"oracle {best_cp} against {played_cp}\"; c2 \"{drop}\";",
                flush=True,
            )
    finally:
        oracle.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
