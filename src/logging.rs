//! The log: numbered files `ironwood-YYYYMMDD-HHMMSS-PID-NNN.log` (UTC creation time) in the
//! folder given by `--log-dir`, else `$IRONWOOD_LOG_DIR`, else `logs/`. A file rolls over to the
//! next number at a size limit, and the folder is held to a byte budget by deleting the oldest
//! whole files. Logging never goes to stdout (that is the protocol's) and never stops the engine.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

pub const LOG_DIR_ENV: &str = "IRONWOOD_LOG_DIR";
/// The log target of thinking lines (`DEPTH SCORE TIME NODES PV`), which are most of the
/// volume: `--log-level protocol` or `RUST_LOG=ironwood=debug,ironwood::thinking=off` leave
/// them out and keep every other protocol line.
pub const THINKING_TARGET: &str = "ironwood::thinking";
pub const MB: u64 = 1 << 20;
pub const DEFAULT_FILE_MB: u64 = 10;
pub const DEFAULT_KEEP_MB: u64 = 100;
/// Largest size limit and budget, in MB (a terabyte).
pub const MAX_LOG_MB: u64 = 1 << 20;
/// A file smaller than this could not hold its own header and one line.
pub const MIN_FILE_BYTES: u64 = 1024;
/// How often the open file is checked to be still in the folder (a deleted or moved file
/// takes writes that nobody will ever read).
const CHECK_INTERVAL: Duration = Duration::from_secs(1);
/// How often a failed log tries a new file.
const RETRY_INTERVAL: Duration = Duration::from_secs(2);

/// Size limits: one file, and all `ironwood-*.log` files in the folder together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogLimits {
    pub file_bytes: u64,
    pub keep_bytes: u64,
}

impl Default for LogLimits {
    fn default() -> Self {
        LogLimits {
            file_bytes: DEFAULT_FILE_MB * MB,
            keep_bytes: DEFAULT_KEEP_MB * MB,
        }
    }
}

impl fmt::Display for LogLimits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "files up to {}, folder budget {}",
            megabytes(self.file_bytes),
            megabytes(self.keep_bytes)
        )
    }
}

fn megabytes(bytes: u64) -> String {
    format!("{:.3} MB", bytes as f64 / MB as f64).replace(".000 MB", " MB")
}

/// What gets logged (`--log-level`); `Protocol` is `Debug` without the thinking lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogLevel {
    Off,
    Error,
    Warn,
    Info,
    Protocol,
    Debug,
    Trace,
}

pub const LOG_LEVEL_NAMES: &str = "off, error, warn, info, protocol, debug, trace";

impl FromStr for LogLevel {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(match text.to_ascii_lowercase().as_str() {
            "off" => LogLevel::Off,
            "error" => LogLevel::Error,
            "warn" => LogLevel::Warn,
            "info" => LogLevel::Info,
            "protocol" => LogLevel::Protocol,
            "debug" => LogLevel::Debug,
            "trace" => LogLevel::Trace,
            _ => return Err(format!("`{text}` is not one of {LOG_LEVEL_NAMES}")),
        })
    }
}

impl LogLevel {
    fn name(self) -> &'static str {
        match self {
            LogLevel::Off => "off",
            LogLevel::Error => "error",
            LogLevel::Warn => "warn",
            LogLevel::Info => "info",
            LogLevel::Protocol => "protocol",
            LogLevel::Debug => "debug",
            LogLevel::Trace => "trace",
        }
    }

    fn filter(self) -> env_logger::Logger {
        use log::LevelFilter;
        let mut builder = env_logger::Builder::new();
        let crate_level = match self {
            LogLevel::Off => LevelFilter::Off,
            LogLevel::Error => LevelFilter::Error,
            LogLevel::Warn => LevelFilter::Warn,
            LogLevel::Info => LevelFilter::Info,
            LogLevel::Protocol | LogLevel::Debug => LevelFilter::Debug,
            LogLevel::Trace => LevelFilter::Trace,
        };
        builder
            .filter_level(crate_level.min(LevelFilter::Warn))
            .filter_module("ironwood", crate_level);
        if self == LogLevel::Protocol {
            builder.filter_module(THINKING_TARGET, LevelFilter::Off);
        }
        builder.build()
    }
}

/// The command line's say on logging.
#[derive(Clone, Debug, Default)]
pub struct LogSettings {
    pub dir: Option<PathBuf>,
    /// `None`: `RUST_LOG` if set, else debug.
    pub level: Option<LogLevel>,
    pub limits: LogLimits,
}

/// What `init` managed to do.
#[derive(Debug, Default)]
pub struct LogSetup {
    pub file: Option<PathBuf>,
    /// Why there is no log file, to be told to the GUI as a `#` line.
    pub warning: Option<String>,
}

/// The folder for log files: the option, else the environment variable, else `logs`.
pub fn log_dir(option: Option<&Path>) -> PathBuf {
    if let Some(dir) = option {
        return dir.to_path_buf();
    }
    match std::env::var_os(LOG_DIR_ENV) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from("logs"),
    }
}

static LOGGER: OnceLock<FileLogger> = OnceLock::new();
/// Set when the log stopped working after start-up; `take_failure` hands the text over once.
static FAILED: AtomicBool = AtomicBool::new(false);
static FAILURE: Mutex<Option<String>> = Mutex::new(None);

/// Opens this process's first log file and installs the logger; level `off` opens none. Never
/// fails: without a file the engine plays on, the returned warning says why, and the logger
/// tries again now and then.
pub fn init(settings: &LogSettings) -> LogSetup {
    let dir = log_dir(settings.dir.as_deref());
    let (filter, level_text) = match (settings.level, std::env::var("RUST_LOG")) {
        (Some(level), _) => (level.filter(), format!("{} (--log-level)", level.name())),
        // RUST_LOG replaces the default filter entirely (`RUST_LOG=info` means info).
        (None, Ok(spec)) if !spec.trim().is_empty() => (
            env_logger::Builder::new().parse_filters(&spec).build(),
            format!("RUST_LOG={spec}"),
        ),
        (None, _) => (LogLevel::Debug.filter(), "debug (default)".to_string()),
    };
    let max_level = filter.filter();
    if max_level == log::LevelFilter::Off {
        return LogSetup::default();
    }
    let context = format!(
        "command line {:?}; log level {level_text}",
        std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
    );
    let mut sink = Sink {
        dir,
        limits: settings.limits,
        context,
        part: 0,
        file: None,
        next_check: Instant::now() + CHECK_INTERVAL,
        lost_lines: 0,
        reported: false,
    };
    let mut setup = LogSetup::default();
    sink.switch("the process starts".to_string());
    match &sink.file {
        Some(open) => setup.file = Some(open.path.clone()),
        None => setup.warning = take_failure(),
    }
    let logger = FileLogger {
        filter,
        sink: Mutex::new(sink),
    };
    if LOGGER.set(logger).is_err() {
        setup.warning = Some("a logger was already installed".to_string());
        return setup;
    }
    let installed = LOGGER.get().map(|l| log::set_logger(l));
    if !matches!(installed, Some(Ok(()))) {
        setup.warning = Some("a logger was already installed".to_string());
        return setup;
    }
    log::set_max_level(max_level);
    setup
}

/// New size limits (the `Log Max MB` and `Log Keep MB` options): the current file rolls over
/// at its next line if it is now too big, and the folder is pruned to the new budget at once.
pub fn set_limits(limits: LogLimits) {
    if let Some(logger) = LOGGER.get() {
        {
            let mut sink = logger.lock();
            sink.limits = limits;
            sink.prune();
        }
        log::info!("log limits: {limits}");
    }
}

/// The text of a log failure after start-up, once (for a `#` line to the GUI).
pub fn take_failure() -> Option<String> {
    if !FAILED.swap(false, Ordering::AcqRel) {
        return None;
    }
    lock(&FAILURE).take()
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn report_failure(text: String) {
    *lock(&FAILURE) = Some(text);
    FAILED.store(true, Ordering::Release);
}

/// How input lines are logged. A UCI GUI sends the whole game in every `position` line, so
/// logged as it came a game's log would grow with the square of its length (about 890 KB a
/// game in self-play); a `position` line that repeats the previous one and adds moves is
/// logged as the moves it adds, any other line (a new game, another FEN, a takeback) in
/// full, which still lets the log replay the game.
#[derive(Default)]
pub struct InputEcho {
    /// The last `position` line, as it came.
    last_position: String,
}

impl InputEcho {
    /// The text to log for `line`.
    pub fn text<'a>(&mut self, line: &'a str) -> std::borrow::Cow<'a, str> {
        if line.split_whitespace().next() != Some("position") {
            return line.into();
        }
        let added = moves_added(&self.last_position, line);
        self.last_position.clear();
        self.last_position.push_str(line);
        match added {
            Some(moves) if moves.is_empty() => "position (the previous again)".into(),
            Some(moves) => format!(
                "position (+{} after the previous: {})",
                moves.len(),
                moves.join(" ")
            )
            .into(),
            None => line.into(),
        }
    }
}

/// The moves `line` adds to `previous` when it repeats it word for word (`None` if it does
/// not, or if there is no previous line).
fn moves_added<'a>(previous: &str, line: &'a str) -> Option<Vec<&'a str>> {
    if previous.is_empty() {
        return None;
    }
    let mut words = line.split_whitespace();
    for word in previous.split_whitespace() {
        if words.next() != Some(word) {
            return None;
        }
    }
    let mut added: Vec<&str> = words.collect();
    if !previous.split_whitespace().any(|word| word == "moves") && !added.is_empty() {
        if added[0] != "moves" {
            return None;
        }
        added.remove(0);
    }
    Some(added)
}

struct FileLogger {
    /// Only its filter is used: which records to keep.
    filter: env_logger::Logger,
    sink: Mutex<Sink>,
}

impl FileLogger {
    fn lock(&self) -> MutexGuard<'_, Sink> {
        lock(&self.sink)
    }
}

impl log::Log for FileLogger {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        self.filter.enabled(metadata)
    }

    fn log(&self, record: &log::Record<'_>) {
        if !self.filter.matches(record) {
            return;
        }
        let line = format_line(
            SystemTime::now(),
            record.level(),
            std::thread::current().name().unwrap_or("?"),
            record.args(),
        );
        self.lock().write_line(&line);
    }

    fn flush(&self) {}
}

/// `2026-11-22T16:33:33.123Z INFO  [thread] text` and a line break.
fn format_line(
    now: SystemTime,
    level: log::Level,
    thread: &str,
    text: impl fmt::Display,
) -> String {
    let t = UtcTime::at(now);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z {level:5} [{thread}] {text}\n",
        t.year, t.month, t.day, t.hour, t.minute, t.second, t.millis
    )
}

/// The open file and how much is in it.
struct OpenFile {
    file: File,
    path: PathBuf,
    size: u64,
    header_size: u64,
}

impl OpenFile {
    fn name(&self) -> String {
        self.path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().to_string())
    }

    /// Is the file we write still the one at its path?
    fn still_in_folder(&self) -> bool {
        let Ok(at_path) = std::fs::metadata(&self.path) else {
            return false;
        };
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            match self.file.metadata() {
                Ok(ours) => ours.dev() == at_path.dev() && ours.ino() == at_path.ino(),
                Err(_) => false,
            }
        }
        #[cfg(not(unix))]
        {
            at_path.is_file()
        }
    }
}

/// Where log lines go: the current numbered file, or nowhere while the folder is unwritable.
struct Sink {
    dir: PathBuf,
    limits: LogLimits,
    /// For every file's header: command line and level.
    context: String,
    /// The number of the current (or last) file.
    part: u32,
    file: Option<OpenFile>,
    /// When the file is next checked to be in the folder, or a failed log retries.
    next_check: Instant,
    lost_lines: u64,
    /// A failure was reported: the GUI hears of one once in the process's life (a disk
    /// that fills fails again after every file the retries open); each later file's header
    /// counts the lines lost.
    reported: bool,
}

impl Sink {
    /// Writes one whole line; a rollover, a check or a retry happens only between lines.
    fn write_line(&mut self, line: &str) {
        let now = Instant::now();
        if now >= self.next_check {
            self.next_check = now + CHECK_INTERVAL;
            match &self.file {
                Some(open) if !open.still_in_folder() => {
                    let note = format!("{} left the log folder (deleted or moved)", open.name());
                    self.switch(note);
                }
                Some(_) => {}
                None => {
                    self.next_check = now + RETRY_INTERVAL;
                    let note = format!("{} lines were lost", self.lost_lines);
                    self.switch(note);
                }
            }
        }
        if let Some(open) = &self.file
            && open.size > open.header_size
            && open.size + line.len() as u64 > self.limits.file_bytes
        {
            let note = format!("continues {}", open.name());
            self.switch(note);
        }
        let Some(open) = self.file.as_mut() else {
            self.lost_lines += 1;
            return;
        };
        match open.file.write_all(line.as_bytes()) {
            Ok(()) => open.size += line.len() as u64,
            Err(e) => {
                self.lost_lines += 1;
                self.fail(&e);
            }
        }
    }

    /// Closes the current file and opens the next number, its header ending with `note`.
    fn switch(&mut self, note: String) {
        self.file = None;
        let part = self.part + 1;
        match self.open(part, &note) {
            Ok(open) => {
                self.part = part;
                self.file = Some(open);
                self.lost_lines = 0;
                self.prune();
            }
            Err(e) => self.fail(&e),
        }
    }

    fn fail(&mut self, error: &std::io::Error) {
        self.file = None;
        self.next_check = Instant::now() + RETRY_INTERVAL;
        if !self.reported {
            self.reported = true;
            report_failure(format!(
                "cannot write a log file in {}: {error}; playing without a log",
                self.dir.display()
            ));
        }
    }

    fn open(&self, part: u32, note: &str) -> std::io::Result<OpenFile> {
        std::fs::create_dir_all(&self.dir)?;
        let now = SystemTime::now();
        let path = self.dir.join(log_file_name(now, std::process::id(), part));
        let mut file = OpenOptions::new().create(true).append(true).open(&path)?;
        let thread = std::thread::current();
        let thread = thread.name().unwrap_or("?");
        let header = format_line(
            now,
            log::Level::Info,
            thread,
            format_args!(
                "ironwood {}, pid {}, log file {part} ({note})",
                crate::version(),
                std::process::id()
            ),
        ) + &format_line(
            now,
            log::Level::Info,
            thread,
            format_args!(
                "{}; {} in {}",
                self.context,
                self.limits,
                self.dir.display()
            ),
        );
        if let Err(e) = file.write_all(header.as_bytes()) {
            // A full disk: leave no empty file behind for every retry.
            drop(file);
            let _ = std::fs::remove_file(&path);
            return Err(e);
        }
        let size = file.metadata().map_or(header.len() as u64, |m| m.len());
        Ok(OpenFile {
            file,
            path,
            size,
            header_size: size,
        })
    }

    /// Deletes the oldest whole log files until the others and a full current file fit the
    /// budget; never the current file.
    fn prune(&self) {
        let current = self.file.as_ref().map(|open| open.path.as_path());
        let others_budget = self
            .limits
            .keep_bytes
            .saturating_sub(self.limits.file_bytes);
        prune(&self.dir, current, others_budget);
    }
}

/// `ironwood-YYYYMMDD-HHMMSS-PID-NNN.log` for `now` in UTC and file number `part`.
pub fn log_file_name(now: SystemTime, pid: u32, part: u32) -> String {
    let t = UtcTime::at(now);
    format!(
        "ironwood-{:04}{:02}{:02}-{:02}{:02}{:02}-{pid}-{part:03}.log",
        t.year, t.month, t.day, t.hour, t.minute, t.second
    )
}

/// A moment as a UTC calendar date and time of day, for log lines and file names (times
/// before 1970 count as 1970-01-01T00:00:00).
struct UtcTime {
    year: i64,
    month: u32,
    day: u32,
    hour: u64,
    minute: u64,
    second: u64,
    millis: u32,
}

impl UtcTime {
    fn at(now: SystemTime) -> UtcTime {
        let since = now.duration_since(UNIX_EPOCH).unwrap_or_default();
        let seconds = since.as_secs();
        let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
        let in_day = seconds % 86_400;
        UtcTime {
            year,
            month,
            day,
            hour: in_day / 3600,
            minute: in_day / 60 % 60,
            second: in_day % 60,
            millis: since.subsec_millis(),
        }
    }
}

/// (year, month, day) of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Keeps the newest `ironwood-*.log` files (other than `current`) whose sizes add up to at
/// most `budget` bytes and deletes the rest, oldest first, so the history kept has no gaps.
fn prune(dir: &Path, current: Option<&Path>, budget: u64) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut logs: Vec<(SystemTime, String, u64, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().to_str()?.to_string();
            if !(name.starts_with("ironwood-") && name.ends_with(".log")) {
                return None;
            }
            let path = entry.path();
            if Some(path.as_path()) == current {
                return None;
            }
            let metadata = entry.metadata().ok()?;
            if !metadata.is_file() {
                return None;
            }
            let modified = metadata.modified().unwrap_or(UNIX_EPOCH);
            Some((modified, name, metadata.len(), path))
        })
        .collect();
    // Newest first: by modification time, then by name (which starts with the date).
    logs.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| b.1.cmp(&a.1)));
    let mut kept = 0u64;
    let mut full = false;
    for (_, _, size, path) in logs {
        full = full || kept + size > budget;
        if full {
            let _ = std::fs::remove_file(path);
        } else {
            kept += size;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_line_extending_the_previous_is_logged_as_its_new_moves() {
        let mut echo = InputEcho::default();
        let mut logged = |line: &str| echo.text(line).into_owned();
        assert_eq!(logged("position startpos"), "position startpos");
        assert_eq!(
            logged("position startpos moves e2e4 e7e5"),
            "position (+2 after the previous: e2e4 e7e5)"
        );
        assert_eq!(
            logged("go wtime 1000 btime 1000"),
            "go wtime 1000 btime 1000"
        );
        assert_eq!(
            logged("position startpos moves e2e4 e7e5 g1f3"),
            "position (+1 after the previous: g1f3)"
        );
        assert_eq!(
            logged("position startpos moves e2e4 e7e5 g1f3"),
            "position (the previous again)"
        );
        // A takeback, a word changed, another start: in full.
        for line in [
            "position startpos moves e2e4 e7e5",
            "position startpos moves e2e4 e7e6",
            "position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2",
            "position startpos movesx e2e4",
        ] {
            assert_eq!(logged(line), line);
        }
        // `e2e4` is no word of `position startpos moves e2e4x`.
        assert_eq!(
            logged("position startpos movesx e2e4x"),
            "position startpos movesx e2e4x"
        );
    }

    #[test]
    fn file_names_use_the_utc_date_and_number() {
        let t = UNIX_EPOCH + Duration::from_secs(0);
        assert_eq!(log_file_name(t, 7, 1), "ironwood-19700101-000000-7-001.log");
        // 2024-02-29 23:59:58 UTC
        let t = UNIX_EPOCH + Duration::from_secs(1_709_251_198);
        assert_eq!(
            log_file_name(t, 42, 12),
            "ironwood-20240229-235958-42-012.log"
        );
        // 2000-03-01 12:34:56 UTC
        let t = UNIX_EPOCH + Duration::from_secs(951_914_096);
        assert_eq!(
            log_file_name(t, 1, 1234),
            "ironwood-20000301-123456-1-1234.log"
        );
    }

    #[test]
    fn lines_carry_a_utc_timestamp_with_milliseconds() {
        let t = UNIX_EPOCH + Duration::from_millis(1_709_251_198_042);
        let line = format_line(t, log::Level::Debug, "main", ">> pong 1");
        assert_eq!(line, "2024-02-29T23:59:58.042Z DEBUG [main] >> pong 1\n");
    }

    #[test]
    fn levels_parse_and_protocol_drops_only_thinking() {
        assert_eq!("Protocol".parse::<LogLevel>(), Ok(LogLevel::Protocol));
        assert!("loud".parse::<LogLevel>().is_err());
        let filter = LogLevel::Protocol.filter();
        let record = |target: &'static str, level| {
            filter.matches(
                &log::Record::builder()
                    .target(target)
                    .level(level)
                    .args(format_args!("x"))
                    .build(),
            )
        };
        assert!(record(
            "ironwood::protocol::xboard::output",
            log::Level::Debug
        ));
        assert!(!record(THINKING_TARGET, log::Level::Debug));
        assert!(!record(
            "ironwood::protocol::xboard::output",
            log::Level::Trace
        ));
        let filter = LogLevel::Debug.filter();
        assert!(
            filter.matches(
                &log::Record::builder()
                    .target(THINKING_TARGET)
                    .level(log::Level::Debug)
                    .args(format_args!("x"))
                    .build()
            )
        );
    }

    #[test]
    fn prune_keeps_the_newest_within_the_budget() {
        let dir = std::env::temp_dir().join(format!("ironwood-prune-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // Names in date order; equal modification times fall back to the names.
        for i in 0..10 {
            std::fs::write(
                dir.join(format!("ironwood-2024010{i}-000000-1-001.log")),
                [b'x'; 100],
            )
            .unwrap();
        }
        std::fs::write(dir.join("other.txt"), [b'x'; 1000]).unwrap();
        let current = dir.join("ironwood-20240100-000000-1-001.log");
        prune(&dir, Some(&current), 350);
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        left.sort();
        // The current (oldest) file stays, and the three newest others fit 350 bytes.
        assert_eq!(
            left,
            [
                "ironwood-20240100-000000-1-001.log",
                "ironwood-20240107-000000-1-001.log",
                "ironwood-20240108-000000-1-001.log",
                "ironwood-20240109-000000-1-001.log",
                "other.txt"
            ]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
