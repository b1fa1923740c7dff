//! One search thread: the root deepening loop (main thread: reports, asking `SearchControl`'s
//! stop rules; helpers: Lazy SMP) over fail-soft principal-variation alpha-beta and
//! quiescence, whose nodes are numbered steps (`node`) run by a recursive or an iterative
//! driver (`driver`); every pruning and extension has a switch in `SearchFeatures`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

mod driver;
mod lines;
mod node;

use crate::board::{Move, MoveList, Position};

use super::history::ContinuationSlots;
use super::limit::Iteration;
use super::ordering::{OrderingTables, Threats, score_moves};
use super::score::{INFINITY, MAX_PLY, is_decisive};
use super::stack::SearchStack;
use super::tt::TranspositionTable;
use super::{
    RootMoveInfo, ScoreBound, SearchControl, SearchFeatures, SearchInfo, SearchObserver,
    SearchOutcome, Silent,
};
use driver::StackedNode;
use lines::{LineTable, LinesReport, found_line};
use node::{ChildKind, ChildSearch};

/// How often (in nodes) a thread asks the stop rules (`SearchControl::should_stop`).
const CHECK_INTERVAL: u64 = 2048;
/// New best moves found inside an iteration are shown once the search is this old.
const NEW_BEST_REPORT_AFTER: Duration = Duration::from_millis(50);
/// Root moves are announced (UCI `currmove`) once the search is this old.
const CURRENT_MOVE_REPORT_AFTER: Duration = Duration::from_secs(1);
/// A helper's last completed iteration: its depth, exact score and principal variation.
pub struct CompletedIteration {
    pub depth: u32,
    pub score: i32,
    pub selective_depth: u32,
    pub pv: Vec<Move>,
}

struct RootMove {
    mv: Move,
    score: i32,
    nodes: u64,
}

/// What `search_root` tells its caller as it goes.
enum RootEvent {
    /// The search of the `index`th move (0-based) of the slice starts.
    Searching { mv: Move, index: usize },
    /// A new best move with an exact or lower-bound score.
    NewBest { mv: Move, score: i32 },
}

pub struct ThreadSearch<'a> {
    tt: &'a TranspositionTable,
    root: Position,
    /// Keys of the game before the root, then of the current search path.
    keys: Vec<u64>,
    /// How many of `keys` are the game's, before the root.
    history_len: usize,
    features: SearchFeatures,
    id: usize,
    helper_stop: &'a AtomicBool,
    shared_nodes: &'a AtomicU64,
    shared_tbhits: &'a AtomicU64,
    /// The main thread's control, with the stop rules; helpers stop with `helper_stop`.
    control: Option<&'a SearchControl>,
    /// A helper's view of the same control, for its hard time limit only: a helper that
    /// finds it past stops every thread.
    helper_clock: Option<&'a SearchControl>,
    /// The current root search has finished its first move (the soft limit may stop it).
    root_first_move_done: bool,
    nodes: u64,
    unreported_nodes: u64,
    /// Syzygy probes not yet added to `shared_tbhits`.
    tbhits: u64,
    /// The tables' value of the root, shown while the search's own score is not decisive.
    root_tablebase_score: Option<i32>,
    selective_depth: usize,
    stopped: bool,
    tables: &'a mut OrderingTables,
    stack: SearchStack,
    lmr: [[u8; 64]; 64],
    /// Iterations in a row that ended with the same best move.
    best_move_stability: u32,
    /// Null-move verification: no null move for `null_verify_side` before this ply.
    null_verify_ply: usize,
    null_verify_side: Option<crate::board::Color>,
    /// The drivers' nodes, allocated at the first search below the root.
    node_stack: Vec<StackedNode>,
    /// The last line 1 the observer was told of (empty: none yet).
    reported_pv: Vec<Move>,
    /// The main thread's lines as the observer holds them.
    lines: LineTable,
}

impl<'a> ThreadSearch<'a> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        tt: &'a TranspositionTable,
        root: &Position,
        history: &[u64],
        features: SearchFeatures,
        id: usize,
        helper_stop: &'a AtomicBool,
        shared_nodes: &'a AtomicU64,
        shared_tbhits: &'a AtomicU64,
        tables: &'a mut OrderingTables,
    ) -> ThreadSearch<'a> {
        if features.correction_history {
            tables.correction.allocate();
        }
        let mut lmr = [[0u8; 64]; 64];
        let base = f64::from(features.params.lmr_base) / 100.0;
        let divisor = f64::from(features.params.lmr_divisor) / 100.0;
        for (depth, row) in lmr.iter_mut().enumerate().skip(1) {
            for (count, r) in row.iter_mut().enumerate().skip(1) {
                let value = base + (depth as f64).ln() * (count as f64).ln() / divisor;
                *r = value.max(0.0) as u8;
            }
        }
        let mut keys = Vec::with_capacity(history.len() + MAX_PLY + 4);
        keys.extend_from_slice(history);
        let stack = SearchStack::new(&features.evaluation);
        ThreadSearch {
            tt,
            root: root.clone(),
            keys,
            history_len: history.len(),
            features,
            id,
            helper_stop,
            shared_nodes,
            shared_tbhits,
            control: None,
            helper_clock: None,
            root_first_move_done: false,
            nodes: 0,
            unreported_nodes: 0,
            tbhits: 0,
            root_tablebase_score: None,
            selective_depth: 0,
            stopped: false,
            tables,
            stack,
            lmr,
            best_move_stability: 0,
            null_verify_ply: 0,
            null_verify_side: None,
            node_stack: Vec::new(),
            reported_pv: Vec::new(),
            lines: LineTable::new(1),
        }
    }

    fn total_nodes(&self) -> u64 {
        self.shared_nodes.load(Ordering::Relaxed) + self.unreported_nodes
    }

    fn flush_nodes(&mut self) {
        self.shared_nodes
            .fetch_add(self.unreported_nodes, Ordering::Relaxed);
        self.unreported_nodes = 0;
        if self.tbhits > 0 {
            self.shared_tbhits.fetch_add(self.tbhits, Ordering::Relaxed);
            self.tbhits = 0;
        }
    }

    fn total_tbhits(&self) -> u64 {
        self.shared_tbhits.load(Ordering::Relaxed) + self.tbhits
    }

    /// The root's value by the tables (`Searcher` ranked the root moves with them).
    pub fn set_root_tablebase_score(&mut self, score: Option<i32>) {
        self.root_tablebase_score = score;
    }

    /// A root score as shown: the tables' verdict where the search has not proven one.
    fn shown_score(&self, score: i32) -> i32 {
        match self.root_tablebase_score {
            Some(tb) if !is_decisive(score) && score > -INFINITY => tb,
            _ => score,
        }
    }

    /// Polled every `CHECK_INTERVAL` nodes: the helpers' stop flag, the control's hard rules.
    fn check_stop(&mut self) {
        self.flush_nodes();
        if self.helper_stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if let Some(control) = self.control {
            let nodes = self.total_nodes();
            control.nodes.store(nodes, Ordering::Relaxed);
            if control.should_stop(nodes, self.root_first_move_done) {
                self.stopped = true;
            }
        } else if self.helper_clock.is_some_and(SearchControl::past_hard_time) {
            self.helper_stop.store(true, Ordering::Relaxed);
            self.stopped = true;
        }
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unreported_nodes += 1;
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            self.check_stop();
        }
    }

    // ------------------------------------------------------------------------------------
    // Root
    // ------------------------------------------------------------------------------------

    fn make_root_moves(&self, allowed: &MoveList) -> Vec<RootMove> {
        let hash_move = self
            .tt
            .probe(self.root.key(), 0)
            .map_or(Move::NULL, |h| h.best_move);
        let mut scores = [0i32; 256];
        let threats = if self.features.threat_ordering {
            Threats::of(&self.root)
        } else {
            Threats::default()
        };
        score_moves(
            &self.root,
            allowed,
            &mut scores,
            hash_move,
            self.tables,
            self.stack[0].killers,
            &threats,
        );
        let mut moves: Vec<RootMove> = allowed
            .iter()
            .zip(scores.iter())
            .map(|(&mv, &score)| RootMove {
                mv,
                score,
                nodes: 0,
            })
            .collect();
        moves.sort_by_key(|r| std::cmp::Reverse(r.score));
        moves
    }

    /// Searches every root move at `depth` inside (alpha, beta). The best move ends first.
    /// `on_event` is told of each move's start and every new best move.
    fn search_root(
        &mut self,
        moves: &mut [RootMove],
        depth: i32,
        alpha: i32,
        beta: i32,
        on_event: &mut dyn FnMut(&mut Self, RootEvent),
    ) -> i32 {
        let root = self.root.clone();
        let mut best = -INFINITY;
        let mut best_index = 0;
        self.stack[0].pv_len = 0;
        self.root_first_move_done = false;
        let total = moves.len();
        #[allow(clippy::needless_range_loop)]
        for i in 0..total {
            let m = moves[i].mv;
            if let Some(control) = self.control {
                control
                    .current_move
                    .store(u32::from(m.raw()), Ordering::Relaxed);
                control.root_moves_left.store(total - i, Ordering::Relaxed);
                control.root_moves_total.store(total, Ordering::Relaxed);
                on_event(self, RootEvent::Searching { mv: m, index: i });
            }
            let before = self.nodes;
            let child = root.make_move(m);
            let new_depth = depth - 1;
            let a = alpha.max(best);
            self.enter_move(&root, 0, m);
            let score = if i == 0 {
                let search = ChildSearch::new(ChildKind::Main, new_depth, 0, (a, beta), false);
                -self.search_child(&child, search)
            } else {
                let search =
                    ChildSearch::new(ChildKind::ZeroWindow, new_depth, 0, (a, a + 1), true);
                let mut s = -self.search_child(&child, search);
                if s > a && s < beta && !self.stopped {
                    let search =
                        ChildSearch::new(ChildKind::PvsReSearch, new_depth, 0, (a, beta), false);
                    s = -self.search_child(&child, search);
                }
                s
            };
            self.keys.pop();
            moves[i].nodes += self.nodes - before;
            if self.stopped {
                break;
            }
            moves[i].score = score;
            if score > best {
                best = score;
                best_index = i;
                if score > alpha {
                    self.stack.update_pv(0, m);
                    on_event(self, RootEvent::NewBest { mv: m, score });
                }
                if score >= beta {
                    break;
                }
            }
            self.root_first_move_done = true;
            if let Some(control) = self.control
                && control.past_soft_nodes(self.total_nodes())
            {
                self.stopped = true;
                break;
            }
        }
        // Best first; the rest by the effort their subtrees took (a proxy for how close
        // they came), which orders the next iteration well.
        if best > -INFINITY {
            let chosen = moves[best_index].mv;
            moves.sort_by(|a, b| {
                (b.mv == chosen)
                    .cmp(&(a.mv == chosen))
                    .then(b.nodes.cmp(&a.nodes))
            });
        }
        best
    }

    /// The root's principal variation as far as a game could follow it: it ends at the
    /// first position (after its first move) where a threefold repetition, counting the
    /// game's positions before the root, or the fifty-move rule could be claimed.
    fn root_pv(&self) -> Vec<Move> {
        let pv = self.stack.pv(0);
        let mut keys = self.keys[..self.history_len].to_vec();
        let mut pos = self.root.clone();
        let mut line = Vec::with_capacity(pv.len());
        for &m in pv {
            keys.push(pos.key());
            if !line.is_empty() && (pos.halfmove_clock() >= 100 || occurrences(&keys, &pos) >= 3) {
                break;
            }
            line.push(m);
            pos = pos.make_move(m);
        }
        line
    }

    /// Tells the observer the lines of `report`, remembering line 1; the counts and the time
    /// are the search's now, for lines told again as well.
    fn tell_lines(
        &mut self,
        observer: &mut dyn SearchObserver,
        report: LinesReport,
        start: Instant,
    ) {
        if report.lines.is_empty() {
            return;
        }
        if let Some(first) = report.lines.iter().find(|l| l.multipv == 1) {
            self.reported_pv.clone_from(&first.pv);
        }
        let (elapsed, nodes, hashfull) = (start.elapsed(), self.total_nodes(), self.tt.hashfull());
        let tbhits = self.total_tbhits();
        let lines: Vec<SearchInfo> = report
            .lines
            .into_iter()
            .map(|line| SearchInfo {
                score: self.shown_score(line.score),
                elapsed,
                nodes,
                hashfull: hashfull as u32,
                tbhits,
                ..line
            })
            .collect();
        observer.on_lines(&lines, report.fresh);
    }

    /// The main thread's deepening loop: reports each iteration, asks `control` whether to go
    /// on, and returns the move to play.
    pub fn run_main(
        &mut self,
        allowed: &MoveList,
        control: &'a SearchControl,
        observer: &mut dyn SearchObserver,
        start: Instant,
    ) -> SearchOutcome {
        self.control = Some(control);
        let mut moves = self.make_root_moves(allowed);
        let mut best_move = moves[0].mv;
        let mut best_score = -INFINITY;
        let mut best_pv = vec![best_move];
        // The depth and bound of the iteration `best_score` comes from.
        let mut best_line = (0, ScoreBound::Exact);
        let mut completed_depth = 0;
        let max_depth = control.max_depth();
        // Multi-PV: line k searches the moves left after the best k, each in its own window
        // around its score of the last iteration. Line 0 is the one-line search itself.
        let lines = control.limits().multipv.clamp(1, moves.len());
        self.lines = LineTable::new(lines);

        'deepening: for depth in 1..=max_depth {
            self.selective_depth = 0;
            control.depth.store(depth, Ordering::Relaxed);
            let previous_best = best_move;
            let previous_score = best_score;
            for line in 0..lines {
                let (anchor_score, anchor_move) = if line == 0 {
                    (best_score, best_move)
                } else {
                    self.lines
                        .completed()
                        .get(line)
                        .map_or((-INFINITY, Move::NULL), |l| (l.score, l.pv[0]))
                };
                let score = self.search_line(
                    &mut moves[line..],
                    depth,
                    line,
                    anchor_score,
                    anchor_move,
                    observer,
                    start,
                );

                if self.stopped {
                    // An aborted iteration's first move is only trusted if it proved itself
                    // better than the last completed iteration's score.
                    if line == 0
                        && self.stack[0].pv_len > 0
                        && score > best_score
                        && moves[0].mv == self.stack[0].pv[0]
                    {
                        best_move = self.stack[0].pv[0];
                        best_score = score;
                        best_pv = self.root_pv();
                        // The other root moves of this iteration are unsearched.
                        best_line = (depth, ScoreBound::Lower);
                    }
                    break 'deepening;
                }

                let line_move = moves[line].mv;
                let pv = if self.stack[0].pv_len > 0 && self.stack[0].pv[0] == line_move {
                    self.root_pv()
                } else {
                    vec![line_move]
                };
                let place = self.lines.finish_line(found_line(
                    depth,
                    self.selective_depth as u32,
                    score,
                    ScoreBound::Exact,
                    pv,
                ));
                // The root moves follow the lines' order.
                moves[place..=line].rotate_right(1);
                if line == 0 {
                    completed_depth = depth;
                }
                if place == 0 {
                    let best = &self.lines.done()[0];
                    best_move = best.pv[0];
                    best_score = best.score;
                    best_pv = best.pv.clone();
                    best_line = (depth, ScoreBound::Exact);
                }
                self.flush_nodes();
                // The new line, and any line it pushed down, under their new numbers.
                let report = self.lines.report(place, None);
                self.tell_lines(observer, report, start);
            }
            self.lines.end_iteration();

            if best_move == previous_best {
                self.best_move_stability += 1;
            } else {
                self.best_move_stability = 0;
            }
            let root_nodes = moves.iter().map(|r| r.nodes).sum();
            let iteration = Iteration {
                depth,
                score: best_score,
                previous_score,
                nodes: self.total_nodes(),
                root_moves: moves.len(),
                best_move_stability: self.best_move_stability,
                best_move_nodes: moves[0].nodes,
                root_nodes,
            };
            let (adaptive, params) = (self.features.adaptive_time, &self.features.params);
            if !control.should_start_iteration(&iteration, adaptive, params) {
                break;
            }
        }

        // A limit that cut an iteration may leave a line of it as the last one told, or the
        // best line unshown (a new best found in the first instant): the line of the move to
        // be played goes out again, so the last line starts with it and shows its reply.
        if best_score > -INFINITY && self.reported_pv != best_pv {
            self.flush_nodes();
            let (depth, bound) = best_line;
            let info = found_line(
                depth,
                self.selective_depth as u32,
                best_score,
                bound,
                best_pv.clone(),
            );
            let report = self.lines.report(0, Some(&info));
            self.tell_lines(observer, report, start);
        }

        // Ponder and analyze searches keep the answer until told to move or stop.
        while control.holds_answer() {
            std::thread::sleep(Duration::from_millis(2));
        }
        self.flush_nodes();

        let ponder_move = best_pv.get(1).copied();
        SearchOutcome {
            best_move,
            ponder_move,
            score: self.shown_score(best_score),
            depth: completed_depth,
            nodes: self.total_nodes(),
            tbhits: self.total_tbhits(),
            elapsed: start.elapsed(),
            hashfull: self.tt.hashfull() as u32,
            lines: self
                .lines
                .completed()
                .iter()
                .map(|l| (l.pv[0], l.score))
                .collect(),
        }
    }

    /// One line of an iteration: `moves` (the root moves not taken by earlier lines) searched
    /// at `depth` inside an aspiration window around `anchor_score`, widened until the score
    /// falls inside it. Reports new best moves (other than `anchor_move`) and, after the
    /// first second, each root move as its search starts.
    #[allow(clippy::too_many_arguments)]
    fn search_line(
        &mut self,
        moves: &mut [RootMove],
        depth: u32,
        line: usize,
        anchor_score: i32,
        anchor_move: Move,
        observer: &mut dyn SearchObserver,
        start: Instant,
    ) -> i32 {
        let mut delta = self.features.params.aspiration_window;
        let mut fail_highs = 0;
        let (mut alpha, mut beta) =
            if self.features.aspiration && depth >= 5 && !is_decisive(anchor_score) {
                (anchor_score - delta, anchor_score + delta)
            } else {
                (-INFINITY, INFINITY)
            };
        loop {
            let mut report = |this: &mut Self, event: RootEvent| match event {
                // A proven improvement inside the current iteration: worth showing once
                // the search is past its first instant.
                RootEvent::NewBest { mv, score } => {
                    if depth > 1 && mv != anchor_move && start.elapsed() > NEW_BEST_REPORT_AFTER {
                        let bound = if score >= beta {
                            ScoreBound::Lower
                        } else {
                            ScoreBound::Exact
                        };
                        let selective = this.selective_depth as u32;
                        let info = found_line(depth, selective, score, bound, this.root_pv());
                        let report = this.lines.report(line, Some(&info));
                        this.tell_lines(observer, report, start);
                    }
                }
                RootEvent::Searching { mv, index } => {
                    let elapsed = start.elapsed();
                    if elapsed >= CURRENT_MOVE_REPORT_AFTER {
                        observer.on_root_move(&RootMoveInfo {
                            depth,
                            mv,
                            number: line + index + 1,
                            elapsed,
                            nodes: this.total_nodes(),
                        });
                    }
                }
            };
            let searched_depth = (depth as i32 - fail_highs).max(1);
            let s = self.search_root(moves, searched_depth, alpha, beta, &mut report);
            if self.stopped {
                return s;
            }
            if s <= alpha && alpha > -INFINITY {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INFINITY);
                fail_highs = 0;
            } else if s >= beta && beta < INFINITY {
                beta = (s + delta).min(INFINITY);
                // A root that fails high is likely better than the window thought; its
                // re-search can afford a ply less each time, and a fail low restores it.
                fail_highs += i32::from(self.features.fail_high_reduction);
            } else {
                return s;
            }
            delta += delta / 2 + self.features.params.aspiration_growth;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// A Lazy SMP helper: the same deepening on the shared table, each iteration inside an
    /// aspiration window as the main thread's, starting at a different depth and root order
    /// so the threads spread out. Its table entries help the main thread as it goes; its last
    /// completed iteration comes back for the choice of the move to play.
    pub fn run_helper(
        &mut self,
        allowed: &MoveList,
        control: &'a SearchControl,
    ) -> Option<CompletedIteration> {
        self.helper_clock = Some(control);
        let max_depth = control.max_depth();
        let mut moves = self.make_root_moves(allowed);
        let count = moves.len();
        if count > 2 {
            moves[1..].rotate_left(self.id % (count - 1));
        }
        let start = Instant::now();
        let mut completed = None;
        let (mut score, mut best_move) = (-INFINITY, Move::NULL);
        let first = 1 + (self.id % 2) as u32;
        for depth in first..=max_depth {
            let s = self.search_line(&mut moves, depth, 0, score, best_move, &mut Silent, start);
            if self.stopped {
                break;
            }
            (score, best_move) = (s, moves[0].mv);
            let pv = if self.stack[0].pv_len > 0 && self.stack[0].pv[0] == best_move {
                self.root_pv()
            } else {
                vec![best_move]
            };
            completed = Some(CompletedIteration {
                depth,
                score,
                selective_depth: self.selective_depth as u32,
                pv,
            });
            self.selective_depth = 0;
        }
        self.flush_nodes();
        // Wait for the main thread, so helpers that finished early do not exit a scope the
        // main thread still runs in with a stale table (they simply idle).
        while !self.helper_stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
        completed
    }

    // ------------------------------------------------------------------------------------
    // What the nodes below the root share
    // ------------------------------------------------------------------------------------

    /// The continuation-history slots of the moves one, two and (with `Fourth Ply
    /// Continuation`) four plies before the node at `ply`.
    fn continuation_slots(&self, ply: usize) -> ContinuationSlots {
        let back = |n: usize| {
            ply.checked_sub(n)
                .and_then(|p| self.stack[p].continuation_slot())
        };
        let fourth = if self.features.fourth_ply_continuation {
            back(4)
        } else {
            None
        };
        [back(1), back(2), fourth]
    }

    /// Records `m`, played from `pos`, as the move at `ply` before its child is searched: the
    /// key for repetition checks, and the move and moved piece the continuation histories read.
    fn enter_move(&mut self, pos: &Position, ply: usize, m: Move) {
        self.keys.push(pos.key());
        let frame = &mut self.stack[ply];
        frame.current_move = m;
        frame.moved_piece = pos.piece_at(m.from());
    }

    fn is_repetition(&self, pos: &Position) -> bool {
        let key = pos.key();
        let reach = (pos.halfmove_clock() as usize).min(self.keys.len());
        // Same side to move: two, four, ... plies back.
        let mut back = 2;
        while back <= reach {
            if self.keys[self.keys.len() - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }
}

/// How often `pos`, the last of `keys` (positions of a game, oldest first), has occurred:
/// only the positions since the last irreversible move can be the same.
fn occurrences(keys: &[u64], pos: &Position) -> usize {
    let key = pos.key();
    keys.iter()
        .rev()
        .take(usize::from(pos.halfmove_clock()) + 1)
        .filter(|&&k| k == key)
        .count()
}
