#!/usr/bin/env python3
"""Whether more search would have seen a loss coming: for each game the engine lost in a
fastchess or cutechess PGN where the winner's own score passed the bound first, the
engine's first position to move after that, searched longer by the engine and by a
reference engine; then the two engines' score scales compared on random positions of the
same games, so a difference of units is not read as a misjudgement.

    scripts/deeper_look.py games.pgn --engine ironwood --cmd target/release/ironwood \
        --reference /usr/games/stockfish [--time 3] [--bound 1.5] [--calibrate 70]
"""

import argparse
import random
import statistics
import sys

import chess
import chess.engine
import chess.pgn

from who_saw_first import decided_games, first_seen, opponent


def probes(pgn, name, bound):
    """(opponent, position, the engine's in-game score there) per loss the winner saw first."""
    out = []
    for game, ours, winner, plies in decided_games(pgn, name):
        if winner == ours:
            continue
        seen_winner = first_seen(plies, winner, bound, winner)
        seen_ours = first_seen(plies, ours, bound, winner)
        if seen_winner is None or (seen_ours is not None and seen_ours <= seen_winner):
            continue
        scores = {ply: score for ply, _, score, _ in plies}
        board, ply = game.board(), 0
        for node in game.mainline():
            if ply > seen_winner and board.turn == ours:
                if ply in scores and scores[ply] > -bound:
                    out.append((opponent(game, ours), board.copy(), scores[ply]))
                break
            board.push(node.move)
            ply += 1
    return out


def random_positions(pgn, count, seed):
    rng = random.Random(seed)
    boards = []
    with open(pgn, encoding="utf-8", errors="replace") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            moves = list(game.mainline_moves())
            if len(moves) < 30:
                continue
            board = game.board()
            for m in moves[: rng.randrange(16, min(len(moves), 90))]:
                board.push(m)
            if not board.is_game_over():
                boards.append(board)
    rng.shuffle(boards)
    return boards[:count]


def score(engine, board, seconds):
    info = engine.analyse(board, chess.engine.Limit(time=seconds))
    return info["score"].pov(board.turn).score(mate_score=10000) / 100


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn")
    parser.add_argument("--engine", required=True, help="the engine's name in White/Black")
    parser.add_argument("--cmd", required=True, help="the engine's command (UCI)")
    parser.add_argument("--reference", required=True, help="a stronger engine's command (UCI)")
    parser.add_argument("--time", type=float, default=3.0, help="seconds a probe (default 3)")
    parser.add_argument("--bound", type=float, default=1.5, help="pawns (default 1.5)")
    parser.add_argument("--calibrate", type=int, default=70, help="random positions, 1 s each")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()

    engine = chess.engine.SimpleEngine.popen_uci(args.cmd.split())
    reference = chess.engine.SimpleEngine.popen_uci(args.reference.split())
    for e in (engine, reference):
        e.configure({"Hash": 64})
    rows = []
    for opponent, board, in_game in probes(args.pgn, args.engine, args.bound):
        longer = score(engine, board, args.time)
        ref = score(reference, board, args.time)
        rows.append((opponent, in_game, longer, ref))
        print(f"{opponent}\t{in_game:+.2f}\t{longer:+.2f}\t{ref:+.2f}\t{board.fen()}", flush=True)
    for label, group in [("all", rows)] + [
        (o, [r for r in rows if r[0] == o]) for o in sorted({r[0] for r in rows})
    ]:
        if group:
            print(
                f"{label}: {len(group)} losses; median score in the game "
                f"{statistics.median(r[1] for r in group):+.2f}, after {args.time:g} s "
                f"{statistics.median(r[2] for r in group):+.2f} "
                f"({sum(r[2] <= -args.bound for r in group)} past the bound); the reference "
                f"{statistics.median(r[3] for r in group):+.2f} "
                f"({sum(r[3] <= -args.bound for r in group)} past it)"
            )
    pairs = []
    for board in random_positions(args.pgn, args.calibrate, args.seed):
        a, b = score(engine, board, 1.0), score(reference, board, 1.0)
        if abs(a) < 15 and abs(b) < 15:
            pairs.append((a, b))
    if len(pairs) > 2:
        ours, theirs = [p[0] for p in pairs], [p[1] for p in pairs]
        print(
            f"scales on {len(pairs)} random positions: the engine's scores spread "
            f"{statistics.pstdev(ours) / statistics.pstdev(theirs):.2f} times the reference's, "
            f"correlation {statistics.correlation(ours, theirs):.2f}"
        )
    engine.quit()
    reference.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
