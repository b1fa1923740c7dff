//! UCI over the engine core: turns each `Event` into core calls and UCI replies. A `go`
//! owes exactly one `bestmove`; infinite and ponder searches hold it until `stop` or
//! `ponderhit`. Commands that need the board or the table while a search runs stop that
//! search and wait, in order, until its `bestmove` is out.

use std::collections::VecDeque;
use std::time::Duration;

use super::command::{Command, GoParameters, StartPosition, parse_command};
use super::options;
use crate::board::game::Game;
use crate::board::{
    CastlingNotation, Color, Position, is_legal, line_text, move_text, parse_coordinate_in,
};
use crate::engine::{Engine, Event, Flow, Report, Started};
use crate::protocol::output::Output;
use crate::protocol::text::Dialect;
use crate::search::{
    RootMoveInfo, ScoreBound, SearchInfo, SearchLimits, SearchOutcome, TimeLimit, mate_moves,
};

/// What a running `go` is waiting for before its `bestmove` may go out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Waiting {
    /// Nothing: the search ends by its own limits.
    Nothing,
    /// `go infinite`: `stop`.
    Stop,
    /// `go ponder`: `ponderhit` (then it is a timed search) or `stop`.
    PonderHit,
}

/// The `go` whose `bestmove` is still owed.
struct ActiveSearch {
    waiting: Waiting,
    /// A `stop` was sent to the search (by the GUI or to make way for a held command).
    stopping: bool,
    /// The search ended before `stop`/`ponderhit` allowed its answer out.
    early: Option<SearchOutcome>,
}

/// Longest `isready` waits for the search thread to finish a table clear or resize.
const IDLE_WAIT: Duration = Duration::from_secs(20);

pub(crate) struct Session {
    out: Output,
    engine: Engine,
    /// Said once as `info string` after `uciok` (e.g. the log folder is not writable).
    startup_warning: Option<String>,
    debug: bool,
    search: Option<ActiveSearch>,
    /// Lines that came while a search had to end first, in arrival order.
    held: VecDeque<String>,
}

/// What became of one line.
enum Handled {
    Done(Flow),
    /// It must wait for the running search's `bestmove`.
    Hold,
}

impl Session {
    pub(crate) fn new(engine: Engine, out: Output, startup_warning: Option<String>) -> Session {
        Session {
            out,
            engine,
            startup_warning,
            debug: false,
            search: None,
            held: VecDeque::new(),
        }
    }

    pub(crate) fn handle(&mut self, event: Event) -> Flow {
        let flow = match event {
            Event::Line(line) => self.line(line),
            Event::Eof => {
                log::info!("end of input: quitting");
                Flow::Quit
            }
            Event::Search(report) => self.report(report),
        };
        if flow == Flow::Quit {
            self.engine.abort();
        }
        // The log folder failed mid-game: said once, like the start-up warning.
        if let Some(warning) = crate::logging::take_failure() {
            self.info_string(&warning);
        }
        flow
    }

    fn line(&mut self, line: String) -> Flow {
        if !self.held.is_empty() {
            // Keep the order: this waits behind the held ones (only `quit` jumps the queue).
            if matches!(parse_command(&line), Ok(Some(Command::Quit))) {
                return Flow::Quit;
            }
            self.held.push_back(line);
            return Flow::Continue;
        }
        match self.dispatch(&line) {
            Handled::Done(flow) => flow,
            Handled::Hold => {
                self.held.push_back(line);
                Flow::Continue
            }
        }
    }

    /// Replays held lines once no search runs; stops at one that must wait again. A held
    /// `go` starts a search, and the lines behind it are handled as if they came now: a
    /// `stop` or `isready` at once, anything else waits for that search's `bestmove`.
    fn drain_held(&mut self) -> Flow {
        while let Some(line) = self.held.pop_front() {
            match self.dispatch(&line) {
                Handled::Done(Flow::Quit) => return Flow::Quit,
                Handled::Done(Flow::Continue) => {}
                Handled::Hold => {
                    self.held.push_front(line);
                    break;
                }
            }
        }
        Flow::Continue
    }

    fn dispatch(&mut self, line: &str) -> Handled {
        let command = match parse_command(line) {
            Ok(None) => return Handled::Done(Flow::Continue),
            Ok(Some(command)) => command,
            Err(error) => {
                self.out.line(&error.reply());
                return Handled::Done(Flow::Continue);
            }
        };
        if self.search.is_some() {
            return match command {
                Command::Stop => Handled::Done(self.stop()),
                Command::PonderHit => Handled::Done(self.ponder_hit()),
                Command::IsReady => {
                    self.out.line("readyok");
                    Handled::Done(Flow::Continue)
                }
                Command::Quit => Handled::Done(Flow::Quit),
                Command::Debug(on) => {
                    self.debug = on;
                    Handled::Done(Flow::Continue)
                }
                // Anything else needs the board or the table: end the search first.
                _ => {
                    if self.stop() == Flow::Quit {
                        return Handled::Done(Flow::Quit);
                    }
                    if self.search.is_some() {
                        Handled::Hold
                    } else {
                        Handled::Done(self.command(command))
                    }
                }
            };
        }
        Handled::Done(self.command(command))
    }

    /// A command with no search running.
    fn command(&mut self, command: Command) -> Flow {
        match command {
            Command::Uci => self.identify(),
            Command::Debug(on) => {
                self.debug = on;
                log::info!("uci debug {}", if on { "on" } else { "off" });
            }
            Command::IsReady => {
                // GUIs start the clock after `readyok`: a table clear or resize that
                // `ucinewgame` or `setoption` queued finishes first.
                if !self.engine.wait_idle(IDLE_WAIT) {
                    log::warn!("search thread still busy after {IDLE_WAIT:?}; answering isready");
                }
                self.out.line("readyok");
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Register => log::debug!("register: nothing to register"),
            Command::UciNewGame => self.engine.new_game(),
            Command::Position { start, moves } => self.position(&start, &moves),
            Command::Go(parameters) => return self.go(&parameters),
            Command::Stop => log::debug!("stop without a search"),
            Command::PonderHit => log::debug!("ponderhit without a ponder search"),
            Command::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    fn identify(&mut self) {
        self.out
            .line(&format!("id name Ironwood {}", crate::version()));
        self.out.line("id author the Ironwood developers");
        for line in options::announcements(self.engine.options()) {
            self.out.line(&line);
        }
        self.out.line("uciok");
        if let Some(warning) = self.startup_warning.take() {
            self.info_string(&warning);
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        if let Err(error) = self
            .engine
            .set_option(name, |settings| options::set(settings, name, value))
        {
            self.out.line(&error.reply());
        }
        for notice in self.engine.take_notices() {
            self.out.line(&format!("info string {}", notice.text));
        }
    }

    /// `position`: built aside and adopted only if the FEN and every move are good.
    fn position(&mut self, start: &StartPosition, moves: &[String]) {
        let position = match start {
            StartPosition::StartPos => Position::startpos(),
            StartPosition::Fen(fen) => {
                match Position::from_fen_in(fen, self.engine.options().castling_mode()) {
                    Ok(position) => position,
                    Err(error) => {
                        self.error("bad FEN, position unchanged", &format!("{fen}: {error}"));
                        return;
                    }
                }
            }
        };
        let mut game = Game::new(position.clone());
        let mut played = Vec::with_capacity(moves.len());
        for text in moves {
            match parse_coordinate_in(game.position(), text, self.notation()) {
                Ok(m) if is_legal(game.position(), m) => {
                    game.push(m);
                    played.push(m);
                }
                _ => {
                    let fen = game.position().to_fen();
                    self.error(
                        "illegal move, position unchanged",
                        &format!("{text} in {fen}"),
                    );
                    return;
                }
            }
        }
        self.engine.set_game(position, &played);
    }

    /// Starts the search, or answers at once with the own book's move.
    fn go(&mut self, go: &GoParameters) -> Flow {
        let (own, increment) = match self.engine.position().side_to_move() {
            Color::White => (go.wtime, go.winc),
            Color::Black => (go.btime, go.binc),
        };
        let time = if let Some(ms) = go.movetime {
            Some(TimeLimit::MoveTime { ms })
        } else {
            own.map(|remaining_ms| TimeLimit::Clock {
                remaining_ms,
                increment_ms: increment.unwrap_or(0).max(0) as u64,
                moves_to_go: go.movestogo.filter(|&moves| moves > 0),
            })
        };
        let mut only = Vec::new();
        for text in &go.searchmoves {
            match parse_coordinate_in(self.engine.position(), text, self.notation()) {
                Ok(m) if is_legal(self.engine.position(), m) => only.push(m),
                _ => self.error("illegal searchmoves move, ignored", text),
            }
        }
        let waiting = if go.ponder {
            Waiting::PonderHit
        } else if go.infinite {
            Waiting::Stop
        } else {
            Waiting::Nothing
        };
        self.search = Some(ActiveSearch {
            waiting,
            stopping: false,
            early: None,
        });
        let started = self.engine.go(SearchLimits {
            depth: go.depth.filter(|&d| d > 0),
            nodes: go.nodes,
            time: time.filter(|_| !go.infinite),
            infinite: go.infinite,
            ponder: go.ponder,
            only,
            mate: go.mate.filter(|&m| m > 0),
            ..SearchLimits::default()
        });
        if let Some(notice) = self.engine.take_book_notice() {
            self.info_string(&notice);
        }
        let limits = match started {
            Started::Search(limits) => limits,
            Started::Book(choice) => {
                let text = move_text(self.engine.position(), choice.mv, self.notation());
                self.info_string(&format!(
                    "book move {text} (weight {} of {}, {} book moves)",
                    choice.weight, choice.total_weight, choice.moves
                ));
                return self.best_move(&choice.outcome());
            }
        };
        let pondering = limits.ponder;
        if self.debug {
            let what = if pondering {
                "pondering (the clock starts at ponderhit)"
            } else {
                "searching"
            };
            self.info_string(&format!("{what}: {limits}"));
        }
        Flow::Continue
    }

    /// Ends the running search; its `bestmove` goes out when it has wound down (at once if
    /// it had already ended).
    fn stop(&mut self) -> Flow {
        let Some(search) = self.search.as_mut() else {
            return Flow::Continue;
        };
        search.waiting = Waiting::Nothing;
        if let Some(outcome) = search.early.take() {
            return self.best_move(&outcome);
        }
        if !search.stopping {
            search.stopping = true;
            self.engine.stop();
        }
        Flow::Continue
    }

    fn ponder_hit(&mut self) -> Flow {
        let Some(search) = self.search.as_mut() else {
            return Flow::Continue;
        };
        if search.waiting != Waiting::PonderHit {
            log::debug!("ponderhit for a search that is not pondering");
            return Flow::Continue;
        }
        search.waiting = Waiting::Nothing;
        if let Some(outcome) = search.early.take() {
            return self.best_move(&outcome);
        }
        self.engine.ponder_hit(None);
        Flow::Continue
    }

    fn report(&mut self, report: crate::search::worker::SearchReport) -> Flow {
        let Some(report) = self.engine.accept(report) else {
            return Flow::Continue;
        };
        match report {
            Report::Lines { lines, .. } => {
                if self.search.is_some() {
                    let text: Vec<String> = lines.iter().map(|l| self.info_text(l)).collect();
                    self.out.thinking_lines(&text);
                }
            }
            Report::RootMove(info) => {
                if self.search.is_some() {
                    self.current_move_line(&info);
                }
            }
            Report::Finished(outcome) => {
                let Some(search) = self.search.as_mut() else {
                    return Flow::Continue;
                };
                if search.waiting != Waiting::Nothing {
                    // A ponder or infinite search that ended by itself (a mate, a depth
                    // limit, no legal move) keeps its answer until it may be given.
                    search.early = Some(outcome);
                    return Flow::Continue;
                }
                return self.best_move(&outcome);
            }
        }
        Flow::Continue
    }

    /// `bestmove X [ponder Y]`, ending the `go`; then the held lines get their turn. The
    /// board cannot have changed since the `go`: every command that changes it was held.
    fn best_move(&mut self, outcome: &SearchOutcome) -> Flow {
        if self.search.take().is_none() {
            return Flow::Continue;
        }
        match self.engine.choose_move(outcome) {
            // No legal move: UCI's null move.
            None => self.out.line("bestmove 0000"),
            Some(chosen) => {
                if let Some(line) = Engine::played_line(outcome, &chosen) {
                    let text = self.info_text(&line);
                    self.out.thinking(&text);
                }
                let position = self.engine.position();
                let best = move_text(position, chosen.best, self.notation());
                let after = position.make_move(chosen.best);
                match chosen.ponder.filter(|&p| is_legal(&after, p)) {
                    Some(reply) => {
                        let reply = move_text(&after, reply, self.notation());
                        self.out.line(&format!("bestmove {best} ponder {reply}"))
                    }
                    None => self.out.line(&format!("bestmove {best}")),
                }
            }
        }
        self.drain_held()
    }

    /// `info depth .. seldepth .. multipv .. score .. nodes .. nps .. hashfull .. tbhits ..
    /// time .. pv ..`.
    fn info_text(&self, info: &SearchInfo) -> String {
        let ms = info.elapsed.as_millis();
        let nps = u128::from(info.nodes) * 1000 / ms.max(1);
        let score = match mate_moves(info.score) {
            Some(moves) => format!("mate {moves}"),
            None => format!("cp {}", info.score),
        };
        let bound = match info.bound {
            ScoreBound::Exact => "",
            ScoreBound::Lower => " lowerbound",
            ScoreBound::Upper => " upperbound",
        };
        let pv = line_text(self.engine.position(), &info.pv, self.notation());
        format!(
            "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {nps} \
             hashfull {} tbhits {} time {ms} pv {}",
            info.depth,
            info.selective_depth.max(info.depth),
            info.multipv,
            info.nodes,
            info.hashfull,
            info.tbhits,
            pv.join(" ")
        )
    }

    fn current_move_line(&mut self, info: &RootMoveInfo) {
        let mv = move_text(self.engine.position(), info.mv, self.notation());
        self.out.thinking(&format!(
            "info depth {} currmove {mv} currmovenumber {}",
            info.depth, info.number
        ));
    }

    /// Castling as UCI writes it: king takes own rook under `UCI_Chess960`.
    fn notation(&self) -> CastlingNotation {
        if self.engine.options().chess960 {
            CastlingNotation::KingTakesRook
        } else {
            CastlingNotation::Standard
        }
    }

    /// `info string error (REASON): SUBJECT`, UCI's way to say what it refused.
    fn error(&self, reason: &str, subject: &str) {
        self.out.line(&Dialect::Uci.error_reply(reason, subject));
    }

    /// `info string TEXT`, the echoed text made one printable line.
    fn info_string(&self, text: &str) {
        let text = crate::protocol::output::printable(text);
        self.out.line(&format!("info string {text}"));
    }
}

#[cfg(test)]
mod tests;
