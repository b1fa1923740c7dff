//! The command line through the real binary (help, version, options, bench, epd) and
//! through its parser (`ironwood::cli::parse`): every subcommand, flag, default and mistake.

use crate::common;

use std::path::PathBuf;

use common::run_ironwood;
use ironwood::cli::{
    self, AdjudicationRules, Cli, CorpusCommand, DatagenArgs, SpsaArgs, Subcommand,
};
use ironwood::logging::{LogLevel, MB};
use ironwood::protocol::Protocol;
use ironwood::tools::corpus::filter::{Filter, Starts};
use ironwood::tools::datagen::Adjudication;
use ironwood::tools::{train, tune};

#[test]
fn help_lists_subcommands_and_options() {
    for flag in ["--help", "-h"] {
        let (code, out, _) = run_ironwood(&[flag]);
        assert_eq!(code, 0);
        for word in [
            "perft",
            "bench",
            "epd",
            "--hash",
            "--threads",
            "--move-overhead",
            "--log-dir",
            "xboard",
        ] {
            assert!(out.contains(word), "{word} missing from help: {out}");
        }
    }
}

#[test]
fn version() {
    for flag in ["--version", "-V"] {
        let (code, out, _) = run_ironwood(&[flag]);
        assert_eq!(code, 0);
        assert_eq!(out, format!("ironwood {}\n", ironwood::version()));
    }
}

#[test]
fn usage_mistakes_exit_2_with_a_message() {
    for args in [
        &["--bogus"][..],
        &["--hash"],
        &["--hash", "x"],
        &["perft"],
        &["frobnicate"],
        &["bench", "--fast"],
    ] {
        let (code, out, err) = run_ironwood(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains("ironwood:"), "{args:?}: {err}");
    }
}

#[test]
fn bench_prints_positions_then_the_summary_then_the_openbench_line() {
    let (code, out, _) = run_ironwood(&["bench", "2"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() > 10, "{out}");
    assert!(lines[0].starts_with("position  1 "), "{out}");
    let summary: Vec<&str> = lines[lines.len() - 2].split_whitespace().collect();
    assert_eq!(summary[0], "nodes");
    assert_eq!(summary[2], "time_ms");
    assert_eq!(summary[4], "nps");
    // OpenBench's last line: `N nodes N nps`, the same figures as the summary.
    let last: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    assert_eq!(last.len(), 4, "{out}");
    assert_eq!(
        (last[0], last[1], last[2], last[3]),
        (summary[1], "nodes", summary[5], "nps")
    );
    // Deterministic signature.
    let (_, again, _) = run_ironwood(&["bench", "2"]);
    assert_eq!(
        again.lines().last().unwrap().split_whitespace().next(),
        Some(last[0])
    );
}

/// `--option` reaches every option through the setter `setoption` uses, the lab's too, so
/// `bench` counts the nodes of a search with a switch flipped; a name or value the engine
/// does not take ends the tool with the reason.
#[test]
fn any_option_is_set_from_the_command_line() {
    let nodes = |args: &[&str]| {
        let (code, out, err) = run_ironwood(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        out.lines()
            .last()
            .unwrap()
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    };
    let default = nodes(&["bench", "4"]);
    assert_eq!(
        nodes(&["--option", "Null Move=true", "bench", "4"]),
        default
    );
    let without = nodes(&["--option", "null move=OFF", "bench", "4"]);
    assert_ne!(without, default);
    // Later ones win, as a GUI's later `setoption` does.
    let both = [
        "--option",
        "Null Move=false",
        "--option",
        "Null Move=true",
        "bench",
        "4",
    ];
    assert_eq!(nodes(&both), default);
    for (args, why) in [
        (
            &["--option", "No Such Switch=true", "bench", "2"][..],
            "no such option",
        ),
        (
            &["--option", "Null Move=maybe", "bench", "2"],
            "Null Move=maybe: refused",
        ),
        (
            &["--option", "Hash=0", "bench", "2"],
            "--option Hash=0: outside",
        ),
    ] {
        let (code, out, err) = run_ironwood(args);
        assert_eq!(code, 1, "{args:?}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(why), "{args:?}: {err}");
    }
    let c = parse("--option A=b=c --option X= bench 2").unwrap();
    assert_eq!(
        c.options.option,
        [
            ("A".to_string(), "b=c".to_string()),
            ("X".to_string(), String::new())
        ]
    );
}

#[test]
fn epd_suite_counts_solved_positions() {
    let dir = std::env::temp_dir().join(format!("ironwood-epd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("suite.epd");
    std::fs::write(
        &file,
        "# comment\n\
         6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; dm 1; id \"back rank\";\n\
         6k1/5ppp/8/8/8/8/8/R5K1 w - - am Ra8#; id \"avoid the mate\";\n\
         k7/8/1K6/8/8/8/8/7R w - - dm 1; id \"rook mate\";\n\
         not a position\n",
    )
    .unwrap();
    let (code, out, _) = run_ironwood(&["epd", file.to_str().unwrap(), "--ms", "200"]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines[0].contains("back rank ok"), "{out}");
    assert!(lines[1].contains("avoid the mate FAIL"), "{out}");
    assert!(lines[2].contains("rook mate ok"), "{out}");
    assert!(lines[3].contains("FAIL"), "{out}");
    assert_eq!(lines[4], "solved 2 of 4");
}

#[test]
fn epd_missing_file_fails() {
    let (code, _, err) = run_ironwood(&["epd", "/nonexistent/file.epd"]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read"), "{err}");
}

fn parse(line: &str) -> Result<Cli, cli::CliError> {
    let args: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    cli::parse(&args)
}

fn command(line: &str) -> Subcommand {
    parse(line).unwrap().command.unwrap()
}

#[test]
fn help_fits_the_terminal_and_names_every_global_flag_once() {
    let (_, top, _) = run_ironwood(&["--help"]);
    for flag in [
        "--hash",
        "--threads",
        "--move-overhead",
        "--log-dir",
        "--log-level",
        "--log-max-mb",
        "--log-keep-mb",
        "--protocol",
        "--evaluation",
        "--eval-file",
        "--driver",
        "--tunables",
        "--option",
    ] {
        assert_eq!(
            top.matches(&format!(" {flag} ")).count() + top.matches(&format!(" {flag}\n")).count(),
            1,
            "{flag}: {top}"
        );
    }
    let commands = [
        "perft", "bench", "params", "epd", "datagen", "spsa", "corpus", "tune", "train",
    ];
    for name in commands {
        assert!(top.contains(&format!("\n  {name}\n")), "{name}: {top}");
    }
    let (_, train, _) = run_ironwood(&["train", "-h"]);
    assert!(train.contains("--lr-end <X>"), "{train}");
    assert!(train.contains("[default: 0.000001]"), "{train}");
    let (_, datagen, _) = run_ironwood(&["datagen", "-h"]);
    assert!(
        datagen.contains("soft node limit per move [default: 5000]"),
        "{datagen}"
    );
    for args in [
        &["--help"][..],
        &["-h"],
        &["corpus", "stats", "--help"],
        &["spsa", "-h"],
    ] {
        let (code, out, _) = run_ironwood(args);
        assert_eq!(code, 0, "{args:?}");
        for line in out.lines() {
            assert!(line.chars().count() <= 92, "{args:?}: {line}");
        }
    }
}

#[test]
fn global_options_are_read_before_or_after_the_subcommand() {
    let c = parse("--hash 128 --threads 2 --move-overhead 50 --log-dir /tmp/x").unwrap();
    assert_eq!(c.command, None);
    assert_eq!(c.options.hash_mb, Some(128));
    assert_eq!(c.options.threads, Some(2));
    assert_eq!(c.options.move_overhead_ms, Some(50));
    assert_eq!(c.options.log_dir, Some(PathBuf::from("/tmp/x")));
    assert_eq!(parse("--hash=32").unwrap().options.hash_mb, Some(32));
    // A flag given twice (a script's default, then the user's): the last one counts.
    assert_eq!(
        parse("--hash 8 bench --hash 16").unwrap().options.hash_mb,
        Some(16)
    );
    match command("spsa --state s.tsv --pairs 4 --pairs 3") {
        Subcommand::Spsa(args) => assert_eq!(args.pairs, Some(3)),
        other => panic!("{other:?}"),
    }
    let c = parse("--log-max-mb 0.5 --log-keep-mb=3 --log-level protocol").unwrap();
    assert_eq!(c.options.log_max_bytes, Some(MB / 2));
    assert_eq!(c.options.log_keep_bytes, Some(3 * MB));
    assert_eq!(c.options.log_level, Some(LogLevel::Protocol));
    assert_eq!(c.options.protocol, None);
    assert_eq!(
        parse("--protocol uci").unwrap().options.protocol,
        Some(Protocol::Uci)
    );
    assert_eq!(
        parse("--protocol=xboard").unwrap().options.protocol,
        Some(Protocol::Xboard)
    );
    let c = parse("bench 5 --driver iterative --hash 8 --tunables").unwrap();
    assert_eq!(c.command, Some(Subcommand::Bench { depth: 5 }));
    assert_eq!(c.options.driver, Some("iterative"));
    assert_eq!(c.options.hash_mb, Some(8));
    assert!(c.options.tunables);
    for line in [
        "bench 1 --log-level=info",
        "bench 1 --protocol=uci",
        "bench 1 --evaluation=classical",
        "bench 1 --eval-file=x",
        "bench 1 --log-dir=x",
        "bench 1 --log-max-mb=2",
        "corpus verify --threads 2",
        "train --data d --out o --move-overhead 3",
    ] {
        assert!(parse(line).is_ok(), "{line}");
    }
}

#[test]
fn help_and_version_end_the_parse_with_status_0() {
    for line in [
        "--help",
        "-h",
        "bench -h",
        "help",
        "help bench",
        "-V",
        "--version",
    ] {
        let error = parse(line).unwrap_err();
        assert_eq!(error.exit_code(), 0, "{line}");
    }
}

#[test]
fn subcommands_and_their_defaults() {
    let perft = |line: &str| match command(line) {
        Subcommand::Perft(p) => (p.depth, p.fen.join(" "), p.epd, p.max_depth),
        other => panic!("{other:?}"),
    };
    assert_eq!(perft("perft 3"), (Some(3), String::new(), None, None));
    assert_eq!(
        perft("perft 2 8/8/8/8/8/8/8/K6k w - - 0 1").1,
        "8/8/8/8/8/8/8/K6k w - - 0 1"
    );
    assert_eq!(
        perft("perft --epd f.epd --max-depth 3"),
        (None, String::new(), Some(PathBuf::from("f.epd")), Some(3))
    );
    assert_eq!(command("bench"), Subcommand::Bench { depth: 11 });
    assert_eq!(command("bench 5"), Subcommand::Bench { depth: 5 });
    assert_eq!(
        command("epd m.epd --ms 200"),
        Subcommand::Epd {
            file: PathBuf::from("m.epd"),
            ms: 200
        }
    );
    assert_eq!(
        command("--hash 16 epd m.epd"),
        Subcommand::Epd {
            file: PathBuf::from("m.epd"),
            ms: 1000
        }
    );
    assert_eq!(
        command("--threads 2 datagen --out d.bin --games 4 --nodes 900 --seed 7"),
        Subcommand::Datagen(DatagenArgs {
            out: PathBuf::from("d.bin"),
            games: Some(4),
            nodes: 900,
            seed: Some(7),
            openings: None,
            dfrc_percent: ironwood::tools::datagen::DEFAULT_DFRC_PERCENT,
            adjudication: None,
        })
    );
    let datagen = |line: &str| match command(line) {
        Subcommand::Datagen(args) => (args.dfrc_percent, args.adjudication),
        other => panic!("{line}: {other:?}"),
    };
    assert_eq!(
        datagen("datagen --out d.bin --dfrc-share 0 --adjudication off"),
        (0, Some(AdjudicationRules(None)))
    );
    assert_eq!(
        datagen("datagen --out d.bin --dfrc-share 100 --adjudication 2000,4,10,8,80"),
        (
            100,
            Some(AdjudicationRules(Some(Adjudication {
                win_score: 2000,
                ..Adjudication::DEFAULT
            })))
        )
    );
    assert_eq!(
        command("spsa --state s.tsv --params rfpmargin,LmrBase --pairs 4 --stop-after 2"),
        Subcommand::Spsa(SpsaArgs {
            state: PathBuf::from("s.tsv"),
            params: Some(vec!["RfpMargin", "LmrBase"]),
            pairs: Some(4),
            nodes: None,
            seed: None,
            openings: None,
            out: None,
            stop_after: Some(2),
        })
    );
    let Subcommand::Tune(tune) =
        command("--threads 2 tune --data a.bin --data=b.bin --out w.rs --epochs 3 --lambda 0.25")
    else {
        panic!("not tune");
    };
    assert_eq!(
        tune.config(2),
        tune::TuneConfig {
            data: vec![PathBuf::from("a.bin"), PathBuf::from("b.bin")],
            filter: Filter::default(),
            out: PathBuf::from("w.rs"),
            epochs: 3,
            batch: tune::DEFAULT_BATCH,
            learning_rate: tune::DEFAULT_LEARNING_RATE,
            lambda: 0.25,
            seed: 0,
            threads: 2,
            holdout: 0.0,
            l2: 0.0,
            resolve: false,
            min_positions: 0,
        }
    );
}

#[test]
fn corpus_commands_filters_and_the_trainers_choices() {
    assert_eq!(
        command("corpus add a.iwc b.iwc --dir c"),
        Subcommand::Corpus(CorpusCommand::Add {
            dir: PathBuf::from("c"),
            outputs: vec![PathBuf::from("a.iwc"), PathBuf::from("b.iwc")]
        })
    );
    assert_eq!(
        command("corpus verify"),
        Subcommand::Corpus(CorpusCommand::Verify {
            dir: PathBuf::from("corpus")
        })
    );
    let Subcommand::Corpus(CorpusCommand::Stats { paths, filter }) = command("corpus stats") else {
        panic!("not stats");
    };
    assert_eq!(
        (paths, filter.filter()),
        (vec![PathBuf::from("corpus")], Filter::default())
    );
    let kept = Filter {
        min_ply: 16,
        skip_in_check: false,
        skip_tactical: false,
        max_score: 3000,
        ..Filter::default()
    };
    let Subcommand::Corpus(CorpusCommand::Stats { paths, filter }) =
        command("corpus stats x.iwc --min-ply 16 --keep-check --keep-tactical --max-score=3000")
    else {
        panic!("not stats");
    };
    assert_eq!(
        (paths, filter.filter()),
        (vec![PathBuf::from("x.iwc")], kept)
    );
    let train = |line: &str| match command(line) {
        Subcommand::Train(t) => t.config(1),
        other => panic!("{other:?}"),
    };
    let plain = train(
        "train --data corpus --out n.nnue --min-ply 16 --keep-check --keep-tactical --max-score 3000",
    );
    assert_eq!(plain.filter, kept);
    let chosen_games =
        train("train --data corpus --out n.nnue --starts standard --game-share 0.85");
    assert_eq!(
        (
            chosen_games.filter.starts,
            chosen_games.filter.games_per_million
        ),
        (Starts::Standard, 850_000)
    );
    assert_eq!(
        train("train --data corpus --out n.nnue --starts chess960")
            .filter
            .starts,
        Starts::Chess960
    );
    assert_eq!(
        (
            plain.output_buckets,
            plain.activation,
            plain.lr_schedule,
            plain.lr_end
        ),
        (
            1,
            ironwood::nnue::Activation::ClippedRelu,
            train::LrSchedule::Step,
            train::DEFAULT_LR_END
        )
    );
    let chosen = train(
        "train --data corpus --out n.nnue --output-buckets 8 --activation screlu \
         --lr-schedule cosine --lr-end 0.00001 --hidden 256",
    );
    assert_eq!(chosen.output_buckets, 8);
    assert_eq!(chosen.hidden, 256);
    assert_eq!(
        chosen.activation,
        ironwood::nnue::Activation::SquaredClippedRelu
    );
    assert_eq!(chosen.lr_schedule, train::LrSchedule::Cosine);
    assert_eq!((chosen.lambda, chosen.lambda_end), (0.1, 0.1));
    let moving = train("train --data corpus --out n.nnue --lambda 0.2 --lambda-end 0.3");
    assert_eq!((moving.lambda, moving.lambda_end), (0.2, 0.3));
    assert_eq!(chosen.lr_end, 0.00001);
    assert_eq!(
        chosen.input_transform,
        ironwood::nnue::InputTransform::Plain
    );
    let mirrored = train("train --data corpus --out n.nnue --mirror-inputs --flip-files");
    assert_eq!(
        mirrored.input_transform,
        ironwood::nnue::InputTransform::MirroredByKingFile
    );
    // Mirrored inputs see a position and its a-h mirror alike: no doubling.
    assert!(mirrored.flip_files && !mirrored.flips_files());
}

#[test]
fn mistakes_are_usage_errors_not_panics() {
    for line in [
        "--bogus",
        "-x",
        "--hash",
        "--hash abc",
        "--hash 0",
        "--threads 0",
        "--threads 100000",
        "--move-overhead -5",
        "--move-overhead 5001",
        "--move-overhead 18446744073709551616",
        "--hash 1048577",
        "--threads 257",
        "epd f --ms 2592000001",
        "perft",
        "perft x",
        "perft 99",
        "perft 3 --fast",
        "perft --epd",
        "perft --epd f --max-depth",
        "perft --epd f --what",
        "perft --epd f 3",
        "perft 3 --max-depth 2",
        "bench x",
        "bench 3 4",
        "bench --fast",
        "bench --driver",
        "bench --driver Iterative",
        "epd",
        "epd f --ms",
        "epd f --ms 0",
        "epd f g",
        "frobnicate",
        "--log-dir=",
        "--log-level loud",
        "--log-level",
        "--log-max-mb 0",
        "--log-max-mb -1",
        "--log-max-mb NaN",
        "--log-max-mb inf",
        "--log-keep-mb 0.0001",
        "--tunables=1",
        "--option",
        "--option Null",
        "--option =1",
        "bench 2 --option",
        "datagen",
        "datagen --out",
        "datagen --out f --games 0",
        "datagen --out f --nodes x",
        "datagen --out f extra",
        "datagen --out f --dfrc-share 101",
        "datagen --out f --dfrc-share -1",
        "datagen --out f --dfrc-share 15%",
        "datagen --out f --adjudication on",
        "datagen --out f --adjudication 1000,4,10,8",
        "spsa",
        "spsa --state",
        "spsa --state s --params Bogus",
        "spsa --state s --params RfpMargin,rfpmargin",
        "spsa --state s --params RfpMargin,",
        "spsa --state s --pairs 0",
        "spsa --state s --stop-after x",
        "params extra",
        "corpus",
        "corpus list",
        "corpus add",
        "corpus verify extra",
        "corpus verify --out x",
        "corpus stats --dir d",
        "corpus stats --min-ply x",
        "corpus stats --starts fischer",
        "corpus stats --game-share 0",
        "corpus stats --game-share 1.5",
        "corpus stats --game-share NaN",
        "corpus convert old.bin --out new.iwc",
        "tune --data d.iwc --out w.rs --max-score",
        "tune",
        "tune --data d.bin",
        "tune --out w.rs",
        "tune --data d.bin --out w.rs --lambda 2",
        "tune --data d.bin --out w.rs --lr 0",
        "tune --data d.bin --out w.rs --batch 0",
        "tune --data d.bin --out w.rs --holdout 1",
        "tune --data d.bin --out w.rs --l2 -1",
        "train --data d.iwc --out n.nnue --output-buckets 4",
        "train --data d.iwc --out n.nnue --hidden 100",
        "train --data d.iwc --out n.nnue --hidden 0",
        "train --data d.iwc --out n.nnue --hidden 2048",
        "train --data d.iwc --out n.nnue --activation relu",
        "train --data d.iwc --out n.nnue --lr-schedule linear",
        "train --data d.iwc --out n.nnue --lr-end -1",
        "train --data d.iwc --out n.nnue --lambda-end 1.5",
        "--protocol",
        "--protocol cecp",
        "--evaluation neural",
        "--driver sideways",
    ] {
        let error = parse(line)
            .err()
            .unwrap_or_else(|| panic!("{line}: accepted"));
        assert_eq!(error.exit_code(), 2, "{line}");
    }
    let (code, out, err) =
        run_ironwood(&["spsa", "--state", "s", "--params", "RfpMargin,RfpMargin"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with("ironwood: ") && err.contains("RfpMargin twice"),
        "{err}"
    );
}
