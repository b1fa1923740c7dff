//! The Windows build, run under Wine (wine64, Debian): it is cross-built here with mingw
//! (`x86_64-pc-windows-gnu`, release settings without LTO so that it builds in about a
//! minute; the search is the same code), then checked: `--version`, lines without a
//! carriage return, the bench signature equal to the Linux binary's, the table cap from the
//! Windows memory call (not an assumed 4 GB), a scripted XBoard conversation with a move and
//! `pong`, a scripted UCI conversation at `go nodes 5000` whose last PV starts with the
//! `bestmove`, and two games against Stockfish through python-chess (`tests/clients/uci.py
//! --part stockfish`). Wine 8 lacks bcryptprimitives.dll, which Rust's std imports: the
//! test fixture `tests/wine/bcryptprimitives.c`, built with mingw next to `ironwood.exe`,
//! stands in for it. Without wine64, mingw or the Windows target the test says what is
//! missing and passes; with `CI` set (`.ci/run` installs all three) it fails instead. The
//! games part is skipped the same way without python-chess or Stockfish.

#![cfg(unix)]

use crate::common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Engine, in_ci, run_script, say, scratch_dir};
use ironwood::board::{Position, is_legal, parse_move};

const WINDOWS_TARGET: &str = "x86_64-pc-windows-gnu";
const MINGW_GCC: &str = "x86_64-w64-mingw32-gcc";
/// Wine's first start in a new prefix takes several seconds.
const WINE_START: Duration = Duration::from_secs(90);

/// wine64 on PATH, or where Debian's wine64 package puts it.
fn wine64() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("wine64"))
            .find(|p| p.is_file())
    });
    on_path.or_else(|| {
        let debian = PathBuf::from("/usr/lib/wine/wine64");
        debian.is_file().then_some(debian)
    })
}

fn runs(program: &str, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// Whether Rust's standard library for the Windows target is installed.
fn windows_target_installed() -> bool {
    let Ok(out) = Command::new("rustc").args(["--print", "sysroot"]).output() else {
        return false;
    };
    let sysroot = String::from_utf8_lossy(&out.stdout).trim().to_string();
    Path::new(&sysroot)
        .join("lib/rustlib")
        .join(WINDOWS_TARGET)
        .join("lib")
        .is_dir()
}

/// Runs `command` to its end; fails the test with its output when it does not succeed.
fn run(what: &str, command: &mut Command) -> std::process::Output {
    let out = command
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The node count and rate of `bench`'s last line (`N nodes X nps`).
fn bench_figures(stdout: &[u8]) -> (u64, u64) {
    let text = String::from_utf8_lossy(stdout);
    let last = text.lines().last().unwrap_or("");
    let words: Vec<&str> = last.split_whitespace().collect();
    match words.as_slice() {
        [nodes, "nodes", nps, "nps"] => (
            nodes.parse().expect("bench node count"),
            nps.parse().expect("bench node rate"),
        ),
        _ => panic!("unexpected bench line {last:?}"),
    }
}

/// The `max` of the `Hash` option in a UCI handshake.
fn hash_max(lines: &[String]) -> u64 {
    let line = lines
        .iter()
        .find(|l| l.starts_with("option name Hash type spin"))
        .expect("a Hash option");
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "max").expect("max");
    words[at + 1].parse().expect("a number")
}

struct Wine {
    wine64: PathBuf,
    prefix: PathBuf,
    exe: PathBuf,
}

/// A wineserver kept up for the prefix while the test runs, and stopped when it ends.
/// Otherwise each Wine process meets the server the last one left behind, which shuts down
/// a few seconds after its last client; once, under the loaded suite, the UCI session
/// started right after `bench` got no `uciok` within 90 s, and a start in that moment is
/// the likely cause.
struct WineServer {
    program: PathBuf,
    prefix: PathBuf,
}

impl WineServer {
    /// Starts the server for `prefix` (an empty folder is enough: the first Wine process fills
    /// it) to stay up 60 s past its last client, in case the guard never runs.
    fn start(wine64: &Path, prefix: &Path) -> WineServer {
        let beside = wine64.with_file_name("wineserver");
        let program = if beside.is_file() {
            beside
        } else {
            PathBuf::from("wineserver")
        };
        std::fs::create_dir_all(prefix).expect("create the Wine prefix folder");
        let server = WineServer {
            program,
            prefix: prefix.to_path_buf(),
        };
        let status = server
            .command("-p60")
            .status()
            .unwrap_or_else(|e| panic!("wineserver: cannot start: {e}"));
        assert!(status.success(), "wineserver -p60 failed ({status})");
        server
    }

    /// `wineserver FLAG` for the prefix. The server goes to the background holding whatever
    /// output it was given, so it gets none: waiting for a pipe's end would wait for it.
    fn command(&self, flag: &str) -> Command {
        let mut command = Command::new(&self.program);
        command
            .arg(flag)
            .env("WINEPREFIX", &self.prefix)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        command
    }
}

impl Drop for WineServer {
    fn drop(&mut self) {
        let _ = self.command("-k").status();
    }
}

impl Wine {
    /// The engine under Wine, sent `hello`, and its lines up to `last`. A Wine process that
    /// says nothing at all within `WINE_START` (seen once in CI, after earlier processes had
    /// run in the same prefix) is a Wine start that hung, not an engine fault: it is killed
    /// and started once more, saying so. An engine that answers but not with `last` within
    /// the same `WINE_START` fails at once.
    fn start_engine(&self, hello: &[&str], last: &str) -> (Engine, Vec<String>) {
        for attempt in 1..=2 {
            let logs = scratch_dir("wine-logs");
            let mut command = self.command();
            command.arg("--log-dir").arg(&logs);
            let started = Instant::now();
            let mut engine = Engine::start_command(command, logs);
            for line in hello {
                engine.send(line);
            }
            let Some(first) = engine.recv(WINE_START) else {
                let alive = engine.is_alive();
                let logs = engine.log_files();
                say(&format!(
                    "windows_wine: start {attempt} said nothing in {WINE_START:?} \
                     (process alive: {alive}, log files: {logs:?})"
                ));
                if attempt == 2 {
                    engine.fail(&format!("two Wine starts said nothing, waiting for {last}"));
                }
                continue;
            };
            let mut lines = vec![first];
            if lines[0] != last {
                let left = WINE_START.saturating_sub(started.elapsed());
                lines.extend(engine.until(last, left, |l| l == last));
            }
            return (engine, lines);
        }
        unreachable!("the second attempt returns or fails")
    }

    fn command(&self) -> Command {
        let mut command = Command::new(&self.wine64);
        command
            .arg(&self.exe)
            .env("WINEPREFIX", &self.prefix)
            .env("WINEDEBUG", "-all");
        command
    }
}

#[test]
fn the_windows_build_plays_under_wine() {
    let mut missing = Vec::new();
    let wine64 = wine64();
    if wine64.is_none() {
        missing.push("wine64 (apt-get install wine64)".to_string());
    }
    if !runs(MINGW_GCC, "--version") {
        missing.push(format!(
            "{MINGW_GCC} (apt-get install gcc-mingw-w64-x86-64)"
        ));
    }
    if !windows_target_installed() {
        missing.push(format!(
            "Rust's {WINDOWS_TARGET} target (rustup target add {WINDOWS_TARGET})"
        ));
    }
    if !missing.is_empty() {
        let why = missing.join(", ");
        assert!(!in_ci(), "windows_wine: missing {why}, but CI is set");
        say(&format!("windows_wine: skipped: missing {why}"));
        return;
    }
    let started = Instant::now();
    let dir = scratch_dir("wine");
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));

    // The stand-in DLL (test fixture) next to the executable.
    run(
        "building the bcryptprimitives.dll stand-in",
        Command::new(MINGW_GCC)
            .args(["-shared", "-O2", "-o"])
            .arg(dir.join("bcryptprimitives.dll"))
            .arg(manifest.join("tests/wine/bcryptprimitives.c"))
            .arg("-ladvapi32"),
    );

    // The Windows binary, in a target folder of its own (the outer cargo holds the lock
    // on the usual one while tests run).
    let native = Path::new(env!("CARGO_BIN_EXE_ironwood"));
    let target_dir = native
        .parent()
        .and_then(Path::parent)
        .expect("target/release/ironwood")
        .join("wine-build");
    run(
        "cargo build --target x86_64-pc-windows-gnu",
        Command::new(env!("CARGO"))
            .current_dir(manifest)
            .args(["build", "--release", "--quiet", "--target", WINDOWS_TARGET])
            .env("CARGO_TARGET_DIR", &target_dir)
            .env("CARGO_PROFILE_RELEASE_LTO", "false")
            .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
            .env("CARGO_PROFILE_RELEASE_DEBUG", "0"),
    );
    let exe = dir.join("ironwood.exe");
    std::fs::copy(
        target_dir.join(WINDOWS_TARGET).join("release/ironwood.exe"),
        &exe,
    )
    .expect("copy ironwood.exe");
    let built = started.elapsed();
    let wine = Wine {
        wine64: wine64.expect("checked above"),
        prefix: dir.join("prefix"),
        exe,
    };
    let _server = WineServer::start(&wine.wine64, &wine.prefix);

    // --version, and lines end in a bare line feed.
    let out = run("ironwood.exe --version", wine.command().arg("--version"));
    let expected = format!("ironwood {}\n", ironwood::version());
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    let mut child = wine
        .command()
        .args(["--log-level", "off"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start ironwood.exe");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("piped stdin");
        stdin
            .write_all(b"uci\r\nisready\r\nquit\r\n")
            .expect("write to ironwood.exe");
    }
    let out = child.wait_with_output().expect("ironwood.exe ends");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("uciok\nreadyok\n"), "{text}");
    assert!(
        !text.contains('\r'),
        "a carriage return in the output: {text:?}"
    );

    // The same search: the bench signature of the Linux binary.
    let linux = run("ironwood bench", Command::new(native).arg("bench"));
    let windows = run("ironwood.exe bench", wine.command().arg("bench"));
    let (linux_nodes, linux_nps) = bench_figures(&linux.stdout);
    let (windows_nodes, windows_nps) = bench_figures(&windows.stdout);
    assert_eq!(windows_nodes, linux_nodes, "bench signatures differ");
    say(&format!(
        "windows_wine: bench {windows_nodes} nodes under Wine at {windows_nps} nps, \
         Linux {linux_nps} nps"
    ));

    // UCI: the table cap is the memory Windows reports, the last PV starts with bestmove.
    let (mut engine, lines) = wine.start_engine(&["uci"], "uciok");
    let windows_cap = hash_max(&lines);
    let mut native_engine = Engine::start_with(
        &["--log-level".to_string(), "off".to_string()],
        scratch_dir("wine-native"),
    );
    native_engine.send("uci");
    let native_cap = hash_max(&native_engine.until("uciok", common::SHORT, |l| l == "uciok"));
    native_engine.send("quit");
    // Both are half the free memory, read a moment apart: within a factor of two, and
    // above the 2 GB an assumed 4 GB gave whenever the machine has more free.
    assert!(
        windows_cap * 2 >= native_cap && native_cap * 2 >= windows_cap,
        "Hash max {windows_cap} under Wine, {native_cap} on Linux"
    );
    if native_cap > 4096 {
        assert!(windows_cap > 2048, "Hash max {windows_cap} under Wine");
    }
    let moves = ["e2e4", "c7c5"];
    let mut pos = Position::startpos();
    for text in moves {
        let m = parse_move(&pos, text).unwrap();
        pos = pos.make_move(m);
    }
    engine.send("isready");
    engine.until("readyok", common::LONG, |l| l == "readyok");
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    engine.send("go nodes 5000");
    let lines = engine.until("bestmove", common::LONG, |l| l.starts_with("bestmove"));
    let best = lines
        .last()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or("");
    match parse_move(&pos, best) {
        Ok(m) if is_legal(&pos, m) => {}
        _ => engine.fail(&format!("illegal bestmove {best:?}")),
    }
    let last_pv = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info") && l.contains(" pv "))
        .and_then(|l| l.split(" pv ").nth(1))
        .and_then(|pv| pv.split_whitespace().next());
    if last_pv != Some(best) {
        engine.fail(&format!("last PV starts with {last_pv:?}, bestmove {best}"));
    }
    engine.send("quit");
    if engine.wait_exit(common::LONG).is_none() {
        engine.fail("no exit after quit");
    }

    // XBoard: handshake, a move, ping after it.
    let (mut engine, features) = wine.start_engine(&["xboard", "protover 2"], "feature done=1");
    if !features.iter().any(|l| l.contains("myname=\"Ironwood")) {
        engine.fail("no myname feature");
    }
    engine.send("new");
    engine.send("sd 4");
    engine.send("usermove e2e4");
    let start = Position::startpos();
    let after_e4 = start.make_move(parse_move(&start, "e2e4").unwrap());
    let reply = engine.expect_move(&after_e4, common::LONG);
    if !is_legal(&after_e4, reply) {
        engine.fail(&format!("illegal reply {reply}"));
    }
    engine.send("ping 7");
    engine.expect("pong 7", common::LONG, |l| l == "pong 7");
    engine.send("quit");
    if engine.wait_exit(common::LONG).is_none() {
        engine.fail("no exit after quit");
    }

    // Two games against Stockfish through python-chess, run by the UCI client script with
    // the Windows binary behind a wrapper.
    let wrapper = dir.join("ironwood-wine");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nWINEPREFIX='{}' WINEDEBUG=-all exec '{}' '{}' \"$@\"\n",
            wine.prefix.display(),
            wine.wine64.display(),
            wine.exe.display()
        ),
    )
    .expect("write the wrapper");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755))
            .expect("make the wrapper executable");
    }
    let script = manifest.join("tests/clients/uci.py");
    let client_logs = scratch_dir("wine-client");
    let args = [
        script.as_os_str(),
        wrapper.as_os_str(),
        OsStr::new("--log-dir"),
        client_logs.as_os_str(),
        OsStr::new("--part"),
        OsStr::new("stockfish"),
    ];
    let games = run_script("python3", &args, Duration::from_secs(300));
    match games {
        Ok(run) => {
            let text = format!("{}\n{}", run.out, run.err);
            let skipped = text.contains("skipped") || text.contains("No module named");
            if skipped {
                assert!(!in_ci(), "windows_wine: games skipped under CI:\n{text}");
                say("windows_wine: games skipped (python-chess or Stockfish missing)");
            } else {
                assert!(
                    run.status.is_some_and(|s| s.success()),
                    "games under Wine failed:\n{text}"
                );
                say(&format!(
                    "windows_wine: {}",
                    run.out.lines().last().unwrap_or("")
                ));
            }
        }
        Err(e) => {
            assert!(!in_ci(), "windows_wine: cannot run python3: {e}");
            say(&format!("windows_wine: games skipped: python3: {e}"));
        }
    }
    say(&format!(
        "windows_wine: built in {:.0} s, whole test {:.0} s",
        built.as_secs_f64(),
        started.elapsed().as_secs_f64()
    ));
}
