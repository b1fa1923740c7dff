//! `Score`: a midgame and an endgame value carried together, so every term is written once
//! and the blend by game phase happens a single time at the end of `evaluate`.

use crate::board::Color;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub mg: i32,
    pub eg: i32,
}

/// Shorthand for weight tables: `s(mg, eg)`.
pub const fn s(mg: i32, eg: i32) -> Score {
    Score { mg, eg }
}

impl Score {
    pub const ZERO: Score = s(0, 0);

    /// A score for `color` turned into White's point of view.
    #[inline]
    pub fn for_white(self, color: Color) -> Score {
        self * color.sign()
    }
}

impl Add for Score {
    type Output = Score;
    #[inline]
    fn add(self, rhs: Score) -> Score {
        s(self.mg + rhs.mg, self.eg + rhs.eg)
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline]
    fn sub(self, rhs: Score) -> Score {
        s(self.mg - rhs.mg, self.eg - rhs.eg)
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        s(-self.mg, -self.eg)
    }
}

impl Mul<i32> for Score {
    type Output = Score;
    #[inline]
    fn mul(self, factor: i32) -> Score {
        s(self.mg * factor, self.eg * factor)
    }
}

impl AddAssign for Score {
    #[inline]
    fn add_assign(&mut self, rhs: Score) {
        *self = *self + rhs;
    }
}

impl SubAssign for Score {
    #[inline]
    fn sub_assign(&mut self, rhs: Score) {
        *self = *self - rhs;
    }
}
