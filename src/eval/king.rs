//! King safety, a midgame concern only: the pawn shield in front of the king, open files
//! next to it, and enemy pieces bearing on the squares around it.

use super::Attacks;
use super::params::index;
use super::score::Score;
use super::trace::Tracer;
use super::weights::WEIGHTS;
use crate::board::{Bitboard, Color, PieceKind, Position, Square};

/// King-attack units at which the tables' last entry is reached (and kept).
const MAX_ATTACK_UNITS: i32 = 55;

/// The king-attack term for `units` of attack on the king zone, if any: it takes two
/// pieces that reinforce each other to break through. The tables hold the curve (it began
/// as -min(units^2 / 6, 500), halved without the attacker's queen).
fn attack_term(units: i32, attackers: i32, attacker_has_queen: bool) -> Option<(usize, Score)> {
    if attackers < 2 {
        return None;
    }
    let entry = units.min(MAX_ATTACK_UNITS) as usize;
    Some(if attacker_has_queen {
        (
            index::KING_ATTACK_WITH_QUEEN + entry,
            WEIGHTS.king_attack_with_queen[entry],
        )
    } else {
        (
            index::KING_ATTACK_WITHOUT_QUEEN + entry,
            WEIGHTS.king_attack_without_queen[entry],
        )
    })
}

fn pawn_shield<T: Tracer>(pos: &Position, us: Color, king: Square, trace: &mut T) -> Score {
    let our_pawns = pos.pieces(us, PieceKind::Pawn);
    let all_pawns = pos.kind(PieceKind::Pawn);
    let first_file = king.file().saturating_sub(1);
    let last_file = (king.file() + 1).min(7);
    let mut total = Score::ZERO;
    for file in first_file..=last_file {
        let level = Bitboard::from_square(Square::from_file_rank(file, king.rank()));
        let one_ahead = level.forward(us);
        let two_ahead = one_ahead.forward(us);
        if (our_pawns & one_ahead).is_empty() {
            if (our_pawns & two_ahead).any() {
                total += WEIGHTS.shield_advanced[0];
                trace.add(index::SHIELD_ADVANCED, us, 1);
            } else {
                total += WEIGHTS.shield_missing[0];
                trace.add(index::SHIELD_MISSING, us, 1);
            }
        }
        let file_squares = Bitboard::file(file);
        if (file_squares & our_pawns).is_empty() {
            total += WEIGHTS.semi_open_near_king[0];
            trace.add(index::SEMI_OPEN_NEAR_KING, us, 1);
            if (file_squares & all_pawns).is_empty() {
                total += WEIGHTS.open_near_king[0];
                trace.add(index::OPEN_NEAR_KING, us, 1);
            }
        }
    }
    total
}

/// King safety from White's point of view; `attacks` must be complete.
pub fn evaluate<T: Tracer>(pos: &Position, attacks: &Attacks, trace: &mut T) -> Score {
    let mut score = Score::ZERO;
    for us in Color::BOTH {
        let king = pos.king_square(us);
        let attacker_has_queen = pos.pieces(!us, PieceKind::Queen).any();
        let mut side = pawn_shield(pos, us, king, trace);
        if let Some((term, penalty)) = attack_term(
            attacks.king_attack_units[us.index()],
            attacks.king_attackers[us.index()],
            attacker_has_queen,
        ) {
            side += penalty;
            trace.add(term, us, 1);
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

    fn shield(fen: &str, us: Color) -> i32 {
        let pos = position(fen);
        pawn_shield(&pos, us, pos.king_square(us), &mut NoTrace).mg
    }

    fn attack_penalty(units: i32, attackers: i32, attacker_has_queen: bool) -> i32 {
        attack_term(units, attackers, attacker_has_queen).map_or(0, |(_, s)| s.mg)
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
            crate::eval::pieces::evaluate(pos, &mut attacks, &mut NoTrace);
            evaluate(pos, &attacks, &mut NoTrace).mg
        };
        // From White's side: Black's king is the one under fire.
        assert!(king_term(&attacked) > king_term(&quiet) + 20);
    }
}
