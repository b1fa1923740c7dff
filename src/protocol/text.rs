//! The text both protocols' parsers share: the words of a line, integers, the shape of a
//! coordinate move, and the typed [`ParseError`] whose reply each protocol words its own way
//! ([`Dialect`]). What a command means stays in `uci::command` and `xboard::command`.

use std::fmt;
use std::num::{IntErrorKind, ParseIntError};
use std::str::FromStr;

use nom::{
    IResult, Parser,
    bytes::complete::{take_till1, take_while},
    character::complete::{digit1, one_of},
    combinator::{all_consuming, opt, recognize},
    sequence::{pair, terminated, tuple},
};

use crate::protocol::output::printable;

/// Which protocol an error reply is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    XBoard,
    Uci,
}

impl Dialect {
    /// The error line: `Error (REASON): SUBJECT` for XBoard, `info string error (REASON):
    /// SUBJECT` for UCI, which has no error message of its own. Control characters in the
    /// echoed subject are replaced: a stray `\r` or `\n` would reach the GUI as a second,
    /// bogus line.
    pub fn error_reply(self, reason: &str, subject: &str) -> String {
        let subject = printable(subject);
        match self {
            Dialect::XBoard => format!("Error ({reason}): {subject}"),
            Dialect::Uci => format!("info string error ({reason}): {subject}"),
        }
    }
}

/// XBoard's answer to a move it will not play: `Illegal move: MOVE`, or with a reason
/// `Illegal move (REASON): MOVE`. (UCI has no such line; its sessions answer with
/// [`Dialect::error_reply`].)
pub fn illegal_move_reply(reason: Option<&str>, text: &str) -> String {
    match reason {
        None => format!("Illegal move: {}", printable(text)),
        Some(reason) => format!("Illegal move ({reason}): {}", printable(text)),
    }
}

/// What was wrong with a line; each kind has a fixed reason text for the reply. The first
/// four are both protocols'; the others belong to the protocol named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// No word of the line is a command.
    UnknownCommand,
    /// A command or keyword without the value it needs (`ping`, `go depth`).
    MissingArgument,
    /// Not an integer, or negative where only non-negative values make sense.
    InvalidNumber,
    /// An integer that does not fit its type or its bounds.
    NumberOutOfRange,
    /// XBoard: a bad `level`.
    InvalidLevel,
    /// XBoard: a bad `st`, `time` or `otim` value.
    InvalidTime,
    /// XBoard: `result` with something other than `1-0`, `0-1`, `1/2-1/2`, `*`.
    InvalidResult,
    /// XBoard: `option` without a name.
    InvalidOption,
    /// XBoard: a line in `edit` mode that is not `#`, `c`, `.` or a placement.
    BadEditCommand,
    /// UCI: `debug` followed by something other than `on` or `off`.
    InvalidDebugSwitch,
    /// UCI: `setoption` without `name NAME`.
    InvalidSetOption,
    /// UCI: `position` not followed by `startpos` or `fen FEN`, or junk before `moves`.
    InvalidPosition,
    /// UCI: a token in a move list that is not a coordinate move.
    InvalidMove,
}

impl ParseErrorKind {
    /// The text between the parentheses of the reply.
    pub fn reason(self) -> &'static str {
        match self {
            ParseErrorKind::UnknownCommand => "unknown command",
            ParseErrorKind::MissingArgument => "missing argument",
            ParseErrorKind::InvalidNumber => "invalid number",
            ParseErrorKind::NumberOutOfRange => "number out of range",
            ParseErrorKind::InvalidLevel => "invalid level",
            ParseErrorKind::InvalidTime => "invalid time",
            ParseErrorKind::InvalidResult => "invalid result",
            ParseErrorKind::InvalidOption => "invalid option",
            ParseErrorKind::BadEditCommand => "bad edit command",
            ParseErrorKind::InvalidDebugSwitch => "debug wants on or off",
            ParseErrorKind::InvalidSetOption => "invalid setoption",
            ParseErrorKind::InvalidPosition => "invalid position command",
            ParseErrorKind::InvalidMove => "invalid move",
        }
    }
}

/// A line that could not be turned into a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    dialect: Dialect,
    kind: ParseErrorKind,
    /// The text the reply echoes (see [`ParseError::in_line`]).
    subject: String,
}

impl ParseError {
    pub fn new(dialect: Dialect, kind: ParseErrorKind, subject: &str) -> Self {
        ParseError {
            dialect,
            kind,
            subject: subject.to_string(),
        }
    }

    /// An error about one word of `line`. UCI echoes the offending word where there is
    /// one, XBoard always the whole line, so that a GUI's log shows which command failed.
    pub fn in_line(dialect: Dialect, error: WordError<'_>, line: &str) -> Self {
        let subject = match dialect {
            Dialect::Uci => error.word.unwrap_or(line),
            Dialect::XBoard => line,
        };
        ParseError::new(dialect, error.kind, subject)
    }

    pub fn kind(&self) -> ParseErrorKind {
        self.kind
    }

    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// The line to send back, always exactly one line.
    pub fn reply(&self) -> String {
        self.dialect.error_reply(self.kind.reason(), &self.subject)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reply())
    }
}

impl std::error::Error for ParseError {}

/// What was wrong, and with which word (`None` when the word was missing or the fault is
/// the command's as a whole).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WordError<'a> {
    pub kind: ParseErrorKind,
    pub word: Option<&'a str>,
}

impl<'a> WordError<'a> {
    pub fn line(kind: ParseErrorKind) -> Self {
        WordError { kind, word: None }
    }

    pub fn word(kind: ParseErrorKind, word: &'a str) -> Self {
        WordError {
            kind,
            word: Some(word),
        }
    }
}

/// The words of a trimmed line, consumed left to right.
pub struct Words<'a> {
    remaining: &'a str,
}

impl<'a> Words<'a> {
    pub fn new(text: &'a str) -> Self {
        Words { remaining: text }
    }

    pub fn peek(&self) -> Option<&'a str> {
        word_and_separator(self.remaining).ok().map(|(_, w)| w)
    }

    /// The next word, `MissingArgument` if there is none.
    pub fn required(&mut self) -> Result<&'a str, WordError<'a>> {
        self.next()
            .ok_or(WordError::line(ParseErrorKind::MissingArgument))
    }

    /// The next word, which `parser` must consume completely; `invalid` otherwise.
    pub fn parse_word<O, P>(
        &mut self,
        parser: P,
        invalid: ParseErrorKind,
    ) -> Result<O, WordError<'a>>
    where
        P: Parser<&'a str, O, nom::error::Error<&'a str>>,
    {
        let word = self.required()?;
        all_consuming(parser)(word)
            .map(|(_, output)| output)
            .map_err(|_| WordError::word(invalid, word))
    }

    /// The next word as an integer of type `T`, optionally signed; overflow is reported
    /// apart from junk.
    pub fn integer<T>(&mut self) -> Result<T, WordError<'a>>
    where
        T: FromStr<Err = ParseIntError>,
    {
        let text = self.parse_word(integer_text, ParseErrorKind::InvalidNumber)?;
        text.parse::<T>().map_err(|error| {
            let kind = match error.kind() {
                IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
                    ParseErrorKind::NumberOutOfRange
                }
                _ => ParseErrorKind::InvalidNumber,
            };
            WordError::word(kind, text)
        })
    }

    /// Everything left (possibly empty); the line was trimmed, so no trailing whitespace.
    pub fn take_rest(&mut self) -> &'a str {
        std::mem::take(&mut self.remaining)
    }

    /// Everything left, which must not be empty.
    pub fn rest_of_line(&mut self) -> Result<&'a str, WordError<'a>> {
        match self.take_rest() {
            "" => Err(WordError::line(ParseErrorKind::MissingArgument)),
            text => Ok(text),
        }
    }
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let (remaining, word) = word_and_separator(self.remaining).ok()?;
        self.remaining = remaining;
        Some(word)
    }
}

/// The first word of a trimmed line and the rest after it; `None` for an empty line.
pub fn split_first_word(line: &str) -> Option<(&str, &str)> {
    word_and_separator(line)
        .ok()
        .map(|(rest, word)| (word, rest))
}

/// A word and the whitespace after it, so the remainder starts at the next word.
fn word_and_separator(input: &str) -> IResult<&str, &str> {
    terminated(
        take_till1(char::is_whitespace),
        take_while(char::is_whitespace),
    )(input)
}

/// An optionally signed run of ASCII digits, as text (conversion then reports overflow).
fn integer_text(input: &str) -> IResult<&str, &str> {
    recognize(pair(opt(one_of("+-")), digit1))(input)
}

// ---------------------------------------------------------------------------------------------
// Moves: squares and coordinate moves, the one notation both protocols send.

pub fn file(input: &str) -> IResult<&str, char> {
    one_of("abcdefgh")(input)
}

pub fn rank(input: &str) -> IResult<&str, char> {
    one_of("12345678")(input)
}

pub fn square(input: &str) -> IResult<&str, &str> {
    recognize(pair(file, rank))(input)
}

/// A promotion piece: chess promotes to queen, rook, bishop or knight only.
pub fn promotion_piece(input: &str) -> IResult<&str, char> {
    one_of("qrbnQRBN")(input)
}

/// `e2e4`, `e7e8q`: from, to, and a promotion piece in either case.
pub fn coordinate_move(input: &str) -> IResult<&str, &str> {
    recognize(tuple((square, square, opt(promotion_piece))))(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_peek_take_and_rest() {
        let mut words = Words::new("go  depth\t5 x y");
        assert_eq!(words.peek(), Some("go"));
        assert_eq!(words.next(), Some("go"));
        assert_eq!(words.required(), Ok("depth"));
        assert_eq!(words.integer::<u32>(), Ok(5));
        assert_eq!(words.take_rest(), "x y");
        assert_eq!(words.peek(), None);
        assert_eq!(
            words.required(),
            Err(WordError::line(ParseErrorKind::MissingArgument))
        );
        assert_eq!(
            words.rest_of_line(),
            Err(WordError::line(ParseErrorKind::MissingArgument))
        );
        assert_eq!(split_first_word("sd 5 6"), Some(("sd", "5 6")));
        assert_eq!(split_first_word(""), None);
    }

    #[test]
    fn integers_tell_junk_from_overflow() {
        let integer = |text| Words::new(text).integer::<u32>();
        assert_eq!(integer("+7"), Ok(7));
        assert_eq!(
            integer("-3"),
            Err(WordError::word(ParseErrorKind::InvalidNumber, "-3"))
        );
        assert_eq!(
            integer("1.5"),
            Err(WordError::word(ParseErrorKind::InvalidNumber, "1.5"))
        );
        assert_eq!(
            integer("4294967296"),
            Err(WordError::word(
                ParseErrorKind::NumberOutOfRange,
                "4294967296"
            ))
        );
        assert_eq!(Words::new("-9").integer::<i64>(), Ok(-9));
    }

    #[test]
    fn each_protocol_words_its_replies() {
        let error = WordError::word(ParseErrorKind::InvalidNumber, "x");
        let xboard = ParseError::in_line(Dialect::XBoard, error, "sd x");
        let uci = ParseError::in_line(Dialect::Uci, error, "go depth x");
        assert_eq!(xboard.reply(), "Error (invalid number): sd x");
        assert_eq!(uci.reply(), "info string error (invalid number): x");
        assert_eq!(
            Dialect::Uci.error_reply("unknown command", "a\u{7}b\nc"),
            "info string error (unknown command): a?b c"
        );
        assert_eq!(illegal_move_reply(None, "e2e5"), "Illegal move: e2e5");
        assert_eq!(
            illegal_move_reply(Some("not your turn"), "e7e5\r"),
            "Illegal move (not your turn): e7e5 "
        );
    }

    #[test]
    fn every_error_kind_has_its_own_reason() {
        use ParseErrorKind::*;
        let kinds = [
            UnknownCommand,
            MissingArgument,
            InvalidNumber,
            NumberOutOfRange,
            InvalidLevel,
            InvalidTime,
            InvalidResult,
            InvalidOption,
            BadEditCommand,
            InvalidDebugSwitch,
            InvalidSetOption,
            InvalidPosition,
            InvalidMove,
        ];
        let reasons: std::collections::HashSet<_> = kinds.iter().map(|k| k.reason()).collect();
        assert_eq!(reasons.len(), kinds.len());
    }

    #[test]
    fn coordinate_moves() {
        let is_move = |text| all_consuming(coordinate_move)(text).is_ok();
        for text in ["e2e4", "e7e8q", "a7a8N", "h1a8"] {
            assert!(is_move(text), "{text}");
        }
        for text in ["e2e9", "i2i4", "e7e8k", "e7e8=Q", "e2", "0000", "e2e4e5"] {
            assert!(!is_move(text), "{text}");
        }
    }
}
