//! Correction histories: how far search results have stood from the static evaluation, learnt
//! per pawn structure, per each side's non-pawn pieces and per the last two moves, so the
//! evaluation that pruning reads errs less where the network is known to err.

use crate::board::{Bitboard, Color, PieceKind, Position};

use super::history::PieceTo;
use super::params::SearchParams;

/// Entries are kept in 1/`GRAIN` centipawns.
const GRAIN: i32 = 128;
/// No entry, and no summed correction, moves the static eval by more than this.
const MAX_CP: i32 = 128;
/// Slots of each position-keyed table, per side to move.
const SLOTS: usize = 1 << 14;
const PIECE_TO_COUNT: usize = 12 * 64;

/// One table of running averages of the eval's error, each entry within `±MAX_CP` centipawns.
#[derive(Default)]
struct Table(Vec<i16>);

impl Table {
    fn new(len: usize) -> Table {
        Table(vec![0; len])
    }

    #[inline]
    fn get(&self, index: usize) -> i32 {
        i32::from(self.0[index])
    }

    /// Moves the entry towards `error` centipawns by a share that grows with `depth`: a deep
    /// result is worth more than a shallow one, and no single result overwrites the average.
    fn update(&mut self, index: usize, depth: i32, error: i32) {
        let weight = (depth + 1).clamp(1, 16);
        let target = error.clamp(-MAX_CP, MAX_CP) * GRAIN;
        let entry = &mut self.0[index];
        let value = i32::from(*entry);
        *entry = ((value * (256 - weight) + target * weight) / 256)
            .clamp(-MAX_CP * GRAIN, MAX_CP * GRAIN) as i16;
    }
}

/// A hash of some bitboards into `SLOTS`, mixed so that nearby structures spread out.
#[inline]
fn slot(boards: &[Bitboard]) -> usize {
    const MULTIPLIERS: [u64; 6] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0xD6E8_FEB8_6659_FD93,
        0xFF51_AFD7_ED55_8CCD,
        0xC4CE_B9FE_1A85_EC53,
    ];
    let mixed = boards
        .iter()
        .zip(MULTIPLIERS)
        .fold(0u64, |hash, (board, multiplier)| {
            (hash ^ board.0.wrapping_mul(multiplier)).rotate_left(23)
        })
        .wrapping_mul(0x94D0_49BB_1331_11EB);
    (mixed >> (64 - SLOTS.trailing_zeros())) as usize
}

fn pawn_slot(pos: &Position) -> usize {
    slot(&[
        pos.pieces(Color::White, PieceKind::Pawn),
        pos.pieces(Color::Black, PieceKind::Pawn),
    ])
}

fn non_pawn_slot(pos: &Position, color: Color) -> usize {
    slot(&[
        pos.pieces(color, PieceKind::Knight),
        pos.pieces(color, PieceKind::Bishop),
        pos.pieces(color, PieceKind::Rook),
        pos.pieces(color, PieceKind::Queen),
        pos.pieces(color, PieceKind::King),
    ])
}

/// Where a position's entries are: the keys are computed once a node and serve both the
/// correction and the update after the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CorrectionKeys {
    pawn: usize,
    non_pawn: [usize; 2],
    /// The (piece, target) pairs of the moves two plies and one ply back, when both were
    /// real moves.
    continuation: Option<usize>,
}

impl CorrectionKeys {
    /// `last_moves` as the continuation histories see them: one ply back, then two (a slot
    /// further back, as `Fourth Ply Continuation`'s, is not read).
    pub fn new(pos: &Position, last_moves: &[Option<PieceTo>]) -> CorrectionKeys {
        let side = pos.side_to_move().index() * SLOTS;
        let continuation = match last_moves {
            [Some(one), Some(two), ..] => Some(two.index() * PIECE_TO_COUNT + one.index()),
            _ => None,
        };
        CorrectionKeys {
            pawn: side + pawn_slot(pos),
            non_pawn: [
                side + non_pawn_slot(pos, Color::White),
                side + non_pawn_slot(pos, Color::Black),
            ],
            continuation,
        }
    }
}

/// The four tables of one search thread. They start empty and take their 1.4 MB only when a
/// search with `Correction History` on calls `allocate`: zeroing them for every search that
/// never reads them cost 2.7 % of `bench`'s instructions.
#[derive(Default)]
pub struct Corrections {
    pawn: Table,
    /// One table per colour of the pieces keyed, both indexed by the side to move.
    non_pawn: [Table; 2],
    continuation: Table,
}

impl Corrections {
    /// Gives the tables their slots, all zero, unless they have them already.
    pub fn allocate(&mut self) {
        if self.pawn.0.is_empty() {
            *self = Corrections {
                pawn: Table::new(2 * SLOTS),
                non_pawn: [Table::new(2 * SLOTS), Table::new(2 * SLOTS)],
                continuation: Table::new(PIECE_TO_COUNT * PIECE_TO_COUNT),
            };
        }
    }

    /// Centipawns to add to the static evaluation of the position with these keys. Each
    /// table's estimate counts by its weight in 1/256 (`SearchParams`): every table estimates
    /// the whole error, so the default weights sum to about one, leaning on the pawn structure
    /// that the network misjudges most and that recurs most.
    #[inline]
    pub fn correction(&self, keys: &CorrectionKeys, params: &SearchParams) -> i32 {
        let non_pawn =
            self.non_pawn[0].get(keys.non_pawn[0]) + self.non_pawn[1].get(keys.non_pawn[1]);
        let continuation = keys.continuation.map_or(0, |i| self.continuation.get(i));
        let sum = params.correction_pawn_weight * self.pawn.get(keys.pawn)
            + params.correction_non_pawn_weight * non_pawn
            + params.correction_continuation_weight * continuation;
        (sum / (256 * GRAIN)).clamp(-MAX_CP, MAX_CP)
    }

    /// A search to `depth` of the position with these keys scored `error` centipawns above
    /// its (uncorrected) static evaluation.
    pub fn update(&mut self, keys: &CorrectionKeys, depth: i32, error: i32) {
        self.pawn.update(keys.pawn, depth, error);
        for (table, &index) in self.non_pawn.iter_mut().zip(&keys.non_pawn) {
            table.update(index, depth, error);
        }
        if let Some(index) = keys.continuation {
            self.continuation.update(index, depth, error);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_move;

    const PARAMS: SearchParams = SearchParams::DEFAULT;

    /// The (piece, target) keys of two moves of the side to move in `pos`.
    fn last_moves(pos: &Position, moves: [&str; 2]) -> [Option<PieceTo>; 2] {
        moves.map(|text| {
            let m = parse_move(pos, text).unwrap();
            pos.piece_at(m.from()).map(|p| PieceTo::new(p, m))
        })
    }

    #[test]
    fn a_correction_follows_the_errors_of_its_position_within_the_cap() {
        let mut tables = Corrections::default();
        tables.allocate();
        let pos = Position::startpos();
        let keys = CorrectionKeys::new(&pos, &[None, None]);
        assert_eq!(tables.correction(&keys, &PARAMS), 0);
        for _ in 0..300 {
            tables.update(&keys, 10, 60);
        }
        // Pawn and both non-pawn tables learnt 60; no continuation entry: 60 * 192 / 256.
        let learnt = tables.correction(&keys, &PARAMS);
        assert!((43..=45).contains(&learnt), "{learnt}");
        for _ in 0..500 {
            tables.update(&keys, 20, -10_000);
        }
        let capped = tables.correction(&keys, &PARAMS);
        assert!(
            (-MAX_CP * 3 / 4 - 2..=-MAX_CP * 3 / 4 + 2).contains(&capped),
            "{capped}"
        );
    }

    #[test]
    fn each_table_is_keyed_by_what_it_says() {
        let mut tables = Corrections::default();
        tables.allocate();
        let pos = Position::startpos();
        let keys = CorrectionKeys::new(&pos, &[None, None]);
        for _ in 0..300 {
            tables.update(&keys, 10, 100);
        }
        // The other side to move: its own entries.
        let flipped = CorrectionKeys::new(&pos.make_null_move(), &[None, None]);
        assert_eq!(tables.correction(&flipped, &PARAMS), 0);
        // Same pieces, other pawns: only the non-pawn tables speak.
        let pawns_moved =
            Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
                .unwrap();
        let keys_pawns_moved = CorrectionKeys::new(&pawns_moved, &[None, None]);
        assert_eq!(keys_pawns_moved.non_pawn, keys.non_pawn);
        assert_ne!(keys_pawns_moved.pawn, keys.pawn);
        let only_pieces = tables.correction(&keys_pawns_moved, &PARAMS);
        assert!((35..=38).contains(&only_pieces), "{only_pieces}");
        // Same pawns, one side's knight elsewhere: the pawn table and the other side's.
        let knight_out =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 1 1")
                .unwrap();
        let keys_knight_out = CorrectionKeys::new(&knight_out, &[None, None]);
        assert_eq!(keys_knight_out.pawn, keys.pawn);
        assert_eq!(keys_knight_out.non_pawn[1], keys.non_pawn[1]);
        assert_ne!(keys_knight_out.non_pawn[0], keys.non_pawn[0]);
    }

    #[test]
    fn the_continuation_entry_needs_two_real_moves_and_tells_them_apart() {
        let mut tables = Corrections::default();
        tables.allocate();
        let pos = Position::startpos();
        let both = last_moves(&pos, ["g1f3", "e2e4"]);
        let swapped = [both[1], both[0]];
        let with = CorrectionKeys::new(&pos, &both);
        assert!(with.continuation.is_some());
        assert!(
            CorrectionKeys::new(&pos, &[both[0], None])
                .continuation
                .is_none()
        );
        assert_ne!(
            CorrectionKeys::new(&pos, &swapped).continuation,
            with.continuation
        );
        for _ in 0..300 {
            tables.update(&with, 10, 100);
        }
        let without = CorrectionKeys::new(&pos, &[None, None]);
        assert_eq!(
            tables.correction(&with, &PARAMS) - tables.correction(&without, &PARAMS),
            100 * PARAMS.correction_continuation_weight / 256
        );
    }
}
