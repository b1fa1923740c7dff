//! `ironwood datagen`: self-play games for training, played inside the engine, one game per
//! thread. Each game starts from random plies (from the start position, an `--openings`
//! position, or for a share of the games a double Fischer random start: each side's back
//! rank one of Chess960's 960, drawn independently), searches every move with a soft node
//! limit, is adjudicated by score (`Adjudication`), and is written whole (every move and
//! search score) to a new corpus shard (`corpus::format`), with the run's totals (positions
//! per CPU-second) in a run-totals block every few seconds and at the end. A run with the
//! same seed plays and writes the same games. `ironwood spsa` plays its games with the same
//! pieces (`opening`, `play_out`, the writer).

use crate::board::game::{Game, Outcome};
use crate::board::{
    CastlingMode, Color, Move, MoveList, Position, chess960_back_rank, legal_moves,
};
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

/// The table of each game (and of `spsa`'s): searches of a few thousand nodes fill a
/// fraction of 2 MB, and a table that small stays in the caches where 16 MB did not, for
/// more positions a CPU-second with the same play (docs/network.md, *The data*).
pub const DEFAULT_HASH_MB: usize = 2;
/// Random plies from the start position, from an `--openings` position.
const RANDOM_PLIES: (usize, usize) = (8, 9);
const RANDOM_PLIES_AFTER_OPENING: (usize, usize) = (2, 4);
/// Starts whose quick search is more lopsided than this are drawn again.
const MAX_OPENING_SCORE: i32 = 300;
/// The share of games from double Fischer random starts when `--dfrc-share` is not given.
pub const DEFAULT_DFRC_PERCENT: u32 = 10;
/// Normal chess's back rank in Chess960's numbering (`chess960_back_rank`).
const STANDARD_BACK_RANK: usize = 518;

/// How a game is decided from its search scores (White's point of view, one per searched
/// ply, so a run of plies is both sides' searches) before the board ends it. A mate score
/// ends a game as a win whatever the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// A win: every score of `win_plies` plies in a row at least this far from zero, on the
    /// same side.
    pub win_score: i32,
    pub win_plies: usize,
    /// A draw: every score of `draw_plies` plies in a row within this of zero, once the game
    /// has reached `draw_from_ply` plies (the random opening included).
    pub draw_score: i32,
    pub draw_plies: usize,
    pub draw_from_ply: usize,
}

impl Adjudication {
    /// Datagen's rules: the win rule as before; the draw rule looser and at the same point
    /// of the game (ply 80 is move 41 from the start position).
    pub const DEFAULT: Adjudication = Adjudication {
        win_score: 1000,
        win_plies: 4,
        draw_score: 10,
        draw_plies: 8,
        draw_from_ply: 80,
    };

    /// The rules before they could be chosen (and not written in the manifest): every shard
    /// up to shard-0049 was played under them, and `spsa` keeps them.
    pub const LEGACY: Adjudication = Adjudication {
        win_score: 1000,
        win_plies: 4,
        draw_score: 5,
        draw_plies: 10,
        draw_from_ply: 80,
    };

    /// The rules in `--adjudication`'s form, e.g. `1000,4,10,8,80`.
    pub fn flag(&self) -> String {
        format!(
            "{},{},{},{},{}",
            self.win_score, self.win_plies, self.draw_score, self.draw_plies, self.draw_from_ply
        )
    }

    /// The rules as `--adjudication` takes them: `off`, or five numbers
    /// `WIN_CP,WIN_PLIES,DRAW_CP,DRAW_PLIES,DRAW_FROM_PLY`.
    pub fn parse(text: &str) -> Result<Option<Adjudication>, String> {
        if text == "off" {
            return Ok(None);
        }
        let numbers: Vec<&str> = text.split(',').collect();
        let limits: [(&str, u64, u64); 5] = [
            ("WIN_CP", 100, 20_000),
            ("WIN_PLIES", 1, 100),
            ("DRAW_CP", 0, 100),
            ("DRAW_PLIES", 1, 100),
            ("DRAW_FROM_PLY", 0, 1000),
        ];
        if numbers.len() != limits.len() {
            return Err(format!(
                "`{text}` is not `off` or five numbers WIN_CP,WIN_PLIES,DRAW_CP,DRAW_PLIES,\
                 DRAW_FROM_PLY"
            ));
        }
        let mut values = [0u64; 5];
        for (i, (&number, &(name, low, high))) in numbers.iter().zip(&limits).enumerate() {
            values[i] = number
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|n| (low..=high).contains(n))
                .ok_or_else(|| {
                    format!("{name} must be a whole number from {low} to {high}, not `{number}`")
                })?;
        }
        Ok(Some(Adjudication {
            win_score: values[0] as i32,
            win_plies: values[1] as usize,
            draw_score: values[2] as i32,
            draw_plies: values[3] as usize,
            draw_from_ply: values[4] as usize,
        }))
    }

    /// The rules in words, as the shard header and the manifest keep them.
    pub fn describe(rules: Option<Adjudication>) -> String {
        match rules {
            None => "off (a mate score still ends a game)".to_string(),
            Some(a) => format!(
                "win: a mate score, or |score| >= {} cp for {} plies in a row; \
                 draw: |score| <= {} cp for {} plies in a row from ply {}",
                a.win_score, a.win_plies, a.draw_score, a.draw_plies, a.draw_from_ply
            ),
        }
    }

    /// The result the rules give on the scores so far (White's point of view, one per
    /// searched ply) at ply `ply` of the game.
    fn judge(&self, scores: &[i32], ply: usize) -> Option<GameResult> {
        if scores.len() >= self.win_plies {
            let last = &scores[scores.len() - self.win_plies..];
            if last.iter().all(|&s| s >= self.win_score) {
                return Some(GameResult::WhiteWon);
            }
            if last.iter().all(|&s| s <= -self.win_score) {
                return Some(GameResult::BlackWon);
            }
        }
        if ply >= self.draw_from_ply && scores.len() >= self.draw_plies {
            let last = &scores[scores.len() - self.draw_plies..];
            if last.iter().all(|&s| s.abs() <= self.draw_score) {
                return Some(GameResult::Draw);
            }
        }
        None
    }
}
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
    /// Per cent of the games started from double Fischer random positions (0 to 100).
    pub dfrc_percent: u32,
    /// `None`: games are played until the board (or a mate score) ends them.
    pub adjudication: Option<Adjudication>,
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
    if config.dfrc_percent > 0 {
        let openings = m.get("openings").unwrap_or_default().to_string();
        m.set(
            "openings",
            format!(
                "{openings}; {}% of the games instead double Fischer random starts + {}-{} random plies",
                config.dfrc_percent, RANDOM_PLIES.0, RANDOM_PLIES.1
            ),
        );
    }
    m.set("dfrc_share", format!("{}%", config.dfrc_percent));
    m.set("adjudication", Adjudication::describe(config.adjudication));
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
    start: Instant,
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
        start: Instant::now(),
    };
    run_workers(
        config.threads,
        PROGRESS_EVERY,
        || play_games(&shared),
        || {
            let totals = totals(&shared);
            eprintln!("{}", progress(&shared, &totals));
            if let Err(error) = write_totals(&shared, &totals.metadata()) {
                shared.error.set(error);
            }
        },
    );
    if let Some(error) = shared.error.take() {
        return Err(error);
    }
    let totals = totals(&shared);
    write_totals(&shared, &totals.metadata())?;
    eprintln!("{}", progress(&shared, &totals));
    eprintln!(
        "datagen: {:.1} positions per CPU-second ({} positions in {:.2} CPU-seconds, {})",
        totals.positions_per_cpu_second(),
        totals.positions,
        totals.cpu_seconds,
        totals.clock
    );
    Ok(())
}

/// A run's totals so far.
struct Totals {
    games: u64,
    positions: u64,
    wall_seconds: f64,
    /// The process's CPU time, or wall time times threads where the OS cannot say.
    cpu_seconds: f64,
    clock: &'static str,
}

impl Totals {
    fn positions_per_cpu_second(&self) -> f64 {
        self.positions as f64 / self.cpu_seconds.max(1e-3)
    }

    /// As a run-totals block holds them; `corpus add` copies them into the shard header,
    /// and `positions_per_cpu_second` into the manifest.
    fn metadata(&self) -> Metadata {
        let mut m = Metadata::default();
        m.set("run_games", self.games.to_string());
        m.set("run_positions", self.positions.to_string());
        m.set("run_wall_seconds", format!("{:.1}", self.wall_seconds));
        m.set("run_cpu_seconds", format!("{:.2}", self.cpu_seconds));
        m.set("run_cpu_clock", self.clock);
        m.set(
            "positions_per_cpu_second",
            format!("{:.1}", self.positions_per_cpu_second()),
        );
        m
    }
}

fn totals(shared: &Shared) -> Totals {
    let wall_seconds = shared.start.elapsed().as_secs_f64();
    let (cpu_seconds, clock) = match crate::sys::process_cpu_seconds() {
        Some(cpu) => (cpu, "process CPU time"),
        None => (
            wall_seconds * shared.config.threads as f64,
            "wall time x threads (no CPU clock on this OS)",
        ),
    };
    Totals {
        games: shared.games_done.load(Ordering::Relaxed),
        positions: shared.positions_done.load(Ordering::Relaxed),
        wall_seconds,
        cpu_seconds,
        clock,
    }
}

fn write_totals(shared: &Shared, totals: &Metadata) -> Result<(), String> {
    let mut writer = shared
        .writer
        .lock()
        .map_err(|_| "a datagen thread panicked".to_string())?;
    writer.writer.write_stats(totals).map_err(|e| e.to_string())
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

fn progress(shared: &Shared, totals: &Totals) -> String {
    let (games, positions) = (totals.games, totals.positions);
    let seconds = totals.wall_seconds.max(1e-3);
    let mut line = format!(
        "datagen: {games} games, {positions} positions, {:.0} positions/s, {:.0} s, \
         {:.0} positions per CPU-second",
        positions as f64 / seconds,
        seconds,
        totals.positions_per_cpu_second()
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
    searcher.features.evaluation = config.evaluation.clone();
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

/// A double Fischer random start: White's and Black's back ranks drawn independently from
/// Chess960's 960 (never both normal chess's), castling on both sides for both (X-FEN
/// `KQkq`: each side has one rook on each side of its king).
pub fn dfrc_start(rng: &mut StdRng) -> Position {
    loop {
        let (white, black) = (rng.gen_range(0..960), rng.gen_range(0..960));
        if white == STANDARD_BACK_RANK && black == STANDARD_BACK_RANK {
            continue;
        }
        let rank = |n: usize| String::from_utf8_lossy(&chess960_back_rank(n)).into_owned();
        let fen = format!(
            "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w KQkq - 0 1",
            rank(black).to_ascii_lowercase(),
            rank(white)
        );
        match Position::from_fen_in(&fen, CastlingMode::Chess960) {
            Ok(position) => return position,
            // Every pair of back ranks is a legal start (a unit test reads all of them).
            Err(error) => log::error!("double Fischer random start {fen}: {error}"),
        }
    }
}

/// A start: random plies from the start position (or an opening, or for
/// `config.dfrc_percent` of the games a double Fischer random start), redrawn until the
/// position is playable and its quick search is not lopsided. The searcher's table and
/// histories are cleared once, so the game depends only on the random numbers. Returns the
/// game and that search, which is also the first move's.
pub(crate) fn opening(
    searcher: &mut Searcher,
    config: &DatagenConfig,
    openings: &[Position],
    rng: &mut StdRng,
) -> (Game, Searched) {
    let mut list = MoveList::new();
    // Drawn only when asked for, so a run without double Fischer random starts draws the
    // same numbers as before they existed.
    let dfrc = config.dfrc_percent > 0 && rng.gen_range(0..100) < config.dfrc_percent;
    searcher.clear();
    loop {
        let (start, (low, high)) = if dfrc {
            (dfrc_start(rng), RANDOM_PLIES)
        } else if openings.is_empty() {
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
    play_out(
        std::slice::from_mut(searcher),
        config.nodes,
        config.adjudication,
        game,
        searched,
    )
}

/// The searcher playing `side`: `players` is one searcher for both sides (datagen, whose
/// table and histories carry over between the sides' moves) or White's then Black's (spsa).
fn player(players: &mut [Searcher], side: Color) -> &mut Searcher {
    let index = if players.len() == 1 { 0 } else { side.index() };
    &mut players[index]
}

/// Plays `game` on from `searched`, the side to move's search of its position, to its end
/// (the board's, a mate score's, or `adjudication`'s), and returns it whole: the moves
/// before it as the opening, then every searched position with the move played and its
/// score.
pub(crate) fn play_out(
    players: &mut [Searcher],
    nodes: u64,
    adjudication: Option<Adjudication>,
    mut game: Game,
    mut searched: Searched,
) -> GameRecord {
    let start = game.start().clone();
    // A start whose castling rights normal chess's FEN cannot give (a Chess960 start) is
    // recorded as Chess960, so the shard reads its FEN back in that mode.
    let chess960 = Position::from_fen(&start.to_fen()).ok().as_ref() != Some(&start);
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
        if let Some(result) = adjudication.and_then(|rules| rules.judge(&scores, game.ply())) {
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
        chess960,
        start_ply: 0,
        opening: opening_moves,
        scored,
        final_score: None,
        result,
        ending,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjudication_needs_agreement_over_several_plies() {
        // The legacy rules, as they were before they could be chosen: move 41 is ply 80.
        let adjudicate = |scores: &[i32], ply| Adjudication::LEGACY.judge(scores, ply);
        assert_eq!(adjudicate(&[1200, 1100, 1000], 60), None);
        assert_eq!(
            adjudicate(&[0, 1200, 1100, 1000, 1500], 60),
            Some(GameResult::WhiteWon)
        );
        assert_eq!(
            adjudicate(&[-1000, -1200, -1100, -1000], 60),
            Some(GameResult::BlackWon)
        );
        assert_eq!(adjudicate(&[1200, 999, 1100, 1000], 60), None);
        let level = [3, -2, 0, 5, -5, 1, 0, 0, 2, -1];
        assert_eq!(adjudicate(&level, 79), None, "only after move 40");
        assert_eq!(adjudicate(&level, 80), Some(GameResult::Draw));
        assert_eq!(adjudicate(&level[1..], 80), None, "ten plies");
        let mut not_level = level;
        not_level[4] = 6;
        assert_eq!(adjudicate(&not_level, 120), None);

        // The default: within 10 cp for 8 plies from ply 80.
        let rules = Adjudication::DEFAULT;
        let level = [10, -9, 0, 5, -10, 1, 0, 2];
        assert_eq!(rules.judge(&level, 79), None);
        assert_eq!(rules.judge(&level, 80), Some(GameResult::Draw));
        assert_eq!(rules.judge(&level[1..], 90), None, "eight plies");
        assert_eq!(rules.judge(&[-11, 0, 0, 0, 0, 0, 0, 0], 90), None);
        assert_eq!(
            rules.judge(&[5, -1000, -1001, -3000, -1000], 10),
            Some(GameResult::BlackWon)
        );
    }

    #[test]
    fn adjudication_rules_parse_and_describe_themselves() {
        assert_eq!(Adjudication::parse("off"), Ok(None));
        assert_eq!(
            Adjudication::parse("1000,4,10,8,80"),
            Ok(Some(Adjudication::DEFAULT))
        );
        assert_eq!(
            Adjudication::parse("1000,4,5,10,80"),
            Ok(Some(Adjudication::LEGACY))
        );
        for bad in [
            "",
            "on",
            "1000,4,10,8",
            "1000,4,10,8,80,1",
            "99,4,10,8,80",
            "1000,0,10,8,80",
            "1000,4,101,8,80",
            "1000,4,10,8,x",
            "-1,4,10,8,80",
        ] {
            assert!(Adjudication::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            Adjudication::describe(Some(Adjudication::DEFAULT)),
            "win: a mate score, or |score| >= 1000 cp for 4 plies in a row; \
             draw: |score| <= 10 cp for 8 plies in a row from ply 80"
        );
        assert!(Adjudication::describe(None).starts_with("off"));
        assert_eq!(Adjudication::DEFAULT.flag(), "1000,4,10,8,80");
    }

    #[test]
    fn the_960_back_ranks_are_all_different_and_518_is_normal_chess() {
        let ranks: std::collections::BTreeSet<[u8; 8]> = (0..960).map(chess960_back_rank).collect();
        assert_eq!(ranks.len(), 960);
        assert_eq!(&chess960_back_rank(518), b"RNBQKBNR");
        assert_eq!(&chess960_back_rank(0), b"BBQNNRKR");
        for rank in &ranks {
            let at = |piece: u8| rank.iter().position(|&p| p == piece).unwrap();
            let rooks: Vec<usize> = (0..8).filter(|&i| rank[i] == b'R').collect();
            assert!(rooks[0] < at(b'K') && at(b'K') < rooks[1], "{rank:?}");
            let bishops: Vec<usize> = (0..8).filter(|&i| rank[i] == b'B').collect();
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{rank:?}");
        }
        // Every pair of back ranks makes a legal start (both sides of a pair, so every rank
        // as White's and as Black's).
        for n in 0..960 {
            let white = String::from_utf8_lossy(&chess960_back_rank(n)).into_owned();
            let black = String::from_utf8_lossy(&chess960_back_rank(959 - n)).to_ascii_lowercase();
            let fen = format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1");
            let pos = Position::from_fen_in(&fen, CastlingMode::Chess960).unwrap();
            assert_eq!(pos.to_fen(), fen);
        }
    }

    #[test]
    fn double_fischer_random_starts_are_varied_and_castle_with_their_rooks() {
        let mut rng = StdRng::seed_from_u64(1);
        let mut different_sides = 0;
        for _ in 0..200 {
            let pos = dfrc_start(&mut rng);
            assert_ne!(pos, Position::startpos());
            let fen = pos.to_fen();
            let ranks: Vec<&str> = fen.split(['/', ' ']).collect();
            assert!(fen.ends_with(" w KQkq - 0 1"), "{fen}");
            if ranks[0].to_ascii_uppercase() != ranks[7] {
                different_sides += 1;
            }
            // The record reads it back only as Chess960 (or it is normal chess's rights).
            assert_eq!(
                Position::from_fen_in(&fen, CastlingMode::Chess960).unwrap(),
                pos
            );
            let mut list = MoveList::new();
            legal_moves(&pos, &mut list);
            assert!(list.len() >= 16, "{fen}");
        }
        assert!(different_sides >= 195, "{different_sides} of 200");
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
            dfrc_percent: 0,
            adjudication: Some(Adjudication::DEFAULT),
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
            Ending::AdjudicatedWin => assert!(i32::from(last.score).abs() >= 1000),
            _ => {}
        }
        let other = play_game(&mut searcher, &config, &[], 4);
        assert_ne!(first, other);
    }

    #[test]
    fn double_fischer_random_games_are_recorded_as_chess960_and_read_back() {
        let config = DatagenConfig {
            out: PathBuf::new(),
            threads: 1,
            hash_mb: 4,
            games: Some(1),
            nodes: 500,
            seed: 9,
            openings: None,
            evaluation: crate::nnue::Evaluation::Classical,
            dfrc_percent: 100,
            adjudication: Some(Adjudication::DEFAULT),
        };
        let mut searcher = Searcher::new(config.hash_mb, 1);
        for index in 0..3 {
            let record = play_game(&mut searcher, &config, &[], index);
            assert_ne!(record.start, Position::startpos());
            assert!(record.chess960);
            assert!((8..=9).contains(&record.opening.len()));
            let mut bytes = Vec::new();
            encode_game(&record, &mut bytes);
            let shard = crate::tools::corpus::format::read_shard_bytes(
                std::path::Path::new("dfrc"),
                &[
                    crate::tools::corpus::format::header_bytes(&metadata(&config)),
                    crate::tools::corpus::format::block_bytes(1, &bytes),
                ]
                .concat(),
            )
            .unwrap();
            assert_eq!(shard.games, vec![record]);
        }
    }
}
