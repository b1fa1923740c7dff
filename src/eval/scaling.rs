//! Draw scaling: material balances where the side ahead usually cannot win shrink the
//! score towards zero (pawnless small advantages, opposite-coloured bishops).

use super::PIECE_VALUES;
use super::params::ScaleFactors;
use super::weights::SCALE;
use crate::board::bitboard::LIGHT_SQUARES;
use crate::board::{Color, PieceKind, Position};

/// Scale factors are out of this: the score in full, a definition rather than a weight.
pub const FULL: i32 = 64;
/// No pawns and at most a minor piece, or two knights against no pawns: no forced mate. A
/// rule of chess rather than a weight, so the tuner leaves it alone.
const CANNOT_WIN: i32 = 0;

/// Which draw-scaling case applies; the tunable factors are in `weights::SCALE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScaleCase {
    Full,
    CannotWin,
    /// No pawns and ahead by at most a minor piece (rook against minor, rook and minor
    /// against rook, ...): theoretical draws as a rule.
    PawnlessSmallEdge,
    PureOppositeBishops,
    OppositeBishopsWithPieces,
}

impl ScaleCase {
    /// The factor out of `FULL` with the given tunable factors.
    pub fn factor(self, scale: &ScaleFactors) -> i32 {
        match self {
            ScaleCase::Full => FULL,
            ScaleCase::CannotWin => CANNOT_WIN,
            ScaleCase::PawnlessSmallEdge => scale.pawnless_small_edge,
            ScaleCase::PureOppositeBishops => scale.pure_opposite_bishops,
            ScaleCase::OppositeBishopsWithPieces => scale.opposite_bishops_with_pieces,
        }
    }

    /// Index in `ScaleFactors::to_array` of the tunable factor, if this case has one.
    pub fn tunable(self) -> Option<usize> {
        match self {
            ScaleCase::Full | ScaleCase::CannotWin => None,
            ScaleCase::PawnlessSmallEdge => Some(0),
            ScaleCase::PureOppositeBishops => Some(1),
            ScaleCase::OppositeBishopsWithPieces => Some(2),
        }
    }
}

fn non_pawn_material(pos: &Position, color: Color) -> i32 {
    [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ]
    .iter()
    .map(|&kind| pos.pieces(color, kind).count() as i32 * PIECE_VALUES[kind.index()])
    .sum()
}

/// How much of its score `strong`, the side it favours, keeps (out of `FULL`).
pub fn scale_factor(pos: &Position, strong: Color) -> i32 {
    scale_case(pos, strong).factor(&SCALE)
}

/// Which case of draw scaling applies when `strong` is the side the score favours.
pub fn scale_case(pos: &Position, strong: Color) -> ScaleCase {
    let weak = !strong;
    if pos.pieces(strong, PieceKind::Pawn).is_empty() {
        let strong_material = non_pawn_material(pos, strong);
        let weak_material = non_pawn_material(pos, weak);
        if strong_material <= PIECE_VALUES[PieceKind::Bishop.index()] {
            return ScaleCase::CannotWin;
        }
        let only_two_knights = strong_material == 2 * PIECE_VALUES[PieceKind::Knight.index()]
            && pos.pieces(strong, PieceKind::Knight).count() == 2;
        if only_two_knights && pos.pieces(weak, PieceKind::Pawn).is_empty() {
            return ScaleCase::CannotWin;
        }
        if strong_material - weak_material <= PIECE_VALUES[PieceKind::Bishop.index()] {
            return ScaleCase::PawnlessSmallEdge;
        }
    }

    let white_bishops = pos.pieces(Color::White, PieceKind::Bishop);
    let black_bishops = pos.pieces(Color::Black, PieceKind::Bishop);
    if white_bishops.count() == 1
        && black_bishops.count() == 1
        && (white_bishops & LIGHT_SQUARES).any() != (black_bishops & LIGHT_SQUARES).any()
    {
        let others =
            pos.kind(PieceKind::Knight) | pos.kind(PieceKind::Rook) | pos.kind(PieceKind::Queen);
        return if others.is_empty() {
            ScaleCase::PureOppositeBishops
        } else {
            ScaleCase::OppositeBishopsWithPieces
        };
    }
    ScaleCase::Full
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::position;

    fn white_scale(fen: &str) -> i32 {
        scale_factor(&position(fen), Color::White)
    }

    #[test]
    fn pawnless_small_edges_and_lone_minors_are_scaled_down() {
        assert_eq!(white_scale("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), FULL);
        assert_eq!(white_scale("4k3/8/8/8/8/8/8/Q3K1r1 w - - 0 1"), FULL);
        assert_eq!(
            white_scale("4k3/8/8/8/8/8/8/R3K1n1 w - - 0 1"),
            SCALE.pawnless_small_edge
        );
        assert_eq!(
            white_scale("4k3/8/8/8/8/8/8/RB2K1r1 w - - 0 1"),
            SCALE.pawnless_small_edge
        );
        assert_eq!(white_scale("4k3/4p3/8/8/8/8/8/N3K3 w - - 0 1"), CANNOT_WIN);
        assert_eq!(white_scale("4k3/8/8/8/8/8/8/NN2K3 w - - 0 1"), CANNOT_WIN);
        // With a pawn on the board the same material can be won.
        assert_eq!(white_scale("4k3/8/8/8/8/8/P7/R3K1n1 w - - 0 1"), FULL);
    }

    #[test]
    fn opposite_bishops_are_scaled_down_most_without_other_pieces() {
        assert_eq!(
            white_scale("4k3/pp3b2/8/8/8/8/PPP5/2B1K3 w - - 0 1"),
            SCALE.pure_opposite_bishops
        );
        assert_eq!(
            white_scale("r3k3/pp3b2/8/8/8/8/PPP5/R1B1K3 w - - 0 1"),
            SCALE.opposite_bishops_with_pieces
        );
        assert_eq!(white_scale("4k3/pp2b3/8/8/8/8/PPP5/2B1K3 w - - 0 1"), FULL);
    }
}
