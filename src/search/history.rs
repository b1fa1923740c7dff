//! The history tables a search thread learns from its cutoffs, each a small type over one flat
//! array of `i16`: butterfly (side, whether origin and target are attacked, from, to),
//! continuation ((piece, to) of a move one, two or four plies back, then this move's piece
//! and target) and capture (piece, target, captured kind).
//! The eval's correction tables are in `correction.rs`.

use crate::board::{Color, Move, MoveKind, Piece, PieceKind, Position};

/// Every history entry stays within `-HISTORY_MAX..=HISTORY_MAX`.
pub const HISTORY_MAX: i32 = 16_384;

/// Gravity update: the entry moves by `bonus`, less the share of it that would carry the entry
/// past the bound, so repeated bonuses saturate and old knowledge fades. With `|entry|` and
/// `|bonus|` at most `HISTORY_MAX` the result is too.
#[inline]
fn apply_gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let value = i32::from(*entry);
    *entry = (value + bonus - value * bonus.abs() / HISTORY_MAX) as i16;
}

/// The (piece, target square) of a move: one row of a continuation table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

impl PieceTo {
    pub fn new(piece: Piece, m: Move) -> PieceTo {
        PieceTo((piece.index() * 64 + m.to().index()) as u16)
    }

    #[inline]
    pub(super) fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A node's continuation-history keys: the moves one, two and four plies back (the last
/// `None` unless `Fourth Ply Continuation` is on; any `None` after a null move or near the
/// root). Every slot reads and trains the same table, as Stockfish's plies do.
pub type ContinuationSlots = [Option<PieceTo>; 3];

/// Quiet moves by side, by which of origin and target the opponent attacks (`threat`, 0-3:
/// `ordering::Threats::index`), then by origin and target.
pub struct ButterflyHistory(Vec<i16>);

impl Default for ButterflyHistory {
    fn default() -> Self {
        ButterflyHistory(vec![0; 2 * 4 * 64 * 64])
    }
}

impl ButterflyHistory {
    #[inline]
    fn index(side: Color, m: Move, threat: usize) -> usize {
        (side.index() * 4 + threat) * 4096 + m.from().index() * 64 + m.to().index()
    }

    #[inline]
    pub fn get(&self, side: Color, m: Move, threat: usize) -> i32 {
        i32::from(self.0[Self::index(side, m, threat)])
    }

    pub fn update(&mut self, side: Color, m: Move, threat: usize, bonus: i32) {
        apply_gravity(&mut self.0[Self::index(side, m, threat)], bonus);
    }
}

/// Quiet moves by the (piece, target) of an earlier move and their own (piece, target).
pub struct ContinuationHistory(Vec<i16>);

const PIECE_TO_COUNT: usize = 12 * 64;

impl Default for ContinuationHistory {
    fn default() -> Self {
        ContinuationHistory(vec![0; PIECE_TO_COUNT * PIECE_TO_COUNT])
    }
}

impl ContinuationHistory {
    #[inline]
    pub fn get(&self, earlier: PieceTo, now: PieceTo) -> i32 {
        i32::from(self.0[earlier.index() * PIECE_TO_COUNT + now.index()])
    }

    pub fn update(&mut self, earlier: PieceTo, now: PieceTo, bonus: i32) {
        apply_gravity(
            &mut self.0[earlier.index() * PIECE_TO_COUNT + now.index()],
            bonus,
        );
    }
}

/// Captures (and queen promotions) by moving piece, target and captured kind; a promotion that
/// captures nothing uses the king's slot, which no capture can take.
pub struct CaptureHistory(Vec<i16>);

impl Default for CaptureHistory {
    fn default() -> Self {
        CaptureHistory(vec![0; 12 * 64 * 6])
    }
}

impl CaptureHistory {
    #[inline]
    fn index(pos: &Position, m: Move) -> Option<usize> {
        let piece = pos.piece_at(m.from())?;
        let captured = if m.kind() == MoveKind::EnPassant {
            PieceKind::Pawn
        } else {
            pos.piece_at(m.to()).map_or(PieceKind::King, |p| p.kind)
        };
        Some((piece.index() * 64 + m.to().index()) * 6 + captured.index())
    }

    /// The entry of `m`, a capture or promotion in `pos`.
    #[inline]
    pub fn get(&self, pos: &Position, m: Move) -> i32 {
        Self::index(pos, m).map_or(0, |i| i32::from(self.0[i]))
    }

    pub fn update(&mut self, pos: &Position, m: Move, bonus: i32) {
        if let Some(i) = Self::index(pos, m) {
            apply_gravity(&mut self.0[i], bonus);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stat_bonus(depth: i32) -> i32 {
        crate::search::SearchParams::default().history_bonus(depth)
    }

    #[test]
    fn gravity_keeps_every_entry_within_the_bound() {
        let mut entry = 0i16;
        let mut seed = 12345u32;
        for step in 0..200_000 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            // Runs of one sign drive the entry to the bound; huge bonuses are clamped.
            let magnitude = (seed >> 8) as i32 % (3 * HISTORY_MAX);
            let sign = if (step / 1000) % 2 == 0 { 1 } else { -1 };
            let bonus = if seed.is_multiple_of(7) {
                -sign * magnitude
            } else {
                sign * magnitude
            };
            apply_gravity(&mut entry, bonus);
            assert!(
                i32::from(entry).abs() <= HISTORY_MAX,
                "{entry} after {bonus}"
            );
        }
    }

    #[test]
    fn repeated_bonuses_saturate_at_the_bound() {
        let mut entry = 0i16;
        for _ in 0..1000 {
            apply_gravity(&mut entry, stat_bonus(12));
        }
        assert!(i32::from(entry) > HISTORY_MAX * 99 / 100);
        assert!(i32::from(entry) <= HISTORY_MAX);
        // A malus undoes a share proportional to how full the entry is.
        let before = i32::from(entry);
        apply_gravity(&mut entry, -stat_bonus(4));
        assert!(i32::from(entry) < before - stat_bonus(4));
    }
}
