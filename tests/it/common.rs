//! Drives the real `ironwood` binary over pipes: a reader thread forwards stdout lines into a
//! channel and every wait has a timeout, so a hung engine fails its test instead of hanging.
//! Also the small helpers several test files share: one run of the binary, the openings,
//! /proc figures and the random edits of the fuzz tests.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use ironwood::board::{Move, MoveList, Position, legal_moves, parse_move};
use rand::Rng;

pub const SHORT: Duration = Duration::from_secs(5);
pub const LONG: Duration = Duration::from_secs(30);

static NEXT_DIR: AtomicUsize = AtomicUsize::new(0);

/// A fresh scratch folder (removed when the engine is dropped).
pub fn scratch_dir(tag: &str) -> PathBuf {
    let n = NEXT_DIR.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let dir = std::env::temp_dir().join(format!(
        "ironwood-test-{tag}-{}-{n}-{nanos}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("create a scratch folder");
    dir
}

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything sent (`<`) and received (`>`), for failure messages.
    transcript: Vec<String>,
    pub log_dir: PathBuf,
    next_ping: u64,
}

impl Engine {
    /// Starts `ironwood` in XBoard mode with its logs in a scratch folder.
    pub fn start() -> Engine {
        let log_dir = scratch_dir("logs");
        let args = ["--log-dir".to_string(), log_dir.display().to_string()];
        Engine::start_with(&args, log_dir)
    }

    /// Starts `ironwood` with a table of `megabytes` (`--hash`) and its logs in a scratch folder.
    pub fn start_with_hash(megabytes: usize) -> Engine {
        let log_dir = scratch_dir("logs");
        let args = [
            "--hash".to_string(),
            megabytes.to_string(),
            "--log-dir".to_string(),
            log_dir.display().to_string(),
        ];
        Engine::start_with(&args, log_dir)
    }

    pub fn start_with(args: &[String], log_dir: PathBuf) -> Engine {
        Engine::start_with_env(args, &[], log_dir)
    }

    /// Like `start_with`, with extra environment variables for the engine.
    pub fn start_with_env(args: &[String], env: &[(&str, &str)], log_dir: PathBuf) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_ironwood"));
        command.args(args).envs(env.iter().copied());
        Engine::start_command(command, log_dir)
    }

    /// Starts `command` (an engine, or a program that runs one, such as Wine) with its
    /// stderr in `log_dir/stderr.txt`.
    pub fn start_command(mut command: Command, log_dir: PathBuf) -> Engine {
        let stderr = std::fs::File::create(log_dir.join("stderr.txt"))
            .map_or_else(|_| Stdio::null(), Stdio::from);
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("start ironwood");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(line) => {
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                    Err(_) => return,
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
            log_dir,
            next_ping: 1000,
        }
    }

    /// Panics with the end of the conversation.
    pub fn fail(&self, message: &str) -> ! {
        let start = self.transcript.len().saturating_sub(60);
        panic!(
            "{message}\n--- last lines of the conversation ---\n{}",
            self.transcript[start..].join("\n")
        );
    }

    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("< {line}"));
        let Some(stdin) = self.stdin.as_mut() else {
            self.fail("stdin already closed");
        };
        if let Err(e) = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
        {
            self.fail(&format!("cannot send {line:?}: {e}"));
        }
    }

    /// Sends raw bytes (no newline added).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.transcript
            .push(format!("< {:?}", String::from_utf8_lossy(bytes)));
        if let Some(stdin) = self.stdin.as_mut() {
            let _ = stdin.write_all(bytes).and_then(|()| stdin.flush());
        }
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` after `timeout` (or when the engine closed stdout).
    pub fn recv(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(format!("> {line}"));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first that satisfies `pred`.
    pub fn until(
        &mut self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some(line) => {
                    let done = pred(&line);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                None => self.fail(&format!("timed out after {timeout:?} waiting for {what}")),
            }
        }
    }

    /// The first line that satisfies `pred` (others are skipped).
    pub fn expect(&mut self, what: &str, timeout: Duration, pred: impl Fn(&str) -> bool) -> String {
        self.until(what, timeout, pred)
            .pop()
            .expect("until returns the matching line")
    }

    /// Lines arriving within `window` (for "nothing more comes" checks).
    pub fn drain(&mut self, window: Duration) -> Vec<String> {
        let deadline = Instant::now() + window;
        let mut seen = Vec::new();
        while let Some(line) = self.recv(deadline.saturating_duration_since(Instant::now())) {
            seen.push(line);
        }
        seen
    }

    /// `ping N` and the lines before `pong N`.
    pub fn sync_within(&mut self, timeout: Duration) -> Vec<String> {
        self.next_ping += 1;
        let token = self.next_ping;
        self.send(&format!("ping {token}"));
        let expected = format!("pong {token}");
        let mut lines = self.until(&expected.clone(), timeout, |l| l == expected);
        lines.pop();
        lines
    }

    pub fn sync(&mut self) -> Vec<String> {
        self.sync_within(SHORT)
    }

    /// `xboard` + `protover 2` up to `feature done=1`; returns the lines.
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("xboard");
        self.send("protover 2");
        self.until("feature done=1", SHORT, |l| l == "feature done=1")
    }

    /// Waits for the engine's move (`move X`) and returns it parsed against `pos`; fails on
    /// anything that is not a thinking line, a `#` line or the move.
    pub fn expect_move(&mut self, pos: &Position, timeout: Duration) -> Move {
        let line = self.expect("a move", timeout, |l| l.starts_with("move "));
        let text = &line["move ".len()..];
        match parse_move(pos, text) {
            Ok(m) => m,
            Err(e) => self.fail(&format!("illegal move from the engine: {text} ({e})")),
        }
    }

    /// The engine's log files (`*.log`) in its log folder.
    pub fn log_files(&self) -> Vec<PathBuf> {
        std::fs::read_dir(&self.log_dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|f| f.extension().is_some_and(|e| e == "log"))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// What the engine wrote on stderr so far (panic messages would be there).
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(self.log_dir.join("stderr.txt")).unwrap_or_default()
    }

    /// The engine's process id (for /proc/PID/status).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn is_alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Waits for the process to exit; its status code, or `None` on timeout.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<i32> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status.code().unwrap_or(-1));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = stdin.write_all(b"quit\n");
        }
        if self.wait_exit(Duration::from_secs(3)).is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.log_dir);
    }
}

/// Is this a thinking line `DEPTH SCORE TIME NODES PV...`?
pub fn thinking(line: &str) -> Option<(u32, i64, Vec<String>)> {
    let mut parts = line.split_whitespace();
    let depth = parts.next()?.parse().ok()?;
    let score = parts.next()?.parse().ok()?;
    let _time: u64 = parts.next()?.parse().ok()?;
    let _nodes: u64 = parts.next()?.parse().ok()?;
    Some((depth, score, parts.map(str::to_string).collect()))
}

/// The word after `key` in a protocol line: `field("info depth 9 score cp 31", "cp")` is
/// `Some("31")`.
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.find(|word| *word == key)?;
    words.next()
}

/// A line that may never appear in protocol output during play.
pub fn is_result(line: &str) -> bool {
    line.starts_with("1-0") || line.starts_with("0-1") || line.starts_with("1/2-1/2")
}

/// Runs `ironwood ARGS` to the end with empty stdin; (exit code, stdout, stderr).
pub fn run_ironwood<S: AsRef<OsStr>>(args: &[S]) -> (i32, String, String) {
    run_ironwood_with_env(args, &[])
}

/// `run_ironwood` with these environment variables set.
pub fn run_ironwood_with_env<S: AsRef<OsStr>>(
    args: &[S],
    vars: &[(&str, &str)],
) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ironwood"))
        .args(args)
        .envs(vars.iter().copied())
        .stdin(Stdio::null())
        .output()
        .expect("run ironwood");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Prints straight to the stderr handle: `eprintln!` would be captured by the test harness,
/// and the figures are worth seeing.
pub fn say(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// The FENs of `tests/data/openings.epd`, without their operations, comments and blank lines.
pub fn openings() -> Vec<String> {
    include_str!("../data/openings.epd")
        .lines()
        .map(|l| l.split(';').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// Every legal move in `pos`.
pub fn legal(pos: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    list.iter().copied().collect()
}

/// The number after `key` on its line of a /proc file (`VmRSS:   123 kB` gives 123), or
/// `None` where the file or the line is missing.
pub fn proc_figure(path: &str, key: &str) -> Option<f64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .find(|l| l.starts_with(key))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Removes one item at a random place (none from an empty list).
pub fn remove_at_random<T, R: Rng>(rng: &mut R, items: &mut Vec<T>) {
    if !items.is_empty() {
        let i = rng.gen_range(0..items.len());
        items.remove(i);
    }
}

/// Inserts an item made by `new` at a random place (the place is drawn first).
pub fn insert_at_random<T, R: Rng>(rng: &mut R, items: &mut Vec<T>, new: impl FnOnce(&mut R) -> T) {
    let i = rng.gen_range(0..=items.len());
    let item = new(rng);
    items.insert(i, item);
}

/// Replaces the item at a random place with one made by `new` (the place is drawn first);
/// an empty list stays empty.
pub fn replace_at_random<T, R: Rng>(rng: &mut R, items: &mut [T], new: impl FnOnce(&mut R) -> T) {
    if !items.is_empty() {
        let i = rng.gen_range(0..items.len());
        items[i] = new(rng);
    }
}

/// What a client script left: its exit status (`None` when it was killed at the limit),
/// stdout and stderr.
pub struct ScriptRun {
    pub status: Option<std::process::ExitStatus>,
    pub out: String,
    pub err: String,
    pub elapsed: Duration,
}

/// Runs `program args...` in its own process group (so a hang is ended with everything it
/// started) with both outputs read on threads, killing the group (on Windows the process
/// tree) after `limit`. `Err` when the program cannot be started.
pub fn run_script(program: &str, args: &[&OsStr], limit: Duration) -> std::io::Result<ScriptRun> {
    use std::io::Read;
    let mut command = Command::new(program);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let mut child = command.spawn()?;
    let pid = child.id();
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let out_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let err_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if started.elapsed() > limit {
            kill_tree(pid);
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    Ok(ScriptRun {
        status,
        out: out_reader.join().unwrap_or_default(),
        err: err_reader.join().unwrap_or_default(),
        elapsed: started.elapsed(),
    })
}

/// Kills the process group `pid` leads (`run_script` starts one per script).
#[cfg(unix)]
fn kill_tree(pid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pid}")])
        .status();
}

/// Kills process `pid` and every process it started.
#[cfg(not(unix))]
fn kill_tree(pid: u32) {
    let _ = Command::new("taskkill")
        .args(["/T", "/F", "/PID", &pid.to_string()])
        .status();
}

/// Whether `CI` is set (as `.ci/run` does): then client tests must run, not skip.
pub fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
}

/// A position of `tests/data/mates.epd`: its best moves (SAN) and the mate distance in moves.
pub struct MateCase {
    pub fen: String,
    pub best: Vec<String>,
    pub moves: i32,
}

/// The depth a fixed-depth search gets for a mate in `moves`: the mate's own plies and room
/// for the pruning that hides quiet key moves (mates.14's quiet a5, played a rook down,
/// first showed as mate in 3 at depth 27 before the null move's quiet checks and `NmpMinMoves`,
/// at 16-18 since: docs/search.md). A proven mate ends deepening at once, so the mates found
/// early cost nothing more.
pub fn mate_search_depth(moves: i32) -> u32 {
    (2 * moves + 22) as u32
}

/// Every position of `tests/data/mates.epd`.
pub fn mate_cases() -> Vec<MateCase> {
    include_str!("../data/mates.epd")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let fen = fields[..4].join(" ");
            let ops = fields[4..].join(" ");
            let mut best = Vec::new();
            let mut moves = 0;
            for op in ops.split(';').map(str::trim) {
                if let Some(list) = op.strip_prefix("bm ") {
                    best = list.split_whitespace().map(String::from).collect();
                } else if let Some(n) = op.strip_prefix("dm ") {
                    moves = n.trim().parse().unwrap();
                }
            }
            MateCase { fen, best, moves }
        })
        .collect()
}

/// The nodes of the last `info` line of a UCI `go depth DEPTH` from `fen`, after `ucinewgame`
/// (a fresh table and histories, like a bench line).
pub fn uci_nodes_at_depth(engine: &mut Engine, fen: &str, depth: u32, timeout: Duration) -> u64 {
    engine.send("ucinewgame");
    engine.send(&format!("position fen {fen}"));
    engine.send(&format!("go depth {depth}"));
    let lines = engine.until("bestmove", timeout, |l| l.starts_with("bestmove"));
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" nodes "))
        .unwrap_or_else(|| engine.fail("no info line with nodes"));
    field(info, "nodes")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| engine.fail(&format!("no node count in {info}")))
}
