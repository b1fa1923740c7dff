//! Ironwood as OpenBench's client meets it: `./ironwood bench` (stdout and stderr together)
//! read the way its Client/bench.py reads a bench, its two regular expressions matched by
//! hand here (leftmost match, lines from the last, the first found kept), and the root
//! makefile's recipe for `make -j EXE=<name> [EVALFILE=<network>]` (Client/utils.py), checked
//! with `make -n` and a stand-in for cargo.

use crate::common;

use std::process::Command;

/// One piece of an expression: `\d+`, `\s+` or a literal.
#[derive(Clone, Copy)]
enum Piece {
    Digits,
    Spaces,
    Text(&'static str),
}

use Piece::{Digits, Spaces, Text};

/// `(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)`
const NPS: &[&[Piece]] = &[
    &[Digits, Spaces, Text("nps")],
    &[Text("nps"), Spaces, Digits],
    &[Text("nodes second"), Spaces, Digits],
];

/// `(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)`
const BENCH: &[&[Piece]] = &[
    &[Digits, Spaces, Text("nodes")],
    &[Text("nodes"), Spaces, Digits],
    &[Text("nodes searched"), Spaces, Digits],
];

/// The length of `pieces` matched at the start of `text` (each class greedy; they never
/// overlap, so there is nothing to backtrack).
fn match_at(text: &[u8], pieces: &[Piece]) -> Option<usize> {
    let mut at = 0;
    for piece in pieces {
        let run = |class: fn(&u8) -> bool| text[at..].iter().take_while(|c| class(c)).count();
        let length = match piece {
            Digits => run(u8::is_ascii_digit),
            Spaces => run(u8::is_ascii_whitespace),
            Text(word) => {
                if text[at..].starts_with(word.as_bytes()) {
                    word.len()
                } else {
                    0
                }
            }
        };
        if length == 0 {
            return None;
        }
        at += length;
    }
    Some(at)
}

/// `re.search(alternatives, line, re.IGNORECASE)`: the leftmost match, the first
/// alternative that matches there; then `int(re.search(r'\d+', match))`.
fn search(line: &str, alternatives: &[&[Piece]]) -> Option<u64> {
    let text = line.to_ascii_lowercase().into_bytes();
    (0..text.len()).find_map(|start| {
        alternatives.iter().find_map(|pieces| {
            let length = match_at(&text[start..], pieces)?;
            let found = &text[start..start + length];
            let digits: String = found
                .iter()
                .skip_while(|c| !c.is_ascii_digit())
                .take_while(|c| c.is_ascii_digit())
                .map(|&c| char::from(c))
                .collect();
            digits.parse().ok()
        })
    })
}

/// `parse_stream_output`: from the last line up, every run of characters other than
/// letters, digits and spaces becomes a space, and the first bench and nps found stay.
fn parse_stream_output(output: &str) -> (Option<u64>, Option<u64>) {
    let (mut bench, mut nps) = (None, None);
    for line in output.trim().split('\n').rev() {
        let mut cleaned = String::new();
        let mut in_run = false;
        for c in line.chars() {
            let kept = c.is_ascii_alphanumeric() || c == ' ';
            if kept {
                cleaned.push(c);
            } else if !in_run {
                cleaned.push(' ');
            }
            in_run = !kept;
        }
        nps = nps.or_else(|| search(&cleaned, NPS));
        bench = bench.or_else(|| search(&cleaned, BENCH));
    }
    (bench, nps)
}

#[test]
fn the_parser_reads_other_engines_bench_lines_as_openbench_does() {
    assert_eq!(
        parse_stream_output("Nodes searched  : 1234567\nNodes/second    : 890123\n"),
        (Some(1234567), Some(890123)),
        "Stockfish"
    );
    assert_eq!(
        parse_stream_output("info depth 5 nodes 99 nps 5\n1234 nodes 5678 nps\n"),
        (Some(1234), Some(5678)),
        "Ethereal's last line wins over an info line"
    );
    assert_eq!(parse_stream_output("bench done\n"), (None, None));
}

#[test]
fn bench_reads_as_openbench_reads_it_with_the_summary_figures() {
    // As the client runs it: `./binary bench`, stderr into stdout.
    let (code, out, err) = common::run_ironwood(&["bench"]);
    assert_eq!(code, 0, "{err}");
    let summary: Vec<&str> = out
        .lines()
        .find(|l| l.starts_with("nodes "))
        .unwrap_or_else(|| panic!("no summary in {out}"))
        .split_whitespace()
        .collect();
    let nodes: u64 = summary[1].parse().unwrap();
    let nps: u64 = summary[5].parse().unwrap();
    for merged in [format!("{out}{err}"), format!("{err}{out}")] {
        assert_eq!(parse_stream_output(&merged), (Some(nodes), Some(nps)));
    }
}

/// The root makefile's standard output for `make FIRST ARGS`, run at the root; `None` when
/// make is missing or fails. Without cargo's own CARGO (the makefile would take it for
/// `cargo`) and without an IRONWOOD_EVALFILE from outside.
#[cfg(unix)]
fn make(first: &[&str], args: &[&str]) -> Option<String> {
    Command::new("make")
        .env_remove("CARGO")
        .env_remove("IRONWOOD_EVALFILE")
        .args(first)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `make -n EXE=NAME` (a dry run: nothing is built) builds cargo's release binary straight
/// to NAME in the repository's root; plain `make` to ./ironwood; a CC from the client is
/// not used. Skipped with a message where `make` is missing.
#[cfg(unix)]
#[test]
fn make_exe_builds_the_release_binary_to_the_given_name() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dry_run = |args: &[&str]| make(&["-n"], args);
    let Some(named) = dry_run(&["-j", "EXE=ironwood-dev-1a2b3c"]) else {
        if common::in_ci() {
            panic!("make -n failed or make is missing");
        }
        common::say("skipped: no make");
        return;
    };
    let root = std::path::Path::new(root);
    let expect = |name: &str| {
        format!(
            "cargo rustc --release --bin ironwood -- --emit link={}",
            root.join(name).display()
        )
    };
    assert_eq!(named.trim(), expect("ironwood-dev-1a2b3c"));
    assert_eq!(dry_run(&[]).unwrap().trim(), expect("ironwood"));
    let with_cc = dry_run(&["EXE=x", "CC=clang", "EVALFILE=/tmp/n.nnue"]).unwrap();
    assert_eq!(with_cc.trim(), expect("x"));
}

/// `make EXE=x EVALFILE=<file>` (as OpenBench's client passes a network: relative to the
/// root, forward slashes) hands cargo the file's absolute path in `IRONWOOD_EVALFILE`, which
/// build.rs embeds; without EVALFILE the variable is not set. The recipe runs with a stand-in
/// for cargo that prints the variable. Skipped with a message where `make` is missing.
#[cfg(unix)]
#[test]
fn make_evalfile_hands_the_network_to_the_build() {
    let root = env!("CARGO_MANIFEST_DIR");
    let seen_by_cargo = |args: &[&str]| {
        make(
            &["CARGO=sh -c 'echo \"[$$IRONWOOD_EVALFILE]\"' cargo"],
            args,
        )
    };
    let Some(with_network) = seen_by_cargo(&["EXE=x", "EVALFILE=tests/data/gen0-run6.nnue"]) else {
        if common::in_ci() {
            panic!("make failed or make is missing");
        }
        common::say("skipped: no make");
        return;
    };
    let network = std::path::Path::new(root).join("tests/data/gen0-run6.nnue");
    assert!(
        with_network.contains(&format!("[{}]", network.display())),
        "{with_network}"
    );
    assert!(seen_by_cargo(&["EXE=x"]).unwrap().contains("[]"));
}
