//! The clock's formulas pinned to their numbers for each kind of control (a change to a
//! share, a reserve or a cap fails here), and every stop rule asked of `SearchControl`.

use super::*;
use crate::search::MATE;

/// The default move overhead.
const OVERHEAD: u64 = 30;

fn budget(time: TimeLimit) -> TimeBudget {
    time.budget(OVERHEAD, &SearchParams::DEFAULT)
}

fn soft_hard(soft_ms: Option<u64>, hard_ms: u64) -> TimeBudget {
    TimeBudget { soft_ms, hard_ms }
}

/// XBoard's clock for `level MPS BASE INC` with `remaining_ms` left and `made` own moves
/// made under it (what `protocol::xboard::clock` hands over).
fn level(mps: u32, remaining_ms: i64, increment_ms: u64, made: u32) -> TimeLimit {
    TimeLimit::Clock {
        remaining_ms,
        increment_ms,
        moves_to_go: (mps > 0).then(|| mps - made % mps),
    }
}

#[test]
fn level_40_5_0_shares_the_clock_over_the_session_and_spends_most_on_its_last_move() {
    // 300 s less 11 overheads (10 moves to come, capped, and this one): 299,670 ms over 40.
    assert_eq!(
        budget(level(40, 300_000, 0, 0)),
        soft_hard(Some(7491), 4 * 7491)
    );
    // 30 moves in: 10 to go.
    assert_eq!(
        budget(level(40, 60_000, 0, 30)),
        soft_hard(Some(5967), 20_884)
    );
    // The last move of the session: 75 % of the usable clock, not 35 %.
    assert_eq!(
        budget(level(40, 10_000, 0, 39)),
        soft_hard(Some(7455), 7455)
    );
}

#[test]
fn level_0_2_12_aims_at_a_twenty_fifth_plus_one_and_a_half_increments() {
    // 119,670 usable ms: 4786 plus 18,000 of the 12 s increment; hard at 35 % of the clock.
    assert_eq!(
        budget(level(0, 120_000, 12_000, 0)),
        soft_hard(Some(22_786), 41_884)
    );
}

#[test]
fn level_0_1_0_aims_at_a_twenty_fifth_and_stops_at_four_times_that() {
    assert_eq!(budget(level(0, 60_000, 0, 0)), soft_hard(Some(2386), 9544));
    // A flag fall or an empty clock still leaves the least time to find a move.
    assert_eq!(budget(level(0, -500, 0, 12)), soft_hard(Some(5), 5));
}

#[test]
fn st_and_movetime_keep_the_overhead_and_two_percent_back_and_use_the_rest_whole() {
    assert_eq!(
        budget(TimeLimit::MoveTime { ms: 5000 }),
        soft_hard(None, 4870)
    );
    assert_eq!(
        budget(TimeLimit::MoveTime { ms: 1000 }),
        soft_hard(None, 950)
    );
    assert_eq!(budget(TimeLimit::MoveTime { ms: 10 }), soft_hard(None, 5));
}

#[test]
fn uci_clocks_use_movestogo_and_the_increment() {
    // go wtime 60000 winc 1000 movestogo 20 (White to move).
    let with_moves_to_go = TimeLimit::Clock {
        remaining_ms: 60_000,
        increment_ms: 1000,
        moves_to_go: Some(20),
    };
    assert_eq!(budget(with_moves_to_go), soft_hard(Some(4483), 17_932));
    // go wtime 10000 winc 100: sudden death.
    let sudden_death = TimeLimit::Clock {
        remaining_ms: 10_000,
        increment_ms: 100,
        moves_to_go: None,
    };
    assert_eq!(budget(sudden_death), soft_hard(Some(536), 2144));
}

#[test]
fn uci_movetime_is_used_whole_up_to_its_hard_limit() {
    assert_eq!(
        budget(TimeLimit::MoveTime { ms: 2000 }),
        soft_hard(None, 1930)
    );
    let stated = soft_hard(Some(2000), 1000);
    assert_eq!(budget(TimeLimit::Budget(stated)), stated);
}

#[test]
fn the_time_factors_are_the_tunables() {
    let params = |moves_to_go, increment_share, hard_limit_factor| SearchParams {
        moves_to_go,
        increment_share,
        hard_limit_factor,
        ..SearchParams::DEFAULT
    };
    let at = |p: SearchParams, remaining| level(0, remaining, 100, 30).budget(OVERHEAD, &p);
    // 9670 usable ms: a twenty-fifth is 386, plus the increment's share.
    assert_eq!(at(params(25, 100, 4), 10_000).soft_ms, Some(486));
    assert_eq!(at(params(25, 150, 4), 10_000).soft_ms, Some(536));
    assert_eq!(at(params(20, 100, 4), 10_000).soft_ms, Some(483 + 100));
    assert_eq!(at(params(25, 100, 2), 10_000).hard_ms, 972);
    // Late, with little left, the hard cap (35 % of the usable clock) bounds both.
    assert_eq!(at(params(25, 300, 4), 600), soft_hard(Some(94), 94));
}

#[test]
fn never_more_than_the_clock_minus_overhead() {
    for remaining in [-500, 0, 1, 10, 50, 100, 1000, 5000] {
        for mps in [0, 1, 40] {
            for inc in [0, 100, 2000] {
                let b = budget(level(mps, remaining, inc, 0));
                assert!(b.soft_ms.unwrap() <= b.hard_ms, "{b:?}");
                let limit = (remaining.max(0) as u64).max(MIN_THINK_MS);
                assert!(b.hard_ms <= limit, "{remaining} {mps} {inc}: {b:?}");
            }
        }
    }
}

#[test]
fn limits_and_time_read_in_words() {
    let limits = SearchLimits {
        depth: Some(5),
        time: Some(level(40, 60_000, 0, 0)),
        ..SearchLimits::default()
    };
    assert_eq!(
        limits.to_string(),
        "depth 5, clock 60000 ms + 0 ms a move, 40 moves to go, 1 line"
    );
    let movetime = SearchLimits {
        time: Some(TimeLimit::MoveTime { ms: 1000 }),
        ..SearchLimits::default()
    };
    assert_eq!(
        movetime.to_string(),
        "time 1000 ms a move, used whole, 1 line"
    );
    assert_eq!(SearchLimits::default().to_string(), "no limit, 1 line");
}

fn control(limits: SearchLimits) -> SearchControl {
    SearchControl::new(limits, &SearchParams::DEFAULT)
}

/// A budget already spent: its clock has run out as soon as it starts.
const SPENT: TimeLimit = TimeLimit::Budget(TimeBudget {
    soft_ms: Some(0),
    hard_ms: 0,
});

/// A budget no test outlives.
const GENEROUS: TimeLimit = TimeLimit::Budget(TimeBudget {
    soft_ms: Some(60_000),
    hard_ms: 60_000,
});

/// An iteration at `depth` with `score`, after `nodes`, from `root_moves`, its best move
/// standing since the iteration before.
fn iteration(depth: u32, score: i32, nodes: u64, root_moves: usize) -> Iteration {
    Iteration {
        depth,
        score,
        previous_score: score,
        nodes,
        root_moves,
        best_move_stability: 1,
        best_move_nodes: 0,
        root_nodes: 0,
    }
}

fn starts(control: &SearchControl, iteration: &Iteration) -> bool {
    control.should_start_iteration(iteration, true, &SearchParams::DEFAULT)
}

#[test]
fn the_hard_rules_stop_at_the_node_limit_the_soft_one_after_a_root_move_and_the_clock() {
    let nodes = control(SearchLimits {
        nodes: Some(1000),
        ..SearchLimits::default()
    });
    assert!(!nodes.should_stop(999, true));
    assert!(nodes.should_stop(1000, false));

    let soft = control(SearchLimits {
        soft_nodes: Some(1000),
        ..SearchLimits::default()
    });
    assert!(
        !soft.should_stop(5000, false),
        "the first root move goes on"
    );
    assert!(soft.should_stop(1000, true));
    assert!(!soft.should_stop(999, true));

    let timed = control(SearchLimits {
        time: Some(SPENT),
        ..SearchLimits::default()
    });
    assert!(timed.should_stop(0, false));

    let free = control(SearchLimits::default());
    assert!(!free.should_stop(u64::MAX, true));
    free.stop();
    assert!(free.should_stop(0, false));
}

#[test]
fn nps_spends_the_soft_target_in_nodes_instead_of_on_the_wall_clock() {
    // st 1 at 1000 nodes a second: 950 ms of budget, 950 nodes, no wall clock.
    let nps = control(SearchLimits {
        time: Some(TimeLimit::MoveTime { ms: 1000 }),
        move_overhead_ms: OVERHEAD,
        nps: Some(1000),
        ..SearchLimits::default()
    });
    assert_eq!(nps.budget().1, None);
    assert!(!nps.should_stop(949, false));
    assert!(nps.should_stop(950, false));
    // A smaller node limit (a Skill Level's) stands.
    let capped = control(SearchLimits {
        nodes: Some(400),
        time: Some(TimeLimit::MoveTime { ms: 1000 }),
        nps: Some(1000),
        ..SearchLimits::default()
    });
    assert!(capped.should_stop(400, false));
}

#[test]
fn a_ponder_search_runs_on_no_clock_until_the_hit_brings_one() {
    let ponder = control(SearchLimits {
        time: Some(SPENT),
        ponder: true,
        ..SearchLimits::default()
    });
    assert!(!ponder.should_stop(0, true));
    assert!(starts(&ponder, &iteration(10, 0, 0, 1)));
    assert!(ponder.holds_answer());
    ponder.ponder_hit(Some(GENEROUS));
    assert!(!ponder.is_pondering() && !ponder.holds_answer());
    assert!(
        !ponder.should_stop(0, true),
        "the hit's budget, not the limits'"
    );
    ponder.ponder_hit(None);
    assert!(ponder.should_stop(0, true), "the limits' own budget");
}

#[test]
fn the_move_overhead_comes_off_the_budget_at_the_start_and_at_a_ponder_hit() {
    let st = control(SearchLimits {
        time: Some(TimeLimit::MoveTime { ms: 2000 }),
        move_overhead_ms: 100,
        ponder: true,
        ..SearchLimits::default()
    });
    assert_eq!(st.budget().1, Some(soft_hard(None, 1860)));
    st.ponder_hit(Some(TimeLimit::MoveTime { ms: 1000 }));
    assert_eq!(st.budget().1, Some(soft_hard(None, 880)));
}

#[test]
fn the_soft_rules_decide_whether_another_iteration_starts() {
    let free = control(SearchLimits::default());
    assert!(starts(&free, &iteration(10, 0, 0, 20)));
    assert!(!free.holds_answer());
    assert!(starts(&free, &iteration(3, 0, 0, 1)));
    assert!(
        !starts(&free, &iteration(4, 0, 0, 1)),
        "a single legal move"
    );
    // Mate in 2 (3 plies) is proven once the depth is about three times as long.
    assert!(starts(&free, &iteration(7, MATE - 3, 0, 20)));
    assert!(!starts(&free, &iteration(8, MATE - 3, 0, 20)));

    let mate = control(SearchLimits {
        mate: Some(2),
        ..SearchLimits::default()
    });
    assert!(!starts(&mate, &iteration(3, MATE - 3, 0, 20)));
    assert!(starts(&mate, &iteration(3, MATE - 5, 0, 20)));

    let soft = control(SearchLimits {
        soft_nodes: Some(1000),
        ..SearchLimits::default()
    });
    assert!(starts(&soft, &iteration(3, 0, 999, 20)));
    assert!(!starts(&soft, &iteration(3, 0, 1000, 20)));

    let timed = control(SearchLimits {
        time: Some(GENEROUS),
        ..SearchLimits::default()
    });
    assert!(starts(&timed, &iteration(3, 0, 0, 20)));
    let spent = control(SearchLimits {
        time: Some(SPENT),
        ..SearchLimits::default()
    });
    assert!(!starts(&spent, &iteration(3, 0, 0, 20)));
    let whole = control(SearchLimits {
        time: Some(TimeLimit::Budget(soft_hard(None, 60_000))),
        ..SearchLimits::default()
    });
    assert!(starts(&whole, &iteration(30, 0, 0, 20)), "no soft target");

    let infinite = control(SearchLimits {
        infinite: true,
        time: Some(SPENT),
        soft_nodes: Some(0),
        ..SearchLimits::default()
    });
    assert!(starts(&infinite, &iteration(30, MATE - 1, 1000, 1)));
    assert!(infinite.holds_answer());
    infinite.stop();
    assert!(!infinite.holds_answer());
}

#[test]
fn the_share_of_the_soft_target_follows_the_best_move() {
    let params = SearchParams::DEFAULT;
    let share = |it: Iteration, adaptive| it.time_share(adaptive, &params);
    let changed = Iteration {
        best_move_stability: 0,
        ..iteration(8, 0, 0, 20)
    };
    // Without Adaptive Time: half the target, 0.8 after a change past depth 4.
    assert_eq!(share(iteration(8, 0, 0, 20), false), 0.5);
    assert_eq!(share(changed, false), 0.8);
    assert_eq!(
        share(
            Iteration {
                depth: 4,
                ..changed
            },
            false
        ),
        0.5
    );
    // Adaptive: half below depth 5, else TimeShareBase scaled and kept within 0.3 and 1.
    assert_eq!(
        share(
            Iteration {
                depth: 4,
                ..changed
            },
            true
        ),
        0.5
    );
    assert_eq!(share(changed, true), 1.0);
    let typical = Iteration {
        best_move_stability: 2,
        best_move_nodes: 2000,
        root_nodes: 3000,
        ..iteration(8, 0, 0, 20)
    };
    assert!((share(typical, true) - 0.7 * (1.5 - 2.0 / 3.0)).abs() < 1e-9);
    let falling = Iteration {
        previous_score: 200,
        score: 40,
        ..typical
    };
    // The drop is capped at ScoreDropCap (80) and counts against ScoreDropDivisor (160).
    assert!((share(falling, true) - share(typical, true) * 1.5).abs() < 1e-9);
    let settled = Iteration {
        best_move_stability: 9,
        best_move_nodes: 3000,
        root_nodes: 3000,
        ..typical
    };
    assert_eq!(share(settled, true), 0.7 * 0.8 * 0.6);
}

#[test]
fn the_depth_limit_stays_within_the_search_stack() {
    assert_eq!(control(SearchLimits::default()).max_depth(), MAX_DEPTH);
    let deep = control(SearchLimits {
        depth: Some(1000),
        ..SearchLimits::default()
    });
    assert_eq!(deep.max_depth(), MAX_DEPTH);
    let none = control(SearchLimits {
        depth: Some(0),
        ..SearchLimits::default()
    });
    assert_eq!(none.max_depth(), 1);
}
