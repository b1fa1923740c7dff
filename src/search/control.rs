//! Where a search's stop rules live: `SearchLimits` states them once (depth, hard and soft
//! nodes, the time budget, mate, infinite, ponder), and `SearchControl`, shared with the
//! session, answers "stop now?" and "start another iteration?".

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::score::{MAX_PLY, mate_plies};
use super::time::TimeBudget;
use crate::board::Move;

/// The deepest iteration the search runs, whatever a limit asks.
const MAX_DEPTH: u32 = (MAX_PLY - 8) as u32;

/// What a search is asked to do: which root moves and lines, and every rule that may end it
/// besides a stop.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// `sd`: deepest iteration.
    pub depth: Option<u32>,
    /// Node budget (`nps` mode, bench): the search stops inside the tree once past it.
    pub nodes: Option<u64>,
    /// Soft node budget (data generation): no iteration starts past it, and one under way
    /// stops once its first root move has been searched.
    pub soft_nodes: Option<u64>,
    /// Clock budget; `None` means no time limit.
    pub time: Option<TimeBudget>,
    /// Analyze: never stop by itself (except a depth limit), wait for stop.
    pub infinite: bool,
    /// Ponder: no clock and no answer until a ponder hit (`SearchControl::ponder_hit`), which
    /// brings the budget, or a stop.
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

/// In words, for logs and `debug on`: e.g. `depth 5, 5000 nodes, time 850 ms (at most 2540
/// ms), 1 line`, or `no limit` when nothing but a stop ends the search.
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
        match self.time {
            Some(budget) if budget.soft_ms == u64::MAX => {
                parts.push(format!("time {} ms", budget.hard_ms));
            }
            Some(budget) => parts.push(format!(
                "time {} ms (at most {} ms)",
                budget.soft_ms, budget.hard_ms
            )),
            None => {}
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

/// One search's limits and what may change while it runs, shared by the session and the
/// search: the stop flag, pondering, the clock (restarted by a ponder hit), and live status
/// for `stat01`. Every stop rule is asked here.
pub struct SearchControl {
    limits: SearchLimits,
    stop: AtomicBool,
    pondering: AtomicBool,
    clock: Mutex<SearchClock>,
    pub(crate) nodes: AtomicU64,
    pub(crate) depth: AtomicU32,
    pub(crate) root_moves_left: AtomicUsize,
    pub(crate) root_moves_total: AtomicUsize,
    pub(crate) current_move: AtomicU32,
}

/// When the time budget started to run, and the budget a ponder hit brought (the limits'
/// own budget until one does).
struct SearchClock {
    started: Instant,
    ponder_hit_budget: Option<TimeBudget>,
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
    /// The control of a search under `limits`; its clock starts now.
    pub fn new(limits: SearchLimits) -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(limits.ponder),
            clock: Mutex::new(SearchClock {
                started: Instant::now(),
                ponder_hit_budget: None,
            }),
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

    /// The opponent played the expected move: the ponder search becomes a search on
    /// `budget` whose clock starts now.
    pub fn ponder_hit(&self, budget: TimeBudget) {
        if let Ok(mut clock) = self.clock.lock() {
            *clock = SearchClock {
                started: Instant::now(),
                ponder_hit_budget: Some(budget),
            };
        }
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// (time since the clock started, the budget it runs on).
    fn budget(&self) -> (Duration, Option<TimeBudget>) {
        match self.clock.lock() {
            Ok(clock) => (
                clock.started.elapsed(),
                clock.ponder_hit_budget.or(self.limits.time),
            ),
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
            || self.limits.nodes.is_some_and(|limit| nodes >= limit)
            || (first_root_move_done && self.past_soft_nodes(nodes))
        {
            return true;
        }
        !self.is_pondering()
            && matches!(self.budget(), (elapsed, Some(budget))
                if elapsed >= Duration::from_millis(budget.hard_ms))
    }

    /// Whether `nodes` is past the soft node limit.
    pub(crate) fn past_soft_nodes(&self, nodes: u64) -> bool {
        self.limits.soft_nodes.is_some_and(|limit| nodes >= limit)
    }

    /// The soft rules, asked after each iteration (`depth` just finished with `score`, after
    /// `nodes`, with `root_moves` to choose from): no new iteration past the soft node limit,
    /// after a mate as short as `go mate` asks or a proven mate searched deep enough, with a
    /// single legal move from depth 4, or past `time_share` of the soft time target. An
    /// infinite search goes on regardless, and a ponder search on anything but a limit.
    pub(crate) fn should_start_iteration(
        &self,
        depth: u32,
        score: i32,
        nodes: u64,
        root_moves: usize,
        time_share: f64,
    ) -> bool {
        if self.limits.infinite {
            return true;
        }
        if self.past_soft_nodes(nodes) {
            return false;
        }
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
        if root_moves == 1 && depth >= 4 {
            return false;
        }
        // The next iteration costs more than all before it: start it only when it is
        // likely to finish before the share of the soft target.
        match self.budget() {
            (elapsed, Some(budget)) => {
                elapsed < Duration::from_millis((budget.soft_ms as f64 * time_share) as u64)
            }
            (_, None) => true,
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
mod tests {
    use super::*;
    use crate::search::MATE;

    fn control(limits: SearchLimits) -> SearchControl {
        SearchControl::new(limits)
    }

    /// A budget already spent: its clock has run out as soon as it starts.
    const SPENT: TimeBudget = TimeBudget {
        soft_ms: 0,
        hard_ms: 0,
    };

    #[test]
    fn the_hard_rules_stop_at_the_node_limit_the_soft_one_after_a_root_move_and_the_clock() {
        let nodes = control(SearchLimits {
            nodes: Some(1000),
            ..SearchLimits::default()
        });
        assert!(!nodes.should_stop(999, true));
        assert!(nodes.should_stop(1000, false));

        let soft = control(SearchLimits {
            soft_nodes: Some(1000),
            ..SearchLimits::default()
        });
        assert!(
            !soft.should_stop(5000, false),
            "the first root move goes on"
        );
        assert!(soft.should_stop(1000, true));
        assert!(!soft.should_stop(999, true));

        let timed = control(SearchLimits {
            time: Some(SPENT),
            ..SearchLimits::default()
        });
        assert!(timed.should_stop(0, false));

        let free = control(SearchLimits::default());
        assert!(!free.should_stop(u64::MAX, true));
        free.stop();
        assert!(free.should_stop(0, false));
    }

    #[test]
    fn a_ponder_search_runs_on_no_clock_until_the_hit_brings_one() {
        let ponder = control(SearchLimits {
            time: Some(SPENT),
            ponder: true,
            ..SearchLimits::default()
        });
        assert!(!ponder.should_stop(0, true));
        assert!(ponder.should_start_iteration(10, 0, 0, 1, 1.0));
        assert!(ponder.holds_answer());
        let generous = TimeBudget {
            soft_ms: 60_000,
            hard_ms: 60_000,
        };
        ponder.ponder_hit(generous);
        assert!(!ponder.is_pondering() && !ponder.holds_answer());
        assert!(
            !ponder.should_stop(0, true),
            "the hit's budget, not the limits'"
        );
        ponder.ponder_hit(SPENT);
        assert!(ponder.should_stop(0, true));
    }

    #[test]
    fn the_soft_rules_decide_whether_another_iteration_starts() {
        let free = control(SearchLimits::default());
        assert!(free.should_start_iteration(10, 0, 0, 20, 1.0));
        assert!(!free.holds_answer());
        assert!(free.should_start_iteration(3, 0, 0, 1, 1.0));
        assert!(
            !free.should_start_iteration(4, 0, 0, 1, 1.0),
            "a single legal move"
        );
        // Mate in 2 (3 plies) is proven once the depth is about three times as long.
        assert!(free.should_start_iteration(7, MATE - 3, 0, 20, 1.0));
        assert!(!free.should_start_iteration(8, MATE - 3, 0, 20, 1.0));

        let mate = control(SearchLimits {
            mate: Some(2),
            ..SearchLimits::default()
        });
        assert!(!mate.should_start_iteration(3, MATE - 3, 0, 20, 1.0));
        assert!(mate.should_start_iteration(3, MATE - 5, 0, 20, 1.0));

        let soft = control(SearchLimits {
            soft_nodes: Some(1000),
            ..SearchLimits::default()
        });
        assert!(soft.should_start_iteration(3, 0, 999, 20, 1.0));
        assert!(!soft.should_start_iteration(3, 0, 1000, 20, 1.0));

        let timed = control(SearchLimits {
            time: Some(TimeBudget {
                soft_ms: 60_000,
                hard_ms: 60_000,
            }),
            ..SearchLimits::default()
        });
        assert!(timed.should_start_iteration(3, 0, 0, 20, 0.5));
        assert!(!timed.should_start_iteration(3, 0, 0, 20, 0.0));

        let infinite = control(SearchLimits {
            infinite: true,
            time: Some(SPENT),
            soft_nodes: Some(0),
            ..SearchLimits::default()
        });
        assert!(infinite.should_start_iteration(30, MATE - 1, 1000, 1, 0.0));
        assert!(infinite.holds_answer());
        infinite.stop();
        assert!(!infinite.holds_answer());
    }

    #[test]
    fn the_depth_limit_stays_within_the_search_stack() {
        assert_eq!(control(SearchLimits::default()).max_depth(), MAX_DEPTH);
        let deep = control(SearchLimits {
            depth: Some(1000),
            ..SearchLimits::default()
        });
        assert_eq!(deep.max_depth(), MAX_DEPTH);
        let none = control(SearchLimits {
            depth: Some(0),
            ..SearchLimits::default()
        });
        assert_eq!(none.max_depth(), 1);
    }
}
