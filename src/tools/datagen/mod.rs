//! `ironwood datagen`: self-play games for training, played inside the engine, one game per
//! thread. Each game starts from random plies, searches every move with a soft node limit,
//! is adjudicated by score, and is written whole (every move and search score) to a new
//! corpus shard (`corpus::format`). A run with the same seed plays and writes the same games.
//! `ironwood spsa` plays its games with the same pieces (`opening`, `play_out`, the writer).

use crate::board::game::{Game, Outcome};
use crate::board::{Color, Move, MoveList, Position, legal_moves};
use crate::search::score::is_mate_score;
use crate::search::{SearchControl, SearchLimits, Searcher, Silent};
use crate::tools::corpus::format::{
    Ending, GameRecord, GameResult, Metadata, ScoredPly, ShardWriter, encode_game,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub const DEFAULT_HASH_MB: usize = 16;
/// Random plies from the start position, from an `--openings` position.
const RANDOM_PLIES: (usize, usize) = (8, 9);
const RANDOM_PLIES_AFTER_OPENING: (usize, usize) = (2, 4);
/// Starts whose quick search is more lopsided than this are drawn again.
const MAX_OPENING_SCORE: i32 = 300;
/// A win: both sides agree on at least this for `WIN_PLIES` plies in a row.
const WIN_SCORE: i32 = 1000;
const WIN_PLIES: usize = 4;
/// A draw: from `DRAW_FROM_MOVE` on, within this of zero for `DRAW_PLIES` plies in a row.
const DRAW_SCORE: i32 = 5;
const DRAW_PLIES: usize = 10;
const DRAW_FROM_MOVE: u16 = 40;
/// The soft node limit is a target; this many times it stops a runaway first root move.
const HARD_NODE_FACTOR: u64 = 16;
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatagenConfig {
    pub out: PathBuf,
    pub threads: usize,
    pub hash_mb: usize,
    /// Stop after this many games; `None` runs until killed.
    pub games: Option<u64>,
    pub nodes: u64,
    pub seed: u64,
    pub openings: Option<PathBuf>,
    /// The evaluation the games are played with (`--evaluation`, `--eval-file`).
    pub evaluation: crate::nnue::Evaluation,
}

/// Games finished out of order wait here, so the file holds them in game order, one block
/// (one `write`) per game: a killed run leaves every finished game readable.
pub(crate) struct OrderedWriter {
    writer: ShardWriter,
    next: u64,
    waiting: BTreeMap<u64, Vec<u8>>,
}

impl OrderedWriter {
    /// A writer whose first game is number 0.
    pub(crate) fn new(writer: ShardWriter) -> OrderedWriter {
        OrderedWriter {
            writer,
            next: 0,
            waiting: BTreeMap::new(),
        }
    }

    pub(crate) fn finish(&mut self, game: u64, encoded: Vec<u8>) -> Result<(), String> {
        self.waiting.insert(game, encoded);
        while let Some(encoded) = self.waiting.remove(&self.next) {
            self.writer
                .write_block(1, &encoded)
                .map_err(|e| e.to_string())?;
            self.next += 1;
        }
        Ok(())
    }
}

/// What the shard's header says about how its games were played.
pub fn metadata(config: &DatagenConfig) -> Metadata {
    let mut m = Metadata::default();
    m.set(
        "generator",
        format!("ironwood {} datagen", env!("CARGO_PKG_VERSION")),
    );
    m.set("commit", crate::BUILD_COMMIT);
    m.set("evaluation", config.evaluation.describe());
    m.set("nodes", config.nodes.to_string());
    m.set("seed", config.seed.to_string());
    m.set("threads", config.threads.to_string());
    m.set("hash_mb", config.hash_mb.to_string());
    m.set(
        "openings",
        match &config.openings {
            Some(path) => format!(
                "{} + {}-{} random plies",
                path.display(),
                RANDOM_PLIES_AFTER_OPENING.0,
                RANDOM_PLIES_AFTER_OPENING.1
            ),
            None => format!(
                "start position + {}-{} random plies",
                RANDOM_PLIES.0, RANDOM_PLIES.1
            ),
        },
    );
    m.set("date", crate::tools::corpus::utc_date_now());
    m
}

struct Shared<'a> {
    config: &'a DatagenConfig,
    openings: &'a [Position],
    next_game: AtomicU64,
    games_done: AtomicU64,
    positions_done: AtomicU64,
    writer: Mutex<OrderedWriter>,
    error: FirstError,
}

pub fn generate_games(config: &DatagenConfig) -> Result<(), String> {
    let openings = match &config.openings {
        Some(path) => load_openings(path)?,
        None => Vec::new(),
    };
    let writer = ShardWriter::create(&config.out, &metadata(config)).map_err(|e| e.to_string())?;
    let shared = Shared {
        config,
        openings: &openings,
        next_game: AtomicU64::new(0),
        games_done: AtomicU64::new(0),
        positions_done: AtomicU64::new(0),
        writer: Mutex::new(OrderedWriter::new(writer)),
        error: FirstError::default(),
    };
    let start = Instant::now();
    run_workers(
        config.threads,
        PROGRESS_EVERY,
        || play_games(&shared),
        || eprintln!("{}", progress(&shared, start.elapsed())),
    );
    if let Some(error) = shared.error.take() {
        return Err(error);
    }
    eprintln!("{}", progress(&shared, start.elapsed()));
    Ok(())
}

/// The first error any game thread met: the others see it and stop, and the run returns it.
#[derive(Default)]
pub(crate) struct FirstError {
    happened: AtomicBool,
    error: Mutex<Option<String>>,
}

impl FirstError {
    pub(crate) fn set(&self, error: String) {
        self.happened.store(true, Ordering::Relaxed);
        if let Ok(mut slot) = self.error.lock() {
            slot.get_or_insert(error);
        }
    }

    pub(crate) fn happened(&self) -> bool {
        self.happened.load(Ordering::Relaxed)
    }

    pub(crate) fn take(&self) -> Option<String> {
        self.error.lock().ok().and_then(|mut e| e.take())
    }
}

/// Runs `work` on `threads` threads at once, with stacks deep enough for a search, and calls
/// `report` every `every` until all of them have returned. Shared by datagen and `spsa`,
/// whose games are played the same way.
pub(crate) fn run_workers(
    threads: usize,
    every: Duration,
    work: impl Fn() + Sync,
    mut report: impl FnMut(),
) {
    let running = AtomicU64::new(threads as u64);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let (work, running) = (&work, &running);
            let spawned = std::thread::Builder::new()
                .stack_size(16 << 20)
                .spawn_scoped(scope, move || {
                    work();
                    running.fetch_sub(1, Ordering::Relaxed);
                });
            if let Err(error) = spawned {
                log::error!("a game thread could not start: {error}");
                running.fetch_sub(1, Ordering::Relaxed);
            }
        }
        let mut last_report = Instant::now();
        while running.load(Ordering::Relaxed) > 0 {
            std::thread::sleep(Duration::from_millis(100));
            if last_report.elapsed() >= every {
                last_report = Instant::now();
                report();
            }
        }
    });
}

fn progress(shared: &Shared, elapsed: Duration) -> String {
    let games = shared.games_done.load(Ordering::Relaxed);
    let positions = shared.positions_done.load(Ordering::Relaxed);
    let seconds = elapsed.as_secs_f64().max(1e-3);
    let mut line = format!(
        "datagen: {games} games, {positions} positions, {:.0} positions/s, {:.0} s",
        positions as f64 / seconds,
        seconds
    );
    if let Some(total) = shared.config.games
        && games > 0
    {
        let left = total.saturating_sub(games) as f64 * seconds / games as f64;
        line.push_str(&format!(", ETA {left:.0} s"));
    }
    line
}

pub(crate) fn load_openings(path: &PathBuf) -> Result<Vec<Position>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut positions = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let position = Position::from_fen(&fields.join(" "))
            .map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        positions.push(position);
    }
    if positions.is_empty() {
        return Err(format!("{}: no positions", path.display()));
    }
    Ok(positions)
}

fn play_games(shared: &Shared) {
    let config = shared.config;
    let mut searcher = Searcher::new(config.hash_mb, 1);
    searcher.features.evaluation = config.evaluation;
    loop {
        if shared.error.happened() {
            return;
        }
        let index = shared.next_game.fetch_add(1, Ordering::Relaxed);
        if config.games.is_some_and(|total| index >= total) {
            return;
        }
        let record = play_game(&mut searcher, config, shared.openings, index);
        let mut bytes = Vec::with_capacity(4 * record.scored.len() + 16);
        encode_game(&record, &mut bytes);
        let written = shared
            .writer
            .lock()
            .map_err(|_| "a datagen thread panicked".to_string())
            .and_then(|mut w| w.finish(index, bytes));
        if let Err(error) = written {
            return shared.error.set(error);
        }
        shared.games_done.fetch_add(1, Ordering::Relaxed);
        shared
            .positions_done
            .fetch_add(record.scored_positions() as u64, Ordering::Relaxed);
    }
}

/// Per-game random numbers: the same for a game index whatever thread plays it.
pub(crate) fn game_rng(seed: u64, index: u64) -> StdRng {
    StdRng::seed_from_u64(seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

pub(crate) struct Searched {
    best: Move,
    /// Side to move's point of view.
    score: i32,
}

pub(crate) fn search(searcher: &mut Searcher, game: &Game, nodes: u64) -> Searched {
    let limits = SearchLimits {
        nodes: Some(nodes * HARD_NODE_FACTOR),
        soft_nodes: Some(nodes),
        ..SearchLimits::default()
    };
    let control = SearchControl::new(limits, &searcher.features.params);
    let outcome = searcher.search(game.position(), &game.history_keys(), &control, &mut Silent);
    Searched {
        best: outcome.best_move,
        score: outcome.score,
    }
}

/// A start: random plies from the start position (or an opening), redrawn until the
/// position is playable and its quick search is not lopsided. Returns the game and that
/// search, which is also the first move's.
pub(crate) fn opening(
    searcher: &mut Searcher,
    config: &DatagenConfig,
    openings: &[Position],
    rng: &mut StdRng,
) -> (Game, Searched) {
    let mut list = MoveList::new();
    loop {
        let (start, (low, high)) = if openings.is_empty() {
            (Position::startpos(), RANDOM_PLIES)
        } else {
            (
                openings[rng.gen_range(0..openings.len())].clone(),
                RANDOM_PLIES_AFTER_OPENING,
            )
        };
        let mut game = Game::new(start);
        let plies = rng.gen_range(low..=high);
        for _ in 0..plies {
            list.clear();
            legal_moves(game.position(), &mut list);
            if list.is_empty() {
                break;
            }
            game.push(list.get(rng.gen_range(0..list.len())));
        }
        if game.ply() < plies || game.outcome().is_some() {
            continue;
        }
        searcher.clear();
        let searched = search(searcher, &game, config.nodes);
        if searched.score.abs() <= MAX_OPENING_SCORE {
            return (game, searched);
        }
    }
}

/// Plays game number `index` and returns it whole: the opening's random plies, then every
/// searched position with the move played and its score.
fn play_game(
    searcher: &mut Searcher,
    config: &DatagenConfig,
    openings: &[Position],
    index: u64,
) -> GameRecord {
    let mut rng = game_rng(config.seed, index);
    let (game, searched) = opening(searcher, config, openings, &mut rng);
    play_out(std::slice::from_mut(searcher), config.nodes, game, searched)
}

/// The searcher playing `side`: `players` is one searcher for both sides (datagen, whose
/// table and histories carry over between the sides' moves) or White's then Black's (spsa).
fn player(players: &mut [Searcher], side: Color) -> &mut Searcher {
    let index = if players.len() == 1 { 0 } else { side.index() };
    &mut players[index]
}

/// Plays `game` on from `searched`, the side to move's search of its position, to its end,
/// and returns it whole: the moves before it as the opening, then every searched position
/// with the move played and its score.
pub(crate) fn play_out(
    players: &mut [Searcher],
    nodes: u64,
    mut game: Game,
    mut searched: Searched,
) -> GameRecord {
    let start = game.start().clone();
    let opening_moves = game.moves().to_vec();
    let mut scored: Vec<ScoredPly> = Vec::new();
    // White's point of view, one per searched ply.
    let mut scores: Vec<i32> = Vec::new();
    let (result, ending) = loop {
        let pos = game.position();
        let white_score = searched.score * pos.side_to_move().sign();
        scored.push(ScoredPly {
            played: searched.best,
            score: white_score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
        });
        if is_mate_score(searched.score) {
            let winner = if searched.score > 0 {
                pos.side_to_move()
            } else {
                !pos.side_to_move()
            };
            break (GameResult::won_by(winner), Ending::MateScore);
        }
        scores.push(white_score);
        if let Some(result) = adjudicate(&scores, pos.fullmove_number()) {
            let ending = if result == GameResult::Draw {
                Ending::AdjudicatedDraw
            } else {
                Ending::AdjudicatedWin
            };
            break (result, ending);
        }
        game.push(searched.best);
        if let Some(outcome) = game.outcome() {
            break match outcome {
                Outcome::Checkmate { winner } => (GameResult::won_by(winner), Ending::Checkmate),
                Outcome::Stalemate => (GameResult::Draw, Ending::Stalemate),
                Outcome::InsufficientMaterial => (GameResult::Draw, Ending::InsufficientMaterial),
                Outcome::FiftyMoves => (GameResult::Draw, Ending::FiftyMoves),
                Outcome::Repetition => (GameResult::Draw, Ending::Repetition),
            };
        }
        let side = game.position().side_to_move();
        searched = search(player(players, side), &game, nodes);
    };
    GameRecord {
        start,
        chess960: false,
        start_ply: 0,
        opening: opening_moves,
        scored,
        final_score: None,
        result,
        ending,
    }
}

/// The adjudication rules on the scores so far (White's point of view, one per ply).
fn adjudicate(scores: &[i32], fullmove: u16) -> Option<GameResult> {
    if scores.len() >= WIN_PLIES {
        let last = &scores[scores.len() - WIN_PLIES..];
        if last.iter().all(|&s| s >= WIN_SCORE) {
            return Some(GameResult::WhiteWon);
        }
        if last.iter().all(|&s| s <= -WIN_SCORE) {
            return Some(GameResult::BlackWon);
        }
    }
    if fullmove > DRAW_FROM_MOVE && scores.len() >= DRAW_PLIES {
        let last = &scores[scores.len() - DRAW_PLIES..];
        if last.iter().all(|&s| s.abs() <= DRAW_SCORE) {
            return Some(GameResult::Draw);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjudication_needs_agreement_over_several_plies() {
        assert_eq!(adjudicate(&[1200, 1100, 1000], 30), None);
        assert_eq!(
            adjudicate(&[0, 1200, 1100, 1000, 1500], 30),
            Some(GameResult::WhiteWon)
        );
        assert_eq!(
            adjudicate(&[-1000, -1200, -1100, -1000], 30),
            Some(GameResult::BlackWon)
        );
        assert_eq!(adjudicate(&[1200, 999, 1100, 1000], 30), None);
        let level = [3, -2, 0, 5, -5, 1, 0, 0, 2, -1];
        assert_eq!(adjudicate(&level, 40), None, "only after move 40");
        assert_eq!(adjudicate(&level, 41), Some(GameResult::Draw));
        assert_eq!(adjudicate(&level[1..], 41), None, "ten plies");
        let mut not_level = level;
        not_level[4] = 6;
        assert_eq!(adjudicate(&not_level, 60), None);
    }

    #[test]
    fn the_soft_node_limit_ends_searches_soon_after_it_and_reproducibly() {
        let soft = 3000;
        let mut near = 0;
        for fen in crate::tools::bench::BENCH_POSITIONS.iter().take(12) {
            let game = Game::new(Position::from_fen(fen).unwrap());
            let run = || {
                let mut searcher = Searcher::new(4, 1);
                let limits = SearchLimits {
                    soft_nodes: Some(soft),
                    ..SearchLimits::default()
                };
                let control = SearchControl::new(limits, &searcher.features.params);
                searcher.search(game.position(), &[], &control, &mut Silent)
            };
            let (a, b) = (run(), run());
            assert_eq!((a.nodes, a.best_move), (b.nodes, b.best_move), "{fen}");
            assert!(a.depth >= 1 && !a.best_move.is_null(), "{fen}");
            if (soft..=3 * soft).contains(&a.nodes) {
                near += 1;
            }
        }
        // Mates and forced moves may stop sooner; most searches end just past the limit.
        assert!(near >= 9, "{near} of 12");
    }

    #[test]
    fn games_are_reproducible_and_stored_whole() {
        let config = DatagenConfig {
            out: PathBuf::new(),
            threads: 1,
            hash_mb: 4,
            games: Some(1),
            nodes: 800,
            seed: 5,
            openings: None,
            evaluation: crate::nnue::Evaluation::Classical,
        };
        let mut searcher = Searcher::new(config.hash_mb, 1);
        let first = play_game(&mut searcher, &config, &[], 3);
        let again = play_game(&mut searcher, &config, &[], 3);
        assert_eq!(first, again);
        assert_eq!(first.start, Position::startpos());
        assert!((8..=9).contains(&first.opening.len()));
        assert!(!first.scored.is_empty());
        // Every move after the opening is searched and kept, tactical ones too; the game
        // replays legally to its end.
        let mut game = Game::new(first.start.clone());
        for &m in first
            .opening
            .iter()
            .chain(first.scored.iter().map(|p| &p.played))
        {
            assert!(crate::board::is_legal(game.position(), m));
            game.push(m);
        }
        let last = first.scored.last().unwrap();
        match first.ending {
            Ending::Checkmate => assert!(game.position().in_check()),
            Ending::MateScore => assert!(is_mate_score(i32::from(last.score))),
            Ending::AdjudicatedWin => assert!(i32::from(last.score).abs() >= WIN_SCORE),
            _ => {}
        }
        let other = play_game(&mut searcher, &config, &[], 4);
        assert_ne!(first, other);
    }
}
