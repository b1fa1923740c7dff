//! Material and piece-square tables, folded into one table per piece kind at compile time.
//! The values (`WEIGHTS.material` and `WEIGHTS.*_squares`) began as PeSTO's (Ronald
//! Friederich's tuned set for Rofchade, published on chessprogramming.org).

use super::params::index;
use super::score::{Score, s};
use super::trace::Tracer;
use super::weights::WEIGHTS;
use crate::board::{Color, PieceKind, Position};

/// Each kind's table, a board diagram from White's side with rank 8 first.
const DIAGRAMS: [&[Score; 64]; 6] = [
    &WEIGHTS.pawn_squares,
    &WEIGHTS.knight_squares,
    &WEIGHTS.bishop_squares,
    &WEIGHTS.rook_squares,
    &WEIGHTS.queen_squares,
    &WEIGHTS.king_squares,
];

/// Value plus placement for a White piece, indexed by kind and square (a1 = 0).
const PIECE_SQUARE: [[Score; 64]; 6] = {
    let mut table = [[Score::ZERO; 64]; 6];
    let mut kind = 0;
    while kind < 6 {
        let mut sq = 0;
        while sq < 64 {
            // The diagrams start at a8, so the square a1 = 0 is diagram entry 56.
            let diagram = sq ^ 56;
            let (value, placement) = (WEIGHTS.material[kind], DIAGRAMS[kind][diagram]);
            table[kind][sq] = s(value.mg + placement.mg, value.eg + placement.eg);
            sq += 1;
        }
        kind += 1;
    }
    table
};

/// Material and placement of every piece, from White's point of view.
pub fn material_and_placement<T: Tracer>(pos: &Position, trace: &mut T) -> Score {
    let mut score = Score::ZERO;
    for kind in PieceKind::ALL {
        let table = &PIECE_SQUARE[kind.index()];
        let squares = index::PAWN_SQUARES + 64 * kind.index();
        for sq in pos.pieces(Color::White, kind) {
            score += table[sq.index()];
            trace.add(index::MATERIAL + kind.index(), Color::White, 1);
            trace.add(squares + (sq.index() ^ 56), Color::White, 1);
        }
        for sq in pos.pieces(Color::Black, kind) {
            score -= table[sq.flip_rank().index()];
            trace.add(index::MATERIAL + kind.index(), Color::Black, 1);
            trace.add(squares + (sq.flip_rank().index() ^ 56), Color::Black, 1);
        }
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::eval::trace::NoTrace;

    fn white(kind: PieceKind, square: &str) -> Score {
        PIECE_SQUARE[kind.index()][Square::parse(square).unwrap().index()]
    }

    #[test]
    fn diagrams_are_read_from_whites_side() {
        // Diagram entry 0 is a8, entry 8 is a7, entry 48 is a2, entry 63 is h1.
        let pawn = WEIGHTS.material[0];
        assert_eq!(white(PieceKind::Pawn, "a7"), pawn + WEIGHTS.pawn_squares[8]);
        assert_eq!(
            white(PieceKind::Pawn, "a2"),
            pawn + WEIGHTS.pawn_squares[48]
        );
        assert_eq!(
            white(PieceKind::Knight, "a8"),
            WEIGHTS.material[1] + WEIGHTS.knight_squares[0]
        );
        assert_eq!(white(PieceKind::King, "h1"), WEIGHTS.king_squares[63]);
    }

    #[test]
    fn black_pieces_use_the_mirrored_square() {
        let pos = Position::from_fen("4k3/p7/8/8/8/8/P7/4K3 w - - 0 1").unwrap();
        assert_eq!(material_and_placement(&pos, &mut NoTrace), Score::ZERO);
        let pos = Position::from_fen("4k3/8/8/8/8/8/P7/4K3 w - - 0 1").unwrap();
        assert_eq!(
            material_and_placement(&pos, &mut NoTrace),
            white(PieceKind::Pawn, "a2")
        );
    }
}
