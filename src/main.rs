//! Entry point: parse the command line, then a protocol session (XBoard or UCI) or a subcommand.

use ironwood::cli::{
    self, Cli, DEFAULT_BENCH_DEPTH, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, Subcommand,
};
use ironwood::nnue::{Evaluation, Network};
use ironwood::protocol::{self, StartConfig};
use ironwood::search::SearchDriver;
use ironwood::tools::{bench, epd, perft_command};
use ironwood::{logging, sys};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Cli {
        mut options,
        command,
    } = match cli::parse(&args) {
        Ok(cli) => cli,
        Err(error) => {
            eprintln!("ironwood: {error}");
            std::process::exit(2);
        }
    };
    // `--hash` gets the same memory cap, and says so in the same words, as `memory N`; every
    // mode (the tools too) sees the capped size.
    options.hash_mb = options.hash_mb.map(|mb| {
        let size = cli::cap_hash_mb(mb as u64);
        if let Some(note) = &size.note {
            eprintln!("ironwood: {note}");
        }
        size.mb
    });
    let code = match command {
        Subcommand::Help => {
            print!("{}", cli::usage());
            0
        }
        Subcommand::Version => {
            println!("ironwood {}", ironwood::version());
            0
        }
        Subcommand::Xboard => play(&options),
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
        Subcommand::Bench { depth } => bench(&options, depth),
        Subcommand::Params => {
            let defaults = ironwood::search::SearchParams::default();
            for line in ironwood::search::params::spsa_input_lines(&defaults) {
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
            let config = args.config(&options, cli_evaluation(&options));
            eprintln!("datagen: seed {}", config.seed);
            report(ironwood::tools::datagen::generate_games(&config))
        }
        Subcommand::Spsa(args) => {
            let config = args.config(&options, cli_evaluation(&options));
            report(ironwood::tools::spsa::tune_constants(&config))
        }
        Subcommand::Corpus(command) => report(corpus(command)),
        Subcommand::Tune(config) => report(ironwood::tools::tune::fit_weights(&config)),
        Subcommand::Train(config) => report(ironwood::tools::train::train_network(&config)),
    };
    std::process::exit(code);
}

/// A protocol session on stdin/stdout.
fn play(options: &cli::GlobalOptions) -> i32 {
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
    protocol::serve(StartConfig {
        hash_mb: options.hash_mb.unwrap_or(DEFAULT_HASH_MB),
        threads: options.threads.unwrap_or(1),
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
        tunables: options.tunables,
    });
    0
}

fn bench(options: &cli::GlobalOptions, depth: Option<u32>) -> i32 {
    let r = bench::search_positions(
        depth.unwrap_or(DEFAULT_BENCH_DEPTH),
        options.hash_mb.unwrap_or(bench::DEFAULT_HASH_MB),
        true,
        cli_evaluation(options),
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
fn corpus(command: cli::CorpusCommand) -> Result<(), String> {
    use ironwood::tools::corpus::manifest;
    match command {
        cli::CorpusCommand::Add { dir, outputs } => {
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
        cli::CorpusCommand::Verify { dir } => println!("{}", manifest::verify(&dir)?),
        cli::CorpusCommand::Stats { paths, filter } => {
            print!("{}", manifest::stats(&paths, &filter)?)
        }
    }
    Ok(())
}

fn report(result: Result<(), String>) -> i32 {
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("ironwood: {e}");
            1
        }
    }
}
