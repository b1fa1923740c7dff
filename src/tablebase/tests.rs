//! The Syzygy reader against python-chess's probes on the test tables, root ranking by
//! WDL and the halfmove clock, and bad or cut table files named and left out.

use std::fs;
use std::path::{Path, PathBuf};

use super::{Tablebases, Wdl};
use crate::board::Position;

fn table_folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy")
}

fn tables() -> Tablebases {
    let (tables, problems) = Tablebases::load(table_folder().to_str().unwrap());
    assert!(problems.is_empty(), "{problems:?}");
    tables
}

/// tests/data/syzygy_probes.txt: FEN;wdl;dtz by python-chess's `chess.syzygy` on the same
/// files (tests/clients/syzygy_fixture.py).
#[test]
fn probes_agree_with_python_chess() {
    let tables = tables();
    let fixture = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy_probes.txt"),
    )
    .unwrap();
    let mut compared = 0;
    let mut disagreements = Vec::new();
    for line in fixture.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split(';').collect();
        let pos = Position::from_fen(fields[0]).unwrap();
        let wdl: i32 = fields[1].parse().unwrap();
        let dtz: i32 = fields[2].parse().unwrap();
        let ours = (
            tables.probe_wdl(&pos).map(Wdl::value),
            tables.probe_dtz(&pos),
        );
        if ours != (Some(wdl), Some(dtz)) {
            disagreements.push(format!("{line}: ours {ours:?}"));
        }
        compared += 1;
    }
    assert!(compared >= 2000, "only {compared} positions");
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[test]
fn the_folder_loads_every_table() {
    let tables = tables();
    assert_eq!(tables.file_count(), 22);
    assert_eq!(tables.max_pieces(), 4);
}

#[test]
fn no_probe_with_castling_rights_or_without_the_table() {
    let tables = tables();
    let castling = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1").unwrap();
    assert_eq!(tables.probe_wdl(&castling), None);
    assert!(tables.rank_root_moves(&castling, true).is_none());
    let kqvkq = Position::from_fen("4k3/3q4/8/8/8/8/3Q4/4K3 w - - 0 1").unwrap();
    assert_eq!(tables.probe_wdl(&kqvkq), None);
    assert_eq!(tables.probe_dtz(&kqvkq), None);
}

/// KRvKP, White to move and winning: seven rook moves let the pawn queen and lose; none of
/// them may share the best rank, and every move that does keeps the win.
#[test]
fn root_ranking_keeps_only_winning_moves() {
    let tables = tables();
    let pos = Position::from_fen("K7/8/8/8/5k2/8/p7/7R w - - 0 1").unwrap();
    let ranking = tables.rank_root_moves(&pos, true).unwrap();
    assert!(ranking.by_dtz);
    assert_eq!(ranking.wdl, Wdl::Win);
    let best = ranking.ranks.iter().map(|&(_, r)| r).max().unwrap();
    let losing = ["h1h8", "h1h7", "h1h6", "h1h5", "h1h3", "h1h2", "h1b1"];
    for &(m, rank) in &ranking.ranks {
        let theirs = tables.probe_wdl(&pos.make_move(m)).unwrap();
        if losing.contains(&m.to_string().as_str()) {
            assert!(rank < best && theirs == Wdl::Win, "{m}");
        } else if rank == best {
            assert_eq!(theirs, Wdl::Loss, "{m}");
        }
    }
}

/// The root ranking converts: KQvKR with DTZ 53, where 18 moves win; with 46 plies on the
/// halfmove clock only the two of DTZ 53 (python-chess's figures) still win in time, a ply
/// to spare; with 47 none does.
#[test]
fn root_ranking_counts_the_halfmove_clock() {
    let tables = tables();
    let best_moves = |fen: &str| {
        let pos = Position::from_fen(fen).unwrap();
        let ranking = tables.rank_root_moves(&pos, true).unwrap();
        let best = ranking.ranks.iter().map(|&(_, r)| r).max().unwrap();
        let mut moves: Vec<String> = ranking
            .ranks
            .iter()
            .filter(|&&(_, r)| r == best)
            .map(|&(m, _)| m.to_string())
            .collect();
        moves.sort();
        (moves, ranking.wdl)
    };
    let (fresh, wdl) = best_moves("8/8/3k4/8/8/2r5/8/KQ6 w - - 0 1");
    assert_eq!((fresh.len(), wdl), (18, Wdl::Win), "{fresh:?}");
    let (late, wdl) = best_moves("8/8/3k4/8/8/2r5/8/KQ6 w - - 46 1");
    assert_eq!(
        (late, wdl),
        (vec!["a1b2".to_string(), "b1e4".to_string()], Wdl::Win)
    );
    let (too_late, wdl) = best_moves("8/8/3k4/8/8/2r5/8/KQ6 w - - 47 1");
    assert_eq!((too_late.len(), wdl), (2, Wdl::CursedWin));
    // With Syzygy50MoveRule off the clock does not count: every winning move is kept.
    let pos = Position::from_fen("8/8/3k4/8/8/2r5/8/KQ6 w - - 47 1").unwrap();
    let ranking = tables.rank_root_moves(&pos, false).unwrap();
    let best = ranking.ranks.iter().map(|&(_, r)| r).max().unwrap();
    let kept = ranking.ranks.iter().filter(|&&(_, r)| r == best).count();
    assert_eq!((kept, ranking.wdl), (18, Wdl::Win));
}

fn bad_folder(name: &str, file: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ironwood-tb-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join(file), bytes).unwrap();
    dir
}

#[test]
fn bad_files_are_named_and_left_out() {
    let good = fs::read(table_folder().join("KRvK.rtbw")).unwrap();
    let mut junk = good.clone();
    junk[..4].copy_from_slice(b"junk");
    let cases = [
        ("empty", Vec::new(), "empty file"),
        ("cut", good[..good.len() - 20].to_vec(), "not a whole table"),
        ("junk", junk, "not a standard chess Syzygy table"),
    ];
    for (name, bytes, reason) in cases {
        let dir = bad_folder(name, "KRvK.rtbw", &bytes);
        let paths = std::env::join_paths([dir.clone(), table_folder()]).unwrap();
        let (tables, problems) = Tablebases::load(paths.to_str().unwrap());
        assert_eq!(problems.len(), 1, "{name}: {problems:?}");
        assert!(problems[0].reason.contains(reason), "{name}: {problems:?}");
        // The good folder's KRvK is used instead.
        let pos = Position::from_fen("8/8/8/4k3/8/8/8/K6R w - - 0 1").unwrap();
        assert_eq!(tables.probe_wdl(&pos), Some(Wdl::Win), "{name}");
        fs::remove_dir_all(&dir).unwrap();
    }
    let (tables, problems) = Tablebases::load("/no/such/folder");
    assert_eq!(tables.file_count(), 0);
    assert!(
        problems[0].reason.contains("cannot read the folder"),
        "{problems:?}"
    );
}

/// A file whose header is sound but whose body is cut at a size the format allows: the
/// probe fails inside the crate and answers `None`, no panic.
#[test]
fn a_table_cut_at_a_plausible_size_fails_its_probes_only() {
    let good = fs::read(table_folder().join("KQvKR.rtbw")).unwrap();
    let dir = bad_folder("plausible", "KQvKR.rtbw", &good[..16 + 64 * 4]);
    let (tables, problems) = Tablebases::load(dir.to_str().unwrap());
    assert!(problems.is_empty(), "{problems:?}");
    let pos = Position::from_fen("8/8/8/4k3/8/3r4/8/KQ6 w - - 0 1").unwrap();
    assert_eq!(tables.probe_wdl(&pos), None);
    fs::remove_dir_all(&dir).unwrap();
}
