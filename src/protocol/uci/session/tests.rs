//! The UCI session driven in-process through the shared harness (`protocol::harness`): with
//! a recording search thread the tests make up the reports (each `go` rule without a clock);
//! with a real one on a small table they check what real searches answer.

use super::*;
use crate::board::{Move, parse_move};
use crate::protocol::harness::drive_session;
use crate::search::worker::Recorded;
use crate::search::{SearchParams, TimeLimit};

drive_session!(Session);

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
const AFTER_E4_E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";

/// The moves of a line's `pv`, or none.
fn pv(line: &str) -> Vec<&str> {
    line.split_whitespace()
        .skip_while(|word| *word != "pv")
        .skip(1)
        .collect()
}

/// The lines that start with `prefix`.
fn starting<'a>(lines: &'a [String], prefix: &str) -> Vec<&'a str> {
    lines
        .iter()
        .map(String::as_str)
        .filter(|line| line.starts_with(prefix))
        .collect()
}

#[test]
fn uci_names_the_engine_and_its_options_then_isready_answers() {
    let mut h = Harness::new();
    h.send("uci");
    let out = h.output();
    assert!(out[0].starts_with("id name Ironwood "), "{out:?}");
    assert_eq!(out[1], "id author the Ironwood developers");
    assert_eq!(out.last().unwrap(), "uciok");
    let options = &out[2..out.len() - 1];
    assert!(options.len() > 10, "{out:?}");
    assert!(options.iter().all(|line| line.starts_with("option name ")));
    h.send("debug on\nisready\ndebug off\nisready");
    assert_eq!(h.output(), ["readyok", "readyok"]);
}

#[test]
fn setoption_reaches_the_search_thread_and_bad_values_change_nothing() {
    let mut h = Harness::new();
    h.send("setoption name Hash value 32\nsetoption name null move value false");
    h.send("setoption name Clear Hash\nsetoption name MultiPV value 3");
    assert_eq!(h.output(), Vec::<String>::new());
    let recorded = h.recorded();
    assert_eq!(recorded.len(), 3);
    assert!(matches!(recorded[0], Recorded::SetHash(32)));
    assert!(matches!(&recorded[1], Recorded::SetFeatures(f) if !f.null_move && f.futility));
    assert!(matches!(recorded[2], Recorded::Clear));
    h.send("setoption name Bogus value 1\nsetoption name MultiPV value many");
    h.send("setoption name MultiPV value 65\nsetoption name Null Move value perhaps");
    assert_eq!(
        h.output(),
        [
            "info string error (unknown option): Bogus",
            "info string error (invalid option value): MultiPV = many",
            "info string error (option value out of range 1 to 64): MultiPV = 65",
            "info string error (invalid option value): Null Move = perhaps",
        ]
    );
    // The table's upper bound depends on the machine's memory.
    h.send("setoption name Hash value 0");
    let out = h.output();
    assert_eq!(out.len(), 1);
    assert!(
        out[0].starts_with("info string error (option value out of range 1 to ")
            && out[0].ends_with("): Hash = 0"),
        "{out:?}"
    );
    assert!(h.recorded().is_empty(), "a refused value is not applied");
    h.send("go depth 1");
    assert_eq!(h.job().limits.multipv, 3);
}

#[test]
fn position_with_moves_is_what_go_searches() {
    let mut h = Harness::new();
    h.send("position startpos moves e2e4 e7e5\ngo depth 3");
    let job = h.job();
    assert_eq!(job.fen, AFTER_E4_E5);
    assert_eq!(job.limits.depth, Some(3));
    h.finish(job.generation, &job.fen, "g1f3", None, 0);
    h.send("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4 e8d7\ngo nodes 5000");
    let job = h.job();
    assert_eq!(job.fen, "8/3k4/8/8/4P3/8/8/4K3 w - - 1 2");
    assert_eq!(job.limits.nodes, Some(5000));
    assert_eq!(job.limits.depth, None);
}

#[test]
fn go_states_the_side_to_moves_clock_as_the_search_limit() {
    let mut h = Harness::new();
    let go = "go wtime 60000 btime 30000 winc 1000 binc 500 movestogo 20";
    h.send(&format!("position startpos\n{go}"));
    let job = h.job();
    let white = TimeLimit::Clock {
        remaining_ms: 60_000,
        increment_ms: 1000,
        moves_to_go: Some(20),
    };
    assert_eq!(job.limits.time, Some(white));
    // The default 30 ms overhead is kept back: the same budget as the limit module's.
    assert_eq!(job.budget(), Some(white.budget(30, &SearchParams::DEFAULT)));
    h.finish(job.generation, &job.fen, "e2e4", None, 0);
    h.send(&format!("position startpos moves e2e4\n{go}"));
    let job = h.job();
    let black = TimeLimit::Clock {
        remaining_ms: 30_000,
        increment_ms: 500,
        moves_to_go: Some(20),
    };
    assert_eq!(job.limits.time, Some(black));
    h.finish(job.generation, &job.fen, "e7e5", None, 0);
    // `movestogo 0` is sudden death; `movetime` wins over the clocks and is used whole.
    h.send("position startpos\ngo wtime 9000 btime 9000 movestogo 0");
    let job = h.job();
    assert!(matches!(
        job.limits.time,
        Some(TimeLimit::Clock {
            remaining_ms: 9000,
            increment_ms: 0,
            moves_to_go: None
        })
    ));
    h.finish(job.generation, &job.fen, "e2e4", None, 0);
    h.send("go wtime 9000 btime 9000 movetime 2000");
    let job = h.job();
    assert_eq!(job.limits.time, Some(TimeLimit::MoveTime { ms: 2000 }));
    assert_eq!(job.budget().unwrap().soft_ms, None);
    h.finish(job.generation, &job.fen, "e2e4", None, 0);
    // No clock, or an infinite search: no time limit.
    h.send("go depth 2");
    let job = h.job();
    assert_eq!(job.limits.time, None);
    h.finish(job.generation, &job.fen, "e2e4", None, 0);
    h.send("go infinite wtime 9000 btime 9000\nstop");
    let job = h.job();
    assert!(job.limits.infinite && job.limits.time.is_none());
}

#[test]
fn illegal_positions_are_reported_and_leave_the_previous_one() {
    let mut h = Harness::new();
    h.send("position startpos moves e2e4");
    h.output();
    for bad in [
        "position startpos moves e2e5",
        "position startpos moves e2e4 e7e5 e1g1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position startpos moves e2e4 0000",
        "position startpos moves e2e4 Nf3",
    ] {
        h.send(bad);
        let out = h.output();
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert!(out[0].starts_with("info string error ("), "{bad}: {out:?}");
    }
    h.send("position startpos moves e2e5");
    assert_eq!(
        h.output(),
        [format!(
            "info string error (illegal move, position unchanged): e2e5 in {START}"
        )]
    );
    assert!(h.jobs().is_empty());
    h.send("go depth 2");
    assert_eq!(h.job().fen, AFTER_E4, "still the position after 1.e4");
}

#[test]
fn bad_commands_get_an_info_string_and_nothing_else() {
    let mut h = Harness::new();
    for (line, reply) in [
        (
            "frobnicate",
            "info string error (unknown command): frobnicate",
        ),
        ("go depth x", "info string error (invalid number): x"),
        (
            "debug sometimes",
            "info string error (debug wants on or off): sometimes",
        ),
        (
            "\u{1b}[A junk \u{7f}",
            "info string error (unknown command): ?[A",
        ),
    ] {
        h.send(line);
        assert_eq!(h.output(), [reply], "{line}");
    }
    h.send("register later\ndebug on\nstop\nponderhit");
    assert_eq!(h.output(), Vec::<String>::new());
    assert!(h.jobs().is_empty());
}

#[test]
fn go_depth_and_nodes_answer_a_legal_move_that_heads_the_last_pv() {
    let mut h = Harness::searching();
    let position = Position::from_fen(AFTER_E4).unwrap();
    for go in ["go depth 5", "go nodes 3000"] {
        h.send(&format!("position startpos moves e2e4\n{go}"));
        let lines = h.until(|line| line.starts_with("bestmove"));
        assert_eq!(starting(&lines, "bestmove").len(), 1, "{go}: {lines:?}");
        let best_text = lines.last().unwrap().split_whitespace().nth(1).unwrap();
        let best = parse_move(&position, best_text).unwrap();
        assert!(is_legal(&position, best), "{go}: {lines:?}");
        let infos = starting(&lines, "info depth");
        let last_pv = pv(infos.last().unwrap());
        assert_eq!(last_pv.first(), Some(&best_text), "{go}: {lines:?}");
        // Every line is complete and its PV is playable.
        for line in infos {
            for key in [
                " seldepth ",
                " multipv ",
                " score ",
                " nodes ",
                " nps ",
                " hashfull ",
                " tbhits ",
                " time ",
            ] {
                assert!(line.contains(key), "{key} in {line}");
            }
            let mut board = position.clone();
            for text in pv(line) {
                let m = parse_move(&board, text).unwrap();
                assert!(is_legal(&board, m), "{line}");
                board = board.make_move(m);
            }
        }
        if go == "go depth 5" {
            for depth in 1..=5 {
                let prefix = format!("info depth {depth} ");
                assert!(!starting(&lines, &prefix).is_empty(), "{lines:?}");
            }
        }
    }
}

#[test]
fn bestmove_carries_a_legal_ponder_move() {
    let mut h = Harness::searching();
    h.send("position startpos moves d2d4\ngo depth 6");
    let lines = h.until(|line| line.starts_with("bestmove"));
    let words: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    assert_eq!(words.len(), 4, "{words:?}");
    assert_eq!(words[2], "ponder");
    let position =
        Position::startpos().make_move(parse_move(&Position::startpos(), "d2d4").unwrap());
    let best = parse_move(&position, words[1]).unwrap();
    let next = position.make_move(best);
    let reply = parse_move(&next, words[3]).unwrap();
    assert!(is_legal(&next, reply), "{words:?}");
}

#[test]
fn an_infinite_search_answers_only_after_stop_and_only_once() {
    let mut h = Harness::new();
    h.send("position startpos\ngo infinite");
    let job = h.job();
    assert!(job.limits.infinite);
    // Ended by itself (a depth limit, a mate): the answer waits for `stop`.
    h.finish(job.generation, &job.fen, "e2e4", None, 20);
    assert_eq!(h.output(), Vec::<String>::new());
    h.send("isready");
    assert_eq!(
        h.output(),
        ["readyok"],
        "isready is answered during a search"
    );
    h.send("stop");
    assert_eq!(h.output(), ["bestmove e2e4"]);
    h.send("stop");
    assert_eq!(h.output(), Vec::<String>::new());
    // Stopped before it ended: the answer comes with the search's last report.
    h.send("go infinite\nstop");
    let job = h.job();
    assert_eq!(h.output(), Vec::<String>::new());
    h.finish(job.generation, &job.fen, "d2d4", None, 20);
    assert_eq!(h.output(), ["bestmove d2d4"]);
    h.finish(job.generation, &job.fen, "c2c4", None, 20);
    assert_eq!(h.output(), Vec::<String>::new(), "one go, one bestmove");
}

#[test]
fn commands_that_need_the_board_wait_for_the_running_search() {
    let mut h = Harness::new();
    h.send("position startpos\ngo infinite");
    let job = h.job();
    h.send("position startpos moves d2d4\ngo depth 2");
    assert_eq!(h.output(), Vec::<String>::new());
    assert!(h.jobs().is_empty(), "held until the bestmove is out");
    h.finish(job.generation, &job.fen, "e2e4", None, 0);
    assert_eq!(h.output(), ["bestmove e2e4"]);
    let held = h.job();
    assert_eq!(
        held.fen,
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(held.limits.depth, Some(2));
    assert_eq!(
        h.send("quit"),
        Flow::Quit,
        "quit ends the session mid-search"
    );
}

#[test]
fn ucinewgame_clears_the_table_and_the_game() {
    let mut h = Harness::new();
    h.send("position startpos moves e2e4\nucinewgame");
    assert!(h.recorded().iter().any(|r| matches!(r, Recorded::Clear)));
    h.send("go depth 1");
    assert_eq!(h.job().fen, START);
}

#[test]
fn a_ponder_search_answers_after_ponderhit_or_stop() {
    let mut h = Harness::new();
    h.send("setoption name Ponder value true\nposition startpos moves e2e4 e7e5");
    h.send("go ponder wtime 3000 btime 3000");
    let job = h.job();
    assert!(job.ponder);
    assert_eq!(job.fen, AFTER_E4_E5);
    // The hit turns the ponder search into a timed one: no new search.
    h.send("ponderhit");
    assert!(h.jobs().is_empty());
    assert_eq!(h.output(), Vec::<String>::new());
    h.finish(job.generation, &job.fen, "g1f3", Some("b8c6"), 15);
    assert_eq!(h.output(), ["bestmove g1f3 ponder b8c6"]);
    // Ended by itself before the hit: the answer waits for it.
    h.send("position startpos moves e2e4 e7e5 g1f3 b8c6\ngo ponder wtime 3000 btime 3000");
    let job = h.job();
    h.finish(job.generation, &job.fen, "f1b5", None, 15);
    assert_eq!(h.output(), Vec::<String>::new());
    h.send("ponderhit");
    assert_eq!(h.output(), ["bestmove f1b5"]);
    // A miss: the GUI stops the ponder search and throws its answer away.
    h.send("go ponder wtime 3000 btime 3000\nstop");
    let job = h.job();
    h.finish(job.generation, &job.fen, "a2a3", None, 0);
    assert_eq!(h.output(), ["bestmove a2a3"]);
    h.send("ponderhit");
    assert_eq!(h.output(), Vec::<String>::new(), "no search, no answer");
}

#[test]
fn real_searches_keep_their_answer_until_allowed() {
    let mut h = Harness::searching();
    // Mate in one: found at once, answered only after the hit.
    h.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo ponder wtime 5000 btime 5000");
    let early = h.until(|line| line.contains(" pv a1a8"));
    assert!(starting(&early, "bestmove").is_empty(), "{early:?}");
    h.send("ponderhit");
    let lines = h.until(|line| line.starts_with("bestmove"));
    assert_eq!(starting(&lines, "bestmove"), ["bestmove a1a8"]);
    // No legal move at all: `bestmove 0000`, and still only after `stop`.
    h.send("position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1\ngo infinite");
    h.settle();
    assert!(starting(&h.output(), "bestmove").is_empty());
    h.send("stop");
    assert_eq!(h.output(), ["bestmove 0000"]);
    h.send("go depth 3");
    let lines = h.until(|line| line.starts_with("bestmove"));
    assert_eq!(lines, ["bestmove 0000"]);
}

/// The GUI's side of a random conversation: the game it sends, the positions whose `go` is
/// still owed a `bestmove`, and the `isready`s still owed a `readyok`.
struct UciReferee {
    moves: Vec<Move>,
    owed: VecDeque<Position>,
    gos: usize,
    answered: usize,
    isready: usize,
    readyok: usize,
}

impl UciReferee {
    fn position(&self) -> Position {
        self.moves
            .iter()
            .fold(Position::startpos(), |pos, &m| pos.make_move(m))
    }

    /// Every `bestmove` answers the oldest owed `go` with a legal move of its position
    /// (`0000` where it has none); `readyok` never outnumbers `isready`.
    fn read(&mut self, lines: Vec<String>) {
        for line in lines {
            if line == "readyok" {
                self.readyok += 1;
                assert!(self.readyok <= self.isready, "readyok without isready");
            } else if let Some(rest) = line.strip_prefix("bestmove ") {
                let pos = self.owed.pop_front().expect("a bestmove without a go");
                self.answered += 1;
                let best = rest.split_whitespace().next().unwrap();
                let mut list = crate::board::MoveList::new();
                crate::board::legal_moves(&pos, &mut list);
                if list.is_empty() {
                    assert_eq!(best, "0000");
                } else {
                    let m = parse_move(&pos, best).unwrap_or_else(|e| panic!("{line}: {e}"));
                    assert!(is_legal(&pos, m), "{line} in {}", pos.to_fen());
                }
            } else {
                assert!(
                    line.starts_with("info"),
                    "only info, readyok and bestmove: {line}"
                );
            }
        }
    }
}

/// 10,000 random lines of `go` (depth, nodes, infinite, ponder), `stop`, `ponderhit`,
/// `isready`, `ucinewgame` and `position` against real searches whose reports reach the
/// session at random moments: every `go` gets exactly one legal `bestmove`, every
/// `isready` its `readyok`.
#[test]
fn random_interleavings_answer_every_go_once_and_every_isready() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(61);
    let mut h = Harness::searching();
    h.send("setoption name Ponder value true");
    let mut referee = UciReferee {
        moves: Vec::new(),
        owed: VecDeque::new(),
        gos: 0,
        answered: 0,
        isready: 0,
        readyok: 0,
    };
    for _ in 0..10_000 {
        let line = match rng.gen_range(0..10) {
            0 => "stop".to_string(),
            1 => "ponderhit".to_string(),
            2 => {
                referee.isready += 1;
                "isready".to_string()
            }
            3 => {
                referee.moves.clear();
                "ucinewgame".to_string()
            }
            4 | 5 => {
                let mut list = crate::board::MoveList::new();
                crate::board::legal_moves(&referee.position(), &mut list);
                match list.len() {
                    0 => referee.moves.clear(),
                    n => referee
                        .moves
                        .push(list.iter().nth(rng.gen_range(0..n)).copied().unwrap()),
                }
                let moves: Vec<String> = referee.moves.iter().map(Move::to_string).collect();
                format!("position startpos moves {}", moves.join(" "))
            }
            kind => {
                referee.gos += 1;
                referee.owed.push_back(referee.position());
                match kind {
                    6 => format!("go depth {}", rng.gen_range(1..=3)),
                    7 => format!("go nodes {}", rng.gen_range(100..2000)),
                    8 => "go infinite".to_string(),
                    _ => "go ponder wtime 1000 btime 1000".to_string(),
                }
            }
        };
        assert_eq!(h.send(&line), Flow::Continue);
        if rng.gen_bool(0.5) {
            h.pause_then_deliver(&mut rng);
        }
        let out = h.output();
        referee.read(out);
    }
    // Most answers must come amid the lines (about 80 % do), not only in the end.
    assert!(
        referee.answered > referee.gos / 2,
        "{} of {}",
        referee.answered,
        referee.gos
    );
    // What is still owed comes after `stop`s: the lines sent faster than searches answer
    // wait in order, and each held `go` starts only after the `bestmove` before it.
    for _ in 0..=referee.gos {
        if referee.answered == referee.gos && referee.readyok == referee.isready {
            break;
        }
        h.send("stop");
        h.settle();
        let out = h.output();
        referee.read(out);
    }
    assert_eq!(referee.answered, referee.gos, "a go without its bestmove");
    assert_eq!(
        referee.readyok, referee.isready,
        "an isready without readyok"
    );
}
