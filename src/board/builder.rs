//! `PositionBuilder`: a position put together piece by piece (edit mode, a change of the
//! side to move) and checked as a whole when built, so no caller writes FEN text to get
//! one. Each way a position can be impossible is a `PositionError`.

use std::fmt;

use super::attacks::pawn_attacks;
use super::castling::{CastleSide, CastlingRights, home_rank};
use super::position::Position;
use super::square::{Color, Piece, PieceKind, Square};

/// The largest halfmove clock a position may have (and so a FEN may give). The counter is
/// 16 bits and only ever grows by one per ply (saturating), so this leaves room for any game
/// played on from the position; no real game gets near it (the 75-move rule ends one at 150).
pub const MAX_HALFMOVE_CLOCK: u16 = 60_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    KingCount {
        color: Color,
        count: u32,
    },
    PawnOnBackRank(Square),
    /// A castling right for a colour whose king is not on its first rank (`file: None`), or
    /// in normal chess not on the given file.
    CastlingWithoutKing {
        color: Color,
        file: Option<u8>,
    },
    /// A castling right whose rook is missing: no rook of that colour on `file` (`None`: on
    /// that side of the king at all, for an X-FEN `KQkq` letter).
    CastlingWithoutRook {
        color: Color,
        side: CastleSide,
        file: Option<u8>,
    },
    /// Two rights for one colour and side (say `KH` in a FEN).
    CastlingRightTwice {
        color: Color,
        side: CastleSide,
    },
    ImpossibleEnPassant(Square),
    OpponentInCheck,
    TooManyCheckers,
    /// Above the board's one limit (`MAX_HALFMOVE_CLOCK`), where FEN input stops too.
    HalfmoveClockTooLarge(u16),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::KingCount { color, count } => {
                write!(f, "{color:?} has {count} kings, needs exactly one")
            }
            PositionError::PawnOnBackRank(sq) => {
                write!(f, "pawn on the first or last rank ({sq})")
            }
            PositionError::CastlingWithoutKing { color, file } => {
                write!(f, "{color:?} has a castling right but its king is not on ")?;
                match file {
                    Some(file) => write!(f, "{}", Square::from_file_rank(*file, home_rank(*color))),
                    None => write!(f, "its first rank"),
                }
            }
            PositionError::CastlingWithoutRook { color, side, file } => {
                write!(
                    f,
                    "{color:?} {} castling right but no {color:?} rook ",
                    side.name()
                )?;
                match file {
                    Some(file) => write!(
                        f,
                        "on {} on that side of the king",
                        Square::from_file_rank(*file, home_rank(*color))
                    ),
                    None => write!(f, "on that side of the king"),
                }
            }
            PositionError::CastlingRightTwice { color, side } => {
                write!(f, "two {color:?} {} castling rights", side.name())
            }
            PositionError::ImpossibleEnPassant(sq) => {
                write!(f, "en-passant square {sq} is impossible in this position")
            }
            PositionError::OpponentInCheck => write!(f, "the side not to move is in check"),
            PositionError::TooManyCheckers => {
                write!(f, "the side to move is in check from more than two pieces")
            }
            PositionError::HalfmoveClockTooLarge(n) => {
                write!(f, "halfmove clock {n} is larger than {MAX_HALFMOVE_CLOCK}")
            }
        }
    }
}

impl std::error::Error for PositionError {}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionBuilder {
    squares: [Option<Piece>; 64],
    side: Color,
    castling: CastlingRights,
    en_passant: Option<Square>,
    halfmove_clock: u16,
    fullmove_number: u16,
}

impl Default for PositionBuilder {
    /// An empty board, White to move, no rights, clocks 0 and 1.
    fn default() -> Self {
        PositionBuilder {
            squares: [None; 64],
            side: Color::White,
            castling: CastlingRights::NONE,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }
}

impl PositionBuilder {
    /// Everything `position` holds, to change a part of it.
    pub fn from_position(position: &Position) -> PositionBuilder {
        let mut squares = [None; 64];
        for sq in Square::all() {
            squares[sq.index()] = position.piece_at(sq);
        }
        PositionBuilder {
            squares,
            side: position.side_to_move(),
            castling: position.castling(),
            en_passant: position.en_passant(),
            halfmove_clock: position.halfmove_clock(),
            fullmove_number: position.fullmove_number(),
        }
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// Puts `piece` on `sq` (`None` empties it).
    pub fn put(&mut self, sq: Square, piece: Option<Piece>) -> &mut Self {
        self.squares[sq.index()] = piece;
        self
    }

    /// Empties every square.
    pub fn clear_board(&mut self) -> &mut Self {
        self.squares = [None; 64];
        self
    }

    pub fn side_to_move(&mut self, side: Color) -> &mut Self {
        self.side = side;
        self
    }

    pub fn castling(&mut self, rights: CastlingRights) -> &mut Self {
        self.castling = rights;
        self
    }

    /// Every castling right of normal chess whose king and rook stand on their home squares
    /// (what XBoard's edit mode means).
    pub fn castling_from_home_squares(&mut self) -> &mut Self {
        let mut rights = CastlingRights::NONE;
        for color in Color::BOTH {
            let rank = home_rank(color);
            if self.piece_at(Square::from_file_rank(4, rank))
                != Some(Piece::new(color, PieceKind::King))
            {
                continue;
            }
            for side in CastleSide::BOTH {
                let file = side.standard_rook_file();
                if self.piece_at(Square::from_file_rank(file, rank))
                    == Some(Piece::new(color, PieceKind::Rook))
                {
                    rights = rights.with(color, side, file);
                }
            }
        }
        self.castling = rights;
        self
    }

    pub fn en_passant(&mut self, sq: Option<Square>) -> &mut Self {
        self.en_passant = sq;
        self
    }

    /// The halfmove clock and the fullmove number (0 counts as 1).
    pub fn clocks(&mut self, halfmove_clock: u16, fullmove_number: u16) -> &mut Self {
        self.halfmove_clock = halfmove_clock;
        self.fullmove_number = fullmove_number.max(1);
        self
    }

    /// The file of `color`'s king if it stands on its first rank.
    pub fn home_king_file(&self, color: Color) -> Option<u8> {
        (0..8).find(|&file| {
            self.piece_at(Square::from_file_rank(file, home_rank(color)))
                == Some(Piece::new(color, PieceKind::King))
        })
    }

    /// Each right has its king on the first rank and its rook on the given file, on the
    /// right's side of the king.
    fn check_castling(&self) -> Result<(), PositionError> {
        for color in Color::BOTH {
            let sides = CastleSide::BOTH.map(|side| self.castling.rook_file(color, side));
            if sides.iter().all(Option::is_none) {
                continue;
            }
            let king_file = self
                .home_king_file(color)
                .ok_or(PositionError::CastlingWithoutKing { color, file: None })?;
            for (side, file) in CastleSide::BOTH.into_iter().zip(sides) {
                let Some(file) = file else { continue };
                let rook = Square::from_file_rank(file, home_rank(color));
                if self.piece_at(rook) != Some(Piece::new(color, PieceKind::Rook))
                    || CastleSide::of(king_file, file) != side
                {
                    return Err(PositionError::CastlingWithoutRook {
                        color,
                        side,
                        file: Some(file),
                    });
                }
            }
        }
        Ok(())
    }

    /// The position, if it could occur in a game: one king each, no pawn on the first or
    /// last rank, castling rights the pieces allow, an en-passant square a double push could
    /// have left (kept only when the side to move can capture there), the side not on move
    /// not in check, at most two checkers. Nothing is built otherwise.
    pub fn build(&self) -> Result<Position, PositionError> {
        let mut pos = Position::empty();
        for sq in Square::all() {
            if let Some(piece) = self.squares[sq.index()] {
                pos.put_piece(piece, sq);
            }
        }
        for color in Color::BOTH {
            let count = pos.pieces(color, PieceKind::King).count();
            if count != 1 {
                return Err(PositionError::KingCount { color, count });
            }
        }
        let back_ranks = super::bitboard::RANK_1 | super::bitboard::RANK_8;
        if let Some(sq) = (pos.kind(PieceKind::Pawn) & back_ranks).next() {
            return Err(PositionError::PawnOnBackRank(sq));
        }
        self.check_castling()?;
        if self.halfmove_clock > MAX_HALFMOVE_CLOCK {
            return Err(PositionError::HalfmoveClockTooLarge(self.halfmove_clock));
        }
        pos.set_side(self.side);
        pos.set_castling(self.castling);
        pos.set_en_passant(self.checked_en_passant(&pos)?);
        pos.set_clocks(self.halfmove_clock, self.fullmove_number.max(1));
        pos.finish_setup();
        let them = !self.side;
        if pos.is_attacked(pos.king_square(them), self.side, pos.occupied()) {
            return Err(PositionError::OpponentInCheck);
        }
        if pos.checkers().count() > 2 {
            return Err(PositionError::TooManyCheckers);
        }
        Ok(pos)
    }

    /// The en-passant square if a pawn of the other side could just have double-pushed past
    /// it, and only if a pawn of the side to move (in `pos`, the pieces placed) can capture
    /// there.
    fn checked_en_passant(&self, pos: &Position) -> Result<Option<Square>, PositionError> {
        let Some(sq) = self.en_passant else {
            return Ok(None);
        };
        let side = self.side;
        let (ep_rank, pushed_rank, origin_rank) = match side {
            Color::White => (5, 4, 6),
            Color::Black => (2, 3, 1),
        };
        let pushed = Square::from_file_rank(sq.file(), pushed_rank);
        let origin = Square::from_file_rank(sq.file(), origin_rank);
        if sq.rank() != ep_rank
            || pos.piece_at(pushed) != Some(Piece::new(!side, PieceKind::Pawn))
            || pos.piece_at(sq).is_some()
            || pos.piece_at(origin).is_some()
        {
            return Err(PositionError::ImpossibleEnPassant(sq));
        }
        let capturers = pawn_attacks(!side, sq) & pos.pieces(side, PieceKind::Pawn);
        Ok(capturers.any().then_some(sq))
    }
}
