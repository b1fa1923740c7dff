//! Thousands of random and mutated lines (fixed seed) must never kill the engine: afterwards
//! it still answers `ping` and still plays a legal move.

use crate::common;

use common::{Engine, LONG, SHORT, insert_at_random, remove_at_random, replace_at_random};
use ironwood::board::Position;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Valid lines of every kind, to be mutated. (`quit` is left out: it would end the test;
/// `memory` too: a valid large value would make the engine allocate gigabytes.)
const SEEDS: &[&str] = &[
    "xboard",
    "protover 2",
    "accepted ping",
    "rejected san",
    "new",
    "variant normal",
    "variant crazyhouse",
    "random",
    "force",
    "go",
    "playother",
    "white",
    "black",
    "level 40 5 0",
    "level 0 0:10 0.1",
    "level 0 1 2",
    "st 1",
    "st 0.05",
    "sd 3",
    "sd 1",
    "depth 2",
    "nps 50000",
    "nps 0",
    "time 1000",
    "otim 1000",
    "time -5",
    "usermove e2e4",
    "usermove e7e5",
    "e2e4",
    "g1f3",
    "e1g1",
    "O-O",
    "a7a8q",
    "Nf3",
    "?",
    "ping 1",
    "draw",
    "result 1-0 {White mates}",
    "result *",
    "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "setboard 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    "setboard 8/8/8/8/8/8/8/8 w - - 0 1",
    "edit",
    "#",
    "c",
    ".",
    "Pa4",
    "xa4",
    "Ke1",
    "hint",
    "bk",
    "undo",
    "remove",
    "hard",
    "easy",
    "post",
    "nopost",
    "analyze",
    "exit",
    ".",
    "name Fuzzy",
    "rating 1 2",
    "ics -",
    "computer",
    "pause",
    "resume",
    "cores 1",
    "egtpath syzygy /x",
    "option Null Move=0",
    "option IID=Off",
    "option Clear Hash",
    "option Move Overhead=10",
    "exclude e2e4",
    "include all",
    "exclude all",
    "include e2e4",
    "",
    "   ",
    "\t",
];

fn mutate(rng: &mut StdRng, line: &str) -> String {
    let mut chars: Vec<char> = line.chars().collect();
    for _ in 0..rng.gen_range(1..4) {
        match rng.gen_range(0..6) {
            0 if !chars.is_empty() => remove_at_random(rng, &mut chars),
            1 => insert_at_random(rng, &mut chars, random_char),
            2 if !chars.is_empty() => replace_at_random(rng, &mut chars, random_char),
            3 => {
                let number = match rng.gen_range(0..4) {
                    0 => rng.gen_range(-5i64..5).to_string(),
                    1 => rng.gen_range(0u64..100_000).to_string(),
                    2 => u64::MAX.to_string(),
                    _ => format!("{}.{}", rng.gen_range(0..99), rng.gen_range(0..99)),
                };
                chars.push(' ');
                chars.extend(number.chars());
            }
            4 => chars.truncate(rng.gen_range(0..=chars.len())),
            _ => {
                let other = SEEDS[rng.gen_range(0..SEEDS.len())];
                chars.push(' ');
                chars.extend(other.chars());
            }
        }
    }
    chars.into_iter().collect()
}

fn random_char(rng: &mut StdRng) -> char {
    match rng.gen_range(0..10) {
        0 => char::from_u32(rng.gen_range(0x80..0x3000)).unwrap_or('?'),
        1 => [
            '\t', '\r', '\u{0}', '\u{7f}', '\u{a0}', '"', '{', '}', '=', ':',
        ][rng.gen_range(0..10)],
        _ => char::from(rng.gen_range(0x20u8..0x7f)),
    }
}

fn random_bytes(rng: &mut StdRng) -> Vec<u8> {
    let len = rng.gen_range(0..80);
    (0..len)
        .map(|_| rng.r#gen::<u8>())
        .filter(|&b| b != b'\n')
        .collect()
}

/// A line is kept unless it would end the session or allocate a huge table.
fn harmless(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    let first = text.split_whitespace().next().unwrap_or("");
    !matches!(first, "quit" | "memory")
}

#[test]
fn random_and_mutated_lines_never_kill_the_engine() {
    let mut rng = StdRng::seed_from_u64(0x1e00d);
    let mut engine = Engine::start();
    engine.handshake();
    let mut sent = 0;
    while sent < 5000 {
        let line: Vec<u8> = match rng.gen_range(0..10) {
            0..=2 => random_bytes(&mut rng),
            3 => SEEDS[rng.gen_range(0..SEEDS.len())].as_bytes().to_vec(),
            _ => {
                let seed = SEEDS[rng.gen_range(0..SEEDS.len())];
                mutate(&mut rng, seed).replace('\n', " ").into_bytes()
            }
        };
        if !harmless(&line) {
            continue;
        }
        let mut bytes = line;
        bytes.push(b'\n');
        engine.send_bytes(&bytes);
        sent += 1;
        // Read what is there so the pipe never fills up.
        while engine.recv(std::time::Duration::ZERO).is_some() {}
    }
    // Whatever state the fuzz left: leave edit/analyze/think modes, then it must answer.
    engine.send("exit");
    engine.send("force");
    engine.send("ping 424242");
    engine.expect("pong 424242", LONG, |l| l == "pong 424242");
    assert!(engine.is_alive());
    engine.send("new");
    engine.send("sd 2");
    engine.send("go");
    engine.expect_move(&Position::startpos(), SHORT);
    let stderr = engine.stderr();
    assert!(!stderr.contains("panicked"), "{stderr}");
}
