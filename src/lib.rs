//! Ironwood: a chess engine speaking the XBoard/WinBoard protocol (CECP v2) and UCI.
//! Layers and their one-way doors: protocol (xboard | uci) -> engine -> search -> nnue ->
//! eval -> board; the tools beside the protocols; main.rs and cli/ on top. ARCHITECTURE.md
//! has the whole picture and its exceptions.

/// The commit this binary was built from (see `build.rs`).
pub const BUILD_COMMIT: &str = env!("IRONWOOD_COMMIT");

// Exported: the integration tests play positions, perft and games through it.
pub mod board;
// Exported: main.rs hands it the arguments; the tests check its limits.
pub mod cli;
// The protocol-free core: only the protocols and cli (the start-up settings, the bounds) use it.
pub(crate) mod engine;
// Used inside the crate only (the network's classical fallback, the tuner), but exported:
// the tuner's view of it (`EvalTrace::evaluate`, the layout's end) is read only by tests, and
// in a crate-private module those would be dead code.
pub mod eval;
// Exported: the log's settings are part of cli's public `GlobalOptions`.
pub mod logging;
// Exported: the tests compare the SIMD paths and the trainer's networks.
pub mod nnue;
// Exported: `--protocol`'s value is part of cli's public `GlobalOptions`; the tests read
// XBoard's result lines.
pub mod protocol;
// Exported: the tests run searches directly.
pub mod search;
// Exported: the tests compare its probes with python-chess on real tables.
pub mod tablebase;
// The process's few OS calls, for cli (SIGINT, is stdin a terminal) and engine::limits
// (available memory).
pub(crate) mod sys;
// Exported: the tests drive datagen, tune, train and the corpus.
pub mod tools;

/// The version that `--version`, UCI `id name`, XBoard `myname` and every log header show:
/// the package version, followed in a release build (`release.sh` sets IRONWOOD_BUILD at
/// compile time) by the commit and the bench signature it was built from, e.g.
/// `0.1.0 (commit 1a2b3c4, bench NODES)`, NODES being `ironwood bench`'s node count.
pub fn version() -> String {
    match option_env!("IRONWOOD_BUILD") {
        Some(build) if !build.is_empty() => format!("{} ({build})", env!("CARGO_PKG_VERSION")),
        _ => env!("CARGO_PKG_VERSION").to_string(),
    }
}
