//! FEN in and out. Parsing checks that the position could occur in a game (one king each, no
//! pawns on the back ranks, castling rights the pieces allow, a possible en-passant square,
//! the side not on move not in check) and reports the first problem as a typed `FenError`.

use super::attacks::pawn_attacks;
use super::position::{CastlingRights, Position};
use super::square::{Color, Piece, PieceKind, Square};
use std::fmt;

pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The largest halfmove clock a FEN may give. The counter is 16 bits and only ever grows by
/// one per ply (saturating), so this leaves room for any game played on from the position;
/// no real game gets near it (the 75-move rule ends one at 150).
pub const MAX_HALFMOVE_CLOCK: u16 = 60_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    FieldCount(usize),
    RankCount(usize),
    RankLength { rank: u8, squares: usize },
    BadPiece(char),
    KingCount { color: Color, count: u32 },
    PawnOnBackRank(Square),
    BadSideToMove(String),
    BadCastling(String),
    CastlingWithoutPieces(char),
    BadEnPassant(String),
    ImpossibleEnPassant(Square),
    OpponentInCheck,
    TooManyCheckers,
    BadHalfmoveClock(String),
    HalfmoveClockTooLarge(u32),
    BadFullmoveNumber(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(f, "expected 4 to 6 fields, found {n}"),
            FenError::RankCount(n) => write!(f, "expected 8 ranks, found {n}"),
            FenError::RankLength { rank, squares } => {
                write!(f, "rank {} describes {squares} squares, not 8", rank + 1)
            }
            FenError::BadPiece(c) => write!(f, "bad piece letter '{c}'"),
            FenError::KingCount { color, count } => {
                let side = if *color == Color::White {
                    "White"
                } else {
                    "Black"
                };
                write!(f, "{side} has {count} kings, needs exactly one")
            }
            FenError::PawnOnBackRank(sq) => write!(f, "pawn on the first or last rank ({sq})"),
            FenError::BadSideToMove(s) => write!(f, "side to move must be w or b, not '{s}'"),
            FenError::BadCastling(s) => write!(f, "bad castling field '{s}'"),
            FenError::CastlingWithoutPieces(c) => {
                write!(
                    f,
                    "castling right '{c}' but king or rook is not on its square"
                )
            }
            FenError::BadEnPassant(s) => write!(f, "bad en-passant field '{s}'"),
            FenError::ImpossibleEnPassant(sq) => {
                write!(f, "en-passant square {sq} is impossible in this position")
            }
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
            FenError::TooManyCheckers => {
                write!(f, "the side to move is in check from more than two pieces")
            }
            FenError::BadHalfmoveClock(s) => write!(f, "bad halfmove clock '{s}'"),
            FenError::HalfmoveClockTooLarge(n) => {
                write!(f, "halfmove clock {n} is larger than {MAX_HALFMOVE_CLOCK}")
            }
            FenError::BadFullmoveNumber(s) => write!(f, "bad fullmove number '{s}'"),
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// Parses a FEN (6 fields) or the first four fields of an EPD line (clocks then default
    /// to `0 1`). Never panics; on error nothing is built.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut pos = Position::empty();
        parse_placement(&mut pos, fields[0])?;

        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::BadSideToMove(other.to_string())),
        };
        pos.set_side(side);

        for color in Color::BOTH {
            let count = pos.pieces(color, PieceKind::King).count();
            if count != 1 {
                return Err(FenError::KingCount { color, count });
            }
        }
        let back_ranks = super::bitboard::RANK_1 | super::bitboard::RANK_8;
        if let Some(sq) = (pos.kind(PieceKind::Pawn) & back_ranks).next() {
            return Err(FenError::PawnOnBackRank(sq));
        }

        pos.set_castling(parse_castling(&pos, fields[2])?);
        let en_passant = parse_en_passant(&pos, side, fields[3])?;
        pos.set_en_passant(en_passant);

        let halfmove = match fields.get(4) {
            Some(s) => parse_halfmove_clock(s)?,
            None => 0,
        };
        let fullmove = match fields.get(5) {
            Some(s) => s
                .parse::<u16>()
                .map_err(|_| FenError::BadFullmoveNumber(s.to_string()))?
                .max(1),
            None => 1,
        };
        pos.set_clocks(halfmove, fullmove);
        pos.finish_setup();

        let them = !side;
        if pos.is_attacked(pos.king_square(them), side, pos.occupied()) {
            return Err(FenError::OpponentInCheck);
        }
        if pos.checkers().count() > 2 {
            return Err(FenError::TooManyCheckers);
        }
        Ok(pos)
    }

    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::from_file_rank(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push(' ');
        fen.push(self.side_to_move().letter());
        fen.push(' ');
        let rights = self.castling();
        if rights.0 == 0 {
            fen.push('-');
        }
        for (bit, c) in [
            (CastlingRights::WHITE_KING, 'K'),
            (CastlingRights::WHITE_QUEEN, 'Q'),
            (CastlingRights::BLACK_KING, 'k'),
            (CastlingRights::BLACK_QUEEN, 'q'),
        ] {
            if rights.has(bit) {
                fen.push(c);
            }
        }
        fen.push(' ');
        match self.en_passant() {
            Some(sq) => fen.push_str(&sq.to_string()),
            None => fen.push('-'),
        }
        fen.push_str(&format!(
            " {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        ));
        fen
    }
}

/// The halfmove clock field: digits, at most `MAX_HALFMOVE_CLOCK`.
fn parse_halfmove_clock(text: &str) -> Result<u16, FenError> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FenError::BadHalfmoveClock(text.to_string()));
    }
    match digits.parse::<u32>() {
        Ok(n) if n <= u32::from(MAX_HALFMOVE_CLOCK) => Ok(n as u16),
        Ok(n) => Err(FenError::HalfmoveClockTooLarge(n)),
        Err(_) => Err(FenError::HalfmoveClockTooLarge(u32::MAX)),
    }
}

fn parse_placement(pos: &mut Position, placement: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file: usize = 0;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(FenError::BadPiece(c));
                }
                file += d as usize;
            } else {
                let piece = Piece::from_fen_char(c).ok_or(FenError::BadPiece(c))?;
                if file < 8 {
                    pos.put_piece(piece, Square::from_file_rank(file as u8, rank));
                }
                file += 1;
            }
            if file > 8 {
                return Err(FenError::RankLength {
                    rank,
                    squares: file,
                });
            }
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank,
                squares: file,
            });
        }
    }
    Ok(())
}

fn parse_castling(pos: &Position, field: &str) -> Result<CastlingRights, FenError> {
    if field == "-" {
        return Ok(CastlingRights(0));
    }
    let mut rights = 0u8;
    for c in field.chars() {
        let (bit, color, rook_file) = match c {
            'K' => (CastlingRights::WHITE_KING, Color::White, 7),
            'Q' => (CastlingRights::WHITE_QUEEN, Color::White, 0),
            'k' => (CastlingRights::BLACK_KING, Color::Black, 7),
            'q' => (CastlingRights::BLACK_QUEEN, Color::Black, 0),
            _ => return Err(FenError::BadCastling(field.to_string())),
        };
        if rights & bit != 0 {
            return Err(FenError::BadCastling(field.to_string()));
        }
        let rank = if color == Color::White { 0 } else { 7 };
        let king_home = Square::from_file_rank(4, rank);
        let rook_home = Square::from_file_rank(rook_file, rank);
        if pos.piece_at(king_home) != Some(Piece::new(color, PieceKind::King))
            || pos.piece_at(rook_home) != Some(Piece::new(color, PieceKind::Rook))
        {
            return Err(FenError::CastlingWithoutPieces(c));
        }
        rights |= bit;
    }
    Ok(CastlingRights(rights))
}

/// A square is accepted only if a pawn of the other side could just have double-pushed past
/// it; it is kept only if the side to move has a pawn that can capture there.
fn parse_en_passant(pos: &Position, side: Color, field: &str) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let sq = Square::parse(field).ok_or_else(|| FenError::BadEnPassant(field.to_string()))?;
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
        return Err(FenError::ImpossibleEnPassant(sq));
    }
    let capturers = pawn_attacks(!side, sq) & pos.pieces(side, PieceKind::Pawn);
    Ok(capturers.any().then_some(sq))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(fen: &str) -> FenError {
        Position::from_fen(fen).expect_err(fen)
    }

    #[test]
    fn start_position_round_trips() {
        let pos = Position::from_fen(START_FEN).unwrap();
        assert_eq!(pos.to_fen(), START_FEN);
    }

    #[test]
    fn epd_style_four_fields_default_the_clocks() {
        let pos = Position::from_fen("8/8/8/8/8/8/8/K6k w - -").unwrap();
        assert_eq!(pos.halfmove_clock(), 0);
        assert_eq!(pos.fullmove_number(), 1);
    }

    #[test]
    fn halfmove_clock_is_bounded() {
        let fen = |clock: &str| format!("8/8/8/8/8/8/8/K6k w - - {clock} 1");
        let pos = Position::from_fen(&fen("60000")).unwrap();
        assert_eq!(pos.halfmove_clock(), MAX_HALFMOVE_CLOCK);
        assert_eq!(err(&fen("60001")), FenError::HalfmoveClockTooLarge(60_001));
        assert_eq!(err(&fen("65535")), FenError::HalfmoveClockTooLarge(65_535));
        assert_eq!(
            err(&fen("99999999999999999999")),
            FenError::HalfmoveClockTooLarge(u32::MAX)
        );
        assert_eq!(err(&fen("-1")), FenError::BadHalfmoveClock("-1".into()));
        assert_eq!(err(&fen("1e3")), FenError::BadHalfmoveClock("1e3".into()));
    }

    #[test]
    fn each_error_is_reported() {
        assert_eq!(err(""), FenError::FieldCount(0));
        assert_eq!(
            err("8/8/8/8/8/8/8/K6k w - - 0 1 extra"),
            FenError::FieldCount(7)
        );
        assert_eq!(err("8/8/8/8/8/8/K6k w - - 0 1"), FenError::RankCount(7));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K5k w - - 0 1"),
            FenError::RankLength { .. }
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/K7k w - - 0 1"),
            FenError::RankLength { .. }
        ));
        assert_eq!(err("8/8/8/8/8/8/8/K5zk w - - 0 1"), FenError::BadPiece('z'));
        assert_eq!(
            err("8/8/8/8/8/8/8/K7 w - - 0 1"),
            FenError::KingCount {
                color: Color::Black,
                count: 0
            }
        );
        assert_eq!(
            err("k7/8/8/8/8/8/8/KK6 w - - 0 1"),
            FenError::KingCount {
                color: Color::White,
                count: 2
            }
        );
        assert!(matches!(
            err("k6P/8/8/8/8/8/8/K7 w - - 0 1"),
            FenError::PawnOnBackRank(_)
        ));
        assert_eq!(
            err("k7/8/8/8/8/8/8/K7 x - - 0 1"),
            FenError::BadSideToMove("x".into())
        );
        assert_eq!(
            err("k7/8/8/8/8/8/8/K7 w X - 0 1"),
            FenError::BadCastling("X".into())
        );
        assert_eq!(
            err("k7/8/8/8/8/8/8/K7 w K - 0 1"),
            FenError::CastlingWithoutPieces('K')
        );
        assert_eq!(
            err("k7/8/8/8/8/8/8/K7 w - z9 0 1"),
            FenError::BadEnPassant("z9".into())
        );
        assert!(matches!(
            err("k7/8/8/8/8/8/8/K7 w - e6 0 1"),
            FenError::ImpossibleEnPassant(_)
        ));
        assert!(matches!(
            err("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1"),
            FenError::ImpossibleEnPassant(_)
        ));
        assert_eq!(
            err("k6R/8/8/8/8/8/8/K7 w - - 0 1"),
            FenError::OpponentInCheck
        );
        assert_eq!(
            err("k7/8/8/8/8/8/8/K7 w - - x 1"),
            FenError::BadHalfmoveClock("x".into())
        );
        assert_eq!(
            err("k7/8/8/8/8/8/8/K7 w - - 0 -3"),
            FenError::BadFullmoveNumber("-3".into())
        );
    }

    #[test]
    fn en_passant_kept_only_when_capturable() {
        let with = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3";
        assert_eq!(
            Position::from_fen(with).unwrap().en_passant(),
            Square::parse("e3")
        );
        let without = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
        assert_eq!(Position::from_fen(without).unwrap().en_passant(), None);
    }

    #[test]
    fn garbage_never_panics() {
        for fen in [
            "/",
            "////////",
            "9/8/8/8/8/8/8/8 w - - 0 1",
            "pppppppp w",
            "🎉 w - -",
            "8/8/8/8/8/8/8/8 w - - 0 1",
        ] {
            assert!(Position::from_fen(fen).is_err());
        }
    }
}
