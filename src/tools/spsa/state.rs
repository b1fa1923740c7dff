//! The SPSA state file: the run's settings, the finished iterations and each constant's
//! theta as tab-separated lines. It is rewritten whole after every pair (a temporary file,
//! then a rename), so a killed run leaves either the old or the new state, never a mix.

use crate::search::params::{PARAMS, SearchParam, find_param};
use std::path::{Path, PathBuf};

/// The first line; a file that does not open with it is not a state file.
const MAGIC: &str = "# ironwood spsa state";

/// What a run was started with; a resumed run must ask for the same.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The planned iterations (game pairs); the schedule ends there.
    pub pairs: u64,
    pub nodes: u64,
    pub seed: u64,
    /// The `--openings` file as given, if any.
    pub openings: Option<String>,
    /// The evaluation the games are played with (`Evaluation::describe`).
    pub evaluation: String,
    pub params: Vec<&'static SearchParam>,
}

/// A run's place: its settings, the pairs finished, the plus engines' results and theta.
#[derive(Clone, Debug)]
pub struct State {
    pub settings: Settings,
    /// Pairs finished.
    pub iteration: u64,
    /// The plus engines' wins, draws and losses over all finished pairs.
    pub plus_results: [u64; 3],
    /// One per `settings.params`, in their order.
    pub theta: Vec<f64>,
}

impl State {
    /// A new run: theta at the defaults.
    pub fn new(settings: Settings) -> State {
        let theta = settings
            .params
            .iter()
            .map(|p| f64::from(p.default))
            .collect();
        State {
            settings,
            iteration: 0,
            plus_results: [0; 3],
            theta,
        }
    }

    pub fn to_text(&self) -> String {
        let s = &self.settings;
        let names: Vec<&str> = s.params.iter().map(|p| p.name).collect();
        let [wins, draws, losses] = self.plus_results;
        let mut text = format!(
            "{MAGIC}: the run's settings and place, then name, theta, default, min, max, c_end\n\
             pairs\t{}\nnodes\t{}\nseed\t{}\nopenings\t{}\nevaluation\t{}\nparams\t{}\n\
             iteration\t{}\nplus_results\t{wins}\t{draws}\t{losses}\n",
            s.pairs,
            s.nodes,
            s.seed,
            s.openings.as_deref().unwrap_or("-"),
            s.evaluation,
            names.join(","),
            self.iteration,
        );
        for (param, theta) in s.params.iter().zip(&self.theta) {
            // `{}` writes the shortest text that reads back as the same f64, so a resumed
            // run goes on from exactly the theta it stopped at.
            text.push_str(&format!(
                "{}\t{theta}\t{}\t{}\t{}\t{}\n",
                param.name, param.default, param.min, param.max, param.step
            ));
        }
        text
    }

    /// Reads a state file's text; any mistake is an error naming the line.
    pub fn parse(text: &str) -> Result<State, String> {
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, first)) if first.starts_with(MAGIC) => {}
            _ => return Err(format!("not an SPSA state file (no `{MAGIC}` line first)")),
        }
        let mut field = |key: &str| -> Result<(usize, Vec<&str>), String> {
            let Some((n, line)) = lines.next() else {
                return Err(format!("ends before its `{key}` line"));
            };
            let mut parts = line.split('\t');
            if parts.next() != Some(key) {
                return Err(format!("line {}: `{key}` expected", n + 1));
            }
            Ok((n + 1, parts.collect()))
        };
        let pairs = number(field("pairs")?)?;
        let nodes = number(field("nodes")?)?;
        let seed = number(field("seed")?)?;
        let openings = match text_value(field("openings")?)? {
            "-" => None,
            path => Some(path.to_string()),
        };
        let evaluation = text_value(field("evaluation")?)?.to_string();
        let (n, names) = field("params")?;
        let mut params: Vec<&'static SearchParam> = Vec::new();
        for name in text_value((n, names))?.split(',') {
            let param =
                find_param(name).ok_or_else(|| format!("line {n}: unknown constant `{name}`"))?;
            params.push(param);
        }
        let iteration = number(field("iteration")?)?;
        let (n, counts) = field("plus_results")?;
        let results: Vec<u64> = counts
            .iter()
            .map(|c| {
                c.parse()
                    .map_err(|_| format!("line {n}: `{c}` is not a count"))
            })
            .collect::<Result<_, _>>()?;
        let plus_results: [u64; 3] = results
            .try_into()
            .map_err(|_| format!("line {n}: wins, draws and losses expected"))?;
        if pairs == 0 || iteration > pairs {
            return Err(format!(
                "iteration {iteration} of {pairs} planned pairs is no run's place"
            ));
        }
        let mut theta = Vec::new();
        for &param in &params {
            let Some((n, line)) = lines.next() else {
                return Err(format!("ends before the line of {}", param.name));
            };
            theta.push(param_line(n + 1, line, param)?);
        }
        if let Some((n, line)) = lines.find(|(_, l)| !l.trim().is_empty()) {
            return Err(format!("line {}: unexpected `{line}`", n + 1));
        }
        Ok(State {
            settings: Settings {
                pairs,
                nodes,
                seed,
                openings,
                evaluation,
                params,
            },
            iteration,
            plus_results,
            theta,
        })
    }

    /// The state in `path`, or `None` if there is no such file.
    pub fn load(path: &Path) -> Result<Option<State>, String> {
        let text = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let text = String::from_utf8(text)
            .map_err(|_| format!("{}: not an SPSA state file (not text)", path.display()))?;
        State::parse(&text)
            .map(Some)
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes `path.tmp` and renames it over `path`.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let temporary = temporary_path(path);
        let io = |e: std::io::Error| format!("{}: {e}", path.display());
        std::fs::write(&temporary, self.to_text()).map_err(io)?;
        std::fs::rename(&temporary, path).map_err(io)
    }

    /// The constants' values now, rounded, on the defaults for the rest.
    pub fn rounded(&self) -> crate::search::SearchParams {
        let mut values = crate::search::SearchParams::default();
        for (param, theta) in self.settings.params.iter().zip(&self.theta) {
            (param.set)(&mut values, theta.round() as i32);
        }
        values
    }
}

fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}

fn text_value((n, parts): (usize, Vec<&str>)) -> Result<&str, String> {
    match parts[..] {
        [value] if !value.is_empty() => Ok(value),
        _ => Err(format!("line {n}: one value expected")),
    }
}

fn number((n, parts): (usize, Vec<&str>)) -> Result<u64, String> {
    let value = text_value((n, parts))?;
    value
        .parse()
        .map_err(|_| format!("line {n}: `{value}` is not a whole number"))
}

/// One constant's line: its theta, and its default, range and step as the engine has them
/// (a state written by an engine with other ranges is not this run's).
fn param_line(n: usize, line: &str, param: &SearchParam) -> Result<f64, String> {
    let parts: Vec<&str> = line.split('\t').collect();
    let [name, theta, default, min, max, step] = parts[..] else {
        return Err(format!(
            "line {n}: name, theta, default, min, max and c_end expected"
        ));
    };
    if name != param.name {
        return Err(format!("line {n}: {} expected, not `{name}`", param.name));
    }
    let theta: f64 = theta
        .parse()
        .map_err(|_| format!("line {n}: theta `{theta}` is not a number"))?;
    let as_declared = default.parse::<i32>() == Ok(param.default)
        && min.parse::<i32>() == Ok(param.min)
        && max.parse::<i32>() == Ok(param.max)
        && step.parse::<f64>() == Ok(param.step);
    if !as_declared {
        return Err(format!(
            "line {n}: {name}'s default, range and step are not the engine's ({}, {}..{}, {})",
            param.default, param.min, param.max, param.step
        ));
    }
    if !(f64::from(param.min)..=f64::from(param.max)).contains(&theta) {
        return Err(format!(
            "line {n}: {name}'s theta {theta} is outside {}..{}",
            param.min, param.max
        ));
    }
    Ok(theta)
}

/// Every constant, for a run that names none.
pub fn all_params() -> Vec<&'static SearchParam> {
    PARAMS.iter().collect()
}
