//! The layout of the evaluation's weights: every term is a list of midgame/endgame pairs,
//! declared once here. The engine reads the values from `weights::WEIGHTS` by name; the
//! tuner sees the same weights as one flat vector (`Weights::flat`) and writes them back
//! as Rust source (`Weights::to_rust`).

use super::score::Score;

/// Declares `Weights` (one array of `Score`s per term), the flat index of each term's first
/// entry (`index::NAME`), the flat view and the Rust writer, all from one list.
macro_rules! weight_layout {
    ($( $(#[doc = $doc:literal])* $field:ident / $index:ident : $len:literal, )*) => {
        /// Every tunable midgame/endgame weight of the evaluation.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Weights {
            $( $(#[doc = $doc])* pub $field: [Score; $len], )*
        }

        /// Flat index of each term's first entry.
        pub mod index {
            weight_layout!(@offsets 0; $($index $len,)*);
        }

        impl Weights {
            /// How many `Score`s there are in all.
            pub const LEN: usize = 0 $(+ $len)*;

            /// All weights in layout order, for the tuner.
            pub const fn flat(&self) -> [Score; Weights::LEN] {
                let mut out = [Score::ZERO; Weights::LEN];
                $(
                    let mut i = 0;
                    while i < $len {
                        out[index::$index + i] = self.$field[i];
                        i += 1;
                    }
                )*
                out
            }

            /// The inverse of `flat`.
            pub fn from_flat(flat: &[Score; Weights::LEN]) -> Weights {
                Weights {
                    $( $field: std::array::from_fn(|i| flat[index::$index + i]), )*
                }
            }

            /// The weights as the body of `weights.rs` (without its header).
            pub fn rust_fields(&self, out: &mut String) {
                $(
                    $( out.push_str(&format!("    //{}\n", $doc)); )*
                    write_array(out, stringify!($field), &self.$field);
                )*
            }
        }
    };
    (@offsets $at:expr; $name:ident $len:literal, $($rest:tt)*) => {
        pub const $name: usize = $at;
        weight_layout!(@offsets $at + $len; $($rest)*);
    };
    (@offsets $at:expr;) => {
        pub const END: usize = $at;
    };
}

weight_layout! {
    /// Piece values by kind (pawn, knight, bishop, rook, queen, king).
    material / MATERIAL: 6,
    /// Placement of a White pawn, relative to its value; a diagram with rank 8 first.
    pawn_squares / PAWN_SQUARES: 64,
    knight_squares / KNIGHT_SQUARES: 64,
    bishop_squares / BISHOP_SQUARES: 64,
    rook_squares / ROOK_SQUARES: 64,
    queen_squares / QUEEN_SQUARES: 64,
    king_squares / KING_SQUARES: 64,
    /// Passed pawn by relative rank (0 = own back rank).
    passed / PASSED: 8,
    isolated / ISOLATED: 1,
    /// Per pawn standing in front of another of its side on the same file.
    doubled / DOUBLED: 1,
    /// Stop square attacked by an enemy pawn and no neighbour able to come up beside it.
    backward / BACKWARD: 1,
    /// Defended by a pawn or side by side with one, by relative rank.
    connected / CONNECTED: 8,
    /// Passed pawn, by relative rank: per square of the enemy king's distance to the stop
    /// square (counted up to 5).
    passer_their_king / PASSER_THEIR_KING: 8,
    /// Passed pawn, by relative rank: per square of our king's distance to the stop square.
    passer_our_king / PASSER_OUR_KING: 8,
    /// Passed pawn, by relative rank: nothing of theirs stands on or attacks its path.
    passer_free_path / PASSER_FREE_PATH: 8,
    /// Passed pawn, by relative rank: otherwise, the empty stop square is not attacked.
    passer_safe_stop / PASSER_SAFE_STOP: 8,
    /// Mobility by the number of safe squares reachable.
    knight_mobility / KNIGHT_MOBILITY: 9,
    bishop_mobility / BISHOP_MOBILITY: 14,
    rook_mobility / ROOK_MOBILITY: 15,
    queen_mobility / QUEEN_MOBILITY: 28,
    bishop_pair / BISHOP_PAIR: 1,
    rook_open_file / ROOK_OPEN_FILE: 1,
    rook_semi_open_file / ROOK_SEMI_OPEN_FILE: 1,
    /// Per file next to or on the king's: no own pawn one or two squares ahead of the king.
    shield_missing / SHIELD_MISSING: 1,
    /// The shield pawn has moved two squares ahead of the king's rank.
    shield_advanced / SHIELD_ADVANCED: 1,
    /// No own pawn at all on a file next to the king (added to the shield penalty).
    semi_open_near_king / SEMI_OPEN_NEAR_KING: 1,
    /// No pawn of either side on a file next to the king (added to the two above).
    open_near_king / OPEN_NEAR_KING: 1,
    /// Two or more pieces attack the king zone and the attacker has a queen: by attack
    /// units (capped at the last entry).
    king_attack_with_queen / KING_ATTACK_WITH_QUEEN: 56,
    /// The same without the attacker's queen.
    king_attack_without_queen / KING_ATTACK_WITHOUT_QUEEN: 56,
    /// For the side to move, added after draw scaling.
    tempo / TEMPO: 1,
}

/// How much of its score the side ahead keeps in drawish material, out of `scaling::FULL`.
/// Tuned through the chain rule (the score is linear in each factor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScaleFactors {
    /// No pawns and ahead by at most a minor piece.
    pub pawnless_small_edge: i32,
    /// Bishops on opposite colours and nothing else but pawns.
    pub pure_opposite_bishops: i32,
    /// Bishops on opposite colours with other pieces still on the board.
    pub opposite_bishops_with_pieces: i32,
}

impl ScaleFactors {
    pub const NAMES: [&'static str; 3] = [
        "pawnless_small_edge",
        "pure_opposite_bishops",
        "opposite_bishops_with_pieces",
    ];

    pub fn to_array(self) -> [i32; 3] {
        [
            self.pawnless_small_edge,
            self.pure_opposite_bishops,
            self.opposite_bishops_with_pieces,
        ]
    }

    pub fn from_array(values: [i32; 3]) -> ScaleFactors {
        ScaleFactors {
            pawnless_small_edge: values[0],
            pure_opposite_bishops: values[1],
            opposite_bishops_with_pieces: values[2],
        }
    }
}

/// One term as `    name: [ ... ],`: a board diagram eight to a line for 64 entries,
/// otherwise eight to a line.
fn write_array(out: &mut String, name: &str, values: &[Score]) {
    out.push_str(&format!("    {name}: [\n"));
    for row in values.chunks(8) {
        out.push_str("       ");
        for v in row {
            out.push_str(&format!(" s({:4}, {:4}),", v.mg, v.eg));
        }
        out.push('\n');
    }
    out.push_str("    ],\n");
}

/// A complete `weights.rs`: `header` (comment lines without `//`) then the two tables.
pub fn weights_source(weights: &Weights, scale: ScaleFactors, header: &[String]) -> String {
    let mut out = String::new();
    out.push_str(
        "//! The evaluation's weights, midgame and endgame per term; layout in `params.rs`.\n",
    );
    out.push_str(
        "//! Written by `ironwood tune` (hand edits are fine: it reads nothing back from here).\n",
    );
    for line in header {
        out.push_str(&format!("//! {line}\n"));
    }
    out.push('\n');
    out.push_str("use super::params::{ScaleFactors, Weights};\n");
    out.push_str("use super::score::s;\n\n");
    out.push_str("#[rustfmt::skip]\n");
    out.push_str("pub const WEIGHTS: Weights = Weights {\n");
    weights.rust_fields(&mut out);
    out.push_str("};\n\n");
    out.push_str("pub const SCALE: ScaleFactors = ScaleFactors {\n");
    for (name, value) in ScaleFactors::NAMES.iter().zip(scale.to_array()) {
        out.push_str(&format!("    {name}: {value},\n"));
    }
    out.push_str("};\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::{SCALE, WEIGHTS};

    #[test]
    fn the_flat_view_round_trips_and_the_terms_tile_it() {
        let flat = WEIGHTS.flat();
        assert_eq!(Weights::from_flat(&flat), WEIGHTS);
        assert_eq!(flat[index::MATERIAL + 1], WEIGHTS.material[1]);
        assert_eq!(flat[index::KING_SQUARES + 63], WEIGHTS.king_squares[63]);
        assert_eq!(flat[index::TEMPO], WEIGHTS.tempo[0]);
        assert_eq!(index::TEMPO + 1, Weights::LEN);
        assert_eq!(index::END, Weights::LEN);
    }

    #[test]
    fn the_committed_file_is_what_the_writer_writes() {
        // So a tuned file differs from the committed one only in its numbers.
        let committed = include_str!("weights.rs");
        let header: Vec<String> = committed
            .lines()
            .skip(2)
            .take_while(|l| l.starts_with("//!"))
            .map(|l| l.trim_start_matches("//!").trim_start().to_string())
            .collect();
        assert_eq!(weights_source(&WEIGHTS, SCALE, &header), committed);
    }
}
