//! The XBoard room: `command` parses a line into a `Command`, `session` owns the game state
//! and answers, `output` is the only writer of stdout. `run` wires them to stdin and the
//! search thread.

pub mod command;
pub mod options;
pub mod output;
pub mod session;

use std::io::BufRead;
use std::sync::mpsc::{Sender, channel};

use crate::search::Searcher;
use crate::search::worker::SearchWorker;
use output::Output;
use session::{Event, Flow, Session};

pub use session::SessionConfig;

/// Speaks CECP on stdin/stdout until `quit` or the end of input.
pub fn run(config: SessionConfig) {
    let (events, inbox) = channel::<Event>();
    let reader_events = events.clone();
    let spawned = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_lines(std::io::stdin().lock(), &reader_events));
    if let Err(e) = spawned {
        log::error!("cannot start the input thread: {e}");
        return;
    }
    let searcher = Searcher::new(config.hash_mb.max(1), config.threads.max(1));
    let worker = SearchWorker::spawn(searcher, move |report| {
        let _ = events.send(Event::Search(report));
    });
    let mut session = Session::new(worker, Output::stdout(), config);
    while let Ok(event) = inbox.recv() {
        if session.handle(event) == Flow::Quit {
            break;
        }
    }
    log::info!("session ends");
    // Dropping the session stops and joins the search thread.
    drop(session);
}

/// The input thread: only reads lines (invalid UTF-8 is replaced, not fatal) and forwards
/// them; the end of input becomes `Event::Eof`.
pub fn read_lines(mut input: impl BufRead, events: &Sender<Event>) {
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) => break,
            Ok(_) => {
                let text = String::from_utf8_lossy(&buffer);
                let line = text.trim_end_matches(['\n', '\r']);
                log::debug!("<< {line}");
                if events.send(Event::Line(line.to_string())).is_err() {
                    return;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("cannot read stdin: {e}");
                break;
            }
        }
    }
    log::debug!("<< (end of input)");
    let _ = events.send(Event::Eof);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_splits_lines_and_survives_bad_utf8() {
        let (tx, rx) = channel();
        let input: &[u8] = b"xboard\r\nping \xff1\nlast";
        read_lines(input, &tx);
        let lines: Vec<String> = rx
            .try_iter()
            .map(|e| match e {
                Event::Line(l) => l,
                Event::Eof => "EOF".to_string(),
                Event::Search(_) => "search".to_string(),
            })
            .collect();
        assert_eq!(lines, ["xboard", "ping \u{fffd}1", "last", "EOF"]);
    }
}
