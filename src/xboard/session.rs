//! The game-state manager: owns the game, the mode, the clocks and the search worker, turns
//! each `Event` (a line from the GUI, a search report, the end of input) into actions and
//! replies. It never waits on the search: a running search is only ever told to stop, and
//! its reports carry a generation number so a search the session has abandoned can never
//! make a move.

use std::time::{Duration, Instant};

use super::command::{Command, EditCommand, MoveSelection, parse_command, parse_edit_line};
use super::options::{EngineOptions, OptionEffect};
use super::output::Output;
use crate::board::{
    Color, Move, MoveList, Piece, PieceKind, Position, Square, is_legal, legal_moves, parse_move,
};
use crate::game::{Game, Outcome};
use crate::search::worker::{SearchJob, SearchReport, SearchWorker};
use crate::search::{SearchInfo, SearchLimits, SearchOutcome, TimeBudget, TimeControl, mate_moves};

/// Everything the session reacts to, in one channel.
#[derive(Debug)]
pub enum Event {
    /// One line from stdin, without its line ending (invalid UTF-8 replaced).
    Line(String),
    /// stdin closed: the GUI is gone.
    Eof,
    Search(SearchReport),
}

/// Whether the session goes on after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// The protocol state (CECP state machine, see docs/xboard-notes.md 1.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
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

/// Settings fixed at start-up (command line).
#[derive(Clone, Debug)]
pub struct SessionConfig {
    pub hash_mb: usize,
    pub threads: usize,
    pub move_overhead_ms: u64,
    /// Said once as a `#` line after the handshake (e.g. the log folder is not writable).
    pub startup_warning: Option<String>,
}

/// The board being built in `edit` mode.
struct EditBoard {
    squares: [Option<Piece>; 64],
    color: Color,
}

/// Scores below this (centipawns, engine's view) make the engine accept a draw offer.
const ACCEPT_DRAW_BELOW: i32 = -150;
/// Scores within this of zero count as "dead level".
const LEVEL_SCORE: i32 = 10;
/// Own draw offers: only from this move number on, after this many level scores in a row,
/// against a computer, and not more often than every `DRAW_OFFER_INTERVAL` plies.
const OFFER_DRAW_FROM_MOVE: u16 = 40;
const OFFER_DRAW_AFTER_LEVEL_MOVES: u32 = 10;
const DRAW_OFFER_INTERVAL: usize = 20;
/// Own moves in a row below the resign threshold before resigning.
const RESIGN_AFTER_MOVES: u32 = 3;
/// Longest `ping` waits for the search thread to finish a table clear or resize (a table of
/// many gigabytes takes seconds to clear; a hung thread must not silence the engine).
const IDLE_WAIT: Duration = Duration::from_secs(20);
/// Halfmove clocks this large are refused (the board's counter is 16 bits).
const MAX_HALFMOVE_CLOCK: u16 = 60_000;

pub struct Session {
    out: Output,
    worker: SearchWorker,
    options: EngineOptions,
    game: Game,
    mode: Mode,
    engine_color: Color,
    edit: Option<EditBoard>,
    paused: bool,
    /// The generation of the search whose reports count; bumped whenever a search is
    /// abandoned or replaced.
    generation: u64,
    /// When the current own search (or its ponder hit) started, for the clock.
    think_started: Instant,
    /// `ping` tokens waiting for the move being thought about.
    pending_pongs: Vec<String>,
    post: bool,
    ponder: bool,
    random: bool,
    // Time.
    time_control: TimeControl,
    /// Game ply at which the time control was set (own moves are counted from there).
    control_start_ply: usize,
    own_time_ms: i64,
    opponent_time_ms: i64,
    depth_limit: Option<u32>,
    nps: u64,
    excluded: Vec<Move>,
    // What the searches taught us.
    last_score: Option<i32>,
    /// The expected reply after our last move: (key of the position it applies to, move).
    hint: Option<(u64, Move)>,
    low_score_moves: u32,
    level_score_moves: u32,
    draw_offer_pending: bool,
    last_own_draw_offer: Option<usize>,
    // The opponent and the setting, for the log and the draw policy.
    opponent_is_computer: bool,
    opponent_name: Option<String>,
    /// (engine, opponent) from `rating`; 0 = unknown.
    ratings: (i32, i32),
    /// `ics HOST`; `None` for local play (`ics -`).
    ics_host: Option<String>,
    startup_warning: Option<String>,
}

impl Session {
    pub fn new(worker: SearchWorker, out: Output, config: SessionConfig) -> Session {
        let options = EngineOptions {
            move_overhead_ms: config.move_overhead_ms,
            ..EngineOptions::default()
        };
        let time_control = TimeControl::default();
        let base = base_ms(time_control);
        Session {
            out,
            worker,
            options,
            game: Game::default(),
            mode: Mode::Waiting,
            engine_color: Color::Black,
            edit: None,
            paused: false,
            generation: 0,
            think_started: Instant::now(),
            pending_pongs: Vec::new(),
            post: false,
            ponder: false,
            random: false,
            time_control,
            control_start_ply: 0,
            own_time_ms: base,
            opponent_time_ms: base,
            depth_limit: None,
            nps: 0,
            excluded: Vec::new(),
            last_score: None,
            hint: None,
            low_score_moves: 0,
            level_score_moves: 0,
            draw_offer_pending: false,
            last_own_draw_offer: None,
            opponent_is_computer: false,
            opponent_name: None,
            ratings: (0, 0),
            ics_host: None,
            startup_warning: config.startup_warning,
        }
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Handles one event; pongs that waited for a move go out as soon as no own search runs.
    pub fn handle(&mut self, event: Event) -> Flow {
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
            self.worker.stop();
            self.generation += 1;
        }
        if !self.is_thinking() || flow == Flow::Quit {
            for token in std::mem::take(&mut self.pending_pongs) {
                self.out.line(&format!("pong {token}"));
            }
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

    fn command(&mut self, command: Command) -> Flow {
        match command {
            Command::Xboard => log::debug!("xboard mode"),
            Command::Protover(version) => self.protover(version),
            Command::Accepted(feature) => log::debug!("feature accepted: {feature}"),
            Command::Rejected(feature) => log::info!("feature rejected: {feature}"),
            Command::New => self.new_game(),
            Command::Variant(variant) => {
                if variant != "normal" {
                    self.out.line(&format!(
                        "Error (unsupported variant): {}",
                        printable(&variant)
                    ));
                }
            }
            Command::Quit => return Flow::Quit,
            Command::Random => {
                self.random = !self.random;
                log::debug!("random is now {} (ignored)", self.random);
            }
            Command::Force => {
                self.abort_search();
                self.paused = false;
                self.mode = Mode::Observing;
            }
            Command::Go => self.go(),
            Command::PlayOther => {
                self.abort_search();
                self.paused = false;
                self.engine_color = !self.game.side_to_move();
                self.mode = Mode::Waiting;
            }
            Command::White => self.set_side(Color::White),
            Command::Black => self.set_side(Color::Black),
            Command::Level {
                moves_per_session,
                base_ms,
                increment_ms,
            } => {
                self.time_control = TimeControl::Conventional {
                    moves_per_session,
                    base_ms,
                    increment_ms,
                };
                self.control_start_ply = self.game.ply();
                self.own_time_ms = clamp_ms(base_ms);
                self.opponent_time_ms = clamp_ms(base_ms);
            }
            Command::St { ms } => {
                self.time_control = TimeControl::FixedPerMove { ms };
                self.control_start_ply = self.game.ply();
            }
            Command::Sd(depth) => self.depth_limit = (depth > 0).then_some(depth),
            Command::Nps(nps) => self.nps = nps,
            Command::Time(cs) => self.own_time_ms = cs.saturating_mul(10),
            Command::Otim(cs) => self.opponent_time_ms = cs.saturating_mul(10),
            Command::UserMove(text) => self.user_move(&text),
            Command::MoveNow => {
                if self.is_thinking() {
                    self.worker.stop();
                }
            }
            Command::Ping(token) => {
                if self.is_thinking() {
                    self.pending_pongs.push(token);
                } else {
                    // GUIs start the clock after `pong`: let a table clear or resize that
                    // `new` or `memory` queued finish first, so it is not billed to a move.
                    if matches!(self.mode, Mode::Waiting | Mode::Observing)
                        && !self.worker.wait_idle(IDLE_WAIT)
                    {
                        log::warn!("search thread still busy after {IDLE_WAIT:?}; answering ping");
                    }
                    self.out.line(&format!("pong {token}"));
                }
            }
            Command::Draw => self.draw_offered(),
            Command::Result { result, comment } => {
                self.abort_search();
                self.paused = false;
                self.mode = Mode::Observing;
                log::info!("game over: {} {{{comment}}}", result.as_str());
            }
            Command::SetBoard(fen) => self.set_board(&fen),
            Command::Edit => {
                self.abort_search();
                let pos = self.game.position();
                let mut squares = [None; 64];
                for sq in Square::all() {
                    squares[sq.index()] = pos.piece_at(sq);
                }
                self.edit = Some(EditBoard {
                    squares,
                    color: Color::White,
                });
            }
            Command::Hint => self.send_hint(),
            Command::Bk => {
                self.out.line(" no book");
                self.out.line("");
            }
            Command::Undo => self.take_back(1),
            Command::Remove => self.take_back(2),
            Command::Hard => self.ponder = true,
            Command::Easy => {
                self.ponder = false;
                if matches!(self.mode, Mode::Pondering { .. }) {
                    self.abort_search();
                }
            }
            Command::Post => self.post = true,
            Command::NoPost => self.post = false,
            Command::Analyze => {
                self.abort_search();
                self.paused = false;
                self.mode = Mode::Analyzing;
                self.start_analysis();
            }
            Command::Exit => {
                if self.mode == Mode::Analyzing {
                    self.abort_search();
                    self.mode = Mode::Observing;
                }
            }
            Command::Dot => self.stat01(),
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
                self.opponent_is_computer = true;
                log::info!("the opponent is a computer");
            }
            Command::Pause => self.pause(),
            Command::Resume => self.resume(),
            Command::Memory(mb) => {
                let mb = clamp_hash_mb(mb);
                log::info!("hash: {mb} MB");
                self.worker.set_hash_mb(mb);
            }
            Command::Cores(n) => {
                let n = clamp_threads(u64::from(n));
                log::info!("threads: {n}");
                self.worker.set_threads(n);
            }
            Command::EgtPath { kind, path } => {
                log::info!("egtpath {kind} {path} ignored (no tablebases)")
            }
            Command::Option { name, value } => match self.options.set(&name, value.as_deref()) {
                Ok(OptionEffect::Nothing) => {}
                Ok(OptionEffect::ClearHash) => self.worker.clear(),
                Ok(OptionEffect::SearchFeatures) => self.worker.set_features(self.options.search),
                Err(error) => self.out.line(&printable(&error.reply())),
            },
            Command::Exclude(selection) => self.exclude(selection, true),
            Command::Include(selection) => self.exclude(selection, false),
        }
        Flow::Continue
    }

    fn protover(&mut self, version: u32) {
        log::debug!("protover {version}");
        self.out.line("feature done=0");
        self.out.line(
            "feature ping=1 setboard=1 playother=1 usermove=1 time=1 draw=1 reuse=1 analyze=1 \
             ics=1 name=1 debug=1 memory=1 smp=1 exclude=1",
        );
        self.out
            .line("feature sigint=0 sigterm=0 colors=0 san=0 nps=0 pause=0");
        self.out.line(&format!(
            "feature myname=\"Ironwood {}\" variants=\"normal\"",
            env!("CARGO_PKG_VERSION")
        ));
        for option in self.options.features() {
            self.out.line(&format!("feature option=\"{option}\""));
        }
        self.out.line("feature done=1");
        if let Some(warning) = self.startup_warning.take() {
            self.out.debug(&warning);
        }
    }

    fn new_game(&mut self) {
        self.abort_search();
        self.game = Game::default();
        self.mode = Mode::Waiting;
        self.engine_color = Color::Black;
        self.paused = false;
        self.edit = None;
        self.depth_limit = None;
        self.random = false;
        self.nps = 0;
        self.excluded.clear();
        self.worker.clear();
        self.control_start_ply = 0;
        self.own_time_ms = base_ms(self.time_control);
        self.opponent_time_ms = self.own_time_ms;
        self.last_score = None;
        self.hint = None;
        self.low_score_moves = 0;
        self.level_score_moves = 0;
        self.draw_offer_pending = false;
        self.last_own_draw_offer = None;
        self.opponent_is_computer = false;
        self.opponent_name = None;
        self.ratings = (0, 0);
    }

    fn go(&mut self) {
        log::info!(
            "go: playing {:?} against {} (computer: {}, ratings {:?}, {})",
            self.game.side_to_move(),
            self.opponent_name.as_deref().unwrap_or("?"),
            self.opponent_is_computer,
            self.ratings,
            self.ics_host
                .as_deref()
                .map_or("local".to_string(), |h| format!("ics {h}"))
        );
        let side = self.game.side_to_move();
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
        if self.game.side_to_move() != side {
            let fen = self.game.position().to_fen();
            let mut fields: Vec<&str> = fen.split_whitespace().collect();
            let letter = side.letter().to_string();
            if fields.len() >= 4 {
                fields[1] = &letter;
                fields[3] = "-";
            }
            match Position::from_fen(&fields.join(" ")) {
                Ok(pos) => self.set_game(Game::new(pos)),
                Err(e) => self
                    .out
                    .debug(&format!("cannot give the move to {side:?}: {e}")),
            }
        }
        self.engine_color = !side;
        self.mode = Mode::Waiting;
    }

    fn set_board(&mut self, fen: &str) {
        let position = Position::from_fen(fen).and_then(|pos| {
            if pos.halfmove_clock() > MAX_HALFMOVE_CLOCK {
                Err(crate::board::FenError::BadHalfmoveClock(
                    pos.halfmove_clock().to_string(),
                ))
            } else {
                Ok(pos)
            }
        });
        match position {
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

    /// A new game record (new position): forget per-position state.
    fn set_game(&mut self, game: Game) {
        self.game = game;
        self.excluded.clear();
        self.hint = None;
        self.control_start_ply = 0;
    }

    /// A position set by `setboard` or edit mode; analysis goes on from it.
    fn adopt_position(&mut self, pos: Position) {
        self.set_game(Game::new(pos));
        if self.mode == Mode::Analyzing {
            self.start_analysis();
        }
    }

    fn edit_command(&mut self, command: EditCommand) {
        let Some(edit) = self.edit.as_mut() else {
            return;
        };
        match command {
            EditCommand::Clear => edit.squares = [None; 64],
            EditCommand::SwitchColor => edit.color = !edit.color,
            EditCommand::Place { piece, square } => {
                let Some(sq) = Square::parse(&square) else {
                    self.out
                        .line(&format!("Error (bad edit command): {}", printable(&square)));
                    return;
                };
                edit.squares[sq.index()] =
                    PieceKind::from_letter(piece).map(|kind| Piece::new(edit.color, kind));
            }
            EditCommand::Done => {
                let Some(edit) = self.edit.take() else {
                    return;
                };
                let fen = edit_fen(&edit.squares, self.game.side_to_move());
                match Position::from_fen(&fen) {
                    Ok(pos) => self.adopt_position(pos),
                    Err(error) => {
                        self.out.line("tellusererror Illegal position");
                        self.out
                            .debug(&format!("edit position refused ({error}): {fen}"));
                        if self.mode == Mode::Analyzing {
                            self.start_analysis();
                        }
                    }
                }
            }
        }
    }

    fn user_move(&mut self, text: &str) {
        if self.is_thinking() {
            self.out.line(&format!(
                "Illegal move (not your turn): {}",
                printable(text)
            ));
            return;
        }
        let m = match parse_move(self.game.position(), text) {
            Ok(m) => m,
            Err(error) => {
                log::debug!("{error}");
                self.out.line(&format!("Illegal move: {}", printable(text)));
                return;
            }
        };
        match self.mode {
            Mode::Pondering { expected } if expected == m && !self.paused => {
                self.push_move(m);
                if let Some(outcome) = self.game.outcome() {
                    self.abort_search();
                    self.out.line(outcome.result_line());
                    return;
                }
                log::debug!("ponder hit on {m}");
                self.mode = Mode::Thinking;
                self.think_started = Instant::now();
                let budget = self.time_budget();
                self.worker.ponder_hit(Some(budget));
            }
            Mode::Analyzing => {
                self.abort_search();
                self.push_move(m);
                self.start_analysis();
            }
            _ => {
                self.abort_search();
                self.push_move(m);
                if self.mode == Mode::Waiting
                    && !self.paused
                    && self.game.side_to_move() == self.engine_color
                {
                    self.start_thinking();
                }
            }
        }
    }

    fn push_move(&mut self, m: Move) {
        self.game.push(m);
        self.excluded.clear();
    }

    fn take_back(&mut self, plies: usize) {
        self.abort_search();
        let mut undone = 0;
        for _ in 0..plies {
            if self.game.pop().is_some() {
                undone += 1;
            }
        }
        if undone < plies {
            self.out.debug("no more moves to take back");
        }
        self.excluded.clear();
        self.hint = None;
        self.control_start_ply = self.control_start_ply.min(self.game.ply());
        if self.mode == Mode::Analyzing {
            self.start_analysis();
        }
    }

    fn exclude(&mut self, selection: MoveSelection, exclude: bool) {
        match selection {
            MoveSelection::All => {
                self.excluded.clear();
                if exclude {
                    let mut legal = MoveList::new();
                    legal_moves(self.game.position(), &mut legal);
                    self.excluded.extend(legal.iter().copied());
                }
            }
            MoveSelection::Move(text) => {
                let Ok(m) = parse_move(self.game.position(), &text) else {
                    self.out
                        .line(&format!("Illegal move: {}", printable(&text)));
                    return;
                };
                self.excluded.retain(|&e| e != m);
                if exclude {
                    self.excluded.push(m);
                }
            }
        }
        if self.mode == Mode::Analyzing && !self.paused {
            self.abort_search();
            self.start_analysis();
        }
    }

    fn send_hint(&mut self) {
        let hint = match self.mode {
            Mode::Pondering { expected } => Some(expected),
            _ => self
                .hint
                .filter(|(key, m)| {
                    *key == self.game.position().key() && is_legal(self.game.position(), *m)
                })
                .map(|(_, m)| m),
        };
        if let Some(m) = hint {
            self.out.line(&format!("Hint: {m}"));
        }
    }

    fn stat01(&mut self) {
        if self.mode != Mode::Analyzing {
            return;
        }
        let Some(status) = self.worker.status() else {
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
            line.push_str(&format!(" {}", status.current_move));
        }
        self.out.line(&line);
    }

    fn draw_offered(&mut self) {
        if self.is_thinking() {
            // Decided with the score of the search now running, just before its move.
            self.draw_offer_pending = true;
        } else if self.mode != Mode::Observing && self.accepts_draw(self.last_score) {
            self.out.line("offer draw");
        }
    }

    fn pause(&mut self) {
        if self.paused {
            return;
        }
        self.paused = true;
        if self.mode == Mode::Thinking {
            let used = self.think_started.elapsed().as_millis();
            self.own_time_ms = self.own_time_ms.saturating_sub(used as i64);
        }
        self.worker.stop();
        self.generation += 1;
    }

    fn resume(&mut self) {
        if !self.paused {
            return;
        }
        self.paused = false;
        match self.mode {
            Mode::Thinking => self.start_thinking(),
            Mode::Pondering { expected } => self.start_pondering(expected),
            Mode::Analyzing => self.start_analysis(),
            Mode::Observing | Mode::Waiting => {}
        }
    }

    // -----------------------------------------------------------------------------------
    // Searches

    /// Stops whatever runs and makes its reports stale. An own or ponder search ends in
    /// `Waiting`; analysis stays `Analyzing` (the caller restarts or leaves it).
    fn abort_search(&mut self) {
        self.worker.stop();
        self.generation += 1;
        if matches!(self.mode, Mode::Thinking | Mode::Pondering { .. }) {
            self.mode = Mode::Waiting;
        }
    }

    fn launch(
        &mut self,
        position: Position,
        history: Vec<u64>,
        limits: SearchLimits,
        ponder: bool,
    ) {
        self.generation += 1;
        log::debug!(
            "search {} ({:?}): {} limits {:?}",
            self.generation,
            self.mode,
            position.to_fen(),
            limits
        );
        self.worker.start(SearchJob {
            generation: self.generation,
            position,
            history,
            limits,
            ponder,
        });
    }

    /// Think about the engine's move, or claim the result if the game is already over.
    fn start_thinking(&mut self) {
        if let Some(outcome) = self.game.outcome() {
            self.out.line(outcome.result_line());
            self.mode = Mode::Waiting;
            return;
        }
        self.mode = Mode::Thinking;
        self.think_started = Instant::now();
        let budget = self.time_budget();
        let (time, nodes) = if self.nps > 0 {
            let nodes = (u128::from(budget.soft_ms) * u128::from(self.nps) / 1000).max(1);
            (None, Some(u64::try_from(nodes).unwrap_or(u64::MAX)))
        } else {
            (Some(budget), None)
        };
        let limits = SearchLimits {
            depth: self.depth_limit,
            nodes,
            time,
            infinite: false,
            excluded: self.excluded.clone(),
            ..SearchLimits::default()
        };
        self.launch(
            self.game.position().clone(),
            self.game.history_keys(),
            limits,
            false,
        );
    }

    fn start_pondering(&mut self, expected: Move) {
        if !is_legal(self.game.position(), expected) {
            return;
        }
        let mut after = self.game.clone();
        after.push(expected);
        // Nothing to ponder if the expected reply ends the game (and a search of a position
        // without moves would return at once instead of waiting for the ponder hit).
        if after.outcome().is_some() {
            return;
        }
        self.mode = Mode::Pondering { expected };
        let limits = SearchLimits {
            depth: self.depth_limit,
            nodes: None,
            time: None,
            infinite: false,
            excluded: Vec::new(),
            ..SearchLimits::default()
        };
        self.launch(after.position().clone(), after.history_keys(), limits, true);
    }

    fn start_analysis(&mut self) {
        let mut legal = MoveList::new();
        legal_moves(self.game.position(), &mut legal);
        if legal.is_empty() {
            self.generation += 1;
            return;
        }
        let limits = SearchLimits {
            depth: None,
            nodes: None,
            time: None,
            infinite: true,
            excluded: self.excluded.clone(),
            ..SearchLimits::default()
        };
        self.launch(
            self.game.position().clone(),
            self.game.history_keys(),
            limits,
            false,
        );
    }

    fn time_budget(&self) -> TimeBudget {
        let made = self
            .game
            .moves_by_since(self.engine_color, self.control_start_ply);
        // `st` is a hard maximum per move: keep 2% more back for the stop's own latency
        // (a 1 s move measured 975 ms at the GUI in matches without it).
        let overhead = match self.time_control {
            TimeControl::FixedPerMove { ms } => self.options.move_overhead_ms + ms / 50,
            TimeControl::Conventional { .. } => self.options.move_overhead_ms,
        };
        self.time_control.budget(
            self.own_time_ms,
            u32::try_from(made).unwrap_or(u32::MAX),
            overhead,
        )
    }

    fn report(&mut self, report: SearchReport) {
        match report {
            SearchReport::Iteration { generation, info } => {
                if generation != self.generation || self.paused {
                    return;
                }
                match self.mode {
                    Mode::Thinking | Mode::Analyzing => self.thinking_line(&info, None),
                    Mode::Pondering { expected } => self.thinking_line(&info, Some(expected)),
                    Mode::Observing | Mode::Waiting => {}
                }
            }
            // XBoard has no current-move line (`stat01` polls instead).
            SearchReport::RootMove { .. } => {}
            SearchReport::Finished {
                generation,
                outcome,
            } => {
                if generation == self.generation && self.is_thinking() {
                    self.play(outcome);
                } else {
                    log::debug!(
                        "search {generation} finished ({}), not played (current {}, {:?})",
                        outcome.best_move,
                        self.generation,
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
        let centiseconds = if self.nps > 0 && self.mode == Mode::Thinking {
            u128::from(info.nodes) * 100 / u128::from(self.nps)
        } else {
            info.elapsed.as_millis() / 10
        };
        let mut pv: Vec<String> = expected.iter().map(Move::to_string).collect();
        pv.extend(info.pv.iter().map(Move::to_string));
        self.out.line(&format!(
            "{} {} {} {} {}",
            info.depth,
            protocol_score(info.score),
            centiseconds,
            info.nodes,
            pv.join(" ")
        ));
    }

    /// The own search finished: resign, answer a draw offer, move, claim, ponder.
    fn play(&mut self, outcome: SearchOutcome) {
        let position = self.game.position().clone();
        let mut best = outcome.best_move;
        if best.is_null() || !is_legal(&position, best) {
            let mut legal = MoveList::new();
            legal_moves(&position, &mut legal);
            if legal.is_empty() {
                log::error!("search returned no move in {}", position.to_fen());
                if let Some(result) = self.game.outcome() {
                    self.out.line(result.result_line());
                }
                self.mode = Mode::Waiting;
                return;
            }
            log::error!(
                "search returned {best} in {}; playing a legal move instead",
                position.to_fen()
            );
            best = legal.get(0);
        }
        let score = outcome.score;
        self.last_score = Some(score);
        self.mode = Mode::Waiting;

        if score < -self.options.resign_threshold {
            self.low_score_moves += 1;
        } else {
            self.low_score_moves = 0;
        }
        if self.options.resign && self.low_score_moves >= RESIGN_AFTER_MOVES {
            log::info!("resigning at score {score}");
            self.out.line("resign");
            self.mode = Mode::Observing;
            return;
        }
        if score.abs() <= LEVEL_SCORE {
            self.level_score_moves += 1;
        } else {
            self.level_score_moves = 0;
        }

        let mut offered = false;
        if std::mem::take(&mut self.draw_offer_pending) && self.accepts_draw(Some(score)) {
            self.out.line("offer draw");
            offered = true;
        }
        if !offered && self.wants_to_offer_draw() {
            self.out.line("offer draw");
            self.last_own_draw_offer = Some(self.game.ply());
            offered = true;
        }

        let used_ms = self.think_started.elapsed().as_millis();
        self.push_move(best);
        let result = self.game.outcome();
        // A draw our move makes claimable is claimed by offering it before the move
        // (the GUI judges the offer on the position after the move).
        if matches!(result, Some(Outcome::Repetition | Outcome::FiftyMoves)) && !offered {
            self.out.line("offer draw");
        }
        self.out.line(&format!("move {best}"));
        self.charge_clock(used_ms);
        if let Some(result) = result {
            self.out.line(result.result_line());
            return;
        }
        self.hint = outcome
            .ponder_move
            .map(|reply| (self.game.position().key(), reply));
        if self.ponder
            && self.nps == 0
            && let Some(reply) = outcome.ponder_move
        {
            self.start_pondering(reply);
        }
    }

    /// Keeps the own clock running between `time` commands (which, when sent, overwrite it).
    fn charge_clock(&mut self, used_ms: u128) {
        self.own_time_ms = self
            .own_time_ms
            .saturating_sub(i64::try_from(used_ms).unwrap_or(i64::MAX));
        if let TimeControl::Conventional {
            moves_per_session,
            base_ms,
            increment_ms,
        } = self.time_control
        {
            self.own_time_ms = self.own_time_ms.saturating_add(clamp_ms(increment_ms));
            let made = self
                .game
                .moves_by_since(self.engine_color, self.control_start_ply);
            if moves_per_session > 0 && made.is_multiple_of(moves_per_session as usize) {
                self.own_time_ms = self.own_time_ms.saturating_add(clamp_ms(base_ms));
            }
        }
    }

    // -----------------------------------------------------------------------------------
    // Draw policy

    /// Accept a draw offer when clearly worse, or level in a dead or repeating position.
    fn accepts_draw(&self, score: Option<i32>) -> bool {
        let Some(score) = score else {
            return false;
        };
        score <= ACCEPT_DRAW_BELOW || (score.abs() <= LEVEL_SCORE && self.drawish())
    }

    /// Offer a draw ourselves: only against a computer, late, after many level scores.
    fn wants_to_offer_draw(&self) -> bool {
        self.opponent_is_computer
            && self.game.position().fullmove_number() >= OFFER_DRAW_FROM_MOVE
            && self.level_score_moves >= OFFER_DRAW_AFTER_LEVEL_MOVES
            && self
                .last_own_draw_offer
                .is_none_or(|ply| self.game.ply() >= ply + DRAW_OFFER_INTERVAL)
    }

    fn drawish(&self) -> bool {
        let pos = self.game.position();
        if pos.is_insufficient_material()
            || self.game.repetition_count() >= 2
            || pos.halfmove_clock() >= 80
        {
            return true;
        }
        let heavy_or_pawns = pos.kind(PieceKind::Pawn) | pos.kind(PieceKind::Queen);
        let minor_or_rook_count =
            |color: Color| (pos.color(color) & !pos.kind(PieceKind::King)).count();
        heavy_or_pawns.is_empty()
            && minor_or_rook_count(Color::White) <= 1
            && minor_or_rook_count(Color::Black) <= 1
    }
}

/// The protocol's score: centipawns, or ±(100000 + N) for a mate in N moves.
pub fn protocol_score(score: i32) -> i64 {
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

/// The FEN of an edit-mode board: castling rights where king and rook stand on their home
/// squares, no en passant, clocks 0 1.
fn edit_fen(squares: &[Option<Piece>; 64], side: Color) -> String {
    let mut placement = String::new();
    for rank in (0..8u8).rev() {
        let mut empty = 0;
        for file in 0..8u8 {
            match squares[Square::from_file_rank(file, rank).index()] {
                Some(piece) => {
                    if empty > 0 {
                        placement.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    placement.push(piece.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            placement.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    let at = |file: u8, rank: u8| squares[Square::from_file_rank(file, rank).index()];
    let has = |file: u8, rank: u8, color: Color, kind: PieceKind| {
        at(file, rank) == Some(Piece::new(color, kind))
    };
    let mut castling = String::new();
    for (color, rank, letters) in [(Color::White, 0, ['K', 'Q']), (Color::Black, 7, ['k', 'q'])] {
        if has(4, rank, color, PieceKind::King) {
            if has(7, rank, color, PieceKind::Rook) {
                castling.push(letters[0]);
            }
            if has(0, rank, color, PieceKind::Rook) {
                castling.push(letters[1]);
            }
        }
    }
    if castling.is_empty() {
        castling.push('-');
    }
    format!("{placement} {} {castling} - 0 1", side.letter())
}

/// Replaces control characters so an echoed text stays on one line.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

fn clamp_ms(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

fn base_ms(control: TimeControl) -> i64 {
    match control {
        TimeControl::Conventional { base_ms, .. } => clamp_ms(base_ms),
        TimeControl::FixedPerMove { ms } => clamp_ms(ms),
    }
}

/// `memory N` is capped by half the available memory (a failed allocation would abort).
fn clamp_hash_mb(requested: u64) -> usize {
    let available_mb = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map_or(4096, |kb| kb / 1024);
    let cap = (available_mb / 2).clamp(1, 1 << 20);
    usize::try_from(requested.clamp(1, cap)).unwrap_or(1)
}

/// `cores N` is capped by the processors this machine has.
pub fn clamp_threads(requested: u64) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    usize::try_from(requested)
        .unwrap_or(usize::MAX)
        .clamp(1, cores.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    #[test]
    fn scores_in_protocol_units() {
        assert_eq!(protocol_score(35), 35);
        assert_eq!(protocol_score(-120), -120);
        assert_eq!(protocol_score(MATE - 1), 100_001);
        assert_eq!(protocol_score(MATE - 3), 100_002);
        assert_eq!(protocol_score(-(MATE - 2)), -100_001);
        assert_eq!(protocol_score(-(MATE - 4)), -100_002);
    }

    #[test]
    fn edit_board_fen_with_castling() {
        let pos = Position::startpos();
        let mut squares = [None; 64];
        for sq in Square::all() {
            squares[sq.index()] = pos.piece_at(sq);
        }
        assert_eq!(
            edit_fen(&squares, Color::White),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        squares[Square::parse("h1").unwrap().index()] = None;
        squares[Square::parse("e8").unwrap().index()] = None;
        squares[Square::parse("d8").unwrap().index()] =
            Some(Piece::new(Color::Black, PieceKind::King));
        let fen = edit_fen(&squares, Color::Black);
        assert!(fen.ends_with(" b Q - 0 1"), "{fen}");
    }

    #[test]
    fn thread_and_hash_caps() {
        assert_eq!(clamp_threads(0), 1);
        assert!(clamp_threads(100_000) >= 1);
        assert_eq!(clamp_hash_mb(0), 1);
        assert!(clamp_hash_mb(u64::MAX) >= 1);
    }
}
