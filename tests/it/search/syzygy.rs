//! Syzygy tables through the real binary: a won KQvKR and KRvKP ending scored as a tablebase
//! win with a move that keeps it, `tbhits` in UCI and XBoard, `egtpath syzygy` and the `egt`
//! feature, and folders or files that cannot be used (missing, empty, cut short, junk,
//! another variant's): named to the user, left out, and play goes on.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{Engine, LONG, SHORT, field, scratch_dir};
use ironwood::board::{Position, is_legal, parse_move};
use ironwood::tablebase::{Tablebases, Wdl};

/// Below every mate and above every evaluation (`search::score::TB_WIN_BOUND`).
const TB_WIN_AT_LEAST: i64 = 30_000;

/// Won for the side to move: KQvKR (DTZ 53) and KRvKP (the rook must stop the pawn).
const WON: [&str; 2] = [
    "8/8/3k4/8/8/2r5/8/KQ6 w - - 0 1",
    "K7/8/8/8/5k2/8/p7/7R w - - 0 1",
];

fn tables_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy")
}

fn uci_engine() -> Engine {
    let log_dir = scratch_dir("syzygy-logs");
    let args = vec!["--log-dir".to_string(), log_dir.display().to_string()];
    let mut engine = Engine::start_with(&args, log_dir);
    engine.send("uci");
    engine.until("uciok", SHORT, |l| l == "uciok");
    engine
}

fn xboard_engine() -> (Engine, Vec<String>) {
    let mut engine = Engine::start();
    let features = engine.handshake();
    (engine, features)
}

/// `isready` and the lines before `readyok`.
fn ready(engine: &mut Engine) -> Vec<String> {
    engine.send("isready");
    let mut lines = engine.until("readyok", LONG, |l| l == "readyok");
    lines.pop();
    lines
}

/// Whether `text`, played in `fen`, keeps the win, by the tables (checked against
/// python-chess in the tablebase module's tests).
fn keeps_the_win(fen: &str, text: &str) -> bool {
    let (tables, _) = Tablebases::load(tables_dir().to_str().unwrap());
    let pos = Position::from_fen(fen).unwrap();
    let Ok(m) = parse_move(&pos, text) else {
        return false;
    };
    let child = pos.make_move(m);
    is_legal(&pos, m)
        && if child.halfmove_clock() == 0 {
            tables.probe_wdl(&child) == Some(Wdl::Loss)
        } else {
            tables.probe_dtz(&child).is_some_and(|dtz| dtz < 0)
        }
}

#[test]
fn uci_won_endings_score_as_tablebase_wins_and_keep_them() {
    let mut engine = uci_engine();
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        tables_dir().display()
    ));
    let notes = ready(&mut engine);
    assert!(
        notes
            .iter()
            .any(|l| l.starts_with("info string Syzygy: 22 table files, up to 4 pieces")),
        "{notes:?}"
    );
    for fen in WON {
        engine.send("ucinewgame");
        engine.send(&format!("position fen {fen}"));
        engine.send("go depth 10");
        let lines = engine.until("bestmove", LONG, |l| l.starts_with("bestmove"));
        let last_info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap_or_else(|| engine.fail("no info line"));
        let score: i64 = field(last_info, "cp").map_or(0, |s| s.parse().unwrap());
        let tbhits: u64 = field(last_info, "tbhits").unwrap().parse().unwrap();
        assert!(score >= TB_WIN_AT_LEAST, "{fen}: {last_info}");
        assert!(tbhits > 0, "{fen}: {last_info}");
        let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        assert!(
            keeps_the_win(fen, best),
            "{fen}: {best} throws the win away"
        );
    }
}

/// The engine's open files and mapped regions that are table files under `dir`.
#[cfg(target_os = "linux")]
fn table_handles(pid: u32, dir: &Path) -> usize {
    let open_files = fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|entries| {
            entries
                .filter_map(|entry| fs::read_link(entry.ok()?.path()).ok())
                .filter(|target| target.starts_with(dir))
                .count()
        })
        .unwrap_or(0);
    let dir = dir.display().to_string();
    let mapped = fs::read_to_string(format!("/proc/{pid}/maps"))
        .unwrap_or_default()
        .lines()
        .filter(|line| line.contains(&dir))
        .count();
    open_files + mapped
}

/// An ICS operator's weeks-long process: each change of `SyzygyPath` lets the old tables go,
/// their files closed once no search holds them. Loaded and probed six times, the tables
/// leave no file open or mapped after the path is emptied.
#[cfg(target_os = "linux")]
#[test]
fn uci_changing_syzygy_path_closes_the_old_tables() {
    let mut engine = uci_engine();
    let dir = fs::canonicalize(tables_dir()).unwrap();
    let mut while_loaded = Vec::new();
    for _ in 0..6 {
        engine.send(&format!(
            "setoption name SyzygyPath value {}",
            dir.display()
        ));
        engine.send(&format!("position fen {}", WON[0]));
        engine.send("go depth 6");
        engine.until("bestmove", LONG, |l| l.starts_with("bestmove"));
        while_loaded.push(table_handles(engine.pid(), &dir));
        engine.send("setoption name SyzygyPath value <empty>");
        ready(&mut engine);
        // The search thread takes the new options in its own time: wait for it.
        let deadline = std::time::Instant::now() + SHORT;
        while table_handles(engine.pid(), &dir) > 0 && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert_eq!(
            table_handles(engine.pid(), &dir),
            0,
            "tables still open after SyzygyPath <empty> (open while loaded: {while_loaded:?})"
        );
    }
    assert!(
        while_loaded.iter().all(|&n| n > 0 && n == while_loaded[0]),
        "the probes opened no table, or more each time: {while_loaded:?}"
    );
}

#[test]
fn uci_without_tables_probes_nothing() {
    let mut engine = uci_engine();
    engine.send(&format!("position fen {}", WON[0]));
    engine.send("go depth 8");
    let lines = engine.until("bestmove", LONG, |l| l.starts_with("bestmove"));
    for line in lines.iter().filter(|l| l.starts_with("info depth")) {
        assert_eq!(field(line, "tbhits"), Some("0"), "{line}");
        let score: i64 = field(line, "cp").map_or(0, |s| s.parse().unwrap());
        assert!(score < TB_WIN_AT_LEAST, "{line}");
    }
}

#[test]
fn xboard_egtpath_syzygy_loads_the_tables_and_reports_tbhits() {
    let (mut engine, features) = xboard_engine();
    assert!(
        features.iter().any(|l| l.contains("egt=\"syzygy\"")),
        "{features:?}"
    );
    assert!(
        features.iter().any(|l| l.contains("SyzygyPath -path")),
        "{features:?}"
    );
    engine.send(&format!("egtpath syzygy {}", tables_dir().display()));
    let notes = engine.sync_within(LONG);
    assert!(
        notes
            .iter()
            .any(|l| l.starts_with("# Syzygy: 22 table files")),
        "{notes:?}"
    );
    engine.send("new");
    engine.send("force");
    engine.send(&format!("setboard {}", WON[1]));
    engine.send("post");
    engine.send("sd 10");
    engine.send("go");
    let pos = Position::from_fen(WON[1]).unwrap();
    let lines = engine.until("a move", LONG, |l| l.starts_with("move "));
    let thinking: Vec<&String> = lines.iter().filter(|l| l.contains('\t')).collect();
    let last = thinking
        .last()
        .unwrap_or_else(|| engine.fail("no thinking line"));
    // PLY SCORE TIME NODES SELDEPTH SPEED TBHITS \t PV
    let numbers: Vec<i64> = last
        .split('\t')
        .next()
        .unwrap()
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(numbers.len(), 7, "{last}");
    assert!(numbers[1] >= TB_WIN_AT_LEAST && numbers[6] > 0, "{last}");
    let text = lines.last().unwrap().trim_start_matches("move ");
    assert!(parse_move(&pos, text).is_ok());
    assert!(keeps_the_win(WON[1], text), "{text} throws the win away");
}

/// A folder for each kind of bad input, each holding a KRvK table broken its own way.
fn bad_folders() -> Vec<(PathBuf, &'static str)> {
    let good = fs::read(tables_dir().join("KRvK.rtbw")).unwrap();
    let mut junk = good.clone();
    for (i, byte) in junk.iter_mut().enumerate() {
        *byte = (i * 37 % 251) as u8;
    }
    let mut atomic = good.clone();
    // An atomic chess WDL table's magic bytes: another variant's table under a chess name.
    atomic[..4].copy_from_slice(&[0x55, 0x8d, 0xa4, 0x49]);
    let cases: [(&str, Vec<u8>, &str); 4] = [
        ("empty", Vec::new(), "empty file"),
        ("cut", good[..good.len() / 2].to_vec(), "not a whole table"),
        ("junk", junk, "not a standard chess Syzygy table"),
        ("atomic", atomic, "another variant"),
    ];
    cases
        .into_iter()
        .map(|(tag, bytes, reason)| {
            let dir = scratch_dir(&format!("syzygy-{tag}"));
            fs::write(dir.join("KRvK.rtbw"), bytes).unwrap();
            (dir, reason)
        })
        .collect()
}

#[test]
fn uci_bad_folders_and_files_are_named_and_play_goes_on() {
    let bad = bad_folders();
    let mut folders: Vec<PathBuf> = vec![PathBuf::from("/no/such/folder")];
    folders.extend(bad.iter().map(|(dir, _)| dir.clone()));
    folders.push(tables_dir());
    let path = std::env::join_paths(&folders).unwrap();
    let mut engine = uci_engine();
    engine.send(&format!(
        "setoption name SyzygyPath value {}",
        path.to_str().unwrap()
    ));
    let notes = ready(&mut engine);
    let problem = |needle: &str| {
        notes
            .iter()
            .any(|l| l.starts_with("info string Syzygy: not used:") && l.contains(needle))
    };
    assert!(
        problem("/no/such/folder: cannot read the folder"),
        "{notes:?}"
    );
    for (dir, reason) in &bad {
        assert!(
            problem(&dir.display().to_string()) && problem(reason),
            "{reason}: {notes:?}"
        );
    }
    assert!(
        notes.iter().any(|l| l.contains("22 table files")),
        "the good folder still loads: {notes:?}"
    );
    // KRvK from the good folder: a tablebase win, and the game goes on.
    let fen = "8/8/8/4k3/8/8/8/K6R w - - 0 1";
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 8");
    let lines = engine.until("bestmove", LONG, |l| l.starts_with("bestmove"));
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(parse_move(&Position::from_fen(fen).unwrap(), best).is_ok());
    assert!(engine.is_alive());
    for (dir, _) in bad {
        let _ = fs::remove_dir_all(dir);
    }
}

#[test]
fn xboard_bad_egtpath_tells_the_user_and_the_game_goes_on() {
    let bad = bad_folders();
    let (mut engine, _) = xboard_engine();
    engine.send(&format!("egtpath syzygy {}", bad[2].0.display()));
    let notes = engine.sync_within(LONG);
    assert!(
        notes
            .iter()
            .any(|l| l.starts_with("telluser Syzygy: not used:") && l.contains(bad[2].1)),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|l| l.starts_with("# Syzygy: 0 table files")),
        "{notes:?}"
    );
    engine.send("new");
    engine.send("force");
    let fen = "8/8/8/4k3/8/8/8/K6R w - - 0 1";
    engine.send(&format!("setboard {fen}"));
    engine.send("sd 6");
    engine.send("go");
    engine.expect_move(&Position::from_fen(fen).unwrap(), LONG);
    assert!(engine.is_alive());
    for (dir, _) in bad {
        let _ = fs::remove_dir_all(dir);
    }
}
