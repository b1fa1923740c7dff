//! FEN in and out. Parsing reads the six fields into a `PositionBuilder`, which checks that
//! the position could occur in a game; a field that does not parse is its own `FenError`, an
//! impossible position is the builder's `PositionError` inside one.

use super::builder::{PositionBuilder, PositionError};
use super::position::{CastlingRights, Position};
use super::square::{Color, Piece, Square};
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
    RankLength {
        rank: u8,
        squares: usize,
    },
    BadPiece(char),
    BadSideToMove(String),
    BadCastling(String),
    BadEnPassant(String),
    BadHalfmoveClock(String),
    /// The clock as written (`u32::MAX` when it does not even fit that), so the message
    /// names what the user gave rather than a clamped value.
    HalfmoveClockTooLarge(u32),
    BadFullmoveNumber(String),
    /// Every field parsed, but the position could not occur in a game.
    Impossible(PositionError),
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
            FenError::BadSideToMove(s) => write!(f, "side to move must be w or b, not '{s}'"),
            FenError::BadCastling(s) => write!(f, "bad castling field '{s}'"),
            FenError::BadEnPassant(s) => write!(f, "bad en-passant field '{s}'"),
            FenError::BadHalfmoveClock(s) => write!(f, "bad halfmove clock '{s}'"),
            FenError::HalfmoveClockTooLarge(n) => {
                write!(f, "halfmove clock {n} is larger than {MAX_HALFMOVE_CLOCK}")
            }
            FenError::BadFullmoveNumber(s) => write!(f, "bad fullmove number '{s}'"),
            FenError::Impossible(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for FenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FenError::Impossible(error) => Some(error),
            _ => None,
        }
    }
}

impl Position {
    /// Parses a FEN (6 fields) or the first four fields of an EPD line (clocks then default
    /// to `0 1`). Never panics; on error nothing is built. Every field is parsed before the
    /// position is checked, so a malformed field is reported ahead of an impossible position.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut builder = PositionBuilder::default();
        parse_placement(&mut builder, fields[0])?;
        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::BadSideToMove(other.to_string())),
        };
        let castling = parse_castling(fields[2])?;
        let en_passant = match fields[3] {
            "-" => None,
            field => Some(
                Square::parse(field).ok_or_else(|| FenError::BadEnPassant(field.to_string()))?,
            ),
        };
        let halfmove = match fields.get(4) {
            Some(s) => parse_halfmove_clock(s)?,
            None => 0,
        };
        let fullmove = match fields.get(5) {
            Some(s) => s
                .parse::<u16>()
                .map_err(|_| FenError::BadFullmoveNumber(s.to_string()))?,
            None => 1,
        };
        // A clock beyond 16 bits is clamped only to reach the builder's limit check; the
        // error then names the clock as written.
        let clamped_halfmove = u16::try_from(halfmove).unwrap_or(u16::MAX);
        builder
            .side_to_move(side)
            .castling(castling)
            .en_passant(en_passant)
            .clocks(clamped_halfmove, fullmove)
            .build()
            .map_err(|error| match error {
                PositionError::HalfmoveClockTooLarge(_) => {
                    FenError::HalfmoveClockTooLarge(halfmove)
                }
                impossible => FenError::Impossible(impossible),
            })
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

/// The halfmove clock field: digits, read as far as `u32` goes (`u32::MAX` beyond); the
/// builder holds the limit.
fn parse_halfmove_clock(text: &str) -> Result<u32, FenError> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FenError::BadHalfmoveClock(text.to_string()));
    }
    Ok(digits.parse::<u32>().unwrap_or(u32::MAX))
}

fn parse_placement(builder: &mut PositionBuilder, placement: &str) -> Result<(), FenError> {
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
                    builder.put(Square::from_file_rank(file as u8, rank), Some(piece));
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

/// The castling letters, each at most once; whether the pieces allow them is the builder's
/// check.
fn parse_castling(field: &str) -> Result<CastlingRights, FenError> {
    if field == "-" {
        return Ok(CastlingRights(0));
    }
    let mut rights = 0u8;
    for c in field.chars() {
        let bit = match c {
            'K' => CastlingRights::WHITE_KING,
            'Q' => CastlingRights::WHITE_QUEEN,
            'k' => CastlingRights::BLACK_KING,
            'q' => CastlingRights::BLACK_QUEEN,
            _ => return Err(FenError::BadCastling(field.to_string())),
        };
        if rights & bit != 0 {
            return Err(FenError::BadCastling(field.to_string()));
        }
        rights |= bit;
    }
    Ok(CastlingRights(rights))
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
            FenError::Impossible(PositionError::KingCount {
                color: Color::Black,
                count: 0
            })
        );
        assert_eq!(
            err("k7/8/8/8/8/8/8/KK6 w - - 0 1"),
            FenError::Impossible(PositionError::KingCount {
                color: Color::White,
                count: 2
            })
        );
        assert!(matches!(
            err("k6P/8/8/8/8/8/8/K7 w - - 0 1"),
            FenError::Impossible(PositionError::PawnOnBackRank(_))
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
            FenError::Impossible(PositionError::CastlingWithoutPieces(
                CastlingRights::WHITE_KING
            ))
        );
        assert_eq!(
            err("k7/8/8/8/8/8/8/K7 w - z9 0 1"),
            FenError::BadEnPassant("z9".into())
        );
        assert!(matches!(
            err("k7/8/8/8/8/8/8/K7 w - e6 0 1"),
            FenError::Impossible(PositionError::ImpossibleEnPassant(_))
        ));
        assert!(matches!(
            err("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1"),
            FenError::Impossible(PositionError::ImpossibleEnPassant(_))
        ));
        assert_eq!(
            err("k6R/8/8/8/8/8/8/K7 w - - 0 1"),
            FenError::Impossible(PositionError::OpponentInCheck)
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
    fn impossible_positions_keep_their_messages() {
        let message = |fen: &str| err(fen).to_string();
        assert_eq!(
            message("k7/8/8/8/8/8/8/K7 w K - 0 1"),
            "castling right 'K' but king or rook is not on its square"
        );
        assert_eq!(
            message("8/8/8/8/8/8/8/K7 w - - 0 1"),
            "Black has 0 kings, needs exactly one"
        );
        assert_eq!(
            message("k7/8/8/8/8/8/8/K7 w - - 60001 1"),
            "halfmove clock 60001 is larger than 60000"
        );
        assert_eq!(
            message("k6R/8/8/8/8/8/8/K7 w - - 0 1"),
            "the side not to move is in check"
        );
    }

    #[test]
    fn a_malformed_field_is_reported_before_an_impossible_position() {
        assert_eq!(
            err("8/8/8/8/8/8/8/8 w X - 0 1"),
            FenError::BadCastling("X".into())
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
