//! Move generator, notation and Zobrist checks over the shared perft suite.

use ironwood::board::perft::{PerftCase, parse_perft_line, perft};
use ironwood::board::{
    MoveList, Position, count_legal_moves, has_legal_moves_at_least, legal_moves, parse_coordinate,
    parse_san, to_san,
};

const SUITE: &str = include_str!("../../data/perft.epd");
const FAST_LIMIT: u64 = 10_000_000;

fn cases() -> Vec<PerftCase> {
    SUITE.lines().filter_map(parse_perft_line).collect()
}

#[test]
fn suite_parses_completely() {
    assert_eq!(
        cases().len(),
        SUITE.lines().filter(|l| !l.trim().is_empty()).count()
    );
    assert!(cases().len() >= 33);
}

#[test]
fn perft_counts_below_ten_million() {
    let mut checked = 0;
    for case in cases() {
        let pos = Position::from_fen(&case.fen).unwrap();
        for &(depth, expected) in case.counts.iter().filter(|(_, n)| *n <= FAST_LIMIT) {
            assert_eq!(
                perft(&pos, depth),
                expected,
                "depth {depth} of {}",
                case.fen
            );
            checked += 1;
        }
    }
    assert!(checked > 150, "only {checked} counts checked");
}

#[test]
#[ignore = "deep counts: minutes in release mode"]
fn perft_counts_deep() {
    for case in cases() {
        let pos = Position::from_fen(&case.fen).unwrap();
        for &(depth, expected) in case.counts.iter().filter(|(_, n)| *n > FAST_LIMIT) {
            assert_eq!(
                perft(&pos, depth),
                expected,
                "depth {depth} of {}",
                case.fen
            );
        }
    }
}

#[test]
fn san_and_coordinate_round_trip_for_every_legal_move() {
    for case in cases() {
        let pos = Position::from_fen(&case.fen).unwrap();
        let mut list = MoveList::new();
        legal_moves(&pos, &mut list);
        for &m in &list {
            let san = to_san(&pos, m);
            assert_eq!(parse_san(&pos, &san), Ok(m), "SAN {san} in {}", case.fen);
            let coord = m.to_string();
            assert_eq!(
                parse_coordinate(&pos, &coord),
                Ok(m),
                "{coord} in {}",
                case.fen
            );
        }
    }
}

/// Calls `visit` on `pos` and every position reached from it in up to `depth` legal moves.
fn walk(pos: &Position, depth: u32, visit: &mut impl FnMut(&Position)) {
    visit(pos);
    if depth == 0 {
        return;
    }
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    for &m in &list {
        walk(&pos.make_move(m), depth - 1, visit);
    }
}

#[test]
fn zobrist_incremental_equals_scratch_to_depth_three() {
    let mut visited = 0;
    for case in cases() {
        let pos = Position::from_fen(&case.fen).unwrap();
        walk(&pos, 3, &mut |pos| {
            assert_eq!(
                pos.key(),
                pos.compute_key(),
                "incremental key drifted at {}",
                pos.to_fen()
            );
            let reparsed = Position::from_fen(&pos.to_fen()).unwrap();
            assert_eq!(
                reparsed.key(),
                pos.key(),
                "FEN round trip changed the key: {}",
                pos.to_fen()
            );
            visited += 1;
        });
    }
    assert!(visited > 100_000);
}

/// The null move's quick count (knights and sliders first) agrees with the full count for
/// every threshold, in checks, pins and positions with few pieces alike.
#[test]
fn at_least_n_legal_moves_agrees_with_the_count_to_depth_two() {
    let mut checked = 0;
    for case in cases() {
        walk(&Position::from_fen(&case.fen).unwrap(), 2, &mut |pos| {
            let count = count_legal_moves(pos);
            for n in 0..=count + 1 {
                assert_eq!(
                    has_legal_moves_at_least(pos, n),
                    count >= n,
                    "at least {n} of {count} legal moves in {}",
                    pos.to_fen()
                );
            }
            checked += 1;
        });
    }
    assert!(checked > 10_000, "only {checked} positions");
}

/// The search makes its moves into one reused child position: each must equal the fresh one.
#[test]
fn make_move_into_a_reused_position_equals_make_move() {
    let mut child = Position::startpos();
    let mut made = 0;
    for case in cases() {
        let pos = Position::from_fen(&case.fen).unwrap();
        let mut list = MoveList::new();
        legal_moves(&pos, &mut list);
        for &m in &list {
            pos.make_move_into(m, &mut child);
            assert!(child == pos.make_move(m), "{m} from {}", case.fen);
            made += 1;
        }
    }
    assert!(made > 500, "{made} moves");
}

#[test]
fn fen_round_trips_for_every_suite_position() {
    for case in cases() {
        let pos = Position::from_fen(&case.fen).unwrap();
        let again = Position::from_fen(&pos.to_fen()).unwrap();
        assert_eq!(again, pos);
    }
}

#[test]
fn transpositions_share_a_key() {
    let start = Position::startpos();
    let play = |moves: &[&str]| {
        moves.iter().fold(start.clone(), |p, m| {
            let mv = parse_coordinate(&p, m).unwrap();
            p.make_move(mv)
        })
    };
    let a = play(&["g1f3", "g8f6", "b1c3", "b8c6"]);
    let b = play(&["b1c3", "b8c6", "g1f3", "g8f6"]);
    assert_eq!(a.key(), b.key());
    // A double push with no enemy pawn able to capture leaves no en-passant key behind.
    let c = play(&["e2e4"]);
    assert_eq!(c.en_passant(), None);
}
