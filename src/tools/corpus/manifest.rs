//! The corpus folder: shards that are never rewritten and `MANIFEST`, one tab-separated line
//! per shard (file, games, positions, bytes, CRC-32 of the whole file, the commit and
//! evaluation that played the games, nodes per move, seed, date, then the datagen run's
//! positions per CPU-second, its share of double Fischer random starts and its adjudication
//! rules). Lines written before the last three columns existed have ten fields and stay
//! valid (those columns read as `-`). `add` packs datagen output into new shards, `verify`
//! checks every shard against its line, `stats` counts.

use super::filter::{Filter, TrainingPosition};
use super::format::{
    BLOCK_HEADER_SIZE, CorpusError, GameRecord, GameResult, Metadata, ShardWriter, block_stats,
    blocks, crc32, decode_block, encode_game, read_header, read_shard,
};
use crate::tools::parallel;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub const MANIFEST: &str = "MANIFEST";
/// A shard is closed before it grows past this.
pub const MAX_SHARD_BYTES: u64 = 32 << 20;
const COLUMNS: [&str; 13] = [
    "file",
    "games",
    "positions",
    "bytes",
    "crc32",
    "commit",
    "evaluation",
    "nodes",
    "seed",
    "date",
    "pos_per_cpu_s",
    "dfrc",
    "adjudication",
];
/// Lines written before the last three columns have only these.
const OLD_COLUMNS: usize = 10;

/// One shard's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub file: String,
    pub games: u64,
    /// Positions with a search score.
    pub positions: u64,
    pub bytes: u64,
    pub crc32: u32,
    pub commit: String,
    pub evaluation: String,
    pub nodes: String,
    pub seed: String,
    pub date: String,
    /// The datagen run's positions per CPU-second (`-`: not recorded).
    pub positions_per_cpu_second: String,
    /// The share of games started from double Fischer random positions (`-`: not recorded,
    /// none before the column existed).
    pub dfrc: String,
    /// The adjudication rules the games were played under (`-`: not recorded).
    pub adjudication: String,
}

impl Entry {
    fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{:08x}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            self.file,
            self.games,
            self.positions,
            self.bytes,
            self.crc32,
            self.commit,
            self.evaluation,
            self.nodes,
            self.seed,
            self.date,
            self.positions_per_cpu_second,
            self.dfrc,
            self.adjudication
        )
    }

    fn parse(line: &str) -> Result<Entry, String> {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() != COLUMNS.len() && fields.len() != OLD_COLUMNS {
            return Err(format!(
                "{} fields, expected {} (or {OLD_COLUMNS} in a line written before the last \
                 three columns existed)",
                fields.len(),
                COLUMNS.len()
            ));
        }
        let optional = |i: usize| fields.get(i).map_or("-", |f| f).to_string();
        let number = |i: usize| {
            fields[i]
                .parse::<u64>()
                .map_err(|_| format!("{}: `{}` is not a number", COLUMNS[i], fields[i]))
        };
        let file = fields[0].to_string();
        if file.is_empty() || file.contains(['/', '\\']) || file == MANIFEST {
            return Err(format!("file: `{file}` is not a shard name"));
        }
        Ok(Entry {
            file,
            games: number(1)?,
            positions: number(2)?,
            bytes: number(3)?,
            crc32: u32::from_str_radix(fields[4], 16)
                .map_err(|_| format!("crc32: `{}` is not hexadecimal", fields[4]))?,
            commit: fields[5].to_string(),
            evaluation: fields[6].to_string(),
            nodes: fields[7].to_string(),
            seed: fields[8].to_string(),
            date: fields[9].to_string(),
            positions_per_cpu_second: optional(10),
            dfrc: optional(11),
            adjudication: optional(12),
        })
    }
}

/// The manifest of a corpus folder.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    pub entries: Vec<Entry>,
}

impl Manifest {
    /// Reads `DIR/MANIFEST`; a folder without one is an empty corpus.
    pub fn load(dir: &Path) -> Result<Manifest, String> {
        let path = dir.join(MANIFEST);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Manifest::default()),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        let mut entries: Vec<Entry> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let entry =
                Entry::parse(line).map_err(|why| format!("{}:{}: {why}", path.display(), n + 1))?;
            if entries.iter().any(|e| e.file == entry.file) {
                return Err(format!(
                    "{}:{}: {} is listed twice",
                    path.display(),
                    n + 1,
                    entry.file
                ));
            }
            entries.push(entry);
        }
        Ok(Manifest { entries })
    }

    /// Appends one line (the manifest, like the shards, only grows).
    fn append(dir: &Path, entry: &Entry) -> Result<(), String> {
        use std::io::Write;
        let path = dir.join(MANIFEST);
        let new = !path.exists();
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let mut text = String::new();
        if new {
            text.push_str(&format!("# {}\n", COLUMNS.join("\t")));
        }
        text.push_str(&entry.line());
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    fn next_shard_name(&self, dir: &Path) -> String {
        let mut n = self.entries.len() + 1;
        loop {
            let name = format!("shard-{n:04}.iwc");
            if !dir.join(&name).exists() && self.entries.iter().all(|e| e.file != name) {
                return name;
            }
            n += 1;
        }
    }
}

/// The games of a datagen output file, and its header's metadata with the last run-totals
/// block's values added. A partial block at its end (the writer was killed during a write)
/// is dropped with a note; any other damage is an error.
pub fn read_output(path: &Path) -> Result<(Metadata, Vec<GameRecord>, Option<String>), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (mut metadata, start) = read_header(path, &bytes).map_err(|e| e.to_string())?;
    let mut games = Vec::new();
    let mut note = None;
    for block in blocks(path, &bytes, start) {
        match block {
            Ok(block) => {
                if let Some(totals) = block_stats(&block) {
                    for (key, value) in totals.entries {
                        metadata.set(&key, value);
                    }
                }
                games.extend(decode_block(path, &block).map_err(|e| e.to_string())?)
            }
            Err(e @ CorpusError::Truncated { .. }) => {
                note = Some(format!("{e}; the partial block is left out"));
            }
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok((metadata, games, note))
}

/// What `add` did.
pub struct Added {
    pub entries: Vec<Entry>,
    pub notes: Vec<String>,
}

/// The shard files that `--data` arguments name: a shard file itself, or a corpus folder
/// (every shard its manifest lists, in order).
pub fn shard_paths(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut shards = Vec::new();
    for path in paths {
        if path.is_dir() {
            let manifest = Manifest::load(path)?;
            shards.extend(manifest.entries.iter().map(|e| path.join(&e.file)));
        } else {
            shards.push(path.clone());
        }
    }
    Ok(shards)
}

/// Reads every game of the named shards (files or corpus folders), one shard at a time,
/// and hands each game's kept positions to `each` (games with none kept are skipped).
pub fn read_games(
    paths: &[PathBuf],
    filter: &Filter,
    mut each: impl FnMut(Vec<TrainingPosition>),
) -> Result<(), String> {
    for shard in shard_paths(paths)? {
        let games = read_shard(&shard).map_err(|e: CorpusError| e.to_string())?;
        for game in &games.games {
            let kept = filter.positions(game);
            if !kept.is_empty() {
                each(kept);
            }
        }
    }
    Ok(())
}

/// Packs the games of datagen output files into new shards of the corpus in `dir` (each at
/// most `MAX_SHARD_BYTES`), with a manifest line each. Shards already there are not touched.
pub fn add(dir: &Path, outputs: &[PathBuf]) -> Result<Added, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut added = Added {
        entries: Vec::new(),
        notes: Vec::new(),
    };
    for output in outputs {
        let (metadata, games, note) = read_output(output)?;
        added.notes.extend(note);
        if games.is_empty() {
            added.notes.push(format!(
                "{}: no whole games; nothing added",
                output.display()
            ));
            continue;
        }
        let mut rest = &games[..];
        while !rest.is_empty() {
            let manifest = Manifest::load(dir)?;
            let name = manifest.next_shard_name(dir);
            let taken = write_shard(&dir.join(&name), &metadata, rest)?;
            let written = &rest[..taken];
            rest = &rest[taken..];
            let path = dir.join(&name);
            let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let entry = Entry {
                file: name,
                games: written.len() as u64,
                positions: written.iter().map(|g| g.scored_positions() as u64).sum(),
                bytes: bytes.len() as u64,
                crc32: crc32(&bytes),
                commit: field(&metadata, "commit"),
                evaluation: field(&metadata, "evaluation"),
                nodes: field(&metadata, "nodes"),
                seed: field(&metadata, "seed"),
                date: field(&metadata, "date"),
                positions_per_cpu_second: field(&metadata, "positions_per_cpu_second"),
                dfrc: field(&metadata, "dfrc_share"),
                adjudication: field(&metadata, "adjudication"),
            };
            Manifest::append(dir, &entry)?;
            added.entries.push(entry);
        }
    }
    Ok(added)
}

fn field(metadata: &Metadata, key: &str) -> String {
    metadata
        .get(key)
        .filter(|v| !v.is_empty())
        .unwrap_or("-")
        .replace('\t', " ")
}

/// Writes the longest prefix of `games` that fits one shard; returns how many it took.
fn write_shard(path: &Path, metadata: &Metadata, games: &[GameRecord]) -> Result<usize, String> {
    let mut writer = ShardWriter::create(path, metadata).map_err(|e| e.to_string())?;
    let mut encoded = Vec::new();
    let mut taken = 0;
    for game in games {
        encoded.clear();
        encode_game(game, &mut encoded);
        // Room for this game and, should it open a new block, that block's header.
        let after = writer.len() + (encoded.len() + 2 * BLOCK_HEADER_SIZE) as u64;
        if after > MAX_SHARD_BYTES && taken > 0 {
            break;
        }
        writer.push_game(&encoded).map_err(|e| e.to_string())?;
        taken += 1;
    }
    writer.finish().map_err(|e| e.to_string())?;
    Ok(taken)
}

/// Checks every shard of the corpus in `dir` against its manifest line (size, checksum,
/// every block, games and positions) and that no shard file is missing from the manifest,
/// on `threads` threads (shards are independent; the problems keep the manifest's order).
/// Returns a summary, or every problem found.
pub fn verify(dir: &Path, threads: usize) -> Result<String, String> {
    let manifest = Manifest::load(dir)?;
    let found = parallel::map(&manifest.entries, threads, |entry| verify_shard(dir, entry));
    let mut problems: Vec<String> = found.into_iter().flatten().collect();
    let games: u64 = manifest.entries.iter().map(|e| e.games).sum();
    let positions: u64 = manifest.entries.iter().map(|e| e.positions).sum();
    let bytes: u64 = manifest.entries.iter().map(|e| e.bytes).sum();
    if let Ok(listing) = std::fs::read_dir(dir) {
        let mut unlisted: Vec<String> = listing
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".iwc"))
            .filter(|name| manifest.entries.iter().all(|e| &e.file != name))
            .collect();
        unlisted.sort();
        for name in unlisted {
            problems.push(format!(
                "{}: a shard file the manifest does not list",
                dir.join(name).display()
            ));
        }
    }
    if problems.is_empty() {
        Ok(format!(
            "corpus {}: {} shards, {games} games, {positions} positions, {bytes} bytes: all verified",
            dir.display(),
            manifest.entries.len()
        ))
    } else {
        Err(problems.join("\n"))
    }
}

/// The problems of one shard against its manifest line.
fn verify_shard(dir: &Path, entry: &Entry) -> Vec<String> {
    let path = dir.join(&entry.file);
    let data = match std::fs::read(&path) {
        Ok(data) => data,
        Err(e) => return vec![format!("{}: {e}", path.display())],
    };
    let mut problems = Vec::new();
    if data.len() as u64 != entry.bytes {
        problems.push(format!(
            "{}: {} bytes, the manifest says {}",
            path.display(),
            data.len(),
            entry.bytes
        ));
    }
    let crc = crc32(&data);
    if crc != entry.crc32 {
        problems.push(format!(
            "{}: CRC-32 {crc:08x}, the manifest says {:08x}",
            path.display(),
            entry.crc32
        ));
    }
    match super::format::read_shard_bytes(&path, &data) {
        Ok(shard) => {
            let found_positions: u64 = shard
                .games
                .iter()
                .map(|g| g.scored_positions() as u64)
                .sum();
            if shard.games.len() as u64 != entry.games || found_positions != entry.positions {
                problems.push(format!(
                    "{}: {} games and {found_positions} positions, the manifest says {} and {}",
                    path.display(),
                    shard.games.len(),
                    entry.games,
                    entry.positions
                ));
            }
        }
        Err(e) => problems.push(e.to_string()),
    }
    problems
}

/// Counts for `stats`.
#[derive(Clone, Debug, Default)]
struct Counts {
    games: u64,
    positions: u64,
    kept: u64,
    bytes: u64,
    results: [u64; 3],
    endings: BTreeMap<&'static str, u64>,
    /// Game lengths in plies.
    lengths: Vec<u32>,
    /// |score| of every scored position, by bucket (`SCORE_BUCKETS`, then mate).
    scores: [u64; SCORE_BUCKETS.len() + 2],
}

const SCORE_BUCKETS: [i32; 7] = [25, 50, 100, 200, 400, 800, 1600];

impl Counts {
    fn add_game(&mut self, game: &GameRecord, filter: &Filter) {
        self.games += 1;
        self.positions += game.scored_positions() as u64;
        filter.for_each(game, |_| self.kept += 1);
        self.results[game.result as usize] += 1;
        *self.endings.entry(game.ending.name()).or_default() += 1;
        self.lengths
            .push((game.opening.len() + game.scored.len()) as u32);
        let scores = game.scored.iter().map(|p| p.score).chain(game.final_score);
        for score in scores {
            let abs = i32::from(score).abs();
            let bucket = if crate::search::score::is_mate_score(abs) {
                SCORE_BUCKETS.len() + 1
            } else {
                SCORE_BUCKETS
                    .iter()
                    .position(|&b| abs <= b)
                    .unwrap_or(SCORE_BUCKETS.len())
            };
            self.scores[bucket] += 1;
        }
    }

    fn merge(&mut self, other: &Counts) {
        self.games += other.games;
        self.positions += other.positions;
        self.kept += other.kept;
        self.bytes += other.bytes;
        for i in 0..3 {
            self.results[i] += other.results[i];
        }
        for (k, v) in &other.endings {
            *self.endings.entry(k).or_default() += v;
        }
        self.lengths.extend(&other.lengths);
        for i in 0..self.scores.len() {
            self.scores[i] += other.scores[i];
        }
    }

    fn report(&mut self, name: &str, out: &mut String) {
        let percent = |n: u64, of: u64| 100.0 * n as f64 / of.max(1) as f64;
        let _ = writeln!(
            out,
            "{name}: {} games, {} positions ({:.2} bytes each), {} kept by the filter ({:.1}%)",
            self.games,
            self.positions,
            self.bytes as f64 / self.positions.max(1) as f64,
            self.kept,
            percent(self.kept, self.positions)
        );
        let _ = writeln!(
            out,
            "  results: 1-0 {} ({:.1}%), 1/2-1/2 {} ({:.1}%), 0-1 {} ({:.1}%)",
            self.results[GameResult::WhiteWon as usize],
            percent(self.results[2], self.games),
            self.results[GameResult::Draw as usize],
            percent(self.results[1], self.games),
            self.results[GameResult::BlackWon as usize],
            percent(self.results[0], self.games)
        );
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = writeln!(out, "  endings: {}", endings.join(", "));
        self.lengths.sort_unstable();
        let at = |q: f64| {
            self.lengths
                .get(((self.lengths.len() as f64 - 1.0) * q).round() as usize)
                .copied()
                .unwrap_or(0)
        };
        let mean = self.lengths.iter().map(|&l| u64::from(l)).sum::<u64>() as f64
            / self.lengths.len().max(1) as f64;
        let _ = writeln!(
            out,
            "  game length (plies): mean {mean:.1}, min {}, 10% {}, median {}, 90% {}, max {}",
            at(0.0),
            at(0.1),
            at(0.5),
            at(0.9),
            at(1.0)
        );
        let mut buckets = Vec::new();
        let mut low = 0;
        for (i, &high) in SCORE_BUCKETS.iter().enumerate() {
            buckets.push(format!(
                "{low}-{high} {:.1}%",
                percent(self.scores[i], self.positions)
            ));
            low = high + 1;
        }
        buckets.push(format!(
            ">{} {:.1}%",
            SCORE_BUCKETS[SCORE_BUCKETS.len() - 1],
            percent(self.scores[SCORE_BUCKETS.len()], self.positions)
        ));
        buckets.push(format!(
            "mate {:.1}%",
            percent(self.scores[SCORE_BUCKETS.len() + 1], self.positions)
        ));
        let _ = writeln!(out, "  |score| (cp): {}", buckets.join(", "));
    }
}

/// Games, positions, positions the filter keeps, results, endings, game lengths and
/// scores, per shard and in total, of the named shards or corpus folders. A datagen output
/// still being written is read up to its last whole block.
pub fn stats(paths: &[PathBuf], filter: &Filter) -> Result<String, String> {
    let mut out = String::new();
    let mut total = Counts::default();
    let shards = shard_paths(paths)?;
    for shard in &shards {
        let (_, games, note) = read_output(shard)?;
        if let Some(note) = note {
            let _ = writeln!(out, "note: {note}");
        }
        let mut counts = Counts {
            bytes: std::fs::metadata(shard).map_or(0, |m| m.len()),
            ..Counts::default()
        };
        for game in &games {
            counts.add_game(game, filter);
        }
        total.merge(&counts);
        counts.report(&shard.display().to_string(), &mut out);
    }
    if shards.len() != 1 {
        total.report("total", &mut out);
    }
    Ok(out)
}
