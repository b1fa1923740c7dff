//! Ironwood under real chess clients: runs `tests/clients/run.sh` (real XBoard under Xvfb,
//! and a Chess960 game pair in it, python-chess's XBoard client for games, pondering and analysis,
//! fairymax as opponent)
//! against the built binary and fails if the script does. Parts whose programs are missing
//! are skipped by the script, and then this test passes with the skip messages, except when
//! the environment variable `CI` is set (as `.ci/run` does): then a missing program, or
//! `IRONWOOD_SKIP_REAL_CLIENTS`, fails the test, so CI cannot pass without it. The summary
//! is written straight to stderr, so it shows even when the test output is captured; the
//! whole output comes with a failure. `IRONWOOD_SKIP_REAL_CLIENTS=1` skips the test (about
//! two minutes on two cores).

#![cfg(unix)]

use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::common;
use common::{in_ci, run_script, say};

/// The script's own limits end each part long before this; it only guards against a hang.
const OVERALL_LIMIT: Duration = Duration::from_secs(600);

#[test]
fn plays_under_xboard_and_python_chess() {
    let ci = in_ci();
    let skip = |why: &str| {
        assert!(
            !ci,
            "real_clients: {why}, but CI is set: the clients must run"
        );
        say(&format!("real_clients: skipped ({why})"));
    };
    if std::env::var_os("IRONWOOD_SKIP_REAL_CLIENTS").is_some_and(|v| v != "0") {
        skip("IRONWOOD_SKIP_REAL_CLIENTS is set");
        return;
    }
    if Command::new("bash").arg("-c").arg("true").status().is_err() {
        skip("bash not found");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/run.sh");
    let binary = env!("CARGO_BIN_EXE_ironwood");
    let run = run_script(
        "bash",
        &[script.as_os_str(), OsStr::new(binary)],
        OVERALL_LIMIT,
    )
    .expect("start tests/clients/run.sh");
    let (status, out, err) = (run.status, run.out, run.err);

    let summary: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("== summary"))
        .collect();
    say(&format!(
        "real_clients ({:.0} s):\n{}",
        run.elapsed.as_secs_f64(),
        summary.join("\n")
    ));
    if ci
        && summary
            .iter()
            .any(|l| l.contains(" skipped ") && !l.contains(" 0 skipped"))
    {
        panic!("CI is set but parts were skipped:\n{out}\n--- stderr ---\n{err}");
    }
    match status {
        Some(s) if s.success() => {}
        Some(s) => panic!("tests/clients/run.sh failed ({s}):\n{out}\n--- stderr ---\n{err}"),
        None => panic!(
            "tests/clients/run.sh still running after {OVERALL_LIMIT:?}, killed:\n{out}\n--- stderr ---\n{err}"
        ),
    }
}
