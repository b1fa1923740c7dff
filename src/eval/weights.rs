//! The evaluation's weights, midgame and endgame per term; layout in `params.rs`.
//! Written by `ironwood tune` (hand edits are fine: it reads nothing back from here).
//! Tuned by `ironwood tune` on 2370932 positions from data/r5-s30.bin:
//! K = 0.006333, lambda = 0.5, 30 epochs of Adam (kept: 9), batch 16384, learning rate 0.3, seed 1, holdout 0.1, l2 0, min positions 1000, positions resolved by quiescence, loss 0.0294814 -> 0.0284107.

use super::params::{ScaleFactors, Weights};
use super::score::s;

#[rustfmt::skip]
pub const WEIGHTS: Weights = Weights {
    // Piece values by kind (pawn, knight, bishop, rook, queen, king).
    material: [
        s(  84,   82), s( 344,  307), s( 356,  322), s( 473,  535), s(1136,  947), s(   0,    0),
    ],
    // Placement of a White pawn, relative to its value; a diagram with rank 8 first.
    pawn_squares: [
        s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
        s(  88,  116), s(  96,  133), s(  66,  141), s( 114,  115), s( 103,  135), s( 117,  103), s(  22,  140), s(  -6,  107),
        s(   8,   58), s(  12,   64), s(  19,   60), s(  36,   33), s(  51,   47), s(  66,   27), s(  34,   44), s(   2,   52),
        s(  -8,   31), s(  10,   23), s(   4,    8), s(  24,   -9), s(  24,   -7), s(  12,    4), s(  16,    8), s( -17,   15),
        s( -21,   25), s( -10,   10), s(  -1,    3), s(  10,   -5), s(  15,   -4), s(   8,   -4), s(   3,    6), s( -19,    4),
        s( -17,   17), s( -11,   12), s(  -9,    5), s( -19,    8), s(  -6,   11), s(  -9,    7), s(  27,    1), s(  -9,    0),
        s( -25,   23), s(   0,   19), s( -17,   24), s( -24,   25), s( -14,   21), s(  18,   17), s(  37,   13), s( -11,    1),
        s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
    ],
    knight_squares: [
        s(-160,  -57), s( -89,  -38), s( -34,    1), s( -49,   -3), s(  61,  -19), s( -97,   23), s( -15,  -63), s( -88,  -99),
        s( -38,  -12), s( -19,   -5), s(  29,   -7), s(  40,   -2), s(  40,    7), s(  55,   -9), s(  -1,  -27), s(  -7,  -18),
        s( -26,  -21), s(  48,  -18), s(  29,    4), s(  60,   16), s(  76,    4), s( 103,  -20), s(  51,  -24), s(  17,  -30),
        s(  27,  -20), s(   8,    5), s(  17,   15), s(  37,   31), s(  26,   30), s(  54,   10), s(  15,   18), s(  25,   -5),
        s(  -6,   -6), s(   9,    0), s(  12,   15), s(  13,   20), s(  23,   18), s(  18,   19), s(  11,    9), s(   5,   -5),
        s( -28,  -29), s(   6,  -20), s(   1,   -9), s(  16,    2), s(  19,    4), s(  13,   -8), s(  26,  -32), s( -13,  -13),
        s( -25,  -27), s( -44,    8), s(  -5,  -23), s(   6,  -10), s(   9,  -21), s(  17,  -28), s(  -9,  -15), s(  -6,  -48),
        s(-105,  -29), s( -18,  -40), s( -41,  -10), s( -25,  -12), s( -13,  -19), s( -10,  -40), s( -11,  -43), s( -19,  -64),
    ],
    bishop_squares: [
        s(  -2,  -22), s( -65,   -3), s( -82,   23), s( -59,   19), s( -56,    0), s( -42,    7), s(   7,   -5), s( -31,  -16),
        s( -33,   -1), s(   0,    4), s( -18,   13), s(  -2,   -6), s(   1,   13), s(  16,    0), s( -25,   22), s( -33,   -2),
        s( -15,    0), s(  25,   12), s(  15,    5), s(  45,   -3), s(  54,   -3), s(  50,    5), s(  25,   -4), s(   5,  -10),
        s( -16,    7), s(   6,    9), s(  14,   21), s(  46,   10), s(  31,   17), s(  30,   11), s(   5,   25), s( -17,   -6),
        s(  10,  -28), s(   1,   -4), s(  11,   20), s(  19,   19), s(  27,   13), s(   3,   15), s(   5,  -10), s(  13,  -16),
        s(   2,  -18), s(  23,  -10), s(   8,   14), s(  15,    5), s(  10,   14), s(  28,   -5), s(  29,   -7), s(  14,   -5),
        s(  20,  -16), s(  11,  -15), s(  27,   -9), s(   2,    0), s(  15,   -6), s(  26,   -7), s(  33,  -14), s(  25,  -61),
        s( -23,  -16), s(  15,  -20), s(  -7,  -12), s(  -4,  -16), s( -17,   -8), s(  -8,   -6), s(   3,    3), s( -21,   -7),
    ],
    rook_squares: [
        s(  20,   21), s(  25,   18), s(  35,   15), s(  50,    6), s(  65,    5), s(  48,   16), s(  22,   22), s(  41,   15),
        s(   9,   28), s(  21,   22), s(  31,   20), s(  61,   10), s(  74,    0), s(  75,   -2), s(   4,   24), s(  42,   13),
        s( -15,   26), s(  20,   15), s(   2,   22), s(  43,    7), s(  11,   15), s(  43,    9), s(  31,    9), s(  28,    7),
        s( -29,   19), s( -24,   21), s(   7,   14), s(   0,   17), s(   8,    5), s(   4,   12), s(  17,    5), s(  -4,   10),
        s( -40,   14), s( -47,   24), s( -12,   17), s( -20,   14), s(  -9,    0), s( -14,    5), s( -12,    6), s( -21,   -5),
        s( -35,   -2), s( -28,    2), s( -16,    1), s( -26,    5), s(  -5,   -6), s( -12,   -9), s(  -1,   -5), s( -22,  -18),
        s( -36,  -14), s( -15,  -25), s( -26,   -2), s(  -6,  -16), s(  -4,  -13), s(   9,  -24), s( -23,   -1), s( -56,    1),
        s( -14,   -7), s(  -5,  -12), s(   2,   -8), s(  11,  -18), s(  17,  -24), s(   7,  -19), s( -22,   -2), s(  -7,  -34),
    ],
    queen_squares: [
        s( -19,    1), s(  11,   18), s(  25,   27), s(  23,   41), s(  53,   19), s(  56,   16), s(   3,   19), s(  26,   14),
        s( -14,    8), s( -32,   60), s(   1,   42), s(  -3,   55), s( -12,   66), s(  43,   28), s(   8,   21), s(  23,   12),
        s(  -6,   -7), s(   4,   10), s(   2,   29), s( -11,   68), s(  17,   55), s(  31,   47), s(  35,   34), s(  20,    8),
        s( -19,   10), s( -13,   20), s( -26,   55), s( -18,   62), s(  -4,   74), s(  -7,   58), s(  -1,   51), s(   1,   23),
        s(  -2,  -31), s( -20,   13), s(  -7,   21), s( -15,   55), s( -15,   42), s( -11,   38), s(  -1,   46), s(   4,   28),
        s(  -7,  -18), s(   7,  -35), s(  -4,   -3), s(   1,    0), s( -10,   16), s(   6,   10), s(  18,    2), s(  -7,   36),
        s( -26,  -34), s(   4,  -33), s(  16,  -45), s(   9,  -26), s(  13,  -41), s(  14,  -46), s(  19,  -46), s(   8,  -48),
        s(  18,  -54), s(  -8,  -43), s(   8,  -37), s(  13,  -50), s(   3,  -25), s( -26,  -46), s( -25,  -20), s(  -4,  -41),
    ],
    king_squares: [
        s( -65,  -86), s(  23,  -54), s(  16,  -40), s( -15,   -8), s( -56,  -20), s( -34,    7), s(   2,    7), s(  13, -142),
        s(  29,  -33), s(   9,   24), s( -21,   57), s( -47,   41), s(  -7,   21), s(  22,    6), s(  15,   31), s( -54,  -19),
        s( -18,   10), s(  -4,   41), s( -67,   54), s( -70,   57), s( -13,   27), s(  14,    6), s(   5,   -6), s( -44,    6),
        s(   7,  -13), s(   1,   38), s( -55,   39), s( -66,   41), s( -81,   41), s( -39,   29), s(  -9,   15), s( -80,    3),
        s( -65,    0), s(   5,    9), s( -33,   31), s(-106,   42), s( -43,   30), s( -59,   28), s( -34,   12), s(-107,    3),
        s( -35,    3), s(  10,    2), s( -69,   21), s( -50,   19), s( -62,   27), s( -30,   18), s( -17,    6), s( -41,   -6),
        s(  -1,  -15), s(   8,   -6), s(  12,   -6), s( -42,    6), s( -30,   11), s( -16,    7), s(  15,   -7), s(  13,  -21),
        s( -50,  -21), s(  36,  -31), s(  16,  -23), s( -56,  -15), s(   0,  -35), s( -19,  -14), s(  40,  -29), s(  20,  -52),
    ],
    // Passed pawn by relative rank (0 = own back rank).
    passed: [
        s(   0,    0), s(  -5,   14), s(  -5,   22), s(  -5,   39), s(  29,   40), s(  36,   41), s(  46,   42), s(   0,    0),
    ],
    isolated: [
        s(  -5,  -11),
    ],
    // Per pawn standing in front of another of its side on the same file.
    doubled: [
        s(  -9,  -18),
    ],
    // Stop square attacked by an enemy pawn and no neighbour able to come up beside it.
    backward: [
        s(  -3,  -12),
    ],
    // Defended by a pawn or side by side with one, by relative rank.
    connected: [
        s(   0,    0), s(   1,   -1), s(  10,    3), s(  10,   10), s(  14,   22), s(  23,   44), s(  39,   46), s(   0,    0),
    ],
    // Passed pawn, by relative rank: per square of the enemy king's distance to the stop
    // square (counted up to 5).
    passer_their_king: [
        s(   0,    0), s(   0,   -1), s(  -4,    5), s(  -7,   11), s(  -8,   22), s(  -5,   31), s(  -5,   47), s(   0,    0),
    ],
    // Passed pawn, by relative rank: per square of our king's distance to the stop square.
    passer_our_king: [
        s(   0,    0), s(   0,   -1), s(   4,   -8), s(   6,  -13), s(   3,  -13), s(   2,  -14), s(   8,  -28), s(   0,    0),
    ],
    // Passed pawn, by relative rank: nothing of theirs stands on or attacks its path.
    passer_free_path: [
        s(   0,    0), s( -20,   18), s( -46,   17), s( -71,   41), s( -76,   54), s( -47,   90), s(   8,   96), s(   0,    0),
    ],
    // Passed pawn, by relative rank: otherwise, the empty stop square is not attacked.
    passer_safe_stop: [
        s(   0,    0), s(   5,    1), s(  10,   -5), s(   0,    8), s(   1,   15), s(  24,   36), s(   0,   24), s(   0,    0),
    ],
    // Mobility by the number of safe squares reachable.
    knight_mobility: [
        s( -33, -105), s( -16,  -44), s(  -9,  -17), s(  -2,    0), s(   3,    6), s(   7,   13), s(  11,   14), s(  18,   14),
        s(  21,   14),
    ],
    bishop_mobility: [
        s( -28,  -66), s( -16,  -36), s(  -8,  -21), s(  -4,   -8), s(   2,    4), s(   5,   11), s(   8,   18), s(  12,   19),
        s(  15,   19), s(  19,   19), s(  22,   19), s(  22,   19), s(  22,   19), s(  30,   19),
    ],
    rook_mobility: [
        s( -29,  -41), s( -17,  -11), s( -11,    1), s(  -6,   11), s(  -2,   20), s(  -1,   28), s(   0,   34), s(   4,   38),
        s(   5,   46), s(   8,   49), s(  14,   50), s(  16,   53), s(  21,   53), s(  21,   53), s(  21,   53),
    ],
    queen_mobility: [
        s( -16,  -30), s( -14,  -30), s( -13,  -30), s( -12,  -30), s(  -9,  -30), s(  -9,  -29), s(  -6,  -20), s(  -2,  -15),
        s(   1,   -8), s(   2,    0), s(   3,   11), s(   4,   12), s(   4,   17), s(   4,   18), s(   4,   18), s(   9,   18),
        s(  13,   18), s(  15,   18), s(  15,   18), s(  15,   18), s(  15,   18), s(  15,   18), s(  15,   18), s(  15,   18),
        s(  15,   18), s(  15,   18), s(  16,   30), s(  16,   31),
    ],
    bishop_pair: [
        s(  36,   51),
    ],
    rook_open_file: [
        s(  38,   -5),
    ],
    rook_semi_open_file: [
        s(  15,   16),
    ],
    // Per file next to or on the king's: no own pawn one or two squares ahead of the king.
    shield_missing: [
        s( -16,    9),
    ],
    // The shield pawn has moved two squares ahead of the king's rank.
    shield_advanced: [
        s(  -8,    2),
    ],
    // No own pawn at all on a file next to the king (added to the shield penalty).
    semi_open_near_king: [
        s( -15,    0),
    ],
    // No pawn of either side on a file next to the king (added to the two above).
    open_near_king: [
        s( -11,   -9),
    ],
    // Two or more pieces attack the king zone and the attacker has a queen: by attack
    // units (capped at the last entry).
    king_attack_with_queen: [
        s(   0,    0), s(   0,    0), s(   0,    0), s(  -1,    0), s( -11,    0), s( -11,    0), s( -11,    0), s( -12,    0),
        s( -12,    0), s( -17,    0), s( -21,    0), s( -21,    0), s( -21,    0), s( -28,    0), s( -28,    0), s( -36,    0),
        s( -36,    0), s( -36,    0), s( -43,    0), s( -54,    0), s( -63,    0), s( -64,    0), s( -64,    0), s( -69,    0),
        s( -78,    0), s( -94,    0), s( -94,    0), s( -98,    0), s(-114,    0), s(-132,    0), s(-150,    0), s(-162,    0),
        s(-175,    0), s(-181,    0), s(-204,    0), s(-204,    0), s(-216,    0), s(-228,    0), s(-240,    0), s(-253,    0),
        s(-266,    0), s(-280,    0), s(-294,    0), s(-308,    0), s(-322,    0), s(-337,    0), s(-352,    0), s(-368,    0),
        s(-384,    0), s(-400,    0), s(-416,    0), s(-433,    0), s(-450,    0), s(-468,    0), s(-486,    0), s(-500,    0),
    ],
    // The same without the attacker's queen.
    king_attack_without_queen: [
        s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0), s(   0,    0),
        s(   0,    0), s(   0,    0), s(  -3,    0), s(  -3,    0), s(  -3,    0), s(  -6,    0), s(  -7,    0), s(  -7,    0),
        s(  -7,    0), s( -13,    0), s( -19,    0), s( -20,    0), s( -20,    0), s( -23,    0), s( -44,    0), s( -44,    0),
        s( -44,    0), s( -52,    0), s( -56,    0), s( -60,    0), s( -65,    0), s( -70,    0), s( -75,    0), s( -80,    0),
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
    pure_opposite_bishops: 22,
    opposite_bishops_with_pieces: 54,
};
