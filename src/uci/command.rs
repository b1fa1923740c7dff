//! Parser for the lines a UCI GUI sends: one input line becomes one [`Command`] or a
//! [`ParseError`] whose `reply()` is the `info string ...` line to send back. Move and FEN
//! legality are checked by the session; here only their shape is.

use std::fmt;
use std::num::{IntErrorKind, ParseIntError};
use std::str::FromStr;

use nom::{
    IResult,
    bytes::complete::{tag, take_till1, take_while},
    character::complete::{digit1, one_of},
    combinator::{all_consuming, opt, recognize},
    sequence::{pair, terminated, tuple},
};

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

/// What was wrong with a line; each kind has a fixed reason text for the reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// No word of the line is a UCI command.
    UnknownCommand,
    /// A keyword without the value it needs (`go depth`, `debug`, `position`).
    MissingArgument,
    /// Not an integer, or negative where only non-negative values make sense.
    InvalidNumber,
    /// An integer that does not fit its type.
    NumberOutOfRange,
    /// `debug` followed by something other than `on` or `off`.
    InvalidDebugSwitch,
    /// `setoption` without `name NAME`.
    InvalidOption,
    /// `position` not followed by `startpos` or `fen FEN`, or junk before `moves`.
    InvalidPosition,
    /// A token in a move list that is not a coordinate move.
    InvalidMove,
}

impl ParseErrorKind {
    /// The text inside the parentheses of the reply.
    pub fn reason(self) -> &'static str {
        match self {
            ParseErrorKind::UnknownCommand => "unknown command",
            ParseErrorKind::MissingArgument => "missing argument",
            ParseErrorKind::InvalidNumber => "invalid number",
            ParseErrorKind::NumberOutOfRange => "number out of range",
            ParseErrorKind::InvalidDebugSwitch => "debug wants on or off",
            ParseErrorKind::InvalidOption => "invalid setoption",
            ParseErrorKind::InvalidPosition => "invalid position command",
            ParseErrorKind::InvalidMove => "invalid move",
        }
    }
}

/// A line that could not be turned into a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    kind: ParseErrorKind,
    /// The offending token where there is one (unknown word, bad number or move), otherwise
    /// the whole trimmed line.
    subject: String,
}

impl ParseError {
    fn new(kind: ParseErrorKind, subject: &str) -> Self {
        ParseError {
            kind,
            subject: subject.to_string(),
        }
    }

    pub fn kind(&self) -> ParseErrorKind {
        self.kind
    }

    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// The line to send back, e.g. `info string error (unknown command): foo`. Control
    /// characters are replaced so the reply is always exactly one line.
    pub fn reply(&self) -> String {
        format!(
            "info string error ({}): {}",
            self.kind.reason(),
            crate::output::printable(&self.subject)
        )
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reply())
    }
}

impl std::error::Error for ParseError {}

/// An error about one token (the subject is that token).
struct TokenError {
    kind: ParseErrorKind,
    token: Option<String>,
}

impl TokenError {
    fn line(kind: ParseErrorKind) -> TokenError {
        TokenError { kind, token: None }
    }

    fn token(kind: ParseErrorKind, token: &str) -> TokenError {
        TokenError {
            kind,
            token: Some(token.to_string()),
        }
    }
}

/// Parses one line from the GUI. Blank lines give `Ok(None)`.
///
/// As the protocol asks, unknown words before the command word are skipped (`joho debug on`
/// is `debug on`), and so are unknown tokens among `go`'s parameters; both are logged at
/// debug level. Words are case-sensitive, except option names (the session's business).
pub fn parse_command(line: &str) -> Result<Option<Command>, ParseError> {
    let line = line.trim();
    let mut tokens = Tokens::new(line);
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
            .map_err(|error| ParseError::new(error.kind, error.token.as_deref().unwrap_or(line)));
    }
    Err(ParseError::new(ParseErrorKind::UnknownCommand, first))
}

/// Dispatches on the command word; `None` if the word is not a command.
fn parse_known_command(word: &str, tokens: &mut Tokens<'_>) -> Option<Result<Command, TokenError>> {
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

fn parse_debug(tokens: &mut Tokens<'_>) -> Result<Command, TokenError> {
    match tokens.next() {
        Some("on") => Ok(Command::Debug(true)),
        Some("off") => Ok(Command::Debug(false)),
        Some(other) => Err(TokenError::token(ParseErrorKind::InvalidDebugSwitch, other)),
        None => Err(TokenError::line(ParseErrorKind::MissingArgument)),
    }
}

/// `setoption name N [value V]`: the name is every token up to `value` (joined by single
/// spaces), the value everything after it.
fn parse_setoption(tokens: &mut Tokens<'_>) -> Result<Command, TokenError> {
    if tokens.next() != Some("name") {
        return Err(TokenError::line(ParseErrorKind::InvalidOption));
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
        return Err(TokenError::line(ParseErrorKind::InvalidOption));
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

/// `position startpos|fen FEN [moves M...]`.
fn parse_position(tokens: &mut Tokens<'_>) -> Result<Command, TokenError> {
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
                return Err(TokenError::line(ParseErrorKind::MissingArgument));
            }
            StartPosition::Fen(fields.join(" "))
        }
        Some(_) => return Err(TokenError::line(ParseErrorKind::InvalidPosition)),
        None => return Err(TokenError::line(ParseErrorKind::MissingArgument)),
    };
    let moves = match tokens.next() {
        None => Vec::new(),
        Some("moves") => {
            let mut moves = Vec::new();
            for token in tokens.by_ref() {
                if !is_coordinate_move(token) {
                    return Err(TokenError::token(ParseErrorKind::InvalidMove, token));
                }
                moves.push(token.to_string());
            }
            moves
        }
        Some(_) => return Err(TokenError::line(ParseErrorKind::InvalidPosition)),
    };
    Ok(Command::Position { start, moves })
}

fn parse_go(tokens: &mut Tokens<'_>) -> Result<GoParameters, TokenError> {
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
                    if !is_coordinate_move(next) {
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

/// The words of the line, consumed left to right.
struct Tokens<'a> {
    remaining: &'a str,
}

impl<'a> Tokens<'a> {
    fn new(line: &'a str) -> Self {
        Tokens { remaining: line }
    }

    fn peek(&self) -> Option<&'a str> {
        word_and_separator(self.remaining).ok().map(|(_, w)| w)
    }

    /// Everything left (possibly empty); the line was trimmed, so no trailing whitespace.
    fn take_rest(&mut self) -> &'a str {
        std::mem::take(&mut self.remaining)
    }

    /// The next token as an integer of type `T`; overflow is reported apart from junk.
    fn integer<T>(&mut self) -> Result<T, TokenError>
    where
        T: FromStr<Err = ParseIntError>,
    {
        let token = self
            .next()
            .ok_or(TokenError::line(ParseErrorKind::MissingArgument))?;
        if all_consuming(integer_text)(token).is_err() {
            return Err(TokenError::token(ParseErrorKind::InvalidNumber, token));
        }
        token.parse::<T>().map_err(|error| {
            let kind = match error.kind() {
                IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
                    ParseErrorKind::NumberOutOfRange
                }
                _ => ParseErrorKind::InvalidNumber,
            };
            TokenError::token(kind, token)
        })
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let (remaining, token) = word_and_separator(self.remaining).ok()?;
        self.remaining = remaining;
        Some(token)
    }
}

/// A word and the whitespace after it, so the remainder starts at the next word.
fn word_and_separator(input: &str) -> IResult<&str, &str> {
    terminated(
        take_till1(char::is_whitespace),
        take_while(char::is_whitespace),
    )(input)
}

/// An optionally signed run of ASCII digits (conversion then reports overflow).
fn integer_text(input: &str) -> IResult<&str, &str> {
    recognize(pair(opt(one_of("+-")), digit1))(input)
}

/// `e2e4`, `e7e8q`, and the null move `0000` (which the session refuses as illegal).
fn coordinate_move(input: &str) -> IResult<&str, &str> {
    let square = |i| recognize(pair(one_of("abcdefgh"), one_of("12345678")))(i);
    nom::branch::alt((
        recognize(tuple((square, square, opt(one_of("qrbnQRBN"))))),
        tag("0000"),
    ))(input)
}

fn is_coordinate_move(token: &str) -> bool {
    all_consuming(coordinate_move)(token).is_ok()
}

#[cfg(test)]
mod tests;
