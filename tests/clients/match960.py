#!/usr/bin/env python3
"""Chess960 games between two XBoard engines through python-chess (which sends `variant
fischerandom`, `setboard` with the start position and castling as `O-O`/`O-O-O`, and checks
every move the engines send). match.py knows only normal chess, hence this driver.

    python3 tests/clients/match960.py --engine target/release/ironwood --opponent fairymax \
        --games 100 --tc 3+0.03 --seed 1 --pgn /tmp/c960.pgn
    python3 tests/clients/match960.py --engine target/release/ironwood --opponent stockfish \
        --opponent-proto uci --opponent-option "Skill Level=10" --opponent-option Threads=1 ...

Each start position (drawn with --seed from the 960) is played twice, colours swapped. An
illegal move, a crash or a loss on time is counted as a forfeit of that engine and printed;
the last line is `games N: +W -L =D, forfeits: engine F, opponent G, illegal moves I`.
"""

import argparse
import random
import sys
import time

import chess
import chess.engine
import chess.pgn


def play_game(engines, names, start, base, inc, max_plies=400):
    """engines[0] plays White. Returns (result, reason, game)."""
    board = chess.Board.from_chess960_pos(start)
    game = chess.pgn.Game()
    game.setup(board)
    game.headers["Variant"] = "Chess960"
    game.headers["White"], game.headers["Black"] = names
    node = game
    clocks = [base, base]
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        side = 0 if board.turn == chess.WHITE else 1
        limit = chess.engine.Limit(
            white_clock=clocks[0], black_clock=clocks[1], white_inc=inc, black_inc=inc
        )
        started = time.monotonic()
        try:
            result = engines[side].play(board, limit, game=game)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            return ("0-1" if side == 0 else "1-0"), f"forfeit {names[side]}: {error}", game, side
        used = time.monotonic() - started
        clocks[side] -= used
        if clocks[side] < -0.2:
            return ("0-1" if side == 0 else "1-0"), f"{names[side]} lost on time", game, side
        clocks[side] += inc
        if result.resigned:
            return ("0-1" if side == 0 else "1-0"), f"{names[side]} resigns", game, None
        if result.move is None:
            return ("0-1" if side == 0 else "1-0"), f"{names[side]} sent no move", game, side
        if result.move not in board.legal_moves:
            return ("0-1" if side == 0 else "1-0"), f"illegal move {result.move} by {names[side]}", game, side
        board.push(result.move)
        node = node.add_variation(result.move)
    if board.ply() >= max_plies and not board.is_game_over(claim_draw=True):
        return "1/2-1/2", "move limit", game, None
    outcome = board.outcome(claim_draw=True)
    return outcome.result(), outcome.termination.name.lower(), game, None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", required=True)
    parser.add_argument("--opponent", required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--tc", default="3+0.03")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pgn")
    parser.add_argument("--option", action="append", default=[],
                        help="NAME=VALUE for --engine (XBoard option)")
    parser.add_argument("--opponent-proto", choices=["xboard", "uci"], default="xboard",
                        help="uci for an opponent such as stockfish (python-chess sets UCI_Chess960)")
    parser.add_argument("--opponent-option", action="append", default=[],
                        help="NAME=VALUE for --opponent")
    args = parser.parse_args()
    base_text, inc_text = args.tc.split("+")
    base, inc = float(base_text), float(inc_text)
    rng = random.Random(args.seed)
    names = ["Ironwood", args.opponent.split("/")[-1]]
    ours = chess.engine.SimpleEngine.popen_xboard(args.engine.split())
    if args.opponent_proto == "uci":
        theirs = chess.engine.SimpleEngine.popen_uci(args.opponent.split())
    else:
        theirs = chess.engine.SimpleEngine.popen_xboard(args.opponent.split())
    options = dict(option.split("=", 1) for option in args.option)
    if options:
        ours.configure(options)
    opponent_options = dict(option.split("=", 1) for option in args.opponent_option)
    if opponent_options:
        theirs.configure(opponent_options)
    wins = losses = draws = 0
    forfeits = [0, 0]
    illegal = 0
    pgn = open(args.pgn, "w") if args.pgn else None
    start = rng.randrange(960)
    for number in range(args.games):
        if number % 2 == 0:
            start = rng.randrange(960)
        ironwood_white = number % 2 == 0
        engines = [ours, theirs] if ironwood_white else [theirs, ours]
        game_names = names if ironwood_white else names[::-1]
        result, reason, game, loser = play_game(engines, game_names, start, base, inc)
        game.headers["Result"] = result
        game.headers["Termination"] = reason
        if pgn:
            print(game, file=pgn, end="\n\n", flush=True)
        if loser is not None:
            ironwood_lost = (loser == 0) == ironwood_white
            forfeits[0 if ironwood_lost else 1] += 1
            if "illegal" in reason:
                illegal += 1
            print(f"FORFEIT game {number + 1}: {reason}", flush=True)
        score = {"1-0": 1, "0-1": 0}.get(result, 0.5)
        mine = score if ironwood_white else 1 - score
        if mine == 1:
            wins += 1
        elif mine == 0:
            losses += 1
        else:
            draws += 1
        print(f"game {number + 1} SP {start} {game_names[0]}-{game_names[1]} {result} ({reason})",
              flush=True)
    ours.quit()
    theirs.quit()
    print(f"games {args.games}: +{wins} -{losses} ={draws}, forfeits: engine {forfeits[0]}, "
          f"opponent {forfeits[1]}, illegal moves {illegal}", flush=True)
    return 0 if forfeits[0] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
