//! The command line, each flag declared once as a field of the structs below, with its help,
//! default and bounds; `clap`'s derive writes the parser and the help text from them (the
//! only module that uses the crate). Global options go before or after the subcommand;
//! without one Ironwood plays on stdin and stdout. `run.rs` carries out a parsed command
//! line. Never panics; a usage mistake is a `CliError` (exit status 2).

mod run;

pub use run::run_command_line;

use std::path::PathBuf;

use clap::{Args, CommandFactory, FromArgMatches, Parser};

use crate::engine::limits::{
    DEFAULT_BENCH_DEPTH, DEFAULT_DATAGEN_NODES, DEFAULT_EPD_MS, DEFAULT_HASH_MB,
    DEFAULT_MOVE_OVERHEAD_MS, MAX_CLI_DEPTH, MAX_CLOCK_MS, MAX_HASH_MB, MAX_MOVE_OVERHEAD_MS,
    MAX_THREADS,
};
use crate::logging::{LogLevel, LogLimits, LogSettings, MAX_LOG_MB, MB, MIN_FILE_BYTES};
use crate::nnue::{Activation, InputTransform, KingBuckets};
use crate::protocol::Protocol;
use crate::tools::corpus::filter::{ALL_GAMES, Filter, Starts};
use crate::tools::datagen;
use crate::tools::spsa::DEFAULT_PAIRS;
use crate::tools::train::{self, LrSchedule};
use crate::tools::tune;

/// The corpus folder when none is named.
pub const DEFAULT_CORPUS_DIR: &str = "corpus";

/// Without a subcommand Ironwood plays on stdin and stdout: UCI when the first command is
/// `uci`, otherwise the XBoard/WinBoard protocol (CECP v2). Start it from a GUI, e.g.
/// `xboard -fcp ironwood`, or as a UCI engine. `ironwood help COMMAND` tells more.
#[derive(Parser, Clone, Debug, PartialEq)]
#[command(
    name = "ironwood",
    verbatim_doc_comment,
    next_line_help = true,
    args_override_self = true
)]
pub struct Cli {
    #[command(flatten)]
    pub options: GlobalOptions,
    /// `None`: a protocol session.
    #[command(subcommand)]
    pub command: Option<Subcommand>,
}

/// Options of every mode. Those a session has as an option too reach it through the setter
/// `setoption` and `option` use (`run.rs`, `GlobalOptions::engine_settings`).
#[derive(Args, Clone, Debug, Default, PartialEq)]
#[command(next_help_heading = "Global options")]
pub struct GlobalOptions {
    #[arg(long = "hash", value_name = "MB", global = true, allow_negative_numbers = true,
          value_parser = whole::<usize>(1, MAX_HASH_MB),
          help = format!("transposition table size (default {DEFAULT_HASH_MB}; bench: {}, datagen and spsa: {})",
                  crate::tools::bench::DEFAULT_HASH_MB, datagen::DEFAULT_HASH_MB))]
    pub hash_mb: Option<usize>,
    /// search threads (default 1; the tools: every core)
    #[arg(long, value_name = "N", global = true, allow_negative_numbers = true,
          value_parser = whole::<usize>(1, MAX_THREADS))]
    pub threads: Option<usize>,
    #[arg(long = "move-overhead", value_name = "MS", global = true, allow_negative_numbers = true,
          value_parser = whole::<u64>(0, MAX_MOVE_OVERHEAD_MS),
          help = format!("time kept back per move for GUI/pipe lag (default {DEFAULT_MOVE_OVERHEAD_MS})"))]
    pub move_overhead_ms: Option<u64>,
    /// folder for log files (default $IRONWOOD_LOG_DIR, else ./logs)
    #[arg(long, value_name = "DIR", global = true, value_parser = not_empty)]
    pub log_dir: Option<PathBuf>,
    /// off, error, warn, info, protocol, debug, trace (default $RUST_LOG, else debug)
    #[arg(long, value_name = "LEVEL", global = true)]
    pub log_level: Option<LogLevel>,
    /// a log file rolls over to the next number at this size (default 10)
    #[arg(long = "log-max-mb", value_name = "MB", global = true, value_parser = megabytes)]
    pub log_max_bytes: Option<u64>,
    /// the oldest log files are deleted beyond this total (default 100)
    #[arg(long = "log-keep-mb", value_name = "MB", global = true, value_parser = megabytes)]
    pub log_keep_bytes: Option<u64>,
    /// uci or xboard: speak P whatever the first command is
    #[arg(long, value_name = "P", global = true,
          value_parser = one_of(&[("uci", Protocol::Uci), ("xboard", Protocol::Xboard)]))]
    pub protocol: Option<Protocol>,
    /// nnue or classical: the evaluation searches use (option Evaluation; default nnue)
    #[arg(long, value_name = "E", global = true,
          value_parser = one_of(&[("classical", "classical"), ("nnue", "nnue")]))]
    pub evaluation: Option<&'static str>,
    /// the NNUE network to use instead of the embedded one (option EvalFile)
    #[arg(long, value_name = "FILE", global = true, value_parser = not_empty)]
    pub eval_file: Option<PathBuf>,
    /// Syzygy table folders, `:`-separated (`;` on Windows) (option SyzygyPath)
    #[arg(long, value_name = "DIRS", global = true, value_parser = not_empty)]
    pub syzygy_path: Option<PathBuf>,
    /// recursive (default) or iterative: how the search runs (option Search Driver)
    #[arg(long, value_name = "D", global = true,
          value_parser = one_of(&[("recursive", "recursive"), ("iterative", "iterative")]))]
    pub driver: Option<&'static str>,
    /// announce the search's switches and constants as options (settable without it)
    #[arg(long, global = true)]
    pub tunables: bool,
    /// set any option, the lab's too (repeatable; before a subcommand)
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = name_value)]
    pub option: Vec<(String, String)>,
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

    /// The flags that are options too, as (flag, option, value) for `EngineOptions::set`, in
    /// the order they are set (the network before the evaluation that uses it). No option
    /// counterpart: the log flags (fractions of a megabyte, and needed before a session
    /// starts), `--protocol` and `--tunables` (which options a GUI is shown).
    pub(crate) fn engine_settings(&self) -> Vec<(&'static str, String, String)> {
        fn text(value: Option<impl ToString>) -> Option<String> {
            value.map(|v| v.to_string())
        }
        let file = self.eval_file.as_ref().map(|f| f.to_string_lossy());
        let tables = self.syzygy_path.as_ref().map(|f| f.to_string_lossy());
        [
            ("--hash", "Hash", text(self.hash_mb)),
            ("--threads", "Threads", text(self.threads)),
            (
                "--move-overhead",
                "Move Overhead",
                text(self.move_overhead_ms),
            ),
            ("--eval-file", "EvalFile", text(file)),
            ("--evaluation", "Evaluation", text(self.evaluation)),
            ("--driver", "Search Driver", text(self.driver)),
            ("--syzygy-path", "SyzygyPath", text(tables)),
        ]
        .into_iter()
        .filter_map(|(flag, name, value)| Some((flag, name.to_string(), value?)))
        .chain(
            self.option
                .iter()
                .map(|(name, value)| ("--option", name.clone(), value.clone())),
        )
        .collect()
    }
}

#[derive(clap::Subcommand, Clone, Debug, PartialEq)]
pub enum Subcommand {
    /// perft divide of FEN (default: the start position), or with --epd a perft suite
    Perft(PerftArgs),
    /// fixed-depth search of the bench positions, then `N nodes X nps` last
    ///
    /// Prints a line per position, `nodes N time_ms T nps X`, then `N nodes X nps` last.
    Bench {
        #[arg(default_value_t = DEFAULT_BENCH_DEPTH, value_parser = depth)]
        depth: u32,
    },
    /// the search's tunable constants, one a line in OpenBench's SPSA input format
    ///
    /// Each line: `Name, int, default, min, max, c_end, r_end`.
    #[command(verbatim_doc_comment)]
    Params,
    /// solve an EPD suite (bm, am, dm); prints `solved S of T` last
    Epd {
        file: PathBuf,
        /// time per position
        #[arg(long, value_name = "MS", default_value_t = DEFAULT_EPD_MS,
              value_parser = whole::<u64>(1, MAX_CLOCK_MS))]
        ms: u64,
    },
    /// self-play games for the corpus, one per thread, written to a new shard
    ///
    /// One game per thread (default: all cores), each written whole to the new shard --out;
    /// runs until killed without --games.
    #[command(verbatim_doc_comment)]
    Datagen(DatagenArgs),
    /// tune the search's constants by OpenBench's SPSA; prints the tuned values
    ///
    /// Game pairs at a node limit between engines with theta perturbed each way, --threads
    /// pairs at a time (default: all cores). --state holds the run's place after every pair,
    /// and an existing state file is resumed.
    #[command(verbatim_doc_comment)]
    Spsa(SpsaArgs),
    /// the training corpus: add, verify, stats
    #[command(subcommand)]
    Corpus(CorpusCommand),
    /// fit every evaluation weight to the games, writing a weights.rs
    ///
    /// Writes to --out the epoch with the lowest held-out loss.
    Tune(TuneArgs),
    /// fit the NNUE network to the games
    ///
    /// Writes a checkpoint FILE-stem.epochN.nnue after each epoch, and to --out FILE the
    /// epoch with the lowest validation loss.
    #[command(verbatim_doc_comment)]
    Train(TrainArgs),
    /// how well the evaluations predict games: each one's loss, as the trainer's
    ///
    /// The hand-written evaluation, the embedded network and each --net, scored through the
    /// engine's evaluation on the positions the filter keeps (games none of them trained on
    /// compare them fairly).
    #[command(verbatim_doc_comment)]
    Loss(LossArgs),
}

#[derive(Args, Clone, Debug, PartialEq)]
pub struct PerftArgs {
    #[arg(required_unless_present = "epd", conflicts_with = "epd", value_parser = depth)]
    pub depth: Option<u32>,
    /// the position's FEN fields
    pub fen: Vec<String>,
    /// a perft suite (`FEN ;D1 n ;D2 n ...`) instead; exit status 1 on a mismatch
    #[arg(long, value_name = "FILE")]
    pub epd: Option<PathBuf>,
    /// the suite's deepest count checked
    #[arg(long, value_name = "D", conflicts_with = "depth", value_parser = depth)]
    pub max_depth: Option<u32>,
}

#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct DatagenArgs {
    /// the new shard (never overwritten)
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// stop after N games
    #[arg(long, value_name = "N", value_parser = whole::<u64>(1, u64::MAX))]
    pub games: Option<u64>,
    /// soft node limit per move
    #[arg(long, value_name = "N", default_value_t = DEFAULT_DATAGEN_NODES,
          value_parser = whole::<u64>(1, u64::MAX))]
    pub nodes: u64,
    /// the games' random numbers (default: random, recorded in the file)
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// start from these positions plus 2-4 random plies instead of 8-9 from the start
    #[arg(long, value_name = "EPD")]
    pub openings: Option<PathBuf>,
    #[arg(long = "dfrc-share", value_name = "PER_CENT", allow_negative_numbers = true,
          value_parser = whole::<u32>(0, 100),
          default_value_t = datagen::DEFAULT_DFRC_PERCENT,
          help = "start this share of the games from double Fischer random positions (each \
                  side's back rank one of Chess960's, drawn apart) plus 8-9 random plies; 0 for none")]
    pub dfrc_percent: u32,
    #[arg(long, value_name = "RULES", value_parser = adjudication_rules,
          help = format!("end a game when its scores say the result: WIN_CP,WIN_PLIES,DRAW_CP,\
                  DRAW_PLIES,DRAW_FROM_PLY (a win at |score| >= WIN_CP for WIN_PLIES plies in a \
                  row, a draw at |score| <= DRAW_CP for DRAW_PLIES plies from ply DRAW_FROM_PLY), \
                  or off (default {})", datagen::Adjudication::DEFAULT.flag()))]
    pub adjudication: Option<AdjudicationRules>,
}

/// `--adjudication`'s value: the rules, or none (`off`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdjudicationRules(pub Option<datagen::Adjudication>);

fn adjudication_rules(text: &str) -> Result<AdjudicationRules, String> {
    datagen::Adjudication::parse(text).map(AdjudicationRules)
}

/// `None`: the state file's value when resuming, else the default.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct SpsaArgs {
    /// the state file (settings, iteration, theta), rewritten after every pair
    #[arg(long, value_name = "FILE", value_parser = not_empty)]
    pub state: PathBuf,
    /// the constants to tune, as `ironwood params` names them (default: all)
    #[arg(long, value_name = "A,B,...", value_parser = param_names)]
    pub params: Option<::std::vec::Vec<&'static str>>,
    #[arg(long, value_name = "N", value_parser = whole::<u64>(1, u64::MAX),
          help = format!("the run's planned iterations, which the schedule ends at (default {DEFAULT_PAIRS})"))]
    pub pairs: Option<u64>,
    #[arg(long, value_name = "N", value_parser = whole::<u64>(1, u64::MAX),
          help = format!("soft node limit per move (default {DEFAULT_DATAGEN_NODES})"))]
    pub nodes: Option<u64>,
    /// the openings' and perturbations' random numbers (default: random, kept in FILE)
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// start from these positions plus 2-4 random plies instead of 8-9 from the start
    #[arg(long, value_name = "EPD")]
    pub openings: Option<PathBuf>,
    /// also write every game to this new corpus file, as datagen does
    #[arg(long, value_name = "SHARD")]
    pub out: Option<PathBuf>,
    /// play at most N pairs now; running again resumes
    #[arg(long, value_name = "N", value_parser = whole::<u64>(1, u64::MAX))]
    pub stop_after: Option<u64>,
}

#[derive(clap::Subcommand, Clone, Debug, PartialEq, Eq)]
pub enum CorpusCommand {
    /// pack datagen output into new shards of the corpus, with a MANIFEST line each
    Add {
        #[arg(value_name = "FILE", required = true)]
        outputs: Vec<PathBuf>,
        /// the corpus folder
        #[arg(long, value_name = "DIR", default_value = DEFAULT_CORPUS_DIR)]
        dir: PathBuf,
    },
    /// check every shard against the manifest: size, checksums, games, positions
    Verify {
        /// the corpus folder
        #[arg(long, value_name = "DIR", default_value = DEFAULT_CORPUS_DIR)]
        dir: PathBuf,
    },
    /// games, positions, positions kept, results, endings, lengths, scores per shard
    Stats {
        /// shards, datagen output or corpus folders
        #[arg(value_name = "PATH", default_value = DEFAULT_CORPUS_DIR)]
        paths: Vec<PathBuf>,
        #[command(flatten)]
        filter: FilterArgs,
    },
}

/// Which of the games' positions a reader takes; the random opening plies are never read.
#[derive(Args, Clone, Copy, Debug, PartialEq, Eq)]
#[command(next_help_heading = "Filter")]
pub struct FilterArgs {
    /// skip the first N plies of each game
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub min_ply: u16,
    /// skip positions scored further from zero (default: mate scores only)
    #[arg(long, value_name = "CP")]
    pub max_score: Option<i32>,
    /// keep positions in check (skipped by default)
    #[arg(long)]
    pub keep_check: bool,
    /// keep positions whose played move captures or promotes (skipped by default)
    #[arg(long)]
    pub keep_tactical: bool,
    /// all, standard or chess960: the games read, by their start position
    #[arg(long, value_name = "S", default_value = "all", value_parser = one_of(&[
        ("all", Starts::All), ("standard", Starts::Standard), ("chess960", Starts::Chess960)]))]
    pub starts: Starts,
    /// read this share of the games, chosen by a hash of each game's moves
    #[arg(long = "game-share", value_name = "F", default_value = "1", value_parser = per_million)]
    pub games_per_million: u32,
}

impl FilterArgs {
    pub fn filter(&self) -> Filter {
        let default = Filter::default();
        Filter {
            min_ply: self.min_ply,
            max_score: self.max_score.unwrap_or(default.max_score),
            skip_in_check: !self.keep_check,
            skip_tactical: !self.keep_tactical,
            starts: self.starts,
            games_per_million: self.games_per_million,
        }
    }
}

/// The games a fitting tool reads and the file it writes.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct FitFiles {
    /// a corpus shard or folder (repeatable)
    #[arg(long, value_name = "PATH", required = true)]
    pub data: Vec<PathBuf>,
    /// the file written
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

#[derive(Args, Clone, Debug, PartialEq)]
pub struct TuneArgs {
    #[command(flatten)]
    pub files: FitFiles,
    #[command(flatten)]
    pub filter: FilterArgs,
    /// passes over the data
    #[arg(long, value_name = "N", default_value_t = tune::DEFAULT_EPOCHS)]
    pub epochs: usize,
    /// positions per step
    #[arg(long, value_name = "N", default_value_t = tune::DEFAULT_BATCH,
          value_parser = whole::<usize>(1, u64::MAX))]
    pub batch: usize,
    /// learning rate
    #[arg(long = "lr", value_name = "X", default_value_t = tune::DEFAULT_LEARNING_RATE,
          value_parser = real(0.0, false, f64::INFINITY, false))]
    pub learning_rate: f64,
    /// share of the game result in the target (the rest: the search score)
    #[arg(long, value_name = "X", default_value_t = tune::DEFAULT_LAMBDA,
          value_parser = real(0.0, true, 1.0, true))]
    pub lambda: f64,
    /// shuffling seed
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// the last fraction of the positions is not trained on
    #[arg(long, value_name = "F", default_value_t = 0.0, value_parser = real(0.0, true, 1.0, false))]
    pub holdout: f64,
    /// penalty on the distance from the current weights
    #[arg(long, value_name = "X", default_value_t = 0.0,
          value_parser = real(0.0, true, f64::INFINITY, false))]
    pub l2: f64,
    /// fit the end of each position's capture line, found by quiescence
    #[arg(long)]
    pub resolve: bool,
    /// weights that fire in fewer positions keep their current value
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub min_positions: usize,
}

#[derive(Args, Clone, Debug, PartialEq)]
pub struct TrainArgs {
    #[command(flatten)]
    pub files: FitFiles,
    #[command(flatten)]
    pub filter: FilterArgs,
    /// passes over the data
    #[arg(long, value_name = "N", default_value_t = train::DEFAULT_EPOCHS)]
    pub epochs: usize,
    /// positions per step
    #[arg(long, value_name = "N", default_value_t = train::DEFAULT_BATCH,
          value_parser = whole::<usize>(1, u64::MAX))]
    pub batch: usize,
    /// learning rate
    #[arg(long = "lr", value_name = "X", default_value_t = train::DEFAULT_LEARNING_RATE,
          value_parser = real(0.0, false, f64::INFINITY, false))]
    pub learning_rate: f64,
    /// the learning rate is multiplied by --lr-gamma every N epochs
    #[arg(long, value_name = "N", default_value_t = train::DEFAULT_LR_STEP,
          value_parser = whole::<usize>(1, u64::MAX))]
    pub lr_step: usize,
    /// see --lr-step
    #[arg(long, value_name = "X", default_value_t = train::DEFAULT_LR_GAMMA,
          value_parser = real(0.0, true, 1.0, true))]
    pub lr_gamma: f64,
    /// step (--lr-step, --lr-gamma) or cosine (from --lr to --lr-end)
    #[arg(long, value_name = "S", default_value = "step",
          value_parser = one_of(&[("step", LrSchedule::Step), ("cosine", LrSchedule::Cosine)]))]
    pub lr_schedule: LrSchedule,
    /// the cosine schedule's learning rate at the last step
    #[arg(long, value_name = "X", default_value_t = train::DEFAULT_LR_END,
          value_parser = real(0.0, false, f64::INFINITY, false))]
    pub lr_end: f64,
    #[arg(long, value_name = "N", default_value_t = crate::nnue::DEFAULT_HIDDEN,
          value_parser = hidden_width,
          help = format!("hidden width per view: a multiple of {} up to {}",
                         crate::nnue::HIDDEN_STEP, crate::nnue::MAX_HIDDEN))]
    pub hidden: usize,
    /// 1, or 8 output layers chosen by the number of pieces
    #[arg(long, value_name = "N", default_value = "1", value_parser = one_of(&[("1", 1usize), ("8", 8)]))]
    pub output_buckets: usize,
    /// crelu (clipped ReLU) or screlu (squared clipped ReLU)
    #[arg(long, value_name = "A", default_value = "crelu", value_parser = one_of(&[
        ("crelu", Activation::ClippedRelu), ("screlu", Activation::SquaredClippedRelu)]))]
    pub activation: Activation,
    /// each view mirrors the board a-h when its own king is on files e-h (file version 3)
    #[arg(long)]
    pub mirror_inputs: bool,
    /// sets of input weights by the own king's square: 1; 2 (back rank, rest); 4 (back rank
    /// a, b, g, h; back rank c-f; second rank; rest) (file version 4)
    #[arg(long, value_name = "N", default_value = "1", value_parser = king_buckets)]
    pub king_buckets: KingBuckets,
    /// train the king buckets' weights beside one shared set, added to each on export
    #[arg(long)]
    pub factorise: bool,
    /// share of the game result in the target (the rest: the search score)
    #[arg(long, value_name = "X", default_value_t = train::DEFAULT_LAMBDA,
          value_parser = real(0.0, true, 1.0, true))]
    pub lambda: f64,
    /// the result's share at the last step, from --lambda at the first in a straight line
    /// (default: --lambda throughout); the validation loss is taken at it
    #[arg(long, value_name = "X", value_parser = real(0.0, true, 1.0, true))]
    pub lambda_end: Option<f64>,
    /// initialisation and shuffling seed
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// fraction of the games held out for the validation loss
    #[arg(long, value_name = "F", default_value_t = train::DEFAULT_HOLDOUT,
          value_parser = real(0.0, true, 1.0, false))]
    pub holdout: f64,
    /// also train on each position mirrored a-h (not with --mirror-inputs)
    #[arg(long)]
    pub flip_files: bool,
}

#[derive(Args, Clone, Debug, PartialEq)]
pub struct LossArgs {
    /// a corpus shard or folder (repeatable)
    #[arg(long, value_name = "PATH", required = true)]
    pub data: Vec<PathBuf>,
    #[command(flatten)]
    pub filter: FilterArgs,
    /// a network file to score too (repeatable)
    #[arg(long = "net", value_name = "FILE")]
    pub networks: Vec<PathBuf>,
    /// share of the game result in the target (the rest: the search score)
    #[arg(long, value_name = "X", default_value_t = train::DEFAULT_LAMBDA,
          value_parser = real(0.0, true, 1.0, true))]
    pub lambda: f64,
}

impl TuneArgs {
    pub fn config(self, threads: usize) -> tune::TuneConfig {
        tune::TuneConfig {
            data: self.files.data,
            out: self.files.out,
            filter: self.filter.filter(),
            epochs: self.epochs,
            batch: self.batch,
            learning_rate: self.learning_rate,
            lambda: self.lambda,
            seed: self.seed,
            threads,
            holdout: self.holdout,
            l2: self.l2,
            resolve: self.resolve,
            min_positions: self.min_positions,
        }
    }
}

impl TrainArgs {
    pub fn config(self, threads: usize) -> train::TrainConfig {
        train::TrainConfig {
            data: self.files.data,
            out: self.files.out,
            filter: self.filter.filter(),
            epochs: self.epochs,
            batch: self.batch,
            learning_rate: self.learning_rate,
            lr_schedule: self.lr_schedule,
            lr_step: self.lr_step,
            lr_gamma: self.lr_gamma,
            lr_end: self.lr_end,
            hidden: self.hidden,
            output_buckets: self.output_buckets,
            activation: self.activation,
            input_transform: if self.mirror_inputs {
                InputTransform::MirroredByKingFile
            } else {
                InputTransform::Plain
            },
            king_buckets: self.king_buckets,
            factorised: self.factorise,
            lambda: self.lambda,
            lambda_end: self.lambda_end.unwrap_or(self.lambda),
            seed: self.seed,
            threads,
            holdout: self.holdout,
            flip_files: self.flip_files,
        }
    }
}

/// A usage mistake (exit status 2), or the help or version asked for (exit status 0).
#[derive(Debug)]
pub struct CliError(clap::Error);

impl CliError {
    /// 2 for a mistake, 0 for `--help` and `--version`.
    pub fn exit_code(&self) -> i32 {
        self.0.exit_code()
    }

    /// Help and version go to stdout; a mistake to stderr, after `ironwood: `.
    pub fn print(&self) {
        let text = self.0.render().to_string();
        if self.0.use_stderr() {
            eprint!(
                "ironwood: {}",
                text.strip_prefix("error: ").unwrap_or(&text)
            );
        } else {
            print!("{text}");
        }
    }
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Cli, CliError> {
    let version: &'static str = Box::leak(crate::version().into_boxed_str());
    Cli::command()
        .version(version)
        .try_get_matches_from(std::iter::once("ironwood").chain(args.iter().map(String::as_str)))
        .and_then(|matches| Cli::from_arg_matches(&matches))
        .map_err(CliError)
}

/// A parser of whole numbers from `low` to `high`; anything else (junk, overflow) is one
/// clear error.
fn whole<T: TryFrom<u64>>(low: u64, high: u64) -> impl Fn(&str) -> Result<T, String> + Clone {
    move |text| {
        let n = text
            .parse::<u64>()
            .ok()
            .filter(|n| (low..=high).contains(n));
        n.and_then(|n| T::try_from(n).ok())
            .ok_or_else(|| match high {
                u64::MAX => format!("must be a whole number, at least {low}"),
                _ => format!("must be a whole number from {low} to {high}"),
            })
    }
}

/// A parser of finite numbers above `low` (or equal: `low_in`) and below `high` (`high_in`).
fn real(
    low: f64,
    low_in: bool,
    high: f64,
    high_in: bool,
) -> impl Fn(&str) -> Result<f64, String> + Clone {
    move |text| {
        let x: f64 = text.parse().map_err(|_| "is not a number".to_string())?;
        let above = x > low || low_in && x == low;
        let below = x < high || high_in && x == high;
        if x.is_finite() && above && below {
            return Ok(x);
        }
        let from = if low_in { "from" } else { "above" };
        Err(match (high.is_finite(), high_in) {
            (false, _) => format!("must be a number {from} {low}"),
            (true, true) => format!("must be a number {from} {low} to {high}"),
            (true, false) => format!("must be a number {from} {low} and below {high}"),
        })
    }
}

/// A share above 0 up to 1, in millionths.
fn per_million(text: &str) -> Result<u32, String> {
    let share = real(0.0, false, 1.0, true)(text)?;
    Ok(((share * f64::from(ALL_GAMES)).round() as u32).max(1))
}

/// A parser of one of `choices` (the value as typed, the result).
fn one_of<T: Copy>(choices: &'static [(&str, T)]) -> impl Fn(&str) -> Result<T, String> + Clone {
    move |text| {
        let found = choices.iter().find(|(name, _)| *name == text);
        found.map(|(_, t)| *t).ok_or_else(|| {
            let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
            format!("must be {}", names.join(" or "))
        })
    }
}

fn hidden_width(text: &str) -> Result<usize, String> {
    let (step, max) = (crate::nnue::HIDDEN_STEP, crate::nnue::MAX_HIDDEN);
    text.parse::<usize>()
        .ok()
        .filter(|&n| crate::nnue::hidden_width_allowed(n))
        .ok_or_else(|| format!("must be a multiple of {step} from {step} to {max}"))
}

fn king_buckets(text: &str) -> Result<KingBuckets, String> {
    let layouts = train::network::KING_BUCKET_LAYOUTS;
    text.parse::<usize>()
        .ok()
        .and_then(train::network::king_bucket_layout)
        .ok_or_else(|| format!("must be one of {layouts:?}"))
}

fn depth(text: &str) -> Result<u32, String> {
    whole::<u32>(0, u64::from(MAX_CLI_DEPTH))(text)
}

/// `NAME=VALUE`, split at the first `=` (a value may hold more), the name not empty.
fn name_value(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.to_string()))
        }
        _ => Err("must be NAME=VALUE".to_string()),
    }
}

fn not_empty(text: &str) -> Result<PathBuf, String> {
    match text {
        "" => Err("must not be empty".to_string()),
        _ => Ok(PathBuf::from(text)),
    }
}

/// A size in megabytes (fractions allowed) as bytes, from `MIN_FILE_BYTES` to `MAX_LOG_MB`.
fn megabytes(text: &str) -> Result<u64, String> {
    let min_mb = MIN_FILE_BYTES as f64 / MB as f64;
    let mb = real(min_mb, true, MAX_LOG_MB as f64, true)(text)?;
    Ok((mb * MB as f64).round() as u64)
}

/// A comma-separated list of the search's constants, each once.
fn param_names(text: &str) -> Result<Vec<&'static str>, String> {
    let mut names: Vec<&'static str> = Vec::new();
    for name in text.split(',') {
        let param = crate::search::params::find_param(name)
            .ok_or_else(|| format!("unknown constant `{name}` (`ironwood params` lists them)"))?;
        if names.contains(&param.name) {
            return Err(format!("{} twice", param.name));
        }
        names.push(param.name);
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    /// clap's own checks of the declarations (names, groups, positionals) in one place.
    #[test]
    fn the_declarations_are_consistent() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
