#!/usr/bin/env python3
"""Plays one UCI self-play game with Ironwood as a GUI does (the whole game in each
`position` line, then `go nodes N`) and prints the bytes of its log: all of it, the input
lines (`<<`), the thinking lines and the moves the engine logs as played. Python 3 alone.

    scripts/uci_log_bytes.py target/release/ironwood --plies 120 --nodes 5000
"""

import argparse
import glob
import os
import subprocess
import tempfile


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine")
    parser.add_argument("--plies", type=int, default=120)
    parser.add_argument("--nodes", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as logs:
        engine = subprocess.Popen(
            [args.engine, "--log-dir", logs],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

        def send(line):
            engine.stdin.write(line + "\n")

        def until(prefix):
            while True:
                line = engine.stdout.readline()
                if not line:
                    raise SystemExit("the engine ended")
                if line.startswith(prefix):
                    return line.split()

        send("uci")
        until("uciok")
        send("ucinewgame")
        moves = []
        for _ in range(args.plies):
            send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
            send(f"go nodes {args.nodes}")
            best = until("bestmove")[1]
            if best in ("(none)", "0000"):
                break
            moves.append(best)
        send("quit")
        engine.wait()
        kinds = {"input": "] << ", "thinking": "] >> info ", "moves played": "] played "}
        sizes = dict.fromkeys(["all", *kinds], 0)
        for path in glob.glob(os.path.join(logs, "*.log")):
            with open(path, encoding="utf-8", errors="replace") as log:
                for line in log:
                    sizes["all"] += len(line.encode())
                    for kind, marker in kinds.items():
                        if marker in line:
                            sizes[kind] += len(line.encode())
        print(f"plies {len(moves)}, log bytes: " + ", ".join(f"{k} {v}" for k, v in sizes.items()))


if __name__ == "__main__":
    main()
