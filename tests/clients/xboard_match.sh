#!/usr/bin/env bash
# Source: adapted from shared/tools/xboard-match.sh (sha256 67a60f62...680dad) for
# tests/clients/run.sh: trimmed to XBoard-protocol engines (no UCI/polyglot, no handshake
# relay), adds -P (pondering) and makes the exit status strict (see below).
#
# Plays a short match in real XBoard 4.9, headless under Xvfb, then prints each game's
# result from the saved PGN and the protocol problems found in XBoard's debug log.
#
#   xboard_match.sh [-g N] [-t MIN:SEC] [-i INC] [-P] [-V VARIANT] -o DIR 'ENGINE COMMAND' 'OPPONENT COMMAND'
#
#   -g N      games (default 2; colours alternate, the first engine is White in game 1)
#   -t TC     base time per game, minutes[:seconds] (default 0:10)
#   -i INC    increment in seconds (default 0.1)
#   -P        pondering on for both engines (-ponderNextMove true)
#   -V NAME   play this variant (XBoard -variant; fischerandom draws a new start position each game)
#   -o DIR    output directory (required): games.pgn, xboard.debug, xboard.out
#   -T SECS   kill XBoard after this long (default: from the time control)
#
# Exit status 0 only when every game ended with a result, no game was lost by the first
# engine through a forfeit (time, illegal move, false claim, crash) and XBoard's debug log
# shows no protocol problem of the first engine; 3 when games are missing only because the
# opponent failed (crashed, stopped answering); 1 otherwise; 2 for usage errors.

set -u

usage() { sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }

GAMES=2 TC=0:10 INC=0.1 PONDER=false VARIANT=normal OUTDIR="" TIMEOUT=""
while [ $# -gt 0 ]; do
    case "$1" in
        -g) GAMES=$2; shift 2 ;;
        -t) TC=$2; shift 2 ;;
        -i) INC=$2; shift 2 ;;
        -P) PONDER=true; shift ;;
        -V) VARIANT=$2; shift 2 ;;
        -o) OUTDIR=$2; shift 2 ;;
        -T) TIMEOUT=$2; shift 2 ;;
        -h|--help) usage 0 ;;
        --) shift; break ;;
        -*) echo "xboard_match.sh: unknown option $1" >&2; usage 2 ;;
        *) break ;;
    esac
done
[ $# -eq 2 ] && [ -n "$OUTDIR" ] || usage 2
ENGINE1=$1 ENGINE2=$2

export PATH="$PATH:/usr/games:/usr/local/games"
for prog in xboard xvfb-run python3; do
    command -v "$prog" >/dev/null 2>&1 || { echo "xboard_match.sh: $prog not found" >&2; exit 2; }
done
case "$GAMES" in ''|*[!0-9]*) echo "xboard_match.sh: -g needs a number" >&2; exit 2 ;; esac

mkdir -p "$OUTDIR/tmp" "$OUTDIR/engines" || exit 2
OUTDIR=$(cd "$OUTDIR" && pwd)
PGN=$OUTDIR/games.pgn DEBUG=$OUTDIR/xboard.debug OUT=$OUTDIR/xboard.out
rm -f "$PGN" "$DEBUG" "$OUT"

ARGS=(-noGUI -fcp "$ENGINE1" -scp "$ENGINE2" -fd "$OUTDIR/engines" -sd "$OUTDIR/engines"
      -mg "$GAMES" -tc "$TC" -inc "$INC" -variant "$VARIANT"
      -sgf "$PGN" -debug -nameOfDebugFile "$DEBUG" -engineDebugOutput 1
      -autoCallFlag true -popupExitMessage false -popupMoveErrors false
      -saveSettingsOnExit false -settingsFile "$OUTDIR/xboardrc"
      -testClaims true -checkMates true -materialDraws true -ponderNextMove "$PONDER")

if [ -z "$TIMEOUT" ]; then
    # generous: base time and 150 moves of increment for both sides, plus start-up
    TIMEOUT=$(python3 -c "
tc='$TC'; inc=float('$INC')
m, _, s = tc.partition(':'); base = float(m) * 60 + (float(s) if s else 0)
print(int($GAMES * (2 * base + 300 * max(inc, 0) + 15) + 60))")
fi

echo "xboard_match: $GAMES game(s) of $VARIANT, tc $TC +${INC}s, pondering $PONDER, output in $OUTDIR"
echo "  first:  $ENGINE1"
echo "  second: $ENGINE2"
# A private TMPDIR keeps xvfb-run's auth files out of a shared /tmp.
TMPDIR="$OUTDIR/tmp" timeout -k 5 "$TIMEOUT" xvfb-run -a -s "-screen 0 1024x768x24" \
    xboard "${ARGS[@]}" > "$OUT" 2>&1
RC=$?
[ "$RC" = 124 ] && echo "xboard_match: XBoard killed after ${TIMEOUT}s"

python3 - "$PGN" "$DEBUG" "$OUT" "$GAMES" <<'PYEOF'
import re, sys

pgn_path, debug_path, out_path, games_wanted = sys.argv[1:5]
games_wanted = int(games_wanted)

def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read()
    except OSError:
        return ""

# ---- results from the PGN -------------------------------------------------
games = []
for chunk in re.split(r"\n(?=\[Event )", read(pgn_path).strip()):
    if not chunk.strip():
        continue
    tags = dict(re.findall(r'^\[(\w+) "(.*)"\]', chunk, re.M))
    body = "\n".join(l for l in chunk.splitlines() if not l.startswith("["))
    comments = re.findall(r"\{([^}]*)\}", body)
    reason = next((c for c in reversed(comments) if not re.match(r"^[-+]?\d|^book", c.strip())), "")
    plies = len(re.findall(r"(?<![\w.])(?:[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](?:=?[QRBN])?|O-O(?:-O)?)[+#]?",
                           re.sub(r"\{[^}]*\}", "", body)))
    games.append((tags.get("White", "?"), tags.get("Black", "?"), tags.get("Result", "*"), reason.strip(), plies))

# The first engine plays White in game 1 (XBoard alternates colours from there).
first_name = games[0][0] if games else "?"
print()
print(f"Games in {pgn_path}: {len(games)} of {games_wanted}")
problems = []   # (serious, text)
score = {}
for i, (w, b, res, reason, plies) in enumerate(games, 1):
    print(f"  {i:>2}. {w} - {b}  {res}  {{{reason}}}  ({plies} {'ply' if plies == 1 else 'plies'})")
    for name in (w, b):
        score.setdefault(name, [0, 0, 0])
    if res in ("1-0", "0-1"):
        winner, loser = (w, b) if res == "1-0" else (b, w)
        score[winner][0] += 1
        score[loser][2] += 1
        if re.search(r"time|flag|forfeit|illegal|false|crash|exit|disconnect|abort", reason, re.I):
            problems.append((loser == first_name, f"game {i}: {loser} lost by {reason!r}"))
    elif res == "1/2-1/2":
        score[w][1] += 1
        score[b][1] += 1
        if re.search(r"false|illegal|forfeit", reason, re.I):
            problems.append((True, f"game {i}: {reason!r}"))
    else:
        problems.append((True, f"game {i}: no result ({res})"))
for name, (wins, draws, losses) in score.items():
    print(f"  {name}: +{wins} ={draws} -{losses}")

# ---- protocol problems from the debug log -----------------------------------
debug = read(debug_path)
HARMLESS = {"computer", "name", "random", "result", "rating", "post", "nopost", "hard", "easy",
            "accepted", "rejected", "ics", "otim", "memory", "cores", "draw", "option", "egtpath"}
MOVE = re.compile(r"^([a-h][1-8][a-h][1-8][qrbnk]?|[KQRBNP]?[a-h]?[1-8]?x?[a-h][1-8](=?[QRBNqrbn])?[+#]?|O-O(-O)?)$")
def opponents(text):
    """XBoard names the engine a message is about: 'second' is the opponent."""
    return re.search(r"\bsecond\b", text, re.I) is not None

done = {}
min_time = {}
ponder_hits = 0
for line in debug.splitlines():
    m = re.match(r"^(\d+) ([<>])(first|second)\s*: ?(.*)$", line)
    if m:
        direction, who, text = m.group(2), m.group(3), m.group(4)
        done.setdefault(who, False)
        if direction == ">":
            t = re.match(r"time (\d+)$", text)
            if t:
                min_time[who] = min(min_time.get(who, 1 << 30), int(t.group(1)))
            continue
        if re.match(r"\s*feature\b.*\bdone=1", text):
            done[who] = True
        m2 = re.match(r"\s*(Error|Illegal move)\s*(\([^)]*\))?\s*:?\s*(\S*)", text)
        if m2:
            arg = m2.group(3)
            # The opponent's complaints about optional commands are harmless (as in the
            # shared script); the first engine must not complain at all.
            harmless = who == "second" and (arg in HARMLESS or (m2.group(1) == "Illegal move" and not MOVE.match(arg)))
            if not harmless:
                problems.append((who == "first", f"{who} engine: {text.strip()}"))
        if who == "first" and re.match(r"\s*(tellusererror|telluser)\b", text):
            problems.append((True, f"first engine: {text.strip()}"))
        continue
    if line.startswith("StartChildProcess"):
        continue
    m = re.match(r"^GameEnds\((\d+), (.*), (\d+)\)$", line)
    if m and m.group(2) != "(null)":
        if re.search(r"illegal|false|error|crash|exit|stall|forfeit|disconnect|protocol|timeout|sent", m.group(2), re.I):
            problems.append((not opponents(m.group(2)), f"game ended: {m.group(2)}"))
        continue
    if re.search(r"NON-COMPLIANT|out of turn|unexpected|broken pipe|killed|exited|timed out|not responding|"
                 r"Error writing|Error reading|Forfeit|False .*claim|Illegal move", line, re.I):
        problems.append((not opponents(line), f"xboard: {line.strip()}"))
for who, ok in done.items():
    if not ok:
        problems.append((who == "first", f"{who} engine never completed the feature handshake"))
if "first" not in done:
    problems.append((True, "the first engine never talked to XBoard"))
for line in read(out_path).splitlines():
    if line.startswith("xboard:") and "final score" not in line:
        problems.append((not opponents(line), line.strip()))
    if "panicked" in line:
        problems.append((True, f"stderr: {line.strip()}"))

if min_time:
    print("Least clock time sent: " + ", ".join(f"{w} {cs / 100:.2f} s" for w, cs in sorted(min_time.items())))
seen = set()
uniq = [(s, p) for s, p in problems if not (p in seen or seen.add(p))]
serious = [p for s, p in uniq if s]
other = [p for s, p in uniq if not s]
print(f"Protocol problems of the first engine in {debug_path}: {len(serious) if serious else 'none'}"
      + (f" (+{len(other)} of the opponent)" if other else ""))
for p in serious[:30] + [p + "   [opponent]" for p in other[:10]]:
    print("  " + p)
for line in read(out_path).splitlines():
    if "final score" in line:
        print(line.strip())
finished = sum(1 for g in games if g[2] in ("1-0", "0-1", "1/2-1/2"))
if finished == games_wanted and not serious:
    sys.exit(0)
# Games missing only because the opponent failed (it died, stopped answering) say nothing
# about the first engine: status 3 lets the caller play the match again.
opponent_failed = any(re.search(r"error (writing|reading)|exited|crash|killed|broken pipe|not responding", p, re.I)
                      for p in other)
sys.exit(3 if opponent_failed and not serious else 1)
PYEOF
