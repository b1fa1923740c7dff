#!/usr/bin/env python3
"""Plays Ironwood under each time control in turn through tests/clients/match.py (real clocks,
every fault counted) and reports, per control, the games, time forfeits and other faults, the
clock Ironwood had left (average at the end, least at any move) and its time-per-move curve.

    scripts/clock_sweep.py --games 20                       # XBoard, against Fairy-Max
    scripts/clock_sweep.py --proto uci --opponent 'stockfish proto=uci option.Skill Level=3'
    scripts/clock_sweep.py --controls 40/15 1+0.01 --engine-options Threads=8
    scripts/clock_sweep.py --plan scripts/sweep_plan.json --scale 0.01   # a smoke run

A plan (JSON, scripts/sweep_plan.json is the 2,000-game one) lists cells, each a control,
protocol, opponent, Ironwood's options, pondering and a game count; every cell gets its own
row: games, time forfeits, illegal moves, crashes, hangs, protocol complaints, least clock
left, the bytes of Ironwood's logs. `--scale` multiplies every count (at least one game).

Needs python-chess 1.11 (as match.py) and the opponents on PATH (Debian puts fairymax in
/usr/games). The Markdown summary goes to stdout; games, PGN, JSON and logs to --out.
"""

import argparse
import io
import json
import os
import re
import shlex
import statistics
import subprocess
import sys

import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MATCH = os.path.join(ROOT, "tests", "clients", "match.py")

# Every kind of control a GUI or server sends, scaled to minutes of play: increment
# (XBoard `level 0 M I`), moves per session (`level 40 M 0`), sudden death with no
# increment (`level 0 M 0`) and a fixed time per move (`st`).
DEFAULT_CONTROLS = ["1+0.01", "2+0.02", "10+0.1", "40/15", "40/60", "30", "st=1"]

# Move numbers (Ironwood's own moves, from 1) grouped for the time-per-move curve.
CURVE = [(1, 10), (11, 20), (21, 30), (31, 40), (41, 60), (61, 80), (81, 10_000)]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "ironwood"),
                   help="the Ironwood binary (default: target/release/ironwood)")
    p.add_argument("--proto", choices=["xboard", "uci"], default="xboard")
    p.add_argument("--engine-options", nargs="*", default=[], metavar="NAME=VALUE",
                   help="options for Ironwood, e.g. Threads=8 Ponder=true")
    p.add_argument("--opponent", default="fairymax",
                   help="match.py engine words after cmd=, e.g. 'stockfish proto=uci'")
    p.add_argument("--controls", nargs="*", default=DEFAULT_CONTROLS)
    p.add_argument("--games", type=int, default=20, help="games per control")
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--openings", default=os.path.join(ROOT, "tests", "data", "openings.epd"))
    p.add_argument("--out", default="clock-sweep", help="folder for PGN, JSON and logs")
    p.add_argument("--plan", help="a JSON list of cells (replaces the options above)")
    p.add_argument("--scale", type=float, default=1.0, help="multiply the plan's game counts")
    return p.parse_args()


def cells(args):
    """The cells to play: the plan's, or every control with the command line's settings."""
    if args.plan:
        with open(args.plan) as fh:
            plan = json.load(fh)
        for cell in plan["cells"]:
            yield {
                "control": cell["control"],
                "proto": cell.get("proto", "xboard"),
                "opponent": cell.get("opponent", "fairymax"),
                "options": cell.get("options", []),
                "ponder": cell.get("ponder", False),
                "games": max(1, round(cell["games"] * args.scale)),
            }
        return
    for control in args.controls:
        yield {"control": control, "proto": args.proto, "opponent": args.opponent,
               "options": args.engine_options, "ponder": False, "games": args.games}


def label(cell):
    _, opponent = opponent_words(cell["opponent"])
    extra = " ".join(cell["options"] + (["ponder"] if cell["ponder"] else []))
    return " ".join(x for x in [cell["control"], cell["proto"], "vs " + opponent, extra] if x)


def opponent_words(text):
    """match.py's words for an opponent: the command, then its keys; `name=` may rename it
    (Ironwood against itself needs another name)."""
    words = shlex.split(text)
    named = [w[len("name="):] for w in words[1:] if w.startswith("name=")]
    name = named[0] if named else os.path.basename(words[0])
    rest = [w for w in words[1:] if not w.startswith("name=")]
    return ["name=" + name, "cmd=" + words[0]] + rest, name


def play(args, cell, number, out):
    stem = os.path.join(out, f"{number:02d}-" + re.sub(r"[^0-9a-z.+]+", "_", label(cell).lower()))
    opponent, _ = opponent_words(cell["opponent"])
    logs = stem + "-logs"
    os.makedirs(logs, exist_ok=True)
    engine = ["name=ironwood", f"cmd={args.engine} --log-dir {shlex.quote(logs)}",
              "proto=" + cell["proto"]]
    engine += ["option." + o for o in cell["options"]]
    if cell["ponder"]:
        engine.append("ponder=1")
    cmd = [sys.executable, MATCH, "--engine", *engine, "--engine", *opponent,
           "--tc", cell["control"], "--games", str(cell["games"]),
           "--concurrency", str(args.concurrency),
           "--pgn", stem + ".pgn", "--json", stem + ".json", "-q"]
    if args.openings and os.path.exists(args.openings):
        cmd += ["--openings", args.openings, "--openings-order", "random", "--seed", "1"]
    with open(stem + ".log", "w") as log:
        subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, check=False)
    with open(stem + ".json") as fh:
        result = json.load(fh)
    with open(stem + ".pgn") as fh:
        pgn = fh.read()
    log_bytes = sum(os.path.getsize(os.path.join(logs, f)) for f in os.listdir(logs))
    return result, pgn, log_bytes


def think_times(pgn, name):
    """Ironwood's seconds per move, by its move number, from match.py's move comments."""
    by_move = {}
    games = io.StringIO(pgn)
    while (game := chess.pgn.read_game(games)) is not None:
        white = game.headers.get("White") == name
        board_white = game.board().turn == chess.WHITE
        ply_is_white = board_white
        number = 0
        for node in game.mainline():
            if ply_is_white == white:
                number += 1
                m = re.search(r"(\d+\.\d+)s", node.comment or "")
                if m:
                    by_move.setdefault(number, []).append(float(m.group(1)))
            ply_is_white = not ply_is_white
    return by_move


def summarize(control, result, pgn, log_bytes=0):
    games = result["games"]
    name = "ironwood"
    faults = {}
    for g in games:
        if g.get("loser_fault") == name:
            faults[g["fault_kind"]] = faults.get(g["fault_kind"], 0) + 1
    left = [g["clock_left"][name] for g in games if name in g["clock_left"]]
    least = [g["min_left"][name] for g in games if name in g["min_left"]]
    used = sum(g["time_used"].get(name, 0) for g in games)
    moves = sum(g["moves_made"].get(name, 0) for g in games)
    by_move = think_times(pgn, name)
    curve = []
    for lo, hi in CURVE:
        times = [t for n, ts in by_move.items() if lo <= n <= hi for t in ts]
        curve.append(f"{1000 * statistics.mean(times):.0f}" if times else "-")
    score = sum(1 if g["result"] == ("1-0" if g["white"] == name else "0-1") else
                0.5 if g["result"] == "1/2-1/2" else 0 for g in games)
    return {
        "control": control,
        "games": len(games),
        "score": f"{score:g}",
        "time": faults.get("time", 0),
        "other": sum(v for k, v in faults.items() if k != "time"),
        "faults": faults,
        "log_bytes": log_bytes,
        "avg_left": f"{statistics.mean(left):.2f}" if left and not control.startswith("st") else "-",
        "least_left": f"{min(least):.3f}" if least and not control.startswith("st") else "-",
        "ms_per_move": f"{1000 * used / max(moves, 1):.0f}",
        "curve": curve,
    }


def main():
    args = parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for number, cell in enumerate(cells(args), 1):
        result, pgn, log_bytes = play(args, cell, number, args.out)
        row = summarize(label(cell), result, pgn, log_bytes)
        rows.append(row)
        print(f"done {row['control']}: {row['games']} games", file=sys.stderr)
    total = sum(r["games"] for r in rows)
    source = args.plan or f"{args.proto}, {' '.join(args.engine_options) or 'defaults'}"
    print(f"Ironwood, {total} games in {len(rows)} cells ({source}).\n")
    kinds = ["time", "illegal", "crash", "hang", "protocol"]
    head = ["cell", "games", "score", "time forfeits", "illegal moves", "crashes", "hangs",
            "protocol complaints", "least clock left (s)", "ms a move", "log bytes"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        cells_ = [r["control"], r["games"], r["score"], *(r["faults"].get(k, 0) for k in kinds),
                  r["least_left"], r["ms_per_move"], r["log_bytes"]]
        print("| " + " | ".join(str(c) for c in cells_) + " |")
    print()
    head = ["cell"] + [f"moves {lo}-{hi}" if hi < 10_000 else f"moves {lo}+" for lo, hi in CURVE]
    print("Ironwood's milliseconds a move by its move number:\n")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print("| " + " | ".join([r["control"], *r["curve"]]) + " |")
    return 1 if any(r["faults"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
