#!/usr/bin/env bash
# Plays Ironwood under real chess clients and checks that nothing goes wrong:
#
#   tests/clients/run.sh ENGINE [PART...]   PART: xboard fischerandom games ponder analysis (default: all)
#
#   xboard    2 games in real XBoard 4.9 (headless under xvfb-run) against fairymax at
#             0:10+0.1 with pondering on and -testClaims; results read from the saved PGN,
#             XBoard's debug log must show no protocol problem of Ironwood (xboard_match.sh)
#   fischerandom  2 Chess960 games in real XBoard (-variant fischerandom: a new start position
#             each game, castling sent as O-O/O-O-O) between two Ironwoods at 0:10+0.1; same checks
#             (the installed Fairy-Max does not play fischerandom)
#   games     python-chess's XBoard client (match.py): 4 games at 2+0.02, 4 at st=0.1 and 2
#             at depth 4 against fairymax, 2 Chess960 games at 2+0.02 against Ironwood;
#             Ironwood's time forfeits, illegal moves, crashes, hangs and protocol errors
#             must all be 0, and its resident memory must have been measured
#   ponder    2 games at 2+0.02 through match.py with Ironwood pondering (python-chess
#             play(ponder=True): 'hard', then 'easy' before each of its moves); same checks,
#             and Ironwood's log must show ponder searches
#   analysis  an analysis session through python-chess's engine.analysis() (analysis.py)
#
# A games or ponder run whose only fault is a time forfeit is played once more when the load
# average exceeds the number of processors (other jobs starving the engine), and the xboard
# match once more when games are missing only because fairymax failed; the summary says so.
# fairymax runs through fairymax.sh, which keeps it from crashing on commands it does not know.
# ENGINE is the built binary (nothing is built here).  Output goes to a fresh temporary
# folder, removed on success and kept (and named) on failure; IRONWOOD_CLIENTS_KEEP=1 keeps it
# always.  A part whose programs are missing (xboard, xvfb-run, python3 with python-chess
# 'pip install chess', fairymax) prints "skipped: PROGRAM not found" and does not fail,
# unless the environment variable CI is set: then it fails (.ci/run installs them all).
# Every part also fails on an ERROR line in Ironwood's own logs.
# Exit status: 0 when no part failed, 1 otherwise, 2 for usage errors.

set -u

usage() { sed -n '2,32p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }
[ $# -ge 1 ] || usage 2
case "$1" in -h|--help) usage 0 ;; esac

HERE=$(cd "$(dirname "$0")" && pwd)
ENGINE=$1
shift
case "$ENGINE" in /*) ;; *) ENGINE="$PWD/$ENGINE" ;; esac
[ -x "$ENGINE" ] || { echo "run.sh: engine $ENGINE is not an executable file" >&2; exit 2; }
PARTS=${*:-xboard fischerandom games ponder analysis}
for part in $PARTS; do
    case "$part" in xboard|fischerandom|games|ponder|analysis) ;; *) echo "run.sh: unknown part $part" >&2; usage 2 ;; esac
done
OPENINGS=$HERE/../data/openings.epd
# fairymax through a wrapper that keeps it from crashing on commands it does not know
FAIRYMAX=$HERE/fairymax.sh

export PATH="$PATH:/usr/games:/usr/local/games"
OUT=$(mktemp -d "${TMPDIR:-/tmp}/ironwood-clients.XXXXXX") || exit 2
PASSED=0 FAILED=0 SKIPPED=0
SUMMARY=()

have() { command -v "$1" >/dev/null 2>&1; }
have_chess() { have python3 && python3 -c 'import chess, chess.engine' >/dev/null 2>&1; }

# missing PROGRAM... : the first missing one, or nothing
missing() {
    local p
    for p in "$@"; do
        case "$p" in
            python-chess) have_chess || { echo "python3 with python-chess (pip install chess)"; return; } ;;
            *) have "$p" || { echo "$p"; return; } ;;
        esac
    done
}

# not_found PART PROGRAM: a skip, or a failure under CI (CI set), which must install everything.
not_found() {
    if [ -n "${CI:-}" ]; then
        echo "== $1: FAIL: $2 not found (CI is set: .ci/run installs it)"
        record "$1" FAIL "$2 not found (CI is set)"
    else
        echo "== $1: skipped: $2 not found"
        record "$1" skipped "$2 not found"
    fi
}

record() {   # record PART STATUS TEXT
    SUMMARY+=("$(printf '%-12s %-7s %s' "$1" "$2" "$3")")
    case "$2" in
        PASS) PASSED=$((PASSED + 1)) ;;
        FAIL) FAILED=$((FAILED + 1)) ;;
        skipped) SKIPPED=$((SKIPPED + 1)) ;;
    esac
}

# ERROR lines in Ironwood's logs under DIR (WARN lines are shown, not counted).
log_errors() {
    local dir=$1 n
    [ -d "$dir" ] || { echo 0; return; }
    grep -h " WARN " "$dir"/*.log 2>/dev/null | head -5 | sed 's/^/    ironwood log: /' >&2
    n=$(cat "$dir"/*.log 2>/dev/null | grep -c " ERROR ")
    [ "$n" -gt 0 ] && grep -h " ERROR " "$dir"/*.log | head -5 | sed 's/^/    ironwood log: /' >&2
    echo "$n"
}

# match_games NAME TC GAMES [ponder] [fischerandom] : one match.py run against fairymax (in
# Chess960 against Ironwood, as fairymax does not play it), judged from its JSON.
match_games() {
    local name=$1 tc=$2 games=$3 ponder=${4:-0} variant=${5:-standard} dir="$OUT/$1" verdict rc errors
    local opponent=(--engine name=fairymax "cmd=$(printf '%q' "$FAIRYMAX")" dir="$dir")
    local starts=(--openings "$OPENINGS")
    if [ "$variant" = fischerandom ]; then
        opponent=(--engine name=opponent "cmd=$(printf '%q ' "$ENGINE" --log-dir "$dir/logs2")")
        starts=(--variant fischerandom --seed 1)
    fi
    mkdir -p "$dir"
    echo "== $name: $games games of $variant at $tc through python-chess (match.py)$([ "$ponder" = 1 ] && echo ", ironwood pondering")"
    python3 "$HERE/match.py" \
        --engine name=ironwood "cmd=$(printf '%q ' "$ENGINE" --log-dir "$dir/logs")" "ponder=$ponder" \
        "${opponent[@]}" "${starts[@]}" --games "$games" --tc "$tc" \
        --pgn "$dir/games.pgn" --json "$dir/result.json" --debug "$dir/transcript.log"
    rc=$?
    errors=$(log_errors "$dir/logs")
    verdict=$(python3 - "$dir/result.json" "$rc" "$errors" "$ponder" "$dir/logs" <<'PYEOF'
import glob, json, sys
path, rc, log_errors, ponder, logs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1", sys.argv[5]
try:
    r = json.load(open(path))
except (OSError, ValueError) as err:
    print(f"FAIL match.py exit status {rc}, no result file ({err})")
    sys.exit()
es = {e["name"]: e for e in r["engine_stats"]}
iw = es["ironwood"]
fm = next(e for name, e in es.items() if name != "ironwood")
f, proc = iw["faults"], iw["process"]
bad = []
if rc != 0:
    bad.append(f"match.py exit status {rc}")
if r["games_played"] != r["games_planned"]:
    bad.append(f"{r['games_played']} of {r['games_planned']} games played")
unfinished = [g["number"] for g in r["games"] if g["result"] not in ("1-0", "0-1", "1/2-1/2")]
if unfinished:
    bad.append(f"games without result: {unfinished}")
for kind, n in f.items():
    if n:
        bad.append(f"{n} {kind} forfeit(s) by ironwood")
for key in ("tolerated_errors", "bad_features", "stderr_lines", "extra_lines"):
    if proc.get(key):
        bad.append(f"ironwood {key.replace('_', ' ')}: {proc[key]} {proc.get('extra_samples', '')}")
if log_errors:
    bad.append(f"{log_errors} ERROR lines in ironwood's log")
memory = iw.get("memory") or {}
if not memory.get("peak_kb"):
    bad.append("no resident memory measured for ironwood")
ponders = hits = 0
for log in glob.glob(logs + "/*.log"):
    text = open(log, errors="replace").read()
    ponders += text.count("(Pondering {")
    hits += text.count("ponder hit")
if ponder and ponders == 0:
    bad.append("ironwood never pondered")
opp = sum(fm["faults"].values())
text = (f"{r['games_played']}/{r['games_planned']} games, ironwood +{iw['wins']} ={iw['draws']} -{iw['losses']}; "
        f"ironwood forfeits: time {f['time']}, illegal {f['illegal']}, crash {f['crash']}, "
        f"no answer {f['hang']}, protocol {f['protocol']}; {fm['name']} forfeits {opp}; "
        f"ironwood {iw['avg_move_time'] * 1000:.0f} ms/move, least left {iw['min_time_left_ms']:.0f} ms, "
        f"peak memory {memory.get('peak_kb', 0) / 1024:.0f} MB, growth {memory.get('growth_kb', 0)} kB"
        + (f"; {ponders} ponder searches ({hits} hits)" if ponder else ""))
only_time = bool(bad) and all("time forfeit" in b for b in bad)
print(("TIMEFAIL " if only_time else "FAIL " if bad else "PASS ") + ("; ".join(bad) + " | " if bad else "") + text)
PYEOF
)
    echo "$verdict"
    RESULT=$verdict
}

# The 1-minute load average, and whether it exceeds the number of processors.
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?"; }
overloaded() {
    python3 -c "import os, sys; sys.exit(0 if os.getloadavg()[0] > (os.cpu_count() or 1) else 1)" 2>/dev/null
}

# match_part NAME TC GAMES [ponder] [fischerandom]: match_games, once more if the only failure was a time
# forfeit on an overloaded machine (other jobs starving the engine for 100+ ms at a time;
# a real time-management fault fails again).  The summary says so.
match_part() {
    local first_load note=""
    first_load=$(load)
    match_games "$@"
    if [ "${RESULT%% *}" = TIMEFAIL ] && overloaded; then
        note=" (second attempt; the first lost on time at load $first_load on $(nproc 2>/dev/null || echo ?) processors: ${RESULT#* })"
        echo "== $1: time forfeit at load $first_load, more than the processors: playing it again"
        mv "$OUT/$1" "$OUT/$1-first-attempt"
        match_games "$@"
    fi
    local status=${RESULT%% *}
    [ "$status" = TIMEFAIL ] && status=FAIL
    record "$1" "$status" "${RESULT#* }; load $(load)$note"
}

for part in $PARTS; do
    case "$part" in
    xboard)
        miss=$(missing xboard xvfb-run python3 fairymax)
        if [ -n "$miss" ]; then
            not_found xboard "$miss"
            continue
        fi
        dir=$OUT/xboard note=""
        for attempt in 1 2; do
            echo "== xboard: 2 games in XBoard (xvfb-run) against fairymax at 0:10+0.1, pondering"
            "$HERE/xboard_match.sh" -g 2 -t 0:10 -i 0.1 -P -o "$dir" "$ENGINE --log-dir $dir/logs" "$FAIRYMAX" \
                | tee "$OUT/xboard.txt"
            rc=${PIPESTATUS[0]}
            [ "$rc" = 3 ] && [ "$attempt" = 1 ] || break
            # status 3: games missing only because fairymax failed; that says nothing of Ironwood
            note=" (second attempt: in the first, fairymax failed: $(grep -m1 -E '^  .*\[opponent\]$' "$OUT/xboard.txt" | sed 's/^ *//; s/ *\[opponent\]$//'))"
            echo "== xboard: fairymax failed; playing the match again"
            mv "$dir" "$dir-first-attempt"
            mv "$OUT/xboard.txt" "$OUT/xboard-first-attempt.txt"
        done
        errors=$(log_errors "$dir/logs")
        hits=$(cat "$dir"/logs/*.log 2>/dev/null | grep -c "ponder hit")
        line=$(grep -E "^  Ironwood" "$OUT/xboard.txt" | head -1 | sed 's/^ *//')
        probs=$(grep -E "^Protocol problems" "$OUT/xboard.txt" | sed 's/.*xboard.debug: //')
        text="${line:-no games}; protocol problems: ${probs:-?}; $hits ponder hits; $errors ERROR log lines$note"
        if [ "$rc" = 0 ] && [ "$errors" = 0 ]; then
            record xboard PASS "$text"
        else
            record xboard FAIL "xboard_match.sh status $rc; $text"
        fi
        ;;
    fischerandom)
        miss=$(missing xboard xvfb-run python3)
        if [ -n "$miss" ]; then
            not_found fischerandom "$miss"
            continue
        fi
        dir=$OUT/fischerandom
        echo "== fischerandom: 2 Chess960 games in XBoard (xvfb-run), Ironwood against Ironwood at 0:10+0.1"
        "$HERE/xboard_match.sh" -g 2 -t 0:10 -i 0.1 -V fischerandom -o "$dir" \
            "$ENGINE --log-dir $dir/logs" "$ENGINE --log-dir $dir/logs2" | tee "$OUT/fischerandom.txt"
        rc=${PIPESTATUS[0]}
        errors=$(( $(log_errors "$dir/logs") + $(log_errors "$dir/logs2") ))
        castles=$(grep -v '^\[' "$dir/games.pgn" 2>/dev/null | grep -o "O-O" | wc -l)
        line=$(grep -E "^  Ironwood" "$OUT/fischerandom.txt" | head -1 | sed 's/^ *//')
        probs=$(grep -E "^Protocol problems" "$OUT/fischerandom.txt" | sed 's/.*xboard.debug: //')
        text="${line:-no games}; $castles castlings; protocol problems: ${probs:-?}; $errors ERROR log lines"
        if [ "$rc" = 0 ] && [ "$errors" = 0 ] && grep -q '^\[Variant "fischerandom"\]' "$dir/games.pgn"; then
            record fischerandom PASS "$text"
        else
            record fischerandom FAIL "xboard_match.sh status $rc; $text"
        fi
        ;;
    games)
        miss=$(missing python-chess fairymax)
        if [ -n "$miss" ]; then
            not_found games "$miss"
            continue
        fi
        match_part "games-2+0.02" 2+0.02 4
        match_part "games-st0.1" st=0.1 4
        match_part "games-depth4" depth=4 2
        match_part "games-960" 2+0.02 2 0 fischerandom
        ;;
    ponder)
        miss=$(missing python-chess fairymax)
        if [ -n "$miss" ]; then
            not_found ponder "$miss"
            continue
        fi
        match_part ponder 2+0.02 2 1
        ;;
    analysis)
        miss=$(missing python-chess)
        if [ -n "$miss" ]; then
            not_found analysis "$miss"
            continue
        fi
        dir=$OUT/analysis
        mkdir -p "$dir"
        echo "== analysis: python-chess engine.analysis() session (analysis.py)"
        python3 "$HERE/analysis.py" "$ENGINE" --log-dir "$dir/logs" | tee "$OUT/analysis.txt"
        rc=${PIPESTATUS[0]}
        errors=$(log_errors "$dir/logs")
        checks=$(grep -c "^  ok " "$OUT/analysis.txt")
        fails=$(grep -c "^  FAIL " "$OUT/analysis.txt")
        text="$checks checks passed, $fails failed; $errors ERROR log lines"
        if [ "$rc" = 0 ] && [ "$errors" = 0 ]; then
            record analysis PASS "$text"
        else
            record analysis FAIL "analysis.py status $rc; $text"
        fi
        ;;
    esac
done

echo
echo "== summary (engine $ENGINE)"
for line in "${SUMMARY[@]}"; do
    echo "  $line"
done
echo "  $PASSED passed, $FAILED failed, $SKIPPED skipped"
if [ "$FAILED" -gt 0 ] || [ "${IRONWOOD_CLIENTS_KEEP:-0}" = 1 ]; then
    echo "  output kept in $OUT"
else
    rm -rf "$OUT"
fi
[ "$FAILED" -eq 0 ]
