//! King safety, a midgame concern only: the pawn shield in front of the king, open files
//! next to it, and enemy pieces bearing on the squares around it.

use super::Attacks;
use super::score::{Score, s};
use crate::board::{Bitboard, Color, PieceKind, Position, Square};

/// Per file next to or on the king's: no own pawn one or two squares ahead of the king.
const SHIELD_MISSING: i32 = -20;
/// The shield pawn has moved two squares ahead of the king's rank.
const SHIELD_ADVANCED: i32 = -8;
/// No own pawn at all on a file next to the king (added to the shield penalty).
const SEMI_OPEN_NEAR_KING: i32 = -12;
/// No pawn of either side on a file next to the king (added to the two above).
const OPEN_NEAR_KING: i32 = -10;

/// Penalty for `units` of attack on the king zone: quadratic, because attacks by several
/// pieces that reinforce each other are what actually breaks through.
fn attack_penalty(units: i32, attackers: i32, attacker_has_queen: bool) -> i32 {
    if attackers < 2 {
        return 0;
    }
    let penalty = (units * units / 6).min(500);
    if attacker_has_queen {
        -penalty
    } else {
        -penalty / 2
    }
}

fn pawn_shield(pos: &Position, us: Color, king: Square) -> i32 {
    let our_pawns = pos.pieces(us, PieceKind::Pawn);
    let all_pawns = pos.kind(PieceKind::Pawn);
    let first_file = king.file().saturating_sub(1);
    let last_file = (king.file() + 1).min(7);
    let mut total = 0;
    for file in first_file..=last_file {
        let level = Bitboard::from_square(Square::from_file_rank(file, king.rank()));
        let one_ahead = level.forward(us);
        let two_ahead = one_ahead.forward(us);
        if (our_pawns & one_ahead).is_empty() {
            total += if (our_pawns & two_ahead).any() {
                SHIELD_ADVANCED
            } else {
                SHIELD_MISSING
            };
        }
        let file_squares = Bitboard::file(file);
        if (file_squares & our_pawns).is_empty() {
            total += SEMI_OPEN_NEAR_KING;
            if (file_squares & all_pawns).is_empty() {
                total += OPEN_NEAR_KING;
            }
        }
    }
    total
}

/// King safety from White's point of view; `attacks` must be complete.
pub fn evaluate(pos: &Position, attacks: &Attacks) -> Score {
    let mut mg = 0;
    for us in Color::BOTH {
        let king = pos.king_square(us);
        let attacker_has_queen = pos.pieces(!us, PieceKind::Queen).any();
        let side = pawn_shield(pos, us, king)
            + attack_penalty(
                attacks.king_attack_units[us.index()],
                attacks.king_attackers[us.index()],
                attacker_has_queen,
            );
        mg += side * us.sign();
    }
    s(mg, 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::position;

    fn shield(fen: &str, us: Color) -> i32 {
        let pos = position(fen);
        pawn_shield(&pos, us, pos.king_square(us))
    }

    #[test]
    fn an_intact_shield_costs_nothing_and_gaps_cost_more_when_open() {
        let intact = shield("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1", Color::White);
        let advanced = shield("6k1/5ppp/8/8/8/6P1/5P1P/6K1 w - - 0 1", Color::White);
        let semi_open = shield("6k1/5ppp/8/8/8/8/5P1P/6K1 w - - 0 1", Color::White);
        let open = shield("6k1/5p1p/8/8/8/8/5P1P/6K1 w - - 0 1", Color::White);
        assert_eq!(intact, 0);
        assert!(intact > advanced && advanced > semi_open && semi_open > open);
        assert_eq!(
            shield("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1", Color::Black),
            0
        );
    }

    #[test]
    fn attack_penalty_needs_two_attackers_and_grows_faster_than_the_attack() {
        assert_eq!(attack_penalty(12, 1, true), 0);
        let small = attack_penalty(10, 2, true);
        let large = attack_penalty(20, 3, true);
        assert!(small < 0 && large < 2 * small);
        assert!(attack_penalty(20, 3, false) > large);
    }

    #[test]
    fn attacking_the_enemy_king_gains() {
        let quiet = position("6k1/5ppp/8/8/8/8/5PPP/3QR1K1 w - - 0 1");
        let attacked = position("6k1/5ppp/8/6NQ/8/8/5PPP/4R1K1 w - - 0 1");
        let king_term = |pos: &Position| {
            let mut attacks = Attacks::new(pos);
            crate::eval::pieces::evaluate(pos, &mut attacks);
            evaluate(pos, &attacks).mg
        };
        // From White's side: Black's king is the one under fire.
        assert!(king_term(&attacked) > king_term(&quiet) + 20);
    }
}
