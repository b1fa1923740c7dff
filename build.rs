//! Generates the board's lookup tables at compile time (leaper attacks, magic slider tables,
//! between/line masks and Zobrist keys), so the engine starts with nothing to initialise and
//! every run uses the same keys (which keeps `bench` node counts reproducible); picks the
//! network to embed.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// xorshift64*: deterministic, so magics and Zobrist keys never change between builds.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn on_board(file: i32, rank: i32) -> bool {
    (0..8).contains(&file) && (0..8).contains(&rank)
}

fn bit(file: i32, rank: i32) -> u64 {
    1u64 << (rank * 8 + file)
}

fn slide(sq: usize, occupied: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while on_board(f, r) {
            attacks |= bit(f, r);
            if occupied & bit(f, r) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    attacks
}

/// Relevant occupancy: the rays without their last square (an edge blocker changes nothing).
fn relevant_mask(sq: usize, dirs: &[(i32, i32); 4]) -> u64 {
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while on_board(f + df, r + dr) {
            mask |= bit(f, r);
            f += df;
            r += dr;
        }
    }
    mask
}

fn leaper(sq: usize, steps: &[(i32, i32)]) -> u64 {
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    steps
        .iter()
        .filter(|&&(df, dr)| on_board(f0 + df, r0 + dr))
        .fold(0, |acc, &(df, dr)| acc | bit(f0 + df, r0 + dr))
}

struct MagicEntry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

fn find_magics(dirs: &[(i32, i32); 4], rng: &mut Rng, table: &mut Vec<u64>) -> Vec<MagicEntry> {
    let mut entries = Vec::with_capacity(64);
    for sq in 0..64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        // Enumerate every subset of the mask (Carry-Rippler).
        let mut occupancies = Vec::with_capacity(size);
        let mut attacks = Vec::with_capacity(size);
        let mut subset = 0u64;
        loop {
            occupancies.push(subset);
            attacks.push(slide(sq, subset, dirs));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        let mut used = vec![0u64; size];
        let mut epoch = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            let candidate = rng.sparse();
            if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let mut ok = true;
            for (occ, att) in occupancies.iter().zip(&attacks) {
                let index = (occ.wrapping_mul(candidate) >> shift) as usize;
                if epoch[index] < attempt {
                    epoch[index] = attempt;
                    used[index] = *att;
                } else if used[index] != *att {
                    ok = false;
                    break;
                }
            }
            if ok {
                break candidate;
            }
        };
        let offset = table.len();
        table.resize(offset + size, 0);
        for (occ, att) in occupancies.iter().zip(&attacks) {
            let index = (occ.wrapping_mul(magic) >> shift) as usize;
            table[offset + index] = *att;
        }
        entries.push(MagicEntry {
            mask,
            magic,
            shift,
            offset,
        });
    }
    entries
}

fn write_array(out: &mut String, name: &str, ty: &str, values: &[u64]) {
    writeln!(out, "pub static {name}: [{ty}; {}] = [", values.len()).unwrap();
    for chunk in values.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|v| format!("{v:#x}")).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn write_magics(out: &mut String, name: &str, entries: &[MagicEntry]) {
    writeln!(out, "pub static {name}: [Magic; 64] = [").unwrap();
    for e in entries {
        writeln!(
            out,
            "    Magic {{ mask: {:#x}, magic: {:#x}, shift: {}, offset: {} }},",
            e.mask, e.magic, e.shift, e.offset
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
}

/// The commit being built (`git describe`-like: the short hash, `-dirty` with uncommitted
/// changes to tracked files), for data files and `--version`; `unknown` outside a checkout.
fn emit_commit() {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|out| out.status.success())
            .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(hash) if !hash.is_empty() => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|status| !status.is_empty());
            if dirty { format!("{hash}-dirty") } else { hash }
        }
        _ => "unknown".to_string(),
    };
    println!("cargo:rustc-env=IRONWOOD_COMMIT={commit}");
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        for file in ["HEAD", "index"] {
            println!("cargo:rerun-if-changed={dir}/{file}");
        }
    }
}

/// The network the binary embeds: the file in `IRONWOOD_EVALFILE` (the makefile's `EVALFILE`,
/// through which OpenBench builds an engine with the network a test names), else
/// src/nnue/default.nnue. A file that is no Ironwood network fails the build here, not the
/// engine at its first evaluation.
fn emit_network() {
    println!("cargo:rerun-if-env-changed=IRONWOOD_EVALFILE");
    let path = match env::var_os("IRONWOOD_EVALFILE").filter(|path| !path.is_empty()) {
        Some(path) => PathBuf::from(path),
        None => Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap()).join("src/nnue/default.nnue"),
    };
    let bytes =
        fs::read(&path).unwrap_or_else(|e| panic!("IRONWOOD_EVALFILE {}: {e}", path.display()));
    assert!(
        bytes.starts_with(b"IRONWNET"),
        "IRONWOOD_EVALFILE {}: not an Ironwood network (no IRONWNET header)",
        path.display()
    );
    let path = fs::canonicalize(&path).unwrap();
    println!("cargo:rerun-if-changed={}", path.display());
    println!("cargo:rustc-env=IRONWOOD_NETWORK={}", path.display());
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    emit_commit();
    emit_network();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut out = String::new();

    let knight: Vec<u64> = (0..64)
        .map(|sq| {
            leaper(
                sq,
                &[
                    (1, 2),
                    (2, 1),
                    (2, -1),
                    (1, -2),
                    (-1, -2),
                    (-2, -1),
                    (-2, 1),
                    (-1, 2),
                ],
            )
        })
        .collect();
    let king: Vec<u64> = (0..64)
        .map(|sq| {
            leaper(
                sq,
                &[
                    (1, 0),
                    (1, 1),
                    (0, 1),
                    (-1, 1),
                    (-1, 0),
                    (-1, -1),
                    (0, -1),
                    (1, -1),
                ],
            )
        })
        .collect();
    let mut pawn: Vec<u64> = (0..64).map(|sq| leaper(sq, &[(-1, 1), (1, 1)])).collect();
    pawn.extend((0..64).map(|sq| leaper(sq, &[(-1, -1), (1, -1)])));
    write_array(&mut out, "KNIGHT_ATTACKS", "u64", &knight);
    write_array(&mut out, "KING_ATTACKS", "u64", &king);
    write_array(&mut out, "PAWN_ATTACKS", "u64", &pawn);

    let mut slider_table = Vec::new();
    let rook = find_magics(&ROOK_DIRS, &mut rng, &mut slider_table);
    let bishop = find_magics(&BISHOP_DIRS, &mut rng, &mut slider_table);
    write_magics(&mut out, "ROOK_MAGICS", &rook);
    write_magics(&mut out, "BISHOP_MAGICS", &bishop);
    write_array(&mut out, "SLIDER_ATTACKS", "u64", &slider_table);

    // BETWEEN[a*64+b]: squares strictly between two aligned squares; LINE: the whole line.
    let mut between = vec![0u64; 64 * 64];
    let mut line = vec![0u64; 64 * 64];
    for a in 0..64 {
        for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
            let empty_board = slide(a, 0, dirs);
            for b in 0..64 {
                if a == b || empty_board & (1u64 << b) == 0 {
                    continue;
                }
                between[a * 64 + b] = slide(a, 1u64 << b, dirs) & slide(b, 1u64 << a, dirs);
                line[a * 64 + b] = (empty_board & slide(b, 0, dirs)) | (1u64 << a) | (1u64 << b);
            }
        }
    }
    write_array(&mut out, "BETWEEN", "u64", &between);
    write_array(&mut out, "LINE", "u64", &line);

    let pieces: Vec<u64> = (0..12 * 64).map(|_| rng.next()).collect();
    let castling: Vec<u64> = (0..16).map(|_| rng.next()).collect();
    let en_passant: Vec<u64> = (0..8).map(|_| rng.next()).collect();
    write_array(&mut out, "ZOBRIST_PIECES", "u64", &pieces);
    write_array(&mut out, "ZOBRIST_CASTLING", "u64", &castling);
    write_array(&mut out, "ZOBRIST_EN_PASSANT", "u64", &en_passant);
    writeln!(out, "pub const ZOBRIST_SIDE: u64 = {:#x};", rng.next()).unwrap();
    // Drawn after the keys above so that normal chess keeps its keys: one per castling
    // right (4) and rook file (8), used only for rooks off the a- and h-files (Chess960).
    let castling_file: Vec<u64> = (0..4 * 8).map(|_| rng.next()).collect();
    write_array(&mut out, "ZOBRIST_CASTLING_FILE", "u64", &castling_file);

    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("tables.rs");
    fs::write(dest, out).unwrap();
}
