//! The Polyglot book against hand-made entries and against python-chess's reader on real
//! books: keys, move decoding (castling, promotions), weights, and damaged files refused.

use super::*;
use crate::board::game::Game;
use crate::board::{CastlingMode, parse_move_in};
use rand::SeedableRng;
use rand::rngs::StdRng;

/// One entry's 16 bytes.
fn entry_bytes(key: u64, raw_move: u16, weight: u16) -> Vec<u8> {
    let mut bytes = key.to_be_bytes().to_vec();
    bytes.extend(raw_move.to_be_bytes());
    bytes.extend(weight.to_be_bytes());
    bytes.extend(0u32.to_be_bytes());
    bytes
}

/// A move field from coordinates (`e2e4`, `e7e8q`).
fn raw(text: &str) -> u16 {
    let square = |s: &str| {
        let b = s.as_bytes();
        u16::from(b[0] - b'a') + 8 * u16::from(b[1] - b'1')
    };
    let promotion = match text.get(4..) {
        Some("n") => 1,
        Some("b") => 2,
        Some("r") => 3,
        Some("q") => 4,
        _ => 0,
    };
    promotion << 12 | square(&text[0..2]) << 6 | square(&text[2..4])
}

/// A book from (position, move, weight) triples, sorted as the format asks.
fn book_of(entries: &[(&Position, &str, u16)]) -> Book {
    let mut rows: Vec<(u64, u16, u16)> = entries
        .iter()
        .map(|(p, m, w)| (polyglot_key(p), raw(m), *w))
        .collect();
    rows.sort_by_key(|r| r.0);
    let bytes = rows
        .iter()
        .flat_map(|&(k, m, w)| entry_bytes(k, m, w))
        .collect();
    Book::from_bytes(bytes).unwrap()
}

fn texts(position: &Position, moves: &[BookMove]) -> Vec<String> {
    moves
        .iter()
        .map(|m| crate::board::move_text(position, m.mv, crate::board::CastlingNotation::Standard))
        .collect()
}

#[test]
fn moves_are_found_by_key_in_the_files_order() {
    let start = Position::startpos();
    let mut game = Game::default();
    game.play("e2e4");
    let after = game.position().clone();
    let book = book_of(&[
        (&start, "e2e4", 10),
        (&start, "d2d4", 5),
        (&after, "c7c5", 3),
        (&start, "g1f3", 0),
    ]);
    assert_eq!(book.len(), 4);
    let moves = book.moves(&start).unwrap();
    assert_eq!(texts(&start, &moves), ["e2e4", "d2d4", "g1f3"]);
    assert_eq!(
        moves.iter().map(|m| m.weight).collect::<Vec<_>>(),
        [10, 5, 0]
    );
    assert_eq!(texts(&after, &book.moves(&after).unwrap()), ["c7c5"]);
    let mut out = Game::default();
    out.play("a2a3");
    assert!(book.moves(out.position()).unwrap().is_empty());
}

#[test]
fn castling_is_king_takes_rook_and_the_kings_step_is_taken_too() {
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    let position = Position::from_fen(fen).unwrap();
    let book = book_of(&[(&position, "e1h1", 2), (&position, "e1c1", 1)]);
    let moves = book.moves(&position).unwrap();
    assert_eq!(texts(&position, &moves), ["e1g1", "e1c1"]);
    assert!(moves.iter().all(|m| m.mv.is_castle()));

    // Chess960: the king on b1, rooks on a1 and h1; castling is written b1a1 and b1h1.
    let fen960 = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";
    let position = Position::from_fen_in(fen960, CastlingMode::Chess960).unwrap();
    let book = book_of(&[(&position, "b1h1", 1), (&position, "b1a1", 1)]);
    let moves = book.moves(&position).unwrap();
    let expected = [
        parse_move_in(&position, "O-O", crate::board::CastlingNotation::Words).unwrap(),
        parse_move_in(&position, "O-O-O", crate::board::CastlingNotation::Words).unwrap(),
    ];
    assert_eq!(moves.iter().map(|m| m.mv).collect::<Vec<_>>(), expected);
}

#[test]
fn promotions_keep_their_piece() {
    let position = Position::from_fen("8/1P4k1/8/8/8/8/6K1/8 w - - 0 1").unwrap();
    let book = book_of(&[(&position, "b7b8n", 1), (&position, "b7b8q", 3)]);
    let moves = book.moves(&position).unwrap();
    assert_eq!(texts(&position, &moves), ["b7b8n", "b7b8q"]);
}

#[test]
fn an_illegal_entry_is_an_error_that_names_it() {
    let start = Position::startpos();
    let book = book_of(&[(&start, "e2e4", 1), (&start, "e2e5", 1)]);
    let error = book.moves(&start).unwrap_err();
    assert_eq!(error.text, "e2e5");
    assert_eq!(
        error.to_string(),
        format!("its move e2e5 is illegal in {}", start.to_fen())
    );
}

#[test]
fn damaged_files_are_refused_with_the_reason() {
    let key = polyglot_key(&Position::startpos());
    let good = entry_bytes(key, raw("e2e4"), 1);
    assert!(matches!(
        Book::from_bytes(Vec::new()),
        Err(BookError::Empty)
    ));
    let cut = good[..15].to_vec();
    assert_eq!(
        Book::from_bytes(cut).unwrap_err().to_string(),
        "its length, 15 bytes, is not a multiple of 16 (a Polyglot book's entries)"
    );
    let mut unsorted = entry_bytes(key, raw("e2e4"), 1);
    unsorted.extend(entry_bytes(key - 1, raw("d2d4"), 1));
    assert!(matches!(
        Book::from_bytes(unsorted),
        Err(BookError::OutOfOrder { index: 1 })
    ));
    for bad_move in [raw("e2e2"), 5 << 12 | raw("e2e4"), 0x8000 | raw("e2e4")] {
        let mut bytes = good.clone();
        bytes.extend(entry_bytes(key, bad_move, 1));
        assert!(
            matches!(
                Book::from_bytes(bytes),
                Err(BookError::NoMove { index: 1, .. })
            ),
            "{bad_move:#06x}"
        );
    }
    let missing = Book::open(Path::new("/nonexistent/book.bin")).unwrap_err();
    assert!(missing.to_string().starts_with("cannot read it: "));
}

#[test]
fn the_best_move_is_the_heaviest_and_a_draw_follows_the_weights() {
    let start = Position::startpos();
    let moves = [
        BookMove {
            mv: parse_move_in(&start, "e2e4", Default::default()).unwrap(),
            weight: 30,
        },
        BookMove {
            mv: parse_move_in(&start, "d2d4", Default::default()).unwrap(),
            weight: 10,
        },
        BookMove {
            mv: parse_move_in(&start, "g1f3", Default::default()).unwrap(),
            weight: 0,
        },
    ];
    let mut rng = StdRng::seed_from_u64(1);
    assert_eq!(choose(&moves, true, &mut rng), Some(moves[0]));
    let mut counts = [0; 3];
    for _ in 0..4000 {
        let chosen = choose(&moves, false, &mut rng).unwrap();
        counts[moves.iter().position(|m| *m == chosen).unwrap()] += 1;
    }
    // 3 to 1 expected; a deleted (weight 0) move never comes.
    assert_eq!(counts[2], 0);
    assert!((2850..3150).contains(&counts[0]), "{counts:?}");
    assert_eq!(choose(&moves[2..], false, &mut rng), None);
    assert_eq!(choose(&moves[2..], true, &mut rng), None);
}

/// Probes `book` in every position of `moves` (`FEN;move:weight ...`, python-chess's
/// `open_reader(book).find_all(board, minimum_weight=0)`) and compares; answers the
/// positions and how many of them the book has.
fn compare_with_python_chess(book: &str, moves: &str) -> (usize, usize) {
    let book = Book::open(Path::new(book)).unwrap();
    let text = std::fs::read_to_string(moves).unwrap();
    let (mut positions, mut in_book) = (0, 0);
    for line in text.lines() {
        let (fen, expected) = line.split_once(';').unwrap();
        let position = Position::from_fen(fen).unwrap();
        let found: Vec<String> = book
            .moves(&position)
            .unwrap()
            .iter()
            .map(|m| {
                let text = crate::board::move_text(
                    &position,
                    m.mv,
                    crate::board::CastlingNotation::Standard,
                );
                format!("{text}:{}", m.weight)
            })
            .collect();
        assert_eq!(found.join(" "), expected, "{fen}");
        positions += 1;
        in_book += usize::from(!found.is_empty());
    }
    (positions, in_book)
}

/// `tests/data/polyglot_book.bin` (made by `polyglot make-book` from real games) against
/// python-chess in every position of `tests/data/polyglot_book_moves.txt`
/// (`tests/clients/polyglot_fixtures.py`).
#[test]
fn moves_and_weights_equal_python_chess_in_a_real_book() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
    let (positions, in_book) = compare_with_python_chess(
        &format!("{dir}polyglot_book.bin"),
        &format!("{dir}polyglot_book_moves.txt"),
    );
    assert!(
        positions >= 1000 && in_book >= 500,
        "{positions}, {in_book}"
    );
}

/// A book too big to commit (Debian's gnuchess-book): `tests/clients/polyglot_book_check.py
/// BOOK` writes the positions and runs this with `IRONWOOD_BOOK_CHECK=BOOK,POSITIONS`.
#[test]
#[ignore = "needs IRONWOOD_BOOK_CHECK=BOOK,POSITIONS from tests/clients/polyglot_book_check.py"]
fn moves_and_weights_equal_python_chess_in_any_book() {
    let check = std::env::var("IRONWOOD_BOOK_CHECK").unwrap();
    let (book, moves) = check.split_once(',').unwrap();
    let (positions, in_book) = compare_with_python_chess(book, moves);
    println!(
        "{book}: {positions} positions agree with python-chess, {in_book} of them in the book"
    );
    assert!(positions > 0);
}
