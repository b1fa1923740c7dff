//! The network's two hot loops in vector code: applying transformer rows to an accumulator
//! (a fused pass: the source values plus every added row minus every removed one, stored
//! once), and the output layer (clipped ReLU, or its square, then a dot product with the
//! output weights).
//!
//! Every version gives the same integers as the portable one. Accumulator lanes are
//! wrapping i16 sums, which come out the same in any order. The output's i32 sums cannot
//! overflow in any order either (`OUTPUT_SUM_BOUND`, `SQUARED_OUTPUT_SUM_BOUND`), so
//! regrouping them into vector lanes changes nothing.
//!
//! AVX2 is used when the CPU has it, decided once at first use; `IRONWOOD_SIMD=scalar` or
//! `avx2` picks a path instead (to measure or check one). An AVX-512 version (4 zmm
//! registers per half instead of 8 ymm) was measured and dropped: on this project's AMD
//! EPYC it was no faster than AVX2 (bench median user time 3.07 s against 2.90 s).

use super::HIDDEN;
#[cfg(target_arch = "x86_64")]
use super::QA;
use std::sync::OnceLock;

/// The environment variable that forces a code path.
pub const SIMD_ENV_VAR: &str = "IRONWOOD_SIMD";

/// The largest |sum| the output layer's i32 can reach, whatever order the 2 x HIDDEN
/// products are added in: each clipped value is at most QA and each weight at least
/// `i16::MIN` in size.
const OUTPUT_SUM_BOUND: i64 = 2 * HIDDEN as i64 * super::QA as i64 * -(i16::MIN as i64);
const _: () = assert!(OUTPUT_SUM_BOUND <= i32::MAX as i64);

/// The same for the squared clipped ReLU's sum of v x v x w: weights are at most
/// `MAX_SCRELU_OUTPUT_WEIGHT` in size there (checked when a network is made), so
/// 256 x 255 x 255 x 127 = 2,114,092,800 fits an i32, just.
const SQUARED_OUTPUT_SUM_BOUND: i64 = 2
    * HIDDEN as i64
    * super::QA as i64
    * super::QA as i64
    * super::file::MAX_SCRELU_OUTPUT_WEIGHT as i64;
const _: () = assert!(SQUARED_OUTPUT_SUM_BOUND <= i32::MAX as i64);

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

/// The transformer row of input `feature`.
#[inline]
fn row(weights: &[i16], feature: u16) -> &[i16; HIDDEN] {
    let start = usize::from(feature) * HIDDEN;
    weights[start..start + HIDDEN].try_into().unwrap()
}

/// `values` becomes `source` (or its own values when `source` is None) plus the rows of
/// `adds` minus the rows of `subs`, lane by lane with i16 wrapping.
#[inline]
pub(super) fn apply_rows(
    path: SimdPath,
    values: &mut [i16; HIDDEN],
    source: Option<&[i16; HIDDEN]>,
    weights: &[i16],
    adds: &[u16],
    subs: &[u16],
) {
    match path.0 {
        Instructions::Scalar => apply_rows_scalar(values, source, weights, adds, subs),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a SimdPath other than scalar is only made when the CPU has its features.
        Instructions::Avx2 => unsafe { x86::apply_rows_avx2(values, source, weights, adds, subs) },
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
/// move's values with the first half of `weights`, the other side's with the second.
#[inline]
pub(super) fn output_sum(
    path: SimdPath,
    own: &[i16; HIDDEN],
    other: &[i16; HIDDEN],
    weights: &[i16; 2 * HIDDEN],
) -> i32 {
    match path.0 {
        Instructions::Scalar => output_sum_scalar(own, other, weights),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a SimdPath other than scalar is only made when the CPU has its features.
        Instructions::Avx2 => unsafe { x86::output_sum_avx2(own, other, weights) },
        #[cfg(not(target_arch = "x86_64"))]
        _ => output_sum_scalar(own, other, weights),
    }
}

/// The squared clipped ReLU's output sum before the bias, in QA x QA x QB units: v x v x w
/// with v = clamp(value, 0, QA), halves as in `output_sum`. Every |weight| must be at most
/// `MAX_SCRELU_OUTPUT_WEIGHT` (the vector path multiplies v x w in i16 lanes).
#[inline]
pub(super) fn squared_output_sum(
    path: SimdPath,
    own: &[i16; HIDDEN],
    other: &[i16; HIDDEN],
    weights: &[i16; 2 * HIDDEN],
) -> i32 {
    match path.0 {
        Instructions::Scalar => squared_output_sum_scalar(own, other, weights),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a SimdPath other than scalar is only made when the CPU has its features.
        Instructions::Avx2 => unsafe { x86::squared_output_sum_avx2(own, other, weights) },
        #[cfg(not(target_arch = "x86_64"))]
        _ => squared_output_sum_scalar(own, other, weights),
    }
}

fn apply_rows_scalar(
    values: &mut [i16; HIDDEN],
    source: Option<&[i16; HIDDEN]>,
    weights: &[i16],
    adds: &[u16],
    subs: &[u16],
) {
    if let Some(source) = source {
        *values = *source;
    }
    for &feature in adds {
        for (v, w) in values.iter_mut().zip(row(weights, feature)) {
            *v = v.wrapping_add(*w);
        }
    }
    for &feature in subs {
        for (v, w) in values.iter_mut().zip(row(weights, feature)) {
            *v = v.wrapping_sub(*w);
        }
    }
}

fn count_differences_scalar(a: &[u64; 12], b: &[u64; 12]) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x ^ y).count_ones()).sum()
}

fn output_sum_scalar(
    own: &[i16; HIDDEN],
    other: &[i16; HIDDEN],
    weights: &[i16; 2 * HIDDEN],
) -> i32 {
    // One loop per half, not a chained iterator: the compiler vectorizes these.
    let half = |values: &[i16; HIDDEN], weights: &[i16]| -> i32 {
        values
            .iter()
            .zip(weights)
            .map(|(&v, &w)| i32::from(v.clamp(0, super::QA as i16)) * i32::from(w))
            .sum()
    };
    half(own, &weights[..HIDDEN]) + half(other, &weights[HIDDEN..])
}

fn squared_output_sum_scalar(
    own: &[i16; HIDDEN],
    other: &[i16; HIDDEN],
    weights: &[i16; 2 * HIDDEN],
) -> i32 {
    let half = |values: &[i16; HIDDEN], weights: &[i16]| -> i32 {
        values
            .iter()
            .zip(weights)
            .map(|(&v, &w)| {
                let clipped = i32::from(v.clamp(0, super::QA as i16));
                clipped * i32::from(w) * clipped
            })
            .sum()
    };
    half(own, &weights[..HIDDEN]) + half(other, &weights[HIDDEN..])
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{HIDDEN, QA, count_differences_scalar, row};
    use std::arch::x86_64::*;

    /// i16 lanes in a 256-bit register.
    const LANES_256: usize = 16;
    /// A whole accumulator half fits in registers: 8 of the 16 ymm.
    const REGISTERS_256: usize = HIDDEN / LANES_256;
    // The kernels walk whole registers: a remainder would be left out.
    const _: () = assert!(HIDDEN.is_multiple_of(LANES_256));

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

    /// The accumulator half stays in eight registers while every row is added or
    /// subtracted, and is stored once.
    #[target_feature(enable = "avx2")]
    pub(super) fn apply_rows_avx2(
        values: &mut [i16; HIDDEN],
        source: Option<&[i16; HIDDEN]>,
        weights: &[i16],
        adds: &[u16],
        subs: &[u16],
    ) {
        let mut sums = [_mm256_setzero_si256(); REGISTERS_256];
        let start = source.unwrap_or(values);
        for (sum, lanes) in sums.iter_mut().zip(start.as_chunks().0) {
            *sum = load_256(lanes);
        }
        for &feature in adds {
            for (sum, lanes) in sums.iter_mut().zip(row(weights, feature).as_chunks().0) {
                *sum = _mm256_add_epi16(*sum, load_256(lanes));
            }
        }
        for &feature in subs {
            for (sum, lanes) in sums.iter_mut().zip(row(weights, feature).as_chunks().0) {
                *sum = _mm256_sub_epi16(*sum, load_256(lanes));
            }
        }
        for (sum, lanes) in sums.iter().zip(values.as_chunks_mut().0) {
            store_256(lanes, *sum);
        }
    }

    /// madd multiplies the clipped values (0..=QA) by the weights and adds neighbouring
    /// pairs into i32 lanes: no pair can overflow, as a value is never -32768.
    #[target_feature(enable = "avx2")]
    pub(super) fn output_sum_avx2(
        own: &[i16; HIDDEN],
        other: &[i16; HIDDEN],
        weights: &[i16; 2 * HIDDEN],
    ) -> i32 {
        let zero = _mm256_setzero_si256();
        let ceiling = _mm256_set1_epi16(QA as i16);
        let mut sums = zero;
        let values = own.as_chunks().0.iter().chain(other.as_chunks().0);
        for (lanes, weight_lanes) in values.zip(weights.as_chunks().0) {
            let clipped = _mm256_min_epi16(_mm256_max_epi16(load_256(lanes), zero), ceiling);
            sums = _mm256_add_epi32(sums, _mm256_madd_epi16(clipped, load_256(weight_lanes)));
        }
        horizontal_sum(sums)
    }

    /// The squared clipped ReLU: v x w in i16 lanes (|w| <= 127 keeps it within 32385),
    /// then madd multiplies that by v again and adds neighbouring pairs into i32 lanes.
    #[target_feature(enable = "avx2")]
    pub(super) fn squared_output_sum_avx2(
        own: &[i16; HIDDEN],
        other: &[i16; HIDDEN],
        weights: &[i16; 2 * HIDDEN],
    ) -> i32 {
        let zero = _mm256_setzero_si256();
        let ceiling = _mm256_set1_epi16(QA as i16);
        let mut sums = zero;
        let values = own.as_chunks().0.iter().chain(other.as_chunks().0);
        for (lanes, weight_lanes) in values.zip(weights.as_chunks().0) {
            let clipped = _mm256_min_epi16(_mm256_max_epi16(load_256(lanes), zero), ceiling);
            let weighted = _mm256_mullo_epi16(clipped, load_256(weight_lanes));
            sums = _mm256_add_epi32(sums, _mm256_madd_epi16(weighted, clipped));
        }
        horizontal_sum(sums)
    }

    /// The sum of the eight i32 lanes.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn horizontal_sum(sums: __m256i) -> i32 {
        let four = _mm_add_epi32(
            _mm256_castsi256_si128(sums),
            _mm256_extracti128_si256::<1>(sums),
        );
        let two = _mm_add_epi32(four, _mm_unpackhi_epi64(four, four));
        let one = _mm_add_epi32(two, _mm_shuffle_epi32::<0b01>(two));
        _mm_cvtsi128_si32(one)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::INPUTS;
    use crate::nnue::file::MAX_SCRELU_OUTPUT_WEIGHT;
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

    #[test]
    fn every_path_gives_the_scalar_integers_on_random_values_at_the_extremes() {
        let paths = SimdPath::supported();
        assert_eq!(paths[0], SimdPath::scalar());
        let mut rng = StdRng::seed_from_u64(32);
        let weights: Vec<i16> = (0..INPUTS * HIDDEN).map(|_| any_i16(&mut rng)).collect();
        for _ in 0..2000 {
            let start: [i16; HIDDEN] = std::array::from_fn(|_| any_i16(&mut rng));
            let other: [i16; HIDDEN] = std::array::from_fn(|_| any_i16(&mut rng));
            let output_weights: [i16; 2 * HIDDEN] = std::array::from_fn(|_| any_i16(&mut rng));
            let bound = MAX_SCRELU_OUTPUT_WEIGHT;
            let screlu_weights: [i16; 2 * HIDDEN] =
                std::array::from_fn(|_| match rng.gen_range(0..4) {
                    0 => bound,
                    1 => -bound,
                    _ => rng.gen_range(-bound..=bound),
                });
            let adds: Vec<u16> = (0..rng.gen_range(0..40))
                .map(|_| rng.gen_range(0..INPUTS as u16))
                .collect();
            let subs: Vec<u16> = (0..rng.gen_range(0..40))
                .map(|_| rng.gen_range(0..INPUTS as u16))
                .collect();
            let a: [u64; 12] = std::array::from_fn(|_| rng.r#gen());
            let b: [u64; 12] = std::array::from_fn(|_| rng.r#gen());

            let mut expected = [0; HIDDEN];
            apply_rows_scalar(&mut expected, Some(&start), &weights, &adds, &subs);
            let expected_sum = output_sum_scalar(&expected, &other, &output_weights);
            let expected_squared = squared_output_sum_scalar(&expected, &other, &screlu_weights);
            for &path in &paths {
                let mut from_source = [7; HIDDEN];
                apply_rows(path, &mut from_source, Some(&start), &weights, &adds, &subs);
                let mut in_place = start;
                apply_rows(path, &mut in_place, None, &weights, &adds, &subs);
                assert_eq!(from_source, expected, "{path:?}");
                assert_eq!(in_place, expected, "{path:?}");
                assert_eq!(
                    output_sum(path, &expected, &other, &output_weights),
                    expected_sum,
                    "{path:?}"
                );
                assert_eq!(
                    squared_output_sum(path, &expected, &other, &screlu_weights),
                    expected_squared,
                    "{path:?}"
                );
                assert_eq!(
                    count_differences(path, &a, &b),
                    count_differences_scalar(&a, &b)
                );
            }
        }
    }

    #[test]
    fn the_output_sums_reach_their_bounds_without_overflowing() {
        let full = [i16::MAX; HIDDEN];
        let weights = [i16::MIN; 2 * HIDDEN];
        for path in SimdPath::supported() {
            assert_eq!(
                i64::from(output_sum(path, &full, &full, &weights)),
                -OUTPUT_SUM_BOUND,
                "{path:?}"
            );
            for sign in [1, -1] {
                let weights = [sign * MAX_SCRELU_OUTPUT_WEIGHT; 2 * HIDDEN];
                assert_eq!(
                    i64::from(squared_output_sum(path, &full, &full, &weights)),
                    i64::from(sign) * SQUARED_OUTPUT_SUM_BOUND,
                    "{path:?}"
                );
            }
        }
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
