//! `ironwood train` through the real binary: a short run on a few self-play games writes a
//! network per epoch that the engine loads, the same seed gives the same file whatever the
//! thread count, and the engine plays with the result; a run of the other shape (8 output
//! buckets, squared clipped ReLU, cosine schedule) writes a version 2 file the engine plays
//! with too, the same bytes with the portable code as with AVX2, and one with mirrored inputs a version 3 file, without doubling the positions
//! `--flip-files` would add; a 256-wide run writes its width and the engine plays with it.

use crate::common;

use common::Engine;
use ironwood::board::Position;
use ironwood::nnue::{Activation, InputTransform, Network};
use ironwood::tools::train::network::king_bucket_layout;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn train(data: &Path, out: &Path, threads: &str, seed: &str) -> String {
    let (code, _, stderr) = common::run_ironwood(&[
        "--threads",
        threads,
        "train",
        "--data",
        &data.display().to_string(),
        "--out",
        &out.display().to_string(),
        "--epochs",
        "3",
        "--batch",
        "128",
        "--lr",
        "0.01",
        "--holdout",
        "0.3",
        "--seed",
        seed,
    ]);
    assert_eq!(code, 0, "{stderr}");
    stderr
}

/// The loss the line of `epoch` of a run of `epochs` reports after `label`.
fn epoch_loss(stderr: &str, epoch: usize, epochs: usize, label: &str) -> f64 {
    let line = stderr
        .lines()
        .find(|l| l.starts_with(&format!("train: epoch {epoch}/{epochs}:")))
        .unwrap_or_else(|| panic!("no epoch {epoch} line in {stderr}"));
    line.split(label)
        .nth(1)
        .unwrap()
        .split([',', ' '])
        .find(|s| !s.is_empty())
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn a_short_run_writes_loadable_reproducible_networks() {
    let dir = common::scratch_dir("train");
    let data = dir.join("games.iwc");
    self_play(&data, "6", "5");

    let out = dir.join("net.nnue");
    let stderr = train(&data, &out, "2", "4");
    assert!(stderr.contains("held out"), "{stderr}");
    assert!(
        stderr.contains("the hand-written evaluation's validation loss"),
        "{stderr}"
    );
    // Each epoch says its rate, in all and per thread.
    let rates = stderr
        .lines()
        .filter(|l| l.contains(" positions/s (") && l.contains(" a thread); checkpoint"))
        .count();
    assert_eq!(rates, 3, "{stderr}");
    for epoch in 1..=3 {
        let checkpoint = dir.join(format!("net.epoch{epoch}.nnue"));
        Network::load(&checkpoint).unwrap_or_else(|e| panic!("{}: {e}", checkpoint.display()));
        assert!(epoch_loss(&stderr, epoch, 3, "validation loss ").is_finite());
    }
    assert!(
        epoch_loss(&stderr, 3, 3, "train loss ") < epoch_loss(&stderr, 1, 3, "train loss "),
        "{stderr}"
    );
    let net = Network::load(&out).unwrap();
    assert_ne!(net, *Network::embedded());

    // Same seed, one thread: the same bytes. Another seed: another network.
    let again = dir.join("again.nnue");
    train(&data, &again, "1", "4");
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&again).unwrap());
    let other = dir.join("other.nnue");
    train(&data, &other, "2", "5");
    assert_ne!(std::fs::read(&out).unwrap(), std::fs::read(&other).unwrap());

    // The engine searches with it.
    let (code, stdout, stderr) = common::run_ironwood(&[
        "--evaluation",
        "nnue",
        "--eval-file",
        &out.display().to_string(),
        "bench",
        "2",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.lines().last().unwrap().ends_with(" nps"), "{stdout}");

    // And plays its own games with it: the next round's data.
    let next = dir.join("next.iwc");
    let (code, _, stderr) = common::run_ironwood(&[
        "--evaluation",
        "nnue",
        "--eval-file",
        &out.display().to_string(),
        "--threads",
        "1",
        "datagen",
        "--out",
        &next.display().to_string(),
        "--games",
        "2",
        "--nodes",
        "600",
        "--seed",
        "5",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let games = ironwood::tools::corpus::format::read_shard(&next)
        .unwrap()
        .games;
    assert!(!games.is_empty());
    let first = ironwood::tools::corpus::format::read_shard(&data)
        .unwrap()
        .games;
    assert_ne!(
        games[0].scored[..3],
        first[0].scored[..3],
        "the new network played the first games"
    );

    // Usage mistakes are refused before any work.
    let (code, _, stderr) = common::run_ironwood(&["train", "--data", &data.display().to_string()]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("required arguments were not provided") && stderr.contains("--out"),
        "{stderr}"
    );
    let (code, _, stderr) = common::run_ironwood(&[
        "train",
        "--data",
        &out.display().to_string(),
        "--out",
        &dir.join("x.nnue").display().to_string(),
    ]);
    assert_eq!(code, 1);
    assert!(stderr.contains("not an Ironwood corpus shard"), "{stderr}");
}

/// One quick epoch on the committed shard 0002 with the shape `options`, on two threads:
/// the network written and the run's log. Fails the test if the run fails.
fn train_one_epoch_on_shard_2(scratch: &str, options: &[&str]) -> (PathBuf, String) {
    train_one_epoch_on_shard_2_with(scratch, options, &[])
}

/// `train_one_epoch_on_shard_2` with these environment variables set.
fn train_one_epoch_on_shard_2_with(
    scratch: &str,
    options: &[&str],
    vars: &[(&str, &str)],
) -> (PathBuf, String) {
    let out = common::scratch_dir(scratch).join("net.nnue");
    let shard = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/shard-0002.iwc");
    let (shard_arg, out_arg) = (shard.display().to_string(), out.display().to_string());
    let mut args = vec![
        "--threads",
        "2",
        "train",
        "--data",
        &shard_arg,
        "--out",
        &out_arg,
    ];
    args.extend_from_slice(options);
    args.extend_from_slice(&["--epochs", "1", "--batch", "4096", "--lr", "0.005"]);
    let (code, _, stderr) = common::run_ironwood_with_env(&args, vars);
    assert_eq!(code, 0, "{stderr}");
    (out, stderr)
}

#[test]
fn a_bucketed_squared_relu_run_with_a_cosine_schedule_writes_a_network_the_engine_plays() {
    let shape = [
        "--output-buckets",
        "8",
        "--activation",
        "screlu",
        "--lr-schedule",
        "cosine",
    ];
    let (out, stderr) = train_one_epoch_on_shard_2("train-v2", &shape);
    assert!(
        stderr.contains("-> 1 network (8 output buckets, screlu, plain inputs)")
            && stderr.contains("to 0.000001 (cosine)"),
        "{stderr}"
    );
    // The cosine schedule ends its one epoch at --lr-end's default.
    assert!(stderr.contains("lr 1.000e-6"), "{stderr}");
    assert!(epoch_loss(&stderr, 1, 1, "validation loss ").is_finite());

    let net = Network::load(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    assert_eq!(net.output_buckets(), 8);
    assert_eq!(net.activation(), Activation::SquaredClippedRelu);
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 2);

    // The portable code writes the same bytes as the vector code the CPU may have.
    let (portable, _) = train_one_epoch_on_shard_2_with(
        "train-v2-portable",
        &shape,
        &[(ironwood::nnue::simd::SIMD_ENV_VAR, "scalar")],
    );
    assert!(std::fs::read(&portable).unwrap() == bytes);

    // The engine loads it and searches to a legal move.
    searches_to_a_legal_move_with(&out, 4);
}

/// A UCI session on the network `net` searches an opening position to `depth` and plays a
/// legal move.
fn searches_to_a_legal_move_with(net: &Path, depth: u32) {
    let log_dir = common::scratch_dir("logs");
    let mut engine = Engine::start_with(
        &[
            "--protocol".to_string(),
            "uci".to_string(),
            "--eval-file".to_string(),
            net.display().to_string(),
            "--log-dir".to_string(),
            log_dir.display().to_string(),
        ],
        log_dir,
    );
    engine.send("uci");
    engine.until("uciok", Duration::from_secs(30), |l| l == "uciok");
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    engine.send(&format!("position fen {fen}"));
    engine.send(&format!("go depth {depth}"));
    let lines = engine.until("bestmove", Duration::from_secs(60), |l| {
        l.starts_with("bestmove")
    });
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    let pos = Position::from_fen(fen).unwrap();
    assert!(
        common::legal(&pos).iter().any(|m| m.to_string() == best),
        "{best} in {lines:?}"
    );
    let reached = format!("info depth {depth} ");
    assert!(lines.iter().any(|l| l.starts_with(&reached)), "{lines:?}");
}

/// `games` games of two-thread datagen at 600 nodes a move, seeded by `seed`, into `data`.
fn self_play(data: &Path, games: &str, seed: &str) {
    let data = data.display().to_string();
    let (code, _, stderr) = common::run_ironwood(&[
        "--threads",
        "2",
        "datagen",
        "--out",
        &data,
        "--games",
        games,
        "--nodes",
        "600",
        "--seed",
        seed,
    ]);
    assert_eq!(code, 0, "{stderr}");
}

/// The number after `before` and before the next space in `text`.
fn number_after(text: &str, before: &str) -> usize {
    text.split(before)
        .nth(1)
        .unwrap_or_else(|| panic!("no `{before}` in {text}"))
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn a_run_with_mirrored_inputs_writes_a_version_3_network_without_flipping_files() {
    let (out, stderr) =
        train_one_epoch_on_shard_2("train-mirrored", &["--mirror-inputs", "--flip-files"]);
    assert!(
        stderr.contains("-> 1 network (1 output buckets, crelu, inputs mirrored by king file)")
            && stderr.contains("--flip-files ignored"),
        "{stderr}"
    );
    // Every position read is trained on or held out once: none was doubled.
    let first = stderr
        .lines()
        .find(|l| l.starts_with("train: ") && l.contains(" held out;"))
        .unwrap_or_else(|| panic!("no counts in {stderr}"));
    let read = number_after(first, "train: ");
    let (trained, held) = (
        number_after(first, "games): "),
        number_after(first, "for training, "),
    );
    assert_eq!(trained + held, read, "{first}");
    assert!(epoch_loss(&stderr, 1, 1, "validation loss ").is_finite());

    let net = Network::load(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    assert_eq!(net.input_transform(), InputTransform::MirroredByKingFile);
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 3);
    // It scores a position and its a-h mirror alike (no castling rights: the one rule the
    // mirror breaks), and says something.
    let pos = Position::from_fen("r5k1/1p3ppp/p1n5/3p4/3P4/P1N1B3/1P3PPP/5RK1 w - - 0 1").unwrap();
    let mirror =
        Position::from_fen("1k5r/ppp3p1/5n1p/4p3/4P3/3B1N1P/PPP3P1/1KR5 w - - 0 1").unwrap();
    assert_eq!(net.evaluate(&pos), net.evaluate(&mirror));
    assert_ne!(net.evaluate(&pos), 0);

    // The engine searches with it.
    let (code, stdout, stderr) =
        common::run_ironwood(&["--eval-file", &out.display().to_string(), "bench", "2"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.lines().last().unwrap().ends_with(" nps"), "{stdout}");
}

#[test]
fn a_run_with_king_buckets_writes_a_version_4_network_the_engine_plays_with() {
    let (out, stderr) = train_one_epoch_on_shard_2(
        "train-king-buckets",
        &[
            "--mirror-inputs",
            "--king-buckets",
            "4",
            "--output-buckets",
            "8",
            "--activation",
            "screlu",
        ],
    );
    assert!(
        stderr.contains(
            "-> 1 network (8 output buckets, screlu, inputs mirrored by king file, 4 king buckets)"
        ),
        "{stderr}"
    );
    assert!(epoch_loss(&stderr, 1, 1, "validation loss ").is_finite());
    let net = Network::load(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    assert_eq!(net.king_buckets(), king_bucket_layout(4).unwrap());
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 4);
    assert_eq!(
        bytes.len(),
        ironwood::nnue::file::header_size(4) + ironwood::nnue::file::payload_size(4, 128, 8)
    );
    // A position and its a-h mirror score alike (the layout is a-h symmetric).
    let castled = Position::from_fen("r4rk1/5ppp/8/8/8/8/5PPP/R4RK1 w - - 0 1").unwrap();
    let mirror = Position::from_fen("1kr4r/ppp5/8/8/8/8/PPP5/1KR4R w - - 0 1").unwrap();
    assert_eq!(net.evaluate(&castled), net.evaluate(&mirror));
    assert_ne!(net.evaluate(&castled), 0);
    searches_to_a_legal_move_with(&out, 5);

    // Layouts there are not: a usage mistake, before any work.
    let (code, _, stderr) =
        common::run_ironwood(&["train", "--data", "x", "--out", "y", "--king-buckets", "3"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("must be one of [1, 2, 4]"), "{stderr}");
}

#[test]
fn a_factorised_run_writes_plain_king_buckets_the_engine_plays_with() {
    let (out, stderr) =
        train_one_epoch_on_shard_2("train-factorised", &["--king-buckets", "2", "--factorise"]);
    assert!(
        stderr.contains(
            "-> 1 network (1 output buckets, crelu, plain inputs, 2 king buckets, factorised)"
        ),
        "{stderr}"
    );
    let validation = epoch_loss(&stderr, 1, 1, "validation loss ");
    assert!(validation.is_finite() && validation < 0.2, "{stderr}");
    // The shared set is merged into each bucket: the file is an ordinary version 4 one.
    let net = Network::load(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    assert_eq!(net.king_buckets(), king_bucket_layout(2).unwrap());
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(
        bytes.len(),
        ironwood::nnue::file::header_size(4) + ironwood::nnue::file::payload_size(2, 128, 1)
    );
    searches_to_a_legal_move_with(&out, 5);

    // Without king buckets there is nothing to factorise: refused before any work.
    let (code, _, stderr) =
        common::run_ironwood(&["train", "--data", "x", "--out", "y", "--factorise"]);
    assert_ne!(code, 0);
    assert!(
        stderr.contains("a factoriser needs king buckets"),
        "{stderr}"
    );
}

#[test]
fn a_run_at_width_256_writes_its_width_and_the_engine_plays_with_it() {
    let dir = common::scratch_dir("train-wide");
    let data = dir.join("games.iwc");
    self_play(&data, "4", "7");
    let out = dir.join("wide.nnue");
    let (code, _, stderr) = common::run_ironwood(&[
        "--threads",
        "2",
        "train",
        "--data",
        &data.display().to_string(),
        "--out",
        &out.display().to_string(),
        "--hidden",
        "256",
        "--output-buckets",
        "8",
        "--activation",
        "screlu",
        "--epochs",
        "2",
        "--batch",
        "128",
        "--lr",
        "0.01",
        "--holdout",
        "0.3",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("; 256x2 -> 1 network (8 output buckets"),
        "{stderr}"
    );
    let read = number_after(&stderr, "train: ");
    assert!(read >= 200, "{read} positions: {stderr}");
    let net = Network::load(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    assert_eq!(net.hidden(), 256);
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(u32::from_le_bytes(bytes[16..20].try_into().unwrap()), 256);
    assert_eq!(
        bytes.len(),
        ironwood::nnue::file::HEADER_SIZE + ironwood::nnue::file::payload_size(1, 256, 8)
    );

    // The engine searches with it: bench, and a UCI search to a legal move.
    let (code, stdout, stderr) =
        common::run_ironwood(&["--eval-file", &out.display().to_string(), "bench", "2"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.lines().last().unwrap().ends_with(" nps"), "{stdout}");
    searches_to_a_legal_move_with(&out, 5);

    // A width the engine does not run is refused before any work.
    let (code, _, stderr) = common::run_ironwood(&[
        "train",
        "--data",
        &data.display().to_string(),
        "--out",
        &dir.join("odd.nnue").display().to_string(),
        "--hidden",
        "100",
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("--hidden") && stderr.contains("must be a multiple of 32 from 32 to 1024"),
        "{stderr}"
    );
}

/// `ironwood loss` on `shard` at `lambda` with `extra` arguments and `threads`: exit status,
/// stdout, stderr.
fn loss(threads: &str, extra: &[&str]) -> (i32, String, String) {
    let shard = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/shard-0002.iwc");
    let shard = shard.display().to_string();
    let mut args = vec!["--threads", threads, "loss", "--data", &shard];
    args.extend_from_slice(extra);
    common::run_ironwood(&args)
}

/// The loss `ironwood loss` printed for the evaluation whose line starts with `name`.
fn loss_of(stdout: &str, name: &str) -> f64 {
    let line = stdout
        .lines()
        .find(|l| l.starts_with(name))
        .unwrap_or_else(|| panic!("no `{name}` line in {stdout}"));
    line.split_whitespace().last().unwrap().parse().unwrap()
}

#[test]
fn loss_scores_each_evaluation_alike_on_any_thread_count_and_refuses_what_it_cannot_read() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let embedded_file = root.join("src/nnue/default.nnue").display().to_string();
    let gen0 = root.join("tests/data/gen0-run6.nnue").display().to_string();
    let nets = ["--net", &gen0, "--net", &embedded_file, "--lambda", "1"];
    let (code, stdout, stderr) = loss("2", &nets);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.lines().count(), 5, "{stdout}");
    assert!(
        stdout.starts_with("53928 positions of 581 games, lambda 1\n"),
        "{stdout}"
    );
    // The embedded network's file scores as the embedded network; every loss is a mean
    // squared error of probabilities, and the newest network predicts the results best.
    let embedded = loss_of(&stdout, "embedded (nnue ");
    assert_eq!(loss_of(&stdout, &embedded_file), embedded);
    for name in ["hand-written", &gen0] {
        let other = loss_of(&stdout, name);
        assert!(embedded < other && other < 0.25, "{stdout}");
    }
    // The same figures on one thread; another target, other figures.
    assert_eq!(loss("1", &nets).1, stdout);
    let (_, by_score, _) = loss("2", &["--net", &gen0, "--lambda", "0"]);
    assert!(
        loss_of(&by_score, "embedded (nnue ") < embedded / 2.0,
        "{by_score}"
    );

    // A network that cannot be read, a filter that keeps nothing: refused, nothing printed.
    let (code, stdout, stderr) = loss("2", &["--net", "no-such.nnue"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(
        stderr.contains("no-such.nnue: cannot read the network"),
        "{stderr}"
    );
    let (code, stdout, stderr) = loss("2", &["--starts", "chess960"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(stderr.contains("no positions to score"), "{stderr}");
}
