//! `reuse=1` and memory through the real binary: after 50 games in one process (with `new`
//! between them, as XBoard sends it) the engine searches exactly as a fresh process does, and
//! its resident memory has not grown; `memory N` and `--hash MB` set the table size without a
//! restart and the resident memory follows; on Linux the table sits on huge pages. The memory
//! checks read /proc and /sys (Linux) and are skipped with a message where they are missing.

use crate::common;

use common::{Engine, LONG, SHORT, is_result, legal, openings, proc_figure, say, thinking};
use ironwood::board::game::Game;
use ironwood::board::{Move, Position, parse_move};
use std::time::Duration;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3pN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const GAMES: usize = 50;
/// Allowed growth of the resident memory between game 5 and game 50.
const RSS_GROWTH_MB: f64 = 8.0;
/// Resident memory beyond the table: code, stacks, buffers.
const RSS_CONSTANT_MB: f64 = 30.0;

/// The kB figure of a `Key:   123 kB` line of a /proc file, in MB; `None` without /proc.
fn proc_mb(path: &str, key: &str) -> Option<f64> {
    proc_figure(path, key).map(|kb| kb / 1024.0)
}

/// VmRSS of a process in MB, or `None` without /proc.
fn rss_mb(pid: u32) -> Option<f64> {
    proc_mb(&format!("/proc/{pid}/status"), "VmRSS:")
}

/// The engine's move (or its result claim), checked against `game`; `None` after a result.
fn engine_move(engine: &mut Engine, game: &mut Game) -> Option<Move> {
    let line = engine.expect("a move or a result", SHORT, |l| {
        l.starts_with("move ") || is_result(l)
    });
    if is_result(&line) {
        if game.outcome().is_none() {
            engine.fail(&format!("false claim {line}"));
        }
        return None;
    }
    let text = &line["move ".len()..];
    let m = parse_move(game.position(), text)
        .unwrap_or_else(|e| engine.fail(&format!("illegal move {text}: {e}")));
    game.push(m);
    Some(m)
}

/// One short game the way XBoard runs games with a reused engine (`memory`, `cores`, `new`,
/// time control, `sd`), varied by `g`: pondering, thinking output, `setboard`, `remove`,
/// a draw offer, an analysis episode; ends with `result`.
fn play_game(engine: &mut Engine, g: usize, openings: &[String]) {
    engine.send("memory 64");
    engine.send("cores 1");
    engine.send("new");
    engine.send(if g % 5 == 1 { "hard" } else { "easy" });
    engine.send(if g.is_multiple_of(2) {
        "post"
    } else {
        "nopost"
    });
    match g % 3 {
        0 => {
            engine.send("level 40 0:30 0");
            engine.send("time 3000");
            engine.send("otim 3000");
        }
        1 => engine.send("st 1"),
        _ => engine.send("level 0 1 0.5"),
    }
    engine.send("sd 3");
    if g % 2 == 1 {
        engine.send("computer");
    }
    let mut game = if g % 4 == 2 {
        let fen = &openings[g % openings.len()];
        engine.send("force");
        engine.send(&format!("setboard {fen}"));
        Game::new(Position::from_fen(fen).expect("opening FEN"))
    } else {
        Game::default()
    };
    engine.send("go");
    for ply in 0..6 {
        if engine_move(engine, &mut game).is_none() || game.outcome().is_some() {
            break;
        }
        if g % 7 == 3 && ply == 1 {
            // Take back the engine's move and our previous one, then play on.
            engine.send("remove");
            game.pop();
            game.pop();
        }
        let moves = legal(game.position());
        let ours = moves[(g * 7 + ply * 3) % moves.len()];
        game.push(ours);
        if g % 8 == 5 && ply == 2 {
            engine.send("draw");
        }
        engine.send("time 3000");
        engine.send("otim 3000");
        engine.send(&format!("usermove {ours}"));
        if game.outcome().is_some() {
            engine.expect("the claim", SHORT, is_result);
            break;
        }
    }
    if g % 6 == 4 {
        engine.send("force");
        engine.send("post");
        engine.send("analyze");
        std::thread::sleep(Duration::from_millis(20));
        engine.send("exit");
    }
    engine.send("result 1/2-1/2 {test over}");
    // A reply to our last move may cross the `result` on the wire; nothing else may come.
    let lines = engine.sync();
    let moves: Vec<&String> = lines.iter().filter(|l| l.starts_with("move ")).collect();
    let crossing = |l: &str| parse_move(game.position(), &l["move ".len()..]).is_ok();
    if moves.len() > 1 || moves.iter().any(|l| !crossing(l)) {
        engine.fail(&format!("moves around the result: {moves:?}"));
    }
}

/// A depth-7 search from `fen` (start position if `None`) in a fresh game: its thinking lines
/// without the time field, and the move.
fn depth7(engine: &mut Engine, fen: Option<&str>) -> (Vec<String>, String) {
    engine.send("new");
    engine.send("easy");
    engine.send("post");
    engine.send("st 100");
    engine.send("sd 7");
    if let Some(fen) = fen {
        engine.send("force");
        engine.send(&format!("setboard {fen}"));
    }
    engine.send("go");
    let lines = engine.until("the move", LONG, |l| l.starts_with("move "));
    let mv = lines.last().expect("the move line").clone();
    let think: Vec<String> = lines
        .iter()
        .filter(|l| thinking(l).is_some())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            format!("{} {} {} {}", f[0], f[1], f[3], f[4..].join(" "))
        })
        .collect();
    if !think.iter().any(|l| l.starts_with("7 ")) {
        engine.fail("no depth-7 thinking line");
    }
    engine.send("force");
    engine.sync();
    (think, mv)
}

fn signatures(engine: &mut Engine) -> Vec<(Vec<String>, String)> {
    let openings = openings();
    [None, Some(KIWIPETE), Some(openings[10].as_str())]
        .into_iter()
        .map(|fen| depth7(engine, fen))
        .collect()
}

#[test]
fn fifty_reused_games_leave_the_search_as_fresh_and_memory_flat() {
    let openings = openings();
    let mut reused = Engine::start();
    reused.handshake();
    let pid = reused.pid();
    let mut rss_after_5 = None;
    let mut rss_after_50 = None;
    for g in 1..=GAMES {
        play_game(&mut reused, g, &openings);
        if g == 5 {
            rss_after_5 = rss_mb(pid);
        }
        if g == GAMES {
            rss_after_50 = rss_mb(pid);
        }
    }
    let after = signatures(&mut reused);

    let mut fresh = Engine::start();
    fresh.handshake();
    let before = signatures(&mut fresh);

    for (i, (a, b)) in after.iter().zip(&before).enumerate() {
        let last_a = a.0.iter().rev().find(|l| l.starts_with("7 "));
        let last_b = b.0.iter().rev().find(|l| l.starts_with("7 "));
        say(&format!(
            "reuse: position {}: after {GAMES} games {:?} / {}, fresh {:?} / {}",
            i + 1,
            last_a,
            a.1,
            last_b,
            b.1
        ));
        assert_eq!(
            a,
            b,
            "position {}: the reused engine searches differently from a fresh one",
            i + 1
        );
    }

    match (rss_after_5, rss_after_50) {
        (Some(r5), Some(r50)) => {
            say(&format!(
                "reuse: VmRSS after game 5 {r5:.1} MB, after game {GAMES} {r50:.1} MB"
            ));
            assert!(
                r50 <= r5 + RSS_GROWTH_MB,
                "resident memory grew from {r5:.1} MB to {r50:.1} MB over {GAMES} games"
            );
            assert!(
                r50 <= 64.0 + RSS_CONSTANT_MB,
                "{r50:.1} MB resident with a 64 MB table"
            );
        }
        _ => say("reuse: memory check skipped: /proc/PID/status not readable"),
    }
}

/// Half the available memory in MB, the cap `memory N` applies.
fn memory_cap_mb() -> Option<f64> {
    proc_mb("/proc/meminfo", "MemAvailable:").map(|mb| mb / 2.0)
}

/// A few moves of a new game (`new` clears, and so touches, the whole table); every engine
/// move must be legal and a ping must be answered.
fn play_a_little(engine: &mut Engine) {
    engine.send("new");
    engine.send("sd 4");
    let mut game = Game::default();
    engine.send("go");
    for ply in 0..3 {
        if engine_move(engine, &mut game).is_none() {
            break;
        }
        let moves = legal(game.position());
        let ours = moves[(ply * 5) % moves.len()];
        game.push(ours);
        engine.send(&format!("usermove {ours}"));
    }
    engine_move(engine, &mut game);
    engine.send("force");
    engine.sync();
}

#[test]
fn memory_and_hash_resize_the_table_without_a_restart() {
    if rss_mb(std::process::id()).is_none() {
        say("memory: skipped: /proc/PID/status not readable");
        return;
    }
    let mut engine = Engine::start_with_hash(16);
    engine.handshake();
    let pid = engine.pid();
    let cap = memory_cap_mb().unwrap_or(f64::MAX);

    let mut figures = Vec::new();
    let mut previous: Option<(f64, f64)> = None;
    for (command, mb) in [
        (None, 16.0),
        (Some("memory 256"), 256.0),
        (Some("memory 32"), 32.0),
    ] {
        if let Some(command) = command {
            engine.send(command);
        }
        play_a_little(&mut engine);
        let table = f64::min(mb, cap);
        let rss = rss_mb(pid).expect("VmRSS");
        figures.push(format!("{}: {rss:.1} MB", command.unwrap_or("--hash 16")));
        assert!(
            rss <= table + RSS_CONSTANT_MB,
            "{rss:.1} MB resident with a {table} MB table"
        );
        // `new` cleared the whole table, so it is resident: the memory really followed.
        assert!(
            rss >= table * 0.9,
            "{rss:.1} MB resident with a {table} MB table: not allocated?"
        );
        if let Some((before_table, before_rss)) = previous
            && table < before_table
        {
            assert!(
                rss < before_rss * 0.5,
                "resident memory did not shrink: {rss:.1} MB after {before_rss:.1} MB"
            );
        }
        previous = Some((table, rss));
    }
    say(&format!("memory: VmRSS {}", figures.join(", ")));
}

/// The kernel's transparent huge page mode (`always`, `madvise` or `never`), or `None`
/// without Linux's /sys file.
fn huge_page_mode() -> Option<String> {
    let text = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").ok()?;
    let start = text.find('[')? + 1;
    let end = start + text[start..].find(']')?;
    Some(text[start..end].to_string())
}

#[test]
fn the_table_sits_on_huge_pages_where_linux_gives_them() {
    let mode = huge_page_mode();
    if !matches!(mode.as_deref(), Some("always" | "madvise")) {
        say(&format!(
            "huge pages: skipped: transparent huge pages {mode:?}"
        ));
        return;
    }
    let mut engine = Engine::start_with_hash(64);
    engine.handshake();
    // `new` clears, and so touches, the whole table.
    engine.send("new");
    engine.sync();
    let huge = proc_mb(
        &format!("/proc/{}/smaps_rollup", engine.pid()),
        "AnonHugePages:",
    );
    let Some(huge) = huge else {
        say("huge pages: skipped: /proc/PID/smaps_rollup not readable");
        return;
    };
    say(&format!(
        "huge pages: {huge:.0} MB of a 64 MB table (mode {mode:?})"
    ));
    // A fragmented memory may refuse some; none at all means the table never asked.
    assert!(
        huge >= 16.0,
        "{huge:.1} MB on huge pages with a 64 MB table"
    );
}
