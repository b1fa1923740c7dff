//! `ironwood datagen` and `ironwood corpus` through the real binary: a short run writes
//! whole, reproducible games to a shard; `corpus add` packs them into the corpus with a
//! manifest line that `corpus verify` checks; a killed run leaves every finished game.

use crate::common;

use ironwood::tools::corpus::format::{Ending, GameResult, read_shard};
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

fn corpus(args: &[&str]) -> (i32, String, String) {
    common::run_ironwood(&[&["corpus"], args].concat())
}

#[test]
fn a_short_run_writes_whole_games_and_the_same_seed_writes_the_same_file() {
    let dir = common::scratch_dir("datagen-short");
    let (a, b, c) = (dir.join("a.iwc"), dir.join("b.iwc"), dir.join("c.iwc"));
    let args = ["--games", "3", "--nodes", "1000", "--seed", "42"];
    let (code, stderr) = datagen(&a, &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("datagen: 3 games"), "{stderr}");
    assert!(stderr.contains("positions/s"), "{stderr}");

    let shard = read_shard(&a).unwrap();
    assert_eq!(shard.games.len(), 3);
    assert_eq!(shard.metadata.get("seed"), Some("42"));
    assert_eq!(shard.metadata.get("nodes"), Some("1000"));
    assert!(
        shard
            .metadata
            .get("evaluation")
            .unwrap()
            .starts_with("nnue ")
    );
    for game in &shard.games {
        assert!((8..=9).contains(&game.opening.len()));
        assert!(game.scored.len() > 10);
        // A decisive game's last score leans towards its winner.
        let last = i32::from(game.scored.last().unwrap().score);
        match game.result {
            GameResult::WhiteWon => assert!(last > 0 || game.ending == Ending::Checkmate),
            GameResult::BlackWon => assert!(last < 0 || game.ending == Ending::Checkmate),
            GameResult::Draw => {}
        }
    }

    let (code, stderr) = datagen(&b, &args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    // An existing file is never overwritten or appended to.
    let (code, stderr) = datagen(&b, &args);
    assert_eq!(code, 1);
    assert!(stderr.contains("exists"), "{stderr}");

    // Other openings, other games; without --seed a random seed, recorded.
    let (code, stderr) = datagen(
        &c,
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
    let other = read_shard(&c).unwrap();
    assert_ne!(other.games[0].start, shard.games[0].start);
    let seed = other.metadata.get("seed").unwrap();
    assert!(
        stderr.contains(&format!("datagen: seed {seed}")),
        "{stderr}"
    );

    // Into the corpus: one shard per output, a manifest line each, all verified.
    let folder = dir.join("corpus");
    let folder_arg = folder.display().to_string();
    let (code, stdout, stderr) = corpus(&[
        "add",
        &a.display().to_string(),
        &c.display().to_string(),
        "--dir",
        &folder_arg,
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("shard-0001.iwc: 3 games"), "{stdout}");
    assert!(stdout.contains("shard-0002.iwc: 1 games"), "{stdout}");
    let (code, stdout, stderr) = corpus(&["verify", "--dir", &folder_arg]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("2 shards, 4 games"), "{stdout}");
    let manifest = std::fs::read_to_string(folder.join("MANIFEST")).unwrap();
    let line = manifest.lines().nth(1).unwrap();
    assert!(line.starts_with("shard-0001.iwc\t3\t"), "{manifest}");
    assert!(line.contains("\t1000\t42\t"), "{manifest}");
    let (code, stdout, stderr) = corpus(&["stats", &folder_arg, "--min-ply", "20"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("total: 4 games"), "{stdout}");
    assert!(stdout.contains("kept by the filter"), "{stdout}");

    // A flipped byte in a shard fails verification with the shard and the byte.
    let shard_path = folder.join("shard-0001.iwc");
    let mut bytes = std::fs::read(&shard_path).unwrap();
    let last = bytes.len() - 2;
    bytes[last] ^= 1;
    std::fs::write(&shard_path, &bytes).unwrap();
    let (code, _, stderr) = corpus(&["verify", "--dir", &folder_arg]);
    assert_eq!(code, 1);
    assert!(stderr.contains("shard-0001.iwc: CRC-32"), "{stderr}");
    assert!(stderr.contains("block checksum mismatch"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_run_leaves_whole_games() {
    let dir = common::scratch_dir("datagen-killed");
    let out = dir.join("killed.iwc");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ironwood"))
        .args(["--threads", "2", "datagen", "--nodes", "300", "--out"])
        .arg(&out)
        .stderr(Stdio::null())
        .spawn()
        .expect("start ironwood datagen");
    let started = Instant::now();
    let mut games = 0;
    while started.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(50));
        games = read_shard(&out).map_or(0, |s| s.games.len());
        if games >= 2 {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(games >= 2, "two games not written in two minutes");
    let written = read_shard(&out).unwrap().games;
    assert!(written.len() >= 2);

    // A cut inside the last game: reading refuses it, `corpus add` keeps the whole games
    // before it and says what it left out.
    let bytes = std::fs::read(&out).unwrap();
    let cut = dir.join("cut.iwc");
    std::fs::write(&cut, &bytes[..bytes.len() - 1]).unwrap();
    let error = read_shard(&cut).unwrap_err().to_string();
    assert!(error.contains("truncated"), "{error}");
    let folder = dir.join("corpus");
    let (code, stdout, stderr) = corpus(&[
        "add",
        &cut.display().to_string(),
        "--dir",
        &folder.display().to_string(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("the partial block is left out"), "{stderr}");
    let kept = read_shard(&folder.join("shard-0001.iwc")).unwrap().games;
    assert_eq!(kept[..], written[..written.len() - 1]);
    assert!(
        stdout.contains(&format!("{} games", kept.len())),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
