//! The rules of chess and nothing else: squares, bitboards, attack tables, positions,
//! legal move generation, FEN, move notation, perft, and the game record (undo, repetition,
//! the 50-move rule, results).

pub mod attacks;
pub mod bitboard;
pub mod builder;
pub mod castling;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod playable;
pub mod position;
pub mod square;

pub use bitboard::Bitboard;
pub use builder::{MAX_HALFMOVE_CLOCK, PositionBuilder, PositionError};
pub use castling::{CastleSide, CastlingRights, chess960_back_rank};
pub use fen::{CastlingMode, FenError, START_FEN};
pub use movegen::{
    count_legal_moves, has_legal_moves_at_least, is_legal, legal_captures, legal_moves,
};
pub use moves::{MAX_MOVES, Move, MoveKind, MoveList};
pub use notation::{
    CastlingNotation, MoveParseError, line_text, move_text, parse_coordinate, parse_coordinate_in,
    parse_move, parse_move_in, parse_san, to_san,
};
pub use playable::is_playable;
pub use position::Position;
pub use square::{Color, Piece, PieceKind, Square};
