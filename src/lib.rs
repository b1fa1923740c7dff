//! Ironwood: a chess engine speaking the XBoard/WinBoard protocol (CECP v2) and UCI.
//! Rooms and their one-way doors: protocol -> xboard | uci -> engine -> search -> nnue -> eval
//! -> board, engine -> game -> board; the tools (bench, epd, perft, datagen, corpus, tune,
//! train) beside the protocols. ARCHITECTURE.md has the whole picture and its exceptions.

/// The commit this binary was built from (see `build.rs`).
pub const BUILD_COMMIT: &str = env!("IRONWOOD_COMMIT");

pub mod bench;
pub mod board;
pub mod cli;
pub mod corpus;
pub mod datagen;
pub(crate) mod engine;
pub mod epd;
pub mod eval;
pub mod game;
pub mod limits;
pub mod logging;
pub mod nnue;
pub mod output;
pub mod perft_command;
pub mod protocol;
pub mod search;
pub mod sys;
pub mod train;
pub mod tune;
pub mod uci;
pub mod xboard;

/// The version that `--version`, UCI `id name`, XBoard `myname` and every log header show:
/// the package version, followed in a release build (`release.sh` sets IRONWOOD_BUILD at
/// compile time) by the commit and the bench signature it was built from, e.g.
/// `0.1.0 (commit 1a2b3c4, bench 4574183)`.
pub fn version() -> String {
    match option_env!("IRONWOOD_BUILD") {
        Some(build) if !build.is_empty() => format!("{} ({build})", env!("CARGO_PKG_VERSION")),
        _ => env!("CARGO_PKG_VERSION").to_string(),
    }
}
