//! `Move`: a 16-bit packed move (from, to, kind) and `MoveList`, a fixed-capacity list that
//! move generation fills without allocating.

use super::castling::CastleSide;
use super::square::{PieceKind, Square};
use std::fmt;

/// from: bits 0-5, to: bits 6-11, kind: bits 12-15 (the chessprogramming.org encoding).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum MoveKind {
    Quiet = 0,
    DoublePush = 1,
    KingCastle = 2,
    QueenCastle = 3,
    Capture = 4,
    EnPassant = 5,
    PromoteKnight = 8,
    PromoteBishop = 9,
    PromoteRook = 10,
    PromoteQueen = 11,
    PromoteKnightCapture = 12,
    PromoteBishopCapture = 13,
    PromoteRookCapture = 14,
    PromoteQueenCapture = 15,
}

const CAPTURE_BIT: u16 = 4;
const PROMOTION_BIT: u16 = 8;

impl Move {
    /// Never a legal move (a1a1); marks "no move" in tables and PVs.
    pub const NULL: Move = Move(0);

    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | (kind as u16) << 12)
    }

    #[inline]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }

    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    #[inline]
    pub const fn to(self) -> Square {
        Square::new(((self.0 >> 6) & 63) as u8)
    }

    #[inline]
    pub const fn flags(self) -> u16 {
        self.0 >> 12
    }

    pub const fn kind(self) -> MoveKind {
        match self.flags() {
            0 => MoveKind::Quiet,
            1 => MoveKind::DoublePush,
            2 => MoveKind::KingCastle,
            3 => MoveKind::QueenCastle,
            4 => MoveKind::Capture,
            5 => MoveKind::EnPassant,
            8 => MoveKind::PromoteKnight,
            9 => MoveKind::PromoteBishop,
            10 => MoveKind::PromoteRook,
            11 => MoveKind::PromoteQueen,
            12 => MoveKind::PromoteKnightCapture,
            13 => MoveKind::PromoteBishopCapture,
            14 => MoveKind::PromoteRookCapture,
            _ => MoveKind::PromoteQueenCapture,
        }
    }

    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn is_capture(self) -> bool {
        self.flags() & CAPTURE_BIT != 0
    }

    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.flags() & PROMOTION_BIT != 0
    }

    /// Captures and promotions: the moves quiescence search looks at.
    #[inline]
    pub const fn is_tactical(self) -> bool {
        self.flags() & (CAPTURE_BIT | PROMOTION_BIT) != 0
    }

    #[inline]
    pub const fn is_castle(self) -> bool {
        matches!(self.flags(), 2 | 3)
    }

    /// The side of a castling move. Castling is written king-from to king-goal (`e1g1`); in
    /// Chess960 the king may already stand on its goal, so from and to can be equal.
    #[inline]
    pub const fn castle_side(self) -> Option<CastleSide> {
        match self.flags() {
            2 => Some(CastleSide::King),
            3 => Some(CastleSide::Queen),
            _ => None,
        }
    }

    pub const fn promotion(self) -> Option<PieceKind> {
        if !self.is_promotion() {
            return None;
        }
        Some(match self.flags() & 3 {
            0 => PieceKind::Knight,
            1 => PieceKind::Bishop,
            2 => PieceKind::Rook,
            _ => PieceKind::Queen,
        })
    }

    pub fn promotion_kind(piece: PieceKind, capture: bool) -> MoveKind {
        match (piece, capture) {
            (PieceKind::Knight, false) => MoveKind::PromoteKnight,
            (PieceKind::Bishop, false) => MoveKind::PromoteBishop,
            (PieceKind::Rook, false) => MoveKind::PromoteRook,
            (_, false) => MoveKind::PromoteQueen,
            (PieceKind::Knight, true) => MoveKind::PromoteKnightCapture,
            (PieceKind::Bishop, true) => MoveKind::PromoteBishopCapture,
            (PieceKind::Rook, true) => MoveKind::PromoteRookCapture,
            (_, true) => MoveKind::PromoteQueenCapture,
        }
    }
}

/// Coordinate notation as XBoard wants it: `e2e4`, `e7e8q`, castling as `e1g1`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return write!(f, "@@@@");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(kind) = self.promotion() {
            write!(f, "{}", kind.letter().to_ascii_lowercase())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

pub const MAX_MOVES: usize = 256;

/// Fixed-capacity move list; the most legal moves any position has is 218.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        self.moves[self.len] = m;
        self.len += 1;
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    #[inline]
    pub fn swap(&mut self, a: usize, b: usize) {
        self.moves.swap(a, b);
    }

    #[inline]
    pub fn get(&self, i: usize) -> Move {
        debug_assert!(i < self.len);
        self.moves[i]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        let from = Square::parse("e7").unwrap();
        let to = Square::parse("d8").unwrap();
        let m = Move::new(from, to, MoveKind::PromoteKnightCapture);
        assert_eq!(m.from(), from);
        assert_eq!(m.to(), to);
        assert!(m.is_capture() && m.is_promotion());
        assert_eq!(m.promotion(), Some(PieceKind::Knight));
        assert_eq!(m.to_string(), "e7d8n");
        assert_eq!(Move::from_raw(m.raw()), m);
    }
}
