//! Protocol-1 GUIs, replayed line for line: GNOME Chess (`engine/chess-engine-cecp.vala`,
//! profiles from its `engines.conf`) and KDE Knights (`src/proto/xboardprotocol.cpp`) never
//! send `protover`; they send `xboard`, options, bare coordinate moves and `go`. GNOME Chess
//! reads only lines starting `move ` (and `Illegal move: `, draw and resign words); Knights
//! takes any line containing a square name, `...` or `move` for a move. So in these
//! conversations Ironwood may answer with `move ...` lines only: no features, no thinking
//! output (nobody sent `post`), no `#` or error lines.

use crate::common;

use std::time::Duration;

use common::{Engine, LONG};
use ironwood::board::{MoveList, Position, legal_moves, parse_move};

/// Replays a GUI's lines and holds the engine to protocol-1 output.
struct Gui {
    engine: Engine,
    position: Position,
}

impl Gui {
    fn start() -> Gui {
        Gui {
            engine: Engine::start(),
            position: Position::startpos(),
        }
    }

    fn send(&mut self, line: &str) {
        self.engine.send(line);
    }

    /// A line Knights would misread as a move (or GNOME Chess would not understand).
    fn check_line(&self, line: &str) {
        let has_square = line
            .as_bytes()
            .windows(2)
            .any(|w| (b'a'..=b'h').contains(&w[0]) && (b'1'..=b'8').contains(&w[1]));
        if !line.starts_with("move ") {
            self.engine.fail(&format!(
                "a protocol-1 GUI got a line other than a move{}: {line:?}",
                if has_square || line.contains("move") || line.contains("...") {
                    " (Knights would take it for a move)"
                } else {
                    ""
                }
            ));
        }
    }

    /// The human's move: the first legal move in generator order after `skip` others.
    fn human_move(&mut self, skip: usize) -> String {
        let mut moves = MoveList::new();
        legal_moves(&self.position, &mut moves);
        let m = moves
            .iter()
            .copied()
            .nth(skip % moves.len())
            .expect("a legal move");
        self.position = self.position.make_move(m);
        m.to_string()
    }

    /// Waits for the engine's `move X`; X must be legal; nothing else may come first.
    fn engine_moves(&mut self) {
        let line = self
            .engine
            .recv(LONG)
            .unwrap_or_else(|| self.engine.fail("no move from the engine"));
        self.check_line(&line);
        let text = &line["move ".len()..];
        match parse_move(&self.position, text) {
            Ok(m) => self.position = self.position.make_move(m),
            Err(e) => self.engine.fail(&format!("illegal move {text}: {e}")),
        }
    }

    /// Nothing at all may arrive for a while.
    fn quiet(&mut self) {
        if let Some(line) = self.engine.drain(Duration::from_millis(400)).first() {
            self.check_line(line);
            self.engine.fail(&format!("unexpected line {line:?}"));
        }
    }

    /// GNOME Chess passes on the human's move (the `skip`th legal one) as `force`, the move,
    /// `st N` when its profile has one, then `go`.
    fn gnome_human_move(&mut self, skip: usize, st: Option<u32>) {
        let human = self.human_move(skip);
        self.send("force");
        self.send(&human);
        if let Some(seconds) = st {
            self.send(&format!("st {seconds}"));
        }
        self.send("go");
    }

    fn undo(&mut self, plies: usize, history: &mut Vec<Position>) {
        for _ in 0..plies {
            self.position = history.pop().expect("a position to go back to");
        }
    }
}

/// GNOME Chess with the engine playing Black: at start `xboard`, `random` and the profile's
/// options; for each human move `force` and the move, then (newer versions) `st N` and `go`;
/// undo is `force` + `undo` per ply.
fn gnome_chess_game(options: &[&str], st: Option<u32>) {
    let mut gui = Gui::start();
    gui.send("xboard");
    gui.send("random");
    for option in options {
        gui.send(option);
    }
    gui.quiet();
    let mut history = Vec::new();
    for turn in 0..6 {
        history.push(gui.position.clone());
        gui.gnome_human_move(turn * 3, st);
        history.push(gui.position.clone());
        gui.engine_moves();
    }
    // The human takes back a move pair: two single undos.
    for _ in 0..2 {
        gui.send("force");
        gui.send("undo");
    }
    gui.undo(2, &mut history);
    gui.quiet();
    gui.gnome_human_move(1, None);
    gui.engine_moves();
    gui.quiet();
}

#[test]
fn gnome_chess_normal_profile() {
    // `option-normal-0=easy`, `option-normal-1=sd 2`: what engines.conf gives most engines.
    gnome_chess_game(&["easy", "sd 2"], None);
}

#[test]
fn gnome_chess_phalanx_style_profile_with_st() {
    // Phalanx's profile uses `depth N`; newer GNOME Chess sends `st N` before each `go`.
    gnome_chess_game(&["easy", "depth 2"], Some(1));
}

#[test]
fn gnome_chess_hard_profile_ponders_silently() {
    // `option-hard-0=hard`: pondering on; the human's `force` ends it without a word.
    gnome_chess_game(&["hard", "sd 3"], Some(1));
}

#[test]
fn gnome_chess_engine_plays_white() {
    let mut gui = Gui::start();
    gui.send("xboard");
    gui.send("random");
    gui.send("easy");
    gui.send("sd 2");
    gui.send("go");
    gui.engine_moves();
    for turn in 0..4 {
        gui.gnome_human_move(turn, None);
        gui.engine_moves();
    }
    gui.quiet();
}

/// KDE Knights: `xboard`; difficulty as `depth N`, `sd N`, `memory MB`; `level MPS MIN INC`
/// at game start, `go` if the engine is White; bare moves (promotions in lower case);
/// pause is `force`, resume `go`; undo of a pair is `remove`; the end is `result`.
#[test]
fn knights_engine_plays_white_with_a_clock() {
    let mut gui = Gui::start();
    gui.send("xboard");
    gui.send("depth 3");
    gui.send("sd 3");
    gui.send("memory 32");
    gui.quiet();
    gui.send("level 40 5 0");
    gui.send("go");
    let mut history = vec![gui.position.clone()];
    gui.engine_moves();
    for turn in 0..5 {
        history.push(gui.position.clone());
        let human = gui.human_move(turn * 2 + 1);
        gui.send(&human);
        history.push(gui.position.clone());
        gui.engine_moves();
    }
    // Undo the last pair (the human's move and the engine's answer).
    gui.send("remove");
    gui.undo(2, &mut history);
    gui.quiet();
    // Pause on the human's turn, resume, move.
    gui.send("force");
    gui.quiet();
    let human = gui.human_move(0);
    gui.send(&human);
    gui.send("go");
    gui.engine_moves();
    gui.send("result 1/2-1/2");
    gui.quiet();
    gui.send("quit");
    assert!(gui.engine.wait_exit(Duration::from_secs(5)).is_some());
}

#[test]
fn knights_engine_plays_black_without_a_clock() {
    let mut gui = Gui::start();
    gui.send("xboard");
    gui.send("depth 2");
    gui.send("sd 2");
    gui.send("memory 16");
    gui.quiet();
    for turn in 0..6 {
        let human = gui.human_move(turn);
        gui.send(&human);
        gui.engine_moves();
    }
    gui.quiet();
}

/// A promotion as Knights writes it (`e7e8q`, lower case) is played, answered with a move.
#[test]
fn knights_promotion_in_lower_case() {
    let mut gui = Gui::start();
    gui.send("xboard");
    gui.send("sd 2");
    // Knights has no setboard; reach a promotion through a real game instead.
    for (white, black) in [
        ("h2h4", "g7g5"),
        ("h4g5", "g8f6"),
        ("g5g6", "f8g7"),
        ("g6h7", "h8f8"),
    ] {
        gui.send("force");
        for text in [white, black] {
            let m = parse_move(&gui.position, text).expect("a scripted legal move");
            gui.position = gui.position.make_move(m);
            gui.send(text);
        }
    }
    gui.quiet();
    let promotion = "h7h8q";
    let m = parse_move(&gui.position, promotion).expect("the promotion is legal");
    gui.position = gui.position.make_move(m);
    gui.send(promotion);
    gui.send("go");
    gui.engine_moves();
    gui.quiet();
}

/// Knights' custom difficulty may ask for more memory than the machine has, and an undo may
/// come when there is nothing to undo: both are handled without a word to the GUI.
#[test]
fn knights_huge_memory_and_undo_at_the_start_stay_silent() {
    let mut gui = Gui::start();
    gui.send("xboard");
    gui.send("depth 2");
    gui.send("sd 2");
    gui.send("memory 1048576");
    gui.send("remove");
    gui.send("force");
    gui.send("undo");
    gui.quiet();
    gui.send("go");
    gui.engine_moves();
    gui.quiet();
}
