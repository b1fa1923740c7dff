//! The rules of one node, alpha-beta (steps 1-15) or quiescence (Q1-Q8), written once as
//! numbered steps a driver calls: `enter` starts a node, `resume` hands it the value of the
//! child search it asked for. Between steps the node keeps everything in its `Node`, so the
//! driver may recurse or loop.

use crate::board::{
    CastlingRights, Move, PieceKind, Position, has_legal_moves_at_least, is_playable,
};
use crate::search::correction::CorrectionKeys;
use crate::search::history::{ContinuationSlots, PieceTo};
use crate::search::ordering::{captured_kind, piece_value, see_at_least};
use crate::search::score::{DRAW, INFINITY, MATE, MAX_PLY, TB_WIN, TB_WIN_BOUND, is_decisive};
use crate::search::stack::NodeFacts;
use crate::search::tt::{Bound, TtHit};
use crate::search::{IidMode, SearchFeatures};
use crate::tablebase::{Wdl, ignore_rule50};

use super::ThreadSearch;

/// Why a node asks for a child search; the child itself is an alpha-beta node (quiescence
/// at depth 0 or below) unless it is `Quiescence` or `ProbCutQuiescence`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ChildKind {
    /// The first search of a move (and a root move's).
    Main,
    /// The position after passing, at reduced depth and a null window at beta.
    NullMove,
    /// The node itself, reduced and without null moves for its side, after a null-move cutoff.
    Verification,
    /// Classic IID: the node itself, shallower, to find a move to try first.
    Iid,
    /// Razoring: the node itself in quiescence, with a null window at alpha.
    Razor,
    /// A move after the first: null window, perhaps reduced.
    ZeroWindow,
    /// A reduced move that beat alpha, again at full depth.
    FullDepth,
    /// A null-window score inside the window, again with the full window.
    PvsReSearch,
    /// Self-deepening IID: a shallow fail high, again at the node's full depth.
    DeepeningReSearch,
    /// The node itself without the TT move, at half depth, just below the TT score.
    Singular,
    /// ProbCut's quick check of a capture, then its reduced search.
    ProbCutQuiescence,
    ProbCut,
    Quiescence,
}

impl ChildKind {
    /// The child searches the node's own position, not the one after the node's move.
    pub(super) fn same_position(self) -> bool {
        matches!(
            self,
            ChildKind::Verification | ChildKind::Iid | ChildKind::Razor | ChildKind::Singular
        )
    }
}

/// A search a node asks its driver for.
#[derive(Clone, Copy, Debug)]
pub(super) struct ChildSearch {
    pub kind: ChildKind,
    pub depth: i32,
    pub alpha: i32,
    pub beta: i32,
    pub ply: usize,
    pub cut_node: bool,
}

impl ChildSearch {
    /// The `kind` of search the node at `ply` asks for, in the window (`alpha`, `beta`) as the
    /// node sees it: of its own position at its ply, or of the position after its move, a
    /// ply deeper and from the other side.
    #[inline(always)]
    pub(super) fn new(
        kind: ChildKind,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        cut_node: bool,
    ) -> ChildSearch {
        let (alpha, beta, ply) = if kind.same_position() {
            (alpha, beta, ply)
        } else {
            (-beta, -alpha, ply + 1)
        };
        ChildSearch {
            kind,
            depth,
            alpha,
            beta,
            ply,
            cut_node,
        }
    }
}

/// What a node step tells its driver.
pub(super) enum Step {
    /// The node is done: its value, from its side to move.
    Value(i32),
    /// Search this child (in `Node::child` unless its kind searches the node's own position),
    /// then `resume` the node with the child's value.
    Child(ChildSearch),
}

/// Step 10's margins for one pass of the move loop. They depend only on the pass, so they
/// are worked out when it starts rather than each time the node resumes after a move.
#[derive(Clone, Copy)]
struct PruningLimits {
    /// Late-move pruning: quiet moves once this many quiets were searched (`i32::MAX`: off).
    late_quiets: i32,
    /// The quiet moves' margins at the pass's depth.
    quiet: QuietLimits,
    /// SEE pruning: tactical moves that lose more than this; `None`: off.
    see_tactical: Option<i32>,
    /// Capture futility: a capture whose victim's value added to this cannot reach alpha;
    /// `None`: off.
    capture_futility: Option<i32>,
}

impl PruningLimits {
    const OFF: PruningLimits = PruningLimits {
        late_quiets: i32::MAX,
        quiet: QuietLimits::OFF,
        see_tactical: None,
        capture_futility: None,
    };

    fn new(features: &SearchFeatures, depth: i32, improving: bool, eval: i32) -> PruningLimits {
        let params = &features.params;
        PruningLimits {
            late_quiets: if features.late_move_pruning && depth <= params.lmp_max_depth {
                (params.lmp_base + depth * depth) / if improving { 1 } else { 2 }
            } else {
                i32::MAX
            },
            quiet: QuietLimits::new(features, depth, eval),
            see_tactical: (features.see_pruning && depth <= params.see_pruning_max_depth)
                .then_some(-params.see_tactical_margin * depth),
            capture_futility: (features.capture_futility
                && depth <= params.capture_futility_max_depth)
                .then_some(
                    eval + params.capture_futility_base + params.capture_futility_margin * depth,
                ),
        }
    }
}

/// Step 10's margins for a quiet move judged at `depth`: the pass's depth, or with
/// `Reduced Depth Pruning` the depth its late-move reduction would leave it.
#[derive(Clone, Copy)]
struct QuietLimits {
    /// Futility pruning: when alpha is at least this (`i32::MAX`: off).
    futility: i32,
    /// History pruning: a continuation history below this (`i32::MIN`: off).
    history: i32,
    /// SEE pruning: a move that loses more than this; `None`: off.
    see: Option<i32>,
}

impl QuietLimits {
    const OFF: QuietLimits = QuietLimits {
        futility: i32::MAX,
        history: i32::MIN,
        see: None,
    };

    fn new(features: &SearchFeatures, depth: i32, eval: i32) -> QuietLimits {
        let params = &features.params;
        QuietLimits {
            futility: if features.futility && depth <= params.futility_max_depth {
                eval + params.futility_base + params.futility_margin * depth
            } else {
                i32::MAX
            },
            // Quiet moves that have done badly after the moves that led here.
            history: if features.history_pruning && depth <= params.history_pruning_max_depth {
                -params.history_pruning_margin * depth
            } else {
                i32::MIN
            },
            see: (features.see_pruning && depth <= params.see_pruning_max_depth)
                .then_some(-params.see_quiet_margin * depth * depth),
        }
    }
}

/// One run of the move loop (steps 9-14): at the node's depth, or shallower as a pass of
/// self-deepening IID. It reads the node's facts from the frame. Quiescence uses its
/// counters, best score and best move too.
#[derive(Clone, Copy)]
struct MovePass {
    /// The last pass: its result is the node's value. Otherwise a self-deepening IID pass.
    last: bool,
    depth: i32,
    full_depth: i32,
    previous: Move,
    counter: Move,
    continuation: ContinuationSlots,
    limits: PruningLimits,
    best: i32,
    best_move: Move,
    proven_at_full_depth: bool,
    searched: usize,
}

impl Default for MovePass {
    fn default() -> Self {
        MovePass {
            last: true,
            depth: 0,
            full_depth: 0,
            previous: Move::NULL,
            counter: Move::NULL,
            continuation: [None; 3],
            limits: PruningLimits::OFF,
            best: -INFINITY,
            best_move: Move::NULL,
            proven_at_full_depth: false,
            searched: 0,
        }
    }
}

/// The state of a node between its steps: its arguments, what its early steps found, and the
/// move being searched. The per-ply `Frame` holds what other nodes read (killers, PV, picker,
/// a copy of the facts).
pub(super) struct Node {
    kind: ChildKind,
    /// The kind of the child search the node asked for last: where it resumes.
    asked: ChildKind,
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
    /// The position after `mv` (or after the null move), which the child searches.
    pub(super) child: Position,
    /// The node's own facts; its frame holds a copy for the plies below, which the searches
    /// of the node's own position overwrite (see `Frame`).
    facts: NodeFacts,
    excluding: bool,
    tt_hit: Option<TtHit>,
    /// What pruning reads: the static evaluation, or the table's score (step 4b).
    eval: i32,
    /// The correction-history entries of the position (step 4), which step 15 updates.
    correction_keys: CorrectionKeys,
    /// Double extensions on the path from the root to this node.
    double_extensions: u8,
    null_reduction: i32,
    null_score: i32,
    probcut_beta: i32,
    probcut_threshold: i32,
    iid_iteration: i32,
    singular_beta: i32,
    /// Quiescence: the static evaluation the side to move may stand on.
    stand_pat: i32,
    pass: MovePass,
    /// The move being searched, and what the searches of it need.
    mv: Move,
    quiet: bool,
    move_alpha: i32,
    extension: i32,
    new_depth: i32,
    reduction: i32,
    /// Moves the picker handed out in this pass of the move loop.
    moves_seen: usize,
}

impl Default for Node {
    fn default() -> Self {
        Node {
            kind: ChildKind::Main,
            asked: ChildKind::Main,
            depth: 0,
            alpha: -INFINITY,
            beta: INFINITY,
            ply: 0,
            child: Position::empty(),
            facts: NodeFacts::default(),
            excluding: false,
            tt_hit: None,
            eval: 0,
            correction_keys: CorrectionKeys::default(),
            double_extensions: 0,
            null_reduction: 0,
            null_score: 0,
            probcut_beta: 0,
            probcut_threshold: 0,
            iid_iteration: 0,
            singular_beta: 0,
            stand_pat: 0,
            pass: MovePass::default(),
            mv: Move::NULL,
            quiet: false,
            move_alpha: 0,
            extension: 0,
            new_depth: 0,
            reduction: 0,
            moves_seen: 0,
        }
    }
}

impl Node {
    /// Makes a used node the start of `search` (the drivers reuse their nodes).
    pub(super) fn restart(&mut self, search: ChildSearch) {
        self.kind = search.kind;
        self.depth = search.depth;
        self.alpha = search.alpha;
        self.beta = search.beta;
        self.ply = search.ply;
        self.facts.cut_node = search.cut_node;
    }

    fn ask(&mut self, search: ChildSearch) -> Step {
        self.asked = search.kind;
        Step::Child(search)
    }
}

// The steps a driver calls per node (`enter`, `resume`) and the hot ones they lead to are
// `#[inline(always)]`: inlined into the drivers, a node costs about one call, as it did when
// a node was a function; `next_move` out of line measured slower (docs/search.md).
impl ThreadSearch<'_> {
    /// Starts the node `node` was (re)started for, at `pos`.
    #[inline(always)]
    pub(super) fn enter(&mut self, node: &mut Node, pos: &Position) -> Step {
        // Step 1. Horizon: resolve captures in quiescence.
        if node.kind == ChildKind::Quiescence
            || node.kind == ChildKind::ProbCutQuiescence
            || node.depth <= 0
        {
            self.enter_quiescence(node, pos)
        } else {
            self.enter_alphabeta(node, pos)
        }
    }

    /// Continues `node` (at `pos`) with the value its last child search returned.
    #[inline(always)]
    pub(super) fn resume(&mut self, node: &mut Node, pos: &Position, value: i32) -> Step {
        match node.asked {
            ChildKind::Main => self.after_move_window_searches(node, pos, -value),
            ChildKind::NullMove => self.after_null_move(node, pos, -value),
            ChildKind::Verification => self.after_verification(node, pos, value),
            ChildKind::Iid => self.after_iid(node, pos),
            ChildKind::Razor => self.after_razor(node, pos, value),
            ChildKind::ZeroWindow => self.after_zero_window(node, pos, -value),
            ChildKind::FullDepth => self.after_full_depth(node, pos, -value),
            ChildKind::PvsReSearch => self.after_move_window_searches(node, pos, -value),
            ChildKind::DeepeningReSearch => self.after_deepening_re_search(node, pos, -value),
            ChildKind::Singular => self.after_singular(node, pos, value),
            ChildKind::ProbCutQuiescence => self.after_probcut_quiescence(node, pos, -value),
            ChildKind::ProbCut => self.after_probcut_move(node, pos, -value),
            ChildKind::Quiescence => self.after_quiescence_move(node, pos, -value),
        }
    }

    /// Makes `m` into the node's child, then `ask_made_move`.
    #[inline(always)]
    fn ask_move(&mut self, node: &mut Node, pos: &Position, m: Move, search: ChildSearch) -> Step {
        pos.make_move_into(m, &mut node.child);
        self.tt.prefetch(node.child.key());
        self.ask_made_move(node, pos, m, search)
    }

    /// Enters `m`, which `node.child` already holds made (the move loop makes it early to see
    /// whether it checks), and asks for `search` of the child.
    #[inline(always)]
    fn ask_made_move(
        &mut self,
        node: &mut Node,
        pos: &Position,
        m: Move,
        search: ChildSearch,
    ) -> Step {
        node.mv = m;
        self.enter_move(pos, node.ply, m);
        node.ask(search)
    }

    // ------------------------------------------------------------------------------------
    // Alpha-beta: steps 2-8
    // ------------------------------------------------------------------------------------

    #[inline(always)]
    fn enter_alphabeta(&mut self, node: &mut Node, pos: &Position) -> Step {
        let (depth, ply, cut_node) = (node.depth, node.ply, node.facts.cut_node);
        let pv_node = node.beta - node.alpha > 1;

        // Step 2. Count the node, stop if told to; draws inside the tree and mate-distance
        // pruning.
        self.stack[ply].pv_len = ply;
        self.count_node();
        if self.stopped {
            return Step::Value(0);
        }
        self.selective_depth = self.selective_depth.max(ply);
        if pos.halfmove_clock() >= 100 || self.is_repetition(pos) || pos.is_insufficient_material()
        {
            return Step::Value(DRAW);
        }
        if ply >= MAX_PLY - 4 {
            return Step::Value(self.stack.evaluate(pos, ply, &self.features.evaluation));
        }
        let alpha = node.alpha.max(-MATE + ply as i32);
        let beta = node.beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return Step::Value(alpha);
        }
        node.alpha = alpha;
        node.beta = beta;

        // Step 3. Probe the transposition table. A singular search (a move left out) shares
        // the node's key, so it takes no cutoff from the table and stores nothing in it.
        let excluding = !self.stack[ply].excluded_move.is_null();
        node.excluding = excluding;
        let tt_hit = self.tt.probe(pos.key(), ply);
        node.tt_hit = tt_hit;
        let tt_pv = pv_node || self.features.tt_pv && tt_hit.is_some_and(|hit| hit.was_pv);
        if let Some(hit) = tt_hit
            && !pv_node
            && !excluding
            && hit.depth >= depth
            && hit.cuts_off(alpha, beta)
        {
            return Step::Value(hit.score);
        }

        // Step 3a. Probe the Syzygy WDL tables right after a capture or pawn move: the
        // result is exact, or a bound that cuts, and the table keeps it like a search's.
        if !excluding
            && let Some((score, bound)) = self.probe_tablebases(pos, depth, ply)
            && (bound == Bound::Exact
                || bound == Bound::Lower && score >= beta
                || bound == Bound::Upper && score <= alpha)
        {
            let stored_depth = (depth + 6).min(MAX_PLY as i32 - 1);
            self.tt.store(
                pos.key(),
                ply,
                Move::NULL,
                score,
                0,
                stored_depth,
                bound,
                tt_pv,
            );
            return Step::Value(score);
        }

        // Step 4. Static evaluation, and whether it improved on two plies before.
        // The table keeps the raw evaluation; the one pruning reads is corrected by what
        // searches of this pawn structure, these pieces and these last moves found.
        let in_check = pos.in_check();
        let raw_eval = if in_check {
            -INFINITY
        } else if let Some(hit) = tt_hit {
            hit.static_eval
        } else {
            self.stack.evaluate(pos, ply, &self.features.evaluation)
        };
        let static_eval = if in_check || !self.features.correction_history {
            raw_eval
        } else {
            node.correction_keys = CorrectionKeys::new(pos, &self.continuation_slots(ply));
            self.corrected(raw_eval, &node.correction_keys)
        };
        let improving =
            !in_check && ply >= 2 && static_eval > self.stack[ply - 2].facts.static_eval;
        // Step 4b. A table score that bounds the position from the side the static eval
        // errs on is the better guess of what a search would find, so pruning reads it
        // (not in a singular search: the table's score is the excluded move's).
        let eval = match tt_hit {
            Some(hit) if self.features.tt_eval && !in_check && !excluding => {
                refined_eval(static_eval, hit)
            }
            _ => static_eval,
        };
        node.eval = eval;
        node.facts = NodeFacts {
            static_eval,
            raw_eval,
            improving,
            in_check,
            cut_node,
            pv_node,
            tt_pv,
            tt_move: tt_hit.map_or(Move::NULL, |hit| hit.best_move),
            tt_extension: 0,
        };
        self.stack[ply].facts = node.facts;
        node.double_extensions = self.stack[ply - 1].double_extensions;
        self.stack[ply].double_extensions = node.double_extensions;

        let verifying = self.verifying_null_move(pos, ply);
        let params = &self.features.params;
        if !pv_node && !in_check && !excluding {
            // Step 5. Reverse futility pruning: far above beta near the leaves, not in a
            // former PV node (`TT PV`): the line may come back to it, too much to cut on
            // the static eval alone.
            if self.features.reverse_futility
                && !tt_pv
                && !verifying
                && depth <= params.rfp_max_depth
                && !is_decisive(beta)
                && eval - params.rfp_margin * depth + params.rfp_improving * i32::from(improving)
                    >= beta
            {
                return Step::Value(eval);
            }

            // Step 5a. Razoring: so far below alpha near the leaves that only captures could
            // help; quiescence says whether they do.
            if self.features.razoring
                && depth <= params.razor_max_depth
                && !is_decisive(node.alpha)
                && eval + params.razor_margin * depth <= node.alpha
            {
                return node.ask(ChildSearch::new(
                    ChildKind::Razor,
                    0,
                    ply,
                    (node.alpha, node.alpha + 1),
                    false,
                ));
            }
        }
        self.null_move_pruning(node, pos)
    }

    /// Zugzwang-blind pruning (reverse futility, null move) is off for the side a null-move
    /// verification search is verifying, below it.
    /// Step 3a's probe: the position's table value as a score from this ply and the bound
    /// it is, when the tables cover the position (`Syzygy*` options: the piece limit, the
    /// depth limit at the limit's piece count, the 50-move rule).
    fn probe_tablebases(&mut self, pos: &Position, depth: i32, ply: usize) -> Option<(i32, Bound)> {
        let syzygy = &self.features.syzygy;
        let tables = syzygy.tables.as_deref()?;
        let pieces = pos.occupied().count();
        let limit = syzygy.probe_limit.min(tables.max_pieces());
        if pos.halfmove_clock() != 0
            || pieces > limit
            || pieces == limit && depth < syzygy.probe_depth
            || pos.castling() != CastlingRights::NONE
        {
            return None;
        }
        let wdl = tables.probe_wdl(pos)?;
        self.tbhits += 1;
        let wdl = if syzygy.rule50 {
            wdl
        } else {
            ignore_rule50(wdl)
        };
        Some(match wdl {
            Wdl::Win => (TB_WIN - ply as i32, Bound::Lower),
            Wdl::Loss => (-TB_WIN + ply as i32, Bound::Upper),
            // A cursed win or blessed loss is a draw by the 50-move rule; a point off zero
            // keeps the side that would win by the rules-free count trying.
            Wdl::CursedWin => (DRAW + 1, Bound::Exact),
            Wdl::BlessedLoss => (DRAW - 1, Bound::Exact),
            Wdl::Draw => (DRAW, Bound::Exact),
        })
    }

    fn verifying_null_move(&self, pos: &Position, ply: usize) -> bool {
        self.null_verify_side == Some(pos.side_to_move()) && ply < self.null_verify_ply
    }

    /// The static evaluation `raw_eval` corrected by the correction histories' entries under
    /// `keys`, kept off the tablebase and mate scores.
    fn corrected(&self, raw_eval: i32, keys: &CorrectionKeys) -> i32 {
        let correction = self
            .tables
            .correction
            .correction(keys, &self.features.params);
        (raw_eval + correction).clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    /// Step 5b. Quiescence could not lift the node to alpha either: it fails low.
    fn after_razor(&mut self, node: &mut Node, pos: &Position, score: i32) -> Step {
        if self.stopped {
            return Step::Value(0);
        }
        if score <= node.alpha {
            return Step::Value(score);
        }
        self.null_move_pruning(node, pos)
    }

    /// Step 6. Null-move pruning: if passing still fails high, a real move will too. The
    /// quiescence right after the pass also tries quiet checks (see `enter_quiescence`).
    fn null_move_pruning(&mut self, node: &mut Node, pos: &Position) -> Step {
        let (depth, beta, ply) = (node.depth, node.beta, node.ply);
        let (eval, cut_node) = (node.eval, node.facts.cut_node);
        let verifying = self.verifying_null_move(pos, ply);
        if !node.facts.pv_node && !node.facts.in_check && !node.excluding {
            let side = pos.side_to_move();
            let params = &self.features.params;
            if self.features.null_move
                && depth >= params.nmp_min_depth
                && eval >= beta
                && !self.stack[ply - 1].current_move.is_null()
                && pos.has_non_pawn_material(side)
                && !is_decisive(beta)
                && !verifying
                // With only a few moves, passing may be the best there is (zugzwang), and
                // searching them all costs little.
                && has_legal_moves_at_least(pos, params.nmp_min_moves as usize)
            {
                let reduction = params.nmp_base_reduction
                    + depth / params.nmp_depth_divisor
                    + ((eval - beta) / params.nmp_eval_divisor).min(params.nmp_eval_cap);
                node.null_reduction = reduction;
                node.child = pos.make_null_move();
                self.tt.prefetch(node.child.key());
                self.keys.push(pos.key());
                self.stack[ply].current_move = Move::NULL;
                self.stack[ply].moved_piece = None;
                return node.ask(ChildSearch::new(
                    ChildKind::NullMove,
                    depth - 1 - reduction,
                    ply,
                    (beta - 1, beta),
                    !cut_node,
                ));
            }
        }
        self.probcut(node, pos)
    }

    /// Step 6a. Passing failed high: cut, verifying a deep cutoff by a reduced search of this
    /// position without null moves for this side, so zugzwang is found in the end.
    fn after_null_move(&mut self, node: &mut Node, pos: &Position, score: i32) -> Step {
        let (depth, beta, ply) = (node.depth, node.beta, node.ply);
        self.keys.pop();
        if self.stopped {
            return Step::Value(0);
        }
        if score >= beta {
            let score = if is_decisive(score) { beta } else { score };
            if depth < 10 || self.null_verify_side.is_some() {
                return Step::Value(score);
            }
            let reduction = node.null_reduction;
            self.null_verify_side = Some(pos.side_to_move());
            self.null_verify_ply = ply + (3 * (depth - reduction) / 4).max(0) as usize;
            node.null_score = score;
            return node.ask(ChildSearch::new(
                ChildKind::Verification,
                depth - reduction,
                ply,
                (beta - 1, beta),
                false,
            ));
        }
        self.probcut(node, pos)
    }

    /// Step 6b. The verification confirmed the null move's cutoff, or the node goes on.
    fn after_verification(&mut self, node: &mut Node, pos: &Position, verified: i32) -> Step {
        self.null_verify_side = None;
        if self.stopped {
            return Step::Value(0);
        }
        if verified >= node.beta {
            return Step::Value(node.null_score);
        }
        self.probcut(node, pos)
    }

    /// Step 6c. ProbCut: a good capture whose reduced search beats beta by a margin would
    /// almost surely beat beta at full depth.
    fn probcut(&mut self, node: &mut Node, pos: &Position) -> Step {
        let depth = node.depth;
        let params = &self.features.params;
        if self.features.probcut
            && !node.facts.pv_node
            && !node.facts.in_check
            && !node.excluding
            && depth >= params.probcut_min_depth
            && !is_decisive(node.beta)
        {
            let probcut_beta = node.beta + params.probcut_margin
                - params.probcut_improving * i32::from(node.facts.improving);
            let table_disagrees = node
                .tt_hit
                .is_some_and(|h| h.depth >= depth - 3 && h.score < probcut_beta);
            if !table_disagrees {
                node.probcut_beta = probcut_beta;
                node.probcut_threshold = probcut_beta - node.eval;
                self.stack[node.ply]
                    .picker
                    .reset_quiescence(node.facts.tt_move);
                return self.next_probcut_move(node, pos);
            }
        }
        self.internal_iterative_deepening(node, pos)
    }

    /// Step 6d. The next capture that wins at least the margin, checked by quiescence first.
    fn next_probcut_move(&mut self, node: &mut Node, pos: &Position) -> Step {
        let ply = node.ply;
        while let Some(m) = self.stack[ply].picker.next(pos, self.tables) {
            if !see_at_least(pos, m, node.probcut_threshold) {
                continue;
            }
            let search = ChildSearch::new(
                ChildKind::ProbCutQuiescence,
                0,
                ply,
                (node.probcut_beta - 1, node.probcut_beta),
                false,
            );
            return self.ask_move(node, pos, m, search);
        }
        self.internal_iterative_deepening(node, pos)
    }

    /// Step 6e. A capture that passed the quick check gets the reduced search.
    fn after_probcut_quiescence(&mut self, node: &mut Node, pos: &Position, score: i32) -> Step {
        if score >= node.probcut_beta {
            return node.ask(ChildSearch::new(
                ChildKind::ProbCut,
                node.depth - 4,
                node.ply,
                (node.probcut_beta - 1, node.probcut_beta),
                !node.facts.cut_node,
            ));
        }
        self.after_probcut_move(node, pos, score)
    }

    /// Step 6f. A capture whose searches beat the margin cuts (stored as a bound three plies
    /// shallower); otherwise the next capture.
    fn after_probcut_move(&mut self, node: &mut Node, pos: &Position, score: i32) -> Step {
        self.keys.pop();
        if self.stopped {
            return Step::Value(0);
        }
        if score >= node.probcut_beta {
            self.tt.store(
                pos.key(),
                node.ply,
                node.mv,
                score,
                node.facts.raw_eval,
                node.depth - 3,
                Bound::Lower,
                node.facts.tt_pv,
            );
            return Step::Value(score);
        }
        self.next_probcut_move(node, pos)
    }

    /// Step 7. Internal iterative deepening when there is no move to try first: a shallower
    /// search of this position (classic), passes of its own move loop (self-deepening), or
    /// none and a ply less for the node (reduction).
    fn internal_iterative_deepening(&mut self, node: &mut Node, pos: &Position) -> Step {
        let depth = node.depth;
        if node.facts.tt_move.is_null() && depth >= 4 && !node.excluding {
            match self.features.iid {
                IidMode::Off => {}
                IidMode::Classic => {
                    let shallower = if node.facts.pv_node {
                        depth - 2
                    } else {
                        depth / 2
                    };
                    return node.ask(ChildSearch::new(
                        ChildKind::Iid,
                        shallower,
                        node.ply,
                        (node.alpha, node.beta),
                        node.facts.cut_node,
                    ));
                }
                IidMode::SelfDeepening => {
                    node.iid_iteration = node.tt_hit.map_or(1, |h| h.depth + 1).max(1);
                    return self.next_deepening_pass(node, pos);
                }
                IidMode::Reduction => node.depth -= 1,
            }
        }
        self.singular_extension(node, pos)
    }

    /// Step 7a. Classic IID left its best move in the table.
    fn after_iid(&mut self, node: &mut Node, pos: &Position) -> Step {
        if self.stopped {
            return Step::Value(0);
        }
        node.facts.tt_move = self
            .tt
            .probe(pos.key(), node.ply)
            .map_or(Move::NULL, |h| h.best_move);
        self.singular_extension(node, pos)
    }

    /// Step 7b. Self-deepening IID: the node's move loop at depths `iid_iteration..depth`.
    /// Such a pass reads the facts its frame holds then, which a null-move verification
    /// (step 6a) may have left; step 8 sets the node's own again.
    fn next_deepening_pass(&mut self, node: &mut Node, pos: &Position) -> Step {
        if node.iid_iteration < node.depth {
            self.stack[node.ply].facts.tt_move = node.facts.tt_move;
            return self.start_moves(node, pos, node.iid_iteration, false);
        }
        self.singular_extension(node, pos)
    }

    /// Step 7c. A deepening pass is done: its best move leads the next one.
    fn after_deepening_pass(&mut self, node: &mut Node, pos: &Position) -> Step {
        if self.stopped {
            return Step::Value(0);
        }
        // A move that deepened itself to full depth and still failed high settles the node.
        if node.pass.best >= node.beta && node.pass.proven_at_full_depth {
            return Step::Value(node.pass.best);
        }
        node.facts.tt_move = node.pass.best_move;
        node.iid_iteration += 1;
        self.next_deepening_pass(node, pos)
    }

    /// Step 7d. Singular extension: when the TT move proved itself at nearly this depth,
    /// search the others a little below its score at half depth. If none reaches it, the
    /// TT move is singular and gets a ply more. If they reach it above beta as well, several
    /// moves fail high: cut at once (multi-cut). If they reach it and the TT move is only
    /// expected to fail high, it gets a ply less.
    fn singular_extension(&mut self, node: &mut Node, pos: &Position) -> Step {
        let depth = node.depth;
        let tt_move = node.facts.tt_move;
        node.facts.tt_extension = 0;
        if self.features.singular_extensions
            && depth >= self.features.params.singular_min_depth
            && !node.excluding
            && let Some(hit) = node.tt_hit
            && !hit.best_move.is_null()
            && hit.best_move == tt_move
            && matches!(hit.bound, Bound::Lower | Bound::Exact)
            && hit.depth >= depth - 3
            && !is_decisive(hit.score)
            && is_playable(pos, tt_move)
        {
            let singular_beta = hit.score - self.features.params.singular_beta_multiplier * depth;
            node.singular_beta = singular_beta;
            self.stack[node.ply].excluded_move = tt_move;
            return node.ask(ChildSearch::new(
                ChildKind::Singular,
                (depth - 1) / 2,
                node.ply,
                (singular_beta - 1, singular_beta),
                node.facts.cut_node,
            ));
        }
        self.full_depth_moves(node, pos)
    }

    /// Step 7e. The singular search's verdict on the TT move; far below the bound, outside
    /// PV nodes and within the line's cap, two plies more.
    fn after_singular(&mut self, node: &mut Node, pos: &Position, score: i32) -> Step {
        self.stack[node.ply].excluded_move = Move::NULL;
        if self.stopped {
            return Step::Value(0);
        }
        let singular_beta = node.singular_beta;
        if score < singular_beta {
            let double = self.features.double_extensions
                && !node.facts.pv_node
                && score < singular_beta - self.features.params.double_extension_margin
                && i32::from(node.double_extensions) < self.features.params.double_extension_cap;
            node.facts.tt_extension = if double { 2 } else { 1 };
        } else if singular_beta >= node.beta {
            return Step::Value(singular_beta);
        } else if node.tt_hit.is_some_and(|hit| hit.score >= node.beta) {
            node.facts.tt_extension = -1;
        }
        self.full_depth_moves(node, pos)
    }

    /// Step 8. The full-depth move loop. The searches of this position above (steps 6a, 7,
    /// 7d) ran at this ply and overwrote the frame, so it gets the node's facts again.
    fn full_depth_moves(&mut self, node: &mut Node, pos: &Position) -> Step {
        self.stack[node.ply].facts = node.facts;
        self.start_moves(node, pos, node.depth, true)
    }

    // ------------------------------------------------------------------------------------
    // Alpha-beta: the move loop, steps 9-15
    // ------------------------------------------------------------------------------------

    /// Step 9 begins: a pass of the move loop at `depth` (the node's own for the `last` pass,
    /// less for self-deepening IID), with the node's facts taken from its frame. Below the
    /// node's depth, a move failing high is re-searched at once at the full depth (11e).
    #[inline(always)]
    fn start_moves(&mut self, node: &mut Node, pos: &Position, depth: i32, last: bool) -> Step {
        let ply = node.ply;
        // From here on the node's window is the one step 2 narrowed to the mate distance,
        // which may be a null window.
        node.facts.pv_node = node.beta - node.alpha > 1;
        node.facts.tt_pv = node.facts.pv_node || self.features.tt_pv && node.facts.tt_pv;
        self.stack[ply].facts.pv_node = node.facts.pv_node;
        self.stack[ply].facts.tt_pv = node.facts.tt_pv;
        let facts = self.stack[ply].facts;
        let mut pass = MovePass {
            last,
            depth,
            full_depth: node.depth,
            previous: self.stack[ply - 1].current_move,
            ..MovePass::default()
        };
        pass.continuation = self.continuation_slots(ply);
        pass.counter = self.tables.counter(pass.previous);
        pass.limits = PruningLimits::new(&self.features, depth, facts.improving, node.eval);
        let frame = &mut self.stack[ply];
        let killers = frame.killers;
        frame.picker.reset_main(
            facts.tt_move,
            killers,
            pass.counter,
            pass.continuation,
            self.features.threat_ordering,
        );
        frame.quiet_count = 0;
        frame.capture_count = 0;
        self.stack[ply + 1].cutoffs = 0;
        node.pass = pass;
        node.moves_seen = 0;
        self.next_move(node, pos)
    }

    /// Step 9. The frame's picker hands out the moves, best first, generating them only as
    /// far as the node gets.
    #[inline(always)]
    fn next_move(&mut self, node: &mut Node, pos: &Position) -> Step {
        let ply = node.ply;
        let (alpha, beta) = (node.alpha, node.beta);
        let pass = &node.pass;
        let facts = self.stack[ply].facts;
        let (depth, pv_node, in_check) = (pass.depth, facts.pv_node, facts.in_check);
        while let Some(m) = self.stack[ply].picker.next(pos, self.tables) {
            node.moves_seen += 1;
            if m == self.stack[ply].excluded_move {
                continue;
            }
            let quiet = !m.is_tactical();
            let a = alpha.max(pass.best);

            pos.make_move_into(m, &mut node.child);
            // The child's table entry is fetched while the move is judged and pruned.
            self.tt.prefetch(node.child.key());
            let gives_check = node.child.in_check();
            let continuation_score = if quiet {
                let now = pos.piece_at(m.from()).map(|p| PieceTo::new(p, m));
                self.tables.continuation_score(now, &pass.continuation)
            } else {
                0
            };
            // Step 10. Prune hopeless moves near the leaves: never the first move, never a
            // check or an evasion, never once a mate against us is all we have found.
            if !pv_node
                && !in_check
                && !gives_check
                && pass.searched > 0
                && pass.best > -TB_WIN_BOUND
            {
                // Late-move, futility and history pruning of quiet moves, then SEE pruning.
                // With `Reduced Depth Pruning` a quiet move's margins are those of the depth
                // its reduction would leave it: a late move with a poor history goes sooner,
                // a killer or one with a good history later.
                let limits = &pass.limits;
                let reduced_limits;
                let quiet_limits = if quiet && self.features.reduced_depth_pruning {
                    let reduction = self.reduction_terms(node, pos, m, continuation_score);
                    reduced_limits =
                        QuietLimits::new(&self.features, (depth - reduction).max(0), node.eval);
                    &reduced_limits
                } else {
                    &limits.quiet
                };
                if quiet
                    && (self.stack[ply].quiet_count as i32 >= limits.late_quiets
                        || quiet_limits.futility <= a
                        || continuation_score < quiet_limits.history)
                {
                    continue;
                }
                // A capture that wins its victim and a margin still short of alpha (a
                // promotion is left to SEE pruning: its gain is the new piece).
                if !quiet
                    && m.is_capture()
                    && m.promotion().is_none()
                    && limits
                        .capture_futility
                        .is_some_and(|limit| limit + piece_value(captured_kind(pos, m)) <= a)
                {
                    continue;
                }
                let see_threshold = if quiet {
                    quiet_limits.see
                } else {
                    limits.see_tactical
                };
                if let Some(threshold) = see_threshold
                    && !see_at_least(pos, m, threshold)
                {
                    continue;
                }
            }

            // Step 11. Extensions: recaptures on the square just captured on (micro-Max's
            // recapture extension), in PV nodes only.
            let recapture_extension = self.features.recapture_extension
                && pv_node
                && m.is_capture()
                && pass.previous.is_capture()
                && pass.previous.to() == m.to();
            let extension = if m == facts.tt_move && facts.tt_extension != 0 {
                facts.tt_extension
            } else {
                i32::from(recapture_extension)
            };
            let new_depth = depth - 1 + extension;

            // Step 11a. Late-move reductions for quiet moves ordered late, not for checks.
            let mut reduction = 0;
            if self.features.late_move_reductions
                && depth >= 3
                && pass.searched > usize::from(pv_node)
                && quiet
                && !gives_check
                && !in_check
            {
                reduction = self
                    .reduction_terms(node, pos, m, continuation_score)
                    .clamp(0, new_depth - 1);
            }

            // Step 11b. The first move with the full window, the others with a null window
            // (reduced), the start of the re-search chain 11c-11f.
            node.quiet = quiet;
            node.move_alpha = a;
            node.extension = extension;
            node.new_depth = new_depth;
            self.stack[ply].double_extensions = node.double_extensions + u8::from(extension >= 2);
            node.reduction = reduction;
            let search = if pass.searched == 0 {
                ChildSearch::new(
                    ChildKind::Main,
                    new_depth,
                    ply,
                    (a, beta),
                    !pv_node && !facts.cut_node,
                )
            } else {
                ChildSearch::new(
                    ChildKind::ZeroWindow,
                    new_depth - reduction,
                    ply,
                    (a, a + 1),
                    true,
                )
            };
            return self.ask_made_move(node, pos, m, search);
        }
        self.finish_moves(node, pos)
    }

    /// Step 11a's reduction of quiet move `m` before its bounds: the table's by depth and
    /// moves searched, a ply less in PV nodes, for a killer or counter move and a good
    /// history, more where the eval is not improving, in expected cut nodes and once the
    /// node's children keep failing high. Step 10 may judge a quiet move by the depth it
    /// would leave.
    #[inline(always)]
    fn reduction_terms(
        &self,
        node: &Node,
        pos: &Position,
        m: Move,
        continuation_score: i32,
    ) -> i32 {
        let (ply, pass) = (node.ply, &node.pass);
        let facts = &self.stack[ply].facts;
        let mut reduction = i32::from(self.lmr[pass.depth.min(63) as usize][pass.searched.min(63)]);
        reduction -= i32::from(facts.tt_pv);
        reduction += i32::from(!facts.improving);
        let params = &self.features.params;
        reduction += params.lmr_cut_node * i32::from(facts.cut_node);
        if self.features.cutoff_count && self.stack[ply + 1].cutoffs > 3 {
            reduction += 1;
        }
        if self.stack[ply].is_killer(m) || m == pass.counter {
            reduction -= 1;
        }
        let threats = self.stack[ply].picker.threats();
        let history = self.tables.history(pos.side_to_move(), m, threats) + continuation_score;
        reduction -= history_plies(history, params.lmr_history_divisor);
        reduction
    }

    /// Step 11c. A reduced move that beat alpha at its null window: again at full depth.
    fn after_zero_window(&mut self, node: &mut Node, pos: &Position, score: i32) -> Step {
        if score > node.move_alpha && node.reduction > 0 && !self.stopped {
            // A reduced move that beat the best so far by far earns a ply more in its
            // re-searches; one that barely beat it a ply less.
            if self.features.research_depth {
                let reduced_depth = node.new_depth - node.reduction;
                let params = &self.features.params;
                if score > node.pass.best + params.deeper_margin + 2 * node.new_depth {
                    node.new_depth += 1;
                } else if score < node.pass.best + params.shallower_margin {
                    node.new_depth -= 1;
                }
                if node.new_depth <= reduced_depth {
                    return self.after_full_depth(node, pos, score);
                }
            }
            return node.ask(ChildSearch::new(
                ChildKind::FullDepth,
                node.new_depth,
                node.ply,
                (node.move_alpha, node.move_alpha + 1),
                !self.stack[node.ply].facts.cut_node,
            ));
        }
        self.after_full_depth(node, pos, score)
    }

    /// Step 11d. A null-window score inside the window: again with the full window (PVS).
    fn after_full_depth(&mut self, node: &mut Node, pos: &Position, score: i32) -> Step {
        if score > node.move_alpha && score < node.beta && !self.stopped {
            return node.ask(ChildSearch::new(
                ChildKind::PvsReSearch,
                node.new_depth,
                node.ply,
                (node.move_alpha, node.beta),
                false,
            ));
        }
        self.after_move_window_searches(node, pos, score)
    }

    /// Step 11e. In a self-deepening IID pass, a shallow fail high is checked at full depth
    /// right away.
    fn after_move_window_searches(&mut self, node: &mut Node, pos: &Position, score: i32) -> Step {
        let pass = &node.pass;
        if score >= node.beta && pass.depth < pass.full_depth && !self.stopped {
            return node.ask(ChildSearch::new(
                ChildKind::DeepeningReSearch,
                pass.full_depth - 1 + node.extension,
                node.ply,
                (node.move_alpha, node.beta),
                false,
            ));
        }
        self.after_move(node, pos, score)
    }

    /// Step 11f. A move that failed high at full depth settles the deepening passes (7c).
    fn after_deepening_re_search(&mut self, node: &mut Node, pos: &Position, score: i32) -> Step {
        if score >= node.beta {
            node.pass.proven_at_full_depth = true;
        }
        self.after_move(node, pos, score)
    }

    /// Step 12. The move's searches are done: keep the best, and stop at a cutoff.
    #[inline(always)]
    fn after_move(&mut self, node: &mut Node, pos: &Position, score: i32) -> Step {
        self.keys.pop();
        if self.stopped {
            node.pass.best = 0;
            node.pass.best_move = Move::NULL;
            node.pass.proven_at_full_depth = false;
            return self.pass_done(node, pos);
        }
        let (ply, m, quiet) = (node.ply, node.mv, node.quiet);
        debug_assert!(
            !node.pass.last || self.stack[ply].facts == node.facts,
            "a search of the node's own position ran inside its move loop"
        );
        node.pass.searched += 1;

        if score > node.pass.best {
            node.pass.best = score;
            if score > node.alpha {
                node.pass.best_move = m;
                if self.stack[ply].facts.pv_node {
                    self.stack.update_pv(ply, m);
                }
                if score >= node.beta {
                    // A cutoff: reward the move that caused it, and punish the moves of its
                    // kind tried before it.
                    let pass = &node.pass;
                    let frame = &mut self.stack[ply];
                    frame.cutoffs += 1;
                    let params = &self.features.params;
                    let reward = (
                        params.history_bonus(pass.depth),
                        params.history_malus(pass.depth),
                    );
                    if quiet {
                        frame.add_killer(m);
                        self.tables.set_counter(pass.previous, m);
                        self.tables.reward_quiet(
                            pos,
                            reward,
                            m,
                            frame.quiets_tried(),
                            &pass.continuation,
                            frame.picker.threats(),
                        );
                        self.tables
                            .reward_captures(pos, reward, None, frame.captures_tried());
                    } else {
                        self.tables
                            .reward_captures(pos, reward, Some(m), frame.captures_tried());
                    }
                    return self.finish_moves(node, pos);
                }
            }
        }
        if quiet {
            self.stack[ply].remember_quiet(m);
        } else {
            self.stack[ply].remember_capture(m);
        }
        self.next_move(node, pos)
    }

    /// Steps 13-15 once the moves are done.
    #[inline(always)]
    fn finish_moves(&mut self, node: &mut Node, pos: &Position) -> Step {
        let ply = node.ply;
        let facts = self.stack[ply].facts;
        let pass = &mut node.pass;
        // Step 13. No legal move: mate or stalemate.
        if node.moves_seen == 0 {
            pass.best = if facts.in_check {
                -MATE + ply as i32
            } else {
                DRAW
            };
            pass.best_move = Move::NULL;
            pass.proven_at_full_depth = true;
            return self.pass_done(node, pos);
        }

        // Step 14. Store the result.
        if pass.depth == pass.full_depth {
            pass.proven_at_full_depth = true;
        }
        let (best, best_move) = (pass.best, pass.best_move);
        let bound = if best >= node.beta {
            Bound::Lower
        } else if !best_move.is_null() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if self.stack[ply].excluded_move.is_null() {
            let raw_eval = facts.raw_eval;
            let static_eval = if facts.in_check { 0 } else { raw_eval };
            self.tt.store(
                pos.key(),
                ply,
                best_move,
                best,
                static_eval,
                pass.depth,
                bound,
                facts.tt_pv,
            );
            // Step 15. Learn the static eval's error from a result that bounds it from the
            // right side: quiet best moves only (captures are for quiescence to see).
            if self.features.correction_history
                && !facts.in_check
                && !best_move.is_tactical()
                && !is_decisive(best)
                && bound.says_more_than(best, facts.static_eval)
            {
                self.tables
                    .correction
                    .update(&node.correction_keys, pass.depth, best - raw_eval);
            }
        }
        self.pass_done(node, pos)
    }

    /// Step 15 ends a pass of the move loop with its result in `node.pass`: the node's value,
    /// or the next deepening pass (7c).
    fn pass_done(&mut self, node: &mut Node, pos: &Position) -> Step {
        if node.pass.last {
            Step::Value(node.pass.best)
        } else {
            self.after_deepening_pass(node, pos)
        }
    }

    // ------------------------------------------------------------------------------------
    // Quiescence
    // ------------------------------------------------------------------------------------

    #[inline(always)]
    fn enter_quiescence(&mut self, node: &mut Node, pos: &Position) -> Step {
        let (alpha, beta, ply) = (node.alpha, node.beta, node.ply);
        // Q1. Count the node, stop if told to; the ply cap and dead draws.
        self.count_node();
        if self.stopped {
            return Step::Value(0);
        }
        self.stack[ply].pv_len = ply;
        self.selective_depth = self.selective_depth.max(ply);
        if ply >= MAX_PLY - 4 {
            return Step::Value(self.stack.evaluate(pos, ply, &self.features.evaluation));
        }
        if pos.is_insufficient_material() {
            return Step::Value(DRAW);
        }

        // Q2. The table, at depth 0.
        let tt_hit = self.tt.probe(pos.key(), ply);
        let pv_node = beta - alpha > 1;
        if let Some(hit) = tt_hit
            && !pv_node
            && hit.cuts_off(alpha, beta)
        {
            return Step::Value(hit.score);
        }

        // Q3. Stand pat, unless in check (then every evasion is searched). Quiescence keeps
        // its facts in the node only: no other ply reads them.
        let in_check = pos.in_check();
        node.facts.pv_node = pv_node;
        node.facts.tt_pv = pv_node || self.features.tt_pv && tt_hit.is_some_and(|h| h.was_pv);
        node.facts.in_check = in_check;
        let mut pass = MovePass::default();
        let continuation = self.continuation_slots(ply);
        if in_check {
            node.stand_pat = -INFINITY;
        } else {
            let static_eval = tt_hit.map_or_else(
                || self.stack.evaluate(pos, ply, &self.features.evaluation),
                |h| h.static_eval,
            );
            node.facts.raw_eval = static_eval;
            let static_eval = if self.features.correction_history {
                self.corrected(static_eval, &CorrectionKeys::new(pos, &continuation))
            } else {
                static_eval
            };
            let stand_pat = match tt_hit {
                Some(hit) if self.features.tt_eval => refined_eval(static_eval, hit),
                _ => static_eval,
            };
            if stand_pat >= beta {
                return Step::Value(stand_pat);
            }
            node.alpha = alpha.max(stand_pat);
            node.stand_pat = stand_pat;
            pass.best = stand_pat;
        }

        let tt_move = tt_hit.map_or(Move::NULL, |h| h.best_move);
        node.facts.tt_move = tt_move;
        let frame = &mut self.stack[ply];
        if in_check {
            let killers = frame.killers;
            frame.picker.reset_main(
                tt_move,
                killers,
                Move::NULL,
                continuation,
                self.features.threat_ordering,
            );
        } else if node.kind == ChildKind::NullMove {
            // Straight after a pass: a mate threat is a quiet check, which plain quiescence
            // would not see, and the null move would cut on it.
            frame.picker.reset_quiescence_with_checks(tt_move);
        } else {
            frame.picker.reset_quiescence(tt_move);
        }
        node.pass = pass;
        node.moves_seen = 0;
        self.next_quiescence_move(node, pos)
    }

    #[inline(always)]
    fn next_quiescence_move(&mut self, node: &mut Node, pos: &Position) -> Step {
        let ply = node.ply;
        let (in_check, tt_move) = (node.facts.in_check, node.facts.tt_move);
        while let Some(m) = self.stack[ply].picker.next(pos, self.tables) {
            node.moves_seen += 1;
            if !in_check && m.is_tactical() {
                // Q4. Delta pruning: even winning the piece cannot lift us to alpha.
                let gain = if m.is_capture() {
                    piece_value(captured_kind(pos, m))
                } else {
                    0
                } + m
                    .promotion()
                    .map_or(0, |k| piece_value(k) - piece_value(PieceKind::Pawn));
                if node.stand_pat + gain + self.features.params.delta_margin <= node.alpha {
                    continue;
                }
                // Q5. Losing captures cannot help. The picker hands out no others, except
                // the TT move.
                if m == tt_move && !see_at_least(pos, m, 0) {
                    continue;
                }
            }
            // Q6. Search the capture (or evasion, or check after a null move).
            let search = ChildSearch::new(
                ChildKind::Quiescence,
                0,
                ply,
                (node.alpha, node.beta),
                false,
            );
            return self.ask_move(node, pos, m, search);
        }
        self.finish_quiescence(node, pos)
    }

    /// Q7. Keep the best, and stop at a cutoff.
    #[inline(always)]
    fn after_quiescence_move(&mut self, node: &mut Node, pos: &Position, score: i32) -> Step {
        self.keys.pop();
        if self.stopped {
            return Step::Value(0);
        }
        if score > node.pass.best {
            node.pass.best = score;
            if score > node.alpha {
                node.alpha = score;
                node.pass.best_move = node.mv;
                if node.facts.pv_node {
                    self.stack.update_pv(node.ply, node.mv);
                }
                if score >= node.beta {
                    return self.finish_quiescence(node, pos);
                }
            }
        }
        self.next_quiescence_move(node, pos)
    }

    /// Q8. Mate when in check without a move; store the result.
    #[inline(always)]
    fn finish_quiescence(&mut self, node: &mut Node, pos: &Position) -> Step {
        let (pass, facts) = (&node.pass, &node.facts);
        if facts.in_check && node.moves_seen == 0 {
            return Step::Value(-MATE + node.ply as i32);
        }
        let bound = if pass.best >= node.beta {
            Bound::Lower
        } else if !pass.best_move.is_null() && facts.pv_node {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let static_eval = if facts.in_check { 0 } else { facts.raw_eval };
        self.tt.store(
            pos.key(),
            node.ply,
            pass.best_move,
            pass.best,
            static_eval,
            0,
            bound,
            facts.tt_pv,
        );
        Step::Value(pass.best)
    }
}

/// Late-move reductions: plies off (at most 2) or on (1) a move's reduction for its history,
/// `(history / divisor).clamp(-1, 2)` by comparisons: the divisor is tunable, so a division
/// would be a real one for every reduced move.
#[inline(always)]
fn history_plies(history: i32, divisor: i32) -> i32 {
    if history >= 2 * divisor {
        2
    } else if history >= divisor {
        1
    } else if history > -divisor {
        0
    } else {
        -1
    }
}

/// The static evaluation, or the table's score where its bound says the search found the
/// position better (a lower bound above it) or worse (an upper bound below it) than that.
/// Mate scores stay out: they are no estimate of a quiet position.
#[inline(always)]
fn refined_eval(static_eval: i32, hit: TtHit) -> i32 {
    if hit.bound.says_more_than(hit.score, static_eval) && !is_decisive(hit.score) {
        hit.score
    } else {
        static_eval
    }
}

#[cfg(test)]
mod tests {
    use super::history_plies;

    #[test]
    fn history_plies_are_the_clamped_quotient() {
        for divisor in [1, 7, 1024, 8192, 32768] {
            for history in (-100_000..=100_000)
                .step_by(97)
                .chain([-divisor, divisor, 2 * divisor])
            {
                assert_eq!(
                    history_plies(history, divisor),
                    (history / divisor).clamp(-1, 2),
                    "{history} / {divisor}"
                );
            }
        }
    }
}
