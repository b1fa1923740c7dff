//! `ironwood tune` through the real binary on a few self-play games: it fits K, prints the
//! loss per epoch, lowers it, and writes a weights file that depends only on the data and
//! the seed (not on the number of threads).

use crate::common;

use std::path::Path;
use std::process::Command;

fn ironwood(args: &[&str], paths: &[&Path]) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ironwood"));
    command.args(args);
    for p in paths {
        command.arg(p);
    }
    let out = command.output().expect("run ironwood");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `ironwood tune OPTIONS --data DATA --out OUT`.
fn tune_with(options: &[&str], data: &Path, out: &Path) -> (i32, String, String) {
    let mut args = vec!["tune"];
    args.extend_from_slice(options);
    args.push("--data");
    ironwood(&args, &[data, Path::new("--out"), out])
}

fn tune(threads: &str, data: &Path, out: &Path) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ironwood"));
    command
        .args([
            "--threads",
            threads,
            "tune",
            "--epochs",
            "4",
            "--batch",
            "256",
        ])
        .arg("--data")
        .arg(data)
        .arg("--out")
        .arg(out);
    let output = command.output().expect("run ironwood tune");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

fn epoch_losses(stdout: &str) -> Vec<f64> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("epoch "))
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect()
}

/// The (midgame, endgame) pairs of one table in a written `weights.rs`.
fn table(source: &str, name: &str) -> Vec<(i32, i32)> {
    let start = source
        .find(&format!("    {name}: ["))
        .unwrap_or_else(|| panic!("{name} missing"));
    let body = &source[start..];
    let body = &body[..body.find("],").unwrap()];
    body.split("s(")
        .skip(1)
        .map(|pair| {
            let mut numbers = pair
                .split([',', ')'])
                .map(|n| n.trim().parse::<i32>().unwrap());
            (numbers.next().unwrap(), numbers.next().unwrap())
        })
        .collect()
}

#[test]
fn a_tiny_tune_lowers_the_loss_and_writes_the_same_file_for_the_same_data() {
    let dir = common::scratch_dir("tune");
    let data = dir.join("games.iwc");
    let (code, _, stderr) = ironwood(
        &[
            "--threads",
            "2",
            "datagen",
            "--games",
            "4",
            "--nodes",
            "800",
            "--seed",
            "9",
            "--out",
        ],
        &[&data],
    );
    assert_eq!(code, 0, "{stderr}");

    let (a, b) = (dir.join("a.rs"), dir.join("b.rs"));
    let stdout = tune("2", &data, &a);
    assert!(stdout.contains("K = "), "{stdout}");
    assert!(stdout.contains("final K = "), "{stdout}");
    let losses = epoch_losses(&stdout);
    assert_eq!(losses.len(), 5, "{stdout}");
    assert!(losses[4] < losses[0], "{stdout}");

    let written = std::fs::read_to_string(&a).unwrap();
    assert!(written.contains("pub const WEIGHTS: Weights = Weights {"));
    assert!(written.contains("pub const SCALE: ScaleFactors = ScaleFactors {"));
    assert!(written.contains("Tuned by `ironwood tune`"));
    let committed = std::fs::read_to_string("src/eval/weights.rs").unwrap();
    assert_ne!(written, committed, "the weights moved");
    let body = |text: &str| text.lines().filter(|l| !l.starts_with("//!")).count();
    assert_eq!(
        body(&written),
        body(&committed),
        "same layout, line for line"
    );

    tune("1", &data, &b);
    assert_eq!(written, std::fs::read_to_string(&b).unwrap());

    // Held-out games: their loss is shown and the best epoch by it is written.
    let (code, stdout, stderr) = tune_with(
        &["--epochs", "3", "--batch", "256", "--holdout", "0.25"],
        &data,
        &b,
    );
    assert_eq!(code, 0, "{stderr}");
    let with_validation = stdout
        .lines()
        .filter(|l| l.starts_with("epoch ") && l.contains(" validation "))
        .count();
    assert_eq!(with_validation, 4, "{stdout}");
    assert!(
        stdout.contains("lowest validation loss after epoch"),
        "{stdout}"
    );

    // Quiescence-resolved positions: the count it moved is reported and recorded.
    let resolved = dir.join("resolved.rs");
    let (code, stdout, stderr) = tune_with(&["--epochs", "2", "--resolve"], &data, &resolved);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(epoch_losses(&stdout).len(), 3, "{stdout}");
    let counts: Vec<usize> = stderr
        .split_whitespace()
        .filter_map(|w| w.trim_start_matches('(').parse().ok())
        .collect();
    assert!(
        stderr.contains("moved to the end of their capture line") && counts.len() == 2,
        "{stderr}"
    );
    assert!(counts[1] <= counts[0], "{stderr}");
    let header = std::fs::read_to_string(&resolved).unwrap();
    assert!(header.contains("positions resolved by quiescence"));

    // A step size that throws every weight about still leaves the shaped tables in shape:
    // mobility rising, passers gaining by rank, king danger growing with the attack.
    let wild = dir.join("wild.rs");
    let (code, _, stderr) = tune_with(
        &["--epochs", "2", "--batch", "64", "--lr", "60"],
        &data,
        &wild,
    );
    assert_eq!(code, 0, "{stderr}");
    let wild = std::fs::read_to_string(&wild).unwrap();
    assert_ne!(
        table(&wild, "rook_mobility"),
        table(&committed, "rook_mobility")
    );
    for name in [
        "knight_mobility",
        "bishop_mobility",
        "rook_mobility",
        "queen_mobility",
    ] {
        for pair in table(&wild, name).windows(2) {
            assert!(
                pair[1].0 >= pair[0].0 && pair[1].1 >= pair[0].1,
                "{name}: {pair:?}"
            );
        }
    }
    let passed = table(&wild, "passed");
    for rank in 2..=6 {
        assert!(passed[rank].1 > passed[rank - 1].1, "passed: {passed:?}");
    }
    for name in ["king_attack_with_queen", "king_attack_without_queen"] {
        for pair in table(&wild, name).windows(2) {
            assert!(
                pair[1].0 <= pair[0].0 && pair[1].1 <= pair[0].1,
                "{name}: {pair:?}"
            );
        }
    }

    // Weights seen in too few positions stay put: with a floor above the data's size, every
    // weight keeps its committed value (only the three scale factors may move).
    let floored = dir.join("floored.rs");
    let (code, stdout, stderr) = tune_with(
        &["--epochs", "2", "--min-positions", "1000000"],
        &data,
        &floored,
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("stay as they are"), "{stdout}");
    let weights_block = |text: &str| {
        let start = text.find("pub const WEIGHTS").unwrap();
        let end = text.find("pub const SCALE").unwrap();
        text[start..end].to_string()
    };
    assert_eq!(
        weights_block(&std::fs::read_to_string(&floored).unwrap()),
        weights_block(&committed)
    );
    assert_ne!(weights_block(&written), weights_block(&committed));

    let (code, _, stderr) = ironwood(&["tune", "--out", "x.rs", "--data"], &[&dir.join("none")]);
    assert_eq!(code, 1);
    assert!(stderr.contains("none"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
