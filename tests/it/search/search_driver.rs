//! The iterative search driver against the recursive one: the same tree node for node (node
//! counts, best moves, scores) on the bench and perft positions with every search feature
//! setting, legal moves with two threads, the mates, and the switch through the real binary.

use crate::common;

use common::{
    Engine, LONG, MateCase, SHORT, mate_cases, mate_search_depth, run_ironwood, thinking,
};
use ironwood::board::{MoveList, Position, is_legal, legal_moves, parse_move, parse_san};
use ironwood::nnue::{Evaluation, Network};
use ironwood::search::{
    IidMode, SearchControl, SearchDriver, SearchFeatures, SearchLimits, SearchOutcome, Searcher,
    Silent, mate_moves,
};
use ironwood::tools::bench::BENCH_POSITIONS;

const PERFT: &str = include_str!("../../data/perft.epd");

/// A fresh search of `pos` on `threads` threads with `features` (their driver included).
fn search_with(
    pos: &Position,
    threads: usize,
    features: SearchFeatures,
    limits: &SearchLimits,
) -> SearchOutcome {
    let mut searcher = Searcher::new(16, threads);
    searcher.features = features;
    let control = SearchControl::new(limits.clone(), &searcher.features.params);
    searcher.search(pos, &[], &control, &mut Silent)
}

/// A fresh single-threaded search of `fen` to `depth` with `features` and `driver`.
fn search(fen: &str, depth: u32, features: SearchFeatures, driver: SearchDriver) -> SearchOutcome {
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    search_with(
        &Position::from_fen(fen).unwrap(),
        1,
        SearchFeatures { driver, ..features },
        &limits,
    )
}

/// Both drivers search `fens` at each depth in `depths`; everything the search returns must
/// agree.
fn assert_same_trees(
    name: &str,
    fens: &[&str],
    depths: std::ops::RangeInclusive<u32>,
    features: SearchFeatures,
) {
    let mut nodes = 0;
    for fen in fens {
        for depth in depths.clone() {
            let recursive = search(fen, depth, features.clone(), SearchDriver::Recursive);
            let iterative = search(fen, depth, features.clone(), SearchDriver::Iterative);
            let summary = |o: &SearchOutcome| {
                (
                    o.nodes,
                    o.best_move,
                    o.score,
                    o.depth,
                    o.ponder_move,
                    o.lines.clone(),
                )
            };
            assert_eq!(
                summary(&recursive),
                summary(&iterative),
                "{name}: {fen} at depth {depth}: (nodes, best, score, depth, ponder, lines)"
            );
            nodes += recursive.nodes;
        }
    }
    // The comparison means something only if the searches did work.
    assert!(nodes > 1000 * fens.len() as u64, "{name}: {nodes} nodes");
}

fn perft_fens() -> Vec<&'static str> {
    PERFT
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(';').next().unwrap().trim())
        .collect()
}

#[test]
fn both_drivers_search_the_same_tree_on_every_bench_position() {
    assert_same_trees(
        "defaults",
        &BENCH_POSITIONS,
        1..=8,
        SearchFeatures::default(),
    );
}

#[test]
fn both_drivers_search_the_same_tree_on_perft_positions() {
    // Promotions, castling, en passant and checks in the first few.
    let fens = perft_fens();
    assert_same_trees("defaults", &fens[..8], 1..=8, SearchFeatures::default());
}

/// The defaults with every technique switch on, those off by default included.
fn every_switch_on() -> SearchFeatures {
    SearchFeatures {
        history_pruning: true,
        capture_futility: true,
        fail_high_reduction: true,
        singular_extensions: true,
        double_extensions: true,
        razoring: true,
        reduced_depth_pruning: true,
        research_depth: true,
        correction_history: true,
        probcut: true,
        tt_eval: true,
        tt_pv: true,
        threat_ordering: true,
        fourth_ply_continuation: true,
        cutoff_count: true,
        ..SearchFeatures::default()
    }
}

/// Every technique that is off by default on, with each IID flavour, and the network: the
/// null-move verification, ProbCut, singular search and self-deepening IID re-searches all
/// run as child searches of the drivers.
#[test]
fn both_drivers_search_the_same_tree_with_the_other_settings() {
    let everything = every_switch_on();
    let settings = [
        ("everything on, IID reduction", everything.clone()),
        (
            "everything on, classic IID",
            SearchFeatures {
                iid: IidMode::Classic,
                ..everything.clone()
            },
        ),
        (
            "everything on, self-deepening IID",
            SearchFeatures {
                iid: IidMode::SelfDeepening,
                ..everything.clone()
            },
        ),
        (
            "self-deepening IID",
            SearchFeatures {
                iid: IidMode::SelfDeepening,
                ..SearchFeatures::default()
            },
        ),
        (
            "classic IID",
            SearchFeatures {
                iid: IidMode::Classic,
                ..SearchFeatures::default()
            },
        ),
        (
            "no IID, no null move",
            SearchFeatures {
                iid: IidMode::Off,
                null_move: false,
                ..SearchFeatures::default()
            },
        ),
        (
            "NNUE, everything on",
            SearchFeatures {
                evaluation: Evaluation::Nnue(Network::embedded()),
                ..everything
            },
        ),
    ];
    // Every other bench position keeps the run short. Depth 8 reaches the singular search
    // (depth 7 and more), ProbCut and self-deepening re-searches; the null-move verification
    // (depth 10 and more) needs the deeper searches of the next test.
    let fens: Vec<&str> = BENCH_POSITIONS.iter().copied().step_by(2).collect();
    for (name, features) in settings {
        assert_same_trees(name, &fens, 1..=8, features);
    }
}

/// Deep enough for the null-move verification search (null moves at depth 10 or more).
/// Each kind of child search, answered wrongly by the iterative driver alone, makes one of
/// these tree tests fail (checked by hand when the drivers were written).
#[test]
fn both_drivers_search_the_same_tree_deep_enough_to_verify_null_moves() {
    let everything = every_switch_on();
    let fens = &BENCH_POSITIONS[..4];
    assert_same_trees("defaults", fens, 12..=12, SearchFeatures::default());
    assert_same_trees("everything on", fens, 12..=12, everything);
}

#[test]
fn with_two_threads_both_drivers_play_legal_moves() {
    for driver in [SearchDriver::Recursive, SearchDriver::Iterative] {
        for fen in perft_fens().iter().take(12) {
            let pos = Position::from_fen(fen).unwrap();
            let limits = SearchLimits {
                depth: Some(7),
                ..SearchLimits::default()
            };
            let features = SearchFeatures {
                driver,
                ..SearchFeatures::default()
            };
            let outcome = search_with(&pos, 2, features, &limits);
            let mut moves = MoveList::new();
            legal_moves(&pos, &mut moves);
            if moves.is_empty() {
                continue;
            }
            assert!(
                is_legal(&pos, outcome.best_move),
                "{driver:?} {fen}: {}",
                outcome.best_move
            );
        }
    }
}

#[test]
fn a_node_limit_stops_the_iterative_driver_with_a_legal_move() {
    for fen in perft_fens().iter().take(6) {
        let pos = Position::from_fen(fen).unwrap();
        let limits = SearchLimits {
            nodes: Some(5_000),
            ..SearchLimits::default()
        };
        let features = SearchFeatures {
            driver: SearchDriver::Iterative,
            ..SearchFeatures::default()
        };
        let outcome = search_with(&pos, 1, features, &limits);
        assert!(is_legal(&pos, outcome.best_move), "{fen}");
        // The limit is polled every 2048 nodes.
        assert!(outcome.nodes < 5_000 + 4096, "{fen}: {}", outcome.nodes);
    }
}

#[test]
fn the_iterative_driver_finds_the_mates_with_their_exact_scores() {
    let mut checked = 0;
    for MateCase { fen, best, moves } in mate_cases() {
        if moves > 4 {
            continue;
        }
        let pos = Position::from_fen(&fen).unwrap();
        for iid in [IidMode::Classic, IidMode::SelfDeepening, IidMode::Reduction] {
            let features = SearchFeatures {
                iid,
                ..SearchFeatures::default()
            };
            let depth = mate_search_depth(moves);
            let outcome = search(&fen, depth, features, SearchDriver::Iterative);
            assert_eq!(
                mate_moves(outcome.score),
                Some(moves),
                "{iid:?} {fen}: score {}",
                outcome.score
            );
            let expected: Vec<_> = best.iter().map(|s| parse_san(&pos, s).unwrap()).collect();
            assert!(
                expected.contains(&outcome.best_move),
                "{iid:?} {fen}: played {} not in {best:?}",
                outcome.best_move
            );
        }
        checked += 1;
    }
    assert!(checked >= 20, "{checked} mates");
}

/// The node count on the last line of `ironwood bench ARGS`.
fn bench_nodes(args: &[&str]) -> String {
    let (code, out, err) = run_ironwood(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    let last = out.lines().last().unwrap_or_default();
    assert!(last.ends_with(" nps"), "{args:?}: {last}");
    last.split_whitespace().next().unwrap().to_string()
}

#[test]
fn bench_prints_the_same_nodes_with_either_driver() {
    let default = bench_nodes(&["bench"]);
    assert_eq!(bench_nodes(&["bench", "--driver", "iterative"]), default);
    assert_eq!(bench_nodes(&["--driver=recursive", "bench"]), default);
    let (code, _, err) = run_ironwood(&["bench", "--driver", "sideways"]);
    assert_ne!(code, 0);
    assert!(err.contains("--driver"), "{err}");
}

/// The thinking lines of a fixed-depth XBoard search, without their times.
fn xboard_thinking(args: &[&str], option: Option<&str>, fen: &str) -> Vec<String> {
    let log_dir = common::scratch_dir("driver");
    let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    args.extend(["--log-dir".to_string(), log_dir.display().to_string()]);
    let mut engine = Engine::start_with(&args, log_dir);
    engine.handshake();
    // Both drivers search the same tree, so only the silence says the option was taken.
    if let Some(option) = option {
        engine.send(&format!("option {option}"));
        let replies = engine.sync();
        assert!(replies.is_empty(), "{option}: {replies:?}");
    }
    engine.send("new");
    engine.send("force");
    engine.send(&format!("setboard {fen}"));
    engine.send("post");
    // Depth alone ends the search: on a loaded machine the default clock stopped it short.
    engine.send("st 600");
    engine.send("sd 7");
    engine.send("go");
    let pos = Position::from_fen(fen).unwrap();
    let lines = engine.until("a move", LONG, |l| l.starts_with("move "));
    let played = lines.last().unwrap()["move ".len()..].to_string();
    assert!(parse_move(&pos, &played).is_ok(), "illegal move {played}");
    engine.send("quit");
    // A new best move inside an iteration is shown only once the search is 50 ms old, so
    // on a loaded machine more of them appear; each depth's last line is the whole iteration.
    let mut out: Vec<String> = Vec::new();
    for line in lines.iter().filter(|l| thinking(l).is_some()) {
        let mut parts: Vec<&str> = line.split_whitespace().collect();
        parts.remove(2);
        let depth = parts[0];
        if out
            .last()
            .is_some_and(|l| l.split_whitespace().next() == Some(depth))
        {
            out.pop();
        }
        out.push(parts.join(" "));
    }
    out.push(played);
    out
}

#[test]
fn the_option_and_the_flag_switch_drivers_in_an_xboard_game() {
    let fen = "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16";
    let recursive = xboard_thinking(&[], None, fen);
    assert!(recursive.len() >= 8, "{recursive:?}");
    let by_option = xboard_thinking(&[], Some("Search Driver=Iterative"), fen);
    assert_eq!(by_option, recursive);
    let by_flag = xboard_thinking(&["--driver", "iterative"], None, fen);
    assert_eq!(by_flag, recursive);
    // A bad value changes nothing and says why.
    let log_dir = common::scratch_dir("driver");
    let args = ["--log-dir".to_string(), log_dir.display().to_string()];
    let mut engine = Engine::start_with(&args, log_dir);
    engine.handshake();
    engine.send("option Search Driver=Sideways");
    let reply = engine.expect("an error", SHORT, |l| l.starts_with("Error"));
    assert!(reply.contains("Recursive, Iterative"), "{reply}");
}

#[test]
fn uci_setoption_switches_the_driver_announced_with_tunables() {
    let log_dir = common::scratch_dir("driver");
    let args = [
        "--tunables".to_string(),
        "--log-dir".to_string(),
        log_dir.display().to_string(),
    ];
    let mut engine = Engine::start_with(&args, log_dir);
    engine.send("uci");
    let lines = engine.until("uciok", SHORT, |l| l == "uciok");
    assert!(
        lines.contains(
            &"option name Search Driver type combo default Recursive var Recursive var Iterative"
                .to_string()
        ),
        "{lines:?}"
    );
    engine.send("setoption name Search Driver value iterative");
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go depth 6");
    let line = engine.expect("bestmove", LONG, |l| l.starts_with("bestmove "));
    let mut pos = Position::startpos();
    for m in ["e2e4", "e7e5"] {
        let m = parse_move(&pos, m).unwrap();
        pos = pos.make_move(m);
    }
    let text = line.split_whitespace().nth(1).unwrap();
    assert!(parse_move(&pos, text).is_ok(), "{line}");
}
