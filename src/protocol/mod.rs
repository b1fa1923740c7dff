//! Chooses the protocol room and runs it over one engine core: UCI when the first line that
//! is not blank is `uci`, XBoard otherwise (`xboard`, `protover`, a version-1 GUI's bare
//! move, anything else), unless `--protocol` forces one.

use std::sync::mpsc::Receiver;

use crate::engine::options::EngineOptions;
use crate::engine::{self, Event, Flow};
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

/// Speaks `protocol` (`None`: the one the first command chooses) on stdin/stdout with the
/// start-up `options` until `quit` or the end of input; `startup_warning` is said once to the
/// GUI after its handshake.
pub(crate) fn serve(
    options: EngineOptions,
    protocol: Option<Protocol>,
    startup_warning: Option<String>,
) {
    let Some((engine, inbox)) = engine::start(options) else {
        return;
    };
    let (protocol, early) = match protocol {
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
