//! The search's tunable constants through the real binary: settable by name in both
//! protocols with each one's range checked, announced only with `--tunables`, and listed once
//! each by `ironwood params` in OpenBench's SPSA input format.

use crate::common;

use common::{Engine, uci_nodes_at_depth};
use ironwood::search::params::PARAMS;
use std::time::Duration;

const SEARCH: Duration = Duration::from_secs(60);
const MIDDLEGAME: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

fn start(extra: &[&str]) -> Engine {
    let log_dir = common::scratch_dir("logs");
    let mut args: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
    args.extend(["--log-dir".to_string(), log_dir.display().to_string()]);
    Engine::start_with(&args, log_dir)
}

fn uci_ready(engine: &mut Engine) -> Vec<String> {
    engine.send("isready");
    engine.until("readyok", SEARCH, |l| l == "readyok")
}

#[test]
fn uci_sets_a_constant_by_name_and_refuses_one_out_of_range_changing_nothing() {
    let mut engine = start(&["--protocol", "uci"]);
    engine.send("uci");
    let announced = engine.until("uciok", SEARCH, |l| l == "uciok");
    for param in PARAMS {
        let name = format!("option name {} ", param.name);
        assert!(
            !announced.iter().any(|l| l.starts_with(&name)),
            "{name} announced"
        );
    }
    let default = uci_nodes_at_depth(&mut engine, MIDDLEGAME, 7, SEARCH);

    engine.send("setoption name RfpMargin value 201");
    let lines = uci_ready(&mut engine);
    assert!(
        lines.contains(
            &"info string error (option value out of range 20 to 200): RfpMargin = 201".to_string()
        ),
        "{lines:?}"
    );
    assert_eq!(
        uci_nodes_at_depth(&mut engine, MIDDLEGAME, 7, SEARCH),
        default,
        "a refused value changed the search"
    );

    engine.send("setoption name rfpmargin value 20");
    engine.send("setoption name LmrBase value 150");
    let lines = uci_ready(&mut engine);
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    let tuned = uci_nodes_at_depth(&mut engine, MIDDLEGAME, 7, SEARCH);
    assert_ne!(tuned, default, "setting the constants changed nothing");

    engine.send("setoption name RfpMargin value 80");
    engine.send("setoption name LmrBase value 75");
    assert_eq!(
        uci_nodes_at_depth(&mut engine, MIDDLEGAME, 7, SEARCH),
        default,
        "the defaults again"
    );
    engine.send("quit");
}

#[test]
fn uci_announces_every_constant_as_a_spin_with_tunables() {
    let mut engine = start(&["--protocol", "uci", "--tunables"]);
    engine.send("uci");
    let announced = engine.until("uciok", SEARCH, |l| l == "uciok");
    for param in PARAMS {
        let line = format!(
            "option name {} type spin default {} min {} max {}",
            param.name, param.default, param.min, param.max
        );
        assert_eq!(
            announced.iter().filter(|l| **l == line).count(),
            1,
            "{line}"
        );
    }
    engine.send("quit");
}

#[test]
fn xboard_sets_constants_announced_only_with_tunables_and_refuses_bad_values() {
    let mut engine = start(&[]);
    let features = engine.handshake();
    assert!(
        !features.iter().any(|l| l.contains("RfpMargin")),
        "{features:?}"
    );
    engine.send("option RfpMargin=19");
    engine.send("option RfpMargin=x");
    engine.send("option RfpMargin=90");
    let lines = engine.sync();
    assert_eq!(
        lines,
        [
            "Error (invalid option value, 20 to 200): RfpMargin=19",
            "Error (invalid option value, 20 to 200): RfpMargin=x"
        ],
        "{lines:?}"
    );
    engine.send("quit");

    let mut engine = start(&["--tunables"]);
    let features = engine.handshake();
    for param in PARAMS {
        let line = format!(
            "feature option=\"{} -spin {} {} {}\"",
            param.name, param.default, param.min, param.max
        );
        assert_eq!(features.iter().filter(|l| **l == line).count(), 1, "{line}");
    }
    engine.send("quit");
}

#[test]
fn params_lists_each_constant_once_in_spsa_input_format() {
    let (code, out, err) = common::run_ironwood(&["params"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), PARAMS.len(), "{out}");
    for param in PARAMS {
        let line = lines
            .iter()
            .find(|l| l.split(", ").next() == Some(param.name))
            .unwrap_or_else(|| panic!("{} not listed", param.name));
        let fields: Vec<&str> = line.split(", ").collect();
        assert_eq!(fields.len(), 7, "{line}");
        assert_eq!(fields[1], "int", "{line}");
        let numbers: Vec<f64> = fields[2..].iter().map(|f| f.parse().unwrap()).collect();
        assert_eq!(
            numbers[..3],
            [param.default, param.min, param.max].map(f64::from),
            "{line}"
        );
        assert!(numbers[3] > 0.0 && numbers[4] == 0.002, "{line}");
    }
    let (code, _, err) = common::run_ironwood(&["params", "extra"]);
    assert_eq!(code, 2, "{err}");
}
