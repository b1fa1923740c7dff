//! Search behaviour through the library: mates found with the exact score, deepening ending
//! at a proven mate, legal moves from every perft position, node limits and exclusions.

use crate::common;

use common::{MateCase, mate_cases, mate_search_depth};
use ironwood::board::{MoveList, Position, legal_moves, parse_san};
use ironwood::search::{
    IidMode, SearchControl, SearchFeatures, SearchLimits, Searcher, Silent, TimeBudget, TimeLimit,
    mate_moves,
};

const PERFT: &str = include_str!("../../data/perft.epd");

fn run(
    searcher: &mut Searcher,
    pos: &Position,
    history: &[u64],
    limits: &SearchLimits,
) -> ironwood::search::SearchOutcome {
    searcher.search(
        pos,
        history,
        &SearchControl::new(limits.clone(), &searcher.features.params),
        &mut Silent,
    )
}

fn search_depth(fen: &str, depth: u32, iid: IidMode) -> ironwood::search::SearchOutcome {
    let pos = Position::from_fen(fen).unwrap();
    let mut searcher = Searcher::new(16, 1);
    searcher.features.iid = iid;
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    run(&mut searcher, &pos, &[], &limits)
}

#[test]
fn mates_in_one_to_four_have_the_exact_score_and_a_mating_move() {
    let cases: Vec<MateCase> = mate_cases().into_iter().filter(|c| c.moves <= 4).collect();
    assert!(cases.len() >= 20);
    for iid in [IidMode::Classic, IidMode::SelfDeepening, IidMode::Reduction] {
        for case in &cases {
            // Zugzwang problems (mates.08) hide behind null-move and futility pruning until
            // the verification search reaches them; a proven mate stops deepening at once.
            let depth = mate_search_depth(case.moves);
            let outcome = search_depth(&case.fen, depth, iid);
            assert_eq!(
                mate_moves(outcome.score),
                Some(case.moves),
                "{iid:?} {}: score {} best {}",
                case.fen,
                outcome.score,
                outcome.best_move
            );
            let pos = Position::from_fen(&case.fen).unwrap();
            let expected: Vec<_> = case
                .best
                .iter()
                .map(|s| parse_san(&pos, s).unwrap())
                .collect();
            assert!(
                expected.contains(&outcome.best_move),
                "{iid:?} {}: played {} not in {:?}",
                case.fen,
                outcome.best_move,
                case.best
            );
        }
    }
}

#[test]
fn a_proven_mate_ends_deepening_early() {
    for case in mate_cases().iter().filter(|c| c.moves <= 3) {
        let pos = Position::from_fen(&case.fen).unwrap();
        let mut searcher = Searcher::new(16, 1);
        // A generous clock: only the mate rule can end this search early.
        let budget = TimeBudget {
            soft_ms: Some(120_000),
            hard_ms: 120_000,
        };
        let limits = SearchLimits {
            time: Some(TimeLimit::Budget(budget)),
            ..SearchLimits::default()
        };
        let control = SearchControl::new(limits, &searcher.features.params);
        let outcome = searcher.search(&pos, &[], &control, &mut Silent);
        assert_eq!(mate_moves(outcome.score), Some(case.moves), "{}", case.fen);
        // Mate in N is N*2-1 plies: the search stops at the first depth that proves it,
        // not at the maximum depth (extensions can make that a little later).
        assert!(
            outcome.depth <= mate_search_depth(case.moves),
            "{}: went on to depth {}",
            case.fen,
            outcome.depth
        );
        // Without the mate rule the time rule would only stop it at half the 120 s target.
        assert!(
            outcome.elapsed < std::time::Duration::from_secs(60),
            "{}",
            case.fen
        );
    }
}

#[test]
fn every_perft_position_yields_a_legal_move() {
    for line in PERFT.lines().filter(|l| !l.trim().is_empty()) {
        let fen = line.split(';').next().unwrap().trim();
        let pos = Position::from_fen(fen).unwrap();
        let mut legal = MoveList::new();
        legal_moves(&pos, &mut legal);
        for depth in [1, 4] {
            let outcome = search_depth(fen, depth, IidMode::Classic);
            if legal.is_empty() {
                assert!(outcome.best_move.is_null(), "{fen}");
            } else {
                assert!(
                    legal.contains(outcome.best_move),
                    "{fen}: {}",
                    outcome.best_move
                );
                if let Some(reply) = outcome.ponder_move {
                    let after = pos.make_move(outcome.best_move);
                    let mut replies = MoveList::new();
                    legal_moves(&after, &mut replies);
                    assert!(
                        replies.contains(reply),
                        "{fen}: ponder move {reply} illegal"
                    );
                }
            }
        }
    }
}

#[test]
fn node_limit_and_stop_flag_still_give_a_legal_move() {
    let pos = Position::startpos();
    let mut legal = MoveList::new();
    legal_moves(&pos, &mut legal);
    let mut searcher = Searcher::new(8, 1);
    let limits = SearchLimits {
        nodes: Some(5_000),
        ..SearchLimits::default()
    };
    let outcome = run(&mut searcher, &pos, &[], &limits);
    assert!(legal.contains(outcome.best_move));
    assert!(
        outcome.nodes < 50_000,
        "node limit ignored: {}",
        outcome.nodes
    );

    let control = SearchControl::new(SearchLimits::default(), &searcher.features.params);
    control.stop();
    let outcome = searcher.search(&pos, &[], &control, &mut Silent);
    assert!(legal.contains(outcome.best_move));
}

#[test]
fn excluded_root_moves_are_never_chosen() {
    // Mate in one by Ra8; excluding it must yield another move.
    let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
    let mate = parse_san(&pos, "Ra8").unwrap();
    let limits = SearchLimits {
        depth: Some(4),
        excluded: vec![mate],
        ..SearchLimits::default()
    };
    let mut searcher = Searcher::new(8, 1);
    let outcome = run(&mut searcher, &pos, &[], &limits);
    assert_ne!(outcome.best_move, mate);
    assert!(!outcome.best_move.is_null());
}

#[test]
fn repetition_in_the_game_history_saves_the_side_a_queen_down() {
    // White is a queen down. In the game the rook went a1-b1 while the black king stepped
    // h8 and back, so Rb1-a1 now repeats the position after Black's earlier turn: a draw,
    // and White's only way out. Without that history the same position is simply lost.
    let earlier = Position::from_fen("3qr1k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 10 30").unwrap();
    let mut history = vec![earlier.key()];
    let mut pos = earlier;
    for san in ["Kh8", "Rb1", "Kg8"] {
        let m = parse_san(&pos, san).unwrap();
        pos = pos.make_move(m);
        history.push(pos.key());
    }
    history.pop(); // the root itself is not history
    assert_eq!(pos.to_fen(), "3qr1k1/5ppp/8/8/8/8/5PPP/1R4K1 w - - 13 32");
    let limits = SearchLimits {
        depth: Some(6),
        ..SearchLimits::default()
    };

    let lost = run(&mut Searcher::new(8, 1), &pos, &[], &limits);
    assert!(lost.score < -500, "without the history: {}", lost.score);

    let saved = run(&mut Searcher::new(8, 1), &pos, &history, &limits);
    assert_eq!(saved.score, 0, "with the history");
    assert_eq!(saved.best_move, parse_san(&pos, "Ra1").unwrap());
}

#[test]
fn two_threads_find_the_same_mates() {
    for case in mate_cases().iter().filter(|c| c.moves <= 2) {
        let pos = Position::from_fen(&case.fen).unwrap();
        let mut searcher = Searcher::new(16, 2);
        let limits = SearchLimits {
            depth: Some(mate_search_depth(case.moves)),
            ..SearchLimits::default()
        };
        let outcome = run(&mut searcher, &pos, &[], &limits);
        assert_eq!(mate_moves(outcome.score), Some(case.moves), "{}", case.fen);
    }
}

#[test]
fn mates_keep_their_exact_scores_with_each_newer_technique_switched_on() {
    type Toggle = (&'static str, fn(&mut SearchFeatures));
    // Each toggle adds to the classic set (the seeds' IID, null move, reductions, futility)
    // and the histories, whatever the defaults are; the last one is today's defaults.
    let toggles: [Toggle; 14] = [
        ("none of them", |_| {}),
        ("history pruning", |f| f.history_pruning = true),
        ("capture futility", |f| f.capture_futility = true),
        ("fail high reduction", |f| f.fail_high_reduction = true),
        ("singular extensions", |f| f.singular_extensions = true),
        ("double extensions", |f| {
            f.singular_extensions = true;
            f.double_extensions = true;
        }),
        ("razoring", |f| f.razoring = true),
        ("reduced depth pruning", |f| f.reduced_depth_pruning = true),
        ("re-search depth", |f| f.research_depth = true),
        ("internal iterative reduction", |f| {
            f.iid = IidMode::Reduction
        }),
        ("correction history", |f| f.correction_history = true),
        ("table score as eval", |f| f.tt_eval = true),
        ("ProbCut", |f| f.probcut = true),
        ("the defaults", |f| *f = SearchFeatures::default()),
    ];
    let cases: Vec<MateCase> = mate_cases().into_iter().filter(|c| c.moves <= 3).collect();
    for (name, toggle) in toggles {
        for case in &cases {
            let pos = Position::from_fen(&case.fen).unwrap();
            let mut searcher = Searcher::new(16, 1);
            let features = &mut searcher.features;
            features.history_pruning = false;
            features.singular_extensions = false;
            features.double_extensions = false;
            features.razoring = false;
            features.reduced_depth_pruning = false;
            features.research_depth = false;
            features.iid = IidMode::Classic;
            features.correction_history = false;
            features.probcut = false;
            features.tt_eval = false;
            toggle(&mut searcher.features);
            let limits = SearchLimits {
                depth: Some(mate_search_depth(case.moves)),
                ..SearchLimits::default()
            };
            let outcome = run(&mut searcher, &pos, &[], &limits);
            assert_eq!(
                mate_moves(outcome.score),
                Some(case.moves),
                "{name} {}: score {}",
                case.fen,
                outcome.score
            );
        }
    }
}

#[test]
fn a_new_game_forgets_the_histories_learnt_in_the_last_one() {
    let limits = SearchLimits {
        depth: Some(8),
        ..SearchLimits::default()
    };
    let first =
        Position::from_fen("r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16")
            .unwrap();
    let second =
        Position::from_fen("4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19").unwrap();
    let fresh = run(&mut Searcher::new(8, 1), &second, &[], &limits);

    let mut searcher = Searcher::new(8, 1);
    run(&mut searcher, &first, &[], &limits);
    let carried = run(&mut searcher, &second, &[], &limits);
    searcher.clear();
    let cleared = run(&mut searcher, &second, &[], &limits);
    assert_eq!(cleared.nodes, fresh.nodes);
    assert_eq!(cleared.best_move, fresh.best_move);
    // What the first search learnt (table and histories) changed the second one.
    assert_ne!(carried.nodes, fresh.nodes);
}

/// The first depth at which a fresh one-thread search proves the mate in `moves` of `fen`, up
/// to `mate_search_depth`; `null_move` switches the null move.
fn first_mate_depth(fen: &str, moves: i32, null_move: bool) -> Option<u32> {
    let pos = Position::from_fen(fen).unwrap();
    (1..=mate_search_depth(moves)).find(|&depth| {
        let mut searcher = Searcher::new(16, 1);
        searcher.features.null_move = null_move;
        let limits = SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        };
        mate_moves(run(&mut searcher, &pos, &[], &limits).score) == Some(moves)
    })
}

#[test]
fn a_null_move_does_not_hide_a_quiet_mate_threat_or_a_zugzwang() {
    // mates.14 (the defender's only mobile piece is a bishop: passing beats every move), the
    // same problem after 1.a5 Bxa5 (2.Nc5 threatens the quiet 3.Bb7#, which a null move
    // answered by quiescence alone never saw), and mates.08 (zugzwang: Black's king and
    // pieces are all but stalemated).
    let cases = [
        ("k1B5/2p5/NbN5/8/P2p4/P2p4/P1prp3/2RbK3 w - - 0 1", 3),
        ("k1B5/2p5/N1N5/b7/3p4/P2p4/P1prp3/2RbK3 w - - 0 2", 2),
        (
            "n1N3br/2p1Bpkr/1pP2R1b/pP3Pp1/P5P1/1P1p4/p2P4/K7 w - - 0 1",
            2,
        ),
    ];
    for (fen, moves) in cases {
        let with = first_mate_depth(fen, moves, true);
        let without = first_mate_depth(fen, moves, false).expect(fen);
        assert!(
            with.is_some_and(|d| d <= without + 2),
            "{fen}: mate in {moves} at depth {with:?} with the null move, {without} without"
        );
    }
}
