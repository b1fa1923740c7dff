//! UCI conversations through the real binary: the handshake and options, isready after a
//! table clear, go/stop and ponder/ponderhit on the clock, searchmoves, Multi-PV lines, the
//! protocol choice by the first command, and exactly one bestmove per go. The session's
//! rules without a clock (bad input, positions, held commands, ponder and stop bookkeeping)
//! are checked in-process, in src/protocol/uci/session/tests.rs.

use crate::common;

use std::time::{Duration, Instant};

use common::{Engine, LONG, SHORT, field, scratch_dir};
use ironwood::board::{Move, Position, is_legal, parse_move};

fn start(extra: &[&str]) -> Engine {
    let log_dir = scratch_dir("uci-logs");
    let mut args: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
    args.push("--log-dir".to_string());
    args.push(log_dir.display().to_string());
    Engine::start_with(&args, log_dir)
}

/// `uci` up to `uciok`; returns the lines.
fn handshake(engine: &mut Engine) -> Vec<String> {
    engine.send("uci");
    engine.until("uciok", SHORT, |l| l == "uciok")
}

/// `isready` and the lines before `readyok`.
fn ready(engine: &mut Engine, timeout: Duration) -> Vec<String> {
    engine.send("isready");
    let mut lines = engine.until("readyok", timeout, |l| l == "readyok");
    lines.pop();
    lines
}

fn uci_engine(extra: &[&str]) -> Engine {
    let mut engine = start(extra);
    handshake(&mut engine);
    engine
}

/// The lines up to `bestmove`, and the best move checked against `pos`.
fn best_move(engine: &mut Engine, pos: &Position, timeout: Duration) -> (Vec<String>, Move) {
    let lines = engine.until("bestmove", timeout, |l| l.starts_with("bestmove"));
    let last = lines.last().expect("until returns the matching line");
    let text = last.split_whitespace().nth(1).unwrap_or("");
    match parse_move(pos, text) {
        Ok(m) if is_legal(pos, m) => (lines, m),
        _ => engine.fail(&format!("illegal best move {text:?}")),
    }
}

fn pv(line: &str) -> Vec<&str> {
    line.split_whitespace()
        .skip_while(|t| *t != "pv")
        .skip(1)
        .collect()
}

fn after(moves: &[&str]) -> Position {
    let mut pos = Position::startpos();
    for text in moves {
        let m = parse_move(&pos, text).unwrap();
        pos = pos.make_move(m);
    }
    pos
}

#[test]
fn handshake_names_the_engine_and_every_option_then_uciok() {
    let mut engine = start(&[]);
    let lines = handshake(&mut engine);
    assert!(lines[0].starts_with("id name Ironwood "), "{lines:?}");
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("uciok"));
    for line in &lines[2..lines.len() - 1] {
        assert!(line.starts_with("option name "), "{line}");
    }
    for expected in [
        "option name Hash type spin default 64 min 1 max ",
        "option name Threads type spin default 1 min 1 max ",
        "option name MultiPV type spin default 1 min 1 max 64",
        "option name Ponder type check default false",
        "option name Move Overhead type spin default 30 min 0 max 5000",
        "option name Clear Hash type button",
        "option name EvalFile type string default <embedded>",
        "option name SyzygyPath type string default <empty>",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(expected)),
            "{expected}: {lines:?}"
        );
    }
    assert!(ready(&mut engine, SHORT).is_empty());
    engine.send("quit");
    assert_eq!(engine.wait_exit(SHORT), Some(0));
}

#[test]
fn the_command_line_table_size_is_the_announced_default() {
    let mut engine = start(&["--hash", "32", "--threads", "1"]);
    let lines = handshake(&mut engine);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Hash type spin default 32 ")),
        "{lines:?}"
    );
}

/// GUIs start the clock after `readyok`: after `ucinewgame` (and a Hash change) it must wait
/// for the table clear or resize queued on the search thread.
#[test]
fn isready_after_ucinewgame_waits_for_the_table_clear() {
    let mut engine = uci_engine(&["--hash", "256"]);
    for _ in 0..3 {
        engine.send("ucinewgame");
        assert!(ready(&mut engine, 4 * SHORT).is_empty());
    }
    engine.send("setoption name Hash value 300");
    assert!(ready(&mut engine, 4 * SHORT).is_empty());
    engine.send("quit");
    assert_eq!(engine.wait_exit(SHORT), Some(0));
    let files = engine.log_files();
    assert_eq!(files.len(), 1, "{files:?}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let readies: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.ends_with(">> readyok"))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(readies.len(), 4, "{text}");
    for (round, &at) in readies[..3].iter().enumerate() {
        let cleared = lines[..at]
            .iter()
            .filter(|l| l.contains("table cleared in"))
            .count();
        assert!(
            cleared > round,
            "readyok {round} came before its clear:\n{text}"
        );
    }
    assert!(
        lines[..readies[3]]
            .iter()
            .any(|l| l.contains("table resized to 300 MB")),
        "{text}"
    );
    // Every line in and out is in the log.
    assert!(text.contains("<< ucinewgame"), "{text}");
    assert!(text.contains(">> uciok"), "{text}");
}

#[test]
fn infinite_search_waits_for_stop_and_answers_once() {
    let mut engine = uci_engine(&[]);
    engine.send("position startpos moves e2e4");
    // Even with a depth limit reached at once, an infinite search keeps its answer.
    engine.send("go infinite depth 2");
    let early = engine.drain(Duration::from_millis(700));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    assert!(
        ready(&mut engine, SHORT)
            .iter()
            .all(|l| l.starts_with("info"))
    );
    engine.send("stop");
    best_move(&mut engine, &after(&["e2e4"]), SHORT);
    assert!(engine.drain(Duration::from_millis(300)).is_empty());

    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let stopped = Instant::now();
    engine.send("stop");
    best_move(&mut engine, &after(&["e2e4"]), SHORT);
    assert!(stopped.elapsed() < Duration::from_millis(500));
}

#[test]
fn ponder_search_answers_after_ponderhit_or_stop() {
    let mut engine = uci_engine(&[]);
    engine.send("setoption name Ponder value true");
    // We played e2e4 and expect e7e5: ponder on the position after it.
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go ponder wtime 3000 btime 3000 winc 0 binc 0");
    let early = engine.drain(Duration::from_millis(800));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    let hit = Instant::now();
    engine.send("ponderhit");
    let (_, m) = best_move(&mut engine, &after(&["e2e4", "e7e5"]), SHORT);
    // Thinks on its own clock (3 s) from the hit: well under a second for one move.
    assert!(hit.elapsed() < Duration::from_millis(1500), "{m}");

    // Ponder miss: the GUI stops the ponder search and throws its answer away.
    engine.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    engine.send("go ponder wtime 3000 btime 3000");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("stop");
    best_move(
        &mut engine,
        &after(&["e2e4", "e7e5", "g1f3", "b8c6"]),
        SHORT,
    );
    engine.send("position startpos moves e2e4 e7e5 g1f3 g8f6");
    engine.send("go wtime 3000 btime 3000");
    best_move(
        &mut engine,
        &after(&["e2e4", "e7e5", "g1f3", "g8f6"]),
        SHORT,
    );
    assert!(engine.drain(Duration::from_millis(300)).is_empty());
}

#[test]
fn searchmoves_restricts_the_root_moves() {
    let mut engine = uci_engine(&[]);
    engine.send("position startpos");
    engine.send("go depth 6 searchmoves a2a3 h2h3");
    let (lines, m) = best_move(&mut engine, &Position::startpos(), LONG);
    assert!(["a2a3", "h2h3"].contains(&m.to_string().as_str()), "{m}");
    for line in lines.iter().filter(|l| l.contains(" pv ")) {
        assert!(["a2a3", "h2h3"].contains(&pv(line)[0]), "{line}");
    }
}

#[test]
fn multipv_reports_each_line_every_iteration() {
    let mut engine = uci_engine(&[]);
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    engine.send("go depth 7");
    let pos = after(&["e2e4", "e7e5", "g1f3", "b8c6"]);
    let (lines, best) = best_move(&mut engine, &pos, LONG);
    // The lines as a GUI holds them by number: (depth, first move). When a depth's first
    // line arrives, the last depth's three lines stand, distinct, and so at the end.
    let mut table: [Option<(u32, String)>; 3] = Default::default();
    let mut depth_seen = 0;
    let mut ended = Vec::new();
    let check = |table: &[Option<(u32, String)>; 3], depth: u32| {
        let firsts: Vec<&str> = table
            .iter()
            .flatten()
            .filter(|(d, _)| *d == depth)
            .map(|(_, m)| m.as_str())
            .collect();
        assert_eq!(firsts.len(), 3, "depth {depth}: {table:?} in {lines:?}");
        assert!(
            firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
            "depth {depth}: {firsts:?}"
        );
        firsts[0].to_string()
    };
    for line in lines.iter().filter(|l| l.contains(" pv ")) {
        let depth: u32 = field(line, "depth").unwrap().parse().unwrap();
        let k: usize = field(line, "multipv").unwrap().parse().unwrap();
        assert!((1..=3).contains(&k), "{line}");
        if depth > depth_seen {
            if depth_seen > 0 {
                ended.push(check(&table, depth_seen));
            }
            depth_seen = depth;
        }
        table[k - 1] = Some((depth, pv(line)[0].to_string()));
    }
    assert_eq!(depth_seen, 7);
    assert_eq!(check(&table, 7), best.to_string());
    assert_eq!(ended.len(), 6);
    // Back to one line.
    engine.send("setoption name MultiPV value 1");
    engine.send("go depth 4");
    let (lines, _) = best_move(&mut engine, &pos, LONG);
    assert!(
        lines
            .iter()
            .filter(|l| l.contains(" pv "))
            .all(|l| field(l, "multipv") == Some("1")),
        "{lines:?}"
    );
}

#[test]
fn go_mate_finds_the_mate() {
    let mut engine = uci_engine(&[]);
    // tests/data/mates.epd, mates.08: mate in 2, Ba3.
    engine.send("position fen n1N3br/2p1Bpkr/1pP2R1b/pP3Pp1/P5P1/1P1p4/p2P4/K7 w - - 0 1");
    engine.send("go mate 2");
    let pos =
        Position::from_fen("n1N3br/2p1Bpkr/1pP2R1b/pP3Pp1/P5P1/1P1p4/p2P4/K7 w - - 0 1").unwrap();
    let (lines, m) = best_move(&mut engine, &pos, LONG);
    assert_eq!(m.to_string(), "e7a3");
    let last_info = lines.iter().rev().find(|l| l.contains(" pv ")).unwrap();
    assert!(last_info.contains(" score mate 2 "), "{last_info}");
}

#[test]
fn go_nodes_and_movetime_limit_the_search() {
    let mut engine = uci_engine(&[]);
    engine.send("position startpos");
    engine.send("go nodes 30000");
    let (lines, _) = best_move(&mut engine, &Position::startpos(), LONG);
    let nodes: u64 = lines
        .iter()
        .rev()
        .find_map(|l| field(l, "nodes")?.parse().ok())
        .unwrap();
    assert!(nodes <= 30000 + 4096, "{nodes}");
    // `movetime` is used whole (less the move overhead), never exceeded.
    let started = Instant::now();
    engine.send("go movetime 400");
    best_move(&mut engine, &Position::startpos(), SHORT);
    let took = started.elapsed();
    assert!(
        took > Duration::from_millis(300) && took < Duration::from_millis(900),
        "{took:?}"
    );
}

#[test]
fn current_move_lines_after_the_first_second() {
    let mut engine = uci_engine(&[]);
    engine.send("position startpos");
    engine.send("go movetime 2500");
    let (lines, _) = best_move(&mut engine, &Position::startpos(), LONG);
    let current: Vec<&String> = lines.iter().filter(|l| l.contains(" currmove ")).collect();
    assert!(!current.is_empty(), "{lines:?}");
    for line in current {
        let m = parse_move(&Position::startpos(), field(line, "currmove").unwrap()).unwrap();
        assert!(is_legal(&Position::startpos(), m));
        let n: usize = field(line, "currmovenumber").unwrap().parse().unwrap();
        assert!((1..=20).contains(&n), "{line}");
    }
}

#[test]
fn every_go_gets_exactly_one_bestmove_even_when_commands_overlap() {
    let mut engine = uci_engine(&[]);
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    // A second go without a stop: the first search ends and answers, then the second runs.
    engine.send("go depth 3");
    best_move(&mut engine, &Position::startpos(), SHORT);
    best_move(&mut engine, &Position::startpos(), LONG);
    // ucinewgame and position during a search wait for its bestmove; isready stays in order.
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    engine.send("ucinewgame");
    engine.send("position startpos moves g1f3");
    engine.send("isready");
    let lines = engine.until("readyok", SHORT, |l| l == "readyok");
    let bestmoves = lines.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(bestmoves, 1, "{lines:?}");
    engine.send("go depth 2");
    best_move(&mut engine, &after(&["g1f3"]), SHORT);
    assert!(engine.drain(Duration::from_millis(300)).is_empty());
    // A go that waited behind a search, then a stop right behind it: the stop ends the
    // waiting go once it runs (it used to wait behind that go for ever).
    engine.send("go depth 30");
    engine.send("go infinite");
    engine.send("stop");
    best_move(&mut engine, &after(&["g1f3"]), SHORT);
    best_move(&mut engine, &after(&["g1f3"]), SHORT);
    assert!(engine.drain(Duration::from_millis(300)).is_empty());
}

#[test]
fn the_first_command_chooses_the_protocol() {
    // XBoard: `xboard` / `protover`.
    let mut engine = start(&[]);
    engine.send("xboard");
    engine.send("protover 2");
    let lines = engine.until("feature done=1", SHORT, |l| l == "feature done=1");
    assert!(
        lines.iter().any(|l| l.contains("MultiPV -spin 1 1 64")),
        "{lines:?}"
    );
    // A v1 GUI's first line is a move.
    let mut engine = start(&[]);
    engine.send("e2e4");
    let line = engine.expect("a move", LONG, |l| l.starts_with("move "));
    assert!(parse_move(&after(&["e2e4"]), &line[5..]).is_ok(), "{line}");
    // Forced UCI: no `uci` needed.
    let mut engine = start(&["--protocol", "uci"]);
    assert!(ready(&mut engine, SHORT).is_empty());
    // Forced XBoard: `uci` is not a command there.
    let mut engine = start(&["--protocol", "xboard"]);
    engine.send("uci");
    let line = engine.expect("an error", SHORT, |_| true);
    assert_eq!(line, "Error (unknown command): uci");
}

#[test]
fn quit_ends_the_engine_even_mid_search() {
    let mut engine = uci_engine(&[]);
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    engine.send("quit");
    assert_eq!(engine.wait_exit(SHORT), Some(0));
    assert!(engine.stderr().is_empty(), "{}", engine.stderr());
}
