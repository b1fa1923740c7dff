//! The layers' one-way imports, read from the sources: `board` <- `eval` <- `nnue` <- `search`
//! <- `engine` <- `protocol` <- `cli`, with `tools` beside the protocols and `tablebase`
//! between `board` and `search`. Every `crate::X`
//! path (a `use crate::{X, ..}` group's names too) and every `super::` that climbs out to the
//! crate's root names a top-level module; a layer naming one above it fails the test with the
//! file and line. A module's unit tests (`#[cfg(test)]` modules and `tests.rs` files) are
//! compiled only by `cargo test` and may borrow a higher layer's fixtures.

use std::fs;
use std::path::{Path, PathBuf};

/// Each layer and the top-level modules its code must not name.
const FORBIDDEN: &[(&str, &[&str])] = &[
    (
        "board",
        &[
            "eval",
            "nnue",
            "tablebase",
            "search",
            "engine",
            "protocol",
            "tools",
            "cli",
        ],
    ),
    (
        "tablebase",
        &[
            "eval", "nnue", "search", "engine", "protocol", "tools", "cli",
        ],
    ),
    (
        "eval",
        &["nnue", "search", "engine", "protocol", "tools", "cli"],
    ),
    ("nnue", &["search", "engine", "protocol", "tools", "cli"]),
    ("search", &["engine", "protocol", "tools", "cli"]),
    ("engine", &["protocol", "tools", "cli"]),
    ("protocol", &["tools", "cli"]),
    ("tools", &["protocol", "cli"]),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under src/: `search/alphabeta/mod.rs` -> [search, alphabeta].
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn ident_at(s: &str) -> &str {
    let s = s.trim_start();
    let end = s.find(|c: char| !is_ident_char(c)).unwrap_or(s.len());
    &s[..end]
}

/// The top-level names of a `{a::b, c, d::{e, f}}` group (the text after `crate::{`).
fn group_names(group: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut depth = 0;
    let mut start = true;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => start = true,
            c if start && is_ident_char(c) => {
                names.push(ident_at(&group[i..]).to_string());
                start = false;
            }
            _ => {}
        }
    }
    names
}

/// The top-level modules a line of code names through `crate::` or a `super::` chain that
/// climbs out of `depth` modules to the root.
fn named_modules(code: &str, depth: usize) -> Vec<String> {
    let mut names = Vec::new();
    let bytes = code.as_bytes();
    for (i, _) in code.match_indices("crate::") {
        if i > 0 && (is_ident_char(bytes[i - 1] as char) || bytes[i - 1] == b'$') {
            continue;
        }
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            names.extend(group_names(group));
        } else {
            names.push(ident_at(rest).to_string());
        }
    }
    for (i, _) in code.match_indices("super::") {
        if i > 0 && (is_ident_char(bytes[i - 1] as char) || code[..i].ends_with("super::")) {
            continue;
        }
        let mut rest = &code[i..];
        let mut climbs = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            climbs += 1;
            rest = r;
        }
        if climbs >= depth {
            if let Some(group) = rest.strip_prefix('{') {
                names.extend(group_names(group));
            } else {
                names.push(ident_at(rest).to_string());
            }
        }
    }
    names
}

/// Every (line number, module named) of a file's library code: comments, string contents and
/// unit-test modules left out; a `use` group spread over lines read as one.
fn references(text: &str, file_depth: usize) -> Vec<(usize, String)> {
    let mut refs = Vec::new();
    // Inline modules open at a line's indentation: (indent, is a test module).
    let mut inline: Vec<(usize, bool)> = Vec::new();
    let mut cfg_test = false;
    let mut pending: Option<(usize, String)> = None;
    for (n, line) in text.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim();
        if inline
            .last()
            .is_some_and(|&(open, _)| indent == open && trimmed == "}")
        {
            inline.pop();
            continue;
        }
        let in_test = inline.iter().any(|&(_, test)| test);
        if trimmed.starts_with("//") {
            continue;
        }
        if trimmed.starts_with("#[cfg(test)]") {
            cfg_test = true;
            continue;
        }
        let mod_line = trimmed
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub ")
            .starts_with("mod ");
        if mod_line && trimmed.ends_with('{') {
            inline.push((indent, cfg_test));
        }
        if !trimmed.starts_with("#[") {
            cfg_test = false;
        }
        if in_test {
            continue;
        }
        let code = strip_strings_and_comment(line);
        let (start, joined) = match pending.take() {
            Some((start, mut acc)) => {
                acc.push(' ');
                acc.push_str(&code);
                (start, acc)
            }
            None => (n + 1, code),
        };
        if (joined.contains("crate::{") || joined.contains("super::{"))
            && joined.matches('{').count() > joined.matches('}').count()
        {
            pending = Some((start, joined));
            continue;
        }
        let depth = file_depth + inline.len();
        for name in named_modules(&joined, depth) {
            refs.push((start, name));
        }
    }
    refs
}

/// A line without its string literals' contents and its trailing `//` comment.
fn strip_strings_and_comment(line: &str) -> String {
    let mut out = String::new();
    let mut in_string = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if in_string {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => {
                    in_string = false;
                    out.push(c);
                }
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if c == '/' && chars.peek() == Some(&'/') {
            break;
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn no_layer_imports_one_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut violations = Vec::new();
    let mut checked = 0;
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let path = module_path(rel);
        let Some(&(layer, forbidden)) = FORBIDDEN.iter().find(|(l, _)| path[0] == *l) else {
            continue;
        };
        if path.last().is_some_and(|p| p == "tests") {
            continue;
        }
        checked += 1;
        let text = fs::read_to_string(file).unwrap();
        for (line, name) in references(&text, path.len()) {
            if forbidden.contains(&name.as_str()) {
                violations.push(format!(
                    "src/{}:{line}: `{layer}` names `{name}`, a layer above it",
                    rel.display()
                ));
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} source files found under {}",
        src.display()
    );
    assert!(violations.is_empty(), "\n{}", violations.join("\n"));
}

#[test]
fn the_reader_finds_what_it_must() {
    let refs = |text: &str, depth| -> Vec<String> {
        references(text, depth)
            .into_iter()
            .map(|(_, n)| n)
            .collect()
    };
    assert_eq!(refs("use crate::engine::Engine;", 1), ["engine"]);
    assert_eq!(
        refs("use crate::{board::Move, tools};", 1),
        ["board", "tools"]
    );
    assert_eq!(
        refs("use crate::{\n    board::{Move, Square},\n    cli,\n};", 1),
        ["board", "cli"]
    );
    assert_eq!(refs("let n = crate::search::params::get();", 2), ["search"]);
    assert_eq!(refs("use super::super::engine;", 2), ["engine"]);
    assert_eq!(refs("use super::Thing;", 2), Vec::<String>::new());
    assert_eq!(
        refs("// crate::engine\nlet s = \"crate::engine\";", 1),
        Vec::<String>::new()
    );
    assert_eq!(
        refs(
            "#[cfg(test)]\nmod tests {\n    use crate::tools;\n}\nuse crate::cli;",
            1
        ),
        ["cli"]
    );
    assert_eq!(
        refs("mod inner {\n    use super::super::engine;\n}", 1),
        ["engine"]
    );
}

/// The files under src/ whose code names the crate `name` (`name::` or `use name`).
fn crate_users(name: &str) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let path = format!("{name}::");
    let import = format!("use {name}");
    files
        .iter()
        .filter(|file| {
            let text = fs::read_to_string(file).unwrap();
            text.lines().map(strip_strings_and_comment).any(|line| {
                line.split(|c: char| !is_ident_char(c) && c != ':')
                    .any(|word| word.starts_with(&path))
                    || line.trim_start().starts_with(&import)
            })
        })
        .map(|file| file.strip_prefix(&src).unwrap().display().to_string())
        .collect()
}

/// The command-line parser's crate stays behind `cli`: no other file names it.
#[test]
fn only_cli_uses_clap() {
    let users = crate_users("clap");
    assert!(users.contains(&"cli/mod.rs".to_string()), "{users:?}");
    assert!(users.iter().all(|f| f.starts_with("cli/")), "{users:?}");
}

/// The Syzygy crates (the probing and the board it probes) stay behind `tablebase`.
#[test]
fn only_tablebase_uses_shakmaty() {
    for name in ["shakmaty", "shakmaty_syzygy"] {
        let users = crate_users(name);
        assert!(users.contains(&"tablebase/mod.rs".to_string()), "{users:?}");
        assert!(
            users.iter().all(|f| f.starts_with("tablebase/")),
            "{users:?}"
        );
    }
}
