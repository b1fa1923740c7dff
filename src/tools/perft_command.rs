//! The `ironwood perft` subcommand: a divide for one position, or a whole EPD suite.

use crate::board::perft::{divide, parse_perft_line, perft};
use crate::board::{CastlingMode, CastlingNotation, Position, move_text};
use std::time::Instant;

/// `perft DEPTH [FEN...]`: one line per root move, then `nodes N time_ms T nps X`.
/// A FEN of normal chess writes castling `e1g1`; any other (Chess960) FEN king takes rook,
/// as Stockfish's divide does with `UCI_Chess960`.
pub fn run_divide(depth: u32, fen: Option<&str>) -> Result<(), String> {
    let (pos, notation) = match fen {
        Some(f) => match Position::from_fen(f) {
            Ok(pos) => (pos, CastlingNotation::Standard),
            Err(_) => (
                Position::from_fen_in(f, CastlingMode::Chess960)
                    .map_err(|e| format!("bad FEN: {e}"))?,
                CastlingNotation::KingTakesRook,
            ),
        },
        None => (Position::startpos(), CastlingNotation::Standard),
    };
    let start = Instant::now();
    let mut total = 0;
    for (m, nodes) in divide(&pos, depth) {
        println!("{}: {nodes}", move_text(&pos, m, notation));
        total += nodes;
    }
    if depth == 0 {
        total = 1;
    }
    print_summary(total, start);
    Ok(())
}

fn print_summary(nodes: u64, start: Instant) {
    let ms = start.elapsed().as_millis();
    let nps = (nodes as u128 * 1000) / ms.max(1);
    println!("nodes {nodes} time_ms {ms} nps {nps}");
}

/// `perft --epd FILE [--max-depth D]`: every depth of every line, each mismatch reported,
/// then `passed P of T`. Returns whether all passed.
pub fn run_suite(path: &str, max_depth: Option<u32>) -> Result<bool, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let start = Instant::now();
    let (mut passed, mut total, mut nodes) = (0, 0, 0u64);
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let Some(case) = parse_perft_line(line) else {
            println!("line {}: cannot parse: {line}", number + 1);
            total += 1;
            continue;
        };
        let pos = match Position::from_fen_in(&case.fen, CastlingMode::Chess960) {
            Ok(p) => p,
            Err(e) => {
                println!("line {}: bad FEN ({e}): {}", number + 1, case.fen);
                total += 1;
                continue;
            }
        };
        for &(depth, expected) in &case.counts {
            if max_depth.is_some_and(|d| depth > d) {
                continue;
            }
            total += 1;
            let got = perft(&pos, depth);
            nodes += got;
            if got == expected {
                passed += 1;
            } else {
                println!(
                    "MISMATCH line {} depth {depth}: expected {expected}, got {got}: {}",
                    number + 1,
                    case.fen
                );
            }
        }
    }
    print_summary(nodes, start);
    println!("passed {passed} of {total}");
    Ok(passed == total)
}
