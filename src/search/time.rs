//! Time control (`level`, `st`) and the budget for one move: a soft target (do not start an
//! iteration past it) and a hard maximum (abort inside the tree), both net of the
//! move-overhead margin, so the engine never loses on time.

use super::params::SearchParams;

/// How the game is timed, from XBoard's `level MPS BASE INC` or `st N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// `level`: MPS moves per BASE (0 = the whole game), plus INC per move.
    Conventional {
        moves_per_session: u32,
        base_ms: u64,
        increment_ms: u64,
    },
    /// `st N`: exactly N per move, no accumulation.
    FixedPerMove { ms: u64 },
}

impl Default for TimeControl {
    /// XBoard's own default: 40 moves in 5 minutes.
    fn default() -> Self {
        TimeControl::Conventional {
            moves_per_session: 40,
            base_ms: 300_000,
            increment_ms: 0,
        }
    }
}

/// Milliseconds the search may use for one move, measured from its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Aim: no new iteration is started once it is unlikely to finish before this.
    pub soft_ms: u64,
    /// Never think past this.
    pub hard_ms: u64,
}

/// The least the engine will think, so a near-empty clock still yields a legal move.
const MIN_THINK_MS: u64 = 5;

impl TimeControl {
    /// The budget for the engine's next move, given its remaining clock (`time`, in ms, may be
    /// negative after a flag fall), the number of moves it has made so far in this game under
    /// this control, and the move-overhead margin (pipe and GUI lag charged to us). In sudden
    /// death it assumes `params.moves_to_go` moves to go: enough to keep a reserve, few enough
    /// to use the clock; the increment counts by `params.increment_share`.
    pub fn budget(
        &self,
        remaining_ms: i64,
        moves_made: u32,
        overhead_ms: u64,
        params: &SearchParams,
    ) -> TimeBudget {
        match *self {
            TimeControl::FixedPerMove { ms } => {
                let t = ms.saturating_sub(overhead_ms).max(MIN_THINK_MS);
                TimeBudget {
                    soft_ms: t,
                    hard_ms: t,
                }
            }
            TimeControl::Conventional {
                moves_per_session,
                increment_ms,
                ..
            } => {
                let remaining = remaining_ms.max(0) as u64;
                let moves_to_go = if moves_per_session > 0 {
                    u64::from(moves_per_session - moves_made % moves_per_session)
                } else {
                    params.moves_to_go as u64
                };
                // Keep the overhead for every move still to come in this session (capped),
                // so many fast moves cannot drain the clock through lag alone.
                let reserve = overhead_ms * moves_to_go.min(10) + overhead_ms;
                let usable = remaining.saturating_sub(reserve);
                // The increment is sure to come back, so the target may count on more than
                // it (`IncrementShare`): the clock then settles near the hard cap's floor
                // late in a game instead of keeping seconds it never spends.
                let increment = increment_ms * params.increment_share.max(0) as u64 / 100;
                let mut soft = usable / moves_to_go + increment;
                // Hard limit: a few targets, but never a large share of what is left.
                let share = if moves_to_go == 1 { 0.75 } else { 0.35 };
                let cap = (usable as f64 * share) as u64;
                let hard = (soft * params.hard_limit_factor as u64)
                    .min(cap)
                    .max(MIN_THINK_MS);
                soft = soft.min(hard).max(MIN_THINK_MS.min(hard));
                TimeBudget {
                    soft_ms: soft,
                    hard_ms: hard,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(mps: u32, base_s: u64, inc_ms: u64) -> TimeControl {
        TimeControl::Conventional {
            moves_per_session: mps,
            base_ms: base_s * 1000,
            increment_ms: inc_ms,
        }
    }

    fn with_increment_share(percent: i32) -> SearchParams {
        SearchParams {
            increment_share: percent,
            ..SearchParams::DEFAULT
        }
    }

    #[test]
    fn sudden_death_uses_a_twenty_fifth_plus_the_increment() {
        let b = level(0, 60, 1000).budget(60_000, 0, 30, &with_increment_share(100));
        assert!(b.soft_ms > 3300 && b.soft_ms < 3500, "{b:?}");
        assert!(b.hard_ms > b.soft_ms && b.hard_ms < 60_000 / 2, "{b:?}");
    }

    #[test]
    fn the_increment_counts_by_its_share_within_the_hard_cap() {
        let at = |percent, remaining| {
            level(0, 10, 100).budget(remaining, 30, 30, &with_increment_share(percent))
        };
        // 9670 usable ms: a twenty-fifth is 386, plus the increment's share.
        assert_eq!(at(100, 10_000).soft_ms, 486);
        assert_eq!(at(150, 10_000).soft_ms, 536);
        // Late, with little left, the hard cap (35 % of the usable clock) bounds both.
        let late = at(300, 600);
        assert_eq!(late.hard_ms, 94);
        assert_eq!(late.soft_ms, 94);
    }

    #[test]
    fn last_move_of_a_session_may_use_most_of_the_clock() {
        let b = level(40, 60, 0).budget(10_000, 39, 30, &SearchParams::DEFAULT);
        assert!(b.hard_ms < 10_000 && b.hard_ms > 5_000, "{b:?}");
    }

    #[test]
    fn never_more_than_the_clock_minus_overhead() {
        for remaining in [-500, 0, 1, 10, 50, 100, 1000, 5000] {
            for mps in [0, 1, 40] {
                for inc in [0, 100, 2000] {
                    let b = level(mps, 1, inc).budget(remaining, 0, 30, &SearchParams::DEFAULT);
                    assert!(b.soft_ms <= b.hard_ms, "{b:?}");
                    let limit = (remaining.max(0) as u64).max(MIN_THINK_MS);
                    assert!(b.hard_ms <= limit, "{remaining} {mps} {inc}: {b:?}");
                }
            }
        }
    }

    #[test]
    fn fixed_time_per_move_subtracts_the_margin() {
        let b = TimeControl::FixedPerMove { ms: 1000 }.budget(0, 0, 30, &SearchParams::DEFAULT);
        assert_eq!(
            b,
            TimeBudget {
                soft_ms: 970,
                hard_ms: 970
            }
        );
    }
}
