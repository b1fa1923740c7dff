//! The search thread. The session hands it jobs and never waits on it: results come back as
//! `SearchReport`s tagged with the job's generation, so a report from a search the session
//! has since abandoned (after `new`, `force`, `undo`, ...) can be recognised and dropped.

use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::{
    RootMoveInfo, SearchControl, SearchFeatures, SearchInfo, SearchLimits, SearchObserver,
    SearchOutcome, SearchParams, SearchStatus, Searcher, TimeLimit,
};
use crate::board::Position;

pub(crate) struct SearchJob {
    pub(crate) generation: u64,
    pub(crate) position: Position,
    /// Keys of the game's earlier positions, oldest first, without `position` itself.
    pub(crate) history: Vec<u64>,
    pub(crate) limits: SearchLimits,
}

/// A job on its way to the search thread, its limits moved into the control the session
/// keeps to stop it.
struct QueuedSearch {
    generation: u64,
    position: Position,
    history: Vec<u64>,
    control: Arc<SearchControl>,
}

#[derive(Clone, Debug)]
pub(crate) enum SearchReport {
    /// Thinking lines, the first `fresh` new (`SearchObserver::on_lines`).
    Lines {
        generation: u64,
        lines: Vec<SearchInfo>,
        fresh: usize,
    },
    /// The root move now being searched (UCI `currmove`), once the search is a second old.
    RootMove { generation: u64, info: RootMoveInfo },
    Finished {
        generation: u64,
        outcome: SearchOutcome,
    },
}

/// What a recording worker was sent (tests).
#[cfg(test)]
pub(crate) enum Recorded {
    Search(Box<SearchJob>),
    SetHash(usize),
    SetThreads(usize),
    SetFeatures(Box<SearchFeatures>),
    Clear,
}

enum WorkerCommand {
    Search(Box<QueuedSearch>),
    SetHash(usize),
    SetThreads(usize),
    SetFeatures(Box<SearchFeatures>),
    Clear,
    /// Answered once every earlier command has been carried out.
    Sync(Sender<()>),
    Quit,
}

pub(crate) struct SearchWorker {
    commands: Sender<WorkerCommand>,
    current: Mutex<Option<(Arc<SearchControl>, Instant)>>,
    handle: Option<JoinHandle<()>>,
}

struct Forward<'a> {
    generation: u64,
    report: &'a (dyn Fn(SearchReport) + Send),
}

impl SearchObserver for Forward<'_> {
    fn on_lines(&mut self, lines: &[SearchInfo], fresh: usize) {
        (self.report)(SearchReport::Lines {
            generation: self.generation,
            lines: lines.to_vec(),
            fresh,
        });
    }

    fn on_root_move(&mut self, info: &RootMoveInfo) {
        (self.report)(SearchReport::RootMove {
            generation: self.generation,
            info: *info,
        });
    }
}

impl SearchWorker {
    /// Starts the thread; `report` is called on the search thread for every report.
    pub(crate) fn spawn(
        mut searcher: Searcher,
        report: impl Fn(SearchReport) + Send + 'static,
    ) -> SearchWorker {
        let (tx, rx) = channel::<WorkerCommand>();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(16 << 20)
            .spawn(move || {
                while let Ok(command) = rx.recv() {
                    match command {
                        WorkerCommand::Search(job) => {
                            let mut forward = Forward {
                                generation: job.generation,
                                report: &report,
                            };
                            let outcome = searcher.search(
                                &job.position,
                                &job.history,
                                &job.control,
                                &mut forward,
                            );
                            log::debug!(
                                "search {} finished: {} depth {} nodes {} in {:?}",
                                job.generation,
                                outcome.best_move,
                                outcome.depth,
                                outcome.nodes,
                                outcome.elapsed
                            );
                            report(SearchReport::Finished {
                                generation: job.generation,
                                outcome,
                            });
                        }
                        WorkerCommand::SetHash(mb) => {
                            let started = Instant::now();
                            searcher.set_hash_mb(mb);
                            log::debug!("table resized to {mb} MB in {:?}", started.elapsed());
                        }
                        WorkerCommand::SetThreads(n) => searcher.set_threads(n),
                        WorkerCommand::SetFeatures(f) => {
                            // The table's static evaluations belong to the old evaluation.
                            if f.evaluation != searcher.features.evaluation {
                                searcher.clear();
                            }
                            // The old features' tables go unless the options still hold them.
                            searcher.features = *f;
                        }
                        WorkerCommand::Clear => {
                            let started = Instant::now();
                            searcher.clear();
                            log::debug!("table cleared in {:?}", started.elapsed());
                        }
                        WorkerCommand::Sync(done) => {
                            let _ = done.send(());
                        }
                        WorkerCommand::Quit => break,
                    }
                }
            })
            .expect("spawn the search thread");
        SearchWorker {
            commands: tx,
            current: Mutex::new(None),
            handle: Some(handle),
        }
    }

    /// A worker whose thread searches nothing: it records each job and setting it is sent,
    /// so a session can be tested with reports the test makes up.
    #[cfg(test)]
    pub(crate) fn recording() -> (SearchWorker, Arc<Mutex<Vec<Recorded>>>) {
        let (tx, rx) = channel::<WorkerCommand>();
        let log = Arc::new(Mutex::new(Vec::new()));
        let record = Arc::clone(&log);
        let handle = std::thread::spawn(move || {
            while let Ok(command) = rx.recv() {
                let entry = match command {
                    WorkerCommand::Search(job) => Recorded::Search(Box::new(SearchJob {
                        generation: job.generation,
                        position: job.position,
                        history: job.history,
                        limits: job.control.limits().clone(),
                    })),
                    WorkerCommand::SetHash(mb) => Recorded::SetHash(mb),
                    WorkerCommand::SetThreads(n) => Recorded::SetThreads(n),
                    WorkerCommand::SetFeatures(f) => Recorded::SetFeatures(f),
                    WorkerCommand::Clear => Recorded::Clear,
                    WorkerCommand::Sync(done) => {
                        let _ = done.send(());
                        continue;
                    }
                    WorkerCommand::Quit => break,
                };
                record.lock().unwrap().push(entry);
            }
        });
        let worker = SearchWorker {
            commands: tx,
            current: Mutex::new(None),
            handle: Some(handle),
        };
        (worker, log)
    }

    /// Queues a search, its time budget by the time factors of `params`; any running one is
    /// stopped first (its report still arrives, with its old generation).
    pub(crate) fn start(&self, job: SearchJob, params: &SearchParams) {
        let control = Arc::new(SearchControl::new(job.limits, params));
        if let (_, Some(budget)) = control.budget() {
            log::debug!("search {}: budget {budget:?}", job.generation);
        }
        if let Ok(mut current) = self.current.lock() {
            if let Some((old, _)) = current.take() {
                old.stop();
            }
            *current = Some((Arc::clone(&control), Instant::now()));
        }
        let _ = self
            .commands
            .send(WorkerCommand::Search(Box::new(QueuedSearch {
                generation: job.generation,
                position: job.position,
                history: job.history,
                control,
            })));
    }

    /// Stops the running search, if any; it reports `Finished` with its best move so far.
    pub(crate) fn stop(&self) {
        if let Ok(current) = self.current.lock()
            && let Some((control, _)) = current.as_ref()
        {
            control.stop();
        }
    }

    /// The expected move was played: the ponder search goes on as a timed search, on `time`
    /// or else its limits' own.
    pub(crate) fn ponder_hit(&self, time: Option<TimeLimit>) {
        if let Ok(mut current) = self.current.lock()
            && let Some((control, started)) = current.as_mut()
        {
            control.ponder_hit(time);
            *started = Instant::now();
        }
    }

    /// Live numbers of the current search, for `stat01`.
    pub(crate) fn status(&self) -> Option<SearchStatus> {
        let current = self.current.lock().ok()?;
        current
            .as_ref()
            .map(|(control, started)| control.status(started.elapsed()))
    }

    pub(crate) fn set_hash_mb(&self, mb: usize) {
        let _ = self.commands.send(WorkerCommand::SetHash(mb));
    }

    pub(crate) fn set_threads(&self, n: usize) {
        let _ = self.commands.send(WorkerCommand::SetThreads(n));
    }

    pub(crate) fn set_features(&self, features: SearchFeatures) {
        let _ = self
            .commands
            .send(WorkerCommand::SetFeatures(Box::new(features)));
    }

    /// Empties the transposition table and each thread's history tables, which are kept from
    /// move to move until this (`new`, `ucinewgame`, `Clear Hash`); runs after any queued
    /// search.
    pub(crate) fn clear(&self) {
        let _ = self.commands.send(WorkerCommand::Clear);
    }

    /// Waits (at most `timeout`) until the thread has carried out every command sent so far:
    /// a table clear or resize, a stopped search winding down. Returns whether it got there.
    pub(crate) fn wait_idle(&self, timeout: Duration) -> bool {
        let (done, finished) = channel();
        if self.commands.send(WorkerCommand::Sync(done)).is_err() {
            return false;
        }
        finished.recv_timeout(timeout).is_ok()
    }
}

impl Drop for SearchWorker {
    fn drop(&mut self) {
        self.stop();
        let _ = self.commands.send(WorkerCommand::Quit);
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}
