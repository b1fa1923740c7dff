//! The only writer of protocol text, for both protocol rooms: whole lines through a locked
//! handle, flushed after every write (a GUI reads a pipe, which Rust may buffer), and logged
//! at debug level like every line read.

use std::io::Write;
use std::sync::Mutex;

/// Echoed input made safe for one protocol line: white-space control characters (tab,
/// line breaks) become spaces, other control characters `?`.
pub(crate) fn printable(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            c if !c.is_control() => c,
            c if c.is_whitespace() => ' ',
            _ => '?',
        })
        .collect()
}

pub(crate) struct Output {
    sink: Mutex<Box<dyn Write + Send>>,
}

impl Output {
    /// Protocol output on the process's stdout.
    pub(crate) fn stdout() -> Output {
        Output::to(Box::new(std::io::stdout()))
    }

    /// Output into any writer.
    pub(crate) fn to(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Mutex::new(sink),
        }
    }

    /// Writes `text` as exactly one line: embedded line breaks would reach the GUI as a
    /// second, bogus line, so they become spaces. Write errors (the GUI is gone) are logged
    /// and otherwise ignored; stdin's end will stop the engine.
    pub(crate) fn line(&self, text: &str) {
        self.write(std::slice::from_ref(&text), false);
    }

    /// A thinking line: logged under its own target, which `--log-level protocol` leaves out.
    pub(crate) fn thinking(&self, text: &str) {
        self.write(std::slice::from_ref(&text), true);
    }

    /// Thinking lines in one write, so a reader never gets part of the set.
    pub(crate) fn thinking_lines<S: AsRef<str>>(&self, lines: &[S]) {
        self.write(lines, true);
    }

    fn write<S: AsRef<str>>(&self, lines: &[S], thinking: bool) {
        let mut block = String::new();
        for text in lines {
            let start = block.len();
            block.extend(
                text.as_ref()
                    .chars()
                    .map(|c| if c == '\n' || c == '\r' { ' ' } else { c }),
            );
            let clean = &block[start..];
            if thinking {
                log::debug!(target: crate::logging::THINKING_TARGET, ">> {clean}");
            } else {
                log::debug!(">> {clean}");
            }
            block.push('\n');
        }
        let mut sink = match self.sink.lock() {
            Ok(sink) => sink,
            Err(poisoned) => poisoned.into_inner(),
        };
        let written = sink.write_all(block.as_bytes()).and_then(|()| sink.flush());
        if let Err(e) = written {
            log::warn!("cannot write to stdout: {e}");
        }
    }

    /// A debug line for the GUI's log (`feature debug=1` makes XBoard skip it).
    pub(crate) fn debug(&self, text: &str) {
        self.line(&format!("# {text}"));
    }
}

/// Output kept in memory, for tests that read back what a session wrote.
#[cfg(test)]
#[derive(Clone, Default)]
pub(crate) struct Captured(std::sync::Arc<Mutex<Vec<u8>>>);

#[cfg(test)]
impl Captured {
    /// An `Output` that writes here.
    pub(crate) fn output(&self) -> Output {
        Output::to(Box::new(self.clone()))
    }

    /// The lines written since the last call.
    pub(crate) fn take_lines(&self) -> Vec<String> {
        let bytes = std::mem::take(&mut *self.0.lock().unwrap());
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }
}

#[cfg(test)]
impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_call_without_embedded_breaks() {
        let captured = Captured::default();
        let out = captured.output();
        out.line("move e2e4");
        out.line("a\nb\rc");
        out.debug("hello");
        assert_eq!(captured.take_lines(), ["move e2e4", "a b c", "# hello"]);
    }
}
