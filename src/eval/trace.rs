//! The evaluation as a linear function of its weights, for the tuner: how often each weight
//! fired in a position (White's count minus Black's), plus what the evaluation does after
//! summing (taper by phase, draw scaling, tempo), so `EvalTrace::evaluate` reproduces
//! `evaluate` exactly for any weights.

use super::params::{ScaleFactors, Weights, index};
use super::scaling::{self, ScaleCase};
use super::score::Score;
use super::{EVAL_LIMIT, game_phase, taper, weighted_terms};
use crate::board::{Color, Position};

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

/// Dense coefficients while tracing one position.
struct Coefficients([i32; Weights::LEN]);

impl Tracer for Coefficients {
    fn add(&mut self, index: usize, color: Color, count: i32) {
        self.0[index] += count * color.sign();
    }
}

/// One position's coefficients and the non-linear context of its evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTrace {
    /// (flat index, White's count minus Black's) of every weight that does not cancel out,
    /// by index; the tempo is not among them.
    pub terms: Vec<(u16, i16)>,
    /// Game phase, `MAX_PHASE` for all pieces down to 0.
    pub phase: u8,
    /// +1 with White to move, -1 with Black (the tempo's coefficient).
    pub side_sign: i8,
    /// The draw-scaling case if the score favours White, and if it favours Black.
    pub scale_if_white_ahead: ScaleCase,
    pub scale_if_black_ahead: ScaleCase,
}

impl EvalTrace {
    /// The trace of `pos`, or `None` when the evaluation does not depend on any weight
    /// (insufficient material is a flat 0).
    pub fn of(pos: &Position) -> Option<EvalTrace> {
        if pos.is_insufficient_material() {
            return None;
        }
        let mut coefficients = Coefficients([0; Weights::LEN]);
        weighted_terms(pos, &mut coefficients);
        let terms = coefficients
            .0
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != 0)
            .map(|(i, &c)| (i as u16, c as i16))
            .collect();
        Some(EvalTrace {
            terms,
            phase: game_phase(pos) as u8,
            side_sign: pos.side_to_move().sign() as i8,
            scale_if_white_ahead: scaling::scale_case(pos, Color::White),
            scale_if_black_ahead: scaling::scale_case(pos, Color::Black),
        })
    }

    /// The weighted sum of the terms, White's point of view, before tapering.
    pub fn sum(&self, flat: &[Score; Weights::LEN]) -> Score {
        let mut score = Score::ZERO;
        for &(i, c) in &self.terms {
            score += flat[usize::from(i)] * i32::from(c);
        }
        score
    }

    /// The evaluation (side to move's point of view) with the given weights, computed as
    /// `evaluate` does it, integer rounding included.
    pub fn evaluate(&self, flat: &[Score; Weights::LEN], scale: &ScaleFactors) -> i32 {
        let phase = i32::from(self.phase);
        let blended = taper(self.sum(flat), phase);
        let case = if blended > 0 {
            self.scale_if_white_ahead
        } else {
            self.scale_if_black_ahead
        };
        let for_white = blended * case.factor(scale) / scaling::FULL;
        let sign = i32::from(self.side_sign);
        (for_white * sign + taper(flat[index::TEMPO], phase)).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{MoveList, legal_moves};
    use crate::eval::evaluate;
    use crate::eval::weights::{SCALE, WEIGHTS};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    const PERFT_EPD: &str = include_str!("../../tests/data/perft.epd");
    const OPENINGS_EPD: &str = include_str!("../../tests/data/openings.epd");

    /// Positions from random playouts of the perft and opening positions (seeded).
    fn playout_positions(count: usize, seed: u64) -> Vec<Position> {
        let roots: Vec<Position> = PERFT_EPD
            .lines()
            .chain(OPENINGS_EPD.lines())
            .filter(|l| !l.trim().is_empty())
            .filter_map(|l| {
                let fen = l.split(';').next()?;
                let fields: Vec<&str> = fen.split_whitespace().take(4).collect();
                Position::from_fen(&fields.join(" ")).ok()
            })
            .collect();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut positions = Vec::with_capacity(count);
        let mut list = MoveList::new();
        while positions.len() < count {
            let mut pos = roots[rng.gen_range(0..roots.len())].clone();
            for _ in 0..rng.gen_range(1..120) {
                list.clear();
                legal_moves(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                // Prefer captures now and then, so material thins out towards endgames.
                let captures: Vec<_> = list.iter().filter(|m| m.is_capture()).collect();
                let m = if !captures.is_empty() && rng.gen_bool(0.5) {
                    *captures[rng.gen_range(0..captures.len())]
                } else {
                    list.get(rng.gen_range(0..list.len()))
                };
                pos = pos.make_move(m);
                positions.push(pos.clone());
            }
        }
        positions.truncate(count);
        positions
    }

    #[test]
    fn the_trace_reproduces_the_evaluation_exactly() {
        let positions = playout_positions(5000, 9);
        let flat = WEIGHTS.flat();
        let mut traced = 0;
        let mut scaled = 0;
        for pos in &positions {
            match EvalTrace::of(pos) {
                Some(trace) => {
                    assert_eq!(
                        trace.evaluate(&flat, &SCALE),
                        evaluate(pos),
                        "{}",
                        pos.to_fen()
                    );
                    traced += 1;
                    if trace.scale_if_white_ahead != ScaleCase::Full
                        || trace.scale_if_black_ahead != ScaleCase::Full
                    {
                        scaled += 1;
                    }
                }
                None => assert_eq!(evaluate(pos), 0),
            }
        }
        // Not vacuous: most positions traced, and the scaled cases are among them.
        assert!(traced > 4500, "{traced}");
        assert!(scaled > 20, "{scaled}");
    }
}
