//! The UCI room: `command` parses a line into a `Command`, `session` answers in UCI over
//! the engine core (through `crate::protocol::output`), `options` maps UCI option names and values to
//! the core's settings. `crate::protocol` starts it.

pub mod command;
pub mod options;
pub mod session;
