//! The engine's options (declared once in `engine::options`: `OPTIONS`, then the search's
//! constants; the lab's switches and constants announced only with `--tunables`) in UCI's
//! words: the `option name ... type ...` lines after `uci`, and `setoption`, which sets any of
//! them. Names match case-insensitively, as UCI asks; check boxes take true/false (also 1/0,
//! on/off).

pub(crate) use crate::engine::options::OptionEffect;
use crate::engine::options::{
    EngineOption, EngineOptions, OptionKind, SetError, Spelling, all_options, check_word,
};

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
    /// A file that cannot be used (`holds` says what it was to hold): `why` says why and
    /// what stays.
    File {
        name: String,
        value: String,
        holds: &'static str,
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
            OptionError::File {
                name,
                value,
                holds,
                why,
            } => format!("info string error ({holds} refused: {why}): {name} = {value}"),
        }
    }
}

/// The `option name ...` lines after `uci`, defaults from the current settings.
pub(crate) fn announcements(options: &EngineOptions) -> Vec<String> {
    all_options()
        .filter(|o| o.shown_to_uci() && o.announced(options))
        .map(|o| announcement(o, options))
        .collect()
}

fn announcement(option: &EngineOption, options: &EngineOptions) -> String {
    let name = option.name;
    match option.kind {
        OptionKind::Check { get, .. } => {
            format!("option name {name} type check default {}", get(options))
        }
        OptionKind::Spin { range, get, .. } => {
            let (low, high) = range(options);
            format!(
                "option name {name} type spin default {} min {low} max {high}",
                get(options)
            )
        }
        OptionKind::Combo { choices, get, .. } => {
            let vars: Vec<String> = choices.iter().map(|c| format!("var {c}")).collect();
            format!(
                "option name {name} type combo default {} {}",
                get(options),
                vars.join(" ")
            )
        }
        OptionKind::Button => format!("option name {name} type button"),
        OptionKind::File { get, .. } | OptionKind::Path { get, .. } => {
            format!("option name {name} type string default {}", get(options))
        }
    }
}

/// How UCI names options (case-insensitively) and spells check boxes.
const UCI: Spelling = Spelling {
    shown: EngineOption::shown_to_uci,
    ignore_case: true,
    check: check_word,
};

/// Applies `setoption name NAME [value VALUE]` through `EngineOptions::set`; a value the
/// option cannot take is refused and changes nothing.
pub(crate) fn set(
    options: &mut EngineOptions,
    name: &str,
    value: Option<&str>,
) -> Result<OptionEffect, OptionError> {
    let raw = value.unwrap_or("");
    match options.set(name, raw, UCI) {
        Ok((_, effect)) => Ok(effect),
        Err(SetError::Unknown) => Err(OptionError::Unknown(name.to_string())),
        Err(SetError::BadValue(_)) => Err(OptionError::BadValue {
            name: name.to_string(),
            value: raw.to_string(),
        }),
        Err(SetError::OutOfRange { low, high, .. }) => Err(OptionError::OutOfRange {
            name: name.to_string(),
            value: raw.to_string(),
            low: low as u64,
            high: high as u64,
        }),
        Err(SetError::File { holds, why }) => Err(OptionError::File {
            name: name.to_string(),
            value: raw.to_string(),
            holds,
            why,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_start_announces_the_users_options_and_tunables_adds_the_labs() {
        let names = |options: &EngineOptions| -> Vec<String> {
            announcements(options)
                .iter()
                .map(|l| {
                    let rest = l.strip_prefix("option name ").unwrap();
                    rest.split(" type ").next().unwrap().to_string()
                })
                .collect()
        };
        let user = [
            "Hash",
            "Threads",
            "Move Overhead",
            "Clear Hash",
            "MultiPV",
            "Ponder",
            "UCI_Chess960",
            "Skill Level",
            "UCI_LimitStrength",
            "UCI_Elo",
            "Randomize (cp)",
            "Random Seed",
            "EvalFile",
            "OwnBook",
            "Book File",
            "Best Book Move",
            "Book Depth",
            "SyzygyPath",
            "SyzygyProbeDepth",
            "Syzygy50MoveRule",
            "SyzygyProbeLimit",
        ];
        assert_eq!(names(&EngineOptions::default()), user);
        let lab = EngineOptions {
            announce_lab: true,
            ..EngineOptions::default()
        };
        let all = names(&lab);
        assert_eq!(all[..user.len()], user);
        for name in [
            "Null Move",
            "Adaptive Time",
            "IID",
            "Search Driver",
            "Evaluation",
        ] {
            assert!(all.iter().any(|n| n == name), "{name}: {all:?}");
        }
        // Every lab option is announced: the switches and forms of `OPTIONS`, then `TUNABLES`.
        let lab_options = crate::engine::options::all_options()
            .filter(|o| o.audience == crate::engine::options::Audience::Lab)
            .count();
        assert_eq!(all.len(), user.len() + lab_options);
    }

    #[test]
    fn every_announced_option_can_be_set_to_its_default() {
        let mut options = EngineOptions {
            announce_lab: true,
            ..EngineOptions::default()
        };
        for line in announcements(&options.clone()) {
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
            Ok(OptionEffect::Hash)
        );
        assert_eq!(options.hash_mb, 128);
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
