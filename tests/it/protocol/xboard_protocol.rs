//! CECP conversations through the real binary: handshake, ping discipline, stale moves,
//! illegal input, setboard/edit, undo/remove, options, logs.

use crate::common;

use common::{Engine, SHORT, is_result, scratch_dir};
use ironwood::board::{Position, parse_move};
use std::time::Duration;

const FEATURES: [&str; 23] = [
    "ping=1",
    "setboard=1",
    "playother=1",
    "usermove=1",
    "time=1",
    "draw=1",
    "reuse=1",
    "analyze=1",
    "ics=1",
    "name=1",
    "debug=1",
    "memory=1",
    "smp=1",
    "exclude=1",
    "egt=\"syzygy\"",
    "sigint=0",
    "sigterm=0",
    "colors=0",
    "san=0",
    "nps=0",
    "pause=0",
    "variants=\"normal,fischerandom\"",
    "myname=\"Ironwood ",
];

#[test]
fn handshake_announces_every_feature_between_done_0_and_done_1() {
    let mut engine = Engine::start();
    let lines = engine.handshake();
    assert_eq!(lines.first().map(String::as_str), Some("feature done=0"));
    assert_eq!(lines.last().map(String::as_str), Some("feature done=1"));
    let all = lines.join(" ");
    for feature in FEATURES {
        assert!(
            all.contains(&format!(" {feature}")),
            "{feature} missing: {all}"
        );
    }
    for option in [
        "option=\"Move Overhead -spin 30 0 5000\"",
        "option=\"Resign -check 0\"",
        "option=\"Resign Threshold -spin 800 200 3000\"",
        "option=\"Clear Hash -button\"",
        "option=\"MultiPV -spin 1 1 64\"",
        "option=\"EvalFile -file <embedded>\"",
        "option=\"SyzygyPath -path <empty>\"",
    ] {
        assert!(all.contains(option), "{option} missing: {all}");
    }
    for line in &lines {
        assert!(line.starts_with("feature "), "not a feature line: {line}");
        assert_eq!(
            line.matches('"').count() % 2,
            0,
            "unbalanced quotes: {line}"
        );
    }
    // A second protover is answered again; `accepted`/`rejected` are silent.
    engine.send("accepted ping");
    engine.send("rejected sigterm");
    assert!(engine.sync().is_empty());
}

#[test]
fn pong_follows_the_move_when_thinking() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("new");
    engine.send("sd 4");
    engine.send("go");
    engine.send("ping 7");
    let lines = engine.until("pong 7", SHORT, |l| l == "pong 7");
    let moves: Vec<&String> = lines.iter().filter(|l| l.starts_with("move ")).collect();
    assert_eq!(moves.len(), 1, "{lines:?}");
    let start = Position::startpos();
    assert!(parse_move(&start, &moves[0]["move ".len()..]).is_ok());
}

#[test]
fn force_or_new_while_thinking_never_yields_a_stale_move() {
    let mut engine = Engine::start();
    engine.handshake();
    for stopper in [
        "force",
        "new",
        "result 1-0 {White wins}",
        "setboard 8/8/8/4k3/8/8/8/4K2R w K - 0 1",
        "undo",
    ] {
        engine.send("new");
        engine.send("force");
        engine.send("usermove e2e4");
        engine.send("st 30");
        engine.send("go");
        engine.send(stopper);
        engine.send("ping 1");
        let lines = engine.until("pong 1", SHORT, |l| l == "pong 1");
        assert!(
            !lines.iter().any(|l| l.starts_with("move ")),
            "{stopper}: {lines:?}"
        );
        // Nor later.
        std::thread::sleep(Duration::from_millis(200));
        let lines = engine.sync();
        assert!(
            !lines.iter().any(|l| l.starts_with("move ")),
            "{stopper}: {lines:?}"
        );
    }
}

#[test]
fn go_twice_is_one_search_and_one_move() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("new");
    engine.send("st 1");
    engine.send("go");
    engine.send("go");
    let lines = engine.until("the move", SHORT, |l| l.starts_with("move "));
    assert_eq!(lines.iter().filter(|l| l.starts_with("move ")).count(), 1);
    std::thread::sleep(Duration::from_millis(300));
    let later = engine.sync_within(Duration::from_secs(3));
    assert!(!later.iter().any(|l| l.starts_with("move ")), "{later:?}");
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("new");
    engine.send("force");
    for (sent, reply) in [
        ("usermove e2e5", "Illegal move: e2e5"),
        ("usermove zz", "Illegal move: zz"),
        ("usermove e7e5", "Illegal move: e7e5"),
        ("e1g1", "Illegal move: e1g1"),
        ("usermove e2e4q", "Illegal move: e2e4q"),
    ] {
        engine.send(sent);
        assert_eq!(engine.sync(), [reply], "{sent}");
    }
    // Still the start position, White to move: a legal move for it comes back.
    engine.send("sd 2");
    engine.send("go");
    engine.expect_move(&Position::startpos(), SHORT);
}

#[test]
fn bad_fens_are_refused_and_change_nothing() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("new");
    engine.send("force");
    let good = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1";
    engine.send(&format!("setboard {good}"));
    for bad in [
        "8/8/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1",
        "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - e9 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - x 1",
        "pppppppp/8/8/4k3/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 65535 1",
        "garbage",
    ] {
        engine.send(&format!("setboard {bad}"));
        let lines = engine.sync();
        assert_eq!(
            lines.first().map(String::as_str),
            Some("tellusererror Illegal position"),
            "{bad}: {lines:?}"
        );
        assert!(lines[1..].iter().all(|l| l.starts_with('#')), "{lines:?}");
    }
    engine.send("sd 3");
    engine.send("go");
    engine.expect_move(&Position::from_fen(good).unwrap(), SHORT);
}

#[test]
fn undo_and_remove_take_moves_back() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("new");
    engine.send("undo");
    let lines = engine.sync();
    assert!(lines.iter().all(|l| l.starts_with('#')), "{lines:?}");
    engine.send("force");
    for m in ["e2e4", "e7e5", "g1f3"] {
        engine.send(&format!("usermove {m}"));
    }
    engine.send("undo");
    engine.send("usermove g1f3");
    assert!(engine.sync().is_empty());
    engine.send("remove");
    // Back to after 1.e4: Black to move.
    engine.send("usermove e7e5");
    assert!(engine.sync().is_empty());
    engine.send("usermove e7e5");
    assert_eq!(engine.sync(), ["Illegal move: e7e5"]);
    engine.send("remove");
    engine.send("remove");
    engine.send("usermove d2d4");
    let lines = engine.sync();
    assert!(lines.iter().all(|l| l.starts_with('#')), "{lines:?}");
}

#[test]
fn edit_mode_builds_a_position_with_castling_rights() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("new");
    engine.send("force");
    for line in [
        "edit", "#", "Ke1", "Ra1", "Ph2", "c", "Ke8", "Pa7", "xa7", ".",
    ] {
        engine.send(line);
    }
    assert!(engine.sync().is_empty());
    engine.send("usermove e1c1");
    assert!(engine.sync().is_empty(), "castling must be allowed");
    // A board without kings is refused and leaves the position alone.
    for line in ["edit", "#", "Pe4", "."] {
        engine.send(line);
    }
    let lines = engine.sync();
    assert_eq!(
        lines.first().map(String::as_str),
        Some("tellusererror Illegal position")
    );
    // (The rook now on d1 guards d8.)
    engine.send("usermove e8d8");
    assert_eq!(engine.sync(), ["Illegal move: e8d8"]);
    engine.send("usermove e8f7");
    assert!(engine.sync().is_empty());
    // A bad edit line is an error; a real command ends edit mode.
    engine.send("edit");
    engine.send("Zz9");
    assert_eq!(
        engine.sync().len(),
        2,
        "bad edit line, then the abandon note"
    );
}

#[test]
fn unknown_commands_options_and_misc_replies() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("foo bar");
    assert_eq!(engine.sync(), ["Error (unknown command): foo"]);
    engine.send("variant suicide");
    assert_eq!(engine.sync(), ["Error (unsupported variant): suicide"]);
    engine.send("option Bogus=1");
    assert_eq!(engine.sync(), ["Error (unknown option): Bogus"]);
    for line in [
        "variant normal",
        "option Move Overhead=50",
        "option Null Move=0",
        "option IID=SelfDeepening",
        "option Clear Hash",
        "option Resign=1",
        "memory 16",
        "cores 2",
        "egtpath gaviota /nowhere",
        "name Someone",
        "rating 2000 1900",
        "ics -",
        "computer",
        "random",
        "hard",
        "easy",
        "post",
        "nopost",
        "",
        "   ",
        "accepted usermove",
        "level 40 0:30 0.5",
        "level 0 2 1.5",
        "st 2",
        "sd 5",
        "time 12345",
        "otim 999",
        "nps 0",
        "depth 3",
    ] {
        engine.send(line);
        let lines = engine.sync();
        assert!(lines.is_empty(), "{line:?}: {lines:?}");
    }
    // XBoard sends its default table folder, which often does not exist: a note for the
    // debug window, no dialog.
    engine.send("egtpath syzygy /nowhere");
    let lines = engine.sync();
    assert!(
        !lines.is_empty() && lines.iter().all(|l| l.starts_with("# Syzygy: ")),
        "{lines:?}"
    );
    engine.send("bk");
    assert_eq!(engine.sync(), [" no book", ""]);
    engine.send("new");
    engine.send("hint");
    assert!(engine.sync().is_empty());
    engine.send("exclude zz9");
    assert_eq!(engine.sync(), ["Illegal move: zz9"]);
}

#[test]
fn logs_go_to_the_log_dir() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("ping 99");
    engine.expect("pong", SHORT, |l| l == "pong 99");
    engine.send("quit");
    assert_eq!(engine.wait_exit(SHORT), Some(0));
    let files = engine.log_files();
    assert_eq!(files.len(), 1, "{files:?}");
    let name = files[0].file_name().unwrap().to_string_lossy().to_string();
    assert!(
        name.starts_with("ironwood-") && name.ends_with(".log"),
        "{name}"
    );
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(text.contains("<< protover 2"), "{text}");
    assert!(text.contains(">> pong 99"), "{text}");
}

/// A GUI starts the clock once `pong` arrives, so `pong` after `new` must wait for the table
/// clear `new` queued on the search thread (a 256 MB clear takes tens of milliseconds).
#[test]
fn pong_after_new_waits_for_the_table_clear() {
    let mut engine = Engine::start_with_hash(256);
    engine.handshake();
    for round in 0..3 {
        engine.send("new");
        engine.send(&format!("ping {round}"));
        engine.expect("pong", 4 * SHORT, |l| l == format!("pong {round}"));
    }
    engine.send("quit");
    assert_eq!(engine.wait_exit(SHORT), Some(0));
    let files = engine.log_files();
    assert_eq!(files.len(), 1, "{files:?}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for round in 0..3 {
        let pong = format!(">> pong {round}");
        let pong_at = lines.iter().position(|l| l.ends_with(&pong)).expect(&pong);
        let cleared = lines[..pong_at]
            .iter()
            .filter(|l| l.contains("table cleared in"))
            .count();
        assert!(
            cleared > round,
            "pong {round} was sent before the clear of its `new` finished:\n{text}"
        );
    }
}

#[test]
fn unwritable_log_dir_is_reported_once_and_the_engine_plays() {
    let file = scratch_dir("notadir").join("file");
    std::fs::write(&file, "x").unwrap();
    let log_dir = file.join("logs");
    let args = ["--log-dir".to_string(), log_dir.display().to_string()];
    let mut engine = Engine::start_with(&args, file.parent().unwrap().to_path_buf());
    engine.handshake();
    let lines = engine.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("# cannot write a log file"),
        "{lines:?}"
    );
    engine.send("new");
    engine.send("sd 2");
    engine.send("go");
    engine.expect_move(&Position::startpos(), SHORT);
    engine.send("protover 2");
    let again = engine.until("done", SHORT, |l| l == "feature done=1");
    assert!(!again.iter().any(|l| l.starts_with('#')));
}

#[test]
fn quit_and_end_of_input_stop_the_engine_even_mid_search() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("new");
    engine.send("analyze");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("quit");
    assert_eq!(engine.wait_exit(SHORT), Some(0));

    let mut engine = Engine::start();
    engine.handshake();
    engine.send("new");
    engine.send("st 30");
    engine.send("go");
    engine.close_stdin();
    assert_eq!(engine.wait_exit(SHORT), Some(0));
    let rest = engine.drain(Duration::from_millis(100));
    assert!(!rest.iter().any(|l| is_result(l)), "{rest:?}");
}

#[test]
fn option_values_out_of_range_are_refused_and_change_nothing() {
    let mut engine = Engine::start();
    engine.handshake();
    for (line, reply) in [
        (
            "option Move Overhead=9999",
            "Error (invalid option value, 0 to 5000): Move Overhead=9999",
        ),
        (
            "option Move Overhead=-5",
            "Error (invalid option value, 0 to 5000): Move Overhead=-5",
        ),
        (
            "option Resign Threshold=10",
            "Error (invalid option value, 200 to 3000): Resign Threshold=10",
        ),
        (
            "option Null Move=2",
            "Error (invalid option value, 0 or 1): Null Move=2",
        ),
        (
            "option IID=Never",
            "Error (invalid option value, one of Classic, SelfDeepening, Reduction, Off): IID=Never",
        ),
    ] {
        engine.send(line);
        assert_eq!(engine.sync(), [reply], "{line}");
    }
    // The option features announce the current values: still the defaults.
    let features = |engine: &mut Engine| -> Vec<String> {
        engine.send("protover 2");
        engine
            .until("done=1", SHORT, |l| l == "feature done=1")
            .into_iter()
            .filter(|l| l.starts_with("feature option="))
            .collect()
    };
    let options = features(&mut engine);
    for expected in [
        "feature option=\"Move Overhead -spin 30 0 5000\"",
        "feature option=\"Resign Threshold -spin 800 200 3000\"",
    ] {
        assert!(
            options.iter().any(|l| l == expected),
            "{expected} in {options:?}"
        );
    }
    // Values in range are taken.
    engine.send("option Move Overhead=5000");
    assert!(engine.sync().is_empty());
    let options = features(&mut engine);
    assert!(options.contains(&"feature option=\"Move Overhead -spin 5000 0 5000\"".to_string()));
}
