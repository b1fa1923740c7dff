//! The command line, parsed by hand: global options anywhere, then at most one subcommand
//! with its own arguments. Never panics; every mistake is a `CliError` (exit status 2).

use std::fmt;
use std::path::PathBuf;

pub const USAGE: &str = "\
Usage: ironwood [OPTIONS] [SUBCOMMAND]

Without a subcommand Ironwood plays on stdin and stdout: UCI when the first command is
`uci`, otherwise the XBoard/WinBoard protocol (CECP v2); start it from a GUI, e.g.
`xboard -fcp ironwood`, or as a UCI engine.

Subcommands:
  perft DEPTH [FEN]                 perft divide of FEN (default: the start position)
  perft --epd FILE [--max-depth D]  perft suite (`FEN ;D1 n ;D2 n ...`); exit 1 on a mismatch
  bench [DEPTH]                     fixed-depth search of the bench positions (default 11);
                                    prints `nodes N time_ms T nps X` last
  epd FILE [--ms MS]                solve an EPD suite (bm, am, dm) with MS per position
                                    (default 1000); prints `solved S of T` last

Options:
  --hash MB            transposition table size (default 64)
  --threads N          search threads (default 1)
  --move-overhead MS   time kept back per move for GUI/pipe lag (default 30)
  --log-dir DIR        folder for log files (default: $IRONWOOD_LOG_DIR, else ./logs)
  --protocol P         speak P (uci or xboard) whatever the first command is
  -h, --help           this text
  -V, --version        the version
";

pub const DEFAULT_HASH_MB: usize = 64;
pub const DEFAULT_EPD_MS: u64 = 1000;
const MAX_HASH_MB: usize = 1 << 20;
const MAX_THREADS: usize = 256;

/// Options that apply to every mode.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GlobalOptions {
    pub hash_mb: Option<usize>,
    pub threads: Option<usize>,
    pub move_overhead_ms: Option<u64>,
    pub log_dir: Option<PathBuf>,
    /// `--protocol`: `None` lets the first command decide.
    pub protocol: Option<Protocol>,
}

/// The protocol spoken on stdin/stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Xboard,
    Uci,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subcommand {
    Xboard,
    Help,
    Version,
    Perft {
        depth: u32,
        fen: Option<String>,
    },
    PerftSuite {
        file: PathBuf,
        max_depth: Option<u32>,
    },
    Bench {
        depth: Option<u32>,
    },
    Epd {
        file: PathBuf,
        ms: u64,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cli {
    pub options: GlobalOptions,
    pub command: Subcommand,
}

/// A usage mistake, reported on stderr with exit status 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\nTry `ironwood --help`.", self.0)
    }
}

fn is_option(arg: &str) -> bool {
    arg.starts_with('-') && arg.len() > 1 && !arg.starts_with("--=")
}

/// Splits `--name=value` into its parts.
fn split_option(arg: &str) -> (&str, Option<&str>) {
    match arg.split_once('=') {
        Some((name, value)) if name.starts_with("--") => (name, Some(value)),
        _ => (arg, None),
    }
}

fn number<T: std::str::FromStr>(option: &str, value: &str) -> Result<T, CliError> {
    value
        .parse()
        .map_err(|_| CliError(format!("{option}: `{value}` is not a valid number")))
}

/// Takes the value of an option: inline (`--x=v`) or the next argument.
fn value<'a>(
    name: &str,
    inline: Option<&'a str>,
    args: &'a [String],
    i: &mut usize,
) -> Result<&'a str, CliError> {
    if let Some(v) = inline {
        return Ok(v);
    }
    *i += 1;
    args.get(*i)
        .map(String::as_str)
        .ok_or_else(|| CliError(format!("{name} needs a value")))
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Cli, CliError> {
    let mut options = GlobalOptions::default();
    let mut rest: Vec<String> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        let (name, inline) = split_option(arg);
        match name {
            "-h" | "--help" => {
                return Ok(Cli {
                    options,
                    command: Subcommand::Help,
                });
            }
            "-V" | "--version" => {
                return Ok(Cli {
                    options,
                    command: Subcommand::Version,
                });
            }
            "--hash" => {
                let mb: usize = number(name, value(name, inline, args, &mut i)?)?;
                if !(1..=MAX_HASH_MB).contains(&mb) {
                    return Err(CliError(format!("--hash must be 1 to {MAX_HASH_MB}")));
                }
                options.hash_mb = Some(mb);
            }
            "--threads" => {
                let n: usize = number(name, value(name, inline, args, &mut i)?)?;
                if !(1..=MAX_THREADS).contains(&n) {
                    return Err(CliError(format!("--threads must be 1 to {MAX_THREADS}")));
                }
                options.threads = Some(n);
            }
            "--move-overhead" => {
                options.move_overhead_ms = Some(number(name, value(name, inline, args, &mut i)?)?);
            }
            "--log-dir" => {
                let dir = value(name, inline, args, &mut i)?;
                if dir.is_empty() {
                    return Err(CliError("--log-dir needs a folder".to_string()));
                }
                options.log_dir = Some(PathBuf::from(dir));
            }
            "--protocol" => {
                options.protocol = Some(match value(name, inline, args, &mut i)? {
                    "uci" => Protocol::Uci,
                    "xboard" => Protocol::Xboard,
                    other => {
                        return Err(CliError(format!(
                            "--protocol must be uci or xboard, not `{other}`"
                        )));
                    }
                });
            }
            _ => rest.push(arg.to_string()),
        }
        i += 1;
    }
    let command = subcommand(&rest)?;
    Ok(Cli { options, command })
}

fn subcommand(rest: &[String]) -> Result<Subcommand, CliError> {
    let Some(first) = rest.first() else {
        return Ok(Subcommand::Xboard);
    };
    let args = &rest[1..];
    match first.as_str() {
        "perft" => perft(args),
        "bench" => match args {
            [] => Ok(Subcommand::Bench { depth: None }),
            [d] if !is_option(d) => Ok(Subcommand::Bench {
                depth: Some(depth_value("bench", d)?),
            }),
            _ => Err(unexpected("bench", args)),
        },
        "epd" => epd(args),
        other if is_option(other) => Err(CliError(format!("unknown option `{other}`"))),
        other => Err(CliError(format!("unknown subcommand `{other}`"))),
    }
}

fn depth_value(what: &str, text: &str) -> Result<u32, CliError> {
    let depth: u32 = number(what, text)?;
    if depth > 64 {
        return Err(CliError(format!(
            "{what}: depth {depth} is too deep (at most 64)"
        )));
    }
    Ok(depth)
}

fn unexpected(what: &str, args: &[String]) -> CliError {
    match args.iter().find(|a| is_option(a)) {
        Some(option) => CliError(format!("unknown option `{option}` for {what}")),
        None => CliError(format!("{what}: unexpected arguments {args:?}")),
    }
}

fn perft(args: &[String]) -> Result<Subcommand, CliError> {
    if args.first().map(String::as_str) == Some("--epd") {
        let mut file = None;
        let mut max_depth = None;
        let mut i = 1;
        while i < args.len() {
            let (name, inline) = split_option(&args[i]);
            match name {
                "--max-depth" => {
                    max_depth = Some(depth_value(name, value(name, inline, args, &mut i)?)?)
                }
                _ if is_option(name) => {
                    return Err(CliError(format!("unknown option `{name}` for perft")));
                }
                _ if file.is_none() => file = Some(PathBuf::from(&args[i])),
                _ => return Err(unexpected("perft --epd", &args[i..])),
            }
            i += 1;
        }
        let file = file.ok_or_else(|| CliError("perft --epd needs a FILE".to_string()))?;
        return Ok(Subcommand::PerftSuite { file, max_depth });
    }
    let Some(depth) = args.first() else {
        return Err(CliError("perft needs a DEPTH".to_string()));
    };
    if is_option(depth) {
        return Err(CliError(format!("unknown option `{depth}` for perft")));
    }
    let depth = depth_value("perft", depth)?;
    // FEN fields may be a bare `-`; anything else starting with `-` is a mistake.
    if let Some(option) = args[1..].iter().find(|a| is_option(a)) {
        return Err(CliError(format!("unknown option `{option}` for perft")));
    }
    let fen = args[1..].join(" ");
    Ok(Subcommand::Perft {
        depth,
        fen: (!fen.is_empty()).then_some(fen),
    })
}

fn epd(args: &[String]) -> Result<Subcommand, CliError> {
    let mut file = None;
    let mut ms = DEFAULT_EPD_MS;
    let mut i = 0;
    while i < args.len() {
        let (name, inline) = split_option(&args[i]);
        match name {
            "--ms" => {
                ms = number(name, value(name, inline, args, &mut i)?)?;
                if ms == 0 {
                    return Err(CliError("--ms must be at least 1".to_string()));
                }
            }
            _ if is_option(name) => {
                return Err(CliError(format!("unknown option `{name}` for epd")));
            }
            _ if file.is_none() => file = Some(PathBuf::from(&args[i])),
            _ => return Err(unexpected("epd", &args[i..])),
        }
        i += 1;
    }
    let file = file.ok_or_else(|| CliError("epd needs a FILE".to_string()))?;
    Ok(Subcommand::Epd { file, ms })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cli(line: &str) -> Result<Cli, CliError> {
        let args: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        parse(&args)
    }

    fn command(line: &str) -> Subcommand {
        cli(line).unwrap().command
    }

    #[test]
    fn no_arguments_is_xboard_mode() {
        assert_eq!(command(""), Subcommand::Xboard);
        let c = cli("--hash 128 --threads 2 --move-overhead 50 --log-dir /tmp/x").unwrap();
        assert_eq!(c.command, Subcommand::Xboard);
        assert_eq!(c.options.hash_mb, Some(128));
        assert_eq!(c.options.threads, Some(2));
        assert_eq!(c.options.move_overhead_ms, Some(50));
        assert_eq!(c.options.log_dir, Some(PathBuf::from("/tmp/x")));
        assert_eq!(cli("--hash=32").unwrap().options.hash_mb, Some(32));
        assert_eq!(c.options.protocol, None);
        assert_eq!(
            cli("--protocol uci").unwrap().options.protocol,
            Some(Protocol::Uci)
        );
        assert_eq!(
            cli("--protocol=xboard").unwrap().options.protocol,
            Some(Protocol::Xboard)
        );
    }

    #[test]
    fn help_and_version() {
        assert_eq!(command("--help"), Subcommand::Help);
        assert_eq!(command("-h"), Subcommand::Help);
        assert_eq!(command("bench -h"), Subcommand::Help);
        assert_eq!(command("-V"), Subcommand::Version);
        assert_eq!(command("--version"), Subcommand::Version);
    }

    #[test]
    fn subcommands() {
        assert_eq!(
            command("perft 3"),
            Subcommand::Perft {
                depth: 3,
                fen: None
            }
        );
        assert_eq!(
            command("perft 2 8/8/8/8/8/8/8/K6k w - - 0 1"),
            Subcommand::Perft {
                depth: 2,
                fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".to_string())
            }
        );
        assert_eq!(
            command("perft --epd f.epd --max-depth 3"),
            Subcommand::PerftSuite {
                file: PathBuf::from("f.epd"),
                max_depth: Some(3)
            }
        );
        assert_eq!(command("bench"), Subcommand::Bench { depth: None });
        assert_eq!(command("bench 5"), Subcommand::Bench { depth: Some(5) });
        assert_eq!(
            command("epd m.epd --ms 200"),
            Subcommand::Epd {
                file: PathBuf::from("m.epd"),
                ms: 200
            }
        );
        assert_eq!(
            command("--hash 16 epd m.epd"),
            Subcommand::Epd {
                file: PathBuf::from("m.epd"),
                ms: DEFAULT_EPD_MS
            }
        );
    }

    #[test]
    fn mistakes_are_errors_not_panics() {
        for line in [
            "--bogus",
            "-x",
            "--hash",
            "--hash abc",
            "--hash 0",
            "--threads 0",
            "--threads 100000",
            "--move-overhead -5",
            "perft",
            "perft x",
            "perft 99",
            "perft 3 --fast",
            "perft --epd",
            "perft --epd f --max-depth",
            "perft --epd f --what",
            "bench x",
            "bench 3 4",
            "bench --fast",
            "epd",
            "epd f --ms",
            "epd f --ms 0",
            "epd f g",
            "frobnicate",
            "--log-dir=",
            "--protocol",
            "--protocol cecp",
        ] {
            assert!(cli(line).is_err(), "{line}");
        }
        assert!(
            cli("--bogus")
                .unwrap_err()
                .0
                .contains("unknown option `--bogus`")
        );
    }
}
