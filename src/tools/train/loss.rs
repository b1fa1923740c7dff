//! `ironwood loss`: how well evaluations predict games none of them trained on. Each one
//! (the hand-written evaluation, the embedded network, network files) is scored by the
//! trainer's loss on the positions the filter keeps, through the engine's own integer
//! evaluation: two networks compared directly, without training either.

use super::{K, Sample, sigmoid};
use crate::nnue::{Evaluation, Network};
use crate::tools::corpus::filter::{Filter, TrainingPosition};
use crate::tools::corpus::manifest::read_games;
use crate::tools::parallel;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// Positions summed as one part: the parts are added in order, so the losses do not depend
/// on the number of threads.
const PART: usize = 4096;
/// Positions read before they are scored (bounds the memory whatever the data).
const BATCH: usize = 64 * PART;

#[derive(Clone, Debug, PartialEq)]
pub struct LossConfig {
    /// Corpus shards or folders.
    pub data: Vec<PathBuf>,
    pub filter: Filter,
    /// Network files scored beside the hand-written evaluation and the embedded network.
    pub networks: Vec<PathBuf>,
    /// The result's share of the target (the rest: the search score).
    pub lambda: f64,
    pub threads: usize,
}

/// One evaluation's name and its mean loss.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored {
    pub name: String,
    pub loss: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LossReport {
    pub games: usize,
    pub positions: usize,
    pub lambda: f64,
    pub scored: Vec<Scored>,
}

impl fmt::Display for LossReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} positions of {} games, lambda {}",
            self.positions, self.games, self.lambda
        )?;
        let width = self.scored.iter().map(|s| s.name.len()).max().unwrap_or(0);
        for s in &self.scored {
            writeln!(f, "{:<width$}  {:.7}", s.name, s.loss)?;
        }
        Ok(())
    }
}

/// Scores the hand-written evaluation, the embedded network and `config.networks` on every
/// position of `config.data` that `config.filter` keeps.
pub fn evaluation_losses(config: &LossConfig) -> Result<LossReport, String> {
    let mut names = vec!["hand-written".to_string()];
    let mut evaluators = vec![Evaluation::Classical];
    let embedded = Network::embedded();
    names.push(format!("embedded (nnue {:016x})", embedded.checksum()));
    evaluators.push(Evaluation::Nnue(embedded));
    for path in &config.networks {
        let net = Network::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
        names.push(format!("{} (nnue {:016x})", path.display(), net.checksum()));
        evaluators.push(Evaluation::Nnue(Arc::new(net)));
    }
    let lambda = config.lambda as f32;
    let threads = config.threads;
    let mut sums = vec![0.0f64; evaluators.len()];
    let (mut games, mut positions) = (0, 0);
    let mut pending: Vec<TrainingPosition> = Vec::with_capacity(BATCH);
    let score = |pending: &mut Vec<TrainingPosition>, sums: &mut [f64]| {
        for part in part_sums(&evaluators, pending, lambda, threads) {
            sums.iter_mut().zip(part).for_each(|(s, p)| *s += p);
        }
        pending.clear();
    };
    read_games(&config.data, &config.filter, |kept| {
        games += 1;
        positions += kept.len();
        pending.extend(kept);
        if pending.len() >= BATCH {
            score(&mut pending, &mut sums);
        }
    })?;
    score(&mut pending, &mut sums);
    if positions == 0 {
        return Err("no positions to score (the filter kept none)".to_string());
    }
    Ok(LossReport {
        games,
        positions,
        lambda: config.lambda,
        scored: names
            .into_iter()
            .zip(sums)
            .map(|(name, sum)| Scored {
                name,
                loss: sum / positions as f64,
            })
            .collect(),
    })
}

/// Each part's summed loss per evaluator, in part order, the parts shared over `threads`.
fn part_sums(
    evaluators: &[Evaluation],
    positions: &[TrainingPosition],
    lambda: f32,
    threads: usize,
) -> Vec<Vec<f64>> {
    let parts: Vec<&[TrainingPosition]> = positions.chunks(PART).collect();
    parallel::map(&parts, threads, |part| {
        part_losses(evaluators, part, lambda)
    })
}

/// Each evaluator's summed loss over `positions`, each position labelled once for all.
fn part_losses(evaluators: &[Evaluation], positions: &[TrainingPosition], lambda: f32) -> Vec<f64> {
    let mut sums = vec![0.0f64; evaluators.len()];
    for r in positions {
        let sample = Sample::labelled(r);
        for (sum, evaluator) in sums.iter_mut().zip(evaluators) {
            let predicted = sigmoid(K * evaluator.evaluate(&r.position) as f32);
            *sum += sample.squared_error(predicted, lambda);
        }
    }
    sums
}
