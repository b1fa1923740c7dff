//! `PositionBuilder`: positions put together piece by piece are checked like FEN input, and
//! agree with the FEN parser on every valid position.

use ironwood::board::{
    CastleSide, CastlingRights, Color, Piece, Position, PositionBuilder, PositionError, Square,
};

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

fn piece(letter: char) -> Option<Piece> {
    Piece::from_fen_char(letter)
}

/// A builder with the pieces of `placement` (`"Ke1 ra8 ..."`: FEN letter and square).
fn board(placement: &str) -> PositionBuilder {
    let mut builder = PositionBuilder::default();
    for item in placement.split_whitespace() {
        let (letter, square) = item.split_at(1);
        builder.put(sq(square), piece(letter.chars().next().unwrap()));
    }
    builder
}

#[test]
fn a_copied_position_builds_back_to_itself() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3pN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/8/4k3/8/8/3K3R/8/8 b - - 57 80",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let built = PositionBuilder::from_position(&pos).build().unwrap();
        assert_eq!(built, pos, "{fen}");
        assert_eq!(built.to_fen(), fen);
        assert_eq!(built.key(), pos.key());
    }
}

#[test]
fn changing_the_side_to_move_keeps_the_rest() {
    let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 20").unwrap();
    let black = PositionBuilder::from_position(&pos)
        .side_to_move(Color::Black)
        .build()
        .unwrap();
    assert_eq!(black.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 5 20");
    assert_ne!(black.key(), pos.key());
    // Handing the move to a side that gives check is refused.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 b - - 0 1").unwrap();
    assert_eq!(
        Position::from_fen("4k3/4R3/8/8/8/8/8/4K3 b - - 0 1").map(|p| {
            PositionBuilder::from_position(&p)
                .side_to_move(Color::White)
                .build()
        }),
        Ok(Err(PositionError::OpponentInCheck))
    );
    assert!(
        PositionBuilder::from_position(&pos)
            .side_to_move(Color::White)
            .build()
            .is_ok()
    );
}

#[test]
fn castling_rights_from_home_squares() {
    let mut builder = board("Ke1 Ra1 Rh2 ke8 rh8 ra7");
    let pos = builder.castling_from_home_squares().build().unwrap();
    assert_eq!(pos.to_fen(), "4k2r/r7/8/8/8/8/7R/R3K3 w Qk - 0 1");
    let mut builder = board("Ke2 Ra1 Rh1 kd8 ra8 rh8");
    let pos = builder.castling_from_home_squares().build().unwrap();
    assert_eq!(pos.castling(), CastlingRights::NONE);
}

#[test]
fn each_impossible_position_is_refused() {
    let cases = [
        (
            "Ke1",
            PositionError::KingCount {
                color: Color::Black,
                count: 0,
            },
        ),
        (
            "Ke1 Ka4 ke8",
            PositionError::KingCount {
                color: Color::White,
                count: 2,
            },
        ),
        ("Ke1 ke8 Pa8", PositionError::PawnOnBackRank(sq("a8"))),
        ("Ke1 ke8 pb1", PositionError::PawnOnBackRank(sq("b1"))),
        ("Ke1 ke8 Qe4", PositionError::OpponentInCheck),
    ];
    for (placement, error) in cases {
        assert_eq!(board(placement).build(), Err(error), "{placement}");
    }
    // Rights the pieces do not allow.
    let mut builder = board("Ke1 Rh1 ke8");
    builder.castling(CastlingRights::NONE.with(Color::White, CastleSide::Queen, 0));
    let missing_rook = PositionError::CastlingWithoutRook {
        color: Color::White,
        side: CastleSide::Queen,
        file: Some(0),
    };
    assert_eq!(builder.build(), Err(missing_rook.clone()));
    assert_eq!(
        missing_rook.to_string(),
        "White queen-side castling right but no White rook on a1 on that side of the king"
    );
    // A rook on the named file but on the other side of the king.
    let mut builder = board("Kb1 Ra1 ke8");
    builder.castling(CastlingRights::NONE.with(Color::White, CastleSide::King, 0));
    assert_eq!(
        builder.build(),
        Err(PositionError::CastlingWithoutRook {
            color: Color::White,
            side: CastleSide::King,
            file: Some(0),
        })
    );
    // Three checkers.
    let mut builder = board("Ke1 ke8 Qe4 Nd6 Bb5");
    builder.side_to_move(Color::Black);
    assert_eq!(builder.build(), Err(PositionError::TooManyCheckers));
}

#[test]
fn en_passant_only_where_a_double_push_just_happened() {
    // Black just played f7f5; the e5 pawn can take.
    let mut builder = board("Ke1 ke8 Pe5 pf5");
    builder.en_passant(Some(sq("f6")));
    assert_eq!(builder.build().unwrap().en_passant(), Some(sq("f6")));
    // No pawn can take: the square is dropped, as the FEN parser does.
    let mut builder = board("Ke1 ke8 Pa2 pf5");
    builder.en_passant(Some(sq("f6")));
    assert_eq!(builder.build().unwrap().en_passant(), None);
    // No pawn that could have double-pushed, or the wrong rank.
    for (placement, square) in [
        ("Ke1 ke8 Pe5", "f6"),
        ("Ke1 ke8 Pe5 pf5", "f3"),
        ("Ke1 ke8 Pe5 pf5 pf7", "f6"),
    ] {
        let mut builder = board(placement);
        builder.en_passant(Some(sq(square)));
        assert_eq!(
            builder.build(),
            Err(PositionError::ImpossibleEnPassant(sq(square))),
            "{placement} {square}"
        );
    }
}

#[test]
fn clocks_are_kept_and_fullmove_zero_counts_as_one() {
    let mut builder = board("Ke1 ke8");
    builder.clocks(37, 0);
    let pos = builder.build().unwrap();
    assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (37, 1));
    builder.clear_board();
    assert_eq!(builder.piece_at(sq("e1")), None);
    assert!(matches!(
        builder.build(),
        Err(PositionError::KingCount { .. })
    ));
    assert_eq!(
        PositionError::KingCount {
            color: Color::White,
            count: 2
        }
        .to_string(),
        "White has 2 kings, needs exactly one"
    );
}
