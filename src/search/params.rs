//! Every tunable number of the search, declared once: its option name, default, range and SPSA
//! step. `SearchParams` carries the values the search reads; the engine's options, the
//! `params` listing and a tuner all take the names, ranges and steps from `PARAMS`.

/// The list every use of the search's constants expands (`declare_params` below, the
/// engine's options): per constant its option name, field, default, least, most, SPSA step
/// (OpenBench's `c_end`) and what it does. Defaults are the numbers the search was tuned by
/// hand with; a change of default is an engine change (the bench's node count moves).
macro_rules! with_search_params {
    ($then:ident) => {
        $then! {
            (RfpMaxDepth, rfp_max_depth, 6, 1, 12, 1.0,
                "reverse futility: the deepest node it prunes"),
            (RfpMargin, rfp_margin, 80, 20, 200, 8.0,
                "reverse futility: how far above beta per ply of depth"),
            (RfpImproving, rfp_improving, 40, 0, 120, 6.0,
                "reverse futility: margin given back when the eval improves"),
            (RazorMaxDepth, razor_max_depth, 3, 1, 6, 1.0,
                "razoring: the deepest node it asks quiescence at"),
            (RazorMargin, razor_margin, 250, 50, 600, 25.0,
                "razoring: how far below alpha per ply of depth"),
            (NmpMinDepth, nmp_min_depth, 3, 2, 6, 1.0,
                "null move: the shallowest node that tries it"),
            (NmpBaseReduction, nmp_base_reduction, 3, 1, 6, 1.0,
                "null move: the reduction at any depth"),
            (NmpDepthDivisor, nmp_depth_divisor, 4, 2, 8, 1.0,
                "null move: one ply more reduction per this much depth"),
            (NmpEvalDivisor, nmp_eval_divisor, 200, 50, 500, 20.0,
                "null move: one ply more reduction per this much eval above beta"),
            (NmpEvalCap, nmp_eval_cap, 3, 0, 6, 1.0,
                "null move: the most plies the eval above beta adds"),
            (NmpMinMoves, nmp_min_moves, 5, 0, 12, 1.0,
                "null move: the fewest legal moves the side to move needs (zugzwang); 0 counts none"),
            (ProbCutMinDepth, probcut_min_depth, 5, 3, 10, 1.0,
                "ProbCut: the shallowest node that tries it"),
            (ProbCutMargin, probcut_margin, 200, 50, 400, 15.0,
                "ProbCut: how far above beta a capture must score"),
            (ProbCutImproving, probcut_improving, 50, 0, 150, 8.0,
                "ProbCut: margin given back when the eval improves"),
            (SingularMinDepth, singular_min_depth, 7, 4, 12, 1.0,
                "singular extensions: the shallowest node that tries them"),
            (SingularBetaMultiplier, singular_beta_multiplier, 2, 1, 6, 0.5,
                "singular extensions: the bound lies this times the depth below the TT score"),
            (DoubleExtensionMargin, double_extension_margin, 20, 0, 100, 5.0,
                "double extensions: how far below the singular bound"),
            (DoubleExtensionCap, double_extension_cap, 6, 1, 16, 1.0,
                "double extensions: the most on one line"),
            (LmpMaxDepth, lmp_max_depth, 7, 1, 12, 1.0,
                "late-move pruning: the deepest node it prunes"),
            (LmpBase, lmp_base, 3, 0, 12, 1.0,
                "late-move pruning: quiets searched before pruning, plus depth squared"),
            (FutilityMaxDepth, futility_max_depth, 6, 1, 12, 1.0,
                "futility pruning: the deepest node it prunes"),
            (FutilityBase, futility_base, 100, 0, 300, 10.0,
                "futility pruning: the margin at any depth"),
            (FutilityMargin, futility_margin, 90, 20, 250, 8.0,
                "futility pruning: the margin per ply of depth"),
            (HistoryPruningMaxDepth, history_pruning_max_depth, 3, 1, 8, 1.0,
                "history pruning: the deepest node it prunes"),
            (HistoryPruningMargin, history_pruning_margin, 1500, 250, 6000, 150.0,
                "history pruning: continuation history below minus this per ply"),
            (SeePruningMaxDepth, see_pruning_max_depth, 6, 1, 12, 1.0,
                "SEE pruning: the deepest node it prunes"),
            (SeeQuietMargin, see_quiet_margin, 25, 5, 100, 3.0,
                "SEE pruning: a quiet move may lose this times depth squared"),
            (SeeTacticalMargin, see_tactical_margin, 90, 20, 250, 8.0,
                "SEE pruning: a capture may lose this per ply of depth"),
            (CaptureFutilityMaxDepth, capture_futility_max_depth, 6, 1, 12, 1.0,
                "capture futility: the deepest node it prunes"),
            (CaptureFutilityBase, capture_futility_base, 150, 0, 500, 15.0,
                "capture futility: the margin over the victim at any depth"),
            (CaptureFutilityMargin, capture_futility_margin, 150, 30, 400, 12.0,
                "capture futility: the margin over the victim per ply of depth"),
            (DeltaMargin, delta_margin, 200, 0, 500, 20.0,
                "quiescence: delta pruning's margin over the captured piece"),
            (LmrBase, lmr_base, 75, 0, 200, 8.0,
                "late-move reductions: the table's constant term, in hundredths of a ply"),
            (LmrDivisor, lmr_divisor, 225, 100, 500, 12.0,
                "late-move reductions: ln(depth) ln(moves) is divided by this in hundredths"),
            (LmrHistoryDivisor, lmr_history_divisor, 8192, 1024, 32768, 512.0,
                "late-move reductions: a ply less per this much history"),
            (LmrCutNode, lmr_cut_node, 1, 0, 3, 0.5,
                "late-move reductions: plies more in an expected cut node"),
            (DeeperMargin, deeper_margin, 50, 0, 200, 8.0,
                "re-search depth: a ply deeper when a reduced move beats the best by this plus 2 per ply"),
            (ShallowerMargin, shallower_margin, 10, 0, 50, 2.0,
                "re-search depth: a ply shallower when it beats the best by less than this"),
            (AspirationWindow, aspiration_window, 20, 5, 100, 3.0,
                "aspiration: the first window's half width"),
            (AspirationGrowth, aspiration_growth, 10, 0, 50, 3.0,
                "aspiration: added to the half width beside its half at each failure"),
            (HistoryBonusScale, history_bonus_scale, 160, 40, 400, 12.0,
                "history: a cutoff's bonus per ply of depth"),
            (HistoryBonusOffset, history_bonus_offset, 60, 0, 300, 10.0,
                "history: taken off a cutoff's bonus"),
            (HistoryBonusMax, history_bonus_max, 1600, 400, 4000, 100.0,
                "history: the largest bonus"),
            (HistoryMalusScale, history_malus_scale, 160, 40, 400, 12.0,
                "history: the malus of a move tried before the cutoff, per ply"),
            (HistoryMalusOffset, history_malus_offset, 60, 0, 300, 10.0,
                "history: taken off the malus"),
            (HistoryMalusMax, history_malus_max, 1600, 400, 4000, 100.0,
                "history: the largest malus"),
            (CorrectionPawnWeight, correction_pawn_weight, 96, 0, 256, 8.0,
                "correction history: the pawn table's weight in 1/256"),
            (CorrectionNonPawnWeight, correction_non_pawn_weight, 48, 0, 256, 8.0,
                "correction history: each non-pawn table's weight in 1/256"),
            (CorrectionContinuationWeight, correction_continuation_weight, 64, 0, 256, 8.0,
                "correction history: the last moves' table's weight in 1/256"),
            (MovesToGo, moves_to_go, 25, 10, 60, 2.0,
                "time: moves assumed left in sudden death"),
            (IncrementShare, increment_share, 150, 50, 300, 10.0,
                "time: per cent of the increment the soft target adds"),
            (HardLimitFactor, hard_limit_factor, 4, 2, 8, 0.5,
                "time: the hard limit in soft targets"),
            (TimeShareBase, time_share_base, 70, 30, 100, 4.0,
                "adaptive time: per cent of the soft target a typical move uses"),
            (ScoreDropCap, score_drop_cap, 80, 20, 200, 8.0,
                "adaptive time: the largest score drop that earns more time"),
            (ScoreDropDivisor, score_drop_divisor, 160, 40, 400, 12.0,
                "adaptive time: a drop of this much doubles the time"),
        }
    };
}
pub(crate) use with_search_params;

/// One tunable constant as the options and a tuner see it.
#[derive(Clone, Copy, Debug)]
pub struct SearchParam {
    /// The option name (`setoption name RfpMargin value 90`).
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA's perturbation at the end of a run (OpenBench's `c_end`).
    pub step: f64,
    pub help: &'static str,
    pub get: fn(&SearchParams) -> i32,
    pub set: fn(&mut SearchParams, i32),
}

/// OpenBench's `r_end`: the learning rate at the end of a run, the same for every constant.
pub const SPSA_R_END: f64 = 0.002;

macro_rules! declare_params {
    ($(($name:ident, $field:ident, $default:expr, $min:expr, $max:expr, $step:expr,
        $help:expr)),* $(,)?) => {
        /// The values the search reads instead of literals; `Default` is the engine's.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $(pub $field: i32,)*
        }

        impl SearchParams {
            pub const DEFAULT: SearchParams = SearchParams { $($field: $default,)* };
        }

        impl Default for SearchParams {
            fn default() -> Self {
                SearchParams::DEFAULT
            }
        }

        /// Every tunable constant, in the order `ironwood params` lists them.
        pub const PARAMS: &[SearchParam] = &[$(SearchParam {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
            step: $step,
            help: $help,
            get: |p| p.$field,
            set: |p, v| p.$field = v,
        },)*];
    };
}
with_search_params!(declare_params);

impl SearchParams {
    /// The history bonus of a cutoff at `depth`: deeper cutoffs count more, up to a cap so
    /// one deep node does not wipe out what many shallow ones taught.
    #[inline]
    pub fn history_bonus(&self, depth: i32) -> i32 {
        (self.history_bonus_scale * depth - self.history_bonus_offset)
            .clamp(0, self.history_bonus_max)
    }

    /// The malus of a move tried before the one that cut off at `depth` (a positive number).
    #[inline]
    pub fn history_malus(&self, depth: i32) -> i32 {
        (self.history_malus_scale * depth - self.history_malus_offset)
            .clamp(0, self.history_malus_max)
    }
}

/// The constant called `name` (as its option is named, case ignored).
pub fn find_param(name: &str) -> Option<&'static SearchParam> {
    PARAMS.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

/// `ironwood params`: one line per constant in OpenBench's SPSA input format.
pub fn spsa_input_lines(params: &SearchParams) -> Vec<String> {
    PARAMS
        .iter()
        .map(|p| {
            format!(
                "{}, int, {}, {}, {}, {}, {}",
                p.name,
                (p.get)(params),
                p.min,
                p.max,
                p.step,
                SPSA_R_END
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_constant_has_one_name_a_range_around_its_default_and_a_step() {
        let defaults = SearchParams::default();
        for (i, p) in PARAMS.iter().enumerate() {
            assert!(
                PARAMS[..i]
                    .iter()
                    .all(|q| !q.name.eq_ignore_ascii_case(p.name)),
                "{} twice",
                p.name
            );
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert_eq!((p.get)(&defaults), p.default, "{}", p.name);
            assert!(
                p.step > 0.0 && p.step <= f64::from(p.max - p.min),
                "{}",
                p.name
            );
            let mut changed = defaults;
            (p.set)(&mut changed, p.max);
            assert_eq!((p.get)(&changed), p.max, "{}", p.name);
        }
    }

    #[test]
    fn history_bonus_grows_with_depth_up_to_a_cap() {
        let params = SearchParams::default();
        assert!(params.history_bonus(1) > 0);
        assert!((1..20).all(|d| params.history_bonus(d) <= params.history_bonus(d + 1)));
        assert_eq!(params.history_bonus(30), params.history_bonus(40));
        assert_eq!(params.history_malus(7), params.history_bonus(7));
    }
}
