//! Per-ply search state: one `Frame` for each ply of the path from the root, in the manner of
//! Stockfish's `Stack` and Ethereal's `NodeState`. A node reads what its ancestors left in
//! their frames and keeps in its own frame what its children and other plies read; what only
//! the node itself needs between its steps is in its `alphabeta::node::Node`.

use std::ops::{Index, IndexMut};

use crate::board::{Move, Piece, Position};
use crate::nnue::{Accumulator, Evaluation};

use super::history::PieceTo;
use super::picker::MovePicker;
use super::score::MAX_PLY;

/// Frames beyond `MAX_PLY`: a node at the last ply still writes its own frame and reads two
/// plies back.
pub const FRAME_COUNT: usize = MAX_PLY + 4;

/// How many quiet moves a node remembers for the history malus at a cutoff.
pub const QUIETS_REMEMBERED: usize = 64;
/// How many captures a node remembers for the capture-history malus at a cutoff.
pub const CAPTURES_REMEMBERED: usize = 32;

/// What a node learns of its position before its move loop (steps 3-7b), which its move loop
/// and the plies below read. The node keeps them in its `Node`, its frame a copy.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct NodeFacts {
    /// Static evaluation of the node, corrected by the correction history; `-INFINITY` when
    /// in check.
    pub static_eval: i32,
    /// The evaluation before correction (what the transposition table keeps).
    pub raw_eval: i32,
    /// Is the static evaluation better than two plies before (same side to move)?
    pub improving: bool,
    pub in_check: bool,
    /// Expected to fail high (a child of a PV-less node's first move, or of a null window).
    pub cut_node: bool,
    /// Searched with a window wider than a null window.
    pub pv_node: bool,
    /// A PV node now or, by the table, when this position was last searched (with `TT PV`;
    /// without it the same as `pv_node`).
    pub tt_pv: bool,
    /// The move from the transposition table, tried first; `Move::NULL` if none.
    pub tt_move: Move,
    /// The extension the singular search gave the TT move: 1 singular, -1 not singular and
    /// expected to fail high anyway, 0 not tested.
    pub tt_extension: i32,
}

/// The state of the node at one ply. The searches of a node's own position (null-move
/// verification, classic IID, the singular search) run at its ply and overwrite its frame;
/// they all finish before its full-depth move loop starts (step 8), which sets the node's
/// facts here again, and until the node returns only its children, a ply deeper, search.
/// `alphabeta::node` checks with a `debug_assert!` after each move that the facts held.
#[derive(Clone)]
pub struct Frame {
    pub facts: NodeFacts,
    /// The move made from this node into the next ply (`Move::NULL` for a null move).
    pub current_move: Move,
    /// The piece that made `current_move` (the key of continuation histories).
    pub moved_piece: Option<Piece>,
    /// Quiet moves that refuted siblings at this ply.
    pub killers: [Move; 2],
    /// The move a singular search leaves out; `Move::NULL` when the node searches them all.
    pub excluded_move: Move,
    /// Double extensions on the path from the root through `current_move` (before the node
    /// chooses a move: to the node), which caps them per line.
    pub double_extensions: u8,
    /// Beta cutoffs of the nodes at this ply since their parent's move loop began: many of
    /// them say the parent's moves are being refuted, so its later moves are reduced more.
    pub cutoffs: u32,
    /// Quiet moves searched so far without a cutoff, for the history malus.
    pub quiets_tried: [Move; QUIETS_REMEMBERED],
    pub quiet_count: usize,
    /// Captures and promotions searched so far without a cutoff, for the capture-history malus.
    pub captures_tried: [Move; CAPTURES_REMEMBERED],
    pub capture_count: usize,
    /// Hands out the node's moves in order.
    pub picker: MovePicker,
    /// Triangular principal variation: `pv[ply..pv_len]` is this node's best line.
    pub pv: [Move; MAX_PLY + 1],
    pub pv_len: usize,
    /// The network's hidden layer for the last position evaluated at this ply; a child
    /// updates from it, and unmaking a move leaves it as it was.
    pub accumulator: Accumulator,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            facts: NodeFacts::default(),
            current_move: Move::NULL,
            moved_piece: None,
            killers: [Move::NULL; 2],
            excluded_move: Move::NULL,
            double_extensions: 0,
            cutoffs: 0,
            quiets_tried: [Move::NULL; QUIETS_REMEMBERED],
            quiet_count: 0,
            captures_tried: [Move::NULL; CAPTURES_REMEMBERED],
            capture_count: 0,
            picker: MovePicker::default(),
            pv: [Move::NULL; MAX_PLY + 1],
            pv_len: 0,
            accumulator: Accumulator::default(),
        }
    }
}

impl Frame {
    /// Makes `m` the first killer, keeping the old first as the second.
    pub fn add_killer(&mut self, m: Move) {
        if self.killers[0] != m {
            self.killers[1] = self.killers[0];
            self.killers[0] = m;
        }
    }

    pub fn is_killer(&self, m: Move) -> bool {
        m == self.killers[0] || m == self.killers[1]
    }

    pub fn remember_quiet(&mut self, m: Move) {
        if self.quiet_count < QUIETS_REMEMBERED {
            self.quiets_tried[self.quiet_count] = m;
            self.quiet_count += 1;
        }
    }

    pub fn quiets_tried(&self) -> &[Move] {
        &self.quiets_tried[..self.quiet_count]
    }

    pub fn remember_capture(&mut self, m: Move) {
        if self.capture_count < CAPTURES_REMEMBERED {
            self.captures_tried[self.capture_count] = m;
            self.capture_count += 1;
        }
    }

    pub fn captures_tried(&self) -> &[Move] {
        &self.captures_tried[..self.capture_count]
    }

    /// The continuation-history slot of the move made from this node: its piece and target;
    /// `None` after a null move.
    pub fn continuation_slot(&self) -> Option<PieceTo> {
        self.moved_piece.map(|p| PieceTo::new(p, self.current_move))
    }
}

/// The frames of one search thread, indexed by ply; they live on the heap so a deep search
/// needs no large call stack.
pub struct SearchStack {
    frames: Vec<Frame>,
}

impl SearchStack {
    /// The frames of a search with `evaluation`, their accumulators sized for its network,
    /// so evaluating never allocates.
    pub fn new(evaluation: &Evaluation) -> SearchStack {
        let mut frame = Frame::default();
        if let Evaluation::Nnue(net) = evaluation {
            frame.accumulator = Accumulator::for_network(net);
        }
        SearchStack {
            frames: vec![frame; FRAME_COUNT],
        }
    }

    /// Copies the child's line behind `m` into the line of the node at `ply`.
    pub fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.frames.split_at_mut(ply + 1);
        let node = &mut head[ply];
        let child = &tail[0];
        node.pv[ply] = m;
        let child_len = child.pv_len.max(ply + 1);
        node.pv[ply + 1..child_len].copy_from_slice(&child.pv[ply + 1..child_len]);
        node.pv_len = child_len;
    }

    /// The static evaluation of `pos`, the node at `ply`. The network's accumulator at
    /// `ply` is brought up to date from the parent's (or this ply's previous one), so
    /// evaluating costs the pieces that changed, with no hook at make or unmake.
    pub fn evaluate(&mut self, pos: &Position, ply: usize, evaluation: &Evaluation) -> i32 {
        match evaluation {
            Evaluation::Classical => crate::eval::evaluate(pos),
            Evaluation::Nnue(net) => {
                let (before, rest) = self.frames.split_at_mut(ply);
                let accumulator = &mut rest[0].accumulator;
                accumulator.update(net, pos, before.last().map(|f| &f.accumulator));
                net.finish(pos, accumulator)
            }
        }
    }

    /// The best line of the node at `ply`.
    pub fn pv(&self, ply: usize) -> &[Move] {
        let frame = &self.frames[ply];
        &frame.pv[ply..frame.pv_len.max(ply)]
    }
}

impl Index<usize> for SearchStack {
    type Output = Frame;
    #[inline]
    fn index(&self, ply: usize) -> &Frame {
        &self.frames[ply]
    }
}

impl IndexMut<usize> for SearchStack {
    #[inline]
    fn index_mut(&mut self, ply: usize) -> &mut Frame {
        &mut self.frames[ply]
    }
}
