//! The corpus shard, the one place its layout is defined: whole games as chains of moves and
//! search scores, in checksummed blocks. Every other module reads and writes shards through
//! `encode_game`, `ShardWriter` and `read_shard`.
//!
//! All integers are little-endian; `varint` is LEB128 (7 bits a byte, low first) and
//! `zigzag` maps 0, -1, 1, -2, ... to 0, 1, 2, 3, ...
//!
//! **Shard header**: the magic `IWCORPUS` (8 bytes), the format version (u32, now 1), the
//! metadata length M (u32), M bytes of UTF-8 metadata (`key=value` lines: who played the
//! games and how), and the CRC-32 (IEEE) of everything before it (u32).
//!
//! **Blocks**, until the end of the file: payload length P (u32), game count (u32), CRC-32 of
//! the payload (u32), then P bytes holding that many games back to back. A writer appends a
//! block with one `write`, so a killed writer leaves at most one partial block at the end.
//!
//! **A run-totals block** has a game count of 0 and a payload of `IWSTATS` and a newline,
//! then `key=value` lines like the header's: datagen's running totals (games, positions, CPU
//! and wall seconds, positions per CPU-second), written every few seconds and at the end of
//! the run; the last one counts. Readers of games skip these blocks; `corpus add` copies the
//! last one's values into the new shards' headers and the manifest, so committed shards
//! hold none. (Files written before run-totals blocks existed have none; builds before them
//! reject a datagen output that has one, but read every committed shard.)
//!
//! **A game**:
//!
//! | field | bytes | meaning |
//! |---|---|---|
//! | flags | 1 | bit 0: the start is a FEN that follows (else the standard start); bit 1: read that FEN's castling as Chess960; bit 2: a final scored position without a move ends the game; other bits 0 |
//! | FEN | 1 + n, varint | (bit 0 only) its length, then its ASCII text, then the plies played before it (0 for a game that starts there) |
//! | opening plies | varint, then 1 each | moves played without a search (the random opening), each as its move index |
//! | scored plies | varint, then 2+ each | per position: the move index of the move played, then the search score as a zigzag varint of its difference from the previous scored position's (the first from 0) |
//! | final score | varint | (bit 2 only) a zigzag difference as above, for the position after the last move |
//! | result | 1 | bits 0-1: 0 Black won, 1 draw, 2 White won; bits 2-5: how the game ended (`Ending`); bits 6-7: 0 |
//!
//! Scores are centipawns from White's point of view; mate scores are stored as the search
//! gave them. **The move index** is a move's place among the position's legal moves sorted by
//! the key `from + 64 * to + 4096 * class` (squares a1 = 0 .. h8 = 63; a castling move goes
//! from the king's square to the king's goal square; class 0 for every other move, 1 to 4 for
//! promotions to knight, bishop, rook, queen and 5 for castling), so it does not depend on
//! the order in which any move generator lists moves.

use crate::board::{
    CastlingMode, Color, MAX_MOVES, Move, MoveList, PieceKind, Position, legal_moves,
};
use std::fmt;
use std::path::{Path, PathBuf};

pub const MAGIC: [u8; 8] = *b"IWCORPUS";
pub const VERSION: u32 = 1;
/// Payload length, game count and checksum.
pub const BLOCK_HEADER_SIZE: usize = 12;
/// A block that claims more than this is damage, not data.
const MAX_BLOCK_BYTES: usize = 64 << 20;

/// The start of a run-totals block's payload.
pub const STATS_MAGIC: &[u8; 8] = b"IWSTATS\n";

const FLAG_FEN: u8 = 1;
const FLAG_CHESS960: u8 = 2;
const FLAG_FINAL_SCORE: u8 = 4;

/// A game's result from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameResult {
    BlackWon = 0,
    Draw = 1,
    WhiteWon = 2,
}

impl GameResult {
    /// The result as a score for White: 0, 0.5 or 1.
    pub fn white_score(self) -> f64 {
        f64::from(self as u8) / 2.0
    }

    pub fn won_by(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWon,
            Color::Black => GameResult::BlackWon,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            GameResult::WhiteWon => "1-0",
            GameResult::Draw => "1/2-1/2",
            GameResult::BlackWon => "0-1",
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ending {
    /// Not recorded (positions converted from the old data files).
    Unknown = 0,
    Checkmate = 1,
    Stalemate = 2,
    Repetition = 3,
    FiftyMoves = 4,
    InsufficientMaterial = 5,
    /// The search announced a forced mate.
    MateScore = 6,
    /// Both sides' scores agreed on a win for several plies.
    AdjudicatedWin = 7,
    /// Scores near zero for several plies late in the game.
    AdjudicatedDraw = 8,
}

impl Ending {
    pub const ALL: [Ending; 9] = [
        Ending::Unknown,
        Ending::Checkmate,
        Ending::Stalemate,
        Ending::Repetition,
        Ending::FiftyMoves,
        Ending::InsufficientMaterial,
        Ending::MateScore,
        Ending::AdjudicatedWin,
        Ending::AdjudicatedDraw,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Ending::Unknown => "unknown",
            Ending::Checkmate => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::Repetition => "repetition",
            Ending::FiftyMoves => "fifty moves",
            Ending::InsufficientMaterial => "insufficient material",
            Ending::MateScore => "mate score",
            Ending::AdjudicatedWin => "adjudicated win",
            Ending::AdjudicatedDraw => "adjudicated draw",
        }
    }
}

/// One searched position of a game: the move played from it and its search score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredPly {
    pub played: Move,
    /// Centipawns, White's point of view.
    pub score: i16,
}

/// A whole game as the corpus keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub start: Position,
    /// The start's castling rights are Chess960's (any rook file).
    pub chess960: bool,
    /// Plies played before `start` (not 0 only for positions converted from old files).
    pub start_ply: u16,
    /// Moves played from the start without a search.
    pub opening: Vec<Move>,
    /// Then one entry per searched position, in order.
    pub scored: Vec<ScoredPly>,
    /// The score of the position after the last move, when it was searched but not played
    /// from (White's point of view).
    pub final_score: Option<i16>,
    pub result: GameResult,
    pub ending: Ending,
}

impl GameRecord {
    /// Positions with a search score: the scored plies and the final one.
    pub fn scored_positions(&self) -> usize {
        self.scored.len() + usize::from(self.final_score.is_some())
    }
}

/// Why a shard (or part of one) cannot be read.
#[derive(Debug)]
pub enum CorpusError {
    Io(PathBuf, std::io::Error),
    /// Damage at a byte offset of the file.
    At {
        path: PathBuf,
        offset: u64,
        why: String,
    },
    /// The file ends inside the block that starts at `offset` (a writer was stopped
    /// during its last write).
    Truncated {
        path: PathBuf,
        offset: u64,
        why: String,
    },
}

impl CorpusError {
    fn at(path: &Path, offset: usize, why: impl Into<String>) -> CorpusError {
        CorpusError::At {
            path: path.into(),
            offset: offset as u64,
            why: why.into(),
        }
    }

    fn truncated(path: &Path, offset: usize, why: String) -> CorpusError {
        CorpusError::Truncated {
            path: path.into(),
            offset: offset as u64,
            why,
        }
    }
}

impl fmt::Display for CorpusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CorpusError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            CorpusError::At { path, offset, why }
            | CorpusError::Truncated { path, offset, why } => {
                write!(f, "{}: byte {offset}: {why}", path.display())
            }
        }
    }
}

impl std::error::Error for CorpusError {}

/// CRC-32 (IEEE 802.3, reflected, as zlib and PNG use it).
pub fn crc32(bytes: &[u8]) -> u32 {
    crc32_update(0, bytes)
}

/// Continues a CRC-32 over more bytes (`crc32_update(crc32(a), b) == crc32(a ++ b)`).
pub fn crc32_update(crc: u32, bytes: &[u8]) -> u32 {
    let mut crc = !crc;
    for &b in bytes {
        crc = CRC_TABLE[((crc ^ u32::from(b)) & 0xff) as usize] ^ (crc >> 8);
    }
    !crc
}

const CRC_TABLE: [u32; 256] = crc_table();

const fn crc_table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
}

fn put_varint(mut value: u64, out: &mut Vec<u8>) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn zigzag(value: i32) -> u64 {
    u64::from(((value << 1) ^ (value >> 31)) as u32)
}

fn unzigzag(value: u64) -> i64 {
    (value >> 1) as i64 ^ -((value & 1) as i64)
}

/// The canonical sort key of a legal move (see the module doc).
pub fn move_key(m: Move) -> u16 {
    let class = if m.is_castle() {
        5
    } else {
        match m.promotion() {
            None => 0,
            Some(PieceKind::Knight) => 1,
            Some(PieceKind::Bishop) => 2,
            Some(PieceKind::Rook) => 3,
            Some(_) => 4,
        }
    };
    m.from().index() as u16 | (m.to().index() as u16) << 6 | class << 12
}

/// The legal move at `index` in canonical order, or `None` past the last (`list` is left
/// holding the legal moves in generation order, so its length says how many there are).
/// Selects instead of sorting: decoding a shard is mostly this call, and a full sort per ply
/// was most of `corpus verify`'s time.
pub fn canonical_move_at(pos: &Position, index: usize, list: &mut MoveList) -> Option<Move> {
    list.clear();
    legal_moves(pos, list);
    if index >= list.len() {
        return None;
    }
    // Keys are distinct (the module doc), so the low byte carries the move's place along.
    let mut keys = [0u32; MAX_MOVES];
    for (i, &m) in list.iter().enumerate() {
        keys[i] = u32::from(move_key(m)) << 8 | i as u32;
    }
    let (_, &mut chosen, _) = keys[..list.len()].select_nth_unstable(index);
    Some(list.get((chosen & 0xff) as usize))
}

/// The move index of `m` in `pos`, or `None` when `m` is not legal there.
pub fn move_index(pos: &Position, m: Move, list: &mut MoveList) -> Option<u8> {
    list.clear();
    legal_moves(pos, list);
    if !list.iter().any(|&x| x == m) {
        return None;
    }
    let key = move_key(m);
    Some(list.iter().filter(|&&x| move_key(x) < key).count() as u8)
}

/// Appends one game's encoding. Panics only on a programming error: a move that is not
/// legal where the record says it was played.
pub fn encode_game(game: &GameRecord, out: &mut Vec<u8>) {
    let standard = game.start == Position::startpos() && !game.chess960 && game.start_ply == 0;
    let mut flags = 0;
    if !standard {
        flags |= FLAG_FEN;
    }
    if game.chess960 {
        flags |= FLAG_CHESS960;
    }
    if game.final_score.is_some() {
        flags |= FLAG_FINAL_SCORE;
    }
    out.push(flags);
    if !standard {
        let fen = game.start.to_fen();
        out.push(fen.len() as u8);
        out.extend_from_slice(fen.as_bytes());
        put_varint(u64::from(game.start_ply), out);
    }
    let mut list = MoveList::new();
    let mut pos = game.start.clone();
    let mut index_of = |pos: &mut Position, m: Move| {
        let index = move_index(pos, m, &mut list)
            .unwrap_or_else(|| panic!("{m} is not legal in {}", pos.to_fen()));
        *pos = pos.make_move(m);
        index
    };
    put_varint(game.opening.len() as u64, out);
    for &m in &game.opening {
        out.push(index_of(&mut pos, m));
    }
    put_varint(game.scored.len() as u64, out);
    let mut previous = 0i32;
    for ply in &game.scored {
        out.push(index_of(&mut pos, ply.played));
        put_varint(zigzag(i32::from(ply.score) - previous), out);
        previous = i32::from(ply.score);
    }
    if let Some(score) = game.final_score {
        put_varint(zigzag(i32::from(score) - previous), out);
    }
    out.push(game.result as u8 | (game.ending as u8) << 2);
}

/// Reads games from a byte slice, naming offsets relative to the whole file.
struct Cursor<'a> {
    path: &'a Path,
    bytes: &'a [u8],
    at: usize,
    /// The slice's offset in the file.
    base: usize,
}

impl Cursor<'_> {
    fn error(&self, why: impl Into<String>) -> CorpusError {
        CorpusError::at(self.path, self.base + self.at, why)
    }

    fn byte(&mut self, what: &str) -> Result<u8, CorpusError> {
        let b = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| self.error(format!("the game ends inside its {what}")))?;
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self, what: &str) -> Result<u64, CorpusError> {
        let start = self.at;
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte(what)?;
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        self.at = start;
        Err(self.error(format!("{what}: a number longer than 64 bits")))
    }

    fn score(&mut self, previous: i32, what: &str) -> Result<i16, CorpusError> {
        let start = self.at;
        let delta = unzigzag(self.varint(what)?);
        i16::try_from(i64::from(previous) + delta).map_err(|_| {
            self.at = start;
            self.error(format!(
                "{what}: {} is out of range",
                i64::from(previous) + delta
            ))
        })
    }

    fn play(
        &mut self,
        pos: &mut Position,
        list: &mut MoveList,
        ply: usize,
    ) -> Result<Move, CorpusError> {
        let index = self.byte("moves")?;
        let Some(m) = canonical_move_at(pos, usize::from(index), list) else {
            self.at -= 1;
            return Err(self.error(format!(
                "ply {}: move index {index}, but the position has {} legal moves",
                ply + 1,
                list.len()
            )));
        };
        *pos = pos.make_move(m);
        Ok(m)
    }

    fn game(&mut self, list: &mut MoveList) -> Result<GameRecord, CorpusError> {
        let game_start = self.at;
        let flags = self.byte("flags")?;
        if flags & !(FLAG_FEN | FLAG_CHESS960 | FLAG_FINAL_SCORE) != 0 {
            self.at -= 1;
            return Err(self.error(format!("unknown game flags {flags:#04x}")));
        }
        let chess960 = flags & FLAG_CHESS960 != 0;
        let mut start_ply = 0;
        let start = if flags & FLAG_FEN != 0 {
            let length = usize::from(self.byte("start FEN")?);
            let text = self
                .bytes
                .get(self.at..self.at + length)
                .ok_or_else(|| self.error("the game ends inside its start FEN"))?;
            let mode = if chess960 {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
            let position = std::str::from_utf8(text)
                .map_err(|_| "not text".to_string())
                .and_then(|fen| Position::from_fen_in(fen, mode).map_err(|e| e.to_string()))
                .map_err(|why| self.error(format!("start FEN: {why}")))?;
            self.at += length;
            let ply = self.varint("start ply")?;
            start_ply = u16::try_from(ply)
                .map_err(|_| self.error(format!("start ply {ply} is out of range")))?;
            position
        } else {
            Position::startpos()
        };
        let mut pos = start.clone();
        let opening_plies = self.varint("opening ply count")?;
        if opening_plies > 1024 {
            return Err(self.error(format!("{opening_plies} opening plies")));
        }
        let mut opening = Vec::with_capacity(opening_plies as usize);
        for ply in 0..opening_plies as usize {
            opening.push(self.play(&mut pos, list, ply)?);
        }
        let scored_plies = self.varint("scored ply count")?;
        if scored_plies > 100_000 {
            return Err(self.error(format!("{scored_plies} scored plies")));
        }
        let mut scored = Vec::with_capacity(scored_plies as usize);
        let mut previous = 0i32;
        for i in 0..scored_plies as usize {
            let played = self.play(&mut pos, list, opening.len() + i)?;
            let score = self.score(previous, "score")?;
            previous = i32::from(score);
            scored.push(ScoredPly { played, score });
        }
        let final_score = if flags & FLAG_FINAL_SCORE != 0 {
            Some(self.score(previous, "final score")?)
        } else {
            None
        };
        let code = self.byte("result")?;
        let result = match code & 3 {
            0 => GameResult::BlackWon,
            1 => GameResult::Draw,
            2 => GameResult::WhiteWon,
            _ => {
                self.at -= 1;
                return Err(self.error(format!("bad result byte {code:#04x}")));
            }
        };
        let ending = *Ending::ALL
            .get(usize::from(code >> 2))
            .ok_or_else(|| self.error(format!("bad result byte {code:#04x}")))?;
        if game_start == self.at {
            return Err(self.error("empty game"));
        }
        Ok(GameRecord {
            start,
            chess960,
            start_ply,
            opening,
            scored,
            final_score,
            result,
            ending,
        })
    }
}

/// A shard's header fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    pub entries: Vec<(String, String)>,
}

impl Metadata {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    pub fn set(&mut self, key: &str, value: impl Into<String>) {
        let value = value.into();
        match self.entries.iter_mut().find(|(k, _)| k == key) {
            Some(entry) => entry.1 = value,
            None => self.entries.push((key.to_string(), value)),
        }
    }

    fn to_text(&self) -> String {
        self.entries
            .iter()
            .map(|(k, v)| format!("{k}={}\n", v.replace('\n', " ")))
            .collect()
    }

    fn parse(text: &str) -> Metadata {
        Metadata {
            entries: text
                .lines()
                .filter_map(|line| line.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }
}

/// The header bytes of a shard with this metadata.
pub fn header_bytes(metadata: &Metadata) -> Vec<u8> {
    let text = metadata.to_text();
    let mut bytes = Vec::with_capacity(20 + text.len());
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&(text.len() as u32).to_le_bytes());
    bytes.extend_from_slice(text.as_bytes());
    let crc = crc32(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes
}

/// The bytes of one block holding these encoded games.
pub fn block_bytes(games: u32, payload: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(BLOCK_HEADER_SIZE + payload.len());
    bytes.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&games.to_le_bytes());
    bytes.extend_from_slice(&crc32(payload).to_le_bytes());
    bytes.extend_from_slice(payload);
    bytes
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// Reads and checks a shard's header; returns the metadata and where the blocks start.
pub fn read_header(path: &Path, bytes: &[u8]) -> Result<(Metadata, usize), CorpusError> {
    if bytes.len() < 16 {
        return Err(CorpusError::at(
            path,
            bytes.len(),
            format!("truncated: {} bytes, shorter than a header", bytes.len()),
        ));
    }
    if bytes[..8] != MAGIC {
        return Err(CorpusError::at(
            path,
            0,
            "not an Ironwood corpus shard (it does not start with `IWCORPUS`)",
        ));
    }
    let version = u32_at(bytes, 8).unwrap_or_default();
    if version != VERSION {
        return Err(CorpusError::at(
            path,
            8,
            format!("corpus format version {version}; this build reads version {VERSION}"),
        ));
    }
    let length = u32_at(bytes, 12).unwrap_or_default() as usize;
    let end = 16usize.saturating_add(length);
    let stored = u32_at(bytes, end).ok_or_else(|| {
        CorpusError::at(path, bytes.len(), "truncated inside the header's metadata")
    })?;
    if crc32(&bytes[..end]) != stored {
        return Err(CorpusError::at(
            path,
            end,
            "header checksum mismatch: the header is damaged",
        ));
    }
    let text = std::str::from_utf8(&bytes[16..end])
        .map_err(|_| CorpusError::at(path, 16, "the metadata is not UTF-8"))?;
    Ok((Metadata::parse(text), end + 4))
}

/// One block's place in a file and its checked payload.
pub struct Block<'a> {
    pub offset: usize,
    pub games: u32,
    pub payload: &'a [u8],
}

/// Walks the blocks of a shard whose header ends at `start`, checking each block's length
/// and checksum. A partial block at the end is an error naming its offset.
pub fn blocks<'a>(
    path: &'a Path,
    bytes: &'a [u8],
    start: usize,
) -> impl Iterator<Item = Result<Block<'a>, CorpusError>> + 'a {
    let mut at = start;
    let mut failed = false;
    std::iter::from_fn(move || {
        if failed || at >= bytes.len() {
            return None;
        }
        let offset = at;
        let block = (|| {
            let header = bytes.get(at..at + BLOCK_HEADER_SIZE).ok_or_else(|| {
                CorpusError::truncated(
                    path,
                    offset,
                    format!(
                        "truncated: {} bytes at the end are not a whole block header",
                        bytes.len() - at
                    ),
                )
            })?;
            let length = u32_at(header, 0).unwrap_or_default() as usize;
            let games = u32_at(header, 4).unwrap_or_default();
            let crc = u32_at(header, 8).unwrap_or_default();
            if length > MAX_BLOCK_BYTES {
                return Err(CorpusError::at(
                    path,
                    offset,
                    format!("block of {length} bytes: the block header is damaged"),
                ));
            }
            let body = at + BLOCK_HEADER_SIZE;
            let payload = bytes.get(body..body + length).ok_or_else(|| {
                CorpusError::truncated(
                    path,
                    offset,
                    format!(
                        "truncated: the block says {length} bytes, {} are left",
                        bytes.len() - body
                    ),
                )
            })?;
            if crc32(payload) != crc {
                return Err(CorpusError::at(
                    path,
                    offset,
                    "block checksum mismatch: the block is damaged",
                ));
            }
            Ok(Block {
                offset,
                games,
                payload,
            })
        })();
        match &block {
            Ok(b) => at = b.offset + BLOCK_HEADER_SIZE + b.payload.len(),
            Err(_) => failed = true,
        }
        Some(block)
    })
}

/// The payload of a run-totals block holding `totals`.
pub fn stats_payload(totals: &Metadata) -> Vec<u8> {
    let mut payload = STATS_MAGIC.to_vec();
    payload.extend_from_slice(totals.to_text().as_bytes());
    payload
}

/// The totals of a run-totals block (a checked block with no games whose payload starts with
/// `STATS_MAGIC`), or `None` for a block of games.
pub fn block_stats(block: &Block) -> Option<Metadata> {
    if block.games != 0 {
        return None;
    }
    let text = block.payload.strip_prefix(STATS_MAGIC)?;
    Some(Metadata::parse(&String::from_utf8_lossy(text)))
}

/// Decodes the games of one checked block (none for a run-totals block).
pub fn decode_block(path: &Path, block: &Block) -> Result<Vec<GameRecord>, CorpusError> {
    if block_stats(block).is_some() {
        return Ok(Vec::new());
    }
    let mut cursor = Cursor {
        path,
        bytes: block.payload,
        at: 0,
        base: block.offset + BLOCK_HEADER_SIZE,
    };
    let mut list = MoveList::new();
    let mut games = Vec::with_capacity(block.games as usize);
    while cursor.at < block.payload.len() {
        games.push(cursor.game(&mut list)?);
    }
    if games.len() != block.games as usize {
        return Err(CorpusError::at(
            path,
            block.offset,
            format!(
                "the block header says {} games, its payload holds {}",
                block.games,
                games.len()
            ),
        ));
    }
    Ok(games)
}

/// A whole shard in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub metadata: Metadata,
    pub games: Vec<GameRecord>,
    /// The last run-totals block's values (datagen output only).
    pub totals: Option<Metadata>,
}

/// Reads, checks and decodes a whole shard.
pub fn read_shard(path: &Path) -> Result<Shard, CorpusError> {
    let bytes = std::fs::read(path).map_err(|e| CorpusError::Io(path.into(), e))?;
    read_shard_bytes(path, &bytes)
}

pub fn read_shard_bytes(path: &Path, bytes: &[u8]) -> Result<Shard, CorpusError> {
    let (metadata, start) = read_header(path, bytes)?;
    let mut games = Vec::new();
    let mut totals = None;
    for block in blocks(path, bytes, start) {
        let block = block?;
        totals = block_stats(&block).or(totals);
        games.extend(decode_block(path, &block)?);
    }
    Ok(Shard {
        metadata,
        games,
        totals,
    })
}

/// Games are gathered into blocks of about this many bytes (one checksum each) by
/// `ShardWriter::push_game`.
pub const PACKED_BLOCK_BYTES: usize = 1 << 20;

/// Appends blocks of whole games to a new shard file: one block per `write_block`, or games
/// gathered by `push_game` into blocks of `PACKED_BLOCK_BYTES` until `finish`.
pub struct ShardWriter {
    file: std::fs::File,
    path: PathBuf,
    bytes: u64,
    pending: Vec<u8>,
    pending_games: u32,
}

impl ShardWriter {
    /// Creates `path` (refusing to overwrite one that exists) and writes the header.
    pub fn create(path: &Path, metadata: &Metadata) -> Result<ShardWriter, CorpusError> {
        use std::io::Write;
        let io = |e| CorpusError::Io(path.into(), e);
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(io)?;
        let header = header_bytes(metadata);
        file.write_all(&header).map_err(io)?;
        Ok(ShardWriter {
            file,
            path: path.into(),
            bytes: header.len() as u64,
            pending: Vec::new(),
            pending_games: 0,
        })
    }

    /// Writes one block of encoded games with a single `write`.
    pub fn write_block(&mut self, games: u32, payload: &[u8]) -> Result<(), CorpusError> {
        use std::io::Write;
        let block = block_bytes(games, payload);
        self.file
            .write_all(&block)
            .and_then(|()| self.file.flush())
            .map_err(|e| CorpusError::Io(self.path.clone(), e))?;
        self.bytes += block.len() as u64;
        Ok(())
    }

    /// Writes a run-totals block (see the module doc) with a single `write`.
    pub fn write_stats(&mut self, totals: &Metadata) -> Result<(), CorpusError> {
        self.write_block(0, &stats_payload(totals))
    }

    /// The file's size once the gathered games are written.
    pub fn len(&self) -> u64 {
        let pending = if self.pending_games > 0 {
            BLOCK_HEADER_SIZE + self.pending.len()
        } else {
            0
        };
        self.bytes + pending as u64
    }

    pub fn is_empty(&self) -> bool {
        self.bytes == 0
    }

    /// Adds one encoded game to the block being gathered, writing the block once it is full.
    pub fn push_game(&mut self, encoded: &[u8]) -> Result<(), CorpusError> {
        self.pending.extend_from_slice(encoded);
        self.pending_games += 1;
        if self.pending.len() >= PACKED_BLOCK_BYTES {
            self.flush_pending()?;
        }
        Ok(())
    }

    fn flush_pending(&mut self) -> Result<(), CorpusError> {
        if self.pending_games > 0 {
            let payload = std::mem::take(&mut self.pending);
            self.write_block(self.pending_games, &payload)?;
            self.pending = payload;
            self.pending.clear();
            self.pending_games = 0;
        }
        Ok(())
    }

    /// Writes the gathered games and syncs the file to disk.
    pub fn finish(mut self) -> Result<(), CorpusError> {
        self.flush_pending()?;
        self.file
            .sync_all()
            .map_err(|e| CorpusError::Io(self.path.clone(), e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::MoveKind;
    use crate::board::game::{Game, Outcome};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Chess960 start number `n` (0..960) by Scharnagl's scheme, as a FEN.
    fn chess960_fen(n: usize) -> String {
        let white = String::from_utf8(crate::board::chess960_back_rank(n).to_vec()).unwrap();
        format!(
            "{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1",
            white.to_lowercase()
        )
    }

    /// What a set of games covers, so the round-trip test can insist on every case.
    #[derive(Default, Debug)]
    struct Seen {
        castles: [bool; 2],
        en_passant: bool,
        promotions: [bool; 4],
        endings: Vec<Ending>,
        chess960: bool,
        mate_scores: bool,
    }

    /// A random game: random legal moves (captures and promotions preferred now and then so
    /// games end), random scores with mates and large jumps, ending by the board or by
    /// "adjudication".
    fn random_game(rng: &mut StdRng, seen: &mut Seen) -> GameRecord {
        let chess960 = rng.gen_bool(0.2);
        let start = if chess960 {
            Position::from_fen_in(&chess960_fen(rng.gen_range(0..960)), CastlingMode::Chess960)
                .unwrap()
        } else {
            Position::startpos()
        };
        let mut game = Game::new(start.clone());
        let opening_plies = rng.gen_range(0..10);
        let mut scored = Vec::new();
        let mut list = MoveList::new();
        let adjudicate_at = rng.gen_range(20..400);
        let (result, ending) = loop {
            if let Some(outcome) = game.outcome() {
                break match outcome {
                    Outcome::Checkmate { winner } => {
                        (GameResult::won_by(winner), Ending::Checkmate)
                    }
                    Outcome::Stalemate => (GameResult::Draw, Ending::Stalemate),
                    Outcome::InsufficientMaterial => {
                        (GameResult::Draw, Ending::InsufficientMaterial)
                    }
                    Outcome::FiftyMoves => (GameResult::Draw, Ending::FiftyMoves),
                    Outcome::Repetition => (GameResult::Draw, Ending::Repetition),
                };
            }
            if game.ply() >= adjudicate_at {
                break if rng.gen_bool(0.5) {
                    (GameResult::Draw, Ending::AdjudicatedDraw)
                } else {
                    (GameResult::WhiteWon, Ending::AdjudicatedWin)
                };
            }
            list.clear();
            legal_moves(game.position(), &mut list);
            let tactical: Vec<Move> = list.iter().copied().filter(|m| m.is_tactical()).collect();
            let m = if !tactical.is_empty() && rng.gen_bool(0.5) {
                tactical[rng.gen_range(0..tactical.len())]
            } else {
                list.get(rng.gen_range(0..list.len()))
            };
            match m.kind() {
                MoveKind::KingCastle => seen.castles[0] = true,
                MoveKind::QueenCastle => seen.castles[1] = true,
                MoveKind::EnPassant => seen.en_passant = true,
                _ => {}
            }
            if let Some(kind) = m.promotion() {
                seen.promotions[kind.index() - PieceKind::Knight.index()] = true;
            }
            if game.ply() >= opening_plies {
                let score: i32 = match rng.gen_range(0..20) {
                    0 => 31_000 - rng.gen_range(0..100),
                    1 => -31_000 + rng.gen_range(0..100),
                    2 => rng.gen_range(-32_000..32_000),
                    _ => rng.gen_range(-300..300),
                };
                seen.mate_scores |= score.abs() >= 30_000;
                scored.push(ScoredPly {
                    played: m,
                    score: score as i16,
                });
            }
            game.push(m);
        };
        seen.endings.push(ending);
        seen.chess960 |= chess960;
        let opening = game.moves()[..opening_plies.min(game.ply())].to_vec();
        GameRecord {
            start,
            chess960,
            start_ply: 0,
            opening,
            scored,
            final_score: rng.gen_bool(0.3).then(|| rng.gen_range(-500..500)),
            result,
            ending,
        }
    }

    fn shard_bytes(games: &[GameRecord], per_block: usize) -> Vec<u8> {
        let mut metadata = Metadata::default();
        metadata.set("seed", "7");
        let mut bytes = header_bytes(&metadata);
        for chunk in games.chunks(per_block) {
            let mut payload = Vec::new();
            for game in chunk {
                encode_game(game, &mut payload);
            }
            bytes.extend(block_bytes(chunk.len() as u32, &payload));
        }
        bytes
    }

    #[test]
    fn hundreds_of_games_come_back_exactly() {
        let mut rng = StdRng::seed_from_u64(11);
        let mut seen = Seen::default();
        let mut games: Vec<GameRecord> =
            (0..300).map(|_| random_game(&mut rng, &mut seen)).collect();
        // A converted position: a FEN start with plies before it, no moves, a final score.
        games.push(GameRecord {
            start: Position::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 3 40").unwrap(),
            chess960: false,
            start_ply: 77,
            opening: Vec::new(),
            scored: Vec::new(),
            final_score: Some(-123),
            result: GameResult::BlackWon,
            ending: Ending::Unknown,
        });
        assert_eq!(seen.castles, [true; 2], "{seen:?}");
        assert!(
            seen.en_passant && seen.chess960 && seen.mate_scores,
            "{seen:?}"
        );
        assert_eq!(seen.promotions, [true; 4], "{seen:?}");
        for ending in [
            Ending::Checkmate,
            Ending::Stalemate,
            Ending::AdjudicatedWin,
            Ending::AdjudicatedDraw,
        ] {
            assert!(seen.endings.contains(&ending), "{ending:?} in {seen:?}");
        }
        let bytes = shard_bytes(&games, 17);
        let shard = read_shard_bytes(Path::new("t.iwc"), &bytes).unwrap();
        assert_eq!(shard.metadata.get("seed"), Some("7"));
        assert_eq!(shard.games, games);
    }

    #[test]
    fn a_flipped_byte_or_a_cut_is_reported_with_its_offset() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut seen = Seen::default();
        let games: Vec<GameRecord> = (0..20).map(|_| random_game(&mut rng, &mut seen)).collect();
        let good = shard_bytes(&games, 5);
        let path = Path::new("s.iwc");
        let error = |bytes: &[u8]| read_shard_bytes(path, bytes).unwrap_err().to_string();
        let (_, first_block) = read_header(path, &good).unwrap();
        let block_offsets: Vec<usize> = blocks(path, &good, first_block)
            .map(|b| b.unwrap().offset)
            .collect();
        assert_eq!(block_offsets.len(), 4);

        // Every byte of the file, flipped, is caught.
        for at in (0..good.len()).step_by(7) {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            let message = error(&bad);
            assert!(message.starts_with("s.iwc: byte "), "{message}");
            if at >= block_offsets[2] + BLOCK_HEADER_SIZE && at < block_offsets[3] {
                assert!(
                    message.contains(&format!("byte {}: block checksum", block_offsets[2])),
                    "{at}: {message}"
                );
            }
        }

        let mut bad_magic = good.clone();
        bad_magic[1] = b'X';
        assert!(error(&bad_magic).contains("byte 0: not an Ironwood corpus shard"));
        let mut bad_version = good.clone();
        bad_version[8] = 9;
        assert!(error(&bad_version).contains("byte 8: corpus format version 9"));

        let cut = &good[..good.len() - 3];
        let message = error(cut);
        assert!(
            message.contains(&format!("byte {}: truncated", block_offsets[3])),
            "{message}"
        );
        assert!(matches!(
            read_shard_bytes(path, cut),
            Err(CorpusError::Truncated { .. })
        ));
        assert!(error(&good[..block_offsets[1] + 5]).contains("not a whole block header"));
        assert!(error(&good[..10]).contains("truncated: 10 bytes"));
    }

    #[test]
    fn a_damaged_game_inside_a_good_block_names_its_byte() {
        // A move index past the legal moves, with a checksum that matches the damage.
        let game = GameRecord {
            start: Position::startpos(),
            chess960: false,
            start_ply: 0,
            opening: vec![],
            scored: vec![],
            final_score: None,
            result: GameResult::Draw,
            ending: Ending::AdjudicatedDraw,
        };
        let mut payload = Vec::new();
        encode_game(&game, &mut payload);
        assert_eq!(payload, [0, 0, 0, 1 | 8 << 2]);
        let damaged = [0u8, 1, 20, 0, 1];
        let mut bytes = header_bytes(&Metadata::default());
        let block = bytes.len();
        bytes.extend(block_bytes(1, &damaged));
        let message = read_shard_bytes(Path::new("d.iwc"), &bytes)
            .unwrap_err()
            .to_string();
        assert!(
            message.contains(&format!(
                "byte {}: ply 1: move index 20, but the position has 20 legal moves",
                block + BLOCK_HEADER_SIZE + 2
            )),
            "{message}"
        );
    }

    /// The position's legal moves sorted by the documented key: the order the decoder's
    /// selection (`canonical_move_at`) and the encoder's count (`move_index`) must agree with.
    fn canonical_moves(pos: &Position, list: &mut MoveList) {
        list.clear();
        legal_moves(pos, list);
        for i in 1..list.len() {
            let mut j = i;
            while j > 0 && move_key(list.get(j - 1)) > move_key(list.get(j)) {
                list.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    #[test]
    fn move_indices_follow_the_documented_order() {
        let pos = Position::startpos();
        let mut list = MoveList::new();
        canonical_moves(&pos, &mut list);
        let text: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        // The key's high bits are the target square's: a3 (16) first, b1 (1) before a2 (8).
        assert_eq!(&text[..4], ["b1a3", "a2a3", "b2b3", "b1c3"]);
        assert_eq!(text[19], "h2h4");
        // Castling and a king step to the same square differ by class.
        let pos = Position::from_fen_in(
            "1r3kr1/8/8/8/8/8/8/1R3KR1 w KQkq - 0 1",
            CastlingMode::Chess960,
        )
        .unwrap();
        canonical_moves(&pos, &mut list);
        let keys: Vec<u16> = list.iter().map(|&m| move_key(m)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "distinct and sorted");
        assert!(list.iter().any(|m| m.is_castle()));
    }

    #[test]
    fn selecting_a_move_by_index_agrees_with_the_sorted_order() {
        let mut sorted = MoveList::new();
        let mut scratch = MoveList::new();
        for (fen, mode) in [
            (crate::board::fen::START_FEN, CastlingMode::Standard),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                CastlingMode::Standard,
            ),
            (
                "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                CastlingMode::Standard,
            ),
            (
                "1r3kr1/8/8/8/8/8/8/1R3KR1 w KQkq - 0 1",
                CastlingMode::Chess960,
            ),
        ] {
            let pos = Position::from_fen_in(fen, mode).unwrap();
            canonical_moves(&pos, &mut sorted);
            for (i, &m) in sorted.iter().enumerate() {
                assert_eq!(
                    canonical_move_at(&pos, i, &mut scratch),
                    Some(m),
                    "{fen} {i}"
                );
                assert_eq!(
                    move_index(&pos, m, &mut scratch),
                    Some(i as u8),
                    "{fen} {m}"
                );
            }
            assert_eq!(canonical_move_at(&pos, sorted.len(), &mut scratch), None);
            assert_eq!(scratch.len(), sorted.len());
        }
    }

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32_update(crc32(b"1234"), b"56789"), 0xCBF4_3926);
    }
}
