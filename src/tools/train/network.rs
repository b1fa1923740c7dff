//! The float network the trainer fits: the same (768 x K -> H) x 2 -> B shape as `nnue`, any
//! H, one output bucket or eight by material, clipped ReLU or its square, plain inputs or
//! mirrored by king file, one set of input weights or one per king bucket (the engine's own
//! functions say which input a piece is), king buckets optionally factorised (a shared set
//! trained beside them, merged on export); all parameters in one vector (transformer
//! weights, transformer biases, output weights bucket by bucket, output biases) so the
//! optimiser treats them alike; quantises into the engine's `Network`.

use crate::board::{Color, Position};
use crate::nnue::file::{MAX_SCRELU_OUTPUT_WEIGHT, MAX_TRANSFORMER_VALUE};
use crate::nnue::{
    self, Activation, DEFAULT_HIDDEN, INPUTS, InputTransform, KingBuckets, Network, NetworkError,
    QA, QB, SCALE, output_bucket,
};
use rand::Rng;
use rand::rngs::StdRng;

/// Weights are kept within this so the quantised values fit (output: QB x 1.98 = 126.7, so
/// 127 at most, the squared clipped ReLU's bound; and 32 transformer rows of QA x 1.98
/// stay within an i16).
pub const WEIGHT_LIMIT: f32 = 1.98;
const _: () = assert!((WEIGHT_LIMIT * QB as f32 + 0.5) as i16 <= MAX_SCRELU_OUTPUT_WEIGHT);

/// What a network is: hidden width, output buckets (1 or 8), activation, input transform,
/// king buckets, and whether the trainer factorises them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub hidden: usize,
    pub output_buckets: usize,
    pub activation: Activation,
    pub input_transform: InputTransform,
    pub king_buckets: KingBuckets,
    /// A shared set of input weights (768 rows after the buckets') is trained beside the
    /// king buckets' and added to each on export: every position teaches what the buckets
    /// have in common, a bucket's own rows learn only how it differs, so splitting the data
    /// K ways does not starve each set. Only with more than one king bucket.
    pub factorised: bool,
}

impl Shape {
    /// Generation 0's: width 128, one bucket, clipped ReLU, plain inputs (file version 1).
    pub const ENGINE_V1: Shape = Shape {
        hidden: DEFAULT_HIDDEN,
        output_buckets: 1,
        activation: Activation::ClippedRelu,
        input_transform: InputTransform::Plain,
        king_buckets: KingBuckets::NONE,
        factorised: false,
    };

    /// Input rows of the engine's network: 768 per king bucket.
    pub fn inputs(&self) -> usize {
        INPUTS * self.king_buckets.count()
    }

    /// Transformer rows the trainer fits: the inputs, then the shared set if factorised.
    pub fn rows(&self) -> usize {
        self.inputs() + if self.factorised { INPUTS } else { 0 }
    }
}

/// The king bucket layouts `ironwood train --king-buckets` offers.
pub const KING_BUCKET_LAYOUTS: [usize; 3] = [1, 2, 4];

/// The layout of `count` king buckets (`KING_BUCKET_LAYOUTS`), by the rank of the view's
/// own king as the view sees it and its file's distance from the edge, a-h symmetric so
/// that mirrored inputs use every bucket: 1, one set of weights; 2, the back rank and the
/// rest; 4, the back rank on files a, b, g, h (castled or cornered), the back rank on
/// files c-f, the second rank, the rest.
pub fn king_bucket_layout(count: usize) -> Option<KingBuckets> {
    let bucket = |square: usize| -> u8 {
        let (rank, file) = (square / 8, square % 8);
        let edge = file.min(7 - file);
        match (count, rank) {
            (2, 0) => 0,
            (2, _) => 1,
            (4, 0) if edge < 2 => 0,
            (4, 0) => 1,
            (4, 1) => 2,
            (4, _) => 3,
            _ => 0,
        }
    };
    if !KING_BUCKET_LAYOUTS.contains(&count) {
        return None;
    }
    KingBuckets::from_table(std::array::from_fn(bucket)).ok()
}

#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub shape: Shape,
    pub params: Vec<f32>,
}

/// Hidden values summed in registers at once (`sum_rows`).
pub const LANES: usize = 32;

/// Transformer rows a position reads per view: 32 pieces, two rows each when factorised.
pub const MAX_ROWS: usize = 64;

/// `out` = `start` plus the rows of `params` that begin at `rows` (each as long as `out`),
/// value by value in the rows' order: LANES values are kept in registers over all the rows
/// instead of loaded and stored once a row.
#[inline(always)]
pub fn sum_rows(out: &mut [f32], start: &[f32], params: &[f32], rows: &[u32]) {
    let h = out.len();
    let full = h / LANES * LANES;
    for t in (0..full).step_by(LANES) {
        let mut sum: [f32; LANES] = start[t..t + LANES].try_into().unwrap();
        for &row in rows {
            let at = row as usize + t;
            let row: &[f32; LANES] = params[at..at + LANES].try_into().unwrap();
            for (s, w) in sum.iter_mut().zip(row) {
                *s += w;
            }
        }
        out[t..t + LANES].copy_from_slice(&sum);
    }
    for (i, v) in out.iter_mut().enumerate().skip(full) {
        *v = rows
            .iter()
            .fold(start[i], |sum, &row| sum + params[row as usize + i]);
    }
}

/// The white-view features of `pos`'s pieces.
pub fn white_features(pos: &Position) -> Vec<u16> {
    let mut features = Vec::with_capacity(32);
    for sq in pos.occupied() {
        let piece = pos.piece_at(sq).expect("occupied square holds a piece");
        features.push(nnue::feature(Color::White, piece.color, piece.kind, sq) as u16);
    }
    features
}

impl FloatNetwork {
    pub fn param_count(shape: Shape) -> usize {
        let (h, b) = (shape.hidden, shape.output_buckets);
        shape.rows() * h + h + b * 2 * h + b
    }

    /// Small random weights (uniform within 1/sqrt(fan-in)), zero biases. A factorised
    /// network starts with its buckets' own rows at zero and the shared set random, so
    /// every bucket starts as the same network.
    pub fn random(shape: Shape, rng: &mut StdRng) -> FloatNetwork {
        let hidden = shape.hidden;
        let mut params = vec![0.0; FloatNetwork::param_count(shape)];
        let transformer = 1.0 / (32f32).sqrt();
        let random_from = if shape.factorised { shape.inputs() } else { 0 };
        for w in &mut params[random_from * hidden..shape.rows() * hidden] {
            *w = rng.gen_range(-transformer..transformer) / 4.0;
        }
        let output = 1.0 / ((2 * hidden) as f32).sqrt();
        let start = shape.rows() * hidden + hidden;
        for w in &mut params[start..start + shape.output_buckets * 2 * hidden] {
            *w = rng.gen_range(-output..output);
        }
        FloatNetwork { shape, params }
    }

    pub fn hidden(&self) -> usize {
        self.shape.hidden
    }

    pub fn transformer_biases_at(&self) -> usize {
        self.shape.rows() * self.shape.hidden
    }

    /// The shared row trained beside input `input` (any king bucket's), if factorised.
    #[inline(always)]
    pub fn shared_row(&self, input: usize) -> Option<usize> {
        self.shape
            .factorised
            .then(|| self.shape.inputs() + input % INPUTS)
    }

    /// Where output bucket `bucket`'s 2H weights start.
    pub fn output_weights_at(&self, bucket: usize) -> usize {
        self.transformer_biases_at() + self.shape.hidden + bucket * 2 * self.shape.hidden
    }

    /// Where the output biases (one per bucket) start.
    pub fn output_biases_at(&self) -> usize {
        self.output_weights_at(self.shape.output_buckets)
    }

    /// The output bucket of a position with these white-view features (one per piece).
    pub fn bucket_of(&self, white: &[u16]) -> usize {
        output_bucket(white.len() as u32, self.shape.output_buckets)
    }

    /// The inputs, (side to move's view, other view), of each piece of a position with
    /// white-view features `white` and `black_to_move`: what the forward and the backward
    /// pass both read.
    pub fn input_pairs(
        &self,
        white: &[u16],
        black_to_move: bool,
    ) -> impl Iterator<Item = (usize, usize)> {
        let inputs = nnue::view_inputs(self.shape.input_transform, self.shape.king_buckets, white);
        let (own, other) = if black_to_move {
            (Color::Black, Color::White)
        } else {
            (Color::White, Color::Black)
        };
        white.iter().map(move |&f| {
            let f = usize::from(f);
            (
                nnue::view_feature(f, own, inputs[own.index()]),
                nnue::view_feature(f, other, inputs[other.index()]),
            )
        })
    }

    /// The hidden layer before activation, (side to move's view, other view), for white-view
    /// features `white` with `black_to_move`.
    pub fn pre_activations(&self, white: &[u16], black_to_move: bool) -> (Vec<f32>, Vec<f32>) {
        let h = self.shape.hidden;
        let (mut own, mut other) = (vec![0.0; h], vec![0.0; h]);
        self.pre_activations_into(white, black_to_move, &mut own, &mut other);
        (own, other)
    }

    /// `pre_activations` into the caller's two slices of H values (no allocation: the
    /// trainer calls it for every position).
    #[inline(always)]
    pub fn pre_activations_into(
        &self,
        white: &[u16],
        black_to_move: bool,
        own: &mut [f32],
        other: &mut [f32],
    ) {
        let (mut own_rows, mut other_rows) = ([0; MAX_ROWS], [0; MAX_ROWS]);
        let count = self.input_rows(white, black_to_move, &mut own_rows, &mut other_rows);
        let bias = &self.params[self.transformer_biases_at()..self.output_weights_at(0)];
        sum_rows(own, bias, &self.params, &own_rows[..count]);
        sum_rows(other, bias, &self.params, &other_rows[..count]);
    }

    /// Where the transformer rows of each piece's input start in `params`, (side to move's
    /// view, other view), for white-view features `white` (at most 32) with `black_to_move`:
    /// its input's row, then its shared row if factorised; returns how many.
    #[inline(always)]
    pub fn input_rows(
        &self,
        white: &[u16],
        black_to_move: bool,
        own: &mut [u32; MAX_ROWS],
        other: &mut [u32; MAX_ROWS],
    ) -> usize {
        let h = self.shape.hidden;
        let mut count = 0;
        for (own_f, other_f) in self.input_pairs(white, black_to_move) {
            own[count] = (own_f * h) as u32;
            other[count] = (other_f * h) as u32;
            count += 1;
            if let (Some(own_shared), Some(other_shared)) =
                (self.shared_row(own_f), self.shared_row(other_f))
            {
                own[count] = (own_shared * h) as u32;
                other[count] = (other_shared * h) as u32;
                count += 1;
            }
        }
        count
    }

    /// The raw output (centipawns / SCALE) for the side to move.
    pub fn output(&self, white: &[u16], black_to_move: bool) -> f32 {
        let h = self.shape.hidden;
        let mut scratch = vec![0.0; 2 * h];
        let (own, other) = scratch.split_at_mut(h);
        self.output_with(white, black_to_move, own, other)
    }

    /// `output` with the caller's two slices of H values as its work space.
    #[inline(always)]
    pub fn output_with(
        &self,
        white: &[u16],
        black_to_move: bool,
        own: &mut [f32],
        other: &mut [f32],
    ) -> f32 {
        self.pre_activations_into(white, black_to_move, own, other);
        let bucket = self.bucket_of(white);
        let at = self.output_weights_at(bucket);
        let weights = &self.params[at..at + 2 * self.shape.hidden];
        let (own_w, other_w) = weights.split_at(self.shape.hidden);
        let activation = self.shape.activation;
        let half = |values: &[f32], w: &[f32]| -> f32 {
            values
                .iter()
                .zip(w)
                .map(|(&v, w)| activation.apply(v) * w)
                .sum()
        };
        half(own, own_w) + half(other, other_w) + self.params[self.output_biases_at() + bucket]
    }

    /// Centipawns for the side to move, unrounded.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        self.output(&white_features(pos), pos.side_to_move() == Color::Black) * SCALE as f32
    }

    /// Rounds to the engine's integers; the width must be one the engine runs
    /// (`nnue::hidden_width_allowed`), else `NetworkError::BadLayout`.
    pub fn quantise(&self) -> Result<Network, NetworkError> {
        if !nnue::hidden_width_allowed(self.shape.hidden) {
            return Err(NetworkError::BadLayout {
                inputs: INPUTS as u32,
                hidden: self.shape.hidden as u32,
            });
        }
        let limit = f32::from(MAX_TRANSFORMER_VALUE);
        let transformer = |w: f32| (w * QA as f32).round().clamp(-limit, limit) as i16;
        let h = self.shape.hidden;
        let own_rows = &self.params[..self.shape.inputs() * h];
        let weights: Vec<i16> = match self.shape.factorised {
            false => own_rows.iter().map(|&w| transformer(w)).collect(),
            true => {
                let shared = &self.params[self.shape.inputs() * h..self.transformer_biases_at()];
                own_rows
                    .chunks_exact(INPUTS * h)
                    .flat_map(|bucket| bucket.iter().zip(shared).map(|(&w, &s)| transformer(w + s)))
                    .collect()
            }
        };
        let biases: Vec<i16> = self.params[self.transformer_biases_at()..self.output_weights_at(0)]
            .iter()
            .map(|&b| transformer(b))
            .collect();
        // `clip` keeps output weights within the squared clipped ReLU's bound already; the
        // clamp only guards networks edited by hand.
        let output_limit = match self.shape.activation {
            Activation::ClippedRelu => 32767.0,
            Activation::SquaredClippedRelu => f32::from(MAX_SCRELU_OUTPUT_WEIGHT),
        };
        let output: Vec<i16> = self.params[self.output_weights_at(0)..self.output_biases_at()]
            .iter()
            .map(|&w| (w * QB as f32).round().clamp(-output_limit, output_limit) as i16)
            .collect();
        let output_biases: Vec<i32> = self.params[self.output_biases_at()..]
            .iter()
            .map(|&b| {
                let bias = (f64::from(b) * f64::from(QA * QB)).round();
                bias.clamp(-1e9, 1e9) as i32
            })
            .collect();
        Network::from_parts(
            weights,
            biases,
            self.shape.activation,
            self.shape.input_transform,
            self.shape.king_buckets,
            &output,
            output_biases,
        )
    }

    /// The float network whose quantisation is `net` exactly.
    pub fn dequantise(net: &Network) -> FloatNetwork {
        let shape = Shape {
            hidden: net.hidden(),
            output_buckets: net.output_buckets(),
            activation: net.activation(),
            input_transform: net.input_transform(),
            king_buckets: net.king_buckets(),
            factorised: false,
        };
        let mut params = Vec::with_capacity(FloatNetwork::param_count(shape));
        params.extend(
            net.transformer_weights
                .iter()
                .chain(&net.transformer_biases)
                .map(|&w| f32::from(w) / QA as f32),
        );
        params.extend(net.output_weights.iter().map(|&w| f32::from(w) / QB as f32));
        params.extend(
            net.output_biases
                .iter()
                .map(|&b| (f64::from(b) / f64::from(QA * QB)) as f32),
        );
        FloatNetwork { shape, params }
    }

    /// Keeps the weights within `WEIGHT_LIMIT` (not the output biases).
    pub fn clip(&mut self) {
        let end = self.output_biases_at();
        for w in &mut self.params[..end] {
            *w = w.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT);
        }
    }
}
