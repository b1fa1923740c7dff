//! `Position`: piece placement as bitboards plus a mailbox, side to move, castling rights,
//! en-passant square, clocks and an incrementally updated Zobrist key. Moves are applied by
//! copy-make (`make_move` returns the child), which keeps search and perft free of undo bugs.

use super::attacks::{
    ZOBRIST_EN_PASSANT, ZOBRIST_PIECES, ZOBRIST_SIDE, between, bishop_attacks, king_attacks,
    knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use super::bitboard::{Bitboard, DARK_SQUARES, LIGHT_SQUARES};
use super::castling::CastlingRights;
use super::castling::home_rank;
use super::moves::{Move, MoveKind};
use super::square::{Color, Piece, PieceKind, Square};

#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    by_kind: [Bitboard; 6],
    by_color: [Bitboard; 2],
    mailbox: [Option<Piece>; 64],
    side: Color,
    castling: CastlingRights,
    /// Set only when a pawn of the side to move can actually capture there, so equal
    /// positions (in the FIDE sense) always have equal keys.
    en_passant: Option<Square>,
    halfmove_clock: u16,
    fullmove_number: u16,
    key: u64,
    checkers: Bitboard,
}

#[inline]
fn piece_key(piece: Piece, sq: Square) -> u64 {
    ZOBRIST_PIECES[piece.index() * 64 + sq.index()]
}

impl Position {
    /// An empty board, White to move; `fen` and tests build positions from it, and the search
    /// fills its spare node records with it.
    pub(crate) fn empty() -> Position {
        Position {
            by_kind: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [None; 64],
            side: Color::White,
            castling: CastlingRights::NONE,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            key: 0,
            checkers: Bitboard::EMPTY,
        }
    }

    // ----- setup (used by the FEN parser) -----

    pub(crate) fn put_piece(&mut self, piece: Piece, sq: Square) {
        debug_assert!(self.mailbox[sq.index()].is_none());
        let bb = Bitboard::from_square(sq);
        self.by_kind[piece.kind.index()] |= bb;
        self.by_color[piece.color.index()] |= bb;
        self.mailbox[sq.index()] = Some(piece);
        self.key ^= piece_key(piece, sq);
    }

    fn remove_piece(&mut self, piece: Piece, sq: Square) {
        debug_assert_eq!(self.mailbox[sq.index()], Some(piece));
        let bb = Bitboard::from_square(sq);
        self.by_kind[piece.kind.index()] ^= bb;
        self.by_color[piece.color.index()] ^= bb;
        self.mailbox[sq.index()] = None;
        self.key ^= piece_key(piece, sq);
    }

    fn move_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let bb = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_kind[piece.kind.index()] ^= bb;
        self.by_color[piece.color.index()] ^= bb;
        self.mailbox[from.index()] = None;
        self.mailbox[to.index()] = Some(piece);
        self.key ^= piece_key(piece, from) ^ piece_key(piece, to);
    }

    pub(crate) fn set_side(&mut self, side: Color) {
        self.side = side;
    }

    pub(crate) fn set_castling(&mut self, rights: CastlingRights) {
        self.castling = rights;
    }

    pub(crate) fn set_en_passant(&mut self, sq: Option<Square>) {
        self.en_passant = sq;
    }

    pub(crate) fn set_clocks(&mut self, halfmove: u16, fullmove: u16) {
        self.halfmove_clock = halfmove;
        self.fullmove_number = fullmove;
    }

    /// Recomputes the derived fields (key, checkers) after a setup.
    pub(crate) fn finish_setup(&mut self) {
        self.key = self.compute_key();
        self.checkers = self.attackers_to(self.king_square(self.side), self.occupied())
            & self.color(!self.side);
    }

    // ----- queries -----

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }

    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq.index()]
    }

    #[inline]
    pub fn kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    #[inline]
    pub fn color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(color, PieceKind::King).lowest()
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Whether legal move `m` checks the opponent: its piece from its target square, or a
    /// slider of ours it uncovers (castling and en passant are made to see).
    pub fn gives_check(&self, m: Move) -> bool {
        if m.is_castle() || m.kind() == MoveKind::EnPassant {
            return self.make_move(m).in_check();
        }
        let us = self.side;
        let king = self.king_square(!us);
        let (from, to) = (m.from(), m.to());
        let occupied = (self.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
        let kind = m
            .promotion()
            .unwrap_or_else(|| self.mailbox[from.index()].map_or(PieceKind::Pawn, |p| p.kind));
        let direct = match kind {
            PieceKind::Pawn => pawn_attacks(us, to),
            PieceKind::Knight => knight_attacks(to),
            PieceKind::Bishop => bishop_attacks(to, occupied),
            PieceKind::Rook => rook_attacks(to, occupied),
            PieceKind::Queen => queen_attacks(to, occupied),
            PieceKind::King => Bitboard::EMPTY,
        };
        if direct.contains(king) {
            return true;
        }
        let ours = self.color(us) & !Bitboard::from_square(from);
        let diagonal = (self.kind(PieceKind::Bishop) | self.kind(PieceKind::Queen)) & ours;
        let straight = (self.kind(PieceKind::Rook) | self.kind(PieceKind::Queen)) & ours;
        (bishop_attacks(king, occupied) & diagonal).any()
            || (rook_attacks(king, occupied) & straight).any()
    }

    /// Pieces of both colours attacking `sq`, given an occupancy.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let rooks = self.kind(PieceKind::Rook) | self.kind(PieceKind::Queen);
        let bishops = self.kind(PieceKind::Bishop) | self.kind(PieceKind::Queen);
        (pawn_attacks(Color::White, sq) & self.pieces(Color::Black, PieceKind::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces(Color::White, PieceKind::Pawn))
            | (knight_attacks(sq) & self.kind(PieceKind::Knight))
            | (king_attacks(sq) & self.kind(PieceKind::King))
            | (rook_attacks(sq, occupied) & rooks)
            | (bishop_attacks(sq, occupied) & bishops)
    }

    /// Is `sq` attacked by `by`, with the given occupancy?
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let them = self.color(by);
        (pawn_attacks(!by, sq) & self.kind(PieceKind::Pawn) & them).any()
            || (knight_attacks(sq) & self.kind(PieceKind::Knight) & them).any()
            || (king_attacks(sq) & self.kind(PieceKind::King) & them).any()
            || (rook_attacks(sq, occupied)
                & (self.kind(PieceKind::Rook) | self.kind(PieceKind::Queen))
                & them)
                .any()
            || (bishop_attacks(sq, occupied)
                & (self.kind(PieceKind::Bishop) | self.kind(PieceKind::Queen))
                & them)
                .any()
    }

    /// Our pieces that stand alone between our king and an enemy slider.
    pub fn pinned(&self, us: Color) -> Bitboard {
        let king = self.king_square(us);
        let them = !us;
        let occupied = self.occupied();
        let snipers = (rook_attacks(king, Bitboard::EMPTY)
            & (self.pieces(them, PieceKind::Rook) | self.pieces(them, PieceKind::Queen)))
            | (bishop_attacks(king, Bitboard::EMPTY)
                & (self.pieces(them, PieceKind::Bishop) | self.pieces(them, PieceKind::Queen)));
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if blockers.any() && !blockers.several() {
                pinned |= blockers & self.color(us);
            }
        }
        pinned
    }

    /// The key recomputed from scratch; `key()` must always equal it.
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupied() {
            if let Some(piece) = self.piece_at(sq) {
                key ^= piece_key(piece, sq);
            }
        }
        key ^= self.castling.zobrist();
        if let Some(ep) = self.en_passant {
            key ^= ZOBRIST_EN_PASSANT[ep.file() as usize];
        }
        if self.side == Color::Black {
            key ^= ZOBRIST_SIDE;
        }
        key
    }

    /// Neither side can ever mate: no pawns, rooks or queens, and at most one minor piece, or
    /// only bishops all on squares of one colour.
    pub fn is_insufficient_material(&self) -> bool {
        if (self.kind(PieceKind::Pawn) | self.kind(PieceKind::Rook) | self.kind(PieceKind::Queen))
            .any()
        {
            return false;
        }
        let knights = self.kind(PieceKind::Knight);
        let bishops = self.kind(PieceKind::Bishop);
        if (knights | bishops).count() <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & LIGHT_SQUARES).is_empty() || (bishops & DARK_SQUARES).is_empty())
    }

    /// Any piece other than pawns and king for `color`: null-move pruning is unsafe without.
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        (self.color(color) & !(self.kind(PieceKind::Pawn) | self.kind(PieceKind::King))).any()
    }

    // ----- making moves -----

    /// The position after `m`, which must be legal in `self`.
    pub fn make_move(&self, m: Move) -> Position {
        let mut next = self.clone();
        next.apply(m);
        next
    }

    /// `make_move` into a position the caller keeps (a search node's child): the board is
    /// copied once, where returning the child by value copies it twice more.
    pub fn make_move_into(&self, m: Move, child: &mut Position) {
        child.clone_from(self);
        child.apply(m);
    }

    fn apply(&mut self, m: Move) {
        let us = self.side;
        let them = !us;
        let from = m.from();
        let to = m.to();
        let piece = self.mailbox[from.index()].expect("make_move: no piece on the from-square");
        debug_assert_eq!(
            piece.color, us,
            "make_move: moving the opponent's piece {m}"
        );

        if let Some(ep) = self.en_passant.take() {
            self.key ^= ZOBRIST_EN_PASSANT[ep.file() as usize];
        }
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);

        match m.kind() {
            MoveKind::EnPassant => {
                let victim_sq = Square::from_file_rank(to.file(), from.rank());
                self.remove_piece(Piece::new(them, PieceKind::Pawn), victim_sq);
            }
            _ if m.is_capture() => {
                let victim = self.mailbox[to.index()].expect("capture of an empty square");
                debug_assert!(victim.color == them && victim.kind != PieceKind::King);
                self.remove_piece(victim, to);
            }
            _ => {}
        }
        if m.is_capture() {
            self.halfmove_clock = 0;
        }

        if let Some(promoted) = m.promotion() {
            self.remove_piece(piece, from);
            self.put_piece(Piece::new(us, promoted), to);
        } else if let Some(side) = m.castle_side() {
            // Lift both pieces before placing either: in Chess960 the king and rook may
            // swap squares or stand on each other's goal squares.
            let rook = Piece::new(us, PieceKind::Rook);
            let rook_from = self
                .castling
                .rook_square(us, side)
                .expect("make_move: castling without the right");
            let rank = home_rank(us);
            self.remove_piece(piece, from);
            self.remove_piece(rook, rook_from);
            self.put_piece(piece, to);
            self.put_piece(rook, Square::from_file_rank(side.rook_goal_file(), rank));
        } else {
            self.move_piece(piece, from, to);
        }

        if piece.kind == PieceKind::Pawn {
            self.halfmove_clock = 0;
            if m.kind() == MoveKind::DoublePush {
                let ep = Square::from_file_rank(from.file(), (from.rank() + to.rank()) / 2);
                // Only record it when an enemy pawn could take: keeps keys FIDE-equal.
                if (pawn_attacks(us, ep) & self.pieces(them, PieceKind::Pawn)).any() {
                    self.en_passant = Some(ep);
                    self.key ^= ZOBRIST_EN_PASSANT[ep.file() as usize];
                }
            }
        }

        if !self.castling.is_empty() {
            let rights = self
                .castling
                .after_move(us, piece.kind == PieceKind::King, from, to);
            if rights != self.castling {
                self.key ^= self.castling.zobrist() ^ rights.zobrist();
                self.castling = rights;
            }
        }

        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.side = them;
        self.key ^= ZOBRIST_SIDE;
        self.checkers = self.attackers_to(self.king_square(them), self.occupied()) & self.color(us);
        debug_assert_eq!(self.key, self.compute_key());
    }

    /// Passes the move to the opponent (null-move pruning); the side to move must not be in check.
    pub fn make_null_move(&self) -> Position {
        debug_assert!(!self.in_check());
        let mut next = self.clone();
        if let Some(ep) = next.en_passant.take() {
            next.key ^= ZOBRIST_EN_PASSANT[ep.file() as usize];
        }
        next.side = !self.side;
        next.key ^= ZOBRIST_SIDE;
        next.halfmove_clock = next.halfmove_clock.saturating_add(1);
        next.checkers = Bitboard::EMPTY;
        next
    }

    /// The position with colours swapped and the board mirrored top to bottom: the same
    /// game from the other side (used to test that evaluation is symmetric).
    pub fn mirrored(&self) -> Position {
        let mut mirror = Position::empty();
        for sq in self.occupied() {
            if let Some(p) = self.piece_at(sq) {
                mirror.put_piece(Piece::new(!p.color, p.kind), sq.flip_rank());
            }
        }
        mirror.side = !self.side;
        mirror.castling = self.castling.colors_swapped();
        mirror.en_passant = self.en_passant.map(Square::flip_rank);
        mirror.halfmove_clock = self.halfmove_clock;
        mirror.fullmove_number = self.fullmove_number;
        mirror.finish_setup();
        mirror
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{CastlingMode, MoveList, legal_moves};

    #[test]
    fn halfmove_clock_saturates_instead_of_wrapping() {
        let mut pos = Position::from_fen("8/8/8/8/8/8/8/K6k w - - 0 1").unwrap();
        pos.set_clocks(u16::MAX, 1);
        let mut moves = MoveList::new();
        legal_moves(&pos, &mut moves);
        let quiet = moves.iter().copied().next().unwrap();
        assert_eq!(pos.make_move(quiet).halfmove_clock(), u16::MAX);
        assert_eq!(pos.make_null_move().halfmove_clock(), u16::MAX);
    }

    #[test]
    fn gives_check_agrees_with_making_the_move() {
        let suites = [
            (
                include_str!("../../tests/data/perft.epd"),
                CastlingMode::Standard,
            ),
            (
                include_str!("../../tests/data/perft960.epd"),
                CastlingMode::Chess960,
            ),
        ];
        let (mut moves, mut checks) = (0, 0);
        for (line, mode) in suites
            .iter()
            .flat_map(|&(s, mode)| s.lines().map(move |l| (l, mode)))
        {
            let Some(fen) = line
                .split(';')
                .next()
                .filter(|f| !f.trim().is_empty() && !f.starts_with('#'))
            else {
                continue;
            };
            let root = Position::from_fen_in(fen.trim(), mode).unwrap();
            let mut first = MoveList::new();
            legal_moves(&root, &mut first);
            // The root and the positions a move later, for checks made from odd corners.
            let positions =
                std::iter::once(root.clone()).chain(first.iter().map(|&m| root.make_move(m)));
            for pos in positions {
                let mut list = MoveList::new();
                legal_moves(&pos, &mut list);
                for &m in list.iter() {
                    let expected = pos.make_move(m).in_check();
                    assert_eq!(pos.gives_check(m), expected, "{} {m}", pos.to_fen());
                    moves += 1;
                    checks += usize::from(expected);
                }
            }
        }
        assert!(
            moves > 10_000 && checks > 500,
            "{moves} moves, {checks} checks"
        );
    }
}
