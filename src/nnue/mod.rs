//! The neural network evaluation (NNUE): a (768 -> H) x 2 -> 1 perspective network with a
//! clipped ReLU, int16 weights. `Network` holds the quantised weights and scores an
//! accumulator; `accumulator` keeps the hidden layer up to date move by move.

pub mod accumulator;
pub mod file;
pub mod simd;

use crate::board::{Color, PieceKind, Position, Square};
use crate::eval::EVAL_LIMIT;
use std::fmt;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

pub use accumulator::Accumulator;
pub use file::NetworkError;
pub use simd::SimdPath;

/// Piece-square inputs: (own or other side) x kind x square, from one side's view.
pub const INPUTS: usize = 768;
/// The hidden layer's width per perspective.
pub const HIDDEN: usize = 128;
/// The activation code in the file header: clipped ReLU, clamp(x, 0, 1).
pub const ACTIVATION_CRELU: u32 = 0;
/// Quantisation: transformer weights and biases are floats x QA, output weights x QB, the
/// output bias x QA x QB; the float output times SCALE is centipawns.
pub const QA: i32 = 255;
pub const QB: i32 = 64;
pub const SCALE: i32 = 400;

/// The network compiled into the binary (made by `ironwood train`, see README).
static EMBEDDED_FILE: &[u8] = include_bytes!("default.nnue");

/// The input for a piece of `color` and `kind` on `sq`, seen from `view`'s side: the board
/// is flipped for Black, so both perspectives share one set of weights.
#[inline]
pub fn feature(view: Color, color: Color, kind: PieceKind, sq: Square) -> usize {
    let relative_square = match view {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    usize::from(color != view) * 384 + kind.index() * 64 + relative_square
}

/// White's-view feature `f` as Black sees it.
#[inline]
pub fn flip_feature(f: usize) -> usize {
    let own = f / 384;
    let rest = f % 384;
    (1 - own) * 384 + (rest & !63) + ((rest & 63) ^ 56)
}

/// A quantised network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Row `f` (HIDDEN values) is the weights of input `f`.
    pub(crate) transformer_weights: Vec<i16>,
    pub(crate) transformer_biases: [i16; HIDDEN],
    /// Side to move's half first, then the other side's.
    pub(crate) output_weights: [i16; 2 * HIDDEN],
    pub(crate) output_bias: i32,
    checksum: u64,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({INPUTS}->{HIDDEN}, {:016x})", self.checksum)
    }
}

impl Network {
    /// A network from its quantised values; refuses transformer values an accumulator
    /// could overflow with.
    pub fn from_parts(
        transformer_weights: Vec<i16>,
        transformer_biases: [i16; HIDDEN],
        output_weights: [i16; 2 * HIDDEN],
        output_bias: i32,
    ) -> Result<Network, NetworkError> {
        assert_eq!(transformer_weights.len(), INPUTS * HIDDEN);
        let limit = file::MAX_TRANSFORMER_VALUE;
        if let Some((index, &value)) = transformer_weights
            .iter()
            .chain(&transformer_biases)
            .enumerate()
            .find(|(_, v)| v.unsigned_abs() > limit.unsigned_abs())
        {
            return Err(NetworkError::OutOfRange { index, value });
        }
        let mut net = Network {
            transformer_weights,
            transformer_biases,
            output_weights,
            output_bias,
            checksum: 0,
        };
        let bytes = file::encode(&net);
        net.checksum = u64::from_le_bytes(bytes[40..48].try_into().unwrap());
        Ok(net)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        file::decode(bytes)
    }

    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let bytes = std::fs::read(path).map_err(|e| NetworkError::Io(e.to_string()))?;
        file::decode(&bytes)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        file::encode(self)
    }

    /// The payload's checksum, which names the network in logs and options.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// The network built into the binary.
    pub fn embedded() -> &'static Network {
        static EMBEDDED: OnceLock<Network> = OnceLock::new();
        EMBEDDED.get_or_init(|| {
            Network::from_bytes(EMBEDDED_FILE)
                .expect("the embedded network is valid (checked by a unit test)")
        })
    }

    /// A network that lives as long as the process, so searches hold it without a lock or
    /// a count. Each distinct network loaded is kept once (about 200 KB).
    pub fn intern(net: Network) -> &'static Network {
        static LOADED: Mutex<Vec<&'static Network>> = Mutex::new(Vec::new());
        if *Network::embedded() == net {
            return Network::embedded();
        }
        let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(known) = loaded.iter().find(|known| ***known == net) {
            return known;
        }
        let leaked: &'static Network = Box::leak(Box::new(net));
        loaded.push(leaked);
        leaked
    }

    /// The output layer over an up-to-date accumulator, in centipawns for `side`.
    pub fn output(&self, acc: &Accumulator, side: Color) -> i32 {
        self.output_with(SimdPath::active(), acc, side)
    }

    /// `output` on the given code path (tests compare the paths).
    pub fn output_with(&self, path: SimdPath, acc: &Accumulator, side: Color) -> i32 {
        let (own, other) = acc.perspectives(side);
        let sum = i64::from(simd::output_sum(path, own, other, &self.output_weights))
            + i64::from(self.output_bias);
        (sum * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of `pos` from scratch: centipawns for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut acc = Accumulator::default();
        acc.refresh(self, pos);
        self.finish(pos, &acc)
    }

    /// The score of `pos` from its up-to-date accumulator, with the same draw and range
    /// rules as the hand-written evaluation.
    pub fn finish(&self, pos: &Position, acc: &Accumulator) -> i32 {
        if pos.is_insufficient_material() {
            return 0;
        }
        self.output(acc, pos.side_to_move())
            .clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

/// Which evaluation a search uses.
#[derive(Clone, Copy)]
pub enum Evaluation {
    /// The hand-written evaluation (`crate::eval`).
    Classical,
    Nnue(&'static Network),
}

impl PartialEq for Evaluation {
    fn eq(&self, other: &Evaluation) -> bool {
        match (self, other) {
            (Evaluation::Classical, Evaluation::Classical) => true,
            (Evaluation::Nnue(a), Evaluation::Nnue(b)) => a.checksum == b.checksum,
            _ => false,
        }
    }
}

impl Eq for Evaluation {}

impl fmt::Debug for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Evaluation::Classical => write!(f, "Classical"),
            Evaluation::Nnue(net) => write!(f, "Nnue({net:?})"),
        }
    }
}

impl Evaluation {
    /// A name for logs and data files: `classical`, or `nnue` with the network's checksum.
    pub fn describe(self) -> String {
        match self {
            Evaluation::Classical => "classical".to_string(),
            Evaluation::Nnue(net) => format!("nnue {:016x}", net.checksum),
        }
    }

    /// The evaluation of `pos` from scratch (tests, tools; the search updates accumulators).
    pub fn evaluate(self, pos: &Position) -> i32 {
        match self {
            Evaluation::Classical => crate::eval::evaluate(pos),
            Evaluation::Nnue(net) => net.evaluate(pos),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_network_loads_and_survives_a_round_trip() {
        let net = Network::embedded();
        assert_eq!(file::decode(&net.to_bytes()).unwrap(), *net);
        assert_eq!(net.to_bytes(), EMBEDDED_FILE);
        assert_eq!(EMBEDDED_FILE.len(), file::FILE_SIZE);
    }

    #[test]
    fn features_of_both_views_are_flips_of_each_other() {
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                for sq in Square::all() {
                    let white = feature(Color::White, color, kind, sq);
                    let black = feature(Color::Black, color, kind, sq);
                    assert!(white < INPUTS && black < INPUTS);
                    assert_eq!(flip_feature(white), black);
                    assert_eq!(flip_feature(black), white);
                    assert_eq!(feature(Color::Black, !color, kind, sq.flip_rank()), white);
                }
            }
        }
    }

    #[test]
    fn interning_keeps_one_copy_per_network() {
        let mut changed = Network::embedded().clone();
        changed.output_bias += 1;
        let changed = Network::from_parts(
            changed.transformer_weights,
            changed.transformer_biases,
            changed.output_weights,
            changed.output_bias,
        )
        .unwrap();
        let a = Network::intern(changed.clone());
        let b = Network::intern(changed);
        assert!(std::ptr::eq(a, b));
        assert!(std::ptr::eq(
            Network::intern(Network::embedded().clone()),
            Network::embedded()
        ));
        assert_ne!(a.checksum(), Network::embedded().checksum());
    }
}
