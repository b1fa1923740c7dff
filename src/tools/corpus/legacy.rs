//! The old training-data file (format version 1, 32 bytes per quiet position), kept so
//! `ironwood corpus convert` can turn files still on a machine into corpus games. All
//! numbers little-endian.
//!
//! Header, 16 bytes: the magic `IRONWOOD` (8 bytes), the format version (u32, now 1) and
//! the record size (u32, now 32). Then fixed-size records, one per kept position, written a
//! whole game at a time:
//!
//! | bytes  | field                                                                  |
//! |--------|------------------------------------------------------------------------|
//! | 0..8   | occupied squares (u64, bit 0 = a1)                                     |
//! | 8..24  | one 4-bit code per occupied square in ascending order, low nibble first: |
//! |        | piece kind (0 pawn .. 5 king) plus 8 for Black; unused nibbles are 0    |
//! | 24     | flags: bit 0 set when Black is to move, other bits 0                   |
//! | 25     | game result: 0 Black won, 1 draw, 2 White won                          |
//! | 26..28 | search score (i16, centipawns, White's point of view)                  |
//! | 28..30 | plies played in the game before this position (u16)                   |
//! | 30..32 | reserved, 0                                                            |
//!
//! Castling rights, en passant and the move clocks are not stored: the evaluation reads none.

use super::format::{Ending, GameRecord, GameResult, Metadata, ShardWriter, encode_game};
use crate::board::{Color, Piece, PieceKind, Position, Square};
use std::fmt;
use std::path::{Path, PathBuf};

pub const MAGIC: [u8; 8] = *b"IRONWOOD";
pub const VERSION: u32 = 1;
pub const HEADER_SIZE: usize = 16;
pub const RECORD_SIZE: usize = 32;

/// One kept position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub position: Position,
    /// Centipawns, White's point of view.
    pub score: i16,
    pub result: GameResult,
    pub ply: u16,
}

/// Why a data file cannot be read (or appended to).
#[derive(Debug)]
pub enum DataError {
    Io(PathBuf, std::io::Error),
    TooShort(PathBuf, usize),
    BadMagic(PathBuf),
    BadVersion(PathBuf, u32),
    BadRecordSize(PathBuf, u32),
    Truncated {
        path: PathBuf,
        records: usize,
        extra: usize,
    },
    BadRecord {
        path: PathBuf,
        record: usize,
        why: String,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            DataError::TooShort(path, n) => write!(
                f,
                "{}: truncated: {n} bytes, shorter than the {HEADER_SIZE}-byte header",
                path.display()
            ),
            DataError::BadMagic(path) => write!(
                f,
                "{}: not an Ironwood data file (it does not start with `IRONWOOD`)",
                path.display()
            ),
            DataError::BadVersion(path, v) => write!(
                f,
                "{}: data format version {v}; this build reads version {VERSION}",
                path.display()
            ),
            DataError::BadRecordSize(path, n) => write!(
                f,
                "{}: records of {n} bytes; version {VERSION} has {RECORD_SIZE}",
                path.display()
            ),
            DataError::Truncated {
                path,
                records,
                extra,
            } => write!(
                f,
                "{}: truncated: {extra} bytes after record {records} are not a whole record",
                path.display()
            ),
            DataError::BadRecord { path, record, why } => {
                write!(f, "{}: record {}: {why}", path.display(), record + 1)
            }
        }
    }
}

impl std::error::Error for DataError {}

fn header() -> [u8; HEADER_SIZE] {
    let mut h = [0u8; HEADER_SIZE];
    h[..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(RECORD_SIZE as u32).to_le_bytes());
    h
}

/// Checks the header and that the rest is whole records; returns the record count.
fn check_layout(path: &Path, bytes: &[u8]) -> Result<usize, DataError> {
    if bytes.len() < HEADER_SIZE {
        return Err(DataError::TooShort(path.into(), bytes.len()));
    }
    if bytes[..8] != MAGIC {
        return Err(DataError::BadMagic(path.into()));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
    if version != VERSION {
        return Err(DataError::BadVersion(path.into(), version));
    }
    let record_size = u32::from_le_bytes(bytes[12..16].try_into().unwrap());
    if record_size as usize != RECORD_SIZE {
        return Err(DataError::BadRecordSize(path.into(), record_size));
    }
    let body = bytes.len() - HEADER_SIZE;
    if !body.is_multiple_of(RECORD_SIZE) {
        return Err(DataError::Truncated {
            path: path.into(),
            records: body / RECORD_SIZE,
            extra: body % RECORD_SIZE,
        });
    }
    Ok(body / RECORD_SIZE)
}

pub fn encode(record: &Record, out: &mut Vec<u8>) {
    let pos = &record.position;
    let mut bytes = [0u8; RECORD_SIZE];
    bytes[..8].copy_from_slice(&pos.occupied().0.to_le_bytes());
    for (i, sq) in pos.occupied().into_iter().enumerate() {
        let piece = pos.piece_at(sq).expect("occupied square holds a piece");
        let code = piece.kind.index() as u8 + 8 * piece.color.index() as u8;
        bytes[8 + i / 2] |= code << (4 * (i % 2));
    }
    bytes[24] = u8::from(pos.side_to_move() == Color::Black);
    bytes[25] = record.result as u8;
    bytes[26..28].copy_from_slice(&record.score.to_le_bytes());
    bytes[28..30].copy_from_slice(&record.ply.to_le_bytes());
    out.extend_from_slice(&bytes);
}

fn decode(bytes: &[u8]) -> Result<Record, String> {
    let occupied = u64::from_le_bytes(bytes[..8].try_into().unwrap());
    if occupied.count_ones() > 32 {
        return Err(format!("{} occupied squares", occupied.count_ones()));
    }
    let mut board = [None; 64];
    let mut bits = occupied;
    let mut i = 0;
    while bits != 0 {
        let sq = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let code = (bytes[8 + i / 2] >> (4 * (i % 2))) & 15;
        let color = if code & 8 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let kind = *PieceKind::ALL
            .get(usize::from(code & 7))
            .ok_or_else(|| format!("bad piece code {code}"))?;
        board[sq] = Some(Piece::new(color, kind));
        i += 1;
    }
    if bytes[24] > 1 {
        return Err(format!("bad flags {:#x}", bytes[24]));
    }
    let result = match bytes[25] {
        0 => GameResult::BlackWon,
        1 => GameResult::Draw,
        2 => GameResult::WhiteWon,
        other => return Err(format!("bad result {other}")),
    };
    let mut fen = String::with_capacity(90);
    for rank in (0..8u8).rev() {
        let mut empty = 0;
        for file in 0..8u8 {
            match board[Square::from_file_rank(file, rank).index()] {
                Some(piece) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(piece.fen_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if bytes[24] == 1 {
        " b - - 0 1"
    } else {
        " w - - 0 1"
    });
    let position =
        Position::from_fen(&fen).map_err(|e| format!("not a legal position ({e}): {fen}"))?;
    Ok(Record {
        position,
        score: i16::from_le_bytes(bytes[26..28].try_into().unwrap()),
        result,
        ply: u16::from_le_bytes(bytes[28..30].try_into().unwrap()),
    })
}

/// Every record of a data file; any damage is an error naming the file and the record.
pub fn read_file(path: &Path) -> Result<Vec<Record>, DataError> {
    let bytes = std::fs::read(path).map_err(|e| DataError::Io(path.into(), e))?;
    read_bytes(path, &bytes)
}

/// Decodes a whole file's bytes (`path` names it in errors).
pub fn read_bytes(path: &Path, bytes: &[u8]) -> Result<Vec<Record>, DataError> {
    let count = check_layout(path, bytes)?;
    bytes[HEADER_SIZE..]
        .chunks_exact(RECORD_SIZE)
        .enumerate()
        .map(|(record, chunk)| {
            decode(chunk).map_err(|why| DataError::BadRecord {
                path: path.into(),
                record,
                why,
            })
        })
        .take(count)
        .collect()
}

/// Writes every record of the old files as a one-position game (its position, score,
/// result and ply kept exactly) to a new datagen-style output file for `corpus add`.
/// Returns the number of records.
pub fn convert(inputs: &[PathBuf], out: &Path) -> Result<u64, String> {
    let mut metadata = Metadata::default();
    let names: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
    metadata.set(
        "generator",
        format!(
            "ironwood {} corpus convert from {}",
            env!("CARGO_PKG_VERSION"),
            names.join(" ")
        ),
    );
    metadata.set("commit", crate::BUILD_COMMIT);
    metadata.set("date", super::utc_date_now());
    let mut writer = ShardWriter::create(out, &metadata).map_err(|e| e.to_string())?;
    let mut count = 0u64;
    let mut encoded = Vec::new();
    for input in inputs {
        for record in read_file(input).map_err(|e| e.to_string())? {
            encoded.clear();
            encode_game(&record.into_game(), &mut encoded);
            writer.push_game(&encoded).map_err(|e| e.to_string())?;
            count += 1;
        }
    }
    writer.finish().map_err(|e| e.to_string())?;
    Ok(count)
}

impl Record {
    /// The record as a game of one scored position and no moves.
    pub fn into_game(self) -> GameRecord {
        GameRecord {
            start: self.position,
            chess960: false,
            start_ply: self.ply,
            opening: Vec::new(),
            scored: Vec::new(),
            final_score: Some(self.score),
            result: self.result,
            ending: Ending::Unknown,
        }
    }
}

/// An old file's bytes with these records (for tests of the converter).
pub fn file_bytes(records: &[Record]) -> Vec<u8> {
    let mut bytes = header().to_vec();
    for record in records {
        encode(record, &mut bytes);
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_records() -> Vec<Record> {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K2Q b - - 0 1",
        ];
        fens.iter()
            .enumerate()
            .map(|(i, fen)| Record {
                position: Position::from_fen(fen).unwrap(),
                score: [-32000, -15, 0, 31000][i],
                result: [
                    GameResult::BlackWon,
                    GameResult::Draw,
                    GameResult::WhiteWon,
                    GameResult::Draw,
                ][i],
                ply: [0, 17, 300, u16::MAX][i],
            })
            .collect()
    }

    #[test]
    fn records_round_trip_through_a_file() {
        let records = sample_records();
        let bytes = file_bytes(&records);
        assert_eq!(bytes.len(), HEADER_SIZE + 4 * RECORD_SIZE);
        assert_eq!(read_bytes(Path::new("x"), &bytes).unwrap(), records);
    }

    #[test]
    fn damaged_files_are_rejected_with_a_clear_message() {
        let path = PathBuf::from("damaged.bin");
        let good = file_bytes(&sample_records());
        let error = |bytes: &[u8]| read_bytes(&path, bytes).unwrap_err().to_string();

        let mut bad_magic = good.clone();
        bad_magic[0] = b'X';
        assert!(error(&bad_magic).contains("not an Ironwood data file"));

        let mut bad_version = good.clone();
        bad_version[8] = 7;
        assert!(error(&bad_version).contains("version 7; this build reads version 1"));

        assert!(error(&good[..10]).contains("truncated: 10 bytes"));
        let cut = &good[..good.len() - 5];
        assert!(
            error(cut).contains("truncated: 27 bytes after record 3"),
            "{}",
            error(cut)
        );

        let mut bad_result = good.clone();
        bad_result[HEADER_SIZE + RECORD_SIZE + 25] = 9;
        assert!(error(&bad_result).contains("record 2: bad result 9"));

        // Two white kings: the piece codes decode but the position is not legal.
        let mut bad_position = good.clone();
        let record = HEADER_SIZE + 3 * RECORD_SIZE;
        bad_position[record + 8] = 0x55;
        assert!(error(&bad_position).contains("record 4: not a legal position"));
    }

    #[test]
    fn conversion_keeps_every_record() {
        let dir = std::env::temp_dir().join(format!("ironwood-legacy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (old, new) = (dir.join("old.bin"), dir.join("new.iwc"));
        let _ = std::fs::remove_file(&new);
        let records = sample_records();
        std::fs::write(&old, file_bytes(&records)).unwrap();
        assert_eq!(convert(&[old.clone(), old], &new).unwrap(), 8);
        let shard = crate::tools::corpus::format::read_shard(&new).unwrap();
        let filter = crate::tools::corpus::filter::Filter::ALL;
        let back: Vec<Record> = shard
            .games
            .iter()
            .flat_map(|g| filter.positions(g))
            .map(|p| Record {
                position: p.position,
                score: p.score,
                result: p.result,
                ply: p.ply,
            })
            .collect();
        assert_eq!(back[..4], records[..]);
        assert_eq!(back[4..], records[..]);
        assert!(
            convert(&[], &new).is_err(),
            "an existing file is never overwritten"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
