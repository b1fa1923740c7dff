//! Parser for the lines an XBoard/WinBoard (CECP v2) GUI sends: one input line becomes one
//! [`Command`] (or, in `edit` mode, one [`EditCommand`]) or a [`ParseError`] whose `reply()` is
//! the `Error (...): ...` line to send back. Move and FEN legality are checked by the caller.

use std::fmt;
use std::num::{IntErrorKind, ParseIntError};
use std::str::FromStr;

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_till, take_till1, take_while},
    character::complete::{char, digit0, digit1, one_of},
    combinator::{all_consuming, map, map_opt, opt, peek, recognize, rest, value},
    multi::separated_list1,
    sequence::{pair, preceded, separated_pair, terminated, tuple},
};

/// Outcome of a game as carried by `result`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*`
    Unfinished,
}

impl GameResult {
    /// The result as written on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }
}

/// Target of `exclude` / `include`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveSelection {
    /// `exclude all` / `include all`
    All,
    /// One root move, as sent (not checked for legality).
    Move(String),
}

/// One command from the GUI (CECP v2 §8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Xboard,
    Protover(u32),
    Accepted(String),
    Rejected(String),
    New,
    Variant(String),
    Quit,
    Random,
    Force,
    Go,
    PlayOther,
    White,
    Black,
    /// `level MPS BASE INC`; `moves_per_session == 0` means sudden death / incremental.
    Level {
        moves_per_session: u32,
        base_ms: u64,
        increment_ms: u64,
    },
    /// `st SECONDS`: fixed time per move.
    St {
        ms: u64,
    },
    /// `sd DEPTH`, also icsdrone's `depth DEPTH`.
    Sd(u32),
    Nps(u64),
    /// Own clock in centiseconds.
    Time(i64),
    /// Opponent's clock in centiseconds.
    Otim(i64),
    /// `usermove MOVE` or a bare move; the text as sent, legality is the caller's business.
    UserMove(String),
    /// `?`
    MoveNow,
    /// `ping TOKEN`; the token is echoed verbatim in `pong`.
    Ping(String),
    Draw,
    /// `result RES {COMMENT}`; the comment without braces, possibly empty.
    Result {
        result: GameResult,
        comment: String,
    },
    /// `setboard FEN`; the rest of the line, not validated here.
    SetBoard(String),
    Edit,
    Hint,
    Bk,
    Undo,
    Remove,
    Hard,
    Easy,
    Post,
    NoPost,
    Analyze,
    Exit,
    /// `.` (status request in analyze mode)
    Dot,
    Name(String),
    Rating {
        own: i32,
        opponent: i32,
    },
    Ics(String),
    Computer,
    Pause,
    Resume,
    /// Megabytes.
    Memory(u64),
    Cores(u32),
    EgtPath {
        kind: String,
        path: String,
    },
    /// `option NAME[=VALUE]`; `value` is `None` without `=` (buttons), `Some("")` for `NAME=`.
    Option {
        name: String,
        value: Option<String>,
    },
    Exclude(MoveSelection),
    Include(MoveSelection),
}

/// One line of the legacy `edit` sub-protocol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditCommand {
    /// `#`: empty the board.
    Clear,
    /// `c`: following placements are for the other colour.
    SwitchColor,
    /// `.`: leave edit mode.
    Done,
    /// `Pa4` places a piece, `xa4` empties the square. `piece` is normalised to one of
    /// `PNBRQK` (colour comes from `c`, not from letter case) or `x`.
    Place { piece: char, square: String },
}

/// What was wrong with a line; each kind has a fixed reason text for the reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseErrorKind {
    UnknownCommand,
    MissingArgument,
    /// Not an integer, or negative where only non-negative values make sense.
    InvalidNumber,
    /// An integer that does not fit its type.
    NumberOutOfRange,
    InvalidLevel,
    /// Bad `st`, `time` or `otim` value.
    InvalidTime,
    InvalidResult,
    InvalidOption,
    BadEditCommand,
}

impl ParseErrorKind {
    /// The text between the parentheses of `Error (...)`.
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
        }
    }
}

/// A line that could not be turned into a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    kind: ParseErrorKind,
    /// The command word for unknown commands, otherwise the whole trimmed line.
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

    /// The offending text: the command word for unknown commands, otherwise the trimmed line.
    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// The protocol line to send back, e.g. `Error (unknown command): foo`.
    ///
    /// Control characters in the echoed text are replaced so the reply is always exactly
    /// one line: a stray `\r` or `\n` would otherwise reach the GUI as a second, bogus line.
    pub fn reply(&self) -> String {
        let printable: String = self
            .subject
            .chars()
            .map(|c| match c {
                c if !c.is_control() => c,
                c if c.is_whitespace() => ' ',
                _ => '?',
            })
            .collect();
        format!("Error ({}): {}", self.kind.reason(), printable)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reply())
    }
}

impl std::error::Error for ParseError {}

/// Parses one line from the GUI. Blank lines give `Ok(None)` (icsdrone sends them).
///
/// Tolerated: CRLF, surrounding whitespace, runs of spaces/tabs between tokens, and
/// tokens after the last argument a command uses (they are ignored and logged at debug level).
/// `time`/`otim` also accept a fractional value, rounded half away from zero.
pub fn parse_command(line: &str) -> Result<Option<Command>, ParseError> {
    let line = line.trim();
    // On a trimmed line the word parser only fails when the line is empty.
    let Ok((arguments, word)) = word_and_separator(line) else {
        return Ok(None);
    };
    match parse_known_command(word, arguments) {
        Some(parsed) => parsed.map(Some).map_err(|kind| ParseError::new(kind, line)),
        None if is_move(word) => {
            log_unused_arguments(word, arguments);
            Ok(Some(Command::UserMove(word.to_string())))
        }
        None => Err(ParseError::new(ParseErrorKind::UnknownCommand, word)),
    }
}

/// Parses one line received while in `edit` mode. Blank lines give `Ok(None)`.
///
/// Any other line, including ordinary commands, is a `BadEditCommand` error.
pub fn parse_edit_line(line: &str) -> Result<Option<EditCommand>, ParseError> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    all_consuming(edit_command)(line)
        .map(|(_, command)| Some(command))
        .map_err(|_| ParseError::new(ParseErrorKind::BadEditCommand, line))
}

/// Dispatches on the command word; `None` if the word is not a command.
fn parse_known_command(word: &str, arguments: &str) -> Option<Result<Command, ParseErrorKind>> {
    use ParseErrorKind::{InvalidResult, InvalidTime};

    let mut args = Arguments::new(arguments);
    let parsed = match word {
        "xboard" => Ok(Command::Xboard),
        "protover" => args.integer().map(Command::Protover),
        "accepted" => args.text_token().map(Command::Accepted),
        "rejected" => args.text_token().map(Command::Rejected),
        "new" => Ok(Command::New),
        "variant" => args.text_token().map(Command::Variant),
        "quit" => Ok(Command::Quit),
        "random" => Ok(Command::Random),
        "force" => Ok(Command::Force),
        "go" => Ok(Command::Go),
        "playother" => Ok(Command::PlayOther),
        "white" => Ok(Command::White),
        "black" => Ok(Command::Black),
        "level" => parse_level(&mut args),
        "st" => args
            .parse_token(seconds_as_ms, InvalidTime)
            .map(|ms| Command::St { ms }),
        "sd" | "depth" => args.integer().map(Command::Sd),
        "nps" => args.integer().map(Command::Nps),
        "time" => args
            .parse_token(centiseconds, InvalidTime)
            .map(Command::Time),
        "otim" => args
            .parse_token(centiseconds, InvalidTime)
            .map(Command::Otim),
        "usermove" => args.text_token().map(Command::UserMove),
        "?" => Ok(Command::MoveNow),
        "ping" => args.text_token().map(Command::Ping),
        "draw" => Ok(Command::Draw),
        "result" => args
            .parse_token(game_result, InvalidResult)
            .map(|result| Command::Result {
                result,
                comment: result_comment(args.take_rest()).to_string(),
            }),
        "setboard" => args.rest_of_line().map(Command::SetBoard),
        "edit" => Ok(Command::Edit),
        "hint" => Ok(Command::Hint),
        "bk" => Ok(Command::Bk),
        "undo" => Ok(Command::Undo),
        "remove" => Ok(Command::Remove),
        "hard" => Ok(Command::Hard),
        "easy" => Ok(Command::Easy),
        "post" => Ok(Command::Post),
        "nopost" => Ok(Command::NoPost),
        "analyze" => Ok(Command::Analyze),
        "exit" => Ok(Command::Exit),
        "." => Ok(Command::Dot),
        "name" => args.rest_of_line().map(Command::Name),
        "rating" => parse_rating(&mut args),
        "ics" => args.text_token().map(Command::Ics),
        "computer" => Ok(Command::Computer),
        "pause" => Ok(Command::Pause),
        "resume" => Ok(Command::Resume),
        "memory" => args.integer().map(Command::Memory),
        "cores" => args.integer().map(Command::Cores),
        "egtpath" => parse_egtpath(&mut args),
        "option" => parse_option(&mut args),
        "exclude" => args.move_selection().map(Command::Exclude),
        "include" => args.move_selection().map(Command::Include),
        _ => return None,
    };
    if parsed.is_ok() {
        log_unused_arguments(word, args.take_rest());
    }
    Some(parsed)
}

fn log_unused_arguments(word: &str, unused: &str) {
    if !unused.is_empty() {
        log::debug!("xboard: ignoring extra arguments of `{word}`: {unused:?}");
    }
}

fn parse_level(args: &mut Arguments<'_>) -> Result<Command, ParseErrorKind> {
    use ParseErrorKind::InvalidLevel;
    let moves_per_session = args.parse_token(nom::character::complete::u32, InvalidLevel)?;
    let base_ms = args.parse_token(level_base_ms, InvalidLevel)?;
    let increment_ms = args.parse_token(seconds_as_ms, InvalidLevel)?;
    Ok(Command::Level {
        moves_per_session,
        base_ms,
        increment_ms,
    })
}

fn parse_rating(args: &mut Arguments<'_>) -> Result<Command, ParseErrorKind> {
    let own = args.integer()?;
    let opponent = args.integer()?;
    Ok(Command::Rating { own, opponent })
}

fn parse_egtpath(args: &mut Arguments<'_>) -> Result<Command, ParseErrorKind> {
    let kind = args.text_token()?;
    let path = args.rest_of_line()?;
    Ok(Command::EgtPath { kind, path })
}

/// `option NAME[=VALUE]`: the name runs up to the first `=` and may contain spaces.
fn parse_option(args: &mut Arguments<'_>) -> Result<Command, ParseErrorKind> {
    let text = args.rest_of_line()?;
    let assignment: IResult<&str, (&str, Option<&str>)> =
        pair(take_till(|c| c == '='), opt(preceded(char('='), rest)))(text.as_str());
    let (_, (name, value)) = assignment.map_err(|_| ParseErrorKind::InvalidOption)?;
    let name = name.trim();
    if name.is_empty() {
        return Err(ParseErrorKind::InvalidOption);
    }
    Ok(Command::Option {
        name: name.to_string(),
        value: value.map(|value| value.trim().to_string()),
    })
}

/// The arguments after the command word, consumed left to right.
struct Arguments<'a> {
    remaining: &'a str,
}

impl<'a> Arguments<'a> {
    fn new(remaining: &'a str) -> Self {
        Arguments { remaining }
    }

    /// The next whitespace-delimited token, `MissingArgument` if there is none.
    fn token(&mut self) -> Result<&'a str, ParseErrorKind> {
        let (remaining, token) =
            word_and_separator(self.remaining).map_err(|_| ParseErrorKind::MissingArgument)?;
        self.remaining = remaining;
        Ok(token)
    }

    fn text_token(&mut self) -> Result<String, ParseErrorKind> {
        self.token().map(str::to_string)
    }

    /// The next token, which `parser` must consume completely; `invalid` otherwise.
    fn parse_token<O, P>(&mut self, parser: P, invalid: ParseErrorKind) -> Result<O, ParseErrorKind>
    where
        P: Parser<&'a str, O, nom::error::Error<&'a str>>,
    {
        let token = self.token()?;
        all_consuming(parser)(token)
            .map(|(_, output)| output)
            .map_err(|_| invalid)
    }

    /// The next token as an integer of type `T`; overflow is reported separately from junk.
    fn integer<T>(&mut self) -> Result<T, ParseErrorKind>
    where
        T: FromStr<Err = ParseIntError>,
    {
        let text = self.parse_token(integer_text, ParseErrorKind::InvalidNumber)?;
        text.parse::<T>().map_err(|error| match error.kind() {
            IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
                ParseErrorKind::NumberOutOfRange
            }
            _ => ParseErrorKind::InvalidNumber,
        })
    }

    fn move_selection(&mut self) -> Result<MoveSelection, ParseErrorKind> {
        let token = self.token()?;
        Ok(match token {
            "all" => MoveSelection::All,
            mv => MoveSelection::Move(mv.to_string()),
        })
    }

    /// Everything left (possibly empty); the line was trimmed, so no trailing whitespace.
    fn take_rest(&mut self) -> &'a str {
        std::mem::take(&mut self.remaining)
    }

    /// Everything left, which must not be empty.
    fn rest_of_line(&mut self) -> Result<String, ParseErrorKind> {
        match self.take_rest() {
            "" => Err(ParseErrorKind::MissingArgument),
            text => Ok(text.to_string()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Tokens and numbers

/// A run of non-whitespace characters.
fn word(input: &str) -> IResult<&str, &str> {
    take_till1(char::is_whitespace)(input)
}

/// A word and the whitespace after it, so the remainder starts at the next word.
fn word_and_separator(input: &str) -> IResult<&str, &str> {
    terminated(word, take_while(char::is_whitespace))(input)
}

/// An optionally signed run of ASCII digits, as text (conversion reports overflow).
fn integer_text(input: &str) -> IResult<&str, &str> {
    recognize(pair(opt(one_of("+-")), digit1))(input)
}

/// A non-negative decimal number as written: `5`, `0.5`, `.5`, `2.`.
#[derive(Debug, Clone, Copy)]
struct DecimalText<'a> {
    whole: &'a str,
    fraction: &'a str,
}

/// Fraction digits kept when scaling. Dropping later digits keeps the arithmetic in `u128`;
/// they are worth less than 1e-13 ms, so they could only matter for a value that close to a
/// rounding boundary, which no host sends.
const MAX_FRACTION_DIGITS: usize = 18;

impl DecimalText<'_> {
    /// The value times `unit`, rounded half up to an integer; `None` if it overflows `u64`.
    /// Done in integers because `0.1 * 1000.0` style float maths can land on 99.
    fn scaled(self, unit: u64) -> Option<u64> {
        let whole: u64 = match self.whole {
            "" => 0,
            digits => digits.parse().ok()?,
        };
        let whole_units = whole.checked_mul(unit)?;

        let fraction = self
            .fraction
            .get(..MAX_FRACTION_DIGITS)
            .unwrap_or(self.fraction);
        let numerator: u128 = match fraction {
            "" => 0,
            digits => digits.parse().ok()?,
        };
        let denominator = 10u128.checked_pow(u32::try_from(fraction.len()).ok()?)?;
        let fraction_units = (2 * numerator * u128::from(unit) + denominator) / (2 * denominator);
        whole_units.checked_add(u64::try_from(fraction_units).ok()?)
    }
}

fn decimal(input: &str) -> IResult<&str, DecimalText<'_>> {
    alt((
        map(
            pair(digit1, opt(preceded(char('.'), digit0))),
            |(whole, fraction)| DecimalText {
                whole,
                fraction: fraction.unwrap_or(""),
            },
        ),
        map(preceded(char('.'), digit1), |fraction| DecimalText {
            whole: "",
            fraction,
        }),
    ))(input)
}

/// Seconds, possibly fractional, in milliseconds (`st`, level increment).
fn seconds_as_ms(input: &str) -> IResult<&str, u64> {
    map_opt(decimal, |seconds| seconds.scaled(1000))(input)
}

/// Level base: minutes (`5`, `0.5`) or `minutes:seconds` (`2:30`), in milliseconds.
fn level_base_ms(input: &str) -> IResult<&str, u64> {
    alt((
        map_opt(
            separated_pair(digit1, char(':'), decimal),
            |(minutes, seconds): (&str, DecimalText<'_>)| {
                let minutes_ms = minutes.parse::<u64>().ok()?.checked_mul(60_000)?;
                minutes_ms.checked_add(seconds.scaled(1000)?)
            },
        ),
        map_opt(decimal, |minutes| minutes.scaled(60_000)),
    ))(input)
}

/// `time`/`otim` value: integer centiseconds, possibly negative. Some hosts send a
/// fraction; it is rounded half away from zero rather than rejected.
fn centiseconds(input: &str) -> IResult<&str, i64> {
    map_opt(pair(opt(one_of("+-")), decimal), |(sign, amount)| {
        let magnitude = i128::from(amount.scaled(1)?);
        let signed = if sign == Some('-') {
            -magnitude
        } else {
            magnitude
        };
        i64::try_from(signed).ok()
    })(input)
}

// ---------------------------------------------------------------------------------------------
// result

fn game_result(input: &str) -> IResult<&str, GameResult> {
    alt((
        value(GameResult::Draw, tag("1/2-1/2")),
        value(GameResult::WhiteWins, tag("1-0")),
        value(GameResult::BlackWins, tag("0-1")),
        value(GameResult::Unfinished, tag("*")),
    ))(input)
}

/// The comment after a result: text inside `{...}`; braces optional, closing brace optional.
fn result_comment(text: &str) -> &str {
    let inside_braces: IResult<&str, &str> =
        preceded(opt(char('{')), take_till(|c| c == '}'))(text);
    inside_braces.map_or(text, |(_, comment)| comment).trim()
}

// ---------------------------------------------------------------------------------------------
// Moves. Every move shape contains a rank digit, command words contain none, so a
// command word can never be taken for a move.

fn file(input: &str) -> IResult<&str, char> {
    one_of("abcdefgh")(input)
}

fn rank(input: &str) -> IResult<&str, char> {
    one_of("12345678")(input)
}

fn square(input: &str) -> IResult<&str, &str> {
    recognize(pair(file, rank))(input)
}

fn check_mark(input: &str) -> IResult<&str, Option<char>> {
    opt(one_of("+#"))(input)
}

/// `O-O`, `O-O-O` (letter O, as XBoard sends in FRC) and the digit-zero spellings.
fn castling(input: &str) -> IResult<&str, &str> {
    recognize(pair(
        alt((tag("O-O-O"), tag("O-O"), tag("0-0-0"), tag("0-0"))),
        check_mark,
    ))(input)
}

/// `e2e4`, `e7e8q`, `e7e8=Q`, and multi-leg `c4d5,d5e4`.
fn coordinate_move(input: &str) -> IResult<&str, &str> {
    let leg = recognize(tuple((
        square,
        square,
        opt(pair(opt(char('=')), one_of("qrbnkQRBNK"))),
    )));
    recognize(separated_list1(char(','), leg))(input)
}

/// Piece drop `P@h3` (crazyhouse-style hosts).
fn drop_move(input: &str) -> IResult<&str, &str> {
    recognize(tuple((one_of("PNBRQK"), char('@'), square)))(input)
}

/// XBoard's null move.
fn null_move(input: &str) -> IResult<&str, &str> {
    tag("@@@@")(input)
}

/// SAN piece move: `Nf3`, `Nbd7`, `R1e2`, `Qh4xe1`, `Qxf7#`.
fn piece_move(input: &str) -> IResult<&str, &str> {
    // A disambiguator only counts if a target square still follows it; `opt` alone
    // would swallow the `f` of `Nf3` and never give it back.
    let disambiguation = terminated(
        alt((square, recognize(file), recognize(rank))),
        peek(pair(opt(char('x')), square)),
    );
    recognize(tuple((
        one_of("KQRBN"),
        opt(disambiguation),
        opt(char('x')),
        square,
        check_mark,
    )))(input)
}

/// SAN pawn move: `e4`, `exd5`, `e8=Q+`, `exd8Q`.
fn pawn_move(input: &str) -> IResult<&str, &str> {
    let promotion = pair(opt(char('=')), one_of("QRBNKqrbnk"));
    recognize(tuple((
        file,
        opt(preceded(char('x'), file)),
        rank,
        opt(promotion),
        check_mark,
    )))(input)
}

/// Whether a token has the shape of a move (not whether it is legal).
fn is_move(token: &str) -> bool {
    alt((
        all_consuming(castling),
        all_consuming(coordinate_move),
        all_consuming(drop_move),
        all_consuming(null_move),
        all_consuming(piece_move),
        all_consuming(pawn_move),
    ))(token)
    .is_ok()
}

// ---------------------------------------------------------------------------------------------
// edit mode

fn edit_piece(input: &str) -> IResult<&str, char> {
    alt((
        map(one_of("PNBRQKpnbrqk"), |piece| piece.to_ascii_uppercase()),
        value('x', one_of("xX")),
    ))(input)
}

fn edit_command(input: &str) -> IResult<&str, EditCommand> {
    alt((
        value(EditCommand::Clear, char('#')),
        value(EditCommand::SwitchColor, char('c')),
        value(EditCommand::Done, char('.')),
        map(pair(edit_piece, square), |(piece, square)| {
            EditCommand::Place {
                piece,
                square: square.to_string(),
            }
        }),
    ))(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses a line that must give a command.
    fn command(line: &str) -> Command {
        match parse_command(line) {
            Ok(Some(command)) => command,
            other => panic!("{line:?} should parse to a command, got {other:?}"),
        }
    }

    /// Parses a line that must fail; returns the reply text.
    fn reply(line: &str) -> String {
        match parse_command(line) {
            Err(error) => error.reply(),
            other => panic!("{line:?} should be rejected, got {other:?}"),
        }
    }

    fn error_kind(line: &str) -> ParseErrorKind {
        match parse_command(line) {
            Err(error) => error.kind(),
            other => panic!("{line:?} should be rejected, got {other:?}"),
        }
    }

    fn user_move(text: &str) -> Command {
        Command::UserMove(text.to_string())
    }

    fn level(moves_per_session: u32, base_ms: u64, increment_ms: u64) -> Command {
        Command::Level {
            moves_per_session,
            base_ms,
            increment_ms,
        }
    }

    fn edit(line: &str) -> EditCommand {
        match parse_edit_line(line) {
            Ok(Some(command)) => command,
            other => panic!("{line:?} should parse to an edit command, got {other:?}"),
        }
    }

    fn place(piece: char, square: &str) -> EditCommand {
        EditCommand::Place {
            piece,
            square: square.to_string(),
        }
    }

    const COMMANDS_WITHOUT_ARGUMENTS: &[(&str, Command)] = &[
        ("xboard", Command::Xboard),
        ("new", Command::New),
        ("quit", Command::Quit),
        ("random", Command::Random),
        ("force", Command::Force),
        ("go", Command::Go),
        ("playother", Command::PlayOther),
        ("white", Command::White),
        ("black", Command::Black),
        ("?", Command::MoveNow),
        ("draw", Command::Draw),
        ("edit", Command::Edit),
        ("hint", Command::Hint),
        ("bk", Command::Bk),
        ("undo", Command::Undo),
        ("remove", Command::Remove),
        ("hard", Command::Hard),
        ("easy", Command::Easy),
        ("post", Command::Post),
        ("nopost", Command::NoPost),
        ("analyze", Command::Analyze),
        ("exit", Command::Exit),
        (".", Command::Dot),
        ("computer", Command::Computer),
        ("pause", Command::Pause),
        ("resume", Command::Resume),
    ];

    #[test]
    fn commands_without_arguments() {
        for (word, expected) in COMMANDS_WITHOUT_ARGUMENTS {
            assert_eq!(&command(word), expected, "{word}");
        }
    }

    #[test]
    fn commands_without_arguments_ignore_extra_tokens() {
        for (word, expected) in COMMANDS_WITHOUT_ARGUMENTS {
            let line = format!("{word} extra tokens 1 2");
            assert_eq!(&command(&line), expected, "{line}");
        }
    }

    #[test]
    fn every_command_word_with_arguments_is_recognised() {
        // Without arguments these must say "missing argument", never "unknown command".
        for word in [
            "protover", "accepted", "rejected", "variant", "level", "st", "sd", "depth", "nps",
            "time", "otim", "usermove", "ping", "result", "setboard", "name", "rating", "ics",
            "memory", "cores", "egtpath", "option", "exclude", "include",
        ] {
            assert_eq!(
                reply(word),
                format!("Error (missing argument): {word}"),
                "{word}"
            );
        }
    }

    #[test]
    fn blank_lines_are_none() {
        for line in ["", " ", "\t", "\r", "\n", "\r\n", " \t \r\n", "\u{a0}"] {
            assert_eq!(parse_command(line), Ok(None), "{line:?}");
            assert_eq!(parse_edit_line(line), Ok(None), "{line:?}");
        }
    }

    #[test]
    fn crlf_and_extra_whitespace_are_tolerated() {
        assert_eq!(command("new\r\n"), Command::New);
        assert_eq!(command("new\r"), Command::New);
        assert_eq!(command("   go   "), Command::Go);
        assert_eq!(
            command("\tlevel \t 40   5\t\t0 \r\n"),
            level(40, 300_000, 0)
        );
        assert_eq!(command("ping   42\r"), Command::Ping("42".to_string()));
        assert_eq!(command("usermove\te2e4\r\n"), user_move("e2e4"));
        assert_eq!(command("e2e4\r\n"), user_move("e2e4"));
    }

    #[test]
    fn commands_are_case_sensitive() {
        assert_eq!(reply("NEW"), "Error (unknown command): NEW");
        assert_eq!(reply("Quit"), "Error (unknown command): Quit");
        assert_eq!(reply("Ping 5"), "Error (unknown command): Ping");
    }

    #[test]
    fn unknown_command_reply_names_only_the_word() {
        assert_eq!(reply("foo"), "Error (unknown command): foo");
        assert_eq!(reply("foo bar baz"), "Error (unknown command): foo");
        assert_eq!(
            reply("  setscore 10 5 "),
            "Error (unknown command): setscore"
        );
        assert_eq!(reply("lift e2"), "Error (unknown command): lift");
        assert_eq!(error_kind("foo"), ParseErrorKind::UnknownCommand);
    }

    #[test]
    fn protover() {
        assert_eq!(command("protover 2"), Command::Protover(2));
        assert_eq!(command("protover 3"), Command::Protover(3));
        assert_eq!(reply("protover"), "Error (missing argument): protover");
        assert_eq!(reply("protover -1"), "Error (invalid number): protover -1");
        assert_eq!(
            reply("protover two"),
            "Error (invalid number): protover two"
        );
        assert_eq!(
            reply("protover 2.0"),
            "Error (invalid number): protover 2.0"
        );
        assert_eq!(
            reply("protover 99999999999"),
            "Error (number out of range): protover 99999999999"
        );
    }

    #[test]
    fn accepted_rejected_variant_ics() {
        assert_eq!(
            command("accepted usermove"),
            Command::Accepted("usermove".to_string())
        );
        assert_eq!(
            command("rejected san"),
            Command::Rejected("san".to_string())
        );
        assert_eq!(
            command("variant fischerandom"),
            Command::Variant("fischerandom".to_string())
        );
        assert_eq!(
            command("ics freechess.org"),
            Command::Ics("freechess.org".to_string())
        );
        assert_eq!(command("ics -"), Command::Ics("-".to_string()));
        assert_eq!(reply("accepted"), "Error (missing argument): accepted");
        assert_eq!(reply("rejected  "), "Error (missing argument): rejected");
        assert_eq!(reply("variant"), "Error (missing argument): variant");
        assert_eq!(reply("ics\r\n"), "Error (missing argument): ics");
    }

    #[test]
    fn level_classical_and_incremental() {
        assert_eq!(command("level 40 5 0"), level(40, 300_000, 0));
        assert_eq!(command("level 0 2:30 1.5"), level(0, 150_000, 1_500));
        assert_eq!(command("level 0 0:10 0.1"), level(0, 10_000, 100));
        assert_eq!(command("level 0 1 0"), level(0, 60_000, 0));
        assert_eq!(command("level 40 0:30 0"), level(40, 30_000, 0));
        assert_eq!(command("level 0 0:23 2.0"), level(0, 23_000, 2_000));
        assert_eq!(command("level 0 2 0.5"), level(0, 120_000, 500));
        assert_eq!(command("level 0 0.5 0"), level(0, 30_000, 0));
        // Both MPS and INC non-zero is unusual but valid.
        assert_eq!(command("level 40 90 30"), level(40, 5_400_000, 30_000));
        assert_eq!(command("level 0 0 0"), level(0, 0, 0));
    }

    #[test]
    fn level_rounds_to_nearest_millisecond() {
        assert_eq!(command("level 0 1 0.1"), level(0, 60_000, 100));
        assert_eq!(command("level 0 1 0.3"), level(0, 60_000, 300));
        assert_eq!(command("level 0 1 0.0005"), level(0, 60_000, 1));
        assert_eq!(command("level 0 1 0.0004999"), level(0, 60_000, 0));
        assert_eq!(command("level 0 1 .25"), level(0, 60_000, 250));
        assert_eq!(command("level 0 1 2."), level(0, 60_000, 2_000));
        assert_eq!(command("level 0 0.1 0"), level(0, 6_000, 0));
        assert_eq!(command("level 0 1:0.5 0"), level(0, 60_500, 0));
        // 0.333333 min = 19999.98 ms, rounded up rather than truncated to 19999.
        assert_eq!(command("level 0 0.333333 0"), level(0, 20_000, 0));
        // Long fractions do not overflow.
        assert_eq!(
            command("level 0 1 0.1000000000000000000000000000000000001"),
            level(0, 60_000, 100)
        );
        assert_eq!(command("level 40 5 0 extra junk"), level(40, 300_000, 0));
    }

    #[test]
    fn level_errors() {
        assert_eq!(reply("level x y z"), "Error (invalid level): level x y z");
        assert_eq!(reply("level"), "Error (missing argument): level");
        assert_eq!(reply("level 40 5"), "Error (missing argument): level 40 5");
        for line in [
            "level -1 5 0",
            "level 0 -5 0",
            "level 0 5 -1",
            "level 0 5 1e3",
            "level 40.5 5 0",
            "level 0 2:x 0",
            "level 0 :30 0",
            "level 0 2: 0",
            "level 0 2:30:10 0",
            "level 0 25+5 0",
            "level 0 5 0.1.2",
            "level 0 5 .",
            "level 5000000000 5 0",
            "level 0 99999999999999999999 0",
            "level 0 307445734561825861 0",
            "level 0 5 18446744073709552",
            "level 0 5 ５",
        ] {
            assert_eq!(error_kind(line), ParseErrorKind::InvalidLevel, "{line}");
            assert_eq!(reply(line), format!("Error (invalid level): {line}"));
        }
    }

    #[test]
    fn st_is_seconds_per_move() {
        assert_eq!(command("st 5"), Command::St { ms: 5_000 });
        assert_eq!(command("st 0.5"), Command::St { ms: 500 });
        assert_eq!(command("st 0.1"), Command::St { ms: 100 });
        assert_eq!(command("st 30"), Command::St { ms: 30_000 });
        assert_eq!(command("st 0"), Command::St { ms: 0 });
        assert_eq!(reply("st"), "Error (missing argument): st");
        assert_eq!(reply("st -1"), "Error (invalid time): st -1");
        assert_eq!(reply("st abc"), "Error (invalid time): st abc");
        assert_eq!(
            reply("st 99999999999999999999"),
            "Error (invalid time): st 99999999999999999999"
        );
    }

    #[test]
    fn sd_and_depth() {
        assert_eq!(command("sd 12"), Command::Sd(12));
        assert_eq!(command("depth 7"), Command::Sd(7));
        assert_eq!(command("sd 0"), Command::Sd(0));
        assert_eq!(reply("sd -3"), "Error (invalid number): sd -3");
        assert_eq!(reply("depth x"), "Error (invalid number): depth x");
        assert_eq!(
            reply("sd 4294967296"),
            "Error (number out of range): sd 4294967296"
        );
    }

    #[test]
    fn nps_memory_cores() {
        assert_eq!(command("nps 100000"), Command::Nps(100_000));
        assert_eq!(command("nps 0"), Command::Nps(0));
        assert_eq!(command("memory 256"), Command::Memory(256));
        assert_eq!(command("cores 8"), Command::Cores(8));
        assert_eq!(reply("nps -1"), "Error (invalid number): nps -1");
        assert_eq!(reply("memory -64"), "Error (invalid number): memory -64");
        assert_eq!(reply("memory 64MB"), "Error (invalid number): memory 64MB");
        assert_eq!(reply("cores -2"), "Error (invalid number): cores -2");
        assert_eq!(
            reply("memory 18446744073709551616"),
            "Error (number out of range): memory 18446744073709551616"
        );
        assert_eq!(
            reply("cores 99999999999"),
            "Error (number out of range): cores 99999999999"
        );
    }

    #[test]
    fn time_and_otim_are_centiseconds() {
        assert_eq!(command("time 12345"), Command::Time(12_345));
        assert_eq!(command("otim 6000"), Command::Otim(6_000));
        assert_eq!(command("time -200"), Command::Time(-200));
        assert_eq!(command("otim -1"), Command::Otim(-1));
        assert_eq!(command("time 0"), Command::Time(0));
        assert_eq!(command("time +5"), Command::Time(5));
        // Fractions are rounded half away from zero.
        assert_eq!(command("time 123.4"), Command::Time(123));
        assert_eq!(command("time 123.5"), Command::Time(124));
        assert_eq!(command("otim -12.5"), Command::Otim(-13));
        assert_eq!(
            command("time -9223372036854775808"),
            Command::Time(i64::MIN)
        );
        assert_eq!(reply("time"), "Error (missing argument): time");
        assert_eq!(reply("otim abc"), "Error (invalid time): otim abc");
        assert_eq!(reply("time 1:00"), "Error (invalid time): time 1:00");
        assert_eq!(reply("time --5"), "Error (invalid time): time --5");
        assert_eq!(
            reply("time 99999999999999999999999"),
            "Error (invalid time): time 99999999999999999999999"
        );
        assert_eq!(
            reply("time 9223372036854775808"),
            "Error (invalid time): time 9223372036854775808"
        );
    }

    #[test]
    fn usermove_takes_any_token() {
        assert_eq!(command("usermove e2e4"), user_move("e2e4"));
        assert_eq!(command("usermove e7e8q"), user_move("e7e8q"));
        assert_eq!(command("usermove O-O"), user_move("O-O"));
        assert_eq!(command("usermove junk!!"), user_move("junk!!"));
        assert_eq!(command("usermove new"), user_move("new"));
        assert_eq!(command("usermove z9z9 more"), user_move("z9z9"));
        assert_eq!(command("usermove ♞"), user_move("♞"));
        assert_eq!(reply("usermove"), "Error (missing argument): usermove");
        assert_eq!(
            reply("usermove   \r\n"),
            "Error (missing argument): usermove"
        );
    }

    #[test]
    fn bare_coordinate_moves() {
        for text in [
            "e2e4",
            "g1f3",
            "a7a8q",
            "a7a8Q",
            "e7e8=q",
            "e7e8=Q",
            "h2h1n",
            "b7b8r",
            "c7c8b",
            "e7e8k",
            "e1g1",
            "e1c1",
            "c4d5,d5e4",
            "a1h8",
        ] {
            assert_eq!(command(text), user_move(text), "{text}");
        }
        assert_eq!(command("e2e4 trailing"), user_move("e2e4"));
    }

    #[test]
    fn bare_castling_and_special_moves() {
        for text in [
            "O-O", "O-O-O", "0-0", "0-0-0", "O-O+", "O-O-O#", "P@h3", "N@f7", "@@@@",
        ] {
            assert_eq!(command(text), user_move(text), "{text}");
        }
    }

    #[test]
    fn bare_san_moves() {
        for text in [
            "e4", "d5", "Nf3", "Nbd7", "R1e2", "Qh4xe1", "exd5", "e8=Q+", "Qxf7#", "Kxe1", "exd8Q",
            "bxc3", "Bb5+", "Raxd1", "h1=N", "Ke2", "a8=q",
        ] {
            assert_eq!(command(text), user_move(text), "{text}");
        }
    }

    #[test]
    fn non_moves_are_unknown_commands() {
        for text in [
            "e9", "i2i4", "e2e", "Nf", "nf3", "O-O-O-O", "e2e4,", "e2e4=", "e7e8x", "Pf3", "c",
            "b", "h", "x", "K", "Nf3x", "exd", "e4!", "e4e5e6", "O-0", "@@@", "p@h3",
        ] {
            assert_eq!(
                reply(text),
                format!("Error (unknown command): {text}"),
                "{text}"
            );
        }
    }

    #[test]
    fn command_words_are_never_moves() {
        for (word, _) in COMMANDS_WITHOUT_ARGUMENTS {
            assert!(!is_move(word), "{word}");
        }
        for word in [
            "exit", "easy", "edit", "draw", "bk", "go", "new", "cores", "depth",
        ] {
            assert!(!is_move(word), "{word}");
            assert!(!matches!(
                parse_command(word),
                Ok(Some(Command::UserMove(_)))
            ));
        }
    }

    #[test]
    fn ping_token_is_verbatim() {
        assert_eq!(command("ping 123"), Command::Ping("123".to_string()));
        assert_eq!(command("ping 0"), Command::Ping("0".to_string()));
        assert_eq!(command("ping 007"), Command::Ping("007".to_string()));
        assert_eq!(
            command("ping 99999999999999999999"),
            Command::Ping("99999999999999999999".to_string())
        );
        assert_eq!(
            command("ping 1234567890123456789012345"),
            Command::Ping("1234567890123456789012345".to_string())
        );
        assert_eq!(command("ping abc"), Command::Ping("abc".to_string()));
        assert_eq!(command("ping -5"), Command::Ping("-5".to_string()));
        assert_eq!(command("ping ♞"), Command::Ping("♞".to_string()));
        assert_eq!(command("ping 7 extra"), Command::Ping("7".to_string()));
        assert_eq!(reply("ping"), "Error (missing argument): ping");
        assert_eq!(reply("ping \t "), "Error (missing argument): ping");
    }

    fn result(result: GameResult, comment: &str) -> Command {
        Command::Result {
            result,
            comment: comment.to_string(),
        }
    }

    #[test]
    fn result_tokens_and_comments() {
        assert_eq!(
            command("result 1-0 {White mates}"),
            result(GameResult::WhiteWins, "White mates")
        );
        assert_eq!(
            command("result 0-1 {Black mates}"),
            result(GameResult::BlackWins, "Black mates")
        );
        assert_eq!(
            command("result 1/2-1/2 {Draw by repetition}"),
            result(GameResult::Draw, "Draw by repetition")
        );
        assert_eq!(command("result *"), result(GameResult::Unfinished, ""));
        assert_eq!(command("result 1-0"), result(GameResult::WhiteWins, ""));
        assert_eq!(command("result 1-0 {}"), result(GameResult::WhiteWins, ""));
        assert_eq!(
            command("result 0-1 { White resigns }\r\n"),
            result(GameResult::BlackWins, "White resigns")
        );
        assert_eq!(
            command("result 1-0 {White mates"),
            result(GameResult::WhiteWins, "White mates")
        );
        assert_eq!(
            command("result * adjourned by host"),
            result(GameResult::Unfinished, "adjourned by host")
        );
        assert_eq!(
            command("result 1/2-1/2 {Stalemate} trailing"),
            result(GameResult::Draw, "Stalemate")
        );
    }

    #[test]
    fn result_errors() {
        assert_eq!(reply("result"), "Error (missing argument): result");
        assert_eq!(reply("result 2-0"), "Error (invalid result): result 2-0");
        assert_eq!(
            reply("result {White mates}"),
            "Error (invalid result): result {White mates}"
        );
        assert_eq!(
            reply("result 1-0-0"),
            "Error (invalid result): result 1-0-0"
        );
        assert_eq!(reply("result 1/2"), "Error (invalid result): result 1/2");
        // The result token must stand alone; XBoard always puts a space before the brace.
        assert_eq!(
            reply("result 1-0{x}"),
            "Error (invalid result): result 1-0{x}"
        );
    }

    #[test]
    fn game_result_round_trips() {
        for result in [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::Unfinished,
        ] {
            let line = format!("result {}", result.as_str());
            assert_eq!(
                command(&line),
                Command::Result {
                    result,
                    comment: String::new()
                }
            );
        }
    }

    #[test]
    fn setboard_takes_rest_of_line() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
        assert_eq!(
            command(&format!("setboard {fen}")),
            Command::SetBoard(fen.to_string())
        );
        assert_eq!(
            command(&format!("  setboard   {fen}  \r\n")),
            Command::SetBoard(fen.to_string())
        );
        assert_eq!(
            command("setboard not a fen"),
            Command::SetBoard("not a fen".to_string())
        );
        assert_eq!(reply("setboard"), "Error (missing argument): setboard");
        assert_eq!(
            reply("setboard   \r\n"),
            "Error (missing argument): setboard"
        );
    }

    #[test]
    fn name_and_rating() {
        assert_eq!(
            command("name Magnus Carlsen"),
            Command::Name("Magnus Carlsen".to_string())
        );
        assert_eq!(
            command("name GuestXYZ"),
            Command::Name("GuestXYZ".to_string())
        );
        assert_eq!(reply("name"), "Error (missing argument): name");
        assert_eq!(
            command("rating 2100 1950"),
            Command::Rating {
                own: 2100,
                opponent: 1950
            }
        );
        assert_eq!(
            command("rating 0 0"),
            Command::Rating {
                own: 0,
                opponent: 0
            }
        );
        assert_eq!(
            command("rating -5 10"),
            Command::Rating {
                own: -5,
                opponent: 10
            }
        );
        assert_eq!(reply("rating"), "Error (missing argument): rating");
        assert_eq!(
            reply("rating 2100"),
            "Error (missing argument): rating 2100"
        );
        assert_eq!(reply("rating a b"), "Error (invalid number): rating a b");
        assert_eq!(
            reply("rating 2100 1950.5"),
            "Error (invalid number): rating 2100 1950.5"
        );
        assert_eq!(
            reply("rating 3000000000 0"),
            "Error (number out of range): rating 3000000000 0"
        );
    }

    #[test]
    fn egtpath() {
        assert_eq!(
            command("egtpath syzygy /home/me/my tables/syzygy"),
            Command::EgtPath {
                kind: "syzygy".to_string(),
                path: "/home/me/my tables/syzygy".to_string()
            }
        );
        assert_eq!(
            command("egtpath  gaviota  C:\\tb\\gtb  "),
            Command::EgtPath {
                kind: "gaviota".to_string(),
                path: "C:\\tb\\gtb".to_string()
            }
        );
        assert_eq!(reply("egtpath"), "Error (missing argument): egtpath");
        assert_eq!(
            reply("egtpath syzygy"),
            "Error (missing argument): egtpath syzygy"
        );
    }

    fn option(name: &str, value: Option<&str>) -> Command {
        Command::Option {
            name: name.to_string(),
            value: value.map(str::to_string),
        }
    }

    #[test]
    fn option_name_and_value() {
        assert_eq!(
            command("option Move Overhead=50"),
            option("Move Overhead", Some("50"))
        );
        assert_eq!(command("option Clear Hash"), option("Clear Hash", None));
        assert_eq!(command("option Book File="), option("Book File", Some("")));
        assert_eq!(
            command("option  Hash  =  64 \r\n"),
            option("Hash", Some("64"))
        );
        assert_eq!(command("option a=b=c"), option("a", Some("b=c")));
        assert_eq!(
            command("option Book File=/path/with spaces/book.bin"),
            option("Book File", Some("/path/with spaces/book.bin"))
        );
        assert_eq!(reply("option"), "Error (missing argument): option");
        assert_eq!(reply("option =5"), "Error (invalid option): option =5");
        assert_eq!(reply("option  = "), "Error (invalid option): option  =");
    }

    #[test]
    fn exclude_and_include() {
        assert_eq!(command("exclude all"), Command::Exclude(MoveSelection::All));
        assert_eq!(command("include all"), Command::Include(MoveSelection::All));
        assert_eq!(
            command("exclude e2e4"),
            Command::Exclude(MoveSelection::Move("e2e4".to_string()))
        );
        assert_eq!(
            command("include g1f3"),
            Command::Include(MoveSelection::Move("g1f3".to_string()))
        );
        assert_eq!(
            command("exclude All"),
            Command::Exclude(MoveSelection::Move("All".to_string()))
        );
        assert_eq!(reply("exclude"), "Error (missing argument): exclude");
        assert_eq!(reply("include"), "Error (missing argument): include");
    }

    #[test]
    fn error_accessors_and_display() {
        let error = match parse_command("  level x y z \r\n") {
            Err(error) => error,
            other => panic!("expected an error, got {other:?}"),
        };
        assert_eq!(error.kind(), ParseErrorKind::InvalidLevel);
        assert_eq!(error.subject(), "level x y z");
        assert_eq!(error.to_string(), error.reply());
        assert_eq!(error.to_string(), "Error (invalid level): level x y z");
    }

    #[test]
    fn replies_are_single_printable_lines() {
        assert_eq!(reply("foo\u{0}bar"), "Error (unknown command): foo?bar");
        assert_eq!(reply("level x\ry z"), "Error (invalid level): level x y z");
        assert_eq!(reply("sd x\ny"), "Error (invalid number): sd x y");
        assert_eq!(reply("\u{1b}[2J"), "Error (unknown command): ?[2J");
    }

    #[test]
    fn non_ascii_input() {
        assert_eq!(reply("é4"), "Error (unknown command): é4");
        assert_eq!(reply("♞♞♞ x"), "Error (unknown command): ♞♞♞");
        assert_eq!(reply("sd ５"), "Error (invalid number): sd ５");
        assert_eq!(reply("st ½"), "Error (invalid time): st ½");
        assert_eq!(
            command("name Müller Ünal"),
            Command::Name("Müller Ünal".to_string())
        );
        assert_eq!(
            command("setboard 8/8/8/8/8/8/8/8 w - - 0 1 ♞"),
            Command::SetBoard("8/8/8/8/8/8/8/8 w - - 0 1 ♞".to_string())
        );
    }

    #[test]
    fn every_error_kind_has_its_reason() {
        let cases = [
            ("bogus", ParseErrorKind::UnknownCommand, "unknown command"),
            ("ping", ParseErrorKind::MissingArgument, "missing argument"),
            ("sd x", ParseErrorKind::InvalidNumber, "invalid number"),
            (
                "sd 9999999999",
                ParseErrorKind::NumberOutOfRange,
                "number out of range",
            ),
            ("level a b c", ParseErrorKind::InvalidLevel, "invalid level"),
            ("st x", ParseErrorKind::InvalidTime, "invalid time"),
            (
                "result 3-3",
                ParseErrorKind::InvalidResult,
                "invalid result",
            ),
            ("option =1", ParseErrorKind::InvalidOption, "invalid option"),
        ];
        for (line, kind, reason) in cases {
            assert_eq!(error_kind(line), kind, "{line}");
            assert_eq!(kind.reason(), reason);
            assert!(reply(line).starts_with(&format!("Error ({reason}): ")));
        }
        assert_eq!(ParseErrorKind::BadEditCommand.reason(), "bad edit command");
    }

    #[test]
    fn edit_mode_lines() {
        assert_eq!(edit("#"), EditCommand::Clear);
        assert_eq!(edit("c"), EditCommand::SwitchColor);
        assert_eq!(edit("."), EditCommand::Done);
        assert_eq!(edit("Pa4"), place('P', "a4"));
        assert_eq!(edit("Ke1"), place('K', "e1"));
        assert_eq!(edit("Qd8"), place('Q', "d8"));
        assert_eq!(edit("Rh1"), place('R', "h1"));
        assert_eq!(edit("Bc1"), place('B', "c1"));
        assert_eq!(edit("Ng1"), place('N', "g1"));
        assert_eq!(edit("ke8"), place('K', "e8"));
        assert_eq!(edit("pb7"), place('P', "b7"));
        assert_eq!(edit("xa4"), place('x', "a4"));
        assert_eq!(edit("Xh8"), place('x', "h8"));
        assert_eq!(edit("  Pa4 \r\n"), place('P', "a4"));
        assert_eq!(edit(".\r\n"), EditCommand::Done);
    }

    #[test]
    fn edit_mode_errors() {
        for line in [
            "Pi4", "Pa9", "Pa0", "Za1", "Pa", "P", "a4", "Pa4 junk", "quit", "cc", "C", "##", "..",
            "x", "Pa4a5", "♞a4", "Pа4",
        ] {
            match parse_edit_line(line) {
                Err(error) => {
                    assert_eq!(error.kind(), ParseErrorKind::BadEditCommand, "{line}");
                    assert_eq!(error.reply(), format!("Error (bad edit command): {line}"));
                }
                other => panic!("{line:?} should be rejected, got {other:?}"),
            }
        }
        match parse_edit_line("  zz  \r\n") {
            Err(error) => assert_eq!(error.reply(), "Error (bad edit command): zz"),
            other => panic!("expected an error, got {other:?}"),
        }
    }

    mod fuzz {
        use super::super::*;
        use rand::rngs::StdRng;
        use rand::seq::SliceRandom;
        use rand::{Rng, SeedableRng};
        use std::panic::{AssertUnwindSafe, catch_unwind};

        const VALID_LINES: &[&str] = &[
            "xboard",
            "protover 2",
            "accepted usermove",
            "rejected san",
            "new",
            "variant normal",
            "quit",
            "random",
            "force",
            "go",
            "playother",
            "white",
            "black",
            "level 40 5 0",
            "level 0 2:30 1.5",
            "level 0 0:10 0.1",
            "st 0.5",
            "sd 12",
            "depth 5",
            "nps 100000",
            "time 12345",
            "otim -200",
            "usermove e2e4",
            "e7e8=q",
            "O-O-O",
            "Qxf7#",
            "exd5",
            "c4d5,d5e4",
            "P@h3",
            "@@@@",
            "?",
            "ping 99999999999999999999",
            "draw",
            "result 1-0 {White mates}",
            "result 1/2-1/2 {Draw by repetition}",
            "setboard rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "edit",
            "hint",
            "bk",
            "undo",
            "remove",
            "hard",
            "easy",
            "post",
            "nopost",
            "analyze",
            "exit",
            ".",
            "name Some Player",
            "rating 2100 1950",
            "ics freechess.org",
            "computer",
            "pause",
            "resume",
            "memory 256",
            "cores 4",
            "egtpath syzygy /tb/syzygy",
            "option Move Overhead=50",
            "option Clear Hash",
            "exclude all",
            "include e2e4",
            "#",
            "c",
            "Pa4",
            "xh8",
        ];

        const AWKWARD_CHARS: &[char] = &[
            ' ', ' ', ' ', '\t', '\r', '\n', '\0', '\u{7f}', '\u{1b}', '\u{a0}', '\u{2028}',
            '\u{feff}', '\u{fffd}', 'é', '♞', '😀', '５', '½', '=', ':', '.', '-', '+', '{', '}',
            '/', '@', ',', '#', '?', '0', '1', '8', '9', 'x', 'O', 'e', 'N', '*',
        ];

        fn random_char(rng: &mut StdRng) -> char {
            match rng.gen_range(0..3) {
                0 => *AWKWARD_CHARS.choose(rng).unwrap_or(&'?'),
                1 => char::from(rng.gen_range(0x20u8..0x7f)),
                _ => char::from_u32(rng.gen_range(0..0x11_0000)).unwrap_or('\u{fffd}'),
            }
        }

        fn random_bytes_line(rng: &mut StdRng) -> String {
            let length = rng.gen_range(0..48);
            let bytes: Vec<u8> = (0..length).map(|_| rng.gen_range(0..=u8::MAX)).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }

        fn random_chars_line(rng: &mut StdRng) -> String {
            let length = rng.gen_range(0..32);
            (0..length).map(|_| random_char(rng)).collect()
        }

        fn mutate(rng: &mut StdRng, line: &str) -> String {
            let mut chars: Vec<char> = line.chars().collect();
            for _ in 0..rng.gen_range(1..=4) {
                let position = rng.gen_range(0..=chars.len());
                match rng.gen_range(0..9) {
                    0 => chars.truncate(position),
                    1 => {
                        chars = chars
                            .iter()
                            .flat_map(|&c| match c {
                                ' ' if rng.gen_bool(0.5) => vec![' ', ' ', '\t'],
                                ' ' => vec![' ', ' '],
                                c => vec![c],
                            })
                            .collect();
                    }
                    2 => chars.insert(position, random_char(rng)),
                    3 if position < chars.len() => {
                        chars.remove(position);
                    }
                    4 if position < chars.len() => chars[position] = random_char(rng),
                    5 => chars.extend(['\r', '\n']),
                    6 => {
                        let huge = " 99999999999999999999999999 -1 0.0000001 ";
                        chars.splice(position..position, huge.chars());
                    }
                    7 => {
                        let text: String = chars.iter().collect();
                        let mut tokens: Vec<&str> = text.split_whitespace().collect();
                        tokens.shuffle(rng);
                        chars = tokens.join(" ").chars().collect();
                    }
                    _ => {
                        let noise = ["♞", "\u{0}", "{", "}", "=", ":", "😀😀", "\t\t", "é"];
                        let piece = noise.choose(rng).copied().unwrap_or("");
                        chars.splice(position..position, piece.chars());
                    }
                }
            }
            chars.into_iter().collect()
        }

        fn check_error(function: &str, line: &str, error: &ParseError) {
            let reply = error.reply();
            assert!(
                reply.starts_with("Error ("),
                "{function}({line:?}) gave reply {reply:?}"
            );
            assert!(
                !reply.contains(['\n', '\r']),
                "{function}({line:?}) gave a multi-line reply {reply:?}"
            );
            assert_eq!(error.to_string(), reply);
        }

        #[test]
        fn random_and_mutated_lines_never_panic() {
            const LINES: usize = 30_000;
            let mut rng = StdRng::seed_from_u64(0x1A0_2B00D);
            let (mut commands, mut errors, mut edit_commands) = (0usize, 0usize, 0usize);

            for _ in 0..LINES {
                let line = match rng.gen_range(0..4) {
                    0 => random_bytes_line(&mut rng),
                    1 => random_chars_line(&mut rng),
                    _ => {
                        let valid = VALID_LINES.choose(&mut rng).copied().unwrap_or("");
                        mutate(&mut rng, valid)
                    }
                };

                // catch_unwind turns a panic into a failure that names the offending line.
                let parsed = catch_unwind(AssertUnwindSafe(|| parse_command(&line)))
                    .unwrap_or_else(|_| panic!("parse_command panicked on {line:?}"));
                match parsed {
                    Ok(Some(_)) => commands += 1,
                    Ok(None) => {}
                    Err(error) => {
                        errors += 1;
                        check_error("parse_command", &line, &error);
                    }
                }

                let edited = catch_unwind(AssertUnwindSafe(|| parse_edit_line(&line)))
                    .unwrap_or_else(|_| panic!("parse_edit_line panicked on {line:?}"));
                match edited {
                    Ok(Some(_)) => edit_commands += 1,
                    Ok(None) => {}
                    Err(error) => check_error("parse_edit_line", &line, &error),
                }
            }

            // The generator must exercise both success and failure paths to mean anything.
            assert!(commands > 1_000, "only {commands} lines parsed");
            assert!(errors > 1_000, "only {errors} lines rejected");
            assert!(edit_commands > 10, "only {edit_commands} edit lines parsed");
        }
    }
}
