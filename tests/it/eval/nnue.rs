//! The network evaluation: the incremental accumulator against a full refresh over perft
//! walks, the trainer's float network against the engine's integers, gradients against
//! finite differences, colour symmetry, a-h symmetry of networks with mirrored inputs, and
//! damaged network files refused.

use crate::common;

use ironwood::board::Color;
use ironwood::board::{MoveKind, Position};
use ironwood::nnue::{
    Accumulator, Activation, DEFAULT_HIDDEN, Evaluation, INPUTS, InputTransform, KingBuckets,
    Network, NetworkError, SimdPath, file,
};
use ironwood::tools::train::network::{FloatNetwork, Shape, king_bucket_layout, white_features};
use ironwood::tools::train::{K, Sample, loss, loss_and_gradient};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

fn suite(text: &str) -> Vec<Position> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            // Placement, side, castling, en passant: EPD operations may follow.
            let fields: Vec<&str> = l
                .split(';')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .take(4)
                .collect();
            let fen = fields.join(" ");
            Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e:?}"))
        })
        .collect()
}

fn perft_positions() -> Vec<Position> {
    suite(include_str!("../../data/perft.epd"))
}

/// The suites' positions and their children: a few thousand, of every kind.
fn many_positions() -> Vec<Position> {
    let mut roots = perft_positions();
    roots.extend(suite(include_str!("../../data/bk.epd")));
    roots.extend(suite(include_str!("../../data/openings.epd")));
    let mut all = roots.clone();
    for root in &roots {
        all.extend(common::legal(root).into_iter().map(|m| root.make_move(m)));
    }
    all
}

/// Every `step`-th of `many_positions` that still has mating material (the others score a
/// dead draw whatever the network says).
fn evaluated_positions(step: usize) -> Vec<Position> {
    many_positions()
        .into_iter()
        .filter(|p| !p.is_insufficient_material())
        .step_by(step)
        .collect()
}

#[derive(Default)]
struct Walk {
    nodes: u64,
    castles: u64,
    queen_castles: u64,
    en_passants: u64,
    promotions: u64,
    /// King moves from files a-d to e-h, and back: the mover's view changes its mirroring
    /// in a network with mirrored inputs.
    kings_crossing_east: u64,
    kings_crossing_west: u64,
    /// King moves onto or off their own back rank: the mover's view changes its king
    /// bucket in a network with king buckets by rank.
    kings_changing_rank_band: u64,
}

impl Walk {
    fn count(&mut self, pos: &Position, m: ironwood::board::Move, child: &Position) {
        match m.kind() {
            MoveKind::KingCastle | MoveKind::QueenCastle => {
                self.castles += 1;
                self.queen_castles += u64::from(m.kind() == MoveKind::QueenCastle);
            }
            MoveKind::EnPassant => self.en_passants += 1,
            _ if m.is_promotion() => self.promotions += 1,
            _ => {}
        }
        let side = pos.side_to_move();
        let east = |p: &Position| p.king_square(side).file() >= 4;
        match (east(pos), east(child)) {
            (false, true) => self.kings_crossing_east += 1,
            (true, false) => self.kings_crossing_west += 1,
            _ => {}
        }
        let back_rank = match side {
            Color::White => 0,
            Color::Black => 7,
        };
        let band = |p: &Position| (p.king_square(side).rank() as i32 - back_rank).abs().min(2);
        self.kings_changing_rank_band += u64::from(band(pos) != band(child));
        self.nodes += 1;
    }
}

/// Every node of a perft walk to `depth`: the accumulator at `ply` updated from the one at
/// `ply - 1` (or its own previous, the sibling's) must equal a fresh refresh.
fn walk(
    net: &Network,
    pos: &Position,
    ply: usize,
    depth: u32,
    stack: &mut [Accumulator],
    seen: &mut Walk,
) {
    for m in common::legal(pos) {
        let child = pos.make_move(m);
        seen.count(pos, m, &child);
        let (before, rest) = stack.split_at_mut(ply + 1);
        rest[0].update(net, &child, Some(&before[ply]));
        let mut fresh = Accumulator::default();
        fresh.refresh(net, &child);
        assert!(
            rest[0].values() == fresh.values() && rest[0].is_for(&child),
            "after {m} from {}",
            pos.to_fen()
        );
        assert_eq!(net.finish(&child, &rest[0]), net.evaluate(&child));
        if depth > 1 {
            walk(net, &child, ply + 1, depth - 1, stack, seen);
        }
    }
}

#[test]
fn the_incremental_accumulator_equals_a_refresh_after_every_move_of_perft_3() {
    let net = &*Network::embedded();
    let mut seen = Walk::default();
    let positions = perft_positions();
    assert!(positions.len() >= 30);
    for root in &positions {
        let mut stack = vec![Accumulator::default(); 5];
        stack[0].refresh(net, root);
        walk(net, root, 0, 3, &mut stack, &mut seen);
    }
    common::say(&format!(
        "nnue: {} nodes checked ({} castles, {} en passant, {} promotions)",
        seen.nodes, seen.castles, seen.en_passants, seen.promotions
    ));
    assert!(seen.nodes > 500_000, "{}", seen.nodes);
    assert!(seen.castles > 1000 && seen.en_passants > 100 && seen.promotions > 1000);
}

/// One code path's accumulators over a perft walk: `from_parent[ply]` is updated from the
/// parent's, as the search does; `in_place[ply]` only from its own previous values (the
/// sibling's position, or a refresh when too far).
struct PathStacks {
    path: SimdPath,
    from_parent: Vec<Accumulator>,
    in_place: Vec<Accumulator>,
}

/// Every node of a perft walk to `depth`: each code path's accumulators, incremental from
/// the parent, incremental in place and refreshed, hold the scalar refresh's integers, and
/// its output for either side to move is the scalar output.
fn walk_paths(
    net: &Network,
    pos: &Position,
    ply: usize,
    depth: u32,
    stacks: &mut [PathStacks],
    seen: &mut Walk,
) {
    for m in common::legal(pos) {
        let child = pos.make_move(m);
        seen.count(pos, m, &child);
        let mut expected = Accumulator::default();
        expected.refresh_with(SimdPath::scalar(), net, &child);
        let bucket = net.output_bucket_of(&child);
        let expected_outputs =
            Color::BOTH.map(|side| net.output_with(SimdPath::scalar(), &expected, side, bucket));
        for stack in stacks.iter_mut() {
            let path = stack.path;
            let (before, rest) = stack.from_parent.split_at_mut(ply + 1);
            rest[0].update_with(path, net, &child, Some(&before[ply]));
            stack.in_place[ply + 1].update_with(path, net, &child, None);
            let mut refreshed = Accumulator::default();
            refreshed.refresh_with(path, net, &child);
            for acc in [
                &stack.from_parent[ply + 1],
                &stack.in_place[ply + 1],
                &refreshed,
            ] {
                assert!(
                    acc.values() == expected.values() && acc.is_for(&child),
                    "{}: after {m} from {}",
                    path.name(),
                    pos.to_fen()
                );
                for side in Color::BOTH {
                    assert_eq!(
                        net.output_with(path, acc, side, bucket),
                        expected_outputs[side.index()],
                        "{}: after {m} from {}",
                        path.name(),
                        pos.to_fen()
                    );
                }
            }
        }
        if depth > 1 {
            walk_paths(net, &child, ply + 1, depth - 1, stacks, seen);
        }
    }
}

/// Walks perft 3 from every `perft.epd` position with each network on every code path
/// (`walk_paths`).
fn walk_every_path(nets: &[&Network]) -> Walk {
    let paths = SimdPath::supported();
    let mut seen = Walk::default();
    for net in nets {
        for root in &perft_positions() {
            let mut stacks: Vec<PathStacks> = paths
                .iter()
                .map(|&path| {
                    let mut stack = PathStacks {
                        path,
                        from_parent: vec![Accumulator::default(); 4],
                        in_place: vec![Accumulator::default(); 4],
                    };
                    stack.from_parent[0].refresh_with(path, net, root);
                    stack
                })
                .collect();
            walk_paths(net, root, 0, 3, &mut stacks, &mut seen);
        }
    }
    seen
}

#[test]
fn every_simd_path_gives_the_scalar_integers_at_every_node_of_perft_3() {
    let paths = SimdPath::supported();
    common::say(&format!(
        "nnue: code paths {:?}, active {}",
        paths.iter().map(|p| p.name()).collect::<Vec<_>>(),
        SimdPath::active().name()
    ));
    // Networks whose hidden values leave the activation's range both ways, so clamping and
    // the output sums' extremes are exercised too, in every shape, and at the wider widths
    // (a tile and a half, three tiles).
    let mut rng = StdRng::seed_from_u64(32);
    let louds: Vec<Network> = [1, 8]
        .into_iter()
        .flat_map(|buckets| Activation::ALL.map(|activation| (DEFAULT_HIDDEN, buckets, activation)))
        .chain([
            (192, 8, Activation::SquaredClippedRelu),
            (384, 1, Activation::ClippedRelu),
        ])
        .map(|(hidden, buckets, activation)| {
            let plain = InputTransform::Plain;
            loud_network(
                &mut rng,
                hidden,
                buckets,
                activation,
                plain,
                KingBuckets::NONE,
            )
        })
        .collect();
    let embedded = Network::embedded();
    let nets: Vec<&Network> = std::iter::once(&*embedded).chain(&louds).collect();
    let seen = walk_every_path(&nets);
    common::say(&format!(
        "nnue: {} nodes compared on every path",
        seen.nodes
    ));
    assert!(seen.nodes > 250_000, "{}", seen.nodes);
}

#[test]
fn mirrored_and_king_bucketed_updates_equal_a_refresh_on_every_path_as_kings_change_inputs() {
    // The view whose king crosses the d/e line or into another king bucket is computed
    // afresh, the other updated: both must hold the scalar refresh's integers, from the
    // parent and in place, on every path.
    let mut rng = StdRng::seed_from_u64(33);
    let mirrored = InputTransform::MirroredByKingFile;
    let louds = [
        (DEFAULT_HIDDEN, 1, Activation::ClippedRelu, mirrored, 1),
        (256, 8, Activation::SquaredClippedRelu, mirrored, 4),
        (32, 1, Activation::ClippedRelu, InputTransform::Plain, 2),
    ]
    .map(|(hidden, buckets, activation, transform, king_buckets)| {
        let king_buckets = king_bucket_layout(king_buckets).unwrap();
        loud_network(
            &mut rng,
            hidden,
            buckets,
            activation,
            transform,
            king_buckets,
        )
    });
    let seen = walk_every_path(&louds.each_ref());
    common::say(&format!(
        "nnue: mirrored inputs and king buckets: {} nodes compared on every path, {} castles \
         ({} queen side), kings crossing to files e-h {} and back {} times, onto or off the \
         back rank or the second {} times",
        seen.nodes,
        seen.castles,
        seen.queen_castles,
        seen.kings_crossing_east,
        seen.kings_crossing_west,
        seen.kings_changing_rank_band
    ));
    assert!(seen.nodes > 100_000, "{}", seen.nodes);
    assert!(seen.queen_castles > 100 && seen.castles - seen.queen_castles > 100);
    assert!(seen.kings_crossing_east > 1000 && seen.kings_crossing_west > 1000);
    assert!(seen.kings_changing_rank_band > 1000);
}

/// A network of width `hidden` of random integers over the whole range a file may hold.
fn loud_network(
    rng: &mut StdRng,
    hidden: usize,
    buckets: usize,
    activation: Activation,
    input_transform: InputTransform,
    king_buckets: KingBuckets,
) -> Network {
    let limit = file::MAX_TRANSFORMER_VALUE;
    let output_limit = match activation {
        Activation::ClippedRelu => i16::MAX,
        Activation::SquaredClippedRelu => file::MAX_SCRELU_OUTPUT_WEIGHT,
    };
    Network::from_parts(
        (0..INPUTS * king_buckets.count() * hidden)
            .map(|_| rng.gen_range(-limit..=limit))
            .collect(),
        (0..hidden).map(|_| rng.gen_range(-limit..=limit)).collect(),
        activation,
        input_transform,
        king_buckets,
        &(0..buckets * 2 * hidden)
            .map(|_| rng.gen_range(-output_limit..=output_limit))
            .collect::<Vec<_>>(),
        (0..buckets)
            .map(|_| rng.gen_range(-1_000_000..=1_000_000))
            .collect(),
    )
    .unwrap()
}

/// Every shape a network file holds: each output layer and input transform with one set of
/// input weights, then king buckets (2 and 4) with either transform.
fn shapes() -> Vec<Shape> {
    let mut shapes = Vec::new();
    for input_transform in InputTransform::ALL {
        for output_buckets in [1, 8] {
            for activation in Activation::ALL {
                shapes.push(Shape {
                    hidden: DEFAULT_HIDDEN,
                    output_buckets,
                    activation,
                    input_transform,
                    king_buckets: KingBuckets::NONE,
                    factorised: false,
                });
            }
        }
    }
    for (input_transform, output_buckets, activation, king_buckets) in [
        (InputTransform::Plain, 1, Activation::ClippedRelu, 2),
        (
            InputTransform::MirroredByKingFile,
            8,
            Activation::SquaredClippedRelu,
            4,
        ),
    ] {
        shapes.push(Shape {
            hidden: DEFAULT_HIDDEN,
            output_buckets,
            activation,
            input_transform,
            king_buckets: king_bucket_layout(king_buckets).unwrap(),
            factorised: false,
        });
    }
    shapes
}

/// The king-bucketed shapes of `shapes`, factorised: what only the trainer holds.
fn factorised_shapes() -> Vec<Shape> {
    shapes()
        .into_iter()
        .filter(|shape| shape.king_buckets.count() > 1)
        .map(|shape| Shape {
            factorised: true,
            ..shape
        })
        .collect()
}

/// Integer truncation of the output is the only difference from the dequantised network;
/// the squared clipped ReLU truncates once more, when its sum is divided by QA (at most
/// SCALE / (QA x QB) = 0.025 cp).
const DEQUANTISED_TOLERANCE_CP: f32 = 1.0;
const SQUARED_DEQUANTISED_TOLERANCE_CP: f32 = 1.03;

/// Rounding the weights to the integer grid is the cost of quantisation: an output weight
/// moves by up to 1/(2 QB), so with some 128 of 256 hidden values active the output moves
/// by about sqrt(256 x 0.3) x 0.0045 x SCALE = 14 cp (standard deviation). Measured on this
/// suite with the networks below: 14.5 mean, 38 max (one bucket, clipped ReLU).
const FLOAT_MEAN_TOLERANCE_CP: f64 = 20.0;
const FLOAT_MAX_TOLERANCE_CP: f32 = 60.0;

/// The engine's integer evaluation of each position is `float`'s (the network read back as
/// floats) but for the output's truncation, within the activation's tolerance above.
fn assert_quantised_matches_float(net: &Network, float: &FloatNetwork, positions: &[Position]) {
    let tolerance = match net.activation() {
        Activation::ClippedRelu => DEQUANTISED_TOLERANCE_CP,
        Activation::SquaredClippedRelu => SQUARED_DEQUANTISED_TOLERANCE_CP,
    };
    for pos in positions {
        let (engine, trainer) = (net.evaluate(pos), float.evaluate(pos));
        assert!(
            (engine as f32 - trainer).abs() <= tolerance,
            "{net:?}: {}: engine {engine}, trainer {trainer}",
            pos.to_fen()
        );
    }
}

/// Generation 0, the network embedded before the first one trained on the corpus: a version
/// 1 file (one output, clipped ReLU) written by an older build.
const GEN0_FILE: &[u8] = include_bytes!("../../data/gen0-run6.nnue");

#[test]
fn the_trainers_float_network_equals_the_engines_quantised_evaluation() {
    let positions = evaluated_positions(1);
    assert!(positions.len() > 2000, "{}", positions.len());

    // The embedded network and generation 0 read back as floats: the same numbers, float
    // arithmetic.
    let gen0 = Network::from_bytes(GEN0_FILE).unwrap();
    for net in [&*Network::embedded(), &gen0] {
        let float = FloatNetwork::dequantise(net);
        assert_quantised_matches_float(net, &float, &positions);
    }

    for shape in shapes() {
        // A float network in training's range, and the integers it is exported as.
        let mut rng = StdRng::seed_from_u64(3);
        let mut float = FloatNetwork::random(shape, &mut rng);
        for w in &mut float.params {
            *w *= 4.0;
        }
        float.clip();
        let net = float.quantise().unwrap();
        assert_eq!(
            (
                net.output_buckets(),
                net.activation(),
                net.input_transform()
            ),
            (
                shape.output_buckets,
                shape.activation,
                shape.input_transform
            )
        );
        // Its integers read back as floats agree with the engine but for truncation.
        let exact = FloatNetwork::dequantise(&net);
        assert_eq!(exact.shape, shape);
        assert_quantised_matches_float(&net, &exact, &positions);
        let mut buckets_seen = [false; 8];
        for pos in &positions {
            buckets_seen[net.output_bucket_of(pos)] = true;
        }
        let buckets_used = buckets_seen.iter().filter(|&&seen| seen).count();
        assert!(
            buckets_used == 1 || buckets_used >= 6,
            "{shape:?}: {buckets_used} buckets"
        );
        assert_eq!(buckets_used > 1, shape.output_buckets == 8);

        let (mut total, mut worst) = (0.0f64, 0.0f32);
        let mut spread = 0.0f64;
        for pos in &positions {
            let diff = (net.evaluate(pos) as f32 - float.evaluate(pos)).abs();
            total += f64::from(diff);
            worst = worst.max(diff);
            spread += f64::from(float.evaluate(pos).abs());
        }
        let mean = total / positions.len() as f64;
        common::say(&format!(
            "nnue: {} bucket(s), {}, {}: float vs quantised over {} positions: mean \
             {mean:.2} cp, max {worst:.1} cp (mean |eval| {:.0} cp)",
            shape.output_buckets,
            shape.activation.name(),
            shape.input_transform.name(),
            positions.len(),
            spread / positions.len() as f64
        ));
        assert!(
            mean <= FLOAT_MEAN_TOLERANCE_CP && worst <= FLOAT_MAX_TOLERANCE_CP,
            "{shape:?}"
        );
        assert!(
            spread / positions.len() as f64 > 50.0,
            "{shape:?}: a network that says nothing"
        );
    }
}

#[test]
fn a_factorised_network_exports_each_bucket_plus_the_shared_set() {
    let positions = evaluated_positions(3);
    for shape in factorised_shapes() {
        let mut float = FloatNetwork::random(shape, &mut StdRng::seed_from_u64(9));
        let (h, own_end) = (shape.hidden, shape.inputs() * shape.hidden);
        let shared_end = float.transformer_biases_at();
        assert_eq!(shared_end - own_end, INPUTS * h);
        // Every bucket starts as the shared set: the buckets' own rows are zero.
        assert!(float.params[..own_end].iter().all(|&w| w == 0.0));
        assert!(float.params[own_end..shared_end].iter().any(|&w| w != 0.0));
        // Weights as after training: each bucket apart from the others, outputs loud.
        let mut rng = StdRng::seed_from_u64(10);
        for w in &mut float.params[..own_end] {
            *w = rng.gen_range(-0.18..0.18);
        }
        for w in &mut float.params[own_end..] {
            *w *= 4.0;
        }
        float.clip();
        let net = float.quantise().unwrap();
        assert_eq!(net.king_buckets(), shape.king_buckets);
        assert_eq!(
            net.to_bytes().len(),
            file::header_size(4)
                + file::payload_size(shape.king_buckets.count(), h, shape.output_buckets)
        );
        // The engine's weights are each bucket's rows plus the shared rows, rounded once.
        let exact = FloatNetwork::dequantise(&net);
        assert_eq!(
            exact.shape,
            Shape {
                factorised: false,
                ..shape
            }
        );
        for i in (0..own_end).step_by(7) {
            let merged = float.params[i] + float.params[own_end + i % (INPUTS * h)];
            let expected = (merged * ironwood::nnue::QA as f32).round();
            assert_eq!(exact.params[i] * ironwood::nnue::QA as f32, expected, "{i}");
        }
        assert_quantised_matches_float(&net, &exact, &positions);
        // And the float network it came from scores as the engine does but for rounding.
        let (mut total, mut worst, mut spread) = (0.0f64, 0.0f32, 0.0f64);
        for pos in &positions {
            let diff = (net.evaluate(pos) as f32 - float.evaluate(pos)).abs();
            total += f64::from(diff);
            worst = worst.max(diff);
            spread += f64::from(float.evaluate(pos).abs());
        }
        let mean = total / positions.len() as f64;
        assert!(
            mean <= FLOAT_MEAN_TOLERANCE_CP && worst <= FLOAT_MAX_TOLERANCE_CP,
            "{shape:?}: mean {mean}, worst {worst}"
        );
        assert!(spread / positions.len() as f64 > 50.0, "{shape:?}");
    }
}

#[test]
fn gradients_match_finite_differences_on_tiny_networks_of_each_shape() {
    for shape in shapes().into_iter().chain(factorised_shapes()) {
        check_gradients(Shape { hidden: 4, ..shape });
    }
}

fn check_gradients(shape: Shape) {
    let mut rng = StdRng::seed_from_u64(11);
    let mut net = FloatNetwork::random(shape, &mut rng);
    for w in &mut net.params {
        *w = rng.gen_range(-0.4..0.4);
    }
    // Positions whose hidden values are clear of the activation's kinks, so a small step
    // does not cross one, from every output bucket the suites reach.
    let mut per_bucket = [0; 8];
    let samples: Vec<Sample> = many_positions()
        .iter()
        .step_by(13)
        .map(|pos| Sample::new(pos, rng.gen_range(0.0..1.0), rng.gen_range(0..=2)))
        .filter(|s| {
            let (own, other) = net.pre_activations(s.features(), s.black_to_move);
            own.iter()
                .chain(&other)
                .all(|&v| v.abs() > 0.02 && (v - 1.0).abs() > 0.02)
        })
        .filter(|s| {
            let bucket = net.bucket_of(s.features());
            per_bucket[bucket] += 1;
            // Eight buckets: two samples each at most, so several buckets are exercised.
            per_bucket[bucket] <= if shape.output_buckets == 1 { 8 } else { 2 }
        })
        .take(8)
        .collect();
    let buckets_used = per_bucket.iter().filter(|&&n| n > 0).count();
    assert!(samples.len() >= 6, "{shape:?}: {}", samples.len());
    assert!(
        shape.output_buckets == 1 || buckets_used >= 4,
        "{shape:?}: {per_bucket:?}"
    );
    // A blend of score and result, so the gradient is checked against both parts.
    const LAMBDA: f32 = 0.3;
    let (_, gradient) = loss_and_gradient(&net, &samples, LAMBDA);
    let step = 1e-3f32;
    let (mut checked, mut nonzero) = (0, 0);
    for (i, &analytic) in gradient.iter().enumerate() {
        let mut plus = net.clone();
        plus.params[i] += step;
        let mut minus = net.clone();
        minus.params[i] -= step;
        let numeric = ((loss(&plus, &samples, LAMBDA) - loss(&minus, &samples, LAMBDA))
            / f64::from(2.0 * step)) as f32;
        assert!(
            (numeric - analytic).abs() <= 2e-5 + 0.02 * numeric.abs().max(analytic.abs()),
            "{shape:?}: parameter {i}: finite difference {numeric}, gradient {analytic}"
        );
        checked += 1;
        if analytic.abs() > 1e-4 {
            nonzero += 1;
        }
    }
    assert_eq!(checked, FloatNetwork::param_count(shape));
    assert!(
        nonzero > 100,
        "{shape:?}: only {nonzero} gradients are not ~0"
    );
}

/// The trainer's gradient, worked one position at a time, row after row: what the blocked
/// and tiled pass must equal to the bit (the generations rebuild byte for byte from it).
fn reference_loss_and_gradient(
    net: &FloatNetwork,
    samples: &[Sample],
    lambda: f32,
) -> (f64, Vec<f32>) {
    let h = net.hidden();
    let activation = net.shape.activation;
    let weight = 1.0 / samples.len() as f32;
    let scale = K * ironwood::nnue::SCALE as f32;
    let mut grad = vec![0.0f32; net.params.len()];
    let mut total = 0.0f64;
    for s in samples {
        let (own, other) = net.pre_activations(s.features(), s.black_to_move);
        let bucket = net.bucket_of(s.features());
        let out_at = net.output_weights_at(bucket);
        let bias_at = net.output_biases_at() + bucket;
        let mut y = net.params[bias_at];
        for i in 0..h {
            y += activation.apply(own[i]) * net.params[out_at + i]
                + activation.apply(other[i]) * net.params[out_at + h + i];
        }
        let p = 1.0 / (1.0 + (-(scale * y)).exp());
        let error = p - s.target(lambda);
        let g = weight * 2.0 * error * p * (1.0 - p) * scale;
        grad[bias_at] += g;
        let mut d_own = vec![0.0f32; h];
        let mut d_other = vec![0.0f32; h];
        for i in 0..h {
            grad[out_at + i] += g * activation.apply(own[i]);
            d_own[i] = g * net.params[out_at + i] * activation.derivative(own[i]);
            grad[out_at + h + i] += g * activation.apply(other[i]);
            d_other[i] = g * net.params[out_at + h + i] * activation.derivative(other[i]);
        }
        let biases = net.transformer_biases_at();
        for i in 0..h {
            grad[biases + i] += d_own[i] + d_other[i];
        }
        for (own_f, other_f) in net.input_pairs(s.features(), s.black_to_move) {
            for i in 0..h {
                grad[own_f * h + i] += d_own[i];
            }
            for i in 0..h {
                grad[other_f * h + i] += d_other[i];
            }
            if let (Some(own_s), Some(other_s)) = (net.shared_row(own_f), net.shared_row(other_f)) {
                for i in 0..h {
                    grad[own_s * h + i] += d_own[i];
                }
                for i in 0..h {
                    grad[other_s * h + i] += d_other[i];
                }
            }
        }
        total += f64::from(error * error);
    }
    (total / samples.len() as f64, grad)
}

#[test]
fn the_blocked_gradient_equals_the_position_by_position_one_to_the_bit() {
    let positions = many_positions();
    let mut rng = StdRng::seed_from_u64(12);
    // Widths below, at and across the tiles; more positions than a block holds.
    for (shape, hidden) in shapes()
        .into_iter()
        .chain(factorised_shapes())
        .zip([4, 160, 128, 512, 96, 256, 32, 288, 384, 64, 128, 96])
    {
        let shape = Shape { hidden, ..shape };
        let net = FloatNetwork::random(shape, &mut rng);
        let samples: Vec<Sample> = positions
            .iter()
            .step_by(5)
            .take(150)
            .map(|pos| Sample::new(pos, rng.gen_range(0.0..1.0), rng.gen_range(0..=2)))
            .collect();
        assert_eq!(samples.len(), 150);
        let (loss, gradient) = loss_and_gradient(&net, &samples, 0.3);
        let (expected_loss, expected) = reference_loss_and_gradient(&net, &samples, 0.3);
        assert_eq!(loss.to_bits(), expected_loss.to_bits(), "{shape:?}");
        let differing = gradient
            .iter()
            .zip(&expected)
            .filter(|(a, b)| a.to_bits() != b.to_bits())
            .count();
        assert_eq!(differing, 0, "{shape:?}: {differing} parameters differ");
        assert!(
            gradient.iter().filter(|g| g.abs() > 1e-7).count() > 2 * hidden,
            "{shape:?}"
        );
    }
}

#[test]
fn both_evaluations_are_colour_symmetric() {
    let positions = many_positions();
    let evaluations = [Evaluation::Classical, Evaluation::Nnue(Network::embedded())];
    for evaluation in evaluations {
        let mut unbalanced = 0;
        for pos in &positions {
            let mirror = pos.mirrored();
            let score = evaluation.evaluate(pos);
            assert_eq!(
                score,
                evaluation.evaluate(&mirror),
                "{evaluation:?}: {} against {}",
                pos.to_fen(),
                mirror.to_fen()
            );
            unbalanced += usize::from(score.abs() > 50);
        }
        assert!(
            unbalanced > positions.len() / 4,
            "{evaluation:?}: {unbalanced}"
        );
    }
    // The trainer's float network sees the mirror the same way too.
    let float = FloatNetwork::dequantise(&Network::embedded());
    for pos in positions.iter().step_by(7) {
        // Equal but for the order of float additions.
        let (a, b) = (float.evaluate(pos), float.evaluate(&pos.mirrored()));
        assert!((a - b).abs() < 0.01, "{}: {a} {b}", pos.to_fen());
        assert_eq!(white_features(pos).len(), pos.occupied().count() as usize);
    }
}

/// `pos` without castling rights, and its mirror left to right (files a-h swapped), also
/// without: castling is the one rule the mirror breaks, and the network does not see it.
fn without_castling_and_files_mirrored(pos: &Position) -> (Position, Position) {
    let fen = pos.to_fen();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let ranks: Vec<String> = fields[0]
        .split('/')
        .map(|rank| {
            let mut squares: Vec<char> = Vec::new();
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(empty) => squares.extend(std::iter::repeat_n('1', empty as usize)),
                    None => squares.push(c),
                }
            }
            squares.reverse();
            squares.into_iter().collect()
        })
        .collect();
    let en_passant: String = match fields[3].as_bytes() {
        [file, rank] => format!("{}{}", char::from(b'h' - (file - b'a')), char::from(*rank)),
        _ => "-".to_string(),
    };
    let rest = fields[4..].join(" ");
    let plain = format!("{} {} - {} {rest}", fields[0], fields[1], fields[3]);
    let mirror = format!("{} {} - {en_passant} {rest}", ranks.join("/"), fields[1]);
    let parse = |fen: &str| Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e:?}"));
    (parse(&plain), parse(&mirror))
}

#[test]
fn a_mirrored_network_scores_a_position_and_its_a_h_mirror_alike_and_a_plain_one_does_not() {
    let pairs: Vec<(Position, Position)> = many_positions()
        .iter()
        .map(without_castling_and_files_mirrored)
        .collect();
    // Kings on both halves of the board, so both mirror states of both views are seen.
    for side in Color::BOTH {
        let east = pairs
            .iter()
            .filter(|(pos, _)| pos.king_square(side).file() >= 4)
            .count();
        let west = pairs.len() - east;
        assert!(
            east > 100 && west > 100,
            "{side:?}: {east} east, {west} west"
        );
    }
    let four = king_bucket_layout(4).unwrap();
    for (input_transform, king_buckets) in [
        (InputTransform::Plain, KingBuckets::NONE),
        (InputTransform::MirroredByKingFile, KingBuckets::NONE),
        (InputTransform::MirroredByKingFile, four),
    ] {
        let shape = Shape {
            hidden: DEFAULT_HIDDEN,
            output_buckets: 8,
            activation: Activation::SquaredClippedRelu,
            input_transform,
            king_buckets,
            factorised: false,
        };
        let mut float = FloatNetwork::random(shape, &mut StdRng::seed_from_u64(5));
        for w in &mut float.params {
            *w *= 4.0;
        }
        float.clip();
        let net = float.quantise().unwrap();
        let (mut differ, mut unbalanced) = (0, 0);
        for (pos, mirror) in &pairs {
            let (score, mirror_score) = (net.evaluate(pos), net.evaluate(mirror));
            differ += usize::from(score != mirror_score);
            unbalanced += usize::from(score.abs() > 50);
            if input_transform == InputTransform::MirroredByKingFile {
                assert_eq!(
                    score,
                    mirror_score,
                    "{}: {} against {}",
                    net.input_transform().name(),
                    pos.to_fen(),
                    mirror.to_fen()
                );
                // The trainer's float network too, but for the order of float additions.
                let (a, b) = (float.evaluate(pos), float.evaluate(mirror));
                assert!((a - b).abs() < 0.01, "{}: {a} {b}", pos.to_fen());
            }
        }
        common::say(&format!(
            "nnue: {}, {} king bucket(s): {differ} of {} positions score otherwise mirrored a-h",
            input_transform.name(),
            king_buckets.count(),
            pairs.len()
        ));
        assert!(
            unbalanced > pairs.len() / 4,
            "{input_transform:?}: {unbalanced}"
        );
        if input_transform == InputTransform::Plain {
            assert!(differ > pairs.len() * 9 / 10, "{differ} of {}", pairs.len());
        }
    }
}

#[test]
fn damaged_or_foreign_network_files_are_refused_with_their_reason() {
    // A version 1 file: its header's reserved fields are checked too.
    let good = GEN0_FILE.to_vec();
    assert_eq!(
        good.len(),
        file::HEADER_SIZE + file::payload_size(1, DEFAULT_HIDDEN, 1)
    );
    let refuse = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err();

    let mut bad = good.clone();
    bad[0] = b'X';
    assert_eq!(refuse(&bad), NetworkError::BadMagic);
    let mut bad = good.clone();
    bad[8] = 5;
    assert_eq!(refuse(&bad), NetworkError::BadVersion(5));
    assert!(
        refuse(&bad)
            .to_string()
            .contains("version 5; this build reads versions 1 to 4")
    );
    // Version 1's header has no bucket count (its field is reserved, 0), nor the squared
    // clipped ReLU.
    let mut bad = good.clone();
    bad[8] = 2;
    assert_eq!(refuse(&bad), NetworkError::BadOutputBuckets(0));
    let mut bad = good.clone();
    bad[20] = 1;
    assert_eq!(
        refuse(&bad),
        NetworkError::UnknownActivation {
            version: 1,
            code: 1
        }
    );
    // A width the engine does not run, and one it runs but the file's size is not of.
    for hidden in [0, 16, 100, 200, 1056, 2048, u32::MAX] {
        let mut bad = good.clone();
        bad[16..20].copy_from_slice(&hidden.to_le_bytes());
        assert_eq!(
            refuse(&bad),
            NetworkError::BadLayout {
                inputs: 768,
                hidden
            }
        );
    }
    let mut bad = good.clone();
    bad[16..20].copy_from_slice(&200u32.to_le_bytes());
    assert!(refuse(&bad).to_string().contains(
        "network layout 768 -> 200; this build runs 768 -> H for H a multiple of 32 from 32 \
         to 1024"
    ));
    let mut bad = good.clone();
    bad[12..16].copy_from_slice(&769u32.to_le_bytes());
    assert!(matches!(
        refuse(&bad),
        NetworkError::BadLayout { inputs: 769, .. }
    ));
    let mut bad = good.clone();
    bad[16..20].copy_from_slice(&256u32.to_le_bytes());
    let expected = file::HEADER_SIZE + file::payload_size(1, 256, 1);
    assert_eq!(
        refuse(&bad),
        NetworkError::WrongSize {
            size: good.len(),
            expected,
            inputs: 768,
            hidden: 256,
            buckets: 1
        }
    );
    assert!(refuse(&bad).to_string().contains(&format!(
        "{} bytes, where a 768 -> 256 network with 1 output bucket(s), as its header says, \
         takes {expected}",
        good.len()
    )));
    let mut bad = good.clone();
    bad[24..28].copy_from_slice(&127u32.to_le_bytes());
    assert!(matches!(
        refuse(&bad),
        NetworkError::BadQuantisation { qa: 127, .. }
    ));
    assert_eq!(refuse(&good[..20]), NetworkError::TooShort(20));
    let wrong_size = |size| NetworkError::WrongSize {
        size,
        expected: good.len(),
        inputs: 768,
        hidden: 128,
        buckets: 1,
    };
    assert_eq!(refuse(&good[..good.len() - 1]), wrong_size(good.len() - 1));
    let mut longer = good.clone();
    longer.push(0);
    assert_eq!(refuse(&longer), wrong_size(good.len() + 1));
    // One flipped bit anywhere in the weights.
    for at in [
        file::HEADER_SIZE,
        file::HEADER_SIZE + 100_000,
        good.len() - 1,
    ] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        assert!(
            matches!(refuse(&bad), NetworkError::BadChecksum { .. }),
            "byte {at}"
        );
        assert!(refuse(&bad).to_string().contains("damaged"));
    }
    // A weight an accumulator could overflow with, with a checksum that matches it.
    let mut bad = good.clone();
    bad[file::HEADER_SIZE..file::HEADER_SIZE + 2].copy_from_slice(&5000i16.to_le_bytes());
    let sum = file::checksum(&bad[file::HEADER_SIZE..]);
    bad[40..48].copy_from_slice(&sum.to_le_bytes());
    assert_eq!(
        refuse(&bad),
        NetworkError::OutOfRange {
            index: 0,
            value: 5000
        }
    );
    assert_eq!(Network::from_bytes(&good).unwrap().to_bytes(), good);
}

/// The file of `net` with its header field at `at` (a u32) set to `value`.
fn with_header_field(net: &Network, at: usize, value: u32) -> Vec<u8> {
    let mut bytes = net.to_bytes();
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
    bytes
}

#[test]
fn networks_of_every_shape_survive_a_round_trip_in_their_version_and_bad_headers_are_named() {
    for (i, shape) in shapes().into_iter().enumerate() {
        // Mirrored shapes come after the plain ones, with the same weights: their twins.
        let seed = 7 + (i % 4) as u64;
        let loud = |input_transform| {
            let mut rng = StdRng::seed_from_u64(seed);
            let (buckets, activation) = (shape.output_buckets, shape.activation);
            let king_buckets = shape.king_buckets;
            loud_network(
                &mut rng,
                shape.hidden,
                buckets,
                activation,
                input_transform,
                king_buckets,
            )
        };
        let net = loud(shape.input_transform);
        let bytes = net.to_bytes();
        let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
        let mirrored = shape.input_transform == InputTransform::MirroredByKingFile;
        let bucketed = shape.king_buckets.count() > 1;
        let v1 = shape.output_buckets == 1 && shape.activation == Activation::ClippedRelu;
        // The one shape version 1 holds is still written as version 1, plain inputs as
        // version 2 at most, one set of input weights as version 3 at most.
        let expected = match (bucketed, mirrored, v1) {
            (true, _, _) => 4,
            (false, true, _) => 3,
            (false, false, true) => 1,
            (false, false, false) => 2,
        };
        assert_eq!(version, expected, "{shape:?}");
        let header = file::header_size(version);
        assert_eq!(header, [48, 48, 52, 116][version as usize - 1]);
        assert_eq!(
            bytes.len(),
            header
                + file::payload_size(
                    shape.king_buckets.count(),
                    shape.hidden,
                    shape.output_buckets
                )
        );
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, net, "{shape:?}");
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(back.checksum(), net.checksum());
        assert_eq!(
            (
                back.output_buckets(),
                back.activation(),
                back.input_transform(),
                back.king_buckets()
            ),
            (
                shape.output_buckets,
                shape.activation,
                shape.input_transform,
                shape.king_buckets
            )
        );
        let refuse = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err();
        if bucketed {
            // The table follows the transform, under the checksum.
            let at = file::KING_BUCKETS_AT;
            assert_eq!(bytes[at..at + 64], *shape.king_buckets.table());
            let with_table_byte = |value: u8, fix_checksum: bool| {
                let mut bad = bytes.clone();
                bad[at + 9] = value;
                if fix_checksum {
                    let sum = file::checksum(&bad[file::HEADER_SIZE..]);
                    bad[40..48].copy_from_slice(&sum.to_le_bytes());
                }
                bad
            };
            assert!(matches!(
                refuse(&with_table_byte(0, false)),
                NetworkError::BadChecksum { .. }
            ));
            for value in [16, 200, 255] {
                assert_eq!(
                    refuse(&with_table_byte(value, true)),
                    NetworkError::TooManyKingBuckets(value)
                );
            }
            assert!(
                refuse(&with_table_byte(16, true))
                    .to_string()
                    .contains("king bucket 16")
            );
            // Another table with the same count: the same weights, another network.
            let other = Network::from_bytes(&with_table_byte(0, true)).unwrap();
            assert_eq!(other.king_buckets().count(), shape.king_buckets.count());
            assert_ne!(other.checksum(), net.checksum());
            // A higher count than the weights hold: the size refuses it.
            let more = with_table_byte(shape.king_buckets.count() as u8, true);
            assert!(matches!(
                refuse(&more),
                NetworkError::WrongSize { inputs, .. }
                    if inputs as usize == INPUTS * (shape.king_buckets.count() + 1)
            ));
            // Cut inside the table.
            assert_eq!(refuse(&bytes[..100]), NetworkError::TooShort(100));
            assert!(
                refuse(&bytes[..100])
                    .to_string()
                    .contains("116 in version 4")
            );
            // Version 3 has no table: the same bytes are its weights.
            assert!(matches!(
                refuse(&with_header_field(&net, 8, 3)),
                NetworkError::WrongSize { .. }
            ));
        }
        if mirrored && !bucketed {
            // The same weights with plain inputs: the same payload, another network.
            let twin = loud(InputTransform::Plain);
            let twin_bytes = twin.to_bytes();
            assert_eq!(bytes[header..], twin_bytes[file::HEADER_SIZE..]);
            assert_ne!(twin, net);
            assert_ne!(twin.checksum(), net.checksum());
            assert_ne!(
                Evaluation::Nnue(Arc::new(twin.clone())),
                Evaluation::Nnue(Arc::new(net.clone()))
            );
            let at = file::INPUT_TRANSFORM_AT;
            assert_eq!(bytes[at..at + 4], 1u32.to_le_bytes());
            for code in [2, 3, 256, u32::MAX] {
                assert_eq!(
                    refuse(&with_header_field(&net, at, code)),
                    NetworkError::UnknownInputTransform(code)
                );
            }
            assert!(
                refuse(&with_header_field(&net, at, 2))
                    .to_string()
                    .contains("input transform code 2")
            );
            // The checksum covers the field: plain inputs need a matching checksum, and
            // then the file is the twin.
            let mut plain = with_header_field(&net, at, 0);
            assert!(matches!(refuse(&plain), NetworkError::BadChecksum { .. }));
            let sum = file::checksum(&plain[file::HEADER_SIZE..]);
            plain[40..48].copy_from_slice(&sum.to_le_bytes());
            assert_eq!(Network::from_bytes(&plain).unwrap(), twin);
            // A version 3 file cut inside its longer header.
            assert_eq!(refuse(&bytes[..50]), NetworkError::TooShort(50));
            assert!(refuse(&bytes[..50]).to_string().contains("52 in version 3"));
            // Versions 1 and 2 have no such field: the same bytes are their weights.
            assert!(matches!(
                refuse(&with_header_field(&net, 8, 2)),
                NetworkError::WrongSize { .. }
            ));
        }
        if v1 && !mirrored {
            continue;
        }
        // Damaged headers, each named.
        let refuse = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err();
        for buckets in [0, 2, 4, 7, 9, 64] {
            assert_eq!(
                refuse(&with_header_field(&net, 36, buckets)),
                NetworkError::BadOutputBuckets(buckets),
            );
        }
        assert!(
            refuse(&with_header_field(&net, 36, 4))
                .to_string()
                .contains("4 output buckets")
        );
        let other = if shape.output_buckets == 1 { 8 } else { 1 };
        assert!(matches!(
            refuse(&with_header_field(&net, 36, other)),
            NetworkError::WrongSize { .. }
        ));
        assert_eq!(
            refuse(&with_header_field(&net, 20, 2)),
            NetworkError::UnknownActivation { version, code: 2 }
        );
        assert!(
            refuse(&with_header_field(&net, 20, 2))
                .to_string()
                .contains("activation code 2")
        );
        // A squared clipped ReLU output weight the integer path could overflow with, with a
        // checksum that matches it.
        if shape.activation == Activation::SquaredClippedRelu {
            let inputs = INPUTS * shape.king_buckets.count();
            let at = header + 2 * (inputs * shape.hidden + shape.hidden) + 2 * 5;
            for value in [128i16, -128, 1000, i16::MIN] {
                let mut bad = bytes.clone();
                bad[at..at + 2].copy_from_slice(&value.to_le_bytes());
                let sum = file::checksum(&bad[file::HEADER_SIZE..]);
                bad[40..48].copy_from_slice(&sum.to_le_bytes());
                assert_eq!(
                    refuse(&bad),
                    NetworkError::OutputWeightOutOfRange { index: 5, value }
                );
                assert!(refuse(&bad).to_string().contains("beyond +-127"));
            }
            // The same weights are fine for the clipped ReLU.
            let mut crelu = with_header_field(&net, 20, 0);
            crelu[at..at + 2].copy_from_slice(&1000i16.to_le_bytes());
            let sum = file::checksum(&crelu[file::HEADER_SIZE..]);
            crelu[40..48].copy_from_slice(&sum.to_le_bytes());
            assert_eq!(
                Network::from_bytes(&crelu).unwrap().activation(),
                Activation::ClippedRelu
            );
        }
    }
}

#[test]
fn networks_of_every_width_survive_a_round_trip_and_read_back_as_the_trainers_floats() {
    let positions = evaluated_positions(5);
    assert!(positions.len() > 400, "{}", positions.len());
    for hidden in [32, 128, 160, 256, 384, 1024] {
        let shape = Shape {
            hidden,
            output_buckets: 8,
            activation: Activation::SquaredClippedRelu,
            input_transform: InputTransform::Plain,
            king_buckets: KingBuckets::NONE,
            factorised: false,
        };
        let mut float = FloatNetwork::random(shape, &mut StdRng::seed_from_u64(hidden as u64));
        for w in &mut float.params {
            *w *= 4.0;
        }
        float.clip();
        let net = float.quantise().unwrap();
        assert_eq!(net.hidden(), hidden);
        let bytes = net.to_bytes();
        assert_eq!(
            u32::from_le_bytes(bytes[16..20].try_into().unwrap()),
            hidden as u32
        );
        assert_eq!(
            bytes.len(),
            file::HEADER_SIZE + file::payload_size(1, hidden, 8)
        );
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back, net);
        assert_eq!(back.to_bytes(), bytes);
        // The trainer reads it back exactly, and the engine's integers are its floats but
        // for truncation.
        let exact = FloatNetwork::dequantise(&net);
        assert_eq!(exact.shape, shape);
        assert_eq!(exact.quantise().unwrap(), net);
        assert_quantised_matches_float(&net, &exact, &positions);
        let spread: f64 = positions
            .iter()
            .map(|pos| f64::from(net.evaluate(pos).abs()))
            .sum::<f64>()
            / positions.len() as f64;
        assert!(spread > 50.0, "{hidden}: a network that says nothing");
        // A header that claims a neighbouring width: the file's size refuses it.
        for other in [hidden - 32, hidden + 32] {
            if !ironwood::nnue::hidden_width_allowed(other) {
                continue;
            }
            assert_eq!(
                Network::from_bytes(&with_header_field(&net, 16, other as u32)).unwrap_err(),
                NetworkError::WrongSize {
                    size: bytes.len(),
                    expected: file::HEADER_SIZE + file::payload_size(1, other, 8),
                    inputs: 768,
                    hidden: other as u32,
                    buckets: 8
                }
            );
        }
        assert!(matches!(
            Network::from_bytes(&with_header_field(&net, 16, hidden as u32 + 1)).unwrap_err(),
            NetworkError::BadLayout { .. }
        ));
    }
    // The trainer fits any width, but writes only those the engine runs.
    let odd = FloatNetwork::random(
        Shape {
            hidden: 100,
            ..Shape::ENGINE_V1
        },
        &mut StdRng::seed_from_u64(1),
    );
    assert_eq!(
        odd.quantise().unwrap_err(),
        NetworkError::BadLayout {
            inputs: 768,
            hidden: 100
        }
    );
}

#[test]
fn the_output_bucket_is_the_piece_count_in_fours() {
    use ironwood::nnue::output_bucket;
    assert_eq!(output_bucket(32, 8), 7);
    assert_eq!(output_bucket(30, 8), 7);
    assert_eq!(output_bucket(29, 8), 6);
    assert_eq!(output_bucket(6, 8), 1);
    assert_eq!(output_bucket(5, 8), 0);
    assert_eq!(output_bucket(2, 8), 0);
    // Positions set up with more pieces than a game has stay in the last bucket.
    assert_eq!(output_bucket(40, 8), 7);
    for pieces in 0..=64 {
        assert_eq!(output_bucket(pieces, 1), 0);
        assert!(output_bucket(pieces, 8) < 8);
    }
    let start = Position::from_fen(ironwood::board::fen::START_FEN).unwrap();
    let net = loud_network(
        &mut StdRng::seed_from_u64(1),
        DEFAULT_HIDDEN,
        8,
        Activation::SquaredClippedRelu,
        InputTransform::Plain,
        KingBuckets::NONE,
    );
    assert_eq!(net.output_bucket_of(&start), 7);
    let gen0 = Network::from_bytes(GEN0_FILE).unwrap();
    assert_eq!(gen0.output_bucket_of(&start), 0);
}
