//! `ironwood train`: fits the NNUE network to datagen files with mini-batch Adam over
//! sparse piece-square inputs, on the engine's threads, and writes the quantised file the
//! engine loads. Loss: mean((sigmoid(K x eval) - target)^2), target = lambda x result +
//! (1 - lambda) x sigmoid(K x search score), all from the side to move's view. The learning
//! rate follows a step or a cosine schedule; lambda may move from start to end, step by step.

pub mod loss;
pub mod network;

use crate::board::Color;
use crate::nnue::{self, Activation, InputTransform, KingBuckets, SCALE, SimdPath};
use crate::tools::corpus::filter::{Filter, TrainingPosition};
use crate::tools::corpus::manifest::read_games;
use crate::tools::parallel;
use network::{FloatNetwork, LANES, MAX_ROWS, Shape, WEIGHT_LIMIT, sum_rows, white_features};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub const DEFAULT_EPOCHS: usize = 20;
pub const DEFAULT_BATCH: usize = 16_384;
pub const DEFAULT_LEARNING_RATE: f64 = 0.001;
/// Every generation's recipe (its screens: docs/network.md), so that a run or a loss without
/// `--lambda` aims at the same target as the networks' records.
pub const DEFAULT_LAMBDA: f64 = 0.1;
pub const DEFAULT_HOLDOUT: f64 = 0.1;
/// The learning rate is multiplied by `DEFAULT_LR_GAMMA` every `DEFAULT_LR_STEP` epochs.
pub const DEFAULT_LR_STEP: usize = 8;
pub const DEFAULT_LR_GAMMA: f64 = 0.3;
/// Where the cosine schedule ends, at the run's last step.
pub const DEFAULT_LR_END: f64 = 1e-6;
/// Centipawns to win probability, sigmoid(K x cp): the K `ironwood tune` fitted to the
/// engine's own games (0.005968), so the network's centipawns are the hand-written
/// evaluation's and the search's margins keep their meaning.
pub const K: f32 = 0.006;
/// Gradients are summed per chunk of this many positions, in chunk order, so a run gives
/// the same network whatever the number of threads.
const CHUNK: usize = 1024;

/// How the learning rate moves over a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LrSchedule {
    /// Times `lr_gamma` every `lr_step` epochs.
    Step,
    /// From `learning_rate` at the first step down to `lr_end` at the last, along half a
    /// cosine wave, step by step.
    Cosine,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Corpus shards or folders.
    pub data: Vec<PathBuf>,
    /// Which positions of the games are trained on.
    pub filter: Filter,
    pub out: PathBuf,
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f64,
    pub lr_schedule: LrSchedule,
    pub lr_step: usize,
    pub lr_gamma: f64,
    pub lr_end: f64,
    /// The hidden width H per view (`nnue::hidden_width_allowed`; `nnue::DEFAULT_HIDDEN`
    /// unless `--hidden` says).
    pub hidden: usize,
    /// 1 or 8 output buckets (by material, `nnue::output_bucket`).
    pub output_buckets: usize,
    pub activation: Activation,
    /// `MirroredByKingFile` with `--mirror-inputs`.
    pub input_transform: InputTransform,
    /// One set of input weights per bucket (`network::king_bucket_layout`).
    pub king_buckets: KingBuckets,
    /// The buckets' weights trained beside a shared set (`Shape::factorised`).
    pub factorised: bool,
    /// The result's share of the target at the first step, and at the last (`lambda_end`,
    /// linearly between): the search score teaches first and the result weighs more later.
    /// The validation loss is taken at `lambda_end`, the target the run ends on.
    pub lambda: f64,
    pub lambda_end: f64,
    pub seed: u64,
    pub threads: usize,
    /// The last fraction of the games is held out for the validation loss.
    pub holdout: f64,
    /// Also train on every position mirrored left to right (files a-h swapped), with the
    /// same label: twice the positions for a net that otherwise learns the games by heart.
    /// Castling is the only asymmetry, and the inputs do not see it. Mirrored inputs see
    /// a position and its mirror as the same inputs, so there it adds nothing and is not
    /// done (`flips_files`).
    pub flip_files: bool,
}

impl TrainConfig {
    /// Whether the training positions are doubled by flipping files: asked for, and not
    /// made redundant by mirrored inputs.
    pub fn flips_files(&self) -> bool {
        self.flip_files && self.input_transform == InputTransform::Plain
    }
}

/// One position's inputs and labels, held inline (no allocation), so tens of millions fit
/// in memory: 72 bytes each.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// White-view features of every piece; the first `count` are used.
    features: [u16; 32],
    count: u8,
    pub black_to_move: bool,
    /// The game's result for White in half points: 0, 1 or 2.
    white_result: u8,
    /// The search score as White's winning chance, sigmoid(K x centipawns).
    white_score: f32,
}

impl Sample {
    pub fn new(pos: &crate::board::Position, white_score: f32, white_result: u8) -> Sample {
        let mut features = [0u16; 32];
        let white = white_features(pos);
        features[..white.len()].copy_from_slice(&white);
        Sample {
            features,
            count: white.len() as u8,
            black_to_move: pos.side_to_move() == Color::Black,
            white_result: white_result.min(2),
            white_score,
        }
    }

    /// A corpus position labelled: its search score (White's view, in centipawns) as White's
    /// winning chance, sigmoid(K x score), and the game's result.
    pub fn labelled(record: &TrainingPosition) -> Sample {
        let white_score = sigmoid(K * f32::from(record.score));
        Sample::new(&record.position, white_score, record.result as u8)
    }

    /// One position's loss: the squared error of `predicted` (the side to move's winning
    /// chance) against the target at `lambda`.
    #[inline]
    pub fn squared_error(&self, predicted: f32, lambda: f32) -> f64 {
        f64::from((predicted - self.target(lambda)).powi(2))
    }

    /// The blend of result and score at `lambda`, side to move's view, 0 to 1.
    #[inline]
    pub fn target(&self, lambda: f32) -> f32 {
        let white_result = f32::from(self.white_result) / 2.0;
        let white_target = lambda * white_result + (1.0 - lambda) * self.white_score;
        if self.black_to_move {
            1.0 - white_target
        } else {
            white_target
        }
    }

    /// White-view features of every piece.
    pub fn features(&self) -> &[u16] {
        &self.features[..usize::from(self.count)]
    }

    /// The same position mirrored a-h (every feature's file flipped), same label.
    fn flipped_files(&self) -> Sample {
        let mut flipped = self.clone();
        for f in &mut flipped.features[..usize::from(self.count)] {
            *f = nnue::mirror_files(usize::from(*f), true) as u16;
        }
        flipped
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training positions and the held-out ones.
pub struct Dataset {
    pub train: Vec<Sample>,
    pub validation: Vec<Sample>,
    pub games: usize,
    /// Positions read, before any flipping.
    pub positions: usize,
    /// The hand-written evaluation's loss on the held-out positions: the mark to beat.
    pub classical_validation_loss: f64,
}

/// Reads every game of the shards (or corpus folders) and labels the positions `filter`
/// keeps; whole games are held out. The hand-written evaluation's loss is taken at
/// `validation_lambda`.
pub fn load(
    paths: &[PathBuf],
    filter: &Filter,
    validation_lambda: f64,
    holdout: f64,
    flip_files: bool,
) -> Result<Dataset, String> {
    let mut games: Vec<Vec<(Sample, f32)>> = Vec::new();
    read_games(paths, filter, |kept| {
        let game = kept
            .into_iter()
            .map(|r| {
                let classical = sigmoid(K * crate::eval::evaluate(&r.position) as f32);
                (Sample::labelled(&r), classical)
            })
            .collect();
        games.push(game);
    })?;
    let count = games.len();
    let held = ((count as f64 * holdout).round() as usize).min(count);
    let held_out: Vec<(Sample, f32)> = games
        .split_off(count - held)
        .into_iter()
        .flatten()
        .collect();
    let classical_validation_loss = held_out
        .iter()
        .map(|(s, p)| s.squared_error(*p, validation_lambda as f32))
        .sum::<f64>()
        / held_out.len().max(1) as f64;
    let held_out_count = held_out.len();
    let validation = held_out.into_iter().map(|(s, _)| s).collect();
    let mut train: Vec<Sample> = games.into_iter().flatten().map(|(s, _)| s).collect();
    let positions = train.len() + held_out_count;
    if flip_files {
        let flipped: Vec<Sample> = train.iter().map(Sample::flipped_files).collect();
        train.extend(flipped);
    }
    if train.is_empty() {
        return Err("no training positions (the files are empty or all held out)".to_string());
    }
    Ok(Dataset {
        train,
        validation,
        games: count,
        positions,
        classical_validation_loss,
    })
}

/// The activation a pass is compiled for: `SQUARED` picks the squared clipped ReLU, so the
/// passes' loops carry no match per value and vectorise.
#[inline(always)]
fn activation_of<const SQUARED: bool>() -> Activation {
    if SQUARED {
        Activation::SquaredClippedRelu
    } else {
        Activation::ClippedRelu
    }
}

/// Positions a chunk holds at once: their hidden values (2H each), then those values'
/// gradients, which the backward pass adds into the transformer's gradient row by row.
const BLOCK: usize = 64;
/// Work space for a block of positions: each position's 2H hidden values, the start of its
/// inputs' rows in the transformer per view, and for each row the values added into its
/// gradient, in the order of the positions and their inputs.
struct Workspace {
    values: Vec<f32>,
    own_rows: Vec<[u32; MAX_ROWS]>,
    other_rows: Vec<[u32; MAX_ROWS]>,
    counts: Vec<usize>,
    /// Per transformer row, where its sources start in `sources` (one past the row at first).
    row_starts: Vec<u32>,
    /// (row start, source start) pairs grouped by row.
    sources: Vec<(u32, u32)>,
}

impl Workspace {
    fn new(net: &FloatNetwork) -> Workspace {
        let h = net.hidden();
        Workspace {
            values: vec![0.0; BLOCK * 2 * h],
            own_rows: vec![[0; MAX_ROWS]; BLOCK],
            other_rows: vec![[0; MAX_ROWS]; BLOCK],
            counts: vec![0; BLOCK],
            row_starts: vec![0; net.shape.rows() + 1],
            sources: vec![(0, 0); BLOCK * 2 * MAX_ROWS],
        }
    }
}

/// Adds into `grad`'s H values at `row` the H values of `values` at each of `sources`, in
/// their order.
#[inline(always)]
fn add_sources(grad: &mut [f32], row: usize, h: usize, values: &[f32], sources: &[(u32, u32)]) {
    let full = h / LANES * LANES;
    for t in (0..full).step_by(LANES) {
        let at = row + t;
        let mut sum: [f32; LANES] = grad[at..at + LANES].try_into().unwrap();
        for &(_, source) in sources {
            let from = source as usize + t;
            let value: &[f32; LANES] = values[from..from + LANES].try_into().unwrap();
            for (s, v) in sum.iter_mut().zip(value) {
                *s += v;
            }
        }
        grad[at..at + LANES].copy_from_slice(&sum);
    }
    for i in full..h {
        grad[row + i] = sources.iter().fold(grad[row + i], |sum, &(_, source)| {
            sum + values[source as usize + i]
        });
    }
}

/// The summed loss of `samples` at `lambda`, their gradient (scaled by `weight`) added into
/// `grad`. Block by block: the hidden values of each position, then the output's gradient
/// and the hidden values' gradients, then the transformer's gradient row by row. Every
/// value sees the same additions in the same order as position after position, input after
/// input, so the result does not depend on the blocking, to the bit.
#[inline(always)]
fn chunk_gradient<const SQUARED: bool>(
    net: &FloatNetwork,
    samples: &[&Sample],
    lambda: f32,
    weight: f32,
    grad: &mut [f32],
    work: &mut Workspace,
) -> f64 {
    let h = net.hidden();
    let activation = activation_of::<SQUARED>();
    let params = &net.params;
    let bias_start = net.transformer_biases_at();
    let bias = &params[bias_start..bias_start + h];
    let scale = K * SCALE as f32;
    let mut total = 0.0f64;
    for block in samples.chunks(BLOCK) {
        let values = &mut work.values[..block.len() * 2 * h];
        for (p, (s, position)) in block.iter().zip(values.chunks_exact_mut(2 * h)).enumerate() {
            let count = net.input_rows(
                s.features(),
                s.black_to_move,
                &mut work.own_rows[p],
                &mut work.other_rows[p],
            );
            work.counts[p] = count;
            let (own, other) = position.split_at_mut(h);
            sum_rows(own, bias, params, &work.own_rows[p][..count]);
            sum_rows(other, bias, params, &work.other_rows[p][..count]);
        }
        for (s, position) in block.iter().zip(values.chunks_exact_mut(2 * h)) {
            let (own, other) = position.split_at_mut(h);
            let bucket = net.bucket_of(s.features());
            let out_at = net.output_weights_at(bucket);
            let bias_at = net.output_biases_at() + bucket;
            let (own_w, other_w) = params[out_at..out_at + 2 * h].split_at(h);
            let mut y = params[bias_at];
            for i in 0..h {
                y += activation.apply(own[i]) * own_w[i] + activation.apply(other[i]) * other_w[i];
            }
            let p = sigmoid(scale * y);
            let error = p - s.target(lambda);
            let g = weight * 2.0 * error * p * (1.0 - p) * scale;
            grad[bias_at] += g;
            // The hidden values become their gradients here, in place.
            let (grad_own_w, grad_other_w) = grad[out_at..out_at + 2 * h].split_at_mut(h);
            for ((gw, v), &w) in grad_own_w.iter_mut().zip(own.iter_mut()).zip(own_w) {
                *gw += g * activation.apply(*v);
                *v = g * w * activation.derivative(*v);
            }
            for ((gw, v), &w) in grad_other_w.iter_mut().zip(other.iter_mut()).zip(other_w) {
                *gw += g * activation.apply(*v);
                *v = g * w * activation.derivative(*v);
            }
            for ((gb, &a), &b) in grad[bias_start..bias_start + h]
                .iter_mut()
                .zip(&*own)
                .zip(&*other)
            {
                *gb += a + b;
            }
            total += f64::from(error * error);
        }
        // The rows' sources grouped by row (a counting sort, stable): for each row, the
        // positions' gradients in position order and, within a position, input by input,
        // its own view's before the other's.
        let starts = &mut work.row_starts;
        starts.fill(0);
        let mut entries = 0;
        for p in 0..block.len() {
            for j in 0..work.counts[p] {
                starts[work.own_rows[p][j] as usize / h] += 1;
                starts[work.other_rows[p][j] as usize / h] += 1;
                entries += 2;
            }
        }
        let mut at = 0;
        for start in starts.iter_mut() {
            let count = *start;
            *start = at;
            at += count;
        }
        let sources = &mut work.sources[..entries];
        for p in 0..block.len() {
            let base = (p * 2 * h) as u32;
            for j in 0..work.counts[p] {
                for (row, source) in [
                    (work.own_rows[p][j], base),
                    (work.other_rows[p][j], base + h as u32),
                ] {
                    let slot = &mut starts[row as usize / h];
                    sources[*slot as usize] = (row, source);
                    *slot += 1;
                }
            }
        }
        // Each row's sources now end where the next row's begin.
        let mut begin = 0;
        while begin < entries {
            let row = sources[begin].0;
            let end = starts[row as usize / h] as usize;
            add_sources(grad, row as usize, h, values, &sources[begin..end]);
            begin = end;
        }
    }
    total
}

/// `chunk_gradient` for the network's activation, with its own work space.
fn gradient_of(
    net: &FloatNetwork,
    samples: &[&Sample],
    lambda: f32,
    weight: f32,
    grad: &mut [f32],
) -> f64 {
    let mut work = Workspace::new(net);
    let squared = net.shape.activation == Activation::SquaredClippedRelu;
    #[cfg(target_arch = "x86_64")]
    if SimdPath::active() != SimdPath::scalar() {
        // SAFETY: a path other than scalar is only active when the CPU has AVX2.
        return unsafe {
            avx2::chunk_gradient(squared, net, samples, lambda, weight, grad, &mut work)
        };
    }
    if squared {
        chunk_gradient::<true>(net, samples, lambda, weight, grad, &mut work)
    } else {
        chunk_gradient::<false>(net, samples, lambda, weight, grad, &mut work)
    }
}

/// The same passes compiled for AVX2, taken when the engine's kernels take theirs
/// (`SimdPath::active`): wider loads and adds, the same operations on each value in the same
/// order (no fused multiply-add), so the same bits as the portable code.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{FloatNetwork, Moments, Sample, Workspace};

    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn adam_part(
        params: &mut [f32],
        m: &mut [f32],
        v: &mut [f32],
        chunks: &[Vec<f32>],
        start: usize,
        moments: Moments,
    ) {
        super::adam_part(params, m, v, chunks, start, moments)
    }

    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn loss_sum(net: &FloatNetwork, samples: &[Sample], lambda: f32) -> f64 {
        super::loss_sum(net, samples, lambda)
    }

    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn chunk_gradient(
        squared: bool,
        net: &FloatNetwork,
        samples: &[&Sample],
        lambda: f32,
        weight: f32,
        grad: &mut [f32],
        work: &mut Workspace,
    ) -> f64 {
        if squared {
            super::chunk_gradient::<true>(net, samples, lambda, weight, grad, work)
        } else {
            super::chunk_gradient::<false>(net, samples, lambda, weight, grad, work)
        }
    }
}

/// The mean loss over `samples` against their targets at `lambda`.
pub fn loss(net: &FloatNetwork, samples: &[Sample], lambda: f32) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if SimdPath::active() != SimdPath::scalar() {
        // SAFETY: a path other than scalar is only active when the CPU has AVX2.
        return unsafe { avx2::loss_sum(net, samples, lambda) } / samples.len().max(1) as f64;
    }
    loss_sum(net, samples, lambda) / samples.len().max(1) as f64
}

/// The summed loss over `samples` at `lambda`.
#[inline(always)]
fn loss_sum(net: &FloatNetwork, samples: &[Sample], lambda: f32) -> f64 {
    let scale = K * SCALE as f32;
    let h = net.hidden();
    let mut scratch = vec![0.0f32; 2 * h];
    let (own, other) = scratch.split_at_mut(h);
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(scale * net.output_with(s.features(), s.black_to_move, own, other));
            s.squared_error(p, lambda)
        })
        .sum();
    total
}

/// The mean loss over `samples` at `lambda` and its gradient.
pub fn loss_and_gradient(net: &FloatNetwork, samples: &[Sample], lambda: f32) -> (f64, Vec<f32>) {
    let mut grad = vec![0.0; net.params.len()];
    let weight = 1.0 / samples.len().max(1) as f32;
    let refs: Vec<&Sample> = samples.iter().collect();
    let total = gradient_of(net, &refs, lambda, weight, &mut grad);
    (total / samples.len().max(1) as f64, grad)
}

/// Adam's moments.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    steps: i32,
}

/// Parameters per block of the step: the chunks' gradients for a block are summed in a
/// buffer that stays in the first-level cache.
const STEP_BLOCK: usize = 2048;

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    fn new(len: usize) -> Adam {
        Adam {
            m: vec![0.0; len],
            v: vec![0.0; len],
            steps: 0,
        }
    }

    /// One step on the sum of `chunks` (the chunks' gradients, added in chunk order), then
    /// the weights below `clip_end` clipped to `WEIGHT_LIMIT`. The parameters are cut into
    /// one range per thread; every parameter sees the same operations in the same order
    /// as on one thread, so the network does not depend on the number of threads.
    fn step(
        &mut self,
        params: &mut [f32],
        chunks: &[Vec<f32>],
        lr: f32,
        clip_end: usize,
        threads: usize,
    ) {
        self.steps += 1;
        let c1 = 1.0 - Adam::BETA1.powi(self.steps);
        let c2 = 1.0 - Adam::BETA2.powi(self.steps);
        let range = params
            .len()
            .div_ceil(threads.max(1))
            .next_multiple_of(STEP_BLOCK);
        std::thread::scope(|scope| {
            let parts = params
                .chunks_mut(range)
                .zip(self.m.chunks_mut(range))
                .zip(self.v.chunks_mut(range))
                .enumerate();
            for (part, ((params, m), v)) in parts {
                let moments = Moments {
                    lr,
                    c1,
                    c2,
                    clip_end,
                };
                scope.spawn(move || {
                    #[cfg(target_arch = "x86_64")]
                    if SimdPath::active() != SimdPath::scalar() {
                        // SAFETY: a path other than scalar is only active when the CPU has AVX2.
                        unsafe { avx2::adam_part(params, m, v, chunks, part * range, moments) };
                        return;
                    }
                    adam_part(params, m, v, chunks, part * range, moments);
                });
            }
        });
    }
}

/// One step's constants: the learning rate, the moments' bias corrections, and where the
/// clipped weights end.
#[derive(Clone, Copy)]
struct Moments {
    lr: f32,
    c1: f32,
    c2: f32,
    clip_end: usize,
}

/// Adam's step on the parameters from `start` (`params`, with their moments `m` and `v`):
/// the chunks' gradients summed block by block in chunk order, then the update and the clip.
#[inline(always)]
fn adam_part(
    params: &mut [f32],
    m: &mut [f32],
    v: &mut [f32],
    chunks: &[Vec<f32>],
    start: usize,
    moments: Moments,
) {
    let Moments {
        lr,
        c1,
        c2,
        clip_end,
    } = moments;
    let mut sum = [0.0f32; STEP_BLOCK];
    let blocks = params
        .chunks_mut(STEP_BLOCK)
        .zip(m.chunks_mut(STEP_BLOCK))
        .zip(v.chunks_mut(STEP_BLOCK));
    for (block, ((params, m), v)) in blocks.enumerate() {
        let at = start + block * STEP_BLOCK;
        let g = &mut sum[..params.len()];
        g.fill(0.0);
        for chunk in chunks {
            for (g, c) in g.iter_mut().zip(&chunk[at..at + params.len()]) {
                *g += c;
            }
        }
        for (((p, g), m), v) in params.iter_mut().zip(&*g).zip(m).zip(v) {
            *m = Adam::BETA1 * *m + (1.0 - Adam::BETA1) * g;
            *v = Adam::BETA2 * *v + (1.0 - Adam::BETA2) * g * g;
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + Adam::EPSILON);
        }
        let clipped = clip_end.saturating_sub(at).min(params.len());
        for w in &mut params[..clipped] {
            *w = w.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT);
        }
    }
}

/// Loss of one batch at `lambda`, and the gradient of each chunk of it into `buffers`,
/// chunk by chunk over `threads`; returns the chunks' buffers used.
fn batch_gradient<'a>(
    net: &FloatNetwork,
    batch: &[&Sample],
    lambda: f32,
    threads: usize,
    buffers: &'a mut [Vec<f32>],
) -> (f64, &'a [Vec<f32>]) {
    let weight = 1.0 / batch.len() as f32;
    let chunks: Vec<&[&Sample]> = batch.chunks(CHUNK).collect();
    let used = &mut buffers[..chunks.len()];
    let mut jobs: Vec<(&mut Vec<f32>, f64)> = used.iter_mut().map(|b| (b, 0.0)).collect();
    parallel::for_each(&mut jobs, threads, |i, (buffer, loss)| {
        buffer.fill(0.0);
        *loss = gradient_of(net, chunks[i], lambda, weight, buffer);
    });
    let total: f64 = jobs.iter().map(|(_, loss)| loss).sum();
    (total / batch.len() as f64, used)
}

/// The validation loss at `lambda` over `threads`, summed in fixed chunks in order (the same
/// figure whatever `threads`, so the epoch kept does not depend on them).
fn parallel_loss(net: &FloatNetwork, samples: &[Sample], lambda: f32, threads: usize) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let chunks: Vec<&[Sample]> = samples.chunks(CHUNK).collect();
    let sums = parallel::map(&chunks, threads, |chunk| {
        loss(net, chunk, lambda) * chunk.len() as f64
    });
    sums.iter().sum::<f64>() / samples.len() as f64
}

/// The learning rate of step `step` (0-based) of `total_steps`, in epoch `epoch` (1-based).
pub fn learning_rate(config: &TrainConfig, epoch: usize, step: usize, total_steps: usize) -> f64 {
    match config.lr_schedule {
        LrSchedule::Step => {
            config.learning_rate
                * config
                    .lr_gamma
                    .powi(((epoch - 1) / config.lr_step.max(1)) as i32)
        }
        LrSchedule::Cosine => {
            let progress = if total_steps > 1 {
                step as f64 / (total_steps - 1) as f64
            } else {
                0.0
            };
            let (start, end) = (config.learning_rate, config.lr_end);
            end + 0.5 * (start - end) * (1.0 + (std::f64::consts::PI * progress).cos())
        }
    }
}

/// The result's share of the target at step `step` (0-based) of `total_steps`: from
/// `lambda` at the first to `lambda_end` at the last, in a straight line.
pub fn lambda_at(config: &TrainConfig, step: usize, total_steps: usize) -> f32 {
    if config.lambda_end == config.lambda || total_steps <= 1 {
        return config.lambda as f32;
    }
    let progress = step as f64 / (total_steps - 1) as f64;
    (config.lambda + (config.lambda_end - config.lambda) * progress) as f32
}

/// `net.nnue` -> `net.epoch3.nnue`.
fn checkpoint_path(out: &Path, epoch: usize) -> PathBuf {
    let stem = out.file_stem().map_or_else(
        || "network".to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    out.with_file_name(format!("{stem}.epoch{epoch}.nnue"))
}

fn write_network(net: &FloatNetwork, path: &Path) -> Result<(), String> {
    let quantised = net
        .quantise()
        .map_err(|e| format!("cannot quantise: {e}"))?;
    std::fs::write(path, quantised.to_bytes()).map_err(|e| format!("{}: {e}", path.display()))
}

/// Trains, writing a checkpoint after every epoch and the epoch with the lowest validation
/// loss (the last one without held-out games) to `config.out`.
pub fn train_network(config: &TrainConfig) -> Result<(), String> {
    let started = Instant::now();
    if !nnue::hidden_width_allowed(config.hidden) {
        return Err(format!(
            "hidden width {}: the engine runs multiples of {} from {} to {}",
            config.hidden,
            nnue::HIDDEN_STEP,
            nnue::HIDDEN_STEP,
            nnue::MAX_HIDDEN
        ));
    }
    if config.factorised && config.king_buckets.count() == 1 {
        return Err("a factoriser needs king buckets (--king-buckets 2 or 4)".to_string());
    }
    let data = load(
        &config.data,
        &config.filter,
        config.lambda_end,
        config.holdout,
        config.flips_files(),
    )?;
    let lambda = if config.lambda_end == config.lambda {
        format!("lambda {}", config.lambda)
    } else {
        format!("lambda {} to {}", config.lambda, config.lambda_end)
    };
    let schedule = match config.lr_schedule {
        LrSchedule::Step => format!(
            "lr {} x {} every {} epochs",
            config.learning_rate, config.lr_gamma, config.lr_step
        ),
        LrSchedule::Cosine => format!("lr {} to {} (cosine)", config.learning_rate, config.lr_end),
    };
    eprintln!(
        "train: {} positions ({} games): {} for training, {} held out; {}x2 -> 1 network \
         ({} output buckets, {}, {}{}), {} epochs, batch {}, {schedule}, {lambda}, seed {}, \
         {} threads{}",
        data.positions,
        data.games,
        data.train.len(),
        data.validation.len(),
        config.hidden,
        config.output_buckets,
        config.activation.name(),
        config.input_transform.name(),
        match (config.king_buckets.count(), config.factorised) {
            (1, _) => String::new(),
            (count, false) => format!(", {count} king buckets"),
            (count, true) => format!(", {count} king buckets, factorised"),
        },
        config.epochs,
        config.batch,
        config.seed,
        config.threads,
        match (config.flip_files, config.flips_files()) {
            (_, true) => ", training positions doubled by flipping files",
            (true, false) => {
                "; --flip-files ignored: mirrored inputs see a position and its mirror alike"
            }
            (false, false) => "",
        },
    );
    eprintln!(
        "train: the hand-written evaluation's validation loss: {:.6}",
        data.classical_validation_loss
    );
    let mut rng = StdRng::seed_from_u64(config.seed);
    let shape = Shape {
        hidden: config.hidden,
        output_buckets: config.output_buckets,
        activation: config.activation,
        input_transform: config.input_transform,
        king_buckets: config.king_buckets,
        factorised: config.factorised,
    };
    let mut net = FloatNetwork::random(shape, &mut rng);
    let mut adam = Adam::new(net.params.len());
    let threads = config.threads.max(1);
    let batch_size = config.batch.max(1);
    let mut buffers = vec![vec![0.0f32; net.params.len()]; batch_size.div_ceil(CHUNK)];
    let mut order: Vec<usize> = (0..data.train.len()).collect();
    let mut best: Option<(f64, usize)> = None;
    let batches = order.len().div_ceil(batch_size);
    let total_steps = batches * config.epochs;
    let mut lr = config.learning_rate;
    for epoch in 1..=config.epochs {
        let epoch_start = Instant::now();
        order.shuffle(&mut rng);
        let mut epoch_loss = 0.0;
        let mut last_report = Instant::now();
        for (b, indices) in order.chunks(batch_size).enumerate() {
            let batch: Vec<&Sample> = indices.iter().map(|&i| &data.train[i]).collect();
            let step = (epoch - 1) * batches + b;
            lr = learning_rate(config, epoch, step, total_steps);
            let lambda = lambda_at(config, step, total_steps);
            let (batch_loss, chunks) = batch_gradient(&net, &batch, lambda, threads, &mut buffers);
            epoch_loss += batch_loss * batch.len() as f64;
            let clip_end = net.output_biases_at();
            adam.step(&mut net.params, chunks, lr as f32, clip_end, threads);
            if last_report.elapsed().as_secs() >= 10 {
                last_report = Instant::now();
                let done = (b + 1) * batch_size;
                eprintln!(
                    "train: epoch {epoch}/{} batch {}/{batches}, loss {:.6}, {:.0} positions/s",
                    config.epochs,
                    b + 1,
                    epoch_loss / done as f64,
                    done as f64 / epoch_start.elapsed().as_secs_f64()
                );
            }
        }
        let train_loss = epoch_loss / data.train.len() as f64;
        let validation_loss =
            parallel_loss(&net, &data.validation, config.lambda_end as f32, threads);
        let checkpoint = checkpoint_path(&config.out, epoch);
        write_network(&net, &checkpoint)?;
        let seconds = epoch_start.elapsed().as_secs_f64();
        let per_second = data.train.len() as f64 / seconds.max(1e-9);
        eprintln!(
            "train: epoch {epoch}/{}: train loss {train_loss:.6}, validation loss \
             {validation_loss:.6}, lr {lr:.3e}, {seconds:.1} s, {per_second:.0} positions/s \
             ({:.0} a thread); checkpoint {}",
            config.epochs,
            per_second / threads as f64,
            checkpoint.display()
        );
        let score = if validation_loss.is_nan() {
            -(epoch as f64)
        } else {
            validation_loss
        };
        if best.is_none_or(|(loss, _)| score < loss) {
            best = Some((score, epoch));
            write_network(&net, &config.out)?;
        }
    }
    if let Some((_, epoch)) = best {
        eprintln!(
            "train: wrote epoch {epoch} (lowest validation loss) to {} in {:.0} s",
            config.out.display(),
            started.elapsed().as_secs_f64()
        );
    } else {
        write_network(&net, &config.out)?;
        eprintln!(
            "train: no epochs; wrote the initial network to {}",
            config.out.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    fn config(lr_schedule: LrSchedule) -> TrainConfig {
        TrainConfig {
            data: Vec::new(),
            filter: Filter::default(),
            out: PathBuf::new(),
            epochs: 20,
            batch: DEFAULT_BATCH,
            learning_rate: 0.001,
            lr_schedule,
            lr_step: 8,
            lr_gamma: 0.3,
            lr_end: 1e-6,
            hidden: nnue::DEFAULT_HIDDEN,
            output_buckets: 1,
            activation: Activation::ClippedRelu,
            input_transform: InputTransform::Plain,
            king_buckets: KingBuckets::NONE,
            factorised: false,
            lambda: DEFAULT_LAMBDA,
            lambda_end: DEFAULT_LAMBDA,
            seed: 0,
            threads: 1,
            holdout: DEFAULT_HOLDOUT,
            flip_files: false,
        }
    }

    #[test]
    fn the_step_schedule_drops_by_gamma_every_step_epochs() {
        let step = config(LrSchedule::Step);
        for (epoch, expected) in [(1, 0.001), (8, 0.001), (9, 0.0003), (17, 0.00009)] {
            let lr = learning_rate(&step, epoch, 123, 1000);
            assert!((lr - expected).abs() < 1e-12, "epoch {epoch}: {lr}");
        }
    }

    #[test]
    fn the_cosine_schedule_falls_from_lr_to_lr_end_over_every_step() {
        let cosine = config(LrSchedule::Cosine);
        let total = 2000;
        let rates: Vec<f64> = (0..total)
            .map(|step| learning_rate(&cosine, step / 100 + 1, step, total))
            .collect();
        assert!((rates[0] - 0.001).abs() < 1e-15);
        assert!((rates[total - 1] - 1e-6).abs() < 1e-15);
        // Half way it is the mean of the two ends, and it never rises.
        assert!((learning_rate(&cosine, 1, 1, 3) - (0.001 + 1e-6) / 2.0).abs() < 1e-12);
        assert!(rates.windows(2).all(|w| w[1] <= w[0]));
        assert_eq!(learning_rate(&cosine, 1, 0, 1), 0.001);
    }

    #[test]
    fn samples_are_small_and_keep_every_feature() {
        assert_eq!(std::mem::size_of::<Sample>(), 72);
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        )
        .unwrap();
        let sample = Sample::new(&pos, 0.25, 2);
        assert_eq!(sample.features(), white_features(&pos));
        assert!(sample.black_to_move);
        assert_eq!(sample.features().len(), 32);
        let flipped = sample.flipped_files();
        assert_ne!(flipped, sample);
        assert_eq!(flipped.flipped_files(), sample);
        // Black to move: the target is Black's, a blend of the result (a White win) and the
        // score.
        assert_eq!(sample.target(0.0), 0.75);
        assert_eq!(sample.target(1.0), 0.0);
        assert_eq!(sample.target(0.5), 0.375);
    }

    #[test]
    fn lambda_moves_in_a_straight_line_from_start_to_end_or_stays() {
        let mut moving = config(LrSchedule::Cosine);
        assert_eq!(lambda_at(&moving, 0, 1000), DEFAULT_LAMBDA as f32);
        assert_eq!(lambda_at(&moving, 999, 1000), DEFAULT_LAMBDA as f32);
        (moving.lambda, moving.lambda_end) = (0.1, 0.3);
        let lambdas: Vec<f32> = (0..1001)
            .map(|step| lambda_at(&moving, step, 1001))
            .collect();
        assert_eq!((lambdas[0], lambdas[500], lambdas[1000]), (0.1, 0.2, 0.3));
        assert!(lambdas.windows(2).all(|w| w[1] >= w[0]));
    }
}
