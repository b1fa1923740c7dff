//! The evaluation's hook for the tuner: every weight the evaluation adds is reported to a
//! `Tracer`; the engine's `NoTrace` records nothing and compiles away.

use crate::board::Color;

/// Told of every weight the evaluation adds: `count` times flat weight `index` for `color`.
pub trait Tracer {
    fn add(&mut self, index: usize, color: Color, count: i32);
}

/// The engine's tracer: records nothing and compiles away.
pub struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: usize, _: Color, _: i32) {}
}
