//! The parser's cases as tables: an input line and the command it must give, or the exact
//! `Error (...)` reply it must get.

use super::*;

/// What one line must parse to.
enum Expected {
    Parsed(Command),
    Reply(&'static str),
}

fn ok(line: &'static str, command: Command) -> (&'static str, Expected) {
    (line, Expected::Parsed(command))
}

fn err(line: &'static str, reply: &'static str) -> (&'static str, Expected) {
    (line, Expected::Reply(reply))
}

/// Runs a table, naming the line of the first mismatch.
fn check(cases: Vec<(&'static str, Expected)>) {
    for (line, expected) in cases {
        match (parse_command(line), expected) {
            (Ok(Some(got)), Expected::Parsed(want)) => assert_eq!(got, want, "{line:?}"),
            (Err(error), Expected::Reply(want)) => assert_eq!(error.reply(), want, "{line:?}"),
            (got, Expected::Parsed(want)) => panic!("{line:?}: want {want:?}, got {got:?}"),
            (got, Expected::Reply(want)) => panic!("{line:?}: want {want:?}, got {got:?}"),
        }
    }
}

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
        "protover", "accepted", "rejected", "variant", "level", "st", "sd", "depth", "nps", "time",
        "otim", "usermove", "ping", "result", "setboard", "name", "rating", "ics", "memory",
        "cores", "egtpath", "option", "exclude", "include",
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
    check(vec![
        ok("new\r\n", Command::New),
        ok("new\r", Command::New),
        ok("   go   ", Command::Go),
        ok("\tlevel \t 40   5\t\t0 \r\n", level(40, 300_000, 0)),
        ok("ping   42\r", Command::Ping("42".to_string())),
        ok("usermove\te2e4\r\n", user_move("e2e4")),
        ok("e2e4\r\n", user_move("e2e4")),
    ]);
}

#[test]
fn commands_are_case_sensitive() {
    check(vec![
        err("NEW", "Error (unknown command): NEW"),
        err("Quit", "Error (unknown command): Quit"),
        err("Ping 5", "Error (unknown command): Ping"),
    ]);
}

#[test]
fn unknown_command_reply_names_only_the_word() {
    check(vec![
        err("foo", "Error (unknown command): foo"),
        err("foo bar baz", "Error (unknown command): foo"),
        err("  setscore 10 5 ", "Error (unknown command): setscore"),
        err("lift e2", "Error (unknown command): lift"),
    ]);
    assert_eq!(error_kind("foo"), ParseErrorKind::UnknownCommand);
}

#[test]
fn protover() {
    check(vec![
        ok("protover 2", Command::Protover(2)),
        ok("protover 3", Command::Protover(3)),
        err("protover", "Error (missing argument): protover"),
        err("protover -1", "Error (invalid number): protover -1"),
        err("protover two", "Error (invalid number): protover two"),
        err("protover 2.0", "Error (invalid number): protover 2.0"),
        err(
            "protover 99999999999",
            "Error (number out of range): protover 99999999999",
        ),
    ]);
}

#[test]
fn accepted_rejected_variant_ics() {
    check(vec![
        ok(
            "accepted usermove",
            Command::Accepted("usermove".to_string()),
        ),
        ok("rejected san", Command::Rejected("san".to_string())),
        ok(
            "variant fischerandom",
            Command::Variant("fischerandom".to_string()),
        ),
        ok(
            "ics freechess.org",
            Command::Ics("freechess.org".to_string()),
        ),
        ok("ics -", Command::Ics("-".to_string())),
        err("accepted", "Error (missing argument): accepted"),
        err("rejected  ", "Error (missing argument): rejected"),
        err("variant", "Error (missing argument): variant"),
        err("ics\r\n", "Error (missing argument): ics"),
    ]);
}

#[test]
fn level_classical_and_incremental() {
    check(vec![
        ok(
            "level 10000 43200 2592000",
            level(10_000, 2_592_000_000, 2_592_000_000),
        ),
        ok("level 40 5 0", level(40, 300_000, 0)),
        ok("level 0 2:30 1.5", level(0, 150_000, 1_500)),
        ok("level 0 0:10 0.1", level(0, 10_000, 100)),
        ok("level 0 1 0", level(0, 60_000, 0)),
        ok("level 40 0:30 0", level(40, 30_000, 0)),
        ok("level 0 0:23 2.0", level(0, 23_000, 2_000)),
        ok("level 0 2 0.5", level(0, 120_000, 500)),
        ok("level 0 0.5 0", level(0, 30_000, 0)),
        ok("level 40 90 30", level(40, 5_400_000, 30_000)),
        ok("level 0 0 0", level(0, 0, 0)),
    ]);
    // Both MPS and INC non-zero is unusual but valid.
}

#[test]
fn level_rounds_to_nearest_millisecond() {
    check(vec![
        ok("level 0 1 0.1", level(0, 60_000, 100)),
        ok("level 0 1 0.3", level(0, 60_000, 300)),
        ok("level 0 1 0.0005", level(0, 60_000, 1)),
        ok("level 0 1 0.0004999", level(0, 60_000, 0)),
        ok("level 0 1 .25", level(0, 60_000, 250)),
        ok("level 0 1 2.", level(0, 60_000, 2_000)),
        ok("level 0 0.1 0", level(0, 6_000, 0)),
        ok("level 0 1:0.5 0", level(0, 60_500, 0)),
        ok("level 0 0.333333 0", level(0, 20_000, 0)),
        ok(
            "level 0 1 0.1000000000000000000000000000000000001",
            level(0, 60_000, 100),
        ),
        ok("level 40 5 0 extra junk", level(40, 300_000, 0)),
    ]);
    // 0.333333 min = 19999.98 ms, rounded up rather than truncated to 19999.
    // Long fractions do not overflow.
}

#[test]
fn level_errors() {
    check(vec![
        err("level x y z", "Error (invalid level): level x y z"),
        err("level", "Error (missing argument): level"),
        err("level 40 5", "Error (missing argument): level 40 5"),
    ]);
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
        "level 10001 5 0",
        "level 0 43201 0",
        "level 0 5 2592001",
        "level 0 5 100000000000000",
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
    check(vec![
        ok("st 5", Command::St { ms: 5_000 }),
        ok("st 0.5", Command::St { ms: 500 }),
        ok("st 0.1", Command::St { ms: 100 }),
        ok("st 30", Command::St { ms: 30_000 }),
        ok("st 0", Command::St { ms: 0 }),
        err("st", "Error (missing argument): st"),
        err("st -1", "Error (invalid time): st -1"),
        err("st abc", "Error (invalid time): st abc"),
        err(
            "st 99999999999999999999",
            "Error (invalid time): st 99999999999999999999",
        ),
        ok("st 2592000", Command::St { ms: 2_592_000_000 }),
        err("st 2592000.001", "Error (invalid time): st 2592000.001"),
    ]);
}

#[test]
fn sd_and_depth() {
    check(vec![
        ok("sd 12", Command::Sd(12)),
        ok("depth 7", Command::Sd(7)),
        ok("sd 0", Command::Sd(0)),
        err("sd -3", "Error (invalid number): sd -3"),
        err("depth x", "Error (invalid number): depth x"),
        err(
            "sd 4294967296",
            "Error (number out of range): sd 4294967296",
        ),
        ok("sd 1000", Command::Sd(1000)),
        err("sd 1001", "Error (number out of range): sd 1001"),
        err("depth 5000", "Error (number out of range): depth 5000"),
    ]);
}

#[test]
fn nps_memory_cores() {
    check(vec![
        ok("nps 100000", Command::Nps(100_000)),
        ok("nps 0", Command::Nps(0)),
        ok("memory 256", Command::Memory(256)),
        ok("cores 8", Command::Cores(8)),
        err("nps -1", "Error (invalid number): nps -1"),
        err("memory -64", "Error (invalid number): memory -64"),
        err("memory 64MB", "Error (invalid number): memory 64MB"),
        err("cores -2", "Error (invalid number): cores -2"),
        err(
            "memory 18446744073709551616",
            "Error (number out of range): memory 18446744073709551616",
        ),
        err(
            "cores 99999999999",
            "Error (number out of range): cores 99999999999",
        ),
        ok("nps 1000000000", Command::Nps(1_000_000_000)),
        err(
            "nps 1000000001",
            "Error (number out of range): nps 1000000001",
        ),
        ok("memory 1", Command::Memory(1)),
        ok("memory 1048576", Command::Memory(1_048_576)),
        err("memory 0", "Error (number out of range): memory 0"),
        err(
            "memory 1048577",
            "Error (number out of range): memory 1048577",
        ),
        ok("cores 1", Command::Cores(1)),
        ok("cores 256", Command::Cores(256)),
        err("cores 0", "Error (number out of range): cores 0"),
        err("cores 257", "Error (number out of range): cores 257"),
    ]);
}

#[test]
fn time_and_otim_are_centiseconds() {
    check(vec![
        ok("time 12345", Command::Time(12_345)),
        ok("otim 6000", Command::Otim(6_000)),
        ok("time -200", Command::Time(-200)),
        ok("otim -1", Command::Otim(-1)),
        ok("time 0", Command::Time(0)),
        ok("time +5", Command::Time(5)),
        ok("time 123.4", Command::Time(123)),
        ok("time 123.5", Command::Time(124)),
        ok("otim -12.5", Command::Otim(-13)),
        err(
            "time -9223372036854775808",
            "Error (invalid time): time -9223372036854775808",
        ),
        // At most 30 days either side of zero.
        ok("time 259200000", Command::Time(259_200_000)),
        ok("otim -259200000", Command::Otim(-259_200_000)),
        err("time 259200001", "Error (invalid time): time 259200001"),
        err("otim -259200001", "Error (invalid time): otim -259200001"),
        err("time", "Error (missing argument): time"),
        err("otim abc", "Error (invalid time): otim abc"),
        err("time 1:00", "Error (invalid time): time 1:00"),
        err("time --5", "Error (invalid time): time --5"),
        err(
            "time 99999999999999999999999",
            "Error (invalid time): time 99999999999999999999999",
        ),
        err(
            "time 9223372036854775808",
            "Error (invalid time): time 9223372036854775808",
        ),
    ]);
    // Fractions are rounded half away from zero.
}

#[test]
fn usermove_takes_any_token() {
    check(vec![
        ok("usermove e2e4", user_move("e2e4")),
        ok("usermove e7e8q", user_move("e7e8q")),
        ok("usermove O-O", user_move("O-O")),
        ok("usermove junk!!", user_move("junk!!")),
        ok("usermove new", user_move("new")),
        ok("usermove z9z9 more", user_move("z9z9")),
        ok("usermove ♞", user_move("♞")),
        err("usermove", "Error (missing argument): usermove"),
        err("usermove   \r\n", "Error (missing argument): usermove"),
    ]);
}

#[test]
fn bare_coordinate_moves() {
    for text in [
        "e2e4", "g1f3", "a7a8q", "a7a8Q", "e7e8=q", "e7e8=Q", "h2h1n", "b7b8r", "c7c8b", "e1g1",
        "e1c1", "a1h8",
    ] {
        assert_eq!(command(text), user_move(text), "{text}");
    }
    check(vec![ok("e2e4 trailing", user_move("e2e4"))]);
}

#[test]
fn bare_castling_moves() {
    for text in [
        "O-O", "O-O-O", "0-0", "0-0-0", "O-O+", "O-O-O#", "o-o", "o-o-o",
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
        "e9",
        "i2i4",
        "e2e",
        "Nf",
        "nf3",
        "O-O-O-O",
        "e2e4,",
        "e2e4=",
        "e7e8x",
        "Pf3",
        "c",
        "b",
        "h",
        "x",
        "K",
        "Nf3x",
        "exd",
        "e4!",
        "e4e5e6",
        "O-0",
        "@@@",
        "p@h3",
        // Drops, null moves, multi-leg moves and king promotions are not chess moves.
        "P@h3",
        "N@f7",
        "@@@@",
        "c4d5,d5e4",
        "e7e8k",
        "e7e8=K",
        "e8=K",
        "exd8k",
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
    check(vec![
        ok("ping 123", Command::Ping("123".to_string())),
        ok("ping 0", Command::Ping("0".to_string())),
        ok("ping 007", Command::Ping("007".to_string())),
        ok(
            "ping 99999999999999999999",
            Command::Ping("99999999999999999999".to_string()),
        ),
        ok(
            "ping 1234567890123456789012345",
            Command::Ping("1234567890123456789012345".to_string()),
        ),
        ok("ping abc", Command::Ping("abc".to_string())),
        ok("ping -5", Command::Ping("-5".to_string())),
        ok("ping ♞", Command::Ping("♞".to_string())),
        ok("ping 7 extra", Command::Ping("7".to_string())),
        err("ping", "Error (missing argument): ping"),
        err("ping \t ", "Error (missing argument): ping"),
    ]);
}

fn result(result: GameResult, comment: &str) -> Command {
    Command::Result {
        result,
        comment: comment.to_string(),
    }
}

#[test]
fn result_tokens_and_comments() {
    check(vec![
        ok(
            "result 1-0 {White mates}",
            result(GameResult::WhiteWins, "White mates"),
        ),
        ok(
            "result 0-1 {Black mates}",
            result(GameResult::BlackWins, "Black mates"),
        ),
        ok(
            "result 1/2-1/2 {Draw by repetition}",
            result(GameResult::Draw, "Draw by repetition"),
        ),
        ok("result *", result(GameResult::Unfinished, "")),
        ok("result 1-0", result(GameResult::WhiteWins, "")),
        ok("result 1-0 {}", result(GameResult::WhiteWins, "")),
        ok(
            "result 0-1 { White resigns }\r\n",
            result(GameResult::BlackWins, "White resigns"),
        ),
        ok(
            "result 1-0 {White mates",
            result(GameResult::WhiteWins, "White mates"),
        ),
        ok(
            "result * adjourned by host",
            result(GameResult::Unfinished, "adjourned by host"),
        ),
        ok(
            "result 1/2-1/2 {Stalemate} trailing",
            result(GameResult::Draw, "Stalemate"),
        ),
    ]);
}

#[test]
fn result_errors() {
    check(vec![
        err("result", "Error (missing argument): result"),
        err("result 2-0", "Error (invalid result): result 2-0"),
        err(
            "result {White mates}",
            "Error (invalid result): result {White mates}",
        ),
        err("result 1-0-0", "Error (invalid result): result 1-0-0"),
        err("result 1/2", "Error (invalid result): result 1/2"),
        err("result 1-0{x}", "Error (invalid result): result 1-0{x}"),
    ]);
    // The result token must stand alone; XBoard always puts a space before the brace.
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
    check(vec![
        ok(
            "setboard not a fen",
            Command::SetBoard("not a fen".to_string()),
        ),
        err("setboard", "Error (missing argument): setboard"),
        err("setboard   \r\n", "Error (missing argument): setboard"),
    ]);
}

#[test]
fn name_and_rating() {
    check(vec![
        ok(
            "name Magnus Carlsen",
            Command::Name("Magnus Carlsen".to_string()),
        ),
        ok("name GuestXYZ", Command::Name("GuestXYZ".to_string())),
        err("name", "Error (missing argument): name"),
        ok(
            "rating 2100 1950",
            Command::Rating {
                own: 2100,
                opponent: 1950,
            },
        ),
        ok(
            "rating 0 0",
            Command::Rating {
                own: 0,
                opponent: 0,
            },
        ),
        ok(
            "rating -5 10",
            Command::Rating {
                own: -5,
                opponent: 10,
            },
        ),
        err("rating", "Error (missing argument): rating"),
        err("rating 2100", "Error (missing argument): rating 2100"),
        err("rating a b", "Error (invalid number): rating a b"),
        err(
            "rating 2100 1950.5",
            "Error (invalid number): rating 2100 1950.5",
        ),
        err(
            "rating 3000000000 0",
            "Error (number out of range): rating 3000000000 0",
        ),
    ]);
}

#[test]
fn egtpath() {
    check(vec![
        ok(
            "egtpath syzygy /home/me/my tables/syzygy",
            Command::EgtPath {
                kind: "syzygy".to_string(),
                path: "/home/me/my tables/syzygy".to_string(),
            },
        ),
        ok(
            "egtpath  gaviota  C:\\tb\\gtb  ",
            Command::EgtPath {
                kind: "gaviota".to_string(),
                path: "C:\\tb\\gtb".to_string(),
            },
        ),
        err("egtpath", "Error (missing argument): egtpath"),
        err("egtpath syzygy", "Error (missing argument): egtpath syzygy"),
    ]);
}

fn option(name: &str, value: Option<&str>) -> Command {
    Command::Option {
        name: name.to_string(),
        value: value.map(str::to_string),
    }
}

#[test]
fn option_name_and_value() {
    check(vec![
        ok(
            "option Move Overhead=50",
            option("Move Overhead", Some("50")),
        ),
        ok("option Clear Hash", option("Clear Hash", None)),
        ok("option Book File=", option("Book File", Some(""))),
        ok("option  Hash  =  64 \r\n", option("Hash", Some("64"))),
        ok("option a=b=c", option("a", Some("b=c"))),
        ok(
            "option Book File=/path/with spaces/book.bin",
            option("Book File", Some("/path/with spaces/book.bin")),
        ),
        err("option", "Error (missing argument): option"),
        err("option =5", "Error (invalid option): option =5"),
        err("option  = ", "Error (invalid option): option  ="),
    ]);
}

#[test]
fn exclude_and_include() {
    check(vec![
        ok("exclude all", Command::Exclude(MoveSelection::All)),
        ok("include all", Command::Include(MoveSelection::All)),
        ok(
            "exclude e2e4",
            Command::Exclude(MoveSelection::Move("e2e4".to_string())),
        ),
        ok(
            "include g1f3",
            Command::Include(MoveSelection::Move("g1f3".to_string())),
        ),
        ok(
            "exclude All",
            Command::Exclude(MoveSelection::Move("All".to_string())),
        ),
        err("exclude", "Error (missing argument): exclude"),
        err("include", "Error (missing argument): include"),
    ]);
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
    check(vec![
        err("foo\u{0}bar", "Error (unknown command): foo?bar"),
        err("level x\ry z", "Error (invalid level): level x y z"),
        err("sd x\ny", "Error (invalid number): sd x y"),
        err("\u{1b}[2J", "Error (unknown command): ?[2J"),
    ]);
}

#[test]
fn non_ascii_input() {
    check(vec![
        err("é4", "Error (unknown command): é4"),
        err("♞♞♞ x", "Error (unknown command): ♞♞♞"),
        err("sd ５", "Error (invalid number): sd ５"),
        err("st ½", "Error (invalid time): st ½"),
        ok("name Müller Ünal", Command::Name("Müller Ünal".to_string())),
        ok(
            "setboard 8/8/8/8/8/8/8/8 w - - 0 1 ♞",
            Command::SetBoard("8/8/8/8/8/8/8/8 w - - 0 1 ♞".to_string()),
        ),
    ]);
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
        '\u{feff}', '\u{fffd}', 'é', '♞', '😀', '５', '½', '=', ':', '.', '-', '+', '{', '}', '/',
        '@', ',', '#', '?', '0', '1', '8', '9', 'x', 'O', 'e', 'N', '*',
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
