//! The subcommands beside the protocols: `bench`, `epd`, `perft`, `datagen`, `spsa`, `tune`,
//! `train` and the training corpus they share. They stand on the search and the board as a
//! protocol does, and nothing below them imports them (but the tests that borrow bench's
//! positions).

pub mod bench;
pub mod corpus;
pub mod datagen;
pub mod epd;
pub mod parallel;
pub mod perft_command;
pub mod spsa;
pub mod train;
pub mod tune;
