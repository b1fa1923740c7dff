//! `ironwood epd FILE [--ms MS]`: a test suite in EPD. Each line is a position (the four FEN
//! fields) and `;`-separated opcodes; `bm` (best moves, SAN), `am` (moves to avoid) and
//! `dm N` (mate in N moves) are checked, `id` names the line. Every position is searched
//! for MS milliseconds with a cleared table; one line per position, then `solved S of T`.

use std::fmt;

use crate::board::{FenError, Move, Position, parse_move, to_san};
use crate::search::{
    SearchControl, SearchLimits, Searcher, Silent, TimeBudget, TimeLimit, mate_moves,
};

/// One EPD line, parsed.
#[derive(Clone, Debug)]
pub struct EpdCase {
    pub position: Position,
    pub id: Option<String>,
    pub best: Vec<Move>,
    pub avoid: Vec<Move>,
    pub mate_in: Option<i32>,
    /// Moves in `bm`/`am` that are not legal here (reported, never matched).
    pub bad_moves: Vec<String>,
}

impl EpdCase {
    /// Whether the search's answer meets every opcode given (a line without any is never
    /// solved).
    pub fn solved(&self, best_move: Move, score: i32) -> bool {
        if self.best.is_empty() && self.avoid.is_empty() && self.mate_in.is_none() {
            return false;
        }
        let best_ok = self.best.is_empty() || self.best.contains(&best_move);
        let avoid_ok = !self.avoid.contains(&best_move);
        let mate_ok = self
            .mate_in
            .is_none_or(|n| mate_moves(score) == Some(n) && !best_move.is_null());
        best_ok && avoid_ok && mate_ok
    }
}

/// Splits at `;` outside double quotes.
fn operations(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

/// Why an EPD line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EpdError {
    TooFewFields,
    Fen { fen: String, error: FenError },
    BadMateCount(String),
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpdError::TooFewFields => write!(f, "fewer than four FEN fields"),
            EpdError::Fen { fen, error } => write!(f, "bad FEN ({error}): {fen}"),
            EpdError::BadMateCount(operand) => write!(f, "bad dm operand `{operand}`"),
        }
    }
}

impl std::error::Error for EpdError {}

/// Parses one line; `Ok(None)` for blank lines and `#` comments.
pub fn parse_line(line: &str) -> Result<Option<EpdCase>, EpdError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = line.splitn(5, char::is_whitespace).collect();
    if fields.len() < 4 {
        return Err(EpdError::TooFewFields);
    }
    let fen = fields[..4].join(" ");
    let position = match Position::from_fen(&fen) {
        Ok(position) => position,
        Err(error) => return Err(EpdError::Fen { fen, error }),
    };
    let mut case = EpdCase {
        position,
        id: None,
        best: Vec::new(),
        avoid: Vec::new(),
        mate_in: None,
        bad_moves: Vec::new(),
    };
    for op in operations(fields.get(4).copied().unwrap_or("")) {
        let (code, operands) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
        let operands = operands.trim();
        match code {
            "bm" | "am" => {
                for text in operands.split_whitespace() {
                    match parse_move(&case.position, text) {
                        Ok(m) if code == "bm" => case.best.push(m),
                        Ok(m) => case.avoid.push(m),
                        Err(_) => case.bad_moves.push(text.to_string()),
                    }
                }
            }
            "dm" => {
                let n = operands
                    .parse::<i32>()
                    .map_err(|_| EpdError::BadMateCount(operands.to_string()))?;
                case.mate_in = Some(n);
            }
            "id" => case.id = Some(operands.trim_matches('"').to_string()),
            _ => {}
        }
    }
    Ok(Some(case))
}

/// Runs the suite; returns (solved, total).
pub fn solve_suite(
    path: &str,
    ms: u64,
    hash_mb: usize,
    threads: usize,
) -> Result<(usize, usize), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut searcher = Searcher::new(hash_mb, threads);
    let (mut solved, mut total) = (0, 0);
    for (number, line) in text.lines().enumerate() {
        let case = match parse_line(line) {
            Ok(Some(case)) => case,
            Ok(None) => continue,
            Err(e) => {
                total += 1;
                println!("line {}: FAIL cannot parse: {e}", number + 1);
                continue;
            }
        };
        total += 1;
        searcher.clear();
        let budget = TimeBudget {
            // No new iteration is refused early: use the whole time, stop at `ms`.
            soft_ms: Some(ms.saturating_mul(2)),
            hard_ms: ms,
        };
        let limits = SearchLimits {
            time: Some(TimeLimit::Budget(budget)),
            ..SearchLimits::default()
        };
        let control = SearchControl::new(limits, &searcher.features.params);
        let outcome = searcher.search(&case.position, &[], &control, &mut Silent);
        let ok = case.solved(outcome.best_move, outcome.score);
        if ok {
            solved += 1;
        }
        let best_text = if outcome.best_move.is_null() {
            "(none)".to_string()
        } else {
            to_san(&case.position, outcome.best_move)
        };
        let mut expected = Vec::new();
        let sans = |moves: &[Move]| {
            moves
                .iter()
                .map(|&m| to_san(&case.position, m))
                .collect::<Vec<_>>()
                .join(" ")
        };
        if !case.best.is_empty() {
            expected.push(format!("bm {}", sans(&case.best)));
        }
        if !case.avoid.is_empty() {
            expected.push(format!("am {}", sans(&case.avoid)));
        }
        if let Some(n) = case.mate_in {
            expected.push(format!("dm {n}"));
        }
        if !case.bad_moves.is_empty() {
            expected.push(format!("illegal in line: {}", case.bad_moves.join(" ")));
        }
        let score = match mate_moves(outcome.score) {
            Some(n) => format!("mate {n}"),
            None => format!("cp {}", outcome.score),
        };
        println!(
            "{:3} {} {}: best {best_text} score {score} depth {} nodes {} (expected {})",
            number + 1,
            case.id.as_deref().unwrap_or("-"),
            if ok { "ok" } else { "FAIL" },
            outcome.depth,
            outcome.nodes,
            expected.join("; ")
        );
    }
    println!("solved {solved} of {total}");
    Ok((solved, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_opcodes() {
        let case = parse_line(
            "5B1k/8/p1p2pQp/P1Np4/3PP1p1/6P1/8/7K w - - bm Qg7#; dm 1; id \"a;b\"; c0 \"x\"",
        )
        .unwrap()
        .unwrap();
        assert_eq!(case.best.len(), 1);
        assert_eq!(case.best[0].to_string(), "g6g7");
        assert_eq!(case.mate_in, Some(1));
        assert_eq!(case.id.as_deref(), Some("a;b"));
        let case = parse_line("1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+ Zz9;")
            .unwrap()
            .unwrap();
        assert_eq!(case.bad_moves, ["Zz9"]);
        assert!(parse_line("# comment").unwrap().is_none());
        assert!(parse_line("8/8 w").is_err());
        assert!(parse_line("8/8/8/8/8/8/8/8 w - - bm e4").is_err());
    }

    #[test]
    fn solved_rules() {
        let case = parse_line("k7/8/1K6/8/8/8/8/7R w - - bm Rh8#; am Rh7; dm 1")
            .unwrap()
            .unwrap();
        let mate = parse_move(&case.position, "h1h8").unwrap();
        let other = parse_move(&case.position, "h1h7").unwrap();
        assert!(case.solved(mate, crate::search::MATE - 1));
        assert!(!case.solved(mate, 300));
        assert!(!case.solved(other, crate::search::MATE - 1));
    }
}
