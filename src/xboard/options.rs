//! The engine-defined options announced with `feature option="..."` and set with
//! `option NAME=VALUE`: time margin, resignation, log size limits, strength and variety, and
//! one switch per search technique.

use crate::engine::options::{
    DRIVER_CHOICES, EVALUATION_CHOICES, EngineOptions, IID_CHOICES, MAX_MOVE_OVERHEAD_MS,
    MAX_MULTIPV, MAX_RANDOM_SEED, RESIGN_THRESHOLD_RANGE, SWITCHES,
};
use crate::engine::strength::{MAX_RANDOMIZE_CP, MAX_SKILL_LEVEL};

use crate::logging::{MAX_LOG_MB, MB};

pub use crate::engine::options::DEFAULT_MOVE_OVERHEAD_MS;

/// What the session must do after an option changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OptionEffect {
    Nothing,
    ClearHash,
    /// Hand the new `SearchFeatures` to the search worker.
    SearchFeatures,
    /// Hand the new log limits to the logger.
    LogLimits,
    /// Seed the move choice again (`Random Seed` changed).
    Reseed,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum OptionError {
    Unknown(String),
    /// `expected` says what the option takes, e.g. `0 to 5000`.
    BadValue {
        name: String,
        value: String,
        expected: String,
    },
    /// A network file that cannot be used: `why` says why and which network stays.
    Network {
        value: String,
        why: String,
    },
}

impl OptionError {
    /// The `Error (...): ...` reply.
    pub(crate) fn reply(&self) -> String {
        match self {
            OptionError::Unknown(name) => format!("Error (unknown option): {name}"),
            OptionError::BadValue {
                name,
                value,
                expected,
            } => format!("Error (invalid option value, {expected}): {name}={value}"),
            OptionError::Network { value, why } => {
                format!("Error (network refused: {why}): EvalFile={value}")
            }
        }
    }
}

/// `NAME -combo A /// *CURRENT /// C` for a table of choices.
fn combo_feature<T: Copy + PartialEq>(name: &str, choices: &[(&str, T)], current: T) -> String {
    let choices: Vec<String> = choices
        .iter()
        .map(|(choice, value)| {
            if *value == current {
                format!("*{choice}")
            } else {
                (*choice).to_string()
            }
        })
        .collect();
    format!("{name} -combo {}", choices.join(" /// "))
}

/// The value of the choice named exactly `value`, or the range text for the error reply.
fn find_choice<T: Copy>(choices: &[(&str, T)], value: &str) -> Result<T, String> {
    choices
        .iter()
        .find(|(choice, _)| *choice == value)
        .map(|&(_, chosen)| chosen)
        .ok_or_else(|| {
            let names: Vec<&str> = choices.iter().map(|(choice, _)| *choice).collect();
            format!("one of {}", names.join(", "))
        })
}

/// A check box: XBoard sends 0 or 1.
fn parse_check(value: &str) -> Option<bool> {
    match value {
        "1" => Some(true),
        "0" => Some(false),
        _ => None,
    }
}

/// A byte count as whole megabytes for a spin (at least 1: `--log-max-mb` may give less).
fn whole_mb(bytes: u64) -> u64 {
    ((bytes + MB / 2) / MB).max(1)
}

/// A spin box: an integer within `low..=high`; anything else is refused, not clamped.
fn parse_spin(value: &str, low: i64, high: i64) -> Option<i64> {
    value
        .parse::<i64>()
        .ok()
        .filter(|v| (low..=high).contains(v))
}

/// The option feature values, e.g. `Move Overhead -spin 30 0 5000`, with the current
/// values as defaults.
pub(crate) fn features(options: &EngineOptions) -> Vec<String> {
    let mut list = vec![
        format!(
            "Move Overhead -spin {} 0 {MAX_MOVE_OVERHEAD_MS}",
            options.move_overhead_ms
        ),
        format!("Resign -check {}", u8::from(options.resign)),
        format!(
            "Resign Threshold -spin {} {} {}",
            options.resign_threshold, RESIGN_THRESHOLD_RANGE.0, RESIGN_THRESHOLD_RANGE.1
        ),
        "Clear Hash -button".to_string(),
        format!(
            "Log Max MB -spin {} 1 {MAX_LOG_MB}",
            whole_mb(options.log_limits.file_bytes)
        ),
        format!(
            "Log Keep MB -spin {} 1 {MAX_LOG_MB}",
            whole_mb(options.log_limits.keep_bytes)
        ),
        // XBoard shows its "fewer / more" control in the analysis window for this name.
        format!("MultiPV -spin {} 1 {MAX_MULTIPV}", options.multipv),
        format!(
            "Skill Level -spin {} 0 {MAX_SKILL_LEVEL}",
            options.skill_level
        ),
        format!(
            "Randomize (cp) -spin {} 0 {MAX_RANDOMIZE_CP}",
            options.randomize_cp
        ),
        format!(
            "Random Seed -spin {} 0 {MAX_RANDOM_SEED}",
            options.random_seed
        ),
    ];
    let mut features = options.search;
    for (name, get) in SWITCHES {
        list.push(format!("{name} -check {}", u8::from(*get(&mut features))));
    }
    list.push(combo_feature("IID", &IID_CHOICES, options.search.iid));
    list.push(combo_feature(
        "Search Driver",
        &DRIVER_CHOICES,
        options.search.driver,
    ));
    let evaluations = EVALUATION_CHOICES.map(|name| (name, name));
    list.push(combo_feature(
        "Evaluation",
        &evaluations,
        options.evaluation_name(),
    ));
    list.push(format!("EvalFile -file {}", options.eval_file));
    list
}

/// Applies `option NAME[=VALUE]`; a value the option cannot take changes nothing.
pub(crate) fn set(
    options: &mut EngineOptions,
    name: &str,
    value: Option<&str>,
) -> Result<OptionEffect, OptionError> {
    let raw = value.unwrap_or("");
    let value = raw.trim();
    let bad = |expected: String| OptionError::BadValue {
        name: name.to_string(),
        value: raw.to_string(),
        expected,
    };
    let check = || parse_check(value).ok_or_else(|| bad("0 or 1".to_string()));
    let spin = |low: i64, high: i64| {
        parse_spin(value, low, high).ok_or_else(|| bad(format!("{low} to {high}")))
    };
    match name {
        "Move Overhead" => {
            let ms = spin(0, MAX_MOVE_OVERHEAD_MS as i64)?;
            options.move_overhead_ms = ms as u64;
            Ok(OptionEffect::Nothing)
        }
        "Resign" => {
            options.resign = check()?;
            Ok(OptionEffect::Nothing)
        }
        "Resign Threshold" => {
            let (low, high) = RESIGN_THRESHOLD_RANGE;
            options.resign_threshold = spin(i64::from(low), i64::from(high))? as i32;
            Ok(OptionEffect::Nothing)
        }
        "Clear Hash" => Ok(OptionEffect::ClearHash),
        "Log Max MB" | "Log Keep MB" => {
            let mb = spin(1, MAX_LOG_MB as i64)? as u64;
            if name == "Log Max MB" {
                options.log_limits.file_bytes = mb * MB;
            } else {
                options.log_limits.keep_bytes = mb * MB;
            }
            Ok(OptionEffect::LogLimits)
        }
        "MultiPV" => {
            options.multipv = spin(1, MAX_MULTIPV as i64)? as usize;
            Ok(OptionEffect::Nothing)
        }
        "Skill Level" => {
            options.skill_level = spin(0, i64::from(MAX_SKILL_LEVEL))? as u32;
            Ok(OptionEffect::Nothing)
        }
        "Randomize (cp)" => {
            options.randomize_cp = spin(0, i64::from(MAX_RANDOMIZE_CP))? as u32;
            Ok(OptionEffect::Nothing)
        }
        "Random Seed" => {
            options.random_seed = spin(0, MAX_RANDOM_SEED as i64)? as u64;
            Ok(OptionEffect::Reseed)
        }
        "IID" => {
            options.search.iid = find_choice(&IID_CHOICES, value).map_err(bad)?;
            Ok(OptionEffect::SearchFeatures)
        }
        "Search Driver" => {
            options.search.driver = find_choice(&DRIVER_CHOICES, value).map_err(bad)?;
            Ok(OptionEffect::SearchFeatures)
        }
        "Evaluation" => {
            options
                .set_evaluation(value, false)
                .ok_or_else(|| bad(format!("one of {}", EVALUATION_CHOICES.join(", "))))?;
            Ok(OptionEffect::SearchFeatures)
        }
        "EvalFile" => {
            options
                .set_eval_file(value)
                .map_err(|why| OptionError::Network {
                    value: raw.to_string(),
                    why,
                })?;
            Ok(OptionEffect::SearchFeatures)
        }
        _ => {
            let (_, get) = SWITCHES
                .iter()
                .find(|(switch, _)| *switch == name)
                .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
            *get(&mut options.search) = check()?;
            Ok(OptionEffect::SearchFeatures)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::IidMode;

    #[test]
    fn features_list_every_option_once_with_its_current_value() {
        let mut options = EngineOptions::default();
        assert_eq!(
            features(&options),
            [
                "Move Overhead -spin 30 0 5000",
                "Resign -check 0",
                "Resign Threshold -spin 800 200 3000",
                "Clear Hash -button",
                "Log Max MB -spin 10 1 1048576",
                "Log Keep MB -spin 100 1 1048576",
                "MultiPV -spin 1 1 64",
                "Skill Level -spin 20 0 20",
                "Randomize (cp) -spin 0 0 100",
                "Random Seed -spin 0 0 2000000000",
                "Null Move -check 1",
                "Late Move Reductions -check 1",
                "Reverse Futility -check 1",
                "Futility -check 1",
                "Late Move Pruning -check 1",
                "Check Extension -check 0",
                "Recapture Extension -check 1",
                "Aspiration Windows -check 1",
                "SEE Pruning -check 1",
                "Histories -check 1",
                "History Pruning -check 0",
                "Singular Extensions -check 1",
                "Correction History -check 0",
                "ProbCut -check 1",
                "TT Eval -check 1",
                "Re-search Depth -check 0",
                "Adaptive Time -check 1",
                "IID -combo *Classic /// SelfDeepening /// Off",
                "Search Driver -combo *Recursive /// Iterative",
                "Evaluation -combo Classical /// *NNUE",
                "EvalFile -file <embedded>",
            ]
        );
        set(&mut options, "Futility", Some("0")).unwrap();
        set(&mut options, "IID", Some("Off")).unwrap();
        set(&mut options, "Move Overhead", Some("75")).unwrap();
        let changed = features(&options);
        assert_eq!(changed[0], "Move Overhead -spin 75 0 5000");
        assert_eq!(changed[13], "Futility -check 0");
        assert_eq!(changed[27], "IID -combo Classic /// SelfDeepening /// *Off");
    }

    #[test]
    fn setting_values() {
        let mut options = EngineOptions::default();
        assert_eq!(
            set(&mut options, "Move Overhead", Some("100")),
            Ok(OptionEffect::Nothing)
        );
        assert_eq!(options.move_overhead_ms, 100);
        set(&mut options, "Move Overhead", Some(" 5000 ")).unwrap();
        assert_eq!(options.move_overhead_ms, MAX_MOVE_OVERHEAD_MS);
        assert_eq!(
            set(&mut options, "Null Move", Some("0")),
            Ok(OptionEffect::SearchFeatures)
        );
        assert!(!options.search.null_move);
        set(&mut options, "IID", Some("Off")).unwrap();
        assert_eq!(options.search.iid, IidMode::Off);
        assert_eq!(
            set(&mut options, "Clear Hash", None),
            Ok(OptionEffect::ClearHash)
        );
        set(&mut options, "Resign", Some("1")).unwrap();
        assert!(options.resign);
        set(&mut options, "MultiPV", Some("3")).unwrap();
        assert_eq!(options.multipv, 3);
        set(&mut options, "Resign Threshold", Some("200")).unwrap();
        assert_eq!(options.resign_threshold, 200);
        assert_eq!(
            set(&mut options, "Log Max MB", Some("3")),
            Ok(OptionEffect::LogLimits)
        );
        set(&mut options, "Log Keep MB", Some("1")).unwrap();
        assert_eq!(
            options.log_limits,
            crate::logging::LogLimits {
                file_bytes: 3 * MB,
                keep_bytes: MB
            }
        );
        assert!(set(&mut options, "Log Max MB", Some("ten")).is_err());
        assert!(set(&mut options, "Log Keep MB", Some("0")).is_err());
        assert_eq!(options.log_limits.keep_bytes, MB);
    }

    #[test]
    fn bad_values_are_refused_and_change_nothing() {
        let cases = [
            ("Bogus", Some("1"), "Error (unknown option): Bogus"),
            (
                "Null Move",
                Some("maybe"),
                "Error (invalid option value, 0 or 1): Null Move=maybe",
            ),
            (
                "Null Move",
                Some("2"),
                "Error (invalid option value, 0 or 1): Null Move=2",
            ),
            (
                "Resign",
                None,
                "Error (invalid option value, 0 or 1): Resign=",
            ),
            (
                "Move Overhead",
                Some("5001"),
                "Error (invalid option value, 0 to 5000): Move Overhead=5001",
            ),
            (
                "Move Overhead",
                Some("-1"),
                "Error (invalid option value, 0 to 5000): Move Overhead=-1",
            ),
            (
                "Move Overhead",
                Some("99999999999999999999"),
                "Error (invalid option value, 0 to 5000): Move Overhead=99999999999999999999",
            ),
            (
                "Move Overhead",
                Some("12ms"),
                "Error (invalid option value, 0 to 5000): Move Overhead=12ms",
            ),
            (
                "Move Overhead",
                None,
                "Error (invalid option value, 0 to 5000): Move Overhead=",
            ),
            (
                "Resign Threshold",
                Some("199"),
                "Error (invalid option value, 200 to 3000): Resign Threshold=199",
            ),
            (
                "Resign Threshold",
                Some("3001"),
                "Error (invalid option value, 200 to 3000): Resign Threshold=3001",
            ),
            (
                "IID",
                Some("Sometimes"),
                "Error (invalid option value, one of Classic, SelfDeepening, Off): IID=Sometimes",
            ),
            (
                "IID",
                Some("classic"),
                "Error (invalid option value, one of Classic, SelfDeepening, Off): IID=classic",
            ),
        ];
        for (name, value, reply) in cases {
            let mut options = EngineOptions::default();
            let error = set(&mut options, name, value).unwrap_err();
            assert_eq!(error.reply(), reply);
            assert_eq!(
                format!("{options:?}"),
                format!("{:?}", EngineOptions::default()),
                "{name}={value:?} changed something"
            );
        }
    }
}
