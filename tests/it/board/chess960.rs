//! Chess960 through the real binary: the perft suite, castling in every geometry under
//! XBoard (`variant fischerandom`, `O-O` in and out, king-takes-rook in) and UCI
//! (`UCI_Chess960`, king takes rook), X-FEN/Shredder-FEN setboard, and `new` leaving it.

use crate::common;

use common::{Engine, LONG, SHORT, run_ironwood, scratch_dir};

fn xboard_960() -> Engine {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("new");
    engine.send("variant fischerandom");
    engine.send("force");
    engine
}

/// The replies (if any) to each of `moves`, sent in order.
fn replies(engine: &mut Engine, moves: &[&str]) -> Vec<String> {
    for m in moves {
        engine.send(&format!("usermove {m}"));
    }
    engine.sync()
}

#[test]
fn perft_suite_passes_through_the_binary() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft960.epd");
    let (code, out, err) = run_ironwood(&["perft", "--epd", path]);
    assert_eq!(code, 0, "{out}{err}");
    let last = out.lines().last().unwrap_or("");
    let parts: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(parts.first(), Some(&"passed"), "{out}");
    assert_eq!(parts[1], parts[3], "{out}");
    assert!(parts[1].parse::<u32>().unwrap() >= 150, "{out}");
}

#[test]
fn divide_writes_chess960_castling_as_king_takes_rook() {
    // King b1 next to its rook a1: O-O-O takes the king to c1, the rook to d1.
    let fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1";
    let (code, out, _) = run_ironwood(&["perft", "1", fen]);
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l == "b1a1: 1"), "{out}");
    assert!(out.lines().any(|l| l == "b1h1: 1"), "{out}");
    let (_, normal, _) = run_ironwood(&["perft", "1", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]);
    assert!(normal.lines().any(|l| l == "e1g1: 1"), "{normal}");
}

#[test]
fn xboard_announces_fischerandom() {
    let mut engine = Engine::start();
    let features = engine.handshake().join(" ");
    assert!(
        features.contains("variants=\"normal,fischerandom\""),
        "{features}"
    );
    engine.send("variant fischerandom");
    assert!(engine.sync().is_empty());
}

/// Each geometry: a setboard, castling by `O-O` (or king takes rook), then moves that are
/// legal only if king and rook stand where castling puts them, and one that is not.
#[test]
fn castling_in_every_geometry_through_setboard_and_o_o() {
    let cases: [(&str, &str, &[&str], &str); 6] = [
        // King and rook adjacent (b1, a1): king to c1, rook to d1.
        (
            "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1",
            "O-O-O",
            &["a7a6", "d1e1", "a6a5", "c1b1"],
            "b1c1",
        ),
        // King on its goal square g1, rook h1 beside it: only the rook moves (to f1).
        (
            "1r4kr/pppppppp/8/8/8/8/PPPPP1PP/1R4KR w KQkq - 0 1",
            "O-O",
            &["a7a6", "f1f2", "a6a5", "g1h1"],
            "g1f1",
        ),
        // Rook on the king's goal square (c1): king to c1, rook to d1.
        (
            "2r1k2r/pppppppp/8/8/8/8/PPP1PPPP/2R1K2R w KQkq - 0 1",
            "O-O-O",
            &["a7a6", "d1d2", "a6a5", "c1d1"],
            "e1e2",
        ),
        // King f1 and rook g1 swap squares.
        (
            "r4kr1/pppppppp/8/8/8/8/PPPPP1PP/R4KR1 w KQkq - 0 1",
            "O-O",
            &["a7a6", "f1f2", "a6a5", "g1f1"],
            "f1g1",
        ),
        // King d1 and rook c1 swap squares, asked for as king takes rook.
        (
            "2rk3r/pppppppp/8/8/8/8/PPP1PPPP/2RK3R w KQkq - 0 1",
            "d1c1",
            &["a7a6", "d1d2", "a6a5", "c1d1"],
            "d1c1",
        ),
        // Black: king f8 and rook g8 swap squares.
        (
            "r4kr1/ppppp1pp/8/8/8/8/PPPPPPPP/R4KR1 b KQkq - 0 1",
            "O-O",
            &["a2a3", "f8f7", "a3a4", "g8f8"],
            "f8g8",
        ),
    ];
    for (fen, castle, legal_after, illegal_after) in cases {
        let mut engine = xboard_960();
        engine.send(&format!("setboard {fen}"));
        let mut moves = vec![castle];
        moves.extend_from_slice(legal_after);
        assert!(
            replies(&mut engine, &moves).is_empty(),
            "{fen}: {castle} then {legal_after:?}"
        );
        // Again from the start: a move that only the old squares would allow is refused.
        engine.send(&format!("setboard {fen}"));
        let rejected = replies(&mut engine, &[castle, legal_after[0], illegal_after]);
        assert_eq!(
            rejected,
            [format!("Illegal move: {illegal_after}")],
            "{fen}: {castle} then {illegal_after}"
        );
    }
}

#[test]
fn the_engine_castles_with_o_o_when_it_mates() {
    // Castling is the only mate in one: the rook lands on f1 facing the boxed-in king.
    for fen in [
        "4rkr1/4p1p1/8/8/8/8/8/6KR w K - 0 1",
        "4rkr1/4p1p1/8/8/8/8/8/5KR1 w G - 0 1",
    ] {
        let mut engine = xboard_960();
        engine.send(&format!("setboard {fen}"));
        engine.send("sd 3");
        engine.send("go");
        let line = engine.expect("a move", LONG, |l| l.starts_with("move "));
        assert_eq!(line, "move O-O", "{fen}");
        let result = engine.expect("a result", SHORT, |l| l.starts_with("1-0"));
        assert_eq!(result, "1-0 {White mates}");
    }
}

#[test]
fn the_kings_two_square_step_is_not_castling_in_chess960() {
    let mut engine = xboard_960();
    engine.send("setboard 4k3/pppppppp/8/8/8/8/PPPPPPPP/4K2R w K - 0 1");
    assert_eq!(replies(&mut engine, &["e1g1"]), ["Illegal move: e1g1"]);
    assert!(replies(&mut engine, &["e1h1"]).is_empty());
}

#[test]
fn setboard_takes_shredder_fen_and_refuses_contradicted_rights() {
    let mut engine = xboard_960();
    engine.send("setboard 1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1");
    assert!(replies(&mut engine, &["O-O-O"]).is_empty());
    // A right whose rook is missing: refused, the board unchanged (Black to move).
    engine.send("setboard 1r4kr/pppppppp/8/8/8/8/PPPPPPPP/6KR w HBhb - 0 1");
    let refusal = engine.sync();
    assert_eq!(refusal[0], "tellusererror Illegal position");
    assert!(
        refusal[1].contains("White queen-side castling right but no White rook on b1"),
        "{refusal:?}"
    );
    assert!(replies(&mut engine, &["a7a6"]).is_empty());
}

#[test]
fn new_leaves_fischerandom() {
    let mut engine = xboard_960();
    let fen = "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w KQkq - 0 1";
    engine.send(&format!("setboard {fen}"));
    assert!(engine.sync().is_empty());
    engine.send("new");
    engine.send("force");
    engine.send(&format!("setboard {fen}"));
    let refusal = engine.sync();
    assert_eq!(refusal[0], "tellusererror Illegal position");
    assert!(
        refusal[1].contains("White has a castling right but its king is not on e1"),
        "{refusal:?}"
    );
    // Normal chess castling is written e1g1 again.
    engine.send("setboard 4k3/pppppppp/8/8/8/8/PPPPPPPP/4K2R w K - 0 1");
    assert!(replies(&mut engine, &["e1g1"]).is_empty());
}

#[test]
fn uci_chess960_castles_king_takes_rook() {
    let log_dir = scratch_dir("uci960-logs");
    let args = ["--log-dir".to_string(), log_dir.display().to_string()];
    let mut engine = Engine::start_with(&args, log_dir);
    engine.send("uci");
    let options = engine.until("uciok", SHORT, |l| l == "uciok");
    assert!(
        options
            .iter()
            .any(|l| l == "option name UCI_Chess960 type check default false"),
        "{options:?}"
    );
    engine.send("setoption name UCI_Chess960 value true");
    engine.send("position fen 4rkr1/4p1p1/8/8/8/8/8/5KR1 w G - 0 1");
    engine.send("go depth 3");
    let best = engine.expect("bestmove", LONG, |l| l.starts_with("bestmove"));
    assert_eq!(best, "bestmove f1g1");
    // King takes rook as input, then a move only legal after it (the rook on f1).
    engine.send(
        "position fen 1r4kr/pppppppp/8/8/8/8/PPPPP1PP/1R4KR w KQkq - 0 1 moves g1h1 g8h8 f1f2",
    );
    engine.send("isready");
    let lines = engine.until("readyok", SHORT, |l| l == "readyok");
    assert_eq!(lines, ["readyok"]);
    // The king's two-square step is not castling here.
    engine.send("position fen 4k3/pppppppp/8/8/8/8/PPPPPPPP/4K2R w K - 0 1 moves e1g1");
    engine.send("isready");
    let lines = engine.until("readyok", SHORT, |l| l == "readyok");
    assert!(
        lines[0].starts_with("info string error (illegal move"),
        "{lines:?}"
    );
}

#[test]
fn the_log_writes_castling_as_o_o_in_san() {
    let mut engine = xboard_960();
    engine.send("setboard 1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w KQkq - 0 1");
    assert!(replies(&mut engine, &["g1h1", "O-O-O"]).is_empty());
    let log: String = engine
        .log_files()
        .iter()
        .map(|path| std::fs::read_to_string(path).unwrap_or_default())
        .collect();
    assert!(log.contains("played 1. O-O\n"), "{log}");
    assert!(log.contains("played 1... O-O-O\n"), "{log}");
}
