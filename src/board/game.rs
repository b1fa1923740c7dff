//! The game record: the start position, the moves played and every position reached, for
//! undo, repetition, the 50-move rule and result detection. Owned by the engine core.

use crate::board::{Color, Move, MoveList, Position, legal_moves};

/// Why a game is over (or may be claimed over) on the board as it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `winner` has mated the side to move.
    Checkmate {
        winner: Color,
    },
    Stalemate,
    InsufficientMaterial,
    /// Halfmove clock at 100 or more and the side to move is not mated: claimable.
    FiftyMoves,
    /// The position on the board has occurred three times: claimable.
    Repetition,
}

impl Outcome {
    /// Over by itself (mate, stalemate, dead position) rather than by a claim.
    pub fn is_automatic(self) -> bool {
        matches!(
            self,
            Outcome::Checkmate { .. } | Outcome::Stalemate | Outcome::InsufficientMaterial
        )
    }
}

/// A game from a start position: `positions[0]` is the start, `positions[i]` the position
/// after `moves[i - 1]`; the last position is the one on the board.
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Position::startpos())
    }
}

impl Game {
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The position on the board.
    pub fn position(&self) -> &Position {
        // `positions` is never empty: `new` pushes the start and `pop` keeps it.
        &self.positions[self.positions.len() - 1]
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plies played since the start position.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    pub fn side_to_move(&self) -> Color {
        self.position().side_to_move()
    }

    /// Plays `m`, which must be legal in the current position (the caller parsed it against
    /// that position or got it from the search).
    pub fn push(&mut self, m: Move) {
        let next = self.position().make_move(m);
        self.positions.push(next);
        self.moves.push(m);
    }

    /// Takes back the last move; `None` at the start position.
    pub fn pop(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    /// Zobrist keys of the positions before the current one, oldest first (for the search's
    /// repetition detection).
    pub fn history_keys(&self) -> Vec<u64> {
        let before = &self.positions[..self.positions.len() - 1];
        // Positions before the last irreversible move can never repeat.
        let reversible = usize::from(self.position().halfmove_clock()).min(before.len());
        before[before.len() - reversible..]
            .iter()
            .map(Position::key)
            .collect()
    }

    /// How often the current position has occurred, itself included.
    pub fn repetition_count(&self) -> usize {
        let key = self.position().key();
        let reversible = usize::from(self.position().halfmove_clock());
        self.positions
            .iter()
            .rev()
            .take(reversible + 1)
            .filter(|p| p.key() == key)
            .count()
    }

    /// How many moves `color` made in the plies from `from_ply` on.
    pub fn moves_by_since(&self, color: Color, from_ply: usize) -> usize {
        self.positions[..self.moves.len()]
            .iter()
            .skip(from_ply)
            .filter(|p| p.side_to_move() == color)
            .count()
    }

    /// The result on the board now: mate and stalemate first (a mate delivered with the
    /// 100th reversible ply still wins), then dead material, then the claimable draws.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        let mut legal = MoveList::new();
        legal_moves(pos, &mut legal);
        if legal.is_empty() {
            return Some(if pos.in_check() {
                Outcome::Checkmate {
                    winner: !pos.side_to_move(),
                }
            } else {
                Outcome::Stalemate
            });
        }
        if pos.is_insufficient_material() {
            return Some(Outcome::InsufficientMaterial);
        }
        if pos.halfmove_clock() >= 100 {
            return Some(Outcome::FiftyMoves);
        }
        if self.repetition_count() >= 3 {
            return Some(Outcome::Repetition);
        }
        None
    }
}

#[cfg(test)]
impl Game {
    /// Plays `moves` (space-separated, any notation `parse_move` reads), for unit tests that
    /// need a game in progress.
    pub(crate) fn play(&mut self, moves: &str) {
        for text in moves.split_whitespace() {
            let m = crate::board::parse_move(self.position(), text).expect(text);
            self.push(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_not_over_and_undo_restores() {
        let mut game = Game::default();
        assert_eq!(game.outcome(), None);
        game.play("e2e4 e7e5");
        assert_eq!(game.ply(), 2);
        assert!(game.pop().is_some());
        assert!(game.pop().is_some());
        assert!(game.pop().is_none());
        assert_eq!(game.position(), &Position::startpos());
    }

    #[test]
    fn fools_mate() {
        let mut game = Game::default();
        game.play("f2f3 e7e5 g2g4 d8h4");
        assert_eq!(
            game.outcome(),
            Some(Outcome::Checkmate {
                winner: Color::Black
            })
        );
    }

    #[test]
    fn threefold_repetition() {
        let mut game = Game::default();
        game.play("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        assert_eq!(game.outcome(), None);
        assert_eq!(game.repetition_count(), 2);
        game.play("f6g8");
        assert_eq!(game.repetition_count(), 3);
        assert_eq!(game.outcome(), Some(Outcome::Repetition));
        assert_eq!(game.history_keys().len(), 8);
    }

    #[test]
    fn fifty_moves_and_mate_precedence() {
        let game = Game::new(Position::from_fen("8/8/4k3/8/8/3K3R/8/8 w - - 100 80").unwrap());
        assert_eq!(game.outcome(), Some(Outcome::FiftyMoves));
        let game = Game::new(Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 100 90").unwrap());
        assert_eq!(
            game.outcome(),
            Some(Outcome::Checkmate {
                winner: Color::White
            })
        );
    }

    #[test]
    fn moves_by_color() {
        let mut game = Game::default();
        game.play("e2e4 e7e5 g1f3");
        assert_eq!(game.moves_by_since(Color::White, 0), 2);
        assert_eq!(game.moves_by_since(Color::Black, 0), 1);
        assert_eq!(game.moves_by_since(Color::White, 1), 1);
    }
}
