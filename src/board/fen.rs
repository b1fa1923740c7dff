//! FEN in and out. Parsing reads the six fields into a `PositionBuilder`, which checks that
//! the position could occur in a game; a field that does not parse is its own `FenError`, an
//! impossible position is the builder's `PositionError` inside one. Castling rights are read
//! as X-FEN (`KQkq` for the outermost rook, a file letter for another) or Shredder-FEN
//! (`HAha`) and written as X-FEN, which is plain FEN for normal chess.

use super::builder::{MAX_HALFMOVE_CLOCK, PositionBuilder, PositionError};
use super::castling::{CastleSide, CastlingRights, home_rank};
use super::position::Position;
use super::square::{Color, Piece, PieceKind, Square};
use std::fmt;

pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

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

/// Which castling a FEN may give: normal chess (king on the e-file, rooks on the a- and
/// h-files) or Chess960 (any king and rook files of the first rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CastlingMode {
    #[default]
    Standard,
    Chess960,
}

impl Position {
    /// The position a game of normal chess starts from.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start position FEN is valid")
    }

    /// Parses a normal-chess FEN; see `from_fen_in`.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_in(fen, CastlingMode::Standard)
    }

    /// Parses a FEN (6 fields) or the first four fields of an EPD line (clocks then default
    /// to `0 1`). Never panics; on error nothing is built. Every field is parsed before the
    /// position is checked, so a malformed field is reported ahead of an impossible position.
    /// In `Standard` mode a castling right must be one of normal chess.
    pub fn from_fen_in(fen: &str, mode: CastlingMode) -> Result<Position, FenError> {
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
        let castling = resolve_castling(&builder, &castling, mode).map_err(FenError::Impossible)?;
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
        self.push_castling_field(&mut fen);
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

/// One letter of the castling field before the pieces give it a rook file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CastlingLetter {
    /// `KQkq`: the outermost rook on that side of the king.
    Outermost(Color, CastleSide),
    /// `A`-`H`, `a`-`h`: the rook on that file.
    File(Color, u8),
}

/// The castling letters, each at most once; which rooks they mean is `resolve_castling`'s
/// business, once the pieces are known.
fn parse_castling(field: &str) -> Result<Vec<CastlingLetter>, FenError> {
    if field == "-" {
        return Ok(Vec::new());
    }
    let bad = || FenError::BadCastling(field.to_string());
    let mut letters = Vec::with_capacity(4);
    for (i, c) in field.char_indices() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let letter = match c.to_ascii_lowercase() {
            'k' => CastlingLetter::Outermost(color, CastleSide::King),
            'q' => CastlingLetter::Outermost(color, CastleSide::Queen),
            file @ 'a'..='h' => CastlingLetter::File(color, file as u8 - b'a'),
            _ => return Err(bad()),
        };
        if field[..i].contains(c) || letters.len() == 4 {
            return Err(bad());
        }
        letters.push(letter);
    }
    Ok(letters)
}

/// The rights the letters give with these pieces: each colour's king on its first rank and a
/// rook of that colour on the side and file the letter names, at most one right per colour
/// and side; in `Standard` mode only the rights of normal chess.
fn resolve_castling(
    builder: &PositionBuilder,
    letters: &[CastlingLetter],
    mode: CastlingMode,
) -> Result<CastlingRights, PositionError> {
    let mut rights = CastlingRights::NONE;
    for &letter in letters {
        let (CastlingLetter::Outermost(color, _) | CastlingLetter::File(color, _)) = letter;
        let rank = home_rank(color);
        let king_file = builder
            .home_king_file(color)
            .ok_or(PositionError::CastlingWithoutKing { color, file: None })?;
        let is_rook = |file: u8| {
            builder.piece_at(Square::from_file_rank(file, rank))
                == Some(Piece::new(color, PieceKind::Rook))
        };
        let (side, file) = match letter {
            CastlingLetter::Outermost(_, side) => {
                let outermost = match side {
                    CastleSide::King => (king_file + 1..8).rev().find(|&f| is_rook(f)),
                    CastleSide::Queen => (0..king_file).find(|&f| is_rook(f)),
                };
                let file = outermost.ok_or(PositionError::CastlingWithoutRook {
                    color,
                    side,
                    file: None,
                })?;
                (side, file)
            }
            CastlingLetter::File(_, file) => (CastleSide::of(king_file, file), file),
        };
        if rights.has(color, side) {
            return Err(PositionError::CastlingRightTwice { color, side });
        }
        if mode == CastlingMode::Standard {
            if king_file != 4 {
                return Err(PositionError::CastlingWithoutKing {
                    color,
                    file: Some(4),
                });
            }
            if file != side.standard_rook_file() {
                return Err(PositionError::CastlingWithoutRook {
                    color,
                    side,
                    file: Some(side.standard_rook_file()),
                });
            }
        }
        rights = rights.with(color, side, file);
    }
    Ok(rights)
}

impl Position {
    /// X-FEN: `K`/`Q` (lower case for Black) when the right's rook is the outermost one on
    /// its side of the king, else the rook's file letter; `-` without rights.
    fn push_castling_field(&self, fen: &mut String) {
        let rights = self.castling();
        if rights.is_empty() {
            fen.push('-');
            return;
        }
        for color in Color::BOTH {
            let rank = home_rank(color);
            let rooks = self.pieces(color, PieceKind::Rook);
            for side in CastleSide::BOTH {
                let Some(file) = rights.rook_file(color, side) else {
                    continue;
                };
                let beyond = match side {
                    CastleSide::King => file + 1..8,
                    CastleSide::Queen => 0..file,
                };
                let outermost = beyond
                    .into_iter()
                    .all(|f| !rooks.contains(Square::from_file_rank(f, rank)));
                let letter = match (outermost, side) {
                    (true, CastleSide::King) => 'K',
                    (true, CastleSide::Queen) => 'Q',
                    (false, _) => char::from(b'A' + file),
                };
                fen.push(match color {
                    Color::White => letter,
                    Color::Black => letter.to_ascii_lowercase(),
                });
            }
        }
    }
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
            FenError::Impossible(PositionError::CastlingWithoutRook {
                color: Color::White,
                side: CastleSide::King,
                file: None
            })
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
            "White king-side castling right but no White rook on that side of the king"
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

    fn fen960(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_in(fen, CastlingMode::Chess960)
    }

    #[test]
    fn x_fen_and_shredder_fen_give_the_same_rights() {
        // White: king b1, rooks a1 and g1 (h1 empty); Black: king f8, rooks c8 and h8.
        let x_fen = "2r2k1r/8/8/8/8/8/8/RK4R1 w KQkq - 0 1";
        let shredder = "2r2k1r/8/8/8/8/8/8/RK4R1 w GAhc - 0 1";
        let a = fen960(x_fen).unwrap();
        let b = fen960(shredder).unwrap();
        assert_eq!(a, b);
        let rights = a.castling();
        assert_eq!(rights.rook_file(Color::White, CastleSide::King), Some(6));
        assert_eq!(rights.rook_file(Color::White, CastleSide::Queen), Some(0));
        assert_eq!(rights.rook_file(Color::Black, CastleSide::King), Some(7));
        assert_eq!(rights.rook_file(Color::Black, CastleSide::Queen), Some(2));
        assert_eq!(b.to_fen(), x_fen);
    }

    #[test]
    fn x_fen_names_an_inner_rook_by_its_file() {
        // Two white rooks on the king side: `K` is the outer (h1), `F` the inner one.
        let outer = fen960("4k3/8/8/8/8/8/8/1K3R1R w K - 0 1").unwrap();
        assert_eq!(
            outer.castling().rook_file(Color::White, CastleSide::King),
            Some(7)
        );
        let inner = fen960("4k3/8/8/8/8/8/8/1K3R1R w F - 0 1").unwrap();
        assert_eq!(
            inner.castling().rook_file(Color::White, CastleSide::King),
            Some(5)
        );
        assert_eq!(inner.to_fen(), "4k3/8/8/8/8/8/8/1K3R1R w F - 0 1");
        assert_ne!(inner.key(), outer.key());
        assert_eq!(
            fen960("4k3/8/8/8/8/8/8/1K3R1R w HF - 0 1").unwrap_err(),
            FenError::Impossible(PositionError::CastlingRightTwice {
                color: Color::White,
                side: CastleSide::King
            })
        );
    }

    #[test]
    fn rights_the_pieces_contradict_are_named() {
        let impossible = |fen: &str| match fen960(fen) {
            Err(FenError::Impossible(error)) => error,
            other => panic!("{fen}: {other:?}"),
        };
        assert_eq!(
            impossible("4k3/8/8/8/8/8/1K6/R6R w K - 0 1"),
            PositionError::CastlingWithoutKing {
                color: Color::White,
                file: None
            }
        );
        assert_eq!(
            impossible("4k3/8/8/8/8/8/8/RK6 w C - 0 1"),
            PositionError::CastlingWithoutRook {
                color: Color::White,
                side: CastleSide::King,
                file: Some(2)
            }
        );
        assert_eq!(
            impossible("8/4k3/8/8/8/8/8/RK6 w q - 0 1"),
            PositionError::CastlingWithoutKing {
                color: Color::Black,
                file: None
            }
        );
        assert_eq!(
            impossible("r3k3/8/8/8/8/8/8/1K6 w kq - 0 1"),
            PositionError::CastlingWithoutRook {
                color: Color::Black,
                side: CastleSide::King,
                file: None
            }
        );
        assert_eq!(
            PositionError::CastlingWithoutRook {
                color: Color::White,
                side: CastleSide::King,
                file: Some(2)
            }
            .to_string(),
            "White king-side castling right but no White rook on c1 on that side of the king"
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/RK6 w KK - 0 1"),
            FenError::BadCastling("KK".into())
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/RK6 w Kx - 0 1"),
            FenError::BadCastling("Kx".into())
        );
    }

    #[test]
    fn normal_chess_takes_only_its_own_rights() {
        let fen = "4k3/8/8/8/8/8/8/RK4R1 w KQ - 0 1";
        assert!(fen960(fen).is_ok());
        assert_eq!(
            err(fen),
            FenError::Impossible(PositionError::CastlingWithoutKing {
                color: Color::White,
                file: Some(4)
            })
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/R3K1R1 w K - 0 1"),
            FenError::Impossible(PositionError::CastlingWithoutRook {
                color: Color::White,
                side: CastleSide::King,
                file: Some(7)
            })
        );
        // Shredder-FEN for the normal start position is normal chess.
        let shredder = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1";
        assert_eq!(Position::from_fen(shredder).unwrap().to_fen(), START_FEN);
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
