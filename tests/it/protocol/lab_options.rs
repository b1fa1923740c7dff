//! The lab's options (the technique switches, IID, the search driver, the evaluation and the
//! search's constants) beside the users' through the real binary: a plain start announces
//! only the users' options under both protocols, `--tunables` announces the lab's after them,
//! and without the flag a switch is still set by name, changes the search, and a bad value
//! gets the protocol's error reply.

use crate::common;

use common::{Engine, LONG, SHORT, scratch_dir, thinking, uci_nodes_at_depth};

/// XBoard's list: `memory`, `cores`, `hard` and `variant` set hash, threads, pondering and
/// Chess960 there.
const XBOARD_USER: [&str; 19] = [
    "Move Overhead",
    "Resign",
    "Resign Threshold",
    "Clear Hash",
    "Log Max MB",
    "Log Keep MB",
    "MultiPV",
    "Skill Level",
    "Randomize (cp)",
    "Random Seed",
    "EvalFile",
    "OwnBook",
    "Book File",
    "Best Book Move",
    "Book Depth",
    "SyzygyPath",
    "SyzygyProbeDepth",
    "Syzygy50MoveRule",
    "SyzygyProbeLimit",
];

/// UCI's list: GUIs there adjudicate and keep their own logs.
const UCI_USER: [&str; 21] = [
    "Hash",
    "Threads",
    "Move Overhead",
    "Clear Hash",
    "MultiPV",
    "Ponder",
    "UCI_Chess960",
    "Skill Level",
    "UCI_LimitStrength",
    "UCI_Elo",
    "Randomize (cp)",
    "Random Seed",
    "EvalFile",
    "OwnBook",
    "Book File",
    "Best Book Move",
    "Book Depth",
    "SyzygyPath",
    "SyzygyProbeDepth",
    "Syzygy50MoveRule",
    "SyzygyProbeLimit",
];

const LAB: [&str; 27] = [
    "Null Move",
    "Late Move Reductions",
    "Reverse Futility",
    "Futility",
    "Late Move Pruning",
    "Recapture Extension",
    "Aspiration Windows",
    "Fail High Reduction",
    "SEE Pruning",
    "History Pruning",
    "Capture Futility",
    "Singular Extensions",
    "Double Extensions",
    "Razoring",
    "Reduced Depth Pruning",
    "Re-search Depth",
    "Correction History",
    "ProbCut",
    "TT Eval",
    "TT PV",
    "Threat Ordering",
    "Fourth Ply Continuation",
    "Cutoff Count",
    "Adaptive Time",
    "IID",
    "Search Driver",
    "Evaluation",
];

const FEN: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

fn start(extra: &[&str]) -> Engine {
    let log_dir = scratch_dir("lab-options");
    let mut args: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
    args.extend(["--log-dir".to_string(), log_dir.display().to_string()]);
    Engine::start_with(&args, log_dir)
}

/// The names in `feature option="NAME -kind ..."` lines, in order.
fn xboard_names(features: &[String]) -> Vec<String> {
    features
        .iter()
        .filter_map(|l| l.strip_prefix("feature option=\""))
        .map(|rest| rest.split(" -").next().unwrap().to_string())
        .collect()
}

/// The names in `option name NAME type ...` lines after `uci`, in order.
fn uci_names(engine: &mut Engine) -> Vec<String> {
    engine.send("uci");
    engine
        .until("uciok", SHORT, |l| l == "uciok")
        .iter()
        .filter_map(|l| l.strip_prefix("option name "))
        .map(|rest| rest.split(" type ").next().unwrap().to_string())
        .collect()
}

fn assert_lab_announced_once_after(names: &[String], user: &[&str]) {
    assert_eq!(names[..user.len()], *user, "{names:?}");
    for name in LAB {
        assert_eq!(
            names.iter().filter(|n| *n == name).count(),
            1,
            "{name} in {names:?}"
        );
    }
}

#[test]
fn xboard_announces_the_users_options_and_the_labs_only_with_tunables() {
    let mut engine = start(&[]);
    assert_eq!(xboard_names(&engine.handshake()), XBOARD_USER);
    engine.send("quit");

    let mut engine = start(&["--tunables"]);
    let names = xboard_names(&engine.handshake());
    assert_lab_announced_once_after(&names, &XBOARD_USER);
    engine.send("quit");
}

#[test]
fn uci_announces_the_users_options_and_the_labs_only_with_tunables() {
    let mut engine = start(&[]);
    assert_eq!(uci_names(&mut engine), UCI_USER);
    engine.send("quit");

    let mut engine = start(&["--tunables"]);
    let names = uci_names(&mut engine);
    assert_lab_announced_once_after(&names, &UCI_USER);
    engine.send("quit");
}

fn uci_replies(engine: &mut Engine) -> Vec<String> {
    engine.send("isready");
    let mut lines = engine.until("readyok", LONG, |l| l == "readyok");
    lines.pop();
    lines
}

#[test]
fn uci_sets_a_switch_by_name_without_tunables_and_refuses_a_bad_value() {
    let mut engine = start(&[]);
    assert!(!uci_names(&mut engine).iter().any(|n| n == "Null Move"));
    let default = uci_nodes_at_depth(&mut engine, FEN, 8, LONG);

    engine.send("setoption name Null Move value maybe");
    assert_eq!(
        uci_replies(&mut engine),
        ["info string error (invalid option value): Null Move = maybe"]
    );
    assert_eq!(
        uci_nodes_at_depth(&mut engine, FEN, 8, LONG),
        default,
        "a refused value changed the search"
    );

    engine.send("setoption name Null Move value false");
    assert!(uci_replies(&mut engine).is_empty());
    assert_ne!(
        uci_nodes_at_depth(&mut engine, FEN, 8, LONG),
        default,
        "Null Move off changed nothing"
    );

    engine.send("setoption name null move value true");
    assert_eq!(
        uci_nodes_at_depth(&mut engine, FEN, 8, LONG),
        default,
        "Null Move on again"
    );
    engine.send("quit");
}

/// The nodes of the last thinking line of a depth-8 search of `FEN` after `new`.
fn xboard_nodes(engine: &mut Engine) -> u64 {
    engine.send("new");
    engine.send("force");
    engine.send(&format!("setboard {FEN}"));
    engine.send("post");
    engine.send("st 600");
    engine.send("sd 8");
    engine.send("go");
    let lines = engine.until("a move", LONG, |l| l.starts_with("move "));
    let last = lines
        .iter()
        .rev()
        .find(|l| thinking(l).is_some())
        .unwrap_or_else(|| engine.fail("no thinking line"));
    last.split_whitespace().nth(3).unwrap().parse().unwrap()
}

#[test]
fn xboard_sets_a_switch_by_name_without_tunables_and_refuses_a_bad_value() {
    let mut engine = start(&[]);
    let features = engine.handshake();
    assert!(!xboard_names(&features).iter().any(|n| n == "Null Move"));
    let default = xboard_nodes(&mut engine);

    engine.send("option Null Move=2");
    assert_eq!(
        engine.sync(),
        ["Error (invalid option value, 0 or 1): Null Move=2"]
    );
    assert_eq!(
        xboard_nodes(&mut engine),
        default,
        "a refused value changed the search"
    );

    engine.send("option Null Move=0");
    assert!(engine.sync().is_empty());
    assert_ne!(
        xboard_nodes(&mut engine),
        default,
        "Null Move off changed nothing"
    );

    engine.send("option Null Move=1");
    assert_eq!(xboard_nodes(&mut engine), default, "Null Move on again");
    engine.send("quit");
}
