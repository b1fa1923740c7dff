//! Score constants and mate arithmetic. Internally a mate is `MATE - plies` from the root;
//! XBoard wants `100000 + moves`.

pub const MAX_PLY: usize = 128;
pub const INFINITY: i32 = 32_000;
pub const MATE: i32 = 31_000;
/// Any score at or beyond this is a mate score.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
pub const DRAW: i32 = 0;
/// A tablebase win found `ply` plies from the root scores `TB_WIN - ply`: below every mate,
/// above every evaluation, and shorter paths to the won table position score higher.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Any score at or beyond this is a tablebase result or a mate.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;

#[inline]
pub fn is_mate_score(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// A proven result, a mate or a tablebase win or loss: no margin or eval reasons about it.
#[inline]
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= TB_WIN_BOUND
}

/// Plies to mate from the root: positive when the side to move at the root mates.
pub fn mate_plies(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        Some(MATE - score)
    } else if score <= -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

/// Moves to mate (positive: we mate; negative: we are mated), as the protocol counts them.
pub fn mate_moves(score: i32) -> Option<i32> {
    mate_plies(score).map(|p| if p > 0 { (p + 1) / 2 } else { -((-p + 1) / 2) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_in_moves() {
        assert_eq!(mate_moves(MATE - 1), Some(1));
        assert_eq!(mate_moves(MATE - 3), Some(2));
        assert_eq!(mate_moves(-(MATE - 2)), Some(-1));
        assert_eq!(mate_moves(-(MATE - 4)), Some(-2));
        assert_eq!(mate_moves(150), None);
    }
}
