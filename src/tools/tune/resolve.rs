//! Quiescence resolution of training positions (`ironwood tune --resolve`): each position is
//! replaced by the last position of its quiescence line, searched with the evaluation being
//! tuned, so the tuner fits static evaluations where no capture is pending.
//! The labels (game result, search score) stay those of the recorded position.

use crate::board::moves::MAX_MOVES;
use crate::board::{Move, MoveList, Position, legal_captures};
use crate::eval::evaluate;
use crate::search::ordering::mvv_lva;

/// Captures deeper than this are not followed; a line that long is rare and its end is
/// as good a leaf as any.
const MAX_PLIES: usize = 12;

/// The position at the end of `pos`'s quiescence principal variation: `pos` itself when
/// standing pat is best (the usual case for a position whose best move was quiet).
pub fn resolve(pos: &Position) -> Position {
    let mut line = Line::default();
    quiescence(pos, -i32::MAX, i32::MAX, 0, &mut line);
    let mut leaf = pos.clone();
    for &m in &line.moves[..line.len] {
        leaf = leaf.make_move(m);
    }
    leaf
}

#[derive(Clone, Copy, Default)]
struct Line {
    moves: [Move; MAX_PLIES],
    len: usize,
}

/// Fail-hard alpha-beta over captures and queen promotions with stand pat; not in-check
/// aware on purpose (the tuner's positions are not in check, and a capture that gives
/// check is scored like any other capture, as Texel-style resolvers do).
fn quiescence(pos: &Position, mut alpha: i32, beta: i32, ply: usize, line: &mut Line) -> i32 {
    line.len = 0;
    let stand_pat = evaluate(pos);
    if stand_pat >= beta {
        return beta;
    }
    alpha = alpha.max(stand_pat);
    if ply == MAX_PLIES {
        return alpha;
    }
    let mut captures = MoveList::new();
    legal_captures(pos, &mut captures);
    let mut scored: [(i32, usize); MAX_MOVES] = [(0, 0); MAX_MOVES];
    for (i, &m) in captures.iter().enumerate() {
        scored[i] = (mvv_lva(pos, m), i);
    }
    let scored = &mut scored[..captures.len()];
    scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut child_line = Line::default();
    for &(_, i) in scored.iter() {
        let m = captures.get(i);
        let child = pos.make_move(m);
        let value = -quiescence(&child, -beta, -alpha, ply + 1, &mut child_line);
        if value >= beta {
            return beta;
        }
        if value > alpha {
            alpha = value;
            line.moves[0] = m;
            line.moves[1..=child_line.len].copy_from_slice(&child_line.moves[..child_line.len]);
            line.len = child_line.len + 1;
        }
    }
    alpha
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, PieceKind};

    fn fen(text: &str) -> Position {
        Position::from_fen(text).expect("test FEN")
    }

    #[test]
    fn a_quiet_position_is_its_own_leaf() {
        let start = Position::startpos();
        assert_eq!(resolve(&start).key(), start.key());
    }

    #[test]
    fn a_hanging_queen_is_taken_before_the_position_is_traced() {
        // White's queen on d5 is en prise to the e6 pawn; nothing recaptures.
        let pos = fen("4k3/8/4p3/3Q4/8/8/8/4K3 b - - 0 1");
        let leaf = resolve(&pos);
        assert_eq!(leaf.pieces(Color::White, PieceKind::Queen).count(), 0);
        assert_eq!(leaf.side_to_move(), Color::White);
    }

    #[test]
    fn an_exchange_that_loses_is_not_played() {
        // Qxd5 would win a pawn and lose the queen to the c6 pawn: stand pat.
        let pos = fen("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1");
        assert_eq!(resolve(&pos).key(), pos.key());
    }
}
