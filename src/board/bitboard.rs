//! `Bitboard`: a set of squares in one `u64`, with the few operations move generation and
//! evaluation need. Iteration pops the lowest square first.

use super::square::{Color, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
pub const RANK_1: Bitboard = Bitboard(0xFF);
pub const RANK_8: Bitboard = Bitboard(0xFF << 56);
pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);
pub const DARK_SQUARES: Bitboard = Bitboard(!0x55AA_55AA_55AA_55AA);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const ALL: Bitboard = Bitboard(!0);

    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u64 << sq.index())
    }

    #[inline]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(FILE_A.0 << file)
    }

    #[inline]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(RANK_1.0 << (8 * rank))
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square set.
    #[inline]
    pub const fn several(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1u64 << sq.index()) != 0
    }

    /// Lowest square; the set must not be empty.
    #[inline]
    pub fn lowest(self) -> Square {
        debug_assert!(self.any());
        Square::new(self.0.trailing_zeros() as u8)
    }

    /// All squares one step "forward" for `color` (White: north).
    #[inline]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard(self.0 << 8),
            Color::Black => Bitboard(self.0 >> 8),
        }
    }

    #[inline]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 & !FILE_A.0) >> 1)
    }

    #[inline]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 & !FILE_H.0) << 1)
    }

    /// Squares attacked by pawns of `color` standing on `self`.
    #[inline]
    pub const fn pawn_attacks(self, color: Color) -> Bitboard {
        let ahead = self.forward(color);
        Bitboard(ahead.west().0 | ahead.east().0)
    }

    /// Fills every square north (White) or south (Black) of each set square, exclusive.
    #[inline]
    pub const fn front_span(self, color: Color) -> Bitboard {
        let mut b = self.forward(color).0;
        match color {
            Color::White => {
                b |= b << 8;
                b |= b << 16;
                b |= b << 32;
            }
            Color::Black => {
                b |= b >> 8;
                b |= b >> 16;
                b |= b >> 32;
            }
        }
        Bitboard(b)
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::new(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_visits_each_square_once_in_order() {
        let b = Bitboard(0b1010_0001);
        let squares: Vec<usize> = b.map(|s| s.index()).collect();
        assert_eq!(squares, vec![0, 5, 7]);
    }

    #[test]
    fn shifts_do_not_wrap_around_files() {
        assert_eq!(FILE_A.west(), Bitboard::EMPTY);
        assert_eq!(FILE_H.east(), Bitboard::EMPTY);
        assert_eq!(RANK_8.forward(Color::White), Bitboard::EMPTY);
        assert_eq!(RANK_1.forward(Color::Black), Bitboard::EMPTY);
    }

    #[test]
    fn front_span_covers_the_file_ahead() {
        let e2 = Bitboard::from_square(Square::parse("e2").unwrap());
        assert_eq!(e2.front_span(Color::White).count(), 6);
        assert_eq!(e2.front_span(Color::Black).count(), 1);
    }
}
