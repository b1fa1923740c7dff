//! The shapes the fitted tables must keep: mobility never falls with more squares, a passer
//! or a connected pawn gains as it advances, king danger grows with the attack units. After
//! each step the tuner projects every such run of weights back onto its shape (isotonic
//! regression), so sparse or collinear data cannot bend a table the wrong way.

use crate::eval::params::index;

/// One run of consecutive weights whose midgame and endgame halves each keep an order.
struct Run {
    first: usize,
    len: usize,
    /// Rising: each entry at least the one before plus `min_step`; falling: at most minus it.
    rising: bool,
    /// Least step between neighbours, midgame and endgame: 1 where "gains" must be strict.
    min_step: [f64; 2],
}

const RUNS: [Run; 8] = [
    Run {
        first: index::KNIGHT_MOBILITY,
        len: 9,
        rising: true,
        min_step: [0.0, 0.0],
    },
    Run {
        first: index::BISHOP_MOBILITY,
        len: 14,
        rising: true,
        min_step: [0.0, 0.0],
    },
    Run {
        first: index::ROOK_MOBILITY,
        len: 15,
        rising: true,
        min_step: [0.0, 0.0],
    },
    Run {
        first: index::QUEEN_MOBILITY,
        len: 28,
        rising: true,
        min_step: [0.0, 0.0],
    },
    // Relative ranks 2..7: rank 1 and 8 never hold a pawn.
    Run {
        first: index::PASSED + 1,
        len: 6,
        rising: true,
        min_step: [0.0, 1.0],
    },
    Run {
        first: index::CONNECTED + 1,
        len: 6,
        rising: true,
        min_step: [0.0, 0.0],
    },
    Run {
        first: index::KING_ATTACK_WITH_QUEEN,
        len: 56,
        rising: false,
        min_step: [0.0, 0.0],
    },
    Run {
        first: index::KING_ATTACK_WITHOUT_QUEEN,
        len: 56,
        rising: false,
        min_step: [0.0, 0.0],
    },
];

/// Projects `params` (midgame and endgame of each flat weight, interleaved) onto the shapes.
/// A `frozen` parameter keeps its value: it weighs so much in the projection that only its
/// unfrozen neighbours move.
pub fn project(params: &mut [f64], frozen: &[bool]) {
    let mut values = Vec::new();
    let mut weights = Vec::new();
    for run in &RUNS {
        for half in 0..2 {
            let slot = |i: usize| 2 * (run.first + i) + half;
            let sign = if run.rising { 1.0 } else { -1.0 };
            let step = run.min_step[half];
            values.clear();
            weights.clear();
            for i in 0..run.len {
                // Rising by at least `step` is plain rising once i * step is taken off.
                values.push(sign * params[slot(i)] - step * i as f64);
                weights.push(if frozen[slot(i)] { 1e12 } else { 1.0 });
            }
            isotonic(&mut values, &weights);
            for (i, v) in values.iter().enumerate() {
                if !frozen[slot(i)] {
                    params[slot(i)] = sign * (v + step * i as f64);
                }
            }
        }
    }
}

/// Weighted least-squares projection of `values` onto non-decreasing sequences
/// (pool adjacent violators).
fn isotonic(values: &mut [f64], weights: &[f64]) {
    // Blocks of pooled entries: (mean, total weight, entries).
    let mut blocks: Vec<(f64, f64, usize)> = Vec::with_capacity(values.len());
    for (&v, &w) in values.iter().zip(weights) {
        blocks.push((v, w, 1));
        while blocks.len() > 1 && blocks[blocks.len() - 2].0 > blocks[blocks.len() - 1].0 {
            let (m2, w2, n2) = blocks.pop().expect("two blocks");
            let (m1, w1, n1) = blocks.pop().expect("two blocks");
            blocks.push(((m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, n1 + n2));
        }
    }
    let mut at = 0;
    for (mean, _, n) in blocks {
        values[at..at + n].fill(mean);
        at += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::params::Weights;
    use crate::eval::weights::WEIGHTS;

    fn params_of(weights: &Weights) -> Vec<f64> {
        weights
            .flat()
            .iter()
            .flat_map(|s| [f64::from(s.mg), f64::from(s.eg)])
            .collect()
    }

    #[test]
    fn isotonic_pools_violators_into_their_mean() {
        let mut v = [1.0, 3.0, 2.0, 4.0, 0.0];
        isotonic(&mut v, &[1.0; 5]);
        assert_eq!(v, [1.0, 2.25, 2.25, 2.25, 2.25]);
        let mut sorted = [-2.0, 0.0, 0.0, 5.0];
        isotonic(&mut sorted, &[1.0; 4]);
        assert_eq!(sorted, [-2.0, 0.0, 0.0, 5.0]);
    }

    #[test]
    fn the_committed_weights_already_have_every_shape() {
        let start = params_of(&WEIGHTS);
        let mut projected = start.clone();
        project(&mut projected, &vec![false; start.len()]);
        assert_eq!(projected, start);
    }

    #[test]
    fn a_bent_table_is_straightened_around_frozen_entries() {
        let mut weights = WEIGHTS.clone();
        // The two tables whose untouched entries are checked below get their own rising
        // values, so the test does not depend on what the tuner last committed.
        for (i, entry) in weights.rook_mobility.iter_mut().enumerate() {
            entry.eg = 10 * i as i32;
        }
        for (rank, eg) in [5, 8, 15, 30, 55].into_iter().enumerate() {
            weights.passed[rank + 1].eg = eg;
        }
        // Rook mobility 14 far below 13 in the endgame, queen mobility dipping there too,
        // the 7th-rank passer below the 6th, king danger easing off.
        weights.rook_mobility[14].eg = -135;
        weights.queen_mobility[10].eg = -50;
        weights.passed[6].eg = -48;
        weights.king_attack_with_queen[30].mg = 0;
        let mut params = params_of(&weights);
        let mut frozen = vec![false; params.len()];
        // The queen's 9th entry is frozen: the dip must be filled from the 10th's side.
        let queen_9_eg = 2 * (index::QUEEN_MOBILITY + 9) + 1;
        frozen[queen_9_eg] = true;
        project(&mut params, &frozen);
        let at = |first: usize, i: usize, half: usize| params[2 * (first + i) + half];
        for (first, len) in [
            (index::KNIGHT_MOBILITY, 9),
            (index::BISHOP_MOBILITY, 14),
            (index::ROOK_MOBILITY, 15),
            (index::QUEEN_MOBILITY, 28),
        ] {
            for i in 1..len {
                for half in 0..2 {
                    assert!(at(first, i, half) >= at(first, i - 1, half) - 1e-6);
                }
            }
        }
        for rank in 2..=6 {
            assert!(at(index::PASSED, rank, 1) >= at(index::PASSED, rank - 1, 1) + 1.0 - 1e-9);
        }
        for i in 1..56 {
            assert!(
                at(index::KING_ATTACK_WITH_QUEEN, i, 0)
                    <= at(index::KING_ATTACK_WITH_QUEEN, i - 1, 0)
            );
        }
        assert_eq!(params[queen_9_eg], f64::from(WEIGHTS.queen_mobility[9].eg));
        assert!((at(index::QUEEN_MOBILITY, 10, 1) - params[queen_9_eg]).abs() < 1e-6);
        // Entries outside any bent stretch are untouched.
        assert_eq!(at(index::ROOK_MOBILITY, 3, 1), 30.0);
        assert_eq!(
            at(index::ROOK_MOBILITY, 14, 0),
            f64::from(WEIGHTS.rook_mobility[14].mg)
        );
        assert_eq!(at(index::PASSED, 2, 1), 8.0);
    }
}
