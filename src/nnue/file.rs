//! The network file, the one place its layout is defined. All numbers little-endian.
//!
//! Header, 48 bytes: the magic `IRONWNET` (8 bytes), then u32s: format version (1, 2 or 3),
//! inputs (768), hidden width H (a multiple of 32 from 32 to 1024: `hidden_width_allowed`;
//! 128 in the embedded network), activation (0 = clipped ReLU, 1 = squared clipped
//! ReLU; version 1 has only 0), QA (255), QB (64), eval scale (400), output buckets B
//! (versions 2 and 3: 1 or 8; version 1: reserved, 0, and B is 1); then the FNV-1a 64-bit
//! checksum (u64) of every byte after it. Version 3: one more u32, the input transform
//! (0 = plain, 1 = mirrored a-h by each view's king file, `InputTransform`), so its header is
//! 52 bytes. Version 4: after it, the king buckets' table, 64 bytes (the bucket of each
//! square of the view's own king as the view sees it, a1 first; K = the highest plus one,
//! at most 16: `KingBuckets`), so its header is 116 bytes.
//! Payload: feature-transformer weights (i16, 768 x K rows of H, row = feature, bucket 0's
//! 768 first), its biases
//! (i16 x H), output weights (i16, B rows of 2H: bucket 0 first, side to move's half first
//! in each), output biases (i32 x B). Version 1 is version 2 with B = 1 and clipped ReLU,
//! version 2 is version 3 with plain inputs, and version 3 is version 4 with K = 1; a
//! network is written in the oldest version
//! that holds it, so older builds read what they can run and the embedded file stays byte
//! for byte the same.
//!
//! Why a version rather than a spare field: the 48-byte header has none left (the bucket
//! field was version 1's reserved one), and a mirrored network read as a plain one would
//! evaluate every king on files e-h wrongly without a word, so a build that predates the
//! transform must refuse it, which a new version number does (`BadVersion(3)`). The field
//! sits after the checksum so the first 48 bytes mean the same in every version, and the
//! checksum covers it, so a damaged transform is caught like a damaged weight and networks
//! that differ only in it have different checksums (the checksum names a network). The
//! king buckets' table follows for the same reasons.
use super::{
    Activation, HIDDEN_STEP, INPUTS, InputTransform, KingBuckets, MAX_HIDDEN, MAX_KING_BUCKETS,
    Network, OUTPUT_BUCKET_COUNTS, QA, QB, SCALE, hidden_width_allowed,
};
use std::fmt;

pub const MAGIC: [u8; 8] = *b"IRONWNET";
/// The newest version this build reads and writes.
pub const VERSION: u32 = 4;
/// The header of versions 1 and 2, which every version starts with.
pub const HEADER_SIZE: usize = 48;
/// Where version 3's input transform field (a u32) sits, the end of the shared header.
pub const INPUT_TRANSFORM_AT: usize = HEADER_SIZE;
/// Where version 4's king buckets' table (64 bytes) sits.
pub const KING_BUCKETS_AT: usize = INPUT_TRANSFORM_AT + 4;

/// The header's size in a file of `version`.
pub const fn header_size(version: u32) -> usize {
    match version {
        0..=2 => HEADER_SIZE,
        3 => KING_BUCKETS_AT,
        _ => KING_BUCKETS_AT + 64,
    }
}

/// The payload's size with `king_buckets` sets of input weights, hidden width `hidden` and
/// `buckets` output buckets.
pub const fn payload_size(king_buckets: usize, hidden: usize, buckets: usize) -> usize {
    2 * (INPUTS * king_buckets * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
}

/// The largest feature-transformer weight or bias a file may hold: 32 pieces and the bias
/// then always fit an i16 accumulator.
pub const MAX_TRANSFORMER_VALUE: i16 = 992;

/// The largest |output weight| of a squared-clipped-ReLU network: the integer output
/// layer multiplies a clipped value (0..=QA) by its weight in an i16 lane, and
/// 255 x 127 = 32385 fits. The trainer's weight clip (1.98 x QB = 126.7) stays within it.
pub const MAX_SCRELU_OUTPUT_WEIGHT: i16 = 127;
const _: () = assert!(QA * MAX_SCRELU_OUTPUT_WEIGHT as i32 <= i16::MAX as i32);

/// Why bytes are not a network this build can use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    Io(String),
    TooShort(usize),
    BadMagic,
    BadVersion(u32),
    BadLayout {
        inputs: u32,
        hidden: u32,
    },
    /// An activation code this build does not know, or one its version cannot hold.
    UnknownActivation {
        version: u32,
        code: u32,
    },
    /// An output bucket count other than 1 or 8.
    BadOutputBuckets(u32),
    /// An input transform code this build does not know (version 3's field).
    UnknownInputTransform(u32),
    /// A king buckets' table with a bucket past `MAX_KING_BUCKETS` (version 4's field).
    TooManyKingBuckets(u8),
    BadQuantisation {
        qa: u32,
        qb: u32,
        scale: u32,
    },
    /// A file (or parts) of `size` bytes where its header's layout, `inputs` (768 per king
    /// bucket) to hidden width `hidden` with `buckets` output buckets, takes `expected` (the
    /// file's: header included).
    WrongSize {
        size: usize,
        expected: usize,
        inputs: u32,
        hidden: u32,
        buckets: u32,
    },
    BadChecksum {
        stored: u64,
        computed: u64,
    },
    /// A transformer weight or bias beyond `MAX_TRANSFORMER_VALUE` (index in the payload's i16s).
    OutOfRange {
        index: usize,
        value: i16,
    },
    /// A squared-clipped-ReLU output weight beyond `MAX_SCRELU_OUTPUT_WEIGHT` (index among
    /// the output weights).
    OutputWeightOutOfRange {
        index: usize,
        value: i16,
    },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Io(e) => write!(f, "cannot read the network: {e}"),
            NetworkError::TooShort(n) => write!(
                f,
                "truncated: {n} bytes, shorter than the network header ({HEADER_SIZE} bytes, \
                 {} in version 3, {} in version 4)",
                header_size(3),
                header_size(4)
            ),
            NetworkError::BadMagic => {
                write!(
                    f,
                    "not an Ironwood network (it does not start with `IRONWNET`)"
                )
            }
            NetworkError::BadVersion(v) => write!(
                f,
                "network format version {v}; this build reads versions 1 to {VERSION}"
            ),
            NetworkError::BadLayout { inputs, hidden } => write!(
                f,
                "network layout {inputs} -> {hidden}; this build runs {INPUTS} -> H for H a \
                 multiple of {HIDDEN_STEP} from {HIDDEN_STEP} to {MAX_HIDDEN}"
            ),
            NetworkError::UnknownActivation { version, code } => write!(
                f,
                "activation code {code} in a version {version} network; this build knows 0 \
                 (clipped ReLU) and, from version 2, 1 (squared clipped ReLU)"
            ),
            NetworkError::BadOutputBuckets(buckets) => write!(
                f,
                "{buckets} output buckets; this build runs networks of {OUTPUT_BUCKET_COUNTS:?}"
            ),
            NetworkError::UnknownInputTransform(code) => write!(
                f,
                "input transform code {code}; this build knows 0 (plain) and 1 (mirrored by \
                 king file)"
            ),
            NetworkError::TooManyKingBuckets(bucket) => write!(
                f,
                "king bucket {bucket} in the king buckets' table; this build runs at most \
                 {MAX_KING_BUCKETS} buckets"
            ),
            NetworkError::BadQuantisation { qa, qb, scale } => write!(
                f,
                "quantisation QA {qa}, QB {qb}, scale {scale}; this build uses QA {QA}, QB {QB}, \
                 scale {SCALE}"
            ),
            NetworkError::WrongSize {
                size,
                expected,
                inputs,
                hidden,
                buckets,
            } => write!(
                f,
                "truncated or padded: {size} bytes, where a {inputs} -> {hidden} network with \
                 {buckets} output bucket(s), as its header says, takes {expected}"
            ),
            NetworkError::BadChecksum { stored, computed } => write!(
                f,
                "checksum mismatch (header {stored:016x}, contents {computed:016x}): the file is damaged"
            ),
            NetworkError::OutOfRange { index, value } => write!(
                f,
                "transformer value {value} at {index} is beyond +-{MAX_TRANSFORMER_VALUE}"
            ),
            NetworkError::OutputWeightOutOfRange { index, value } => write!(
                f,
                "output weight {value} at {index} is beyond +-{MAX_SCRELU_OUTPUT_WEIGHT}, the \
                 bound of a squared clipped ReLU network"
            ),
        }
    }
}

impl std::error::Error for NetworkError {}

/// FNV-1a, 64 bits: catches damaged or edited files, not a security measure.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

fn i16s(bytes: &[u8]) -> impl Iterator<Item = i16> + '_ {
    bytes
        .chunks_exact(2)
        .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
}

/// Checks every header field, the size and the checksum, then decodes the payload.
pub fn decode(bytes: &[u8]) -> Result<Network, NetworkError> {
    if bytes.len() < HEADER_SIZE {
        return Err(NetworkError::TooShort(bytes.len()));
    }
    if bytes[..8] != MAGIC {
        return Err(NetworkError::BadMagic);
    }
    let version = u32_at(bytes, 8);
    if !(1..=VERSION).contains(&version) {
        return Err(NetworkError::BadVersion(version));
    }
    let (inputs, hidden) = (u32_at(bytes, 12), u32_at(bytes, 16));
    if inputs != INPUTS as u32 || !hidden_width_allowed(hidden as usize) {
        return Err(NetworkError::BadLayout { inputs, hidden });
    }
    let hidden = hidden as usize;
    let code = u32_at(bytes, 20);
    let activation = Activation::from_code(code)
        .filter(|&a| version >= 2 || a == Activation::ClippedRelu)
        .ok_or(NetworkError::UnknownActivation { version, code })?;
    let (qa, qb, scale) = (u32_at(bytes, 24), u32_at(bytes, 28), u32_at(bytes, 32));
    if (qa, qb, scale) != (QA as u32, QB as u32, SCALE as u32) {
        return Err(NetworkError::BadQuantisation { qa, qb, scale });
    }
    let buckets = match version {
        1 => 1,
        _ => u32_at(bytes, 36),
    };
    if !OUTPUT_BUCKET_COUNTS.contains(&(buckets as usize)) {
        return Err(NetworkError::BadOutputBuckets(buckets));
    }
    let buckets = buckets as usize;
    let header_len = header_size(version);
    if bytes.len() < header_len {
        return Err(NetworkError::TooShort(bytes.len()));
    }
    let input_transform = match version {
        1 | 2 => InputTransform::Plain,
        _ => {
            let code = u32_at(bytes, INPUT_TRANSFORM_AT);
            InputTransform::from_code(code).ok_or(NetworkError::UnknownInputTransform(code))?
        }
    };
    let king_buckets = match version {
        1..=3 => KingBuckets::NONE,
        _ => {
            let table: [u8; 64] = bytes[KING_BUCKETS_AT..KING_BUCKETS_AT + 64]
                .try_into()
                .unwrap();
            KingBuckets::from_table(table).map_err(NetworkError::TooManyKingBuckets)?
        }
    };
    let inputs = INPUTS * king_buckets.count();
    let payload_len = payload_size(king_buckets.count(), hidden, buckets);
    if bytes.len() != header_len + payload_len {
        return Err(NetworkError::WrongSize {
            size: bytes.len(),
            expected: header_len + payload_len,
            inputs: inputs as u32,
            hidden: hidden as u32,
            buckets: buckets as u32,
        });
    }
    let stored = u64::from_le_bytes(bytes[40..48].try_into().unwrap());
    let computed = checksum(&bytes[HEADER_SIZE..]);
    if stored != computed {
        return Err(NetworkError::BadChecksum { stored, computed });
    }
    let payload = &bytes[header_len..];
    let transformer_len = 2 * (inputs * hidden + hidden);
    let output_end = payload_len - 4 * buckets;
    let transformer: Vec<i16> = i16s(&payload[..transformer_len]).collect();
    let output: Vec<i16> = i16s(&payload[transformer_len..output_end]).collect();
    let output_biases: Vec<i32> = payload[output_end..]
        .chunks_exact(4)
        .map(|b| i32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    let (weights, biases) = transformer.split_at(inputs * hidden);
    Network::from_parts(
        weights.to_vec(),
        biases.to_vec(),
        activation,
        input_transform,
        king_buckets,
        &output,
        output_biases,
    )
}

/// The version `net` is written as: the oldest that holds it.
fn version_of(net: &Network) -> u32 {
    if net.king_buckets.count() > 1 {
        4
    } else if net.input_transform != InputTransform::Plain {
        3
    } else if net.output_buckets() == 1 && net.activation == Activation::ClippedRelu {
        1
    } else {
        2
    }
}

/// Every byte of `net`'s file after the checksum field (what the checksum covers): the
/// input transform field (versions 3 and 4), the king buckets' table (version 4), then the
/// payload.
pub(super) fn encode_checksummed(net: &Network) -> Vec<u8> {
    let version = version_of(net);
    let mut bytes = Vec::with_capacity(
        header_size(version) - HEADER_SIZE
            + payload_size(net.king_buckets.count(), net.hidden, net.output_buckets()),
    );
    if version >= 3 {
        bytes.extend_from_slice(&net.input_transform.code().to_le_bytes());
    }
    if version >= 4 {
        bytes.extend_from_slice(net.king_buckets.table());
    }
    for value in net
        .transformer_weights
        .iter()
        .chain(&net.transformer_biases)
        .chain(&net.output_weights)
    {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    for bias in &net.output_biases {
        bytes.extend_from_slice(&bias.to_le_bytes());
    }
    bytes
}

/// The file for `net`, in the oldest version that holds it: 1 for one bucket, clipped ReLU
/// and plain inputs, 4 for king buckets, 3 for mirrored inputs, else 2.
pub fn encode(net: &Network) -> Vec<u8> {
    let checksummed = encode_checksummed(net);
    let version = version_of(net);
    let bucket_field = match version {
        1 => 0,
        _ => net.output_buckets() as u32,
    };
    let mut bytes = Vec::with_capacity(HEADER_SIZE + checksummed.len());
    bytes.extend_from_slice(&MAGIC);
    for field in [
        version,
        INPUTS as u32,
        net.hidden as u32,
        net.activation.code(),
        QA as u32,
        QB as u32,
        SCALE as u32,
        bucket_field,
    ] {
        bytes.extend_from_slice(&field.to_le_bytes());
    }
    bytes.extend_from_slice(&checksum(&checksummed).to_le_bytes());
    bytes.extend_from_slice(&checksummed);
    bytes
}
