#!/usr/bin/env python3
# Source: copied from shared/tools/match.py (match.py 1.0, sha256 9865bd33...fd1c4) for
# tests/clients/run.sh.  Local changes, marked "ironwood:": the engine key ponder=1 makes
# python-chess play that engine with ponder=True (it sends "hard" and lets it ponder); XBoard
# options python-chess manages itself (MultiPV, Ponder) stay out of its target config; Chess960
# (--variant), fixed depth and node controls (--tc depth=N, nodes=N) and each engine process's
# resident memory after every game (/proc/PID/status: VmRSS, VmHWM) for scripts/clock_sweep.py.
"""match.py - play real games between chess engines and measure them.

Engines speak the WinBoard/XBoard protocol (CECP, protocol 2) or UCI and are
driven through python-chess's chess.engine module.  The runner keeps the
clocks itself, forfeits engines that lose on time, play illegal moves, crash,
stop answering or break the protocol, adjudicates finished games, and prints
W/D/L, score, Elo difference with a 95% error bar and error counts per pair.

Example:
    match.py --engine name=fairymax cmd=fairymax proto=xboard \\
             --engine name=gnuchess cmd='gnuchess --xboard' proto=xboard \\
             --openings test_openings.epd --games 4 --tc 10+0.1 --pgn out.pgn

Run with --help for all options; README.md beside this file explains more.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import dataclasses
import datetime
import json
import logging
import math
import os
import random
import re
import shlex
import shutil
import signal
import socket
import sys
import time
from typing import Any, Dict, List, Optional, Tuple

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:  # pragma: no cover - depends on the machine
    sys.stderr.write("match.py needs python-chess: pip install 'chess>=1.11,<1.12'\n")
    sys.exit(2)

VERSION = "1.0"

# Debian installs its chess engines into /usr/games, which is often not on
# PATH for non-login shells.  Engine commands are looked up there too.
EXTRA_PATH_DIRS = ["/usr/games", "/usr/local/games"]

LOG = logging.getLogger("match")

# --------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------


def now() -> float:
    return time.monotonic()


def fmt_secs(s: float) -> str:
    s = max(0, int(round(s)))
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def search_path() -> str:
    parts = os.environ.get("PATH", "").split(os.pathsep)
    for d in EXTRA_PATH_DIRS:
        if os.path.isdir(d) and d not in parts:
            parts.append(d)
    return os.pathsep.join(p for p in parts if p)


def resolve_command(argv: List[str], cwd: Optional[str]) -> List[str]:
    """Return argv with argv[0] resolved to an absolute executable path."""
    exe = argv[0]
    if os.sep in exe:
        path = exe if os.path.isabs(exe) else os.path.join(cwd or os.getcwd(), exe)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise SetupError(f"engine executable not found or not executable: {path}")
        return [path] + argv[1:]
    found = shutil.which(exe, path=search_path())
    if not found:
        raise SetupError(f"engine executable {exe!r} not found on PATH (also searched {', '.join(EXTRA_PATH_DIRS)})")
    return [found] + argv[1:]


class SetupError(Exception):
    """A problem with the command line or the environment (exit status 2)."""


# --------------------------------------------------------------------------
# Time controls and clocks
# --------------------------------------------------------------------------


def _parse_seconds(text: str) -> float:
    """'60', '1:30', '0.5' -> seconds."""
    if ":" in text:
        mins, secs = text.split(":", 1)
        return int(mins) * 60 + float(secs)
    return float(text)


@dataclasses.dataclass
class TimeControl:
    moves: int = 0        # moves per session, 0 = whole game (sudden death / increment)
    base: float = 0.0     # seconds per session
    inc: float = 0.0      # seconds added after every move
    st: float = 0.0       # fixed seconds per move (exclusive with the others)
    depth: int = 0        # ironwood: fixed depth per move (exclusive with the others)
    nodes: int = 0        # ironwood: fixed nodes per move (exclusive with the others)
    text: str = ""

    @property
    def fixed(self) -> bool:
        """A depth or node limit: no clock, so no time forfeits (only hangs)."""
        return bool(self.depth or self.nodes)

    @classmethod
    def parse(cls, text: str) -> "TimeControl":
        t = text.strip().lower()
        try:
            m = re.fullmatch(r"(depth|nodes)=(\d+)", t)  # ironwood: fixed depth and nodes
            if m:
                n = int(m.group(2))
                if n <= 0:
                    raise ValueError
                return cls(depth=n, text=text) if m.group(1) == "depth" else cls(nodes=n, text=text)
            m = re.fullmatch(r"st[=:]?(\d+(?:\.\d+)?)", t)
            if m:
                st = float(m.group(1))
                if st <= 0:
                    raise ValueError
                return cls(st=st, text=text)
            moves = 0
            if "/" in t:
                mv, t = t.split("/", 1)
                moves = int(mv)
                if moves <= 0:
                    raise ValueError
            inc = 0.0
            if "+" in t:
                t, inc_s = t.split("+", 1)
                inc = float(inc_s)
            base = _parse_seconds(t)
            if base <= 0 or inc < 0:
                raise ValueError
            return cls(moves=moves, base=base, inc=inc, text=text)
        except ValueError:
            raise SetupError(f"bad time control {text!r}: use e.g. 40/60, 10+0.1, 1:00+1, 40/60+0.5, st=1, "
                             "depth=8 or nodes=20000")

    def pgn(self) -> str:
        """TimeControl tag value (PGN standard: moves/seconds, base+inc)."""
        def num(x: float) -> str:
            return f"{x:g}"
        if self.st:
            return f"1/{num(self.st)}"
        if self.fixed:
            return "-"
        s = num(self.base) + (f"+{num(self.inc)}" if self.inc else "")
        return f"{self.moves}/{s}" if self.moves else s

    def describe(self) -> str:
        if self.st:
            return f"{self.st:g} s per move"
        if self.depth:
            return f"depth {self.depth} per move"
        if self.nodes:
            return f"{self.nodes} nodes per move"
        parts = []
        parts.append(f"{self.moves} moves in {self.base:g} s" if self.moves else f"{self.base:g} s")
        if self.inc:
            parts.append(f"+{self.inc:g} s/move")
        return " ".join(parts)


# ironwood: a depth or node search longer than this counts as a time forfeit; XBoard engines
# also get it as `st`, the time limit a GUI sends beside `sd`.
FIXED_LIMIT_CEILING = 60.0


class Clock:
    """One side's clock, kept by the runner from measured wall time."""

    def __init__(self, tc: TimeControl):
        self.tc = tc
        self.left = tc.base
        self.moves_in_session = 0
        self.used = 0.0
        self.moves = 0
        self.min_left = math.inf  # smallest (budget - elapsed) seen, seconds

    def budget(self) -> float:
        """Seconds the engine may use for the move about to be played."""
        if self.tc.fixed:
            return FIXED_LIMIT_CEILING
        return self.tc.st if self.tc.st else max(self.left, 0.0)

    def remaining_moves(self) -> Optional[int]:
        if self.tc.st or self.tc.fixed or not self.tc.moves:
            return None
        return self.tc.moves - self.moves_in_session

    def charge(self, elapsed: float) -> float:
        """Subtract a move's time; return the overrun (elapsed - budget)."""
        budget = self.budget()
        overrun = elapsed - budget
        self.used += elapsed
        self.moves += 1
        self.min_left = min(self.min_left, -overrun)
        if self.tc.st or self.tc.fixed:
            return overrun
        self.left -= elapsed
        return overrun

    def finish_move(self) -> None:
        """Called after an accepted move: clamp, add increment, new session."""
        if self.tc.st or self.tc.fixed:
            return
        self.left = max(self.left, 0.0) + self.tc.inc
        if self.tc.moves:
            self.moves_in_session += 1
            if self.moves_in_session >= self.tc.moves:
                self.moves_in_session = 0
                self.left += self.tc.base


# --------------------------------------------------------------------------
# Engine specifications
# --------------------------------------------------------------------------


@dataclasses.dataclass
class EngineSpec:
    name: str
    cmd: List[str]
    proto: str = "xboard"
    options: Dict[str, str] = dataclasses.field(default_factory=dict)
    cwd: Optional[str] = None
    nudge: bool = True            # xboard: send 'ping' if the handshake stalls
    ponder: bool = False          # ironwood: ponder, play(..., ponder=True)
    init_lines: List[str] = dataclasses.field(default_factory=list)

    @classmethod
    def parse(cls, tokens: List[str]) -> "EngineSpec":
        fields: Dict[str, str] = {}
        options: Dict[str, str] = {}
        init_lines: List[str] = []
        for tok in tokens:
            if "=" not in tok:
                raise SetupError(f"--engine: expected key=value, got {tok!r}")
            key, value = tok.split("=", 1)
            if key.startswith("option."):
                options[key[len("option."):]] = value
            elif key == "init":
                init_lines.append(value)
            elif key in ("name", "cmd", "proto", "dir", "nudge", "ponder"):  # ironwood: ponder
                fields[key] = value
            else:
                raise SetupError(f"--engine: unknown key {key!r} (known: name cmd proto dir nudge ponder init option.X)")
        if "cmd" not in fields:
            raise SetupError("--engine: cmd=COMMAND is required")
        cmd = shlex.split(fields["cmd"])
        if not cmd:
            raise SetupError("--engine: empty cmd")
        proto = fields.get("proto", "xboard").lower()
        if proto in ("cecp", "winboard", "wb"):
            proto = "xboard"
        if proto not in ("xboard", "uci"):
            raise SetupError(f"--engine: proto must be xboard or uci, got {proto!r}")
        name = fields.get("name") or os.path.basename(cmd[0])
        nudge = fields.get("nudge", "1").lower() not in ("0", "off", "false", "no")
        ponder = fields.get("ponder", "0").lower() not in ("0", "off", "false", "no")  # ironwood: ponder
        return cls(name=name, cmd=cmd, proto=proto, options=options, cwd=fields.get("dir"),
                   nudge=nudge, init_lines=init_lines, ponder=ponder)  # ironwood: ponder


# --------------------------------------------------------------------------
# Protocol layer: python-chess protocols with instrumentation and the
# compatibility shims a real GUI such as XBoard also applies.
# --------------------------------------------------------------------------

XB_ERROR = re.compile(r"^\s*(Error|Illegal move)\s*(\(([^()]*)\))?\s*:\s*(.*)$")
# Protocol-1 style move announcement, still accepted by XBoard: "12. ... e7e5"
LEGACY_MOVE = re.compile(r"^\s*\d+\s*\.\s*\.\.\.\s+(\S+)\s*$")
XB_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
MOVE_LIKE = re.compile(r"^([a-h][1-8][a-h][1-8][qrbnk]?|[KQRBNP]?[a-h]?[1-8]?x?[a-h][1-8](=?[QRBNqrbn])?[+#]?|O-O(-O)?|0-0(-0)?|@@@@)$")
# Commands whose "Error (unknown command)" reply is harmless.
HARMLESS_UNKNOWN = {"accepted", "rejected", "random", "name", "rating", "computer", "post", "nopost",
                    "hard", "easy", "result", "otim", "memory", "cores", "draw", "ics", "xboard",
                    "protover", "egtpath", "option"}
XB_KNOWN_TOKENS = {"feature", "move", "pong", "Hint:", "resign", "offer", "tellics", "tellicsnoalias",
                   "telluser", "tellusererror", "tellopponent", "tellothers", "tellall", "askuser",
                   "Error", "Illegal", "setup", "pieceToCharTable", "reset", "highlight", "click",
                   "1-0", "0-1", "1/2-1/2", "*"}
UCI_KNOWN_TOKENS = {"id", "uciok", "readyok", "option", "info", "bestmove", "copyprotection", "registration"}


class DebugLog:
    """Optional protocol transcript, one line per message, like XBoard's -debug."""

    def __init__(self, path: Optional[str]):
        self.fh = open(path, "w", encoding="utf-8", errors="replace") if path else None
        self.t0 = now()

    def write(self, who: str, direction: str, line: str) -> None:
        if self.fh:
            self.fh.write(f"{now() - self.t0:10.3f} {who} {direction} {line}\n")

    def note(self, text: str) -> None:
        if self.fh:
            self.fh.write(f"{now() - self.t0:10.3f} -- {text}\n")
            self.fh.flush()

    def close(self) -> None:
        if self.fh:
            self.fh.close()
            self.fh = None


class Instrumented:
    """Mixin for python-chess protocols: timestamps, counters, transcript."""

    label = "?"
    debug: Optional[DebugLog] = None

    def _instr_setup(self, label: str, debug: Optional[DebugLog]) -> None:
        self.label = label
        self.debug = debug
        self.t_go: Optional[float] = None
        self.t_reply: Optional[float] = None
        self.extra_lines = 0
        self.extra_samples: List[str] = []
        self.stderr_lines = 0
        self.tolerated_errors: List[str] = []
        self.reported_errors: List[str] = []
        self.claims: List[str] = []
        self.lines_in = 0
        self.lines_out = 0

    def _note_extra(self, line: str) -> None:
        self.extra_lines += 1
        if len(self.extra_samples) < 5 and line.strip():
            self.extra_samples.append(line.strip()[:80])

    def mark_turn(self) -> None:
        self.t_go = None
        self.t_reply = None
        self.claims = []

    def elapsed(self) -> Optional[float]:
        if self.t_go is not None and self.t_reply is not None and self.t_reply >= self.t_go:
            return self.t_reply - self.t_go
        return None

    def error_line_received(self, line: str) -> None:  # stderr
        self.stderr_lines += 1
        if self.debug:
            self.debug.write(self.label, "2>", line)


XB_OPTION = re.compile(r"^(.*?)\s+-(button|save|reset|check|string|spin|slider|combo|file|path)(?:\s+(.*))?$")


def parse_xboard_option(text: str) -> Optional[chess.engine.Option]:
    """Parse the value of feature option="NAME -TYPE ..." (names may contain spaces)."""
    m = XB_OPTION.match(text.strip())
    if not m:
        return None
    name, kind, rest = m.group(1).strip(), m.group(2), (m.group(3) or "").strip()
    try:
        if kind in ("button", "save", "reset"):
            return chess.engine.Option(name, kind, None, None, None, None)
        if kind == "check":
            return chess.engine.Option(name, "check", bool(int(rest.split()[0])), None, None, None)
        if kind in ("spin", "slider"):
            v, lo, hi = (int(x) for x in rest.split()[:3])
            return chess.engine.Option(name, "spin", v, lo, hi, None)
        if kind == "combo":
            choices = [c.strip() for c in rest.split("///") if c.strip()]
            default = next((c[1:] for c in choices if c.startswith("*")), None)
            choices = [c[1:] if c.startswith("*") else c for c in choices]
            return chess.engine.Option(name, "combo", default if default is not None else (choices[0] if choices else ""),
                                       None, None, choices)
        return chess.engine.Option(name, kind, rest, None, None, None)
    except (ValueError, IndexError):
        return None


def _is_post_line(line: str) -> bool:
    """Thinking output: depth score time nodes [more integers] pv."""
    parts = line.split()
    if len(parts) < 4:
        return False
    return all(re.fullmatch(r"[-+]?\d+[.&]?", p) for p in parts[:4])


class XBoardEngineProtocol(Instrumented, chess.engine.XBoardProtocol):
    """XBoard protocol with the shims a GUI needs for real-world engines.

    * setboard=0 engines (Fairy-Max) get positions through edit mode;
    * "N. ... MOVE" move announcements (GNU Chess 6) are accepted like XBoard does;
    * "Error (unknown command): post" and similar harmless complaints are
      counted but do not abort the game;
    * unparseable feature lines are counted as protocol errors instead of
      raising inside the event loop.
    """

    def __init__(self, label: str = "?", debug: Optional[DebugLog] = None):
        super().__init__()
        self._instr_setup(label, debug)
        self.native_setboard = True
        self.legacy_moves = 0
        self.edit_setups = 0
        self.bad_features: List[str] = []
        self.xb_options: List[chess.engine.Option] = []
        self.features_seen = False
        self.done_seen = False
        self.t_last_feature = 0.0
        self.pongs = 0

    def inject_line(self, line: str) -> None:
        """Feed python-chess a line as if the engine had sent it (not counted)."""
        if self.debug:
            self.debug.write(self.label, "..", f"(runner) {line}")
        chess.engine.Protocol._line_received(self, line)

    def fix_options(self) -> None:
        """Replace python-chess's option table, which splits option names at
        spaces ("Resign Threshold -spin ..."), with our own parse."""
        keep = {k: v for k, v in self.options.items()
                if k in ("random", "computer", "name", "engine_rating", "opponent_rating", "memory", "cores")
                or k.startswith("egtpath ")}
        for key in list(self.config):
            if key not in keep:
                del self.config[key]
        for key in list(self.target_config):
            if key not in keep:
                del self.target_config[key]
        for opt in self.xb_options:
            keep[opt.name] = opt
            if opt.default is not None:
                self.config[opt.name] = opt.default
                # ironwood: python-chess sets MultiPV and Ponder itself and refuses them here.
                if not opt.is_managed():
                    self.target_config[opt.name] = opt.default
        self.options = keep

    # -- outgoing -----------------------------------------------------------
    def send_line(self, line: str) -> None:
        if line.startswith("setboard ") and not self.native_setboard:
            self.edit_setups += 1
            for sub in self._edit_commands(line[len("setboard "):]):
                self._raw_send(sub)
            return
        self._raw_send(line)

    def _raw_send(self, line: str) -> None:
        if line == "go":
            self.t_go = now()
            self.t_reply = None
        self.lines_out += 1
        if self.debug:
            self.debug.write(self.label, "<<", line)
        super().send_line(line)

    def setup_game(self, board: chess.Board, game: object, opponent: chess.engine.Opponent) -> None:
        """Start a new game in the engine without starting its clock."""
        self._new(board, game, {}, opponent)

    def _edit_commands(self, fen: str) -> List[str]:
        """CECP edit-mode setup for engines without setboard."""
        board = chess.Board(fen)
        out: List[str] = []
        if board.turn == chess.BLACK:
            # 'edit' keeps the side to move; make any white move first.
            prefix = "usermove " if self.features.get("usermove", 0) else ""
            out.append(prefix + "a2a3")
        out += ["edit", "#"]
        for color in (chess.WHITE, chess.BLACK):
            if color == chess.BLACK:
                out.append("c")
            for sq, piece in sorted(board.piece_map().items()):
                if piece.color == color:
                    out.append(piece.symbol().upper() + chess.square_name(sq))
        out.append(".")
        return out

    # -- incoming -----------------------------------------------------------
    def _line_received(self, line: str) -> None:
        t = now()
        self.lines_in += 1
        if self.debug:
            self.debug.write(self.label, ">>", line)
        stripped = line.strip()
        token = stripped.split(None, 1)[0] if stripped else ""

        if token == "feature":
            try:
                items = shlex.split(stripped[len("feature"):])
            except ValueError:
                items = None
            if items is None or any("=" not in it for it in items):
                self.bad_features.append(stripped[:100])
                return
            self.features_seen = True
            self.t_last_feature = t
            for it in items:
                if it == "done=1":
                    self.done_seen = True
                if it.startswith("option="):
                    opt = parse_xboard_option(it[len("option="):])
                    if opt is None:
                        self.bad_features.append(it[:100])
                    else:
                        self.xb_options.append(opt)
            if re.search(r"(^|\s)setboard=0(\s|$)", stripped):
                self.native_setboard = False
                line = re.sub(r"(^|\s)setboard=0(?=\s|$)", r"\1setboard=1", line)
        else:
            m = LEGACY_MOVE.match(line)
            if m:
                self.legacy_moves += 1
                line = "move " + m.group(1)
                token = "move"

        if token == "pong":
            self.pongs += 1
        if token in ("move", "resign") or stripped.startswith("offer draw") or token in XB_RESULTS:
            if self.t_reply is None and self.t_go is not None:
                self.t_reply = t
        if token in XB_RESULTS:
            self.claims.append(stripped)

        m = XB_ERROR.match(line)
        if m:
            words = m.group(4).split()
            arg = words[0] if words else ""
            # Like XBoard: an error about a harmless command, or an "Illegal move"
            # reply whose argument is no move at all (Phalanx answers the
            # 'computer' command with "Illegal move: computer"), is ignored.
            if arg in HARMLESS_UNKNOWN or (m.group(1) == "Illegal move" and not MOVE_LIKE.match(arg)):
                self.tolerated_errors.append(stripped[:100])
                return
            self.reported_errors.append(stripped[:100])
        elif not stripped:
            self.extra_lines += 1
        elif token.startswith("#") or token.startswith("tell") or token in XB_KNOWN_TOKENS:
            pass
        elif not _is_post_line(stripped):
            self._note_extra(line)

        super()._line_received(line)


class UciEngineProtocol(Instrumented, chess.engine.UciProtocol):
    def __init__(self, label: str = "?", debug: Optional[DebugLog] = None):
        super().__init__()
        self._instr_setup(label, debug)

    def send_line(self, line: str) -> None:
        if line.startswith("go"):
            self.t_go = now()
            self.t_reply = None
        self.lines_out += 1
        if self.debug:
            self.debug.write(self.label, "<<", line)
        super().send_line(line)

    def _line_received(self, line: str) -> None:
        t = now()
        self.lines_in += 1
        if self.debug:
            self.debug.write(self.label, ">>", line)
        stripped = line.strip()
        token = stripped.split(None, 1)[0] if stripped else ""
        if token == "bestmove" and self.t_reply is None and self.t_go is not None:
            self.t_reply = t
        if token not in UCI_KNOWN_TOKENS:
            self._note_extra(line)
        super()._line_received(line)


# --------------------------------------------------------------------------
# Engine processes
# --------------------------------------------------------------------------


class EngineFailure(Exception):
    """An engine misbehaved; kind is one of FAIL_KINDS."""

    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


FAIL_KINDS = ("time", "illegal", "crash", "hang", "protocol")
FAIL_LABEL = {"time": "time forfeits", "illegal": "illegal moves", "crash": "crashes",
              "hang": "no answer", "protocol": "protocol errors"}

LIVE_ENGINES: "set[EngineProcess]" = set()
MAX_ENGINES_PER_WORKER = 6


def process_memory(pid: Optional[int]) -> Dict[str, int]:
    """ironwood: the process's resident memory now and at its peak (kB) with its PID, so that
    growth shows across the games one process plays; empty where /proc has no such process."""
    if not pid:
        return {}
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as fh:
            fields = dict(line.split(":", 1) for line in fh if ":" in line)
        return {"pid": pid, "rss_kb": int(fields["VmRSS"].split()[0]),
                "hwm_kb": int(fields["VmHWM"].split()[0])}
    except (OSError, KeyError, ValueError, IndexError):
        return {}


def _kill_group(pid: Optional[int]) -> None:
    if not pid:
        return
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass


try:  # Linux: engines get SIGKILL if this process dies without cleaning up
    import ctypes
    _LIBC = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None
except (ImportError, OSError):  # pragma: no cover
    _LIBC = None


def _child_setup() -> None:
    # Runs in the engine process between fork and exec.  GNU Chess and Sjeng
    # spin at 100% CPU once stdin is closed, so orphans must not survive.
    if _LIBC is not None:
        _LIBC.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


@atexit.register
def _kill_leftovers() -> None:
    for eng in list(LIVE_ENGINES):
        _kill_group(eng.pid)
    LIVE_ENGINES.clear()


class EngineProcess:
    """One running engine process, reused across games until it fails."""

    def __init__(self, spec: EngineSpec, label: str, debug: Optional[DebugLog], cfg: "Config"):
        self.spec = spec
        self.label = label
        self.debug = debug
        self.cfg = cfg
        self.transport: Optional[asyncio.SubprocessTransport] = None
        self.proto: Any = None
        self.pid: Optional[int] = None
        self.startup_time = 0.0
        self.nudges = 0
        self.protover_resends = 0
        self.broken = False
        self.merged = False

    @property
    def alive(self) -> bool:
        return self.proto is not None and not self.proto.returncode.done() and not self.broken

    def exit_code(self) -> Optional[int]:
        if self.proto is not None and self.proto.returncode.done():
            return self.proto.returncode.result()
        return None

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        spec = self.spec
        cls = XBoardEngineProtocol if spec.proto == "xboard" else UciEngineProtocol
        t0 = now()
        if self.debug:
            self.debug.note(f"{self.label}: starting {' '.join(shlex.quote(c) for c in spec.cmd)}")
        env = dict(os.environ)
        env["PATH"] = search_path()
        try:
            self.transport, self.proto = await loop.subprocess_exec(
                lambda: cls(self.label, self.debug), *spec.cmd, cwd=spec.cwd, env=env,
                process_group=0, preexec_fn=_child_setup if _LIBC is not None else None)
        except OSError as err:
            raise EngineFailure("crash", f"cannot start {spec.cmd[0]}: {err}")
        self.pid = self.transport.get_pid()
        LIVE_ENGINES.add(self)
        init = asyncio.ensure_future(self.proto.initialize())
        deadline = t0 + self.cfg.start_timeout
        try:
            if spec.proto == "xboard":
                await self._xboard_handshake(init, deadline)
            await asyncio.wait_for(init, max(0.01, deadline - now()))
        except asyncio.TimeoutError:
            silent = spec.proto == "xboard" and not getattr(self.proto, "features_seen", True)
            await self.kill()
            raise EngineFailure("hang", f"no {'feature reply to protover 2' if silent else 'protocol handshake'} "
                                        f"within {self.cfg.start_timeout:g} s")
        except chess.engine.EngineTerminatedError as err:
            await self.kill()
            raise EngineFailure("crash", f"died during startup ({err})")
        except chess.engine.EngineError as err:
            got_features = bool(getattr(self.proto, "features_seen", True))
            await self.kill()
            if spec.proto == "xboard" and not got_features:
                raise EngineFailure("hang", "no feature reply to 'protover 2'")
            raise EngineFailure("protocol", f"handshake failed: {err}")
        finally:
            if not init.done():
                init.cancel()
        if isinstance(self.proto, XBoardEngineProtocol):
            self.proto.fix_options()
        # Options.
        try:
            opts = self._typed_options()
            if opts:
                await asyncio.wait_for(self.proto.configure(opts), 5)
            for raw in spec.init_lines:
                self.proto.send_line(raw)
        except SetupError:
            await self.kill()
            raise
        except chess.engine.EngineError as err:
            await self.kill()
            raise SetupError(f"engine {spec.name}: {err}")
        except asyncio.TimeoutError:
            await self.kill()
            raise EngineFailure("hang", "no answer while setting options")
        self.startup_time = now() - t0

    async def _xboard_handshake(self, init: "asyncio.Future[None]", deadline: float) -> None:
        """Drive the CECP feature handshake with a GUI's patience.

        python-chess ends the handshake 2 s after 'protover 2' unless the engine
        has sent 'done=0'.  A loaded machine or a stalling engine (GNU Chess 6
        says nothing until more input arrives) needs longer, so the runner holds
        the handshake open (as if done=0 had been sent), pings a silent engine
        every 0.3 s, and lets it finish 2 s after the last feature line for
        engines that never send done=1.
        """
        proto = self.proto
        for _ in range(100):
            if proto.command is not None or init.done():
                break
            await asyncio.sleep(0)
        if init.done():
            return
        proto.inject_line("feature done=0")
        last_resend = now()
        while not init.done() and now() < deadline and not proto.returncode.done():
            await asyncio.wait([init], timeout=min(0.3, max(0.01, deadline - now())))
            if init.done():
                break
            if not proto.features_seen:
                if not self.spec.nudge:
                    continue
                if proto.pongs >= 2 and self.protover_resends < 3 and now() - last_resend > 1.0:
                    # It answers pings but has swallowed 'protover 2' (GNU Chess
                    # does this now and then): ask again.
                    self.protover_resends += 1
                    last_resend = now()
                    proto.send_line("protover 2")
                else:
                    self.nudges += 1
                    proto.send_line(f"ping {9000 + self.nudges}")
            elif not proto.done_seen:
                if now() - proto.t_last_feature > 2.0:
                    proto.inject_line("feature done=1")
                elif self.spec.nudge and self.nudges:
                    # Output of a stalling engine may also need a push.
                    self.nudges += 1
                    proto.send_line(f"ping {9000 + self.nudges}")

    def _typed_options(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        for key, value in self.spec.options.items():
            opt = None
            for name, o in self.proto.options.items():
                if name.lower() == key.lower():
                    opt, key = o, name
                    break
            if opt is None:
                known = ", ".join(sorted(self.proto.options)) or "none"
                raise SetupError(f"engine {self.spec.name}: unknown option {key!r} (engine offers: {known})")
            if opt.is_managed():
                # ironwood: python-chess refuses to set MultiPV and Ponder itself (it sets
                # them per search); a GUI sends them once, as here.
                self.proto.send_line(f"setoption name {key} value {value}" if self.spec.proto == "uci"
                                     else f"option {key}={value}")
            elif opt.type == "check":
                out[key] = value.strip().lower() not in ("0", "false", "off", "no", "")
            elif opt.type == "spin":
                try:
                    out[key] = int(value)
                except ValueError:
                    raise SetupError(f"engine {self.spec.name}: option {key} needs an integer, got {value!r}")
            elif opt.type in ("button", "reset", "save"):
                out[key] = None
            else:
                out[key] = value
        return out

    async def ping(self, timeout: float) -> None:
        try:
            await asyncio.wait_for(self.proto.ping(), timeout)
        except asyncio.TimeoutError:
            raise EngineFailure("hang", f"no reply to ping within {timeout:g} s")
        except chess.engine.EngineTerminatedError as err:
            raise EngineFailure("crash", str(err))
        except chess.engine.EngineError as err:
            raise EngineFailure("protocol", str(err))

    async def send_result(self, board: chess.Board, winner: Optional[bool], ending: str) -> None:
        if not self.alive:
            return
        ending = re.sub(r"[{}\r\n]", "", ending)
        try:
            await asyncio.wait_for(self.proto.send_game_result(board, winner, ending), 2.0)
        except Exception:  # a result message is a courtesy; a bad reply marks the engine for restart
            self.broken = True

    async def quit(self, timeout: float = 1.5) -> None:
        if self.proto is None:
            return
        if not self.proto.returncode.done():
            try:
                await asyncio.wait_for(self.proto.quit(), timeout)
            except Exception:
                pass
        await self.kill()

    async def kill(self) -> None:
        # SIGKILL the engine's whole process group (engines such as polyglot
        # run children of their own).
        if self.pid and self in LIVE_ENGINES:
            _kill_group(self.pid)
        LIVE_ENGINES.discard(self)
        if self.transport is not None:
            try:
                self.transport.close()
            except Exception:
                pass
        if self.proto is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self.proto.returncode), 2.0)
            except Exception:
                pass
        self.broken = True

    def stats(self) -> Dict[str, Any]:
        p = self.proto
        if p is None:
            return {}
        d = {"extra_lines": p.extra_lines, "stderr_lines": p.stderr_lines,
             "tolerated_errors": len(p.tolerated_errors), "nudges": self.nudges,
             "protover_resends": self.protover_resends,
             "startup_time": self.startup_time, "extra_samples": list(p.extra_samples)}
        if isinstance(p, XBoardEngineProtocol):
            d.update(legacy_moves=p.legacy_moves, edit_setups=p.edit_setups,
                     bad_features=len(p.bad_features), native_setboard=p.native_setboard)
        return d


# --------------------------------------------------------------------------
# Games
# --------------------------------------------------------------------------


@dataclasses.dataclass
class Config:
    tc: TimeControl
    margin: float = 0.05
    stall_timeout: float = 5.0
    start_timeout: float = 10.0
    resign_adj: Optional[Tuple[int, int]] = None        # (moves, cp)
    draw_adj: Optional[Tuple[int, int, int]] = None     # (after move, moves, cp)
    max_moves: int = 0
    draw_offers: bool = True
    restart: str = "on-error"
    event: str = "match.py"


@dataclasses.dataclass
class Job:
    number: int
    round: int
    pair: Tuple[str, str]
    white: str
    black: str
    opening_index: int
    opening: chess.Board


@dataclasses.dataclass
class GameRecord:
    number: int
    round: int
    pair: Tuple[str, str]
    white: str
    black: str
    opening_index: int
    fen: str
    result: str = "*"
    termination: str = ""
    reason: str = ""
    loser_fault: Optional[str] = None       # engine name that forfeited
    fault_kind: Optional[str] = None        # one of FAIL_KINDS
    fault_detail: str = ""
    plies: int = 0
    duration: float = 0.0
    time_used: Dict[str, float] = dataclasses.field(default_factory=dict)
    moves_made: Dict[str, int] = dataclasses.field(default_factory=dict)
    depth_sum: Dict[str, int] = dataclasses.field(default_factory=dict)
    depth_n: Dict[str, int] = dataclasses.field(default_factory=dict)
    min_left: Dict[str, float] = dataclasses.field(default_factory=dict)
    clock_left: Dict[str, float] = dataclasses.field(default_factory=dict)
    memory: Dict[str, Dict[str, int]] = dataclasses.field(default_factory=dict)  # ironwood: per engine
    pgn: str = ""


def score_white_cp(score: Optional[chess.engine.PovScore]) -> Optional[int]:
    if score is None:
        return None
    return score.white().score(mate_score=100000)


def score_text(score: Optional[chess.engine.PovScore], turn: bool) -> Optional[str]:
    if score is None:
        return None
    rel = score.pov(turn)
    if rel.is_mate():
        m = rel.mate()
        return f"{'+' if m > 0 else '-'}M{abs(m)}"
    cp = rel.score()
    return f"{cp / 100:+.2f}"


def rules_outcome(board: chess.Board) -> Optional[Tuple[str, str, str]]:
    """(result, termination, reason) when the rules end the game."""
    if board.is_checkmate():
        winner = not board.turn
        return ("1-0" if winner else "0-1", "normal", f"{'White' if winner else 'Black'} mates")
    if board.is_stalemate():
        return ("1/2-1/2", "normal", "Stalemate")
    if board.is_insufficient_material():
        return ("1/2-1/2", "normal", "Insufficient mating material")
    if board.is_fifty_moves():
        return ("1/2-1/2", "normal", "Draw by fifty-move rule")
    if board.is_repetition(3):
        return ("1/2-1/2", "normal", "Draw by 3-fold repetition")
    return None


class Adjudicator:
    def __init__(self, cfg: Config):
        self.cfg = cfg
        self.evals: List[Optional[int]] = []   # white-relative cp per ply, None when unknown

    def add(self, cp_white: Optional[int]) -> None:
        self.evals.append(cp_white)

    def check(self, board: chess.Board) -> Optional[Tuple[str, str, str]]:
        cfg = self.cfg
        if cfg.resign_adj:
            n, cp = cfg.resign_adj
            window = self.evals[-2 * n:]
            if len(window) == 2 * n and all(e is not None for e in window):
                if all(e > cp for e in window):
                    return ("1-0", "adjudication", f"Resign adjudication: both engines see White ahead by more than {cp} cp")
                if all(e < -cp for e in window):
                    return ("0-1", "adjudication", f"Resign adjudication: both engines see Black ahead by more than {cp} cp")
        if cfg.draw_adj:
            after, n, cp = cfg.draw_adj
            window = self.evals[-2 * n:]
            if board.fullmove_number > after and len(window) == 2 * n and \
                    all(e is not None and abs(e) < cp for e in window):
                return ("1/2-1/2", "adjudication", f"Draw adjudication: |score| < {cp} cp for {n} moves")
        if cfg.max_moves and board.ply() >= 2 * cfg.max_moves:
            return ("1/2-1/2", "adjudication", f"Draw adjudication: game reached {cfg.max_moves} moves")
        return None


def color_name(c: bool) -> str:
    return "White" if c else "Black"


async def play_game(job: Job, engines: Dict[bool, EngineProcess], cfg: Config) -> GameRecord:
    """Play one game between two started engines."""
    rec = GameRecord(number=job.number, round=job.round, pair=job.pair, white=job.white, black=job.black,
                     opening_index=job.opening_index, fen=job.opening.fen())
    names = {chess.WHITE: job.white, chess.BLACK: job.black}
    board = job.opening.copy(stack=False)
    clocks = {chess.WHITE: Clock(cfg.tc), chess.BLACK: Clock(cfg.tc)}
    adj = Adjudicator(cfg)
    comments: List[str] = []
    moves: List[chess.Move] = []
    game_id = f"game-{job.number}-{id(board)}"
    first_move = {chess.WHITE: True, chess.BLACK: True}
    offer_pending = False
    depth_sum = {chess.WHITE: 0, chess.BLACK: 0}
    depth_n = {chess.WHITE: 0, chess.BLACK: 0}
    t_start = now()
    result = termination = reason = None
    fault: Optional[Tuple[bool, EngineFailure]] = None

    # Set up the game in XBoard engines (new, name, computer, force, setboard)
    # and make both engines answer a ping before any clock starts, as XBoard does.
    for side in (chess.WHITE, chess.BLACK):
        proto = engines[side].proto
        try:
            if isinstance(proto, XBoardEngineProtocol):
                proto.setup_game(board, game_id,
                                 chess.engine.Opponent(name=names[not side], title=None, rating=None, is_engine=True))
                first_move[side] = False
            await engines[side].ping(cfg.start_timeout)
        except EngineFailure as f:
            fault = (side, f)
            break
        except chess.engine.EngineError as err:
            fault = (side, EngineFailure("protocol", f"game setup failed: {err}"))
            break

    while fault is None:
        outcome = rules_outcome(board)
        if outcome is None:
            outcome = adj.check(board)
        if outcome:
            result, termination, reason = outcome
            break

        side = board.turn
        eng = engines[side]
        clock = clocks[side]
        proto = eng.proto
        if cfg.tc.depth:
            ceiling = FIXED_LIMIT_CEILING if isinstance(proto, XBoardEngineProtocol) else None
            limit = chess.engine.Limit(depth=cfg.tc.depth, time=ceiling, clock_id=game_id)
        elif cfg.tc.nodes:
            limit = chess.engine.Limit(nodes=cfg.tc.nodes, clock_id=game_id)
        elif cfg.tc.st:
            limit = chess.engine.Limit(time=cfg.tc.st if cfg.tc.st != int(cfg.tc.st) else int(cfg.tc.st),
                                       clock_id=game_id)
        else:
            wc, bc = clocks[chess.WHITE], clocks[chess.BLACK]
            limit = chess.engine.Limit(white_clock=max(wc.left, 0.0), black_clock=max(bc.left, 0.0),
                                       white_inc=cfg.tc.inc, black_inc=cfg.tc.inc,
                                       remaining_moves=clock.remaining_moves(), clock_id=game_id)
        opponent = None
        if first_move[side]:
            opponent = chess.engine.Opponent(name=names[not side], title=None, rating=None, is_engine=True)
            first_move[side] = False
        budget = clock.budget()
        wait = budget + cfg.margin + cfg.stall_timeout
        proto.mark_turn()
        t0 = now()
        play_result = None
        try:
            play_result = await asyncio.wait_for(
                proto.play(board, limit, game=game_id, info=chess.engine.INFO_SCORE,
                           draw_offered=offer_pending, opponent=opponent, ponder=eng.spec.ponder),  # ironwood: ponder
                wait)
        except asyncio.TimeoutError:
            # python-chess has sent "?" / "stop"; give the engine a moment to react.
            for _ in range(20):
                if proto.t_reply is not None or proto.returncode.done():
                    break
                await asyncio.sleep(0.05)
            eng.broken = True
            if proto.returncode.done():
                fault = (side, EngineFailure("crash", f"exited with code {eng.exit_code()} while thinking"))
            elif proto.t_reply is not None:
                fault = (side, EngineFailure("time", f"moved only after {now() - t0:.2f} s with {budget:.2f} s on the clock"))
            else:
                fault = (side, EngineFailure("hang", f"no move within {wait:.1f} s ({budget:.2f} s on the clock)"))
            break
        except chess.engine.EngineTerminatedError as err:
            fault = (side, EngineFailure("crash", f"{err}"))
            break
        except chess.engine.EngineError as err:
            eng.broken = True
            inner = err.args[0] if err.args else None
            if isinstance(inner, ValueError):
                fault = (side, EngineFailure("illegal", f"{inner}"))
            else:
                fault = (side, EngineFailure("protocol", f"{err}"))
            break
        except Exception as err:  # anything unexpected from the protocol layer
            eng.broken = True
            fault = (side, EngineFailure("protocol", f"{type(err).__name__}: {err}"))
            break

        elapsed = proto.elapsed()
        if elapsed is None:
            elapsed = now() - t0
        overrun = clock.charge(elapsed)
        if overrun > cfg.margin:
            fault = (side, EngineFailure("time", f"used {elapsed:.3f} s with {budget:.3f} s on the clock (over by {overrun * 1000:.0f} ms)"))
            break

        if play_result.resigned:
            result = "0-1" if side == chess.WHITE else "1-0"
            termination, reason = "normal", f"{color_name(side)} resigns"
            break

        move = play_result.move
        if move is None:
            claim = " ".join(proto.claims) if hasattr(proto, "claims") else ""
            if claim.startswith("1/2-1/2") and board.can_claim_draw():
                result, termination, reason = "1/2-1/2", "normal", f"Draw claimed by {color_name(side)}"
                break
            if offer_pending and play_result.draw_offered:
                result, termination, reason = "1/2-1/2", "normal", "Draw by agreement"
                break
            detail = f"false claim {claim!r}" if claim else "no move returned"
            fault = (side, EngineFailure("protocol", detail))
            eng.broken = True
            break
        if move not in board.legal_moves:  # python-chess already checks this; be safe
            fault = (side, EngineFailure("illegal", f"illegal move {move.uci()} in {board.fen()}"))
            eng.broken = True
            break

        clock.finish_move()
        info = play_result.info or {}
        score = info.get("score")
        depth = info.get("depth")
        if depth:
            depth_sum[side] += int(depth)
            depth_n[side] += 1
        adj.add(score_white_cp(score))
        parts = []
        st = score_text(score, side)
        if st is not None:
            parts.append(st + (f"/{depth}" if depth is not None else ""))
        parts.append(f"{elapsed:.3f}s")
        comments.append(" ".join(parts))
        moves.append(move)
        board.push(move)

        # Draw offers: an offer stands for the opponent's next move only.
        if play_result.draw_offered and cfg.draw_offers:
            if offer_pending:
                if rules_outcome(board) is None:
                    result, termination, reason = "1/2-1/2", "normal", "Draw by agreement"
                    break
                offer_pending = False
            else:
                offer_pending = True
        else:
            offer_pending = False

    if fault is not None:
        side, failure = fault
        rec.loser_fault = names[side]
        rec.fault_kind = failure.kind
        rec.fault_detail = failure.detail
        winner = not side
        # Losing on time against a lone king (or similar) is a draw.
        if failure.kind == "time" and board.has_insufficient_material(winner):
            result = "1/2-1/2"
        else:
            result = "1-0" if winner == chess.WHITE else "0-1"
        what = {"time": "loses on time", "illegal": "makes an illegal move", "crash": "crashed",
                "hang": "stopped answering", "protocol": "breaks the protocol"}[failure.kind]
        reason = f"{color_name(side)} {what}"
        if result == "1/2-1/2":
            reason += ", opponent cannot mate"
        termination = {"time": "time forfeit", "illegal": "rules infraction", "crash": "abandoned",
                       "hang": "abandoned", "protocol": "rules infraction"}[failure.kind]
        engines[side].broken = True

    rec.result = result or "*"
    rec.termination = termination or "unterminated"
    rec.reason = reason or ""
    rec.plies = len(moves)
    rec.duration = now() - t_start
    for side in (chess.WHITE, chess.BLACK):
        n = names[side]
        rec.time_used[n] = clocks[side].used
        rec.moves_made[n] = clocks[side].moves
        rec.depth_sum[n] = depth_sum[side]
        rec.depth_n[n] = depth_n[side]
        rec.min_left[n] = clocks[side].min_left
        rec.clock_left[n] = clocks[side].left if not (cfg.tc.st or cfg.tc.fixed) else 0.0

    # Tell engines the result (XBoard 'result' command), as a GUI would.
    winner = {"1-0": chess.WHITE, "0-1": chess.BLACK}.get(rec.result)
    for side in (chess.WHITE, chess.BLACK):
        if not engines[side].broken:
            await engines[side].send_result(board, winner, rec.reason)

    rec.pgn = make_pgn(job, rec, moves, comments, cfg)
    return rec


def make_pgn(job: Job, rec: GameRecord, moves: List[chess.Move], comments: List[str], cfg: Config) -> str:
    game = chess.pgn.Game()
    game.setup(job.opening)
    game.headers["Event"] = cfg.event
    game.headers["Site"] = socket.gethostname()
    game.headers["Date"] = datetime.date.today().strftime("%Y.%m.%d")
    game.headers["Round"] = f"{job.round}.{job.number}"
    game.headers["White"] = rec.white
    game.headers["Black"] = rec.black
    game.headers["Result"] = rec.result
    game.headers["TimeControl"] = cfg.tc.pgn()
    game.headers["Termination"] = rec.termination
    game.headers["PlyCount"] = str(rec.plies)
    game.headers["GameDuration"] = fmt_secs(rec.duration)
    game.headers["OpeningIndex"] = str(rec.opening_index + 1)
    node: chess.pgn.GameNode = game
    for mv, com in zip(moves, comments):
        node = node.add_variation(mv, comment=com)
    text = rec.reason
    if rec.fault_detail:
        text += f": {rec.fault_detail}"
    node.comment = (node.comment + " " if node.comment else "") + re.sub(r"[{}]", "", text)
    return str(game)


# --------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------


def elo_from_score(s: float) -> float:
    if s <= 0:
        return -math.inf
    if s >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0) + 0.0  # + 0.0 turns -0.0 into 0.0


def elo_stats(w: int, d: int, l: int) -> Dict[str, Optional[float]]:
    """Elo difference with 95% error bar (logistic model, trinomial variance)."""
    n = w + d + l
    if n == 0:
        return {"score": None, "elo": None, "error": None, "los": None}
    s = (w + 0.5 * d) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * (0 - s) ** 2) / n
    se = math.sqrt(var / n)
    lo, hi = s - 1.959964 * se, s + 1.959964 * se
    elo = elo_from_score(s)
    if 0 < lo and hi < 1:
        err: Optional[float] = (elo_from_score(hi) - elo_from_score(lo)) / 2
    else:
        err = math.inf
    los = 0.5 * (1 + math.erf((w - l) / math.sqrt(2.0 * (w + l)))) if (w + l) else 0.5
    return {"score": s, "elo": elo, "error": err, "los": los}


def fmt_elo(e: Optional[float]) -> str:
    if e is None:
        return "-"
    if math.isinf(e):
        return "+inf" if e > 0 else "-inf"
    return f"{round(e) + 0:+d}"


def fmt_err(e: Optional[float]) -> str:
    if e is None:
        return "-"
    if math.isinf(e) or math.isnan(e):
        return "inf"
    return f"{e:.0f}"


class Tally:
    def __init__(self, specs: List[EngineSpec], pairs: List[Tuple[str, str]]):
        self.records: List[GameRecord] = []
        self.pairs = pairs
        self.names = [s.name for s in specs]

    def add(self, rec: GameRecord) -> None:
        self.records.append(rec)

    def pair_stats(self, a: str, b: str) -> Dict[str, Any]:
        w = d = l = 0
        faults = {k: {a: 0, b: 0} for k in FAIL_KINDS}
        adjudicated = 0
        for r in self.records:
            if set(r.pair) != {a, b}:
                continue
            pa = 1.0 if (r.result == "1-0" and r.white == a) or (r.result == "0-1" and r.black == a) else \
                0.0 if r.result in ("1-0", "0-1") else 0.5 if r.result == "1/2-1/2" else None
            if pa is None:
                continue
            if pa == 1.0:
                w += 1
            elif pa == 0.0:
                l += 1
            else:
                d += 1
            if r.fault_kind:
                faults[r.fault_kind][r.loser_fault] += 1
            if r.termination == "adjudication":
                adjudicated += 1
        st = elo_stats(w, d, l)
        return {"engines": [a, b], "games": w + d + l, "wins": w, "draws": d, "losses": l,
                "score": st["score"], "elo": st["elo"], "elo_error95": st["error"], "los": st["los"],
                "faults": faults, "adjudicated": adjudicated}

    def memory_stats(self, name: str) -> Dict[str, Any]:
        """ironwood: the peak resident memory of the engine's processes and the largest growth
        of one process from after its first game to after its last (kB)."""
        first: Dict[int, int] = {}
        last: Dict[int, int] = {}
        peak = 0
        for r in sorted(self.records, key=lambda r: r.number):
            m = r.memory.get(name)
            if not m:
                continue
            first.setdefault(m["pid"], m["rss_kb"])
            last[m["pid"]] = m["rss_kb"]
            peak = max(peak, m["hwm_kb"])
        if not first:
            return {}
        growth = max(last[pid] - first[pid] for pid in first)
        return {"peak_kb": peak, "growth_kb": growth, "processes": len(first)}

    def engine_stats(self, name: str, procs_info: Dict[str, Dict[str, Any]]) -> Dict[str, Any]:
        w = d = l = 0
        faults = {k: 0 for k in FAIL_KINDS}
        time_used = 0.0
        moves = 0
        depth_sum = depth_n = 0
        min_left = math.inf
        for r in self.records:
            if name not in (r.white, r.black):
                continue
            if r.result == "1/2-1/2":
                d += 1
            elif (r.result == "1-0") == (r.white == name) and r.result in ("1-0", "0-1"):
                w += 1
            elif r.result in ("1-0", "0-1"):
                l += 1
            if r.loser_fault == name and r.fault_kind:
                faults[r.fault_kind] += 1
            time_used += r.time_used.get(name, 0.0)
            moves += r.moves_made.get(name, 0)
            depth_sum += r.depth_sum.get(name, 0)
            depth_n += r.depth_n.get(name, 0)
            if name in r.min_left and r.moves_made.get(name):
                min_left = min(min_left, r.min_left[name])
        n = w + d + l
        return {"name": name, "games": n, "wins": w, "draws": d, "losses": l,
                "score": (w + 0.5 * d) / n if n else None, "faults": faults,
                "moves": moves, "avg_move_time": time_used / moves if moves else None,
                "avg_depth": depth_sum / depth_n if depth_n else None,
                "min_time_left_ms": min_left * 1000 if moves else None,
                "memory": self.memory_stats(name),
                "process": procs_info.get(name, {})}


# --------------------------------------------------------------------------
# Tournament
# --------------------------------------------------------------------------


def chess960_starts(count: int, seed: Optional[int]) -> List[chess.Board]:
    """ironwood: `count` different Chess960 start positions drawn with `seed`."""
    numbers = random.Random(seed).sample(range(960), max(1, min(count, 960)))
    return [chess.Board.from_chess960_pos(n) for n in numbers]


def load_openings(path: Optional[str], chess960: bool = False) -> List[chess.Board]:
    if not path:
        return [chess.Board(chess960=chess960)]
    boards = []
    with open(path, encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, 1):
            line = raw.strip()
            if not line or line.startswith("#") or line.startswith(";"):
                continue
            board = None
            if line == "startpos":
                board = chess.Board(chess960=chess960)
            else:
                fields = line.split()
                try:
                    if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
                        board = chess.Board(" ".join(fields[:6]), chess960=chess960)
                    else:
                        board, _ops = chess.Board.from_epd(line, chess960=chess960)
                except ValueError as err:
                    raise SetupError(f"{path}:{lineno}: not a FEN/EPD position ({err})")
            if not board.is_valid():
                raise SetupError(f"{path}:{lineno}: invalid position: {board.status()!r}")
            if board.is_game_over():
                raise SetupError(f"{path}:{lineno}: position is already game over")
            boards.append(board)
    if not boards:
        raise SetupError(f"{path}: no positions found")
    return boards


def parse_adjudication(text: Optional[str], n: int, what: str) -> Optional[Tuple[int, ...]]:
    if text is None:
        return None
    try:
        vals = tuple(int(x) for x in text.split(":"))
    except ValueError:
        vals = ()
    if len(vals) != n or any(v < 0 for v in vals):
        raise SetupError(f"bad {what} adjudication {text!r}")
    return vals


class Tournament:
    def __init__(self, args: argparse.Namespace, specs: List[EngineSpec], openings: List[chess.Board], cfg: Config):
        self.args = args
        self.specs = {s.name: s for s in specs}
        self.order = [s.name for s in specs]
        self.openings = openings
        self.cfg = cfg
        self.debug = DebugLog(args.debug)
        if args.gauntlet:
            self.pairs = [(self.order[0], n) for n in self.order[1:]]
        else:
            self.pairs = [(self.order[i], self.order[j]) for i in range(len(self.order))
                          for j in range(i + 1, len(self.order))]
        self.tally = Tally(specs, self.pairs)
        self.jobs = self._schedule()
        self.proc_info: Dict[str, Dict[str, Any]] = {}
        self.pgn_fh = open(args.pgn, "a" if args.pgn_append else "w", encoding="utf-8") if args.pgn else None
        self.started = now()
        self.finished = 0

    def _schedule(self) -> List[Job]:
        args = self.args
        per_round = args.games if args.games else 2 * len(self.openings)
        total = per_round * args.rounds
        jobs = []
        number = 0
        for k in range(total):
            rnd = k // per_round + 1
            pair_idx = k // 2
            op_idx = pair_idx % len(self.openings)
            for a, b in self.pairs:
                white, black = (a, b) if k % 2 == 0 else (b, a)
                number += 1
                jobs.append(Job(number=number, round=rnd, pair=(a, b), white=white, black=black,
                                opening_index=op_idx, opening=self.openings[op_idx]))
        return jobs

    async def preflight(self) -> None:
        """Start every engine once to learn its name/features and check options."""
        for name in self.order:
            spec = self.specs[name]
            proc = EngineProcess(spec, f"{name}#check", self.debug, self.cfg)
            try:
                await proc.start()
            except EngineFailure as f:
                raise SetupError(f"engine {name} failed to start: {f}")
            p = proc.proto
            info: Dict[str, Any] = {"id": dict(p.id), "startup_time": proc.startup_time,
                                    "nudges_at_preflight": proc.nudges}
            if isinstance(p, XBoardEngineProtocol):
                info["features"] = {k: v for k, v in p.features.items()}
                info["native_setboard"] = p.native_setboard
                if not p.native_setboard:
                    info["features"]["setboard"] = 0  # as declared; we emulate it with edit mode
                if not p.native_setboard:
                    for i, b in enumerate(self.openings):
                        if b.fen() != chess.STARTING_FEN and (b.ep_square is not None or
                                                              b.castling_rights != _implied_castling(b)):
                            LOG.warning("%s has no setboard; opening %d uses castling/en-passant state that "
                                        "edit mode cannot express", name, i + 1)
            self.proc_info[name] = info
            await proc.quit()

    async def run(self) -> None:
        queue: asyncio.Queue[Job] = asyncio.Queue()
        for job in self.jobs:
            queue.put_nowait(job)
        workers = [asyncio.create_task(self._worker(i, queue)) for i in range(max(1, self.args.concurrency))]
        try:
            await asyncio.gather(*workers)
        finally:
            for w in workers:
                w.cancel()
            await asyncio.gather(*workers, return_exceptions=True)

    async def _worker(self, wid: int, queue: "asyncio.Queue[Job]") -> None:
        procs: Dict[str, EngineProcess] = {}
        try:
            while True:
                try:
                    job = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                rec = await self._run_job(wid, job, procs)
                self._record(rec)
        finally:
            await asyncio.gather(*(p.quit() for p in procs.values()), return_exceptions=True)
            self._merge_proc_stats(procs.values())

    async def _run_job(self, wid: int, job: Job, procs: Dict[str, EngineProcess]) -> GameRecord:
        try:
            return await self._run_job_inner(wid, job, procs)
        except (SetupError, asyncio.CancelledError):
            raise
        except Exception as err:  # a bug here must not take the other games down
            LOG.exception("internal error in game %d", job.number)
            for name in (job.white, job.black):
                p = procs.pop(name, None)
                if p is not None:
                    await p.quit()
                    self._merge_proc_stats([p])
            rec = GameRecord(number=job.number, round=job.round, pair=job.pair, white=job.white,
                             black=job.black, opening_index=job.opening_index, fen=job.opening.fen())
            rec.reason = f"internal error: {type(err).__name__}: {err}"
            rec.pgn = make_pgn(job, rec, [], [], self.cfg)
            return rec

    async def _run_job_inner(self, wid: int, job: Job, procs: Dict[str, EngineProcess]) -> GameRecord:
        # Keep idle engines for later games, but not too many per worker.
        idle = [n for n in procs if n not in (job.white, job.black)]
        while len(procs) > MAX_ENGINES_PER_WORKER - 2 and idle:
            p = procs.pop(idle.pop(0))
            await p.quit()
            self._merge_proc_stats([p])
        sides: Dict[bool, EngineProcess] = {}
        for side, name in ((chess.WHITE, job.white), (chess.BLACK, job.black)):
            proc = procs.get(name)
            if proc is not None and (not proc.alive or self.cfg.restart == "always"):
                await proc.quit()
                self._merge_proc_stats([proc])
                proc = None
                procs.pop(name, None)
            if proc is None:
                proc = EngineProcess(self.specs[name], f"{name}#{wid + 1}", self.debug, self.cfg)
                try:
                    await proc.start()
                except EngineFailure as f:
                    self._merge_proc_stats([proc])
                    return self._start_failure(job, side, f)
                procs[name] = proc
            procs[name] = procs.pop(name)  # most recently used last
            sides[side] = proc
        self.debug.note(f"game {job.number}: {job.white} vs {job.black}, opening {job.opening_index + 1}")
        rec = await play_game(job, sides, self.cfg)
        for side in (chess.WHITE, chess.BLACK):
            memory = process_memory(sides[side].pid)
            if memory:
                rec.memory[sides[side].spec.name] = memory
        for side in (chess.WHITE, chess.BLACK):
            proc = sides[side]
            if proc.broken or not proc.alive:
                await proc.quit()
                self._merge_proc_stats([proc])
                procs.pop(proc.spec.name, None)
        return rec

    def _start_failure(self, job: Job, side: bool, f: EngineFailure) -> GameRecord:
        names = {chess.WHITE: job.white, chess.BLACK: job.black}
        rec = GameRecord(number=job.number, round=job.round, pair=job.pair, white=job.white, black=job.black,
                         opening_index=job.opening_index, fen=job.opening.fen())
        rec.result = "0-1" if side == chess.WHITE else "1-0"
        rec.termination = "abandoned"
        rec.reason = f"{color_name(side)} failed to start"
        rec.loser_fault = names[side]
        rec.fault_kind = f.kind
        rec.fault_detail = f.detail
        rec.pgn = make_pgn(job, rec, [], [], self.cfg)
        return rec

    def _merge_proc_stats(self, procs) -> None:
        for p in procs:
            if p.merged:
                continue
            p.merged = True
            st = p.stats()
            if not st:
                continue
            agg = self.proc_info.setdefault(p.spec.name, {})
            agg["processes"] = agg.get("processes", 0) + 1
            for key in ("extra_lines", "stderr_lines", "tolerated_errors", "nudges", "protover_resends", "legacy_moves",
                        "edit_setups", "bad_features"):
                if key in st:
                    agg[key] = agg.get(key, 0) + st[key]
            if "native_setboard" in st:
                agg["native_setboard"] = st["native_setboard"]
            agg["startup_time_max"] = max(agg.get("startup_time_max", 0.0), st["startup_time"])
            samples = agg.setdefault("extra_samples", [])
            for line in st.get("extra_samples", []):
                if len(samples) < 5 and line not in samples:
                    samples.append(line)
            tol = agg.setdefault("tolerated_samples", [])
            for line in getattr(p.proto, "tolerated_errors", []):
                if len(tol) < 3 and line not in tol:
                    tol.append(line)

    def _record(self, rec: GameRecord) -> None:
        self.tally.add(rec)
        self.finished += 1
        if self.pgn_fh:
            self.pgn_fh.write(rec.pgn + "\n\n")
            self.pgn_fh.flush()
        a, b = rec.pair
        ps = self.tally.pair_stats(a, b)
        fault = f" [{rec.loser_fault}: {FAIL_LABEL[rec.fault_kind]}: {rec.fault_detail}]" if rec.fault_kind else ""
        print(f"Game {self.finished:>3}/{len(self.jobs)}  #{rec.number:<3} {rec.white} - {rec.black}  "
              f"{rec.result:<7} {{{rec.reason}}}  {rec.plies} plies, {rec.duration:.1f} s, opening {rec.opening_index + 1}"
              f"{fault}  | {a} vs {b}: +{ps['wins']} ={ps['draws']} -{ps['losses']}", flush=True)

    # -- reporting ------------------------------------------------------------
    def report(self, interrupted: bool = False) -> Dict[str, Any]:
        elapsed = now() - self.started
        print()
        status = "INTERRUPTED - " if interrupted else ""
        n = len(self.tally.records)
        print(f"{status}{n} of {len(self.jobs)} games in {fmt_secs(elapsed)}, time control {self.cfg.tc.text} "
              f"({self.cfg.tc.describe()}), concurrency {self.args.concurrency}")
        if n:
            avg = sum(r.duration for r in self.tally.records) / n
            print(f"Average game: {avg:.1f} s, {sum(r.plies for r in self.tally.records) / n:.0f} plies")
        print()
        pair_rows = [self.tally.pair_stats(a, b) for a, b in self.pairs]
        hdr = ["Pair", "Games", "W", "D", "L", "Score", "Elo diff", "95%", "LOS", "TimeF", "Illegal",
               "Crash", "NoAns", "Proto"]
        rows = []
        for ps in pair_rows:
            a, b = ps["engines"]
            f = ps["faults"]
            rows.append([f"{a} vs {b}", str(ps["games"]), str(ps["wins"]), str(ps["draws"]), str(ps["losses"]),
                         f"{ps['score'] * 100:.1f}%" if ps["score"] is not None else "-",
                         fmt_elo(ps["elo"]), ("±" + fmt_err(ps["elo_error95"])) if ps["games"] else "-",
                         f"{ps['los'] * 100:.0f}%" if ps["los"] is not None else "-",
                         *(f"{f[k][a]}/{f[k][b]}" for k in FAIL_KINDS)])
        print_table(hdr, rows)
        print("(W/D/L, score and Elo are from the first engine's side; error columns are first/second engine)")
        print()
        eng_rows = []
        engine_stats = [self.tally.engine_stats(nm, self.proc_info) for nm in self.order]
        hdr2 = ["Engine", "Games", "Score", "TimeF", "Illegal", "Crash", "NoAns", "Proto", "ms/move",
                "Depth", "MinLeft", "PeakMem", "Extra out", "Notes"]
        for es in engine_stats:
            pi = es["process"]
            notes = []
            if pi.get("nudges"):
                notes.append(f"{pi['nudges']} handshake nudges")
            if pi.get("protover_resends"):
                notes.append(f"'protover 2' resent {pi['protover_resends']}x")
            if pi.get("legacy_moves"):
                notes.append("'N. ... MOVE' replies")
            if pi.get("edit_setups") or pi.get("native_setboard") is False:
                notes.append("no setboard: edit mode")
            if pi.get("tolerated_errors"):
                notes.append(f"{pi['tolerated_errors']} harmless Error replies")
            if pi.get("stderr_lines"):
                notes.append(f"{pi['stderr_lines']} stderr lines")
            eng_rows.append([es["name"], str(es["games"]),
                             f"{es['score'] * 100:.1f}%" if es["score"] is not None else "-",
                             *(str(es["faults"][k]) for k in FAIL_KINDS),
                             f"{es['avg_move_time'] * 1000:.0f}" if es["avg_move_time"] is not None else "-",
                             f"{es['avg_depth']:.1f}" if es["avg_depth"] is not None else "-",
                             f"{es['min_time_left_ms']:.0f}ms" if es["min_time_left_ms"] is not None else "-",
                             f"{es['memory']['peak_kb'] / 1024:.0f}MB" if es["memory"] else "-",
                             str(pi.get("extra_lines", 0)), "; ".join(notes)])
        print_table(hdr2, eng_rows)
        print("(ms/move: average thinking time measured from 'go' to the move; MinLeft: least time left on the clock"
              " after a move, before the increment; negative = overstepped within the margin)")
        terms: Dict[str, int] = {}
        for r in self.tally.records:
            key = r.reason.split(":")[0] if r.termination in ("normal", "adjudication") else \
                f"forfeit: {FAIL_LABEL.get(r.fault_kind or '', r.termination)}"
            terms[key] = terms.get(key, 0) + 1
        if terms:
            print()
            print("Game endings: " + ", ".join(f"{k} {v}" for k, v in sorted(terms.items(), key=lambda kv: -kv[1])))
        return {
            "version": VERSION,
            "interrupted": interrupted,
            "time_control": {"text": self.cfg.tc.text, "moves": self.cfg.tc.moves, "base": self.cfg.tc.base,
                             "inc": self.cfg.tc.inc, "st": self.cfg.tc.st},
            "margin_ms": self.cfg.margin * 1000,
            "concurrency": self.args.concurrency,
            "duration": elapsed,
            "games_planned": len(self.jobs),
            "games_played": n,
            "engines": [{"name": s, "cmd": self.specs[s].cmd, "proto": self.specs[s].proto,
                         "options": self.specs[s].options} for s in self.order],
            "pairs": [_jsonable(ps) for ps in pair_rows],
            "engine_stats": [_jsonable(es) for es in engine_stats],
            "games": [_jsonable({k: v for k, v in dataclasses.asdict(r).items() if k != "pgn"})
                      for r in sorted(self.tally.records, key=lambda r: r.number)],
        }

    def close(self) -> None:
        if self.pgn_fh:
            self.pgn_fh.close()
        self.debug.close()


def _implied_castling(board: chess.Board) -> int:
    """Castling rights an engine infers from piece placement in edit mode."""
    rights = 0
    for color, king_sq, rooks in ((chess.WHITE, chess.E1, (chess.A1, chess.H1)),
                                  (chess.BLACK, chess.E8, (chess.A8, chess.H8))):
        if board.piece_at(king_sq) == chess.Piece(chess.KING, color):
            for r in rooks:
                if board.piece_at(r) == chess.Piece(chess.ROOK, color):
                    rights |= chess.BB_SQUARES[r]
    return rights


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, float):
        if math.isinf(obj) or math.isnan(obj):
            return None if math.isnan(obj) else ("inf" if obj > 0 else "-inf")
        return round(obj, 4)
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    return obj


def print_table(header: List[str], rows: List[List[str]]) -> None:
    widths = [max(len(header[i]), *(len(r[i]) for r in rows)) if rows else len(header[i]) for i in range(len(header))]
    def line(cells: List[str]) -> str:
        out = []
        for i, c in enumerate(cells):
            out.append(c.ljust(widths[i]) if i == 0 or i == len(cells) - 1 else c.rjust(widths[i]))
        return "  ".join(out).rstrip()
    print(line(header))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print(line(r))


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="match.py",
        description="Play chess engine matches (XBoard/CECP protocol 2 and UCI) with real clocks.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Engine keys: name=NAME cmd=COMMAND proto=xboard|uci [dir=DIR] [option.X=Y ...] "
               "[init=RAW_LINE ...] [nudge=0] [ponder=1]\n"
               "Example: match.py --engine name=fairymax cmd=fairymax --engine name=sf cmd=stockfish "
               "proto=uci 'option.Skill Level=1' --games 4 --tc 10+0.1")
    p.add_argument("--engine", action="append", nargs="+", metavar="KEY=VALUE", required=True,
                   help="an engine (give two or more)")
    p.add_argument("--openings", metavar="FILE", help="one FEN/EPD per line; each is played twice with colours swapped")
    p.add_argument("--openings-order", choices=("sequential", "random"), default="sequential")
    p.add_argument("--variant", choices=("standard", "fischerandom", "chess960"), default="standard",
                   help="fischerandom (= chess960): XBoard engines get 'variant fischerandom', UCI engines "
                        "UCI_Chess960; start positions from --openings (FENs) or drawn with --seed")
    p.add_argument("--seed", type=int, default=None, help="seed for --openings-order random")
    p.add_argument("--games", type=int, default=0,
                   help="games per pairing per round (default: 2 x number of openings)")
    p.add_argument("--rounds", type=int, default=1, help="repeat the schedule this many times (default 1)")
    p.add_argument("--gauntlet", action="store_true", help="first engine plays each of the others; default round robin")
    p.add_argument("--tc", default="10+0.1",
                   help="time control: 40/60, 10+0.1, 40/60+0.5, st=1, depth=8 or nodes=20000 (default 10+0.1)")
    p.add_argument("--margin", type=float, default=50.0, metavar="MS",
                   help="time-forfeit tolerance in milliseconds beyond the clock (default 50)")
    p.add_argument("--stall-timeout", type=float, default=5.0, metavar="S",
                   help="seconds past the clock before an engine counts as not answering (default 5)")
    p.add_argument("--start-timeout", type=float, default=10.0, metavar="S",
                   help="seconds allowed for the protocol handshake and pings (default 10)")
    p.add_argument("--concurrency", type=int, default=1, help="games played at once (default 1)")
    p.add_argument("--pgn", metavar="OUT", help="write games to this PGN file")
    p.add_argument("--pgn-append", action="store_true", help="append to --pgn instead of overwriting")
    p.add_argument("--json", metavar="OUT", help="write machine-readable results")
    p.add_argument("--debug", metavar="FILE", help="write a transcript of all engine I/O")
    p.add_argument("--adjudicate-resign", nargs="?", const="5:1000", metavar="MOVES:CP",
                   help="end the game when both engines' scores exceed CP for MOVES moves each (default 5:1000)")
    p.add_argument("--adjudicate-draw", nargs="?", const="40:8:10", metavar="AFTER:MOVES:CP",
                   help="draw after move AFTER when |score| < CP for MOVES moves each (default 40:8:10)")
    p.add_argument("--max-moves", type=int, default=0, help="adjudicate a draw at this move number (0 = never)")
    p.add_argument("--no-draw-offers", action="store_true", help="ignore engines' draw offers")
    p.add_argument("--restart", choices=("on-error", "always"), default="on-error",
                   help="restart engines for every game, or only after a failure (default)")
    p.add_argument("--no-preflight", action="store_true", help="skip the initial start of every engine")
    p.add_argument("--event", default="Engine match", help="PGN Event tag")
    p.add_argument("-q", "--quiet", action="store_true", help="no per-game lines")
    p.add_argument("-v", "--verbose", action="store_true", help="show python-chess warnings")
    p.add_argument("--version", action="version", version=f"%(prog)s {VERSION}")
    return p


async def amain(args: argparse.Namespace) -> int:
    specs = [EngineSpec.parse(toks) for toks in args.engine]
    if len(specs) < 2:
        raise SetupError("give at least two --engine")
    names = [s.name for s in specs]
    if len(set(names)) != len(names):
        raise SetupError(f"engine names must be unique: {names}")
    for s in specs:
        s.cmd = resolve_command(s.cmd, s.cwd)
    tc = TimeControl.parse(args.tc)
    chess960 = args.variant in ("fischerandom", "chess960")
    if chess960 and not args.openings:
        # each start position is played twice, colours swapped
        openings = chess960_starts(max(1, (args.games * args.rounds + 1) // 2), args.seed)
    else:
        openings = load_openings(args.openings, chess960)
    if args.openings_order == "random":
        random.Random(args.seed).shuffle(openings)
    if args.games < 0 or args.rounds < 1 or args.concurrency < 1:
        raise SetupError("--games must be >= 0, --rounds and --concurrency >= 1")
    cfg = Config(tc=tc, margin=args.margin / 1000.0, stall_timeout=args.stall_timeout,
                 start_timeout=args.start_timeout,
                 resign_adj=parse_adjudication(args.adjudicate_resign, 2, "resign"),  # type: ignore[arg-type]
                 draw_adj=parse_adjudication(args.adjudicate_draw, 3, "draw"),  # type: ignore[arg-type]
                 max_moves=args.max_moves, draw_offers=not args.no_draw_offers, restart=args.restart,
                 event=args.event)
    tour = Tournament(args, specs, openings, cfg)
    if args.quiet:
        tour._record = _quiet_record(tour)  # type: ignore[method-assign]
    print(f"match.py {VERSION}: {len(tour.jobs)} games, {len(tour.pairs)} pairing(s), "
          f"{len(openings)} opening(s), tc {tc.text} ({tc.describe()}), margin {args.margin:g} ms, "
          f"concurrency {args.concurrency}", flush=True)
    interrupted = False
    main_task = asyncio.current_task()
    loop = asyncio.get_running_loop()

    def on_signal() -> None:
        nonlocal interrupted
        interrupted = True
        if main_task is not None:
            main_task.cancel()

    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, on_signal)
        except (NotImplementedError, RuntimeError):
            pass
    try:
        try:
            if not args.no_preflight:
                await tour.preflight()
                for nm in tour.order:
                    info = tour.proc_info.get(nm, {})
                    ident = info.get("id", {}).get("name", "?")
                    print(f"  {nm}: {ident!s} ({tour.specs[nm].proto}), started in "
                          f"{info.get('startup_time', 0) * 1000:.0f} ms", flush=True)
            await tour.run()
        except asyncio.CancelledError:
            interrupted = True
        finally:
            for eng in list(LIVE_ENGINES):
                await eng.kill()
        result = tour.report(interrupted=interrupted)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as fh:
                json.dump(result, fh, indent=2)
                fh.write("\n")
    finally:
        tour.close()
    return 130 if interrupted else 0


def _quiet_record(tour: Tournament):
    def rec(r: GameRecord) -> None:
        tour.tally.add(r)
        tour.finished += 1
        if tour.pgn_fh:
            tour.pgn_fh.write(r.pgn + "\n\n")
            tour.pgn_fh.flush()
    return rec


def main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s: %(message)s")
    # python-chess warns about every non-protocol line; we count them instead.
    logging.getLogger("chess.engine").setLevel(logging.WARNING if args.verbose else logging.CRITICAL)
    try:
        return asyncio.run(amain(args))
    except SetupError as err:
        sys.stderr.write(f"match.py: error: {err}\n")
        return 2
    except KeyboardInterrupt:
        return 130
    finally:
        _kill_leftovers()


if __name__ == "__main__":
    sys.exit(main())
