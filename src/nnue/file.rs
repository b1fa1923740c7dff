//! The network file, the one place its layout is defined. All numbers little-endian.
//!
//! Header, 48 bytes: the magic `IRONWNET` (8 bytes), then u32s: format version (now 1),
//! inputs (768), hidden width H (128), activation (0 = clipped ReLU), QA (255), QB (64),
//! eval scale (400), reserved 0; then the payload's FNV-1a 64-bit checksum (u64).
//! Payload: feature-transformer weights (i16, 768 rows of H, row = feature), its biases
//! (i16 x H), output weights (i16 x 2H: side to move's half first), output bias (i32).

use super::{ACTIVATION_CRELU, HIDDEN, INPUTS, Network, QA, QB, SCALE};
use std::fmt;

pub const MAGIC: [u8; 8] = *b"IRONWNET";
pub const VERSION: u32 = 1;
pub const HEADER_SIZE: usize = 48;
pub const PAYLOAD_SIZE: usize = 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;
pub const FILE_SIZE: usize = HEADER_SIZE + PAYLOAD_SIZE;

/// The largest feature-transformer weight or bias a file may hold: 32 pieces and the bias
/// then always fit an i16 accumulator.
pub const MAX_TRANSFORMER_VALUE: i16 = 992;

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
        activation: u32,
    },
    BadQuantisation {
        qa: u32,
        qb: u32,
        scale: u32,
    },
    WrongSize(usize),
    BadChecksum {
        stored: u64,
        computed: u64,
    },
    /// A transformer weight or bias beyond `MAX_TRANSFORMER_VALUE` (index in the payload's i16s).
    OutOfRange {
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
                "truncated: {n} bytes, shorter than the {HEADER_SIZE}-byte network header"
            ),
            NetworkError::BadMagic => {
                write!(
                    f,
                    "not an Ironwood network (it does not start with `IRONWNET`)"
                )
            }
            NetworkError::BadVersion(v) => write!(
                f,
                "network format version {v}; this build reads version {VERSION}"
            ),
            NetworkError::BadLayout {
                inputs,
                hidden,
                activation,
            } => write!(
                f,
                "network layout {inputs} -> {hidden} (activation {activation}); this build runs \
                 {INPUTS} -> {HIDDEN} (activation {ACTIVATION_CRELU})"
            ),
            NetworkError::BadQuantisation { qa, qb, scale } => write!(
                f,
                "quantisation QA {qa}, QB {qb}, scale {scale}; this build uses QA {QA}, QB {QB}, \
                 scale {SCALE}"
            ),
            NetworkError::WrongSize(n) => write!(
                f,
                "truncated or padded: {n} bytes; a network of this layout has {FILE_SIZE}"
            ),
            NetworkError::BadChecksum { stored, computed } => write!(
                f,
                "checksum mismatch (header {stored:016x}, contents {computed:016x}): the file is damaged"
            ),
            NetworkError::OutOfRange { index, value } => write!(
                f,
                "transformer value {value} at {index} is beyond +-{MAX_TRANSFORMER_VALUE}"
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
    if version != VERSION {
        return Err(NetworkError::BadVersion(version));
    }
    let (inputs, hidden, activation) = (u32_at(bytes, 12), u32_at(bytes, 16), u32_at(bytes, 20));
    if (inputs, hidden, activation) != (INPUTS as u32, HIDDEN as u32, ACTIVATION_CRELU) {
        return Err(NetworkError::BadLayout {
            inputs,
            hidden,
            activation,
        });
    }
    let (qa, qb, scale) = (u32_at(bytes, 24), u32_at(bytes, 28), u32_at(bytes, 32));
    if (qa, qb, scale) != (QA as u32, QB as u32, SCALE as u32) {
        return Err(NetworkError::BadQuantisation { qa, qb, scale });
    }
    if bytes.len() != FILE_SIZE {
        return Err(NetworkError::WrongSize(bytes.len()));
    }
    let payload = &bytes[HEADER_SIZE..];
    let stored = u64::from_le_bytes(bytes[40..48].try_into().unwrap());
    let computed = checksum(payload);
    if stored != computed {
        return Err(NetworkError::BadChecksum { stored, computed });
    }
    let transformer_len = 2 * (INPUTS * HIDDEN + HIDDEN);
    let transformer: Vec<i16> = i16s(&payload[..transformer_len]).collect();
    let output: Vec<i16> = i16s(&payload[transformer_len..PAYLOAD_SIZE - 4]).collect();
    let out_bias = i32::from_le_bytes(payload[PAYLOAD_SIZE - 4..].try_into().unwrap());
    let (weights, biases) = transformer.split_at(INPUTS * HIDDEN);
    Network::from_parts(
        weights.to_vec(),
        biases.try_into().unwrap(),
        output.as_slice().try_into().unwrap(),
        out_bias,
    )
}

/// The file for `net`.
pub fn encode(net: &Network) -> Vec<u8> {
    let mut payload = Vec::with_capacity(PAYLOAD_SIZE);
    for value in net
        .transformer_weights
        .iter()
        .chain(&net.transformer_biases)
        .chain(&net.output_weights)
    {
        payload.extend_from_slice(&value.to_le_bytes());
    }
    payload.extend_from_slice(&net.output_bias.to_le_bytes());
    let mut bytes = Vec::with_capacity(FILE_SIZE);
    bytes.extend_from_slice(&MAGIC);
    for field in [
        VERSION,
        INPUTS as u32,
        HIDDEN as u32,
        ACTIVATION_CRELU,
        QA as u32,
        QB as u32,
        SCALE as u32,
        0,
    ] {
        bytes.extend_from_slice(&field.to_le_bytes());
    }
    bytes.extend_from_slice(&checksum(&payload).to_le_bytes());
    bytes.extend_from_slice(&payload);
    bytes
}
