//! The engine's settings, whatever protocol sets them: move overhead, resignation, pondering,
//! log limits, Multi-PV, the search's `SearchFeatures` (a switch per technique, IID, driver,
//! evaluation), the network file, Chess960 and strength, with the ranges both protocols enforce
//! and the names they share (the switches, IID, driver and evaluation choices). Table size and
//! threads are not kept here (only `clamp_threads`, the machine's bound): the core hands them
//! straight to the search thread. The protocol rooms name the other options and turn their
//! text into these values.

use crate::board::CastlingMode;
use crate::logging::LogLimits;
use crate::nnue::{Evaluation, Network};
use crate::search::{IidMode, SearchDriver, SearchFeatures};

pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;
pub(crate) const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
/// Most lines a Multi-PV search reports.
pub(crate) const MAX_MULTIPV: usize = 64;
pub(crate) const DEFAULT_RESIGN_THRESHOLD: i32 = 800;
/// Centipawns, inclusive.
pub(crate) const RESIGN_THRESHOLD_RANGE: (i32, i32) = (200, 3000);
/// Largest `Random Seed`.
pub(crate) const MAX_RANDOM_SEED: u64 = 2_000_000_000;

/// Current values of every setting.
#[derive(Clone, Debug)]
pub(crate) struct EngineOptions {
    pub(crate) move_overhead_ms: u64,
    /// Resign when the score stays below `-resign_threshold` (off by default: testers and
    /// GUIs adjudicate themselves, and a resigning engine hides its endgame bugs).
    pub(crate) resign: bool,
    pub(crate) resign_threshold: i32,
    /// Think on the opponent's time (XBoard `hard`/`easy`).
    pub(crate) ponder: bool,
    /// The log's file size limit and folder budget.
    pub(crate) log_limits: LogLimits,
    /// Lines each search reports (Multi-PV), 1 to `MAX_MULTIPV`.
    pub(crate) multipv: usize,
    pub(crate) search: SearchFeatures,
    /// The network `Evaluation=NNUE` searches with, and the `EvalFile` it came from
    /// (`EMBEDDED_NETWORK` for the one in the binary).
    pub(crate) network: &'static Network,
    pub(crate) eval_file: String,
    /// Chess960 castling (XBoard `variant fischerandom`, UCI `UCI_Chess960`).
    pub(crate) chess960: bool,
    /// Play any root move within this many centipawns of the best (0: off).
    pub(crate) randomize_cp: u32,
    /// Seed of each game's move choice; 0 draws a new one from the clock every game.
    pub(crate) random_seed: u64,
    /// 0 to 20; below 20 the engine searches less and chooses among near-best moves.
    pub(crate) skill_level: u32,
    /// UCI `UCI_LimitStrength`: play at `elo` (it overrides Skill Level).
    pub(crate) limit_strength: bool,
    pub(crate) elo: u32,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            resign: false,
            resign_threshold: DEFAULT_RESIGN_THRESHOLD,
            ponder: false,
            log_limits: LogLimits::default(),
            multipv: 1,
            search: SearchFeatures::default(),
            network: Network::embedded(),
            eval_file: EMBEDDED_NETWORK.to_string(),
            chess960: false,
            randomize_cp: 0,
            random_seed: 0,
            skill_level: super::strength::MAX_SKILL_LEVEL,
            limit_strength: false,
            elo: super::strength::ELO_RANGE.1,
        }
    }
}

/// The `EvalFile` value that names the network built into the binary.
pub(crate) const EMBEDDED_NETWORK: &str = "<embedded>";

/// The `Evaluation` option's values.
pub(crate) const EVALUATION_CHOICES: [&str; 2] = ["Classical", "NNUE"];

impl EngineOptions {
    /// Which castling rights a FEN may give in this game.
    pub(crate) fn castling_mode(&self) -> CastlingMode {
        if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// The `Evaluation` option's current value.
    pub(crate) fn evaluation_name(&self) -> &'static str {
        match self.search.evaluation {
            Evaluation::Classical => EVALUATION_CHOICES[0],
            Evaluation::Nnue(_) => EVALUATION_CHOICES[1],
        }
    }

    /// Selects the evaluation by its option value (exact, or ignoring case for UCI);
    /// `None` if `name` is not one.
    pub(crate) fn set_evaluation(&mut self, name: &str, ignore_case: bool) -> Option<()> {
        let matches = |choice: &str| {
            if ignore_case {
                choice.eq_ignore_ascii_case(name)
            } else {
                choice == name
            }
        };
        self.search.evaluation = if matches(EVALUATION_CHOICES[0]) {
            Evaluation::Classical
        } else if matches(EVALUATION_CHOICES[1]) {
            Evaluation::Nnue(self.network)
        } else {
            return None;
        };
        Some(())
    }

    /// Loads the network in `file` (`EMBEDDED_NETWORK` or nothing: the built-in one). On
    /// failure nothing changes and the error says which network stays.
    pub(crate) fn set_eval_file(&mut self, file: &str) -> Result<(), String> {
        let network = if file.is_empty() || file == EMBEDDED_NETWORK {
            Network::embedded()
        } else {
            Network::load(std::path::Path::new(file))
                .map(Network::intern)
                .map_err(|e| format!("{file}: {e}; keeping the network {}", self.eval_file))?
        };
        self.network = network;
        self.eval_file = if file.is_empty() {
            EMBEDDED_NETWORK.to_string()
        } else {
            file.to_string()
        };
        if let Evaluation::Nnue(_) = self.search.evaluation {
            self.search.evaluation = Evaluation::Nnue(network);
        }
        log::info!("network {} from {}", network.checksum(), self.eval_file);
        Ok(())
    }
}

/// An on/off switch for a search technique: (option name, accessor).
pub(crate) type Switch = (&'static str, fn(&mut SearchFeatures) -> &mut bool);

pub(crate) const SWITCHES: [Switch; 17] = [
    ("Null Move", |f| &mut f.null_move),
    ("Late Move Reductions", |f| &mut f.late_move_reductions),
    ("Reverse Futility", |f| &mut f.reverse_futility),
    ("Futility", |f| &mut f.futility),
    ("Late Move Pruning", |f| &mut f.late_move_pruning),
    ("Check Extension", |f| &mut f.check_extension),
    ("Recapture Extension", |f| &mut f.recapture_extension),
    ("Aspiration Windows", |f| &mut f.aspiration),
    ("SEE Pruning", |f| &mut f.see_pruning),
    ("Histories", |f| &mut f.histories),
    ("History Pruning", |f| &mut f.history_pruning),
    ("Singular Extensions", |f| &mut f.singular_extensions),
    ("Correction History", |f| &mut f.correction_history),
    ("ProbCut", |f| &mut f.probcut),
    ("TT Eval", |f| &mut f.tt_eval),
    ("Re-search Depth", |f| &mut f.research_depth),
    ("Adaptive Time", |f| &mut f.adaptive_time),
];

/// The internal iterative deepening flavours by option value.
pub(crate) const IID_CHOICES: [(&str, IidMode); 3] = [
    ("Classic", IidMode::Classic),
    ("SelfDeepening", IidMode::SelfDeepening),
    ("Off", IidMode::Off),
];

/// The search drivers by option value (`Search Driver`, `--driver` in lower case).
pub(crate) const DRIVER_CHOICES: [(&str, SearchDriver); 2] = [
    ("Recursive", SearchDriver::Recursive),
    ("Iterative", SearchDriver::Iterative),
];

/// A requested thread count brought within 1 and the processors this machine has.
pub(crate) fn clamp_threads(requested: u64) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    usize::try_from(requested)
        .unwrap_or(usize::MAX)
        .clamp(1, cores.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_requests_are_brought_within_the_machine() {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        assert_eq!(clamp_threads(0), 1);
        assert_eq!(clamp_threads(1), 1);
        assert_eq!(clamp_threads(100_000), cores);
        assert_eq!(clamp_threads(u64::MAX), cores);
    }
}
