//! The hidden layer before its activation, one half per side's view, with the pieces it was
//! computed for. Moving to another position adds the rows of the pieces that appeared and
//! subtracts those that left, so a child costs a move's two to four rows, not thirty-two;
//! a view whose inputs change with the move (its king crosses the mirroring line of its
//! `InputTransform` or into another king bucket) is computed afresh.
//!
//! The values of a network of width H are 2H i16s on the heap (White's view, then Black's,
//! side by side), sized when the accumulator is made: the search makes its stack's for its
//! network (`Accumulator::for_network`), so evaluating never allocates, and a search frame
//! stays as small as at width 128. Used with a network of another width (tests, tools),
//! an accumulator is resized and computed afresh.

use super::simd::{self, SimdPath};
use super::{DEFAULT_HIDDEN, InputTransform, Network, ViewInputs, square_mask};
use crate::board::{Color, PieceKind, Position, Square};

/// Past this many changed pieces a refresh (at most 32 rows) is as cheap as an update.
const MAX_CHANGES_TO_UPDATE: u32 = 16;

/// The pieces of a position by colour and kind, as bitboards.
type Pieces = [[u64; 6]; 2];

#[derive(Clone)]
pub struct Accumulator {
    /// White's view in `[..H]`, then Black's in `[H..2H]`, H the width it is sized for.
    values: Box<[i16]>,
    pieces: Pieces,
    computed: bool,
}

/// The trainer's default width; `refresh` and `update` resize it to their network's.
impl Default for Accumulator {
    fn default() -> Self {
        Accumulator::with_hidden(DEFAULT_HIDDEN)
    }
}

fn pieces_of(pos: &Position) -> Pieces {
    let mut pieces = [[0; 6]; 2];
    for color in Color::BOTH {
        for kind in PieceKind::ALL {
            pieces[color.index()][kind.index()] = pos.pieces(color, kind).0;
        }
    }
    pieces
}

/// Each view's inputs (White's, Black's) for the position of `pieces` under `net`. Plain
/// networks without king buckets return at once: their updates pay nothing.
#[inline]
fn view_inputs_at(net: &Network, pieces: &Pieces) -> [ViewInputs; 2] {
    if net.input_transform == InputTransform::Plain && net.king_buckets.count() == 1 {
        return Color::BOTH.map(|view| ViewInputs {
            square_mask: square_mask(view, false),
            offset: 0,
        });
    }
    Color::BOTH.map(|view| {
        let kings = pieces[view.index()][PieceKind::King.index()];
        // A position always has its kings; `& 63` only keeps an empty board's a1 in range.
        let king = Square::new((kings.trailing_zeros() & 63) as u8);
        net.view_inputs(view, king)
    })
}

/// How many pieces differ between `a` and `b`.
fn changes(path: SimdPath, a: &Pieces, b: &Pieces) -> u32 {
    simd::count_differences(
        path,
        a.as_flattened().try_into().unwrap(),
        b.as_flattened().try_into().unwrap(),
    )
}

/// Input features to add or subtract, on the stack: the hot path allocates nothing.
struct FeatureList<const CAPACITY: usize> {
    features: [u16; CAPACITY],
    len: usize,
}

impl<const CAPACITY: usize> FeatureList<CAPACITY> {
    fn new() -> Self {
        FeatureList {
            features: [0; CAPACITY],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, feature: usize) {
        self.features[self.len] = feature as u16;
        self.len += 1;
    }

    fn as_slice(&self) -> &[u16] {
        &self.features[..self.len]
    }
}

/// The features of the pieces in `from` and not `to` (`removed`) and in `to` and not `from`
/// (`added`), for each view (White's, Black's), through that view's `inputs`.
struct PieceChanges<const CAPACITY: usize> {
    removed: [FeatureList<CAPACITY>; 2],
    added: [FeatureList<CAPACITY>; 2],
}

impl<const CAPACITY: usize> PieceChanges<CAPACITY> {
    /// Panics if more than CAPACITY pieces changed; callers bound the count.
    fn between(from: &Pieces, to: &Pieces, inputs: [ViewInputs; 2]) -> Self {
        let mut changes = PieceChanges {
            removed: [FeatureList::new(), FeatureList::new()],
            added: [FeatureList::new(), FeatureList::new()],
        };
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                let old = from[color.index()][kind.index()];
                let new = to[color.index()][kind.index()];
                for (mut squares, lists) in [
                    (old & !new, &mut changes.removed),
                    (new & !old, &mut changes.added),
                ] {
                    while squares != 0 {
                        let sq = Square::new(squares.trailing_zeros() as u8);
                        squares &= squares - 1;
                        for view in Color::BOTH {
                            let feature = inputs[view.index()].feature(view, color, kind, sq);
                            lists[view.index()].push(feature);
                        }
                    }
                }
            }
        }
        changes
    }
}

/// A board has 64 squares: a refresh adds at most this many rows.
const MAX_PIECES: usize = 64;

/// An empty board: a refresh adds every piece of the target to it.
const NO_PIECES: Pieces = [[0; 6]; 2];

impl Accumulator {
    /// An accumulator for networks of width `hidden`, not yet computed.
    pub fn with_hidden(hidden: usize) -> Accumulator {
        Accumulator {
            values: vec![0; 2 * hidden].into_boxed_slice(),
            pieces: [[0; 6]; 2],
            computed: false,
        }
    }

    /// An accumulator for `net`'s width.
    pub fn for_network(net: &Network) -> Accumulator {
        Accumulator::with_hidden(net.hidden)
    }

    /// (side's view, other side's view), H values each.
    #[inline]
    pub fn perspectives(&self, side: Color) -> (&[i16], &[i16]) {
        let (white, black) = self.values.split_at(self.hidden());
        match side {
            Color::White => (white, black),
            Color::Black => (black, white),
        }
    }

    /// The width H it is sized for.
    #[inline]
    pub fn hidden(&self) -> usize {
        self.values.len() / 2
    }

    /// Sized for `net` (a fresh, uncomputed accumulator if it was not): the search's never
    /// change, as its stack is made for its network.
    #[inline]
    fn fit(&mut self, net: &Network) {
        if self.values.len() != 2 * net.hidden {
            *self = Accumulator::for_network(net);
        }
    }

    /// View `v`'s H values, to write.
    #[inline]
    fn view_mut(&mut self, v: usize) -> &mut [i16] {
        let h = self.hidden();
        &mut self.values[v * h..(v + 1) * h]
    }

    /// Computes the values for `pos` from the biases and every piece.
    pub fn refresh(&mut self, net: &Network, pos: &Position) {
        self.refresh_with(SimdPath::active(), net, pos);
    }

    /// `refresh` on the given code path (tests compare the paths).
    pub fn refresh_with(&mut self, path: SimdPath, net: &Network, pos: &Position) {
        let target = pieces_of(pos);
        let inputs = view_inputs_at(net, &target);
        let pieces = PieceChanges::<MAX_PIECES>::between(&NO_PIECES, &target, inputs);
        self.fit(net);
        for view in Color::BOTH {
            simd::apply_rows(
                path,
                self.view_mut(view.index()),
                Some(&net.transformer_biases),
                &net.transformer_weights,
                pieces.added[view.index()].as_slice(),
                &[],
            );
        }
        self.pieces = target;
        self.computed = true;
    }

    /// Brings the values to `pos`, starting from whichever of this accumulator's old values
    /// and `parent`'s is fewer pieces away, or from scratch when neither is close. A view
    /// whose inputs differ between the start and `pos` (its king crossed the d/e line of a
    /// mirrored network, or into another king bucket) sees every piece through other
    /// weights, so it alone is computed from the biases.
    pub fn update(&mut self, net: &Network, pos: &Position, parent: Option<&Accumulator>) {
        self.update_with(SimdPath::active(), net, pos, parent);
    }

    /// `update` on the given code path (tests compare the paths).
    pub fn update_with(
        &mut self,
        path: SimdPath,
        net: &Network,
        pos: &Position,
        parent: Option<&Accumulator>,
    ) {
        self.fit(net);
        let target = pieces_of(pos);
        let own = if self.computed {
            changes(path, &self.pieces, &target)
        } else {
            u32::MAX
        };
        // A parent of another width (never in a search) is no start.
        let parent = parent.filter(|p| p.computed && p.values.len() == self.values.len());
        let from_parent = parent.map_or(u32::MAX, |p| changes(path, &p.pieces, &target));
        if own.min(from_parent) > MAX_CHANGES_TO_UPDATE {
            self.refresh_with(path, net, pos);
            return;
        }
        // Starting from the parent reads its values and writes ours in the same pass, so
        // they are never copied first.
        let parent = parent.filter(|_| from_parent < own);
        let from = parent.map_or(&self.pieces, |p| &p.pieces);
        let inputs = view_inputs_at(net, &target);
        let from_inputs = view_inputs_at(net, from);
        type Changes = PieceChanges<{ MAX_CHANGES_TO_UPDATE as usize }>;
        let h = net.hidden;
        let changed = Changes::between(from, &target, inputs);
        for view in Color::BOTH {
            let v = view.index();
            if inputs[v] != from_inputs[v] {
                // This view's king changed its inputs: every piece it sees moved.
                let every_piece = PieceChanges::<MAX_PIECES>::between(&NO_PIECES, &target, inputs);
                simd::apply_rows(
                    path,
                    self.view_mut(v),
                    Some(&net.transformer_biases),
                    &net.transformer_weights,
                    every_piece.added[v].as_slice(),
                    &[],
                );
                continue;
            }
            let (added, removed) = (changed.added[v].as_slice(), changed.removed[v].as_slice());
            if parent.is_none() && added.is_empty() && removed.is_empty() {
                continue;
            }
            simd::apply_rows(
                path,
                &mut self.values[v * h..(v + 1) * h],
                parent.map(|p| &p.values[v * h..(v + 1) * h]),
                &net.transformer_weights,
                added,
                removed,
            );
        }
        self.pieces = target;
        self.computed = true;
    }

    /// Is this accumulator computed for `pos`'s pieces (tests)?
    pub fn is_for(&self, pos: &Position) -> bool {
        self.computed && self.pieces == pieces_of(pos)
    }

    /// The values of both views, White's H then Black's H (tests compare them).
    pub fn values(&self) -> &[i16] {
        &self.values
    }
}
