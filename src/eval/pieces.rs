//! The pieces' activity: mobility per kind, bishop pair and rook files. While walking the
//! pieces it also fills in the attack maps and the attacks on the enemy king zone that
//! king safety and passed pawns read later.

use super::Attacks;
use super::params::index;
use super::score::Score;
use super::trace::Tracer;
use super::weights::WEIGHTS;
use crate::board::attacks::{bishop_attacks, knight_attacks, queen_attacks, rook_attacks};
use crate::board::bitboard::{DARK_SQUARES, LIGHT_SQUARES};
use crate::board::{Bitboard, Color, PieceKind, Position};

/// King-attack units per square of the enemy king zone a piece attacks, by kind. They are
/// the index into the king-attack tables, not weights: the tables carry the values.
const KING_ATTACK_UNITS: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// Bishops on both colours, which a pair of same-coloured bishops (after a promotion) is not.
fn has_bishop_pair(bishops: Bitboard) -> bool {
    (bishops & LIGHT_SQUARES).any() && (bishops & DARK_SQUARES).any()
}

/// The rook-file term that applies, if any: its flat index and its weight.
fn rook_file_term(file: Bitboard, pawns: Bitboard, our_pawns: Bitboard) -> Option<(usize, Score)> {
    if (file & pawns).is_empty() {
        Some((index::ROOK_OPEN_FILE, WEIGHTS.rook_open_file[0]))
    } else if (file & our_pawns).is_empty() {
        Some((index::ROOK_SEMI_OPEN_FILE, WEIGHTS.rook_semi_open_file[0]))
    } else {
        None
    }
}

/// Records `attacked`, the squares one piece of `us` attacks, in the attack maps.
#[inline]
fn record(attacks: &mut Attacks, us: Color, kind: PieceKind, attacked: Bitboard) {
    let them = (!us).index();
    attacks.all[us.index()] |= attacked;
    let on_zone = attacked & attacks.king_zone[them];
    if on_zone.any() {
        attacks.king_attackers[them] += 1;
        attacks.king_attack_units[them] += KING_ATTACK_UNITS[kind.index()] * on_zone.count() as i32;
    }
}

/// Mobility, bishop pair and rook files from White's point of view; fills `attacks`.
pub fn evaluate<T: Tracer>(pos: &Position, attacks: &mut Attacks, trace: &mut T) -> Score {
    let occupied = pos.occupied();
    let pawns = pos.kind(PieceKind::Pawn);
    let mut score = Score::ZERO;
    for us in Color::BOTH {
        let them = !us;
        let mobility_area = !pos.color(us) & !attacks.by_pawns[them.index()];
        let our_pawns = pos.pieces(us, PieceKind::Pawn);
        let mut side = Score::ZERO;

        for sq in pos.pieces(us, PieceKind::Knight) {
            let attacked = knight_attacks(sq);
            record(attacks, us, PieceKind::Knight, attacked);
            let count = (attacked & mobility_area).count() as usize;
            side += WEIGHTS.knight_mobility[count];
            trace.add(index::KNIGHT_MOBILITY + count, us, 1);
        }
        let bishops = pos.pieces(us, PieceKind::Bishop);
        for sq in bishops {
            let attacked = bishop_attacks(sq, occupied);
            record(attacks, us, PieceKind::Bishop, attacked);
            let count = (attacked & mobility_area).count() as usize;
            side += WEIGHTS.bishop_mobility[count];
            trace.add(index::BISHOP_MOBILITY + count, us, 1);
        }
        if has_bishop_pair(bishops) {
            side += WEIGHTS.bishop_pair[0];
            trace.add(index::BISHOP_PAIR, us, 1);
        }
        for sq in pos.pieces(us, PieceKind::Rook) {
            let attacked = rook_attacks(sq, occupied);
            record(attacks, us, PieceKind::Rook, attacked);
            let count = (attacked & mobility_area).count() as usize;
            side += WEIGHTS.rook_mobility[count];
            trace.add(index::ROOK_MOBILITY + count, us, 1);
            if let Some((term, bonus)) = rook_file_term(Bitboard::file(sq.file()), pawns, our_pawns)
            {
                side += bonus;
                trace.add(term, us, 1);
            }
        }
        for sq in pos.pieces(us, PieceKind::Queen) {
            let attacked = queen_attacks(sq, occupied);
            record(attacks, us, PieceKind::Queen, attacked);
            let count = (attacked & mobility_area).count() as usize;
            side += WEIGHTS.queen_mobility[count];
            trace.add(index::QUEEN_MOBILITY + count, us, 1);
        }

        score += side.for_white(us);
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::position;
    use crate::eval::trace::NoTrace;

    fn pieces_term(fen: &str) -> Score {
        let pos = position(fen);
        evaluate(&pos, &mut Attacks::new(&pos), &mut NoTrace)
    }

    #[test]
    fn mobility_never_falls_with_more_squares() {
        for table in [
            &WEIGHTS.knight_mobility[..],
            &WEIGHTS.bishop_mobility[..],
            &WEIGHTS.rook_mobility[..],
            &WEIGHTS.queen_mobility[..],
        ] {
            for pair in table.windows(2) {
                assert!(pair[1].mg >= pair[0].mg && pair[1].eg >= pair[0].eg);
            }
        }
    }

    #[test]
    fn a_boxed_in_bishop_is_worse_than_a_free_one() {
        // Only the pawns in front of the c1-bishop differ.
        let boxed = pieces_term("4k3/8/8/8/8/8/1P1P4/2B1K3 w - - 0 1");
        let free = pieces_term("4k3/8/8/8/8/1P1P4/8/2B1K3 w - - 0 1");
        assert!(boxed.mg < free.mg && boxed.eg < free.eg);
    }

    #[test]
    fn squares_attacked_by_enemy_pawns_do_not_count() {
        let safe = pieces_term("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
        let covered = pieces_term("4k3/8/8/8/1p6/8/8/1N2K3 w - - 0 1");
        assert!(covered.mg < safe.mg);
    }

    #[test]
    fn bishop_pair_needs_both_colours() {
        let both = position("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1");
        let same = position("4k3/8/8/8/8/8/8/1B2KB2 w - - 0 1");
        assert!(has_bishop_pair(
            both.pieces(Color::White, PieceKind::Bishop)
        ));
        assert!(!has_bishop_pair(
            same.pieces(Color::White, PieceKind::Bishop)
        ));
        assert!(WEIGHTS.bishop_pair[0].mg > 0 && WEIGHTS.bishop_pair[0].eg > 0);
    }

    #[test]
    fn rooks_like_open_files_best_and_closed_files_least() {
        let pos = position("4k3/3p4/8/8/8/8/4P3/4K3 w - - 0 1");
        let pawns = pos.kind(PieceKind::Pawn);
        let ours = pos.pieces(Color::White, PieceKind::Pawn);
        let term = |file| rook_file_term(Bitboard::file(file), pawns, ours).map(|(i, _)| i);
        assert_eq!(term(0), Some(index::ROOK_OPEN_FILE));
        assert_eq!(term(3), Some(index::ROOK_SEMI_OPEN_FILE));
        assert_eq!(term(4), None);
        let (open, semi_open) = (WEIGHTS.rook_open_file[0], WEIGHTS.rook_semi_open_file[0]);
        assert!(open.mg > semi_open.mg && semi_open.mg > 0);
    }

    #[test]
    fn attacks_on_the_king_zone_are_recorded() {
        // Queen on h5 and knight on g5 bear on the squares around Black's king on g8.
        let pos = position("6k1/5ppp/8/6NQ/8/8/8/4K3 w - - 0 1");
        let mut attacks = Attacks::new(&pos);
        evaluate(&pos, &mut attacks, &mut NoTrace);
        assert_eq!(attacks.king_attackers[Color::Black.index()], 2);
        assert!(attacks.king_attack_units[Color::Black.index()] >= 10);
        assert_eq!(attacks.king_attackers[Color::White.index()], 0);
    }
}
