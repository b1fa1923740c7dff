//! OpenBench's SPSA schedule for one constant: the perturbation `c_k` and the learning rate
//! `a_k` at iteration k, which shrink to the constant's step (`c_end`) and `SPSA_R_END *
//! c_end^2` at the run's last planned iteration, and the update of theta by a pair's result.

use crate::search::params::{SPSA_R_END, SearchParam};

/// The learning rate's decay exponent (OpenBench's and Spall's alpha).
pub const ALPHA: f64 = 0.602;
/// The perturbation's decay exponent (gamma).
pub const GAMMA: f64 = 0.101;
/// OpenBench's stability constant A as a share of the planned iterations: it keeps the
/// first steps from being the largest by far.
pub const STABILITY_SHARE: f64 = 0.1;

/// One constant's schedule over a run of `pairs` planned iterations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// c: the perturbation at iteration 1.
    c: f64,
    /// a: the learning rate's numerator.
    a: f64,
    /// A.
    stability: f64,
}

impl Schedule {
    /// The schedule that ends at `c_end` and `SPSA_R_END * c_end^2` after `pairs` iterations.
    pub fn new(c_end: f64, pairs: u64) -> Schedule {
        let pairs = pairs.max(1) as f64;
        let stability = STABILITY_SHARE * pairs;
        let a_end = SPSA_R_END * c_end * c_end;
        Schedule {
            c: c_end * pairs.powf(GAMMA),
            a: a_end * (stability + pairs).powf(ALPHA),
            stability,
        }
    }

    pub fn of(param: &SearchParam, pairs: u64) -> Schedule {
        Schedule::new(param.step, pairs)
    }

    /// The perturbation at iteration `k` (1-based).
    pub fn c_k(&self, k: u64) -> f64 {
        self.c / (k.max(1) as f64).powf(GAMMA)
    }

    /// The learning rate at iteration `k` (1-based).
    pub fn a_k(&self, k: u64) -> f64 {
        self.a / (self.stability + k.max(1) as f64).powf(ALPHA)
    }

    /// The value one engine of iteration `k`'s pair plays with: theta moved by `c_k` in
    /// `direction` (+1 for the plus engine's side of the constant, -1 for the minus
    /// engine's), kept in range and rounded, as the search's constants are whole numbers.
    pub fn perturbed(&self, param: &SearchParam, theta: f64, k: u64, direction: i32) -> i32 {
        let moved = theta + self.c_k(k) * f64::from(direction);
        moved
            .clamp(f64::from(param.min), f64::from(param.max))
            .round() as i32
    }

    /// Theta after iteration `k`, whose plus engine had `delta` (+1 or -1) and scored
    /// `result` (its wins minus its losses over the pair): a plus-engine win moves theta
    /// towards the plus engine's value.
    pub fn updated(&self, param: &SearchParam, theta: f64, k: u64, delta: i32, result: i32) -> f64 {
        let step = self.a_k(k) * f64::from(result) / (self.c_k(k) * f64::from(delta));
        (theta + step).clamp(f64::from(param.min), f64::from(param.max))
    }
}
