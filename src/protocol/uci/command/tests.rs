//! Table-driven tests of the UCI parser: every command, every parameter, every error kind.

use super::*;

fn command(line: &str) -> Command {
    match parse_command(line) {
        Ok(Some(command)) => command,
        other => panic!("{line:?} should parse to a command, got {other:?}"),
    }
}

fn error(line: &str) -> ParseError {
    match parse_command(line) {
        Err(error) => error,
        other => panic!("{line:?} should be rejected, got {other:?}"),
    }
}

fn option(name: &str, value: Option<&str>) -> Command {
    Command::SetOption {
        name: name.to_string(),
        value: value.map(str::to_string),
    }
}

fn position(start: StartPosition, moves: &[&str]) -> Command {
    Command::Position {
        start,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    }
}

fn fen(text: &str) -> StartPosition {
    StartPosition::Fen(text.to_string())
}

fn go(parameters: GoParameters) -> Command {
    Command::Go(parameters)
}

const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn commands_without_arguments() {
    let table = [
        ("uci", Command::Uci),
        ("isready", Command::IsReady),
        ("ucinewgame", Command::UciNewGame),
        ("stop", Command::Stop),
        ("ponderhit", Command::PonderHit),
        ("quit", Command::Quit),
        ("register later", Command::Register),
        ("register name Joe code 4359874324", Command::Register),
        ("register", Command::Register),
        ("debug on", Command::Debug(true)),
        ("debug off", Command::Debug(false)),
    ];
    for (line, expected) in table {
        assert_eq!(command(line), expected, "{line}");
        let padded = format!("  {line} \r\n");
        assert_eq!(command(&padded), expected, "{padded:?}");
        let extra = format!("{line} extra 1 2");
        assert_eq!(command(&extra), expected, "{extra}");
    }
}

#[test]
fn blank_lines_are_none() {
    for line in ["", " ", "\t", "\r\n", "  \t \r"] {
        assert_eq!(parse_command(line), Ok(None), "{line:?}");
    }
}

#[test]
fn unknown_words_before_a_command_are_skipped() {
    let table = [
        ("joho debug on", Command::Debug(true)),
        ("x y isready", Command::IsReady),
        ("hello uci", Command::Uci),
    ];
    for (line, expected) in table {
        assert_eq!(command(line), expected, "{line}");
    }
}

#[test]
fn commands_are_case_sensitive() {
    for line in ["UCI", "IsReady", "Go depth 3", "QUIT"] {
        assert_eq!(error(line).kind(), ParseErrorKind::UnknownCommand, "{line}");
    }
}

#[test]
fn setoption_names_and_values() {
    let table = [
        ("setoption name Hash value 128", option("Hash", Some("128"))),
        ("setoption name Clear Hash", option("Clear Hash", None)),
        (
            "setoption name Move Overhead value 100",
            option("Move Overhead", Some("100")),
        ),
        (
            "setoption   name  Move\tOverhead   value  100 ",
            option("Move Overhead", Some("100")),
        ),
        (
            "setoption name SyzygyPath value /a path/with spaces",
            option("SyzygyPath", Some("/a path/with spaces")),
        ),
        ("setoption name Ponder value", option("Ponder", Some(""))),
        (
            "setoption name MultiPV value 3",
            option("MultiPV", Some("3")),
        ),
        (
            "setoption name UCI_AnalyseMode value true",
            option("UCI_AnalyseMode", Some("true")),
        ),
    ];
    for (line, expected) in table {
        assert_eq!(command(line), expected, "{line}");
    }
}

#[test]
fn positions() {
    let table = [
        ("position startpos", position(StartPosition::StartPos, &[])),
        (
            "position startpos moves",
            position(StartPosition::StartPos, &[]),
        ),
        (
            "position startpos moves e2e4 e7e5 g1f3",
            position(StartPosition::StartPos, &["e2e4", "e7e5", "g1f3"]),
        ),
        (
            "position startpos moves e7e8q a2a1N 0000",
            position(StartPosition::StartPos, &["e7e8q", "a2a1N", "0000"]),
        ),
        (
            &format!("position fen {START_FEN}"),
            position(fen(START_FEN), &[]),
        ),
        (
            &format!("position fen {START_FEN} moves d2d4"),
            position(fen(START_FEN), &["d2d4"]),
        ),
        (
            "position fen 8/8/8/8/8/8/8/K6k  w  -  - moves a1b1",
            position(fen("8/8/8/8/8/8/8/K6k w - -"), &["a1b1"]),
        ),
    ];
    for (line, expected) in table {
        assert_eq!(command(line), expected, "{line}");
    }
}

#[test]
fn go_parameters() {
    let table = [
        ("go", GoParameters::default()),
        (
            "go wtime 300000 btime 299000 winc 2000 binc 1000 movestogo 40",
            GoParameters {
                wtime: Some(300_000),
                btime: Some(299_000),
                winc: Some(2000),
                binc: Some(1000),
                movestogo: Some(40),
                ..GoParameters::default()
            },
        ),
        (
            "go wtime -150 btime 10",
            GoParameters {
                wtime: Some(-150),
                btime: Some(10),
                ..GoParameters::default()
            },
        ),
        (
            "go depth 12",
            GoParameters {
                depth: Some(12),
                ..GoParameters::default()
            },
        ),
        (
            "go nodes 1000000",
            GoParameters {
                nodes: Some(1_000_000),
                ..GoParameters::default()
            },
        ),
        (
            "go mate 3",
            GoParameters {
                mate: Some(3),
                ..GoParameters::default()
            },
        ),
        (
            "go movetime 2500",
            GoParameters {
                movetime: Some(2500),
                ..GoParameters::default()
            },
        ),
        (
            "go infinite",
            GoParameters {
                infinite: true,
                ..GoParameters::default()
            },
        ),
        (
            "go ponder wtime 1000 btime 1000",
            GoParameters {
                ponder: true,
                wtime: Some(1000),
                btime: Some(1000),
                ..GoParameters::default()
            },
        ),
        (
            "go searchmoves e2e4 d2d4 infinite",
            GoParameters {
                searchmoves: vec!["e2e4".into(), "d2d4".into()],
                infinite: true,
                ..GoParameters::default()
            },
        ),
        (
            "go infinite searchmoves g1f3",
            GoParameters {
                searchmoves: vec!["g1f3".into()],
                infinite: true,
                ..GoParameters::default()
            },
        ),
        (
            "go searchmoves",
            GoParameters {
                ..GoParameters::default()
            },
        ),
        (
            "go depth 5 frobnicate 7 infinite",
            GoParameters {
                depth: Some(5),
                infinite: true,
                ..GoParameters::default()
            },
        ),
    ];
    for (line, expected) in table {
        assert_eq!(command(line), go(expected), "{line}");
    }
}

#[test]
fn every_error_kind() {
    use ParseErrorKind::*;
    // (line, kind, subject)
    let table = [
        ("foo", UnknownCommand, "foo"),
        ("xboard", UnknownCommand, "xboard"),
        ("protover 2", UnknownCommand, "protover"),
        ("debug", MissingArgument, "debug"),
        ("debug maybe", InvalidDebugSwitch, "maybe"),
        ("setoption", InvalidSetOption, "setoption"),
        (
            "setoption Hash value 1",
            InvalidSetOption,
            "setoption Hash value 1",
        ),
        ("setoption name", InvalidSetOption, "setoption name"),
        (
            "setoption name value 3",
            InvalidSetOption,
            "setoption name value 3",
        ),
        ("position", MissingArgument, "position"),
        ("position fen", MissingArgument, "position fen"),
        (
            "position fen moves e2e4",
            MissingArgument,
            "position fen moves e2e4",
        ),
        ("position start", InvalidPosition, "position start"),
        (
            "position startpos e2e4",
            InvalidPosition,
            "position startpos e2e4",
        ),
        ("position startpos moves e2e4 Nf3", InvalidMove, "Nf3"),
        ("position startpos moves e2e9", InvalidMove, "e2e9"),
        ("position startpos moves e7e8k", InvalidMove, "e7e8k"),
        ("go depth", MissingArgument, "go depth"),
        ("go wtime", MissingArgument, "go wtime"),
        ("go depth x", InvalidNumber, "x"),
        ("go depth -3", InvalidNumber, "-3"),
        ("go nodes 1.5", InvalidNumber, "1.5"),
        ("go movetime 10s", InvalidNumber, "10s"),
        (
            "go wtime 99999999999999999999",
            NumberOutOfRange,
            "99999999999999999999",
        ),
        ("go depth 4294967296", NumberOutOfRange, "4294967296"),
        ("go mate 99999999999", NumberOutOfRange, "99999999999"),
    ];
    for (line, kind, subject) in table {
        let e = error(line);
        assert_eq!((e.kind(), e.subject()), (kind, subject), "{line}");
    }
}

#[test]
fn replies_are_single_info_string_lines() {
    for line in ["foo\u{7}bar", "go depth \u{1b}x", "debug \u{0}"] {
        let reply = error(line).reply();
        assert!(reply.starts_with("info string error ("), "{reply:?}");
        assert!(!reply.chars().any(char::is_control), "{reply:?}");
        assert_eq!(error(line).to_string(), reply);
    }
    assert_eq!(
        error("go depth x").reply(),
        "info string error (invalid number): x"
    );
}

#[test]
fn odd_input_never_panics() {
    let samples = [
        "go searchmoves e2e4 e2e4 e2e4",
        "position fen ♞ moves",
        "setoption name 😀 value 😀",
        "go wtime +5 btime +0",
        "\u{feff}uci",
        "go depth 0",
        "position startpos moves moves",
    ];
    for line in samples {
        let _ = parse_command(line);
    }
    assert_eq!(
        command("go wtime +5"),
        go(GoParameters {
            wtime: Some(5),
            ..GoParameters::default()
        })
    );
    assert_eq!(
        error("position startpos moves moves").kind(),
        ParseErrorKind::InvalidMove
    );
}
