//! `ironwood tune`: a Texel tuner over every evaluation weight. Each position's trace
//! (coefficients per weight, `eval::trace`) is computed once; the scaling constant K is
//! fitted to the game results, then Adam fits the weights on mini-batches of the loss
//! mean((sigmoid(K * eval) - target)^2), target = lambda * result + (1 - lambda) *
//! sigmoid(K * search score); after each step the tables that must rise or fall are
//! projected back onto their shape (`shape`). The result is written as a new
//! `src/eval/weights.rs`.

mod resolve;
mod shape;

use crate::eval::MAX_PHASE;
use crate::eval::params::{ScaleFactors, Weights, index, weights_source};
use crate::eval::scaling::{FULL, ScaleCase};
use crate::eval::score::Score;
use crate::eval::trace::EvalTrace;
use crate::eval::weights::{SCALE, WEIGHTS};
use crate::tools::corpus::filter::{Filter, TrainingPosition};
use crate::tools::corpus::manifest::{read_games, shard_paths};
use crate::tools::parallel;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

pub const DEFAULT_EPOCHS: usize = 30;
pub const DEFAULT_BATCH: usize = 16_384;
pub const DEFAULT_LEARNING_RATE: f64 = 1.0;
pub const DEFAULT_LAMBDA: f64 = 0.5;

/// Gradients are summed over chunks of this many positions, in chunk order, so the result
/// does not depend on the number of threads.
const CHUNK: usize = 1024;
/// Parameters: midgame and endgame of each flat weight, then the three scale factors.
const PARAMS: usize = 2 * Weights::LEN + 3;
const SCALE_PARAMS: usize = 2 * Weights::LEN;

#[derive(Clone, Debug, PartialEq)]
pub struct TuneConfig {
    /// Corpus shards or folders.
    pub data: Vec<PathBuf>,
    /// Which positions of the games are fitted.
    pub filter: Filter,
    pub out: PathBuf,
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f64,
    pub lambda: f64,
    pub seed: u64,
    pub threads: usize,
    /// The last fraction of the positions (the latest games) is held out: not trained on,
    /// its loss printed per epoch, and the epoch with the lowest such loss is written.
    pub holdout: f64,
    /// Weight of the penalty l2 * sum((w - w0)^2) that holds every weight near its starting
    /// value unless the data says otherwise (weights that rarely fire would otherwise wander).
    pub l2: f64,
    /// Trace the end of each position's quiescence line instead of the position itself.
    pub resolve: bool,
    /// A weight's midgame (endgame) half that fires in fewer training positions than this,
    /// each counted by its midgame (endgame) share of the phase, keeps its starting value:
    /// a handful of positions fits noise (a rook reaching all 14 squares in a middlegame).
    pub min_positions: usize,
}

/// One training position: its trace (terms in `Dataset::terms`) and its labels.
#[derive(Clone, Copy, Debug)]
struct Sample {
    first_term: u32,
    term_count: u16,
    phase: u8,
    side_sign: i8,
    scale_if_white_ahead: ScaleCase,
    scale_if_black_ahead: ScaleCase,
    /// Game result for White: 0, 0.5, 1.
    result: f32,
    /// Search score, White's point of view, centipawns.
    score: f32,
}

struct Dataset {
    samples: Vec<Sample>,
    terms: Vec<(u16, i16)>,
}

impl Dataset {
    fn terms_of(&self, s: &Sample) -> &[(u16, i16)] {
        let first = s.first_term as usize;
        &self.terms[first..first + usize::from(s.term_count)]
    }

    /// Which parameters stay fixed: each midgame or endgame half of a weight that fires in
    /// fewer than `min_positions` of `samples`, a position counting by its share of that
    /// phase (the scale factors always move).
    fn frozen(&self, samples: &[Sample], min_positions: usize) -> Vec<bool> {
        let mut fired = vec![0.0f64; 2 * Weights::LEN];
        for s in samples {
            let midgame = f64::from(s.phase) / f64::from(MAX_PHASE);
            for &(index, _) in self.terms_of(s) {
                fired[2 * usize::from(index)] += midgame;
                fired[2 * usize::from(index) + 1] += 1.0 - midgame;
            }
        }
        let mut frozen = vec![false; PARAMS];
        for (param, &count) in fired.iter().enumerate() {
            frozen[param] = count < min_positions as f64;
        }
        frozen
    }

    fn from_traces(traced: Vec<(EvalTrace, f32, f32)>) -> Dataset {
        let mut samples = Vec::with_capacity(traced.len());
        let mut terms = Vec::new();
        for (trace, result, score) in traced {
            samples.push(Sample {
                first_term: terms.len() as u32,
                term_count: trace.terms.len() as u16,
                phase: trace.phase,
                side_sign: trace.side_sign,
                scale_if_white_ahead: trace.scale_if_white_ahead,
                scale_if_black_ahead: trace.scale_if_black_ahead,
                result,
                score,
            });
            terms.extend_from_slice(&trace.terms);
        }
        Dataset { samples, terms }
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The starting parameters: the weights the engine plays with now.
fn initial_params() -> Vec<f64> {
    let mut params = vec![0.0; PARAMS];
    for (i, w) in WEIGHTS.flat().iter().enumerate() {
        params[2 * i] = f64::from(w.mg);
        params[2 * i + 1] = f64::from(w.eg);
    }
    for (i, f) in SCALE.to_array().iter().enumerate() {
        params[SCALE_PARAMS + i] = f64::from(*f);
    }
    params
}

fn scale_factor(case: ScaleCase, params: &[f64]) -> f64 {
    match case.tunable() {
        Some(k) => params[SCALE_PARAMS + k],
        None => f64::from(case.factor(&SCALE)),
    }
}

/// The evaluation from White's point of view as a real function of the parameters (the
/// engine's, less integer rounding), with what the gradient needs: the scale case that
/// applied and the blended score before scaling.
fn evaluate(data: &Dataset, s: &Sample, params: &[f64]) -> (f64, ScaleCase, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in data.terms_of(s) {
        let i = usize::from(i);
        mg += params[2 * i] * f64::from(c);
        eg += params[2 * i + 1] * f64::from(c);
    }
    let phase = f64::from(s.phase) / f64::from(MAX_PHASE);
    let blended = mg * phase + eg * (1.0 - phase);
    let case = if blended > 0.0 {
        s.scale_if_white_ahead
    } else {
        s.scale_if_black_ahead
    };
    let scaled = blended * scale_factor(case, params) / f64::from(FULL);
    let tempo = params[2 * index::TEMPO] * phase + params[2 * index::TEMPO + 1] * (1.0 - phase);
    (scaled + f64::from(s.side_sign) * tempo, case, blended)
}

fn target(s: &Sample, k: f64, lambda: f64) -> f64 {
    lambda * f64::from(s.result) + (1.0 - lambda) * sigmoid(k * f64::from(s.score))
}

/// Sum of squared errors over `samples` (not yet divided by their number).
fn error_sum(data: &Dataset, samples: &[Sample], params: &[f64], k: f64, lambda: f64) -> f64 {
    samples
        .iter()
        .map(|s| {
            let (e, _, _) = evaluate(data, s, params);
            (sigmoid(k * e) - target(s, k, lambda)).powi(2)
        })
        .sum()
}

/// Adds the gradient of the summed squared error over `samples` to `grad`.
fn add_gradient(
    data: &Dataset,
    samples: &[Sample],
    params: &[f64],
    k: f64,
    lambda: f64,
    grad: &mut [f64],
) {
    for s in samples {
        let (e, case, blended) = evaluate(data, s, params);
        let p = sigmoid(k * e);
        let d_eval = 2.0 * (p - target(s, k, lambda)) * p * (1.0 - p) * k;
        let phase = f64::from(s.phase) / f64::from(MAX_PHASE);
        let scale = scale_factor(case, params) / f64::from(FULL);
        let (d_mg, d_eg) = (d_eval * phase * scale, d_eval * (1.0 - phase) * scale);
        for &(i, c) in data.terms_of(s) {
            let i = usize::from(i);
            grad[2 * i] += d_mg * f64::from(c);
            grad[2 * i + 1] += d_eg * f64::from(c);
        }
        let side = f64::from(s.side_sign);
        grad[2 * index::TEMPO] += d_eval * side * phase;
        grad[2 * index::TEMPO + 1] += d_eval * side * (1.0 - phase);
        if let Some(j) = case.tunable() {
            grad[SCALE_PARAMS + j] += d_eval * blended / f64::from(FULL);
        }
    }
}

/// `per_chunk` over fixed chunks of `samples` on `threads` threads, results in chunk order.
fn map_chunks<T: Send>(
    samples: &[Sample],
    threads: usize,
    per_chunk: &(dyn Fn(&[Sample]) -> T + Sync),
) -> Vec<T> {
    let chunks: Vec<&[Sample]> = samples.chunks(CHUNK).collect();
    parallel::map(&chunks, threads, |chunk| per_chunk(chunk))
}

fn loss(
    data: &Dataset,
    samples: &[Sample],
    params: &[f64],
    k: f64,
    lambda: f64,
    threads: usize,
) -> f64 {
    let sums = map_chunks(samples, threads, &|chunk| {
        error_sum(data, chunk, params, k, lambda)
    });
    sums.iter().sum::<f64>() / samples.len().max(1) as f64
}

/// Gradient of the mean squared error over `samples`.
fn gradient(
    data: &Dataset,
    samples: &[Sample],
    params: &[f64],
    k: f64,
    lambda: f64,
    threads: usize,
) -> Vec<f64> {
    let parts = map_chunks(samples, threads, &|chunk| {
        let mut grad = vec![0.0; PARAMS];
        add_gradient(data, chunk, params, k, lambda, &mut grad);
        grad
    });
    let mut total = vec![0.0; PARAMS];
    for part in parts {
        for (t, g) in total.iter_mut().zip(part) {
            *t += g;
        }
    }
    let n = samples.len().max(1) as f64;
    total.iter_mut().for_each(|g| *g /= n);
    total
}

/// K that best maps the current evaluation to the game results (lambda = 1: the search
/// scores would pull K towards zero), by golden-section search on log K.
fn fit_k(data: &Dataset, samples: &[Sample], params: &[f64], threads: usize) -> f64 {
    let f = |log_k: f64| loss(data, samples, params, log_k.exp(), 1.0, threads);
    let (mut a, mut b) = ((1e-4f64).ln(), (0.1f64).ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// The traced positions, and how many of them quiescence moved (with `--resolve`). Shards
/// are read one at a time and traced on every thread, so only one shard's positions are
/// held at once.
fn load(config: &TuneConfig) -> Result<(Dataset, usize), String> {
    let moved = AtomicUsize::new(0);
    let mut traced: Vec<(EvalTrace, f32, f32)> = Vec::new();
    for shard in shard_paths(&config.data)? {
        let mut records = Vec::new();
        read_games(&[shard], &config.filter, |kept| records.extend(kept))?;
        traced.extend(trace(&records, config.resolve, config.threads, &moved));
    }
    Ok((Dataset::from_traces(traced), moved.load(Ordering::Relaxed)))
}

/// The traces and labels of `records`, on `threads` threads, in order.
fn trace(
    records: &[TrainingPosition],
    resolve: bool,
    threads: usize,
    moved: &AtomicUsize,
) -> Vec<(EvalTrace, f32, f32)> {
    let chunks: Vec<&[TrainingPosition]> = records.chunks(CHUNK).collect();
    let traced = parallel::map(&chunks, threads, |chunk| {
        chunk
            .iter()
            .filter_map(|r| {
                let trace = if resolve {
                    let leaf = resolve::resolve(&r.position);
                    if leaf.key() != r.position.key() {
                        moved.fetch_add(1, Ordering::Relaxed);
                    }
                    EvalTrace::of(&leaf)?
                } else {
                    EvalTrace::of(&r.position)?
                };
                Some((trace, r.result.white_score() as f32, f32::from(r.score)))
            })
            .collect::<Vec<_>>()
    });
    traced.into_iter().flatten().collect()
}

/// The fitted weights as integers, and the scale factors kept within 0..=FULL.
fn rounded(params: &[f64]) -> (Weights, ScaleFactors) {
    let flat: [Score; Weights::LEN] = std::array::from_fn(|i| Score {
        mg: params[2 * i].round() as i32,
        eg: params[2 * i + 1].round() as i32,
    });
    let scale = std::array::from_fn(|i| (params[SCALE_PARAMS + i].round() as i32).clamp(0, FULL));
    (Weights::from_flat(&flat), ScaleFactors::from_array(scale))
}

pub fn fit_weights(config: &TuneConfig) -> Result<(), String> {
    let started = Instant::now();
    let (mut data, moved) = load(config)?;
    if data.samples.is_empty() {
        return Err("no positions to tune on".to_string());
    }
    let threads = config.threads.max(1);
    let mut params = initial_params();
    let start = params.clone();
    eprintln!(
        "tune: {} positions traced in {:.1} s{}",
        data.samples.len(),
        started.elapsed().as_secs_f64(),
        if config.resolve {
            format!(" ({moved} moved to the end of their capture line)")
        } else {
            String::new()
        }
    );
    let held = ((data.samples.len() as f64 * config.holdout).round() as usize)
        .min(data.samples.len().saturating_sub(1));
    let validation = data.samples.split_off(data.samples.len() - held);
    let mut samples = std::mem::take(&mut data.samples);
    let data = data;
    let k = fit_k(&data, &samples, &params, threads);
    println!("K = {k:.6}");
    let frozen = data.frozen(&samples, config.min_positions);
    if config.min_positions > 0 {
        println!(
            "{} of {} midgame and endgame weights fire in fewer than {} positions and stay as they are",
            frozen.iter().filter(|&&f| f).count(),
            2 * Weights::LEN,
            config.min_positions
        );
    }
    let lambda = config.lambda;
    let validation_loss = |params: &[f64]| {
        (!validation.is_empty()).then(|| loss(&data, &validation, params, k, lambda, threads))
    };
    let show =
        |held_out: Option<f64>| held_out.map_or(String::new(), |v| format!(" validation {v:.7}"));
    let initial = loss(&data, &samples, &params, k, lambda, threads);
    let mut best_validation = validation_loss(&params);
    println!("epoch 0 loss {initial:.7}{}", show(best_validation));
    let mut losses = vec![initial];
    let mut best = (0, params.clone());

    let (beta1, beta2, epsilon) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; PARAMS];
    let mut v = vec![0.0; PARAMS];
    let mut step = 0;
    let mut rng = StdRng::seed_from_u64(config.seed);
    for epoch in 1..=config.epochs {
        samples.shuffle(&mut rng);
        for batch in samples.chunks(config.batch.max(1)) {
            let grad = gradient(&data, batch, &params, k, lambda, threads);
            step += 1;
            let (c1, c2) = (1.0 - f64::powi(beta1, step), 1.0 - f64::powi(beta2, step));
            for i in (0..PARAMS).filter(|&i| !frozen[i]) {
                let grad = grad[i] + 2.0 * config.l2 * (params[i] - start[i]);
                m[i] = beta1 * m[i] + (1.0 - beta1) * grad;
                v[i] = beta2 * v[i] + (1.0 - beta2) * grad * grad;
                params[i] -= config.learning_rate * (m[i] / c1) / ((v[i] / c2).sqrt() + epsilon);
            }
            for f in &mut params[SCALE_PARAMS..] {
                *f = f.clamp(0.0, f64::from(FULL));
            }
            shape::project(&mut params, &frozen);
        }
        let epoch_loss = loss(&data, &samples, &params, k, lambda, threads);
        let held_out = validation_loss(&params);
        println!(
            "epoch {epoch} loss {epoch_loss:.7}{} ({:.0} s)",
            show(held_out),
            started.elapsed().as_secs_f64()
        );
        losses.push(epoch_loss);
        match (held_out, best_validation) {
            (Some(now), Some(before)) if now >= before => {}
            _ => {
                best_validation = held_out;
                best = (epoch, params.clone());
            }
        }
    }
    let (best_epoch, params) = best;
    if !validation.is_empty() {
        println!("lowest validation loss after epoch {best_epoch}: writing those weights");
    }

    let (weights, scale) = rounded(&params);
    let names: Vec<String> = config
        .data
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let header = vec![
        format!(
            "Tuned by `ironwood tune` on {} positions from {}:",
            samples.len(),
            names.join(", ")
        ),
        format!(
            "K = {k:.6}, lambda = {lambda}, {} epochs of Adam (kept: {best_epoch}), batch {}, learning rate {}, seed {}, holdout {}, l2 {}, min positions {}, {}, loss {:.7} -> {:.7}.",
            config.epochs,
            config.batch,
            config.learning_rate,
            config.seed,
            config.holdout,
            config.l2,
            config.min_positions,
            if config.resolve {
                "positions resolved by quiescence"
            } else {
                "positions as recorded"
            },
            losses[0],
            losses[best_epoch]
        ),
    ];
    std::fs::write(&config.out, weights_source(&weights, scale, &header))
        .map_err(|e| format!("{}: {e}", config.out.display()))?;
    println!(
        "final K = {k:.6}; weights written to {}",
        config.out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{MoveList, Position, legal_moves};
    use rand::Rng;

    /// A small dataset from seeded random playouts, labelled by a made-up rule (material
    /// count and noise), enough to exercise every kind of term.
    fn small_dataset(count: usize) -> Dataset {
        let mut rng = StdRng::seed_from_u64(3);
        let mut traced = Vec::new();
        let mut list = MoveList::new();
        while traced.len() < count {
            let mut pos = Position::startpos();
            for _ in 0..rng.gen_range(4..140) {
                list.clear();
                legal_moves(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                pos = pos.make_move(list.get(rng.gen_range(0..list.len())));
            }
            if let Some(trace) = EvalTrace::of(&pos) {
                let result = [0.0, 0.5, 1.0][rng.gen_range(0..3)];
                let score = rng.gen_range(-400.0..400.0);
                traced.push((trace, result, score));
            }
        }
        Dataset::from_traces(traced)
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let data = small_dataset(400);
        let params = initial_params();
        let (k, lambda) = (0.006, 0.6);
        let grad = gradient(&data, &data.samples, &params, k, lambda, 2);
        let mut checked = 0;
        let mut scale_checked = 0;
        for i in 0..PARAMS {
            if grad[i].abs() < 1e-7 {
                continue;
            }
            let h = 1e-3;
            let mut plus = params.clone();
            plus[i] += h;
            let mut minus = params.clone();
            minus[i] -= h;
            let numeric = (loss(&data, &data.samples, &plus, k, lambda, 1)
                - loss(&data, &data.samples, &minus, k, lambda, 1))
                / (2.0 * h);
            assert!(
                (numeric - grad[i]).abs() <= 1e-4 * grad[i].abs() + 1e-9,
                "parameter {i}: analytic {} numeric {numeric}",
                grad[i]
            );
            checked += 1;
            if i >= SCALE_PARAMS {
                scale_checked += 1;
            }
        }
        assert!(checked > 300, "{checked}");
        assert!(scale_checked >= 1, "a scale factor's gradient was checked");
    }

    #[test]
    fn the_real_evaluation_agrees_with_the_engine_up_to_rounding() {
        let data = small_dataset(300);
        let params = initial_params();
        let flat = WEIGHTS.flat();
        for s in &data.samples {
            let (white, _, _) = evaluate(&data, s, &params);
            let trace = EvalTrace {
                terms: data.terms_of(s).to_vec(),
                phase: s.phase,
                side_sign: s.side_sign,
                scale_if_white_ahead: s.scale_if_white_ahead,
                scale_if_black_ahead: s.scale_if_black_ahead,
            };
            let engine = f64::from(trace.evaluate(&flat, &SCALE) * i32::from(s.side_sign));
            assert!((white - engine).abs() < 3.0, "{white} {engine}");
        }
    }

    #[test]
    fn rounding_the_starting_parameters_gives_back_the_weights() {
        let (weights, scale) = rounded(&initial_params());
        assert_eq!(weights, WEIGHTS);
        assert_eq!(scale, SCALE);
    }
}
