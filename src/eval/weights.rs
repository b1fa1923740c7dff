//! The evaluation's weights, midgame and endgame per term; layout in `params.rs`.
//! Written by `ironwood tune` (hand edits are fine: it reads nothing back from here).
//! Hand-set values before any tuning: PeSTO's material and tables, own pawn, piece and king terms.

use super::params::{ScaleFactors, Weights};
use super::score::s;

#[rustfmt::skip]
pub const WEIGHTS: Weights = Weights {
    // Piece values by kind (pawn, knight, bishop, rook, queen, king).
    material: [
        s(  82,   94), s( 337,  281), s( 365,  297), s( 477,  512), s(1025,  936), s(   0,    0),
    ],
    // Placement of a White pawn, relative to its value; a diagram with rank 8 first.
    pawn_squares: [
        s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
        s(  98,  178), s( 134,  173), s(  61,  158), s(  95,  134), s(  68,  147), s( 126,  132), s(  34,  165), s( -11,  187),
        s(  -6,   94), s(   7,  100), s(  26,   85), s(  31,   67), s(  65,   56), s(  56,   53), s(  25,   82), s( -20,   84),
        s( -14,   32), s(  13,   24), s(   6,   13), s(  21,    5), s(  23,   -2), s(  12,    4), s(  17,   17), s( -23,   17),
        s( -27,   13), s(  -2,    9), s(  -5,   -3), s(  12,   -7), s(  17,   -7), s(   6,   -8), s(  10,    3), s( -25,   -1),
        s( -26,    4), s(  -4,    7), s(  -4,   -6), s( -10,    1), s(   3,    0), s(   3,   -5), s(  33,   -1), s( -12,   -8),
        s( -35,   13), s(  -1,    8), s( -20,    8), s( -23,   10), s( -15,   13), s(  24,    0), s(  38,    2), s( -22,   -7),
        s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
    ],
    knight_squares: [
        s(-167,  -58), s( -89,  -38), s( -34,  -13), s( -49,  -28), s(  61,  -31), s( -97,  -27), s( -15,  -63), s(-107,  -99),
        s( -73,  -25), s( -41,   -8), s(  72,  -25), s(  36,   -2), s(  23,   -9), s(  62,  -25), s(   7,  -24), s( -17,  -52),
        s( -47,  -24), s(  60,  -20), s(  37,   10), s(  65,    9), s(  84,   -1), s( 129,   -9), s(  73,  -19), s(  44,  -41),
        s(  -9,  -17), s(  17,    3), s(  19,   22), s(  53,   22), s(  37,   22), s(  69,   11), s(  18,    8), s(  22,  -18),
        s( -13,  -18), s(   4,   -6), s(  16,   16), s(  13,   25), s(  28,   16), s(  19,   17), s(  21,    4), s(  -8,  -18),
        s( -23,  -23), s(  -9,   -3), s(  12,   -1), s(  10,   15), s(  19,   10), s(  17,   -3), s(  25,  -20), s( -16,  -22),
        s( -29,  -42), s( -53,  -20), s( -12,  -10), s(  -3,   -5), s(  -1,   -2), s(  18,  -20), s( -14,  -23), s( -19,  -44),
        s(-105,  -29), s( -21,  -51), s( -58,  -23), s( -33,  -15), s( -17,  -22), s( -28,  -18), s( -19,  -50), s( -23,  -64),
    ],
    bishop_squares: [
        s( -29,  -14), s(   4,  -21), s( -82,  -11), s( -37,   -8), s( -25,   -7), s( -42,   -9), s(   7,  -17), s(  -8,  -24),
        s( -26,   -8), s(  16,   -4), s( -18,    7), s( -13,  -12), s(  30,   -3), s(  59,  -13), s(  18,   -4), s( -47,  -14),
        s( -16,    2), s(  37,   -8), s(  43,    0), s(  40,   -1), s(  35,   -2), s(  50,    6), s(  37,    0), s(  -2,    4),
        s(  -4,   -3), s(   5,    9), s(  19,   12), s(  50,    9), s(  37,   14), s(  37,   10), s(   7,    3), s(  -2,    2),
        s(  -6,   -6), s(  13,    3), s(  13,   13), s(  26,   19), s(  34,    7), s(  12,   10), s(  10,   -3), s(   4,   -9),
        s(   0,  -12), s(  15,   -3), s(  15,    8), s(  15,   10), s(  14,   13), s(  27,    3), s(  18,   -7), s(  10,  -15),
        s(   4,  -14), s(  15,  -18), s(  16,   -7), s(   0,   -1), s(   7,    4), s(  21,   -9), s(  33,  -15), s(   1,  -27),
        s( -33,  -23), s(  -3,   -9), s( -14,  -23), s( -21,   -5), s( -13,   -9), s( -12,  -16), s( -39,   -5), s( -21,  -17),
    ],
    rook_squares: [
        s(  32,   13), s(  42,   10), s(  32,   18), s(  51,   15), s(  63,   12), s(   9,   12), s(  31,    8), s(  43,    5),
        s(  27,   11), s(  32,   13), s(  58,   13), s(  62,   11), s(  80,   -3), s(  67,    3), s(  26,    8), s(  44,    3),
        s(  -5,    7), s(  19,    7), s(  26,    7), s(  36,    5), s(  17,    4), s(  45,   -3), s(  61,   -5), s(  16,   -3),
        s( -24,    4), s( -11,    3), s(   7,   13), s(  26,    1), s(  24,    2), s(  35,    1), s(  -8,   -1), s( -20,    2),
        s( -36,    3), s( -26,    5), s( -12,    8), s(  -1,    4), s(   9,   -5), s(  -7,   -6), s(   6,   -8), s( -23,  -11),
        s( -45,   -4), s( -25,    0), s( -16,   -5), s( -17,   -1), s(   3,   -7), s(   0,  -12), s(  -5,   -8), s( -33,  -16),
        s( -44,   -6), s( -16,   -6), s( -20,    0), s(  -9,    2), s(  -1,   -9), s(  11,   -9), s(  -6,  -11), s( -71,   -3),
        s( -19,   -9), s( -13,    2), s(   1,    3), s(  17,   -1), s(  16,   -5), s(   7,  -13), s( -37,    4), s( -26,  -20),
    ],
    queen_squares: [
        s( -28,   -9), s(   0,   22), s(  29,   22), s(  12,   27), s(  59,   27), s(  44,   19), s(  43,   10), s(  45,   20),
        s( -24,  -17), s( -39,   20), s(  -5,   32), s(   1,   41), s( -16,   58), s(  57,   25), s(  28,   30), s(  54,    0),
        s( -13,  -20), s( -17,    6), s(   7,    9), s(   8,   49), s(  29,   47), s(  56,   35), s(  47,   19), s(  57,    9),
        s( -27,    3), s( -27,   22), s( -16,   24), s( -16,   45), s(  -1,   57), s(  17,   40), s(  -2,   57), s(   1,   36),
        s(  -9,  -18), s( -26,   28), s(  -9,   19), s( -10,   47), s(  -2,   31), s(  -4,   34), s(   3,   39), s(  -3,   23),
        s( -14,  -16), s(   2,  -27), s( -11,   15), s(  -2,    6), s(  -5,    9), s(   2,   17), s(  14,   10), s(   5,    5),
        s( -35,  -22), s(  -8,  -23), s(  11,  -30), s(   2,  -16), s(   8,  -16), s(  15,  -23), s(  -3,  -36), s(   1,  -32),
        s(  -1,  -33), s( -18,  -28), s(  -9,  -22), s(  10,  -43), s( -15,   -5), s( -25,  -32), s( -31,  -20), s( -50,  -41),
    ],
    king_squares: [
        s( -65,  -74), s(  23,  -35), s(  16,  -18), s( -15,  -18), s( -56,  -11), s( -34,   15), s(   2,    4), s(  13,  -17),
        s(  29,  -12), s(  -1,   17), s( -20,   14), s(  -7,   17), s(  -8,   17), s(  -4,   38), s( -38,   23), s( -29,   11),
        s(  -9,   10), s(  24,   17), s(   2,   23), s( -16,   15), s( -20,   20), s(   6,   45), s(  22,   44), s( -22,   13),
        s( -17,   -8), s( -20,   22), s( -12,   24), s( -27,   27), s( -30,   26), s( -25,   33), s( -14,   26), s( -36,    3),
        s( -49,  -18), s(  -1,   -4), s( -27,   21), s( -39,   24), s( -46,   27), s( -44,   23), s( -33,    9), s( -51,  -11),
        s( -14,  -19), s( -14,   -3), s( -22,   11), s( -46,   21), s( -44,   23), s( -30,   16), s( -15,    7), s( -27,   -9),
        s(   1,  -27), s(   7,  -11), s(  -8,    4), s( -64,   13), s( -43,   14), s( -16,    4), s(   9,   -5), s(   8,  -17),
        s( -15,  -53), s(  36,  -34), s(  12,  -21), s( -54,  -11), s(   8,  -28), s( -28,  -14), s(  24,  -24), s(  14,  -43),
    ],
    // Passed pawn by relative rank (0 = own back rank).
    passed: [
        s(   0,    0), s(   0,    5), s(   0,    8), s(   5,   15), s(  15,   30), s(  30,   55), s(  50,   85), s(   0,    0),
    ],
    isolated: [
        s(  -6,  -12),
    ],
    // Per pawn standing in front of another of its side on the same file.
    doubled: [
        s( -10,  -22),
    ],
    // Stop square attacked by an enemy pawn and no neighbour able to come up beside it.
    backward: [
        s(  -8,   -8),
    ],
    // Defended by a pawn or side by side with one, by relative rank.
    connected: [
        s(   0,    0), s(   0,    0), s(   6,    3), s(   8,    5), s(  12,   10), s(  22,   20), s(  35,   30), s(   0,    0),
    ],
    // Passed pawn, by relative rank: per square of the enemy king's distance to the stop
    // square (counted up to 5).
    passer_their_king: [
        s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    4), s(   0,    8), s(   0,   16), s(   0,   24), s(   0,    0),
    ],
    // Passed pawn, by relative rank: per square of our king's distance to the stop square.
    passer_our_king: [
        s(   0,    0), s(   0,    0), s(   0,    0), s(   0,   -2), s(   0,   -4), s(   0,   -8), s(   0,  -12), s(   0,    0),
    ],
    // Passed pawn, by relative rank: nothing of theirs stands on or attacks its path.
    passer_free_path: [
        s(   0,    0), s(   0,    0), s(   0,    0), s(   0,   10), s(   0,   20), s(   0,   40), s(   0,   60), s(   0,    0),
    ],
    // Passed pawn, by relative rank: otherwise, the empty stop square is not attacked.
    passer_safe_stop: [
        s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    4), s(   0,    8), s(   0,   16), s(   0,   24), s(   0,    0),
    ],
    // Mobility by the number of safe squares reachable.
    knight_mobility: [
        s( -35,  -40), s( -20,  -26), s(  -8,  -12), s(  -2,   -4), s(   3,    3), s(   8,    8), s(  13,   12), s(  17,   15),
        s(  20,   17),
    ],
    bishop_mobility: [
        s( -30,  -40), s( -18,  -25), s(  -8,  -14), s(  -2,   -6), s(   3,    0), s(   8,    6), s(  12,   11), s(  16,   15),
        s(  19,   19), s(  22,   22), s(  24,   25), s(  26,   27), s(  28,   29), s(  30,   31),
    ],
    rook_mobility: [
        s( -20,  -40), s( -14,  -26), s(  -9,  -16), s(  -5,   -8), s(  -2,   -2), s(   0,    3), s(   2,    8), s(   4,   13),
        s(   6,   18), s(   8,   22), s(  10,   26), s(  12,   29), s(  13,   32), s(  14,   34), s(  15,   36),
    ],
    queen_mobility: [
        s( -20,  -30), s( -15,  -22), s( -11,  -16), s(  -8,  -11), s(  -6,   -7), s(  -4,   -4), s(  -2,   -1), s(   0,    1),
        s(   1,    4), s(   2,    6), s(   4,    9), s(   5,   11), s(   6,   13), s(   7,   15), s(   8,   17), s(   9,   19),
        s(  10,   20), s(  11,   21), s(  12,   22), s(  12,   23), s(  13,   24), s(  13,   25), s(  14,   26), s(  14,   27),
        s(  15,   28), s(  15,   29), s(  16,   30), s(  16,   31),
    ],
    bishop_pair: [
        s(  30,   55),
    ],
    rook_open_file: [
        s(  25,   12),
    ],
    rook_semi_open_file: [
        s(  12,    6),
    ],
    // Per file next to or on the king's: no own pawn one or two squares ahead of the king.
    shield_missing: [
        s( -20,    0),
    ],
    // The shield pawn has moved two squares ahead of the king's rank.
    shield_advanced: [
        s(  -8,    0),
    ],
    // No own pawn at all on a file next to the king (added to the shield penalty).
    semi_open_near_king: [
        s( -12,    0),
    ],
    // No pawn of either side on a file next to the king (added to the two above).
    open_near_king: [
        s( -10,    0),
    ],
    // Two or more pieces attack the king zone and the attacker has a queen: by attack
    // units (capped at the last entry).
    king_attack_with_queen: [
        s(   0,    0), s(   0,    0), s(   0,    0), s(  -1,    0), s(  -2,    0), s(  -4,    0), s(  -6,    0), s(  -8,    0),
        s( -10,    0), s( -13,    0), s( -16,    0), s( -20,    0), s( -24,    0), s( -28,    0), s( -32,    0), s( -37,    0),
        s( -42,    0), s( -48,    0), s( -54,    0), s( -60,    0), s( -66,    0), s( -73,    0), s( -80,    0), s( -88,    0),
        s( -96,    0), s(-104,    0), s(-112,    0), s(-121,    0), s(-130,    0), s(-140,    0), s(-150,    0), s(-160,    0),
        s(-170,    0), s(-181,    0), s(-192,    0), s(-204,    0), s(-216,    0), s(-228,    0), s(-240,    0), s(-253,    0),
        s(-266,    0), s(-280,    0), s(-294,    0), s(-308,    0), s(-322,    0), s(-337,    0), s(-352,    0), s(-368,    0),
        s(-384,    0), s(-400,    0), s(-416,    0), s(-433,    0), s(-450,    0), s(-468,    0), s(-486,    0), s(-500,    0),
    ],
    // The same without the attacker's queen.
    king_attack_without_queen: [
        s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(  -1,    0), s(  -2,    0), s(  -3,    0), s(  -4,    0),
        s(  -5,    0), s(  -6,    0), s(  -8,    0), s( -10,    0), s( -12,    0), s( -14,    0), s( -16,    0), s( -18,    0),
        s( -21,    0), s( -24,    0), s( -27,    0), s( -30,    0), s( -33,    0), s( -36,    0), s( -40,    0), s( -44,    0),
        s( -48,    0), s( -52,    0), s( -56,    0), s( -60,    0), s( -65,    0), s( -70,    0), s( -75,    0), s( -80,    0),
        s( -85,    0), s( -90,    0), s( -96,    0), s(-102,    0), s(-108,    0), s(-114,    0), s(-120,    0), s(-126,    0),
        s(-133,    0), s(-140,    0), s(-147,    0), s(-154,    0), s(-161,    0), s(-168,    0), s(-176,    0), s(-184,    0),
        s(-192,    0), s(-200,    0), s(-208,    0), s(-216,    0), s(-225,    0), s(-234,    0), s(-243,    0), s(-250,    0),
    ],
    // For the side to move, added after draw scaling.
    tempo: [
        s(  12,   12),
    ],
};

pub const SCALE: ScaleFactors = ScaleFactors {
    pawnless_small_edge: 8,
    pure_opposite_bishops: 24,
    opposite_bishops_with_pieces: 48,
};
