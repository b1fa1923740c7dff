//! What a parsed command line starts: a protocol session on the settings the flags gave
//! (through the setter `setoption` and `option` use), or a tool on its configuration; each
//! gives back the exit status main.rs ends with.

use super::{Cli, CorpusCommand, GlobalOptions, Subcommand};
use crate::engine::limits::{DEFAULT_DATAGEN_NODES, DEFAULT_HASH_MB, cap_hash_mb};
use crate::engine::options::{EngineOptions, SetError, Spelling, check_word};
use crate::tools::{bench, corpus::manifest, datagen, epd, perft_command, spsa, train, tune};
use crate::{logging, sys};

/// Parses `args` (those after the program name) and does what they ask; returns the exit
/// status (2 for a usage mistake, 1 for a failure, said on stderr).
pub fn run_command_line(args: &[String]) -> i32 {
    let Cli {
        mut options,
        command,
    } = match super::parse(args) {
        Ok(cli) => cli,
        Err(error) => {
            sys::end_quietly_on_broken_pipe();
            error.print();
            return error.exit_code();
        }
    };
    // `--hash` gets the same memory cap, and says so in the same words, as `memory N`; every
    // mode (the tools too) sees the capped size.
    options.hash_mb = options.hash_mb.map(|mb| {
        let size = cap_hash_mb(mb as u64);
        if let Some(note) = &size.note {
            eprintln!("ironwood: {note}");
        }
        size.mb
    });
    let Some(command) = command else {
        serve(&options);
        return 0;
    };
    run_tool(command, &options).unwrap_or_else(|e| {
        eprintln!("ironwood: {e}");
        1
    })
}

/// A subcommand; `Ok(1)` when a perft suite finds a mismatch (said on stdout).
fn run_tool(command: Subcommand, options: &GlobalOptions) -> Result<i32, String> {
    sys::end_quietly_on_broken_pipe();
    let threads = options.threads_or_all_cores();
    let tool_hash_mb = options.hash_mb.unwrap_or(datagen::DEFAULT_HASH_MB);
    match command {
        Subcommand::Perft(args) => match args.epd {
            Some(file) => {
                let matched = perft_command::run_suite(&file.to_string_lossy(), args.max_depth)?;
                return Ok(if matched { 0 } else { 1 });
            }
            None => {
                let fen = (!args.fen.is_empty()).then(|| args.fen.join(" "));
                perft_command::run_divide(args.depth.unwrap_or(0), fen.as_deref())?
            }
        },
        Subcommand::Bench { depth } => {
            let settings = tool_settings(options)?;
            settings
                .notices
                .iter()
                .for_each(|n| eprintln!("{}", n.text));
            let hash_mb = options.hash_mb.unwrap_or(bench::DEFAULT_HASH_MB);
            let r = bench::search_positions(depth, hash_mb, true, &settings.search);
            let nps = u128::from(r.nodes) * 1000 / r.time_ms.max(1);
            if settings.search.syzygy.tables.is_some() {
                println!("tbhits {}", r.tbhits);
            }
            println!("nodes {} time_ms {} nps {nps}", r.nodes, r.time_ms);
            // OpenBench reads the signature and speed from the last line in this shape.
            println!("{} nodes {nps} nps", r.nodes);
        }
        Subcommand::Params => {
            let defaults = crate::search::SearchParams::default();
            for line in crate::search::params::spsa_input_lines(&defaults) {
                println!("{line}");
            }
        }
        Subcommand::Epd { file, ms } => {
            let (hash_mb, threads) = (options.hash_mb.unwrap_or(DEFAULT_HASH_MB), options.threads);
            epd::solve_suite(&file.to_string_lossy(), ms, hash_mb, threads.unwrap_or(1))?;
        }
        Subcommand::Datagen(args) => {
            let config = datagen::DatagenConfig {
                out: args.out,
                threads,
                hash_mb: tool_hash_mb,
                games: args.games,
                nodes: args.nodes,
                seed: args.seed.unwrap_or_else(rand::random),
                openings: args.openings,
                evaluation: tool_settings(options)?.search.evaluation,
                dfrc_percent: args.dfrc_percent,
                adjudication: args
                    .adjudication
                    .map_or(Some(datagen::Adjudication::DEFAULT), |rules| rules.0),
            };
            eprintln!("datagen: seed {}", config.seed);
            datagen::generate_games(&config)?
        }
        Subcommand::Spsa(args) => spsa::tune_constants(&spsa::SpsaConfig {
            state: args.state,
            params: args.params.map(|names| {
                let found = names.iter().map(|n| crate::search::params::find_param(n));
                found.flatten().collect()
            }),
            pairs: args.pairs,
            nodes: args.nodes,
            default_nodes: DEFAULT_DATAGEN_NODES,
            seed: args.seed,
            openings: args.openings,
            out: args.out,
            stop_after: args.stop_after,
            threads,
            hash_mb: tool_hash_mb,
            evaluation: tool_settings(options)?.search.evaluation,
        })?,
        Subcommand::Corpus(command) => corpus(command, threads)?,
        Subcommand::Tune(args) => tune::fit_weights(&args.config(threads))?,
        Subcommand::Train(args) => train::train_network(&args.config(threads))?,
        Subcommand::Loss(args) => {
            let report = train::loss::evaluation_losses(&train::loss::LossConfig {
                data: args.data,
                filter: args.filter.filter(),
                networks: args.networks,
                lambda: args.lambda,
                threads,
            })?;
            print!("{report}");
        }
    }
    Ok(0)
}

/// How the command line names options: as `GlobalOptions::engine_settings` does, or as
/// `--option` spells them, names and choices in any case, check boxes as UCI spells them.
const COMMAND_LINE: Spelling = Spelling {
    shown: |_| true,
    ignore_case: true,
    check: check_word,
};

/// The first settings: each flag that is an option too set through `EngineOptions::set`, the
/// setter of `setoption` and `option`, so both share bounds, words and effects. Also the
/// notes on the flags it refused (a network that cannot be loaded).
fn engine_settings(options: &GlobalOptions) -> (EngineOptions, Vec<String>) {
    let mut settings = EngineOptions {
        log_limits: options.log_settings().limits,
        announce_lab: options.tunables,
        ..EngineOptions::default()
    };
    let mut refused = Vec::new();
    for (flag, name, value) in options.engine_settings() {
        let mut result = settings.set(&name, &value, COMMAND_LINE);
        // Only the table: memory freed or taken since the cap above moves its range.
        if let Err(SetError::OutOfRange { high, .. }) = result
            && flag == "--hash"
        {
            result = settings.set(&name, &high.to_string(), COMMAND_LINE);
        }
        let given = if flag == "--option" {
            format!("{flag} {name}={value}")
        } else {
            format!("{flag} {value}")
        };
        match result {
            Ok(_) => {}
            Err(SetError::File { why, .. }) => refused.push(format!("{flag} {why}")),
            Err(SetError::Unknown) => refused.push(format!("{given}: no such option")),
            Err(SetError::OutOfRange { low, high, .. }) => {
                refused.push(format!("{given}: outside {low} to {high}"))
            }
            Err(SetError::BadValue(_)) => refused.push(format!("{given}: refused")),
        }
    }
    (settings, refused)
}

/// The settings for a tool (bench, datagen, spsa), where a refused flag ends the run.
fn tool_settings(options: &GlobalOptions) -> Result<EngineOptions, String> {
    match engine_settings(options) {
        (settings, refused) if refused.is_empty() => Ok(settings),
        (_, refused) => Err(refused.join("; ")),
    }
}

/// A protocol session on stdin/stdout, on the settings the flags gave.
fn serve(options: &GlobalOptions) {
    sys::ignore_signals();
    if sys::stdin_is_terminal() {
        eprintln!(
            "Ironwood {}: a chess engine speaking the XBoard protocol and UCI; waiting for XBoard commands (or `uci`) on stdin.",
            crate::version()
        );
        eprintln!("`ironwood --help` lists subcommands and options; `quit` leaves.");
    }
    // Said once to the GUI after its handshake (e.g. the log folder is not writable).
    let warning = logging::init(&options.log_settings()).warning;
    let (settings, refused) = engine_settings(options);
    refused.iter().for_each(|note| log::warn!("{note}"));
    let notes: Vec<String> = warning.into_iter().chain(refused).collect();
    let warning = (!notes.is_empty()).then(|| notes.join("; "));
    crate::protocol::serve(settings, options.protocol, warning);
}

fn corpus(command: CorpusCommand, threads: usize) -> Result<(), String> {
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
        CorpusCommand::Verify { dir } => println!("{}", manifest::verify(&dir, threads)?),
        CorpusCommand::Stats { paths, filter } => {
            print!("{}", manifest::stats(&paths, &filter.filter())?)
        }
    }
    Ok(())
}
