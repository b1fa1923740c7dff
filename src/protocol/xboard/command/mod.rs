//! Parser for the lines an XBoard/WinBoard (CECP v2) GUI sends: one input line becomes one
//! [`Command`] (or, in `edit` mode, one [`EditCommand`]) or a [`ParseError`] whose `reply()` is
//! the `Error (...): ...` line to send back. Move and FEN legality are checked by the caller.

use crate::engine::limits::{
    MAX_CLOCK_MS, MAX_DEPTH, MAX_HASH_MB, MAX_MOVES_PER_SESSION, MAX_NPS, MAX_THREADS,
};
use crate::protocol::text::{
    Dialect, WordError, Words, coordinate_move, file, promotion_piece, rank, split_first_word,
    square,
};
pub use crate::protocol::text::{ParseError, ParseErrorKind};
use nom::{
    IResult,
    branch::alt,
    bytes::complete::{tag, take_till},
    character::complete::{char, digit0, digit1, one_of},
    combinator::{all_consuming, map, map_opt, opt, peek, recognize, rest, value},
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

/// Parses one line from the GUI. Blank lines give `Ok(None)` (icsdrone sends them).
///
/// Tolerated: CRLF, surrounding whitespace, runs of spaces/tabs between tokens, and
/// tokens after the last argument a command uses (they are ignored and logged at debug level).
/// `time`/`otim` also accept a fractional value, rounded half away from zero.
pub fn parse_command(line: &str) -> Result<Option<Command>, ParseError> {
    let line = line.trim();
    let Some((word, arguments)) = split_first_word(line) else {
        return Ok(None);
    };
    match parse_known_command(word, arguments) {
        Some(parsed) => parsed
            .map(Some)
            .map_err(|error| ParseError::in_line(Dialect::XBoard, error, line)),
        None if is_move(word) => {
            log_unused_arguments(word, arguments);
            Ok(Some(Command::UserMove(word.to_string())))
        }
        None => Err(ParseError::new(
            Dialect::XBoard,
            ParseErrorKind::UnknownCommand,
            word,
        )),
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
        .map_err(|_| ParseError::new(Dialect::XBoard, ParseErrorKind::BadEditCommand, line))
}

/// Dispatches on the command word; `None` if the word is not a command.
fn parse_known_command<'a>(
    word: &str,
    arguments: &'a str,
) -> Option<Result<Command, WordError<'a>>> {
    use ParseErrorKind::{InvalidResult, InvalidTime, NumberOutOfRange};

    let mut args = Words::new(arguments);
    let parsed = match word {
        "xboard" => Ok(Command::Xboard),
        "protover" => args.integer().map(Command::Protover),
        "accepted" => word_text(&mut args).map(Command::Accepted),
        "rejected" => word_text(&mut args).map(Command::Rejected),
        "new" => Ok(Command::New),
        "variant" => word_text(&mut args).map(Command::Variant),
        "quit" => Ok(Command::Quit),
        "random" => Ok(Command::Random),
        "force" => Ok(Command::Force),
        "go" => Ok(Command::Go),
        "playother" => Ok(Command::PlayOther),
        "white" => Ok(Command::White),
        "black" => Ok(Command::Black),
        "level" => parse_level(&mut args),
        "st" => args
            .parse_word(seconds_as_ms, InvalidTime)
            .and_then(|ms| within(ms, 0, MAX_CLOCK_MS, InvalidTime))
            .map(|ms| Command::St { ms }),
        "sd" | "depth" => args
            .integer()
            .and_then(|depth| within(depth, 0, MAX_DEPTH, NumberOutOfRange))
            .map(Command::Sd),
        "nps" => args
            .integer()
            .and_then(|nps| within(nps, 0, MAX_NPS, NumberOutOfRange))
            .map(Command::Nps),
        "time" => clock(&mut args).map(Command::Time),
        "otim" => clock(&mut args).map(Command::Otim),
        "usermove" => word_text(&mut args).map(Command::UserMove),
        "?" => Ok(Command::MoveNow),
        "ping" => word_text(&mut args).map(Command::Ping),
        "draw" => Ok(Command::Draw),
        "result" => args
            .parse_word(game_result, InvalidResult)
            .map(|result| Command::Result {
                result,
                comment: result_comment(args.take_rest()).to_string(),
            }),
        "setboard" => args.rest_of_line().map(String::from).map(Command::SetBoard),
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
        "name" => args.rest_of_line().map(String::from).map(Command::Name),
        "rating" => parse_rating(&mut args),
        "ics" => word_text(&mut args).map(Command::Ics),
        "computer" => Ok(Command::Computer),
        "pause" => Ok(Command::Pause),
        "resume" => Ok(Command::Resume),
        "memory" => args
            .integer()
            .and_then(|mb| within(mb, 1, MAX_HASH_MB, NumberOutOfRange))
            .map(Command::Memory),
        "cores" => args
            .integer()
            .and_then(|n: u32| within(u64::from(n), 1, MAX_THREADS, NumberOutOfRange))
            .map(|n| Command::Cores(n as u32)),
        "egtpath" => parse_egtpath(&mut args),
        "option" => parse_option(&mut args),
        "exclude" => move_selection(&mut args).map(Command::Exclude),
        "include" => move_selection(&mut args).map(Command::Include),
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

/// `value` if it lies in `low..=high`, else the error `kind`.
fn within<'a, T: PartialOrd>(
    value: T,
    low: T,
    high: T,
    kind: ParseErrorKind,
) -> Result<T, WordError<'a>> {
    if low <= value && value <= high {
        Ok(value)
    } else {
        Err(WordError::line(kind))
    }
}

fn word_text<'a>(args: &mut Words<'a>) -> Result<String, WordError<'a>> {
    args.required().map(str::to_string)
}

/// `all` or one root move, as sent (not checked for legality).
fn move_selection<'a>(args: &mut Words<'a>) -> Result<MoveSelection, WordError<'a>> {
    Ok(match args.required()? {
        "all" => MoveSelection::All,
        mv => MoveSelection::Move(mv.to_string()),
    })
}

/// `time`/`otim`: centiseconds, at most `MAX_CLOCK_MS` either side of zero (a clock may be
/// negative after a flag fall).
fn clock<'a>(args: &mut Words<'a>) -> Result<i64, WordError<'a>> {
    const MAX_CENTISECONDS: i64 = (MAX_CLOCK_MS / 10) as i64;
    let cs = args.parse_word(centiseconds, ParseErrorKind::InvalidTime)?;
    within(
        cs,
        -MAX_CENTISECONDS,
        MAX_CENTISECONDS,
        ParseErrorKind::InvalidTime,
    )
}

fn parse_level<'a>(args: &mut Words<'a>) -> Result<Command, WordError<'a>> {
    use ParseErrorKind::InvalidLevel;
    let moves_per_session = args.parse_word(nom::character::complete::u32, InvalidLevel)?;
    let moves_per_session = within(moves_per_session, 0, MAX_MOVES_PER_SESSION, InvalidLevel)?;
    let base_ms = args.parse_word(level_base_ms, InvalidLevel)?;
    let base_ms = within(base_ms, 0, MAX_CLOCK_MS, InvalidLevel)?;
    let increment_ms = args.parse_word(seconds_as_ms, InvalidLevel)?;
    let increment_ms = within(increment_ms, 0, MAX_CLOCK_MS, InvalidLevel)?;
    Ok(Command::Level {
        moves_per_session,
        base_ms,
        increment_ms,
    })
}

fn parse_rating<'a>(args: &mut Words<'a>) -> Result<Command, WordError<'a>> {
    let own = args.integer()?;
    let opponent = args.integer()?;
    Ok(Command::Rating { own, opponent })
}

fn parse_egtpath<'a>(args: &mut Words<'a>) -> Result<Command, WordError<'a>> {
    let kind = word_text(args)?;
    let path = args.rest_of_line()?.to_string();
    Ok(Command::EgtPath { kind, path })
}

/// `option NAME[=VALUE]`: the name runs up to the first `=` and may contain spaces.
fn parse_option<'a>(args: &mut Words<'a>) -> Result<Command, WordError<'a>> {
    let text = args.rest_of_line()?;
    let assignment: IResult<&str, (&str, Option<&str>)> =
        pair(take_till(|c| c == '='), opt(preceded(char('='), rest)))(text);
    let (_, (name, value)) =
        assignment.map_err(|_| WordError::line(ParseErrorKind::InvalidOption))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(WordError::line(ParseErrorKind::InvalidOption));
    }
    Ok(Command::Option {
        name: name.to_string(),
        value: value.map(|value| value.trim().to_string()),
    })
}

// ---------------------------------------------------------------------------------------------
// Numbers

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
// Moves: the shapes chess can play (coordinates with an optional promotion to Q, R, B or N;
// SAN; castling words). Every shape but castling contains a rank digit and command words
// contain none, so a command word can never be taken for a move.

fn check_mark(input: &str) -> IResult<&str, Option<char>> {
    opt(one_of("+#"))(input)
}

/// `O-O`, `O-O-O` (letter O, as XBoard sends), the digit-zero and lower-case spellings.
fn castling(input: &str) -> IResult<&str, &str> {
    let long_or_short = alt((
        tag("O-O-O"),
        tag("O-O"),
        tag("0-0-0"),
        tag("0-0"),
        tag("o-o-o"),
        tag("o-o"),
    ));
    recognize(pair(long_or_short, check_mark))(input)
}

/// `e2e4`, `e7e8q`, `e7e8=Q`.
fn coordinate_move_or_equals_promotion(input: &str) -> IResult<&str, &str> {
    let equals_promotion = recognize(tuple((square, square, char('='), promotion_piece)));
    alt((equals_promotion, coordinate_move))(input)
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
    let promotion = pair(opt(char('=')), promotion_piece);
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
        all_consuming(coordinate_move_or_equals_promotion),
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
mod tests;
