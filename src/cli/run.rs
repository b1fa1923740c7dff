//! What a parsed command line starts: a protocol session on the settings the flags gave
//! (through the setters `setoption` and `option` use), or a tool on its configuration; each
//! gives back the exit status main.rs ends with.

use super::{Cli, CorpusCommand, GlobalOptions, Subcommand};
use crate::engine::limits::{DEFAULT_BENCH_DEPTH, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS};
use crate::engine::options::EngineOptions;
use crate::nnue::{Evaluation, Network};
use crate::search::SearchDriver;
use crate::tools::{bench, corpus::manifest, datagen, epd, perft_command, spsa, train, tune};
use crate::{logging, sys};

/// Parses `args` (those after the program name) and does what they ask; returns the exit
/// status (2 for a usage mistake).
pub fn run_command_line(args: &[String]) -> i32 {
    let Cli {
        mut options,
        command,
    } = match super::parse(args) {
        Ok(cli) => cli,
        Err(error) => {
            eprintln!("ironwood: {error}");
            return 2;
        }
    };
    // `--hash` gets the same memory cap, and says so in the same words, as `memory N`; every
    // mode (the tools too) sees the capped size.
    options.hash_mb = options.hash_mb.map(|mb| {
        let size = crate::engine::limits::cap_hash_mb(mb as u64);
        if let Some(note) = &size.note {
            eprintln!("ironwood: {note}");
        }
        size.mb
    });
    match command {
        Subcommand::Help => {
            print!("{}", super::usage());
            0
        }
        Subcommand::Version => {
            println!("ironwood {}", crate::version());
            0
        }
        Subcommand::Xboard => {
            serve(&options);
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
        Subcommand::Bench { depth } => print_bench(&options, depth),
        Subcommand::Params => {
            let defaults = crate::search::SearchParams::default();
            for line in crate::search::params::spsa_input_lines(&defaults) {
                println!("{line}");
            }
            0
        }
        Subcommand::Epd { file, ms } => {
            let hash_mb = options.hash_mb.unwrap_or(DEFAULT_HASH_MB);
            let threads = options.threads.unwrap_or(1);
            report(epd::solve_suite(&file.to_string_lossy(), ms, hash_mb, threads).map(|_| ()))
        }
        Subcommand::Datagen(args) => {
            let config = args.config(&options, evaluation(&options));
            eprintln!("datagen: seed {}", config.seed);
            report(datagen::generate_games(&config))
        }
        Subcommand::Spsa(args) => {
            let config = args.config(&options, evaluation(&options));
            report(spsa::tune_constants(&config))
        }
        Subcommand::Corpus(command) => report(corpus(command)),
        Subcommand::Tune(config) => report(tune::fit_weights(&config)),
        Subcommand::Train(config) => report(train::train_network(&config)),
    }
}

/// A protocol session on stdin/stdout. The flags set the session's first settings through
/// the setters `setoption` and `option` use.
fn serve(options: &GlobalOptions) {
    sys::ignore_sigint();
    if sys::stdin_is_terminal() {
        eprintln!(
            "Ironwood {}: a chess engine speaking the XBoard protocol and UCI; waiting for XBoard commands (or `uci`) on stdin.",
            crate::version()
        );
        eprintln!("`ironwood --help` lists subcommands and options; `quit` leaves.");
    }
    let log_settings = options.log_settings();
    // Said once to the GUI after its handshake (e.g. the log folder is not writable).
    let mut warning = logging::init(&log_settings).warning;
    let mut settings = EngineOptions {
        hash_mb: options.hash_mb.unwrap_or(DEFAULT_HASH_MB),
        threads: options.threads.unwrap_or(1),
        move_overhead_ms: options.move_overhead_ms.unwrap_or(DEFAULT_MOVE_OVERHEAD_MS),
        log_limits: log_settings.limits,
        announce_lab: options.tunables,
        ..EngineOptions::default()
    };
    if let Some(file) = &options.eval_file
        && let Err(e) = settings.set_eval_file(&file.to_string_lossy())
    {
        log::warn!("--eval-file {e}");
        let note = format!("--eval-file {e}");
        warning = Some(match warning {
            Some(earlier) => format!("{earlier}; {note}"),
            None => note,
        });
    }
    if options.classical {
        settings.set_evaluation("Classical", false);
    }
    if let Some(driver) = options.driver {
        settings.search.driver = driver;
    }
    crate::protocol::serve(settings, options.protocol, warning);
}

fn print_bench(options: &GlobalOptions, depth: Option<u32>) -> i32 {
    let r = bench::search_positions(
        depth.unwrap_or(DEFAULT_BENCH_DEPTH),
        options.hash_mb.unwrap_or(bench::DEFAULT_HASH_MB),
        true,
        evaluation(options),
        options.driver.unwrap_or(SearchDriver::Recursive),
    );
    let nps = u128::from(r.nodes) * 1000 / r.time_ms.max(1);
    println!("nodes {} time_ms {} nps {nps}", r.nodes, r.time_ms);
    // OpenBench reads the signature and speed from the last line in this shape.
    println!("{} nodes {nps} nps", r.nodes);
    0
}

/// The evaluation `--evaluation` and `--eval-file` ask for (bench, datagen, spsa); a network
/// that cannot be loaded ends the run with status 1, as nothing else would say so.
fn evaluation(options: &GlobalOptions) -> Evaluation {
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

fn corpus(command: CorpusCommand) -> Result<(), String> {
    match command {
        CorpusCommand::Add { dir, outputs } => {
            let added = manifest::add(&dir, &outputs)?;
            for note in &added.notes {
                eprintln!("corpus add: {note}");
            }
            for entry in &added.entries {
                println!(
                    "{}: {} games, {} positions, {} bytes ({:.2} bytes a position)",
                    dir.join(&entry.file).display(),
                    entry.games,
                    entry.positions,
                    entry.bytes,
                    entry.bytes as f64 / entry.positions.max(1) as f64
                );
            }
        }
        CorpusCommand::Verify { dir } => println!("{}", manifest::verify(&dir)?),
        CorpusCommand::Stats { paths, filter } => print!("{}", manifest::stats(&paths, &filter)?),
    }
    Ok(())
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
