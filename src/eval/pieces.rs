//! The pieces' activity: mobility per kind, bishop pair and rook files. While walking the
//! pieces it also fills in the attack maps and the attacks on the enemy king zone that
//! king safety and passed pawns read later.

use super::Attacks;
use super::score::{Score, s};
use crate::board::attacks::{bishop_attacks, knight_attacks, queen_attacks, rook_attacks};
use crate::board::bitboard::{DARK_SQUARES, LIGHT_SQUARES};
use crate::board::{Bitboard, Color, PieceKind, Position};

// Mobility by the number of squares reachable: steep when a piece is nearly trapped, flat
// once it has room. Zero sits near a typical count because PeSTO's values already assume
// a piece of average activity.
#[rustfmt::skip]
const KNIGHT_MOBILITY: [Score; 9] = [
    s(-35, -40), s(-20, -26), s(-8, -12), s(-2, -4), s(3, 3), s(8, 8), s(13, 12), s(17, 15),
    s(20, 17),
];
#[rustfmt::skip]
const BISHOP_MOBILITY: [Score; 14] = [
    s(-30, -40), s(-18, -25), s(-8, -14), s(-2, -6), s(3, 0), s(8, 6), s(12, 11), s(16, 15),
    s(19, 19), s(22, 22), s(24, 25), s(26, 27), s(28, 29), s(30, 31),
];
#[rustfmt::skip]
const ROOK_MOBILITY: [Score; 15] = [
    s(-20, -40), s(-14, -26), s(-9, -16), s(-5, -8), s(-2, -2), s(0, 3), s(2, 8), s(4, 13),
    s(6, 18), s(8, 22), s(10, 26), s(12, 29), s(13, 32), s(14, 34), s(15, 36),
];
#[rustfmt::skip]
const QUEEN_MOBILITY: [Score; 28] = [
    s(-20, -30), s(-15, -22), s(-11, -16), s(-8, -11), s(-6, -7), s(-4, -4), s(-2, -1), s(0, 1),
    s(1, 4), s(2, 6), s(4, 9), s(5, 11), s(6, 13), s(7, 15), s(8, 17), s(9, 19),
    s(10, 20), s(11, 21), s(12, 22), s(12, 23), s(13, 24), s(13, 25), s(14, 26), s(14, 27),
    s(15, 28), s(15, 29), s(16, 30), s(16, 31),
];

const BISHOP_PAIR: Score = s(30, 55);
const ROOK_OPEN_FILE: Score = s(25, 12);
const ROOK_SEMI_OPEN_FILE: Score = s(12, 6);

/// King-attack units per square of the enemy king zone a piece attacks, by kind.
const KING_ATTACK_UNITS: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// Bishops on both colours, which a pair of same-coloured bishops (after a promotion) is not.
fn has_bishop_pair(bishops: Bitboard) -> bool {
    (bishops & LIGHT_SQUARES).any() && (bishops & DARK_SQUARES).any()
}

fn rook_file_bonus(file: Bitboard, pawns: Bitboard, our_pawns: Bitboard) -> Score {
    if (file & pawns).is_empty() {
        ROOK_OPEN_FILE
    } else if (file & our_pawns).is_empty() {
        ROOK_SEMI_OPEN_FILE
    } else {
        Score::ZERO
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
pub fn evaluate(pos: &Position, attacks: &mut Attacks) -> Score {
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
            side += KNIGHT_MOBILITY[(attacked & mobility_area).count() as usize];
        }
        let bishops = pos.pieces(us, PieceKind::Bishop);
        for sq in bishops {
            let attacked = bishop_attacks(sq, occupied);
            record(attacks, us, PieceKind::Bishop, attacked);
            side += BISHOP_MOBILITY[(attacked & mobility_area).count() as usize];
        }
        if has_bishop_pair(bishops) {
            side += BISHOP_PAIR;
        }
        for sq in pos.pieces(us, PieceKind::Rook) {
            let attacked = rook_attacks(sq, occupied);
            record(attacks, us, PieceKind::Rook, attacked);
            side += ROOK_MOBILITY[(attacked & mobility_area).count() as usize];
            side += rook_file_bonus(Bitboard::file(sq.file()), pawns, our_pawns);
        }
        for sq in pos.pieces(us, PieceKind::Queen) {
            let attacked = queen_attacks(sq, occupied);
            record(attacks, us, PieceKind::Queen, attacked);
            side += QUEEN_MOBILITY[(attacked & mobility_area).count() as usize];
        }

        score += side.for_white(us);
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::position;

    fn pieces_term(fen: &str) -> Score {
        let pos = position(fen);
        evaluate(&pos, &mut Attacks::new(&pos))
    }

    #[test]
    fn mobility_never_falls_with_more_squares() {
        for table in [
            &KNIGHT_MOBILITY[..],
            &BISHOP_MOBILITY[..],
            &ROOK_MOBILITY[..],
            &QUEEN_MOBILITY[..],
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
        const { assert!(BISHOP_PAIR.mg > 0 && BISHOP_PAIR.eg > 0) };
    }

    #[test]
    fn rooks_like_open_files_best_and_closed_files_least() {
        let pos = position("4k3/3p4/8/8/8/8/4P3/4K3 w - - 0 1");
        let pawns = pos.kind(PieceKind::Pawn);
        let ours = pos.pieces(Color::White, PieceKind::Pawn);
        let open = rook_file_bonus(Bitboard::file(0), pawns, ours);
        let semi_open = rook_file_bonus(Bitboard::file(3), pawns, ours);
        let closed = rook_file_bonus(Bitboard::file(4), pawns, ours);
        assert!(open.mg > semi_open.mg && semi_open.mg > closed.mg);
        assert_eq!(closed, Score::ZERO);
    }

    #[test]
    fn attacks_on_the_king_zone_are_recorded() {
        // Queen on h5 and knight on g5 bear on the squares around Black's king on g8.
        let pos = position("6k1/5ppp/8/6NQ/8/8/8/4K3 w - - 0 1");
        let mut attacks = Attacks::new(&pos);
        evaluate(&pos, &mut attacks);
        assert_eq!(attacks.king_attackers[Color::Black.index()], 2);
        assert!(attacks.king_attack_units[Color::Black.index()] >= 10);
        assert_eq!(attacks.king_attackers[Color::White.index()], 0);
    }
}
