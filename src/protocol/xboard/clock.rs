//! XBoard's game clock: it only records what remains (both sides' time, the moves left in
//! the session under `level`, or `st`'s time a move) and hands it over as a `TimeLimit`; what
//! share of it a move may take is the search's clock policy (`search::limit`).

use crate::board::Color;
use crate::board::game::Game;
use crate::search::TimeLimit;

/// What `level` or `st` set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Control {
    /// `level MPS BASE INC`: MPS moves per BASE (0 = the whole game), plus INC per move.
    Level {
        moves_per_session: u32,
        base_ms: u64,
        increment_ms: u64,
    },
    /// `st N`: N per move, nothing carried over.
    PerMove { ms: u64 },
}

/// XBoard's own default: 40 moves in 5 minutes.
const DEFAULT_CONTROL: Control = Control::Level {
    moves_per_session: 40,
    base_ms: 300_000,
    increment_ms: 0,
};

#[derive(Clone, Debug)]
pub(crate) struct Clock {
    control: Control,
    /// Game ply at which the time control was set (own moves are counted from there).
    control_start_ply: usize,
    own_ms: i64,
    opponent_ms: i64,
}

impl Default for Clock {
    fn default() -> Self {
        let base = base_ms(DEFAULT_CONTROL);
        Clock {
            control: DEFAULT_CONTROL,
            control_start_ply: 0,
            own_ms: base,
            opponent_ms: base,
        }
    }
}

impl Clock {
    pub(crate) fn own_ms(&self) -> i64 {
        self.own_ms
    }

    pub(crate) fn opponent_ms(&self) -> i64 {
        self.opponent_ms
    }

    /// A new game under the same control: both clocks full.
    pub(crate) fn restart(&mut self) {
        self.control_start_ply = 0;
        self.own_ms = base_ms(self.control);
        self.opponent_ms = self.own_ms;
    }

    /// `level MPS BASE INC` from ply `ply` on: both clocks full.
    pub(crate) fn set_level(
        &mut self,
        moves_per_session: u32,
        base_ms: u64,
        increment_ms: u64,
        ply: usize,
    ) {
        self.control = Control::Level {
            moves_per_session,
            base_ms,
            increment_ms,
        };
        self.control_start_ply = ply;
        self.own_ms = clamp_ms(base_ms);
        self.opponent_ms = clamp_ms(base_ms);
    }

    /// `st`: `ms` a move from ply `ply` on; the clocks stay as they are.
    pub(crate) fn set_per_move(&mut self, ms: u64, ply: usize) {
        self.control = Control::PerMove { ms };
        self.control_start_ply = ply;
    }

    /// The own remaining time as the GUI sees it (negative after a flag fall).
    pub(crate) fn set_own_ms(&mut self, ms: i64) {
        self.own_ms = ms;
    }

    pub(crate) fn set_opponent_ms(&mut self, ms: i64) {
        self.opponent_ms = ms;
    }

    /// A game record from a new position: own moves are counted from its start.
    pub(crate) fn new_record(&mut self) {
        self.control_start_ply = 0;
    }

    /// Moves were taken back to ply `ply`.
    pub(crate) fn took_back_to(&mut self, ply: usize) {
        self.control_start_ply = self.control_start_ply.min(ply);
    }

    /// The time `engine`'s next move in `game` has: under `level`, the own clock and the
    /// moves left in the session counted from the engine's own moves since the control was
    /// set; under `st`, its time a move.
    pub(crate) fn time_limit(&self, game: &Game, engine: Color) -> TimeLimit {
        match self.control {
            Control::PerMove { ms } => TimeLimit::MoveTime { ms },
            Control::Level {
                moves_per_session,
                increment_ms,
                ..
            } => {
                let made = game.moves_by_since(engine, self.control_start_ply);
                let made = u32::try_from(made).unwrap_or(u32::MAX);
                TimeLimit::Clock {
                    remaining_ms: self.own_ms,
                    increment_ms,
                    moves_to_go: (moves_per_session > 0)
                        .then(|| moves_per_session - made % moves_per_session),
                }
            }
        }
    }

    /// Time spent thinking that no move paid for yet (a `pause`).
    pub(crate) fn spend(&mut self, used_ms: u128) {
        self.own_ms = self
            .own_ms
            .saturating_sub(i64::try_from(used_ms).unwrap_or(i64::MAX));
    }

    /// The engine (`engine`) has just made a move in `game` after `used_ms`: take the time
    /// off, add the increment, and a new session's time after the last move of a session.
    pub(crate) fn charge_move(&mut self, used_ms: u128, game: &Game, engine: Color) {
        self.spend(used_ms);
        if let Control::Level {
            moves_per_session,
            base_ms,
            increment_ms,
        } = self.control
        {
            self.own_ms = self.own_ms.saturating_add(clamp_ms(increment_ms));
            let made = game.moves_by_since(engine, self.control_start_ply);
            if moves_per_session > 0 && made.is_multiple_of(moves_per_session as usize) {
                self.own_ms = self.own_ms.saturating_add(clamp_ms(base_ms));
            }
        }
    }
}

fn clamp_ms(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

fn base_ms(control: Control) -> i64 {
    match control {
        Control::Level { base_ms, .. } => clamp_ms(base_ms),
        Control::PerMove { ms } => clamp_ms(ms),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_refills_after_its_last_move() {
        let mut clock = Clock::default();
        let mut game = Game::default();
        clock.set_level(2, 60_000, 1000, 0);
        game.play("e2e4");
        clock.charge_move(5000, &game, Color::White);
        assert_eq!(clock.own_ms(), 56_000);
        game.play("e7e5 g1f3");
        clock.charge_move(6000, &game, Color::White);
        assert_eq!(clock.own_ms(), 56_000 - 6000 + 1000 + 60_000);
    }

    #[test]
    fn the_moves_to_go_count_the_own_moves_since_the_level() {
        let mut clock = Clock::default();
        let mut game = Game::default();
        game.play("e2e4 e7e5");
        // Set at ply 2: White's moves count from there, three to a session.
        clock.set_level(3, 60_000, 500, 2);
        clock.set_own_ms(42_000);
        let to_go = |clock: &Clock, game: &Game| match clock.time_limit(game, Color::White) {
            TimeLimit::Clock {
                remaining_ms,
                increment_ms,
                moves_to_go,
            } => {
                assert_eq!((remaining_ms, increment_ms), (42_000, 500));
                moves_to_go
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(to_go(&clock, &game), Some(3));
        game.play("g1f3 b8c6");
        assert_eq!(to_go(&clock, &game), Some(2));
        game.play("f1b5 a7a6 b5a4 g8f6");
        assert_eq!(to_go(&clock, &game), Some(3), "a new session");
        clock.set_level(0, 60_000, 500, game.ply());
        clock.set_own_ms(42_000);
        assert_eq!(to_go(&clock, &game), None, "sudden death");
        // `st` replaces the level, whatever the clocks say.
        clock.set_per_move(2000, game.ply());
        assert_eq!(
            clock.time_limit(&game, Color::White),
            TimeLimit::MoveTime { ms: 2000 }
        );
    }

    #[test]
    fn time_commands_overwrite_and_restart_refills() {
        let mut clock = Clock::default();
        clock.set_own_ms(1234);
        clock.set_opponent_ms(-50);
        assert_eq!(clock.own_ms(), 1234);
        assert_eq!(clock.opponent_ms(), -50);
        clock.restart();
        assert_eq!(clock.own_ms(), 300_000);
        assert_eq!(clock.opponent_ms(), 300_000);
    }
}
