//! The engine's own opening book, a Polyglot file, and the one place that format is read:
//! 16-byte entries (key, move, weight, learn; big-endian) sorted by the position's key
//! (`key.rs`), checked whole when the file is opened, and each move matched to a legal move.

mod key;
mod randoms;

pub(crate) use key::polyglot_key;

use crate::board::{Move, MoveList, PieceKind, Position, legal_moves};
use rand::Rng;
use std::fmt;
use std::path::Path;

/// Bytes of one entry: key (8), move (2), weight (2), learn (4).
const ENTRY_BYTES: usize = 16;

/// An opened and checked book.
pub(crate) struct Book {
    /// The entries as the file holds them.
    bytes: Vec<u8>,
}

/// One entry of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    key: u64,
    /// to: bits 0-5, from: bits 6-11, promotion (0 none, 1 knight .. 4 queen): bits 12-14.
    raw_move: u16,
    weight: u16,
}

/// A move the book gives for a position, legal there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BookMove {
    pub(crate) mv: Move,
    pub(crate) weight: u16,
}

/// Why a file is no book.
#[derive(Debug)]
pub(crate) enum BookError {
    Read(std::io::Error),
    Empty,
    /// The length is not a whole number of entries.
    Length(u64),
    /// Entry `index` has a smaller key than the one before it.
    OutOfOrder {
        index: usize,
    },
    /// Entry `index` holds no chess move (a square moved onto itself, or no piece to promote
    /// to): the file is damaged or not a book.
    NoMove {
        index: usize,
        raw_move: u16,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Read(e) => write!(f, "cannot read it: {e}"),
            BookError::Empty => write!(f, "it is empty"),
            BookError::Length(n) => write!(
                f,
                "its length, {n} bytes, is not a multiple of {ENTRY_BYTES} (a Polyglot book's entries)"
            ),
            BookError::OutOfOrder { index } => write!(
                f,
                "its entries are not sorted by key (entry {index} has a smaller key than the one before)"
            ),
            BookError::NoMove { index, raw_move } => {
                write!(f, "entry {index} holds no move (0x{raw_move:04x})")
            }
        }
    }
}

/// A book entry whose move is not legal in the position it is keyed to: the book is damaged
/// (or the key collides, which 64-bit keys make unlikely enough to call it damage too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct IllegalEntry {
    /// The move as the book writes it (`e1h1` for castling, king takes rook).
    pub(crate) text: String,
    pub(crate) fen: String,
}

impl fmt::Display for IllegalEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "its move {} is illegal in {}", self.text, self.fen)
    }
}

impl fmt::Debug for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Book({} entries)", self.len())
    }
}

impl Book {
    pub(crate) fn open(path: &Path) -> Result<Book, BookError> {
        Book::from_bytes(std::fs::read(path).map_err(BookError::Read)?)
    }

    /// Checks the whole file once, so that probing can trust its order and moves.
    pub(crate) fn from_bytes(bytes: Vec<u8>) -> Result<Book, BookError> {
        if bytes.is_empty() {
            return Err(BookError::Empty);
        }
        if !bytes.len().is_multiple_of(ENTRY_BYTES) {
            return Err(BookError::Length(bytes.len() as u64));
        }
        let book = Book { bytes };
        let mut previous = 0;
        for index in 0..book.len() {
            let entry = book.entry(index);
            if entry.key < previous {
                return Err(BookError::OutOfOrder { index });
            }
            previous = entry.key;
            if decode(entry.raw_move).is_none() {
                return Err(BookError::NoMove {
                    index,
                    raw_move: entry.raw_move,
                });
            }
        }
        Ok(book)
    }

    pub(crate) fn len(&self) -> usize {
        self.bytes.len() / ENTRY_BYTES
    }

    fn entry(&self, index: usize) -> Entry {
        let bytes = &self.bytes[index * ENTRY_BYTES..(index + 1) * ENTRY_BYTES];
        let word = |range: std::ops::Range<usize>| {
            bytes[range]
                .iter()
                .fold(0u64, |value, &b| value << 8 | u64::from(b))
        };
        Entry {
            key: word(0..8),
            raw_move: word(8..10) as u16,
            weight: word(10..12) as u16,
        }
    }

    /// The index of the first entry whose key is not below `key`.
    fn first_at_least(&self, key: u64) -> usize {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let middle = (low + high) / 2;
            if self.entry(middle).key < key {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        low
    }

    /// The book's moves for `position`, in the file's order, weight 0 included (a deleted
    /// line, never chosen); an entry whose move is illegal there is an error.
    pub(crate) fn moves(&self, position: &Position) -> Result<Vec<BookMove>, IllegalEntry> {
        let key = polyglot_key(position);
        let mut legal = MoveList::new();
        legal_moves(position, &mut legal);
        let mut moves = Vec::new();
        for index in self.first_at_least(key)..self.len() {
            let entry = self.entry(index);
            if entry.key != key {
                break;
            }
            let mv = legal
                .iter()
                .copied()
                .find(|&m| matches_entry(position, m, entry.raw_move))
                .ok_or_else(|| IllegalEntry {
                    text: move_text(entry.raw_move),
                    fen: position.to_fen(),
                })?;
            moves.push(BookMove {
                mv,
                weight: entry.weight,
            });
        }
        Ok(moves)
    }
}

/// The move field's from-square, to-square and promotion; `None` when it holds no move.
fn decode(raw_move: u16) -> Option<(usize, usize, Option<PieceKind>)> {
    let to = usize::from(raw_move & 63);
    let from = usize::from(raw_move >> 6 & 63);
    let promotion = match raw_move >> 12 {
        0 => None,
        1 => Some(PieceKind::Knight),
        2 => Some(PieceKind::Bishop),
        3 => Some(PieceKind::Rook),
        4 => Some(PieceKind::Queen),
        _ => return None,
    };
    (from != to).then_some((from, to, promotion))
}

/// Whether the legal move `m` is the book's `raw_move`. Polyglot writes castling as king
/// takes own rook (`e1h1`), in normal chess and Chess960 alike; books written by other
/// tools may give normal chess's castling as the king's two-square step (`e1g1`), which is
/// taken too, as python-chess's reader does.
fn matches_entry(position: &Position, m: Move, raw_move: u16) -> bool {
    let Some((from, to, promotion)) = decode(raw_move) else {
        return false;
    };
    if m.from().index() != from || m.promotion() != promotion {
        return false;
    }
    match m.castle_side() {
        None => m.to().index() == to,
        Some(side) => {
            let rook = position
                .castling()
                .rook_square(position.side_to_move(), side);
            let standard =
                rook.is_some_and(|r| r.file() == side.standard_rook_file()) && m.from().file() == 4;
            rook.is_some_and(|r| r.index() == to) || standard && m.to().index() == to
        }
    }
}

/// The move field in coordinates, as the book writes it.
fn move_text(raw_move: u16) -> String {
    let square = |index: u16| {
        let file = char::from(b'a' + (index % 8) as u8);
        let rank = char::from(b'1' + (index / 8) as u8);
        format!("{file}{rank}")
    };
    let promotion = match raw_move >> 12 & 7 {
        1 => "n",
        2 => "b",
        3 => "r",
        4 => "q",
        _ => "",
    };
    format!(
        "{}{}{promotion}",
        square(raw_move >> 6 & 63),
        square(raw_move & 63)
    )
}

/// The move to play from the book's `moves` for a position: the heaviest (the first of
/// equals) with `best_only`, else one drawn with chances in proportion to the weights.
/// `None` when no move has any weight.
pub(crate) fn choose(moves: &[BookMove], best_only: bool, rng: &mut impl Rng) -> Option<BookMove> {
    let total: u32 = moves.iter().map(|m| u32::from(m.weight)).sum();
    if total == 0 {
        return None;
    }
    if best_only {
        // `max_by_key` keeps the last of equals; the book's order puts the first first.
        return moves.iter().rev().max_by_key(|m| m.weight).copied();
    }
    let mut draw = rng.gen_range(0..total);
    for m in moves {
        let weight = u32::from(m.weight);
        if draw < weight {
            return Some(*m);
        }
        draw -= weight;
    }
    None
}

#[cfg(test)]
mod tests;
