//! The XBoard room: `command` parses a line into a `Command`, `session` runs XBoard's mode
//! state machine over the engine core and answers, `output` is the only writer of stdout.
//! `run` wires them to the core's input and search threads.

pub mod command;
pub mod options;
pub mod output;
pub mod session;

use crate::engine::{self, EngineConfig};
use output::Output;
use session::{Flow, Session};

/// Settings fixed at start-up (command line).
#[derive(Clone, Debug)]
pub struct SessionConfig {
    pub hash_mb: usize,
    pub threads: usize,
    pub move_overhead_ms: u64,
    /// Said once as a `#` line after the handshake (e.g. the log folder is not writable).
    pub startup_warning: Option<String>,
}

/// Speaks CECP on stdin/stdout until `quit` or the end of input.
pub fn run(config: SessionConfig) {
    let Some((engine, inbox)) = engine::start(&EngineConfig {
        hash_mb: config.hash_mb,
        threads: config.threads,
        move_overhead_ms: config.move_overhead_ms,
    }) else {
        return;
    };
    let mut session = Session::new(engine, Output::stdout(), config.startup_warning);
    while let Ok(event) = inbox.recv() {
        if session.handle(event) == Flow::Quit {
            break;
        }
    }
    log::info!("session ends");
    // Dropping the session stops and joins the search thread.
    drop(session);
}
