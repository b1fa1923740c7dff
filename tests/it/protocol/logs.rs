//! The log through the real binary: rollover to numbered files at a (tiny) size limit without
//! losing a line, the folder budget that never deletes the current file, the `Log Max MB`
//! option, a folder that disappears mid-game (one `#` line, the engine plays on, the log
//! resumes), and `--log-level protocol` / `RUST_LOG` leaving out only thinking lines.

use crate::common;

use common::{Engine, LONG, SHORT, scratch_dir, thinking};
use ironwood::board::game::Game;
use ironwood::board::{MoveList, legal_moves, parse_move};
use std::path::{Path, PathBuf};
use std::time::Duration;

const MB: f64 = 1_048_576.0;

/// An engine logging into `ROOT/logs` (ROOT holds its stderr and is removed on drop).
fn start(extra: &[&str], env: &[(&str, &str)]) -> (Engine, PathBuf) {
    let root = scratch_dir("logfolder");
    let dir = root.join("logs");
    let mut args = vec!["--log-dir".to_string(), dir.display().to_string()];
    args.extend(extra.iter().map(|a| a.to_string()));
    (Engine::start_with_env(&args, env, root), dir)
}

/// (file number, path, size) of this process's log files, by number.
fn own_logs(dir: &Path, pid: u32) -> Vec<(u32, PathBuf, u64)> {
    let mut files: Vec<(u32, PathBuf, u64)> = all_logs(dir)
        .into_iter()
        .filter_map(|(path, size)| {
            let name = path
                .file_name()?
                .to_str()?
                .strip_suffix(".log")?
                .to_string();
            let mut fields = name.rsplit('-');
            let part: u32 = fields.next()?.parse().ok()?;
            let file_pid: u32 = fields.next()?.parse().ok()?;
            (file_pid == pid).then_some((part, path, size))
        })
        .collect();
    files.sort();
    files
}

/// Every `ironwood-*.log` in the folder with its size.
fn all_logs(dir: &Path) -> Vec<(PathBuf, u64)> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| {
                    let name = e.file_name().to_string_lossy().to_string();
                    name.starts_with("ironwood-") && name.ends_with(".log")
                })
                .filter_map(|e| Some((e.path(), e.metadata().ok()?.len())))
                .collect()
        })
        .unwrap_or_default()
}

/// This process's log text, all files in order.
fn own_text(dir: &Path, pid: u32) -> String {
    own_logs(dir, pid)
        .iter()
        .map(|(_, path, _)| std::fs::read_to_string(path).unwrap_or_default())
        .collect()
}

/// What the engine wrote to stdout (`] >> `) or read from stdin (`] << `) according to its
/// log (the end of input may or may not be seen before `quit` ends the process).
fn logged(text: &str, marker: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.split_once(marker).map(|(_, rest)| rest.to_string()))
        .filter(|l| l != "(end of input)")
        .collect()
}

/// A conversation that remembers every line sent and received.
struct Talk {
    sent: Vec<String>,
    received: Vec<String>,
    next_ping: u32,
}

impl Talk {
    fn new() -> Talk {
        Talk {
            sent: Vec::new(),
            received: Vec::new(),
            next_ping: 0,
        }
    }

    fn send(&mut self, engine: &mut Engine, line: &str) {
        self.sent.push(line.to_string());
        engine.send(line);
    }

    fn handshake(&mut self, engine: &mut Engine) {
        self.send(engine, "xboard");
        self.send(engine, "protover 2");
        let lines = engine.until("feature done=1", SHORT, |l| l == "feature done=1");
        self.received.extend(lines);
    }

    /// `ping N` up to its `pong N`.
    fn ping(&mut self, engine: &mut Engine) {
        self.next_ping += 1;
        let pong = format!("pong {}", self.next_ping);
        self.send(engine, &format!("ping {}", self.next_ping));
        let lines = engine.until(&pong, SHORT, |l| l == pong);
        self.received.extend(lines);
    }

    /// Self-play from the start: `go` for each side in turn, every move checked for legality.
    fn self_play(&mut self, engine: &mut Engine, plies: usize) {
        self.send(engine, "new");
        self.send(engine, "post");
        self.send(engine, "sd 4");
        let mut game = Game::default();
        for _ in 0..plies {
            self.send(engine, "go");
            let lines = engine.until("a move", LONG, |l| l.starts_with("move "));
            let text = lines.last().expect("the move")["move ".len()..].to_string();
            self.received.extend(lines);
            let m = parse_move(game.position(), &text)
                .unwrap_or_else(|e| engine.fail(&format!("illegal move {text}: {e}")));
            let mut legal = MoveList::new();
            legal_moves(game.position(), &mut legal);
            if !legal.iter().any(|l| *l == m) {
                engine.fail(&format!("illegal move {text}"));
            }
            game.push(m);
            if game.outcome().is_some() {
                break;
            }
        }
        self.send(engine, "force");
        self.ping(engine);
    }

    fn quit(&mut self, engine: &mut Engine) {
        self.send(engine, "quit");
        assert_eq!(engine.wait_exit(SHORT), Some(0), "{}", engine.stderr());
    }
}

fn is_log_line(line: &str) -> bool {
    let b = line.as_bytes();
    b.len() > 25 && b[4] == b'-' && b[10] == b'T' && b[23] == b'Z' && b[24] == b' '
}

#[test]
fn files_roll_over_at_a_tiny_limit_without_losing_a_line() {
    let limit = (0.004 * MB).round() as u64;
    let (mut engine, dir) = start(&["--log-max-mb", "0.004", "--log-keep-mb", "10"], &[]);
    let pid = engine.pid();
    let mut talk = Talk::new();
    talk.handshake(&mut engine);
    talk.self_play(&mut engine, 16);
    talk.quit(&mut engine);

    let files = own_logs(&dir, pid);
    assert!(files.len() >= 4, "only {} files: {files:?}", files.len());
    let version = ironwood::version();
    for (i, (part, path, size)) in files.iter().enumerate() {
        assert_eq!(*part as usize, i + 1, "numbers run 1, 2, ...: {files:?}");
        let text = std::fs::read_to_string(path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].contains(&format!("ironwood {version}, pid {pid}, log file {part} (")),
            "header of {path:?}: {}",
            lines[0]
        );
        assert!(
            lines[1].contains("command line") && lines[1].contains("--log-max-mb"),
            "{}",
            lines[1]
        );
        if i > 0 {
            let previous = files[i - 1].1.file_name().unwrap().to_string_lossy();
            assert!(
                lines[0].contains(&format!("continues {previous}")),
                "{}",
                lines[0]
            );
        }
        assert!(text.ends_with('\n'), "{path:?} ends inside a line");
        for line in &lines {
            assert!(is_log_line(line), "{path:?}: not a whole log line: {line}");
        }
        if i + 1 < files.len() {
            assert!(*size <= limit, "{path:?} has {size} bytes, limit {limit}");
        }
    }
    // Every line sent and received is in the files, in order.
    let text = own_text(&dir, pid);
    assert_eq!(logged(&text, "] << "), talk.sent);
    assert_eq!(logged(&text, "] >> "), talk.received);
}

/// Total size of all `ironwood-*.log` files.
fn total(dir: &Path) -> u64 {
    all_logs(dir).iter().map(|(_, size)| size).sum()
}

#[test]
fn the_budget_deletes_the_oldest_files_and_never_the_current_one() {
    let root = scratch_dir("budget");
    let dir = root.join("logs");
    std::fs::create_dir_all(&dir).unwrap();
    // Older logs of other processes, and a file that is not a log.
    for i in 0..5 {
        let name = format!("ironwood-20200101-00000{i}-1-001.log");
        std::fs::write(dir.join(name), vec![b'x'; 3000]).unwrap();
        std::thread::sleep(Duration::from_millis(20));
    }
    std::fs::write(dir.join("notes.txt"), vec![b'x'; 50_000]).unwrap();
    let keep = (0.012 * MB).round() as u64;
    let args: Vec<String> = [
        "--log-dir",
        &dir.display().to_string(),
        "--log-max-mb",
        "0.004",
        "--log-keep-mb",
        "0.012",
    ]
    .iter()
    .map(|a| a.to_string())
    .collect();
    let mut engine = Engine::start_with(&args, root);
    let pid = engine.pid();
    let mut talk = Talk::new();
    talk.handshake(&mut engine);
    // Budget for the others: 12 KB less a full current file of 4 KB, so 2 old files stay.
    let old: Vec<_> = all_logs(&dir)
        .into_iter()
        .filter(|(p, _)| p.to_string_lossy().contains("ironwood-2020"))
        .collect();
    let names: Vec<String> = old
        .iter()
        .map(|(p, _)| p.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(
        names
            .iter()
            .all(|n| n.contains("-000003-") || n.contains("-000004-")),
        "{names:?}"
    );
    for round in 0..6 {
        talk.self_play(&mut engine, 4);
        let files = own_logs(&dir, pid);
        let (part, current, _) = files.last().expect("the current file").clone();
        let text = std::fs::read_to_string(&current).unwrap();
        assert!(text.contains(&format!("log file {part} (")), "{text}");
        let pong = format!(">> pong {}", talk.next_ping);
        assert!(
            text.trim_end().ends_with(&pong),
            "round {round}: the last pong is not at the end of {current:?}:\n{text}"
        );
        let total = total(&dir);
        assert!(
            total <= keep,
            "round {round}: {total} bytes of logs, budget {keep}"
        );
    }
    let files = own_logs(&dir, pid);
    assert_eq!(
        files.len(),
        3,
        "12 KB: two full files of 4 KB and the current one: {files:?}"
    );
    for (i, (part, _, _)) in files.iter().enumerate() {
        assert_eq!(
            *part,
            files[0].0 + i as u32,
            "a gap in the kept history: {files:?}"
        );
    }
    assert!(files[0].0 > 1, "own old files are pruned too: {files:?}");
    assert!(
        !all_logs(&dir)
            .iter()
            .any(|(p, _)| p.to_string_lossy().contains("ironwood-2020")),
        "the oldest files go first"
    );
    assert!(
        dir.join("notes.txt").exists(),
        "only ironwood-*.log files are pruned"
    );
    talk.quit(&mut engine);
}

/// A budget smaller than one file leaves exactly the current file.
#[test]
fn a_budget_below_one_file_keeps_only_the_current_file() {
    let (mut engine, dir) = start(&["--log-max-mb", "0.004", "--log-keep-mb", "0.002"], &[]);
    let pid = engine.pid();
    let mut talk = Talk::new();
    talk.handshake(&mut engine);
    for _ in 0..4 {
        talk.self_play(&mut engine, 4);
        let logs = all_logs(&dir);
        assert_eq!(logs.len(), 1, "{logs:?}");
        let text = std::fs::read_to_string(&logs[0].0).unwrap();
        assert!(
            text.trim_end()
                .ends_with(&format!(">> pong {}", talk.next_ping)),
            "{text}"
        );
    }
    let files = own_logs(&dir, pid);
    assert!(files[0].0 >= 3, "no rollover happened: {files:?}");
    talk.quit(&mut engine);
}

#[test]
fn log_max_mb_option_changes_the_limit_while_running() {
    let (mut engine, dir) = start(&["--log-max-mb", "0.004"], &[]);
    let pid = engine.pid();
    let mut talk = Talk::new();
    talk.handshake(&mut engine);
    assert!(
        talk.received
            .contains(&"feature option=\"Log Max MB -spin 1 1 1048576\"".to_string())
    );
    assert!(
        talk.received
            .contains(&"feature option=\"Log Keep MB -spin 100 1 1048576\"".to_string())
    );
    talk.send(&mut engine, "option Log Max MB=ten");
    talk.ping(&mut engine);
    assert!(
        talk.received
            .contains(&"Error (invalid option value, 1 to 1048576): Log Max MB=ten".to_string())
    );
    talk.send(&mut engine, "option Log Max MB=1");
    talk.ping(&mut engine);
    let before = own_logs(&dir, pid).len();
    talk.self_play(&mut engine, 16);
    talk.quit(&mut engine);
    let files = own_logs(&dir, pid);
    assert_eq!(
        files.len(),
        before,
        "rolled over after the limit went up: {files:?}"
    );
    let (_, current, size) = files.last().unwrap();
    assert!(
        *size > 3 * 4096,
        "too little logged to show it: {size} bytes"
    );
    let text = std::fs::read_to_string(current).unwrap();
    assert!(
        text.contains("log limits: files up to 1 MB, folder budget 100 MB"),
        "{text}"
    );
}

#[test]
fn a_log_folder_gone_mid_game_leaves_one_hash_line_and_the_engine_playing() {
    let (mut engine, dir) = start(&[], &[]);
    let pid = engine.pid();
    let mut talk = Talk::new();
    talk.handshake(&mut engine);
    talk.self_play(&mut engine, 2);
    // Replace the folder by a file: no user, not even root, can write a log in it.
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::write(&dir, "not a folder").unwrap();
    std::thread::sleep(Duration::from_millis(1200));
    talk.self_play(&mut engine, 10);
    std::thread::sleep(Duration::from_millis(1200));
    talk.self_play(&mut engine, 4);
    let hashes: Vec<&String> = talk
        .received
        .iter()
        .filter(|l| l.starts_with('#'))
        .collect();
    assert_eq!(hashes.len(), 1, "{hashes:?}");
    assert!(
        hashes[0].starts_with(&format!("# cannot write a log file in {}", dir.display())),
        "{hashes:?}"
    );
    // The folder comes back: within the retry interval the log resumes in a new file.
    std::fs::remove_file(&dir).unwrap();
    std::thread::sleep(Duration::from_millis(2200));
    talk.self_play(&mut engine, 4);
    talk.quit(&mut engine);
    assert_eq!(
        talk.received.iter().filter(|l| l.starts_with('#')).count(),
        1,
        "said again"
    );
    let files = own_logs(&dir, pid);
    assert_eq!(files.len(), 1, "{files:?}");
    let text = std::fs::read_to_string(&files[0].1).unwrap();
    let first = text.lines().next().unwrap();
    assert!(first.contains("lines were lost)"), "{first}");
    assert!(files[0].0 >= 2, "{files:?}");
    assert!(
        text.contains(&format!(">> pong {}", talk.next_ping)),
        "{text}"
    );
}

/// The protocol lines the engine sent and received, as its log shows them, for a
/// conversation with thinking output.
fn conversation_logged(extra: &[&str], env: &[(&str, &str)]) -> (Talk, String) {
    let (mut engine, dir) = start(extra, env);
    let pid = engine.pid();
    let mut talk = Talk::new();
    talk.handshake(&mut engine);
    talk.send(&mut engine, "bogus command");
    talk.ping(&mut engine);
    talk.self_play(&mut engine, 6);
    talk.quit(&mut engine);
    let text = own_text(&dir, pid);
    (talk, text)
}

#[test]
fn protocol_level_logs_every_protocol_line_but_thinking() {
    let (talk, text) = conversation_logged(&[], &[]);
    assert!(talk.received.iter().any(|l| thinking(l).is_some()));
    assert_eq!(
        logged(&text, "] >> "),
        talk.received,
        "default level: every line out"
    );

    for (extra, env) in [
        (&["--log-level", "protocol"][..], &[][..]),
        (
            &[][..],
            &[("RUST_LOG", "ironwood=debug,ironwood::thinking=off")][..],
        ),
        // The command line wins over the environment.
        (&["--log-level", "protocol"][..], &[("RUST_LOG", "off")][..]),
    ] {
        let (talk, text) = conversation_logged(extra, env);
        let thinking_lines = talk
            .received
            .iter()
            .filter(|l| thinking(l).is_some())
            .count();
        assert!(
            thinking_lines > 5,
            "{extra:?} {env:?}: no thinking to leave out"
        );
        let others: Vec<String> = talk
            .received
            .iter()
            .filter(|l| thinking(l).is_none())
            .cloned()
            .collect();
        assert!(
            others
                .iter()
                .any(|l| l.starts_with("Error (unknown command)"))
        );
        assert_eq!(logged(&text, "] >> "), others, "{extra:?} {env:?}");
        assert_eq!(logged(&text, "] << "), talk.sent, "{extra:?} {env:?}");
    }
}

#[test]
fn log_level_off_writes_no_file() {
    let (mut engine, dir) = start(&["--log-level", "off"], &[]);
    let mut talk = Talk::new();
    talk.handshake(&mut engine);
    talk.self_play(&mut engine, 2);
    talk.quit(&mut engine);
    assert!(all_logs(&dir).is_empty(), "{:?}", all_logs(&dir));
    assert!(!talk.received.iter().any(|l| l.starts_with('#')));
}

/// The game a UCI log's input lines replay: each `position` line's moves, a line that adds
/// to the previous one (`position (+N after the previous: ...)`) taken on from it.
fn replayed_positions(input: &[String]) -> Vec<String> {
    let mut replayed: Vec<String> = Vec::new();
    for line in input.iter().filter(|l| l.starts_with("position")) {
        let full = if let Some(added) = line.strip_prefix("position (+") {
            let (_, moves) = added.trim_end_matches(')').split_once(": ").unwrap();
            let previous = replayed.last().expect("a first position line in full");
            let joiner = if previous.contains(" moves") {
                " "
            } else {
                " moves "
            };
            format!("{previous}{joiner}{moves}")
        } else if line == "position (the previous again)" {
            replayed.last().unwrap().clone()
        } else {
            line.clone()
        };
        replayed.push(full);
    }
    replayed
}

/// A UCI GUI sends the whole game in each `position` line: a 60-move game's log holds each
/// move once (as input and as played), small, and still replays every position sent; a
/// takeback and a new game are logged in full.
#[test]
fn uci_position_lines_are_logged_by_the_moves_they_add() {
    let (mut engine, dir) = start(&[], &[]);
    engine.send("uci");
    engine.until("uciok", SHORT, |l| l == "uciok");
    let mut game = Game::default();
    let mut moves: Vec<String> = Vec::new();
    let mut sent = vec!["position startpos".to_string()];
    engine.send(&sent[0]);
    for ply in 0..120 {
        let legal = common::legal(game.position());
        if legal.is_empty() || game.outcome().is_some() {
            break;
        }
        let m = legal[(ply * 7 + 3) % legal.len()];
        moves.push(m.to_string());
        game.push(m);
        let line = format!("position startpos moves {}", moves.join(" "));
        engine.send(&line);
        sent.push(line);
    }
    let sent_bytes: usize = sent.iter().map(|l| l.len() + 1).sum();
    let takeback = format!(
        "position startpos moves {}",
        moves[..moves.len() - 3].join(" ")
    );
    for line in [
        takeback.as_str(),
        "position startpos",
        "position startpos moves e2e4",
    ] {
        engine.send(line);
        sent.push(line.to_string());
    }
    engine.send("isready");
    engine.until("readyok", SHORT, |l| l == "readyok");
    engine.send("quit");
    assert_eq!(engine.wait_exit(SHORT), Some(0), "{}", engine.stderr());

    let text = own_text(&dir, engine.pid());
    // Each move once as the engine plays it into its record; the takeback replays the game.
    let played = text.lines().filter(|l| l.contains("] played ")).count();
    assert_eq!(played, moves.len() + (moves.len() - 3) + 1);
    let input = logged(&text, "] << ");
    assert_eq!(replayed_positions(&input), sent);
    let logged_positions: Vec<&String> =
        input.iter().filter(|l| l.starts_with("position")).collect();
    assert_eq!(logged_positions[logged_positions.len() - 3], &takeback);
    assert_eq!(
        logged_positions[logged_positions.len() - 2],
        "position startpos"
    );
    for m in &moves {
        let times = logged_positions[..logged_positions.len() - 3]
            .iter()
            .flat_map(|l| l.split_whitespace())
            .filter(|word| word.trim_end_matches(')') == m)
            .count();
        let played = moves.iter().filter(|other| *other == m).count();
        assert_eq!(times, played, "{m} logged {times} times, played {played}");
    }
    let logged_bytes: usize = logged_positions[..logged_positions.len() - 3]
        .iter()
        .map(|l| l.len() + 1)
        .sum();
    assert!(
        logged_bytes * 5 < sent_bytes,
        "{logged_bytes} bytes logged for {sent_bytes} sent"
    );
}
