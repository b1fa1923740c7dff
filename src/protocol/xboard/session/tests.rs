//! The XBoard session driven in-process through the shared harness (`protocol::harness`):
//! lines go in, the search thread is a recorder, and the tests make up the search reports,
//! so each protocol rule is checked without spawning the binary or waiting on a clock.

use std::collections::VecDeque;

use super::*;
use crate::board::parse_move;
use crate::protocol::harness::drive_session;
use crate::search::worker::Recorded;
use crate::search::{MATE, TimeLimit};

drive_session!(Session);

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

#[test]
fn a_move_from_the_opponent_starts_a_search_whose_result_is_played() {
    let mut h = Harness::new();
    h.send("xboard\nprotover 2");
    assert_eq!(h.output().last().unwrap(), "feature done=1");
    h.send("new\nusermove e2e4");
    let job = h.job();
    assert_eq!(job.fen, AFTER_E4);
    assert!(job.limits.time.is_some() && job.limits.nodes.is_none());
    h.finish(job.generation, &job.fen, "e7e5", None, 10);
    assert_eq!(h.output(), ["move e7e5"]);
    // The engine's move is on the board: the opponent's reply starts the next search.
    h.send("usermove g1f3");
    assert_eq!(
        h.job().fen,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
}

#[test]
fn reports_of_an_abandoned_search_are_ignored() {
    for abandon in [
        "force",
        "new",
        "undo",
        "setboard 8/8/8/8/8/8/k7/7K w - - 0 1",
        "result 1-0 {x}",
    ] {
        let mut h = Harness::new();
        h.send("new\nusermove e2e4");
        let job = h.job();
        h.send(abandon);
        h.iteration(job.generation, 3, 20, &[]);
        h.finish(job.generation, &job.fen, "e7e5", None, 10);
        assert_eq!(h.output(), Vec::<String>::new(), "after {abandon}");
    }
    // A report from an older search while a newer one runs is ignored too.
    let mut h = Harness::new();
    h.send("new\nusermove e2e4");
    let old = h.job();
    h.send("force\ngo");
    let current = h.job();
    assert!(current.generation > old.generation);
    h.finish(old.generation, &old.fen, "d7d5", None, 0);
    assert_eq!(h.output(), Vec::<String>::new());
    h.finish(current.generation, &current.fen, "e7e5", None, 0);
    assert_eq!(h.output(), ["move e7e5"]);
}

#[test]
fn pong_waits_for_the_move_while_thinking_and_not_while_pondering() {
    let mut h = Harness::new();
    h.send("new\nhard\nping 1");
    assert_eq!(h.output(), ["pong 1"]);
    h.send("usermove e2e4\nping 2\nping 3");
    assert_eq!(h.output(), Vec::<String>::new());
    let job = h.job();
    h.finish(job.generation, &job.fen, "e7e5", Some("g1f3"), 10);
    assert_eq!(h.output(), ["move e7e5", "pong 2", "pong 3"]);
    // Pondering on g1f3 now: a ping is answered at once.
    let ponder = h.job();
    assert!(ponder.ponder);
    h.send("ping 4");
    assert_eq!(h.output(), ["pong 4"]);
    // The ponder hit turns the ponder search into the own search: its result is played.
    h.send("usermove g1f3\nping 5");
    assert_eq!(h.output(), Vec::<String>::new());
    assert!(h.jobs().is_empty(), "a ponder hit starts no new search");
    h.finish(ponder.generation, &ponder.fen, "b8c6", None, 0);
    assert_eq!(h.output(), ["move b8c6", "pong 5"]);
}

#[test]
fn a_ponder_miss_restarts_the_search_on_the_real_move() {
    let mut h = Harness::new();
    h.send("new\nhard\nusermove e2e4");
    h.answer("e7e5", Some("g1f3"), 10);
    let ponder = h.job();
    h.send("usermove d2d4");
    let job = h.job();
    assert!(!job.ponder);
    assert_eq!(
        job.fen,
        "rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2"
    );
    h.finish(ponder.generation, &ponder.fen, "b8c6", None, 0);
    assert_eq!(h.output(), Vec::<String>::new());
}

#[test]
fn thinking_lines_follow_post_and_show_the_expected_reply_while_pondering() {
    let mut h = Harness::new();
    h.send("new\nusermove e2e4");
    let job = h.job();
    let e7e5 = parse_move(&Position::from_fen(AFTER_E4).unwrap(), "e7e5").unwrap();
    h.iteration(job.generation, 4, 25, &[e7e5]);
    assert_eq!(h.output(), Vec::<String>::new(), "nopost is the default");
    h.send("post");
    h.iteration(job.generation, 5, MATE - 3, &[e7e5]);
    assert_eq!(h.output(), ["5 100002 123 4567 e7e5"]);
    h.send("hard");
    h.finish(job.generation, &job.fen, "e7e5", Some("g1f3"), 10);
    assert_eq!(h.output(), ["move e7e5"]);
    let ponder = h.job();
    let b8c6 = parse_move(&Position::from_fen(&ponder.fen).unwrap(), "b8c6").unwrap();
    h.iteration(ponder.generation, 6, -30, &[b8c6]);
    assert_eq!(h.output(), ["6 -30 123 4567 g1f3 b8c6"]);
}

#[test]
fn claims_follow_the_move_that_ends_the_game() {
    let mut h = Harness::new();
    // White mates with Qh7-g7... set up: Black king h8, White queen g6 and king f6.
    h.send("force\nsetboard 7k/8/5KQ1/8/8/8/8/8 w - - 0 1\ngo");
    let out = h.answer("g6g7", None, MATE - 1);
    assert_eq!(out, ["move g6g7", "1-0 {White mates}"]);
    // A game already over is claimed instead of searched.
    let mut h = Harness::new();
    h.send("force\nsetboard 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo");
    assert_eq!(h.output(), ["1/2-1/2 {Stalemate}"]);
    assert!(h.jobs().is_empty());
}

#[test]
fn a_repetition_our_move_makes_is_offered_before_the_move_and_claimed_after() {
    let mut h = Harness::new();
    h.send("new\nforce");
    h.send("usermove g1f3\nusermove g8f6\nusermove f3g1\nusermove f6g8");
    h.send("usermove g1f3\nusermove g8f6\nusermove f3g1\ngo");
    let out = h.answer("f6g8", None, 0);
    assert_eq!(
        out,
        ["offer draw", "move f6g8", "1/2-1/2 {Draw by repetition}"]
    );
}

#[test]
fn draw_offers_are_accepted_only_when_worse_or_dead_level() {
    // Offered while thinking: decided on the search's score, just before the move.
    let mut h = Harness::new();
    h.send("new\nusermove e2e4\ndraw");
    assert_eq!(h.output(), Vec::<String>::new());
    assert_eq!(h.answer("e7e5", None, -200), ["offer draw", "move e7e5"]);
    // Offered while waiting: decided on the last score.
    h.send("draw");
    assert_eq!(h.output(), ["offer draw"]);

    let mut h = Harness::new();
    h.send("new\nusermove e2e4\ndraw");
    assert_eq!(h.answer("e7e5", None, 0), ["move e7e5"]);
    h.send("draw");
    assert_eq!(
        h.output(),
        Vec::<String>::new(),
        "level but not dead: play on"
    );

    // Level in a dead position (bare kings and one minor piece each).
    let mut h = Harness::new();
    h.send("force\nsetboard 4k3/8/3n4/8/8/3N4/8/4K3 w - - 0 40\ngo\ndraw");
    assert_eq!(h.answer("d3e5", None, 0), ["offer draw", "move d3e5"]);
    // In force mode a draw offer gets no answer.
    h.send("force\ndraw");
    assert_eq!(h.output(), Vec::<String>::new());
}

#[test]
fn resigning_needs_the_option_and_three_low_scores_in_a_row() {
    let moves = ["e7e5", "b8c6", "g8f6", "f8c5"];
    let replies = ["e2e4", "g1f3", "f1c4", "d2d3", "c2c3"];
    let play = |resign: bool, scores: [i32; 4]| {
        let mut h = Harness::new();
        h.send("new");
        if resign {
            h.send("option Resign=1\noption Resign Threshold=500");
        }
        let mut outputs = Vec::new();
        for (i, score) in scores.into_iter().enumerate() {
            h.send(&format!("usermove {}", replies[i]));
            match h.jobs().pop() {
                Some(job) => {
                    h.finish(job.generation, &job.fen, moves[i], None, score);
                    outputs.push(h.output());
                }
                None => outputs.push(h.output()),
            }
        }
        outputs
    };
    let low = play(true, [-600, -600, -600, -600]);
    assert_eq!(low[1], ["move b8c6"]);
    assert_eq!(low[2], ["resign"]);
    assert!(
        low[3].iter().all(|line| !line.starts_with("move ")),
        "after resigning the engine plays no more: {:?}",
        low[3]
    );
    let interrupted = play(true, [-600, -600, 0, -600]);
    assert!(
        interrupted
            .iter()
            .all(|out| out.len() == 1 && out[0].starts_with("move "))
    );
    let off = play(false, [-2000, -2000, -2000, -2000]);
    assert!(
        off.iter()
            .all(|out| out.len() == 1 && out[0].starts_with("move "))
    );
}

#[test]
fn edit_mode_builds_the_position_with_castling_from_home_squares() {
    let mut h = Harness::new();
    h.send("new\nforce\nedit\n#\nKe1\nRa1\nRh2\nc\nKe8\nRh8\n.\ngo");
    let job = h.job();
    assert_eq!(job.fen, "4k2r/8/8/8/8/8/7R/R3K3 w Qk - 0 1");
    // Bad squares are refused and change nothing; a real command ends a forgotten edit.
    h.send("force\nedit\nKz9");
    assert_eq!(h.output(), ["Error (bad edit command): Kz9"]);
    h.send("ping 9");
    assert_eq!(
        h.output(),
        ["# edit mode abandoned, position unchanged", "pong 9"]
    );
    // Two white kings: refused, the old position stays.
    h.send("edit\nKa4\n.");
    assert_eq!(h.output()[0], "tellusererror Illegal position");
    h.send("go");
    assert_eq!(h.job().fen, "4k2r/8/8/8/8/8/7R/R3K3 w Qk - 0 1");
}

#[test]
fn undo_and_remove_take_back_moves() {
    let mut h = Harness::new();
    h.send("new\nusermove e2e4");
    h.answer("e7e5", None, 0);
    h.send("usermove g1f3");
    let job = h.job();
    // `remove`: the engine's and the user's last moves go; the search is abandoned.
    h.send("remove");
    h.finish(job.generation, &job.fen, "b8c6", None, 0);
    assert_eq!(h.output(), Vec::<String>::new());
    h.send("force\ngo");
    assert_eq!(h.job().fen, AFTER_E4);
    h.send("force\nundo\nundo");
    // Nothing left to take back is logged, not said: Knights takes any stray line for a move.
    assert_eq!(h.output(), Vec::<String>::new());
    h.send("go");
    assert_eq!(h.job().fen, START);
}

#[test]
fn force_go_and_playother_choose_the_engine_side() {
    let mut h = Harness::new();
    h.send("new\nforce\nusermove e2e4\nusermove e7e5");
    assert!(h.jobs().is_empty(), "in force mode moves are only recorded");
    // `go`: the engine plays the side to move (White).
    h.send("go");
    h.answer("g1f3", None, 0);
    h.send("usermove b8c6");
    assert!(!h.job().ponder);
    // `playother`: the engine plays the side not on move, and waits.
    let mut h = Harness::new();
    h.send("new\nforce\nusermove e2e4\nplayother");
    assert!(h.jobs().is_empty());
    h.send("usermove e7e5");
    let job = h.job();
    assert_eq!(
        job.fen,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    // Moves while thinking are refused; `go` again is a no-op.
    h.send("usermove d2d4\ngo");
    assert_eq!(h.output(), ["Illegal move (not your turn): d2d4"]);
    assert!(h.jobs().is_empty());
    h.send("usermove e9e5");
    assert_eq!(h.output(), ["Illegal move (not your turn): e9e5"]);
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let mut h = Harness::new();
    h.send("new\nforce\nusermove e2e5\nusermove e7e5\nusermove hello");
    assert_eq!(
        h.output(),
        [
            "Illegal move: e2e5",
            "Illegal move: e7e5",
            "Illegal move: hello"
        ]
    );
    h.send("go");
    assert_eq!(h.job().fen, START);
}

#[test]
fn analysis_restarts_on_every_change_and_answers_dot() {
    let mut h = Harness::new();
    h.send("new\nforce\npost\nanalyze");
    let first = h.job();
    assert!(first.limits.infinite && first.limits.excluded.is_empty());
    h.send("exclude e2e4");
    let excluded = h.job();
    assert_eq!(excluded.fen, START);
    assert_eq!(excluded.limits.excluded.len(), 1);
    assert_eq!(excluded.limits.excluded[0].to_string(), "e2e4");
    h.send("include all");
    assert!(h.job().limits.excluded.is_empty());
    h.send("exclude all");
    assert_eq!(h.job().limits.excluded.len(), 20);
    h.send("exclude e2e5");
    assert_eq!(h.output(), ["Illegal move: e2e5"]);
    // A move is played and analysed; its exclusions are gone.
    h.send("usermove d2d4");
    let after = h.job();
    assert!(after.limits.infinite && after.limits.excluded.is_empty());
    h.send(".");
    let stat = h.output();
    assert_eq!(stat.len(), 1);
    assert!(stat[0].starts_with("stat01: "), "{stat:?}");
    // The analysis never moves, even when its search ends.
    h.finish(after.generation, &after.fen, "d7d5", None, 0);
    assert_eq!(h.output(), Vec::<String>::new());
    h.send("undo");
    assert_eq!(h.job().fen, START);
    h.send("exit\n.");
    assert_eq!(h.output(), Vec::<String>::new());
    assert!(h.jobs().is_empty());
}

#[test]
fn hint_is_the_expected_reply_for_the_position_on_the_board() {
    let mut h = Harness::new();
    h.send("new\nusermove e2e4");
    h.answer("e7e5", Some("g1f3"), 0);
    h.send("hint");
    assert_eq!(h.output(), ["Hint: g1f3"]);
    h.send("force\nusermove d2d4\nhint");
    assert_eq!(h.output(), Vec::<String>::new());
}

#[test]
fn settings_reach_the_search_thread_and_limits_reach_the_search() {
    let mut h = Harness::new();
    h.send("memory 32\ncores 1\noption Null Move=0\noption Clear Hash");
    let recorded = h.recorded();
    assert_eq!(recorded.len(), 4);
    assert!(matches!(recorded[0], Recorded::SetHash(32)));
    assert!(matches!(recorded[1], Recorded::SetThreads(1)));
    assert!(matches!(recorded[2], Recorded::SetFeatures(ref f) if !f.null_move && f.futility));
    assert!(matches!(recorded[3], Recorded::Clear));
    h.send("new\nsd 4\nst 2\nusermove e2e4");
    let job = h.job();
    assert_eq!(job.limits.depth, Some(4));
    assert_eq!(job.limits.time, Some(TimeLimit::MoveTime { ms: 2000 }));
    assert_eq!(job.budget().unwrap().hard_ms, 2000 - 30 - 40);
    h.send("new\nnps 1000\nusermove e2e4");
    let job = h.job();
    assert_eq!(job.limits.nps, Some(1000));
    assert_eq!(job.budget(), None, "the clock is counted in nodes");
    assert_eq!(job.limits.depth, None, "new clears sd");
    h.send("new\nusermove e2e4");
    assert_eq!(h.job().limits.nps, None, "new clears nps");
}

#[test]
fn quit_and_end_of_input_end_the_session_and_release_waiting_pongs() {
    let mut h = Harness::new();
    h.send("new\nusermove e2e4\nping 3");
    assert_eq!(h.output(), Vec::<String>::new());
    assert_eq!(h.send("quit"), Flow::Quit);
    assert_eq!(h.output(), ["pong 3"]);
    let mut h = Harness::new();
    assert_eq!(h.session.handle(Event::Eof), Flow::Quit);
}

#[test]
fn options_with_bad_values_are_refused() {
    let mut h = Harness::new();
    h.send("option Null Move=maybe\noption Bogus=1\noption Move Overhead=9999\nst 1\nnew");
    h.send("option Resign Threshold=100\nusermove e2e4");
    assert_eq!(
        h.output(),
        [
            "Error (invalid option value, 0 or 1): Null Move=maybe",
            "Error (unknown option): Bogus",
            "Error (invalid option value, 0 to 5000): Move Overhead=9999",
            "Error (invalid option value, 200 to 3000): Resign Threshold=100",
        ]
    );
    // Nothing changed: the default 30 ms overhead (and 2% of `st 1`) is kept back.
    assert_eq!(h.job().budget().unwrap().hard_ms, 1000 - 30 - 20);
}

#[test]
fn a_search_without_a_score_decides_neither_draw_nor_resignation() {
    // -INFINITY is what a search stopped inside its first root move reports.
    let no_score = -crate::search::score::INFINITY;
    let mut h = Harness::new();
    h.send("new\noption Resign=1\noption Resign Threshold=200");
    h.send("usermove e2e4\ndraw");
    assert_eq!(h.answer("e7e5", None, no_score), ["move e7e5"]);
    h.send("draw");
    assert_eq!(h.output(), Vec::<String>::new());
    for (reply, own) in [("g1f3", "b8c6"), ("f1c4", "g8f6"), ("d2d3", "f8c5")] {
        h.send(&format!("usermove {reply}"));
        assert_eq!(h.answer(own, None, no_score), [format!("move {own}")]);
    }
    // A real score after them is still acted on.
    h.send("draw");
    assert_eq!(h.output(), Vec::<String>::new());
    h.send("usermove c2c3");
    assert_eq!(h.answer("d7d6", None, -300), ["move d7d6"]);
    h.send("draw");
    assert_eq!(h.output(), ["offer draw"]);
}

#[test]
fn easy_stops_pondering_and_the_next_move_is_searched_afresh() {
    let mut h = Harness::new();
    h.send("new\nhard\nusermove e2e4");
    h.answer("e7e5", Some("g1f3"), 10);
    let ponder = h.job();
    assert!(ponder.ponder);
    h.send("easy");
    h.finish(ponder.generation, &ponder.fen, "b8c6", None, 0);
    assert_eq!(h.output(), Vec::<String>::new());
    h.send("usermove g1f3");
    assert_eq!(h.output(), Vec::<String>::new());
    let job = h.job();
    assert!(!job.ponder);
    assert_eq!(job.fen, ponder.fen);
    h.finish(job.generation, &job.fen, "b8c6", Some("f1b5"), 0);
    assert_eq!(h.output(), ["move b8c6"]);
    assert!(h.jobs().is_empty(), "no pondering after easy");
}

#[test]
fn white_and_black_give_the_move_and_the_engine_takes_the_other_side() {
    let mut h = Harness::new();
    h.send("new\nforce\nusermove e2e4\nwhite");
    assert!(h.jobs().is_empty());
    h.send("usermove d2d4");
    assert_eq!(
        h.job().fen,
        "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 1"
    );
    // Giving the move to the side that gives check is refused; the board stays.
    let mut h = Harness::new();
    h.send("force\nsetboard 4k3/4R3/8/8/8/8/8/4K3 b - - 0 1\nwhite");
    assert_eq!(
        h.output(),
        ["# cannot give the move to White: the side not to move is in check"]
    );
    h.send("force\ngo");
    assert_eq!(h.job().fen, "4k3/4R3/8/8/8/8/8/4K3 b - - 0 1");
}

#[test]
fn pause_abandons_the_search_and_resume_starts_it_again() {
    let mut h = Harness::new();
    h.send("new\nusermove e2e4");
    let first = h.job();
    h.send("pause");
    h.finish(first.generation, &first.fen, "e7e5", None, 0);
    assert_eq!(h.output(), Vec::<String>::new());
    h.send("resume");
    let again = h.job();
    assert_eq!(again.fen, AFTER_E4);
    assert!(again.generation > first.generation);
    h.finish(again.generation, &again.fen, "c7c5", None, 0);
    assert_eq!(h.output(), ["move c7c5"]);
}

#[test]
fn a_game_the_opponent_ends_is_claimed_without_a_search() {
    let mut h = Harness::new();
    h.send("new\nforce\nusermove f2f3\nusermove e7e5\nusermove g2g4\nplayother");
    h.send("usermove d8h4");
    assert_eq!(h.output(), ["0-1 {Black mates}"]);
    assert!(h.jobs().is_empty());
}

#[test]
fn scores_in_protocol_units() {
    assert_eq!(protocol_score(35), 35);
    assert_eq!(protocol_score(-120), -120);
    assert_eq!(protocol_score(MATE - 1), 100_001);
    assert_eq!(protocol_score(MATE - 3), 100_002);
    assert_eq!(protocol_score(-(MATE - 2)), -100_001);
    assert_eq!(protocol_score(-(MATE - 4)), -100_002);
}

/// The GUI's side of a random XBoard conversation: the board, the side the engine plays
/// (`None` in force mode), whether a result was claimed, and the pings still owed a pong.
struct XboardReferee {
    position: Position,
    engine_side: Option<Color>,
    over: bool,
    pings: VecDeque<u32>,
    engine_moves: usize,
}

impl XboardReferee {
    /// Each `move` is legal, for the side the engine plays, on its turn (a second move in a
    /// row would be the opponent's); `pong`s come in the order of their `ping`s.
    fn read(&mut self, lines: Vec<String>) {
        for line in lines {
            if let Some(text) = line.strip_prefix("move ") {
                let side = self.position.side_to_move();
                assert_eq!(
                    self.engine_side,
                    Some(side),
                    "{line}: not the engine's turn"
                );
                let m = parse_move(&self.position, text)
                    .unwrap_or_else(|e| panic!("{line} in {}: {e}", self.position.to_fen()));
                self.position = self.position.make_move(m);
                self.engine_moves += 1;
            } else if let Some(token) = line.strip_prefix("pong ") {
                let expected = self.pings.pop_front().expect("a pong without a ping");
                assert_eq!(token, expected.to_string(), "pongs out of order");
            } else if line == "resign" {
                self.engine_side = None;
            } else if ["1-0", "0-1", "1/2-1/2"]
                .iter()
                .any(|r| line.starts_with(r))
            {
                self.over = true;
            } else {
                assert!(
                    line == "offer draw" || line.starts_with("Illegal move"),
                    "unexpected line {line}"
                );
            }
        }
    }

    fn legal_moves(&self) -> Vec<Move> {
        let mut list = crate::board::MoveList::new();
        crate::board::legal_moves(&self.position, &mut list);
        list.iter().copied().collect()
    }
}

/// 10,000 random lines of `ping`, `force`, `go`, `?`, `new` and `usermove` against real
/// searches (`sd 2`) whose reports reach the session at random moments: every engine move
/// is legal and on its turn (none twice), none is lost (the engine on move always moves
/// in the end), and every `ping` gets its `pong` in order.
#[test]
fn random_interleavings_lose_no_move_and_answer_every_ping_in_order() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(61);
    let mut h = Harness::searching();
    h.send("xboard\nprotover 2\nnew\nsd 2");
    h.output();
    let mut referee = XboardReferee {
        position: Position::startpos(),
        engine_side: Some(Color::Black),
        over: false,
        pings: VecDeque::new(),
        engine_moves: 0,
    };
    let mut next_ping = 0;
    for i in 0..10_000 {
        if i % 500 == 499 {
            settle_and_check(&mut h, &mut referee);
        }
        let line = match rng.gen_range(0..10) {
            0 => {
                next_ping += 1;
                referee.pings.push_back(next_ping);
                format!("ping {next_ping}")
            }
            1 => {
                referee.engine_side = None;
                "force".to_string()
            }
            2 => {
                referee.engine_side = Some(referee.position.side_to_move());
                "go".to_string()
            }
            3 => "?".to_string(),
            4 => {
                referee.position = Position::startpos();
                referee.engine_side = Some(Color::Black);
                referee.over = false;
                "new\nsd 2".to_string()
            }
            _ => {
                let moves = referee.legal_moves();
                if moves.is_empty() {
                    continue;
                }
                let m = moves[rng.gen_range(0..moves.len())];
                let out = h.send(&format!("usermove {m}"));
                assert_eq!(out, Flow::Continue);
                let out = h.output();
                // Refused while the engine thinks; otherwise on the board.
                if !out.iter().any(|l| l.starts_with("Illegal move")) {
                    referee.position = referee.position.make_move(m);
                }
                referee.read(out);
                if rng.gen_bool(0.5) {
                    h.pause_then_deliver(&mut rng);
                }
                let out = h.output();
                referee.read(out);
                continue;
            }
        };
        assert_eq!(h.send(&line), Flow::Continue);
        if rng.gen_bool(0.5) {
            h.pause_then_deliver(&mut rng);
        }
        let out = h.output();
        referee.read(out);
    }
    settle_and_check(&mut h, &mut referee);
    // Searches must mostly end between lines, or the test checks little (about 2,200 do).
    assert!(
        referee.engine_moves > 1000,
        "{} moves",
        referee.engine_moves
    );
}

/// Lets every search end and its reports arrive: no ping is then unanswered, and the engine
/// is not left on move in a game that goes on.
fn settle_and_check(h: &mut Harness, referee: &mut XboardReferee) {
    h.settle();
    let out = h.output();
    referee.read(out);
    assert!(
        referee.pings.is_empty(),
        "pings unanswered: {:?}",
        referee.pings
    );
    let on_move = referee.engine_side == Some(referee.position.side_to_move());
    assert!(
        !on_move || referee.over || referee.legal_moves().is_empty(),
        "the engine's move was lost in {}",
        referee.position.to_fen()
    );
}
