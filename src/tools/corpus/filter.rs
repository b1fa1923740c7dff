//! Which of a game's positions a trainer or tuner reads: the corpus keeps every ply, and
//! the reader chooses (minimum ply, not in check, not a capture or promotion played, a
//! score bound). The defaults are the positions the old data files kept.

use super::format::{GameRecord, GameResult};
use crate::board::{Move, Position};
use crate::search::score::MATE_BOUND;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filter {
    /// Skip positions before this ply of the game.
    pub min_ply: u16,
    pub skip_in_check: bool,
    /// Skip positions whose played move captures or promotes (their score is a tactic's).
    pub skip_tactical: bool,
    /// Skip positions whose search score is further from zero than this (centipawns).
    pub max_score: i32,
}

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            min_ply: 0,
            skip_in_check: true,
            skip_tactical: true,
            max_score: MATE_BOUND - 1,
        }
    }
}

impl Filter {
    /// Every scored position.
    pub const ALL: Filter = Filter {
        min_ply: 0,
        skip_in_check: false,
        skip_tactical: false,
        max_score: i32::MAX,
    };

    /// Whether a scored position is kept; `played` is `None` for a game's final position.
    pub fn keeps(&self, pos: &Position, played: Option<Move>, score: i16, ply: usize) -> bool {
        ply >= usize::from(self.min_ply)
            && !(self.skip_in_check && pos.in_check())
            && !(self.skip_tactical && played.is_some_and(Move::is_tactical))
            && i32::from(score).abs() <= self.max_score
    }

    /// Calls `each` with every kept position of `game`, in order.
    pub fn for_each(&self, game: &GameRecord, mut each: impl FnMut(TrainingPosition)) {
        let mut pos = game.start.clone();
        for &m in &game.opening {
            pos = pos.make_move(m);
        }
        let mut ply = usize::from(game.start_ply) + game.opening.len();
        for scored in &game.scored {
            if self.keeps(&pos, Some(scored.played), scored.score, ply) {
                each(TrainingPosition {
                    position: pos.clone(),
                    score: scored.score,
                    result: game.result,
                    ply: ply.min(usize::from(u16::MAX)) as u16,
                });
            }
            pos = pos.make_move(scored.played);
            ply += 1;
        }
        if let Some(score) = game.final_score
            && self.keeps(&pos, None, score, ply)
        {
            each(TrainingPosition {
                position: pos,
                score,
                result: game.result,
                ply: ply.min(usize::from(u16::MAX)) as u16,
            });
        }
    }

    /// The kept positions of a game.
    pub fn positions(&self, game: &GameRecord) -> Vec<TrainingPosition> {
        let mut kept = Vec::with_capacity(game.scored.len());
        self.for_each(game, |p| kept.push(p));
        kept
    }
}

/// A position picked for training, labelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainingPosition {
    pub position: Position,
    /// Centipawns, White's point of view.
    pub score: i16,
    pub result: GameResult,
    /// Plies played in the game before this position.
    pub ply: u16,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_move;
    use crate::tools::corpus::format::{Ending, ScoredPly};

    /// 1.e4 (opening) d5 2.exd5 Qxd5 3.Nc3 Qe5+ 4.Be2, then a final scored position.
    fn game() -> GameRecord {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for text in ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5e5", "f1e2"] {
            let m = parse_move(&pos, text).unwrap();
            pos = pos.make_move(m);
            moves.push(m);
        }
        let scores = [20, 90, -10, 40, -31_000 + 5, 10];
        GameRecord {
            start: Position::startpos(),
            chess960: false,
            start_ply: 0,
            opening: moves[..1].to_vec(),
            scored: moves[1..]
                .iter()
                .zip(scores)
                .map(|(&played, score)| ScoredPly { played, score })
                .collect(),
            final_score: Some(-15),
            result: GameResult::Draw,
            ending: Ending::AdjudicatedDraw,
        }
    }

    fn kept(filter: Filter) -> Vec<(u16, i16)> {
        filter
            .positions(&game())
            .iter()
            .map(|p| (p.ply, p.score))
            .collect()
    }

    #[test]
    fn filters_keep_and_drop_exactly_what_they_say() {
        // Ply 1 d5 (quiet), 2 exd5 (capture), 3 Qxd5 (capture), 4 Nc3 (quiet, mate score),
        // 5 Qe5+ (quiet), 6 Be2 (quiet, in check), 7 the final position.
        let all = [
            (1, 20),
            (2, 90),
            (3, -10),
            (4, 40),
            (5, -30_995),
            (6, 10),
            (7, -15),
        ];
        assert_eq!(kept(Filter::ALL), all);
        assert_eq!(kept(Filter::default()), [(1, 20), (4, 40), (7, -15)]);
        let only = |f: fn(&mut Filter)| {
            let mut filter = Filter::ALL;
            f(&mut filter);
            kept(filter)
        };
        assert_eq!(
            only(|f| f.skip_tactical = true),
            [(1, 20), (4, 40), (5, -30_995), (6, 10), (7, -15)]
        );
        assert_eq!(
            only(|f| f.skip_in_check = true),
            [(1, 20), (2, 90), (3, -10), (4, 40), (5, -30_995), (7, -15)]
        );
        assert_eq!(only(|f| f.min_ply = 6), [(6, 10), (7, -15)]);
        assert_eq!(
            only(|f| f.max_score = 40),
            [(1, 20), (3, -10), (4, 40), (6, 10), (7, -15)]
        );
    }
}
