//! The command line's vocabulary as data: every flag and subcommand is declared once, with
//! its help and default, and both the usage text and the parser are driven by these tables.

use super::CliError;

/// What a flag takes after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Takes {
    Nothing,
    /// A value, shown in the usage text under this name.
    Value(&'static str),
}

/// A default as the usage text shows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shown {
    None,
    Int(u64),
    Float(f64),
    Text(&'static str),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flag {
    /// The long name, then any aliases (`-h`).
    pub names: &'static [&'static str],
    pub takes: Takes,
    pub help: &'static str,
    pub default: Shown,
}

impl Flag {
    pub const fn new(names: &'static [&'static str], takes: Takes, help: &'static str) -> Flag {
        Flag {
            names,
            takes,
            help,
            default: Shown::None,
        }
    }

    pub const fn default(self, default: Shown) -> Flag {
        Flag { default, ..self }
    }

    pub fn name(&self) -> &'static str {
        self.names[0]
    }

    fn usage_line(&self, indent: usize, out: &mut String) {
        let mut left = self.names.join(", ");
        if let Takes::Value(meta) = self.takes {
            left = format!("{left} {meta}");
        }
        let mut help = self.help.to_string();
        match self.default {
            Shown::None => {}
            Shown::Int(n) => help.push_str(&format!(" (default {n})")),
            Shown::Float(x) => help.push_str(&format!(" (default {x})")),
            Shown::Text(t) => help.push_str(&format!(" (default {t})")),
        }
        let pad = " ".repeat(indent);
        let column = indent + 22;
        if left.len() + 2 > 22 {
            out.push_str(&format!("{pad}{left}\n"));
            wrap(&help, column, out);
        } else {
            out.push_str(&format!("{pad}{left:<22}"));
            wrap_from(&help, column, column, out);
        }
    }
}

/// One subcommand: its name (two words for `corpus add` and the like), what follows it,
/// what it does, and its flags.
#[derive(Clone, Copy, Debug)]
pub struct Command {
    pub name: &'static str,
    pub synopsis: &'static str,
    pub help: &'static str,
    /// Its own flags, in groups, listed under it in the usage text.
    pub flags: &'static [&'static [Flag]],
    /// Flags it shares with other commands, listed once elsewhere (FILTER).
    pub shared: &'static [Flag],
}

impl Command {
    fn flag(&self, name: &str) -> Option<&'static Flag> {
        self.flags
            .iter()
            .flat_map(|group| group.iter())
            .chain(self.shared)
            .find(|f| f.names.contains(&name))
    }

    pub fn usage(&self, out: &mut String) {
        out.push_str(&format!("  {} {}\n", self.name, self.synopsis));
        wrap(self.help, 6, out);
        for flag in self.flags.iter().flat_map(|group| group.iter()) {
            flag.usage_line(6, out);
        }
    }
}

/// Word-wraps `text` at `WIDTH` columns, every line indented by `indent`.
fn wrap(text: &str, indent: usize, out: &mut String) {
    out.push_str(&" ".repeat(indent));
    wrap_from(text, indent, indent, out);
}

const WIDTH: usize = 92;

fn wrap_from(text: &str, mut column: usize, indent: usize, out: &mut String) {
    let start = column;
    for word in text.split_whitespace() {
        if column > start && column + 1 + word.len() > WIDTH {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            column = indent;
        } else if column > start {
            out.push(' ');
            column += 1;
        }
        out.push_str(word);
        column += word.len();
    }
    out.push('\n');
}

pub fn is_option(arg: &str) -> bool {
    arg.starts_with('-') && arg.len() > 1 && !arg.starts_with("--=")
}

/// Splits `--name=value` into its parts.
pub fn split_option(arg: &str) -> (&str, Option<&str>) {
    match arg.split_once('=') {
        Some((name, value)) if name.starts_with("--") => (name, Some(value)),
        _ => (arg, None),
    }
}

/// A subcommand's arguments, checked against its flags.
#[derive(Debug)]
pub struct Matches<'a> {
    what: &'static str,
    found: Vec<(&'static str, Option<&'a str>)>,
    pub positional: Vec<&'a str>,
}

impl<'a> Matches<'a> {
    /// Reads `args` (what follows the subcommand's name): every option must be one of
    /// `command`'s flags, with a value exactly when the flag takes one.
    pub fn parse(command: &Command, args: &'a [String]) -> Result<Matches<'a>, CliError> {
        let mut matches = Matches {
            what: command.name,
            found: Vec::new(),
            positional: Vec::new(),
        };
        let mut i = 0;
        while i < args.len() {
            let (name, inline) = split_option(&args[i]);
            if !is_option(name) {
                matches.positional.push(&args[i]);
                i += 1;
                continue;
            }
            let flag = command
                .flag(name)
                .ok_or_else(|| CliError(format!("unknown option `{name}` for {}", command.name)))?;
            let value = match flag.takes {
                Takes::Nothing if inline.is_some() => {
                    return Err(CliError(format!("{name} takes no value")));
                }
                Takes::Nothing => None,
                Takes::Value(_) => Some(match inline {
                    Some(v) => v,
                    None => {
                        i += 1;
                        args.get(i)
                            .map(String::as_str)
                            .ok_or_else(|| CliError(format!("{name} needs a value")))?
                    }
                }),
            };
            matches.found.push((flag.name(), value));
            i += 1;
        }
        Ok(matches)
    }

    /// The subcommand's name.
    pub fn command(&self) -> &'static str {
        self.what
    }

    /// The last value given for `name`.
    pub fn value(&self, name: &str) -> Option<&'a str> {
        self.found
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| *v)
    }

    /// Every value given for `name`, in order.
    pub fn values(&self, name: &str) -> Vec<&'a str> {
        self.found
            .iter()
            .filter(|(n, _)| *n == name)
            .filter_map(|(_, v)| *v)
            .collect()
    }

    pub fn switch(&self, name: &str) -> bool {
        self.found.iter().any(|(n, _)| *n == name)
    }

    /// The value of `name` read by `read`, if given.
    pub fn get<T>(
        &self,
        name: &str,
        read: impl Fn(&str, &str) -> Result<T, CliError>,
    ) -> Result<Option<T>, CliError> {
        self.value(name).map(|v| read(name, v)).transpose()
    }

    /// The value of a flag that must be given.
    pub fn required(&self, name: &str, meta: &str) -> Result<&'a str, CliError> {
        self.value(name)
            .ok_or_else(|| CliError(format!("{} needs {name} {meta}", self.what)))
    }

    /// No positional arguments beyond the first `allowed`.
    pub fn at_most(&self, allowed: usize) -> Result<(), CliError> {
        if self.positional.len() > allowed {
            return Err(CliError(format!(
                "{}: unexpected arguments {:?}",
                self.what,
                &self.positional[allowed..]
            )));
        }
        Ok(())
    }
}

pub fn number<T: std::str::FromStr>(option: &str, value: &str) -> Result<T, CliError> {
    value
        .parse()
        .map_err(|_| CliError(format!("{option}: `{value}` is not a valid number")))
}

/// A whole number from `low` to `high`; anything else (junk, overflow) is one clear error.
pub fn bounded(option: &str, value: &str, low: u64, high: u64) -> Result<u64, CliError> {
    match value.parse::<u64>() {
        Ok(n) if (low..=high).contains(&n) => Ok(n),
        _ => Err(CliError(format!(
            "{option} must be a whole number from {low} to {high}, not `{value}`"
        ))),
    }
}

pub fn positive(option: &str, text: &str) -> Result<u64, CliError> {
    match number(option, text)? {
        0 => Err(CliError(format!("{option} must be at least 1"))),
        n => Ok(n),
    }
}

/// A number from 0 to 1 (1 itself only when `one_allowed`).
pub fn fraction(option: &str, text: &str, one_allowed: bool) -> Result<f64, CliError> {
    let x: f64 = number(option, text)?;
    if !(x >= 0.0 && (x < 1.0 || one_allowed && x == 1.0)) {
        let upper = if one_allowed { "1" } else { "below 1" };
        return Err(CliError(format!("{option} must be 0 to {upper}")));
    }
    Ok(x)
}

/// A finite number above zero (`or_zero`: zero allowed too).
pub fn nonnegative(option: &str, text: &str, or_zero: bool) -> Result<f64, CliError> {
    let x: f64 = number(option, text)?;
    let fits = x.is_finite() && (x > 0.0 || or_zero && x == 0.0);
    if !fits {
        let what = if or_zero {
            "0 or more"
        } else {
            "a positive number"
        };
        return Err(CliError(format!("{option} must be {what}")));
    }
    Ok(x)
}
