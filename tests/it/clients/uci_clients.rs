//! Ironwood under python-chess's UCI client: runs `tests/clients/uci.py` (handshake and
//! options, games against itself and against Stockfish at Skill Level 0, a pondering game,
//! Multi-PV analysis, go limits) against the built binary and fails if the script does.
//! Without python3 or python-chess the script says so and this test passes with that
//! message; without Stockfish only that part is skipped; with `CI` set (as `.ci/run` does)
//! any skip fails it. `IRONWOOD_SKIP_REAL_CLIENTS=1`
//! skips it (about a minute on two cores). The summary goes straight to stderr.

#![cfg(unix)]

use std::ffi::OsStr;
use std::path::Path;
use std::time::Duration;

use crate::common;
use common::{in_ci, run_script, say};

/// The script's own timeouts end each part long before this; it only guards against a hang.
const OVERALL_LIMIT: Duration = Duration::from_secs(400);

#[test]
fn plays_and_analyzes_under_python_chess_uci() {
    let ci = in_ci();
    let skip = |why: &str| {
        assert!(
            !ci,
            "uci_clients: {why}, but CI is set: the client must run"
        );
        say(&format!("uci_clients: skipped ({why})"));
    };
    if std::env::var_os("IRONWOOD_SKIP_REAL_CLIENTS").is_some_and(|v| v != "0") {
        skip("IRONWOOD_SKIP_REAL_CLIENTS is set");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/uci.py");
    let logs = common::scratch_dir("uci-clients");
    let args = [
        script.as_os_str(),
        OsStr::new(env!("CARGO_BIN_EXE_ironwood")),
        OsStr::new("--log-dir"),
        logs.as_os_str(),
    ];
    let run = match run_script("python3", &args, OVERALL_LIMIT) {
        Ok(run) => run,
        Err(e) => {
            skip(&format!("cannot run python3: {e}"));
            return;
        }
    };
    let (status, out, err) = (run.status, run.out, run.err);
    say(&format!(
        "uci_clients ({:.0} s):\n{out}",
        run.elapsed.as_secs_f64()
    ));
    if ci && out.lines().any(|l| l.contains("skipped")) {
        panic!("CI is set but parts were skipped:\n{out}\n--- stderr ---\n{err}");
    }
    // ERROR lines in the engine's own logs fail the run as well.
    let errors: Vec<String> = std::fs::read_dir(&logs)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .flat_map(|text| {
                    text.lines()
                        .filter(|l| l.contains(" ERROR "))
                        .map(str::to_string)
                        .collect::<Vec<_>>()
                })
                .collect()
        })
        .unwrap_or_default();
    let _ = std::fs::remove_dir_all(&logs);
    match status.and_then(|s| s.code()) {
        Some(0) => assert!(errors.is_empty(), "ERROR lines in the log: {errors:?}"),
        Some(3) => skip("python-chess is not installed"),
        Some(code) => panic!("tests/clients/uci.py failed ({code}):\n{out}\n--- stderr ---\n{err}"),
        None => panic!(
            "tests/clients/uci.py killed (a hang or a signal):\n{out}\n--- stderr ---\n{err}"
        ),
    }
}
