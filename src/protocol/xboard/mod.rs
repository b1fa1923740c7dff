//! The XBoard room: `command` parses a line into a `Command`, `session` runs XBoard's mode
//! state machine over the engine core (replying through `crate::protocol::output`), `clock`
//! records the game's time, `options` turns XBoard's option text into the core's settings.

mod clock;
pub mod command;
pub mod options;
pub mod session;
