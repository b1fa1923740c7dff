//! Static evaluation: a score in centipawns from the side to move's point of view.
//! Every term is a midgame/endgame pair computed from White's side for both colours;
//! `evaluate` blends the pair by game phase, scales drawish material towards zero and turns
//! the result to the side to move. All weights are in `weights.rs` (layout: `params.rs`).

mod king;
pub mod params;
mod pawns;
mod pieces;
pub mod scaling;
pub mod score;
mod tables;
pub mod trace;
pub mod weights;

use crate::board::attacks::king_attacks;
use crate::board::{Bitboard, Color, PieceKind, Position};
use score::Score;
use trace::{NoTrace, Tracer};
use weights::WEIGHTS;

/// Midgame-ish piece values, also used by move ordering (MVV-LVA) and SEE.
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// Contribution of each piece kind to the game phase; the full set adds up to `MAX_PHASE`.
/// They define the taper between the midgame and endgame weights, so they are not tuned.
const PHASE_WEIGHTS: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const MAX_PHASE: i32 = 24;

/// Far from any mate score, so evaluation can never be mistaken for one.
pub const EVAL_LIMIT: i32 = 20_000;

/// Attack maps shared by the terms, indexed by colour.
pub(crate) struct Attacks {
    by_pawns: [Bitboard; 2],
    /// Everything each side attacks: pawns, king and (once `pieces` has run) pieces.
    all: [Bitboard; 2],
    /// Squares around each king, plus one rank further towards the enemy.
    king_zone: [Bitboard; 2],
    /// Pieces of the other side attacking this side's king zone, and their weight.
    king_attackers: [i32; 2],
    king_attack_units: [i32; 2],
}

impl Attacks {
    fn new(pos: &Position) -> Attacks {
        let mut attacks = Attacks {
            by_pawns: [Bitboard::EMPTY; 2],
            all: [Bitboard::EMPTY; 2],
            king_zone: [Bitboard::EMPTY; 2],
            king_attackers: [0; 2],
            king_attack_units: [0; 2],
        };
        for color in Color::BOTH {
            let i = color.index();
            let king = pos.king_square(color);
            let around = king_attacks(king) | Bitboard::from_square(king);
            attacks.by_pawns[i] = pos.pieces(color, PieceKind::Pawn).pawn_attacks(color);
            attacks.all[i] = attacks.by_pawns[i] | king_attacks(king);
            attacks.king_zone[i] = around | around.forward(color);
        }
        attacks
    }
}

pub fn game_phase(pos: &Position) -> i32 {
    let phase: i32 = PieceKind::ALL
        .iter()
        .map(|&kind| PHASE_WEIGHTS[kind.index()] * pos.kind(kind).count() as i32)
        .sum();
    phase.min(MAX_PHASE)
}

/// A midgame/endgame pair blended by `phase` (out of `MAX_PHASE`), rounded towards zero.
#[inline]
pub fn taper(score: Score, phase: i32) -> i32 {
    (score.mg * phase + score.eg * (MAX_PHASE - phase)) / MAX_PHASE
}

/// Every weighted term from White's point of view, before tapering, scaling and tempo.
fn weighted_terms<T: Tracer>(pos: &Position, trace: &mut T) -> Score {
    let mut attacks = Attacks::new(pos);
    let (pawn_structure, passed) = pawns::structure(pos, trace);
    let mut score = tables::material_and_placement(pos, trace) + pawn_structure;
    score += pieces::evaluate(pos, &mut attacks, trace);
    score += king::evaluate(pos, &attacks, trace);
    score += pawns::passed_pawn_extras(pos, passed, &attacks, trace);
    score
}

/// The tempo for the side to move, which is not scaled.
fn tempo(phase: i32) -> i32 {
    taper(WEIGHTS.tempo[0], phase)
}

pub fn evaluate(pos: &Position) -> i32 {
    if pos.is_insufficient_material() {
        return 0;
    }
    let score = weighted_terms(pos, &mut NoTrace);
    let phase = game_phase(pos);
    let blended = taper(score, phase);
    let strong = if blended > 0 {
        Color::White
    } else {
        Color::Black
    };
    let for_white = blended * scaling::scale_factor(pos, strong) / scaling::FULL;
    (for_white * pos.side_to_move().sign() + tempo(phase)).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::{MoveList, legal_moves};

    const PERFT_EPD: &str = include_str!("../../tests/data/perft.epd");
    const OPENINGS_EPD: &str = include_str!("../../tests/data/openings.epd");
    const BK_EPD: &str = include_str!("../../tests/data/bk.epd");
    const MATES_EPD: &str = include_str!("../../tests/data/mates.epd");

    /// What the side to move gets for the move alone in `pos`.
    pub(crate) fn tempo_of(pos: &Position) -> i32 {
        tempo(game_phase(pos))
    }

    pub(crate) fn position(fen: &str) -> Position {
        Position::from_fen(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e:?}"))
    }

    /// The positions of an EPD or perft file: placement, side, castling, en passant.
    fn suite(text: &str) -> Vec<Position> {
        text.lines()
            .filter(|line| !line.trim().is_empty())
            .map(|line| {
                let fen = line.split(';').next().unwrap();
                let fields: Vec<&str> = fen.split_whitespace().take(4).collect();
                position(&fields.join(" "))
            })
            .collect()
    }

    fn all_suites() -> Vec<Position> {
        let mut positions: Vec<Position> = [PERFT_EPD, OPENINGS_EPD, BK_EPD, MATES_EPD]
            .iter()
            .flat_map(|text| suite(text))
            .collect();
        positions.extend(
            crate::tools::bench::BENCH_POSITIONS
                .iter()
                .map(|fen| position(fen)),
        );
        positions
    }

    fn children(pos: &Position) -> Vec<Position> {
        let mut list = MoveList::new();
        legal_moves(pos, &mut list);
        list.iter().map(|&m| pos.make_move(m)).collect()
    }

    fn assert_symmetric(pos: &Position) {
        let mirror = pos.mirrored();
        assert_eq!(
            evaluate(pos),
            evaluate(&mirror),
            "{} against its mirror {}",
            pos.to_fen(),
            mirror.to_fen()
        );
    }

    #[test]
    fn evaluation_is_colour_symmetric_on_the_test_suites() {
        let positions = all_suites();
        assert!(positions.len() > 300);
        for pos in &positions {
            assert_symmetric(pos);
        }
        // Not vacuous: the suites hold plenty of unbalanced positions.
        let unbalanced = positions
            .iter()
            .filter(|p| evaluate(p) != tempo_of(p))
            .count();
        assert!(unbalanced > positions.len() / 2);
    }

    #[test]
    fn evaluation_is_colour_symmetric_two_plies_deep() {
        let roots = suite(PERFT_EPD)
            .into_iter()
            .take(6)
            .chain(suite(BK_EPD).into_iter().take(3))
            .chain(suite(OPENINGS_EPD).into_iter().take(3));
        let mut checked = 0;
        for root in roots {
            for child in children(&root) {
                for grandchild in children(&child) {
                    assert_symmetric(&grandchild);
                    checked += 1;
                }
                assert_symmetric(&child);
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn passing_the_move_only_moves_the_tempo() {
        let mut checked = 0;
        for line in OPENINGS_EPD.lines().filter(|l| !l.trim().is_empty()) {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            let other_side = if fields[1] == "w" { "b" } else { "w" };
            let flipped = format!("{} {} {} -", fields[0], other_side, fields[2]);
            let (Ok(a), Ok(b)) = (
                Position::from_fen(&fields.join(" ")),
                Position::from_fen(&flipped),
            ) else {
                continue;
            };
            assert_eq!(evaluate(&a) + evaluate(&b), 2 * tempo_of(&a), "{line}");
            checked += 1;
        }
        assert!(checked > 150);
    }

    #[test]
    fn the_start_position_is_level() {
        let score = evaluate(&Position::startpos());
        assert!(score.abs() < 50);
        assert_eq!(score, tempo_of(&Position::startpos()));
        assert_eq!(game_phase(&Position::startpos()), MAX_PHASE);
    }

    #[test]
    fn a_queen_up_is_winning_from_either_side() {
        let white_to_move = position("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let black_to_move = position("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert!(evaluate(&white_to_move) > 700);
        assert!(evaluate(&black_to_move) < -700);
    }

    #[test]
    fn phase_runs_from_all_pieces_to_none() {
        assert_eq!(
            game_phase(&position("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1")),
            0
        );
        assert_eq!(game_phase(&position("r3k3/8/8/8/8/8/8/2B1K3 w - - 0 1")), 3);
        // Promotions cannot push it past the full set.
        assert_eq!(
            game_phase(&position("7k/Q6q/Q6q/Q7/Q7/Q7/8/K7 w - - 0 1")),
            MAX_PHASE
        );
    }

    #[test]
    fn a_passed_pawn_is_worth_more_the_further_it_has_run() {
        let on_third = evaluate(&position("4k3/8/8/8/8/P7/8/4K3 w - - 0 1"));
        let on_fifth = evaluate(&position("4k3/8/8/P7/8/8/8/4K3 w - - 0 1"));
        let on_seventh = evaluate(&position("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"));
        assert!(on_third < on_fifth && on_fifth < on_seventh);
        assert!(on_seventh > on_third + 200);
    }

    #[test]
    fn an_isolated_pawn_scores_worse_than_the_same_pawn_with_a_neighbour() {
        let isolated = evaluate(&position("4k3/pppp4/8/8/8/8/PP1P4/4K3 w - - 0 1"));
        let together = evaluate(&position("4k3/pppp4/8/8/8/8/PPP5/4K3 w - - 0 1"));
        assert!(isolated < together, "{isolated} >= {together}");
    }

    #[test]
    fn drawish_material_is_scored_near_zero() {
        let rook_against_knight = evaluate(&position("4k3/8/8/8/8/8/8/R3K1n1 w - - 0 1"));
        let rook_alone = evaluate(&position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));
        let two_knights_position = position("4k3/8/8/8/8/8/8/NN2K3 w - - 0 1");
        let two_knights = evaluate(&two_knights_position);
        let knight_against_pawn_position = position("4k3/4p3/8/8/8/8/8/N3K3 w - - 0 1");
        let knight_against_pawn = evaluate(&knight_against_pawn_position);
        assert!(rook_against_knight.abs() < 80, "{rook_against_knight}");
        assert!(rook_alone > 400);
        assert_eq!(two_knights, tempo_of(&two_knights_position));
        assert!(knight_against_pawn <= tempo_of(&knight_against_pawn_position));
        assert_eq!(
            evaluate(&position("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1")),
            0,
            "insufficient material is a dead draw"
        );
    }

    #[test]
    fn opposite_bishops_take_the_edge_off_an_extra_pawn() {
        let opposite = evaluate(&position("4k3/pp3b2/8/8/8/8/PPP5/2B1K3 w - - 0 1"));
        let same = evaluate(&position("4k3/pp2b3/8/8/8/8/PPP5/2B1K3 w - - 0 1"));
        assert!(opposite > 0 && opposite < same - 20, "{opposite} {same}");
    }
}
