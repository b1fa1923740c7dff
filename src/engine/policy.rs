//! When the engine resigns, accepts a draw or offers one. It acts only on real search
//! scores (centipawns from the engine's side): a search stopped before it scored any move
//! teaches it nothing.

use crate::board::game::Game;
use crate::board::{Color, PieceKind};

/// Scores below this (centipawns, engine's view) make the engine accept a draw offer.
const ACCEPT_DRAW_BELOW: i32 = -150;
/// Scores within this of zero count as "dead level".
const LEVEL_SCORE: i32 = 10;
/// Own draw offers: only from this move number on, after this many level scores in a row,
/// against a computer, and not more often than every `DRAW_OFFER_INTERVAL` plies.
const OFFER_DRAW_FROM_MOVE: u16 = 40;
const OFFER_DRAW_AFTER_LEVEL_MOVES: u32 = 10;
const DRAW_OFFER_INTERVAL: usize = 20;
/// Own moves in a row below the resign threshold before resigning.
const RESIGN_AFTER_MOVES: u32 = 3;

/// What the engine has learnt about the game from its own searches.
#[derive(Clone, Debug, Default)]
pub(crate) struct DrawResignPolicy {
    /// The score of the last own search that scored a move.
    last_score: Option<i32>,
    low_score_moves: u32,
    level_score_moves: u32,
    last_own_draw_offer: Option<usize>,
    /// Own draw offers are made only to computers.
    pub(crate) opponent_is_computer: bool,
}

impl DrawResignPolicy {
    pub(crate) fn last_score(&self) -> Option<i32> {
        self.last_score
    }

    /// An own search ended with `score` (`None`: stopped before it scored a move, which
    /// changes nothing). Returns whether to resign: `resign` is on and the score has been
    /// below `-resign_threshold` for the last few own moves.
    pub(crate) fn record_search(
        &mut self,
        score: Option<i32>,
        resign: bool,
        resign_threshold: i32,
    ) -> bool {
        let Some(score) = score else {
            return false;
        };
        self.last_score = Some(score);
        if score < -resign_threshold {
            self.low_score_moves += 1;
        } else {
            self.low_score_moves = 0;
        }
        if score.abs() <= LEVEL_SCORE {
            self.level_score_moves += 1;
        } else {
            self.level_score_moves = 0;
        }
        resign && self.low_score_moves >= RESIGN_AFTER_MOVES
    }

    /// Accept a draw offer when clearly worse, or level in a dead or repeating position.
    pub(crate) fn accepts_draw(&self, score: Option<i32>, game: &Game) -> bool {
        let Some(score) = score else {
            return false;
        };
        score <= ACCEPT_DRAW_BELOW || (score.abs() <= LEVEL_SCORE && drawish(game))
    }

    /// Offer a draw ourselves: only against a computer, late, after many level scores.
    pub(crate) fn wants_to_offer_draw(&self, game: &Game) -> bool {
        self.opponent_is_computer
            && game.position().fullmove_number() >= OFFER_DRAW_FROM_MOVE
            && self.level_score_moves >= OFFER_DRAW_AFTER_LEVEL_MOVES
            && self
                .last_own_draw_offer
                .is_none_or(|ply| game.ply() >= ply + DRAW_OFFER_INTERVAL)
    }

    /// An own draw offer went out at game ply `ply`.
    pub(crate) fn offered_draw(&mut self, ply: usize) {
        self.last_own_draw_offer = Some(ply);
    }
}

fn drawish(game: &Game) -> bool {
    let pos = game.position();
    if pos.is_insufficient_material() || game.repetition_count() >= 2 || pos.halfmove_clock() >= 80
    {
        return true;
    }
    let heavy_or_pawns = pos.kind(PieceKind::Pawn) | pos.kind(PieceKind::Queen);
    let minor_or_rook_count =
        |color: Color| (pos.color(color) & !pos.kind(PieceKind::King)).count();
    heavy_or_pawns.is_empty()
        && minor_or_rook_count(Color::White) <= 1
        && minor_or_rook_count(Color::Black) <= 1
}
