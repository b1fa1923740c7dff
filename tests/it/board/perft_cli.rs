//! The `ironwood perft` subcommand through the real binary.

use std::process::Command;

fn ironwood(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ironwood"))
        .args(args)
        .output()
        .expect("run ironwood");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn divide_prints_root_moves_and_summary() {
    let (ok, out) = ironwood(&["perft", "3"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 21);
    assert!(lines.contains(&"e2e4: 600"), "{out}");
    assert!(lines[20].starts_with("nodes 8902 time_ms "), "{out}");
}

#[test]
fn divide_takes_a_fen() {
    let (ok, out) = ironwood(&[
        "perft",
        "2",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ]);
    assert!(ok);
    assert!(out.lines().any(|l| l == "e1g1: 43"), "{out}");
    assert!(
        out.lines().last().unwrap().starts_with("nodes 2039 "),
        "{out}"
    );
}

#[test]
fn suite_mode_reports_passed_count() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.epd");
    let (ok, out) = ironwood(&["perft", "--epd", path, "--max-depth", "3"]);
    assert!(ok, "{out}");
    let last = out.lines().last().unwrap();
    let parts: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(parts[0], "passed");
    assert_eq!(parts[1], parts[3], "{out}");
}

#[test]
fn suite_mode_reports_a_mismatch() {
    let dir = std::env::temp_dir().join(format!("ironwood-perft-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.epd");
    std::fs::write(
        &file,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n",
    )
    .unwrap();
    let (ok, out) = ironwood(&["perft", "--epd", file.to_str().unwrap()]);
    assert!(!ok);
    assert!(out.contains("MISMATCH"), "{out}");
    assert!(out.ends_with("passed 1 of 2\n"), "{out}");
}

/// A reader that has gone (`| head -1` after its line) ends a tool as it ends `cat`: by
/// SIGPIPE, with nothing on stderr, not a panic on the next line printed. The pipe's read end
/// is closed before the tool starts, so its first line meets a closed pipe however the two
/// processes are scheduled.
#[cfg(unix)]
#[test]
fn a_reader_that_has_gone_ends_the_tool_quietly() {
    use std::os::unix::process::ExitStatusExt;

    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_ironwood"))
        .args(["perft", "2"])
        .stdout(writer)
        .output()
        .expect("run ironwood");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.signal(),
        Some(13),
        "{:?}, stderr: {stderr}",
        out.status
    );
    assert!(stderr.is_empty(), "{stderr}");
}
