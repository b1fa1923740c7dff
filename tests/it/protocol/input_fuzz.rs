//! Random and mutated command lines, FENs and EPD lines (fixed seeds, so a failure
//! reproduces): the board's FEN parser and the EPD reader give typed errors and never panic;
//! the binary answers every argv with a result or a message and exit status 0, 1 or 2; XBoard's
//! `setboard` refuses bad FENs and carries on.

use crate::common;

use std::time::Duration;

use common::{
    Engine, LONG, SHORT, insert_at_random, remove_at_random, replace_at_random, run_ironwood,
    scratch_dir,
};
use ironwood::board::{FenError, Position};
use ironwood::cli::{self, Subcommand};
use ironwood::tools::epd::{self, EpdError};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Real positions to mutate: start, castling, en passant, promotions, checks, clocks.
const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 99 80",
    "8/8/8/8/8/8/8/K6k w - - 60000 65535",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -",
];

/// Characters a FEN is made of, plus a few that it is not.
const FEN_ALPHABET: &[u8] = b"pnbrqkPNBRQK012345678/ wb-KQkqabcdefgh9x+.";

fn mutate_fen(rng: &mut StdRng, fen: &str) -> String {
    let mut text: Vec<char> = fen.chars().collect();
    for _ in 0..rng.gen_range(1..4) {
        match rng.gen_range(0..7) {
            0 if !text.is_empty() => remove_at_random(rng, &mut text),
            1 => insert_at_random(rng, &mut text, fen_char),
            2 if !text.is_empty() => replace_at_random(rng, &mut text, fen_char),
            3 => text.truncate(rng.gen_range(0..=text.len())),
            4 => {
                // A clock or move number of any size.
                let number = match rng.gen_range(0..4) {
                    0 => rng.gen_range(0u32..200).to_string(),
                    1 => rng.gen_range(59_990u32..70_000).to_string(),
                    2 => u64::MAX.to_string(),
                    _ => format!("-{}", rng.gen_range(0u32..100)),
                };
                let mut fields = split_fields(&text);
                insert_at_random(rng, &mut fields, |_| number);
                text = fields.join(" ").chars().collect();
            }
            5 => {
                let mut fields = split_fields(&text);
                if fields.len() > 1 {
                    let (a, b) = (
                        rng.gen_range(0..fields.len()),
                        rng.gen_range(0..fields.len()),
                    );
                    fields.swap(a, b);
                }
                text = fields.join(" ").chars().collect();
            }
            _ => {
                let i = rng.gen_range(0..=text.len());
                text.insert(i, char::from_u32(rng.gen_range(0..0x3000)).unwrap_or('?'));
            }
        }
    }
    text.into_iter().collect()
}

/// The text's fields between single spaces (empty ones too, so joining gives it back).
fn split_fields(text: &[char]) -> Vec<String> {
    text.iter()
        .collect::<String>()
        .split(' ')
        .map(str::to_string)
        .collect()
}

fn fen_char(rng: &mut StdRng) -> char {
    char::from(FEN_ALPHABET[rng.gen_range(0..FEN_ALPHABET.len())])
}

fn random_text(rng: &mut StdRng) -> String {
    let len = rng.gen_range(0..90);
    (0..len)
        .map(|_| match rng.gen_range(0..4) {
            0 => char::from(rng.gen_range(0x20u8..0x7f)),
            1 => char::from_u32(rng.gen_range(0..0x11000)).unwrap_or(' '),
            _ => fen_char(rng),
        })
        .collect()
}

fn fuzzed_fen(rng: &mut StdRng) -> String {
    if rng.gen_range(0..5) == 0 {
        random_text(rng)
    } else {
        let fen = FENS[rng.gen_range(0..FENS.len())];
        mutate_fen(rng, fen)
    }
}

#[test]
fn fen_parser_gives_typed_errors_and_consistent_positions() {
    let mut rng = StdRng::seed_from_u64(0xfe11);
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..50_000 {
        let fen = fuzzed_fen(&mut rng);
        match Position::from_fen(&fen) {
            Ok(pos) => {
                accepted += 1;
                // What was accepted writes out and reads back as the same position.
                let again = Position::from_fen(&pos.to_fen())
                    .unwrap_or_else(|e| panic!("{fen:?} -> {} refused: {e}", pos.to_fen()));
                assert_eq!(again.key(), pos.key(), "{fen:?}");
                assert_eq!(again.to_fen(), pos.to_fen(), "{fen:?}");
            }
            Err(error) => {
                refused += 1;
                let _: FenError = error.clone();
                assert!(!error.to_string().is_empty(), "{fen:?}");
            }
        }
    }
    // Both paths were exercised.
    assert!(accepted > 1000 && refused > 1000, "{accepted} {refused}");
}

#[test]
fn epd_reader_gives_typed_errors() {
    let mut rng = StdRng::seed_from_u64(0xe9d);
    let ops = [
        " bm e4;",
        " bm Qd1+; id \"x\";",
        " am Rh7; dm 1;",
        " dm 3",
        " dm x;",
        " id \"a;b\";",
    ];
    for _ in 0..20_000 {
        let mut line = fuzzed_fen(&mut rng);
        if rng.gen_bool(0.7) {
            line.push_str(ops[rng.gen_range(0..ops.len())]);
        }
        match epd::parse_line(&line) {
            Ok(_) => {}
            Err(EpdError::Fen { error, .. }) => assert!(!error.to_string().is_empty()),
            Err(EpdError::TooFewFields | EpdError::BadMateCount(_)) => {}
        }
    }
}

/// Valid argument lists to mutate (`FILE` is replaced by a fuzzed EPD file).
const ARGVS: &[&[&str]] = &[
    &["perft", "2"],
    &["perft", "1", "8/8/8/8/8/8/8/K6k", "w", "-", "-", "0", "1"],
    &["perft", "--epd", "FILE", "--max-depth", "1"],
    &["bench", "1"],
    &["epd", "FILE", "--ms", "5"],
    &["--hash", "8", "--threads", "1", "bench", "1"],
    &["--move-overhead", "10", "--help"],
    &["--version"],
    &["--hash=4", "perft", "1"],
    &["--tunables", "params"],
];

const WORDS: &[&str] = &[
    "perft",
    "bench",
    "epd",
    "--epd",
    "--max-depth",
    "--ms",
    "--hash",
    "--threads",
    "--move-overhead",
    "--log-dir",
    "-h",
    "-V",
    "--",
    "-",
    "=",
    "--hash=",
    "FILE",
    "w",
    "b",
];

fn fuzzed_number(rng: &mut StdRng) -> String {
    match rng.gen_range(0..6) {
        0 => rng.gen_range(0u32..10).to_string(),
        1 => rng.gen_range(0u64..100_000).to_string(),
        2 => u64::MAX.to_string(),
        3 => "99999999999999999999999".to_string(),
        4 => format!("-{}", rng.gen_range(0u32..10)),
        _ => format!("{}.{}", rng.gen_range(0..9), rng.gen_range(0..9)),
    }
}

fn fuzzed_argv(rng: &mut StdRng) -> Vec<String> {
    let mut argv: Vec<String> = ARGVS[rng.gen_range(0..ARGVS.len())]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for _ in 0..rng.gen_range(0..4) {
        match rng.gen_range(0..6) {
            0 if !argv.is_empty() => remove_at_random(rng, &mut argv),
            1 => insert_at_random(rng, &mut argv, |rng| {
                WORDS[rng.gen_range(0..WORDS.len())].to_string()
            }),
            2 if !argv.is_empty() => replace_at_random(rng, &mut argv, fuzzed_number),
            3 => insert_at_random(rng, &mut argv, random_text),
            4 if !argv.is_empty() => {
                let i = rng.gen_range(0..argv.len());
                argv[i] = format!("{}={}", argv[i], fuzzed_number(rng));
            }
            _ => insert_at_random(rng, &mut argv, fuzzed_fen),
        }
    }
    argv
}

/// Whether a valid command line would take long (deep perft or bench, big tables, long
/// searches) or read stdin as an XBoard session; such lines are not run.
fn is_slow(argv: &[String]) -> bool {
    let Ok(parsed) = cli::parse(argv) else {
        return false;
    };
    let options = &parsed.options;
    if options.hash_mb.is_some_and(|mb| mb > 64) || options.threads.is_some_and(|n| n > 2) {
        return true;
    }
    let Some(command) = parsed.command else {
        return false;
    };
    match command {
        Subcommand::Perft(perft) if perft.epd.is_some() => perft.max_depth.is_none_or(|d| d > 2),
        Subcommand::Perft(perft) => perft.depth.is_some_and(|d| d > 3),
        Subcommand::Bench { depth } => depth > 2,
        Subcommand::Epd { ms, .. } => ms > 20,
        Subcommand::Params => false,
        // Self-play without end and fitting write files; neither is a parse question.
        // The corpus commands and `loss` read whole corpora; the corpus commands also write.
        Subcommand::Datagen { .. }
        | Subcommand::Spsa(_)
        | Subcommand::Tune(_)
        | Subcommand::Train(_)
        | Subcommand::Corpus(_)
        | Subcommand::Loss(_) => true,
    }
}

#[test]
fn command_line_fuzz_never_panics() {
    let mut rng = StdRng::seed_from_u64(0xa26);
    let dir = scratch_dir("argv-fuzz");
    let epd_file = dir.join("fuzz.epd");
    let (mut ran, mut usage_errors) = (0, 0);
    while ran < 250 {
        // A small EPD file of fuzzed lines with perft counts and opcodes.
        let lines: Vec<String> = (0..3)
            .map(|_| {
                let fen = fuzzed_fen(&mut rng);
                match rng.gen_range(0..3) {
                    0 => format!("{fen};D1 {}", rng.gen_range(0..40)),
                    1 => format!("{fen} bm e4; id \"f\";"),
                    _ => fen,
                }
            })
            .collect();
        std::fs::write(&epd_file, lines.join("\n")).expect("write the EPD file");
        let mut argv = fuzzed_argv(&mut rng);
        for arg in &mut argv {
            if arg == "FILE" {
                *arg = epd_file.display().to_string();
            }
        }
        argv.push("--log-dir".to_string());
        argv.push(dir.join("logs").display().to_string());
        if is_slow(&argv) {
            continue;
        }
        ran += 1;
        let (code, out, err) = run_ironwood(&argv);
        let context = format!("argv {argv:?}\nstdout {out}\nstderr {err}");
        assert!(!err.contains("panicked"), "{context}");
        assert!(matches!(code, 0..=2), "exit {code}: {context}");
        // `--help` and `--version` end the parse too, with status 0.
        let expected_usage_error = cli::parse(&argv).is_err_and(|e| e.exit_code() == 2);
        assert_eq!(code == 2, expected_usage_error, "{context}");
        if code == 2 {
            usage_errors += 1;
            assert!(out.is_empty(), "{context}");
        }
        if code != 0 && !(code == 1 && argv.contains(&"--epd".to_string())) {
            // Every failure says why (a perft suite mismatch is reported on stdout).
            assert!(err.starts_with("ironwood: "), "{context}");
        }
    }
    assert!(usage_errors > 20, "{usage_errors}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn setboard_fuzz_refuses_bad_fens_and_keeps_playing() {
    let mut rng = StdRng::seed_from_u64(0x5eb);
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("force");
    for _ in 0..1500 {
        let fen = fuzzed_fen(&mut rng).replace(['\n', '\r'], " ");
        engine.send(&format!("setboard {fen}"));
        if fen.trim().is_empty() {
            engine.expect("an error", SHORT, |l| {
                l == "Error (missing argument): setboard"
            });
        } else if Position::from_fen(&fen).is_err() {
            engine.expect("a refusal", SHORT, |l| {
                l == "tellusererror Illegal position"
            });
        }
        while engine.recv(Duration::ZERO).is_some() {}
    }
    engine.send("ping 77");
    engine.expect("pong 77", LONG, |l| l == "pong 77");
    engine.send("new");
    engine.send("sd 2");
    engine.send("go");
    engine.expect_move(&Position::startpos(), SHORT);
    let stderr = engine.stderr();
    assert!(!stderr.contains("panicked"), "{stderr}");
}
