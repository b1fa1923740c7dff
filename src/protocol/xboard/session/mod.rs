//! XBoard's mode state machine over the engine core: turns each `Event` (a line from the
//! GUI, a search report, the end of input) into core calls and XBoard replies. It never
//! waits on the search: a running search is only ever told to stop, and the core drops
//! reports from searches it has abandoned, so none of them can make a move.

use std::time::Duration;

use super::clock::Clock;
use super::command::{Command, EditCommand, MoveSelection, parse_command, parse_edit_line};
use super::options;
use crate::board::game::Outcome;
use crate::board::{
    CastlingNotation, Color, Move, Piece, PieceKind, Position, PositionBuilder, Square, line_text,
    move_text, parse_move_in,
};
use crate::engine::{BookChoice, Engine, Event, Flow, Report, Started};
use crate::logging;
use crate::protocol::output::{Output, printable};
use crate::protocol::text::{Dialect, illegal_move_reply};
use crate::search::{SearchInfo, SearchLimits, SearchOutcome, mate_moves};

/// The protocol state (CECP state machine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `force`: play neither side, just keep the board.
    Observing,
    /// Playing `engine_color`; no search runs (the opponent is on move, or the game is over).
    Waiting,
    /// Engine on move: a timed search runs and its result will be played.
    Thinking,
    /// Opponent on move: searching the position after the `expected` reply.
    Pondering { expected: Move },
    /// `analyze`: search the side to move forever, never move.
    Analyzing,
}

/// The board being built in `edit` mode.
struct EditBoard {
    board: PositionBuilder,
    /// The colour of the pieces being placed (`c` switches it).
    color: Color,
}

/// Longest `ping` waits for the search thread to finish a table clear or resize (a table of
/// many gigabytes takes seconds to clear; a hung thread must not silence the engine).
const IDLE_WAIT: Duration = Duration::from_secs(20);

pub(crate) struct Session {
    out: Output,
    engine: Engine,
    mode: Mode,
    engine_color: Color,
    edit: Option<EditBoard>,
    paused: bool,
    /// The game's time: `level` or `st`, `time` and `otim`, and the engine's moves.
    clock: Clock,
    /// `sd`: the deepest iteration, for own and ponder searches.
    depth_limit: Option<u32>,
    /// `nps`: nodes a second standing in for the wall clock; 0 = the wall clock.
    nps: u64,
    /// `ping` tokens waiting for the move being thought about.
    pending_pongs: Vec<String>,
    post: bool,
    /// A `draw` offer that came while thinking, decided just before the move.
    draw_offer_pending: bool,
    // The opponent and the setting, for the log.
    opponent_name: Option<String>,
    /// (engine, opponent) from `rating`; 0 = unknown.
    ratings: (i32, i32),
    /// `ics HOST`; `None` for local play (`ics -`).
    ics_host: Option<String>,
    /// Said once as a `#` line after the handshake (e.g. the log folder is not writable).
    startup_warning: Option<String>,
}

impl Session {
    pub(crate) fn new(engine: Engine, out: Output, startup_warning: Option<String>) -> Session {
        Session {
            out,
            engine,
            mode: Mode::Waiting,
            engine_color: Color::Black,
            edit: None,
            paused: false,
            clock: Clock::default(),
            depth_limit: None,
            nps: 0,
            pending_pongs: Vec::new(),
            post: false,
            draw_offer_pending: false,
            opponent_name: None,
            ratings: (0, 0),
            ics_host: None,
            startup_warning,
        }
    }

    /// Handles one event; pongs that waited for a move go out as soon as no own search runs.
    pub(crate) fn handle(&mut self, event: Event) -> Flow {
        let flow = match event {
            Event::Line(line) => self.line(&line),
            Event::Eof => {
                log::info!("end of input: quitting");
                Flow::Quit
            }
            Event::Search(report) => {
                self.report(report);
                Flow::Continue
            }
        };
        if flow == Flow::Quit {
            self.engine.abort();
        }
        if !self.is_thinking() || flow == Flow::Quit {
            for token in std::mem::take(&mut self.pending_pongs) {
                self.out.line(&format!("pong {token}"));
            }
        }
        // The log folder failed mid-game: said once, like the start-up warning.
        if let Some(warning) = logging::take_failure() {
            self.out.debug(&warning);
        }
        flow
    }

    fn is_thinking(&self) -> bool {
        self.mode == Mode::Thinking && !self.paused
    }

    // -----------------------------------------------------------------------------------
    // Input lines

    fn line(&mut self, line: &str) -> Flow {
        if self.edit.is_some() {
            match parse_edit_line(line) {
                Ok(None) => return Flow::Continue,
                Ok(Some(command)) => {
                    self.edit_command(command);
                    return Flow::Continue;
                }
                Err(error) => match parse_command(line) {
                    // A real command ends a forgotten edit session (state unchanged) rather
                    // than being swallowed: `quit` and `ping` must always work.
                    Ok(Some(command)) if !matches!(command, Command::UserMove(_)) => {
                        self.out.debug("edit mode abandoned, position unchanged");
                        self.edit = None;
                        return self.command(command);
                    }
                    _ => {
                        self.out.line(&error.reply());
                        return Flow::Continue;
                    }
                },
            }
        }
        match parse_command(line) {
            Ok(None) => Flow::Continue,
            Ok(Some(command)) => self.command(command),
            Err(error) => {
                self.out.line(&error.reply());
                Flow::Continue
            }
        }
    }

    /// One command: a dispatch table; each arm is a change of mode, a move, a setting or a
    /// note about the game.
    fn command(&mut self, command: Command) -> Flow {
        match command {
            Command::Quit => return Flow::Quit,
            // The game and the mode.
            Command::Protover(version) => self.protover(version),
            Command::New => self.new_game(),
            Command::Force => self.stop_playing(),
            Command::Go => self.go(),
            Command::PlayOther => self.play_other(),
            Command::White => self.set_side(Color::White),
            Command::Black => self.set_side(Color::Black),
            Command::UserMove(text) => self.user_move(&text),
            Command::MoveNow => self.move_now(),
            Command::Ping(token) => self.ping(token),
            Command::Draw => self.draw_offered(),
            Command::Result { result, comment } => {
                log::info!("game over: {} {{{comment}}}", result.as_str());
                self.stop_playing();
            }
            Command::SetBoard(fen) => self.set_board(&fen),
            Command::Edit => self.start_edit(),
            Command::Undo => self.take_back(1),
            Command::Remove => self.take_back(2),
            Command::Hard => self.engine.set_ponder(true),
            Command::Easy => self.easy(),
            Command::Analyze => self.analyze(),
            Command::Exit => self.exit_analysis(),
            Command::Exclude(selection) => self.exclude(selection, true),
            Command::Include(selection) => self.exclude(selection, false),
            Command::Pause => self.pause(),
            Command::Resume => self.resume(),
            // Answers.
            Command::Hint => self.send_hint(),
            Command::Dot => self.stat01(),
            Command::Bk => self.book_text(),
            Command::Variant(variant) => self.variant(&variant),
            // Time and limits.
            Command::Level {
                moves_per_session,
                base_ms,
                increment_ms,
            } => {
                let ply = self.engine.game().ply();
                self.clock
                    .set_level(moves_per_session, base_ms, increment_ms, ply);
            }
            Command::St { ms } => self.clock.set_per_move(ms, self.engine.game().ply()),
            Command::Sd(depth) => self.depth_limit = (depth > 0).then_some(depth),
            Command::Nps(nps) => self.nps = nps,
            Command::Time(cs) => self.clock.set_own_ms(cs.saturating_mul(10)),
            Command::Otim(cs) => self.clock.set_opponent_ms(cs.saturating_mul(10)),
            // Settings.
            Command::Memory(mb) => {
                self.engine.set_hash_mb(mb);
            }
            // At most N cores: never more than the machine has.
            Command::Cores(n) => {
                let n = crate::engine::options::clamp_threads(u64::from(n));
                self.engine.set_threads(n as u64);
            }
            Command::Option { name, value } => self.set_option(&name, value.as_deref()),
            Command::Post => self.post = true,
            Command::NoPost => self.post = false,
            // Notes about the game, for the log and the draw policy.
            Command::Xboard => log::debug!("xboard mode"),
            Command::Accepted(feature) => log::debug!("feature accepted: {feature}"),
            Command::Rejected(feature) => log::info!("feature rejected: {feature}"),
            Command::Random => {
                let random = self.engine.toggle_random();
                log::debug!("random is now {random}");
            }
            Command::Name(name) => {
                log::info!("opponent: {name}");
                self.opponent_name = Some(name);
            }
            Command::Rating { own, opponent } => {
                log::info!("ratings: engine {own}, opponent {opponent}");
                self.ratings = (own, opponent);
            }
            Command::Ics(host) => {
                log::info!("ics: {host}");
                self.ics_host = (host != "-").then_some(host);
            }
            Command::Computer => {
                self.engine.set_opponent_is_computer();
                log::info!("the opponent is a computer");
            }
            Command::EgtPath { kind, path } if kind == "syzygy" => {
                self.set_option("SyzygyPath", Some(&path))
            }
            Command::EgtPath { kind, path } => {
                log::info!("egtpath {kind} {path} ignored (only Syzygy tables are probed)")
            }
        }
        Flow::Continue
    }

    /// `force` and `result`: stop any search without moving, play neither side.
    fn stop_playing(&mut self) {
        self.abort_search();
        self.paused = false;
        self.mode = Mode::Observing;
    }

    fn play_other(&mut self) {
        self.abort_search();
        self.paused = false;
        self.engine_color = !self.engine.game().side_to_move();
        self.mode = Mode::Waiting;
    }

    /// `?`: move now with the best move so far (ignored unless thinking).
    fn move_now(&mut self) {
        if self.is_thinking() {
            self.engine.stop();
        }
    }

    /// `pong` after the move while thinking; otherwise now.
    fn ping(&mut self, token: String) {
        if self.is_thinking() {
            self.pending_pongs.push(token);
            return;
        }
        // GUIs start the clock after `pong`: let a table clear or resize that `new` or
        // `memory` queued finish first, so it is not billed to a move.
        if matches!(self.mode, Mode::Waiting | Mode::Observing) && !self.engine.wait_idle(IDLE_WAIT)
        {
            log::warn!("search thread still busy after {IDLE_WAIT:?}; answering ping");
        }
        self.out.line(&format!("pong {token}"));
    }

    fn start_edit(&mut self) {
        self.abort_search();
        self.edit = Some(EditBoard {
            board: PositionBuilder::from_position(self.engine.position()),
            color: Color::White,
        });
    }

    /// Pondering off; a running ponder search stops.
    fn easy(&mut self) {
        self.engine.set_ponder(false);
        if matches!(self.mode, Mode::Pondering { .. }) {
            self.abort_search();
        }
    }

    fn analyze(&mut self) {
        self.abort_search();
        self.paused = false;
        self.mode = Mode::Analyzing;
        self.engine.analyze();
    }

    fn exit_analysis(&mut self) {
        if self.mode == Mode::Analyzing {
            self.abort_search();
            self.mode = Mode::Observing;
        }
    }

    /// `normal` or `fischerandom` (Chess960: XBoard then sends `setboard` with the start
    /// position, castling as `O-O`/`O-O-O`); `new` goes back to normal.
    fn variant(&mut self, variant: &str) {
        match variant {
            "normal" => self.engine.set_chess960(false),
            "fischerandom" => self.engine.set_chess960(true),
            _ => self
                .out
                .line(&Dialect::XBoard.error_reply("unsupported variant", variant)),
        }
    }

    /// How castling is written in this game.
    fn notation(&self) -> CastlingNotation {
        if self.engine.options().chess960 {
            CastlingNotation::Words
        } else {
            CastlingNotation::Standard
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        if let Err(error) = self
            .engine
            .set_option(name, |settings| options::set(settings, name, value))
        {
            self.out.line(&printable(&error.reply()));
        }
        // Problems go to the user's screen, reports to the debug window: XBoard sends its
        // default `egtpath` (often a folder that does not exist) to every engine with `egt`.
        for notice in self.engine.take_notices() {
            let kind = if notice.problem { "telluser" } else { "#" };
            self.out
                .line(&printable(&format!("{kind} {}", notice.text)));
        }
    }

    fn protover(&mut self, version: u32) {
        log::debug!("protover {version}");
        self.out.line("feature done=0");
        self.out.line(
            "feature ping=1 setboard=1 playother=1 usermove=1 time=1 draw=1 reuse=1 analyze=1 \
             ics=1 name=1 debug=1 memory=1 smp=1 exclude=1 egt=\"syzygy\"",
        );
        self.out
            .line("feature sigint=0 sigterm=0 colors=0 san=0 nps=0 pause=0");
        self.out.line(&format!(
            "feature myname=\"Ironwood {}\" variants=\"normal,fischerandom\"",
            crate::version()
        ));
        for option in options::features(self.engine.options()) {
            self.out.line(&format!("feature option=\"{option}\""));
        }
        self.out.line("feature done=1");
        if let Some(warning) = self.startup_warning.take() {
            self.out.debug(&warning);
        }
    }

    fn new_game(&mut self) {
        self.abort_search();
        self.engine.new_game();
        self.clock.restart();
        self.depth_limit = None;
        self.nps = 0;
        self.engine.set_chess960(false);
        self.mode = Mode::Waiting;
        self.engine_color = Color::Black;
        self.paused = false;
        self.edit = None;
        self.draw_offer_pending = false;
        self.opponent_name = None;
        self.ratings = (0, 0);
    }

    fn go(&mut self) {
        log::info!(
            "go: playing {:?} against {} (computer: {}, ratings {:?}, {})",
            self.engine.game().side_to_move(),
            self.opponent_name.as_deref().unwrap_or("?"),
            self.engine.policy().opponent_is_computer,
            self.ratings,
            self.ics_host
                .as_deref()
                .map_or("local".to_string(), |h| format!("ics {h}"))
        );
        let side = self.engine.game().side_to_move();
        if self.is_thinking() && self.engine_color == side {
            return;
        }
        self.abort_search();
        self.paused = false;
        self.engine_color = side;
        self.start_thinking();
    }

    /// Obsolete `white`/`black` (colors=0 turns them off): that side to move, the engine
    /// plays the other.
    fn set_side(&mut self, side: Color) {
        self.abort_search();
        self.paused = false;
        if self.engine.game().side_to_move() != side {
            let position = PositionBuilder::from_position(self.engine.position())
                .side_to_move(side)
                .en_passant(None)
                .build();
            match position {
                Ok(pos) => self.set_position(pos),
                Err(e) => self
                    .out
                    .debug(&format!("cannot give the move to {side:?}: {e}")),
            }
        }
        self.engine_color = !side;
        self.mode = Mode::Waiting;
    }

    fn set_board(&mut self, fen: &str) {
        match Position::from_fen_in(fen, self.engine.options().castling_mode()) {
            Ok(pos) => {
                self.abort_search();
                self.adopt_position(pos);
            }
            Err(error) => {
                self.out.line("tellusererror Illegal position");
                self.out
                    .debug(&format!("setboard refused ({error}): {}", printable(fen)));
            }
        }
    }

    /// A position set by `setboard` or edit mode; analysis goes on from it.
    fn adopt_position(&mut self, pos: Position) {
        self.set_position(pos);
        if self.mode == Mode::Analyzing {
            self.engine.analyze();
        }
    }

    /// A new game record from `pos`: the engine's moves under the time control count from it.
    fn set_position(&mut self, pos: Position) {
        self.engine.set_position(pos);
        self.clock.new_record();
    }

    fn edit_command(&mut self, command: EditCommand) {
        let Some(edit) = self.edit.as_mut() else {
            return;
        };
        match command {
            EditCommand::Clear => {
                edit.board.clear_board();
            }
            EditCommand::SwitchColor => edit.color = !edit.color,
            EditCommand::Place { piece, square } => {
                let Some(sq) = Square::parse(&square) else {
                    self.out
                        .line(&Dialect::XBoard.error_reply("bad edit command", &square));
                    return;
                };
                let piece = PieceKind::from_letter(piece).map(|kind| Piece::new(edit.color, kind));
                edit.board.put(sq, piece);
            }
            EditCommand::Done => {
                let Some(edit) = self.edit.take() else {
                    return;
                };
                // Castling where king and rook stand at home, no en passant, clocks 0 1.
                let mut board = edit.board;
                let position = board
                    .side_to_move(self.engine.game().side_to_move())
                    .castling_from_home_squares()
                    .en_passant(None)
                    .clocks(0, 1)
                    .build();
                match position {
                    Ok(pos) => self.adopt_position(pos),
                    Err(error) => {
                        self.out.line("tellusererror Illegal position");
                        self.out.debug(&format!("edit position refused ({error})"));
                        if self.mode == Mode::Analyzing {
                            self.engine.analyze();
                        }
                    }
                }
            }
        }
    }

    fn user_move(&mut self, text: &str) {
        if self.is_thinking() {
            self.out
                .line(&illegal_move_reply(Some("not your turn"), text));
            return;
        }
        let m = match parse_move_in(self.engine.position(), text, self.notation()) {
            Ok(m) => m,
            Err(error) => {
                log::debug!("{error}");
                self.out.line(&illegal_move_reply(None, text));
                return;
            }
        };
        match self.mode {
            Mode::Pondering { expected } if expected == m && !self.paused => {
                self.engine.push_move(m);
                if let Some(outcome) = self.engine.game().outcome() {
                    self.abort_search();
                    self.out.line(result_line(outcome));
                    return;
                }
                log::debug!("ponder hit on {m}");
                self.mode = Mode::Thinking;
                let time = self.clock.time_limit(self.engine.game(), self.engine_color);
                self.engine.ponder_hit(Some(time));
            }
            Mode::Analyzing => {
                self.engine.abort();
                self.engine.push_move(m);
                self.engine.analyze();
            }
            _ => {
                self.abort_search();
                self.engine.push_move(m);
                if self.mode == Mode::Waiting
                    && !self.paused
                    && self.engine.game().side_to_move() == self.engine_color
                {
                    self.start_thinking();
                }
            }
        }
    }

    fn take_back(&mut self, plies: usize) {
        self.abort_search();
        if self.engine.take_back(plies) < plies {
            // Logged, not sent: Knights takes any stray line for a move.
            log::info!("no more moves to take back");
        }
        self.clock.took_back_to(self.engine.game().ply());
        if self.mode == Mode::Analyzing {
            self.engine.analyze();
        }
    }

    fn exclude(&mut self, selection: MoveSelection, exclude: bool) {
        match selection {
            MoveSelection::All => self.engine.exclude_all(exclude),
            MoveSelection::Move(text) => {
                let Ok(m) = parse_move_in(self.engine.position(), &text, self.notation()) else {
                    self.out.line(&illegal_move_reply(None, &text));
                    return;
                };
                self.engine.exclude(m, exclude);
            }
        }
        if self.mode == Mode::Analyzing && !self.paused {
            self.engine.abort();
            self.engine.analyze();
        }
    }

    fn send_hint(&mut self) {
        let hint = match self.mode {
            Mode::Pondering { expected } => Some(expected),
            _ => self.engine.hint(),
        };
        if let Some(m) = hint {
            let text = move_text(self.engine.position(), m, self.notation());
            self.out.line(&format!("Hint: {text}"));
        }
    }

    fn stat01(&mut self) {
        if self.mode != Mode::Analyzing {
            return;
        }
        let Some(status) = self.engine.status() else {
            return;
        };
        let mut line = format!(
            "stat01: {} {} {} {} {}",
            status.elapsed.as_millis() / 10,
            status.nodes,
            status.depth,
            status.moves_left,
            status.total_moves
        );
        if !status.current_move.is_null() {
            let text = move_text(self.engine.position(), status.current_move, self.notation());
            line.push_str(&format!(" {text}"));
        }
        self.out.line(&line);
    }

    fn draw_offered(&mut self) {
        if self.is_thinking() {
            // Decided with the score of the search now running, just before its move.
            self.draw_offer_pending = true;
        } else if self.mode != Mode::Observing
            && self
                .engine
                .policy()
                .accepts_draw(self.engine.policy().last_score(), self.engine.game())
        {
            self.out.line("offer draw");
        }
    }

    fn pause(&mut self) {
        if self.paused {
            return;
        }
        self.paused = true;
        // The time thought so far is the engine's, though no move pays for it.
        if self.mode == Mode::Thinking {
            self.clock.spend(self.engine.thinking_ms());
        }
        self.engine.abort();
    }

    fn resume(&mut self) {
        if !self.paused {
            return;
        }
        self.paused = false;
        match self.mode {
            Mode::Thinking => self.start_thinking(),
            Mode::Pondering { expected } => self.start_pondering(expected),
            Mode::Analyzing => self.engine.analyze(),
            Mode::Observing | Mode::Waiting => {}
        }
    }

    // -----------------------------------------------------------------------------------
    // Searches

    /// Stops whatever runs and makes its reports stale. An own or ponder search ends in
    /// `Waiting`; analysis stays `Analyzing` (the caller restarts or leaves it).
    fn abort_search(&mut self) {
        self.engine.abort();
        if matches!(self.mode, Mode::Thinking | Mode::Pondering { .. }) {
            self.mode = Mode::Waiting;
        }
    }

    /// Think about the engine's move, or claim the result if the game is already over.
    fn start_thinking(&mut self) {
        if let Some(outcome) = self.engine.game().outcome() {
            self.out.line(result_line(outcome));
            self.mode = Mode::Waiting;
            return;
        }
        self.mode = Mode::Thinking;
        let time = self.clock.time_limit(self.engine.game(), self.engine_color);
        log::debug!(
            "clocks: own {} ms, opponent {} ms; {time}",
            self.clock.own_ms(),
            self.clock.opponent_ms()
        );
        let started = self.engine.think(SearchLimits {
            depth: self.depth_limit,
            time: Some(time),
            nps: (self.nps > 0).then_some(self.nps),
            ..SearchLimits::default()
        });
        if let Some(notice) = self.engine.take_book_notice() {
            self.out.line(&format!("telluser {}", printable(&notice)));
        }
        if let Started::Book(choice) = started {
            self.book_line(&choice);
            self.play(&choice.outcome());
        }
    }

    /// `bk`: the own book's moves here with their share of the weights, a line each after a
    /// space, then an empty line.
    fn book_text(&mut self) {
        match self.engine.book_moves() {
            None => self.out.line(" no book"),
            Some(moves) if moves.is_empty() => self.out.line(" not in book"),
            Some(moves) => {
                let total: u32 = moves.iter().map(|m| u32::from(m.weight)).sum();
                for m in moves {
                    let text = move_text(self.engine.position(), m.mv, self.notation());
                    let percent = 100 * u32::from(m.weight) / total.max(1);
                    self.out.line(&format!(" {text} {percent}% ({})", m.weight));
                }
            }
        }
        self.out.line("");
    }

    /// The thinking line of a book move: a PV in parentheses is XBoard's sign of one that
    /// no search made.
    fn book_line(&mut self, choice: &BookChoice) {
        if !self.post {
            return;
        }
        let text = move_text(self.engine.position(), choice.mv, self.notation());
        self.out.thinking(&format!(
            "0 0 0 0 (book {text}, weight {} of {}, {} book moves)",
            choice.weight, choice.total_weight, choice.moves
        ));
    }

    /// Ponders on `expected`; the time comes with the ponder hit.
    fn start_pondering(&mut self, expected: Move) {
        let limits = SearchLimits {
            depth: self.depth_limit,
            ..SearchLimits::default()
        };
        if self.engine.ponder(expected, limits) {
            self.mode = Mode::Pondering { expected };
        }
    }

    fn report(&mut self, report: crate::search::worker::SearchReport) {
        let Some(report) = self.engine.accept(report) else {
            return;
        };
        match report {
            // XBoard numbers no lines: each line is told once, when found.
            Report::Lines { lines, fresh } => {
                if self.paused {
                    return;
                }
                for info in &lines[..fresh] {
                    match self.mode {
                        Mode::Thinking | Mode::Analyzing => self.thinking_line(info, None),
                        Mode::Pondering { expected } => self.thinking_line(info, Some(expected)),
                        Mode::Observing | Mode::Waiting => {}
                    }
                }
            }
            // XBoard has no current-move line (`stat01` polls instead).
            Report::RootMove(_) => {}
            Report::Finished(outcome) => {
                if self.is_thinking() {
                    self.play(&outcome);
                } else {
                    log::debug!(
                        "search finished ({}), not played ({:?})",
                        outcome.best_move,
                        self.mode
                    );
                }
            }
        }
    }

    /// `DEPTH SCORE TIME NODES PV`: score from the engine's view (mates as 100000+N moves),
    /// time in centiseconds. While pondering the PV starts with the expected reply.
    fn thinking_line(&mut self, info: &SearchInfo, expected: Option<Move>) {
        if !self.post {
            return;
        }
        let nps = self.nps;
        let centiseconds = if nps > 0 && self.mode == Mode::Thinking {
            u128::from(info.nodes) * 100 / u128::from(nps)
        } else {
            info.elapsed.as_millis() / 10
        };
        let line: Vec<Move> = expected.iter().chain(&info.pv).copied().collect();
        let pv = line_text(self.engine.position(), &line, self.notation());
        // With tables, XBoard's optional fields after the nodes carry the probe count
        // (selective depth, speed, tablebase hits, then a tab before the PV).
        let extended = if self.engine.options().search.syzygy.tables.is_some() {
            let speed = u128::from(info.nodes) * 100 / centiseconds.max(1);
            format!(
                " {} {speed} {}\t",
                info.selective_depth.max(info.depth),
                info.tbhits
            )
        } else {
            " ".to_string()
        };
        self.out.thinking(&format!(
            "{} {} {} {}{extended}{}",
            info.depth,
            protocol_score(info.score),
            centiseconds,
            info.nodes,
            pv.join(" ")
        ));
    }

    /// The own search finished: resign, answer a draw offer, move, claim, ponder.
    fn play(&mut self, outcome: &SearchOutcome) {
        let Some(chosen) = self.engine.choose_move(outcome) else {
            if let Some(result) = self.engine.game().outcome() {
                self.out.line(result_line(result));
            }
            self.mode = Mode::Waiting;
            return;
        };
        if let Some(line) = Engine::played_line(outcome, &chosen) {
            self.thinking_line(&line, None);
        }
        self.mode = Mode::Waiting;
        if self.engine.record_search(chosen.score) {
            if let Some(score) = chosen.score {
                log::info!("resigning at score {score}");
            }
            self.out.line("resign");
            self.mode = Mode::Observing;
            return;
        }

        let mut offered = false;
        if std::mem::take(&mut self.draw_offer_pending)
            && self
                .engine
                .policy()
                .accepts_draw(chosen.score, self.engine.game())
        {
            self.out.line("offer draw");
            offered = true;
        }
        if !offered && self.engine.policy().wants_to_offer_draw(self.engine.game()) {
            self.out.line("offer draw");
            self.engine.offered_draw();
            offered = true;
        }

        let text = move_text(self.engine.position(), chosen.best, self.notation());
        let used_ms = self.engine.thinking_ms();
        let result = self.engine.play_own_move(chosen);
        self.clock
            .charge_move(used_ms, self.engine.game(), self.engine_color);
        // A draw our move makes claimable is claimed by offering it before the move
        // (the GUI judges the offer on the position after the move).
        if matches!(result, Some(Outcome::Repetition | Outcome::FiftyMoves)) && !offered {
            self.out.line("offer draw");
        }
        self.out.line(&format!("move {text}"));
        if let Some(result) = result {
            self.out.line(result_line(result));
            return;
        }
        if self.engine.options().ponder
            && self.nps == 0
            && let Some(reply) = chosen.ponder
        {
            self.start_pondering(reply);
        }
    }
}

/// The line that claims `outcome`, e.g. `1-0 {White mates}`.
pub fn result_line(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Checkmate {
            winner: Color::White,
        } => "1-0 {White mates}",
        Outcome::Checkmate {
            winner: Color::Black,
        } => "0-1 {Black mates}",
        Outcome::Stalemate => "1/2-1/2 {Stalemate}",
        Outcome::InsufficientMaterial => "1/2-1/2 {Insufficient material}",
        Outcome::FiftyMoves => "1/2-1/2 {Draw by fifty move rule}",
        Outcome::Repetition => "1/2-1/2 {Draw by repetition}",
    }
}

/// The protocol's score: centipawns, or ±(100000 + N) for a mate in N moves.
pub(crate) fn protocol_score(score: i32) -> i64 {
    match mate_moves(score) {
        Some(n) if n > 0 => 100_000 + i64::from(n),
        Some(n) if n < 0 => -100_000 + i64::from(n),
        Some(_) => {
            if score > 0 {
                100_000
            } else {
                -100_000
            }
        }
        None => i64::from(score),
    }
}

#[cfg(test)]
mod tests;
