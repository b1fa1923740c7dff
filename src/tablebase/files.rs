//! The table files of a folder, each checked before the crate sees it: a name that is a
//! table's, a size the format allows (16 bytes past a multiple of 64) and the format's magic
//! bytes, so an empty, cut or overwritten file is named and left out instead of failing probes.

use std::fmt;
use std::fs::{self, File};
use std::io::Read;
use std::path::{Path, PathBuf};

use shakmaty::Chess;
use shakmaty_syzygy::Tablebase;

/// The first four bytes of a standard chess WDL (`.rtbw`) and DTZ (`.rtbz`) file.
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// A folder or file of `SyzygyPath` that was not loaded, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadProblem {
    pub path: PathBuf,
    pub reason: String,
    /// The folder does not exist: XBoard sends its configured default on every game, so
    /// this one is worth a note, not an alarm.
    pub missing_folder: bool,
}

impl fmt::Display for LoadProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.reason)
    }
}

/// Adds the folder's valid tables; returns how many files it added.
pub(super) fn add_folder(
    tables: &mut Tablebase<Chess>,
    folder: &Path,
    problems: &mut Vec<LoadProblem>,
) -> usize {
    let problem = |reason: String, missing_folder| LoadProblem {
        path: folder.to_path_buf(),
        reason,
        missing_folder,
    };
    let entries = match fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(error) => {
            let missing = error.kind() == std::io::ErrorKind::NotFound;
            problems.push(problem(
                format!("cannot read the folder ({error})"),
                missing,
            ));
            return 0;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    let mut added = 0;
    for path in paths {
        let Some(magic) = magic_for(&path) else {
            continue;
        };
        match check_file(&path, magic).and_then(|()| {
            tables
                .add_file(&path)
                .map_err(|e| format!("not accepted ({e})"))
        }) {
            Ok(()) => added += 1,
            Err(reason) => problems.push(LoadProblem {
                path,
                reason,
                missing_folder: false,
            }),
        }
    }
    if added == 0 && problems.iter().all(|p| !p.path.starts_with(folder)) {
        problems.push(problem(
            "no Syzygy table files (.rtbw, .rtbz) in it".to_string(),
            false,
        ));
    }
    added
}

/// The magic bytes a file's extension promises, `None` for files that are not tables.
fn magic_for(path: &Path) -> Option<[u8; 4]> {
    match path.extension()?.to_str()? {
        "rtbw" => Some(WDL_MAGIC),
        "rtbz" => Some(DTZ_MAGIC),
        _ => None,
    }
}

fn check_file(path: &Path, magic: [u8; 4]) -> Result<(), String> {
    let mut file = File::open(path).map_err(|e| format!("cannot open ({e})"))?;
    let size = file
        .metadata()
        .map_err(|e| format!("cannot read its size ({e})"))?
        .len();
    if size == 0 {
        return Err("empty file".to_string());
    }
    if size % 64 != 16 {
        return Err(format!(
            "{size} bytes, not a whole table (cut short or not a Syzygy file)"
        ));
    }
    let mut head = [0u8; 4];
    file.read_exact(&mut head)
        .map_err(|e| format!("cannot read ({e})"))?;
    if head != magic {
        return Err(format!(
            "not a standard chess Syzygy table (its first bytes are {head:02x?}, expected \
             {magic:02x?}; another variant's table or damaged)"
        ));
    }
    Ok(())
}
