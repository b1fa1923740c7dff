//! The command line through the real binary: help, version, options, bench, epd.

use crate::common;

use common::run_ironwood;

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
