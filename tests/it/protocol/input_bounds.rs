//! Numbers from the user that once overflowed or aborted, through the real binary: each is
//! refused (or capped) with a clear message and changes nothing.

use crate::common;

use std::ffi::OsStr;
use std::time::Duration;

use common::{Engine, SHORT, run_ironwood, scratch_dir};
use ironwood::board::Position;

/// Runs `ironwood ARGS` with its logs in a scratch folder; (exit code, stdout, stderr).
fn ironwood(args: &[&str]) -> (i32, String, String) {
    let log_dir = scratch_dir("bounds-cli");
    let mut args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    args.extend([OsStr::new("--log-dir"), log_dir.as_os_str()]);
    run_ironwood(&args)
}

#[test]
fn a_halfmove_clock_beyond_the_limit_is_a_fen_error_for_perft() {
    let (code, out, err) = ironwood(&[
        "perft",
        "1",
        "8/8/8/8/8/8/8/K6k",
        "w",
        "-",
        "-",
        "65535",
        "1",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        err.contains("halfmove clock 65535 is larger than 60000"),
        "{err}"
    );
    // The limit itself is a position like any other.
    let (code, out, err) = ironwood(&[
        "perft",
        "2",
        "8/8/8/8/8/8/8/K6k",
        "w",
        "-",
        "-",
        "60000",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("nodes 9 "), "{out}");
}

#[test]
fn setboard_with_a_huge_halfmove_clock_is_refused_and_changes_nothing() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("new");
    engine.send("force");
    engine.send("setboard 8/8/8/8/8/8/8/K6k w - - 65535 1");
    engine.expect("the refusal", SHORT, |l| {
        l == "tellusererror Illegal position"
    });
    // Still the start position: 1. e4 is legal.
    engine.send("usermove e2e4");
    let lines = engine.sync();
    assert!(!lines.iter().any(|l| l.starts_with("Illegal")), "{lines:?}");
}

#[test]
fn move_overhead_is_range_checked_like_the_option() {
    for value in ["5001", "99999999999999999999", "-1", "x"] {
        let (code, out, err) = ironwood(&["--move-overhead", value]);
        assert_eq!(code, 2, "{value}: {out}{err}");
        assert!(
            err.contains("--move-overhead") && err.contains("a whole number from 0 to 5000"),
            "{value}: {err}"
        );
        assert!(out.is_empty(), "{out}");
    }
    for value in ["0", "5000"] {
        let (code, _, err) = ironwood(&["--move-overhead", value]);
        assert_eq!(code, 0, "{value}: {err}");
    }
}

#[test]
fn hash_beyond_the_memory_is_capped_with_the_same_words_as_memory() {
    let log_dir = scratch_dir("bounds-hash");
    let args = [
        "--hash".to_string(),
        "1048576".to_string(),
        "--log-dir".to_string(),
        log_dir.display().to_string(),
    ];
    let mut engine = Engine::start_with(&args, log_dir);
    engine.handshake();
    engine.sync();
    let startup_note = engine.stderr();
    assert!(
        startup_note.contains("hash 1048576 MB is more than half the available memory"),
        "{startup_note}"
    );
    engine.send("memory 1048576");
    // Nothing on stdout (protocol-1 GUIs would take a stray line for a move): the log says it.
    let lines = engine.sync();
    assert!(lines.is_empty(), "{lines:?}");
    let log: String = engine
        .log_files()
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .collect();
    let words = |text: &str| {
        let start = text.find("hash 1048576 MB").unwrap_or(0);
        text[start..]
            .split(" (")
            .next()
            .unwrap_or_default()
            .to_string()
    };
    assert!(log.contains("hash 1048576 MB is more than half"), "{log}");
    assert_eq!(words(&log), words(&startup_note));
    assert!(engine.is_alive());
}

/// Each line is refused with the protocol's error reply naming it.
#[test]
fn out_of_range_numbers_get_the_error_reply() {
    let mut engine = Engine::start();
    engine.handshake();
    for line in [
        "sd 1001",
        "depth 4294967295",
        "st 2592001",
        "level 10001 5 0",
        "level 0 43201 0",
        "level 0 5 100000000000000",
        "nps 1000000001",
        "time 259200001",
        "otim -259200001",
        "cores 0",
        "cores 257",
        "memory 0",
        "memory 1048577",
    ] {
        engine.send(line);
        let reply = engine.expect("an error reply", SHORT, |l| l.starts_with("Error ("));
        assert!(reply.ends_with(&format!("): {line}")), "{line}: {reply}");
    }
}

/// A refused time control leaves the previous one in force: the engine still moves at once.
#[test]
fn refused_time_controls_change_nothing() {
    for bad in [
        "st 100000000000000",
        "level 0 5 100000000000000",
        "time 100000000000000",
    ] {
        let mut engine = Engine::start();
        engine.handshake();
        engine.send("new");
        engine.send("st 1");
        engine.send(bad);
        engine.expect("an error reply", SHORT, |l| l.starts_with("Error ("));
        engine.send("go");
        engine.expect_move(&Position::startpos(), Duration::from_secs(10));
    }
}
