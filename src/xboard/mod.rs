//! The XBoard room: the nom parser that turns a line into a `Command`, and (later) the
//! session that owns the game state and answers.

pub mod command;
