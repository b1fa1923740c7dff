//! Soak: one engine process through many very fast self-play games over XBoard, as an ICS bot
//! keeps one process for days: `new` between games, pondering in part of them, a `memory`
//! change every so many games, and a tiny log size limit so files roll over again and again.
//! Every move must be legal, `pong` prompt throughout, the logs within their budget, and the
//! resident memory (beyond the table), open files and threads the same late as early.
//! The default run plays 250 games at `sd 3` (24 plies at most, about 10 s);
//! `cargo test --release --test soak -- --ignored` plays 1,000 at `sd 4` (80 plies at most)
//! and prints the figures every 100 games.

use crate::common;

use common::{Engine, LONG, SHORT, is_result, openings, proc_figure, say, scratch_dir};
use ironwood::board::game::Game;
use ironwood::board::{MoveList, Position, legal_moves, parse_move};
use std::path::Path;
use std::time::{Duration, Instant};

/// Longest wait for a `pong` at any point.
const PONG_LIMIT: Duration = Duration::from_secs(2);
/// Allowed growth of the resident memory between two snapshots with the same table size.
const RSS_GROWTH_MB: f64 = 8.0;

struct Plan {
    games: usize,
    /// `sd` of every move.
    depth: u32,
    /// Plies per game at most (the soak is about the process, not chess).
    ply_cap: usize,
    /// `memory` alternates between 16 and 32 MB every this many games.
    memory_every: usize,
    log_max_mb: &'static str,
    log_keep_mb: &'static str,
}

/// One measurement of the process, taken while it is idle.
#[derive(Debug)]
struct Snapshot {
    game: usize,
    rss_mb: Option<f64>,
    table_mb: f64,
    fds: Option<usize>,
    threads: Option<usize>,
    log_files: usize,
    log_bytes: u64,
    last_file_number: u32,
    worst_pong: Duration,
}

fn proc_status(pid: u32, key: &str) -> Option<f64> {
    proc_figure(&format!("/proc/{pid}/status"), key)
}

fn open_fds(pid: u32) -> Option<usize> {
    Some(std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count())
}

/// (count, total bytes, highest file number of `pid`) of the `ironwood-*.log` files.
fn logs(dir: &Path, pid: u32) -> (usize, u64, u32) {
    let mut count = 0;
    let mut bytes = 0;
    let mut last = 0;
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if !(name.starts_with("ironwood-") && name.ends_with(".log")) {
            continue;
        }
        count += 1;
        bytes += entry.metadata().map_or(0, |m| m.len());
        let mut fields = name.trim_end_matches(".log").rsplit('-');
        let part = fields.next().and_then(|p| p.parse::<u32>().ok());
        let file_pid = fields.next().and_then(|p| p.parse::<u32>().ok());
        if let (Some(part), Some(file_pid)) = (part, file_pid)
            && file_pid == pid
        {
            last = last.max(part);
        }
    }
    (count, bytes, last)
}

struct Soak {
    engine: Engine,
    dir: std::path::PathBuf,
    pid: u32,
    next_ping: u64,
    worst_pong: Duration,
    pongs: usize,
    moves: usize,
    /// Games that ended on the board (mate or a draw the engine claimed).
    finished: usize,
    keep_bytes: u64,
}

impl Soak {
    /// `ping` and the time to its `pong`; fails beyond `PONG_LIMIT`.
    fn ping(&mut self) {
        self.next_ping += 1;
        let pong = format!("pong {}", self.next_ping);
        let sent = Instant::now();
        self.engine.send(&format!("ping {}", self.next_ping));
        let lines = self.engine.until(&pong, LONG, |l| l == pong);
        let took = sent.elapsed();
        if took > PONG_LIMIT {
            self.engine.fail(&format!("{pong} took {took:?}"));
        }
        if let Some(line) = lines
            .iter()
            .find(|l| l.starts_with('#') || l.starts_with("Error"))
        {
            self.engine.fail(&format!("unexpected line {line}"));
        }
        self.worst_pong = self.worst_pong.max(took);
        self.pongs += 1;
    }

    /// The engine's move for the side to move, checked against the game.
    fn engine_move(&mut self, game: &mut Game) {
        self.engine.send("go");
        let line = self.engine.expect("a move", LONG, |l| {
            l.starts_with("move ")
                || is_result(l)
                || l.starts_with("Illegal")
                || l.starts_with("Error")
        });
        let Some(text) = line.strip_prefix("move ") else {
            self.engine.fail(&format!("instead of a move: {line}"));
        };
        let m = parse_move(game.position(), text)
            .unwrap_or_else(|e| self.engine.fail(&format!("illegal move {text}: {e}")));
        let mut legal = MoveList::new();
        legal_moves(game.position(), &mut legal);
        if !legal.iter().any(|l| *l == m) {
            self.engine.fail(&format!("illegal move {text}"));
        }
        game.push(m);
        self.moves += 1;
    }

    fn play_game(&mut self, g: usize, plan: &Plan, openings: &[String]) {
        if (g - 1).is_multiple_of(plan.memory_every) {
            self.engine.send(&format!("memory {}", table_mb(g, plan)));
        }
        self.engine.send("new");
        // Pondering in two games of every five: `go` then interrupts a ponder search.
        self.engine.send(if g % 5 >= 3 { "hard" } else { "easy" });
        self.engine.send(if g.is_multiple_of(2) {
            "post"
        } else {
            "nopost"
        });
        self.engine.send("st 1");
        self.engine.send(&format!("sd {}", plan.depth));
        let mut game = if g.is_multiple_of(3) {
            let fen = &openings[g % openings.len()];
            self.engine.send("force");
            self.engine.send(&format!("setboard {fen}"));
            Game::new(Position::from_fen(fen).expect("opening FEN"))
        } else {
            Game::default()
        };
        for ply in 0..plan.ply_cap {
            self.engine_move(&mut game);
            if game.outcome().is_some() {
                self.engine.expect("the result", SHORT, is_result);
                self.finished += 1;
                break;
            }
            if ply % 5 == 4 {
                self.ping();
            }
        }
        self.engine.send("force");
        self.engine.send("result 1/2-1/2 {soak}");
        self.ping();
    }

    fn snapshot(&self, game: usize, plan: &Plan) -> Snapshot {
        let (log_files, log_bytes, last_file_number) = logs(&self.dir, self.pid);
        Snapshot {
            game,
            rss_mb: proc_status(self.pid, "VmRSS:").map(|kb| kb / 1024.0),
            table_mb: table_mb(game, plan) as f64,
            fds: open_fds(self.pid),
            threads: proc_status(self.pid, "Threads:").map(|n| n as usize),
            log_files,
            log_bytes,
            last_file_number,
            worst_pong: self.worst_pong,
        }
    }

    fn check_logs(&self, g: usize) {
        let (files, bytes, last) = logs(&self.dir, self.pid);
        if bytes > self.keep_bytes {
            self.engine.fail(&format!(
                "game {g}: {bytes} bytes in {files} log files, budget {}",
                self.keep_bytes
            ));
        }
        if last == 0 {
            self.engine
                .fail(&format!("game {g}: the current log file is gone"));
        }
    }
}

/// The table size in force during game `g`.
fn table_mb(g: usize, plan: &Plan) -> usize {
    if ((g - 1) / plan.memory_every).is_multiple_of(2) {
        16
    } else {
        32
    }
}

fn describe(s: &Snapshot) -> String {
    format!(
        "game {}: VmRSS {} (table {} MB), open fds {}, threads {}, logs {} files {} bytes (file number {}), worst pong so far {:?}",
        s.game,
        s.rss_mb.map_or("?".to_string(), |r| format!("{r:.1} MB")),
        s.table_mb,
        s.fds.map_or("?".to_string(), |n| n.to_string()),
        s.threads.map_or("?".to_string(), |n| n.to_string()),
        s.log_files,
        s.log_bytes,
        s.last_file_number,
        s.worst_pong
    )
}

fn soak(plan: &Plan) {
    let root = scratch_dir("soak");
    let dir = root.join("logs");
    let args: Vec<String> = [
        "--log-dir",
        &dir.display().to_string(),
        "--log-max-mb",
        plan.log_max_mb,
        "--log-keep-mb",
        plan.log_keep_mb,
    ]
    .iter()
    .map(|a| a.to_string())
    .collect();
    let keep_mb: f64 = plan.log_keep_mb.parse().unwrap();
    let engine = Engine::start_with(&args, root);
    let pid = engine.pid();
    let mut soak = Soak {
        engine,
        dir,
        pid,
        next_ping: 0,
        worst_pong: Duration::ZERO,
        pongs: 0,
        moves: 0,
        finished: 0,
        keep_bytes: (keep_mb * 1_048_576.0).round() as u64,
    };
    soak.engine.handshake();
    let openings = openings();
    let started = Instant::now();
    let mut snapshots: Vec<Snapshot> = Vec::new();
    for g in 1..=plan.games {
        soak.play_game(g, plan, &openings);
        if g.is_multiple_of(10) {
            soak.check_logs(g);
        }
        if g.is_multiple_of(plan.memory_every) {
            let snapshot = soak.snapshot(g, plan);
            say(&format!("soak: {}", describe(&snapshot)));
            compare(&soak, &snapshots, &snapshot);
            snapshots.push(snapshot);
        }
    }
    say(&format!(
        "soak: {} games ({} ended on the board), {} moves, {} pings in {:.1} s",
        plan.games,
        soak.finished,
        soak.moves,
        soak.pongs,
        started.elapsed().as_secs_f64()
    ));
    let last = soak.snapshot(plan.games, plan);
    if last.last_file_number < 5 {
        soak.engine.fail(&format!(
            "the log rolled over only {} times",
            last.last_file_number - 1
        ));
    }
    soak.engine.send("quit");
    assert_eq!(soak.engine.wait_exit(SHORT), Some(0));
}

/// Open files and threads: never more than at the first snapshot. Resident memory beyond
/// the table: no more than at the second block with the same table size. (The first return
/// to a size is no baseline: glibc serves a table it once freed from its heap and keeps the
/// freed memory resident, up to twice its dynamic mmap threshold, so resident memory steps
/// up once after the first `memory` cycle; it is flat from then on.)
fn compare(soak: &Soak, earlier: &[Snapshot], late: &Snapshot) {
    let Some(first) = earlier.first() else {
        return;
    };
    if let (Some(e), Some(l)) = (first.fds, late.fds)
        && l > e
    {
        soak.engine.fail(&format!(
            "open file descriptors grew from {e} at game {} to {l} at game {}",
            first.game, late.game
        ));
    }
    if let (Some(e), Some(l)) = (first.threads, late.threads)
        && l > e
    {
        soak.engine.fail(&format!(
            "threads grew from {e} at game {} to {l} at game {}",
            first.game, late.game
        ));
    }
    let baseline = earlier
        .iter()
        .filter(|s| s.table_mb == late.table_mb)
        .nth(1);
    if let Some(baseline) = baseline
        && let (Some(e), Some(l)) = (baseline.rss_mb, late.rss_mb)
        && l > e + RSS_GROWTH_MB
    {
        soak.engine.fail(&format!(
            "resident memory grew from {e:.1} MB at game {} to {l:.1} MB at game {} (table {} MB)",
            baseline.game, late.game, late.table_mb
        ));
    }
}

#[test]
fn one_process_through_250_fast_games() {
    soak(&Plan {
        games: 250,
        depth: 3,
        ply_cap: 24,
        memory_every: 50,
        log_max_mb: "0.05",
        log_keep_mb: "0.2",
    });
}

#[test]
#[ignore = "minutes; run with --ignored"]
fn one_process_through_1000_fast_games() {
    soak(&Plan {
        games: 1000,
        depth: 4,
        ply_cap: 80,
        memory_every: 100,
        log_max_mb: "0.5",
        log_keep_mb: "2",
    });
}
