//! Multi-PV under XBoard through the real binary: `option MultiPV=N` makes analysis (and
//! thinking) show N lines per depth, each a normal thinking line with its own first move.

use crate::common;

use std::collections::BTreeMap;
use std::time::Duration;

use common::{Engine, thinking};
use ironwood::board::{Position, is_legal, parse_move};

/// Thinking lines of an analysis of the position after 1.e4 e5 2.Nf3 Nc6, by depth.
fn analysis_lines(engine: &mut Engine, window: Duration) -> BTreeMap<u32, Vec<Vec<String>>> {
    engine.send("force");
    engine.send("setboard r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    engine.send("post");
    engine.send("analyze");
    let lines = engine.drain(window);
    engine.send("exit");
    engine.sync();
    let mut by_depth: BTreeMap<u32, Vec<Vec<String>>> = BTreeMap::new();
    for line in &lines {
        if let Some((depth, _, pv)) = thinking(line) {
            by_depth.entry(depth).or_default().push(pv);
        }
    }
    by_depth
}

#[test]
fn multipv_analysis_shows_a_line_per_pv() {
    let mut engine = Engine::start();
    engine.handshake();
    engine.send("option MultiPV=3");
    let by_depth = analysis_lines(&mut engine, Duration::from_millis(1500));
    let pos =
        Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .unwrap();
    assert!(by_depth.len() >= 6, "{by_depth:?}");
    // The deepest iteration was cut short by `exit`: every other one has its three lines.
    let deepest = *by_depth.keys().last().unwrap();
    for (depth, pvs) in by_depth.iter().filter(|(d, _)| **d < deepest) {
        let mut firsts: Vec<&str> = pvs.iter().map(|pv| pv[0].as_str()).collect();
        firsts.sort_unstable();
        firsts.dedup();
        assert!(firsts.len() >= 3, "depth {depth}: {pvs:?}");
        for pv in pvs {
            let m = parse_move(&pos, &pv[0]).unwrap();
            assert!(is_legal(&pos, m), "{pv:?}");
        }
    }

    // Depth 1 never reports a new best move inside the iteration: exactly one line per PV.
    assert_eq!(by_depth[&1].len(), 3, "{by_depth:?}");

    engine.send("option MultiPV=1");
    let by_depth = analysis_lines(&mut engine, Duration::from_millis(800));
    assert!(by_depth.len() >= 4, "{by_depth:?}");
    assert_eq!(by_depth[&1].len(), 1, "{by_depth:?}");
}
