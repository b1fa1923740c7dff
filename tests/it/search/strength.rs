//! Variety and strength through the real binary: XBoard `random` with a seed plays the same
//! game again and other games with other seeds; Skill Level 20 searches exactly as without
//! it; weaker levels and UCI_LimitStrength search less and still answer in time.

use crate::common;

use common::{Engine, LONG, SHORT, scratch_dir};
use std::time::{Duration, Instant};

/// Plies of self-play at fixed depth under `random`, Randomize 40 cp, this seed.
fn random_game(seed: u64, plies: usize) -> Vec<String> {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("new");
    engine.send("random");
    engine.send("option Randomize (cp)=40");
    engine.send(&format!("option Random Seed={seed}"));
    engine.send("sd 4");
    let mut moves = Vec::new();
    for _ in 0..plies {
        engine.send("go");
        let line = engine.expect("a move", LONG, |l| l.starts_with("move "));
        moves.push(line["move ".len()..].to_string());
    }
    moves
}

#[test]
fn random_repeats_a_game_with_its_seed_and_varies_with_another() {
    let first = random_game(11, 12);
    assert_eq!(random_game(11, 12), first, "same seed, same game");
    let others: Vec<Vec<String>> = [12, 13].iter().map(|&s| random_game(s, 12)).collect();
    assert!(
        others.iter().all(|game| *game != first),
        "other seeds gave {others:?}, seed 11 {first:?}"
    );
}

#[test]
fn without_random_the_game_does_not_depend_on_the_seed() {
    let play = |seed: u64| {
        let mut engine = Engine::start();
        engine.handshake();
        engine.send("new");
        engine.send(&format!("option Random Seed={seed}"));
        engine.send("sd 4");
        let mut moves = Vec::new();
        for _ in 0..8 {
            engine.send("go");
            moves.push(engine.expect("a move", LONG, |l| l.starts_with("move ")));
        }
        moves
    };
    assert_eq!(play(1), play(2));
}

fn uci() -> Engine {
    let log_dir = scratch_dir("strength-logs");
    let args = ["--log-dir".to_string(), log_dir.display().to_string()];
    let mut engine = Engine::start_with(&args, log_dir);
    engine.send("uci");
    engine.until("uciok", SHORT, |l| l == "uciok");
    engine
}

/// The lines of one `go` up to its bestmove, and how long it took.
fn go(engine: &mut Engine, position: &str, go: &str, timeout: Duration) -> (Vec<String>, Duration) {
    engine.send(&format!("position {position}"));
    let started = Instant::now();
    engine.send(&format!("go {go}"));
    let lines = engine.until("bestmove", timeout, |l| l.starts_with("bestmove"));
    (lines, started.elapsed())
}

fn last_nodes(lines: &[String]) -> u64 {
    lines
        .iter()
        .rev()
        .find_map(|l| {
            let mut tokens = l.split_whitespace();
            tokens.find(|t| *t == "nodes")?;
            tokens.next()?.parse().ok()
        })
        .expect("an info line with nodes")
}

fn deepest(lines: &[String]) -> u32 {
    lines
        .iter()
        .filter_map(|l| {
            let mut tokens = l.split_whitespace();
            tokens.find(|t| *t == "depth")?;
            tokens.next()?.parse().ok()
        })
        .max()
        .unwrap_or(0)
}

const MIDDLEGAME: &str = "fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

#[test]
fn skill_level_20_searches_exactly_as_without_it() {
    let mut plain = uci();
    let (without, _) = go(&mut plain, MIDDLEGAME, "depth 9", LONG);
    let mut full = uci();
    full.send("setoption name Skill Level value 20");
    let (with, _) = go(&mut full, MIDDLEGAME, "depth 9", LONG);
    assert_eq!(last_nodes(&with), last_nodes(&without));
    assert_eq!(with.last(), without.last());
}

#[test]
fn weaker_levels_search_less_and_answer_in_time() {
    let mut engine = uci();
    let mut previous = 0;
    for level in [0, 5, 10, 15] {
        engine.send("ucinewgame");
        engine.send(&format!("setoption name Skill Level value {level}"));
        let (lines, took) = go(&mut engine, MIDDLEGAME, "wtime 2000 btime 2000", SHORT);
        assert!(
            took < Duration::from_millis(2000),
            "level {level}: {took:?}"
        );
        let best = lines.last().unwrap();
        assert!(best.starts_with("bestmove ") && best.len() > 12, "{best}");
        let depth = deepest(&lines);
        assert!(depth <= 1 + level / 2, "level {level}: depth {depth}");
        let nodes = last_nodes(&lines);
        assert!(nodes >= previous, "level {level}: {nodes} < {previous}");
        previous = nodes;
    }
}

#[test]
fn uci_announces_the_strength_options() {
    let mut engine = Engine::start_with(
        &[
            "--log-dir".to_string(),
            scratch_dir("strength-logs").display().to_string(),
        ],
        scratch_dir("strength-logs"),
    );
    engine.send("uci");
    let lines = engine.until("uciok", SHORT, |l| l == "uciok");
    for expected in [
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 2800 min 800 max 2800",
        "option name Randomize (cp) type spin default 0 min 0 max 100",
        "option name Random Seed type spin default 0 min 0 max 2000000000",
    ] {
        assert!(lines.iter().any(|l| l == expected), "{expected}: {lines:?}");
    }
}

#[test]
fn limit_strength_plays_at_the_level_of_its_elo() {
    let mut engine = uci();
    engine.send("setoption name UCI_LimitStrength value true");
    engine.send("setoption name UCI_Elo value 800");
    let (lines, _) = go(&mut engine, MIDDLEGAME, "depth 12", SHORT);
    assert_eq!(deepest(&lines), 1, "{lines:?}");
    engine.send("setoption name UCI_LimitStrength value false");
    let (lines, _) = go(&mut engine, MIDDLEGAME, "depth 5", LONG);
    assert_eq!(deepest(&lines), 5, "{lines:?}");
}
