//! The committed corpus through the real binary: every shard the manifest lists is whole and
//! matches its line, and no shard is unlisted.

use crate::common;

#[test]
fn the_committed_corpus_verifies() {
    let manifest = std::fs::read_to_string("corpus/MANIFEST").expect("corpus/MANIFEST");
    let shards = manifest
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .count();
    assert!(shards >= 1, "{manifest}");
    let (code, stdout, stderr) = common::run_ironwood(&["corpus", "verify"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains(&format!("{shards} shards")) && stdout.contains("all verified"),
        "{stdout}"
    );
}
