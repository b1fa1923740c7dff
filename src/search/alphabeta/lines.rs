//! The Multi-PV lines as a GUI holds them, by number. A report is this iteration's finished
//! lines over the last iteration's, and tells every number whose line it changed, so a table
//! kept by number never shows one move twice (line 1 may take the move line 3 showed).

use std::time::Duration;

use crate::board::Move;
use crate::search::{ScoreBound, SearchInfo};

pub(super) struct LineTable {
    /// Lines a full table holds (Multi-PV, at most the root's moves).
    width: usize,
    /// The last completed iteration's lines, best first.
    before: Vec<SearchInfo>,
    /// This iteration's finished lines, best first.
    done: Vec<SearchInfo>,
    /// The first move the observer was last told under each number.
    shown: Vec<Move>,
}

/// What to tell the observer: changed lines in number order, the first `fresh` of them new
/// findings, the rest earlier lines told again under the numbers they moved to.
pub(super) struct LinesReport {
    pub lines: Vec<SearchInfo>,
    pub fresh: usize,
}

/// A line of `depth` as the search found it; `multipv` is set when it is told, and the counts
/// and the time by `ThreadSearch::tell_lines`.
pub(super) fn found_line(
    depth: u32,
    selective_depth: u32,
    score: i32,
    bound: ScoreBound,
    pv: Vec<Move>,
) -> SearchInfo {
    SearchInfo {
        depth,
        selective_depth,
        multipv: 0,
        score,
        bound,
        elapsed: Duration::ZERO,
        nodes: 0,
        hashfull: 0,
        tbhits: 0,
        pv,
    }
}

impl LineTable {
    pub(super) fn new(width: usize) -> LineTable {
        LineTable {
            width,
            before: Vec::with_capacity(width),
            done: Vec::with_capacity(width),
            shown: Vec::with_capacity(width),
        }
    }

    /// This iteration's finished lines, best first.
    pub(super) fn done(&self) -> &[SearchInfo] {
        &self.done
    }

    /// The last completed iteration's lines, best first (none before the first).
    pub(super) fn completed(&self) -> &[SearchInfo] {
        &self.before
    }

    /// Files a finished line by its score (a later line can outscore an earlier one: the table
    /// learnt meanwhile) and returns its place.
    pub(super) fn finish_line(&mut self, info: SearchInfo) -> usize {
        let place = self
            .done
            .iter()
            .position(|line| line.score < info.score)
            .unwrap_or(self.done.len());
        self.done.insert(place, info);
        place
    }

    /// The iteration is complete: its lines are the ones the next iteration falls back on.
    pub(super) fn end_iteration(&mut self) {
        std::mem::swap(&mut self.before, &mut self.done);
        self.done.clear();
    }

    /// The report of the table from number `from + 1` on: this iteration's lines, then
    /// `unfinished` (the line being searched, with its new best move), then the last
    /// iteration's lines whose first moves are not among those.
    pub(super) fn report(&mut self, from: usize, unfinished: Option<&SearchInfo>) -> LinesReport {
        let unfinished = unfinished.filter(|u| self.done.iter().all(|d| d.pv[0] != u.pv[0]));
        let current: Vec<&SearchInfo> = self.done.iter().chain(unfinished).collect();
        let older = self
            .before
            .iter()
            .filter(|line| current.iter().all(|c| c.pv[0] != line.pv[0]));
        let table: Vec<&SearchInfo> = current
            .iter()
            .copied()
            .chain(older)
            .take(self.width)
            .collect();
        let mut report = LinesReport {
            lines: Vec::new(),
            fresh: 0,
        };
        for (index, line) in table.iter().enumerate().skip(from) {
            let is_new = index < current.len();
            if !is_new && self.shown.get(index) == Some(&line.pv[0]) {
                continue;
            }
            report.fresh += usize::from(is_new);
            report.lines.push(SearchInfo {
                multipv: index + 1,
                ..(*line).clone()
            });
            if index < self.shown.len() {
                self.shown[index] = line.pv[0];
            } else {
                self.shown.push(line.pv[0]);
            }
        }
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{MoveList, Position, legal_moves};

    fn line(mv: Move, depth: u32, score: i32) -> SearchInfo {
        found_line(depth, depth, score, ScoreBound::Exact, vec![mv])
    }

    /// The table a GUI holds after taking every report in turn.
    fn apply(gui: &mut Vec<Move>, report: &LinesReport) {
        for info in &report.lines {
            if info.multipv > gui.len() {
                gui.resize(info.multipv, Move::NULL);
            }
            gui[info.multipv - 1] = info.pv[0];
        }
    }

    fn four_moves() -> (Move, Move, Move, Move) {
        let mut moves = MoveList::new();
        legal_moves(&Position::startpos(), &mut moves);
        let m = moves.as_slice();
        (m[0], m[1], m[2], m[3])
    }

    fn distinct(gui: &[Move]) -> bool {
        gui.iter().enumerate().all(|(i, m)| !gui[..i].contains(m))
    }

    #[test]
    fn a_new_first_line_renumbers_the_line_it_came_from_at_once() {
        let (a, b, c, d) = four_moves();
        let mut table = LineTable::new(3);
        let mut gui = Vec::new();
        for (mv, score) in [(a, 30), (b, 20), (c, 10)] {
            let place = table.finish_line(line(mv, 1, score));
            apply(&mut gui, &table.report(place, None));
        }
        assert_eq!(gui, [a, b, c]);
        table.end_iteration();

        // Depth 2: line 1 is now `c`, the old line 3; `a` and `b` move down a number.
        let place = table.finish_line(line(c, 2, 40));
        let report = table.report(place, None);
        assert_eq!(report.fresh, 1);
        let told: Vec<(usize, Move, u32)> = report
            .lines
            .iter()
            .map(|l| (l.multipv, l.pv[0], l.depth))
            .collect();
        assert_eq!(told, [(1, c, 2), (2, a, 1), (3, b, 1)]);
        apply(&mut gui, &report);
        assert_eq!(gui, [c, a, b]);

        // Line 2's search finds `d` better than its first move: shown as line 2 at once.
        let report = table.report(1, Some(&line(d, 2, 35)));
        assert_eq!(report.fresh, 1);
        apply(&mut gui, &report);
        assert_eq!(gui, [c, d, a]);

        // Line 2 ends on `a` after all, above nothing: `b` comes back as line 3.
        let place = table.finish_line(line(a, 2, 25));
        apply(&mut gui, &table.report(place, None));
        assert_eq!(gui, [c, a, b]);
        assert!(distinct(&gui));
    }

    #[test]
    fn an_unchanged_older_line_is_not_told_again() {
        let (a, b, c, _) = four_moves();
        let mut table = LineTable::new(3);
        for (mv, score) in [(a, 30), (b, 20), (c, 10)] {
            let place = table.finish_line(line(mv, 1, score));
            table.report(place, None);
        }
        table.end_iteration();
        let place = table.finish_line(line(a, 2, 30));
        let report = table.report(place, None);
        let numbers: Vec<usize> = report.lines.iter().map(|l| l.multipv).collect();
        assert_eq!(numbers, [1]);
    }
}
