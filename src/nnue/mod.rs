//! The neural network evaluation (NNUE): a (768 x K -> H) x 2 -> 1 perspective network with
//! a clipped or squared clipped ReLU and 1 or 8 output buckets by material, int16 weights,
//! its inputs optionally mirrored a-h by each view's king file (`InputTransform`) and given
//! one of K sets of weights by where that king stands (`KingBuckets`).
//! `Network` holds the quantised weights and scores an accumulator; `accumulator` keeps
//! the hidden layer up to date move by move.

pub mod accumulator;
pub mod file;
pub mod simd;

use crate::board::{Color, PieceKind, Position, Square};
use crate::eval::EVAL_LIMIT;
use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};

pub use accumulator::Accumulator;
pub use file::NetworkError;
pub use simd::SimdPath;

/// Piece-square inputs: (own or other side) x kind x square, from one side's view.
pub const INPUTS: usize = 768;
/// The trainer's default hidden width per perspective: the first generations' (the embedded
/// network records its own width, as every file does).
pub const DEFAULT_HIDDEN: usize = 128;
/// A network's hidden width H is a multiple of this (two AVX2 registers of i16 lanes)...
pub const HIDDEN_STEP: usize = 32;
/// ...up to this: an accumulator holds this many values per view whatever the network, so
/// the search's stack needs no allocation, and the output layer's i32 lanes cannot overflow
/// below it (`simd`).
pub const MAX_HIDDEN: usize = 1024;

/// Can the engine run a network of hidden width `hidden` (a multiple of `HIDDEN_STEP` from
/// `HIDDEN_STEP` to `MAX_HIDDEN`)?
pub const fn hidden_width_allowed(hidden: usize) -> bool {
    hidden >= HIDDEN_STEP && hidden <= MAX_HIDDEN && hidden.is_multiple_of(HIDDEN_STEP)
}
/// The output bucket counts a network may have: one output layer, or one per material band.
pub const OUTPUT_BUCKET_COUNTS: [usize; 2] = [1, 8];
/// Quantisation: transformer weights and biases are floats x QA, output weights x QB, the
/// output bias x QA x QB; the float output times SCALE is centipawns.
pub const QA: i32 = 255;
pub const QB: i32 = 64;
pub const SCALE: i32 = 400;

/// The hidden layer's activation, with its code in the file header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Activation {
    /// Clipped ReLU, clamp(x, 0, 1): code 0, the only one of file version 1.
    ClippedRelu,
    /// Squared clipped ReLU, clamp(x, 0, 1)^2: code 1.
    SquaredClippedRelu,
}

impl Activation {
    pub const ALL: [Activation; 2] = [Activation::ClippedRelu, Activation::SquaredClippedRelu];

    pub fn code(self) -> u32 {
        match self {
            Activation::ClippedRelu => 0,
            Activation::SquaredClippedRelu => 1,
        }
    }

    pub fn from_code(code: u32) -> Option<Activation> {
        Activation::ALL.into_iter().find(|a| a.code() == code)
    }

    /// The name `ironwood train --activation` takes.
    pub fn name(self) -> &'static str {
        match self {
            Activation::ClippedRelu => "crelu",
            Activation::SquaredClippedRelu => "screlu",
        }
    }

    /// The activation of a float hidden value.
    #[inline]
    pub fn apply(self, x: f32) -> f32 {
        let clipped = x.clamp(0.0, 1.0);
        match self {
            Activation::ClippedRelu => clipped,
            Activation::SquaredClippedRelu => clipped * clipped,
        }
    }

    /// Its derivative (0 at and beyond the clipping points, where the trainer takes it so).
    #[inline]
    pub fn derivative(self, x: f32) -> f32 {
        if x <= 0.0 || x >= 1.0 {
            return 0.0;
        }
        match self {
            Activation::ClippedRelu => 1.0,
            Activation::SquaredClippedRelu => 2.0 * x,
        }
    }
}

/// How a view's inputs are placed on the board before they reach the weights, with its code
/// in the file header (file version 3; versions 1 and 2 are all `Plain`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputTransform {
    /// Every piece on its own square (after the view's vertical flip): code 0.
    Plain,
    /// A view whose own king stands on files e-h sees the whole board mirrored a-h, so the
    /// weights only ever see their own king on files a-d and each one learns from twice the
    /// positions: code 1.
    MirroredByKingFile,
}

impl InputTransform {
    pub const ALL: [InputTransform; 2] =
        [InputTransform::Plain, InputTransform::MirroredByKingFile];

    pub fn code(self) -> u32 {
        match self {
            InputTransform::Plain => 0,
            InputTransform::MirroredByKingFile => 1,
        }
    }

    pub fn from_code(code: u32) -> Option<InputTransform> {
        InputTransform::ALL.into_iter().find(|t| t.code() == code)
    }

    /// A name for logs.
    pub fn name(self) -> &'static str {
        match self {
            InputTransform::Plain => "plain inputs",
            InputTransform::MirroredByKingFile => "inputs mirrored by king file",
        }
    }

    /// Does the view whose own king stands on `king` see the board mirrored a-h? The
    /// view's vertical flip keeps files, so the board's square serves for either view.
    #[inline]
    pub fn mirrors(self, king: Square) -> bool {
        self == InputTransform::MirroredByKingFile && king.file() >= 4
    }
}

/// Most sets of input weights a network may have, one per king bucket.
pub const MAX_KING_BUCKETS: usize = 16;

/// Which set of input weights (of `count`) a view's pieces go through, by the square of
/// the view's own king as the view sees it (flipped for Black, mirrored a-h when its
/// `InputTransform` mirrors): the table gives a bucket for each of those 64 squares. One
/// bucket is the plain network of file versions 1 to 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KingBuckets {
    table: [u8; 64],
    count: u8,
}

impl KingBuckets {
    /// One set of weights for every king square.
    pub const NONE: KingBuckets = KingBuckets {
        table: [0; 64],
        count: 1,
    };

    /// The buckets of a table (one per square, a1 = 0 ... h8 = 63, as the view sees the
    /// board); `count` is the highest bucket plus one. The highest bucket is the error if
    /// that passes `MAX_KING_BUCKETS`.
    pub fn from_table(table: [u8; 64]) -> Result<KingBuckets, u8> {
        let highest = *table.iter().max().unwrap_or(&0);
        let count = usize::from(highest) + 1;
        if count > MAX_KING_BUCKETS {
            return Err(highest);
        }
        Ok(KingBuckets {
            table,
            count: count as u8,
        })
    }

    /// How many sets of input weights.
    #[inline]
    pub fn count(self) -> usize {
        usize::from(self.count)
    }

    /// The bucket of a view whose own king stands on `square` as the view sees it.
    #[inline]
    pub fn bucket(self, square: usize) -> usize {
        usize::from(self.table[square])
    }

    pub fn table(&self) -> &[u8; 64] {
        &self.table
    }
}

/// How one view turns pieces into inputs: the mask its squares are XORed with
/// (`square_mask`) and the first input of its king bucket's weights. Two positions whose
/// view has the same `ViewInputs` differ only by the pieces that differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ViewInputs {
    pub square_mask: usize,
    pub offset: usize,
}

impl ViewInputs {
    /// `view`'s inputs when its own king stands on board square `king`.
    #[inline]
    pub fn of(
        transform: InputTransform,
        king_buckets: KingBuckets,
        view: Color,
        king: Square,
    ) -> ViewInputs {
        let square_mask = square_mask(view, transform.mirrors(king));
        ViewInputs {
            square_mask,
            offset: king_buckets.bucket(king.index() ^ square_mask) * INPUTS,
        }
    }

    /// The input of a piece of `color` and `kind` on board square `sq` for `view`.
    #[inline]
    pub fn feature(self, view: Color, color: Color, kind: PieceKind, sq: Square) -> usize {
        feature_with_mask(view, color, kind, sq, self.square_mask) + self.offset
    }
}

/// The output bucket of a position with `piece_count` pieces (kings included) in a network
/// of `buckets` buckets: with 8, (pieces - 2) / 4, so bare kings are bucket 0 and the
/// starting 32 pieces bucket 7. The engine and the trainer both call this one function.
#[inline]
pub fn output_bucket(piece_count: u32, buckets: usize) -> usize {
    let pieces_per_bucket = 32 / buckets.max(1);
    (piece_count.saturating_sub(2) as usize / pieces_per_bucket).min(buckets.max(1) - 1)
}

/// The network compiled into the binary: default.nnue (made by `ironwood train`, see README),
/// or the file a build named in `IRONWOOD_EVALFILE` (build.rs).
static EMBEDDED_FILE: &[u8] = include_bytes!(env!("IRONWOOD_NETWORK"));

/// The input for a piece of `color` and `kind` on `sq`, seen from `view`'s side: the board
/// is flipped for Black, so both perspectives share one set of weights.
#[inline]
pub fn feature(view: Color, color: Color, kind: PieceKind, sq: Square) -> usize {
    feature_with_mask(view, color, kind, sq, square_mask(view, false))
}

/// How `view` moves a square before it becomes a feature, as one mask to XOR its index
/// with: flipped a1 <-> a8 for Black, and mirrored a-h when `mirrored`. The accumulator
/// computes it once per view and update rather than mirror each piece's feature.
#[inline]
pub fn square_mask(view: Color, mirrored: bool) -> usize {
    let flip = match view {
        Color::White => 0,
        Color::Black => 56,
    };
    mirror_files(flip, mirrored)
}

/// `feature` with the square moved by `view`'s `square_mask`.
#[inline]
pub fn feature_with_mask(
    view: Color,
    color: Color,
    kind: PieceKind,
    sq: Square,
    square_mask: usize,
) -> usize {
    usize::from(color != view) * 384 + kind.index() * 64 + (sq.index() ^ square_mask)
}

/// White's-view feature `f` as Black sees it.
#[inline]
pub fn flip_feature(f: usize) -> usize {
    let own = f / 384;
    let rest = f % 384;
    (1 - own) * 384 + (rest & !63) + ((rest & 63) ^ 56)
}

/// Feature `f` with its square mirrored a-h when `mirrored`: a feature's low three bits, like
/// a square's index's, are the file. Also mirrors a `square_mask`.
#[inline]
pub fn mirror_files(f: usize, mirrored: bool) -> usize {
    f ^ (usize::from(mirrored) * 7)
}

/// White-view feature `f` as `view` sees it through `inputs` (`view_inputs`): the trainer's
/// input, from the white-view features its samples hold.
#[inline]
pub fn view_feature(f: usize, view: Color, inputs: ViewInputs) -> usize {
    // Black's view swaps own and other pieces; its mask flips the ranks.
    let owner = match view {
        Color::White => f,
        Color::Black => (f + 384) % INPUTS,
    };
    (owner ^ inputs.square_mask) + inputs.offset
}

/// Each view's inputs (White's, Black's) of a position under `transform` and
/// `king_buckets`, from the white-view features of its pieces, which hold both kings.
pub fn view_inputs(
    transform: InputTransform,
    king_buckets: KingBuckets,
    white_features: &[u16],
) -> [ViewInputs; 2] {
    Color::BOTH.map(|color| {
        let first_king = feature(Color::White, color, PieceKind::King, Square::new(0));
        let king = white_features
            .iter()
            .map(|&f| usize::from(f))
            .find(|f| (first_king..first_king + 64).contains(f))
            .map_or(0, |f| f - first_king);
        ViewInputs::of(transform, king_buckets, color, Square::new(king as u8))
    })
}

/// A quantised network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// The hidden width H (`hidden_width_allowed`).
    pub(crate) hidden: usize,
    /// Row `f` (H values) is the weights of input `f`, bucket by bucket (`ViewInputs`).
    pub(crate) transformer_weights: Vec<i16>,
    /// H values.
    pub(crate) transformer_biases: Vec<i16>,
    pub(crate) activation: Activation,
    pub(crate) input_transform: InputTransform,
    /// K sets of 768 rows in `transformer_weights`, one per bucket.
    pub(crate) king_buckets: KingBuckets,
    /// One row of 2 x H per output bucket, one after the other: side to move's half first,
    /// then the other side's.
    pub(crate) output_weights: Vec<i16>,
    /// One per output bucket.
    pub(crate) output_biases: Vec<i32>,
    checksum: u64,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network({INPUTS}x{}->{}, {}, {}, {} buckets, {:016x})",
            self.king_buckets.count(),
            self.hidden,
            self.input_transform.name(),
            self.activation.name(),
            self.output_biases.len(),
            self.checksum
        )
    }
}

impl Network {
    /// A network from its quantised values, of the hidden width H the biases' count says
    /// (`hidden_width_allowed`): `transformer_weights` holds H values per input (768 per
    /// king bucket),
    /// `output_weights` 2 x H per bucket and `output_biases` one, for 1 or 8 buckets.
    /// Refuses transformer values an accumulator could overflow with, and (for SCReLU)
    /// output weights the integer output layer could overflow with.
    pub fn from_parts(
        transformer_weights: Vec<i16>,
        transformer_biases: Vec<i16>,
        activation: Activation,
        input_transform: InputTransform,
        king_buckets: KingBuckets,
        output_weights: &[i16],
        output_biases: Vec<i32>,
    ) -> Result<Network, NetworkError> {
        let hidden = transformer_biases.len();
        if !hidden_width_allowed(hidden) {
            return Err(NetworkError::BadLayout {
                inputs: INPUTS as u32,
                hidden: hidden as u32,
            });
        }
        let buckets = output_biases.len();
        if !OUTPUT_BUCKET_COUNTS.contains(&buckets) {
            return Err(NetworkError::BadOutputBuckets(buckets as u32));
        }
        let inputs = INPUTS * king_buckets.count();
        if transformer_weights.len() != inputs * hidden
            || output_weights.len() != buckets * 2 * hidden
        {
            return Err(NetworkError::WrongSize {
                size: 2 * (transformer_weights.len() + hidden + output_weights.len()) + 4 * buckets,
                expected: file::payload_size(king_buckets.count(), hidden, buckets),
                inputs: inputs as u32,
                hidden: hidden as u32,
                buckets: buckets as u32,
            });
        }
        let limit = file::MAX_TRANSFORMER_VALUE;
        if let Some((index, &value)) = transformer_weights
            .iter()
            .chain(&transformer_biases)
            .enumerate()
            .find(|(_, v)| v.unsigned_abs() > limit.unsigned_abs())
        {
            return Err(NetworkError::OutOfRange { index, value });
        }
        if activation == Activation::SquaredClippedRelu {
            let limit = file::MAX_SCRELU_OUTPUT_WEIGHT;
            if let Some((index, &value)) = output_weights
                .iter()
                .enumerate()
                .find(|(_, v)| v.unsigned_abs() > limit.unsigned_abs())
            {
                return Err(NetworkError::OutputWeightOutOfRange { index, value });
            }
        }
        let mut net = Network {
            hidden,
            transformer_weights,
            transformer_biases,
            activation,
            input_transform,
            king_buckets,
            output_weights: output_weights.to_vec(),
            output_biases,
            checksum: 0,
        };
        net.checksum = file::checksum(&file::encode_checksummed(&net));
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

    /// The file's checksum (of the payload, and of the input transform where the file
    /// holds one), which names the network in logs and options.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// The hidden width H per view.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    pub fn activation(&self) -> Activation {
        self.activation
    }

    pub fn input_transform(&self) -> InputTransform {
        self.input_transform
    }

    pub fn king_buckets(&self) -> KingBuckets {
        self.king_buckets
    }

    /// `view`'s inputs when its own king stands on `king`.
    #[inline]
    pub fn view_inputs(&self, view: Color, king: Square) -> ViewInputs {
        ViewInputs::of(self.input_transform, self.king_buckets, view, king)
    }

    /// 1 or 8.
    pub fn output_buckets(&self) -> usize {
        self.output_biases.len()
    }

    /// The output bucket `pos` is scored with.
    #[inline]
    pub fn output_bucket_of(&self, pos: &Position) -> usize {
        if self.output_biases.len() == 1 {
            return 0;
        }
        output_bucket(pos.occupied().count(), self.output_biases.len())
    }

    /// The network built into the binary.
    pub fn embedded() -> Arc<Network> {
        static EMBEDDED: OnceLock<Arc<Network>> = OnceLock::new();
        Arc::clone(EMBEDDED.get_or_init(|| {
            Arc::new(
                Network::from_bytes(EMBEDDED_FILE)
                    .expect("the embedded network is valid (checked by a unit test)"),
            )
        }))
    }

    /// The output layer over an up-to-date accumulator, in centipawns for `side`, with the
    /// weights of output bucket `bucket` (`output_bucket_of`).
    pub fn output(&self, acc: &Accumulator, side: Color, bucket: usize) -> i32 {
        self.output_with(SimdPath::active(), acc, side, bucket)
    }

    /// `output` on the given code path (tests compare the paths).
    pub fn output_with(
        &self,
        path: SimdPath,
        acc: &Accumulator,
        side: Color,
        bucket: usize,
    ) -> i32 {
        debug_assert_eq!(acc.hidden(), self.hidden);
        let (own, other) = acc.perspectives(side);
        let width = 2 * self.hidden;
        let weights = &self.output_weights[bucket * width..(bucket + 1) * width];
        // Either sum is in units of QA x QB, as the bias is.
        let sum = match self.activation {
            Activation::ClippedRelu => simd::output_sum(path, own, other, weights),
            // The sum of v x v x w is in QA x QA x QB: one division brings it to QA x QB.
            Activation::SquaredClippedRelu => {
                simd::squared_output_sum(path, own, other, weights) / i64::from(QA)
            }
        };
        let sum = sum + i64::from(self.output_biases[bucket]);
        (sum * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of `pos` from scratch: centipawns for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut acc = Accumulator::for_network(self);
        acc.refresh(self, pos);
        self.finish(pos, &acc)
    }

    /// The score of `pos` from its up-to-date accumulator, with the same draw and range
    /// rules as the hand-written evaluation.
    pub fn finish(&self, pos: &Position, acc: &Accumulator) -> i32 {
        if pos.is_insufficient_material() {
            return 0;
        }
        self.output(acc, pos.side_to_move(), self.output_bucket_of(pos))
            .clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

/// Which evaluation a search uses.
#[derive(Clone)]
pub enum Evaluation {
    /// The hand-written evaluation (`crate::eval`).
    Classical,
    /// Shared by the options and every search thread (each search's threads take their
    /// own count, so evaluating pays no atomic); an `EvalFile` no longer in use is dropped.
    Nnue(Arc<Network>),
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
    pub fn describe(&self) -> String {
        match self {
            Evaluation::Classical => "classical".to_string(),
            Evaluation::Nnue(net) => format!("nnue {:016x}", net.checksum),
        }
    }

    /// The evaluation of `pos` from scratch (tests, tools; the search updates accumulators).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        match self {
            Evaluation::Classical => crate::eval::evaluate(pos),
            Evaluation::Nnue(net) => net.evaluate(pos),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// White's-view features of `pos`'s pieces, as the trainer's samples hold them.
    fn white_features(pos: &Position) -> Vec<u16> {
        pos.occupied()
            .map(|sq| {
                let piece = pos.piece_at(sq).unwrap();
                feature(Color::White, piece.color, piece.kind, sq) as u16
            })
            .collect()
    }

    #[test]
    fn the_embedded_network_loads_and_survives_a_round_trip() {
        let net = Network::embedded();
        assert_eq!(file::decode(&net.to_bytes()).unwrap(), *net);
        assert_eq!(net.to_bytes(), EMBEDDED_FILE);
        assert!(hidden_width_allowed(net.hidden()));
        // The size the file's own header (version at byte 8) and width call for.
        let version = u32::from_le_bytes(EMBEDDED_FILE[8..12].try_into().unwrap());
        assert_eq!(
            EMBEDDED_FILE.len(),
            file::header_size(version)
                + file::payload_size(
                    net.king_buckets().count(),
                    net.hidden(),
                    net.output_buckets()
                )
        );
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
    fn a_mirrored_view_sees_each_piece_on_its_a_h_mirror_square_from_king_files_e_to_h() {
        let mirrored = InputTransform::MirroredByKingFile;
        for sq in Square::all() {
            assert_eq!(
                mirrored.mirrors(sq),
                "efgh".contains(char::from(b'a' + sq.file()))
            );
            assert!(!InputTransform::Plain.mirrors(sq));
        }
        let mirror_square = |sq: Square| Square::from_file_rank(7 - sq.file(), sq.rank());
        for view in Color::BOTH {
            for color in Color::BOTH {
                for kind in PieceKind::ALL {
                    for sq in Square::all() {
                        let plain = feature(view, color, kind, sq);
                        let white = feature(Color::White, color, kind, sq);
                        assert_eq!(mirror_files(plain, false), plain);
                        assert_eq!(
                            mirror_files(plain, true),
                            feature(view, color, kind, mirror_square(sq))
                        );
                        for m in [false, true] {
                            let inputs = ViewInputs {
                                square_mask: square_mask(view, m),
                                offset: 0,
                            };
                            assert_eq!(view_feature(white, view, inputs), mirror_files(plain, m));
                        }
                    }
                }
            }
        }
        // Each view decides by its own king, found among white-view features.
        for (fen, expected) in [
            ("4k3/8/8/8/8/8/8/3K4 w - - 0 1", [false, true]),
            ("3k4/8/8/8/8/8/8/4K3 w - - 0 1", [true, false]),
            ("7k/8/8/8/8/8/8/K7 w - - 0 1", [false, true]),
            ("k7/8/8/8/8/8/8/7K b - - 0 1", [true, false]),
            ("r6k/p7/8/8/8/8/P7/1K4R1 b - - 0 1", [false, true]),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let white = white_features(&pos);
            let mirrors = |transform| {
                view_inputs(transform, KingBuckets::NONE, &white)
                    .map(|inputs| inputs.square_mask & 7 == 7)
            };
            assert_eq!(mirrors(mirrored), expected, "{fen}");
            assert_eq!(
                Color::BOTH.map(|view| mirrored.mirrors(pos.king_square(view))),
                expected
            );
            assert_eq!(mirrors(InputTransform::Plain), [false; 2]);
        }
    }

    #[test]
    fn each_view_takes_the_weights_of_its_own_kings_bucket_as_it_sees_the_board() {
        // Bucket = the rank the view sees its king on, plus 8 on files e-h as it sees them.
        let table = std::array::from_fn(|sq| (sq / 8 + 8 * usize::from(sq % 8 >= 4)) as u8);
        let by_rank = KingBuckets::from_table(table).unwrap();
        assert_eq!(by_rank.count(), 16);
        assert_eq!(KingBuckets::from_table([16; 64]), Err(16));
        assert_eq!(KingBuckets::from_table([0; 64]), Ok(KingBuckets::NONE));
        let (plain, mirrored) = (InputTransform::Plain, InputTransform::MirroredByKingFile);
        // (FEN, transform, White's bucket, Black's bucket)
        for (fen, transform, expected) in [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", plain, [8, 8]),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", mirrored, [0, 0]),
            ("8/8/3k4/8/8/6K1/8/8 b - - 0 1", plain, [10, 2]),
            ("8/8/3k4/8/8/6K1/8/8 b - - 0 1", mirrored, [2, 2]),
            ("K7/8/8/8/8/8/8/7k w - - 0 1", plain, [7, 15]),
            ("K7/8/8/8/8/8/8/7k w - - 0 1", mirrored, [7, 7]),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let white = white_features(&pos);
            let inputs = view_inputs(transform, by_rank, &white);
            assert_eq!(
                inputs.map(|i| i.offset / INPUTS),
                expected,
                "{fen} {transform:?}"
            );
            for view in Color::BOTH {
                let of_king = ViewInputs::of(transform, by_rank, view, pos.king_square(view));
                assert_eq!(inputs[view.index()], of_king);
                // A piece's input is its bucket's copy of the input without buckets.
                let unbucketed = view_inputs(transform, KingBuckets::NONE, &white)[view.index()];
                for &f in &white {
                    assert_eq!(
                        view_feature(usize::from(f), view, inputs[view.index()]),
                        view_feature(usize::from(f), view, unbucketed) + of_king.offset
                    );
                }
            }
        }
    }
}
