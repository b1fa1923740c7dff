//! Ironwood under python-chess's UCI client: runs `tests/clients/uci.py` (handshake and
//! options, games against itself and against Stockfish at Skill Level 0, a pondering game,
//! Multi-PV analysis, go limits) against the built binary and fails if the script does.
//! Without python3 or python-chess the script says so and this test passes with that
//! message; without Stockfish only that part is skipped. `IRONWOOD_SKIP_REAL_CLIENTS=1`
//! skips it (about a minute on two cores). The summary goes straight to stderr.

#![cfg(unix)]

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;

/// The script's own timeouts end each part long before this; it only guards against a hang.
const OVERALL_LIMIT: Duration = Duration::from_secs(400);

fn say(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

#[test]
fn plays_and_analyzes_under_python_chess_uci() {
    if std::env::var_os("IRONWOOD_SKIP_REAL_CLIENTS").is_some_and(|v| v != "0") {
        say("uci_clients: skipped (IRONWOOD_SKIP_REAL_CLIENTS is set)");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/uci.py");
    let logs = common::scratch_dir("uci-clients");
    let spawned = Command::new("python3")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_ironwood"))
        .arg("--log-dir")
        .arg(&logs)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => {
            say(&format!("uci_clients: skipped: cannot run python3: {e}"));
            return;
        }
    };
    let pid = child.id();
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let out_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let err_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for uci.py") {
            break Some(status);
        }
        if started.elapsed() > OVERALL_LIMIT {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{pid}")])
                .status();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let out = out_reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    say(&format!(
        "uci_clients ({:.0} s):\n{out}",
        started.elapsed().as_secs_f64()
    ));
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
        Some(3) => say("uci_clients: skipped: python-chess is not installed"),
        Some(code) => panic!("tests/clients/uci.py failed ({code}):\n{out}\n--- stderr ---\n{err}"),
        None => panic!(
            "tests/clients/uci.py killed (a hang or a signal):\n{out}\n--- stderr ---\n{err}"
        ),
    }
}
