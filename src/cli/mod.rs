//! The command line: global options anywhere, then at most one subcommand with its own
//! arguments. Every flag is declared once in the tables below (`flags.rs` renders the usage
//! text from them and parses by them); each tool's configuration is built from its parsed
//! arguments here (`run.rs` starts what they ask for). Never panics; every mistake is a
//! `CliError` (exit status 2).

pub mod flags;
mod run;

pub use run::run_command_line;

use std::fmt;
use std::path::PathBuf;

use crate::engine::limits::{
    DEFAULT_DATAGEN_NODES, DEFAULT_EPD_MS, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS,
    MAX_CLI_DEPTH, MAX_CLOCK_MS, MAX_HASH_MB, MAX_MOVE_OVERHEAD_MS, MAX_THREADS,
};
use crate::logging::{
    DEFAULT_FILE_MB, DEFAULT_KEEP_MB, LOG_LEVEL_NAMES, LogLevel, LogLimits, LogSettings,
    MAX_LOG_MB, MB, MIN_FILE_BYTES,
};
use crate::protocol::Protocol;
use crate::search::SearchDriver;
use crate::tools::corpus::filter::Filter;
use flags::{
    Command, Flag, Matches, Shown, Takes, bounded, fraction, is_option, nonnegative, number,
    positive, split_option,
};

/// The corpus folder when none is named.
pub const DEFAULT_CORPUS_DIR: &str = "corpus";

const INTRO: &str = "\
Usage: ironwood [OPTIONS] [SUBCOMMAND]

Without a subcommand Ironwood plays on stdin and stdout: UCI when the first command is
`uci`, otherwise the XBoard/WinBoard protocol (CECP v2); start it from a GUI, e.g.
`xboard -fcp ironwood`, or as a UCI engine.
";

/// Options that apply to every mode, accepted before or after the subcommand.
const GLOBAL_FLAGS: &[Flag] = &[
    Flag::new(&["--hash"], Takes::Value("MB"), "transposition table size")
        .default(Shown::Int(DEFAULT_HASH_MB as u64)),
    Flag::new(&["--threads"], Takes::Value("N"), "search threads").default(Shown::Int(1)),
    Flag::new(
        &["--move-overhead"],
        Takes::Value("MS"),
        "time kept back per move for GUI/pipe lag",
    )
    .default(Shown::Int(DEFAULT_MOVE_OVERHEAD_MS)),
    Flag::new(&["--log-dir"], Takes::Value("DIR"), "folder for log files")
        .default(Shown::Text("$IRONWOOD_LOG_DIR, else ./logs")),
    Flag::new(
        &["--log-max-mb"],
        Takes::Value("MB"),
        "a log file rolls over to the next number at this size",
    )
    .default(Shown::Int(DEFAULT_FILE_MB)),
    Flag::new(
        &["--log-keep-mb"],
        Takes::Value("MB"),
        "the oldest log files are deleted beyond this total",
    )
    .default(Shown::Int(DEFAULT_KEEP_MB)),
    Flag::new(
        &["--log-level"],
        Takes::Value("LEVEL"),
        "off, error, warn, info, protocol (all but thinking lines), debug, trace",
    )
    .default(Shown::Text("$RUST_LOG if set, else debug")),
    Flag::new(
        &["--protocol"],
        Takes::Value("P"),
        "speak P (uci or xboard) whatever the first command is",
    ),
    Flag::new(
        &["--evaluation"],
        Takes::Value("E"),
        "nnue or classical: the evaluation searches use",
    )
    .default(Shown::Text("nnue")),
    Flag::new(
        &["--eval-file"],
        Takes::Value("FILE"),
        "the NNUE network to use instead of the embedded one",
    ),
    Flag::new(
        &["--driver"],
        Takes::Value("D"),
        "recursive or iterative: how the search runs its nodes",
    )
    .default(Shown::Text("recursive")),
    Flag::new(
        &["--tunables"],
        Takes::Nothing,
        "announce the search's switches and constants as options (settable by name without it)",
    ),
    Flag::new(&["--help", "-h"], Takes::Nothing, "this text"),
    Flag::new(&["--version", "-V"], Takes::Nothing, "the version"),
];

/// FILTER: which of the games' positions a reader takes (`corpus stats`, `tune`, `train`).
const FILTER_FLAGS: &[Flag] = &[
    Flag::new(
        &["--min-ply"],
        Takes::Value("N"),
        "skip the first N plies of each game",
    )
    .default(Shown::Int(0)),
    Flag::new(
        &["--max-score"],
        Takes::Value("CP"),
        "skip positions scored further from zero",
    )
    .default(Shown::Text("mate scores only")),
    Flag::new(
        &["--keep-check"],
        Takes::Nothing,
        "keep positions in check (skipped by default)",
    ),
    Flag::new(
        &["--keep-tactical"],
        Takes::Nothing,
        "keep positions whose played move captures or promotes (skipped by default)",
    ),
];

const PERFT: Command = Command {
    name: "perft",
    synopsis: "DEPTH [FEN]",
    help: "perft divide of FEN (default: the start position)",
    flags: &[],
    shared: &[],
};

const PERFT_SUITE: Command = Command {
    name: "perft --epd",
    synopsis: "FILE [--max-depth D]",
    help: "perft suite (`FEN ;D1 n ;D2 n ...`); exit status 1 on a mismatch",
    flags: &[&[Flag::new(
        &["--max-depth"],
        Takes::Value("D"),
        "the deepest count checked",
    )]],
    shared: &[],
};

const BENCH: Command = Command {
    name: "bench",
    synopsis: "[DEPTH]",
    help: "fixed-depth search of the bench positions (default depth 11, 16 MB table unless \
           --hash); prints `nodes N time_ms T nps X` and then `N nodes X nps` last",
    flags: &[],
    shared: &[],
};

const PARAMS: Command = Command {
    name: "params",
    synopsis: "",
    help: "the search's tunable constants, one a line in OpenBench's SPSA input format: \
           `Name, int, default, min, max, c_end, r_end`",
    flags: &[],
    shared: &[],
};

const EPD: Command = Command {
    name: "epd",
    synopsis: "FILE [--ms MS]",
    help: "solve an EPD suite (bm, am, dm); prints `solved S of T` last",
    flags: &[&[
        Flag::new(&["--ms"], Takes::Value("MS"), "time per position")
            .default(Shown::Int(DEFAULT_EPD_MS)),
    ]],
    shared: &[],
};

const DATAGEN: Command = Command {
    name: "datagen",
    synopsis: "--out FILE [OPTIONS]",
    help: "self-play games for the corpus, one per thread (default: all cores), written whole \
           to the new shard FILE (never overwritten); runs until killed without --games",
    flags: &[&[
        Flag::new(&["--out"], Takes::Value("FILE"), "the new shard"),
        Flag::new(&["--games"], Takes::Value("N"), "stop after N games"),
        Flag::new(&["--nodes"], Takes::Value("N"), "soft node limit per move")
            .default(Shown::Int(DEFAULT_DATAGEN_NODES)),
        Flag::new(
            &["--seed"],
            Takes::Value("N"),
            "the games' random numbers; the same seed plays the same games",
        )
        .default(Shown::Text("random, recorded in the file")),
        Flag::new(
            &["--openings"],
            Takes::Value("EPD"),
            "start from these positions plus 2-4 random plies instead of 8-9 from the start",
        ),
    ]],
    shared: &[],
};

const SPSA: Command = Command {
    name: "spsa",
    synopsis: "--state FILE [OPTIONS]",
    help: "tune the search's constants by OpenBench's SPSA: game pairs at a node limit between \
           engines with theta perturbed each way, --threads pairs at a time (default: all \
           cores); FILE holds the run's place after every pair and an existing FILE is \
           resumed; prints the tuned values at the end",
    flags: &[&[
        Flag::new(
            &["--state"],
            Takes::Value("FILE"),
            "the state file (settings, iteration, theta), rewritten after every pair",
        ),
        Flag::new(
            &["--params"],
            Takes::Value("A,B,..."),
            "the constants to tune, as `ironwood params` names them",
        )
        .default(Shown::Text("all")),
        Flag::new(
            &["--pairs"],
            Takes::Value("N"),
            "the run's planned iterations, which the schedule ends at",
        )
        .default(Shown::Int(crate::tools::spsa::DEFAULT_PAIRS)),
        Flag::new(&["--nodes"], Takes::Value("N"), "soft node limit per move")
            .default(Shown::Int(DEFAULT_DATAGEN_NODES)),
        Flag::new(
            &["--seed"],
            Takes::Value("N"),
            "the openings' and perturbations' random numbers",
        )
        .default(Shown::Text("random, recorded in FILE")),
        Flag::new(
            &["--openings"],
            Takes::Value("EPD"),
            "start from these positions plus 2-4 random plies instead of 8-9 from the start",
        ),
        Flag::new(
            &["--out"],
            Takes::Value("SHARD"),
            "also write every game to this new corpus file, as datagen does",
        ),
        Flag::new(
            &["--stop-after"],
            Takes::Value("N"),
            "play at most N pairs now; running again resumes",
        ),
    ]],
    shared: &[],
};

const CORPUS_ADD: Command = Command {
    name: "corpus add",
    synopsis: "FILE... [--dir DIR]",
    help: "pack datagen output into new shards of the corpus in DIR, with a MANIFEST line each",
    flags: &[&[CORPUS_DIR]],
    shared: &[],
};

const CORPUS_DIR: Flag =
    Flag::new(&["--dir"], Takes::Value("DIR"), "the corpus folder").default(Shown::Text("corpus"));

const CORPUS_VERIFY: Command = Command {
    name: "corpus verify",
    synopsis: "[--dir DIR]",
    help: "check every shard against the manifest: size, checksums, games, positions",
    flags: &[&[CORPUS_DIR]],
    shared: &[],
};

const CORPUS_STATS: Command = Command {
    name: "corpus stats",
    synopsis: "[PATH...] [FILTER]",
    help: "games, positions, positions FILTER keeps, results, endings, lengths and scores per \
           shard and in total (PATH: shards, datagen output or corpus folders; default: corpus)",
    flags: &[],
    shared: FILTER_FLAGS,
};

/// `--data` and `--out` for the fitting tools.
const FIT_FILES: &[Flag] = &[
    Flag::new(
        &["--data"],
        Takes::Value("PATH"),
        "a corpus shard or folder (repeatable)",
    ),
    Flag::new(&["--out"], Takes::Value("FILE"), "the file written"),
];

const TUNE: Command = Command {
    name: "tune",
    synopsis: "--data PATH... --out FILE [FILTER] [OPTIONS]",
    help: "fit every evaluation weight to the games; writes a weights.rs and the epoch with the \
           lowest held-out loss",
    shared: FILTER_FLAGS,
    flags: &[
        FIT_FILES,
        &[
            Flag::new(&["--epochs"], Takes::Value("N"), "passes over the data")
                .default(Shown::Int(crate::tools::tune::DEFAULT_EPOCHS as u64)),
            Flag::new(&["--batch"], Takes::Value("N"), "positions per step")
                .default(Shown::Int(crate::tools::tune::DEFAULT_BATCH as u64)),
            Flag::new(&["--lr"], Takes::Value("X"), "learning rate")
                .default(Shown::Float(crate::tools::tune::DEFAULT_LEARNING_RATE)),
            Flag::new(
                &["--lambda"],
                Takes::Value("X"),
                "share of the game result in the target (the rest: the search score)",
            )
            .default(Shown::Float(crate::tools::tune::DEFAULT_LAMBDA)),
            Flag::new(&["--seed"], Takes::Value("N"), "shuffling seed").default(Shown::Int(0)),
            Flag::new(
                &["--holdout"],
                Takes::Value("F"),
                "the last fraction of the positions is not trained on",
            )
            .default(Shown::Int(0)),
            Flag::new(
                &["--l2"],
                Takes::Value("X"),
                "penalty on the distance from the current weights",
            )
            .default(Shown::Int(0)),
            Flag::new(
                &["--resolve"],
                Takes::Nothing,
                "fit the end of each position's capture line, found by quiescence",
            ),
            Flag::new(
                &["--min-positions"],
                Takes::Value("N"),
                "weights that fire in fewer positions keep their current value",
            )
            .default(Shown::Int(0)),
        ],
    ],
};

const TRAIN: Command = Command {
    name: "train",
    synopsis: "--data PATH... --out FILE [FILTER] [OPTIONS]",
    help: "fit the NNUE network to the games; writes a checkpoint FILE-stem.epochN.nnue after \
           each epoch, and to FILE the epoch with the lowest validation loss",
    shared: FILTER_FLAGS,
    flags: &[
        FIT_FILES,
        &[
            Flag::new(&["--epochs"], Takes::Value("N"), "passes over the data")
                .default(Shown::Int(crate::tools::train::DEFAULT_EPOCHS as u64)),
            Flag::new(&["--batch"], Takes::Value("N"), "positions per step")
                .default(Shown::Int(crate::tools::train::DEFAULT_BATCH as u64)),
            Flag::new(&["--lr"], Takes::Value("X"), "learning rate")
                .default(Shown::Float(crate::tools::train::DEFAULT_LEARNING_RATE)),
            Flag::new(
                &["--lr-step"],
                Takes::Value("N"),
                "the learning rate is multiplied by --lr-gamma every N epochs",
            )
            .default(Shown::Int(crate::tools::train::DEFAULT_LR_STEP as u64)),
            Flag::new(&["--lr-gamma"], Takes::Value("X"), "see --lr-step")
                .default(Shown::Float(crate::tools::train::DEFAULT_LR_GAMMA)),
            Flag::new(
                &["--lr-schedule"],
                Takes::Value("S"),
                "step (--lr-step, --lr-gamma) or cosine (from --lr to --lr-end over every step)",
            )
            .default(Shown::Text("step")),
            Flag::new(
                &["--lr-end"],
                Takes::Value("X"),
                "the cosine schedule's learning rate at the last step",
            )
            .default(Shown::Float(crate::tools::train::DEFAULT_LR_END)),
            Flag::new(
                &["--hidden"],
                Takes::Value("N"),
                "hidden width per view: a multiple of 32 from 32 to 1024",
            )
            .default(Shown::Int(crate::nnue::DEFAULT_HIDDEN as u64)),
            Flag::new(
                &["--output-buckets"],
                Takes::Value("N"),
                "1, or 8 output layers chosen by the number of pieces",
            )
            .default(Shown::Int(1)),
            Flag::new(
                &["--activation"],
                Takes::Value("A"),
                "crelu (clipped ReLU) or screlu (squared clipped ReLU)",
            )
            .default(Shown::Text("crelu")),
            Flag::new(
                &["--mirror-inputs"],
                Takes::Nothing,
                "each view sees the board mirrored a-h when its own king is on files e-h \
                 (file version 3)",
            ),
            Flag::new(
                &["--lambda"],
                Takes::Value("X"),
                "share of the game result in the target (the rest: the search score)",
            )
            .default(Shown::Float(crate::tools::train::DEFAULT_LAMBDA)),
            Flag::new(
                &["--seed"],
                Takes::Value("N"),
                "initialisation and shuffling seed",
            )
            .default(Shown::Int(0)),
            Flag::new(
                &["--holdout"],
                Takes::Value("F"),
                "fraction of the games held out for the validation loss",
            )
            .default(Shown::Float(crate::tools::train::DEFAULT_HOLDOUT)),
            Flag::new(
                &["--flip-files"],
                Takes::Nothing,
                "also train on each position mirrored a-h (not with --mirror-inputs, which \
                 sees both alike)",
            ),
        ],
    ],
};

/// Every subcommand, in the order the usage text lists them.
const COMMANDS: [&Command; 13] = [
    &PERFT,
    &PERFT_SUITE,
    &BENCH,
    &PARAMS,
    &EPD,
    &DATAGEN,
    &SPSA,
    &CORPUS_ADD,
    &CORPUS_VERIFY,
    &CORPUS_STATS,
    &TUNE,
    &TRAIN,
    &Command {
        name: "FILTER",
        synopsis: "(corpus stats, tune, train)",
        help: "which of the games' positions are read; the random opening plies are never read",
        flags: &[FILTER_FLAGS],
        shared: &[],
    },
];

/// The usage text, rendered from the tables.
pub fn usage() -> String {
    let mut out = String::from(INTRO);
    out.push_str("\nSubcommands:\n");
    for command in COMMANDS {
        command.usage(&mut out);
    }
    out.push_str("\nOptions:\n");
    let options = Command {
        name: "",
        synopsis: "",
        help: "",
        flags: &[GLOBAL_FLAGS],
        shared: &[],
    };
    let mut lines = String::new();
    options.usage(&mut lines);
    // The options are listed under their heading, not under an empty command.
    for line in lines.lines().skip(2) {
        out.push_str(&line[4..]);
        out.push('\n');
    }
    out
}

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
    /// `--tunables`: the option lists include the lab's options (the search's technique
    /// switches and constants).
    pub tunables: bool,
}

impl GlobalOptions {
    /// `--threads`, or every core the machine has (the tools' default).
    pub fn threads_or_all_cores(&self) -> usize {
        self.threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    /// The log's folder, level and size limits (defaults where no flag gave them).
    pub fn log_settings(&self) -> LogSettings {
        let defaults = LogLimits::default();
        LogSettings {
            dir: self.log_dir.clone(),
            level: self.log_level,
            limits: LogLimits {
                file_bytes: self.log_max_bytes.unwrap_or(defaults.file_bytes),
                keep_bytes: self.log_keep_bytes.unwrap_or(defaults.keep_bytes),
            },
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
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
    /// `params`: the search's constants for an SPSA tuner.
    Params,
    Epd {
        file: PathBuf,
        ms: u64,
    },
    Datagen(DatagenArgs),
    Spsa(SpsaArgs),
    Corpus(CorpusCommand),
    Tune(crate::tools::tune::TuneConfig),
    Train(crate::tools::train::TrainConfig),
}

/// `datagen`'s own arguments; `None` means the default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatagenArgs {
    pub out: PathBuf,
    pub games: Option<u64>,
    pub nodes: Option<u64>,
    /// `None`: a random seed.
    pub seed: Option<u64>,
    pub openings: Option<PathBuf>,
}

/// `spsa`'s own arguments; `None` means the state file's when resuming, else the default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpsaArgs {
    pub state: PathBuf,
    /// The constants' names as `PARAMS` spells them.
    pub params: Option<Vec<&'static str>>,
    pub pairs: Option<u64>,
    pub nodes: Option<u64>,
    pub seed: Option<u64>,
    pub openings: Option<PathBuf>,
    pub out: Option<PathBuf>,
    pub stop_after: Option<u64>,
}

/// `corpus`'s own subcommands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CorpusCommand {
    Add { dir: PathBuf, outputs: Vec<PathBuf> },
    Verify { dir: PathBuf },
    Stats { paths: Vec<PathBuf>, filter: Filter },
}

#[derive(Clone, Debug, PartialEq)]
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

/// One of `choices` (the value as typed, the result).
fn choice<T: Copy>(option: &str, value: &str, choices: &[(&str, T)]) -> Result<T, CliError> {
    choices
        .iter()
        .find(|(name, _)| *name == value)
        .map(|(_, t)| *t)
        .ok_or_else(|| {
            let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
            CliError(format!(
                "{option} must be {}, not `{value}`",
                names.join(" or ")
            ))
        })
}

fn not_empty<'a>(option: &str, value: &'a str, what: &str) -> Result<&'a str, CliError> {
    if value.is_empty() {
        return Err(CliError(format!("{option} needs {what}")));
    }
    Ok(value)
}

/// Sets one global option from its value.
fn global_option(options: &mut GlobalOptions, name: &str, value: &str) -> Result<(), CliError> {
    match name {
        "--hash" => options.hash_mb = Some(bounded(name, value, 1, MAX_HASH_MB)? as usize),
        "--threads" => options.threads = Some(bounded(name, value, 1, MAX_THREADS)? as usize),
        "--move-overhead" => {
            options.move_overhead_ms = Some(bounded(name, value, 0, MAX_MOVE_OVERHEAD_MS)?)
        }
        "--log-dir" => options.log_dir = Some(PathBuf::from(not_empty(name, value, "a folder")?)),
        "--log-level" => {
            options.log_level = Some(value.parse().map_err(|_| {
                CliError(format!(
                    "--log-level: `{value}` is not one of {LOG_LEVEL_NAMES}"
                ))
            })?)
        }
        "--log-max-mb" => options.log_max_bytes = Some(megabytes(name, value, MIN_FILE_BYTES)?),
        "--log-keep-mb" => options.log_keep_bytes = Some(megabytes(name, value, MIN_FILE_BYTES)?),
        "--protocol" => {
            options.protocol = Some(choice(
                name,
                value,
                &[("uci", Protocol::Uci), ("xboard", Protocol::Xboard)],
            )?)
        }
        "--evaluation" => {
            options.classical = choice(name, value, &[("classical", true), ("nnue", false)])?
        }
        "--driver" => {
            options.driver = Some(choice(
                name,
                value,
                &[
                    ("recursive", SearchDriver::Recursive),
                    ("iterative", SearchDriver::Iterative),
                ],
            )?)
        }
        "--eval-file" => options.eval_file = Some(PathBuf::from(not_empty(name, value, "a file")?)),
        _ => return Err(CliError(format!("unknown option `{name}`"))),
    }
    Ok(())
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Cli, CliError> {
    let mut options = GlobalOptions::default();
    let mut rest: Vec<String> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let (name, inline) = split_option(&args[i]);
        match GLOBAL_FLAGS.iter().find(|f| f.names.contains(&name)) {
            Some(flag) if flag.name() == "--help" => {
                return Ok(Cli {
                    options,
                    command: Subcommand::Help,
                });
            }
            Some(flag) if flag.name() == "--version" => {
                return Ok(Cli {
                    options,
                    command: Subcommand::Version,
                });
            }
            Some(flag) if flag.name() == "--tunables" => {
                if inline.is_some() {
                    return Err(CliError(format!("{name} takes no value")));
                }
                options.tunables = true;
            }
            Some(_) => {
                let value = match inline {
                    Some(v) => v,
                    None => {
                        i += 1;
                        args.get(i)
                            .ok_or_else(|| CliError(format!("{name} needs a value")))?
                    }
                };
                global_option(&mut options, name, value)?;
            }
            None => rest.push(args[i].clone()),
        }
        i += 1;
    }
    let command = subcommand(&rest, &options)?;
    Ok(Cli { options, command })
}

fn subcommand(rest: &[String], options: &GlobalOptions) -> Result<Subcommand, CliError> {
    let Some(first) = rest.first() else {
        return Ok(Subcommand::Xboard);
    };
    let args = &rest[1..];
    match first.as_str() {
        "perft" if args.first().is_some_and(|a| a == "--epd") => perft_suite(&args[1..]),
        "perft" => perft(args),
        "bench" => {
            let m = Matches::parse(&BENCH, args)?;
            m.at_most(1)?;
            let depth = m.positional.first().map(|d| depth_value("bench", d));
            Ok(Subcommand::Bench {
                depth: depth.transpose()?,
            })
        }
        "epd" => {
            let m = Matches::parse(&EPD, args)?;
            m.at_most(1)?;
            let file = m
                .positional
                .first()
                .ok_or_else(|| CliError("epd needs a FILE".to_string()))?;
            let ms = m.get("--ms", |n, v| bounded(n, v, 1, MAX_CLOCK_MS))?;
            Ok(Subcommand::Epd {
                file: PathBuf::from(file),
                ms: ms.unwrap_or(DEFAULT_EPD_MS),
            })
        }
        "params" => {
            Matches::parse(&PARAMS, args)?.at_most(0)?;
            Ok(Subcommand::Params)
        }
        "datagen" => datagen(args),
        "spsa" => spsa(args),
        "corpus" => corpus(args),
        "tune" => tune(args, options),
        "train" => train(args, options),
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

fn perft_suite(args: &[String]) -> Result<Subcommand, CliError> {
    let m = Matches::parse(&PERFT_SUITE, args)?;
    m.at_most(1)?;
    let file = m
        .positional
        .first()
        .ok_or_else(|| CliError("perft --epd needs a FILE".to_string()))?;
    Ok(Subcommand::PerftSuite {
        file: PathBuf::from(file),
        max_depth: m.get("--max-depth", depth_value)?,
    })
}

fn perft(args: &[String]) -> Result<Subcommand, CliError> {
    // FEN fields may be a bare `-`, which is not an option; anything else starting with
    // `-` is a mistake.
    let m = Matches::parse(&PERFT, args)?;
    let Some(depth) = m.positional.first() else {
        return Err(CliError("perft needs a DEPTH".to_string()));
    };
    let depth = depth_value("perft", depth)?;
    let fen = m.positional[1..].join(" ");
    Ok(Subcommand::Perft {
        depth,
        fen: (!fen.is_empty()).then_some(fen),
    })
}

fn datagen(args: &[String]) -> Result<Subcommand, CliError> {
    let m = Matches::parse(&DATAGEN, args)?;
    m.at_most(0)?;
    Ok(Subcommand::Datagen(DatagenArgs {
        out: PathBuf::from(m.required("--out", "FILE")?),
        games: m.get("--games", positive)?,
        nodes: m.get("--nodes", positive)?,
        seed: m.get("--seed", number)?,
        openings: m.value("--openings").map(PathBuf::from),
    }))
}

fn spsa(args: &[String]) -> Result<Subcommand, CliError> {
    let m = Matches::parse(&SPSA, args)?;
    m.at_most(0)?;
    Ok(Subcommand::Spsa(SpsaArgs {
        state: PathBuf::from(not_empty(
            "--state",
            m.required("--state", "FILE")?,
            "a file",
        )?),
        params: m.get("--params", param_names)?,
        pairs: m.get("--pairs", positive)?,
        nodes: m.get("--nodes", positive)?,
        seed: m.get("--seed", number)?,
        openings: m.value("--openings").map(PathBuf::from),
        out: m.value("--out").map(PathBuf::from),
        stop_after: m.get("--stop-after", positive)?,
    }))
}

/// A comma-separated list of the search's constants, each once.
fn param_names(option: &str, value: &str) -> Result<Vec<&'static str>, CliError> {
    let mut names: Vec<&'static str> = Vec::new();
    for name in value.split(',') {
        let param = crate::search::params::find_param(name).ok_or_else(|| {
            CliError(format!(
                "{option}: unknown constant `{name}` (`ironwood params` lists them)"
            ))
        })?;
        if names.contains(&param.name) {
            return Err(CliError(format!("{option}: {} twice", param.name)));
        }
        names.push(param.name);
    }
    Ok(names)
}

fn filter(m: &Matches) -> Result<Filter, CliError> {
    let mut filter = Filter::default();
    if let Some(ply) = m.get("--min-ply", number)? {
        filter.min_ply = ply;
    }
    if let Some(score) = m.get("--max-score", number)? {
        filter.max_score = score;
    }
    filter.skip_in_check &= !m.switch("--keep-check");
    filter.skip_tactical &= !m.switch("--keep-tactical");
    Ok(filter)
}

fn corpus(args: &[String]) -> Result<Subcommand, CliError> {
    let verb = args.first().map_or("", String::as_str);
    let command = match verb {
        "add" => &CORPUS_ADD,
        "verify" => &CORPUS_VERIFY,
        "stats" => &CORPUS_STATS,
        "" => {
            return Err(CliError("corpus needs add, verify or stats".to_string()));
        }
        other => {
            return Err(CliError(format!(
                "unknown corpus command `{other}` (add, verify or stats)"
            )));
        }
    };
    let m = Matches::parse(command, &args[1..])?;
    let files: Vec<PathBuf> = m.positional.iter().map(PathBuf::from).collect();
    let dir = PathBuf::from(m.value("--dir").unwrap_or(DEFAULT_CORPUS_DIR));
    let needs_file = || CliError(format!("{} needs a FILE", command.name));
    Ok(Subcommand::Corpus(match verb {
        "add" if files.is_empty() => return Err(needs_file()),
        "add" => CorpusCommand::Add {
            dir,
            outputs: files,
        },
        "verify" => {
            m.at_most(0)?;
            CorpusCommand::Verify { dir }
        }
        _ => CorpusCommand::Stats {
            paths: if files.is_empty() {
                vec![PathBuf::from(DEFAULT_CORPUS_DIR)]
            } else {
                files
            },
            filter: filter(&m)?,
        },
    }))
}

fn fit_files(m: &Matches) -> Result<(Vec<PathBuf>, PathBuf), CliError> {
    m.at_most(0)?;
    let data: Vec<PathBuf> = m.values("--data").into_iter().map(PathBuf::from).collect();
    if data.is_empty() {
        return Err(CliError(format!("{} needs --data FILE", m.command())));
    }
    Ok((data, PathBuf::from(m.required("--out", "FILE")?)))
}

fn tune(args: &[String], options: &GlobalOptions) -> Result<Subcommand, CliError> {
    use crate::tools::tune;
    let m = Matches::parse(&TUNE, args)?;
    let (data, out) = fit_files(&m)?;
    Ok(Subcommand::Tune(tune::TuneConfig {
        data,
        out,
        filter: filter(&m)?,
        epochs: m.get("--epochs", number)?.unwrap_or(tune::DEFAULT_EPOCHS),
        batch: m
            .get("--batch", |n, v| positive(n, v).map(|b| b as usize))?
            .unwrap_or(tune::DEFAULT_BATCH),
        learning_rate: m
            .get("--lr", |n, v| nonnegative(n, v, false))?
            .unwrap_or(tune::DEFAULT_LEARNING_RATE),
        lambda: m
            .get("--lambda", |n, v| fraction(n, v, true))?
            .unwrap_or(tune::DEFAULT_LAMBDA),
        seed: m.get("--seed", number)?.unwrap_or(0),
        holdout: m
            .get("--holdout", |n, v| fraction(n, v, false))?
            .unwrap_or(0.0),
        l2: m
            .get("--l2", |n, v| nonnegative(n, v, true))?
            .unwrap_or(0.0),
        resolve: m.switch("--resolve"),
        min_positions: m.get("--min-positions", number)?.unwrap_or(0),
        threads: options.threads_or_all_cores(),
    }))
}

fn train(args: &[String], options: &GlobalOptions) -> Result<Subcommand, CliError> {
    use crate::nnue::{Activation, InputTransform};
    use crate::tools::train::{self, LrSchedule};
    let m = Matches::parse(&TRAIN, args)?;
    let (data, out) = fit_files(&m)?;
    Ok(Subcommand::Train(train::TrainConfig {
        data,
        out,
        filter: filter(&m)?,
        epochs: m.get("--epochs", number)?.unwrap_or(train::DEFAULT_EPOCHS),
        batch: m
            .get("--batch", |n, v| positive(n, v).map(|b| b as usize))?
            .unwrap_or(train::DEFAULT_BATCH),
        learning_rate: m
            .get("--lr", |n, v| nonnegative(n, v, false))?
            .unwrap_or(train::DEFAULT_LEARNING_RATE),
        lr_step: m
            .get("--lr-step", |n, v| positive(n, v).map(|s| s as usize))?
            .unwrap_or(train::DEFAULT_LR_STEP),
        lr_gamma: m
            .get("--lr-gamma", |n, v| fraction(n, v, true))?
            .unwrap_or(train::DEFAULT_LR_GAMMA),
        lr_schedule: m
            .get("--lr-schedule", |n, v| {
                choice(
                    n,
                    v,
                    &[("step", LrSchedule::Step), ("cosine", LrSchedule::Cosine)],
                )
            })?
            .unwrap_or(LrSchedule::Step),
        lr_end: m
            .get("--lr-end", |n, v| nonnegative(n, v, false))?
            .unwrap_or(train::DEFAULT_LR_END),
        hidden: m
            .get("--hidden", |n, v| {
                let hidden: usize = number(n, v)?;
                if !crate::nnue::hidden_width_allowed(hidden) {
                    return Err(CliError(format!(
                        "{n} must be a multiple of {step} from {step} to {max}, not `{v}`",
                        step = crate::nnue::HIDDEN_STEP,
                        max = crate::nnue::MAX_HIDDEN
                    )));
                }
                Ok(hidden)
            })?
            .unwrap_or(crate::nnue::DEFAULT_HIDDEN),
        output_buckets: m
            .get("--output-buckets", |n, v| {
                choice(n, v, &[("1", 1), ("8", 8)])
            })?
            .unwrap_or(1),
        activation: m
            .get("--activation", |n, v| {
                choice(
                    n,
                    v,
                    &[
                        ("crelu", Activation::ClippedRelu),
                        ("screlu", Activation::SquaredClippedRelu),
                    ],
                )
            })?
            .unwrap_or(Activation::ClippedRelu),
        input_transform: if m.switch("--mirror-inputs") {
            InputTransform::MirroredByKingFile
        } else {
            InputTransform::Plain
        },
        lambda: m
            .get("--lambda", |n, v| fraction(n, v, true))?
            .unwrap_or(train::DEFAULT_LAMBDA),
        seed: m.get("--seed", number)?.unwrap_or(0),
        holdout: m
            .get("--holdout", |n, v| fraction(n, v, false))?
            .unwrap_or(train::DEFAULT_HOLDOUT),
        flip_files: m.switch("--flip-files"),
        threads: options.threads_or_all_cores(),
    }))
}

impl DatagenArgs {
    /// The run these arguments ask for, with the evaluation and options given.
    pub fn config(
        self,
        options: &GlobalOptions,
        evaluation: crate::nnue::Evaluation,
    ) -> crate::tools::datagen::DatagenConfig {
        crate::tools::datagen::DatagenConfig {
            out: self.out,
            threads: options.threads_or_all_cores(),
            hash_mb: options
                .hash_mb
                .unwrap_or(crate::tools::datagen::DEFAULT_HASH_MB),
            games: self.games,
            nodes: self.nodes.unwrap_or(DEFAULT_DATAGEN_NODES),
            seed: self.seed.unwrap_or_else(rand::random),
            openings: self.openings,
            evaluation,
        }
    }
}

impl SpsaArgs {
    /// The run these arguments ask for, with the evaluation and options given.
    pub fn config(
        self,
        options: &GlobalOptions,
        evaluation: crate::nnue::Evaluation,
    ) -> crate::tools::spsa::SpsaConfig {
        crate::tools::spsa::SpsaConfig {
            state: self.state,
            params: self.params.map(|names| {
                names
                    .iter()
                    .filter_map(|n| crate::search::params::find_param(n))
                    .collect()
            }),
            pairs: self.pairs,
            nodes: self.nodes,
            default_nodes: DEFAULT_DATAGEN_NODES,
            seed: self.seed,
            openings: self.openings,
            out: self.out,
            stop_after: self.stop_after,
            threads: options.threads_or_all_cores(),
            hash_mb: options
                .hash_mb
                .unwrap_or(crate::tools::datagen::DEFAULT_HASH_MB),
            evaluation,
        }
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
    fn the_usage_text_names_every_flag_once_and_fits_the_terminal() {
        let text = usage();
        for command in COMMANDS {
            assert!(text.contains(command.name), "{}", command.name);
            for flag in command
                .flags
                .iter()
                .flat_map(|g| g.iter())
                .chain(command.shared)
            {
                assert!(text.contains(flag.name()), "{}", flag.name());
            }
        }
        for flag in GLOBAL_FLAGS {
            let line = format!("\n  {}", flag.names.join(", "));
            assert_eq!(text.matches(&line).count(), 1, "{line}");
        }
        assert!(text.contains("--hash MB             transposition table size (default 64)"));
        assert!(text.contains("--nodes N             soft node limit per move (default 5000)"));
        for line in text.lines() {
            assert!(line.chars().count() <= 92, "{line}");
        }
    }

    #[test]
    fn global_options_are_read_anywhere_and_each_has_a_setter() {
        for flag in GLOBAL_FLAGS {
            if flag.takes == flags::Takes::Nothing {
                continue;
            }
            let value = match flag.name() {
                "--log-level" => "info",
                "--protocol" => "uci",
                "--evaluation" => "classical",
                "--driver" => "iterative",
                "--log-dir" | "--eval-file" => "x",
                _ => "2",
            };
            let line = format!("bench 1 {}={value}", flag.name());
            assert!(cli(&line).is_ok(), "{line}");
        }
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
        let Subcommand::Train(train) = command(
            "train --data corpus --out n.nnue --min-ply 16 --keep-check --keep-tactical --max-score 3000",
        ) else {
            panic!("not train");
        };
        assert_eq!(train.filter, filter);
        // The network's shape and the schedule: the trainer's defaults unless given.
        assert_eq!(
            (
                train.output_buckets,
                train.activation,
                train.lr_schedule,
                train.lr_end
            ),
            (
                1,
                crate::nnue::Activation::ClippedRelu,
                crate::tools::train::LrSchedule::Step,
                crate::tools::train::DEFAULT_LR_END
            )
        );
        let Subcommand::Train(train) = command(
            "train --data corpus --out n.nnue --output-buckets 8 --activation screlu \
             --lr-schedule cosine --lr-end 0.00001 --hidden 256",
        ) else {
            panic!("not train");
        };
        assert_eq!(train.output_buckets, 8);
        assert_eq!(train.hidden, 256);
        assert_eq!(
            train.activation,
            crate::nnue::Activation::SquaredClippedRelu
        );
        assert_eq!(train.lr_schedule, crate::tools::train::LrSchedule::Cosine);
        assert_eq!(train.lr_end, 0.00001);
        assert_eq!(train.input_transform, crate::nnue::InputTransform::Plain);
        let Subcommand::Train(train) =
            command("train --data corpus --out n.nnue --mirror-inputs --flip-files")
        else {
            panic!("not train");
        };
        let config = train;
        assert_eq!(
            config.input_transform,
            crate::nnue::InputTransform::MirroredByKingFile
        );
        // Mirrored inputs see a position and its a-h mirror alike: no doubling.
        assert!(config.flip_files && !config.flips_files());
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
            Subcommand::Datagen(DatagenArgs {
                out: PathBuf::from("d.bin"),
                games: Some(4),
                nodes: Some(900),
                seed: Some(7),
                openings: None
            })
        );
        assert_eq!(
            command("spsa --state s.tsv --params rfpmargin,LmrBase --pairs 4 --stop-after 2"),
            Subcommand::Spsa(SpsaArgs {
                state: PathBuf::from("s.tsv"),
                params: Some(vec!["RfpMargin", "LmrBase"]),
                pairs: Some(4),
                nodes: None,
                seed: None,
                openings: None,
                out: None,
                stop_after: Some(2),
            })
        );
        assert_eq!(
            command(
                "--threads 2 tune --data a.bin --data=b.bin --out w.rs --epochs 3 --lambda 0.25"
            ),
            Subcommand::Tune(crate::tools::tune::TuneConfig {
                data: vec![PathBuf::from("a.bin"), PathBuf::from("b.bin")],
                filter: Filter::default(),
                out: PathBuf::from("w.rs"),
                epochs: 3,
                batch: crate::tools::tune::DEFAULT_BATCH,
                learning_rate: crate::tools::tune::DEFAULT_LEARNING_RATE,
                lambda: 0.25,
                seed: 0,
                threads: 2,
                holdout: 0.0,
                l2: 0.0,
                resolve: false,
                min_positions: 0,
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
            "spsa",
            "spsa --state",
            "spsa --state s --params Bogus",
            "spsa --state s --params RfpMargin,rfpmargin",
            "spsa --state s --params RfpMargin,",
            "spsa --state s --pairs 0",
            "spsa --state s --stop-after x",
            "corpus",
            "corpus list",
            "corpus add",
            "corpus verify extra",
            "corpus verify --out x",
            "corpus stats --dir d",
            "corpus stats --min-ply x",
            "corpus convert old.bin --out new.iwc",
            "tune --data d.iwc --out w.rs --max-score",
            "tune",
            "tune --data d.bin",
            "tune --out w.rs",
            "tune --data d.bin --out w.rs --lambda 2",
            "tune --data d.bin --out w.rs --lr 0",
            "tune --data d.bin --out w.rs --batch 0",
            "tune --data d.bin --out w.rs --holdout 1",
            "tune --data d.bin --out w.rs --l2 -1",
            "train --data d.iwc --out n.nnue --output-buckets 4",
            "train --data d.iwc --out n.nnue --hidden 100",
            "train --data d.iwc --out n.nnue --hidden 0",
            "train --data d.iwc --out n.nnue --hidden 2048",
            "train --data d.iwc --out n.nnue --activation relu",
            "train --data d.iwc --out n.nnue --lr-schedule linear",
            "train --data d.iwc --out n.nnue --lr-end -1",
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
