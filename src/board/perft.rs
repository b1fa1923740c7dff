//! Perft: counts the leaves of the legal move tree, the standard test of a move generator.
//! The last ply is bulk-counted (the number of legal moves), which the rules allow.

use super::movegen::{count_legal_moves, legal_moves};
use super::moves::{Move, MoveList};
use super::position::Position;

pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal_moves(pos) as u64,
        _ => {
            let mut list = MoveList::new();
            legal_moves(pos, &mut list);
            list.iter()
                .map(|&m| perft(&pos.make_move(m), depth - 1))
                .sum()
        }
    }
}

/// Perft split by root move (the `divide` that finds a generator bug's first wrong move).
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    list.iter()
        .map(|&m| (m, perft(&pos.make_move(m), depth.saturating_sub(1))))
        .collect()
}

/// One line of a perft suite: `FEN ;D1 n ;D2 n ...`.
#[derive(Debug, Clone)]
pub struct PerftCase {
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

pub fn parse_perft_line(line: &str) -> Option<PerftCase> {
    let mut parts = line.split(';').map(str::trim);
    let fen = parts.next()?.to_string();
    if fen.is_empty() {
        return None;
    }
    let mut counts = Vec::new();
    for part in parts.filter(|p| !p.is_empty()) {
        let mut fields = part.split_whitespace();
        let depth = fields.next()?.strip_prefix('D')?.parse().ok()?;
        let nodes = fields.next()?.parse().ok()?;
        counts.push((depth, nodes));
    }
    Some(PerftCase { fen, counts })
}
