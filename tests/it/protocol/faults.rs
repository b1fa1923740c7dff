//! Faults through the real binary, in both protocols and in every state (idle, searching,
//! pondering, analysing): the end of input and `quit` end the process at once with its log
//! closed; SIGTERM ends it at once, SIGINT is ignored (XBoard sends it; the engine ignores it
//! whatever the protocol, being told which only by the first line); a log that hits a file
//! size limit or a full disk is said once while the games go on; a network file rewritten or
//! replaced under the running engine changes nothing; and random command interleavings over
//! the pipes (the in-process sessions get 10,000 each: src/protocol/*/session/tests.rs).

use crate::common;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use common::{Engine, LONG, SHORT, scratch_dir, thinking};
use ironwood::board::{Color, Move, MoveList, Position, is_legal, legal_moves, parse_move};
use ironwood::nnue::Network;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// How soon the process must be gone after the end of input, `quit` or SIGTERM.
const PROMPT_EXIT: Duration = Duration::from_secs(2);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Protocol {
    Xboard,
    Uci,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Idle,
    Searching,
    Pondering,
    Analysing,
}

const PROTOCOLS: [Protocol; 2] = [Protocol::Xboard, Protocol::Uci];
const STATES: [State; 4] = [
    State::Idle,
    State::Searching,
    State::Pondering,
    State::Analysing,
];

/// An engine after its handshake, thinking output on, pondering allowed.
fn started(protocol: Protocol) -> Engine {
    let mut engine = Engine::start();
    match protocol {
        Protocol::Xboard => {
            engine.handshake();
            engine.send("post");
            engine.sync();
        }
        Protocol::Uci => {
            engine.send("uci");
            engine.until("uciok", SHORT, |l| l == "uciok");
            engine.send("setoption name Ponder value true");
            ready(&mut engine);
        }
    }
    engine
}

fn ready(engine: &mut Engine) {
    engine.send("isready");
    engine.until("readyok", SHORT, |l| l == "readyok");
}

/// Is this a search's progress line?
fn is_progress(protocol: Protocol, line: &str) -> bool {
    match protocol {
        Protocol::Xboard => thinking(line).is_some(),
        Protocol::Uci => line.starts_with("info depth"),
    }
}

/// Puts the engine in `state` (long searches) and waits for the search's first report.
fn enter(engine: &mut Engine, protocol: Protocol, state: State) {
    let lines: &[&str] = match (protocol, state) {
        (_, State::Idle) => return,
        (Protocol::Xboard, State::Searching) => &["new", "st 60", "go"],
        // A move after a second (deep enough for a reply to ponder on, however loaded the
        // machine), then pondering with no limit.
        (Protocol::Xboard, State::Pondering) => &["new", "hard", "st 1", "go"],
        (Protocol::Xboard, State::Analysing) => &["new", "analyze"],
        (Protocol::Uci, State::Searching) => &["position startpos", "go movetime 60000"],
        (Protocol::Uci, State::Pondering) => &[
            "position startpos moves e2e4 e7e5",
            "go ponder wtime 300000 btime 300000",
        ],
        (Protocol::Uci, State::Analysing) => &["position startpos", "go infinite"],
    };
    for line in lines {
        engine.send(line);
    }
    if (protocol, state) == (Protocol::Xboard, State::Pondering) {
        engine.expect("the move before pondering", LONG, |l| {
            l.starts_with("move ")
        });
    }
    engine.expect("the search's first report", LONG, |l| {
        is_progress(protocol, l)
    });
}

/// Every log line of the engine, checked to be whole (a line break ends the file).
fn log_text(engine: &Engine) -> String {
    let mut files = engine.log_files();
    files.sort();
    let text: String = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap_or_default())
        .collect();
    if !text.is_empty() && !text.ends_with('\n') {
        engine.fail(&format!("the log ends in a broken line: {:?}", tail(&text)));
    }
    text
}

fn tail(text: &str) -> &str {
    &text[text.len().saturating_sub(300)..]
}

/// Sends `signal` (a name for `kill`) to the engine.
#[cfg(unix)]
fn signal(engine: &Engine, signal: &str) {
    let status = Command::new("kill")
        .args([format!("-{signal}"), engine.pid().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -{signal}");
}

#[derive(Clone, Copy, Debug)]
enum Ending {
    EndOfInput,
    Quit,
}

#[test]
fn end_of_input_and_quit_end_every_state_at_once_with_the_log_closed() {
    for protocol in PROTOCOLS {
        for state in STATES {
            for ending in [Ending::EndOfInput, Ending::Quit] {
                let mut engine = started(protocol);
                enter(&mut engine, protocol, state);
                let asked = Instant::now();
                match ending {
                    Ending::EndOfInput => engine.close_stdin(),
                    Ending::Quit => engine.send("quit"),
                }
                let what = format!("{protocol:?}, {state:?}, {ending:?}");
                match engine.wait_exit(PROMPT_EXIT) {
                    Some(0) => {}
                    other => engine.fail(&format!("{what}: exit {other:?}")),
                }
                common::say(&format!("{what}: gone in {:?}", asked.elapsed()));
                let text = log_text(&engine);
                let last = text.lines().last().unwrap_or("");
                assert!(last.ends_with("] session ends"), "{what}: {}", tail(&text));
                assert!(engine.stderr().is_empty(), "{what}: {}", engine.stderr());
            }
        }
    }
}

#[cfg(unix)]
#[test]
fn sigterm_ends_every_state_at_once_leaving_whole_log_lines() {
    for protocol in PROTOCOLS {
        for state in STATES {
            let mut engine = started(protocol);
            enter(&mut engine, protocol, state);
            signal(&engine, "TERM");
            let what = format!("{protocol:?}, {state:?}");
            if engine.wait_exit(PROMPT_EXIT).is_none() {
                engine.fail(&format!("{what}: still running after SIGTERM"));
            }
            let text = log_text(&engine);
            assert!(text.contains("protocol: "), "{what}: {}", tail(&text));
        }
    }
}

/// Ends `state` the protocol's way and checks the answer: the search went on undisturbed.
fn leave(engine: &mut Engine, protocol: Protocol, state: State) {
    match (protocol, state) {
        (Protocol::Xboard, State::Searching) => {
            engine.send("?");
            engine.expect("the move after ?", SHORT, |l| l.starts_with("move "));
        }
        (Protocol::Xboard, State::Pondering) => engine.send("force"),
        (Protocol::Xboard, State::Analysing) => engine.send("exit"),
        (Protocol::Uci, State::Searching | State::Pondering | State::Analysing) => {
            engine.send("stop");
            engine.expect("bestmove after stop", SHORT, |l| l.starts_with("bestmove"));
        }
        (_, State::Idle) => {}
    }
    match protocol {
        Protocol::Xboard => {
            engine.sync();
        }
        Protocol::Uci => ready(engine),
    }
}

#[cfg(unix)]
#[test]
fn sigint_is_ignored_in_every_state() {
    for protocol in PROTOCOLS {
        for state in STATES {
            let mut engine = started(protocol);
            enter(&mut engine, protocol, state);
            signal(&engine, "INT");
            signal(&engine, "INT");
            std::thread::sleep(Duration::from_millis(200));
            let what = format!("{protocol:?}, {state:?}");
            assert!(engine.is_alive(), "{what}: SIGINT ended the engine");
            if state != State::Idle {
                engine.expect("more of the search", LONG, |l| is_progress(protocol, l));
            }
            leave(&mut engine, protocol, state);
        }
    }
}

/// An XBoard engine started by `command`: plays `moves` moves against itself at depth 6,
/// its thinking posted (most of the log), and returns what it sent.
fn self_play(engine: &mut Engine, moves: usize) -> Vec<String> {
    let mut seen = Vec::new();
    for _ in 0..moves {
        engine.send("go");
        let lines = engine.until("a move or a result", LONG, |l| {
            l.starts_with("move ") || common::is_result(l)
        });
        if lines.last().is_some_and(|l| common::is_result(l)) {
            engine.send("new");
            engine.send("sd 6");
        }
        seen.extend(lines);
    }
    seen.extend(engine.sync());
    seen
}

/// Plays with a log that fails again and again (every retry fills up anew): the engine
/// says so in one `#` line and keeps playing.
fn log_fails_again_and_again(mut engine: Engine, why: &str) {
    engine.handshake();
    engine.send("new");
    engine.send("post");
    engine.send("sd 6");
    let mut seen = self_play(&mut engine, 16);
    // Past the retry interval twice: new files open, fill and fail again.
    for _ in 0..2 {
        std::thread::sleep(Duration::from_millis(2100));
        seen.extend(self_play(&mut engine, 16));
    }
    let hashes: Vec<&String> = seen.iter().filter(|l| l.starts_with('#')).collect();
    assert_eq!(hashes.len(), 1, "{why}: {hashes:?}");
    assert!(
        hashes[0].starts_with("# cannot write a log file in ") && hashes[0].contains(why),
        "{hashes:?}"
    );
    engine.send("quit");
    assert_eq!(engine.wait_exit(SHORT), Some(0), "{why}");
    assert!(engine.stderr().is_empty(), "{why}: {}", engine.stderr());
}

/// `ulimit -f 16` (8 KB files under sh): without SIGXFSZ ignored the first write past the
/// limit killed the engine mid-game.
#[cfg(unix)]
#[test]
fn a_log_at_the_file_size_limit_is_said_once_and_the_engine_plays_on() {
    let dir = scratch_dir("fsize");
    let script = format!(
        "ulimit -f 16 && exec \"$0\" --log-dir '{}'",
        dir.join("logs").display()
    );
    let mut command = Command::new("sh");
    command
        .args(["-c", &script])
        .arg(env!("CARGO_BIN_EXE_ironwood"));
    let engine = Engine::start_command(command, dir);
    log_fails_again_and_again(engine, "File too large");
}

/// A 16 KB tmpfs as the log folder, mounted in a user and mount namespace of its own
/// (`unshare -rm`, no root needed where the kernel allows user namespaces; skipped with a
/// message where it does not).
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_under_the_log_is_said_once_and_the_engine_plays_on() {
    let dir = scratch_dir("full-disk");
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let probe = Command::new("unshare")
        .args(["-rm", "sh", "-c"])
        .arg(format!(
            "mount -t tmpfs -o size=16k tmpfs '{}'",
            logs.display()
        ))
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        common::say("skipped: no unshare -rm with a tmpfs mount here");
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let script = format!(
        "mount -t tmpfs -o size=16k tmpfs '{0}' && exec \"$0\" --log-dir '{0}'",
        logs.display()
    );
    let mut command = Command::new("unshare");
    command
        .args(["-rm", "sh", "-c", &script])
        .arg(env!("CARGO_BIN_EXE_ironwood"));
    let engine = Engine::start_command(command, dir);
    log_fails_again_and_again(engine, "No space left on device");
}

/// A copy of the embedded network in a scratch folder, and the folder.
fn network_file() -> (PathBuf, PathBuf) {
    let dir = scratch_dir("net-file");
    let file = dir.join("net.nnue");
    std::fs::write(&file, Network::embedded().to_bytes()).unwrap();
    (dir, file)
}

/// The nodes and best move of a UCI depth-8 search from a fresh table.
fn depth8(engine: &mut Engine) -> (String, String) {
    engine.send("ucinewgame");
    engine.send("position startpos moves e2e4 c7c5");
    engine.send("go depth 8");
    let lines = engine.until("bestmove", LONG, |l| l.starts_with("bestmove"));
    let nodes = lines
        .iter()
        .rev()
        .find_map(|l| l.split(" nodes ").nth(1))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| engine.fail("no nodes"))
        .to_string();
    (nodes, lines.last().unwrap().clone())
}

#[test]
fn a_network_file_rewritten_or_replaced_under_the_engine_changes_nothing() {
    let (dir, file) = network_file();
    let mut engine = started(Protocol::Uci);
    engine.send(&format!("setoption name EvalFile value {}", file.display()));
    let before = depth8(&mut engine);
    let good = std::fs::read(&file).unwrap();
    // Rewritten in place (truncated, then half written), and replaced by a rename, while
    // a search runs.
    engine.send("position startpos");
    engine.send("go infinite");
    engine.expect("a report", LONG, |l| l.starts_with("info depth"));
    std::fs::write(&file, []).unwrap();
    std::fs::write(&file, &good[..good.len() / 2]).unwrap();
    let other = dir.join("other.nnue");
    std::fs::write(&other, b"not a network").unwrap();
    std::fs::rename(&other, &file).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    engine.send("stop");
    engine.expect("bestmove", SHORT, |l| l.starts_with("bestmove"));
    assert_eq!(depth8(&mut engine), before, "the network in memory stays");
    // Set again, the broken file is refused and the network stays; a good one is taken.
    engine.send(&format!("setoption name EvalFile value {}", file.display()));
    let refusal = engine.expect("a refusal", SHORT, |l| l.starts_with("info string"));
    assert!(refusal.contains("EvalFile"), "{refusal}");
    assert_eq!(depth8(&mut engine), before);
    std::fs::write(&file, &good).unwrap();
    engine.send(&format!("setoption name EvalFile value {}", file.display()));
    ready(&mut engine);
    assert_eq!(depth8(&mut engine), before);
    assert!(engine.stderr().is_empty(), "{}", engine.stderr());
    let _ = std::fs::remove_dir_all(&dir);
}

fn legal(pos: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    list.iter().copied().collect()
}

/// How many random lines go through the pipes per protocol (the state machines get 10,000
/// in-process, where no process start or pipe slows them).
const PIPE_LINES: usize = 400;

/// Random `go` (depth, nodes, infinite, ponder), `stop`, `ponderhit`, `isready`,
/// `ucinewgame` and `position` lines, sent without waiting: every `go` gets one legal
/// `bestmove` for its position, every `isready` one `readyok`, in order.
#[test]
fn random_uci_lines_over_the_pipes_answer_every_go_once() {
    let mut rng = StdRng::seed_from_u64(6101);
    let mut engine = started(Protocol::Uci);
    let mut moves: Vec<Move> = Vec::new();
    let mut owed: std::collections::VecDeque<Position> = Default::default();
    let (mut gos, mut isready) = (0, 0);
    let position = |moves: &[Move]| {
        moves
            .iter()
            .fold(Position::startpos(), |pos, &m| pos.make_move(m))
    };
    for _ in 0..PIPE_LINES {
        let line = match rng.gen_range(0..10) {
            0 => "stop".to_string(),
            1 => "ponderhit".to_string(),
            2 => {
                isready += 1;
                "isready".to_string()
            }
            3 => {
                moves.clear();
                "ucinewgame".to_string()
            }
            4 | 5 => {
                let choices = legal(&position(&moves));
                if choices.is_empty() {
                    moves.clear();
                } else {
                    moves.push(choices[rng.gen_range(0..choices.len())]);
                }
                let text: Vec<String> = moves.iter().map(Move::to_string).collect();
                format!("position startpos moves {}", text.join(" "))
            }
            kind => {
                gos += 1;
                owed.push_back(position(&moves));
                match kind {
                    6 => format!("go depth {}", rng.gen_range(1..=4)),
                    7 => format!("go nodes {}", rng.gen_range(100..5000)),
                    8 => "go infinite".to_string(),
                    _ => "go ponder wtime 2000 btime 2000".to_string(),
                }
            }
        };
        engine.send(&line);
        if rng.gen_bool(0.3) {
            std::thread::sleep(Duration::from_millis(rng.gen_range(0..5)));
        }
    }
    // One `stop` per owed answer at most lets every held `go` through.
    let (mut answered, mut readyok) = (0, 0);
    let mut stops = 0;
    while answered < gos || readyok < isready {
        let Some(line) = engine.recv(Duration::from_millis(300)) else {
            stops += 1;
            if stops > gos + 10 {
                engine.fail(&format!(
                    "{answered} of {gos} bestmoves, {readyok} of {isready}"
                ));
            }
            engine.send("stop");
            continue;
        };
        if line == "readyok" {
            readyok += 1;
        } else if let Some(rest) = line.strip_prefix("bestmove ") {
            answered += 1;
            let pos = owed
                .pop_front()
                .unwrap_or_else(|| engine.fail("a second bestmove"));
            let text = rest.split_whitespace().next().unwrap_or("");
            let good = match parse_move(&pos, text) {
                Ok(m) => is_legal(&pos, m),
                Err(_) => text == "0000" && legal(&pos).is_empty(),
            };
            if !good {
                engine.fail(&format!("{line} in {}", pos.to_fen()));
            }
        }
    }
    // Nothing more comes.
    ready(&mut engine);
    let late = engine.drain(Duration::from_millis(300));
    assert!(!late.iter().any(|l| l.starts_with("bestmove")), "{late:?}");
}

/// The GUI's side of a random XBoard conversation over the pipes.
struct XboardReferee {
    position: Position,
    /// `None` in force mode.
    engine_side: Option<Color>,
    /// A result was claimed.
    over: bool,
    pings: std::collections::VecDeque<u32>,
    next_ping: u32,
    engine_moves: usize,
}

impl XboardReferee {
    fn ping(&mut self, engine: &mut Engine) -> u32 {
        self.next_ping += 1;
        self.pings.push_back(self.next_ping);
        engine.send(&format!("ping {}", self.next_ping));
        self.next_ping
    }

    /// Reads what has come, or everything up to `pong token`, checking each line: a move is
    /// legal and the engine's to make, pongs come in order.
    fn read(&mut self, engine: &mut Engine, until: Option<u32>) {
        loop {
            let wait = if until.is_some() {
                LONG
            } else {
                Duration::ZERO
            };
            let Some(line) = engine.recv(wait) else {
                if until.is_some() {
                    engine.fail("no pong");
                }
                return;
            };
            if let Some(text) = line.strip_prefix("move ") {
                if self.engine_side != Some(self.position.side_to_move()) {
                    engine.fail(&format!("{line}: not the engine's turn"));
                }
                match parse_move(&self.position, text) {
                    Ok(m) => self.position = self.position.make_move(m),
                    Err(e) => engine.fail(&format!("{line}: {e}")),
                }
                self.engine_moves += 1;
            } else if let Some(token) = line.strip_prefix("pong ") {
                let Some(expected) = self.pings.pop_front() else {
                    engine.fail("a pong without a ping");
                };
                if token != expected.to_string() {
                    engine.fail(&format!("{line}, expected pong {expected}"));
                }
                if until == Some(expected) {
                    return;
                }
            } else if common::is_result(&line) {
                self.over = true;
            } else if line != "offer draw" {
                engine.fail(&format!("unexpected {line}"));
            }
        }
    }

    /// Waits until the engine has moved if it was thinking (its `pong` waits for the move).
    fn sync(&mut self, engine: &mut Engine) {
        let token = self.ping(engine);
        self.read(engine, Some(token));
    }
}

/// Random `ping`, `force`, `go`, `?`, `new` and `usermove` lines at `sd 3`, sent without
/// waiting except before `new` and `usermove` (the board must be known to pick a legal move;
/// the in-process test sends them mid-search too): every move the engine sends is legal and
/// on its turn, none is lost, every `ping` gets its `pong` in order.
#[test]
fn random_xboard_lines_over_the_pipes_lose_no_move_and_answer_pings_in_order() {
    let mut rng = StdRng::seed_from_u64(6102);
    let mut engine = started(Protocol::Xboard);
    engine.send("nopost");
    engine.send("new");
    engine.send("sd 3");
    let mut referee = XboardReferee {
        position: Position::startpos(),
        engine_side: Some(Color::Black),
        over: false,
        pings: Default::default(),
        next_ping: 0,
        engine_moves: 0,
    };
    for _ in 0..PIPE_LINES {
        match rng.gen_range(0..10) {
            0 => {
                referee.ping(&mut engine);
            }
            1 => {
                engine.send("force");
                // A move already on its way was the engine's to make.
                referee.read(&mut engine, None);
                let token = referee.ping(&mut engine);
                referee.read(&mut engine, Some(token));
                referee.engine_side = None;
            }
            2 => {
                referee.sync(&mut engine);
                referee.engine_side = Some(referee.position.side_to_move());
                engine.send("go");
            }
            3 => engine.send("?"),
            4 => {
                referee.sync(&mut engine);
                referee.position = Position::startpos();
                referee.engine_side = Some(Color::Black);
                referee.over = false;
                engine.send("new");
                engine.send("sd 3");
            }
            _ => {
                referee.sync(&mut engine);
                let choices = legal(&referee.position);
                if !choices.is_empty() {
                    let m = choices[rng.gen_range(0..choices.len())];
                    engine.send(&format!("usermove {m}"));
                    referee.position = referee.position.make_move(m);
                }
            }
        }
        referee.read(&mut engine, None);
        if rng.gen_bool(0.3) {
            std::thread::sleep(Duration::from_millis(rng.gen_range(0..5)));
        }
    }
    referee.sync(&mut engine);
    assert!(referee.pings.is_empty(), "{:?}", referee.pings);
    let on_move = referee.engine_side == Some(referee.position.side_to_move());
    assert!(
        !on_move || referee.over || legal(&referee.position).is_empty(),
        "the engine's move was lost"
    );
    assert!(referee.engine_moves > 20, "{} moves", referee.engine_moves);
}
