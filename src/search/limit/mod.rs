//! The clock's one home and every stop rule of a search: `TimeLimit` is what a protocol says
//! about time, `TimeLimit::budget` turns it into a move's soft and hard limit, and
//! `SearchControl`, shared with the session, answers "stop now?" and "another iteration?".

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::params::SearchParams;
use super::score::{INFINITY, MAX_PLY, is_mate_score, mate_plies};
use crate::board::Move;

/// The deepest iteration the search runs, whatever a limit asks.
const MAX_DEPTH: u32 = (MAX_PLY - 8) as u32;

/// The least the engine will think, so a near-empty clock still yields a legal move.
const MIN_THINK_MS: u64 = 5;

/// The time a protocol gives one move, in its own terms; `budget` is the one place that
/// turns it into limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeLimit {
    /// A clock to share over the moves to come (XBoard `level` and `time`, UCI `wtime`,
    /// `winc`, `movestogo`): what remains (negative after a flag fall), the increment each
    /// move brings back, and the moves until the clock is filled again (`None`: sudden death).
    Clock {
        remaining_ms: i64,
        increment_ms: u64,
        moves_to_go: Option<u32>,
    },
    /// XBoard `st` and UCI `movetime`: this per move, used whole. Nothing is carried over to
    /// the next move, so no iteration is left unstarted to save time (stopping at a share of
    /// `st` used half of it on average).
    MoveTime { ms: u64 },
    /// A budget stated outright, with nothing kept back (`ironwood epd`, tests).
    Budget(TimeBudget),
}

/// One move's limits, in milliseconds from the start of its search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Aim: no new iteration is started once it is unlikely to finish before this; `None`
    /// uses the time whole, up to the hard limit.
    pub soft_ms: Option<u64>,
    /// Never think past this.
    pub hard_ms: u64,
}

impl TimeLimit {
    /// The budget net of `overhead_ms` (pipe and GUI lag charged to us), by the time factors
    /// of `params`. In sudden death it assumes `MovesToGo` moves to go: enough to keep a
    /// reserve, few enough to use the clock; the increment counts by `IncrementShare`.
    pub fn budget(self, overhead_ms: u64, params: &SearchParams) -> TimeBudget {
        match self {
            TimeLimit::MoveTime { ms } => TimeBudget {
                soft_ms: None,
                hard_ms: per_move_ms(ms, overhead_ms),
            },
            TimeLimit::Budget(budget) => budget,
            TimeLimit::Clock {
                remaining_ms,
                increment_ms,
                moves_to_go,
            } => {
                let remaining = remaining_ms.max(0) as u64;
                let moves_to_go = moves_to_go.map_or(params.moves_to_go as u64, u64::from);
                // Keep the overhead for every move still to come in this session (capped),
                // so many fast moves cannot drain the clock through lag alone.
                let reserve = overhead_ms * moves_to_go.min(10) + overhead_ms;
                let usable = remaining.saturating_sub(reserve);
                // The increment is sure to come back, so the target may count on more than
                // it (`IncrementShare`): the clock then settles near the hard cap's floor
                // late in a game instead of keeping seconds it never spends.
                let increment = increment_ms * params.increment_share.max(0) as u64 / 100;
                let mut soft = usable / moves_to_go + increment;
                // Hard limit: a few targets, but never a large share of what is left.
                let share = if moves_to_go == 1 { 0.75 } else { 0.35 };
                let cap = (usable as f64 * share) as u64;
                let hard = (soft * params.hard_limit_factor as u64)
                    .min(cap)
                    .max(MIN_THINK_MS);
                soft = soft.min(hard).max(MIN_THINK_MS.min(hard));
                TimeBudget {
                    soft_ms: Some(soft),
                    hard_ms: hard,
                }
            }
        }
    }
}

/// A fixed time per move net of the overhead and of 2 % more: it is a hard maximum, and the
/// stop has its own latency (a 1 s move measured 975 ms at the GUI in matches without it).
fn per_move_ms(ms: u64, overhead_ms: u64) -> u64 {
    ms.saturating_sub(overhead_ms + ms / 50).max(MIN_THINK_MS)
}

/// In words, for `SearchLimits`' own: e.g. `clock 60000 ms + 1000 ms a move, 12 moves to go`.
impl std::fmt::Display for TimeLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            TimeLimit::Clock {
                remaining_ms,
                increment_ms,
                moves_to_go,
            } => {
                write!(f, "clock {remaining_ms} ms + {increment_ms} ms a move")?;
                match moves_to_go {
                    Some(moves) => write!(f, ", {moves} moves to go"),
                    None => write!(f, ", sudden death"),
                }
            }
            TimeLimit::MoveTime { ms } => write!(f, "time {ms} ms a move, used whole"),
            TimeLimit::Budget(TimeBudget { soft_ms, hard_ms }) => match soft_ms {
                Some(soft) => write!(f, "time {soft} ms (at most {hard_ms} ms)"),
                None => write!(f, "time {hard_ms} ms"),
            },
        }
    }
}

/// What a search is asked to do: which root moves and lines, and every rule that may end it
/// besides a stop.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// `sd`: deepest iteration.
    pub depth: Option<u32>,
    /// Node budget (`go nodes`, bench): the search stops inside the tree once past it.
    pub nodes: Option<u64>,
    /// Soft node budget (data generation): no iteration starts past it, and one under way
    /// stops once its first root move has been searched.
    pub soft_nodes: Option<u64>,
    /// The time this move may take; `None` means no time limit.
    pub time: Option<TimeLimit>,
    /// Kept back from `time` for pipe and GUI lag (`Move Overhead`).
    pub move_overhead_ms: u64,
    /// XBoard `nps N`: the time budget is spent in nodes at N a second (a node limit)
    /// instead of on the wall clock.
    pub nps: Option<u64>,
    /// Analyze: never stop by itself (except a depth limit), wait for stop.
    pub infinite: bool,
    /// Ponder: no clock and no answer until a ponder hit (`SearchControl::ponder_hit`), which
    /// starts the clock, or a stop.
    pub ponder: bool,
    /// Root moves not to search (`exclude`); empty means all.
    pub excluded: Vec<Move>,
    /// Root moves to search, the rest excluded (UCI `searchmoves`); empty means all.
    pub only: Vec<Move>,
    /// Stop once a mate in at most this many moves is found (UCI `go mate`).
    pub mate: Option<u32>,
    /// Lines to search and report each iteration (Multi-PV); 0 and 1 both mean one.
    pub multipv: usize,
}

/// In words, for logs and `debug on`: e.g. `depth 5, 5000 nodes, clock 60000 ms + 1000 ms a
/// move, sudden death, 1 line`, or `no limit` when nothing but a stop ends the search.
impl std::fmt::Display for SearchLimits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        if let Some(depth) = self.depth {
            parts.push(format!("depth {depth}"));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("{nodes} nodes"));
        }
        if let Some(nodes) = self.soft_nodes {
            parts.push(format!("{nodes} nodes before a new iteration"));
        }
        if let Some(time) = self.time {
            parts.push(time.to_string());
            if let Some(nps) = self.nps {
                parts.push(format!("counted at {nps} nodes a second"));
            }
        }
        if let Some(moves) = self.mate {
            parts.push(format!("until a mate in {moves}"));
        }
        let moves = |list: &[Move]| {
            list.iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        if !self.only.is_empty() {
            parts.push(format!("only {}", moves(&self.only)));
        }
        if !self.excluded.is_empty() {
            parts.push(format!("excluding {}", moves(&self.excluded)));
        }
        if parts.is_empty() && !self.infinite {
            parts.push("no limit".to_string());
        }
        if self.infinite {
            parts.push("answer only when stopped".to_string());
        }
        let lines = self.multipv.max(1);
        parts.push(format!("{lines} line{}", if lines == 1 { "" } else { "s" }));
        write!(f, "{}", parts.join(", "))
    }
}

/// What the main thread knows after an iteration, for the rules on starting another.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Iteration {
    /// The depth just finished, and its score.
    pub(crate) depth: u32,
    pub(crate) score: i32,
    /// The iteration before's score (`-INFINITY` when there was none).
    pub(crate) previous_score: i32,
    /// Nodes searched so far, by all threads.
    pub(crate) nodes: u64,
    /// Root moves to choose from.
    pub(crate) root_moves: usize,
    /// Iterations the best move has stood; 0: it has just changed.
    pub(crate) best_move_stability: u32,
    /// This iteration's root nodes: under the best move, and under all moves.
    pub(crate) best_move_nodes: u64,
    pub(crate) root_nodes: u64,
}

impl Iteration {
    /// The share of the soft target past which no new iteration starts. With `Adaptive Time`
    /// (`adaptive`): more while the best move keeps changing, when the score falls, and when
    /// the best move took a small share of the root's nodes; less when it has stood for
    /// several iterations and took most of them. At most the whole soft target: the hard
    /// limit stays the only limit inside the tree.
    fn time_share(&self, adaptive: bool, params: &SearchParams) -> f64 {
        if !adaptive {
            // An unstable best move earns more time.
            return if self.best_move_stability == 0 && self.depth > 4 {
                0.8
            } else {
                0.5
            };
        }
        if self.depth < 5 {
            return 0.5;
        }
        const STABILITY: [f64; 5] = [1.6, 1.25, 1.0, 0.9, 0.8];
        let stability = STABILITY[(self.best_move_stability as usize).min(STABILITY.len() - 1)];
        let drop = if self.previous_score > -INFINITY && !is_mate_score(self.previous_score) {
            (self.previous_score - self.score).clamp(0, params.score_drop_cap)
        } else {
            0
        };
        let falling = 1.0 + f64::from(drop) / f64::from(params.score_drop_divisor);
        let best_fraction = if self.root_nodes > 0 {
            self.best_move_nodes as f64 / self.root_nodes as f64
        } else {
            0.5
        };
        let effort = (1.5 - best_fraction).clamp(0.6, 1.3);
        // TimeShareBase's 70 per cent: a typical middle-game move (stable for a couple of
        // iterations, about two thirds of the nodes) lands near the fixed share of 0.5 this
        // replaces; 0.5 as the base thought less and lost (docs/search.md, Adaptive Time).
        let base = f64::from(params.time_share_base) / 100.0;
        (base * stability * falling * effort).clamp(0.3, 1.0)
    }
}

/// One search's limits and what may change while it runs, shared by the session and the
/// search: the stop flag, pondering, the clock and its budget (restarted by a ponder hit),
/// and live status for `stat01`. Every stop rule is asked here.
pub struct SearchControl {
    limits: SearchLimits,
    /// The time factors, kept for a ponder hit's budget.
    params: SearchParams,
    /// The hard node limit: the limits', or less where `nps` turns the budget into nodes.
    node_limit: Option<u64>,
    stop: AtomicBool,
    pondering: AtomicBool,
    /// When the clock started, and the budget it runs on.
    clock: Mutex<(Instant, Option<TimeBudget>)>,
    pub(crate) nodes: AtomicU64,
    pub(crate) depth: AtomicU32,
    pub(crate) root_moves_left: AtomicUsize,
    pub(crate) root_moves_total: AtomicUsize,
    pub(crate) current_move: AtomicU32,
}

/// A snapshot for XBoard's `.` command.
#[derive(Clone, Debug)]
pub struct SearchStatus {
    pub elapsed: Duration,
    pub nodes: u64,
    pub depth: u32,
    pub moves_left: usize,
    pub total_moves: usize,
    pub current_move: Move,
}

impl SearchControl {
    /// The control of a search under `limits`, its budget by the time factors of `params`;
    /// its clock starts now.
    pub fn new(limits: SearchLimits, params: &SearchParams) -> SearchControl {
        let mut budget = limits
            .time
            .map(|time| time.budget(limits.move_overhead_ms, params));
        let mut node_limit = limits.nodes;
        if let (Some(nps), Some(time)) = (limits.nps, budget) {
            let nodes = u128::from(time.soft_ms.unwrap_or(time.hard_ms)) * u128::from(nps) / 1000;
            let nodes = u64::try_from(nodes.max(1)).unwrap_or(u64::MAX);
            node_limit = Some(node_limit.map_or(nodes, |limit| limit.min(nodes)));
            budget = None;
        }
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(limits.ponder),
            clock: Mutex::new((Instant::now(), budget)),
            params: *params,
            node_limit,
            limits,
            nodes: AtomicU64::new(0),
            depth: AtomicU32::new(0),
            root_moves_left: AtomicUsize::new(0),
            root_moves_total: AtomicUsize::new(0),
            current_move: AtomicU32::new(0),
        }
    }

    pub fn limits(&self) -> &SearchLimits {
        &self.limits
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the ponder search becomes a search whose clock
    /// starts now, on `time` (XBoard's clock as it stands now) or else the limits' own.
    pub fn ponder_hit(&self, time: Option<TimeLimit>) {
        let budget = time
            .or(self.limits.time)
            .map(|time| time.budget(self.limits.move_overhead_ms, &self.params));
        if let Ok(mut clock) = self.clock.lock() {
            *clock = (Instant::now(), budget);
        }
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// (time since the clock started, the budget it runs on).
    pub fn budget(&self) -> (Duration, Option<TimeBudget>) {
        match self.clock.lock() {
            Ok(clock) => (clock.0.elapsed(), clock.1),
            Err(_) => (Duration::ZERO, None),
        }
    }

    /// The deepest iteration to run.
    pub(crate) fn max_depth(&self) -> u32 {
        self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
    }

    /// The hard rules, polled as nodes are counted: a stop, the node limit, the soft node
    /// limit once the iteration's first root move is searched (`first_root_move_done`), the
    /// hard time limit (not while pondering).
    pub(crate) fn should_stop(&self, nodes: u64, first_root_move_done: bool) -> bool {
        if self.stopped()
            || self.node_limit.is_some_and(|limit| nodes >= limit)
            || (first_root_move_done && self.past_soft_nodes(nodes))
        {
            return true;
        }
        self.past_hard_time()
    }

    /// Whether the hard time limit is past (never while pondering). Helpers ask it too: on a
    /// machine with more threads than processors the main thread may wait long for its turn.
    pub(crate) fn past_hard_time(&self) -> bool {
        !self.is_pondering()
            && matches!(self.budget(), (elapsed, Some(budget))
                if elapsed >= Duration::from_millis(budget.hard_ms))
    }

    /// Whether `nodes` is past the soft node limit.
    pub(crate) fn past_soft_nodes(&self, nodes: u64) -> bool {
        self.limits.soft_nodes.is_some_and(|limit| nodes >= limit)
    }

    /// The soft rules, asked after each iteration: no new iteration past the soft node
    /// limit, after a mate as short as `go mate` asks or a proven mate searched deep enough,
    /// with a single legal move from depth 4, or past the iteration's share of the soft time
    /// target (`Iteration::time_share`, by the `adaptive` rule or not, with `params`' factors).
    /// An infinite search goes on regardless, and a ponder search on anything but a limit.
    pub(crate) fn should_start_iteration(
        &self,
        iteration: &Iteration,
        adaptive: bool,
        params: &SearchParams,
    ) -> bool {
        if self.limits.infinite {
            return true;
        }
        if self.past_soft_nodes(iteration.nodes) {
            return false;
        }
        let (depth, score) = (iteration.depth, iteration.score);
        // `go mate N`: done as soon as a mate that short is found.
        if let (Some(wanted), Some(plies)) = (self.limits.mate, mate_plies(score))
            && plies > 0
            && plies.unsigned_abs().div_ceil(2) <= wanted
        {
            return false;
        }
        // A proven mate (for either side) cannot become anything but a shorter mate by
        // searching deeper: stop, as micro-Max does by setting d=99. Reductions can hide a
        // shorter mate: a mate in 3 (5 plies) has shown first at depth 16 behind a mate in 4
        // proven at depth 8, so wait until the depth is about three times the mate's length.
        if let Some(plies) = mate_plies(score)
            && depth + 1 >= 3 * plies.unsigned_abs()
        {
            return false;
        }
        if self.is_pondering() {
            return true;
        }
        if iteration.root_moves == 1 && depth >= 4 {
            return false;
        }
        // The next iteration costs more than all before it: start it only when it is
        // likely to finish before the share of the soft target.
        match self.budget() {
            (
                elapsed,
                Some(TimeBudget {
                    soft_ms: Some(soft),
                    ..
                }),
            ) => {
                let share = iteration.time_share(adaptive, params);
                elapsed < Duration::from_millis((soft as f64 * share) as u64)
            }
            _ => true,
        }
    }

    /// Whether a search that has ended keeps its answer: an infinite or ponder search waits
    /// for a stop (or a ponder hit).
    pub(crate) fn holds_answer(&self) -> bool {
        (self.limits.infinite || self.is_pondering()) && !self.stopped()
    }

    pub fn status(&self, elapsed: Duration) -> SearchStatus {
        SearchStatus {
            elapsed,
            nodes: self.nodes.load(Ordering::Relaxed),
            depth: self.depth.load(Ordering::Relaxed),
            moves_left: self.root_moves_left.load(Ordering::Relaxed),
            total_moves: self.root_moves_total.load(Ordering::Relaxed),
            current_move: Move::from_raw(self.current_move.load(Ordering::Relaxed) as u16),
        }
    }
}

#[cfg(test)]
mod tests;
