//! Chooses the protocol room and runs it over one engine core: UCI when the first line that
//! is not blank is `uci`, XBoard otherwise (`xboard`, `protover`, a version-1 GUI's bare
//! move, anything else), unless `--protocol` forces one.

use std::sync::mpsc::Receiver;

use crate::engine::{self, EngineConfig, Event, Flow};
use crate::protocol::output::Output;

#[cfg(test)]
pub(crate) mod harness;
pub(crate) mod output;
pub(crate) mod text;
pub mod uci;
pub mod xboard;

/// The protocol spoken on stdin/stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Xboard,
    Uci,
}

/// Settings fixed at start-up (command line).
#[derive(Clone, Debug)]
pub struct StartConfig {
    pub hash_mb: usize,
    pub threads: usize,
    pub move_overhead_ms: u64,
    /// Said once to the GUI after its handshake (e.g. the log folder is not writable).
    pub startup_warning: Option<String>,
    /// The log's size limits, shown and changed as options.
    pub log_limits: crate::logging::LogLimits,
    /// `--protocol`; `None` lets the first command decide.
    pub protocol: Option<Protocol>,
    /// `--evaluation classical`.
    pub classical: bool,
    /// `--eval-file`: a network to load instead of the embedded one.
    pub eval_file: Option<String>,
    /// `--driver`; `None` keeps the default.
    pub driver: Option<crate::search::SearchDriver>,
    /// `--tunables`: announce the search's constants with the other options.
    pub tunables: bool,
}

/// Speaks the chosen protocol on stdin/stdout until `quit` or the end of input.
pub fn serve(config: StartConfig) {
    let Some((mut engine, inbox)) = engine::start(&EngineConfig {
        hash_mb: config.hash_mb,
        threads: config.threads,
        move_overhead_ms: config.move_overhead_ms,
        log_limits: config.log_limits,
    }) else {
        return;
    };
    let mut startup_warning = config.startup_warning;
    if let Some(file) = &config.eval_file
        && let Err(e) = engine.options.set_eval_file(file)
    {
        log::warn!("--eval-file {e}");
        let note = format!("--eval-file {e}");
        startup_warning = Some(match startup_warning {
            Some(earlier) => format!("{earlier}; {note}"),
            None => note,
        });
    }
    if config.classical {
        engine.options.set_evaluation("Classical", false);
    }
    if let Some(driver) = config.driver {
        engine.options.search.driver = driver;
    }
    engine.options.announce_tunables = config.tunables;
    engine.apply_search_features();
    let (protocol, early) = match config.protocol {
        Some(protocol) => (protocol, Vec::new()),
        None => choose(&inbox),
    };
    log::info!("protocol: {protocol:?}");
    match protocol {
        Protocol::Xboard => {
            let mut session =
                xboard::session::Session::new(engine, Output::stdout(), startup_warning);
            drive(early, &inbox, |event| session.handle(event) == Flow::Quit);
        }
        Protocol::Uci => {
            let mut session = uci::session::Session::new(engine, Output::stdout(), startup_warning);
            drive(early, &inbox, |event| session.handle(event) == Flow::Quit);
        }
    }
    // The session (and with it the search thread) is dropped by now.
    log::info!("session ends");
}

/// Reads events up to the first line that is not blank and decides by it; returns the
/// events read, which the chosen session handles first.
fn choose(inbox: &Receiver<Event>) -> (Protocol, Vec<Event>) {
    let mut early = Vec::new();
    while let Ok(event) = inbox.recv() {
        let decided = match &event {
            Event::Line(line) => match line.split_whitespace().next() {
                None => None,
                Some("uci") => Some(Protocol::Uci),
                Some(_) => Some(Protocol::Xboard),
            },
            Event::Eof => Some(Protocol::Xboard),
            Event::Search(_) => None,
        };
        early.push(event);
        if let Some(protocol) = decided {
            return (protocol, early);
        }
    }
    (Protocol::Xboard, early)
}

/// Feeds the early events, then the channel's, to `handle` until it says to quit.
fn drive(early: Vec<Event>, inbox: &Receiver<Event>, mut handle: impl FnMut(Event) -> bool) {
    for event in early {
        if handle(event) {
            return;
        }
    }
    while let Ok(event) = inbox.recv() {
        if handle(event) {
            return;
        }
    }
}
