//! `is_playable` against the generator: for every 16-bit move in every suite position and
//! every position one move later, the one-move test agrees with `legal_moves`.

use ironwood::board::perft::parse_perft_line;
use ironwood::board::{Move, MoveList, Position, is_playable, legal_moves};

const SUITE: &str = include_str!("../../data/perft.epd");

fn check_every_move(pos: &Position) -> usize {
    let mut legal = MoveList::new();
    legal_moves(pos, &mut legal);
    let mut playable = 0;
    for raw in 0..=u16::MAX {
        let m = Move::from_raw(raw);
        let expected = legal.contains(m);
        assert_eq!(
            is_playable(pos, m),
            expected,
            "{m} (raw {raw:#06x}) in {}",
            pos.to_fen()
        );
        playable += usize::from(expected);
    }
    assert_eq!(playable, legal.len(), "{}", pos.to_fen());
    playable
}

#[test]
fn playable_agrees_with_the_generator() {
    let mut positions = 0;
    // The first suite positions (start, Kiwipete, the rook endgame) two moves deep, the
    // rest one move deep.
    for (index, case) in SUITE.lines().filter_map(parse_perft_line).enumerate() {
        let pos = Position::from_fen(&case.fen).unwrap();
        check_every_move(&pos);
        let mut moves = MoveList::new();
        legal_moves(&pos, &mut moves);
        for &m in &moves {
            let child = pos.make_move(m);
            check_every_move(&child);
            positions += 1;
            if index < 3 {
                let mut replies = MoveList::new();
                legal_moves(&child, &mut replies);
                for &r in &replies {
                    check_every_move(&child.make_move(r));
                    positions += 1;
                }
            }
        }
    }
    assert!(positions > 3000, "only {positions} positions");
}
