//! Variety and weaker play, chosen at the root: `random` / `Randomize (cp)` pick among root
//! moves within a few centipawns of the best, Skill Level (and UCI_Elo) searches less and
//! picks among near-best moves with a margin that grows as the level falls.

use rand::Rng;
use rand::rngs::StdRng;

use crate::board::Move;

/// Full strength; levels below it search less and choose with a margin.
pub(crate) const MAX_SKILL_LEVEL: u32 = 20;
/// The margin `random` uses when `Randomize (cp)` is 0.
pub(crate) const RANDOM_DEFAULT_CP: u32 = 10;
/// Most centipawns `Randomize (cp)` takes.
pub(crate) const MAX_RANDOMIZE_CP: u32 = 100;
/// The `UCI_Elo` range, mapped linearly onto levels 0 to 20.
pub(crate) const ELO_RANGE: (u32, u32) = (800, 2800);
/// Root lines searched when a choice is made: enough near-best moves to choose from.
pub(crate) const CHOICE_LINES: usize = 4;

/// The Skill Level an `UCI_Elo` stands for.
pub(crate) fn level_for_elo(elo: u32) -> u32 {
    let (low, high) = ELO_RANGE;
    let elo = elo.clamp(low, high);
    ((elo - low) * MAX_SKILL_LEVEL + (high - low) / 2) / (high - low)
}

/// Deepest iteration a level below 20 searches: 1 at level 0, 10 at level 19.
pub(crate) fn level_depth(level: u32) -> u32 {
    1 + level / 2
}

/// Node budget of a level below 20: 200 at level 0, growing by half per level.
pub(crate) fn level_nodes(level: u32) -> u64 {
    (200.0 * 1.5f64.powi(level as i32)) as u64
}

/// Centipawns below the best a level still plays: 240 at level 0, 12 at level 19.
pub(crate) fn level_margin(level: u32) -> i32 {
    (MAX_SKILL_LEVEL.saturating_sub(level) * 12) as i32
}

/// A move among `lines` (best first, scores from the mover's view) scoring within `margin`
/// of the best: each gets a random bonus of up to `margin` and the highest total is played,
/// so better moves stay likelier and a move far below the best is never chosen. `None`
/// without lines.
pub(crate) fn choose(lines: &[(Move, i32)], margin: i32, rng: &mut StdRng) -> Option<Move> {
    let &(_, best) = lines.first()?;
    lines
        .iter()
        .filter(|(_, score)| best - score <= margin)
        .map(|&(mv, score)| (mv, score + rng.gen_range(0..=margin.max(0))))
        .max_by_key(|&(_, total)| total)
        .map(|(mv, _)| mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn elo_maps_onto_levels() {
        assert_eq!(level_for_elo(0), 0);
        assert_eq!(level_for_elo(800), 0);
        assert_eq!(level_for_elo(1800), 10);
        assert_eq!(level_for_elo(2800), 20);
        assert_eq!(level_for_elo(9999), 20);
    }

    #[test]
    fn weaker_levels_search_less_and_choose_wider() {
        for level in 1..MAX_SKILL_LEVEL {
            assert!(level_depth(level) >= level_depth(level - 1));
            assert!(level_nodes(level) > level_nodes(level - 1));
            assert!(level_margin(level) < level_margin(level - 1));
        }
    }

    #[test]
    fn choice_stays_within_the_margin_and_varies_with_the_seed() {
        let m = |raw| Move::from_raw(raw);
        let lines = [(m(100), 50), (m(200), 45), (m(300), 41), (m(400), -200)];
        let mut seen = std::collections::HashSet::new();
        for seed in 0..200 {
            let mut rng = StdRng::seed_from_u64(seed);
            let chosen = choose(&lines, 10, &mut rng).unwrap();
            assert_ne!(chosen, m(400));
            seen.insert(chosen);
        }
        assert!(seen.len() >= 2, "{seen:?}");
        let mut rng = StdRng::seed_from_u64(1);
        assert_eq!(choose(&lines, 0, &mut rng), Some(m(100)));
        assert_eq!(choose(&[], 10, &mut rng), None);
    }
}
