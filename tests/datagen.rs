//! `ironwood datagen` through the real binary: a short run writes readable, labelled,
//! reproducible games; a killed run leaves every game written so far readable.

mod common;

use ironwood::datagen::format::{GameResult, HEADER_SIZE, read_file};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn datagen(out: &Path, extra: &[&str]) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_ironwood"))
        .args(["--threads", "2", "datagen", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .expect("run ironwood datagen");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_short_run_writes_labelled_games_and_the_same_seed_writes_the_same_file() {
    let dir = common::scratch_dir("datagen-short");
    let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
    let args = ["--games", "3", "--nodes", "1000", "--seed", "42"];
    let (code, stderr) = datagen(&a, &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("datagen: 3 games"), "{stderr}");
    assert!(stderr.contains("positions/s"), "{stderr}");

    let records = read_file(&a).unwrap();
    assert!(records.len() > 30, "{} positions", records.len());
    for r in &records {
        assert!(!r.position.in_check());
        assert!(r.ply >= 8, "opening plies are skipped");
        assert!(i32::from(r.score).abs() < 20_000);
    }
    // Games are written whole, each with one result: the result changes at most twice.
    let changes = records
        .windows(2)
        .filter(|w| w[0].result != w[1].result)
        .count();
    assert!(changes <= 2);
    // A decisive game's scores lean towards its winner by the end.
    let last = records.last().unwrap();
    match last.result {
        GameResult::WhiteWon => assert!(last.score > 0),
        GameResult::BlackWon => assert!(last.score < 0),
        GameResult::Draw => {}
    }

    let (code, stderr) = datagen(&b, &args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());

    // Other openings, other games.
    let (code, stderr) = datagen(
        &b,
        &[
            "--games",
            "1",
            "--nodes",
            "1000",
            "--openings",
            "tests/data/openings.epd",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(read_file(&b).unwrap().len() > records.len(), "appended");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_run_leaves_whole_games() {
    let dir = common::scratch_dir("datagen-killed");
    let out = dir.join("killed.bin");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ironwood"))
        .args(["--threads", "2", "datagen", "--nodes", "300", "--out"])
        .arg(&out)
        .stderr(Stdio::null())
        .spawn()
        .expect("start ironwood datagen");
    let started = Instant::now();
    // Wait for two games at least (the header alone is 16 bytes).
    let mut written = 0;
    while started.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(50));
        written = std::fs::metadata(&out).map_or(0, |m| m.len() as usize);
        if written > HEADER_SIZE && read_file(&out).map_or(0, |r| r.len()) > 60 {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(written > HEADER_SIZE, "no game written in two minutes");
    let records = read_file(&out).unwrap();
    assert!(records.len() > 60);

    // Corrupt copies are refused with a clear message.
    let bytes = std::fs::read(&out).unwrap();
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &bytes[..bytes.len() - 1]).unwrap();
    let error = read_file(&cut).unwrap_err().to_string();
    assert!(error.contains("truncated"), "{error}");
    let (code, stderr) = datagen(&cut, &["--games", "1"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("truncated"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
