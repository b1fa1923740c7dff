//! The move picker: hands a node its moves one at a time, best first, so a cutoff on an early
//! move never pays for ordering the rest.

use crate::board::{Move, MoveList, Position, legal_captures, legal_moves};

use super::ordering::{OrderingTables, pick_next, score_moves};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Generate,
    Pick,
    Done,
}

#[derive(Clone)]
pub struct MovePicker {
    stage: Stage,
    /// Quiescence outside check: captures and queen promotions only.
    captures_only: bool,
    tt_move: Move,
    killers: [Move; 2],
    /// The move that led here, whose counter move is tried early.
    previous: Move,
    moves: MoveList,
    scores: [i32; 256],
    next: usize,
}

impl Default for MovePicker {
    fn default() -> Self {
        MovePicker {
            stage: Stage::Done,
            captures_only: false,
            tt_move: Move::NULL,
            killers: [Move::NULL; 2],
            previous: Move::NULL,
            moves: MoveList::new(),
            scores: [0; 256],
            next: 0,
        }
    }
}

impl MovePicker {
    /// Starts over for a main-search node.
    pub fn reset_main(&mut self, tt_move: Move, killers: [Move; 2], previous: Move) {
        self.stage = Stage::Generate;
        self.captures_only = false;
        self.tt_move = tt_move;
        self.killers = killers;
        self.previous = previous;
    }

    /// Starts over for a quiescence node: every evasion in check, else the captures.
    pub fn reset_quiescence(&mut self, tt_move: Move, in_check: bool, killers: [Move; 2]) {
        self.reset_main(tt_move, killers, Move::NULL);
        self.captures_only = !in_check;
    }

    /// The next move, or `None` when every move has been handed out.
    pub fn next(&mut self, pos: &Position, tables: &OrderingTables) -> Option<Move> {
        loop {
            match self.stage {
                Stage::Generate => {
                    if self.captures_only {
                        legal_captures(pos, &mut self.moves);
                    } else {
                        legal_moves(pos, &mut self.moves);
                    }
                    score_moves(
                        pos,
                        &self.moves,
                        &mut self.scores,
                        self.tt_move,
                        tables,
                        self.killers,
                        self.previous,
                    );
                    self.next = 0;
                    self.stage = Stage::Pick;
                }
                Stage::Pick => {
                    if self.next == self.moves.len() {
                        self.stage = Stage::Done;
                        return None;
                    }
                    let m = pick_next(&mut self.moves, &mut self.scores, self.next);
                    self.next += 1;
                    return Some(m);
                }
                Stage::Done => return None,
            }
        }
    }
}
