//! Which games and which of their positions a trainer or tuner reads: the corpus keeps every
//! ply, and the reader chooses (games by their start and a seeded share of them; positions by
//! minimum ply, not in check, not a capture or promotion played, a score bound). The defaults
//! are the positions the old data files kept, from every game.

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
    /// Which games by their start position.
    pub starts: Starts,
    /// Keep a game only when its hash falls below this many millionths (`ALL_GAMES`: every
    /// game), so two selections of equal size can be drawn from different sets of games.
    pub games_per_million: u32,
}

/// Games by how they start: `Standard` from the usual back ranks (with random plies after),
/// `Chess960` from Fischer random or double Fischer random ranks (the record's flag).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Starts {
    #[default]
    All,
    Standard,
    Chess960,
}

/// `Filter::games_per_million` that keeps every game.
pub const ALL_GAMES: u32 = 1_000_000;

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            min_ply: 0,
            skip_in_check: true,
            skip_tactical: true,
            max_score: MATE_BOUND - 1,
            starts: Starts::All,
            games_per_million: ALL_GAMES,
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
        starts: Starts::All,
        games_per_million: ALL_GAMES,
    };

    /// Whether a game is read at all: its start, then its share. The share's hash depends on
    /// the game's start and moves alone (not on its file or place), so a game is in or out
    /// whichever shards are read with it.
    pub fn keeps_game(&self, game: &GameRecord) -> bool {
        let start_kept = match self.starts {
            Starts::All => true,
            Starts::Standard => !game.chess960,
            Starts::Chess960 => game.chess960,
        };
        start_kept
            && (self.games_per_million >= ALL_GAMES
                || game_hash(game) % u64::from(ALL_GAMES) < u64::from(self.games_per_million))
    }

    /// Whether a scored position is kept; `played` is `None` for a game's final position.
    pub fn keeps(&self, pos: &Position, played: Option<Move>, score: i16, ply: usize) -> bool {
        ply >= usize::from(self.min_ply)
            && !(self.skip_in_check && pos.in_check())
            && !(self.skip_tactical && played.is_some_and(Move::is_tactical))
            && i32::from(score).abs() <= self.max_score
    }

    /// Calls `each` with every kept position of `game`, in order (none if the game is not
    /// kept).
    pub fn for_each(&self, game: &GameRecord, mut each: impl FnMut(TrainingPosition)) {
        if !self.keeps_game(game) {
            return;
        }
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

/// A mix of the game's start and every move, spread evenly over `u64`.
fn game_hash(game: &GameRecord) -> u64 {
    let moves = game
        .opening
        .iter()
        .chain(game.scored.iter().map(|s| &s.played));
    moves.fold(mix(game.start.key()), |hash, m| {
        mix(hash ^ u64::from(m.raw()))
    })
}

/// SplitMix64's finaliser: every input bit moves about half the output bits.
fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
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

    #[test]
    fn games_are_chosen_by_their_start_and_a_share_that_moves_with_the_game_alone() {
        let standard = game();
        let mut chess960 = game();
        chess960.chess960 = true;
        let with = |starts| Filter {
            starts,
            ..Filter::ALL
        };
        assert!(with(Starts::All).keeps_game(&standard) && with(Starts::All).keeps_game(&chess960));
        assert!(with(Starts::Standard).keeps_game(&standard));
        assert!(!with(Starts::Standard).keeps_game(&chess960));
        assert!(with(Starts::Chess960).keeps_game(&chess960));
        assert!(!with(Starts::Chess960).keeps_game(&standard));
        assert!(with(Starts::Chess960).positions(&standard).is_empty());

        // Games that differ in one score only hash alike; in a move, apart. A share keeps
        // about its part of many different games, none at 0, all at the whole.
        let mut rescored = game();
        rescored.scored[0].score = 99;
        assert_eq!(game_hash(&rescored), game_hash(&standard));
        let games: Vec<GameRecord> = (0..2000u16)
            .map(|i| {
                let mut g = game();
                g.final_score = Some(i as i16);
                g.opening = vec![Move::from_raw(i)];
                g
            })
            .collect();
        let kept = |per_million| {
            let filter = Filter {
                games_per_million: per_million,
                ..Filter::ALL
            };
            games.iter().filter(|g| filter.keeps_game(g)).count()
        };
        assert_eq!((kept(0), kept(ALL_GAMES)), (0, 2000));
        let quarter = kept(ALL_GAMES / 4);
        assert!(
            (440..=560).contains(&quarter),
            "{quarter} of 2000 kept at a quarter"
        );
        assert!(kept(ALL_GAMES / 2) > quarter);
    }
}
