//! The float network the trainer fits: the same (768 -> H) x 2 -> 1 shape as `nnue`, any H,
//! all parameters in one vector (transformer weights, transformer biases, output weights,
//! output bias) so the optimiser treats them alike; quantises into the engine's `Network`.

use crate::board::{Color, Position};
use crate::nnue::file::MAX_TRANSFORMER_VALUE;
use crate::nnue::{self, HIDDEN, INPUTS, Network, NetworkError, QA, QB, SCALE};
use rand::Rng;
use rand::rngs::StdRng;

/// Weights are kept within this so the quantised values fit (output: QB x 1.98 < 127, and
/// 32 transformer rows of QA x 1.98 stay within an i16).
pub const WEIGHT_LIMIT: f32 = 1.98;

#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub hidden: usize,
    pub params: Vec<f32>,
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
    pub fn param_count(hidden: usize) -> usize {
        INPUTS * hidden + hidden + 2 * hidden + 1
    }

    /// Small random weights (uniform within 1/sqrt(fan-in)), zero biases.
    pub fn random(hidden: usize, rng: &mut StdRng) -> FloatNetwork {
        let mut params = vec![0.0; FloatNetwork::param_count(hidden)];
        let transformer = 1.0 / (32f32).sqrt();
        for w in &mut params[..INPUTS * hidden] {
            *w = rng.gen_range(-transformer..transformer) / 4.0;
        }
        let output = 1.0 / ((2 * hidden) as f32).sqrt();
        let start = INPUTS * hidden + hidden;
        for w in &mut params[start..start + 2 * hidden] {
            *w = rng.gen_range(-output..output);
        }
        FloatNetwork { hidden, params }
    }

    pub fn transformer_biases_at(&self) -> usize {
        INPUTS * self.hidden
    }

    pub fn output_weights_at(&self) -> usize {
        INPUTS * self.hidden + self.hidden
    }

    pub fn output_bias_at(&self) -> usize {
        INPUTS * self.hidden + 3 * self.hidden
    }

    /// The hidden layer before activation, (side to move's view, other view), for white-view
    /// features `white` with `black_to_move`.
    pub fn pre_activations(&self, white: &[u16], black_to_move: bool) -> (Vec<f32>, Vec<f32>) {
        let h = self.hidden;
        let bias = &self.params[self.transformer_biases_at()..self.output_weights_at()];
        let mut own = bias.to_vec();
        let mut other = bias.to_vec();
        for &f in white {
            let f = usize::from(f);
            let (own_f, other_f) = if black_to_move {
                (nnue::flip_feature(f), f)
            } else {
                (f, nnue::flip_feature(f))
            };
            for (v, w) in own.iter_mut().zip(&self.params[own_f * h..(own_f + 1) * h]) {
                *v += w;
            }
            for (v, w) in other
                .iter_mut()
                .zip(&self.params[other_f * h..(other_f + 1) * h])
            {
                *v += w;
            }
        }
        (own, other)
    }

    /// The raw output (centipawns / SCALE) for the side to move.
    pub fn output(&self, white: &[u16], black_to_move: bool) -> f32 {
        let (own, other) = self.pre_activations(white, black_to_move);
        let weights = &self.params[self.output_weights_at()..self.output_bias_at()];
        let (own_w, other_w) = weights.split_at(self.hidden);
        let half = |values: &[f32], w: &[f32]| -> f32 {
            values
                .iter()
                .zip(w)
                .map(|(v, w)| v.clamp(0.0, 1.0) * w)
                .sum()
        };
        half(&own, own_w) + half(&other, other_w) + self.params[self.output_bias_at()]
    }

    /// Centipawns for the side to move, unrounded.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        self.output(&white_features(pos), pos.side_to_move() == Color::Black) * SCALE as f32
    }

    /// Rounds to the engine's integers; the network must have the engine's width.
    pub fn quantise(&self) -> Result<Network, NetworkError> {
        if self.hidden != HIDDEN {
            return Err(NetworkError::BadLayout {
                inputs: INPUTS as u32,
                hidden: self.hidden as u32,
                activation: nnue::ACTIVATION_CRELU,
            });
        }
        let limit = f32::from(MAX_TRANSFORMER_VALUE);
        let transformer = |w: f32| (w * QA as f32).round().clamp(-limit, limit) as i16;
        let weights: Vec<i16> = self.params[..INPUTS * HIDDEN]
            .iter()
            .map(|&w| transformer(w))
            .collect();
        let mut biases = [0i16; HIDDEN];
        for (q, &b) in biases
            .iter_mut()
            .zip(&self.params[self.transformer_biases_at()..self.output_weights_at()])
        {
            *q = transformer(b);
        }
        let mut output = [0i16; 2 * HIDDEN];
        for (q, &w) in output
            .iter_mut()
            .zip(&self.params[self.output_weights_at()..self.output_bias_at()])
        {
            *q = (w * QB as f32).round().clamp(-32767.0, 32767.0) as i16;
        }
        let bias = (f64::from(self.params[self.output_bias_at()]) * f64::from(QA * QB)).round();
        Network::from_parts(weights, biases, output, bias.clamp(-1e9, 1e9) as i32)
    }

    /// The float network whose quantisation is `net` exactly.
    pub fn dequantise(net: &Network) -> FloatNetwork {
        let mut params = Vec::with_capacity(FloatNetwork::param_count(HIDDEN));
        params.extend(
            net.transformer_weights
                .iter()
                .chain(&net.transformer_biases)
                .map(|&w| f32::from(w) / QA as f32),
        );
        params.extend(net.output_weights.iter().map(|&w| f32::from(w) / QB as f32));
        params.push((f64::from(net.output_bias) / f64::from(QA * QB)) as f32);
        FloatNetwork {
            hidden: HIDDEN,
            params,
        }
    }

    /// Keeps the weights within `WEIGHT_LIMIT` (not the output bias).
    pub fn clip(&mut self) {
        let end = self.output_bias_at();
        for w in &mut self.params[..end] {
            *w = w.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT);
        }
    }
}
