#!/usr/bin/env python3
"""Ironwood as a UCI engine under python-chess's UCI client (chess.engine.popen_uci), for
tests/it/clients/uci_clients.rs.

    uci.py ENGINE [--log-dir DIR] [--stockfish PATH] [--part PART ...]

PART (default: all): handshake games stockfish ponder analysis limits

  handshake  popen_uci: id name, the announced options (Hash, Threads, MultiPV, Ponder,
             Move Overhead, Clear Hash, Skill Level, EvalFile; no technique switch, as
             those are announced only with --tunables), configure() with them;
  games      2 games of Ironwood against itself at 2+0.05 through engine.play with clocks;
  stockfish  2 games against Stockfish at Skill Level 0 at 2+0.05 (skipped when no
             stockfish is found);
  ponder     1 game against itself with play(ponder=True) (go ponder / ponderhit / stop);
  analysis   engine.analysis(board, multipv=3) until depth 8: three lines with distinct,
             legal first moves, in score order within each depth (mid-iteration a line not
             yet searched again shows the last depth); then stopped (one bestmove); and
             analyse(Limit(depth=8), multipv=3) returning three infos;
  limits     go depth / nodes / movetime / mate / searchmoves through Limit and root_moves.

In every game Ironwood must never lose on time (the script keeps the clocks: the time from
`go` to `bestmove`), never send an illegal move, and every game must end by the rules or
reach 160 plies. A game whose only fault is an Ironwood time loss while the load average
exceeds the number of processors (other jobs starving the engine) is played once more, and
the output says so. python-chess must log no warning (an unexpected line on stdout would be
one). Prints one line per check and exits 1 if any failed, 3 if python-chess is missing.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import shutil
import sys
import time
from typing import List, Optional

try:
    import chess
    import chess.engine
except ImportError:
    print("skipped: python-chess not installed (pip install 'chess>=1.11,<1.12')")
    sys.exit(3)

OPENINGS = [
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
]
MAX_PLIES = 160
BASE = 2.0
INC = 0.05
# Time the client itself needs between a bestmove and its clock reading on a loaded machine.
MARGIN = 0.05
MATE_IN_2 = "n1N3br/2p1Bpkr/1pP2R1b/pP3Pp1/P5P1/1P1p4/p2P4/K7 w - - 0 1"  # bm Ba3 (e7a3)

failures: List[str] = []


def check(ok: bool, text: str) -> None:
    print(f"  {'ok  ' if ok else 'FAIL'} {text}", flush=True)
    if not ok:
        failures.append(text)


class Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: List[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


class Recording(chess.engine.UciProtocol):
    """UciProtocol that keeps the raw lines the engine sent."""

    def __init__(self) -> None:
        super().__init__()
        self.raw: List[str] = []

    def _line_received(self, line: str) -> None:
        self.raw.append(line)
        super()._line_received(line)


async def start(cmd: List[str]):
    transport, engine = await asyncio.wait_for(Recording.popen(cmd, setpgrp=True), 10)
    await asyncio.wait_for(engine.initialize(), 10)
    return transport, engine


async def stop_engine(transport, engine) -> Optional[int]:
    try:
        await asyncio.wait_for(engine.quit(), 5)
    except Exception:  # noqa: BLE001
        pass
    code = engine.returncode.result() if engine.returncode.done() else None
    if code is None:
        transport.kill()
    return code


async def handshake(cmd: List[str]) -> None:
    print("handshake")
    transport, engine = await start(cmd)
    name = engine.id.get("name", "")
    check(name.startswith("Ironwood"), f"id name: {name!r}")
    wanted = ["Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "Clear Hash", "Skill Level", "EvalFile"]
    missing = [o for o in wanted if o not in engine.options]
    check(not missing, f"options announced: {sorted(engine.options)}" + (f"; missing {missing}" if missing else ""))
    lab = [o for o in ["Null Move", "IID", "Search Driver", "Evaluation"] if o in engine.options]
    check(not lab, "no technique switch announced" + (f" (announced: {lab})" if lab else ""))
    mpv = engine.options.get("MultiPV")
    check(mpv is not None and mpv.type == "spin" and mpv.default == 1 and mpv.max >= 64,
          f"MultiPV is a spin 1..{mpv.max if mpv else '?'} defaulting to 1")
    await engine.configure({"Hash": 32, "Threads": 1, "Move Overhead": 50, "Skill Level": 20})
    await asyncio.wait_for(engine.ping(), 10)
    raw = list(engine.raw)
    check(all(l.split()[0] in ("id", "option", "uciok", "readyok", "info") for l in raw if l.strip()),
          f"only UCI lines on stdout ({len(raw)} lines)")
    code = await stop_engine(transport, engine)
    check(code == 0, f"quit with status {code}")


async def play_game(white, black, names, fen: str, ponder: bool = False):
    """Plays one game with the script's clocks; returns (result, faults of Ironwood)."""
    board = chess.Board(fen)
    clocks = {chess.WHITE: BASE, chess.BLACK: BASE}
    engines = {chess.WHITE: white, chess.BLACK: black}
    faults: List[str] = []
    flagged: Optional[chess.Color] = None
    least = BASE
    for engine in (white, black):
        await engine.ping()
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        side = board.turn
        engine = engines[side]
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                   white_inc=INC, black_inc=INC)
        t0 = time.monotonic()
        try:
            result = await asyncio.wait_for(engine.play(board, limit, ponder=ponder), clocks[side] + 5)
        except Exception as err:  # noqa: BLE001
            faults.append(f"{names[side]}: {type(err).__name__} {err}")
            break
        used = time.monotonic() - t0
        clocks[side] -= used
        if clocks[side] < -MARGIN:
            faults.append(f"{names[side]} lost on time ({clocks[side] * 1000:.0f} ms) at ply {board.ply()}")
            flagged = side
            break
        least = min(least, clocks[side]) if names[side].startswith("ironwood") else least
        clocks[side] += INC
        if result.move is None or result.move not in board.legal_moves:
            faults.append(f"{names[side]} illegal move {result.move} in {board.fen()}")
            break
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    if outcome:
        text = outcome.result()
    elif flagged is not None:
        # A loss on time is a result: the opponent's (a loaded machine starves it too) is
        # Ironwood's win, not a fault of Ironwood's.
        text = "0-1" if flagged == chess.WHITE else "1-0"
    else:
        text = "*" if faults else f"unfinished at {MAX_PLIES} plies"
    return text, faults, least, board.ply()


async def games(cmd: List[str], opponent: Optional[List[str]], count: int, ponder: bool, label: str,
                options: Optional[dict] = None) -> None:
    print(label)
    t1, a = await start(cmd)
    if opponent is None:
        t2, b = await start(cmd)
        other = "ironwood-2"
    else:
        t2, b = await asyncio.wait_for(chess.engine.popen_uci(opponent, setpgrp=True), 10)
        if options:
            await b.configure(options)
        other = os.path.basename(opponent[0])
    for n in range(count):
        fen = OPENINGS[n % len(OPENINGS)]
        if n % 2 == 0:
            pair, names = (a, b), {chess.WHITE: "ironwood", chess.BLACK: other}
        else:
            pair, names = (b, a), {chess.WHITE: other, chess.BLACK: "ironwood"}
        load = os.getloadavg()[0]
        result, faults, least, plies = await play_game(pair[0], pair[1], names, fen, ponder)
        own = [f for f in faults if f.startswith("ironwood")]
        if own and all("lost on time" in f for f in own) and overloaded():
            # Other jobs starving the engines for 100+ ms at a time (a real time-management
            # fault fails again): play it once more and say so.
            print(f"  note game {n + 1}: {own[0]} at load {load:.1f} on {os.cpu_count()} "
                  f"processors; playing it again", flush=True)
            result, faults, least, plies = await play_game(pair[0], pair[1], names, fen, ponder)
            own = [f for f in faults if f.startswith("ironwood")]
        check(not own and result != "*",
              f"game {n + 1}: {names[chess.WHITE]} - {names[chess.BLACK]} {result} in {plies} plies, "
              f"ironwood least time left {least * 1000:.0f} ms" + (f"; faults: {faults}" if faults else ""))
    raw = [l for l in a.raw if l.strip()]
    bestmoves = sum(1 for l in raw if l.startswith("bestmove"))
    stray = [l for l in raw if l.split()[0] not in ("id", "option", "uciok", "readyok", "info", "bestmove")]
    check(not stray, f"ironwood sent only UCI lines ({len(raw)} lines, {bestmoves} bestmoves)"
                     + (f"; stray: {stray[:3]}" if stray else ""))
    if ponder:
        hits = sum(1 for l in raw if l.startswith("bestmove") and " ponder " in l)
        check(hits > 0, f"ironwood proposed ponder moves ({hits})")
    for t, e in ((t1, a), (t2, b)):
        code = await stop_engine(t, e)
        if e is a:
            check(code == 0, f"ironwood quit with status {code}")


def overloaded() -> bool:
    return os.getloadavg()[0] > (os.cpu_count() or 1)


def first_moves(infos) -> List[chess.Move]:
    return [i["pv"][0] for i in infos if i.get("pv")]


async def analysis(cmd: List[str]) -> None:
    print("analysis (multipv 3)")
    transport, engine = await start(cmd)
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    start_raw = len(engine.raw)
    t0 = time.monotonic()
    done = False
    with await engine.analysis(board, multipv=3) as run:
        async def wait_depth() -> None:
            async for _ in run:
                lines = run.multipv
                if len(lines) == 3 and all(l.get("depth", 0) >= 8 for l in lines):
                    return
        try:
            await asyncio.wait_for(wait_depth(), 30)
            done = True
        except asyncio.TimeoutError:
            pass
        lines = list(run.multipv)
        run.stop()
        t_stop = time.monotonic()
        best = await asyncio.wait_for(run.wait(), 5)
        stop_ms = (time.monotonic() - t_stop) * 1000
    check(done, f"three lines reached depth 8 in {time.monotonic() - t0:.1f} s")
    moves = first_moves(lines)
    check(len(set(moves)) == 3, f"distinct first moves {[m.uci() for m in moves]}")
    legal = all(chess.Board(board.fen()).is_legal(m) for m in moves)
    pv_ok = True
    for line in lines:
        b = board.copy()
        for m in line.get("pv", []):
            if m not in b.legal_moves:
                pv_ok = False
                break
            b.push(m)
    check(legal and pv_ok, "every PV is legal")
    # Mid-iteration, lines not yet searched again keep the last depth's score: the order
    # holds among the exact lines of each depth.
    by_depth = {}
    for l in lines:
        if not l.get("lowerbound") and not l.get("upperbound"):
            by_depth.setdefault(l.get("depth"), []).append(l["score"].relative.score(mate_score=100000))
    check(all(s == sorted(s, reverse=True) for s in by_depth.values()),
          f"scores in order within each depth {by_depth}")
    check(best is not None and best.move in board.legal_moves and stop_ms < 1000,
          f"stop answered with bestmove {best.move if best else None} in {stop_ms:.0f} ms")
    raw = engine.raw[start_raw:]
    check(sum(1 for l in raw if l.startswith("bestmove")) == 1, "exactly one bestmove for the go")
    multipv_numbers = {tok for l in raw if l.startswith("info") and " multipv " in l
                       for tok in [l.split(" multipv ")[1].split()[0]]}
    check(multipv_numbers == {"1", "2", "3"}, f"info lines for multipv {sorted(multipv_numbers)}")
    fields = [l for l in raw if l.startswith("info depth") and " pv " in l]
    needed = ["seldepth", "multipv", "score", "nodes", "nps", "hashfull", "tbhits", "time", "pv"]
    complete = [l for l in fields if all(f" {k} " in l for k in needed)]
    check(fields and len(complete) == len(fields), f"{len(complete)} of {len(fields)} info lines carry {' '.join(needed)}")
    infos = await asyncio.wait_for(engine.analyse(board, chess.engine.Limit(depth=8), multipv=3), 30)
    check(isinstance(infos, list) and len(infos) == 3 and all(i.get("depth", 0) >= 8 for i in infos),
          f"analyse(depth 8, multipv 3): {len(infos) if isinstance(infos, list) else infos} lines")
    # Back to one line (python-chess sets MultiPV itself): multipv 1 only.
    mark = len(engine.raw)
    await asyncio.wait_for(engine.analyse(board, chess.engine.Limit(depth=6)), 30)
    ones = {l.split(" multipv ")[1].split()[0] for l in engine.raw[mark:] if " multipv " in l}
    check(ones == {"1"}, f"MultiPV 1 gives one line: {sorted(ones)}")
    code = await stop_engine(transport, engine)
    check(code == 0, f"quit with status {code}")


async def limits(cmd: List[str]) -> None:
    print("limits")
    transport, engine = await start(cmd)
    board = chess.Board()
    info = await asyncio.wait_for(engine.analyse(board, chess.engine.Limit(depth=5)), 20)
    check(info.get("depth") == 5, f"go depth 5 ends at depth {info.get('depth')}")
    t0 = time.monotonic()
    result = await asyncio.wait_for(engine.play(board, chess.engine.Limit(time=0.3)), 5)
    took = time.monotonic() - t0
    check(result.move in board.legal_moves and 0.2 < took < 0.6, f"go movetime 300: {result.move} after {took * 1000:.0f} ms")
    info = await asyncio.wait_for(engine.analyse(board, chess.engine.Limit(nodes=20000)), 20)
    check(info.get("nodes", 0) <= 40000, f"go nodes 20000: {info.get('nodes')} nodes")
    mate = chess.Board(MATE_IN_2)
    result = await asyncio.wait_for(engine.play(mate, chess.engine.Limit(mate=2), info=chess.engine.INFO_SCORE), 30)
    score = result.info.get("score")
    check(result.move == chess.Move.from_uci("e7a3") and score is not None and score.relative.mate() == 2,
          f"go mate 2: {result.move} score {score}")
    only = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h3")]
    info = await asyncio.wait_for(engine.analyse(board, chess.engine.Limit(depth=6), root_moves=only), 20)
    check(info.get("pv") and info["pv"][0] in only, f"searchmoves a2a3 h2h3: pv starts {info.get('pv', [None])[0]}")
    code = await stop_engine(transport, engine)
    check(code == 0, f"quit with status {code}")


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("engine")
    parser.add_argument("--log-dir")
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games"))
    parser.add_argument("--part", action="append")
    args = parser.parse_args()
    cmd = [args.engine] + (["--log-dir", args.log_dir] if args.log_dir else [])
    parts = args.part or ["handshake", "games", "stockfish", "ponder", "analysis", "limits"]
    handler = Warnings()
    logging.getLogger("chess.engine").addHandler(handler)
    logging.getLogger("chess.engine").setLevel(logging.WARNING)
    logging.getLogger("chess.engine").propagate = False
    for part in parts:
        try:
            if part == "handshake":
                await handshake(cmd)
            elif part == "games":
                await games(cmd, None, 2, False, "games against itself at 2+0.05")
            elif part == "stockfish":
                if not args.stockfish:
                    print("stockfish: skipped: stockfish not found")
                    continue
                await games(cmd, [args.stockfish], 2, False, "games against Stockfish (Skill Level 0) at 2+0.05",
                            {"Skill Level": 0, "Threads": 1, "Hash": 16})
            elif part == "ponder":
                await games(cmd, None, 1, True, "a pondering game against itself at 2+0.05")
            elif part == "analysis":
                await analysis(cmd)
            elif part == "limits":
                await limits(cmd)
            else:
                check(False, f"unknown part {part}")
        except Exception as err:  # noqa: BLE001 - any exception is a failed part
            check(False, f"{part}: {type(err).__name__}: {err}")
    check(not handler.messages, f"python-chess warnings: {len(handler.messages)}"
                                + (f": {handler.messages[:3]}" if handler.messages else ""))
    print(f"uci: {'FAILED ' + str(len(failures)) if failures else 'all'} checks {'' if failures else 'passed'}".rstrip())
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
