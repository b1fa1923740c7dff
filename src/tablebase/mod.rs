//! Syzygy endgame tablebases: the folders' table files checked and loaded, WDL and DTZ probes
//! of our positions, and the ranking of root moves by DTZ (or WDL when DTZ tables are missing).
//! The only user of the `shakmaty-syzygy` crate; every probe crosses into it here, and nowhere
//! else, so a bad table costs an answer (`None`), never the engine.

mod files;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::{
    Bitboard as SBitboard, Board as SBoard, ByColor, ByRole, CastlingMode, Chess, FromSetup, Setup,
};
use shakmaty_syzygy::{Dtz, MaybeRounded, Tablebase, Wdl as SWdl};

use crate::board::{
    CastlingRights, Color, Move, MoveList, PieceKind, Position, Square, legal_moves,
};

pub use files::LoadProblem;

/// A position's value to the side to move, as the WDL tables state it: cursed wins and blessed
/// losses are the wins and losses the 50-move rule turns into draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    Loss,
    BlessedLoss,
    Draw,
    CursedWin,
    Win,
}

impl Wdl {
    /// -2 (loss) to 2 (win), the numbers python-chess and the Syzygy tools print.
    pub fn value(self) -> i32 {
        match self {
            Wdl::Loss => -2,
            Wdl::BlessedLoss => -1,
            Wdl::Draw => 0,
            Wdl::CursedWin => 1,
            Wdl::Win => 2,
        }
    }

    fn from_syzygy(wdl: SWdl) -> Wdl {
        match wdl {
            SWdl::Loss => Wdl::Loss,
            SWdl::BlessedLoss => Wdl::BlessedLoss,
            SWdl::Draw => Wdl::Draw,
            SWdl::CursedWin => Wdl::CursedWin,
            SWdl::Win => Wdl::Win,
        }
    }

    fn flipped(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// What the root moves are worth by the tables: a rank per move (higher is better, the
/// search keeps the moves of the best rank) and the root's value under the game's rules.
#[derive(Clone, Debug)]
pub struct RootRanking {
    pub ranks: Vec<(Move, i32)>,
    /// The root's value for the side to move, the 50-move rule applied as asked.
    pub wdl: Wdl,
    /// True when DTZ tables ranked the moves, false when only WDL tables did.
    pub by_dtz: bool,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Tablebases({} files, {} pieces)",
            self.count,
            self.max_pieces()
        )
    }
}

/// Ranks are offsets from this: a win within the 50-move rule ranks `RANK_WIN`, one that
/// needs more moves ranks lower, the longer the lower.
const RANK_WIN: i32 = 1 << 18;

/// The loaded tables of every folder, shared read-only by the search threads.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    count: usize,
    /// A failed probe is logged once; a table that fails keeps failing and would flood the log.
    probe_failure_logged: AtomicBool,
}

impl Tablebases {
    /// Loads every table file of the folders in `paths` (separated as the OS separates PATH:
    /// `:` on Unix, `;` on Windows). A folder or file that cannot be used is left out and
    /// named in the problems; the others load.
    pub fn load(paths: &str) -> (Tablebases, Vec<LoadProblem>) {
        let mut tables = Tablebase::new();
        let mut problems = Vec::new();
        let mut count = 0;
        for folder in std::env::split_paths(paths) {
            if folder.as_os_str().is_empty() {
                continue;
            }
            count += files::add_folder(&mut tables, &folder, &mut problems);
        }
        let tablebases = Tablebases {
            tables,
            count,
            probe_failure_logged: AtomicBool::new(false),
        };
        (tablebases, problems)
    }

    /// The number of table files (WDL and DTZ) loaded.
    pub fn file_count(&self) -> usize {
        self.count
    }

    /// The most pieces (kings included) of any loaded table; 0 with none.
    pub fn max_pieces(&self) -> u32 {
        self.tables.max_pieces() as u32
    }

    /// The WDL value of a position reached by a capture or pawn move (its halfmove clock is
    /// not read): `None` without castling rights or tables for it, or when a table fails.
    pub fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
        let chess = to_shakmaty(pos)?;
        self.guarded(|| self.tables.probe_wdl_after_zeroing(&chess))
            .map(Wdl::from_syzygy)
    }

    /// Plies to the next capture or pawn move with best play, signed as the side to move's
    /// result (positive wins), beyond ±100 for cursed wins and blessed losses; the same
    /// rounding as the tables store (python-chess's `probe_dtz`).
    pub fn probe_dtz(&self, pos: &Position) -> Option<i32> {
        let chess = to_shakmaty(pos)?;
        self.guarded(|| self.tables.probe_dtz(&chess))
            .map(|dtz: MaybeRounded<Dtz>| dtz.ignore_rounding().0)
    }

    /// Ranks the root's legal moves by DTZ, or by WDL where a DTZ table is missing, counting
    /// the position's halfmove clock against the 50-move rule when `rule50` (the rule off,
    /// cursed wins rank as wins). `None` when the tables do not cover the position.
    pub fn rank_root_moves(&self, pos: &Position, rule50: bool) -> Option<RootRanking> {
        if pos.castling() != CastlingRights::NONE || pos.occupied().count() > self.max_pieces() {
            return None;
        }
        let mut moves = MoveList::new();
        legal_moves(pos, &mut moves);
        if moves.is_empty() {
            return None;
        }
        self.rank_by_dtz(pos, &moves, rule50)
            .or_else(|| self.rank_by_wdl(pos, &moves, rule50))
    }

    fn rank_by_dtz(&self, pos: &Position, moves: &MoveList, rule50: bool) -> Option<RootRanking> {
        let clock = i32::from(pos.halfmove_clock());
        let mut ranks = Vec::with_capacity(moves.len());
        for &m in moves.iter() {
            let child = pos.make_move(m);
            let dtz = if child.halfmove_clock() == 0 {
                // Zeroing: the child's WDL says it all; one ply to zero.
                match self.probe_wdl(&child)?.flipped() {
                    Wdl::Win => 1,
                    Wdl::CursedWin => 101,
                    Wdl::Draw => 0,
                    Wdl::BlessedLoss => -101,
                    Wdl::Loss => -1,
                }
            } else if child.in_check() && !has_legal_move(&child) {
                1
            } else {
                let theirs = -self.probe_dtz(&child)?;
                theirs + theirs.signum()
            };
            // A win must zero one ply inside the limit: the tables' DTZ may be rounded by a
            // ply, and a mate that lands on the 100th ply comes after the claim. A loss is
            // counted the other way round, as lost unless it surely is not.
            // With the rule off a cursed win still ranks a point below a win, so a real win
            // is preferred where there is one.
            let rank = if dtz > 0 && !rule50 {
                RANK_WIN - i32::from(dtz > 100)
            } else if dtz > 0 {
                if dtz + clock <= 99 {
                    RANK_WIN
                } else {
                    RANK_WIN - (dtz + clock)
                }
            } else if dtz < 0 && !rule50 {
                -RANK_WIN + i32::from(dtz < -100)
            } else if dtz < 0 {
                if -dtz + clock <= 100 {
                    -RANK_WIN
                } else {
                    -RANK_WIN + (-dtz + clock)
                }
            } else {
                0
            };
            ranks.push((m, rank));
        }
        let best = ranks.iter().map(|&(_, r)| r).max()?;
        let wdl = if best >= RANK_WIN - 1 {
            Wdl::Win
        } else if best > 0 {
            Wdl::CursedWin
        } else if best == 0 {
            Wdl::Draw
        } else if best > -RANK_WIN + 1 {
            Wdl::BlessedLoss
        } else {
            Wdl::Loss
        };
        Some(RootRanking {
            ranks,
            wdl,
            by_dtz: true,
        })
    }

    fn rank_by_wdl(&self, pos: &Position, moves: &MoveList, rule50: bool) -> Option<RootRanking> {
        let mut ranks = Vec::with_capacity(moves.len());
        for &m in moves.iter() {
            let child = pos.make_move(m);
            let wdl = if child.in_check() && !has_legal_move(&child) {
                Wdl::Win
            } else {
                // Without DTZ the halfmove clock cannot be weighed: a non-zeroing move's
                // child is read as if just zeroed, as engines do in this fallback.
                self.probe_wdl(&child)?.flipped()
            };
            let wdl = if rule50 { wdl } else { ignore_rule50(wdl) };
            ranks.push((m, wdl.value()));
        }
        let best = ranks.iter().map(|&(_, r)| r).max()?;
        let wdl = match best {
            2 => Wdl::Win,
            1 => Wdl::CursedWin,
            0 => Wdl::Draw,
            -1 => Wdl::BlessedLoss,
            _ => Wdl::Loss,
        };
        Some(RootRanking {
            ranks,
            wdl,
            by_dtz: false,
        })
    }

    /// Runs one probe of the crate, turning its errors and (should a damaged table make it
    /// panic) its panics into `None`.
    fn guarded<T, E: std::fmt::Display>(&self, probe: impl FnOnce() -> Result<T, E>) -> Option<T> {
        match catch_unwind(AssertUnwindSafe(probe)) {
            Ok(Ok(value)) => Some(value),
            Ok(Err(error)) => {
                self.log_failure(&error.to_string());
                None
            }
            Err(_) => {
                self.log_failure("the probing code panicked");
                None
            }
        }
    }

    fn log_failure(&self, what: &str) {
        if !self.probe_failure_logged.swap(true, Ordering::Relaxed) {
            log::warn!("tablebase probe failed (later failures are not logged): {what}");
        }
    }
}

/// With `Syzygy50MoveRule` off a cursed win is a win and a blessed loss a loss.
pub fn ignore_rule50(wdl: Wdl) -> Wdl {
    match wdl {
        Wdl::CursedWin => Wdl::Win,
        Wdl::BlessedLoss => Wdl::Loss,
        other => other,
    }
}

fn has_legal_move(pos: &Position) -> bool {
    let mut moves = MoveList::new();
    legal_moves(pos, &mut moves);
    !moves.is_empty()
}

/// Our position as shakmaty's, for the crate's probes; `None` with castling rights (the
/// tables hold none) or a position shakmaty would not accept.
fn to_shakmaty(pos: &Position) -> Option<Chess> {
    if pos.castling() != CastlingRights::NONE {
        return None;
    }
    let bb = |kind| SBitboard(pos.kind(kind).0);
    let by_role = ByRole {
        pawn: bb(PieceKind::Pawn),
        knight: bb(PieceKind::Knight),
        bishop: bb(PieceKind::Bishop),
        rook: bb(PieceKind::Rook),
        queen: bb(PieceKind::Queen),
        king: bb(PieceKind::King),
    };
    let by_color = ByColor {
        white: SBitboard(pos.color(Color::White).0),
        black: SBitboard(pos.color(Color::Black).0),
    };
    let mut setup = Setup::empty();
    setup.board = SBoard::try_from_bitboards(by_role, by_color).ok()?;
    setup.turn = match pos.side_to_move() {
        Color::White => shakmaty::Color::White,
        Color::Black => shakmaty::Color::Black,
    };
    setup.ep_square = pos
        .en_passant()
        .map(|sq: Square| shakmaty::Square::new(sq.index() as u32));
    setup.halfmoves = u32::from(pos.halfmove_clock());
    Chess::from_setup(setup, CastlingMode::Standard).ok()
}

#[cfg(test)]
mod tests;
