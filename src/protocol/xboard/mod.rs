//! The XBoard room: `command` parses a line into a `Command`, `session` runs XBoard's mode
//! state machine over the engine core and answers through `crate::protocol::output`; `options` turns
//! XBoard's option text into the core's settings. `crate::protocol` starts it.

pub mod command;
pub mod options;
pub mod session;
