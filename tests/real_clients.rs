//! Ironwood under real chess clients: runs `tests/clients/run.sh` (real XBoard under Xvfb,
//! python-chess's XBoard client for games, pondering and analysis, fairymax as opponent)
//! against the built binary and fails if the script does. Parts whose programs are missing
//! are skipped by the script, and then this test passes with the skip messages, except when
//! the environment variable `CI` is set (as `.ci/run` does): then a missing program, or
//! `IRONWOOD_SKIP_REAL_CLIENTS`, fails the test, so CI cannot pass without it. The summary
//! is written straight to stderr, so it shows even when the test output is captured; the
//! whole output comes with a failure. `IRONWOOD_SKIP_REAL_CLIENTS=1` skips the test (about
//! two minutes on two cores).

#![cfg(unix)]

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The script's own limits end each part long before this; it only guards against a hang.
const OVERALL_LIMIT: Duration = Duration::from_secs(600);

fn say(text: &str) {
    // Straight to the stderr handle: `eprintln!` would be captured by the test harness.
    let _ = writeln!(std::io::stderr(), "{text}");
}

#[test]
fn plays_under_xboard_and_python_chess() {
    let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
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
    let mut child = Command::new("bash")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_ironwood"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group, so a hang can be ended with everything it started.
        .process_group(0)
        .spawn()
        .expect("start tests/clients/run.sh");
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
        if let Some(status) = child.try_wait().expect("wait for run.sh") {
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

    let summary: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("== summary"))
        .collect();
    say(&format!(
        "real_clients ({:.0} s):\n{}",
        started.elapsed().as_secs_f64(),
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
