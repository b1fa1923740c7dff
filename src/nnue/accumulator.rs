//! The hidden layer before its activation, one half per side's view, with the pieces it was
//! computed for. Moving to another position adds the rows of the pieces that appeared and
//! subtracts those that left, so a child costs a move's two to four rows, not thirty-two.

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

fn changes(a: &Pieces, b: &Pieces) -> u32 {
    a.iter()
        .flatten()
        .zip(b.iter().flatten())
        .map(|(x, y)| (x ^ y).count_ones())
        .sum()
}

#[inline]
fn add(values: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (v, w) in values.iter_mut().zip(row) {
        *v = v.wrapping_add(*w);
    }
}

#[inline]
fn sub(values: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (v, w) in values.iter_mut().zip(row) {
        *v = v.wrapping_sub(*w);
    }
}

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
        self.values = [net.transformer_biases; 2];
        self.pieces = [[0; 6]; 2];
        self.computed = true;
        self.apply_changes(net, pieces_of(pos));
    }

    /// Brings the values to `pos`, starting from whichever of this accumulator's old values
    /// and `parent`'s is fewer pieces away, or from scratch when neither is close.
    pub fn update(&mut self, net: &Network, pos: &Position, parent: Option<&Accumulator>) {
        let target = pieces_of(pos);
        let own = if self.computed {
            changes(&self.pieces, &target)
        } else {
            u32::MAX
        };
        let from_parent = parent
            .filter(|p| p.computed)
            .map_or(u32::MAX, |p| changes(&p.pieces, &target));
        if own.min(from_parent) > MAX_CHANGES_TO_UPDATE {
            self.refresh(net, pos);
            return;
        }
        if from_parent < own
            && let Some(parent) = parent
        {
            self.values = parent.values;
            self.pieces = parent.pieces;
            self.computed = true;
        }
        self.apply_changes(net, target);
    }

    /// Subtracts the rows of pieces gone since `self.pieces`, then adds the new ones.
    fn apply_changes(&mut self, net: &Network, target: Pieces) {
        for add_pass in [false, true] {
            for color in Color::BOTH {
                for kind in PieceKind::ALL {
                    let old = self.pieces[color.index()][kind.index()];
                    let new = target[color.index()][kind.index()];
                    let mut squares = if add_pass { new & !old } else { old & !new };
                    while squares != 0 {
                        let sq = Square::new(squares.trailing_zeros() as u8);
                        squares &= squares - 1;
                        for view in Color::BOTH {
                            let row = net.row(feature(view, color, kind, sq));
                            let values = &mut self.values[view.index()];
                            if add_pass {
                                add(values, row);
                            } else {
                                sub(values, row);
                            }
                        }
                    }
                }
            }
        }
        self.pieces = target;
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
