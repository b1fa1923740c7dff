//! `ironwood spsa` through the real binary: a short run is reproducible, a stopped or killed
//! run resumes (a stopped one to the same state as a straight run), mistakes are errors, its
//! games make a corpus shard; and the schedule and the update's direction via the library.

use crate::common;

use ironwood::search::params::find_param;
use ironwood::tools::corpus::format::read_shard;
use ironwood::tools::spsa::schedule::Schedule;
use ironwood::tools::spsa::state::State;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SHORT_RUN: [&str; 8] = [
    "--pairs",
    "4",
    "--nodes",
    "300",
    "--seed",
    "7",
    "--params",
    "RfpMargin,LmrBase",
];

/// `ironwood --threads 1 spsa --state STATE ARGS`: (exit code, stdout, stderr).
fn spsa(state: &Path, args: &[&str]) -> (i32, String, String) {
    let state = state.display().to_string();
    common::run_ironwood(&[&["--threads", "1", "spsa", "--state", &state], args].concat())
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn a_short_run_with_a_seed_writes_the_same_state_twice_with_theta_in_range() {
    let dir = common::scratch_dir("spsa-short");
    let (a, b) = (dir.join("a.tsv"), dir.join("b.tsv"));
    let (code, stdout, stderr) = spsa(&a, &SHORT_RUN);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("iteration 4 of 4"), "{stderr}");
    assert!(stderr.contains("pairs/min"), "{stderr}");
    let (code, _, stderr) = spsa(&b, &SHORT_RUN);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(read(&a), read(&b));

    let state = State::load(&a).unwrap().unwrap();
    assert_eq!(state.iteration, 4);
    assert_eq!(
        state.plus_results.iter().sum::<u64>(),
        8,
        "two games a pair"
    );
    let names: Vec<&str> = state.settings.params.iter().map(|p| p.name).collect();
    assert_eq!(names, ["RfpMargin", "LmrBase"]);
    for (param, &theta) in state.settings.params.iter().zip(&state.theta) {
        assert!(
            (f64::from(param.min)..=f64::from(param.max)).contains(&theta),
            "{} {theta}",
            param.name
        );
        // The tuned value, rounded, as a `name value` line and an OpenBench input line.
        let value = theta.round() as i32;
        assert!(
            stdout.contains(&format!("\n{} {value}\n", param.name))
                || stdout.starts_with(&format!("{} {value}\n", param.name)),
            "{stdout}"
        );
        let input = format!(
            "{}, int, {value}, {}, {}, {}, 0.002",
            param.name, param.min, param.max, param.step
        );
        assert!(stdout.contains(&input), "{stdout}");
    }
    // Not a constant it was not asked to tune.
    assert!(!stdout.contains("NmpMinDepth"), "{stdout}");

    // Another seed, other games: the results or theta differ.
    let c = dir.join("c.tsv");
    let mut other = SHORT_RUN;
    other[5] = "8";
    let (code, _, stderr) = spsa(&c, &other);
    assert_eq!(code, 0, "{stderr}");
    assert_ne!(read(&a).replace("seed\t7", "seed\t8"), read(&c));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_stopped_after_two_pairs_and_resumed_equals_a_straight_run() {
    let dir = common::scratch_dir("spsa-resume");
    let (straight, resumed) = (dir.join("straight.tsv"), dir.join("resumed.tsv"));
    let (code, _, stderr) = spsa(&straight, &SHORT_RUN);
    assert_eq!(code, 0, "{stderr}");

    let first_part = [&SHORT_RUN[..], &["--stop-after", "2"]].concat();
    let (code, _, stderr) = spsa(&resumed, &first_part);
    assert_eq!(code, 0, "{stderr}");
    let halfway = State::load(&resumed).unwrap().unwrap();
    assert_eq!(halfway.iteration, 2);
    assert_ne!(read(&resumed), read(&straight));
    // The settings given again, or left to the file.
    let (code, _, stderr) = spsa(&resumed, &[&SHORT_RUN[..], &["--stop-after", "1"]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("iteration 2 of 4"), "{stderr}");
    let (code, _, stderr) = spsa(&resumed, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(read(&resumed), read(&straight));
    // A finished run plays nothing more and prints its result again.
    let (code, stdout, stderr) = spsa(&resumed, &SHORT_RUN);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("RfpMargin, int, "), "{stdout}");
    assert_eq!(read(&resumed), read(&straight));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mistakes_are_errors_naming_them_not_panics() {
    let dir = common::scratch_dir("spsa-mistakes");
    let state = dir.join("s.tsv");
    let (code, _, stderr) = spsa(&state, &["--params", "RfpMargin,Bogus"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown constant `Bogus`"), "{stderr}");
    assert!(!state.exists());

    let started = [&SHORT_RUN[..], &["--stop-after", "1"]].concat();
    let (code, _, stderr) = spsa(&state, &started);
    assert_eq!(code, 0, "{stderr}");
    let before = read(&state);
    for (args, says) in [
        (&["--pairs", "5"][..], "--pairs 4, not 5"),
        (&["--params", "RfpMargin"][..], "--params RfpMargin,LmrBase"),
        (
            &["--params", "LmrBase,RfpMargin"][..],
            "--params RfpMargin,LmrBase",
        ),
        (&["--nodes", "301"][..], "--nodes 300, not 301"),
        (&["--seed", "8"][..], "--seed 7, not 8"),
    ] {
        let (code, _, stderr) = spsa(&state, args);
        assert_eq!(code, 1, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert_eq!(read(&state), before, "{args:?} changed the state");
    }

    let text = before.clone();
    for (broken, says) in [
        ("garbage\n".to_string(), "not an SPSA state file"),
        (
            text.lines().take(10).collect::<Vec<_>>().join("\n"),
            "ends before the line of LmrBase",
        ),
        (
            text.replace("pairs\t4", "pairs\tfour"),
            "`four` is not a whole number",
        ),
        (
            text.replace("iteration\t1", "iteration\t5"),
            "iteration 5 of 4",
        ),
        (
            text.replace("RfpMargin\t", "RfpMargin\t900"),
            "outside 20..200",
        ),
        (text.replace("LmrBase\t", "LmrBase\tx"), "is not a number"),
        (text.replace("\t200\t8\n", "\t199\t8\n"), "not the engine's"),
        (
            text.replace(",LmrBase", ",Bogus"),
            "unknown constant `Bogus`",
        ),
        (format!("{text}extra\n"), "unexpected `extra`"),
    ] {
        let file = dir.join("broken.tsv");
        std::fs::write(&file, &broken).unwrap();
        let (code, _, stderr) = spsa(&file, &[]);
        assert_eq!(code, 1, "{says}: {stderr}");
        assert!(stderr.contains(says), "{says}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_run_keeps_its_finished_pairs_and_resumes() {
    let dir = common::scratch_dir("spsa-killed");
    let state = dir.join("s.tsv");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ironwood"))
        .args([
            "--threads",
            "2",
            "spsa",
            "--pairs",
            "1000",
            "--nodes",
            "300",
            "--state",
        ])
        .arg(&state)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start ironwood spsa");
    let started = Instant::now();
    let mut done = 0;
    while started.elapsed() < Duration::from_secs(120) && done < 3 {
        std::thread::sleep(Duration::from_millis(20));
        // The file is replaced whole, so every read is a whole state.
        done = State::load(&state).unwrap().map_or(0, |s| s.iteration);
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(done >= 3, "three pairs not played in two minutes");
    let killed = State::load(&state).unwrap().unwrap();
    assert!(killed.iteration >= done);
    let (code, _, stderr) = spsa(&state, &["--stop-after", "1"]);
    assert_eq!(code, 0, "{stderr}");
    let resumed = State::load(&state).unwrap().unwrap();
    assert_eq!(resumed.iteration, killed.iteration + 1);
    assert_eq!(resumed.settings.seed, killed.settings.seed);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_games_make_a_shard_that_the_corpus_takes() {
    let dir = common::scratch_dir("spsa-out");
    let (state, out) = (dir.join("s.tsv"), dir.join("games.iwc"));
    let out_arg = out.display().to_string();
    let args = [&SHORT_RUN[..], &["--pairs", "3", "--out", &out_arg]].concat();
    let (code, _, stderr) = spsa(&state, &args);
    assert_eq!(code, 0, "{stderr}");
    let shard = read_shard(&out).unwrap();
    assert_eq!(shard.games.len(), 6, "two games a pair");
    assert_eq!(shard.metadata.get("seed"), Some("7"));
    assert_eq!(shard.metadata.get("nodes"), Some("300"));
    assert!(
        shard.metadata.get("generator").unwrap().ends_with(" spsa"),
        "{:?}",
        shard.metadata
    );
    assert!(
        shard
            .metadata
            .get("spsa")
            .unwrap()
            .contains("RfpMargin,LmrBase")
    );
    // A pair's games start from the same position.
    for pair in shard.games.chunks(2) {
        assert_eq!(
            (&pair[0].start, &pair[0].opening),
            (&pair[1].start, &pair[1].opening)
        );
        assert!(!pair[0].scored.is_empty());
    }
    let folder = dir.join("corpus").display().to_string();
    let (code, stdout, stderr) =
        common::run_ironwood(&["corpus", "add", &out_arg, "--dir", &folder]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("shard-0001.iwc: 6 games"), "{stdout}");
    let (code, stdout, stderr) = common::run_ironwood(&["corpus", "verify", "--dir", &folder]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("1 shards, 6 games"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_schedule_is_openbenchs() {
    // RfpMargin: c_end 8 over 5000 pairs. By hand: c = 8 * 5000^0.101 = 18.90976,
    // a_end = 0.002 * 64 = 0.128, A = 500, a = 0.128 * 5500^0.602 = 22.85116.
    let param = find_param("RfpMargin").unwrap();
    let schedule = Schedule::of(param, 5000);
    let close = |x: f64, y: f64| (x - y).abs() < 1e-6 * y.abs().max(1.0);
    for (k, c_k, a_k) in [
        (1, 18.909757, 0.5415094),
        (2, 17.631202, 0.5408598),
        (2500, 8.580133, 0.1843662),
        (5000, 8.0, 0.128),
    ] {
        assert!(close(schedule.c_k(k), c_k), "c_{k} {}", schedule.c_k(k));
        assert!(close(schedule.a_k(k), a_k), "a_{k} {}", schedule.a_k(k));
    }
    // The engines' values: theta moved by c_k each way, kept in range, rounded.
    assert_eq!(schedule.perturbed(param, 80.0, 1, 1), 99);
    assert_eq!(schedule.perturbed(param, 80.0, 1, -1), 61);
    assert_eq!(schedule.perturbed(param, 195.0, 1, 1), 200);
    assert_eq!(schedule.perturbed(param, 25.0, 1, -1), 20);
}

#[test]
fn a_plus_engine_win_moves_theta_towards_the_plus_engine() {
    let param = find_param("LmrBase").unwrap();
    let schedule = Schedule::of(param, 100);
    let theta = 75.0;
    let step = schedule.a_k(10) / schedule.c_k(10);
    // delta +1: the plus engine played theta + c_k, so its win raises theta, by a_k / c_k
    // a point.
    let up = schedule.updated(param, theta, 10, 1, 1);
    assert!((up - (theta + step)).abs() < 1e-9, "{up}");
    assert!((schedule.updated(param, theta, 10, 1, 2) - (theta + 2.0 * step)).abs() < 1e-9);
    // delta -1: the plus engine played theta - c_k, so its win lowers theta.
    assert!(schedule.updated(param, theta, 10, -1, 1) < theta);
    assert!(schedule.updated(param, theta, 10, 1, -1) < theta);
    assert_eq!(schedule.updated(param, theta, 10, 1, 0), theta);
    // Never out of range.
    assert_eq!(schedule.updated(param, 200.0, 1, 1, 2), 200.0);
    assert_eq!(schedule.updated(param, 0.0, 1, 1, -2), 0.0);
}
