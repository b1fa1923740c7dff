//! The searcher: iterative deepening at the root over a fail-soft PVS alpha-beta with
//! quiescence, a shared transposition table and Lazy SMP helpers. It reports through
//! `SearchObserver` and never prints; `worker` runs it on its own thread for the session.

pub mod alphabeta;
mod correction;
mod history;
mod limit;
pub mod ordering;
pub mod params;
mod picker;
pub mod score;
mod stack;
pub mod tt;
pub mod worker;

use crate::board::{Move, MoveList, Position, legal_moves};
use crate::tablebase::{Tablebases, Wdl};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub use limit::{SearchControl, SearchLimits, SearchStatus, TimeBudget, TimeLimit};
pub use params::SearchParams;
pub use score::{MATE, MATE_BOUND, mate_moves};
pub use tt::TranspositionTable;

use alphabeta::{CompletedIteration, ThreadSearch};
use ordering::OrderingTables;

/// The most threads a search runs (the main thread and its Lazy SMP helpers); the engine's
/// bounds on users' numbers take it from here.
pub const MAX_THREADS: u64 = 256;

/// Internal iterative deepening flavour in nodes without a hash move. Classic and
/// self-deepening follow H.G.
/// Muller's micro-Max articles: "Search: Iterative Deepening"
/// (https://home.hccnet.nl/h.g.muller/deepen.html) and "Micro-Max 4: Self Deepening"
/// (https://home.hccnet.nl/h.g.muller/self.html).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IidMode {
    Off,
    /// Search the node shallower first to find a move to try first (micro-Max 3.2).
    Classic,
    /// Self-deepening IID (micro-Max 4.5): iterate the node's depth; a move that fails high
    /// at a shallow iteration deepens itself to full depth at once.
    SelfDeepening,
    /// Internal iterative reduction: no search first; a node with no move to try first is
    /// searched a ply shallower, since its ordering is poor and a later visit will have the
    /// table's move (the reduction of modern engines, kept as a fourth choice).
    Reduction,
}

/// How the alpha-beta and quiescence nodes below the root are run. Both drivers run the same
/// node steps (`alphabeta::node`) and search the same tree, node for node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchDriver {
    /// A child search is a function call.
    Recursive,
    /// One loop over an explicit stack of nodes, each with the point to resume it at.
    Iterative,
}

/// A switch per technique, so each can be measured by a match (`option` and CLI flags).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchFeatures {
    pub null_move: bool,
    pub late_move_reductions: bool,
    pub reverse_futility: bool,
    pub futility: bool,
    pub late_move_pruning: bool,
    pub recapture_extension: bool,
    pub aspiration: bool,
    pub see_pruning: bool,
    /// Skip late quiet moves with poor continuation history near the leaves.
    pub history_pruning: bool,
    /// Skip captures near the leaves that cannot reach alpha even with their victim and a
    /// margin on top of the static eval.
    pub capture_futility: bool,
    /// Singular extensions of the TT move, with multi-cut and the negative extension.
    pub singular_extensions: bool,
    /// A singular move far below the singular bound gets two plies (capped per line).
    pub double_extensions: bool,
    /// Near the leaves, a node far below alpha asks quiescence and fails low if it agrees.
    pub razoring: bool,
    /// Futility, history and SEE pruning judge a quiet move at the depth its late-move
    /// reduction would leave it, not at the node's.
    pub reduced_depth_pruning: bool,
    /// A reduced move's full-depth re-searches go a ply deeper when it beat the best score
    /// by far, a ply shallower when only just.
    pub research_depth: bool,
    /// Correct the static eval by what searches found of the same pawn structure, the same
    /// non-pawn pieces of each side and the same last two moves.
    pub correction_history: bool,
    pub probcut: bool,
    /// An aspiration re-search after the root failed high goes a ply shallower per fail
    /// high in a row (at least one ply).
    pub fail_high_reduction: bool,
    /// Pruning reads the table's score instead of the static eval where its bound allows.
    pub tt_eval: bool,
    /// Positions once on the principal variation (the table remembers) are reduced a ply
    /// less, as PV nodes are.
    pub tt_pv: bool,
    /// Quiet moves ordered by what they do about the opponent's threats (leaving a cheaper
    /// attacker's reach, stepping into it), and the butterfly history kept apart by whether
    /// a move's origin and target are attacked.
    pub threat_ordering: bool,
    /// Quiet moves also ordered, reduced and rewarded by the continuation history of the
    /// side's own move before last (four plies back), beside one and two plies back.
    pub fourth_ply_continuation: bool,
    /// A late move reduced a ply more once more than three of the node's children have
    /// failed high (the node looks like an all node), as Stockfish's `cutoffCnt` does.
    pub cutoff_count: bool,
    /// Time per move by best-move stability, score drops and the best move's node share.
    pub adaptive_time: bool,
    pub iid: IidMode,
    pub evaluation: crate::nnue::Evaluation,
    pub driver: SearchDriver,
    /// The margins, reductions and factors the techniques use (`params.rs`).
    pub params: SearchParams,
    /// The Syzygy tables and when to probe them (none: the search never probes).
    pub syzygy: SyzygyConfig,
}

/// The Syzygy options as the search reads them.
#[derive(Clone, Debug)]
pub struct SyzygyConfig {
    /// Loaded once per `SyzygyPath`, shared by every search thread (each search's threads
    /// take their own count, so probes pay no atomic); dropped, with its mapped files, once
    /// the options and the searches have moved on to another path.
    pub tables: Option<Arc<Tablebases>>,
    /// Positions with exactly `probe_limit` pieces are probed only this deep or deeper.
    pub probe_depth: i32,
    /// The most pieces probed (below the tables' own maximum).
    pub probe_limit: u32,
    /// Cursed wins and blessed losses are draws (`Syzygy50MoveRule`).
    pub rule50: bool,
}

impl Default for SyzygyConfig {
    fn default() -> Self {
        SyzygyConfig {
            tables: None,
            probe_depth: 1,
            probe_limit: 7,
            rule50: true,
        }
    }
}

/// The same tables (by address) and the same settings.
impl PartialEq for SyzygyConfig {
    fn eq(&self, other: &Self) -> bool {
        let same_tables = match (&self.tables, &other.tables) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        same_tables
            && (self.probe_depth, self.probe_limit, self.rule50)
                == (other.probe_depth, other.probe_limit, other.rule50)
    }
}

impl Eq for SyzygyConfig {}

impl Default for SearchFeatures {
    fn default() -> Self {
        SearchFeatures {
            null_move: true,
            late_move_reductions: true,
            reverse_futility: true,
            futility: true,
            late_move_pruning: true,
            recapture_extension: true,
            aspiration: true,
            see_pruning: true,
            // On: each of these four passed an SPRT against the build without it, in this
            // order, each on top of the ones before and of the histories (docs/search.md).
            singular_extensions: true,
            probcut: true,
            tt_eval: true,
            razoring: true,
            // On together: each was undecided alone (+6 to +9), the four as one change passed
            // an SPRT against none of them (docs/search.md).
            double_extensions: true,
            reduced_depth_pruning: true,
            research_depth: true,
            iid: IidMode::Reduction,
            // Off: undecided in self-play or not yet played; `adaptive_time` is on, ahead in
            // self-play though its SPRT was stopped undecided (docs/search.md).
            history_pruning: false,
            capture_futility: false,
            fail_high_reduction: false,
            correction_history: false,
            tt_pv: false,
            threat_ordering: false,
            fourth_ply_continuation: false,
            cutoff_count: true,
            adaptive_time: true,
            // The network: it passed its SPRT against the hand-written evaluation
            // (docs/network.md); the classical evaluation stays for tuning.
            evaluation: crate::nnue::Evaluation::Nnue(crate::nnue::Network::embedded()),
            driver: SearchDriver::Recursive,
            params: SearchParams::default(),
            syzygy: SyzygyConfig::default(),
        }
    }
}

/// What a reported score is: exact, or only a bound from a window that failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    Exact,
    /// The true score is at least this (a fail high).
    Lower,
    /// The true score is at most this (a fail low).
    Upper,
}

/// One finished line of an iteration (or a new best move at the root), for thinking output.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub depth: u32,
    pub selective_depth: u32,
    /// Which line: 1 is the best move, 2 the best of the others, ... (Multi-PV).
    pub multipv: usize,
    /// From the side to move at the root, in centipawns or as a mate score.
    pub score: i32,
    pub bound: ScoreBound,
    pub elapsed: Duration,
    pub nodes: u64,
    /// Permille of the table's sampled entries written by this search.
    pub hashfull: u32,
    /// Syzygy probes that answered (UCI `tbhits`).
    pub tbhits: u64,
    pub pv: Vec<Move>,
}

/// The root move whose search is starting (told once the search is past its first second).
#[derive(Clone, Copy, Debug)]
pub struct RootMoveInfo {
    pub depth: u32,
    pub mv: Move,
    /// 1 for the first move searched in this iteration.
    pub number: usize,
    pub elapsed: Duration,
    pub nodes: u64,
}

#[derive(Clone, Debug)]
pub struct SearchOutcome {
    /// `Move::NULL` only when the root has no legal move.
    pub best_move: Move,
    pub ponder_move: Option<Move>,
    /// The best move's score, or `-INFINITY` when the search was stopped before it scored
    /// any root move: read it through `real_score` wherever a decision depends on it.
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    /// Syzygy probes that answered, the root's included.
    pub tbhits: u64,
    pub elapsed: Duration,
    /// Permille of the table's sampled entries written by this search, at its end.
    pub hashfull: u32,
    /// The last completed iteration's Multi-PV lines, best first: (first move, score). The
    /// engine core chooses among them for `random` and Skill Level.
    pub lines: Vec<(Move, i32)>,
}

impl SearchOutcome {
    /// The score, if the search scored a root move. A search stopped inside the first root
    /// move of its first iteration (a stop or node limit that came at once) has none; its
    /// best move is only the first legal one in move order.
    pub fn real_score(&self) -> Option<i32> {
        (self.score > -score::INFINITY).then_some(self.score)
    }
}

pub trait SearchObserver {
    /// Lines that changed, in number order: the first `fresh` are new findings, the rest
    /// earlier lines told again under the Multi-PV numbers they moved to (a table kept by
    /// number then never shows one move twice). Written out together, as one report.
    fn on_lines(&mut self, lines: &[SearchInfo], fresh: usize);
    /// For UCI's `currmove`; ignored unless an observer wants it.
    fn on_root_move(&mut self, _info: &RootMoveInfo) {}
}

/// Observer that ignores everything (bench, tests).
pub struct Silent;

impl SearchObserver for Silent {
    fn on_lines(&mut self, _: &[SearchInfo], _: usize) {}
}

/// Owns the transposition table, each thread's history tables and the search settings
/// across moves of a game.
pub struct Searcher {
    tt: Arc<TranspositionTable>,
    threads: usize,
    /// One per thread; kept from move to move until the game ends.
    tables: Vec<OrderingTables>,
    pub features: SearchFeatures,
}

impl Searcher {
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        Searcher {
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            threads: threads.max(1),
            tables: Vec::new(),
            features: SearchFeatures::default(),
        }
    }

    /// Reallocates the table (old contents are dropped first, so memory never doubles).
    pub fn set_hash_mb(&mut self, megabytes: usize) {
        self.tt = Arc::new(TranspositionTable::new(1));
        self.tt = Arc::new(TranspositionTable::new(megabytes));
    }

    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, MAX_THREADS as usize);
    }

    /// Empties the transposition table and the history tables (a new game).
    pub fn clear(&mut self) {
        self.tables.clear();
        if let Some(tt) = Arc::get_mut(&mut self.tt) {
            tt.clear();
        } else {
            let mb = self.tt.size_mb();
            self.tt = Arc::new(TranspositionTable::new(mb));
        }
    }

    /// Searches `root` (whose game history, oldest first and excluding `root`, is `history`)
    /// under `control`'s limits until one of them or a stop ends it. Always returns a legal
    /// move if one exists.
    pub fn search(
        &mut self,
        root: &Position,
        history: &[u64],
        control: &SearchControl,
        observer: &mut dyn SearchObserver,
    ) -> SearchOutcome {
        let start = Instant::now();
        let limits = control.limits();
        if let Some(tt) = Arc::get_mut(&mut self.tt) {
            tt.new_search();
        }
        let mut root_moves = MoveList::new();
        legal_moves(root, &mut root_moves);
        let mut allowed = MoveList::new();
        for &m in &root_moves {
            if !limits.excluded.contains(&m) && (limits.only.is_empty() || limits.only.contains(&m))
            {
                allowed.push(m);
            }
        }
        if allowed.is_empty() {
            allowed = root_moves.clone();
        }
        if allowed.is_empty() {
            return SearchOutcome {
                best_move: Move::NULL,
                ponder_move: None,
                score: if root.in_check() { -MATE } else { 0 },
                depth: 0,
                nodes: 0,
                tbhits: 0,
                elapsed: start.elapsed(),
                hashfull: 0,
                lines: Vec::new(),
            };
        }

        let root_tb = self.rank_root_by_tablebases(root, &mut allowed);

        self.tables.resize_with(self.threads, OrderingTables::new);
        self.tables.truncate(self.threads);
        let (main_tables, helper_tables) = self.tables.split_at_mut(1);
        let helpers = self.threads - 1;
        let helper_stop = Arc::new(AtomicBool::new(false));
        let shared_nodes = Arc::new(AtomicU64::new(0));
        let shared_tbhits = Arc::new(AtomicU64::new(root_tb.map_or(0, |tb| tb.probes)));
        std::thread::scope(|scope| {
            let mut helper_threads = Vec::with_capacity(helpers);
            for (id, tables) in (1..=helpers).zip(helper_tables.iter_mut()) {
                let tt = Arc::clone(&self.tt);
                let root = root.clone();
                let allowed = allowed.clone();
                let helper_stop = Arc::clone(&helper_stop);
                let shared_nodes = Arc::clone(&shared_nodes);
                let shared_tbhits = Arc::clone(&shared_tbhits);
                let features = self.features.clone();
                let history = history.to_vec();
                let spawned = std::thread::Builder::new()
                    .stack_size(8 << 20)
                    .spawn_scoped(scope, move || {
                        let mut thread = ThreadSearch::new(
                            &tt,
                            &root,
                            &history,
                            features,
                            id,
                            &helper_stop,
                            &shared_nodes,
                            &shared_tbhits,
                            tables,
                        );
                        thread.run_helper(&allowed, control)
                    });
                match spawned {
                    Ok(handle) => helper_threads.push(handle),
                    // The search goes on with the threads it has.
                    Err(e) => log::warn!("search helper thread {id} not started: {e}"),
                }
            }
            let mut main = ThreadSearch::new(
                &self.tt,
                root,
                history,
                self.features.clone(),
                0,
                &helper_stop,
                &shared_nodes,
                &shared_tbhits,
                &mut main_tables[0],
            );
            main.set_root_tablebase_score(root_tb.and_then(|tb| tb.score));
            let mut outcome = main.run_main(&allowed, control, observer, start);
            helper_stop.store(true, Ordering::Relaxed);
            let completed: Vec<CompletedIteration> = helper_threads
                .into_iter()
                .filter_map(|handle| handle.join().ok().flatten())
                .collect();
            if limits.multipv <= 1
                && let Some(helper) = deeper_and_better(&outcome, &completed)
            {
                log::debug!(
                    "a helper's depth {} ({}) over the main thread's depth {} ({} {})",
                    helper.depth,
                    helper.score,
                    outcome.depth,
                    outcome.best_move,
                    outcome.score
                );
                outcome.best_move = helper.pv[0];
                outcome.ponder_move = helper.pv.get(1).copied();
                outcome.score = helper.score;
                outcome.depth = helper.depth;
                outcome.lines = vec![(helper.pv[0], helper.score)];
                outcome.nodes = shared_nodes.load(Ordering::Relaxed);
                outcome.tbhits = shared_tbhits.load(Ordering::Relaxed);
                // The last line shown starts with the move played.
                let line = SearchInfo {
                    depth: helper.depth,
                    selective_depth: helper.selective_depth,
                    multipv: 1,
                    score: helper.score,
                    bound: ScoreBound::Exact,
                    elapsed: start.elapsed(),
                    nodes: outcome.nodes,
                    hashfull: self.tt.hashfull() as u32,
                    tbhits: outcome.tbhits,
                    pv: helper.pv.clone(),
                };
                observer.on_lines(std::slice::from_ref(&line), 1);
            }
            outcome
        })
    }
}

/// What the tables said of the root before the search.
#[derive(Clone, Copy)]
struct RootTablebase {
    /// The probes the ranking made (they count as `tbhits`).
    probes: u64,
    /// The score to show while the search's own is not decisive: the tables' win, draw
    /// or loss (none for a cursed win or blessed loss, which the search scores itself).
    score: Option<i32>,
}

impl Searcher {
    /// At a root the tables cover, keeps of `allowed` only the moves that hold the tables'
    /// best result (by DTZ, counting the 50-move rule; by WDL without DTZ tables), so a won
    /// ending is converted in time and a drawn one is not lost.
    fn rank_root_by_tablebases(
        &self,
        root: &Position,
        allowed: &mut MoveList,
    ) -> Option<RootTablebase> {
        let syzygy = &self.features.syzygy;
        let tables = syzygy.tables.as_deref()?;
        if root.occupied().count() > syzygy.probe_limit.min(tables.max_pieces()) {
            return None;
        }
        let ranking = tables.rank_root_moves(root, syzygy.rule50)?;
        let rank_of = |m: Move| {
            ranking
                .ranks
                .iter()
                .find(|&&(r, _)| r == m)
                .map(|&(_, k)| k)
        };
        let best = allowed.iter().filter_map(|&m| rank_of(m)).max()?;
        let mut kept = MoveList::new();
        for &m in allowed.iter() {
            if rank_of(m) == Some(best) {
                kept.push(m);
            }
        }
        log::debug!(
            "tablebases at the root ({}): {:?}, {} of {} moves kept",
            if ranking.by_dtz { "DTZ" } else { "WDL" },
            ranking.wdl,
            kept.len(),
            allowed.len()
        );
        *allowed = kept;
        let score = match ranking.wdl {
            Wdl::Win => Some(score::TB_WIN_BOUND),
            Wdl::Loss => Some(-score::TB_WIN_BOUND),
            Wdl::Draw => Some(score::DRAW),
            Wdl::CursedWin | Wdl::BlessedLoss => None,
        };
        Some(RootTablebase {
            probes: ranking.ranks.len() as u64,
            score,
        })
    }
}

/// The helper iteration to play from instead of the main thread's: one that went deeper
/// and scored higher with another move (Stockfish 10's rule; the deepest, then the best,
/// of several). The main thread's own answer stands when it has no score.
fn deeper_and_better<'c>(
    main: &SearchOutcome,
    completed: &'c [CompletedIteration],
) -> Option<&'c CompletedIteration> {
    let main_score = main.real_score()?;
    completed
        .iter()
        .filter(|helper| {
            helper.depth > main.depth
                && helper.score > main_score
                && helper.pv.first().is_some_and(|&m| m != main.best_move)
        })
        .max_by_key(|helper| (helper.depth, helper.score))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Eight queens a side facing each other, each king behind its pawns so that no quick
    /// mate cuts the captures short: the first root move's quiescence search alone takes
    /// far more nodes than the first stop check comes after, whatever the evaluation.
    const CAPTURE_STORM: &str = "7k/5ppp/qqqqqqqq/8/QQQQQQQQ/8/5PPP/7K w - - 0 1";

    #[test]
    fn a_search_stopped_inside_its_first_root_move_has_no_score() {
        let pos = Position::from_fen(CAPTURE_STORM).unwrap();
        let mut searcher = Searcher::new(1, 1);
        let control = SearchControl::new(SearchLimits::default(), &SearchParams::DEFAULT);
        control.stop();
        let outcome = searcher.search(&pos, &[], &control, &mut Silent);
        assert_eq!(outcome.real_score(), None, "score {}", outcome.score);
        assert!(crate::board::is_legal(&pos, outcome.best_move));
        assert_eq!(outcome.depth, 0);
    }

    #[test]
    fn a_helper_move_is_played_only_when_deeper_and_better() {
        let pos = Position::startpos();
        let mv = |text: &str| crate::board::parse_move(&pos, text).unwrap();
        let main = SearchOutcome {
            best_move: mv("e2e4"),
            ponder_move: None,
            score: 30,
            depth: 10,
            nodes: 0,
            tbhits: 0,
            elapsed: Duration::ZERO,
            hashfull: 0,
            lines: Vec::new(),
        };
        let helper = |depth, score, first: &str| CompletedIteration {
            depth,
            score,
            selective_depth: 0,
            pv: vec![mv(first)],
        };
        let pick = |helpers: &[CompletedIteration]| {
            deeper_and_better(&main, helpers).map(|h| (h.depth, h.score))
        };
        assert_eq!(pick(&[helper(11, 40, "d2d4")]), Some((11, 40)));
        assert_eq!(pick(&[helper(10, 40, "d2d4")]), None, "not deeper");
        assert_eq!(pick(&[helper(11, 30, "d2d4")]), None, "not better");
        assert_eq!(pick(&[helper(12, 50, "e2e4")]), None, "the same move");
        let several = [
            helper(11, 90, "d2d4"),
            helper(12, 35, "c2c4"),
            helper(9, 99, "g1f3"),
        ];
        assert_eq!(pick(&several), Some((12, 35)), "the deepest first");
        let unscored = SearchOutcome {
            score: -score::INFINITY,
            ..main
        };
        assert!(deeper_and_better(&unscored, &several).is_none());
    }

    #[test]
    fn a_finished_iteration_has_a_real_score() {
        let pos = Position::startpos();
        let mut searcher = Searcher::new(1, 1);
        let limits = SearchLimits {
            depth: Some(1),
            ..SearchLimits::default()
        };
        let control = SearchControl::new(limits, &SearchParams::DEFAULT);
        let outcome = searcher.search(&pos, &[], &control, &mut Silent);
        assert_eq!(outcome.real_score(), Some(outcome.score));
        // A mated root has a real score too.
        let mated = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        let outcome = searcher.search(&mated, &[], &control, &mut Silent);
        assert_eq!(outcome.real_score(), Some(-MATE));
    }
}
