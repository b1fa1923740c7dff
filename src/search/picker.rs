//! The staged move picker: hands a node its moves one at a time, generating them only when
//! the node gets that far. Main search: the TT move (tested on its own, before any
//! generation), captures winning or holding material by SEE (by victim, then attacker, moved
//! by capture history), the killers and the counter move, quiet moves by butterfly and
//! continuation histories and what they do about the opponent's threats, then losing
//! captures and underpromotions. Quiescence: the TT move, then the captures that hold
//! material by SEE (and, right after a null move, the quiet checks that keep their piece).

use crate::board::{Move, MoveList, PieceKind, Position, is_playable, legal_captures, legal_moves};

use super::history::ContinuationSlots;
use super::ordering::{OrderingTables, Threats, mvv_lva, see_at_least};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    TtMove,
    GenerateCaptures,
    GoodCaptures,
    FirstKiller,
    SecondKiller,
    CounterMove,
    GenerateQuiets,
    /// Quiet moves by history, then losing captures and underpromotions.
    QuietsThenBad,
    QuiescenceTtMove,
    QuiescenceGenerate,
    QuiescenceCaptures,
    /// After a null move: the quiet moves that give check, so a mate threat is seen.
    QuiescenceChecks,
    Done,
}

/// Below every quiet move's history score.
const LOSING: i32 = -1_000_000;

/// Captures of equal score go in generation order: the index sits in the low bits of the key.
#[inline]
fn sort_key(score: i32, index: usize) -> i32 {
    score * 256 + (255 - index as i32)
}

#[derive(Clone)]
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    /// The (piece, target) of the moves one, two and four plies back, for continuation
    /// histories.
    continuation: ContinuationSlots,
    /// What the opponent attacks, for the quiet moves' order and the node's history reads;
    /// found once the first quiet move is about to be handed out (most nodes cut before).
    threats: Threats,
    threats_known: bool,
    /// The stage's moves and their sort keys; `moves[next..end]` are still to be handed out.
    moves: MoveList,
    keys: [i32; 256],
    next: usize,
    end: usize,
    /// The moves handed out before the quiet stage, in order.
    handed: MoveList,
    /// Quiescence also hands out quiet checks, after the captures.
    checks: bool,
}

impl Default for MovePicker {
    fn default() -> Self {
        MovePicker {
            stage: Stage::Done,
            tt_move: Move::NULL,
            killers: [Move::NULL; 2],
            counter: Move::NULL,
            continuation: [None; 3],
            threats: Threats::default(),
            threats_known: false,
            moves: MoveList::new(),
            keys: [0; 256],
            next: 0,
            end: 0,
            handed: MoveList::new(),
            checks: false,
        }
    }
}

impl MovePicker {
    /// Starts over for a main-search node (also quiescence in check: every evasion).
    pub fn reset_main(
        &mut self,
        tt_move: Move,
        killers: [Move; 2],
        counter: Move,
        continuation: ContinuationSlots,
        threat_ordering: bool,
    ) {
        self.stage = Stage::TtMove;
        self.tt_move = tt_move;
        self.killers = killers;
        self.counter = counter;
        self.continuation = continuation;
        // Without `Threat Ordering` the threats stay empty: one history slice, no bonus.
        self.threats_known = !threat_ordering;
        if !threat_ordering {
            self.threats = Threats::default();
        }
        self.handed.clear();
    }

    /// The threats against the side to move, known from the first quiet move handed out on.
    pub fn threats(&self) -> &Threats {
        debug_assert!(self.threats_known, "threats read before a quiet move");
        &self.threats
    }

    fn know_threats(&mut self, pos: &Position) {
        if !self.threats_known {
            self.threats = Threats::of(pos);
            self.threats_known = true;
        }
    }

    /// Starts over for a quiescence node out of check: only captures and queen promotions,
    /// and of those only the ones SEE does not expect to lose material (the TT move excepted).
    pub fn reset_quiescence(&mut self, tt_move: Move) {
        self.stage = Stage::QuiescenceTtMove;
        self.tt_move = tt_move;
        self.checks = false;
    }

    /// As `reset_quiescence`, then the quiet moves that give check (not the TT move).
    pub fn reset_quiescence_with_checks(&mut self, tt_move: Move) {
        self.reset_quiescence(tt_move);
        self.checks = true;
    }

    /// The next move, or `None` when every move has been handed out.
    pub fn next(&mut self, pos: &Position, tables: &OrderingTables) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenerateCaptures;
                    if is_playable(pos, self.tt_move) {
                        if !self.tt_move.is_tactical() {
                            self.know_threats(pos);
                        }
                        self.handed.push(self.tt_move);
                        return Some(self.tt_move);
                    }
                    self.tt_move = Move::NULL;
                }
                Stage::GenerateCaptures | Stage::QuiescenceGenerate => {
                    self.generate_captures(pos, tables);
                    self.stage = if self.stage == Stage::GenerateCaptures {
                        Stage::GoodCaptures
                    } else {
                        Stage::QuiescenceCaptures
                    };
                }
                Stage::GoodCaptures | Stage::QuiescenceCaptures => {
                    // Losing captures come back with the quiet moves (quiescence drops them).
                    while let Some(m) = self.pick() {
                        if m != self.tt_move && see_at_least(pos, m, 0) {
                            if self.stage == Stage::GoodCaptures {
                                self.handed.push(m);
                            }
                            return Some(m);
                        }
                    }
                    self.stage = if self.stage == Stage::GoodCaptures {
                        self.know_threats(pos);
                        Stage::FirstKiller
                    } else if self.checks {
                        self.generate_quiet_checks(pos);
                        Stage::QuiescenceChecks
                    } else {
                        Stage::Done
                    };
                }
                Stage::QuiescenceChecks => {
                    if self.next < self.end {
                        let m = self.moves.get(self.next);
                        self.next += 1;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::FirstKiller => {
                    self.stage = Stage::SecondKiller;
                    let m = self.killers[0];
                    if self.is_quiet_candidate(pos, m) {
                        self.handed.push(m);
                        return Some(m);
                    }
                }
                Stage::SecondKiller => {
                    self.stage = Stage::CounterMove;
                    let m = self.killers[1];
                    if m != self.killers[0] && self.is_quiet_candidate(pos, m) {
                        self.handed.push(m);
                        return Some(m);
                    }
                }
                Stage::CounterMove => {
                    self.stage = Stage::GenerateQuiets;
                    let m = self.counter;
                    if !self.killers.contains(&m) && self.is_quiet_candidate(pos, m) {
                        self.handed.push(m);
                        return Some(m);
                    }
                }
                Stage::GenerateQuiets => {
                    self.generate_quiets(pos, tables);
                    self.stage = Stage::QuietsThenBad;
                }
                Stage::QuietsThenBad => {
                    if let Some(m) = self.pick() {
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::QuiescenceTtMove => {
                    self.stage = Stage::QuiescenceGenerate;
                    let m = self.tt_move;
                    if m.is_tactical()
                        && m.promotion().is_none_or(|k| k == PieceKind::Queen)
                        && is_playable(pos, m)
                    {
                        return Some(m);
                    }
                    self.tt_move = Move::NULL;
                }
                Stage::Done => return None,
            }
        }
    }

    /// Generates the captures and queen promotions, scored for `pick`.
    ///
    /// Not inlined, nor is `generate_quiets`: inside `next`, the compiler set up the
    /// generators' masks at every move handed out (cost in docs/search.md).
    #[inline(never)]
    fn generate_captures(&mut self, pos: &Position, tables: &OrderingTables) {
        legal_captures(pos, &mut self.moves);
        for (i, &m) in self.moves.iter().enumerate() {
            self.keys[i] = sort_key(tables.capture_score(pos, m), i);
        }
        self.next = 0;
        self.end = self.moves.len();
    }

    /// Swaps the remaining move with the highest key to the front and hands it out.
    #[inline]
    fn pick(&mut self) -> Option<Move> {
        if self.next >= self.end {
            return None;
        }
        let keys = &self.keys[self.next..self.end];
        let mut best = 0;
        let mut best_key = keys[0];
        for (j, &key) in keys.iter().enumerate().skip(1) {
            if key > best_key {
                best = j;
                best_key = key;
            }
        }
        let best = self.next + best;
        self.moves.swap(self.next, best);
        self.keys.swap(self.next, best);
        let picked = self.moves.get(self.next);
        self.next += 1;
        Some(picked)
    }

    /// Generates the quiet moves that give check without losing the checking piece (a piece
    /// the king or another piece just takes does not mate), in generation order, leaving out
    /// the TT move (handed out already if it was one of them).
    #[inline(never)]
    fn generate_quiet_checks(&mut self, pos: &Position) {
        let mut all = MoveList::new();
        legal_moves(pos, &mut all);
        self.moves.clear();
        for &m in all.iter() {
            if !m.is_tactical()
                && m != self.tt_move
                && pos.gives_check(m)
                && see_at_least(pos, m, 0)
            {
                self.moves.push(m);
            }
        }
        self.next = 0;
        self.end = self.moves.len();
    }

    /// A killer or counter move still to be tried: quiet, not the TT move, playable here.
    fn is_quiet_candidate(&self, pos: &Position, m: Move) -> bool {
        !m.is_null() && !m.is_tactical() && m != self.tt_move && is_playable(pos, m)
    }

    /// Generates every move; the moves handed out so far are swapped to the front in the
    /// order they were handed out, and the rest are scored: quiet moves by history, losing
    /// captures and underpromotions (every capture left) below any quiet move.
    ///
    /// Ties go to the move nearest the front after those swaps, which keeps the order of
    /// equal-history quiet moves the old all-at-once picker had: plain generation order played
    /// worse (docs/search.md, "Measurements behind choices in the code").
    #[inline(never)]
    fn generate_quiets(&mut self, pos: &Position, tables: &OrderingTables) {
        legal_moves(pos, &mut self.moves);
        let end = self.moves.len();
        let handed = self.handed.len();
        for i in 0..handed {
            let m = self.handed.get(i);
            if let Some(j) = (i..end).find(|&j| self.moves.get(j) == m) {
                self.moves.swap(i, j);
            }
        }
        for i in handed..end {
            let m = self.moves.get(i);
            self.keys[i] = if m.is_tactical() {
                LOSING + mvv_lva(pos, m)
            } else {
                tables.quiet_score(pos, m, &self.continuation, &self.threats)
            };
        }
        self.next = handed;
        self.end = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Piece;
    use crate::board::perft::parse_perft_line;
    use crate::search::history::PieceTo;

    const SUITE: &str = include_str!("../../tests/data/perft.epd");

    fn suite() -> Vec<Position> {
        SUITE
            .lines()
            .filter_map(parse_perft_line)
            .map(|case| Position::from_fen(&case.fen).unwrap())
            .collect()
    }

    fn all_moves(pos: &Position) -> Vec<Move> {
        let mut list = MoveList::new();
        legal_moves(pos, &mut list);
        list.iter().copied().collect()
    }

    fn drain(picker: &mut MovePicker, pos: &Position, tables: &OrderingTables) -> Vec<Move> {
        let mut out = Vec::new();
        while let Some(m) = picker.next(pos, tables) {
            out.push(m);
        }
        assert_eq!(
            picker.next(pos, tables),
            None,
            "a finished picker stays finished"
        );
        out
    }

    /// Which stage a move of the main order belongs to, ranked; later stages rank higher.
    fn rank(pos: &Position, m: Move, tt: Move, killers: [Move; 2], counter: Move) -> u8 {
        let underpromotion = m.promotion().is_some_and(|k| k != PieceKind::Queen);
        if m == tt {
            0
        } else if m.is_tactical() && !underpromotion && see_at_least(pos, m, 0) {
            1
        } else if m.is_tactical() {
            5
        } else if m == killers[0] || m == killers[1] {
            2
        } else if m == counter {
            3
        } else {
            4
        }
    }

    #[test]
    fn main_order_hands_out_every_legal_move_once_in_stage_order() {
        let positions = suite();
        let mut tables = OrderingTables::default();
        let params = crate::search::SearchParams::default();
        let mut checked = 0;
        for (n, pos) in positions.iter().enumerate() {
            let moves = all_moves(pos);
            let side = pos.side_to_move();
            let threats = Threats::of(pos);
            let earlier = [
                Some(PieceTo::new(Piece::new(!side, PieceKind::Knight), moves[0])),
                None,
                Some(PieceTo::new(
                    Piece::new(side, PieceKind::Rook),
                    moves[moves.len() - 1],
                )),
            ];
            for (i, &m) in moves.iter().enumerate() {
                tables.update_history(side, m, &threats, (i as i32 * 37 % 11 - 5) * 100);
                let depth = (i % 9) as i32;
                let reward = (params.history_bonus(depth), params.history_malus(depth));
                if m.is_tactical() {
                    let tried: Vec<Move> = moves[..i]
                        .iter()
                        .copied()
                        .filter(|m| m.is_tactical())
                        .take(2)
                        .collect();
                    tables.reward_captures(pos, reward, Some(m), &tried);
                } else if i % 4 == 0 {
                    tables.reward_quiet(pos, reward, m, &[], &earlier, &threats);
                }
            }
            // Hints from this position (playable) and from another one (mostly not).
            let foreign = all_moves(&positions[(n + 1) % positions.len()]);
            let pick = |list: &[Move], k: usize| list.get(k % list.len().max(1)).copied();
            for k in 0..6 {
                let tt = if k % 3 == 2 {
                    pick(&foreign, k)
                } else {
                    pick(&moves, k * 7)
                }
                .unwrap_or(Move::NULL);
                let killers = [
                    pick(&moves, k * 5 + 1).unwrap_or(Move::NULL),
                    pick(&foreign, k * 3).unwrap_or(Move::NULL),
                ];
                let counter = pick(&moves, k * 11 + 3).unwrap_or(Move::NULL);
                let mut picker = MovePicker::default();
                picker.reset_main(tt, killers, counter, earlier, true);
                let order = drain(&mut picker, pos, &tables);

                let mut sorted_order = order.clone();
                sorted_order.sort_by_key(|m| m.raw());
                let mut sorted_moves = moves.clone();
                sorted_moves.sort_by_key(|m| m.raw());
                assert_eq!(sorted_order, sorted_moves, "{}", pos.to_fen());

                let quiet_hint = |m: Move| !m.is_tactical();
                let killers = killers.map(|m| if quiet_hint(m) { m } else { Move::NULL });
                let counter = if quiet_hint(counter) {
                    counter
                } else {
                    Move::NULL
                };
                let ranks: Vec<u8> = order
                    .iter()
                    .map(|&m| rank(pos, m, tt, killers, counter))
                    .collect();
                assert!(ranks.is_sorted(), "{} {:?}", pos.to_fen(), order);
                for pair in order.windows(2) {
                    let (a, b) = (pair[0], pair[1]);
                    let ra = rank(pos, a, tt, killers, counter);
                    if ra == rank(pos, b, tt, killers, counter) {
                        match ra {
                            1 => assert!(
                                tables.capture_score(pos, a) >= tables.capture_score(pos, b)
                            ),
                            5 => assert!(mvv_lva(pos, a) >= mvv_lva(pos, b)),
                            4 => assert!(
                                tables.quiet_score(pos, a, &earlier, &threats)
                                    >= tables.quiet_score(pos, b, &earlier, &threats)
                            ),
                            _ => {}
                        }
                    }
                }
                checked += 1;
            }
        }
        assert!(checked > 100);
    }

    #[test]
    fn quiescence_hands_out_the_tt_move_then_captures_that_hold_material() {
        let tables = OrderingTables::default();
        for pos in suite().iter().filter(|p| !p.in_check()) {
            let mut captures = MoveList::new();
            legal_captures(pos, &mut captures);
            let moves = all_moves(pos);
            for tt in [
                Move::NULL,
                moves[0],
                captures.iter().next().copied().unwrap_or(moves[1]),
            ] {
                let mut picker = MovePicker::default();
                picker.reset_quiescence(tt);
                let order = drain(&mut picker, pos, &tables);
                let tt_searched = captures.contains(tt);
                let mut expected: Vec<Move> = captures
                    .iter()
                    .copied()
                    .filter(|&m| m != tt && see_at_least(pos, m, 0))
                    .collect();
                if tt_searched {
                    assert_eq!(order.first(), Some(&tt), "{}", pos.to_fen());
                    expected.push(tt);
                }
                let mut got = order.clone();
                got.sort_by_key(|m| m.raw());
                expected.sort_by_key(|m| m.raw());
                assert_eq!(got, expected, "{}", pos.to_fen());
            }
        }
    }

    #[test]
    fn quiescence_with_checks_adds_the_quiet_checks_that_keep_the_checker_after_the_captures() {
        let tables = OrderingTables::default();
        let mut with_checks = 0;
        for pos in suite().iter().filter(|p| !p.in_check()) {
            let moves = all_moves(pos);
            for tt in [Move::NULL, moves[0]] {
                let mut plain = MovePicker::default();
                plain.reset_quiescence(tt);
                let captures = drain(&mut plain, pos, &tables);
                let mut picker = MovePicker::default();
                picker.reset_quiescence_with_checks(tt);
                let order = drain(&mut picker, pos, &tables);
                assert_eq!(order[..captures.len()], captures[..], "{}", pos.to_fen());
                let checks = &order[captures.len()..];
                let expected: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|&m| {
                        !m.is_tactical()
                            && m != tt
                            && pos.make_move(m).in_check()
                            && see_at_least(pos, m, 0)
                    })
                    .collect();
                assert_eq!(checks, &expected[..], "{}", pos.to_fen());
                with_checks += usize::from(!checks.is_empty());
            }
        }
        assert!(with_checks > 10, "{with_checks}");
    }
}
