//! The network's two hot loops in vector code: applying transformer rows to an accumulator
//! (a fused pass: the source values plus every added row minus every removed one, stored
//! once), and the output layer (clipped ReLU, or its square, then a dot product with the
//! output weights).
//!
//! Every version gives the same integers as the portable one, at every width the engine
//! runs (a multiple of 32 up to `MAX_HIDDEN`). Accumulator lanes are wrapping i16 sums,
//! which come out the same in any order. The output's partial sums are exact in i32 (no
//! lane and no portable chunk can overflow: `PRODUCTS_PER_LANE`, `SCALAR_OUTPUT_CHUNK`)
//! and their total exact in i64, so regrouping them into vector lanes changes nothing.
//!
//! The kernels take a view's values as a slice of the network's width H: the transformer
//! in tiles of 8 registers (one for H = 128, the embedded width), the output layer register
//! by register; the AVX2 kernels are compiled for widths 128, 256, 384 and 512 with the width
//! known (unrolled, as the kernels were when the width was a constant), and loop for others.
//!
//! AVX2 is used when the CPU has it, decided once at first use; `IRONWOOD_SIMD=scalar` or
//! `avx2` picks a path instead (to measure or check one). The trainer's float passes
//! (`tools::train`) follow the same choice. An AVX-512 version (4 zmm
//! registers per half instead of 8 ymm) was measured and dropped: on this project's AMD
//! EPYC it was no faster than AVX2 (bench median user time 3.07 s against 2.90 s).

use super::{MAX_HIDDEN, QA};
use std::sync::OnceLock;

/// The environment variable that forces a code path.
pub const SIMD_ENV_VAR: &str = "IRONWOOD_SIMD";

/// The largest |product| of the clipped ReLU's output layer: a clipped value (at most QA)
/// times a weight (at least `i16::MIN`).
const OUTPUT_PRODUCT_BOUND: i64 = QA as i64 * -(i16::MIN as i64);

/// The same for the squared clipped ReLU's v x v x w: weights are at most
/// `MAX_SCRELU_OUTPUT_WEIGHT` in size there (checked when a network is made).
const SQUARED_OUTPUT_PRODUCT_BOUND: i64 =
    QA as i64 * QA as i64 * super::file::MAX_SCRELU_OUTPUT_WEIGHT as i64;

/// The most products one i32 lane of the AVX2 output kernels adds, at the widest network:
/// 2H products over 8 lanes. At 256 the sums stay within an i32 whatever their order
/// (256 x 255 x 32768 = 2,139,095,040 and 256 x 255 x 255 x 127 = 2,114,092,800), which
/// is what bounds `MAX_HIDDEN`; the lanes' total is taken in an i64.
const PRODUCTS_PER_LANE: i64 = 2 * MAX_HIDDEN as i64 / 8;
const _: () = assert!(PRODUCTS_PER_LANE * OUTPUT_PRODUCT_BOUND <= i32::MAX as i64);
const _: () = assert!(PRODUCTS_PER_LANE * SQUARED_OUTPUT_PRODUCT_BOUND <= i32::MAX as i64);

/// The portable output sums add this many products in an i32 before moving the sum to an
/// i64, so the compiler can vectorize the inner loop.
const SCALAR_OUTPUT_CHUNK: usize = 128;
const _: () = assert!(SCALAR_OUTPUT_CHUNK as i64 * OUTPUT_PRODUCT_BOUND <= i32::MAX as i64);
const _: () = assert!(SCALAR_OUTPUT_CHUNK as i64 * SQUARED_OUTPUT_PRODUCT_BOUND <= i32::MAX as i64);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Instructions {
    Scalar,
    Avx2,
}

/// The instructions the network runs on. A value other than `scalar()` exists only when
/// the CPU has its instructions, which is what makes calling its kernels sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimdPath(Instructions);

impl SimdPath {
    /// Portable Rust: the reference the others must equal.
    pub fn scalar() -> SimdPath {
        SimdPath(Instructions::Scalar)
    }

    /// Every path this CPU can run, scalar first, fastest last.
    pub fn supported() -> Vec<SimdPath> {
        [Instructions::Scalar, Instructions::Avx2]
            .into_iter()
            .filter(|&i| cpu_has(i))
            .map(SimdPath)
            .collect()
    }

    /// The path called `name` (`scalar`, `avx2`), if this CPU can run it.
    pub fn named(name: &str) -> Option<SimdPath> {
        SimdPath::supported()
            .into_iter()
            .find(|path| path.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self.0 {
            Instructions::Scalar => "scalar",
            Instructions::Avx2 => "avx2",
        }
    }

    /// The path the engine uses: `IRONWOOD_SIMD`'s if set and runnable, else the fastest.
    pub fn active() -> SimdPath {
        static ACTIVE: OnceLock<SimdPath> = OnceLock::new();
        *ACTIVE.get_or_init(|| {
            let fastest = *SimdPath::supported().last().unwrap();
            match std::env::var(SIMD_ENV_VAR) {
                Ok(name) => SimdPath::named(&name).unwrap_or_else(|| {
                    log::warn!(
                        "{SIMD_ENV_VAR}={name}: not a path this CPU runs (scalar, avx2); \
                         using {}",
                        fastest.name()
                    );
                    fastest
                }),
                Err(_) => fastest,
            }
        })
    }
}

fn cpu_has(instructions: Instructions) -> bool {
    match instructions {
        Instructions::Scalar => true,
        #[cfg(target_arch = "x86_64")]
        // Every AVX2 CPU has POPCNT too; checking both lets the AVX2 path count with it.
        Instructions::Avx2 => {
            is_x86_feature_detected!("avx2") && is_x86_feature_detected!("popcnt")
        }
        #[cfg(not(target_arch = "x86_64"))]
        _ => false,
    }
}

/// The transformer row of input `feature` in a network of width `hidden` (`weights` holds
/// `hidden` values per input).
#[inline]
fn row(weights: &[i16], hidden: usize, feature: u16) -> &[i16] {
    let start = usize::from(feature) * hidden;
    &weights[start..start + hidden]
}

/// `values` (a view's H values) becomes `source` (or its own values when `source` is None)
/// plus the rows of `adds` minus the rows of `subs`, lane by lane with i16 wrapping.
/// `weights` holds H values per input; `source` has H values. Always inlined: the width's
/// match then costs the caller a compare, not a call that passes every slice again.
#[inline(always)]
pub(super) fn apply_rows(
    path: SimdPath,
    values: &mut [i16],
    source: Option<&[i16]>,
    weights: &[i16],
    adds: &[u16],
    subs: &[u16],
) {
    debug_assert!(super::hidden_width_allowed(values.len()));
    debug_assert!(source.is_none_or(|s| s.len() == values.len()));
    match path.0 {
        Instructions::Scalar => apply_rows_scalar(values, source, weights, adds, subs),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a SimdPath other than scalar is only made when the CPU has its features.
        Instructions::Avx2 => unsafe {
            match values.len() {
                128 => x86::apply_rows_fixed::<128>(
                    values.try_into().unwrap(),
                    source.map(|s| s.try_into().unwrap()),
                    weights,
                    adds,
                    subs,
                ),
                256 => x86::apply_rows_fixed::<256>(
                    values.try_into().unwrap(),
                    source.map(|s| s.try_into().unwrap()),
                    weights,
                    adds,
                    subs,
                ),
                384 => x86::apply_rows_fixed::<384>(
                    values.try_into().unwrap(),
                    source.map(|s| s.try_into().unwrap()),
                    weights,
                    adds,
                    subs,
                ),
                512 => x86::apply_rows_fixed::<512>(
                    values.try_into().unwrap(),
                    source.map(|s| s.try_into().unwrap()),
                    weights,
                    adds,
                    subs,
                ),
                _ => x86::apply_rows_avx2(values, source, weights, adds, subs),
            }
        },
        #[cfg(not(target_arch = "x86_64"))]
        _ => apply_rows_scalar(values, source, weights, adds, subs),
    }
}

/// The number of set bits in `a` XOR `b`: how many pieces differ between two boards.
#[inline]
pub(super) fn count_differences(path: SimdPath, a: &[u64; 12], b: &[u64; 12]) -> u32 {
    match path.0 {
        Instructions::Scalar => count_differences_scalar(a, b),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a SimdPath other than scalar is only made when the CPU has POPCNT.
        Instructions::Avx2 => unsafe { x86::count_differences_popcnt(a, b) },
        #[cfg(not(target_arch = "x86_64"))]
        _ => count_differences_scalar(a, b),
    }
}

/// The output layer's sum before the bias: clamp(v, 0, QA) x weight over the side to
/// move's H values with the first half of the 2H `weights`, the other side's with the
/// second.
#[inline(always)]
pub(super) fn output_sum(path: SimdPath, own: &[i16], other: &[i16], weights: &[i16]) -> i64 {
    debug_assert!(super::hidden_width_allowed(own.len()));
    debug_assert!(other.len() == own.len() && weights.len() == 2 * own.len());
    match path.0 {
        Instructions::Scalar => output_sum_scalar(own, other, weights),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a SimdPath other than scalar is only made when the CPU has its features.
        Instructions::Avx2 => unsafe {
            match own.len() {
                128 => x86::output_layer::<8, false>(own, other, weights),
                256 => x86::output_layer::<16, false>(own, other, weights),
                384 => x86::output_layer::<24, false>(own, other, weights),
                512 => x86::output_layer::<32, false>(own, other, weights),
                _ => x86::output_layer::<0, false>(own, other, weights),
            }
        },
        #[cfg(not(target_arch = "x86_64"))]
        _ => output_sum_scalar(own, other, weights),
    }
}

/// The squared clipped ReLU's output sum before the bias, in QA x QA x QB units: v x v x w
/// with v = clamp(value, 0, QA), halves as in `output_sum`. Every |weight| must be at most
/// `MAX_SCRELU_OUTPUT_WEIGHT` (the vector path multiplies v x w in i16 lanes).
#[inline(always)]
pub(super) fn squared_output_sum(
    path: SimdPath,
    own: &[i16],
    other: &[i16],
    weights: &[i16],
) -> i64 {
    debug_assert!(super::hidden_width_allowed(own.len()));
    debug_assert!(other.len() == own.len() && weights.len() == 2 * own.len());
    match path.0 {
        Instructions::Scalar => squared_output_sum_scalar(own, other, weights),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a SimdPath other than scalar is only made when the CPU has its features.
        Instructions::Avx2 => unsafe {
            match own.len() {
                128 => x86::output_layer::<8, true>(own, other, weights),
                256 => x86::output_layer::<16, true>(own, other, weights),
                384 => x86::output_layer::<24, true>(own, other, weights),
                512 => x86::output_layer::<32, true>(own, other, weights),
                _ => x86::output_layer::<0, true>(own, other, weights),
            }
        },
        #[cfg(not(target_arch = "x86_64"))]
        _ => squared_output_sum_scalar(own, other, weights),
    }
}

fn apply_rows_scalar(
    values: &mut [i16],
    source: Option<&[i16]>,
    weights: &[i16],
    adds: &[u16],
    subs: &[u16],
) {
    let hidden = values.len();
    if let Some(source) = source {
        values.copy_from_slice(source);
    }
    for &feature in adds {
        for (v, w) in values.iter_mut().zip(row(weights, hidden, feature)) {
            *v = v.wrapping_add(*w);
        }
    }
    for &feature in subs {
        for (v, w) in values.iter_mut().zip(row(weights, hidden, feature)) {
            *v = v.wrapping_sub(*w);
        }
    }
}

fn count_differences_scalar(a: &[u64; 12], b: &[u64; 12]) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x ^ y).count_ones()).sum()
}

/// Sums `product` over `values` and `weights` pair by pair, `SCALAR_OUTPUT_CHUNK` of them in
/// an i32 at a time (which cannot overflow), the chunks in an i64.
#[inline]
fn chunked_sum(values: &[i16], weights: &[i16], product: impl Fn(i16, i16) -> i32) -> i64 {
    values
        .chunks(SCALAR_OUTPUT_CHUNK)
        .zip(weights.chunks(SCALAR_OUTPUT_CHUNK))
        .map(|(values, weights)| {
            // One loop per chunk, not a chained iterator: the compiler vectorizes these.
            let chunk: i32 = values
                .iter()
                .zip(weights)
                .map(|(&v, &w)| product(v, w))
                .sum();
            i64::from(chunk)
        })
        .sum()
}

fn output_sum_scalar(own: &[i16], other: &[i16], weights: &[i16]) -> i64 {
    let product = |v: i16, w: i16| i32::from(v.clamp(0, QA as i16)) * i32::from(w);
    let (own_weights, other_weights) = weights.split_at(own.len());
    chunked_sum(own, own_weights, product) + chunked_sum(other, other_weights, product)
}

fn squared_output_sum_scalar(own: &[i16], other: &[i16], weights: &[i16]) -> i64 {
    let product = |v: i16, w: i16| {
        let clipped = i32::from(v.clamp(0, QA as i16));
        clipped * i32::from(w) * clipped
    };
    let (own_weights, other_weights) = weights.split_at(own.len());
    chunked_sum(own, own_weights, product) + chunked_sum(other, other_weights, product)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{QA, count_differences_scalar, row};
    use crate::nnue::HIDDEN_STEP;
    use std::arch::x86_64::*;

    /// i16 lanes in a 256-bit register.
    const LANES_256: usize = 16;
    /// The accumulator is walked in tiles of this many registers (128 values), each kept in
    /// registers (8 of the 16 ymm) while every row is added or subtracted, and stored once.
    /// A network of width 128 is one tile; a width that is not a multiple of 128 ends with
    /// a tile of 2, 4 or 6 registers.
    const TILE_REGISTERS: usize = 8;
    const TILE: usize = TILE_REGISTERS * LANES_256;
    // Widths are multiples of two registers: the tiles leave nothing out.
    const _: () = assert!(HIDDEN_STEP.is_multiple_of(2 * LANES_256));
    const _: () = assert!(TILE.is_multiple_of(HIDDEN_STEP));

    #[inline]
    #[target_feature(enable = "avx2")]
    fn load_256(lanes: &[i16; LANES_256]) -> __m256i {
        // SAFETY: `lanes` is 32 readable bytes; loadu needs no alignment.
        unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) }
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn store_256(lanes: &mut [i16; LANES_256], value: __m256i) {
        // SAFETY: `lanes` is 32 writable bytes; storeu needs no alignment.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), value) }
    }

    /// The release build targets plain x86-64, whose `count_ones` is a dozen instructions;
    /// here it is one.
    #[target_feature(enable = "popcnt")]
    pub(super) fn count_differences_popcnt(a: &[u64; 12], b: &[u64; 12]) -> u32 {
        count_differences_scalar(a, b)
    }

    /// `apply_rows_avx2` for a width `H` the compiler knows (a multiple of `TILE`): the
    /// common widths, 128 (one tile) to 512, with no loop or
    /// bounds left to check but the rows'.
    #[target_feature(enable = "avx2")]
    pub(super) fn apply_rows_fixed<const H: usize>(
        values: &mut [i16; H],
        source: Option<&[i16; H]>,
        weights: &[i16],
        adds: &[u16],
        subs: &[u16],
    ) {
        let row = |feature: u16| -> &[i16; H] {
            let start = usize::from(feature) * H;
            weights[start..start + H].try_into().unwrap()
        };
        for tile in 0..H / TILE {
            let span = tile * TILE..(tile + 1) * TILE;
            let mut sums = [_mm256_setzero_si256(); TILE_REGISTERS];
            let start: &[i16; H] = source.unwrap_or(values);
            for (sum, lanes) in sums.iter_mut().zip(start[span.clone()].as_chunks().0) {
                *sum = load_256(lanes);
            }
            for &feature in adds {
                for (sum, lanes) in sums
                    .iter_mut()
                    .zip(row(feature)[span.clone()].as_chunks().0)
                {
                    *sum = _mm256_add_epi16(*sum, load_256(lanes));
                }
            }
            for &feature in subs {
                for (sum, lanes) in sums
                    .iter_mut()
                    .zip(row(feature)[span.clone()].as_chunks().0)
                {
                    *sum = _mm256_sub_epi16(*sum, load_256(lanes));
                }
            }
            for (sum, lanes) in sums.iter().zip(values[span].as_chunks_mut().0) {
                store_256(lanes, *sum);
            }
        }
    }

    /// Any width: tile by tile (`TILE`), the tile's values kept in registers while every
    /// row is added or subtracted, and stored once.
    #[target_feature(enable = "avx2")]
    pub(super) fn apply_rows_avx2(
        values: &mut [i16],
        source: Option<&[i16]>,
        weights: &[i16],
        adds: &[u16],
        subs: &[u16],
    ) {
        let hidden = values.len();
        let mut at = 0;
        while at < hidden {
            match (hidden - at) / LANES_256 {
                2 => apply_tile::<2>(values, source, weights, adds, subs, at),
                4 => apply_tile::<4>(values, source, weights, adds, subs, at),
                6 => apply_tile::<6>(values, source, weights, adds, subs, at),
                _ => apply_tile::<TILE_REGISTERS>(values, source, weights, adds, subs, at),
            }
            at += TILE;
        }
    }

    /// `apply_rows_avx2` on the `REGISTERS` x 16 values from `at`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn apply_tile<const REGISTERS: usize>(
        values: &mut [i16],
        source: Option<&[i16]>,
        weights: &[i16],
        adds: &[u16],
        subs: &[u16],
        at: usize,
    ) {
        let hidden = values.len();
        let span = at..at + REGISTERS * LANES_256;
        let mut sums = [_mm256_setzero_si256(); REGISTERS];
        let start = &source.unwrap_or(values)[span.clone()];
        for (sum, lanes) in sums.iter_mut().zip(start.as_chunks().0) {
            *sum = load_256(lanes);
        }
        for &feature in adds {
            let lanes = &row(weights, hidden, feature)[span.clone()];
            for (sum, lanes) in sums.iter_mut().zip(lanes.as_chunks().0) {
                *sum = _mm256_add_epi16(*sum, load_256(lanes));
            }
        }
        for &feature in subs {
            let lanes = &row(weights, hidden, feature)[span.clone()];
            for (sum, lanes) in sums.iter_mut().zip(lanes.as_chunks().0) {
                *sum = _mm256_sub_epi16(*sum, load_256(lanes));
            }
        }
        for (sum, lanes) in sums.iter().zip(values[span].as_chunks_mut().0) {
            store_256(lanes, *sum);
        }
    }

    /// The output layer over `REGISTERS` registers per view, a count the compiler knows for
    /// the common widths (128 to 512: it unrolls them), or with `REGISTERS` 0 as many as
    /// the width has. Clipped ReLU: madd multiplies the clipped values (0..=QA) by the
    /// weights and adds neighbouring pairs into i32 lanes (no pair can overflow, as a value
    /// is never -32768, and no lane: `PRODUCTS_PER_LANE`). Squared (`SQUARED`): v x w in
    /// i16 lanes (|w| <= 127 keeps it within 32385), then madd multiplies that by v again.
    #[target_feature(enable = "avx2")]
    pub(super) fn output_layer<const REGISTERS: usize, const SQUARED: bool>(
        own: &[i16],
        other: &[i16],
        weights: &[i16],
    ) -> i64 {
        let registers = match REGISTERS {
            0 => own.len() / LANES_256,
            n => n,
        };
        let (own_weights, other_weights) = weights.split_at(own.len());
        let zero = _mm256_setzero_si256();
        let ceiling = _mm256_set1_epi16(QA as i16);
        let mut sums = zero;
        for (values, weights) in [(own, own_weights), (other, other_weights)] {
            let values = &values.as_chunks::<LANES_256>().0[..registers];
            let weights = &weights.as_chunks::<LANES_256>().0[..registers];
            for (lanes, weight_lanes) in values.iter().zip(weights) {
                let clipped = _mm256_min_epi16(_mm256_max_epi16(load_256(lanes), zero), ceiling);
                let products = if SQUARED {
                    let weighted = _mm256_mullo_epi16(clipped, load_256(weight_lanes));
                    _mm256_madd_epi16(weighted, clipped)
                } else {
                    _mm256_madd_epi16(clipped, load_256(weight_lanes))
                };
                sums = _mm256_add_epi32(sums, products);
            }
        }
        horizontal_sum(sums)
    }

    /// The sum of the eight i32 lanes, in an i64 (eight full lanes may pass an i32).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn horizontal_sum(sums: __m256i) -> i64 {
        let low = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(sums));
        let high = _mm256_cvtepi32_epi64(_mm256_extracti128_si256::<1>(sums));
        let four = _mm256_add_epi64(low, high);
        let two = _mm_add_epi64(
            _mm256_castsi256_si128(four),
            _mm256_extracti128_si256::<1>(four),
        );
        let one = _mm_add_epi64(two, _mm_unpackhi_epi64(two, two));
        _mm_cvtsi128_si64(one)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::file::MAX_SCRELU_OUTPUT_WEIGHT;
    use crate::nnue::{HIDDEN_STEP, INPUTS};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Any i16 at all, with the extremes (where wrapping and clamping bite) often.
    fn any_i16(rng: &mut StdRng) -> i16 {
        match rng.gen_range(0..8) {
            0 => i16::MIN,
            1 => i16::MAX,
            2 => rng.gen_range(-2..=super::super::QA as i16 + 2),
            _ => rng.r#gen(),
        }
    }

    /// Widths the tests run: the smallest, the embedded one, the wider ones a network is
    /// trained at (a tile and a part, whole tiles), one of each partial tile, the widest.
    const WIDTHS: [usize; 10] = [
        HIDDEN_STEP,
        128,
        256,
        384,
        512,
        160,
        192,
        224,
        352,
        MAX_HIDDEN,
    ];

    #[test]
    fn every_path_gives_the_scalar_integers_on_random_values_at_the_extremes() {
        let paths = SimdPath::supported();
        assert_eq!(paths[0], SimdPath::scalar());
        let mut rng = StdRng::seed_from_u64(32);
        for hidden in WIDTHS {
            assert!(crate::nnue::hidden_width_allowed(hidden));
            let weights: Vec<i16> = (0..INPUTS * hidden).map(|_| any_i16(&mut rng)).collect();
            let random =
                |rng: &mut StdRng, n: usize| -> Vec<i16> { (0..n).map(|_| any_i16(rng)).collect() };
            // About as much work at every width.
            for _ in 0..(2000 * 128 / hidden).max(200) {
                let start = random(&mut rng, hidden);
                let other = random(&mut rng, hidden);
                let output_weights = random(&mut rng, 2 * hidden);
                let bound = MAX_SCRELU_OUTPUT_WEIGHT;
                let screlu_weights: Vec<i16> = (0..2 * hidden)
                    .map(|_| match rng.gen_range(0..4) {
                        0 => bound,
                        1 => -bound,
                        _ => rng.gen_range(-bound..=bound),
                    })
                    .collect();
                let adds: Vec<u16> = (0..rng.gen_range(0..40))
                    .map(|_| rng.gen_range(0..INPUTS as u16))
                    .collect();
                let subs: Vec<u16> = (0..rng.gen_range(0..40))
                    .map(|_| rng.gen_range(0..INPUTS as u16))
                    .collect();
                let a: [u64; 12] = std::array::from_fn(|_| rng.r#gen());
                let b: [u64; 12] = std::array::from_fn(|_| rng.r#gen());

                let mut expected = vec![0; hidden];
                apply_rows_scalar(&mut expected, Some(&start), &weights, &adds, &subs);
                let expected_sum = output_sum_scalar(&expected, &other, &output_weights);
                let expected_squared =
                    squared_output_sum_scalar(&expected, &other, &screlu_weights);
                // The portable sums are the exact ones.
                let exact = |weights: &[i16], product: &dyn Fn(i64, i64) -> i64| -> i64 {
                    expected
                        .iter()
                        .chain(&other)
                        .zip(weights)
                        .map(|(&v, &w)| product(i64::from(v.clamp(0, QA as i16)), i64::from(w)))
                        .sum()
                };
                assert_eq!(expected_sum, exact(&output_weights, &|v, w| v * w));
                assert_eq!(expected_squared, exact(&screlu_weights, &|v, w| v * v * w));
                for &path in &paths {
                    let mut from_source = vec![7; hidden];
                    apply_rows(path, &mut from_source, Some(&start), &weights, &adds, &subs);
                    let mut in_place = start.clone();
                    apply_rows(path, &mut in_place, None, &weights, &adds, &subs);
                    assert_eq!(from_source, expected, "{path:?} at {hidden}");
                    assert_eq!(in_place, expected, "{path:?} at {hidden}");
                    assert_eq!(
                        output_sum(path, &expected, &other, &output_weights),
                        expected_sum,
                        "{path:?} at {hidden}"
                    );
                    assert_eq!(
                        squared_output_sum(path, &expected, &other, &screlu_weights),
                        expected_squared,
                        "{path:?} at {hidden}"
                    );
                    assert_eq!(
                        count_differences(path, &a, &b),
                        count_differences_scalar(&a, &b)
                    );
                }
            }
        }
    }

    #[test]
    fn a_kernel_writes_exactly_the_networks_width_and_leaves_the_rest() {
        // The accumulator's spare capacity beyond H is never read or written.
        let mut rng = StdRng::seed_from_u64(9);
        for hidden in WIDTHS {
            let weights: Vec<i16> = (0..INPUTS * hidden).map(|_| any_i16(&mut rng)).collect();
            for path in SimdPath::supported() {
                let mut buffer = vec![-5i16; hidden + 64];
                let source = vec![3i16; hidden];
                apply_rows(
                    path,
                    &mut buffer[..hidden],
                    Some(&source),
                    &weights,
                    &[1, 700],
                    &[2],
                );
                assert!(
                    buffer[hidden..].iter().all(|&v| v == -5),
                    "{path:?} {hidden}"
                );
                let mut expected = vec![0; hidden];
                apply_rows_scalar(&mut expected, Some(&source), &weights, &[1, 700], &[2]);
                assert_eq!(buffer[..hidden], expected[..], "{path:?} {hidden}");
            }
        }
    }

    #[test]
    fn the_output_sums_reach_their_bounds_at_every_width_without_overflowing() {
        for hidden in WIDTHS {
            let full = vec![i16::MAX; hidden];
            let weights = vec![i16::MIN; 2 * hidden];
            let products = 2 * hidden as i64;
            for path in SimdPath::supported() {
                assert_eq!(
                    output_sum(path, &full, &full, &weights),
                    -products * OUTPUT_PRODUCT_BOUND,
                    "{path:?} at {hidden}"
                );
                for sign in [1, -1] {
                    let weights = vec![sign * MAX_SCRELU_OUTPUT_WEIGHT; 2 * hidden];
                    assert_eq!(
                        squared_output_sum(path, &full, &full, &weights),
                        i64::from(sign) * products * SQUARED_OUTPUT_PRODUCT_BOUND,
                        "{path:?} at {hidden}"
                    );
                }
            }
        }
        // Past 2^31 from width 256 on: the total needs its i64.
        assert!(2 * 256 * OUTPUT_PRODUCT_BOUND > i64::from(i32::MAX));
    }

    #[test]
    fn paths_are_found_by_name_only_where_the_cpu_runs_them() {
        assert_eq!(SimdPath::named("scalar"), Some(SimdPath::scalar()));
        assert_eq!(SimdPath::named("sse9"), None);
        for path in SimdPath::supported() {
            assert_eq!(SimdPath::named(path.name()), Some(path));
        }
        assert!(SimdPath::supported().contains(&SimdPath::active()));
    }
}
