//! The engine-defined options announced with `feature option="..."` and set with
//! `option NAME=VALUE`: time margin, resignation, log size limits, and one switch per search
//! technique.

use crate::logging::{LogLimits, MAX_LOG_MB, MB};
use crate::search::{IidMode, SearchFeatures};

pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
const DEFAULT_RESIGN_THRESHOLD: i32 = 800;
const RESIGN_THRESHOLD_RANGE: (i32, i32) = (200, 3000);

/// Current values of every option.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    pub move_overhead_ms: u64,
    /// Resign when the score stays below `-resign_threshold` (off by default: testers and
    /// GUIs adjudicate themselves, and a resigning engine hides its endgame bugs).
    pub resign: bool,
    pub resign_threshold: i32,
    pub log_limits: LogLimits,
    pub search: SearchFeatures,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            resign: false,
            resign_threshold: DEFAULT_RESIGN_THRESHOLD,
            log_limits: LogLimits::default(),
            search: SearchFeatures::default(),
        }
    }
}

/// What the session must do after an option changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionEffect {
    Nothing,
    ClearHash,
    /// Hand the new `SearchFeatures` to the search worker.
    SearchFeatures,
    /// Hand the new `log_limits` to the logger.
    LogLimits,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    Unknown(String),
    BadValue { name: String, value: String },
}

impl OptionError {
    /// The `Error (...): ...` reply.
    pub fn reply(&self) -> String {
        match self {
            OptionError::Unknown(name) => format!("Error (unknown option): {name}"),
            OptionError::BadValue { name, value } => {
                format!("Error (invalid option value): {name}={value}")
            }
        }
    }
}

/// The on/off switches for search techniques: (option name, accessor).
type Switch = (&'static str, fn(&mut SearchFeatures) -> &mut bool);

const SWITCHES: [Switch; 9] = [
    ("Null Move", |f| &mut f.null_move),
    ("Late Move Reductions", |f| &mut f.late_move_reductions),
    ("Reverse Futility", |f| &mut f.reverse_futility),
    ("Futility", |f| &mut f.futility),
    ("Late Move Pruning", |f| &mut f.late_move_pruning),
    ("Check Extension", |f| &mut f.check_extension),
    ("Recapture Extension", |f| &mut f.recapture_extension),
    ("Aspiration Windows", |f| &mut f.aspiration),
    ("SEE Pruning", |f| &mut f.see_pruning),
];

const IID_CHOICES: [(&str, IidMode); 3] = [
    ("Classic", IidMode::Classic),
    ("SelfDeepening", IidMode::SelfDeepening),
    ("Off", IidMode::Off),
];

fn parse_check(value: &str) -> Option<bool> {
    match value {
        "1" | "true" | "on" => Some(true),
        "0" | "false" | "off" => Some(false),
        _ => None,
    }
}

/// A byte count as whole megabytes for a spin (at least 1: `--log-max-mb` may give less).
fn whole_mb(bytes: u64) -> u64 {
    ((bytes + MB / 2) / MB).max(1)
}

fn parse_spin(value: &str, low: i64, high: i64) -> Option<i64> {
    value.trim().parse::<i64>().ok().map(|v| v.clamp(low, high))
}

impl EngineOptions {
    /// The option feature values, e.g. `Move Overhead -spin 30 0 5000`, with the current
    /// values as defaults.
    pub fn features(&self) -> Vec<String> {
        let mut list = vec![
            format!(
                "Move Overhead -spin {} 0 {MAX_MOVE_OVERHEAD_MS}",
                self.move_overhead_ms
            ),
            format!("Resign -check {}", u8::from(self.resign)),
            format!(
                "Resign Threshold -spin {} {} {}",
                self.resign_threshold, RESIGN_THRESHOLD_RANGE.0, RESIGN_THRESHOLD_RANGE.1
            ),
            "Clear Hash -button".to_string(),
            format!(
                "Log Max MB -spin {} 1 {MAX_LOG_MB}",
                whole_mb(self.log_limits.file_bytes)
            ),
            format!(
                "Log Keep MB -spin {} 1 {MAX_LOG_MB}",
                whole_mb(self.log_limits.keep_bytes)
            ),
        ];
        let mut features = self.search;
        for (name, get) in SWITCHES {
            list.push(format!("{name} -check {}", u8::from(*get(&mut features))));
        }
        let choices: Vec<String> = IID_CHOICES
            .iter()
            .map(|(name, mode)| {
                if *mode == self.search.iid {
                    format!("*{name}")
                } else {
                    (*name).to_string()
                }
            })
            .collect();
        list.push(format!("IID -combo {}", choices.join(" /// ")));
        list
    }

    /// Applies `option NAME[=VALUE]`.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<OptionEffect, OptionError> {
        let raw = value.unwrap_or("");
        let value = raw.trim();
        let bad = || OptionError::BadValue {
            name: name.to_string(),
            value: raw.to_string(),
        };
        match name {
            "Move Overhead" => {
                let v = parse_spin(value, 0, MAX_MOVE_OVERHEAD_MS as i64).ok_or_else(bad)?;
                self.move_overhead_ms = v as u64;
                Ok(OptionEffect::Nothing)
            }
            "Resign" => {
                self.resign = parse_check(value).ok_or_else(bad)?;
                Ok(OptionEffect::Nothing)
            }
            "Resign Threshold" => {
                let (low, high) = RESIGN_THRESHOLD_RANGE;
                let v = parse_spin(value, i64::from(low), i64::from(high)).ok_or_else(bad)?;
                self.resign_threshold = v as i32;
                Ok(OptionEffect::Nothing)
            }
            "Clear Hash" => Ok(OptionEffect::ClearHash),
            "Log Max MB" | "Log Keep MB" => {
                let mb = parse_spin(value, 1, MAX_LOG_MB as i64).ok_or_else(bad)? as u64;
                if name == "Log Max MB" {
                    self.log_limits.file_bytes = mb * MB;
                } else {
                    self.log_limits.keep_bytes = mb * MB;
                }
                Ok(OptionEffect::LogLimits)
            }
            "IID" => {
                let (_, mode) = IID_CHOICES
                    .iter()
                    .find(|(choice, _)| *choice == value)
                    .ok_or_else(bad)?;
                self.search.iid = *mode;
                Ok(OptionEffect::SearchFeatures)
            }
            _ => {
                let (_, get) = SWITCHES
                    .iter()
                    .find(|(switch, _)| *switch == name)
                    .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
                *get(&mut self.search) = parse_check(value).ok_or_else(bad)?;
                Ok(OptionEffect::SearchFeatures)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_list_every_option_once() {
        let options = EngineOptions::default();
        let features = options.features();
        assert!(features.contains(&"Move Overhead -spin 30 0 5000".to_string()));
        assert!(features.contains(&"IID -combo *Classic /// SelfDeepening /// Off".to_string()));
        assert!(features.contains(&"Null Move -check 1".to_string()));
        assert!(features.contains(&"Log Max MB -spin 10 1 1048576".to_string()));
        assert!(features.contains(&"Log Keep MB -spin 100 1 1048576".to_string()));
        // Written out by hand, not derived from SWITCHES: adding, losing or renaming an
        // option must show up here.
        let names: Vec<&str> = features
            .iter()
            .map(|f| f.split(" -").next().unwrap_or_default())
            .collect();
        assert_eq!(
            names,
            [
                "Move Overhead",
                "Resign",
                "Resign Threshold",
                "Clear Hash",
                "Log Max MB",
                "Log Keep MB",
                "Null Move",
                "Late Move Reductions",
                "Reverse Futility",
                "Futility",
                "Late Move Pruning",
                "Check Extension",
                "Recapture Extension",
                "Aspiration Windows",
                "SEE Pruning",
                "IID",
            ]
        );
    }

    #[test]
    fn setting_values() {
        let mut options = EngineOptions::default();
        assert_eq!(
            options.set("Move Overhead", Some("100")),
            Ok(OptionEffect::Nothing)
        );
        assert_eq!(options.move_overhead_ms, 100);
        options.set("Move Overhead", Some("999999")).unwrap();
        assert_eq!(options.move_overhead_ms, MAX_MOVE_OVERHEAD_MS);
        assert_eq!(
            options.set("Null Move", Some("0")),
            Ok(OptionEffect::SearchFeatures)
        );
        assert!(!options.search.null_move);
        options.set("IID", Some("Off")).unwrap();
        assert_eq!(options.search.iid, IidMode::Off);
        assert_eq!(options.set("Clear Hash", None), Ok(OptionEffect::ClearHash));
        options.set("Resign", Some("1")).unwrap();
        assert!(options.resign);
        assert_eq!(
            options.set("Log Max MB", Some("3")),
            Ok(OptionEffect::LogLimits)
        );
        options.set("Log Keep MB", Some("0")).unwrap();
        assert_eq!(
            options.log_limits,
            LogLimits {
                file_bytes: 3 * MB,
                keep_bytes: MB
            }
        );
        assert!(options.set("Log Max MB", Some("ten")).is_err());
    }

    #[test]
    fn errors() {
        let mut options = EngineOptions::default();
        assert_eq!(
            options.set("Bogus", Some("1")).unwrap_err().reply(),
            "Error (unknown option): Bogus"
        );
        assert_eq!(
            options.set("Null Move", Some("maybe")).unwrap_err().reply(),
            "Error (invalid option value): Null Move=maybe"
        );
        assert!(options.set("IID", Some("Sometimes")).is_err());
        assert!(options.set("Move Overhead", None).is_err());
    }
}
