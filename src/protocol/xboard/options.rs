//! The engine's options (declared once in `engine::options`: `OPTIONS`, then the search's
//! constants; the lab's switches and constants announced only with `--tunables`) in XBoard's
//! words: `feature option="NAME -spin ..."` and `option NAME=VALUE`, which sets any of them.
//! Names match exactly; check boxes take 0 or 1.

pub(crate) use crate::engine::options::OptionEffect;
use crate::engine::options::{
    EngineOption, EngineOptions, OptionKind, SetError, Spelling, all_options,
};

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum OptionError {
    Unknown(String),
    /// `expected` says what the option takes, e.g. `0 to 5000`.
    BadValue {
        name: String,
        value: String,
        expected: String,
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
    /// The `Error (...): ...` reply.
    pub(crate) fn reply(&self) -> String {
        match self {
            OptionError::Unknown(name) => format!("Error (unknown option): {name}"),
            OptionError::BadValue {
                name,
                value,
                expected,
            } => format!("Error (invalid option value, {expected}): {name}={value}"),
            OptionError::File {
                name,
                value,
                holds,
                why,
            } => format!("Error ({holds} refused: {why}): {name}={value}"),
        }
    }
}

/// The option feature values, e.g. `Move Overhead -spin 30 0 5000`, with the current
/// values as defaults.
pub(crate) fn features(options: &EngineOptions) -> Vec<String> {
    all_options()
        .filter(|o| o.shown_to_xboard() && o.announced(options))
        .map(|o| feature(o, options))
        .collect()
}

fn feature(option: &EngineOption, options: &EngineOptions) -> String {
    let name = option.name;
    match option.kind {
        OptionKind::Check { get, .. } => format!("{name} -check {}", u8::from(get(options))),
        OptionKind::Spin { range, get, .. } => {
            let (low, high) = range(options);
            format!("{name} -spin {} {low} {high}", get(options))
        }
        OptionKind::Combo { choices, get, .. } => {
            let current = get(options);
            let choices: Vec<String> = choices
                .iter()
                .map(|c| {
                    if *c == current {
                        format!("*{c}")
                    } else {
                        (*c).to_string()
                    }
                })
                .collect();
            format!("{name} -combo {}", choices.join(" /// "))
        }
        OptionKind::Button => format!("{name} -button"),
        OptionKind::File { get, .. } => format!("{name} -file {}", get(options)),
        OptionKind::Path { get, .. } => format!("{name} -path {}", get(options)),
    }
}

/// How XBoard names options (exactly) and spells check boxes (0 or 1).
const XBOARD: Spelling = Spelling {
    shown: EngineOption::shown_to_xboard,
    ignore_case: false,
    check: |value| match value {
        "1" => Some(true),
        "0" => Some(false),
        _ => None,
    },
};

/// Applies `option NAME[=VALUE]` through `EngineOptions::set`; a value the option cannot
/// take changes nothing.
pub(crate) fn set(
    options: &mut EngineOptions,
    name: &str,
    value: Option<&str>,
) -> Result<OptionEffect, OptionError> {
    let raw = value.unwrap_or("");
    let bad = |expected: String| OptionError::BadValue {
        name: name.to_string(),
        value: raw.to_string(),
        expected,
    };
    match options.set(name, raw, XBOARD) {
        Ok((_, effect)) => Ok(effect),
        Err(SetError::Unknown) => Err(OptionError::Unknown(name.to_string())),
        Err(SetError::OutOfRange { low, high, .. }) => Err(bad(format!("{low} to {high}"))),
        Err(SetError::BadValue(option)) => Err(bad(match option.kind {
            OptionKind::Spin { range, .. } => {
                let (low, high) = range(options);
                format!("{low} to {high}")
            }
            OptionKind::Combo { choices, .. } => format!("one of {}", choices.join(", ")),
            _ => "0 or 1".to_string(),
        })),
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
    use crate::engine::limits::MAX_MOVE_OVERHEAD_MS;
    use crate::logging::MB;
    use crate::search::IidMode;

    const USER_FEATURES: [&str; 19] = [
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
        "EvalFile -file <embedded>",
        "OwnBook -check 0",
        "Book File -file <empty>",
        "Best Book Move -check 0",
        "Book Depth -spin 255 1 1000",
        "SyzygyPath -path <empty>",
        "SyzygyProbeDepth -spin 1 1 100",
        "Syzygy50MoveRule -check 1",
        "SyzygyProbeLimit -spin 7 0 7",
    ];

    #[test]
    fn features_list_the_users_options_once_with_their_current_values() {
        let mut options = EngineOptions::default();
        assert_eq!(features(&options), USER_FEATURES);
        set(&mut options, "Move Overhead", Some("75")).unwrap();
        assert_eq!(features(&options)[0], "Move Overhead -spin 75 0 5000");
    }

    #[test]
    fn with_tunables_the_lab_options_follow_the_users_with_their_current_values() {
        let mut options = EngineOptions {
            announce_lab: true,
            ..EngineOptions::default()
        };
        let all = features(&options);
        assert_eq!(all[..USER_FEATURES.len()], USER_FEATURES);
        let lab = [
            "Null Move -check 1",
            "Late Move Reductions -check 1",
            "Reverse Futility -check 1",
            "Futility -check 1",
            "Late Move Pruning -check 1",
            "Recapture Extension -check 1",
            "Aspiration Windows -check 1",
            "Fail High Reduction -check 0",
            "SEE Pruning -check 1",
            "History Pruning -check 0",
            "Capture Futility -check 0",
            "Singular Extensions -check 1",
            "Double Extensions -check 1",
            "Razoring -check 1",
            "Reduced Depth Pruning -check 1",
            "Re-search Depth -check 1",
            "Correction History -check 0",
            "ProbCut -check 1",
            "TT Eval -check 1",
            "TT PV -check 0",
            "Threat Ordering -check 0",
            "Fourth Ply Continuation -check 0",
            "Cutoff Count -check 1",
            "Adaptive Time -check 1",
            "IID -combo Classic /// SelfDeepening /// *Reduction /// Off",
            "Search Driver -combo *Recursive /// Iterative",
            "Evaluation -combo Classical /// *NNUE",
        ];
        assert_eq!(
            all[USER_FEATURES.len()..USER_FEATURES.len() + lab.len()],
            lab
        );
        assert_eq!(
            all.len(),
            USER_FEATURES.len() + lab.len() + crate::engine::options::TUNABLES.len()
        );
        set(&mut options, "Futility", Some("0")).unwrap();
        set(&mut options, "IID", Some("Off")).unwrap();
        let changed = features(&options);
        let line = |name: &str| {
            changed
                .iter()
                .find(|l| l.starts_with(&format!("{name} -")))
                .cloned()
        };
        assert_eq!(line("Futility").as_deref(), Some("Futility -check 0"));
        assert_eq!(
            line("IID").as_deref(),
            Some("IID -combo Classic /// SelfDeepening /// Reduction /// *Off")
        );
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
                "Error (invalid option value, one of Classic, SelfDeepening, Reduction, Off): IID=Sometimes",
            ),
            (
                "IID",
                Some("classic"),
                "Error (invalid option value, one of Classic, SelfDeepening, Reduction, Off): IID=classic",
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
