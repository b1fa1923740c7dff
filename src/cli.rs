//! The command line, parsed by hand: global options anywhere, then at most one subcommand
//! with its own arguments. Never panics; every mistake is a `CliError` (exit status 2).

use std::fmt;
use std::path::PathBuf;

use crate::corpus::filter::Filter;
use crate::engine::options::MAX_MOVE_OVERHEAD_MS;
use crate::limits::{MAX_CLOCK_MS, MAX_HASH_MB, MAX_THREADS};
use crate::logging::{LOG_LEVEL_NAMES, LogLevel, MAX_LOG_MB, MB, MIN_FILE_BYTES};
use crate::search::SearchDriver;

pub const USAGE: &str = "\
Usage: ironwood [OPTIONS] [SUBCOMMAND]

Without a subcommand Ironwood plays on stdin and stdout: UCI when the first command is
`uci`, otherwise the XBoard/WinBoard protocol (CECP v2); start it from a GUI, e.g.
`xboard -fcp ironwood`, or as a UCI engine.

Subcommands:
  perft DEPTH [FEN]                 perft divide of FEN (default: the start position)
  perft --epd FILE [--max-depth D]  perft suite (`FEN ;D1 n ;D2 n ...`); exit 1 on a mismatch
  bench [DEPTH]                     fixed-depth search of the bench positions (default 11);
                                    prints `nodes N time_ms T nps X` last
  epd FILE [--ms MS]                solve an EPD suite (bm, am, dm) with MS per position
                                    (default 1000); prints `solved S of T` last
  datagen --out FILE [--games N] [--nodes N] [--seed N] [--openings EPD]
                                    self-play games for the corpus, one per thread
                                    (default: all cores), written whole to the new shard
                                    FILE; runs until killed without --games; --nodes is a
                                    soft limit (default 5000); --seed defaults to a random
                                    one, which the file records
  corpus add FILE... [--dir DIR]    pack datagen output into new shards of the corpus in
                                    DIR (default: corpus) with a MANIFEST line each
  corpus verify [--dir DIR]         check every shard: size, checksums, games, positions
  corpus stats [PATH...] [FILTER]   games, positions, positions FILTER keeps, results,
                                    endings, lengths and scores per shard and in total
                                    (PATH: shards or corpus folders; default: corpus)
  corpus convert OLD... --out FILE  the old 32-byte data files as datagen output
  FILTER (corpus stats, tune, train) picks the positions read from the games:
       [--min-ply N] [--max-score CP] [--keep-check] [--keep-tactical]
                                    defaults: every ply, |score| below mate, positions in
                                    check and before a capture or promotion left out
  tune --data FILE [--data FILE ...] --out FILE [--epochs N] [--batch N] [--lr X]
       [--lambda X] [--seed N] [--holdout F] [--l2 X] [--resolve] [--min-positions N]
                                    fit every evaluation weight to corpus shards or
                                    folders (with FILTER); writes a
                                    weights.rs (defaults: 30 epochs, batch 16384, lr 1,
                                    lambda 0.5 = half result, half search score; --holdout:
                                    the last fraction F of the positions is not trained on,
                                    and the epoch with its lowest loss is written; --l2:
                                    penalty on the distance from the current weights;
                                    --resolve: fit the end of each position's capture
                                    line, found by quiescence, instead of the position;
                                    --min-positions: weights that fire in fewer positions
                                    keep their current value)
  train --data FILE [--data FILE ...] --out FILE [--epochs N] [--batch N] [--lr X]
        [--lr-step N] [--lr-gamma X] [--lambda X] [--seed N] [--holdout F] [--flip-files]
                                    fit the NNUE network to corpus shards or folders
                                    (with FILTER); writes the
                                    network file (defaults: 20 epochs, batch 16384,
                                    lr 0.001 x 0.3 every 8 epochs, lambda 0.5, holdout
                                    0.1 of the games), a checkpoint FILE-stem.epochN.nnue
                                    after each epoch, and to FILE the epoch with the lowest
                                    validation loss; --flip-files also trains on each
                                    position mirrored a-h

Options:
  --hash MB            transposition table size (default 64)
  --threads N          search threads (default 1)
  --move-overhead MS   time kept back per move for GUI/pipe lag (default 30)
  --log-dir DIR        folder for log files (default: $IRONWOOD_LOG_DIR, else ./logs)
  --log-max-mb MB      a log file rolls over to the next number at this size (default 10)
  --log-keep-mb MB     the oldest log files are deleted beyond this total (default 100)
  --log-level LEVEL    off, error, warn, info, protocol (all but thinking lines), debug
                       (default: $RUST_LOG if set, else debug), trace
  --protocol P         speak P (uci or xboard) whatever the first command is
  --evaluation E       nnue (default) or classical: the evaluation searches use
  --eval-file FILE     the NNUE network to use instead of the embedded one
  --driver D           recursive (default) or iterative: how the search runs its nodes
  -h, --help           this text
  -V, --version        the version
";

pub const DEFAULT_HASH_MB: usize = 64;
pub const DEFAULT_EPD_MS: u64 = 1000;
/// Perft and bench depths above this are refused (perft 64 would never finish anyway).
const MAX_CLI_DEPTH: u32 = 64;

/// Options that apply to every mode.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GlobalOptions {
    pub hash_mb: Option<usize>,
    pub threads: Option<usize>,
    pub move_overhead_ms: Option<u64>,
    pub log_dir: Option<PathBuf>,
    pub log_level: Option<LogLevel>,
    pub log_max_bytes: Option<u64>,
    pub log_keep_bytes: Option<u64>,
    /// `--protocol`: `None` lets the first command decide.
    pub protocol: Option<Protocol>,
    /// `--evaluation classical`: search with the hand-written evaluation instead of the
    /// network (the default).
    pub classical: bool,
    /// `--eval-file`: a network file to load instead of the embedded one.
    pub eval_file: Option<PathBuf>,
    /// `--driver`: `None` keeps the default.
    pub driver: Option<SearchDriver>,
}

/// The protocol spoken on stdin/stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Xboard,
    Uci,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subcommand {
    Xboard,
    Help,
    Version,
    Perft {
        depth: u32,
        fen: Option<String>,
    },
    PerftSuite {
        file: PathBuf,
        max_depth: Option<u32>,
    },
    Bench {
        depth: Option<u32>,
    },
    Epd {
        file: PathBuf,
        ms: u64,
    },
    Datagen {
        out: PathBuf,
        games: Option<u64>,
        nodes: Option<u64>,
        /// `None`: a random seed.
        seed: Option<u64>,
        openings: Option<PathBuf>,
    },
    Corpus(CorpusCommand),
    Tune(TuneArgs),
    Train(TrainArgs),
}

/// `corpus`'s own subcommands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CorpusCommand {
    Add { dir: PathBuf, outputs: Vec<PathBuf> },
    Verify { dir: PathBuf },
    Stats { paths: Vec<PathBuf>, filter: Filter },
    Convert { inputs: Vec<PathBuf>, out: PathBuf },
}

/// The corpus folder when none is named.
pub const DEFAULT_CORPUS_DIR: &str = "corpus";

/// `train`'s own arguments; `None` means the trainer's default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrainArgs {
    pub data: Vec<PathBuf>,
    pub filter: Filter,
    pub out: PathBuf,
    pub epochs: Option<usize>,
    pub batch: Option<usize>,
    pub learning_rate: Option<f64>,
    pub lr_step: Option<usize>,
    pub lr_gamma: Option<f64>,
    pub lambda: Option<f64>,
    pub seed: u64,
    pub holdout: Option<f64>,
    pub flip_files: bool,
}

/// The numbers are checked to be finite when parsed, so equality is an equivalence.
impl Eq for TrainArgs {}

/// `tune`'s own arguments; `None` means the tuner's default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TuneArgs {
    pub data: Vec<PathBuf>,
    pub filter: Filter,
    pub out: PathBuf,
    pub epochs: Option<usize>,
    pub batch: Option<usize>,
    pub learning_rate: Option<f64>,
    pub lambda: Option<f64>,
    pub seed: u64,
    pub holdout: f64,
    pub l2: f64,
    pub resolve: bool,
    pub min_positions: usize,
}

/// The numbers are checked to be finite when parsed, so equality is an equivalence.
impl Eq for TuneArgs {}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cli {
    pub options: GlobalOptions,
    pub command: Subcommand,
}

/// A usage mistake, reported on stderr with exit status 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\nTry `ironwood --help`.", self.0)
    }
}

fn is_option(arg: &str) -> bool {
    arg.starts_with('-') && arg.len() > 1 && !arg.starts_with("--=")
}

/// Splits `--name=value` into its parts.
fn split_option(arg: &str) -> (&str, Option<&str>) {
    match arg.split_once('=') {
        Some((name, value)) if name.starts_with("--") => (name, Some(value)),
        _ => (arg, None),
    }
}

/// A size in megabytes (fractions allowed) as bytes, at least `min_bytes`.
fn megabytes(option: &str, value: &str, min_bytes: u64) -> Result<u64, CliError> {
    let mb: f64 = number(option, value)?;
    let max_mb = MAX_LOG_MB as f64;
    let min_mb = min_bytes as f64 / MB as f64;
    if !(min_mb..=max_mb).contains(&mb) {
        return Err(CliError(format!(
            "{option} must be {min_mb} to {max_mb} (megabytes)"
        )));
    }
    Ok((mb * MB as f64).round() as u64)
}

fn number<T: std::str::FromStr>(option: &str, value: &str) -> Result<T, CliError> {
    value
        .parse()
        .map_err(|_| CliError(format!("{option}: `{value}` is not a valid number")))
}

/// A whole number from `low` to `high`; anything else (junk, overflow) is one clear error.
fn bounded(option: &str, value: &str, low: u64, high: u64) -> Result<u64, CliError> {
    match value.parse::<u64>() {
        Ok(n) if (low..=high).contains(&n) => Ok(n),
        _ => Err(CliError(format!(
            "{option} must be a whole number from {low} to {high}, not `{value}`"
        ))),
    }
}

/// Takes the value of an option: inline (`--x=v`) or the next argument.
fn value<'a>(
    name: &str,
    inline: Option<&'a str>,
    args: &'a [String],
    i: &mut usize,
) -> Result<&'a str, CliError> {
    if let Some(v) = inline {
        return Ok(v);
    }
    *i += 1;
    args.get(*i)
        .map(String::as_str)
        .ok_or_else(|| CliError(format!("{name} needs a value")))
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Cli, CliError> {
    let mut options = GlobalOptions::default();
    let mut rest: Vec<String> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        let (name, inline) = split_option(arg);
        match name {
            "-h" | "--help" => {
                return Ok(Cli {
                    options,
                    command: Subcommand::Help,
                });
            }
            "-V" | "--version" => {
                return Ok(Cli {
                    options,
                    command: Subcommand::Version,
                });
            }
            "--hash" => {
                let mb = bounded(name, value(name, inline, args, &mut i)?, 1, MAX_HASH_MB)?;
                options.hash_mb = Some(mb as usize);
            }
            "--threads" => {
                let n = bounded(name, value(name, inline, args, &mut i)?, 1, MAX_THREADS)?;
                options.threads = Some(n as usize);
            }
            "--move-overhead" => {
                let ms = value(name, inline, args, &mut i)?;
                options.move_overhead_ms = Some(bounded(name, ms, 0, MAX_MOVE_OVERHEAD_MS)?);
            }
            "--log-dir" => {
                let dir = value(name, inline, args, &mut i)?;
                if dir.is_empty() {
                    return Err(CliError("--log-dir needs a folder".to_string()));
                }
                options.log_dir = Some(PathBuf::from(dir));
            }
            "--log-level" => {
                let text = value(name, inline, args, &mut i)?;
                let level = text.parse().map_err(|_| {
                    CliError(format!(
                        "--log-level: `{text}` is not one of {LOG_LEVEL_NAMES}"
                    ))
                })?;
                options.log_level = Some(level);
            }
            "--log-max-mb" => {
                let text = value(name, inline, args, &mut i)?;
                options.log_max_bytes = Some(megabytes(name, text, MIN_FILE_BYTES)?);
            }
            "--log-keep-mb" => {
                let text = value(name, inline, args, &mut i)?;
                options.log_keep_bytes = Some(megabytes(name, text, MIN_FILE_BYTES)?);
            }
            "--protocol" => {
                options.protocol = Some(match value(name, inline, args, &mut i)? {
                    "uci" => Protocol::Uci,
                    "xboard" => Protocol::Xboard,
                    other => {
                        return Err(CliError(format!(
                            "--protocol must be uci or xboard, not `{other}`"
                        )));
                    }
                });
            }
            "--evaluation" => {
                options.classical = match value(name, inline, args, &mut i)? {
                    "nnue" => false,
                    "classical" => true,
                    other => {
                        return Err(CliError(format!(
                            "--evaluation must be classical or nnue, not `{other}`"
                        )));
                    }
                };
            }
            "--driver" => {
                options.driver = Some(match value(name, inline, args, &mut i)? {
                    "recursive" => SearchDriver::Recursive,
                    "iterative" => SearchDriver::Iterative,
                    other => {
                        return Err(CliError(format!(
                            "--driver must be recursive or iterative, not `{other}`"
                        )));
                    }
                });
            }
            "--eval-file" => {
                let file = value(name, inline, args, &mut i)?;
                if file.is_empty() {
                    return Err(CliError("--eval-file needs a file".to_string()));
                }
                options.eval_file = Some(PathBuf::from(file));
            }
            _ => rest.push(arg.to_string()),
        }
        i += 1;
    }
    let command = subcommand(&rest)?;
    Ok(Cli { options, command })
}

fn subcommand(rest: &[String]) -> Result<Subcommand, CliError> {
    let Some(first) = rest.first() else {
        return Ok(Subcommand::Xboard);
    };
    let args = &rest[1..];
    match first.as_str() {
        "perft" => perft(args),
        "bench" => match args {
            [] => Ok(Subcommand::Bench { depth: None }),
            [d] if !is_option(d) => Ok(Subcommand::Bench {
                depth: Some(depth_value("bench", d)?),
            }),
            _ => Err(unexpected("bench", args)),
        },
        "epd" => epd(args),
        "datagen" => datagen(args),
        "corpus" => corpus(args),
        "tune" => tune(args),
        "train" => train(args),
        other if is_option(other) => Err(CliError(format!("unknown option `{other}`"))),
        other => Err(CliError(format!("unknown subcommand `{other}`"))),
    }
}

fn depth_value(what: &str, text: &str) -> Result<u32, CliError> {
    let depth: u32 = number(what, text)?;
    if depth > MAX_CLI_DEPTH {
        return Err(CliError(format!(
            "{what}: depth {depth} is too deep (at most {MAX_CLI_DEPTH})"
        )));
    }
    Ok(depth)
}

fn unexpected(what: &str, args: &[String]) -> CliError {
    match args.iter().find(|a| is_option(a)) {
        Some(option) => CliError(format!("unknown option `{option}` for {what}")),
        None => CliError(format!("{what}: unexpected arguments {args:?}")),
    }
}

fn perft(args: &[String]) -> Result<Subcommand, CliError> {
    if args.first().map(String::as_str) == Some("--epd") {
        let mut file = None;
        let mut max_depth = None;
        let mut i = 1;
        while i < args.len() {
            let (name, inline) = split_option(&args[i]);
            match name {
                "--max-depth" => {
                    max_depth = Some(depth_value(name, value(name, inline, args, &mut i)?)?)
                }
                _ if is_option(name) => {
                    return Err(CliError(format!("unknown option `{name}` for perft")));
                }
                _ if file.is_none() => file = Some(PathBuf::from(&args[i])),
                _ => return Err(unexpected("perft --epd", &args[i..])),
            }
            i += 1;
        }
        let file = file.ok_or_else(|| CliError("perft --epd needs a FILE".to_string()))?;
        return Ok(Subcommand::PerftSuite { file, max_depth });
    }
    let Some(depth) = args.first() else {
        return Err(CliError("perft needs a DEPTH".to_string()));
    };
    if is_option(depth) {
        return Err(CliError(format!("unknown option `{depth}` for perft")));
    }
    let depth = depth_value("perft", depth)?;
    // FEN fields may be a bare `-`; anything else starting with `-` is a mistake.
    if let Some(option) = args[1..].iter().find(|a| is_option(a)) {
        return Err(CliError(format!("unknown option `{option}` for perft")));
    }
    let fen = args[1..].join(" ");
    Ok(Subcommand::Perft {
        depth,
        fen: (!fen.is_empty()).then_some(fen),
    })
}

fn epd(args: &[String]) -> Result<Subcommand, CliError> {
    let mut file = None;
    let mut ms = DEFAULT_EPD_MS;
    let mut i = 0;
    while i < args.len() {
        let (name, inline) = split_option(&args[i]);
        match name {
            "--ms" => ms = bounded(name, value(name, inline, args, &mut i)?, 1, MAX_CLOCK_MS)?,
            _ if is_option(name) => {
                return Err(CliError(format!("unknown option `{name}` for epd")));
            }
            _ if file.is_none() => file = Some(PathBuf::from(&args[i])),
            _ => return Err(unexpected("epd", &args[i..])),
        }
        i += 1;
    }
    let file = file.ok_or_else(|| CliError("epd needs a FILE".to_string()))?;
    Ok(Subcommand::Epd { file, ms })
}

fn datagen(args: &[String]) -> Result<Subcommand, CliError> {
    let (mut out, mut games, mut nodes, mut seed, mut openings) = (None, None, None, None, None);
    let mut i = 0;
    while i < args.len() {
        let (name, inline) = split_option(&args[i]);
        match name {
            "--out" => out = Some(PathBuf::from(value(name, inline, args, &mut i)?)),
            "--openings" => openings = Some(PathBuf::from(value(name, inline, args, &mut i)?)),
            "--games" => games = Some(positive(name, value(name, inline, args, &mut i)?)?),
            "--nodes" => nodes = Some(positive(name, value(name, inline, args, &mut i)?)?),
            "--seed" => seed = Some(number(name, value(name, inline, args, &mut i)?)?),
            _ if is_option(name) => {
                return Err(CliError(format!("unknown option `{name}` for datagen")));
            }
            _ => return Err(unexpected("datagen", &args[i..])),
        }
        i += 1;
    }
    let out = out.ok_or_else(|| CliError("datagen needs --out FILE".to_string()))?;
    Ok(Subcommand::Datagen {
        out,
        games,
        nodes,
        seed,
        openings,
    })
}

fn tune(args: &[String]) -> Result<Subcommand, CliError> {
    let mut tune = TuneArgs::default();
    let mut out = None;
    let mut i = 0;
    while i < args.len() {
        let (name, inline) = split_option(&args[i]);
        match name {
            "--data" => tune
                .data
                .push(PathBuf::from(value(name, inline, args, &mut i)?)),
            "--out" => out = Some(PathBuf::from(value(name, inline, args, &mut i)?)),
            "--epochs" => {
                tune.epochs = Some(number(name, value(name, inline, args, &mut i)?)?);
            }
            "--batch" => {
                tune.batch = Some(positive(name, value(name, inline, args, &mut i)?)? as usize);
            }
            "--lr" => {
                let lr: f64 = number(name, value(name, inline, args, &mut i)?)?;
                if !(lr > 0.0 && lr.is_finite()) {
                    return Err(CliError("--lr must be a positive number".to_string()));
                }
                tune.learning_rate = Some(lr);
            }
            "--lambda" => {
                let lambda: f64 = number(name, value(name, inline, args, &mut i)?)?;
                if !(0.0..=1.0).contains(&lambda) {
                    return Err(CliError("--lambda must be 0 to 1".to_string()));
                }
                tune.lambda = Some(lambda);
            }
            "--seed" => tune.seed = number(name, value(name, inline, args, &mut i)?)?,
            "--holdout" => {
                let holdout: f64 = number(name, value(name, inline, args, &mut i)?)?;
                if !(0.0..1.0).contains(&holdout) {
                    return Err(CliError(
                        "--holdout must be at least 0, below 1".to_string(),
                    ));
                }
                tune.holdout = holdout;
            }
            "--l2" => {
                let l2: f64 = number(name, value(name, inline, args, &mut i)?)?;
                if !(l2 >= 0.0 && l2.is_finite()) {
                    return Err(CliError("--l2 must be 0 or more".to_string()));
                }
                tune.l2 = l2;
            }
            "--resolve" if inline.is_none() => tune.resolve = true,
            _ if filter_option(name, inline, args, &mut i, &mut tune.filter)? => {}
            "--min-positions" => {
                tune.min_positions = number(name, value(name, inline, args, &mut i)?)?;
            }
            _ if is_option(name) => {
                return Err(CliError(format!("unknown option `{name}` for tune")));
            }
            _ => return Err(unexpected("tune", &args[i..])),
        }
        i += 1;
    }
    if tune.data.is_empty() {
        return Err(CliError("tune needs --data FILE".to_string()));
    }
    tune.out = out.ok_or_else(|| CliError("tune needs --out FILE".to_string()))?;
    Ok(Subcommand::Tune(tune))
}

fn train(args: &[String]) -> Result<Subcommand, CliError> {
    let mut train = TrainArgs::default();
    let mut out = None;
    let mut i = 0;
    // A number from 0 to 1, with or without 1 itself.
    let fraction = |name: &str, text: &str, one_allowed: bool| -> Result<f64, CliError> {
        let x: f64 = number(name, text)?;
        if !(x >= 0.0 && (x < 1.0 || one_allowed && x == 1.0)) {
            let upper = if one_allowed { "1" } else { "below 1" };
            return Err(CliError(format!("{name} must be 0 to {upper}")));
        }
        Ok(x)
    };
    while i < args.len() {
        let (name, inline) = split_option(&args[i]);
        match name {
            "--data" => train
                .data
                .push(PathBuf::from(value(name, inline, args, &mut i)?)),
            "--out" => out = Some(PathBuf::from(value(name, inline, args, &mut i)?)),
            "--epochs" => {
                train.epochs = Some(number(name, value(name, inline, args, &mut i)?)?);
            }
            "--batch" => {
                train.batch = Some(positive(name, value(name, inline, args, &mut i)?)? as usize);
            }
            "--lr" => {
                let lr: f64 = number(name, value(name, inline, args, &mut i)?)?;
                if !(lr > 0.0 && lr.is_finite()) {
                    return Err(CliError("--lr must be a positive number".to_string()));
                }
                train.learning_rate = Some(lr);
            }
            "--lr-step" => {
                train.lr_step = Some(positive(name, value(name, inline, args, &mut i)?)? as usize);
            }
            "--lr-gamma" => {
                let text = value(name, inline, args, &mut i)?;
                let gamma = fraction(name, text, true)?;
                train.lr_gamma = Some(gamma);
            }
            "--lambda" => {
                let text = value(name, inline, args, &mut i)?;
                train.lambda = Some(fraction(name, text, true)?);
            }
            "--seed" => train.seed = number(name, value(name, inline, args, &mut i)?)?,
            "--flip-files" if inline.is_none() => train.flip_files = true,
            _ if filter_option(name, inline, args, &mut i, &mut train.filter)? => {}
            "--holdout" => {
                let text = value(name, inline, args, &mut i)?;
                train.holdout = Some(fraction(name, text, false)?);
            }
            _ if is_option(name) => {
                return Err(CliError(format!("unknown option `{name}` for train")));
            }
            _ => return Err(unexpected("train", &args[i..])),
        }
        i += 1;
    }
    if train.data.is_empty() {
        return Err(CliError("train needs --data FILE".to_string()));
    }
    train.out = out.ok_or_else(|| CliError("train needs --out FILE".to_string()))?;
    Ok(Subcommand::Train(train))
}

/// Reads a FILTER option into `filter`; `false` when `name` is not one.
fn filter_option(
    name: &str,
    inline: Option<&str>,
    args: &[String],
    i: &mut usize,
    filter: &mut Filter,
) -> Result<bool, CliError> {
    match name {
        "--min-ply" => filter.min_ply = number(name, value(name, inline, args, i)?)?,
        "--max-score" => filter.max_score = number(name, value(name, inline, args, i)?)?,
        "--keep-check" if inline.is_none() => filter.skip_in_check = false,
        "--keep-tactical" if inline.is_none() => filter.skip_tactical = false,
        _ => return Ok(false),
    }
    Ok(true)
}

fn corpus(args: &[String]) -> Result<Subcommand, CliError> {
    let Some(verb) = args.first() else {
        return Err(CliError(
            "corpus needs add, verify, stats or convert".to_string(),
        ));
    };
    let mut dir = PathBuf::from(DEFAULT_CORPUS_DIR);
    let mut out = None;
    let mut files = Vec::new();
    let mut filter = Filter::default();
    let what = format!("corpus {verb}");
    let mut i = 1;
    while i < args.len() {
        let (name, inline) = split_option(&args[i]);
        match name {
            "--dir" if matches!(verb.as_str(), "add" | "verify") => {
                dir = PathBuf::from(value(name, inline, args, &mut i)?)
            }
            "--out" if verb == "convert" => {
                out = Some(PathBuf::from(value(name, inline, args, &mut i)?))
            }
            _ if verb == "stats" && filter_option(name, inline, args, &mut i, &mut filter)? => {}
            _ if is_option(name) => {
                return Err(CliError(format!("unknown option `{name}` for {what}")));
            }
            _ if verb != "verify" => files.push(PathBuf::from(&args[i])),
            _ => return Err(unexpected(&what, &args[i..])),
        }
        i += 1;
    }
    let command = match verb.as_str() {
        "add" if files.is_empty() => return Err(CliError("corpus add needs a FILE".to_string())),
        "add" => CorpusCommand::Add {
            dir,
            outputs: files,
        },
        "verify" => CorpusCommand::Verify { dir },
        "stats" => CorpusCommand::Stats {
            paths: if files.is_empty() {
                vec![PathBuf::from(DEFAULT_CORPUS_DIR)]
            } else {
                files
            },
            filter,
        },
        "convert" if files.is_empty() => {
            return Err(CliError("corpus convert needs a FILE".to_string()));
        }
        "convert" => CorpusCommand::Convert {
            inputs: files,
            out: out.ok_or_else(|| CliError("corpus convert needs --out FILE".to_string()))?,
        },
        other => {
            return Err(CliError(format!(
                "unknown corpus command `{other}` (add, verify, stats or convert)"
            )));
        }
    };
    Ok(Subcommand::Corpus(command))
}

fn positive(option: &str, text: &str) -> Result<u64, CliError> {
    match number(option, text)? {
        0 => Err(CliError(format!("{option} must be at least 1"))),
        n => Ok(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cli(line: &str) -> Result<Cli, CliError> {
        let args: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        parse(&args)
    }

    fn command(line: &str) -> Subcommand {
        cli(line).unwrap().command
    }

    #[test]
    fn no_arguments_is_xboard_mode() {
        assert_eq!(command(""), Subcommand::Xboard);
        let c = cli("--hash 128 --threads 2 --move-overhead 50 --log-dir /tmp/x").unwrap();
        assert_eq!(c.command, Subcommand::Xboard);
        assert_eq!(c.options.hash_mb, Some(128));
        assert_eq!(c.options.threads, Some(2));
        assert_eq!(c.options.move_overhead_ms, Some(50));
        assert_eq!(c.options.log_dir, Some(PathBuf::from("/tmp/x")));
        assert_eq!(cli("--hash=32").unwrap().options.hash_mb, Some(32));
        let c = cli("--log-max-mb 0.5 --log-keep-mb=3 --log-level protocol").unwrap();
        assert_eq!(c.options.log_max_bytes, Some(MB / 2));
        assert_eq!(c.options.log_keep_bytes, Some(3 * MB));
        assert_eq!(c.options.log_level, Some(LogLevel::Protocol));
        assert_eq!(c.options.protocol, None);
        assert_eq!(
            cli("--protocol uci").unwrap().options.protocol,
            Some(Protocol::Uci)
        );
        assert_eq!(
            cli("--protocol=xboard").unwrap().options.protocol,
            Some(Protocol::Xboard)
        );
        assert_eq!(c.options.driver, None);
        let c = cli("bench 5 --driver iterative").unwrap();
        assert_eq!(c.command, Subcommand::Bench { depth: Some(5) });
        assert_eq!(c.options.driver, Some(SearchDriver::Iterative));
        assert_eq!(
            cli("--driver=recursive").unwrap().options.driver,
            Some(SearchDriver::Recursive)
        );
    }

    #[test]
    fn help_and_version() {
        assert_eq!(command("--help"), Subcommand::Help);
        assert_eq!(command("-h"), Subcommand::Help);
        assert_eq!(command("bench -h"), Subcommand::Help);
        assert_eq!(command("-V"), Subcommand::Version);
        assert_eq!(command("--version"), Subcommand::Version);
    }

    #[test]
    fn corpus_commands_and_filters() {
        assert_eq!(
            command("corpus add a.iwc b.iwc --dir c"),
            Subcommand::Corpus(CorpusCommand::Add {
                dir: PathBuf::from("c"),
                outputs: vec![PathBuf::from("a.iwc"), PathBuf::from("b.iwc")]
            })
        );
        assert_eq!(
            command("corpus verify"),
            Subcommand::Corpus(CorpusCommand::Verify {
                dir: PathBuf::from("corpus")
            })
        );
        assert_eq!(
            command("corpus stats"),
            Subcommand::Corpus(CorpusCommand::Stats {
                paths: vec![PathBuf::from("corpus")],
                filter: Filter::default()
            })
        );
        let filter = Filter {
            min_ply: 16,
            skip_in_check: false,
            skip_tactical: false,
            max_score: 3000,
        };
        assert_eq!(
            command(
                "corpus stats x.iwc --min-ply 16 --keep-check --keep-tactical --max-score=3000"
            ),
            Subcommand::Corpus(CorpusCommand::Stats {
                paths: vec![PathBuf::from("x.iwc")],
                filter
            })
        );
        assert_eq!(
            command("corpus convert a.bin --out a.iwc"),
            Subcommand::Corpus(CorpusCommand::Convert {
                inputs: vec![PathBuf::from("a.bin")],
                out: PathBuf::from("a.iwc")
            })
        );
        let Subcommand::Train(train) = command(
            "train --data corpus --out n.nnue --min-ply 16 --keep-check --keep-tactical --max-score 3000",
        ) else {
            panic!("not train");
        };
        assert_eq!(train.filter, filter);
        let Subcommand::Tune(tune) = command(
            "tune --data corpus --out w.rs --min-ply 16 --keep-check --keep-tactical --max-score 3000",
        ) else {
            panic!("not tune");
        };
        assert_eq!(tune.filter, filter);
    }

    #[test]
    fn subcommands() {
        assert_eq!(
            command("perft 3"),
            Subcommand::Perft {
                depth: 3,
                fen: None
            }
        );
        assert_eq!(
            command("perft 2 8/8/8/8/8/8/8/K6k w - - 0 1"),
            Subcommand::Perft {
                depth: 2,
                fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".to_string())
            }
        );
        assert_eq!(
            command("perft --epd f.epd --max-depth 3"),
            Subcommand::PerftSuite {
                file: PathBuf::from("f.epd"),
                max_depth: Some(3)
            }
        );
        assert_eq!(command("bench"), Subcommand::Bench { depth: None });
        assert_eq!(command("bench 5"), Subcommand::Bench { depth: Some(5) });
        assert_eq!(
            command("epd m.epd --ms 200"),
            Subcommand::Epd {
                file: PathBuf::from("m.epd"),
                ms: 200
            }
        );
        assert_eq!(
            command("--threads 2 datagen --out d.bin --games 4 --nodes 900 --seed 7"),
            Subcommand::Datagen {
                out: PathBuf::from("d.bin"),
                games: Some(4),
                nodes: Some(900),
                seed: Some(7),
                openings: None
            }
        );
        assert_eq!(
            command("tune --data a.bin --data=b.bin --out w.rs --epochs 3 --lambda 0.25"),
            Subcommand::Tune(TuneArgs {
                data: vec![PathBuf::from("a.bin"), PathBuf::from("b.bin")],
                out: PathBuf::from("w.rs"),
                epochs: Some(3),
                lambda: Some(0.25),
                ..TuneArgs::default()
            })
        );
        assert_eq!(
            command("--hash 16 epd m.epd"),
            Subcommand::Epd {
                file: PathBuf::from("m.epd"),
                ms: DEFAULT_EPD_MS
            }
        );
    }

    #[test]
    fn mistakes_are_errors_not_panics() {
        for line in [
            "--bogus",
            "-x",
            "--hash",
            "--hash abc",
            "--hash 0",
            "--threads 0",
            "--threads 100000",
            "--move-overhead -5",
            "--move-overhead 5001",
            "--move-overhead 18446744073709551616",
            "--hash 1048577",
            "--threads 257",
            "epd f --ms 2592000001",
            "perft",
            "perft x",
            "perft 99",
            "perft 3 --fast",
            "perft --epd",
            "perft --epd f --max-depth",
            "perft --epd f --what",
            "bench x",
            "bench 3 4",
            "bench --fast",
            "bench --driver",
            "bench --driver Iterative",
            "epd",
            "epd f --ms",
            "epd f --ms 0",
            "epd f g",
            "frobnicate",
            "--log-dir=",
            "--log-level loud",
            "--log-level",
            "--log-max-mb 0",
            "--log-max-mb -1",
            "--log-max-mb NaN",
            "--log-max-mb inf",
            "--log-keep-mb 0.0001",
            "datagen",
            "datagen --out",
            "datagen --out f --games 0",
            "datagen --out f --nodes x",
            "datagen --out f extra",
            "corpus",
            "corpus list",
            "corpus add",
            "corpus verify extra",
            "corpus verify --out x",
            "corpus stats --dir d",
            "corpus stats --min-ply x",
            "corpus convert old.bin",
            "corpus convert --out new.iwc",
            "tune --data d.iwc --out w.rs --max-score",
            "tune",
            "tune --data d.bin",
            "tune --out w.rs",
            "tune --data d.bin --out w.rs --lambda 2",
            "tune --data d.bin --out w.rs --lr 0",
            "tune --data d.bin --out w.rs --batch 0",
            "tune --data d.bin --out w.rs --holdout 1",
            "tune --data d.bin --out w.rs --l2 -1",
            "--protocol",
            "--protocol cecp",
        ] {
            assert!(cli(line).is_err(), "{line}");
        }
        assert!(
            cli("--bogus")
                .unwrap_err()
                .0
                .contains("unknown option `--bogus`")
        );
    }
}
