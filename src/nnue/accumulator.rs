//! The hidden layer before its activation, one half per side's view, with the pieces it was
//! computed for. Moving to another position adds the rows of the pieces that appeared and
//! subtracts those that left, so a child costs a move's two to four rows, not thirty-two.

use super::simd::{self, SimdPath};
use super::{HIDDEN, Network, feature};
use crate::board::{Color, PieceKind, Position, Square};

/// Past this many changed pieces a refresh (at most 32 rows) is as cheap as an update.
const MAX_CHANGES_TO_UPDATE: u32 = 16;

/// The pieces of a position by colour and kind, as bitboards.
type Pieces = [[u64; 6]; 2];

#[derive(Clone)]
pub struct Accumulator {
    /// White's view, then Black's.
    values: [[i16; HIDDEN]; 2],
    pieces: Pieces,
    computed: bool,
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            values: [[0; HIDDEN]; 2],
            pieces: [[0; 6]; 2],
            computed: false,
        }
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
/// (`added`), for each view (White's, Black's).
struct PieceChanges<const CAPACITY: usize> {
    removed: [FeatureList<CAPACITY>; 2],
    added: [FeatureList<CAPACITY>; 2],
}

impl<const CAPACITY: usize> PieceChanges<CAPACITY> {
    /// Panics if more than CAPACITY pieces changed; callers bound the count.
    fn between(from: &Pieces, to: &Pieces) -> Self {
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
                            lists[view.index()].push(feature(view, color, kind, sq));
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

impl Accumulator {
    /// (side's view, other side's view).
    pub fn perspectives(&self, side: Color) -> (&[i16; HIDDEN], &[i16; HIDDEN]) {
        let [white, black] = &self.values;
        match side {
            Color::White => (white, black),
            Color::Black => (black, white),
        }
    }

    /// Computes the values for `pos` from the biases and every piece.
    pub fn refresh(&mut self, net: &Network, pos: &Position) {
        self.refresh_with(SimdPath::active(), net, pos);
    }

    /// `refresh` on the given code path (tests compare the paths).
    pub fn refresh_with(&mut self, path: SimdPath, net: &Network, pos: &Position) {
        let target = pieces_of(pos);
        let pieces = PieceChanges::<MAX_PIECES>::between(&[[0; 6]; 2], &target);
        for view in Color::BOTH {
            simd::apply_rows(
                path,
                &mut self.values[view.index()],
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
    /// and `parent`'s is fewer pieces away, or from scratch when neither is close.
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
        let target = pieces_of(pos);
        let own = if self.computed {
            changes(path, &self.pieces, &target)
        } else {
            u32::MAX
        };
        let parent = parent.filter(|p| p.computed);
        let from_parent = parent.map_or(u32::MAX, |p| changes(path, &p.pieces, &target));
        if own.min(from_parent) > MAX_CHANGES_TO_UPDATE {
            self.refresh_with(path, net, pos);
            return;
        }
        // Starting from the parent reads its values and writes ours in the same pass, so
        // they are never copied first.
        let parent = parent.filter(|_| from_parent < own);
        let from = parent.map_or(&self.pieces, |p| &p.pieces);
        let changed = PieceChanges::<{ MAX_CHANGES_TO_UPDATE as usize }>::between(from, &target);
        for view in Color::BOTH {
            let (added, removed) = (
                changed.added[view.index()].as_slice(),
                changed.removed[view.index()].as_slice(),
            );
            if parent.is_none() && added.is_empty() && removed.is_empty() {
                continue;
            }
            simd::apply_rows(
                path,
                &mut self.values[view.index()],
                parent.map(|p| &p.values[view.index()]),
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

    /// The values of both views (tests compare them).
    pub fn values(&self) -> &[[i16; HIDDEN]; 2] {
        &self.values
    }
}
