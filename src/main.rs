//! Entry point: parse the command line, then a protocol session (XBoard or UCI) or a subcommand.

use ironwood::cli::{self, Cli, DEFAULT_HASH_MB, Subcommand};
use ironwood::nnue::{Evaluation, Network};
use ironwood::protocol::{self, StartConfig};
use ironwood::search::SearchDriver;
use ironwood::xboard::options::DEFAULT_MOVE_OVERHEAD_MS;
use ironwood::{bench, epd, limits, logging, perft_command, sys};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Cli { options, command } = match cli::parse(&args) {
        Ok(cli) => cli,
        Err(error) => {
            eprintln!("ironwood: {error}");
            std::process::exit(2);
        }
    };
    // `--hash` gets the same memory cap, and says so in the same words, as `memory N`.
    let hash_mb = options.hash_mb.map(|mb| {
        let size = limits::cap_hash_mb(mb as u64);
        if let Some(note) = &size.note {
            eprintln!("ironwood: {note}");
        }
        size.mb
    });
    let threads = options.threads.unwrap_or(1);
    let code = match command {
        Subcommand::Help => {
            print!("{}", cli::USAGE);
            0
        }
        Subcommand::Version => {
            println!("ironwood {}", ironwood::version());
            0
        }
        Subcommand::Xboard => {
            sys::ignore_sigint();
            if sys::stdin_is_terminal() {
                eprintln!(
                    "Ironwood {}: a chess engine speaking the XBoard protocol and UCI; waiting for XBoard commands (or `uci`) on stdin.",
                    ironwood::version()
                );
                eprintln!("`ironwood --help` lists subcommands and options; `quit` leaves.");
            }
            let defaults = logging::LogLimits::default();
            let log_limits = logging::LogLimits {
                file_bytes: options.log_max_bytes.unwrap_or(defaults.file_bytes),
                keep_bytes: options.log_keep_bytes.unwrap_or(defaults.keep_bytes),
            };
            let log = logging::init(&logging::LogSettings {
                dir: options.log_dir.clone(),
                level: options.log_level,
                limits: log_limits,
            });
            protocol::run(StartConfig {
                hash_mb: hash_mb.unwrap_or(DEFAULT_HASH_MB),
                threads,
                move_overhead_ms: options.move_overhead_ms.unwrap_or(DEFAULT_MOVE_OVERHEAD_MS),
                startup_warning: log.warning,
                log_limits,
                protocol: options.protocol,
                classical: options.classical,
                eval_file: options
                    .eval_file
                    .as_ref()
                    .map(|f| f.to_string_lossy().into_owned()),
                driver: options.driver,
            });
            0
        }
        Subcommand::Perft { depth, fen } => {
            report(perft_command::run_divide(depth, fen.as_deref()))
        }
        Subcommand::PerftSuite { file, max_depth } => {
            match perft_command::run_suite(&file.to_string_lossy(), max_depth) {
                Ok(true) => 0,
                Ok(false) => 1,
                Err(e) => report(Err(e)),
            }
        }
        Subcommand::Bench { depth } => {
            let evaluation = cli_evaluation(&options);
            let r = bench::run(
                depth.unwrap_or(bench::DEFAULT_DEPTH),
                hash_mb.unwrap_or(bench::DEFAULT_HASH_MB),
                true,
                evaluation,
                options.driver.unwrap_or(SearchDriver::Recursive),
            );
            let nps = u128::from(r.nodes) * 1000 / r.time_ms.max(1);
            println!("nodes {} time_ms {} nps {nps}", r.nodes, r.time_ms);
            // OpenBench reads the signature and speed from the last line in this shape.
            println!("{} nodes {nps} nps", r.nodes);
            0
        }
        Subcommand::Datagen {
            out,
            games,
            nodes,
            seed,
            openings,
        } => {
            let evaluation = cli_evaluation(&options);
            let config = ironwood::datagen::DatagenConfig {
                evaluation,
                out,
                threads: options
                    .threads
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                hash_mb: options
                    .hash_mb
                    .unwrap_or(ironwood::datagen::DEFAULT_HASH_MB),
                games,
                nodes: nodes.unwrap_or(ironwood::datagen::DEFAULT_NODES),
                seed,
                openings,
            };
            report(ironwood::datagen::run(&config))
        }
        Subcommand::Tune(args) => {
            use ironwood::tune;
            let config = tune::TuneConfig {
                data: args.data,
                out: args.out,
                epochs: args.epochs.unwrap_or(tune::DEFAULT_EPOCHS),
                batch: args.batch.unwrap_or(tune::DEFAULT_BATCH),
                learning_rate: args.learning_rate.unwrap_or(tune::DEFAULT_LEARNING_RATE),
                lambda: args.lambda.unwrap_or(tune::DEFAULT_LAMBDA),
                seed: args.seed,
                holdout: args.holdout,
                l2: args.l2,
                resolve: args.resolve,
                min_positions: args.min_positions,
                threads: options
                    .threads
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            };
            report(tune::run(&config))
        }
        Subcommand::Train(args) => {
            use ironwood::train;
            let config = train::TrainConfig {
                data: args.data,
                out: args.out,
                epochs: args.epochs.unwrap_or(train::DEFAULT_EPOCHS),
                batch: args.batch.unwrap_or(train::DEFAULT_BATCH),
                learning_rate: args.learning_rate.unwrap_or(train::DEFAULT_LEARNING_RATE),
                lr_step: args.lr_step.unwrap_or(train::DEFAULT_LR_STEP),
                lr_gamma: args.lr_gamma.unwrap_or(train::DEFAULT_LR_GAMMA),
                lambda: args.lambda.unwrap_or(train::DEFAULT_LAMBDA),
                seed: args.seed,
                holdout: args.holdout.unwrap_or(train::DEFAULT_HOLDOUT),
                flip_files: args.flip_files,
                threads: options
                    .threads
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            };
            report(train::run(&config))
        }
        Subcommand::Epd { file, ms } => {
            let hash_mb = hash_mb.unwrap_or(DEFAULT_HASH_MB);
            report(epd::run(&file.to_string_lossy(), ms, hash_mb, threads).map(|_| ()))
        }
    };
    std::process::exit(code);
}

/// The evaluation `--evaluation` and `--eval-file` ask for (bench, datagen); a network
/// that cannot be loaded ends the run with status 1, as nothing else would say so.
fn cli_evaluation(options: &cli::GlobalOptions) -> Evaluation {
    let network = match &options.eval_file {
        Some(file) => match Network::load(file) {
            Ok(network) => Network::intern(network),
            Err(e) => {
                eprintln!("ironwood: --eval-file {}: {e}", file.display());
                std::process::exit(1);
            }
        },
        None => Network::embedded(),
    };
    if options.classical {
        Evaluation::Classical
    } else {
        Evaluation::Nnue(network)
    }
}

/// Exit status 0, or the error on stderr and 1.
fn report(result: Result<(), String>) -> i32 {
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("ironwood: {e}");
            1
        }
    }
}
