//! The log file: one per process, `ironwood-YYYYMMDD-HHMMSS-PID.log` (UTC) in the folder given
//! by `--log-dir`, else `$IRONWOOD_LOG_DIR`, else `logs/` under the current directory. Debug
//! level for this crate unless `RUST_LOG` says otherwise; the newest 20 files are kept.
//! Logging never goes to stdout (that is the protocol's) and never stops the engine.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// How many `ironwood-*.log` files are kept in the folder.
pub const KEEP_LOG_FILES: usize = 20;
pub const LOG_DIR_ENV: &str = "IRONWOOD_LOG_DIR";

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

/// Opens this process's log file and installs the logger. Never fails: without a file the
/// engine plays on and the returned warning says why.
pub fn init(dir_option: Option<&Path>) -> LogSetup {
    let dir = log_dir(dir_option);
    let (file, path) = match open_log_file(&dir) {
        Ok(opened) => opened,
        Err(e) => {
            return LogSetup {
                file: None,
                warning: Some(format!(
                    "cannot write a log file in {}: {e}; playing without a log",
                    dir.display()
                )),
            };
        }
    };
    prune(&dir, &path, KEEP_LOG_FILES);

    let mut builder = env_logger::Builder::new();
    match std::env::var("RUST_LOG") {
        // RUST_LOG replaces the default filter entirely (`RUST_LOG=info` means info).
        Ok(spec) if !spec.trim().is_empty() => {
            builder.parse_filters(&spec);
        }
        _ => {
            builder
                .filter_level(log::LevelFilter::Warn)
                .filter_module("ironwood", log::LevelFilter::Debug);
        }
    }
    builder
        .format(|buf, record| {
            writeln!(
                buf,
                "{} {:5} [{}] {}",
                buf.timestamp_millis(),
                record.level(),
                std::thread::current().name().unwrap_or("?"),
                record.args()
            )
        })
        .target(env_logger::Target::Pipe(Box::new(file)));
    if builder.try_init().is_err() {
        return LogSetup {
            file: Some(path),
            warning: Some("a logger was already installed".to_string()),
        };
    }
    log::info!(
        "ironwood {} started, pid {}, args {:?}",
        env!("CARGO_PKG_VERSION"),
        std::process::id(),
        std::env::args().collect::<Vec<_>>()
    );
    LogSetup {
        file: Some(path),
        warning: None,
    }
}

fn open_log_file(dir: &Path) -> std::io::Result<(File, PathBuf)> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(log_file_name(SystemTime::now(), std::process::id()));
    let file = OpenOptions::new().create(true).append(true).open(&path)?;
    Ok((file, path))
}

/// `ironwood-YYYYMMDD-HHMMSS-PID.log` for `now` in UTC.
pub fn log_file_name(now: SystemTime, pid: u32) -> String {
    let seconds = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    let in_day = seconds % 86_400;
    format!(
        "ironwood-{year:04}{month:02}{day:02}-{:02}{:02}{:02}-{pid}.log",
        in_day / 3600,
        in_day / 60 % 60,
        in_day % 60
    )
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

/// Deletes all but the newest `keep` `ironwood-*.log` files (never `current`).
fn prune(dir: &Path, current: &Path, keep: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut logs: Vec<(SystemTime, String, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().to_str()?.to_string();
            if !(name.starts_with("ironwood-") && name.ends_with(".log")) {
                return None;
            }
            let modified = entry.metadata().ok()?.modified().unwrap_or(UNIX_EPOCH);
            Some((modified, name, entry.path()))
        })
        .collect();
    // Newest first: by modification time, then by name (which starts with the date).
    logs.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| b.1.cmp(&a.1)));
    for (_, _, path) in logs.into_iter().skip(keep) {
        if path != current {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn file_names_use_the_utc_date() {
        let t = UNIX_EPOCH + Duration::from_secs(0);
        assert_eq!(log_file_name(t, 7), "ironwood-19700101-000000-7.log");
        // 2024-02-29 23:59:58 UTC
        let t = UNIX_EPOCH + Duration::from_secs(1_709_251_198);
        assert_eq!(log_file_name(t, 42), "ironwood-20240229-235958-42.log");
        // 2000-03-01 12:34:56 UTC
        let t = UNIX_EPOCH + Duration::from_secs(951_914_096);
        assert_eq!(log_file_name(t, 1), "ironwood-20000301-123456-1.log");
    }

    #[test]
    fn prune_keeps_the_newest() {
        let dir = std::env::temp_dir().join(format!("ironwood-prune-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for i in 0..25 {
            std::fs::write(dir.join(format!("ironwood-2024010{i:02}.log")), "x").unwrap();
        }
        std::fs::write(dir.join("other.txt"), "x").unwrap();
        let current = dir.join("ironwood-202401000.log");
        prune(&dir, &current, 20);
        let left = std::fs::read_dir(&dir).unwrap().count();
        // 20 newest (or the current one kept besides them) plus other.txt.
        assert!((21..=22).contains(&left), "{left}");
        assert!(dir.join("other.txt").exists());
        assert!(current.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
