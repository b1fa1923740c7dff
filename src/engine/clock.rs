//! The engine's clock: the time control in force, both sides' remaining time, and the
//! budget for the engine's next move derived from them. It keeps the own clock running
//! between the GUI's updates (which, when they come, overwrite it).

use crate::board::Color;
use crate::board::game::Game;
use crate::search::{SearchParams, TimeBudget, TimeControl};

#[derive(Clone, Debug)]
pub(crate) struct Clock {
    control: TimeControl,
    /// Game ply at which the time control was set (own moves are counted from there).
    control_start_ply: usize,
    own_ms: i64,
    opponent_ms: i64,
}

impl Default for Clock {
    fn default() -> Self {
        let control = TimeControl::default();
        let base = base_ms(control);
        Clock {
            control,
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

    /// A new time control from ply `ply` on; a conventional one fills both clocks.
    pub(crate) fn set_control(&mut self, control: TimeControl, ply: usize) {
        self.control = control;
        self.control_start_ply = ply;
        if let TimeControl::Conventional { base_ms, .. } = control {
            self.own_ms = clamp_ms(base_ms);
            self.opponent_ms = clamp_ms(base_ms);
        }
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

    /// The budget for `engine`'s next move in `game`, net of `overhead_ms`, by the time
    /// factors of `params`.
    pub(crate) fn budget(
        &self,
        game: &Game,
        engine: Color,
        overhead_ms: u64,
        params: &SearchParams,
    ) -> TimeBudget {
        let made = game.moves_by_since(engine, self.control_start_ply);
        // `st` is a hard maximum per move: keep 2% more back for the stop's own latency
        // (a 1 s move measured 975 ms at the GUI in matches without it).
        let overhead = match self.control {
            TimeControl::FixedPerMove { ms } => overhead_ms + ms / 50,
            TimeControl::Conventional { .. } => overhead_ms,
        };
        self.control.budget(
            self.own_ms,
            u32::try_from(made).unwrap_or(u32::MAX),
            overhead,
            params,
        )
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
        if let TimeControl::Conventional {
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

fn base_ms(control: TimeControl) -> i64 {
    match control {
        TimeControl::Conventional { base_ms, .. } => clamp_ms(base_ms),
        TimeControl::FixedPerMove { ms } => clamp_ms(ms),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_refills_after_its_last_move() {
        let mut clock = Clock::default();
        let control = TimeControl::Conventional {
            moves_per_session: 2,
            base_ms: 60_000,
            increment_ms: 1000,
        };
        let mut game = Game::default();
        clock.set_control(control, 0);
        game.play("e2e4");
        clock.charge_move(5000, &game, Color::White);
        assert_eq!(clock.own_ms(), 56_000);
        game.play("e7e5 g1f3");
        clock.charge_move(6000, &game, Color::White);
        assert_eq!(clock.own_ms(), 56_000 - 6000 + 1000 + 60_000);
    }

    #[test]
    fn fixed_time_keeps_two_percent_more() {
        let mut clock = Clock::default();
        clock.set_control(TimeControl::FixedPerMove { ms: 1000 }, 0);
        let budget = clock.budget(&Game::default(), Color::White, 30, &SearchParams::DEFAULT);
        assert_eq!(budget.hard_ms, 1000 - 30 - 20);
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
