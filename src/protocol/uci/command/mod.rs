//! Parser for the lines a UCI GUI sends: one input line becomes one [`Command`] or a
//! [`ParseError`] whose `reply()` is the `info string ...` line to send back. Move and FEN
//! legality are checked by the session; here only their shape is.

use nom::combinator::all_consuming;

use crate::protocol::text::{Dialect, WordError, Words, coordinate_move};
pub use crate::protocol::text::{ParseError, ParseErrorKind};

/// Where `position` starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartPosition {
    StartPos,
    /// The FEN fields as sent (joined by single spaces), not validated here.
    Fen(String),
}

/// The parameters of `go`; absent ones are `None`/`false`/empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoParameters {
    /// Clocks in milliseconds; a GUI may send a negative value after a flag fall.
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    /// Root moves to restrict the search to, as sent (coordinate shape checked).
    pub searchmoves: Vec<String>,
}

/// One command from the GUI (UCI, April 2006 text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    /// `setoption name NAME [value VALUE]`: both may contain spaces; `value` is `None` for
    /// buttons, `Some("")` for `value` followed by nothing.
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// `register ...`: nothing to register; answered politely by ignoring it.
    Register,
    UciNewGame,
    Position {
        start: StartPosition,
        /// The moves after `moves`, as sent (coordinate shape checked).
        moves: Vec<String>,
    },
    Go(GoParameters),
    Stop,
    PonderHit,
    Quit,
}

/// Parses one line from the GUI. Blank lines give `Ok(None)`.
///
/// As the protocol asks, unknown words before the command word are skipped (`joho debug on`
/// is `debug on`), and so are unknown tokens among `go`'s parameters; both are logged at
/// debug level. Words are case-sensitive, except option names (the session's business).
pub fn parse_command(line: &str) -> Result<Option<Command>, ParseError> {
    let line = line.trim();
    let mut tokens = Words::new(line);
    let Some(first) = tokens.peek() else {
        return Ok(None);
    };
    let mut skipped = Vec::new();
    while let Some(word) = tokens.next() {
        let Some(parsed) = parse_known_command(word, &mut tokens) else {
            skipped.push(word);
            continue;
        };
        if !skipped.is_empty() {
            log::debug!("uci: skipped unknown words before `{word}`: {skipped:?}");
        }
        return parsed
            .map(Some)
            .map_err(|error| ParseError::in_line(Dialect::Uci, error, line));
    }
    Err(ParseError::new(
        Dialect::Uci,
        ParseErrorKind::UnknownCommand,
        first,
    ))
}

/// Dispatches on the command word; `None` if the word is not a command.
fn parse_known_command<'a>(
    word: &str,
    tokens: &mut Words<'a>,
) -> Option<Result<Command, WordError<'a>>> {
    let parsed = match word {
        "uci" => Ok(Command::Uci),
        "debug" => parse_debug(tokens),
        "isready" => Ok(Command::IsReady),
        "setoption" => parse_setoption(tokens),
        "register" => {
            tokens.take_rest();
            Ok(Command::Register)
        }
        "ucinewgame" => Ok(Command::UciNewGame),
        "position" => parse_position(tokens),
        "go" => parse_go(tokens).map(Command::Go),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "quit" => Ok(Command::Quit),
        _ => return None,
    };
    if parsed.is_ok() {
        let unused = tokens.take_rest();
        if !unused.is_empty() {
            log::debug!("uci: ignoring extra tokens of `{word}`: {unused:?}");
        }
    }
    Some(parsed)
}

fn parse_debug<'a>(tokens: &mut Words<'a>) -> Result<Command, WordError<'a>> {
    match tokens.next() {
        Some("on") => Ok(Command::Debug(true)),
        Some("off") => Ok(Command::Debug(false)),
        Some(other) => Err(WordError::word(ParseErrorKind::InvalidDebugSwitch, other)),
        None => Err(WordError::line(ParseErrorKind::MissingArgument)),
    }
}

/// `setoption name N [value V]`: the name is every token up to `value` (joined by single
/// spaces), the value everything after it.
fn parse_setoption<'a>(tokens: &mut Words<'a>) -> Result<Command, WordError<'a>> {
    if tokens.next() != Some("name") {
        return Err(WordError::line(ParseErrorKind::InvalidSetOption));
    }
    let mut name = Vec::new();
    let mut value = None;
    while let Some(token) = tokens.next() {
        if token == "value" {
            value = Some(tokens.take_rest().to_string());
            break;
        }
        name.push(token);
    }
    if name.is_empty() {
        return Err(WordError::line(ParseErrorKind::InvalidSetOption));
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

/// `position startpos|fen FEN [moves M...]`.
fn parse_position<'a>(tokens: &mut Words<'a>) -> Result<Command, WordError<'a>> {
    let start = match tokens.next() {
        Some("startpos") => StartPosition::StartPos,
        Some("fen") => {
            let mut fields = Vec::new();
            while let Some(token) = tokens.peek() {
                if token == "moves" {
                    break;
                }
                fields.push(token);
                tokens.next();
            }
            if fields.is_empty() {
                return Err(WordError::line(ParseErrorKind::MissingArgument));
            }
            StartPosition::Fen(fields.join(" "))
        }
        Some(_) => return Err(WordError::line(ParseErrorKind::InvalidPosition)),
        None => return Err(WordError::line(ParseErrorKind::MissingArgument)),
    };
    let moves = match tokens.next() {
        None => Vec::new(),
        Some("moves") => {
            let mut moves = Vec::new();
            for token in tokens.by_ref() {
                if !is_move(token) {
                    return Err(WordError::word(ParseErrorKind::InvalidMove, token));
                }
                moves.push(token.to_string());
            }
            moves
        }
        Some(_) => return Err(WordError::line(ParseErrorKind::InvalidPosition)),
    };
    Ok(Command::Position { start, moves })
}

fn parse_go<'a>(tokens: &mut Words<'a>) -> Result<GoParameters, WordError<'a>> {
    let mut go = GoParameters::default();
    let mut ignored = Vec::new();
    while let Some(token) = tokens.next() {
        match token {
            "wtime" => go.wtime = Some(tokens.integer()?),
            "btime" => go.btime = Some(tokens.integer()?),
            "winc" => go.winc = Some(tokens.integer()?),
            "binc" => go.binc = Some(tokens.integer()?),
            "movestogo" => go.movestogo = Some(tokens.integer()?),
            "depth" => go.depth = Some(tokens.integer()?),
            "nodes" => go.nodes = Some(tokens.integer()?),
            "mate" => go.mate = Some(tokens.integer()?),
            "movetime" => go.movetime = Some(tokens.integer()?),
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while let Some(next) = tokens.peek() {
                    if !is_move(next) {
                        break;
                    }
                    go.searchmoves.push(next.to_string());
                    tokens.next();
                }
            }
            other => ignored.push(other),
        }
    }
    if !ignored.is_empty() {
        log::debug!("uci: ignoring unknown go tokens {ignored:?}");
    }
    Ok(go)
}

/// A move in a move list: a coordinate move, or the null move `0000` (which the session
/// refuses as illegal).
fn is_move(token: &str) -> bool {
    token == "0000" || all_consuming(coordinate_move)(token).is_ok()
}

#[cfg(test)]
mod tests;
