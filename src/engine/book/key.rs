//! The Polyglot key of a position, as the book format defines it: a Random64 number for each
//! piece on its square, each castling right, the en-passant file when a pawn of the side to
//! move could take there, and White to move. Chess960 rights count by side of the king.

use super::randoms::RANDOM64;
use crate::board::{CastleSide, Color, Position};

const CASTLING: usize = 768;
const EN_PASSANT: usize = 772;
const WHITE_TO_MOVE: usize = 780;

/// The rights in the order of their Random64 numbers.
const RIGHTS: [(Color, CastleSide); 4] = [
    (Color::White, CastleSide::King),
    (Color::White, CastleSide::Queen),
    (Color::Black, CastleSide::King),
    (Color::Black, CastleSide::Queen),
];

pub(crate) fn polyglot_key(position: &Position) -> u64 {
    let mut key = 0;
    for square in position.occupied() {
        if let Some(piece) = position.piece_at(square) {
            // Polyglot numbers the pieces black pawn 0, white pawn 1, black knight 2, ...
            let kind = 2 * piece.kind.index() + usize::from(piece.color == Color::White);
            key ^= RANDOM64[64 * kind + square.index()];
        }
    }
    for (i, (color, side)) in RIGHTS.into_iter().enumerate() {
        if position.castling().has(color, side) {
            key ^= RANDOM64[CASTLING + i];
        }
    }
    // The board keeps an en-passant square only when a pawn of the side to move attacks
    // it, legal capture or not: Polyglot's rule exactly.
    if let Some(square) = position.en_passant() {
        key ^= RANDOM64[EN_PASSANT + usize::from(square.file())];
    }
    if position.side_to_move() == Color::White {
        key ^= RANDOM64[WHITE_TO_MOVE];
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::game::Game;

    /// The test keys of the format's description (H. G. Muller's "Polyglot book format",
    /// hgm.nubati.net/book_format.html): each line of moves from the start and its key.
    #[test]
    fn the_format_descriptions_test_keys() {
        let cases = [
            ("", 0x463b96181691fc9c),
            ("e2e4", 0x823c9b50fd114196),
            ("e2e4 d7d5", 0x0756b94461c50fb0),
            ("e2e4 d7d5 e4e5", 0x662fafb965db29d4),
            ("e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78),
            ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1),
            ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9),
            ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637),
            ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560),
        ];
        for (moves, key) in cases {
            let mut game = Game::default();
            game.play(moves);
            assert_eq!(polyglot_key(game.position()), key, "{moves}");
        }
    }

    /// An en-passant capture that would leave the king in check still counts (python-chess
    /// 1.11.2's `zobrist_hash` of both FENs).
    #[test]
    fn en_passant_counts_when_a_pawn_attacks_the_square_legal_or_not() {
        let pinned = "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2";
        let without = "8/8/8/KPp4r/8/8/8/4k3 w - - 0 2";
        let key = |fen| polyglot_key(&Position::from_fen(fen).unwrap());
        assert_eq!(key(pinned), 0x3d665cc1f5da1059);
        assert_eq!(key(without), 0x3d5ccf19475a793b);
    }

    /// Every position of `tests/data/polyglot_keys.txt` (positions of real games with
    /// python-chess's `chess.polyglot.zobrist_hash`, by `tests/clients/polyglot_fixtures.py`).
    #[test]
    fn keys_equal_python_chess_on_positions_of_real_games() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/polyglot_keys.txt");
        let text = std::fs::read_to_string(path).unwrap();
        let mut checked = 0;
        for line in text.lines() {
            let fields: Vec<&str> = line.split(';').collect();
            let [fen, variant, key] = fields[..] else {
                panic!("not FEN;variant;key: {line}");
            };
            let mode = match variant {
                "chess960" => crate::board::CastlingMode::Chess960,
                _ => crate::board::CastlingMode::Standard,
            };
            let position = Position::from_fen_in(fen, mode).unwrap();
            let expected = u64::from_str_radix(key, 16).unwrap();
            assert_eq!(polyglot_key(&position), expected, "{fen}");
            checked += 1;
        }
        assert!(checked >= 10_000, "{checked} positions");
    }
}
