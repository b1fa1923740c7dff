//! The options a UCI GUI sees after `uci` (`option name ... type ...`) and sets with
//! `setoption`: the engine core's settings under the names Stockfish-era GUIs expect, and
//! the same technique switches XBoard offers. Names match case-insensitively, as UCI asks.

use crate::engine::options::{
    DRIVER_CHOICES, EVALUATION_CHOICES, EngineOptions, IID_CHOICES, MAX_MOVE_OVERHEAD_MS,
    MAX_MULTIPV, MAX_RANDOM_SEED, SWITCHES, clamp_threads,
};
use crate::engine::strength::{ELO_RANGE, MAX_RANDOMIZE_CP, MAX_SKILL_LEVEL};
use crate::limits::hash_cap_mb;

/// What the session must do after `setoption`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OptionEffect {
    /// The value is in `EngineOptions` already.
    Nothing,
    /// Resize the table to this many MB.
    Hash(u64),
    Threads(u64),
    ClearHash,
    /// Hand the new `SearchFeatures` to the search thread.
    SearchFeatures,
    /// Seed the move choice again (`Random Seed` changed).
    Reseed,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum OptionError {
    Unknown(String),
    BadValue {
        name: String,
        value: String,
    },
    /// A number outside the announced range.
    OutOfRange {
        name: String,
        value: String,
        low: u64,
        high: u64,
    },
    /// A network file that cannot be used: `why` says why and which network stays.
    Network {
        value: String,
        why: String,
    },
}

impl OptionError {
    /// The `info string ...` reply.
    pub(crate) fn reply(&self) -> String {
        match self {
            OptionError::Unknown(name) => format!("info string error (unknown option): {name}"),
            OptionError::BadValue { name, value } => {
                format!("info string error (invalid option value): {name} = {value}")
            }
            OptionError::OutOfRange {
                name,
                value,
                low,
                high,
            } => format!(
                "info string error (option value out of range {low} to {high}): {name} = {value}"
            ),
            OptionError::Network { value, why } => {
                format!("info string error (network refused: {why}): EvalFile = {value}")
            }
        }
    }
}

/// The `option name ...` lines after `uci`, defaults from the current settings.
pub(crate) fn announcements(
    options: &EngineOptions,
    hash_mb: usize,
    threads: usize,
) -> Vec<String> {
    let cores = clamp_threads(u64::MAX);
    let mut lines = vec![
        format!(
            "option name Hash type spin default {hash_mb} min 1 max {}",
            hash_cap_mb().max(hash_mb as u64)
        ),
        format!("option name Threads type spin default {threads} min 1 max {cores}"),
        format!(
            "option name MultiPV type spin default {} min 1 max {MAX_MULTIPV}",
            options.multipv
        ),
        format!("option name Ponder type check default {}", options.ponder),
        format!(
            "option name Move Overhead type spin default {} min 0 max {MAX_MOVE_OVERHEAD_MS}",
            options.move_overhead_ms
        ),
        "option name Clear Hash type button".to_string(),
        format!(
            "option name UCI_Chess960 type check default {}",
            options.chess960
        ),
        format!(
            "option name Skill Level type spin default {} min 0 max {MAX_SKILL_LEVEL}",
            options.skill_level
        ),
        format!(
            "option name UCI_LimitStrength type check default {}",
            options.limit_strength
        ),
        format!(
            "option name UCI_Elo type spin default {} min {} max {}",
            options.elo, ELO_RANGE.0, ELO_RANGE.1
        ),
        format!(
            "option name Randomize (cp) type spin default {} min 0 max {MAX_RANDOMIZE_CP}",
            options.randomize_cp
        ),
        format!(
            "option name Random Seed type spin default {} min 0 max {MAX_RANDOM_SEED}",
            options.random_seed
        ),
    ];
    let mut features = options.search;
    for (name, get) in SWITCHES {
        lines.push(format!(
            "option name {name} type check default {}",
            *get(&mut features)
        ));
    }
    lines.push(combo_line("IID", &IID_CHOICES, options.search.iid));
    lines.push(combo_line(
        "Search Driver",
        &DRIVER_CHOICES,
        options.search.driver,
    ));
    let evaluations = EVALUATION_CHOICES.map(|name| (name, name));
    lines.push(combo_line(
        "Evaluation",
        &evaluations,
        options.evaluation_name(),
    ));
    lines.push(format!(
        "option name EvalFile type string default {}",
        options.eval_file
    ));
    lines
}

/// `option name NAME type combo default CURRENT var A var B ...` for a table of choices.
fn combo_line<T: Copy + PartialEq>(name: &str, choices: &[(&str, T)], current: T) -> String {
    let default = choices
        .iter()
        .find(|(_, value)| *value == current)
        .map_or(choices[0].0, |(choice, _)| choice);
    let vars: Vec<String> = choices
        .iter()
        .map(|(choice, _)| format!("var {choice}"))
        .collect();
    format!(
        "option name {name} type combo default {default} {}",
        vars.join(" ")
    )
}

/// The value of the choice named `value`, in any case.
fn find_choice<T: Copy>(choices: &[(&str, T)], value: &str) -> Option<T> {
    choices
        .iter()
        .find(|(choice, _)| choice.eq_ignore_ascii_case(value))
        .map(|&(_, chosen)| chosen)
}

fn parse_check(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "1" | "on" => Some(true),
        "false" | "0" | "off" => Some(false),
        _ => None,
    }
}

/// An integer within [low, high]; anything else is refused and changes nothing.
fn parse_spin(name: &str, value: &str, low: u64, high: u64) -> Result<u64, OptionError> {
    let v: i128 = value.parse().map_err(|_| OptionError::BadValue {
        name: name.to_string(),
        value: value.to_string(),
    })?;
    if v < i128::from(low) || v > i128::from(high) {
        return Err(OptionError::OutOfRange {
            name: name.to_string(),
            value: value.to_string(),
            low,
            high,
        });
    }
    Ok(v as u64)
}

/// Applies `setoption name NAME [value VALUE]`.
pub(crate) fn set(
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
    let key = name.to_ascii_lowercase();
    match key.as_str() {
        "hash" => Ok(OptionEffect::Hash(parse_spin(
            name,
            value,
            1,
            hash_cap_mb(),
        )?)),
        "threads" => Ok(OptionEffect::Threads(parse_spin(
            name,
            value,
            1,
            clamp_threads(u64::MAX) as u64,
        )?)),
        "multipv" => {
            options.multipv = parse_spin(name, value, 1, MAX_MULTIPV as u64)? as usize;
            Ok(OptionEffect::Nothing)
        }
        "ponder" => {
            options.ponder = parse_check(value).ok_or_else(bad)?;
            Ok(OptionEffect::Nothing)
        }
        "move overhead" => {
            options.move_overhead_ms = parse_spin(name, value, 0, MAX_MOVE_OVERHEAD_MS)?;
            Ok(OptionEffect::Nothing)
        }
        "clear hash" => Ok(OptionEffect::ClearHash),
        "skill level" => {
            options.skill_level = parse_spin(name, value, 0, u64::from(MAX_SKILL_LEVEL))? as u32;
            Ok(OptionEffect::Nothing)
        }
        "uci_limitstrength" => {
            options.limit_strength = parse_check(value).ok_or_else(bad)?;
            Ok(OptionEffect::Nothing)
        }
        "uci_elo" => {
            let (low, high) = ELO_RANGE;
            options.elo = parse_spin(name, value, u64::from(low), u64::from(high))? as u32;
            Ok(OptionEffect::Nothing)
        }
        "randomize (cp)" => {
            options.randomize_cp = parse_spin(name, value, 0, u64::from(MAX_RANDOMIZE_CP))? as u32;
            Ok(OptionEffect::Nothing)
        }
        "random seed" => {
            options.random_seed = parse_spin(name, value, 0, MAX_RANDOM_SEED)?;
            Ok(OptionEffect::Reseed)
        }
        "uci_chess960" => {
            options.chess960 = parse_check(value).ok_or_else(bad)?;
            Ok(OptionEffect::Nothing)
        }
        "iid" => {
            options.search.iid = find_choice(&IID_CHOICES, value).ok_or_else(bad)?;
            Ok(OptionEffect::SearchFeatures)
        }
        "search driver" => {
            options.search.driver = find_choice(&DRIVER_CHOICES, value).ok_or_else(bad)?;
            Ok(OptionEffect::SearchFeatures)
        }
        "evaluation" => {
            options.set_evaluation(value, true).ok_or_else(bad)?;
            Ok(OptionEffect::SearchFeatures)
        }
        "evalfile" => {
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
                .find(|(switch, _)| switch.eq_ignore_ascii_case(name))
                .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
            *get(&mut options.search) = parse_check(value).ok_or_else(bad)?;
            Ok(OptionEffect::SearchFeatures)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_announced_option_can_be_set_to_its_default() {
        let mut options = EngineOptions::default();
        for line in announcements(&options.clone(), 64, 1) {
            let rest = line.strip_prefix("option name ").unwrap();
            let (name, kind) = rest.split_once(" type ").unwrap();
            let value = kind.split_once(" default ").map(|(_, d)| {
                d.split(" min ")
                    .next()
                    .unwrap()
                    .split(" var ")
                    .next()
                    .unwrap()
            });
            assert!(
                set(&mut options, name, value).is_ok(),
                "{line}: {:?}",
                set(&mut options, name, value)
            );
        }
    }

    #[test]
    fn names_match_whatever_their_case() {
        let mut options = EngineOptions::default();
        assert_eq!(
            set(&mut options, "multipv", Some("3")),
            Ok(OptionEffect::Nothing)
        );
        assert_eq!(options.multipv, 3);
        assert_eq!(
            set(&mut options, "HASH", Some("128")),
            Ok(OptionEffect::Hash(128))
        );
        assert_eq!(
            set(&mut options, "null move", Some("false")),
            Ok(OptionEffect::SearchFeatures)
        );
        assert!(!options.search.null_move);
        assert_eq!(
            set(&mut options, "Clear Hash", None),
            Ok(OptionEffect::ClearHash)
        );
    }

    #[test]
    fn bad_or_out_of_range_values_are_refused_and_change_nothing() {
        let mut options = EngineOptions::default();
        for (name, value) in [
            ("MultiPV", "1000"),
            ("MultiPV", "0"),
            ("Move Overhead", "-5"),
        ] {
            let error = set(&mut options, name, Some(value)).unwrap_err();
            assert!(matches!(error, OptionError::OutOfRange { .. }), "{name}");
        }
        assert_eq!(
            set(&mut options, "MultiPV", Some("65"))
                .unwrap_err()
                .reply(),
            "info string error (option value out of range 1 to 64): MultiPV = 65"
        );
        assert_eq!(options.multipv, 1);
        assert_eq!(options.move_overhead_ms, 30);
        for (name, value) in [
            ("MultiPV", "three"),
            ("Hash", ""),
            ("Ponder", "maybe"),
            ("IID", "Sometimes"),
            ("Search Driver", "Sideways"),
            ("Futility", "2"),
        ] {
            let error = set(&mut options, name, Some(value)).unwrap_err();
            assert!(matches!(error, OptionError::BadValue { .. }), "{name}");
            assert!(error.reply().starts_with("info string error"));
        }
        assert_eq!(
            set(&mut options, "Frobnicate", Some("1")),
            Err(OptionError::Unknown("Frobnicate".to_string()))
        );
    }
}
