//! Threads and Hash without a fixed cap below the announced ones: `Threads` goes to 256 and
//! `Hash` to half the memory available (both as announced), and on this two-core machine a
//! search at 64 threads (and one at 256) plays a legal move and stops on its time.

use crate::common;

use std::time::{Duration, Instant};

use common::{Engine, LONG, SHORT, scratch_dir};
use ironwood::board::{Position, is_legal, parse_move};

/// The longest a `go movetime 200` may take to answer, measured from the `go`: before helpers
/// watched the clock, 64 threads on two cores took 430-940 ms (the main thread, the only
/// one that looked, waited for its turn); since, 180-230 ms.
const MOVETIME_MS: u64 = 200;
const ANSWER_WITHIN: Duration = Duration::from_millis(700);

fn uci(threads: u32) -> Engine {
    let log_dir = scratch_dir("threads");
    let args = ["--log-dir".to_string(), log_dir.display().to_string()];
    let mut engine = Engine::start_with(&args, log_dir);
    engine.send("uci");
    engine.until("uciok", SHORT, |l| l == "uciok");
    engine.send(&format!("setoption name Threads value {threads}"));
    engine.send("isready");
    engine.until("readyok", SHORT, |l| l == "readyok");
    engine
}

/// `go movetime` from each opening: the move is legal, and the answer on time.
fn timed_searches(engine: &mut Engine, fens: &[String], within: Duration) {
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        engine.send(&format!("position fen {fen}"));
        let asked = Instant::now();
        engine.send(&format!("go movetime {MOVETIME_MS}"));
        let line = engine.expect("bestmove", LONG, |l| l.starts_with("bestmove"));
        let took = asked.elapsed();
        let text = line.split_whitespace().nth(1).unwrap_or("");
        match parse_move(&pos, text) {
            Ok(m) if is_legal(&pos, m) => {}
            _ => engine.fail(&format!("illegal {line} in {fen}")),
        }
        if took > within {
            engine.fail(&format!("movetime {MOVETIME_MS} answered after {took:?}"));
        }
        common::say(&format!("movetime {MOVETIME_MS}: {took:?}"));
    }
}

#[test]
fn sixty_four_threads_on_two_cores_play_legal_moves_on_time() {
    let mut engine = uci(64);
    let fens: Vec<String> = common::openings().into_iter().take(4).collect();
    timed_searches(&mut engine, &fens, ANSWER_WITHIN);
    // The most the option takes: slower to start, still legal and about on time.
    engine.send("setoption name Threads value 256");
    timed_searches(&mut engine, &fens[..1], 2 * ANSWER_WITHIN);
}

#[test]
fn threads_go_to_256_and_hash_to_half_the_available_memory() {
    let log_dir = scratch_dir("threads");
    let args = ["--log-dir".to_string(), log_dir.display().to_string()];
    let mut engine = Engine::start_with(&args, log_dir);
    engine.send("uci");
    let lines = engine.until("uciok", SHORT, |l| l == "uciok");
    let max = |name: &str| -> u64 {
        let line = lines
            .iter()
            .find(|l| l.starts_with(&format!("option name {name} type spin")))
            .unwrap_or_else(|| panic!("no {name} in {lines:?}"));
        line.rsplit(' ').next().unwrap().parse().unwrap()
    };
    assert_eq!(max("Threads"), 256);
    // /proc/meminfo's MemAvailable in MB, halved (Linux; skipped elsewhere).
    if let Some(kb) = common::proc_figure("/proc/meminfo", "MemAvailable:") {
        let half = kb / 1024.0 / 2.0;
        let hash = max("Hash") as f64;
        assert!(
            (hash - half).abs() < half * 0.2,
            "Hash max {hash} MB, half the available memory {half:.0} MB"
        );
    }
}
