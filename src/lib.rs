//! Ironwood: a chess engine speaking the XBoard/WinBoard protocol (CECP v2).
//! Rooms and their one-way doors: xboard -> search -> eval -> board.

pub mod board;
pub mod perft_command;
