//! The numbers a user can give: their bounds, shared by the command line and the protocol
//! rooms so both refuse or cap the same values with the same words (table size, threads,
//! clocks, depths), and their defaults where the user gives none.

/// The largest transposition table anyone may ask for (1 TB); more is refused outright.
pub const MAX_HASH_MB: u64 = 1 << 20;
/// The most search threads anyone may ask for (the search's own cap); XBoard's `cores` caps
/// further at the machine's processors.
pub use crate::search::MAX_THREADS;
/// Clocks, time controls and increments above this (30 days) are refused: no game is played
/// at such controls, and the time arithmetic stays far from overflowing.
pub const MAX_CLOCK_MS: u64 = 30 * 24 * 3600 * 1000;
/// Search depths above this are refused (the search clamps to its own maximum anyway).
pub const MAX_DEPTH: u32 = 1000;
/// Node rates above this (`nps`) are refused.
pub const MAX_NPS: u64 = 1_000_000_000;
/// Moves per session in `level` above this are refused.
pub const MAX_MOVES_PER_SESSION: u32 = 10_000;
/// Time kept back per move for pipe and GUI lag (`Move Overhead`, `--move-overhead`): most.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
/// Most lines a Multi-PV search reports (`MultiPV`).
pub const MAX_MULTIPV: usize = 64;
/// Perft and bench depths above this are refused (perft 64 would never finish anyway).
pub const MAX_CLI_DEPTH: u32 = 64;

/// The table size (`Hash`, `memory`, `--hash`) when none is given.
pub const DEFAULT_HASH_MB: usize = 64;
/// The move overhead when none is given.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;
/// `ironwood bench`'s depth when none is given.
pub const DEFAULT_BENCH_DEPTH: u32 = 11;
/// `ironwood epd`'s time per position when none is given.
pub const DEFAULT_EPD_MS: u64 = 1000;
/// `ironwood datagen`'s soft node limit per move when none is given.
pub const DEFAULT_DATAGEN_NODES: u64 = 5000;

/// Where the system cannot tell the available memory it is assumed to be this.
const ASSUMED_AVAILABLE_MB: u64 = 4096;

/// A table size after the memory cap, with the note to show the user when it was capped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashSize {
    pub mb: usize,
    /// Set when the request was lowered.
    pub note: Option<String>,
}

/// The largest table this machine takes now: half the available memory (what `cap_hash_mb`
/// allows; UCI announces it as the `Hash` maximum).
pub fn hash_cap_mb() -> u64 {
    cap_for(available_memory_mb())
}

/// Half of `available_mb`, within 1 MB and `MAX_HASH_MB`.
fn cap_for(available_mb: u64) -> u64 {
    (available_mb / 2).clamp(1, MAX_HASH_MB)
}

/// Caps a table size at half the available memory: a failed allocation would abort the
/// process. `--hash` and `memory N` both go through here.
pub fn cap_hash_mb(requested: u64) -> HashSize {
    cap_hash_mb_with(requested, available_memory_mb())
}

fn cap_hash_mb_with(requested: u64, available_mb: u64) -> HashSize {
    let mb = requested.clamp(1, cap_for(available_mb));
    let note = (mb < requested).then(|| {
        format!(
            "hash {requested} MB is more than half the available memory ({available_mb} MB); \
             using {mb} MB"
        )
    });
    HashSize {
        mb: usize::try_from(mb).unwrap_or(1),
        note,
    }
}

/// The memory available now (`sys`), or the assumption where the system cannot say.
fn available_memory_mb() -> u64 {
    crate::sys::available_memory_mb().unwrap_or(ASSUMED_AVAILABLE_MB)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_capped_at_half_the_available_memory() {
        assert_eq!(cap_hash_mb_with(64, 8000).mb, 64);
        assert_eq!(cap_hash_mb_with(64, 8000).note, None);
        let capped = cap_hash_mb_with(10_000, 8000);
        assert_eq!(capped.mb, 4000);
        assert_eq!(
            capped.note.as_deref(),
            Some("hash 10000 MB is more than half the available memory (8000 MB); using 4000 MB")
        );
        assert_eq!(cap_hash_mb_with(0, 8000).mb, 1);
        assert_eq!(cap_hash_mb_with(u64::MAX, 1).mb, 1);
        assert_eq!(
            cap_hash_mb_with(u64::MAX, u64::MAX).mb,
            MAX_HASH_MB as usize
        );
    }
}
