//! Castling rights by rook file, for normal chess and Chess960 alike: each colour may castle
//! on its king side and queen side with the rook standing on a given file of its first rank.
//! The king always ends on the g- or c-file and the rook beside it on the f- or d-file.

use super::attacks::{ZOBRIST_CASTLING, ZOBRIST_CASTLING_FILE};
use super::square::{Color, Square};

/// Which way a king castles: towards the h-file or towards the a-file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastleSide {
    King,
    Queen,
}

impl CastleSide {
    pub const BOTH: [CastleSide; 2] = [CastleSide::King, CastleSide::Queen];

    /// The file the king lands on.
    pub const fn king_goal_file(self) -> u8 {
        match self {
            CastleSide::King => 6,
            CastleSide::Queen => 2,
        }
    }

    /// The file the rook lands on.
    pub const fn rook_goal_file(self) -> u8 {
        match self {
            CastleSide::King => 5,
            CastleSide::Queen => 3,
        }
    }

    /// The rook file of normal chess.
    pub const fn standard_rook_file(self) -> u8 {
        match self {
            CastleSide::King => 7,
            CastleSide::Queen => 0,
        }
    }

    /// The side a rook on `rook_file` castles to with the king on `king_file`.
    pub const fn of(king_file: u8, rook_file: u8) -> CastleSide {
        if rook_file > king_file {
            CastleSide::King
        } else {
            CastleSide::Queen
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            CastleSide::King => "king-side",
            CastleSide::Queen => "queen-side",
        }
    }
}

/// The first rank of `color`.
pub const fn home_rank(color: Color) -> u8 {
    match color {
        Color::White => 0,
        Color::Black => 7,
    }
}

const NO_FILE: u8 = 8;

/// For each right (White king side, White queen side, Black king side, Black queen side)
/// the file of its rook, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CastlingRights {
    rook_files: [u8; 4],
}

impl Default for CastlingRights {
    fn default() -> Self {
        CastlingRights::NONE
    }
}

#[inline]
const fn slot(color: Color, side: CastleSide) -> usize {
    (match color {
        Color::White => 0,
        Color::Black => 2,
    }) + match side {
        CastleSide::King => 0,
        CastleSide::Queen => 1,
    }
}

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights {
        rook_files: [NO_FILE; 4],
    };

    /// All four rights of normal chess (rooks on the a- and h-files).
    pub const STANDARD: CastlingRights = CastlingRights {
        rook_files: [7, 0, 7, 0],
    };

    /// The rook file of `color`'s right on `side`, if it has that right.
    #[inline]
    pub const fn rook_file(self, color: Color, side: CastleSide) -> Option<u8> {
        match self.rook_files[slot(color, side)] {
            NO_FILE => None,
            file => Some(file),
        }
    }

    /// The square of that right's rook.
    #[inline]
    pub fn rook_square(self, color: Color, side: CastleSide) -> Option<Square> {
        self.rook_file(color, side)
            .map(|file| Square::from_file_rank(file, home_rank(color)))
    }

    #[inline]
    pub const fn has(self, color: Color, side: CastleSide) -> bool {
        self.rook_files[slot(color, side)] != NO_FILE
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        u32::from_ne_bytes(self.rook_files) == u32::from_ne_bytes([NO_FILE; 4])
    }

    /// These rights plus `color`'s right on `side` with its rook on `rook_file`.
    #[must_use]
    pub const fn with(mut self, color: Color, side: CastleSide, rook_file: u8) -> Self {
        self.rook_files[slot(color, side)] = rook_file & 7;
        self
    }

    #[must_use]
    pub const fn without(mut self, color: Color, side: CastleSide) -> Self {
        self.rook_files[slot(color, side)] = NO_FILE;
        self
    }

    /// Both colours' rights exchanged (for the mirrored position).
    #[must_use]
    pub const fn colors_swapped(self) -> Self {
        let [a, b, c, d] = self.rook_files;
        CastlingRights {
            rook_files: [c, d, a, b],
        }
    }

    /// The rights left after a move from `from` to `to`: a king move ends its colour's
    /// rights, a move from or onto a castling rook's square ends that rook's right.
    #[inline]
    #[must_use]
    pub fn after_move(self, mover: Color, king_moved: bool, from: Square, to: Square) -> Self {
        let mut rights = self;
        if king_moved {
            rights = rights
                .without(mover, CastleSide::King)
                .without(mover, CastleSide::Queen);
        }
        for color in Color::BOTH {
            for side in CastleSide::BOTH {
                if let Some(rook) = rights.rook_square(color, side)
                    && (rook == from || rook == to)
                {
                    rights = rights.without(color, side);
                }
            }
        }
        rights
    }

    /// The four-bit set of rights (White king side = 1, White queen side = 2, Black king
    /// side = 4, Black queen side = 8).
    #[inline]
    fn mask(self) -> usize {
        let mut mask = 0;
        for (i, &file) in self.rook_files.iter().enumerate() {
            if file != NO_FILE {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// The rights' share of the Zobrist key: one key per set of rights, as normal chess has
    /// always had, and a key per rook file for each right whose rook is not on the file of
    /// normal chess, so Chess960 positions that differ only in their rook files differ.
    pub fn zobrist(self) -> u64 {
        let mut key = ZOBRIST_CASTLING[self.mask()];
        for (i, &file) in self.rook_files.iter().enumerate() {
            let standard = if i % 2 == 0 { 7 } else { 0 };
            if file != NO_FILE && file != standard {
                key ^= ZOBRIST_CASTLING_FILE[i * 8 + usize::from(file)];
            }
        }
        key
    }
}

/// The back rank of Chess960 start number `n` (0..960, Scharnagl's numbering; 518 is
/// normal chess's `RNBQKBNR`) as White's piece letters from the a-file.
pub fn chess960_back_rank(mut n: usize) -> [u8; 8] {
    let mut rank = [0u8; 8];
    rank[(n % 4) * 2 + 1] = b'B';
    n /= 4;
    rank[(n % 4) * 2] = b'B';
    n /= 4;
    // The `k`-th empty square (from the a-file) gets `piece`.
    let mut place = |piece: u8, k: usize| {
        if let Some(square) = rank.iter_mut().filter(|s| **s == 0).nth(k) {
            *square = piece;
        }
    };
    place(b'Q', n % 6);
    n /= 6;
    // The knights' places among the five squares left, in Scharnagl's order.
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (first, second) = KNIGHTS[n % 10];
    place(b'N', second);
    place(b'N', first);
    // Rook, king, rook on the three squares left: the king between the rooks.
    for piece in [b'R', b'K', b'R'] {
        place(piece, 0);
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rights_are_kept_by_rook_file() {
        let rights = CastlingRights::NONE
            .with(Color::White, CastleSide::King, 6)
            .with(Color::Black, CastleSide::Queen, 1);
        assert_eq!(rights.rook_file(Color::White, CastleSide::King), Some(6));
        assert_eq!(rights.rook_file(Color::White, CastleSide::Queen), None);
        assert_eq!(
            rights.rook_square(Color::Black, CastleSide::Queen),
            Square::parse("b8")
        );
        assert!(!rights.is_empty());
        assert!(CastlingRights::NONE.is_empty());
        let swapped = rights.colors_swapped();
        assert_eq!(swapped.rook_file(Color::Black, CastleSide::King), Some(6));
        assert_eq!(swapped.rook_file(Color::White, CastleSide::Queen), Some(1));
    }

    #[test]
    fn moves_touching_king_or_rook_end_rights() {
        let sq = |s| Square::parse(s).unwrap();
        let rights = CastlingRights::STANDARD;
        let after = rights.after_move(Color::White, false, sq("h1"), sq("h5"));
        assert!(!after.has(Color::White, CastleSide::King));
        assert!(after.has(Color::White, CastleSide::Queen));
        let after = rights.after_move(Color::White, true, sq("e1"), sq("e2"));
        assert!(!after.has(Color::White, CastleSide::Queen));
        assert!(after.has(Color::Black, CastleSide::King));
        let after = rights.after_move(Color::White, false, sq("b7"), sq("a8"));
        assert!(!after.has(Color::Black, CastleSide::Queen));
    }

    #[test]
    fn keys_differ_by_rook_file_and_keep_normal_chess_keys() {
        let standard = CastlingRights::STANDARD;
        assert_eq!(standard.zobrist(), ZOBRIST_CASTLING[15]);
        let other = standard.with(Color::White, CastleSide::King, 6);
        assert_ne!(other.zobrist(), standard.zobrist());
        assert_ne!(
            CastlingRights::NONE
                .with(Color::White, CastleSide::Queen, 1)
                .zobrist(),
            CastlingRights::NONE
                .with(Color::White, CastleSide::Queen, 2)
                .zobrist()
        );
    }
}
