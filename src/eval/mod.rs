//! Static evaluation: a score in centipawns from the side to move's point of view.
//! (Material only for now; the tapered evaluation replaces it.)

use crate::board::{Color, PieceKind, Position};

/// Midgame-ish piece values, also used by move ordering (MVV-LVA) and SEE.
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

pub fn evaluate(pos: &Position) -> i32 {
    let mut score = 0;
    for kind in PieceKind::ALL {
        let diff = pos.pieces(Color::White, kind).count() as i32
            - pos.pieces(Color::Black, kind).count() as i32;
        score += diff * PIECE_VALUES[kind.index()];
    }
    score * pos.side_to_move().sign()
}
