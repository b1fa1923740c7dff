//! The engine's settings, whatever protocol sets them: move overhead, resignation, pondering,
//! log limits, Multi-PV, the search's `SearchFeatures` (a switch per technique, IID, driver,
//! evaluation), the network file, the own book, Chess960 and strength, with the ranges both
//! protocols enforce and the names they share (the switches, IID, driver and evaluation
//! choices). Table size and threads are not kept here (only their bounds): the core hands them
//! straight to the search thread. The protocol rooms name the other options and turn their
//! text into these values. Each option's `Audience` says whether a GUI's list shows it always
//! (a user's setting) or only with `--tunables` (the lab's switches and constants).

use super::book::Book;
use super::strength::{ELO_RANGE, MAX_RANDOMIZE_CP, MAX_SKILL_LEVEL};
use crate::board::CastlingMode;
use crate::engine::limits::{
    DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, MAX_MOVE_OVERHEAD_MS, MAX_MULTIPV, MAX_THREADS,
};
use crate::logging::{LogLimits, MAX_LOG_MB, MB};
use crate::nnue::{Evaluation, Network};
use crate::search::{IidMode, SearchDriver, SearchFeatures};
use crate::tablebase::Tablebases;
use std::sync::Arc;

pub(crate) const DEFAULT_RESIGN_THRESHOLD: i32 = 800;
/// Centipawns, inclusive.
pub(crate) const RESIGN_THRESHOLD_RANGE: (i32, i32) = (200, 3000);
/// Largest `Random Seed`.
pub(crate) const MAX_RANDOM_SEED: u64 = 2_000_000_000;

/// Current values of every setting.
#[derive(Clone, Debug)]
pub(crate) struct EngineOptions {
    /// The transposition table's size as last set (after the memory cap).
    pub(crate) hash_mb: usize,
    /// Search threads as last set (within the machine's processors).
    pub(crate) threads: usize,
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
    pub(crate) network: Arc<Network>,
    pub(crate) eval_file: String,
    /// Chess960 castling (XBoard `variant fischerandom`, UCI `UCI_Chess960`).
    pub(crate) chess960: bool,
    /// Play from `book` while it has the position (off by default: testers and GUIs bring
    /// their own openings).
    pub(crate) own_book: bool,
    /// The `Book File` in use (`NO_BOOK` for none) and its checked contents.
    pub(crate) book_file: String,
    pub(crate) book: Option<Arc<Book>>,
    /// Play the book's heaviest move instead of one drawn by weight.
    pub(crate) book_best_move: bool,
    /// Consult the book only before this ply of the game (counted from its FEN's move number).
    pub(crate) book_depth: u32,
    /// Play any root move within this many centipawns of the best (0: off).
    pub(crate) randomize_cp: u32,
    /// Seed of each game's move choice; 0 draws a new one from the clock every game.
    pub(crate) random_seed: u64,
    /// 0 to 20; below 20 the engine searches less and chooses among near-best moves.
    pub(crate) skill_level: u32,
    /// UCI `UCI_LimitStrength`: play at `elo` (it overrides Skill Level).
    pub(crate) limit_strength: bool,
    pub(crate) elo: u32,
    /// Announce the lab's options, the technique switches and the search's constants
    /// (`--tunables`); they are settable by name either way.
    pub(crate) announce_lab: bool,
    /// `SyzygyPath` as given (empty: no tables); the tables are in `search.syzygy`.
    pub(crate) syzygy_path: String,
    /// What loading the tables found, for the session to tell the user once.
    pub(crate) notices: Vec<Notice>,
}

/// A message for the user about a setting's effect, in the protocol's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Notice {
    /// A problem the user must see (a damaged file or an unreadable folder left out) rather
    /// than a report (what loaded, a folder that does not exist).
    pub(crate) problem: bool,
    pub(crate) text: String,
}

/// The `SyzygyPath` value that means no tables (UCI GUIs show it as the default).
pub(crate) const NO_TABLES: &str = "<empty>";

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
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
            own_book: false,
            book_file: NO_BOOK.to_string(),
            book: None,
            book_best_move: false,
            book_depth: DEFAULT_BOOK_DEPTH,
            randomize_cp: 0,
            random_seed: 0,
            skill_level: super::strength::MAX_SKILL_LEVEL,
            limit_strength: false,
            elo: super::strength::ELO_RANGE.1,
            announce_lab: false,
            syzygy_path: String::new(),
            notices: Vec::new(),
        }
    }
}

/// The `EvalFile` value that names the network built into the binary.
pub(crate) const EMBEDDED_NETWORK: &str = "<embedded>";

/// The `Book File` value for no book (UCI's usual word for an empty string).
pub(crate) const NO_BOOK: &str = "<empty>";
/// Plies; books rarely reach past 40 moves, so the default leaves the whole book in play.
pub(crate) const DEFAULT_BOOK_DEPTH: u32 = 255;
pub(crate) const MAX_BOOK_DEPTH: u32 = 1000;

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
            Evaluation::Nnue(Arc::clone(&self.network))
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
                .map(Arc::new)
                .map_err(|e| format!("{file}: {e}; keeping the network {}", self.eval_file))?
        };
        self.eval_file = if file.is_empty() {
            EMBEDDED_NETWORK.to_string()
        } else {
            file.to_string()
        };
        if let Evaluation::Nnue(_) = self.search.evaluation {
            self.search.evaluation = Evaluation::Nnue(Arc::clone(&network));
        }
        log::info!("network {} from {}", network.checksum(), self.eval_file);
        self.network = network;
        Ok(())
    }

    /// Opens and checks the book in `file` (`NO_BOOK` or nothing: no book). A file that is
    /// no usable book turns the book off; the error says why.
    pub(crate) fn set_book_file(&mut self, file: &str) -> Result<(), String> {
        self.book = None;
        self.book_file = NO_BOOK.to_string();
        if file.is_empty() || file == NO_BOOK {
            log::info!("no book");
            return Ok(());
        }
        let book = Book::open(std::path::Path::new(file))
            .map_err(|e| format!("{file}: {e}; no book in use"))?;
        log::info!("book {file}: {} entries", book.len());
        self.book = Some(Arc::new(book));
        self.book_file = file.to_string();
        Ok(())
    }

    /// Loads the Syzygy tables of the folders in `paths` (`:`-separated on Unix, `;` on
    /// Windows; empty or `<empty>`: none) unless they are the ones loaded. Folders and files
    /// that cannot be used are left out, each with a notice; the rest are probed.
    pub(crate) fn set_syzygy_path(&mut self, paths: &str) {
        let paths = if paths == NO_TABLES { "" } else { paths };
        if paths == self.syzygy_path {
            return;
        }
        self.syzygy_path = paths.to_string();
        if paths.is_empty() {
            self.search.syzygy.tables = None;
            return;
        }
        let (tables, problems) = Tablebases::load(paths);
        for problem in problems {
            log::warn!("Syzygy table not used: {problem}");
            self.notices.push(Notice {
                problem: !problem.missing_folder,
                text: format!("Syzygy: not used: {problem}"),
            });
        }
        let text = format!(
            "Syzygy: {} table files, up to {} pieces, from {paths}",
            tables.file_count(),
            tables.max_pieces()
        );
        log::info!("{text}");
        self.notices.push(Notice {
            problem: false,
            text,
        });
        // Shared with the search, which drops its count when it gets the new features: the
        // old tables' files are closed then, a session changing paths keeps one set.
        self.search.syzygy.tables = (tables.file_count() > 0).then(|| Arc::new(tables));
    }
}

/// The internal iterative deepening flavours by option value.
pub(crate) const IID_CHOICES: [(&str, IidMode); 4] = [
    ("Classic", IidMode::Classic),
    ("SelfDeepening", IidMode::SelfDeepening),
    ("Reduction", IidMode::Reduction),
    ("Off", IidMode::Off),
];

/// The search drivers by option value (`Search Driver`, `--driver` in lower case).
pub(crate) const DRIVER_CHOICES: [(&str, SearchDriver); 2] = [
    ("Recursive", SearchDriver::Recursive),
    ("Iterative", SearchDriver::Iterative),
];

/// Which protocols show an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ShownTo {
    Both,
    /// UCI only: XBoard sets it by a command of its own (`memory`, `cores`, `hard`,
    /// `variant`) or has no use for it.
    Uci,
    /// XBoard only: UCI GUIs adjudicate and keep their own logs.
    Xboard,
}

/// Who sets an option, which decides whether a GUI's list shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Audience {
    /// A setting for someone playing or analysing: always announced.
    User,
    /// A technique switch or a search constant, for measuring the search in matches and
    /// tuning it: settable by name in both protocols, announced only with `--tunables` so a
    /// GUI user does not face dozens of knobs that only weaken the engine.
    Lab,
}

/// What the session must do after an option changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OptionEffect {
    Nothing,
    /// Resize the table to `EngineOptions::hash_mb`.
    Hash,
    /// Start `EngineOptions::threads` search threads.
    Threads,
    ClearHash,
    /// Hand the new `SearchFeatures` to the search thread.
    SearchFeatures,
    /// Hand the new log limits to the logger.
    LogLimits,
    /// Seed the move choice again (`Random Seed` changed).
    Reseed,
}

/// An option's kind, and how its value is read from and written to `EngineOptions`.
#[derive(Clone, Copy)]
pub(crate) enum OptionKind {
    Check {
        get: fn(&EngineOptions) -> bool,
        set: fn(&mut EngineOptions, bool),
    },
    /// A whole number within `range` (which may depend on the machine or the value now).
    Spin {
        range: fn(&EngineOptions) -> (i64, i64),
        get: fn(&EngineOptions) -> i64,
        set: fn(&mut EngineOptions, i64),
    },
    Combo {
        choices: &'static [&'static str],
        get: fn(&EngineOptions) -> &'static str,
        set: fn(&mut EngineOptions, &'static str),
    },
    Button,
    /// A file name; setting it may fail (the reason says what stays).
    File {
        /// What the file holds, for the refusal (`network`, `book`).
        holds: &'static str,
        get: fn(&EngineOptions) -> String,
        set: fn(&mut EngineOptions, &str) -> Result<(), String>,
    },
    /// Folders, separated as the OS separates PATH; what is unusable goes to `notices`.
    Path {
        get: fn(&EngineOptions) -> String,
        set: fn(&mut EngineOptions, &str),
    },
}

/// One option, declared once for both protocols, which render and parse it in their own
/// syntax (`protocol/uci/options.rs`, `protocol/xboard/options.rs`).
#[derive(Clone, Copy)]
pub(crate) struct EngineOption {
    pub(crate) name: &'static str,
    pub(crate) kind: OptionKind,
    pub(crate) shown_to: ShownTo,
    pub(crate) audience: Audience,
    pub(crate) effect: OptionEffect,
}

impl EngineOption {
    pub(crate) fn shown_to_uci(&self) -> bool {
        self.shown_to != ShownTo::Xboard
    }

    pub(crate) fn shown_to_xboard(&self) -> bool {
        self.shown_to != ShownTo::Uci
    }

    /// Whether the option list a GUI receives includes this option.
    pub(crate) fn announced(&self, options: &EngineOptions) -> bool {
        self.audience == Audience::User || options.announce_lab
    }
}

const fn option(
    name: &'static str,
    kind: OptionKind,
    shown_to: ShownTo,
    audience: Audience,
    effect: OptionEffect,
) -> EngineOption {
    EngineOption {
        name,
        kind,
        shown_to,
        audience,
        effect,
    }
}

/// A spin box over a `u64`-like field; `$range` is `(low, high)`.
macro_rules! spin {
    ($name:expr, $shown:expr, $audience:expr, $effect:expr, $range:expr, |$o:ident| $field:expr) => {
        option(
            $name,
            OptionKind::Spin {
                range: |_| {
                    let (low, high) = $range;
                    (low as i64, high as i64)
                },
                get: |$o| $field as i64,
                set: |$o, v| $field = v as _,
            },
            $shown,
            $audience,
            $effect,
        )
    };
}

/// A check box over a `bool` field.
macro_rules! check {
    ($name:expr, $shown:expr, $audience:expr, $effect:expr, |$o:ident| $field:expr) => {
        option(
            $name,
            OptionKind::Check {
                get: |$o| $field,
                set: |$o, v| $field = v,
            },
            $shown,
            $audience,
            $effect,
        )
    };
}

/// A search technique's on/off switch.
macro_rules! switch {
    ($name:expr, $field:ident) => {
        check!(
            $name,
            ShownTo::Both,
            Audience::Lab,
            OptionEffect::SearchFeatures,
            |o| o.search.$field
        )
    };
}

/// A log limit in whole megabytes (XBoard only: UCI GUIs keep their own logs).
macro_rules! log_mb {
    ($name:expr, $field:ident) => {
        option(
            $name,
            OptionKind::Spin {
                range: |_| (1, MAX_LOG_MB as i64),
                get: |o| whole_mb(o.log_limits.$field) as i64,
                set: |o, v| o.log_limits.$field = v as u64 * MB,
            },
            ShownTo::Xboard,
            Audience::User,
            OptionEffect::LogLimits,
        )
    };
}

/// The value `choices` names for `current`.
fn choice_name<T: Copy + PartialEq>(choices: &[(&'static str, T)], current: T) -> &'static str {
    choices
        .iter()
        .find(|(_, value)| *value == current)
        .map_or(choices[0].0, |(name, _)| name)
}

fn choice_value<T: Copy>(choices: &[(&'static str, T)], name: &str) -> T {
    choices
        .iter()
        .find(|(choice, _)| *choice == name)
        .map_or(choices[0].1, |(_, value)| *value)
}

const IID_NAMES: [&str; 4] = [
    IID_CHOICES[0].0,
    IID_CHOICES[1].0,
    IID_CHOICES[2].0,
    IID_CHOICES[3].0,
];
const DRIVER_NAMES: [&str; 2] = [DRIVER_CHOICES[0].0, DRIVER_CHOICES[1].0];

/// Every option, in the order both protocols announce them: the users' first, then the lab's.
pub(crate) const OPTIONS: [EngineOption; 52] = [
    option(
        "Hash",
        OptionKind::Spin {
            range: |o| {
                (
                    1,
                    crate::engine::limits::hash_cap_mb().max(o.hash_mb as u64) as i64,
                )
            },
            get: |o| o.hash_mb as i64,
            set: |o, v| o.hash_mb = v as usize,
        },
        ShownTo::Uci,
        Audience::User,
        OptionEffect::Hash,
    ),
    option(
        "Threads",
        OptionKind::Spin {
            range: |_| (1, MAX_THREADS as i64),
            get: |o| o.threads as i64,
            set: |o, v| o.threads = v as usize,
        },
        ShownTo::Uci,
        Audience::User,
        OptionEffect::Threads,
    ),
    spin!(
        "Move Overhead",
        ShownTo::Both,
        Audience::User,
        OptionEffect::Nothing,
        (0, MAX_MOVE_OVERHEAD_MS),
        |o| o.move_overhead_ms
    ),
    check!(
        "Resign",
        ShownTo::Xboard,
        Audience::User,
        OptionEffect::Nothing,
        |o| o.resign
    ),
    spin!(
        "Resign Threshold",
        ShownTo::Xboard,
        Audience::User,
        OptionEffect::Nothing,
        RESIGN_THRESHOLD_RANGE,
        |o| o.resign_threshold
    ),
    option(
        "Clear Hash",
        OptionKind::Button,
        ShownTo::Both,
        Audience::User,
        OptionEffect::ClearHash,
    ),
    log_mb!("Log Max MB", file_bytes),
    log_mb!("Log Keep MB", keep_bytes),
    // XBoard shows its "fewer / more" control in the analysis window for this name.
    spin!(
        "MultiPV",
        ShownTo::Both,
        Audience::User,
        OptionEffect::Nothing,
        (1, MAX_MULTIPV),
        |o| o.multipv
    ),
    check!(
        "Ponder",
        ShownTo::Uci,
        Audience::User,
        OptionEffect::Nothing,
        |o| o.ponder
    ),
    check!(
        "UCI_Chess960",
        ShownTo::Uci,
        Audience::User,
        OptionEffect::Nothing,
        |o| o.chess960
    ),
    spin!(
        "Skill Level",
        ShownTo::Both,
        Audience::User,
        OptionEffect::Nothing,
        (0, MAX_SKILL_LEVEL),
        |o| o.skill_level
    ),
    check!(
        "UCI_LimitStrength",
        ShownTo::Uci,
        Audience::User,
        OptionEffect::Nothing,
        |o| o.limit_strength
    ),
    spin!(
        "UCI_Elo",
        ShownTo::Uci,
        Audience::User,
        OptionEffect::Nothing,
        ELO_RANGE,
        |o| o.elo
    ),
    spin!(
        "Randomize (cp)",
        ShownTo::Both,
        Audience::User,
        OptionEffect::Nothing,
        (0, MAX_RANDOMIZE_CP),
        |o| o.randomize_cp
    ),
    spin!(
        "Random Seed",
        ShownTo::Both,
        Audience::User,
        OptionEffect::Reseed,
        (0, MAX_RANDOM_SEED),
        |o| o.random_seed
    ),
    option(
        "EvalFile",
        OptionKind::File {
            holds: "network",
            get: |o| o.eval_file.clone(),
            set: EngineOptions::set_eval_file,
        },
        ShownTo::Both,
        Audience::User,
        OptionEffect::SearchFeatures,
    ),
    check!(
        "OwnBook",
        ShownTo::Both,
        Audience::User,
        OptionEffect::Nothing,
        |o| o.own_book
    ),
    option(
        "Book File",
        OptionKind::File {
            holds: "book",
            get: |o| o.book_file.clone(),
            set: EngineOptions::set_book_file,
        },
        ShownTo::Both,
        Audience::User,
        OptionEffect::Nothing,
    ),
    check!(
        "Best Book Move",
        ShownTo::Both,
        Audience::User,
        OptionEffect::Nothing,
        |o| o.book_best_move
    ),
    spin!(
        "Book Depth",
        ShownTo::Both,
        Audience::User,
        OptionEffect::Nothing,
        (1, MAX_BOOK_DEPTH),
        |o| o.book_depth
    ),
    option(
        "SyzygyPath",
        OptionKind::Path {
            get: |o| {
                if o.syzygy_path.is_empty() {
                    NO_TABLES.to_string()
                } else {
                    o.syzygy_path.clone()
                }
            },
            set: EngineOptions::set_syzygy_path,
        },
        ShownTo::Both,
        Audience::User,
        OptionEffect::SearchFeatures,
    ),
    spin!(
        "SyzygyProbeDepth",
        ShownTo::Both,
        Audience::User,
        OptionEffect::SearchFeatures,
        (1, 100),
        |o| o.search.syzygy.probe_depth
    ),
    check!(
        "Syzygy50MoveRule",
        ShownTo::Both,
        Audience::User,
        OptionEffect::SearchFeatures,
        |o| o.search.syzygy.rule50
    ),
    spin!(
        "SyzygyProbeLimit",
        ShownTo::Both,
        Audience::User,
        OptionEffect::SearchFeatures,
        (0, 7),
        |o| o.search.syzygy.probe_limit
    ),
    switch!("Null Move", null_move),
    switch!("Late Move Reductions", late_move_reductions),
    switch!("Reverse Futility", reverse_futility),
    switch!("Futility", futility),
    switch!("Late Move Pruning", late_move_pruning),
    switch!("Recapture Extension", recapture_extension),
    switch!("Aspiration Windows", aspiration),
    switch!("Fail High Reduction", fail_high_reduction),
    switch!("SEE Pruning", see_pruning),
    switch!("History Pruning", history_pruning),
    switch!("Capture Futility", capture_futility),
    switch!("Singular Extensions", singular_extensions),
    switch!("Double Extensions", double_extensions),
    switch!("Razoring", razoring),
    switch!("Reduced Depth Pruning", reduced_depth_pruning),
    switch!("Re-search Depth", research_depth),
    switch!("Correction History", correction_history),
    switch!("ProbCut", probcut),
    switch!("TT Eval", tt_eval),
    switch!("TT PV", tt_pv),
    switch!("Threat Ordering", threat_ordering),
    switch!("Fourth Ply Continuation", fourth_ply_continuation),
    switch!("Cutoff Count", cutoff_count),
    switch!("Adaptive Time", adaptive_time),
    option(
        "IID",
        OptionKind::Combo {
            choices: &IID_NAMES,
            get: |o| choice_name(&IID_CHOICES, o.search.iid),
            set: |o, name| o.search.iid = choice_value(&IID_CHOICES, name),
        },
        ShownTo::Both,
        Audience::Lab,
        OptionEffect::SearchFeatures,
    ),
    option(
        "Search Driver",
        OptionKind::Combo {
            choices: &DRIVER_NAMES,
            get: |o| choice_name(&DRIVER_CHOICES, o.search.driver),
            set: |o, name| o.search.driver = choice_value(&DRIVER_CHOICES, name),
        },
        ShownTo::Both,
        Audience::Lab,
        OptionEffect::SearchFeatures,
    ),
    // Classical is the hand-written evaluation the network replaced: a measuring stick, not
    // a user's choice (EvalFile is theirs).
    option(
        "Evaluation",
        OptionKind::Combo {
            choices: &EVALUATION_CHOICES,
            get: EngineOptions::evaluation_name,
            set: |o, name| {
                o.set_evaluation(name, false);
            },
        },
        ShownTo::Both,
        Audience::Lab,
        OptionEffect::SearchFeatures,
    ),
];

/// Each of the search's tunable constants (`search::params`) as a spin box by its own name.
macro_rules! tunable_options {
    ($(($name:ident, $field:ident, $default:expr, $min:expr, $max:expr, $step:expr,
        $help:expr)),* $(,)?) => {
        /// The search's constants, after `OPTIONS` (announced with `--tunables` only).
        pub(crate) const TUNABLES: &[EngineOption] = &[$(spin!(
            stringify!($name),
            ShownTo::Both,
            Audience::Lab,
            OptionEffect::SearchFeatures,
            ($min, $max),
            |o| o.search.params.$field
        ),)*];
    };
}
crate::search::params::with_search_params!(tunable_options);

/// Every option: `OPTIONS`, then `TUNABLES`.
pub(crate) fn all_options() -> impl Iterator<Item = &'static EngineOption> {
    OPTIONS.iter().chain(TUNABLES)
}

/// A byte count as whole megabytes for a spin (at least 1: `--log-max-mb` may give less).
fn whole_mb(bytes: u64) -> u64 {
    ((bytes + MB / 2) / MB).max(1)
}

/// The option called `name` that `shown` protocols see (`ignore_case` for UCI).
pub(crate) fn find_option(
    name: &str,
    shown: fn(&EngineOption) -> bool,
    ignore_case: bool,
) -> Option<&'static EngineOption> {
    all_options().filter(|o| shown(o)).find(|o| {
        if ignore_case {
            o.name.eq_ignore_ascii_case(name)
        } else {
            o.name == name
        }
    })
}

/// How one door names options and spells values: each protocol has its own, and the command
/// line's start-up flags theirs (`cli`).
#[derive(Clone, Copy)]
pub(crate) struct Spelling {
    /// Which options it reaches.
    pub(crate) shown: fn(&EngineOption) -> bool,
    /// Names and choices match whatever their case.
    pub(crate) ignore_case: bool,
    /// A check box's value as it spells it.
    pub(crate) check: fn(&str) -> Option<bool>,
}

/// A check box's value as UCI and the command line spell it: `true`, `1` or `on`, `false`,
/// `0` or `off`, in any case.
pub(crate) fn check_word(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "1" | "on" => Some(true),
        "false" | "0" | "off" => Some(false),
        _ => None,
    }
}

/// Why `EngineOptions::set` refused a value; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SetError {
    Unknown,
    /// Not a value of the option's kind.
    BadValue(&'static EngineOption),
    /// A number outside the option's range (inclusive).
    OutOfRange {
        option: &'static EngineOption,
        low: i64,
        high: i64,
    },
    /// A file that cannot be used (`holds` says what it was to hold): why, and what stays.
    File {
        holds: &'static str,
        why: String,
    },
}

impl std::fmt::Debug for EngineOption {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EngineOption({})", self.name)
    }
}

impl PartialEq for EngineOption {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for EngineOption {}

impl EngineOptions {
    /// The one door for a setting by name, for `setoption`, `option` and the start-up flags:
    /// the option `name` as `spelling` names it takes `value` (trimmed) read as its kind;
    /// a value it cannot take is refused and changes nothing (but a book file that is no
    /// usable book leaves no book). Answers the option and what
    /// the change needs (`OptionEffect`), which the engine carries out.
    pub(crate) fn set(
        &mut self,
        name: &str,
        value: &str,
        spelling: Spelling,
    ) -> Result<(&'static EngineOption, OptionEffect), SetError> {
        let option =
            find_option(name, spelling.shown, spelling.ignore_case).ok_or(SetError::Unknown)?;
        let value = value.trim();
        let bad = SetError::BadValue(option);
        match option.kind {
            OptionKind::Check { set, .. } => set(self, (spelling.check)(value).ok_or(bad)?),
            OptionKind::Spin { range, set, .. } => {
                let (low, high) = range(self);
                let v: i128 = value.parse().map_err(|_| bad)?;
                if v < i128::from(low) || v > i128::from(high) {
                    return Err(SetError::OutOfRange { option, low, high });
                }
                set(self, v as i64);
            }
            OptionKind::Combo { choices, set, .. } => {
                let choice = choices
                    .iter()
                    .find(|c| **c == value || spelling.ignore_case && c.eq_ignore_ascii_case(value))
                    .ok_or(bad)?;
                set(self, choice);
            }
            OptionKind::Button => {}
            OptionKind::File { holds, set, .. } => {
                set(self, value).map_err(|why| SetError::File { holds, why })?
            }
            OptionKind::Path { set, .. } => set(self, value),
        }
        Ok((option, option.effect))
    }
}

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
    fn options_have_one_name_each_and_every_one_is_shown_and_readable() {
        let options = EngineOptions::default();
        let all: Vec<&EngineOption> = all_options().collect();
        for (i, option) in all.iter().enumerate() {
            assert!(
                all[..i]
                    .iter()
                    .all(|o| !o.name.eq_ignore_ascii_case(option.name)),
                "{} twice",
                option.name
            );
            assert!(option.shown_to_uci() || option.shown_to_xboard());
            // A GUI with `--tunables` lists the users' options above the lab's.
            assert!(
                option.audience == Audience::Lab
                    || all[..i].iter().all(|o| o.audience == Audience::User),
                "{} after a lab option",
                option.name
            );
            match option.kind {
                OptionKind::Spin { range, get, .. } => {
                    let (low, high) = range(&options);
                    assert!((low..=high).contains(&get(&options)), "{}", option.name);
                }
                OptionKind::Combo { choices, get, .. } => {
                    assert!(choices.contains(&get(&options)), "{}", option.name)
                }
                _ => {}
            }
        }
    }

    #[test]
    fn thread_requests_are_brought_within_the_machine() {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        assert_eq!(clamp_threads(0), 1);
        assert_eq!(clamp_threads(1), 1);
        assert_eq!(clamp_threads(100_000), cores);
        assert_eq!(clamp_threads(u64::MAX), cores);
    }
}
