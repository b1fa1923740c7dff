//! Ironwood: a chess engine speaking the XBoard/WinBoard protocol (CECP v2).
//! Rooms and their one-way doors: xboard -> engine -> search -> eval -> board,
//! engine -> game -> board.

pub mod bench;
pub mod board;
pub mod cli;
pub mod engine;
pub mod epd;
pub mod eval;
pub mod game;
pub mod logging;
pub mod perft_command;
pub mod search;
pub mod sys;
pub mod uci;
pub mod xboard;
