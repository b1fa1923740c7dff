//! The engine-defined options announced with `feature option="..."` and set with
//! `option NAME=VALUE`: time margin, resignation, and one switch per search technique.

use crate::engine::options::{
    EngineOptions, IID_CHOICES, MAX_MOVE_OVERHEAD_MS, MAX_MULTIPV, RESIGN_THRESHOLD_RANGE, SWITCHES,
};

pub use crate::engine::options::DEFAULT_MOVE_OVERHEAD_MS;

/// What the session must do after an option changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionEffect {
    Nothing,
    ClearHash,
    /// Hand the new `SearchFeatures` to the search worker.
    SearchFeatures,
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

fn parse_check(value: &str) -> Option<bool> {
    match value {
        "1" | "true" | "on" => Some(true),
        "0" | "false" | "off" => Some(false),
        _ => None,
    }
}

fn parse_spin(value: &str, low: i64, high: i64) -> Option<i64> {
    value.trim().parse::<i64>().ok().map(|v| v.clamp(low, high))
}

/// The option feature values, e.g. `Move Overhead -spin 30 0 5000`, with the current
/// values as defaults.
pub fn features(options: &EngineOptions) -> Vec<String> {
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
        // XBoard shows its "fewer / more" control in the analysis window for this name.
        format!("MultiPV -spin {} 1 {MAX_MULTIPV}", options.multipv),
    ];
    let mut features = options.search;
    for (name, get) in SWITCHES {
        list.push(format!("{name} -check {}", u8::from(*get(&mut features))));
    }
    let choices: Vec<String> = IID_CHOICES
        .iter()
        .map(|(name, mode)| {
            if *mode == options.search.iid {
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
pub fn set(
    options: &mut EngineOptions,
    name: &str,
    value: Option<&str>,
) -> Result<OptionEffect, OptionError> {
    let raw = value.unwrap_or("");
    let value = raw.trim();
    let bad = || OptionError::BadValue {
        name: name.to_string(),
        value: raw.to_string(),
    };
    match name {
        "Move Overhead" => {
            let v = parse_spin(value, 0, MAX_MOVE_OVERHEAD_MS as i64).ok_or_else(bad)?;
            options.move_overhead_ms = v as u64;
            Ok(OptionEffect::Nothing)
        }
        "Resign" => {
            options.resign = parse_check(value).ok_or_else(bad)?;
            Ok(OptionEffect::Nothing)
        }
        "Resign Threshold" => {
            let (low, high) = RESIGN_THRESHOLD_RANGE;
            let v = parse_spin(value, i64::from(low), i64::from(high)).ok_or_else(bad)?;
            options.resign_threshold = v as i32;
            Ok(OptionEffect::Nothing)
        }
        "Clear Hash" => Ok(OptionEffect::ClearHash),
        "MultiPV" => {
            options.multipv = parse_spin(value, 1, MAX_MULTIPV as i64).ok_or_else(bad)? as usize;
            Ok(OptionEffect::Nothing)
        }
        "IID" => {
            let (_, mode) = IID_CHOICES
                .iter()
                .find(|(choice, _)| *choice == value)
                .ok_or_else(bad)?;
            options.search.iid = *mode;
            Ok(OptionEffect::SearchFeatures)
        }
        _ => {
            let (_, get) = SWITCHES
                .iter()
                .find(|(switch, _)| *switch == name)
                .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
            *get(&mut options.search) = parse_check(value).ok_or_else(bad)?;
            Ok(OptionEffect::SearchFeatures)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::IidMode;

    #[test]
    fn features_list_every_option_once() {
        let features = features(&EngineOptions::default());
        assert!(features.contains(&"Move Overhead -spin 30 0 5000".to_string()));
        assert!(features.contains(&"IID -combo *Classic /// SelfDeepening /// Off".to_string()));
        assert!(features.contains(&"Null Move -check 1".to_string()));
        assert!(features.contains(&"MultiPV -spin 1 1 64".to_string()));
        assert_eq!(features.len(), 5 + SWITCHES.len() + 1);
    }

    #[test]
    fn setting_values() {
        let mut options = EngineOptions::default();
        assert_eq!(
            set(&mut options, "Move Overhead", Some("100")),
            Ok(OptionEffect::Nothing)
        );
        assert_eq!(options.move_overhead_ms, 100);
        set(&mut options, "Move Overhead", Some("999999")).unwrap();
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
    }

    #[test]
    fn errors() {
        let mut options = EngineOptions::default();
        assert_eq!(
            set(&mut options, "Bogus", Some("1")).unwrap_err().reply(),
            "Error (unknown option): Bogus"
        );
        assert_eq!(
            set(&mut options, "Null Move", Some("maybe"))
                .unwrap_err()
                .reply(),
            "Error (invalid option value): Null Move=maybe"
        );
        assert!(set(&mut options, "IID", Some("Sometimes")).is_err());
        assert!(set(&mut options, "Move Overhead", None).is_err());
    }
}
