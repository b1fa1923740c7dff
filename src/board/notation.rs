//! Move text in and out: coordinate notation (`e2e4`, `e7e8q`, `e1g1`; also `O-O`, `0-0-0`
//! and king-takes-rook `e1h1` on input) and SAN. Parsing always checks legality against the
//! position: a string either names exactly one legal move or is an error. Chess960 castling
//! is written as the protocol wants it (`CastlingNotation`).

use super::castling::CastleSide;
use super::movegen::legal_moves;
use super::moves::{Move, MoveList};
use super::position::Position;
use super::square::{PieceKind, Square};
use std::fmt;

/// How castling is written in coordinate notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CastlingNotation {
    /// Normal chess: the king's two-square move, `e1g1`.
    #[default]
    Standard,
    /// Chess960 in UCI (`UCI_Chess960`): king takes own rook, `b1a1`.
    KingTakesRook,
    /// Chess960 in XBoard: `O-O` and `O-O-O`.
    Words,
}

impl CastlingNotation {
    fn is_chess960(self) -> bool {
        self != CastlingNotation::Standard
    }
}

/// `m` (legal in `pos`) in coordinate notation, castling written as `notation` says.
pub fn move_text(pos: &Position, m: Move, notation: CastlingNotation) -> String {
    let Some(side) = m.castle_side() else {
        return m.to_string();
    };
    match notation {
        CastlingNotation::Standard => m.to_string(),
        CastlingNotation::Words => castle_word(side).to_string(),
        CastlingNotation::KingTakesRook => {
            match pos.castling().rook_square(pos.side_to_move(), side) {
                Some(rook) => format!("{}{rook}", m.from()),
                None => m.to_string(),
            }
        }
    }
}

/// A line of moves from `pos` (a PV), each in coordinate notation; it stops at the first
/// move that is not legal where it stands.
pub fn line_text(pos: &Position, line: &[Move], notation: CastlingNotation) -> Vec<String> {
    let mut texts = Vec::with_capacity(line.len());
    let mut pos = pos.clone();
    for &m in line {
        if !super::movegen::is_legal(&pos, m) {
            break;
        }
        texts.push(move_text(&pos, m, notation));
        pos = pos.make_move(m);
    }
    texts
}

fn castle_word(side: CastleSide) -> &'static str {
    match side {
        CastleSide::King => "O-O",
        CastleSide::Queen => "O-O-O",
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// Not shaped like a move at all.
    Malformed(String),
    /// Well formed, but no legal move matches.
    Illegal(String),
    /// SAN that matches more than one legal move.
    Ambiguous(String),
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Malformed(s) => write!(f, "not a move: {s}"),
            MoveParseError::Illegal(s) => write!(f, "illegal move: {s}"),
            MoveParseError::Ambiguous(s) => write!(f, "ambiguous move: {s}"),
        }
    }
}

impl std::error::Error for MoveParseError {}

fn castle_side(text: &str) -> Option<CastleSide> {
    match text {
        "O-O" | "0-0" | "o-o" => Some(CastleSide::King),
        "O-O-O" | "0-0-0" | "o-o-o" => Some(CastleSide::Queen),
        _ => None,
    }
}

fn find_castle(legal: &MoveList, side: CastleSide, text: &str) -> Result<Move, MoveParseError> {
    legal
        .iter()
        .copied()
        .find(|m| m.castle_side() == Some(side))
        .ok_or_else(|| MoveParseError::Illegal(text.to_string()))
}

/// Parses normal-chess coordinate notation or castling words; see `parse_coordinate_in`.
pub fn parse_coordinate(pos: &Position, text: &str) -> Result<Move, MoveParseError> {
    parse_coordinate_in(pos, text, CastlingNotation::Standard)
}

/// Parses coordinate notation or castling words and returns the matching legal move.
/// Castling words and king-takes-rook always name castling; the king's two-square move
/// (`e1g1`) does only in normal chess, since in Chess960 the same text can be a king step.
pub fn parse_coordinate_in(
    pos: &Position,
    text: &str,
    notation: CastlingNotation,
) -> Result<Move, MoveParseError> {
    let mut legal = MoveList::new();
    legal_moves(pos, &mut legal);
    let trimmed = text.trim_end_matches(['+', '#', '!', '?']);
    if let Some(side) = castle_side(trimmed) {
        return find_castle(&legal, side, text);
    }
    let malformed = || MoveParseError::Malformed(text.to_string());
    if !trimmed.is_ascii() || !(4..=6).contains(&trimmed.len()) {
        return Err(malformed());
    }
    let from = Square::parse(&trimmed[0..2]).ok_or_else(malformed)?;
    let to = Square::parse(&trimmed[2..4]).ok_or_else(malformed)?;
    let rest = trimmed[4..].trim_start_matches('=');
    let promotion = match rest.len() {
        0 => None,
        1 => match PieceKind::from_letter(rest.chars().next().unwrap_or('?')) {
            Some(k) if !matches!(k, PieceKind::Pawn | PieceKind::King) => Some(k),
            _ => return Err(malformed()),
        },
        _ => return Err(malformed()),
    };

    // King takes own rook means castling (Chess960-style input from some GUIs): the right
    // with that rook.
    let us = pos.side_to_move();
    if pos.king_square(us) == from
        && pos
            .piece_at(to)
            .is_some_and(|p| p.color == us && p.kind == PieceKind::Rook)
    {
        let side = CastleSide::BOTH
            .into_iter()
            .find(|&side| pos.castling().rook_square(us, side) == Some(to))
            .ok_or_else(|| MoveParseError::Illegal(text.to_string()))?;
        return find_castle(&legal, side, text);
    }

    let matching = |want: Option<PieceKind>| {
        legal.iter().copied().find(|m| {
            m.from() == from
                && m.to() == to
                && m.promotion() == want
                && !(notation.is_chess960() && m.is_castle())
        })
    };
    let found = match promotion {
        Some(kind) => matching(Some(kind)),
        // A promotion without a piece letter is taken as a queen, as most GUIs mean.
        None => matching(None).or_else(|| matching(Some(PieceKind::Queen))),
    };
    found.ok_or_else(|| MoveParseError::Illegal(text.to_string()))
}

/// SAN of a legal move, with `+` or `#`.
pub fn to_san(pos: &Position, m: Move) -> String {
    let mut legal = MoveList::new();
    legal_moves(pos, &mut legal);
    san_with_list(pos, m, &legal)
}

fn san_with_list(pos: &Position, m: Move, legal: &MoveList) -> String {
    debug_assert!(legal.contains(m), "to_san: {m} is not legal in {pos:?}");
    let mut san = san_without_suffix(pos, m, legal);
    let after = pos.make_move(m);
    if after.in_check() {
        let mut replies = MoveList::new();
        legal_moves(&after, &mut replies);
        san.push(if replies.is_empty() { '#' } else { '+' });
    }
    san
}

fn san_without_suffix(pos: &Position, m: Move, legal: &MoveList) -> String {
    if let Some(side) = m.castle_side() {
        return castle_word(side).to_string();
    }
    let piece = pos
        .piece_at(m.from())
        .map(|p| p.kind)
        .unwrap_or(PieceKind::Pawn);
    let mut san = String::with_capacity(8);
    if piece == PieceKind::Pawn {
        if m.is_capture() {
            san.push((b'a' + m.from().file()) as char);
        }
    } else {
        san.push(piece.letter());
        let rivals: Vec<Square> = legal
            .iter()
            .filter(|o| {
                o.to() == m.to()
                    && o.from() != m.from()
                    && pos.piece_at(o.from()).map(|p| p.kind) == Some(piece)
            })
            .map(|o| o.from())
            .collect();
        if !rivals.is_empty() {
            let same_file = rivals.iter().any(|s| s.file() == m.from().file());
            let same_rank = rivals.iter().any(|s| s.rank() == m.from().rank());
            if !same_file {
                san.push((b'a' + m.from().file()) as char);
            } else if !same_rank {
                san.push((b'1' + m.from().rank()) as char);
            } else {
                san.push_str(&m.from().to_string());
            }
        }
    }
    if m.is_capture() {
        san.push('x');
    }
    san.push_str(&m.to().to_string());
    if let Some(kind) = m.promotion() {
        san.push('=');
        san.push(kind.letter());
    }
    san
}

/// Parses SAN (tolerating a missing `x` or `=`, extra check marks and annotations, and
/// over-specified origins such as `Ng1f3`).
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, MoveParseError> {
    let mut legal = MoveList::new();
    legal_moves(pos, &mut legal);
    let trimmed = text.trim().trim_end_matches(['+', '#', '!', '?']);
    if let Some(side) = castle_side(trimmed) {
        return find_castle(&legal, side, text);
    }
    let malformed = || MoveParseError::Malformed(text.to_string());
    if !trimmed.is_ascii() || trimmed.len() < 2 {
        return Err(malformed());
    }
    let mut chars: Vec<char> = trimmed
        .chars()
        .filter(|&c| c != 'x' && c != ':' && c != '-')
        .collect();

    // A trailing piece letter after the destination rank (or after '=') is a promotion.
    let mut promotion = None;
    let n = chars.len();
    if n >= 3
        && matches!(chars[n - 1].to_ascii_uppercase(), 'N' | 'B' | 'R' | 'Q')
        && (chars[n - 2].is_ascii_digit() || chars[n - 2] == '=')
    {
        promotion = PieceKind::from_letter(chars[n - 1]);
        chars.pop();
        if chars.last() == Some(&'=') {
            chars.pop();
        }
    }
    let piece = match chars.first() {
        Some(&c) if c.is_ascii_uppercase() => {
            chars.remove(0);
            PieceKind::from_letter(c).ok_or_else(malformed)?
        }
        _ => PieceKind::Pawn,
    };
    if chars.len() < 2 || chars.len() > 4 {
        return Err(malformed());
    }
    let dest_text: String = chars[chars.len() - 2..].iter().collect();
    let to = Square::parse(&dest_text).ok_or_else(malformed)?;
    let mut from_file = None;
    let mut from_rank = None;
    for &c in &chars[..chars.len() - 2] {
        match c {
            'a'..='h' => from_file = Some(c as u8 - b'a'),
            '1'..='8' => from_rank = Some(c as u8 - b'1'),
            _ => return Err(malformed()),
        }
    }
    if piece == PieceKind::Pawn && promotion.is_none() && matches!(to.rank(), 0 | 7) {
        promotion = Some(PieceKind::Queen);
    }

    let candidates: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| {
            m.to() == to
                && !m.is_castle()
                && pos.piece_at(m.from()).map(|p| p.kind) == Some(piece)
                && m.promotion() == promotion
                && from_file.is_none_or(|f| m.from().file() == f)
                && from_rank.is_none_or(|r| m.from().rank() == r)
        })
        .collect();
    match candidates.as_slice() {
        [m] => Ok(*m),
        [] => Err(MoveParseError::Illegal(text.to_string())),
        _ => Err(MoveParseError::Ambiguous(text.to_string())),
    }
}

/// Coordinate notation first, then SAN: what a user or GUI may type (normal chess).
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveParseError> {
    parse_move_in(pos, text, CastlingNotation::Standard)
}

/// `parse_move` with castling read as `notation` says (any Chess960 notation takes words
/// and king-takes-rook).
pub fn parse_move_in(
    pos: &Position,
    text: &str,
    notation: CastlingNotation,
) -> Result<Move, MoveParseError> {
    match parse_coordinate_in(pos, text, notation) {
        Ok(m) => Ok(m),
        Err(MoveParseError::Malformed(_)) => parse_san(pos, text),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn castling_in_every_spelling() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for text in ["e1g1", "O-O", "0-0", "e1h1"] {
            assert_eq!(parse_move(&p, text).unwrap().to_string(), "e1g1", "{text}");
        }
        for text in ["e1c1", "O-O-O", "0-0-0", "e1a1"] {
            assert_eq!(parse_move(&p, text).unwrap().to_string(), "e1c1", "{text}");
        }
        assert_eq!(to_san(&p, parse_move(&p, "e1c1").unwrap()), "O-O-O");
    }

    fn pos960(fen: &str) -> Position {
        Position::from_fen_in(fen, crate::board::CastlingMode::Chess960).unwrap()
    }

    #[test]
    fn chess960_castling_in_each_notation() {
        // King f1, rooks b1 and g1: O-O swaps king and rook, the king's step to g1 is no move.
        let p = pos960("1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w KQkq - 0 1");
        let short = parse_move_in(&p, "O-O", CastlingNotation::Words).unwrap();
        assert_eq!(short.castle_side(), Some(CastleSide::King));
        assert_eq!(move_text(&p, short, CastlingNotation::Words), "O-O");
        assert_eq!(
            move_text(&p, short, CastlingNotation::KingTakesRook),
            "f1g1"
        );
        for notation in [CastlingNotation::Words, CastlingNotation::KingTakesRook] {
            assert_eq!(parse_move_in(&p, "f1g1", notation), Ok(short));
            let long = parse_move_in(&p, "f1b1", notation).unwrap();
            assert_eq!(long.castle_side(), Some(CastleSide::Queen));
            assert_eq!(
                move_text(&p, long, notation).len(),
                if notation == CastlingNotation::Words {
                    5
                } else {
                    4
                }
            );
        }
        assert_eq!(to_san(&p, short), "O-O");
        let after = p.make_move(short);
        assert_eq!(
            after.to_fen(),
            "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b kq - 1 1"
        );
        // King e1 and rook h1 in Chess960: e1g1 is not castling there, e1h1 is.
        let q = pos960("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert!(matches!(
            parse_move_in(&q, "e1g1", CastlingNotation::KingTakesRook),
            Err(MoveParseError::Illegal(_))
        ));
        let castle = parse_move_in(&q, "e1h1", CastlingNotation::KingTakesRook).unwrap();
        assert_eq!(move_text(&q, castle, CastlingNotation::Standard), "e1g1");
        assert_eq!(
            move_text(&q, castle, CastlingNotation::KingTakesRook),
            "e1h1"
        );
    }

    #[test]
    fn san_disambiguation_and_suffixes() {
        let p = pos("2k5/8/8/8/8/8/4K3/R6R w - - 0 1");
        let m = parse_coordinate(&p, "a1d1").unwrap();
        assert_eq!(to_san(&p, m), "Rad1");
        let p = pos("k7/8/8/8/8/8/1R6/1R5K w - - 0 1");
        let m = parse_coordinate(&p, "b2b8").unwrap();
        assert_eq!(to_san(&p, m), "Rb8+");
        let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        let m = parse_san(&p, "Ra8").unwrap();
        assert_eq!(to_san(&p, m), "Ra8#");
    }

    #[test]
    fn promotions() {
        let p = pos("3n3k/4P3/8/8/8/8/8/K7 w - - 0 1");
        assert_eq!(parse_move(&p, "e7e8q").unwrap().to_string(), "e7e8q");
        assert_eq!(parse_move(&p, "e7d8n").unwrap().to_string(), "e7d8n");
        assert_eq!(parse_move(&p, "e7e8").unwrap().to_string(), "e7e8q");
        assert_eq!(parse_san(&p, "exd8=N").unwrap().to_string(), "e7d8n");
        assert_eq!(parse_san(&p, "e8Q+").unwrap().to_string(), "e7e8q");
        assert_eq!(to_san(&p, parse_move(&p, "e7d8r").unwrap()), "exd8=R+");
    }

    #[test]
    fn illegal_and_malformed() {
        let p = Position::startpos();
        assert!(matches!(
            parse_move(&p, "e2e5"),
            Err(MoveParseError::Illegal(_))
        ));
        assert!(matches!(
            parse_move(&p, "e1g1"),
            Err(MoveParseError::Illegal(_))
        ));
        assert!(matches!(
            parse_move(&p, "hello"),
            Err(MoveParseError::Malformed(_))
        ));
        assert!(matches!(
            parse_move(&p, "Nf6"),
            Err(MoveParseError::Illegal(_))
        ));
        assert!(matches!(
            parse_move(&p, ""),
            Err(MoveParseError::Malformed(_))
        ));
        assert!(matches!(
            parse_move(&p, "e2e4k"),
            Err(MoveParseError::Malformed(_))
        ));
        assert_eq!(parse_move(&p, "Nf3").unwrap().to_string(), "g1f3");
        assert_eq!(parse_move(&p, "Ng1f3").unwrap().to_string(), "g1f3");
        assert_eq!(parse_move(&p, "e4").unwrap().to_string(), "e2e4");
    }

    #[test]
    fn ambiguous_san_is_rejected() {
        let p = pos("2k5/8/8/8/8/8/4K3/R6R w - - 0 1");
        assert!(matches!(
            parse_san(&p, "Rd1"),
            Err(MoveParseError::Ambiguous(_))
        ));
    }
}
