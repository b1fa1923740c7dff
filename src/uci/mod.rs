//! The UCI room: `command` parses a line into a `Command`; the session answering in UCI
//! sits over the same engine core as the XBoard room.

pub mod command;
