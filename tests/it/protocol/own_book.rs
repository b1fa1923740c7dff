//! The own book through the real binary in both protocols: off by default; on, a book move
//! at once (the heaviest with `Best Book Move`, else drawn among the book's moves), a search
//! out of book, past `Book Depth`, in analysis and pondering; a missing, cut or unsorted file
//! or an illegal entry gets the protocol's message, the book goes off and play goes on.

use crate::common;

use common::Engine;
use ironwood::board::Position;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const SEARCH: Duration = Duration::from_secs(30);
/// A book move needs no search: far below the `BOOK_GO_MS` a `go` allows.
const INSTANT: Duration = Duration::from_millis(1500);
const BOOK_GO_MS: u64 = 5000;
/// A search's time where none is expected to be cut short.
const SEARCH_GO_MS: u64 = 200;

/// The committed book (made by `polyglot make-book` from real games).
fn real_book() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/polyglot_book.bin")
}

/// The moves and weights python-chess's reader finds for `fen` in the real book.
fn book_moves(fen: &str) -> Vec<(String, u32)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/polyglot_book_moves.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{fen};")))
        .unwrap_or_else(|| panic!("{fen} not in the fixture"));
    line.split_whitespace()
        .map(|m| {
            let (mv, weight) = m.split_once(':').unwrap();
            (mv.to_string(), weight.parse().unwrap())
        })
        .collect()
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The key of the start position (the format description's test value).
const START_KEY: u64 = 0x463b96181691fc9c;

/// Damaged books in a scratch folder: (file, what the refusal says).
fn damaged_books() -> Vec<(PathBuf, &'static str)> {
    let dir = common::scratch_dir("books");
    let real = std::fs::read(real_book()).unwrap();
    let cut = dir.join("cut.bin");
    std::fs::write(&cut, &real[..real.len() - 5]).unwrap();
    // The last entry first: its key is the largest.
    let unsorted = dir.join("unsorted.bin");
    let last = real.len() - 16;
    let mut swapped = real[last..].to_vec();
    swapped.extend_from_slice(&real[16..last]);
    swapped.extend_from_slice(&real[..16]);
    std::fs::write(&unsorted, swapped).unwrap();
    vec![
        (dir.join("missing.bin"), "cannot read it"),
        (cut, "is not a multiple of 16"),
        (unsorted, "not sorted by key"),
    ]
}

/// A book whose only entries, for the start position, are e2e4 and the illegal e2e5.
fn illegal_book() -> PathBuf {
    let path = common::scratch_dir("books").join("illegal.bin");
    let mut bytes = Vec::new();
    for (from, to) in [(12u16, 28u16), (12, 36)] {
        bytes.extend(START_KEY.to_be_bytes());
        bytes.extend((from << 6 | to).to_be_bytes());
        bytes.extend(1u16.to_be_bytes());
        bytes.extend(0u32.to_be_bytes());
    }
    std::fs::write(&path, bytes).unwrap();
    path
}

fn start_uci() -> Engine {
    let log_dir = common::scratch_dir("logs");
    let args = [
        "--protocol".to_string(),
        "uci".to_string(),
        "--log-dir".to_string(),
        log_dir.display().to_string(),
    ];
    let mut engine = Engine::start_with(&args, log_dir);
    engine.send("uci");
    engine.until("uciok", SEARCH, |l| l == "uciok");
    engine
}

fn ready(engine: &mut Engine) -> Vec<String> {
    engine.send("isready");
    let mut lines = engine.until("readyok", SEARCH, |l| l == "readyok");
    lines.pop();
    lines
}

/// `go movetime MS` from `position`: the lines up to `bestmove`, the move, how long.
fn uci_go(engine: &mut Engine, position: &str, ms: u64) -> (Vec<String>, String, Duration) {
    engine.send(&format!("position {position}"));
    let started = Instant::now();
    engine.send(&format!("go movetime {ms}"));
    let lines = engine.until("bestmove", SEARCH, |l| l.starts_with("bestmove"));
    let best = lines.last().unwrap()["bestmove ".len()..].to_string();
    (lines, best, started.elapsed())
}

fn searched(lines: &[String]) -> bool {
    lines.iter().any(|l| l.starts_with("info depth "))
}

#[test]
fn uci_book_off_by_default_then_book_moves_at_once_and_searches_out_of_book() {
    let mut engine = start_uci();
    engine.send(&format!(
        "setoption name Book File value {}",
        real_book().display()
    ));
    assert!(ready(&mut engine).is_empty());
    engine.send("setoption name Random Seed value 7");

    // Off by default: a file alone changes nothing.
    let (lines, _, _) = uci_go(&mut engine, "startpos", SEARCH_GO_MS);
    assert!(searched(&lines), "{lines:?}");

    engine.send("setoption name OwnBook value true");
    engine.send("setoption name Best Book Move value true");
    let expected = book_moves(START);
    let heaviest = expected.iter().max_by_key(|(_, w)| *w).unwrap();
    let (lines, best, took) = uci_go(&mut engine, "startpos", BOOK_GO_MS);
    assert_eq!(best, heaviest.0, "{lines:?}");
    assert!(!searched(&lines), "{lines:?}");
    assert!(took < INSTANT, "{took:?}");
    assert!(
        lines[0].starts_with(&format!(
            "info string book move {best} (weight {}",
            heaviest.1
        )),
        "{lines:?}"
    );

    // Drawn by weight: only the book's moves, and more than one of them.
    engine.send("setoption name Best Book Move value false");
    let mut played = std::collections::BTreeSet::new();
    for _ in 0..30 {
        let (lines, best, took) = uci_go(&mut engine, "startpos", BOOK_GO_MS);
        assert!(!searched(&lines) && took < INSTANT, "{lines:?}");
        assert!(expected.iter().any(|(m, _)| *m == best), "{best}");
        played.insert(best);
    }
    assert!(played.len() >= 5, "{played:?}");

    // Out of book, past Book Depth, analysis and pondering: searches.
    let (lines, _, _) = uci_go(
        &mut engine,
        "startpos moves a2a4 h7h5 h2h4 a7a5",
        SEARCH_GO_MS,
    );
    assert!(searched(&lines), "{lines:?}");
    engine.send("setoption name Book Depth value 1");
    let (lines, _, _) = uci_go(&mut engine, "startpos moves e2e4", SEARCH_GO_MS);
    assert!(searched(&lines), "{lines:?}");
    engine.send("setoption name Book Depth value 255");
    let (lines, best, _) = uci_go(&mut engine, "startpos moves e2e4", BOOK_GO_MS);
    assert!(!searched(&lines), "{lines:?}");
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    assert!(book_moves(fen).iter().any(|(m, _)| *m == best), "{best}");
    for go in ["go infinite", "go ponder movetime 5000"] {
        engine.send("position startpos");
        engine.send(go);
        engine.expect("a search line", SEARCH, |l| l.starts_with("info depth "));
        engine.send("stop");
        let lines = engine.until("bestmove", SEARCH, |l| l.starts_with("bestmove"));
        assert!(lines.iter().all(|l| !l.contains("book")), "{go}: {lines:?}");
    }
    engine.send("quit");
    assert_eq!(engine.wait_exit(SEARCH), Some(0));
}

#[test]
fn uci_bad_books_are_refused_with_the_reason_and_play_goes_on() {
    let mut engine = start_uci();
    engine.send("setoption name OwnBook value true");
    for (file, reason) in damaged_books() {
        engine.send(&format!(
            "setoption name Book File value {}",
            file.display()
        ));
        let lines = ready(&mut engine);
        let refusal = format!("info string error (book refused: {}: ", file.display());
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&refusal) && l.contains(reason)),
            "{lines:?}"
        );
        let (lines, _, _) = uci_go(&mut engine, "startpos", SEARCH_GO_MS);
        assert!(searched(&lines), "{lines:?}");
    }
    engine.send("uci");
    let lines = engine.until("uciok", SEARCH, |l| l == "uciok");
    assert!(
        lines.contains(&"option name Book File type string default <empty>".to_string()),
        "{lines:?}"
    );

    // An illegal move is found when the position comes: said, the book off, a search.
    let illegal = illegal_book();
    engine.send(&format!(
        "setoption name Book File value {}",
        illegal.display()
    ));
    assert!(ready(&mut engine).is_empty());
    let (lines, _, _) = uci_go(&mut engine, "startpos", SEARCH_GO_MS);
    assert!(
        lines[0].starts_with("info string book ")
            && lines[0].contains("turned off: its move e2e5 is illegal in "),
        "{lines:?}"
    );
    assert!(searched(&lines), "{lines:?}");
    let (lines, _, _) = uci_go(&mut engine, "startpos", SEARCH_GO_MS);
    assert!(
        searched(&lines) && lines.iter().all(|l| !l.contains("book")),
        "{lines:?}"
    );
    engine.send("quit");
    assert_eq!(engine.wait_exit(SEARCH), Some(0));
}

#[test]
fn xboard_book_moves_at_once_with_a_thinking_line_and_bad_books_get_a_message() {
    let mut engine = Engine::start();
    let features = engine.handshake();
    for feature in [
        "feature option=\"OwnBook -check 0\"",
        "feature option=\"Book File -file <empty>\"",
        "feature option=\"Best Book Move -check 0\"",
        "feature option=\"Book Depth -spin 255 1 1000\"",
    ] {
        assert!(features.iter().any(|l| l == feature), "{features:?}");
    }
    for (file, reason) in damaged_books() {
        engine.send(&format!("option Book File={}", file.display()));
        let lines = engine.sync();
        let refusal = format!("Error (book refused: {}: ", file.display());
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&refusal) && l.contains(reason)),
            "{lines:?}"
        );
    }
    engine.send(&format!("option Book File={}", real_book().display()));
    engine.send("option OwnBook=1");
    engine.send("option Best Book Move=1");
    assert!(engine.sync().is_empty());

    // `bk` lists the book's moves here, in the book's order.
    engine.send("new");
    engine.send("bk");
    let lines = engine.sync();
    let expected = book_moves(START);
    assert_eq!(lines.len(), expected.len() + 1, "{lines:?}");
    for (line, (mv, weight)) in lines.iter().zip(&expected) {
        assert!(
            line.starts_with(&format!(" {mv} ")) && line.ends_with(&format!("({weight})")),
            "{lines:?}"
        );
    }
    assert_eq!(lines.last().unwrap(), "");

    // White's heaviest book move at once, announced by a thinking line in parentheses.
    engine.send("new");
    engine.send("post");
    engine.send("level 0 1 0");
    let started = Instant::now();
    engine.send("go");
    let lines = engine.until("a move", SEARCH, |l| l.starts_with("move "));
    let heaviest = expected.iter().max_by_key(|(_, w)| *w).unwrap();
    assert_eq!(lines.last().unwrap(), &format!("move {}", heaviest.0));
    assert!(started.elapsed() < INSTANT);
    assert!(
        lines[0].starts_with(&format!(
            "0 0 0 0 (book {}, weight {} of ",
            heaviest.0, heaviest.1
        )),
        "{lines:?}"
    );
    // Out of book (the book has no line g1h3 c7c6): a search.
    assert_eq!(heaviest.0, "g1h3");
    engine.send("usermove c7c6");
    let lines = engine.until("a move", SEARCH, |l| l.starts_with("move "));
    assert!(
        lines
            .iter()
            .any(|l| common::thinking(l).is_some_and(|(depth, _, _)| depth > 0)),
        "{lines:?}"
    );
    // Analysis never uses the book.
    engine.send("new");
    engine.send("force");
    engine.send("post");
    engine.send("analyze");
    engine.expect("a search line", SEARCH, |l| {
        common::thinking(l).is_some_and(|(depth, _, _)| depth > 0)
    });
    engine.send("exit");
    assert!(engine.sync().iter().all(|l| !l.contains("book")));

    // An illegal entry: telluser, the book off, the move comes from a search.
    engine.send(&format!("option Book File={}", illegal_book().display()));
    engine.send("new");
    engine.send("level 0 1 0");
    engine.send("go");
    let lines = engine.until("a move", SEARCH, |l| l.starts_with("move "));
    assert!(
        lines.iter().any(|l| l.starts_with("telluser book ")
            && l.contains("turned off: its move e2e5 is illegal in ")),
        "{lines:?}"
    );
    let m = lines.last().unwrap()["move ".len()..].to_string();
    assert!(
        ironwood::board::parse_move(&Position::startpos(), &m).is_ok(),
        "{m}"
    );
    engine.send("quit");
    assert_eq!(engine.wait_exit(SEARCH), Some(0));
}
