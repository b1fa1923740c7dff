//! The rules of chess and nothing else: squares, bitboards, attack tables, positions,
//! legal move generation, FEN, move notation and perft.

pub mod attacks;
pub mod bitboard;
pub mod builder;
pub mod fen;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod square;

pub use bitboard::Bitboard;
pub use builder::{PositionBuilder, PositionError};
pub use fen::{FenError, START_FEN};
pub use movegen::{is_legal, legal_captures, legal_moves};
pub use moves::{Move, MoveKind, MoveList};
pub use notation::{MoveParseError, parse_coordinate, parse_move, parse_san, to_san};
pub use position::{CastlingRights, Position};
pub use square::{Color, Piece, PieceKind, Square};
