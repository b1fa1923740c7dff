//! `ironwood spsa`: tunes the search's constants (`search::params`) by OpenBench's SPSA
//! inside the engine. Each iteration plays one pair of games between a "plus" and a "minus"
//! engine, theta perturbed each way, and moves theta by the result; the state file holds the
//! run's place after every pair, so a killed run resumes where it stopped.

pub mod schedule;
pub mod state;

use crate::board::Position;
use crate::board::game::Game;
use crate::nnue::Evaluation;
use crate::search::params::SearchParam;
use crate::search::{SearchParams, Searcher};
use crate::tools::corpus::format::{GameRecord, GameResult, ShardWriter, encode_game};
use crate::tools::datagen::{self, DatagenConfig, FirstError, OrderedWriter};
use rand::Rng;
use rand::rngs::StdRng;
use schedule::Schedule;
use state::{Settings, State};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The planned iterations when `--pairs` is not given.
pub const DEFAULT_PAIRS: u64 = 5000;
const PROGRESS_EVERY: Duration = Duration::from_secs(30);
/// How many of the furthest-moved constants a progress line names.
const MOVES_SHOWN: usize = 3;

/// A run as the command line asks for it; `None` is "as the state file says" when resuming,
/// the default when starting.
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    pub state: PathBuf,
    pub params: Option<Vec<&'static SearchParam>>,
    pub pairs: Option<u64>,
    pub nodes: Option<u64>,
    /// A new run's nodes a move when `nodes` is `None` (datagen's default).
    pub default_nodes: u64,
    pub seed: Option<u64>,
    pub openings: Option<PathBuf>,
    /// Also write every game to this new corpus shard.
    pub out: Option<PathBuf>,
    /// Play at most this many pairs in this invocation (the run goes on when started again).
    pub stop_after: Option<u64>,
    pub threads: usize,
    pub hash_mb: usize,
    pub evaluation: Evaluation,
}

/// The state to go on from: the file's, if it exists and its settings are the command
/// line's, or a new run's.
fn starting_state(config: &SpsaConfig) -> Result<State, String> {
    let evaluation = config.evaluation.describe();
    let openings = config.openings.as_ref().map(|p| p.display().to_string());
    let Some(state) = State::load(&config.state)? else {
        return Ok(State::new(Settings {
            pairs: config.pairs.unwrap_or(DEFAULT_PAIRS),
            nodes: config.nodes.unwrap_or(config.default_nodes),
            seed: config.seed.unwrap_or_else(rand::random),
            openings,
            evaluation,
            params: config.params.clone().unwrap_or_else(state::all_params),
        }));
    };
    let s = &state.settings;
    let file = config.state.display();
    let differs = |what: &str, file_has: String, asked: String| {
        Err(format!(
            "{file} is a run with {what} {file_has}, not {asked}; resume it with the same \
             settings or start another state file"
        ))
    };
    if let Some(params) = &config.params {
        let names = |ps: &[&SearchParam]| ps.iter().map(|p| p.name).collect::<Vec<_>>().join(",");
        if names(params) != names(&s.params) {
            return differs("--params", names(&s.params), names(params));
        }
    }
    for (what, file_has, asked) in [
        ("--pairs", s.pairs, config.pairs),
        ("--nodes", s.nodes, config.nodes),
        ("--seed", s.seed, config.seed),
    ] {
        if let Some(asked) = asked
            && asked != file_has
        {
            return differs(what, file_has.to_string(), asked.to_string());
        }
    }
    if openings.is_some() && openings != s.openings {
        let shown = |o: &Option<String>| o.clone().unwrap_or_else(|| "none".to_string());
        return differs("--openings", shown(&s.openings), shown(&openings));
    }
    if evaluation != s.evaluation {
        return differs("the evaluation", s.evaluation.clone(), evaluation);
    }
    Ok(state)
}

/// What the worker threads share: the state under its lock (updated and saved after every
/// pair, as OpenBench's workers report asynchronously), the next iteration to hand out.
struct Shared<'a> {
    config: &'a SpsaConfig,
    /// The games' settings in datagen's terms (nodes, seed, openings, evaluation).
    play: DatagenConfig,
    openings: Vec<Position>,
    /// The constants tuned, and each one's schedule.
    params: Vec<&'static SearchParam>,
    schedules: Vec<Schedule>,
    state: Mutex<State>,
    /// Iterations handed out so far (the last one handed out, 1-based).
    handed_out: AtomicU64,
    /// Hand out no iteration past this one.
    last: u64,
    /// The iteration this invocation started after.
    first: u64,
    writer: Option<Mutex<OrderedWriter>>,
    error: FirstError,
}

pub fn tune_constants(config: &SpsaConfig) -> Result<(), String> {
    let state = starting_state(config)?;
    let settings = state.settings.clone();
    let play = DatagenConfig {
        out: config.out.clone().unwrap_or_default(),
        threads: config.threads,
        hash_mb: config.hash_mb,
        games: None,
        nodes: settings.nodes,
        seed: settings.seed,
        openings: settings.openings.as_ref().map(PathBuf::from),
        evaluation: config.evaluation.clone(),
        // SPSA's games stay as they were: normal chess, the rules before they could be chosen.
        dfrc_percent: 0,
        adjudication: Some(datagen::Adjudication::LEGACY),
    };
    let openings = match &play.openings {
        Some(path) => datagen::load_openings(path)?,
        None => Vec::new(),
    };
    state.save(&config.state)?;
    let first = state.iteration;
    let last = config.stop_after.map_or(settings.pairs, |n| {
        settings.pairs.min(first.saturating_add(n))
    });
    let names: Vec<&str> = settings.params.iter().map(|p| p.name).collect();
    eprintln!(
        "spsa: {} constants ({}), iteration {first} of {}, {} nodes a move, seed {}",
        names.len(),
        names.join(","),
        settings.pairs,
        settings.nodes,
        settings.seed
    );
    let writer = match &config.out {
        Some(out) if first < last => {
            let mut metadata = datagen::metadata(&play);
            metadata.set(
                "generator",
                format!("ironwood {} spsa", env!("CARGO_PKG_VERSION")),
            );
            metadata.set(
                "spsa",
                format!(
                    "plus against minus engine, iterations {} to {last} of {}, constants {}",
                    first + 1,
                    settings.pairs,
                    names.join(",")
                ),
            );
            let writer = ShardWriter::create(out, &metadata).map_err(|e| e.to_string())?;
            Some(Mutex::new(OrderedWriter::new(writer)))
        }
        _ => None,
    };
    let shared = Shared {
        config,
        play,
        openings,
        params: settings.params.clone(),
        schedules: settings
            .params
            .iter()
            .map(|p| Schedule::of(p, settings.pairs))
            .collect(),
        state: Mutex::new(state),
        handed_out: AtomicU64::new(first),
        last,
        first,
        writer,
        error: FirstError::default(),
    };
    let start = Instant::now();
    datagen::run_workers(
        config.threads,
        PROGRESS_EVERY,
        || play_pairs(&shared),
        || {
            if let Ok(state) = shared.state.lock() {
                eprintln!("{}", progress(&state, first, start.elapsed()));
            }
        },
    );
    if let Some(error) = shared.error.take() {
        return Err(error);
    }
    let state = shared
        .state
        .into_inner()
        .map_err(|_| "an spsa thread panicked".to_string())?;
    eprintln!("{}", progress(&state, first, start.elapsed()));
    for line in result_lines(&state) {
        println!("{line}");
    }
    Ok(())
}

/// The tuned values as `name value` lines, then as OpenBench's SPSA input lines.
pub fn result_lines(state: &State) -> Vec<String> {
    let values = state.rounded();
    let mut lines: Vec<String> = state
        .settings
        .params
        .iter()
        .map(|p| format!("{} {}", p.name, (p.get)(&values)))
        .collect();
    let tuned = |line: &String| {
        state
            .settings
            .params
            .iter()
            .any(|p| line.starts_with(&format!("{}, ", p.name)))
    };
    lines.extend(
        crate::search::params::spsa_input_lines(&values)
            .into_iter()
            .filter(tuned),
    );
    lines
}

/// One progress line: iterations, pace, the plus engines' results and the constants that
/// moved furthest from their defaults, in steps (`c_end`).
fn progress(state: &State, first: u64, elapsed: Duration) -> String {
    let minutes = elapsed.as_secs_f64().max(1e-3) / 60.0;
    let [wins, draws, losses] = state.plus_results;
    let mut moves: Vec<(&SearchParam, f64)> = state
        .settings
        .params
        .iter()
        .zip(&state.theta)
        .map(|(p, &theta)| (*p, theta))
        .collect();
    let steps = |(p, theta): &(&SearchParam, f64)| (theta - f64::from(p.default)) / p.step;
    moves.sort_by(|a, b| steps(b).abs().total_cmp(&steps(a).abs()));
    let shown: Vec<String> = moves
        .iter()
        .take(MOVES_SHOWN)
        .map(|m| {
            format!(
                "{} {:+.2} steps ({} -> {:.1})",
                m.0.name,
                steps(m),
                m.0.default,
                m.1
            )
        })
        .collect();
    format!(
        "spsa: iteration {} of {}, {:.1} pairs/min, plus engine {wins}-{draws}-{losses} (W-D-L), \
         moved most: {}",
        state.iteration,
        state.settings.pairs,
        (state.iteration - first) as f64 / minutes,
        shown.join(", ")
    )
}

/// One iteration's plan: the directions of the plus engine's perturbation and the two
/// engines' constants.
struct Plan {
    iteration: u64,
    deltas: Vec<i32>,
    plus: SearchParams,
    minus: SearchParams,
}

/// Iteration `k`'s plan from theta now; its directions and (later) its opening come from
/// the seeded `rng`, the same for an iteration whatever thread plays it.
fn plan(shared: &Shared, theta: &[f64], k: u64, rng: &mut StdRng) -> Plan {
    let params = &shared.params;
    let deltas: Vec<i32> = params
        .iter()
        .map(|_| if rng.gen_bool(0.5) { 1 } else { -1 })
        .collect();
    let mut plus = SearchParams::default();
    let mut minus = SearchParams::default();
    for (i, param) in params.iter().enumerate() {
        let schedule = &shared.schedules[i];
        (param.set)(&mut plus, schedule.perturbed(param, theta[i], k, deltas[i]));
        (param.set)(
            &mut minus,
            schedule.perturbed(param, theta[i], k, -deltas[i]),
        );
    }
    Plan {
        iteration: k,
        deltas,
        plus,
        minus,
    }
}

fn play_pairs(shared: &Shared) {
    let config = shared.config;
    // Index 0 plays White, 1 Black.
    let mut players = [
        Searcher::new(config.hash_mb, 1),
        Searcher::new(config.hash_mb, 1),
    ];
    for player in &mut players {
        player.features.evaluation = config.evaluation.clone();
    }
    loop {
        if shared.error.happened() {
            return;
        }
        let k = shared.handed_out.fetch_add(1, Ordering::Relaxed) + 1;
        if k > shared.last {
            return;
        }
        let theta = match shared.state.lock() {
            Ok(state) => state.theta.clone(),
            Err(_) => return shared.error.set("an spsa thread panicked".to_string()),
        };
        let mut rng = datagen::game_rng(shared.play.seed, k);
        let plan = plan(shared, &theta, k, &mut rng);
        let games = play_pair(&mut players, shared, &plan, &mut rng);
        let plus_points = plus_points(&games);
        if let Some(writer) = &shared.writer {
            let index = 2 * (k - 1 - shared.first);
            for (i, game) in games.iter().enumerate() {
                let mut bytes = Vec::with_capacity(4 * game.scored.len() + 16);
                encode_game(game, &mut bytes);
                let written = writer
                    .lock()
                    .map_err(|_| "an spsa thread panicked".to_string())
                    .and_then(|mut w| w.finish(index + i as u64, bytes));
                if let Err(error) = written {
                    return shared.error.set(error);
                }
            }
        }
        let saved = shared
            .state
            .lock()
            .map_err(|_| "an spsa thread panicked".to_string())
            .and_then(|mut state| {
                update(&mut state, shared, &plan, &games, plus_points);
                state.save(&config.state)
            });
        if let Err(error) = saved {
            return shared.error.set(error);
        }
    }
}

/// Theta after the pair: each constant moves by its schedule's step of iteration `k`.
fn update(
    state: &mut State,
    shared: &Shared,
    plan: &Plan,
    games: &[GameRecord; 2],
    plus_points: i32,
) {
    for (i, param) in shared.params.iter().enumerate() {
        state.theta[i] = shared.schedules[i].updated(
            param,
            state.theta[i],
            plan.iteration,
            plan.deltas[i],
            plus_points,
        );
    }
    for (game, plus_colour) in games
        .iter()
        .zip([GameResult::WhiteWon, GameResult::BlackWon])
    {
        let slot = match game.result {
            GameResult::Draw => 1,
            result if result == plus_colour => 0,
            _ => 2,
        };
        state.plus_results[slot] += 1;
    }
    state.iteration += 1;
}

/// The plus engine's wins minus its losses: it plays White in the first game, Black in the
/// second.
fn plus_points(games: &[GameRecord; 2]) -> i32 {
    let points = |result: GameResult, plus_won: GameResult| match result {
        GameResult::Draw => 0,
        r if r == plus_won => 1,
        _ => -1,
    };
    points(games[0].result, GameResult::WhiteWon) + points(games[1].result, GameResult::BlackWon)
}

/// The pair of iteration `plan.iteration`: one opening (drawn and checked as datagen does,
/// by the plus engine), played with the plus engine as White, then as Black. Both engines
/// start each game with an empty table and histories.
fn play_pair(
    players: &mut [Searcher; 2],
    shared: &Shared,
    plan: &Plan,
    rng: &mut StdRng,
) -> [GameRecord; 2] {
    let nodes = shared.play.nodes;
    players[0].features.params = plan.plus;
    players[1].features.params = plan.minus;
    let (game, _) = datagen::opening(&mut players[0], &shared.play, &shared.openings, rng);
    let play = |players: &mut [Searcher; 2], game: Game| {
        for player in players.iter_mut() {
            player.clear();
        }
        let first_move = datagen::search(&mut players[game.side_to_move().index()], &game, nodes);
        datagen::play_out(
            &mut players[..],
            nodes,
            shared.play.adjudication,
            game,
            first_move,
        )
    };
    let plus_white = play(players, game.clone());
    players.swap(0, 1);
    let plus_black = play(players, game);
    players.swap(0, 1);
    [plus_white, plus_black]
}
