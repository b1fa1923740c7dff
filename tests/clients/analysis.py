#!/usr/bin/env python3
"""An analysis session through python-chess's XBoard client (chess.engine), for
tests/clients/run.sh.

    analysis.py ENGINE [ENGINE ARGS...]

Starts the engine once and, on a few positions (one reached by moves from the start, so the
client sends them as usermoves), runs:
  * engine.analysis(board) and reads its infos for 1 s and at least until depth 8: every info must carry depth,
    score and a PV whose moves are all legal (checked on the raw lines too); then stops it and
    measures how long the stop takes (".", "exit", ping -> pong);
  * engine.analysis(board, Limit(time=0.5)), which must end by itself;
  * engine.analyse(board, Limit(depth=6)), the one-shot form;
on the mate-in-2 position the score must become "mate in 2" with Ba3 first.  Afterwards the
engine must still play a legal move (engine.play) and quit with status 0.  No 'move' line
may appear during analysis, and python-chess must log no warning other than the 'stat01'
reply to its own '.' and its own rejection of sigterm=0.  Prints one line per check and exits 1 if any failed.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from typing import List

try:
    import chess
    import chess.engine
except ImportError:
    print("skipped: python-chess not installed (pip install 'chess>=1.11,<1.12')")
    sys.exit(3)

POSITIONS = [
    # (name, FEN, moves played from it in UCI, expected mate in N for the side to move, first PV move)
    ("start + 1.e4 e5 2.Nf3", chess.STARTING_FEN, ["e2e4", "e7e5", "g1f3"], None, None),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3pN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", [], None, None),
    # tests/data/mates.epd, mates.08: mate in 2, bm Ba3
    ("mate in 2", "n1N3br/2p1Bpkr/1pP2R1b/pP3Pp1/P5P1/1P1p4/p2P4/K7 w - - 0 1", [], 2, "e7a3"),
]
TARGET_DEPTH = 8
DEPTH_TIMEOUT = 15.0
STOP_LIMIT = 1.0
MIN_ANALYSIS = 1.0   # seconds of analysis before the stop, so it interrupts a real search


class Recording(chess.engine.XBoardProtocol):
    """XBoardProtocol that keeps the raw lines the engine sent."""

    def __init__(self) -> None:
        super().__init__()
        self.raw: List[str] = []

    def _line_received(self, line: str) -> None:
        self.raw.append(line)
        super()._line_received(line)


class Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: List[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


failures: List[str] = []


def check(ok: bool, text: str) -> None:
    print(f"  {'ok  ' if ok else 'FAIL'} {text}", flush=True)
    if not ok:
        failures.append(text)


def pv_legal(board: chess.Board, tokens: List[str]) -> bool:
    b = board.copy(stack=False)
    for tok in tokens:
        try:
            b.push_xboard(tok)
        except ValueError:
            return False
    return True


def raw_post_lines(lines: List[str]) -> List[List[str]]:
    out = []
    for line in lines:
        parts = line.split()
        if len(parts) >= 5 and all(p.lstrip("-").isdigit() for p in parts[:4]):
            out.append(parts[4:])
    return out


async def analyse_position(engine: chess.engine.Protocol, proto: Recording, name: str, fen: str,
                           moves: List[str], mate: int | None, first: str | None) -> None:
    board = chess.Board(fen)
    for mv in moves:
        board.push_uci(mv)
    game = object()
    print(f"{name}: {board.fen()}")

    # 1. Open-ended analysis, stopped by the client.
    start_raw = len(proto.raw)
    infos = []
    t0 = time.monotonic()
    analysis = await engine.analysis(board, game=game)
    reached = False
    try:
        while True:
            # Wait for the next info until the deadline: DEPTH_TIMEOUT for the target depth,
            # MIN_ANALYSIS once it is reached (a finished mate search may go quiet).
            left = (MIN_ANALYSIS if reached else DEPTH_TIMEOUT) - (time.monotonic() - t0)
            if left <= 0:
                break
            try:
                info = await asyncio.wait_for(analysis.get(), left)
            except asyncio.TimeoutError:
                break
            except chess.engine.AnalysisComplete:
                break
            infos.append(info)
            if info.get("depth", 0) >= TARGET_DEPTH and (mate is None or _is_mate(info, mate)):
                reached = True
    finally:
        t_stop = time.monotonic()
        analysis.stop()
        try:
            best = await asyncio.wait_for(analysis.wait(), 5)
        except asyncio.TimeoutError:
            best = None
        stop_time = time.monotonic() - t_stop
    with_all = [i for i in infos if "depth" in i and "score" in i and i.get("pv")]
    check(reached, f"analysis reached depth {TARGET_DEPTH}, stopped after {t_stop - t0:.2f} s "
                   f"({len(infos)} infos, last depth {infos[-1].get('depth') if infos else '-'})")
    check(len(with_all) == len(infos) and infos != [], f"every info has depth, score and pv ({len(with_all)} of {len(infos)})")
    last = infos[-1] if infos else {}
    if last:
        score = last["score"].relative if "score" in last else None
        pv = " ".join(m.uci() for m in last.get("pv", [])[:6])
        print(f"       last: depth {last.get('depth')} score {score} nodes {last.get('nodes')} pv {pv}")
    check(best is not None and stop_time < STOP_LIMIT, f"stop answered in {stop_time * 1000:.0f} ms "
                                                       f"(best move {best.move.uci() if best and best.move else None})")
    raw = proto.raw[start_raw:]
    posts = raw_post_lines(raw)
    bad = [" ".join(p) for p in posts if not pv_legal(board, p)]
    check(not bad and posts != [], f"all {len(posts)} raw thinking lines have legal PVs" + (f"; bad: {bad[:2]}" if bad else ""))
    moves_sent = [l for l in raw if l.startswith("move ")]
    check(not moves_sent, "no 'move' during analysis" + (f": {moves_sent}" if moves_sent else ""))
    if mate is not None:
        check(bool(last) and _is_mate(last, mate), f"score is mate in {mate}: {last.get('score')}")
        check(bool(last.get("pv")) and last["pv"][0].uci() == first, f"first PV move {first}")

    # 2. Analysis with a time limit ends by itself.
    t0 = time.monotonic()
    analysis = await engine.analysis(board, chess.engine.Limit(time=0.5), game=game)
    try:
        await asyncio.wait_for(analysis.wait(), 5)
        took = time.monotonic() - t0
        check(0.4 < took < 1.5, f"Limit(time=0.5) analysis ended after {took:.2f} s")
    except asyncio.TimeoutError:
        analysis.stop()
        check(False, "Limit(time=0.5) analysis did not end within 5 s")

    # 3. The one-shot form.
    info = await asyncio.wait_for(engine.analyse(board, chess.engine.Limit(depth=6), game=game), 20)
    check(info.get("depth", 0) >= 6 and "score" in info and bool(info.get("pv")),
          f"analyse(depth=6): depth {info.get('depth')} score {info.get('score')}")


def _is_mate(info: dict, n: int) -> bool:
    score = info.get("score")
    return score is not None and score.relative.mate() == n


async def main(cmd: List[str]) -> int:
    handler = Warnings()
    logging.getLogger("chess.engine").addHandler(handler)
    logging.getLogger("chess.engine").setLevel(logging.WARNING)
    logging.getLogger("chess.engine").propagate = False
    try:
        transport, engine = await asyncio.wait_for(Recording.popen(cmd, setpgrp=True), 10)
        await asyncio.wait_for(engine.initialize(), 10)
    except Exception as err:  # noqa: BLE001 - any start failure is a test failure
        print(f"FAIL cannot start {cmd}: {err}")
        return 1
    print(f"engine: {engine.id.get('name')}")
    try:
        for name, fen, moves, mate, first in POSITIONS:
            await analyse_position(engine, engine, name, fen, moves, mate, first)
        # The engine still plays after analysis.
        board = chess.Board()
        result = await asyncio.wait_for(engine.play(board, chess.engine.Limit(time=0.2)), 5)
        check(result.move in board.legal_moves, f"plays after analysis: {result.move}")
        await asyncio.wait_for(engine.ping(), 5)
    except Exception as err:  # noqa: BLE001
        check(False, f"{type(err).__name__}: {err}")
    finally:
        try:
            await asyncio.wait_for(engine.quit(), 5)
        except Exception:  # noqa: BLE001
            pass
    code = engine.returncode.result() if engine.returncode.done() else None
    if code is None:
        transport.kill()
    check(code == 0, f"engine exited with status {code}")
    # python-chess answers 'sigterm=0' with 'rejected sigterm' and a warning (its policy), and
    # warns about the 'stat01' reply to the '.' it sends itself when stopping an analysis.
    unexpected = [m for m in handler.messages if "stat01" not in m and "Rejecting feature sigterm" not in m]
    check(not unexpected, f"python-chess warnings: {len(unexpected)} unexpected, "
                          f"{len(handler.messages) - len(unexpected)} expected (stat01, sigterm)"
                          + (f": {unexpected[:3]}" if unexpected else ""))
    print(f"analysis: {'FAILED ' + str(len(failures)) if failures else 'all'} checks "
          f"{'' if failures else 'passed'}".rstrip())
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(asyncio.run(main(sys.argv[1:])))
