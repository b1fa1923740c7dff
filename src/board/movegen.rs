//! Legal move generation with check and pin masks: every move emitted is legal, so perft
//! needs no make-and-test and search never has to reject a move after making it.

use super::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use super::bitboard::Bitboard;
use super::castling::{CastleSide, home_rank};
use super::moves::{Move, MoveKind, MoveList};
use super::position::Position;
use super::square::{Color, PieceKind, Square};

/// All legal moves.
pub fn legal_moves(pos: &Position, list: &mut MoveList) {
    list.clear();
    generate::<false>(pos, list);
}

/// Legal captures and queen promotions (for quiescence). Callers in check should use
/// `legal_moves` instead, to see every evasion.
pub fn legal_captures(pos: &Position, list: &mut MoveList) {
    list.clear();
    generate::<true>(pos, list);
}

/// Number of legal moves, for perft's last ply.
pub fn count_legal_moves(pos: &Position) -> usize {
    let mut list = MoveList::new();
    generate::<false>(pos, &mut list);
    list.len()
}

/// Whether the position has at least `n` legal moves (for the null move's zugzwang guard).
/// Out of check the knights' and sliders' moves are counted first, each piece's targets at
/// once: a piece not pinned goes to every target, a pinned slider along its pin only. With
/// pieces on the board those alone nearly always reach `n`, and the king's moves, which
/// need an attack test per square, are generated only when they do not.
pub fn has_legal_moves_at_least(pos: &Position, n: usize) -> bool {
    if n == 0 {
        return true;
    }
    if pos.checkers().is_empty() {
        let target = !pos.color(pos.side_to_move());
        let mut count = 0;
        for_each_piece_targets(pos, target, pos.pinned(pos.side_to_move()), |_, targets| {
            count += targets.count() as usize;
        });
        if count >= n {
            return true;
        }
    }
    count_legal_moves(pos) >= n
}

/// Is `m` (say from the transposition table or a killer slot) legal here? Cheap enough for
/// rare calls only: it generates every legal move of the position and looks `m` up.
pub fn is_legal(pos: &Position, m: Move) -> bool {
    if m.is_null() {
        return false;
    }
    match pos.piece_at(m.from()) {
        Some(p) if p.color == pos.side_to_move() => {}
        _ => return false,
    }
    let mut list = MoveList::new();
    generate::<false>(pos, &mut list);
    list.contains(m)
}

#[inline]
fn push_targets(list: &mut MoveList, pos: &Position, from: Square, targets: Bitboard) {
    let theirs = pos.color(!pos.side_to_move());
    for to in targets {
        let kind = if theirs.contains(to) {
            MoveKind::Capture
        } else {
            MoveKind::Quiet
        };
        list.push(Move::new(from, to, kind));
    }
}

#[inline]
fn push_promotions<const CAPTURES_ONLY: bool>(
    list: &mut MoveList,
    from: Square,
    to: Square,
    capture: bool,
) {
    list.push(Move::new(
        from,
        to,
        Move::promotion_kind(PieceKind::Queen, capture),
    ));
    if !CAPTURES_ONLY {
        for kind in [PieceKind::Knight, PieceKind::Rook, PieceKind::Bishop] {
            list.push(Move::new(from, to, Move::promotion_kind(kind, capture)));
        }
    }
}

fn generate<const CAPTURES_ONLY: bool>(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let them = !us;
    let occupied = pos.occupied();
    let ours = pos.color(us);
    let theirs = pos.color(them);
    let king = pos.king_square(us);
    let checkers = pos.checkers();

    // King moves: test each target with the king lifted off the board, so it cannot hide
    // behind itself from a slider.
    let without_king = occupied ^ Bitboard::from_square(king);
    let mut king_targets = king_attacks(king) & !ours;
    if CAPTURES_ONLY {
        king_targets &= theirs;
    }
    for to in king_targets {
        if !pos.is_attacked(to, them, without_king) {
            let kind = if theirs.contains(to) {
                MoveKind::Capture
            } else {
                MoveKind::Quiet
            };
            list.push(Move::new(king, to, kind));
        }
    }
    if checkers.several() {
        return;
    }

    let check_mask = if checkers.any() {
        between(king, checkers.lowest()) | checkers
    } else {
        Bitboard::ALL
    };
    let pinned = pos.pinned(us);
    let mut target = !ours & check_mask;
    if CAPTURES_ONLY {
        target &= theirs;
    }

    for_each_piece_targets(pos, target, pinned, |from, targets| {
        push_targets(list, pos, from, targets);
    });

    generate_pawn_moves::<CAPTURES_ONLY>(pos, list, check_mask, pinned, king);

    if !CAPTURES_ONLY && checkers.is_empty() {
        generate_castling(pos, list, king);
    }
}

/// Hands `visit` each knight's, bishop's, rook's and queen's legal targets within `target`
/// (the squares not ours, narrowed to the check's and, for captures only, theirs): a pinned
/// knight has none, a pinned slider keeps the line through its king.
#[inline(always)]
fn for_each_piece_targets(
    pos: &Position,
    target: Bitboard,
    pinned: Bitboard,
    mut visit: impl FnMut(Square, Bitboard),
) {
    let us = pos.side_to_move();
    let occupied = pos.occupied();
    let king = pos.king_square(us);
    for from in pos.pieces(us, PieceKind::Knight) & !pinned {
        visit(from, knight_attacks(from) & target);
    }
    let pin_line = |from: Square| {
        if pinned.contains(from) {
            line(king, from)
        } else {
            Bitboard::ALL
        }
    };
    let queens = pos.pieces(us, PieceKind::Queen);
    for from in pos.pieces(us, PieceKind::Bishop) | queens {
        visit(
            from,
            bishop_attacks(from, occupied) & target & pin_line(from),
        );
    }
    for from in pos.pieces(us, PieceKind::Rook) | queens {
        visit(from, rook_attacks(from, occupied) & target & pin_line(from));
    }
}

fn generate_pawn_moves<const CAPTURES_ONLY: bool>(
    pos: &Position,
    list: &mut MoveList,
    check_mask: Bitboard,
    pinned: Bitboard,
    king: Square,
) {
    let us = pos.side_to_move();
    let them = !us;
    let occupied = pos.occupied();
    let empty = !occupied;
    let theirs = pos.color(them);
    let pawns = pos.pieces(us, PieceKind::Pawn);
    let promotion_rank = Bitboard::rank(if us == Color::White { 7 } else { 0 });
    let double_rank = Bitboard::rank(if us == Color::White { 3 } else { 4 });
    let (up, up_left, up_right): (i8, i8, i8) = match us {
        Color::White => (8, 7, 9),
        Color::Black => (-8, -9, -7),
    };

    // Pinned pawns may only move along the pin line; handle the free ones set-wise.
    let free = pawns & !pinned;
    let pinned_pawns = pawns & pinned;

    // Pushes.
    let single = free.forward(us) & empty;
    let double = single.forward(us) & empty & double_rank;
    for to in single & check_mask & promotion_rank {
        push_promotions::<CAPTURES_ONLY>(list, to.offset(-up), to, false);
    }
    if !CAPTURES_ONLY {
        for to in single & check_mask & !promotion_rank {
            list.push(Move::new(to.offset(-up), to, MoveKind::Quiet));
        }
        for to in double & check_mask {
            list.push(Move::new(to.offset(-2 * up), to, MoveKind::DoublePush));
        }
    }

    // Captures.
    let capture_targets = theirs & check_mask;
    let left = free.forward(us).west() & capture_targets;
    let right = free.forward(us).east() & capture_targets;
    for (targets, delta) in [(left, up_left), (right, up_right)] {
        for to in targets {
            let from = to.offset(-delta);
            if promotion_rank.contains(to) {
                push_promotions::<CAPTURES_ONLY>(list, from, to, true);
            } else {
                list.push(Move::new(from, to, MoveKind::Capture));
            }
        }
    }

    // Pinned pawns, one at a time (rare).
    for from in pinned_pawns {
        let allowed = line(king, from) & check_mask;
        let push = Bitboard::from_square(from).forward(us) & empty;
        for to in pawn_attacks(us, from) & theirs & allowed {
            if promotion_rank.contains(to) {
                push_promotions::<CAPTURES_ONLY>(list, from, to, true);
            } else {
                list.push(Move::new(from, to, MoveKind::Capture));
            }
        }
        for to in push & allowed {
            if promotion_rank.contains(to) {
                push_promotions::<CAPTURES_ONLY>(list, from, to, false);
            } else if !CAPTURES_ONLY {
                list.push(Move::new(from, to, MoveKind::Quiet));
            }
        }
        if !CAPTURES_ONLY {
            for to in push.forward(us) & empty & double_rank & allowed {
                list.push(Move::new(from, to, MoveKind::DoublePush));
            }
        }
    }

    // En passant: simulate the capture, which removes two pawns from one rank at once, and
    // check the king against sliders directly.
    if let Some(ep) = pos.en_passant() {
        let victim = ep.offset(-up);
        let checkers = pos.checkers();
        if checkers.any() && !checkers.contains(victim) && !check_mask.contains(ep) {
            return;
        }
        for from in pawn_attacks(them, ep) & pawns {
            let after = occupied ^ Bitboard::from_square(from) ^ Bitboard::from_square(victim)
                | Bitboard::from_square(ep);
            let rooks = (pos.pieces(them, PieceKind::Rook) | pos.pieces(them, PieceKind::Queen))
                & !Bitboard::from_square(victim);
            let bishops = pos.pieces(them, PieceKind::Bishop) | pos.pieces(them, PieceKind::Queen);
            if (rook_attacks(king, after) & rooks).any()
                || (bishop_attacks(king, after) & bishops).any()
            {
                continue;
            }
            list.push(Move::new(from, ep, MoveKind::EnPassant));
        }
    }
}

/// Castling for any king and rook files (normal chess is the case e-file king, a/h rooks):
/// every square between the king and its goal and between the rook and its goal is empty
/// but for those two pieces, and no square the king stands on, passes or lands on is
/// attacked. Attacks are tested with king and rook lifted, so a castling rook cannot hide
/// its own king's goal square from a slider behind it.
fn generate_castling(pos: &Position, list: &mut MoveList, king: Square) {
    let us = pos.side_to_move();
    let them = !us;
    let rights = pos.castling();
    if !(rights.has(us, CastleSide::King) || rights.has(us, CastleSide::Queen)) {
        return;
    }
    let rank = home_rank(us);
    let occupied = pos.occupied();
    let rooks = pos.pieces(us, PieceKind::Rook);
    for side in CastleSide::BOTH {
        let Some(rook) = rights.rook_square(us, side) else {
            continue;
        };
        if !rooks.contains(rook) {
            continue;
        }
        let king_goal = Square::from_file_rank(side.king_goal_file(), rank);
        let rook_goal = Square::from_file_rank(side.rook_goal_file(), rank);
        let others = occupied ^ Bitboard::from_square(king) ^ Bitboard::from_square(rook);
        let king_path = between(king, king_goal) | Bitboard::from_square(king_goal);
        let rook_path = between(rook, rook_goal) | Bitboard::from_square(rook_goal);
        if ((king_path | rook_path) & others).any() {
            continue;
        }
        if Iterator::any(&mut king_path.into_iter(), |sq| {
            pos.is_attacked(sq, them, others)
        }) {
            continue;
        }
        let kind = match side {
            CastleSide::King => MoveKind::KingCastle,
            CastleSide::Queen => MoveKind::QueenCastle,
        };
        list.push(Move::new(king, king_goal, kind));
    }
}
