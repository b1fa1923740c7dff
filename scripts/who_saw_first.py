#!/usr/bin/env python3
"""Who saw a decided game first: for each game an engine lost (and won) in a fastchess or
cutechess PGN, the ply at which each side's own score first passed the bound in the winner's
favour, the plies between, and the material then on the board, so a loss shows whether the
search or the evaluation missed it and in which phase.

    scripts/who_saw_first.py games.pgn --engine new [--bound 1.5] [--list]
"""

import argparse
import re
import statistics
import sys

import chess.pgn

# fastchess and cutechess write `{+0.32/14 0.215s}`; mates as `+M5` / `-M3`.
SCORE = re.compile(r"^\s*([+-]?)(M?)(\d+(?:\.\d+)?)/\d+")


def mover_score(comment):
    """The mover's own score in pawns (a mate as +-100), or None."""
    m = SCORE.match(comment)
    if not m:
        return None
    sign = -1.0 if m.group(1) == "-" else 1.0
    value = 100.0 if m.group(2) else float(m.group(3))
    return sign * value


def first_seen(plies, side, bound, winner):
    """The first ply at which `side`'s own score said `winner` is at least `bound` ahead."""
    for ply, mover, score, _pieces in plies:
        if mover != side:
            continue
        good_for_winner = score if mover == winner else -score
        if good_for_winner >= bound:
            return ply
    return None


def game_plies(game):
    """(ply, mover colour, mover's score, pieces on the board before the move) per scored move."""
    board = game.board()
    out = []
    ply = 0
    for node in game.mainline():
        parsed = mover_score(node.comment)
        if parsed is not None:
            out.append((ply, board.turn, parsed, chess.popcount(board.occupied)))
        board.push(node.move)
        ply += 1
    return out


def decided_games(pgn, name):
    """(game, the engine's colour, the winner's, `game_plies`) for every game `name` won or
    lost in the PGN with at least one scored move."""
    with open(pgn, encoding="utf-8", errors="replace") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            white, black = game.headers.get("White"), game.headers.get("Black")
            result = game.headers.get("Result")
            if name not in (white, black) or result not in ("1-0", "0-1"):
                continue
            plies = game_plies(game)
            if plies:
                ours = chess.WHITE if white == name else chess.BLACK
                yield game, ours, chess.WHITE if result == "1-0" else chess.BLACK, plies


def opponent(game, ours):
    """The other engine's name."""
    return game.headers.get("Black" if ours == chess.WHITE else "White")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn")
    parser.add_argument("--engine", required=True, help="the engine's name in White/Black")
    parser.add_argument("--bound", type=float, default=1.5, help="pawns (default 1.5)")
    parser.add_argument("--list", action="store_true", help="a line per decided game")
    args = parser.parse_args()

    results = {"loss": [], "win": []}
    for game, ours, winner, plies in decided_games(args.pgn, args.engine):
        first_ply = plies[0][0]
        seen_winner = first_seen(plies, winner, args.bound, winner)
        seen_loser = first_seen(plies, not winner, args.bound, winner)
        pieces = next((p for ply, _, _, p in plies if ply == seen_winner), None)
        kind = "win" if winner == ours else "loss"
        results[kind].append(
            {
                "round": game.headers.get("Round", "?"),
                "opponent": opponent(game, ours),
                "winner_ply": None if seen_winner is None else seen_winner - first_ply,
                "loser_ply": None if seen_loser is None else seen_loser - first_ply,
                "pieces": pieces,
                "fen": game.headers.get("FEN", "startpos"),
            }
        )

    for kind, games in results.items():
        if not games:
            print(f"{'losses' if kind == 'loss' else 'wins'}: none")
            continue
        both = [g for g in games if g["winner_ply"] is not None and g["loser_ply"] is not None]
        winner_first = [g for g in both if g["winner_ply"] < g["loser_ply"]]
        leads = [g["loser_ply"] - g["winner_ply"] for g in winner_first]
        crowded = [g for g in winner_first if g["pieces"] is not None and g["pieces"] >= 21]
        label = "losses" if kind == "loss" else "wins"
        seer = "the opponent" if kind == "loss" else args.engine
        print(
            f"{label}: {len(games)}; {seer} saw it first in {len(winner_first)} of the "
            f"{len(both)} both saw"
            + (f", a median {statistics.median(leads):.0f} plies ahead" if leads else "")
            + (
                f", at a median ply {statistics.median(g['winner_ply'] for g in winner_first):.0f}"
                if winner_first
                else ""
            )
            + f"; {len(crowded)} of those with 21 or more pieces on the board"
        )
        if args.list:
            for g in games:
                print(
                    f"  round {g['round']} vs {g['opponent']}: winner saw it at ply "
                    f"{g['winner_ply']}, loser at {g['loser_ply']}, {g['pieces']} pieces; "
                    f"{g['fen']}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
