#!/usr/bin/env python3
"""Plays Ironwood through a plan of cells (control, protocol, client, opponent, options) and
reports per cell the games, time forfeits, illegal moves, crashes, hangs, protocol complaints,
least clock left, peak memory and its growth, log bytes and wall time.

    scripts/clock_sweep.py --plan scripts/sweep_plan.json --out sweep           # issue 61's sweep
    scripts/clock_sweep.py --plan scripts/sweep_plan.json --out sweep --resume  # after a stop
    scripts/clock_sweep.py --plan scripts/sweep_plan.json --scale 0.01 --out /tmp/smoke
    scripts/clock_sweep.py --games 20 --controls 1+0.01 st=1     # no plan: match.py vs Fairy-Max

A cell's `kind` picks the client: `match` (tests/clients/match.py, python-chess, XBoard or UCI;
keeps each engine process for all its games), `xboard` (real XBoard 4.9 headless under
xvfb-run, through tests/clients/xboard_match.sh) or `fastchess` (UCI, with -strict and
-check-mate-pvs). `engine: "wine"` plays the Windows build under Wine (cross-built here
once). `variant: "fischerandom"` plays Chess960. The opponent `ironwood` is the engine under
test again. `--scale` multiplies every game count (to an even number, at least two). Each
finished cell's JSON is written as it ends; `--resume` keeps those that played games and
plays the others. A cell whose client is missing is reported as skipped, with the reason.
docs/testing.md explains the cells and columns. Markdown goes to stdout.
"""

import argparse
import glob
import io
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import threading
import time

import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CLIENTS = os.path.join(ROOT, "tests", "clients")
MATCH = os.path.join(CLIENTS, "match.py")
XBOARD_MATCH = os.path.join(CLIENTS, "xboard_match.sh")
FAIRYMAX = os.path.join(CLIENTS, "fairymax.sh")
FASTCHESS = "/work/shared/tools/fastchess/fastchess"
WINDOWS_TARGET = "x86_64-pc-windows-gnu"
WINE64 = "/usr/lib/wine/wine64"
NAME = "ironwood"

DEFAULT_CONTROLS = ["1+0.01", "2+0.02", "10+0.1", "40/15", "40/60", "30", "st=1"]
FAULTS = ["time", "illegal", "crash", "hang", "protocol"]
# Move numbers (Ironwood's own moves, from 1) grouped for the time-per-move curve.
CURVE = [(1, 10), (11, 20), (21, 30), (31, 40), (41, 60), (61, 80), (81, 10_000)]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "ironwood"),
                   help="the Ironwood binary (default: target/release/ironwood)")
    p.add_argument("--proto", choices=["xboard", "uci"], default="xboard")
    p.add_argument("--engine-options", nargs="*", default=[], metavar="NAME=VALUE")
    p.add_argument("--opponent", default="fairymax",
                   help="match.py engine words after cmd=, e.g. 'stockfish proto=uci'")
    p.add_argument("--controls", nargs="*", default=DEFAULT_CONTROLS)
    p.add_argument("--games", type=int, default=20, help="games per control")
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--openings", default=os.path.join(ROOT, "tests", "data", "openings.epd"))
    p.add_argument("--out", default="clock-sweep", help="folder for PGN, JSON and logs")
    p.add_argument("--plan", help="a JSON plan of cells (replaces the options above)")
    p.add_argument("--scale", type=float, default=1.0, help="multiply the plan's game counts")
    p.add_argument("--resume", action="store_true", help="keep the cells --out already holds")
    p.add_argument("--only", nargs="*", type=int, help="play only these cell numbers (from 1)")
    p.add_argument("--fastchess", default=FASTCHESS if os.path.exists(FASTCHESS) else None,
                   help=f"the fastchess binary (default {FASTCHESS} when present)")
    p.add_argument("--wine-exe", help="a built ironwood.exe (default: cross-built into target/wine-build)")
    return p.parse_args()


def cells(args):
    """The cells to play: the plan's, or every control with the command line's settings."""
    if args.plan:
        with open(args.plan) as fh:
            plan = json.load(fh)
        for cell in plan["cells"]:
            out = {"kind": "match", "proto": "xboard", "opponent": "fairymax", "options": [],
                   "ponder": False, "variant": "standard", "engine": "native", "concurrency": 1}
            out.update(cell)
            # pairs of games, colours swapped (fastchess plays rounds of two)
            out["games"] = max(2, 2 * round(cell["games"] * args.scale / 2))
            yield out
        return
    for control in args.controls:
        yield {"kind": "match", "control": control, "proto": args.proto, "opponent": args.opponent,
               "options": args.engine_options, "ponder": False, "variant": "standard",
               "engine": "native", "concurrency": args.concurrency, "games": args.games}


def label(cell):
    opponent = shlex.split(cell["opponent"])[0]
    extra = [] if cell["kind"] == "match" else [cell["kind"]]
    extra += [] if cell["engine"] == "native" else [cell["engine"]]
    extra += [] if cell["variant"] == "standard" else ["960"]
    extra += cell["options"] + (["ponder"] if cell["ponder"] else [])
    return " ".join([cell["control"], cell["proto"], "vs " + os.path.basename(opponent), *extra])


class MemorySampler:
    """Samples the resident memory of every Ironwood process whose command line holds `marker`
    (the cell's log folder), for clients that do not report their engines' PIDs. The client
    itself (XBoard, fastchess, their shells) names the folder too, hence the check of the
    program name. Growth is measured from the first sample after the first game reached the
    client's PGN file (before it a process is still allocating its tables)."""

    def __init__(self, marker, program, pgn):
        self.marker = marker.encode()
        self.program = os.path.basename(program).encode()
        self.pgn = pgn
        self.first = {}
        self.last = {}
        self.peak = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop.wait(1.0):
            first_game_over = os.path.exists(self.pgn) and os.path.getsize(self.pgn) > 0
            for status in glob.glob("/proc/[0-9]*/status"):
                pid = int(status.split("/")[2])
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as fh:
                        argv = fh.read().split(b"\0")
                    # Wine's process for ironwood.exe shows a Windows path
                    if self.marker not in b" ".join(argv) or \
                            not re.split(rb"[/\\]", argv[0])[-1] == self.program:
                        continue
                    with open(status) as fh:
                        fields = dict(line.split(":", 1) for line in fh if ":" in line)
                    rss, hwm = (int(fields[k].split()[0]) for k in ("VmRSS", "VmHWM"))
                except (OSError, KeyError, ValueError):
                    continue
                if first_game_over:
                    self.first.setdefault(pid, rss)
                    self.last[pid] = rss
                self.peak = max(self.peak, hwm)

    def result(self):
        self.stop.set()
        self.thread.join()
        if not self.peak:
            return {}
        growth = max((self.last[pid] - self.first[pid] for pid in self.first), default=None)
        return {"peak_kb": self.peak, "growth_kb": growth, "processes": len(self.first)}


def dir_bytes(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def self_play(cell):
    return shlex.split(cell["opponent"])[0] == "ironwood"


def opponent_command(cell, stem):
    """The opponent's command words and its other match.py keys; `ironwood` is the engine
    under test, logging into a folder of its own."""
    words = shlex.split(cell["opponent"])
    rest = words[1:]
    if words[0] == "ironwood":
        logs = stem + "-opponent-logs"
        os.makedirs(logs, exist_ok=True)
        return [ENGINE_PATH, "--log-dir", logs], rest
    if words[0] == "fairymax" and cell["kind"] != "match":
        return [FAIRYMAX], rest
    return [words[0]], rest


def engine_command(cell, logs):
    if cell["engine"] == "wine":
        return [WINE_WRAPPER, "--log-dir", logs]
    return [ENGINE_PATH, "--log-dir", logs]


def play_match(args, cell, stem, logs):
    opp_cmd, opp_keys = opponent_command(cell, stem)
    named = [w for w in opp_keys if w.startswith("name=")]
    opp_name = named[0][5:] if named else os.path.basename(opp_cmd[0]).removesuffix(".sh")
    if self_play(cell):
        opp_name = NAME + "-2"
    engine = ["name=" + NAME, "cmd=" + shlex.join(engine_command(cell, logs)), "proto=" + cell["proto"]]
    engine += ["option." + o for o in cell["options"]]
    if cell["ponder"]:
        engine.append("ponder=1")
    opponent = ["name=" + opp_name, "cmd=" + shlex.join(opp_cmd)]
    opponent += [w for w in opp_keys if not w.startswith("name=")]
    cmd = [sys.executable, MATCH, "--engine", *engine, "--engine", *opponent,
           "--tc", cell["control"], "--games", str(cell["games"]),
           "--concurrency", str(cell["concurrency"]), "--seed", "1",
           "--pgn", stem + ".pgn", "--json", stem + ".json", "-q"]
    if cell.get("adjudicate"):
        # slow controls: a decided or dead drawn game ends early, and none runs past move 100
        cmd += ["--adjudicate-resign", "4:800", "--adjudicate-draw", "40:8:10", "--max-moves", "100"]
    if cell["engine"] == "wine":
        cmd += ["--start-timeout", "60"]  # Wine starts slowly while the machine is busy
    if cell["variant"] != "standard":
        cmd += ["--variant", cell["variant"]]
    elif args.openings and os.path.exists(args.openings):
        cmd += ["--openings", args.openings, "--openings-order", "random"]
    with open(stem + ".log", "w") as log:
        subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, check=False)
    try:
        with open(stem + ".json") as fh:
            result = json.load(fh)
        with open(stem + ".pgn") as fh:
            pgn = fh.read()
    except (OSError, ValueError):
        return {"status": f"match.py failed: see {stem}.log"}
    games = result["games"]
    faults = {k: 0 for k in FAULTS}
    for g in games:
        # in self-play both sides are the engine under test
        if g.get("loser_fault") in (NAME, NAME + "-2"):
            faults[g["fault_kind"]] += 1
    timed = not (cell["control"].startswith(("st", "depth", "nodes")))
    least = [g["min_left"][NAME] for g in games if NAME in g["min_left"] and g["moves_made"].get(NAME)]
    used = sum(g["time_used"].get(NAME, 0) for g in games)
    moves = sum(g["moves_made"].get(NAME, 0) for g in games)
    stats = next(s for s in result["engine_stats"] if s["name"] == NAME)
    return {"games": len(games), "score": sum(points(g["result"], g["white"] == NAME) for g in games),
            "faults": faults, "least_left": min(least) if least and timed else None,
            "ms_per_move": 1000 * used / max(moves, 1), "memory": stats.get("memory", {}),
            "curve": curve(think_times(pgn))}


def points(result, white):
    return {"1-0": 1.0 if white else 0.0, "0-1": 0.0 if white else 1.0, "1/2-1/2": 0.5}.get(result, 0.0)


def think_times(pgn):
    """Ironwood's seconds per move, by its move number, from the PGN's move comments."""
    by_move = {}
    games = io.StringIO(pgn)
    while (game := chess.pgn.read_game(games)) is not None:
        white = game.headers.get("White") == NAME
        ply_is_white = game.board().turn == chess.WHITE
        number = 0
        for node in game.mainline():
            if ply_is_white == white:
                number += 1
                m = re.search(r"(\d+\.\d+)s", node.comment or "")
                if m:
                    by_move.setdefault(number, []).append(float(m.group(1)))
            ply_is_white = not ply_is_white
    return by_move


def curve(by_move):
    out = []
    for lo, hi in CURVE:
        times = [t for n, ts in by_move.items() if lo <= n <= hi for t in ts]
        out.append(round(1000 * statistics.mean(times)) if times else None)
    return out


def play_xboard(cell, stem, logs):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)", cell["control"])
    if not m:
        return {"status": "xboard cells take BASE+INC controls"}
    for prog in ("xboard", "xvfb-run"):
        if not shutil.which(prog, path=os.environ["PATH"] + ":/usr/games"):
            return {"status": f"skipped: {prog} not found"}
    base = float(m.group(1))
    opp_cmd, _ = opponent_command(cell, stem)
    cmd = [XBOARD_MATCH, "-g", str(cell["games"]), "-t", f"{int(base // 60)}:{base % 60:02g}",
           "-i", m.group(2), "-o", stem + "-xboard"]
    if cell["ponder"]:
        cmd.append("-P")
    if cell["variant"] != "standard":
        cmd += ["-V", cell["variant"]]
    cmd += [shlex.join(engine_command(cell, logs)), shlex.join(opp_cmd)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=False).stdout
    with open(stem + ".log", "w") as fh:
        fh.write(out)
    played = re.search(r"^Games in .*: (\d+) of", out, re.M)
    faults = {k: 0 for k in FAULTS}
    problems = re.search(r"^Protocol problems of the first engine in .*?: (none|\d+)(.*)$", out, re.M)
    if problems and problems.group(1) != "none":
        # the problem lines follow, the first engine's before the opponent's
        lines = out[problems.end():].splitlines()[1:1 + int(problems.group(1))]
        for line in lines:
            text = line.strip()
            kind = ("time" if re.search(r"time|flag", text, re.I) else
                    "illegal" if re.search(r"illegal", text, re.I) else
                    "crash" if re.search(r"crash|exit|disconnect|killed|panicked", text, re.I) else
                    "hang" if re.search(r"no result|not responding|timed out", text, re.I) else "protocol")
            faults[kind] += 1
    least = re.search(r"^Least clock time sent: (.*)$", out, re.M)
    first_left = None
    if least:
        # "NAME S s" per engine; the first engine is Ironwood ("first" in XBoard's log)
        m2 = re.search(r"first (\d+\.\d+) s", least.group(1))
        first_left = float(m2.group(1)) if m2 else None
    games, score = 0, 0.0
    for w, b, res in re.findall(r"^\s+\d+\. (.+?) - (.+?)  (1-0|0-1|1/2-1/2|\*)  ", out, re.M):
        games += 1
        score += points(res, w.lower().startswith(NAME))
    return {"games": int(played.group(1)) if played else 0, "score": score, "faults": faults,
            "least_left": first_left, "ms_per_move": None, "curve": [None] * len(CURVE)}


def fastchess_limit(control):
    if control.startswith(("depth=", "nodes=")):
        return control
    if control.startswith("st="):
        return control
    return "tc=" + control


def play_fastchess(args, cell, stem, logs):
    if not args.fastchess or not os.access(args.fastchess, os.X_OK):
        return {"status": "skipped: fastchess not found (--fastchess PATH)"}
    opp_cmd, opp_keys = opponent_command(cell, stem)
    command = engine_command(cell, logs)
    cmd = [args.fastchess, "-engine", "cmd=" + command[0], "args=" + shlex.join(command[1:]),
           "name=" + NAME, "proto=uci", *("option." + o for o in cell["options"])]
    opp = ["-engine", "cmd=" + (shutil.which(opp_cmd[0], path=os.environ["PATH"] + ":/usr/games")
                                or opp_cmd[0]), "proto=uci"]
    if opp_cmd[1:]:
        opp.append("args=" + shlex.join(opp_cmd[1:]))
    names = [w for w in opp_keys if w.startswith("name=")]
    opp_name = names[0][5:] if names else os.path.basename(opp_cmd[0])
    opp.append("name=" + (NAME + "-2" if self_play(cell) else opp_name))
    opp += [w for w in opp_keys if w.startswith("option.")]
    cmd += opp
    pgn = stem + ".pgn"
    for old in (pgn, stem + "-config.json"):
        if os.path.exists(old):
            os.remove(old)
    cmd += ["-each", fastchess_limit(cell["control"]), "timemargin=50",
            "-rounds", str(max(1, cell["games"] // 2)), "-games", "2",
            "-concurrency", str(cell["concurrency"]), "-srand", "1",
            "-pgnout", f"file={pgn}", "timeleft=true", "-ratinginterval", "0",
            "-config", f"outname={stem}-config.json", "-autosaveinterval", "0",
            "-log", f"file={stem}-fastchess.log", "level=warn", "append=false"]
    # -strict stops at the first warning or forfeit, the opponent's too; a cell against
    # another engine may go on instead (and restart a crashed engine)
    cmd += ["-strict", "-check-mate-pvs"] if cell.get("strict", True) else ["-recover"]
    if cell["variant"] != "standard":
        starts = os.path.join(os.path.dirname(stem), "chess960.epd")
        with open(starts, "w") as fh:
            fh.writelines(chess.Board.from_chess960_pos(n).fen() + "\n" for n in range(960))
        cmd += ["-variant", "fischerandom", "-openings", f"file={starts}", "format=epd",
                "order=random"]
    elif args.openings and os.path.exists(args.openings):
        cmd += ["-openings", f"file={args.openings}", "format=epd", "order=random"]
    run = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=os.path.dirname(stem))
    out = run.stdout + run.stderr
    with open(stem + ".log", "w") as fh:
        fh.write(shlex.join(cmd) + "\n" + out)
    faults = {k: 0 for k in FAULTS}
    # -strict stops fastchess at its first warning: each names the engine it is about
    faults["protocol"] = sum(1 for line in out.splitlines()
                             if re.search(r"warn", line, re.I) and NAME in line.lower())
    games, score, least, used, moves = 0, 0.0, [], 0.0, 0
    by_move = {}
    with open(pgn) if os.path.exists(pgn) else io.StringIO("") as fh:
        while (game := chess.pgn.read_game(fh)) is not None:
            games += 1
            white = game.headers.get("White") == NAME
            result = game.headers.get("Result", "*")
            score += points(result, white)
            lost = result == ("0-1" if white else "1-0") or self_play(cell)
            term = game.headers.get("Termination", "")
            last = (game.end().comment or "").lower()
            if lost and term == "time forfeit":
                faults["time"] += 1
            elif lost and term == "illegal move":
                faults["illegal"] += 1
            elif lost and term == "abandoned":
                faults["hang" if "stall" in last else "crash"] += 1
            number = 0
            ours = game.board().turn == (chess.WHITE if white else chess.BLACK)
            for node in game.mainline():
                if ours:
                    number += 1
                    t = re.search(r"(\d+\.\d+)s", node.comment or "")
                    tl = re.search(r"tl=(-?\d+\.\d+)s", node.comment or "")
                    if t:
                        by_move.setdefault(number, []).append(float(t.group(1)))
                        used += float(t.group(1))
                        moves += 1
                    if tl:
                        least.append(float(tl.group(1)))
                ours = not ours
    # a game cut short by -strict is missing from the PGN, but fastchess's closing summary
    # ("Player: NAME", "  Timeouts: N", "  Crashed: N") counts it
    ours = (NAME, NAME + "-2") if self_play(cell) else (NAME,)
    summary = re.findall(r"^Player: (\S+)\s*\n\s*Timeouts: (\d+)\s*\n\s*Crashed: (\d+)", out, re.M)
    faults["time"] = max(faults["time"], sum(int(t) for name, t, _ in summary if name in ours))
    faults["crash"] = max(faults["crash"], sum(int(c) for name, _, c in summary if name in ours))
    timed = not cell["control"].startswith(("st", "depth", "nodes"))
    status = "ok" if run.returncode == 0 else f"fastchess exit {run.returncode}: see {stem}.log"
    return {"games": games, "score": score, "faults": faults,
            "least_left": min(least) if least and timed else None,
            "ms_per_move": 1000 * used / moves if moves else None, "curve": curve(by_move),
            "status": status}


def prepare_wine(args, out):
    """The Windows build and the wrapper that runs it under Wine; or why it cannot be."""
    global WINE_WRAPPER
    missing = [what for what, ok in (("wine64", os.path.exists(WINE64)),
                                     ("x86_64-w64-mingw32-gcc", shutil.which("x86_64-w64-mingw32-gcc")))
               if not ok]
    if missing:
        return "skipped: missing " + ", ".join(missing)
    folder = os.path.join(os.path.abspath(out), "wine")
    os.makedirs(folder, exist_ok=True)
    exe = os.path.join(folder, "ironwood.exe")
    source = args.wine_exe or os.path.join(ROOT, "target", "wine-build", WINDOWS_TARGET, "release",
                                           "ironwood.exe")
    if not args.wine_exe:
        # as tests/it/clients/windows_wine.rs: no LTO, so that it builds in about a minute
        env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(ROOT, "target", "wine-build"),
                   CARGO_PROFILE_RELEASE_LTO="false", CARGO_PROFILE_RELEASE_CODEGEN_UNITS="16",
                   CARGO_PROFILE_RELEASE_DEBUG="0")
        built = subprocess.run(["nice", "-n", "10", "cargo", "build", "--release", "--quiet",
                                "--target", WINDOWS_TARGET], cwd=ROOT, env=env, check=False)
        if built.returncode != 0:
            return f"skipped: the Windows cross-build failed (rustup target add {WINDOWS_TARGET}?)"
    shutil.copy(source, exe)
    # Wine 8 lacks bcryptprimitives.dll, which Rust's std imports (tests/wine/ explains)
    dll = subprocess.run(["x86_64-w64-mingw32-gcc", "-shared", "-O2", "-o",
                          os.path.join(folder, "bcryptprimitives.dll"),
                          os.path.join(ROOT, "tests", "wine", "bcryptprimitives.c"), "-ladvapi32"],
                         check=False)
    if dll.returncode != 0:
        return "skipped: the bcryptprimitives.dll stand-in did not build"
    WINE_WRAPPER = os.path.join(folder, "ironwood-wine.sh")
    with open(WINE_WRAPPER, "w") as fh:
        # exec: the engine's PID is Wine's process for ironwood.exe, whose memory is measured
        fh.write("#!/bin/sh\n"
                 f"WINEPREFIX={shlex.quote(os.path.join(folder, 'prefix'))} WINEDEBUG=-all "
                 f"exec {WINE64} {shlex.quote(exe)} \"$@\"\n")
    os.chmod(WINE_WRAPPER, 0o755)
    # the first start creates the Wine prefix, which takes far longer than a handshake may
    version = subprocess.run([WINE_WRAPPER, "--version"], capture_output=True, text=True, check=False)
    if not version.stdout.startswith("ironwood"):
        return f"skipped: ironwood.exe under Wine said {version.stdout.strip()!r}"
    return None


def play(args, cell, number):
    stem = os.path.join(os.path.abspath(args.out),
                        f"{number:02d}-" + re.sub(r"[^0-9a-z.+]+", "_", label(cell).lower()))
    logs = stem + "-logs"
    shutil.rmtree(logs, ignore_errors=True)
    os.makedirs(logs)
    started = time.monotonic()
    if cell["engine"] == "wine" and WINE_PROBLEM:
        row = {"status": WINE_PROBLEM}
    elif cell["kind"] == "match":
        row = play_match(args, cell, stem, logs)
    else:
        program = "ironwood.exe" if cell["engine"] == "wine" else ENGINE_PATH
        pgn = stem + ("-xboard/games.pgn" if cell["kind"] == "xboard" else ".pgn")
        if os.path.exists(pgn):
            os.remove(pgn)  # from an earlier run: it would start the growth baseline at once
        sampler = MemorySampler(logs, program, pgn)
        if cell["kind"] == "xboard":
            row = play_xboard(cell, stem, logs)
        else:
            row = play_fastchess(args, cell, stem, logs)
        row["memory"] = sampler.result()
    row.setdefault("status", "ok")
    if row["status"] == "ok" and row.get("games", 0) < cell["games"]:
        row["status"] = f"only {row.get('games', 0)} of {cell['games']} games: see {stem}.log"
    row.update(number=number, cell=label(cell), plan=cell, planned=cell["games"],
               seconds=round(time.monotonic() - started), log_bytes=dir_bytes(logs))
    with open(stem + ".cell.json", "w") as fh:
        json.dump(row, fh, indent=1)
    return row


def fmt(value, spec):
    return "-" if value is None else format(value, spec)


def report(rows, source):
    played = [r for r in rows if "games" in r]
    total = sum(r["games"] for r in played)
    wall = sum(r["seconds"] for r in rows)
    print(f"Ironwood, {total} games in {len(played)} cells ({source}), {wall / 60:.0f} minutes.\n")
    head = ["#", "cell", "games", "score", "time forfeits", "illegal moves", "crashes", "hangs",
            "protocol complaints", "least clock left (s)", "ms a move", "peak memory (MB)",
            "memory growth (kB)", "log bytes", "minutes", "status"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        mem = r.get("memory") or {}
        faults = r.get("faults", {})
        line = [r["number"], r["cell"], r.get("games", 0), fmt(r.get("score"), "g"),
                *(faults.get(k, "-") for k in FAULTS), fmt(r.get("least_left"), ".3f"),
                fmt(r.get("ms_per_move"), ".0f"),
                fmt(mem["peak_kb"] / 1024 if mem else None, ".0f"), fmt(mem.get("growth_kb"), "d"),
                r["log_bytes"], f"{r['seconds'] / 60:.1f}", r["status"]]
        print("| " + " | ".join(str(c) for c in line) + " |")
    print()
    head = ["cell"] + [f"moves {lo}-{hi}" if hi < 10_000 else f"moves {lo}+" for lo, hi in CURVE]
    print("Ironwood's milliseconds a move by its move number:\n")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in played:
        print("| " + " | ".join([r["cell"], *(fmt(c, "d") for c in r["curve"])]) + " |")
    bad = [r for r in rows if any(r.get("faults", {}).values()) or r["status"] not in ("ok",)
           and not r["status"].startswith("skipped")]
    return 1 if bad else 0


def load_json(path):
    with open(path) as fh:
        return json.load(fh)


def main():
    global ENGINE_PATH, WINE_PROBLEM
    args = parse_args()
    ENGINE_PATH = os.path.abspath(args.engine)
    os.makedirs(args.out, exist_ok=True)
    todo = list(enumerate(cells(args), 1))
    if args.only:
        todo = [(n, c) for n, c in todo if n in args.only]
    kept = {}
    for number, cell in todo:
        if args.resume:
            done = [row for row in map(load_json, glob.glob(os.path.join(args.out, f"{number:02d}-*.cell.json")))
                    if row.get("plan") == cell and row.get("games")]
            if done:
                kept[number] = done[0]
    WINE_PROBLEM = None
    if any(c["engine"] == "wine" for n, c in todo if n not in kept):
        WINE_PROBLEM = prepare_wine(args, args.out)
    rows = []
    for number, cell in todo:
        if number in kept:
            rows.append(kept[number])
            continue
        row = play(args, cell, number)
        rows.append(row)
        print(f"done {number} {row['cell']}: {row.get('games', 0)} games in {row['seconds']} s, "
              f"{row['status']}", file=sys.stderr, flush=True)
    return report(rows, args.plan or f"{args.proto}, {' '.join(args.engine_options) or 'defaults'}")


ENGINE_PATH = ""
WINE_WRAPPER = ""
WINE_PROBLEM = None

if __name__ == "__main__":
    sys.exit(main())
