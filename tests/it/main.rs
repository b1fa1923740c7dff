//! The integration tests in one binary, so `cargo test` links the library once: a module per
//! layer, each driving the real binary (`CARGO_BIN_EXE_ironwood`) or the library from
//! outside. `common` starts engines and scratch folders for all of them.

mod common;

/// The layers' one-way imports, read from src/.
mod layers;

/// The rules: positions, moves, FEN, perft, Chess960.
mod board {
    mod chess960;
    mod perft_cli;
    mod playable;
    mod position_builder;
    mod rules;
}

/// The network and its options.
mod eval {
    mod nnue;
    mod nnue_options;
}

/// Searches, their drivers, Multi-PV, strength levels, the tunable constants and the Syzygy
/// tables.
mod search {
    mod many_threads;
    mod multipv;
    mod params;
    mod search_driver;
    mod searches;
    mod strength;
    mod syzygy;
}

/// XBoard and UCI through the binary, the options each announces, the own book, the command
/// line, logs and long sessions.
mod protocol {
    mod cli;
    mod faults;
    mod input_bounds;
    mod input_fuzz;
    mod lab_options;
    mod logs;
    mod own_book;
    mod protocol1;
    mod reuse;
    mod soak;
    mod uci_output;
    mod uci_protocol;
    mod xboard_fuzz;
    mod xboard_multipv;
    mod xboard_play;
    mod xboard_protocol;
}

/// datagen, the corpus, OpenBench's build and bench, the SPSA tuner, the tuner and the trainer.
mod tools {
    mod corpus;
    mod datagen;
    mod openbench;
    mod spsa;
    mod train;
    mod tune;
}

/// Real programs: XBoard, python-chess, Stockfish, Wine.
mod clients {
    mod real_clients;
    mod uci_clients;
    mod windows_wine;
}
