//! Move-ordering knowledge: the history and counter-move tables a thread learns, MVV-LVA and
//! static exchange evaluation, and the one-time scoring of the root's moves. Interior nodes
//! take their moves in order from the staged picker (`picker.rs`).

use crate::board::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use crate::board::{Bitboard, Color, Move, MoveList, PieceKind, Position, Square};
use crate::eval::PIECE_VALUES;

use super::correction::Corrections;
use super::history::{
    ButterflyHistory, CaptureHistory, ContinuationHistory, ContinuationSlots, PieceTo,
};

const HASH_MOVE: i32 = 4_000_000;
const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER_1: i32 = 1_000_002;
const KILLER_2: i32 = 1_000_001;
const BAD_CAPTURE: i32 = -1_000_000;

/// Per-thread ordering memory: the history tables and counter moves. (Killers live in the
/// per-ply frames.)
pub struct OrderingTables {
    butterfly: ButterflyHistory,
    continuation: ContinuationHistory,
    capture: CaptureHistory,
    counter: Vec<Move>,
    /// Static-eval corrections learnt from search results (not an ordering table, but kept
    /// and cleared with them).
    pub correction: Corrections,
}

impl Default for OrderingTables {
    fn default() -> Self {
        OrderingTables::new()
    }
}

impl OrderingTables {
    pub fn new() -> OrderingTables {
        OrderingTables {
            butterfly: ButterflyHistory::default(),
            continuation: ContinuationHistory::default(),
            capture: CaptureHistory::default(),
            counter: vec![Move::NULL; 64 * 64],
            correction: Corrections::default(),
        }
    }

    pub fn history(&self, side: Color, m: Move, threats: &Threats) -> i32 {
        self.butterfly.get(side, m, threats.index(m))
    }

    /// The continuation-history part of a quiet move's score: its entries under the moves one
    /// and two plies back.
    pub fn continuation_score(
        &self,
        now: Option<PieceTo>,
        continuation: &ContinuationSlots,
    ) -> i32 {
        let Some(now) = now else { return 0 };
        continuation
            .iter()
            .flatten()
            .map(|&earlier| self.continuation.get(earlier, now))
            .sum()
    }

    /// How promising a quiet move is: butterfly plus continuation histories, moved by what the
    /// move does about the opponent's threats.
    pub fn quiet_score(
        &self,
        pos: &Position,
        m: Move,
        continuation: &ContinuationSlots,
        threats: &Threats,
    ) -> i32 {
        let side = pos.side_to_move();
        let piece = pos.piece_at(m.from());
        let now = piece.map(|p| PieceTo::new(p, m));
        let bonus = piece.map_or(0, |p| threats.quiet_bonus(p.kind, m));
        self.butterfly.get(side, m, threats.index(m))
            + self.continuation_score(now, continuation)
            + bonus
    }

    /// How promising a capture or promotion is: MVV-LVA, moved by its capture history.
    pub fn capture_score(&self, pos: &Position, m: Move) -> i32 {
        mvv_lva(pos, m) + self.capture.get(pos, m) / 8
    }

    /// The quiet move `best` caused a cutoff after the quiet moves `tried` failed: `bonus`
    /// for it, `malus` off them (`SearchParams::history_bonus`, `history_malus` of the
    /// cutoff's depth), in the butterfly and continuation tables.
    pub fn reward_quiet(
        &mut self,
        pos: &Position,
        (bonus, malus): (i32, i32),
        best: Move,
        tried: &[Move],
        continuation: &ContinuationSlots,
        threats: &Threats,
    ) {
        let side = pos.side_to_move();
        for (m, delta) in std::iter::once((best, bonus)).chain(tried.iter().map(|&q| (q, -malus))) {
            self.butterfly.update(side, m, threats.index(m), delta);
            if let Some(piece) = pos.piece_at(m.from()) {
                self.update_continuation(PieceTo::new(piece, m), continuation, delta);
            }
        }
    }

    fn update_continuation(&mut self, now: PieceTo, continuation: &ContinuationSlots, delta: i32) {
        for &earlier in continuation.iter().flatten() {
            self.continuation.update(earlier, now, delta);
        }
    }

    /// A cutoff (by `best`, a capture, or `None` for a quiet move) after the captures
    /// `tried` failed: capture-history bonus and malus, as in `reward_quiet`.
    pub fn reward_captures(
        &mut self,
        pos: &Position,
        (bonus, malus): (i32, i32),
        best: Option<Move>,
        tried: &[Move],
    ) {
        if let Some(m) = best {
            self.capture.update(pos, m, bonus);
        }
        for &m in tried {
            self.capture.update(pos, m, -malus);
        }
    }

    /// `bonus` in the butterfly entry of `side`'s quiet move `m`: tests fill the tables with it.
    #[cfg(test)]
    pub fn update_history(&mut self, side: Color, m: Move, threats: &Threats, bonus: i32) {
        self.butterfly.update(side, m, threats.index(m), bonus);
    }

    pub fn set_counter(&mut self, previous: Move, m: Move) {
        if !previous.is_null() {
            self.counter[previous.from().index() * 64 + previous.to().index()] = m;
        }
    }

    pub fn counter(&self, previous: Move) -> Move {
        if previous.is_null() {
            Move::NULL
        } else {
            self.counter[previous.from().index() * 64 + previous.to().index()]
        }
    }
}

/// The squares the side not to move attacks, by the cheapest kind of attacker: a piece
/// attacked by a cheaper one is in danger where it stands and should not go where one
/// attacks. The butterfly history learns apart by whether a move's origin and target are
/// attacked at all (Ethereal's threat-indexed history), the picker orders by the danger.
/// With them, the squares where a piece of the side to move would check the other king, so
/// that quiet checks come first among quiet moves of like history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threats {
    by_pawns: Bitboard,
    /// Pawns, knights and bishops.
    by_minors: Bitboard,
    /// Pawns, minor pieces and rooks.
    by_rooks: Bitboard,
    /// Every piece, the king too.
    all: Bitboard,
    /// By `PieceKind::index`: where a piece of ours of that kind gives check (none for the
    /// king).
    checks: [Bitboard; 6],
}

/// Ordering bonus for a queen, rook or minor piece leaving a square a cheaper piece attacks
/// for one no cheaper piece attacks; the same malus for stepping into such an attack.
const QUEEN_THREAT: i32 = 24_000;
const ROOK_THREAT: i32 = 12_000;
const MINOR_THREAT: i32 = 8_000;
/// Ordering bonus for a quiet move that checks directly.
const CHECK_BONUS: i32 = 8_000;

impl Threats {
    /// The threats against the side to move in `pos`.
    pub fn of(pos: &Position) -> Threats {
        let them = !pos.side_to_move();
        let occupied = pos.occupied();
        let by_pawns = pos.pieces(them, PieceKind::Pawn).pawn_attacks(them);
        let mut by_minors = by_pawns;
        for sq in pos.pieces(them, PieceKind::Knight) {
            by_minors |= knight_attacks(sq);
        }
        for sq in pos.pieces(them, PieceKind::Bishop) {
            by_minors |= bishop_attacks(sq, occupied);
        }
        let mut by_rooks = by_minors;
        for sq in pos.pieces(them, PieceKind::Rook) {
            by_rooks |= rook_attacks(sq, occupied);
        }
        let king = pos.king_square(them);
        let mut all = by_rooks | king_attacks(king);
        for sq in pos.pieces(them, PieceKind::Queen) {
            all |= queen_attacks(sq, occupied);
        }
        let diagonal = bishop_attacks(king, occupied);
        let straight = rook_attacks(king, occupied);
        let checks = [
            pawn_attacks(them, king),
            knight_attacks(king),
            diagonal,
            straight,
            diagonal | straight,
            Bitboard::EMPTY,
        ];
        Threats {
            by_pawns,
            by_minors,
            by_rooks,
            all,
            checks,
        }
    }

    /// The butterfly history's slice for `m`: whether its origin and its target are attacked.
    #[inline]
    pub fn index(&self, m: Move) -> usize {
        2 * usize::from(self.all.contains(m.from())) + usize::from(self.all.contains(m.to()))
    }

    /// The picker's bonus for a quiet move of a `kind` piece: for a direct check, and for
    /// what it does about cheaper attackers (`escape_bonus`).
    #[inline]
    pub fn quiet_bonus(&self, kind: PieceKind, m: Move) -> i32 {
        let check = if self.checks[kind.index()].contains(m.to()) {
            CHECK_BONUS
        } else {
            0
        };
        check + self.escape_bonus(kind, m)
    }

    /// How much a quiet move of a `kind` piece does about cheaper attackers: plus its bonus for
    /// leaving their attack for a square out of it, minus it for stepping into it.
    #[inline]
    fn escape_bonus(&self, kind: PieceKind, m: Move) -> i32 {
        let (cheaper, bonus) = match kind {
            PieceKind::Queen => (self.by_rooks, QUEEN_THREAT),
            PieceKind::Rook => (self.by_minors, ROOK_THREAT),
            PieceKind::Knight | PieceKind::Bishop => (self.by_pawns, MINOR_THREAT),
            PieceKind::Pawn | PieceKind::King => return 0,
        };
        match (cheaper.contains(m.from()), cheaper.contains(m.to())) {
            (true, false) => bonus,
            (false, true) => -bonus,
            _ => 0,
        }
    }
}

pub fn piece_value(kind: PieceKind) -> i32 {
    PIECE_VALUES[kind.index()]
}

pub fn captured_kind(pos: &Position, m: Move) -> PieceKind {
    if m.kind() == crate::board::MoveKind::EnPassant {
        PieceKind::Pawn
    } else {
        pos.piece_at(m.to()).map_or(PieceKind::Pawn, |p| p.kind)
    }
}

/// Most valuable victim, least valuable attacker.
pub fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = if m.is_capture() {
        piece_value(captured_kind(pos, m))
    } else {
        0
    };
    let attacker = pos.piece_at(m.from()).map_or(0, |p| p.kind.index() as i32);
    let promotion = m.promotion().map_or(0, piece_value);
    (victim + promotion) * 16 - attacker
}

/// Static exchange evaluation: does `m` win at least `threshold` after the best sequence of
/// recaptures on its square? (The swap algorithm with x-rays.)
pub fn see_at_least(pos: &Position, m: Move, threshold: i32) -> bool {
    if m.is_castle() || m.is_promotion() {
        return threshold <= 0 || m.is_promotion();
    }
    let from = m.from();
    let to = m.to();
    let mut swap = if m.is_capture() {
        piece_value(captured_kind(pos, m))
    } else {
        0
    } - threshold;
    if swap < 0 {
        return false;
    }
    let moving = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
    swap = piece_value(moving) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = pos.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
    if m.kind() == crate::board::MoveKind::EnPassant {
        occupied ^= Bitboard::from_square(Square::from_file_rank(to.file(), from.rank()));
    }
    let diagonal = pos.kind(PieceKind::Bishop) | pos.kind(PieceKind::Queen);
    let straight = pos.kind(PieceKind::Rook) | pos.kind(PieceKind::Queen);
    let mut attackers = pos.attackers_to(to, occupied) & occupied;
    let mut side = pos.side_to_move();
    let mut result = true;
    loop {
        side = !side;
        attackers &= occupied;
        let mine = attackers & pos.color(side);
        if mine.is_empty() {
            break;
        }
        result = !result;
        // Least valuable attacker next.
        let mut next = PieceKind::King;
        for kind in PieceKind::ALL {
            if (mine & pos.kind(kind)).any() {
                next = kind;
                break;
            }
        }
        if next == PieceKind::King {
            // The king may only recapture if the other side has no attackers left.
            if (attackers & pos.color(!side)).any() {
                result = !result;
            }
            break;
        }
        swap = piece_value(next) - swap;
        if swap < i32::from(result) {
            break;
        }
        let sq = (mine & pos.kind(next)).lowest();
        occupied ^= Bitboard::from_square(sq);
        if matches!(next, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Queen) {
            attackers |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(next, PieceKind::Rook | PieceKind::Queen) {
            attackers |= rook_attacks(to, occupied) & straight;
        }
    }
    result
}

/// Scores every root move into `scores`, by the classes the picker hands moves out in, for the
/// first iteration's sort (the root has no previous move, so no counter move).
pub fn score_moves(
    pos: &Position,
    list: &MoveList,
    scores: &mut [i32],
    hash_move: Move,
    tables: &OrderingTables,
    killers: [Move; 2],
    threats: &Threats,
) {
    let side = pos.side_to_move();
    for (i, &m) in list.iter().enumerate() {
        scores[i] = if m == hash_move {
            HASH_MOVE
        } else if m.is_tactical() {
            let base = mvv_lva(pos, m);
            if m.promotion().is_some_and(|k| k != PieceKind::Queen) {
                BAD_CAPTURE + base
            } else if see_at_least(pos, m, 0) {
                GOOD_CAPTURE + base
            } else {
                BAD_CAPTURE + base
            }
        } else if m == killers[0] {
            KILLER_1
        } else if m == killers[1] {
            KILLER_2
        } else {
            tables.history(side, m, threats)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_coordinate;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        let m = parse_coordinate(&pos, mv).unwrap();
        see_at_least(&pos, m, threshold)
    }

    /// A move of `fen` by its escape bonus and its butterfly slice.
    fn threat_judge(fen: &str) -> impl Fn(&str) -> (i32, usize) {
        let pos = Position::from_fen(fen).unwrap();
        let threats = Threats::of(&pos);
        move |mv| {
            let m = parse_coordinate(&pos, mv).unwrap();
            let kind = pos.piece_at(m.from()).unwrap().kind;
            (threats.escape_bonus(kind, m), threats.index(m))
        }
    }

    #[test]
    fn threats_reward_escaping_a_cheaper_attacker() {
        // Black's pawn on e5 attacks the white knight on d4 (and f4); the rook on a8 attacks
        // the a-file down to the white queen on a2.
        let judge = threat_judge("r3k3/8/8/4p3/3N4/8/Q7/4K3 w - - 0 1");
        assert_eq!(judge("d4c6"), (MINOR_THREAT, 2));
        assert_eq!(judge("d4f3"), (MINOR_THREAT, 2));
        assert_eq!(judge("a2f2"), (QUEEN_THREAT, 2));
        // Down the file the queen stays in the rook's reach.
        assert_eq!(judge("a2a5"), (0, 3));
        // The king is not moved by threats.
        assert_eq!(judge("e1f1"), (0, 0));
    }

    #[test]
    fn threats_punish_stepping_into_a_cheaper_attacker() {
        let judge = threat_judge("4k3/8/8/4p3/8/8/8/2BRK3 w - - 0 1");
        assert_eq!(judge("c1f4"), (-MINOR_THREAT, 1));
        assert_eq!(judge("d1d4"), (-ROOK_THREAT, 1));
        assert_eq!(judge("d1d3"), (0, 0));
        assert_eq!(judge("c1e3"), (0, 0));
    }

    #[test]
    fn threats_know_the_squares_a_quiet_move_checks_from() {
        // Black's king on e8 behind an open e-file and diagonals; white pawn d6 can go d7.
        let pos = Position::from_fen("4k3/8/3P4/8/8/8/8/1B1QK1NR w - - 0 1").unwrap();
        let threats = Threats::of(&pos);
        let bonus = |mv: &str| {
            let m = parse_coordinate(&pos, mv).unwrap();
            threats.quiet_bonus(pos.piece_at(m.from()).unwrap().kind, m)
        };
        assert_eq!(bonus("d6d7"), CHECK_BONUS);
        assert_eq!(bonus("b1g6"), CHECK_BONUS);
        assert_eq!(bonus("d1a4"), CHECK_BONUS);
        assert_eq!(bonus("d1d5"), 0);
        assert_eq!(bonus("g1f3"), 0);
        assert_eq!(bonus("h1h8"), CHECK_BONUS);
        assert_eq!(bonus("e1f2"), 0);
    }

    #[test]
    fn see_basics() {
        // Pawn takes a defended knight: wins material.
        assert!(see("4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5", 1));
        // Queen takes a pawn defended by a pawn: loses.
        assert!(!see("4k3/8/3p4/4p3/8/8/4Q3/4K3 w - - 0 1", "e2e5", 0));
        // Rook takes an undefended rook.
        assert!(see("4k3/8/8/4r3/8/8/4R3/4K3 w - - 0 1", "e2e5", 500));
        // X-ray: rook takes pawn defended by rook, backed by a second rook.
        assert!(see("4k3/4r3/8/4p3/8/8/4R3/4RK2 w - - 0 1", "e2e5", 0));
    }
}
