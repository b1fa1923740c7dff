//! The engine core both protocol rooms stand on: it owns the game record, the settings and
//! the search thread, starts, ponders and stops searches under generation numbers and drops
//! reports from searches it has abandoned. It knows no protocol text: `xboard` and `uci` turn
//! their commands (their clocks too) into these calls and `SearchLimits`, and word the replies.

pub(crate) mod book;
pub mod limits;
pub(crate) mod options;
pub(crate) mod policy;
pub(crate) mod strength;

use std::io::BufRead;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use crate::board::Color;
use crate::board::game::{Game, Outcome};
use crate::board::{Move, MoveList, Position, is_legal, legal_moves, to_san};
use crate::logging::InputEcho;
use crate::search::worker::{SearchJob, SearchReport, SearchWorker};
use crate::search::{
    RootMoveInfo, ScoreBound, SearchInfo, SearchLimits, SearchOutcome, SearchStatus, Searcher,
    TimeLimit, score,
};
use limits::MAX_THREADS;
use options::{EngineOptions, Notice, OptionEffect, clamp_threads};
use policy::DrawResignPolicy;
use rand::SeedableRng;
use rand::rngs::StdRng;

/// Everything a protocol session reacts to, in one channel: the reader thread's lines and
/// the search thread's reports.
#[derive(Debug)]
pub(crate) enum Event {
    /// One line from stdin, without its line ending (invalid UTF-8 replaced).
    Line(String),
    /// stdin closed: the GUI is gone.
    Eof,
    Search(SearchReport),
}

/// What a session says after each event: go on, or end (`quit`, the end of input).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    Continue,
    Quit,
}

/// What a running search is for (its Debug form names searches in the log, where the
/// real-client tests count `(Pondering {`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SearchKind {
    /// The engine's own move, on the clock.
    Thinking,
    /// The opponent's time, on the position after the `expected` reply; no clock until
    /// `ponder_hit`.
    Pondering { expected: Move },
    /// Until stopped, never played.
    Analyzing,
}

/// A report of the current search (stale ones never get this far).
#[derive(Clone, Debug)]
pub(crate) enum Report {
    /// Thinking lines, the first `fresh` new, the rest earlier lines under new numbers.
    Lines {
        lines: Vec<SearchInfo>,
        fresh: usize,
    },
    /// The root move now searched (after the search's first second).
    RootMove(RootMoveInfo),
    Finished(SearchOutcome),
}

/// What `think` or `go` set going.
#[derive(Clone, Debug)]
pub(crate) enum Started {
    /// A search with these limits; its reports follow.
    Search(SearchLimits),
    /// A move of the own book, taken without a search: nothing follows, play it now.
    Book(BookChoice),
}

/// The own book's move for the position on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BookChoice {
    pub(crate) mv: Move,
    pub(crate) weight: u16,
    /// The weights of all the book's moves for the position, and how many there are.
    pub(crate) total_weight: u32,
    pub(crate) moves: usize,
}

impl BookChoice {
    /// The book move as a finished search without a score, for the path every own move
    /// takes (`choose_move`, the draw and resign policy, the clock).
    pub(crate) fn outcome(&self) -> SearchOutcome {
        SearchOutcome {
            best_move: self.mv,
            ponder_move: None,
            score: -score::INFINITY,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            hashfull: 0,
            tbhits: 0,
            lines: Vec::new(),
        }
    }
}

/// The own move chosen from a finished search, checked against the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ChosenMove {
    pub(crate) best: Move,
    /// `None` when the search was stopped before it scored any move.
    pub(crate) score: Option<i32>,
    pub(crate) ponder: Option<Move>,
}

pub(crate) struct Engine {
    worker: SearchWorker,
    game: Game,
    options: EngineOptions,
    policy: DrawResignPolicy,
    /// The generation of the search whose reports count; bumped whenever a search is
    /// abandoned or replaced.
    generation: u64,
    /// When the current own search (or its ponder hit) started, for a game clock.
    think_started: Instant,
    /// Root moves not to search, for the position on the board.
    excluded: Vec<Move>,
    /// The expected reply after our last move: (key of the position it applies to, move).
    hint: Option<(u64, Move)>,
    /// XBoard `random`: choose among near-best moves (a toggle, off after `new`).
    random: bool,
    /// This game's source for `random`, Skill Level and book choices.
    rng: StdRng,
    /// What the protocol should tell the user about the book (it was found damaged).
    book_notice: Option<String>,
}

/// Starts the two threads a session listens to, both sending into one channel: the reader
/// of stdin and the search worker. Returns the core and the channel's receiving end.
pub(crate) fn start(options: EngineOptions) -> Option<(Engine, Receiver<Event>)> {
    let (events, inbox) = channel::<Event>();
    let reader_events = events.clone();
    let spawned = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_lines(std::io::stdin().lock(), &reader_events));
    if let Err(e) = spawned {
        log::error!("cannot start the input thread: {e}");
        return None;
    }
    let options = EngineOptions {
        hash_mb: options.hash_mb.max(1),
        threads: options.threads.max(1),
        ..options
    };
    let searcher = Searcher::new(options.hash_mb, options.threads);
    let worker = SearchWorker::spawn(searcher, move |report| {
        let _ = events.send(Event::Search(report));
    });
    let mut engine = Engine::new(worker, options);
    engine.apply_search_features();
    Some((engine, inbox))
}

/// The input thread: only reads lines (invalid UTF-8 is replaced, not fatal) and forwards
/// them; the end of input becomes `Event::Eof`.
pub(crate) fn read_lines(mut input: impl BufRead, events: &Sender<Event>) {
    let mut buffer = Vec::new();
    let mut echo = InputEcho::default();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) => break,
            Ok(_) => {
                let text = String::from_utf8_lossy(&buffer);
                let line = text.trim_end_matches(['\n', '\r']);
                log::debug!("<< {}", echo.text(line));
                if events.send(Event::Line(line.to_string())).is_err() {
                    return;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("cannot read stdin: {e}");
                break;
            }
        }
    }
    log::debug!("<< (end of input)");
    let _ = events.send(Event::Eof);
}

impl Engine {
    pub(crate) fn new(worker: SearchWorker, options: EngineOptions) -> Engine {
        let mut engine = Engine {
            worker,
            game: Game::default(),
            options,
            policy: DrawResignPolicy::default(),
            generation: 0,
            think_started: Instant::now(),
            excluded: Vec::new(),
            hint: None,
            random: false,
            rng: StdRng::seed_from_u64(0),
            book_notice: None,
        };
        engine.reseed();
        engine
    }

    pub(crate) fn game(&self) -> &Game {
        &self.game
    }

    /// The settings in force; they change only through `set_option` and the setters below.
    pub(crate) fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// The draw and resign bookkeeping of this game.
    pub(crate) fn policy(&self) -> &DrawResignPolicy {
        &self.policy
    }

    pub(crate) fn position(&self) -> &Position {
        self.game.position()
    }

    // -----------------------------------------------------------------------------------
    // The game record

    /// A new game from the start position: searches stopped, table cleared, what was learnt
    /// forgotten.
    pub(crate) fn new_game(&mut self) {
        self.abort();
        self.game = Game::default();
        self.excluded.clear();
        self.worker.clear();
        self.hint = None;
        self.policy = DrawResignPolicy::default();
        self.random = false;
        self.reseed();
    }

    /// A new seed for this game's move choices: `Random Seed`, or the clock when it is 0.
    pub(crate) fn reseed(&mut self) {
        let seed = match self.options.random_seed {
            0 => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64),
            seed => seed,
        };
        log::debug!("move choice seed {seed}");
        self.rng = StdRng::seed_from_u64(seed);
    }

    /// The Skill Level in force: `UCI_Elo`'s under `UCI_LimitStrength`, else Skill Level;
    /// `None` at full strength.
    fn skill_level(&self) -> Option<u32> {
        let level = if self.options.limit_strength {
            strength::level_for_elo(self.options.elo)
        } else {
            self.options.skill_level
        };
        (level < strength::MAX_SKILL_LEVEL).then_some(level)
    }

    /// How far below the best score a played move may be, if the engine chooses at all.
    fn choice_margin(&self) -> Option<i32> {
        if let Some(level) = self.skill_level() {
            return Some(strength::level_margin(level));
        }
        let random = if self.random {
            self.options.randomize_cp.max(strength::RANDOM_DEFAULT_CP)
        } else {
            self.options.randomize_cp
        };
        (random > 0).then_some(random as i32)
    }

    /// The one place a search's limits are made: the protocol's `limits` plus what the engine
    /// keeps (the excluded root moves, Multi-PV, the move overhead, whether it ponders) and,
    /// for a search whose move will be played, Skill Level's caps and the root lines a
    /// choice needs.
    fn search_limits(&self, kind: &SearchKind, limits: SearchLimits) -> SearchLimits {
        let ponder = matches!(kind, SearchKind::Pondering { .. });
        let mut limits = SearchLimits {
            // `exclude` names moves of the board's position, not of the one pondered on.
            excluded: if ponder {
                Vec::new()
            } else {
                self.excluded.clone()
            },
            multipv: self.options.multipv,
            move_overhead_ms: self.options.move_overhead_ms,
            ponder,
            ..limits
        };
        // An infinite search is analysis, never played: full strength.
        if limits.infinite {
            return limits;
        }
        if let Some(level) = self.skill_level() {
            let depth = strength::level_depth(level);
            let nodes = strength::level_nodes(level);
            limits.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)));
            limits.nodes = Some(limits.nodes.map_or(nodes, |n| n.min(nodes)));
        }
        if self.choice_margin().is_some() {
            limits.multipv = limits.multipv.max(strength::CHOICE_LINES);
        }
        limits
    }

    /// A new game record from `position` (setboard, edit mode, a side switch).
    pub(crate) fn set_position(&mut self, position: Position) {
        self.game = Game::new(position);
        self.excluded.clear();
        self.hint = None;
    }

    /// A new game record: `start` and then `moves`, which must be legal (UCI's `position`).
    /// A GUI sends the whole game before each move: the log gets only the moves past the
    /// ones the record had, so a game's log grows with its length, not its square.
    pub(crate) fn set_game(&mut self, start: Position, moves: &[Move]) {
        let known = if *self.game.start() == start && moves.starts_with(self.game.moves()) {
            self.game.ply()
        } else {
            0
        };
        self.set_position(start);
        for &m in &moves[..known] {
            self.game.push(m);
        }
        for &m in &moves[known..] {
            self.push_move(m);
        }
    }

    /// Plays `m`, which must be legal on the board; the log gets it in SAN (`O-O` for any
    /// castling, whatever the protocol wrote).
    pub(crate) fn push_move(&mut self, m: Move) {
        if log::log_enabled!(log::Level::Debug) {
            let position = self.game.position();
            let number = position.fullmove_number();
            let dots = if position.side_to_move() == Color::White {
                "."
            } else {
                "..."
            };
            log::debug!("played {number}{dots} {}", to_san(position, m));
        }
        self.game.push(m);
        self.excluded.clear();
    }

    /// Takes back up to `plies` moves; returns how many there were.
    pub(crate) fn take_back(&mut self, plies: usize) -> usize {
        let mut undone = 0;
        for _ in 0..plies {
            if self.game.pop().is_some() {
                undone += 1;
            }
        }
        self.excluded.clear();
        self.hint = None;
        undone
    }

    /// The reply the engine expects to the position on the board, if it has one.
    pub(crate) fn hint(&self) -> Option<Move> {
        self.hint
            .filter(|(key, m)| *key == self.position().key() && is_legal(self.position(), *m))
            .map(|(_, m)| m)
    }

    // -----------------------------------------------------------------------------------
    // Excluded root moves

    /// Excludes (or includes again) one root move of the position on the board.
    pub(crate) fn exclude(&mut self, m: Move, exclude: bool) {
        self.excluded.retain(|&e| e != m);
        if exclude {
            self.excluded.push(m);
        }
    }

    /// Excludes every root move, or none.
    pub(crate) fn exclude_all(&mut self, exclude: bool) {
        self.excluded.clear();
        if exclude {
            let mut legal = MoveList::new();
            legal_moves(self.position(), &mut legal);
            self.excluded.extend(legal.iter().copied());
        }
    }

    // -----------------------------------------------------------------------------------
    // Settings carried out by the search thread

    pub(crate) fn set_hash_mb(&mut self, requested: u64) -> usize {
        let size = crate::engine::limits::cap_hash_mb(requested);
        // Logged, not sent: protocol-1 GUIs (Knights) read any stray line as a move.
        if let Some(note) = &size.note {
            log::warn!("{note}");
        }
        log::info!("hash: {} MB", size.mb);
        self.worker.set_hash_mb(size.mb);
        self.options.hash_mb = size.mb;
        size.mb
    }

    /// Search threads as asked, up to the search's cap: more than the processors is the
    /// user's (or tester's) choice, and the clock holds (every thread watches the hard time
    /// limit); XBoard's `cores`, a cap by definition, is brought within them first.
    pub(crate) fn set_threads(&mut self, requested: u64) -> usize {
        let n = usize::try_from(requested.clamp(1, MAX_THREADS)).unwrap_or(1);
        let processors = clamp_threads(u64::MAX);
        if n > processors {
            log::warn!("threads: {n} on {processors} processors");
        } else {
            log::info!("threads: {n}");
        }
        self.worker.set_threads(n);
        self.options.threads = n;
        n
    }

    pub(crate) fn clear_hash(&mut self) {
        self.worker.clear();
    }

    /// The messages the last settings left for the user (tables loaded or left out).
    pub(crate) fn take_notices(&mut self) -> Vec<Notice> {
        std::mem::take(&mut self.options.notices)
    }

    /// Hands `options.search` to the search thread.
    fn apply_search_features(&mut self) {
        self.worker.set_features(self.options.search.clone());
    }

    /// The one door for an option by name: `set` (a protocol's reading of its value) changes
    /// the settings and answers what the change needs, which is then carried out; on an error
    /// nothing changed.
    pub(crate) fn set_option<E>(
        &mut self,
        name: &str,
        set: impl FnOnce(&mut EngineOptions) -> Result<OptionEffect, E>,
    ) -> Result<(), E> {
        let effect = set(&mut self.options)?;
        self.apply_option(name, effect);
        Ok(())
    }

    /// XBoard `hard` and `easy`: think on the opponent's time or not.
    pub(crate) fn set_ponder(&mut self, on: bool) {
        self.options.ponder = on;
    }

    /// XBoard's variant (`fischerandom` or `normal`; `new` goes back to normal).
    pub(crate) fn set_chess960(&mut self, on: bool) {
        self.options.chess960 = on;
    }

    /// XBoard `random`: a toggle; returns the new state.
    pub(crate) fn toggle_random(&mut self) -> bool {
        self.random = !self.random;
        self.random
    }

    /// XBoard `computer`: the opponent is a program (draw offers then follow its rules).
    pub(crate) fn set_opponent_is_computer(&mut self) {
        self.policy.opponent_is_computer = true;
    }

    /// Records the own finished search's `score` with the policy; true if the engine resigns
    /// (the `Resign` and `Resign Threshold` options decide).
    pub(crate) fn record_search(&mut self, score: Option<i32>) -> bool {
        let (resign, threshold) = (self.options.resign, self.options.resign_threshold);
        self.policy.record_search(score, resign, threshold)
    }

    /// A draw offer was sent at the current ply.
    pub(crate) fn offered_draw(&mut self) {
        self.policy.offered_draw(self.game.ply());
    }

    /// Carries out what an option's new value asks for (the value is in `options` already).
    fn apply_option(&mut self, name: &str, effect: OptionEffect) {
        log::info!("option {name} set");
        match effect {
            OptionEffect::Nothing => {}
            OptionEffect::Hash => {
                self.set_hash_mb(self.options.hash_mb as u64);
            }
            OptionEffect::Threads => {
                self.set_threads(self.options.threads as u64);
            }
            OptionEffect::ClearHash => self.clear_hash(),
            OptionEffect::SearchFeatures => self.apply_search_features(),
            OptionEffect::LogLimits => crate::logging::set_limits(self.options.log_limits),
            OptionEffect::Reseed => self.reseed(),
        }
    }

    /// Waits (at most `timeout`) for the search thread to carry out what was sent to it (a
    /// table clear or resize); returns whether it got there.
    pub(crate) fn wait_idle(&self, timeout: Duration) -> bool {
        self.worker.wait_idle(timeout)
    }

    /// Live numbers of the running search.
    pub(crate) fn status(&self) -> Option<SearchStatus> {
        self.worker.status()
    }

    // -----------------------------------------------------------------------------------
    // Searches

    /// Stops whatever runs and makes its reports stale.
    pub(crate) fn abort(&mut self) {
        self.worker.stop();
        self.generation += 1;
    }

    /// Stops the running search; its result still counts (move now).
    pub(crate) fn stop(&self) {
        self.worker.stop();
    }

    /// The engine's move in the position on the board: from the own book if it has one,
    /// else a search within the protocol's `limits` (depth and time).
    pub(crate) fn think(&mut self, limits: SearchLimits) -> Started {
        self.think_started = Instant::now();
        if let Some(choice) = self.book_move() {
            return Started::Book(choice);
        }
        Started::Search(self.launch(
            SearchKind::Thinking,
            self.game.position().clone(),
            self.game.history_keys(),
            limits,
        ))
    }

    /// The own book's move for the position on the board, when `OwnBook` is on, a book is
    /// loaded, the game is within `Book Depth` and the book has a legal move of some weight.
    /// A book with an illegal move for the position is turned off (`take_book_notice` says so).
    fn book_move(&mut self) -> Option<BookChoice> {
        let options = &self.options;
        let position = self.game.position();
        let ply = 2 * (u32::from(position.fullmove_number()).max(1) - 1)
            + u32::from(position.side_to_move() == Color::Black);
        if !options.own_book || ply >= options.book_depth {
            return None;
        }
        let book = options.book.as_ref()?;
        let moves = match book.moves(position) {
            Ok(moves) => moves,
            Err(illegal) => {
                let notice = format!("book {} turned off: {illegal}", self.options.book_file);
                log::warn!("{notice}");
                self.book_notice = Some(notice);
                self.options.book = None;
                self.options.book_file = options::NO_BOOK.to_string();
                return None;
            }
        };
        let chosen = book::choose(&moves, options.book_best_move, &mut self.rng);
        let Some(chosen) = chosen else {
            log::debug!("out of book");
            return None;
        };
        let choice = BookChoice {
            mv: chosen.mv,
            weight: chosen.weight,
            total_weight: moves.iter().map(|m| u32::from(m.weight)).sum(),
            moves: moves.len(),
        };
        log::info!("book move {} ({choice:?})", chosen.mv);
        Some(choice)
    }

    /// The book's moves for the position on the board (XBoard's `bk`), whether or not
    /// `OwnBook` is on; `None` without a usable book.
    pub(crate) fn book_moves(&self) -> Option<Vec<book::BookMove>> {
        let book = self.options.book.as_ref()?;
        book.moves(self.game.position()).ok()
    }

    /// What the user should hear about the book since last asked (it was found damaged).
    pub(crate) fn take_book_notice(&mut self) -> Option<String> {
        self.book_notice.take()
    }

    /// Ponders on the position after `expected` within the protocol's `limits` (a depth;
    /// the time comes with the ponder hit); returns false (and starts nothing) when that
    /// move is illegal or ends the game.
    pub(crate) fn ponder(&mut self, expected: Move, limits: SearchLimits) -> bool {
        if !is_legal(self.game.position(), expected) {
            return false;
        }
        let mut after = self.game.clone();
        after.push(expected);
        // Nothing to ponder if the expected reply ends the game (and a search of a position
        // without moves would return at once instead of waiting for the ponder hit).
        if after.outcome().is_some() {
            return false;
        }
        self.launch(
            SearchKind::Pondering { expected },
            after.position().clone(),
            after.history_keys(),
            limits,
        );
        true
    }

    /// The expected move was played: the ponder search goes on as a timed search, on `time`
    /// or else the time its limits gave.
    pub(crate) fn ponder_hit(&mut self, time: Option<TimeLimit>) {
        self.think_started = Instant::now();
        self.worker.ponder_hit(time);
    }

    /// Milliseconds since the own search (or its ponder hit) started.
    pub(crate) fn thinking_ms(&self) -> u128 {
        self.think_started.elapsed().as_millis()
    }

    /// Analyzes the position on the board until stopped; nothing runs if it has no moves.
    pub(crate) fn analyze(&mut self) {
        let mut legal = MoveList::new();
        legal_moves(self.game.position(), &mut legal);
        if legal.is_empty() {
            self.generation += 1;
            return;
        }
        self.launch(
            SearchKind::Analyzing,
            self.game.position().clone(),
            self.game.history_keys(),
            SearchLimits {
                infinite: true,
                ..SearchLimits::default()
            },
        );
    }

    /// Starts the search a UCI `go` asks for (`limits` as the protocol stated them: time,
    /// depth, nodes, mate, root moves, infinite, ponder); returns its limits (for `debug on`).
    /// A `go` for a move to play (not pondering, analysing, a mate search or a choice among
    /// `searchmoves`) takes the own book's move first, as `think` does. Unlike `think` and
    /// `analyze` it always starts a search otherwise, even without a legal move (the search
    /// then ends at once with none), so every `go` gets its report.
    pub(crate) fn go(&mut self, limits: SearchLimits) -> Started {
        self.think_started = Instant::now();
        let kind = if limits.ponder {
            SearchKind::Pondering {
                expected: self.game.moves().last().copied().unwrap_or(Move::NULL),
            }
        } else if limits.infinite {
            SearchKind::Analyzing
        } else {
            SearchKind::Thinking
        };
        if kind == SearchKind::Thinking
            && limits.only.is_empty()
            && limits.mate.is_none()
            && let Some(choice) = self.book_move()
        {
            return Started::Book(choice);
        }
        Started::Search(self.launch(
            kind,
            self.game.position().clone(),
            self.game.history_keys(),
            limits,
        ))
    }

    /// Starts a search of `kind` within the protocol's `limits`; returns the limits it runs
    /// with.
    fn launch(
        &mut self,
        kind: SearchKind,
        position: Position,
        history: Vec<u64>,
        limits: SearchLimits,
    ) -> SearchLimits {
        let limits = self.search_limits(&kind, limits);
        self.generation += 1;
        log::debug!(
            "search {} ({kind:?}): {}; {}",
            self.generation,
            position.to_fen(),
            limits
        );
        self.worker.start(
            SearchJob {
                generation: self.generation,
                position,
                history,
                limits: limits.clone(),
            },
            &self.options.search.params,
        );
        limits
    }

    /// The report if it comes from the current search; a stale one is logged and dropped.
    pub(crate) fn accept(&self, report: SearchReport) -> Option<Report> {
        match report {
            SearchReport::Lines {
                generation,
                lines,
                fresh,
            } => (generation == self.generation).then_some(Report::Lines { lines, fresh }),
            SearchReport::RootMove { generation, info } => {
                (generation == self.generation).then_some(Report::RootMove(info))
            }
            SearchReport::Finished {
                generation,
                outcome,
            } => {
                if generation == self.generation {
                    Some(Report::Finished(outcome))
                } else {
                    log::debug!(
                        "search {generation} finished ({}), stale (current {})",
                        outcome.best_move,
                        self.generation
                    );
                    None
                }
            }
        }
    }

    /// The move to play from a finished own search: its best move, or any legal move if
    /// that is missing or illegal (logged); `None` when the board has no legal move.
    /// With `random`, Randomize or a Skill Level below 20 it is one of the search's root
    /// lines within the margin, drawn from this game's seed.
    pub(crate) fn choose_move(&mut self, outcome: &SearchOutcome) -> Option<ChosenMove> {
        let mut best = outcome.best_move;
        let mut score = outcome.real_score();
        let mut ponder = outcome.ponder_move;
        if let Some(margin) = self.choice_margin()
            && let Some(chosen) = strength::choose(&outcome.lines, margin, &mut self.rng)
            && chosen != best
        {
            log::info!(
                "playing {chosen} instead of {best} (margin {margin} cp, lines {:?})",
                outcome.lines
            );
            score = outcome
                .lines
                .iter()
                .find(|(mv, _)| *mv == chosen)
                .map(|&(_, s)| s);
            best = chosen;
            ponder = None;
        }
        let position = self.game.position();
        if best.is_null() || !is_legal(position, best) {
            let mut legal = MoveList::new();
            legal_moves(position, &mut legal);
            if legal.is_empty() {
                log::error!("search returned no move in {}", position.to_fen());
                return None;
            }
            log::error!(
                "search returned {best} in {}; playing a legal move instead",
                position.to_fen()
            );
            best = legal.get(0);
        }
        Some(ChosenMove {
            best,
            score,
            ponder,
        })
    }

    /// The thinking line that shows `chosen` when it is not the search's best move (a
    /// Skill Level, Randomize or `random` choice), sent just before the move so that the last
    /// line starts with the move played; `None` when it is the best move.
    pub(crate) fn played_line(outcome: &SearchOutcome, chosen: &ChosenMove) -> Option<SearchInfo> {
        if chosen.best == outcome.best_move {
            return None;
        }
        Some(SearchInfo {
            depth: outcome.depth,
            selective_depth: outcome.depth,
            multipv: 1,
            score: chosen.score?,
            bound: ScoreBound::Exact,
            elapsed: outcome.elapsed,
            nodes: outcome.nodes,
            hashfull: outcome.hashfull,
            tbhits: outcome.tbhits,
            pv: vec![chosen.best],
        })
    }

    /// Plays the engine's chosen move on the board; returns the result it brings, if any.
    pub(crate) fn play_own_move(&mut self, chosen: ChosenMove) -> Option<Outcome> {
        self.push_move(chosen.best);
        let result = self.game.outcome();
        if result.is_none() {
            self.hint = chosen.ponder.map(|reply| (self.position().key(), reply));
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_splits_lines_and_survives_bad_utf8() {
        let (tx, rx) = channel();
        let input: &[u8] = b"xboard\r\nping \xff1\nlast";
        read_lines(input, &tx);
        let lines: Vec<String> = rx
            .try_iter()
            .map(|e| match e {
                Event::Line(l) => l,
                Event::Eof => "EOF".to_string(),
                Event::Search(_) => "search".to_string(),
            })
            .collect();
        assert_eq!(lines, ["xboard", "ping \u{fffd}1", "last", "EOF"]);
    }
}
