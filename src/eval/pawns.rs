//! Pawn structure: passed, isolated, doubled, backward and connected pawns from the pawns
//! alone, then the endgame extras of passed pawns that depend on kings and attacks
//! (king proximity to the stop square, a free path to promotion).

use super::Attacks;
use super::score::{Score, s};
use crate::board::{Bitboard, Color, PieceKind, Position, Square};

/// By relative rank (0 = own back rank).
const PASSED: [Score; 8] = [
    s(0, 0),
    s(0, 5),
    s(0, 8),
    s(5, 15),
    s(15, 30),
    s(30, 55),
    s(50, 85),
    s(0, 0),
];
const ISOLATED: Score = s(-6, -12);
/// Per pawn standing in front of another of its side on the same file.
const DOUBLED: Score = s(-10, -22);
/// Stop square attacked by an enemy pawn and no neighbour able to come up beside it.
const BACKWARD: Score = s(-8, -8);
/// Defended by a pawn or side by side with one, by relative rank.
const CONNECTED: [Score; 8] = [
    s(0, 0),
    s(0, 0),
    s(6, 3),
    s(8, 5),
    s(12, 10),
    s(22, 20),
    s(35, 30),
    s(0, 0),
];

/// Scale of the passed-pawn extras by relative rank: they matter only once it has run.
const PASSER_WEIGHT: [i32; 8] = [0, 0, 0, 1, 2, 4, 6, 0];
const THEIR_KING_DISTANCE: i32 = 4;
const OUR_KING_DISTANCE: i32 = 2;
/// Nothing of theirs stands on or attacks the way to the queening square.
const FREE_PATH: i32 = 10;
/// The square in front is empty and not attacked.
const SAFE_STOP: i32 = 4;

/// Every square on a file holding a square of `b`.
fn file_fill(b: Bitboard) -> Bitboard {
    b | b.front_span(Color::White) | b.front_span(Color::Black)
}

/// Pawns that no enemy pawn can stop or capture on the way to promotion.
fn passed_pawns(ours: Bitboard, theirs: Bitboard, us: Color) -> Bitboard {
    let their_span = theirs.front_span(!us);
    ours & !(their_span | their_span.west() | their_span.east())
}

fn isolated_pawns(ours: Bitboard) -> Bitboard {
    let our_files = file_fill(ours);
    ours & !(our_files.west() | our_files.east())
}

/// Each pawn with another of its side in front of it on the same file.
fn doubled_pawns(ours: Bitboard, us: Color) -> Bitboard {
    ours & ours.front_span(!us)
}

/// Pawns whose stop square an enemy pawn attacks and which no pawn on a neighbouring file,
/// level or behind, could ever come up to support; isolated pawns count only as isolated.
fn backward_pawns(ours: Bitboard, theirs: Bitboard, us: Color) -> Bitboard {
    let them = !us;
    let neighbours = ours.west() | ours.east();
    let supportable = neighbours | neighbours.front_span(us);
    let stop_attacked = theirs.pawn_attacks(them).forward(them);
    ours & !supportable & stop_attacked & !isolated_pawns(ours)
}

/// Pawns defended by a pawn or standing beside one.
fn connected_pawns(ours: Bitboard, us: Color) -> Bitboard {
    ours & (ours.pawn_attacks(us) | ours.west() | ours.east())
}

/// The structure score from White's point of view, and all passed pawns of both sides.
pub fn structure(pos: &Position) -> (Score, Bitboard) {
    let mut score = Score::ZERO;
    let mut passed = Bitboard::EMPTY;
    for us in Color::BOTH {
        let ours = pos.pieces(us, PieceKind::Pawn);
        let theirs = pos.pieces(!us, PieceKind::Pawn);
        let mut side = Score::ZERO;

        let our_passed = passed_pawns(ours, theirs, us);
        passed |= our_passed;
        for sq in our_passed {
            side += PASSED[sq.relative_rank(us) as usize];
        }
        side += ISOLATED * isolated_pawns(ours).count() as i32;
        side += DOUBLED * doubled_pawns(ours, us).count() as i32;
        side += BACKWARD * backward_pawns(ours, theirs, us).count() as i32;
        for sq in connected_pawns(ours, us) {
            side += CONNECTED[sq.relative_rank(us) as usize];
        }

        score += side.for_white(us);
    }
    (score, passed)
}

fn distance(a: Square, b: Square) -> i32 {
    let files = (a.file() as i32 - b.file() as i32).abs();
    let ranks = (a.rank() as i32 - b.rank() as i32).abs();
    files.max(ranks)
}

/// Endgame extras for the passed pawns in `passed`, from White's point of view.
pub fn passed_pawn_extras(pos: &Position, passed: Bitboard, attacks: &Attacks) -> Score {
    let mut eg = 0;
    for us in Color::BOTH {
        let them = !us;
        let our_king = pos.king_square(us);
        let their_king = pos.king_square(them);
        let their_control = pos.color(them) | attacks.all[them.index()];
        let mut side = 0;
        for sq in passed & pos.color(us) {
            let weight = PASSER_WEIGHT[sq.relative_rank(us) as usize];
            if weight == 0 {
                continue;
            }
            let pawn = Bitboard::from_square(sq);
            let stop = pawn.forward(us).lowest();
            side += weight
                * (THEIR_KING_DISTANCE * distance(their_king, stop).min(5)
                    - OUR_KING_DISTANCE * distance(our_king, stop).min(5));
            if pos.piece_at(stop).is_none() {
                if (pawn.front_span(us) & their_control).is_empty() {
                    side += weight * FREE_PATH;
                } else if !attacks.all[them.index()].contains(stop) {
                    side += weight * SAFE_STOP;
                }
            }
        }
        eg += side * us.sign();
    }
    s(0, eg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::position;

    fn squares(names: &[&str]) -> Bitboard {
        names.iter().fold(Bitboard::EMPTY, |b, name| {
            b | Bitboard::from_square(Square::parse(name).unwrap())
        })
    }

    fn pawns(fen: &str, color: Color) -> Bitboard {
        position(fen).pieces(color, PieceKind::Pawn)
    }

    #[test]
    fn passed_pawns_have_no_enemy_pawn_ahead_on_their_or_neighbouring_files() {
        let fen = "4k3/2p5/8/1P1P4/8/7P/8/4K3 w - - 0 1";
        let (white, black) = (pawns(fen, Color::White), pawns(fen, Color::Black));
        assert_eq!(passed_pawns(white, black, Color::White), squares(&["h3"]));
        assert_eq!(passed_pawns(black, white, Color::Black), Bitboard::EMPTY);
        let (_, passed) = structure(&position(fen));
        assert_eq!(passed, squares(&["h3"]));
    }

    #[test]
    fn isolated_doubled_backward_and_connected_are_recognised() {
        let white = pawns("4k3/8/8/8/8/1P6/P3P3/4K3 w - - 0 1", Color::White);
        assert_eq!(isolated_pawns(white), squares(&["e2"]));

        let white = pawns("4k3/8/8/8/2P5/2P5/2P5/4K3 w - - 0 1", Color::White);
        assert_eq!(doubled_pawns(white, Color::White), squares(&["c2", "c3"]));
        let black = pawns("4k3/2p5/2p5/8/8/8/8/4K3 w - - 0 1", Color::Black);
        assert_eq!(doubled_pawns(black, Color::Black), squares(&["c7"]));

        let fen = "4k3/8/8/2p1p3/4P3/3P4/8/4K3 w - - 0 1";
        let (white, black) = (pawns(fen, Color::White), pawns(fen, Color::Black));
        assert_eq!(backward_pawns(white, black, Color::White), squares(&["d3"]));
        assert_eq!(backward_pawns(black, white, Color::Black), Bitboard::EMPTY);

        let white = pawns("4k3/8/8/8/4PP2/2P5/1P5P/4K3 w - - 0 1", Color::White);
        assert_eq!(
            connected_pawns(white, Color::White),
            squares(&["c3", "e4", "f4"])
        );
    }

    #[test]
    fn weaknesses_cost_and_advanced_passers_gain() {
        const { assert!(ISOLATED.mg < 0 && ISOLATED.eg < 0) };
        const { assert!(DOUBLED.mg < 0 && DOUBLED.eg < 0) };
        const { assert!(BACKWARD.mg < 0 && BACKWARD.eg < 0) };
        for rank in 1..6 {
            assert!(PASSED[rank + 1].eg > PASSED[rank].eg);
        }
        // Same pawns, but the d-pawn stands apart from the others.
        let isolated = structure(&position("4k3/pppp4/8/8/8/8/PP1P4/4K3 w - - 0 1")).0;
        let together = structure(&position("4k3/pppp4/8/8/8/8/PPP5/4K3 w - - 0 1")).0;
        assert!(isolated.eg < together.eg);
    }

    #[test]
    fn a_passer_is_worth_more_near_a_distant_enemy_king() {
        let extras = |fen: &str| {
            let pos = position(fen);
            let (_, passed) = structure(&pos);
            let mut attacks = crate::eval::Attacks::new(&pos);
            crate::eval::pieces::evaluate(&pos, &mut attacks);
            passed_pawn_extras(&pos, passed, &attacks).eg
        };
        let king_far = extras("7k/8/8/1P6/8/8/8/4K3 w - - 0 1");
        let king_near = extras("8/k7/8/1P6/8/8/8/4K3 w - - 0 1");
        assert!(king_far > king_near, "{king_far} <= {king_near}");
        let blockaded = extras("7k/8/1n6/1P6/8/8/8/4K3 w - - 0 1");
        assert!(king_far > blockaded);
    }
}
