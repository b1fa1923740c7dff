//! Is a move that comes from elsewhere (the transposition table, a killer slot) playable in
//! this position? One move is tested on its own, without generating the position's moves, so
//! the search can try such a move before it generates anything.

use super::attacks::{between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks};
use super::attacks::{queen_attacks, rook_attacks};
use super::bitboard::Bitboard;
use super::movegen::is_legal;
use super::moves::{Move, MoveKind};
use super::position::Position;
use super::square::{Color, PieceKind};

/// Exactly `legal_moves` contains `m`, for any 16-bit move.
pub fn is_playable(pos: &Position, m: Move) -> bool {
    if m.is_null() || matches!(m.flags(), 6 | 7) {
        return false;
    }
    let us = pos.side_to_move();
    let from = m.from();
    let to = m.to();
    let piece = match pos.piece_at(from) {
        Some(p) if p.color == us => p,
        _ => return false,
    };
    // Castling and en passant are rare and have their own rules: the generator decides.
    if m.is_castle() || m.kind() == MoveKind::EnPassant {
        return is_legal(pos, m);
    }
    // The capture flag must say what the target square holds; kings are never captured.
    match pos.piece_at(to) {
        Some(p) if p.color == us || p.kind == PieceKind::King => return false,
        Some(_) if !m.is_capture() => return false,
        None if m.is_capture() => return false,
        _ => {}
    }
    let occupied = pos.occupied();
    if piece.kind == PieceKind::King {
        return matches!(m.kind(), MoveKind::Quiet | MoveKind::Capture)
            && king_attacks(from).contains(to)
            && !pos.is_attacked(to, !us, occupied ^ Bitboard::from_square(from));
    }
    let reaches = if piece.kind == PieceKind::Pawn {
        let up: i8 = if us == Color::White { 8 } else { -8 };
        if m.is_promotion() != (to.relative_rank(us) == 7) {
            return false;
        }
        if m.kind() == MoveKind::DoublePush {
            from.relative_rank(us) == 1
                && to.index() as i8 == from.index() as i8 + 2 * up
                && !occupied.contains(from.offset(up))
        } else if m.is_capture() {
            pawn_attacks(us, from).contains(to)
        } else {
            to.index() as i8 == from.index() as i8 + up
        }
    } else {
        let attacks = match piece.kind {
            PieceKind::Knight => knight_attacks(from),
            PieceKind::Bishop => bishop_attacks(from, occupied),
            PieceKind::Rook => rook_attacks(from, occupied),
            _ => queen_attacks(from, occupied),
        };
        matches!(m.kind(), MoveKind::Quiet | MoveKind::Capture) && attacks.contains(to)
    };
    if !reaches {
        return false;
    }
    // Legal: a single check is blocked or its checker taken; a pinned piece stays on its line.
    let king = pos.king_square(us);
    let checkers = pos.checkers();
    if checkers.several()
        || (checkers.any() && !(between(king, checkers.lowest()) | checkers).contains(to))
    {
        return false;
    }
    !pos.pinned(us).contains(from) || line(king, from).contains(to)
}
