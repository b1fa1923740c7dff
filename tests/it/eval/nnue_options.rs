//! The `Evaluation` and `EvalFile` options through the real binary in both protocols, and
//! `--evaluation`/`--eval-file` on the command line: a network that cannot be used is
//! refused with the protocol's error and the current one stays. `EvalFile` is announced;
//! `Evaluation` is a lab switch, set by name without being announced.

use crate::common;

use common::Engine;
use ironwood::nnue::Network;
use std::path::PathBuf;
use std::time::Duration;

const SEARCH: Duration = Duration::from_secs(30);

/// A good copy of the embedded network and a damaged one, in a scratch folder.
fn network_files() -> (PathBuf, PathBuf) {
    let dir = common::scratch_dir("nets");
    let good = dir.join("good.nnue");
    let damaged = dir.join("damaged.nnue");
    let mut bytes = Network::embedded().to_bytes();
    std::fs::write(&good, &bytes).unwrap();
    let last = bytes.len() - 7;
    bytes[last] ^= 1;
    std::fs::write(&damaged, &bytes).unwrap();
    (good, damaged)
}

fn start(extra: &[&str]) -> Engine {
    let log_dir = common::scratch_dir("logs");
    let mut args: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
    args.extend(["--log-dir".to_string(), log_dir.display().to_string()]);
    Engine::start_with(&args, log_dir)
}

/// A position a pawn up for White, then an Italian opening: two scores, so that the two
/// evaluations cannot agree by chance (generation 7 and the hand-written one both scored the
/// first 98).
const SCORED_FENS: [&str; 2] = [
    "rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
];

/// The scores of depth-1 UCI searches from `SCORED_FENS`.
fn uci_depth_one_scores(engine: &mut Engine) -> Vec<i32> {
    SCORED_FENS
        .iter()
        .map(|fen| {
            engine.send(&format!("position fen {fen}"));
            engine.send("go depth 1");
            let lines = engine.until("bestmove", SEARCH, |l| l.starts_with("bestmove"));
            lines
                .iter()
                .rev()
                .find_map(|l| common::field(l, "cp")?.parse().ok())
                .unwrap_or_else(|| engine.fail("no score"))
        })
        .collect()
}

#[test]
fn uci_announces_the_file_refuses_bad_networks_and_searches_with_the_network() {
    let (good, damaged) = network_files();
    let mut engine = start(&["--protocol", "uci"]);
    engine.send("uci");
    let lines = engine.until("uciok", SEARCH, |l| l == "uciok");
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("option name Evaluation ")),
        "{lines:?}"
    );
    assert!(lines.contains(&"option name EvalFile type string default <embedded>".to_string()));
    engine.send("isready");
    engine.expect("readyok", SEARCH, |l| l == "readyok");
    let default = uci_depth_one_scores(&mut engine);
    engine.send("setoption name Evaluation value Classical");
    let classical = uci_depth_one_scores(&mut engine);
    assert_ne!(default, classical, "the option changed nothing");

    engine.send(&format!(
        "setoption name EvalFile value {}",
        damaged.display()
    ));
    engine.send("isready");
    let lines = engine.until("readyok", SEARCH, |l| l == "readyok");
    let error = lines
        .iter()
        .find(|l| l.starts_with("info string error (network refused"))
        .unwrap_or_else(|| engine.fail("no refusal"));
    assert!(error.contains("checksum mismatch"), "{error}");
    assert!(error.contains("keeping the network <embedded>"), "{error}");

    engine.send("setoption name Evaluation value NNUE");
    let nnue = uci_depth_one_scores(&mut engine);
    assert_eq!(nnue, default, "the network is the default");
    let expected =
        Network::embedded().evaluate(&ironwood::board::Position::from_fen(SCORED_FENS[0]).unwrap());
    assert!(
        (nnue[0] - expected).abs() < 400,
        "depth 1 {nnue:?}, static {expected}"
    );

    // A good file is taken without a word; the search goes on with it.
    engine.send(&format!("setoption name EvalFile value {}", good.display()));
    engine.send("isready");
    let lines = engine.until("readyok", SEARCH, |l| l == "readyok");
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    assert_eq!(uci_depth_one_scores(&mut engine), nnue);
    engine.send("setoption name Evaluation value Classical");
    assert_eq!(uci_depth_one_scores(&mut engine), classical);
    engine.send("quit");
    assert_eq!(engine.wait_exit(SEARCH), Some(0));
}

#[test]
fn xboard_announces_the_file_and_refuses_bad_networks() {
    let (good, damaged) = network_files();
    let mut engine = start(&[]);
    let features = engine.handshake();
    assert!(
        !features.iter().any(|l| l.contains("option=\"Evaluation ")),
        "{features:?}"
    );
    assert!(features.contains(&"feature option=\"EvalFile -file <embedded>\"".to_string()));

    let missing = good.with_file_name("missing.nnue");
    for (file, reason) in [
        (&missing, "cannot read the network"),
        (&damaged, "checksum mismatch"),
    ] {
        engine.send(&format!("option EvalFile={}", file.display()));
        let lines = engine.sync();
        let error = format!("Error (network refused: {}: ", file.display());
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&error) && l.contains(reason)),
            "{lines:?}"
        );
    }
    engine.send("option Evaluation=Neural");
    let lines = engine.sync();
    assert!(
        lines.contains(
            &"Error (invalid option value, one of Classical, NNUE): Evaluation=Neural".to_string()
        ),
        "{lines:?}"
    );
    engine.send(&format!("option EvalFile={}", good.display()));
    engine.send("option Evaluation=NNUE");
    assert!(engine.sync().is_empty());
    // It plays with the network.
    engine.send("new");
    engine.send("sd 4");
    engine.send("post");
    engine.send("go");
    let pos = ironwood::board::Position::startpos();
    engine.expect_move(&pos, SEARCH);
    engine.send("quit");
    assert_eq!(engine.wait_exit(SEARCH), Some(0));
}

#[test]
fn the_command_line_selects_the_network_and_refuses_a_bad_one() {
    let (good, damaged) = network_files();
    let good = good.display().to_string();
    let (code, stdout, stderr) =
        common::run_ironwood(&["--evaluation", "nnue", "--eval-file", &good, "bench", "3"]);
    assert_eq!(code, 0, "{stderr}");
    let nnue = stdout.lines().last().unwrap().to_string();
    let (code, stdout, _) = common::run_ironwood(&["--evaluation", "nnue", "bench", "3"]);
    assert_eq!(code, 0);
    let embedded = stdout.lines().last().unwrap().to_string();
    let (code, stdout, _) = common::run_ironwood(&["bench", "3"]);
    assert_eq!(code, 0);
    let default = stdout.lines().last().unwrap().to_string();
    let (code, stdout, _) = common::run_ironwood(&["--evaluation", "classical", "bench", "3"]);
    assert_eq!(code, 0);
    let classical = stdout.lines().last().unwrap().to_string();
    let nodes = |line: &str| line.split_whitespace().next().unwrap().to_string();
    // The same network gives the same node count; the embedded one is the default; the other
    // evaluation gives another.
    assert_eq!(nodes(&nnue), nodes(&embedded));
    assert_eq!(nodes(&default), nodes(&embedded));
    assert_ne!(nodes(&nnue), nodes(&classical));

    let (code, _, stderr) = common::run_ironwood(&[
        "--evaluation",
        "nnue",
        "--eval-file",
        &damaged.display().to_string(),
        "bench",
        "3",
    ]);
    assert_eq!(code, 1);
    assert!(stderr.contains("checksum mismatch"), "{stderr}");
    let (code, _, stderr) = common::run_ironwood(&["--evaluation", "neural", "bench", "3"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("classical or nnue"), "{stderr}");

    // A session started with a bad file says so after the handshake and keeps playing.
    let mut engine = start(&["--eval-file", &damaged.display().to_string()]);
    let lines = engine.handshake();
    let more = engine.sync();
    assert!(
        lines
            .iter()
            .chain(&more)
            .any(|l| l.contains("checksum mismatch")),
        "{lines:?} {more:?}"
    );
    engine.send("quit");
    assert_eq!(engine.wait_exit(SEARCH), Some(0));
}
