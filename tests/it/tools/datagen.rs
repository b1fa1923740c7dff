//! `ironwood datagen` and `ironwood corpus` through the real binary: a short run writes
//! whole, reproducible games to a shard; `corpus add` packs them into the corpus with a
//! manifest line that `corpus verify` checks; a killed run leaves every finished game;
//! double Fischer random starts; the adjudication rules and the run's positions per
//! CPU-second in the header and the manifest; bad values refused.

use crate::common;

use ironwood::board::{CastlingMode, Position};
use ironwood::tools::corpus::format::{
    Ending, GameResult, block_stats, blocks, read_header, read_shard,
};
use ironwood::tools::datagen;
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

/// A datagen output's bytes without its run-totals blocks (which hold times, so two runs'
/// differ): the header and the blocks of games.
fn without_totals(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    let (_, start) = read_header(path, &bytes).unwrap();
    let mut kept = bytes[..start].to_vec();
    for block in blocks(path, &bytes, start) {
        let block = block.unwrap();
        if block_stats(&block).is_none() {
            kept.extend_from_slice(&bytes[block.offset..block.offset + 12 + block.payload.len()]);
        }
    }
    kept
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
    assert!(
        stderr.contains("positions per CPU-second (") && stderr.contains("process CPU time"),
        "{stderr}"
    );

    let shard = read_shard(&a).unwrap();
    assert_eq!(shard.games.len(), 3);
    assert_eq!(shard.metadata.get("seed"), Some("42"));
    assert_eq!(shard.metadata.get("nodes"), Some("1000"));
    assert_eq!(
        shard.metadata.get("dfrc_share"),
        Some(format!("{}%", datagen::DEFAULT_DFRC_PERCENT).as_str())
    );
    assert_eq!(
        shard.metadata.get("adjudication"),
        Some(
            "win: a mate score, or |score| >= 1000 cp for 4 plies in a row; \
             draw: |score| <= 10 cp for 8 plies in a row from ply 80"
        )
    );
    // The run's totals, at the end of the file.
    let totals = shard.totals.as_ref().expect("a run-totals block");
    let positions: usize = shard.games.iter().map(|g| g.scored_positions()).sum();
    assert_eq!(totals.get("run_games"), Some("3"));
    assert_eq!(
        totals.get("run_positions"),
        Some(positions.to_string().as_str())
    );
    let rate: f64 = totals
        .get("positions_per_cpu_second")
        .unwrap()
        .parse()
        .unwrap();
    assert!(rate > 0.0, "{totals:?}");
    assert!(
        shard
            .metadata
            .get("evaluation")
            .unwrap()
            .starts_with("nnue ")
    );
    for game in &shard.games {
        assert!((8..=9).contains(&game.opening.len()));
        // Whatever the start (normal chess or double Fischer random), 8-9 random plies.
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
    assert_eq!(without_totals(&a), without_totals(&b));
    assert_eq!(read_shard(&b).unwrap().games, shard.games);
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
    // The run's positions per CPU-second, the share of double Fischer random starts and the
    // adjudication rules, as the last three columns.
    let fields: Vec<&str> = line.split('\t').collect();
    assert_eq!(fields.len(), 13, "{line}");
    assert_eq!(fields[10], totals.get("positions_per_cpu_second").unwrap());
    assert_eq!(fields[11], format!("{}%", datagen::DEFAULT_DFRC_PERCENT));
    assert_eq!(fields[12], shard.metadata.get("adjudication").unwrap());
    // The shard in the corpus keeps them in its header too, and no run-totals block.
    let packed = read_shard(&folder.join("shard-0001.iwc")).unwrap();
    assert_eq!(packed.totals, None);
    assert_eq!(
        packed.metadata.get("positions_per_cpu_second"),
        Some(fields[10])
    );
    assert_eq!(packed.metadata.get("run_games"), Some("3"));
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
    // Shards are checked in parallel; their problems still come in the manifest's order.
    std::fs::write(folder.join("shard-0002.iwc"), b"").unwrap();
    let (code, _, stderr) = corpus(&["--threads", "2", "verify", "--dir", &folder_arg]);
    assert_eq!(code, 1);
    let first = stderr.find("shard-0001.iwc").expect(&stderr);
    let second = stderr.find("shard-0002.iwc: 0 bytes").expect(&stderr);
    assert!(first < second, "{stderr}");
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
    // before it and says what it left out. (Run-totals blocks after that game go with it.)
    let bytes = std::fs::read(&out).unwrap();
    let (_, start) = read_header(&out, &bytes).unwrap();
    let last_game_block = blocks(&out, &bytes, start)
        .map(|b| b.unwrap())
        .filter(|b| b.games > 0)
        .last()
        .unwrap();
    let cut = dir.join("cut.iwc");
    std::fs::write(&cut, &bytes[..last_game_block.offset + 13]).unwrap();
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

#[test]
fn double_fischer_random_starts_are_legal_varied_and_reproducible() {
    let dir = common::scratch_dir("datagen-dfrc");
    let (a, b) = (dir.join("a.iwc"), dir.join("b.iwc"));
    let args = [
        "--games",
        "4",
        "--nodes",
        "500",
        "--seed",
        "7",
        "--dfrc-share",
        "100",
        "--adjudication",
        "off",
    ];
    let (code, stderr) = datagen(&a, &args);
    assert_eq!(code, 0, "{stderr}");
    let shard = read_shard(&a).unwrap();
    assert_eq!(shard.metadata.get("dfrc_share"), Some("100%"));
    assert!(
        shard
            .metadata
            .get("openings")
            .unwrap()
            .contains("100% of the games instead double Fischer random starts"),
        "{:?}",
        shard.metadata
    );
    assert_eq!(
        shard.metadata.get("adjudication"),
        Some("off (a mate score still ends a game)")
    );
    let mut back_ranks = std::collections::BTreeSet::new();
    for game in &shard.games {
        // Not the normal start; the record says Chess960, and the start's FEN reads back as
        // the same position in Chess960 mode: pawns on their ranks, each side's king between
        // its two rooks with both castling rights, bishops on both colours.
        assert_ne!(game.start, Position::startpos());
        assert!(game.chess960);
        let fen = game.start.to_fen();
        assert!(fen.ends_with(" w KQkq - 0 1"), "{fen}");
        assert_eq!(
            Position::from_fen_in(&fen, CastlingMode::Chess960).unwrap(),
            game.start
        );
        let ranks: Vec<&str> = fen.split(' ').next().unwrap().split('/').collect();
        assert_eq!((ranks[1], ranks[6]), ("pppppppp", "PPPPPPPP"), "{fen}");
        for rank in [ranks[0].to_ascii_uppercase(), ranks[7].to_string()] {
            let king = rank.find('K').unwrap();
            assert!(
                rank.find('R').unwrap() < king && king < rank.rfind('R').unwrap(),
                "{fen}"
            );
            let bishops: Vec<usize> = rank.match_indices('B').map(|(i, _)| i).collect();
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{fen}");
            back_ranks.insert(rank);
        }
        assert!((8..=9).contains(&game.opening.len()));
        assert!(!game.scored.is_empty());
    }
    assert!(back_ranks.len() >= 4, "{back_ranks:?}");

    // The same seed, the same games; and `corpus add` takes them.
    let (code, stderr) = datagen(&b, &args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(read_shard(&b).unwrap().games, shard.games);
    let folder = dir.join("corpus");
    let folder_arg = folder.display().to_string();
    let (code, _, stderr) = corpus(&["add", &a.display().to_string(), "--dir", &folder_arg]);
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, stderr) = corpus(&["verify", "--dir", &folder_arg]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("1 shards, 4 games"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn old_manifest_lines_and_old_outputs_stay_valid_beside_new_ones() {
    // The committed corpus's first shard and its ten-field manifest line, from before the
    // last three columns; then a new run added after it.
    let dir = common::scratch_dir("datagen-old-lines");
    let folder = dir.join("corpus");
    std::fs::create_dir_all(&folder).unwrap();
    let manifest = std::fs::read_to_string("corpus/MANIFEST").unwrap();
    let old_line = manifest
        .lines()
        .find(|l| l.starts_with("shard-0001.iwc\t"))
        .unwrap();
    assert_eq!(old_line.split('\t').count(), 10);
    std::fs::copy("corpus/shard-0001.iwc", folder.join("shard-0001.iwc")).unwrap();
    std::fs::write(
        folder.join("MANIFEST"),
        format!("{}\n{old_line}\n", manifest.lines().next().unwrap()),
    )
    .unwrap();
    // An output as builds before this one wrote it: the committed shard itself (no
    // run-totals block, no adjudication or share in its header).
    let new = dir.join("new.iwc");
    let (code, stderr) = datagen(&new, &["--games", "1", "--nodes", "500", "--seed", "3"]);
    assert_eq!(code, 0, "{stderr}");
    let folder_arg = folder.display().to_string();
    let (code, _, stderr) = corpus(&[
        "add",
        "corpus/shard-0002.iwc",
        &new.display().to_string(),
        "--dir",
        &folder_arg,
    ]);
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, stderr) = corpus(&["verify", "--dir", &folder_arg]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("3 shards"), "{stdout}");
    let lines: Vec<String> = std::fs::read_to_string(folder.join("MANIFEST"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines[1], old_line);
    let old_output: Vec<&str> = lines[2].split('\t').collect();
    assert_eq!(old_output.len(), 13);
    assert_eq!(&old_output[10..], ["-", "-", "-"]);
    let new_output: Vec<&str> = lines[3].split('\t').collect();
    assert_eq!(
        new_output[11],
        format!("{}%", datagen::DEFAULT_DFRC_PERCENT)
    );
    assert!(new_output[12].starts_with("win: "), "{}", lines[3]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_datagen_values_are_refused_with_status_2() {
    for (args, says) in [
        (
            &["--dfrc-share", "101"][..],
            "must be a whole number from 0 to 100",
        ),
        (&["--dfrc-share", "-5"], "--dfrc-share"),
        (&["--dfrc-share", "ten"], "--dfrc-share"),
        (
            &["--adjudication", "on"],
            "`on` is not `off` or five numbers",
        ),
        (&["--adjudication", "1000,4,10,8"], "--adjudication"),
        (
            &["--adjudication", "50,4,10,8,80"],
            "WIN_CP must be a whole number from 100",
        ),
        (&["--adjudication", "1000,4,10,0,80"], "DRAW_PLIES"),
    ] {
        let (code, _, stderr) =
            common::run_ironwood(&[&["datagen", "--out", "never-written.iwc"], args].concat());
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    assert!(!Path::new("never-written.iwc").exists());
}
