//! Pawn structure: passed, isolated, doubled, backward and connected pawns from the pawns
//! alone, then the endgame extras of passed pawns that depend on kings and attacks
//! (king proximity to the stop square, a free path to promotion).

use super::Attacks;
use super::params::index;
use super::score::Score;
use super::trace::Tracer;
use super::weights::WEIGHTS;
use crate::board::{Bitboard, Color, PieceKind, Position, Square};

/// The passed-pawn extras count king distances up to this.
const MAX_DISTANCE: i32 = 5;

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
pub fn structure<T: Tracer>(pos: &Position, trace: &mut T) -> (Score, Bitboard) {
    let mut score = Score::ZERO;
    let mut passed = Bitboard::EMPTY;
    for us in Color::BOTH {
        let ours = pos.pieces(us, PieceKind::Pawn);
        let theirs = pos.pieces(!us, PieceKind::Pawn);
        let mut side = Score::ZERO;

        let our_passed = passed_pawns(ours, theirs, us);
        passed |= our_passed;
        for sq in our_passed {
            let rank = sq.relative_rank(us) as usize;
            side += WEIGHTS.passed[rank];
            trace.add(index::PASSED + rank, us, 1);
        }
        let isolated = isolated_pawns(ours).count() as i32;
        side += WEIGHTS.isolated[0] * isolated;
        trace.add(index::ISOLATED, us, isolated);
        let doubled = doubled_pawns(ours, us).count() as i32;
        side += WEIGHTS.doubled[0] * doubled;
        trace.add(index::DOUBLED, us, doubled);
        let backward = backward_pawns(ours, theirs, us).count() as i32;
        side += WEIGHTS.backward[0] * backward;
        trace.add(index::BACKWARD, us, backward);
        for sq in connected_pawns(ours, us) {
            let rank = sq.relative_rank(us) as usize;
            side += WEIGHTS.connected[rank];
            trace.add(index::CONNECTED + rank, us, 1);
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

/// Extras for the passed pawns in `passed` that depend on kings and attacks, from White's
/// point of view; only pawns that have run far enough to matter have non-zero weights.
pub fn passed_pawn_extras<T: Tracer>(
    pos: &Position,
    passed: Bitboard,
    attacks: &Attacks,
    trace: &mut T,
) -> Score {
    let mut score = Score::ZERO;
    for us in Color::BOTH {
        let them = !us;
        let our_king = pos.king_square(us);
        let their_king = pos.king_square(them);
        let their_control = pos.color(them) | attacks.all[them.index()];
        let mut side = Score::ZERO;
        for sq in passed & pos.color(us) {
            let rank = sq.relative_rank(us) as usize;
            let pawn = Bitboard::from_square(sq);
            let stop = pawn.forward(us).lowest();
            let their_distance = distance(their_king, stop).min(MAX_DISTANCE);
            let our_distance = distance(our_king, stop).min(MAX_DISTANCE);
            side += WEIGHTS.passer_their_king[rank] * their_distance;
            trace.add(index::PASSER_THEIR_KING + rank, us, their_distance);
            side += WEIGHTS.passer_our_king[rank] * our_distance;
            trace.add(index::PASSER_OUR_KING + rank, us, our_distance);
            if pos.piece_at(stop).is_none() {
                if (pawn.front_span(us) & their_control).is_empty() {
                    side += WEIGHTS.passer_free_path[rank];
                    trace.add(index::PASSER_FREE_PATH + rank, us, 1);
                } else if !attacks.all[them.index()].contains(stop) {
                    side += WEIGHTS.passer_safe_stop[rank];
                    trace.add(index::PASSER_SAFE_STOP + rank, us, 1);
                }
            }
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
        let (_, passed) = structure(&position(fen), &mut NoTrace);
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
        for weakness in [WEIGHTS.isolated, WEIGHTS.doubled, WEIGHTS.backward] {
            assert!(weakness[0].mg < 0 && weakness[0].eg < 0);
        }
        for rank in 1..6 {
            assert!(WEIGHTS.passed[rank + 1].eg > WEIGHTS.passed[rank].eg);
        }
        // Same pawns, but the d-pawn stands apart from the others.
        let isolated = structure(
            &position("4k3/pppp4/8/8/8/8/PP1P4/4K3 w - - 0 1"),
            &mut NoTrace,
        )
        .0;
        let together = structure(
            &position("4k3/pppp4/8/8/8/8/PPP5/4K3 w - - 0 1"),
            &mut NoTrace,
        )
        .0;
        assert!(isolated.eg < together.eg);
    }

    #[test]
    fn a_passer_is_worth_more_near_a_distant_enemy_king() {
        let extras = |fen: &str| {
            let pos = position(fen);
            let (_, passed) = structure(&pos, &mut NoTrace);
            let mut attacks = crate::eval::Attacks::new(&pos);
            crate::eval::pieces::evaluate(&pos, &mut attacks, &mut NoTrace);
            passed_pawn_extras(&pos, passed, &attacks, &mut NoTrace).eg
        };
        let king_far = extras("7k/8/8/1P6/8/8/8/4K3 w - - 0 1");
        let king_near = extras("8/k7/8/1P6/8/8/8/4K3 w - - 0 1");
        assert!(king_far > king_near, "{king_far} <= {king_near}");
        let blockaded = extras("7k/8/1n6/1P6/8/8/8/4K3 w - - 0 1");
        assert!(king_far > blockaded);
    }
}
