//! The in-process harness both protocols' session tests share: lines go in, what the
//! session writes comes out, and the search thread is either a recorder (the test makes up
//! the search reports, so no clock is waited on) or a real one on a small table.

use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::board::{Move, Position, parse_move};
use crate::engine::options::EngineOptions;
use crate::engine::{Engine, Event, Flow};
use crate::protocol::output::{Captured, Output};
use crate::search::worker::{Recorded, SearchJob, SearchReport, SearchWorker};
use crate::search::{
    ScoreBound, SearchControl, SearchInfo, SearchLimits, SearchOutcome, SearchParams, Searcher,
    TimeBudget,
};

/// A protocol session as the harness drives it.
pub(crate) trait DrivenSession {
    fn start(engine: Engine, out: Output) -> Self;
    fn handle(&mut self, event: Event) -> Flow;
    fn engine(&self) -> &Engine;
}

/// Lets the harness drive a protocol's `Session` (each has `new(engine, out, warning)`,
/// `handle` and an `engine` field), and names the harness `Harness`; used in the session's
/// own test module, which may see the field.
macro_rules! drive_session {
    ($session:ident) => {
        impl $crate::protocol::harness::DrivenSession for $session {
            fn start(engine: Engine, out: Output) -> $session {
                $session::new(engine, out, None)
            }
            fn handle(&mut self, event: Event) -> Flow {
                $session::handle(self, event)
            }
            fn engine(&self) -> &Engine {
                &self.engine
            }
        }

        type Harness = $crate::protocol::harness::Harness<$session>;
    };
}
pub(crate) use drive_session;

/// Where the search thread's work goes.
enum SearchThread {
    /// Recorded; reports come only from the test.
    Recording(Arc<Mutex<Vec<Recorded>>>),
    /// Searched; the reports wait here until the test hands them to the session.
    Searching(Receiver<SearchReport>),
}

pub(crate) struct Harness<S> {
    pub(crate) session: S,
    out: Captured,
    search: SearchThread,
}

/// What the session asked the search thread to do, in a form a test can compare.
pub(crate) struct Job {
    pub(crate) generation: u64,
    pub(crate) fen: String,
    pub(crate) limits: SearchLimits,
    pub(crate) ponder: bool,
}

impl Job {
    /// The time budget the search runs on, by the default time factors.
    pub(crate) fn budget(&self) -> Option<TimeBudget> {
        SearchControl::new(self.limits.clone(), &SearchParams::DEFAULT)
            .budget()
            .1
    }
}

impl From<SearchJob> for Job {
    fn from(job: SearchJob) -> Job {
        Job {
            generation: job.generation,
            fen: job.position.to_fen(),
            ponder: job.limits.ponder,
            limits: job.limits,
        }
    }
}

/// How long a real search in a test may take before the test fails.
const SEARCH_TIMEOUT: Duration = Duration::from_secs(30);

impl<S: DrivenSession> Harness<S> {
    /// A session whose search thread records what it is sent.
    pub(crate) fn new() -> Harness<S> {
        let (worker, recorded) = SearchWorker::recording();
        Harness::with(worker, SearchThread::Recording(recorded))
    }

    /// A session whose search thread really searches (1 MB table, one thread).
    pub(crate) fn searching() -> Harness<S> {
        let (reports, inbox) = channel();
        let worker = SearchWorker::spawn(Searcher::new(1, 1), move |report| {
            let _ = reports.send(report);
        });
        Harness::with(worker, SearchThread::Searching(inbox))
    }

    fn with(worker: SearchWorker, search: SearchThread) -> Harness<S> {
        let out = Captured::default();
        let engine = Engine::new(worker, EngineOptions::default());
        Harness {
            session: S::start(engine, out.output()),
            out,
            search,
        }
    }

    /// Sends each line of `lines` (one command a line); the last line's flow.
    pub(crate) fn send(&mut self, lines: &str) -> Flow {
        let mut flow = Flow::Continue;
        for line in lines.lines() {
            flow = self.session.handle(Event::Line(line.trim().to_string()));
        }
        flow
    }

    /// The lines written since the last call.
    pub(crate) fn output(&mut self) -> Vec<String> {
        self.out.take_lines()
    }

    /// Waits until the recorder has seen everything sent so far, then returns what it was
    /// sent since the last call.
    pub(crate) fn recorded(&mut self) -> Vec<Recorded> {
        assert!(self.session.engine().wait_idle(Duration::from_secs(10)));
        match &self.search {
            SearchThread::Recording(recorded) => std::mem::take(&mut *recorded.lock().unwrap()),
            SearchThread::Searching(_) => panic!("a searching harness records nothing"),
        }
    }

    /// The searches started since the last call.
    pub(crate) fn jobs(&mut self) -> Vec<Job> {
        self.recorded()
            .into_iter()
            .filter_map(|entry| match entry {
                Recorded::Search(job) => Some(Job::from(*job)),
                _ => None,
            })
            .collect()
    }

    /// The one search started since the last call.
    pub(crate) fn job(&mut self) -> Job {
        let mut jobs = self.jobs();
        assert_eq!(jobs.len(), 1, "expected one search");
        jobs.pop().unwrap()
    }

    /// A finished report from search `generation` on `fen`: `best` (and the `ponder` reply)
    /// with `score`.
    pub(crate) fn finish(
        &mut self,
        generation: u64,
        fen: &str,
        best: &str,
        ponder: Option<&str>,
        score: i32,
    ) {
        let position = Position::from_fen(fen).unwrap();
        let best_move = parse_move(&position, best).unwrap();
        let ponder_move =
            ponder.map(|text| parse_move(&position.make_move(best_move), text).unwrap());
        let outcome = SearchOutcome {
            best_move,
            ponder_move,
            score,
            depth: 5,
            nodes: 1000,
            tbhits: 0,
            elapsed: Duration::from_millis(10),
            hashfull: 0,
            lines: vec![(best_move, score)],
        };
        self.session.handle(Event::Search(SearchReport::Finished {
            generation,
            outcome,
        }));
    }

    /// Takes the one search started since the last call and answers it with `best`; the
    /// lines written.
    pub(crate) fn answer(&mut self, best: &str, ponder: Option<&str>, score: i32) -> Vec<String> {
        let job = self.job();
        assert!(!job.ponder && !job.limits.infinite);
        self.finish(job.generation, &job.fen, best, ponder, score);
        self.output()
    }

    /// An iteration report from search `generation`: depth, score and PV.
    pub(crate) fn iteration(&mut self, generation: u64, depth: u32, score: i32, pv: &[Move]) {
        let info = SearchInfo {
            depth,
            selective_depth: depth,
            multipv: 1,
            score,
            bound: ScoreBound::Exact,
            elapsed: Duration::from_millis(1230),
            nodes: 4567,
            hashfull: 0,
            tbhits: 0,
            pv: pv.to_vec(),
        };
        self.session.handle(Event::Search(SearchReport::Lines {
            generation,
            lines: vec![info],
            fresh: 1,
        }));
    }

    /// Waits until the real search has ended by itself, then hands the session every report
    /// it sent.
    pub(crate) fn settle(&mut self) {
        assert!(self.session.engine().wait_idle(SEARCH_TIMEOUT));
        let SearchThread::Searching(inbox) = &self.search else {
            panic!("a recording harness has no reports of its own");
        };
        while let Ok(report) = inbox.try_recv() {
            self.session.handle(Event::Search(report));
        }
    }

    /// Hands the session the real search's reports that have arrived by now, without waiting
    /// (a test choosing this moment makes the report cross whatever line it sends next).
    pub(crate) fn deliver_arrived(&mut self) {
        let SearchThread::Searching(inbox) = &self.search else {
            panic!("a recording harness has no reports of its own");
        };
        while let Ok(report) = inbox.try_recv() {
            self.session.handle(Event::Search(report));
        }
    }

    /// A random moment for the real search's reports to cross the next line, then hands
    /// over those that arrived: mostly up to 1.5 ms (a GUI's next line takes that long or
    /// longer), one time in four until the search is idle (at most 50 ms, as an infinite
    /// search never is), so that searches end between random lines as well as being cut
    /// short even on a machine too loaded to finish one in 1.5 ms.
    pub(crate) fn pause_then_deliver(&mut self, rng: &mut impl rand::Rng) {
        if rng.gen_ratio(1, 4) {
            self.session.engine().wait_idle(Duration::from_millis(50));
        } else {
            std::thread::sleep(Duration::from_micros(rng.gen_range(0..1500)));
        }
        self.deliver_arrived();
    }

    /// Hands the real search's reports to the session until it writes a line for which
    /// `done` holds; every line written up to that one.
    pub(crate) fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let SearchThread::Searching(inbox) = &self.search else {
            panic!("a recording harness has no reports of its own");
        };
        let deadline = Instant::now() + SEARCH_TIMEOUT;
        let mut lines = Vec::new();
        loop {
            lines.extend(self.out.take_lines());
            if lines.iter().any(|line| done(line)) {
                return lines;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match inbox.recv_timeout(left) {
                Ok(report) => {
                    self.session.handle(Event::Search(report));
                }
                Err(_) => panic!("no matching line within {SEARCH_TIMEOUT:?}: {lines:?}"),
            }
        }
    }
}
