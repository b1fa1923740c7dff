//! Multi-PV and the other root restrictions through the library: N lines per iteration with
//! distinct first moves in score order, one line exactly as without Multi-PV, `only`
//! (searchmoves) and the `mate` stop.

use ironwood::board::{Move, MoveList, Position, legal_moves, parse_san};
use ironwood::search::{
    RootMoveInfo, ScoreBound, SearchControl, SearchInfo, SearchLimits, SearchObserver,
    SearchOutcome, Searcher, mate_moves,
};

#[derive(Default)]
struct Recorder {
    /// The new lines of every report, as XBoard shows them.
    infos: Vec<SearchInfo>,
    /// The first move of each line as a GUI that keeps lines by number holds them.
    table: Vec<Move>,
    /// Reports after which `table` showed a move twice.
    tables_with_a_repeat: Vec<Vec<Move>>,
    root_moves: Vec<RootMoveInfo>,
}

impl SearchObserver for Recorder {
    fn on_lines(&mut self, lines: &[SearchInfo], fresh: usize) {
        self.infos.extend_from_slice(&lines[..fresh]);
        for line in lines {
            if self.table.len() < line.multipv {
                self.table.resize(line.multipv, Move::NULL);
            }
            self.table[line.multipv - 1] = line.pv[0];
        }
        let table = &self.table;
        if (1..table.len()).any(|i| table[..i].contains(&table[i])) {
            self.tables_with_a_repeat.push(table.clone());
        }
    }

    fn on_root_move(&mut self, info: &RootMoveInfo) {
        self.root_moves.push(*info);
    }
}

fn search(fen: &str, limits: &SearchLimits) -> (SearchOutcome, Recorder) {
    let pos = Position::from_fen(fen).unwrap();
    let mut searcher = Searcher::new(16, 1);
    let mut recorder = Recorder::default();
    let outcome = searcher.search(
        &pos,
        &[],
        &SearchControl::new(limits.clone(), &searcher.features.params),
        &mut recorder,
    );
    (outcome, recorder)
}

/// The exact reports of each completed depth: depth -> lines in report order.
fn completed_lines(recorder: &Recorder) -> Vec<(u32, Vec<SearchInfo>)> {
    let mut by_depth: Vec<(u32, Vec<SearchInfo>)> = Vec::new();
    for info in recorder
        .infos
        .iter()
        .filter(|i| i.bound == ScoreBound::Exact)
    {
        match by_depth.last_mut() {
            Some((depth, lines)) if *depth == info.depth => {
                lines.retain(|l| l.multipv != info.multipv);
                lines.push(info.clone());
            }
            _ => by_depth.push((info.depth, vec![info.clone()])),
        }
    }
    for (_, lines) in &mut by_depth {
        lines.sort_by_key(|l| l.multipv);
    }
    by_depth
}

const MIDDLEGAME: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";

#[test]
fn three_lines_per_iteration_with_distinct_moves_best_first() {
    let limits = SearchLimits {
        depth: Some(8),
        multipv: 3,
        ..SearchLimits::default()
    };
    let (outcome, recorder) = search(MIDDLEGAME, &limits);
    let by_depth = completed_lines(&recorder);
    assert_eq!(by_depth.len(), 8, "one set of lines per depth");
    let pos = Position::from_fen(MIDDLEGAME).unwrap();
    for (depth, lines) in &by_depth {
        let numbers: Vec<usize> = lines.iter().map(|l| l.multipv).collect();
        assert_eq!(numbers, [1, 2, 3], "depth {depth}");
        let firsts: Vec<Move> = lines.iter().map(|l| l.pv[0]).collect();
        assert!(
            firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
            "depth {depth}: {firsts:?}"
        );
        for line in lines {
            assert!(ironwood::board::is_legal(&pos, line.pv[0]));
        }
        assert!(
            lines[0].score >= lines[1].score && lines[1].score >= lines[2].score,
            "depth {depth}: scores {:?}",
            lines.iter().map(|l| l.score).collect::<Vec<_>>()
        );
    }
    let last = &by_depth.last().unwrap().1;
    assert_eq!(outcome.best_move, last[0].pv[0]);
    assert_eq!(outcome.score, last[0].score);
}

#[test]
fn a_table_kept_by_line_number_never_shows_a_move_twice() {
    // Middlegames whose best moves change places between depths.
    let fens = [
        MIDDLEGAME,
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8",
        "r2q1rk1/1b2bppp/p2ppn2/1p6/3NP3/1BN1B3/PPP2PPP/R2Q1RK1 w - - 0 12",
    ];
    let mut renumbered = 0;
    for fen in fens {
        let limits = SearchLimits {
            depth: Some(11),
            multipv: 4,
            ..SearchLimits::default()
        };
        let (_, recorder) = search(fen, &limits);
        assert!(
            recorder.tables_with_a_repeat.is_empty(),
            "{fen}: {:?}",
            recorder.tables_with_a_repeat
        );
        let best_moves: Vec<Move> = completed_lines(&recorder)
            .iter()
            .map(|(_, lines)| lines[0].pv[0])
            .collect();
        renumbered += best_moves.windows(2).filter(|w| w[0] != w[1]).count();
    }
    assert!(renumbered > 0, "no best move changed: nothing was tried");
}

#[test]
fn more_lines_than_moves_gives_one_line_per_move() {
    // White king on a1 in check from h1: a2 and b2 only.
    let fen = "k7/8/8/8/8/8/8/K6r w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    let mut legal = MoveList::new();
    legal_moves(&pos, &mut legal);
    assert_eq!(legal.len(), 2);
    let limits = SearchLimits {
        depth: Some(5),
        multipv: 5,
        ..SearchLimits::default()
    };
    let (_, recorder) = search(fen, &limits);
    for (depth, lines) in completed_lines(&recorder) {
        assert_eq!(lines.len(), legal.len(), "depth {depth}");
    }
}

#[test]
fn one_line_searches_exactly_as_without_multipv() {
    let plain = SearchLimits {
        depth: Some(9),
        ..SearchLimits::default()
    };
    let one = SearchLimits {
        multipv: 1,
        ..plain.clone()
    };
    let (a, _) = search(MIDDLEGAME, &plain);
    let (b, _) = search(MIDDLEGAME, &one);
    assert_eq!(
        (a.best_move, a.score, a.nodes),
        (b.best_move, b.score, b.nodes)
    );
}

#[test]
fn the_second_line_of_a_mate_in_one_is_not_a_mate() {
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let limits = SearchLimits {
        depth: Some(6),
        multipv: 2,
        ..SearchLimits::default()
    };
    let (outcome, recorder) = search(fen, &limits);
    let mate = parse_san(&Position::from_fen(fen).unwrap(), "Ra8").unwrap();
    assert_eq!(outcome.best_move, mate);
    let lines = completed_lines(&recorder).pop().unwrap().1;
    assert_eq!(mate_moves(lines[0].score), Some(1));
    assert_eq!(lines[1].multipv, 2);
    assert_ne!(lines[1].pv[0], mate);
    assert_eq!(mate_moves(lines[1].score), None);
}

#[test]
fn only_the_listed_root_moves_are_searched() {
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    let allowed = [
        parse_san(&pos, "Kf2").unwrap(),
        parse_san(&pos, "Ra2").unwrap(),
    ];
    let limits = SearchLimits {
        depth: Some(6),
        only: allowed.to_vec(),
        multipv: 3,
        ..SearchLimits::default()
    };
    let (outcome, recorder) = search(fen, &limits);
    assert!(allowed.contains(&outcome.best_move));
    for info in &recorder.infos {
        assert!(allowed.contains(&info.pv[0]), "{info:?}");
        assert!(info.multipv <= 2);
    }
}

#[test]
fn a_mate_limit_stops_as_soon_as_a_short_enough_mate_is_found() {
    // Mate in three (matetrack, mates.16 in tests/data/mates.epd). Without a mate limit a
    // proven mate is deepened to about three times its length; `mate 3` stops once it is found.
    let fen = "1K3RQ1/ppn3p1/r3N1pq/2pN4/2b1kPB1/b5r1/8/2BR4 w - - 0 1";
    let plain = SearchLimits {
        depth: Some(30),
        ..SearchLimits::default()
    };
    let mate = SearchLimits {
        mate: Some(3),
        ..plain.clone()
    };
    let (without, _) = search(fen, &plain);
    let (with, _) = search(fen, &mate);
    assert_eq!(mate_moves(without.score), Some(3));
    assert_eq!(mate_moves(with.score), Some(3));
    assert!(
        with.depth < without.depth,
        "with the limit depth {}, without {}",
        with.depth,
        without.depth
    );
    // A longer mate than asked for does not stop the search early.
    let shorter = SearchLimits {
        mate: Some(2),
        depth: Some(without.depth),
        ..SearchLimits::default()
    };
    let (not_short_enough, _) = search(fen, &shorter);
    assert_eq!(not_short_enough.depth, without.depth);
}

#[test]
fn every_report_carries_a_hashfull_in_permille() {
    let limits = SearchLimits {
        depth: Some(7),
        multipv: 2,
        ..SearchLimits::default()
    };
    let (_, recorder) = search(MIDDLEGAME, &limits);
    assert!(recorder.infos.iter().all(|i| i.hashfull <= 1000));
    assert!(recorder.infos.last().unwrap().hashfull > 0);
}
